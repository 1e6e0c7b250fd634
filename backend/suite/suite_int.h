/*
** suite_int.h -- what suite.c and values.c share: the state of one
** suite's build and its candidate databases.
**
** Layer: backend/suite (private).
*/
#ifndef SQ_SUITE_INT_H
#define SQ_SUITE_INT_H

#include "backend/suite/suite.h"
#include "passes/mutate/mutate.h"

/* A database that may join the suite, open in memory with the gold's
** result on it. */
typedef struct Cand {
    SqFixture fixture;
    SqDb *db;
    SqResult gold;
    const char *origin;
} Cand;

/* hints.c: quoted values of the question's text and evidence, each with
** the column a comparison there names (NULL: none). */
typedef struct SuiteHint {
    const char *column;    /* as written, unquoted, maybe T1.name */
    const char *text;
} SuiteHint;
typedef struct SuiteHints {
    SuiteHint *v;
    uint32_t n;
} SuiteHints;
void suite_hints(const char *question, const char *evidence, SqArena *a, SuiteHints *out);

typedef struct Build {
    const Catalog *cat;
    SqInterner *names;
    SqSrcSet *srcs;
    const SqSuiteOptions *opt;
    SqSuite *out;
    SqArena *a;
    SqDiags diags;
    IrQuery *gold;
    const char *gold_sql;
    SqCompareMode mode;
    int sorted;            /* the gold sorts its rows: order matters */
    Cand *cands;
    uint32_t n_cands, cap_cands;
    IrQuery **mq;          /* each mutant's IR (NULL: invalid) */
    /* verdict of candidate c on mutant m at [c * n_mutants + m]:
    ** 0 not run, 1 same result, 2 different */
    uint8_t *kills;
    uint32_t cap_kill_rows;
    int32_t empty;         /* the candidate with no rows at all, or -1 */
    int32_t nulls;         /* the witness with NULLs (add_nulls), or -1 */
    SqDb *real;            /* opt->values_db, opened read-only, or NULL */
    SuiteHints hints;      /* of opt->question and opt->evidence */
} Build;

enum { K_NOT_RUN, K_SAME, K_DIFFERENT };

/* Whether candidate c tells mutant m apart (run there once, then
** remembered in b->kills). */
int suite_kills(Build *b, uint32_t c, uint32_t m);

/* values.c: every CHECK of the schema's tables holds on db. */
int suite_checks_hold(Build *b, SqDb *db);

/* values.c: candidate c's values made to read like data where the
** queries leave them free (suite.h, Realistic values); every change is
** kept only when the database still loads, holds the CHECKs, and gives
** the gold rows (if it did) and every mutant the same fate as before. */
void suite_realistic(Build *b, uint32_t c);

#endif
