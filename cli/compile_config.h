/*
** compile_config.h -- squint.json, the project file of `squint compile`:
** packages, each a schema, query files and an output directory, in the
** spirit of sqlc.yaml (docs/squint-compile.md, "The config file").
**
** Layer: cli.  Takes the file's path; gives the packages with every path
** resolved against the file's directory.  Every mistake (bad JSON, an
** unknown key, a wrong type, a missing key, a name that is no C
** identifier) is an error E0507 at its place in the file.
*/
#ifndef SQ_COMPILE_CONFIG_H
#define SQ_COMPILE_CONFIG_H

#include <stddef.h>

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/src.h"

typedef struct CompilePackage {
    const char *name;       /* prefix of the generated symbols, a C identifier */
    const char *schema;     /* a DDL file, a directory of migrations, a .sqlite */
    const char **queries;   /* files or directories (their *.sql files) */
    size_t n_queries;
    const char *out;        /* the output directory */
    int emit_json;          /* the manifest only, no C */
    int strict;             /* warnings are errors */
    SrcSpan at;             /* the package's object in the file */
} CompilePackage;

typedef struct CompileConfig {
    const SqSrc *src;       /* the file */
    CompilePackage *pkgs;
    size_t n;
} CompileConfig;

/* Read path into out (in a).  0, or -1 after errors in d (a file that
** cannot be read is said on stderr and gives -2). */
int compile_config_read(const char *path, SqSrcSet *srcs, SqDiags *d, SqArena *a, CompileConfig *out);

#endif
