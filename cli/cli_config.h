/*
** cli_config.h -- the project file: one JSON file, `.squint.json` or
** `squint.json`, that every command reads (docs/config.md).
**
** Layer: cli.  A benchmark repository states once what every command
** would otherwise repeat (--tables tables.json --db-root database), its
** lint settings, the defaults of each command and squint compile's
** packages:
**
**   { "tables": "tables.json", "db-root": "database",
**     "files": ["dev.json", "queries"], "exclude": ["scratch", "*.tmp.sql"],
**     "lint": {"disable": ["select-star"], "format": "gcc"},
**     "eval": {"semantics": "spider", "jobs": 2},
**     "version": 1, "packages": [...] }
**
** The file is the nearest one above the current directory, or --config
** FILE; --no-config reads none.  A command's section holds its long
** options by name, and they act as if given first on the command line:
** an option the command line gives replaces the file's (one schema
** source replaces another).  Paths are relative to the file.  The whole
** file is checked whichever command runs: a key that is no option of its
** section's command, or a value of the wrong type, is an error E0004 at
** its place, and the command exits 2.
**
** cli_next_opt (cli_common.c) is the way in: on its first call it finds
** the options on the command line, loads the file and hands the file's
** options out before argv's; when options end, the operands of commands
** that read query files are expanded here (directories walked, exclude
** patterns applied, "files" when none were given).
**
** Memory: the file, its options and expanded operand lists live until the
** process exits (one project per run).
*/
#ifndef SQ_CLI_CONFIG_H
#define SQ_CLI_CONFIG_H

#include "backend/lint/lint_config.h"
#include "cli/cli.h"

/* The file names looked for, nearest directory first. */
#define CLI_CONFIG_NAME "squint.json"
#define CLI_CONFIG_HIDDEN_NAME ".squint.json"

/* Begin option parsing for a (first cli_next_opt call): the generic
** options added to opts, the command line scanned, the project file
** loaded.  0, or -1 after messages on stderr (the caller exits 2). */
int cli_config_begin(CliArgs *a, const CliOpt *opts);

/* The next option the file gives a (its canonical name, *value set), or
** NULL when there are no more. */
const char *cli_config_next(CliArgs *a, const char **value);

/* Whether name is one of the options every command takes (config,
** no-config, quiet, verbose, exclude) that a's command does not handle
** itself; such an option is taken here and not handed to the command. */
int cli_config_generic(CliArgs *a, const char *name, const char *value);

/* Options have ended: expand a's operands for a command that reads
** query files (see CliArgs.operands).  0, or -1 after a message. */
int cli_config_operands(CliArgs *a);

/* Whether a's command line (not the project file) gives a schema
** option. */
int cli_args_gave_schema(const CliArgs *a);

/* The project file in use (absolute path), or NULL. */
const char *cli_config_path(void);

/* Whether path names a file squint reads queries from when it walks a
** directory: a .sql file, or a benchmark file by its name (dev.json,
** test.json, train*.json, predict*.json; not *tables.json). */
int cli_is_query_file(const char *path);

/* Read the file at path as a project file, checking all of it, with the
** lint settings into lint (when not NULL).  Problems go to diags as
** E0004 with positions.  0, or -1. */
int cli_config_check_file(const char *path, SqArena *arena, SqSrcSet *srcs, SqDiags *diags, SqLintFile *lint);

/* The lint settings of the project file into lint: 1 when it has some,
** 0 when there is no project file, -1 when it could not be read (said on
** stderr already when the file was loaded). */
int cli_config_lint(SqArena *arena, SqSrcSet *srcs, SqDiags *diags, SqLintFile *lint);

/* The --help lines of the options every command takes that opts lacks
** (--exclude too when walks: the command reads query files). */
void cli_help_common(FILE *f, const CliOpt *opts, int walks);

/* -q and -v as given to any command: -1 quiet, 0, 1 verbose. */
extern int cli_verbosity;

#endif
