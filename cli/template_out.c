/*
** template_out.c -- the records file of `squint template sample`, read
** back for a resumed run (template_int.h).
**
** Layer: cli.  Every line is one instance's record; a source's records
** are written together, in order, each saying which instance it is and
** of how many.  So a source is whole when its last record is instance
** of - 1, and only the last source can be cut short.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/template_int.h"
#include "runtime/arena.h"
#include "runtime/json.h"
#include "runtime/util.h"

/* A line's source id, instance and count; 0 when it is no record of ours. */
static int read_record(SqArena *a, const char *line, size_t n, const char **sid, int64_t *k, int64_t *of) {
    SqJson *j = sq_json_parse(a, line, n, NULL);
    const SqJson *rec = j ? sq_json_get(j, "record") : NULL;
    const SqJson *s = j ? sq_json_get(j, "source_id") : NULL;
    const SqJson *kk = j ? sq_json_get(j, "instance") : NULL;
    const SqJson *o = j ? sq_json_get(j, "of") : NULL;
    if (!rec || !sq_json_string(rec) || strcmp(sq_json_string(rec), TEMPLATE_RECORD) != 0 || !s ||
        !sq_json_string(s) || !kk || !kk->is_int || !o || !o->is_int || kk->inum < 0 || kk->inum >= o->inum)
        return 0;
    *sid = sq_json_string(s);
    *k = kk->inum;
    *of = o->inum;
    return 1;
}

static int refuse(const char *cmd, const char *path, long lineno) {
    fprintf(stderr,
            "squint %s: --out '%s' is not a records file of squint %s (line %ld is not one of its records); "
            "squint never writes over a file it did not write\n",
            cmd, path, cmd, lineno);
    return -1;
}

int template_out_read(const char *cmd, const char *path, SqStrMap *done) {
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
    int64_t next = 0;       /* the instance the current source's next record is */
    const char *group = NULL;
    int rc = 0;
    while (off < len && rc == 0) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t n = nl ? (size_t)(nl - (text + off)) : len - off;
        const char *sid;
        int64_t k, of;
        lineno++;
        if (!nl || !read_record(a, text + off, n, &sid, &k, &of)) {
            if (nl) rc = refuse(cmd, path, lineno);
            break; /* a last line cut short: the source is written again */
        }
        if (k == 0) {
            if (group && next) rc = refuse(cmd, path, lineno); /* a source cut short before this one */
            group = sid;
            group_start = off;
        } else if (!group || strcmp(group, sid) != 0 || k != next) {
            rc = refuse(cmd, path, lineno);
        }
        next = k + 1;
        if (next == of) {
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
    sq_arena_free(a);
    free(text);
    return rc;
}
