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
/* q's records (its source id sid), appended to --out in one synced
** write, and its requests to --requests. */
void expand_out_source(ExpandRun *r, CliQuery *q, const char *sid, const char *orig, const SqExpandPlan *p,
                       const Outcome *os);
/* q's object in the JSON output (--format json): orig its SQL, p its plan
** (NULL: why there is none), os its kept expansions' outcomes. */
void expand_json_query(ExpandRun *r, CliQuery *q, const char *orig, const SqExpandPlan *p, const Outcome *os,
                       const char *why, const char *db_why);

#endif
