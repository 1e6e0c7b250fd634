/*
** graph_out.h -- `squint graph --out-dir DIR`: one file per graph, and
** never a file squint did not write replaced.
**
** Layer: cli.  The files of a run are gathered in memory (graph_out_add),
** each checked as it is named, and written only when every one passed
** (graph_out_commit), so a refused run leaves DIR as it was.  What squint
** wrote in DIR is listed in DIR/.squint-graph.sha256 (GRAPH_OUT_LIST):
** the SHA-256 of each file, in sha256sum's format, so `sha256sum -c`
** reads it too.  An existing file may be replaced only when its bytes
** are the ones that list records for its name: a file of the user's, or
** one squint wrote and the user changed since, is refused.  The run's
** inputs are never written (runtime/safewrite.h: sq_out_check).
*/
#ifndef SQ_GRAPH_OUT_H
#define SQ_GRAPH_OUT_H

#include <stddef.h>

#include "runtime/safewrite.h"
#include "runtime/strbuf.h"

#define GRAPH_OUT_LIST ".squint-graph.sha256"

/* One file of the run (heap strings). */
typedef struct GraphOutFile {
    char *name;               /* "concert_singer.svg", no directory */
    char *data;               /* its content, len bytes */
    size_t len;
} GraphOutFile;

/* One recorded file of an earlier run: a line of GRAPH_OUT_LIST. */
typedef struct GraphOutKnown {
    char *name;               /* heap */
    char hash[65];            /* SHA-256, lowercase hex */
} GraphOutKnown;

typedef struct GraphOut {
    const char *dir;          /* --out-dir (argv, not owned) */
    const char *ext;          /* "svg", ... (static) */
    const SqOutInput *inputs; /* the run's inputs, never written (not owned) */
    size_t n_inputs;
    int dir_exists;           /* DIR was there when the run began */
    GraphOutFile *files;
    size_t n_files, cap_files;
    GraphOutKnown *known;     /* GRAPH_OUT_LIST as read */
    size_t n_known, cap_known;
} GraphOut;

/* Start a run writing *.ext files to dir: dir, when it exists, must be a
** directory whose GRAPH_OUT_LIST (if any) is one squint wrote.  0, or -1
** with the reason appended to why. */
int graph_out_open(GraphOut *o, const char *dir, const char *ext, const SqOutInput *inputs,
                   size_t n_inputs, SqBuf *why);

/* Add the file for the graph called stem (any text: characters other
** than letters, digits, '.', '-', '_' and bytes of UTF-8 become '_'; a
** name already taken in this run gets -2, -3, ... before the extension),
** taking content's bytes.  0, or -1 with the reason appended to why when
** the file exists and squint may not replace it. */
int graph_out_add(GraphOut *o, const char *stem, SqBuf *content, SqBuf *why);

/* Make dir (and missing parents), write every file and the updated
** GRAPH_OUT_LIST, each through a temporary file; append each path written
** to list, one a line.  0, or -1 with the reason appended to why. */
int graph_out_commit(GraphOut *o, SqBuf *list, SqBuf *why);

void graph_out_free(GraphOut *o);

#endif
