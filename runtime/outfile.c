/*
** outfile.c -- the rules of outfile.h: no input overwritten, no existing
** file replaced unless forced, nothing half-written.
*/
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The directory part of path ("." when there is none), heap. */
static char *dir_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) return sq_strdup(".");
    if (slash == path) return sq_strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = sq_malloc(n + 1);
    memcpy(d, path, n);
    d[n] = 0;
    return d;
}

int sq_out_check(const char *path, int force, const SqOutInput *inputs, size_t n, SqBuf *why) {
    struct stat st;
    int exists = stat(path, &st) == 0;
    for (size_t i = 0; exists && i < n; i++) {
        struct stat in;
        if (inputs[i].path && stat(inputs[i].path, &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
            sq_buf_printf(why, "'%s' is an input of this run (%s); squint never writes over its inputs", path,
                          inputs[i].what);
            return -1;
        }
    }
    if (exists && S_ISDIR(st.st_mode)) {
        sq_buf_printf(why, "'%s' is a directory", path);
        return -1;
    }
    if (exists && !force) {
        sq_buf_printf(why, "'%s' exists; pass --force to replace it", path);
        return -1;
    }
    char *dir = dir_of(path);
    int ok = access(dir, W_OK) == 0;
    if (!ok) sq_buf_printf(why, "cannot write in '%s': %s", dir, strerror(errno));
    free(dir);
    return ok ? 0 : -1;
}

char *sq_out_temp(const char *path, SqBuf *why) {
    size_t n = strlen(path);
    char *tmp = sq_malloc(n + 16);
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp-XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        sq_buf_printf(why, "cannot create a temporary file beside '%s': %s", path, strerror(errno));
        free(tmp);
        return NULL;
    }
    /* mkstemp makes it 0600; an output is an ordinary file */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    close(fd);
    return tmp;
}

int sq_out_commit(char *tmp, const char *path, SqBuf *why) {
    int rc = rename(tmp, path);
    if (rc != 0) {
        sq_buf_printf(why, "cannot put '%s' in place: %s", path, strerror(errno));
        unlink(tmp);
    }
    free(tmp);
    return rc == 0 ? 0 : -1;
}

int sq_out_write(const char *path, const char *data, size_t n, SqBuf *why) {
    char *tmp = sq_out_temp(path, why);
    if (!tmp) return -1;
    FILE *fp = fopen(tmp, "wb");
    int ok = fp && fwrite(data, 1, n, fp) == n;
    if (fp && (fflush(fp) != 0 || fsync(fileno(fp)) != 0)) ok = 0;
    if (fp && fclose(fp) != 0) ok = 0;
    if (!ok) {
        sq_buf_printf(why, "cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    return sq_out_commit(tmp, path, why);
}
