/*
** llm_out.h -- the records file of `squint llm run`, read back for a
** resumed run (cli/llm_out.c).
*/
#ifndef SQ_LLM_OUT_H
#define SQ_LLM_OUT_H

#include "runtime/strmap.h"

/* What a custom_id's last record says. */
enum { LLM_ANSWER_OK = 1, LLM_ANSWER_FAILED = 2 };

/* Read the records already in path into answers (custom_id to
** LLM_ANSWER_*), cutting a last record that a killed run left unfinished.
** A missing file holds none.  0, or -1 after a message ("squint CMD:")
** when path is not a records file of ours (then it is untouched). */
int llm_out_read(const char *cmd, const char *path, SqStrMap *answers);

/* The API key from SQUINT_API_KEY, or else OPENAI_API_KEY, into *key
** (NULL: none set), checked; the process made not dumpable while it holds
** one.  -1 to go on, or 2 after a message ("squint CMD:") that never
** shows the key. */
int cli_llm_key(const char *cmd, const char **key);

/* squint llm import (cli/llm_import.c), argv[0] being "import". */
int llm_import(int argc, char **argv);

/* One reply as llm import read it: its output line (a JSON object, '\n'
** included), and whether the reply was taken. */
typedef struct LlmImported {
    char *custom_id;
    char *line;
    int ok;
} LlmImported;

/* --attach GOLD (cli/llm_attach.c): whether task's replies can be
** attached (sql-to-question, question-check); whether out may be written
** (-1 to go on, or 2 after a message: it is needed, it is never an input,
** and an existing one must be a gold --attach wrote for task, or force);
** and the attaching: GOLD's items with the replies got[0..n) written to
** out (sql-to-question: an item per question; question-check: each
** item's "check", the items judged other than yes left out when
** drop_rejected).  0, or 2 after a message. */
int llm_attach_task(const char *task);
/* Whether task is one of seed 001's TQA tasks (tqa-*), whose replies go
** back into the JSON of squint expand --tqa (cli/llm_tqa.c). */
int llm_tqa_task(const char *task);
int llm_attach_check_out(const char *task, const char *gold, const char *records, const char *out, int force);
int llm_attach(const char *task, const char *gold, const char *out, int drop_rejected, int quiet,
               const LlmImported *got, size_t n);

/* --attach's helpers: GOLD read as a JSON array of objects, or with
** lines_too also as JSON Lines of objects (NULL after a message); the
** taken replies of got by custom_id (each one's index in got, plus 1);
** res written to out, replaced whole (0, or -1 after a message). */
struct cJSON;
struct cJSON *llm_read_gold(const char *path, int lines_too);
SqStrMap *llm_taken_replies(const LlmImported *got, size_t n);
int llm_write_gold(const char *out, const struct cJSON *res);
/* The string member key of o, or NULL when it is none. */
const char *llm_str(const struct cJSON *o, const char *key);

/* --attach TQA for a tqa task: TQA's items whose texts named the linker
** table, rewritten by the replies got[0..n) and checked, written to out
** as a gold; schema (given or not) leaves column names out of the
** evidence's check.  0, 1 when some reply does not fit its text, or 2
** after a message. */
/* --attach X for expand-question: an item per expansion of X (squint
** expand's JSON or its --out records) whose question request has a reply
** among got[0..n), written to out.  0, or 2 after a message. */
int llm_expand_attach(const char *gold, const char *out, int quiet, const LlmImported *got, size_t n);

struct CliSchema;
int llm_tqa_attach(const char *task, const char *gold, const char *out, int quiet, struct CliSchema *schema,
                   const LlmImported *got, size_t n);

#endif
