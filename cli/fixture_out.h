/*
** fixture_out.h -- the directory `squint fixture` writes: its records
** file and one folder per question, kept from harming the user's files.
**
** Layer: cli.  The directory (--out DIR) is new, empty, or one squint
** fixture wrote (it holds fixture.jsonl, whose every line is a record of
** this run's format, options and inputs).  Anything else is refused
** before any work.  A question's folder DIR/<id>/ holds only what squint
** wrote there (NN.sqlite, NN.sql, suite.json, temporary files of a
** killed run); it is emptied of them before the question is written
** again, and a folder holding anything else is refused.
**
** Resuming: a question whose record is in fixture.jsonl is done; the
** record is appended (and fsync'd) only after the question's files are
** written, so a run killed at any point loses and repeats nothing.  The
** unfinished last line a killed run may leave is cut.
** Messages go to stderr, prefixed "squint fixture:".
*/
#ifndef SQ_FIXTURE_OUT_H
#define SQ_FIXTURE_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "backend/eval/record.h"
#include "frontend/bench_input.h"
#include "runtime/diag.h"
#include "runtime/strbuf.h"

/* The records file's name in the directory, and the record format. */
#define FIXTURE_RECORDS "fixture.jsonl"
#define FIXTURE_FORMAT 1

typedef struct FixtureOut {
    /* given */
    const char *dir;
    const char *options;        /* the run's options object (JSON text) */
    const char *const *digests; /* per question: digest of its inputs */
    size_t n_items;
    /* found */
    char *records;              /* DIR/fixture.jsonl (heap) */
    int fd;                     /* open for appending, or -1 */
    uint8_t *done;              /* per question: its record is there */
    char *text;                 /* the records read (heap) */
    size_t len;
    SqEvalLine *lines;          /* the records, in file order (into text) */
    size_t n_lines, cap_lines;
} FixtureOut;

/* Check, create or read the directory, and open the records file for
** appending.  0, or -1 after a message (nothing written then). */
int fixture_out_open(FixtureOut *o);
/* Append one record (ending in '\n') and fsync; 0 or -1 (errno set). */
int fixture_out_append(FixtureOut *o, const char *rec, size_t n);
void fixture_out_close(FixtureOut *o);

/* In a question's process: DIR/name made ready for its files (created, or
** emptied of what squint fixture wrote there).  0 and the folder's path
** (heap) in *path, or -1 with the reason in why. */
int fixture_qdir_prepare(const char *dir, const char *name, char **path, SqBuf *why);

/* Read the gold file at path into *gold (its items in a): 0, or -1 after
** the diagnostics or a message ("squint fixture:"): unreadable, with
** errors, or without a query. */
int fixture_read_gold(const char *path, SqBench *gold, SqArena *a, SqSrcSet *srcs, SqDiags *diags);

/* squint fixture --llm (cli/fixture_llm.c). */
int fixture_llm(int argc, char **argv);

#endif
