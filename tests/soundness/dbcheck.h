/*
** dbcheck.h -- run two queries on a database given as rows, compare their
** results as squint equiv does, shrink a database that tells them apart,
** and say what is unusual about it.
**
** Test support (not part of libsquint).  A database is an SqFixture (the
** rows, over a catalog) plus the schema's own DDL: its script is that DDL
** followed by one INSERT per table, parents first, and it is run into an
** in-memory SQLite database whose clock is stopped at the fixture's
** instant (backend/sqlite/db.h), as squint equiv runs its
** counterexamples.  Flags vary what the script does: check foreign keys
** while it loads, insert each table's rows in reverse order, or set
** PRAGMA reverse_unordered_selects (SQLite's own switch for the order of
** rows nothing sorts).
*/
#ifndef SQ_SOUNDNESS_DBCHECK_H
#define SQ_SOUNDNESS_DBCHECK_H

#include "backend/fixture/fixture.h"
#include "runtime/strbuf.h"

/* The pair, and how its results are compared. */
typedef struct PairRun {
    const Catalog *cat;
    const char *ddl;         /* the schema's CREATE statements */
    const char *sql1, *sql2;
    SqCompareMode mode;
    int order_matters;       /* SQ_CMP_SPIDER: the first query sorts */
    uint64_t reverse;        /* RUN_REVERSE_ROWS: the tables whose rows go
                                last first, a bit per catalog table (bit
                                i % 64 for table i); 0: every table */
    const uint64_t *orphans; /* RUN_NO_ORPHANS: per foreign key (catalog
                                order), the rows allowed to refer to no
                                parent (a real database's, from
                                db_orphans_per_key); NULL: none */
} PairRun;

enum {
    RUN_FK = 1,              /* PRAGMA foreign_keys=ON before the rows */
    RUN_REVERSE_ROWS = 2,    /* rows inserted last first (p->reverse says
                                in which tables) */
    RUN_REVERSE_SELECTS = 4, /* PRAGMA reverse_unordered_selects=ON */
    RUN_NO_ORPHANS = 8,      /* a database with more rows that refer to no
                                parent row than p->orphans allows (compared
                                with =, also for foreign keys SQLite cannot
                                check) does not build: shrinking keeps the
                                keys that held */
};

/* The database's script (DDL, then INSERTs) under flags. */
void db_script(const PairRun *p, const SqFixture *f, unsigned flags, SqBuf *out);

/* How a run ended. */
enum {
    DB_SAME = 0,             /* equal under the mode */
    DB_DIFFERENT = 1,        /* they differ */
    DB_NO_BUILD = -1,        /* the script failed (a constraint, under RUN_FK) */
    DB_NO_RUN = -2,          /* a query failed or hit a limit */
};

/* Build f under flags and run both queries; r1 and r2 (initialised by the
** caller) get the results; *err a malloc'd message on DB_NO_BUILD or
** DB_NO_RUN (may be NULL). */
int db_differs(const PairRun *p, const SqFixture *f, unsigned flags, SqResult *r1, SqResult *r2, char **err);
/* db_differs without the results. */
int db_run_pair(const PairRun *p, const SqFixture *f, unsigned flags);

/* Whether SQLite, on f's database, reads the same tables and indexes in
** the same order for both queries (the b-trees their programs open, from
** EXPLAIN): then it meets tied rows in one order for both, and no order of
** the rows shows a difference that ties allow.  1 yes, 0 no, -1 unknown. */
int db_same_scans(const PairRun *p, const SqFixture *f);

/* Remove rows from f while the queries still differ under flags (rows of
** tables that others refer to last), then make NULL each cell that may be
** NULL (rdb_nullable) and need not hold a value, and again while that
** frees rows; at most max_runs runs in all.  Returns the rows removed. */
uint64_t db_shrink(const PairRun *p, SqFixture *f, unsigned flags, int max_runs);

/* What is unusual about a database on which the pair differs, appended to
** out as "; "-separated phrases: a table with more rows than bound, a
** difference that goes away when rows come in another order, rows that
** break a foreign key, NULL in a primary key column, values outside the
** class the model gives their column, foreign keys (that a row uses)
** between columns of different classes.  Empty when nothing is. */
void db_diagnose(const PairRun *p, const SqFixture *f, int bound, SqBuf *out);

/* Rows of f whose foreign key (all columns non-NULL) matches no parent
** row, compared with = (so across affinities as a join compares); the
** foreign keys broken are named in *which (may be NULL). */
uint64_t db_orphans(const PairRun *p, const SqFixture *f, SqBuf *which);
/* The same per foreign key, in catalog order (for PairRun.orphans; the
** caller frees the array). */
uint64_t *db_orphans_per_key(const PairRun *p, const SqFixture *f);

/* Rows the fixture holds, in all tables and in the largest one. */
uint64_t db_rows(const SqFixture *f, uint64_t *largest);

/* Copy the rows of every table of src into dst (sq_fixture_init'ed on the
** same catalog, empty). */
void db_copy(const SqFixture *src, SqFixture *dst);

/* name in double quotes, every quote doubled (always quoted: the scripts
** the tool prints quote every identifier). */
void db_quote_ident(SqBuf *b, const char *name);

#endif
