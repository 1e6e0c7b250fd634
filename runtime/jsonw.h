/*
** jsonw.h -- streaming JSON writer into an SqBuf.
**
** Layer: runtime.  Writing JSON needs no parse tree, so output goes straight
** into a buffer with commas and indentation tracked here (reading JSON is
** json.h's job).  Strings are escaped per RFC 8259; bytes that
** are not valid UTF-8 are written as \u00XX of the byte so that output is
** always valid JSON.
*/
#ifndef SQ_JSONW_H
#define SQ_JSONW_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/strbuf.h"

#define SQ_JW_MAX_DEPTH 256

typedef struct SqJsonWriter {
    SqBuf *out;                       /* destination (not owned) */
    int pretty;                       /* indent two spaces per level */
    int depth;                        /* open containers */
    uint8_t count[SQ_JW_MAX_DEPTH];   /* 1 once a container has an item */
    int after_key;                    /* a key was just written */
} SqJsonWriter;

void sq_jw_init(SqJsonWriter *w, SqBuf *out, int pretty);
void sq_jw_obj_begin(SqJsonWriter *w);
void sq_jw_obj_end(SqJsonWriter *w);
void sq_jw_arr_begin(SqJsonWriter *w);
void sq_jw_arr_end(SqJsonWriter *w);
void sq_jw_key(SqJsonWriter *w, const char *key);
/* A string value; NULL writes null. */
void sq_jw_str(SqJsonWriter *w, const char *s);
void sq_jw_strn(SqJsonWriter *w, const char *s, size_t n);
void sq_jw_int(SqJsonWriter *w, int64_t v);
void sq_jw_double(SqJsonWriter *w, double v);
void sq_jw_bool(SqJsonWriter *w, int v);
void sq_jw_null(SqJsonWriter *w);
/* A value given as its JSON text (a number spelled by the caller). */
void sq_jw_raw(SqJsonWriter *w, const char *token);

/* Escape s[0..n) as a JSON string literal (with quotes) into out. */
void sq_json_escape(SqBuf *out, const char *s, size_t n);

#endif
