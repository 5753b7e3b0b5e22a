/*
 * test_notation.c -- orthodox move notation (docs/RULES.md, "Notation"):
 * SAN and UCI read through game_play / game_parse, SAN written through
 * game_format and the history, and the messages for input that is not a
 * legal move (syntax, ambiguity, missing promotion piece, illegal move).
 *
 * Invariant: every test drives the public game API (core/game.h) with the
 * registered "orthodox" variant, so it checks what players and scripts see.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../core/game.h"
#include "support/testutil.h"

/* The SAN (FMT_RECORD) and UCI (FMT_MACHINE) of typed text, unplayed. */
static void forms(const Game *g, const char *text, char *san, char *uci)
{
    Action a;
    Error e = {{0}};
    StrBuf b = STRBUF_INIT;
    if (game_parse(g, game_to_act(g), text, &a, &e))
        fail_msg("%s refused: %s", text, e.msg);
    game_format(g, &a, FMT_RECORD, &b);
    strcpy(san, sb_str(&b));
    sb_reset(&b);
    game_format(g, &a, FMT_MACHINE, &b);
    strcpy(uci, sb_str(&b));
    sb_free(&b);
}

/* text is read as the move whose UCI is want_uci and whose SAN is want_san. */
static void assert_reads(const Game *g, const char *text, const char *want_san,
                         const char *want_uci)
{
    char san[64], uci[64];
    forms(g, text, san, uci);
    if (strcmp(san, want_san) || strcmp(uci, want_uci))
        fail_msg("%s read as %s (%s), expected %s (%s)", text, san, uci,
                 want_san, want_uci);
}

/* ---- SAN and UCI in, SAN out ------------------------------------------ */

static void test_notation_pawn_and_piece_moves(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    assert_reads(g, "e4", "e4", "e2e4");
    assert_reads(g, "e2e4", "e4", "e2e4");
    assert_reads(g, "e2-e4", "e4", "e2e4");
    assert_reads(g, "Nf3", "Nf3", "g1f3");
    assert_reads(g, "Ng1f3", "Nf3", "g1f3");
    assert_reads(g, "Ng1-f3", "Nf3", "g1f3");
    assert_reads(g, "g1f3", "Nf3", "g1f3");
    assert_reads(g, "  Nf3!? ", "Nf3", "g1f3");
    assert_reads(g, "Pe4", "e4", "e2e4");
    game_free(g);
}

static void test_notation_captures(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 d5");
    assert_reads(g, "exd5", "exd5", "e4d5");
    assert_reads(g, "ed5", "exd5", "e4d5");
    assert_reads(g, "e4xd5", "exd5", "e4d5");
    assert_reads(g, "e4d5", "exd5", "e4d5");
    game_free(g);
    g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5 Nf3 Nc6");
    /* A capture is written with x, and read with or without it. */
    assert_reads(g, "Nxe5", "Nxe5", "f3e5");
    assert_reads(g, "Ne5", "Nxe5", "f3e5");
    assert_reads(g, "Nf3xe5", "Nxe5", "f3e5");
    assert_reads(g, "N:e5", "Nxe5", "f3e5");
    game_free(g);
}

static void test_notation_disambiguation_by_file(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1");
    assert_reads(g, "Nbd2", "Nbd2", "b1d2");
    assert_reads(g, "Nfd2", "Nfd2", "f1d2");
    assert_reads(g, "Nf1d2", "Nfd2", "f1d2");
    /* Needs no disambiguation: only the b1 knight reaches c3. */
    assert_reads(g, "Nc3", "Nc3", "b1c3");
    assert_reads(g, "Nbc3", "Nc3", "b1c3");
    tu_assert_refused_exactly(g, "Nd2", "Nd2 is ambiguous: Nbd2 or Nfd2");
    game_free(g);
}

static void test_notation_disambiguation_by_rank(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_reads(g, "R1a3", "R1a3", "a1a3");
    assert_reads(g, "R5a3", "R5a3", "a5a3");
    tu_assert_refused_exactly(g, "Ra3", "Ra3 is ambiguous: R1a3 or R5a3");
    /* The file does not tell them apart: "Raa3" is still ambiguous. */
    tu_assert_refused_exactly(g, "Raa3", "Raa3 is ambiguous: R1a3 or R5a3");
    game_free(g);
}

static void test_notation_disambiguation_by_file_and_rank(void **state)
{
    (void)state;
    /* Three queens reach e1: h4 shares a file with h1 and a rank with e4. */
    Game *g = tu_orthodox("K7/8/k7/8/4Q2Q/8/8/4r2Q w - - 0 1");
    assert_reads(g, "Qh4xe1", "Qh4xe1", "h4e1");
    assert_reads(g, "Qh4e1", "Qh4xe1", "h4e1");
    assert_reads(g, "Qexe1", "Qexe1", "e4e1");
    assert_reads(g, "Q1xe1", "Q1xe1", "h1e1");
    tu_assert_refused_exactly(g, "Qxe1",
        "Qxe1 is ambiguous: Q1xe1, Qexe1 or Qh4xe1");
    tu_assert_refused_exactly(g, "Qhxe1",
        "Qhxe1 is ambiguous: Q1xe1 or Qh4xe1");
    tu_assert_refused_exactly(g, "Q4xe1",
        "Q4xe1 is ambiguous: Qexe1 or Qh4xe1");
    game_free(g);
}

/* Lower-case letters are files: "bxc3" is the pawn, "Bxc3" the bishop. */
static void test_notation_b_file_versus_bishop(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/2n5/1P6/4KB2 w - - 0 1");
    tu_play_line(g, "Bd3 Kd8");
    assert_reads(g, "bxc3", "bxc3", "b2c3");
    assert_reads(g, "bc3", "bxc3", "b2c3");
    game_free(g);
    g = tu_orthodox("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1");
    assert_reads(g, "bxc3", "bxc3", "b2c3");
    assert_reads(g, "Bxc3", "Bxc3", "d2c3");
    game_free(g);
}

/* ORTH-3: the en passant capture is written and read like a capture. */
static void test_notation_en_passant(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    tu_play_line(g, "d5");
    assert_reads(g, "exd6", "exd6", "e5d6");
    assert_reads(g, "exd6 e.p.", "exd6", "e5d6");
    assert_reads(g, "exd6e.p.", "exd6", "e5d6");
    assert_reads(g, "exd6ep", "exd6", "e5d6");
    assert_reads(g, "e5d6", "exd6", "e5d6");
    tu_play_line(g, "exd6");
    tu_assert_position(g, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    game_free(g);
}

/* ORTH-4: every promotion spelling; with and without capture. */
static void test_notation_promotion(void **state)
{
    (void)state;
    Game *g = tu_orthodox("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_reads(g, "e8=Q", "e8=Q+", "e7e8q");
    assert_reads(g, "e8Q", "e8=Q+", "e7e8q");
    assert_reads(g, "e8=q", "e8=Q+", "e7e8q");
    assert_reads(g, "e8(Q)", "e8=Q+", "e7e8q");
    assert_reads(g, "e7e8q", "e8=Q+", "e7e8q");
    assert_reads(g, "e7e8Q", "e8=Q+", "e7e8q");
    assert_reads(g, "e8=N", "e8=N", "e7e8n");
    assert_reads(g, "e7e8b", "e8=B", "e7e8b");
    assert_reads(g, "e8=R+", "e8=R+", "e7e8r");
    assert_reads(g, "exd8=Q", "exd8=Q+", "e7d8q");
    assert_reads(g, "ed8N", "exd8=N", "e7d8n");
    assert_reads(g, "e7d8r", "exd8=R+", "e7d8r");
    tu_assert_refused_exactly(g, "e7e8",
        "e7e8: say which piece to promote to, e.g. e7e8q or e8=Q");
    tu_assert_refused_exactly(g, "e8",
        "e8: say which piece to promote to, e.g. e7e8q or e8=Q");
    tu_assert_refused_exactly(g, "exd8",
        "exd8: say which piece to promote to, e.g. e7d8q or exd8=Q");
    tu_assert_refused_exactly(g, "e8=K",
        "e8=K: a pawn promotes to a queen, rook, bishop or knight (Q, R, B or "
        "N)");
    tu_assert_refused_exactly(g, "e7e8k",
        "e7e8k: a pawn promotes to a queen, rook, bishop or knight (q, r, b "
        "or n)");
    tu_assert_refused_exactly(g, "e8q",
        "e8q: write the promotion piece in upper case, e.g. e8=Q or e8Q");
    tu_assert_refused_exactly(g, "exd8b",
        "exd8b: write the promotion piece in upper case, e.g. exd8=B or exd8B");
    tu_assert_refused_exactly(g, "Ke2=Q",
        "Ke2=Q: only a pawn reaching the last rank promotes");
    tu_play_line(g, "exd8=N");
    tu_assert_position(g, "3N2k1/8/8/8/8/8/8/4K3 b - - 0 1");
    game_free(g);
}

/* ORTH-5: both castlings in every accepted spelling, and O-O-O written. */
static void test_notation_castling(void **state)
{
    (void)state;
    Game *g = tu_orthodox("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    assert_reads(g, "O-O", "O-O", "e1g1");
    assert_reads(g, "0-0", "O-O", "e1g1");
    assert_reads(g, "o-o", "O-O", "e1g1");
    assert_reads(g, "e1g1", "O-O", "e1g1");
    assert_reads(g, "Kg1", "O-O", "e1g1");
    assert_reads(g, "e1h1", "O-O", "e1g1"); /* king takes own rook */
    assert_reads(g, "O-O-O", "O-O-O", "e1c1");
    assert_reads(g, "0-0-0", "O-O-O", "e1c1");
    assert_reads(g, "e1c1", "O-O-O", "e1c1");
    assert_reads(g, "e1a1", "O-O-O", "e1c1");
    tu_play_line(g, "O-O-O O-O");
    assert_string_equal(game_history(g, 0)->text, "O-O-O");
    assert_string_equal(game_history(g, 0)->machine, "e1c1");
    assert_string_equal(game_history(g, 1)->text, "O-O");
    assert_string_equal(game_history(g, 1)->machine, "e8g8");
    game_free(g);
}

static void test_notation_check_and_mate_suffixes(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5 Bc4 Nc6 Qh5 Nf6");
    assert_reads(g, "Bxf7", "Bxf7+", "c4f7");
    assert_reads(g, "Qxf7", "Qxf7#", "h5f7");
    assert_reads(g, "Qxf7#", "Qxf7#", "h5f7");
    assert_reads(g, "Qxf7+", "Qxf7#", "h5f7");
    tu_play_line(g, "Qxf7#");
    assert_string_equal(game_history(g, 6)->text, "Qxf7#");
    game_free(g);
}

/* ---- Messages for what is not a legal move ----------------------------- */

static void test_notation_unknown_syntax(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    static const char *const junk[] = {"xyz", "e9", "Nf", "O-O-O-O",
                                       "Zf3", "e2e4e5"};
    for (size_t i = 0; i < ARRAY_LEN(junk); i++) {
        char want[96];
        snprintf(want, sizeof want,
                 "'%s' is not a move: try e4, Nf3, O-O or e2e4", junk[i]);
        tu_assert_refused_exactly(g, junk[i], want);
    }
    game_free(g);
}

/* Lower-case piece letters are not pieces, but the message says so. */
static void test_notation_lower_case_pieces(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_assert_refused_exactly(g, "nf3",
        "'nf3' is not a move: try e4, Nf3, O-O or e2e4 (piece letters are "
        "upper case: did you mean Nf3?)");
    tu_play_line(g, "e4 e5");
    tu_assert_refused_exactly(g, "bc4",
        "bc4: no white pawn can capture on c4 (piece letters are upper case: "
        "did you mean Bc4?)");
    game_free(g);
}

static void test_notation_illegal_moves_explained(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_assert_refused_exactly(g, "Ke2",
        "Ke2: the king on e1 cannot move to e2 (the square is occupied by "
        "your own piece)");
    tu_assert_refused_exactly(g, "e2e5",
        "e2e5: the pawn on e2 cannot move to e5 (a pawn moves one square "
        "forward, or two from its starting rank)");
    tu_assert_refused_exactly(g, "e5",
        "e5: the pawn on e2 cannot move to e5 (a pawn moves one square "
        "forward, or two from its starting rank)");
    tu_assert_refused_exactly(g, "Bc4",
        "Bc4: the bishop on f1 cannot move to c4 (the way is blocked on e2)");
    tu_assert_refused_exactly(g, "Ng3",
        "Ng3: none of white's knights can move to g3");
    tu_assert_refused_exactly(g, "Nd4",
        "Nd4: none of white's knights can move to d4");
    tu_assert_refused_exactly(g, "Ncd4",
        "Ncd4: white has no knight on the c-file");
    tu_assert_refused_exactly(g, "e3e4", "e3e4: there is no piece on e3");
    tu_assert_refused_exactly(g, "e7e5",
        "e7e5: the pawn on e7 is black's, and it is white's move");
    tu_assert_refused_exactly(g, "exd3",
        "exd3: the pawn on e2 cannot move to d3 (there is nothing to capture "
        "on d3)");
    tu_assert_refused_exactly(g, "Qh5",
        "Qh5: the queen on d1 cannot move to h5 (the way is blocked on e2)");
    tu_assert_refused_exactly(g, "O-O",
        "O-O: white cannot castle king-side (the squares between the king and "
        "the rook must be empty, and f1 is not)");
    tu_play_line(g, "e4 e5 Qh5 Nc6");
    /* Pinned piece and king into check (ORTH-6). */
    tu_play_line(g, "Qxf7+");
    tu_assert_refused_exactly(g, "Ke7",
        "Ke7: the king on e8 cannot move to e7 (the king would be in check "
        "there)");
    tu_assert_refused_exactly(g, "Nf6",
        "Nf6: the knight on g8 cannot move to f6 (that would leave your king "
        "in check)");
    game_free(g);
}

/* ORTH-6: in check, only moves that answer it are legal. */
static void test_notation_check_must_be_answered(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/3PP3/r3K3 w - - 0 1");
    tu_assert_refused_exactly(g, "d3",
        "d3: the pawn on d2 cannot move to d3 (that would leave your king in "
        "check)");
    tu_assert_refused(g, "Kd1", "would be in check there");
    tu_play_line(g, "Kf2");
    game_free(g);
}

/* One piece of the kind: the message names it and its way of moving. */
static void test_notation_single_piece_pattern(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/7p/8/8/8/8/8/4K1N1 w - - 0 1");
    tu_assert_refused_exactly(g, "Ng3",
        "Ng3: the knight on g1 cannot move to g3 (a knight jumps two squares "
        "one way and one the other)");
    tu_assert_refused_exactly(g, "Ke3",
        "Ke3: the king on e1 cannot move to e3 (a king moves one square)");
    tu_assert_refused_exactly(g, "Qd1", "Qd1: white has no queen");
    game_free(g);
}

/* The UCI castling convenience only reads "king takes own rook" as
 * castling; a king next to its rook is still refused normally. */
static void test_notation_king_takes_own_rook_only_as_castling(void **state)
{
    (void)state;
    Game *g = tu_orthodox("4k3/8/8/8/8/8/8/4KR2 w - - 0 1");
    tu_assert_refused_exactly(g, "e1f1",
        "e1f1: the king on e1 cannot move to f1 (the square is occupied by "
        "your own piece)");
    game_free(g);
    g = tu_orthodox("4k3/8/8/8/8/8/8/4K2R w - - 0 1"); /* no castling right */
    tu_assert_refused(g, "e1h1", "e1h1: white cannot castle king-side");
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation_pawn_and_piece_moves),
        cmocka_unit_test(test_notation_captures),
        cmocka_unit_test(test_notation_disambiguation_by_file),
        cmocka_unit_test(test_notation_disambiguation_by_rank),
        cmocka_unit_test(test_notation_disambiguation_by_file_and_rank),
        cmocka_unit_test(test_notation_b_file_versus_bishop),
        cmocka_unit_test(test_notation_en_passant),
        cmocka_unit_test(test_notation_promotion),
        cmocka_unit_test(test_notation_castling),
        cmocka_unit_test(test_notation_check_and_mate_suffixes),
        cmocka_unit_test(test_notation_unknown_syntax),
        cmocka_unit_test(test_notation_lower_case_pieces),
        cmocka_unit_test(test_notation_illegal_moves_explained),
        cmocka_unit_test(test_notation_check_must_be_answered),
        cmocka_unit_test(test_notation_single_piece_pattern),
        cmocka_unit_test(test_notation_king_takes_own_rook_only_as_castling),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
