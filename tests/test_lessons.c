/*
 * test_lessons.c -- the lessons of issue 22 point 3 (core/cli/lesson.[ch],
 * lessons/VARIANT.txt, docs/LESSONS.md).
 *
 * Every lesson of every variant is played here as a learner would: at
 * each step its wrong answers first (each must be refused, leave the game
 * byte for byte as it was, and show the lesson's explanation of its
 * rules), then its solution (which must be taken); the last step must end
 * the lesson, with the lesson's result when it names one.  Every rule id
 * of docs/RULES.md, and every id the program's own rules text heads
 * (`chessvar rules VARIANT`), must be taught by a lesson of its variant,
 * so a new rule without a lesson fails here.  Malformed lesson files are
 * refused with the file, the line and the fault; lessons whose solution
 * fails or whose wrong answer is taken are caught by lesson_verify (what
 * `chessvar learn --check` runs).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/cli/lesson.h"
#include "support/testutil.h"

#define RULES_DOC "docs/RULES.md"

static void load_variant_lessons(const VariantOps *v, LessonFile *f)
{
    char path[128];
    Error e = {""};
    snprintf(path, sizeof path, "lessons/%s.txt", v->name);
    if (lesson_file_read(path, f, &e))
        fail_msg("%s", e.msg);
    assert_ptr_equal(f->variant, v);
}

/* Does out hold the lesson's "Why (IDS): explanation"? */
static int shows_why(const Lesson *l, const StrBuf *out)
{
    StrBuf why = STRBUF_INIT;
    lesson_why(l, &why);
    int ok = strstr(sb_str(out), sb_str(&why)) != NULL;
    sb_free(&why);
    return ok;
}

/* issue 22: each lesson's solution plays to its end; each wrong answer is
 * refused with the rule's explanation and changes nothing. */
static void test_every_lesson_solution_and_wrong_answers(void **state)
{
    (void)state;
    int lessons = 0, wrongs = 0;
    for (int i = 0; variant_registry[i]; i++) {
        LessonFile f;
        load_variant_lessons(variant_registry[i], &f);
        for (int k = 0; k < f.n; k++) {
            const Lesson *l = &f.v[k];
            Error e = {""};
            LessonRun *r = lesson_start(f.variant, l, &e);
            if (!r)
                fail_msg("%s lesson %s: %s", f.path, l->id, e.msg);
            int rc = LESSON_NEXT, nwrong = 0;
            /* walk the steps in order: the runner tells which one is next */
            for (int s = 0; s < l->nsteps && !lesson_done(r); s++) {
                const LessonStep *st = &l->step[s];
                if (st->reply)
                    continue;
                for (int w = 0; w < st->nwrong; w++) {
                    Game *before = game_clone(lesson_game(r));
                    StrBuf out = STRBUF_INIT;
                    if (lesson_answer(r, st->wrong[w], &out) != LESSON_REFUSED)
                        fail_msg("%s:%d: lesson %s: wrong answer %s was taken", f.path,
                                 st->wrong_line[w], l->id, st->wrong[w]);
                    if (!game_same(before, lesson_game(r)))
                        fail_msg("%s:%d: lesson %s: wrong answer %s changed the game", f.path,
                                 st->wrong_line[w], l->id, st->wrong[w]);
                    if (!shows_why(l, &out))
                        fail_msg("%s:%d: lesson %s: the refusal of %s lacks the explanation:"
                                 " %s", f.path, st->wrong_line[w], l->id, st->wrong[w],
                                 sb_str(&out));
                    assert_non_null(strstr(sb_str(&out), "Not that: "));
                    sb_free(&out);
                    game_free(before);
                    nwrong++;
                }
                StrBuf out = STRBUF_INIT;
                rc = lesson_answer(r, st->alt[0], &out);
                if (rc == LESSON_REFUSED)
                    fail_msg("%s:%d: lesson %s: the solution %s is refused: %s", f.path,
                             st->line, l->id, st->alt[0], sb_str(&out));
                sb_free(&out);
            }
            if (rc != LESSON_DONE || !lesson_done(r))
                fail_msg("%s: lesson %s: its solution does not end it", f.path, l->id);
            if (l->result) {
                char buf[64];
                assert_string_equal(game_result_text(lesson_game(r), buf, sizeof buf),
                                    l->result);
            }
            if (!nwrong)
                fail_msg("%s: lesson %s has no wrong answer", f.path, l->id);
            lesson_run_free(r);
            lessons++;
            wrongs += nwrong;
        }
        lesson_file_free(&f);
    }
    print_message("%d lessons, %d wrong answers refused\n", lessons, wrongs);
    assert_true(lessons >= 5);
}

/* The ids of docs/RULES.md with prefix ("ORTH"): its items open with the
 * bold id, "- **ORTH-3 En passant.**". */
static int doc_ids(const char *doc, const char *prefix, char ids[][LESSON_ID_MAX + 1],
                   int max)
{
    int n = 0;
    size_t pl = strlen(prefix);
    for (const char *p = strstr(doc, "- **"); p && n < max; p = strstr(p + 1, "- **")) {
        const char *id = p + 4;
        if (strncmp(id, prefix, pl) || id[pl] != '-')
            continue;
        size_t k = pl + 1 + strspn(id + pl + 1, "0123456789");
        if (k == pl + 1 || k > LESSON_ID_MAX)
            continue;
        memcpy(ids[n], id, k);
        ids[n++][k] = '\0';
    }
    return n;
}

static int taught(const LessonFile *f, const char *id)
{
    for (int i = 0; i < f->n; i++)
        for (int j = 0; j < f->v[i].nrules; j++)
            if (strcmp(f->v[i].rule[j], id) == 0)
                return 1;
    return 0;
}

/* issue 22: every rule id of every variant has a lesson, read from the
 * docs and from the program's own rules text. */
static void test_every_rule_has_a_lesson(void **state)
{
    (void)state;
    char *doc = tu_read_file(RULES_DOC);
    assert_non_null(doc);
    int total = 0;
    StrBuf missing = STRBUF_INIT;
    for (int i = 0; variant_registry[i]; i++) {
        const VariantOps *v = variant_registry[i];
        LessonFile f;
        load_variant_lessons(v, &f);
        char ids[64][LESSON_ID_MAX + 1], dids[64][LESSON_ID_MAX + 1];
        int n = lesson_rule_ids(v, ids, 64);
        assert_true(n > 0);
        char prefix[LESSON_ID_MAX + 1];
        snprintf(prefix, sizeof prefix, "%.*s", (int)strcspn(ids[0], "-"), ids[0]);
        int dn = doc_ids(doc, prefix, dids, 64);
        assert_int_equal(dn, n); /* the program and the docs name the same rules */
        for (int k = 0; k < n; k++) {
            assert_string_equal(ids[k], dids[k]);
            if (!taught(&f, ids[k]))
                sb_printf(&missing, " %s", ids[k]);
        }
        total += n;
        lesson_file_free(&f);
    }
    free(doc);
    if (missing.len)
        fail_msg("rules without a lesson:%s", sb_str(&missing));
    sb_free(&missing);
    assert_int_equal(total, 67); /* ORTH 9, MASQ 16, AMBI 7, ECHQ 13, TILE 12, PART 10 */
}

/* The check above fails on a rule without a lesson: a file that lacks
 * ORTH-9's lesson leaves ORTH-9 untaught. */
static void test_untaught_rule_is_seen(void **state)
{
    (void)state;
    LessonFile f;
    load_variant_lessons(tu_variant("orthodox"), &f);
    assert_true(taught(&f, "ORTH-9"));
    for (int i = 0; i < f.n; i++)
        for (int j = 0; j < f.v[i].nrules; j++)
            if (strcmp(f.v[i].rule[j], "ORTH-9") == 0)
                f.v[i].rule[j][0] = '\0';
    assert_false(taught(&f, "ORTH-9"));
    lesson_file_free(&f);
}

/* ---- Malformed files ------------------------------------------------------- */

#define HEAD "variant: orthodox\n"
#define GOOD_BODY                                                                  \
    "lesson: pawn\ntitle: A pawn\nteaches: ORTH-2\ngoal: Step the e-pawn two.\n"   \
    "seat: white\nplay: e4\nwrong: e5\nexplain: A pawn steps one or two squares.\n"

static void expect_refused(const char *text, const char *want)
{
    LessonFile f;
    Error e = {""};
    if (lesson_file_parse("bad.txt", text, strlen(text), &f, &e) == 0)
        fail_msg("accepted: %s", text);
    if (!strstr(e.msg, want))
        fail_msg("message \"%s\" lacks \"%s\"", e.msg, want);
    assert_null(f.v);
}

/* issue 22: a malformed lesson file is refused with its name, the line and
 * what is wrong. */
static void test_malformed_files(void **state)
{
    (void)state;
    LessonFile f;
    Error e = {""};
    const char *good = HEAD GOOD_BODY;
    assert_int_equal(lesson_file_parse("good.txt", good, strlen(good), &f, &e), 0);
    assert_int_equal(f.n, 1);
    assert_int_equal(lesson_verify(&f, &f.v[0], &e), 0);
    lesson_file_free(&f);

    expect_refused("lesson: x\n", "bad.txt:1: the file must begin with variant:");
    expect_refused("variant: chequers\n", "bad.txt:1: variant: 'chequers' is not a variant");
    expect_refused(HEAD, "no lesson in the file");
    expect_refused(HEAD "title: T\n", "bad.txt:2: title: comes before the first lesson:");
    expect_refused(HEAD "lesson: Bad Id\n", "bad.txt:2: lesson: 'Bad Id' is not a lesson id");
    expect_refused(HEAD GOOD_BODY "lesson: pawn\n", "bad.txt:10: lesson pawn is given twice");
    expect_refused(HEAD GOOD_BODY "colour: red\n", "bad.txt:10: unknown key 'colour'");
    expect_refused(HEAD GOOD_BODY "just words\n", "bad.txt:10: expected KEY: VALUE");
    expect_refused(HEAD GOOD_BODY "hint:\n", "bad.txt:10: hint: has no value");
    expect_refused(HEAD GOOD_BODY "teaches: ORTH-3\n", "bad.txt:10: teaches: given twice");
    expect_refused(HEAD "lesson: a\nteaches: MASQ-3\n",
                   "bad.txt:3: teaches: MASQ-3 is not a rule of orthodox");
    expect_refused(HEAD "lesson: a\ntitle: T\nteaches: atomic.lua\ngoal: G\nseat: white\n"
                        "play: e4\nwrong: e5\nexplain: E\n",
                   "bad.txt:2: lesson a: teaches: atomic.lua is not the file name of one "
                   "of its house: scripts");
    expect_refused(HEAD "lesson: a\nteaches: ORTH-10\n",
                   "bad.txt:3: teaches: ORTH-10 is not a rule of orthodox");
    expect_refused(HEAD "lesson: a\nparam: castling=maybe\n", "bad.txt:3: param: ");
    expect_refused(HEAD "lesson: a\nsides: 9\n", "bad.txt:3: sides: '9' is not a number");
    expect_refused(HEAD "lesson: a\nwrong: e5\n",
                   "bad.txt:3: wrong: must follow the play: line");
    expect_refused(HEAD "lesson: a\nreply: e5\ntarget: e4\n",
                   "bad.txt:4: target: must follow the play: line");
    expect_refused(HEAD "lesson: a\nviews: all\n", "bad.txt:3: views: 'all'");
    expect_refused(HEAD "  a continuation\n", "bad.txt:2: an indented line continues");
    expect_refused(HEAD "lesson: a\nplay: e4 | | e3\n", "bad.txt:3: play: an empty answer");
    expect_refused(HEAD "lesson: a\ntitle: T\n\x1b[2J\n", "bad.txt:4: a control character "
                                                           "(0x1b)");
    expect_refused(HEAD "lesson: a\ntitle: T\xc2\x9b\n", "bad.txt:3: a control character "
                                                          "(U+009b)");
    expect_refused(HEAD "lesson: a\n\ntitle: \xff\n", "bad.txt:4: bytes that are not UTF-8");
    expect_refused(HEAD "lesson: a\r\ntitle: T\r\n\r\n", "bad.txt:2: lesson a has no "
                                                            "teaches: line"); /* CR LF */
    expect_refused(HEAD "lesson: a\ntitle: T\nteaches: ORTH-2\ngoal: G\nseat: white\n"
                        "play: e4\nwrong: e5\n",
                   "bad.txt:2: lesson a has no explain: line");
    expect_refused(HEAD "lesson: a\ntitle: T\nteaches: ORTH-2\ngoal: G\nseat: white\n"
                        "explain: E\nwrong: e5\n",
                   "bad.txt:8: wrong: must follow");
    expect_refused(HEAD "lesson: a\ntitle: T\nteaches: ORTH-2\ngoal: G\nseat: white\n"
                        "explain: E\n",
                   "bad.txt:2: lesson a has no play: line");
    expect_refused(HEAD "lesson: a\ntitle: T\nteaches: ORTH-2\ngoal: G\nseat: white\n"
                        "explain: E\nplay: e4\n",
                   "bad.txt:2: lesson a has no wrong: line");
}

/* issue 22: a lesson file cut anywhere, or with a byte changed, is read
 * or refused with the file and a line: never a crash (ASan, UBSan), never
 * a message without its place. */
static void test_cut_and_damaged_files(void **state)
{
    (void)state;
    char *text = tu_read_file("lessons/masques.txt");
    assert_non_null(text);
    size_t len = strlen(text);
    int ok = 0, refused = 0;
    size_t step = TU_SANITIZED ? 7 : 1;
    for (size_t cut = 0; cut <= len; cut += step) {
        LessonFile f;
        Error e = {""};
        if (lesson_file_parse("cut.txt", text, cut, &f, &e) == 0) {
            ok++;
            assert_true(f.n > 0);
            lesson_file_free(&f);
        } else {
            refused++;
            if (strncmp(e.msg, "cut.txt:", 8) != 0)
                fail_msg("cut at %zu: %s", cut, e.msg);
        }
    }
    static const char bytes[] = {':', '|', ' ', '\n', '\t', '#', 'x', '\x7f', '\xc3'};
    for (size_t at = 0; at < len; at += 13) {
        for (size_t b = 0; b < sizeof bytes; b++) {
            char *copy = strdup(text);
            assert_non_null(copy);
            copy[at] = bytes[b];
            LessonFile f;
            Error e = {""};
            if (lesson_file_parse("bad.txt", copy, len, &f, &e) == 0)
                lesson_file_free(&f);
            else if (strncmp(e.msg, "bad.txt:", 8) != 0)
                fail_msg("byte %zu = 0x%02x: %s", at, (unsigned char)bytes[b], e.msg);
            free(copy);
        }
    }
    assert_true(ok > 0 && refused > 0);
    free(text);
}

/* A lesson that parses but does not play: lesson_verify names the line. */
static void expect_unverified(const char *body, const char *want)
{
    char text[2048];
    snprintf(text, sizeof text, HEAD "lesson: a\ntitle: T\nteaches: ORTH-2\ngoal: G\n"
                                "explain: Pawns step.\n%s", body);
    LessonFile f;
    Error e = {""};
    if (lesson_file_parse("bad.txt", text, strlen(text), &f, &e))
        fail_msg("refused: %s", e.msg);
    e.msg[0] = '\0';
    assert_int_equal(lesson_verify(&f, &f.v[0], &e), -1);
    if (!strstr(e.msg, want))
        fail_msg("message \"%s\" lacks \"%s\"", e.msg, want);
    lesson_file_free(&f);
}

/* issue 22: lessons whose solution, wrong answers, position, seat or
 * replies are wrong are caught, with the line. */
static void test_lessons_that_do_not_play(void **state)
{
    (void)state;
    expect_unverified("seat: white\nplay: e5\nwrong: e6\n",
                      "bad.txt:8: lesson a: the answer e5 is refused");
    expect_unverified("seat: white\nplay: e4\nwrong: e2e4\n",
                      "bad.txt:9: lesson a: the wrong answer e2e4 is taken as right");
    expect_unverified("seat: white\nplay: e4\ntarget: e3\nwrong: e3\n",
                      "bad.txt:10: lesson a: the wrong answer e3 is taken as right");
    expect_unverified("seat: red\nplay: e4\nwrong: e5\n",
                      "bad.txt:7: lesson a: seat: no seat 'red' (the seats: white, black)");
    expect_unverified("seat: 0\nplay: e4\nwrong: e5\n", "seat: no seat '0'");
    expect_unverified("seats: 3\nseat: white\nplay: e4\nwrong: e5\n",
                      "bad.txt:7: lesson a: seats: orthodox is played by one seat per side");
    expect_unverified("sides: 3\nseat: white\nplay: e4\nwrong: e5\n",
                      "bad.txt:7: lesson a: sides: orthodox is played by 2 sides");
    expect_unverified("position: 8/8/8/8/8/8/8/8 w - - 0 1\nseat: white\nplay: e4\n"
                      "wrong: e5\n", "bad.txt:7: lesson a: position: ");
    expect_unverified("position: 8/7p/8/3k4/8/4K3/P7/8 w - - 0 1\nhouse: "
                      "scripts/king_of_the_hill.lua\nseat: white\nplay: Ke4\nwrong: Kf4\n",
                      "bad.txt:7: lesson a: position: the game is over before the first "
                      "answer (0-1, black's King stands on the hill)");
    expect_unverified("house: no_such.lua\nseat: white\nplay: e4\nwrong: e5\n",
                      "bad.txt:7: lesson a: house: no_such.lua: ");
    expect_unverified("seat: white\nreply: e4\nplay: e5\nwrong: e6\n",
                      "bad.txt:8: lesson a: reply e4: it is the learner's turn");
    expect_unverified("seat: white\nplay: e4\nwrong: e5\nreply: Nf3\n",
                      "line 10: reply Nf3");
    expect_unverified("seat: white\nplay: e4\nwrong: e5\nresult: 1-0\n",
                      "bad.txt:8: lesson a: the solution e4 is refused: Not that: e4 does not "
                      "end the game as the goal asks (1-0)");
}

/* issue 22: a refused answer shows the engine's refusal or says the move
 * is legal but misses the goal, then the explanation; hints run out into
 * the answer; a target square or the lesson's result accepts answers
 * other than the solution. */
static void test_answers_hints_targets(void **state)
{
    (void)state;
    const char *text = HEAD
        "lesson: mate\ntitle: Mate\nteaches: ORTH-7\ngoal: Mate in one.\n"
        "position: 7k/8/4Q1K1/8/8/8/8/8 w - - 0 1\nseat: white\nplay: Qe8\nwrong: Qf7\n"
        "hint: The eighth rank.\nexplain: A king in check with no move is mated.\n"
        "result: 1-0\n"
        "lesson: knight\ntitle: Knight\nteaches: ORTH-2\ngoal: Go to f3 or h3.\n"
        "seat: white\nplay: Nf3\ntarget: f3 h3\nwrong: Nc3\nexplain: Knights jump.\n";
    LessonFile f;
    Error e = {""};
    assert_int_equal(lesson_file_parse("t.txt", text, strlen(text), &f, &e), 0);
    LessonRun *r = lesson_start(f.variant, &f.v[0], &e);
    assert_non_null(r);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(lesson_answer(r, "Qe9", &out), LESSON_REFUSED);
    assert_non_null(strstr(sb_str(&out), "Not that: "));
    assert_non_null(strstr(sb_str(&out), "Why (ORTH-7): A king in check with no move is "
                                         "mated.\n"));
    sb_reset(&out);
    assert_int_equal(lesson_answer(r, "Qf7", &out), LESSON_REFUSED);
    assert_non_null(strstr(sb_str(&out), "Not that: Qf7 is legal here, but it does not "
                                         "reach the goal."));
    sb_reset(&out);
    lesson_hint(r, &out);
    assert_string_equal(sb_str(&out), "Hint: The eighth rank.\n");
    sb_reset(&out);
    lesson_hint(r, &out);
    assert_string_equal(sb_str(&out), "No more hints. The answer: Qe8\n");
    sb_reset(&out);
    /* another mate than the solution: the result decides */
    assert_int_equal(lesson_answer(r, "Qc8", &out), LESSON_DONE);
    assert_non_null(strstr(sb_str(&out), "white plays Qc8#"));
    lesson_run_free(r);

    r = lesson_start(f.variant, &f.v[1], &e);
    sb_reset(&out);
    assert_int_equal(lesson_answer(r, "Nc3", &out), LESSON_REFUSED);
    assert_non_null(strstr(sb_str(&out), "Not that: Nc3 is legal here, but it does not "
                                         "reach the goal.\nWhy (ORTH-2): Knights jump.\n"));
    sb_reset(&out);
    assert_int_equal(lesson_answer(r, "g1h3", &out), LESSON_DONE); /* a target square */
    sb_free(&out);
    lesson_run_free(r);
    lesson_file_free(&f);
}

/* docs/LESSONS.md shows a whole lesson of lessons/orthodox.txt: it must be
 * that lesson, word for word (the docs cannot drift from the file). */
static void test_docs_lesson_is_the_file(void **state)
{
    (void)state;
    char *doc = tu_read_file("docs/LESSONS.md"), *file = tu_read_file("lessons/orthodox.txt");
    assert_non_null(doc);
    assert_non_null(file);
    const char *intro = strstr(doc, "Here is a whole lesson");
    assert_non_null(intro);
    const char *open = strstr(intro, "```\n");
    assert_non_null(open);
    open += 4;
    const char *close = strstr(open, "```\n");
    assert_non_null(close);
    char *block = strndup(open, (size_t)(close - open));
    assert_non_null(block);
    assert_non_null(strstr(block, "lesson: "));
    if (!strstr(file, block))
        fail_msg("docs/LESSONS.md's lesson is not in lessons/orthodox.txt:\n%s", block);
    free(block);
    free(doc);
    free(file);
}

/* issue 22: `chessvar learn` in the terminal: the list, a lesson played
 * with a refused answer (the engine's reason and the explanation) and the
 * right one, the exit statuses, the errors. */
static void test_learn_command(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "learn orthodox", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  2  en-passant"));
    assert_non_null(strstr(r.out, "ORTH-3"));
    tu_run_free(&r);

    tu_run(&r, "learn orthodox en-passant --ascii", "exd5\nhint\nexd6\n");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Goal: Black's pawn has just stepped two squares"));
    assert_non_null(strstr(r.out, "black plays d5\n"));
    assert_non_null(strstr(r.out, "white to move\ntarget: d6\nwhite> exd5\n"));
    assert_non_null(strstr(r.out, "white> exd5\nNot that: exd5: no white pawn can capture on "
                                  "d5\nWhy (ORTH-3): A pawn that has just stepped two"));
    assert_non_null(strstr(r.out, "Hint: Your pawn captures diagonally forward"));
    assert_non_null(strstr(r.out, "white plays exd6\nRight: en passant."));
    assert_non_null(strstr(r.out, "Next: chessvar learn orthodox 3 (Promotion)"));
    tu_run_free(&r);

    tu_run(&r, "learn orthodox 2", "e6\n"); /* the input ends before the lesson */
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "Not that: e6 is legal here, but it does not reach the "
                                  "goal."));
    tu_run_free(&r);
    tu_run(&r, "learn orthodox 2", "quit\n");
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "The lesson is left undone."));
    tu_run_free(&r);

    tu_run(&r, "learn orthodox 99", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "chessvar learn: no lesson '99' in lessons/orthodox.txt: "
                                  "give its number (1 to 10) or its name: first-move, "));
    tu_run_free(&r);
    tu_run(&r, "learn chequers", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unknown variant 'chequers'"));
    tu_run_free(&r);
    tu_run(&r, "learn orthodox 1 2", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "unexpected argument '2'"));
    tu_run_free(&r);
    tu_run(&r, "learn orthodox 2 --check", NULL);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--check plays every lesson of a file"));
    tu_run_free(&r);
    tu_run(&r, "learn orthodox --lessons lessons/tile.txt", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "lessons/tile.txt holds lessons of tile, not orthodox"));
    tu_run_free(&r);

    tu_run(&r, "learn --check", NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "lessons/masques.txt: 16 lessons, every solution plays"));
    tu_run_free(&r);
}

/* issue 22: a lesson file of one's own (--lessons): listed, played, and
 * checked; a lesson that does not play makes --check fail with the line. */
static void test_learn_own_file(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar_lessons_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = HEAD GOOD_BODY "lesson: bad\ntitle: Bad\nteaches: ORTH-2\ngoal: G\n"
                       "seat: white\nplay: e4\nwrong: e2e4\nexplain: E\n";
    assert_int_equal(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    char args[128];
    TuRun r;
    snprintf(args, sizeof args, "learn --lessons %s", path);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "  1  pawn"));
    tu_run_free(&r);
    snprintf(args, sizeof args, "learn --lessons %s pawn", path);
    tu_run(&r, args, "e4\n");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "Well done: the lesson is done."));
    tu_run_free(&r);
    snprintf(args, sizeof args, "learn --lessons %s --check", path);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, ":16: lesson bad: the wrong answer e2e4 is taken as right"));
    assert_non_null(strstr(r.out, "2 lessons, some failed; no lesson yet for"));
    tu_run_free(&r);
    unlink(path);
}

/* issue 22: both seats' boards side by side only in a lesson that asks for
 * them; any other lesson of a variant that hides pieces shows the
 * learner's own view, never the other seat's figures. */
static void test_learn_views(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "learn masques concede --ascii", "concede\n");
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "What white knows:"));
    assert_non_null(strstr(r.out, "What black knows:"));
    assert_non_null(strstr(r.out, "captured: x                     captured: n~\n"));
    assert_non_null(strstr(r.out, "in a game each seat sees only its own"));
    tu_run_free(&r);
    /* white's own view: Black's masked pieces without their figures */
    tu_run(&r, "learn masques reveal-and-move --ascii", "reveal g1f3\n");
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "knows:"));
    assert_null(strstr(r.out, "p~"));
    assert_null(strstr(r.out, "k~"));
    assert_non_null(strstr(r.out, "N~"));
    tu_run_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_lesson_solution_and_wrong_answers),
        cmocka_unit_test(test_every_rule_has_a_lesson),
        cmocka_unit_test(test_untaught_rule_is_seen),
        cmocka_unit_test(test_malformed_files),
        cmocka_unit_test(test_cut_and_damaged_files),
        cmocka_unit_test(test_lessons_that_do_not_play),
        cmocka_unit_test(test_answers_hints_targets),
        cmocka_unit_test(test_docs_lesson_is_the_file),
        cmocka_unit_test(test_learn_command),
        cmocka_unit_test(test_learn_own_file),
        cmocka_unit_test(test_learn_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
