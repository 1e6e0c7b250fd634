/*
** loop.c -- the SynSQL loop for one question (seed 000, Section 3):
**   1. the schema selector at temperatures 0, 0.3 and 0.7, their columns
**      united;
**   2. one expansion to related columns; the columns closed over keys
**      (columns.c);
**   3. rounds of synthesizer, cleanup (rows.c) and critic, until the
**      critic's average score reaches cfg->accept or cfg->max_rounds
**      rounds are spent; the critic's scores and feedback go to the next
**      round's synthesizer;
**   4. the accepted round's rows (else the best-scored round's) written
**      with the whole schema to a new SQLite file, and the gold query run
**      on it.
** Every step's outcome goes into the report, so that a reader can see
** why a database looks the way it does.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/prompt/prompt_data.h"
#include "backend/sqlite/db.h"
#include "backend/synsql/synsql_int.h"
#include "runtime/util.h"

static const double selector_temps[3] = {0.0, 0.3, 0.7};
static const char *const dimensions[6] = {"alignment", "integrity", "coverage", "complexity", "variety", "relevance"};

/* What the loop carries from step to step. */
typedef struct Loop {
    const SqSynsqlConfig *cfg;
    const SqSynsqlItem *it;
    SqJsonWriter *w;
    SqBuf whole;            /* the CREATE TABLE statements of every table */
    SqBuf reduced;          /* ... of the filled tables */
    SqBuf columns;          /* the chosen columns, one per line */
    SqBuf feedback;         /* for the next round; empty in the first */
    SynColumns chosen;
    SynRows best;           /* the best round's rows */
    double best_score;
    int best_round;
} Loop;

/* custom_id of a request: ID/task/round-r/k. */
static void request_id(SqBuf *b, const Loop *l, const char *task, int round, size_t k) {
    sq_buf_reset(b);
    sq_buf_printf(b, "%s/%s/round-%d/%zu", l->it->id, task, round, k);
}

/* ---- columns ------------------------------------------------------------ */

static void put_failures(SqJsonWriter *w, const SynAsk *asks, size_t n) {
    sq_jw_key(w, "failed");
    sq_jw_arr_begin(w);
    for (size_t i = 0; i < n; i++)
        if (!asks[i].reply) sq_jw_str(w, sq_buf_str(&asks[i].why));
    sq_jw_arr_end(w);
}

static void put_unknown(SqJsonWriter *w, const SqBuf *unknown) {
    sq_jw_key(w, "not_in_schema");
    sq_jw_arr_begin(w);
    for (const char *at = sq_buf_str(unknown); *at;) {
        const char *nl = strchr(at, '\n');
        sq_jw_strn(w, at, (size_t)(nl - at));
        at = nl + 1;
    }
    sq_jw_arr_end(w);
}

/* Steps 1 and 2.  0, or -1 with why set when no column was chosen. */
static int choose_columns(Loop *l, SqBuf *why) {
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_DATABASE_SCHEMA] = sq_buf_str(&l->whole);
    v.v[SQ_SLOT_QUESTION] = l->it->question;
    v.v[SQ_SLOT_EVIDENCE] = l->it->evidence;
    SynAsk sel[3];
    SqBuf ids[3] = {SQ_BUF_INIT, SQ_BUF_INIT, SQ_BUF_INIT}, unknown = SQ_BUF_INIT;
    for (size_t i = 0; i < 3; i++) {
        request_id(&ids[i], l, "synsql-selector", 0, i);
        sel[i] = (SynAsk){&v, selector_temps[i], l->cfg->seed, ids[i].data, NULL, SQ_BUF_INIT};
    }
    int rc = syn_ask(l->cfg, "synsql-selector", sel, 3, why);
    for (size_t i = 0; rc == 0 && i < 3; i++)
        if (sel[i].reply) syn_columns_add(&l->chosen, cJSON_GetObjectItemCaseSensitive(sel[i].reply, "columns"), &unknown);
    size_t core = rc == 0 ? syn_columns_count(&l->chosen) : 0;
    sq_jw_key(l->w, "selector");
    sq_jw_obj_begin(l->w);
    sq_jw_key(l->w, "columns");
    syn_columns_json(&l->chosen, l->w);
    put_unknown(l->w, &unknown);
    put_failures(l->w, sel, rc == 0 ? 3 : 0);
    sq_jw_obj_end(l->w);
    syn_ask_free(sel, 3);
    if (rc == 0 && !core) {
        sq_buf_puts(why, "the selectors named no column of the schema");
        rc = -1;
    }
    if (rc == 0) {   /* step 2 */
        syn_columns_text(&l->chosen, &l->columns);
        v.v[SQ_SLOT_COLUMNS] = sq_buf_str(&l->columns);
        request_id(&ids[0], l, "synsql-expansion", 0, 0);
        SynAsk ex = {&v, 0.0, l->cfg->seed, ids[0].data, NULL, SQ_BUF_INIT};
        sq_buf_reset(&unknown);
        rc = syn_ask(l->cfg, "synsql-expansion", &ex, 1, why);
        size_t added = rc == 0 && ex.reply
                           ? syn_columns_add(&l->chosen, cJSON_GetObjectItemCaseSensitive(ex.reply, "columns"), &unknown)
                           : 0;
        sq_jw_key(l->w, "expansion");
        sq_jw_obj_begin(l->w);
        sq_jw_key(l->w, "added");
        sq_jw_int(l->w, (int64_t)added);
        put_unknown(l->w, &unknown);
        put_failures(l->w, &ex, rc == 0 ? 1 : 0);
        sq_jw_obj_end(l->w);
        syn_ask_free(&ex, 1);
    }
    for (size_t i = 0; i < 3; i++) sq_buf_free(&ids[i]);
    sq_buf_free(&unknown);
    return rc;
}

/* ---- rounds ------------------------------------------------------------- */

/* The critic's average, and the feedback for the next round; -1 when its
** reply is missing. */
static double score(const cJSON *reply, SqBuf *feedback) {
    if (!reply) return -1;
    double sum = 0;
    sq_buf_reset(feedback);
    sq_buf_puts(feedback, "Scores of the previous attempt (1 to 10):");
    for (int d = 0; d < 6; d++) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(reply, dimensions[d]);
        int v = cJSON_IsString(s) ? atoi(s->valuestring) : 0;
        sum += v;
        sq_buf_printf(feedback, "%s %s %d", d ? "," : "", dimensions[d], v);
    }
    const cJSON *fb = cJSON_GetObjectItemCaseSensitive(reply, "feedback");
    sq_buf_printf(feedback, ".\n%s", cJSON_IsString(fb) ? fb->valuestring : "");
    return sum / 6;
}

/* The synthesizer's reply cleaned into rows; 0, or -1 (the round has no
** rows: its reason went into the report). */
static int synthesize(Loop *l, int round, SqPromptValues *v, SynRows *rows, SqBuf *why) {
    SqBuf id = SQ_BUF_INIT;
    request_id(&id, l, "synsql-synthesizer", round, 0);
    SynAsk syn = {v, 0.7, l->cfg->seed + round, id.data, NULL, SQ_BUF_INIT};
    int rc = syn_ask(l->cfg, "synsql-synthesizer", &syn, 1, why);
    const cJSON *sql = syn.reply ? cJSON_GetObjectItemCaseSensitive(syn.reply, "sql") : NULL;
    if (rc == 0 && cJSON_IsString(sql)) {
        syn_rows_build(l->it->cat, sq_buf_str(&l->whole), sql->valuestring, rows);
    } else if (rc == 0) {
        sq_jw_key(l->w, "synthesizer_failed");
        sq_jw_str(l->w, sq_buf_str(&syn.why));
        rc = 1;
    }
    syn_ask_free(&syn, 1);
    sq_buf_free(&id);
    return rc;
}

/* The critic's reply: its scores as numbers, its feedback. */
static void put_critic(SqJsonWriter *w, const cJSON *reply) {
    sq_jw_obj_begin(w);
    for (int d = 0; d < 6; d++) {
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(reply, dimensions[d]);
        sq_jw_key(w, dimensions[d]);
        sq_jw_int(w, cJSON_IsString(s) ? atoi(s->valuestring) : 0);
    }
    const cJSON *fb = cJSON_GetObjectItemCaseSensitive(reply, "feedback");
    sq_jw_key(w, "feedback");
    sq_jw_str(w, cJSON_IsString(fb) ? fb->valuestring : NULL);
    sq_jw_obj_end(w);
}

/* One round: rows, then the critic.  1 when accepted, 0 when not, -1
** when it could not be asked. */
static int round_once(Loop *l, int round, SqBuf *why) {
    SqPromptValues v = {{NULL}};
    v.v[SQ_SLOT_SCHEMA] = sq_buf_str(&l->reduced);
    v.v[SQ_SLOT_COLUMNS] = sq_buf_str(&l->columns);
    v.v[SQ_SLOT_QUESTION] = l->it->question;
    v.v[SQ_SLOT_EVIDENCE] = l->it->evidence;
    v.v[SQ_SLOT_FEEDBACK] = l->feedback.len ? l->feedback.data : NULL;
    SynRows rows;
    memset(&rows, 0, sizeof rows);
    sq_jw_obj_begin(l->w);
    sq_jw_key(l->w, "round");
    sq_jw_int(l->w, round);
    int rc = synthesize(l, round, &v, &rows, why);
    double avg = -1;
    if (rc == 0) {
        syn_rows_json(l->w, &rows);
        SqBuf data = SQ_BUF_INIT, id = SQ_BUF_INIT;
        rc = syn_rows_text(&l->chosen, sq_buf_str(&l->whole), &rows, &data, why);
        v.v[SQ_SLOT_DATA] = sq_buf_str(&data);
        request_id(&id, l, "synsql-critic", round, 0);
        SynAsk critic = {&v, 0.0, l->cfg->seed, id.data, NULL, SQ_BUF_INIT};
        if (rc == 0 && rows.kept) rc = syn_ask(l->cfg, "synsql-critic", &critic, 1, why);
        if (rc == 0) {
            avg = rows.kept ? score(critic.reply, &l->feedback) : 0;
            if (!rows.kept) sq_buf_puts(&l->feedback, "No row of the previous attempt could be inserted; "
                                                      "follow the schema's constraints exactly.");
            sq_jw_key(l->w, "critic");
            if (critic.reply) {
                put_critic(l->w, critic.reply);
            } else {
                sq_jw_str(l->w, rows.kept ? sq_buf_str(&critic.why) : "not asked: no rows");
            }
            sq_jw_key(l->w, "average");
            sq_jw_double(l->w, avg);
        }
        syn_ask_free(&critic, 1);
        sq_buf_free(&data);
        sq_buf_free(&id);
    }
    sq_jw_obj_end(l->w);
    if (rc < 0) {
        syn_rows_free(&rows);
        return -1;
    }
    if (rows.kept && avg > l->best_score) {
        syn_rows_free(&l->best);
        l->best = rows;
        l->best_score = avg;
        l->best_round = round;
    } else {
        syn_rows_free(&rows);
    }
    return avg >= l->cfg->accept ? 1 : 0;
}

/* ---- the question ------------------------------------------------------- */

/* Write the best rows with the whole schema to path; run the gold query
** on it.  0, or -1 with why set. */
static int write_database(Loop *l, const char *path, SqBuf *why) {
    SqBuf script = SQ_BUF_INIT;
    sq_buf_printf(&script, "%s\n%s", sq_buf_str(&l->whole), sq_buf_str(&l->best.script));
    char *err = NULL;
    int rc = sq_db_write_file(path, script.data, &err);
    sq_buf_free(&script);
    if (rc < 0) {
        sq_buf_puts(why, err ? err : "the database could not be written");
        free(err);
        return -1;
    }
    if (!l->it->gold) return 0;
    SqDb *db = sq_db_open(path, &err);
    SqResult r;
    sq_result_init(&r);
    SqExecLimits lim = {.timeout_sec = 30};
    SqExecStatus st = db ? sq_db_query(db, l->it->gold, &lim, &r, &err) : SQ_EXEC_ERROR;
    sq_jw_key(l->w, "gold_rows");
    if (st == SQ_EXEC_OK) sq_jw_int(l->w, (int64_t)r.n_rows);
    else sq_jw_null(l->w);
    if (st != SQ_EXEC_OK) {
        sq_jw_key(l->w, "gold_error");
        sq_jw_str(l->w, err ? err : sq_exec_status_name(st));
    }
    free(err);
    sq_result_free(&r);
    sq_db_close(db);
    return 0;
}

static SqSynsqlStatus run_rounds(Loop *l, const char *db_path, SqBuf *why) {
    int accepted = 0, rc = 0;
    sq_jw_key(l->w, "rounds");
    sq_jw_arr_begin(l->w);
    for (int round = 1; round <= l->cfg->max_rounds && !accepted && rc >= 0; round++) {
        rc = round_once(l, round, why);
        accepted = rc == 1;
    }
    sq_jw_arr_end(l->w);
    if (rc < 0) return SQ_SYNSQL_FAILED;
    if (!l->best.kept) {
        sq_buf_puts(why, "no round gave a row the schema takes");
        return SQ_SYNSQL_FAILED;
    }
    sq_jw_key(l->w, "kept_round");
    sq_jw_int(l->w, l->best_round);
    sq_jw_key(l->w, "score");
    sq_jw_double(l->w, l->best_score);
    if (write_database(l, db_path, why) < 0) return SQ_SYNSQL_FAILED;
    return accepted ? SQ_SYNSQL_ACCEPTED : SQ_SYNSQL_BEST;
}

SqSynsqlStatus sq_synsql_build(const SqSynsqlConfig *cfg, const SqSynsqlItem *it, const char *db_path,
                               SqJsonWriter *w, SqBuf *why) {
    Loop l = {.cfg = cfg, .it = it, .w = w, .best_score = -1};
    syn_columns_init(&l.chosen, it->cat);
    sq_prompt_tables_ddl(it->cat, NULL, cfg->notes, &l.whole);
    SqSynsqlStatus st = SQ_SYNSQL_FAILED;
    if (choose_columns(&l, why) == 0) {
        syn_columns_close(&l.chosen);
        sq_buf_reset(&l.columns);
        syn_columns_text(&l.chosen, &l.columns);
        sq_prompt_tables_ddl(it->cat, l.chosen.keep, cfg->notes, &l.reduced);
        sq_jw_key(w, "columns");
        syn_columns_json(&l.chosen, w);
        st = run_rounds(&l, db_path, why);
    }
    syn_columns_free(&l.chosen);
    syn_rows_free(&l.best);
    sq_buf_free(&l.whole);
    sq_buf_free(&l.reduced);
    sq_buf_free(&l.columns);
    sq_buf_free(&l.feedback);
    return st;
}
