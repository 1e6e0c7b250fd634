/*
** spider_em.h -- Spider's exact-set-match accuracy (EM) and its component
** scores, as the official test-suite evaluation.py --etype match computes
** them, item for item.
**
** Layer: backend/eval.  EM does not run queries: it reads the gold and the
** predicted SQL into the script's own structure (spider_em_int.h) against
** the database's table and column names, drops every value, maps each
** column along the foreign keys of tables.json to one representative,
** deletes DISTINCT, and compares clause by clause, each as a bag.  The
** script's reading has quirks that decide many items (it tokenizes with
** nltk, so "a=b" is one word; a column alias in SELECT, a LEFT JOIN or a
** FROM list with commas does not parse; LIMIT's value is always 1; a
** prediction that does not parse scores as an empty query); they are
** reproduced, not fixed, so the numbers are the official ones.  Checked
** against the script's per-item results on the eleven Spider dev
** prediction files (tests/eval/spider-em, make conformance).
*/
#ifndef SQ_EVAL_SPIDER_EM_H
#define SQ_EVAL_SPIDER_EM_H

#include <stddef.h>

#include "backend/sqlite/db.h"

/* A database's tables and their columns, lowercase, as the script reads
** them (sqlite_master and PRAGMA table_info). */
typedef struct SqEmSchema SqEmSchema;

/* tables.json's foreign keys: for each db_id, the column each column is
** mapped to before comparing. */
typedef struct SqEmKeys SqEmKeys;

/* The component scores, in the order the script prints them. */
typedef enum SqEmPart {
    SQ_EM_SELECT, SQ_EM_SELECT_NO_AGG, SQ_EM_WHERE, SQ_EM_WHERE_NO_OP,
    SQ_EM_GROUP_NO_HAVING, SQ_EM_GROUP, SQ_EM_ORDER, SQ_EM_AND_OR,
    SQ_EM_IUEN, SQ_EM_KEYWORDS, SQ_EM_NPARTS
} SqEmPart;

/* The script's names: "select", "select(no AGG)", ..., "keywords". */
extern const char *const sq_em_part_name[SQ_EM_NPARTS];

/* One component of one item: acc, rec and f1 are all 1 when it matches
** and all 0 otherwise; the totals are the sizes of the compared sets. */
typedef struct SqEmPartScore {
    int acc, rec, f1;
    int pred_total, label_total;
} SqEmPartScore;

typedef enum SqEmStatus {
    SQ_EM_OK,              /* scored */
    SQ_EM_NO_GOLD,         /* the gold does not parse: the script stops */
    SQ_EM_SCRIPT_FAILS     /* the script would fail while scoring */
} SqEmStatus;

typedef struct SqEmResult {
    SqEmStatus status;
    int exact;             /* 1: exact set match */
    int pred_parsed;       /* 0: the prediction scored as an empty query */
    const char *hardness;  /* the gold's: "easy", "medium", "hard", "extra" */
    char why[160];         /* for a status other than OK */
    SqEmPartScore part[SQ_EM_NPARTS];
} SqEmResult;

/* Read db's schema; NULL with err filled when it cannot be read. */
SqEmSchema *sq_em_schema_read(SqDb *db, char *err, size_t errlen);
void sq_em_schema_free(SqEmSchema *s);

/* Load tables.json; NULL with err filled when it cannot be read. */
SqEmKeys *sq_em_keys_load(const char *path, char *err, size_t errlen);
/* The same from its text; name is the file's, for messages. */
SqEmKeys *sq_em_keys_parse(const char *text, size_t len, const char *name, char *err, size_t errlen);
void sq_em_keys_free(SqEmKeys *k);

/* Whether keys has an entry for db_id. */
int sq_em_keys_has(const SqEmKeys *k, const char *db_id);

/* Score pred against gold (both as written: the script's "value" -> "1"
** replacement in the prediction is done here). */
void sq_em_score(const SqEmSchema *s, const SqEmKeys *k, const char *db_id,
                 const char *gold, const char *pred, SqEmResult *out);

/* The script's overall table: sums over items, per level. */
typedef struct SqEmTally {
    int count;
    double exact;
    double acc[SQ_EM_NPARTS], rec[SQ_EM_NPARTS];
    int acc_count[SQ_EM_NPARTS], rec_count[SQ_EM_NPARTS];
} SqEmTally;

/* Count one scored item (status SQ_EM_OK). */
void sq_em_tally_add(SqEmTally *t, int exact, const SqEmPartScore *part);

/* The printed numbers of a tally: EM, and one component's accuracy,
** recall and F1 (the script's F1 is 1 when both are 0). */
double sq_em_tally_exact(const SqEmTally *t);
void sq_em_tally_part(const SqEmTally *t, SqEmPart p, double *acc, double *rec, double *f1);

#endif
