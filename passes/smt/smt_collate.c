/*
** smt_collate.c -- comparisons under a collation: COLLATE NOCASE written
** in the query or declared on a column.
**
** Layer: passes.  Which collation a comparison uses is SQLite's rule:
** a COLLATE on the left operand, else on the right, else the declared
** collation of the left operand if it is a column (BINARY included),
** else of the right one.  Under NOCASE both sides are folded to lower
** case (ASCII) and compared as BINARY, which is what NOCASE does; = and
** <> between TEXT and a string constant are exact (the strings that fold
** to the constant), elsewhere lower() is uninterpreted with its axioms
** (smt_strfn.c).  A column declared with a collation other than BINARY
** is read only as the operand of a comparison (smt_operand): anywhere
** else its collation could matter unseen (smt_expr.c refuses the read).
** See docs/smt.md, "COLLATE NOCASE".
*/
#include "passes/smt/smt_int.h"

const SqExpr *smt_strip_collate(const SqExpr *e, const char **name) {
    *name = NULL;
    while (e->kind == SQX_COLLATE) {
        if (!*name) *name = e->u.collate.name ? e->u.collate.name : "";
        e = e->u.collate.x;
    }
    return e;
}

/* The collation of column reference x as SQLite takes it for a
** comparison: the one its table column was declared with, else BINARY;
** NULL when x is no column reference. */
static const char *column_collation(const SqSmt *s, const SqExpr *x) {
    if (x->kind != SQX_COLUMN) return NULL;
    const SqColumn *col = ir_column(s->q, x->u.col);
    if (!col || !col->table || col->table_col < 0) return "binary";
    const CatColumn *c = &col->table->cols[col->table_col];
    return smt_collated(c) ? c->collation : "binary";
}

const char *smt_declared_collation(const SqSmt *s, const SqExpr *x) {
    const char *ignored, *coll = column_collation(s, smt_strip_collate(x, &ignored));
    return coll && sq_stricmp(coll, "binary") != 0 ? coll : NULL;
}

SmtVal smt_operand(SqSmt *s, const SqExpr *x, const SmtRow *row, const SmtEnv *env) {
    const char *ignored;
    int column = smt_strip_collate(x, &ignored)->kind == SQX_COLUMN;
    s->operand = column;
    SmtVal v = smt_expr(s, x, row, env);
    s->operand = 0;
    return v;
}

/* e is a TEXT literal. */
static int text_literal(const SqExpr *e) { return e->kind == SQX_LITERAL && e->u.lit.vtype == SQ_VAL_TEXT; }

/* The text of literal e in ASCII lower case, in the arena. */
static char *lower_literal(SqSmt *s, const SqExpr *e) {
    char *low = sq_arena_alloc(s->arena, e->u.lit.n + 1);
    for (uint32_t i = 0; i < e->u.lit.n; i++) low[i] = (char)sq_ascii_lower((unsigned char)e->u.lit.s[i]);
    low[e->u.lit.n] = 0;
    return low;
}

/* A NOCASE operand: TEXT folded to lower case (ASCII), a constant exactly,
** anything else through lower()'s axioms (smt_strfn.c); NULL stays NULL. */
static SmtVal nocase_operand(SqSmt *s, const SqExpr *x, const SmtRow *row, const SmtEnv *env, SrcSpan at) {
    if (text_literal(x)) return smt_val(s, SMT_TEXT, smt_false(s), smt_str_lit(s, lower_literal(s, x), x->u.lit.n));
    SmtVal v = smt_operand(s, x, row, env);
    if (v.kind == SMT_NULL) return v;
    if (v.kind != SMT_TEXT) smt_unsupported(s, at, "COLLATE NOCASE on a value that is not TEXT");
    v.v = smt_str_lower(s, v.v);
    return v;
}

int smt_nocase_compare(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, SmtVal *out) {
    const char *cl, *cr;
    const SqExpr *l = smt_strip_collate(e->u.bin.l, &cl), *r = smt_strip_collate(e->u.bin.r, &cr);
    const char *coll = cl ? cl : cr ? cr : column_collation(s, l); /* a column's, even BINARY, beats the right's */
    if (!coll) coll = column_collation(s, r);
    if (!coll || sq_stricmp(coll, "binary") == 0) return 0;
    if (sq_stricmp(coll, "nocase") != 0) smt_unsupported(s, e->span, "COLLATE %s", coll);
    if (smt_numeric_aff(l->type.aff) || smt_numeric_aff(r->type.aff))
        smt_unsupported(s, e->span, "COLLATE NOCASE beside a value of numeric affinity");
    int lc = text_literal(l), rc = !lc && text_literal(r);
    if ((lc || rc) && (e->op == AST_OP_EQ || e->op == AST_OP_NE)) {
        SmtVal v = smt_operand(s, lc ? r : l, row, env);
        if (v.kind == SMT_NULL) {
            *out = v;
            return 1;
        }
        if (v.kind != SMT_TEXT) smt_unsupported(s, e->span, "COLLATE NOCASE on a value that is not TEXT");
        Z3_ast in = smt_in_re(s, v.v, smt_folds_to(s, lower_literal(s, lc ? l : r), 1));
        Z3_ast known = smt_not(s, v.null);
        if (e->op == AST_OP_NE) in = smt_not(s, in);
        *out = smt_bool3(s, smt_and2(s, known, in), smt_and2(s, known, smt_not(s, in)));
        return 1;
    }
    SmtVal a = nocase_operand(s, l, row, env, e->span), b = nocase_operand(s, r, row, env, e->span);
    *out = smt_compare(s, e->op, a, b, e->span);
    return 1;
}
