/*
 * test_orthodox.c -- the orthodox variant through the public game API:
 * castling (ORTH-5), en passant (ORTH-3), promotion (ORTH-4), check
 * (ORTH-6), checkmate and stalemate (ORTH-7), the draw rules and their
 * parameters (ORTH-9), and the ops the core relies on (FEN in and out,
 * views, messages, perft, refusing forged actions).
 *
 * Invariant: games are driven with game_play(g, seat, "Nf3", &e) exactly as
 * a player or script would; the engine's internals are only touched to
 * compare error messages with chess_from_fen's own.
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
#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

static const VariantOps *orthodox(void)
{
    const VariantOps *v = variant_find("orthodox");
    assert_non_null(v);
    return v;
}

/* ORTH-9: the game from fen is over at once by insufficient material
 * (dead), or goes on. */
static void assert_material(const char *fen, int dead)
{
    Game *g = tu_orthodox(fen);
    if (dead)
        tu_assert_over(g, "1/2-1/2", "insufficient material");
    else
        tu_assert_going_on(g);
    game_free(g);
}

/* May the seat to act claim a draw now (ORTH-9)? */
static int claim_offered(const Game *g)
{
    return tu_legal_count(g, game_to_act(g), ACT_DRAW_CLAIM) > 0;
}

#define SHUFFLE "Nf3 Nf6 Ng1 Ng8"

/* ---- ORTH-5 castling ---------------------------------------------------- */

static void test_orth5_castle_both_sides(void **state)
{
    (void)state;
    Game *g = tu_orthodox("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    tu_play_line(g, "O-O O-O-O");
    tu_assert_position(g, "2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2");
    game_free(g);
}

static void test_orth5_castle_through_check(void **state)
{
    (void)state;
    Game *g = tu_orthodox("1k3r2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_false(tu_is_legal(g, "e1g1"));
    tu_assert_refused(g, "O-O", "O-O: white cannot castle king-side (the king "
                                "would pass through f1, which is attacked)");
    assert_true(tu_is_legal(g, "e1c1"));
    game_free(g);
    /* Only the king's path counts: an attacked b1 does not stop O-O-O. */
    g = tu_orthodox("1r4k1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_true(tu_is_legal(g, "e1c1"));
    tu_play_line(g, "O-O-O");
    game_free(g);
}

static void test_orth5_castle_out_of_check(void **state)
{
    (void)state;
    Game *g = tu_orthodox("1k2r3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_false(tu_is_legal(g, "e1g1"));
    assert_false(tu_is_legal(g, "e1c1"));
    tu_assert_refused(g, "O-O-O", "O-O-O: white cannot castle queen-side (you "
                                  "cannot castle out of check)");
    game_free(g);
}

static void test_orth5_castle_into_check(void **state)
{
    (void)state;
    Game *g = tu_orthodox("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    assert_false(tu_is_legal(g, "e1g1"));
    tu_assert_refused(g, "e1g1", "e1g1: white cannot castle king-side (the king "
                                 "would land in check on g1)");
    assert_true(tu_is_legal(g, "e1c1"));
    game_free(g);
}

static void test_orth5_castle_squares_between_must_be_empty(void **state)
{
    (void)state;
    Game *g = tu_orthodox("1k6/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    tu_assert_refused(g, "O-O", "the squares between the king and the rook must "
                                "be empty, and g1 is not");
    tu_assert_refused(g, "O-O-O", "the squares between the king and the rook "
                                  "must be empty, and b1 is not");
    game_free(g);
}

static void test_orth5_rook_captured_removes_right(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/7R/6b1/R3K2R b KQ - 0 1");
    tu_play_line(g, "Bxh1");
    tu_assert_position(g, "4k3/8/8/8/8/7R/8/R3K2b w Q - 0 2");
    /* A rook back on h1 does not bring the right back. */
    tu_play_line(g, "Rxh1 Kd7");
    assert_false(tu_is_legal(g, "e1g1"));
    tu_assert_refused(g, "O-O", "O-O: white cannot castle king-side (white has "
                                "no castling right on that side");
    assert_true(tu_is_legal(g, "e1c1"));
    game_free(g);
}

static void test_orth5_king_moved_loses_both_rights(void **state)
{
    (void)state;
    Game *g = tu_orthodox("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    tu_play_line(g, "Ke2 Ke7 Ke1 Ke8");
    tu_assert_position(g, "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
    assert_false(tu_is_legal(g, "e1g1"));
    assert_false(tu_is_legal(g, "e1c1"));
    tu_assert_refused(g, "O-O-O", "no castling right on that side");
    game_free(g);
}

static void test_orth5_rook_moved_loses_its_side_only(void **state)
{
    (void)state;
    Game *g = tu_orthodox("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    tu_play_line(g, "Rh2 Rb8 Rh1 Ra8");
    tu_assert_position(g, "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 4 3");
    assert_false(tu_is_legal(g, "e1g1"));
    tu_play_line(g, "O-O-O O-O");
    game_free(g);
}

/* The house-rule classic: castling=off drops every right at the start. */
static void test_orth5_param_castling_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with(NULL, "castling=off");
    tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    tu_play_line(g, "e4 e5 Nf3 Nf6 Bc4 Bc5");
    assert_false(tu_is_legal(g, "e1g1"));
    tu_assert_refused(g, "O-O", "no castling right on that side");
    game_free(g);
    g = tu_orthodox_with("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                         "castling=off");
    tu_assert_position(g, "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    assert_false(tu_is_legal(g, "e1c1"));
    game_free(g);
}

/* ---- ORTH-3 en passant ------------------------------------------------------ */

static void test_orth3_en_passant_right_after_double_step(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    tu_play_line(g, "d5");
    assert_true(tu_is_legal(g, "e5d6"));
    tu_play_line(g, "Kd2 Ke7");
    assert_false(tu_is_legal(g, "e5d6"));
    tu_assert_refused(g, "exd6", "exd6: the pawn on e5 cannot move to d6 (en "
                                 "passant is only allowed on the move right "
                                 "after the enemy pawn's double step)");
    game_free(g);
}

static void test_orth3_no_en_passant_after_single_steps(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/3p4/4P3/8/8/8/4K3 b - - 0 1");
    tu_play_line(g, "d5");
    assert_false(tu_is_legal(g, "e5d6"));
    tu_assert_refused(g, "e5d6", "en passant is only allowed");
    game_free(g);
}

/* ORTH-3 with ORTH-6: taking en passant empties two squares of the rank. */
static void test_orth3_en_passant_exposing_king_on_rank_illegal(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/2p5/8/KP5r/8/8/8/8 b - - 0 1");
    tu_play_line(g, "c5");
    assert_false(tu_is_legal(g, "b5c6"));
    tu_assert_refused(g, "bxc6", "bxc6: the pawn on b5 cannot move to c6 (that "
                                 "would leave your king in check)");
    assert_true(tu_is_legal(g, "b5b6"));
    game_free(g);
}

/* ---- ORTH-4 promotion ----------------------------------------------------- */

static void test_orth4_promotion_to_each_piece(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    ActionList l = ACTIONLIST_INIT;
    unsigned figures = 0;
    game_legal_play(g, &l);
    for (int i = 0; i < l.n; i++)
        if (l.v[i].from.x == 0 && l.v[i].from.y == 6) {
            assert_int_equal(l.v[i].to.x, 0);
            assert_int_equal(l.v[i].to.y, 7);
            figures |= 1u << l.v[i].figure;
        }
    al_free(&l);
    assert_int_equal(figures, (1u << FIG_KNIGHT) | (1u << FIG_BISHOP)
                                  | (1u << FIG_ROOK) | (1u << FIG_QUEEN));
    assert_false(tu_is_legal(g, "a7a8"));
    tu_play_line(g, "a8=R+");
    tu_assert_position(g, "R3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_string_equal(game_history(g, 0)->text, "a8=R+");
    assert_string_equal(game_history(g, 0)->machine, "a7a8r");
    game_free(g);
    g = tu_orthodox("4k3/8/8/8/8/8/p7/4K3 b - - 0 1");
    tu_play_line(g, "a1=N");
    tu_assert_position(g, "4k3/8/8/8/8/8/8/n3K3 w - - 0 2");
    game_free(g);
}

/* ---- ORTH-7 checkmate and stalemate ---------------------------------------- */

static void test_orth7_checkmate_wins(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "f3 e5 g4 Qh4#");
    tu_assert_over(g, "0-1", "checkmate");
    Status s;
    game_status(g, &s);
    assert_int_equal(s.winners, 1u << 1);
    assert_int_equal(s.in_check, 1u << 0);
    assert_string_equal(game_history(g, 3)->text, "Qh4#");
    Error e = {{0}};
    assert_int_equal(game_play(g, 0, "e4", &e), -1);
    assert_non_null(strstr(e.msg, "the game is over"));
    game_free(g);
}

static void test_orth7_stalemate_is_a_draw(void **state)
{
    (void)state;
    Game *g = tu_orthodox("7k/8/4Q1K1/8/8/8/8/8 w - - 0 1");
    tu_play_line(g, "Qf7");
    tu_assert_over(g, "1/2-1/2", "stalemate");
    Status s;
    game_status(g, &s);
    assert_int_equal(s.in_check, 0);
    game_free(g);
}

static void test_orth6_check_is_reported(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 f6 Qh5+");
    Status s;
    game_status(g, &s);
    assert_false(s.over);
    assert_int_equal(s.in_check, 1u << 1);
    /* Every legal reply answers the check: only g6 does. */
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    assert_int_equal(l.n, 1);
    al_free(&l);
    assert_true(tu_is_legal(g, "g7g6"));
    game_free(g);
}

/* ---- ORTH-9 draws ------------------------------------------------------------ */

static void test_orth9_threefold_claim_holds(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, SHUFFLE);
    assert_int_equal(game_repetitions(g), 2);
    assert_false(claim_offered(g));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play_line(g, SHUFFLE);
    assert_int_equal(game_repetitions(g), 3);
    tu_assert_going_on(g); /* a claim, not automatic */
    assert_true(claim_offered(g));
    tu_play_line(g, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by white");
    game_free(g);
}

/* Same placement, but the castling rights differ: not the same position. */
static void test_orth9_threefold_needs_same_rights(void **state)
{
    (void)state;
    Game *g = tu_orthodox("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    tu_play_line(g, "Ke2 Ke7 Ke1 Ke8 Ke2 Ke7 Ke1 Ke8");
    assert_int_equal(game_repetitions(g), 2);
    assert_false(claim_offered(g));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play_line(g, "Ke2 Ke7 Ke1 Ke8");
    tu_play_line(g, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by white");
    game_free(g);
}

static void test_orth9_param_threefold_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with(NULL, "threefold=off");
    tu_play_line(g, SHUFFLE " " SHUFFLE);
    assert_int_equal(game_repetitions(g), 3);
    assert_false(claim_offered(g));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    game_free(g);
}

static void test_orth9_fifty_move_claim(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    assert_false(claim_offered(g));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play_line(g, "Ra2");
    assert_true(claim_offered(g));
    tu_play_line(g, "claim");
    tu_assert_over(g, "1/2-1/2", "fifty-move rule claimed by black");
    game_free(g);
}

static void test_orth9_fifty_move_count_resets(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/P7/R3K3 w - - 99 80");
    tu_play_line(g, "a3");
    assert_false(claim_offered(g));
    game_free(g);
    g = tu_orthodox("4k3/8/8/8/8/8/r7/R3K3 w - - 99 80");
    tu_play_line(g, "Rxa2");
    assert_false(claim_offered(g));
    game_free(g);
}

static void test_orth9_param_fifty_move_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with("4k3/8/8/8/8/8/8/R3K3 w - - 99 80",
                               "fifty_move=off");
    tu_play_line(g, "Ra2");
    assert_false(claim_offered(g));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    game_free(g);
}

static void test_orth9_fivefold_automatic(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, SHUFFLE " " SHUFFLE " " SHUFFLE);
    assert_int_equal(game_repetitions(g), 4);
    tu_assert_going_on(g);
    tu_play_line(g, SHUFFLE);
    tu_assert_over(g, "1/2-1/2", "fivefold repetition");
    game_free(g);
}

static void test_orth9_param_fivefold_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with(NULL, "fivefold=off");
    tu_play_line(g, SHUFFLE " " SHUFFLE " " SHUFFLE " " SHUFFLE " " SHUFFLE);
    assert_int_equal(game_repetitions(g), 6);
    tu_assert_going_on(g);
    assert_true(claim_offered(g)); /* the threefold claim still holds */
    game_free(g);
}

static void test_orth9_seventy_five_move_automatic(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/8/R3K3 w - - 148 80");
    tu_play_line(g, "Ra2");
    tu_assert_going_on(g);
    tu_play_line(g, "Kd7");
    tu_assert_over(g, "1/2-1/2", "seventy-five-move rule");
    game_free(g);
}

/* A mate on the 150th ply stands: the mate ends the game first. */
static void test_orth9_seventy_five_move_mate_stands(void **state)
{
    (void)state;
    Game *g = tu_orthodox("k7/8/1K6/8/8/8/8/7R w - - 149 80");
    tu_play_line(g, "Rh8#");
    tu_assert_over(g, "1-0", "checkmate");
    game_free(g);
}

static void test_orth9_param_seventy_five_move_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with("4k3/8/8/8/8/8/8/R3K3 w - - 149 80",
                               "seventy_five_move=off");
    tu_play_line(g, "Ra2 Kd7 Ra3");
    tu_assert_going_on(g);
    assert_true(claim_offered(g)); /* fifty-move claim still holds */
    game_free(g);
}

static void test_orth9_insufficient_king_v_king(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    tu_play_line(g, "Kxe2");
    tu_assert_over(g, "1/2-1/2", "insufficient material");
    game_free(g);
}

static void test_orth9_insufficient_minor_piece(void **state)
{
    (void)state;
    assert_material("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", 1);
    assert_material("4k3/8/8/8/8/8/8/4KB2 b - - 0 1", 1);
    /* Two knights, or a pawn, can still mate (with help). */
    assert_material("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", 0);
    assert_material("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0);
}

static void test_orth9_insufficient_bishops_by_square_colour(void **state)
{
    (void)state;
    /* c1 and f8 are both dark squares: no mate possible. */
    assert_material("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", 1);
    /* c1 dark, c8 light: a mate exists, the game goes on. */
    assert_material("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 0);
}

static void test_orth9_param_insufficient_material_off(void **state)
{
    (void)state;
    Game *g = tu_orthodox_with("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1",
                               "insufficient_material=off");
    tu_play_line(g, "Kxe2 Kd7");
    tu_assert_going_on(g);
    game_free(g);
}

/* ---- The ops the core relies on ------------------------------------------ */

static void test_orth1_parameters_documented(void **state)
{
    (void)state;
    const VariantOps *v = orthodox();
    static const char *const draws[] = {"threefold", "fifty_move", "fivefold",
                                        "seventy_five_move",
                                        "insufficient_material"};
    for (size_t i = 0; i < ARRAY_LEN(draws); i++) {
        int k = params_index(v, draws[i]);
        assert_true(k >= 0);
        assert_string_equal(v->params[k].rule, "ORTH-9");
        assert_int_equal(v->params[k].type, PARAM_BOOL);
        assert_int_equal(v->params[k].def, 1);
        assert_true(strlen(v->params[k].doc) > 20);
    }
    int k = params_index(v, "castling");
    assert_true(k >= 0);
    assert_string_equal(v->params[k].rule, "ORTH-5");
    Params p;
    Error e = {{0}};
    params_defaults(v, &p);
    assert_int_equal(params_set(v, &p, "castling=maybe", &e), -1);
    assert_int_equal(params_set(v, &p, "fiftymove=off", &e), -1);
    assert_non_null(strstr(e.msg, "fifty_move"));
}

static void test_orth1_fen_in_and_out(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_assert_position(g, TU_FEN_START);
    tu_play_line(g, "e4");
    tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    game_free(g);
    g = tu_orthodox(TU_FEN_KIWIPETE);
    tu_assert_position(g, TU_FEN_KIWIPETE);
    game_free(g);
}

/* init passes chess_from_fen's message through unchanged. */
static void test_orth1_bad_fen_message_passes_through(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQXBNR w KQkq - 0 1",
        "8/8/8/8/8/8/8/8 w - - 0 1",
        "hello",
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        GameConfig c;
        Error e = {{0}}, want = {{0}};
        Position p;
        memset(&c, 0, sizeof c);
        c.variant = orthodox();
        c.position = bad[i];
        assert_null(game_new(&c, &e));
        assert_int_equal(chess_from_fen(&p, bad[i], &want), -1);
        assert_true(want.msg[0] != '\0');
        assert_non_null(strstr(e.msg, want.msg));
    }
}

static void test_orth1_view_shows_everything(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    game_view(g, 0, v);
    assert_int_equal(v->npieces, 32);
    assert_int_equal(v->geo.bounded, 1);
    assert_int_equal(v->geo.width, 8);
    assert_int_equal(v->geo.height, 8);
    assert_int_equal(v->has_last, 0);
    assert_string_equal(v->question, "white to move");
    assert_string_equal(v->position,
                        TU_FEN_START);
    int kings = 0;
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].figure == FIG_KING) {
            kings++;
            assert_int_equal(v->pieces[i].at.x, 4);
            assert_int_equal(v->pieces[i].at.y, v->pieces[i].side ? 7 : 0);
        }
    assert_int_equal(kings, 2);
    game_view(g, 1, v);
    assert_string_equal(v->question, ""); /* black is not asked yet */
    tu_play_line(g, "e4 f6 Qh5+");
    game_view(g, 1, v);
    assert_int_equal(v->has_last, 1);
    assert_int_equal(v->last_from.x, 3);
    assert_int_equal(v->last_from.y, 0);
    assert_int_equal(v->last_to.x, 7);
    assert_int_equal(v->last_to.y, 4);
    assert_string_equal(v->last_text, "Qh5+");
    assert_string_equal(v->question, "black to move");
    /* ORTH-6: the check is said once, by the core's status line from
     * Status.in_check; the variant adds no info line about it. */
    assert_string_equal(v->info, "");
    assert_int_equal(v->status.in_check, 1u << 1);
    assert_int_equal(v->side_to_move, 1);
    free(v);
    game_free(g);
}

/* One message per move, to everyone; a check (ORTH-6) is the SAN's "+"
 * and nothing more: the core's status line says who is in check. */
static void test_orth1_messages_name_the_move(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 f6 Qh5+");
    static const char *const want[] = {"white plays e4", "black plays f6",
                                       "white plays Qh5+"};
    assert_int_equal(game_message_count(g), 3);
    for (int i = 0; i < 3; i++) {
        /* orthodox chess tells everyone everything */
        assert_string_equal(game_message(g, i, 0), want[i]);
        assert_string_equal(game_message(g, i, 1), want[i]);
    }
    game_free(g);
    /* A mate is the "#" (the result is the core's status). */
    g = tu_orthodox(NULL);
    tu_play_line(g, "e4 f6 d4 g5 Qh5#");
    tu_assert_over(g, "1-0", "checkmate");
    assert_int_equal(game_message_count(g), 6);
    assert_string_equal(game_message(g, 4, 1), "white plays Qh5#");
    assert_non_null(strstr(game_message(g, 5, 1), "game over")); /* the core's */
    game_free(g);
}

static void test_orth2_perft_fast_and_generic_agree(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    assert_int_equal(game_perft(g, 3), 8902);
    assert_int_equal(game_perft_generic(g, 3), 8902);
    game_free(g);
    g = tu_orthodox(TU_FEN_KIWIPETE);
    assert_int_equal(game_perft(g, 2), 2039);
    assert_int_equal(game_perft_generic(g, 2), 2039);
    game_free(g);
    /* castling=off removes the castling moves from the tree too. */
    g = tu_orthodox_with(TU_FEN_KIWIPETE, "castling=off");
    assert_int_equal(game_perft(g, 1), 46);
    assert_int_equal(game_perft_generic(g, 1), 46);
    game_free(g);
}

/* apply refuses an action that is not one of the legal list's entries. */
static void test_orth6_apply_refuses_forged_actions(void **state)
{
    (void)state;
    const VariantOps *v = orthodox();
    Game *g = tu_orthodox(NULL);
    ActionList l = ACTIONLIST_INIT;
    void *blob = malloc(v->state_size);
    Error e = {{0}};
    assert_non_null(blob);
    game_legal_play(g, &l);
    assert_int_equal(l.n, 20);
    Action a = l.v[0];
    a.to.y += 3; /* squares that no longer match the code */
    memcpy(blob, game_state(g), v->state_size);
    assert_int_equal(v->apply(g, blob, &a, NULL), -1);
    a = l.v[0];
    a.code = MOVE_MAKE(CH_SQ(4, 1), CH_SQ(4, 4), MK_NORMAL); /* e2e5 */
    a.from = coord_make(4, 1);
    a.to = coord_make(4, 4);
    assert_int_equal(v->apply(g, blob, &a, NULL), -1);
    assert_int_equal(game_apply(g, &a, &e), -1);
    assert_int_equal(game_history_len(g), 0);
    a = l.v[0];
    a.seat = 1; /* black moving a white piece */
    assert_int_equal(v->apply(g, blob, &a, NULL), -1);
    assert_int_equal(v->apply(g, blob, &l.v[0], NULL), 0);
    al_free(&l);
    free(blob);
    game_free(g);
}


/* ---- help: every example of the variant's table is played ------------------- */

/* Where a help example applies: a position, the moves before it, and the
 * move it must read as (UCI). */
typedef struct HelpCase {
    const char *example, *fen, *before, *uci;
} HelpCase;

static const HelpCase HELP_CASES[] = {
    {"Nf3", NULL, NULL, "g1f3"},                                      /* ORTH-2 */
    {"exd5", NULL, "e4 d5", "e4d5"},                                  /* ORTH-2 */
    {"O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL, "e1g1"},   /* ORTH-5 */
    {"O-O-O", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL, "e1c1"}, /* ORTH-5 */
    {"e8=Q", "2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", NULL, "e7e8q"},      /* ORTH-4 */
    {"g1f3", NULL, NULL, "g1f3"},
};

static void test_orth1_help_examples_are_played(void **state)
{
    (void)state;
    const VariantOps *v = orthodox();
    assert_int_equal(v->version, 8);
    assert_int_equal(v->hidden_info, 0);
    assert_non_null(v->help);
    tu_assert_help_fits(v->help);
    int n = 0;
    for (; v->help[n].usage; n++) {
        const HelpCase *c = NULL;
        for (size_t j = 0; j < ARRAY_LEN(HELP_CASES) && !c; j++)
            if (strcmp(HELP_CASES[j].example, v->help[n].example) == 0)
                c = &HELP_CASES[j];
        if (!c)
            fail_msg("help example \"%s\" has no position in HELP_CASES",
                     v->help[n].example);
        Game *g = tu_orthodox(c->fen);
        if (c->before)
            tu_play_line(g, c->before);
        Action a;
        Error e = {{0}};
        if (game_parse(g, game_to_act(g), c->example, &a, &e))
            fail_msg("help example %s refused: %s", c->example, e.msg);
        StrBuf b = STRBUF_INIT;
        game_format(g, &a, FMT_MACHINE, &b);
        assert_string_equal(sb_str(&b), c->uci);
        sb_free(&b);
        tu_play(g, game_to_act(g), c->example);
        game_free(g);
    }
    assert_true(n >= 5); /* a move, a capture, castling, promotion, UCI */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orth5_castle_both_sides),
        cmocka_unit_test(test_orth5_castle_through_check),
        cmocka_unit_test(test_orth5_castle_out_of_check),
        cmocka_unit_test(test_orth5_castle_into_check),
        cmocka_unit_test(test_orth5_castle_squares_between_must_be_empty),
        cmocka_unit_test(test_orth5_rook_captured_removes_right),
        cmocka_unit_test(test_orth5_king_moved_loses_both_rights),
        cmocka_unit_test(test_orth5_rook_moved_loses_its_side_only),
        cmocka_unit_test(test_orth5_param_castling_off),
        cmocka_unit_test(test_orth3_en_passant_right_after_double_step),
        cmocka_unit_test(test_orth3_no_en_passant_after_single_steps),
        cmocka_unit_test(test_orth3_en_passant_exposing_king_on_rank_illegal),
        cmocka_unit_test(test_orth4_promotion_to_each_piece),
        cmocka_unit_test(test_orth7_checkmate_wins),
        cmocka_unit_test(test_orth7_stalemate_is_a_draw),
        cmocka_unit_test(test_orth6_check_is_reported),
        cmocka_unit_test(test_orth9_threefold_claim_holds),
        cmocka_unit_test(test_orth9_threefold_needs_same_rights),
        cmocka_unit_test(test_orth9_param_threefold_off),
        cmocka_unit_test(test_orth9_fifty_move_claim),
        cmocka_unit_test(test_orth9_fifty_move_count_resets),
        cmocka_unit_test(test_orth9_param_fifty_move_off),
        cmocka_unit_test(test_orth9_fivefold_automatic),
        cmocka_unit_test(test_orth9_param_fivefold_off),
        cmocka_unit_test(test_orth9_seventy_five_move_automatic),
        cmocka_unit_test(test_orth9_seventy_five_move_mate_stands),
        cmocka_unit_test(test_orth9_param_seventy_five_move_off),
        cmocka_unit_test(test_orth9_insufficient_king_v_king),
        cmocka_unit_test(test_orth9_insufficient_minor_piece),
        cmocka_unit_test(test_orth9_insufficient_bishops_by_square_colour),
        cmocka_unit_test(test_orth9_param_insufficient_material_off),
        cmocka_unit_test(test_orth1_parameters_documented),
        cmocka_unit_test(test_orth1_fen_in_and_out),
        cmocka_unit_test(test_orth1_bad_fen_message_passes_through),
        cmocka_unit_test(test_orth1_view_shows_everything),
        cmocka_unit_test(test_orth1_messages_name_the_move),
        cmocka_unit_test(test_orth2_perft_fast_and_generic_agree),
        cmocka_unit_test(test_orth6_apply_refuses_forged_actions),
        cmocka_unit_test(test_orth1_help_examples_are_played),
    };
    return cmocka_run_group_tests_name("orthodox", tests, NULL, NULL);
}
