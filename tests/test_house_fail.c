/*
 * test_house_fail.c -- a house rule whose hook fails (issue 19, point 4):
 * the failure is the error of whatever call met it -- the legal list,
 * perft, a playout, a bot of any level, an experiment's game, a typed
 * move -- never an empty list, a count of 0 or a resignation, and the game
 * stays as it was.  A reaction that refuses its action on purpose
 * (error(), an edit the variant refuses) is not a failure: the action is
 * refused and the others go on.  house_try (`chessvar check`) meets every
 * such failure before a game does.  HOUSE-4 (vetoes), HOUSE-5 (reactions),
 * docs/HOUSE-RULES.md, "When a hook fails".
 *
 * Invariant: each expected count is the engine's own without scripts,
 * less what the script refuses, never copied from a scripted run.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/lab/bot.h"
#include "../core/lab/experiment.h"
#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define SMALL_BUDGET 200000L
#define SMALL_MEMORY ((size_t)4 << 20)

/* One script of tests/house/ loaded against orthodox chess, and a game
 * under it. */
typedef struct Scripted {
    char *text;
    House *h;
    Game *g;
} Scripted;

static void scripted_open(Scripted *s, const char *file)
{
    char path[256];
    Error e;
    snprintf(path, sizeof path, "tests/house/%s", file);
    s->text = tu_read_file(path);
    assert_non_null(s->text);
    HouseSource src = {file, s->text, strlen(s->text)};
    HouseLimits lim = {.instructions = SMALL_BUDGET, .memory = SMALL_MEMORY};
    const VariantOps *v = tu_variant("orthodox");
    s->h = house_load(v, 0, &src, 1, &lim, &e);
    if (!s->h)
        fail_msg("%s: %s", file, e.msg);
    GameHooks k = house_hooks(s->h);
    s->g = tu_game(&(TuGame){.variant = v, .seed = 7, .hooks = &k});
}

static void scripted_close(Scripted *s)
{
    game_free(s->g);
    house_free(s->h);
    free(s->text);
}

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* The failure names the script, the hook and what went wrong. */
static void assert_failure(const char *msg, const char *file, const char *hook,
                           const char *what)
{
    char head[128];
    snprintf(head, sizeof head, "house rule %s, %s: ", file, hook);
    assert_has(msg, head);
    assert_has(msg, what);
}

static void count_divide(void *ud, const char *move, uint64_t n)
{
    (void)move;
    (void)n;
    ++*(int *)ud;
}

/* Each bot level and an experiment's game on g fail with the hook's error
 * (what), the game left as it was. */
static void assert_bots_fail(Game *g, const char *file, const char *hook, const char *what)
{
    Game *before = game_clone(g);
    for (int level = 0; level < BOT__COUNT; level++) {
        Rng rng;
        Error e = {""};
        rng_seed(&rng, 3);
        if (bot_play(g, 0, level, &rng, NULL, &e) == 0)
            fail_msg("the %s bot played under %s", bot_level_name(level), file);
        assert_failure(e.msg, file, hook, what);
        assert_true(game_same(g, before));
    }
    for (int level = 0; level < BOT__COUNT; level++) {
        ExpInfo x;
        memset(&x, 0, sizeof x);
        x.nseats = x.nsides = 2;
        x.max_plies = 50;
        x.nsets = 1;
        x.games = 1;
        x.players[0].level = x.players[1].level = level;
        Game *c = game_clone(g);
        ExpGame out;
        Error e = {""};
        assert_int_equal(exp_play(&x, 0, 0, c, &out, &e), -1);
        assert_has(e.msg, "ply 1, white's ");
        assert_failure(e.msg, file, hook, what);
        game_free(c);
    }
    game_free(before);
}

/* Issue 19, point 4 (HOUSE-4): a veto that loops or returns a number
 * fails every list, count and choice that needs it, with its error. */
static void test_house4_failing_veto_fails_every_caller(void **state)
{
    (void)state;
    static const struct { const char *file, *what; } cases[] = {
        {"h_veto_loop.lua", "h_veto_loop.lua:1: instruction budget exceeded"},
        {"wrong_veto.lua", "wrong_veto.lua:1: veto returned a number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Scripted s;
        scripted_open(&s, cases[i].file);
        Game *g = s.g, *before = game_clone(g);
        ActionList l = ACTIONLIST_INIT;
        assert_int_equal(game_legal(g, 0, &l), -1);
        assert_int_equal(l.n, 0);
        assert_failure(game_hook_error(g), cases[i].file, "veto", cases[i].what);
        assert_int_equal(game_legal_play(g, &l), -1);
        assert_int_equal(l.n, 0);
        assert_failure(game_hook_error(g), cases[i].file, "veto", cases[i].what);
        for (int depth = 1; depth <= 2; depth++) {
            assert_true(game_perft(g, depth) == GAME_PERFT_FAILED);
            assert_true(game_perft_generic(g, depth) == GAME_PERFT_FAILED);
            int lines = 0;
            assert_true(game_perft_divide(g, depth, count_divide, &lines) ==
                        GAME_PERFT_FAILED);
            assert_int_equal(lines, 0);
            assert_failure(game_hook_error(g), cases[i].file, "veto", cases[i].what);
        }
        Rng rng;
        Status st;
        rng_seed(&rng, 1);
        assert_int_equal(game_playout(g, &rng, 20, &st), -1);
        assert_failure(game_hook_error(g), cases[i].file, "veto", cases[i].what);
        /* one candidate asked alone: an error, not a verdict */
        Game *plain = tu_orthodox(NULL);
        ActionList pl = ACTIONLIST_INIT;
        assert_int_equal(game_legal_play(plain, &pl), 0);
        char why[512];
        assert_int_equal(game_vetoed(g, &pl.v[0], why, sizeof why), -1);
        assert_failure(why, cases[i].file, "veto", cases[i].what);
        Error e = {""};
        assert_int_equal(game_apply(g, &pl.v[0], &e), -1);
        assert_failure(e.msg, cases[i].file, "veto", cases[i].what);
        assert_int_equal(game_play(g, 0, "e4", &e), -1);
        assert_failure(e.msg, cases[i].file, "veto", cases[i].what);
        assert_null(strstr(e.msg, "forbidden"));
        assert_int_equal(game_play(g, 0, "resign", &e), -1); /* its list too */
        assert_failure(e.msg, cases[i].file, "veto", cases[i].what);
        assert_true(game_same(g, before));
        assert_bots_fail(g, cases[i].file, "veto", cases[i].what);
        al_free(&pl);
        al_free(&l);
        game_free(plain);
        game_free(before);
        scripted_close(&s);
    }
}

/* Issue 19, point 4 (HOUSE-4): a veto that fails only below the game's own
 * position (move 2 on) leaves the game's list whole, and fails what looks
 * further: perft past depth 1, a playout, the search bot. */
static void test_house4_veto_failing_below_the_game(void **state)
{
    (void)state;
    Scripted s;
    scripted_open(&s, "fail_veto_deep.lua");
    const char *what = "fail_veto_deep.lua:7: no veto past move 1";
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(s.g, &l), 0);
    Game *plain = tu_orthodox(NULL);
    assert_true(game_perft(s.g, 1) == game_perft(plain, 1));
    assert_int_equal(l.n, (int)game_perft(plain, 1));
    assert_null(game_hook_error(s.g));
    assert_true(game_perft(s.g, 2) == GAME_PERFT_FAILED);
    assert_failure(game_hook_error(s.g), "fail_veto_deep.lua", "veto", what);
    assert_true(game_perft_divide(s.g, 2, NULL, NULL) == GAME_PERFT_FAILED);
    Rng rng;
    Status st;
    rng_seed(&rng, 1);
    assert_int_equal(game_playout(s.g, &rng, 20, &st), -1);
    assert_failure(game_hook_error(s.g), "fail_veto_deep.lua", "veto", what);
    Game *before = game_clone(s.g);
    Error e = {""};
    rng_seed(&rng, 1);
    assert_int_equal(bot_play(s.g, 0, BOT_SEARCH, &rng, NULL, &e), -1);
    assert_failure(e.msg, "fail_veto_deep.lua", "veto", what);
    assert_true(game_same(s.g, before));
    al_free(&l);
    game_free(before);
    game_free(plain);
    scripted_close(&s);
}

/* Issue 19, point 4 (HOUSE-5): a reaction that fails by a slip of the
 * script or a limit fails the move, perft (never a count of 0), every bot
 * and an experiment's game; the list, which needs no reaction, is whole. */
static void test_house5_failing_reaction_fails_every_caller(void **state)
{
    (void)state;
    static const struct { const char *file, *what; } cases[] = {
        {"react_slip.lua", "react_slip.lua:7: attempt to index a nil value"},
        {"react_loop.lua", "react_loop.lua:1: instruction budget exceeded"},
    };
    Game *plain = tu_orthodox(NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Scripted s;
        scripted_open(&s, cases[i].file);
        Game *g = s.g, *before = game_clone(g);
        ActionList l = ACTIONLIST_INIT;
        assert_int_equal(game_legal_play(g, &l), 0);
        assert_true((uint64_t)l.n == game_perft(plain, 1));
        assert_true(game_perft(g, 1) == GAME_PERFT_FAILED);
        assert_failure(game_hook_error(g), cases[i].file, "react", cases[i].what);
        int lines = 0;
        assert_true(game_perft_divide(g, 2, count_divide, &lines) == GAME_PERFT_FAILED);
        assert_int_equal(lines, 0);
        Rng rng;
        Status st;
        rng_seed(&rng, 1);
        assert_int_equal(game_playout(g, &rng, 20, &st), -1);
        assert_failure(game_hook_error(g), cases[i].file, "react", cases[i].what);
        Error e = {""};
        assert_int_equal(game_play(g, 0, "e4", &e), -1);
        assert_failure(e.msg, cases[i].file, "react", cases[i].what);
        assert_failure(game_hook_error(g), cases[i].file, "react", cases[i].what);
        assert_true(game_same(g, before));
        assert_bots_fail(g, cases[i].file, "react", cases[i].what);
        al_free(&l);
        game_free(before);
        scripted_close(&s);
    }
    game_free(plain);
}

/* HOUSE-5: a reaction that refuses its action on purpose -- error(), or an
 * edit the variant refuses, caught and raised again -- refuses that action
 * only: perft leaves it out, bots play another, no failure is reported. */
static void test_house5_refusal_is_not_a_failure(void **state)
{
    (void)state;
    static const char *const files[] = {"react_error.lua", "react_edit_refused.lua"};
    Game *plain = tu_orthodox(NULL);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        Scripted s;
        scripted_open(&s, files[i]);
        assert_true(game_perft(s.g, 1) == game_perft(plain, 1) - 1); /* e4 */
        assert_null(game_hook_error(s.g));
        Error e = {""};
        assert_int_equal(game_play(s.g, 0, "e4", &e), -1);
        assert_has(e.msg, "react");
        assert_null(game_hook_error(s.g)); /* refused, not failed */
        for (int level = 0; level < BOT__COUNT; level++) {
            Game *c = game_clone(s.g);
            Rng rng;
            Action a;
            rng_seed(&rng, 5);
            if (bot_play(c, 0, level, &rng, &a, &e))
                fail_msg("%s, %s bot: %s", files[i], bot_level_name(level), e.msg);
            game_free(c);
        }
        scripted_close(&s);
    }
    game_free(plain);
}

/* Issue 19, point 4: house_try (`chessvar check`) meets a failing hook on
 * the start position or in its short random game, names the script, the
 * hook and where; it passes clean scripts and refusals; g is unchanged. */
static void test_house_try_meets_failing_hooks(void **state)
{
    (void)state;
    static const struct { const char *file, *hook, *where; } bad[] = {
        {"h_veto_loop.lua", "veto", "(on the start position)"},
        {"wrong_veto.lua", "veto", "(on the start position)"},
        {"fail_veto_deep.lua", "veto", "(in a random game, seed 1, after "},
        {"react_slip.lua", "react", "(on the start position)"},
        {"react_loop.lua", "react", "(on the start position)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Scripted s;
        scripted_open(&s, bad[i].file);
        Game *before = game_clone(s.g);
        Error e = {""};
        assert_int_equal(house_try(s.g, 8, 1, &e), -1);
        assert_failure(e.msg, bad[i].file, bad[i].hook, "");
        assert_has(e.msg, bad[i].where);
        assert_true(game_same(s.g, before));
        game_free(before);
        scripted_close(&s);
    }
    static const char *const good[] = {"noqueen.lua", "koth.lua", "react_error.lua",
                                       "react_edit_refused.lua", "inspect.lua"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        Scripted s;
        scripted_open(&s, good[i]);
        Error e = {""};
        if (house_try(s.g, 8, 1, &e))
            fail_msg("%s: %s", good[i], e.msg);
        scripted_close(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_house4_failing_veto_fails_every_caller),
        cmocka_unit_test(test_house4_veto_failing_below_the_game),
        cmocka_unit_test(test_house5_failing_reaction_fails_every_caller),
        cmocka_unit_test(test_house5_refusal_is_not_a_failure),
        cmocka_unit_test(test_house_try_meets_failing_hooks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
