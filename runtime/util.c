/*
** util.c -- checked allocation, ASCII case-insensitive compares, file reads.
**
** Layer: runtime.  The only function in the library that terminates the
** process is sq_oom(); it is called when the C allocator fails.
*/
#include "runtime/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void sq_oom(void) {
    fputs("squint: out of memory\n", stderr);
    abort();
}

void *sq_malloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) sq_oom();
    return p;
}

void *sq_calloc(size_t n, size_t sz) {
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) sq_oom();
    return p;
}

void *sq_realloc(void *p, size_t n) {
    void *q = realloc(p, n ? n : 1);
    if (!q) sq_oom();
    return q;
}

char *sq_strndup(const char *s, size_t n) {
    char *d = sq_malloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *sq_strdup(const char *s) { return sq_strndup(s, strlen(s)); }

char *sq_strdup_lower(const char *s) {
    char *d = sq_strdup(s);
    for (char *p = d; *p; p++) *p = (char)sq_ascii_lower((unsigned char)*p);
    return d;
}

int sq_strnicmp(const char *a, const char *b, size_t n) {
    for (size_t i = 0; i < n; i++) {
        int ca = sq_ascii_lower((unsigned char)a[i]);
        int cb = sq_ascii_lower((unsigned char)b[i]);
        if (ca != cb) return ca - cb;
        if (ca == 0) return 0;
    }
    return 0;
}

int sq_contains_nocase(const char *s, const char *needle) {
    size_t n = strlen(needle);
    for (; *s; s++)
        if (sq_strnicmp(s, needle, n) == 0) return 1;
    return n == 0;
}

int sq_cmp_cstr(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int sq_ends_with(const char *s, const char *tail, int nocase) {
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && (nocase ? sq_stricmp(s + n - m, tail) : strcmp(s + n - m, tail)) == 0;
}

int sq_starts_with(const char *s, const char *head) { return strncmp(s, head, strlen(head)) == 0; }

char *sq_path_normal(const char *cwd, const char *path) {
    size_t cap = strlen(cwd) + strlen(path) + 3, n = 0;
    char *joined = sq_malloc(cap), *out = sq_malloc(cap);
    snprintf(joined, cap, "%s%s%s", path[0] == '/' ? "" : cwd, path[0] == '/' ? "" : "/", path);
    for (const char *p = joined; *p;) {
        while (*p == '/') p++;
        size_t len = strcspn(p, "/");
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && out[n - 1] != '/') n--;
            if (n > 0) n--;
        } else if (len && !(len == 1 && p[0] == '.')) {
            out[n++] = '/';
            memcpy(out + n, p, len);
            n += len;
        }
        p += len;
    }
    if (n == 0) out[n++] = '/';
    out[n] = 0;
    free(joined);
    return out;
}

const char *sq_path_under(const char *abs, const char *base) {
    if (strcmp(base, "/") == 0) return abs[0] == '/' && abs[1] ? abs + 1 : NULL;
    size_t n = strlen(base);
    return strncmp(abs, base, n) == 0 && abs[n] == '/' ? abs + n + 1 : NULL;
}

int sq_path_up(char *dir) {
    char *slash = strrchr(dir, '/');
    if (!slash || strcmp(dir, "/") == 0) return 0;
    if (slash == dir) slash[1] = 0;
    else *slash = 0;
    return 1;
}

int sq_stricmp(const char *a, const char *b) {
    for (;; a++, b++) {
        int ca = sq_ascii_lower((unsigned char)*a);
        int cb = sq_ascii_lower((unsigned char)*b);
        if (ca != cb || ca == 0) return ca - cb;
    }
}

/* Read with a growing buffer rather than trusting st_size, so pipes and
** /dev/stdin work the same as regular files. */
char *sq_read_file(const char *path, size_t *len, int *err) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        *err = errno;
        return NULL;
    }
    /* a regular file's size is known: one read fills the buffer (the
    ** loop still follows a file that grows meanwhile, or a pipe) */
    struct stat st;
    size_t cap = 1 << 16, n = 0;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size < SIZE_MAX / 2 - 8192)
        cap = (size_t)st.st_size + 4096 + 2 + 1;
    errno = 0;
    char *buf = sq_malloc(cap);
    for (;;) {
        if (cap - n < 4096 + 2) buf = sq_realloc(buf, cap *= 2);
        size_t got = fread(buf + n, 1, cap - n - 2, f);
        n += got;
        if (got == 0) break;
    }
    int failed = ferror(f), saved = errno;
    if (f != stdin) fclose(f);
    if (failed) {
        free(buf);
        *err = saved ? saved : EIO;
        return NULL;
    }
    buf[n] = buf[n + 1] = 0; /* two NULs: flex's end-of-buffer marker */
    *len = n;
    *err = 0;
    return buf;
}

static int same_char(char a, char b) {
    return sq_ascii_lower((unsigned char)a) == sq_ascii_lower((unsigned char)b);
}

/* Rows i-2, i-1 and i of the dynamic-programming table are kept. */
size_t sq_edit_distance(const char *a, size_t na, const char *b, size_t nb, size_t cap) {
    if ((na > nb ? na - nb : nb - na) > cap) return cap + 1;
    size_t stack[3 * 65];
    size_t *rows = nb <= 64 ? stack : sq_malloc(3 * (nb + 1) * sizeof *rows);
    size_t *two = rows, *one = rows + nb + 1, *cur = rows + 2 * (nb + 1);
    size_t d = cap + 1;
    for (size_t j = 0; j <= nb; j++) one[j] = j;
    for (size_t i = 1; i <= na; i++) {
        size_t low = cur[0] = i;
        for (size_t j = 1; j <= nb; j++) {
            size_t best = one[j - 1] + !same_char(a[i - 1], b[j - 1]);
            if (one[j] + 1 < best) best = one[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && same_char(a[i - 1], b[j - 2]) && same_char(a[i - 2], b[j - 1]) &&
                two[j - 2] + 1 < best)
                best = two[j - 2] + 1;
            cur[j] = best;
            if (best < low) low = best;
        }
        if (low > cap) goto out;
        size_t *t = two;
        two = one;
        one = cur;
        cur = t;
    }
    d = one[nb] <= cap ? one[nb] : cap + 1;
out:
    if (rows != stack) free(rows);
    return d;
}

double sq_monotonic_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sq_utc_text(int64_t unix_seconds, char out[20]) {
    time_t t = (time_t)unix_seconds;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 20, "%Y-%m-%d %H:%M:%S", &tm);
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int sq_hex_decode(const char *hex, size_t n, char *out) {
    if (n % 2) return -1;
    for (size_t i = 0; i < n; i += 2) {
        int hi = hex_digit(hex[i]), lo = hex_digit(hex[i + 1]);
        if (hi < 0 || lo < 0) return -1;
        out[i / 2] = (char)(hi * 16 + lo);
    }
    return 0;
}
