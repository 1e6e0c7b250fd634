/*
** template_out.c -- the files `squint template sample` writes besides its
** records (which cli_records.c reads back): --items, the valid instances
** as a gold file (template_int.h).
*/
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/template_int.h"
#include "runtime/arena.h"
#include "runtime/json.h"
#include "runtime/jsonw.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"

/* ------------------------------------------------------------------ */
/* --items: the valid instances as a gold file                         */
/* ------------------------------------------------------------------ */

/* Whether text is an items file of ours: a JSON array (maybe empty) of
** objects each with a string "instance" and a string "source_id". */
static int is_items_file(SqArena *a, const char *text, size_t len) {
    SqJson *doc = sq_json_parse(a, text, len, NULL);
    if (!doc || doc->kind != SQ_JSON_ARRAY) return 0;
    for (uint32_t i = 0; i < doc->n; i++) {
        const SqJson *in = sq_json_get(doc->items[i], "instance");
        const SqJson *sid = sq_json_get(doc->items[i], "source_id");
        if (!in || !sq_json_string(in) || !sid || !sq_json_string(sid)) return 0;
    }
    return 1;
}

int template_items_check(const char *cmd, const char *path, const SqOutInput *inputs, size_t n) {
    SqBuf why = SQ_BUF_INIT;
    int rc = sq_out_check(path, 1, inputs, n, &why);
    if (rc == 0 && sq_path_exists(path)) {
        size_t len;
        int err;
        char *text = sq_read_file(path, &len, &err);
        SqArena *a = sq_arena_new();
        if (!text) sq_buf_printf(&why, "--items: cannot read '%s' to see what it is: %s", path, strerror(err)), rc = -1;
        else if (len && !is_items_file(a, text, len))
            sq_buf_printf(&why, "--items '%s' exists and is not an items file squint %s wrote; squint never "
                                "writes over a file it did not write", path, cmd), rc = -1;
        sq_arena_free(a);
        free(text);
    }
    if (rc < 0) fprintf(stderr, "squint %s: %s\n", cmd, sq_buf_str(&why));
    sq_buf_free(&why);
    return rc;
}

int template_items_write(const char *cmd, const char *records, const char *path) {
    size_t len;
    int err;
    char *text = sq_read_file(records, &len, &err);
    if (!text) {
        fprintf(stderr, "squint %s: cannot read '%s': %s\n", cmd, records, strerror(err));
        return -1;
    }
    SqArena *a = sq_arena_new();
    SqBuf out = SQ_BUF_INIT;
    SqJsonWriter w;
    sq_jw_init(&w, &out, 1);
    sq_jw_arr_begin(&w);
    for (size_t off = 0; off < len;) {
        const char *nl = memchr(text + off, '\n', len - off);
        size_t n = nl ? (size_t)(nl - (text + off)) : len - off;
        SqJson *j = sq_json_parse(a, text + off, n, NULL);
        const SqJson *valid = j ? sq_json_get(j, "valid") : NULL;
        off += n + 1;
        if (!valid || valid->kind != SQ_JSON_TRUE) continue;
        const char *sid = sq_json_string(sq_json_get(j, "source_id"));
        const SqJson *k = sq_json_get(j, "instance");
        const SqJson *db = sq_json_get(j, "db_id");
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "question_id"); /* source * 1000 + instance: a number, as BIRD's are */
        sq_jw_int(&w, strtoll(sid, NULL, 10) * 1000 + k->inum);
        sq_jw_key(&w, "instance");
        sq_jw_str(&w, sq_json_string(sq_json_get(j, "id")));
        sq_jw_key(&w, "source_id");
        sq_jw_str(&w, sid);
        sq_jw_key(&w, "db_id");
        if (db && sq_json_string(db)) sq_jw_str(&w, sq_json_string(db));
        else sq_jw_null(&w);
        sq_jw_key(&w, "question");
        sq_jw_str(&w, "");
        /* a query that reads the clock is asked on its reference date */
        const char *ref = sq_json_string(sq_json_get(j, "reference_date"));
        sq_jw_key(&w, "evidence");
        sq_jw_str(&w, ref ? sq_arena_printf(a, "Today is %s.", ref) : "");
        sq_jw_key(&w, "SQL");
        sq_jw_str(&w, sq_json_string(sq_json_get(j, "sql")));
        sq_jw_obj_end(&w);
    }
    sq_jw_arr_end(&w);
    sq_buf_putc(&out, '\n');
    int rc = sq_write_replace(path, sq_buf_str(&out), out.len, &err);
    if (rc < 0) fprintf(stderr, "squint %s: cannot write '%s': %s\n", cmd, path, strerror(err));
    sq_buf_free(&out);
    sq_arena_free(a);
    free(text);
    return rc;
}
