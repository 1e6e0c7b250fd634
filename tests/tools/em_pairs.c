/*
** em_pairs.c -- Spider's exact set match on query pairs, one line each,
** for the conformance check against the official script's results
** (tests/eval/spider-em/pairs.tsv.gz, tests/conformance/eval_spider.sh).
**
** usage: em_pairs DB_ROOT TABLES_JSON < PAIRS
** PAIRS: "db_id<TAB>gold<TAB>pred" lines.  Prints per line what the
** official script gives: "NOGOLD" when it cannot read the gold, "FAILS"
** when it would fail while scoring, else the exact match, the gold's
** hardness, whether the prediction parsed, and per component
** f1/pred_total/label_total.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/eval/spider_em.h"
#include "backend/sqlite/db.h"

/* The schema of the last db_id read, kept while the lines stay on it. */
static char last[512];
static SqEmSchema *s;

static SqEmSchema *schema_of(const char *root, const char *db_id) {
    if (s && strcmp(last, db_id) == 0) return s;
    sq_em_schema_free(s);
    s = NULL;
    snprintf(last, sizeof last, "%s", db_id);
    char path[2048], err[256];
    snprintf(path, sizeof path, "%s/%s/%s.sqlite", root, db_id, db_id);
    char *why = NULL;
    SqDb *db = sq_db_open(path, &why);
    if (!db) {
        fprintf(stderr, "em_pairs: %s: %s\n", path, why ? why : "cannot open");
        free(why);
        return NULL;
    }
    s = sq_em_schema_read(db, err, sizeof err);
    if (!s) fprintf(stderr, "em_pairs: %s: %s\n", path, err);
    sq_db_close(db);
    return s;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: em_pairs DB_ROOT TABLES_JSON < PAIRS\n");
        return 2;
    }
    char err[512];
    SqEmKeys *keys = sq_em_keys_load(argv[2], err, sizeof err);
    if (!keys) {
        fprintf(stderr, "em_pairs: %s\n", err);
        return 2;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int status = 0;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = 0;
        char *gold = strchr(line, '\t'), *pred = gold ? strchr(gold + 1, '\t') : NULL;
        if (!pred) {
            fprintf(stderr, "em_pairs: a line without three fields\n");
            status = 2;
            break;
        }
        *gold++ = 0;
        *pred++ = 0;
        const SqEmSchema *schema = schema_of(argv[1], line);
        if (!schema) {
            status = 2;
            break;
        }
        SqEmResult r;
        sq_em_score(schema, keys, line, gold, pred, &r);
        if (r.status != SQ_EM_OK) {
            puts(r.status == SQ_EM_NO_GOLD ? "NOGOLD" : "FAILS");
            continue;
        }
        printf("%d %s %d", r.exact, r.hardness, r.pred_parsed);
        for (int p = 0; p < SQ_EM_NPARTS; p++)
            printf(" %d/%d/%d", r.part[p].f1, r.part[p].pred_total, r.part[p].label_total);
        putchar('\n');
    }
    free(line);
    sq_em_schema_free(s);
    sq_em_keys_free(keys);
    return status;
}
