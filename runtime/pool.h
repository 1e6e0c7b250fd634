/*
** pool.h -- run tasks in child processes, a few at a time, each under a
** time and memory limit, and hand what each wrote back to the parent.
**
** Layer: runtime.  Why processes and not threads: a task runs code that
** may crash, loop or exhaust memory on one bad input (a runaway query, a
** solver blow-up).  In a child of its own it takes only itself down; the
** parent records how it ended and goes on.  One fork per task also gives
** every task a fresh heap, so nothing leaks from one into the next.
**
** A task writes its answer into an SqBuf; the child sends it through a
** pipe and exits with _exit(), so nothing of the parent's stdio buffers is
** written twice.  The parent reads every pipe as data arrives (a child
** never blocks on a full pipe), and calls done() in the order tasks end.
*/
#ifndef SQ_POOL_H
#define SQ_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/strbuf.h"

typedef struct SqPoolOptions {
    unsigned jobs;        /* children at once (0 counts as 1) */
    double task_timeout;  /* wall seconds per task, then SIGKILL (0: none) */
    uint64_t mem_limit;   /* bytes of address space per child, RLIMIT_AS (0: none;
                             ignored in an AddressSanitizer build) */
} SqPoolOptions;

/* How a task ended. */
typedef enum SqTaskEnd {
    SQ_TASK_OK,       /* exited with status 0 */
    SQ_TASK_FAILED,   /* exited with another status (detail: the status) */
    SQ_TASK_CRASHED,  /* killed by a signal (detail: its number); running out
                         of memory under mem_limit usually ends here */
    SQ_TASK_TIMEOUT,  /* killed at task_timeout */
    SQ_TASK_NO_FORK,  /* fork() or pipe() failed; the task did not run */
} SqTaskEnd;

/* The exit status of a child whose task leaked memory: only in an
** AddressSanitizer build, where the child runs LeakSanitizer's check before
** it leaves (LeakSanitizer's own status for a leak). */
#define SQ_POOL_EXIT_LEAKED 23

/* Runs in the child: do task number `task` and write the answer to out.
** The return value is the child's exit status. */
typedef int (*SqPoolTaskFn)(void *ctx, size_t task, SqBuf *out);
/* Runs in the parent as each task ends: out[0..n) is what the child wrote
** (possibly partial when it did not end with SQ_TASK_OK).  Returns 0 to go
** on, nonzero to start no more tasks (those running are waited for). */
typedef int (*SqPoolDoneFn)(void *ctx, size_t task, SqTaskEnd end, int detail, const char *out, size_t n);

/* Run tasks[0..n) (task numbers passed through to run and done).  Returns
** 0, or -1 when done() asked to stop. */
int sq_pool_run(const SqPoolOptions *o, const size_t *tasks, size_t n, SqPoolTaskFn run, SqPoolDoneFn done,
                void *ctx);

/* The same, a task at a time, for a caller that finds its tasks as it
** goes (a file read query by query): a child is forked at each
** sq_pool_add, so it sees the caller's memory as it is at that moment.
** sq_pool_add first waits, reporting ended tasks, until fewer than jobs
** children run; it returns 0, or -1 when done() asked to stop (the task
** is then not started).  sq_pool_finish waits for the children left,
** frees the pool and returns 0, or -1 when done() asked to stop. */
typedef struct SqPool SqPool;
SqPool *sq_pool_new(const SqPoolOptions *o, SqPoolTaskFn run, SqPoolDoneFn done, void *ctx);
int sq_pool_add(SqPool *p, size_t task);
int sq_pool_finish(SqPool *p);

/* "ok", "failed", "crashed", "timeout", "no fork". */
const char *sq_task_end_name(SqTaskEnd e);

#endif
