/*
 * docblock.c -- the example blocks of README.md and docs/ (see docblock.h):
 * lines, "..." matching, reading and writing a doc, and the check of a
 * bench's quoted output.
 *
 * Invariant: nothing here assumes an output; every expected line is
 * compared with real lines, and only bench_line_key's narrow rule lets a
 * character differ.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docblock.h"

#define ELLIPSIS "..."
#define NOT_RUN_OPEN "<!-- not run:"
#define NOT_RUN_CLOSE "-->"
#define BENCH_DOC "docs/EXPERIMENTS.md"

static void *grow(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "docblock: out of memory\n");
        abort();
    }
    return p;
}

/* ---- Lines of text -------------------------------------------------------- */

void lines_push(Lines *l, const char *s, size_t len)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = grow(l->v, (size_t)l->cap * sizeof *l->v);
    }
    char *c = grow(NULL, len + 1);
    memcpy(c, s, len);
    c[len] = '\0';
    l->v[l->n++] = c;
}

void lines_free(Lines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (Lines){0};
}

int lines_split(Lines *l, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        lines_push(l, p, len);
        p += len + (nl != NULL);
        if (!nl)
            return 0;
    }
    return 1;
}

int is_ellipsis(const char *s)
{
    return strcmp(s, ELLIPSIS) == 0;
}

int count_ellipses(char *const *e, int ne)
{
    int k = 0;
    for (int i = 0; i < ne; i++)
        k += is_ellipsis(e[i]);
    return k;
}

/* Greedy with backtracking to the last "...", as for '*' in a glob. */
int lines_match(char *const *e, int ne, char *const *a, int na)
{
    int i = 0, j = 0, star = -1, mark = 0;
    while (j < na) {
        if (i < ne && is_ellipsis(e[i])) {
            star = i++;
            mark = j;
        } else if (i < ne && strcmp(e[i], a[j]) == 0) {
            i++;
            j++;
        } else if (star >= 0) {
            i = star + 1;
            j = ++mark;
        } else {
            return 0;
        }
    }
    while (i < ne && is_ellipsis(e[i]))
        i++;
    return i == ne;
}

int lines_first_diff(char *const *e, int ne, char *const *a, int na, int *ei, int *ai)
{
    int i = 0;
    for (; i < ne && !is_ellipsis(e[i]); i++)
        if (i >= na || strcmp(e[i], a[i]) != 0)
            break;
    if (i < ne && !is_ellipsis(e[i])) {
        *ei = i;
        *ai = i < na ? i : -1;
        return 1;
    }
    if (i == ne) { /* no "..." and every expected line matched: extra lines */
        *ei = -1;
        *ai = i < na ? i : -1;
        return i < na;
    }
    for (int k = 1; k <= ne && !is_ellipsis(e[ne - k]); k++)
        if (k > na - i || strcmp(e[ne - k], a[na - k]) != 0) {
            *ei = ne - k;
            *ai = k <= na - i ? na - k : -1;
            return 1;
        }
    *ei = *ai = -1;
    return 0;
}

int lines_update(char *const *e, int ne, char *const *a, int na, Lines *out)
{
    if (lines_match(e, ne, a, na)) {
        for (int i = 0; i < ne; i++)
            lines_push(out, e[i], strlen(e[i]));
        return 0;
    }
    int k = count_ellipses(e, ne);
    if (k > 1)
        return -1;
    int head = 0;
    while (k && !is_ellipsis(e[head]))
        head++;
    int tail = k ? ne - head - 1 : 0;
    if (!k || na <= head + tail) { /* too short to elide anything */
        for (int j = 0; j < na; j++)
            lines_push(out, a[j], strlen(a[j]));
        return 0;
    }
    for (int j = 0; j < head; j++)
        lines_push(out, a[j], strlen(a[j]));
    lines_push(out, ELLIPSIS, strlen(ELLIPSIS));
    for (int j = na - tail; j < na; j++)
        lines_push(out, a[j], strlen(a[j]));
    return 0;
}

/* ---- A doc file ----------------------------------------------------------- */

void doc_from_text(Doc *d, const char *path, const char *text)
{
    *d = (Doc){0};
    snprintf(d->path, sizeof d->path, "%s", path);
    d->final_newline = lines_split(&d->lines, text);
}

int doc_load(Doc *d, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char *text = NULL;
    size_t len = 0, n;
    char chunk[8192];
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        text = grow(text, len + n + 1);
        memcpy(text + len, chunk, n);
        len += n;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return -1;
    }
    doc_from_text(d, path, text ? (text[len] = '\0', text) : "");
    free(text);
    return 0;
}

int doc_write(const Doc *d)
{
    char tmp[sizeof d->path + 8];
    snprintf(tmp, sizeof tmp, "%s.new", d->path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return -1;
    for (int i = 0; i < d->lines.n; i++)
        fprintf(f, "%s%s", d->lines.v[i], i + 1 < d->lines.n || d->final_newline ? "\n" : "");
    if (fclose(f) != 0 || rename(tmp, d->path) != 0)
        return -1;
    return 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int is_fence(const char *s)
{
    return starts_with(s, "```");
}

int is_command(const char *s)
{
    return starts_with(s, "$ ");
}

int is_not_run_mark(const Doc *d, int i)
{
    if (i < 0)
        return 0;
    const char *s = d->lines.v[i];
    size_t n = strlen(s), a = strlen(NOT_RUN_OPEN), z = strlen(NOT_RUN_CLOSE);
    if (!starts_with(s, NOT_RUN_OPEN) || n < a + z || strcmp(s + n - z, NOT_RUN_CLOSE) != 0)
        return 0;
    for (size_t k = a; k < n - z; k++)
        if (s[k] != ' ')
            return 1;
    return 0;
}

/* ---- A bench's quoted output ----------------------------------------------- */

char *bench_line_key(const char *s)
{
    size_t n = strlen(s);
    char *k = grow(NULL, n + 1);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        int starts = isdigit((unsigned char)s[i]) &&
                     (i == 0 || !(isalnum((unsigned char)s[i - 1]) || s[i - 1] == '.'));
        size_t j = i;
        while (starts && j < n && (isdigit((unsigned char)s[j]) || s[j] == '.'))
            j++;
        int seconds = starts && strncmp(s + j, " s", 2) == 0 && !isalpha((unsigned char)s[j + 2]);
        int workers = starts && strncmp(s + j, " workers", 8) == 0;
        int jobs = starts && i >= 7 && strncmp(s + i - 7, "--jobs ", 7) == 0;
        if (seconds || workers || jobs) {
            k[o++] = '#';
            i = j;
        } else {
            k[o++] = s[i++];
        }
    }
    k[o] = '\0';
    return k;
}

/* The session of d whose command line is "$ command": its line, or -1;
 * its expected lines [*b, *e). */
static int find_session(const Doc *d, const char *command, int *b, int *e)
{
    for (int i = 0; i < d->lines.n; i++) {
        if (!is_fence(d->lines.v[i]))
            continue;
        int close = i + 1;
        while (close < d->lines.n && !is_fence(d->lines.v[close]))
            close++;
        for (int c = i + 1; c < close && is_command(d->lines.v[c]); c = *e) {
            for (*e = c + 1; *e < close && !is_command(d->lines.v[*e]); ++*e)
                ;
            if (strcmp(d->lines.v[c] + 2, command) == 0) {
                *b = c + 1;
                return c;
            }
        }
        i = close;
    }
    return -1;
}

static void keys_of(Lines *keys, char *const *v, int n)
{
    for (int i = 0; i < n; i++) {
        char *k = bench_line_key(v[i]);
        lines_push(keys, k, strlen(k));
        free(k);
    }
}

/* "  docs  line 433: TEXT" (i a 0-based index into v, -1: the end). */
static void say_line(FILE *msg, const char *who, char *const *v, int i, int base)
{
    if (i < 0)
        fprintf(msg, "  %-6s (end of the output)\n", who);
    else
        fprintf(msg, "  %-6s line %d: %s\n", who, base + i + 1, v[i]);
}

/* Doc lines [b, e) become with. */
static void doc_replace(Doc *d, int b, int e, const Lines *with)
{
    Lines out = {0};
    for (int i = 0; i < b; i++)
        lines_push(&out, d->lines.v[i], strlen(d->lines.v[i]));
    for (int i = 0; i < with->n; i++)
        lines_push(&out, with->v[i], strlen(with->v[i]));
    for (int i = e; i < d->lines.n; i++)
        lines_push(&out, d->lines.v[i], strlen(d->lines.v[i]));
    lines_free(&d->lines);
    d->lines = out;
    d->changed = 1;
}

int bench_doc_compare(Doc *d, const char *command, const char *output, int required,
                      int update, FILE *msg)
{
    int b, e, at = find_session(d, command, &b, &e);
    if (at < 0) {
        fprintf(msg, "%s quotes no output of `%s`%s\n", d->path, command,
                required ? " (a fenced block \"$ COMMAND\" then its output): it must"
                         : ": not compared");
        return required;
    }
    Lines a = {0}, ka = {0}, ke = {0};
    lines_split(&a, output);
    keys_of(&ka, a.v, a.n);
    keys_of(&ke, d->lines.v + b, e - b);
    int rc = 0;
    if (lines_match(ke.v, ke.n, ka.v, ka.n)) {
        fprintf(msg, "%s quotes this output: the same\n", d->path);
    } else {
        int ei, ai, where = lines_first_diff(ke.v, ke.n, ka.v, ka.n, &ei, &ai);
        Lines with = {0};
        if (update && lines_update(d->lines.v + b, e - b, a.v, a.n, &with) == 0) {
            doc_replace(d, b, e, &with);
            fprintf(msg, "%s quotes this output: rewritten (CHESSVAR_DOCS_UPDATE=1), "
                         "review the diff\n", d->path);
        } else {
            fprintf(msg, "%s quotes this output (%s:%d): it differs%s\n", d->path, d->path,
                    at + 1, update ? ", and the block has several \"...\" lines: edit it "
                                     "by hand" : "");
            if (where) {
                say_line(msg, "docs", d->lines.v + b, ei, b);
                if (ai < 0)
                    fprintf(msg, "  %-6s (end of the output)\n", "bench");
                else
                    fprintf(msg, "  %-6s line %d of the output: %s\n", "bench", ai + 1, a.v[ai]);
            } else {
                fprintf(msg, "  the lines between its \"...\" lines are not found in that "
                             "order\n");
            }
            if (!update)
                fprintf(msg, "(only a number of seconds, of workers or after --jobs may "
                             "differ; CHESSVAR_DOCS_UPDATE=1 rewrites the block: review the "
                             "diff)\n");
            rc = 1;
        }
        lines_free(&with);
    }
    lines_free(&a);
    lines_free(&ka);
    lines_free(&ke);
    return rc;
}

int bench_docs_check(const char *command, const char *output, int required)
{
    const char *path = getenv("CHESSVAR_BENCH_DOC");
    const char *u = getenv("CHESSVAR_DOCS_UPDATE");
    Doc d;
    if (!path || !*path)
        path = BENCH_DOC;
    if (doc_load(&d, path) != 0) {
        printf("%s: cannot read: %s (run from the repository root)\n", path, strerror(errno));
        return 1;
    }
    int rc = bench_doc_compare(&d, command, output, required, u && strcmp(u, "1") == 0,
                               stdout);
    if (d.changed && doc_write(&d) != 0) {
        printf("%s: cannot write: %s\n", path, strerror(errno));
        rc = 1;
    }
    lines_free(&d.lines);
    return rc;
}
