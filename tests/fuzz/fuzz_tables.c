/*
** fuzz_tables.c -- libFuzzer target: Spider/BIRD tables.json
** (frontend/catalog_json.c), the schema format of --tables.
**
** The input is the file.  Every entry with a db_id is loaded into a
** catalog as --tables --db-id does it, foreign keys linked; a db_id the
** file does not hold is asked for too (the "did you mean" path).  Each
** catalog is then used: its fixture script is written (the CREATE TABLE
** statements squint equiv builds counterexamples with) and a SELECT of
** every column of each of its first tables is bound and lowered, naming
** the table as ir_sql_ident writes identifiers.
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** The property is the robustness one: no crash, leak, hang or undefined
** behaviour on any input, and every diagnostic renders in text and JSON.
*/
#include "backend/fixture/fixture.h"
#include "backend/sqlite/db.h"
#include "ir/ir.h"
#include "tests/fuzz/fuzz_util.h"

enum { MAX_ENTRIES = 8, MAX_TABLES = 8 };

static SqInterner *G_names;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    G_names = sq_interner_new();
    return 0;
}

/* Bind SELECT * FROM each of the catalog's first tables. */
static void use_catalog(const Catalog *cat, SqSrcSet *srcs, SqDiags *diags) {
    SqBindOptions opt = sq_db_bind_options();
    SqArena *a = sq_arena_new();
    SqBuf sql = SQ_BUF_INIT;
    SqFixture f;
    sq_fixture_init(&f, cat);
    sq_fixture_sql(&f, &sql);
    sq_fixture_free(&f);
    for (uint32_t i = 0; i < cat->n_tables && i < MAX_TABLES; i++) {
        sq_buf_reset(&sql);
        sq_buf_puts(&sql, "SELECT * FROM ");
        ir_sql_ident(&sql, cat->tables[i]->name);
        SqSrc *src = sq_src_add_copy(srcs, "<query>", sq_buf_str(&sql), sql.len);
        const char *why;
        ir_load_query(a, src, cat, G_names, diags, &opt, &why);
        sq_arena_reset(a);
    }
    sq_buf_free(&sql);
    sq_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqArena *a = sq_arena_new();
    SqSrc *src = sq_src_add_copy(&srcs, "tables.json", (const char *)data, size);
    const SqJson *doc = sq_tables_json_parse(a, src, &diags);
    if (doc) {
        uint32_t n;
        const char **ids = sq_tables_json_db_ids(a, doc, &n);
        for (uint32_t i = 0; i <= n && i < MAX_ENTRIES; i++) {
            /* the last round asks for a db_id that is not there */
            const char *id = i < n ? ids[i] : "no_such_db";
            Catalog *cat = sq_catalog_new(G_names, "tables.json");
            if (sq_catalog_load_tables_json(cat, src, doc, id, sq_span(src->id, 0, 0), &diags) == 0) {
                sq_catalog_link(cat, &diags);
                use_catalog(cat, &srcs, &diags);
            }
            sq_catalog_free(cat);
        }
    }
    fuzz_render_diags(&diags, 0);
    sq_arena_free(a);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return 0;
}
