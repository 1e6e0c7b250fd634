/*
** lint.c -- the rule table, findings, and the walk that hands every query
** block of a statement to the rule families.
**
** Layer: passes.  Statement-level rules live here too: unused CTEs,
** SELECT * in the result, and the three rules joinelim's analysis answers
** (join-not-on-key, fanout-aggregate, unused-join; its implied and
** duplicate join conditions are redundant conditions of
** unsat-or-tautology).
*/
#include "passes/lint/lint_int.h"

#include <stdarg.h>
#include <string.h>

static const SqLintRule rules[SQ_LINT__COUNT] = {
#define LINT_RULE(e, id, name, sev, level, summary, help) \
    {id, name, SQ_SEV_##sev, SQ_LINT_##level, summary, help},
#include "passes/lint/rules.def"
#undef LINT_RULE
};

const char *sq_lint_level_name(SqLintLevel l) {
    return l == SQ_LINT_PROVE ? "prove" : l == SQ_LINT_DATA ? "data" : "schema";
}

const SqLintRule *sq_lint_rule(SqLintRuleId r) { return &rules[r]; }

int sq_lint_rule_find(const char *s) {
    for (int i = 0; i < SQ_LINT__COUNT; i++)
        if (strcmp(rules[i].name, s) == 0 || strcmp(rules[i].id, s) == 0) return i;
    return -1;
}

int sq_lint_rule_of_diag(const char *code) {
    static const struct { SqDiagCode diag; SqLintRuleId rule; } map[] = {
        {SQ_E_NO_TABLE, LR_UNRESOLVED_NAME},   {SQ_E_NO_COLUMN, LR_UNRESOLVED_NAME},
        {SQ_E_NO_FUNCTION, LR_UNRESOLVED_NAME}, {SQ_E_AMBIGUOUS, LR_AMBIGUOUS_COLUMN},
        {SQ_E_ARITY, LR_FUNCTION_ARITY},
    };
    for (size_t i = 0; i < SQ_ARRAY_LEN(map); i++)
        if (strcmp(sq_diag_code(map[i].diag), code) == 0) return (int)map[i].rule;
    return -1;
}

int sq_lint_rule_of_finding(const char *code) {
    int r = sq_lint_rule_find(code);
    return r >= 0 ? r : sq_lint_rule_of_diag(code);
}

void sq_lint_config_init(SqLintConfig *c) {
    for (int i = 0; i < SQ_LINT__COUNT; i++) {
        c->enabled[i] = 1;
        c->sev[i] = rules[i].sev;
    }
}

/* ------------------------------------------------------------------ */
/* Findings                                                            */
/* ------------------------------------------------------------------ */

int sq_lint_enabled(const SqLint *l, SqLintRuleId r) { return l->cfg->enabled[r]; }

static int reported(const SqLint *l, SqLintRuleId r, SrcSpan at) {
    for (size_t i = l->first_diag; i < l->diags->n; i++) {
        const SqDiag *g = l->diags->items[i];
        if (g->code == rules[r].name && g->span.file == at.file && g->span.start == at.start &&
            g->span.end == at.end)
            return 1;
    }
    return 0;
}

SqDiag *sq_lint_report(SqLint *l, SqLintRuleId r, SrcSpan at, const char *fmt, ...) {
    if (!l->cfg->enabled[r] || reported(l, r, at)) return NULL;
    va_list ap;
    va_start(ap, fmt);
    SqDiag *g = sq_diag_vadd_named(l->diags, (SqSeverity)l->cfg->sev[r], rules[r].name, at, fmt,
                                   ap);
    va_end(ap);
    sq_diag_help(g, "%s", rules[r].help);
    l->n_findings++;
    return g;
}

enum { TEXT_MAX = 60 };

const char *sq_lint_text(const SqLint *l, SrcSpan s) {
    const SqSrc *src = sq_src_get(l->srcs, s.file);
    if (!src || s.end > src->len || s.start >= s.end) return "?";
    SqBuf b = SQ_BUF_INIT;
    int blank = 0;
    for (uint32_t i = s.start; i < s.end; i++) {
        unsigned char ch = (unsigned char)src->text[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            blank = 1;
            continue;
        }
        if (blank && b.len) sq_buf_putc(&b, ' ');
        blank = 0;
        if (b.len >= TEXT_MAX && (ch & 0xC0) != 0x80) {
            sq_buf_puts(&b, "...");
            break;
        }
        sq_buf_putc(&b, (char)ch);
    }
    const char *out = sq_arena_strdup(l->q->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    return out;
}

SqLintProbe *sq_lint_probe(SqLint *l, SqLintProbeKind kind, SrcSpan at) {
    SqLintProbe *p = SQ_ARENA_APPEND(l->q->arena, l->probes, l->n_probes, l->cap_probes);
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->at = at;
    return p;
}

/* ------------------------------------------------------------------ */
/* Helpers for the rule families                                       */
/* ------------------------------------------------------------------ */

int lint_item_of(const LintCore *k, uint32_t rel) {
    for (uint32_t i = 0; i < k->n_items; i++)
        if (ir_rel_binds(k->items[i].rel, rel)) return (int)i;
    return -1;
}

typedef struct ReadsItem {
    const LintCore *k;
    uint32_t item;
    int hit;
} ReadsItem;

static int reads_item_cb(SqExpr *e, void *arg);

static int reads_in_rel(SqExpr **slot, void *arg) {
    return sq_expr_walk(*slot, reads_item_cb, arg);
}

static int reads_rel_cb(IrRel *r, void *arg) { return ir_rel_exprs(r, reads_in_rel, arg); }

static int reads_item_cb(SqExpr *e, void *arg) {
    ReadsItem *ri = arg;
    if (e->kind == SQX_COLUMN && ir_rel_binds(ri->k->items[ri->item].rel, e->u.col.rel))
        return ri->hit = 1;
    if ((e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY) &&
        e->u.sub.rel && (e->flags & SQXF_CORRELATED))
        return ir_walk_rels(e->u.sub.rel, reads_rel_cb, arg);
    return 0;
}

int lint_reads_item(const LintCore *k, SqExpr *e, uint32_t i) {
    ReadsItem ri = {k, i, 0};
    sq_expr_walk(e, reads_item_cb, &ri);
    return ri.hit;
}

static int not_constant_cb(SqExpr *e, void *arg) {
    const LintCore *k = arg;
    if (e->kind == SQX_COLUMN) return lint_item_of(k, e->u.col.rel) >= 0 ||
                                      (e->flags & (SQXF_AGG_REF | SQXF_WIN_REF | SQXF_RESULT_REF));
    if (e->kind == SQX_SUBQUERY || e->kind == SQX_EXISTS || e->kind == SQX_IN_SUBQUERY ||
        e->kind == SQX_CTIME || e->kind == SQX_RAISE)
        return 1;
    if (e->kind == SQX_FUNC && e->u.func.def && (e->u.func.def->flags & FL_NONDET))
        return 1;
    return 0;
}

int lint_is_constant(const LintCore *k, SqExpr *e) {
    return !sq_expr_walk(e, not_constant_cb, (void *)k);
}

const CatTable *lint_table_column(const SqLint *l, const SqExpr *e, int32_t *col) {
    if (!e || e->kind != SQX_COLUMN) return NULL;
    const SqColumn *c = ir_column(l->q, e->u.col);
    if (!c || !c->table) return NULL;
    *col = (e->flags & SQXF_ROWID) ? -1 : c->table_col;
    return c->table;
}

SqExpr *lint_strip(SqExpr *e) {
    while (e && ((e->kind == SQX_COLLATE) || (e->kind == SQX_UNARY && e->op == AST_OP_POS)))
        e = e->kind == SQX_COLLATE ? e->u.collate.x : e->u.bin.l;
    return e;
}

SqExpr **lint_group_keys(SqArena *a, const IrRel *agg) {
    SqExpr **keys = sq_arena_alloc(a, (agg->u.agg.n_keys + 1) * sizeof *keys);
    uint32_t n = 0;
    for (uint32_t i = 0; i < agg->u.agg.n_items && n < agg->u.agg.n_keys; i++)
        if (agg->u.agg.items[i].kind == SQ_AGG_KEY) keys[n++] = agg->u.agg.items[i].expr;
    return keys;
}

int lint_key_ref(const IrRel *agg, const SqExpr *e) {
    e = lint_strip((SqExpr *)e);
    if (!agg || !e || e->kind != SQX_COLUMN || e->u.col.rel != agg->id ||
        e->u.col.col >= agg->u.agg.n_items || agg->u.agg.items[e->u.col.col].kind != SQ_AGG_KEY)
        return -1;
    return (int)e->u.col.col;
}

int lint_is_literal(const SqExpr *e, int vtype) {
    return e && e->kind == SQX_LITERAL && e->u.lit.vtype == vtype;
}

/* ------------------------------------------------------------------ */
/* Findings of joinelim                                                */
/* ------------------------------------------------------------------ */

static void joinelim_findings(SqLint *l) {
    static const char *const jn[] = {"joinelim"};
    if (!sq_lint_enabled(l, LR_JOIN_NOT_ON_KEY) && !sq_lint_enabled(l, LR_FANOUT_AGGREGATE) &&
        !sq_lint_enabled(l, LR_UNUSED_JOIN) && !sq_lint_enabled(l, LR_UNSAT_TAUTOLOGY))
        return;
    size_t before = l->diags->n;
    if (sq_pass_run(l->pass, l->q, jn, 1) < 0) {
        sq_diags_truncate(l->diags, before); /* what it could not analyse is not a finding */
        return;
    }
    sq_diags_truncate(l->diags, before);
    const SqJoinElim *je = sq_joinelim_result(l->pass);
    for (uint32_t i = 0; je && i < je->n_findings; i++) {
        const SqJeFinding *f = &je->findings[i];
        switch ((SqJeKind)f->kind) {
        case SQ_JE_NON_KEY:
            sq_lint_report(l, LR_JOIN_NOT_ON_KEY, f->span, "%s", f->reason);
            break;
        case SQ_JE_FANOUT_AGG: break; /* lint_shape.c checks what the aggregate reads */
        case SQ_JE_REMOVABLE:
            sq_lint_report(l, LR_UNUSED_JOIN, f->span, "%s can go: %s",
                           l->alias[f->drop->id], f->reason);
            break;
        case SQ_JE_IMPLIED:
        case SQ_JE_DUPLICATE:
            sq_lint_report(l, LR_UNSAT_TAUTOLOGY, f->cond ? f->cond->span : f->span,
                           "redundant condition: %s", f->reason);
            break;
        default: break;
        }
    }
}

const char *lint_join_why(const SqLint *l, const IrRel *item) {
    const SqJoinElim *je = sq_joinelim_result(l->pass);
    for (uint32_t i = 0; je && i < je->n_joins; i++)
        if (je->joins[i].item == item) return je->joins[i].fans_out ? je->joins[i].why : NULL;
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Unused CTEs                                                         */
/* ------------------------------------------------------------------ */

/* A CTE is read when some CTEREF outside its own body names it (a
** recursive CTE's reference to itself does not count).  q->rels holds
** every relation of the statement, subqueries and CTE bodies included. */
static int cte_read(const SqLint *l, const IrCte *cte) {
    IrIdSet body;
    ir_idset_init(l->q, &body);
    ir_idset_add_tree(&body, cte->body);
    for (uint32_t i = 0; i < l->q->n_rels; i++) {
        const IrRel *r = l->q->rels[i];
        if (r && r->kind == IR_CTEREF && r->u.cteref.cte == cte && !ir_idset_has(&body, r->id))
            return 1;
    }
    return 0;
}

static void unused_ctes(SqLint *l) {
    if (!sq_lint_enabled(l, LR_UNUSED_CTE)) return;
    for (uint32_t i = 0; i < l->q->n_rels; i++) {
        const IrRel *r = l->q->rels[i];
        if (!r || !r->with || (r->flags & IRF_VIEW)) continue;
        for (uint32_t j = 0; j < r->with->n_ctes; j++) {
            const IrCte *cte = r->with->ctes[j];
            if (!cte->body || !cte_read(l, cte))
                sq_lint_report(l, LR_UNUSED_CTE, cte->span, "CTE %s is defined but never read",
                               cte->name);
        }
    }
}

/* ------------------------------------------------------------------ */
/* SELECT * in the result                                              */
/* ------------------------------------------------------------------ */

static void star_columns(SqLint *l, const AstSelect *s) {
    if (!s) return;
    if (s->kind == AST_SEL_COMPOUND) {
        star_columns(l, s->left);
        star_columns(l, s->right);
        return;
    }
    for (uint32_t i = 0; i < s->cols.n; i++) {
        const AstResultCol *c = &s->cols.items[i];
        if (c->kind == AST_RC_STAR)
            sq_lint_report(l, LR_SELECT_STAR, c->span,
                           "* returns every column, in the schema's order");
        else if (c->kind == AST_RC_TABLE_STAR)
            sq_lint_report(l, LR_SELECT_STAR, c->span,
                           "%s.* returns every column of %s, in the schema's order",
                           c->table.text, c->table.text);
    }
}

/* ------------------------------------------------------------------ */
/* Visiting the query blocks                                           */
/* ------------------------------------------------------------------ */

static void push_item(LintCore *k, IrRel *rel, IrRel *join, int nullable) {
    LintItem *it = SQ_ARENA_APPEND(k->l->q->arena, k->items, k->n_items, k->cap_items);
    it->rel = rel;
    it->join = join;
    it->nullable = (uint8_t)nullable;
}

/* The leaves of the FROM tree r, left to right; nullable: the NULL-filled
** side of an outer join above. */
static void collect_items(LintCore *k, IrRel *r, IrRel *join, int nullable) {
    if (r->kind != IR_JOIN) {
        push_item(k, r, join, nullable);
        return;
    }
    uint8_t t = r->u.join.type;
    collect_items(k, r->u.join.left, join, nullable || t == IR_JOIN_RIGHT || t == IR_JOIN_FULL);
    collect_items(k, r->u.join.right, r, nullable || t == IR_JOIN_LEFT || t == IR_JOIN_FULL);
}

static void visit_core(void *arg, IrRel **top, const IrCore *c, const IrCoreSite *site) {
    SqLint *l = arg;
    if (!c) {
        lint_compound(l, *top, site);
        return;
    }
    LintCore k;
    memset(&k, 0, sizeof k);
    k.l = l;
    k.top = top;
    k.c = c;
    k.site = site;
    collect_items(&k, c->from, NULL, 0);
    if (c->where) ir_conjuncts(l->q->arena, c->where->u.filter.pred, &k.where);
    lint_exprs(&k);
    lint_joins(&k);
    lint_shape(&k);
    lint_ranges(&k);
}

int sq_lint_at_most_one_row(SqLint *l) {
    IrCore c;
    IrRel *t = l->q->root;
    if (!t || !ir_core_split(&t, &c)) return 0;   /* a compound: not told */
    if (lint_single_row(l->q->root)) return 1;
    LintCore k;
    memset(&k, 0, sizeof k);
    k.l = l;
    k.top = &l->q->root;
    k.c = &c;
    collect_items(&k, c.from, NULL, 0);
    if (c.where) ir_conjuncts(l->q->arena, c.where->u.filter.pred, &k.where);
    return lint_unique_by(&k, NULL, 0);
}

void sq_lint_init(SqLint *l, SqPassCtx *pass, IrQuery *q, const SqLintConfig *cfg,
                  const SqSrcSet *srcs, int with_data) {
    memset(l, 0, sizeof *l);
    l->pass = pass;
    l->q = q;
    l->cfg = cfg;
    l->diags = pass->diags;
    l->srcs = srcs;
    l->with_data = with_data;
    l->first_diag = l->diags->n;
}

void sq_lint_query(SqLint *l) {
    if (!l->q->root) return;
    l->alias = ir_sql_aliases(l->q);
    joinelim_findings(l);
    ir_visit_cores(&l->q->root, visit_core, l);
    unused_ctes(l);
    const AstStmt *st = l->q->stmt;
    if (st && st->kind == AST_STMT_SELECT) star_columns(l, st->u.select);
}
