/*
** dot_render.c -- run Graphviz's dot on DOT text (see dot_render.h).
**
** Layer: cli.  dot is started with fork and execv on the path found on
** PATH (no shell, so no name or option of the user's is ever parsed as a
** command), with three pipes: the DOT text goes in on its standard input
** while its standard output and standard error are read, all through one
** poll loop, so neither side can block on a full pipe whatever the sizes.
** SIGPIPE is ignored while the text is written (a dot that ends early is
** an error to report, not a reason for squint to die) and restored after.
*/
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/dot_render.h"
#include "runtime/util.h"

char *cli_dot_find(void) {
    const char *path = getenv("PATH");
    if (!path) return NULL;
    for (const char *p = path;; p++) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "%.*s/dot", (int)(len ? len : 1), len ? p : "."); /* "" is "." */
        struct stat st;
        if (stat(sq_buf_str(&b), &st) == 0 && S_ISREG(st.st_mode) &&
            access(sq_buf_str(&b), X_OK) == 0)
            return sq_buf_detach(&b);
        sq_buf_free(&b);
        if (!end) return NULL;
        p = end;
    }
}

/* A pipe whose two ends are closed on exec (dup2 clears that on the
** copies the child keeps).  0, or -1 with errno set. */
static int cloexec_pipe(int fd[2]) {
    if (pipe(fd) < 0) return -1;
    fcntl(fd[0], F_SETFD, FD_CLOEXEC);
    fcntl(fd[1], F_SETFD, FD_CLOEXEC);
    return 0;
}

static void close_pipe(int fd[2]) {
    if (fd[0] >= 0) close(fd[0]);
    if (fd[1] >= 0) close(fd[1]);
    fd[0] = fd[1] = -1;
}

/* In the child: the pipes as its standard streams, then dot (only
** async-signal-safe calls between fork and exec). */
static void exec_dot(const char *path, char *flag, int in[2], int out[2], int err[2]) {
    if (dup2(in[0], 0) < 0 || dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0) _exit(127);
    char *argv[] = {"dot", flag, NULL};
    execv(path, argv);
    _exit(127);
}

/* Read what is there on fd into b; 0 at end of file, 1 for more, -1 on
** an error. */
static int drain(int fd, SqBuf *b) {
    char chunk[8192];
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got > 0) sq_buf_put(b, chunk, (size_t)got);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
    return got > 0 ? 1 : got == 0 ? 0 : -1;
}

/* Feed text to *in (closing it once all is written) while reading *out
** and *err, until both are at end of file.  0, or -1 with errno set. */
static int pump(int *in, const char *text, size_t n, int *out, int *err, SqBuf *o, SqBuf *e) {
    size_t sent = 0;
    if (n == 0) close(*in), *in = -1;
    else fcntl(*in, F_SETFL, fcntl(*in, F_GETFL) | O_NONBLOCK);
    while (*out >= 0 || *err >= 0) {
        struct pollfd pf[3] = {{*in, POLLOUT, 0}, {*out, POLLIN, 0}, {*err, POLLIN, 0}};
        if (poll(pf, 3, -1) < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (*in >= 0 && (pf[0].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t w = write(*in, text + sent, n - sent);
            if (w > 0) sent += (size_t)w;
            if ((w < 0 && errno != EINTR && errno != EAGAIN) || sent == n) close(*in), *in = -1;
        }
        int *fds[2] = {out, err};
        SqBuf *bufs[2] = {o, e};
        for (int k = 0; k < 2; k++)
            if (*fds[k] >= 0 && (pf[k + 1].revents & (POLLIN | POLLERR | POLLHUP)) &&
                drain(*fds[k], bufs[k]) <= 0)
                close(*fds[k]), *fds[k] = -1;
    }
    if (*in >= 0) close(*in), *in = -1;
    return 0;
}

/* The first line of dot's standard error, or how it ended. */
static void dot_failure(int status, SqBuf *err, SqBuf *why) {
    const char *msg = sq_buf_str(err);
    size_t len = strcspn(msg, "\n");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && len == 0)
        sq_buf_puts(why, "could not run Graphviz's dot");
    else if (len)
        sq_buf_printf(why, "Graphviz's dot failed: %.*s", (int)len, msg);
    else if (WIFSIGNALED(status))
        sq_buf_printf(why, "Graphviz's dot was killed by signal %d", WTERMSIG(status));
    else
        sq_buf_printf(why, "Graphviz's dot exited with status %d", WEXITSTATUS(status));
}

int cli_dot_render(const char *path, const char *format, const char *dot_text, size_t n,
                   SqBuf *out, SqBuf *why) {
    int in[2] = {-1, -1}, o[2] = {-1, -1}, e[2] = {-1, -1};
    if (cloexec_pipe(in) < 0 || cloexec_pipe(o) < 0 || cloexec_pipe(e) < 0) {
        sq_buf_printf(why, "cannot make a pipe for Graphviz's dot: %s", strerror(errno));
        close_pipe(in), close_pipe(o), close_pipe(e);
        return -1;
    }
    char flag[32];
    snprintf(flag, sizeof flag, "-T%s", format);
    fflush(NULL); /* nothing buffered is written twice by the child */
    pid_t pid = fork();
    if (pid == 0) exec_dot(path, flag, in, o, e);
    close(in[0]), close(o[1]), close(e[1]);
    if (pid < 0) {
        sq_buf_printf(why, "cannot start Graphviz's dot: %s", strerror(errno));
        close(in[1]), close(o[0]), close(e[0]);
        return -1;
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    SqBuf err = SQ_BUF_INIT;
    size_t start = out->len;
    int rc = pump(&in[1], dot_text, n, &o[0], &e[0], out, &err);
    int saved = errno;
    sigaction(SIGPIPE, &old, NULL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (rc < 0) sq_buf_printf(why, "cannot talk to Graphviz's dot: %s", strerror(saved));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) dot_failure(status, &err, why), rc = -1;
    if (rc < 0 && out->data) out->data[out->len = start] = '\0'; /* a failed picture is none */
    sq_buf_free(&err);
    return rc;
}
