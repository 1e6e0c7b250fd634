/*
** cmd_passes.c -- `squint passes`: list the passes `squint opt` can run.
**
** Layer: cli.
*/
#include <string.h>

#include "passes/pass.h"
#include "cli/cli.h"
#include "cli/cli_config.h"

static const char usage[] =
    "usage: squint passes [--format text|json]\n"
    "\n"
    "List every pass: its name, whether it rewrites the IR or analyses it, the\n"
    "passes it runs first, and what it does.  Run passes with 'squint opt'.\n"
    "\n"
    "options:\n"
    "  -f, --format FMT   text (default) or json\n"
    "  -h, --help         show this help\n"
    "      --version      print the version and exit\n"
    "\n"
    "exit status: 0 listed, 2 usage error\n"
    CLI_EXIT_OOM;

const CliOpt cli_opts_passes[] = {{"format", 'f', 1}, {"help", 'h', 0}, {NULL, 0, 0}};

static void print_text(SqBuf *b) {
    size_t n;
    const SqPass *all = sq_pass_all(&n);
    for (size_t i = 0; i < n; i++) {
        sq_buf_printf(b, "%-17s %-8s %s\n", all[i].name,
                      all[i].kind == SQ_PASS_REWRITE ? "rewrite" : "analysis", all[i].summary);
        if (all[i].deps && all[i].deps[0]) {
            sq_buf_puts(b, "                  needs:");
            for (const char *const *d = all[i].deps; *d; d++) sq_buf_printf(b, " %s", *d);
            sq_buf_putc(b, '\n');
        }
    }
}

static void print_json(SqBuf *b) {
    size_t n;
    const SqPass *all = sq_pass_all(&n);
    SqJsonWriter w;
    sq_jw_init(&w, b, 1);
    sq_jw_arr_begin(&w);
    for (size_t i = 0; i < n; i++) {
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "name");
        sq_jw_str(&w, all[i].name);
        sq_jw_key(&w, "kind");
        sq_jw_str(&w, all[i].kind == SQ_PASS_REWRITE ? "rewrite" : "analysis");
        sq_jw_key(&w, "needs");
        sq_jw_arr_begin(&w);
        for (const char *const *d = all[i].deps; d && *d; d++) sq_jw_str(&w, *d);
        sq_jw_arr_end(&w);
        sq_jw_key(&w, "summary");
        sq_jw_str(&w, all[i].summary);
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    sq_buf_putc(b, '\n');
}

int cmd_passes(int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "passes");
    SqFormat format = SQ_FMT_TEXT;
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_passes, &val)) != NULL) {
        if (strcmp(name, "help") == 0) {
            fputs(usage, stdout);
            cli_help_common(stdout, cli_opts_passes, 0);
            return SQ_EXIT_OK;
        }
        if (strcmp(name, "format") != 0 || !cli_parse_format("passes", val, CLI_TEXT_OR_JSON, &format))
            return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    if (a.i < argc) {
        fprintf(stderr, "squint passes: unexpected operand '%s' (it takes none)\n", argv[a.i]);
        return cli_usage_hint("passes");
    }
    SqBuf b = SQ_BUF_INIT;
    if (format == SQ_FMT_JSON) print_json(&b);
    else print_text(&b);
    cli_flush(&b, stdout);
    sq_buf_free(&b);
    return SQ_EXIT_OK;
}
