/*
** squint.c -- the library's façade: contexts, schema loading, compiling,
** passes, equivalence and evaluation (squint.h).
**
** Layer: api.  Takes paths and SQL texts; gives catalogs, IR, verdicts and
** records, with every problem as a diagnostic in the context.  Owns what
** squint.h says a context owns.
*/
#include "api/squint.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "grammar/parse.h"
#include "backend/sqlite/db.h"

/* ------------------------------------------------------------------ */
/* The context                                                         */
/* ------------------------------------------------------------------ */

static void ctx_common(SqContext *c) {
    c->bind_opt = sq_db_bind_options();
    c->arena = sq_arena_new();
}

void sq_ctx_init(SqContext *c) {
    memset(c, 0, sizeof *c);
    sq_srcset_init(&c->own_srcs);
    sq_diags_init(&c->own_diags, &c->own_srcs);
    c->srcs = &c->own_srcs;
    c->diags = &c->own_diags;
    c->names = sq_interner_new();
    ctx_common(c);
}

void sq_ctx_attach(SqContext *c, SqSrcSet *srcs, SqInterner *names, SqDiags *diags) {
    memset(c, 0, sizeof *c);
    c->srcs = srcs;
    c->names = names;
    c->diags = diags;
    c->is_attached = 1;
    ctx_common(c);
}

void sq_ctx_free(SqContext *c) {
    if (!c->arena) return; /* never initialised, or freed */
    for (size_t i = 0; i < c->n_schemas; i++) sq_catalog_free(c->schemas[i].cat);
    free(c->schemas);
    free(c->tables);
    if (c->stmt_arena) sq_arena_free(c->stmt_arena);
    sq_arena_free(c->arena);
    if (!c->is_attached) {
        sq_interner_free(c->names);
        sq_diags_free(&c->own_diags);
        sq_srcset_free(&c->own_srcs);
    }
    memset(c, 0, sizeof *c);
}

SqCtxMark sq_ctx_mark(const SqContext *c) {
    SqCtxMark m = {c->srcs->n, c->diags->n};
    return m;
}

void sq_ctx_rewind(SqContext *c, SqCtxMark m) {
    sq_diags_truncate(c->diags, m.n_diags);
    sq_srcset_truncate(c->srcs, m.n_srcs);
}

const char *sq_ctx_last_message(const SqContext *c, SqCtxMark m) {
    return c->diags->n > m.n_diags ? c->diags->items[c->diags->n - 1]->msg : NULL;
}

/* ------------------------------------------------------------------ */
/* Schemas                                                             */
/* ------------------------------------------------------------------ */

static void set_status(SqLoadStatus *st, SqLoadStatus v) {
    if (st) *st = v;
}

/* A new catalog the context owns, loaded from origin. */
static Catalog *new_catalog(SqContext *c, const char *origin) {
    if (c->n_schemas == c->cap_schemas) {
        c->cap_schemas = c->cap_schemas ? 2 * c->cap_schemas : 8;
        c->schemas = sq_realloc(c->schemas, c->cap_schemas * sizeof *c->schemas);
    }
    Catalog *cat = sq_catalog_new(c->names, origin);
    c->schemas[c->n_schemas].key = origin ? sq_arena_strdup(c->arena, origin) : NULL;
    c->schemas[c->n_schemas++].cat = cat;
    return cat;
}

/* Finish a load: link cat and name its db_id when it worked; drop it
** (the last catalog made) when it did not. */
static Catalog *finish(SqContext *c, Catalog *cat, int rc, const char *db_id) {
    if (rc < 0) {
        sq_catalog_free(cat);
        c->n_schemas--;
        return NULL;
    }
    if (db_id && *db_id) cat->db_id = sq_arena_strdup(cat->arena, db_id);
    sq_catalog_link(cat, c->diags);
    return cat;
}

/* The body of sq_ctx_load_schema: 0 or -1, with *st. */
/* The *.sql files of dir, in name order, each read as a source of the
** context (their up part only: sq_migration_up_len) into m; how many,
** or -1 after an error. */
static long read_migrations(SqContext *c, const char *dir, SqMigration **m, const SqSrc ***srcs) {
    size_t n, k = 0;
    const char **paths = sq_dir_sql_files(c->arena, dir, &n);
    *m = sq_arena_alloc(c->arena, (n + 1) * sizeof **m);
    *srcs = sq_arena_alloc(c->arena, (n + 1) * sizeof **srcs);
    for (size_t i = 0; i < n; i++) {
        const char *path = paths[i];
        int err;
        SqSrc *src = sq_src_add_file(c->srcs, path, &err);
        if (!src) {
            sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0), "cannot read migration '%s': %s", path,
                        strerror(err));
            return -1;
        }
        (*srcs)[k] = src;
        (*m)[k++] = (SqMigration){src->text, sq_migration_up_len(src->text, src->len)};
    }
    if (!k)
        sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                    "the schema directory '%s' holds no migrations (*.sql files)", dir);
    return k ? (long)k : -1;
}

/* A directory of migrations: run by SQLite in name order
** (backend/sqlite/migrate.c), and the schema they leave read as DDL.  A
** statement SQLite refuses is an error at its place. */
static int load_migrations(SqContext *c, Catalog *cat, const char *dir) {
    SqMigration *m;
    const SqSrc **srcs;
    long n = read_migrations(c, dir, &m, &srcs);
    if (n < 0) return -1;
    SqMigrateFail fail;
    char *ddl = sq_db_migrate(m, (size_t)n, &fail);
    if (!ddl) {
        SrcSpan at = fail.script < (size_t)n ? sq_span(srcs[fail.script]->id, fail.start, fail.end) : sq_span(0, 0, 0);
        SqDiag *g = sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_MIGRATION, at, "this migration fails in SQLite: %s",
                                fail.msg ? fail.msg : "?");
        sq_diag_help(g, "the migrations of '%s' run in name order on an empty database; fix this one", dir);
        free(fail.msg);
        return -1;
    }
    const char *name = sq_arena_printf(c->arena, "%s (the schema after its migrations)", dir);
    size_t errors = c->diags->n_errors;
    sq_catalog_load_ddl(cat, sq_src_add_copy(c->srcs, name, ddl, strlen(ddl)), c->diags);
    free(ddl);
    return c->diags->n_errors == errors ? 0 : -1;
}

static int load_file(SqContext *c, Catalog *cat, const char *path, unsigned flags,
                     SqLoadStatus *st) {
    struct stat sb;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) return load_migrations(c, cat, path);
    int is_db = sq_db_file_is_sqlite(path);
    if (is_db == 1) return sq_catalog_load_sqlite(cat, path, c->srcs, c->diags);
    int err = errno;
    if (is_db == 0 && (flags & SQ_SCHEMA_DB_OR_SQL) && !sq_ends_with(path, ".sql", 1)) {
        *st = SQ_LOAD_NOT_DATABASE;
        return -1;
    }
    SqSrc *src = is_db == 0 ? sq_src_add_file(c->srcs, path, &err) : NULL;
    if (!src) {
        sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                    "cannot read schema '%s': %s", path, strerror(err));
        return -1;
    }
    size_t errors = c->diags->n_errors;
    sq_catalog_load_ddl(cat, src, c->diags);
    if (c->diags->n_errors == errors || (flags & SQ_SCHEMA_KEEP_ERRORS)) return 0;
    sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                "the schema script '%s' has errors (above); no query is checked against it", path);
    return -1;
}

Catalog *sq_ctx_load_schema(SqContext *c, const char *path, unsigned flags, SqLoadStatus *st) {
    SqLoadStatus why = SQ_LOAD_FAILED;
    Catalog *cat = new_catalog(c, path);
    cat = finish(c, cat, load_file(c, cat, path, flags, &why), NULL);
    set_status(st, cat ? SQ_LOAD_OK : why);
    return cat;
}

Catalog *sq_ctx_load_ddl(SqContext *c, const char *name, const char *ddl, size_t len) {
    Catalog *cat = new_catalog(c, name);
    sq_catalog_load_ddl(cat, sq_src_add_copy(c->srcs, name, ddl, len), c->diags);
    return finish(c, cat, 0, NULL);
}

Catalog *sq_ctx_load_sqlite(SqContext *c, const char *path) {
    Catalog *cat = new_catalog(c, path);
    return finish(c, cat, sq_catalog_load_sqlite(cat, path, c->srcs, c->diags), NULL);
}

const SqJson *sq_ctx_tables_json(SqContext *c, const char *path, const SqSrc **srcp) {
    SqCtxTables *t = NULL;
    for (size_t i = 0; i < c->n_tables && !t; i++)
        if (strcmp(c->tables[i].path, path) == 0) t = &c->tables[i];
    if (!t) {
        if (c->n_tables == c->cap_tables) {
            c->cap_tables = c->cap_tables ? 2 * c->cap_tables : 4;
            c->tables = sq_realloc(c->tables, c->cap_tables * sizeof *c->tables);
        }
        t = &c->tables[c->n_tables++];
        t->path = sq_arena_strdup(c->arena, path);
        int err;
        t->src = sq_src_add_file(c->srcs, path, &err);
        t->doc = NULL;
        if (!t->src)
            sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_SCHEMA, sq_span(0, 0, 0),
                        "cannot read tables.json '%s': %s", path, strerror(err));
        else
            t->doc = sq_tables_json_parse(c->arena, t->src, c->diags);
    }
    if (srcp) *srcp = t->src;
    return t->doc;
}

Catalog *sq_ctx_load_tables_json(SqContext *c, const char *path, const char *db_id, SrcSpan at,
                                 SqLoadStatus *st) {
    const SqSrc *src;
    const SqJson *doc = sq_ctx_tables_json(c, path, &src);
    set_status(st, SQ_LOAD_FAILED);
    if (!doc) return NULL;
    if (!sq_tables_json_find(doc, db_id)) set_status(st, SQ_LOAD_UNKNOWN_DB_ID);
    Catalog *cat = new_catalog(c, path);
    cat = finish(c, cat, sq_catalog_load_tables_json(cat, src, doc, db_id, at, c->diags), db_id);
    if (cat) set_status(st, SQ_LOAD_OK);
    return cat;
}

/* A db_id usable as a directory name: no '/', not "." or "..". */
static int safe_db_id(const char *db_id) {
    return *db_id && !strchr(db_id, '/') && strcmp(db_id, ".") != 0 && strcmp(db_id, "..") != 0;
}

const char *sq_db_root_path(SqArena *a, const char *dir, const char *db_id) {
    if (!db_id || !safe_db_id(db_id)) return NULL;
    return sq_arena_printf(a, "%s/%s/%s.sqlite", dir, db_id, db_id);
}

const char **sq_db_root_list(SqArena *a, const char *dir, size_t *n) {
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    size_t cap = 16;
    const char **names = sq_arena_alloc(a, cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (*n == cap) names = sq_arena_grow(a, names, *n, &cap, *n + 1, sizeof *names);
        names[(*n)++] = sq_arena_strdup(a, e->d_name);
    }
    closedir(d);
    return names;
}

const char **sq_dir_sql_files(SqArena *a, const char *dir, size_t *n) {
    size_t all, k = 0;
    const char **names = sq_db_root_list(a, dir, &all);
    if (all) qsort(names, all, sizeof *names, sq_cmp_cstr);
    for (size_t i = 0; i < all; i++)
        if (sq_ends_with(names[i], ".sql", 1)) names[k++] = sq_arena_printf(a, "%s/%s", dir, names[i]);
    *n = k;
    return names;
}

Catalog *sq_ctx_load_db_root(SqContext *c, const char *dir, const char *db_id, SrcSpan at,
                             SqLoadStatus *st) {
    const char *path = sq_db_root_path(c->arena, dir, db_id);
    struct stat sb;
    if (path && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
        Catalog *cat = new_catalog(c, dir);
        cat = finish(c, cat, sq_catalog_load_sqlite(cat, path, c->srcs, c->diags), db_id);
        set_status(st, cat ? SQ_LOAD_OK : SQ_LOAD_FAILED);
        return cat;
    }
    set_status(st, SQ_LOAD_UNKNOWN_DB_ID);
    SqDiag *g = sq_diag_add(c->diags, SQ_SEV_ERROR, SQ_E_DB_ID, at,
                            "unknown db_id '%s': there is no '%s/%s/%s.sqlite'", db_id, dir, db_id,
                            db_id);
    size_t n;
    const char **dbs = sq_db_root_list(c->arena, dir, &n);
    const char *near = sq_suggest_name(db_id, dbs, n);
    if (near) sq_diag_help(g, "did you mean '%s'?", near);
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Compiling                                                           */
/* ------------------------------------------------------------------ */

const char *sq_compile_why(SqCompileStatus st) {
    if (st == SQ_COMPILE_NO_SCHEMA) return "no schema";
    if (st == SQ_COMPILE_END) return "the end of the script";
    return ir_load_why((IrLoadStatus)st);
}

IrQuery *sq_ctx_compile(SqContext *c, SqArena *a, const Catalog *cat, const SqSrc *src,
                        SqCompileStatus *st) {
    IrLoadStatus ls;
    IrQuery *q = ir_load(a, src, cat, c->names, c->diags, &c->bind_opt, &ls);
    *st = (SqCompileStatus)ls;
    return q;
}

IrQuery *sq_ctx_compile_text(SqContext *c, SqArena *a, const Catalog *cat, const char *name,
                             const char *sql, size_t len, SqCompileStatus *st) {
    return sq_ctx_compile(c, a, cat, sq_src_add_copy(c->srcs, name, sql, len), st);
}

/* A script being compiled: its catalog, looked up on first need. */
typedef struct Script {
    SqContext *c;
    const Catalog *cat;
    SqSchemaFn schema;
    void *ud;
    int looked_up;
    unsigned flags;
} Script;

/* Bind and lower one parsed statement into s. */
static void compile_stmt(Script *sc, const AstStmt *stmt, SqCompiled *s) {
    if (!sc->looked_up) {
        if (!sc->cat && sc->schema) sc->cat = sc->schema(sc->ud);
        sc->looked_up = 1;
    }
    s->stmt = stmt;
    s->cat = sc->cat;
    if (!sc->cat) {
        s->status = SQ_COMPILE_NO_SCHEMA;
        return;
    }
    SqContext *c = sc->c;
    s->bound = sq_bind_stmt(s->arena, sc->cat, c->names, c->diags, stmt, &c->bind_opt);
    s->status = !s->bound ? SQ_COMPILE_BIND : !s->bound->select ? SQ_COMPILE_NOT_QUERY : SQ_COMPILE_OK;
    if (s->status == SQ_COMPILE_OK && !(sc->flags & SQ_SCRIPT_NO_LOWER))
        s->ir = ir_lower(s->arena, s->bound);
}

size_t sq_ctx_compile_script(SqContext *c, const SqSrc *src, const Catalog *cat,
                             SqSchemaFn schema, unsigned flags, SqCompiledFn fn, void *ud) {
    Script sc = {c, cat, schema, ud, 0, flags};
    SqParser *p = sq_parser_new(src, c->names, c->diags);
    int is_nested = c->in_script;
    if (!is_nested && !c->stmt_arena) c->stmt_arena = sq_arena_new();
    SqArena *arena = is_nested ? sq_arena_new() : c->stmt_arena;
    c->in_script = 1;
    SqParseResult res;
    SqParseStatus ps;
    size_t n = 0;
    int stop = 0;
    while (!stop && (ps = sq_parser_next(p, arena, &res)) != SQ_PARSE_END) {
        SqCompiled s = {SQ_COMPILE_SYNTAX, n++, NULL, NULL, NULL, NULL, arena, res.span, NULL, 0};
        s.comments = sq_parser_comments(p, &s.n_comments);
        if (ps == SQ_PARSE_OK) compile_stmt(&sc, res.stmt, &s);
        stop = fn(ud, &s);
        sq_arena_reset(arena);
    }
    if (!stop && (flags & SQ_SCRIPT_END_CALL)) {
        SqCompiled s = {SQ_COMPILE_END, n, NULL, NULL, NULL, sc.cat, arena, sq_span(src->id, (uint32_t)src->len, (uint32_t)src->len), NULL, 0};
        s.comments = sq_parser_comments(p, &s.n_comments);
        fn(ud, &s);
        sq_arena_reset(arena);
    }
    if (is_nested) sq_arena_free(arena);
    c->in_script = (uint8_t)is_nested;
    sq_parser_free(p);
    return n;
}

/* ------------------------------------------------------------------ */
/* Passes, equivalence, evaluation                                     */
/* ------------------------------------------------------------------ */

int sq_ctx_run_passes(SqContext *c, SqArena *a, const Catalog *cat, IrQuery *q,
                      const char *const *names, size_t n, SqPassCtx *pc) {
    SqPassCtx own;
    if (!pc) pc = &own;
    sq_pass_ctx_init(pc, a, cat, c->names, c->diags);
    for (size_t i = 0; i < n; i++)
        if (!sq_pass_find(names[i])) return -1;
    if (sq_pass_run(pc, q, names, n) < 0) return -1;
    return (int)pc->n_rewrites;
}

void sq_ctx_equiv(SqContext *c, const Catalog *cat, IrQuery *q1, const char *sql1, IrQuery *q2,
                  const char *sql2, const SqEquivOptions *opt, SqEquivResult *v) {
    (void)c;
    SqEquivOptions def;
    if (!opt) {
        def = sq_equiv_options_default();
        opt = &def;
    }
    sq_equiv(cat, q1, sql1, q2, sql2, opt, v);
}

int sq_ctx_equiv_sql(SqContext *c, const Catalog *cat, const char *sql1, const char *sql2,
                     const SqEquivOptions *opt, SqEquivResult *v, SqCompileStatus *st, int *which) {
    SqArena *a = sq_arena_new();
    IrQuery *q1 = sq_ctx_compile_text(c, a, cat, "Q1", sql1, strlen(sql1), st);
    IrQuery *q2 = q1 ? sq_ctx_compile_text(c, a, cat, "Q2", sql2, strlen(sql2), st) : NULL;
    *which = !q1 ? 1 : !q2 ? 2 : 0;
    if (q2) sq_ctx_equiv(c, cat, q1, sql1, q2, sql2, opt, v);
    sq_arena_free(a);
    return q2 ? 0 : -1;
}

void sq_ctx_eval(SqContext *c, const SqEvalInput *in, const SqEvalConfig *cfg, SqBuf *out) {
    SqEvalInput item = *in;
    if (!item.interner) item.interner = c->names;
    sq_eval_item(&item, cfg, out);
}
