/*
** pytext.h -- the few Python string operations the official evaluation
** scripts apply to SQL text, for the code that reproduces them
** (spider_em_parse.c, plug.c).
**
** Layer: backend/eval.  ASCII only: a byte of a UTF-8 sequence is never
** a blank here (Python's str also counts a few non-ASCII spaces).
*/
#ifndef SQ_EVAL_PYTEXT_H
#define SQ_EVAL_PYTEXT_H

#include "runtime/strbuf.h"

/* A blank for str.split() and str.strip(): " \t\n\v\f\r" and the
** separators 0x1c..0x1f. */
static inline int sq_py_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* Append s to out with every occurrence of from (not empty) replaced by
** to, left to right and without overlaps: s.replace(from, to). */
void sq_py_replace(SqBuf *out, const char *s, const char *from, const char *to);

#endif
