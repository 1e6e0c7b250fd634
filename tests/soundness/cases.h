/*
** cases.h -- read the pairs of a tests/equiv/NAME.cases file for the
** soundness tool.
**
** Test support (not part of libsquint).  The format is the one
** tests/equiv/README.md defines and tests/cli/test_equiv.sh checks; this
** reader trusts that check and keeps only what the soundness tool needs:
** the schema text, and per case its name, semantics, expectation, bound,
** whether the proof must come from the search, and the two queries.
** Everything is malloc'd and freed by cases_free.
*/
#ifndef SQ_SOUNDNESS_CASES_H
#define SQ_SOUNDNESS_CASES_H

#include <stddef.h>

typedef struct EquivCase {
    char *name;
    char *semantics;   /* "set", "bag", "list", "spider" */
    char *expect;      /* "equivalent", "different", ... */
    int bound;         /* default 3, as the runner's */
    int search_only;   /* "-- proof: search-only" */
    int typed;         /* "-- values: typed" */
    char *q[2];        /* the queries, comment lines dropped */
} EquivCase;

typedef struct CaseFile {
    char *path;
    char *stem;        /* file name without directory and ".cases" */
    char *schema;      /* the DDL between "-- schema:" and the first case */
    EquivCase *cases;
    size_t n_cases;
} CaseFile;

/* Read path into *f.  0, or -1 when it cannot be read or holds no schema
** or a case without two queries (*why says which). */
int cases_read(const char *path, CaseFile *f, const char **why);
void cases_free(CaseFile *f);

#endif
