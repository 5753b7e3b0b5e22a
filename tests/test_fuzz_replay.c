/*
 * test_fuzz_replay.c -- every committed fuzz input (each file of
 * tests/fuzz/corpus/TARGET/) runs through its target (tests/support/fuzz_targets.c), with
 * every invariant checked (issue 8, docs/FUZZING.md): JSON answers one
 * valid line of valid UTF-8 (docs/PROTOCOL.md), a refused command changes
 * nothing, save + load and undo give the same game, position strings read
 * back the same, fast perft equals generic perft.  Also checks the UTF-8
 * and JSON checkers the targets rely on.
 *
 * Invariant: a broken invariant aborts the process (fuzz_fail), which the
 * test runner reports as a failure with the target's message.
 *
 * To replay other files by hand (a crash from make fuzz):
 *   build/tests/test_fuzz_replay batch build-fuzz/crashes/batch/crash-...
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/fuzz_targets.h"

/* ---- Reading inputs ------------------------------------------------------- */

/* The bytes of the file at path (malloc'd, *n set); NULL if unreadable. */
static uint8_t *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *bigger = realloc(buf, cap *= 2);
            if (!bigger)
                free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    *n = len;
    return buf;
}

static const FuzzTarget *target_named(const char *name)
{
    for (const FuzzTarget *t = fuzz_targets; t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* Run the target over every file of its corpus directory; how many. */
static int replay_corpus(const char *name)
{
    const FuzzTarget *t = target_named(name);
    assert_non_null(t);
    const char *root = getenv("FUZZ_CORPUS");
    char dir[512], path[1024];
    snprintf(dir, sizeof dir, "%s/%s", root && *root ? root : "tests/fuzz/corpus", name);
    DIR *d = opendir(dir);
    if (!d)
        fail_msg("cannot open the corpus %s (run from the repository root)", dir);
    int count = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t n;
        uint8_t *data = read_bytes(path, &n);
        if (!data)
            fail_msg("cannot read %s", path);
        t->run(data, n);    /* aborts, naming the invariant, if one breaks */
        free(data);
        count++;
    }
    closedir(d);
    return count;
}

/* ---- The corpora ------------------------------------------------------------ */

/* Batch mode of the three variants: typical games (moves, Masqués setup
 * MASQ-1, battles and bids MASQ-8..11, Ambigus naming and choosing
 * AMBI-1..3, the clock AMBI-7), queries, undo, draws (ORTH-8, 9). */
static void test_fuzz_replay_batch(void **state)
{
    (void)state;
    assert_true(replay_corpus("batch") >= 30);
}

/* Records of the three variants, finished and in progress (docs/RECORDS.md). */
static void test_fuzz_replay_record(void **state)
{
    (void)state;
    assert_true(replay_corpus("record") >= 30);
}

/* Position strings: orthodox FEN (ORTH-1), the Masqués and Ambigus perft
 * tables of docs/MASQUES.md and docs/AMBIGUS.md. */
static void test_fuzz_replay_position(void **state)
{
    (void)state;
    assert_true(replay_corpus("position") >= 30);
}

/* House-rule scripts over the game: API (issue 20): vetoes, reactions with
 * edits, setups, finishes in every variant, and hostile ones (deep
 * recursion, endless loops, edit floods, error(), wrong types). */
static void test_fuzz_replay_house(void **state)
{
    (void)state;
    assert_true(replay_corpus("house") >= 20);
}

/* ---- The checkers ---------------------------------------------------------- */

#define UTF8_OK(s) assert_true(fuzz_utf8_valid(s, sizeof s - 1))
#define UTF8_BAD(s) assert_false(fuzz_utf8_valid(s, sizeof s - 1))

/* RFC 3629: what batch mode must refuse and answers must never hold
 * (issue 8, #2 and #3). */
static void test_fuzz_utf8_checker_is_strict(void **state)
{
    (void)state;
    UTF8_OK("e4");
    UTF8_OK("\xc3\xa9");              /* é */
    UTF8_OK("\xe2\x82\xac");          /* € */
    UTF8_OK("\xed\x9f\xbf");          /* U+D7FF, just below the surrogates */
    UTF8_OK("\xf0\x9d\x84\x9e");      /* U+1D11E */
    UTF8_OK("\xf4\x8f\xbf\xbf");      /* U+10FFFF */
    UTF8_BAD("e4\xed\xa0\x80");       /* a surrogate (issue 8's example) */
    UTF8_BAD("\xed\xbf\xbf");
    UTF8_BAD("\xc0\xaf");             /* overlong '/' */
    UTF8_BAD("\xc1\xbf");
    UTF8_BAD("\xe0\x80\xaf");
    UTF8_BAD("\xf0\x80\x80\xaf");
    UTF8_BAD("\xf4\x90\x80\x80");     /* above U+10FFFF */
    UTF8_BAD("\xf5\x80\x80\x80");     /* lead bytes F5..F7 */
    UTF8_BAD("\xf7\xbf\xbf\xbf");
    UTF8_BAD("\x80");                 /* a lone continuation byte */
    UTF8_BAD("\xc3");                 /* cut */
    UTF8_BAD("e\xc3 ");
    assert_false(fuzz_utf8_valid("a\0b", 3));
}

#define JSON_OK(s) assert_true(fuzz_json_object_valid(s, sizeof s - 1))
#define JSON_BAD(s) assert_false(fuzz_json_object_valid(s, sizeof s - 1))

static void test_fuzz_json_checker_is_strict(void **state)
{
    (void)state;
    JSON_OK("{\"ok\":true,\"cmd\":\"status\",\"ply\":0,\"in_check\":[]}");
    JSON_OK("{\"a\":[1,-0.5,2e10,true,false,null,{}],\"b\":\"\\u00e9\\n\\\"\"}");
    JSON_OK("{\"s\":\"\\ud834\\udd1e\"}");
    JSON_OK(" { } ");
    JSON_BAD("");
    JSON_BAD("[1]");                          /* an answer is an object */
    JSON_BAD("{\"a\":1,}");
    JSON_BAD("{\"a\":[1,]}");
    JSON_BAD("{\"a\":01}");
    JSON_BAD("{\"a\":1.}");
    JSON_BAD("{\"a\":\"x\ty\"}");             /* raw control character */
    JSON_BAD("{\"a\":\"\\x41\"}");
    JSON_BAD("{\"a\":\"\\ud800\"}");          /* lone surrogate escape */
    JSON_BAD("{\"a\":\"\\udc00\\ud800\"}");
    JSON_BAD("{\"a\":1}{\"b\":2}");
    JSON_BAD("{\"a\":1");
    JSON_BAD("{a:1}");
    JSON_BAD("{\"a\":tru}");
}

/* Deeply nested input is refused, not a stack overflow. */
static void test_fuzz_json_checker_bounds_depth(void **state)
{
    (void)state;
    char s[2 * 200 + 8];
    size_t n = 0;
    s[n++] = '{';
    memcpy(s + n, "\"a\":", 4);
    n += 4;
    for (int i = 0; i < 190; i++)
        s[n++] = '[';
    for (int i = 0; i < 190; i++)
        s[n++] = ']';
    s[n++] = '}';
    assert_false(fuzz_json_object_valid(s, n));
}

/* ---- Main -------------------------------------------------------------------- */

/* `test_fuzz_replay TARGET FILE...`: replay those files only. */
static int replay_files(int argc, char **argv)
{
    const FuzzTarget *t = target_named(argv[1]);
    if (!t) {
        fprintf(stderr, "test_fuzz_replay: no target '%s' (batch, record, position, house)\n",
                argv[1]);
        return 2;
    }
    for (int i = 2; i < argc; i++) {
        size_t n;
        uint8_t *data = read_bytes(argv[i], &n);
        if (!data) {
            fprintf(stderr, "test_fuzz_replay: cannot read %s\n", argv[i]);
            return 2;
        }
        fprintf(stderr, "%s: %s (%zu bytes)\n", t->name, argv[i], n);
        t->run(data, n);
        free(data);
    }
    fprintf(stderr, "test_fuzz_replay: %d file(s) passed\n", argc - 2);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3)
        return replay_files(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fuzz_utf8_checker_is_strict),
        cmocka_unit_test(test_fuzz_json_checker_is_strict),
        cmocka_unit_test(test_fuzz_json_checker_bounds_depth),
        cmocka_unit_test(test_fuzz_replay_batch),
        cmocka_unit_test(test_fuzz_replay_record),
        cmocka_unit_test(test_fuzz_replay_position),
        cmocka_unit_test(test_fuzz_replay_house),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
