/*
** graph_out.c -- `squint graph --out-dir`: file names, the check that
** only squint's own files are replaced, and the writing (see
** graph_out.h).
**
** Layer: cli.
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/graph_out.h"
#include "runtime/sha256.h"
#include "runtime/util.h"

enum { STEM_MAX = 200 };   /* bytes of a name before its suffix: far below NAME_MAX */

static char *join(const char *dir, const char *name) {
    SqBuf b = SQ_BUF_INIT;
    size_t n = strlen(dir);
    sq_buf_printf(&b, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/", name);
    return sq_buf_detach(&b);
}

/* ---- the list of squint's files ------------------------------------------ */

/* One line "HASH  NAME" of the list into o->known; -1 when it is not one. */
static int known_line(GraphOut *o, const char *line, size_t len) {
    if (len < 67 || line[64] != ' ' || line[65] != ' ') return -1;
    for (int i = 0; i < 64; i++)
        if (!strchr("0123456789abcdef", line[i]) || !line[i]) return -1;
    if (memchr(line + 66, '/', len - 66)) return -1;
    GraphOutKnown *k = NULL;
    for (size_t i = 0; i < o->n_known && !k; i++)   /* a name's last line wins */
        if (strlen(o->known[i].name) == len - 66 && memcmp(o->known[i].name, line + 66, len - 66) == 0)
            k = &o->known[i];
    if (k) {
        memcpy(k->hash, line, 64);
        return 0;
    }
    if (o->n_known == o->cap_known) {
        o->cap_known = o->cap_known ? 2 * o->cap_known : 16;
        o->known = sq_realloc(o->known, o->cap_known * sizeof *o->known);
    }
    k = &o->known[o->n_known++];
    memcpy(k->hash, line, 64);
    k->hash[64] = '\0';
    k->name = sq_strndup(line + 66, len - 66);
    return 0;
}

/* Read DIR/GRAPH_OUT_LIST when there is one: comment lines ('#') and
** "HASH  NAME" lines, nothing else. */
static int read_known(GraphOut *o, SqBuf *why) {
    char *path = join(o->dir, GRAPH_OUT_LIST);
    int rc = 0, err = 0;
    size_t len = 0;
    if (!sq_path_exists(path)) goto done;
    char *text = sq_path_is_special(path) ? NULL : sq_read_file(path, &len, &err);
    if (!text) {
        sq_buf_printf(why, "cannot read '%s': %s", path, err ? strerror(err) : "not a file");
        rc = -1;
        goto done;
    }
    for (size_t at = 0; at < len && rc == 0;) {
        size_t end = at;
        while (end < len && text[end] != '\n') end++;
        if (end > at && text[at] != '#' && known_line(o, text + at, end - at) < 0) {
            sq_buf_printf(why, "'%s' is not the list of files squint graph wrote; remove it or "
                               "choose another --out-dir", path);
            rc = -1;
        }
        at = end + 1;
    }
    free(text);
done:
    free(path);
    return rc;
}

/* The hash recorded for name, or NULL. */
static const char *known_hash(const GraphOut *o, const char *name) {
    for (size_t i = 0; i < o->n_known; i++)
        if (strcmp(o->known[i].name, name) == 0) return o->known[i].hash;
    return NULL;
}

/* Whether path holds exactly the bytes squint recorded writing as name. */
static int is_ours(const GraphOut *o, const char *path, const char *name) {
    const char *want = known_hash(o, name);
    size_t len;
    int err;
    char *text = want ? sq_read_file(path, &len, &err) : NULL;
    if (!text) return 0;
    char got[SQ_SHA256_HEX];
    sq_sha256_hex(text, len, got);
    free(text);
    return strcmp(got, want) == 0;
}

int graph_out_open(GraphOut *o, const char *dir, const char *ext, const SqOutInput *inputs,
                   size_t n_inputs, SqBuf *why) {
    memset(o, 0, sizeof *o);
    o->dir = dir;
    o->ext = ext;
    o->inputs = inputs;
    o->n_inputs = n_inputs;
    struct stat st;
    if (stat(dir, &st) < 0) {
        if (errno == ENOENT) return 0;   /* made by graph_out_commit */
        sq_buf_printf(why, "cannot use '%s': %s", dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        sq_buf_printf(why, "'%s' is there and is not a directory", dir);
        return -1;
    }
    o->dir_exists = 1;
    return read_known(o, why);
}

/* ---- names --------------------------------------------------------------- */

/* stem as a file name: safe characters only, never hidden, never empty. */
static void safe_stem(SqBuf *b, const char *stem) {
    for (size_t i = 0; stem[i] && b->len < STEM_MAX; i++) {
        unsigned char c = (unsigned char)stem[i];
        int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                   c == '-' || c == '_' || c >= 0x80 || (c == '.' && b->len > 0);
        sq_buf_putc(b, keep ? (char)c : '_');
    }
    if (b->len == 0) sq_buf_puts(b, "graph");
}

/* Whether this run already has a file called name (as a file system that
** ignores case would see it). */
static int taken(const GraphOut *o, const char *name) {
    for (size_t i = 0; i < o->n_files; i++)
        if (sq_stricmp(o->files[i].name, name) == 0) return 1;
    return sq_stricmp(name, GRAPH_OUT_LIST) == 0;
}

static char *unique_name(const GraphOut *o, const char *stem) {
    SqBuf base = SQ_BUF_INIT, name = SQ_BUF_INIT;
    safe_stem(&base, stem);
    sq_buf_printf(&name, "%s.%s", sq_buf_str(&base), o->ext);
    for (unsigned k = 2; taken(o, sq_buf_str(&name)); k++) {
        sq_buf_reset(&name);
        sq_buf_printf(&name, "%s-%u.%s", sq_buf_str(&base), k, o->ext);
    }
    sq_buf_free(&base);
    return sq_buf_detach(&name);
}

/* Whether squint may write DIR/name: a new file (never an input), or one
** it wrote, unchanged since. */
static int may_write(const GraphOut *o, const char *name, SqBuf *why) {
    if (!o->dir_exists) return 0;
    char *path = join(o->dir, name);
    int exists = sq_path_exists(path), rc;
    if (exists && !sq_path_is_special(path) && !is_ours(o, path, name)) {
        sq_buf_printf(why, "'%s' exists and squint graph did not write it (or it was changed "
                           "since); remove it or choose another --out-dir", path);
        rc = -1;
    } else {
        rc = sq_out_check(path, exists, o->inputs, o->n_inputs, why);
    }
    free(path);
    return rc;
}

int graph_out_add(GraphOut *o, const char *stem, SqBuf *content, SqBuf *why) {
    char *name = unique_name(o, stem);
    if (may_write(o, name, why) < 0) {
        free(name);
        return -1;
    }
    if (o->n_files == o->cap_files) {
        o->cap_files = o->cap_files ? 2 * o->cap_files : 16;
        o->files = sq_realloc(o->files, o->cap_files * sizeof *o->files);
    }
    GraphOutFile *f = &o->files[o->n_files++];
    f->name = name;
    f->len = content->len;
    f->data = content->len ? sq_buf_detach(content) : sq_strdup("");
    return 0;
}

/* ---- writing ------------------------------------------------------------- */

/* mkdir -p dir.  0, or -1 with errno set. */
static int make_dirs(const char *dir) {
    char *p = sq_strdup(dir);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        int last = *s == '\0';
        if (*s == '/' || last) {
            *s = '\0';
            if (mkdir(p, 0777) < 0 && errno != EEXIST) rc = -1;
            if (last) break;
            *s = '/';
        }
    }
    int e = errno;
    free(p);
    struct stat st;
    if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return 0;
    errno = rc < 0 ? e : ENOTDIR;
    return -1;
}

/* The list: the earlier runs' files this run did not write, then this
** run's, each "HASH  NAME". */
static void list_text(const GraphOut *o, SqBuf *b) {
    sq_buf_puts(b, "# the files squint graph --out-dir wrote here, with their SHA-256: it\n"
                   "# replaces only these, and only while they are unchanged\n");
    for (size_t i = 0; i < o->n_known; i++) {
        int rewritten = 0;
        for (size_t j = 0; j < o->n_files && !rewritten; j++)
            rewritten = strcmp(o->files[j].name, o->known[i].name) == 0;
        if (!rewritten) sq_buf_printf(b, "%s  %s\n", o->known[i].hash, o->known[i].name);
    }
    for (size_t i = 0; i < o->n_files; i++) {
        char hex[SQ_SHA256_HEX];
        sq_sha256_hex(o->files[i].data, o->files[i].len, hex);
        sq_buf_printf(b, "%s  %s\n", hex, o->files[i].name);
    }
}

int graph_out_commit(GraphOut *o, SqBuf *list, SqBuf *why) {
    if (make_dirs(o->dir) < 0) {
        sq_buf_printf(why, "cannot make '%s': %s", o->dir, strerror(errno));
        return -1;
    }
    if (!o->dir_exists) {   /* new: nothing in it to refuse, but never an input */
        o->dir_exists = 1;
        for (size_t i = 0; i < o->n_files; i++)
            if (may_write(o, o->files[i].name, why) < 0) return -1;
    }
    SqBuf text = SQ_BUF_INIT;
    list_text(o, &text);
    int rc = 0, err = 0;
    for (size_t i = 0; i <= o->n_files && rc == 0; i++) {
        int is_list = i == o->n_files;   /* the list last: it vouches for files written */
        char *path = join(o->dir, is_list ? GRAPH_OUT_LIST : o->files[i].name);
        const char *data = is_list ? sq_buf_str(&text) : o->files[i].data;
        size_t len = is_list ? text.len : o->files[i].len;
        if (sq_write_replace(path, data, len, &err) < 0) {
            sq_buf_printf(why, "cannot write '%s': %s", path, strerror(err));
            rc = -1;
        } else if (!is_list) {
            sq_buf_printf(list, "%s\n", path);
        }
        free(path);
    }
    sq_buf_free(&text);
    return rc;
}

void graph_out_free(GraphOut *o) {
    for (size_t i = 0; i < o->n_files; i++) {
        free(o->files[i].name);
        free(o->files[i].data);
    }
    for (size_t i = 0; i < o->n_known; i++) free(o->known[i].name);
    free(o->files);
    free(o->known);
    memset(o, 0, sizeof *o);
}
