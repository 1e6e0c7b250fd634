/*
** notes.c -- column descriptions for the schema slot, from BIRD's
** dev_metadata.json: each column's human name, its description and what
** its values mean, written as a comment after the column in the CREATE
** TABLE statements a prompt shows (sq_ddl_create_table_notes).  A model
** reading "Segment TEXT" learns little; "client segment" and the
** meaning of its codes are what BIRD's annotators wrote for that reason.
**
** The file is read once with cJSON.  A database, table or column it does
** not describe simply has no note.
*/
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "backend/emit/emit.h"
#include "backend/prompt/prompt_data.h"
#include "runtime/util.h"

/* A note longer than this is cut (a prompt is not the documentation). */
#define NOTE_MAX 300

struct SqPromptNotes {
    cJSON *doc;     /* the array of databases */
};

SqPromptNotes *sq_prompt_notes_load(const char *path, char **err) {
    size_t n;
    int e;
    char *text = sq_read_file(path, &n, &e);
    if (!text) {
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "cannot read '%s': %s", path, strerror(e));
        *err = sq_buf_detach(&b);
        return NULL;
    }
    cJSON *doc = cJSON_ParseWithLength(text, n);
    free(text);
    int shaped = cJSON_IsArray(doc);
    for (const cJSON *db = shaped ? doc->child : NULL; db; db = db->next)
        shaped &= cJSON_IsString(cJSON_GetObjectItemCaseSensitive(db, "name")) &&
                  cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(db, "tables"));
    if (!shaped) {
        cJSON_Delete(doc);
        SqBuf b = SQ_BUF_INIT;
        sq_buf_printf(&b, "'%s' is not BIRD's dev_metadata.json (a JSON array of databases, each with a name and tables)", path);
        *err = sq_buf_detach(&b);
        return NULL;
    }
    SqPromptNotes *notes = sq_calloc(1, sizeof *notes);
    notes->doc = doc;
    return notes;
}

void sq_prompt_notes_free(SqPromptNotes *notes) {
    if (!notes) return;
    cJSON_Delete(notes->doc);
    free(notes);
}

/* The element of array whose "name" is name (ASCII case ignored). */
static const cJSON *named(const cJSON *array, const char *name) {
    for (const cJSON *e = cJSON_IsArray(array) ? array->child : NULL; e; e = e->next) {
        const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsString(n) && name && sq_stricmp(n->valuestring, name) == 0) return e;
    }
    return NULL;
}

static const char *text_of(const cJSON *obj, const char *key) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) && v->valuestring[strspn(v->valuestring, " \t\r\n")] ? v->valuestring : NULL;
}

/* One column's note (heap), or NULL: its human name when it differs from
** the column's, its description when that says more, its values. */
static char *column_note(const cJSON *col, const char *name) {
    const char *human = text_of(col, "original_name"), *desc = text_of(col, "description");
    const char *values = text_of(col, "value_description");
    if (human && sq_stricmp(human, name) == 0) human = NULL;
    if (desc && (sq_stricmp(desc, name) == 0 || (human && sq_stricmp(desc, human) == 0))) desc = NULL;
    if (values && desc && sq_stricmp(values, desc) == 0) values = NULL;   /* BIRD often repeats it */
    if (!human && !desc && !values) return NULL;
    SqBuf b = SQ_BUF_INIT;
    const char *parts[3] = {human, desc, values};
    for (int i = 0; i < 3; i++)
        if (parts[i]) sq_buf_printf(&b, "%s%s", b.len ? "; " : "", parts[i]);
    if (b.len > NOTE_MAX) {
        size_t cut = NOTE_MAX;
        while (cut && ((unsigned char)b.data[cut] & 0xC0) == 0x80) cut--;   /* not inside a character */
        b.len = cut;
        sq_buf_puts(&b, "...");
    }
    return sq_buf_detach(&b);
}

void sq_prompt_create_table(const SqPromptNotes *notes, const Catalog *cat, const CatTable *t, SqBuf *out) {
    const cJSON *db = notes ? named(notes->doc, cat->db_id) : NULL;
    const cJSON *table = db ? named(cJSON_GetObjectItemCaseSensitive(db, "tables"), t->name) : NULL;
    if (!table) {
        sq_ddl_create_table(out, t);
        return;
    }
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(table, "columns");
    char **text = sq_calloc(t->n_cols + 1, sizeof *text);
    for (uint32_t i = 0; i < t->n_cols; i++) {
        const cJSON *col = named(cols, t->cols[i].name);
        if (col) text[i] = column_note(col, t->cols[i].name);
    }
    sq_ddl_create_table_notes(out, t, (const char *const *)text);
    for (uint32_t i = 0; i < t->n_cols; i++) free(text[i]);
    free(text);
}
