/*
 * test_gaps.c -- tests written to kill the mutants that survived the
 * sampled mutation testing of the rule code (issue 8, "Test gaps found by
 * mutation testing"; tests/mutation/README.md lists every survivor and the
 * test here that kills it): Masqués repetitions, en passant in the
 * repetition key and the fifty/seventy-five-move counts (ORTH-9 through
 * MASQ-16), Masqués setup errors (MASQ-1), the Échecs ambigus messages,
 * choices and view (AMBI-2, AMBI-4), orthodox notation errors, and the
 * core's API edges (game_new's side and seat counts, game_same, undo of 0,
 * show before the end, messages past the last, perft at depth 0).
 *
 * Invariant: each test drives the public game API as a player would and
 * asserts an exact answer (result and reason, message text, refusal text,
 * repetition count) that the mutant it was written for gets wrong; each
 * was seen failing on its mutant before the mutant was reverted.
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
#include "support/toy_variant.h"

enum { WHITE = 0, BLACK = 1 };

/* ---- Helpers ------------------------------------------------------------- */

static Game *masques(const char *pos, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .position = pos,
                             .params = params});
}

/* Is `machine` a play action of the seat to act? */
static int legal_now(const Game *g, const char *machine)
{
    return tu_is_legal(g, machine);
}

/* Is a draw claim among seat's legal actions? */
static int claim_listed(const Game *g, int seat)
{
    return tu_legal_count(g, seat, ACT_DRAW_CLAIM) > 0;
}

/* The last message of the game as seat reads it ("" if it may not). */
static const char *last_message(const Game *g, int seat)
{
    int n = game_message_count(g);
    assert_true(n > 0);
    const char *m = game_message(g, n - 1, seat);
    return m ? m : "";
}

/* Does any message of the game, as seat reads it, hold want? */
static int any_message(const Game *g, int seat, const char *want)
{
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m && strstr(m, want))
            return 1;
    }
    return 0;
}

/* ---- Masqués: repetitions and move counts (ORTH-9 via MASQ-16) ------------ */

/* The masked a-pawn's double step, both Knights revealed.  The Knights make
 * one round trip first, so that the positions after the double step and
 * after each later round trip differ in nothing but the en passant square. */
#define MQ_NO_TAKER "4k1n1/8/8/8/8/8/P~7/1N2K3 w - - 0 1"
/* The same with a black Pawn on b4 that may take en passant on a3. */
#define MQ_TAKER "4k1n1/8/8/8/1p6/8/P~7/1N2K3 w - - 0 1"
#define MQ_ROUND_W "b1c3 g8f6 c3b1 f6g8"
#define MQ_ROUND_B "g8f6 b1c3 f6g8 c3b1"

/* MASQ-16 with ORTH-9: after a2a4 nobody can take en passant, so the
 * position after it and after two more round trips is the same position
 * three times: black may claim.  (Kills the mutant that puts the en passant
 * square into the repetition key when no piece can take there.) */
static void test_masq16_threefold_ep_square_without_taker(void **state)
{
    (void)state;
    Game *g = masques(MQ_NO_TAKER, NULL);
    tu_play_line(g, MQ_ROUND_W " a2a4");
    char *pos = tu_position(g);
    assert_non_null(strstr(pos, " b - a3 ")); /* the square is written ... */
    free(pos);
    assert_int_equal(game_repetitions(g), 1);
    tu_play_line(g, MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 2); /* ... but does not count */
    assert_false(claim_listed(g, BLACK));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play_line(g, MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 3);
    tu_assert_going_on(g); /* a claim, not automatic */
    assert_true(claim_listed(g, BLACK));
    tu_play(g, BLACK, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by black");
    game_free(g);
}

/* ORTH-9: where the black Pawn on b4 could take en passant, the position
 * after a2a4 is not the one after the round trips (same placement, not the
 * same possibilities): two occurrences, then three only one trip later.
 * (Kills the mutants that drop the en passant term from the key.) */
static void test_masq16_threefold_ep_square_with_taker(void **state)
{
    (void)state;
    Game *g = masques(MQ_TAKER, NULL);
    tu_play_line(g, MQ_ROUND_W " a2a4");
    assert_true(legal_now(g, "b4a3")); /* the capture exists */
    tu_play_line(g, MQ_ROUND_B " " MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 2);
    assert_false(claim_listed(g, BLACK));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play_line(g, MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 3);
    tu_play(g, BLACK, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by black");
    game_free(g);
}

/* ORTH-9 automatic draw: the fifth occurrence ends the game, the fourth
 * does not; fivefold=off lets it go on. */
static void test_masq16_fivefold_automatic(void **state)
{
    (void)state;
    Game *g = masques(MQ_NO_TAKER, NULL);
    tu_play_line(g, MQ_ROUND_W " a2a4 " MQ_ROUND_B " " MQ_ROUND_B " " MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 4);
    tu_assert_going_on(g);
    tu_play_line(g, MQ_ROUND_B);
    tu_assert_over(g, "1/2-1/2", "fivefold repetition");
    game_free(g);

    g = masques(MQ_NO_TAKER, "fivefold=off");
    tu_play_line(g, MQ_ROUND_W " a2a4 " MQ_ROUND_B " " MQ_ROUND_B " " MQ_ROUND_B " "
                 MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 5);
    tu_assert_going_on(g);
    game_free(g);
}

/* ORTH-9 threefold=off: three occurrences, no claim. */
static void test_masq16_threefold_off(void **state)
{
    (void)state;
    Game *g = masques(MQ_NO_TAKER, "threefold=off");
    tu_play_line(g, MQ_ROUND_W " a2a4 " MQ_ROUND_B " " MQ_ROUND_B);
    assert_int_equal(game_repetitions(g), 3);
    assert_false(claim_listed(g, BLACK));
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    game_free(g);
}

/* ORTH-9 through MASQ-16: a revealed Knight back on its first square is
 * the same position as before it moved (only a piece that may still step
 * twice or castle remembers that it has not moved), so two round trips
 * from the start make a threefold repetition, as in orthodox chess. */
static void test_masq16_revealed_knight_round_trip_repeats(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"),
                                .position = "4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1"});
    tu_play_line(g, "b1c3 g8f6 c3b1 f6g8");
    assert_int_equal(game_repetitions(g), 2);
    tu_play_line(g, "b1c3 g8f6 c3b1 f6g8");
    assert_int_equal(game_repetitions(g), 3);
    tu_play(g, 0, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by white");
    game_free(g);
}

/* ORTH-9's fifty-move claim in Masqués: at 100 half-moves, not at 99. */
static void test_masq16_fifty_move_claim(void **state)
{
    (void)state;
    Game *g = masques("4k1n1/8/8/8/8/8/P~7/1N2K3 w - - 98 60", NULL);
    tu_play(g, WHITE, "b1c3");
    assert_false(claim_listed(g, BLACK)); /* 99 */
    tu_assert_refused(g, "claim", "no draw can be claimed now");
    tu_play(g, BLACK, "g8f6");
    assert_true(claim_listed(g, WHITE)); /* 100 */
    tu_play(g, WHITE, "claim");
    tu_assert_over(g, "1/2-1/2", "fifty-move rule claimed by white");
    game_free(g);

    g = masques("4k1n1/8/8/8/8/8/P~7/1N2K3 w - - 99 60", "fifty_move=off");
    tu_play(g, WHITE, "b1c3");
    assert_false(claim_listed(g, BLACK));
    game_free(g);
}

/* MASQ-16: a masked piece's move (it may be a Pawn) and a revealed Pawn's
 * move restart the count; a revealed Knight's does not. */
static void test_masq16_pawnlike_moves_restart_count(void **state)
{
    (void)state;
    Game *g = masques("4k1n1/8/8/8/8/8/P~7/1N2K3 w - - 99 60", NULL);
    tu_play(g, WHITE, "a2a3");
    char *pos = tu_position(g);
    assert_non_null(strstr(pos, " b - - 0 60"));
    free(pos);
    assert_false(claim_listed(g, BLACK));
    game_free(g);

    g = masques("4k1n1/8/8/8/8/8/P7/1N2K3 w - - 99 60", NULL);
    tu_play(g, WHITE, "a2a3");
    pos = tu_position(g);
    assert_non_null(strstr(pos, " b - - 0 60"));
    free(pos);
    game_free(g);

    g = masques("4k1n1/8/8/8/8/8/P7/1N2K3 w - - 99 60", NULL);
    tu_play(g, WHITE, "b1c3");
    pos = tu_position(g);
    assert_non_null(strstr(pos, " b - - 100 60"));
    free(pos);
    game_free(g);
}

/* ORTH-9 automatic: the seventy-five-move rule ends the game at 150. */
static void test_masq16_seventy_five_move_automatic(void **state)
{
    (void)state;
    Game *g = masques("4k1n1/8/8/8/8/8/P~7/1N2K3 w - - 148 60", NULL);
    tu_play(g, WHITE, "b1c3");
    tu_assert_going_on(g);
    tu_play(g, BLACK, "g8f6");
    tu_assert_over(g, "1/2-1/2", "seventy-five-move rule");
    game_free(g);
}

/* MASQ-1: each side places on its own home ranks, the far edges included
 * (e1 for white, e8 for black); a square off the board is named as such,
 * a taken one too.
 * The other side learns nothing of where (hidden information). */
static void test_masq1_place_on_edge_ranks(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 3});
    tu_play(g, WHITE, "place K e1");
    tu_play(g, BLACK, "place K e8");
    assert_string_equal(last_message(g, BLACK), "you place your King on e8");
    assert_false(any_message(g, WHITE, "e8"));
    assert_false(any_message(g, BLACK, "e1"));
    tu_assert_refused_by(g, BLACK, "place Q e9", "place Q e9: 'e9' is not a square");
    tu_assert_refused_by(g, WHITE, "place Q e0", "place Q e0: 'e0' is not a square");
    /* The refusals of a square that is on the board name the true reason. */
    tu_assert_refused_by(g, BLACK, "place Q e8", "place Q e8: e8 is taken already");
    tu_assert_refused_by(g, WHITE, "place Q e1", "place Q e1: e1 is taken already");
    tu_assert_refused_by(g, BLACK, "place Q e1",
                         "place Q e1: your pieces go on your home ranks (7 and 8)");
    game_free(g);
}

/* ---- Échecs ambigus: the one-candidate message (AMBI-2) -------------------- */

/* AMBI-2: when only one piece can go to the named square it is played at
 * once, and both seats are told which. */
static void test_ambi2_one_candidate_message(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("ambigus")});
    tu_play(g, WHITE, "e4");
    assert_string_equal(last_message(g, WHITE), "white names e4: only Pe2e4 can go there");
    assert_string_equal(last_message(g, BLACK), "white names e4: only Pe2e4 can go there");
    assert_int_equal(game_to_act(g), BLACK); /* no choice was asked of black */
    /* Two black pieces can go to f6 (f7f6, Ng8f6): no such message, and
     * white chooses. */
    int before = game_message_count(g);
    tu_play(g, BLACK, "f6");
    assert_int_equal(game_to_act(g), WHITE);
    for (int i = before; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, WHITE);
        assert_true(!m || !strstr(m, "can go there"));
    }
    assert_false(any_message(g, BLACK, "black names f6: only"));
    game_free(g);
}

/* AMBI-4: naming the enemy King's square ends the game with a message to
 * both seats that says so. */
static void test_ambi4_king_square_message(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("ambigus"),
                                .position = "4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1"});
    tu_play(g, WHITE, "e8");
    assert_true(any_message(g, WHITE, "white names e8, the square of the black King, and "
                                      "takes it (AMBI-4)"));
    assert_true(any_message(g, BLACK, "white names e8, the square of the black King, and "
                                      "takes it (AMBI-4)"));
    game_free(g);
}

/* AMBI-2: while a piece is to be chosen, a text that names no square is
 * "not a choice" (not a choice of the piece on a1), and changes nothing. */
static void test_ambi2_choice_without_square_refused(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("ambigus")});
    tu_play_line(g, "e4 f6");
    const char *want = "not a choice; choose the black piece that goes to f6, one of: "
                       "f7 (Pf7), g8 (Ng8)";
    char full[160];
    snprintf(full, sizeof full, "zz9: %s", want);
    tu_assert_refused_exactly(g, "zz9", full);
    snprintf(full, sizeof full, "choose: %s", want);
    tu_assert_refused_exactly(g, "choose", full);
    game_free(g);
}

/* The ambigus view shows every piece on the board and nothing else (the
 * game has no hidden information). */
static void test_ambi_view_pieces(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("ambigus"),
                                .position = "4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1"});
    for (int seat = WHITE; seat <= BLACK; seat++) {
        View v;
        game_view(g, seat, &v);
        assert_int_equal(v.npieces, 4);
        int found = 0;
        for (int i = 0; i < v.npieces; i++) {
            const ViewPiece *p = &v.pieces[i];
            if (p->at.x == 0 && p->at.y == 3) /* a4 */
                found += p->side == WHITE && p->figure == FIG_QUEEN;
            if (p->at.x == 4 && p->at.y == 7) /* e8 */
                found += p->side == BLACK && p->figure == FIG_KING;
        }
        assert_int_equal(found, 2);
    }
    game_free(g);
}

/* ORTH-9 in Échecs ambigus: the same gap as in Masqués -- an en passant
 * square nobody can take on does not make the position after a2a4 differ
 * from the one after the Knights' round trips. */
static void test_ambi_threefold_ep_square_without_taker(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("ambigus"),
                                .position = "4k1n1/8/8/8/8/8/P7/1N2K3 w - - 0 1"});
    tu_play_line(g, "a4 f6 c3 g8 b1 f6 c3 g8 b1");
    assert_int_equal(game_repetitions(g), 3);
    tu_play(g, BLACK, "claim");
    tu_assert_over(g, "1/2-1/2", "threefold repetition claimed by black");
    game_free(g);
}

/* ---- Orthodox notation errors ---------------------------------------------- */

/* A move text with a character too many is neither UCI nor SAN: the answer
 * says so and shows the forms, and changes nothing. */
static void test_notation_overlong_text_refused(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_assert_refused_exactly(g, "Nb1c3d",
                              "'Nb1c3d' is not a move: try e4, Nf3, O-O or e2e4");
    tu_assert_refused_exactly(g, "e2e4x",
                              "'e2e4x' is not a move: try e4, Nf3, O-O or e2e4");
    game_free(g);

    /* ORTH-4: two promotion letters; the one-letter forms are played. */
    g = tu_orthodox("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    tu_assert_refused_exactly(g, "e7e8bq",
                              "'e7e8bq' is not a move: try e4, Nf3, O-O or e2e4");
    tu_assert_refused_exactly(g, "e8=BQ",
                              "'e8=BQ' is not a move: try e4, Nf3, O-O or e2e4");
    tu_play(g, WHITE, "e7e8b");
    tu_assert_position(g, "4B3/8/8/8/8/8/k7/4K3 b - - 0 1");
    game_free(g);
}

/* ---- The core's API edges (core/game.c) ------------------------------------- */

/* game_same: a clone is the same game; one action makes it another. */
static void test_game_same_clone_and_move(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5");
    Game *c = game_clone(g);
    assert_true(game_same(g, c));
    assert_true(game_same(c, g));
    tu_play(c, WHITE, "Nf3");
    assert_false(game_same(g, c));
    game_free(c);
    game_free(g);
}

/* Undo of nothing is allowed and changes nothing; a negative count is
 * refused with a message. */
static void test_game_undo_zero_and_negative(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5");
    Game *c = game_clone(g);
    Error e = {""};
    assert_int_equal(game_undo_by(g, WHITE, 0, &e), 0);
    assert_true(game_same(g, c));
    assert_int_not_equal(game_undo_by(g, WHITE, -1, &e), 0);
    assert_string_equal(e.msg, "cannot undo -1 actions: only 2 played");
    assert_int_not_equal(game_undo_by(g, WHITE, 3, &e), 0);
    assert_string_equal(e.msg, "cannot undo 3 actions: only 2 played");
    assert_true(game_same(g, c));
    game_free(c);
    game_free(g);
}

/* MASQ-16: masked pieces are shown only after the end, whoever is to act
 * (white, seat 0, included). */
static void test_game_show_refused_while_playing(void **state)
{
    (void)state;
    Game *g = masques(MQ_NO_TAKER, NULL);
    Error e = {""};
    for (int turn = 0; turn < 2; turn++) {
        for (int seat = WHITE; seat <= BLACK; seat++) {
            assert_int_not_equal(game_show(g, seat, &e), 0);
            assert_string_equal(e.msg,
                                "the game is not over: pieces are shown only after the end");
        }
        assert_int_equal(game_shown(g), 0);
        tu_play(g, game_to_act(g), turn ? "g8f6" : "b1c3");
    }
    game_free(g);
}

/* game_message past the last message is NULL, for every seat. */
static void test_game_message_past_end(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play(g, WHITE, "e4");
    int n = game_message_count(g);
    assert_true(n > 0);
    assert_non_null(game_message(g, n - 1, WHITE));
    assert_null(game_message(g, n, WHITE));
    assert_null(game_message(g, n, BLACK));
    assert_null(game_message(g, -1, WHITE));
    game_free(g);
}

/* Perft at depth 0 counts the one position, both paths (the sanitized
 * build also checks the bookkeeping of depth 0). */
static void test_game_perft_depth_zero(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    assert_int_equal(game_perft(g, 0), 1);
    assert_int_equal(game_perft_generic(g, 0), 1);
    assert_int_equal(game_perft_generic(g, 1), 20);
    game_free(g);
}

/* ---- game_new: side and seat counts ----------------------------------------- */

static void assert_new_refused(const GameConfig *cfg, const char *want)
{
    Error e = {""};
    Game *g = game_new(cfg, &e);
    if (g) {
        game_free(g);
        fail_msg("the game was made; expected \"%s\"", want);
    }
    assert_string_equal(e.msg, want);
}

/* The API checks what the command line checks first: a variant's side
 * count, a range of them, and the number of seats. */
static void test_game_new_side_and_seat_counts(void **state)
{
    (void)state;
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = tu_variant("orthodox");
    c.nsides = 3;
    assert_new_refused(&c, "orthodox is played by 2 sides, not 3");
    c.nsides = 1;
    assert_new_refused(&c, "orthodox is played by 2 sides, not 1");

    c.variant = &toy_variant;
    c.nsides = 4;
    assert_new_refused(&c, "toy is played by 2 to 3 sides, not 4");
    c.nsides = 1;
    assert_new_refused(&c, "toy is played by 2 to 3 sides, not 1");

    c.variant = tu_variant("orthodox");
    c.nsides = 2;
    c.nseats = MAX_SEATS + 1;
    char want[80];
    snprintf(want, sizeof want, "a game has 1 to %d seats, not %d", MAX_SEATS, MAX_SEATS + 1);
    assert_new_refused(&c, want);
    c.nseats = 1;
    assert_new_refused(&c, "orthodox needs a seat for each of its 2 sides, not 1 seats");

    /* The limits themselves are accepted. */
    c.nseats = 2;
    Error e = {""};
    Game *g = game_new(&c, &e);
    assert_non_null(g);
    assert_int_equal(game_nsides(g), 2);
    game_free(g);
    memset(&c, 0, sizeof c);
    c.variant = &toy_variant;
    c.nsides = 2;
    g = game_new(&c, &e);
    assert_non_null(g);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq16_threefold_ep_square_without_taker),
        cmocka_unit_test(test_masq16_threefold_ep_square_with_taker),
        cmocka_unit_test(test_masq16_fivefold_automatic),
        cmocka_unit_test(test_masq16_revealed_knight_round_trip_repeats),
        cmocka_unit_test(test_masq16_threefold_off),
        cmocka_unit_test(test_masq16_fifty_move_claim),
        cmocka_unit_test(test_masq16_pawnlike_moves_restart_count),
        cmocka_unit_test(test_masq16_seventy_five_move_automatic),
        cmocka_unit_test(test_masq1_place_on_edge_ranks),
        cmocka_unit_test(test_ambi2_one_candidate_message),
        cmocka_unit_test(test_ambi4_king_square_message),
        cmocka_unit_test(test_ambi2_choice_without_square_refused),
        cmocka_unit_test(test_ambi_view_pieces),
        cmocka_unit_test(test_ambi_threefold_ep_square_without_taker),
        cmocka_unit_test(test_notation_overlong_text_refused),
        cmocka_unit_test(test_game_new_side_and_seat_counts),
        cmocka_unit_test(test_game_same_clone_and_move),
        cmocka_unit_test(test_game_undo_zero_and_negative),
        cmocka_unit_test(test_game_show_refused_while_playing),
        cmocka_unit_test(test_game_message_past_end),
        cmocka_unit_test(test_game_perft_depth_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
