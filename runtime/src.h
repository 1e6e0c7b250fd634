/*
** src.h -- source texts and the spans that point into them.
**
** Layer: runtime.  Every AST and IR node carries an SrcSpan: a source id
** plus start and end byte offsets.  Line and column are computed only when
** a diagnostic is printed, from a line table built on first use.
**
** A source may be cut out of a bigger file (a query string inside a
** benchmark's dev.json): it then has a parent and a segment map, and
** sq_src_locate() reports positions in the parent file, which is the file
** the user can open.  The SqSrcSet owns every SqSrc and its text.
*/
#ifndef SQ_SRC_H
#define SQ_SRC_H

#include <stddef.h>
#include <stdint.h>

typedef struct SrcSpan {
    uint32_t file;  /* SqSrc id; 0 means "no source" */
    uint32_t start; /* byte offset of the first byte */
    uint32_t end;   /* byte offset one past the last byte */
} SrcSpan;

/* One piece of an embedded source: bytes from child_off on come from
** parent_off on in the parent, until the next segment. */
typedef struct SqSrcSeg {
    uint32_t child_off;
    uint32_t parent_off;
} SqSrcSeg;

typedef struct SqSrc {
    uint32_t id;            /* index in the owning SqSrcSet, >= 1 */
    char *name;             /* display name (path, "<stdin>", "<arg>") */
    char *text;             /* whole text, followed by two NUL bytes */
    size_t len;             /* bytes of text, excluding the NULs */
    uint32_t *line_starts;  /* offset of each line; built lazily */
    uint32_t n_lines;       /* entries in line_starts; 0 until built */
    struct SqSrc *parent;   /* file this text was cut from, or NULL */
    SqSrcSeg *segs;         /* sorted by child_off; used when parent */
    uint32_t n_segs;
    char *item;             /* benchmark item label ("question_id 12"), or NULL */
    uint8_t flags;          /* SQ_SRC_* */
} SqSrc;

/* SqSrc.flags */
enum {
    /* a query file of squint compile: sqlc's macros sqlc.arg(x),
    ** sqlc.narg(x) and sqlc.slice(x) are read as parameters */
    SQ_SRC_SQLC_MACROS = 1 << 0,
};

typedef struct SqSrcSet {
    SqSrc **srcs; /* srcs[0] unused so that id 0 means none */
    uint32_t n;   /* entries including the unused slot */
    uint32_t cap;
    const char *stdin_name; /* the name standard input ("-") is given
                               (--stdin-filename), or NULL: "<stdin>" */
} SqSrcSet;

/* A resolved position, for printing. */
typedef struct SqSrcPos {
    const SqSrc *file; /* outermost file (the parent when embedded) */
    uint32_t offset;   /* byte offset in that file */
    uint32_t line;     /* 1-based */
    uint32_t col;      /* 1-based byte column */
} SqSrcPos;

void sq_srcset_init(SqSrcSet *set);
void sq_srcset_free(SqSrcSet *set);

/* Take ownership of text (which must have two NULs at text[len]). */
SqSrc *sq_src_add(SqSrcSet *set, const char *name, char *text, size_t len);
/* Copy len bytes into a new source. */
SqSrc *sq_src_add_copy(SqSrcSet *set, const char *name, const char *text,
                       size_t len);
/* Read a file ("-" is stdin); NULL with errno in *err when it cannot. */
SqSrc *sq_src_add_file(SqSrcSet *set, const char *path, int *err);
/* Mark src as cut from parent, with the given map (copied). */
void sq_src_embed(SqSrc *src, SqSrc *parent, const SqSrcSeg *segs,
                  uint32_t n_segs, const char *item);

SqSrc *sq_src_get(const SqSrcSet *set, uint32_t id);

/* Drop every source with id >= keep (batch callers reuse ids this way). */
void sq_srcset_truncate(SqSrcSet *set, uint32_t keep);

/* Resolve an offset of src to a position in the outermost file. */
SqSrcPos sq_src_locate(const SqSrc *src, uint32_t off);
/* Build the line table of src's outermost file now, if not built yet.
** sq_src_locate and sq_src_line build it on first use; call this before
** another thread may locate positions in src (runtime/task.h). */
void sq_src_index(const SqSrc *src);
/* The line containing pos (without its newline). */
const char *sq_src_line(const SqSrc *file, uint32_t line, size_t *len);

static inline SrcSpan sq_span(uint32_t file, uint32_t start, uint32_t end) {
    SrcSpan s = {file, start, end};
    return s;
}
static inline SrcSpan sq_span_join(SrcSpan a, SrcSpan b) {
    SrcSpan s = {a.file, a.start < b.start ? a.start : b.start,
                 a.end > b.end ? a.end : b.end};
    return s;
}

#endif
