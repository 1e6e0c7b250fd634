/*
** warn.c -- what squint compile says about a query that compiles: the
** warnings sqlc's users ask for, and squint lint's rules.
**
**   E0508  :one or :many over a statement that returns no columns
**   W0502  SELECT * or RETURNING *: the columns follow the schema
**   W0503  an :exec command over a statement that returns rows
**   W0504  :one where more than one row can come back
**   W0505  a parameter number no placeholder uses (?3 alone: 1, 2)
**   lint   every schema rule of squint lint on a SELECT, at most a
**          warning here (select-star is W0502's)
**
** W0504 is decided as lint decides keys (sq_lint_at_most_one_row): on
** every database the schema allows, so it never warns about a query a
** key makes single, and may warn when only the data does.
*/
#include <string.h>

#include "backend/cbind/cbind.h"
#include "passes/lint/lint.h"

static const char *cmd_of(const SqAnnotation *a) { return sq_query_cmd_name((SqQueryCmd)a->cmd); }

static int is_exec(const SqAnnotation *a) {
    return a->cmd == SQ_CMD_EXEC || a->cmd == SQ_CMD_EXECROWS || a->cmd == SQ_CMD_EXECLASTID;
}

static void star_list(SqDiags *d, const AstResultList *l, const char *clause) {
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->items[i].kind == AST_RC_EXPR) continue;
        SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_SELECT_STAR, l->items[i].span,
                                "%s * in a compiled query: its columns, and the generated row, change with the "
                                "schema", clause);
        sq_diag_help(g, "name the columns");
    }
}

static void star_select(SqDiags *d, const AstSelect *s) {
    if (!s) return;
    if (s->kind == AST_SEL_COMPOUND) {
        star_select(d, s->left);
        star_select(d, s->right);
    } else if (s->kind == AST_SEL_CORE) {
        star_list(d, &s->cols, "SELECT");
    }
}

/* W0502 on the statement's own result list (not its subqueries'). */
static void stars(SqDiags *d, const AstStmt *st) {
    switch (st->kind) {
    case AST_STMT_SELECT: star_select(d, st->u.select); break;
    case AST_STMT_INSERT: star_list(d, &st->u.insert->returning, "RETURNING"); break;
    case AST_STMT_UPDATE: star_list(d, &st->u.update->returning, "RETURNING"); break;
    case AST_STMT_DELETE: star_list(d, &st->u.del->returning, "RETURNING"); break;
    default: break;
    }
}

static void command_fits(SqDiags *d, const SqAnnotation *a, const SqSignature *sig) {
    if ((a->cmd == SQ_CMD_ONE || a->cmd == SQ_CMD_MANY) && !sig->n_cols) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_NO_RESULT, a->at, "the query '%s' is %s, but its statement "
                                "returns no columns", a->name, cmd_of(a));
        sq_diag_help(g, "use :exec, :execrows or :execlastid, or add RETURNING");
    } else if (is_exec(a) && sig->n_cols) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_EXEC_ROWS, a->at, "the query '%s' is %s, but its statement "
                                "returns rows (%u column%s): they are thrown away", a->name, cmd_of(a),
                                sig->n_cols, sig->n_cols == 1 ? "" : "s");
        sq_diag_help(g, "use :one or :many to read them, or drop what returns them");
    }
}

static void gaps(SqDiags *d, const SqAnnotation *a, const SqSignature *sig) {
    uint32_t max = 0;
    for (uint32_t i = 0; i < sig->n_params; i++)
        if (sig->params[i].index > max) max = sig->params[i].index;
    for (uint32_t k = 1; k <= max; k++) {
        uint32_t i = 0;
        while (i < sig->n_params && sig->params[i].index != k) i++;
        if (i < sig->n_params) continue;
        SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_PARAM_GAP, a->stmt, "parameter %u of '%s' is never used: "
                                "SQLite counts it, and it stays NULL", k, a->name);
        sq_diag_help(g, "number the parameters from ?1 without gaps, or use names");
    }
}

/* Every rule at most a warning; select-star is W0502's. */
static void compile_lint_config(SqLintConfig *cfg) {
    sq_lint_config_init(cfg);
    for (int r = 0; r < SQ_LINT__COUNT; r++)
        if (cfg->sev[r] > SQ_SEV_WARNING) cfg->sev[r] = SQ_SEV_WARNING;
    cfg->enabled[LR_SELECT_STAR] = 0;
}

/* Whether q returns at most one row; lint's rules run on it too when
** it is a SELECT (a DML statement's probe is no query of the user's). */
static int lint_and_count(const SqCbindWarnCtx *w, IrQuery *q, int run_rules) {
    SqLintConfig cfg;
    compile_lint_config(&cfg);
    SqPassCtx pc;
    sq_pass_ctx_init(&pc, q->arena, w->cat, w->names, w->diags);
    SqLint l;
    sq_lint_init(&l, &pc, q, &cfg, w->srcs, 0);
    int one = sq_lint_at_most_one_row(&l);
    if (run_rules) sq_lint_query(&l);
    return one;
}

/* INSERT ... VALUES of one row (or DEFAULT VALUES) inserts one row; its
** probe reads the whole table, so it is told here. */
static int insert_one_row(const AstInsert *in) {
    return !in->select || (in->select->kind == AST_SEL_VALUES && in->select->n_rows == 1);
}

static void one_row(SqDiags *d, const SqAnnotation *a) {
    SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_ONE_MANY, a->at, "the query '%s' is :one, but no key makes its "
                            "result a single row: the function returns the first of several", a->name);
    sq_diag_help(g, "compare a key with a parameter (WHERE id = ?), add LIMIT 1, or use :many");
}

void sq_cbind_warn(const SqCbindWarnCtx *w, const SqAnnotation *a, const AstStmt *st, IrQuery *q,
                   const SqSignature *sig) {
    command_fits(w->diags, a, sig);
    stars(w->diags, st);
    gaps(w->diags, a, sig);
    int is_select = st->kind == AST_STMT_SELECT;
    int one = st->kind == AST_STMT_INSERT ? insert_one_row(st->u.insert) : lint_and_count(w, q, is_select);
    if (a->cmd == SQ_CMD_ONE && sig->n_cols && !one) one_row(w->diags, a);
}
