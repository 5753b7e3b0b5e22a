/*
 * test_docs.c -- every example session in README.md and the .md files of
 * docs/ is the real output of the program (env CHESSVAR): the docs cannot
 * drift from it.
 *
 * A session is a fenced code block whose first line starts with "$ ".
 * Each "$ " line is a command (one line, no continuation); the lines after
 * it, up to the next "$ " line or the end of the block, are its expected
 * standard output, compared exactly, except that a line "..." matches any
 * number of lines (zero or more).  The commands of a session run in order
 * with `sh -c` in one fresh temporary directory, removed afterwards (a
 * `save` then a `--load` works), with:
 *   - the directory of $CHESSVAR first in PATH: the docs say `chessvar`;
 *   - NO_COLOR=1, standard input from /dev/null (a command pipes its own
 *     input with printf);
 *   - `scripts` in the directory: a link to the repository's scripts/
 *     (the house rules), so a session says `--rules scripts/...`; and
 *     `lessons`, a link to lessons/ (`chessvar learn` reads it).
 * Only standard output is compared: a command shows its errors with 2>&1.
 * The exit status is not compared (a session shows it with `; echo $?`),
 * but a command killed by a signal, running over 60 s or reporting a
 * sanitizer error on standard error fails.
 *
 * A session is skipped only when the line before its fence is
 * "<!-- not run: REASON -->" (`make ...`, long commands: keep it rare; the
 * benches whose output docs/EXPERIMENTS.md quotes check their own block
 * when `make bench` runs them, tests/support/docblock.h).
 * A "$ " line inside a block that is not a session, and a "not run" mark
 * before a block that is not a session, are errors.
 *
 * Update mode: `CHESSVAR_DOCS_UPDATE=1 make test` rewrites the expected
 * outputs in the .md files with the actual ones, after a deliberate change
 * of output; review the diff.  An output with one "..." line keeps as many
 * lines before and after it as it had; one with several "..." lines is
 * refused (and fails) unless it still matches.
 *
 * The blocks' lines, "..." matching and the doc files are
 * tests/support/docblock.c's, shared with those benches.
 *
 * Invariant: a doc file is written only in update mode and only its
 * expected-output lines change; every expected line is compared with the
 * program's real output, never assumed.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "support/docblock.h"
#include "support/testutil.h"

#define CMD_TIMEOUT_MS 60000

/* ---- Growing buffers and files ------------------------------------------- */

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* Remove dir and everything under it. */
static void dir_remove(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *de;
        while ((de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char p[PATH_MAX];
            snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
                dir_remove(p);
            else
                unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* ---- A doc file ----------------------------------------------------------- */

static void doc_save(const Doc *d)
{
    if (doc_write(d) != 0)
        fail_msg("%s: cannot write: %s", d->path, strerror(errno));
}

/* ---- Running commands ----------------------------------------------------- */

typedef struct Ctx {
    char bindir[PATH_MAX]; /* the directory of $CHESSVAR */
    int update;            /* CHESSVAR_DOCS_UPDATE=1 */
    int quiet;             /* do not print failures (the self-tests) */
    int sessions, skipped, commands, failures, updated;
    char last_dir[PATH_MAX]; /* the last session's temporary directory */
} Ctx;

typedef struct Output {
    Buf out, err;
    int status;    /* exit status, -1 if it did not exit */
    int timed_out;
} Output;

static void output_free(Output *o)
{
    free(o->out.s);
    free(o->err.s);
}

static void child_exec(const char *cmd, const char *dir, const Ctx *c,
                       int out, int err)
{
    setpgid(0, 0);
    int null = open("/dev/null", O_RDONLY);
    if (null < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 ||
        chdir(dir) != 0)
        _exit(127);
    const char *path = getenv("PATH");
    char newpath[2 * PATH_MAX + 8];
    snprintf(newpath, sizeof newpath, "%s:%s", c->bindir,
             path ? path : "/usr/bin:/bin");
    setenv("PATH", newpath, 1);
    setenv("NO_COLOR", "1", 1);
    unsetenv("CHESSVAR_DOCS_UPDATE");
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
}

static long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Read both pipes to their ends (or the deadline); returns 0 on timeout. */
static int pipes_drain(int fdo, int fde, Output *o, long deadline)
{
    struct pollfd p[2] = {{.fd = fdo, .events = POLLIN},
                          {.fd = fde, .events = POLLIN}};
    Buf *dst[2] = {&o->out, &o->err};
    int open_fds = 2;
    while (open_fds > 0) {
        long left = deadline - now_ms();
        if (left <= 0 || poll(p, 2, (int)left) == 0)
            return 0;
        for (int k = 0; k < 2; k++) {
            if (p[k].fd < 0 || !p[k].revents)
                continue;
            char chunk[4096];
            ssize_t n = read(p[k].fd, chunk, sizeof chunk);
            if (n > 0) {
                buf_add(dst[k], chunk, (size_t)n);
            } else if (n == 0 || errno != EINTR) {
                p[k].fd = -1;
                open_fds--;
            }
        }
    }
    return 1;
}

static void command_run(const char *cmd, const char *dir, const Ctx *c,
                        Output *o)
{
    *o = (Output){0};
    buf_add(&o->out, "", 0);
    buf_add(&o->err, "", 0);
    int po[2], pe[2];
    assert_int_equal(pipe(po), 0);
    assert_int_equal(pipe(pe), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(po[0]);
        close(pe[0]);
        child_exec(cmd, dir, c, po[1], pe[1]);
    }
    close(po[1]);
    close(pe[1]);
    if (!pipes_drain(po[0], pe[0], o, now_ms() + CMD_TIMEOUT_MS)) {
        o->timed_out = 1;
        kill(-pid, SIGKILL);
    }
    close(po[0]);
    close(pe[0]);
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ---- Checking sessions ---------------------------------------------------- */

static void print_lines(const char *title, char *const *v, int n)
{
    fprintf(stderr, "--- %s (%d line%s)\n", title, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        fprintf(stderr, "%s\n", v[i]);
}

/* "  expected line 3: TEXT", or "(end of output)" for index -1. */
static void print_diff_line(const char *title, char *const *v, int i)
{
    if (i < 0)
        fprintf(stderr, "  %-8s (end of output)\n", title);
    else
        fprintf(stderr, "  %-8s line %d: %s\n", title, i + 1, v[i]);
}

static const char *sanitizer_report(const char *err)
{
    const char *marks[] = {"Sanitizer", "runtime error:"};
    for (size_t k = 0; k < sizeof marks / sizeof *marks; k++)
        if (strstr(err, marks[k]))
            return marks[k];
    return NULL;
}

static void report_failure(const Doc *d, int line, const char *why,
                           char *const *e, int ne, const Lines *a,
                           const Output *o, Ctx *c)
{
    c->failures++;
    if (c->quiet)
        return;
    fprintf(stderr, "\n%s:%d: %s\n%s\n", d->path, line + 1, d->lines.v[line],
            why);
    print_lines("expected", e, ne);
    print_lines("actual", a->v, a->n);
    int ei, ai;
    if (lines_first_diff(e, ne, a->v, a->n, &ei, &ai)) {
        fprintf(stderr, "--- first difference:\n");
        print_diff_line("expected", e, ei);
        print_diff_line("actual", a->v, ai);
    } else
        fprintf(stderr, "--- the lines between the \"...\" lines are not "
                        "found in that order\n");
    if (o && o->err.len)
        fprintf(stderr, "--- standard error\n%s", o->err.s);
}

/* Doc lines [begin, end) become new ones; later commands of the doc keep
 * their original indices because replacements are applied afterwards. */
typedef struct Replace {
    int begin, end;
    Lines with;
} Replace;

typedef struct Replaces {
    Replace *v;
    int n;
} Replaces;

static void replaces_add(Replaces *r, int begin, int end, Lines with)
{
    r->v = realloc(r->v, (size_t)(r->n + 1) * sizeof *r->v);
    assert_non_null(r->v);
    r->v[r->n++] = (Replace){begin, end, with};
}

static void replaces_apply(Doc *d, Replaces *r)
{
    Lines out = {0};
    int i = 0;
    for (int k = 0; k < r->n; k++) {
        for (; i < r->v[k].begin; i++)
            lines_push(&out, d->lines.v[i], strlen(d->lines.v[i]));
        for (int j = 0; j < r->v[k].with.n; j++)
            lines_push(&out, r->v[k].with.v[j], strlen(r->v[k].with.v[j]));
        i = r->v[k].end;
        lines_free(&r->v[k].with);
    }
    for (; i < d->lines.n; i++)
        lines_push(&out, d->lines.v[i], strlen(d->lines.v[i]));
    lines_free(&d->lines);
    d->lines = out;
    free(r->v);
    *r = (Replaces){0};
}

/* In update mode: replace the expected lines [b, e) of d with the output. */
static int command_update(const Doc *d, int line, int b, int e,
                          const Lines *a, Ctx *c, Replaces *r)
{
    Lines with = {0};
    char *const *exp = d->lines.v + b;
    if (lines_update(exp, e - b, a->v, a->n, &with) != 0) {
        report_failure(d, line, "cannot update: the expected output has "
                                "several \"...\" lines; edit it by hand",
                       exp, e - b, a, NULL, c);
        return -1;
    }
    if (!c->quiet)
        fprintf(stderr, "updated %s:%d: %s\n", d->path, line + 1,
                d->lines.v[line]);
    c->updated++;
    replaces_add(r, b, e, with);
    return 0;
}

/* Run the command on line `line` of d; its expected output is [b, e). */
static void command_check(const Doc *d, int line, int b, int e,
                          const char *dir, Ctx *c, Replaces *r)
{
    Output o;
    command_run(d->lines.v[line] + 2, dir, c, &o);
    c->commands++;
    Lines a = {0};
    lines_split(&a, o.out.s);
    char *const *exp = d->lines.v + b;
    const char *san = sanitizer_report(o.err.s);
    if (o.timed_out || o.status < 0 || san) {
        report_failure(d, line, o.timed_out ? "timed out" : san ?
                       "a sanitizer reported an error" : "killed by a signal",
                       exp, e - b, &a, &o, c);
    } else if (!lines_match(exp, e - b, a.v, a.n)) {
        if (!c->update || command_update(d, line, b, e, &a, c, r) != 0)
            report_failure(d, line, "the output differs", exp, e - b, &a, &o,
                           c);
    }
    lines_free(&a);
    output_free(&o);
}

/* The session in lines (open, close) of d: run each command in order in
 * one fresh temporary directory. */
static void session_check(const Doc *d, int open, int close, Ctx *c,
                          Replaces *r)
{
    char dir[] = "/tmp/chessvar_docs_XXXXXX";
    assert_non_null(mkdtemp(dir));
    snprintf(c->last_dir, sizeof c->last_dir, "%s", dir);
    /* the example house rules, as `scripts/...` from the session, and
     * the lessons that `chessvar learn` finds in lessons/ (issue 22) */
    static const char *const LINKED[] = {"lessons", "scripts"};
    for (size_t k = 0; k < sizeof LINKED / sizeof LINKED[0]; k++) {
        char from[PATH_MAX], to[PATH_MAX + 16];
        assert_non_null(realpath(LINKED[k], from));
        snprintf(to, sizeof to, "%s/%s", dir, LINKED[k]);
        assert_int_equal(symlink(from, to), 0);
    }
    c->sessions++;
    for (int i = open + 1; i < close;) {
        int e = i + 1;
        while (e < close && !is_command(d->lines.v[e]))
            e++;
        command_check(d, i, i + 1, e, dir, c, r);
        i = e;
    }
    dir_remove(dir);
}

static void lint_failure(const Doc *d, int line, const char *why, Ctx *c)
{
    c->failures++;
    if (!c->quiet)
        fprintf(stderr, "\n%s:%d: %s\n", d->path, line + 1, why);
}

/* The fenced block (open, close) that is not a session holds no command
 * and no "not run" mark precedes it. */
static void block_lint(const Doc *d, int open, int close, Ctx *c)
{
    if (is_not_run_mark(d, open - 1))
        lint_failure(d, open - 1, "a \"not run\" mark before a block that is "
                                  "not a session (its first line must start "
                                  "with \"$ \")", c);
    for (int i = open + 1; i < close; i++)
        if (is_command(d->lines.v[i]))
            lint_failure(d, i, "a \"$ \" line in a block that is not a "
                               "session: a session starts with its command",
                         c);
}

/* Check every session of d; in update mode d's lines change in memory
 * (d->changed) for the caller to write. */
static void doc_check(Doc *d, Ctx *c)
{
    Replaces r = {0};
    for (int i = 0; i < d->lines.n; i++) {
        if (!is_fence(d->lines.v[i]))
            continue;
        int close = i + 1;
        while (close < d->lines.n && !is_fence(d->lines.v[close]))
            close++;
        if (close == d->lines.n) {
            lint_failure(d, i, "a code fence that is never closed", c);
            break;
        }
        int session = close > i + 1 && is_command(d->lines.v[i + 1]);
        if (!session)
            block_lint(d, i, close, c);
        else if (is_not_run_mark(d, i - 1))
            c->skipped++;
        else
            session_check(d, i, close, c, &r);
        i = close;
    }
    d->changed = r.n > 0;
    if (r.n)
        replaces_apply(d, &r);
}

/* ---- The environment ------------------------------------------------------ */

static void ctx_init(Ctx *c)
{
    *c = (Ctx){0};
    char abs[PATH_MAX];
    if (!realpath(tu_program(), abs))
        fail_msg("CHESSVAR=%s: %s", tu_program(), strerror(errno));
    char *slash = strrchr(abs, '/');
    *slash = '\0';
    snprintf(c->bindir, sizeof c->bindir, "%s", abs[0] ? abs : "/");
    const char *u = getenv("CHESSVAR_DOCS_UPDATE");
    c->update = u && strcmp(u, "1") == 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* README.md, then the .md files of docs/ in name order. */
static void doc_paths(Lines *paths)
{
    lines_push(paths, "README.md", strlen("README.md"));
    DIR *d = opendir("docs");
    assert_non_null(d);
    int first = paths->n;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n > 3 && strcmp(de->d_name + n - 3, ".md") == 0) {
            char p[PATH_MAX];
            snprintf(p, sizeof p, "docs/%s", de->d_name);
            lines_push(paths, p, strlen(p));
        }
    }
    closedir(d);
    qsort(paths->v + first, (size_t)(paths->n - first), sizeof *paths->v,
          name_cmp);
}

/* ---- Tests ---------------------------------------------------------------- */

static void test_ellipsis_matching(void **state)
{
    (void)state;
    char *e1[] = {"a", "...", "z"};
    char *a1[] = {"a", "b", "c", "z"}, *a2[] = {"a", "z"}, *a3[] = {"a", "b"};
    assert_true(lines_match(e1, 3, a1, 4));
    assert_true(lines_match(e1, 3, a2, 2));  /* "..." matches zero lines */
    assert_false(lines_match(e1, 3, a3, 2)); /* the tail must match */
    char *e2[] = {"a", "b"}, *a4[] = {"a", "b", "c"};
    assert_true(lines_match(e2, 2, e2, 2));
    assert_false(lines_match(e2, 2, a4, 3)); /* no extra lines */
    assert_false(lines_match(a4, 3, e2, 2)); /* no missing lines */
    char *e3[] = {"...", "x", "...", "y"};
    char *a5[] = {"x", "q", "x", "y"}, *a6[] = {"y", "x"};
    assert_true(lines_match(e3, 4, a5, 4));
    assert_false(lines_match(e3, 4, a6, 2)); /* anchors in order */
    assert_true(lines_match(NULL, 0, NULL, 0));
    int ei, ai;
    assert_int_equal(lines_first_diff(e1, 3, a3, 2, &ei, &ai), 1);
    assert_int_equal(ei, 2);
    assert_int_equal(ai, 1);
    assert_int_equal(lines_first_diff(e2, 2, a4, 3, &ei, &ai), 1);
    assert_int_equal(ei, -1);
    assert_int_equal(ai, 2);
}

static void test_update_keeps_the_shape(void **state)
{
    (void)state;
    char *e[] = {"head", "...", "t1", "t2"};
    char *a[] = {"H", "m1", "m2", "m3", "T1", "T2"};
    Lines out = {0};
    assert_int_equal(lines_update(e, 4, a, 6, &out), 0);
    assert_int_equal(out.n, 4);
    assert_string_equal(out.v[0], "H");
    assert_string_equal(out.v[1], "...");
    assert_string_equal(out.v[3], "T2");
    lines_free(&out);
    char *e2[] = {"...", "x", "..."};
    assert_int_equal(lines_update(e2, 3, a, 6, &out), -1);
    assert_int_equal(out.n, 0);
}

static const char SELF_DOC[] =
    "Text.\n"
    "```\n"
    "$ chessvar perft orthodox --depth 1 | tail -n 1\n"
    "Nodes searched: 20\n"
    "$ printf 'e4\\nsave g.rec\\n' | chessvar run orthodox > /dev/null\n"
    "$ ls; echo \"[$NO_COLOR]\"; test -f scripts/README.md && echo linked\n"
    "g.rec\n"
    "lessons\n"
    "scripts\n"
    "[1]\n"
    "linked\n"
    "$ chessvar legal orthodox --load g.rec | head -n 2\n"
    "...\n"
    "$ chessvar perft orthodox --depth 9x 2>&1 >/dev/null | wc -l\n"
    "1\n"
    "```\n"
    "<!-- not run: the self-test -->\n"
    "```sh\n"
    "$ false\n"
    "never compared\n"
    "```\n";

/* The runner itself: commands share a directory that is removed after the
 * session, see PATH, NO_COLOR and the scripts/ link, and a wrong expected
 * line fails; update mode repairs exactly that line. */
static void test_runner_catches_a_wrong_example(void **state)
{
    (void)state;
    Ctx c;
    ctx_init(&c);
    c.quiet = 1;
    c.update = 0; /* whatever the environment says */
    Doc d;
    doc_from_text(&d, "self.md", SELF_DOC);
    doc_check(&d, &c);
    assert_int_equal(c.failures, 0);
    assert_int_equal(c.sessions, 1);
    assert_int_equal(c.skipped, 1);
    assert_int_equal(c.commands, 5);
    struct stat st;
    assert_int_not_equal(stat(c.last_dir, &st), 0); /* removed */
    lines_free(&d.lines);

    char *wrong = strdup(SELF_DOC);
    assert_non_null(wrong);
    *strstr(wrong, ": 20") = ' '; /* one character off */
    doc_from_text(&d, "self.md", wrong);
    c.failures = 0;
    doc_check(&d, &c);
    assert_int_equal(c.failures, 1);
    assert_false(d.changed);
    lines_free(&d.lines);

    doc_from_text(&d, "self.md", wrong);
    c.failures = c.updated = 0;
    c.update = 1;
    doc_check(&d, &c);
    assert_int_equal(c.failures, 0);
    assert_int_equal(c.updated, 1);
    assert_true(d.changed);
    Lines want = {0};
    lines_split(&want, SELF_DOC);
    assert_int_equal(d.lines.n, want.n);
    for (int i = 0; i < want.n; i++)
        assert_string_equal(d.lines.v[i], want.v[i]);
    lines_free(&want);
    lines_free(&d.lines);
    free(wrong);
}

/* A stray "$ " line, or a "not run" mark on a block that is not a
 * session, is refused: an example cannot silently escape the check. */
static void test_lint_refuses_hidden_examples(void **state)
{
    (void)state;
    Ctx c;
    ctx_init(&c);
    c.quiet = 1;
    c.update = 0; /* whatever the environment says */
    Doc d;
    doc_from_text(&d, "lint.md",
                  "```\nsome output\n$ chessvar list\n```\n"
                  "<!-- not run: why -->\n```\nnot a session\n```\n");
    doc_check(&d, &c);
    assert_int_equal(c.failures, 2);
    assert_int_equal(c.sessions, 0);
    lines_free(&d.lines);
}

/* Every session of README.md and docs/ gives its documented output. */
static void test_docs_sessions_match_the_program(void **state)
{
    (void)state;
    Ctx c;
    ctx_init(&c);
    Lines paths = {0};
    doc_paths(&paths);
    for (int i = 0; i < paths.n; i++) {
        Doc d;
        if (doc_load(&d, paths.v[i]) != 0)
            fail_msg("%s: cannot read: %s", paths.v[i], strerror(errno));
        doc_check(&d, &c);
        if (d.changed)
            doc_save(&d);
        lines_free(&d.lines);
    }
    lines_free(&paths);
    fprintf(stderr, "docs: %d sessions, %d commands, %d not run, %d updated\n",
            c.sessions, c.commands, c.skipped, c.updated);
    assert_true(c.sessions > 0);
    if (c.failures)
        fail_msg("%d documented example(s) differ from the program's output "
                 "(CHESSVAR_DOCS_UPDATE=1 make test rewrites them; review "
                 "the diff)", c.failures);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ellipsis_matching),
        cmocka_unit_test(test_update_keeps_the_shape),
        cmocka_unit_test(test_runner_catches_a_wrong_example),
        cmocka_unit_test(test_lint_refuses_hidden_examples),
        cmocka_unit_test(test_docs_sessions_match_the_program),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
