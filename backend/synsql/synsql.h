/*
** synsql.h -- a test database for a question built by a language model,
** as seed 000 (SynSQL) describes: a schema selector asked at three
** temperatures and united, an expansion to related columns, a
** synthesizer that writes INSERT statements, a rule-based cleanup, and a
** critic whose scores accept the data or send feedback for another round.
**
** Layer: backend.  The prompts are the synsql-* tasks of backend/prompt
** (prompts/synsql-*.txt), sent with backend/llm's client; the rows are
** checked against the catalog and against SQLite's constraints
** (backend/sqlite).  Prints nothing: what happened goes into a JSON
** report the caller writes.
*/
#ifndef SQ_SYNSQL_H
#define SQ_SYNSQL_H

#include <stdint.h>

#include "backend/llm/llm.h"
#include "backend/prompt/prompt_data.h"
#include "frontend/catalog.h"
#include "runtime/jsonw.h"
#include "runtime/strbuf.h"

typedef struct SqSynsqlConfig {
    SqLlmConfig llm;        /* the endpoint, the key, retries, the cache */
    const char *model;      /* body.model */
    int64_t seed;           /* body.seed (the synthesizer adds the round) */
    int max_rounds;         /* synthesizer-critic rounds, at least 1 (seed 000: 3) */
    double accept;          /* the critic's average that accepts the data (8) */
    const SqPromptNotes *notes;  /* column descriptions for the schemas shown, or NULL */
} SqSynsqlConfig;

typedef struct SqSynsqlItem {
    const Catalog *cat;     /* the question's schema */
    const char *id;         /* names the requests: custom_id "ID/task/..." */
    const char *question;
    const char *evidence;   /* or NULL */
    const char *gold;       /* the gold SQL, run on the result (NULL: none) */
} SqSynsqlItem;

/* What became of one question. */
typedef enum SqSynsqlStatus {
    SQ_SYNSQL_ACCEPTED,     /* the critic's average reached cfg->accept */
    SQ_SYNSQL_BEST,         /* no round did; the best round's data was kept */
    SQ_SYNSQL_FAILED,       /* no database (why says it) */
} SqSynsqlStatus;

/* Run the loop for it and write the database of the accepted (or best)
** round to db_path, a new SQLite file with the whole schema and the rows
** that passed every check.  The report goes into w as the members of an
** object the caller opened: the columns chosen, each round's rows kept
** and dropped (with reasons), the critic's scores and feedback, the gold
** query's row count on the database.  The status; why says what failed. */
SqSynsqlStatus sq_synsql_build(const SqSynsqlConfig *cfg, const SqSynsqlItem *it, const char *db_path,
                               SqJsonWriter *w, SqBuf *why);

/* The synthesizer's statements sql cleaned and applied to a fresh
** database of cat as the loop does (only INSERT ... VALUES into its
** tables, rows checked by SQLite with every constraint on), its counts
** and drops written as members of the object open in w; the rows kept.
** For `squint llm import synsql-synthesizer`. */
size_t sq_synsql_rows(const Catalog *cat, const char *sql, SqJsonWriter *w);

#endif
