/*
** smt_str.c -- TEXT values as z3 strings: literals, the model's strings,
** BINARY comparison and the regular expressions the other string code
** builds on.
**
** Layer: passes.  A z3 string is a sequence of Unicode code points, and
** SQLite's TEXT is UTF-8: a character of one is a character of the other,
** so length(), substr() and LIKE's `_` count alike, and comparing code
** points in order is comparing UTF-8 bytes with memcmp (BINARY).  z3's C
** API reads and writes strings with \u{...} escapes; the conversion both
** ways is here.
*/
#include <stdio.h>
#include <string.h>

#include "passes/smt/smt_int.h"

/* ---- UTF-8 and z3's escapes -------------------------------------------------- */

uint32_t smt_utf8_next(const unsigned char *s, uint32_t n, uint32_t *i) {
    uint32_t c = s[(*i)++];
    int more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (c < 0xC0) return c;
    c &= 0x3F >> more;
    while (more-- > 0 && *i < n && (s[*i] & 0xC0) == 0x80) c = (c << 6) | (s[(*i)++] & 0x3F);
    return c;
}

static void utf8_put(SqBuf *b, uint32_t c) {
    if (c < 0x80) {
        sq_buf_putc(b, (char)c);
    } else if (c < 0x800) {
        sq_buf_putc(b, (char)(0xC0 | c >> 6));
        sq_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        sq_buf_putc(b, (char)(0xE0 | c >> 12));
        sq_buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        sq_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    } else {
        sq_buf_putc(b, (char)(0xF0 | c >> 18));
        sq_buf_putc(b, (char)(0x80 | ((c >> 12) & 0x3F)));
        sq_buf_putc(b, (char)(0x80 | ((c >> 6) & 0x3F)));
        sq_buf_putc(b, (char)(0x80 | (c & 0x3F)));
    }
}

Z3_ast smt_str_lit(SqSmt *s, const char *str, uint32_t n) {
    SqBuf b = SQ_BUF_IN(s->arena);
    for (uint32_t i = 0; i < n;) {
        uint32_t c = smt_utf8_next((const unsigned char *)str, n, &i);
        if (c >= 0x20 && c < 0x7F && c != '\\') sq_buf_putc(&b, (char)c);
        else sq_buf_printf(&b, "\\u{%x}", c);
    }
    smt_count(s, 1);
    Z3_ast t = Z3_mk_string(s->z, sq_buf_str(&b));
    sq_buf_free(&b);
    return t;
}

/* A hex digit's value, or -1. */
static int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

const char *smt_str_decode(SqSmt *s, const char *z3s) {
    SqBuf b = SQ_BUF_IN(s->arena);
    for (const char *p = z3s; *p;) {
        if (p[0] == '\\' && p[1] == 'u' && p[2] == '{') {
            uint32_t c = 0;
            const char *q = p + 3;
            while (hex(*q) >= 0) c = c * 16 + (uint32_t)hex(*q++);
            if (*q == '}' && q > p + 3) {
                utf8_put(&b, c);
                p = q + 1;
                continue;
            }
        }
        sq_buf_putc(&b, *p++);
    }
    const char *out = sq_arena_strdup(s->arena, sq_buf_str(&b));
    sq_buf_free(&b);
    return out;
}

/* ---- comparison ------------------------------------------------------------------ */

int smt_is_str(SqSmt *s, Z3_ast t) { return Z3_is_string_sort(s->z, Z3_get_sort(s->z, t)); }

/* upper(x) or lower(x) = 'c': x is one of the strings that fold to c. */
static Z3_ast fold_equals(SqSmt *s, Z3_ast folded, Z3_ast c) {
    Z3_ast arg;
    int to_lower;
    if (!Z3_is_string(s->z, c) || !smt_fold_of(s, folded, &arg, &to_lower)) return NULL;
    Z3_ast re = smt_folds_to(s, smt_str_decode(s, Z3_get_string(s->z, c)), to_lower);
    return re ? smt_in_re(s, arg, re) : smt_false(s);
}

/* The strings above the constant c in BINARY order (or equal to it too):
** a regular expression, which z3's solver handles much better than str.<
** against regular-expression constraints on the same string.  Above c:
** c's first i characters, then a greater one, then anything; or c itself
** followed by at least one character. */
static Z3_ast re_above(SqSmt *s, const char *c, int or_equal) {
    uint32_t n = (uint32_t)strlen(c), i = 0;
    Z3_ast any = smt_re_any(s), rest = smt_re_star(s, any);
    Z3_ast prefix = smt_re_lit(s, ""), r = NULL;
    while (i < n) {
        uint32_t start = i, ch = smt_utf8_next((const unsigned char *)c, n, &i);
        if (ch < SMT_MAX_CHAR) {
            Z3_ast alt = smt_re_concat(s, (Z3_ast[]){prefix, smt_re_range(s, ch + 1, SMT_MAX_CHAR), rest}, 3);
            r = r ? smt_re_union(s, r, alt) : alt;
        }
        prefix = smt_re_concat(s, (Z3_ast[]){prefix, Z3_mk_seq_to_re(s->z, smt_str_lit(s, c + start, i - start))}, 2);
    }
    smt_count(s, 2);
    Z3_ast longer = smt_re_concat(s, (Z3_ast[]){prefix, Z3_mk_re_plus(s->z, any)}, 2);
    r = r ? smt_re_union(s, r, longer) : longer;
    return or_equal ? smt_re_union(s, r, prefix) : r;
}

/* a op c for a constant c, as a membership; NULL when c is not ASCII-free
** of NUL (the literal's text is what the regular expression needs). */
static Z3_ast compare_constant(SqSmt *s, int op, Z3_ast a, Z3_ast c) {
    if (!Z3_is_string(s->z, c) || Z3_is_string(s->z, a)) return NULL;
    const char *text = smt_str_decode(s, Z3_get_string(s->z, c));
    switch (op) {
    case AST_OP_GT: return smt_in_re(s, a, re_above(s, text, 0));
    case AST_OP_GE: return smt_in_re(s, a, re_above(s, text, 1));
    case AST_OP_LT: return smt_not(s, smt_in_re(s, a, re_above(s, text, 1)));
    case AST_OP_LE: return smt_not(s, smt_in_re(s, a, re_above(s, text, 0)));
    default: return NULL;
    }
}

/* ---- slices: comparisons of a known substring ------------------------------------- */

void smt_note_slice(SqSmt *s, Z3_ast term, Z3_ast where, Z3_ast x, uint32_t at, uint32_t n, Z3_ast other) {
    for (uint32_t i = 0; i < s->n_slices; i++)
        if (s->slices[i].term == term) return;
    *SQ_ARENA_APPEND(s->arena, s->slices, s->n_slices, s->cap_slices) = (struct SmtSlice){term, where, x, other, at, n};
}

static const struct SmtSlice *find_slice(SqSmt *s, Z3_ast term) {
    for (uint32_t i = 0; i < s->n_slices; i++)
        if (s->slices[i].term == term) return &s->slices[i];
    return NULL;
}

/* Exactly n of any character. */
static Z3_ast re_any_n(SqSmt *s, uint32_t n) {
    Z3_ast r = smt_re_lit(s, "");
    for (uint32_t i = 0; i < n; i++) r = smt_re_concat(s, (Z3_ast[]){r, smt_re_any(s)}, 2);
    return r;
}

/* The strings of c's length (n code points) above c (below c when
** `below`), or equal to it too: c's first i characters, then a greater
** (smaller) one, then any n - i - 1 characters. */
static Z3_ast re_same_length(SqSmt *s, const char *c, uint32_t n, int below, int or_equal) {
    uint32_t len = (uint32_t)strlen(c), i = 0, k = 0;
    Z3_ast prefix = smt_re_lit(s, ""), r = NULL;
    while (i < len) {
        uint32_t start = i, ch = smt_utf8_next((const unsigned char *)c, len, &i);
        k++;
        if (below ? ch > 0 : ch < SMT_MAX_CHAR) {
            Z3_ast step = below ? smt_re_range(s, 0, ch - 1) : smt_re_range(s, ch + 1, SMT_MAX_CHAR);
            Z3_ast alt = smt_re_concat(s, (Z3_ast[]){prefix, step, re_any_n(s, n - k)}, 3);
            r = r ? smt_re_union(s, r, alt) : alt;
        }
        prefix = smt_re_concat(s, (Z3_ast[]){prefix, Z3_mk_seq_to_re(s->z, smt_str_lit(s, c + start, i - start))}, 2);
    }
    if (or_equal) r = r ? smt_re_union(s, r, prefix) : prefix;
    if (!r) { /* nothing above the largest string, below the empty one */
        smt_count(s, 1);
        r = Z3_mk_re_empty(s->z, Z3_mk_re_sort(s->z, Z3_mk_string_sort(s->z)));
    }
    return r;
}

/* term op c when term is a noted slice and c a constant of its length:
** where the slice is, a membership of x; elsewhere the comparison of the
** other value.  NULL when that does not apply. */
static Z3_ast slice_compare(SqSmt *s, int op, Z3_ast term, Z3_ast c) {
    const struct SmtSlice *sl = find_slice(s, term);
    if (!sl || !Z3_is_string(s->z, c)) return NULL;
    const char *text = smt_str_decode(s, Z3_get_string(s->z, c));
    uint32_t len = (uint32_t)strlen(text), n = 0;
    for (uint32_t i = 0; i < len; n++) smt_utf8_next((const unsigned char *)text, len, &i);
    if (n != sl->n) return NULL;
    Z3_ast r;
    switch (op) {
    case AST_OP_EQ: case AST_OP_NE: r = smt_re_lit(s, text); break;
    case AST_OP_LT: r = re_same_length(s, text, n, 1, 0); break;
    case AST_OP_LE: r = re_same_length(s, text, n, 1, 1); break;
    case AST_OP_GT: r = re_same_length(s, text, n, 0, 0); break;
    default: r = re_same_length(s, text, n, 0, 1); break;
    }
    Z3_ast rest = smt_re_star(s, smt_re_any(s));
    Z3_ast in = smt_in_re(s, sl->x, smt_re_concat(s, (Z3_ast[]){re_any_n(s, sl->at), r, rest}, 3));
    if (op == AST_OP_NE) in = smt_not(s, in);
    return smt_ite(s, sl->where, in, smt_str_compare(s, op, sl->other, c));
}

/* z3 4.8 proves little about str.< by itself: where two strings are
** ordered, say that one comes first unless they are equal. */
static void order_total(SqSmt *s, Z3_ast a, Z3_ast b) {
    if (Z3_get_ast_id(s->z, b) < Z3_get_ast_id(s->z, a)) {
        Z3_ast t = a;
        a = b;
        b = t;
    }
    smt_count(s, 4);
    Z3_ast c[3] = {Z3_mk_str_lt(s->z, a, b), Z3_mk_str_lt(s->z, b, a), Z3_mk_eq(s->z, a, b)};
    smt_lemma(s, Z3_mk_or(s->z, 3, c));
}

Z3_ast smt_str_compare(SqSmt *s, int op, Z3_ast a, Z3_ast b) {
    Z3_ast sliced = slice_compare(s, op, a, b);
    if (!sliced) sliced = slice_compare(s, ast_op_flip((AstOp)op), b, a);
    if (sliced) return sliced;
    if (op == AST_OP_EQ || op == AST_OP_NE) {
        Z3_ast eq = fold_equals(s, a, b);
        if (!eq) eq = fold_equals(s, b, a);
        if (eq) return op == AST_OP_EQ ? eq : smt_not(s, eq);
    } else {
        Z3_ast r = compare_constant(s, op, a, b);
        if (!r) r = compare_constant(s, ast_op_flip((AstOp)op), b, a);
        if (r) return r;
    }
    smt_count(s, 2);
    if (op != AST_OP_EQ && op != AST_OP_NE) order_total(s, a, b);
    switch (op) {
    case AST_OP_EQ: return Z3_mk_eq(s->z, a, b);
    case AST_OP_NE: return Z3_mk_not(s->z, Z3_mk_eq(s->z, a, b));
    case AST_OP_LT: return Z3_mk_str_lt(s->z, a, b);
    case AST_OP_LE: return Z3_mk_str_le(s->z, a, b);
    case AST_OP_GT: return Z3_mk_str_lt(s->z, b, a);
    default: return Z3_mk_str_le(s->z, b, a);
    }
}

/* ---- regular expressions ---------------------------------------------------------- */

Z3_ast smt_re_lit(SqSmt *s, const char *str) {
    smt_count(s, 1);
    return Z3_mk_seq_to_re(s->z, smt_str_lit(s, str, (uint32_t)strlen(str)));
}

Z3_ast smt_re_range(SqSmt *s, uint32_t lo, uint32_t hi) {
    char a[16], b[16];
    snprintf(a, sizeof a, "\\u{%x}", lo);
    snprintf(b, sizeof b, "\\u{%x}", hi);
    smt_count(s, 3);
    return Z3_mk_re_range(s->z, Z3_mk_string(s->z, a), Z3_mk_string(s->z, b));
}

Z3_ast smt_re_union(SqSmt *s, Z3_ast a, Z3_ast b) {
    smt_count(s, 1);
    return Z3_mk_re_union(s->z, 2, (Z3_ast[]){a, b});
}

Z3_ast smt_re_concat(SqSmt *s, Z3_ast *parts, uint32_t n) {
    smt_count(s, 1);
    if (n == 0) return smt_re_lit(s, "");
    return n == 1 ? parts[0] : Z3_mk_re_concat(s->z, n, parts);
}

Z3_ast smt_re_star(SqSmt *s, Z3_ast r) {
    smt_count(s, 1);
    return Z3_mk_re_star(s->z, r);
}

Z3_ast smt_re_any(SqSmt *s) { return smt_re_range(s, 0, SMT_MAX_CHAR); }

Z3_ast smt_in_re(SqSmt *s, Z3_ast str, Z3_ast re) {
    smt_count(s, 1);
    return Z3_mk_seq_in_re(s->z, str, re);
}

/* C's isspace in the C locale, which SQLite's number reader uses. */
Z3_ast smt_re_space(SqSmt *s) { return smt_re_union(s, smt_re_lit(s, " "), smt_re_range(s, '\t', '\r')); }

Z3_ast smt_re_digit(SqSmt *s) { return smt_re_range(s, '0', '9'); }

/* The text sq_text_is_number accepts: blanks, a sign, digits with an
** optional point (at least one digit), an exponent with digits, blanks. */
Z3_ast smt_re_number(SqSmt *s) {
    Z3_ast d = smt_re_digit(s);
    Z3_ast ds = smt_re_star(s, d);
    Z3_ast d1 = Z3_mk_re_plus(s->z, d);
    Z3_ast sign = Z3_mk_re_option(s->z, smt_re_union(s, smt_re_lit(s, "+"), smt_re_lit(s, "-")));
    Z3_ast point = smt_re_lit(s, ".");
    Z3_ast int_part = smt_re_concat(s, (Z3_ast[]){d1, Z3_mk_re_option(s->z, smt_re_concat(s, (Z3_ast[]){point, ds}, 2))}, 2);
    Z3_ast frac_only = smt_re_concat(s, (Z3_ast[]){point, d1}, 2);
    Z3_ast e = smt_re_union(s, smt_re_lit(s, "e"), smt_re_lit(s, "E"));
    Z3_ast exp = Z3_mk_re_option(s->z, smt_re_concat(s, (Z3_ast[]){e, sign, d1}, 3));
    Z3_ast ws = smt_re_star(s, smt_re_space(s));
    smt_count(s, 4);
    return smt_re_concat(s, (Z3_ast[]){ws, sign, smt_re_union(s, int_part, frac_only), exp, ws}, 5);
}

/* ---- terms ---------------------------------------------------------------------------- */

Z3_ast smt_str_len(SqSmt *s, Z3_ast str) {
    smt_count(s, 1);
    return Z3_mk_seq_length(s->z, str);
}

Z3_ast smt_str_concat(SqSmt *s, Z3_ast a, Z3_ast b) {
    smt_count(s, 1);
    return Z3_mk_seq_concat(s->z, 2, (Z3_ast[]){a, b});
}

Z3_ast smt_fresh_const(SqSmt *s, const char *prefix, Z3_sort sort) {
    char name[48];
    snprintf(name, sizeof name, "%s!%u", prefix, s->n_fresh++);
    smt_count(s, 1);
    return Z3_mk_const(s->z, Z3_mk_string_symbol(s->z, name), sort);
}

/* ---- a regular expression from its text ------------------------------------------ */

/* A small syntax for the fixed expressions other files need: literal ASCII
** characters, classes [abc] and [a-z], groups (x|y|z) and concatenation.
** Malformed text is a bug of the caller: it is refused while building. */
static Z3_ast re_alt(SqSmt *s, const char **p);

static Z3_ast re_class(SqSmt *s, const char **p) {
    Z3_ast r = NULL;
    while (**p && **p != ']') {
        uint32_t lo = (unsigned char)*(*p)++, hi = lo;
        if (**p == '-' && (*p)[1] && (*p)[1] != ']') {
            hi = (unsigned char)(*p)[1];
            *p += 2;
        }
        Z3_ast one = smt_re_range(s, lo, hi);
        r = r ? smt_re_union(s, r, one) : one;
    }
    if (**p != ']' || !r) smt_unsupported(s, (SrcSpan){0}, "a malformed regular expression (a bug)");
    (*p)++;
    return r;
}

static Z3_ast re_seq(SqSmt *s, const char **p) {
    Z3_ast parts[64];
    uint32_t n = 0;
    while (**p && **p != '|' && **p != ')' && n < 64) {
        char c = *(*p)++;
        if (c == '[') {
            parts[n++] = re_class(s, p);
        } else if (c == '(') {
            parts[n++] = re_alt(s, p);
            if (*(*p)++ != ')') smt_unsupported(s, (SrcSpan){0}, "a malformed regular expression (a bug)");
        } else {
            parts[n++] = smt_re_range(s, (unsigned char)c, (unsigned char)c);
        }
    }
    return smt_re_concat(s, parts, n);
}

static Z3_ast re_alt(SqSmt *s, const char **p) {
    Z3_ast r = re_seq(s, p);
    while (**p == '|') {
        (*p)++;
        r = smt_re_union(s, r, re_seq(s, p));
    }
    return r;
}

Z3_ast smt_re_parse(SqSmt *s, const char *text) {
    const char *p = text;
    Z3_ast r = re_alt(s, &p);
    if (*p) smt_unsupported(s, (SrcSpan){0}, "a malformed regular expression (a bug)");
    return r;
}
