/*
** cli_records.c -- a records file read back for a resumed run
** (cli_records.h): the sources whose records are all there, and the file
** cut back to its last whole source.
*/
#include "cli/cli_records.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/arena.h"
#include "runtime/util.h"

/* A line's source id, number, count and options (and the record); 0 when
** it is no record of ours. */
static int read_record(const CliRecords *f, SqArena *a, const char *line, size_t n, const char **sid, int64_t *k,
                       int64_t *of, const char **opts, const SqJson **out) {
    SqJson *j = sq_json_parse(a, line, n, NULL);
    const SqJson *o_opts = j ? sq_json_get(j, "options") : NULL;
    const SqJson *rec = j ? sq_json_get(j, "record") : NULL;
    const SqJson *s = j ? sq_json_get(j, "source_id") : NULL;
    const SqJson *kk = j ? sq_json_get(j, f->index) : NULL;
    const SqJson *o = j ? sq_json_get(j, "of") : NULL;
    if (!rec || !sq_json_string(rec) || strcmp(sq_json_string(rec), f->kind) != 0 || !s ||
        !sq_json_string(s) || !kk || !kk->is_int || !o || !o->is_int || kk->inum < 0 || kk->inum >= o->inum ||
        !o_opts || !sq_json_string(o_opts))
        return 0;
    *opts = sq_json_string(o_opts);
    *sid = sq_json_string(s);
    *k = kk->inum;
    *of = o->inum;
    *out = j;
    return 1;
}

static int refuse(const char *cmd, const char *path, long lineno) {
    fprintf(stderr,
            "squint %s: --out '%s' is not a records file of squint %s (line %ld is not one of its records); "
            "squint never writes over a file it did not write\n",
            cmd, path, cmd, lineno);
    return -1;
}

/* Hand the records of the whole source that ends here to f->each. */
static void each_of_group(const CliRecords *f, const SqJson **group, size_t n) {
    for (size_t i = 0; f->each && i < n; i++) f->each(f->ctx, group[i]);
}

int cli_records_read(const CliRecords *f, const char *path, const char *options, SqStrMap *done) {
    const char *cmd = f->cmd;
    size_t len;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        if (err == ENOENT) return 0;
        fprintf(stderr, "squint %s: --out: cannot read '%s': %s\n", cmd, path, strerror(err));
        return -1;
    }
    SqArena *a = sq_arena_new();
    size_t off = 0, group_start = 0;
    long lineno = 0;
    int64_t next = 0;       /* the number of the current source's next record */
    const char *group = NULL;
    const SqJson **recs = NULL;   /* the current source's records */
    size_t n_recs = 0, cap_recs = 0;
    int rc = 0;
    while (off < len && rc == 0) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t n = nl ? (size_t)(nl - (text + off)) : len - off;
        const char *sid, *opts;
        const SqJson *rec;
        int64_t k, of;
        lineno++;
        if (!nl || !read_record(f, a, text + off, n, &sid, &k, &of, &opts, &rec)) {
            if (nl) rc = refuse(cmd, path, lineno);
            break; /* a last line cut short: the source is written again */
        }
        if (strcmp(opts, options) != 0) {
            fprintf(stderr, "squint %s: --out '%s' holds records made with other options (%s; this run: %s); "
                            "run with those to resume it, or give another --out\n", cmd, path, opts, options);
            rc = -1;
            break;
        }
        if (k == 0) {
            if (group && next) rc = refuse(cmd, path, lineno); /* a source cut short before this one */
            group = sid;
            group_start = off;
            n_recs = 0;
        } else if (!group || strcmp(group, sid) != 0 || k != next) {
            rc = refuse(cmd, path, lineno);
        }
        next = k + 1;
        if (n_recs == cap_recs) recs = sq_realloc(recs, (cap_recs = cap_recs ? 2 * cap_recs : 16) * sizeof *recs);
        recs[n_recs++] = rec;
        if (rc == 0 && next == of) {
            each_of_group(f, recs, n_recs);
            n_recs = 0;
            sq_strmap_put(done, sid, NULL);
            group = NULL;
            next = 0;
            group_start = off + n + 1;
        }
        off += n + 1;
    }
    if (rc == 0 && group_start < len && truncate(path, (off_t)group_start) != 0) {
        fprintf(stderr, "squint %s: --out: cannot cut the unfinished source off '%s': %s\n", cmd, path,
                strerror(errno));
        rc = -1;
    }
    free(recs);
    sq_arena_free(a);
    free(text);
    return rc;
}
