/*
** corpus.h -- load every query of ../shared/corpora for conformance tests
** and benchmarks.
**
** Test support (not part of libsquint).  The corpus root comes from
** $SQUINT_CORPORA (default ../shared/corpora).  Each query records where
** it came from and which database it belongs to.
*/
#ifndef SQ_CORPUS_H
#define SQ_CORPUS_H

#include <stddef.h>

typedef enum CorpusSet {
    CORPUS_SPIDER,  /* Spider dev gold and predictions: real databases */
    CORPUS_BIRD,    /* BIRD dev gold and predictions: schema-only */
    CORPUS_EQUIV,   /* Calcite equivalence pairs */
} CorpusSet;

typedef struct CorpusQuery {
    CorpusSet set;
    char *origin;   /* "spider/dev.json#12", "bird/chatgpt.json#33", ... */
    char *db_id;    /* database id, or NULL (equiv pairs) */
    char *sql;      /* the query text (NUL-terminated) */
    size_t len;
    int schema;     /* equiv: index into Corpus.equiv_schemas */
} CorpusQuery;

typedef struct Corpus {
    char *root;
    CorpusQuery *q;
    size_t n, cap;
    char **equiv_schemas; /* CREATE TABLE script per equiv pair */
    size_t n_equiv_schemas;
} Corpus;

/* Load all queries.  Returns 0 when the corpus directory does not exist
** (callers skip with a message), -1 on a malformed file, 1 on success. */
int corpus_load(Corpus *c);
void corpus_free(Corpus *c);

/* Path of a Spider database, or of a BIRD schema DDL file (caller frees). */
char *corpus_spider_db(const Corpus *c, const char *db_id);
char *corpus_bird_schema(const Corpus *c, const char *db_id);

/* SQLite connections for checking corpus queries, opened on first use and
** kept: Spider queries get their real database (read-only), BIRD queries
** an in-memory database built from the schema DDL, equivalence pairs an
** in-memory database with their own tables. */
typedef struct sqlite3 sqlite3;
typedef struct CorpusDbs {
    char **keys;
    sqlite3 **dbs;
    size_t n;
} CorpusDbs;

sqlite3 *corpus_db(CorpusDbs *cache, const Corpus *c, const CorpusQuery *q);
void corpus_dbs_close(CorpusDbs *cache);

/* squint catalogs for the same databases (Spider: read from the .sqlite;
** BIRD: the schema DDL, errors kept; Calcite pairs: their own DDL),
** loaded on first use through the context (api/squint.h), which owns
** them; the cache maps each database to its catalog.  NULL when the
** schema cannot be read (reported to the context's diagnostics). */
typedef struct Catalog Catalog;
typedef struct SqContext SqContext;
typedef struct CorpusCatalogs {
    char **keys;
    Catalog **cats;     /* the context's */
    size_t n, cap;
} CorpusCatalogs;

Catalog *corpus_catalog(CorpusCatalogs *cache, const Corpus *c, const CorpusQuery *q,
                        SqContext *ctx);
void corpus_catalogs_free(CorpusCatalogs *cache);

/* Counts of distinct texts (why verdicts were unknown, ...), commonest
** first after corpus_tally_sort. */
typedef struct CorpusTallyItem {
    char *text;
    size_t n;
} CorpusTallyItem;
typedef struct CorpusTally {
    CorpusTallyItem *items;
    size_t n, cap;
} CorpusTally;

void corpus_tally_add(CorpusTally *t, const char *text);
void corpus_tally_sort(CorpusTally *t);
void corpus_tally_free(CorpusTally *t);

/* qsort's comparison of doubles. */
int corpus_cmp_double(const void *a, const void *b);

/* Whether a sqlite3_prepare_v2 error message is one SQLite raises while
** parsing, before it looks at any name (1), or one about names and
** meaning (0). */
int corpus_is_syntax_error(const char *msg);

#endif
