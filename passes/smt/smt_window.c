/*
** smt_window.c -- window functions over a bounded relation.
**
** Layer: passes.  A window call sees, for each input row i, the live rows
** of i's partition in the order of its ORDER BY keys.  Three numbers
** describe where a row j stands for i, all built from pairwise
** conditions over the n candidate rows:
**
**   before[i][j]  j is live, in i's partition, and comes first: by the
**                 keys, or by index among peers;
**   pos[i]        how many rows come before i (row_number() - 1);
**   grp[i]        how many peer groups come before i's (dense_rank() - 1).
**
** SQLite does not say in which order it takes peers, so pos is only
** meaningful when peers cannot be told apart: whatever reads it (ROWS
** frames, row_number(), lag(), first_value() ...) adds the tie condition
** that no two live rows of a partition are peers, and a difference that
** needs them is reported as one under ties.  RANGE and GROUPS frames
** bounded by UNBOUNDED or CURRENT ROW, GROUPS with offsets, rank(),
** dense_rank(), percent_rank() and cume_dist() depend on peer groups only,
** which are well defined.  An aggregate over a frame is the aggregate of
** smt_rel.c over the frame's rows.
**
** Not modelled (named in the verdict): RANGE with an offset, ntile(),
** offsets that are not integer constants, and ORDER BY with a collation.
*/
#include <string.h>

#include "passes/smt/smt_int.h"

typedef struct Win {
    SqSmt *s;
    const SmtRel *in;
    const SmtEnv *env;
    const SqWinCall *w;
    uint32_t n;
    Z3_ast **part;   /* part[i][j]: j is live and in i's partition */
    Z3_ast **lt;     /* lt[i][j]: i's keys sort before j's */
    Z3_ast **tie;    /* tie[i][j]: i's and j's keys tie */
    Z3_ast **before; /* see above; built on first use */
    Z3_ast *pos, *grp;
} Win;

static Z3_ast **matrix(SqSmt *s, uint32_t n) {
    Z3_ast **m = sq_arena_alloc(s->arena, (n + 1) * sizeof *m);
    for (uint32_t i = 0; i < n; i++) m[i] = sq_arena_alloc(s->arena, (n + 1) * sizeof **m);
    return m;
}

/* The values of a list of expressions in each row. */
static SmtVal **row_values(Win *w, const SqExprList *l) {
    SqSmt *s = w->s;
    SmtVal **v = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *v);
    for (uint32_t i = 0; i < w->n; i++) {
        v[i] = sq_arena_alloc(s->arena, (l->n + 1) * sizeof **v);
        for (uint32_t k = 0; k < l->n; k++) v[i][k] = smt_expr(s, l->items[k], &w->in->rows[i], w->env);
    }
    return v;
}

static void setup(Win *w) {
    SqSmt *s = w->s;
    const SqWinCall *c = w->w;
    uint32_t n = w->n;
    SmtVal **pk = row_values(w, &c->partition);
    SmtVal **ok = sq_arena_alloc(s->arena, (n + 1) * sizeof *ok);
    for (uint32_t i = 0; i < n; i++) {
        ok[i] = sq_arena_alloc(s->arena, (c->n_order + 1) * sizeof **ok);
        smt_sort_values(s, c->order, c->n_order, &w->in->rows[i], w->env, ok[i]);
    }
    w->part = matrix(s, n);
    w->lt = matrix(s, n);
    w->tie = matrix(s, n);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < n; j++) {
            Z3_ast same = smt_keys_tie(s, c->partition.n, pk[i], pk[j]);
            w->part[i][j] = smt_and2(s, w->in->rows[j].alive, same);
            w->lt[i][j] = smt_keys_lt(s, c->order, c->n_order, ok[i], ok[j]);
            w->tie[i][j] = smt_keys_tie(s, c->n_order, ok[i], ok[j]);
        }
}

/* ---- where a row stands --------------------------------------------------- */

/* The order among peers is SQLite's choice: a result that reads it holds
** only where no two live rows of a partition are peers. */
static void peers_matter(Win *w) {
    SqSmt *s = w->s;
    for (uint32_t i = 0; i < w->n; i++)
        for (uint32_t j = i + 1; j < w->n; j++) {
            Z3_ast c[3] = {w->in->rows[i].alive, w->part[i][j], w->tie[i][j]};
            smt_add_tie_condition(s, smt_not(s, smt_and_n(s, c, 3)));
        }
}

static Z3_ast *positions(Win *w) {
    SqSmt *s = w->s;
    if (w->pos) return w->pos;
    peers_matter(w);
    w->before = matrix(s, w->n);
    w->pos = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *w->pos);
    for (uint32_t i = 0; i < w->n; i++) {
        for (uint32_t j = 0; j < w->n; j++) {
            Z3_ast first = j == i ? smt_false(s)
                                  : smt_or2(s, w->lt[j][i], smt_and2(s, w->tie[i][j], j < i ? smt_true(s) : smt_false(s)));
            w->before[i][j] = smt_and2(s, w->part[i][j], first);
        }
        w->pos[i] = smt_count_true(s, w->before[i], w->n);
    }
    return w->pos;
}

/* How many rows j of i's partition have cond[j] (every row: cond NULL). */
static Z3_ast count_in_partition(Win *w, uint32_t i, const Z3_ast *cond) {
    SqSmt *s = w->s;
    Z3_ast *c = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *c);
    for (uint32_t j = 0; j < w->n; j++) c[j] = cond ? smt_and2(s, w->part[i][j], cond[j]) : w->part[i][j];
    return smt_count_true(s, c, w->n);
}

/* How many rows of i's partition have keys before i's (rank() - 1). */
static Z3_ast rows_ahead(Win *w, uint32_t i) {
    Z3_ast *c = sq_arena_alloc(w->s->arena, (w->n + 1) * sizeof *c);
    for (uint32_t j = 0; j < w->n; j++) c[j] = w->lt[j][i];
    return count_in_partition(w, i, c);
}

static Z3_ast *groups(Win *w) {
    SqSmt *s = w->s;
    if (w->grp) return w->grp;
    /* j leads its peer group: no live peer of its partition has a smaller index */
    Z3_ast *lead = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *lead);
    for (uint32_t j = 0; j < w->n; j++) {
        lead[j] = w->in->rows[j].alive;
        for (uint32_t l = 0; l < j; l++) lead[j] = smt_and2(s, lead[j], smt_not(s, smt_and2(s, w->part[j][l], w->tie[j][l])));
    }
    w->grp = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *w->grp);
    Z3_ast *c = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *c);
    for (uint32_t i = 0; i < w->n; i++) {
        for (uint32_t j = 0; j < w->n; j++) c[j] = smt_and_n(s, (Z3_ast[]){lead[j], w->part[i][j], w->lt[j][i]}, 3);
        w->grp[i] = smt_count_true(s, c, w->n);
    }
    return w->grp;
}

/* ---- frames --------------------------------------------------------------- */

/* A frame bound's offset: a non-negative integer constant. */
static int64_t offset_of(Win *w, const SqExpr *e) {
    int64_t v = 0;
    if (!sq_expr_int_constant(e, &v) || v < 0)
        smt_unsupported(w->s, e ? e->span : w->w->span, "a window frame offset that is not a non-negative integer constant");
    return v;
}

/* c[j] compared with c[i] + delta: at least (lower bound) or at most. */
static Z3_ast bound(Win *w, Z3_ast *c, uint32_t i, uint32_t j, int64_t delta, int lower) {
    SqSmt *s = w->s;
    Z3_ast edge = delta ? Z3_mk_add(s->z, 2, (Z3_ast[]){c[i], smt_int(s, delta)}) : c[i];
    smt_count(s, 2);
    return lower ? Z3_mk_ge(s->z, c[j], edge) : Z3_mk_le(s->z, c[j], edge);
}

/* Row j against one end of i's frame. */
static Z3_ast frame_end(Win *w, Z3_ast *c, uint32_t i, uint32_t j, uint8_t kind, const SqExpr *off, int lower) {
    switch ((AstBoundKind)kind) {
    case AST_BOUND_UNBOUNDED_PRECEDING:
    case AST_BOUND_UNBOUNDED_FOLLOWING: return smt_true(w->s);
    case AST_BOUND_CURRENT_ROW: return bound(w, c, i, j, 0, lower);
    case AST_BOUND_PRECEDING: return bound(w, c, i, j, -offset_of(w, off), lower);
    case AST_BOUND_FOLLOWING: return bound(w, c, i, j, offset_of(w, off), lower);
    }
    return smt_true(w->s);
}

static int has_offset(uint8_t kind) { return kind == AST_BOUND_PRECEDING || kind == AST_BOUND_FOLLOWING; }

/* frame[i][j]: j is in i's frame. */
static Z3_ast **frames(Win *w) {
    SqSmt *s = w->s;
    const SqWinFrame *f = &w->w->frame;
    uint8_t unit = f->unit, start = f->start_kind, end = f->end_kind;
    if (unit == AST_FRAME_NONE) {
        unit = AST_FRAME_RANGE;
        start = AST_BOUND_UNBOUNDED_PRECEDING;
        end = AST_BOUND_CURRENT_ROW;
    } else if (!f->has_between) {
        end = AST_BOUND_CURRENT_ROW;
    }
    if (unit == AST_FRAME_RANGE && (has_offset(start) || has_offset(end)))
        smt_unsupported(s, w->w->span, "a RANGE window frame with an offset");
    /* a ROWS frame counts rows; RANGE and GROUPS count peer groups (a
    ** RANGE frame has no offset here, so it ends at peer groups) */
    int bounded = start != AST_BOUND_UNBOUNDED_PRECEDING || end != AST_BOUND_UNBOUNDED_FOLLOWING;
    Z3_ast *c = !bounded ? NULL : unit == AST_FRAME_ROWS ? positions(w) : groups(w);
    uint8_t ex = f->exclude;
    Z3_ast **in = matrix(s, w->n);
    for (uint32_t i = 0; i < w->n; i++)
        for (uint32_t j = 0; j < w->n; j++) {
            Z3_ast k[4] = {w->part[i][j], frame_end(w, c, i, j, start, f->start, 1),
                           frame_end(w, c, i, j, end, f->end, 0), smt_true(s)};
            if (ex == AST_EXCLUDE_CURRENT_ROW) k[3] = j == i ? smt_false(s) : smt_true(s);
            else if (ex == AST_EXCLUDE_GROUP) k[3] = smt_not(s, w->tie[i][j]);
            else if (ex == AST_EXCLUDE_TIES) k[3] = j == i ? smt_true(s) : smt_not(s, w->tie[i][j]);
            in[i][j] = smt_and_n(s, k, 4);
        }
    return in;
}

/* ---- the functions -------------------------------------------------------- */

static SmtVal int_val(SqSmt *s, Z3_ast v) { return smt_val(s, SMT_INT, smt_false(s), v); }

static Z3_ast plus1(SqSmt *s, Z3_ast v) {
    smt_count(s, 1);
    return Z3_mk_add(s->z, 2, (Z3_ast[]){v, smt_int(s, 1)});
}

/* num / den for counts of at most n rows (linear: smt_div_count). */
static Z3_ast ratio(SqSmt *s, Z3_ast num, Z3_ast den, uint32_t n) {
    smt_count(s, 1);
    return smt_div_count(s, Z3_mk_int2real(s->z, num), den, n);
}

/* percent_rank(): (rank - 1) / (rows - 1), 0.0 for a single row. */
static SmtVal percent_rank(Win *w, uint32_t i) {
    SqSmt *s = w->s;
    Z3_ast before = rows_ahead(w, i), rows = count_in_partition(w, i, NULL);
    smt_count(s, 3);
    Z3_ast many = Z3_mk_gt(s->z, rows, smt_int(s, 1));
    Z3_ast den = Z3_mk_sub(s->z, 2, (Z3_ast[]){rows, smt_int(s, 1)});
    return smt_val(s, SMT_REAL, smt_false(s), smt_ite(s, many, ratio(s, before, den, w->n), smt_real(s, 0, 1)));
}

/* cume_dist(): rows up to the last peer of i over the partition's rows. */
static SmtVal cume_dist(Win *w, uint32_t i) {
    SqSmt *s = w->s;
    Z3_ast *not_after = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *not_after);
    for (uint32_t j = 0; j < w->n; j++) not_after[j] = smt_not(s, w->lt[i][j]);
    Z3_ast upto = count_in_partition(w, i, not_after), rows = count_in_partition(w, i, NULL);
    return smt_val(s, SMT_REAL, smt_false(s), ratio(s, upto, rows, w->n));
}

/* The value of arg in the row chosen[j] picks, NULL (or dflt) when none. */
static SmtVal pick(Win *w, const Z3_ast *chosen, SmtVal *x, SmtVal dflt) {
    SmtVal v = dflt;
    for (uint32_t j = w->n; j-- > 0;) v = smt_val_ite(w->s, chosen[j], x[j], v, w->w->span);
    return v;
}

static SmtVal *arg_values(Win *w, uint32_t a) {
    SmtVal *x = sq_arena_alloc(w->s->arena, (w->n + 1) * sizeof *x);
    for (uint32_t j = 0; j < w->n; j++) x[j] = smt_expr(w->s, w->w->args.items[a], &w->in->rows[j], w->env);
    return x;
}

/* A constant integer argument (lag's offset, nth_value's N) or dflt. */
static int64_t const_arg(Win *w, uint32_t a, int64_t dflt, int64_t min) {
    if (w->w->args.n <= a) return dflt;
    int64_t v = 0;
    if (!sq_expr_int_constant(w->w->args.items[a], &v) || v < min)
        smt_unsupported(w->s, w->w->args.items[a]->span, "%s() with this argument", w->w->def->name);
    return v;
}

/* lag() (dir -1) and lead() (dir 1): the row that many places away. */
static void lag_lead(Win *w, int dir, SmtVal *out) {
    SqSmt *s = w->s;
    int64_t off = const_arg(w, 1, 1, 0);
    Z3_ast *pos = positions(w);
    SmtVal *x = arg_values(w, 0);
    Z3_ast *chosen = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *chosen);
    for (uint32_t i = 0; i < w->n; i++) {
        Z3_ast at = dir < 0 ? Z3_mk_sub(s->z, 2, (Z3_ast[]){pos[i], smt_int(s, off)})
                            : Z3_mk_add(s->z, 2, (Z3_ast[]){pos[i], smt_int(s, off)});
        smt_count(s, 2 + w->n);
        for (uint32_t j = 0; j < w->n; j++) chosen[j] = smt_and2(s, w->part[i][j], smt_eq(s, pos[j], at));
        SmtVal dflt = w->w->args.n > 2 ? smt_expr(s, w->w->args.items[2], &w->in->rows[i], w->env) : smt_null(s);
        out[i] = pick(w, chosen, x, dflt);
    }
}

/* first_value() (nth 1), nth_value() and last_value() (nth 0): the row
** of the frame with nth - 1 frame rows before it (or none after it). */
static void frame_value(Win *w, int64_t nth, SmtVal *out) {
    SqSmt *s = w->s;
    Z3_ast **frame = frames(w);
    positions(w);
    SmtVal *x = arg_values(w, 0);
    Z3_ast *chosen = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *chosen);
    Z3_ast *c = sq_arena_alloc(s->arena, (w->n + 1) * sizeof *c);
    for (uint32_t i = 0; i < w->n; i++) {
        for (uint32_t j = 0; j < w->n; j++) {
            for (uint32_t l = 0; l < w->n; l++)
                c[l] = smt_and2(s, frame[i][l], nth ? w->before[j][l] : w->before[l][j]);
            Z3_ast k = smt_count_true(s, c, w->n);
            chosen[j] = smt_and2(s, frame[i][j], smt_eq(s, k, smt_int(s, nth ? nth - 1 : 0)));
        }
        out[i] = pick(w, chosen, x, smt_null(s));
    }
}

/* An aggregate over each row's frame. */
static void frame_aggregate(Win *w, SmtVal *out) {
    const SqWinCall *c = w->w;
    Z3_ast **frame = frames(w);
    SqAggItem it = {SQ_AGG_CALL, 0, c->star, c->def, c->name, c->args, NULL, c->filter, c->type, c->span};
    SmtCallInput ci = {0};
    for (uint32_t i = 0; i < w->n; i++) out[i] = smt_agg_over(w->s, w->in, w->env, frame[i], &it, &ci);
}

/* The call's value in every row. */
static void window_call(Win *w, SmtVal *out) {
    SqSmt *s = w->s;
    const char *name = w->w->def ? w->w->def->name : "";
    setup(w);
    if (w->w->def && w->w->def->kind == F_AGG) {
        frame_aggregate(w, out);
        return;
    }
    const SmtFunc *f = w->w->def ? smt_func_find(name, F_WINDOW) : NULL;
    int op = f ? (int)f->op : -1;
    switch (op) {
    case SMT_FN_LAG: case SMT_FN_LEAD: lag_lead(w, op == SMT_FN_LAG ? -1 : 1, out); return;
    case SMT_FN_FIRST_VALUE: frame_value(w, 1, out); return;
    case SMT_FN_LAST_VALUE: frame_value(w, 0, out); return;
    case SMT_FN_NTH_VALUE: frame_value(w, const_arg(w, 1, 1, 1), out); return;
    default: break;
    }
    for (uint32_t i = 0; i < w->n; i++) {
        switch (op) {
        case SMT_FN_ROW_NUMBER: out[i] = int_val(s, plus1(s, positions(w)[i])); break;
        case SMT_FN_RANK: out[i] = int_val(s, plus1(s, rows_ahead(w, i))); break;
        case SMT_FN_DENSE_RANK: out[i] = int_val(s, plus1(s, groups(w)[i])); break;
        case SMT_FN_PERCENT_RANK: out[i] = percent_rank(w, i); break;
        case SMT_FN_CUME_DIST: out[i] = cume_dist(w, i); break;
        default: smt_unsupported(s, w->w->span, "the window function %s()", name);
        }
    }
}

SmtRel smt_window(SqSmt *s, IrRel *r, SmtRel in, const SmtEnv *env) {
    uint32_t n = in.n, nc = r->u.window.n_calls;
    SmtVal **cells = sq_arena_alloc(s->arena, (n + 1) * sizeof *cells);
    for (uint32_t i = 0; i < n; i++) cells[i] = sq_arena_alloc(s->arena, (nc + 1) * sizeof **cells);
    SmtVal *col = sq_arena_alloc(s->arena, (n + 1) * sizeof *col);
    for (uint32_t c = 0; c < nc; c++) {
        Win w = {s, &in, env, &r->u.window.calls[c], n, NULL, NULL, NULL, NULL, NULL, NULL};
        window_call(&w, col);
        for (uint32_t i = 0; i < n; i++) cells[i][c] = col[i];
    }
    SmtRel out = {sq_arena_alloc(s->arena, (n + 1) * sizeof(SmtRow)), n, r->id, nc, NULL, NULL, NULL};
    for (uint32_t i = 0; i < n; i++) out.rows[i] = smt_row_with(s, &in.rows[i], r->id, cells[i], nc);
    return out;
}
