/*
 * test_protocol.c -- the machine protocol of `chessvar run --json`
 * (docs/PROTOCOL.md) as a front end reads it, issue 19 point 7: Tile's
 * `first` parameter is refused beside --fen; errors about a seat name it.
 *
 * Invariant: answers are read as JSON (core/json.h), member by member,
 * never by matching prose; every expectation was worked out from the
 * rules, not copied from the program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/json.h"
#include "support/testutil.h"

/* ---- Reading answers ------------------------------------------------------ */

#define MAX_ANSWERS 64

/* The answers of `chessvar ARGS` to input, one JSON object per line. */
typedef struct Answers {
    int n;
    Json *a[MAX_ANSWERS];
    TuRun run;
} Answers;

static void answers(Answers *r, const char *args, const char *input)
{
    memset(r, 0, sizeof *r);
    tu_run(&r->run, args, input);
    for (char *line = r->run.out, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl);
        Error e;
        assert_true(r->n < MAX_ANSWERS);
        Json *j = json_parse(line, (size_t)(nl - line), &e);
        if (!j)
            fail_msg("%s: answer %d is not JSON (%s): %.*s", args, r->n + 1, e.msg,
                     (int)(nl - line), line);
        r->a[r->n++] = j;
    }
}

static void answers_free(Answers *r)
{
    for (int i = 0; i < r->n; i++)
        json_free(r->a[i]);
    tu_run_free(&r->run);
}

/* Member at a dotted path ("status.reason_code"); fails if one is missing. */
static const Json *at(const Json *o, const char *path)
{
    char buf[128];
    str_copy(buf, sizeof buf, path);
    const Json *j = o;
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
        if (!(j = json_get(j, k)))
            fail_msg("no member '%s' (in %s)", k, path);
    return j;
}

/* The answer's member at path is the string want, or null (want NULL). */
static void assert_member(const Json *o, const char *path, const char *want)
{
    const Json *j = at(o, path);
    if (!want) {
        if (j->type != JSON_NULL)
            fail_msg("%s: %.*s, not null", path, (int)j->len, j->text);
        return;
    }
    if (j->type != JSON_STRING || strcmp(j->str, want) != 0)
        fail_msg("%s: %.*s, not \"%s\"", path, (int)j->len, j->text, want);
}

/* The last answer of the run; every answer must have been a success. */
static const Json *last_ok(const Answers *r)
{
    assert_true(r->n > 0);
    for (int i = 0; i < r->n; i++)
        if (at(r->a[i], "ok")->type != JSON_TRUE)
            fail_msg("answer %d failed: %s", i + 1, at(r->a[i], "error")->str);
    return r->a[r->n - 1];
}

/* ---- Options that clash, errors that name the seat --------------------------- */

/* issue 19 point 7: Tile's `first` and a --fen both say who moves first:
 * refused (exit 2) naming both, where the parameter was silently ignored;
 * alone, the parameter decides. */
static void test_issue19_7_tile_first_with_fen_is_refused(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run tile --param first=black --fen 'hand:w=KQRRBBNNPPPPPPPP,"
               "b=KQRRBBNNPPPPPPPP turn:w' --json", "status\n");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "--param first=black"));
    assert_non_null(strstr(r.err, "--fen"));
    assert_non_null(strstr(r.err, "first:"));
    tu_run_free(&r);
    for (int cmd = 0; cmd < 2; cmd++) { /* every command that starts a game */
        tu_run(&r, cmd ? "legal tile --param first=red --sides 3 --fen 'wK0,0 bK1,0 "
                         "rK2,0 turn:w'" : "perft tile --depth 1 --param first=black "
                         "--fen 'wK0,0 bK1,0 turn:w'", NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "--fen"));
        tu_run_free(&r);
    }
    Answers a;
    answers(&a, "run tile --param first=black --json", "status\n");
    assert_member(last_ok(&a), "to_act", "black");
    answers_free(&a);
    answers(&a, "run tile --fen 'hand:w=KQRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:w "
                "first:b' --json", "status\n");
    assert_member(last_ok(&a), "to_act", "white");
    answers_free(&a);
}

/* issue 19 point 7: a bot asked for a seat that has nothing to do names
 * the seat (it said "this seat"). */
static void test_issue19_7_bot_error_names_the_seat(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run tile --sides 3 --fen 'wK0,0 bK1,0 rQ2,0 cmd:r=w turn:w' --json",
            "as red bot random\n");
    assert_int_equal(r.n, 1);
    assert_int_equal(at(r.a[0], "ok")->type, JSON_FALSE);
    const char *msg = at(r.a[0], "error")->str;
    if (!strstr(msg, "red") || strstr(msg, "this seat"))
        fail_msg("the error does not name red: %s", msg);
    answers_free(&r);
}

/* issue 19 point 7: an action for "the seat to act" (-1) once the game is
 * over is refused with why, never "there is no seat -1" (UCI met it). */
static void test_issue19_7_no_seat_minus_one_after_the_end(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "f3 e5 g4 Qh4");
    Error e;
    assert_int_equal(game_play(g, game_to_act(g), "a3", &e), -1);
    assert_non_null(strstr(e.msg, "the game is over (0-1, checkmate)"));
    assert_null(strstr(e.msg, "seat -1"));
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue19_7_tile_first_with_fen_is_refused),
        cmocka_unit_test(test_issue19_7_bot_error_names_the_seat),
        cmocka_unit_test(test_issue19_7_no_seat_minus_one_after_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
