/*
** emit_c_int.h -- what the two halves of the C bindings' generator share:
** emit_c.c works out every C name and writes the header, emit_c_body.c
** writes the source from the same names.
**
** Layer: backend (private to backend/cbind).  Names live in the
** CPackage's arena, which emit_c.c owns for one call.
*/
#ifndef SQ_EMIT_C_INT_H
#define SQ_EMIT_C_INT_H

#include "backend/cbind/cbind.h"
#include "runtime/strbuf.h"

/* How a value crosses into C (docs/squint-compile.md, "Types"). */
typedef enum CKind {
    CK_INT,         /* INTEGER: int64_t */
    CK_REAL,        /* REAL: double */
    CK_TEXT,        /* TEXT: const char * */
    CK_BLOB,        /* BLOB: const void * and a length */
    CK_VALUE        /* any, NUMERIC: P_value */
} CKind;

/* One query as the bindings see it. */
typedef struct CQuery {
    const SqCompiledQuery *q;
    const char *name;               /* the query's name: its function is P_<name> */
    uint32_t slot;                  /* its statement's place in P_db */
    const SqParamInfo **params;     /* in SQLite's order (arena) */
    const char **args;              /* params[i]'s C name; a BLOB's _len, a slice's _n beside it */
    uint32_t n_params;
    const char **fields;            /* cols[i]'s field in the row; has_, _len beside it */
    uint32_t n_slices;
    uint32_t top;                   /* the largest parameter number */
} CQuery;

/* A package's queries with their names, for one call of sq_cbind_emit_c. */
typedef struct CPackage {
    const char *p;                  /* the package: every public name starts with p_ */
    CQuery *qs;
    size_t n;
    const char *header_name;        /* "p.h", which the source includes */
} CPackage;

/* How a value of type t crosses into C. */
CKind cemit_kind(SqType t);

/* Whether the query returns rows (:one, :many), so has a row type. */
int cemit_has_row(const CQuery *cq);

/* Whether p stands for a list (sqlc.slice). */
int cemit_is_slice(const SqParamInfo *p);

/* s into b, made safe inside a block comment ("*" "/", "/" "*" and "??"
** broken by a space, control bytes as spaces). */
void cemit_comment(SqBuf *b, const char *s);

/* The first line of every generated file, then the files its queries
** came from. */
void cemit_banner(SqBuf *b, const CPackage *pk);

/* The parameters of cq's function, each "type name", joined into b
** after "P_db *q" (shared by the header's prototype and the source's
** definition). */
void cemit_signature(SqBuf *b, const CPackage *pk, const CQuery *cq);

/* The source file P.c. */
void cemit_source(SqBuf *b, const CPackage *pk);

#endif
