/*
 * test_ambigus_perft.c -- the orthodox engine's pseudo-legal generator
 * (chess_pseudo_moves, the base of Échecs ambigus' AMBI-1 and AMBI-4).
 *
 * Invariant: the pseudo-legal list is checked against the strictly legal
 * generator, which the orthodox perft suite proves exact: on every suite
 * position and the positions one legal move away, the legal moves are
 * exactly the pseudo-legal moves that leave the own King unattacked.
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

#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

static const char *shared_dir(void)
{
    const char *s = getenv("SHARED");
    return s && *s ? s : "../shared";
}

/* ---- chess_pseudo_moves -------------------------------------------------- */

static int move_index(const Move *moves, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return i;
    return -1;
}

/* Does m, played by the side to move of p, leave that side's King
 * attacked? */
static int leaves_king_attacked(const Position *p, Move m)
{
    Position c = *p;
    chess_make(&c, m);
    const Bitboard king = c.by_fig[FIG_KING] & c.by_color[p->side];
    const int ksq = __builtin_ctzll(king);
    return chess_attackers(&c, ksq, c.side, c.by_color[0] | c.by_color[1]) != 0;
}

/* The legal moves of p are exactly its pseudo-legal moves that do not
 * leave the own King attacked; no pseudo-legal move is listed twice. */
static void check_pseudo_against_legal(const Position *p)
{
    Move legal[CH_MAX_MOVES], pseudo[CH_MAX_MOVES];
    const int nl = chess_legal_moves(p, legal);
    const int np = chess_pseudo_moves(p, pseudo);
    char uci[6];
    StrBuf fen = STRBUF_INIT;
    chess_to_fen(p, &fen);
    assert_in_range(np, nl, CH_MAX_MOVES);
    for (int i = 0; i < np; i++) {
        if (move_index(pseudo, i, pseudo[i]) >= 0)
            fail_msg("%s: pseudo-legal %s listed twice", sb_str(&fen),
                     chess_move_uci(pseudo[i], uci));
        const int is_legal = move_index(legal, nl, pseudo[i]) >= 0;
        if (is_legal == leaves_king_attacked(p, pseudo[i]))
            fail_msg("%s: pseudo-legal %s (kind %d) is %s but %s the King attacked",
                     sb_str(&fen), chess_move_uci(pseudo[i], uci), MOVE_KIND(pseudo[i]),
                     is_legal ? "legal" : "not legal", is_legal ? "leaves" : "does not leave");
    }
    for (int i = 0; i < nl; i++)
        if (move_index(pseudo, np, legal[i]) < 0)
            fail_msg("%s: legal %s is not pseudo-legal", sb_str(&fen),
                     chess_move_uci(legal[i], uci));
    sb_free(&fen);
}

/* The check on p and on every position up to depth legal moves away;
 * returns the number of positions checked. */
static long check_pseudo_around(const Position *p, int depth)
{
    Move legal[CH_MAX_MOVES];
    const int n = chess_legal_moves(p, legal);
    long checked = 1;
    check_pseudo_against_legal(p);
    for (int i = 0; depth > 0 && i < n; i++) {
        Position c = *p;
        chess_make(&c, legal[i]);
        checked += check_pseudo_around(&c, depth - 1);
    }
    return checked;
}

/* AMBI-4 base: on the 126 positions of ../shared/data/perftsuite.epd, the
 * wiki positions 4 (mirrored) and 6, and everything two moves away. */
static void test_ambi4_pseudo_moves_filter_to_legal(void **state)
{
    (void)state;
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/data/perftsuite.epd", shared_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (set SHARED to the shared directory)", path);
    int roots = 0;
    long checked = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        Position p;
        tu_chess_load(&p, line);
        checked += check_pseudo_around(&p, 2);
        roots++;
    }
    fclose(f);
    static const char *const more[] = {
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        TU_FEN_POS6,
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",   /* en passant pinned on the rank */
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  /* en passant out of check */
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",  /* castling through f1 */
    };
    for (size_t i = 0; i < ARRAY_LEN(more); i++) {
        Position p;
        tu_chess_load(&p, more[i]);
        checked += check_pseudo_around(&p, 2);
    }
    assert_int_equal(roots, 126);
    assert_true(checked > 20000);
}

static int pseudo_count(const Position *p, int kind)
{
    Move moves[CH_MAX_MOVES];
    int n = chess_pseudo_moves(p, moves), count = 0;
    for (int i = 0; i < n; i++)
        count += kind < 0 || MOVE_KIND(moves[i]) == kind;
    return count;
}

/* The pseudo-legal move of p written uci; fails the test if there is none. */
static Move pseudo_move(const Position *p, const char *uci)
{
    Move moves[CH_MAX_MOVES];
    char buf[6];
    int n = chess_pseudo_moves(p, moves);
    for (int i = 0; i < n; i++)
        if (strcmp(chess_move_uci(moves[i], buf), uci) == 0)
            return moves[i];
    fail_msg("%s is not pseudo-legal", uci);
    return 0;
}

/* AMBI-4: counts by hand.  The King in check from e2 may go anywhere
 * (d1 d2 e2 f1 f2, legal only d1 e2 f1); once it stands on d2 the rook
 * captures it (e3..e7, e1, f2 g2 h2, d2 = 10; King d8 d7 e7 f7 f8 = 5);
 * an en passant pinned on the rank is pseudo-legal; castling keeps its
 * orthodox conditions. */
static void test_ambi4_pseudo_moves_by_hand(void **state)
{
    (void)state;
    Position p;
    Move legal[CH_MAX_MOVES];
    tu_chess_load(&p, "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
    assert_int_equal(chess_legal_moves(&p, legal), 3);
    assert_int_equal(pseudo_count(&p, -1), 5);
    chess_make(&p, pseudo_move(&p, "e1d2"));
    assert_int_equal(pseudo_count(&p, -1), 15);
    Move take = pseudo_move(&p, "e2d2");
    chess_make(&p, take);
    assert_int_equal(p.by_fig[FIG_KING] & p.by_color[CH_WHITE], 0);

    tu_chess_load(&p, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_int_equal(pseudo_count(&p, MK_EP), 1);
    chess_make(&p, pseudo_move(&p, "e5d6"));
    assert_int_equal(p.board[CH_SQ(3, 4)], 0);        /* the d5 pawn is gone */
    /* Black: h5 rook g5..a5 (a5 takes the King) 7, h6..h8 3, h4..h2 3;
     * King g1 g2 h2 3. */
    assert_int_equal(pseudo_count(&p, -1), 16);

    tu_chess_load(&p, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_int_equal(pseudo_count(&p, MK_CASTLE), 2);
    tu_chess_load(&p, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");  /* through f1 */
    assert_int_equal(pseudo_count(&p, MK_CASTLE), 1);
    tu_chess_load(&p, "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");  /* in check */
    assert_int_equal(pseudo_count(&p, MK_CASTLE), 0);
    /* a1 rook b1..d1 a2..a8 10, h1 rook f1 g1 h2..h8 9, King d1 d2 e2
     * f1 f2 5. */
    assert_int_equal(pseudo_count(&p, -1), 24);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ambi4_pseudo_moves_filter_to_legal),
        cmocka_unit_test(test_ambi4_pseudo_moves_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
