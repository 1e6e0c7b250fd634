/*
** expand.h -- join query expansion (seed 001's JQE): the ways a query can
** be made to join one more table, as the schema graph allows.
**
** Layer: passes.  The `expand` analysis follows the thesis's Algorithm 1
** up to the choice of join conditions:
**
**   1. the query's join query graph (the `jqg` pass, after `unnest` when
**      that runs first);
**   2. candidate tables: the schema graph's neighbours of the query's
**      tables that the query does not read;
**   3. per candidate, every condition that could join it (a label of the
**      schema edge between it and a FROM item's table, one per FROM item
**      of that table), and every non-empty combination of them, pruned
**      when two of its conditions join the candidate to the same FROM item
**      ("more than one join condition between two tables") or when it is
**      redundant by the thesis's transitivity rule: a cycle through the
**      candidate on which some table's two cycle edges use the same
**      attribute (the toxicology triangle: bond, atom and molecule all
**      joined on molecule_id, any two conditions implying the third).
**
** Each one kept carries the expanded graph's shape: nodes and edges, the
** change of average degree, whether it has a cycle, and its canonical
** form, by which an evaluation set's expansions are later pruned.
**
** The combinations kept are ranked (fewer conditions first, then key to
** foreign key before two foreign keys, then the candidate's name, then
** the order of the schema's labels): the order later stages take them in.
** Diversity pruning over an evaluation set, the SQL of each expansion and
** the checks on it are the stages after this one.
*/
#ifndef SQ_EXPAND_H
#define SQ_EXPAND_H

#include "ir/graph/graph.h"
#include "passes/pass.h"

/* Conditions per candidate taken into the power set at most: past it only
** the first (in the schema's order) are combined, and the plan says so. */
#define SQ_EXPAND_MAX_CONDS 12

/* One condition joining a FROM item to the candidate: the item's table's
** q_cols equal the candidate's t_cols, pairwise. */
typedef struct SqExpandCond {
    uint32_t node;           /* the FROM item: a node of the query graph */
    const char **q_cols;
    const char **t_cols;
    uint32_t n_cols;
    uint8_t kind;            /* SQ_JL_PK_FK or SQ_JL_FK_FK */
} SqExpandCond;

typedef enum SqExpandFate {
    SQ_EXPAND_KEPT,
    SQ_EXPAND_SAME_PAIR,     /* two conditions join the candidate to one FROM item */
    SQ_EXPAND_REDUNDANT,     /* a transitive cycle through the candidate */
} SqExpandFate;

/* One combination of conditions for one candidate. */
typedef struct SqExpansion {
    const char *table;       /* the candidate, as the catalog names it */
    const SqExpandCond *const *conds;
    uint32_t n_conds;
    uint8_t fate;            /* SqExpandFate */
    const char *why;         /* a pruned one: which table and attribute */
    /* a kept one: the expanded join query graph's shape */
    uint32_t n_nodes, n_edges;
    double delta_avg_degree; /* its average degree less the query's */
    uint8_t cyclic;          /* it has a cycle (self-loops aside) */
    const char *pattern;     /* its canonical form (sq_graph_canonical):
                                equal for isomorphic graphs; NULL past
                                SQ_EXPAND_MAX_PATTERN nodes */
} SqExpansion;

/* Nodes of an expanded graph whose canonical form is computed at most. */
#define SQ_EXPAND_MAX_PATTERN 16

typedef struct SqExpandPlan {
    const SqGraph *query;    /* the join query graph expanded */
    SqExpansion *items;      /* the kept ones first, ranked; then the pruned */
    uint32_t n_items, cap_items;
    uint32_t n_candidates;
    uint32_t n_kept, n_same_pair, n_redundant;
    uint32_t n_capped;       /* candidates with more than SQ_EXPAND_MAX_CONDS conditions */
} SqExpandPlan;

/* The plan of expanding query (a join query graph) along schema. */
void sq_expand_plan(SqArena *a, const SqGraph *schema, const SqGraph *query, SqExpandPlan *out);

/* The join query graph of p's query with x's table and conditions added
** (the table as a node named after it, each condition a query label). */
SqGraph *sq_expansion_graph(SqArena *a, const SqExpandPlan *p, const SqExpansion *x);

/* "molecule.molecule_id = bond.molecule_id AND ...": the conditions of x,
** each FROM item by its name in the query, the candidate by its table. */
void sq_expansion_text(const SqExpandPlan *p, const SqExpansion *x, SqBuf *out);

/* Join x's table into q (expand_sql.c): q is the query p was made from,
** or one bound from the same text (its FROM items have the ids the plan's
** nodes name).  A new FROM item scanning the table is joined INNER to the
** FROM tree of q's top SELECT with the AND of x's conditions.  The one
** change to q's existing nodes is recorded in *patch and made: undo it
** with ir_patch_undo(patch, 1).  0, or -1 with *why (q unchanged): q's top
** is no SELECT with a FROM clause, or a condition joins a FROM item of a
** subquery (the join query graph is made after unnesting, the SQL is the
** query as written). */
int sq_expansion_join(IrQuery *q, const Catalog *cat, const SqExpandPlan *p, const SqExpansion *x, IrPatch *patch,
                      const char **why);

/* Show a column of the table that sq_expansion_join just joined into q
** (the expansion's --add-column): appended to the result of q's top
** SELECT, after its columns, as table.column.  The column is the table's
** first that is neither in a key (primary, unique or foreign) nor hidden,
** else its first that a query can name.  The two changes, to the result's
** expressions and its columns, are recorded in patch[0..2) and made: undo
** them with ir_patch_undo(patch, 2) before undoing the join.  0 with *col
** the column's index, or -1 with *why (q unchanged): the query groups or
** aggregates (a column more would need a GROUP BY of its own), or the
** table has no column to show. */
int sq_expansion_add_column(IrQuery *q, IrPatch patch[2], const char **col, const char **why);

/* The column of the table sq_expansion_join just joined into q that
** sq_expansion_add_column shows and sq_expansion_add_filter compares:
** its name, or NULL with *why. */
const char *sq_expansion_column(IrQuery *q, const char **why);

/* The rows --add-filter draws its value from: q (into which
** sq_expansion_join just joined a table) made the SELECT of that table's
** column (sq_expansion_column) over the FROM and WHERE of its top SELECT,
** before any grouping, DISTINCT, ORDER BY or LIMIT (its WITH kept).  The
** change, q's root, is recorded in *patch and made: emit the SQL, then
** undo it with ir_patch_undo(patch, 1).  0, or -1 with *why. */
int sq_expansion_probe(IrQuery *q, IrPatch *patch, const char **why);

/* Keep only the rows of q (into which sq_expansion_join just joined a
** table) where that table's column (sq_expansion_column) equals value,
** a literal (--add-filter): ANDed to the WHERE of q's top SELECT, or a
** WHERE made for it.  The change is recorded in *patch and made: undo it
** with ir_patch_undo(patch, 1) before undoing the join (and after
** undoing a column shown).  0, or -1 with *why (q unchanged). */
int sq_expansion_add_filter(IrQuery *q, SqExpr *value, IrPatch *patch, const char **why);

/* The plan the pass made (NULL with *why when it made none, or has not
** run on this IR). */
const SqExpandPlan *sq_expand_result(const SqPassCtx *ctx, const char **why);

/* The pass (registry.c): the plan of the query, or why there is none. */
int sq_expand_run(SqPassCtx *ctx, IrQuery *q);
void sq_expand_print(const SqPassCtx *ctx, IrQuery *q, SqBuf *out);
void sq_expand_print_json(const SqPassCtx *ctx, IrQuery *q, SqJsonWriter *w);

#endif
