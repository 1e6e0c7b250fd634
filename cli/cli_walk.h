/*
** cli_walk.h -- the operands of a command that reads query files:
** directories walked, exclude patterns applied, the project's "files"
** when the command line gives none (docs/config.md, "Files").
**
** Layer: cli.  A directory gives, in name order and recursively, its .sql
** files and the benchmark files squint knows by name (cli_is_query_file);
** names that begin with '.' (.git) and symbolic links to directories are
** not entered.  An exclude pattern is a shell pattern (fnmatch): without
** a '/' it matches any one name in a path ("build", "*.tmp.sql"); with one
** it matches the path from the directory it is relative to (the project
** file's for its "exclude", the current one for --exclude) or a leading
** part of it, so "data/raw" leaves out everything under data/raw.  A file
** named on the command line is left out too when a pattern matches it,
** as pre-commit names every staged file.
*/
#ifndef SQ_CLI_WALK_H
#define SQ_CLI_WALK_H

#include "cli/cli.h"
#include "runtime/arena.h"
#include "runtime/json.h"

/* Add an exclude pattern, relative to base (NULL: the current
** directory). */
void cli_walk_exclude(CliArgs *a, const char *pattern, const char *base);

/* The project file's members and directory (cli_config.c); NULL when
** there is no file. */
const SqJson *cli_config_member(const char *key);
/* The text of v, a value of the project file, in *n bytes; NULL when v
** is NULL. */
const char *cli_config_text(const SqJson *v, size_t *n);
const char *cli_config_dir(void);
SqArena *cli_config_arena(void);

/* The repository the current directory is in: the nearest directory at
** or above it that holds ".git" (a directory, or a worktree's file), else
** the current directory; *cwd gets the current directory.  Absolute, in
** a; NULL when the current directory cannot be known. */
const char *cli_source_root(SqArena *a, const char **cwd);

/* The nearest project file at or above the absolute directory start: its
** path, NULL when there is none, "" after a message when a directory has
** two. */
const char *cli_config_find(SqArena *a, const char *start);

#endif
