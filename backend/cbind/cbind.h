/*
** cbind.h -- `squint compile`: annotated query files (sqlc's
** "-- name: GetAuthor :one") read into named queries, each query's
** parameters and result columns inferred from squint's typed IR, and the
** JSON manifest a code generator reads (docs/squint-compile.md).
**
** Layer: backend.  Takes a source, its compiled statements (api/) and a
** catalog; gives annotations, inferred signatures and JSON.  Diagnostics
** go to the caller's SqDiags; nothing is printed.
*/
#ifndef SQ_CBIND_H
#define SQ_CBIND_H

#include <stddef.h>
#include <stdint.h>

#include "frontend/catalog.h"
#include "frontend/types.h"
#include "grammar/ast.h"
#include "ir/ir.h"
#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "runtime/jsonw.h"
#include "runtime/src.h"
#include "runtime/strmap.h"

/* ---- annotations (annot.c) ---------------------------------------------- */

/* What a query's function returns, as sqlc names it. */
typedef enum SqQueryCmd {
    SQ_CMD_ONE,         /* :one       a row, or none */
    SQ_CMD_MANY,        /* :many      every row */
    SQ_CMD_EXEC,        /* :exec      nothing but success */
    SQ_CMD_EXECROWS,    /* :execrows  the rows changed */
    SQ_CMD_EXECLASTID,  /* :execlastid the last rowid inserted */
    SQ_CMD__COUNT
} SqQueryCmd;

/* ":one", ... */
const char *sq_query_cmd_name(SqQueryCmd c);

/* Whether s[0..n) is a C identifier (letters, digits, '_'; no digit first). */
int sq_cbind_is_c_identifier(const char *s, size_t n);

/* One annotated statement of a query file. */
typedef struct SqAnnotation {
    const char *name;   /* a C identifier (arena) */
    uint8_t cmd;        /* SqQueryCmd */
    SrcSpan at;         /* the annotation comment */
    SrcSpan stmt;       /* the statement it names (without its ';') */
    uint8_t stmt_kind;  /* AstStmtKind */
} SqAnnotation;

/* Pairing a file's annotations with its statements, as they are parsed. */
typedef struct SqAnnotator {
    const SqSrc *src;
    SqStrMap *seen;         /* names across the run's files, or NULL */
    SqDiags *d;
    SqArena *a;             /* the annotations */
    size_t next;            /* the first comment not looked at */
    uint32_t prev_end;      /* where the statement before ended */
    const char *last_name;  /* the query named last, for messages */
    size_t errors;
} SqAnnotator;

void sq_cbind_annot_init(SqAnnotator *an, const SqSrc *src, SqStrMap *seen, SqDiags *d, SqArena *a);

/* The annotation of src's next statement (span; st NULL when it did not
** parse: the compiler reports it), from the comments read so far (cs:
** every one before the statement, in order), or NULL after an error
** (E050x): a statement without an annotation, an annotation whose name,
** command or form cannot be read, two annotations before one statement,
** a name given twice. */
const SqAnnotation *sq_cbind_annot_next(SqAnnotator *an, SrcSpan span, const AstStmt *st, const AstComment *cs,
                                        size_t n);

/* After src's last statement (cs: every comment): an annotation left
** without a statement is E0504. */
void sq_cbind_annot_end(SqAnnotator *an, const AstComment *cs, size_t n);

/* ---- INSERT, UPDATE, DELETE (dml.c) ---------------------------------------- */

/* A parameter written as the whole value of a column: INSERT's VALUES or
** SELECT, SET a = ?.  It takes the column's type, and may be NULL exactly
** when the column may hold NULL. */
typedef struct SqAssign {
    uint32_t param_start;   /* the parameter's offset in its file */
    const CatTable *table;
    uint32_t col;
    uint8_t nullable;
} SqAssign;

/* A DML statement as a SELECT the binder types: RETURNING's columns
** first, then n_extra columns that only carry the statement's other
** expressions (SET values, the INSERT's source, the upsert). */
typedef struct SqDmlProbe {
    AstStmt *stmt;          /* the SELECT (arena), sharing the DML's nodes */
    int has_returning;
    uint32_t n_extra;
    SqAssign *assigns;
    uint32_t n_assigns, cap_assigns;
} SqDmlProbe;

/* The probe of dml (an INSERT, UPDATE or DELETE) into out.  -1 after
** errors in d that the binder would not see: an INSERT or SET column the
** target does not have, a row with the wrong number of values.  A target
** the schema does not have is left to the binder. */
int sq_cbind_dml_probe(const AstStmt *dml, const Catalog *cat, SqInterner *names, SqArena *a, SqDiags *d,
                       SqDmlProbe *out);

/* ---- inference (infer.c) ------------------------------------------------- */

/* sqlc's macros, read as parameters in a query file. */
typedef enum SqParamMacro {
    SQ_MACRO_NONE,
    SQ_MACRO_ARG,           /* sqlc.arg(x): :x */
    SQ_MACRO_NARG,          /* sqlc.narg(x): :x, and it may be NULL */
    SQ_MACRO_SLICE          /* sqlc.slice(x): x IN (sqlc.slice(x)), a list given at run time */
} SqParamMacro;

/* What numbers a parameter as SQLite would once macros are :name:
** "sqlc.arg(id)" is ":id", "?" (NULL too) is "?", the rest as written.
** *macro: its SqParamMacro. */
const char *sq_cbind_param_key(SqArena *a, const char *written, uint8_t *macro);

/* A parameter of a query, in SQLite's numbering. */
typedef struct SqParamInfo {
    uint32_t index;         /* SQLite's parameter number, from 1 */
    const char *name;       /* unique within the query, a C identifier */
    const char *written;    /* as written: "?", "?2", ":id", "sqlc.arg(id)" */
    const char *key;        /* sq_cbind_param_key's */
    uint8_t macro;          /* SqParamMacro */
    SqType type;            /* class SQ_TY_ANY when it cannot be inferred */
    const char *table;      /* the column it is compared with, or NULL */
    const char *column;
    const char *from;       /* how the type was found: "column", "limit", "like", ... or NULL */
    SrcSpan span;           /* its first use */
} SqParamInfo;

/* A result column. */
typedef struct SqResultInfo {
    const char *name;       /* SQLite's name for it */
    SqType type;
    const char *decl_type;  /* the table column's declared type, or NULL */
    const char *table;      /* the table column it is, or NULL */
    const char *column;
} SqResultInfo;

typedef struct SqSignature {
    SqParamInfo *params;
    uint32_t n_params;
    SqResultInfo *cols;
    uint32_t n_cols;
} SqSignature;

/* The parameters and result columns of q (in a); a warning W0501 in d
** for each parameter whose type stays unknown.  dml: q is a DML
** statement's probe, or NULL for a query. */
void sq_cbind_infer(IrQuery *q, const SqDmlProbe *dml, SqArena *a, SqDiags *d, SqSignature *sig);

/* "INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "any" */
const char *sq_cbind_type_name(SqType t);

/* ---- warnings (warn.c) ------------------------------------------------------ */

typedef struct SqCbindWarnCtx {
    const Catalog *cat;
    SqInterner *names;
    const SqSrcSet *srcs;
    SqDiags *diags;
} SqCbindWarnCtx;

/* What squint compile says of a query that compiled (annotation a,
** statement st, its IR q: a DML statement's probe; its signature): E0508
** for :one or :many without columns, W0502-W0505, and squint lint's
** schema rules on a SELECT, as warnings. */
void sq_cbind_warn(const SqCbindWarnCtx *w, const SqAnnotation *a, const AstStmt *st, IrQuery *q,
                   const SqSignature *sig);

/* ---- the SQL text (sqltext.c) ---------------------------------------------- */

typedef enum SqSqlForm {
    SQ_SQL_FOR_SQLITE,      /* sqlc's macros as :name, the rest as written */
    SQ_SQL_NUMBERED         /* every parameter as ?N; a slice's after a comment SLICE:name */
} SqSqlForm;

/* The text of statement stmt of src, its parameters rewritten in form
** (sig: the statement's signature), in a. */
char *sq_cbind_sql(const SqSrc *src, SrcSpan stmt, const SqSignature *sig, SqSqlForm form, SqArena *a);

/* ---- the manifest (manifest.c) ------------------------------------------- */

/* One compiled query, for the manifest. */
typedef struct SqCompiledQuery {
    const SqAnnotation *ann;
    const SqSrc *src;       /* its file */
    SqSignature sig;
    const char *sql;        /* SQ_SQL_NUMBERED */
} SqCompiledQuery;

/* The manifest: {"squint_compile": 3, "package": name, "queries": [...]}
** (docs/formats.md). */
void sq_cbind_manifest(SqJsonWriter *w, const char *package, const SqCompiledQuery *qs, size_t n);

/* ---- the C bindings (emit_c.c, emit_c_body.c) ------------------------------- */

/* How every file the C bindings are opens, so that squint compile knows
** a file it wrote. */
#define SQ_CBIND_C_MARK "/* Generated by squint compile"

/* The C bindings of a package (docs/squint-compile.md, "C bindings"): the
** header P.h appended to header, the source P.c to source; package is a
** C identifier.  -1, nothing appended, when two names the bindings
** declare would be one C name (a query named "open", or "Get" beside
** "GetRow"; a package named "sq"): errors E0509 in d, at the query. */
int sq_cbind_emit_c(SqBuf *header, SqBuf *source, const char *package, const SqCompiledQuery *qs, size_t n,
                    SqDiags *d);

#endif
