/*
** template.h -- the slots of a query: the parts a benchmark generator may
** vary (seed 004's templates, derived from gold SQL instead of written by
** hand).
**
** Layer: passes.  sq_template_slots() reads a bound query's IR and finds,
** in every query block (CTE bodies, derived tables, subqueries, compound
** terms), the parts that make a template of it:
**
**   value      a literal a column is compared with (=, <>, IN list items,
**              text ordered by < or >)
**   threshold  a number a column is ordered against (<, <=, >, >=, the
**              bounds of BETWEEN)
**   date       a date literal a column is compared with: a fixed time
**              reference, one end of a range
**   period     a year, month, ... picked out of a date column
**              (strftime('%Y', d) = '2012', substr(d, 1, 4) = '2012')
**   relative   a time reference relative to now (date('now', '-7 days'))
**   limit      LIMIT's count
**   metric     an aggregate call that is a result column (its function and
**              its column vary together)
**   group-col  a GROUP BY column
**   order-col  an ORDER BY column that is not a result column
**   order-dir  an ORDER BY term's direction
**
** What is not a slot, by design: a literal compared with a key column in
** a join's ON condition (it is part of how the tables meet), CASE's THEN
** and ELSE values and the WHEN values of CASE x WHEN ... (labels and
** mappings), a literal compared with a CASE (again a label), LIKE
** patterns, function arguments other than the compared value (a format, a
** length), and, with keep_superlatives, the LIMIT 1 of an ORDER BY (the
** superlative of "the highest ..." questions).
**
** Every slot has a placeholder name (":threshold_1"), the span of its
** text in the original (its provenance), the column it constrains or
** reads with that column's type, and a domain: the type-compatible
** alternative columns of the block's FROM items and, for a metric, the
** aggregates that fit the column.  The slots point into the IR (the
** literal, the aggregate item, the sort key), so a generator can write
** other values there and emit the SQL; the SQL emitter writes a template
** with the placeholders in place (sq_emit_sqlite_marked, backend/emit).
** Design notes: docs/template.md.
*/
#ifndef SQ_TEMPLATE_H
#define SQ_TEMPLATE_H

#include <stdint.h>

#include "frontend/catalog.h"
#include "ir/ir.h"
#include "passes/pass.h"
#include "runtime/src.h"
#include "runtime/jsonw.h"
#include "runtime/strbuf.h"

typedef enum SqSlotKind {
    SQ_TSLOT_VALUE,
    SQ_TSLOT_THRESHOLD,
    SQ_TSLOT_DATE,
    SQ_TSLOT_PERIOD,
    SQ_TSLOT_RELATIVE,
    SQ_TSLOT_LIMIT,
    SQ_TSLOT_METRIC,
    SQ_TSLOT_GROUP_COL,
    SQ_TSLOT_ORDER_COL,
    SQ_TSLOT_ORDER_DIR,
    SQ_TSLOT__COUNT
} SqSlotKind;

/* The aggregates of a metric's domain, as bits. */
enum {
    SQ_AGG_BIT_COUNT = 1 << 0,
    SQ_AGG_BIT_COUNT_DISTINCT = 1 << 1,
    SQ_AGG_BIT_SUM = 1 << 2,
    SQ_AGG_BIT_AVG = 1 << 3,
    SQ_AGG_BIT_MIN = 1 << 4,
    SQ_AGG_BIT_MAX = 1 << 5,
};

/* A column of a FROM item of the slot's query block. */
typedef struct SqSlotCol {
    const IrRel *item;     /* the FROM item */
    uint32_t col;          /* its column */
} SqSlotCol;

typedef struct SqSlot {
    uint8_t kind;          /* SqSlotKind */
    uint8_t op;            /* comparisons: the operator as if the column were
                              on the left (AstOp; AST_OP_NONE for IN items) */
    uint8_t in_list;       /* an IN list's item */
    uint8_t between;       /* 1: BETWEEN's low bound, 2: its high bound */
    uint8_t aggs;          /* metric: SQ_AGG_BIT_* that fit its column */
    const char *name;      /* "threshold_1" */
    const char *placeholder; /* ":threshold_1", as the template writes it */
    const char *granularity; /* date, period, relative: "day", "datetime",
                                "month", "year", ...; else NULL */
    SrcSpan span;          /* its text in the original: the provenance */
    /* Where it sits in the IR: exactly one of these is set. */
    SqExpr **expr;         /* value, threshold, date, period, relative,
                              limit: the slot holding the literal (or the
                              call, for relative); order-col: the hidden
                              result expression */
    SqAggItem *agg;        /* metric, group-col */
    SqSortKey *key;        /* order-dir */
    SqExpr *cmp;           /* a compared value's comparison (the BINARY,
                              BETWEEN or IN_LIST node), else NULL */
    SqColumn *shown;       /* metric, group-col: the result column that shows
                              it, when its name is SQLite's (no AS written):
                              a generator that changes the slot renames it */
    /* What it constrains or reads: a column of a FROM item, when the slot
    ** is tied to one (none for count(*), for an expression of several
    ** columns, for LIMIT and order-dir). */
    uint8_t has_column;
    SqSlotCol column;
    SqType type;           /* the column's type, or the compared expression's */
    /* The domain: type-compatible columns of the block's FROM items other
    ** than column (its own item's first). */
    SqSlotCol *alts;
    uint32_t n_alts, cap_alts;
} SqSlot;

typedef struct SqTemplate {
    IrQuery *q;            /* the query the slots point into */
    SqSlot *slots;         /* in text order */
    uint32_t n_slots;
    const char **aliases;  /* by rel id: the FROM items' names, as the SQL
                              emitter writes them (ir_sql_aliases) */
    /* The statement's top SELECT (not a compound's term), for generators
    ** that add or drop a filter conjunct: the field holding its WHERE
    ** condition (NULL when it has none) and its FROM items. */
    SqExpr **where;
    IrRel **items;
    uint32_t n_items;
} SqTemplate;

typedef struct SqTemplateOptions {
    int keep_superlatives; /* the LIMIT 1 of an ORDER BY is not a slot */
} SqTemplateOptions;

/* The slots of q, bound against cat, in q's arena (never NULL; n_slots 0
** when there are none).  Nothing in q is changed. */
SqTemplate *sq_template_slots(IrQuery *q, const Catalog *cat, const SqTemplateOptions *opt);

/* "value", "threshold", "date", "period", "relative", "limit", "metric",
** "group-col", "order-col", "order-dir". */
const char *sq_slot_kind_name(SqSlotKind k);
/* "count", "count-distinct", "sum", "avg", "min", "max" for one bit. */
const char *sq_agg_bit_name(unsigned bit);

/* The placeholder (":name") of the slot that sits at node (an SqExpr, an
** SqAggItem or an SqSortKey of the query), or NULL: the mark function the
** SQL emitter takes (sq_emit_sqlite_marked), with the template as ctx. */
const char *sq_template_mark(void *tmpl, const void *node);

/* The slot's value as SQL ("30", "'2012-06-01'", "avg(T1.salary)",
** "DESC"), and a column as "alias.column", appended to out. */
void sq_slot_value_sql(const SqTemplate *t, const SqSlot *s, SqBuf *out);
/* Any expression of the query, columns named as above. */
void sq_template_expr_sql(const SqTemplate *t, const SqExpr *e, SqBuf *out);
void sq_slot_col_name(const SqTemplate *t, const SqSlotCol *c, SqBuf *out);

/* The slots as text, one line each ("--   :threshold_1 threshold ..."),
** and as the member "slots": [...] of an open JSON object (locations
** with line and column when srcs is given, else offsets only). */
void sq_template_print_slots(const SqTemplate *t, SqBuf *out);
void sq_template_slots_json(const SqTemplate *t, const SqSrcSet *srcs, SqJsonWriter *w);

/* The `template` pass (an analysis; registry.c): the slots with the
** default options, printed as above.  The template's SQL needs the SQL
** emitter, a backend: `squint template extract` writes it. */
int sq_template_run(SqPassCtx *ctx, IrQuery *q);
void sq_template_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out);
void sq_template_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w);
/* The slots the pass found on the current IR, or NULL. */
const SqTemplate *sq_template_result(const SqPassCtx *ctx);

#endif
