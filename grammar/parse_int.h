/*
** parse_int.h -- the parse context and the AST constructors that grammar
** actions call.
**
** Layer: grammar.  Private to sql.y, ast.c, ast_*.c, lex.c and parse.c.
** Constructors allocate in ctx->arena, never fail (out of memory aborts),
** and report SQLite's parse-time errors through ast_error(), which records
** only the first error of a statement, as SQLite stops at its first error.
*/
#ifndef SQ_PARSE_INT_H
#define SQ_PARSE_INT_H

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/intern.h"
#include "grammar/ast.h"
#include "grammar/parse_types.h"
#include "sql.tab.h"

/* SQLite 3.40 limits that its parser enforces (Debian's build). */
#define SQ_MAX_EXPR_DEPTH 1000
#define SQ_MAX_COMPOUND_SELECT 500
#define SQ_MAX_FUNCTION_ARG 127
#define SQ_MAX_VARIABLE_NUMBER 250000

struct ParseCtx {
    SqArena *arena;          /* nodes of the statement being parsed */
    SqInterner *names;       /* identifier keys */
    SqDiags *diags;          /* where errors go */
    const SqSrc *src;        /* text being parsed */
    uint32_t file;           /* src->id, for spans */
    AstStmt *done;           /* statement completed by the last push */
    int explain;             /* 1 EXPLAIN, 2 EXPLAIN QUERY PLAN */
    int failed;              /* an error was reported for this statement */
    int exhausted;           /* bison's stack limit was hit */
    uint32_t n_vars;         /* highest bind parameter number so far */
    const SqName **var_slots; /* named parameters seen (open addressing) */
    uint32_t var_cap, var_count;
    AstResultList *returning;  /* RETURNING of the DML being parsed */
    AstCreateTable *table;   /* CREATE TABLE or ALTER ... ADD in progress */
    AstName cons_name;       /* pending CONSTRAINT name */
    AstStmt *trigger;        /* CREATE TRIGGER in progress */
    AstStmt *vtab;           /* CREATE VIRTUAL TABLE in progress */
    int in_vtab_args;        /* inside CREATE VIRTUAL TABLE (...) arguments */
    uint32_t eof_offset;     /* where a synthetic end-of-input token sits */
};

static inline SrcSpan ast_span(const ParseCtx *ctx, SqLoc loc) {
    return sq_span(ctx->file, loc.start, loc.end);
}

static inline SqLoc ast_loc(SrcSpan s) {
    SqLoc l = {s.start, s.end};
    return l;
}

/* Report a parse-time error (first one per statement only). */
SqDiag *ast_error(ParseCtx *ctx, SqDiagCode code, SqLoc loc, const char *fmt,
                  ...) SQ_PRINTF(4, 5);

/* Raw source text of a location. */
const char *ast_text(const ParseCtx *ctx, SqLoc loc, size_t *len);

/* ---- names and small values -------------------------------------- */
AstName ast_name(ParseCtx *ctx, LexTok tok);
AstName ast_name_none(void);
AstName ast_name_not_indexed(ParseCtx *ctx, SqLoc loc);
LexTok ast_name_tok(AstName n);
LexTok ast_tok_span(LexTok a, LexTok b);
AstTypeName ast_typename(ParseCtx *ctx, SqLoc loc, int present);
AstFullName ast_fullname(ParseCtx *ctx, AstName *a, AstName *b, AstName *alias);
AstNameList *ast_idlist(ParseCtx *ctx, AstNameList *list, AstName *n);
AstNameList *ast_eidlist(ParseCtx *ctx, AstNameList *list, AstName *n,
                         int collate, int sortorder);
AstLimit ast_limit(AstExpr *count, AstExpr *offset, int comma, SqLoc loc);
AstTrigEvent ast_trig_event(int what, AstNameList *cols);
AstLikeOp ast_likeop(LexTok tok, int is_not);
AstFrameBound ast_bound(int kind, AstExpr *e);
AstFilterOver ast_filter_over(AstExpr *filter, AstWindow *over);

/* ---- expressions -------------------------------------------------- */
AstExpr *ast_literal(ParseCtx *ctx, AstExprKind kind, LexTok tok);
AstExpr *ast_ctime(ParseCtx *ctx, LexTok tok);
AstExpr *ast_param(ParseCtx *ctx, LexTok tok);
AstExpr *ast_column_ref(ParseCtx *ctx, AstName *schema, AstName *table,
                        AstName *col);
AstExpr *ast_paren(ParseCtx *ctx, AstExpr *e, SqLoc lp, SqLoc rp);
AstExpr *ast_unary(ParseCtx *ctx, AstOp op, AstExpr *x, SqLoc loc);
AstExpr *ast_binary(ParseCtx *ctx, AstOp op, AstExpr *l, AstExpr *r, SqLoc loc);
AstExpr *ast_binary_tok(ParseCtx *ctx, AstOp op, AstExpr *l, const LexTok *tok,
                        AstExpr *r, SqLoc loc);
AstExpr *ast_ptr(ParseCtx *ctx, AstExpr *l, const LexTok *tok, AstExpr *r,
                 SqLoc loc);
AstExpr *ast_like(ParseCtx *ctx, AstExpr *x, const AstLikeOp *op,
                  AstExpr *pattern, AstExpr *escape, SqLoc loc);
AstExpr *ast_isnull(ParseCtx *ctx, AstExpr *x, int is_not, int two_words,
                    SqLoc loc);
AstExpr *ast_is(ParseCtx *ctx, AstExpr *x, int is_not, int distinct_from,
                AstExpr *y, SqLoc loc);
AstExpr *ast_between(ParseCtx *ctx, AstExpr *x, int is_not, AstExpr *lo,
                     AstExpr *hi, SqLoc loc);
AstExpr *ast_in_list(ParseCtx *ctx, AstExpr *x, int is_not, AstExprList *list,
                     SqLoc loc);
AstExpr *ast_in_table(ParseCtx *ctx, AstExpr *x, int is_not, AstName *nm,
                      AstName *dbnm, AstExprList *args, SqLoc loc);
AstExpr *ast_subquery(ParseCtx *ctx, AstExprKind kind, AstExpr *x, int is_not,
                      AstSelect *sel, SqLoc loc);
AstExpr *ast_case(ParseCtx *ctx, AstExpr *operand, AstCaseList *arms,
                  AstExpr *else_, SqLoc loc);
AstCaseList *ast_case_arm(ParseCtx *ctx, AstCaseList *list, AstExpr *when,
                          AstExpr *then);
AstExpr *ast_cast(ParseCtx *ctx, AstExpr *x, AstTypeName *type, SqLoc loc);
AstExpr *ast_collate(ParseCtx *ctx, AstExpr *x, AstName *name, SqLoc loc);
AstExpr *ast_func(ParseCtx *ctx, AstName *name, int distinct, AstExprList *args,
                  int star, SqLoc loc);
AstExpr *ast_func_over(ParseCtx *ctx, AstExpr *func, const AstFilterOver *fo);
AstExpr *ast_vector(ParseCtx *ctx, AstExprList *list, AstExpr *last, SqLoc loc);
AstExpr *ast_raise(ParseCtx *ctx, int kind, AstName *msg, SqLoc loc);
/* DEFAULT word: SQLite reads a bare word there as a string (TRUE/FALSE
** stay names and become 1/0 when bound). */
AstExpr *ast_default_word(ParseCtx *ctx, AstName *word);
AstExprList *ast_list_add(ParseCtx *ctx, AstExprList *list, AstExpr *e);
AstExprList *ast_args(ParseCtx *ctx, AstExprList *list);

/* ---- SELECT ------------------------------------------------------- */
AstSelect *ast_select_core(ParseCtx *ctx, int distinct, AstResultList *cols,
                           AstFrom *from, AstExpr *where, AstExprList *group,
                           AstExpr *having, AstWindowList *windows,
                           AstOrderList *order, AstLimit limit, SqLoc loc);
AstSelect *ast_values(ParseCtx *ctx, AstSelect *prev, AstExprList *row,
                      SqLoc loc);
AstSelect *ast_compound(ParseCtx *ctx, int op, AstSelect *left,
                        AstSelect *right, SqLoc loc);
AstSelect *ast_select_finish(ParseCtx *ctx, AstSelect *sel);
AstSelect *ast_select_with(ParseCtx *ctx, AstSelect *sel, AstWith *with,
                           int recursive, SqLoc loc);
AstResultList *ast_result_expr(ParseCtx *ctx, AstResultList *list,
                               AstExpr *e, AstName *alias, SqLoc loc);
AstResultList *ast_result_star(ParseCtx *ctx, AstResultList *list,
                               AstName *table, SqLoc loc);
AstFrom *ast_from_join(ParseCtx *ctx, AstFrom *from, int jointype, SqLoc loc);
AstFrom *ast_from_table(ParseCtx *ctx, AstFrom *prefix, AstName *nm,
                        AstName *dbnm, AstName *alias, AstName *indexed,
                        AstExprList *args, AstOnUsing *ou, SqLoc loc);
AstFrom *ast_from_subquery(ParseCtx *ctx, AstFrom *prefix, AstSelect *sel,
                           AstName *alias, AstOnUsing *ou, SqLoc lp, SqLoc loc);
AstFrom *ast_from_nested(ParseCtx *ctx, AstFrom *prefix, AstFrom *inner,
                         AstName *alias, AstOnUsing *ou, SqLoc lp, SqLoc loc);
int ast_join_type(ParseCtx *ctx, const LexTok *a, const AstName *b,
                  const AstName *c);
AstOnUsing ast_on_using(AstExpr *on, AstNameList *using, SqLoc loc);
AstOrderList *ast_order_clause(ParseCtx *ctx, AstOrderList *list, SqLoc loc);
AstOrderList *ast_order_add(ParseCtx *ctx, AstOrderList *list, AstExpr *e,
                            int dir, int nulls, SqLoc eloc, SqLoc loc);
AstWith *ast_with_add(ParseCtx *ctx, AstWith *with, AstCte *cte);
AstWith *ast_with_finish(AstWith *with, int recursive, SqLoc loc);
AstCte *ast_cte(ParseCtx *ctx, AstName *name, AstNameList *cols, int mat,
                AstSelect *sel, SqLoc loc);

/* ---- windows ------------------------------------------------------ */
AstWindowList *ast_window_list(ParseCtx *ctx, AstWindowList *list,
                               AstWindow *w);
AstWindow *ast_window_name(ParseCtx *ctx, AstWindow *w, AstName *name,
                           SqLoc loc);
AstWindow *ast_window(ParseCtx *ctx, AstWindow *frame, AstExprList *partition,
                      AstOrderList *order, AstName *base, SqLoc loc);
AstWindow *ast_frame(ParseCtx *ctx, int unit, const AstFrameBound *start,
                     const AstFrameBound *end, int exclude, SqLoc loc);
AstWindow *ast_window_ref(ParseCtx *ctx, AstName *name, SqLoc loc);

/* ---- statements --------------------------------------------------- */
void ast_explain(ParseCtx *ctx, int level);
void ast_stmt_finish(ParseCtx *ctx, AstStmt *stmt, SqLoc loc);
AstStmt *ast_stmt_select(ParseCtx *ctx, AstSelect *sel, SqLoc loc);
AstStmt *ast_stmt_txn(ParseCtx *ctx, int what, int mode, const AstName *name,
                      SqLoc loc);
AstStmt *ast_stmt_drop(ParseCtx *ctx, int what, int if_exists,
                       AstFullName *name, SqLoc loc);
AstStmt *ast_stmt_create_view(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                              AstName *dbnm, AstNameList *cols, AstSelect *sel,
                              SqLoc loc);
AstStmt *ast_stmt_create_index(ParseCtx *ctx, int unique, int ifne,
                               AstName *nm, AstName *dbnm, AstName *table,
                               AstOrderList *cols, AstExpr *where, SqLoc loc);
AstStmt *ast_stmt_pragma(ParseCtx *ctx, AstName *nm, AstName *dbnm,
                         const LexTok *value, int minus, SqLoc loc);
AstStmt *ast_stmt_other(ParseCtx *ctx, int kind, AstName *nm, AstName *dbnm,
                        SqLoc loc);
AstStmt *ast_stmt_alter(ParseCtx *ctx, AstFullName *name, SqLoc loc);
void ast_alter_add_start(ParseCtx *ctx, AstFullName *name);
AstStmt *ast_stmt_alter_add(ParseCtx *ctx, SqLoc loc);
void ast_returning(ParseCtx *ctx, AstResultList *list);
AstStmt *ast_stmt_insert(ParseCtx *ctx, AstWith *with, int conflict,
                         AstFullName *table, AstNameList *cols, AstSelect *sel,
                         AstUpsert *upsert, SqLoc loc);
AstStmt *ast_stmt_update(ParseCtx *ctx, AstWith *with, int conflict,
                         AstFullName *table, AstName *indexed, AstSetList *set,
                         AstFrom *from, AstExpr *where, AstOrderList *order,
                         AstLimit limit, SqLoc loc);
AstStmt *ast_stmt_delete(ParseCtx *ctx, AstWith *with, AstFullName *table,
                         AstName *indexed, AstExpr *where, AstOrderList *order,
                         AstLimit limit, SqLoc loc);
AstSetList *ast_set_add(ParseCtx *ctx, AstSetList *list, AstNameList *cols,
                        AstExpr *value);
AstUpsert *ast_upsert(ParseCtx *ctx, AstOrderList *target, AstExpr *twhere,
                      int do_update, AstSetList *set, AstExpr *where,
                      AstUpsert *next);

/* ---- CREATE TABLE (built incrementally, as SQLite does) ------------ */
void ast_table_start(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                     AstName *dbnm);
void ast_table_add_column(ParseCtx *ctx, AstName *name, AstTypeName *type,
                          SqLoc loc);
int ast_table_option(ParseCtx *ctx, AstName *word, int without);
void ast_table_options(ParseCtx *ctx, int options);
void ast_table_as_select(ParseCtx *ctx, AstSelect *sel);
AstStmt *ast_table_finish(ParseCtx *ctx, SqLoc loc);
void ast_cons_name(ParseCtx *ctx, AstName *name);
void ast_cons_name_clear(ParseCtx *ctx);
void ast_col_default(ParseCtx *ctx, AstExpr *value, SqLoc loc);
void ast_col_cons(ParseCtx *ctx, int kind, int conflict, SqLoc loc);
void ast_col_primary_key(ParseCtx *ctx, int dir, int conflict, int autoinc,
                         SqLoc loc);
void ast_col_check(ParseCtx *ctx, AstExpr *e, SqLoc loc);
void ast_col_references(ParseCtx *ctx, AstName *table, AstNameList *cols,
                        int refargs, SqLoc loc);
void ast_col_deferrable(ParseCtx *ctx, int deferred, SqLoc loc);
void ast_col_collate(ParseCtx *ctx, AstName *name, SqLoc loc);
void ast_col_generated(ParseCtx *ctx, AstExpr *e, AstName *storage, SqLoc loc);
void ast_table_primary_key(ParseCtx *ctx, AstOrderList *cols, int autoinc,
                           int conflict, SqLoc loc);
void ast_table_unique(ParseCtx *ctx, AstOrderList *cols, int conflict,
                      SqLoc loc);
void ast_table_check(ParseCtx *ctx, AstExpr *e, SqLoc loc);
void ast_table_foreign_key(ParseCtx *ctx, AstNameList *cols, AstName *table,
                           AstNameList *refcols, int refargs, int deferred,
                           SqLoc loc);

/* ---- triggers and virtual tables ---------------------------------- */
void ast_trigger_start(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                       AstName *dbnm, int time, const AstTrigEvent *event,
                       AstFullName *table, int for_each_row, AstExpr *when);
AstStmt *ast_trigger_add(ParseCtx *ctx, AstStmt *stmt);
AstStmt *ast_trigger_finish(ParseCtx *ctx, AstStmt *last, SqLoc loc);
void ast_trigger_error(ParseCtx *ctx, int which, SqLoc loc);
void ast_vtab_start(ParseCtx *ctx, AstName *nm, AstName *dbnm, AstName *module);
void ast_vtab_arg(ParseCtx *ctx, SqLoc loc);
AstStmt *ast_vtab_finish(ParseCtx *ctx, SqLoc loc);

/* ---- errors from the parser itself (parse.c) ----------------------- */
void ast_syntax_error(ParseCtx *ctx, SqLoc loc, int lookahead_kind,
                      const char *const *expected, int n_expected);
void ast_stack_exhausted(ParseCtx *ctx, SqLoc loc);

/* ---- parser entry points generated in sql.tab.c -------------------- */
/* 1 when the parser, in its current state, would shift token code 'tok'
** (after any reductions); 0 when the token would be a syntax error. */
struct sq_yypstate;
int sq_yy_would_shift(struct sq_yypstate *ps, int tok);
/* Token to push for keyword 'tok' that may stand for identifier 'alt'. */
int sq_yy_fallback_token(struct sq_yypstate *ps, int tok, int alt);
/* Display name of a token code for messages. */
const char *sq_yy_token_name(int tok);

#endif
