/*
** item.h -- evaluate one benchmark item for every system: EX-test,
** verification by counterexample search, and the cross-check of
** counterexamples between systems; the outcome as one JSON line.
**
** Layer: backend/eval.  Takes the item's gold SQL, one prediction per
** system, the path of the item's database (or none) and its catalog (or
** none); gives a JSON object on one line, the record `squint eval`
** writes to its --out file and reads back (record.h).  A record starts
** {"item":N,"squint_eval":FORMAT,"inputs":DIGEST,"options":{...}, so a
** records file names itself, and says what each record was computed from.
**
** Per system:
**   ex        EX-test (metric.h), or "no-db" without a database;
**   em        with EM on (spider_em.h) and a database: 1 or 0, Spider's
**             exact set match; null when the official script could not
**             score the item (em_detail says why); em_parts, the ten
**             component scores in the script's order, each [match,
**             pred_total, label_total];
**   verdict   squint equiv on the two texts as the metric runs them, when
**             the item has a catalog and verification is on: for every
**             prediction EX-test accepts, and for all of them when there is
**             no database (then only verification says anything); the
**             value is an SqVerdict name, "not-loaded" when a query does
**             not parse or bind, or null when not run;
**   ex_suite  with a test suite (squint eval --suite): "correct" when the
**             metric accepts the prediction on every database of the
**             item's suite and EX-test does not reject it, "wrong" when
**             either rejects it (ex_suite_detail says where), null when the
**             item has no suite;
**   refuted_by  the cross-check (SpotIt's Alg. 2): the first other system
**             whose validated counterexample, run as a database, makes
**             this prediction fail the metric; null when none does.
** With lint on, the record also lists the gold linter's findings on the
** gold query ("lint": rule, severity, line:column in the gold text,
** message), the data rules included when there is a database.
** A verdict `different` (or different-under-ties) carries its
** counterexample in the record: the tables and both results as JSON, and
** as text ("explain") for people; with kinds on and a database, also what
** it relies on that the database never shows ("kinds", "kinds_where",
** "kinds_tested": backend/profile/profile.h).
** With realistic on, every system with a verdict also has
** "verdict_realistic": the verdict on data like the item's database (its
** profile: the database, or the metadata).  Only a refutation (different,
** different-under-ties) is searched again, with the profile's facts
** ("verdict_realistic_how": "search"); any other verdict holds on
** realistic data as it stands ("exact": an equivalence on every database
** holds on realistic data too; an unknown stays unknown), and a pair
** whose profile gives no facts or cannot be loaded keeps its verdict too
** ("no-facts", "no-profile").  A realistic equivalence is named
** "equivalent-on-realistic-data" (sq_equiv_verdict_label), with its
** promise ("promise_realistic"); a realistic refutation carries its
** counterexample ("counterexample_realistic", "explain_realistic",
** "kinds_realistic").
*/
#ifndef SQ_EVAL_ITEM_H
#define SQ_EVAL_ITEM_H

#include "frontend/bind.h"
#include "passes/lint/lint.h"
#include "backend/equiv/equiv.h"
#include "backend/eval/metric.h"
#include "backend/eval/spider_em.h"
#include "backend/profile/profile.h"

typedef struct SqEvalConfig {
    SqExOptions ex;
    int verify;             /* run squint equiv (needs a catalog) */
    int cross_check;        /* test every counterexample on the other systems */
    SqEquivOptions equiv;
    SqBindOptions bind;
    int kinds;              /* tag a refuting counterexample with its kinds
                               when the item has a database (profile.h) */
    const char *profile_cache; /* the profiles' cache directory, or NULL
                               (sq_profile_load's default) */
    const char *metadata;   /* BIRD's dev_metadata.json: the items' profiles
                               come from it (the entry of their db_id), not
                               from their databases; NULL: the databases */
    int realistic;          /* also search a refuted pair again keeping to
                               the item's profile (SqEquivOptions.realistic):
                               "verdict_realistic" */
    const SqEmKeys *em_keys; /* spider: score exact set match (EM) with these
                               foreign keys (tables.json), on the item's
                               database; NULL: no EM */
    int ves_runs;           /* bird: time each correct prediction and its gold
                               this many times for VES and R-VES (ves.h); 0: no */
    int lint;               /* run the gold linter on the gold query */
    SqLintConfig lint_rules;
    int lint_threshold;     /* findings below this severity are dropped */
    const struct SqLintFile *lint_file; /* the project's lint settings, for
                               their "ignore" entries; NULL: none */
    const char *lint_gold_path; /* the gold file, absolute, for those */
} SqEvalConfig;

typedef struct SqEvalInput {
    size_t index;           /* 0-based position in the gold file */
    int64_t item_no;        /* the number lint's "ignore" entries name it by
                               (sq_lint_item_number), -1: none */
    const char *label;      /* "item 3", "question_id 12" */
    const char *db_id, *question, *difficulty; /* each may be NULL */
    const char *gold;
    size_t n_systems;
    const char *const *names;  /* per system */
    const char *const *preds;  /* per system; NULL: the system has no prediction */
    const char *db_path;       /* a database file, or a SQL script run into
                                  memory (sq_db_open_file); NULL: no
                                  database, no EX-test */
    const char *const *suite_dbs; /* the item's test suite (squint fixture):
                                  its database files; NULL: no --suite */
    size_t n_suite_dbs;        /* 0 with suite_dbs set: the question has no
                                  suite (no witness), EX-suite is not known */
    const Catalog *cat;        /* NULL: no verification */
    SqInterner *interner;      /* the catalog's names */
    const char *options;       /* the run's options that change a record, as
                                  a JSON object's text (the record's
                                  "options"); NULL: none written */
} SqEvalInput;

/* The digest of what an item's record is computed from: the gold SQL, the
** db_id and every system's prediction (a missing one apart from an empty
** one), as hex.  A record carries it ("inputs"), so that a resumed run can
** tell a record of other inputs. */
#define SQ_EVAL_DIGEST_LEN 16
void sq_eval_input_digest(const SqEvalInput *in, char out[SQ_EVAL_DIGEST_LEN + 1]);

/* Evaluate in and append its record, one line ending in '\n', to out. */
void sq_eval_item(const SqEvalInput *in, const SqEvalConfig *c, SqBuf *out);

/* The record of an item whose evaluation did not finish (its process
** crashed or ran out of time): every system counts as failed, with why. */
void sq_eval_item_failed(const SqEvalInput *in, const char *why, SqBuf *out);

#endif
