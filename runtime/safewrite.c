/*
** safewrite.c -- output files written without harming the user's
** (safewrite.h).
*/
#include "runtime/safewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/strbuf.h"

int sq_same_file(const char *a, const char *b) {
    struct stat sa, sb;
    if (!a || !b || stat(a, &sa) != 0 || stat(b, &sb) != 0) return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int sq_path_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

int sq_path_is_special(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode);
}

/* Create a fresh temporary file beside path; its name goes to *tmp (the
** caller frees it).  The descriptor, or -1 with errno set. */
static int open_temp(const char *path, char **tmp) {
    static unsigned counter;
    for (int attempt = 0; attempt < 100; attempt++) {
        SqBuf name = SQ_BUF_INIT;
        sq_buf_printf(&name, "%s.squint-tmp-%ld-%u", path, (long)getpid(), counter++);
        int fd = open(sq_buf_str(&name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (fd >= 0) {
            *tmp = sq_buf_detach(&name);
            return fd;
        }
        int e = errno;
        sq_buf_free(&name);
        if (e != EEXIST) {
            errno = e;
            return -1;
        }
    }
    errno = EEXIST;
    return -1;
}

/* Why path may not be replaced (an errno value), or 0. */
static int refuse_target(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return errno == ENOENT ? 0 : errno;
    if (S_ISDIR(st.st_mode)) return EISDIR;
    if (!S_ISREG(st.st_mode)) return EINVAL;
    return access(path, W_OK) == 0 ? 0 : errno; /* a file the user protected */
}

int sq_check_writable(const char *path, int *err) {
    char *tmp = NULL;
    int e = refuse_target(path);
    if (e) {
        *err = e;
        return -1;
    }
    int fd = open_temp(path, &tmp);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    close(fd);
    unlink(tmp);
    free(tmp);
    return 0;
}

char *sq_temp_beside(const char *path, int *err) {
    char *tmp = NULL;
    int fd = open_temp(path, &tmp);
    if (fd < 0) {
        *err = errno;
        return NULL;
    }
    close(fd);
    return tmp;
}

const SqOutInput *sq_out_input_of(const char *path, const SqOutInput *inputs, size_t n) {
    for (size_t i = 0; path && i < n; i++)
        if (inputs[i].path && sq_same_file(path, inputs[i].path)) return &inputs[i];
    return NULL;
}

int sq_out_check(const char *path, int force, const SqOutInput *inputs, size_t n, SqBuf *why) {
    const SqOutInput *in = sq_out_input_of(path, inputs, n);
    if (in) {
        sq_buf_printf(why, "'%s' is an input of this run (%s); squint never writes over its inputs", path, in->what);
        return -1;
    }
    if (sq_path_is_special(path)) {
        sq_buf_printf(why, "'%s' is not a regular file", path);
        return -1;
    }
    if (sq_path_exists(path) && !force) {
        sq_buf_printf(why, "'%s' exists; pass --force to replace it", path);
        return -1;
    }
    int err = 0;
    if (sq_check_writable(path, &err) < 0) {
        sq_buf_printf(why, "cannot write '%s': %s", path, strerror(err));
        return -1;
    }
    return 0;
}

static int write_all(int fd, const char *data, size_t n) {
    for (size_t off = 0; off < n;) {
        ssize_t w = write(fd, data + off, n - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        off += (size_t)w;
    }
    return 0;
}

int sq_write_replace(const char *path, const char *data, size_t n, int *err) {
    char *tmp = NULL;
    struct stat st;
    int e = refuse_target(path);
    if (e) {
        *err = e;
        return -1;
    }
    int fd = open_temp(path, &tmp);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    int ok = write_all(fd, data, n) == 0;
    if (ok && stat(path, &st) == 0) ok = fchmod(fd, st.st_mode & 07777) == 0;
    if (ok) ok = fsync(fd) == 0 || errno == EINVAL;
    e = ok ? 0 : errno;
    if (close(fd) != 0 && ok) {
        ok = 0;
        e = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = 0;
        e = errno;
    }
    if (!ok) unlink(tmp);
    free(tmp);
    *err = e;
    return ok ? 0 : -1;
}

/* Read up to cap bytes (fewer only at the end of the file); -1 on error. */
static ssize_t read_block(int fd, char *buf, size_t cap) {
    size_t got = 0;
    while (got < cap) {
        ssize_t k = read(fd, buf + got, cap - got);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) return -1;
        if (k == 0) break;
        got += (size_t)k;
    }
    return (ssize_t)got;
}

int sq_file_holds(const char *path, const char *data, size_t n, char *head, size_t head_cap, int *err) {
    if (head && head_cap) head[0] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        *err = errno;
        return -1;
    }
    struct stat st;
    char block[1 << 14];
    int same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    size_t at = 0;
    for (int first = 1; same; first = 0) {
        ssize_t k = read_block(fd, block, sizeof block);
        if (k < 0) same = 0;
        if (k <= 0) break;
        if (first && head && head_cap) {
            size_t h = (size_t)k < head_cap - 1 ? (size_t)k : head_cap - 1;
            memcpy(head, block, h);
            head[h] = 0;
        }
        if ((uint64_t)st.st_size != n || (size_t)k > n - at || memcmp(block, data + at, (size_t)k) != 0) same = 0;
        at += (size_t)k;
    }
    close(fd);
    *err = 0;
    return same && at == n;
}
