/*
** version.h -- squint's version, one definition for the library and the
** binary (`squint --version`, the tool name in JSON and SARIF output).
**
** Layer: runtime.
*/
#ifndef SQ_VERSION_H
#define SQ_VERSION_H

#define SQUINT_VERSION "0.1.0"

/* Where squint's documentation is published, as an absolute URL ending in
** '/': SARIF's helpUri points into its rules.md.  A fork or a mirror
** builds with its own (make EXTRA_CFLAGS='-DSQUINT_DOCS_URL="..."'). */
#ifndef SQUINT_DOCS_URL
#define SQUINT_DOCS_URL "https://github.com/squint-sql/squint/blob/main/docs/"
#endif

#endif
