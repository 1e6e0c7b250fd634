/*
** lint_noqa.c -- `-- noqa` comments (see lint_noqa.h).
**
** Layer: backend/lint.  A noqa is matched where it is written on the
** finding's line, as flake8 and ruff match theirs; the near misses are
** looked for in real comments only (not in string literals), by a small
** scanner of SQL's quotes and comments.
*/
#include "backend/lint/lint_noqa.h"

#include <ctype.h>
#include <string.h>

static int rule_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

static int is_blank(char c) { return c == ' ' || c == '\t'; }

/* Past the blanks from p (not past end). */
static const char *skip_blanks(const char *p, const char *end) {
    while (p < end && is_blank(*p)) p++;
    return p;
}

/* Whether w[0..n) names rule (its name or id) or is code. */
static int names_rule(const char *w, size_t n, const SqLintRule *rule, const char *code) {
    return (rule && ((strlen(rule->name) == n && strncasecmp(rule->name, w, n) == 0) ||
                     (strlen(rule->id) == n && strncasecmp(rule->id, w, n) == 0))) ||
           (strlen(code) == n && strncasecmp(code, w, n) == 0);
}

/* Where the noqa that starts at c ("--") ends its word, or NULL when c
** starts no noqa: "--", blanks, "noqa" in any case, then not a letter of
** another word ("-- noqable"). */
static const char *noqa_at(const char *c, const char *end) {
    if (end - c < 2 || c[0] != '-' || c[1] != '-') return NULL;
    const char *w = skip_blanks(c + 2, end);
    if (end - w < 4 || strncasecmp(w, "noqa", 4) != 0) return NULL;
    return w + 4 < end && rule_char(w[4]) ? NULL : w + 4;
}

int sq_noqa_covers(const char *line, const char *end, const SqLintRule *rule, const char *code) {
    const char *q = NULL;
    for (const char *c = line; c + 1 < end && !q; c++) q = noqa_at(c, end);
    if (!q) return 0;
    q = skip_blanks(q, end);
    if (q >= end || *q != ':') return 1;   /* alone (or "because ..."): every finding */
    for (q++; q < end;) {
        while (q < end && (is_blank(*q) || *q == ',')) q++;
        const char *w = q;
        while (q < end && rule_char(*q)) q++;
        if (q == w) return 0;   /* the list ends */
        if (names_rule(w, (size_t)(q - w), rule, code)) return 1;
    }
    return 0;
}

/* ---- near misses ------------------------------------------------------------------- */

/* The edit distance between a[0..n) (any case) and "noqa" when it is at
** most 1 (an insertion, deletion, substitution or swap of two letters
** side by side), else 2. */
static int near_noqa(const char *a, size_t n) {
    static const char want[] = "noqa";
    char w[8];
    if (n < 3 || n > 5) return 2;
    for (size_t i = 0; i < n; i++) w[i] = (char)tolower((unsigned char)a[i]);
    if (n == 4 && memcmp(w, want, 4) == 0) return 0;
    size_t i = 0;
    while (i < n && i < 4 && w[i] == want[i]) i++;   /* the common head */
    size_t j = 0;
    while (j < n - i && j < 4 - i && w[n - 1 - j] == want[3 - j]) j++;   /* and tail */
    if (n == 4 && i + j >= 3) return 1;                                   /* one changed */
    if (n == 4 && i + j == 2 && w[i] == want[i + 1] && w[i + 1] == want[i]) return 1;   /* two swapped */
    if (n != 4 && i + j >= (n < 4 ? n : 4)) return 1;                     /* one added or dropped */
    return 2;
}

/* Whether w[0..n), in any case, is a rule's name or id, or a
** diagnostic's code (E0302, W0001: checked by shape). */
static int known_name(const char *w, size_t n) {
    char lower[64], upper[64];
    if (n >= sizeof lower) return 0;
    for (size_t i = 0; i < n; i++) {
        lower[i] = (char)tolower((unsigned char)w[i]);
        upper[i] = (char)toupper((unsigned char)w[i]);
    }
    lower[n] = upper[n] = '\0';
    if (sq_lint_rule_find(lower) >= 0 || sq_lint_rule_find(upper) >= 0) return 1;
    char k = upper[0];
    return n == 5 && (k == 'E' || k == 'W' || k == 'N') && isdigit((unsigned char)w[1]) &&
           isdigit((unsigned char)w[2]) && isdigit((unsigned char)w[3]) && isdigit((unsigned char)w[4]);
}

/* The comment text[at..end) (after its "--"): a warning when it is a
** near miss. */
static void check_comment(SqDiags *d, const SqSrc *src, size_t dash, size_t end) {
    const char *t = src->text, *e = t + end;
    const char *w = skip_blanks(t + dash + 2, e), *q = w;
    while (q < e && rule_char(*q)) q++;
    int dist = near_noqa(w, (size_t)(q - w));
    SrcSpan at = {src->id, (uint32_t)dash, (uint32_t)(q - t)};
    if (dist == 1) {
        SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_NOQA, at, "'%.*s' is not 'noqa': this comment silences nothing",
                                (int)(q - w), w);
        sq_diag_help(g, "write '-- noqa' (or '-- noqa: rule-name')");
        return;
    }
    if (dist != 0) return;
    q = skip_blanks(q, e);
    if (q >= e || *q != ':') return;
    for (q++; q < e;) {
        while (q < e && (is_blank(*q) || *q == ',')) q++;
        const char *n = q;
        while (q < e && rule_char(*q)) q++;
        if (q == n) return;
        if (!known_name(n, (size_t)(q - n))) {
            SrcSpan name = {src->id, (uint32_t)(n - t), (uint32_t)(q - t)};
            SqDiag *g = sq_diag_add(d, SQ_SEV_WARNING, SQ_W_NOQA, name,
                                    "'%.*s' in this noqa is no rule and no code: it silences nothing", (int)(q - n), n);
            sq_diag_help(g, "'squint lint --list-rules' lists the rules' names and ids");
        }
    }
}

/* Where the quoted text that opens at text[i] ends (past its closing
** quote, a doubled quote inside it kept), or n. */
static size_t skip_quoted(const char *text, size_t i, size_t n) {
    char close = text[i] == '[' ? ']' : text[i];
    for (i++; i < n; i++) {
        if (text[i] != close) continue;
        if (close != ']' && i + 1 < n && text[i + 1] == close) i++;
        else return i + 1;
    }
    return n;
}

void sq_noqa_check(SqDiags *d, const SqSrc *src) {
    const char *t = src->text;
    size_t n = src->len;
    for (size_t i = 0; i < n;) {
        char c = t[i];
        if (c == '\'' || c == '"' || c == '`' || c == '[') {
            i = skip_quoted(t, i, n);
        } else if (c == '-' && i + 1 < n && t[i + 1] == '-') {
            size_t end = i;
            while (end < n && t[end] != '\n') end++;
            check_comment(d, src, i, end);
            i = end;
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            const char *close = strstr(t + i + 2, "*/");
            i = close ? (size_t)(close - t) + 2 : n;
        } else {
            i++;
        }
    }
}
