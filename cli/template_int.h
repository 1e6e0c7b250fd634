/*
** template_int.h -- what `squint template`'s files share: the sample
** command (template_sample.c) and its --items file (template_out.c); its
** records file is read back by cli_records.c.
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
