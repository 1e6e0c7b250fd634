/*
** format.h -- the output formats squint's commands write, in one table.
**
** Layer: runtime.  Every command that takes --format names its choices
** as a set of these (SQ_FMT_BIT), so a format means the same thing and is
** spelled the same way in every command, and one message lists the
** choices when a name is wrong.  What a format looks like for a command
** is that command's writer; docs/formats.md describes the JSON ones.
*/
#ifndef SQ_FORMAT_H
#define SQ_FORMAT_H

#include "runtime/strbuf.h"

typedef enum SqFormat {
    SQ_FMT_TEXT,  /* for people: lines, excerpts with carets */
    SQ_FMT_JSON,  /* for programs: one document (docs/formats.md) */
    SQ_FMT_SEXP,  /* the parse tree as S-expressions */
    SQ_FMT_SARIF, /* SARIF 2.1.0, for code-scanning tools */
    SQ_FMT_DOT,   /* Graphviz */
    SQ_FMT_SQL,   /* SQL text */
    SQ_FMT_JSONL, /* one JSON object per line (squint prompt's requests, lint's
                     findings); also called json-lines */
    SQ_FMT_GCC,   /* one line per finding in gcc's shape, for problem matchers */
    SQ_FMT_GITHUB, /* GitHub Actions workflow commands: annotations */
    SQ_FMT_JUNIT, /* JUnit XML, for CI systems' test tabs */
    SQ_FMT_SVG,   /* a picture, drawn by Graphviz's dot from SQ_FMT_DOT */
    SQ_FMT__COUNT
} SqFormat;

#define SQ_FMT_BIT(f) (1u << (f))

/* The version of the JSON key set (docs/formats.md), written as
** "format_version" by the outputs that are one object.  2: spans are
** file, line, column, end_line, end_column, offset, length everywhere. */
#define SQ_JSON_FORMAT_VERSION 2

/* The format called name if it is one of allowed (a set of SQ_FMT_BIT),
** else -1. */
int sq_format_find(const char *name, unsigned allowed);
/* "text, json or dot": the names in allowed, in table order. */
void sq_format_names(SqBuf *out, unsigned allowed);

#endif
