/*
** querygen.h -- a pair of small queries over a fixed schema, built from
** bytes: the generator behind the equiv fuzz target (fuzz_equiv.c).
**
** Test code (tests/fuzz/).  The schema is QG_SCHEMA: two tables, a key
** join, and columns of the three affinities the benchmarks use.  The
** first query is grown from the bytes by a small grammar: a SELECT list
** (columns, literals, arithmetic, ||, CASE, coalesce, nullif, CAST, abs,
** length, lower, upper, typeof, scalar subqueries: a lookup by key or an
** aggregate), a FROM of one table or the join (inner
** or LEFT), a WHERE of comparisons, AND, OR, NOT, IS [NOT] NULL, [NOT] IN
** lists, BETWEEN, LIKE, [NOT] IN and [NOT] EXISTS subqueries, an optional
** GROUP BY with count, sum, total, min, max and avg and a HAVING,
** DISTINCT, and ORDER BY with LIMIT and OFFSET; or a compound (UNION, UNION ALL,
** INTERSECT, EXCEPT) of two one-column SELECTs.  Literals are of every
** class: integers, reals, text, text that spells a number ('01', ' 2',
** '1e1'), NULL and, rarely, a blob.
**
** The second query is the first, copied, with one to three rewrites
** chosen by the bytes, or none (one pair in eight: a query and itself).
** Some rewrites never change the result (operands swapped, De Morgan,
** NOT of a comparison as the negated comparison, IN as ORs, BETWEEN as
** two comparisons, coalesce and nullif as CASE, CASE as iif, a join on
** a key as IN,
** the arms of a UNION swapped), some only in some places (IN a subquery
** as EXISTS: not under NOT), some usually do (another literal, operator,
** column or set operator, a conjunct dropped, a test negated, DISTINCT
** toggled, another aggregate, LIMIT or OFFSET moved): the pair is then equivalent
** or not, and squint equiv must say which.
**
** Bytes run out gracefully: past the end, choices come from a generator
** seeded with the whole input, so every input, the empty one included,
** makes a varied pair, and always the same one.
*/
#ifndef SQ_QUERYGEN_H
#define SQ_QUERYGEN_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/strbuf.h"

/* The schema every pair is over (SQLite DDL). */
#define QG_SCHEMA                                                                         \
    "CREATE TABLE dept (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, budget REAL, " \
    "code TEXT);\n"                                                                       \
    "CREATE TABLE emp (id INTEGER PRIMARY KEY, dept_id INT REFERENCES dept (id), "        \
    "name TEXT, salary INT, tag TEXT);\n"

/* A generated pair, and what the generator knows about it. */
typedef struct QgPair {
    SqBuf q1, q2;      /* the SQL texts */
    int n_rewrites;    /* rewrites applied to make q2 (0: q2 is q1) */
    const char *rewrites[3]; /* their names */
    int semantics;     /* SqSmtSemantics the bytes chose */
} QgPair;

/* Leave features out of the pairs from now on: a comma-separated list of
** "nullif", "cast", "functions" (abs, length, lower, upper, typeof),
** "subqueries", "compounds", "like" (NULL or "": none).  A run hunting
** past a known finding avoids what it needs.  -1 for an unknown name. */
int qg_avoid(const char *list);

/* Build a pair from data[0..size).  Release with qg_pair_free. */
void qg_pair_make(QgPair *p, const uint8_t *data, size_t size);
void qg_pair_free(QgPair *p);

#endif
