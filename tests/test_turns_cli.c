/*
 * test_turns_cli.c -- the schedules of scripts/ (issue 25) in the terminal,
 * as a person types them: `chessvar play` says whose move it is and which
 * move of the turn ("white to move (move 2 of 2 this turn)", then "black
 * to move (move 1 of 1 this turn)"), `chessvar run`'s history numbers the
 * turns, a saved record of a scheduled game loads back into the same turn,
 * and every listed structure plays to its end between two bots.
 *
 * Invariant: what is expected follows from the schedules as the scripts'
 * docs state them (Monster: White two moves a turn, Black one), never
 * copied from the program's own output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "support/testutil.h"

/* needle is in hay at or after *from; *from moves past it. */
static void assert_next(const char *hay, const char **from, const char *needle)
{
    const char *at = strstr(*from, needle);
    if (!at)
        fail_msg("\"%s\" is not in what follows:\n%s\n(whole output:\n%s)", needle, *from, hay);
    *from = at + strlen(needle);
}

static void assert_has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
    if (strstr(hay, needle))
        fail_msg("\"%s\" should not be in:\n%s", needle, hay);
}

/* issue 25: in `play`, Monster chess (scripts/monster.lua): White's board
 * says move 1 of 2, then (White again, after d4) move 2 of 2, then Black
 * move 1 of 1, then White's next turn move 1 of 2. */
static void test_issue25_play_monster_move_k_of_n(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "play orthodox --rules scripts/monster.lua --ascii",
           "d4\ne4\ne5\ndxe5\nquit\nyes\n\n");
    const char *p = r.out;
    assert_next(r.out, &p, "white to move (move 1 of 2 this turn)\nwhite> ");
    assert_next(r.out, &p, "white to move (move 2 of 2 this turn)\nwhite> ");
    assert_next(r.out, &p, "black to move (move 1 of 1 this turn)\nblack> ");
    assert_next(r.out, &p, "white to move (move 1 of 2 this turn)\nwhite> ");
    assert_next(r.out, &p, "white to move (move 2 of 2 this turn)\nwhite> ");
    assert_lacks(r.out, "white to move\n");
    tu_run_free(&r);
}

/* issue 25: `run`'s history numbers the turns of a schedule (White's two
 * moves are turn 1, Black's one turn 2 ...), its JSON gives each action its
 * turn; the status line says which move is next. */
static void test_issue25_run_history_by_turns(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run orthodox --rules scripts/monster.lua",
           "d4\ne4\ne5\nKd2\nhistory\nstatus\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "\n1. d4 e4 2. e5 3. Kd2\n");
    assert_has(r.out, "white to move (move 2 of 2 this turn)\n");
    tu_run_free(&r);
    tu_run(&r, "run orthodox --rules scripts/monster.lua --json",
           "d4\ne4\ne5\nhistory\nview\nstatus\n");
    assert_has(r.out, "{\"seat\":\"white\",\"kind\":\"move\",\"text\":\"e4\",\"machine\":\"e2e4\","
                      "\"turn\":1},{\"seat\":\"black\",\"kind\":\"move\",\"text\":\"e5\","
                      "\"machine\":\"e7e5\",\"turn\":2}]");
    assert_has(r.out, "\"turn\":{\"number\":3,\"made\":0,\"moves\":2,\"left\":2,\"duck\":false},"
                      "\"messages\":["); /* the view */
    assert_has(r.out, "\"scores\":null,\"turn\":{\"number\":3,\"made\":0,\"moves\":2,"
                      "\"left\":2,\"duck\":false}}\n"); /* the status answer */
    tu_run_free(&r);
    /* without a schedule: as before */
    tu_run(&r, "run orthodox", "e4\ne5\nhistory\n");
    assert_has(r.out, "\ne4 e5\n");
    assert_lacks(r.out, "1. ");
    tu_run_free(&r);
}

/* issue 25: a record of a scheduled game carries the script; loaded back
 * (--trust-rules), the replay rebuilds the turn: White's second move is
 * next, the history keeps its turns. */
static void test_issue25_record_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_turns_XXXXXX", in[160], args[160];
    assert_non_null(mkdtemp(dir));
    snprintf(in, sizeof in, "d4\ne4\ne5\nKd2\nsave %s/m.rec\n", dir);
    TuRun r;
    tu_run(&r, "run orthodox --rules scripts/monster.lua", in);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    snprintf(in, sizeof in, "%s/m.rec", dir);
    char *rec = tu_read_file(in);
    assert_non_null(rec);
    assert_has(rec, "Rule \"monster.lua\"");
    assert_has(rec, "3. black: e5\n4. white: Kd2\n");
    free(rec);
    snprintf(args, sizeof args, "run orthodox --load %s/m.rec --trust-rules", dir);
    tu_run(&r, args, "status\nhistory\nKe3\nstatus\n");
    assert_int_equal(r.status, 0);
    const char *p = r.out;
    assert_next(r.out, &p, "white to move (move 2 of 2 this turn) (4 actions played)\n");
    assert_next(r.out, &p, "1. d4 e4 2. e5 3. Kd2\n");
    assert_next(r.out, &p, "black to move (move 1 of 1 this turn)\n");
    tu_run_free(&r);
    unlink(in);
    rmdir(dir);
}

/* "Each listed structure plays to its end in the terminal" (issue 25):
 * every schedule of scripts/ between two greedy bots in `play`, to a
 * finished game.  A bot plays its whole turn, then the board is drawn
 * once: the boards say move 1 of the turn's moves, which the schedule
 * sets (Monster: White 2, Black 1; Marseillais: White 1 at first, then 2
 * each; progressive: 1, 2, 3 ...); duck chess (fairy) places the duck
 * after each move. */
static void test_issue25_each_schedule_plays_to_its_end(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *script, *lines[2];
    } S[] = {
        {"orthodox", "monster", {"\nwhite to move (move 1 of 2 this turn)\n",
                                 "\nblack to move (move 1 of 1 this turn)\n"}},
        {"orthodox", "marseillais", {"\nwhite to move (move 1 of 1 this turn)\n",
                                     "\nblack to move (move 1 of 2 this turn)\n"}},
        {"ambigus", "marseillais", {"\nwhite to move (move 1 of 1 this turn)\n",
                                    "\nblack to move (move 1 of 2 this turn)\n"}},
        {"orthodox", "progressive", {"\nblack to move (move 1 of 2 this turn)\n",
                                     "\nwhite to move (move 1 of 3 this turn)\n"}},
        {"orthodox", "balanced", {"\nwhite to move (move 1 of 1 this turn)\n",
                                  "\nblack to move (move 1 of 2 this turn)\n"}},
        {"orthodox", "double_move", {"\nwhite to move (move 1 of 2 this turn)\n",
                                     "\nblack to move (move 1 of 2 this turn)\n"}},
        /* TURN-4: each move is followed by the mover's duck, shown on the
         * status line of the next side to move */
        {"fairy", "duck", {"\n* white places the duck: @", "\nthe duck: "}},
    };
    for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
        char args[200];
        snprintf(args, sizeof args, "play %s --rules scripts/%s.lua --bot white=greedy "
                 "--bot black=greedy --seed 5 --ascii", S[i].variant, S[i].script);
        TuRun r;
        tu_run(&r, args, "quit\n");
        const char *end = strstr(r.out, "\ngame over: ");
        if (r.status != 0 || !end || !strstr(r.out, S[i].lines[0]) ||
            !strstr(r.out, S[i].lines[1]))
            fail_msg("%s: status %d, stderr %s, the end of stdout:\n%s", args, r.status, r.err,
                     strlen(r.out) > 1500 ? r.out + strlen(r.out) - 1500 : r.out);
        tu_run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue25_play_monster_move_k_of_n),
        cmocka_unit_test(test_issue25_run_history_by_turns),
        cmocka_unit_test(test_issue25_record_round_trip),
        cmocka_unit_test(test_issue25_each_schedule_plays_to_its_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
