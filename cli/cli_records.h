/*
** cli_records.h -- a records file that a stopped run resumes: JSON Lines
** that squint template sample and squint expand append to, a source
** (one gold query) at a time.
**
** Layer: cli.  Every line is one record, an object with the members
**   "record"  the kind of record, which tells a file of ours from others;
**   "source_id", and a member numbering the record within its source
**             (its "index" member: "instance", "expansion") with "of",
**             the source's count;
**   "options" what the records depend on, equal in every record.
** A source's records are written together, in order, so a source is
** whole when its last record is number of - 1, and only the last source
** can be cut short.
*/
#ifndef SQ_CLI_RECORDS_H
#define SQ_CLI_RECORDS_H

#include "runtime/json.h"
#include "runtime/strmap.h"

typedef struct CliRecords {
    const char *cmd;      /* "template sample", for messages */
    const char *kind;     /* the "record" member */
    const char *index;    /* the member that numbers a record in its source */
    /* called, when not NULL, with each record of a whole source (a source
    ** cut short is not); the record lives until cli_records_read returns */
    void (*each)(void *ctx, const SqJson *record);
    void *ctx;
} CliRecords;

/* Read the records already in path: the source ids all of whose records
** are there go into done.  Every record must have been made with this
** run's options (its "options" member equal to options): else -1 after a
** message saying so.  A last source that a killed run left half written
** (fewer records than its "of", or a last line with no newline) is cut
** off the file, to be written again.  A missing file holds none.  0, or
** -1 after a message ("squint CMD:") when path holds anything else than
** such records (it is then left untouched). */
int cli_records_read(const CliRecords *f, const char *path, const char *options, SqStrMap *done);

#endif
