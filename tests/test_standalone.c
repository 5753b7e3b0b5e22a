/*
 * test_standalone.c -- the repository stands alone (issue 19 point 1): no
 * file of it (code, Makefile, scripts, docs, test data) refers to a place
 * outside it, and every link of its Markdown pages leads to a file of the
 * repository (and to a heading of it, for a link with an anchor).  A new
 * user's clone, alone in an empty directory, builds, tests and documents
 * itself.
 *
 * The files are those git tracks (`git ls-files`), or, where git is not
 * there (an exported tree), every file under the root but .git and the
 * build outputs.  A file is text when its
 * first KiB holds no NUL byte; the others (fuzz corpora) are skipped.
 *
 * Invariant: the references refused are spelled below in pieces ("../"
 * "shared"), so this file does not refuse itself; each check is run on a
 * text broken on purpose too, so a check that stopped checking fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/util.h"
#include "support/testutil.h"

#define MAX_REPORT 40   /* findings printed in full before the count */
#define MSG 512
#define PATH_LEN 1024   /* the longest link target or path looked at */

/* What no file may contain: the folder beside the clone that held the
 * rule briefs and the perft suite, the workplace's absolute paths, and the
 * variable that pointed the tests there. */
static const char *const OUTSIDE[] = {
    "../" "shared",
    "/wo" "rk/",
    "SHA" "RED",
};

/* ---- A growing list of strings -------------------------------------------- */

typedef struct Strs {
    char **v;
    int n, cap;
} Strs;

static void strs_push(Strs *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof *l->v);
        assert_non_null(l->v);
    }
    l->v[l->n] = strdup(s);
    assert_non_null(l->v[l->n]);
    l->n++;
}

static void strs_free(Strs *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (Strs){0};
}

static void strs_pushf(Strs *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void strs_pushf(Strs *l, const char *fmt, ...)
{
    char buf[MSG];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    strs_push(l, buf);
}

/* ---- The files of the repository ------------------------------------------ */

/* The files git tracks, relative to the root (the working directory); 0
 * if git gave none. */
static int git_files(Strs *files)
{
    FILE *p = popen("git ls-files 2>/dev/null", "r");
    if (!p)
        return 0;
    char line[4096];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0])
            strs_push(files, line);
    }
    pclose(p);
    return files->n;
}

/* Not part of the tree as committed: git's own, build outputs, the
 * program. */
static int skipped_name(const char *dir, const char *name)
{
    if (strcmp(name, ".git") == 0)
        return 1;
    if (dir[0] == '\0')
        return strcmp(name, "build") == 0 || strcmp(name, "build-san") == 0 ||
               strcmp(name, "build-fuzz") == 0 || strcmp(name, "chessvar") == 0;
    size_t n = strlen(name);
    return n > 2 && name[n - 2] == '.' && (name[n - 1] == 'o' || name[n - 1] == 'd');
}

/* Every file under dir ("" for the root), relative paths. */
static void walk_files(const char *dir, Strs *files)
{
    DIR *d = opendir(dir[0] ? dir : ".");
    assert_non_null(d);
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0 ||
            skipped_name(dir, de->d_name))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s%s%s", dir, dir[0] ? "/" : "", de->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk_files(path, files);
        else if (S_ISREG(st.st_mode))
            strs_push(files, path);
    }
    closedir(d);
}

static void repo_files(Strs *files)
{
    if (!git_files(files))
        walk_files("", files);
    assert_true(files->n > 50);
}

/* Is the text (its first KiB) free of NUL bytes?  len: its length. */
static int is_text(const char *s, size_t len)
{
    return memchr(s, '\0', len < 1024 ? len : 1024) == NULL;
}

/* The file at path, with its length; NULL if it cannot be read. */
static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap + 1);
    assert_non_null(s);
    size_t got;
    while ((got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            cap *= 2;
            s = realloc(s, cap + 1);
            assert_non_null(s);
        }
    }
    fclose(f);
    s[n] = '\0';
    *len = n;
    return s;
}

/* ---- References to the outside -------------------------------------------- */

/* One finding per line of text (named name) that holds a reference of
 * OUTSIDE: "name:line: the line". */
static void check_outside(const char *name, const char *text, Strs *found)
{
    int lineno = 1;
    for (const char *p = text; *p; lineno++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        for (size_t k = 0; k < ARRAY_LEN(OUTSIDE); k++) {
            const char *at = strstr(p, OUTSIDE[k]);
            if (at && at < p + len) {
                strs_pushf(found, "%s:%d: %.*s", name, lineno, (int)(len > 200 ? 200 : len),
                           p);
                break;
            }
        }
        p += len + (nl != NULL);
    }
}

/* ---- Markdown links ------------------------------------------------------- */

/* GitHub's anchor for a heading: lower case (ASCII and the Latin-1
 * capitals of UTF-8), spaces to '-', every other character but letters,
 * digits, '-' and '_' dropped. */
static void heading_slug(const char *h, char *out, size_t n)
{
    size_t k = 0;
    for (const unsigned char *p = (const unsigned char *)h; *p && k + 3 < n; p++) {
        if (*p == ' ') {
            out[k++] = '-';
        } else if (isalnum(*p) || *p == '-' || *p == '_') {
            out[k++] = (char)tolower(*p);
        } else if (*p == 0xC3 && p[1] >= 0x80 && p[1] <= 0xBF) {
            /* À .. Þ (but ×) lower by 0x20; à .. ÿ stay */
            int upper = p[1] <= 0x9E && p[1] != 0x97;
            out[k++] = (char)*p;
            out[k++] = (char)(p[1] + (upper ? 0x20 : 0));
            p++;
        } else if (*p >= 0x80) {
            out[k++] = (char)*p; /* other non-ASCII letters kept as they are */
        }
    }
    out[k] = '\0';
}

/* Does the Markdown text have a heading whose anchor is slug? */
static int has_anchor(const char *text, const char *slug)
{
    int fenced = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "```", 3) == 0)
            fenced = !fenced;
        if (!fenced && *p == '#') {
            const char *h = p;
            while (*h == '#')
                h++;
            while (*h == ' ')
                h++;
            char *line = strndup(h, len - (size_t)(h - p));
            char s[1024];
            assert_non_null(line);
            heading_slug(line, s, sizeof s);
            free(line);
            if (strcmp(s, slug) == 0)
                return 1;
        }
        p += len + (nl != NULL);
    }
    return 0;
}

/* Is rel (a path, "a/../b" allowed) inside the repository?  Its normal
 * form into out. */
static int normal_path(const char *rel, char *out, size_t n)
{
    char buf[PATH_LEN * 2 + 8];
    snprintf(buf, sizeof buf, "%s", rel);
    char *parts[256];
    int np = 0;
    for (char *save = NULL, *t = strtok_r(buf, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0) {
            if (np == 0)
                return 0; /* above the root */
            np--;
        } else if (np < 256) {
            parts[np++] = t;
        }
    }
    out[0] = '\0';
    for (int i = 0; i < np; i++)
        snprintf(out + strlen(out), n - strlen(out), "%s%s", i ? "/" : "", parts[i]);
    return 1;
}

/* One link target of the page at name: a finding if it leaves the
 * repository, names nothing there, or names a heading the page it leads
 * to does not have. */
static void check_target(const char *name, int lineno, const char *target, Strs *found)
{
    if (strstr(target, "://") || strncmp(target, "mailto:", 7) == 0)
        return;
    char path[PATH_LEN], dir[PATH_LEN], joined[PATH_LEN * 2 + 8], norm[PATH_LEN * 2 + 8];
    snprintf(path, sizeof path, "%s", target);
    char *hash = strchr(path, '#');
    const char *anchor = hash ? hash + 1 : NULL;
    if (hash)
        *hash = '\0';
    snprintf(dir, sizeof dir, "%s", name);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        dir[0] = '\0';
    snprintf(joined, sizeof joined, "%s%s", dir, path[0] ? path : name + strlen(dir));
    struct stat st;
    if (path[0] == '/' || !normal_path(joined, norm, sizeof norm)) {
        strs_pushf(found, "%s:%d: link (%s) leads outside the repository", name, lineno, target);
        return;
    }
    if (stat(norm[0] ? norm : ".", &st) != 0) {
        strs_pushf(found, "%s:%d: link (%s): no file %s in the repository", name, lineno,
                   target, norm);
        return;
    }
    size_t n = strlen(norm);
    if (anchor && anchor[0] && n > 3 && strcmp(norm + n - 3, ".md") == 0) {
        char *page = tu_read_file(norm);
        assert_non_null(page);
        if (!has_anchor(page, anchor))
            strs_pushf(found, "%s:%d: link (%s): %s has no heading #%s", name, lineno, target,
                       norm, anchor);
        free(page);
    }
}

/* Every inline link "](target)" of a Markdown page outside code blocks
 * and code spans. */
static void check_links(const char *name, const char *text, Strs *found)
{
    int lineno = 1, fenced = 0;
    for (const char *p = text; *p; lineno++) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, "```", 3) == 0)
            fenced = !fenced;
        int code = 0;
        for (size_t i = 0; !fenced && i < len; i++) {
            if (p[i] == '`')
                code = !code;
            if (code || p[i] != ']' || i + 1 >= len || p[i + 1] != '(')
                continue;
            const char *t = p + i + 2, *end = memchr(t, ')', len - (i + 2));
            if (!end)
                continue;
            char target[PATH_LEN];
            snprintf(target, sizeof target, "%.*s", (int)(end - t), t);
            char *space = strchr(target, ' '); /* [x](path "title") */
            if (space)
                *space = '\0';
            check_target(name, lineno, target, found);
        }
        p += len + (nl != NULL);
    }
}

/* ---- The repository ------------------------------------------------------- */

static void report(const char *what, const Strs *found)
{
    if (found->n == 0)
        return;
    for (int i = 0; i < found->n && i < MAX_REPORT; i++)
        fprintf(stderr, "%s\n", found->v[i]);
    if (found->n > MAX_REPORT)
        fprintf(stderr, "... and %d more\n", found->n - MAX_REPORT);
    fail_msg("%d %s (each named above as file:line)", found->n, what);
}

/* Issue 19 point 1: no file of the repository refers to a place outside
 * it (the sibling folder of the rule briefs, absolute paths, the
 * variable that pointed the tests there). */
static void test_no_file_reaches_outside(void **state)
{
    (void)state;
    Strs files = {0}, found = {0};
    repo_files(&files);
    int texts = 0;
    for (int i = 0; i < files.n; i++) {
        size_t len = 0;
        char *s = read_all(files.v[i], &len);
        if (!s)
            fail_msg("%s: listed but cannot be read", files.v[i]);
        if (is_text(s, len)) {
            check_outside(files.v[i], s, &found);
            texts++;
        }
        free(s);
    }
    assert_true(texts > 50);
    strs_free(&files);
    report("references to places outside the repository", &found);
    strs_free(&found);
}

/* Issue 19 point 1: every link of every Markdown page leads to a file of
 * the repository, and to a heading that page has. */
static void test_doc_links_stay_inside(void **state)
{
    (void)state;
    Strs files = {0}, found = {0};
    repo_files(&files);
    int pages = 0;
    for (int i = 0; i < files.n; i++) {
        size_t n = strlen(files.v[i]);
        if (n < 4 || strcmp(files.v[i] + n - 3, ".md") != 0)
            continue;
        char *s = tu_read_file(files.v[i]);
        assert_non_null(s);
        check_links(files.v[i], s, &found);
        free(s);
        pages++;
    }
    assert_true(pages > 10);
    strs_free(&files);
    report("links that lead nowhere in the repository", &found);
    strs_free(&found);
}

/* Without git, the walk finds the same tracked files (and the files it
 * skips are build outputs). */
static void test_walk_finds_the_tracked_files(void **state)
{
    (void)state;
    Strs tracked = {0}, walked = {0};
    if (!git_files(&tracked))
        skip(); /* an exported tree: the walk is all there is */
    walk_files("", &walked);
    for (int i = 0; i < tracked.n; i++) {
        int seen = 0;
        for (int k = 0; k < walked.n && !seen; k++)
            seen = strcmp(tracked.v[i], walked.v[k]) == 0;
        if (!seen)
            fail_msg("the walk misses %s", tracked.v[i]);
    }
    strs_free(&tracked);
    strs_free(&walked);
}

/* ---- The checks catch what they are for ----------------------------------- */

static void test_checks_catch_outside_references(void **state)
{
    (void)state;
    Strs found = {0};
    check_outside("t.c", "int a;\n/* see ../" "shared/rules/tile.md */\nint b;\n", &found);
    check_outside("t.mk", "x:\n\tSHA" "RED=$(abspath ..) sh run.sh\n", &found);
    check_outside("t.md", "Rules: /wo" "rk/sha" "red/rules/echiquete.md\n", &found);
    check_outside("ok.c", "/* the rule brief, docs/RULES.md; shared by all */\n", &found);
    assert_int_equal(found.n, 3);
    assert_string_equal(found.v[0], "t.c:2: /* see ../" "shared/rules/tile.md */");
    assert_non_null(strstr(found.v[1], "t.mk:2:"));
    assert_non_null(strstr(found.v[2], "t.md:1:"));
    strs_free(&found);
}

static void test_checks_catch_broken_links(void **state)
{
    (void)state;
    Strs found = {0};
    check_links("docs/x.md",
                "[ok](RULES.md) [ok](../README.md#chessvar) [ok](RULES.md#tile-chess-tile)\n"
                "[ok](RULES.md#les-échecs-masqués-masq) [ok](https://example.org/a.md)\n"
                "`[not a link](nowhere.md)`\n"
                "```\n[not a link](nowhere.md)\n```\n"
                "[gone](../../sha" "red/rules/tile.md)\n"
                "[missing](NOPE.md)\n"
                "[no heading](RULES.md#no-such-heading)\n"
                "[absolute](/etc/passwd)\n",
                &found);
    for (int i = 0; i < found.n; i++)
        print_message("%s\n", found.v[i]);
    assert_int_equal(found.n, 4);
    assert_non_null(strstr(found.v[0], "docs/x.md:7: link (../../sha" "red/rules/tile.md) "
                                       "leads outside"));
    assert_non_null(strstr(found.v[1], "docs/x.md:8: link (NOPE.md): no file docs/NOPE.md"));
    assert_non_null(strstr(found.v[2], "has no heading #no-such-heading"));
    assert_non_null(strstr(found.v[3], "docs/x.md:10: link (/etc/passwd) leads outside"));
    strs_free(&found);
    char slug[256];
    heading_slug("L'Échiqueté (ECHQ)", slug, sizeof slug);
    assert_string_equal(slug, "léchiqueté-echq");
    heading_slug("4. Vetoes", slug, sizeof slug);
    assert_string_equal(slug, "4-vetoes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checks_catch_outside_references),
        cmocka_unit_test(test_checks_catch_broken_links),
        cmocka_unit_test(test_walk_finds_the_tracked_files),
        cmocka_unit_test(test_no_file_reaches_outside),
        cmocka_unit_test(test_doc_links_stay_inside),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
