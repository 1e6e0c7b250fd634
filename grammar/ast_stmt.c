/*
** ast_stmt.c -- constructors for statements: DDL, DML, transactions,
** triggers and the statements squint only recognises.
**
** Layer: grammar.  CREATE TABLE is assembled incrementally, as SQLite's own
** grammar does: the table in progress lives on the context and each column
** or constraint rule adds to it.  The same goes for CREATE TRIGGER bodies
** and for the RETURNING list of the DML statement being parsed.
*/
#include <string.h>

#include "grammar/parse_int.h"

static AstStmt *stmt_new(ParseCtx *ctx, AstStmtKind kind, SqLoc loc) {
    AstStmt *s = sq_arena_alloc(ctx->arena, sizeof *s);
    s->kind = (uint8_t)kind;
    s->span = ast_span(ctx, loc);
    return s;
}

static void split_name(AstName *nm, AstName *dbnm, AstName *schema,
                       AstName *name) {
    if (dbnm && ast_name_present(dbnm)) {
        *schema = *nm;
        *name = *dbnm;
    } else {
        *name = *nm;
    }
}

/* ------------------------------------------------------------------ */
/* Statement boundaries                                                */
/* ------------------------------------------------------------------ */

void ast_explain(ParseCtx *ctx, int level) { ctx->explain = level; }

/* loc is cmd's, which for a DML statement without WITH starts after its
** verb (an empty first symbol takes the location below it on the stack);
** the statement's own constructor knew better (dml_loc in sql.y). */
void ast_stmt_finish(ParseCtx *ctx, AstStmt *stmt, SqLoc loc) {
    uint32_t own_start = stmt->span.start;
    stmt->span = ast_span(ctx, loc);
    if (own_start < stmt->span.start) stmt->span.start = own_start;
    if (ctx->explain) stmt->flags |= AST_STMTF_EXPLAIN;
    if (ctx->explain == 2) stmt->flags |= AST_STMTF_QUERY_PLAN;
    ctx->explain = 0;
    ctx->done = stmt;
}

AstStmt *ast_stmt_select(ParseCtx *ctx, AstSelect *sel, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_SELECT, loc);
    s->u.select = sel;
    return s;
}

AstStmt *ast_stmt_txn(ParseCtx *ctx, int what, int mode, const AstName *name,
                      SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_TRANSACTION, loc);
    s->u.txn.what = (uint8_t)what;
    s->u.txn.mode = (uint8_t)mode;
    if (name) s->u.txn.name = *name;
    return s;
}

AstStmt *ast_stmt_drop(ParseCtx *ctx, int what, int if_exists,
                       AstFullName *name, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_DROP, loc);
    s->u.drop.what = (uint8_t)what;
    s->u.drop.if_exists = (uint8_t)if_exists;
    s->u.drop.schema = name->schema;
    s->u.drop.name = name->name;
    return s;
}

AstStmt *ast_stmt_create_view(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                              AstName *dbnm, AstNameList *cols, AstSelect *sel,
                              SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_CREATE_VIEW, loc);
    AstCreateView *v = sq_arena_alloc(ctx->arena, sizeof *v);
    v->temp = (uint8_t)temp;
    v->if_not_exists = (uint8_t)ifne;
    split_name(nm, dbnm, &v->schema, &v->name);
    if (cols) v->cols = *cols;
    v->select = sel;
    s->u.create_view = v;
    return s;
}

AstStmt *ast_stmt_create_index(ParseCtx *ctx, int unique, int ifne,
                               AstName *nm, AstName *dbnm, AstName *table,
                               AstOrderList *cols, AstExpr *where, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_CREATE_INDEX, loc);
    AstCreateIndex *ix = sq_arena_alloc(ctx->arena, sizeof *ix);
    ix->unique = (uint8_t)unique;
    ix->if_not_exists = (uint8_t)ifne;
    split_name(nm, dbnm, &ix->schema, &ix->name);
    ix->table = *table;
    ix->cols = *cols;
    ix->where = where;
    s->u.create_index = ix;
    return s;
}

AstStmt *ast_stmt_pragma(ParseCtx *ctx, AstName *nm, AstName *dbnm,
                         const LexTok *value, int minus, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_PRAGMA, loc);
    split_name(nm, dbnm, &s->u.pragma.schema, &s->u.pragma.name);
    if (value) {
        size_t len;
        const char *raw = ast_text(ctx, (SqLoc){value->start, value->end}, &len);
        s->u.pragma.value = minus ? sq_arena_printf(ctx->arena, "%.*s", (int)len, raw)
                                  : sq_arena_strndup(ctx->arena, raw, len);
        s->u.pragma.has_value = 1;
    }
    return s;
}

AstStmt *ast_stmt_other(ParseCtx *ctx, int kind, AstName *nm, AstName *dbnm,
                        SqLoc loc) {
    AstStmt *s = stmt_new(ctx, (AstStmtKind)kind, loc);
    if (nm) split_name(nm, dbnm, &s->u.object.schema, &s->u.object.name);
    return s;
}

AstStmt *ast_stmt_alter(ParseCtx *ctx, AstFullName *name, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_ALTER, loc);
    s->u.object.schema = name->schema;
    s->u.object.name = name->name;
    return s;
}

/* ALTER TABLE ... ADD COLUMN reuses the CREATE TABLE column rules, so it
** gets a table in progress to collect the one column into. */
void ast_alter_add_start(ParseCtx *ctx, AstFullName *name) {
    ctx->table = sq_arena_alloc(ctx->arena, sizeof *ctx->table);
    ctx->table->schema = name->schema;
    ctx->table->name = name->name;
}

AstStmt *ast_stmt_alter_add(ParseCtx *ctx, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_ALTER, loc);
    if (ctx->table) {
        s->u.object.schema = ctx->table->schema;
        s->u.object.name = ctx->table->name;
    }
    ctx->table = NULL;
    return s;
}

/* ------------------------------------------------------------------ */
/* INSERT, UPDATE, DELETE                                              */
/* ------------------------------------------------------------------ */

/* SQLite rejects RETURNING inside a trigger body while parsing. */
void ast_returning(ParseCtx *ctx, AstResultList *list) {
    if (ctx->trigger && list->n)
        ast_error(ctx, SQ_E_TRIGGER_FORM,
                  (SqLoc){list->items[0].span.start, list->items[0].span.end},
                  "cannot use RETURNING in a trigger");
    ctx->returning = list;
}

static AstResultList take_returning(ParseCtx *ctx) {
    AstResultList r;
    memset(&r, 0, sizeof r);
    if (ctx->returning) r = *ctx->returning;
    ctx->returning = NULL;
    return r;
}

static void qualified_table(AstQualifiedTable *t, AstFullName *name,
                            AstName *indexed) {
    t->schema = name->schema;
    t->name = name->name;
    t->alias = name->alias;
    if (indexed && (indexed->flags & AST_NAMEF_NOT_INDEXED)) t->indexed = 2;
    else if (indexed && ast_name_present(indexed)) {
        t->indexed = 1;
        t->index = *indexed;
    }
}

AstStmt *ast_stmt_insert(ParseCtx *ctx, AstWith *with, int conflict,
                         AstFullName *table, AstNameList *cols, AstSelect *sel,
                         AstUpsert *upsert, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_INSERT, loc);
    AstInsert *in = sq_arena_alloc(ctx->arena, sizeof *in);
    in->with = with;
    in->conflict = (uint8_t)conflict;
    qualified_table(&in->table, table, NULL);
    if (cols) in->cols = *cols;
    in->select = sel;
    in->upsert = upsert;
    in->returning = take_returning(ctx);
    s->u.insert = in;
    return s;
}

AstStmt *ast_stmt_update(ParseCtx *ctx, AstWith *with, int conflict,
                         AstFullName *table, AstName *indexed, AstSetList *set,
                         AstFrom *from, AstExpr *where, AstOrderList *order,
                         AstLimit limit, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_UPDATE, loc);
    AstUpdate *up = sq_arena_alloc(ctx->arena, sizeof *up);
    up->with = with;
    up->conflict = (uint8_t)conflict;
    qualified_table(&up->table, table, indexed);
    up->set = *set;
    up->from = from;
    up->where = where;
    up->returning = take_returning(ctx);
    if (order) up->order_by = *order;
    up->limit = limit.count;
    up->offset = limit.offset;
    s->u.update = up;
    return s;
}

AstStmt *ast_stmt_delete(ParseCtx *ctx, AstWith *with, AstFullName *table,
                         AstName *indexed, AstExpr *where, AstOrderList *order,
                         AstLimit limit, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_DELETE, loc);
    AstDelete *d = sq_arena_alloc(ctx->arena, sizeof *d);
    d->with = with;
    qualified_table(&d->table, table, indexed);
    d->where = where;
    d->returning = take_returning(ctx);
    if (order) d->order_by = *order;
    d->limit = limit.count;
    d->offset = limit.offset;
    s->u.del = d;
    return s;
}

AstSetList *ast_set_add(ParseCtx *ctx, AstSetList *list, AstNameList *cols,
                        AstExpr *value) {
    if (!list) list = sq_arena_alloc(ctx->arena, sizeof *list);
    AstSetItem *it = SQ_ARENA_PUSH(ctx->arena, list);
    it->cols = *cols;
    it->value = value;
    return list;
}

AstUpsert *ast_upsert(ParseCtx *ctx, AstOrderList *target, AstExpr *twhere,
                      int do_update, AstSetList *set, AstExpr *where,
                      AstUpsert *next) {
    AstUpsert *u = sq_arena_alloc(ctx->arena, sizeof *u);
    if (target) u->target = *target;
    u->target_where = twhere;
    u->do_update = do_update;
    if (set) u->set = *set;
    u->where = where;
    u->next = next;
    return u;
}

/* ------------------------------------------------------------------ */
/* CREATE TABLE                                                        */
/* ------------------------------------------------------------------ */

void ast_table_start(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                     AstName *dbnm) {
    AstCreateTable *t = sq_arena_alloc(ctx->arena, sizeof *t);
    split_name(nm, dbnm, &t->schema, &t->name);
    t->flags = (uint8_t)((temp ? AST_TBL_TEMP : 0) | (ifne ? AST_TBL_IF_NOT_EXISTS : 0));
    ctx->table = t;
    ctx->cons_name = ast_name_none();
}

void ast_table_add_column(ParseCtx *ctx, AstName *name, AstTypeName *type,
                          SqLoc loc) {
    AstCreateTable *t = ctx->table;
    AstColumnDef *c = SQ_ARENA_APPEND(ctx->arena, t->cols, t->n_cols, t->cap_cols);
    c->name = *name;
    c->type = *type;
    c->span = ast_span(ctx, loc);
    ctx->cons_name = ast_name_none();
}

/* WITHOUT ROWID and STRICT are the only table options; SQLite compares
** the raw token, so a quoted "rowid" is rejected too. */
int ast_table_option(ParseCtx *ctx, AstName *word, int without) {
    size_t len;
    const char *raw = ast_text(ctx, ast_loc(word->span), &len);
    if (without && len == 5 && sq_strnicmp(raw, "rowid", 5) == 0)
        return AST_TBL_WITHOUT_ROWID;
    if (!without && len == 6 && sq_strnicmp(raw, "strict", 6) == 0)
        return AST_TBL_STRICT;
    ast_error(ctx, SQ_E_TABLE_OPTION, ast_loc(word->span),
              "unknown table option: %.*s", (int)len, raw);
    return 0;
}

void ast_table_options(ParseCtx *ctx, int options) {
    ctx->table->flags |= (uint8_t)options;
}

void ast_table_as_select(ParseCtx *ctx, AstSelect *sel) { ctx->table->as_select = sel; }

AstStmt *ast_table_finish(ParseCtx *ctx, SqLoc loc) {
    AstStmt *s = stmt_new(ctx, AST_STMT_CREATE_TABLE, loc);
    s->u.create_table = ctx->table;
    ctx->table = NULL;
    return s;
}

void ast_cons_name(ParseCtx *ctx, AstName *name) { ctx->cons_name = *name; }
void ast_cons_name_clear(ParseCtx *ctx) { ctx->cons_name = ast_name_none(); }

/* The column whose constraints are being read: the last one added. */
static AstColCons *col_cons_new(ParseCtx *ctx, int kind, SqLoc loc) {
    AstCreateTable *t = ctx->table;
    AstColumnDef *c = &t->cols[t->n_cols - 1];
    AstColCons *k = SQ_ARENA_APPEND(ctx->arena, c->cons, c->n_cons, c->cap_cons);
    k->kind = (uint8_t)kind;
    k->span = ast_span(ctx, loc);
    k->name = ctx->cons_name;
    ctx->cons_name = ast_name_none();
    c->span.end = loc.end;
    return k;
}

void ast_col_default(ParseCtx *ctx, AstExpr *value, SqLoc loc) {
    col_cons_new(ctx, AST_CC_DEFAULT, loc)->expr = value;
}

void ast_col_cons(ParseCtx *ctx, int kind, int conflict, SqLoc loc) {
    col_cons_new(ctx, kind, loc)->conflict = (uint8_t)conflict;
}

void ast_col_primary_key(ParseCtx *ctx, int dir, int conflict, int autoinc,
                         SqLoc loc) {
    AstColCons *k = col_cons_new(ctx, AST_CC_PRIMARY_KEY, loc);
    k->dir = (uint8_t)dir;
    k->conflict = (uint8_t)conflict;
    k->autoinc = (uint8_t)autoinc;
}

void ast_col_check(ParseCtx *ctx, AstExpr *e, SqLoc loc) {
    col_cons_new(ctx, AST_CC_CHECK, loc)->expr = e;
}

static void fk_fill(AstForeignKey *fk, AstName *table, AstNameList *cols,
                    int refargs) {
    fk->table = *table;
    if (cols) fk->cols = *cols;
    fk->on_delete = (uint8_t)(refargs & 0xff);
    fk->on_update = (uint8_t)((refargs >> 8) & 0xff);
}

void ast_col_references(ParseCtx *ctx, AstName *table, AstNameList *cols,
                        int refargs, SqLoc loc) {
    fk_fill(&col_cons_new(ctx, AST_CC_REFERENCES, loc)->fk, table, cols, refargs);
}

/* A DEFERRABLE clause applies to the foreign key just before it. */
void ast_col_deferrable(ParseCtx *ctx, int deferred, SqLoc loc) {
    AstColumnDef *c = &ctx->table->cols[ctx->table->n_cols - 1];
    for (uint32_t i = c->n_cons; i > 0; i--) {
        if (c->cons[i - 1].kind == AST_CC_REFERENCES) {
            c->cons[i - 1].fk.deferred = (uint8_t)deferred;
            break;
        }
    }
    col_cons_new(ctx, AST_CC_DEFERRABLE, loc)->autoinc = (uint8_t)deferred;
}

void ast_col_collate(ParseCtx *ctx, AstName *name, SqLoc loc) {
    col_cons_new(ctx, AST_CC_COLLATE, loc)->collation = *name;
}

void ast_col_generated(ParseCtx *ctx, AstExpr *e, AstName *storage, SqLoc loc) {
    AstColCons *k = col_cons_new(ctx, AST_CC_GENERATED, loc);
    k->expr = e;
    if (storage) k->storage = *storage;
}

static AstTableCons *table_cons_new(ParseCtx *ctx, int kind, SqLoc loc) {
    AstCreateTable *t = ctx->table;
    AstTableCons *k = SQ_ARENA_APPEND(ctx->arena, t->cons, t->n_cons, t->cap_cons);
    k->kind = (uint8_t)kind;
    k->span = ast_span(ctx, loc);
    k->name = ctx->cons_name;
    ctx->cons_name = ast_name_none();
    return k;
}

void ast_table_primary_key(ParseCtx *ctx, AstOrderList *cols, int autoinc,
                           int conflict, SqLoc loc) {
    AstTableCons *k = table_cons_new(ctx, AST_TC_PRIMARY_KEY, loc);
    k->cols = *cols;
    k->autoinc = (uint8_t)autoinc;
    k->conflict = (uint8_t)conflict;
}

void ast_table_unique(ParseCtx *ctx, AstOrderList *cols, int conflict,
                      SqLoc loc) {
    AstTableCons *k = table_cons_new(ctx, AST_TC_UNIQUE, loc);
    k->cols = *cols;
    k->conflict = (uint8_t)conflict;
}

void ast_table_check(ParseCtx *ctx, AstExpr *e, SqLoc loc) {
    table_cons_new(ctx, AST_TC_CHECK, loc)->check = e;
}

void ast_table_foreign_key(ParseCtx *ctx, AstNameList *cols, AstName *table,
                           AstNameList *refcols, int refargs, int deferred,
                           SqLoc loc) {
    AstTableCons *k = table_cons_new(ctx, AST_TC_FOREIGN_KEY, loc);
    k->fk_cols = *cols;
    fk_fill(&k->fk, table, refcols, refargs);
    k->fk.deferred = (uint8_t)deferred;
}

/* ------------------------------------------------------------------ */
/* Triggers and virtual tables                                         */
/* ------------------------------------------------------------------ */

void ast_trigger_start(ParseCtx *ctx, int temp, int ifne, AstName *nm,
                       AstName *dbnm, int time, const AstTrigEvent *event,
                       AstFullName *table, int for_each_row, AstExpr *when) {
    AstStmt *s = sq_arena_alloc(ctx->arena, sizeof *s);
    s->kind = AST_STMT_CREATE_TRIGGER;
    split_name(nm, dbnm, &s->u.trigger.schema, &s->u.trigger.name);
    s->u.trigger.temp = (uint8_t)temp;
    s->u.trigger.if_not_exists = (uint8_t)ifne;
    s->u.trigger.time = (uint8_t)time;
    s->u.trigger.event = (uint8_t)event->what;
    if (event->cols) s->u.trigger.update_of = *event->cols;
    s->u.trigger.table_schema = table->schema;
    s->u.trigger.table = table->name;
    s->u.trigger.for_each_row = (uint8_t)for_each_row;
    s->u.trigger.when = when;
    ctx->trigger = s;
}

AstStmt *ast_trigger_add(ParseCtx *ctx, AstStmt *stmt) {
    AstStmtList *body = &ctx->trigger->u.trigger.body;
    *SQ_ARENA_PUSH(ctx->arena, body) = stmt;
    return stmt;
}

AstStmt *ast_trigger_finish(ParseCtx *ctx, AstStmt *last, SqLoc loc) {
    (void)last;
    AstStmt *s = ctx->trigger;
    s->span = ast_span(ctx, loc);
    ctx->trigger = NULL;
    return s;
}

void ast_trigger_error(ParseCtx *ctx, int which, SqLoc loc) {
    static const char *const msgs[] = {
        "qualified table names are not allowed on INSERT, UPDATE, and DELETE "
        "statements within triggers",
        "the INDEXED BY clause is not allowed on UPDATE or DELETE statements "
        "within triggers",
        "the NOT INDEXED clause is not allowed on UPDATE or DELETE statements "
        "within triggers",
    };
    ast_error(ctx, SQ_E_TRIGGER_FORM, loc, "%s", msgs[which]);
}

void ast_vtab_start(ParseCtx *ctx, AstName *nm, AstName *dbnm, AstName *module) {
    AstStmt *s = sq_arena_alloc(ctx->arena, sizeof *s);
    s->kind = AST_STMT_CREATE_VTAB;
    split_name(nm, dbnm, &s->u.vtab.schema, &s->u.vtab.name);
    s->u.vtab.module = *module;
    ctx->vtab = s;
    ctx->in_vtab_args = 1;
}

/* One module argument: its text as written, without surrounding blanks;
** SQLite drops empty arguments. */
void ast_vtab_arg(ParseCtx *ctx, SqLoc loc) {
    size_t len;
    const char *raw = ast_text(ctx, loc, &len);
    while (len && (raw[0] == ' ' || (raw[0] >= '\t' && raw[0] <= '\r'))) raw++, len--;
    while (len && (raw[len - 1] == ' ' || (raw[len - 1] >= '\t' && raw[len - 1] <= '\r'))) len--;
    if (!len || !ctx->vtab) return;
    AstStmt *s = ctx->vtab;
    *SQ_ARENA_APPEND(ctx->arena, s->u.vtab.args, s->u.vtab.n_args, s->u.vtab.cap_args) =
        sq_arena_strndup(ctx->arena, raw, len);
}

AstStmt *ast_vtab_finish(ParseCtx *ctx, SqLoc loc) {
    AstStmt *s = ctx->vtab;
    s->span = ast_span(ctx, loc);
    ctx->vtab = NULL;
    ctx->in_vtab_args = 0;
    return s;
}
