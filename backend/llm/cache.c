/*
** cache.c -- replies kept on disk by the SHA-256 of the request that got
** them: DIR/ab/abcdef....json, the reply body as the server sent it.
**
** Only replies that passed llm_reply_check are kept, so a hit is always
** a usable answer.  A file is written beside its final name and renamed
** (runtime/safewrite.h): two runs sharing a cache, or a kill midway,
** leave whole files or none.  The key is a digest of the request body
** alone, which never holds the API key.
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "backend/llm/llm.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

/* mkdir -p of path[0..n). */
static int make_dirs(const char *path, int *err) {
    char *p = sq_strdup(path);
    for (char *s = p + 1;; s++) {
        char c = *s;
        if (c != '/' && c != '\0') continue;
        *s = '\0';
        if (mkdir(p, 0777) < 0 && errno != EEXIST) {
            *err = errno;
            free(p);
            return -1;
        }
        *s = c;
        if (!c) break;
    }
    free(p);
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
        *err = ENOTDIR;
        return -1;
    }
    return 0;
}

int sq_llm_cache_open(const char *dir, int *err) { return make_dirs(dir, err); }

static void entry_path(SqBuf *b, const char *dir, const char *key) {
    sq_buf_printf(b, "%s/%.2s/%s.json", dir, key, key);
}

char *sq_llm_cache_get(const char *dir, const char *key, size_t *n) {
    SqBuf path = SQ_BUF_INIT;
    entry_path(&path, dir, key);
    int err;
    char *text = sq_read_file(path.data, n, &err);
    sq_buf_free(&path);
    return text;
}

int sq_llm_cache_put(const char *dir, const char *key, const char *reply, size_t n, int *err) {
    SqBuf path = SQ_BUF_INIT;
    sq_buf_printf(&path, "%s/%.2s", dir, key);
    int rc = make_dirs(path.data, err);
    sq_buf_reset(&path);
    entry_path(&path, dir, key);
    if (rc == 0) rc = sq_write_replace(path.data, reply, n, err);
    sq_buf_free(&path);
    return rc;
}
