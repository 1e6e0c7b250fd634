/*
** prompt_data.h -- slot values made from squint's own data: the schema a
** query needs, the first rows of the tables it reads, a counterexample
** and the results of two queries on it.
**
** Layer: backend/prompt.  Takes a catalog and bound queries (IR), an open
** database (backend/sqlite/db.h, read-only), or the JSON that squint
** eval's records hold (sq_fixture_json's and sq_result_json's shapes);
** gives text appended to a buffer.  Tables are written as
** backend/fixture's text tables (sq_result_table_text), values as SQL
** literals, so a prompt shows 1, 1.0 and '1' apart, as SQLite does.
** Every function is deterministic: the same catalog, queries, database
** or JSON give the same bytes.
*/
#ifndef SQ_PROMPT_DATA_H
#define SQ_PROMPT_DATA_H

#include <stdint.h>

#include "backend/sqlite/db.h"
#include "frontend/catalog.h"
#include "ir/ir.h"
#include "runtime/json.h"
#include "runtime/strbuf.h"

/* Longest TEXT or BLOB of a sample row shown whole, in bytes; a longer
** one is cut (at a character's start) and ends in "...". */
#define SQ_PROMPT_MAX_VALUE 100

/* Column descriptions (notes.c): BIRD's dev_metadata.json, read once. */
typedef struct SqPromptNotes SqPromptNotes;
/* NULL with a malloc'd message in *err when path cannot be read or is not
** such a file. */
SqPromptNotes *sq_prompt_notes_load(const char *path, char **err);
void sq_prompt_notes_free(SqPromptNotes *notes);
/* t's CREATE TABLE statement with, after each column that notes (may be
** NULL) describe for cat's db_id, a comment: its human name, its
** description, what its values mean. */
void sq_prompt_create_table(const SqPromptNotes *notes, const Catalog *cat, const CatTable *t, SqBuf *out);

/* schema: the CREATE TABLE statements (backend/emit/ddl.c) of the tables
** qs[0..n) read and of the tables their foreign keys reference,
** referenced tables first.  Appended to out; the number of tables. */
uint32_t sq_prompt_schema(const Catalog *cat, IrQuery *const *qs, size_t n, const SqPromptNotes *notes,
                          SqBuf *out);

/* The CREATE TABLE statements of the tables with keep[i] set (every
** table when keep is NULL: the database_schema slot), referenced tables
** first.  Appended to out; the number of tables. */
uint32_t sq_prompt_tables_ddl(const Catalog *cat, const uint8_t *keep, const SqPromptNotes *notes, SqBuf *out);

/* sample_rows: the first k rows of each stored table q reads, in the
** order sq_prompt_schema writes tables, each as a text table headed by
** its name ("(no rows)" for an empty one): rowid order for an ordinary
** table, primary key order for a WITHOUT ROWID one.  0 (nothing
** appended when q reads no table), or -1 with a malloc'd message in *err
** when a table cannot be read. */
int sq_prompt_sample_rows(SqDb *db, const Catalog *cat, const IrQuery *q, uint32_t k, SqBuf *out, char **err);

/* counterexample: {"tables": [{"name", "columns", "rows"}, ...]} as text
** tables, in its order, empty ones included.  0, or -1 (nothing
** appended) when j is not of that shape. */
int sq_prompt_tables_text(const SqJson *j, SqBuf *out);

/* result1, result2: {"columns": [...], "rows": [[...], ...]} as one text
** table.  0, or -1 (nothing appended) when j is not of that shape. */
int sq_prompt_result_text(const SqJson *j, SqBuf *out);

#endif
