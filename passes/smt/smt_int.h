/*
** smt_int.h -- private to passes/smt: symbolic values, rows and relations.
**
** Layer: passes.  smt.c owns the context, the comparison of two results,
** building and solving; smt_db.c the symbolic database and the schema's
** constraints; smt_model.c reads a model back; smt_val.c builds values and
** SQLite's operators on them; smt_expr.c lowers expressions; smt_rel.c
** lowers relations and smt_window.c window functions; smt_uf.c makes
** uninterpreted functions; smt_str.c holds TEXT as z3 strings and regular
** expressions, smt_strfn.c the string functions, smt_like.c LIKE and
** GLOB, smt_strnum.c the numbers read from TEXT, smt_date.c the date
** functions, smt_sample.c the sample dates they are computed on, smt_fold.c
** closed expressions evaluated by SQLite, smt_facts.c what a real
** database's columns show (--realistic).
*/
#ifndef SQ_SMT_INT_H
#define SQ_SMT_INT_H

#include <setjmp.h>
#include <z3.h>

#include "passes/smt/smt.h"

/* How a value is represented.  SQL's booleans are integers; a condition
** stays a Bool until it is used as a number. */
typedef enum SmtKind {
    SMT_NULL, /* always NULL (v unused) */
    SMT_INT,  /* Int */
    SMT_REAL, /* Real */
    SMT_TEXT, /* String (smt_str.c) */
    SMT_BOOL, /* Bool: a comparison's or a logical operator's result */
    SMT_NUM,  /* Real, INTEGER when `isint` holds, else REAL: an expression
                 whose storage class depends on the row (CASE WHEN c THEN
                 1.0 ELSE 0 END); never a cell */
    SMT_MIX,  /* any storage class but BLOB: TEXT `str` when `istext`
                 holds, else the number v (Real), an INTEGER when `isint`:
                 a cell of a column whose affinity lets it hold several
                 classes (an INTEGER column can hold 'abc' and 1.5), or an
                 expression that is TEXT in some rows, a number in others */
} SmtKind;

/* A symbolic SQL value: NULL when `null` holds, else v. */
typedef struct SmtVal {
    uint8_t kind;  /* SmtKind */
    Z3_ast null;   /* Bool */
    Z3_ast v;      /* of the kind's sort; NULL for SMT_NULL; SMT_MIX: Real */
    Z3_ast isint;  /* SMT_NUM, SMT_MIX: Bool, the value is an INTEGER; else NULL */
    Z3_ast istext; /* SMT_MIX: Bool, the value is TEXT (str); else NULL */
    Z3_ast str;    /* SMT_MIX: String, the value where istext holds */
    uint8_t notnum; /* SMT_TEXT, SMT_MIX: the TEXT never spells a number
                      whole (a cell of a numeric column: SQLite would have
                      stored the number), so reading one from it is cheap */
} SmtVal;

/* The cells a relation with this id contributes to a row. */
typedef struct SmtBind {
    uint32_t rel;
    SmtVal *cells;
    uint32_t n;
} SmtBind;

/* One symbolic row: present when `alive` holds. */
typedef struct SmtRow {
    Z3_ast alive;
    SmtBind *binds;
    uint32_t n_binds;
} SmtRow;

/* A bounded relation.  When ordered, before(i, j) says row i comes first
** (SORT), or the rows are in index order (ord == NULL after LIMIT or a
** scan order that a query relies on). */
typedef struct SmtRel {
    SmtRow *rows;
    uint32_t n;
    uint32_t out;            /* the id whose binding holds the output columns */
    uint32_t n_cols;         /* visible output columns */
    const IrRel *sort;       /* the SORT that orders the rows, or NULL */
    Z3_ast *pos;             /* position of each row among the live ones, or NULL */
    SmtVal *keys;            /* with sort: row i's ORDER BY values at
                                [i * n_keys], lowered once */
} SmtRel;

/* An outer row a correlated subquery can read. */
typedef struct SmtEnv {
    const SmtRow *row;
    const struct SmtEnv *up;
} SmtEnv;

/* One table of the symbolic database. */
typedef struct SmtTable {
    const CatTable *table;
    uint32_t n;              /* tuples */
    SmtRow *rows;            /* one binding each (the table's columns) */
    uint8_t *kinds;          /* SmtKind per column */
} SmtTable;

struct SqSmt {
    Z3_context z;
    Z3_solver solver;
    Z3_model model;
    const Catalog *cat;
    unsigned timeout_ms;
    uint64_t rlimit;         /* z3's resource units the checks from now on
                                may spend together (sq_smt_set_rlimit);
                                0: no limit */
    uint64_t rlimit_from;    /* rlimit_spent when it was set */
    uint64_t rlimit_spent;   /* units every check so far has spent */
    double deadline;         /* monotonic seconds; 0: none (building stops too) */
    SqArena *arena;          /* per build */
    jmp_buf *fail;           /* longjmp target of smt_unsupported and of
                                z3's errors: the innermost smt_protect */
    SqSmt *outer;            /* the context protected before this one on
                                this thread (z3's error handler walks
                                the chain to find its context) */
    int building;            /* in sq_smt_build: a z3 error there refuses
                                the build (unless it is memory) */
    int no_jump;             /* inside a z3 call that must not be left by
                                longjmp: Z3_solver_check keeps a timer
                                thread pointed at its stack frame, and
                                solve_fresh holds a second context; z3's
                                errors are then only recorded */
    int reading;             /* reading values from the model: an error
                                there ends the reading only */
    const char *failed;      /* why a z3 call failed outside a build, or
                                for want of memory anywhere: from then on
                                the context is not trusted and every
                                check is unknown (sq_smt_failure); NULL
                                when none did */
    char failed_text[160];   /* what failed points to, but for memory */
    const char *unsupported; /* why the build failed */
    SrcSpan unsupported_at;
    const char *reason;      /* of an unknown answer */
    const char *approx;      /* what the formula only approximates, or NULL */
    IrQuery *q;              /* the query being lowered */
    int which;               /* 1 or 2 while lowering a query, else 0 */
    int k;                   /* tuples per table */
    int typed_values;        /* every cell holds its column's declared
                                class (sq_smt_set_typed_values) */
    struct SmtTableBound { const CatTable *t; int n; } table_bounds[4]; /* tables with their own
                                number of tuples (sq_smt_set_table_bound) */
    uint32_t n_table_bounds;
    SmtTable *tables;
    uint32_t n_tables, cap_tables;
    Z3_ast *ties;            /* conditions under which no tie matters */
    uint32_t n_ties, cap_ties;
    struct SmtCteRel { const IrCte *cte; SmtRel rel; } *ctes;
    uint32_t n_ctes, cap_ctes;
    struct SmtUf { const char *key; Z3_func_decl decl; } *ufs; /* smt_uf.c */
    uint32_t n_ufs, cap_ufs;
    const char *uf_names;    /* the functions left uninterpreted, or NULL */
    Z3_ast diff;             /* the results differ */
    Z3_ast nonempty;         /* either query returns a row */
    uint64_t n_terms;        /* terms built: a budget against blow-up */
    uint32_t n_fresh;        /* fresh constants made (their names) */
    char now[20];            /* 'now' as "YYYY-MM-DD HH:MM:SS" */
    SqSmtFoldFn fold;        /* SQLite for closed expressions, or NULL */
    void *fold_arg;
    int reads_clock;         /* a query read it (CURRENT_*, 'now') */
    Z3_ast *exact;           /* where uninterpreted functions are not used
                                (smt_prefer): the search tries them first */
    uint32_t n_exact, cap_exact;
    const char **samples;    /* sample dates (smt_sample.c) */
    double *reals;           /* the REAL literals of both queries, negated
                                too: values a REAL cell may hold besides
                                quarters (smt_db.c) */
    uint32_t n_reals, cap_reals;
    uint32_t n_samples, cap_samples;
    int sampling;            /* sq_smt_set_sampling */
    Z3_ast *sampled;         /* "x is NULL or a sample" per sampled argument:
                                while sampling, the search stays there */
    uint32_t n_sampled, cap_sampled;
    Z3_ast *date_texts;      /* the values of date function calls: a number
                                read from one of them has an exact region
                                more (smt_strnum.c) */
    uint32_t n_date_texts, cap_date_texts;
    Z3_ast used;             /* what the current model was asked to
                                satisfy (sampled, exact), or NULL */
    int fresh_shrink;        /* sq_smt_set_fresh_shrink */
    int shrinking;           /* inside sq_smt_shrink or sq_smt_grow */
    int no_nul;              /* TEXT cells may not hold NUL (asserted once a
                                model put one there: a fixture cannot) */
    int rounds;              /* REAL arithmetic was lowered: exact here,
                                rounded to doubles in SQLite */
    int operand;             /* lowering a comparison's operand that is a
                                column: one declared with a collation may
                                be read (smt_expr.c) */
    int num_read;            /* SmtNumRead + 1 while lowering a value that
                                is read as a number (smt_expr.c), else 0 */
    struct SmtFold *folds;   /* upper() and lower() results (smt_strfn.c) */
    uint32_t n_folds, cap_folds;
    struct SmtCount { Z3_ast t; uint32_t max; } *counts; /* smt_note_count */
    uint32_t n_counts, cap_counts;
    struct SmtSlice { Z3_ast term, where, x, other; uint32_t at, n; } *slices; /* smt_note_slice */
    uint32_t n_slices, cap_slices;
    Z3_ast *lemmas;          /* asserted by smt_lemma: an open hash set */
    uint32_t n_lemmas, cap_lemmas;
    SqSmtColumnFacts *facts; /* sq_smt_set_facts: malloc'd, kept across
                                builds until replaced */
    uint32_t n_facts;
    uint32_t facts_used;     /* facts the last build asserted */
    Z3_ast *dated;           /* TEXT terms of cells whose facts allow valid
                                dates 'YYYY-MM-DD' only (smt_fact_cells) */
    uint32_t n_dated, cap_dated;
};

/* ---- smt_func.c: the functions the lowering models (smt_funcs.def) ----- */

typedef enum SmtFuncOp {
#define SMT_FUNC(OP, name, kind, model, data, note) SMT_FN_##OP,
#include "passes/smt/smt_funcs.def"
#undef SMT_FUNC
} SmtFuncOp;

typedef enum SmtModel { SMT_MODEL_EXACT, SMT_MODEL_PARTIAL } SmtModel;

typedef struct SmtFunc {
    const char *name;  /* lower case, as functions.def */
    SmtFuncOp op;      /* what the lowering switches on */
    uint8_t kind;      /* SqFuncKind */
    uint8_t model;     /* SmtModel */
    const char *data;  /* a date function's output format, or NULL */
    const char *note;  /* what is exact */
} SmtFunc;

/* The row of the function called name of this kind, or NULL: the
** lowering does not model it. */
const SmtFunc *smt_func_find(const char *name, SqFuncKind kind);

/* ---- smt.c ----------------------------------------------------------- */

/* The one protect point (smt.c's head comment has the rule): run fn(s,
** arg) with s among the contexts z3's errors go to, and a longjmp target
** of its own: 0 when it ran through, -1 when z3 failed (or the build was
** refused) on the way.  Every function of smt.h that calls z3 runs its
** work so.  Between here and a throw, only the arena allocates. */
int smt_protect(SqSmt *s, void (*fn)(SqSmt *, void *), void *arg);
/* Stop building: the construct at `at` cannot be encoded. */
_Noreturn void smt_unsupported(SqSmt *s, SrcSpan at, const char *fmt, ...) SQ_PRINTF(3, 4);
/* The symbolic table for t (its tuples), adding it on first use. */
SmtTable *smt_table(SqSmt *s, const CatTable *t);
/* Whether column c is declared with a collation other than BINARY. */
int smt_collated(const CatColumn *c);
void smt_add_tie_condition(SqSmt *s, Z3_ast c);
/* A condition under which a value is exact rather than uninterpreted (a
** string in a region the lowering models): models where all of them hold
** are tried first, since SQLite confirms their differences. */
void smt_prefer(SqSmt *s, Z3_ast c);
/* Assert a fact that holds in every database, once per build however
** often the lowering meets it: a lemma that spares the solver a proof. */
void smt_lemma(SqSmt *s, Z3_ast fact);
/* Count a term against the budget. */
void smt_count(SqSmt *s, uint64_t n);

/* ---- smt_db.c ------------------------------------------------------------ */

/* Cell c of tuple i (c = the column count: the rowid). */
static inline SmtVal smt_cell(const SmtTable *t, uint32_t i, uint32_t c) { return t->rows[i].binds[0].cells[c]; }
/* Assert the schema's constraints over every table of the database (and
** the tables their foreign keys reach, added on the way); after both
** queries are lowered, as date columns must avoid their numeric-looking
** literals. */
void smt_schema_constraints(SqSmt *s);

/* ---- smt_facts.c: what the real data shows (sq_smt_set_facts) ----------- */

/* Assert the column facts over the live tuples of every table of the
** database; after smt_schema_constraints, which adds the tables foreign
** keys reach. */
void smt_fact_constraints(SqSmt *s);
/* Note the cells of a new symbolic table that facts keep to valid dates,
** before the queries read them (smt_table). */
void smt_fact_cells(SqSmt *s, const SmtTable *t);
/* Whether the TEXT term x is such a cell's: where it is TEXT, not NULL
** and its tuple live, it is a valid 'YYYY-MM-DD' (the facts assert so). */
int smt_fact_dated(const SqSmt *s, Z3_ast x);

/* ---- smt_model.c ----------------------------------------------------------- */

/* A term's value in the current model. */
int64_t smt_model_int(SqSmt *s, Z3_ast t);
int smt_model_bool(SqSmt *s, Z3_ast t);

/* ---- smt_val.c: terms and values ----------------------------------------- */

Z3_ast smt_true(SqSmt *s);
Z3_ast smt_false(SqSmt *s);
Z3_ast smt_and2(SqSmt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_or2(SqSmt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_not(SqSmt *s, Z3_ast a);
Z3_ast smt_and_n(SqSmt *s, Z3_ast *a, uint32_t n);
Z3_ast smt_or_n(SqSmt *s, Z3_ast *a, uint32_t n);
Z3_ast smt_ite(SqSmt *s, Z3_ast c, Z3_ast a, Z3_ast b);
Z3_ast smt_eq(SqSmt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_int(SqSmt *s, int64_t i);
Z3_ast smt_real(SqSmt *s, int64_t num, int64_t den);
/* sum of ite(c[i], 1, 0) */
Z3_ast smt_count_true(SqSmt *s, Z3_ast *c, uint32_t n);

SmtVal smt_null(SqSmt *s);
SmtVal smt_val(SqSmt *s, SmtKind kind, Z3_ast null, Z3_ast v);
/* An SMT_NUM value (v Real, an INTEGER when isint). */
SmtVal smt_num(SqSmt *s, Z3_ast null, Z3_ast v, Z3_ast isint);
/* An SMT_MIX value: the TEXT str where istext, else the number num (an
** INTEGER where isint). */
SmtVal smt_mix(SqSmt *s, Z3_ast null, Z3_ast istext, Z3_ast str, Z3_ast num, Z3_ast isint);
/* Any value as SMT_MIX (a BOOL as its number). */
SmtVal smt_to_mix(SqSmt *s, SmtVal v);
/* The two sides of an SMT_MIX value, each with v's NULL flag: its TEXT
** (SMT_TEXT) and its number (SMT_NUM).  Each means something only where
** istext holds, or does not. */
SmtVal smt_mix_text(SqSmt *s, SmtVal v);
SmtVal smt_mix_number(SqSmt *s, SmtVal v);
/* Whether a numeric value is an INTEGER (a Bool term). */
Z3_ast smt_is_integer(SqSmt *s, SmtVal v);
/* The z3 sort of a kind's terms. */
Z3_sort smt_sort(SqSmt *s, SmtKind k);
/* A fresh cell of the kind. */
/* A named constant of a sort: name, then suffix when not NULL (the name
** in the arena, not the heap: z3's error handler may longjmp out of the
** calls). */
Z3_ast smt_named(SqSmt *s, const char *name, const char *suffix, Z3_sort sort);
SmtVal smt_fresh(SqSmt *s, SmtKind kind, const char *name);
/* NULL when c, else v. */
SmtVal smt_null_if(SqSmt *s, Z3_ast c, SmtVal v);
/* ite over values of compatible kinds (NULL mixes with any). */
SmtVal smt_val_ite(SqSmt *s, Z3_ast c, SmtVal a, SmtVal b, SrcSpan at);
/* A BOOL value as an INT 0/1; others unchanged. */
SmtVal smt_as_number(SqSmt *s, SmtVal v);
/* Truth of a value used as a condition: is_true and is_false (both false
** when NULL). */
void smt_truth(SqSmt *s, SmtVal v, Z3_ast *is_true, Z3_ast *is_false, SrcSpan at);
/* A Bool-kind value from truth: TRUE when t, FALSE when f, else NULL. */
SmtVal smt_bool3(SqSmt *s, Z3_ast t, Z3_ast f);

/* SQLite's comparison (op AST_OP_EQ/NE/LT/LE/GT/GE) of two values whose
** affinities have been applied: three-valued. */
SmtVal smt_compare(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan at);
/* a IS b: NULLs equal each other. */
Z3_ast smt_same(SqSmt *s, SmtVal a, SmtVal b);
/* Python's == on result values (1 == 1.0, '1' != 1, None == None). */
Z3_ast smt_result_equal(SqSmt *s, SmtVal a, SmtVal b);
/* a before b in ORDER BY (ascending, NULLs first; desc reverses, nulls_last
** puts NULLs after), and a tie. */
Z3_ast smt_order_lt(SqSmt *s, SmtVal a, SmtVal b, int desc, int nulls_last, SrcSpan at);

/* cnt is an Int between 0 and max (an aggregate's count): a division by
** it then comes with its value for each constant divisor, which keeps the
** proofs linear (z3 gives up on many divisions by a variable). */
void smt_note_count(SqSmt *s, Z3_ast cnt, uint32_t max);
/* The Real a / cnt for a count cnt (NULL cases are the caller's). */
Z3_ast smt_div_count(SqSmt *s, Z3_ast a, Z3_ast cnt, uint32_t max);

SmtVal smt_arith(SqSmt *s, int op, SmtVal a, SmtVal b, SrcSpan at);
SmtVal smt_negate(SqSmt *s, SmtVal a, SrcSpan at);
SmtVal smt_to_real(SqSmt *s, SmtVal a);
/* A REAL (or a number of either class) as an INTEGER, toward zero, as
** CAST AS INTEGER does; other kinds unchanged. */
SmtVal smt_trunc_int(SqSmt *s, SmtVal a);

/* ---- smt_str.c: TEXT as z3 strings --------------------------------------- */

enum { SMT_MAX_CHAR = 0x2FFFF }; /* the largest code point z3 4.8 has */

/* The code point at s[*i] (advancing *i); a malformed byte stands for
** itself, as SQLite's own decoder lets it. */
uint32_t smt_utf8_next(const unsigned char *s, uint32_t n, uint32_t *i);
/* A string of the queries (UTF-8) as a z3 string constant. */
Z3_ast smt_str_lit(SqSmt *s, const char *str, uint32_t n);
/* A string of the model (z3's escapes) as UTF-8 text, in the arena. */
const char *smt_str_decode(SqSmt *s, const char *z3s);
int smt_is_str(SqSmt *s, Z3_ast t);
/* a op b (AST_OP_EQ .. AST_OP_GE) in BINARY order. */
Z3_ast smt_str_compare(SqSmt *s, int op, Z3_ast a, Z3_ast b);
/* Say that the TEXT term `term` is x's n characters from `at` wherever
** `where` holds (x is then at least at + n long), and `other` elsewhere:
** a date field such as strftime('%Y', d).  Its comparisons with a
** constant of n characters become regular expressions on x itself, which
** z3 4.8 solves far faster than constraints on a substring. */
void smt_note_slice(SqSmt *s, Z3_ast term, Z3_ast where, Z3_ast x, uint32_t at, uint32_t n, Z3_ast other);
/* Regular expressions: a literal string, a range of code points, ... */
Z3_ast smt_re_lit(SqSmt *s, const char *str);
Z3_ast smt_re_range(SqSmt *s, uint32_t lo, uint32_t hi);
Z3_ast smt_re_union(SqSmt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_re_concat(SqSmt *s, Z3_ast *parts, uint32_t n);
Z3_ast smt_re_star(SqSmt *s, Z3_ast r);
Z3_ast smt_re_any(SqSmt *s);
Z3_ast smt_re_space(SqSmt *s);
Z3_ast smt_re_digit(SqSmt *s);
/* A fixed regular expression written as text: literal characters,
** classes [a-z] and groups (x|y) (smt_str.c). */
Z3_ast smt_re_parse(SqSmt *s, const char *text);
/* Text that is a number whole (sq_text_is_number). */
Z3_ast smt_re_number(SqSmt *s);
Z3_ast smt_in_re(SqSmt *s, Z3_ast str, Z3_ast re);
Z3_ast smt_str_len(SqSmt *s, Z3_ast str);
Z3_ast smt_str_concat(SqSmt *s, Z3_ast a, Z3_ast b);
/* A fresh String or Int constant (prefix names it). */
Z3_ast smt_fresh_const(SqSmt *s, const char *prefix, Z3_sort sort);

/* ---- smt_strfn.c: SQLite's string functions ------------------------------- */

/* The text SQLite gives a value where it needs one (||, length(), ...). */
SmtVal smt_text_of(SqSmt *s, SmtVal v);
/* printf()/format() of args (the format first) when the format is a
** constant with only %d %i %s %f %.Nf %% and no flags or widths: 1 and
** *out; else 0. */
int smt_printf(SqSmt *s, const SmtVal *args, uint32_t n, SmtVal *out);
SmtVal smt_concat(SqSmt *s, SmtVal a, SmtVal b);
/* f(args) when f is a string function (length, lower, upper, substr,
** substring, instr, trim, ltrim, rtrim, replace) and the lowering can
** model this call: 1 and *out. */
int smt_string_function(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out);
/* The text of a value that is a constant string (a literal), or NULL. */
const char *smt_const_text(SqSmt *s, SmtVal v);
/* ASCII upper case folded to lower, as NOCASE and lower() do. */
Z3_ast smt_str_lower(SqSmt *s, Z3_ast str);
/* Whether t is the result of upper() or lower(): 1, its argument and the
** direction. */
int smt_fold_of(SqSmt *s, Z3_ast t, Z3_ast *arg, int *to_lower);
/* The regular expression of the strings that fold to c, or NULL. */
Z3_ast smt_folds_to(SqSmt *s, const char *c, int to_lower);

/* ---- smt_strnum.c: numbers read from TEXT ---------------------------------- */

typedef enum SmtNumRead {
    SMT_READ_ARITH,   /* an operand of + - * / %, a condition: SMT_NUM */
    SMT_READ_SUM,     /* what sum(), total(), avg() add: SMT_NUM */
    SMT_READ_INT,     /* CAST AS INTEGER: SMT_INT */
    SMT_READ_REAL,    /* CAST AS REAL: SMT_REAL */
    SMT_READ_NUMERIC, /* CAST AS NUMERIC: SMT_NUM */
    SMT_READ_SPELLED, /* numeric affinity, where the text spells a number */
} SmtNumRead;

/* The number SQLite reads from the TEXT value t (NULL when t is). */
SmtVal smt_text_read(SqSmt *s, SmtVal t, SmtNumRead how);
/* The number SQLite reads from any value: TEXT as smt_text_read, a
** number as the reading makes it (CAST AS INTEGER truncates, AS REAL
** widens), an SMT_MIX value by its class in the row. */
SmtVal smt_value_read(SqSmt *s, SmtVal v, SmtNumRead how);
/* v is what a date function returned (date text, or NULL): numbers read
** from it are exact on dates and times too. */
void smt_note_date_text(SqSmt *s, SmtVal v);
/* Whether t spells a number whole (numeric affinity converts it). */
Z3_ast smt_text_spells_number(SqSmt *s, SmtVal t);

/* ---- smt_date.c: date functions -------------------------------------------- */

/* strftime/date/time/datetime(args) where the lowering models them: 1 and
** *out (exact on valid 'YYYY-MM-DD[ HH:MM:SS]' text, NULL on text with no
** digit, uninterpreted elsewhere). */
int smt_date_function(SqSmt *s, const SmtFunc *f, const SmtVal *args, uint32_t n, SmtVal *out);
/* The valid dates 'YYYY-MM-DD' (the region where the date functions are
** exact), as one regular expression. */
Z3_ast smt_re_valid_date(SqSmt *s);

/* ---- smt_sample.c: sample dates ---------------------------------------------- */

/* The samples the literals of both queries suggest (s->samples), and
** their REAL literals (s->reals). */
void smt_samples_collect(SqSmt *s, IrQuery *q1, IrQuery *q2);
/* "x is NULL or a sample", or NULL when x is not sampled (no samples, not
** TEXT, a constant). */
Z3_ast smt_sample_domain(SqSmt *s, SmtVal x);
/* The call e, whose argument `open` (the only one that is not closed) has
** the value x, where x is NULL or a sample: NULL, or what SQLite computes
** on the sample.  0 when SQLite could not compute a sample. */
int smt_sample_call(SqSmt *s, const SqExpr *e, uint32_t open, SmtVal x, SmtVal *out);
/* The search tries the models where domain holds first (sq_smt_check). */
void smt_note_sample(SqSmt *s, Z3_ast domain);

/* ---- smt_like.c: LIKE and GLOB -------------------------------------------- */

/* One character, an ASCII letter in either case. */
Z3_ast smt_re_either_case(SqSmt *s, uint32_t c);
/* x LIKE pattern [ESCAPE esc] (glob: x GLOB pattern) for a pattern whose
** text is known: 1 and the Bool term, else 0. */
int smt_like_pattern(SqSmt *s, Z3_ast x, const char *pat, uint32_t n, int esc, int glob, Z3_ast *out);

/* ---- smt_uf.c ----------------------------------------------------------- */

/* name(args) as uninterpreted functions: a NULL flag and a value of kind
** result (both functions of the arguments). */
SmtVal smt_uf(SqSmt *s, const char *name, const SmtVal *args, uint32_t n, SmtKind result);

/* ---- smt_fold.c -------------------------------------------------------- */

/* e, a function call or CAST over constants, as SQLite computes it (the
** fold hook): 1 and *out, else 0. */
int smt_fold(SqSmt *s, const SqExpr *e, SmtVal *out);
/* The one value "SELECT ..." gives, asked of SQLite (the fold hook): 1 and
** *out, else 0 (no hook, an error, a BLOB). */
int smt_fold_sql(SqSmt *s, const char *sql, SrcSpan span, SmtVal *out);

/* ---- smt_expr.c -------------------------------------------------------- */

/* A REAL constant as an exact rational (unsupported when infinite or out
** of the range the lowering takes). */
Z3_ast smt_real_const(SqSmt *s, double d, SrcSpan at);

/* The value of e where it is read as a number (how): a CASE, IIF or
** COALESCE whose results are TEXT in some rows and numbers in others reads
** its TEXT results so, as SQLite would when it uses the value. */
SmtVal smt_expr_number(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, SmtNumRead how);

/* The value of e in row (and its outer rows). */
SmtVal smt_expr(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env);
/* The truth of e as a condition: is_true only (NULL and false reject). */
Z3_ast smt_cond(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env);
/* The cell that column reference ref names in row or its outer rows. */
SmtVal smt_column(SqSmt *s, SqColRef ref, const SmtRow *row, const SmtEnv *env, SrcSpan at);


/* ---- smt_collate.c --------------------------------------------------------- */

/* e without the COLLATE nodes above it, and the collation the outermost one
** names (NULL when there is none). */
const SqExpr *smt_strip_collate(const SqExpr *e, const char **name);

/* The collation other than BINARY x's column was declared with (x
** stripped of COLLATE), else NULL. */
const char *smt_declared_collation(const SqSmt *s, const SqExpr *x);
/* An operand of a comparison, which honours its collation: a column
** declared with one may be read here (and nowhere else: smt_expr's
** SQX_COLUMN refuses it). */
SmtVal smt_operand(SqSmt *s, const SqExpr *x, const SmtRow *row, const SmtEnv *env);
/* e, a comparison, when a COLLATE names NOCASE for it, or else a column
** declared so: 1 and *out; 0 when BINARY applies. */
int smt_nocase_compare(SqSmt *s, const SqExpr *e, const SmtRow *row, const SmtEnv *env, SmtVal *out);
/* Whether aff is INTEGER, REAL or NUMERIC (smt_expr.c). */
int smt_numeric_aff(uint8_t aff);
/* v with affinity aff applied, as SQLite applies it to an operand before
** a comparison or to a child key before its parent is looked up: under
** numeric affinity TEXT that spells a number becomes that number (an
** SMT_MIX value, TEXT where it does not); under TEXT affinity a number
** becomes its text; under no affinity nothing changes. */
SmtVal smt_apply_affinity(SqSmt *s, SmtVal v, uint8_t aff);

/* ---- smt_rel.c --------------------------------------------------------- */

/* The rows of r, evaluated under env (outer rows of a correlated
** subquery). */
SmtRel smt_rel(SqSmt *s, IrRel *r, const SmtEnv *env);
/* Positions of the live rows (0-based) in the relation's order; lowers
** the ORDER BY values that smt_sort_tie reads. */
void smt_positions(SqSmt *s, SmtRel *r);
/* Tie conditions for the order of r's live rows (the final result under
** LIST semantics): rows that tie and differ. */
void smt_order_ties(SqSmt *s, const SmtRel *r);
/* Whether rows i and j of r tie in its order (always, unsorted); after
** smt_positions. */
Z3_ast smt_sort_tie(SqSmt *s, const SmtRel *r, uint32_t i, uint32_t j);
/* The output cells of row i. */
const SmtBind *smt_out(const SmtRel *r, uint32_t i);
/* Rows i of a and j of b have equal output cells (NULLs equal). */
Z3_ast smt_same_out(SqSmt *s, const SmtRel *a, uint32_t i, const SmtRel *b, uint32_t j);
/* row with one more binding: rel's cells. */
SmtRow smt_row_with(SqSmt *s, const SmtRow *row, uint32_t rel, SmtVal *cells, uint32_t n);
/* The values of ORDER BY keys in row (out: n_keys values); a collation
** other than BINARY is unsupported. */
void smt_sort_values(SqSmt *s, const SqSortKey *keys, uint32_t n_keys, const SmtRow *row, const SmtEnv *env,
                     SmtVal *out);
/* Key values a sort before b, and a and b tie. */
Z3_ast smt_keys_lt(SqSmt *s, const SqSortKey *keys, uint32_t n_keys, const SmtVal *a, const SmtVal *b);
Z3_ast smt_keys_tie(SqSmt *s, uint32_t n_keys, const SmtVal *a, const SmtVal *b);
/* What an aggregate call reads from each row of its input (smt_rel.c
** fills it on first use; start it zeroed). */
typedef struct SmtCallInput {
    SmtVal *x;    /* the argument */
    Z3_ast *pass; /* FILTER holds and the argument is not NULL */
    Z3_ast *dup;  /* DISTINCT: an earlier row of the group has it too */
} SmtCallInput;
/* The aggregate call it over the rows of in where member holds; ci is
** shared by the calls of one item over the same input. */
SmtVal smt_agg_over(SqSmt *s, const SmtRel *in, const SmtEnv *env, Z3_ast *member, const SqAggItem *it,
                    SmtCallInput *ci);

/* ---- smt_window.c --------------------------------------------------------- */

/* The window functions of r over the rows of in: each row gains r's
** binding, one cell per call. */
SmtRel smt_window(SqSmt *s, IrRel *r, SmtRel in, const SmtEnv *env);

#endif
