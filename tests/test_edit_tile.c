/*
 * test_edit_tile.c -- the checked edit op of house-rule reactions
 * (HOUSE-5, core/variant.h Edit) for Tile Chess (TILE-1 .. TILE-12,
 * docs/TILE.md "House-rule edits").
 *
 * Each edit is made by a small react script on a real game, with two and
 * with three sides; each refusal must give its message and leave the game
 * byte-for-byte as it was (game_same with a clone taken before the refused
 * action).  An edited game must equal a game read fresh from its position
 * string (the whole TileState and the repetition key).  The perft of a
 * rule that edits ("knights vanish") is checked against a count made here
 * with tests/support/tile_brute.c, which shares no code with the engine,
 * the rule applied to the brute's own positions.
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
#include "../variants/tile/tile.h"
#include "support/testutil.h"
#include "support/tile_brute.h"
#include "support/tile_doc.h"

#define BUDGET 10000000L
#define MEMORY ((size_t)16 << 20)

/* ---- Helpers ----------------------------------------------------------- */

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

static House *load_house(int nsides, const char *text)
{
    HouseSource s = {"edit.lua", text, strlen(text)};
    HouseLimits lim = {.instructions = BUDGET, .memory = MEMORY};
    Error e;
    House *h = house_load(tu_variant("tile"), nsides, &s, 1, &lim, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    return h;
}

/* A House whose reaction runs `lua` after every action landing on square. */
static House *edit_house(int nsides, const char *square, const char *lua)
{
    char text[1024];
    snprintf(text, sizeof text,
             "rule { name = 'edit test', react = function(game, action)\n"
             "  if action.to == '%s' then %s end\n"
             "end }\n", square, lua);
    return load_house(nsides, text);
}

/* "Knights vanish": a knight that is placed or moves leaves the table at
 * once (refused, and the action with it, when it is the only link between
 * two groups: TILE-3). */
static const char KNIGHTS_VANISH[] =
    "rule { name = 'knights vanish', react = function(game, action)\n"
    "  if action.to then\n"
    "    local p = game:piece_at(action.to)\n"
    "    if p and p.figure == 'N' then game:remove(action.to) end\n"
    "  end\n"
    "end }\n";

static Game *hooked(House *h, int nsides, const char *pos, const char *params)
{
    GameHooks k = house_hooks(h);
    return tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = nsides,
                             .position = pos, .params = params, .hooks = &k});
}

static Game *plain(int nsides, const char *pos, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = nsides,
                             .position = pos, .params = params});
}

/* Message i counted from the end (0 = last), as seat reads it. */
static const char *message_back(const Game *g, int i, int seat)
{
    int n = game_message_count(g);
    return n > i ? game_message(g, n - 1 - i, seat) : NULL;
}

/* Every seat of g reads message i (from the end) as want. */
static void assert_told_all(const Game *g, int i, const char *want)
{
    for (int seat = 0; seat < game_nseats(g); seat++) {
        const char *m = message_back(g, i, seat);
        if (!m || strcmp(m, want))
            fail_msg("seat %d reads \"%s\", expected \"%s\"", seat, m ? m : "(none)", want);
    }
}

static uint64_t variant_hash(const Game *g)
{
    return game_variant(g)->hash(g, game_state(g));
}

/* HOUSE-5: the edited game equals one read fresh from its own position
 * string: the whole TileState (pieces in reading order, hands, turn,
 * first, commands, passes) and the repetition key. */
static void assert_as_read(const Game *g)
{
    char *pos = tu_position(g);
    Game *fresh = plain(game_nsides(g), pos, NULL);
    assert_true(variant_hash(g) == variant_hash(fresh));
    assert_memory_equal(game_state(g), game_state(fresh), sizeof(TileState));
    game_free(fresh);
    free(pos);
}

/* seat plays text; it must be refused with want, the game unchanged. */
static void assert_refused_same(Game *g, int seat, const char *text, const char *want)
{
    Game *before = game_clone(g);
    Error e;
    assert_non_null(before);
    if (game_play(g, seat, text, &e) == 0)
        fail_msg("%s was accepted; expected a refusal with \"%s\"", text, want);
    assert_has(e.msg, want);
    assert_true(game_same(g, before));
    game_free(before);
}

/* The view flags of the piece on x,y as seat 0 sees it (-1: none there). */
static int flags_at(const Game *g, int32_t x, int32_t y)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, 0, v), 0);
    int f = -1;
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].at.x == x && v->pieces[i].at.y == y)
            f = v->pieces[i].flags;
    free(v);
    return f;
}

static unsigned in_check(const Game *g)
{
    Status s;
    game_status(g, &s);
    return s.in_check;
}

/* ---- Positions ----------------------------------------------------------- */

/* Two sides.  The black rook on 0,3 is trapped (TILE-6: it alone links the
 * black pawn on 0,4 to the rest), so the white King on 0,0 below it is only
 * threatened (TILE-7).  White's only free piece is the pawn on -1,0. */
#define POS_A "bP0,4 bR0,3 wB1,2 bK2,2 wN1,1 wP-1,0 wK0,0 turn:w"
/* The same with the black King on 0,4 instead of the pawn (and none on 2,2). */
#define POS_B "bK0,4 bR0,3 wB1,2 wN1,1 wP-1,0 wK0,0 turn:w"
/* Three sides, all in the game: red's King on 1,2 is attacked by the white
 * rook on 1,0 and the black knight on 2,0, both trapped (the rook links the
 * knight and the black King to the rest; the knight links the King), so
 * red is only threatened.  White's moves are King moves; 0,0--1,1 keeps
 * the table one group. */
#define POS_C "rK1,2 rB0,1 rP-1,0 wK0,0 wR1,0 bN2,0 bK3,0 turn:w"
/* Three sides, black out: red took black's King and commands black
 * (TILE-10). */
#define POS_D "rK1,2 rB0,1 rP-1,0 wK0,0 wR1,0 bN2,0 bP3,0 turn:w cmd:b=r"

/* ---- HOUSE-5, two sides: each edit kind --------------------------------- */

/* HOUSE-5 remove (TILE-3, 6, 7, 8): after the white pawn's step the black
 * pawn on 0,4 goes.  The rook on 0,3 is then a leaf, no longer trapped,
 * and gives check to the white King down the empty file: announced, shown
 * (VP_CHECK, in_check), and black may take the King. */
static void test_house5_tile_remove_frees_trapped(void **state)
{
    (void)state;
    Game *g0 = plain(2, POS_A, NULL);
    tu_play(g0, 0, "-1,0--1,1");
    assert_true(flags_at(g0, 0, 3) & VP_TRAPPED);
    assert_false(flags_at(g0, 0, 0) & VP_CHECK);
    assert_int_equal(in_check(g0), 0);
    assert_false(tu_is_legal(g0, "0,3-0,0"));
    game_free(g0);

    House *h = edit_house(2, "-1,1", "game:remove('0,4')");
    Game *g = hooked(h, 2, POS_A, NULL);
    tu_play(g, 0, "-1,0--1,1");
    tu_assert_position(g, "bR0,3 wB1,2 bK2,2 wP-1,1 wN1,1 wK0,0 turn:b");
    assert_told_all(g, 1, "house rule: the black pawn on 0,4 is removed");
    assert_told_all(g, 0, "after the house rule, in check: white's King (new)");
    assert_false(flags_at(g, 0, 3) & VP_TRAPPED);
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    assert_int_equal(in_check(g), 1u << 0);
    assert_true(tu_is_legal(g, "0,3-0,0"));
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* TILE-8: an edit that ends a check says so.  White's King is in check
 * from the rook on 0,3; black's King steps to 2,3 (only threatened by the
 * trapped bishop: TILE-7) and the rule removes the rook. */
static void test_house5_tile_remove_ends_check(void **state)
{
    (void)state;
    const char *pos = "bR0,3 wB1,2 bK2,2 wP-1,1 wN1,1 wK0,0 turn:b";
    House *h = edit_house(2, "2,3", "game:remove('0,3')");
    Game *g = hooked(h, 2, pos, NULL);
    assert_int_equal(in_check(g), 1u << 0);
    tu_play(g, 1, "2,2-2,3");
    tu_assert_position(g, "bK2,3 wB1,2 wP-1,1 wN1,1 wK0,0 turn:w");
    assert_told_all(g, 1, "house rule: the black rook on 0,3 is removed");
    assert_told_all(g, 0, "after the house rule no King is in check");
    assert_int_equal(in_check(g), 0);
    assert_false(flags_at(g, 0, 0) & VP_CHECK);
    assert_true(flags_at(g, 1, 2) & VP_TRAPPED);
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* HOUSE-5 add (TILE-3: the knight touches the rook and the pawn; TILE-1:
 * black has lost both knights; TILE-8: from -1,2 it jumps to 0,0, so the
 * white King is in check). */
static void test_house5_tile_add_gives_check(void **state)
{
    (void)state;
    House *h = edit_house(2, "-1,1", "game:add('-1,2', 'black', 'N')");
    Game *g = hooked(h, 2, POS_B, NULL);
    tu_play(g, 0, "-1,0--1,1");
    tu_assert_position(g, "bK0,4 bR0,3 bN-1,2 wB1,2 wP-1,1 wN1,1 wK0,0 turn:b");
    assert_told_all(g, 1, "house rule: a black knight is added on -1,2");
    assert_told_all(g, 0, "after the house rule, in check: white's King (new)");
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    assert_true(flags_at(g, 0, 3) & VP_TRAPPED); /* still links the King on 0,4 */
    assert_false(flags_at(g, -1, 2) & VP_TRAPPED);
    assert_true(tu_is_legal(g, "-1,2-0,0"));
    assert_false(tu_is_legal(g, "0,3-0,0")); /* the trapped rook cannot move */
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* HOUSE-5 change (TILE-1: white has lost its queen): the white knight on
 * 1,1 becomes a queen, owner kept; no check changes, no check message. */
static void test_house5_tile_change(void **state)
{
    (void)state;
    House *h = edit_house(2, "-1,1", "game:change('1,1', 'Q')");
    Game *g = hooked(h, 2, POS_A, NULL);
    tu_play(g, 0, "-1,0--1,1");
    tu_assert_position(g, "bP0,4 bR0,3 wB1,2 bK2,2 wP-1,1 wQ1,1 wK0,0 turn:b");
    assert_told_all(g, 0, "house rule: the white knight on 1,1 becomes a queen");
    assert_int_equal(game_message_count(g), 1);
    assert_true(flags_at(g, 1, 1) & VP_TRAPPED);
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5, three sides ------------------------------------------------ */

/* Each kind with three sides in the game (TILE-1, 3): the red pawn on
 * -1,0 (a leaf once the white King stands on -1,1) goes; a black queen
 * joins its King on 4,0; the white rook on 1,0 becomes a queen (still
 * trapped, so red stays threatened only: TILE-7). */
static void test_house5_tile_three_sides(void **state)
{
    (void)state;
    House *h = edit_house(3, "-1,1", "game:remove('-1,0')");
    Game *g = hooked(h, 3, POS_C, NULL);
    tu_play(g, 0, "0,0--1,1");
    tu_assert_position(g, "rK1,2 wK-1,1 rB0,1 wR1,0 bN2,0 bK3,0 turn:b");
    assert_told_all(g, 0, "house rule: the red pawn on -1,0 is removed");
    assert_as_read(g);
    game_free(g);
    house_free(h);

    h = edit_house(3, "-1,1", "game:add('4,0', 'black', 'Q')");
    g = hooked(h, 3, POS_C, NULL);
    tu_play(g, 0, "0,0--1,1");
    tu_assert_position(g, "rK1,2 wK-1,1 rB0,1 rP-1,0 wR1,0 bN2,0 bK3,0 bQ4,0 turn:b");
    assert_told_all(g, 0, "house rule: a black queen is added on 4,0");
    assert_as_read(g);
    game_free(g);
    house_free(h);

    h = edit_house(3, "-1,1", "game:change('1,0', 'Q')");
    g = hooked(h, 3, POS_C, NULL);
    tu_play(g, 0, "0,0--1,1");
    tu_assert_position(g, "rK1,2 wK-1,1 rB0,1 rP-1,0 wQ1,0 bN2,0 bK3,0 turn:b");
    assert_told_all(g, 0, "house rule: the white rook on 1,0 becomes a queen");
    assert_true(flags_at(g, 1, 0) & VP_TRAPPED);
    assert_int_equal(in_check(g), 0);
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* A colour that is out (TILE-10): its pieces stay on the table under the
 * captor's command, so they may be removed, added (never a King) and
 * changed; the command is kept (cmd:b=r), the turn goes to red since
 * black's seat is out.  The black rook added on 3,1 is red's: along rank 1
 * it passes over red's bishop on 0,1 (friendly, TILE-4) and reaches the
 * white King on -1,1, which is in check at once (TILE-8), announced after
 * the edit that made it; red may take the King. */
static void test_house5_tile_colour_out(void **state)
{
    (void)state;
    House *h = edit_house(3, "-1,1",
                          "game:remove('3,0'); game:add('3,1', 'black', 'R'); "
                          "game:change('2,0', 'B')");
    Game *g = hooked(h, 3, POS_D, NULL);
    tu_play(g, 0, "0,0--1,1");
    tu_assert_position(g, "rK1,2 wK-1,1 rB0,1 bR3,1 rP-1,0 wR1,0 bB2,0 turn:r cmd:b=r");
    assert_told_all(g, 3, "house rule: the black pawn on 3,0 is removed");
    assert_told_all(g, 2, "house rule: a black rook is added on 3,1");
    assert_told_all(g, 1, "after the house rule, in check: white's King (new)");
    assert_told_all(g, 0, "house rule: the black knight on 2,0 becomes a bishop");
    assert_int_equal(in_check(g), 1u << 0);
    assert_true(flags_at(g, -1, 1) & VP_CHECK);
    assert_true(tu_is_legal(g, "3,1--1,1"));
    assert_as_read(g);
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5, placement (TILE-2) ----------------------------------------- */

/* Edits are allowed during placement with the hands unchanged: the queen
 * white placed on 0,0 goes (it counts as lost: TILE-1), so the next piece
 * is white's second placement, anywhere around black's knight. */
static void test_house5_tile_placement(void **state)
{
    (void)state;
    House *h = edit_house(2, "1,0", "game:remove('0,0')");
    Game *g = hooked(h, 2, NULL, NULL);
    tu_play_line(g, "Q@0,0 N@1,0");
    tu_assert_position(g, "bN1,0 hand:w=KRRBBNNPPPPPPPP,b=KQRRBBNPPPPPPPP turn:w first:w");
    assert_told_all(g, 0, "house rule: the white queen on 0,0 is removed");
    assert_as_read(g);
    assert_true(tu_is_legal(g, "R@2,1"));
    assert_false(tu_is_legal(g, "Q@2,1"));
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5, refusals ---------------------------------------------------- */

typedef struct Refusal {
    int nsides;
    const char *pos, *play, *square, *lua, *want;
} Refusal;

/* Each invariant (TILE-3 unity, TILE-1 one King a seat and the army,
 * TILE-10 no King for a colour that is out, TILE-2 the first piece on
 * 0,0, the plane's limits, the table's own tests) refuses the action whose
 * reaction asks for the edit, the game as it was. */
static void test_house5_tile_refusals(void **state)
{
    (void)state;
    static const Refusal R[] = {
        {2, POS_A, "-1,0--1,1", "-1,1", "game:remove('1,2')",
         "game:remove: cannot remove the white bishop on 1,2: it is the only link between "
         "two groups, and the table must stay one group (TILE-3)"},
        {3, POS_C, "0,0--1,1", "-1,1", "game:remove('1,0')",
         "game:remove: cannot remove the white rook on 1,0: it is the only link between "
         "two groups, and the table must stay one group (TILE-3)"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:remove('2,2')",
         "game:remove: cannot remove the black King on 2,2: every seat in the game keeps "
         "exactly one King; a King leaves the table only when captured (TILE-1, TILE-10)"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:add('-2,0', 'white', 'K')",
         "game:add: cannot add a white King on -2,0: white has its King on 0,0 and every "
         "seat in the game keeps exactly one King (TILE-1)"},
        {2, NULL, "Q@0,0", "0,0", "game:add('1,1', 'white', 'K')",
         "game:add: cannot add a white King on 1,1: white has its King in hand and every "
         "seat in the game keeps exactly one King (TILE-1)"},
        {3, POS_D, "0,0--1,1", "-1,1", "game:add('4,0', 'black', 'K')",
         "game:add: cannot add a black King on 4,0: black's King was captured and red "
         "commands black; a King never comes back (TILE-10)"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:change('0,0', 'Q')",
         "game:change: cannot change the white King on 0,0 into a queen: every seat in the "
         "game keeps exactly one King (TILE-1)"},
        {3, POS_C, "0,0--1,1", "-1,1", "game:change('2,0', 'K')",
         "game:change: cannot change the black knight on 2,0 into a King: black has its "
         "King on 3,0 and every seat in the game keeps exactly one King (TILE-1)"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:add('5,5', 'black', 'Q')",
         "game:add: cannot add a black queen on 5,5: 5,5 touches no piece; an added piece "
         "must touch the table by a side or a corner, which stays one group (TILE-3)"},
        {3, POS_C, "0,0--1,1", "-1,1", "game:add('5,0', 'red', 'Q')",
         "game:add: cannot add a red queen on 5,0: 5,0 touches no piece"},
        {2, NULL, "Q@0,0", "0,0", "game:add('1,1', 'white', 'Q')",
         "game:add: cannot add a white queen on 1,1: white's army has 1 queen and none is "
         "lost (TILE-1: a piece comes back only in place of a captured one)"},
        {2, NULL, "Q@0,0", "0,0", "game:change('0,0', 'R')",
         "game:change: cannot change the white queen on 0,0 into a rook: white's army has "
         "2 rooks and none is lost (TILE-1"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:add('1,1', 'black', 'Q')",
         "game:add: cannot add a black queen on 1,1: the white knight on 1,1 stands there "
         "(remove it first)"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:remove('4,4')", "game:remove: no piece on 4,4"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:change('-1,0', 'Q')",
         "game:change: no piece on -1,0"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:change('1,1', 'N')",
         "game:change: cannot change the white knight on 1,1 into a knight: it is one "
         "already"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:add('-2,0', 'white', 'Q', {masked = true})",
         "game:add: cannot add a white queen on -2,0 masked: no piece is masked in Tile "
         "Chess"},
        {2, POS_A, "-1,0--1,1", "-1,1", "game:add('2000000,0', 'white', 'Q')",
         "game:add: square 2000000,0 is beyond the table's limits (|x| and |y| at most "
         "1000000)"},
        /* TILE-2: a table emptied during placement starts again on 0,0 */
        {2, NULL, "Q@0,0", "0,0", "game:remove('0,0'); game:add('1,0', 'white', 'Q')",
         "game:add: cannot add a white queen on 1,0: the table is empty, and its first "
         "piece goes on 0,0 (TILE-2)"},
    };
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        House *h = edit_house(R[i].nsides, R[i].square, R[i].lua);
        Game *g = hooked(h, R[i].nsides, R[i].pos, NULL);
        assert_refused_same(g, 0, R[i].play, R[i].want);
        game_free(g);
        house_free(h);
    }
}

/* ---- HOUSE-5: keys and undo ------------------------------------------------ */

/* TILE-11: the ply's repetition key is the edited table's, so coming back
 * to it counts as a repetition; undo gives the game after the edit, then
 * the game before it, exactly.  The knight becomes a queen only once (the
 * script looks first), so the pawn's return does not edit again. */
static void test_house5_tile_keys_and_undo(void **state)
{
    (void)state;
    House *h = edit_house(2, "-1,1",
                          "if game:piece_at('1,1').figure == 'N' then "
                          "game:change('1,1', 'Q') end");
    Game *g = hooked(h, 2, POS_A, NULL);
    Error e;
    Game *start = game_clone(g);
    tu_play(g, 0, "-1,0--1,1");
    Game *edited = game_clone(g);
    assert_int_equal(game_repetitions(g), 1);
    tu_play_line(g, "2,2-2,3 -1,1--1,0 2,3-2,2 -1,0--1,1");
    tu_assert_position(g, "bP0,4 bR0,3 wB1,2 bK2,2 wP-1,1 wQ1,1 wK0,0 turn:b");
    assert_int_equal(game_repetitions(g), 2);
    assert_int_equal(game_undo(g, 4, &e), 0);
    assert_true(game_same(g, edited));
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_true(game_same(g, start));
    game_free(start);
    game_free(edited);
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5 in perft: the independent count ------------------------------- */

/* "Knights vanish" on the brute's position p after the action text (TILE-3:
 * a knight that is the only link between two groups cannot go, so the
 * action is refused: 0).  1 when the action can be played; *out is the
 * edited position. */
static int my_play(const TbPos *p, const char *text, TbPos *out)
{
    int x, y, fx, fy;
    *out = *p;
    if (tb_play(out, text))
        fail_msg("the brute refuses its own action %s", text);
    if (sscanf(text, "%d,%d-%d,%d", &fx, &fy, &x, &y) != 4 &&
        sscanf(text, "%*c@%d,%d", &x, &y) != 2)
        return 1; /* a pass */
    int i = tb_at(out, x, y);
    assert_true(i >= 0);
    if (out->pc[i].fig != TB_N)
        return 1;
    if (tb_trapped(out, i))
        return 0;
    memmove(&out->pc[i], &out->pc[i + 1], (size_t)(out->n - i - 1) * sizeof out->pc[0]);
    out->n--;
    return 1;
}

/* Perft 2 under the rule, from the brute alone. */
static uint64_t my_perft2(const TbPos *root)
{
    enum { MAXT = 4096 };
    static char a[MAXT][TB_TEXT], b[MAXT][TB_TEXT];
    int na = tb_legal_texts(root, a, MAXT);
    assert_true(na <= MAXT);
    uint64_t total = 0;
    for (int i = 0; i < na; i++) {
        TbPos q, r;
        if (!my_play(root, a[i], &q) || tb_over(&q))
            continue;
        int nb = tb_legal_texts(&q, b, MAXT);
        assert_true(nb <= MAXT);
        for (int j = 0; j < nb; j++)
            total += (uint64_t)my_play(&q, b[j], &r);
    }
    return total;
}

/* HOUSE-5 in perft by hand (TILE-2): from the start, white's first piece
 * is one of Q R B N P on 0,0 (5).  After Q R B or P black has 5 figures on
 * 8 squares (40 each); after N@0,0 the knight vanishes, the table is empty
 * again and black's first piece goes on 0,0 (5): 4 * 40 + 5 = 165 against
 * 200 without the rule. */
static void test_house5_tile_perft_start(void **state)
{
    (void)state;
    House *h = load_house(2, KNIGHTS_VANISH);
    Game *g = hooked(h, 2, NULL, NULL);
    assert_int_equal(game_perft(g, 1), 5);
    assert_int_equal(game_perft(g, 2), 165);
    game_free(g);
    house_free(h);
}

/* HOUSE-5 in perft (TILE-1 .. 10 through tile_brute): on every position of
 * docs/TILE.md's perft table, perft 2 under "knights vanish" equals the
 * brute's own count with the rule applied on its positions, and differs
 * from the plain count where a knight can move or be placed. */
static void test_house5_tile_perft_brute(void **state)
{
    (void)state;
    TileDocRow rows[TILE_DOC_ROWS];
    int n = tile_doc_rows(rows, TILE_DOC_ROWS), differ = 0;
    assert_true(n >= 8);
    for (int k = 0; k < n; k++) {
        const TileDocRow *w = &rows[k];
        const char *pos = w->position[0] ? w->position : NULL;
        House *h = load_house(w->sides, KNIGHTS_VANISH);
        Game *g = hooked(h, w->sides, pos, w->params[0] ? w->params : NULL);
        char *text = tu_position(g);
        TbPos p;
        char err[200];
        if (tb_parse(&p, text, w->sides, -1, w->orthogonal_pawns, w->lenient_trapped, err,
                     sizeof err))
            fail_msg("%s: the brute cannot read %s: %s", w->id, text, err);
        uint64_t engine = game_perft(g, 2), mine = my_perft2(&p);
        print_message("%s: plain %llu, knights vanish %llu, independent %llu\n", w->id,
                      (unsigned long long)w->count[1], (unsigned long long)engine,
                      (unsigned long long)mine);
        assert_int_equal(engine, mine);
        differ += engine != w->count[1];
        free(text);
        game_free(g);
        house_free(h);
    }
    assert_true(differ >= n - 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_house5_tile_remove_frees_trapped),
        cmocka_unit_test(test_house5_tile_remove_ends_check),
        cmocka_unit_test(test_house5_tile_add_gives_check),
        cmocka_unit_test(test_house5_tile_change),
        cmocka_unit_test(test_house5_tile_three_sides),
        cmocka_unit_test(test_house5_tile_colour_out),
        cmocka_unit_test(test_house5_tile_placement),
        cmocka_unit_test(test_house5_tile_refusals),
        cmocka_unit_test(test_house5_tile_keys_and_undo),
        cmocka_unit_test(test_house5_tile_perft_start),
        cmocka_unit_test(test_house5_tile_perft_brute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
