/*
** record.c -- `squint eval` records read back and added up (record.h).
*/
#include "backend/eval/record.h"
#include "backend/eval/ves.h"

#include <math.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/json.h"
#include "runtime/util.h"
#include "backend/profile/profile.h"

static const char *const verdict_names[] = {
    "equivalent", "different", "different-under-ties", "column-count",
    "unsupported", "timeout",  "unconfirmed",          "spurious",
    "vacuous",     "solver-failed",
};
_Static_assert(sizeof verdict_names / sizeof *verdict_names == SQ_VERDICT_COUNT, "a name per verdict");

const char *sq_eval_verdict_name(int verdict) {
    if (verdict == SQ_EVAL_NOT_LOADED) return "not-loaded";
    if (verdict < 0 || verdict >= SQ_VERDICT_COUNT) return NULL;
    return verdict_names[verdict];
}

const char *sq_eval_verdict_label(const SqEquivResult *r) {
    if (r->realistic && (r->verdict == SQ_VERDICT_EQUIVALENT ? !r->proof : r->verdict == SQ_VERDICT_VACUOUS))
        return sq_equiv_verdict_label(r);
    return sq_eval_verdict_name((int)r->verdict);
}

int sq_eval_verdict_parse(const char *name) {
    if (!name) return SQ_EVAL_NO_VERDICT;
    if (strcmp(name, "not-loaded") == 0) return SQ_EVAL_NOT_LOADED;
    if (strcmp(name, "equivalent-on-realistic-data") == 0) return SQ_VERDICT_EQUIVALENT;
    if (strcmp(name, "vacuous-on-realistic-data") == 0) return SQ_VERDICT_VACUOUS;
    for (int k = 0; k < SQ_VERDICT_COUNT; k++)
        if (strcmp(verdict_names[k], name) == 0) return k;
    return SQ_EVAL_NO_VERDICT;
}

int sq_eval_verdict_unknown(int verdict) {
    return verdict < 0 || verdict == SQ_VERDICT_UNSUPPORTED || verdict == SQ_VERDICT_TIMEOUT ||
           verdict == SQ_VERDICT_UNCONFIRMED || verdict == SQ_VERDICT_SPURIOUS || verdict == SQ_VERDICT_VACUOUS ||
           verdict == SQ_VERDICT_FAILED;
}

static const char *text_of(const SqJson *obj, const char *key) {
    return sq_json_string(sq_json_get(obj, key));
}

/* "em" and its "em_parts" (item.h); em -1 when absent, null or
** malformed. */
static void parse_em(const SqJson *s, SqEvalMark *m) {
    const SqJson *em = sq_json_get(s, "em"), *parts = sq_json_get(s, "em_parts");
    m->em = -1;
    if (!em || em->kind != SQ_JSON_NUMBER || !em->is_int || (em->inum != 0 && em->inum != 1)) return;
    if (!parts || parts->kind != SQ_JSON_ARRAY || parts->n != SQ_EM_NPARTS) return;
    for (int p = 0; p < SQ_EM_NPARTS; p++) {
        const SqJson *v = parts->items[p];
        if (v->kind != SQ_JSON_ARRAY || v->n != 3) return;
        for (int i = 0; i < 3; i++)
            if (v->items[i]->kind != SQ_JSON_NUMBER || !v->items[i]->is_int || v->items[i]->inum < 0) return;
        int hit = v->items[0]->inum != 0;
        m->em_part[p] = (SqEmPartScore){hit, hit, hit, (int)v->items[1]->inum, (int)v->items[2]->inum};
    }
    m->em = (int8_t)em->inum;
}

static int parse_system(const SqJson *s, const char **name, const char **pred, SqEvalMark *m,
                        const char **why) {
    const char *ex = text_of(s, "ex");
    *name = text_of(s, "name");
    *pred = text_of(s, "pred");
    int k = ex ? sq_ex_outcome_parse(ex) : -1;
    if (!*name || k < 0) {
        *why = "a system without a name or a known \"ex\"";
        return -1;
    }
    m->ex = (int8_t)k;
    m->verdict = (int8_t)sq_eval_verdict_parse(text_of(s, "verdict"));
    m->refuted = text_of(s, "refuted_by") != NULL;
    const char *suite = text_of(s, "ex_suite");
    m->suite = !suite ? -1 : strcmp(suite, "correct") == 0 ? 1 : strcmp(suite, "wrong") == 0 ? 0 : -1;
    const SqJson *t = sq_json_get(s, "verify_seconds");
    m->verify_seconds = t && t->kind == SQ_JSON_NUMBER ? t->num : 0;
    const SqJson *f1 = sq_json_get(s, "soft_f1");
    m->soft_f1 = f1 && f1->kind == SQ_JSON_NUMBER ? f1->num : -1;
    const SqJson *vr = sq_json_get(s, "ves_ratio");
    m->ves_ratio = vr && vr->kind == SQ_JSON_NUMBER ? vr->num : -1;
    parse_em(s, m);
    m->verdict_realistic = (int8_t)sq_eval_verdict_parse(text_of(s, "verdict_realistic"));
    m->has_realistic = sq_json_get(s, "verdict_realistic") != NULL;
    const SqJson *kinds = sq_json_get(s, "kinds");
    m->has_kinds = kinds && kinds->kind == SQ_JSON_ARRAY;
    m->kinds = 0;
    for (uint32_t i = 0; m->has_kinds && i < kinds->n; i++) m->kinds |= (uint8_t)sq_cex_kind_parse(sq_json_string(kinds->items[i]));
    return 0;
}

int sq_eval_record_parse(SqArena *a, const char *line, size_t n, SqEvalRecord *r, const char **why) {
    SqJson *doc = sq_json_parse(a, line, n, NULL);
    memset(r, 0, sizeof *r);
    const SqJson *item = sq_json_get(doc, "item"), *sys = sq_json_get(doc, "systems");
    if (!doc || doc->kind != SQ_JSON_OBJECT) {
        *why = "not a JSON object";
        return -1;
    }
    if (!item || item->kind != SQ_JSON_NUMBER || !item->is_int || item->inum < 0 || !sys ||
        sys->kind != SQ_JSON_ARRAY) {
        *why = "no \"item\" number or \"systems\" array";
        return -1;
    }
    r->item = (size_t)item->inum;
    const SqJson *format = sq_json_get(doc, SQ_EVAL_FORMAT_KEY), *options = sq_json_get(doc, "options");
    r->format = format && format->kind == SQ_JSON_NUMBER && format->is_int ? (int)format->inum : 1;
    r->inputs = text_of(doc, "inputs");
    r->gold = text_of(doc, "gold");
    r->options = options && options->kind == SQ_JSON_OBJECT ? options : NULL;
    r->text = line;
    r->db_id = text_of(doc, "db_id");
    r->difficulty = text_of(doc, "difficulty");
    r->n_systems = sys->n;
    const SqJson *lint = sq_json_get(doc, "lint");
    r->n_lint = lint && lint->kind == SQ_JSON_ARRAY ? lint->n : 0;
    r->names = sq_arena_alloc(a, (sys->n + 1) * sizeof *r->names);
    r->preds = sq_arena_alloc(a, (sys->n + 1) * sizeof *r->preds);
    r->marks = sq_arena_alloc(a, (sys->n + 1) * sizeof *r->marks);
    for (uint32_t k = 0; k < sys->n; k++)
        if (parse_system(sys->items[k], &r->names[k], &r->preds[k], &r->marks[k], why) < 0) return -1;
    return 0;
}

/* What a counterexample's kinds add to counts. */
static void count_kinds(SqEvalCounts *c, const SqEvalMark *m) {
    c->kinds_tagged++;
    c->kind_robust += m->kinds == 0;
    for (unsigned b = 0; b < SQ_ARRAY_LEN(c->kind); b++) c->kind[b] += (m->kinds >> b) & 1;
}

void sq_eval_count(SqEvalCounts *c, const SqEvalMark *m) {
    c->items++;
    if (m->ex >= 0 && m->ex < SQ_EX_N_OUTCOMES) c->ex[m->ex]++;
    if (m->soft_f1 >= 0) {
        c->soft_f1_n++;
        c->soft_f1_sum += m->soft_f1;
    }
    if (m->em >= 0) sq_em_tally_add(&c->em, m->em, m->em_part);
    if (m->ves_ratio >= 0) {
        c->ves_n++;
        c->ves_sum += sqrt(m->ves_ratio);
        c->rves_sum += sqrt(sq_rves_reward(m->ves_ratio));
    }
    if (m->suite >= 0) {
        c->suite_known++;
        c->suite_correct += (size_t)m->suite;
    }
    if (!sq_ex_accepted(m->ex)) return;
    c->ex_ok++;
    if (m->refuted) c->refuted++;
    if (m->verdict == SQ_VERDICT_EQUIVALENT) {
        c->verified++;
        if (!m->refuted) c->verified_cross++;
    } else if (m->verdict == SQ_VERDICT_DIFFERENT || m->verdict == SQ_VERDICT_COLUMNS) {
        c->different++;
    } else if (m->verdict == SQ_VERDICT_DIFFERENT_TIES) {
        c->ties++;
    } else {
        c->unknown++;
    }
    if (m->has_kinds && (m->verdict == SQ_VERDICT_DIFFERENT || m->verdict == SQ_VERDICT_DIFFERENT_TIES))
        count_kinds(c, m);
    if (!m->has_realistic) return;
    c->realistic_known++;
    if (m->verdict_realistic == SQ_VERDICT_EQUIVALENT) c->verified_realistic++;
    else if (m->verdict_realistic == SQ_VERDICT_DIFFERENT || m->verdict_realistic == SQ_VERDICT_COLUMNS ||
             m->verdict_realistic == SQ_VERDICT_DIFFERENT_TIES)
        c->different_realistic++;
    else c->unknown_realistic++;
}

int sq_eval_line_is_ours(const char *s, size_t n) {
    static const char head[] = "{\"item\":", mark[] = ",\"" SQ_EVAL_FORMAT_KEY "\":";
    size_t k = sizeof head - 1, m = sizeof mark - 1;
    if (n <= k || memcmp(s, head, k) != 0 || s[k] < '0' || s[k] > '9') return 0;
    while (k < n && s[k] >= '0' && s[k] <= '9') k++;
    return n - k >= m && memcmp(s + k, mark, m) == 0;
}

/* Whether member key of obj (parsed from text) is spelled as b's value
** (parsed from b_text). */
static int same_member(const SqJson *obj, const char *text, const char *key, const SqJson *b, const char *b_text) {
    const SqJson *a = sq_json_get(obj, key);
    return a && a->end - a->start == b->end - b->start && memcmp(text + a->start, b_text + b->start, a->end - a->start) == 0;
}

const char *sq_eval_options_diff(const SqJson *a, const char *a_text, const SqJson *b, const char *b_text) {
    for (uint32_t k = 0; k < b->n; k++)
        if (!same_member(a, a_text, b->keys[k], b->items[k], b_text)) return b->keys[k];
    for (uint32_t k = 0; k < a->n; k++)
        if (!sq_json_get(b, a->keys[k])) return a->keys[k];
    return NULL;
}

/* The item number a line starts with ({"item":N), or SIZE_MAX. */
static size_t leading_item(const char *s, size_t n) {
    static const char head[] = "{\"item\":";
    size_t k = sizeof head - 1, item = 0;
    if (n <= k || memcmp(s, head, k) != 0 || s[k] < '0' || s[k] > '9') return SIZE_MAX;
    for (; k < n && s[k] >= '0' && s[k] <= '9'; k++) item = item * 10 + (size_t)(s[k] - '0');
    return item;
}

size_t sq_eval_split_lines(const char *text, size_t len, SqEvalLine **lines, size_t *n, size_t *cap) {
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        if (!nl) break;
        size_t m = (size_t)(nl - (text + i)) + 1;
        if (*n == *cap) {
            *cap = *cap ? 2 * *cap : 1024;
            *lines = sq_realloc(*lines, *cap * sizeof **lines);
        }
        (*lines)[*n] = (SqEvalLine){leading_item(text + i, m), *n, text + i, m};
        (*n)++;
        i += m;
    }
    return i;
}

static int cmp_line(const void *a, const void *b) {
    const SqEvalLine *x = a, *y = b;
    if (x->item != y->item) return x->item < y->item ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void sq_eval_sort_lines(SqEvalLine *lines, size_t n) { qsort(lines, n, sizeof *lines, cmp_line); }
