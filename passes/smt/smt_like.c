/*
** smt_like.c -- LIKE and GLOB patterns as z3 regular expressions.
**
** Layer: passes.  A pattern whose text is known becomes a regular
** expression over code points, and the match a membership test:
**
**   LIKE  `%` any string, `_` one character, an ASCII letter either case
**         (SQLite's default, case_sensitive_like off), the ESCAPE
**         character makes the next one literal; an ESCAPE at the very end
**         makes the pattern match nothing, as in SQLite;
**   GLOB  `*` any string, `?` one character, `[...]` one character of a
**         class (ranges `a-z`, `^` negates, `]` first is literal), case
**         sensitive; a class left open matches nothing.
**
** A LIKE pattern with at most one '%', at its start or its end, is
** written instead as conditions on the positions of the string
** (like_positions), which z3 decides much faster.  A pattern computed
** from the row is left to the caller (uninterpreted).
*/
#include "passes/smt/smt_int.h"

static Z3_ast one(SqSmt *s, uint32_t c) { return smt_re_range(s, c, c); }

Z3_ast smt_re_either_case(SqSmt *s, uint32_t c) {
    if (c >= 'a' && c <= 'z') return smt_re_union(s, one(s, c), one(s, c - 32));
    if (c >= 'A' && c <= 'Z') return smt_re_union(s, one(s, c), one(s, c + 32));
    return one(s, c);
}

/* A GLOB class starting after '[' at p[*i]; NULL when it is not closed. */
static Z3_ast glob_class(SqSmt *s, const unsigned char *p, uint32_t n, uint32_t *i) {
    int negate = 0;
    if (*i < n && p[*i] == '^') {
        negate = 1;
        (*i)++;
    }
    Z3_ast set = NULL;
    int first = 1;
    for (;;) {
        if (*i >= n) return NULL;
        if (p[*i] == ']' && !first) {
            (*i)++;
            break;
        }
        uint32_t lo = smt_utf8_next(p, n, i), hi = lo;
        if (*i + 1 < n && p[*i] == '-' && p[*i + 1] != ']') {
            (*i)++;
            hi = smt_utf8_next(p, n, i);
        }
        Z3_ast r = lo <= hi ? smt_re_range(s, lo, hi) : NULL; /* a reversed range matches nothing */
        if (r) set = set ? smt_re_union(s, set, r) : r;
        first = 0;
    }
    smt_count(s, 3);
    if (!set) set = Z3_mk_re_empty(s->z, Z3_mk_re_sort(s->z, Z3_mk_string_sort(s->z)));
    if (!negate) return set;
    return Z3_mk_re_intersect(s->z, 2, (Z3_ast[]){smt_re_any(s), Z3_mk_re_complement(s->z, set)});
}

/* One character of a LIKE pattern: a literal (code point c, its bytes at
** pat + at, len of them), '_' or '%'. */
typedef struct LikeItem {
    enum { LIKE_CHAR, LIKE_ONE, LIKE_ANY } kind;
    uint32_t c, at, len;
} LikeItem;

/* The pattern's items; 0 when an ESCAPE ends it (it matches nothing). */
static int like_items(const char *pat, uint32_t n, int esc, LikeItem *items, uint32_t *m) {
    const unsigned char *p = (const unsigned char *)pat;
    *m = 0;
    for (uint32_t i = 0; i < n;) {
        uint32_t at = i, c = smt_utf8_next(p, n, &i);
        LikeItem it = {LIKE_CHAR, c, at, i - at};
        if (esc >= 0 && c == (uint32_t)esc) {
            if (i >= n) return 0;
            it.at = i;
            it.c = smt_utf8_next(p, n, &i);
            it.len = i - it.at;
        } else if (c == '%') {
            it.kind = LIKE_ANY;
        } else if (c == '_') {
            it.kind = LIKE_ONE;
        }
        items[(*m)++] = it;
    }
    return 1;
}

/* A pattern with no '%' but perhaps one at its very start or end, as
** conditions on the positions of x: its length, and each literal
** character either case at its place (counted from the end after a
** leading '%').  Exact, and far quicker for z3 than a regular expression
** of the same: its regular expressions grow slow on long case-insensitive
** literals.  NULL when the pattern has another shape. */
static Z3_ast like_positions(SqSmt *s, Z3_ast x, const char *pat, const LikeItem *it, uint32_t m) {
    uint32_t stars = 0;
    for (uint32_t i = 0; i < m; i++) stars += it[i].kind == LIKE_ANY;
    int lead = m && it[0].kind == LIKE_ANY, trail = m && it[m - 1].kind == LIKE_ANY;
    if (stars > 1 || (stars == 1 && !lead && !trail)) return NULL;
    const LikeItem *first = it + lead;
    uint32_t k = m - stars;
    Z3_context z = s->z;
    Z3_ast len = smt_str_len(s, x), need = smt_int(s, (int64_t)k);
    Z3_ast *conds = sq_arena_alloc(s->arena, (k + 2) * sizeof *conds);
    uint32_t nc = 0;
    conds[nc++] = stars ? Z3_mk_ge(z, len, need) : Z3_mk_eq(z, len, need);
    for (uint32_t i = 0; i < k; i++) {
        if (first[i].kind != LIKE_CHAR) continue;
        Z3_ast pos = smt_int(s, (int64_t)i);
        if (lead) pos = Z3_mk_add(z, 2, (Z3_ast[]){Z3_mk_sub(z, 2, (Z3_ast[]){len, need}), pos});
        Z3_ast ch = Z3_mk_seq_at(z, x, pos);
        uint32_t c = first[i].c;
        Z3_ast is = smt_eq(s, ch, smt_str_lit(s, pat + first[i].at, first[i].len));
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            char other = (char)(c ^ 0x20);
            is = smt_or2(s, is, smt_eq(s, ch, smt_str_lit(s, &other, 1)));
        }
        conds[nc++] = is;
        smt_count(s, 4);
    }
    return smt_and_n(s, conds, nc);
}

/* A GLOB pattern as a regular expression; NULL when a class is left open
** (it matches nothing). */
static Z3_ast glob_re(SqSmt *s, const char *pat, uint32_t n) {
    const unsigned char *p = (const unsigned char *)pat;
    Z3_ast *parts = sq_arena_alloc(s->arena, (n + 1) * sizeof *parts);
    uint32_t m = 0;
    Z3_ast any = smt_re_any(s);
    for (uint32_t i = 0; i < n;) {
        uint32_t c = smt_utf8_next(p, n, &i);
        if (c == '*') parts[m++] = smt_re_star(s, any);
        else if (c == '?') parts[m++] = any;
        else if (c != '[') parts[m++] = one(s, c);
        else if (!(parts[m++] = glob_class(s, p, n, &i))) return NULL;
    }
    return smt_re_concat(s, parts, m);
}

/* A LIKE pattern's items as a regular expression. */
static Z3_ast like_re(SqSmt *s, const LikeItem *it, uint32_t m) {
    Z3_ast *parts = sq_arena_alloc(s->arena, (m + 1) * sizeof *parts);
    Z3_ast any = smt_re_any(s);
    for (uint32_t i = 0; i < m; i++)
        parts[i] = it[i].kind == LIKE_ANY ? smt_re_star(s, any)
                   : it[i].kind == LIKE_ONE ? any
                                            : smt_re_either_case(s, it[i].c);
    return smt_re_concat(s, parts, m);
}

int smt_like_pattern(SqSmt *s, Z3_ast x, const char *pat, uint32_t n, int esc, int glob, Z3_ast *out) {
    Z3_ast re;
    if (glob) {
        re = glob_re(s, pat, n);
    } else {
        LikeItem *items = sq_arena_alloc(s->arena, (n + 1) * sizeof *items);
        uint32_t m;
        if (!like_items(pat, n, esc, items, &m)) {
            *out = smt_false(s); /* an ESCAPE at the very end */
            return 1;
        }
        Z3_ast fast = like_positions(s, x, pat, items, m);
        if (fast) {
            *out = fast;
            return 1;
        }
        re = like_re(s, items, m);
    }
    *out = re ? smt_in_re(s, x, re) : smt_false(s);
    return 1;
}
