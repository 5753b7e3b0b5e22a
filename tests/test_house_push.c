/*
 * test_house_push.c -- issue 20 point 7: a house rule's reaction runs
 * inside the look-ahead's push and pop (the search bot, perft) instead of
 * on a copy of the game replayed through game_apply.  What a push shows
 * must be what playing the action shows, and a pop must give the game
 * back exactly; perft through a reaction must count what a perft through
 * whole games (a copy and game_apply per action, the old way) counts.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../core/lab/bot.h"
#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

/* A shipped script (or a text) loaded against orthodox chess, and a game
 * from fen under it. */
typedef struct Scripted {
    char *text;
    House *h;
    Game *g;
} Scripted;

static void scripted(Scripted *s, const char *name, const char *text, const char *fen)
{
    Error e;
    s->text = text ? cv_strdup(text) : tu_read_file(name);
    assert_non_null(s->text);
    HouseSource src = {name, s->text, strlen(s->text)};
    const VariantOps *v = tu_variant("orthodox");
    s->h = house_load(v, 0, &src, 1, NULL, &e);
    if (!s->h)
        fail_msg("%s: %s", name, e.msg);
    GameHooks k = house_hooks(s->h);
    s->g = tu_game(&(TuGame){.variant = v, .seed = 7, .position = fen, .hooks = &k});
}

static void scripted_close(Scripted *s)
{
    game_free(s->g);
    house_free(s->h);
    free(s->text);
}

static const char *const SCRIPTS[] = {
    "scripts/king_of_the_hill.lua", "scripts/three_check.lua", "scripts/atomic.lua"};

/* Positions where the shipped scripts act: a King next to the hill, checks
 * to give, captures to explode (one next to the enemy King). */
static const char *const FENS[] = {
    TU_FEN_START,
    TU_FEN_KIWIPETE,
    "8/2p5/2k5/8/4n3/3K4/2P5/8 w - - 0 1",
    "rn2q1r1/1ppknp2/4p1p1/p2p3p/3P1B1P/NPQ5/P1P3P1/RN2KB1R w Q - 7 15",
    "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
};

/* Does what g shows after a push equal what c shows after game_apply of
 * the same action?  Position, status, values kept, history texts. */
static void assert_same_sight(const Game *g, const Game *c, const char *what)
{
    StrBuf a = STRBUF_INIT, b = STRBUF_INIT;
    game_position(g, &a);
    game_position(c, &b);
    if (strcmp(sb_str(&a), sb_str(&b)))
        fail_msg("%s: pushed %s, played %s", what, sb_str(&a), sb_str(&b));
    sb_free(&a);
    sb_free(&b);
    Status x, y;
    game_status(g, &x);
    game_status(c, &y);
    if (x.over != y.over || x.winners != y.winners || strcmp(x.reason, y.reason))
        fail_msg("%s: pushed over=%d %u '%s', played over=%d %u '%s'", what, x.over,
                 x.winners, x.reason, y.over, y.winners, y.reason);
    assert_int_equal(game_history_len(g), game_history_len(c));
    for (int i = 0; i < game_history_len(g); i++) {
        assert_string_equal(game_history(g, i)->text, game_history(c, i)->text);
        assert_string_equal(game_history(g, i)->machine, game_history(c, i)->machine);
    }
    for (int side = 0; side < 2; side++) {
        const char *key = side ? "black" : "white";
        const GameVar *u = game_var(g, 0, key), *v = game_var(c, 0, key);
        assert_int_equal(u != NULL, v != NULL);
        if (u)
            assert_int_equal(u->num, v->num);
    }
    assert_int_equal(game_repetitions(g), game_repetitions(c));
}

/* issue 20 point 7: for every play action of every position, with each
 * shipped script: push shows what game_apply shows (an explosion, a win
 * on the hill, a third check), a refused action is refused by both, and
 * pop gives back a game game_same to the one before. */
static void test_issue20_7_push_shows_what_play_shows(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++)
        for (size_t f = 0; f < ARRAY_LEN(FENS); f++) {
            Scripted s;
            scripted(&s, SCRIPTS[k], NULL, FENS[f]);
            if (game_to_act(s.g) < 0) { /* a start the rule already ended */
                scripted_close(&s);
                continue;
            }
            Game *before = game_clone(s.g);
            ActionList l = ACTIONLIST_INIT;
            assert_int_equal(game_legal_play(s.g, &l), 0);
            assert_true(l.n > 0);
            int refused = 0, ended = 0;
            for (int i = 0; i < l.n; i++) {
                char what[160];
                snprintf(what, sizeof what, "%s, %s, action %d", SCRIPTS[k], FENS[f], i);
                Game *c = game_clone(s.g);
                Error e;
                int played = game_apply(c, &l.v[i], &e) == 0;
                int pushed = game_push(s.g, &l.v[i]) == 0;
                if (played != pushed)
                    fail_msg("%s: played %d (%s), pushed %d", what, played,
                             played ? "" : e.msg, pushed);
                assert_null(game_hook_error(s.g));
                if (pushed) {
                    assert_same_sight(s.g, c, what);
                    ended += game_to_act(s.g) < 0;
                    game_pop(s.g);
                } else {
                    refused++;
                }
                if (!game_same(s.g, before))
                    fail_msg("%s: the game is not what it was after the pop", what);
                game_free(c);
            }
            /* the positions were chosen so that the rules act somewhere */
            if (k == 2 && f == 3)
                assert_true(ended > 0); /* Qxc7 blows up Black's King */
            (void)refused;
            al_free(&l);
            game_free(before);
            scripted_close(&s);
        }
}

/* issue 20 point 7: pushes nest; values kept by three-check, explosions
 * and ends at depth are all undone in order, the game left exactly as it
 * was after a random walk of pushes and pops. */
static void test_issue20_7_nested_pushes_pop_back_exactly(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++) {
        Scripted s;
        scripted(&s, SCRIPTS[k], NULL, FENS[4]);
        Game *before = game_clone(s.g);
        Rng rng;
        rng_seed(&rng, 11 + k);
        ActionList l = ACTIONLIST_INIT;
        int depth = 0, pushes = 0;
        for (int step = 0; step < 4000; step++) {
            al_clear(&l);
            int down = depth < 6 && game_to_act(s.g) >= 0 &&
                       game_legal_play(s.g, &l) == 0 && l.n > 0 &&
                       (depth == 0 || rng_below(&rng, 3) != 0);
            if (down && game_push(s.g, &l.v[rng_below(&rng, (uint32_t)l.n)]) == 0) {
                depth++;
                pushes++;
            } else if (depth > 0) {
                game_pop(s.g);
                depth--;
            }
        }
        while (depth-- > 0)
            game_pop(s.g);
        assert_true(pushes > 1000);
        assert_true(game_same(s.g, before));
        al_free(&l);
        game_free(before);
        scripted_close(&s);
    }
}

/* The old perft through a reaction: a copy and game_apply per action (the
 * veto asked again, which changes no count).  A branch ends where the
 * variant gives the side to act nothing, or where a reaction ended the
 * game (the positions below are too short for an automatic draw). */
static uint64_t perft_by_apply(const Game *g, int depth)
{
    if (depth == 0)
        return 1;
    Status s;
    game_status(g, &s);
    if (s.over && s.code == END_HOUSE_RULE)
        return 0;
    int seat = game_variant(g)->to_act(g, game_state(g));
    if (seat < 0)
        return 0;
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play_of(g, seat, &l), 0);
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        Game *c = game_clone(g);
        Error e;
        if (game_apply(c, &l.v[i], &e) == 0)
            n += perft_by_apply(c, depth - 1);
        game_free(c);
    }
    al_free(&l);
    return n;
}

/* issue 20 points 7 and 8: perft through each shipped reaction, pushed on
 * one copy, counts what perft through whole games counted (refused
 * explosions not counted, the hill's and the third check's wins ending
 * their branch). */
static void test_issue20_7_perft_pushed_counts_what_games_count(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++)
        for (size_t f = 2; f < ARRAY_LEN(FENS); f++) {
            Scripted s;
            scripted(&s, SCRIPTS[k], NULL, FENS[f]);
            if (game_to_act(s.g) >= 0) {
                uint64_t want = perft_by_apply(s.g, 3), got = game_perft(s.g, 3);
                if (want != got)
                    fail_msg("%s from %s: perft 3 %llu, by whole games %llu", SCRIPTS[k],
                             FENS[f], (unsigned long long)got, (unsigned long long)want);
            }
            scripted_close(&s);
        }
}

/* issue 20 point 7: the repetition table forgets a position once no key
 * holds it, so millions of pushed and popped positions neither grow it
 * nor break it: after a long look-ahead the game still counts its own
 * repetitions (a threefold claim) exactly. */
static void test_issue20_7_repetitions_exact_after_long_lookahead(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    /* keys of the game's own before the look-ahead: each position of the
     * Kings' walk twice */
    tu_play_line(g, "e4 e5 Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
    Rng rng;
    rng_seed(&rng, 5);
    ActionList l = ACTIONLIST_INIT;
    for (int line = 0; line < 20000; line++) {
        int depth = 0;
        for (; depth < 4; depth++) {
            al_clear(&l);
            if (game_legal_play(g, &l) || l.n == 0 ||
                game_push(g, &l.v[rng_below(&rng, (uint32_t)l.n)]))
                break;
        }
        while (depth-- > 0)
            game_pop(g);
    }
    al_free(&l);
    tu_play_line(g, "Ke2"); /* the first Ke2 was played with Black's castling */
    assert_int_equal(game_repetitions(g), 2);
    tu_play_line(g, "Ke7 Ke1 Ke8");
    assert_int_equal(game_repetitions(g), 3);
    Error e;
    Action claim;
    assert_int_equal(game_parse(g, game_to_act(g), "claim", &claim, &e), 0);
    assert_int_equal(game_apply(g, &claim, &e), 0);
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    game_free(g);
}

/* issue 20 point 7: a reaction that fails (a call of nothing: not the
 * refusal an error() is) at a node the search reaches stops the search
 * with the script's error, now that the reaction runs inside the push. */
static void test_issue20_7_reaction_failing_in_search_is_reported(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "deep.lua",
             "rule { name = 'Deep', react = function(game, action)\n"
             "  if game:move_number() > 3 then game:too_deep() end end }\n",
             NULL);
    tu_play_line(s.g, "e4");
    BotInput in;
    Error e;
    int seat = game_to_act(s.g);
    assert_int_equal(bot_input(s.g, seat, &in, &e), 0);
    Rng rng;
    rng_seed(&rng, 1);
    Action out;
    assert_int_equal(bot_choose(&in, BOT_SEARCH, &rng, &out, &e), -1);
    if (!strstr(e.msg, "deep.lua:2") || !strstr(e.msg, "too_deep"))
        fail_msg("the search's error: %s", e.msg);
    bot_input_free(&in);
    scripted_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue20_7_push_shows_what_play_shows),
        cmocka_unit_test(test_issue20_7_nested_pushes_pop_back_exactly),
        cmocka_unit_test(test_issue20_7_perft_pushed_counts_what_games_count),
        cmocka_unit_test(test_issue20_7_repetitions_exact_after_long_lookahead),
        cmocka_unit_test(test_issue20_7_reaction_failing_in_search_is_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
