/*
** reply.c -- a model's reply to a task's prompt, read back into fields:
** the elements the template asked for (<question>...</question>), each
** counted and, where the task allows only some values, checked.
**
** Layer: backend/prompt.  Each task's reply format is one row below, next
** to the reply line of its task table (task.c) and its description in
** docs/prompts.md.  Models often answer in JSON even when asked for
** elements, so a reply with none of the elements is read as a JSON
** object with the same names (singular or plural) or, for a task with one
** repeated element, as an array of strings; a fence around it
** (```json ... ```) is dropped.  What does not fit is rejected with the
** reason, never guessed at.
*/
#define _GNU_SOURCE   /* memmem */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "backend/prompt/prompt.h"
#include "runtime/util.h"

#define MAX_FIELDS 7
#define MAX_VALUES 64  /* of one field; the counts below are no larger */

typedef struct ReplyField {
    const char *tag;                /* the element */
    const char *key;                /* in the imported record */
    int min, max;                   /* how many; max 1: a string, else an array */
    const char *const *allowed;     /* the values it may take (spelled so), or NULL */
} ReplyField;

typedef struct ReplyFormat {
    const char *task;
    ReplyField fields[MAX_FIELDS];
} ReplyFormat;

/* A reply that is not elements, read by a function of its own. */
typedef struct ReplyReader {
    const char *task;
    int (*read)(const char *text, size_t n, SqJsonWriter *w, SqBuf *why);
} ReplyReader;

static int read_substitutions(const char *text, size_t n, SqJsonWriter *w, SqBuf *why);

static const ReplyReader readers[] = {
    {"tqa-synonym", read_substitutions},
};

static const char *const yes_no[] = {"yes", "no", NULL};
static const char *const readings[] = {"A", "B", "both", "neither", NULL};
static const char *const scores[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", NULL};

static const ReplyFormat formats[] = {
    {"sql-to-question", {{"analysis", "analysis", 0, 1, NULL}, {"question", "questions", 3, 5, NULL}}},
    {"paraphrase", {{"paraphrase", "paraphrases", 3, 3, NULL}}},
    {"question-check", {{"verdict", "verdict", 1, 1, yes_no}, {"reason", "reason", 1, 1, NULL}}},
    {"explain-difference",
     {{"explanation", "explanation", 1, 1, NULL}, {"reading", "reading", 1, 1, readings}}},
    {"synsql-selector", {{"column", "columns", 1, MAX_VALUES, NULL}}},
    {"synsql-expansion", {{"column", "columns", 0, MAX_VALUES, NULL}}},
    {"synsql-synthesizer", {{"sql", "sql", 1, 1, NULL}}},
    {"synsql-critic",
     {{"alignment", "alignment", 1, 1, scores}, {"integrity", "integrity", 1, 1, scores},
      {"coverage", "coverage", 1, 1, scores}, {"complexity", "complexity", 1, 1, scores},
      {"variety", "variety", 1, 1, scores}, {"relevance", "relevance", 1, 1, scores},
      {"feedback", "feedback", 1, 1, NULL}}},
    {"expand-question",
     {{"analysis", "analysis", 0, 1, NULL}, {"question", "question", 1, 1, NULL}, {"evidence", "evidence", 0, 1, NULL}}},
    {"tqa-backtranslate", {{"translation", "translation", 0, 1, NULL}, {"text", "text", 1, 1, NULL}}},
    {"tqa-context", {{"masked", "masked", 0, 1, NULL}, {"text", "text", 1, 1, NULL}}},
};

/* One value found: a span of the reply, or a string of a JSON reply. */
typedef struct Span {
    const char *s;
    size_t n;
} Span;

typedef struct Found {
    Span v[MAX_FIELDS][MAX_VALUES];
    int count[MAX_FIELDS];
} Found;

static const ReplyFormat *format_of(const char *task) {
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(formats[i].task, task) == 0) return &formats[i];
    return NULL;
}

static const ReplyReader *reader_of(const char *task) {
    for (size_t i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(readers[i].task, task) == 0) return &readers[i];
    return NULL;
}

int sq_prompt_reply_known(const char *task) { return format_of(task) != NULL || reader_of(task) != NULL; }

static Span trim(const char *s, size_t n) {
    while (n && strchr(" \t\r\n", *s)) s++, n--;
    while (n && strchr(" \t\r\n", s[n - 1])) n--;
    return (Span){s, n};
}

/* Record a value of field f; -1 with the reason past its maximum. */
static int add_value(const ReplyField *fd, Found *got, int f, Span v, SqBuf *why) {
    if (got->count[f] >= fd->max) {
        sq_buf_printf(why, "more than %d <%s> element%s", fd->max, fd->tag, fd->max == 1 ? "" : "s");
        return -1;
    }
    got->v[f][got->count[f]++] = v;
    return 0;
}

/* Every <tag>...</tag> of field f in text. */
static int scan_tag(const ReplyField *fd, int f, const char *text, size_t n, Found *got, SqBuf *why) {
    char open[40], close[40];
    snprintf(open, sizeof open, "<%s>", fd->tag);
    snprintf(close, sizeof close, "</%s>", fd->tag);
    const char *end = text + n;
    for (const char *at = text; (at = memmem(at, (size_t)(end - at), open, strlen(open)));) {
        at += strlen(open);
        const char *stop = memmem(at, (size_t)(end - at), close, strlen(close));
        if (!stop) {
            sq_buf_printf(why, "a <%s> element is not closed", fd->tag);
            return -1;
        }
        if (add_value(fd, got, f, trim(at, (size_t)(stop - at)), why) < 0) return -1;
        at = stop + strlen(close);
    }
    return 0;
}

/* The text inside a ``` fence, when the reply is one. */
static Span unfence(const char *s, size_t n) {
    Span t = trim(s, n);
    if (t.n < 6 || memcmp(t.s, "```", 3) != 0 || memcmp(t.s + t.n - 3, "```", 3) != 0) return t;
    const char *nl = memchr(t.s, '\n', t.n);
    if (!nl) return t;
    return trim(nl + 1, (size_t)(t.s + t.n - 3 - (nl + 1)));
}

/* A JSON value's strings into field f (a string, or an array of them). */
static int json_values(const ReplyField *fd, int f, const cJSON *v, Found *got, SqBuf *why) {
    if (cJSON_IsString(v)) return add_value(fd, got, f, trim(v->valuestring, strlen(v->valuestring)), why);
    if (!cJSON_IsArray(v)) {
        sq_buf_printf(why, "the JSON reply's \"%s\" is neither a string nor an array", fd->key);
        return -1;
    }
    for (const cJSON *e = v->child; e; e = e->next) {
        if (!cJSON_IsString(e)) {
            sq_buf_printf(why, "the JSON reply's \"%s\" holds a value that is not a string", fd->key);
            return -1;
        }
        if (add_value(fd, got, f, trim(e->valuestring, strlen(e->valuestring)), why) < 0) return -1;
    }
    return 0;
}

/* The reply as JSON.  Its strings live in *root, which the caller frees
** after writing.  0, 1 when it is not JSON either, -1 with a reason. */
static int scan_json(const ReplyFormat *rf, const char *text, size_t n, Found *got, cJSON **root, SqBuf *why) {
    Span t = unfence(text, n);
    *root = cJSON_ParseWithLength(t.s, t.n);
    if (!*root) return 1;
    int single = !rf->fields[1].tag && rf->fields[0].max > 1;
    if (cJSON_IsArray(*root) && single) return json_values(&rf->fields[0], 0, *root, got, why);
    if (!cJSON_IsObject(*root)) return 1;
    for (int f = 0; f < MAX_FIELDS && rf->fields[f].tag; f++) {
        const ReplyField *fd = &rf->fields[f];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(*root, fd->key);
        if (!v) v = cJSON_GetObjectItemCaseSensitive(*root, fd->tag);
        if (v && json_values(fd, f, v, got, why) < 0) return -1;
    }
    return 0;
}

/* The counts, the empty values and the allowed ones; an allowed value
** is replaced by its own spelling (case aside: "Yes" is "yes").  An
** optional element written empty counts as left out. */
static int check_values(const ReplyFormat *rf, Found *got, SqBuf *why) {
    for (int f = 0; f < MAX_FIELDS && rf->fields[f].tag; f++) {
        const ReplyField *fd = &rf->fields[f];
        int c = got->count[f];
        if (c < fd->min) {
            if (fd->min == fd->max) sq_buf_printf(why, "%d <%s> element%s, the task asks for %d", c, fd->tag,
                                                  c == 1 ? "" : "s", fd->min);
            else sq_buf_printf(why, "%d <%s> element%s, the task asks for %d to %d", c, fd->tag, c == 1 ? "" : "s",
                               fd->min, fd->max);
            return -1;
        }
        if (c == 1 && fd->min == 0 && fd->max == 1 && !got->v[f][0].n) {
            got->count[f] = 0;   /* an optional element written empty: none, as if left out */
            continue;
        }
        for (int i = 0; i < c; i++) {
            Span *v = &got->v[f][i];
            if (!v->n) {
                sq_buf_printf(why, "an empty <%s> element", fd->tag);
                return -1;
            }
            if (!fd->allowed) continue;
            const char *const *a = fd->allowed;
            while (*a && !(strlen(*a) == v->n && sq_strnicmp(*a, v->s, v->n) == 0)) a++;
            if (!*a) {
                sq_buf_printf(why, "<%s> is '%.*s', not one of", fd->tag, (int)(v->n < 40 ? v->n : 40), v->s);
                for (a = fd->allowed; *a; a++) sq_buf_printf(why, "%s %s", a == fd->allowed ? "" : ",", *a);
                return -1;
            }
            *v = (Span){*a, strlen(*a)};
        }
    }
    return 0;
}

static void write_fields(const ReplyFormat *rf, const Found *got, SqJsonWriter *w) {
    for (int f = 0; f < MAX_FIELDS && rf->fields[f].tag; f++) {
        const ReplyField *fd = &rf->fields[f];
        if (fd->max == 1 && !got->count[f]) continue;   /* an optional element the reply left out */
        sq_jw_key(w, fd->key);
        if (fd->max == 1) {
            sq_jw_strn(w, got->v[f][0].s, got->v[f][0].n);
            continue;
        }
        sq_jw_arr_begin(w);
        for (int i = 0; i < got->count[f]; i++) sq_jw_strn(w, got->v[f][i].s, got->v[f][i].n);
        sq_jw_arr_end(w);
    }
}

/* ---- tqa-synonym: substitutions in JSON ------------------------------ */

/* One {"token": "...", "position": N} of a tqa-synonym reply into *pos and
** *tok; -1 with the reason when it is not one. */
static int substitution(const cJSON *e, int k, long long *pos, Span *tok, SqBuf *why) {
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(e, "token");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(e, "position");
    if (!cJSON_IsObject(e) || !cJSON_IsString(t) || !cJSON_IsNumber(p)) {
        sq_buf_printf(why, "substitution %d is not an object with a string \"token\" and a number \"position\"", k + 1);
        return -1;
    }
    double d = p->valuedouble;
    if (d < 0 || d > 1e9 || d != (double)(long long)d) {
        sq_buf_printf(why, "substitution %d's position is not a whole number of at least 0", k + 1);
        return -1;
    }
    *pos = (long long)d;
    *tok = trim(t->valuestring, strlen(t->valuestring));
    if (!tok->n) {
        sq_buf_printf(why, "substitution %d's token is empty", k + 1);
        return -1;
    }
    return 0;
}

/* The reply of tqa-synonym: a JSON array (in a ``` fence or not) of
** {"token", "position"} objects, at most MAX_VALUES, no position twice;
** written as "substitutions": [{"position": N, "token": "..."}] in the
** reply's order.  Which positions the request gave is not known here:
** squint llm import --attach checks them against the text. */
static int read_substitutions(const char *text, size_t n, SqJsonWriter *w, SqBuf *why) {
    Span t = unfence(text, n);
    cJSON *root = cJSON_ParseWithLength(t.s, t.n);
    int rc = -1, k = 0;
    long long pos[MAX_VALUES];
    Span tok[MAX_VALUES];
    if (!cJSON_IsArray(root)) {
        sq_buf_puts(why, "the reply is not a JSON array of {\"token\", \"position\"} objects");
        goto done;
    }
    for (const cJSON *e = root->child; e; e = e->next, k++) {
        if (k == MAX_VALUES) {
            sq_buf_printf(why, "more than %d substitutions", MAX_VALUES);
            goto done;
        }
        if (substitution(e, k, &pos[k], &tok[k], why) < 0) goto done;
        for (int j = 0; j < k; j++)
            if (pos[j] == pos[k]) {
                sq_buf_printf(why, "two substitutions at position %lld", pos[k]);
                goto done;
            }
    }
    if (!k) {
        sq_buf_puts(why, "the JSON array holds no substitution");
        goto done;
    }
    sq_jw_key(w, "substitutions");
    sq_jw_arr_begin(w);
    for (int j = 0; j < k; j++) {
        sq_jw_obj_begin(w);
        sq_jw_key(w, "position");
        sq_jw_int(w, pos[j]);
        sq_jw_key(w, "token");
        sq_jw_strn(w, tok[j].s, tok[j].n);
        sq_jw_obj_end(w);
    }
    sq_jw_arr_end(w);
    rc = 0;
done:
    cJSON_Delete(root);
    return rc;
}

int sq_prompt_reply_parse(const char *task, const char *text, size_t n, SqJsonWriter *w, SqBuf *why) {
    const ReplyReader *rd = reader_of(task);
    if (rd) return rd->read(text, n, w, why);
    const ReplyFormat *rf = format_of(task);
    if (!rf) {
        sq_buf_printf(why, "no reply format for the task '%s'", task);
        return -1;
    }
    Found got = {0};
    int any = 0, rc = 0;
    for (int f = 0; f < MAX_FIELDS && rf->fields[f].tag && rc == 0; f++) {
        rc = scan_tag(&rf->fields[f], f, text, n, &got, why);
        any += got.count[f];
    }
    cJSON *root = NULL;
    if (rc == 0 && !any && scan_json(rf, text, n, &got, &root, why) < 0) rc = -1;
    if (rc == 0) rc = check_values(rf, &got, why);
    if (rc == 0) write_fields(rf, &got, w);
    cJSON_Delete(root);
    return rc;
}
