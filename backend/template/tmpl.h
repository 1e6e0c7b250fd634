/*
** tmpl.h -- instances of a template: new queries made from a query by
** writing other values into its slots (passes/template/template.h) and
** altering it, each one checked, never assumed, to be a valid new item.
**
** Layer: backend.  Values come from the database the query runs on: a
** value from its column's own values, a threshold from the column's
** deciles rounded as a person writes numbers, a date from the column's
** range at a day, month or year, a period (a year, a month) within that
** range.  Alterations are the seed's "altering" made concrete: another
** aggregate or column for a metric, another comparison operator, the
** other ORDER BY direction, another GROUP BY or ORDER BY column, another
** LIMIT, a time window moved (a date made relative to now, or a relative
** one fixed), a filter conjunct dropped or added.  Every instance is made on the IR (patches written and undone,
** emitted by the SQL emitter) and then checked:
**
**   - it parses and binds against the schema, as text;
**   - no lint rule at error level fires on it;
**   - it runs on the database and returns a row that is not all NULL;
**   - it is not the same query as the source or as an instance accepted
**     before it: a different result on the database shows that at once,
**     else on another database it tries first (the rest of a fixture's
**     suite, the counterexamples found for the source's earlier
**     instances, one-cell variants of a small database); equal results
**     on all of them go to squint equiv (normal forms first, then the
**     bounded search), and a proof of equivalence, or no verdict, rejects.
**
** Instances are deterministic for a seed: the choices of instance k of a
** source come from splitmix64 seeded by (seed, source, k).
*/
#ifndef SQ_TMPL_H
#define SQ_TMPL_H

#include <stdint.h>

#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "passes/template/template.h"

typedef struct SqTmplOptions {
    uint32_t n;              /* instances made per source query */
    uint64_t seed;
    SqExecLimits limits;     /* running a query on the database */
    SqEquivOptions equiv;    /* deciding the close calls */
    SqBindOptions bind;      /* reading an instance back */
    int64_t now;             /* the reference date: the instant 'now' and
                                CURRENT_* stand for (unix seconds), in the
                                database's clock (sq_db_open_at) and in the
                                equivalence search alike */
} SqTmplOptions;

/* A value written into a slot, or an alteration. */
typedef struct SqTmplChange {
    const char *kind;        /* "value", or the alteration: "aggregate",
                                "metric-column", "comparison", "order-dir",
                                "group-col", "order-col", "limit",
                                "time-window", "drop-filter", "add-filter" */
    const char *slot;        /* the slot's name */
    const char *from, *to;   /* as SQL */
} SqTmplChange;

typedef struct SqTmplInstance {
    uint32_t index;          /* 0-based among its source's instances */
    const char *sql;
    SqTmplChange *changes;   /* values first, then alterations */
    uint32_t n_changes, cap_changes;
    int valid;
    const char **reasons;    /* why it is not valid */
    uint32_t n_reasons, cap_reasons;
    int64_t rows;            /* rows it returns on the database; -1: it did not run */
    const char *same_as;     /* a rejected duplicate: "source" or "instance K" */
    const char *caught_by;   /* ... found by: "text", "normal form", "solver" */
    const char *distinct_by; /* a valid one: the costliest proof it needed
                                against the source and the instances before
                                it: "result" (the database's rows differ),
                                "suite" (the rows differ on another database
                                of the fixture's suite), "counterexample"
                                (the rows differ on the database of a
                                counterexample the solver found for an
                                earlier check of the same source),
                                "variant" (the rows differ on a one-cell
                                variant of a small database,
                                sq_fixture_cell_variants), "solver" (a
                                counterexample) */
    uint32_t redraws;        /* draws made again because their query
                                returned no row on the database, or only
                                NULL */
    double seconds;          /* making and checking it took (for reports,
                                never written into records) */
    int reads_clock;         /* it reads 'now' or CURRENT_*: its question
                                needs the reference date */
} SqTmplInstance;

/* What one source query's instances are made from. */
typedef struct SqTmplSource {
    IrQuery *q;              /* bound and lowered; patched and restored */
    const Catalog *cat;
    SqInterner *names;
    SqTemplate *t;           /* q's slots */
    SqDb *db;                /* the database its values and runs use */
    uint64_t id;             /* mixed into the seed: the source's number */
    SqDb *const *also;       /* more databases that may tell an instance from
                                another before the solver is asked (the rest
                                of a fixture's suite); never sampled from */
    uint32_t n_also;
} SqTmplSource;

/* Make opt->n instances of src, checked as above, into *out (an array in
** src->q's arena); returns how many: opt->n, or fewer when the query's
** slots run out of new variants (DRAWS draws in a row give only SQL made
** before).  The source's own result on the database is read
** first; *why gets a reason and 0 is returned when it does not run. */
uint32_t sq_tmpl_sample(const SqTmplSource *src, const SqTmplOptions *opt, SqTmplInstance **out,
                        const char **why);

/* The defaults: 10 instances, seed 0, 10 s per query run, the equiv
** defaults with tables of up to 2 rows and a z3 budget of 10,000,000
** resource units per pair, 'now' at equiv's (SQ_EQUIV_NOW).  A small search is enough here: it has to
** find the difference an alteration makes, and when it finds none the
** instance is only dropped, never wrongly accepted. */
SqTmplOptions sq_tmpl_options_default(void);

/* A literal of v, a value read from a database (tmpl_values.c): INTEGER,
** REAL (written so that it reads back as a REAL) or TEXT (copied into a);
** NULL for NULL and BLOB, which no comparison drawn from a column uses.
** squint expand --add-filter draws its values with it too. */
SqExpr *sq_tmpl_literal(SqArena *a, const SqValue *v, SrcSpan at);

#endif
