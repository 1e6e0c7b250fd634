/*
** safewrite.h -- write output files without harming the user's files:
** tell whether two paths name one file, check up front that a file can
** be written, and replace a file through a temporary one and a rename.
**
** Layer: runtime.  Takes paths, gives 0 or -1 with an errno value in
** *err; prints nothing.  A reader of the old file sees either the old or
** the whole new content, never a part: the new content goes to a fresh
** file beside the target (same directory, so the rename stays on one file
** system), is flushed to disk, and only then takes the target's name.  A
** failed write leaves the target as it was and removes the temporary.
*/
#ifndef SQ_SAFEWRITE_H
#define SQ_SAFEWRITE_H

#include <stddef.h>

#include "runtime/strbuf.h"

/* Whether a and b both exist and are one file (same device and inode:
** through symbolic links, hard links or other spellings of the path). */
int sq_same_file(const char *a, const char *b);

/* Whether path exists (anything: file, directory, link to one). */
int sq_path_exists(const char *path);

/* Whether path exists and is not a regular file (a directory, a FIFO, a
** device): such a path is never written. */
int sq_path_is_special(const char *path);

/* Check that path could be replaced with sq_write_replace: it is not a
** directory or other special file, and its directory takes a new file
** (one is created and removed).  0, or -1 with errno in *err. */
int sq_check_writable(const char *path, int *err);

/* Replace (or create) path with data[0..n), through a temporary file in
** the same directory that is fsync'd and renamed over path.  A new file
** gets mode 0644 less the umask; an existing file keeps its mode.  0, or
** -1 with errno in *err (path then unchanged). */
int sq_write_replace(const char *path, const char *data, size_t n, int *err);

/* Whether path is a regular file holding exactly data[0..n): 1 yes, 0 no,
** -1 when it cannot be opened (errno in *err; ENOENT: it is missing).  It
** is read in blocks and compared as it comes, stopping at the first
** difference or at once when the sizes differ, so an output that is
** already up to date costs no buffer of its size.  head (when not NULL)
** gets the file's first bytes, at most head_cap - 1, NUL-terminated. */
int sq_file_holds(const char *path, const char *data, size_t n, char *head, size_t head_cap, int *err);

/* A fresh empty file beside path, for a writer that fills it itself (a
** SQLite database) before renaming it over path: its name (heap), or NULL
** with errno in *err. */
char *sq_temp_beside(const char *path, int *err);

/* ---- a command's outputs ------------------------------------------------ */

/* One input of a run: its path and the option or role that named it
** ("--db", "Q1"), for the message. */
typedef struct SqOutInput {
    const char *path;
    const char *what;
} SqOutInput;

/* The input path is, however named, or NULL. */
const SqOutInput *sq_out_input_of(const char *path, const SqOutInput *inputs, size_t n);

/* Whether a command may write path, asked before any work: never one of
** inputs[0..n) (however named), never an existing file unless force,
** never a directory or other special file, and its directory must take a
** new file.  0, or -1 with the reason appended to why. */
int sq_out_check(const char *path, int force, const SqOutInput *inputs, size_t n, SqBuf *why);

#endif
