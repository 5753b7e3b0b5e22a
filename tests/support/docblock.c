/*
 * docblock.c -- the example blocks of README.md and docs/ (see docblock.h):
 * lines, "..." matching, reading and writing a doc.
 *
 * Invariant: nothing here assumes an output; every expected line is
 * compared with real lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "docblock.h"

#define ELLIPSIS "..."
#define NOT_RUN_OPEN "<!-- not run:"
#define NOT_RUN_CLOSE "-->"

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
