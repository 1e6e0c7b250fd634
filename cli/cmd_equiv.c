/*
** cmd_equiv.c -- `squint equiv`: do two queries return the same rows on
** every database of the schema, up to a bound?
**
** Layer: cli.  Each query is a SQL string or @FILE; both are parsed, bound
** against the schema option's catalog and lowered, then
** backend/equiv/equiv.h decides.  Prints the verdict on the first line,
** then for a difference the counterexample's tables and both results side
** by side (text), or one JSON object.
*/
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "backend/equiv/equiv.h"
#include "backend/profile/profile.h"
#include "runtime/safewrite.h"
#include "runtime/util.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/cli_queries.h"

static const char usage_head[] =
    "usage: squint equiv [options] SCHEMA-OPTION Q1 Q2\n"
    "\n"
    "Search for a small database, conforming to the schema, on which queries Q1\n"
    "and Q2 return different results under SQLite's semantics.  Q1 and Q2 are SQL\n"
    "text or @FILE.  Every counterexample is checked by running both queries on\n"
    "it in SQLite.\n"
    "\n"
    "options:\n"
    "      --semantics S      set (default: BIRD's set(rows1) == set(rows2)), bag\n"
    "                         (same rows, same counts), list (same rows, same\n"
    "                         order) or spider (Spider's test suite: bag, or list\n"
    "                         when Q1 has ORDER BY, under some order of Q2's\n"
    "                         columns)\n"
    "      --bound K          up to K rows per table (default 4)\n"
    "      --values V         any (default): a column holds every storage class\n"
    "                         its affinity lets it hold (an INTEGER column 'abc'\n"
    "                         and 1.5, as SQLite allows); typed: only its\n"
    "                         declared class (a smaller search, a weaker promise)\n"
    "      --timeout S        seconds for the pair (default 10; 0: none)\n"
    "      --rlimit N         z3's resource units for the pair (default 0: none),\n"
    "                         shared by its solver calls as the time is; unlike\n"
    "                         --timeout, the same verdict on a loaded machine,\n"
    "                         for checks that must not flicker\n"
    "      --now T            the instant 'now' and CURRENT_* stand for, in both\n"
    "                         the search and the check by execution: 'YYYY-MM-DD'\n"
    "                         or 'YYYY-MM-DD HH:MM:SS', UTC (default 2026-06-15\n"
    "                         12:34:56)\n"
    "      --fixture-out F    write the counterexample to F: a SQL script (.sql),\n"
    "                         a SQLite database (.sqlite, .db) or JSON (.json);\n"
    "                         never over an input, nor over an existing file\n"
    "                         without --force\n"
    "      --dump-smt F       write the formula of the last bound tried to F\n"
    "                         (SMT-LIB2), for z3 on the command line\n"
    "      --force            let --fixture-out and --dump-smt replace a file\n"
    "      --mem-limit MB     address space of the search's process (default\n"
    "                         4096; 0: none); the search runs in a process of\n"
    "                         its own, so that a solver that aborts or crashes\n"
    "                         ends in 'unknown: solver failed'; z3 out of memory\n"
    "                         in 'unknown: out of memory' when it can say so\n"
    "      --search-only      do not compare the queries' normal forms first:\n"
    "                         decide by the bounded search alone\n"
    "      --profile-cache DIR  where the column profiles of --db and --db-root\n"
    "                         databases are kept between runs (default:\n"
    "                         $SQUINT_CACHE, else $XDG_CACHE_HOME/squint, else\n"
    "                         ~/.cache/squint)\n"
    "      --metadata FILE    profile the columns from BIRD's dev_metadata.json\n"
    "                         (the entry of the schema's db_id), not a database\n"
    "      --no-kinds         do not tag a difference with its kinds\n"
    "      --realistic        search only databases whose columns look like the\n"
    "                         real data's (the profile of --db, --db-root and\n"
    "                         --db-id, or --metadata: no NULL where it has none,\n"
    "                         each value once where it holds each once, only the\n"
    "                         classes and text forms it shows); an equivalence\n"
    "                         the search finds is then equivalent-on-realistic-data,\n"
    "                         not a promise for every database\n"
    "  -f, --format FMT       text (default) or json\n"
    "      --list-functions   list every SQL function with how the search models\n"
    "                         it (exact, partial, constants, unsupported) and exit\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n";

static const char usage_tail[] =
    "\n"
    "exit status: 0 equivalent (on every database, or up to the bound; with\n"
    "--realistic also equivalent-on-realistic-data, the question asked), 1\n"
    "different (or different only under ties, or a different column count), 2\n"
    "usage or input error (also: an output file refused or not written), 3\n"
    "unknown (unsupported, timeout, resource limit, out of memory, unconfirmed,\n"
    "spurious, solver failed, vacuous)\n"
    "\n"
    "With a database (--db, or --db-root and --db-id) or --metadata, a\n"
    "difference is tagged with what its database relies on that the real data\n"
    "never shows: degenerate-empty-vs-null, needs-null, needs-format,\n"
    "needs-duplicates, needs-ties, or robust (docs/squint-equiv.md, Kinds).\n"
    CLI_EXIT_OOM;

typedef struct EquivRun {
    CliQueries cq;
    SqEquivOptions opt;
    int json;
    const char *fixture_out;
    const char *dump_smt;
    int force;              /* outputs may replace existing files */
    const char *profile_cache; /* --profile-cache DIR, or NULL */
    const char *metadata;   /* --metadata FILE, or NULL */
    int no_kinds;           /* --no-kinds */
    int realistic;          /* --realistic */
    SqProfile prof;         /* the profile of the real data, when has_prof */
    int has_prof;
} EquivRun;

const CliOpt cli_opts_equiv[] = {
    {"semantics", 0, 1}, {"bound", 0, 1},  {"values", 0, 1},  {"timeout", 0, 1}, {"rlimit", 0, 1}, {"now", 0, 1}, {"fixture-out", 0, 1},
    {"dump-smt", 0, 1},  {"search-only", 0, 0}, {"force", 0, 0}, {"mem-limit", 0, 1}, {"format", 'f', 1},
    {"help", 'h', 0},    {"list-functions", 0, 0}, {"profile-cache", 0, 1}, {"metadata", 0, 1},
    {"no-kinds", 0, 0}, {"realistic", 0, 0}, CLI_QUERIES_OPTIONS,
    {NULL, 0, 0}};

static int bad_value(const char *opt, const char *what) {
    fprintf(stderr, "squint equiv: %s takes %s\n", opt, what);
    return SQ_EXIT_USAGE;
}

static int own_option(void *ctx, const char *name, const char *val) {
    EquivRun *r = ctx;
    char *end;
    if (strcmp(name, "help") == 0) {
        cli_queries_usage(stdout, usage_head, usage_tail);
        cli_help_common(stdout, cli_opts_equiv, 0);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "list-functions") == 0) {
        SqBuf b = SQ_BUF_INIT;
        sq_smt_function_list(&b);
        cli_flush(&b, stdout);
        sq_buf_free(&b);
        return SQ_EXIT_OK;
    }
    if (strcmp(name, "semantics") == 0) {
        if (strcmp(val, "set") == 0) r->opt.sem = SQ_SMT_SET;
        else if (strcmp(val, "bag") == 0) r->opt.sem = SQ_SMT_BAG;
        else if (strcmp(val, "list") == 0) r->opt.sem = SQ_SMT_LIST;
        else if (strcmp(val, "spider") == 0) r->opt.sem = SQ_SMT_SPIDER;
        else return bad_value("--semantics", "set, bag, list or spider");
    } else if (strcmp(name, "bound") == 0) {
        long k = strtol(val, &end, 10);
        if (*end || !*val || k < 1 || k > 16) return bad_value("--bound", "a number from 1 to 16");
        r->opt.bound = (int)k;
    } else if (strcmp(name, "values") == 0) {
        if (strcmp(val, "any") == 0) r->opt.typed_values = 0;
        else if (strcmp(val, "typed") == 0) r->opt.typed_values = 1;
        else return bad_value("--values", "any or typed");
    } else if (strcmp(name, "timeout") == 0) {
        double t = strtod(val, &end);
        if (*end || !*val || t < 0) return bad_value("--timeout", "seconds (0: none)");
        r->opt.timeout = t;
    } else if (strcmp(name, "rlimit") == 0) {
        unsigned long long n = strtoull(val, &end, 10);
        if (*end || !*val || *val == '-' || n > (1ULL << 50))
            return bad_value("--rlimit", "a count of resource units (0: none)");
        r->opt.rlimit = (uint64_t)n;
    } else if (strcmp(name, "now") == 0) {
        if (cli_parse_instant(val, &r->opt.now) < 0)
            return bad_value("--now", "a UTC instant 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' from 1970 on");
    } else if (strcmp(name, "fixture-out") == 0) {
        r->fixture_out = val;
    } else if (strcmp(name, "dump-smt") == 0) {
        r->dump_smt = val;
    } else if (strcmp(name, "profile-cache") == 0) {
        r->profile_cache = val;
    } else if (strcmp(name, "metadata") == 0) {
        r->metadata = val;
    } else if (strcmp(name, "no-kinds") == 0) {
        r->no_kinds = 1;
    } else if (strcmp(name, "realistic") == 0) {
        r->realistic = 1;
    } else if (strcmp(name, "search-only") == 0) {
        r->opt.search_only = 1;
    } else if (strcmp(name, "force") == 0) {
        r->force = 1;
    } else if (strcmp(name, "mem-limit") == 0) {
        unsigned long mb = strtoul(val, &end, 10);
        if (*end || !*val || *val == '-' || mb > (1UL << 30)) return bad_value("--mem-limit", "megabytes (0: none)");
        r->opt.mem_limit = (uint64_t)mb << 20;
    } else if (strcmp(name, "format") == 0) {
        SqFormat f;
        if (!cli_parse_format("equiv", val, CLI_TEXT_OR_JSON, &f)) return SQ_EXIT_USAGE;
        r->json = f == SQ_FMT_JSON;
    } else {
        return SQ_EXIT_USAGE;   /* "?": cli_next_opt said why */
    }
    return -1;
}

/* ------------------------------------------------------------------ */
/* The two queries                                                     */
/* ------------------------------------------------------------------ */

typedef struct Query {
    const SqSrc *src;
    IrQuery *ir;
} Query;

/* Q as a source: @FILE read, else the text itself named "Q1"/"Q2". */
static const SqSrc *query_source(EquivRun *r, const char *arg, const char *name) {
    if (arg[0] == '@') {
        int err;
        SqSrc *src = sq_src_add_file(&r->cq.srcs, arg + 1, &err);
        if (!src) cli_io_error("equiv", arg + 1, err);
        return src;
    }
    return sq_src_add_copy(&r->cq.srcs, name, arg, strlen(arg));
}

/* Parse, bind and lower the one query of src; 0, or -1 after a message
** or diagnostics. */
static int load_query(EquivRun *r, const Catalog *cat, SqArena *arena, const SqSrc *src, Query *q) {
    SqCompileStatus st;
    q->src = src;
    q->ir = sq_ctx_compile(&r->cq.schema.ctx, arena, cat, src, &st);
    if (q->ir) return 0;
    if (st != SQ_COMPILE_SYNTAX && st != SQ_COMPILE_BIND) /* those were reported */
        fprintf(stderr, "squint equiv: %s: %s\n", src->name, sq_compile_why(st));
    return -1;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static const char *sem_name(SqSmtSemantics s) {
    return s == SQ_SMT_BAG ? "bag" : s == SQ_SMT_LIST ? "list" : s == SQ_SMT_SPIDER ? "spider" : "set";
}

static void where_text(SqBuf *out, EquivRun *r, const SqEquivResult *v) {
    const SqSrc *src = v->at.file ? sq_src_get(&r->cq.srcs, v->at.file) : NULL;
    if (!src) return;
    SqSrcPos p = sq_src_locate(src, v->at.start);
    sq_buf_printf(out, " at %s:%u:%u", p.file ? p.file->name : src->name, p.line, p.col);
}

/* The first line: the verdict as the issue names it. */
static void verdict_line(SqBuf *out, EquivRun *r, const SqEquivResult *v) {
    switch (v->verdict) {
    case SQ_VERDICT_EQUIVALENT:
        if (v->realistic && !v->proof) { /* never plain 'equivalent': not a promise for every database */
            sq_buf_printf(out, "%s: the same results ", sq_equiv_verdict_label(v));
            sq_equiv_promise(v, out);
            sq_buf_puts(out, "\n");
        } else if (v->proof) sq_buf_printf(out, "equivalent (on every database: the same %s)\n", v->proof);
        else if (v->raised) sq_buf_printf(out, "equivalent (up to bound %d, %s)\n", v->bound, v->raised);
        else sq_buf_printf(out, "equivalent (up to bound %d)\n", v->bound);
        break;
    case SQ_VERDICT_DIFFERENT: sq_buf_puts(out, "different\n"); break;
    case SQ_VERDICT_DIFFERENT_TIES: sq_buf_puts(out, "different-under-ties\n"); break;
    case SQ_VERDICT_COLUMNS:
        sq_buf_printf(out, "different: column count (%d and %d)\n", v->cols1, v->cols2);
        break;
    case SQ_VERDICT_UNSUPPORTED:
        sq_buf_printf(out, "unknown: unsupported %s", v->detail);
        where_text(out, r, v);
        sq_buf_puts(out, "\n");
        break;
    case SQ_VERDICT_TIMEOUT:
        if (strcmp(v->detail, "resource limit") == 0)
            sq_buf_printf(out, "unknown: resource limit (--rlimit) reached at bound %d\n", v->bound);
        else if (strncmp(v->detail, "z3 error", 8) == 0) /* an exception inside z3 (sq_smt_failure) */
            sq_buf_printf(out, "unknown: solver failed at bound %d (%s)\n", v->bound, v->detail);
        else
            sq_buf_printf(out, "unknown: %s at bound %d (%s)\n",
                          strstr(v->detail, "memory") ? "out of memory" : "timeout", v->bound, v->detail);
        break;
    case SQ_VERDICT_UNCONFIRMED:
        if (v->detail && strcmp(v->detail, SQ_EQUIV_ROUNDING) == 0)
            sq_buf_printf(out, "unknown: unconfirmed difference at bound %d (it needs REAL arithmetic without "
                               "the rounding of SQLite's doubles)\n", v->bound);
        else
            sq_buf_printf(out, "unknown: unconfirmed difference at bound %d (it needs %s to behave otherwise "
                               "than in SQLite)\n", v->bound, v->uninterpreted ? v->uninterpreted : "functions");
        break;
    case SQ_VERDICT_SPURIOUS:
        sq_buf_printf(out, "unknown: spurious counterexample at bound %d (%s); please report it\n", v->bound,
                      v->detail ? v->detail : "");
        break;
    case SQ_VERDICT_FAILED: sq_buf_printf(out, "unknown: solver failed (%s)\n", v->detail); break;
    case SQ_VERDICT_VACUOUS:
        if (v->realistic) {
            sq_buf_printf(out, "unknown: %s up to bound %d (neither query returns a row on any database of up to "
                               "%d rows per table that keeps the facts of %s)\n", sq_equiv_verdict_label(v),
                          v->bound, v->bound, v->realistic_origin);
            break;
        }
        sq_buf_printf(out, "unknown: vacuous up to bound %d (neither query returns a row on any database of up "
                           "to %d rows per table)\n", v->bound, v->bound);
        break;
    default: break;
    }
}

static uint64_t fixture_rows(const SqFixture *f) {
    uint64_t n = 0;
    for (uint32_t i = 0; i < f->n_tables; i++) n += f->tables[i].rows.n_rows;
    return n;
}

static int has_counterexample(const SqEquivResult *v) {
    return v->verdict == SQ_VERDICT_DIFFERENT || v->verdict == SQ_VERDICT_DIFFERENT_TIES ||
           v->verdict == SQ_VERDICT_SPURIOUS;
}

/* ------------------------------------------------------------------ */
/* Kinds: what the counterexample relies on                            */
/* ------------------------------------------------------------------ */

typedef struct Kinds {
    int has;                /* the counterexample was tagged */
    const SqProfile *prof;  /* the run's (EquivRun.prof) */
    SqCexKinds tags;
} Kinds;

/* The profile of the real data: --metadata's, else the database of --db
** or --db-root, into r->prof once; 1 when there is one, 0 when there is
** none, -1 on failure with *err (malloc'd). */
static int load_profile(EquivRun *r, const Catalog *cat, char **err) {
    *err = NULL;
    if (r->has_prof) return 1;
    int rc = cli_schema_profile(&r->cq.schema, r->cq.schema.db_id, r->metadata, r->profile_cache, cat, &r->prof, err);
    r->has_prof = rc == 1;
    return rc;
}

static void tag_kinds(EquivRun *r, const Catalog *cat, IrQuery *q1, const char *sql1, const char *sql2,
                      const SqEquivResult *v, Kinds *k) {
    if (r->no_kinds || (v->verdict != SQ_VERDICT_DIFFERENT && v->verdict != SQ_VERDICT_DIFFERENT_TIES)) return;
    char *err = NULL;
    int rc = load_profile(r, cat, &err);
    /* a failure is a warning: the verdict stands without kinds */
    if (rc < 0) fprintf(stderr, "squint equiv: warning: no column profile, so no kinds: %s\n", err ? err : "");
    free(err);
    if (rc != 1) return;
    k->prof = &r->prof;
    SqCexInput in = {k->prof, &v->fixture, sql1, sql2, sq_equiv_compare_mode(r->opt.sem),
                     ir_root_sorted(q1->root), &v->r1, &v->r2, v->verdict == SQ_VERDICT_DIFFERENT_TIES};
    sq_cex_kinds(&in, &k->tags);
    k->has = 1;
}

static void kinds_free(Kinds *k) { sq_cex_kinds_free(&k->tags); }

static void shape_list(SqBuf *out, unsigned shapes) {
    int first = 1;
    for (unsigned bit = 1; bit <= SQ_SHAPE_BLOB; bit <<= 1)
        if (shapes & bit) {
            sq_buf_printf(out, "%s%s", first ? "" : ", ", sq_shape_name(bit));
            first = 0;
        }
}

/* "a NULL in singer.age, which holds none in the database" */
static void where_text_of(SqBuf *out, const Kinds *k, const SqCexWhere *w) {
    const char *tab = w->table->name, *col = w->table->cols[w->col].name;
    const char *data = k->prof->source == SQ_PROFILE_METADATA ? "the metadata" : "the database";
    const SqColumnProfile *cp = sq_profile_column(k->prof, w->table, w->col);
    switch (w->kind) {
    case SQ_CEX_NEEDS_NULL: sq_buf_printf(out, "a NULL in %s.%s, which holds none in %s", tab, col, data); break;
    case SQ_CEX_NEEDS_FORMAT:
        sq_value_print(&w->value, out);
        sq_buf_printf(out, " (%s) in %s.%s, whose values in %s are all of shape%s ",
                      sq_shape_name(sq_value_shape(&w->value)), tab, col,
                      k->prof->source == SQ_PROFILE_METADATA ? "the metadata's samples" : "the database",
                      cp && (cp->shapes & (cp->shapes - 1)) ? "s" : "");
        if (cp) shape_list(out, cp->shapes);
        break;
    default:
        sq_value_print(&w->value, out);
        sq_buf_printf(out, " more than once in %s.%s, whose values are all distinct in %s", tab, col, data);
        break;
    }
}

static void kinds_text(SqBuf *out, const Kinds *k, const SqEquivResult *v) {
    if (!k->has) return;
    sq_buf_puts(out, "kinds: ");
    sq_cex_kind_names(k->tags.kinds, ", ", out);
    if (!k->tags.kinds) sq_buf_puts(out, " (nothing the real data never shows)");
    sq_buf_puts(out, "\n");
    if (k->tags.kinds & SQ_CEX_DEGENERATE)
        sq_buf_printf(out, "  degenerate-empty-vs-null: Q1 returns %s, Q2 %s\n",
                      v->r1.n_rows == 0 ? "no row" : "one row of NULLs", v->r1.n_rows == 0 ? "one row of NULLs" : "no row");
    for (uint32_t i = 0; i < k->tags.n_where; i++) {
        sq_buf_printf(out, "  %s: ", sq_cex_kind_name(k->tags.where[i].kind));
        where_text_of(out, k, &k->tags.where[i]);
        sq_buf_puts(out, "\n");
    }
    if (!k->tags.tested && (k->tags.kinds & (SQ_CEX_NEEDS_NULL | SQ_CEX_NEEDS_FORMAT | SQ_CEX_NEEDS_DUPLICATES)))
        sq_buf_puts(out, "  (not tested: SQLite shows no difference on this database, so no repair can tell "
                         "whether the queries need these values)\n");
}

static void kinds_json(SqJsonWriter *w, const Kinds *k) {
    sq_jw_key(w, "kinds");
    if (!k->has) {
        sq_jw_null(w);
    } else {
        sq_jw_arr_begin(w);
        if (!k->tags.kinds) sq_jw_str(w, sq_cex_kind_name(0));
        for (unsigned bit = 1; bit <= SQ_CEX_NEEDS_TIES; bit <<= 1)
            if (k->tags.kinds & bit) sq_jw_str(w, sq_cex_kind_name(bit));
        sq_jw_arr_end(w);
    }
    sq_jw_key(w, "kinds_where");
    if (!k->has) {
        sq_jw_null(w);
    } else {
        sq_jw_arr_begin(w);
        for (uint32_t i = 0; i < k->tags.n_where; i++) {
            const SqCexWhere *x = &k->tags.where[i];
            sq_jw_obj_begin(w);
            sq_jw_key(w, "kind");
            sq_jw_str(w, sq_cex_kind_name(x->kind));
            sq_jw_key(w, "table");
            sq_jw_str(w, x->table->name);
            sq_jw_key(w, "column");
            sq_jw_str(w, x->table->cols[x->col].name);
            sq_jw_key(w, "value");
            sq_value_json(w, &x->value);
            sq_jw_obj_end(w);
        }
        sq_jw_arr_end(w);
    }
    sq_jw_key(w, "kinds_tested");
    if (k->has) sq_jw_bool(w, k->tags.tested);
    else sq_jw_null(w);
    sq_jw_key(w, "profile");
    if (!k->has) {
        sq_jw_null(w);
        return;
    }
    sq_jw_obj_begin(w);
    sq_jw_key(w, "source");
    sq_jw_str(w, k->prof->source == SQ_PROFILE_METADATA ? "metadata" : "database");
    sq_jw_key(w, "origin");
    sq_jw_str(w, k->prof->origin);
    sq_jw_key(w, "cached");
    sq_jw_bool(w, k->prof->from_cache);
    sq_jw_obj_end(w);
}

/* --realistic: what the search kept to, and what the verdict promises. */
static void realistic_text(SqBuf *out, EquivRun *r, const SqEquivResult *v) {
    if (!r->opt.realistic) return;
    if (v->verdict == SQ_VERDICT_EQUIVALENT && v->proof) {
        sq_buf_puts(out, "realistic: not needed: the normal forms show the queries the same on every database\n");
        return;
    }
    if (!v->realistic) {
        sq_buf_printf(out, "realistic: the profile of %s gives the search no facts (no table with rows): the "
                           "verdict is for every database\n", r->opt.realistic->origin);
        return;
    }
    sq_buf_printf(out, "realistic: the search kept to the %u column fact%s of %s\n", v->realistic,
                  v->realistic == 1 ? "" : "s", v->realistic_origin);
    if (v->verdict == SQ_VERDICT_EQUIVALENT)
        sq_buf_puts(out, "note: not a promise for every database: a database with a value the real data never "
                         "shows (a NULL, a repeated value, text of another form) may still tell the queries apart "
                         "(search without --realistic)\n");
    else if (v->verdict == SQ_VERDICT_DIFFERENT)
        sq_buf_puts(out, "note: the counterexample keeps these facts: the queries differ on data like the real "
                         "data\n");
}

static void text_report(SqBuf *out, EquivRun *r, const SqEquivResult *v, const Kinds *k) {
    verdict_line(out, r, v);
    realistic_text(out, r, v);
    if (v->approx && v->verdict == SQ_VERDICT_EQUIVALENT) sq_buf_printf(out, "note: %s\n", v->approx);
    if (v->uninterpreted && v->verdict == SQ_VERDICT_EQUIVALENT)
        sq_buf_printf(out, "note: %s left uninterpreted: the queries agree whatever they return\n", v->uninterpreted);
    if (v->off_type)
        sq_buf_printf(out, "note: only values of another storage class than their columns' declared types (SQLite "
                           "keeps them so) tell the queries apart%s\n",
                      v->typed_equivalent ? "; with every value of its declared type they are equivalent "
                                            "(--values typed)" : "");
    else if (v->typed_equivalent && v->verdict != SQ_VERDICT_EQUIVALENT)
        sq_buf_printf(out, "note: with every value of its column's declared type the queries are equivalent up to "
                           "bound %d (--values typed)\n", r->opt.bound);
    if (v->now)
        sq_buf_printf(out, "note: the queries read the clock, which is not deterministic; 'now' was %s UTC "
                           "(--now)\n", v->now);
    if (v->time_zone)
        sq_buf_printf(out, "note: 'localtime' and 'utc' depend on the machine's time zone; this verdict is for "
                           "TZ=%s\n", v->time_zone);
    if (!has_counterexample(v)) return;
    if (v->verdict == SQ_VERDICT_DIFFERENT)
        sq_buf_printf(out, "checked by execution: the results differ under %s semantics on this database "
                           "(%llu row%s)\n",
                      sem_name(r->opt.sem), (unsigned long long)fixture_rows(&v->fixture),
                      fixture_rows(&v->fixture) == 1 ? "" : "s");
    else if (v->verdict == SQ_VERDICT_DIFFERENT_TIES)
        sq_buf_printf(out, "they differ only when rows tie in an ORDER BY ... LIMIT, a bare column, a "
                           "scalar subquery or a window's order; on this database SQLite %s\n",
                      v->ties_reproduced ? "does return different results" : "happens to return the same results");
    kinds_text(out, k, v);
    sq_buf_puts(out, "\n");
    if (fixture_rows(&v->fixture)) sq_fixture_text(&v->fixture, out);
    else sq_buf_puts(out, "(every table empty)\n");
    sq_buf_puts(out, "\n");
    sq_result_side_by_side(&v->r1, "Q1", &v->r2, "Q2", out);
}

static void json_report(SqBuf *out, EquivRun *r, const SqEquivResult *v, const Kinds *k) {
    SqJsonWriter w;
    sq_jw_init(&w, out, 1);
    sq_jw_obj_begin(&w);
    sq_jw_key(&w, "verdict");
    sq_jw_str(&w, sq_equiv_verdict_label(v));
    sq_jw_key(&w, "bound");
    sq_jw_int(&w, v->bound);
    sq_jw_key(&w, "semantics");
    sq_jw_str(&w, sem_name(r->opt.sem));
    sq_jw_key(&w, "detail");
    SqBuf line = SQ_BUF_INIT;
    verdict_line(&line, r, v);
    if (line.len) line.data[--line.len] = 0;
    sq_jw_str(&w, sq_buf_str(&line));
    sq_buf_free(&line);
    sq_jw_key(&w, "promise");
    if (v->verdict == SQ_VERDICT_EQUIVALENT) {
        SqBuf promise = SQ_BUF_INIT;
        sq_equiv_promise(v, &promise);
        sq_jw_str(&w, sq_buf_str(&promise));
        sq_buf_free(&promise);
    } else {
        sq_jw_null(&w);
    }
    sq_jw_key(&w, "realistic");
    if (!r->opt.realistic) {
        sq_jw_null(&w);
    } else {
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "facts");
        sq_jw_int(&w, v->realistic);
        sq_jw_key(&w, "origin");
        sq_jw_str(&w, r->opt.realistic->origin);
        sq_jw_key(&w, "source");
        sq_jw_str(&w, r->opt.realistic->source == SQ_PROFILE_METADATA ? "metadata" : "database");
        sq_jw_obj_end(&w);
    }
    sq_jw_key(&w, "proof");
    sq_jw_str(&w, v->proof);
    sq_jw_key(&w, "normal_form");
    sq_jw_str(&w, v->normal_form);
    sq_jw_key(&w, "raised");
    sq_jw_str(&w, v->raised);
    sq_jw_key(&w, "values");
    sq_jw_str(&w, r->opt.typed_values ? "typed" : "any");
    sq_jw_key(&w, "off_type");
    sq_jw_bool(&w, v->off_type);
    sq_jw_key(&w, "typed_equivalent");
    sq_jw_bool(&w, v->typed_equivalent);
    sq_jw_key(&w, "approximation");
    sq_jw_str(&w, v->approx);
    sq_jw_key(&w, "uninterpreted");
    sq_jw_str(&w, v->uninterpreted);
    sq_jw_key(&w, "now");
    sq_jw_str(&w, v->now);
    sq_jw_key(&w, "time_zone");
    sq_jw_str(&w, v->time_zone);
    sq_jw_key(&w, "seconds");
    sq_jw_double(&w, v->seconds);
    sq_jw_key(&w, "rlimit_used");
    sq_jw_int(&w, (int64_t)v->rlimit_used);
    kinds_json(&w, k);
    if (has_counterexample(v)) {
        sq_jw_key(&w, "counterexample");
        sq_fixture_json(&v->fixture, &w);
        sq_jw_key(&w, "results");
        sq_jw_obj_begin(&w);
        sq_jw_key(&w, "q1");
        sq_result_json(&v->r1, &w);
        sq_jw_key(&w, "q2");
        sq_result_json(&v->r2, &w);
        sq_jw_obj_end(&w);
    }
    sq_jw_obj_end(&w);
    sq_buf_puts(out, "\n");
}

/* --fixture-out: the format by the file's extension; written whole or
** not at all (runtime/safewrite.h). */
static int write_fixture(const char *path, const SqFixture *f) {
    char *err = NULL;
    if (sq_ends_with(path, ".sqlite", 0) || sq_ends_with(path, ".db", 0) || sq_ends_with(path, ".sqlite3", 0)) {
        if (sq_fixture_write_sqlite(f, path, &err) == 0) return 0;
        fprintf(stderr, "squint equiv: %s: %s\n", path, err ? err : "cannot write");
        free(err);
        return -1;
    }
    SqBuf b = SQ_BUF_INIT;
    if (sq_ends_with(path, ".json", 0)) {
        SqJsonWriter w;
        sq_jw_init(&w, &b, 1);
        sq_fixture_json(f, &w);
        sq_buf_puts(&b, "\n");
    } else {
        sq_fixture_sql(f, &b);
    }
    int e = 0, rc = sq_write_replace(path, sq_buf_str(&b), b.len, &e);
    if (rc < 0) fprintf(stderr, "squint equiv: cannot write '%s': %s\n", path, strerror(e));
    sq_buf_free(&b);
    return rc;
}

/* The files this run reads (the schema option's, the @FILE queries). */
static size_t run_inputs(EquivRun *r, char **qs, SqOutInput *in) {
    size_t n = 0;
    const CliSchema *s = &r->cq.schema;
    if (s->path && s->kind != CLI_SCHEMA_DB_ROOT) in[n++] = (SqOutInput){s->path, s->option};
    if (s->kind == CLI_SCHEMA_DB_ROOT && s->db_id)
        in[n++] = (SqOutInput){cli_schema_db_path(&r->cq.schema, s->db_id), "--db-root and --db-id"};
    for (int i = 0; i < 2; i++)
        if (qs[i][0] == '@') in[n++] = (SqOutInput){qs[i] + 1, i ? "Q2" : "Q1"};
    if (r->metadata) in[n++] = (SqOutInput){r->metadata, "--metadata"};
    return n;
}

/* --fixture-out and --dump-smt may be written (before any work is done):
** 0, or -1 after a message. */
static int check_outputs(EquivRun *r, char **qs) {
    SqOutInput in[5];
    size_t n = run_inputs(r, qs, in);
    const char *outs[2] = {r->fixture_out, r->dump_smt};
    if (outs[0] && outs[1] && strcmp(outs[0], outs[1]) == 0) {
        fprintf(stderr, "squint equiv: --fixture-out and --dump-smt name the same file '%s'\n", outs[0]);
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        SqBuf why = SQ_BUF_INIT;
        int rc = outs[i] ? sq_out_check(outs[i], r->force, in, n, &why) : 0;
        if (rc < 0) fprintf(stderr, "squint equiv: %s %s\n", i ? "--dump-smt:" : "--fixture-out:", sq_buf_str(&why));
        sq_buf_free(&why);
        if (rc < 0) return -1;
    }
    return 0;
}

static int exit_status(const SqEquivResult *v) {
    switch (v->verdict) {
    case SQ_VERDICT_EQUIVALENT: return SQ_EXIT_OK;
    case SQ_VERDICT_DIFFERENT:
    case SQ_VERDICT_DIFFERENT_TIES:
    case SQ_VERDICT_COLUMNS: return SQ_EXIT_FINDINGS;
    default: return SQ_EXIT_UNKNOWN;
    }
}

/* ------------------------------------------------------------------ */
/* The command                                                         */
/* ------------------------------------------------------------------ */

/* --realistic: the real data's profile as the search's (r->opt.realistic);
** 0, or -1 after a message. */
static int realistic_profile(EquivRun *r, const Catalog *cat) {
    char *err = NULL;
    int rc = load_profile(r, cat, &err);
    if (rc == 1) r->opt.realistic = &r->prof;
    else if (rc < 0) fprintf(stderr, "squint equiv: --realistic: no column profile: %s\n", err ? err : "");
    free(err);
    return rc == 1 ? 0 : -1;
}

/* --realistic needs real data to profile: a database (--db, or --db-root
** and --db-id) or --metadata.  0, or -1 after a message. */
static int realistic_has_data(EquivRun *r) {
    if (!r->realistic || r->metadata || cli_schema_db_path(&r->cq.schema, r->cq.schema.db_id)) return 0;
    fprintf(stderr, "squint equiv: --realistic needs the real data to profile: --db FILE, --db-root DIR with "
                    "--db-id ID, or --metadata FILE\n");
    return -1;
}

static int run(EquivRun *r, char **qs) {
    if (check_outputs(r, qs) < 0) return SQ_EXIT_USAGE;
    const Catalog *cat = cli_schema_resolve(&r->cq.schema, NULL, (SrcSpan){0});
    if (!cat) {
        cli_print_diags_text(&r->cq.diags, 0, r->cq.color);
        return SQ_EXIT_USAGE;
    }
    if (r->realistic && realistic_profile(r, cat) < 0) return SQ_EXIT_USAGE;
    SqArena *arena = sq_arena_new();
    Query q[2];
    const char *names[2] = {"Q1", "Q2"};
    int rc = -1;
    for (int i = 0; i < 2 && rc < 0; i++) {
        const SqSrc *src = query_source(r, qs[i], names[i]);
        if (!src || load_query(r, cat, arena, src, &q[i]) < 0) rc = SQ_EXIT_USAGE;
    }
    cli_print_diags_text(&r->cq.diags, 0, r->cq.color);
    if (rc < 0) {
        SqEquivResult v;
        sq_equiv(cat, q[0].ir, q[0].src->text, q[1].ir, q[1].src->text, &r->opt, &v);
        Kinds k;
        memset(&k, 0, sizeof k);
        tag_kinds(r, cat, q[0].ir, q[0].src->text, q[1].src->text, &v, &k);
        SqBuf out = SQ_BUF_INIT;
        if (r->json) json_report(&out, r, &v, &k);
        else text_report(&out, r, &v, &k);
        kinds_free(&k);
        cli_flush(&out, stdout);
        sq_buf_free(&out);
        rc = exit_status(&v);
        if (r->fixture_out && has_counterexample(&v) && write_fixture(r->fixture_out, &v.fixture) < 0)
            rc = SQ_EXIT_USAGE;
        if (r->dump_smt && v.verdict != SQ_VERDICT_COLUMNS && v.verdict != SQ_VERDICT_UNSUPPORTED &&
            sq_equiv_dump_smt(cat, q[0].ir, q[1].ir, &r->opt, v.bound, r->dump_smt) < 0) {
            fprintf(stderr, "squint equiv: cannot write the formula to '%s'\n", r->dump_smt);
            rc = SQ_EXIT_USAGE;
        } else if (r->dump_smt && (v.verdict == SQ_VERDICT_COLUMNS || v.verdict == SQ_VERDICT_UNSUPPORTED)) {
            fprintf(stderr, "squint equiv: no formula to write to '%s': %s\n", r->dump_smt,
                    v.verdict == SQ_VERDICT_COLUMNS ? "the column counts differ" : "the encoding refused a construct");
        }
        sq_equiv_result_free(&v);
    }
    sq_arena_free(arena);
    return rc;
}

int cmd_equiv(int argc, char **argv) {
    EquivRun r;
    memset(&r, 0, sizeof r);
    r.opt = sq_equiv_options_default();
    r.opt.isolate = 1;
    r.opt.mem_limit = (uint64_t)4096 << 20;
    cli_queries_init(&r.cq, "equiv");
    CliArgs a;
    cli_args_init(&a, argc, argv, "equiv");
    int rc = cli_queries_read_options(&r.cq, &a, cli_opts_equiv, own_option, &r);
    if (rc < 0 && (r.cq.input_format != SQ_INPUT_AUTO || r.cq.db_id_from)) {
        fprintf(stderr, "squint equiv: --input-format and --db-id-from do not apply: Q1 and Q2 are one query each\n");
        rc = SQ_EXIT_USAGE;
    }
    if (rc < 0 && argc - a.i != 2) {
        fprintf(stderr, "squint equiv: expected two queries (SQL text or @FILE), got %d\n", argc - a.i);
        rc = SQ_EXIT_USAGE;
    }
    if (rc < 0 && cli_queries_start(&r.cq) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0 && realistic_has_data(&r) < 0) rc = SQ_EXIT_USAGE;
    if (rc < 0) rc = run(&r, argv + a.i);
    if (r.has_prof) sq_profile_free(&r.prof);
    cli_queries_free(&r.cq);
    return rc;
}
