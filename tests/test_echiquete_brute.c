/*
 * test_echiquete_brute.c -- self-checks of the L'Échiqueté brute-force
 * reference (tests/support/echiquete_brute.[ch]) that need no engine:
 * (a) positions where no merging capture can happen within the depth give
 * the orthodox engine's perft counts; (b) small positions counted by hand,
 * one per rule (ECHQ-n cited, the count explained); (c) a phase-1 position
 * and its mirror (ranks flipped, colours and side to move swapped) have the
 * same counts; (d) a table of documented positions with the reference's
 * counts, printed so the lead can compare them with the engine's.
 *
 * Invariant: every count asserted in (b) was counted by hand from the rules
 * before it was checked here; the table (d) stays under a few seconds and
 * shrinks under AddressSanitizer (TU_SANITIZED).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "support/echiquete_brute.h"
#include "support/testutil.h"

#define SQ(name) (((name)[1] - '1') * 8 + ((name)[0] - 'a'))

static EbPos load(const char *text)
{
    EbPos p;
    char err[256];
    if (eb_parse(&p, text, err, sizeof err) < 0)
        fail_msg("refused %s: %s", text, err);
    return p;
}

static int has(const EbPos *p, const char *text)
{
    char t[256][EB_TEXT];
    int n = eb_legal_texts(p, t, 256);
    assert_true(n <= 256);
    for (int i = 0; i < n; i++)
        if (strcmp(t[i], text) == 0)
            return 1;
    return 0;
}

static int nlegal(const EbPos *p)
{
    return eb_legal_texts(p, NULL, 0);
}

static void play(EbPos *p, const char *text)
{
    if (eb_play(p, text) < 0)
        fail_msg("%s is not legal here", text);
}

static void assert_sq(const EbPos *p, const char *sq, int fig, int col, int keep)
{
    const EbSq *q = &p->b[SQ(sq)];
    if (q->fig != fig || q->col != col || q->keep != keep)
        fail_msg("%s holds fig %d col %d keep %d, expected %d %d %d", sq, q->fig, q->col,
                 q->keep, fig, col, keep);
}

/* ---- (a) Capture-free positions are orthodox ------------------------------ */

/* Compares the reference with the orthodox engine at depths 1..maxd. */
static void check_orthodox(const char *fen, int maxd)
{
    EbPos p = load(fen);
    Game *g = tu_orthodox(fen);
    for (int d = 1; d <= maxd; d++) {
        uint64_t want = game_perft(g, d), got = eb_perft(&p, d);
        if (got != want)
            fail_msg("%s depth %d: brute %" PRIu64 ", orthodox %" PRIu64, fen, d, got, want);
    }
    game_free(g);
}

/* ECHQ-1..8 change nothing while no merging capture can happen: from the
 * start, depth 2 has no capture at all (depth 3 does); where one side has a
 * lone King, only that King can capture, and King captures are orthodox
 * (ECHQ-5), so every depth is orthodox. */
static void test_echq_capture_free_is_orthodox(void **state)
{
    (void)state;
    check_orthodox(TU_FEN_START, 2);
    check_orthodox("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", TU_SANITIZED ? 3 : 4);
    check_orthodox("r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1", TU_SANITIZED ? 3 : 4);
    check_orthodox("4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", 3);
    check_orthodox("rnbqkbnr/pppppppp/8/8/8/8/8/4K3 w kq - 0 1", 3);
    check_orthodox("8/3k4/8/8/8/8/1P4P1/4K3 w - - 0 1", TU_SANITIZED ? 3 : 4);
    check_orthodox("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 4);  /* promotions, no capture */
}

/* ...and the start position at depth 3 is not orthodox: a Knight that takes
 * a pawn gives two actions (ECHQ-1), so the count exceeds 8902. */
static void test_echq1_start_depth3_differs(void **state)
{
    (void)state;
    EbPos p = load(TU_FEN_START);
    assert_true(eb_perft(&p, 3) > 8902);
}

/* ---- (b) Hand counts, rule by rule ------------------------------------------- */

/* ECHQ-1: Bg5 takes Nf6 and the mover chooses the figure: g5f6b, g5f6n.
 * White: King e1 to d1 d2 e2 f1 f2 (5); Bishop to h6 h4 f4 e3 d2 c1 (6) and
 * two actions onto f6 (2).  13. */
static void test_echq1_merging_capture_two_actions(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/5n2/6B1/8/8/8/4K3 w - - 0 1");
    assert_int_equal(nlegal(&p), 13);
    assert_true(has(&p, "g5f6b"));
    assert_true(has(&p, "g5f6n"));
    assert_false(has(&p, "g5f6"));
    EbPos q = p;
    play(&q, "g5f6n");
    assert_sq(&q, "f6", EB_N, EB_MERGED, 0);
    assert_sq(&q, "g5", EB_EMPTY, 0, 0);
}

/* ECHQ-1: a pawn capturing onto its last rank: Q, R, B, N (the captured
 * Rook adds nothing new), never a pawn.  White: King a1 to a2 b1 b2 (3);
 * e8 pushes 4 promotions, exd8 4.  11. */
static void test_echq1_pawn_capture_onto_last_rank(void **state)
{
    (void)state;
    EbPos p = load("3r3k/4P3/8/8/8/8/8/K7 w - - 0 1");
    assert_int_equal(nlegal(&p), 11);
    const char *want[] = {"e7d8q", "e7d8r", "e7d8b", "e7d8n"};
    for (int i = 0; i < 4; i++)
        assert_true(has(&p, want[i]));
    assert_false(has(&p, "e7d8p"));
    play(&p, "e7d8r");
    assert_sq(&p, "d8", EB_R, EB_MERGED, 0);
}

/* ECHQ-2: a merged Knight on d4 moves for whoever is to move.
 * White: King d1 d2 f1 f2 (e2 is attacked by the Knight, which is Black's
 * on Black's turn) = 4; Knight to its 8 squares but c2 and f3 would attack
 * e1 = 6.  10.  Black: King d8 d7 e7 f7 f8 = 5; the Knight's 8 squares, none
 * attacking e8 = 8.  13.  With a merged piece on the board the seat to
 * act may also take the merged side (ECHQ-12): one action more, 11 and 14.
 * A merged pawn goes each side's way. */
static void test_echq2_merged_piece_moved_by_either_side(void **state)
{
    (void)state;
    EbPos w = load("4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1");
    EbPos b = load("4k3/8/8/8/3*N4/8/8/4K3 b - - 0 1");
    assert_int_equal(nlegal(&w), 11);
    assert_int_equal(nlegal(&b), 14);
    assert_true(has(&w, "takeover") && has(&b, "takeover"));
    assert_true(has(&w, "d4e6") && has(&b, "d4e6"));
    assert_false(has(&w, "d4c2") || has(&w, "e1e2"));
    EbPos pw = load("4k3/8/8/8/3*P4/8/8/4K3 w - - 0 1");
    EbPos pb = load("4k3/8/8/8/3*P4/8/8/4K3 b - - 0 1");
    assert_true(has(&pw, "d4d5") && !has(&pw, "d4d3"));
    assert_true(has(&pb, "d4d3") && !has(&pb, "d4d5"));
}

/* ECHQ-3: the merged Knight d4 takes the black pawn e2 and merges again
 * (d4e2n, d4e2p).  White: King d2 f2 (d1 f1 attacked by the pawn, Kxe2
 * attacked by the Knight) = 2; Knight b3 b5 c6 e6 f5 (c2 f3 attack e1) and
 * the two captures = 7.  9, and the takeover (ECHQ-12).  10. */
static void test_echq3_merged_piece_merges_again(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/3*N4/8/4p3/4K3 w - - 0 1");
    assert_int_equal(nlegal(&p), 10);
    assert_false(has(&p, "e1e2"));
    play(&p, "d4e2p");
    assert_sq(&p, "e2", EB_P, EB_MERGED, 0);   /* a black pawn: not its start rank */
}

/* ECHQ-4/5: the King takes the one-coloured Knight e2 and removes it; no
 * piece takes the merged Knight d2.  White: King d1, e2 (capture), f2 (f1
 * is attacked by the merged Knight) = 3; merged Knight b1 b3 c4 e4 f1 (f3
 * would attack e1) = 5; the takeover (ECHQ-12).  9. */
static void test_echq45_king_captures_merged_uncapturable(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/8/8/3*Nn3/4K3 w - - 0 1");
    assert_int_equal(nlegal(&p), 9);
    assert_false(has(&p, "e1d2"));
    play(&p, "e1e2");
    assert_sq(&p, "e2", EB_K, EB_WHITE, 0);
}

/* ECHQ-6: the reverse of the last move of a merged piece is barred for
 * the very next move only.  With noundo=e6d4, Black: King d7 e7 f7 (d8 f8
 * attacked by the Knight) = 3; Knight c5 d8 f4 f8 g5 (c7 g7 attack e8, d4
 * barred) = 5; the takeover (ECHQ-12).  9; without the token 10.  After
 * Kd7, Kd1 the reverse is allowed again. */
static void test_echq6_no_undo_and_expiry(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/4*N3/8/8/8/8/4K3 b - - 1 1 noundo=e6d4");
    assert_int_equal(nlegal(&p), 9);
    assert_false(has(&p, "e6d4"));
    EbPos free_ = load("4k3/8/4*N3/8/8/8/8/4K3 b - - 1 1");
    assert_int_equal(nlegal(&free_), 10);
    play(&p, "e8d7");
    play(&p, "e1d1");
    assert_true(has(&p, "e6d4"));
    /* the reference sets the bar itself after a merging capture */
    EbPos q = load("4k3/8/5n2/6B1/8/8/8/4K3 w - - 0 1");
    play(&q, "g5f6b");
    assert_false(has(&q, "f6g5"));
    assert_true(has(&q, "f6e5"));
}

/* ECHQ-6 and ECHQ-8 after Rxa8 (a1a8r): the merged Rook now attacks e8 for
 * White, Black's castling right is gone with its Rook, and a8a1 is barred.
 * Black: King d7 e7 f7 (d8 f8 stay on the Rook's rank) = 3; Rook a7..a2 = 6
 * (b8 c8 d8 keep the attack, a1 barred); the takeover (ECHQ-12).  10. */
static void test_echq68_captured_rook_and_merged_check(void **state)
{
    (void)state;
    EbPos p = load("r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1");
    play(&p, "a1a8r");
    assert_int_equal(nlegal(&p), 10);
    assert_false(has(&p, "a8a1"));
    assert_false(has(&p, "e8c8"));
    assert_int_equal(p.castle, 0);
}

/* ECHQ-7: a merged pawn captured on its start rank keeps the double step.
 * White, `*P+` d2: King g1 g2 h2 + d3 d4 + the takeover (ECHQ-12) = 6;
 * without `+` 5.  Black moves it down onto its last rank: 4 promotions +
 * King's 5 + the takeover = 10. */
static void test_echq7_kept_double_step(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/8/8/3*P+4/7K w - - 0 1");
    assert_int_equal(nlegal(&p), 6);
    assert_true(has(&p, "d2d4"));
    EbPos q = load("4k3/8/8/8/8/8/3*P4/7K w - - 0 1");
    assert_int_equal(nlegal(&q), 5);
    EbPos b = load("4k3/8/8/8/8/8/3*P+4/7K b - - 0 1");
    assert_int_equal(nlegal(&b), 10);
    /* made by a capture: Nxd2 keeping the pawn's figure */
    EbPos c = load("4k3/8/8/8/4n3/8/3P4/7K b - - 0 1");
    EbPos cn = c;
    play(&c, "e4d2p");
    assert_sq(&c, "d2", EB_P, EB_MERGED, 1);
    assert_true(has(&c, "d2d4"));
    play(&cn, "e4d2n");
    assert_false(has(&cn, "d2d4"));
    /* arriving on rank 2 later gives nothing (and d2d3 is first barred
     * by ECHQ-6: the exact reverse of Black's move) */
    EbPos l = load("4k3/8/8/8/8/3*P4/8/7K b - - 0 1");
    play(&l, "d3d2");
    assert_sq(&l, "d2", EB_P, EB_MERGED, 0);
    assert_false(has(&l, "d2d3") || has(&l, "d2d4"));
    play(&l, "h1g1");
    play(&l, "e8d8");
    assert_true(has(&l, "d2d3"));
    assert_false(has(&l, "d2d4"));
}

/* ECHQ-7: a merged pawn takes a one-coloured pawn en passant, merging on
 * the passed square.  After d2d4, Black: King 5 + c4c3 + c4d3p + the
 * takeover (ECHQ-12) = 8.  A merged pawn's double step cannot be taken so
 * in phase 1: after the merged d2d4, Black: King 5 + e4e3 + the merged
 * d4d3 + the takeover = 8, no e4d3p. */
static void test_echq7_en_passant(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/2*P5/8/3P4/4K3 w - - 0 1");
    play(&p, "d2d4");
    assert_int_equal(p.ep, SQ("d3"));
    assert_int_equal(nlegal(&p), 8);
    play(&p, "c4d3p");
    assert_sq(&p, "d3", EB_P, EB_MERGED, 0);
    assert_sq(&p, "d4", EB_EMPTY, 0, 0);
    EbPos m = load("4k3/8/8/8/4p3/8/3*P+4/7K w - - 0 1");
    play(&m, "d2d4");
    assert_int_equal(nlegal(&m), 8);
    assert_false(has(&m, "e4d3p") || has(&m, "e4d3"));
}

/* ECHQ-8: a merged Rook on e5 checks the white King for Black.  White:
 * King d1 d2 f1 f2 (e2 on the file) = 4; the Rook along rank 5 (7 squares;
 * on the e-file it would still attack e1) = 7; the takeover (ECHQ-12).  12. */
static void test_echq8_check_by_merged_piece(void **state)
{
    (void)state;
    EbPos p = load("k7/8/8/4*R3/8/8/8/4K3 w - - 0 1");
    assert_int_equal(nlegal(&p), 12);
    assert_false(has(&p, "e1e2") || has(&p, "e5e4"));
    assert_true(has(&p, "e5a5"));
}

/* ECHQ-8: castling may not pass f1, attacked by the merged Bishop a6.
 * White: King d1 d2 f2 (e2 f1 attacked) = 3; Rook g1 f1 h2..h8 = 9; the
 * Bishop's 7 squares = 7; the takeover (ECHQ-12).  20 (without the Bishop
 * 15, castling included, no takeover). */
static void test_echq8_castling_through_merged_attack(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/*B7/8/8/8/8/4K2R w K - 0 1");
    assert_int_equal(nlegal(&p), 20);
    assert_false(has(&p, "e1g1"));
    EbPos q = load("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_int_equal(nlegal(&q), 15);
    assert_true(has(&q, "e1g1"));
}

/* ECHQ-9: a takeover after a White move gives É, Black, White; it is not
 * a ply.  É's Knight d4 has 8 squares. */
static void test_echq9_turn_cycle(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/3*N4/8/8/4K3 b - - 0 1");
    assert_int_equal(eb_takeover(&p, 1), 0);
    assert_int_equal(eb_to_act(&p), EB_MERGED);
    assert_int_equal(p.cycle, 1);
    assert_int_equal(nlegal(&p), 8);
    play(&p, "d4e6");
    assert_int_equal(eb_to_act(&p), EB_BLACK);
    play(&p, "e8d7");
    assert_int_equal(eb_to_act(&p), EB_WHITE);
    play(&p, "e1d1");
    assert_int_equal(eb_to_act(&p), EB_MERGED);
    /* after a Black move: É, White, Black */
    EbPos w = load("4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1");
    assert_int_equal(eb_takeover(&w, 1), 0);
    play(&w, "d4e6");
    assert_int_equal(eb_to_act(&w), EB_WHITE);
    /* no merged piece: no takeover */
    EbPos none = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_int_equal(eb_takeover(&none, 1), -1);
}

/* ECHQ-12: "the White or the Black seat may instead choose to take the
 * merged side, at the same moments as a third seat": the seat to act may,
 * as its action.  After a White move Black's seat takes it: É (seat 1)
 * moves, then Black and White, both played by White's seat (seats 0,0,1;
 * the cycle follows the last move, ECHQ-9).  After a Black move, White's
 * seat: É, White, Black, seats 1,1,0.  No takeover once the side to move is
 * mated: the game is over (ECHQ-8). */
static void test_echq12_seat_to_act_takes_over(void **state)
{
    (void)state;
    EbPos b = load("4k3/8/8/8/3*N4/8/8/4K3 b - - 0 1");
    assert_true(has(&b, "takeover"));
    play(&b, "takeover");
    assert_int_equal(eb_to_act(&b), EB_MERGED);
    assert_int_equal(b.cycle, 1);
    assert_int_equal(b.seat[0], 0);
    assert_int_equal(b.seat[1], 0);
    assert_int_equal(b.seat[2], 1);
    assert_false(has(&b, "takeover"));   /* phase 2: no more takeovers */
    play(&b, "d4e6");
    assert_int_equal(eb_to_act(&b), EB_BLACK);
    play(&b, "e8d7");
    assert_int_equal(eb_to_act(&b), EB_WHITE);
    EbPos w = load("4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1");
    play(&w, "takeover");
    assert_int_equal(w.cycle, 0);
    assert_int_equal(w.seat[0], 1);
    assert_int_equal(w.seat[2], 0);
    play(&w, "d4e6");
    assert_int_equal(eb_to_act(&w), EB_WHITE);
    /* without a merged piece there is no takeover; mated, no action at all */
    EbPos none = load("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_false(has(&none, "takeover"));
    EbPos mate = load("7k/6nP/5PP1/8/8/8/8/K7 w - - 0 1");
    play(&mate, "f6g7p");
    assert_int_equal(nlegal(&mate), 0);
}

/* ECHQ-10/11: É's Knight takes e2: two actions (figure choice), 7 other
 * squares = 9; White, not in check: King d1 d2 f1 f2 + e3 e4 = 6.  É's pawn
 * d4 pushes both ways (2) and takes c3 and e5 with a choice each (4) = 6;
 * É pawns promote on rank 8 and rank 1: (4 + 1) * 2 = 10.  A white capture
 * of an É piece removes it. */
static void test_echq10_11_phase2_moves(void **state)
{
    (void)state;
    EbPos e = load("4k3/8/8/8/3*N4/8/4P3/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(nlegal(&e), 9);
    assert_true(has(&e, "d4e2n") && has(&e, "d4e2p"));
    EbPos w = load("4k3/8/8/8/3*N4/8/4P3/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(nlegal(&w), 6);
    EbPos pawn = load("4k3/8/8/4n3/3*P4/2N5/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(nlegal(&pawn), 6);
    assert_true(has(&pawn, "d4d3") && has(&pawn, "d4d5") && has(&pawn, "d4c3p"));
    EbPos promo = load("4k3/1*P6/8/8/8/8/1*P6/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(nlegal(&promo), 10);
    assert_true(has(&promo, "b2b1q") && has(&promo, "b7b8n"));
    EbPos cap = load("4k3/8/*N7/8/8/*N7/8/R3K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_true(has(&cap, "a1a3"));
    assert_false(has(&cap, "a1a3n"));
    play(&cap, "a1a3");
    assert_sq(&cap, "a3", EB_R, EB_WHITE, 0);
}

/* ECHQ-7/11 in phase 2: É's kept step goes away from rank 2 and can be
 * taken en passant.  É: d2d1 with 4 promotions, d2d3, d2d4 = 6.  Then
 * Black: King 5, e4e3, e4d3 (en passant, a plain capture) = 7. */
static void test_echq7_11_phase2_kept_step_en_passant(void **state)
{
    (void)state;
    EbPos p = load("4k3/8/8/8/4p3/8/3*P+4/7K e - - 0 1 phase=2 cycle=ebw seats=0,1,2");
    assert_int_equal(nlegal(&p), 6);
    play(&p, "d2d4");
    assert_int_equal(eb_to_act(&p), EB_BLACK);
    assert_int_equal(nlegal(&p), 7);
    play(&p, "e4d3");
    assert_sq(&p, "d3", EB_P, EB_BLACK, 0);
    assert_sq(&p, "d4", EB_EMPTY, 0, 0);
}

/* ECHQ-13, three seats: White mated by Black alone is out and Black acts
 * (going out is not a ply); mated with an É piece attacking: over.  A side
 * without move, not in check, passes. */
static void test_echq13_ends_three_seats(void **state)
{
    (void)state;
    /* Rb1 checks along rank 1, Ra2 holds rank 2: mate by Black alone */
    EbPos out = load("k7/8/*N7/8/8/8/r7/1r5K w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(out.out, 1 << EB_WHITE);
    assert_int_equal(eb_to_act(&out), EB_BLACK);
    play(&out, "b1b2");
    assert_int_equal(eb_to_act(&out), EB_MERGED);
    play(&out, "a6b8");
    assert_int_equal(eb_to_act(&out), EB_BLACK);   /* White is skipped */
    /* the same mate given by É's Rook: É wins at once */
    EbPos win = load("k7/8/8/8/8/8/r7/1*R5K w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(eb_to_act(&win), -1);
    assert_int_equal(eb_perft(&win, 1), 0);
    /* two seats: any mate ends the game */
    EbPos two = load("k7/8/*N7/8/8/8/r7/1r5K w - - 0 1 phase=2 cycle=ewb seats=1,1,0");
    assert_int_equal(eb_to_act(&two), -1);
    /* stalemated, not in check: `pass`, then Black (cycle ewb) */
    EbPos st = load("k5r1/8/*N7/8/8/8/r7/7K w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    assert_int_equal(nlegal(&st), 1);
    assert_true(has(&st, "pass"));
    play(&st, "pass");
    assert_int_equal(eb_to_act(&st), EB_BLACK);
    assert_int_equal(st.passes, 1);
}

/* ECHQ-13: É with no piece left is out (three seats) or loses (two). */
static void test_echq13_merged_side_emptied(void **state)
{
    (void)state;
    EbPos three = load("4k3/8/8/8/8/*N7/8/R3K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2");
    EbPos two = load("4k3/8/8/8/8/*N7/8/R3K3 w - - 0 1 phase=2 cycle=ewb seats=1,1,0");
    play(&three, "a1a3");
    assert_int_equal(three.out, 1 << EB_MERGED);
    assert_int_equal(eb_to_act(&three), EB_BLACK);
    play(&two, "a1a3");
    assert_int_equal(eb_to_act(&two), -1);
}

/* Malformed strings are refused with a message naming the problem. */
static void test_echq_parse_errors(void **state)
{
    (void)state;
    static const struct { const char *pos, *want; } BAD[] = {
        {"4k3/8/8/8/3*K4/8/8/4K3 w - - 0 1", "merged King"},
        {"3*P4/8/8/8/8/8/8/k3K3 w - - 0 1", "rank 1 or 8"},
        {"4k3/8/8/3*P+4/8/8/8/4K3 w - - 0 1", "`+`"},
        {"4k3/8/8/8/3*N+4/8/8/4K3 w - - 0 1", "`+`"},
        {"4k3/8/8/8/3*N4/8/8/4K3 e - - 0 1", "phase=2"},
        {"4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1 cycle=ewb", "phase=2"},
        {"8/8/8/8/3*N4/8/8/4K3 w - - 0 1", "missing"},
        {"4k3/8/8/8/3*N4/8/8/3KK3 w - - 0 1", "two Kings"},
        {"4k3/8/8/8/3*N4/8/8/4K3 w - - 0", "expected BOARD"},
        {"4k3/8/8/4*R3/8/8/8/4K3 b - - 0 1", "not to move"},
        {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling"},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 noundo=z9", "noundo"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        EbPos p;
        char err[256] = "";
        if (eb_parse(&p, BAD[i].pos, err, sizeof err) != -1 || !strstr(err, BAD[i].want))
            fail_msg("%s: want an error holding \"%s\", got \"%s\"", BAD[i].pos, BAD[i].want,
                     err);
    }
}

/* ---- (c) Colour symmetry ------------------------------------------------------------ */

static const char *const PHASE1[] = {
    TU_FEN_START,
    "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1",
    "4k3/8/8/8/2*P5/8/3P4/4K3 w - - 0 1",
    "4k3/8/*B7/8/8/8/8/4K2R w K - 0 1",
    "r1bqkbnr/1ppp1ppp/p1*N5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4 noundo=c6b5",
    "r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/4p3/8/3*P+4/7K w - - 0 1",
};

/* Mirroring (ranks flipped, colours and the side to move swapped) keeps
 * every count: the rules give White and Black the same moves. */
static void test_echq_colour_symmetry(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof PHASE1 / sizeof PHASE1[0]; i++) {
        EbPos p = load(PHASE1[i]), m;
        assert_int_equal(eb_mirror(&p, &m), 0);
        for (int d = 1; d <= 3; d++) {
            uint64_t a = eb_perft(&p, d), b = eb_perft(&m, d);
            if (a != b)
                fail_msg("%s depth %d: %" PRIu64 ", mirrored %" PRIu64, PHASE1[i], d, a, b);
        }
    }
}

/* ---- (d) The table for the engine ------------------------------------------------- */

/* Positions documented with the reference's counts (printed; the lead
 * compares them with the engine's perft).  Depth 4 only where cheap. */
static void test_echq_table(void **state)
{
    (void)state;
    static const struct { const char *pos; int maxd; } T[] = {
        {TU_FEN_START, 4},
        {"r1bqkbnr/1ppp1ppp/p1*N5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4 noundo=c6b5", 3},
        {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3},
        {"4k3/8/8/8/2*P5/8/3P4/4K3 w - - 0 1", 4},
        {"4k3/8/8/8/4p3/8/3*P+4/7K w - - 0 1", 4},
        {"r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", 4},
        {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R e KQkq - 0 1 "
         "phase=2 cycle=ewb seats=0,1,2", 3},
        {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R e KQkq - 0 1 "
         "phase=2 cycle=ebw seats=1,1,0", 3},
        {"4k3/1*P6/8/8/3*N4/8/1*P2P3/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2", 4},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        EbPos p = load(T[i].pos);
        int maxd = TU_SANITIZED && T[i].maxd > 3 ? 3 : T[i].maxd;
        printf("[echiquete-brute] %s", T[i].pos);
        uint64_t prev = 1;
        for (int d = 1; d <= maxd; d++) {
            uint64_t n = eb_perft(&p, d);
            printf(" ;D%d %" PRIu64, d, n);
            assert_true(n > 0 || prev == 0);
            prev = n;
        }
        printf("\n");
    }
    /* the start position's first two depths are the orthodox ones */
    EbPos s = load(TU_FEN_START);
    assert_int_equal(eb_perft(&s, 1), 20);
    assert_int_equal(eb_perft(&s, 2), 400);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_echq_capture_free_is_orthodox),
        cmocka_unit_test(test_echq1_start_depth3_differs),
        cmocka_unit_test(test_echq1_merging_capture_two_actions),
        cmocka_unit_test(test_echq1_pawn_capture_onto_last_rank),
        cmocka_unit_test(test_echq2_merged_piece_moved_by_either_side),
        cmocka_unit_test(test_echq3_merged_piece_merges_again),
        cmocka_unit_test(test_echq45_king_captures_merged_uncapturable),
        cmocka_unit_test(test_echq6_no_undo_and_expiry),
        cmocka_unit_test(test_echq68_captured_rook_and_merged_check),
        cmocka_unit_test(test_echq7_kept_double_step),
        cmocka_unit_test(test_echq7_en_passant),
        cmocka_unit_test(test_echq8_check_by_merged_piece),
        cmocka_unit_test(test_echq8_castling_through_merged_attack),
        cmocka_unit_test(test_echq9_turn_cycle),
        cmocka_unit_test(test_echq12_seat_to_act_takes_over),
        cmocka_unit_test(test_echq10_11_phase2_moves),
        cmocka_unit_test(test_echq7_11_phase2_kept_step_en_passant),
        cmocka_unit_test(test_echq13_ends_three_seats),
        cmocka_unit_test(test_echq13_merged_side_emptied),
        cmocka_unit_test(test_echq_parse_errors),
        cmocka_unit_test(test_echq_colour_symmetry),
        cmocka_unit_test(test_echq_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
