/*
** cli_report.c -- where lint's and check's report goes: standard output,
** or -o FILE, written whole through a temporary file.
**
** Layer: cli.  squint never writes over a file it did not write: an
** existing FILE is replaced only when it is empty or is a report squint
** writes (in any of its formats: a CI job that runs `squint lint -o
** lint.xml` again replaces the last one), or with --force; never when it
** is one of the run's inputs, however named.
*/
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

/* Whether every line of text[0..n) matches the extended regular
** expression re (a last line without its newline too). */
static int every_line(const char *text, size_t n, const char *re) {
    regex_t rx;
    if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0) return 0;
    int ok = 1;
    char *copy = sq_strndup(text, n), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save))
        ok = regexec(&rx, line, 0, NULL, 0) == 0;
    free(copy);
    regfree(&rx);
    return ok;
}

/* The last line of text[0..n), in a buffer of cap bytes. */
static void last_line(const char *text, size_t n, char *out, size_t cap) {
    while (n && text[n - 1] == '\n') n--;
    size_t start = n;
    while (start && text[start - 1] != '\n') start--;
    size_t len = n - start < cap - 1 ? n - start : cap - 1;
    memcpy(out, text + start, len);
    out[len] = '\0';
}

/* Whether text[0..n) is a report lint or check writes, in any format. */
static int is_report(const char *text, size_t n) {
    if (n == 0) return 1;
    char tail[512];
    last_line(text, n, tail, sizeof tail);
    regex_t rx;
    int text_summary = 0;
    if (regcomp(&rx, "^[0-9]+ (findings?|statements? checked)", REG_EXTENDED | REG_NOSUB) == 0) {
        text_summary = regexec(&rx, tail, 0, NULL, 0) == 0;
        regfree(&rx);
    }
    return text_summary ||                                                   /* text */
           (text[0] == '{' && (strstr(text, "\"tool\": \"squint\"") ||           /* lint's JSON */
                               strstr(text, "\"name\": \"squint\"") ||           /* SARIF */
                               (strstr(text, "\"diagnostics\": [") && strstr(text, "\"format_version\": ")))) ||
           (strncmp(text, "<?xml", 5) == 0 && strstr(text, "<testsuites name=\"squint ")) ||   /* JUnit */
           every_line(text, n, "^\\{\"(rule|severity)\":\"") ||                  /* JSON lines */
           every_line(text, n, "^(.+:[0-9]+:[0-9]+|squint): (error|warning|note): ") ||   /* gcc */
           every_line(text, n, "^::(error|warning|notice) ");                     /* GitHub */
}

int cli_report_check(const char *cmd, const char *path, int force, const CliArgs *a, const SqOutInput *more,
                     size_t n_more) {
    size_t n = 0;
    SqOutInput *inputs = sq_malloc(((size_t)(a->argc - a->i) + n_more + 1) * sizeof *inputs);
    for (int i = a->i; i < a->argc; i++) inputs[n++] = (SqOutInput){a->argv[i], "a FILE"};
    for (size_t i = 0; i < n_more; i++)
        if (more[i].path) inputs[n++] = more[i];
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(path, 1, inputs, n, &why);   /* inputs, special files, a writable directory */
    free(inputs);
    if (rc == 0 && !force && sq_path_exists(path)) {
        size_t len;
        int err;
        char *text = sq_read_file(path, &len, &err);
        if (!text) sq_buf_printf(&why, "cannot read '%s' to see what it is: %s", path, strerror(err)), rc = -1;
        else if (!is_report(text, len))
            sq_buf_printf(&why, "'%s' exists and is not a report squint wrote; pass --force to replace it", path), rc = -1;
        free(text);
    }
    if (rc < 0) fprintf(stderr, "squint %s: %s\n", cmd, sq_buf_str(&why));
    sq_buf_free(&why);
    return rc;
}

int cli_report_write(const char *cmd, const char *path, SqBuf *b) {
    if (!path) {
        cli_flush(b, stdout);
        return 0;
    }
    int err = 0;
    if (sq_write_replace(path, sq_buf_str(b), b->len, &err) < 0) {
        fprintf(stderr, "squint %s: cannot write '%s': %s\n", cmd, path, strerror(err));
        return -1;
    }
    sq_buf_reset(b);
    return 0;
}
