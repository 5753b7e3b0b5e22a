/*
 * test_fairy_duck.c -- the fairy engine's turn edits and its duck (issue
 * 25, TURN-2, TURN-4, TURN-7; docs/FAIRY.md "The duck"): EDIT_TURN gives
 * the turn to a side, keeps or drops the en passant target and is refused
 * where the check rule forbids it; with the duck the side places it on an
 * empty square, and the duck blocks every piece, is nobody's and is never
 * taken; its texts, position strings, view and hash; duck chess's perft
 * from the start (20, 640: Fairy-Stockfish's 640, which folds the duck
 * into the move) and its ends.
 *
 * Invariant: no house-rule script: a C reaction hook (the schedule's
 * part) gives the turn back with game_edit, so this tests the engine alone.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "support/testutil.h"

/* Duck chess as the design's scripts/duck.lua plays it (TURN-4). */
#define RS_DUCK "name = Duck chess\ncheck = no\nstalemate = win\n"
#define FEN_AFTER_E4 "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w* KQkq - 0 1"

/* The schedule of the test's games, done by the reaction hook: after each
 * move (not a duck placement) the mover places the duck (duck) or moves
 * once more (again: every move gives the turn back). */
typedef struct Sched {
    int duck;
    int again;
} Sched;

static int sched_react(void *ud, Game *g, const Action *a, Error *e)
{
    const Sched *s = ud;
    if (a->kind != ACT_MOVE && !(a->kind == ACT_PLACE && a->figure != FIG_DUCK))
        return 0;
    Edit ed = {EDIT_TURN, coord_make(-1, -1), a->seat, s->duck ? FIG_DUCK : FIG_NONE, 0};
    if (!s->duck && !s->again)
        return 0;
    return game_edit(g, &ed, e);
}

static Sched DUCK = {1, 0}, AGAIN = {0, 1};

/* A fairy game of ruleset from fen (NULL: its start), with sched's hook
 * (NULL: none). */
static Game *dg(const char *ruleset, const char *fen, Sched *sched)
{
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = tu_variant("fairy");
    c.ruleset = ruleset;
    c.position = fen;
    GameHooks h;
    memset(&h, 0, sizeof h);
    h.ud = sched;
    h.react = sched_react;
    Error e;
    e.msg[0] = '\0';
    Game *g = sched ? game_new_hooked(&c, &h, &e) : game_new(&c, &e);
    if (!g)
        fail_msg("fairy game (%s) refused: %s", fen ? fen : "start", e.msg);
    return g;
}

/* Starting a fairy game of ruleset from fen must fail with want. */
static void dg_refused(const char *ruleset, const char *fen, const char *want)
{
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = tu_variant("fairy");
    c.ruleset = ruleset;
    c.position = fen;
    Error e;
    e.msg[0] = '\0';
    Game *g = game_new(&c, &e);
    if (g)
        fail_msg("%s was read; wanted a refusal with '%s'", fen, want);
    if (!strstr(e.msg, want))
        fail_msg("%s: refused with '%s', wanted '%s'", fen, e.msg, want);
}

/* ---- TURN-4: duck chess from the start ------------------------------------ */

/* issue 25 "How to know it is right": duck chess's perft 1 from the start
 * is 640 actions at the second ply (20 moves x 32 duck squares), and
 * after 1.e4 White has 32 squares for the duck. */
static void test_turn4_duck_perft_from_the_start(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, NULL, &DUCK);
    assert_int_equal(game_perft(g, 1), 20);
    assert_int_equal(game_perft(g, 2), 640);
    tu_play(g, 0, "e4");
    tu_assert_position(g, FEN_AFTER_E4);
    assert_int_equal(tu_legal_count(g, 0, ACT_PLACE), 32);
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    assert_int_equal(l.n, 32);
    for (int i = 0; i < l.n; i++) {
        assert_int_equal(l.v[i].kind, ACT_PLACE);
        assert_int_equal(l.v[i].figure, FIG_DUCK);
    }
    al_free(&l);
    /* the engine's own perft from there equals the hooked count */
    Game *p = dg(RS_DUCK, FEN_AFTER_E4, NULL);
    assert_int_equal(game_perft(p, 1), 32);
    assert_int_equal(game_perft(p, 2), game_perft_generic(p, 2));
    game_free(p);
    game_free(g);
}

/* Deeper, against Fairy-Stockfish (ffish 0.7.10, variant "duck"; its
 * move folds the duck in, so its perft n is our 2n): from the start its
 * perft 2 is 379440; from a position of a random game (its FEN, the duck
 * as '*') its perft 1 is 1249 and perft 2 1451916 -- 34990 of those are
 * duck squares after a move that takes White's King, where here the game
 * is over at the capture (PART-5: nothing is played after it), so ours is
 * 1451916 - 34990 = 1416926. */
static void test_turn4_duck_perft_against_fairy_stockfish(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, NULL, &DUCK);
    assert_int_equal(game_perft(g, 4), 379440);
    game_free(g);
    g = dg(RS_DUCK, "rnb1kb1r/3p1ppp/1p6/p1p1pQ2/3P2nq/P3PP1P/1PP3P*/RNB1KBNR w KQkq - 1 9",
           &DUCK);
    assert_int_equal(game_perft(g, 2), 1249);
    if (!TU_SANITIZED)
        assert_int_equal(game_perft(g, 4), 1451916 - 34990);
    game_free(g);
    /* two more random games' positions: no King capture inside the first
     * (1218, 1220774 as it counts them); in the second the knight c6
     * takes the King at once, which it counts once per duck square (38)
     * -- its perft 1 is 1596 */
    g = dg(RS_DUCK, "rnb1k2r/p1pp*1p1/4pn2/1pb1B2p/NP2PpPq/8/P1PPQP1P/RN2KB1R b KQkq - 5 11",
           &DUCK);
    assert_int_equal(game_perft(g, 2), 1218);
    if (!TU_SANITIZED)
        assert_int_equal(game_perft(g, 4), 1220774);
    game_free(g);
    g = dg(RS_DUCK, "r5nr/pbbpkp2/2N4P/1p4p1/1np1PPB1/3*P1P1/P3K3/R1BQ3R w - - 4 22", &DUCK);
    assert_int_equal(game_perft(g, 2), 1596 - 38);
    game_free(g);
}

/* TURN-4: once placed, the duck moves on: the next placement may not
 * leave it where it stands (31 squares then, e4's pawn having moved on
 * and e5 being the duck's). */
static void test_turn4_duck_moves_each_time(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, NULL, &DUCK);
    tu_play_line(g, "e4 @e5 Nf6");
    assert_true(tu_is_legal(g, "@e6"));
    assert_false(tu_is_legal(g, "@e5"));
    assert_false(tu_is_legal(g, "@f6"));
    assert_int_equal(tu_legal_count(g, 1, ACT_PLACE), 31);
    tu_assert_refused(g, "@e5", "the duck stands on e5 already");
    tu_play(g, 1, "duck e6");
    tu_assert_position(g, "rnbqkb1r/pppppppp/4*n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    game_free(g);
}

/* ---- TURN-4: the duck blocks, is nobody's, never taken ---------------------- */

static void test_turn4_duck_blocks_every_piece(void **state)
{
    (void)state;
    /* a rook stops before it, a knight and a pawn cannot go onto it, a
     * pawn cannot take it nor step through it */
    Game *g = dg(RS_DUCK, "4k3/8/8/3*4/R3P3/8/8/4K1N1 w - - 0 1", NULL);
    assert_true(tu_is_legal(g, "a4b4"));
    assert_true(tu_is_legal(g, "a4d4"));
    assert_false(tu_is_legal(g, "e4d5"));  /* a pawn does not take the duck */
    assert_true(tu_is_legal(g, "e4e5"));
    tu_assert_refused(g, "exd5", "exd5: the duck stands on d5; no piece goes there (TURN-4)");
    tu_assert_refused(g, "Qa5", "Qa5 is not a legal move here"); /* elsewhere: as before */
    /* nobody moves it: White's list has no move from its square (the
     * duck's cell reads as white's colour bits, TURN-4) */
    tu_assert_refused(g, "d5d6", "the duck on d5 is nobody's; it moves only when placed");
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    for (int i = 0; i < l.n; i++)
        assert_false(l.v[i].from.x == 3 && l.v[i].from.y == 4);
    al_free(&l);
    game_free(g);
    dg_refused(RS_DUCK, "4k3/8/8/8/*7/8/5*2/R3K1N1 w - - 0 1", "two ducks, on f2 and a4");
    g = dg(RS_DUCK, "4k3/8/8/8/*7/8/8/R3K1N1 w - - 0 1", NULL);
    assert_true(tu_is_legal(g, "a1a3"));
    assert_false(tu_is_legal(g, "a1a4")); /* a rider stops before it */
    assert_false(tu_is_legal(g, "a1a5"));
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/5*2/8/4K1N1 w - - 0 1", NULL);
    assert_false(tu_is_legal(g, "g1f3")); /* a leaper cannot land on it */
    assert_true(tu_is_legal(g, "g1h3"));
    game_free(g);
    /* nor Black's: the duck is nobody's, neither side takes it */
    g = dg(RS_DUCK, "4k3/8/3p4/4*3/8/8/8/4K3 b - - 0 1", NULL);
    assert_false(tu_is_legal(g, "d6e5"));
    assert_true(tu_is_legal(g, "d6d5"));
    game_free(g);
    g = dg(RS_DUCK, "r3k3/8/8/8/*7/8/8/4K3 b - - 0 1", NULL);
    assert_true(tu_is_legal(g, "a8a5"));
    assert_false(tu_is_legal(g, "a8a4"));
    game_free(g);
    g = dg(RS_DUCK, "4k1n1/8/5*2/8/8/8/8/4K3 b - - 0 1", NULL);
    assert_false(tu_is_legal(g, "g8f6"));
    assert_true(tu_is_legal(g, "g8h6"));
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", NULL);
    assert_true(tu_is_legal(g, "e2e4"));
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/4*3/4P3/4K3 w - - 0 1", NULL);
    assert_false(tu_is_legal(g, "e2e3")); /* nor steps through it */
    assert_false(tu_is_legal(g, "e2e4"));
    game_free(g);
}

/* The duck attacks nothing and is attacked by nothing that matters: a
 * King beside it is not in check, and it is in no side's material (K v K
 * with the duck is still dead material, PART-10). */
static void test_turn4_duck_is_nobodys(void **state)
{
    (void)state;
    Game *g = dg(NULL, "4k3/8/8/8/8/8/3*4/4K3 w - - 0 1", NULL);
    tu_assert_over(g, "1/2-1/2", "insufficient material");
    game_free(g);
    g = dg(NULL, "4k3/8/8/8/8/8/3*4/R3K3 w - - 0 1", NULL);
    Status s;
    game_status(g, &s);
    assert_int_equal(s.in_check, 0);
    View v;
    assert_int_equal(game_view(g, 0, &v), 0);
    int ducks = 0;
    for (int i = 0; i < v.npieces; i++)
        if (v.pieces[i].figure == FIG_DUCK) {
            ducks++;
            assert_int_equal(v.pieces[i].side, -1);
            assert_int_equal(v.pieces[i].at.x, 3);
            assert_int_equal(v.pieces[i].at.y, 1);
        }
    assert_int_equal(ducks, 1);
    assert_non_null(strstr(v.info, "the duck: d2"));
    game_free(g);
    /* atomic: a blast next to it leaves it standing (never taken) */
    g = dg("captures = explode\n", "4k3/8/8/8/8/R2p4/3*4/4K3 w - - 0 1", NULL);
    tu_play(g, 0, "Rxd3");
    tu_assert_position(g, "4k3/8/8/8/8/8/3*4/4K3 b - - 0 1");
    game_free(g);
}

/* Castling with check = no (chess.com's duck chess): out of and through
 * an attacked square it is allowed; the duck between king and rook, or on
 * the king's target, forbids it (PART-4). */
static void test_turn4_castling_and_the_duck(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, "4k3/8/8/8/8/8/4r3/4K2R w K - 0 1", NULL);
    assert_true(tu_is_legal(g, "e1g1")); /* out of check: check = no */
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/8/5r2/4K2R w K - 0 1", NULL);
    assert_true(tu_is_legal(g, "e1g1")); /* through an attacked square */
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/8/8/4K*1R w K - 0 1", NULL);
    assert_false(tu_is_legal(g, "e1g1"));
    game_free(g);
    g = dg(RS_DUCK, "4k3/8/8/8/8/8/8/4K1*R w K - 0 1", NULL);
    assert_false(tu_is_legal(g, "e1g1"));
    game_free(g);
}

/* Duck chess's ends: a side without a legal move wins (stalemate = win,
 * PART-9, Fairy-Stockfish's and chess.com's duck rule), here because the
 * duck walls in Black's last pawn; without the duck Black can move. */
static void test_turn4_duck_stalemate_wins(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, "kp6/pp6/p*6/P7/8/8/8/7K b - - 0 1", NULL);
    tu_assert_over(g, "0-1", "stalemate: black, without a move, wins");
    game_free(g);
    g = dg(RS_DUCK, "kp6/pp6/p7/P7/8/8/8/7K b - - 0 1", NULL);
    tu_assert_going_on(g);
    assert_true(tu_is_legal(g, "b7b6"));
    game_free(g);
    /* the King is taken to win (PART-5, check = no), the duck then due
     * or not */
    g = dg(RS_DUCK, "4k3/8/8/8/8/8/8/R3K2q b - - 0 1", &DUCK);
    tu_play(g, 1, "Qxe1");
    tu_assert_over(g, "0-1", "white's royal piece captured");
    game_free(g);
}

/* PART-9's goal_reply (racing kings) with the duck: White in the goal
 * with its duck to place has not won yet -- Black's reply comes after the
 * placement, and reaching the goal too draws. */
static void test_turn4_goal_reply_after_the_duck(void **state)
{
    (void)state;
    Game *g = dg("give_check = no\ngoal = K rank 8\ngoal_reply = yes\ncastling = none\n",
                 "7K/k7/8/8/8/8/8/8 w* - - 0 1", NULL);
    tu_assert_going_on(g);
    tu_play(g, 0, "@a8");
    tu_assert_going_on(g);
    tu_play(g, 1, "Kb8");
    tu_assert_over(g, "1/2-1/2", "both reached the goal");
    game_free(g);
}

/* ---- TURN-7: en passant over the duck's placement --------------------------- */

/* The target a double step makes is the other side's, who moves after
 * the duck: it lives through the placement, and a duck on the passed
 * square blocks the capture. */
static void test_turn7_en_passant_through_the_duck(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &DUCK);
    tu_play_line(g, "d5 @a3");
    tu_assert_position(g, "4k3/8/8/3pP3/8/*7/8/4K3 w - d6 0 2");
    assert_true(tu_is_legal(g, "e5d6"));
    tu_play(g, 0, "exd6");
    game_free(g);
    g = dg(RS_DUCK, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &DUCK);
    tu_play_line(g, "d5 @d6");
    assert_false(tu_is_legal(g, "e5d6"));
    char *pos = tu_position(g);
    Game *back = dg(RS_DUCK, pos, NULL); /* the blocked target reads back */
    assert_false(tu_is_legal(back, "e5d6"));
    game_free(back);
    free(pos);
    game_free(g);
}

/* ---- TURN-2: EDIT_TURN without the duck -------------------------------------- */

/* The schedule gives White the turn back after each move: the side to
 * move stays White, the en passant target goes (a side never takes its
 * own pawn); a move that checks Black's King cannot be given a second
 * move under the check rule (PART-5: the reaction's edit is refused, so
 * is the move, and the game is unchanged). */
static void test_turn2_edit_turn(void **state)
{
    (void)state;
    Game *g = dg(NULL, NULL, &AGAIN);
    tu_play(g, 0, "e4");
    tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    tu_play_line(g, "Bc4");
    tu_assert_refused(g, "Bxf7", "black's royal piece is in check and white would move "
                                 "next (PART-5)");
    tu_play_line(g, "Qf3");
    game_free(g);
    /* with check = no the King may be left attacked: the turn is given */
    g = dg(RS_DUCK, NULL, &AGAIN);
    tu_play_line(g, "e4 Bc4 Bxf7");
    tu_play(g, 0, "Bxe8");
    tu_assert_over(g, "1-0", "black's royal piece captured");
    game_free(g);
}

/* EDIT_TURN's own checks, on the variant's edit op: the side, the
 * figure, the en passant square kept or refused, a duck still due. */
static void test_turn2_edit_turn_refusals(void **state)
{
    (void)state;
    Game *g = dg(NULL, "4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1", NULL);
    const VariantOps *v = game_variant(g);
    void *st = malloc(v->state_size);
    Error e;
    StrBuf s = STRBUF_INIT;
    struct {
        Edit ed;
        const char *want; /* NULL: accepted, giving pos */
        const char *pos;
    } T[] = {
        {{EDIT_TURN, {-1, -1}, 2, 0, 0}, "cannot give the turn to side 2", NULL},
        {{EDIT_TURN, {-1, -1}, 0, FIG_QUEEN, 0}, "is not the duck", NULL},
        {{EDIT_TURN, {-1, -1}, 0, 0, 0}, NULL, "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"},
        {{EDIT_TURN, {3, 5}, 0, 0, 0}, NULL, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"},
        {{EDIT_TURN, {4, 5}, 0, 0, 0}, "en passant on e6: no black pawn has just stepped",
         NULL},
        {{EDIT_TURN, {9, 5}, 0, 0, 0}, "off the 8x8 board", NULL},
        {{EDIT_TURN, {-1, -1}, 1, FIG_DUCK, 0}, NULL, "4k3/8/8/3pP3/8/8/8/4K3 b* - - 0 1"},
        {{EDIT_TURN, {3, 5}, 1, FIG_DUCK, 0}, "the last move made no target there", NULL},
    };
    for (size_t i = 0; i < ARRAY_LEN(T); i++) {
        memcpy(st, game_state(g), v->state_size);
        e.msg[0] = '\0';
        int rc = v->edit(g, st, &T[i].ed, NULL, &e);
        if (T[i].want) {
            if (rc != -1 || !strstr(e.msg, T[i].want))
                fail_msg("edit %zu: %d '%s', wanted '%s'", i, rc, e.msg, T[i].want);
            assert_memory_equal(st, game_state(g), v->state_size);
            continue;
        }
        if (rc)
            fail_msg("edit %zu refused: %s", i, e.msg);
        sb_reset(&s);
        v->write_position(g, st, &s);
        assert_string_equal(sb_str(&s), T[i].pos);
        if (T[i].ed.figure == FIG_DUCK) { /* and nothing more while it is due */
            Edit again = {EDIT_TURN, {-1, -1}, 0, 0, 0};
            assert_int_equal(v->edit(g, st, &again, NULL, &e), -1);
            assert_non_null(strstr(e.msg, "black must place the duck first (TURN-4)"));
        }
    }
    sb_free(&s);
    free(st);
    game_free(g);
}

/* ---- Texts, position strings, view, hash --------------------------------------- */

/* The duck's texts: @e5 in records and for machines; @e5, duck e5 and
 * e5 read while it is due; bad ones refused with what is wrong, the game
 * unchanged (tu_assert_refused). */
static void test_turn4_duck_texts(void **state)
{
    (void)state;
    Game *g = dg(RS_DUCK, NULL, &DUCK);
    tu_assert_refused(g, "@e5", "no duck is to be placed now");
    tu_assert_refused(g, "duck e5", "no duck is to be placed now");
    tu_play(g, 0, "e4");
    View v;
    assert_int_equal(game_view(g, 0, &v), 0);
    assert_string_equal(v.question, "white places the duck");
    tu_assert_refused(g, "@e4", "e4 is not empty; the duck goes onto an empty square");
    tu_assert_refused(g, "Nf3", "white places the duck now: type its square");
    tu_assert_refused(g, "@z9", "white places the duck now");
    tu_assert_refused_by(g, 1, "@e5", NULL);
    /* why (issue 22): a placement and a refusal about the duck name TURN-4 */
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    WhyRule w;
    const VariantOps *ops = game_variant(g);
    assert_int_equal(ops->why(g, game_state(g), 0, &l.v[0], NULL, &w), 0);
    assert_string_equal(w.ids, "TURN-4");
    al_free(&l);
    memset(&w, 0, sizeof w);
    ops->why(g, game_state(g), 0, NULL, "@e4: e4 is not empty; the duck goes onto an empty "
             "square", &w);
    assert_string_equal(w.ids, "TURN-4");
    tu_play(g, 0, "e5");
    const HistoryEntry *h = game_history(g, game_history_len(g) - 1);
    assert_string_equal(h->text, "@e5");
    assert_string_equal(h->machine, "@e5");
    assert_int_equal(h->action.figure, FIG_DUCK);
    assert_int_equal(game_to_act(g), 1);
    tu_play(g, 1, "Nc6");
    tu_play(g, 1, "DUCK d4");
    h = game_history(g, game_history_len(g) - 1);
    assert_string_equal(h->text, "@d4");
    tu_assert_position(g, "r1bqkbnr/pppppppp/2n5/8/3*P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
    game_free(g);
}

/* Position strings: the duck as '*', the placement due as w* / b*; each
 * reads back to itself; bad ones say what is wrong. */
static void test_turn4_position_strings(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        FEN_AFTER_E4,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5*2/PPPP1PPP/RNBQKBNR b* KQkq - 0 2",
        "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b* KQkq d6 0 2",
        "*7/8/8/8/8/8/8/K6k w - - 0 1",
    };
    for (size_t i = 0; i < ARRAY_LEN(FENS); i++) {
        Game *g = dg(RS_DUCK, FENS[i], NULL);
        tu_assert_position(g, FENS[i]);
        game_free(g);
    }
    dg_refused(RS_DUCK, "8/8/8/8/8/8/8/K6k w** - - 0 1", "not w or b (w* or b*");
    dg_refused(RS_DUCK, "*~7/8/8/8/8/8/8/K6k w - - 0 1", "'~' not after a piece");
    dg_refused(RS_DUCK, "*8/8/8/8/8/8/8/K6k w - - 0 1", "has 9 squares");
    /* with the check rule, the side placing the duck may not be in check
     * (the other moves after it) */
    dg_refused(NULL, "4k3/8/8/8/8/8/8/r3K3 w* - - 0 1", "white is in check with black");
    Game *g = dg(NULL, "4k3/8/8/8/8/8/8/R3K3 w* - - 0 1", NULL);
    tu_assert_going_on(g);
    game_free(g);
}

/* The hash (repetitions, transpositions) tells the duck's square and the
 * placement due apart. */
static void test_turn4_hash(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w* - - 0 1",
        "4k3/8/8/8/8/8/*7/R3K3 w - - 0 1",
        "4k3/8/8/8/8/8/*7/R3K3 w* - - 0 1",
        "4k3/8/8/8/8/8/1*6/R3K3 w - - 0 1",
    };
    uint64_t h[ARRAY_LEN(FENS)];
    for (size_t i = 0; i < ARRAY_LEN(FENS); i++) {
        Game *g = dg(RS_DUCK, FENS[i], NULL);
        h[i] = game_variant(g)->hash(g, game_state(g));
        for (size_t j = 0; j < i; j++)
            if (h[i] == h[j])
                fail_msg("%s and %s hash alike", FENS[i], FENS[j]);
        game_free(g);
    }
}

/* ---- The fast paths agree with legal/apply --------------------------------------- */

/* The engine's perft equals the generic one (legal/apply) from positions
 * with the duck due and on the board, and random duck games played
 * through the hook keep legal_draw, apply_listed and the position string
 * in step with legal and apply. */
static void test_turn4_fast_paths_agree(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        FEN_AFTER_E4,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5*2/PPPP1PPP/RNBQKBNR b* KQkq - 0 2",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b* KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K*1R w KQkq - 0 1",
    };
    const int depth = TU_SANITIZED ? 2 : 3;
    for (size_t i = 0; i < ARRAY_LEN(FENS); i++)
        for (int rs = 0; rs < 2; rs++) {
            Game *g = dg(rs ? RS_DUCK : NULL, FENS[i], NULL);
            uint64_t fast = game_perft(g, depth), generic = game_perft_generic(g, depth);
            if (fast != generic)
                fail_msg("%s: fast %" PRIu64 ", generic %" PRIu64, FENS[i], fast, generic);
            game_free(g);
        }
    const VariantOps *v = tu_variant("fairy");
    for (int k = 0; k < (TU_SANITIZED ? 2 : 8); k++) {
        Game *g = dg(RS_DUCK, NULL, &DUCK);
        Rng rng;
        rng_seed(&rng, (uint64_t)k + 25);
        for (int ply = 0; ply < 120 && game_to_act(g) >= 0; ply++) {
            ActionList l = ACTIONLIST_INIT;
            assert_int_equal(game_legal_play(g, &l), 0);
            Rng a = rng, b = rng;
            Action drawn;
            int n = v->legal_draw(g, game_state(g), game_to_act(g), &a, &drawn);
            assert_int_equal(n, l.n);
            assert_true(action_eq(&drawn, &l.v[rng_below(&b, (uint32_t)l.n)]));
            /* apply_listed makes what apply makes */
            void *st = malloc(v->state_size), *st2 = malloc(v->state_size);
            memcpy(st, game_state(g), v->state_size);
            memcpy(st2, game_state(g), v->state_size);
            assert_int_equal(v->apply(g, st, &drawn, NULL), 0);
            v->apply_listed(g, st2, &drawn);
            assert_memory_equal(st, st2, v->state_size);
            free(st);
            free(st2);
            Error e;
            assert_int_equal(game_apply(g, &drawn, &e), 0);
            /* the position string reads back to the same state */
            char *pos = tu_position(g);
            Game *back = dg(RS_DUCK, pos, NULL);
            assert_int_equal(v->hash(back, game_state(back)), v->hash(g, game_state(g)));
            game_free(back);
            free(pos);
            rng = a;
            al_free(&l);
        }
        game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn4_duck_perft_from_the_start),
        cmocka_unit_test(test_turn4_duck_perft_against_fairy_stockfish),
        cmocka_unit_test(test_turn4_duck_moves_each_time),
        cmocka_unit_test(test_turn4_duck_blocks_every_piece),
        cmocka_unit_test(test_turn4_duck_is_nobodys),
        cmocka_unit_test(test_turn4_castling_and_the_duck),
        cmocka_unit_test(test_turn4_duck_stalemate_wins),
        cmocka_unit_test(test_turn4_goal_reply_after_the_duck),
        cmocka_unit_test(test_turn7_en_passant_through_the_duck),
        cmocka_unit_test(test_turn2_edit_turn),
        cmocka_unit_test(test_turn2_edit_turn_refusals),
        cmocka_unit_test(test_turn4_duck_texts),
        cmocka_unit_test(test_turn4_position_strings),
        cmocka_unit_test(test_turn4_hash),
        cmocka_unit_test(test_turn4_fast_paths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
