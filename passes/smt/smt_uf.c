/*
** smt_uf.c -- what the lowering cannot model exactly, as uninterpreted
** functions.
**
** Layer: passes.  A deterministic SQL function the encoding has no theory
** for (substr, strftime, LIKE, the number a TEXT value spells, ...) becomes
** a pair of z3 functions of its arguments: one says whether the result is
** NULL, one gives its value.  z3 may pick any interpretation, so:
**
**   - "equivalent" stays sound: the queries agree whatever the functions
**     do, hence also for what SQLite's functions do;
**   - a difference may rely on an interpretation SQLite's functions do not
**     have.  The check by execution decides; when it does not confirm the
**     difference, the verdict is unknown, naming the functions (never
**     "different", and not a bug of the encoding).
**
** The same function with the same arguments gives the same result in both
** queries, which is what matters for a query against its rewrite.
*/
#include <string.h>

#include "passes/smt/smt_int.h"

/* A declaration per (name, argument sorts, result): the key is built from
** them, so calls that agree share it. */
static Z3_func_decl decl(SqSmt *s, const char *key, Z3_sort *dom, uint32_t n, Z3_sort range) {
    for (uint32_t i = 0; i < s->n_ufs; i++)
        if (strcmp(s->ufs[i].key, key) == 0) return s->ufs[i].decl;
    struct SmtUf *u = SQ_ARENA_APPEND(s->arena, s->ufs, s->n_ufs, s->cap_ufs);
    u->key = sq_arena_strdup(s->arena, key);
    u->decl = Z3_mk_func_decl(s->z, Z3_mk_string_symbol(s->z, key), n, dom, range);
    return u->decl;
}

static char sort_letter(SmtKind k) {
    static const char letters[] = "nirtbmx"; /* NULL INT REAL TEXT BOOL NUM MIX */
    return letters[k];
}

/* Remember the function's name for the verdict ("substr, strftime"). */
static void note_name(SqSmt *s, const char *name) {
    if (s->uf_names && strstr(s->uf_names, name)) return;
    SqBuf b = SQ_BUF_IN(s->arena);
    if (s->uf_names) sq_buf_printf(&b, "%s, ", s->uf_names);
    sq_buf_puts(&b, name);
    s->uf_names = sq_arena_strdup(s->arena, sq_buf_str(&b));
    sq_buf_free(&b);
}

SmtVal smt_uf(SqSmt *s, const char *name, const SmtVal *args, uint32_t n, SmtKind result) {
    note_name(s, name);
    Z3_sort *dom = sq_arena_alloc(s->arena, (5 * n + 1) * sizeof *dom);
    Z3_ast *in = sq_arena_alloc(s->arena, (5 * n + 1) * sizeof *in);
    uint32_t m = 0;
    SqBuf key = SQ_BUF_IN(s->arena);
    sq_buf_printf(&key, "%s!", name);
    for (uint32_t i = 0; i < n; i++) {
        SmtVal a = smt_as_number(s, args[i]);
        SmtKind k = a.kind == SMT_NULL ? SMT_INT : (SmtKind)a.kind;
        sq_buf_putc(&key, sort_letter(k));
        dom[m] = Z3_mk_bool_sort(s->z);
        in[m++] = a.null;
        dom[m] = smt_sort(s, k);
        in[m++] = a.kind == SMT_NULL ? smt_int(s, 0) : a.v;
        if (k == SMT_NUM || k == SMT_MIX) {
            dom[m] = Z3_mk_bool_sort(s->z);
            in[m++] = a.isint;
        }
        if (k == SMT_MIX) {
            dom[m] = Z3_mk_bool_sort(s->z);
            in[m++] = a.istext;
            dom[m] = Z3_mk_string_sort(s->z);
            in[m++] = a.str;
        }
    }
    sq_buf_printf(&key, "!%c", sort_letter(result));
    const char *k = sq_buf_str(&key);
    smt_count(s, 3);
    SqBuf part = SQ_BUF_IN(s->arena);
    sq_buf_printf(&part, "%s.null", k);
    Z3_ast null = Z3_mk_app(s->z, decl(s, sq_buf_str(&part), dom, m, Z3_mk_bool_sort(s->z)), m, in);
    Z3_ast v = Z3_mk_app(s->z, decl(s, k, dom, m, smt_sort(s, result)), m, in);
    SmtVal out = smt_val(s, result, null, v);
    if (result == SMT_NUM) {
        sq_buf_reset(&part);
        sq_buf_printf(&part, "%s.int", k);
        out.isint = Z3_mk_app(s->z, decl(s, sq_buf_str(&part), dom, m, Z3_mk_bool_sort(s->z)), m, in);
    }
    sq_buf_free(&part);
    sq_buf_free(&key);
    return out;
}
