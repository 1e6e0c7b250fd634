/*
** cmd_llm.c -- `squint llm run`: send the requests of a batch file
** (`squint prompt`'s output) to an OpenAI-compatible endpoint and keep one
** record per request in --out; `squint llm import` (llm_import.c) reads
** the replies back.
**
** The requests file is read twice: once whole before anything is sent
** (every line must be a request, every custom_id unique, so a mistake on
** line 90,000 is not found after paying for 89,999), then streamed as
** the run asks for requests.  Only the ids are held in memory, not the
** requests.  Records are appended to --out and fsync'd after each round
** of replies; a rerun skips the requests already answered there.
*/
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "backend/llm/llm.h"
#include "cli/cli.h"
#include "cli/cli_config.h"
#include "cli/llm_out.h"
#include "runtime/safewrite.h"
#include "runtime/strmap.h"
#include "runtime/util.h"

/* Bad request lines shown before the rest are only counted. */
#define MAX_LINE_ERRORS 20

static const char run_usage[] =
    "usage: squint llm run REQUESTS --endpoint URL --out FILE [options]\n"
    "\n"
    "Send each request of REQUESTS (OpenAI batch JSONL, as 'squint prompt' writes\n"
    "it) to an OpenAI-compatible chat completions API and append one record per\n"
    "request to FILE: the server's reply, or why there is none.  A request whose\n"
    "custom_id already has a record in FILE is not sent again, so a stopped run\n"
    "is resumed by running it again.  docs/llm.md says how to point squint at\n"
    "vLLM, llama.cpp, Ollama or a hosted API, and what is sent and kept.\n"
    "\n"
    "options:\n"
    "      --endpoint URL     the API's base URL, e.g. http://localhost:8000/v1\n"
    "                         (squint appends /chat/completions); required\n"
    "      --out FILE         the records file: created, or appended to when an\n"
    "                         earlier run wrote it (any other file is refused);\n"
    "                         required, never REQUESTS\n"
    "      --model M          send M as body.model instead of each request's own\n"
    "  -j, --jobs N           requests in progress at once, 1 to 1024 (default 8)\n"
    "      --cache DIR        keep each reply in DIR by the SHA-256 of its request,\n"
    "                         and answer a request from there when it is asked\n"
    "                         again (created when missing)\n"
    "      --timeout S        seconds per attempt, 0 for none (default 600)\n"
    "      --retries N        attempts after the first on a connection error, a\n"
    "                         timeout, 429 or 5xx, 0 to 100 (default 5)\n"
    "      --backoff S        seconds before the first retry, doubled each time,\n"
    "                         with jitter, unless the server sends Retry-After\n"
    "                         (default 1)\n"
    "      --backoff-max S    the longest such delay (default 60)\n"
    "      --max-reply-bytes N  a longer reply fails (default 67108864)\n"
    "      --retry-failed     send again the requests whose record in FILE says\n"
    "                         failed (a new record is appended; the last counts)\n"
    "  -q, --quiet            no progress and no summary on stderr\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "The API key is read from SQUINT_API_KEY, or else OPENAI_API_KEY, and sent only\n"
    "as the Authorization header; none is sent when both are unset.  It never\n"
    "appears in a record, a message or the cache.\n"
    "\n"
    "exit status: 0 every request of REQUESTS has an answer in FILE; 1 some failed\n"
    "(their records say why); 2 bad usage, a bad request line, or a file that\n"
    "cannot be read or written.\n" CLI_EXIT_OOM;

const CliOpt cli_opts_llm_run[] = {
    {"endpoint", 0, 1}, {"out", 0, 1},     {"model", 0, 1},       {"jobs", 'j', 1},
    {"cache", 0, 1},    {"timeout", 0, 1}, {"retries", 0, 1},     {"backoff", 0, 1},
    {"backoff-max", 0, 1}, {"max-reply-bytes", 0, 1}, {"retry-failed", 0, 0},
    {"quiet", 'q', 0},  {"help", 'h', 0},  {NULL, 0, 0},
};

typedef struct LlmRun {
    SqLlmConfig cfg;
    const char *requests, *out, *model;
    int retry_failed, quiet;
    SqStrMap *answers;          /* custom_id -> LLM_ANSWER_* of --out */
    FILE *in;                   /* the requests, streamed */
    long lineno;
    char *line;
    size_t line_cap;
    int fd;                     /* --out, appended to */
    SqBuf pending;              /* records not yet written */
    size_t n_requests, n_before, n_failed_before, n_ok, n_failed, n_cached;
    int64_t prompt_tokens, completion_tokens;
    CliProgress progress;
    int read_error;
} LlmRun;

/* ---- options ------------------------------------------------------------ */

static int parse_option(LlmRun *r, const char *name, const char *val) {
    long n;
    int rc = -1;
    if (strcmp(name, "endpoint") == 0) r->cfg.endpoint = val;
    else if (strcmp(name, "out") == 0) r->out = val;
    else if (strcmp(name, "model") == 0) r->model = val;
    else if (strcmp(name, "cache") == 0) r->cfg.cache_dir = val;
    else if (strcmp(name, "retry-failed") == 0) r->retry_failed = 1;
    else if (strcmp(name, "quiet") == 0) r->quiet = 1;
    else if (strcmp(name, "timeout") == 0) rc = cli_parse_seconds("llm", "--timeout", val, &r->cfg.timeout);
    else if (strcmp(name, "backoff") == 0) rc = cli_parse_seconds("llm", "--backoff", val, &r->cfg.backoff);
    else if (strcmp(name, "backoff-max") == 0)
        rc = cli_parse_seconds("llm", "--backoff-max", val, &r->cfg.backoff_max);
    else if (strcmp(name, "jobs") == 0) {
        if ((rc = cli_parse_count("llm", "--jobs", val, 1, 1024, &n)) < 0) r->cfg.jobs = (int)n;
    } else if (strcmp(name, "retries") == 0) {
        if ((rc = cli_parse_count("llm", "--retries", val, 0, 100, &n)) < 0) r->cfg.retries = (int)n;
    } else if (strcmp(name, "max-reply-bytes") == 0) {
        if ((rc = cli_parse_count("llm", "--max-reply-bytes", val, 1024, 1L << 40, &n)) < 0)
            r->cfg.max_reply = (size_t)n;
    }
    return rc;
}

static int read_options(LlmRun *r, int argc, char **argv) {
    CliArgs a;
    cli_args_init(&a, argc, argv, "llm run");
    const char *name, *val;
    while ((name = cli_next_opt(&a, cli_opts_llm_run, &val))) {
        if (strcmp(name, "?") == 0) return SQ_EXIT_USAGE;
        if (strcmp(name, "help") == 0) {
            fputs(run_usage, stdout);
            cli_help_common(stdout, cli_opts_llm_run, 0);
            return SQ_EXIT_OK;
        }
        int rc = parse_option(r, name, val);
        if (rc >= 0) return rc;
    }
    if (a.i + 1 != a.argc) {
        fprintf(stderr, "squint llm run: %s\n%s", a.i < a.argc ? "one REQUESTS file, please" : "no REQUESTS file",
                "try 'squint llm run --help'\n");
        return SQ_EXIT_USAGE;
    }
    r->requests = a.argv[a.i];
    const char *missing = !r->cfg.endpoint ? "--endpoint" : !r->out ? "--out" : NULL;
    if (missing) {
        fprintf(stderr, "squint llm run: %s is required\ntry 'squint llm run --help'\n", missing);
        return SQ_EXIT_USAGE;
    }
    return -1;
}

int cli_llm_key(const char *cmd, const char **key) {
    const char *from = "SQUINT_API_KEY";
    *key = getenv(from);
    if (!*key || !**key) *key = getenv(from = "OPENAI_API_KEY");
    if (!*key || !**key) {
        *key = NULL;
        return -1;
    }
    SqBuf why = SQ_BUF_INIT;
    int bad = sq_llm_key_check(*key, &why) < 0;
    if (bad) fprintf(stderr, "squint %s: %s: %s\n", cmd, from, why.data);
    sq_buf_free(&why);
    if (bad) return SQ_EXIT_USAGE;
    prctl(PR_SET_DUMPABLE, 0);   /* no core dump of a process that holds the key */
    return -1;
}

/* ---- the requests file -------------------------------------------------- */

/* The next line that is not blank, or NULL at the end (*n its length
** without the newline). */
static const char *next_line(LlmRun *r, size_t *n) {
    ssize_t got;
    while ((got = getline(&r->line, &r->line_cap, r->in)) > 0) {
        r->lineno++;
        size_t len = (size_t)got;
        if (r->line[len - 1] == '\n') len--;
        if (sq_llm_blank_line(r->line, len)) continue;
        *n = len;
        return r->line;
    }
    if (ferror(r->in)) r->read_error = errno ? errno : EIO;
    return NULL;
}

static int open_requests(LlmRun *r) {
    r->in = fopen(r->requests, "rb");
    if (!r->in) {
        cli_io_error("llm run", r->requests, errno);
        return SQ_EXIT_USAGE;
    }
    r->lineno = 0;
    return -1;
}

/* Read every request once: each must parse, each custom_id be new.  The
** count of requests, and of those already answered, is kept.  -1 to go
** on, or 2 after the messages. */
static int check_requests(LlmRun *r) {
    int rc = open_requests(r);
    if (rc >= 0) return rc;
    SqStrMap *seen = sq_strmap_new();
    size_t n, bad = 0;
    const char *line;
    while ((line = next_line(r, &n))) {
        SqBuf why = SQ_BUF_INIT;
        SqLlmRequest *req = sq_llm_request_parse(line, n, r->model, &why);
        int is_new = 1;
        if (req) sq_strmap_put(seen, req->custom_id, &is_new);
        if (req && !is_new) sq_buf_printf(&why, "custom_id '%s' is used again", req->custom_id);
        if ((!req || !is_new) && bad++ < MAX_LINE_ERRORS)
            fprintf(stderr, "squint llm run: %s:%ld: %s\n", r->requests, r->lineno, why.data);
        if (req && is_new) {
            int *a = sq_strmap_get(r->answers, req->custom_id);
            r->n_requests++;
            if (a && *a == LLM_ANSWER_OK) r->n_before++;
            if (a && *a == LLM_ANSWER_FAILED) r->n_failed_before++;
        }
        sq_buf_free(&why);
        sq_llm_request_free(req);
    }
    sq_strmap_free(seen);
    if (r->read_error) cli_io_error("llm run", r->requests, r->read_error);
    if (bad > MAX_LINE_ERRORS) fprintf(stderr, "squint llm run: ... %zu bad lines in all\n", bad);
    if (bad) fprintf(stderr, "squint llm run: nothing was sent\n");
    fclose(r->in);
    r->in = NULL;
    return bad || r->read_error ? SQ_EXIT_USAGE : -1;
}

/* Whether a request is to be sent: it has no record, or a failed one
** and --retry-failed. */
static int to_send(const LlmRun *r, const char *id) {
    int *a = sq_strmap_get(r->answers, id);
    return !a || (*a == LLM_ANSWER_FAILED && r->retry_failed);
}

/* ---- the run's callbacks ------------------------------------------------ */

static SqLlmRequest *next_request(void *ctx, int *stop) {
    LlmRun *r = ctx;
    size_t n;
    const char *line;
    while ((line = next_line(r, &n))) {
        SqBuf why = SQ_BUF_INIT;
        SqLlmRequest *req = sq_llm_request_parse(line, n, r->model, &why);
        sq_buf_free(&why);
        if (!req) {   /* the file changed since it was checked */
            fprintf(stderr, "squint llm run: %s:%ld: the line changed during the run\n", r->requests, r->lineno);
            *stop = 1;
            return NULL;
        }
        if (to_send(r, req->custom_id)) return req;
        sq_llm_request_free(req);
    }
    if (r->read_error) {
        cli_io_error("llm run", r->requests, r->read_error);
        *stop = 1;
    }
    return NULL;
}

static void request_done(void *ctx, const SqLlmOutcome *o) {
    LlmRun *r = ctx;
    sq_llm_record(&r->pending, o, r->cfg.api_key);
    if (o->status == SQ_LLM_OK) r->n_ok++;
    else r->n_failed++;
    r->n_cached += o->cached;
    if (o->prompt_tokens > 0) r->prompt_tokens += o->prompt_tokens;
    if (o->completion_tokens > 0) r->completion_tokens += o->completion_tokens;
    r->progress.n_done++;
}

static int flush_records(void *ctx) {
    LlmRun *r = ctx;
    if (!r->pending.len) return 0;
    if (cli_append_synced(r->fd, r->pending.data, r->pending.len) < 0) {
        fprintf(stderr, "squint llm run: cannot write '%s': %s\n", r->out, strerror(errno));
        return -1;
    }
    sq_buf_reset(&r->pending);
    return 0;
}

static void tick(void *ctx, size_t sending, size_t waiting) {
    LlmRun *r = ctx;
    char brief[160];
    snprintf(brief, sizeof brief, "%zu failed, %zu sending, %zu waiting to retry; tokens %" PRId64 " in, %" PRId64 " out",
             r->n_failed, sending, waiting, r->prompt_tokens, r->completion_tokens);
    cli_progress(&r->progress, 0, brief);
}

/* ---- the command -------------------------------------------------------- */

/* --out: not REQUESTS, a records file of ours or new; its answers read
** and the file opened for appending.  -1 to go on, or 2. */
static int open_out(LlmRun *r) {
    SqOutInput in[1] = {{r->requests, "REQUESTS"}};
    if (sq_out_input_of(r->out, in, 1) || sq_path_is_special(r->out)) {
        fprintf(stderr, "squint llm run: --out: '%s' is %s; name another file\n", r->out,
                sq_path_is_special(r->out) ? "not a regular file" : "REQUESTS itself");
        return SQ_EXIT_USAGE;
    }
    if (llm_out_read("llm run", r->out, r->answers) < 0) return SQ_EXIT_USAGE;
    r->fd = open(r->out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (r->fd < 0) {
        fprintf(stderr, "squint llm run: cannot write '%s': %s\n", r->out, strerror(errno));
        return SQ_EXIT_USAGE;
    }
    return -1;
}

static int open_cache(LlmRun *r) {
    int err;
    if (!r->cfg.cache_dir || sq_llm_cache_open(r->cfg.cache_dir, &err) == 0) return -1;
    fprintf(stderr, "squint llm run: --cache: cannot use '%s': %s\n", r->cfg.cache_dir, strerror(err));
    return SQ_EXIT_USAGE;
}

static void summary(LlmRun *r, double seconds) {
    char brief[200];
    snprintf(brief, sizeof brief, "%zu failed; tokens %" PRId64 " in, %" PRId64 " out", r->n_failed,
             r->prompt_tokens, r->completion_tokens);
    cli_progress(&r->progress, 1, brief);
    if (r->quiet) return;
    size_t failed_left = r->retry_failed ? 0 : r->n_failed_before;
    fprintf(stderr,
            "squint llm run: %zu requests in %s: %zu answered now (%zu from the cache), %zu failed, %zu answered "
            "before; %.1f s\n",
            r->n_requests, r->requests, r->n_ok, r->n_cached, r->n_failed, r->n_before, seconds);
    if (failed_left)
        fprintf(stderr, "squint llm run: %zu requests failed in an earlier run and were not sent again "
                        "(--retry-failed sends them)\n", failed_left);
}

static int send_all(LlmRun *r) {
    int rc = open_requests(r);
    if (rc >= 0) return rc;
    size_t todo = r->n_requests - r->n_before - (r->retry_failed ? 0 : r->n_failed_before);
    r->progress = (CliProgress){.cmd = "squint llm run", .unit = "requests", .quiet = r->quiet, .n_todo = todo};
    cli_progress_start(&r->progress);
    double t0 = sq_monotonic_seconds();
    SqLlmCallbacks cb = {r, next_request, request_done, flush_records, tick};
    SqBuf err = SQ_BUF_INIT;
    int failed_run = sq_llm_run(&r->cfg, &cb, &err) < 0;
    if (failed_run && strcmp(sq_buf_str(&err), "stopped") != 0)
        fprintf(stderr, "squint llm run: %s\n", err.data);
    sq_buf_free(&err);
    summary(r, sq_monotonic_seconds() - t0);
    if (failed_run) return SQ_EXIT_USAGE;
    return r->n_failed || (!r->retry_failed && r->n_failed_before) ? SQ_EXIT_FINDINGS : SQ_EXIT_OK;
}

static int llm_run(int argc, char **argv) {
    LlmRun r = {.cfg = {.jobs = 8, .timeout = 600, .retries = 5, .backoff = 1, .backoff_max = 60,
                        .seed = 1, .max_reply = (size_t)64 << 20},
                .fd = -1};
    r.answers = sq_strmap_new();
    int rc = read_options(&r, argc, argv);
    if (rc < 0) rc = cli_llm_key("llm run", &r.cfg.api_key);
    if (rc < 0) rc = open_out(&r);
    if (rc < 0) rc = check_requests(&r);
    if (rc < 0) rc = open_cache(&r);
    if (rc < 0) rc = send_all(&r);
    if (r.in) fclose(r.in);
    if (r.fd >= 0) close(r.fd);
    free(r.line);
    sq_buf_free(&r.pending);
    sq_strmap_free(r.answers);
    return rc;
}

/* ---- squint llm ---------------------------------------------------------- */

static const char llm_usage[] =
    "usage: squint llm run REQUESTS --endpoint URL --out FILE [options]\n"
    "       squint llm import TASK RECORDS [--out FILE]\n"
    "\n"
    "A client of OpenAI-compatible chat completions APIs (docs/llm.md).\n"
    "\n"
    "commands:\n"
    "  run      send the requests of a batch file, keep one record per request\n"
    "  import   read the replies of those records into the fields of their task\n"
    "\n"
    "'squint llm COMMAND --help' describes each.\n"
    "\n"
    "options:\n"
    "  -h, --help             show this help\n"
    "      --version          print the version and exit\n"
    "\n"
    "exit status: the command's (0 all done, 1 some requests failed or replies\n"
    "were rejected); 2 bad usage or an unknown command.\n" CLI_EXIT_OOM;

int cmd_llm(int argc, char **argv) {
    const char *sub = argc > 1 ? argv[1] : NULL;
    if (sub && (strcmp(sub, "--help") == 0 || strcmp(sub, "-h") == 0)) {
        fputs(llm_usage, stdout);
        return SQ_EXIT_OK;
    }
    if (sub && strcmp(sub, "--version") == 0) return cli_version();
    if (sub && strcmp(sub, "run") == 0) return llm_run(argc - 1, argv + 1);
    if (sub && strcmp(sub, "import") == 0) return llm_import(argc - 1, argv + 1);
    if (sub) fprintf(stderr, "squint llm: no command '%s' (there are run and import)\n", sub);
    else fputs("squint llm: a command is needed (run or import)\n", stderr);
    fputs("try 'squint llm --help'\n", stderr);
    return SQ_EXIT_USAGE;
}
