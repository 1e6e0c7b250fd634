/*
** randdb.h -- random databases that obey a schema, for differential
** testing of `equivalent` verdicts against SQLite.
**
** Test support (not part of libsquint).  The schema's own DDL is run in an
** in-memory SQLite database with PRAGMA foreign_keys=ON, and a few random
** rows are inserted per table, parents first: SQLite itself rejects a row
** that breaks NOT NULL, UNIQUE, a PRIMARY KEY, a CHECK or a FOREIGN KEY,
** and the generator tries another.  Values are drawn mostly from small
** pools (the queries' constants and their neighbours, the real
** database's values, values already in the database) so that WHERE
** clauses and joins hit, and they cover every storage class a column can
** hold under SQLite's affinity rules (text in an INTEGER column, the text
** of a number in a TEXT column, non-integral reals, NULLs, empty strings,
** case variants, dates in odd formats).  With typed set, each column
** holds only the class squint's model gives it (passes/smt/smt_db.c):
** INTEGER for INTEGER, NUMERIC (but dates) and untyped columns, REAL for
** REAL, TEXT for TEXT and date columns.
**
** Deterministic: everything follows from the seed; no clock is read.
** The rows generated come back as an SqFixture (the values SQLite
** stored, after affinity), which db.h turns into a script and runs.
*/
#ifndef SQ_SOUNDNESS_RANDDB_H
#define SQ_SOUNDNESS_RANDDB_H

#include <stdint.h>

#include "backend/fixture/fixture.h"
#include "ir/ir.h"
#include "runtime/util.h"

/* ---- a seeded generator (splitmix64) --------------------------------- */

typedef struct Rng {
    uint64_t s;
} Rng;

static inline uint64_t rng_next(Rng *r) { return sq_rand_next(&r->s); }
/* 0 .. n-1 (n > 0). */
static inline uint64_t rng_below(Rng *r, uint64_t n) { return rng_next(r) % n; }
/* True with probability num/den. */
static inline int rng_chance(Rng *r, unsigned num, unsigned den) { return rng_below(r, den) < num; }

/* A 64-bit hash of a string (FNV-1a), to seed per pair. */
uint64_t rdb_hash(const char *s, uint64_t h);

/* ---- value pools ----------------------------------------------------- */

/* A set of values to draw from; owns their text. */
typedef struct ValuePool {
    SqResult vals; /* one column: row i is value i */
} ValuePool;

void vpool_init(ValuePool *p);
void vpool_free(ValuePool *p);
/* Add v unless a value of the same class and equal to it is there. */
void vpool_add(ValuePool *p, const SqValue *v);
static inline uint64_t vpool_n(const ValuePool *p) { return p->vals.n_rows; }
static inline const SqValue *vpool_at(const ValuePool *p, uint64_t i) { return &p->vals.cells[i]; }
/* v and its neighbours: for a number n-1, n+1, its text, it as a REAL
** (and n + 0.5); for a text its other cases, blanks around it, the text
** around a LIKE pattern's wildcards, the number it spells, a date
** written otherwise. */
void vpool_add_neighbours(ValuePool *p, const SqValue *v);
/* Every constant of q, with its neighbours. */
void vpool_add_literals(ValuePool *p, IrQuery *q);

/* ---- the generator --------------------------------------------------- */

/* What the generator knows of a schema. */
typedef struct GenSchema {
    const Catalog *cat;
    const char *ddl;     /* the CREATE statements SQLite runs */
    ValuePool **real;    /* per catalog table, an array of a pool per
                            column with the real database's values; NULL
                            when there is no real database */
} GenSchema;

typedef struct GenOptions {
    int typed;           /* each column holds only its model class */
    int max_rows;        /* rows per table: 0 .. max_rows */
} GenOptions;

/* How a generation went. */
typedef struct GenReport {
    int fk_enforced;     /* SQLite checked the foreign keys (else the
                            schema's foreign keys are ones SQLite cannot
                            check -- "foreign key mismatch" -- and the
                            generator copied parent values itself) */
    uint32_t rejected;   /* rows SQLite refused */
} GenReport;

/* Fill f (sq_fixture_init'ed on s->cat, empty) with a random database
** drawn from seed.  0, or -1 with a malloc'd message in *err when the
** schema does not run in SQLite. */
int rdb_generate(const GenSchema *s, const ValuePool *literals, const GenOptions *o, uint64_t seed, SqFixture *f,
                 GenReport *rep, char **err);

/* The class squint's model gives a column (SQ_VAL_INTEGER, SQ_VAL_REAL
** or SQ_VAL_TEXT), as passes/smt/smt_db.c chooses it. */
int rdb_model_class(const CatColumn *c);

/* Catalog tables in an order where a table a foreign key refers to comes
** before the table that refers to it (a cycle is broken in catalog
** order); only stored tables (no views, virtual tables, table-valued
** functions).  *n gets the count; the caller frees the array. */
uint32_t *rdb_table_order(const Catalog *cat, uint32_t *n);
/* Whether the model lets a column hold NULL: not NOT NULL and not in the
** primary key (SQLite lets a rowid table's key hold NULL; the model, on
** purpose, does not: docs/smt.md). */
int rdb_nullable(const CatColumn *c);

/* Every stored table of f's catalog read from a SQLite connection
** (sqlite3 *, passed as void * so that callers need not include
** sqlite3.h) into f, in rowid order: a real database as a fixture.  0, or
** -1 when a table cannot be read. */
int rdb_read_tables(void *sqlite3_db, SqFixture *f);

#endif
