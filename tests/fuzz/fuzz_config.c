/*
** fuzz_config.c -- libFuzzer target: `.squint.json`, squint lint's
** configuration (backend/lint/lint_config.c, part of the library).
**
** The input is the file's content, read as /repo/.squint.json through
** sq_lint_file_read, the same parser sq_lint_file_load runs on a file.  A
** configuration that reads is then asked what it ignores, for a few
** input files, items and rules, as squint lint asks it for each finding.
**
** Built by tests/fuzz/run.sh with clang -fsanitize=fuzzer,address,undefined.
** The property is the robustness one, plus: a configuration with
** problems reports at least one error, and a clean one none.
*/
#include "backend/lint/lint_config.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    return 0;
}

static const char *const files[] = {"/repo/dev.json", "/repo/queries/q.sql", "dev.json", "-", ""};
static const int64_t items[] = {-1, 0, 12, 40, INT64_MAX};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    SqSrcSet srcs;
    sq_srcset_init(&srcs);
    SqDiags diags;
    sq_diags_init(&diags, &srcs);
    SqArena *a = sq_arena_new();
    SqSrc *src = sq_src_add_copy(&srcs, "/repo/.squint.json", (const char *)data, size);
    SqLintFile c;
    int rc = sq_lint_file_read(&c, a, "/repo/.squint.json", src, &diags);
    if ((rc < 0) != (diags.n_errors > 0)) {
        fprintf(stderr, "fuzz_config: read returned %d with %zu errors\n", rc, diags.n_errors);
        abort();
    }
    if (rc == 0)
        for (size_t f = 0; f < SQ_ARRAY_LEN(files); f++)
            for (size_t i = 0; i < SQ_ARRAY_LEN(items); i++)
                for (int rule = -1; rule < SQ_LINT__COUNT; rule += 7)
                    sq_lint_file_ignores(&c, files[f], items[i], rule);
    fuzz_render_diags(&diags, 0);
    sq_arena_free(a);
    sq_diags_free(&diags);
    sq_srcset_free(&srcs);
    return 0;
}
