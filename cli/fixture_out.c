/*
** fixture_out.c -- squint fixture's output directory (see fixture_out.h).
**
** Layer: cli.
*/
#include "cli/fixture_out.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/sqlite/db.h"
#include "cli/cli.h"
#include "runtime/json.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"
#include "cli/cli.h"

static char *join(const char *dir, const char *name) {
    SqBuf b = SQ_BUF_INIT;
    sq_buf_printf(&b, "%s/%s", dir, name);
    return sq_buf_detach(&b);
}

/* Whether the directory has entries besides . and ..: 1, 0, or -1. */
static int has_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int any = 0;
    while (!any && (e = readdir(d)) != NULL) any = strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return any;
}

/* The directory exists (or is made) and may be written: 0, or -1 after
** a message. */
static int check_dir(FixtureOut *o) {
    struct stat st;
    if (stat(o->dir, &st) < 0) {
        if (errno != ENOENT || mkdir(o->dir, 0755) < 0) {
            cli_io_error("fixture", o->dir, errno);
            return -1;
        }
        return 0;
    }
    if (!S_ISDIR(st.st_mode)) {
        fprintf(stderr, "squint fixture: '%s' is not a directory; --out names the directory the suites go to\n",
                o->dir);
        return -1;
    }
    if (sq_path_exists(o->records) || has_entries(o->dir) == 0) return 0;
    fprintf(stderr,
            "squint fixture: '%s' holds files but no %s: squint fixture writes only into a new or empty "
            "directory, or one it wrote; use another --out directory\n",
            o->dir, FIXTURE_RECORDS);
    return -1;
}

static int refuse(const FixtureOut *o, size_t line, const char *what) {
    fprintf(stderr, "squint fixture: %s:%zu: %s; use another --out directory\n", o->records, line, what);
    return -1;
}

/* The raw text of member key of obj in text, or NULL. */
static int member_is(const SqJson *obj, const char *text, const char *key, const char *want) {
    const SqJson *v = sq_json_get(obj, key);
    size_t n = strlen(want);
    return v && v->end - v->start == n && memcmp(text + v->start, want, n) == 0;
}

/* One record line: ours, of this run's options and of a question whose
** inputs are unchanged; 0 (o->done marked), or -1 after a message. */
static int check_record(FixtureOut *o, SqArena *a, size_t k) {
    const SqEvalLine *l = &o->lines[k];
    const SqJson *doc = sq_json_parse(a, l->text, l->n, NULL);
    const SqJson *fmt = sq_json_get(doc, "squint_fixture"), *q = sq_json_get(doc, "question");
    if (!fmt || fmt->kind != SQ_JSON_NUMBER || !q || q->kind != SQ_JSON_NUMBER)
        return refuse(o, k + 1, "not a record of squint fixture");
    if (fmt->num != FIXTURE_FORMAT) return refuse(o, k + 1, "a record of another squint fixture format");
    if (q->num < 0 || q->num >= (double)o->n_items || q->num != (double)(size_t)q->num)
        return refuse(o, k + 1, "a record of a question the gold file does not have");
    size_t item = (size_t)q->num;
    if (!member_is(doc, l->text, "options", o->options))
        return refuse(o, k + 1, "a record made with other options than this run's");
    char digest[40];
    snprintf(digest, sizeof digest, "\"%s\"", o->digests[item]);
    if (!member_is(doc, l->text, "inputs", digest))
        return refuse(o, k + 1, "a record of a question whose gold query or db_id has changed");
    if (o->done[item]) return refuse(o, k + 1, "a second record of one question");
    o->done[item] = 1;
    return 0;
}

/* Read the records there, cut an unfinished last line. */
static int read_records(FixtureOut *o) {
    int err;
    o->text = sq_read_file(o->records, &o->len, &err);
    if (!o->text) {
        if (err == ENOENT) return 0;
        cli_io_error("fixture", o->records, err);
        return -1;
    }
    size_t keep = sq_eval_split_lines(o->text, o->len, &o->lines, &o->n_lines, &o->cap_lines);
    SqArena *a = sq_arena_new();
    int rc = 0;
    for (size_t k = 0; k < o->n_lines && rc == 0; k++) rc = check_record(o, a, k);
    sq_arena_free(a);
    if (rc == 0 && keep < o->len && truncate(o->records, (off_t)keep) < 0) {
        fprintf(stderr, "squint fixture: cannot cut the unfinished last line of '%s': %s\n", o->records,
                strerror(errno));
        rc = -1;
    }
    return rc;
}

int fixture_out_open(FixtureOut *o) {
    o->fd = -1;
    o->records = join(o->dir, FIXTURE_RECORDS);
    o->done = sq_calloc(o->n_items + 1, 1);
    if (sq_path_is_special(o->records)) {
        fprintf(stderr, "squint fixture: '%s' is not a regular file\n", o->records);
        return -1;
    }
    if (check_dir(o) < 0 || read_records(o) < 0) return -1;
    o->fd = open(o->records, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (o->fd < 0) {
        cli_io_error("fixture", o->records, errno);
        return -1;
    }
    return 0;
}

int fixture_out_append(FixtureOut *o, const char *rec, size_t n) { return cli_append_synced(o->fd, rec, n); }

void fixture_out_close(FixtureOut *o) {
    if (o->fd >= 0) close(o->fd);
    free(o->records);
    free(o->done);
    free(o->text);
    free(o->lines);
    memset(o, 0, sizeof *o);
    o->fd = -1;
}

/* ---- a question's folder -------------------------------------------------- */

/* "NN.sqlite" or "NN.sql" for digits NN. */
static int numbered(const char *name, const char *ext) {
    size_t i = 0;
    while (name[i] >= '0' && name[i] <= '9') i++;
    return i >= 2 && strcmp(name + i, ext) == 0;
}

/* Whether the file was written by squint fixture (so it may go). */
static int ours(const char *path, const char *name) {
    if (strstr(name, ".squint-tmp-")) return 1; /* a killed writer's temporary */
    if (numbered(name, ".sqlite")) return sq_db_file_is_sqlite(path) == 1;
    if (numbered(name, ".sql")) return 1; /* written beside a database: checked with it */
    if (strcmp(name, "suite.json") == 0) {
        size_t len;
        int err;
        char *text = sq_read_file(path, &len, &err);
        int yes = text && strstr(text, "\"squint_fixture\"") != NULL;
        free(text);
        return yes;
    }
    return 0;
}

/* Remove every entry of dir if all are ours; else -1 with the first
** other one named in why. */
static int empty_ours(const char *dir, SqBuf *why) {
    DIR *d = opendir(dir);
    if (!d) {
        sq_buf_printf(why, "cannot read '%s': %s", dir, strerror(errno));
        return -1;
    }
    struct dirent *e;
    int rc = 0;
    for (int pass = 0; pass < 2 && rc == 0; pass++) { /* check all, then remove */
        rewinddir(d);
        while (rc == 0 && (e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char *p = join(dir, e->d_name);
            if (pass == 0 && !ours(p, e->d_name)) {
                sq_buf_printf(why, "'%s' holds '%s', which squint fixture did not write", dir, e->d_name);
                rc = -1;
            } else if (pass == 1 && unlink(p) < 0) {
                sq_buf_printf(why, "cannot remove '%s': %s", p, strerror(errno));
                rc = -1;
            }
            free(p);
        }
    }
    closedir(d);
    return rc;
}

int fixture_qdir_prepare(const char *dir, const char *name, char **path, SqBuf *why) {
    *path = join(dir, name);
    struct stat st;
    if (stat(*path, &st) < 0) {
        if (errno == ENOENT && mkdir(*path, 0755) == 0) return 0;
        sq_buf_printf(why, "cannot make '%s': %s", *path, strerror(errno));
    } else if (!S_ISDIR(st.st_mode)) {
        sq_buf_printf(why, "'%s' is there and is not a directory", *path);
    } else if (empty_ours(*path, why) == 0) {
        return 0;
    }
    free(*path);
    *path = NULL;
    return -1;
}

int fixture_read_gold(const char *path, SqBench *gold, SqArena *a, SqSrcSet *srcs, SqDiags *diags) {
    int err;
    SqSrc *src = sq_src_add_file(srcs, path, &err);
    if (!src) {
        cli_io_error("fixture", path, err);
        return -1;
    }
    size_t before = diags->n_errors;
    if (sq_bench_read(gold, a, srcs, src, SQ_INPUT_AUTO, diags) < 0 || diags->n_errors > before) return -1;
    if (gold->n_items == 0) {
        fprintf(stderr, "squint fixture: the gold file '%s' has no queries\n", path);
        return -1;
    }
    return 0;
}
