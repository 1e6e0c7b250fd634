/*
** smt_date.c -- SQLite's date functions on TEXT dates: strftime(), date(),
** time() and datetime() with no modifier.
**
** Layer: passes.  The lowering is exact on two regions of the argument and
** uninterpreted elsewhere (smt_uf.c), like smt_strnum.c:
**
**   a date      'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS', the month 01-12, the
**               day within its month (leap years counted), the hour below
**               24, minutes and seconds below 60: each field is the
**               substring where it stands, so strftime('%Y', d) is
**               substr(d, 1, 4) and date(d) is d's first ten characters;
**   not a date  empty, or starting with a character no date, time,
**               Julian day number or blank starts with, and not 'now' in
**               any case: NULL.
**
** The formats modelled are %Y %m %d %H %M %S and %%, with any literal
** text between them; other formats, modifiers, numeric arguments (Julian
** days), other spellings of a date ('2012-01-01T10:00', a day 31 that
** SQLite carries into the next month) and 'now' are uninterpreted, and the
** search tries models inside the two regions first (smt_prefer).  A call
** whose arguments are all constants never gets here: SQLite computes it
** (smt_fold.c).  Before any of this, each bound is searched on sample
** dates, where SQLite computes every call that reads a column
** (smt_sample.c).
*/
#include <string.h>

#include "passes/smt/smt_int.h"

static Z3_ast lit(SqSmt *s, const char *str) { return smt_str_lit(s, str, (uint32_t)strlen(str)); }

/* The characters [at, at + n) of x. */
static Z3_ast field(SqSmt *s, Z3_ast x, int at, int n) {
    smt_count(s, 1);
    return Z3_mk_seq_extract(s->z, x, smt_int(s, at), smt_int(s, n));
}

/* A valid date, as one regular expression: the months of 31 days, of 30,
** February to the 28th, and February 29th of a leap year (a multiple of 4
** that is not one of 100 unless it is one of 400; 0000 is leap).  z3's
** string solver is far quicker with this than with the fields' numbers. */
static const char valid_date[] =
    "[0-9][0-9][0-9][0-9]-(0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])"
    "|[0-9][0-9][0-9][0-9]-(0[469]|11)-(0[1-9]|[12][0-9]|30)"
    "|[0-9][0-9][0-9][0-9]-02-(0[1-9]|1[0-9]|2[0-8])"
    "|([0-9][0-9](0[48]|[2468][048]|[13579][26])|(0[048]|[2468][048]|[13579][26])00)-02-29";
static const char valid_time[] = " ([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]";

Z3_ast smt_re_valid_date(SqSmt *s) { return smt_re_parse(s, valid_date); }

/* The fields of a date in the exact region. */
typedef struct DateParts {
    Z3_ast in_region;  /* x is one of the two spellings, valid */
    Z3_ast f[6];       /* Y m d H M S as text ("00" for a missing time) */
} DateParts;

static DateParts date_parts(SqSmt *s, Z3_ast x) {
    DateParts p;
    if (smt_fact_dated(s, x)) { /* a valid date wherever it is read (smt_facts.c) */
        static const int at[3] = {0, 5, 8}, len[3] = {4, 2, 2};
        for (int i = 0; i < 6; i++) p.f[i] = i < 3 ? field(s, x, at[i], len[i]) : lit(s, "00");
        p.in_region = smt_true(s);
        return p;
    }
    Z3_ast date = smt_re_parse(s, valid_date);
    Z3_ast date_only = smt_in_re(s, x, date);
    Z3_ast with_time = smt_in_re(s, x, smt_re_concat(s, (Z3_ast[]){date, smt_re_parse(s, valid_time)}, 2));
    static const int at[6] = {0, 5, 8, 11, 14, 17}, len[6] = {4, 2, 2, 2, 2, 2};
    for (int i = 0; i < 6; i++) {
        p.f[i] = field(s, x, at[i], len[i]);
        if (i >= 3) p.f[i] = smt_ite(s, with_time, p.f[i], lit(s, "00"));
    }
    p.in_region = smt_or2(s, date_only, with_time);
    return p;
}

/* The output of format fmt for the fields: 0 when fmt has a specifier
** not modelled. */
static int format(SqSmt *s, const char *fmt, const DateParts *p, Z3_ast *out) {
    static const char spec[] = "YmdHMS";
    Z3_ast r = lit(s, "");
    SqBuf text = SQ_BUF_IN(s->arena);
    for (const char *c = fmt;; c++) {
        const char *which = *c == '%' && c[1] ? strchr(spec, c[1]) : NULL;
        if (*c == 0 || which) {
            if (text.len) r = smt_str_concat(s, r, lit(s, sq_buf_str(&text)));
            sq_buf_reset(&text);
            if (*c == 0) break;
            r = smt_str_concat(s, r, p->f[which - spec]);
            c++;
        } else if (*c == '%' && c[1] == '%') {
            sq_buf_putc(&text, '%');
            c++;
        } else if (*c == '%') {
            sq_buf_free(&text);
            return 0;
        } else {
            sq_buf_putc(&text, *c);
        }
    }
    sq_buf_free(&text);
    *out = r;
    return 1;
}

/* Where fmt's output is a piece of every date in the region: a format of
** date fields and '-' that spells a run of 'YYYY-MM-DD' (%Y, %m-%d,
** %Y-%m-%d ...).  1 with its start and length, else 0. */
static int date_slice(const char *fmt, uint32_t *at, uint32_t *n) {
    static const char layout[] = "YYYY-MM-DD";
    char spelled[sizeof layout + 1];
    uint32_t len = 0;
    for (const char *c = fmt; *c; c++) {
        const char *piece = *c == '-' ? "-" : NULL;
        if (*c == '%') {
            c++;
            piece = *c == 'Y' ? "YYYY" : *c == 'm' ? "MM" : *c == 'd' ? "DD" : NULL;
        }
        if (!piece || len + strlen(piece) > sizeof layout - 1) return 0;
        memcpy(spelled + len, piece, strlen(piece));
        len += (uint32_t)strlen(piece);
    }
    spelled[len] = 0;
    const char *found = len ? strstr(layout, spelled) : NULL;
    if (!found) return 0;
    *at = (uint32_t)(found - layout);
    *n = len;
    return 1;
}

/* 'now' in any case. */
static Z3_ast is_now(SqSmt *s, Z3_ast x) {
    Z3_ast parts[3] = {smt_re_either_case(s, 'n'), smt_re_either_case(s, 'o'), smt_re_either_case(s, 'w')};
    return smt_in_re(s, x, smt_re_concat(s, parts, 3));
}

/* Text SQLite cannot read as a date or time: empty, or starting with a
** character that neither a date, a time, a Julian day number nor blanks
** start with, and not 'now'. */
static Z3_ast not_a_date(SqSmt *s, Z3_ast x) {
    Z3_context z = s->z;
    Z3_ast may_start = smt_re_union(s, smt_re_parse(s, "[0-9]|[+-.]"), smt_re_space(s));
    smt_count(s, 3);
    Z3_ast other = Z3_mk_re_intersect(z, 2, (Z3_ast[]){smt_re_any(s), Z3_mk_re_complement(z, may_start)});
    Z3_ast bad = smt_re_concat(s, (Z3_ast[]){other, smt_re_star(s, smt_re_any(s))}, 2);
    Z3_ast empty = smt_eq(s, x, lit(s, ""));
    return smt_or2(s, empty, smt_and2(s, smt_in_re(s, x, bad), smt_not(s, is_now(s, x))));
}

int smt_date_function(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out) {
    const char *fmt = f->data; /* date, time, datetime */
    uint32_t first = 0;
    if (f->op == SMT_FN_STRFTIME) {
        if (n != 2) return 0; /* modifiers: not modelled */
        fmt = smt_const_text(s, args[0]);
        first = 1;
    } else if (!fmt) {
        return 0; /* julianday, unixepoch: sample dates only */
    }
    if (!fmt || n != first + 1) return 0;
    SmtVal x = args[first];
    if (x.kind == SMT_NULL) {
        *out = smt_null(s);
        return 1;
    }
    if (x.kind != SMT_TEXT) return 0; /* a Julian day number */
    const char *known = smt_const_text(s, x);
    if (known && sq_stricmp(known, "now") == 0) { /* the pinned instant */
        s->reads_clock = 1;
        x = smt_val(s, SMT_TEXT, smt_false(s), smt_str_lit(s, s->now, 19));
    }
    DateParts p = date_parts(s, x.v);
    Z3_ast text;
    if (!format(s, fmt, &p, &text)) return 0;
    if (strcmp(fmt, "%Y-%m-%d") == 0 && smt_fact_dated(s, x.v)) text = x.v; /* date(d) is d */
    SmtVal other = smt_uf(s, f->name, args, n, SMT_TEXT);
    Z3_ast not_date = not_a_date(s, x.v);
    if (!Z3_is_string(s->z, x.v)) smt_prefer(s, smt_or2(s, p.in_region, not_date));
    Z3_ast null = smt_ite(s, p.in_region, smt_false(s), smt_ite(s, not_date, smt_true(s), other.null));
    if (first) null = smt_or2(s, null, args[0].null);
    Z3_ast v = smt_ite(s, p.in_region, text, other.v);
    uint32_t at, len;
    if (v != x.v && date_slice(fmt, &at, &len)) smt_note_slice(s, v, p.in_region, x.v, at, len, other.v);
    *out = smt_val(s, SMT_TEXT, smt_or2(s, x.null, null), v);
    return 1;
}
