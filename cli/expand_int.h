/*
** expand_int.h -- what the files of `squint expand` share: the command
** (cmd_expand.c: options, the plan, each expansion judged, the text) and
** what it writes besides (expand_out.c: the JSON, the records of --out,
** the requests of --requests).
*/
#ifndef SQ_EXPAND_INT_H
#define SQ_EXPAND_INT_H

#include "backend/equiv/equiv.h"
#include "backend/prompt/prompt.h"
#include "backend/sqlite/db.h"
#include "cli/cli.h"
#include "cli/cli_queries.h"
#include "passes/expand/expand.h"
#include "runtime/pool.h"
#include "runtime/strmap.h"

/* What became of one expansion the plan kept. */
typedef enum ExpFate {
    EXP_TAKEN,
    EXP_CLASS_FULL,    /* its shape's class has --n already */
    EXP_NOT_JOINABLE,  /* sq_expansion_join refused it */
    EXP_FAILED,        /* it does not run on the database */
    EXP_NO_ROWS,       /* it runs and returns no row */
} ExpFate;

/* "taken", "class-full", ...: the fates as the output names them. */
extern const char *const expand_fate_names[];

/* What a query's result on a database tells of an expansion's: its rows
** (as a bag) when no choice SQLite makes by the order it reads rows in
** fixes them (ir_result_choice), else its count where no such choice
** fixes that (ir_count_choice), else nothing. */
typedef enum ExpandTell { EXP_TELL_NOTHING, EXP_TELL_ROWS, EXP_TELL_COUNT } ExpandTell;

typedef struct Outcome {
    const SqExpansion *x;
    ExpFate fate;
    const char *why;       /* the reason, for all but taken */
    const char *sql;       /* when it was made */
    const char *join_sql;  /* with a column added: the expansion without it,
                              which the verdict on the result is about */
    const char *column;    /* the column added, "table.column", or NULL */
    const char *column_why; /* --add-column: why none was added */
    const char *filter;    /* the filter added, "table.column = value", or NULL */
    const char *filter_why; /* --add-filter: why none was added */
    int64_t rows;          /* rows on the database; -1: not run */
    /* a taken one: does it change the query's result? */
    int changes;           /* 1 yes, 0 no (up to the bound or proved), -1 not decided */
    const char *verdict;   /* squint equiv's verdict and what it adds */
    const char *counterexample; /* changes: the database's SQL script */
    const char *schema;    /* with --requests: the DDL of the tables the
                              expansion reads */
    const char *request;   /* the custom_id of its request, or NULL */
} Outcome;

/* One query between its judging and its output: what is decided and
** written in the process that judged it, or with -j in a worker. */
typedef struct ExpandQuery {
    CliQuery *q;
    const char *sid;       /* its source id */
    const char *orig;      /* its SQL as the backend writes it (with a plan) */
    const SqExpandPlan *p; /* NULL: why there is none */
    ExpandTell tell;       /* with a plan: what its result on a database tells */
    Outcome *os;           /* the plan's kept expansions' outcomes */
    const char *why, *db_why;
    const SqGraph *g;      /* --tqa: its join query graph, or NULL: why */
} ExpandQuery;

/* A query whose turn to be written has not come (-j). */
typedef struct ExpandEnded {
    int ready;
    SqTaskEnd end;
    int detail;
    char sid[32];
    SqBuf req;             /* its requests (--out with --requests) */
    SqBuf out;             /* what its worker wrote */
} ExpandEnded;

/* How many tasks --tqa --requests asks of each text. */
#define EXPAND_TQA_TASKS 3

typedef struct ExpandRun {
    SqFormat format;
    long n;                /* per class; 0: no limit */
    const char *fixtures;
    int no_run, no_equiv, add_column, add_filter;
    SqExecLimits limits;
    SqEquivOptions equiv;
    CliQueries cq;
    SqBuf out;
    SqJsonWriter jw;
    SqStrMap *classes;     /* canonical form -> expansions taken */
    char *db_path;         /* the database open now, and its path */
    SqDb *db;
    size_t n_queries_planned, n_kept, n_taken, n_joinable, n_run, n_run_failed, n_no_rows, n_class_full;
    size_t n_changes, n_same, n_undecided;
    const char *requests;  /* --requests FILE, or NULL */
    int force;
    SqPromptParams params; /* the requests' model, temperature, seed, tokens */
    SqArena *tpl_arena;
    SqPromptTemplate tpl;  /* expand-question, built in */
    SqBuf req;             /* the requests made, in order */
    size_t n_requests;
    const char *out_path;  /* --out FILE, or NULL */
    int fd;                /* --out, open to append */
    int req_fd;            /* --requests, appended to with --out; else -1 */
    int write_failed;
    SqStrMap *done;        /* source ids whose records are all in --out */
    SqStrMap *had_requests; /* custom_ids in --requests when a run resumes */
    char options[200];     /* what the records depend on, in every record */
    size_t n_sources, n_skipped, n_earlier;
    /* -j (expand_jobs.c) */
    SqPoolOptions pool;
    SqPool *workers;       /* NULL: every query decided in this process */
    ExpandQuery cur;       /* the query a worker forked now takes */
    ExpandEnded *ended;    /* by task number: the queries given to workers */
    size_t n_ended, cap_ended, next_write;
    size_t n_failed_jobs;  /* workers that ended without their output */
    /* --tqa (expand_tqa.c) */
    int tqa;
    size_t n_linker, n_linker_q, n_linker_e; /* queries with a linker table, and a word naming it */
    size_t n_words_q, n_segs_q, n_words_e, n_segs_e; /* such words, and the segments they name */
    SqPromptTemplate tqa_tpl[EXPAND_TQA_TASKS];     /* with --requests: the tasks' templates, */
    SqPromptParams tqa_params[EXPAND_TQA_TASKS];    /* and their parameters */
} ExpandRun;

/* The "record" member of every line of --out: how a file of ours is known. */
#define EXPAND_RECORD "expansion"

/* ---- expand_out.c ------------------------------------------------------------ */

/* The built-in expand-question template, parsed; and may --requests be
** written (never one of the run's inputs: FILE... of a, the schema,
** --fixtures)?  -1 to go on, or 2 after a message. */
int expand_requests_start(ExpandRun *r, const CliArgs *a);
/* The request for taken expansion o (the i-th the plan kept) of q, whose
** SQL as the backend writes it is orig: appended to r->req, its
** custom_id in o->request. */
void expand_request(ExpandRun *r, CliQuery *q, const SqExpandPlan *p, uint32_t i, const char *orig, Outcome *o);
/* --out: may it be written, and the records already there (their
** queries are skipped, their taken expansions counted in their shapes'
** classes); with --requests, that file appended to when the run resumes
** (the requests already there not written again) and begun afresh when
** it does not.  -1 to go on, or 2 after a message. */
int expand_out_start(ExpandRun *r, const CliArgs *a);
/* eq's records (one line each), appended to b. */
void expand_out_records(ExpandRun *r, const ExpandQuery *eq, SqBuf *b);
/* eq's object in the JSON output (--format json), by r->jw. */
void expand_json_query(ExpandRun *r, const ExpandQuery *eq);

/* ---- cmd_expand.c ---------------------------------------------------------------- */

/* Decide whether each taken expansion of eq changes the query's result
** (squint equiv); counts[0..3) get how many do, do not, and are not
** decided. */
void expand_decide(ExpandRun *r, ExpandQuery *eq, size_t counts[3]);
/* Add a query's counts of expand_decide to the run's. */
void expand_count_verdicts(ExpandRun *r, const size_t counts[3]);
/* eq's output: its text or JSON into r->out, or with --out its records
** into records. */
void expand_render(ExpandRun *r, const ExpandQuery *eq, SqBuf *records);
/* A query's output at its turn: text[0..len) to standard output, or with
** --out its requests req[0..req_len) appended to --requests and then its
** records to --out, each in one synced write. */
void expand_emit(ExpandRun *r, const char *req, size_t req_len, const char *text, size_t len);

/* ---- expand_tqa.c ------------------------------------------------------------------ */

/* The tasks of --tqa --requests, in the order each text's requests are
** written: tqa-synonym, tqa-backtranslate, tqa-context. */
extern const char *const expand_tqa_tasks[EXPAND_TQA_TASKS];

/* --tqa: eq's linker table and the words of its question and evidence that
** name it, into r->out (text) or r->jw (JSON), counted for the summary. */
void expand_tqa_query(ExpandRun *r, const ExpandQuery *eq);
/* --tqa's last line of text: how many queries had a linker table and
** words naming it. */
void expand_tqa_summary(ExpandRun *r);

/* ---- expand_jobs.c ------------------------------------------------------------------ */

/* -j N with N > 1: the pool of workers (r->workers), from r->pool. */
void expand_jobs_start(ExpandRun *r);
/* eq, judged, given to a worker: decided and written there; its output
** emitted here when the queries before it have been. */
void expand_jobs_submit(ExpandRun *r, const ExpandQuery *eq);
/* Wait for the workers left and emit what they wrote. */
void expand_jobs_finish(ExpandRun *r);

#endif
