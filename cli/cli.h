/*
** cli.h -- what the command files share: exit codes, option parsing,
** diagnostic output.
**
** Layer: cli.  The only layer that prints, reads argv or decides exit
** codes.  One file per command (cmd_<name>.c), each exporting
** cmd_<name>(argc, argv).
*/
#ifndef SQ_CLI_H
#define SQ_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/diag.h"
#include "runtime/safewrite.h"
#include "runtime/format.h"
#include "runtime/version.h"

/* Exit codes, for every command. */
typedef enum SqExit {
    SQ_EXIT_OK = 0,       /* clean */
    SQ_EXIT_FINDINGS = 1, /* findings, errors in the input SQL, differences */
    SQ_EXIT_USAGE = 2,    /* bad usage or unreadable input */
    SQ_EXIT_UNKNOWN = 3,  /* a verdict could not be reached */
} SqExit;

/* The last line of every command's exit statuses: the one way a command
** ends that is none of its codes. */
#define CLI_EXIT_OOM "out of memory ends any command with 'squint: out of memory' and an abort\n" \
                     "(status 134 in a shell); no command ends any other way\n"

/* A command: name, one-line summary, entry point. */
typedef struct CliCommand {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
} CliCommand;

int cmd_parse(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_ir(int argc, char **argv);
int cmd_emit(int argc, char **argv);
int cmd_passes(int argc, char **argv);
int cmd_opt(int argc, char **argv);
int cmd_graph(int argc, char **argv);
int cmd_lint(int argc, char **argv);
int cmd_equiv(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_fixture(int argc, char **argv);
int cmd_prompt(int argc, char **argv);
int cmd_llm(int argc, char **argv);
int cmd_compile(int argc, char **argv);
int cmd_template(int argc, char **argv);
int cmd_expand(int argc, char **argv);

/* ---- option parsing ------------------------------------------------ */

/* A getopt_long-alike: options may be "--name value", "--name=value",
** an abbreviation of name that no other option shares, "-x value",
** "-xvalue" or a cluster "-qv"; "--" ends options; options may follow
** operands.  Returns the option's canonical long name (from the table)
** or NULL at the first operand; *value is set for options that take one.
** "--version", when the table has no such option, prints squint's
** version and exits 0.  Errors go to stderr, one line and the hint
** "try 'squint CMD --help'", and return "?": the caller then returns
** SQ_EXIT_USAGE without more. */
typedef struct CliOpt {
    const char *long_name; /* "format" */
    char short_name;       /* 'f' or 0 */
    int has_value;
} CliOpt;

/* An option the project file gives (cli_config.h). */
typedef struct CliQueued {
    const char *name, *value;
} CliQueued;

/* An exclude pattern and the absolute directory it is relative to. */
typedef struct CliPattern {
    const char *pattern, *base;
} CliPattern;

/* What a command's operands are (CliArgs.operands). */
enum {
    CLI_OPERANDS_OTHER = 0,   /* anything: taken as given */
    CLI_OPERANDS_FILES,       /* query files: directories are walked and
                                 exclude patterns apply (cli_walk.h) */
    CLI_OPERANDS_PROJECT,     /* the same, and the project's "files" when
                                 the command line names none */
};

typedef struct CliArgs {
    int argc;
    char **argv;        /* replaced by the expanded operands once options
                           end, for CLI_OPERANDS_FILES and _PROJECT */
    int i;              /* next argv index */
    const char *cmd;    /* command name, for messages */
    int short_at;       /* inside a cluster of short options: the next
                           letter's offset in argv[i]; else 0 */
    int operands;       /* CLI_OPERANDS_*, set by the command before
                           reading options */
    /* Kept by cli_next_opt and cli_config.c: */
    int begun, ended;
    const CliOpt *cmd_opts; /* the command's table */
    const CliOpt *opts;     /* it, and the generic options it lacks */
    uint8_t *given;         /* per opts entry: argv gives it */
    CliQueued *queued;      /* the project file's options for the command */
    uint32_t n_queued, cap_queued, next_queued;
    CliPattern *excludes;
    uint32_t n_excludes, cap_excludes;
} CliArgs;

/* Each command's options, for the project file's sections (cli_config.c). */
extern const CliOpt cli_opts_parse[], cli_opts_check[], cli_opts_ir[], cli_opts_emit[], cli_opts_passes[],
    cli_opts_opt[], cli_opts_graph[], cli_opts_lint[], cli_opts_equiv[], cli_opts_eval[], cli_opts_merge[],
    cli_opts_fixture[], cli_opts_fixture_llm[], cli_opts_prompt[], cli_opts_llm_run[], cli_opts_llm_import[],
    cli_opts_compile[], cli_opts_template_extract[], cli_opts_template_sample[],
    cli_opts_expand[];

void cli_args_init(CliArgs *a, int argc, char **argv, const char *cmd);
/* The hint after a usage error's one line: "try 'squint CMD --help'" on
** stderr.  Returns SQ_EXIT_USAGE. */
int cli_usage_hint(const char *cmd);
/* "squint VERSION" on stdout (squint version, and every --version);
** returns SQ_EXIT_OK. */
int cli_version(void);
const char *cli_next_opt(CliArgs *a, const CliOpt *opts, const char **value);
/* The entry of opts for long name name[0..n): the one spelled so, else
** the only one it begins (--form for --format, as getopt_long takes it);
** NULL when none, or several (*several then 1).  And the entry for the
** short letter c, or NULL.  No messages: cli_next_opt says what is wrong. */
const CliOpt *cli_opt_long(const CliOpt *opts, const char *name, size_t n, int *several);
const CliOpt *cli_opt_short(const CliOpt *opts, char c);
/* --format's value, one of allowed (a set of SQ_FMT_BIT); 0 after a
** message naming the allowed formats. */
int cli_parse_format(const char *cmd, const char *value, unsigned allowed, SqFormat *out);
/* The formats of a command that writes text or JSON. */
#define CLI_TEXT_OR_JSON (SQ_FMT_BIT(SQ_FMT_TEXT) | SQ_FMT_BIT(SQ_FMT_JSON))

/* ---- output ------------------------------------------------------- */

/* Whether to color diagnostics on stderr (--color auto|always|never). */
/* --color: always 1, never 0, auto -1 (decided by the stream written to:
** a terminal, and NO_COLOR unset). */
int cli_color_setting(const char *value, int *color);
int cli_stderr_color_default(void);
int cli_stdout_color_default(void);

/* Print diagnostics [from, d->n) as text to stderr. */
void cli_print_diags_text(const SqDiags *d, size_t from, int color);
/* Write the whole buffer to f and empty it. */
void cli_flush(SqBuf *b, FILE *f);

/* ---- a report on stdout or in -o FILE (cli_report.c) ---------------- */

/* Whether the report may go to path (-o): never one of the run's inputs
** (its operands argv[a->i..], and more[0..n_more), whose NULL paths are
** skipped), nor a special file; an existing file only when it is empty
** or a report squint writes, or with force.  0, or -1 after a message. */
int cli_report_check(const char *cmd, const char *path, int force, const CliArgs *a, const SqOutInput *more,
                     size_t n_more);
/* Write b to path (replaced whole), or to stdout when path is NULL, and
** empty it.  0, or -1 after a message. */
int cli_report_write(const char *cmd, const char *path, SqBuf *b);

/* ---- requests for a language model (cmd_prompt.c) ------------------- */

/* Whether a file of requests (the OpenAI batch lines squint prompt and
** squint expand --requests write) may go to path, opt naming it in
** messages: never one of in[0..n) nor a special file; an existing file
** only when it holds nothing but requests, or with force.  0, or -1
** after a message. */
int cli_requests_out_check(const char *cmd, const char *opt, const char *path, int force, const SqOutInput *in,
                           size_t n);

/* Report a file that cannot be read (errno in err). */
void cli_io_error(const char *cmd, const char *path, int err);

/* ---- runs over many items (eval, fixture) --------------------------- */

/* A progress line on stderr: on a terminal a bar redrawn in place, else
** a plain line every 10 s (and at the end). */
typedef struct CliProgress {
    const char *cmd;        /* "eval" */
    const char *unit;       /* "items" */
    int quiet;              /* print nothing */
    size_t n_todo, n_done;
    double t_start, t_last_line;
} CliProgress;
/* Start the clock. */
void cli_progress_start(CliProgress *p);
/* The line, with brief (a summary so far) after the counts; last: the
** final one, always printed and ended with a newline. */
void cli_progress(CliProgress *p, int last, const char *brief);

/* Option values of a command's own options, with the message
** "squint CMD: OPT takes ..." on a bad one.  Each returns -1 (go on, the
** value in *out) or SQ_EXIT_USAGE, as a command's option handler does. */
/* Seconds, 0 or more (0: none). */
int cli_parse_seconds(const char *cmd, const char *opt, const char *val, double *out);
/* A whole number from lo to hi. */
int cli_parse_count(const char *cmd, const char *opt, const char *val, long lo, long hi, long *out);
/* A UTC instant 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' from 1970 on, as
** unix seconds (the civil calendar, no time zone): 0, or -1 when
** malformed. */
int cli_parse_instant(const char *val, int64_t *out);

/* Append data[0..n) to fd whole, then fsync it: a record that is there
** stays there.  0, or -1 with errno set. */
int cli_append_synced(int fd, const char *data, size_t n);

#endif
