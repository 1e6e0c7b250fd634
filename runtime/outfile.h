/*
** outfile.h -- writing the files squint makes without harming the user's.
**
** Layer: runtime.  Three rules for every file a command writes:
**   - never over one of the run's inputs (the same file however named:
**     compared by device and inode, so a link or another path is caught);
**   - never over a file that is already there, unless the user asked for
**     it (--force);
**   - never half-written: the data goes to a temporary file beside the
**     target, which is renamed into place once complete, so the old file
**     (or none) stays until the new one is whole.
** Commands check their outputs before any work (sq_out_check), so that a
** long run does not end in a refusal.
*/
#ifndef SQ_OUTFILE_H
#define SQ_OUTFILE_H

#include <stddef.h>

#include "strbuf.h"

/* One input of the run: its path and the option or role that named it
** ("--db", "Q1"), for the message. */
typedef struct SqOutInput {
    const char *path;
    const char *what;
} SqOutInput;

/* Whether path may be written: 0, or -1 with the reason appended to why
** (it is one of inputs[0..n); it exists and force is 0; it is a
** directory; its directory cannot be written). */
int sq_out_check(const char *path, int force, const SqOutInput *inputs, size_t n, SqBuf *why);

/* A fresh temporary file's path beside path (heap; the file is created
** empty, mode 0666 less the umask, as open() would make it), or NULL
** with the reason in why. */
char *sq_out_temp(const char *path, SqBuf *why);
/* Put the finished temporary file tmp in place of path; on failure tmp is
** removed.  0, or -1 with the reason in why. */
int sq_out_commit(char *tmp, const char *path, SqBuf *why);
/* Write data[0..n) to path through a temporary file: 0, or -1 with the
** reason in why (path untouched). */
int sq_out_write(const char *path, const char *data, size_t n, SqBuf *why);

#endif
