/*
** bench_input.h -- read a benchmark file into items of SQL text.
**
** Layer: frontend (uses runtime only; prints nothing).  Takes a source
** holding a benchmark file in one of the formats text-to-SQL benchmarks
** are shipped in, and gives its items: a label, a db_id when the file has
** one, and the SQL text as a source of its own that is embedded in the
** file's source, so a diagnostic in the SQL points at a line and column of
** the file the user has (through JSON escapes too).
**
**   format       content                                            label
**   sql          SQL script; the whole file is one item             (none)
**   spider       Spider dev.json: [{"db_id", "query", ...}]         item N (0-based)
**   bird         BIRD dev.json: [{"question_id", "db_id", "SQL"}]   question_id N
**   tsv          SQL<TAB>db_id per line (dev_gold.sql files)        line N (1-based)
**   bird-pred    BIRD predict_dev.json: {"N": "SQL\t----- bird -----\tdb_id"}
**                                                                    question_id N
**   lines        one SQL per line (prediction files); empty lines   line N (1-based)
**                are items too, since line i goes with gold item i
**
** Detection (SQ_INPUT_AUTO) looks at the content, and at the file name
** only for one thing: a file named *.json is read as JSON whatever it
** holds (so a .json file that is empty, or not JSON, is an input error,
** not a SQL script of no statements).  A
** JSON array (starting "[{" or "[]", blanks aside) is spider or bird by
** the keys of its first object; a JSON object ("{\"" or "{}") is
** bird-pred when its first key is a number (a question id), and no
** benchmark file otherwise (E0003).  Text is tsv when every non-empty line ends in
** <TAB>identifier after some SQL; lines when it has two or more non-empty
** lines of which nine in ten look like whole queries (start with SELECT or
** WITH, balanced parentheses, a WITH's main SELECT on the same line) and
** fewer than half end in ';' (always, for SQ_INPUT_AUTO_LINES); sql
** otherwise.
**
** Memory: the SqBench, its items and their strings live in the arena the
** caller passes; every item's SQL source is added to the caller's SqSrcSet,
** which owns it.
*/
#ifndef SQ_BENCH_INPUT_H
#define SQ_BENCH_INPUT_H

#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/diag.h"
#include "runtime/src.h"

typedef enum SqInputFormat {
    SQ_INPUT_AUTO,      /* detect from the content */
    SQ_INPUT_SQL,       /* a script: one item, the whole file */
    SQ_INPUT_SPIDER,    /* Spider dev.json */
    SQ_INPUT_BIRD,      /* BIRD dev.json */
    SQ_INPUT_TSV,       /* SQL<TAB>db_id lines */
    SQ_INPUT_BIRD_PRED, /* BIRD's prediction JSON object */
    SQ_INPUT_LINES,     /* one SQL per line */
    SQ_INPUT_AUTO_LINES,/* detect, but read plain text as lines, not as a
                           script (the caller knows it is a prediction file) */
} SqInputFormat;

/* One query of a benchmark file. */
typedef struct SqBenchItem {
    const char *label;   /* "item 3", "question_id 12", "line 7"; NULL in a script */
    uint32_t index;      /* 0-based position among the file's items */
    const char *db_id;   /* as the file writes it, or NULL */
    SrcSpan db_id_span;  /* where db_id is written; file 0 when nowhere */
    SqSrc *sql;          /* the SQL text, embedded in the file (a script: the
                            file's own source) */
    SrcSpan span;        /* the whole item in the file */
    int64_t qid;         /* BIRD's question_id (dev.json's field, a
                            prediction object's key), or -1 */
    const char *question;   /* dev.json's "question", or NULL */
    const char *evidence;   /* BIRD dev.json's "evidence" (external
                               knowledge), or NULL when absent or empty */
    const char *difficulty; /* BIRD dev.json's "difficulty" (or a Spider
                               file's "hardness"), or NULL */
} SqBenchItem;

/* A benchmark file read into items. */
typedef struct SqBench {
    SqSrc *file;         /* the file's source (not owned) */
    uint8_t format;      /* SqInputFormat, never AUTO once read */
    SqBenchItem *items;
    uint32_t n_items, cap_items;
} SqBench;

/* ---- formats ---------------------------------------------------------- */

/* "sql", "spider", "bird", "tsv", "bird-pred", "lines"; "auto" for both
** AUTO values. */
const char *sq_input_format_name(SqInputFormat f);
/* The format named name ("auto" included); 0 when there is none. */
int sq_input_format_parse(const char *name, SqInputFormat *out);

/* ---- reading ---------------------------------------------------------- */

/* Read file as format, detecting it for the AUTO values (see the top).
** Problems go to diags: E0002 for invalid JSON, E0003 for content that
** does not fit the format (the item is skipped, or kept without a db_id)
** or for an empty JSON file, W0001 for an item with no SQL.  Returns -1
** when nothing could be read (an empty JSON file, invalid JSON, wrong
** top-level shape), else 0.  Every E0002 and E0003 is a file the caller
** cannot read as it is: commands exit 2 for them. */
int sq_bench_read(SqBench *b, SqArena *a, SqSrcSet *srcs, SqSrc *file,
                  SqInputFormat format, SqDiags *diags);

/* Give every item of b without a db_id the db_id of the item at the same
** position in from (a gold file, for a prediction file aligned with it).
** Different item counts are an E0003 error, since the pairing would be
** wrong; items within both counts still get their db_ids.  The db_id
** strings stay in from's arena, which must outlive b. */
void sq_bench_take_db_ids(SqBench *b, const SqBench *from, SqDiags *diags);

#endif
