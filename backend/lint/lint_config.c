/*
** lint_config.c -- reading `.squint.json` (see lint_config.h).
**
** Layer: backend/lint.  The file is read with runtime/json.h, which keeps
** positions, so every problem is reported at its line and column.
*/
#include "backend/lint/lint_config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/json.h"

int sq_lint_severity_parse(const char *s) {
    if (!s) return -1;
    if (strcmp(s, "error") == 0) return SQ_SEV_ERROR;
    if (strcmp(s, "warning") == 0) return SQ_SEV_WARNING;
    if (strcmp(s, "info") == 0) return SQ_SEV_INFO;
    if (strcmp(s, "note") == 0) return SQ_SEV_NOTE;
    return -1;
}

/* ------------------------------------------------------------------ */
/* Reading it                                                          */
/* ------------------------------------------------------------------ */

typedef struct Reader {
    SqLintFile *c;
    SqArena *a;
    const SqSrc *src;
    SqDiags *diags;
    int bad;
} Reader;

static SrcSpan at(const Reader *r, const SqJson *v) {
    return sq_span(r->src->id, v->start, v->end);
}

static void problem(Reader *r, const SqJson *v, const char *fmt, const char *arg) {
    sq_diag_add(r->diags, SQ_SEV_ERROR, SQ_E_CONFIG, at(r, v), fmt, arg);
    r->bad = 1;
}

/* Whether key i of object v appeared before it; a repeat is reported, so a
** key means one thing (JSON keeps both, and reading both would merge them). */
static int repeated_key(Reader *r, const SqJson *v, uint32_t i) {
    if (!sq_json_key_repeats(v, i)) return 0;
    problem(r, v->items[i], "the key '%s' appears twice in one object", v->keys[i]);
    return 1;
}

static int rule_of(Reader *r, const SqJson *v) {
    const char *s = sq_json_string(v);
    int rule = s ? sq_lint_rule_find(s) : -1;
    if (!s) problem(r, v, "expected a rule name%s", "");
    else if (rule < 0) problem(r, v, "unknown lint rule '%s' (squint lint --list-rules lists them)", s);
    return rule;
}

/* A JSON array of rule names, into set. */
static void rule_list(Reader *r, const SqJson *v, uint8_t *set) {
    if (v->kind != SQ_JSON_ARRAY) {
        problem(r, v, "expected an array of rule names%s", "");
        return;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        int rule = rule_of(r, v->items[i]);
        if (rule >= 0) set[rule] = 1;
    }
}

static void severities(Reader *r, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) {
        problem(r, v, "expected an object of rule: severity%s", "");
        return;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        if (repeated_key(r, v, i)) continue;
        int rule = sq_lint_rule_find(v->keys[i]);
        int sev = sq_lint_severity_parse(sq_json_string(v->items[i]));
        if (rule < 0) problem(r, v->items[i], "unknown lint rule '%s'", v->keys[i]);
        else if (sev < SQ_SEV_INFO)
            problem(r, v->items[i], "severity of %s must be \"error\", \"warning\" or \"info\"",
                    v->keys[i]);
        else r->c->sev[rule] = (int8_t)sev;
    }
}

static void ignore_entry(Reader *r, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) {
        problem(r, v, "expected an object with file, items, rules, reason%s", "");
        return;
    }
    SqLintIgnore *g = SQ_ARENA_APPEND(r->a, r->c->ignores, r->c->n_ignores, r->c->cap_ignores);
    memset(g, 0, sizeof *g);
    g->all_rules = 1;
    for (uint32_t i = 0; i < v->n; i++) {
        if (repeated_key(r, v, i)) continue;
        const char *k = v->keys[i];
        const SqJson *x = v->items[i];
        if (strcmp(k, "file") == 0) {
            g->file = sq_json_string(x);
            if (!g->file) problem(r, x, "\"file\" must be a string%s", "");
        } else if (strcmp(k, "items") == 0) {
            if (x->kind != SQ_JSON_ARRAY) {
                problem(r, x, "\"items\" must be an array of numbers%s", "");
                continue;
            }
            g->items = sq_arena_alloc(r->a, (x->n + 1) * sizeof *g->items);
            for (uint32_t j = 0; j < x->n; j++) {
                if (x->items[j]->kind != SQ_JSON_NUMBER || !x->items[j]->is_int)
                    problem(r, x->items[j], "an item is a whole number%s", "");
                else g->items[g->n_items++] = x->items[j]->inum;
            }
        } else if (strcmp(k, "rules") == 0) {
            g->all_rules = 0;
            rule_list(r, x, g->rules);
        } else if (strcmp(k, "reason") != 0) {
            problem(r, x, "unknown key '%s' in an ignore entry (file, items, rules, reason)", k);
        }
    }
}

static void lint_section(Reader *r, const SqJson *v) {
    if (v->kind != SQ_JSON_OBJECT) {
        problem(r, v, "\"lint\" must be an object%s", "");
        return;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        if (repeated_key(r, v, i)) continue;
        const char *k = v->keys[i];
        const SqJson *x = v->items[i];
        if (strcmp(k, "rules") == 0) {
            r->c->has_only = 1;
            rule_list(r, x, r->c->only);
        } else if (strcmp(k, "disable") == 0) {
            rule_list(r, x, r->c->disable);
        } else if (strcmp(k, "severity") == 0) {
            severities(r, x);
        } else if (strcmp(k, "threshold") == 0) {
            int sev = sq_lint_severity_parse(sq_json_string(x));
            if (sev < SQ_SEV_INFO) problem(r, x, "\"threshold\" must be \"error\", \"warning\" or \"info\"%s", "");
            else r->c->threshold = (int8_t)sev;
        } else if (strcmp(k, "ignore") == 0) {
            if (x->kind != SQ_JSON_ARRAY) problem(r, x, "\"ignore\" must be an array%s", "");
            else
                for (uint32_t j = 0; j < x->n; j++) ignore_entry(r, x->items[j]);
        }   /* another key is one of squint lint's options: cli/cli_config.c checks those */
    }
}

/* The absolute directory of path, with a trailing '/'. */
static const char *config_dir(SqArena *a, const char *path) {
    const char *slash = strrchr(path, '/');
    char *dir = slash ? sq_arena_strndup(a, path, (size_t)(slash - path)) : ".";
    char *abs = realpath(*dir ? dir : "/", NULL);
    const char *out = abs ? sq_arena_printf(a, "%s/", strcmp(abs, "/") == 0 ? "" : abs)
                          : sq_arena_printf(a, "%s/", dir);
    free(abs);
    return out;
}

/* c zeroed, nothing set, for the file at path. */
static void config_start(SqLintFile *c, SqArena *a, const char *path) {
    memset(c, 0, sizeof *c);
    memset(c->sev, -1, sizeof c->sev);
    c->threshold = -1;
    c->path = sq_arena_strdup(a, path);
    c->dir = config_dir(a, path);
}

/* The configuration held in src, into c (started). */
static int parse(SqLintFile *c, SqArena *a, const SqSrc *src, SqDiags *diags) {
    SqJsonError jerr;
    SqJson *doc = sq_json_parse(a, src->text, src->len, &jerr);
    if (!doc) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_CONFIG, sq_span(src->id, jerr.offset, jerr.offset),
                    "%s", jerr.msg);
        return -1;
    }
    Reader r = {c, a, src, diags, 0};
    if (doc->kind != SQ_JSON_OBJECT) {
        problem(&r, doc, "a configuration is a JSON object%s", "");
        return -1;
    }
    for (uint32_t i = 0; i < doc->n; i++)
        if (!repeated_key(&r, doc, i) && strcmp(doc->keys[i], "lint") == 0)
            lint_section(&r, doc->items[i]);
    return r.bad ? -1 : 0;
}

int sq_lint_file_load(SqLintFile *c, SqArena *a, const char *path, SqSrcSet *srcs,
                     SqDiags *diags) {
    config_start(c, a, path);
    int err;
    SqSrc *src = sq_src_add_file(srcs, path, &err);
    if (!src) {
        sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_CONFIG, sq_span(0, 0, 0), "cannot read %s: %s", path,
                    strerror(err));
        return -1;
    }
    return parse(c, a, src, diags);
}

int sq_lint_file_read(SqLintFile *c, SqArena *a, const char *path, const SqSrc *src,
                     SqDiags *diags) {
    config_start(c, a, path);
    return parse(c, a, src, diags);
}

/* ------------------------------------------------------------------ */
/* Ignores                                                             */
/* ------------------------------------------------------------------ */

static int ends_with_path(const char *path, const char *tail) {
    size_t n = strlen(path), m = strlen(tail);
    if (m > n) return 0;
    return strcmp(path + n - m, tail) == 0 && (m == n || path[n - m - 1] == '/');
}

static int file_matches(const SqLintFile *c, const char *file, const char *pattern) {
    if (ends_with_path(file, pattern)) return 1;
    if (!*c->dir) return 0;
    char *full = malloc(strlen(c->dir) + strlen(pattern) + 1);
    strcpy(full, c->dir);
    strcat(full, pattern);
    int m = strcmp(file, full) == 0;
    free(full);
    return m;
}

int sq_lint_file_ignores(const SqLintFile *c, const char *file, int64_t item, int rule) {
    for (uint32_t i = 0; i < c->n_ignores; i++) {
        const SqLintIgnore *g = &c->ignores[i];
        if (g->file && !file_matches(c, file, g->file)) continue;
        if (!g->all_rules && (rule < 0 || !g->rules[rule])) continue;
        if (g->items) {
            uint32_t j = 0;
            while (j < g->n_items && g->items[j] != item) j++;
            if (j == g->n_items) continue;
        }
        return 1;
    }
    return 0;
}

void sq_lint_file_apply(const SqLintFile *c, SqLintConfig *rules) {
    for (int i = 0; i < SQ_LINT__COUNT; i++) {
        if ((c->has_only && !c->only[i]) || c->disable[i]) rules->enabled[i] = 0;
        if (c->sev[i] >= 0) rules->sev[i] = (uint8_t)c->sev[i];
    }
}

int64_t sq_lint_item_number(const char *label) {
    const char *sp = label ? strrchr(label, ' ') : NULL;
    char *end;
    long long n = sp ? strtoll(sp + 1, &end, 10) : -1;
    return sp && end != sp + 1 && !*end ? n : -1;
}
