/*
** synsql_int.h -- what the files of backend/synsql share: asking the
** model (ask.c), the chosen columns (columns.c), the rows (rows.c).
*/
#ifndef SQ_SYNSQL_INT_H
#define SQ_SYNSQL_INT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/prompt/prompt.h"
#include "backend/synsql/synsql.h"

/* ---- ask.c ------------------------------------------------------------- */

/* One request of a task to send: its slot values and temperature. */
typedef struct SynAsk {
    const SqPromptValues *values;
    double temperature;
    int64_t seed;
    const char *custom_id;
    cJSON *reply;           /* out: the reply's fields (sq_prompt_reply_parse), or NULL */
    SqBuf why;              /* out: why there is none */
} SynAsk;

/* Send asks[0..n) of task at once and read each reply.  0, or -1 with
** the reason in why when nothing could be sent (the template, libcurl);
** a request that failed has reply NULL and its reason. */
int syn_ask(const SqSynsqlConfig *cfg, const char *task, SynAsk *asks, size_t n, SqBuf *why);
void syn_ask_free(SynAsk *asks, size_t n);

/* ---- columns.c ---------------------------------------------------------- */

/* The columns chosen for the test data: per table of the catalog, a flag
** per column (NULL for a table with none). */
typedef struct SynColumns {
    const Catalog *cat;
    uint8_t **on;           /* [table][column] */
    uint8_t *keep;          /* [table]: the table is filled */
} SynColumns;

void syn_columns_init(SynColumns *c, const Catalog *cat);
void syn_columns_free(SynColumns *c);
/* Choose the columns a reply names ("table.column", quotes allowed);
** the names that are no column of the schema are appended to unknown,
** one per line.  The number chosen that were not before. */
size_t syn_columns_add(SynColumns *c, const cJSON *names, SqBuf *unknown);
/* Add what rows of the chosen columns need to be inserted at all: each
** filled table's primary key and NOT NULL columns without a default,
** and the tables (with their keys) that filled foreign keys reference. */
void syn_columns_close(SynColumns *c);
/* "table.column" per line, in catalog order. */
void syn_columns_text(const SynColumns *c, SqBuf *out);
size_t syn_columns_count(const SynColumns *c);
void syn_columns_json(const SynColumns *c, SqJsonWriter *w);

/* ---- rows.c ------------------------------------------------------------- */

/* The rows of one round: the INSERT statements that passed, one row
** each, and what was dropped. */
typedef struct SynRows {
    SqBuf script;           /* the accepted rows, one INSERT per line */
    size_t kept, dropped, padded, truncated;
    SqBuf drops;            /* JSON array members: {"statement": n, "why": ...} */
    size_t n_drops;
} SynRows;

/* Clean sql (the synthesizer's reply) into rows over schema_sql (the
** catalog's CREATE TABLE statements): only INSERT ... VALUES statements
** into tables of the catalog; columns not in the table are dropped with
** their values; a row with too few values is padded with NULL, one with
** too many cut; each row is kept only when SQLite takes it after the
** rows kept before, with foreign keys enforced. */
void syn_rows_build(const Catalog *cat, const char *schema_sql, const char *sql, SynRows *rows);
void syn_rows_free(SynRows *rows);
/* The rows' counts and drops as members of the object open in w
** (rows_kept, rows_dropped, padded, truncated, dropped). */
void syn_rows_json(SqJsonWriter *w, const SynRows *rows);
/* The filled tables' rows as text tables, for the critic. */
int syn_rows_text(const SynColumns *c, const char *schema_sql, const SynRows *rows, SqBuf *out, SqBuf *why);

#endif
