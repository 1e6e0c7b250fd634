/*
** eval_out.c -- the output files of `squint eval` and `squint merge`,
** kept from harming the user's (eval_out.h).
**
** Sections: outputs that name inputs; what a records file is; resuming.
*/
#include "cli/eval_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/jsonw.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"
#include "cli/cli.h"

/* ------------------------------------------------------------------ */
/* Outputs that name inputs                                            */
/* ------------------------------------------------------------------ */

static int names_input(const char *cmd, const char *opt, const char *out, const EvalInputFile *inputs, size_t n) {
    const EvalInputFile *in = sq_out_input_of(out, inputs, n);
    if (!in) return 0;
    fprintf(stderr, "squint %s: %s '%s' is %s '%s': an input is never written; name another file\n", cmd, opt, out,
            in->what, in->path);
    return -1;
}

int eval_out_check_paths(const char *cmd, const char *out, const char *report, const EvalInputFile *inputs,
                         size_t n) {
    if (names_input(cmd, "--out", out, inputs, n) < 0 || names_input(cmd, "--report", report, inputs, n) < 0)
        return -1;
    if (out && report && (strcmp(out, report) == 0 || sq_same_file(out, report))) {
        fprintf(stderr, "squint %s: --out and --report name one file '%s'\n", cmd, out);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ */
/* What a records file is                                              */
/* ------------------------------------------------------------------ */

static int not_records(const char *cmd, const char *path, const char *why) {
    fprintf(stderr,
            "squint %s: '%s' is not a squint eval records file (%s); it is left as it is: use another --out "
            "file\n",
            cmd, path, why);
    return -1;
}

int eval_out_check_replace(const char *cmd, const char *path) {
    if (sq_path_is_special(path)) return not_records(cmd, path, "not a regular file");
    size_t len, n = 0, cap = 0;
    int err;
    char *text = sq_read_file(path, &len, &err);
    if (!text) {
        if (err == ENOENT) return 0;
        cli_io_error(cmd, path, err);
        return -1;
    }
    SqEvalLine *lines = NULL;
    size_t keep = sq_eval_split_lines(text, len, &lines, &n, &cap);
    int rc = 0;
    if (keep < len && !sq_eval_line_is_ours(text + keep, len - keep) && n == 0)
        rc = not_records(cmd, path, "its one line is not a record");
    SqArena *a = sq_arena_new();
    for (size_t k = 0; k < n && rc == 0; k++) {
        SqEvalRecord r;
        const char *why;
        char what[160];
        if (sq_eval_record_parse(a, lines[k].text, lines[k].n, &r, &why) < 0) {
            snprintf(what, sizeof what, "line %zu: %s", k + 1, why);
            rc = not_records(cmd, path, what);
        }
    }
    sq_arena_free(a);
    free(lines);
    free(text);
    return rc;
}

/* ------------------------------------------------------------------ */
/* Resuming                                                            */
/* ------------------------------------------------------------------ */

/* Whether the text a record holds (decoded) is cur, as the record would
** hold it: cur goes through the JSON writer and back, which keeps bytes
** that are not UTF-8 as \u00XX. */
static int same_text(const char *rec, const char *cur) {
    if (!rec || !cur) return rec == cur;
    SqBuf b = SQ_BUF_INIT;
    sq_json_escape(&b, cur, strlen(cur));
    SqArena *a = sq_arena_new();
    const SqJson *v = sq_json_parse(a, b.data, b.len, NULL);
    int same = v && v->kind == SQ_JSON_STRING && strcmp(v->str, rec) == 0;
    sq_arena_free(a);
    sq_buf_free(&b);
    return same;
}

/* What changed in an item's inputs since its record r, into why. */
static void describe_change(const EvalResume *rs, const SqEvalRecord *r, char *why, size_t size) {
    const EvalItemInputs *in = &rs->items[r->item];
    snprintf(why, size, "its inputs changed");
    if (!same_text(r->gold, in->gold)) {
        snprintf(why, size, "the gold query changed");
        return;
    }
    if (!same_text(r->db_id, in->db_id)) {
        snprintf(why, size, "its db_id changed");
        return;
    }
    for (size_t k = 0; k < rs->n_sys && k < r->n_systems; k++)
        if (!same_text(r->preds[k], in->preds[k])) {
            snprintf(why, size, "the prediction of '%s' changed", rs->names[k]);
            return;
        }
}

/* The checks every line must pass; 0, or -1 after a message. */
static int check_line(const EvalResume *rs, size_t line_no, const SqEvalRecord *r) {
    char what[200];
    if (r->format == 1) {
        fprintf(stderr,
                "squint eval: '%s' holds records of an older squint (format 1, which does not say what a "
                "record was computed from): a run cannot resume from them; use another --out file (squint "
                "merge still reads them)\n",
                rs->path);
        return -1;
    }
    if (r->format != SQ_EVAL_FORMAT) {
        snprintf(what, sizeof what, "line %zu: records format %d, this squint writes %d", line_no, r->format,
                 SQ_EVAL_FORMAT);
        return not_records("eval", rs->path, what);
    }
    int same = r->n_systems == rs->n_sys;
    for (size_t k = 0; same && k < rs->n_sys; k++) same = strcmp(r->names[k], rs->names[k]) == 0;
    if (!same) {
        fprintf(stderr,
                "squint eval: %s:%zu: a record of other systems (or in another order) than this run's; use "
                "another --out file\n",
                rs->path, line_no);
        return -1;
    }
    if (r->item >= rs->n_items) {
        fprintf(stderr,
                "squint eval: %s:%zu: a record of item %zu, but the gold file has %zu items: the records are "
                "of another gold file; use another --out file\n",
                rs->path, line_no, r->item, rs->n_items);
        return -1;
    }
    return 0;
}

/* The state of one reading. */
typedef struct ResumeRead {
    EvalResume *rs;
    SqEvalLine *lines;
    size_t n, cap;
    size_t *last;              /* per item: its last line, or SIZE_MAX */
    SqArena *opt_arena;
    const SqJson *options;     /* this run's, parsed */
    size_t n_changed_options, n_changed_inputs;
    char first_options[320];   /* the first difference of options, told */
} ResumeRead;

/* Parse every complete line, check it, and note each item's last. */
static int read_lines(ResumeRead *rr) {
    EvalResume *rs = rr->rs;
    SqArena *a = sq_arena_new();
    int rc = 0;
    for (size_t k = 0; k < rr->n && rc == 0; k++) {
        SqEvalRecord r;
        const char *why;
        char what[160];
        if (sq_eval_record_parse(a, rr->lines[k].text, rr->lines[k].n, &r, &why) < 0) {
            snprintf(what, sizeof what, "line %zu: %s", k + 1, why);
            rc = not_records("eval", rs->path, what);
        } else if ((rc = check_line(rs, k + 1, &r)) == 0) {
            rr->last[r.item] = k;
        }
        sq_arena_reset(a);
    }
    sq_arena_free(a);
    return rc;
}

/* Whether the record r fits this run; tells why not (the first few). */
static int is_current(ResumeRead *rr, const SqEvalRecord *r) {
    EvalResume *rs = rr->rs;
    const char *key = r->options ? sq_eval_options_diff(r->options, r->text, rr->options, rs->options) : "options";
    if (key) {
        if (rr->n_changed_options++ == 0 && !r->options) {
            snprintf(rr->first_options, sizeof rr->first_options, "the first of them does not name its options");
        } else if (rr->n_changed_options == 1) {
            const SqJson *was = r->options ? sq_json_get(r->options, key) : NULL;
            const SqJson *now = sq_json_get(rr->options, key);
            snprintf(rr->first_options, sizeof rr->first_options, "%s was %.*s, is %.*s in this run", key,
                     was ? (int)(was->end - was->start) : 6, was ? r->text + was->start : "absent",
                     now ? (int)(now->end - now->start) : 6, now ? rs->options + now->start : "absent");
        }
        return 0;
    }
    if (r->inputs && strcmp(r->inputs, rs->items[r->item].digest) == 0) return 1;
    if (rr->n_changed_inputs++ < 5 && !rs->rerun_changed) {
        char why[160];
        describe_change(rs, r, why, sizeof why);
        fprintf(stderr, "squint eval: %s: the record of item %zu is stale: %s since it was written\n", rs->path,
                r->item, why);
    }
    return 0;
}

/* Keep the current record of each item; count the stale ones. */
static void take_current(ResumeRead *rr) {
    EvalResume *rs = rr->rs;
    SqArena *a = sq_arena_new();
    for (size_t item = 0; item < rs->n_items; item++) {
        if (rr->last[item] == SIZE_MAX) continue;
        const SqEvalLine *l = &rr->lines[rr->last[item]];
        SqEvalRecord r;
        const char *why;
        if (sq_eval_record_parse(a, l->text, l->n, &r, &why) == 0 && is_current(rr, &r)) {
            rs->done[item] = 1;
            if (rs->n_current == rs->cap_current) {
                rs->cap_current = rs->cap_current ? 2 * rs->cap_current : 256;
                rs->current = sq_realloc(rs->current, rs->cap_current * sizeof *rs->current);
            }
            rs->current[rs->n_current++] = *l;
        } else {
            rs->n_stale++;
        }
        sq_arena_reset(a);
    }
    sq_arena_free(a);
}

static int refuse_stale(ResumeRead *rr) {
    EvalResume *rs = rr->rs;
    if (rr->n_changed_inputs > 5)
        fprintf(stderr, "squint eval: %s: ... %zu stale records in all for changed inputs\n", rs->path,
                rr->n_changed_inputs);
    if (rr->n_changed_options)
        fprintf(stderr, "squint eval: %s: %zu record%s computed with other options: %s\n", rs->path,
                rr->n_changed_options, rr->n_changed_options == 1 ? " was" : "s were", rr->first_options);
    fprintf(stderr,
            "squint eval: %s: %zu record%s not fit this run; --rerun-changed evaluates %s again (the new "
            "records are appended and count instead), or use another --out file\n",
            rs->path, rs->n_stale, rs->n_stale == 1 ? " does" : "s do", rs->n_stale == 1 ? "that item" : "those items");
    return -1;
}

/* Read the file's records; 0 when there are none or all were taken. */
static int read_records(ResumeRead *rr) {
    EvalResume *rs = rr->rs;
    size_t keep = sq_eval_split_lines(rs->text, rs->len, &rr->lines, &rr->n, &rr->cap);
    /* a file squint wrote starts with a record, complete or cut off */
    if (rr->n == 0 && !sq_eval_line_is_ours(rs->text, rs->len))
        return not_records("eval", rs->path, "it holds one line without a newline, and not a record");
    rr->last = sq_malloc((rs->n_items + 1) * sizeof *rr->last);
    for (size_t k = 0; k < rs->n_items; k++) rr->last[k] = SIZE_MAX;
    if (read_lines(rr) < 0) return -1;
    rr->opt_arena = sq_arena_new();
    rr->options = sq_json_parse(rr->opt_arena, rs->options, strlen(rs->options), NULL);
    take_current(rr);
    if (rs->n_stale && !rs->rerun_changed) return refuse_stale(rr);
    /* only now, every line checked: cut the record a killed run left
    ** unfinished (only ever the last line of a file of records) */
    if (keep < rs->len && truncate(rs->path, (off_t)keep) < 0) {
        fprintf(stderr, "squint eval: cannot cut the unfinished last line of '%s': %s\n", rs->path,
                strerror(errno));
        return -1;
    }
    return 0;
}

int eval_resume_read(EvalResume *rs) {
    rs->done = sq_calloc(rs->n_items + 1, 1);
    if (sq_path_is_special(rs->path)) return not_records("eval", rs->path, "not a regular file");
    int err;
    rs->text = sq_read_file(rs->path, &rs->len, &err);
    if (!rs->text) {
        if (err == ENOENT) return 0;
        cli_io_error("eval", rs->path, err);
        return -1;
    }
    if (rs->len == 0) return 0;
    ResumeRead rr;
    memset(&rr, 0, sizeof rr);
    rr.rs = rs;
    int rc = read_records(&rr);
    free(rr.lines);
    free(rr.last);
    if (rr.opt_arena) sq_arena_free(rr.opt_arena);
    return rc;
}

void eval_resume_free(EvalResume *rs) {
    free(rs->done);
    free(rs->current);
    free(rs->text);
    rs->done = NULL;
    rs->current = NULL;
    rs->text = NULL;
}
