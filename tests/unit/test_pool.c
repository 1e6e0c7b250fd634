/* test_pool.c -- runtime/pool.c: tasks in child processes, how each one
** ended, and a task killed at its deadline taking its own children with
** it.
**
** No check here reads the clock.  The deadlines are short so that the
** tests end soon; a task that must be killed waits in pause(), which
** never returns, so the verdicts do not depend on the machine's speed.
** alarm() guards against the one failure that would otherwise hang the
** run: a pool that waits for a pipe a killed task's child holds open. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/pool.h"
#include "runtime/util.h"

/* What the parent saw of each task. */
typedef struct Seen {
    size_t n;
    size_t task[8];
    SqTaskEnd end[8];
    int detail[8];
    char out[8][64];
} Seen;

static int record(void *ctx, size_t task, SqTaskEnd end, int detail, const char *out, size_t n) {
    Seen *s = ctx;
    assert_true(s->n < 8);
    s->task[s->n] = task;
    s->end[s->n] = end;
    s->detail[s->n] = detail;
    snprintf(s->out[s->n], sizeof s->out[0], "%.*s", (int)n, out ? out : "");
    s->n++;
    return 0;
}

/* Task k: 0 answers, 1 exits with status 3, 2 is killed by SIGTERM. */
static int three_ends(void *ctx, size_t task, SqBuf *out) {
    (void)ctx;
    if (task == 1) return 3;
    if (task == 2) raise(SIGTERM);
    sq_buf_printf(out, "answer %zu", task);
    return 0;
}

static size_t index_of(const Seen *s, size_t task) {
    for (size_t i = 0; i < s->n; i++)
        if (s->task[i] == task) return i;
    fail_msg("task %zu was not reported", task);
    return 0;
}

static void each_end_is_told(void **state) {
    (void)state;
    SqPoolOptions o = {2, 0, 0};
    size_t tasks[] = {0, 1, 2};
    Seen s = {0};
    assert_int_equal(sq_pool_run(&o, tasks, 3, three_ends, record, &s), 0);
    assert_int_equal(s.n, 3);
    size_t i = index_of(&s, 0);
    assert_int_equal(s.end[i], SQ_TASK_OK);
    assert_string_equal(s.out[i], "answer 0");
    i = index_of(&s, 1);
    assert_int_equal(s.end[i], SQ_TASK_FAILED);
    assert_int_equal(s.detail[i], 3);
    i = index_of(&s, 2);
    assert_int_equal(s.end[i], SQ_TASK_CRASHED);
    assert_int_equal(s.detail[i], SIGTERM);
}

/* A task that never ends by itself. */
SQ_NORETURN static int forever(void *ctx, size_t task, SqBuf *out) {
    (void)ctx, (void)task, (void)out;
    for (;;) pause();
}

static void a_late_task_is_killed(void **state) {
    (void)state;
    SqPoolOptions o = {1, 0.2, 0};
    size_t task = 0;
    Seen s = {0};
    alarm(120);
    assert_int_equal(sq_pool_run(&o, &task, 1, forever, record, &s), 0);
    alarm(0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.end[0], SQ_TASK_TIMEOUT);
}

/* The task of the outer pool: it runs a pool of its own whose one task
** never ends, so the task never ends either.  Its child (the test's
** grandchild) holds the write end of the test's pipe `witness`, and the
** pipe its parent answers through unless the pool closes that. */
static int nested_forever(void *ctx, size_t task, SqBuf *out) {
    (void)ctx, (void)task, (void)out;
    SqPoolOptions o = {1, 0, 0};
    size_t inner = 0;
    Seen s = {0};
    sq_pool_run(&o, &inner, 1, forever, record, &s);
    return 0;
}

static void a_killed_task_takes_its_children(void **state) {
    (void)state;
    int witness[2];
    assert_int_equal(pipe(witness), 0);
    SqPoolOptions o = {1, 0.2, 0};
    size_t task = 0;
    Seen s = {0};
    alarm(120); /* a pool waiting for the grandchild's end of the pipe hangs */
    assert_int_equal(sq_pool_run(&o, &task, 1, nested_forever, record, &s), 0);
    assert_int_equal(s.n, 1);
    assert_int_equal(s.end[0], SQ_TASK_TIMEOUT);
    /* the grandchild's copy of the write end closes when it dies: read
    ** reaches end of file then, and blocks (until the alarm) while it
    ** lives */
    close(witness[1]);
    char c;
    ssize_t r;
    while ((r = read(witness[0], &c, 1)) < 0 && errno == EINTR) {}
    alarm(0);
    assert_int_equal(r, 0);
    close(witness[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(each_end_is_told),
        cmocka_unit_test(a_late_task_is_killed),
        cmocka_unit_test(a_killed_task_takes_its_children),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
