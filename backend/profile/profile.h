/*
** profile.h -- column profiles: what the data of a real database looks
** like, column by column, so that a counterexample can be told apart
** from data that never occurs, and a search can be kept to data that does.
**
** Layer: backend.  A profile is computed from a .sqlite file (one scan
** per column, read-only) or read from benchmark metadata when there is no
** database (BIRD's dev_metadata.json: NULL share, distinct counts, sample
** values, min and max).  Profiles are cached per database: the cache key
** is the file's path, size and modification time, so a changed database
** is profiled again.
**
** Users:
**   - counterexample kinds (sq_cex_kinds): what a validated counterexample
**     relies on that the real data never shows;
**   - --realistic searches (passes/smt through backend/equiv): the
**     profile's facts taken as extra constraints;
**   - fixture values (backend/suite/values.c): the common values first.
**
** Memory: everything a profile points to lives in its arena
** (sq_profile_free).
*/
#ifndef SQ_PROFILE_H
#define SQ_PROFILE_H

#include <stdint.h>

#include "runtime/arena.h"
#include "frontend/catalog.h"
#include "runtime/strbuf.h"
#include "backend/fixture/fixture.h"
#include "backend/sqlite/result.h"

/* The shapes a non-NULL value can take: its storage class, and for text
** the form it is written in.  A column's profile is the set it showed. */
enum {
    SQ_SHAPE_INTEGER = 1 << 0,     /* storage class INTEGER */
    SQ_SHAPE_REAL = 1 << 1,        /* storage class REAL */
    SQ_SHAPE_DATE = 1 << 2,        /* text 'YYYY-MM-DD' */
    SQ_SHAPE_DATETIME = 1 << 3,    /* text 'YYYY-MM-DD HH:MM[:SS[.fff]]' (or 'T') */
    SQ_SHAPE_TIME = 1 << 4,        /* text 'HH:MM[:SS[.fff]]' */
    SQ_SHAPE_INT_TEXT = 1 << 5,    /* text of an integer: '42', '-7' */
    SQ_SHAPE_DEC_TEXT = 1 << 6,    /* text of a decimal: '3.5', '-0.25' */
    SQ_SHAPE_OTHER_TEXT = 1 << 7,  /* any other text */
    SQ_SHAPE_BLOB = 1 << 8         /* storage class BLOB */
};

/* The shape of one value (0 for NULL). */
unsigned sq_value_shape(const SqValue *v);
/* "integer", "date", ... for one SQ_SHAPE_* bit. */
const char *sq_shape_name(unsigned shape);

/* One column of a real table, as its data shows it.  A count of -1 means
** the source did not say (metadata may lack it). */
typedef struct SqColumnProfile {
    const CatTable *table;   /* of the profile's catalog */
    uint32_t col;            /* index in table->cols */
    int64_t rows;            /* rows of the table */
    int64_t nulls;           /* NULL cells */
    int64_t distinct;        /* distinct non-NULL values */
    unsigned shapes;         /* SQ_SHAPE_* bits of the non-NULL values;
                                0: none seen or unknown */
    int has_range;           /* min and max are known */
    SqValue min, max;        /* by SQLite's order, over non-NULL values */
    SqValue *common;         /* the most common values, most common first */
    int64_t *common_count;   /* how often each occurs; -1: unknown
                                (metadata sample values) */
    uint32_t n_common;
} SqColumnProfile;

/* Whether the data never holds NULL / holds each of its values once.
** Both need a table with rows and known counts: an empty table, or a
** count the source did not give, shows nothing. */
static inline int sq_profile_never_null(const SqColumnProfile *p) {
    return p->rows > 0 && p->nulls == 0;
}
static inline int sq_profile_unique(const SqColumnProfile *p) {
    return p->rows > 0 && p->nulls >= 0 && p->distinct >= 0 && p->distinct == p->rows - p->nulls;
}

typedef enum SqProfileSource {
    SQ_PROFILE_DATABASE,     /* scanned from a .sqlite file */
    SQ_PROFILE_METADATA      /* read from benchmark metadata */
} SqProfileSource;

typedef struct SqProfile {
    SqArena *arena;
    const Catalog *cat;      /* borrowed; must outlive the profile */
    SqProfileSource source;
    const char *origin;      /* the database's path or the metadata file */
    SqColumnProfile *cols;   /* one per column of every stored table, in
                                catalog order */
    uint32_t n_cols;
    uint8_t from_cache;      /* sq_profile_load read it from its cache */
} SqProfile;

/* Bounds of a scan (profile.c): the common values kept per column; TEXT
** and BLOB values longer than this are not kept (neither as min or max,
** nor as common values); seconds each of a column's two statements may
** take before its counts are left unknown. */
#define SQ_PROFILE_COMMON 10
#define SQ_PROFILE_MAX_VALUE 1024
#define SQ_PROFILE_SECONDS 30.0

/* Free everything p holds (p itself is the caller's). */
void sq_profile_free(SqProfile *p);

/* The profile of one column, or NULL when the profile has none. */
const SqColumnProfile *sq_profile_column(const SqProfile *p, const CatTable *t, uint32_t col);

/* ---- loading (profile.c, profile_meta.c, profile_cache.c) ------------- */

/* Profile every stored table of cat from the .sqlite file at path, opened
** read-only.  0, or -1 with *err (malloc'd) saying why. */
int sq_profile_from_db(SqProfile *p, const Catalog *cat, const char *path, char **err);

/* The profile BIRD's metadata (dev_metadata.json, at path) gives for the
** database cat->db_id.  0, or -1 with *err. */
int sq_profile_from_metadata(SqProfile *p, const Catalog *cat, const char *path, char **err);

/* sq_profile_from_db through a cache: a profile stored under cache_dir
** (NULL: $SQUINT_CACHE, else $XDG_CACHE_HOME/squint, else
** ~/.cache/squint) for the same path, size and modification time is read
** back instead of scanning again.  A cache that cannot be written is not
** an error. */
int sq_profile_load(SqProfile *p, const Catalog *cat, const char *path, const char *cache_dir, char **err);

/* The profile of a question's real data: BIRD's metadata when metadata is
** given, else the database at db_path through the cache (sq_profile_load);
** 1 when *p was filled, 0 when there is neither, -1 on failure with *err
** (malloc'd; err may be NULL). */
int sq_profile_for(SqProfile *p, const Catalog *cat, const char *metadata, const char *db_path, const char *cache_dir,
                   char **err);

/* ---- counterexample kinds (cex_kind.c) --------------------------------- */

/* What a validated counterexample relies on that the profiled data never
** shows.  0 is "robust". */
enum {
    SQ_CEX_DEGENERATE = 1 << 0,  /* one query returns no row, the other one
                                    row of NULLs */
    SQ_CEX_NEEDS_NULL = 1 << 1,  /* a NULL where the data has none */
    SQ_CEX_NEEDS_FORMAT = 1 << 2,/* a value of a shape the column never shows */
    SQ_CEX_NEEDS_DUPLICATES = 1 << 3, /* a repeated value in a column whose
                                    data holds each value once */
    SQ_CEX_NEEDS_TIES = 1 << 4   /* only ties tell the queries apart */
};

/* What sq_cex_kinds looks at: a counterexample and how it was judged. */
typedef struct SqCexInput {
    const SqProfile *profile;  /* of the real data (same catalog as the fixture) */
    const SqFixture *fixture;  /* the counterexample */
    const char *sql1, *sql2;   /* both queries, as run on it */
    SqCompareMode mode;        /* how their results are compared */
    int order_matters;         /* as for sq_result_equal */
    const SqResult *r1, *r2;   /* their results on the fixture */
    int ties;                  /* the verdict was "different only under ties" */
} SqCexInput;

/* Where a kind lies: one column of a table, and a value it holds there
** (NULL for needs-null; the value of the wrong shape; the repeated one). */
typedef struct SqCexWhere {
    unsigned kind;             /* one SQ_CEX_* bit */
    const CatTable *table;
    uint32_t col;
    SqValue value;             /* in the SqCexKinds' arena */
} SqCexWhere;

typedef struct SqCexKinds {
    unsigned kinds;            /* SQ_CEX_* bits; 0: robust */
    int tested;                /* the fixture's difference reproduced, so
                                  needs-null, -format and -duplicates were
                                  each tested by a repaired copy; 0: they
                                  say only that such values are there */
    SqCexWhere *where;         /* n_where places, needs-* kinds only */
    uint32_t n_where;
    SqArena *arena;            /* owns where and its values */
} SqCexKinds;

/* Tag a validated counterexample (see cex_kind.c for how each kind is
** told).  Fills *out (free with sq_cex_kinds_free) and returns its bits. */
unsigned sq_cex_kinds(const SqCexInput *in, SqCexKinds *out);
void sq_cex_kinds_free(SqCexKinds *k);

/* "degenerate-empty-vs-null", "needs-null", ... for one SQ_CEX_* bit;
** "robust" for 0. */
const char *sq_cex_kind_name(unsigned kind);
/* The bit of a kind's name; 0 for "robust" and names it does not know. */
unsigned sq_cex_kind_parse(const char *name);
/* The names of kinds' bits in bit order, separated by sep ("robust" when
** none). */
void sq_cex_kind_names(unsigned kinds, const char *sep, SqBuf *out);

#endif
