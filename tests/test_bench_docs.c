/*
 * test_bench_docs.c -- the check `make bench` makes of the outputs that
 * docs/EXPERIMENTS.md quotes (issue 23: bench_calibration, "Calibration";
 * bench_sequential, "Stopping when the answer is clear"), proved without
 * the full benches, which take minutes:
 *   - bench_doc_compare in process: a block that matches passes, a changed
 *     figure fails and is named, the seconds, workers and --jobs are the
 *     only figures ignored, a missing block fails only for the docs' own
 *     command, update mode rewrites only that block;
 *   - each bench run tiny (its size knobs) against a doc of its own
 *     (CHESSVAR_BENCH_DOC): update mode writes its block, a run then finds
 *     it the same even with the time figures changed, and a changed figure
 *     makes it exit 1 naming the line.
 *
 * Invariant: the benches run are the siblings of this test's binary
 * (build/tests or build-san/tests), on a temporary doc: docs/ is never
 * written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/docblock.h"
#include "support/testutil.h"

/* ---- The rule, in process ---------------------------------------------------- */

static int same_key(const char *a, const char *b)
{
    char *ka = bench_line_key(a), *kb = bench_line_key(b);
    int same = strcmp(ka, kb) == 0;
    free(ka);
    free(kb);
    return same;
}

/* Only a number of seconds, of workers or after --jobs is ignored. */
static void test_only_time_and_machine_figures_are_ignored(void **state)
{
    (void)state;
    assert_true(same_key("2 workers; 109 s (truth 25 s)", "8 workers; 3.5 s (truth 1 s)"));
    assert_true(same_key("(392 s with --jobs 2; x)", "(17 s with --jobs 16; x)"));
    assert_true(same_key("took 12 s", "took 9 s"));
    assert_false(same_key("seeds 1..3)", "seeds 1..4)"));
    assert_false(same_key("+2.37 points", "+2.38 points"));
    assert_false(same_key("84 looks", "85 looks"));
    assert_false(same_key("12 sets", "13 sets"));       /* not seconds */
    assert_false(same_key("a12 s", "a13 s"));           /* part of a word */
    assert_false(same_key("2 workers", "2 worker"));    /* the words stay */
    assert_false(same_key("--jobs 2 4 s", "--jobs 2 4 x"));
    assert_false(same_key("97.5%  (94.3 - 98.9), 195 of 200",
                          "97.0%  (94.3 - 98.9), 195 of 200"));
}

static const char DOC[] =
    "Text before.\n"
    "<!-- not run: make bench checks it -->\n"
    "```\n"
    "$ ./bench\n"
    "title\n"
    "200 runs; 2 workers; 109 s (truth 25 s)\n"
    "  covers 97.5%, 195 of 200\n"
    "```\n"
    "Text after.\n";

static const char OUT[] =
    "title\n"
    "200 runs; 8 workers; 31 s (truth 7 s)\n"
    "  covers 97.5%, 195 of 200\n";

static FILE *sink(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    return f;
}

static char *said(FILE *f)
{
    rewind(f);
    char *s = tu_read_stream(f);
    fclose(f);
    return s;
}

static void test_compare_matches_names_and_updates(void **state)
{
    (void)state;
    Doc d;
    doc_from_text(&d, "x.md", DOC);
    FILE *m = sink();
    assert_int_equal(bench_doc_compare(&d, "./bench", OUT, 1, 0, m), 0);
    char *s = said(m);
    assert_string_equal(s, "x.md quotes this output: the same\n");
    free(s);
    assert_false(d.changed);

    /* one figure changed: named with the docs' line */
    char *changed = strdup(OUT);
    assert_non_null(changed);
    *strstr(changed, "195") = '4';
    m = sink();
    assert_int_equal(bench_doc_compare(&d, "./bench", changed, 1, 0, m), 1);
    s = said(m);
    assert_non_null(strstr(s, "x.md quotes this output (x.md:4): it differs"));
    assert_non_null(strstr(s, "docs   line 7:   covers 97.5%, 195 of 200"));
    assert_non_null(strstr(s, "bench  line 3 of the output:   covers 97.5%, 495 of 200"));
    free(s);
    assert_false(d.changed);

    /* a line missing at the end */
    m = sink();
    assert_int_equal(bench_doc_compare(&d, "./bench", "title\n", 1, 0, m), 1);
    s = said(m);
    assert_non_null(strstr(s, "bench  (end of the output)"));
    free(s);

    /* update mode: only the block's lines change */
    m = sink();
    assert_int_equal(bench_doc_compare(&d, "./bench", changed, 1, 1, m), 0);
    s = said(m);
    assert_non_null(strstr(s, "rewritten"));
    free(s);
    assert_true(d.changed);
    Lines want = {0};
    lines_split(&want, DOC);
    assert_int_equal(d.lines.n, want.n);
    for (int i = 0; i < want.n; i++)
        if (i < 4 || i > 6)
            assert_string_equal(d.lines.v[i], want.v[i]);
    assert_string_equal(d.lines.v[5], "200 runs; 8 workers; 31 s (truth 7 s)");
    assert_string_equal(d.lines.v[6], "  covers 97.5%, 495 of 200");
    lines_free(&want);
    lines_free(&d.lines);
    free(changed);
}

/* The docs' own command must have its block; another size is compared
 * only when the docs quote it. */
static void test_a_missing_block_fails_only_when_required(void **state)
{
    (void)state;
    Doc d;
    doc_from_text(&d, "x.md", DOC);
    FILE *m = sink();
    assert_int_equal(bench_doc_compare(&d, "./bench --other", OUT, 1, 0, m), 1);
    char *s = said(m);
    assert_non_null(strstr(s, "x.md quotes no output of `./bench --other`"));
    free(s);
    m = sink();
    assert_int_equal(bench_doc_compare(&d, "RUNS=3 ./bench", OUT, 0, 1, m), 0);
    s = said(m);
    assert_non_null(strstr(s, ": not compared"));
    free(s);
    assert_false(d.changed);
    lines_free(&d.lines);
}

/* ---- The benches, tiny ------------------------------------------------------ */

/* The path of bench `name` beside this test's binary. */
static void bench_path(const char *name, char *out, size_t n)
{
    char self[PATH_MAX];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(k > 0);
    self[k] = '\0';
    *strrchr(self, '/') = '\0';
    snprintf(out, n, "%s/%s", self, name);
    assert_int_equal(access(out, X_OK), 0);
}

/* Run "ENV BENCH" with CHESSVAR_BENCH_DOC=doc (and CHESSVAR_DOCS_UPDATE=1
 * when update): its standard output (malloc'd) and exit status. */
static char *bench_run(const char *env, const char *bench, const char *doc, int update,
                       int *status)
{
    char cmd[2 * PATH_MAX + 512];
    snprintf(cmd, sizeof cmd, "%s CHESSVAR_BENCH_DOC=%s %s %s", env, doc,
             update ? "CHESSVAR_DOCS_UPDATE=1" : "", bench);
    FILE *f = popen(cmd, "r");
    assert_non_null(f);
    char *out = tu_read_stream(f);
    int st = pclose(f);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Replace the first `from` of doc's file by `to`. */
static void edit_doc(const char *path, const char *from, const char *to)
{
    char *text = tu_read_file(path);
    assert_non_null(text);
    char *at = strstr(text, from);
    if (!at)
        fail_msg("%s: no \"%s\" to change", path, from);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    assert_non_null(out);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    write_text(path, out);
    free(out);
    free(text);
}

/* The bench `name` run tiny with env, whose command line (as its block is
 * found) is `command`: update mode writes the block; the same run then
 * says "the same" with the time and machine figures of the block changed
 * (in the line that holds time_line, the number before each of time_marks)
 * and a changed figure (fig_from -> fig_to) makes it exit 1 naming that
 * line. */
static void bench_round_trip(const char *name, const char *env, const char *command,
                             const char *time_line, const char *const *time_marks,
                             const char *fig_from, const char *fig_to)
{
    char bench[PATH_MAX + 64], doc[] = "/tmp/chessvar_bench_doc_XXXXXX";
    bench_path(name, bench, sizeof bench);
    int fd = mkstemp(doc);
    assert_true(fd >= 0);
    close(fd);
    char text[1024];
    snprintf(text, sizeof text, "Before.\n<!-- not run: tiny -->\n```\n$ %s\nold\n```\n"
             "After.\n", command);
    write_text(doc, text);

    int st;
    char *out = bench_run(env, bench, doc, 1, &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "quotes this output: rewritten"));
    /* the block is now exactly what the bench printed before its verdict */
    char *written = tu_read_file(doc);
    assert_non_null(written);
    const char *verdict = strstr(out, doc);
    assert_non_null(verdict);
    snprintf(text, sizeof text, "Before.\n<!-- not run: tiny -->\n```\n$ %s\n", command);
    assert_memory_equal(written, text, strlen(text));
    assert_memory_equal(written + strlen(text), out, (size_t)(verdict - out));
    assert_string_equal(written + strlen(text) + (verdict - out), "```\nAfter.\n");
    free(written);
    free(out);

    /* the figures of time and machine changed in the docs: still the same */
    char *cur = tu_read_file(doc);
    assert_non_null(cur);
    char *line = strstr(cur, time_line);
    assert_non_null(line);
    char from[512], to[512];
    snprintf(from, sizeof from, "%.*s", (int)(strchr(line, '\n') - line), line);
    snprintf(to, sizeof to, "%s", from);
    for (int k = 0; time_marks[k]; k++) { /* a "1" after the number: another one */
        char *at = strstr(to, time_marks[k]);
        assert_non_null(at);
        memmove(at + 1, at, strlen(at) + 1);
        *at = '1';
    }
    free(cur);
    edit_doc(doc, from, to);
    out = bench_run(env, bench, doc, 0, &st);
    assert_int_equal(st, 0);
    assert_non_null(strstr(out, "quotes this output: the same"));
    free(out);

    /* a figure changed: exit 1, the line named, the doc left alone */
    edit_doc(doc, fig_from, fig_to);
    char *before = tu_read_file(doc);
    out = bench_run(env, bench, doc, 0, &st);
    assert_int_equal(st, 1);
    assert_non_null(strstr(out, "): it differs"));
    assert_non_null(strstr(out, fig_to));
    char *after = tu_read_file(doc);
    assert_string_equal(before, after);
    free(before);
    free(after);
    free(out);
    unlink(doc);
}

static void test_bench_calibration_checks_its_block(void **state)
{
    (void)state;
    bench_round_trip("bench_calibration",
                     "CALIBRATION_RUNS=3 CALIBRATION_GAMES=10 CALIBRATION_TRUTH=20",
                     "CALIBRATION_RUNS=3 CALIBRATION_GAMES=10 CALIBRATION_TRUTH=20 "
                     "./build/tests/bench_calibration",
                     "3 runs of 10 games",
                     (const char *const[]){" workers", " s (truth", " s)", NULL}, "3 of 3\n",
                     "2 of 3\n");
}

static void test_bench_sequential_checks_its_block(void **state)
{
    (void)state;
    bench_round_trip("bench_sequential", "SEQUENTIAL_RUNS=3 SEQUENTIAL_MAX_GAMES=40",
                     "SEQUENTIAL_RUNS=3 SEQUENTIAL_MAX_GAMES=40 ./build/tests/bench_sequential",
                     " s with --jobs ", (const char *const[]){" s with", "; the", NULL},
                     "found in 0 of 3", "found in 1 of 3");
}

int main(void)
{
    unsetenv("CHESSVAR_DOCS_UPDATE"); /* each run says whether it updates */
    unsetenv("CHESSVAR_BENCH_DOC");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_time_and_machine_figures_are_ignored),
        cmocka_unit_test(test_compare_matches_names_and_updates),
        cmocka_unit_test(test_a_missing_block_fails_only_when_required),
        cmocka_unit_test(test_bench_calibration_checks_its_block),
        cmocka_unit_test(test_bench_sequential_checks_its_block),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
