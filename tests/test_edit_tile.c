/*
 * test_edit_tile.c -- the checked edit op of house-rule reactions
 * (capability HOUSE-5, core/variant.h Edit) for Tile Chess: remove, add,
 * change a piece on the plane, with the table kept one group (TILE-3),
 * every King kept (TILE-1, TILE-10), no edit before placement is over
 * (TILE-2), trapped pieces and checks as the new table has them (TILE-6,
 * TILE-8), and a perft through the reaction checked by an independent
 * count (this file edits the position strings itself and asks the plain
 * reader whether the table is possible).
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
#include "../core/house.h"
#include "support/testutil.h"

/* ---- Helpers ----------------------------------------------------------- */

/* A Tile game of nsides sides from pos whose reaction runs `lua` after
 * every play action of the given kind ("move", "place"). */
static Game *edit_game_on(int nsides, const char *pos, const char *kind, const char *lua)
{
    char text[1024];
    Error e;
    snprintf(text, sizeof text,
             "rule { name = 'edit test', variants = 'tile',\n"
             "  react = function(game, action)\n"
             "    if action.kind == '%s' then %s end\n"
             "  end }\n", kind, lua);
    const VariantOps *v = tu_variant("tile");
    HouseSource s = {"edit.lua", text, strlen(text)};
    House *h = house_load(v, nsides, &s, 1, NULL, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.variant = v, .nsides = nsides, .position = pos,
                                .hooks = &k});
    house_free(h); /* the game holds it */
    return g;
}

static Game *edit_game(int nsides, const char *pos, const char *lua)
{
    return edit_game_on(nsides, pos, "move", lua);
}

/* The last message every seat got. */
static const char *last_message(const Game *g)
{
    int n = game_message_count(g);
    for (int i = n - 1; i >= 0; i--)
        if (game_message(g, i, 0))
            return game_message(g, i, 0);
    return "";
}

/* A plain Tile game (no hooks) read from pos: NULL if the reader refuses. */
static Game *plain_game(int nsides, const char *pos)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("tile");
    cfg.nsides = nsides;
    cfg.position = pos;
    Error e;
    return game_new(&cfg, &e);
}

/* The hash of g's position equals that of a game read afresh from its
 * position string (the edit left nothing the reader would not build). */
static void assert_as_read(const Game *g)
{
    char *pos = tu_position(g);
    Game *f = plain_game(game_nsides(g), pos);
    assert_non_null(f);
    assert_memory_equal(game_state(f), game_state(g), tu_variant("tile")->state_size);
    assert_int_equal(tu_variant("tile")->hash(f, game_state(f)),
                     tu_variant("tile")->hash(g, game_state(g)));
    game_free(f);
    free(pos);
}

/* A line on the x axis (white K R N, black N K) with a black pawn above
 * the black King and a white pawn below the white King; 1,0 2,0 3,0 are
 * trapped (TILE-6).  White's King steps up with 0,0-0,1. */
#define POS "bP4,1 wK0,0 wR1,0 wN2,0 bN3,0 bK4,0 wP0,-1 turn:w"
#define AFTER "wK0,1 bP4,1 wR1,0 wN2,0 bN3,0 bK4,0 wP0,-1 turn:b"

/* The view flags of the piece on x,y for seat 0. */
static int flags_at(const Game *g, int x, int y)
{
    View *v = malloc(sizeof *v);
    assert_int_equal(game_view(g, 0, v), 0);
    int f = -1;
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].at.x == x && v->pieces[i].at.y == y)
            f = v->pieces[i].flags;
    free(v);
    assert_true(f >= 0);
    return f;
}

/* ---- Tests ------------------------------------------------------------- */

/* HOUSE-5, TILE-3: removing an end piece keeps the table one group; the
 * position is what the reader builds; every seat is told; undo is exact. */
static void test_tile_edit_remove(void **state)
{
    (void)state;
    Game *g = edit_game(2, POS, "game:remove('4,1')");
    Game *before = game_clone(g);
    tu_play(g, 0, "0,0-0,1");
    tu_assert_position(g, "wK0,1 wR1,0 wN2,0 bN3,0 bK4,0 wP0,-1 turn:b");
    assert_string_equal(last_message(g), "house rule: the black pawn on 4,1 is removed");
    for (int seat = 0; seat < 2; seat++)
        assert_non_null(game_message(g, game_message_count(g) - 1, seat));
    assert_as_read(g);
    Error e;
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_true(game_same(g, before));
    game_free(g);
    game_free(before);
}

/* HOUSE-5: each refusal of a removal names the square and the rule; the
 * move that triggered it is refused and the game is as it was. */
static void test_tile_edit_remove_refused(void **state)
{
    (void)state;
    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:remove('3,0')", "cannot remove the black knight on 3,0: the table would "
                               "split in two (TILE-3)"},
        {"game:remove('4,0')", "cannot remove the black King on 4,0: a King leaves the "
                               "table only when it is captured (TILE-10)"},
        {"game:remove('9,9')", "game:remove: no piece on 9,9"},
        {"game:remove('e4')", "game:remove: 'e4' is not a square"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = edit_game(2, POS, cases[i].lua);
        tu_assert_refused_by(g, 0, "0,0-0,1", cases[i].want);
        tu_assert_position(g, POS);
        game_free(g);
    }
}

/* HOUSE-5, TILE-3: an added piece must touch the table, on an empty
 * square, and may not be a King (TILE-1). */
static void test_tile_edit_add(void **state)
{
    (void)state;
    Game *g = edit_game(2, POS, "game:add('5,0', 'black', 'Q')");
    tu_play(g, 0, "0,0-0,1");
    tu_assert_position(g, "wK0,1 bP4,1 wR1,0 wN2,0 bN3,0 bK4,0 bQ5,0 wP0,-1 turn:b");
    assert_string_equal(last_message(g), "house rule: a black queen is added on 5,0");
    assert_as_read(g);
    game_free(g);

    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:add('7,7', 'black', 'Q')", "cannot add a black queen on 7,7: it touches no "
                                          "piece, and the table must stay one group (TILE-3)"},
        {"game:add('4,1', 'white', 'N')", "cannot add a piece on 4,1: the black pawn on 4,1 "
                                          "stands there"},
        {"game:add('5,0', 'white', 'K')", "cannot add a white King on 5,0: a colour has one "
                                          "King at most"},
        {"game:add('5,0', 'red', 'Q')", "no side is called 'red'"},
        {"game:add('5,0', 'white', 'X')", "'X' is not a figure"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g = edit_game(2, POS, cases[i].lua);
        tu_assert_refused_by(g, 0, "0,0-0,1", cases[i].want);
        game_free(g);
    }
}

/* HOUSE-5: a figure changes, the owner stays; a King neither comes nor
 * goes that way (TILE-1, TILE-10). */
static void test_tile_edit_change(void **state)
{
    (void)state;
    Game *g = edit_game(2, POS, "game:change('1,0', 'Q')");
    tu_play(g, 0, "0,0-0,1");
    tu_assert_position(g, "wK0,1 bP4,1 wQ1,0 wN2,0 bN3,0 bK4,0 wP0,-1 turn:b");
    assert_string_equal(last_message(g), "house rule: the white rook on 1,0 becomes a queen");
    assert_as_read(g);
    game_free(g);

    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:change('0,1', 'Q')", "cannot change the white King on 0,1 into a queen: "
                                    "each colour keeps its one King (TILE-1, TILE-10)"},
        {"game:change('2,0', 'K')", "cannot change the white knight on 2,0 into a King"},
        {"game:change('1,0', 'R')", "cannot change the white rook on 1,0 into a rook: it is "
                                    "one already"},
        {"game:change('5,5', 'R')", "no piece on 5,5"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g = edit_game(2, POS, cases[i].lua);
        tu_assert_refused_by(g, 0, "0,0-0,1", cases[i].want);
        game_free(g);
    }
}

/* TILE-6, TILE-8 after an edit: a black pawn added on 3,1 bridges 2,0 and
 * the black pieces, so the knight on 3,0 is no longer trapped; a black
 * rook added on 0,2 puts the white King in check. */
static void test_tile_edit_trapped_and_check(void **state)
{
    (void)state;
    Game *plain = plain_game(2, POS);
    tu_play(plain, 0, "0,0-0,1");
    assert_true(flags_at(plain, 3, 0) & VP_TRAPPED);
    game_free(plain);

    Game *g = edit_game(2, POS, "game:add('3,1', 'black', 'P')");
    tu_play(g, 0, "0,0-0,1");
    assert_false(flags_at(g, 3, 0) & VP_TRAPPED);
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED); /* still the only link of 1,0 */
    game_free(g);

    g = edit_game(2, POS, "game:add('0,2', 'black', 'R')");
    tu_play(g, 0, "0,0-0,1");
    Status st;
    game_status(g, &st);
    assert_int_equal(st.in_check, 1u); /* white's */
    assert_true(flags_at(g, 0, 1) & VP_CHECK);
    assert_true(tu_is_legal(g, "0,2-0,1")); /* black may take the King (TILE-10) */
    game_free(g);
}

/* TILE-2: no edit while pieces are still being placed. */
static void test_tile_edit_not_during_placement(void **state)
{
    (void)state;
    Game *g = edit_game_on(2, "wP0,0 bB1,0 bP2,0 bK3,0 hand:w=KN turn:w", "place",
                           "game:remove('2,0')");
    tu_assert_refused_by(g, 0, "N@-1,0", "the table may be edited only once every piece "
                                         "is placed (TILE-2)");
    game_free(g);
}

/* HOUSE-5 with three sides: a red piece added and told to every seat. */
static void test_tile_edit_three_sides(void **state)
{
    (void)state;
    const char *pos = "bP4,1 wK0,0 wR1,0 wN2,0 bN3,0 bK4,0 rN5,0 rK6,0 wP0,-1 turn:w";
    Game *g = edit_game(3, pos, "game:add('7,0', 'red', 'B')");
    tu_play(g, 0, "0,0-0,1");
    tu_assert_position(g, "wK0,1 bP4,1 wR1,0 wN2,0 bN3,0 bK4,0 rN5,0 rK6,0 rB7,0 wP0,-1 "
                          "turn:b");
    for (int seat = 0; seat < 3; seat++)
        assert_string_equal(game_message(g, game_message_count(g) - 1, seat),
                            "house rule: a red bishop is added on 7,0");
    assert_as_read(g);
    game_free(g);
    g = edit_game(3, pos, "game:remove('5,0')");
    tu_assert_refused_by(g, 0, "0,0-0,1", "cannot remove the red knight on 5,0: the table "
                                          "would split in two (TILE-3)");
    game_free(g);
}

/* pos with the piece on square taken out (malloc'd; pos itself when no
 * piece stands there), or NULL when it is a King (the edit fails then). */
static char *drop_piece(const char *pos, const char *square)
{
    char *out = malloc(strlen(pos) + 1), tok[64];
    size_t n = 0;
    int found = 0, king = 0;
    for (const char *p = pos; *p;) {
        size_t len = strcspn(p, " ");
        snprintf(tok, sizeof tok, "%.*s", (int)len, p);
        if (len > 2 && strchr("wbrugy", tok[0]) && !strchr(tok, ':') &&
            !strcmp(tok + 2, square)) {
            found = 1;
            king = tok[1] == 'K';
        } else {
            memcpy(out + n, p, len);
            n += len;
            out[n++] = ' ';
        }
        p += len + (p[len] == ' ');
    }
    out[n ? n - 1 : 0] = '\0';
    if (king) {
        free(out);
        return NULL;
    }
    if (!found)
        strcpy(out, pos);
    return out;
}

/* The perft of a game under "after each move, remove the piece on
 * square if there is one", counted without the House: each move is played on a plain
 * game, the piece is taken out of the position string here, and the
 * plain reader says whether that table is possible (one group). */
static uint64_t count_by_hand(const char *pos, const char *square, int depth)
{
    Game *p = plain_game(2, pos);
    assert_non_null(p);
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(p, &l);
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        Game *c = game_clone(p);
        assert_int_equal(game_apply(c, &l.v[i], NULL), 0);
        char *after = tu_position(c);
        char *next = l.v[i].kind == ACT_MOVE ? drop_piece(after, square) : strdup(after);
        Game *q = next ? plain_game(2, next) : NULL;
        if (q)
            n += depth == 1 ? 1 : count_by_hand(next, square, depth - 1);
        game_free(q);
        free(next);
        free(after);
        game_free(c);
    }
    al_free(&l);
    game_free(p);
    return n;
}

/* HOUSE-5 in perft (through whole games): after each move the piece on
 * 4,1, if any, is removed, and a move after which it cannot be (a King
 * there, a split table) is refused, so it is not counted.  Depth 1: all 8
 * white moves; the black King may never step onto 4,1. */
static void test_tile_edit_perft_by_hand(void **state)
{
    (void)state;
    Game *g = edit_game(2, POS, "if game:piece_at('4,1') then game:remove('4,1') end");
    Game *plain = plain_game(2, POS);
    assert_int_equal(game_perft(g, 1), 8);
    for (int d = 1; d <= 3; d++) {
        uint64_t want = count_by_hand(POS, "4,1", d);
        assert_int_equal(game_perft(g, d), want);
        if (d >= 2) /* the rule acts: fewer than without it */
            assert_true(want > 0 && want != game_perft(plain, d));
    }
    game_free(plain);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_edit_remove),
        cmocka_unit_test(test_tile_edit_remove_refused),
        cmocka_unit_test(test_tile_edit_add),
        cmocka_unit_test(test_tile_edit_change),
        cmocka_unit_test(test_tile_edit_trapped_and_check),
        cmocka_unit_test(test_tile_edit_not_during_placement),
        cmocka_unit_test(test_tile_edit_three_sides),
        cmocka_unit_test(test_tile_edit_perft_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
