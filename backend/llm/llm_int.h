/*
** llm_int.h -- what the files of backend/llm share and no one else
** needs: how a server's reply is judged.
*/
#ifndef SQ_LLM_INT_H
#define SQ_LLM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/strbuf.h"

/* Whether a 200 reply is a chat completion squint can use: a JSON object
** whose choices[0].message.content is a string.  0 (usage in *prompt and
** *completion, -1 when absent), or -1 with the reason in why. */
int llm_reply_check(const char *body, size_t n, int64_t *prompt, int64_t *completion, SqBuf *why);

/* A failed HTTP reply's message: the server's error.message when its
** body is OpenAI's error object, else the start of the body. */
void llm_error_text(long status, const char *body, size_t n, SqBuf *msg);

#endif
