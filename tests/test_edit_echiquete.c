/*
 * test_edit_echiquete.c -- the checked edit op of house-rule reactions
 * (capability HOUSE-5, core/variant.h Edit) for L'Échiqueté: remove, add,
 * change a piece, merged pieces (side "merged") included, with its
 * invariants kept: one one-coloured King a colour and no merged King
 * (ECHQ-5), no pawn on rank 1 or 8 (ECHQ-8, ECHQ-11), the side not to move
 * not in check in phase 1 (ECHQ-8); castling rights, en passant and the
 * no-undo move (ECHQ-6) dropped when the edit voids them.
 *
 * Each refusal must give its message and leave the game byte-for-byte as
 * it was (tu_assert_refused_by: game_same with a copy taken before).
 *
 * Invariant: every test builds its own House and games and frees them.
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
#include "../core/lua/house.h"
#include "support/testutil.h"

/* An Échiqueté game (two seats) from pos (NULL: the start) whose reaction
 * runs `lua` after every move white makes. */
static Game *edit_game(const char *pos, const char *lua)
{
    char text[1024];
    Error e;
    snprintf(text, sizeof text,
             "rule { name = 'edit test', variants = 'echiquete',\n"
             "  react = function(game, action)\n"
             "    if action.kind == 'move' and action.seat == 'white' then %s end\n"
             "  end }\n", lua);
    const VariantOps *v = tu_variant("echiquete");
    HouseSource s = {"edit.lua", text, strlen(text)};
    House *h = house_load(v, 0, &s, 1, NULL, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.variant = v, .position = pos, .hooks = &k});
    house_free(h); /* the game holds it */
    return g;
}

static const char *last_message(const Game *g)
{
    const char *m = game_message(g, game_message_count(g) - 1, 1);
    return m ? m : "";
}

/* g's state is what a plain game reads from g's position string. */
static void assert_as_read(const Game *g)
{
    char *pos = tu_position(g);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("echiquete");
    cfg.position = pos;
    Error e;
    Game *f = game_new(&cfg, &e);
    if (!f)
        fail_msg("%s: %s", pos, e.msg);
    const VariantOps *v = cfg.variant;
    assert_memory_equal(game_state(f), game_state(g), v->state_size);
    assert_int_equal(v->hash(f, game_state(f)), v->hash(g, game_state(g)));
    game_free(f);
    free(pos);
}

/* HOUSE-5, ECHQ-1: the merged piece a capture made becomes a knight; the
 * no-undo move of that piece (ECHQ-6) goes with it; undo is exact. */
static void test_ech_edit_change_merged(void **state)
{
    (void)state;
    Game *g = edit_game(NULL, "if action.to == 'd5' then game:change('d5', 'N') end");
    tu_play_line(g, "e4 d5");
    Game *before = game_clone(g);
    tu_play(g, 0, "exd5");
    tu_assert_position(g, "rnbqkbnr/ppp1pppp/8/3*N4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    assert_string_equal(last_message(g), "house rule: the merged pawn on d5 becomes a knight");
    assert_as_read(g);
    Error e;
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_true(game_same(g, before));
    game_free(before);
    game_free(g);
}

/* HOUSE-5: a merged bishop added; the rook on h1 removed takes White's
 * short castling with it. */
static void test_ech_edit_add_and_castling(void **state)
{
    (void)state;
    Game *g = edit_game(NULL, "game:add('d6', 'merged', 'B')");
    tu_play(g, 0, "a3");
    tu_assert_position(g, "rnbqkbnr/pppppppp/3*B4/8/8/P7/1PPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert_string_equal(last_message(g), "house rule: a merged bishop is added on d6");
    assert_as_read(g);
    game_free(g);

    g = edit_game(NULL, "game:remove('h1')");
    tu_play(g, 0, "Nf3");
    tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB2 b Qkq - 1 1");
    assert_string_equal(last_message(g), "house rule: the white rook on h1 is removed");
    assert_as_read(g);
    game_free(g);
}

/* HOUSE-5: every refusal names the square and the rule; White's move is
 * refused and the game is as it was. */
static void test_ech_edit_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:remove('e8')", "cannot remove the black King on e8: each colour keeps "
                              "exactly one King (ECHQ-5)"},
        {"game:add('d6', 'merged', 'K')", "cannot add a merged King on d6: Kings never "
                                          "merge (ECHQ-5)"},
        {"game:add('d6', 'white', 'K')", "cannot add a white King on d6: each colour keeps "
                                         "exactly one King (ECHQ-5)"},
        {"game:add('d8', 'merged', 'P')", "cannot add a piece on d8: the black queen on d8 "
                                          "stands there"},
        {"game:add('d3', 'black', 'N')", "cannot add a black knight on d3: the position would "
                                         "be impossible: white, not to move, has its King "
                                         "attacked (ECHQ-8)"},
        {"game:change('e1', 'Q')", "cannot change the white King on e1 into a queen: each "
                                   "colour keeps exactly one King (ECHQ-5)"},
        {"game:change('a8', 'P')", "cannot change the black rook on a8 into a pawn: no pawn "
                                   "stands on rank 1 or 8 (ECHQ-8, ECHQ-11)"},
        {"game:change('a8', 'R')", "it is one already"},
        {"game:remove('d4')", "game:remove: no piece on d4"},
        {"game:remove('i9')", "'i9' is not a square"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = edit_game(NULL, cases[i].lua);
        tu_assert_refused_by(g, 0, "h3", cases[i].want);
        tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ech_edit_change_merged),
        cmocka_unit_test(test_ech_edit_add_and_castling),
        cmocka_unit_test(test_ech_edit_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
