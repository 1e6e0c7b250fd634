/*
** fuzz_bench.c -- libFuzzer target: the benchmark-file readers
** (frontend/bench_input.c): Spider and BIRD dev.json, BIRD's prediction
** object, gold TSV, prediction lines and SQL scripts, detected or forced.
**
** The first byte chooses how the rest is read:
**   bits 0-2  the format (SqInputFormat: auto, sql, spider, bird, tsv,
**             bird-pred, lines, auto-lines)
**   bit 3     the file is named dev.json (read as JSON whatever it holds)
**             rather than dev_gold.sql
**   bit 4     the rest is two files split at the first 0xff byte: a
**             prediction file that takes its db_ids from the gold file
**             before it (sq_bench_take_db_ids), as --db-id-from does
** Every item's SQL is then parsed, as `squint check` does, and every
** diagnostic rendered: positions inside JSON strings map back through
** the escape segments to the file's line and column.
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** Besides the sanitizers' findings, an item must lie inside its file:
** its span, its db_id's span and every position of its SQL located in the
** file it came from.
*/
#include "frontend/bench_input.h"
#include "grammar/parse.h"
#include "tests/fuzz/fuzz_util.h"

static SqInterner *G_names;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    G_names = sq_interner_new();
    return 0;
}

static void fail(const SqBenchItem *it, const char *what) {
    fprintf(stderr, "fuzz_bench: %s (%s)\n", what, it->label ? it->label : "script");
    abort();
}

/* The item's spans are inside its file (its db_id's: or in the gold file
** from, which it came from), and its SQL maps into it. */
static void check_item(const SqBench *b, const SqBenchItem *it, const SqBench *from) {
    size_t len = b->file->len;
    if (it->span.file != b->file->id || it->span.start > it->span.end || it->span.end > len)
        fail(it, "the item's span is not in its file");
    const SqSrc *idf = it->db_id_span.file == b->file->id            ? b->file
                       : from && it->db_id_span.file == from->file->id ? from->file
                                                                       : NULL;
    if (it->db_id_span.file && (!idf || it->db_id_span.start > it->db_id_span.end ||
                                it->db_id_span.end > idf->len))
        fail(it, "the db_id's span is not in the file");
    if (!it->sql) return;
    for (uint32_t off = 0; off <= it->sql->len; off += 1 + off / 4) {
        SqSrcPos pos = sq_src_locate(it->sql, off);
        if (pos.file != b->file || pos.offset > len) fail(it, "the SQL maps outside the file");
    }
}

/* Parse every statement of the item, as squint check does. */
static void parse_item(const SqBenchItem *it, SqDiags *diags, SqArena *a) {
    if (!it->sql) return;
    SqParser *p = sq_parser_new(it->sql, G_names, diags);
    SqParseResult r;
    while (sq_parser_next(p, a, &r) != SQ_PARSE_END) sq_arena_reset(a);
    sq_parser_free(p);
}

static void read_file(SqSrcSet *srcs, SqDiags *diags, SqArena *a, SqSrc *src, SqInputFormat f,
                      const SqBench *from) {
    SqBench b;
    sq_bench_read(&b, a, srcs, src, f, diags);
    if (from) sq_bench_take_db_ids(&b, from, diags);
    sq_input_format_name((SqInputFormat)b.format);
    SqArena *scratch = sq_arena_new();
    for (uint32_t i = 0; i < b.n_items; i++) {
        check_item(&b, &b.items[i], from);
        parse_item(&b.items[i], diags, scratch);
    }
    sq_arena_free(scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size == 0) return 0;
    SqInputFormat f = (SqInputFormat)(data[0] & 7);
    const char *name = data[0] & 8 ? "dev.json" : "dev_gold.sql";
    const char *text = (const char *)data + 1;
    size_t n = size - 1;
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqArena *a = sq_arena_new();
    const char *cut = data[0] & 16 ? memchr(text, 0xff, n) : NULL;
    if (cut) {
        /* gold, then a prediction file paired with it */
        SqSrc *gold = sq_src_add_copy(&srcs, name, text, (size_t)(cut - text));
        SqBench g;
        sq_bench_read(&g, a, &srcs, gold, SQ_INPUT_AUTO, &diags);
        SqSrc *pred = sq_src_add_copy(&srcs, "pred.txt", cut + 1, n - (size_t)(cut - text) - 1);
        read_file(&srcs, &diags, a, pred, f == SQ_INPUT_AUTO ? SQ_INPUT_AUTO_LINES : f, &g);
    } else {
        read_file(&srcs, &diags, a, sq_src_add_copy(&srcs, name, text, n), f, NULL);
    }
    fuzz_render_diags(&diags, 0);
    sq_arena_free(a);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return 0;
}
