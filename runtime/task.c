/*
** task.c -- one function on a thread of its own (task.h).
*/
#include "runtime/task.h"

#include <pthread.h>
#include <stdlib.h>

#include "runtime/util.h"

struct SqTask {
    void (*fn)(void *);
    void *arg;
    int threaded;
    pthread_t thread;
};

static void *run(void *p) {
    SqTask *t = p;
    t->fn(t->arg);
    return NULL;
}

SqTask *sq_task_start(void (*fn)(void *), void *arg) {
    SqTask *t = sq_calloc(1, sizeof *t);
    t->fn = fn;
    t->arg = arg;
    t->threaded = pthread_create(&t->thread, NULL, run, t) == 0;
    if (!t->threaded) fn(arg);
    return t;
}

void sq_task_join(SqTask *t) {
    if (!t) return;
    if (t->threaded) pthread_join(t->thread, NULL);
    free(t);
}
