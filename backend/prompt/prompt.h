/*
** prompt.h -- prompts for a language model: the tasks, the templates
** they are written in, the slots squint fills, and the request each
** prompt becomes.
**
** Layer: backend.  Takes a template (the text of prompts/<task>.txt,
** built into the binary, or a file the user gives) and the values of
** one item's slots (the schema a query needs, its SQL, the question, a
** counterexample, ...); gives the rendered system and user messages and
** the request as one line of OpenAI's batch format.  Nothing here reads
** a benchmark file or prints: cli/cmd_prompt.c does that, and
** prompt_data.c turns squint's own data (a catalog and IR, a database, a
** counterexample in JSON) into slot values.  docs/prompts.md is the
** user's view of all of it.
**
** The template language, all of it:
**   - lines before the first "@system" or "@user" line are notes, never
**     sent; each of those two lines starts its message, which runs to the
**     next such line (blank lines at either end of a message dropped);
**   - {{name}} is the value of slot name;
**   - {{#name}} ... {{/name}} is a section: kept when slot name is known
**     for the item, dropped (with everything in it) when it is not;
**     sections do not nest, and a section tag alone on its line takes
**     the line with it;
**   - a slot named outside every section is required: an item that lacks
**     it gets no request, and the error names the slot;
**   - anything else, "{{" included, is text.
** A value is inserted without the blank space at its ends; a value that
** is empty once trimmed counts as unknown, so no slot is ever filled
** with nothing.
**
** Memory: a parsed template lives in the arena given to the parser and
** points into the text it was parsed from, which must outlive it.
** Values are borrowed.
*/
#ifndef SQ_PROMPT_H
#define SQ_PROMPT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/arena.h"
#include "runtime/jsonw.h"
#include "runtime/strbuf.h"

/* ---- slots ---------------------------------------------------------- */

/* Every slot a template may name: X(ID, name, what it holds, why it may
** be unknown).  The order is the order `squint prompt --list` uses. */
#define SQ_PROMPT_SLOTS(X)                                                                              \
    X(SCHEMA, "schema", "CREATE TABLE statements of the tables the query reads (both queries', for "   \
      "explain-difference) and of the tables their foreign keys reference; for SynSQL, of the tables "  \
      "it fills",                                                                                       \
      "the query did not bind against a schema")                                                        \
    X(SQL, "sql", "the gold SQL as the input file writes it", "the item has no SQL")                    \
    X(SQL2, "sql2", "the other query of a pair: the prediction of a squint eval record",                \
      "only explain-difference's records have a second query")                                          \
    X(QUESTION, "question", "the item's natural-language question",                                     \
      "the input has no question (a SQL script, SQL<TAB>db_id lines, a record without one)")            \
    X(EVIDENCE, "evidence", "BIRD's external knowledge for the item (dev.json's \"evidence\")",         \
      "the item has no evidence, or an empty one (Spider has none)")                                    \
    X(DB_ID, "db_id", "the item's database id", "the item names no db_id")                              \
    X(SAMPLE_ROWS, "sample_rows", "the first rows (--sample-rows, default 3) of each table the query "  \
      "reads, from the item's database",                                                                \
      "no database holds the item's data (give --db or --db-root), or --sample-rows 0")                 \
    X(COUNTEREXAMPLE, "counterexample", "the tables of the database on which the two queries differ",   \
      "only explain-difference's records have a counterexample")                                        \
    X(RESULT1, "result1", "what the first query (sql) returns on the counterexample",                   \
      "only explain-difference's records have results")                                                 \
    X(RESULT2, "result2", "what the second query (sql2) returns on the counterexample",                 \
      "only explain-difference's records have results")                                                 \
    X(DATABASE_SCHEMA, "database_schema", "CREATE TABLE statements of every table of the item's "      \
      "database (the SynSQL selector sees the whole schema, never the gold query)",                      \
      "the item names no schema")                                                                       \
    X(COLUMNS, "columns", "SynSQL: the columns chosen for the test data, one table.column per line",    \
      "only squint fixture --llm's loop has chosen columns")                                            \
    X(FEEDBACK, "feedback", "SynSQL: the critic's scores and feedback on the previous round",           \
      "only squint fixture --llm's loop has a previous round (its first round has none)")               \
    X(DATA, "data", "SynSQL: the test data of a round, as text tables",                                 \
      "only squint fixture --llm's loop has test data")                                                 \
    X(ORIGINAL_SQL, "original_sql", "expand-question: the gold query before the expansion joined a "      \
      "table into it (sql is the expansion)", "only squint expand --requests has an expanded query")     \
    X(JOIN, "join", "expand-question: the table the expansion joins and its join conditions",           \
      "only squint expand --requests has an expanded query")                                            \
    X(LINKER_TABLE, "linker_table", "tqa tasks: the query's linker table, whose words are replaced",    \
      "only squint expand --tqa --requests has a linker table")                                         \
    X(SEGMENTS, "segments", "tqa tasks: the parts of the linker table's name, abbreviations marked",    \
      "only squint expand --tqa --requests has a linker table")                                         \
    X(TEXT, "text", "tqa tasks: the text whose words are replaced (the question or the evidence)",      \
      "only squint expand --tqa --requests has a text to rewrite")                                      \
    X(TEXT_KIND, "text_kind", "tqa tasks: what the text is, \"question\" or \"evidence\"",             \
      "only squint expand --tqa --requests has a text to rewrite")                                      \
    X(TOKENS, "tokens", "tqa tasks: the words of the text that name the linker table, a JSON array "    \
      "of {\"token\", \"position\"} (position: the offset of the word's first byte in the text)",      \
      "only squint expand --tqa --requests has a text to rewrite")

typedef enum SqPromptSlot {
#define SQ_PROMPT_SLOT_ENUM(id, name, doc, why) SQ_SLOT_##id,
    SQ_PROMPT_SLOTS(SQ_PROMPT_SLOT_ENUM)
#undef SQ_PROMPT_SLOT_ENUM
    SQ_SLOT__COUNT
} SqPromptSlot;

/* A template's slots are bits of a uint32_t (SqPromptTemplate). */
_Static_assert(SQ_SLOT__COUNT <= 32, "a template's slot sets are 32 bits");

/* "schema", ...; what the slot holds; why an item may lack it. */
const char *sq_prompt_slot_name(SqPromptSlot s);
const char *sq_prompt_slot_doc(SqPromptSlot s);
const char *sq_prompt_slot_why(SqPromptSlot s);
/* The slot named name[0..n), or -1. */
int sq_prompt_slot_find(const char *name, size_t n);

/* One item's slot values: NULL where a slot is not known (borrowed). */
typedef struct SqPromptValues {
    const char *v[SQ_SLOT__COUNT];
} SqPromptValues;

/* ---- templates (template.c) ------------------------------------------ */

typedef enum SqPromptPartKind {
    SQ_PART_TEXT,  /* text as written */
    SQ_PART_SLOT,  /* {{name}} */
    SQ_PART_OPEN,  /* {{#name}}: a section starts */
    SQ_PART_CLOSE, /* {{/name}}: it ends */
} SqPromptPartKind;

/* One piece of a message. */
typedef struct SqPromptPart {
    uint8_t kind;     /* SqPromptPartKind */
    uint8_t slot;     /* SqPromptSlot, for all but TEXT */
    const char *text; /* TEXT: its bytes (in the template's text) */
    uint32_t len;     /* TEXT: their count */
} SqPromptPart;

/* A message of a template: its parts in order. */
typedef struct SqPromptMessage {
    SqPromptPart *parts; /* in the parser's arena */
    uint32_t n_parts, cap_parts;
} SqPromptMessage;

/* A parsed template. */
typedef struct SqPromptTemplate {
    const char *origin;     /* "prompts/x.txt (built in)" or the user's
                               path, for messages */
    SqPromptMessage system; /* may have no part: no system message */
    SqPromptMessage user;   /* at least one part */
    uint32_t required;      /* bit 1 << slot: named outside every section */
    uint32_t optional;      /* named only inside sections (or a section's tag) */
} SqPromptTemplate;

/* Parse text[0..len) into *t (its parts in a, pointing into text).  0, or
** -1 with a message in err naming origin and the line: an unknown slot,
** an unclosed, stray or nested section, a tag closing another section,
** no "@user" message, a second message of one role. */
int sq_prompt_template_parse(SqArena *a, const char *origin, const char *text, size_t len,
                             SqPromptTemplate *t, SqBuf *err);

/* Append the rendered messages of t for values v to system and user.
** 0, or -1 with *missing set to the first required slot v lacks (in slot
** order; nothing is appended then). */
int sq_prompt_render(const SqPromptTemplate *t, const SqPromptValues *v, SqBuf *system, SqBuf *user,
                     SqPromptSlot *missing);

/* ---- tasks (task.c) ---------------------------------------------------- */

/* What a task reads. */
typedef enum SqPromptInput {
    SQ_PROMPT_IN_GOLD,    /* a gold file: one request per query */
    SQ_PROMPT_IN_RECORDS, /* squint eval's records: one request per
                             counterexample */
    SQ_PROMPT_IN_LOOP,    /* squint fixture --llm's SynSQL loop, which
                             alone has the task's slots */
    SQ_PROMPT_IN_EXPAND,  /* squint expand --requests: one request per
                             expansion taken, which alone has its slots */
    SQ_PROMPT_IN_TQA,     /* squint expand --tqa --requests: one request
                             per text (question or evidence) with words
                             that name the query's linker table */
} SqPromptInput;

/* One task: a row of the table in task.c. */
typedef struct SqPromptTask {
    const char *name;        /* also its template's name: prompts/<name>.txt */
    const char *summary;     /* one line for --list */
    uint8_t input;           /* SqPromptInput */
    double temperature;      /* the default --temperature */
    int max_tokens;          /* the default --max-tokens */
    const char *reply;       /* the reply format, one line for --list */
} SqPromptTask;

/* Every task, in --list order. */
const SqPromptTask *sq_prompt_tasks(size_t *n);
/* The task called name, or NULL. */
const SqPromptTask *sq_prompt_task_find(const char *name);

/* A template built into the binary: prompts/<name>.txt as the build
** found it (the generated $(BUILD)/gen/prompts.c: scripts/embed_prompts.sh). */
typedef struct SqPromptText {
    const char *name; /* "sql-to-question" */
    const char *path; /* "prompts/sql-to-question.txt" */
    const char *text; /* its content (NULL for an empty file) */
} SqPromptText;
extern const SqPromptText sq_prompt_builtins[];
extern const size_t sq_prompt_n_builtins;

/* The built-in template called name, or NULL. */
const SqPromptText *sq_prompt_builtin(const char *name);

/* The fields of a request besides its messages. */
typedef struct SqPromptParams {
    const char *model;  /* body.model */
    double temperature; /* body.temperature */
    int64_t seed;       /* body.seed */
    int64_t max_tokens; /* body.max_tokens */
} SqPromptParams;

/* One line of the OpenAI batch input format, '\n' included:
**   {"custom_id":ID,"method":"POST","url":"/v1/chat/completions",
**    "body":{"model":M,"messages":[{"role":"system","content":S},
**    {"role":"user","content":U}],"temperature":T,"seed":N,"max_tokens":K}}
** with no system message when system is empty.  The same arguments give
** the same bytes: keys in this order, no blank space, the temperature
** written as the shortest decimal that reads back as it. */
void sq_prompt_request_json(SqBuf *out, const char *custom_id, const SqPromptParams *p, const char *system,
                            const char *user);

/* Whether text[0..n) (one line, without its '\n') is such a request:
** a JSON object with a string custom_id, method "POST", a string url and
** an object body.  How an --out file squint wrote is told from others. */
int sq_prompt_is_request(SqArena *a, const char *text, size_t n);

/* ---- replies (reply.c) ---------------------------------------------- */

/* Whether squint can read the replies of task (its reply format is
** known). */
int sq_prompt_reply_known(const char *task);

/* Read a reply to task (the message content text[0..n)) into its fields,
** written as keys and values into the object open in w ("questions":
** [...], "verdict": "yes", ...; docs/prompts.md).  0, or -1 with the
** reason in why and nothing written. */
int sq_prompt_reply_parse(const char *task, const char *text, size_t n, SqJsonWriter *w, SqBuf *why);

#endif
