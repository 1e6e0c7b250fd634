/*
** emit.h -- the SQLite backend's SQL emitter: IR in, SQL text out.
**
** Layer: backend.  See emit.c for what the output looks like and why it
** runs with the same results as the query it was bound from.
*/
#ifndef SQ_EMIT_H
#define SQ_EMIT_H

#include "ir/ir.h"
#include "runtime/strbuf.h"

/* Append the SQL of q's query to out.  Returns 0 (and appends nothing)
** when the statement has no query. */
int sq_emit_sqlite(IrQuery *q, SqBuf *out);

#endif
