/*
 * test_echiquete.c -- L'Échiqueté (rules ECHQ-1 .. ECHQ-13, contract in
 * docs/ECHIQUETE.md) through the public game API on concrete positions:
 * merging captures and figure choices, merged pawns, no undo, kept double
 * steps, en passant, check and mate by merged pieces, castling, the
 * takeover and the turn cycles, phase-2 ends, passes, the two-seat phase 2,
 * position strings and their errors, perft (fast = generic) and seeded
 * random games whose texts and positions read back.
 *
 * Invariant: the variant is used through its ops table directly (it is not
 * registered yet); every game is driven with game_play / game_apply.
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
#include "../core/record/record.h"
#include "../variants/echiquete/echiquete.h"
#include "support/testutil.h"

static Game *eg(const char *pos, int nseats, const char *params)
{
    return tu_game(&(TuGame){.variant = &echiquete_variant, .nsides = 3,
                             .nseats = nseats ? nseats : 2, .position = pos,
                             .params = params});
}

static int legal_has(const Game *g, int seat, const char *machine)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    int found = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf b = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_MACHINE, &b);
        found |= !strcmp(sb_str(&b), machine);
        sb_free(&b);
    }
    al_free(&l);
    return found;
}

static int count_prefix(const Game *g, const char *prefix)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    int n = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf b = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_MACHINE, &b);
        n += !strncmp(sb_str(&b), prefix, strlen(prefix));
        sb_free(&b);
    }
    al_free(&l);
    return n;
}

/* ECHQ-1: a merging capture, each figure choice, SAN and UCI. */
static void test_echq1_merging_capture_choices(void **state)
{
    (void)state;
    const char *pos = "4k3/8/5n2/6B1/8/8/8/4K3 w - - 0 1";
    Game *g = eg(pos, 2, NULL);
    assert_int_equal(count_prefix(g, "g5f6"), 2);
    assert_true(tu_is_legal(g, "g5f6n") && tu_is_legal(g, "g5f6b"));
    tu_play(g, 0, "Bxf6=N*");
    tu_assert_position(g, "4k3/8/5*N2/8/8/8/8/4K3 b - - 0 1 noundo=f6g5");
    game_free(g);
    g = eg(pos, 2, NULL);
    tu_play(g, 0, "g5f6b");
    tu_assert_position(g, "4k3/8/5*B2/8/8/8/8/4K3 b - - 0 1 noundo=f6g5");
    game_free(g);
    g = eg(pos, 2, NULL);
    tu_play(g, 0, "Bg5xNf6=NÉ"); /* the seed's long form */
    tu_assert_position(g, "4k3/8/5*N2/8/8/8/8/4K3 b - - 0 1 noundo=f6g5");
    game_free(g);
    g = eg(pos, 2, NULL);
    tu_assert_refused(g, "g5f6", "figure");
    game_free(g);
}

/* The record form of the one move mv played from pos. */
static void assert_written(const char *pos, const char *mv, const char *want)
{
    Game *g = eg(pos, 2, NULL);
    tu_play(g, game_to_act(g), mv);
    const char *got = game_history(g, game_history_len(g) - 1)->text;
    if (strcmp(got, want))
        fail_msg("%s from %s is written %s, want %s", mv, pos, got, want);
    game_free(g);
}

/* ECHQ-1 (issue 19 point 3): "Notation follows the seed: Bg5xNf6=NÉ" --
 * a merging capture is written with its departure square, the captured
 * figure, the figure kept and the merge mark É, in the history and in
 * records; the short form records held before (exd5=P*) still loads. */
static void test_echq1_written_as_the_seed(void **state)
{
    (void)state;
    assert_written("4k3/8/5n2/6B1/8/8/8/4K3 w - - 0 1", "g5f6n", "Bg5xNf6=N\xC3\x89+");
    assert_written("4k3/8/5n2/6B1/8/8/8/4K3 w - - 0 1", "g5f6b", "Bg5xNf6=B\xC3\x89");
    assert_written("3rk3/4P3/8/8/8/8/8/K7 w - - 0 1", "e7d8r", "e7xRd8=R\xC3\x89+");
    assert_written("4k3/8/5p2/8/3*B4/8/8/K7 w - - 0 1", "d4f6p", "*Bd4xf6=P\xC3\x89");
    assert_written("4k3/8/8/3p*P3/8/8/8/K7 w - d6 0 1", "e5d6p", "*e5xd6=P\xC3\x89");
    assert_written("7k/6nP/5PP1/8/8/8/8/K7 w - - 0 1", "f6g7p", "f6xNg7=P\xC3\x89#");
    /* not merging: a King's capture (ECHQ-5), a phase-2 capture (ECHQ-10) */
    assert_written("4k3/7p/8/8/8/8/3n4/4K3 w - - 0 1", "e1d2", "Kxd2");
    assert_written("4k3/8/5p2/8/4*N3/8/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=1,1,0",
                   "e4f6p", "*Nxf6=P");
    /* the history and a saved record say it so, and read it back */
    Game *g = eg(NULL, 2, NULL);
    tu_play_line(g, "e4 d5 exd5 Nf6");
    assert_string_equal(game_history(g, 2)->text, "e4xd5=P\xC3\x89");
    StrBuf rec = STRBUF_INIT;
    assert_int_equal(record_save(g, &rec), 0);
    assert_non_null(strstr(sb_str(&rec), "3. white: e4xd5=P\xC3\x89\n"));
    Error e;
    Game *back = record_load(sb_str(&rec), "ECHQ-1", &e);
    if (!back)
        fail_msg("%s", e.msg);
    assert_true(game_same(g, back));
    game_free(back);
    /* the same record as it was written before (exd5=P*) still loads */
    const char *at = strstr(sb_str(&rec), "e4xd5=P\xC3\x89");
    StrBuf old = STRBUF_INIT;
    sb_printf(&old, "%.*sexd5=P*%s", (int)(at - sb_str(&rec)), sb_str(&rec),
              at + strlen("e4xd5=P\xC3\x89"));
    back = record_load(sb_str(&old), "old", &e);
    if (!back)
        fail_msg("%s", e.msg);
    assert_true(game_same(g, back));
    assert_string_equal(game_history(back, 2)->text, "e4xd5=P\xC3\x89");
    game_free(back);
    sb_free(&old);
    sb_free(&rec);
    game_free(g);
}

/* Issue 19 point 3: a plain SAN is read when it fits one legal move: the
 * '*' of a merged mover may be left out (after a takeover `dxc3` is
 * merged's pawn, ECHQ-11), so may the merge mark (Bxf6=N); when it fits
 * several, the refusal names them and the game is left as it was. */
static void test_plain_san_when_unambiguous(void **state)
{
    (void)state;
    Game *g = eg(NULL, 2, NULL);
    tu_play_line(g, "e4 d5 exd5");
    tu_play(g, 0, "takeover");
    tu_play(g, 0, "d4"); /* merged's pawn: white's d-pawn is not merged's */
    tu_play_line(g, "Nf6 c3");
    tu_play(g, 0, "dxc3");
    assert_string_equal(game_history(g, game_history_len(g) - 1)->text, "*dxc3=P");
    game_free(g);
    /* two merged knights reach d5: both named */
    const char *two = "4k3/8/8/8/1*N3*N2/8/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2";
    g = eg(two, 3, NULL);
    tu_assert_refused(g, "Nd5", "ambiguous: *Nbd5 or *Nfd5");
    tu_play(g, 2, "Nfd5");
    tu_assert_position(g, "4k3/8/8/3*N4/1*N6/8/8/4K3 w - - 1 1 phase=2 cycle=ewb "
                          "seats=0,1,2");
    game_free(g);
    /* a capture with two figures: both named, with their UCI */
    g = eg("4k3/8/8/4n3/3*P4/8/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2", 3, NULL);
    tu_assert_refused(g, "dxe5", "*dxe5=P or *dxe5=N (UCI d4e5p or d4e5n)");
    tu_play(g, 2, "dxe5=N");
    tu_assert_position(g, "4k3/8/8/4*N3/8/8/8/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    game_free(g);
    /* phase 1: a merged piece's move without its '*', a merging capture
     * without its mark; an own piece's SAN keeps its meaning */
    g = eg("4k3/8/5n2/6B1/3*N4/8/8/4K3 w - - 0 1", 2, NULL);
    tu_play(g, 0, "Nb5");
    assert_string_equal(game_history(g, 0)->text, "*Nb5");
    game_free(g);
    g = eg("4k3/8/5n2/6B1/3*N4/8/8/4K3 w - - 0 1", 2, NULL);
    tu_play(g, 0, "Bxf6=N");
    assert_string_equal(game_history(g, 0)->text, "Bg5xNf6=N\xC3\x89+");
    game_free(g);
    g = eg("4k3/8/5n2/6B1/3*N4/8/8/4K3 w - - 0 1", 2, NULL);
    tu_play(g, 0, "Bg5xNf6=NE"); /* the seed's text writes É as E */
    assert_string_equal(game_history(g, 0)->text, "Bg5xNf6=N\xC3\x89+");
    game_free(g);
    g = eg("4k3/8/5n2/3N2B1/3*N4/8/8/4K3 w - - 0 1", 2, NULL);
    tu_play(g, 0, "Nc3"); /* white's own knight, as written; *Nc3 the merged one */
    tu_assert_position(g, "4k3/8/5n2/6B1/3*N4/2N5/8/4K3 b - - 1 1");
    game_free(g);
}

/* The help lines (with the seed's form and its É) fit 80 columns. */
static void test_help_fits(void **state)
{
    (void)state;
    tu_assert_help_fits(echiquete_variant.help);
}

/* ECHQ-1: a pawn capturing onto its last rank: Q R B N, never a pawn. */
static void test_echq1_pawn_capture_last_rank(void **state)
{
    (void)state;
    Game *g = eg("3rk3/4P3/8/8/8/8/8/K7 w - - 0 1", 2, NULL);
    assert_int_equal(count_prefix(g, "e7d8"), 4);
    assert_false(tu_is_legal(g, "e7d8p"));
    tu_play(g, 0, "exd8=R*");
    tu_assert_position(g, "3*Rk3/8/8/8/8/8/8/K7 b - - 0 1 noundo=d8e7");
    game_free(g);
}

/* ECHQ-3 and ECHQ-8: a merged bishop re-merges; keeping the bishop would
 * attack its own King along a1-f6, so only the pawn figure is legal. */
static void test_echq3_remerge_and_own_check(void **state)
{
    (void)state;
    Game *g = eg("4k3/8/5p2/8/3*B4/8/8/K7 w - - 0 1", 2, NULL);
    assert_int_equal(count_prefix(g, "d4f6"), 1);
    assert_true(tu_is_legal(g, "d4f6p"));
    tu_play(g, 0, "*Bxf6=P*");
    tu_assert_position(g, "4k3/8/5*P2/8/8/8/8/K7 b - - 0 1 noundo=f6d4");
    game_free(g);
}

/* ECHQ-2, ECHQ-4: both sides move merged pieces, nobody captures them. */
static void test_echq2_4_ownership_no_capture(void **state)
{
    (void)state;
    Game *g = eg("4k3/8/8/8/3*N4/8/3R4/K7 w - - 0 1", 2, NULL);
    assert_false(tu_is_legal(g, "d2d4"));
    assert_true(tu_is_legal(g, "d4e6"));
    tu_play(g, 0, "Rc2");
    assert_true(tu_is_legal(g, "d4c2n") && tu_is_legal(g, "d4c2r"));
    tu_play(g, 1, "*Nf5");
    assert_true(tu_is_legal(g, "f5e3"));
    game_free(g);
}

/* ECHQ-5: a King's capture removes the captured piece. */
static void test_echq5_king_never_merges(void **state)
{
    (void)state;
    Game *g = eg("4k3/7p/8/8/8/8/3n4/4K3 w - - 0 1", 2, NULL);
    assert_true(tu_is_legal(g, "e1d2"));
    tu_play(g, 0, "Kxd2");
    tu_assert_position(g, "4k3/7p/8/8/8/8/3K4/8 b - - 0 1");
    game_free(g);
}

/* ECHQ-6: no undo on the very next move, allowed one move later; off. */
static void test_echq6_no_undo_and_expiry(void **state)
{
    (void)state;
    const char *pos = "4k3/7p/5b2/6B1/8/8/8/4K3 w - - 0 1";
    Game *g = eg(pos, 2, NULL);
    tu_play(g, 0, "g5f6b");
    assert_false(tu_is_legal(g, "f6g5"));
    tu_assert_refused(g, "f6g5", "ECHQ-6");
    tu_assert_refused(g, "*Bg5", "ECHQ-6"); /* as SAN too */
    tu_assert_refused(g, "Bg5", "ECHQ-6");
    tu_play(g, 1, "Kd7");
    assert_true(tu_is_legal(g, "f6g5"));
    game_free(g);
    g = eg(pos, 2, "noundo=off");
    tu_play(g, 0, "g5f6b");
    assert_true(tu_is_legal(g, "f6g5"));
    game_free(g);
}

/* ECHQ-7: a pawn captured on its start rank keeps the double step. */
static void test_echq7_kept_double_step(void **state)
{
    (void)state;
    const char *pos = "4k3/8/8/8/8/2b5/1P6/7K b - - 0 1";
    Game *g = eg(pos, 2, NULL);
    tu_play(g, 1, "c3b2p");
    tu_assert_position(g, "4k3/8/8/8/8/8/1*P+6/7K w - - 0 2 noundo=b2c3");
    assert_true(tu_is_legal(g, "b2b4"));
    tu_play(g, 0, "b2b4");
    tu_assert_position(g, "4k3/8/8/8/1*P6/8/8/7K b - b3 0 2 noundo=b4b2");
    game_free(g);
    /* Lost once moved; arriving on rank 2 again does not give it back. */
    g = eg(pos, 2, "noundo=off");
    tu_play_line(g, "c3b2p *b3 *b2");
    tu_assert_position(g, "4k3/8/8/8/8/8/1*P6/7K w - - 0 3");
    assert_false(tu_is_legal(g, "b2b4"));
    game_free(g);
}

/* ECHQ-7: en passant by a merged pawn on a one-coloured pawn. */
static void test_echq7_en_passant_by_merged_pawn(void **state)
{
    (void)state;
    Game *g = eg("4k3/3p4/8/4*P3/8/8/8/K7 b - - 0 1", 2, NULL);
    tu_play(g, 1, "d5");
    assert_true(tu_is_legal(g, "e5d6p"));
    tu_play(g, 0, "*exd6=P*");
    tu_assert_position(g, "4k3/8/3*P4/8/8/8/8/K7 b - - 0 2 noundo=d6e5");
    game_free(g);
}

/* ECHQ-8: mate given by a merged pawn: it cannot be captured, and the
 * checked side may move it (ECHQ-2) but here it is blocked. */
static void test_echq8_mate_by_merged_piece(void **state)
{
    (void)state;
    Game *g = eg("7k/6nP/5PP1/8/8/8/8/K7 w - - 0 1", 2, NULL);
    tu_play(g, 0, "fxg7=P*#");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u);
    assert_string_equal(s.reason, "checkmate");
    game_free(g);
    /* Next to one's own King, a merged queen would check it: illegal. */
    g = eg("7k/8/8/8/8/8/8/K5*Q1 w - - 0 1", 2, NULL);
    assert_false(tu_is_legal(g, "g1g7"));
    game_free(g);
}

/* ECHQ-8: castling refused through a square a merged piece attacks. */
static void test_echq8_castling_through_merged_attack(void **state)
{
    (void)state;
    Game *g = eg("4k3/8/8/8/2*B5/8/8/4K2R w K - 0 1", 2, NULL);
    assert_false(tu_is_legal(g, "e1g1"));
    game_free(g);
    g = eg("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 2, NULL);
    assert_true(tu_is_legal(g, "e1g1"));
    game_free(g);
}

/* ECHQ-9: the takeover at the allowed moments, refused at the others. */
static void test_echq9_takeover_moments(void **state)
{
    (void)state;
    Game *g = eg(NULL, 3, NULL);
    assert_false(legal_has(g, 2, "takeover"));
    tu_play_line(g, "e4 d5");
    assert_false(legal_has(g, 2, "takeover"));
    tu_play(g, 0, "exd5=P*");
    assert_true(legal_has(g, 2, "takeover"));
    assert_true(legal_has(g, 1, "takeover")); /* to act: ECHQ-12, instead of a move */
    assert_true(legal_has(g, 0, "takeover")); /* ECHQ-12 */
    game_free(g);
    g = eg(NULL, 3, "takeover_from=3");
    tu_play_line(g, "e4 d5 exd5=P*");
    tu_assert_refused_by(g, 2, "takeover", NULL);
    assert_false(legal_has(g, 2, "takeover"));
    game_free(g);
    g = eg(NULL, 3, "phase2=off");
    tu_play_line(g, "e4 d5 exd5=P*");
    assert_false(legal_has(g, 2, "takeover"));
    game_free(g);
}

/* ECHQ-9: the cycle after a White move (É, B, W) and a Black move. */
static void test_echq9_turn_cycles(void **state)
{
    (void)state;
    Game *g = eg(NULL, 3, NULL);
    tu_play_line(g, "e4 d5 exd5=P*");
    tu_play(g, 2, "takeover");
    assert_int_equal(game_side_to_move(g), 2);
    assert_int_equal(game_to_act(g), 2);
    tu_play(g, 2, "*d4");
    assert_int_equal(game_side_to_move(g), 1);
    tu_play(g, 1, "Nf6");
    assert_int_equal(game_side_to_move(g), 0);
    tu_play(g, 0, "Nf3");
    assert_int_equal(game_side_to_move(g), 2);
    char *p = tu_position(g);
    assert_non_null(strstr(p, "phase=2 cycle=ebw seats=0,1,2"));
    free(p);
    game_free(g);
    g = eg(NULL, 3, NULL);
    tu_play_line(g, "e4 d5 Nc3 dxe4=P*");
    tu_play(g, 2, "takeover");
    tu_play(g, 2, "*e3"); /* ECHQ-11: down the board */
    assert_int_equal(game_side_to_move(g), 0);
    game_free(g);
}

/* ECHQ-10: in phase 2 a capture removes the captured piece; a merged
 * capturer may keep its figure or take the captured one's (two actions),
 * a one-coloured capturer has no choice, and capturing É's last piece puts
 * É out (ECHQ-13). */
static void test_echq10_phase2_captures(void **state)
{
    (void)state;
    const char *pos = "4k3/8/5p2/8/4*N3/8/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2";
    Game *g = eg(pos, 3, NULL);
    assert_true(legal_has(g, 2, "e4f6n"));
    assert_true(legal_has(g, 2, "e4f6p"));
    assert_int_equal(count_prefix(g, "e4f6"), 2);
    tu_play(g, 2, "e4f6p");
    tu_assert_position(g, "4k3/8/5*P2/8/8/8/8/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    game_free(g);
    g = eg("4k3/8/8/3p4/4*N3/5P2/8/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2", 3, NULL);
    assert_true(legal_has(g, 0, "f3e4"));
    assert_int_equal(count_prefix(g, "f3e4"), 1);
    tu_play(g, 0, "fxe4");
    tu_assert_position(g, "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1 phase=2 cycle=ewb seats=0,1,2 "
                          "out=e");
    game_free(g);
}

/* ECHQ-11: É's pawns move and capture both ways, and promote on rank 1 as
 * on rank 8 (four figures, never a pawn). */
static void test_echq11_merged_pawns_both_ways(void **state)
{
    (void)state;
    Game *g = eg("4k3/8/8/4P3/3*P4/2p5/1*P6/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2",
                 3, NULL);
    static const char *const BOTH[] = {"d4d5", "d4d3", "d4e5p", "d4c3p", "b2b3",
                                       "b2b1q", "b2b1r", "b2b1b", "b2b1n"};
    for (size_t i = 0; i < ARRAY_LEN(BOTH); i++)
        if (!legal_has(g, 2, BOTH[i]))
            fail_msg("ECHQ-11: %s is missing", BOTH[i]);
    assert_false(legal_has(g, 2, "b2b1p"));
    assert_int_equal(count_prefix(g, "b2b1"), 4);
    tu_play(g, 2, "b2b1q");
    tu_assert_position(g, "4k3/8/8/4P3/3*P4/2p5/8/1*Q2K3 w - - 0 1 phase=2 cycle=ewb "
                          "seats=0,1,2");
    game_free(g);
}

/* ECHQ-13: É wins at once when a merged piece takes part in a mate. */
static void test_echq13_merged_mate_wins(void **state)
{
    (void)state;
    const char *pos = "7k/8/5P2/8/8/8/8/K5*Q1 e - - 0 1 phase=2 cycle=ebw seats=0,1,2";
    Game *g = eg(pos, 3, NULL);
    tu_play(g, 2, "g1g7");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 4u);
    game_free(g);
    /* With merged_mate=out black only goes out. */
    g = eg(pos, 3, "merged_mate=out");
    tu_play(g, 2, "g1g7");
    char *p = tu_position(g);
    assert_non_null(strstr(p, "out=b"));
    free(p);
    game_free(g);
}

/* ECHQ-13: a side mated by colours alone goes out, its pieces inert. */
static void test_echq13_side_out_inert(void **state)
{
    (void)state;
    Game *g = eg("*N6k/8/5P2/8/8/8/8/K5Q1 w - - 0 1 phase=2 cycle=ewb seats=0,1,2", 3,
                 NULL);
    tu_play(g, 0, "Qg7");
    char *p = tu_position(g);
    assert_non_null(strstr(p, " e "));
    assert_non_null(strstr(p, "out=b"));
    free(p);
    View v;
    assert_int_equal(game_view(g, -1, &v), 0);
    int inert = 0, merged = 0;
    for (int i = 0; i < v.npieces; i++) {
        inert += (v.pieces[i].flags & VP_INERT) && v.pieces[i].side == 1;
        merged += (v.pieces[i].flags & VP_MERGED) && v.pieces[i].side == 2;
    }
    assert_int_equal(inert, 1);
    assert_int_equal(merged, 1);
    /* Inert pieces never move and give no check: É, then white again. */
    tu_play(g, 2, "*Nb6");
    assert_int_equal(game_side_to_move(g), 0);
    game_free(g);
}

/* ECHQ-13: no legal move and no check passes; a full round draws. */
static void test_echq13_passes(void **state)
{
    (void)state;
    Game *g = eg("8/8/8/3k4/3*P4/3K4/8/8 e - - 0 1 phase=2 cycle=ewb seats=0,1,2 passes=2",
                 3, NULL);
    assert_int_equal(tu_legal_count(g, 2, ACT_PASS), 1);
    assert_int_equal(tu_legal_count(g, 2, ACT_MOVE), 0);
    tu_play(g, 2, "pass");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_string_equal(s.reason, "a full round of passes");
    game_free(g);
}

/* ECHQ-12: two seats: the seat that just moved takes the merged side, the
 * other commands both colours; any mate wins for É; no piece loses. */
static void test_echq12_two_seats(void **state)
{
    (void)state;
    Game *g = eg(NULL, 2, NULL);
    tu_play_line(g, "e4 d5 exd5=P*");
    tu_play(g, 0, "takeover");
    char *p = tu_position(g);
    assert_non_null(strstr(p, "cycle=ebw seats=1,1,0"));
    free(p);
    assert_int_equal(game_to_act(g), 0);
    tu_play(g, 0, "*d4");
    assert_int_equal(game_side_to_move(g), 1);
    assert_int_equal(game_to_act(g), 1);
    tu_play(g, 1, "Nf6");
    assert_int_equal(game_side_to_move(g), 0);
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    const char *mate = "*N6k/8/5P2/8/8/8/8/K5Q1 w - - 0 1 phase=2 cycle=ewb seats=1,1,0";
    g = eg(mate, 2, NULL);
    tu_play(g, 1, "Qg7");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 4u);
    game_free(g);
    g = eg(mate, 2, "duo_mate=merged");
    tu_play(g, 1, "Qg7");
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 0u);
    game_free(g);
    g = eg("7k/8/8/8/8/8/8/K*N4Q1 w - - 0 1 phase=2 cycle=ewb seats=1,1,0", 2, NULL);
    tu_play(g, 1, "Kxb1");
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 3u);
    game_free(g);
}

/* ECHQ-12 (issue 19 point 3): "the White or the Black seat may instead
 * choose to take the merged side, at the same moments as a third seat":
 * the seat to act may too, as its action for that moment.  After White's
 * exd5, Black's seat takes over: É (Black's seat) moves next, then Black
 * and White, both played by White's seat (the cycle follows White's move,
 * ECHQ-9).  The takeover is in the seat's legal list and perft tree (fast
 * = generic), recorded, read back from a record, and undone. */
static void test_echq12_seat_to_act_takes_over(void **state)
{
    (void)state;
    Game *g = eg(NULL, 2, NULL);
    tu_play_line(g, "e4 d5 exd5");
    assert_int_equal(game_to_act(g), 1);
    assert_int_equal(tu_legal_count(g, 1, ACT_TAKEOVER), 1);
    char *before = tu_position(g);
    uint64_t p2 = game_perft(g, 2);
    assert_int_equal(p2, game_perft_generic(g, 2));
    tu_play(g, 1, "takeover");
    char *p = tu_position(g);
    assert_non_null(strstr(p, " e ")); /* merged to move */
    assert_non_null(strstr(p, "phase=2 cycle=ebw seats=0,0,1"));
    free(p);
    assert_int_equal(game_to_act(g), 1);
    assert_string_equal(game_history(g, 3)->text, "takeover");
    assert_int_equal(game_history(g, 3)->action.seat, 1);
    tu_play(g, 1, "d5d4");
    assert_int_equal(game_side_to_move(g), 1);
    assert_int_equal(game_to_act(g), 0); /* black, played by White's seat */
    tu_play(g, 0, "Nf6");
    assert_int_equal(game_side_to_move(g), 0);
    assert_int_equal(game_to_act(g), 0);
    /* the record reads back to the same game */
    StrBuf rec = STRBUF_INIT;
    assert_int_equal(record_save(g, &rec), 0);
    Error e;
    Game *back = record_load(sb_str(&rec), "ECHQ-12", &e);
    if (!back)
        fail_msg("%s", e.msg);
    assert_true(game_same(g, back));
    game_free(back);
    sb_free(&rec);
    /* undone: phase 1 again, Black to move, the takeover open again */
    assert_int_equal(game_undo(g, 3, &e), 0);
    tu_assert_position(g, before);
    assert_int_equal(tu_legal_count(g, 1, ACT_TAKEOVER), 1);
    free(before);
    game_free(g);
    /* after a Black move, White's seat to act: É, White, Black */
    g = eg(NULL, 3, NULL);
    tu_play_line(g, "e4 d5 Nc3 dxe4");
    tu_play(g, 0, "takeover");
    p = tu_position(g);
    assert_non_null(strstr(p, "phase=2 cycle=ewb seats=1,1,0"));
    free(p);
    assert_int_equal(tu_legal_count(g, 2, ACT_TAKEOVER), 0); /* no third seat now */
    game_free(g);
}

/* ECHQ-8: position strings: errors named, nothing accepted wrongly. */
static void test_echq8_position_errors(void **state)
{
    (void)state;
    static const struct { const char *pos, *want; } bad[] = {
        {"4k3/8/8/8/8/8/8/3*K4 w - - 0 1", "merged King"},
        {"3*Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "rank 1 or 8"},
        {"4k3/8/8/8/3*P+4/8/8/4K3 w - - 0 1", "'+'"},
        {"4k3/8/8/8/3*N4/8/8/4K3 e - - 0 1", "only in phase 2"},
        {"4k3/8/8/8/8/8/8/8 w - - 0 1", "white has 0 Kings"},
        {"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 cycle=ewb", "phase 2"},
        {"4k3/8/8/8/3*N4/8/8/4K3 e - - 0 1 phase=2 seats=0,1,2", "cycle"},
        {"4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,0,0", "seats"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 noundo=e4e5", "noundo"},
        {"4k3/8/8/8/3*N4/8/8/4K2*R w K - 0 1", "castling"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        tu_game_refused(&(TuGame){.variant = &echiquete_variant, .nsides = 3,
                                  .nseats = 3, .position = bad[i].pos},
                        bad[i].want);
}

/* Perft: fast path = generic path, phase 1 and phase 2 (three sides). */
static const char *const PERFT_POS[] = {
    NULL,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
    "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR e KQkq - 0 2 phase=2 cycle=ebw "
    "seats=0,1,2",
};

static void test_perft_fast_equals_generic(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PERFT_POS / sizeof PERFT_POS[0]; i++) {
        Game *g = eg(PERFT_POS[i], 3, NULL);
        for (int d = 1; d <= (TU_SANITIZED ? 2 : 3); d++)
            assert_int_equal(game_perft(g, d), game_perft_generic(g, d));
        game_free(g);
    }
}

/* Seeded random games (2 and 3 seats): every ply, the position string
 * reads back to the same legal machine texts, and every action's machine
 * and record texts parse back to the same action. */
static void legal_texts(const Game *g, int seat, StrBuf *out)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    for (int i = 0; i < l.n; i++) {
        game_format(g, &l.v[i], FMT_MACHINE, out);
        sb_putc(out, ' ');
    }
    al_free(&l);
}

static void random_game(int nseats, uint64_t seed)
{
    Game *g = eg(NULL, nseats, NULL);
    uint64_t r = seed;
    for (int ply = 0; ply < 120; ply++) {
        Status s;
        game_status(g, &s);
        if (s.over)
            break;
        char *pos = tu_position(g);
        Game *h = eg(pos, nseats, NULL);
        for (int seat = 0; seat < nseats; seat++) {
            StrBuf a = STRBUF_INIT, b = STRBUF_INIT;
            legal_texts(g, seat, &a);
            legal_texts(h, seat, &b);
            assert_string_equal(sb_str(&a), sb_str(&b));
            sb_free(&a);
            sb_free(&b);
        }
        game_free(h);
        free(pos);
        ActionList all = ACTIONLIST_INIT;
        for (int seat = 0; seat < nseats; seat++) {
            ActionList l = ACTIONLIST_INIT;
            game_legal(g, seat, &l);
            for (int i = 0; i < l.n; i++) {
                if (l.v[i].kind >= ACT_RESIGN && l.v[i].kind <= ACT_DRAW_CLAIM)
                    continue;
                for (int style = 0; style < 2; style++) {
                    StrBuf t = STRBUF_INIT;
                    game_format(g, &l.v[i], style, &t);
                    Action back;
                    Error e;
                    assert_int_equal(game_parse(g, seat, sb_str(&t), &back, &e), 0);
                    if (!action_eq(&back, &l.v[i]))
                        fail_msg("%s read back as another action", sb_str(&t));
                    sb_free(&t);
                }
                if (l.v[i].kind != ACT_TAKEOVER || (r >> 40) % 8 == 0)
                    al_push(&all, &l.v[i]);
            }
            al_free(&l);
        }
        r = r * 6364136223846793005ULL + 1442695040888963407ULL;
        assert_true(all.n > 0);
        Error e;
        assert_int_equal(game_apply(g, &all.v[(r >> 33) % (uint64_t)all.n], &e), 0);
        al_free(&all);
    }
    game_free(g);
}

static void test_random_games_read_back(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= (TU_SANITIZED ? 3 : 12); seed++) {
        random_game(2, seed);
        random_game(3, seed * 7919);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_echq1_merging_capture_choices),
        cmocka_unit_test(test_echq1_written_as_the_seed),
        cmocka_unit_test(test_plain_san_when_unambiguous),
        cmocka_unit_test(test_help_fits),
        cmocka_unit_test(test_echq1_pawn_capture_last_rank),
        cmocka_unit_test(test_echq3_remerge_and_own_check),
        cmocka_unit_test(test_echq2_4_ownership_no_capture),
        cmocka_unit_test(test_echq5_king_never_merges),
        cmocka_unit_test(test_echq6_no_undo_and_expiry),
        cmocka_unit_test(test_echq7_kept_double_step),
        cmocka_unit_test(test_echq7_en_passant_by_merged_pawn),
        cmocka_unit_test(test_echq8_mate_by_merged_piece),
        cmocka_unit_test(test_echq8_castling_through_merged_attack),
        cmocka_unit_test(test_echq9_takeover_moments),
        cmocka_unit_test(test_echq9_turn_cycles),
        cmocka_unit_test(test_echq10_phase2_captures),
        cmocka_unit_test(test_echq11_merged_pawns_both_ways),
        cmocka_unit_test(test_echq13_merged_mate_wins),
        cmocka_unit_test(test_echq13_side_out_inert),
        cmocka_unit_test(test_echq13_passes),
        cmocka_unit_test(test_echq12_two_seats),
        cmocka_unit_test(test_echq12_seat_to_act_takes_over),
        cmocka_unit_test(test_echq8_position_errors),
        cmocka_unit_test(test_perft_fast_equals_generic),
        cmocka_unit_test(test_random_games_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
