/*
** template_int.h -- what `squint template`'s files share: the sample
** command (template_sample.c) and its records file (template_out.c).
*/
#ifndef SQ_TEMPLATE_INT_H
#define SQ_TEMPLATE_INT_H

#include <stddef.h>

#include "runtime/safewrite.h"
#include "runtime/strmap.h"

/* The "record" member of every line of --out: how a file of ours is known. */
#define TEMPLATE_RECORD "template-instance"

/* The default reference date: squint equiv's 'now' (SQ_EQUIV_NOW). */
#define TEMPLATE_REFERENCE_DATE "2026-06-15 12:34:56"

/* squint template sample, argv[0] being "sample". */
int template_sample(int argc, char **argv);

/* Read the records already in path: the source ids all of whose records
** are there go into done.  Every record must have been made with this
** run's options (its "options" member equal to options): else -1 after a
** message saying so.  A last source that a killed run left half
** written (fewer records than its "of", or a last line with no newline)
** is cut off the file, to be written again.  A missing file holds none.
** 0, or -1 after a message ("squint CMD:") when path holds anything else
** than such records (it is then left untouched). */
int template_out_read(const char *cmd, const char *path, const char *options, SqStrMap *done);

/* Whether --items may be path: never an input (inputs[0..n)) nor a
** special file; an existing file only when it is empty or an items file
** this command wrote.  0, or -1 after a message. */
int template_items_check(const char *cmd, const char *path, const SqOutInput *inputs, size_t n);
/* Write the valid instances of the records file as a gold file (BIRD's
** dev.json form, each item's question empty, its question_id source *
** 1000 + instance, its "instance" the record's id, its evidence "Today
** is <reference date>." when the instance reads the clock) to path,
** replaced whole.  0, or -1 after a message. */
int template_items_write(const char *cmd, const char *records, const char *path);

#endif
