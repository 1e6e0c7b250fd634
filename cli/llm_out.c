/*
** llm_out.c -- the records file of `squint llm run` (--out), read back
** before a run: which requests already have an answer, and whether the
** file is one squint wrote at all.
**
** A records file is appended to, one fsync'd line per request, so a run
** that was killed leaves every finished record whole and at most a last
** line cut short.  Only a file whose every line is a record of ours may
** be appended to, and only such a last line may be cut: every record
** line starts with SQ_LLM_RECORD_PREFIX, so a cut one is still known.
** Any other file (a requests file, a dev.json, a record of another
** format) is refused, untouched.
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/llm/llm.h"
#include "cli/llm_out.h"
#include "runtime/util.h"

/* What a whole line says: LLM_ANSWER_OK or _FAILED, or 0 when it is not
** a record of ours; the custom_id (heap) in *id. */
static int record_status(const char *line, size_t n, char **id) {
    cJSON *root = sq_llm_record_parse(line, n);
    const cJSON *cid = cJSON_GetObjectItemCaseSensitive(root, "custom_id");
    const cJSON *sq = cJSON_GetObjectItemCaseSensitive(root, "squint");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(sq, "status");
    int status = 0;
    if (cJSON_IsString(cid) && cJSON_IsString(st)) {
        if (strcmp(st->valuestring, "ok") == 0) status = LLM_ANSWER_OK;
        else if (strcmp(st->valuestring, "failed") == 0) status = LLM_ANSWER_FAILED;
        if (status) *id = sq_strdup(cid->valuestring);
    }
    cJSON_Delete(root);
    return status;
}

/* Whether a line without its newline is the start of a record: it holds
** the whole prefix (a record is written by one write(), so a cut one
** keeps at least its first bytes; a file of a few bytes that merely
** could start a record is not taken for one). */
static int is_cut_record(const char *line, size_t n) {
    static const char prefix[] = SQ_LLM_RECORD_PREFIX;
    return n >= sizeof prefix - 1 && memcmp(line, prefix, sizeof prefix - 1) == 0;
}

static int refuse(const char *cmd, const char *path, long lineno, const char *why) {
    fprintf(stderr,
            "squint %s: --out: '%s' is not a records file of squint llm run (line %ld %s); it is left as it "
            "is: name a new file or one an earlier run wrote\n",
            cmd, path, lineno, why);
    return -1;
}

/* Cut path back to off bytes, the start of a record a kill left
** unfinished. */
static int cut_at(const char *cmd, const char *path, long off, long lineno) {
    if (truncate(path, off) < 0) {
        fprintf(stderr, "squint %s: --out: cannot cut the unfinished record at line %ld of '%s': %s\n", cmd,
                lineno, path, strerror(errno));
        return -1;
    }
    fprintf(stderr, "squint %s: --out: line %ld of '%s' was a record cut short (a run was stopped while "
                    "writing it); removed, its request is sent again\n",
            cmd, lineno, path);
    return 0;
}

int llm_out_read(const char *cmd, const char *path, SqStrMap *answers) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        fprintf(stderr, "squint %s: --out: cannot read '%s': %s\n", cmd, path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long off = 0, lineno = 0;
    int rc = 0;
    ssize_t n;
    while (rc == 0 && (n = getline(&line, &cap, f)) > 0) {
        lineno++;
        int whole = line[n - 1] == '\n';
        char *id = NULL;
        int status = whole ? record_status(line, (size_t)n - 1, &id) : 0;
        if (status) {
            *sq_strmap_put(answers, id, NULL) = status;   /* a later record of an id counts */
        } else if (whole) {
            rc = refuse(cmd, path, lineno, "is not one");
        } else if (!is_cut_record(line, (size_t)n)) {
            rc = refuse(cmd, path, lineno, "is not one and has no newline");
        } else {
            rc = cut_at(cmd, path, off, lineno) < 0 ? -1 : 0;
        }
        free(id);
        off += n;
    }
    free(line);
    fclose(f);
    return rc;
}
