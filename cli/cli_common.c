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
#include "cli/cli_config.h"

void cli_args_init(CliArgs *a, int argc, char **argv, const char *cmd) {
    memset(a, 0, sizeof *a);
    a->argc = argc;
    a->argv = argv;
    a->i = 1;
    a->cmd = cmd;
    a->short_at = 0;
}

int cli_usage_hint(const char *cmd) {
    fprintf(stderr, "try 'squint %s --help'\n", cmd);
    return SQ_EXIT_USAGE;
}

const CliOpt *cli_opt_long(const CliOpt *opts, const char *name, size_t n, int *several) {
    const CliOpt *found = NULL;
    *several = 0;
    for (const CliOpt *o = opts; o->long_name; o++) {
        if (strncmp(o->long_name, name, n) != 0) continue;
        if (strlen(o->long_name) == n) return o;
        if (found && strcmp(found->long_name, o->long_name) != 0) *several = 1;
        found = found ? found : o;
    }
    return *several ? NULL : found;
}

const CliOpt *cli_opt_short(const CliOpt *opts, char c) {
    for (; opts->long_name; opts++)
        if (opts->short_name == c) return opts;
    return NULL;
}

/* cli_opt_long, with a message when there is no option, or several. */
static const CliOpt *find_long(const CliArgs *a, const CliOpt *opts, const char *name, size_t n) {
    int several;
    const CliOpt *found = cli_opt_long(opts, name, n, &several);
    if (several) {
        fprintf(stderr, "squint %s: option '--%.*s' is ambiguous:", a->cmd, (int)n, name);
        for (const CliOpt *o = opts; o->long_name; o++)
            if (strncmp(o->long_name, name, n) == 0) fprintf(stderr, " --%s", o->long_name);
        fputc('\n', stderr);
        return NULL;
    }
    if (!found) fprintf(stderr, "squint %s: unknown option '--%.*s'\n", a->cmd, (int)n, name);
    return found;
}

static int is_operand(const char *arg) { return arg[0] != '-' || arg[1] == 0; } /* "-" is stdin */

/* Move argv[from] back to argv[to] (to <= from), shifting the words in
** between one place on: operands keep their order. */
static void move_back(CliArgs *a, int from, int to) {
    char *w = a->argv[from];
    memmove(&a->argv[to + 1], &a->argv[to], (size_t)(from - to) * sizeof *a->argv);
    a->argv[to] = w;
}

int cli_version(void) {
    printf("squint %s\n", SQUINT_VERSION);
    return SQ_EXIT_OK;
}

/* "--version", which every command takes: the version, and the end. */
static void print_version_and_exit(void) {
    fflush(stderr);
    exit(cli_version());
}

/* The value of the option at argv[a->i - 1], which takes one: the word
** that followed it (brought back when the option was moved from
** moved_from, past operands), or NULL after a message.  An operand
** before the option is never its value. */
static const char *next_value(CliArgs *a, const CliOpt *o, int moved_from) {
    if (moved_from > a->i - 1) {   /* it stood after operands */
        if (moved_from + 1 < a->argc) {
            move_back(a, moved_from + 1, a->i);
            return a->argv[a->i++];
        }
    } else if (a->i < a->argc) {
        return a->argv[a->i++];
    }
    fprintf(stderr, "squint %s: option '--%s' needs a value\n", a->cmd, o->long_name);
    return NULL;
}

/* One letter of a cluster of short options ("-qv", "-fjson"), at
** argv[a->i][a->short_at]: a letter that takes no value leaves the rest
** for the next call; one that takes a value takes the rest, or the next
** word. */
static const char *short_opt(CliArgs *a, const CliOpt *opts, const char **value, int moved_from) {
    const char *word = a->argv[a->i];
    int at = a->short_at ? a->short_at : 1;
    const CliOpt *o = cli_opt_short(opts, word[at]);
    a->short_at = 0;
    if (!o) {
        fprintf(stderr, "squint %s: unknown option '-%c'\n", a->cmd, word[at]);
        a->i++;
        return "?";
    }
    if (!o->has_value) {
        if (word[at + 1]) a->short_at = at + 1;
        else a->i++;
        return o->long_name;
    }
    a->i++;
    *value = word[at + 1] ? word + at + 1 : next_value(a, o, moved_from);
    return *value ? o->long_name : "?";
}

/* Options may follow operands, as with GNU getopt: `squint lint q.sql
** --schema s.sql`.  The next option (or the "--" that ends options) is
** moved before the operands; when there is none, the operands are
** argv[a->i..].  The parser is our own rather than getopt_long because
** of that move with the option's value, and of messages in squint's
** words; it takes what getopt_long takes besides (clusters, abbreviated
** long names, --name=value). */
static const char *next_opt(CliArgs *a, const CliOpt *opts, const char **value) {
    *value = NULL;
    if (a->short_at) return short_opt(a, opts, value, a->i);
    int j = a->i;
    while (j < a->argc && is_operand(a->argv[j])) j++;
    if (j >= a->argc) return NULL;
    if (j > a->i) move_back(a, j, a->i);
    const char *arg = a->argv[a->i];
    if (strcmp(arg, "--") == 0) {
        a->i++;
        return NULL;
    }
    if (arg[1] != '-') return short_opt(a, opts, value, j);
    const char *name = arg + 2, *eq = strchr(name, '=');
    size_t n = eq ? (size_t)(eq - name) : strlen(name);
    a->i++;
    if (!eq && strcmp(name, "version") == 0) {
        const CliOpt *own = opts;
        while (own->long_name && strcmp(own->long_name, "version") != 0) own++;
        if (!own->long_name) print_version_and_exit();
    }
    const CliOpt *o = find_long(a, opts, name, n);
    if (!o) return "?";
    if (!o->has_value) {
        if (!eq) return o->long_name;
        fprintf(stderr, "squint %s: option '--%s' takes no value\n", a->cmd, o->long_name);
        return "?";
    }
    *value = eq ? eq + 1 : next_value(a, o, j);
    return *value ? o->long_name : "?";
}

/* The project file's options come first (cli_config.h), then argv's;
** the options every command takes are read here, and at the end the
** operands of commands that read query files are expanded. */
const char *cli_next_opt(CliArgs *a, const CliOpt *opts, const char **value) {
    if (!a->begun) {
        a->begun = 1;
        if (cli_config_begin(a, opts) < 0) return "?";   /* told, with positions */
    }
    for (;;) {
        const char *name = cli_config_next(a, value);
        if (!name) name = next_opt(a, a->opts, value);
        if (!name) {
            if (!a->ended && (a->ended = 1, cli_config_operands(a) < 0)) return "?";
            return NULL;
        }
        if (strcmp(name, "?") == 0) {
            cli_usage_hint(a->cmd);
            return name;
        }
        if (!cli_config_generic(a, name, *value)) return name;
    }
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

/* Whether environment variable name is set to something other than ""
** and "0". */
static int env_on(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

/* --color auto on the stream fd: FORCE_COLOR or CLICOLOR_FORCE turn it
** on (a CI job's log is no terminal but shows colors); else NO_COLOR
** (any value but "") and TERM=dumb turn it off; else a terminal has it. */
static int color_default(int fd) {
    if (env_on("FORCE_COLOR") || env_on("CLICOLOR_FORCE")) return 1;
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    if ((nc && *nc) || (term && strcmp(term, "dumb") == 0)) return 0;
    return isatty(fd);
}

int cli_stderr_color_default(void) { return color_default(STDERR_FILENO); }

int cli_stdout_color_default(void) { return color_default(STDOUT_FILENO); }

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

int cli_parse_instant(const char *val, int64_t *out) {
    int y, mo, d, h = 0, mi = 0, sec = 0, used = 0;
    size_t n = strlen(val);
    if (n == 10) {
        if (sscanf(val, "%4d-%2d-%2d%n", &y, &mo, &d, &used) != 3) return -1;
    } else if (n == 19) {
        if (sscanf(val, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &sec, &used) != 6) return -1;
    } else {
        return -1;
    }
    if ((size_t)used != n || y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 59)
        return -1;
    /* days from 1970-01-01 to y-mo-d (the civil calendar, no time zone) */
    static const int before[12] = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    int month_days = mo == 2 ? 28 + leap : (mo == 4 || mo == 6 || mo == 9 || mo == 11) ? 30 : 31;
    if (d > month_days) return -1;
    int64_t days = (int64_t)(y - 1970) * 365 + (y - 1969) / 4 - (y - 1901) / 100 + (y - 1601) / 400;
    days += before[mo - 1] + (mo > 2 && leap) + d - 1;
    *out = days * 86400 + h * 3600 + mi * 60 + sec;
    return *out > 0 ? 0 : -1;
}
