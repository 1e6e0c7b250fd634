/* test_lexer.c -- the lexer splits text exactly as SQLite 3.40's sqlite3GetToken does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/src.h"
#include "runtime/strbuf.h"
#include "runtime/util.h"
#include "grammar/parse_types.h"
#include "sql.tab.h"
#include "grammar/lex.h"

/* ------------------------------------------------------------------ */
/* Harness: lex a whole text and render the tokens as one string        */
/* ------------------------------------------------------------------ */

#define MAX_TOKS 64
#define MAX_COMMENTS 8

/* Everything one run of the lexer produced. */
typedef struct Lexed {
    LexTok toks[MAX_TOKS];             /* tokens before LEX_EOF */
    size_t n_toks;
    LexTok eof;                        /* the LEX_EOF token */
    LexComment comments[MAX_COMMENTS]; /* comments reported, in order */
    size_t n_comments;
} Lexed;

static void collect_comment(void *arg, const LexComment *c) {
    Lexed *out = arg;
    assert_true(out->n_comments < MAX_COMMENTS);
    out->comments[out->n_comments++] = *c;
}

static void lex_text(Lexed *out, const char *text, size_t len) {
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *src = sq_src_add_copy(&set, "t.sql", text, len);
    memset(out, 0, sizeof *out);
    Lexer *lx = lex_open(src, collect_comment, out);
    for (;;) {
        LexTok t;
        lex_next(lx, &t);
        if (t.code == LEX_EOF) {
            out->eof = t;
            break;
        }
        assert_true(out->n_toks < MAX_TOKS);
        out->toks[out->n_toks++] = t;
    }
    lex_close(lx);
    sq_srcset_free(&set);
}

static const struct {
    int code;
    const char *name;
} tok_names[] = {
    {LEX_ILLEGAL, "ILLEGAL"}, {TK_ID, "ID"}, {TK_STRING, "STRING"},
    {TK_INTEGER, "INTEGER"}, {TK_FLOAT, "FLOAT"}, {TK_BLOB, "BLOB"},
    {TK_VARIABLE, "VARIABLE"}, {TK_SELECT, "SELECT"}, {TK_FROM, "FROM"},
    {TK_EQ, "EQ"}, {TK_NE, "NE"}, {TK_LT, "LT"}, {TK_LE, "LE"},
    {TK_GT, "GT"}, {TK_GE, "GE"}, {TK_LSHIFT, "LSHIFT"},
    {TK_RSHIFT, "RSHIFT"}, {TK_CONCAT, "CONCAT"}, {TK_BITOR, "BITOR"},
    {TK_BITAND, "BITAND"}, {TK_BITNOT, "BITNOT"}, {TK_PLUS, "PLUS"},
    {TK_MINUS, "MINUS"}, {TK_STAR, "STAR"}, {TK_SLASH, "SLASH"},
    {TK_REM, "REM"}, {TK_PTR, "PTR"}, {TK_DOT, "DOT"}, {TK_COMMA, "COMMA"},
    {TK_LP, "LP"}, {TK_RP, "RP"}, {TK_SEMI, "SEMI"},
};

static void put_code(SqBuf *b, int code) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(tok_names); i++) {
        if (tok_names[i].code == code) {
            sq_buf_puts(b, tok_names[i].name);
            return;
        }
    }
    sq_buf_printf(b, "#%d", code);
}

/* Token text with bytes outside printable ASCII as \xHH. */
static void put_text(SqBuf *b, const char *text, const LexTok *t) {
    for (uint32_t i = t->start; i < t->end; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c < 0x20 || c >= 0x7f) sq_buf_printf(b, "\\x%02X", c);
        else sq_buf_putc(b, (char)c);
    }
}

/* "CODE(text) CODE(text) ..." for every token before EOF. */
static char *render(const Lexed *lx, const char *text) {
    SqBuf b = SQ_BUF_INIT;
    for (size_t i = 0; i < lx->n_toks; i++) {
        if (i) sq_buf_putc(&b, ' ');
        put_code(&b, lx->toks[i].code);
        sq_buf_putc(&b, '(');
        put_text(&b, text, &lx->toks[i]);
        sq_buf_putc(&b, ')');
    }
    return sq_buf_detach(&b);
}

static void expect_lexn(const char *text, size_t len, const char *want) {
    Lexed lx;
    lex_text(&lx, text, len);
    char *got = render(&lx, text);
    assert_string_equal(got, want);
    assert_int_equal(lx.eof.start, len);
    free(got);
}

static void expect_lex(const char *text, const char *want) {
    expect_lexn(text, strlen(text), want);
}

/* The single token that text lexes to must be illegal for reason why. */
static void expect_illegal(const char *text, size_t len, int why) {
    Lexed lx;
    lex_text(&lx, text, len);
    assert_int_equal(lx.n_toks, 1);
    assert_int_equal(lx.toks[0].code, LEX_ILLEGAL);
    assert_int_equal(lx.toks[0].start, 0);
    assert_int_equal(lx.toks[0].end, len);
    assert_int_equal(lx.toks[0].why, why);
}

/* ------------------------------------------------------------------ */
/* Keywords and identifiers                                            */
/* ------------------------------------------------------------------ */

/* SQLite 3.40's 147 keywords (sqlite3_keyword_name), their parser token
** and whether parse.y's %fallback ID list holds that token. */
static const struct {
    const char *text;
    int code;
    int fallback;
} sqlite_keywords[] = {
    {"ABORT", TK_ABORT, 1}, {"ACTION", TK_ACTION, 1}, {"ADD", TK_ADD, 0},
    {"AFTER", TK_AFTER, 1}, {"ALL", TK_ALL, 0}, {"ALTER", TK_ALTER, 0},
    {"ALWAYS", TK_ALWAYS, 1}, {"ANALYZE", TK_ANALYZE, 1}, {"AND", TK_AND, 0},
    {"AS", TK_AS, 0}, {"ASC", TK_ASC, 1}, {"ATTACH", TK_ATTACH, 1},
    {"AUTOINCREMENT", TK_AUTOINCR, 0}, {"BEFORE", TK_BEFORE, 1},
    {"BEGIN", TK_BEGIN, 1}, {"BETWEEN", TK_BETWEEN, 0}, {"BY", TK_BY, 1},
    {"CASCADE", TK_CASCADE, 1}, {"CASE", TK_CASE, 0}, {"CAST", TK_CAST, 1},
    {"CHECK", TK_CHECK, 0}, {"COLLATE", TK_COLLATE, 0},
    {"COLUMN", TK_COLUMNKW, 1}, {"COMMIT", TK_COMMIT, 0},
    {"CONFLICT", TK_CONFLICT, 1}, {"CONSTRAINT", TK_CONSTRAINT, 0},
    {"CREATE", TK_CREATE, 0}, {"CROSS", TK_JOIN_KW, 0},
    {"CURRENT", TK_CURRENT, 1}, {"CURRENT_DATE", TK_CTIME_KW, 1},
    {"CURRENT_TIME", TK_CTIME_KW, 1}, {"CURRENT_TIMESTAMP", TK_CTIME_KW, 1},
    {"DATABASE", TK_DATABASE, 1}, {"DEFAULT", TK_DEFAULT, 0},
    {"DEFERRABLE", TK_DEFERRABLE, 0}, {"DEFERRED", TK_DEFERRED, 1},
    {"DELETE", TK_DELETE, 0}, {"DESC", TK_DESC, 1}, {"DETACH", TK_DETACH, 1},
    {"DISTINCT", TK_DISTINCT, 0}, {"DO", TK_DO, 1}, {"DROP", TK_DROP, 0},
    {"EACH", TK_EACH, 1}, {"ELSE", TK_ELSE, 0}, {"END", TK_END, 1},
    {"ESCAPE", TK_ESCAPE, 0}, {"EXCEPT", TK_EXCEPT, 0},
    {"EXCLUDE", TK_EXCLUDE, 1}, {"EXCLUSIVE", TK_EXCLUSIVE, 1},
    {"EXISTS", TK_EXISTS, 0}, {"EXPLAIN", TK_EXPLAIN, 1}, {"FAIL", TK_FAIL, 1},
    {"FILTER", TK_FILTER, 0}, {"FIRST", TK_FIRST, 1},
    {"FOLLOWING", TK_FOLLOWING, 1}, {"FOR", TK_FOR, 1},
    {"FOREIGN", TK_FOREIGN, 0}, {"FROM", TK_FROM, 0}, {"FULL", TK_JOIN_KW, 0},
    {"GENERATED", TK_GENERATED, 1}, {"GLOB", TK_LIKE_KW, 1},
    {"GROUP", TK_GROUP, 0}, {"GROUPS", TK_GROUPS, 1}, {"HAVING", TK_HAVING, 0},
    {"IF", TK_IF, 1}, {"IGNORE", TK_IGNORE, 1}, {"IMMEDIATE", TK_IMMEDIATE, 1},
    {"IN", TK_IN, 0}, {"INDEX", TK_INDEX, 0}, {"INDEXED", TK_INDEXED, 0},
    {"INITIALLY", TK_INITIALLY, 1}, {"INNER", TK_JOIN_KW, 0},
    {"INSERT", TK_INSERT, 0}, {"INSTEAD", TK_INSTEAD, 1},
    {"INTERSECT", TK_INTERSECT, 0}, {"INTO", TK_INTO, 0}, {"IS", TK_IS, 0},
    {"ISNULL", TK_ISNULL, 0}, {"JOIN", TK_JOIN, 0}, {"KEY", TK_KEY, 1},
    {"LAST", TK_LAST, 1}, {"LEFT", TK_JOIN_KW, 0}, {"LIKE", TK_LIKE_KW, 1},
    {"LIMIT", TK_LIMIT, 0}, {"MATCH", TK_MATCH, 1},
    {"MATERIALIZED", TK_MATERIALIZED, 1}, {"NATURAL", TK_JOIN_KW, 0},
    {"NO", TK_NO, 1}, {"NOT", TK_NOT, 0}, {"NOTHING", TK_NOTHING, 0},
    {"NOTNULL", TK_NOTNULL, 0}, {"NULL", TK_NULL, 0}, {"NULLS", TK_NULLS, 1},
    {"OF", TK_OF, 1}, {"OFFSET", TK_OFFSET, 1}, {"ON", TK_ON, 0},
    {"OR", TK_OR, 0}, {"ORDER", TK_ORDER, 0}, {"OTHERS", TK_OTHERS, 1},
    {"OUTER", TK_JOIN_KW, 0}, {"OVER", TK_OVER, 0},
    {"PARTITION", TK_PARTITION, 1}, {"PLAN", TK_PLAN, 1},
    {"PRAGMA", TK_PRAGMA, 1}, {"PRECEDING", TK_PRECEDING, 1},
    {"PRIMARY", TK_PRIMARY, 0}, {"QUERY", TK_QUERY, 1}, {"RAISE", TK_RAISE, 1},
    {"RANGE", TK_RANGE, 1}, {"RECURSIVE", TK_RECURSIVE, 1},
    {"REFERENCES", TK_REFERENCES, 0}, {"REGEXP", TK_LIKE_KW, 1},
    {"REINDEX", TK_REINDEX, 1}, {"RELEASE", TK_RELEASE, 1},
    {"RENAME", TK_RENAME, 1}, {"REPLACE", TK_REPLACE, 1},
    {"RESTRICT", TK_RESTRICT, 1}, {"RETURNING", TK_RETURNING, 0},
    {"RIGHT", TK_JOIN_KW, 0}, {"ROLLBACK", TK_ROLLBACK, 1}, {"ROW", TK_ROW, 1},
    {"ROWS", TK_ROWS, 1}, {"SAVEPOINT", TK_SAVEPOINT, 1},
    {"SELECT", TK_SELECT, 0}, {"SET", TK_SET, 0}, {"TABLE", TK_TABLE, 0},
    {"TEMP", TK_TEMP, 1}, {"TEMPORARY", TK_TEMP, 1}, {"THEN", TK_THEN, 0},
    {"TIES", TK_TIES, 1}, {"TO", TK_TO, 0}, {"TRANSACTION", TK_TRANSACTION, 0},
    {"TRIGGER", TK_TRIGGER, 1}, {"UNBOUNDED", TK_UNBOUNDED, 1},
    {"UNION", TK_UNION, 0}, {"UNIQUE", TK_UNIQUE, 0}, {"UPDATE", TK_UPDATE, 0},
    {"USING", TK_USING, 0}, {"VACUUM", TK_VACUUM, 1}, {"VALUES", TK_VALUES, 0},
    {"VIEW", TK_VIEW, 1}, {"VIRTUAL", TK_VIRTUAL, 1}, {"WHEN", TK_WHEN, 0},
    {"WHERE", TK_WHERE, 0}, {"WINDOW", TK_WINDOW, 0}, {"WITH", TK_WITH, 1},
    {"WITHOUT", TK_WITHOUT, 1},
};

/* The code SQLite gives the upper-case word s[0..n), by linear search. */
static int reference_keyword(const char *s, size_t n) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(sqlite_keywords); i++) {
        const char *k = sqlite_keywords[i].text;
        if (strlen(k) == n && sq_strnicmp(k, s, n) == 0)
            return sqlite_keywords[i].code;
    }
    return 0;
}

static void keyword_table_has_sqlites_147_keywords(void **state) {
    (void)state;
    assert_int_equal(SQ_ARRAY_LEN(sqlite_keywords), 147);
    for (size_t i = 0; i < SQ_ARRAY_LEN(sqlite_keywords); i++) {
        const char *k = sqlite_keywords[i].text;
        int fallback = -1;
        int code = lex_keyword(k, strlen(k), &fallback);
        if (code != sqlite_keywords[i].code || fallback != sqlite_keywords[i].fallback)
            fail_msg("keyword %s: code %d fallback %d", k, code, fallback);
    }
}

static void keyword_lookup_ignores_case(void **state) {
    (void)state;
    assert_int_equal(lex_keyword("select", 6, NULL), TK_SELECT);
    assert_int_equal(lex_keyword("SeLeCt", 6, NULL), TK_SELECT);
    assert_int_equal(lex_keyword("current_timestamp", 17, NULL), TK_CTIME_KW);
    assert_int_equal(lex_keyword("Temporary", 9, NULL), TK_TEMP);
}

/* Check one variant of a keyword against the reference table. */
static void check_variant(const char *s, size_t n) {
    int want = reference_keyword(s, n);
    int got = lex_keyword(s, n, NULL);
    if (got != want) fail_msg("lex_keyword(\"%.*s\") = %d, want %d", (int)n, s, got, want);
}

/* A binary search over an unsorted table misses some spellings, or finds
** a neighbour for a near miss; probe every keyword and its neighbours. */
static void keyword_lookup_rejects_near_misses(void **state) {
    (void)state;
    for (size_t i = 0; i < SQ_ARRAY_LEN(sqlite_keywords); i++) {
        char w[32];
        const char *k = sqlite_keywords[i].text;
        size_t n = strlen(k);
        check_variant(k, n - 1);               /* "SELEC" */
        snprintf(w, sizeof w, "%sS", k);       /* "SELECTS" */
        check_variant(w, n + 1);
        snprintf(w, sizeof w, "%s_", k);       /* "SELECT_" */
        check_variant(w, n + 1);
        snprintf(w, sizeof w, "A%s", k);       /* "ASELECT" */
        check_variant(w, n + 1);
    }
}

static void non_keywords_have_code_zero(void **state) {
    (void)state;
    assert_int_equal(lex_keyword("SELEC", 5, NULL), 0);
    assert_int_equal(lex_keyword("SELECTS", 7, NULL), 0);
    assert_int_equal(lex_keyword("TRUE", 4, NULL), 0);
    assert_int_equal(lex_keyword("ROWID", 5, NULL), 0);
    assert_int_equal(lex_keyword("STRICT", 6, NULL), 0);
    assert_int_equal(lex_keyword("", 0, NULL), 0);
    assert_int_equal(lex_keyword("A", 1, NULL), 0);
    assert_int_equal(lex_keyword("CURRENT_TIMESTAMPS", 18, NULL), 0);
}

static void fallback_flags_match_sqlite(void **state) {
    (void)state;
    int fb = -1;
    assert_int_equal(lex_keyword("ASC", 3, &fb), TK_ASC);
    assert_int_equal(fb, 1);
    assert_int_equal(lex_keyword("SELECT", 6, &fb), TK_SELECT);
    assert_int_equal(fb, 0);
    assert_int_equal(lex_keyword("LIKE", 4, &fb), TK_LIKE_KW);
    assert_int_equal(fb, 1);
    assert_int_equal(lex_keyword("LEFT", 4, &fb), TK_JOIN_KW);
    assert_int_equal(fb, 0);
}

static void keywords_lex_in_any_case(void **state) {
    (void)state;
    expect_lex("select SELECT SeLeCt", "SELECT(select) SELECT(SELECT) SELECT(SeLeCt)");
    expect_lex("from", "FROM(from)");
}

static void keyword_token_carries_fallback_flag(void **state) {
    (void)state;
    Lexed lx;
    lex_text(&lx, "asc select x", 12);
    assert_int_equal(lx.n_toks, 3);
    assert_int_equal(lx.toks[0].code, TK_ASC);
    assert_int_equal(lx.toks[0].kw_fallback, 1);
    assert_int_equal(lx.toks[1].kw_fallback, 0);
    assert_int_equal(lx.toks[2].kw_fallback, 0);
}

static void words_with_non_keyword_chars_are_identifiers(void **state) {
    (void)state;
    expect_lex("selectx select1 select$ _select x y2",
               "ID(selectx) ID(select1) ID(select$) ID(_select) ID(x) ID(y2)");
    expect_lex("s\xC3\xA9lect", "ID(s\\xC3\\xA9lect)");
}

/* ------------------------------------------------------------------ */
/* Numbers                                                             */
/* ------------------------------------------------------------------ */

static void integers_and_floats(void **state) {
    (void)state;
    expect_lex("42 3.14 .5 1e10 1E+5 1e-3 7.",
               "INTEGER(42) FLOAT(3.14) FLOAT(.5) FLOAT(1e10) FLOAT(1E+5) "
               "FLOAT(1e-3) FLOAT(7.)");
    expect_lex("1.e5 1..2", "FLOAT(1.e5) FLOAT(1.) FLOAT(.2)");
}

static void hex_integers_stop_at_last_hex_digit(void **state) {
    (void)state;
    expect_lex("0x1F 0XaB", "INTEGER(0x1F) INTEGER(0XaB)");
    expect_lex("0x1Fg", "INTEGER(0x1F) ID(g)");
    expect_lex("0x1F.5", "INTEGER(0x1F) FLOAT(.5)");
    expect_lex("0xg", "ILLEGAL(0xg)");
}

static void digits_followed_by_id_chars_are_one_illegal_token(void **state) {
    (void)state;
    expect_illegal("12abc", 5, LEX_BAD_NUMBER);
    expect_illegal("1e", 2, LEX_BAD_NUMBER);
    expect_illegal("1_000", 5, LEX_BAD_NUMBER);
    expect_illegal("3.5x$", 5, LEX_BAD_NUMBER);
    expect_lex("1ee+3", "ILLEGAL(1ee) PLUS(+) INTEGER(3)");
}

static void second_dot_starts_a_new_number(void **state) {
    (void)state;
    expect_lex("1.2.3", "FLOAT(1.2) FLOAT(.3)");
}

static void exponent_needs_a_digit(void **state) {
    (void)state;
    expect_lex("1e+x", "ILLEGAL(1e) PLUS(+) ID(x)");
    expect_lex("2E-", "ILLEGAL(2E) MINUS(-)");
    expect_lex("1.5e+7", "FLOAT(1.5e+7)");
}

/* ------------------------------------------------------------------ */
/* Strings, quoted identifiers, blobs                                  */
/* ------------------------------------------------------------------ */

static void strings_double_their_quotes(void **state) {
    (void)state;
    expect_lex("'a''b' ''", "STRING('a''b') STRING('')");
}

static void quoted_identifiers_in_three_styles(void **state) {
    (void)state;
    expect_lex("\"a\"\"b\" `x` `a``b` [a b]",
               "ID(\"a\"\"b\") ID(`x`) ID(`a``b`) ID([a b])");
    expect_lex("[a\"b`c']", "ID([a\"b`c'])");
}

static void unterminated_quotes_are_illegal(void **state) {
    (void)state;
    expect_illegal("'abc", 4, LEX_OPEN_STRING);
    expect_illegal("'it''s", 6, LEX_OPEN_STRING);
    expect_illegal("\"abc", 4, LEX_OPEN_QUOTED_ID);
    expect_illegal("`abc", 4, LEX_OPEN_QUOTED_ID);
    expect_illegal("[abc", 4, LEX_OPEN_QUOTED_ID);
}

static void blobs_need_even_hex_digits(void **state) {
    (void)state;
    expect_lex("X'00ff' x''", "BLOB(X'00ff') BLOB(x'')");
    expect_illegal("x'0'", 4, LEX_BAD_BLOB);
    expect_illegal("X'zz'", 5, LEX_BAD_BLOB);
    expect_illegal("x'00", 4, LEX_BAD_BLOB);
    expect_lex("x 'ab'", "ID(x) STRING('ab')");
}

/* ------------------------------------------------------------------ */
/* Parameters                                                          */
/* ------------------------------------------------------------------ */

static void parameters_of_every_form(void **state) {
    (void)state;
    expect_lex("? ?12 :name @name $name #x",
               "VARIABLE(?) VARIABLE(?12) VARIABLE(:name) VARIABLE(@name) "
               "VARIABLE($name) VARIABLE(#x)");
}

static void tcl_style_parameters(void **state) {
    (void)state;
    expect_lex("$a::b $a(x) $a::(y)z",
               "VARIABLE($a::b) VARIABLE($a(x)) VARIABLE($a::(y)) ID(z)");
    expect_lex("$a:b", "VARIABLE($a) VARIABLE(:b)");
    expect_lex("?1a", "VARIABLE(?1) ID(a)");
}

static void parameters_without_a_name_are_illegal(void **state) {
    (void)state;
    expect_illegal(":", 1, LEX_BAD_VARIABLE);
    expect_illegal("$", 1, LEX_BAD_VARIABLE);
    expect_illegal("@", 1, LEX_BAD_VARIABLE);
    expect_lex("$(x)", "ILLEGAL($) LP(() ID(x) RP())");
    expect_lex("$a(x y)", "ILLEGAL($a(x) ID(y) RP())");
}

/* ------------------------------------------------------------------ */
/* Operators and punctuation                                           */
/* ------------------------------------------------------------------ */

static void every_operator(void **state) {
    (void)state;
    expect_lex("= == != <> < <= > >= << >> || | & ~",
               "EQ(=) EQ(==) NE(!=) NE(<>) LT(<) LE(<=) GT(>) GE(>=) "
               "LSHIFT(<<) RSHIFT(>>) CONCAT(||) BITOR(|) BITAND(&) BITNOT(~)");
    expect_lex("+ - * / % -> ->> . , ( ) ;",
               "PLUS(+) MINUS(-) STAR(*) SLASH(/) REM(%) PTR(->) PTR(->>) "
               "DOT(.) COMMA(,) LP(() RP()) SEMI(;)");
}

static void operators_need_no_spaces(void **state) {
    (void)state;
    expect_lex("a<=>b|||c", "ID(a) LE(<=) GT(>) ID(b) CONCAT(||) BITOR(|) ID(c)");
    expect_lex("<<=", "LSHIFT(<<) EQ(=)");
}

static void lone_bang_and_stray_bytes_are_illegal(void **state) {
    (void)state;
    expect_illegal("!", 1, LEX_BAD_CHAR);
    expect_illegal("^", 1, LEX_BAD_CHAR);
    expect_illegal("\\", 1, LEX_BAD_CHAR);
    expect_lex("!!=", "ILLEGAL(!) NE(!=)");
}

/* ------------------------------------------------------------------ */
/* Comments                                                            */
/* ------------------------------------------------------------------ */

static void line_comment_is_skipped_and_reported(void **state) {
    (void)state;
    const char *text = "a -- note\nb";
    Lexed lx;
    lex_text(&lx, text, strlen(text));
    char *got = render(&lx, text);
    assert_string_equal(got, "ID(a) ID(b)");
    free(got);
    assert_int_equal(lx.n_comments, 1);
    assert_int_equal(lx.comments[0].start, 2);
    assert_int_equal(lx.comments[0].end, 9); /* stops before the newline */
    assert_int_equal(lx.comments[0].is_block, 0);
    assert_int_equal(lx.comments[0].unterminated, 0);
}

static void block_comment_is_skipped_and_reported(void **state) {
    (void)state;
    const char *text = "a/* x ** y */b /**/c";
    Lexed lx;
    lex_text(&lx, text, strlen(text));
    char *got = render(&lx, text);
    assert_string_equal(got, "ID(a) ID(b) ID(c)");
    free(got);
    assert_int_equal(lx.n_comments, 2);
    assert_int_equal(lx.comments[0].start, 1);
    assert_int_equal(lx.comments[0].end, 13);
    assert_int_equal(lx.comments[0].is_block, 1);
    assert_int_equal(lx.comments[0].unterminated, 0);
    assert_int_equal(lx.comments[1].start, 15);
    assert_int_equal(lx.comments[1].end, 19);
}

static void unterminated_block_comment_runs_to_eof(void **state) {
    (void)state;
    const char *text = "a /* b */ c /* d *";
    Lexed lx;
    lex_text(&lx, text, strlen(text));
    assert_int_equal(lx.n_toks, 2);
    assert_int_equal(lx.n_comments, 2);
    assert_int_equal(lx.comments[1].start, 12);
    assert_int_equal(lx.comments[1].end, strlen(text));
    assert_int_equal(lx.comments[1].is_block, 1);
    assert_int_equal(lx.comments[1].unterminated, 1);
}

static void slash_star_closed_by_its_own_star_is_not_closed(void **state) {
    (void)state;
    Lexed lx;
    lex_text(&lx, "/*/", 3);
    assert_int_equal(lx.n_toks, 0);
    assert_int_equal(lx.n_comments, 1);
    assert_int_equal(lx.comments[0].unterminated, 1);
}

static void slash_star_at_end_of_input_is_two_tokens(void **state) {
    (void)state;
    Lexed lx;
    lex_text(&lx, "a /*", 4);
    assert_int_equal(lx.n_comments, 0);
    expect_lex("a /*", "ID(a) SLASH(/) STAR(*)");
    expect_lex("/*", "SLASH(/) STAR(*)");
}

static void comment_markers_inside_strings_are_text(void **state) {
    (void)state;
    expect_lex("'--' \"/*\" -->x", "STRING('--') ID(\"/*\")");
}

/* ------------------------------------------------------------------ */
/* Whitespace, odd bytes, offsets                                      */
/* ------------------------------------------------------------------ */

static void byte_order_mark_is_whitespace(void **state) {
    (void)state;
    expect_lex("\xEF\xBB\xBFselect", "SELECT(select)");
    expect_lex("a \xEF\xBB\xBF\xEF\xBB\xBF b", "ID(a) ID(b)");
    expect_lex("\xEF\xBBx", "ID(\\xEF\\xBBx)");
    expect_lex("\xEF\xBB\xBF" "12 \xEF\xBB\xBF$v", "INTEGER(12) VARIABLE($v)");
}

static void high_bytes_are_identifier_chars(void **state) {
    (void)state;
    expect_lex("\xC3\xA9t\xC3\xA9 a\xFF", "ID(\\xC3\\xA9t\\xC3\\xA9) ID(a\\xFF)");
    expect_lex("1\xC3\xA9", "ILLEGAL(1\\xC3\\xA9)");
}

static void nul_byte_is_illegal(void **state) {
    (void)state;
    expect_illegal("\0", 1, LEX_NUL_BYTE);
    expect_lexn("a\0b", 3, "ID(a) ILLEGAL(\\x00) ID(b)");
}

static void vertical_tab_is_space_only_after_a_space(void **state) {
    (void)state;
    expect_lex("a \v\t\n\f\rb", "ID(a) ID(b)");
    expect_illegal("\v", 1, LEX_BAD_CHAR);
    expect_lex("a\vb", "ID(a) ILLEGAL(\\x0B) ID(b)");
}

static void token_offsets_are_exact_bytes(void **state) {
    (void)state;
    const char *text = "  SELECT\t\xC3\xA9, 'x'\n;";
    static const uint32_t want[][2] = {{2, 8}, {9, 11}, {11, 12}, {13, 16}, {17, 18}};
    Lexed lx;
    lex_text(&lx, text, strlen(text));
    assert_int_equal(lx.n_toks, SQ_ARRAY_LEN(want));
    for (size_t i = 0; i < lx.n_toks; i++) {
        assert_int_equal(lx.toks[i].start, want[i][0]);
        assert_int_equal(lx.toks[i].end, want[i][1]);
    }
    assert_int_equal(lx.eof.start, 18);
    assert_int_equal(lx.eof.end, 18);
}

/* Tokens far past flex's 16 KiB read buffer keep exact offsets. */
static void offsets_survive_long_input(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_repeat(&b, ' ', 40000);
    sq_buf_puts(&b, "abc '");
    sq_buf_repeat(&b, 'q', 30000);
    sq_buf_puts(&b, "' 7");
    Lexed lx;
    lex_text(&lx, b.data, b.len);
    assert_int_equal(lx.n_toks, 3);
    assert_int_equal(lx.toks[0].start, 40000);
    assert_int_equal(lx.toks[1].start, 40004);
    assert_int_equal(lx.toks[1].end, 70006);
    assert_int_equal(lx.toks[2].code, TK_INTEGER);
    assert_int_equal(lx.toks[2].start, 70007);
    sq_buf_free(&b);
}

static void empty_input_is_eof_at_zero(void **state) {
    (void)state;
    Lexed lx;
    lex_text(&lx, "", 0);
    assert_int_equal(lx.n_toks, 0);
    assert_int_equal(lx.eof.start, 0);
}

static void eof_repeats_after_end_of_input(void **state) {
    (void)state;
    SqSrcSet set;
    sq_srcset_init(&set);
    Lexer *lx = lex_open(sq_src_add_copy(&set, "t.sql", "x", 1), NULL, NULL);
    LexTok t;
    lex_next(lx, &t);
    assert_int_equal(t.code, TK_ID);
    for (int i = 0; i < 3; i++) {
        lex_next(lx, &t);
        assert_int_equal(t.code, LEX_EOF);
        assert_int_equal(t.start, 1);
    }
    lex_close(lx);
    sq_srcset_free(&set);
}

/* ------------------------------------------------------------------ */
/* Long tokens: the scanner's work is linear in the input               */
/* ------------------------------------------------------------------ */

/* Tokens and comments that can run long: open + filler + close. */
static const struct {
    const char *open, *close;
    char fill;
    int code;        /* token code, or 0 for a comment */
} long_kinds[] = {
    {"", "", 'a', TK_ID},
    {"'", "'", 'a', TK_STRING},
    {"\"", "\"", 'a', TK_ID},
    {"`", "`", 'a', TK_ID},
    {"[", "]", 'a', TK_ID},
    {"x'", "'", 'f', TK_BLOB},
    {"/*", "*/", 'a', 0},
    {"--", "\n", 'a', 0},
};

/* Lex "SELECT <open><n fill bytes><close> FROM t": the long token must be
** one token at its exact place, and the bytes flex scanned again after
** moving an unfinished token to the front of its buffer must stay within
** three times the input: the buffer doubles each time (2n in all), and at
** the end of the input the last token moves once more.  With flex's
** default 8 KB reads they were about n * n / 16 KB: 1 GB for 4 MB. */
#define RESCAN_MAX(len) (3 * (len))
static void expect_linear(size_t k, size_t n) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT ");
    sq_buf_puts(&b, long_kinds[k].open);
    sq_buf_repeat(&b, long_kinds[k].fill, n);
    sq_buf_puts(&b, long_kinds[k].close);
    size_t end = b.len;
    sq_buf_puts(&b, " FROM t");
    Lexed lx;
    SqSrcSet set;
    sq_srcset_init(&set);
    SqSrc *src = sq_src_add_copy(&set, "t.sql", b.data, b.len);
    memset(&lx, 0, sizeof lx);
    Lexer *lexer = lex_open(src, collect_comment, &lx);
    LexTok t;
    do {
        lex_next(lexer, &t);
        if (t.code != LEX_EOF) lx.toks[lx.n_toks++] = t;
    } while (t.code != LEX_EOF && lx.n_toks < MAX_TOKS);
    LexStats st;
    lex_stats(lexer, &st);
    lex_close(lexer);
    sq_srcset_free(&set);
    if (long_kinds[k].code) {
        assert_int_equal(lx.n_toks, 4);
        assert_int_equal(lx.toks[1].code, long_kinds[k].code);
        assert_int_equal(lx.toks[1].start, 7);
        assert_int_equal(lx.toks[1].end, end);
    } else {
        assert_int_equal(lx.n_toks, 3);
        assert_int_equal(lx.n_comments, 1);
        assert_int_equal(lx.comments[0].start, 7);
        int newline = strcmp(long_kinds[k].close, "\n") == 0; /* not part of it */
        assert_int_equal(lx.comments[0].end, end - (size_t)newline);
    }
    assert_int_equal(st.fed, b.len);
    assert_true(st.rescanned <= RESCAN_MAX(b.len));
    assert_true(st.reads <= 64); /* the buffer doubles: about log2(n / 16 KB) reads */
    sq_buf_free(&b);
}

static void long_tokens_take_linear_work(void **state) {
    (void)state;
    for (size_t k = 0; k < SQ_ARRAY_LEN(long_kinds); k++) expect_linear(k, 1u << 20);
    expect_linear(0, 4u << 20); /* an identifier and a string of 4 MB */
    expect_linear(1, 4u << 20);
}

/* An unterminated string that runs 4 MB to the end of the input. */
static void long_unterminated_string_takes_linear_work(void **state) {
    (void)state;
    SqBuf b = SQ_BUF_INIT;
    sq_buf_puts(&b, "SELECT '");
    sq_buf_repeat(&b, 'a', 4u << 20);
    SqSrcSet set;
    sq_srcset_init(&set);
    Lexer *lexer = lex_open(sq_src_add_copy(&set, "t.sql", b.data, b.len), NULL, NULL);
    LexTok t;
    lex_next(lexer, &t);
    lex_next(lexer, &t);
    assert_int_equal(t.code, LEX_ILLEGAL);
    assert_int_equal(t.why, LEX_OPEN_STRING);
    assert_int_equal(t.end, b.len);
    LexStats st;
    lex_stats(lexer, &st);
    assert_true(st.rescanned <= RESCAN_MAX(b.len));
    lex_close(lexer);
    sq_srcset_free(&set);
    sq_buf_free(&b);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keyword_table_has_sqlites_147_keywords),
        cmocka_unit_test(keyword_lookup_ignores_case),
        cmocka_unit_test(keyword_lookup_rejects_near_misses),
        cmocka_unit_test(non_keywords_have_code_zero),
        cmocka_unit_test(fallback_flags_match_sqlite),
        cmocka_unit_test(keywords_lex_in_any_case),
        cmocka_unit_test(keyword_token_carries_fallback_flag),
        cmocka_unit_test(words_with_non_keyword_chars_are_identifiers),
        cmocka_unit_test(integers_and_floats),
        cmocka_unit_test(hex_integers_stop_at_last_hex_digit),
        cmocka_unit_test(digits_followed_by_id_chars_are_one_illegal_token),
        cmocka_unit_test(second_dot_starts_a_new_number),
        cmocka_unit_test(exponent_needs_a_digit),
        cmocka_unit_test(strings_double_their_quotes),
        cmocka_unit_test(quoted_identifiers_in_three_styles),
        cmocka_unit_test(unterminated_quotes_are_illegal),
        cmocka_unit_test(blobs_need_even_hex_digits),
        cmocka_unit_test(parameters_of_every_form),
        cmocka_unit_test(tcl_style_parameters),
        cmocka_unit_test(parameters_without_a_name_are_illegal),
        cmocka_unit_test(every_operator),
        cmocka_unit_test(operators_need_no_spaces),
        cmocka_unit_test(lone_bang_and_stray_bytes_are_illegal),
        cmocka_unit_test(line_comment_is_skipped_and_reported),
        cmocka_unit_test(block_comment_is_skipped_and_reported),
        cmocka_unit_test(unterminated_block_comment_runs_to_eof),
        cmocka_unit_test(slash_star_closed_by_its_own_star_is_not_closed),
        cmocka_unit_test(slash_star_at_end_of_input_is_two_tokens),
        cmocka_unit_test(comment_markers_inside_strings_are_text),
        cmocka_unit_test(byte_order_mark_is_whitespace),
        cmocka_unit_test(high_bytes_are_identifier_chars),
        cmocka_unit_test(nul_byte_is_illegal),
        cmocka_unit_test(vertical_tab_is_space_only_after_a_space),
        cmocka_unit_test(token_offsets_are_exact_bytes),
        cmocka_unit_test(offsets_survive_long_input),
        cmocka_unit_test(empty_input_is_eof_at_zero),
        cmocka_unit_test(eof_repeats_after_end_of_input),
        cmocka_unit_test(long_tokens_take_linear_work),
        cmocka_unit_test(long_unterminated_string_takes_linear_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
