/*
** json.h -- JSON reader that remembers where every value is in the document.
**
** Layer: runtime.  Takes the bytes of a JSON document (RFC 8259; the one
** extension is that a leading UTF-8 byte order mark is skipped) and gives a
** tree of SqJson nodes, each with the byte offsets of its text.  A string's
** decoded bytes can be mapped back to the document with
** sq_json_string_map(), so that a diagnostic in an SQL query read from a
** benchmark's dev.json points at a line and column of dev.json itself.
**
** Memory: every node, string, key and array of a parse lives in the arena
** given to sq_json_parse(); nothing here is freed on its own, and the
** document text is neither kept nor owned.  (cJSON stays for callers that
** need no positions; this reader does not use it.)
*/
#ifndef SQ_JSON_H
#define SQ_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/src.h"

/* Nesting deeper than this many arrays and objects is a parse error. */
#define SQ_JSON_MAX_DEPTH 512

typedef enum SqJsonKind {
    SQ_JSON_NULL,
    SQ_JSON_FALSE,
    SQ_JSON_TRUE,
    SQ_JSON_NUMBER,
    SQ_JSON_STRING,
    SQ_JSON_ARRAY,
    SQ_JSON_OBJECT
} SqJsonKind;

/* One value of a parsed document.  Fields that do not apply to the kind
** are zero. */
typedef struct SqJson {
    uint8_t kind;          /* SqJsonKind */
    uint32_t start, end;   /* byte offsets of the value's text in the document
                              (a string's quotes included; end is one past) */
    const char *str;       /* STRING: decoded UTF-8, NUL-terminated (may hold
                              NUL via \u0000: use len) */
    uint32_t len;          /* STRING: decoded length in bytes */
    double num;            /* NUMBER: value as strtod reads it */
    int64_t inum;          /* NUMBER when is_int: the exact value */
    uint8_t is_int;        /* NUMBER written as an integer that fits int64 */
    struct SqJson **items; /* ARRAY elements, OBJECT member values, in
                              document order */
    uint32_t n;            /* count of items */
    const char **keys;     /* OBJECT: decoded member names, parallel to items */
} SqJson;

/* Why a parse failed. */
typedef struct SqJsonError {
    uint32_t offset;      /* byte offset of the problem (the document length
                             when the input ended too early) */
    uint32_t open_offset; /* unclosed string, array or object: offset of its
                             opening byte; UINT32_MAX otherwise */
    char msg[128];        /* lowercase message, e.g. "expected ',' or '}'
                             after an object member" */
} SqJsonError;

/* ---- parsing ------------------------------------------------------------ */

/* Parse the whole document text[0..len) (text need not be NUL-terminated).
** Every node lives in arena a.  Returns NULL on error with *err filled (err
** may be NULL).  Nesting deeper than SQ_JSON_MAX_DEPTH levels is an error.
** Duplicate keys are kept (sq_json_get returns the first).  Invalid UTF-8
** in strings is copied through unchanged; an unpaired surrogate escape
** decodes to U+FFFD.  Documents of 4 GiB (less 16 bytes) or more are
** refused, so that every offset fits a uint32_t. */
SqJson *sq_json_parse(SqArena *a, const char *text, size_t len,
                      SqJsonError *err);

/* ---- access ------------------------------------------------------------- */

/* The first member named key; NULL if absent or obj is not an object.
** (Names are compared as C strings, so a key holding \u0000 matches only
** up to its first NUL.) */
const SqJson *sq_json_get(const SqJson *obj, const char *key);

/* v->str if v is a string, else NULL (v may be NULL). */
const char *sq_json_string(const SqJson *v);

/* Whether member i of object obj has the key of an earlier member (JSON
** keeps both; a reader that means one thing per key reports it). */
int sq_json_key_repeats(const SqJson *obj, uint32_t i);

/* ---- positions ---------------------------------------------------------- */

/* The place of member i's key in doc (the text obj was parsed from): its
** quoted text [*start, *end), found back from the value over the ':'
** (nodes keep only their values' places), so that a message about a key
** points at the key. */
void sq_json_key_place(const char *doc, const SqJson *obj, uint32_t i, uint32_t *start, uint32_t *end);

/* Segments mapping the decoded string v back to doc (the document v was
** parsed from), in the form sq_src_embed() takes.  Plain runs map one to
** one; each escape starts a new segment, with one more for each further
** byte it decodes to, so every decoded byte maps to the offset of the
** backslash of the escape that produced it, and the byte after an escape
** maps right after the escape.  The first segment is {0, v->start + 1};
** a string ending in an escape ends with a segment for its closing quote.
** Allocated in a; *n set.  NULL with *n = 0 when v is not a string. */
SqSrcSeg *sq_json_string_map(SqArena *a, const char *doc, const SqJson *v,
                             uint32_t *n);

#endif
