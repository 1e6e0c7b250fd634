/*
** pool.c -- child processes for tasks, a few at a time (pool.h).
**
** The parent keeps one Slot per running child: its pid, the read end of
** its pipe, what it wrote so far and its deadline.  A loop polls the
** pipes until the nearest deadline; a pipe at end of file means its child
** is exiting, so the parent reaps it with waitpid() and reports the task.
** A child killed at its deadline is reaped at once, without waiting for
** its pipe's end: a process it started may hold the pipe open.
**
** A task may run a pool of its own (squint eval's item runs squint
** equiv's search in a child).  Its children must not outlive it: on
** Linux each child asks to be killed when its parent dies
** (PR_SET_PDEATHSIG), and a child closes the pipe its parent answers
** through, which it inherited; every pipe is closed on exec.
*/
#include "runtime/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "runtime/util.h"

/* AddressSanitizer maps terabytes of shadow memory up front: a limit on
** the address space would make its next mapping fail, so a sanitized
** build runs without one.  And a child leaves by _exit(), which skips
** LeakSanitizer's check at exit: a sanitized child runs the check itself
** before it leaves, so that a task's leak fails the task (exit status
** SQ_POOL_EXIT_LEAKED) instead of going unseen. */
#if SQ_SANITIZED
#include <sanitizer/lsan_interface.h>
#define POOL_LIMIT_ADDRESS_SPACE 0
#else
#define POOL_LIMIT_ADDRESS_SPACE 1
#endif

typedef struct Slot {
    pid_t pid;
    int fd;            /* read end of the child's pipe; -1 once at EOF */
    size_t task;
    double deadline;   /* monotonic seconds; 0: none */
    int killed;        /* SIGKILLed at the deadline */
    SqBuf out;
} Slot;

/* The parent's bookkeeping: one slot per child that may run at once, and
** what the tasks are run with. */
struct SqPool {
    SqPoolOptions o;
    unsigned jobs, running;
    int stop;          /* done() asked to start no more tasks */
    Slot *slots;
    struct pollfd *pfd;
    SqPoolTaskFn run;
    SqPoolDoneFn done;
    void *ctx;
};

static void pool_free(SqPool *p) {
    for (unsigned k = 0; k < p->jobs; k++) sq_buf_free(&p->slots[k].out);
    free(p->slots);
    free(p->pfd);
    free(p);
}

/* In a child: the write end of the pipe it answers through (-1 in the
** first process).  A child of a pool the task runs closes its copy. */
static int answer_fd = -1;

/* In the child: limits, the task, the answer down the pipe, _exit. */
SQ_NORETURN static void child(const SqPoolOptions *o, int fd, pid_t parent, size_t task, SqPoolTaskFn run,
                              void *ctx) {
#ifdef __linux__
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent) _exit(124);
#else
    (void)parent;
#endif
    if (answer_fd >= 0) close(answer_fd);
    answer_fd = fd;
    signal(SIGPIPE, SIG_DFL);
    if (o->mem_limit && POOL_LIMIT_ADDRESS_SPACE) {
        struct rlimit rl = {(rlim_t)o->mem_limit, (rlim_t)o->mem_limit};
        setrlimit(RLIMIT_AS, &rl);
    }
    SqBuf out = SQ_BUF_INIT;
    int rc = run(ctx, task, &out);
    for (size_t off = 0; off < out.len;) {
        ssize_t w = write(fd, out.data + off, out.len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) _exit(125);
        off += (size_t)w;
    }
    sq_buf_free(&out);
#if SQ_SANITIZED
    if (__lsan_do_recoverable_leak_check()) _exit(SQ_POOL_EXIT_LEAKED);
#endif
    _exit(rc & 0xff);
}

/* Start task in the free slot s of p; 0, or -1 when no process could be
** made.  The child first frees its copy of the parent's bookkeeping: what
** it holds when it leaves is then the task's alone (SQ_POOL_EXIT_LEAKED). */
static int start(SqPool *p, Slot *s, size_t task) {
    int fds[2];
    if (pipe(fds) < 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        SqPoolOptions o = p->o;
        SqPoolTaskFn run = p->run;
        void *ctx = p->ctx;
        close(fds[0]);
        pool_free(p);
        child(&o, fds[1], parent, task, run, ctx);
    }
    close(fds[1]);
    s->pid = pid;
    s->fd = fds[0];
    s->task = task;
    s->killed = 0;
    s->deadline = p->o.task_timeout > 0 ? sq_monotonic_seconds() + p->o.task_timeout : 0;
    sq_buf_reset(&s->out);
    return 0;
}

/* Read what is there; returns 1 at end of file. */
static int drain(Slot *s) {
    char buf[65536];
    ssize_t r = read(s->fd, buf, sizeof buf);
    if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 0;
    if (r > 0) {
        sq_buf_put(&s->out, buf, (size_t)r);
        return 0;
    }
    close(s->fd);
    s->fd = -1;
    return 1;
}

/* Reap the child of s and classify its end. */
static SqTaskEnd reap(Slot *s, int *detail) {
    int status = 0;
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {}
    *detail = 0;
    if (s->killed) return SQ_TASK_TIMEOUT;
    if (WIFSIGNALED(status)) {
        *detail = WTERMSIG(status);
        return SQ_TASK_CRASHED;
    }
    *detail = WEXITSTATUS(status);
    return *detail == 0 ? SQ_TASK_OK : SQ_TASK_FAILED;
}

/* Milliseconds poll() may wait: until the nearest deadline. */
static int wait_ms(const Slot *slots, unsigned n) {
    double now = sq_monotonic_seconds(), nearest = -1;
    for (unsigned k = 0; k < n; k++)
        if (slots[k].pid && slots[k].deadline > 0 && (nearest < 0 || slots[k].deadline < nearest))
            nearest = slots[k].deadline;
    if (nearest < 0) return -1;
    double ms = (nearest - now) * 1000 + 1;
    return ms < 0 ? 0 : ms > 60000 ? 60000 : (int)ms;
}

/* Kill the children past their deadline (their pipes then reach EOF). */
static void kill_late(Slot *slots, unsigned n) {
    double now = sq_monotonic_seconds();
    for (unsigned k = 0; k < n; k++)
        if (slots[k].pid && !slots[k].killed && slots[k].deadline > 0 && now >= slots[k].deadline) {
            kill(slots[k].pid, SIGKILL);
            slots[k].killed = 1;
        }
}

SqPool *sq_pool_new(const SqPoolOptions *o, SqPoolTaskFn run, SqPoolDoneFn done, void *ctx) {
    SqPool *p = sq_calloc(1, sizeof *p);
    p->o = *o;
    p->jobs = o->jobs ? o->jobs : 1;
    p->slots = sq_calloc(p->jobs, sizeof *p->slots);
    p->pfd = sq_calloc(p->jobs, sizeof *p->pfd);
    p->run = run;
    p->done = done;
    p->ctx = ctx;
    return p;
}

/* Wait until some child writes or ends, or a deadline passes, and report
** the tasks that ended. */
static void step(SqPool *p) {
    for (unsigned k = 0; k < p->jobs; k++) {
        p->pfd[k].fd = p->slots[k].pid ? p->slots[k].fd : -1;
        p->pfd[k].events = POLLIN;
        p->pfd[k].revents = 0;
    }
    if (poll(p->pfd, p->jobs, wait_ms(p->slots, p->jobs)) < 0 && errno != EINTR) return;
    kill_late(p->slots, p->jobs);
    for (unsigned k = 0; k < p->jobs; k++) {
        Slot *s = &p->slots[k];
        if (!s->pid) continue;
        if (s->killed) { /* what it wrote so far is what there is */
            if (s->fd >= 0) close(s->fd);
            s->fd = -1;
        } else if (!(p->pfd[k].revents & (POLLIN | POLLHUP | POLLERR)) || !drain(s)) {
            continue;
        }
        int detail;
        SqTaskEnd end = reap(s, &detail);
        s->pid = 0;
        p->running--;
        if (p->done(p->ctx, s->task, end, detail, s->out.data ? s->out.data : "", s->out.len)) p->stop = 1;
    }
}

int sq_pool_add(SqPool *p, size_t task) {
    while (!p->stop && p->running == p->jobs) step(p);
    if (p->stop) return -1;
    Slot *s = p->slots;
    while (s->pid) s++;
    if (start(p, s, task) < 0) {
        if (p->done(p->ctx, task, SQ_TASK_NO_FORK, errno, NULL, 0)) p->stop = 1;
    } else {
        p->running++;
    }
    return p->stop ? -1 : 0;
}

int sq_pool_finish(SqPool *p) {
    while (p->running) step(p);
    int stop = p->stop;
    pool_free(p);
    return stop ? -1 : 0;
}

int sq_pool_run(const SqPoolOptions *o, const size_t *tasks, size_t n, SqPoolTaskFn run, SqPoolDoneFn done,
                void *ctx) {
    SqPool *p = sq_pool_new(o, run, done, ctx);
    for (size_t i = 0; i < n && sq_pool_add(p, tasks[i]) == 0; i++) {}
    return sq_pool_finish(p);
}

const char *sq_task_end_name(SqTaskEnd e) {
    switch (e) {
    case SQ_TASK_OK: return "ok";
    case SQ_TASK_FAILED: return "failed";
    case SQ_TASK_CRASHED: return "crashed";
    case SQ_TASK_TIMEOUT: return "timeout";
    default: return "no fork";
    }
}
