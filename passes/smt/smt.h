/*
** smt.h -- two queries and a symbolic database as one z3 formula that is
** satisfiable exactly when some database, up to a bound, tells them apart.
**
** Layer: passes.  The symbolic database has, per table the queries read
** (and the tables their foreign keys reach), k tuples, each with a
** liveness flag, so a table holds 0..k rows; a cell is a NULL flag and a
** value.  The schema's PRIMARY KEY, UNIQUE, NOT NULL and FOREIGN KEY
** constraints hold over the live tuples.  Each query's IR is lowered to a
** bounded list of symbolic rows, and the results are compared under SET,
** BAG or LIST semantics (docs/smt.md has the encoding).
**
** What the lowering cannot express exactly is refused, never guessed:
** sq_smt_build returns -1 and sq_smt_unsupported names the construct and
** where it is.
**
** Finding a difference is not the end: the model is a database the caller
** writes out and runs both queries on (backend/equiv/equiv.h), and only
** an execution that shows the difference makes the verdict.
**
** Memory: an SqSmt owns its z3 context; everything the model gives out
** lives until the next sq_smt_build or sq_smt_free.
*/
#ifndef SQ_SMT_H
#define SQ_SMT_H

#include <stdint.h>

#include "ir/ir.h"
#include "runtime/strbuf.h"

typedef struct SqSmt SqSmt;

typedef enum SqSmtSemantics {
    SQ_SMT_SET,  /* BIRD: set(rows1) == set(rows2) */
    SQ_SMT_BAG,  /* same rows, same multiplicities */
    SQ_SMT_LIST, /* same rows in the same order */
    SQ_SMT_SPIDER, /* Spider's test suite: BAG (LIST when the first query
                      sorts its result) under some permutation of the
                      second query's columns */
} SqSmtSemantics;

typedef enum SqSmtStatus {
    SQ_SMT_DIFFERENT,  /* sat: the model is a database that tells them apart */
    SQ_SMT_SAME,       /* unsat at this bound */
    SQ_SMT_UNKNOWN,    /* the solver gave up (time or memory) */
} SqSmtStatus;

/* A context for one pair of queries over one schema.  timeout_ms bounds
** each solver call (0: none). */
/* NULL when z3 cannot make a context (its memory limit is reached). */
SqSmt *sq_smt_new(const Catalog *cat, unsigned timeout_ms);
void sq_smt_free(SqSmt *s);
/* The limit for each solver call of the next build (0: none). */
void sq_smt_set_timeout(SqSmt *s, unsigned timeout_ms);
/* A budget of z3's resource units (0: none) that the checks from now on
** spend together, as they share the time up to a deadline: work that,
** unlike time, gives the same answer on a busy machine.  A check gets
** what is left; its incremental attempt a tenth of that. */
void sq_smt_set_rlimit(SqSmt *s, uint64_t units);
/* The units every check of this context has spent so far. */
uint64_t sq_smt_rlimit_spent(const SqSmt *s);
/* Whether every value has its column's declared class (1), or a column
** may hold every class its affinity lets it hold (0, the default: an
** INTEGER column can hold 'abc' and 1.5).  For the next builds. */
void sq_smt_set_typed_values(SqSmt *s, int on);
/* The instant 'now' and CURRENT_* stand for (unix seconds, UTC). */
void sq_smt_set_now(SqSmt *s, int64_t now);
/* How the lowering asks SQLite for the value of a closed expression (a
** call or CAST over constants, smt_fold.c): run sql, a one-column SELECT,
** and put its value in *out (TEXT bytes appended to text, out->s unused).
** 1 on success.  The hook's database must read 'now' as the instant given
** to sq_smt_set_now.  Without a hook nothing is folded. */
struct SqSmtCell;
typedef int (*SqSmtFoldFn)(void *arg, const char *sql, struct SqSmtCell *out, SqBuf *text);
void sq_smt_set_fold(SqSmt *s, SqSmtFoldFn fn, void *arg);
/* Every SQL function SQLite has (functions.def), one line each: its name,
** kind, how the lowering treats it (exact, partial, constants,
** unsupported) and what is exact (smt_funcs.def): `squint equiv
** --list-functions`. */
void sq_smt_function_list(SqBuf *out);
/* Whether e depends on no row, column, subquery or parameter (so a fold
** hook can compute it); *reads_clock when it reads the clock (CURRENT_*,
** 'now'). */
int sq_smt_closed(const SqExpr *e, int *reads_clock);
/* Whether the last build read the clock, and the instant as text. */
int sq_smt_reads_clock(const SqSmt *s);
const char *sq_smt_now_text(const SqSmt *s);

/* Lower q1 and q2 with k tuples per table and assert that their results
** differ under sem.  0, or -1 when a construct cannot be encoded (see
** sq_smt_unsupported).  Replaces what an earlier call built. */
int sq_smt_build(SqSmt *s, IrQuery *q1, IrQuery *q2, int k, SqSmtSemantics sem);
/* Lower q alone with k tuples per table and assert that it returns a
** row: sq_smt_check then looks for a database on which it does (tie-free:
** one on which its rows, and their order when it sorts them, do not
** depend on how SQLite breaks ties), a witness for a test suite
** (backend/suite).  0, or -1 as sq_smt_build. */
int sq_smt_build_nonempty(SqSmt *s, IrQuery *q, int k);
/* From the next build on, table t has n tuples instead of the build's k
** (a few tables at most; the rest keep k); t NULL clears them all.  0, or
** -1 when no more tables can be given their own bound. */
int sq_smt_set_table_bound(SqSmt *s, const CatTable *t, int n);
/* "window function OVER", with its span in *at (may be empty) and the
** query it is in (1 or 2; 0 for the schema) in *which, or NULL. */
const char *sq_smt_unsupported(const SqSmt *s, SrcSpan *at, int *which);

/* The functions the last build left uninterpreted ("substr, LIKE"), or
** NULL.  A difference found then needs the check by execution to stand;
** an equivalence holds whatever they do. */
const char *sq_smt_uninterpreted(const SqSmt *s);
/* Whether the last build lowered REAL arithmetic, which the formula
** computes exactly and SQLite rounds to doubles: a difference that the
** check by execution does not show may be one of rounding. */
int sq_smt_rounds(const SqSmt *s);
/* What the last build only approximates ("round() with digits ..."), or
** NULL when it is exact. */
const char *sq_smt_approximation(const SqSmt *s);

/* Check the formula.  tie_free adds that no ORDER BY ... LIMIT, scalar
** subquery or bare column of either query depends on how SQLite breaks
** ties, so that a difference found is one SQLite must show. */
SqSmtStatus sq_smt_check(SqSmt *s, int tie_free);
/* Is there a database of the last build's bound on which either query
** returns a row (whether or not the results differ)?  SQ_SMT_DIFFERENT:
** yes (the model is one); SQ_SMT_SAME: no, both queries are empty on
** every such database, so that finding no difference there says nothing;
** SQ_SMT_UNKNOWN: the solver gave up. */
SqSmtStatus sq_smt_check_witness(SqSmt *s);
/* Sample dates (passes/smt/smt_sample.c): while on, sq_smt_build lowers a
** date function whose one open argument is TEXT only on a few dates the
** queries' literals suggest, and sq_smt_check searches only databases
** where such arguments are NULL or one of them.  Quick, and exact, but
** incomplete: when it finds nothing, search the plain build. */
void sq_smt_set_sampling(SqSmt *s, int on);
/* Whether the last build sampled a call (if not, it is the plain build). */
int sq_smt_sampled(const SqSmt *s);
/* After SQ_SMT_DIFFERENT: look for a model with fewer live rows, as long
** as the solver answers within the time limit; the model kept is the
** smallest found. */
void sq_smt_shrink(SqSmt *s, int tie_free);
/* After SQ_SMT_DIFFERENT: look for a model with more live rows, the
** opposite of sq_smt_shrink, for a test database that shows more than
** the least: every tuple alive with no NULL cell, else every tuple alive,
** else one more live tuple at a time while the solver finds one. */
void sq_smt_grow(SqSmt *s, int tie_free);
/* Shrink (and grow) on fresh solvers only, not on the formula's
** incremental one: slower (half as much solver time again on Spider
** pairs), for a search run again after z3 4.8.12 crashed (signal 11)
** inside an incremental check while shrinking, which it does on a few
** Spider pairs. */
void sq_smt_set_fresh_shrink(SqSmt *s, int on);
/* The solver's reason for SQ_SMT_UNKNOWN. */
const char *sq_smt_reason(const SqSmt *s);
/* Why z3 failed ("out of memory", or "z3 error: ..." for an exception
** inside it), or NULL.  Once it has, every build is refused and every
** check is unknown with that reason: the context is not trusted again.
** A model read before may still be read (SQLite decides on it). */
const char *sq_smt_failure(const SqSmt *s);

/* ---- column facts: what the real data shows (--realistic) --------------- */

/* Storage classes a column's non-NULL values may have (SqSmtColumnFacts.
** classes). */
enum {
    SQ_SMT_CLASS_INTEGER = 1 << 0,
    SQ_SMT_CLASS_REAL = 1 << 1,
    SQ_SMT_CLASS_TEXT = 1 << 2,
    SQ_SMT_CLASS_BLOB = 1 << 3  /* BLOBs are not modelled: allowing them
                                   changes nothing */
};

/* Forms a column's TEXT values may take (SqSmtColumnFacts.text_forms). */
enum {
    SQ_SMT_TEXT_DATE = 1 << 0,     /* a valid date 'YYYY-MM-DD' (the month
                                      01-12, the day within its month) */
    SQ_SMT_TEXT_DATETIME = 1 << 1, /* a valid date, ' ' or 'T', 'HH:MM',
                                      then ':SS', then '.' and digits */
    SQ_SMT_TEXT_TIME = 1 << 2,     /* 'HH:MM', then ':SS', then '.' and
                                      digits (the hour below 24) */
    SQ_SMT_TEXT_INTEGER = 1 << 3,  /* an integer: a sign, digits ('42', '-7') */
    SQ_SMT_TEXT_DECIMAL = 1 << 4   /* a decimal: a sign, digits with one
                                      point and at least one digit ('3.5',
                                      '-0.25', '.5', '7.') */
};

/* What the data of one column of a real database shows, as constraints
** on every live tuple of that table in the symbolic database: a caller
** (backend/equiv under --realistic) fills them in from a column profile.
** Each fact only restricts, and a zero field restricts nothing, so a
** zeroed struct is no fact at all. */
typedef struct SqSmtColumnFacts {
    const CatTable *table;  /* of the context's catalog */
    uint32_t col;           /* index in table->cols */
    uint8_t not_null;       /* no live tuple holds NULL there */
    uint8_t unique;         /* no two live tuples hold the same non-NULL
                               value there (compared as IS does, BINARY:
                               1 and 1.0 are the same) */
    unsigned classes;       /* SQ_SMT_CLASS_* a non-NULL value may have;
                               0: any */
    unsigned text_forms;    /* SQ_SMT_TEXT_* forms a TEXT value may take;
                               0: any text */
} SqSmtColumnFacts;

/* From the next build on, every live tuple keeps these n facts (copied;
** n 0 clears them).  A fact of a table the build does not reach is
** ignored; several facts of one column all hold. */
void sq_smt_set_facts(SqSmt *s, const SqSmtColumnFacts *facts, uint32_t n);
/* The number of facts the last build asserted (facts of its tables). */
uint32_t sq_smt_facts_used(const SqSmt *s);

/* ---- the model (after SQ_SMT_DIFFERENT) ------------------------------ */

/* One cell's value.  TEXT values are chosen so that their BINARY order is
** the model's order, and literals of the queries keep their text. */
typedef struct SqSmtCell {
    uint8_t type;   /* SqValueType */
    int64_t i;      /* INTEGER */
    double r;       /* REAL */
    const char *s;  /* TEXT, NUL-terminated */
} SqSmtCell;

/* The tables of the symbolic database, and their live rows. */
uint32_t sq_smt_n_tables(const SqSmt *s);
const CatTable *sq_smt_table(const SqSmt *s, uint32_t t);
uint32_t sq_smt_n_rows(const SqSmt *s, uint32_t t);
SqSmtCell sq_smt_cell(SqSmt *s, uint32_t t, uint32_t row, uint32_t col);

/* The formula as SMT-LIB2 text (declarations and assertions). */
void sq_smt_dump(const SqSmt *s, SqBuf *out);

#endif
