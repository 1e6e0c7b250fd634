/*
** template.c -- the template language of prompts/<task>.txt: parse a template
** into messages of parts, and render them with one item's slot values.
**
** Layer: backend/prompt.  The language is described at the top of
** prompt.h (and for users in docs/prompts.md); this file is all of its
** implementation.  Parsing checks everything that can be checked without
** an item (slot names, sections), so that a template's mistake is found
** once, before any item, with its line.
**
** Sections: messages; parts of a message; rendering.
*/
#include "backend/prompt/prompt.h"

#include <string.h>

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

/* What the parser carries: the text, where it is, what went wrong. */
typedef struct TplParse {
    SqArena *a;
    const char *origin;
    const char *text;
    size_t len;
    SqPromptTemplate *t;
    SqBuf *err;
    int open_slot;      /* the section open in this message, or -1 */
    size_t open_at;     /* its tag's offset */
} TplParse;

/* 1-based line of offset off. */
static unsigned line_of(const TplParse *p, size_t off) {
    unsigned line = 1;
    for (size_t i = 0; i < off && i < p->len; i++) line += p->text[i] == '\n';
    return line;
}

static int fail(TplParse *p, size_t off, const char *what, const char *name, size_t n) {
    sq_buf_printf(p->err, "%s:%u: %s", p->origin, line_of(p, off), what);
    if (name) sq_buf_printf(p->err, " '%.*s'", (int)n, name);
    return -1;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The end of the line starting at off (its '\n', or len). */
static size_t line_end(const TplParse *p, size_t off) {
    const char *nl = memchr(p->text + off, '\n', p->len - off);
    return nl ? (size_t)(nl - p->text) : p->len;
}

/* Whether the line [off, end) is a message marker: "@system" or "@user",
** blank space after it allowed.  The role in *role (0 system, 1 user). */
static int is_marker(const TplParse *p, size_t off, size_t end, int *role) {
    while (end > off && is_blank(p->text[end - 1])) end--;
    size_t n = end - off;
    const char *s = p->text + off;
    if (n == 7 && memcmp(s, "@system", 7) == 0) *role = 0;
    else if (n == 5 && memcmp(s, "@user", 5) == 0) *role = 1;
    else return 0;
    return 1;
}

/* ------------------------------------------------------------------ */
/* Parts of a message                                                  */
/* ------------------------------------------------------------------ */

static void add_part(TplParse *p, SqPromptMessage *m, SqPromptPart part) {
    m->parts = sq_arena_push(p->a, m->parts, m->n_parts, &m->cap_parts, sizeof *m->parts);
    m->parts[m->n_parts++] = part;
}

static void add_text(TplParse *p, SqPromptMessage *m, size_t from, size_t to) {
    if (to > from) add_part(p, m, (SqPromptPart){SQ_PART_TEXT, 0, p->text + from, (uint32_t)(to - from)});
}

static int is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

/* A tag at off ("{{name}}", "{{#name}}", "{{/name}}"): its kind, the
** name's offset and length, and the offset after it.  0 when the text
** there is not a tag (it is then text). */
static int read_tag(const TplParse *p, size_t off, size_t end, int *kind, size_t *name, size_t *n, size_t *after) {
    size_t i = off + 2;
    *kind = SQ_PART_SLOT;
    if (i < end && (p->text[i] == '#' || p->text[i] == '/')) *kind = p->text[i++] == '#' ? SQ_PART_OPEN : SQ_PART_CLOSE;
    *name = i;
    while (i < end && is_name_char(p->text[i])) i++;
    *n = i - *name;
    if (*n == 0 || i + 2 > end || p->text[i] != '}' || p->text[i + 1] != '}') return 0;
    *after = i + 2;
    return 1;
}

/* A section tag alone on its line takes the line's '\n' with it. */
static size_t standalone_end(const TplParse *p, size_t tag, size_t after, size_t end) {
    int at_line_start = tag == 0 || p->text[tag - 1] == '\n';
    if (at_line_start && after < end && p->text[after] == '\n') return after + 1;
    return after;
}

/* Sections: one open at a time, closed by its own name. */
static int track_section(TplParse *p, int kind, int slot, size_t off, const char *name, size_t n) {
    if (kind == SQ_PART_OPEN) {
        if (p->open_slot >= 0) return fail(p, off, "a section inside a section (they do not nest):", name, n);
        p->open_slot = slot;
        p->open_at = off;
    } else if (kind == SQ_PART_CLOSE) {
        if (p->open_slot != slot) return fail(p, off, "this tag closes no open section:", name, n);
        p->open_slot = -1;
    }
    return 0;
}

static void note_slot(TplParse *p, int kind, int slot) {
    uint32_t bit = 1u << slot;
    if (kind == SQ_PART_SLOT && p->open_slot < 0) p->t->required |= bit;
    else p->t->optional |= bit;
}

/* The tag at off, into *part; *next is where the text goes on.  1 for a
** tag, 0 when "{{" starts no tag (it is then text), -1 on an error. */
static int parse_tag(TplParse *p, size_t off, size_t end, SqPromptPart *part, size_t *next) {
    int kind;
    size_t name, n, after;
    if (!read_tag(p, off, end, &kind, &name, &n, &after)) {
        *next = off + 2;
        return 0;
    }
    int slot = sq_prompt_slot_find(p->text + name, n);
    if (slot < 0) return fail(p, off, "no slot named", p->text + name, n);
    if (track_section(p, kind, slot, off, p->text + name, n) < 0) return -1;
    note_slot(p, kind, slot);
    *part = (SqPromptPart){(uint8_t)kind, (uint8_t)slot, NULL, 0};
    *next = kind == SQ_PART_SLOT ? after : standalone_end(p, off, after, end);
    return 1;
}

/* The message body [off, end) into m. */
static int parse_body(TplParse *p, SqPromptMessage *m, size_t off, size_t end) {
    p->open_slot = -1;
    size_t text_from = off, i = off;
    while (i + 1 < end) {
        if (p->text[i] != '{' || p->text[i + 1] != '{') {
            i++;
            continue;
        }
        SqPromptPart tag = {SQ_PART_TEXT, 0, NULL, 0};
        size_t next = i + 2;
        int rc = parse_tag(p, i, end, &tag, &next);
        if (rc < 0) return -1;
        if (rc > 0) {
            add_text(p, m, text_from, i);
            add_part(p, m, tag);
            text_from = next;
        }
        i = next;
    }
    add_text(p, m, text_from, end);
    if (p->open_slot >= 0) {
        const char *name = sq_prompt_slot_name((SqPromptSlot)p->open_slot);
        return fail(p, p->open_at, "a section is never closed:", name, strlen(name));
    }
    return 0;
}

/* A message's body without the blank lines at its ends: from the first
** line with a visible character, to the end of the last one. */
static void trim_body(const TplParse *p, size_t *off, size_t *end) {
    size_t i = *off;
    while (i < *end && is_blank(p->text[i])) i++;
    while (i > *off && p->text[i - 1] != '\n') i--; /* keep the first line's indentation */
    *off = i;
    while (*end > *off && is_blank(p->text[*end - 1])) (*end)--;
}

/* The message that starts after the marker line [off, nl): to the next
** marker or the end.  Returns the offset of that next marker (or len). */
static size_t message_end(const TplParse *p, size_t off) {
    int role;
    while (off < p->len) {
        size_t e = line_end(p, off);
        if (is_marker(p, off, e, &role)) return off;
        off = e + 1;
    }
    return p->len;
}

int sq_prompt_template_parse(SqArena *a, const char *origin, const char *text, size_t len,
                             SqPromptTemplate *t, SqBuf *err) {
    memset(t, 0, sizeof *t);
    t->origin = origin;
    TplParse p = {a, origin, text ? text : "", text ? len : 0, t, err, -1, 0};
    int seen[2] = {0, 0}, role;
    size_t off = message_end(&p, 0);
    while (off < p.len) {
        size_t e = line_end(&p, off);
        is_marker(&p, off, e, &role);
        if (seen[role]++) return fail(&p, off, role ? "a second @user message" : "a second @system message", NULL, 0);
        size_t body = e < p.len ? e + 1 : e, body_end = message_end(&p, body);
        size_t next = body_end;
        trim_body(&p, &body, &body_end);
        if (parse_body(&p, role ? &t->user : &t->system, body, body_end) < 0) return -1;
        off = next;
    }
    if (!t->user.n_parts) return fail(&p, p.len, "no @user message (or an empty one)", NULL, 0);
    t->optional &= ~t->required;
    return 0;
}

/* ------------------------------------------------------------------ */
/* Rendering                                                           */
/* ------------------------------------------------------------------ */

/* A value without the blank space at its ends: *n bytes from the result;
** NULL when nothing is left (the slot is not known). */
static const char *trimmed(const char *s, size_t *n) {
    if (!s) return NULL;
    size_t len = strlen(s);
    while (len && is_blank(*s)) s++, len--;
    while (len && is_blank(s[len - 1])) len--;
    *n = len;
    return len ? s : NULL;
}

static int is_known(const SqPromptValues *v, int slot) {
    size_t n;
    return trimmed(v->v[slot], &n) != NULL;
}

static void render_message(const SqPromptMessage *m, const SqPromptValues *v, SqBuf *out) {
    size_t from = out->len;
    for (uint32_t i = 0; i < m->n_parts; i++) {
        const SqPromptPart *part = &m->parts[i];
        size_t n;
        const char *s;
        if (part->kind == SQ_PART_TEXT) {
            sq_buf_put(out, part->text, part->len);
        } else if (part->kind == SQ_PART_SLOT && (s = trimmed(v->v[part->slot], &n)) != NULL) {
            sq_buf_put(out, s, n);
        } else if (part->kind == SQ_PART_OPEN && !is_known(v, part->slot)) {
            while (i + 1 < m->n_parts && m->parts[i + 1].kind != SQ_PART_CLOSE) i++;
        }
    }
    while (out->len > from && is_blank(out->data[out->len - 1])) out->len--; /* a dropped last section */
    if (out->data) out->data[out->len] = '\0';
}

int sq_prompt_render(const SqPromptTemplate *t, const SqPromptValues *v, SqBuf *system, SqBuf *user,
                     SqPromptSlot *missing) {
    for (int s = 0; s < SQ_SLOT__COUNT; s++) {
        if ((t->required & (1u << s)) && !is_known(v, s)) {
            *missing = (SqPromptSlot)s;
            return -1;
        }
    }
    render_message(&t->system, v, system);
    render_message(&t->user, v, user);
    return 0;
}
