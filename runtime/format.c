/*
** format.c -- the output format table (see format.h).
*/
#include "runtime/format.h"

#include <string.h>

static const char *const format_names[SQ_FMT__COUNT] = {
    [SQ_FMT_TEXT] = "text", [SQ_FMT_JSON] = "json", [SQ_FMT_SEXP] = "sexp",
    [SQ_FMT_SARIF] = "sarif", [SQ_FMT_DOT] = "dot", [SQ_FMT_SQL] = "sql",
    [SQ_FMT_JSONL] = "jsonl", [SQ_FMT_GCC] = "gcc", [SQ_FMT_GITHUB] = "github", [SQ_FMT_JUNIT] = "junit",
    [SQ_FMT_SVG] = "svg",
};

int sq_format_find(const char *name, unsigned allowed) {
    if (strcmp(name, "json-lines") == 0) name = "jsonl";   /* the other usual name */
    for (int f = 0; f < SQ_FMT__COUNT; f++)
        if ((allowed & SQ_FMT_BIT(f)) && strcmp(name, format_names[f]) == 0) return f;
    return -1;
}

void sq_format_names(SqBuf *out, unsigned allowed) {
    int left = 0;
    for (int f = 0; f < SQ_FMT__COUNT; f++) left += (allowed & SQ_FMT_BIT(f)) != 0;
    for (int f = 0; f < SQ_FMT__COUNT; f++) {
        if (!(allowed & SQ_FMT_BIT(f))) continue;
        sq_buf_puts(out, format_names[f]);
        left--;
        if (left > 1) sq_buf_puts(out, ", ");
        else if (left == 1) sq_buf_puts(out, " or ");
    }
}
