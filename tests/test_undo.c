/*
 * test_undo.c -- undo and repetition counting stay exact while their cost
 * stays linear (issue 8, "Cost that grows faster than the game").
 *
 * game_undo restores a blob kept every few dozen actions and re-applies the
 * rest; game_repetitions reads a hash table of keys.  Both are checked here
 * against the slow definitions: a game rebuilt by replaying the first t
 * actions from the start must be game_same as the undone one (state,
 * history, keys, messages, draw offer, generator), and the repetition count
 * must equal a count over every position reached.  Seeded random games of
 * every built-in variant, undos of every size, long and short.
 *
 * Invariant: the random games draw only from their own seeded generator,
 * so a failure names the seed, the ply and the undo that broke.
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
#include "support/testutil.h"

#if TU_SANITIZED
enum { GAMES = 3, PLIES = 260 };
#else
enum { GAMES = 8, PLIES = 420 };
#endif

/* The game made of the first t actions of g, replayed from the start. */
static Game *replayed(const Game *g, int t)
{
    Error e;
    Game *r = game_new(game_config(g), &e);
    assert_non_null(r);
    for (int i = 0; i < t; i++) {
        const HistoryEntry *h = game_history(g, i);
        if (game_apply(r, &h->action, &e))
            fail_msg("replaying action %d (%s): %s", i + 1, h->text, e.msg);
    }
    return r;
}

/* Repetitions by definition: how many positions reached (after each play
 * action, and the start) have the current key.  Computed on replays. */
static int repetitions_by_scan(const Game *g)
{
    int n = game_history_len(g), count = 0;
    uint64_t key = game_variant(g)->hash(g, game_state(g));
    Game *r = replayed(g, 0);
    count += game_variant(r)->hash(r, game_state(r)) == key;
    for (int i = 0; i < n; i++) {
        const HistoryEntry *h = game_history(g, i);
        Error e;
        assert_int_equal(game_apply(r, &h->action, &e), 0);
        if (!action_is_meta(h->action.kind))
            count += game_variant(r)->hash(r, game_state(r)) == key;
    }
    game_free(r);
    return count;
}

/* A random legal action of the seat to act, with a lean towards going back
 * and forth (repetitions) now and then. */
static int play_random(Game *g, Rng *rng)
{
    int seat = game_to_act(g);
    if (seat < 0)
        return -1;
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    int k = -1;
    for (int tries = 0; tries < 8 && k < 0; tries++) {
        int i = (int)rng_below(rng, (uint32_t)l.n);
        /* resigning ends the game early: rarely */
        if (l.v[i].kind != ACT_RESIGN || rng_below(rng, 50) == 0)
            k = i;
    }
    if (k < 0)
        k = 0;
    Error e;
    int rc = game_apply(g, &l.v[k], &e);
    al_free(&l);
    assert_int_equal(rc, 0);
    return 0;
}

static void check_variant(const char *name, const char *params)
{
    for (int seed = 1; seed <= GAMES; seed++) {
        Rng rng;
        rng_seed(&rng, (uint64_t)seed * 7919);
        Game *g = tu_game(&(TuGame){.variant = tu_variant(name), .seed = (uint64_t)seed,
                                    .params = params});
        for (int ply = 0; ply < PLIES && play_random(g, &rng) == 0; ply++) {
            if (rng_below(&rng, 9) != 0)
                continue;
            /* undo a random number of actions (sometimes all, sometimes
             * more than a kept block) on a copy and compare */
            int n = game_history_len(g);
            int back = (int)rng_below(&rng, (uint32_t)(n < 150 ? n + 1 : 150));
            Game *c = game_clone(g);
            Error e;
            assert_int_equal(game_undo(c, back, &e), 0);
            Game *r = replayed(g, n - back);
            if (!game_same(c, r))
                fail_msg("%s seed %d: undo %d after %d actions differs from a replay of "
                         "the first %d", name, seed, back, n, n - back);
            assert_int_equal(game_repetitions(c), repetitions_by_scan(c));
            /* the undone game plays on like the replayed one */
            Rng a = rng, b = rng;
            play_random(c, &a);
            play_random(r, &b);
            if (!game_same(c, r))
                fail_msg("%s seed %d: after undo %d the next action differs", name, seed,
                         back);
            game_free(c);
            game_free(r);
        }
        assert_int_equal(game_repetitions(g), repetitions_by_scan(g));
        game_free(g);
    }
}

/* ORTH-9: repetitions counted by the table equal the scan; undo exact. */
static void test_undo_orthodox_exact_orth9(void **state)
{
    (void)state;
    check_variant("orthodox", "fivefold=off seventy_five_move=off");
}

/* MASQ-1 (random setups from the blob's generator), MASQ-8..11: undo
 * through setups, battles and bids is exact. */
static void test_undo_masques_exact_masq1(void **state)
{
    (void)state;
    check_variant("masques", "allin=6");
}

/* AMBI-2, AMBI-7: the opponent's choices and the clock procedure's notes
 * come back exactly. */
static void test_undo_ambigus_exact_ambi2(void **state)
{
    (void)state;
    check_variant("ambigus", "clock=on");
}

/* ORTH-9: knight shuffles: every fourth action repeats the start; the count
 * grows by one each time and undo brings it back. */
static void test_repetition_count_orth9(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with(NULL, "fivefold=off seventy_five_move=off");
    static const char *const CYCLE[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int i = 0; i < 4 * 300; i++) {
        tu_play(g, game_to_act(g), CYCLE[i % 4]);
        if (i % 4 == 3)
            assert_int_equal(game_repetitions(g), 2 + i / 4);
    }
    Error e;
    assert_int_equal(game_undo(g, 4 * 100, &e), 0);
    assert_int_equal(game_repetitions(g), 201);
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_int_equal(game_repetitions(g), 200); /* after Ng1: a position seen 200 times */
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_undo_orthodox_exact_orth9),
        cmocka_unit_test(test_undo_masques_exact_masq1),
        cmocka_unit_test(test_undo_ambigus_exact_ambi2),
        cmocka_unit_test(test_repetition_count_orth9),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
