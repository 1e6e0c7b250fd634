/*
** version.h -- squint's version, one definition for the library and the
** binary (`squint --version`, the tool name in JSON and SARIF output).
**
** Layer: runtime.
*/
#ifndef SQ_VERSION_H
#define SQ_VERSION_H

#define SQUINT_VERSION "0.1.0"

#endif
