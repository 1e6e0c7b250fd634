/*
** emit_c.c -- the C bindings of a compiled package, first half: every C
** name the bindings use, worked out once, and the header P.h
** (docs/squint-compile.md, "C bindings").  emit_c_body.c writes the
** source P.c from the same names.
**
** Layer: backend.  Takes the compiled queries (manifest.c's input) and
** gives the text of both files; owns an arena for the names during one
** call.  Nothing here knows SQLite: the generated code does.
**
** Names.  Public names are P_ followed by a query's name (its function),
** that and "Row" (its row type), that and "Row_free", or db, value,
** open, close; two of them the same is refused (sq_cbind_emit_c returns
** -1).  The generated file's own helpers start with sq_, so a package
** named sq is refused too.  Fields and parameters are made C identifiers
** that no keyword, macro or name of the function body can shadow.
*/
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cbind/emit_c_int.h"
#include "runtime/arena.h"
#include "runtime/task.h"
#include "runtime/util.h"

/* ---- identifiers ------------------------------------------------------------ */

/* Words a field or parameter may not be: C's keywords (C23's too) and
** names the standard headers may define as object-like macros. */
static const char *const c_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr", "static_assert", "thread_local", "true",
    "typeof", "typeof_unqual", "noreturn", "complex", "imaginary", "I", "NULL", "errno", "unix", "linux", "i386",
    "asm", "EOF",
};

/* Names a parameter may not take besides c_words: the function's own
** parameters and locals, the types of its prototype, what its body calls. */
static const char *const arg_words[] = {
    "q", "row", "each", "ctx", "changes", "rowid", "stmt", "rc", "slices", "memset",
    "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t",
    "ptrdiff_t", "intptr_t", "uintptr_t", "intmax_t", "uintmax_t", "wchar_t", "sqlite3",
};

static int in_list(const char *s, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[0] == list[i][0] && strcmp(s, list[i]) == 0) return 1;
    return 0;
}


static int is_field_word(const char *s) {
    return in_list(s, c_words, SQ_ARRAY_LEN(c_words)) || sq_starts_with(s, "SQLITE_");
}

static int is_arg_word(const char *s, const char *package) {
    static const char *const prefixes[] = {"sq_", "sqlite3_", "sqlite_", "SQLITE_"};
    for (size_t i = 0; i < SQ_ARRAY_LEN(prefixes); i++)
        if (sq_starts_with(s, prefixes[i])) return 1;
    size_t n = strlen(package);
    if (strncmp(s, package, n) == 0 && s[n] == '_') return 1;
    return is_field_word(s) || in_list(s, arg_words, SQ_ARRAY_LEN(arg_words));
}

/* The longest name made of a column or parameter: with "has_" before it,
** and "_" and "_NN" after, still within the 63 characters C11 keeps
** significant. */
enum { IDENT_MAX = 55 };

/* A C identifier made of s: each run of other characters one '_', none
** at either end ("count(*)" is count, "max(pages)" max_pages); with a
** digit first, fallback_ before it; cut at IDENT_MAX; empty, fallback. */
static char *c_ident(SqArena *a, const char *s, const char *fallback) {
    size_t n = strlen(s), k = 0;
    char *out = sq_arena_alloc(a, n + 1);
    for (size_t i = 0; i < n; i++) {
        if (isalnum((unsigned char)s[i]) && !((unsigned char)s[i] & 0x80)) out[k++] = s[i];
        else if (k && out[k - 1] != '_') out[k++] = '_';
    }
    out[k] = '\0';
    if (isdigit((unsigned char)out[0])) out = sq_arena_printf(a, "%s_%s", fallback, out);
    k = strlen(out) < IDENT_MAX ? strlen(out) : IDENT_MAX;
    while (k && out[k - 1] == '_') k--;
    out[k] = '\0';
    return k ? out : sq_arena_strdup(a, fallback);
}

/* A parameter's C name: its manifest name when that is a usable
** identifier, else one made of it. */
static const char *arg_base(SqArena *a, const char *name, const char *package) {
    const char *base = name;
    size_t n = strlen(name);
    int reserved = name[0] == '_' && (name[1] == '_' || isupper((unsigned char)name[1]));   /* C's own */
    if (!sq_cbind_is_c_identifier(name, n) || n > IDENT_MAX || reserved) base = c_ident(a, name, "arg");
    return is_arg_word(base, package) ? sq_arena_printf(a, "%s_", base) : base;
}

/* ---- unique names in a scope ---------------------------------------------------- */

/* The names taken in one struct or one parameter list. */
typedef struct Scope {
    const char **names;     /* every member or parameter name taken (arena) */
    uint32_t n, cap;
} Scope;

static int scope_has(const Scope *s, const char *name) {
    for (uint32_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) return 1;
    return 0;
}

static void scope_add(SqArena *a, Scope *s, const char *name) { *SQ_ARENA_APPEND(a, s->names, s->n, s->cap) = name; }

/* The first of base, base_2, base_3, ... whose every companion (formats
** such as "has_%s", "%s_len"; "%s" is itself) is free in s; all of them
** taken. */
static const char *take_unique(SqArena *a, Scope *s, const char *base, const char *const *forms, size_t n_forms) {
    for (uint32_t k = 1;; k++) {
        const char *cand = k == 1 ? base : sq_arena_printf(a, "%s_%u", base, k);
        size_t i = 0;
        while (i < n_forms && !scope_has(s, sq_arena_printf(a, forms[i], cand))) i++;
        if (i < n_forms) continue;
        for (i = 0; i < n_forms; i++) scope_add(a, s, sq_arena_printf(a, forms[i], cand));
        return cand;
    }
}

/* ---- each query's names ------------------------------------------------------------ */

CKind cemit_kind(SqType t) {
    switch (t.cls) {
    case SQ_TY_INTEGER: return CK_INT;
    case SQ_TY_REAL: return CK_REAL;
    case SQ_TY_TEXT: return CK_TEXT;
    case SQ_TY_BLOB: return CK_BLOB;
    default: return CK_VALUE;
    }
}

int cemit_has_row(const CQuery *cq) { return cq->q->ann->cmd == SQ_CMD_ONE || cq->q->ann->cmd == SQ_CMD_MANY; }

int cemit_is_slice(const SqParamInfo *p) { return p->macro == SQ_MACRO_SLICE; }

static int by_number(const void *x, const void *y) {
    const SqParamInfo *const *p = x, *const *q = y;
    return (*p)->index < (*q)->index ? -1 : (*p)->index > (*q)->index;
}

/* The parameters in SQLite's order, each with its C name. */
static void name_args(SqArena *a, CQuery *cq, const char *package) {
    const SqSignature *sig = &cq->q->sig;
    cq->n_params = sig->n_params;
    cq->params = sq_arena_alloc(a, (sig->n_params + 1) * sizeof *cq->params);
    cq->args = sq_arena_alloc(a, (sig->n_params + 1) * sizeof *cq->args);
    for (uint32_t i = 0; i < sig->n_params; i++) cq->params[i] = &sig->params[i];
    qsort(cq->params, sig->n_params, sizeof *cq->params, by_number);
    Scope s = {0};
    for (uint32_t i = 0; i < cq->n_params; i++) {
        const SqParamInfo *p = cq->params[i];
        const char *forms[2] = {"%s", cemit_is_slice(p) ? "%s_n" : "%s_len"};
        size_t n_forms = cemit_is_slice(p) || cemit_kind(p->type) == CK_BLOB ? 2 : 1;
        cq->args[i] = take_unique(a, &s, arg_base(a, p->name, package), forms, n_forms);
        if (p->index > cq->top) cq->top = p->index;
        cq->n_slices += cemit_is_slice(p) != 0;
    }
}

/* The result columns' fields: SQLite's names made C identifiers. */
static void name_fields(SqArena *a, CQuery *cq) {
    const SqSignature *sig = &cq->q->sig;
    cq->fields = sq_arena_alloc(a, (sig->n_cols + 1) * sizeof *cq->fields);
    Scope s = {0};
    scope_add(a, &s, "mem_");
    for (uint32_t i = 0; i < sig->n_cols; i++) {
        const SqResultInfo *c = &sig->cols[i];
        const char *forms[3] = {"%s", NULL, NULL};
        size_t n_forms = 1;
        if (c->type.nullable) forms[n_forms++] = "has_%s";
        if (cemit_kind(c->type) == CK_BLOB) forms[n_forms++] = "%s_len";
        const char *base = c_ident(a, c->name, "col");
        if (is_field_word(base)) base = sq_arena_printf(a, "%s_", base);
        cq->fields[i] = take_unique(a, &s, base, forms, n_forms);
    }
}

/* ---- names that may not meet ---------------------------------------------------------- */

/* A name the bindings declare at file scope, and what declares it. */
typedef struct Decl {
    const char *name;       /* "P_GetRow" */
    const char *what;       /* "the row type of the query 'Get'", for the error */
    const SqAnnotation *ann; /* its query's, or NULL for the bindings' own */
} Decl;

static int by_name(const void *x, const void *y) { return strcmp(((const Decl *)x)->name, ((const Decl *)y)->name); }

/* The public names, with what each is. */
static Decl *public_names(SqArena *a, const CPackage *pk, size_t *n) {
    Decl *d = sq_arena_alloc(a, (4 + 3 * pk->n) * sizeof *d);
    static const char *const fixed[] = {"db", "value", "open", "close"};
    const char *p = pk->p;
    size_t k = 0;
    for (size_t i = 0; i < SQ_ARRAY_LEN(fixed); i++)
        d[k++] = (Decl){sq_arena_printf(a, "%s_%s", p, fixed[i]), sq_arena_printf(a, "the bindings' own %s", fixed[i]),
                        NULL};
    for (size_t i = 0; i < pk->n; i++) {
        const char *q = pk->qs[i].name;
        const SqAnnotation *ann = pk->qs[i].q->ann;
        d[k++] = (Decl){sq_arena_printf(a, "%s_%s", p, q), sq_arena_printf(a, "the function of the query '%s'", q), ann};
        if (!cemit_has_row(&pk->qs[i])) continue;
        d[k++] = (Decl){sq_arena_printf(a, "%s_%sRow", p, q), sq_arena_printf(a, "the row type of the query '%s'", q),
                        ann};
        if (ann->cmd != SQ_CMD_ONE) continue;
        d[k++] = (Decl){sq_arena_printf(a, "%s_%sRow_free", p, q),
                        sq_arena_printf(a, "the row freeing function of the query '%s'", q), ann};
    }
    *n = k;
    return d;
}

/* The later of two annotations (file order; the place to report at). */
static const SqAnnotation *later(const SqAnnotation *x, const SqAnnotation *y) {
    if (!x || !y) return x ? x : y;
    if (x->at.file != y->at.file) return x->at.file > y->at.file ? x : y;
    return x->at.start > y->at.start ? x : y;
}

/* Whether two public names are one C name, or the package's name is
** that of the helpers: -1 after an error E0509 in d (at the query that
** makes the second name). */
static int names_clash(SqArena *a, const CPackage *pk, SqDiags *d) {
    if (strcmp(pk->p, "sq") == 0 || sq_starts_with(pk->p, "sq_")) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_C_NAME, sq_span(0, 0, 0),
                                "the package's name '%s' may be neither sq nor start with sq_", pk->p);
        sq_diag_help(g, "the C bindings' own helpers do; choose another name");
        return -1;
    }
    size_t n;
    Decl *decl = public_names(a, pk, &n);
    qsort(decl, n, sizeof *decl, by_name);
    int clashes = 0;
    for (size_t i = 1; i < n; i++) {
        if (strcmp(decl[i - 1].name, decl[i].name) != 0) continue;
        const SqAnnotation *at = later(decl[i - 1].ann, decl[i].ann);
        SqDiag *g = sq_diag_add(d, SQ_SEV_ERROR, SQ_E_C_NAME, at ? at->at : sq_span(0, 0, 0),
                                "the C name '%s' would be both %s and %s", decl[i].name, decl[i - 1].what,
                                decl[i].what);
        sq_diag_help(g, "rename one of the queries");
        clashes++;
    }
    return clashes ? -1 : 0;
}

/* ---- text shared by both files ------------------------------------------------------------ */

void cemit_comment(SqBuf *b, const char *s) {
    for (; *s; s++) {
        size_t run = strcspn(s, "*/?\x7f\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12"
                                "\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f");
        sq_buf_put(b, s, run);   /* what needs no care, as one piece */
        if (!s[run]) return;
        s += run;
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f) sq_buf_putc(b, ' ');
        else sq_buf_putc(b, (char)c);
        if ((c == '*' && s[1] == '/') || (c == '/' && s[1] == '*') || (c == '?' && s[1] == '?')) sq_buf_putc(b, ' ');
    }
}

void cemit_banner(SqBuf *b, const CPackage *pk) {
    sq_buf_printf(b, "%s: do not edit; run squint compile again. */\n/* From", SQ_CBIND_C_MARK);
    for (size_t i = 0; i < pk->n; i++) {
        const SqSrc *src = pk->qs[i].q->src;
        size_t j = 0;
        while (j < i && pk->qs[j].q->src != src) j++;
        if (j < i) continue;
        sq_buf_puts(b, i ? ", " : " ");
        cemit_comment(b, src->name);
    }
    sq_buf_puts(b, pk->n ? ". */\n" : " no query. */\n");
}

/* The type and name of parameter i of cq, one "type name" per C
** parameter, into out (2 at most); gives how many. */
static size_t arg_decls(SqArena *a, const CPackage *pk, const CQuery *cq, uint32_t i, const char **out) {
    const SqParamInfo *p = cq->params[i];
    const char *x = cq->args[i];
    static const char *const one[] = {"int64_t ", "double ", "const char *", "const void *", NULL};
    static const char *const ptr[] = {"const int64_t *", "const double *", "const char *", "const void *", NULL};
    static const char *const list[] = {"const int64_t *", "const double *", "const char *const *", NULL, NULL};
    CKind k = cemit_kind(p->type);
    const char *type = (cemit_is_slice(p) ? list : p->type.nullable ? ptr : one)[k];
    out[0] = type ? sq_arena_printf(a, "%s%s", type, x) : sq_arena_printf(a, "const %s_value *%s", pk->p, x);
    if (cemit_is_slice(p)) out[1] = sq_arena_printf(a, "size_t %s_n", x);
    else if (k == CK_BLOB) out[1] = sq_arena_printf(a, "size_t %s_len", x);
    else return 1;
    return 2;
}

/* What follows the parameters, by command. */
static size_t tail_decls(SqArena *a, const CPackage *pk, const CQuery *cq, const char **out) {
    switch (cq->q->ann->cmd) {
    case SQ_CMD_ONE: out[0] = sq_arena_printf(a, "%s_%sRow *row", pk->p, cq->name); return 1;
    case SQ_CMD_MANY:
        out[0] = sq_arena_printf(a, "int (*each)(void *ctx, const %s_%sRow *row)", pk->p, cq->name);
        out[1] = "void *ctx";
        return 2;
    case SQ_CMD_EXECROWS: out[0] = "int64_t *changes"; return 1;
    case SQ_CMD_EXECLASTID: out[0] = "int64_t *rowid"; return 1;
    default: return 0;
    }
}

void cemit_signature(SqBuf *b, const CPackage *pk, const CQuery *cq) {
    SqArena *a = sq_arena_new();
    const char **decls = sq_arena_alloc(a, (2 * cq->n_params + 3) * sizeof *decls);
    size_t n = 0, len = 0;
    decls[n++] = sq_arena_printf(a, "%s_db *q", pk->p);
    for (uint32_t i = 0; i < cq->n_params; i++) n += arg_decls(a, pk, cq, i, decls + n);
    n += tail_decls(a, pk, cq, decls + n);
    for (size_t i = 0; i < n; i++) len += strlen(decls[i]) + 2;
    size_t head = strlen(pk->p) + strlen(cq->name) + 6;   /* "int P_Name(" */
    sq_buf_printf(b, "int %s_%s(", pk->p, cq->name);
    for (size_t i = 0; i < n; i++) {
        if (i) sq_buf_puts(b, head + len > 100 ? ",\n    " : ", ");
        else if (head + len > 100) sq_buf_puts(b, "\n    ");
        sq_buf_puts(b, decls[i]);
    }
    sq_buf_putc(b, ')');
    sq_arena_free(a);
}

/* ---- the header ------------------------------------------------------------------------ */

static void header_top(SqBuf *h, const CPackage *pk, const char *guard) {
    const char *p = pk->p;
    cemit_banner(h, pk);
    sq_buf_printf(h, "/*\n** %s -- the C bindings of the package %s: one function per query, over\n** SQLite.\n**\n",
                  pk->header_name, p);
    sq_buf_printf(h, "**   %s_db *q = %s_open(db);   ... %s_GetThing(q, ...) ...   %s_close(q);\n**\n", p, p, p, p);
    sq_buf_printf(h, "** A %s_db holds the prepared statements of one connection: each query is\n"
                     "** prepared on its first call and kept (a query with a slice: prepared for\n"
                     "** each call).  One thread at a time uses a %s_db.  Every function returns\n"
                     "** an SQLite result code, and sqlite3_errmsg(db) tells more; a query called\n"
                     "** again from inside its own :many callback returns SQLITE_MISUSE.\n"
                     "** Parameters are copied when bound: the caller keeps its own.  A value\n"
                     "** read is converted to its column's type only without loss (an integer\n"
                     "** to a double, a number to the text SQLite writes for it); any other\n"
                     "** (text or a blob as a number, a blob as text, a fraction as an integer)\n"
                     "** stops the query with SQLITE_MISMATCH.\n*/\n",
                  p, p);
    sq_buf_printf(h, "#ifndef %s\n#define %s\n\n", guard, guard);
    sq_buf_puts(h, "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n\n#include <sqlite3.h>\n\n");
    sq_buf_puts(h, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
    sq_buf_printf(h, "/* A value of any type: a column or parameter typed any or NUMERIC. */\n"
                     "typedef struct %s_value {\n"
                     "    int type;           /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or "
                     "SQLITE_NULL */\n"
                     "    int64_t i;          /* SQLITE_INTEGER's value */\n"
                     "    double r;           /* SQLITE_FLOAT's value */\n"
                     "    const void *p;      /* SQLITE_TEXT's bytes (NUL-terminated) or SQLITE_BLOB's */\n"
                     "    size_t len;         /* their length, without the NUL */\n"
                     "} %s_value;\n\n",
                  p, p);
    sq_buf_printf(h, "/* The prepared statements of one connection. */\ntypedef struct %s_db %s_db;\n\n", p, p);
    sq_buf_printf(h, "/* A %s_db over db, which stays the caller's: NULL when out of memory. */\n"
                     "%s_db *%s_open(sqlite3 *db);\n\n",
                  p, p, p);
    sq_buf_printf(h, "/* Finalizes the statements and frees q (NULL is fine); db stays open. */\n"
                     "void %s_close(%s_db *q);\n",
                  p, p);
}

/* A row's members, each with what it is, printed aligned. */
typedef struct Member {
    const char *decl;       /* "int64_t author_id;" */
    const char *note;       /* its comment's text */
} Member;

typedef struct Members {
    Member *items;          /* in the struct's order (arena) */
    uint32_t n, cap;
} Members;

static void member(SqArena *a, Members *m, const char *decl, const char *note) {
    *SQ_ARENA_PUSH(a, m) = (Member){decl, note};
}

/* What column a field is: its name, type and table column. */
static const char *column_note(SqArena *a, const SqResultInfo *c) {
    SqBuf b = SQ_BUF_INIT;
    cemit_comment(&b, c->name);
    sq_buf_printf(&b, ": %s%s", sq_cbind_type_name(c->type), c->type.nullable ? " or NULL" : "");
    if (c->table && c->column) {
        sq_buf_puts(&b, ", ");
        cemit_comment(&b, c->table);
        sq_buf_putc(&b, '.');
        cemit_comment(&b, c->column);
    }
    const char *note = sq_arena_strdup(a, b.data);
    sq_buf_free(&b);
    return note;
}

/* The members of column c's field x: has_x, x, x_len. */
static void row_field(SqArena *a, Members *m, const SqResultInfo *c, const char *x, const char *p) {
    static const char *const types[] = {"int64_t ", "double ", "const char *", "const void *", NULL};
    CKind k = cemit_kind(c->type);
    if (c->type.nullable)
        member(a, m, sq_arena_printf(a, "bool has_%s;", x), sq_arena_printf(a, "false when %s is NULL", x));
    const char *decl = types[k] ? sq_arena_printf(a, "%s%s;", types[k], x) : sq_arena_printf(a, "%s_value %s;", p, x);
    member(a, m, decl, column_note(a, c));
    if (k == CK_BLOB) member(a, m, sq_arena_printf(a, "size_t %s_len;", x), "its length");
}

static void put_members(SqBuf *h, const Members *m) {
    size_t w = 0;
    for (uint32_t i = 0; i < m->n; i++)
        if (strlen(m->items[i].decl) > w) w = strlen(m->items[i].decl);
    for (uint32_t i = 0; i < m->n; i++) {
        sq_buf_puts(h, "    ");
        sq_buf_puts(h, m->items[i].decl);
        sq_buf_repeat(h, ' ', w - strlen(m->items[i].decl) + 3);
        sq_buf_printf(h, "/* %s */\n", m->items[i].note);
    }
}

static void row_type(SqBuf *h, SqArena *a, const CPackage *pk, const CQuery *cq) {
    const SqSignature *sig = &cq->q->sig;
    int is_one = cq->q->ann->cmd == SQ_CMD_ONE;
    Members m = {0};
    for (uint32_t i = 0; i < sig->n_cols; i++) row_field(a, &m, &sig->cols[i], cq->fields[i], pk->p);
    if (is_one)
        member(a, &m, "void *mem_;", sq_arena_printf(a, "its text and blobs: %s_%sRow_free frees them", pk->p,
                                                     cq->name));
    else if (!sig->n_cols) member(a, &m, "char unused;", "no column (ISO C wants a member)");
    sq_buf_printf(h, "\n/* A row of %s%s. */\ntypedef struct %s_%sRow {\n", cq->name,
                  is_one ? ": the row owns its text and blobs" : ": valid during the callback only", pk->p, cq->name);
    put_members(h, &m);
    sq_buf_printf(h, "} %s_%sRow;\n", pk->p, cq->name);
}

/* Comment-safe text as the start of a block comment, wrapped before
** column 90 ("\n" breaks a line); the caller closes it. */
static void put_wrapped(SqBuf *b, const char *text) {
    size_t col = 3;
    int space = 0;
    sq_buf_puts(b, "/* ");
    for (const char *s = text; *s;) {
        size_t w = strcspn(s, " \n");
        if (*s == ' ' || *s == '\n') {
            if (*s == '\n') sq_buf_puts(b, "\n**"), col = 2;
            space = *s++ == ' ' || col == 2;
            continue;
        }
        if (col > 3 && col + space + w > 90) sq_buf_puts(b, "\n**"), col = 2, space = 1;
        if (space) sq_buf_putc(b, ' '), col++;
        sq_buf_put(b, s, w);
        col += w, s += w, space = 0;
    }
}

/* A query's SQL inside its comment, a line for each (twelve at most). */
static void put_sql_lines(SqBuf *h, const char *sql) {
    SqBuf line = SQ_BUF_INIT;
    sq_buf_puts(h, "\n**");
    for (int n = 0; *sql && n < 12; n++) {
        size_t len = strcspn(sql, "\n");
        sq_buf_reset(&line);
        sq_buf_put(&line, sql, len);
        sq_buf_puts(h, "\n**     ");
        cemit_comment(h, sq_buf_str(&line));
        sql += len + (sql[len] == '\n');
    }
    if (*sql) sq_buf_puts(h, "\n**     ...");
    sq_buf_free(&line);
}

/* The comment before a query's prototype: where it is, what it returns,
** its SQL. */
static void function_comment(SqBuf *h, const CPackage *pk, const CQuery *cq) {
    static const char *const returns[] = {
        [SQ_CMD_ONE] = "SQLITE_ROW with the first row in *row (free it with %s_%sRow_free), SQLITE_DONE when there is "
                       "none (*row zeroed), or an error.",
        [SQ_CMD_MANY] = "calls each(ctx, row) for every row: SQLITE_OK after the last, SQLITE_ABORT when each returned "
                        "nonzero (which stops the query), or an error.",
        [SQ_CMD_EXEC] = "SQLITE_OK, or an error.",
        [SQ_CMD_EXECROWS] = "SQLITE_OK with the number of rows changed in *changes, or an error.",
        [SQ_CMD_EXECLASTID] = "SQLITE_OK with the rowid of the last row inserted in *rowid, or an error.",
    };
    SqSrcPos pos = sq_src_locate(cq->q->src, cq->q->ann->stmt.start);
    SqBuf text = SQ_BUF_INIT;
    sq_buf_printf(&text, "%s (", cq->name);
    cemit_comment(&text, cq->q->src->name);
    sq_buf_printf(&text, ":%u, %s): ", pos.line, sq_query_cmd_name((SqQueryCmd)cq->q->ann->cmd));
    sq_buf_printf(&text, returns[cq->q->ann->cmd], pk->p, cq->name);
    for (uint32_t i = 0; i < cq->n_params; i++) {
        const char *x = cq->args[i];
        if (cemit_is_slice(cq->params[i]))
            sq_buf_printf(&text, "\n%s: a list of %s_n values (%s may be NULL when %s_n is 0: IN () is false).", x,
                          x, x, x);
    }
    if (cq->n_slices)
        sq_buf_puts(&text, "\nSQLITE_RANGE when the lists hold more values than SQLite takes parameters.");
    sq_buf_puts(h, "\n");
    put_wrapped(h, text.data);
    put_sql_lines(h, cq->q->sql);
    sq_buf_puts(h, "\n*/\n");
    sq_buf_free(&text);
}

static void query_decls(SqBuf *h, SqArena *a, const CPackage *pk, const CQuery *cq) {
    sq_buf_printf(h, "\n/* ---- %s ---- */\n", cq->name);
    if (cemit_has_row(cq)) row_type(h, a, pk, cq);
    function_comment(h, pk, cq);
    cemit_signature(h, pk, cq);
    sq_buf_puts(h, ";\n");
    if (cq->q->ann->cmd != SQ_CMD_ONE) return;
    sq_buf_printf(h, "\n/* Frees the text and blobs a row of %s holds, and zeroes the row: safe on\n"
                     "** a zeroed row and on one freed before. */\nvoid %s_%sRow_free(%s_%sRow *row);\n",
                  cq->name, pk->p, cq->name, pk->p, cq->name);
}

/* The header: its include guard is SQUINT_P_H, P in capitals. */
static void emit_header(SqBuf *h, const CPackage *pk, SqArena *a) {
    char *guard = sq_arena_printf(a, "SQUINT_%s_H", pk->p);
    for (char *s = guard; *s; s++) *s = (char)toupper((unsigned char)*s);
    header_top(h, pk, guard);
    for (size_t i = 0; i < pk->n; i++) query_decls(h, a, pk, &pk->qs[i]);
    sq_buf_printf(h, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s */\n", guard);
}

/* ---- the entry point ----------------------------------------------------------------------- */

typedef struct SourceJob {
    SqBuf *out;
    const CPackage *pk;
} SourceJob;

static void source_job(void *arg) {
    SourceJob *j = arg;
    cemit_source(j->out, j->pk);
}

int sq_cbind_emit_c(SqBuf *header, SqBuf *source, const char *package, const SqCompiledQuery *qs, size_t n,
                    SqDiags *d) {
    SqArena *a = sq_arena_new();
    CPackage pk = {package, sq_arena_alloc(a, (n + 1) * sizeof(CQuery)), n, sq_arena_printf(a, "%s.h", package)};
    for (size_t i = 0; i < n; i++) {
        CQuery *cq = &pk.qs[i];
        memset(cq, 0, sizeof *cq);
        cq->q = &qs[i];
        cq->name = qs[i].ann->name;
        cq->slot = (uint32_t)i;
        name_args(a, cq, package);
        name_fields(a, cq);
    }
    int rc = names_clash(a, &pk, d);
    if (rc == 0) {
        /* the source on a thread of its own while the header is written
        ** here: both only read pk, and the source's arenas are its own */
        for (size_t i = 0; i < n; i++) sq_src_index(qs[i].src);
        SourceJob job = {source, &pk};
        SqTask *t = sq_task_start(source_job, &job);
        emit_header(header, &pk, a);
        sq_task_join(t);
    }
    sq_arena_free(a);
    return rc;
}
