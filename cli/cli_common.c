/*
** cli_common.c -- option parsing and diagnostic output for all commands.
**
** Layer: cli.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/util.h"
#include "cli/cli.h"

void cli_args_init(CliArgs *a, int argc, char **argv, const char *cmd) {
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
    a->cmd = cmd;
}

static const CliOpt *find_long(const CliOpt *opts, const char *name, size_t n) {
    for (; opts->long_name; opts++)
        if (strlen(opts->long_name) == n && strncmp(opts->long_name, name, n) == 0)
            return opts;
    return NULL;
}

static const CliOpt *find_short(const CliOpt *opts, char c) {
    for (; opts->long_name; opts++)
        if (opts->short_name == c) return opts;
    return NULL;
}

/* Resolve the option at argv[a->i]; returns NULL with *o unset when the
** word is not an option. */
static const CliOpt *lookup(CliArgs *a, const CliOpt *opts, const char *arg,
                            const char **inline_value) {
    *inline_value = NULL;
    if (arg[1] == '-') {
        const char *name = arg + 2, *eq = strchr(name, '=');
        size_t n = eq ? (size_t)(eq - name) : strlen(name);
        if (eq) *inline_value = eq + 1;
        const CliOpt *o = find_long(opts, name, n);
        if (!o) fprintf(stderr, "squint %s: unknown option '--%.*s'\n", a->cmd, (int)n, name);
        return o;
    }
    const CliOpt *o = arg[2] ? NULL : find_short(opts, arg[1]);
    if (!o) fprintf(stderr, "squint %s: unknown option '%s'\n", a->cmd, arg);
    return o;
}

static int is_operand(const char *arg) { return arg[0] != '-' || arg[1] == 0; } /* "-" is stdin */

/* Move argv[from] back to argv[to] (to <= from), shifting the words in
** between one place on: operands keep their order. */
static void move_back(CliArgs *a, int from, int to) {
    char *w = a->argv[from];
    memmove(&a->argv[to + 1], &a->argv[to], (size_t)(from - to) * sizeof *a->argv);
    a->argv[to] = w;
}

/* Options may follow operands, as with GNU getopt: `squint lint q.sql
** --schema s.sql`.  The next option (or the "--" that ends options) is
** moved before the operands; when there is none, the operands are
** argv[a->i..]. */
const char *cli_next_opt(CliArgs *a, const CliOpt *opts, const char **value) {
    *value = NULL;
    int j = a->i;
    while (j < a->argc && is_operand(a->argv[j])) j++;
    if (j >= a->argc) return NULL;
    if (j > a->i) move_back(a, j, a->i);
    const char *arg = a->argv[a->i];
    if (strcmp(arg, "--") == 0) {
        a->i++;
        return NULL;
    }
    const char *inline_value;
    const CliOpt *o = lookup(a, opts, arg, &inline_value);
    a->i++;
    if (o && o->has_value && !inline_value && j + 1 < a->argc && j > a->i - 1)
        move_back(a, j + 1, a->i); /* its value followed it past the operands */
    if (!o) return "?";
    if (!o->has_value) {
        if (inline_value) {
            fprintf(stderr, "squint %s: option '--%s' takes no value\n", a->cmd,
                    o->long_name);
            return "?";
        }
        return o->long_name;
    }
    if (inline_value) {
        *value = inline_value;
    } else if (a->i < a->argc) {
        *value = a->argv[a->i++];
    } else {
        fprintf(stderr, "squint %s: option '--%s' needs a value\n", a->cmd,
                o->long_name);
        return "?";
    }
    return o->long_name;
}

int cli_parse_format(const char *cmd, const char *value, unsigned allowed, SqFormat *out) {
    int f = sq_format_find(value, allowed);
    if (f >= 0) {
        *out = (SqFormat)f;
        return 1;
    }
    SqBuf names = SQ_BUF_INIT;
    sq_format_names(&names, allowed);
    fprintf(stderr, "squint %s: unknown format '%s' (use %s)\n", cmd, value, sq_buf_str(&names));
    sq_buf_free(&names);
    return 0;
}

int cli_stderr_color_default(void) {
    const char *nc = getenv("NO_COLOR");
    return isatty(STDERR_FILENO) && !(nc && *nc);
}

int cli_stdout_color_default(void) {
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && *nc);
}

int cli_color_setting(const char *value, int *color) {
    if (strcmp(value, "auto") == 0) *color = -1; /* the stream decides, when known */
    else if (strcmp(value, "always") == 0) *color = 1;
    else if (strcmp(value, "never") == 0) *color = 0;
    else return 0;
    return 1;
}

void cli_print_diags_text(const SqDiags *d, size_t from, int color) {
    SqBuf b = SQ_BUF_INIT;
    for (size_t i = from; i < d->n; i++)
        sq_diag_render_text(d, d->items[i], &b, color ? SQ_RENDER_COLOR : 0);
    cli_flush(&b, stderr);
    sq_buf_free(&b);
}

void cli_flush(SqBuf *b, FILE *f) {
    if (b->len) fwrite(b->data, 1, b->len, f);
    sq_buf_reset(b);
}

void cli_io_error(const char *cmd, const char *path, int err) {
    fprintf(stderr, "squint %s: cannot read '%s': %s\n", cmd, path, strerror(err));
}

void cli_progress_start(CliProgress *p) { p->t_start = p->t_last_line = sq_monotonic_seconds(); }

void cli_progress(CliProgress *p, int last, const char *brief) {
    if (p->quiet) return;
    double now = sq_monotonic_seconds(), el = now - p->t_start;
    int tty = isatty(2);
    if (!last && !tty && now - p->t_last_line < 10) return;
    if (!last && tty && now - p->t_last_line < 0.2) return;
    p->t_last_line = now;
    double rate = el > 0 ? (double)p->n_done / el : 0;
    double eta = rate > 0 ? (double)(p->n_todo - p->n_done) / rate : 0;
    char bar[32] = "";
    if (tty) {
        size_t width = 24, full = p->n_todo ? p->n_done * width / p->n_todo : width;
        bar[0] = '[';
        for (size_t k = 0; k < width; k++) bar[k + 1] = k < full ? '#' : '.';
        bar[width + 1] = ']';
        bar[width + 2] = ' ';
        bar[width + 3] = 0;
    }
    fprintf(stderr, "%s%s%s: %zu/%zu %s, %.1f/s, ETA %.0f s; %s%s", tty ? "\r" : "", bar, p->cmd, p->n_done,
            p->n_todo, p->unit, rate, eta, brief, tty && !last ? "\033[K" : "\n");
}

int cli_append_synced(int fd, const char *data, size_t n) {
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, data + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        off += (size_t)w;
    }
    return fsync(fd) < 0 && errno != EINVAL ? -1 : 0;
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *val, double *out) {
    char *end;
    double t = strtod(val, &end);
    if (*end || !*val || t < 0) {
        fprintf(stderr, "squint %s: %s takes seconds (0: none)\n", cmd, opt);
        return SQ_EXIT_USAGE;
    }
    *out = t;
    return -1;
}

int cli_parse_count(const char *cmd, const char *opt, const char *val, long lo, long hi, long *out) {
    char *end;
    long v = strtol(val, &end, 10);
    if (*end || !*val || v < lo || v > hi) {
        fprintf(stderr, "squint %s: %s takes a number from %ld to %ld\n", cmd, opt, lo, hi);
        return SQ_EXIT_USAGE;
    }
    *out = v;
    return -1;
}
