/*
** lint.h -- lint rules: likely bugs in SQL (benchmark gold queries above
** all), found on the bound IR and the passes' analyses.
**
** Layer: passes.  The rules are declared once, in rules.def, each with a
** stable id and name, a default severity, a level (schema or data), a
** one-line summary and a help text.  sq_lint_query() runs the schema rules
** on one bound query and reports each finding as a diagnostic whose code
** is the rule's name, with the rule's help attached.  Rules that need the
** database's rows cannot run here (the library's passes do not execute
** SQL): when the caller says a database is at hand, the schema walk leaves
** data probes -- "does this literal occur in that column", "do rows k and
** k+1 of this query tie" -- that the SQLite backend answers and reports
** (backend/lint/lint_data.h), through the same reporting function.
**
** The three binder rules (unresolved-name, ambiguous-column,
** function-arity) are the binder's own errors under a rule's name:
** sq_lint_rule_of_diag() maps a diagnostic code to its rule.
**
** Memory: findings are diagnostics in the caller's SqDiags; probes and
** message texts live in the query's arena.
*/
#ifndef SQ_LINT_H
#define SQ_LINT_H

#include "passes/passes.h"

typedef enum SqLintRuleId {
#define LINT_RULE(e, id, name, sev, level, summary, help) e,
#include "passes/lint/rules.def"
#undef LINT_RULE
    SQ_LINT__COUNT
} SqLintRuleId;

typedef enum SqLintLevel { SQ_LINT_SCHEMA, SQ_LINT_DATA, SQ_LINT_PROVE } SqLintLevel;
/* "schema", "data", "prove". */
const char *sq_lint_level_name(SqLintLevel l);

typedef struct SqLintRule {
    const char *id;      /* "L0102" */
    const char *name;    /* "string-as-boolean" */
    uint8_t sev;         /* SqSeverity by default */
    uint8_t level;       /* SqLintLevel */
    const char *summary; /* one line */
    const char *help;    /* what to do instead */
} SqLintRule;

const SqLintRule *sq_lint_rule(SqLintRuleId r);
/* The rule with this name or id; -1 when there is none. */
int sq_lint_rule_find(const char *name_or_id);
/* The rule a binder diagnostic code (E0301, ...) stands for; -1 if none. */
int sq_lint_rule_of_diag(const char *code);
/* The rule of a finding's code: a rule's name or id, or a binder code
** that stands for one; -1 if none. */
int sq_lint_rule_of_finding(const char *code);

/* Which rules run, and the severity of their findings. */
typedef struct SqLintConfig {
    uint8_t enabled[SQ_LINT__COUNT];
    uint8_t sev[SQ_LINT__COUNT]; /* SqSeverity */
} SqLintConfig;

/* Every rule on, at its default severity. */
void sq_lint_config_init(SqLintConfig *c);

/* ------------------------------------------------------------------ */
/* Data probes                                                         */
/* ------------------------------------------------------------------ */

typedef enum SqLintProbeKind {
    SQ_PROBE_ORDER_LIMIT, /* the statement's ORDER BY ... LIMIT: ties at row k,
                             NULL keys in the first rows */
    SQ_PROBE_LITERAL,     /* a string compared with a table column */
    SQ_PROBE_NUMERIC_TEXT,/* a TEXT column ordered or compared as text: do its
                             numbers sort differently as text? */
} SqLintProbeKind;

typedef struct SqLintProbe {
    uint8_t kind;          /* SqLintProbeKind */
    uint8_t ties_possible; /* ORDER_LIMIT: the schema allows ties (the
                              schema-level finding was held back for it) */
    SrcSpan at;            /* where a finding goes */
    const char *what;      /* the expression as written, for messages */
    /* ORDER_LIMIT: the statement's top core */
    IrRel **top;
    IrCore core;
    int64_t limit, offset; /* LIMIT's count and OFFSET (0 when none) */
    const char *keys;      /* the ORDER BY terms as written */
    /* LITERAL, NUMERIC_TEXT: the column */
    const CatTable *table;
    int32_t col;
    const char *collation; /* the comparison's collation, NULL = the column's */
    const SqExpr *lit;     /* LITERAL: the string; NUMERIC_TEXT: the number the
                              column is compared with, or NULL */
    uint8_t rule;          /* NUMERIC_TEXT: the rule to report (SqLintRuleId) */
    const char *msg;       /* NUMERIC_TEXT for affinity-mismatch: the finding's
                              message, which the data confirms */
} SqLintProbe;

/* ------------------------------------------------------------------ */
/* Linting one query                                                   */
/* ------------------------------------------------------------------ */

typedef struct SqLint {
    SqPassCtx *pass;        /* the query's pass context (runs joinelim) */
    IrQuery *q;
    const SqLintConfig *cfg;
    SqDiags *diags;
    const SqSrcSet *srcs;   /* for the text of spans */
    int with_data;          /* leave probes for a database instead of
                               guessing from the schema alone */
    const char **alias;     /* FROM-item names by rel id, for messages */
    SqLintProbe *probes;    /* in the query's arena */
    uint32_t n_probes, cap_probes;
    uint32_t n_findings;
    size_t first_diag;      /* l's diagnostics start here (duplicates are dropped) */
} SqLint;

/* Set up l for q (bound, lowered, not rewritten).  pass must have been
** initialised for q; its diagnostics are l's.  */
void sq_lint_init(SqLint *l, SqPassCtx *pass, IrQuery *q, const SqLintConfig *cfg,
                  const SqSrcSet *srcs, int with_data);
/* Run every enabled schema rule on the query. */
void sq_lint_query(SqLint *l);

/* Whether the query's top block returns at most one row, on any data: an
** aggregate without GROUP BY, LIMIT 0 or 1, or a WHERE whose equalities
** with constants and parameters fix a key of every FROM item.  0 when it
** cannot tell (a compound, a key implied only by data). */
int sq_lint_at_most_one_row(SqLint *l);

/* ---- for the rules (and the backend's data rules) ------------------- */

int sq_lint_enabled(const SqLint *l, SqLintRuleId r);
/* Report a finding of rule r at span at, with the rule's help; NULL (and
** nothing reported) when the rule is off or already reported r there. */
SqDiag *sq_lint_report(SqLint *l, SqLintRuleId r, SrcSpan at, const char *fmt, ...)
    SQ_PRINTF(4, 5);
/* The source text of span s with runs of blanks folded to one space and
** cut to about 60 bytes ("..." marks a cut); in the query's arena. */
const char *sq_lint_text(const SqLint *l, SrcSpan s);
/* A new probe in l (zeroed but for kind and at). */
SqLintProbe *sq_lint_probe(SqLint *l, SqLintProbeKind kind, SrcSpan at);

#endif
