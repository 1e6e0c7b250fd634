/*
** dot_render.h -- pictures through Graphviz: find its `dot` program on
** PATH and run it on DOT text, for `squint graph --format svg`.
**
** Layer: cli (it starts a process; the library never does).  Takes DOT
** text, gives what dot printed; prints nothing itself.
*/
#ifndef SQ_DOT_RENDER_H
#define SQ_DOT_RENDER_H

#include <stddef.h>

#include "runtime/strbuf.h"

/* The path of the first executable regular file named `dot` in the
** directories of PATH (heap; the caller frees it), or NULL. */
char *cli_dot_find(void);

/* Run the dot at path with -T<format> (e.g. "svg"), feeding dot_text[0..n)
** on its standard input, and append its standard output to out.  0, or -1
** with the reason (dot's own message when it gave one) appended to why. */
int cli_dot_render(const char *path, const char *format, const char *dot_text, size_t n,
                   SqBuf *out, SqBuf *why);

#endif
