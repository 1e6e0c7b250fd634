/*
** bench_input.c -- read Spider/BIRD benchmark files into items of SQL.
**
** Layer: frontend.  Takes a file's source, gives an SqBench (see
** bench_input.h for the formats).  JSON goes through runtime/json.h, whose
** tree lives in a scratch arena freed before returning; each item's SQL is
** copied into a source of its own, embedded in the file with the segment
** map of its JSON string (sq_json_string_map) or the offset of its line.
*/
#include "frontend/bench_input.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/json.h"

/* The state of one read. */
typedef struct BenchRead {
    SqBench *b;
    SqArena *a;          /* items and labels (the caller's) */
    SqArena *tmp;        /* the JSON tree and maps (freed at the end) */
    SqSrcSet *srcs;
    SqSrc *file;
    SqDiags *diags;
} BenchRead;

/* A line of a text file: [start, end) without its newline or a final CR. */
typedef struct TextLine {
    uint32_t start, end;
    uint32_t next;       /* offset of the next line */
    uint32_t number;     /* 1-based */
} TextLine;

static const char bird_sep[] = "\t----- bird -----\t";

static const char *const format_names[] = {
    "auto", "sql", "spider", "bird", "tsv", "bird-pred", "lines", "auto",
};

const char *sq_input_format_name(SqInputFormat f) {
    return (unsigned)f < SQ_ARRAY_LEN(format_names) ? format_names[f] : "?";
}

int sq_input_format_parse(const char *name, SqInputFormat *out) {
    for (unsigned i = 0; i <= SQ_INPUT_LINES; i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (SqInputFormat)i;
            return 1;
        }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Items                                                               */
/* ------------------------------------------------------------------ */

SQ_PRINTF(4, 5)
static SqDiag *report(BenchRead *r, SqDiagCode code, SrcSpan at, const char *fmt, ...) {
    SqBuf m = SQ_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sq_buf_vprintf(&m, fmt, ap);
    va_end(ap);
    SqSeverity sev = code == SQ_W_EMPTY_ITEM ? SQ_SEV_WARNING : SQ_SEV_ERROR;
    SqDiag *g = sq_diag_add(r->diags, sev, code, at, "%s", sq_buf_str(&m));
    sq_buf_free(&m);
    return g;
}

static SrcSpan file_span(const BenchRead *r, uint32_t start, uint32_t end) {
    return sq_span(r->file->id, start, end);
}

static SqBenchItem *new_item(BenchRead *r, const char *label, SrcSpan span) {
    SqBenchItem *it = SQ_ARENA_APPEND(r->a, r->b->items, r->b->n_items, r->b->cap_items);
    it->label = label ? sq_arena_strdup(r->a, label) : NULL;
    it->index = r->b->n_items - 1;
    it->span = span;
    it->qid = -1;
    it->question = it->evidence = it->difficulty = NULL;
    return it;
}

/* A source for text[0..len) of the item, mapped into the file by segs. */
static SqSrc *item_source(BenchRead *r, const SqBenchItem *it, const char *text,
                          uint32_t len, const SqSrcSeg *segs, uint32_t n_segs,
                          int tag) {
    SqBuf name = SQ_BUF_INIT;
    sq_buf_printf(&name, "%s:%s", r->file->name, it->label ? it->label : "?");
    SqSrc *src = sq_src_add_copy(r->srcs, sq_buf_str(&name), text, len);
    sq_buf_free(&name);
    while (n_segs > 1 && segs[n_segs - 1].child_off > len) n_segs--;
    sq_src_embed(src, r->file, segs, n_segs, tag ? it->label : NULL);
    return src;
}

/* The item's SQL is file bytes [start, end). */
static void sql_from_range(BenchRead *r, SqBenchItem *it, uint32_t start, uint32_t end) {
    SqSrcSeg seg = {0, start};
    it->sql = item_source(r, it, r->file->text + start, end - start, &seg, 1, 0);
}

/* The item's SQL is the first len decoded bytes of the JSON string v. */
static void sql_from_string(BenchRead *r, SqBenchItem *it, const SqJson *v, uint32_t len) {
    uint32_t n;
    SqSrcSeg *segs = sq_json_string_map(r->tmp, r->file->text, v, &n);
    it->sql = item_source(r, it, v->str, len, segs, n, 1);
}

/* An item without SQL keeps its place (prediction files are aligned by
** position) with an empty source at v, and a warning. */
static void sql_missing(BenchRead *r, SqBenchItem *it, uint32_t at, const char *why) {
    SqSrcSeg seg = {0, at};
    it->sql = item_source(r, it, "", 0, &seg, 1, 1);
    report(r, SQ_W_EMPTY_ITEM, it->span, "%s has no SQL%s", it->label ? it->label : "item", why);
}

static void set_db_id(BenchRead *r, SqBenchItem *it, const char *s, size_t n, SrcSpan at) {
    it->db_id = sq_arena_strndup(r->a, s, n);
    it->db_id_span = at;
}

/* File offset of decoded byte off of a JSON string, through its map. */
static uint32_t map_offset(const SqSrcSeg *segs, uint32_t n, uint32_t off) {
    uint32_t i = 0;
    while (i + 1 < n && segs[i + 1].child_off <= off) i++;
    return n ? segs[i].parent_off + (off - segs[i].child_off) : off;
}

/* ------------------------------------------------------------------ */
/* Spider and BIRD dev.json                                            */
/* ------------------------------------------------------------------ */

static void json_db_id(BenchRead *r, SqBenchItem *it, const SqJson *obj) {
    const SqJson *db = sq_json_get(obj, "db_id");
    if (db && db->kind == SQ_JSON_STRING && db->len)
        set_db_id(r, it, db->str, db->len, file_span(r, db->start + 1, db->end - 1));
}

/* The string member key of obj, copied into the arena, or NULL. */
static const char *json_text(BenchRead *r, const SqJson *obj, const char *key) {
    const SqJson *v = sq_json_get(obj, key);
    return v && v->kind == SQ_JSON_STRING ? sq_arena_strndup(r->a, v->str, v->len) : NULL;
}

static void read_dev_item(BenchRead *r, const SqJson *obj, uint32_t i, const char *key) {
    char label[64];
    const SqJson *qid = sq_json_get(obj, "question_id");
    if (r->b->format == SQ_INPUT_BIRD && qid && qid->kind == SQ_JSON_NUMBER && qid->is_int)
        snprintf(label, sizeof label, "question_id %lld", (long long)qid->inum);
    else
        snprintf(label, sizeof label, "item %u", i);
    if (obj->kind != SQ_JSON_OBJECT) {
        report(r, SQ_E_INPUT_SHAPE, file_span(r, obj->start, obj->end),
               "%s is not an object", label);
        return;
    }
    const SqJson *sql = sq_json_get(obj, key);
    if (!sql || sql->kind != SQ_JSON_STRING) {
        report(r, SQ_E_INPUT_SHAPE, file_span(r, sql ? sql->start : obj->start,
                                              sql ? sql->end : obj->start + 1),
               "%s has no \"%s\" string", label, key);
        return;
    }
    SqBenchItem *it = new_item(r, label, file_span(r, obj->start, obj->end));
    json_db_id(r, it, obj);
    if (r->b->format == SQ_INPUT_BIRD && qid && qid->kind == SQ_JSON_NUMBER && qid->is_int) it->qid = qid->inum;
    it->question = json_text(r, obj, "question");
    it->evidence = json_text(r, obj, "evidence");
    if (it->evidence && !*it->evidence) it->evidence = NULL;
    it->difficulty = json_text(r, obj, "difficulty");
    if (!it->difficulty) it->difficulty = json_text(r, obj, "hardness");
    if (sql->len == 0) sql_missing(r, it, sql->start + 1, " (an empty string)");
    else sql_from_string(r, it, sql, sql->len);
}

static void read_dev_json(BenchRead *r, const SqJson *doc) {
    const char *key = r->b->format == SQ_INPUT_BIRD ? "SQL" : "query";
    for (uint32_t i = 0; i < doc->n; i++) read_dev_item(r, doc->items[i], i, key);
}

/* Spider or BIRD, by the keys of the first object; 0 (reported) if neither. */
static SqInputFormat array_format(BenchRead *r, const SqJson *doc) {
    const SqJson *first = doc->n ? doc->items[0] : NULL;
    if (!first) return SQ_INPUT_SPIDER;
    if (sq_json_get(first, "SQL")) return SQ_INPUT_BIRD;
    if (sq_json_get(first, "query")) return SQ_INPUT_SPIDER;
    SqDiag *g = report(r, SQ_E_INPUT_SHAPE, file_span(r, first->start, first->start + 1),
                       "cannot tell the benchmark format: the first item has neither "
                       "\"query\" (Spider) nor \"SQL\" (BIRD)");
    if (sq_json_get(first, "table_names_original"))
        sq_diag_help(g, "this looks like a tables.json schema file, not a list of queries");
    return SQ_INPUT_AUTO;
}

/* ------------------------------------------------------------------ */
/* BIRD predictions: {"qid": "SQL\t----- bird -----\tdb_id"}           */
/* ------------------------------------------------------------------ */

/* Offset of the separator in the decoded string, or -1. */
static int64_t find_sep(const SqJson *v) {
    size_t n = sizeof bird_sep - 1;
    for (uint32_t i = 0; i + n <= v->len; i++)
        if (v->str[i] == '\t' && memcmp(v->str + i, bird_sep, n) == 0) return i;
    return -1;
}

static int all_digits(const char *s) {
    if (!*s) return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9') return 0;
    return 1;
}

static void read_pred_member(BenchRead *r, const char *key, const SqJson *v) {
    char label[96];
    snprintf(label, sizeof label, "question_id %.60s", key);
    SqBenchItem *it = new_item(r, label, file_span(r, v->start, v->end));
    if (all_digits(key) && strlen(key) < 18) it->qid = strtoll(key, NULL, 10);
    if (v->kind != SQ_JSON_STRING) {
        char why[64];
        uint32_t n = v->end - v->start;
        if (n <= 24)
            snprintf(why, sizeof why, " (its value is %.*s, not a string)", (int)n,
                     r->file->text + v->start);
        else
            snprintf(why, sizeof why, " (its value is not a string)");
        sql_missing(r, it, v->start, why);
        return;
    }
    int64_t sep = find_sep(v);
    if (sep < 0) {
        report(r, SQ_E_INPUT_SHAPE, it->span,
               "%s: expected \"SQL\\t----- bird -----\\tdb_id\"; no db_id taken", label);
        sql_from_string(r, it, v, v->len);
        return;
    }
    uint32_t db_at = (uint32_t)sep + sizeof bird_sep - 1;
    uint32_t n;
    SqSrcSeg *segs = sq_json_string_map(r->tmp, r->file->text, v, &n);
    if (db_at < v->len)
        set_db_id(r, it, v->str + db_at, v->len - db_at,
                  file_span(r, map_offset(segs, n, db_at), v->end - 1));
    if (sep == 0) sql_missing(r, it, v->start + 1, " (nothing before the db_id)");
    else sql_from_string(r, it, v, (uint32_t)sep);
}

static void read_bird_pred(BenchRead *r, const SqJson *doc) {
    for (uint32_t i = 0; i < doc->n; i++) read_pred_member(r, doc->keys[i], doc->items[i]);
}

/* ------------------------------------------------------------------ */
/* JSON files                                                          */
/* ------------------------------------------------------------------ */

static const SqJson *parse_json(BenchRead *r) {
    SqJsonError err;
    const SqJson *doc = sq_json_parse(r->tmp, r->file->text, r->file->len, &err);
    if (doc) return doc;
    SqDiag *g = report(r, SQ_E_JSON, file_span(r, err.offset, err.offset + 1),
                       "invalid JSON: %s", err.msg);
    if (err.open_offset != UINT32_MAX)
        sq_diag_note(g, file_span(r, err.open_offset, err.open_offset + 1), "opened here");
    return NULL;
}

static int read_json(BenchRead *r, SqInputFormat format) {
    const SqJson *doc = parse_json(r);
    if (!doc) return -1;
    int want_array = format != SQ_INPUT_BIRD_PRED;
    if (format == SQ_INPUT_AUTO) {
        want_array = doc->kind == SQ_JSON_ARRAY;
        format = want_array ? array_format(r, doc) : SQ_INPUT_BIRD_PRED;
        if (format == SQ_INPUT_AUTO) return -1;
        if (!want_array && doc->n && !all_digits(doc->keys[0])) {
            /* package.json and friends: an object, but not of question ids */
            report(r, SQ_E_INPUT_SHAPE, file_span(r, doc->start, doc->start + 1),
                   "a JSON object whose first key \"%s\" is not a question id: not a BIRD "
                   "prediction file (give --input-format to read it as one)",
                   doc->keys[0]);
            return -1;
        }
    }
    r->b->format = (uint8_t)format;
    SqJsonKind kind = want_array ? SQ_JSON_ARRAY : SQ_JSON_OBJECT;
    if (doc->kind != kind) {
        report(r, SQ_E_INPUT_SHAPE, file_span(r, doc->start, doc->start + 1),
               "a %s file must hold a JSON %s", sq_input_format_name(format),
               want_array ? "array of items" : "object of question_id: SQL members");
        return -1;
    }
    if (format == SQ_INPUT_BIRD_PRED) read_bird_pred(r, doc);
    else read_dev_json(r, doc);
    return 0;
}

/* ------------------------------------------------------------------ */
/* Text files                                                          */
/* ------------------------------------------------------------------ */

static uint32_t text_start(const SqSrc *f) {
    return f->len >= 3 && memcmp(f->text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

/* The line at pos (pos < len); returns 0 at the end of the text. */
static int line_at(const SqSrc *f, uint32_t pos, TextLine *l) {
    if (pos >= f->len) return 0;
    const char *nl = memchr(f->text + pos, '\n', f->len - pos);
    l->start = pos;
    l->end = nl ? (uint32_t)(nl - f->text) : (uint32_t)f->len;
    l->next = nl ? l->end + 1 : (uint32_t)f->len;
    if (l->end > l->start && f->text[l->end - 1] == '\r') l->end--;
    l->number++;
    return 1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

static int is_ascii_word_char(char c) {
    return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int line_is_empty(const SqSrc *f, const TextLine *l) {
    for (uint32_t i = l->start; i < l->end; i++)
        if (!is_blank(f->text[i])) return 0;
    return 1;
}

/* The db_id field of a tsv line: after the last tab, trimmed.  Returns the
** tab's offset, or -1 when the line has no tab. */
static int64_t tsv_split(const SqSrc *f, const TextLine *l, uint32_t *db_start, uint32_t *db_end) {
    uint32_t t = l->end;
    while (t > l->start && f->text[t - 1] != '\t') t--;
    if (t == l->start) return -1;
    *db_start = t;
    *db_end = l->end;
    while (*db_end > *db_start && is_blank(f->text[*db_end - 1])) (*db_end)--;
    while (*db_start < *db_end && is_blank(f->text[*db_start])) (*db_start)++;
    return (int64_t)t - 1;
}

/* SQL, a tab, then an identifier-like db_id. */
static int looks_tsv(const SqSrc *f, const TextLine *l) {
    uint32_t s, e;
    int64_t tab = tsv_split(f, l, &s, &e);
    if (tab < 0 || s == e) return 0;
    int has_sql = 0;
    for (uint32_t i = l->start; i < (uint32_t)tab; i++) has_sql |= !is_blank(f->text[i]);
    for (uint32_t i = s; i < e; i++)
        if (!is_ascii_word_char(f->text[i])) return 0;
    return has_sql;
}

/* A byte of an identifier as SQLite reads one (bytes >= 0x80 included). */
static int is_word_char(char c) {
    return is_ascii_word_char(c) || (unsigned char)c >= 0x80;
}

/* Whether the keyword kw (lower case) is at p[0..n), as a whole word. */
static int word_at(const char *p, size_t n, const char *kw) {
    size_t k = strlen(kw);
    return n >= k && sq_strnicmp(p, kw, k) == 0 && (n == k || !is_word_char(p[k]));
}

/* Whether the line looks like a whole query on its own: it starts with
** SELECT or WITH, its parentheses balance (outside quotes), and after a
** WITH's common table expressions a SELECT follows at the top level.  A
** line such as "WITH x AS (SELECT 1)" or "... IN (" continues on the next. */
static int looks_standalone(const SqSrc *f, const TextLine *l) {
    uint32_t i = l->start;
    while (i < l->end && is_blank(f->text[i])) i++;
    int is_with = word_at(f->text + i, l->end - i, "with");
    if (!is_with && !word_at(f->text + i, l->end - i, "select")) return 0;
    int depth = 0, closed = 0, main_select = !is_with;
    for (; i < l->end; i++) {
        char c = f->text[i];
        if (c == '\'' || c == '"' || c == '`' || c == '[') {
            char q = c == '[' ? ']' : c;
            while (++i < l->end && f->text[i] != q) {}
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (--depth < 0) return 0;
            closed = 1;
        } else if (depth == 0 && closed && (i == 0 || !is_word_char(f->text[i - 1])) &&
                   word_at(f->text + i, l->end - i, "select")) {
            main_select = 1;
        }
    }
    return depth == 0 && main_select;
}

static int ends_semicolon(const SqSrc *f, const TextLine *l) {
    uint32_t e = l->end;
    while (e > l->start && is_blank(f->text[e - 1])) e--;
    return e > l->start && f->text[e - 1] == ';';
}

/* Text is tsv when every non-empty line is; one SQL per line when there
** are two or more lines, nine in ten look like whole queries and fewer
** than half end in ';' (a script's statements do); else a script. */
static SqInputFormat detect_text(const SqSrc *f, SqInputFormat format) {
    TextLine l = {0, 0, 0, 0};
    uint32_t n = 0, n_tsv = 0, n_whole = 0, n_semicolons = 0, pos = text_start(f);
    for (; line_at(f, pos, &l); pos = l.next) {
        if (line_is_empty(f, &l)) continue;
        n++;
        n_tsv += (uint32_t)looks_tsv(f, &l);
        n_whole += (uint32_t)looks_standalone(f, &l);
        n_semicolons += (uint32_t)ends_semicolon(f, &l);
    }
    if (n > 0 && n_tsv == n) return SQ_INPUT_TSV;
    if (format == SQ_INPUT_AUTO_LINES) return SQ_INPUT_LINES;
    int lines = n >= 2 && (uint64_t)n_whole * 10 >= (uint64_t)n * 9 && n_semicolons * 2 < n;
    return lines ? SQ_INPUT_LINES : SQ_INPUT_SQL;
}

static void read_tsv_line(BenchRead *r, const TextLine *l) {
    char label[32];
    snprintf(label, sizeof label, "line %u", l->number);
    SqBenchItem *it = new_item(r, label, file_span(r, l->start, l->end));
    uint32_t s, e;
    int64_t tab = tsv_split(r->file, l, &s, &e);
    if (tab < 0 || s == e) {
        report(r, SQ_E_INPUT_SHAPE, it->span, "expected SQL<TAB>db_id; %s", tab < 0
               ? "the line has no tab" : "nothing follows the last tab");
        sql_from_range(r, it, l->start, tab < 0 ? l->end : (uint32_t)tab);
        return;
    }
    set_db_id(r, it, r->file->text + s, e - s, file_span(r, s, e));
    TextLine sql = *l;
    sql.end = (uint32_t)tab;
    if (line_is_empty(r->file, &sql)) sql_missing(r, it, l->start, " (nothing before the tab)");
    else sql_from_range(r, it, l->start, (uint32_t)tab);
}

static void read_lines(BenchRead *r, int tsv) {
    TextLine l = {0, 0, 0, 0};
    char label[32];
    for (uint32_t pos = text_start(r->file); line_at(r->file, pos, &l); pos = l.next) {
        if (tsv) {
            if (!line_is_empty(r->file, &l)) read_tsv_line(r, &l);
            continue;
        }
        snprintf(label, sizeof label, "line %u", l.number);
        SqBenchItem *it = new_item(r, label, file_span(r, l.start, l.end));
        if (line_is_empty(r->file, &l)) sql_missing(r, it, l.start, " (an empty line)");
        else sql_from_range(r, it, l.start, l.end);
    }
}

static int read_text(BenchRead *r, SqInputFormat format) {
    if (format == SQ_INPUT_AUTO || format == SQ_INPUT_AUTO_LINES)
        format = detect_text(r->file, format);
    r->b->format = (uint8_t)format;
    if (format == SQ_INPUT_SQL) {
        SqBenchItem *it = new_item(r, NULL, file_span(r, 0, (uint32_t)r->file->len));
        it->sql = r->file;
    } else {
        read_lines(r, format == SQ_INPUT_TSV);
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

static uint32_t skip_space(const SqSrc *f, uint32_t i) {
    while (i < f->len && (is_blank(f->text[i]) || f->text[i] == '\n')) i++;
    return i;
}

/* Whether the content starts (after a BOM and blanks) like a benchmark
** JSON file: '[' then '{' or ']', or '{' then '"' or '}'.  (Looking at two
** bytes keeps binary junk that happens to start with '[' a SQL file.) */
static int looks_json(const SqSrc *f) {
    uint32_t i = skip_space(f, text_start(f));
    if (i >= f->len || (f->text[i] != '[' && f->text[i] != '{')) return 0;
    char open = f->text[i];
    uint32_t j = skip_space(f, i + 1);
    if (j >= f->len) return 1; /* "[" alone: let the JSON reader say what is missing */
    char c = f->text[j];
    return open == '[' ? c == '{' || c == ']' : c == '"' || c == '}';
}

/* Whether the file's name ends in ".json" (any case): a file the user
** means as a JSON benchmark file, whatever it holds. */
static int named_json(const SqSrc *f) {
    size_t n = f->name ? strlen(f->name) : 0;
    return n >= 5 && sq_stricmp(f->name + n - 5, ".json") == 0;
}

int sq_bench_read(SqBench *b, SqArena *a, SqSrcSet *srcs, SqSrc *file,
                  SqInputFormat format, SqDiags *diags) {
    memset(b, 0, sizeof *b);
    b->file = file;
    BenchRead r = {b, a, sq_arena_new(), srcs, file, diags};
    int is_auto = format == SQ_INPUT_AUTO || format == SQ_INPUT_AUTO_LINES;
    int json = is_auto ? looks_json(file) || named_json(file)
                       : format == SQ_INPUT_SPIDER || format == SQ_INPUT_BIRD ||
                             format == SQ_INPUT_BIRD_PRED;
    int rc;
    if (json && skip_space(file, text_start(file)) >= file->len) {
        /* nothing to parse: say so, rather than "invalid JSON" at 1:1 */
        report(&r, SQ_E_INPUT_SHAPE, file_span(&r, 0, 0),
               "the file is empty: a JSON benchmark file holds an array of items (or BIRD's "
               "object of predictions)");
        rc = -1;
    } else {
        rc = json ? read_json(&r, is_auto ? SQ_INPUT_AUTO : format) : read_text(&r, format);
    }
    sq_arena_free(r.tmp);
    return rc;
}

void sq_bench_take_db_ids(SqBench *b, const SqBench *from, SqDiags *diags) {
    if (b->n_items != from->n_items) {
        SqDiag *g = sq_diag_add(diags, SQ_SEV_ERROR, SQ_E_INPUT_SHAPE,
                                sq_span(b->file->id, 0, 0),
                                "'%s' has %u item%s but '%s' has %u: items are paired "
                                "by position", b->file->name, b->n_items,
                                b->n_items == 1 ? "" : "s", from->file->name, from->n_items);
        sq_diag_help(g, "db_ids were taken for the first %u items only",
                     b->n_items < from->n_items ? b->n_items : from->n_items);
    }
    for (uint32_t i = 0; i < b->n_items && i < from->n_items; i++) {
        SqBenchItem *it = &b->items[i];
        if (it->db_id) continue;
        it->db_id = from->items[i].db_id;
        it->db_id_span = from->items[i].db_id_span;
    }
}
