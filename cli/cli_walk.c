/*
** cli_walk.c -- operands: directories walked, exclude patterns, the
** project's "files" (cli_walk.h).
**
** Layer: cli.  Runs once, when a command's options have ended
** (cli_next_opt); the command then reads a->argv[a->i..] as before, not
** knowing whether a word came from a directory.
*/
#include "cli/cli_walk.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_config.h"
#include "runtime/util.h"

/* Directories deeper than this are not entered (a loop through a bind
** mount, a generated tree): squint reads benchmark repositories. */
#define WALK_MAX_DEPTH 64

/* ------------------------------------------------------------------ */
/* Which files                                                         */
/* ------------------------------------------------------------------ */

int cli_is_query_file(const char *path) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    if (sq_ends_with(name, ".sql", 1)) return 1;
    if (!sq_ends_with(name, ".json", 0) || sq_ends_with(name, "tables.json", 0)) return 0;
    return strcmp(name, "dev.json") == 0 || strcmp(name, "test.json") == 0 || sq_starts_with(name, "train") ||
           sq_starts_with(name, "predict");
}

/* ------------------------------------------------------------------ */
/* Paths                                                               */
/* ------------------------------------------------------------------ */

/* The current directory, read once: squint never changes it, and the
** walk asks for every file; "/" when it cannot be known. */
static const char *here(void) {
    static char cwd[4096];
    if (!cwd[0] && !getcwd(cwd, sizeof cwd)) strcpy(cwd, "/");
    return cwd;
}

/* path made absolute against dir (NULL: the current directory), by its
** text (sq_path_normal: links are not followed, as the walk does not
** follow them); in a. */
static char *absolute(SqArena *a, const char *dir, const char *path) {
    char *norm = sq_path_normal(dir ? dir : here(), path), *out = sq_arena_strdup(a, norm);
    free(norm);
    return out;
}

/* ------------------------------------------------------------------ */
/* Exclude patterns                                                    */
/* ------------------------------------------------------------------ */

void cli_walk_exclude(CliArgs *a, const char *pattern, const char *base) {
    SqArena *ar = cli_config_arena();
    CliPattern *p = SQ_ARENA_APPEND(ar, a->excludes, a->n_excludes, a->cap_excludes);
    while (pattern[0] == '.' && pattern[1] == '/') pattern += 2;
    char *pat = sq_arena_strdup(ar, pattern[0] == '/' && base ? pattern + 1 : pattern);
    size_t n = strlen(pat);
    while (n > 1 && pat[n - 1] == '/') pat[--n] = 0;
    p->pattern = pat;
    p->base = absolute(ar, base, ".");
}

/* Whether some name in path (a run of parts between slashes) matches. */
static int any_name_matches(const char *pat, const char *path) {
    char name[1024];
    for (const char *p = path; *p;) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len && len < sizeof name) {
            memcpy(name, p, len);
            name[len] = 0;
            if (fnmatch(pat, name, 0) == 0) return 1;
        }
        if (!e) break;
        p = e + 1;
    }
    return 0;
}

/* Whether rel or one of its leading parts matches pat, part for part. */
static int leading_part_matches(const char *pat, const char *rel) {
    size_t n = strlen(rel);
    char *copy = malloc(n + 1);
    memcpy(copy, rel, n + 1);
    int hit = 0;
    for (size_t k = 0; k <= n && !hit; k++)
        if (copy[k] == '/' || copy[k] == 0) {
            char keep = copy[k];
            copy[k] = 0;
            hit = fnmatch(pat, copy, FNM_PATHNAME | FNM_PERIOD) == 0;
            copy[k] = keep;
        }
    free(copy);
    return hit;
}

/* The pattern that leaves path out, or NULL. */
static const char *excluded(const CliArgs *a, SqArena *ar, const char *path) {
    const char *abs = absolute(ar, NULL, path);
    for (size_t i = 0; i < a->n_excludes; i++) {
        const CliPattern *p = &a->excludes[i];
        const char *rel = sq_path_under(abs, p->base);
        if (!strchr(p->pattern, '/')) {
            if (any_name_matches(p->pattern, rel ? rel : path)) return p->pattern;
        } else if (rel && leading_part_matches(p->pattern, rel)) {
            return p->pattern;
        }
    }
    return NULL;
}

/* ------------------------------------------------------------------ */
/* Walking                                                             */
/* ------------------------------------------------------------------ */

typedef struct Operands {
    SqArena *arena;
    char **words;
    uint32_t n, cap;
    size_t n_excluded;
} Operands;

static void add(Operands *o, const char *word) {
    *SQ_ARENA_APPEND(o->arena, o->words, o->n, o->cap) = (char *)word;
}

static int by_name(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

/* The names in dir that the walk may enter or read, sorted; NULL when it
** cannot be opened. */
static char **names_in(SqArena *ar, const char *dir, uint32_t *n) {
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **names = NULL;
    uint32_t cap = 0;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') *SQ_ARENA_APPEND(ar, names, *n, cap) = sq_arena_strdup(ar, e->d_name);
    closedir(d);
    if (*n) qsort(names, *n, sizeof *names, by_name);
    return names;
}

static void walk(const CliArgs *a, Operands *o, const char *dir, int depth) {
    uint32_t n;
    char **names = depth < WALK_MAX_DEPTH ? names_in(o->arena, dir, &n) : NULL;
    for (uint32_t i = 0; names && i < n; i++) {
        int slash = dir[strlen(dir) - 1] == '/';
        const char *path = strcmp(dir, ".") == 0 ? names[i]
                                                 : sq_arena_printf(o->arena, "%s%s%s", dir, slash ? "" : "/", names[i]);
        struct stat st;
        if (lstat(path, &st) < 0) continue;
        int link = S_ISLNK(st.st_mode);
        if (link && stat(path, &st) < 0) continue;
        if (S_ISDIR(st.st_mode)) {
            if (!link && !excluded(a, o->arena, path)) walk(a, o, path, depth + 1);
        } else if (S_ISREG(st.st_mode) && cli_is_query_file(path)) {
            if (excluded(a, o->arena, path)) o->n_excluded++;
            else add(o, path);
        }
    }
}

/* One operand: a directory's files, a file unless excluded, anything
** else as it is (the command says it cannot be read). */
static void operand(const CliArgs *a, Operands *o, const char *word) {
    struct stat st;
    if (strcmp(word, "-") == 0 || stat(word, &st) < 0) {
        add(o, word);
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        const char *pat = excluded(a, o->arena, word);
        if (!pat) add(o, word);
        else if (o->n_excluded++, cli_verbosity > 0)
            fprintf(stderr, "squint %s: %s: left out (exclude pattern '%s')\n", a->cmd, word, pat);
        return;
    }
    uint32_t before = o->n;
    walk(a, o, word, 0);
    if (o->n == before && cli_verbosity >= 0)
        fprintf(stderr, "squint %s: warning: no query files under %s\n", a->cmd, word);
    else if (cli_verbosity > 0)
        fprintf(stderr, "squint %s: %s: %u files\n", a->cmd, word, o->n - before);
}

/* path (absolute) as the user would write it here: relative to the
** current directory when under it. */
static const char *as_here(const char *path) {
    if (strcmp(path, here()) == 0) return ".";
    const char *rel = sq_path_under(path, here());
    return rel ? rel : path;
}

/* The project's exclude patterns, then its files when argv has none:
** whether it gave files. */
static int project_inputs(CliArgs *a, Operands *o) {
    const SqJson *ex = cli_config_member("exclude");
    uint32_t n = ex ? (ex->kind == SQ_JSON_ARRAY ? ex->n : 1) : 0;
    for (uint32_t i = 0; i < n; i++)
        cli_walk_exclude(a, (ex->kind == SQ_JSON_ARRAY ? ex->items[i] : ex)->str, cli_config_dir());
    const SqJson *files = cli_config_member("files");
    if (a->i < a->argc || a->operands != CLI_OPERANDS_PROJECT || !files) return 0;
    n = files->kind == SQ_JSON_ARRAY ? files->n : 1;
    for (uint32_t i = 0; i < n; i++) {
        const char *f = (files->kind == SQ_JSON_ARRAY ? files->items[i] : files)->str;
        operand(a, o, as_here(absolute(o->arena, cli_config_dir(), f)));
    }
    if (cli_verbosity > 0) fprintf(stderr, "squint %s: the project file's \"files\"\n", a->cmd);
    return 1;
}

int cli_config_operands(CliArgs *a) {
    if (!a->operands) return 0;
    Operands o = {cli_config_arena(), NULL, 0, 0, 0};
    for (int i = 0; i < a->i; i++) add(&o, a->argv[i]);
    uint32_t first = o.n;
    int had = a->i < a->argc;
    if (project_inputs(a, &o)) had = 1;
    for (int i = a->i; i < a->argc; i++) operand(a, &o, a->argv[i]);
    if (o.n == first && (had || o.n_excluded)) {
        if (cli_verbosity >= 0)
            fprintf(stderr, "squint %s: no query file to read (%zu left out by exclude patterns)\n", a->cmd,
                    o.n_excluded);
        fflush(stderr);
        exit(SQ_EXIT_OK);
    }
    add(&o, NULL);
    a->argv = o.words;
    a->argc = (int)(o.n - 1);
    return 0;
}

const char *cli_source_root(SqArena *a, const char **cwd) {
    char buf[4096];
    if (!getcwd(buf, sizeof buf)) return NULL;
    *cwd = sq_arena_strdup(a, buf);
    char *dir = sq_arena_strdup(a, buf);
    do {
        struct stat st;
        if (stat(sq_arena_printf(a, "%s%s.git", dir, strcmp(dir, "/") ? "/" : ""), &st) == 0) return dir;
    } while (sq_path_up(dir));
    return *cwd;
}
