/*
** tqa.h -- textual query augmentation (seed 001's TQA), its first half:
** the linker table of a query and the words of its question and evidence
** that name it.
**
** Layer: passes.  The linker table is the join query graph's node of
** highest betweenness centrality, for graphs of more than three nodes
** (the thesis's Algorithm 2); a tie goes to the tied table of highest
** betweenness in the schema graph, then to the first in the graph's
** order.  Its name is cut into segments ("lapTimes" -> lap, times;
** "frpm" -> frpm), each an abbreviation when it has no vowel after its
** first letter.  A word of the text names a segment:
**
**   - an abbreviation: when the word starts with the segment's first
**     letter and the segment without its vowels is a substring of the word
**     without its vowels (the first letter kept in both): "img" in
**     "image", "trns" in "transactions".  The thesis's fuzzy partial ratio
**     of 100 on vowel-stripped strings is this substring test;
**   - any other segment: when the two have the same stem (stem(), a
**     small suffix stripper: plurals, -ing, -ed), or are listed as the
**     same word (an irregular form or a synonym: sold/sale, people/person),
**     or, for a segment of four letters or more, the word's stem starts
**     with it ("trans" in "transaction").  The thesis compares WordNet
**     lemmas by Wu-Palmer similarity, which is not available here; this
**     is the documented stand-in.
**
** Words are runs of letters and digits.  In the evidence, the text inside
** quotes or backquotes (a database value, a column written as such) and
** every word that is a column name of the schema are left out, as the
** thesis removes values and attributes before matching.
*/
#ifndef SQ_TQA_H
#define SQ_TQA_H

#include <stdint.h>

#include "frontend/catalog.h"
#include "ir/graph/graph.h"
#include "runtime/arena.h"

/* A segment of the linker table's name, lower case. */
typedef struct SqTqaSegment {
    const char *text;
    int abbr;
} SqTqaSegment;

/* A word of the text that names a segment: text[start, end). */
typedef struct SqTqaMatch {
    uint32_t start, end;
    uint32_t segment;       /* its index */
} SqTqaMatch;

/* The linker table's node in q (the join query graph), or -1 when q has
** three nodes or fewer; *tie (may be NULL) is set when several nodes had
** the highest betweenness and the schema graph of cat (may be NULL; then
** the first tied node wins) chose among them.  That graph is built, in a,
** only for a tie. */
int sq_tqa_linker(const SqGraph *q, SqArena *a, const Catalog *cat, int *tie);

/* The segments of a table's name, in a; returns how many. */
uint32_t sq_tqa_segments(SqArena *a, const char *name, SqTqaSegment **out);

/* The words of text that name one of segs[0..n), in text order, in a;
** returns how many.  evidence: text is evidence, whose quoted text and
** column names (of cat, which may be NULL) are left out. */
uint32_t sq_tqa_references(SqArena *a, const SqTqaSegment *segs, uint32_t n, const char *text, int evidence,
                           const Catalog *cat, SqTqaMatch **out);

#endif
