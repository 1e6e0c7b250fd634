/*
** eval_out.h -- the files `squint eval` and `squint merge` write, kept
** from harming the user's: the records file (--out) and the report.
**
** Layer: cli.  Three jobs, each before anything is run or written:
**   1. no output names an input, however spelled (device and inode);
**   2. an existing --out file is appended to (or its last line cut) only
**      when it is a records file of squint eval's current format: any
**      other file is refused, a minified one-line JSON file included;
**   3. resuming: the records already there are checked against this run
**      (its systems, the options that change a record, and per item the
**      digest of its gold, db_id and predictions); a record of other
**      options or inputs is refused with what changed, or with
**      --rerun-changed left for the run to redo.  Of several records of
**      one item the last one counts.
** Messages go to stderr, prefixed "squint CMD:".
*/
#ifndef SQ_EVAL_OUT_H
#define SQ_EVAL_OUT_H

#include <stdint.h>

#include "backend/eval/item.h"
#include "backend/eval/record.h"
#include "runtime/safewrite.h"

/* One file the run reads, for the same-file check. */
/* The run's inputs: SqOutInput (runtime/safewrite.h), `what` saying "the
** gold file", "the prediction file", ... */
typedef SqOutInput EvalInputFile;

/* -1 after a message when an output (out, report; either may be NULL)
** is one of inputs[0..n) or when both outputs are one file; else 0. */
int eval_out_check_paths(const char *cmd, const char *out, const char *report, const EvalInputFile *inputs,
                         size_t n);

/* Whether path may be replaced by a records file (squint merge --out):
** it does not exist, is empty, or holds only records (any format).  0,
** or -1 after a message. */
int eval_out_check_replace(const char *cmd, const char *path);

/* What a gold item's record is computed from, as this run has it. */
typedef struct EvalItemInputs {
    const char *gold, *db_id;
    const char *const *preds;               /* per system; NULL: none */
    char digest[SQ_EVAL_DIGEST_LEN + 1];    /* sq_eval_input_digest */
} EvalItemInputs;

/* The records already in --out, for a resumed run. */
typedef struct EvalResume {
    /* given */
    const char *path;
    const char *const *names;   /* the systems */
    size_t n_sys;
    const EvalItemInputs *items;
    size_t n_items;             /* of the gold file */
    const char *options;        /* the run's options object (JSON text) */
    int rerun_changed;          /* redo stale items rather than refuse */
    /* found (eval_resume_read) */
    uint8_t *done;              /* per item: a current record is there (heap) */
    size_t n_stale;             /* records to be redone (--rerun-changed) */
    SqEvalLine *current;        /* the record that counts for each done item,
                                   in item order (into text; heap) */
    size_t n_current, cap_current;
    char *text;                 /* the file's content (heap) */
    size_t len;
} EvalResume;

/* Check and read rs->path (absent or empty: nothing there), and cut a
** last record that a killed run left unfinished.  0, or -1 after a
** message (the file is then untouched). */
int eval_resume_read(EvalResume *rs);
void eval_resume_free(EvalResume *rs);

#endif
