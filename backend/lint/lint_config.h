/*
** lint_config.h -- the lint settings of a project file (`.squint.json`
** or `squint.json`, docs/config.md).
**
** Layer: backend/lint.  squint lint reads the file nearest each input (the
** cli finds it), or --config FILE; squint eval --lint the project's.  The
** "lint" member holds, besides squint lint's options (cli/cli_config.c
** checks those), the settings read here; docs/squint-lint.md shows them:
**
**   { "lint": {
**       "rules":     ["string-as-boolean", ...],   only these rules run
**       "disable":   ["select-star", ...],          these do not
**       "severity":  {"order-limit-ties": "info"},  per-rule severity
**       "threshold": "warning",                     report at or above
**       "ignore": [ {"file": "dev.json", "items": [12, 40],
**                    "rules": ["order-limit-ties"], "reason": "..."} ] } }
**
** Rules are named by name or id.  An ignore entry without "file" applies
** to every file, without "items" to every item, without "rules" to every
** rule.  "file" is a path relative to the configuration's directory
** ("queries/q.sql"), or a name that matches every input ending in
** "/" + it ("dev.json").  "items"
** are the numbers benchmark files give items: a BIRD question_id, a
** Spider item's 0-based index, a line of a TSV or lines file.
**
** Problems in the file are E0004 diagnostics with positions; a
** configuration with problems is not used (exit status 2).
*/
#ifndef SQ_LINT_CONFIG_H
#define SQ_LINT_CONFIG_H

#include "passes/lint/lint.h"
#include "runtime/arena.h"
#include "runtime/diag.h"

typedef struct SqLintIgnore {
    const char *file;        /* NULL: every file */
    int64_t *items;          /* NULL: every item */
    uint32_t n_items;
    uint8_t rules[SQ_LINT__COUNT];
    uint8_t all_rules;
} SqLintIgnore;

typedef struct SqLintFile {
    const char *path;        /* the file read */
    const char *dir;         /* its absolute directory, with a trailing '/' */
    uint8_t only[SQ_LINT__COUNT]; /* "rules": 1 for each named rule */
    uint8_t has_only;
    uint8_t disable[SQ_LINT__COUNT];
    int8_t sev[SQ_LINT__COUNT];   /* -1: not set */
    int8_t threshold;        /* SqSeverity, or -1 */
    SqLintIgnore *ignores;
    uint32_t n_ignores, cap_ignores;
} SqLintFile;

/* Read path into c (zeroed first); 0, or -1 with diagnostics in diags.
** Only the settings are read and checked: the rest of the file is the
** cli's to check (cli_config_check_file). */
int sq_lint_file_load(SqLintFile *c, SqArena *a, const char *path, SqSrcSet *srcs,
                     SqDiags *diags);
/* The same for a configuration already in src, read as the file at path
** (whose directory "file" patterns are relative to); the fuzz target's
** way in (tests/fuzz/fuzz_config.c). */
int sq_lint_file_read(SqLintFile *c, SqArena *a, const char *path, const SqSrc *src,
                     SqDiags *diags);
/* Whether c ignores rule for item (a number, -1 when the item has none)
** of the input file (its absolute path, or as given when that is unknown). */
int sq_lint_file_ignores(const SqLintFile *c, const char *file, int64_t item, int rule);

/* The settings' rules and severities into rules (from
** sq_lint_config_init): "rules" and "disable" turn rules off, "severity"
** sets theirs. */
void sq_lint_file_apply(const SqLintFile *c, SqLintConfig *rules);

/* The number an "ignore" entry's "items" names, from an item's label
** ("question_id 12", "item 3", "line 7": the number after the last
** blank); -1 when it has none. */
int64_t sq_lint_item_number(const char *label);

/* "info", "warning", "error" (and "note") to a severity; -1 if none. */
int sq_lint_severity_parse(const char *s);

#endif
