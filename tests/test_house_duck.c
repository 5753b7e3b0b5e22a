/*
 * test_house_duck.c -- issue 25, TURN-4: scripts/duck.lua, duck chess as a
 * house rule on the fairy variant (docs/HOUSE-RULES.md "8. Turns").  After
 * each move the mover places the duck; perft counts each placement as a
 * ply (20, then 640: Fairy-Stockfish's perft 1, which folds the duck into
 * the move), and agrees at every depth tried with a schedule written here
 * as a C reaction hook, without the Lua layer.  A duck asked of a variant
 * without one is the script's failure, named.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

static void assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay ? hay : "(null)");
}

typedef struct Duck {
    char *text;
    House *h;
    GameHooks k;
    Game *g;
} Duck;

/* scripts/duck.lua on the fairy variant, from fen (NULL: the start). */
static void duck_game(Duck *d, const char *fen)
{
    Error e;
    d->text = tu_read_file("scripts/duck.lua");
    assert_non_null(d->text);
    HouseSource src = {"scripts/duck.lua", d->text, strlen(d->text)};
    const VariantOps *v = tu_variant("fairy");
    d->h = house_load(v, 0, &src, 1, NULL, &e);
    if (!d->h)
        fail_msg("duck.lua: %s", e.msg);
    d->k = house_hooks(d->h);
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = v;
    c.position = fen;
    d->g = game_new_hooked(&c, &d->k, &e);
    if (!d->g)
        fail_msg("duck chess: %s", e.msg);
}

static void duck_close(Duck *d)
{
    game_free(d->g);
    house_free(d->h);
    free(d->text);
}

/* The same schedule as a C reaction: after a move (not the duck) the
 * mover places the duck. */
static int duck_react(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud;
    if (a->kind != ACT_MOVE)
        return 0;
    Edit ed;
    memset(&ed, 0, sizeof ed);
    ed.kind = EDIT_TURN;
    ed.at = coord_make(-1, -1);
    ed.side = a->seat;
    ed.figure = FIG_DUCK;
    return game_edit(g, &ed, e);
}

/* TURN-4: who acts after each action, the turn's fields, the duck. */
static void test_turn4_duck_script_plays(void **state)
{
    (void)state;
    Duck d;
    duck_game(&d, NULL);
    const GameTurn *t = game_turn(d.g);
    assert_int_equal(t->moves, 1);
    assert_int_equal(t->duck, 0);
    tu_play(d.g, 0, "e4");
    t = game_turn(d.g);
    assert_int_equal(t->side, 0);
    assert_int_equal(t->made, 1);
    assert_int_equal(t->duck, 1);
    assert_int_equal(game_to_act(d.g), 0);
    assert_int_equal(tu_legal_count(d.g, 0, ACT_PLACE), 32);
    tu_play(d.g, 0, "@e5");
    t = game_turn(d.g);
    assert_int_equal(t->side, 1);
    assert_int_equal(t->number, 2);
    assert_int_equal(t->made, 0);
    assert_int_equal(t->duck, 0);
    assert_int_equal(game_side_to_move(d.g), 1);
    /* e5 is the duck's: Black's e-pawn steps once only, and no pawn takes it */
    assert_false(tu_is_legal(d.g, "e7e5"));
    tu_play(d.g, 1, "Nf6");
    tu_assert_refused(d.g, "@e5", "the duck stands on e5 already");
    duck_close(&d);
}

/* TURN-4 and the figures: 20, 640; deeper, the C schedule's. */
static void test_turn4_duck_perft(void **state)
{
    (void)state;
    Duck d;
    duck_game(&d, NULL);
    assert_int_equal(game_perft(d.g, 1), 20);
    assert_int_equal(game_perft(d.g, 2), 640);
    GameHooks k;
    memset(&k, 0, sizeof k);
    k.react = duck_react;
    k.ruleset = d.k.ruleset;
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = tu_variant("fairy");
    c.ruleset = d.k.ruleset;
    Error e;
    Game *g = game_new_hooked(&c, &k, &e);
    if (!g)
        fail_msg("%s", e.msg);
    for (int depth = 1; depth <= 3; depth++)
        assert_int_equal(game_perft(d.g, depth), game_perft(g, depth));
    /* two full moves: Fairy-Stockfish's perft 2 (test_fairy_duck.c) */
    assert_int_equal(game_perft(d.g, 4), 379440);
    game_free(g);
    duck_close(&d);
}

/* TURN-4: a variant without the duck refuses it, and the script's move
 * that asked is refused with the variant's words. */
static void test_turn4_no_duck_in_orthodox(void **state)
{
    (void)state;
    const char *text = "rule { name = \"Duck\", turn = function() return "
                       "{moves = 1, duck = true} end }\n";
    HouseSource src = {"d.lua", text, strlen(text)};
    Error e;
    House *h = house_load(tu_variant("orthodox"), 0, &src, 1, NULL, &e);
    assert_non_null(h);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.hooks = &k});
    assert_int_not_equal(game_play(g, 0, "e4", &e), 0);
    assert_has(e.msg, "house rule d.lua, turn: the duck");
    assert_has(e.msg, "this engine has no duck");
    assert_int_equal(game_history_len(g), 0);
    game_free(g);
    house_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn4_duck_script_plays),
        cmocka_unit_test(test_turn4_duck_perft),
        cmocka_unit_test(test_turn4_no_duck_in_orthodox),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
