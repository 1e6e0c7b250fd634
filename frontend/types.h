/*
** types.h -- SQLite's type model: storage classes, affinity, nullability.
**
** Layer: frontend.  Every bound expression carries an SqType: the storage
** class its values have (as far as the schema tells), the affinity SQLite
** uses when it compares it, and whether it can be NULL.  Affinity of a
** declared column type follows SQLite's five rules (sq_affinity_of_decl).
*/
#ifndef SQ_TYPES_H
#define SQ_TYPES_H

#include <stddef.h>
#include <stdint.h>

/* The storage class an expression's values have. */
typedef enum SqTypeClass {
    SQ_TY_ANY,      /* unknown or mixed */
    SQ_TY_NULL,     /* always NULL */
    SQ_TY_INTEGER,
    SQ_TY_REAL,
    SQ_TY_TEXT,
    SQ_TY_BLOB,
    SQ_TY_NUMERIC,  /* INTEGER or REAL */
} SqTypeClass;

/* The storage class of one value (a literal, a cell of a result). */
typedef enum SqValueType {
    SQ_VAL_NULL,
    SQ_VAL_INTEGER,
    SQ_VAL_REAL,
    SQ_VAL_TEXT,
    SQ_VAL_BLOB
} SqValueType;

/* SQLite's column affinities (datatype3.html, section 3). */
typedef enum SqAffinity {
    SQ_AFF_BLOB,    /* "none": no conversion */
    SQ_AFF_TEXT,
    SQ_AFF_NUMERIC,
    SQ_AFF_INTEGER,
    SQ_AFF_REAL,
} SqAffinity;

typedef struct SqType {
    uint8_t cls;      /* SqTypeClass */
    uint8_t aff;      /* SqAffinity used in comparisons (BLOB = none) */
    uint8_t nullable; /* can be NULL */
} SqType;

/* The declared type SQLite records for a column whose type is written
** raw (the text of its type tokens): a type that opens with a quote and
** holds no other quote character inside loses its first and last
** characters ([REAL]TEXT is "REAL]TEX"), then one that still opens with
** a quote is dequoted up to its closing quote ("NATIVE CHARACTER"(70) is
** "NATIVE CHARACTER").  Writes it to out, which has room for raw. */
void sq_decl_type_stored(const char *raw, char *out);

/* Affinity of a declared type name, by SQLite's rules: INT -> INTEGER;
** CHAR, CLOB, TEXT -> TEXT; BLOB or no type -> BLOB; REAL, FLOA, DOUB ->
** REAL; anything else -> NUMERIC. */
SqAffinity sq_affinity_of_decl(const char *decl);

/* The storage class a column of this affinity is expected to hold: what
** SQLite converts values to on insert, assuming data of the declared kind
** (an INTEGER column can still hold 'abc').  NUMERIC affinity (DATE,
** DECIMAL, BOOLEAN, ...) keeps non-numeric text as text, so it is ANY. */
SqTypeClass sq_class_of_affinity(SqAffinity aff);

/* The class a generated binding reads a column of NUMERIC affinity as,
** by its declared name (the binder itself types such a column any:
** SQLite keeps a value there as INTEGER or REAL when it reads as a
** number, as TEXT otherwise, so the name is the only statement of
** intent).  A name with DATE or TIME: TEXT (SQLite's date and time
** functions read and write text); BOOL: INTEGER; DEC, NUMERIC, NUMBER,
** MONEY: REAL.  Any other name (STRING, YEAR, ...), or a declared type
** of another affinity: SQ_TY_ANY. */
SqTypeClass sq_class_of_numeric_decl(const char *decl);

const char *sq_type_class_name(SqTypeClass c);
const char *sq_affinity_name(SqAffinity a);

static inline SqType sq_type(SqTypeClass cls, SqAffinity aff, int nullable) {
    SqType t = {(uint8_t)cls, (uint8_t)aff, (uint8_t)(nullable != 0)};
    return t;
}

/* The class of a value that may come from either a or b (CASE arms,
** COALESCE, MIN/MAX). */
SqTypeClass sq_class_union(SqTypeClass a, SqTypeClass b);

/* The class of a + b, a - b, a * b, a / b, a % b given operand classes. */
SqTypeClass sq_class_arith(SqTypeClass a, SqTypeClass b);

/* ---- numbers written as text, as SQLite reads them ------------------- */

/* Length of the numeric prefix of s[0..n) (after leading blanks, which
** *skip gets): sign, digits, fraction, exponent, as sqlite3AtoF takes
** them; 0 when there are no digits. */
size_t sq_text_numeric_prefix(const char *s, size_t n, size_t *skip);
/* The value SQLite gives text read as a number: its numeric prefix, 0.0
** when there is none. */
double sq_text_number(const char *s, size_t n);
/* Whether the whole text is a number (blanks around it allowed): the test
** SQLite's numeric affinity applies before converting. */
int sq_text_is_number(const char *s, size_t n);
/* Digits before the point ('130' 3, '5.8' 1), -1 for a negative number:
** text order agrees with numeric order only among non-negative numbers
** with as many digits before the point. */
int sq_text_integer_digits(const char *s, size_t n);

#endif
