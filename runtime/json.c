/*
** json.c -- recursive-descent JSON reader with byte offsets on every value.
**
** Layer: runtime.  One pass over the document builds SqJson nodes in the
** caller's arena.  A string is first scanned (which finds its end and checks
** every escape and character), then decoded into a buffer as long as its raw
** text, which always suffices because no escape decodes to more bytes than
** it is written with.  Escape decoding is shared with sq_json_string_map()
** so that the map and the decoded text always agree.  The first error stops
** the parse; its message and offset go to the caller's SqJsonError.
*/
#include "runtime/json.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

/* The state of one parse. */
typedef struct JsonParser {
    SqArena *a;              /* owns every node (not owned here) */
    const unsigned char *s;  /* the document (not owned) */
    uint32_t len;            /* bytes in s */
    uint32_t pos;            /* offset of the next byte to read */
    uint32_t depth;          /* open arrays and objects */
    uint32_t open_at;        /* innermost open '[' or '{', or UINT32_MAX */
    SqJsonError *err;        /* where the first error goes */
} JsonParser;

#define NO_OFFSET UINT32_MAX

static SqJson *parse_value(JsonParser *p);

/* ------------------------------------------------------------------------ */
/* Errors                                                                   */
/* ------------------------------------------------------------------------ */

/* Record an error at off (open_at is the unclosed construct, if any);
** returns 0 so that checks can "return fail(...)". */
SQ_PRINTF(4, 5)
static int fail_at(JsonParser *p, uint32_t off, uint32_t open_at,
                   const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
    va_end(ap);
    p->err->offset = off;
    p->err->open_offset = open_at;
    return 0;
}

#define fail(p, off, ...) fail_at((p), (off), NO_OFFSET, __VA_ARGS__)

/* "character 'x'" for printable ASCII, "byte 0xNN" for anything else. */
static const char *describe(unsigned char c, char buf[16]) {
    if (c >= 0x20 && c < 0x7f && c != '\'')
        snprintf(buf, 16, "character '%c'", c);
    else if (c == '\'')
        snprintf(buf, 16, "character \"'\"");
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

/* The input ended where more was needed. */
static SqJson *fail_eof(JsonParser *p) {
    if (p->open_at == NO_OFFSET)
        fail(p, p->len, "empty document");
    else
        fail_at(p, p->len, p->open_at, "unterminated %s",
                p->s[p->open_at] == '[' ? "array" : "object");
    return NULL;
}

/* The byte at p->pos cannot start a value. */
static SqJson *fail_unexpected(JsonParser *p) {
    char buf[16];
    fail(p, p->pos, "unexpected %s", describe(p->s[p->pos], buf));
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* Scanning helpers                                                         */
/* ------------------------------------------------------------------------ */

static void skip_ws(JsonParser *p) {
    while (p->pos < p->len) {
        unsigned char c = p->s[p->pos];
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return;
        p->pos++;
    }
}

static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static int hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The four hex digits at h, or -1 when one is not a hex digit. */
static int32_t hex4(const unsigned char *h) {
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_value(h[i]);
        if (d < 0) return -1;
        v = v * 16 + d;
    }
    return v;
}

static SqJson *node_new(JsonParser *p, uint8_t kind, uint32_t start) {
    SqJson *v = sq_arena_alloc(p->a, sizeof *v);
    v->kind = kind;
    v->start = start;
    return v;
}

/* ------------------------------------------------------------------------ */
/* Escapes (shared by decoding and by the position map)                     */
/* ------------------------------------------------------------------------ */

static uint32_t utf8_put(uint32_t cp, unsigned char out[4]) {
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The code point of the checked \uXXXX escape at s, joined with a following
** low-surrogate escape (before end) when s holds a high surrogate; *used is
** set to the escape bytes consumed.  Unpaired surrogates give U+FFFD. */
static uint32_t u_escape(const unsigned char *s, const unsigned char *end,
                         uint32_t *used) {
    int32_t cp = hex4(s + 2);
    *used = 6;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return 0xFFFD;
    if (cp < 0xD800 || cp > 0xDBFF) return cp < 0 ? 0xFFFD : (uint32_t)cp;
    if (end - s < 12 || s[6] != '\\' || s[7] != 'u') return 0xFFFD;
    int32_t lo = hex4(s + 8);
    if (lo < 0xDC00 || lo > 0xDFFF) return 0xFFFD;
    *used = 12;
    return 0x10000 + (((uint32_t)cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
}

/* Decode the checked escape at s (s[0] is the backslash, end bounds the
** string body) into out; returns the bytes written, sets *used to the
** escape's length. */
static uint32_t decode_escape(const unsigned char *s, const unsigned char *end,
                              unsigned char out[4], uint32_t *used) {
    *used = 2;
    switch (s[1]) {
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u': return utf8_put(u_escape(s, end, used), out);
    default: out[0] = s[1]; return 1; /* '"', '\\', '/' */
    }
}

/* ------------------------------------------------------------------------ */
/* Strings                                                                  */
/* ------------------------------------------------------------------------ */

/* Check the escape whose backslash is at offset i; 0 after an error. */
static int check_escape(JsonParser *p, uint32_t open, uint32_t i) {
    if (i + 1 >= p->len)
        return fail_at(p, p->len, open, "unterminated string");
    unsigned char e = p->s[i + 1];
    if (e == 'u') {
        for (uint32_t k = i + 2; k < i + 6; k++) {
            if (k >= p->len) return fail_at(p, p->len, open, "unterminated string");
            if (hex_value(p->s[k]) < 0)
                return fail(p, k, "invalid \\u escape: expected four hex digits");
        }
        return 1;
    }
    if (e && strchr("\"\\/bfnrt", e)) return 1;
    char buf[16];
    return fail(p, i, "invalid escape: backslash followed by %s", describe(e, buf));
}

static int is_plain(unsigned char c) { return c != '"' && c != '\\' && c >= 0x20; }

/* string = '"' *char '"': find the closing quote of the string opening at
** p->pos, checking escapes and that no raw control character occurs. */
static int scan_string(JsonParser *p, uint32_t *close, int *has_esc) {
    uint32_t open = p->pos, i = open + 1;
    *has_esc = 0;
    for (;;) {
        while (i < p->len && is_plain(p->s[i])) i++;
        if (i >= p->len) return fail_at(p, p->len, open, "unterminated string");
        unsigned char c = p->s[i];
        if (c == '"') break;
        if (c == '\\') {
            if (!check_escape(p, open, i)) return 0;
            *has_esc = 1;
            i += p->s[i + 1] == 'u' ? 6 : 2;
            continue;
        }
        if (c == '\n') return fail(p, i, "unescaped newline in string");
        return fail(p, i, "unescaped control character 0x%02x in string", c);
    }
    *close = i;
    return 1;
}

/* Decode the checked body s[open+1 .. close) into the arena. */
static char *decode_string(JsonParser *p, uint32_t open, uint32_t close,
                           int has_esc, uint32_t *out_len) {
    const unsigned char *b = p->s + open + 1, *e = p->s + close;
    if (!has_esc) {
        *out_len = close - open - 1;
        return sq_arena_strndup(p->a, (const char *)b, *out_len);
    }
    unsigned char *d = sq_arena_alloc(p->a, (size_t)(e - b) + 1);
    uint32_t n = 0, used;
    while (b < e) {
        const unsigned char *bs = memchr(b, '\\', (size_t)(e - b));
        if (!bs) bs = e;
        memcpy(d + n, b, (size_t)(bs - b));
        n += (uint32_t)(bs - b);
        if (bs == e) break;
        n += decode_escape(bs, e, d + n, &used);
        b = bs + used;
    }
    d[n] = 0;
    *out_len = n;
    return (char *)d;
}

/* Read the string at p->pos; returns its decoded text, NULL on error. */
static const char *read_string(JsonParser *p, uint32_t *out_len) {
    uint32_t open = p->pos, close = 0;
    int has_esc;
    if (!scan_string(p, &close, &has_esc)) return NULL;
    p->pos = close + 1;
    return decode_string(p, open, close, has_esc, out_len);
}

static SqJson *parse_string(JsonParser *p) {
    SqJson *v = node_new(p, SQ_JSON_STRING, p->pos);
    v->str = read_string(p, &v->len);
    if (!v->str) return NULL;
    v->end = p->pos;
    return v;
}

/* ------------------------------------------------------------------------ */
/* Numbers and literals                                                     */
/* ------------------------------------------------------------------------ */

/* strtod over s[0..n), which is not NUL-terminated.  (The library never
** calls setlocale, so the decimal point is '.'.) */
static double to_double(const unsigned char *s, uint32_t n) {
    char buf[64];
    char *t = n < sizeof buf ? buf : sq_malloc((size_t)n + 1);
    memcpy(t, s, n);
    t[n] = 0;
    double d = strtod(t, NULL);
    if (t != buf) free(t);
    return d;
}

/* Skip digits from *i; 0 (after an error with msg) when there is none. */
static int digits(JsonParser *p, uint32_t *i, const char *msg) {
    if (*i >= p->len || !is_digit(p->s[*i])) return fail(p, *i, "%s", msg);
    while (*i < p->len && is_digit(p->s[*i])) (*i)++;
    return 1;
}

/* int = '0' / [1-9] *DIGIT, accumulated into *mag; *fits cleared when the
** magnitude passes 2^63. */
static int int_part(JsonParser *p, uint32_t *i, uint64_t *mag, int *fits) {
    uint32_t from = *i;
    if (!digits(p, i, "expected a digit")) return 0;
    if (p->s[from] == '0' && *i - from > 1)
        return fail(p, from + 1, "leading zeros are not allowed in numbers");
    *mag = 0;
    *fits = 1;
    for (uint32_t k = from; k < *i && *fits; k++) {
        unsigned d = p->s[k] - '0';
        if (*mag > ((UINT64_C(1) << 63) - d) / 10) *fits = 0;
        else *mag = *mag * 10 + d;
    }
    return 1;
}

/* Fill num, inum and is_int of v from its text. */
static void set_number(JsonParser *p, SqJson *v, int neg, uint64_t mag,
                       int is_int) {
    uint64_t limit = neg ? UINT64_C(1) << 63 : (UINT64_C(1) << 63) - 1;
    v->is_int = (uint8_t)(is_int && mag <= limit);
    if (v->is_int)
        v->inum = !neg ? (int64_t)mag
                  : mag == UINT64_C(1) << 63 ? INT64_MIN : -(int64_t)mag;
    if (v->is_int && mag <= UINT64_C(1) << 53)
        v->num = neg ? -(double)mag : (double)mag; /* exact; "-0" gives -0.0 */
    else
        v->num = to_double(p->s + v->start, v->end - v->start);
}

/* number = [ '-' ] int [ '.' 1*DIGIT ] [ ( 'e' / 'E' ) [ '+' / '-' ] 1*DIGIT ] */
static SqJson *parse_number(JsonParser *p) {
    uint32_t i = p->pos;
    int neg = p->s[i] == '-', fits = 1, is_int = 1;
    uint64_t mag = 0;
    i += (uint32_t)neg;
    if (neg && (i >= p->len || !is_digit(p->s[i]))) {
        fail(p, i, "expected a digit after '-'");
        return NULL;
    }
    if (!int_part(p, &i, &mag, &fits)) return NULL;
    if (i < p->len && p->s[i] == '.') {
        i++;
        is_int = 0;
        if (!digits(p, &i, "expected a digit after '.'")) return NULL;
    }
    if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
        i++;
        is_int = 0;
        if (i < p->len && (p->s[i] == '+' || p->s[i] == '-')) i++;
        if (!digits(p, &i, "expected a digit in the exponent")) return NULL;
    }
    SqJson *v = node_new(p, SQ_JSON_NUMBER, p->pos);
    v->end = p->pos = i;
    set_number(p, v, neg, mag, is_int && fits);
    return v;
}

/* true / false / null */
static SqJson *parse_literal(JsonParser *p, const char *word, uint8_t kind) {
    size_t n = strlen(word);
    char buf[16];
    for (uint32_t k = 0; k < n; k++) {
        uint32_t i = p->pos + k;
        if (i >= p->len) {
            fail(p, i, "unexpected end of input in '%s'", word);
            return NULL;
        }
        if (p->s[i] != (unsigned char)word[k]) {
            fail(p, i, "unexpected %s in '%s'", describe(p->s[i], buf), word);
            return NULL;
        }
    }
    SqJson *v = node_new(p, kind, p->pos);
    v->end = p->pos += (uint32_t)n;
    return v;
}

/* ------------------------------------------------------------------------ */
/* Arrays and objects                                                       */
/* ------------------------------------------------------------------------ */

/* Step over the '[' or '{' at p->pos, one level deeper; *saved receives the
** enclosing container for leave(). */
static int enter(JsonParser *p, uint32_t *saved) {
    if (p->depth >= SQ_JSON_MAX_DEPTH) return fail(p, p->pos, "nesting too deep");
    p->depth++;
    *saved = p->open_at;
    p->open_at = p->pos++;
    return 1;
}

/* Step over the closing ']' or '}' of v. */
static SqJson *leave(JsonParser *p, SqJson *v, uint32_t saved) {
    p->depth--;
    p->open_at = saved;
    v->end = ++p->pos;
    return v;
}

/* After the ',' at comma: whitespace, then anything but closer (a trailing
** comma is an error).  0 after an error. */
static int after_comma(JsonParser *p, uint32_t comma, unsigned char closer) {
    p->pos = comma + 1;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == closer)
        return fail(p, comma, "trailing ',' before '%c'", closer);
    return 1;
}

/* array = '[' [ value *( ',' value ) ] ']' */
static SqJson *parse_array(JsonParser *p) {
    SqJson *arr = node_new(p, SQ_JSON_ARRAY, p->pos);
    uint32_t saved = NO_OFFSET, cap = 0;
    if (!enter(p, &saved)) return NULL;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') return leave(p, arr, saved);
    for (;;) {
        SqJson *v = parse_value(p);
        if (!v) return NULL;
        *SQ_ARENA_APPEND(p->a, arr->items, arr->n, cap) = v;
        skip_ws(p);
        if (p->pos >= p->len) return fail_eof(p);
        if (p->s[p->pos] == ']') return leave(p, arr, saved);
        if (p->s[p->pos] != ',') {
            fail(p, p->pos, "expected ',' or ']' after an array element");
            return NULL;
        }
        if (!after_comma(p, p->pos, ']')) return NULL;
    }
}

/* Growth state of an object's two parallel arrays. */
typedef struct ObjCaps {
    uint32_t items; /* capacity of items */
    uint32_t keys;  /* capacity of keys */
} ObjCaps;

static void obj_add(JsonParser *p, SqJson *obj, ObjCaps *caps, const char *key,
                    SqJson *v) {
    uint32_t n = obj->n;
    obj->keys = sq_arena_push(p->a, obj->keys, n, &caps->keys, sizeof *obj->keys);
    obj->keys[n] = key;
    *SQ_ARENA_APPEND(p->a, obj->items, obj->n, caps->items) = v;
}

/* member = string ':' value; added to obj.  0 after an error. */
static int parse_member(JsonParser *p, SqJson *obj, ObjCaps *caps) {
    if (p->pos >= p->len) {
        fail_eof(p);
        return 0;
    }
    if (p->s[p->pos] != '"')
        return fail(p, p->pos, obj->n ? "expected a string key after ','"
                                        : "expected a string key or '}'");
    uint32_t klen;
    const char *key = read_string(p, &klen);
    if (!key) return 0;
    skip_ws(p);
    if (p->pos >= p->len) {
        fail_eof(p);
        return 0;
    }
    if (p->s[p->pos] != ':') return fail(p, p->pos, "expected ':' after an object key");
    p->pos++;
    skip_ws(p);
    SqJson *v = parse_value(p);
    if (!v) return 0;
    obj_add(p, obj, caps, key, v);
    return 1;
}

/* object = '{' [ member *( ',' member ) ] '}' */
static SqJson *parse_object(JsonParser *p) {
    SqJson *obj = node_new(p, SQ_JSON_OBJECT, p->pos);
    ObjCaps caps = {0, 0};
    uint32_t saved = NO_OFFSET;
    if (!enter(p, &saved)) return NULL;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') return leave(p, obj, saved);
    for (;;) {
        if (!parse_member(p, obj, &caps)) return NULL;
        skip_ws(p);
        if (p->pos >= p->len) return fail_eof(p);
        if (p->s[p->pos] == '}') return leave(p, obj, saved);
        if (p->s[p->pos] != ',') {
            fail(p, p->pos, "expected ',' or '}' after an object member");
            return NULL;
        }
        if (!after_comma(p, p->pos, '}')) return NULL;
    }
}

/* ------------------------------------------------------------------------ */
/* Values and documents                                                     */
/* ------------------------------------------------------------------------ */

/* value = object / array / string / number / true / false / null */
static SqJson *parse_value(JsonParser *p) {
    if (p->pos >= p->len) return fail_eof(p);
    switch (p->s[p->pos]) {
    case '{': return parse_object(p);
    case '[': return parse_array(p);
    case '"': return parse_string(p);
    case 't': return parse_literal(p, "true", SQ_JSON_TRUE);
    case 'f': return parse_literal(p, "false", SQ_JSON_FALSE);
    case 'n': return parse_literal(p, "null", SQ_JSON_NULL);
    default:
        if (p->s[p->pos] == '-' || is_digit(p->s[p->pos])) return parse_number(p);
        return fail_unexpected(p);
    }
}

/* document = [ BOM ] ws value ws */
SqJson *sq_json_parse(SqArena *a, const char *text, size_t len,
                      SqJsonError *err) {
    SqJsonError local;
    JsonParser p = {a, (const unsigned char *)text, (uint32_t)len, 0, 0,
                    NO_OFFSET, err ? err : &local};
    memset(p.err, 0, sizeof *p.err);
    p.err->open_offset = NO_OFFSET;
    if (len >= UINT32_MAX - 16) { /* offsets, and offset + 6, fit uint32_t */
        fail(&p, 0, "document too large (4 GiB or more)");
        return NULL;
    }
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) p.pos = 3;
    skip_ws(&p);
    SqJson *v = parse_value(&p);
    if (!v) return NULL;
    skip_ws(&p);
    if (p.pos < p.len) {
        fail(&p, p.pos, "trailing characters after the document");
        return NULL;
    }
    return v;
}

/* ------------------------------------------------------------------------ */
/* Access                                                                   */
/* ------------------------------------------------------------------------ */

const SqJson *sq_json_get(const SqJson *obj, const char *key) {
    if (!obj || obj->kind != SQ_JSON_OBJECT) return NULL;
    for (uint32_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
    return NULL;
}

const char *sq_json_string(const SqJson *v) {
    return v && v->kind == SQ_JSON_STRING ? v->str : NULL;
}

/* ------------------------------------------------------------------------ */
/* Positions                                                                */
/* ------------------------------------------------------------------------ */

/* A segment list being built. */
typedef struct SegList {
    SqSrcSeg *items;
    uint32_t n, cap;
} SegList;

/* Append {child, parent}, replacing a last segment that starts at child. */
static void seg_add(SqArena *a, SegList *l, uint32_t child, uint32_t parent) {
    if (l->n && l->items[l->n - 1].child_off == child) {
        l->items[l->n - 1].parent_off = parent;
        return;
    }
    SqSrcSeg *g = SQ_ARENA_PUSH(a, l);
    g->child_off = child;
    g->parent_off = parent;
}

SqSrcSeg *sq_json_string_map(SqArena *a, const char *doc, const SqJson *v,
                             uint32_t *n) {
    *n = 0;
    if (!v || v->kind != SQ_JSON_STRING) return NULL;
    const unsigned char *s = (const unsigned char *)doc;
    const unsigned char *b = s + v->start + 1, *e = s + v->end - 1;
    SegList l = {NULL, 0, 0};
    uint32_t child = 0, used;
    unsigned char tmp[4];
    seg_add(a, &l, 0, v->start + 1);
    while (b < e) {
        const unsigned char *bs = memchr(b, '\\', (size_t)(e - b));
        if (!bs) break;
        child += (uint32_t)(bs - b);
        uint32_t k = decode_escape(bs, e, tmp, &used);
        for (uint32_t j = 0; j < k; j++) seg_add(a, &l, child + j, (uint32_t)(bs - s));
        child += k;
        b = bs + used;
        seg_add(a, &l, child, (uint32_t)(b - s));
    }
    *n = l.n;
    return l.items;
}

static int is_json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int sq_json_key_repeats(const SqJson *obj, uint32_t i) {
    for (uint32_t j = 0; j < i; j++)
        if (strcmp(obj->keys[j], obj->keys[i]) == 0) return 1;
    return 0;
}

void sq_json_key_place(const char *doc, const SqJson *obj, uint32_t i, uint32_t *start, uint32_t *end) {
    uint32_t e = obj->items[i]->start;
    *start = obj->items[i]->start;
    *end = obj->items[i]->end;
    while (e > obj->start && is_json_space(doc[e - 1])) e--;
    if (e <= obj->start || doc[e - 1] != ':') return;
    e--;
    while (e > obj->start && is_json_space(doc[e - 1])) e--;
    if (e <= obj->start + 1 || doc[e - 1] != '"') return;
    uint32_t s = e - 1;   /* the closing quote; back to the opening one */
    while (s > obj->start && !(doc[s - 1] == '"' && doc[s - 2] != '\\')) s--;
    if (s <= obj->start) return;
    *start = s - 1;
    *end = e;
}
