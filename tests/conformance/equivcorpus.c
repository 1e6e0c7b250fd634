/*
** equivcorpus.c -- squint equiv over the corpus.
**
** Test tool for `make conformance` and docs/equiv-report.md.  Modes:
**
**   --self     every Spider and BIRD dev gold query must be equivalent to
**              the SQL squint emits for it (issue 3's round trip; bound
**              again, a second copy of the query), up to the bound.  A validated difference is a bug of
**              the emitter or of the encoding; a spurious one is a bug of
**              the encoding.  Either fails the run.
**   --unnest   every gold query the unnest pass rewrites must be
**              equivalent to its rewrite; a difference fails the run.
**   --calcite  each Calcite pair (VeriEQL's release): parsed, encodable,
**              and the verdict, with the reason for every refusal.  The
**              pairs are meant to be equivalent, but Calcite's dialect is
**              not SQLite's, so verdicts are reported, not gated; only a
**              spurious counterexample fails the run.
**   --forms    every BIRD dev (gold, prediction) pair whose normal forms
**              (passes/canon) prove it equivalent is searched as well
**              (--search-only): the search must find no difference that
**              the proof rules out (a tie-free one, or any one when the
**              forms are the same outright or no LIMIT can cut at the
**              bound).  An unknown verdict of the search is counted, not
**              a failure.
**
** --self and --unnest decide by the search alone (--search-only), whose
** encoding they check; --self also asks that every query that has a
** normal form have the same one as itself and as its emitted SQL.
** Options: --bound K (default 3), --timeout S per pair (default 2; 0:
** none), --rlimit N (z3's resource limit per solver call: a budget that
** does not depend on the machine's load), --strict (every pair must be
** proved equivalent: an unknown fails too), --report FILE (one line per
** pair that is not equivalent), --limit N (the first N queries or
** pairs).  Prints counts, the commonest reasons
** for "unknown", and exits 1 on a failure as above.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/squint.h"
#include "backend/equiv/equiv.h"
#include "backend/sqlite/db.h"
#include "backend/emit/emit.h"
#include "passes/pass.h"
#include "tests/conformance/corpus.h"

typedef enum Mode { M_SELF, M_UNNEST, M_CALCITE, M_FORMS } Mode;

/* How often each reason for "unknown" came up. */

typedef struct Run {
    Corpus c;
    Mode mode;
    SqEquivOptions opt;
    size_t limit;
    int strict;             /* anything but equivalent fails */
    SqContext ctx;
    CorpusCatalogs catalogs;
    FILE *report;
    size_t pairs, not_parsed, verdicts[SQ_VERDICT_COUNT];
    size_t failures;
    size_t proved, proved_tie_free; /* --forms: pairs the normal forms prove */
    size_t uncut;                   /* --forms: of those, where no LIMIT cuts at the bound */
    CorpusTally reasons;
    double seconds;
} Run;

static IrQuery *load(Run *r, SqArena *a, const Catalog *cat, const char *name, const char *sql, const char **why) {
    SqCompileStatus st;
    IrQuery *q = sq_ctx_compile_text(&r->ctx, a, cat, name, sql, strlen(sql), &st);
    *why = sq_compile_why(st);
    return q;
}

/* What deciding one query or pair needs: an arena, the catalog of its
** database, and where the sources and diagnostics it adds begin, to drop
** them after. */
typedef struct Scratch {
    SqArena *a;
    const Catalog *cat; /* NULL when the schema does not load */
    SqCtxMark keep;
} Scratch;

static Scratch scratch_begin(Run *r, const CorpusQuery *q) {
    Scratch s = {sq_arena_new(), NULL, sq_ctx_mark(&r->ctx)};
    s.cat = corpus_catalog(&r->catalogs, &r->c, q, &r->ctx);
    return s;
}

static void scratch_end(Run *r, Scratch *s) {
    sq_arena_free(s->a);
    sq_ctx_rewind(&r->ctx, s->keep);
}

/* Both queries of a pair over the first one's database; 0 with *why when
** either does not load (why stays "the schema" when that did not). */
static int load_pair(Run *r, Scratch *s, const CorpusQuery *q, const CorpusQuery *q2, IrQuery **i1, IrQuery **i2,
                     const char **why) {
    *why = "the schema";
    *i1 = s->cat ? load(r, s->a, s->cat, q->origin, q->sql, why) : NULL;
    *i2 = *i1 ? load(r, s->a, s->cat, q2->origin, q2->sql, why) : NULL;
    return *i1 && *i2;
}

static void fail(Run *r, const char *origin, const char *what) {
    r->failures++;
    if (r->failures <= 20) printf("equivcorpus: %s: %s\n", origin, what);
}

/* Whether verdict v contradicts what the normal forms proved (c): a
** difference where they are the same, or under ties where they are the
** same but for ties and no LIMIT can cut at the bound (uncut). */
static int contradicts(SqCanonVerdict c, int uncut, SqVerdict v) {
    if (v == SQ_VERDICT_DIFFERENT || v == SQ_VERDICT_COLUMNS) return 1;
    return (c == SQ_CANON_SAME || uncut) && v == SQ_VERDICT_DIFFERENT_TIES;
}

/* Decide one pair and count it; *bad set when it is a failure of the mode.
** canon: what the normal forms proved (--forms). */
static void decide(Run *r, const Catalog *cat, const char *origin, IrQuery *q1, const char *sql1, IrQuery *q2,
                   const char *sql2, SqCanonVerdict canon, int uncut) {
    SqEquivResult v;
    sq_equiv(cat, q1, sql1, q2, sql2, &r->opt, &v);
    r->verdicts[v.verdict]++;
    r->seconds += v.seconds;
    int differs = v.verdict == SQ_VERDICT_DIFFERENT || v.verdict == SQ_VERDICT_COLUMNS ||
                  v.verdict == SQ_VERDICT_DIFFERENT_TIES;
    int bad = v.verdict == SQ_VERDICT_SPURIOUS || (r->strict && v.verdict != SQ_VERDICT_EQUIVALENT) ||
              ((r->mode == M_SELF || r->mode == M_UNNEST) && differs) ||
              (r->mode == M_FORMS && contradicts(canon, uncut, v.verdict));
    if (v.verdict == SQ_VERDICT_UNSUPPORTED || v.verdict == SQ_VERDICT_TIMEOUT || v.verdict == SQ_VERDICT_UNCONFIRMED)
        corpus_tally_add(&r->reasons, v.verdict == SQ_VERDICT_TIMEOUT       ? "timeout"
                        : v.verdict == SQ_VERDICT_UNCONFIRMED ? "unconfirmed (uninterpreted functions)"
                                                              : v.detail);
    if (bad) fail(r, origin, sq_verdict_name(v.verdict));
    if (r->report && v.verdict != SQ_VERDICT_EQUIVALENT) {
        fprintf(r->report, "%s\t%s\t%s\n  q1: %s\n  q2: %s\n", origin, sq_verdict_name(v.verdict),
                v.detail ? v.detail : "", sql1, sql2);
        if (v.verdict == SQ_VERDICT_DIFFERENT || v.verdict == SQ_VERDICT_DIFFERENT_TIES ||
            v.verdict == SQ_VERDICT_SPURIOUS) {
            SqBuf b = SQ_BUF_INIT;
            sq_fixture_sql(&v.fixture, &b);
            fprintf(r->report, "  counterexample:\n%s\n", sq_buf_str(&b));
            sq_buf_free(&b);
        }
    }
    sq_equiv_result_free(&v);
}

static int is_gold(const CorpusQuery *q) {
    return strncmp(q->origin, "spider/dev.json#", 16) == 0 || strncmp(q->origin, "bird/dev.json#", 14) == 0;
}

/* --self: a query that has a normal form has the same one as q2 (itself,
** or its emitted SQL).  Forms that differ, or cannot be matched, fail. */
static void same_form(Run *r, const char *origin, IrQuery *q1, IrQuery *q2) {
    SqCanonResult c;
    sq_canon_compare(q1, q2, r->opt.sem, r->opt.typed_values, NULL, NULL, &c);
    if (c.verdict == SQ_CANON_NONE && c.why &&
        (strcmp(c.why, "different normal forms") == 0 || strcmp(c.why, "different tables") == 0 ||
         strcmp(c.why, "too many ways to match the tables") == 0))
        fail(r, origin, c.why);
}

/* --self and --unnest: one gold query. */
static void gold(Run *r, const CorpusQuery *q) {
    Scratch sc = scratch_begin(r, q);
    SqArena *a = sc.a;
    const Catalog *cat = sc.cat;
    const char *why;
    IrQuery *q1 = cat ? load(r, a, cat, q->origin, q->sql, &why) : NULL;
    SqBuf b = SQ_BUF_INIT;
    if (!q1) {
        r->not_parsed++;
        goto done;
    }
    if (r->mode == M_SELF) {
        /* not searched against the very same IR: the emitted SQL, bound
        ** again, is a second copy of it (byte for byte the same text where
        ** the emitter writes it back as it was), so that pair covers it */
        same_form(r, q->origin, q1, q1);
        if (!sq_emit_sqlite(q1, &b)) goto done;
        IrQuery *q2 = load(r, a, cat, "emitted", sq_buf_str(&b), &why);
        if (!q2) {
            r->failures++;
            printf("equivcorpus: %s: the emitted SQL does not load (%s)\n", q->origin, why);
            goto done;
        }
        r->pairs++;
        decide(r, cat, q->origin, q1, q->sql, q2, sq_buf_str(&b), SQ_CANON_NONE, 0);
        same_form(r, q->origin, q1, q2);
    } else {
        IrQuery *q2 = load(r, a, cat, q->origin, q->sql, &why);
        SqPassCtx pc;
        static const char *const passes[] = {"unnest"};
        sq_ctx_run_passes(&r->ctx, a, cat, q2, passes, 1, &pc);
        if (!pc.n_rewrites || !sq_emit_sqlite(q2, &b)) goto done;
        r->pairs++;
        decide(r, cat, q->origin, q1, q->sql, q2, sq_buf_str(&b), SQ_CANON_NONE, 0);
    }
done:
    sq_buf_free(&b);
    scratch_end(r, &sc);
}

/* --calcite: the pair whose first query is q. */
static void calcite(Run *r, const CorpusQuery *q, const CorpusQuery *q2) {
    Scratch sc = scratch_begin(r, q);
    IrQuery *i1, *i2;
    const char *why;
    r->pairs++;
    if (!load_pair(r, &sc, q, q2, &i1, &i2, &why)) {
        r->not_parsed++;
        char buf[160];
        const char *msg = sq_ctx_last_message(&r->ctx, sc.keep);
        if (!msg) msg = "";
        snprintf(buf, sizeof buf, "not parsed: %s", why);
        corpus_tally_add(&r->reasons, buf);
        if (r->report) fprintf(r->report, "%s\tnot parsed\t%s: %s\n", q->origin, why, msg);
    } else {
        decide(r, sc.cat, q->origin, i1, q->sql, i2, q2->sql, SQ_CANON_NONE, 0);
    }
    scratch_end(r, &sc);
}

/* --forms: the pair of gold g and prediction p, searched when the normal
** forms prove it. */
static void forms(Run *r, const CorpusQuery *g, const CorpusQuery *p) {
    Scratch sc = scratch_begin(r, g);
    IrQuery *q1, *q2;
    const char *why;
    if (!load_pair(r, &sc, g, p, &q1, &q2, &why)) {
        r->not_parsed++;
        scratch_end(r, &sc);
        return;
    }
    /* what squint equiv's normal forms say; no time for a search after
    ** them, which bounds where no LIMIT cuts do not need */
    SqEquivOptions o = r->opt;
    o.search_only = 0;
    o.timeout = 1e-9;
    SqEquivResult v;
    sq_equiv(sc.cat, q1, g->sql, q2, p->sql, &o, &v);
    SqCanonVerdict c = v.proof ? SQ_CANON_SAME : v.tie_free_proved ? SQ_CANON_TIE_FREE : SQ_CANON_NONE;
    int uncut = c == SQ_CANON_TIE_FREE && v.verdict == SQ_VERDICT_EQUIVALENT;
    r->uncut += uncut;
    sq_equiv_result_free(&v);
    if (c != SQ_CANON_NONE) {
        r->pairs++;
        if (c == SQ_CANON_SAME) r->proved++;
        else r->proved_tie_free++;
        decide(r, sc.cat, p->origin, q1, g->sql, q2, p->sql, c, uncut);
    }
    scratch_end(r, &sc);
}

/* --forms: every prediction with its gold query. */
static void bird_pairs(Run *r) {
    const CorpusQuery **gold = sq_calloc(r->c.n + 1, sizeof *gold);
    size_t n_gold = 0, done = 0;
    for (size_t i = 0; i < r->c.n; i++)
        if (strncmp(r->c.q[i].origin, "bird/dev.json#", 14) == 0) gold[n_gold++] = &r->c.q[i];
    for (size_t i = 0; i < r->c.n && (!r->limit || done < r->limit); i++) {
        const CorpusQuery *p = &r->c.q[i];
        if (p->set != CORPUS_BIRD || strncmp(p->origin, "bird/dev.json#", 14) == 0) continue;
        size_t g = (size_t)strtoul(strrchr(p->origin, '#') + 1, NULL, 10);
        if (g >= n_gold) continue;
        forms(r, gold[g], p);
        done++;
    }
    free(gold);
}

static void summary(Run *r) {
    static const char *const modes[] = {"gold self-equivalence", "unnest rewrites", "calcite pairs",
                                        "BIRD pairs with a normal-form proof"};
    printf("equivcorpus: %s, bound %d: %zu pairs", modes[r->mode], r->opt.bound, r->pairs);
    if (r->not_parsed) printf(" (%zu queries not parsed or bound)", r->not_parsed);
    if (r->mode == M_FORMS)
        printf("\n  proved the same %zu, the same where ties do not matter %zu (no LIMIT cuts at the bound:"
               " %zu); the search:",
               r->proved, r->proved_tie_free, r->uncut);
    printf("\n  equivalent %zu, different %zu, different-under-ties %zu, column count %zu,\n"
           "  unsupported %zu, timeout %zu, unconfirmed %zu, spurious %zu; solver time %.1f s\n",
           r->verdicts[SQ_VERDICT_EQUIVALENT], r->verdicts[SQ_VERDICT_DIFFERENT],
           r->verdicts[SQ_VERDICT_DIFFERENT_TIES], r->verdicts[SQ_VERDICT_COLUMNS],
           r->verdicts[SQ_VERDICT_UNSUPPORTED], r->verdicts[SQ_VERDICT_TIMEOUT],
           r->verdicts[SQ_VERDICT_UNCONFIRMED], r->verdicts[SQ_VERDICT_SPURIOUS], r->seconds);
    corpus_tally_sort(&r->reasons);
    for (size_t i = 0; i < r->reasons.n && i < 15; i++)
        printf("  %6zu  %s\n", r->reasons.items[i].n, r->reasons.items[i].text);
}

static int options(Run *r, int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--self") == 0) r->mode = M_SELF;
        else if (strcmp(a, "--unnest") == 0) r->mode = M_UNNEST;
        else if (strcmp(a, "--calcite") == 0) r->mode = M_CALCITE;
        else if (strcmp(a, "--forms") == 0) r->mode = M_FORMS;
        else if (strcmp(a, "--bound") == 0 && v) r->opt.bound = atoi(argv[++i]);
        else if (strcmp(a, "--timeout") == 0 && v) r->opt.timeout = atof(argv[++i]);
        else if (strcmp(a, "--rlimit") == 0 && v) r->opt.rlimit = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (strcmp(a, "--strict") == 0) r->strict = 1;
        else if (strcmp(a, "--limit") == 0 && v) r->limit = (size_t)atol(argv[++i]);
        else if (strcmp(a, "--report") == 0 && v) {
            r->report = fopen(argv[++i], "w");
            if (!r->report) {
                fprintf(stderr, "equivcorpus: cannot write %s\n", v);
                return -1;
            }
        } else {
            fprintf(stderr, "usage: equivcorpus --self|--unnest|--calcite|--forms [--bound K] [--timeout S] "
                            "[--rlimit N] [--strict] [--limit N] [--report FILE]\n");
            return -1;
        }
    }
    return r->opt.bound >= 1 ? 0 : -1;
}

int main(int argc, char **argv) {
    Run r;
    memset(&r, 0, sizeof r);
    r.opt = sq_equiv_options_default();
    r.opt.bound = 3;
    r.opt.timeout = 2;
    /* declared classes only: these runs check the encoding against the
    ** corpus, and a second search over every storage class would double
    ** their time for code the tests/equiv cases and make soundness-ci
    ** already check (storage_classes.cases) */
    r.opt.typed_values = 1;
    if (options(&r, argc, argv) < 0) return 2;
    int loaded = corpus_load(&r.c);
    if (loaded == 0) {
        printf("equivcorpus: no corpus; skipped\n");
        return 0;
    }
    if (loaded < 0) return 2;
    if (r.mode == M_SELF || r.mode == M_UNNEST) {
        r.opt.sem = SQ_SMT_BAG; /* a query and its rewrite: same rows, same counts */
        r.opt.search_only = 1;  /* the encoding is what is checked */
        r.opt.no_witness = 1;   /* ... for a difference it should not find */
    }
    if (r.mode == M_FORMS) { /* checked against the proof: only a difference counts */
        r.opt.search_only = 1;
        r.opt.no_witness = 1;
    }
    sq_ctx_init(&r.ctx);
    size_t done = 0;
    if (r.mode == M_FORMS) bird_pairs(&r);
    for (size_t i = 0; i < r.c.n && r.mode != M_FORMS && (!r.limit || done < r.limit); i++) {
        const CorpusQuery *q = &r.c.q[i];
        if (r.mode == M_CALCITE) {
            size_t n = strlen(q->origin);
            if (q->set != CORPUS_EQUIV || q->origin[n - 1] != '0' || i + 1 >= r.c.n) continue;
            calcite(&r, q, &r.c.q[i + 1]);
        } else {
            if (!is_gold(q)) continue;
            gold(&r, q);
        }
        done++;
    }
    summary(&r);
    if (r.report) fclose(r.report);
    corpus_tally_free(&r.reasons);
    corpus_catalogs_free(&r.catalogs);
    sq_ctx_free(&r.ctx);
    corpus_free(&r.c);
    return r.failures ? 1 : 0;
}
