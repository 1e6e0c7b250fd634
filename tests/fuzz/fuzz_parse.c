/*
** fuzz_parse.c -- libFuzzer target: any bytes through the parser and the
** diagnostic renderers.
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** The parser must never crash, hang or leak on any input; every statement
** is also printed in both forms and every diagnostic rendered, so the
** printers and the caret code see the same inputs.
*/
#include <stddef.h>
#include <stdint.h>

#include "grammar/ast_print.h"
#include "grammar/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqSrc *src = sq_src_add_copy(&srcs, "<fuzz>", (const char *)data, size);
    SqInterner *names = sq_interner_new();
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqParser *p = sq_parser_new(src, names, &diags);
    SqArena *arena = sq_arena_new();
    SqBuf out = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &out, 0);
    SqParseResult r;
    SqParseStatus st;
    while ((st = sq_parser_next(p, arena, &r)) != SQ_PARSE_END) {
        if (st == SQ_PARSE_OK) {
            ast_print_sexp(&out, r.stmt);
            ast_print_json(&w, r.stmt);
        }
        sq_buf_reset(&out);
        sq_arena_reset(arena);
    }
    for (size_t i = 0; i < diags.n; i++) {
        sq_diag_render_text(&diags, diags.items[i], &out, 0);
        sq_diag_render_json(&diags, diags.items[i], &w);
        sq_buf_reset(&out);
    }
    sq_buf_free(&out);
    sq_arena_free(arena);
    sq_parser_free(p);
    sq_diags_free(&diags);
    sq_interner_free(names);
    sq_srcset_free(&srcs);
    return 0;
}
