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
** A pattern computed from the row is left to the caller (uninterpreted).
*/
#include "smt_int.h"

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

int smt_like_pattern(SqSmt *s, Z3_ast x, const char *pat, uint32_t n, int esc, int glob, Z3_ast *out) {
    const unsigned char *p = (const unsigned char *)pat;
    Z3_ast *parts = sq_arena_alloc(s->arena, (n + 1) * sizeof *parts);
    uint32_t m = 0;
    Z3_ast any = smt_re_any(s);
    for (uint32_t i = 0; i < n;) {
        uint32_t c = smt_utf8_next(p, n, &i);
        if (glob) {
            if (c == '*') parts[m++] = smt_re_star(s, any);
            else if (c == '?') parts[m++] = any;
            else if (c == '[') {
                Z3_ast cls = glob_class(s, p, n, &i);
                if (!cls) {
                    *out = smt_false(s);
                    return 1;
                }
                parts[m++] = cls;
            } else {
                parts[m++] = one(s, c);
            }
            continue;
        }
        if (esc >= 0 && c == (uint32_t)esc) {
            if (i >= n) {
                *out = smt_false(s);
                return 1;
            }
            parts[m++] = smt_re_either_case(s, smt_utf8_next(p, n, &i));
        } else if (c == '%') {
            parts[m++] = smt_re_star(s, any);
        } else if (c == '_') {
            parts[m++] = any;
        } else {
            parts[m++] = smt_re_either_case(s, c);
        }
    }
    *out = smt_in_re(s, x, smt_re_concat(s, parts, m));
    return 1;
}
