/*
 * test_tile.c -- Tile Chess (rules TILE-1 .. TILE-11 of
 * docs/RULES.md; contract: docs/TILE.md) on concrete positions,
 * through the public game API only: armies and the start position string,
 * placement and the King's restriction, unity, passing over, the figures,
 * trapped pieces, threats and checks, passes, King captures and command,
 * repetition up to a translation, scores, position-string errors.
 *
 * Invariant: every test is named after the rule it checks and builds its
 * own position (drawn as a grid in a comment, y up, x to the right; `.` an
 * empty square); a behaviour the engine gets wrong against the brief is
 * kept as a test marked BUG: and skipped, never weakened.
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

/* ---- Helpers ------------------------------------------------------------- */

static Game *tile_game(const char *pos, int nsides, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = nsides,
                             .position = pos, .params = params});
}

/* Some message (from index `from` on, as seat 0 reads it) holds want. */
static int msg_has(const Game *g, int from, const char *want)
{
    for (int i = from; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, 0);
        if (m && strstr(m, want))
            return 1;
    }
    return 0;
}

static void assert_msg(const Game *g, int from, const char *want)
{
    if (!msg_has(g, from, want)) {
        for (int i = 0; i < game_message_count(g); i++)
            print_message("message %d: %s\n", i, game_message(g, i, 0));
        fail_msg("no message holds \"%s\"", want);
    }
}

/* The flags of the piece on x,y in seat 0's view (-1: no piece there). */
static int flags_at(const Game *g, int x, int y)
{
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, 0, v), 0);
    int f = -1;
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].at.x == x && v->pieces[i].at.y == y)
            f = v->pieces[i].flags;
    free(v);
    return f;
}

static int info_has(const Game *g, const char *want)
{
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, 0, v), 0);
    const int found = strstr(v->info, want) != NULL;
    if (!found)
        print_message("info: %s\n", v->info);
    free(v);
    return found;
}

/* The machine texts of the legal play actions, space-separated, in the
 * engine's order, keeping only those starting with prefix. */
static void legal_texts(const Game *g, const char *prefix, char *out, size_t n)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf b = STRBUF_INIT;
    game_legal_play(g, &l);
    out[0] = 0;
    for (int i = 0; i < l.n; i++) {
        sb_reset(&b);
        game_format(g, &l.v[i], FMT_MACHINE, &b);
        if (strncmp(sb_str(&b), prefix, strlen(prefix)))
            continue;
        if (out[0])
            strncat(out, " ", n - strlen(out) - 1);
        strncat(out, sb_str(&b), n - strlen(out) - 1);
    }
    sb_free(&b);
    al_free(&l);
}

/* Is the set of destinations of the piece on `from` exactly `want` (a
 * space-separated list of squares, any order)? */
static void assert_dests(const Game *g, const char *from, const char *want)
{
    char prefix[32], got[4096];
    snprintf(prefix, sizeof prefix, "%s-", from);
    legal_texts(g, prefix, got, sizeof got);
    int ngot = got[0] ? 1 : 0, nwant = 0;
    for (const char *p = got; *p; p++)
        ngot += *p == ' ';
    char buf[256];
    str_copy(buf, sizeof buf, want);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char mv[64];
        snprintf(mv, sizeof mv, "%s-%s", from, t);
        if (!tu_is_legal(g, mv))
            fail_msg("%s is not legal (legal from %s: %s)", mv, from, got);
        nwant++;
    }
    if (ngot != nwant)
        fail_msg("from %s: want %s, got %s", from, want, got);
}

static int act_count(const Game *g, int kind)
{
    return tu_legal_count(g, game_to_act(g), kind);
}

/* ---- TILE-1 Armies ------------------------------------------------------- */

static void start_is(int nsides, const char *params, const char *want)
{
    Game *g = tile_game(NULL, nsides, params);
    tu_assert_position(g, want);
    game_free(g);
}

static void test_tile1_armies_and_pawns_parameter(void **state)
{
    (void)state;
    start_is(2, NULL, "hand:w=KQRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:w first:w");
    start_is(3, NULL, "hand:w=KQRRBBNNPPPPPP,b=KQRRBBNNPPPPPP,r=KQRRBBNNPPPPPP "
                      "turn:w first:w");
    start_is(4, NULL, "hand:w=KQRRBBNNPPPP,b=KQRRBBNNPPPP,r=KQRRBBNNPPPP,"
                      "u=KQRRBBNNPPPP turn:w first:w");
    start_is(5, NULL, "hand:w=KQRRBBNNPPPP,b=KQRRBBNNPPPP,r=KQRRBBNNPPPP,"
                      "u=KQRRBBNNPPPP,g=KQRRBBNNPPPP turn:w first:w");
    start_is(2, "pawns=3", "hand:w=KQRRBBNNPPP,b=KQRRBBNNPPP turn:w first:w");
    start_is(4, "pawns=3", "hand:w=KQRRBBNNPPP,b=KQRRBBNNPPP,r=KQRRBBNNPPP,"
                           "u=KQRRBBNNPPP turn:w first:w");
    start_is(2, "pawns=0", "hand:w=KQRRBBNN,b=KQRRBBNN turn:w first:w");
}

/* ---- TILE-2 Placement ---------------------------------------------------- */

static void test_tile2_first_piece_at_origin(void **state)
{
    (void)state;
    Game *g = tile_game(NULL, 2, NULL);
    char got[512];
    legal_texts(g, "", got, sizeof got);
    assert_string_equal(got, "Q@0,0 R@0,0 B@0,0 N@0,0 P@0,0"); /* no K: last */
    tu_assert_refused(g, "Q@1,0", "0,0");
    tu_assert_refused(g, "K@0,0", "King is placed last");
    game_free(g);
}

/* After wQ on 0,0 black may place on the 8 squares around it (side or
 * corner), 5 figures each, never at distance 2, never its King. */
static void test_tile2_touch_by_side_or_corner(void **state)
{
    (void)state;
    Game *g = tile_game(NULL, 2, NULL);
    tu_play(g, 0, "Q@0,0");
    assert_int_equal(game_to_act(g), 1);
    assert_int_equal(act_count(g, ACT_PLACE), 8 * 5);
    assert_true(tu_is_legal(g, "N@1,1"));   /* corner */
    assert_true(tu_is_legal(g, "N@0,-1"));  /* side */
    assert_false(tu_is_legal(g, "N@2,0"));
    tu_assert_refused(g, "N@2,0", "touches no piece");
    tu_assert_refused(g, "N@0,0", "taken");
    tu_assert_refused(g, "K@1,1", "King is placed last");
    game_free(g);
}

/*  y=1  bK  bP  .         white places its King (its last piece); bR
 *  y=0  .   wP  bR        (not trapped) attacks row 0 and column 1, bK
 *  y=-1 .   .   .         forbids its neighbours.
 *      x=-1 0   1
 */
static void test_tile2_king_restriction(void **state)
{
    (void)state;
    Game *g = tile_game("bK-1,1 bP0,1 wP0,0 bR1,0 hand:w=K turn:w", 2, NULL);
    assert_false(tu_is_legal(g, "K@1,1"));   /* in check from the rook */
    assert_false(tu_is_legal(g, "K@1,-1"));  /* in check from the rook */
    assert_true(tu_is_legal(g, "K@2,0"));    /* bR would be its only link:
                                              * trapped, a mere threat */
    assert_false(tu_is_legal(g, "K@-1,0"));  /* next to bK */
    assert_false(tu_is_legal(g, "K@-2,0"));  /* next to bK */
    assert_true(tu_is_legal(g, "K@0,-1"));   /* free */
    assert_true(tu_is_legal(g, "K@-1,-1"));
    tu_assert_refused(g, "K@1,1", "TILE-2");
    tu_assert_refused(g, "K@-1,0", "next to another King");
    game_free(g);
}

/*  y=0  wP  bB  bP  bK        bB links wP to the black pieces: trapped
 *  y=-1 K?  .   .   .         (also once wK stands on 0,-1), so 0,-1 is
 *      x=0  1   2   3         only threatened: allowed (TILE-7).
 */
static void test_tile2_threatened_square_allowed(void **state)
{
    (void)state;
    Game *g = tile_game("wP0,0 bB1,0 bP2,0 bK3,0 hand:w=K turn:w", 2, NULL);
    assert_true(tu_is_legal(g, "K@0,-1"));
    tu_play(g, 0, "K@0,-1");
    assert_true(flags_at(g, 1, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 0, -1) & VP_CHECK);
    assert_true(info_has(g, "white's King is threatened by trapped pieces only"));
    game_free(g);
}

/*  y=1  .   .   .   .   .    every one of the 12 frontier squares is
 *  y=0  .   bK  bP  rK  .    next to bK or rK: no square is allowed, the
 *  y=-1 .   .   .   .   .    restriction lapses and all 12 are legal.
 *      x=-1 0   1   2   3
 */
static void test_tile2_king_restriction_lapses(void **state)
{
    (void)state;
    Game *g = tile_game("bK0,0 bP1,0 rK2,0 hand:w=K turn:w", 3, NULL);
    assert_int_equal(act_count(g, ACT_PLACE), 12);
    assert_true(tu_is_legal(g, "K@1,1"));
    assert_true(tu_is_legal(g, "K@-1,0"));
    assert_true(tu_is_legal(g, "K@3,-1"));
    const int m0 = game_message_count(g);
    tu_play(g, 0, "K@1,1");   /* attacked by bK and rK, neither trapped */
    assert_msg(g, m0, "white's King is placed in check on 1,1");
    assert_msg(g, m0, "white moves first");
    assert_true(flags_at(g, 1, 1) & VP_CHECK);
    game_free(g);
}

/* A King placed where it is not in check is not announced so. */
static void test_tile2_king_not_in_check_not_announced(void **state)
{
    (void)state;
    Game *g = tile_game("bK-1,1 bP0,1 wP0,0 bR1,0 hand:w=K turn:w", 2, NULL);
    const int m0 = game_message_count(g);
    tu_play(g, 0, "K@0,-1");
    assert_false(msg_has(g, m0, "placed in check"));
    game_free(g);
}

static void test_tile2_first_placer_parameter(void **state)
{
    (void)state;
    Game *g = tile_game(NULL, 3, "first=red");
    tu_assert_position(g, "hand:w=KQRRBBNNPPPPPP,b=KQRRBBNNPPPPPP,r=KQRRBBNNPPPPPP "
                          "turn:r first:r");
    assert_int_equal(game_to_act(g), 2);
    tu_assert_refused_by(g, 0, "Q@0,0", NULL);
    tu_play(g, 2, "Q@0,0");
    assert_int_equal(game_to_act(g), 0); /* clockwise: red, white, black */
    tu_play(g, 0, "Q@1,0");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);
}

static void test_tile2_first_placer_moves_first(void **state)
{
    (void)state;
    /*  y=2  rK  .   bK     white's King, the last piece, ends placement;
     *  y=1  rN  wQ  bR     red placed first, so red moves first.
     *  y=0  .   K?  .
     *      x=0  1   2
     */
    Game *g = tile_game("rK0,2 bK2,2 rN0,1 wQ1,1 bR2,1 hand:w=K turn:w first:r", 3, NULL);
    const int m0 = game_message_count(g);
    tu_play(g, 0, "K@1,0");
    assert_msg(g, m0, "every piece is placed: red moves first");
    assert_int_equal(game_to_act(g), 2);
    game_free(g);
}

static void test_tile2_random_placement(void **state)
{
    (void)state;
    Game *a = tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = 3, .seed = 11,
                                .params = "first=red"});
    Game *b = tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = 3, .seed = 11,
                                .params = "first=red"});
    Game *c = tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = 3, .seed = 12,
                                .params = "first=red"});
    tu_play(a, 2, "Q@0,0");
    tu_play(b, 2, "Q@0,0");
    tu_play(c, 2, "Q@0,0");
    tu_play(a, 0, "random");
    tu_play(b, 0, "random");
    tu_play(c, 0, "random");
    char *pa = tu_position(a), *pb = tu_position(b), *pc = tu_position(c);
    assert_null(strstr(pa, "hand:"));       /* everything placed */
    assert_string_equal(pa, pb);            /* the same seed, the same table */
    assert_string_not_equal(pa, pc);
    assert_int_equal(game_to_act(a), 2);    /* red placed first: red moves */
    assert_int_equal(act_count(a, ACT_PLACE), 0);
    assert_true(act_count(a, ACT_MOVE) + act_count(a, ACT_PASS) > 0);
    /* 3 armies of 14 (6 pawns), one history entry per placement */
    assert_int_equal(game_history_len(a), 3 * 14);
    tu_assert_refused(a, "random", "only during placement");
    free(pa);
    free(pb);
    free(pc);
    game_free(a);
    game_free(b);
    game_free(c);
}

/* ---- TILE-3 Unity -------------------------------------------------------- */

/*  y=0  wR  wK  bP  bK      the rook (an end of the chain) may move only
 *      x=0  1   2   3       where it still touches a piece.
 */
static void test_tile3_move_splitting_table_refused(void **state)
{
    (void)state;
    Game *g = tile_game("wR0,0 wK1,0 bP2,0 bK3,0 turn:w", 2, NULL);
    assert_true(tu_is_legal(g, "0,0-0,1"));    /* touches wK by a corner */
    assert_true(tu_is_legal(g, "0,0-0,-1"));
    assert_false(tu_is_legal(g, "0,0-0,2"));
    assert_false(tu_is_legal(g, "0,0--1,0"));
    tu_assert_refused(g, "0,0--1,0", "TILE-3");
    tu_assert_refused(g, "0,0--1,0", "not be one group");
    game_free(g);
}

/* ---- TILE-4 Passing over ------------------------------------------------- */

/*  y=1  wK  .   .   .   bP  bK
 *  y=0  wR  wP  wP  bN  .   .
 *      x=0  1   2   3   4   5
 * The rook passes over its own pawns, captures bN, never goes beyond.
 */
static void test_tile4_slider_over_own_stopped_by_enemy(void **state)
{
    (void)state;
    Game *g = tile_game("wK0,1 bP4,1 bK5,1 wR0,0 wP1,0 wP2,0 bN3,0 turn:w", 2, NULL);
    assert_true(tu_is_legal(g, "0,0-3,0"));
    assert_false(tu_is_legal(g, "0,0-1,0"));   /* own piece */
    assert_false(tu_is_legal(g, "0,0-4,0"));   /* beyond the knight */
    tu_assert_refused(g, "0,0-4,0", "TILE-4");
    tu_play(g, 0, "0,0-3,0");
    tu_assert_position(g, "wK0,1 bP4,1 bK5,1 wP1,0 wP2,0 wR3,0 turn:b");
    game_free(g);
}

/*  y=2  .   .   .   bK
 *  y=1  .   bR  bB  .        the knight jumps over enemy pieces
 *  y=0  wK  wN  bB  .
 *      x=-1 0   1   2
 */
static void test_tile4_knight_jumps_over_enemies(void **state)
{
    (void)state;
    Game *g = tile_game("bK2,2 bR0,1 bB1,1 wK-1,0 wN0,0 bB1,0 turn:w", 2, NULL);
    /* all but 1,-2 and -1,-2, which touch nothing */
    assert_dests(g, "0,0", "1,2 2,1 2,-1 -2,1 -2,-1 -1,2");
    tu_play(g, 0, "0,0-1,2");
    game_free(g);
}

/* ---- TILE-5 Figures ------------------------------------------------------ */

/* A pawn on 0,0 whose only neighbour (wK) is on 0,0 + d: wK, then bP, then
 * bK go on in the same direction. */
static Game *pawn_game(int dx, int dy, const char *params)
{
    char pos[256];
    /* in reading order: build by hand for the three directions used */
    if (dx == 0 && dy == 1)
        snprintf(pos, sizeof pos, "bK0,3 bP0,2 wK0,1 wP0,0 turn:w");
    else if (dx == 0 && dy == -1)
        snprintf(pos, sizeof pos, "wP0,0 wK0,-1 bP0,-2 bK0,-3 turn:w");
    else
        snprintf(pos, sizeof pos, "bK-3,0 bP-2,0 wK-1,0 wP0,0 turn:w");
    return tile_game(pos, 2, params);
}

static void test_tile5_pawn_steps_in_eight_directions(void **state)
{
    (void)state;
    Game *g = pawn_game(0, 1, NULL);    /* neighbour above */
    assert_dests(g, "0,0", "-1,1 1,1 -1,0 1,0");
    game_free(g);
    g = pawn_game(0, -1, NULL);         /* neighbour below */
    assert_dests(g, "0,0", "-1,-1 1,-1 -1,0 1,0");
    game_free(g);
    g = pawn_game(-1, 0, NULL);         /* neighbour left */
    assert_dests(g, "0,0", "0,1 0,-1 -1,1 -1,-1");
    game_free(g);
}

static void test_tile5_orthogonal_pawns(void **state)
{
    (void)state;
    Game *g = pawn_game(0, 1, "orthogonal_pawns=on");
    assert_dests(g, "0,0", "-1,0 1,0");
    game_free(g);
    g = pawn_game(-1, 0, "orthogonal_pawns=on");
    assert_dests(g, "0,0", "0,1 0,-1");
    game_free(g);
}

/*  y=1  .   wR  bB  bK
 *  y=0  wK  wP  bN  .        the pawn captures bB and bP (diagonals, one
 *  y=-1 .   .   bP  .        of them backwards), never bN (orthogonal)
 *      x=-1 0   1   2
 */
static void test_tile5_pawn_captures_diagonally_only(void **state)
{
    (void)state;
    const char *pos = "wR0,1 bB1,1 bK2,1 wK-1,0 wP0,0 bN1,0 bP1,-1 turn:w";
    for (int ortho = 0; ortho < 2; ortho++) {
        Game *g = tile_game(pos, 2, ortho ? "orthogonal_pawns=on" : NULL);
        assert_true(tu_is_legal(g, "0,0-1,1"));
        assert_true(tu_is_legal(g, "0,0-1,-1"));
        assert_false(tu_is_legal(g, "0,0-1,0"));
        tu_assert_refused(g, "0,0-1,0", "TILE-5");
        game_free(g);
    }
}

/* ---- TILE-6 Trapped ------------------------------------------------------ */

/*  y=0  wN  wB  wK  bP  bK      wN has one neighbour: never trapped; wB
 *      x=-1 0   1   2   3       is its only link: trapped.
 */
static void test_tile6_leaf_free_its_neighbour_trapped(void **state)
{
    (void)state;
    Game *g = tile_game("wN-1,0 wB0,0 wK1,0 bP2,0 bK3,0 turn:w", 2, NULL);
    assert_true(flags_at(g, 0, 0) & VP_TRAPPED);
    assert_false(flags_at(g, -1, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 3, 0) & VP_TRAPPED);
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_dests(g, "0,0", "");
    assert_true(tu_is_legal(g, "-1,0-1,1"));   /* the knight moves */
    tu_assert_refused(g, "0,0-1,1", "TILE-6");
    tu_assert_refused(g, "0,0-1,1", "trapped");
    game_free(g);
}

/*  y=0  wN  wR  wK  bP  bK      wR is trapped; lenient: it may move only
 *      x=-1 0   1   2   3       to 0,1 or 0,-1, touching both sides.
 */
static void test_tile6_lenient_trapped(void **state)
{
    (void)state;
    const char *pos = "wN-1,0 wR0,0 wK1,0 bP2,0 bK3,0 turn:w";
    Game *g = tile_game(pos, 2, NULL);
    assert_dests(g, "0,0", "");
    tu_assert_refused(g, "0,0-0,1", "TILE-6");
    game_free(g);
    g = tile_game(pos, 2, "lenient_trapped=on");
    assert_true(flags_at(g, 0, 0) & VP_TRAPPED);
    assert_dests(g, "0,0", "0,1 0,-1");
    tu_assert_refused(g, "0,0--2,0", "TILE-3");  /* over wN: wK cut off */
    tu_assert_refused(g, "0,0-2,0", "TILE-3");   /* capture splitting wN off */
    tu_play(g, 0, "0,0-0,1");
    game_free(g);
}

/* ---- TILE-7 Threat ------------------------------------------------------- */

/*  y=1  wQ  wN  .   .   bQ      bR links the two groups: trapped.  It
 *  y=0  wK  .   bR  bP  bK      attacks wK along row 0: only a threat.
 *      x=0  1   2   3   4
 */
#define THREAT_POS "wQ0,1 wN1,1 bQ4,1 wK0,0 bR2,0 bP3,0 bK4,0"

static void test_tile7_threatened_king_may_ignore(void **state)
{
    (void)state;
    Game *g = tile_game(THREAT_POS " turn:w", 2, NULL);
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 0, 0) & VP_CHECK);
    Status st;
    game_status(g, &st);
    assert_int_equal(st.in_check, 0);
    assert_true(info_has(g, "white's King is threatened by trapped pieces only (TILE-7)"));
    assert_true(tu_is_legal(g, "0,1-0,2"));    /* ignores the threat */
    assert_true(tu_is_legal(g, "0,0--1,0"));   /* onto a threatened square */
    assert_true(tu_is_legal(g, "0,0-1,0"));    /* next to the trapped rook */
    tu_play(g, 0, "0,0-1,0");
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 1, 0) & VP_CHECK);
    game_free(g);
}

/* With lenient_trapped=on the trapped rook could move, yet the King it
 * attacks is still only threatened (TILE-6's parameter, TILE-7). */
static void test_tile7_lenient_still_threat(void **state)
{
    (void)state;
    Game *g = tile_game(THREAT_POS " turn:w", 2, "lenient_trapped=on");
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 0, 0) & VP_CHECK);
    assert_true(tu_is_legal(g, "0,1-0,2"));
    assert_true(info_has(g, "white's King is threatened by trapped pieces only"));
    game_free(g);
}

/* Black's queen goes to 2,1, a second link: bR is free and checks wK. */
static void test_tile7_freed_attacker_announced(void **state)
{
    (void)state;
    Game *g = tile_game(THREAT_POS " turn:b", 2, NULL);
    const int m0 = game_message_count(g);
    tu_play(g, 1, "4,1-2,1");
    assert_false(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    assert_msg(g, m0, "in check: white's King (new)");
    assert_msg(g, m0, "check to white's King: black's rook on 2,0 is free again (TILE-7)");
    game_free(g);
}

/* ---- TILE-8 Check -------------------------------------------------------- */

/*  y=3  bK  .   .   .          red is in check from wR already; the
 *  y=2  bP  .   .   .          queen's move to 1,2 checks black too:
 *  y=1  wQ  bR  rP  .          "in check: black's King (new), red's King"
 *  y=0  wK  wR  .   rK
 *      x=0  1   2   3
 */
static void test_tile8_several_checks_new_flagged(void **state)
{
    (void)state;
    Game *g = tile_game("bK0,3 bP0,2 wQ0,1 bR1,1 rP2,1 wK0,0 wR1,0 rK3,0 turn:w", 3, NULL);
    assert_true(flags_at(g, 3, 0) & VP_CHECK);
    const int m0 = game_message_count(g);
    tu_play(g, 0, "0,1-1,2");
    assert_msg(g, m0, "in check: black's King (new), red's King");
    assert_false(msg_has(g, m0, "red's King (new)"));
    assert_true(flags_at(g, 0, 3) & VP_CHECK);
    assert_true(flags_at(g, 3, 0) & VP_CHECK);
    Status st;
    game_status(g, &st);
    assert_int_equal(st.in_check, (1u << 1) | (1u << 2));
    game_free(g);
}

/*  y=0  wK  wN  bP  bR  bK     the rook's ray passes over its own pawn:
 *  y=-1 .   wP  .   .   .      the knight is pinned.
 *      x=0  1   2   3   4
 */
static void test_tile8_move_into_check_refused(void **state)
{
    (void)state;
    Game *g = tile_game("wK0,0 wN1,0 bP2,0 bR3,0 bK4,0 wP1,-1 turn:w", 2, NULL);
    assert_false(tu_is_legal(g, "1,0-3,1"));
    tu_assert_refused(g, "1,0-3,1", "white's King would be in check (TILE-8)");
    assert_true(tu_is_legal(g, "1,-1-0,-1"));
    game_free(g);
}

/*  y=1  .   .   wN  wP  .   .    wK in check from bR; the pawn leaving
 *  y=0  .   wK  .   bR  bP  bK   2,1 makes bR the only link: trapped,
 *  y=-1 wQ  .   .   .   .   .    the check is gone.
 *      x=-1 0   1   2   3   4
 */
static void test_tile8_escape_by_trapping_attacker(void **state)
{
    (void)state;
    Game *g = tile_game("wN1,1 wP2,1 wK0,0 bR2,0 bP3,0 bK4,0 wQ-1,-1 turn:w", 2, NULL);
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    assert_false(flags_at(g, 2, 0) & VP_TRAPPED);
    tu_assert_refused(g, "-1,-1--1,0", "TILE-8");
    assert_true(tu_is_legal(g, "2,1-1,2"));
    tu_play(g, 0, "2,1-1,2");
    assert_true(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_false(flags_at(g, 0, 0) & VP_CHECK);
    game_free(g);
}

/*  y=1  .   wQ  bK  .       wK in check from bR; the queen takes bK:
 *  y=0  wK  .   bR  .       white commands black, bR is friendly, no
 *  y=-1 .   wN  rK  .       check any more.
 *      x=0  1   2   3
 */
static void test_tile8_escape_by_capturing_checking_king(void **state)
{
    (void)state;
    Game *g = tile_game("wQ1,1 bK2,1 wK0,0 bR2,0 wN1,-1 rK2,-1 turn:w", 3, NULL);
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    assert_false(flags_at(g, 2, 0) & VP_TRAPPED);
    assert_true(tu_is_legal(g, "1,1-2,1"));
    const int m0 = game_message_count(g);
    tu_play(g, 0, "1,1-2,1");
    assert_msg(g, m0, "white takes black's King and now commands black (TILE-10)");
    assert_false(flags_at(g, 0, 0) & VP_CHECK);
    tu_assert_position(g, "wQ2,1 wK0,0 bR2,0 wN1,-1 rK2,-1 turn:r cmd:b=w");
    game_free(g);
}

/*  y=3  .   .   .   .   rK     bR checks wK; it is pinned by rR (moving
 *  y=2  .   .   .   rR  .      it off column 2 would open rR's ray to
 *  y=1  .   .   wP  .   .      bK), yet the check counts: white may not
 *  y=0  .   wK  .   bR  .      ignore it.
 *  y=-1 wB  .   wN  .   .
 *  y=-2 .   .   .   bK  .
 *      x=-1 0   1   2   3
 */
static void test_tile8_pinned_piece_still_checks(void **state)
{
    (void)state;
    Game *g = tile_game("rK3,3 rR2,2 wP1,1 wK0,0 bR2,0 wB-1,-1 wN1,-1 bK2,-2 turn:w", 3,
                        NULL);
    assert_true(flags_at(g, 0, 0) & VP_CHECK);
    Status st;
    game_status(g, &st);
    assert_true(st.in_check & 1u);
    tu_assert_refused(g, "-1,-1-0,-2", "TILE-8");
    tu_assert_refused(g, "-1,-1-2,2", "TILE-8");
    /* wK, wP and wN are trapped; wB cannot answer the check: white is in
     * check with no escape and must pass (TILE-9), though wB could move */
    char got[256];
    legal_texts(g, "", got, sizeof got);
    assert_string_equal(got, "pass");
    game_free(g);
}

/* ---- TILE-9 Pass --------------------------------------------------------- */

/*  y=0  bK  bN  wK  bB      wK, white's only piece, is trapped: only pass
 *      x=-2 -1  0   1
 */
static void test_tile9_forced_pass(void **state)
{
    (void)state;
    Game *g = tile_game("bK-2,0 bN-1,0 wK0,0 bB1,0 turn:w", 2, NULL);
    char got[256];
    legal_texts(g, "", got, sizeof got);
    assert_string_equal(got, "pass");
    tu_play(g, 0, "pass");
    tu_assert_position(g, "bK-2,0 bN-1,0 wK0,0 bB1,0 turn:b passes:1");
    assert_false(tu_is_legal(g, "pass"));
    tu_assert_refused(g, "pass", "TILE-9");
    assert_true(info_has(g, "passes in a row: 1 of 2"));
    game_free(g);
}

static void test_tile9_round_of_passes_drawn(void **state)
{
    (void)state;
    Game *g = tile_game("bK-2,0 bN-1,0 wK0,0 bB1,0 turn:w passes:1", 2, NULL);
    tu_play(g, 0, "pass");
    tu_assert_over(g, "1/2-1/2", "a full round of passes (TILE-9); scores: white 0, black 6");
    game_free(g);
}

/* ---- TILE-10 King capture ------------------------------------------------ */

/*  y=1  wK  wB  .   .   .   .      blue commands red; wB takes uK: white
 *  y=0  wR  rN  uK  uP  bP  bK     commands red and blue, red and blue
 *  y=-1 .   wP  .   .   .   .      leave the turn order.
 *      x=0  1   2   3   4   5
 */
#define CMD_POS "wK0,1 wB1,1 wR0,0 rN1,0 uK2,0 uP3,0 bP4,0 bK5,0 wP1,-1 turn:w cmd:r=u"

static void test_tile10_king_capture_hands_over_two_colours(void **state)
{
    (void)state;
    Game *g = tile_game(CMD_POS, 4, NULL);
    const int m0 = game_message_count(g);
    tu_play(g, 0, "1,1-2,0");
    assert_msg(g, m0, "white takes blue's King and now commands red, blue (TILE-10)");
    tu_assert_position(g, "wK0,1 wR0,0 rN1,0 wB2,0 uP3,0 bP4,0 bK5,0 wP1,-1 turn:b "
                          "cmd:r=w,u=w");
    assert_true(info_has(g, "white commands white, red and blue (TILE-10)"));
    assert_int_equal(game_to_act(g), 1);
    tu_play(g, 1, "5,0-5,1");
    assert_int_equal(game_to_act(g), 0);  /* red and blue are skipped */
    assert_true(tu_is_legal(g, "1,0-3,1"));   /* white moves the red knight */
    assert_true(tu_is_legal(g, "0,0-4,0"));   /* over red, white and blue */
    tu_play(g, 0, "0,0-4,0");
    game_free(g);
}

static void test_tile10_declining_king_capture(void **state)
{
    (void)state;
    Game *g = tile_game(CMD_POS, 4, NULL);
    assert_true(tu_is_legal(g, "1,1-2,0"));
    tu_play(g, 0, "1,-1-2,-1");   /* another move: the capture is declined */
    assert_int_equal(game_to_act(g), 1);
    tu_play(g, 1, "5,0-5,1");
    assert_int_equal(game_to_act(g), 3);  /* red (commanded) skipped: blue */
    game_free(g);
}

/*  y=1  .   wP  .
 *  y=0  wK  wR  bK      the rook takes the last other King: white wins
 *      x=0  1   2
 */
static void test_tile10_last_king_wins(void **state)
{
    (void)state;
    Game *g = tile_game("wP1,1 wK0,0 wR1,0 bK2,0 turn:w", 2, NULL);
    tu_play(g, 0, "1,0-2,0");
    tu_assert_over(g, "1-0", "the last King on the table (TILE-10)");
    game_free(g);
}

static int can_resign(const Game *g, int seat)
{
    return tu_legal_count(g, seat, ACT_RESIGN) > 0;
}

static void test_tile10_resign_only_two_sides(void **state)
{
    (void)state;
    Game *g = tile_game("wR0,0 wK1,0 bP2,0 bK3,0 turn:w", 2, NULL);
    assert_true(can_resign(g, 0));
    tu_play(g, 0, "resign");
    tu_assert_over(g, "0-1", "white resigned");
    game_free(g);
    g = tile_game(CMD_POS, 4, NULL);
    assert_false(can_resign(g, 0));
    tu_assert_refused_by(g, 0, "resign", NULL);
    game_free(g);
}

/* ---- TILE-11 Draws --------------------------------------------------------- */

/*  y=2  wK  wR  .        each side steps both pieces up one square: the
 *  y=1  .   bR  bK       whole table moves up, white to move again.
 *      x=0  1   2
 */
static void test_tile11_repetition_up_to_translation(void **state)
{
    (void)state;
    Game *g = tile_game("wK0,2 wR1,2 bR1,1 bK2,1 turn:w", 2, NULL);
    tu_play_line(g, "1,2-1,3 2,1-2,2 0,2-0,3 1,1-1,2");
    tu_assert_position(g, "wK0,3 wR1,3 bR1,2 bK2,2 turn:w");
    assert_int_equal(game_repetitions(g), 2);
    tu_assert_going_on(g);
    tu_play_line(g, "1,3-1,4 2,2-2,3 0,3-0,4 1,2-1,3");
    assert_int_equal(game_repetitions(g), 3);
    tu_assert_over(g, "1/2-1/2", "threefold repetition (TILE-11); scores: white 5, black 5");
    game_free(g);
}

/*  y=2  wK  wQ  .        the same shuffle downwards with white's Queen:
 *  y=1  .   .   bK       the scores use Tile's table (Q 12) or value.Q.
 *  y=0  .   bR  .
 *      x=0  1   2
 */
static void repeat_with_queen(const char *params, const char *want)
{
    Game *g = tile_game("wK0,2 wQ1,2 bK2,1 bR1,0 turn:w", 2, params);
    tu_play_line(g, "0,2-0,1 2,1-2,0 1,2-1,1 1,0-1,-1");
    tu_play_line(g, "0,1-0,0 2,0-2,-1 1,1-1,0 1,-1-1,-2");
    tu_assert_over(g, "1/2-1/2", want);
    game_free(g);
}

static void test_tile11_scores_value_table(void **state)
{
    (void)state;
    repeat_with_queen(NULL, "threefold repetition (TILE-11); scores: white 12, black 5");
    repeat_with_queen("value.Q=20", "threefold repetition (TILE-11); scores: white 20, "
                                    "black 5");
}

/* The 3-side position of test_tile8_escape_by_capturing_checking_king:
 * after Qx bK black is out; white (Q, R, N: 20) and red (K: 0) remain. */
static Game *agreement_game(void)
{
    Game *g = tile_game("wQ1,1 bK2,1 wK0,0 bR2,0 wN1,-1 rK2,-1 turn:w", 3, NULL);
    tu_play(g, 0, "1,1-2,1");
    tu_play(g, 2, "offer");
    return g;
}

static void test_tile11_draw_by_agreement(void **state)
{
    (void)state;
    Game *g = agreement_game();
    tu_assert_going_on(g);     /* red's offer alone is not a draw */
    tu_play(g, 0, "accept");   /* every seat still in agrees: black is out */
    Status st;
    game_status(g, &st);
    assert_true(st.over);
    assert_int_equal(st.winners, 0);
    assert_int_equal(game_to_act(g), -1);
    game_free(g);
}

/* TILE-11: each seat still in scores what it commands, and the scores are
 * reported with a draw by agreement too (the seat that is out scores
 * nothing): in the result's reason and in the game-over message. */
static void test_tile11_agreement_reports_scores(void **state)
{
    (void)state;
    Game *g = agreement_game();
    const int m0 = game_message_count(g);
    tu_play(g, 0, "accept");
    Status st;
    game_status(g, &st);
    assert_true(st.over);
    assert_string_equal(st.reason, "draw by agreement; scores: white 20, red 0");
    assert_msg(g, m0, "scores: white 20, red 0");
    game_free(g);
}

/* ---- Position strings ------------------------------------------------------ */

static void refused(const char *pos, int nsides, const char *want)
{
    tu_game_refused(&(TuGame){.variant = tu_variant("tile"), .nsides = nsides,
                              .position = pos}, want);
}

static void test_tile11_position_errors(void **state)
{
    (void)state;
    refused("wK0,0 bK3,0 turn:w", 2, "not one group");
    refused("wK0,0 wK1,0 bK2,0 turn:w", 2, "white has 2 kings");
    refused("wK0,0 wR1,0 bR1,0 bK2,0 turn:w", 2, "two pieces on 1,0");
    refused("wK0,0 bK1000001,0 turn:w", 2, "squares are limited to -1000000..1000000");
    refused("wK0,0 bK0,-1000001 turn:w", 2, "squares are limited");
    refused("wK0,0 rK1,0 bK-1,0 turn:w", 2, "'r' is not a colour of this game");
    refused("wQ0,0 rP1,0 hand:w=K,b=K turn:w cmd:r=w", 3,
            "cmd: no King can have been captured during placement");
    refused("wK0,0 hand:w=Q,b=K turn:b", 2, "the King is placed last");
    /* a good one reads back as written */
    Game *g = tile_game("wK0,0 bK0,2 bP0,1 turn:w", 2, NULL);
    tu_assert_position(g, "bK0,2 bP0,1 wK0,0 turn:w");
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile1_armies_and_pawns_parameter),
        cmocka_unit_test(test_tile2_first_piece_at_origin),
        cmocka_unit_test(test_tile2_touch_by_side_or_corner),
        cmocka_unit_test(test_tile2_king_restriction),
        cmocka_unit_test(test_tile2_threatened_square_allowed),
        cmocka_unit_test(test_tile2_king_restriction_lapses),
        cmocka_unit_test(test_tile2_king_not_in_check_not_announced),
        cmocka_unit_test(test_tile2_first_placer_parameter),
        cmocka_unit_test(test_tile2_first_placer_moves_first),
        cmocka_unit_test(test_tile2_random_placement),
        cmocka_unit_test(test_tile3_move_splitting_table_refused),
        cmocka_unit_test(test_tile4_slider_over_own_stopped_by_enemy),
        cmocka_unit_test(test_tile4_knight_jumps_over_enemies),
        cmocka_unit_test(test_tile5_pawn_steps_in_eight_directions),
        cmocka_unit_test(test_tile5_orthogonal_pawns),
        cmocka_unit_test(test_tile5_pawn_captures_diagonally_only),
        cmocka_unit_test(test_tile6_leaf_free_its_neighbour_trapped),
        cmocka_unit_test(test_tile6_lenient_trapped),
        cmocka_unit_test(test_tile7_threatened_king_may_ignore),
        cmocka_unit_test(test_tile7_lenient_still_threat),
        cmocka_unit_test(test_tile7_freed_attacker_announced),
        cmocka_unit_test(test_tile8_several_checks_new_flagged),
        cmocka_unit_test(test_tile8_move_into_check_refused),
        cmocka_unit_test(test_tile8_escape_by_trapping_attacker),
        cmocka_unit_test(test_tile8_escape_by_capturing_checking_king),
        cmocka_unit_test(test_tile8_pinned_piece_still_checks),
        cmocka_unit_test(test_tile9_forced_pass),
        cmocka_unit_test(test_tile9_round_of_passes_drawn),
        cmocka_unit_test(test_tile10_king_capture_hands_over_two_colours),
        cmocka_unit_test(test_tile10_declining_king_capture),
        cmocka_unit_test(test_tile10_last_king_wins),
        cmocka_unit_test(test_tile10_resign_only_two_sides),
        cmocka_unit_test(test_tile11_repetition_up_to_translation),
        cmocka_unit_test(test_tile11_scores_value_table),
        cmocka_unit_test(test_tile11_draw_by_agreement),
        cmocka_unit_test(test_tile11_agreement_reports_scores),
        cmocka_unit_test(test_tile11_position_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
