/*
** profile_int.h -- what the profile's loaders share (profile.c,
** profile_meta.c, profile_cache.c): an empty profile over a catalog, and
** values copied into its arena.
**
** Layer: backend/profile.  Private to this directory.
*/
#ifndef SQ_PROFILE_INT_H
#define SQ_PROFILE_INT_H

#include "backend/profile/profile.h"
#include "runtime/json.h"

/* p made a profile of every column of every stored table of cat, each
** count -1 (unknown), no shapes, no range, no common value. */
void sq_profile_init(SqProfile *p, const Catalog *cat, SqProfileSource source, const char *origin);

/* v copied into p's arena as *out: 1, or 0 when it is TEXT or BLOB longer
** than SQ_PROFILE_MAX_VALUE bytes (not kept). */
int sq_profile_keep_value(SqProfile *p, const SqValue *v, SqValue *out);

/* Append v (kept as sq_profile_keep_value keeps it) to cp's common values
** with its count (-1: unknown), up to SQ_PROFILE_COMMON of them. */
void sq_profile_add_common(SqProfile *p, SqColumnProfile *cp, const SqValue *v, int64_t count);

/* The member of a JSON array of objects whose "name" is name (any case),
** or NULL: tables and columns in metadata and in cached profiles. */
const SqJson *sq_profile_json_named(const SqJson *list, const char *name);

#endif
