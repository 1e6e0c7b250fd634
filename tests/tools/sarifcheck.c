/*
** sarifcheck.c -- does a JSON document satisfy a JSON Schema subset, and
** SARIF's rule references, which a schema cannot state?
**
** Test tool for tests/cli/test_lint_sarif.sh, which checks `squint lint
** --format sarif` against tests/lint/sarif-2.1.0-subset.schema.json.  The
** tests need no full validator, so this implements only the keywords that
** schema uses: type (a name or an array of names; "integer" is a number
** written without fraction or exponent, as the official draft-04 schema
** means it), required, properties, additionalProperties (false or a
** schema), items (one schema for all elements), enum, const, minimum,
** maximum, uniqueItems, anyOf, $ref ("#/definitions/NAME"; as in draft-07
** its siblings are ignored), definitions, boolean schemas, and format
** "uri" / "uri-reference" (RFC 3986 characters; "uri" needs a scheme).
** $schema, $id, $comment, title, description and default are annotations.
** Any other keyword, or a keyword value of the wrong shape, makes the
** schema unusable (exit 2), so it cannot rely on a check this skips.
**
** Then every runs[i].results[j] with a ruleIndex other than -1 (unset)
** must index tool.driver.rules, and that rule's id must be the ruleId or,
** ruleId being a hierarchical string, its leading components (SARIF 2.1.0
** sections 3.27.5-6).
**
** Usage: sarifcheck SCHEMA.json DOC.json.  Prints "ok", or one line per
** violation: the value's JSON pointer, a colon, what is wrong.  Exits 0,
** 1 (violations) or 2 (usage, unreadable or malformed input).  Memory:
** both documents and their trees live in one arena, freed at exit.
*/
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/arena.h"
#include "runtime/json.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"

#define MAX_DEPTH 256 /* deeper schema nesting or $ref chains: a loop */

/* One run of the checker over a schema and a document. */
typedef struct Check {
    const SqJson *schema;    /* the schema document's root, for $ref */
    const char *schema_name; /* its file name, for schema errors */
    const char *schema_text; /* its text, to quote enum and const values */
    const char *doc_text;    /* the checked document's text, to quote values */
    SqBuf path;              /* JSON pointer of the value being checked */
    unsigned n_errors;       /* violations found (anyOf rolls back its own) */
    int quiet;               /* > 0 inside anyOf: record, do not print */
    size_t quiet_base;       /* path length where the innermost anyOf is */
    SqBuf first;             /* quiet: the current branch's first violation */
    const SqJson *here;      /* the schema whose keyword is running */
    int depth;               /* schema nesting, against $ref loops */
} Check;

/* ---- paths and messages ------------------------------------------------ */

/* Append a JSON-pointer segment (RFC 6901 escapes); returns the old length
** for pop(). */
static size_t push_key(Check *c, const char *key) {
    size_t old = c->path.len;
    sq_buf_putc(&c->path, '/');
    for (; *key; key++)
        sq_buf_puts(&c->path, *key == '~' ? "~0" : *key == '/' ? "~1" : (char[2]){*key, 0});
    return old;
}

/* Append segments that need no escapes, e.g. push(c, "/runs/%u", i). */
static size_t push(Check *c, const char *fmt, ...) SQ_PRINTF(2, 3);
static size_t push(Check *c, const char *fmt, ...) {
    size_t old = c->path.len;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&c->path, fmt, ap);
    va_end(ap);
    return old;
}

static void pop(Check *c, size_t old) {
    c->path.len = old;
    if (c->path.data) c->path.data[old] = '\0';
}

static void fail(Check *c, const char *fmt, ...) SQ_PRINTF(2, 3);
static void fail(Check *c, const char *fmt, ...) {
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->n_errors++;
    if (!c->quiet) {
        printf("%s: %s\n", c->path.len ? c->path.data : "(root)", msg);
    } else if (!c->first.len) {
        const char *rel = sq_buf_str(&c->path) + c->quiet_base;
        sq_buf_printf(&c->first, "%s%s%s", rel, *rel ? ": " : "", msg);
    }
}

/* A value as a message shows it: its JSON text, cut short, or its kind. */
static const char *show(const char *text, const SqJson *v, char buf[48]) {
    if (v->kind == SQ_JSON_OBJECT) return "an object";
    if (v->kind == SQ_JSON_ARRAY) return "an array";
    uint32_t n = v->end - v->start;
    if (n < 40) snprintf(buf, 48, "%.*s", (int)n, text + v->start);
    else snprintf(buf, 48, "%.36s...", text + v->start);
    return buf;
}

/* ---- values ------------------------------------------------------------ */

static int is_integer(const SqJson *v) {
    return v->kind == SQ_JSON_NUMBER && v->is_int;
}

/* The JSON Schema type of each SqJsonKind ("integer" is a kind of number). */
static const char *const kind_type[] = {"null",   "boolean", "boolean", "number",
                                        "string", "array",   "object"};

static int has_type(const SqJson *v, const char *type) {
    return strcmp(type, "integer") == 0 ? is_integer(v) : strcmp(type, kind_type[v->kind]) == 0;
}

static int is_type_name(const char *t) {
    size_t i = 0;
    while (i < SQ_ARRAY_LEN(kind_type) && strcmp(t, kind_type[i]) != 0) i++;
    return i < SQ_ARRAY_LEN(kind_type) || strcmp(t, "integer") == 0;
}

/* JSON equality, as enum, const and uniqueItems mean it: numbers by value,
** objects whatever the order of their members. */
static int same(const SqJson *a, const SqJson *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case SQ_JSON_NUMBER: return a->is_int && b->is_int ? a->inum == b->inum : a->num == b->num;
    case SQ_JSON_STRING: return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
    case SQ_JSON_ARRAY:
    case SQ_JSON_OBJECT:
        if (a->n != b->n) return 0;
        for (uint32_t i = 0; i < a->n; i++) {
            const SqJson *other = a->kind == SQ_JSON_ARRAY ? b->items[i] : sq_json_get(b, a->keys[i]);
            if (!other || !same(a->items[i], other)) return 0;
        }
        return 1;
    default: return 1;
    }
}

/* RFC 3986: only unreserved and reserved characters and %HH escapes; a
** "uri", unlike a "uri-reference", starts with a scheme and a colon. */
static int is_uri(const char *s, int need_scheme) {
    const unsigned char *p = (const unsigned char *)s;
    while (isalnum(*p) || (*p && strchr("+-.", *p))) p++;
    if (need_scheme && !(isalpha((unsigned char)s[0]) && *p == ':')) return 0;
    for (p = (const unsigned char *)s; *p; p++)
        if (*p == '%' ? !(isxdigit(p[1]) && isxdigit(p[2]))
                      : !isalnum(*p) && !strchr("-._~:/?#[]@!$&'()*+,;=", *p))
            return 0;
    return 1;
}

/* ---- keywords ---------------------------------------------------------- */

static void validate(Check *c, const SqJson *schema, const SqJson *v);

/* kw is the keyword's value (c->here the schema holding it), v the value. */
typedef void KwFn(Check *c, const SqJson *kw, const SqJson *v);

static const SqJson *resolve(const Check *c, const char *ref) {
    const char *prefix = "#/definitions/";
    if (strncmp(ref, prefix, strlen(prefix)) != 0) return NULL;
    return sq_json_get(sq_json_get(c->schema, "definitions"), ref + strlen(prefix));
}

static void kw_ref(Check *c, const SqJson *kw, const SqJson *v) {
    validate(c, resolve(c, kw->str), v);
}

/* A keyword value that is one item or an array of them, as an array. */
static const SqJson *const *as_list(const SqJson *const *kw, uint32_t *n) {
    *n = (*kw)->kind == SQ_JSON_ARRAY ? (*kw)->n : 1;
    return (*kw)->kind == SQ_JSON_ARRAY ? (const SqJson *const *)(*kw)->items : kw;
}

static void kw_type(Check *c, const SqJson *kw, const SqJson *v) {
    uint32_t n;
    const SqJson *const *names = as_list(&kw, &n);
    SqBuf want = SQ_BUF_INIT;
    for (uint32_t i = 0; i < n; i++) {
        if (has_type(v, names[i]->str)) goto done;
        sq_buf_printf(&want, "%s%s", i ? " or " : "", names[i]->str);
    }
    char buf[48];
    fail(c, "%s is not of type %s", show(c->doc_text, v, buf), sq_buf_str(&want));
done:
    sq_buf_free(&want);
}

static void kw_required(Check *c, const SqJson *kw, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) return;
    for (uint32_t i = 0; i < kw->n; i++)
        if (!sq_json_get(v, kw->items[i]->str))
            fail(c, "missing required property \"%s\"", kw->items[i]->str);
}

static void kw_properties(Check *c, const SqJson *kw, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) return;
    for (uint32_t i = 0; i < v->n; i++) {
        const SqJson *sub = sq_json_get(kw, v->keys[i]);
        if (!sub) continue;
        size_t old = push_key(c, v->keys[i]);
        validate(c, sub, v->items[i]);
        pop(c, old);
    }
}

static void kw_additional(Check *c, const SqJson *kw, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) return;
    const SqJson *props = sq_json_get(c->here, "properties");
    for (uint32_t i = 0; i < v->n; i++) {
        if (sq_json_get(props, v->keys[i])) continue;
        size_t old = push_key(c, v->keys[i]);
        if (kw->kind == SQ_JSON_FALSE) fail(c, "property not allowed here");
        else validate(c, kw, v->items[i]);
        pop(c, old);
    }
}

static void kw_items(Check *c, const SqJson *kw, const SqJson *v) {
    if (v->kind != SQ_JSON_ARRAY) return;
    for (uint32_t i = 0; i < v->n; i++) {
        size_t old = push(c, "/%u", i);
        validate(c, kw, v->items[i]);
        pop(c, old);
    }
}

static void kw_enum(Check *c, const SqJson *kw, const SqJson *v) {
    SqBuf list = SQ_BUF_INIT;
    for (uint32_t i = 0; i < kw->n; i++) {
        const SqJson *e = kw->items[i];
        if (same(e, v)) goto done;
        if (e->kind == SQ_JSON_STRING) sq_buf_printf(&list, "%s%s", i ? ", " : "", e->str);
        else sq_buf_printf(&list, "%s%.*s", i ? ", " : "", (int)(e->end - e->start), c->schema_text + e->start);
    }
    char buf[48];
    fail(c, "%s is not one of %s", show(c->doc_text, v, buf), sq_buf_str(&list));
done:
    sq_buf_free(&list);
}

static void kw_const(Check *c, const SqJson *kw, const SqJson *v) {
    char buf[48], want[48];
    if (!same(kw, v)) fail(c, "%s is not %s", show(c->doc_text, v, buf), show(c->schema_text, kw, want));
}

static void kw_minimum(Check *c, const SqJson *kw, const SqJson *v) {
    char buf[48];
    if (v->kind == SQ_JSON_NUMBER && v->num < kw->num)
        fail(c, "%s is less than the minimum %g", show(c->doc_text, v, buf), kw->num);
}

static void kw_maximum(Check *c, const SqJson *kw, const SqJson *v) {
    char buf[48];
    if (v->kind == SQ_JSON_NUMBER && v->num > kw->num)
        fail(c, "%s is more than the maximum %g", show(c->doc_text, v, buf), kw->num);
}

static void kw_unique(Check *c, const SqJson *kw, const SqJson *v) {
    if (kw->kind != SQ_JSON_TRUE || v->kind != SQ_JSON_ARRAY) return;
    for (uint32_t i = 0; i < v->n; i++)
        for (uint32_t j = i + 1; j < v->n; j++)
            if (same(v->items[i], v->items[j])) fail(c, "items %u and %u are equal", i, j);
}

/* Each branch runs quietly; when none holds, the message gives each one's
** first violation, its path relative to this value. */
static void kw_any_of(Check *c, const SqJson *kw, const SqJson *v) {
    unsigned before = c->n_errors;
    SqBuf outer = c->first, why = SQ_BUF_INIT;
    size_t outer_base = c->quiet_base;
    int matched = 0;
    c->quiet++;
    c->quiet_base = c->path.len;
    for (uint32_t i = 0; i < kw->n && !matched; i++) {
        c->first = (SqBuf)SQ_BUF_INIT;
        validate(c, kw->items[i], v);
        matched = c->n_errors == before;
        sq_buf_printf(&why, "%s%s", i ? "; " : "", sq_buf_str(&c->first));
        sq_buf_free(&c->first);
        c->n_errors = before;
    }
    c->quiet--;
    c->quiet_base = outer_base;
    c->first = outer;
    if (!matched) fail(c, "matches none of anyOf: %s", sq_buf_str(&why));
    sq_buf_free(&why);
}

static void kw_format(Check *c, const SqJson *kw, const SqJson *v) {
    char buf[48];
    if (v->kind == SQ_JSON_STRING && !is_uri(v->str, strcmp(kw->str, "uri") == 0))
        fail(c, "%s is not a valid %s", show(c->doc_text, v, buf), kw->str);
}

/* Where a keyword's value holds subschemas, for the schema walk. */
enum { SUB_NONE, SUB_ONE, SUB_MAP, SUB_LIST };
#define K(kind) (1u << SQ_JSON_##kind)
#define K_SCHEMA (K(OBJECT) | K(TRUE) | K(FALSE))

static const struct Keyword {
    const char *name;
    KwFn *fn;      /* NULL: an annotation, or read by another keyword */
    unsigned want; /* the JSON kinds its value may have (a K() mask) */
    int sub;       /* SUB_*: where its value holds subschemas */
} keywords[] = {
    {"$ref", kw_ref, K(STRING), SUB_NONE},
    {"type", kw_type, K(STRING) | K(ARRAY), SUB_NONE},
    {"required", kw_required, K(ARRAY), SUB_NONE},
    {"properties", kw_properties, K(OBJECT), SUB_MAP},
    {"additionalProperties", kw_additional, K_SCHEMA, SUB_ONE},
    {"items", kw_items, K_SCHEMA, SUB_ONE},
    {"enum", kw_enum, K(ARRAY), SUB_NONE},
    {"const", kw_const, ~0u, SUB_NONE},
    {"minimum", kw_minimum, K(NUMBER), SUB_NONE},
    {"maximum", kw_maximum, K(NUMBER), SUB_NONE},
    {"uniqueItems", kw_unique, K(TRUE) | K(FALSE), SUB_NONE},
    {"anyOf", kw_any_of, K(ARRAY), SUB_LIST},
    {"format", kw_format, K(STRING), SUB_NONE},
    {"definitions", NULL, K(OBJECT), SUB_MAP},
    {"$schema", NULL, K(STRING), SUB_NONE},
    {"$id", NULL, K(STRING), SUB_NONE},
    {"$comment", NULL, K(STRING), SUB_NONE},
    {"title", NULL, K(STRING), SUB_NONE},
    {"description", NULL, K(STRING), SUB_NONE},
    {"default", NULL, ~0u, SUB_NONE},
};

static const struct Keyword *keyword(const char *name) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(keywords); i++)
        if (strcmp(keywords[i].name, name) == 0) return &keywords[i];
    return NULL;
}

/* v against schema (checked by lint_schema first, so shapes are right). */
static void validate(Check *c, const SqJson *schema, const SqJson *v) {
    if (schema->kind == SQ_JSON_FALSE) fail(c, "no value is allowed here");
    if (schema->kind != SQ_JSON_OBJECT) return;
    if (++c->depth > MAX_DEPTH) {
        fail(c, "schema nested more than %d deep: a $ref loop?", MAX_DEPTH);
    } else if (sq_json_get(schema, "$ref")) {
        kw_ref(c, sq_json_get(schema, "$ref"), v);
    } else {
        for (uint32_t i = 0; i < schema->n; i++) {
            const struct Keyword *k = keyword(schema->keys[i]);
            c->here = schema;
            if (k->fn) k->fn(c, schema->items[i], v);
        }
    }
    c->depth--;
}

/* ---- the schema itself ------------------------------------------------- */

/* What is wrong with a keyword's value beyond its kind, or NULL. */
static const char *bad_value(const Check *c, const char *name, const SqJson *kw) {
    uint32_t n;
    const SqJson *const *xs = as_list(&kw, &n);
    if (strcmp(name, "$ref") == 0) return resolve(c, kw->str) ? NULL : "does not resolve";
    if (strcmp(name, "format") == 0)
        return strcmp(kw->str, "uri") && strcmp(kw->str, "uri-reference") ? "unsupported format" : NULL;
    int is_type = strcmp(name, "type") == 0;
    for (uint32_t i = 0; (is_type || strcmp(name, "required") == 0) && i < n; i++)
        if (xs[i]->kind != SQ_JSON_STRING || (is_type && !is_type_name(xs[i]->str)))
            return is_type ? "not a type name" : "not a property name";
    return NULL;
}

static int lint_schema(Check *c, const SqJson *s);

static int lint_subschemas(Check *c, const SqJson *kw, int sub) {
    int ok = 1;
    for (uint32_t i = 0; sub != SUB_NONE && i < (sub == SUB_ONE ? 1 : kw->n); i++) {
        size_t old = sub == SUB_MAP ? push_key(c, kw->keys[i]) : sub == SUB_LIST ? push(c, "/%u", i) : c->path.len;
        ok &= lint_schema(c, sub == SUB_ONE ? kw : kw->items[i]);
        pop(c, old);
    }
    return ok;
}

/* Is s a schema this tool checks completely?  Reports each problem. */
static int lint_schema(Check *c, const SqJson *s) {
    if (s->kind == SQ_JSON_TRUE || s->kind == SQ_JSON_FALSE) return 1;
    if (s->kind != SQ_JSON_OBJECT) {
        fprintf(stderr, "%s: %s: a schema must be an object or a boolean\n", c->schema_name, sq_buf_str(&c->path));
        return 0;
    }
    int ok = 1;
    for (uint32_t i = 0; i < s->n; i++) {
        const struct Keyword *k = keyword(s->keys[i]);
        size_t old = push_key(c, s->keys[i]);
        const char *why = !k ? "unsupported keyword" : !(k->want & (1u << s->items[i]->kind))
                                                           ? "value of the wrong kind"
                                                           : bad_value(c, k->name, s->items[i]);
        if (why) fprintf(stderr, "%s: %s: %s\n", c->schema_name, c->path.data, why);
        else ok &= lint_subschemas(c, s->items[i], k->sub);
        ok &= !why;
        pop(c, old);
    }
    return ok;
}

/* ---- SARIF rules beyond the schema ------------------------------------- */

static const SqJson *member(const SqJson *obj, const char *key, SqJsonKind kind) {
    const SqJson *v = sq_json_get(obj, key);
    return v && v->kind == kind ? v : NULL;
}

/* ruleId is a hierarchical string: the rule's id, then "/" components. */
static int names_rule(const char *rule_id, const char *id) {
    size_t n = strlen(id);
    return strncmp(rule_id, id, n) == 0 && (rule_id[n] == '\0' || rule_id[n] == '/');
}

static void check_rule_index(Check *c, const SqJson *result, const SqJson *rules) {
    const SqJson *ix = member(result, "ruleIndex", SQ_JSON_NUMBER);
    if (!ix || !is_integer(ix) || ix->num < 0) return; /* -1 is "unset" */
    size_t old = push(c, "/ruleIndex");
    uint32_t n_rules = rules ? rules->n : 0;
    if (ix->num >= n_rules) {
        fail(c, "%.0f is past the end of tool.driver.rules (%u rules)", ix->num, n_rules);
    } else {
        const char *id = sq_json_string(sq_json_get(rules->items[(uint32_t)ix->num], "id"));
        const char *rule_id = sq_json_string(sq_json_get(result, "ruleId"));
        if (id && rule_id && !names_rule(rule_id, id))
            fail(c, "rules[%.0f] is \"%s\", but ruleId is \"%s\"", ix->num, id, rule_id);
    }
    pop(c, old);
}

static void check_sarif(Check *c, const SqJson *log) {
    const SqJson *runs = member(log, "runs", SQ_JSON_ARRAY);
    for (uint32_t i = 0; runs && i < runs->n; i++) {
        const SqJson *driver = member(member(runs->items[i], "tool", SQ_JSON_OBJECT), "driver", SQ_JSON_OBJECT);
        const SqJson *rules = member(driver, "rules", SQ_JSON_ARRAY);
        const SqJson *results = member(runs->items[i], "results", SQ_JSON_ARRAY);
        for (uint32_t j = 0; results && j < results->n; j++) {
            size_t old = push(c, "/runs/%u/results/%u", i, j);
            check_rule_index(c, results->items[j], rules);
            pop(c, old);
        }
    }
}

/* ---- main -------------------------------------------------------------- */

/* Read and parse path; NULL (reported) when it cannot. */
static const SqJson *load(SqArena *a, const char *path, const char **text) {
    size_t len;
    int err;
    char *buf = sq_read_file(path, &len, &err);
    if (!buf) {
        fprintf(stderr, "sarifcheck: cannot read %s: %s\n", path, strerror(err));
        return NULL;
    }
    sq_arena_defer(a, free, buf);
    *text = buf;
    SqJsonError e;
    const SqJson *root = sq_json_parse(a, buf, len, &e);
    if (!root) fprintf(stderr, "sarifcheck: %s: byte %u: %s\n", path, e.offset, e.msg);
    return root;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: sarifcheck SCHEMA.json DOC.json\n");
        return 2;
    }
    SqArena *a = sq_arena_new();
    Check c = {.schema_name = argv[1], .path = SQ_BUF_INIT, .first = SQ_BUF_INIT};
    const SqJson *doc = NULL;
    c.schema = load(a, argv[1], &c.schema_text);
    if (c.schema) doc = load(a, argv[2], &c.doc_text);
    int status = 2;
    if (doc && lint_schema(&c, c.schema)) {
        validate(&c, c.schema, doc);
        check_sarif(&c, doc);
        if (!c.n_errors) puts("ok");
        status = c.n_errors ? 1 : 0;
    }
    sq_buf_free(&c.path);
    sq_arena_free(a);
    return status;
}
