/*
** main.c -- `squint <command> ...`: dispatch to the command files.
**
** Layer: cli.
*/
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"


static const CliCommand commands[] = {
    {"parse", "parse SQL and print its syntax tree (sexp or JSON)", cmd_parse},
    {"check", "check SQL files and report every problem", cmd_check},
    {"ir", "print the relational IR of each query (text, JSON or SQL)", cmd_ir},
    {"emit", "run an emitter on each query (sql, ddl: 'squint emit --list')", cmd_emit},
    {"passes", "list the analysis and rewrite passes", cmd_passes},
    {"opt", "run passes on each query and print the result", cmd_opt},
    {"graph", "schema graphs and join query graphs, with statistics", cmd_graph},
    {"lint", "find likely bugs in SQL and benchmark gold queries", cmd_lint},
    {"equiv", "search for a database on which two queries differ", cmd_equiv},
    {"eval", "score predictions: EX-test, EX-verified, cross-checked", cmd_eval},
    {"merge", "combine the record files of squint eval shards", cmd_merge},
    {"fixture", "test suites: databases that tell a gold query from near misses", cmd_fixture},
    {"prompt", "requests for a language model, OpenAI batch JSONL ('squint prompt --list')", cmd_prompt},
    {"compile", "annotated query files (sqlc's '-- name: X :one') into a typed JSON manifest", cmd_compile},
    {"template", "queries as templates with typed slots ('squint template extract')", cmd_template},
    {"expand", "join one more table to each query along the schema's keys (seed 001's JQE)", cmd_expand},
    {"llm", "send requests to an OpenAI-compatible API, resumable and cached ('squint llm run')", cmd_llm},
};

static void usage(FILE *f) {
    fputs("usage: squint <command> [options] [args]\n"
          "\n"
          "squint reads SQL as a compiler does: it parses SQLite's dialect exactly,\n"
          "resolves every query against its schema, and reasons about what it means.\n"
          "It lints the gold queries of text-to-SQL benchmarks (Spider, BIRD), proves\n"
          "or refutes that two queries are equivalent by searching for a small\n"
          "database on which they differ, scores predictions with that search, builds\n"
          "test databases, and compiles annotated query files into typed C bindings.\n"
          "\n"
          "commands:\n", f);
    for (size_t i = 0; i < SQ_ARRAY_LEN(commands); i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fputs("\n  help     show this list (or 'squint help CMD' for one command)\n"
          "  version  print the version\n\n"
          "Run 'squint CMD --help' for the options of a command.\n", f);
}

/* squint version [--help]: the version on stdout. */
static int version(int argc, char **argv) {
    static const char help[] =
        "usage: squint version\n"
        "\n"
        "Print squint's version: 'squint' and the version number on one line.  Every\n"
        "command prints it too with --version.\n"
        "\n"
        "options:\n"
        "  -h, --help             show this help\n"
        "\n"
        "exit status: 0, or 2 for an operand or an unknown option\n";
    if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
        fputs(help, stdout);
        return SQ_EXIT_OK;
    }
    if (argc > 2) {
        fprintf(stderr, "squint version: unexpected '%s'\ntry 'squint version --help'\n", argv[2]);
        return SQ_EXIT_USAGE;
    }
    return cli_version();
}

static const CliCommand *find(const char *name) {
    for (size_t i = 0; i < SQ_ARRAY_LEN(commands); i++)
        if (strcmp(commands[i].name, name) == 0) return &commands[i];
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        usage(stderr);
        return SQ_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 || strcmp(name, "--help") == 0 ||
        strcmp(name, "-h") == 0) {
        if (argc > 2 && strcmp(argv[2], "version") == 0) {
            char *help_argv[] = {argv[0], "version", "--help", NULL};
            return version(3, help_argv);
        }
        const CliCommand *c = argc > 2 ? find(argv[2]) : NULL;
        if (c) {
            char *help_argv[] = {argv[2], "--help", NULL};
            return c->run(2, help_argv);
        }
        usage(stdout);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "version") == 0 || strcmp(name, "--version") == 0) return version(argc, argv);
    const CliCommand *c = find(name);
    if (!c) {
        fprintf(stderr, "squint: unknown command '%s'\ntry 'squint --help'\n", name);
        return SQ_EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}
