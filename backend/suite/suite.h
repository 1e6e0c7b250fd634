/*
** suite.h -- a test suite for one gold query: a few small databases on
** which the gold returns rows and that tell it apart from its near-miss
** queries (`squint fixture`).
**
** Layer: backend.  The method is the distilled test suites of Zhong et
** al. (2020), with the random databases replaced by constructed ones:
**
**   1. the witness (witness.c): a database that satisfies the schema's
**      constraints, on which the gold returns rows whatever SQLite does
**      with ties, with as many rows as the bound allows;
**   2. the mutants (passes/mutate): near-miss queries made from the
**      gold's IR, each run on every database so far (the witness and the
**      empty database, no rows in any table); one that none tells
**      apart goes to sq_equiv, whose validated counterexample joins the
**      databases, or whose proof says it is the same query (reported as
**      such, never as a survivor), or whose other verdict is its reason
**      for being unknown;
**   3. distillation (suite.c): every database against every mutant, by
**      execution; the witness, the empty database where the gold returns
**      a row on it (a query that returns none there differs from the gold
**      on the least data there is), then greedily the database that kills
**      the most mutants still alive, until every killed mutant is killed
**      by one kept.
**
** Every "kills" is SQLite's answer: both queries run on the database and
** their results compared under the semantics asked for.
**
** Memory: an SqSuite owns its arena, fixtures and results
** (sq_suite_free); the catalog is borrowed and must outlive it.
*/
#ifndef SQ_SUITE_H
#define SQ_SUITE_H

#include "backend/equiv/equiv.h"
#include "frontend/bind.h"
#include "runtime/intern.h"
#include "runtime/jsonw.h"
#include "runtime/src.h"

/* ---- the witness (witness.c) ------------------------------------------ */

typedef enum SqWitnessStatus {
    SQ_WITNESS_FOUND,       /* a database on which the gold returns rows */
    SQ_WITNESS_EMPTY,       /* the gold returns no row on any database of the
                               bound: proved (a likely bug of the gold) */
    SQ_WITNESS_UNSUPPORTED, /* a construct the encoding refuses */
    SQ_WITNESS_UNKNOWN,     /* the solver gave up */
    SQ_WITNESS_UNCONFIRMED, /* the solver's databases do not make SQLite
                               return a row (functions left uninterpreted,
                               rounding) */
    SQ_WITNESS__COUNT
} SqWitnessStatus;

typedef struct SqWitness {
    SqWitnessStatus status;
    const char *why;        /* what is unsupported, the solver's reason, or
                               what the emptiness rests on (static or in the
                               caller's arena) */
    SrcSpan at;             /* the unsupported construct, when known */
    int ties;               /* FOUND only on databases where ties matter */
    int bound;              /* tuples per table searched */
    uint32_t realistic;     /* the facts of opt->realistic the witness keeps
                               to (sq_equiv_facts); 0: none, or a realistic
                               search found no row and every database was
                               searched instead */
    SqFixture fixture;      /* FOUND */
    SqResult rows;          /* FOUND: the gold's result on it */
    uint64_t rlimit_used;
} SqWitness;

/* The witness of q (written sql) over cat, searched with opt's bound as
** the tuples per table, its timeout, rlimit and clock; values of the
** columns' declared classes.  Strings in arena a.  Free with
** sq_witness_free. */
void sq_witness(const Catalog *cat, IrQuery *q, const char *sql, const SqEquivOptions *opt, SqArena *a,
                SqWitness *out);
void sq_witness_free(SqWitness *w);
/* Whether q returns no row on any database of opt->bound tuples per
** table that satisfies the schema's constraints, with values of the
** columns' declared classes (ties allowed): one solver check, no
** database built.  SQ_WITNESS_EMPTY (proved), SQ_WITNESS_FOUND (some
** database gives a row, in the encoding), or UNSUPPORTED / UNKNOWN with
** the reason in *why (static or in a).  For squint lint's
** gold-always-empty. */
SqWitnessStatus sq_witness_empty(const Catalog *cat, IrQuery *q, const SqEquivOptions *opt, SqArena *a,
                                 const char **why);

/* The rows q asks of one table: a comparison of an aggregate's output or
** a subquery with an integer constant (HAVING count(*) > 10: 11), or a
** LIMIT's constant OFFSET (OFFSET 9: 10); the largest, or 0. */
int64_t sq_witness_rows_asked(IrQuery *q);

/* "found", "empty", "unsupported", "unknown", "unconfirmed". */
const char *sq_witness_status_name(SqWitnessStatus s);

/* ---- the suite (suite.c) ---------------------------------------------- */

typedef struct SqSuiteOptions {
    SqEquivOptions equiv;   /* each mutant's search: bound, timeout, rlimit,
                               semantics, clock */
    SqEquivOptions witness; /* the witness's search (its bound: tuples per
                               table) */
    uint32_t max_mutants;   /* mutants made at most (0: all) */
    const char *values_db;  /* a database of the schema with real data, to
                               take realistic values from (values.c), or
                               NULL: values made up from column names */
    const SqProfile *values_profile; /* with no values_db: a profile whose
                               common values (BIRD's metadata samples) are
                               taken as the real data's, or NULL */
    int solver_values;      /* keep the solver's values as they are */
    const char *question;   /* the question's text, or NULL */
    const char *evidence;   /* BIRD's evidence, or NULL; values these two
                               quote are preferred (hints.c) */
    uint64_t seed;          /* which of the realistic values are taken: 0,
                               the first ones (text) or evenly spread
                               (numbers); else a choice this seed makes, the
                               same on every run and machine */
    SqBindOptions bind;
} SqSuiteOptions;

/* The defaults, the one place they are written: mutants searched at
** bound 3 for 2 seconds each, the witness at 3 tuples per table for 10,
** 40 mutants at most, spider semantics. */
SqSuiteOptions sq_suite_options_default(void);

typedef enum SqMutantFate {
    SQ_MUTANT_KILLED,       /* a database of the suite tells it apart */
    SQ_MUTANT_EQUIVALENT,   /* sq_equiv proved it returns the gold's rows */
    SQ_MUTANT_UNKNOWN,      /* neither: why says which verdict */
    SQ_MUTANT_INVALID,      /* its text does not bind (not counted) */
    SQ_MUTANT__COUNT
} SqMutantFate;

typedef struct SqSuiteMutant {
    uint8_t kind;           /* SqMutKind */
    const char *kind_name;
    const char *what;       /* "> becomes >=" */
    SrcSpan at;             /* in the gold's text */
    const char *sql;        /* the mutant */
    uint8_t fate;           /* SqMutantFate */
    const char *why;        /* EQUIVALENT: the proof ("normal form", "up to
                               bound 3"); UNKNOWN, INVALID: the reason */
    int32_t killed_by;      /* KILLED: the first kept database that kills it */
} SqSuiteMutant;

/* One database of the suite. */
typedef struct SqSuiteDb {
    SqFixture fixture;
    SqResult gold;          /* the gold's result on it */
    const char *origin;     /* "witness", "empty: no rows in any table", or
                               "counterexample for mutant 4" */
    uint32_t rows;          /* in all its tables */
    uint32_t *kills;        /* the mutants it kills (ids, ascending; arena) */
    uint32_t n_kills;
} SqSuiteDb;

typedef enum SqSuiteStatus {
    SQ_SUITE_OK,            /* a suite, the witness first */
    SQ_SUITE_NOT_LOADED,    /* the gold does not parse or bind */
    SQ_SUITE_NO_WITNESS,    /* no witness: SqSuite.witness says why */
} SqSuiteStatus;

typedef struct SqSuite {
    SqSuiteStatus status;
    const char *why;        /* NOT_LOADED: the reason; NO_WITNESS: the
                               witness's */
    SrcSpan at;             /* where in the gold, when known */
    SqWitnessStatus witness;/* NO_WITNESS: which */
    int witness_ties;       /* the witness needs ties */
    int witness_again;      /* the witness was found by the second search,
                               on realistic data (find_witness) */
    SqSuiteDb *dbs;         /* the distilled suite, witness first */
    uint32_t n_dbs;
    uint32_t n_candidates;  /* databases before distillation */
    SqSuiteMutant *mutants;
    uint32_t n_mutants;
    uint32_t fates[SQ_MUTANT__COUNT];
    double seconds, witness_seconds;
    uint64_t rlimit_used;   /* z3's units, witness and mutants */
    SqArena *arena;
} SqSuite;

/* The suite of the gold query, the text of source gold (in srcs, which
** also receives every mutant's text, so that positions name the user's
** file) over cat (names: the catalog's interner).  Fills *out; free with
** sq_suite_free. */
void sq_suite_build(const Catalog *cat, SqInterner *names, SqSrcSet *srcs, const SqSrc *gold,
                    const SqSuiteOptions *opt, SqSuite *out);
void sq_suite_free(SqSuite *s);

/* "killed", "equivalent", "unknown", "invalid". */
const char *sq_mutant_fate_name(SqMutantFate f);
/* "ok", "not-loaded", "no-witness". */
const char *sq_suite_status_name(SqSuiteStatus s);

/* The suite's manifest members (suite_json.c), written into the object
** w is in: "status", "why", the witness, the databases (file names
** NN.sqlite as file_of gives them, their rows and the gold's result),
** the mutants with their fates and killers, the counts, the time. */
void sq_suite_json(const SqSuite *s, const SqSrcSet *srcs, SqJsonWriter *w);
/* "00.sqlite", "01.sqlite", ...: the file name of database i. */
void sq_suite_db_name(uint32_t i, char out[16]);

#endif
