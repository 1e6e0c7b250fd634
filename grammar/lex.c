/*
** lex.c -- keyword table, SQLite's exact token-length rules, lexer state.
**
** Layer: grammar.  The flex rules in sql.l match a generous run for tokens
** whose extent SQLite decides by context; the functions here replay
** SQLite 3.40's sqlite3GetToken() logic on that run and return the real
** length.  Everything about a token that is not a regular expression lives
** here so that it can be read and tested as C.
*/
#include "grammar/lex_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* Keywords                                                            */
/* ------------------------------------------------------------------ */

#define LEX_KEYWORD_MAX 17 /* CURRENT_TIMESTAMP */

typedef struct Keyword {
    const char *text; /* upper case */
    uint8_t len;
    int code;         /* TK_* */
    uint8_t fallback; /* may stand for an identifier */
} Keyword;

static const Keyword keywords[] = {
#define KW(s, tok, fb) {s, sizeof(s) - 1, TK_##tok, fb},
#include "grammar/keywords.def"
#undef KW
};

/* Compare a word (any case) with an upper-case keyword, like strcmp. */
static int kw_cmp(const char *s, size_t n, const Keyword *k) {
    size_t m = n < k->len ? n : k->len;
    for (size_t i = 0; i < m; i++) {
        int a = (unsigned char)s[i];
        if (a >= 'a' && a <= 'z') a -= 32;
        int b = (unsigned char)k->text[i];
        if (a != b) return a - b;
    }
    return (int)n - (int)k->len;
}

/* Keywords are found through an open-addressing hash table of indexes
** into keywords[] (0 is an empty slot, so an index is stored plus one),
** filled once: a word costs one hash and, nearly always, one comparison. */
#define KW_SLOTS 1024

static uint16_t kw_slots[KW_SLOTS];
static pthread_once_t kw_once = PTHREAD_ONCE_INIT;

/* FNV-1a of the word in upper case. */
static uint32_t kw_hash(const char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        unsigned c = (unsigned char)s[i];
        if (c >= 'a' && c <= 'z') c -= 32;
        h = (h ^ c) * 16777619u;
    }
    return h;
}

static void kw_fill(void) {
    for (size_t k = 0; k < SQ_ARRAY_LEN(keywords); k++) {
        uint32_t i = kw_hash(keywords[k].text, keywords[k].len) % KW_SLOTS;
        while (kw_slots[i]) i = (i + 1) % KW_SLOTS;
        kw_slots[i] = (uint16_t)(k + 1);
    }
}

int lex_keyword(const char *s, size_t n, int *fallback) {
    if (n < 2 || n > LEX_KEYWORD_MAX) return 0;
    pthread_once(&kw_once, kw_fill);
    for (uint32_t i = kw_hash(s, n) % KW_SLOTS; kw_slots[i]; i = (i + 1) % KW_SLOTS) {
        const Keyword *k = &keywords[kw_slots[i] - 1];
        if (k->len != n || kw_cmp(s, n, k) != 0) continue;
        if (fallback) *fallback = k->fallback;
        return k->code;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* Character classes (SQLite's sqlite3CtypeMap & 0x46 and isspace)      */
/* ------------------------------------------------------------------ */

static int is_idchar(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}
static int is_digit(unsigned char c) { return c >= '0' && c <= '9'; }
static int is_xdigit(unsigned char c) {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static int is_space(unsigned char c) {
    return c == ' ' || (c >= '\t' && c <= '\r');
}
static int is_kwchar(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* text[i], or NUL past the end of the run (SQLite sees the next byte, but
** the flex patterns guarantee the run covers every byte SQLite would use). */
#define AT(i) ((i) < n ? (unsigned char)text[i] : 0)

/* ------------------------------------------------------------------ */
/* Exact token lengths                                                 */
/* ------------------------------------------------------------------ */

size_t lex_number(struct Lexer *lx, const char *text, size_t n, int *code) {
    size_t i;
    *code = TK_INTEGER;
    if (AT(0) == '0' && (AT(1) == 'x' || AT(1) == 'X') && is_xdigit(AT(2))) {
        for (i = 3; is_xdigit(AT(i)); i++) {}
        return i; /* SQLite does not check what follows a hex literal */
    }
    for (i = 0; is_digit(AT(i)); i++) {}
    if (AT(i) == '.') {
        i++;
        while (is_digit(AT(i))) i++;
        *code = TK_FLOAT;
    }
    if ((AT(i) == 'e' || AT(i) == 'E') &&
        (is_digit(AT(i + 1)) ||
         ((AT(i + 1) == '+' || AT(i + 1) == '-') && is_digit(AT(i + 2))))) {
        i += 2;
        while (is_digit(AT(i))) i++;
        *code = TK_FLOAT;
    }
    if (is_idchar(AT(i))) {
        while (is_idchar(AT(i))) i++;
        *code = LEX_ILLEGAL;
        lx->why = LEX_BAD_NUMBER;
    }
    return i;
}

size_t lex_variable(struct Lexer *lx, const char *text, size_t n, int *code) {
    size_t i, named = 0;
    unsigned char c;
    *code = TK_VARIABLE;
    for (i = 1; (c = AT(i)) != 0; i++) {
        if (is_idchar(c)) {
            named++;
        } else if (c == '(' && named > 0) {
            do {
                i++;
            } while ((c = AT(i)) != 0 && !is_space(c) && c != ')');
            if (c == ')') i++;
            else *code = LEX_ILLEGAL;
            break;
        } else if (c == ':' && AT(i + 1) == ':') {
            i++;
        } else {
            break;
        }
    }
    if (named == 0) *code = LEX_ILLEGAL;
    if (*code == LEX_ILLEGAL) lx->why = LEX_BAD_VARIABLE;
    return i;
}

size_t lex_blob(struct Lexer *lx, const char *text, size_t n, int *code) {
    size_t i;
    *code = TK_BLOB;
    for (i = 2; is_xdigit(AT(i)); i++) {}
    if (AT(i) != '\'' || i % 2) {
        *code = LEX_ILLEGAL;
        lx->why = LEX_BAD_BLOB;
        while (AT(i) && AT(i) != '\'') i++;
    }
    if (AT(i)) i++;
    return i;
}

size_t lex_word(struct Lexer *lx, const char *text, size_t n, int *code) {
    if (n >= 3 && AT(0) == 0xEF && AT(1) == 0xBB && AT(2) == 0xBF) {
        *code = 0; /* UTF-8 byte-order mark: whitespace to SQLite */
        return 3;
    }
    size_t i = 0;
    *code = TK_ID;
    if (n > LEX_KEYWORD_MAX) return n; /* too long for a keyword */
    while (i < n && is_kwchar(AT(i))) i++;
    if (i == n && is_kwchar(AT(0)) && AT(0) != '_') {
        int fallback = 0;
        int kw = lex_keyword(text, n, &fallback);
        if (kw) {
            *code = kw;
            lx->fallback = (uint8_t)fallback;
        }
    }
    return n;
}

#undef AT

int lex_is_variable(int code) { return code == TK_VARIABLE; }

size_t lex_sqlc_macro(struct Lexer *lx, const char *text, size_t n, int *code) {
    SQ_UNUSED(text);
    if (lx->src->flags & SQ_SRC_SQLC_MACROS) {
        *code = TK_VARIABLE;
        return n;
    }
    *code = TK_ID;   /* "sqlc" is no keyword */
    return 4;
}

/* ------------------------------------------------------------------ */
/* Scanner plumbing                                                    */
/* ------------------------------------------------------------------ */

/* flex asks for more text when a scan reaches the end of its buffer; the
** bytes from the start of the token being matched (pos) to what was fed
** so far are the ones it has just moved and will scan again. */
size_t lex_feed(struct Lexer *lx, char *buf, size_t max) {
    size_t left = lx->src->len - lx->feed;
    size_t n = left < max ? left : max;
    memcpy(buf, lx->src->text + lx->feed, n);
    lx->stats.rescanned += lx->feed - lx->pos;
    lx->stats.reads++;
    lx->feed += n;
    lx->stats.fed = lx->feed;
    return n;
}

void lex_fatal(const char *msg) {
    fprintf(stderr, "squint: scanner failure: %s\n", msg);
    abort();
}

int lex_emit(struct Lexer *lx, SQ_YYSTYPE *val, SqLoc *loc, int code,
             size_t len) {
    val->tok.code = code;
    val->tok.start = lx->pos;
    val->tok.end = lx->pos + (uint32_t)len;
    val->tok.why = code == LEX_ILLEGAL ? lx->why : 0;
    val->tok.kw_fallback = lx->fallback;
    lx->fallback = 0;
    loc->start = val->tok.start;
    loc->end = val->tok.end;
    lx->pos += (uint32_t)len;
    return code;
}

void lex_skip(struct Lexer *lx, size_t len) { lx->pos += (uint32_t)len; }

void lex_comment(struct Lexer *lx, size_t len, int is_block, int unterminated) {
    LexComment c = {lx->pos, lx->pos + (uint32_t)len, (uint8_t)is_block,
                    (uint8_t)unterminated};
    lx->pos += (uint32_t)len;
    if (lx->on_comment) lx->on_comment(lx->arg, &c);
}

/* A slash-star that is not closed.  SQLite makes a bare slash-star at the
** very end of the input into the two tokens '/' and '*'; anything longer
** is a comment that runs to the end.  Returns 1 for the two-token case. */
int lex_block_comment_open(struct Lexer *lx, size_t len) {
    if (len == 2 && lx->pos + 2 == lx->src->len) return 1;
    lex_comment(lx, len, 1, 1);
    return 0;
}

void lex_set_illegal(struct Lexer *lx, LexIllegal why) { lx->why = (uint8_t)why; }

/* ------------------------------------------------------------------ */
/* Public interface                                                    */
/* ------------------------------------------------------------------ */

#define YYSTYPE SQ_YYSTYPE
#define YYLTYPE SQ_YYLTYPE
#include "sql.lex.h"

Lexer *lex_open(const SqSrc *src, LexCommentFn on_comment, void *arg) {
    Lexer *lx = sq_calloc(1, sizeof *lx);
    lx->src = src;
    lx->on_comment = on_comment;
    lx->arg = arg;
    yyscan_t scanner;
    if (sqlyylex_init_extra(lx, &scanner) != 0) sq_oom();
    lx->scanner = scanner;
    return lx;
}

void lex_close(Lexer *lx) {
    if (!lx) return;
    sqlyylex_destroy((yyscan_t)lx->scanner);
    free(lx);
}

void lex_stats(const Lexer *lx, LexStats *out) { *out = lx->stats; }

void lex_next(Lexer *lx, LexTok *out) {
    SQ_YYSTYPE val;
    SqLoc loc;
    sqlyylex(&val, &loc, (yyscan_t)lx->scanner);
    *out = val.tok;
}
