/*
** prepq.c -- statements prepared on a thread of their own (prepq.h).
**
** One worker thread owns the database: it opens it, then takes queued
** statements in order until sq_prepq_finish says no more will come.  The
** queue is an array that only grows; the mutex guards its size, the next
** index to take, and every job's outcome slot.  sq_prepq_add copies the
** statement so the caller's memory may change meanwhile.
*/
#include "backend/sqlite/prepq.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/util.h"

/* The worker is woken when this many statements wait (or at the end):
** it prepares faster than they come, so waking it for each would cost a
** system call and a switch of threads per statement. */
#define PREPQ_BATCH 32

/* Why nothing was prepared when the script left no database (and SQLite
** gave no message). */
static const char no_schema[] = "the schema did not load";

typedef struct PrepJob {
    char *sql;
    SqPrepOutcome out;
} PrepJob;

struct SqPrepQueue {
    char *script;
    SqDb *db;            /* the worker's (or, without a thread, the caller's) */
    char *open_err;      /* why the script did not load */
    PrepJob *jobs;
    size_t n, cap, next; /* queued, allocated, taken by the worker */
    int closing;         /* no more statements will come */
    int threaded;        /* a worker runs */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t more;
};

static void open_db(SqPrepQueue *p) {
    p->db = sq_db_open_memory(p->script, &p->open_err);
}

/* SQLite's outcome for sql (with no database: not prepared). */
static SqPrepOutcome prepare(SqPrepQueue *p, const char *sql) {
    SqPrepOutcome o;
    memset(&o, 0, sizeof o);
    sq_result_init(&o.cols);
    if (!p->db) {
        o.err = sq_strdup(no_schema);
        return o;
    }
    o.ok = sq_db_columns(p->db, sql, &o.cols, &o.params, &o.err) == 0;
    return o;
}

static void *worker(void *arg) {
    SqPrepQueue *p = arg;
    open_db(p);
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->next == p->n && !p->closing) pthread_cond_wait(&p->more, &p->mu);
        if (p->next == p->n) break;
        size_t i = p->next++;
        const char *sql = p->jobs[i].sql; /* the array may move; this string does not */
        pthread_mutex_unlock(&p->mu);
        SqPrepOutcome o = prepare(p, sql);
        pthread_mutex_lock(&p->mu);
        p->jobs[i].out = o;
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

SqPrepQueue *sq_prepq_start(const char *script) {
    SqPrepQueue *p = sq_calloc(1, sizeof *p);
    p->script = sq_strdup(script ? script : "");
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->more, NULL);
    p->threaded = pthread_create(&p->thread, NULL, worker, p) == 0;
    if (!p->threaded) open_db(p);
    return p;
}

void sq_prepq_add(SqPrepQueue *p, const char *sql) {
    pthread_mutex_lock(&p->mu);
    if (p->n == p->cap) p->jobs = sq_realloc(p->jobs, (p->cap = p->cap ? 2 * p->cap : 64) * sizeof *p->jobs);
    PrepJob *j = &p->jobs[p->n];
    memset(j, 0, sizeof *j);
    j->sql = sq_strdup(sql);
    p->n++;
    if (p->threaded) {
        if (p->n - p->next >= PREPQ_BATCH) pthread_cond_signal(&p->more);
    } else {
        j->out = prepare(p, j->sql);
        p->next = p->n;
    }
    pthread_mutex_unlock(&p->mu);
}

/* Tell the worker no more will come, and wait for it. */
static void join(SqPrepQueue *p) {
    if (!p->threaded) return;
    pthread_mutex_lock(&p->mu);
    p->closing = 1;
    pthread_cond_signal(&p->more);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    p->threaded = 0;
}

size_t sq_prepq_finish(SqPrepQueue *p, char **open_err) {
    join(p);
    if (open_err) *open_err = NULL;
    if (!p->db) {
        if (open_err) *open_err = sq_strdup(p->open_err ? p->open_err : no_schema);
        return (size_t)-1;
    }
    return p->n;
}

const SqPrepOutcome *sq_prepq_outcome(const SqPrepQueue *p, size_t i) { return &p->jobs[i].out; }

void sq_prepq_free(SqPrepQueue *p) {
    if (!p) return;
    join(p);
    for (size_t i = 0; i < p->n; i++) {
        free(p->jobs[i].sql);
        sq_result_free(&p->jobs[i].out.cols);
        sq_db_params_free(&p->jobs[i].out.params);
        free(p->jobs[i].out.err);
    }
    free(p->jobs);
    sq_db_close(p->db);
    free(p->open_err);
    free(p->script);
    pthread_cond_destroy(&p->more);
    pthread_mutex_destroy(&p->mu);
    free(p);
}
