/*
 * test_fen.c -- FEN in and out for the orthodox engine (ORTH-1): valid
 * positions round-trip exactly; every kind of malformed or impossible
 * position is refused with a message naming the problem, and the Position
 * passed in is left untouched.
 *
 * Invariant: each refusal test asserts both the failure and a word of the
 * message, so a wrong reason fails the test too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

static void round_trip(const char *fen, const char *want)
{
    Position p;
    tu_chess_load(&p, fen);
    assert_true(chess_position_ok(&p));
    StrBuf out = STRBUF_INIT;
    chess_to_fen(&p, &out);
    if (strcmp(sb_str(&out), want) != 0)
        fail_msg("FEN %s came back as %s, expected %s", fen, sb_str(&out), want);
    sb_free(&out);
}

/* ORTH-1: standard FEN is written back exactly as read. */
static void test_orth1_fen_round_trips(void **state)
{
    (void)state;
    static const char *const fens[] = {
        TU_FENS_PERFT,
        TU_FEN_POS6,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "4k3/8/8/8/8/8/8/4K2R w K - 150 9999",
        "r3k3/8/8/8/8/8/8/4K3 b q - 3 41",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++)
        round_trip(fens[i], fens[i]);
}

/* Four fields are enough (counters default to 0 1); extra spaces are fine. */
static void test_orth1_fen_short_and_spaced(void **state)
{
    (void)state;
    round_trip("4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    round_trip("  4k3/8/8/8/8/8/8/4K3   b  -  -  5 \n", "4k3/8/8/8/8/8/8/4K3 b - - 5 1");
}

/* FEN after moves: the en passant square follows every double step. */
static void test_orth1_fen_after_moves(void **state)
{
    (void)state;
    Position p;
    chess_startpos(&p);
    Move moves[CH_MAX_MOVES];
    assert_int_equal(chess_legal_moves(&p, moves), 20);
    Move e4 = tu_chess_move(&p, "e2e4");
    assert_int_equal(MOVE_KIND(e4), MK_DOUBLE);
    chess_make(&p, e4);
    StrBuf out = STRBUF_INIT;
    chess_to_fen(&p, &out);
    assert_string_equal(sb_str(&out),
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    sb_free(&out);
}

static void test_orth1_square_and_uci_names(void **state)
{
    (void)state;
    char sq[3], uci[6];
    assert_string_equal(chess_square_name(0, sq), "a1");
    assert_string_equal(chess_square_name(28, sq), "e4");
    assert_string_equal(chess_square_name(63, sq), "h8");
    assert_string_equal(chess_move_uci(MOVE_MAKE(12, 28, MK_DOUBLE), uci), "e2e4");
    assert_string_equal(chess_move_uci(MOVE_MAKE(52, 60, MK_PROMO_Q), uci), "e7e8q");
    assert_string_equal(chess_move_uci(MOVE_MAKE(52, 61, MK_PROMO_N), uci), "e7f8n");
    assert_string_equal(chess_move_uci(MOVE_MAKE(4, 6, MK_CASTLE), uci), "e1g1");
}

typedef struct BadFen {
    const char *fen;
    const char *words[3];   /* each must appear in the message */
} BadFen;

static const BadFen BAD[] = {
    /* shape */
    {"", {"0 fields", NULL}},
    {"8/8/8/8/8/8/8/8", {"1 field;", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w -", {"3 fields", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", {"more than 6 fields", NULL}},
    {"4k3/8/8/8/8/8/4K3 w - - 0 1", {"7 ranks", NULL}},
    {"4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", {"9 ranks", NULL}},
    {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 7", "7 squares", NULL}},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 2", "more than 8", NULL}},
    {"rnbqkbnr/pppppppp/8/8/44/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", {"rank 1", "7 squares", NULL}},
    {"rnbqkbnr/pppppppp/8/8/5/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 4", "5 squares", NULL}},
    {"rnbqkbnr/pppppppp/8/8//8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 4", "0 squares", NULL}},
    {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"'9'", "rank 6", NULL}},
    {"rnbqkbnr/pppppppp/8/8/3X4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"unknown piece letter 'X'", "rank 4", NULL}},
    {"rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"'*'", "rank 4", NULL}},
    /* material */
    {"8/8/8/8/8/8/8/4K3 w - - 0 1", {"Black has no King", NULL}},
    {"4k3/8/8/8/8/8/8/8 w - - 0 1", {"White has no King", NULL}},
    {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", {"White has 2 Kings", NULL}},
    {"4k3/8/8/8/8/8/PPPPPPPP/P3K3 w - - 0 1", {"9 pawns", NULL}},
    {"4k3/8/8/8/NNNNNNNN/NNNNNNN1/8/4K3 w - - 0 1", {"White has 13 promoted", NULL}},
    {"4k3/8/8/8/8/QQQ5/PPPPPPPP/4K3 w - - 0 1", {"promoted", NULL}},
    {"4k3/pppppppp/pppppppp/8/8/8/8/4K3 w - - 0 1", {"16 pawns", NULL}},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ", {NULL}},  /* valid: control */
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", {"pawn on h8", "rank", NULL}},
    {"4k3/8/8/8/8/8/8/p3K3 b - - 0 1", {"pawn on a1", "rank", NULL}},
    /* side, castling */
    {"4k3/8/8/8/8/8/8/4K3 x - - 0 1", {"side to move", "'w' or 'b'", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 white - - 0 1", {"side to move", NULL}},
    {"r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", {"'K'", "h1", NULL}},
    {"r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1", {"'Q'", "a1", NULL}},
    {"r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"'k'", "h8", NULL}},
    {"4k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"'q'", "a8", NULL}},
    {"r3k2r/8/8/8/8/8/8/R4K1R w KQ - 0 1", {"'K'", "King on e1", NULL}},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", {"castling", "KQkq", NULL}},
    {"r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", {"'K'", "twice", NULL}},
    /* en passant */
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", {"e4", "wrong rank", NULL}},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e6 0 1", {"e6", "wrong rank", NULL}},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq d3 0 1", {"d3", "no White pawn on d4", NULL}},
    {"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", {"e3", "empty", NULL}},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1", {"e3", "e2", "empty"}},
    {"4k3/8/8/8/4P3/8/8/4K3 b - e9 0 1", {"en passant", "e9", NULL}},
    {"4k3/8/8/8/4P3/8/8/4K3 b - 3e 0 1", {"en passant", "3e", NULL}},
    /* check */
    {"4k3/8/8/8/8/8/8/4K2r b - - 0 1", {"White is in check", "not to move", NULL}},
    {"4k2R/8/8/8/8/8/8/4K3 w - - 0 1", {"Black is in check", "not to move", NULL}},
    {"4k3/8/8/8/1b6/8/8/r3K2q w - - 0 1", {"more than two", NULL}},
    /* counters */
    {"4k3/8/8/8/8/8/8/4K3 w - - -1 1", {"halfmove", "-1", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - x 1", {"halfmove", "\"x\"", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 151 80", {"halfmove", "151", "out of range"}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 99999999999999999999 1", {"halfmove", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 0", {"fullmove", "0", "out of range"}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 1x", {"fullmove", "1x", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 -4", {"fullmove", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 +4", {"fullmove", NULL}},
    {"4k3/8/8/8/8/8/8/4K3 w - - 0 100000", {"fullmove", NULL}},
};

/* ORTH-1: each malformed or impossible FEN is refused, says why, and the
 * position passed in stays as it was. */
static void test_orth1_fen_refusals(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        Position p, before;
        chess_startpos(&p);
        before = p;
        Error e = {{0}};
        int rc = chess_from_fen(&p, BAD[i].fen, &e);
        if (!BAD[i].words[0]) {       /* the control case */
            assert_int_equal(rc, 0);
            continue;
        }
        if (rc != -1)
            fail_msg("accepted bad FEN \"%s\"", BAD[i].fen);
        if (memcmp(&p, &before, sizeof p) != 0)
            fail_msg("refusing \"%s\" changed the position", BAD[i].fen);
        for (int w = 0; w < 3 && BAD[i].words[w]; w++)
            if (!strstr(e.msg, BAD[i].words[w]))
                fail_msg("FEN \"%s\": message \"%s\" does not mention %s", BAD[i].fen, e.msg,
                         BAD[i].words[w]);
    }
}

static void test_orth1_fen_null_and_long(void **state)
{
    (void)state;
    Position p;
    Error e = {{0}};
    assert_int_equal(chess_from_fen(&p, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "no FEN"));
    char big[400];
    memset(big, '8', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(chess_from_fen(&p, big, &e), -1);
    assert_non_null(strstr(e.msg, "long"));
    /* NULL error object: refusing must still work. */
    assert_int_equal(chess_from_fen(&p, "junk", NULL), -1);
}

/* Mutated FENs never crash: each is either refused with a message and the
 * position untouched, or accepted as a consistent position that writes
 * back to a FEN reading as the same position. */
static void test_orth1_fen_mutations(void **state)
{
    (void)state;
    static const char *const seeds[] = {
        TU_FEN_START,
        TU_FEN_KIWIPETE,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2",
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",
    };
    static const char alphabet[] = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0369x";
    Rng rng;
    rng_seed(&rng, 2024);
    int accepted = 0, refused = 0;
    for (int round = 0; round < 20000; round++) {
        char fen[128];
        snprintf(fen, sizeof fen, "%s", seeds[rng_below(&rng, ARRAY_LEN(seeds))]);
        int edits = 1 + (int)rng_below(&rng, 3);
        for (int k = 0; k < edits; k++) {
            size_t len = strlen(fen);
            size_t at = rng_below(&rng, (uint32_t)len);
            char c = alphabet[rng_below(&rng, sizeof alphabet - 1)];
            switch (rng_below(&rng, 3)) {
            case 0: fen[at] = c; break;                                   /* replace */
            case 1: memmove(fen + at, fen + at + 1, len - at); break;     /* delete */
            default:                                                      /* insert */
                if (len + 2 < sizeof fen) {
                    memmove(fen + at + 1, fen + at, len - at + 1);
                    fen[at] = c;
                }
            }
        }
        Position p, before;
        chess_startpos(&p);
        before = p;
        Error e = {{0}};
        if (chess_from_fen(&p, fen, &e) != 0) {
            if (!e.msg[0] || memcmp(&p, &before, sizeof p) != 0)
                fail_msg("bad refusal of \"%s\": \"%s\"", fen, e.msg);
            refused++;
            continue;
        }
        accepted++;
        if (!chess_position_ok(&p))
            fail_msg("accepted inconsistent \"%s\"", fen);
        StrBuf out = STRBUF_INIT;
        chess_to_fen(&p, &out);
        Position q;
        if (chess_from_fen(&q, sb_str(&out), &e) != 0 || memcmp(&p, &q, sizeof p) != 0)
            fail_msg("\"%s\" wrote back as \"%s\", which reads differently", fen, sb_str(&out));
        sb_free(&out);
        Move moves[CH_MAX_MOVES];
        assert_in_range(chess_legal_moves(&p, moves), 0, CH_MAX_MOVES);
    }
    assert_true(accepted > 100);
    assert_true(refused > 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orth1_fen_round_trips),
        cmocka_unit_test(test_orth1_fen_short_and_spaced),
        cmocka_unit_test(test_orth1_fen_after_moves),
        cmocka_unit_test(test_orth1_square_and_uci_names),
        cmocka_unit_test(test_orth1_fen_refusals),
        cmocka_unit_test(test_orth1_fen_null_and_long),
        cmocka_unit_test(test_orth1_fen_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
