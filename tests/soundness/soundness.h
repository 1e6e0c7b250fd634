/*
** soundness.h -- the pairs the soundness tool checks, and the check of one
** pair (check.c), which runs in a child process of its own.
**
** Test support (not part of libsquint).  See soundness.c for the tool and
** docs/soundness.md for what is checked.
*/
#ifndef SQ_SOUNDNESS_H
#define SQ_SOUNDNESS_H

#include "backend/equiv/equiv.h"
#include "tests/soundness/randdb.h"

/* A schema pairs are decided over. */
typedef struct Schema {
    char *key;            /* "spider:concert_singer", "cases:joins" */
    Catalog *cat;         /* the run's context's (api/squint.h) */
    char *ddl;            /* CREATE statements SQLite runs */
    char *db_path;        /* the real database, or NULL */
    ValuePool **real;     /* the real database's values per table and column */
} Schema;

typedef enum PairKind {
    PK_CORPUS,            /* gold vs prediction, or a case's two queries */
    PK_SELF,              /* a query against itself */
    PK_EMIT,              /* a query against the SQL squint emits for it */
    PK_REWRITE,           /* a query against its rewrite by a pass */
} PairKind;

typedef struct Pair {
    char *id;             /* stable name, what a known-findings file lists */
    PairKind kind;
    const char *pass;     /* PK_REWRITE: the pass */
    uint32_t schema;
    const char *sql1, *sql2; /* borrowed; sql2 NULL for PK_EMIT and PK_REWRITE */
    SqSmtSemantics sem[2];
    int n_sem;
    int bound;            /* 0: the run's bound */
    int search_only;
    int typed;            /* the verdict and the random databases with
                             typed values only (a case's "-- values: typed") */
    int has_real;         /* also run on the schema's real database */
} Pair;

/* What every check needs. */
typedef struct CheckCtx {
    const Schema *schemas;
    SqInterner *names;
    SqBindOptions bind_opt;
    SqEquivOptions opt;   /* bound, rlimit; no timeout */
    int real;             /* run corpus pairs on their real database */
    int real_only;        /* search only where the real database shows a difference */
    int ties;             /* check different-under-ties counterexamples */
    int dbs;              /* random databases per equivalent verdict */
    int max_rows;         /* rows per table in a random database */
    int typed;            /* random values of each column's model class only */
    int show_dbs;         /* write every random database to stderr */
    uint64_t seed;
} CheckCtx;

/* Decide pair p under each of its semantics and check the verdicts,
** writing to out the lines the parent reads:
**   P 1                                      the queries loaded
**   P 0 WHY                                  they did not (nothing else follows)
**   V SEM VERDICT REAL DBS NOBUILD NORUN     per semantics: the verdict (or
**                                            "-" when --real-only skipped the
**                                            search), the real database's
**                                            comparison (-1 not run, 0 same,
**                                            1 different), random databases
**                                            compared, not built, not run
**   F KIND SEM DIAGNOSIS                     a finding (real, random, ties),
**   | ...                                    then its details
** Returns 0 (the child's exit status). */
int check_pair(const CheckCtx *ctx, const Pair *p, SqBuf *out);

const char *sem_name(SqSmtSemantics s);

#endif
