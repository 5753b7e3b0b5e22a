/*
 * test_fairy.c -- "Chess from parts", the fairy variant (issue 24,
 * docs/FAIRY.md, PART-1 .. PART-10): without a rule set its perft equals
 * the orthodox engine's on the perft suite, the wiki positions and
 * positions of random games; each key of the rule-set text changes what
 * it says on a small position; the lichess variants written as rule sets
 * give the counts chessops (lichess's rules library) gives, and the large
 * boards Fairy-Stockfish's; bad rule sets and bad positions are refused
 * with messages that name the line, the key, the rank or the letter.
 *
 * Invariant: counts written here were computed by chessops 0.15 or are
 * Fairy-Stockfish's published ones (its tests/perft.sh); the live
 * comparison with both is test_fairy_oracle.c's.
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
#include "../variants/fairy/fairy.h"
#include "support/testutil.h"

/* ---- Rule sets of the lichess variants (FAIRY-DESIGN, docs/FAIRY.md) ------ */
#define RS_ATOMIC "captures = explode\n"
#define RS_ANTICHESS                                                                     \
    "royal = none\ncastling = none\nforced_capture = yes\nstalemate = win\n"            \
    "no_pieces = win\npromotion = QRBNK\n"
#define RS_CRAZYHOUSE "hands = yes\n"
#define RS_HORDE                                                                         \
    "double_step = 1 2\nen_passant = 2\n"                                                \
    "start = rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1\n"
#define RS_KOTH "goal = K d4 e4 d5 e5\n"
#define RS_RACING                                                                        \
    "give_check = no\ngoal = K rank 8\ngoal_reply = yes\ncastling = none\n"             \
    "start = 8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1\n"
#define RS_THREE_CHECK "checks = 3\n"
#define RS_CAPABLANCA                                                                    \
    "name = Capablanca chess\nboard = 10x8\npiece = A archbishop BN 8\n"                \
    "piece = C chancellor RN 9\ncastling = c i\npromotion = QRBNAC\n"                   \
    "start = rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1\n"
#define RS_GRAND                                                                         \
    "name = Grand chess\nboard = 10x10\npiece = C marshal RN 9\n"                       \
    "piece = A cardinal BN 8\ncastling = none\ndouble_step = 3\n"                       \
    "promotion = QRBNCA\npromotion_ranks = 8 9 10\n"                                    \
    "promotion_limit = Q1 R2 B2 N2 C1 A1\n"                                             \
    "start = r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1\n"

static const VariantOps *fairy(void) { return tu_variant("fairy"); }

/* A fairy game of ruleset (NULL: none) from fen (NULL: its start); fails
 * the test with the message when it cannot start. */
static Game *fg(const char *ruleset, const char *fen)
{
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = fairy();
    c.ruleset = ruleset;
    c.position = fen;
    Error e;
    e.msg[0] = '\0';
    Game *g = game_new(&c, &e);
    if (!g)
        fail_msg("fairy game (%s) refused: %s", fen ? fen : "start", e.msg);
    return g;
}

/* Starting it must fail with a message holding each of the words. */
static void fg_refused(const char *ruleset, const char *fen, const char *want,
                       const char *want2)
{
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = fairy();
    c.ruleset = ruleset;
    c.position = fen;
    Error e;
    e.msg[0] = '\0';
    Game *g = game_new(&c, &e);
    if (g) {
        game_free(g);
        fail_msg("accepted: rule set '%s', position '%s'", ruleset ? ruleset : "",
                 fen ? fen : "");
    }
    if (!strstr(e.msg, want) || (want2 && !strstr(e.msg, want2)))
        fail_msg("the message '%s' lacks '%s'%s%s", e.msg, want, want2 ? " or " : "",
                 want2 ? want2 : "");
}

static uint64_t fperft(const char *ruleset, const char *fen, int depth)
{
    Game *g = fg(ruleset, fen);
    uint64_t n = game_perft(g, depth);
    game_free(g);
    return n;
}

static uint64_t orth_perft(const char *fen, int depth)
{
    Game *g = tu_orthodox(fen);
    uint64_t n = game_perft(g, depth);
    game_free(g);
    return n;
}

/* ---- Without a rule set: orthodox chess (PART-1..10 defaults) ---------------- */

/* issue 24: the wiki's positions, the fairy engine's count = the orthodox one's. */
static void test_issue24_default_perft_equals_orthodox(void **state)
{
    (void)state;
    static const char *const FENS[] = {TU_FENS_PERFT, TU_FEN_POS6};
    const int deep = TU_SANITIZED ? 3 : 4;
    for (size_t i = 0; i < ARRAY_LEN(FENS); i++)
        for (int d = 1; d <= deep; d++) {
            uint64_t want = orth_perft(FENS[i], d), got = fperft(NULL, FENS[i], d);
            if (got != want)
                fail_msg("%s depth %d: fairy %" PRIu64 ", orthodox %" PRIu64, FENS[i], d, got,
                         want);
        }
    if (!TU_SANITIZED)
        assert_int_equal(fperft(NULL, NULL, 5), 4865609);
}

static void check_suite_line(const TuEpd *e, void *ud)
{
    int *n = ud;
    for (int i = 0; i < e->ndepths; i++)
        if (e->depth[i] <= (TU_SANITIZED ? 2 : 3)) {
            uint64_t got = fperft(NULL, e->pos, e->depth[i]);
            if (got != e->count[i])
                fail_msg("perftsuite.epd line %d (%s) depth %d: fairy %" PRIu64
                         ", expected %" PRIu64, e->lineno, e->pos, e->depth[i], got,
                         e->count[i]);
            (*n)++;
        }
}

/* issue 24: every position of the orthodox perft suite. */
static void test_issue24_default_perftsuite(void **state)
{
    (void)state;
    int checked = 0;
    assert_int_equal(tu_epd_each(TU_PERFTSUITE, check_suite_line, &checked), 126);
    assert_true(checked >= 126 * 2);
}

/* issue 24: positions of random orthodox games, depth 3 (2 sanitized); the
 * fast perft and the generic one (legal + apply) agree too. */
static void test_issue24_default_random_games(void **state)
{
    (void)state;
    const int games = TU_SANITIZED ? 3 : 12;
    Rng rng;
    rng_seed(&rng, 24);
    for (int gi = 0; gi < games; gi++) {
        Game *g = tu_orthodox(NULL);
        int plies = 10 + (int)rng_below(&rng, 70);
        for (int p = 0; p < plies && game_to_act(g) >= 0; p++) {
            ActionList l = ACTIONLIST_INIT;
            assert_int_equal(game_legal_play(g, &l), 0);
            if (l.n == 0) {
                al_free(&l);
                break;
            }
            Error e;
            assert_int_equal(game_apply(g, &l.v[rng_below(&rng, (uint32_t)l.n)], &e), 0);
            al_free(&l);
        }
        char *fen = tu_position(g);
        int d = TU_SANITIZED ? 2 : 3;
        uint64_t want = game_perft(g, d);
        Game *f = fg(NULL, fen);
        uint64_t got = game_perft(f, d), generic = game_perft_generic(f, 2);
        if (got != want || generic != game_perft(g, 2))
            fail_msg("%s: fairy %" PRIu64 " (generic d2 %" PRIu64 "), orthodox %" PRIu64, fen,
                     got, generic, want);
        /* the position string reads back as it was written */
        char *again = tu_position(f);
        assert_string_equal(again, fen);
        free(again);
        free(fen);
        game_free(f);
        game_free(g);
    }
}

/* issue 24: the texts a person types (SAN, UCI, castling) and the records. */
static void test_issue24_default_notation(void **state)
{
    (void)state;
    Game *g = fg(NULL, NULL);
    tu_play_line(g, "e4 e5 Nf3 Nc6 Bc4 Bc5 O-O d6");
    assert_int_equal(game_history_len(g), 8);
    assert_string_equal(game_history(g, 6)->text, "O-O");
    assert_string_equal(game_history(g, 6)->machine, "e1g1");
    tu_assert_position(g, "r1bqk1nr/ppp2ppp/2np4/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 5");
    tu_assert_refused(g, "Nd5", "not a legal move");
    tu_assert_refused(g, "e3e4", "no piece on e3");
    tu_assert_refused(g, "e5e6", "black's");
    tu_assert_refused(g, "a2a5", "the pawn on a2 cannot go to a5");
    game_free(g);
    /* disambiguation, promotion, check and mate signs */
    g = fg(NULL, "k6K/4P3/8/8/8/8/8/1R4R1 w - - 0 1");
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    int rooks_to_d1 = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf s = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_RECORD, &s);
        rooks_to_d1 += !strcmp(sb_str(&s), "Rbd1") || !strcmp(sb_str(&s), "Rgd1");
        sb_free(&s);
    }
    al_free(&l);
    assert_int_equal(rooks_to_d1, 2);
    tu_assert_refused(g, "Rd1", "ambiguous");
    tu_assert_refused(g, "e7e8", "say what the pawn becomes");
    tu_play(g, 0, "e8=Q+");
    assert_string_equal(game_history(g, 0)->text, "e8=Q+");
    tu_play(g, 1, "Ka7");
    game_free(g);
    g = fg(NULL, "k7/8/1K6/8/8/8/8/7R w - - 0 1");
    tu_play(g, 0, "Rh8#");
    assert_string_equal(game_history(g, 0)->text, "Rh8#");
    tu_assert_over(g, "1-0", "checkmate");
    game_free(g);
}

/* ---- Each key (PART-1 .. PART-10) --------------------------------------------- */

/* PART-1: a 10x8 board with Capablanca's pieces (Fairy-Stockfish's counts),
 * and a 10x10 one (Grand chess). */
static void test_part1_large_boards(void **state)
{
    (void)state;
    static const uint64_t CAPA[] = {28, 784, 25228, 805128};
    for (int d = 1; d <= (TU_SANITIZED ? 3 : 4); d++)
        assert_int_equal(fperft(RS_CAPABLANCA, NULL, d), CAPA[d - 1]);
    static const uint64_t GRAND[] = {65, 4225, 259514};
    for (int d = 1; d <= (TU_SANITIZED ? 2 : 3); d++)
        assert_int_equal(fperft(RS_GRAND, NULL, d), GRAND[d - 1]);
    Game *g = fg(RS_CAPABLANCA, NULL);
    View v;
    assert_int_equal(game_view(g, 0, &v), 0);
    assert_int_equal(v.geo.width, 10);
    assert_int_equal(v.geo.height, 8);
    assert_int_equal(v.npieces, 40);
    assert_non_null(strstr(v.info, "A archbishop (BN)"));
    assert_non_null(strstr(v.info, "C chancellor (RN)"));
    assert_non_null(strstr(v.info, "Capablanca chess"));
    int archbishops = 0;
    for (int i = 0; i < v.npieces; i++)
        archbishops += v.pieces[i].figure == FIG_LETTERED('A');
    assert_int_equal(archbishops, 2);
    /* Capablanca's castling (c i): the king f1 to i1, the rook j1 to h1 */
    tu_play_line(g, "Nj3 Nj6 h3 h6 Bh2 Bh7 Ci3 Ci6");
    tu_play(g, 0, "O-O");
    assert_string_equal(game_history(g, 8)->machine, "f1i1");
    char *pos = tu_position(g);
    assert_non_null(strstr(pos, "/RNABQ2RK1 b kq "));
    free(pos);
    game_free(g);
}

/* PART-1, PART-2: a 16x16 board with a new piece (the amazon, QN): its 67
 * moves from h8 and the king's 5; squares of two digits in both notations;
 * the position string reads back. */
static void test_part2_new_piece_on_16x16(void **state)
{
    (void)state;
    const char *rs = "board = 16x16\npiece = A amazon QN 12\nnopiece = Q\n"
                     "promotion = RBNA\ncastling = none\n";
    const char *fen = "16/15k/16/16/16/16/16/16/7A8/16/16/16/16/16/K15/16 w - - 0 1";
    assert_int_equal(fperft(rs, fen, 1), 72);
    Game *g = fg(rs, fen);
    char *pos = tu_position(g);
    assert_string_equal(pos, fen);
    free(pos);
    tu_play(g, 0, "Ah16");
    assert_string_equal(game_history(g, 0)->machine, "h8h16");
    assert_string_equal(game_history(g, 0)->text, "Ah16");
    tu_play(g, 1, "p15o14");
    tu_play(g, 0, "h16i14");
    assert_string_equal(game_history(g, 2)->text, "Ai14+");
    tu_assert_position(g, "16/16/8A5k1/" "16/16/16/16/16/16/16/16/16/16/16/" "K15/16 b - - 3 2");
    game_free(g);
    /* a 16-rank pawn promotes on rank 16 (a15a16a) */
    g = fg(rs, "16/P15/16/16/16/16/16/16/16/16/16/16/16/16/16/K14k w - - 0 1");
    assert_int_equal(game_history_len(g), 0);
    assert_true(tu_is_legal(g, "a15a16a"));
    assert_false(tu_is_legal(g, "a15a16q"));
    tu_play(g, 0, "a16=A");
    game_free(g);
}

/* PART-2: a piece replaced and a piece removed change the moves. */
static void test_part2_piece_and_nopiece(void **state)
{
    (void)state;
    /* the knight of b1 as a nightrider: a3, c3 d5 e7, d2 f3 h4 */
    const char *fen = "4k3/p7/8/8/8/8/7P/1N2K3 w - - 0 1";
    assert_int_equal(fperft(NULL, fen, 1), 3 + 5 + 2);
    assert_int_equal(fperft("piece = N nightrider NN 5\n", fen, 1), 7 + 5 + 2);
    fg_refused("nopiece = N\n", NULL, "start", "P N B R Q K");
    fg_refused("nopiece = N\n", fen, "no piece 'N'", NULL);
}

/* PART-2: a square two of a piece's atoms reach is one move, as
 * Fairy-Stockfish counts it: the maharajah (QNAD) on a1 has 23 (its D and A
 * leaps land on its queen's lines), the king on h2 5; ffish says 28. */
static void test_part2_overlapping_atoms_move_once(void **state)
{
    (void)state;
    assert_int_equal(fperft("piece = M maharajah QNAD 12\n", "8/8/6k1/8/8/8/7K/M7 w - - 0 1", 1),
                     23 + 5);
    /* the knight's leap and the nightrider's first step: one move each */
    assert_int_equal(fperft("piece = N nnn NNN 5\n", "4k3/p7/8/8/8/8/7P/1N2K3 w - - 0 1", 1),
                     fperft("piece = N nightrider NN 5\n", "4k3/p7/8/8/8/8/7P/1N2K3 w - - 0 1", 1));
}

/* PART-3: double steps, en passant, promotion choices and limits. */
static void test_part3_pawn_keys(void **state)
{
    (void)state;
    assert_int_equal(fperft("double_step = none\n", NULL, 1), 12);
    const char *ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    assert_int_equal(fperft(NULL, ep, 1), 5 + 2 + 0);
    assert_int_equal(fperft("en_passant = no\n", ep, 1), 5 + 1);
    const char *promo = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_int_equal(fperft(NULL, promo, 1), 5 + 4);
    assert_int_equal(fperft("promotion = Q\n", promo, 1), 5 + 1);
    /* promotion on the 7th rank allowed, not forced: a6a7 and its 4 */
    const char *six = "4k3/8/P7/8/8/8/8/4K3 w - - 0 1";
    assert_int_equal(fperft("promotion_ranks = 7 8\n", six, 1), 5 + 5);
    /* a queen already on the board: no second one (Grand chess) */
    assert_int_equal(fperft("promotion_limit = Q1\n", "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", 1),
                     fperft(NULL, "4k3/P7/8/8/8/8/8/Q3K3 w - - 0 1", 1) - 1);
}

/* PART-2: Betza's i on a piece that is not a pawn -- the move is allowed
 * only from its side's double_step ranks (docs/FAIRY.md's reading of "its
 * first move"), for moving, capturing and attacking alike. */
static void test_part2_initial_move_of_a_piece(void **state)
{
    (void)state;
    const char *rs = "piece = A archer WiD 3\n";
    /* from b2 (white's double-step rank) it also leaps two: b4, d2 */
    Game *g = fg(rs, "4k3/8/8/8/8/8/1A6/4K3 w - - 0 1");
    assert_true(tu_is_legal(g, "b2b4"));
    assert_true(tu_is_legal(g, "b2d2"));
    assert_int_equal(tu_legal_count(g, 0, ACT_MOVE), 5 + 6);
    game_free(g);
    /* from b3 only its wazir steps */
    g = fg(rs, "4k3/8/8/8/8/1A6/8/4K3 w - - 0 1");
    assert_false(tu_is_legal(g, "b3b5"));
    assert_false(tu_is_legal(g, "b3d3"));
    assert_int_equal(tu_legal_count(g, 0, ACT_MOVE), 5 + 4);
    game_free(g);
    /* black's from its own double-step rank, the 7th */
    g = fg(rs, "4k3/1a6/8/8/8/8/8/4K3 b - - 0 1");
    assert_true(tu_is_legal(g, "b7b5"));
    assert_true(tu_is_legal(g, "b7d7"));
    game_free(g);
    /* it captures so, and gives check so: the black king on b4 is in
     * check from b2 (the pawn h7 may not move); one on b5 not from b3 */
    g = fg(rs, "4k3/8/8/8/1p6/8/1A6/4K3 w - - 0 1");
    assert_true(tu_is_legal(g, "b2b4"));
    game_free(g);
    g = fg(rs, "8/7p/8/8/1k6/8/1A6/4K3 b - - 0 1");
    assert_false(tu_is_legal(g, "h7h6"));
    game_free(g);
    g = fg(rs, "8/7p/8/1k6/8/1A6/8/4K3 b - - 0 1");
    assert_true(tu_is_legal(g, "h7h6"));
    game_free(g);
    /* no double-step rank: never */
    g = fg("piece = A archer WiD 3\ndouble_step = none\n", "4k3/8/8/8/8/8/1A6/4K3 w - - 0 1");
    assert_false(tu_is_legal(g, "b2b4"));
    assert_int_equal(tu_legal_count(g, 0, ACT_MOVE), 5 + 4);
    game_free(g);
}

/* PART-3: en_passant = RANKS -- only double steps from those (white's)
 * ranks may be taken en passant: lichess's horde, where a pawn that steps
 * two from the first rank never is (chessops sets no square for it). */
static void test_part3_en_passant_ranks(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/8/8/3p4/8/2P1K3 w - - 0 1";
    Game *g = fg("double_step = 1 2\n", fen);
    tu_play(g, 0, "c1c3");
    tu_assert_position(g, "4k3/8/8/8/8/2Pp4/8/4K3 b - c2 0 1");
    tu_play(g, 1, "dxc2");
    game_free(g);
    g = fg("double_step = 1 2\nen_passant = 2\n", fen);
    tu_play(g, 0, "c1c3");
    tu_assert_position(g, "4k3/8/8/8/8/2Pp4/8/4K3 b - - 0 1");
    tu_assert_refused(g, "dxc2", "not a legal move");
    game_free(g);
    /* from rank 2 it still is; black's ranks are white's mirrored */
    g = fg("double_step = 1 2\nen_passant = 2\n", "4k3/2p5/8/3P4/3p4/8/2P5/4K3 w - - 0 1");
    tu_play(g, 0, "c2c4");
    tu_play(g, 1, "dxc3");
    tu_play(g, 0, "Kf2");
    tu_play(g, 1, "c7c5");
    tu_play(g, 0, "dxc6");
    game_free(g);
    /* a position string's square for a step the rule set does not count */
    g = fg("double_step = 1 2\nen_passant = 2\n", "4k3/8/8/8/8/2Pp4/8/4K3 b - c2 0 1");
    tu_assert_position(g, "4k3/8/8/8/8/2Pp4/8/4K3 b - - 0 1");
    game_free(g);
    /* lichess's horde-en-passant position (chessops: 13, 172) */
    const char *horde = "k7/5p2/4p2P/3p2P1/2p2P2/1p2P2P/p2P2P1/2P2P2 w - - 0 1";
    assert_int_equal(fperft(RS_HORDE, horde, 1), 13);
    assert_int_equal(fperft(RS_HORDE, horde, 2), 172);
    assert_int_equal(fperft("double_step = 1 2\n", horde, 2), 173);
}

/* PART-4: castling = none, and the rights of the position string. */
static void test_part4_castling(void **state)
{
    (void)state;
    const char *fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_int_equal(fperft(NULL, fen, 1), 26);
    assert_int_equal(fperft("castling = none\n", fen, 1), 24);
    /* a rook on the b file: written by its file letter */
    Game *g = fg(NULL, "1r2k2r/8/8/8/8/8/8/1R2K2R w KBkb - 0 1");
    char *pos = tu_position(g);
    assert_string_equal(pos, "1r2k2r/8/8/8/8/8/8/1R2K2R w KQkq - 0 1");
    free(pos);
    tu_play(g, 0, "O-O-O");
    tu_assert_position(g, "1r2k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    game_free(g);
    fg_refused(NULL, "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling K", "no white rook");
}

/* PART-4: castling by Chess960's rules -- king and rook on any files
 * (KQkq the outermost rook, or file letters), every square between each
 * and its destination empty but for the two, the king's path not
 * attacked; the move is the king's (g1g1 where it stays; the king onto
 * its rook where it steps one file, so it never reads as its plain step).
 * Counts by chessops (lichess's rules library). */
static void test_part4_castling_chess960(void **state)
{
    (void)state;
    static const struct { const char *ruleset, *fen; uint64_t n[3]; } CASES[] = {
        {NULL, "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1", {24, 479, 10954}},
        {NULL, "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", {24, 479, 11099}},
        {NULL, "2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1", {22, 501, 11459}},
        {NULL, "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", {14, 47, 781}},
        {NULL, "r3k1r1/8/8/8/8/8/8/1RK4R w KQq - 0 1", {24, 537, 12799}},
        {NULL, "nrkrbbqn/pppppppp/8/8/8/8/PPPPPPPP/NRKRBBQN w KQkq - 0 1", {18, 324, 6674}},
        /* lichess's atomic960-castle-1: the king stays on g1 */
        {RS_ATOMIC, "8/8/8/8/8/8/2k5/rR4KR w KQ - 0 1", {18, 180, 4364}},
    };
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++)
        for (int d = 1; d <= 3; d++) {
            uint64_t n = fperft(CASES[i].ruleset, CASES[i].fen, d);
            if (n != CASES[i].n[d - 1])
                fail_msg("%s depth %d: %" PRIu64 ", chessops %" PRIu64, CASES[i].fen, d, n,
                         CASES[i].n[d - 1]);
        }
    /* the king stays on g1, the rook h1 goes to f1 */
    Game *g = fg(NULL, "1r4kr/8/8/8/8/8/8/1R4KR w KQkq - 0 1");
    tu_play(g, 0, "O-O");
    assert_string_equal(game_history(g, 0)->machine, "g1g1");
    tu_assert_position(g, "1r4kr/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    tu_play(g, 1, "g8g8");
    assert_string_equal(game_history(g, 1)->text, "O-O");
    tu_assert_position(g, "1r3rk1/8/8/8/8/8/8/1R3RK1 w - - 2 2");
    game_free(g);
    /* the king b1 steps to c1 when it castles: b1c1 is its plain step,
     * b1a1 the castling */
    g = fg(NULL, "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1");
    tu_play(g, 0, "b1a1");
    assert_string_equal(game_history(g, 0)->text, "O-O-O");
    assert_string_equal(game_history(g, 0)->machine, "b1a1");
    tu_assert_position(g, "rk5r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    tu_play(g, 1, "b8c8");
    assert_string_equal(game_history(g, 1)->text, "Kc8");
    game_free(g);
    /* the king's path attacked (d1 by the rook d8): no O-O-O from f1 */
    g = fg(NULL, "3rk3/8/8/8/8/8/8/R4K2 w Q - 0 1");
    tu_assert_refused(g, "O-O-O", "castling is not allowed here");
    game_free(g);
    /* a piece between the rook and its square: no castling either */
    g = fg(NULL, "4k3/8/8/8/8/8/8/1R1N2K1 w Q - 0 1");
    tu_assert_refused(g, "O-O-O", "castling is not allowed here");
    game_free(g);
}

/* PART-5: royal pieces without the check rule (captured to lose), and no
 * royal piece at all (antichess's King). */
static void test_part5_royal_and_check(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1";
    assert_int_equal(fperft(NULL, fen, 1), 3); /* Kxe2, Kd1, Kf1 */
    assert_int_equal(fperft("check = no\n", fen, 1), 5);
    /* a king left attacked is captured, and that ends the game */
    Game *g = fg("check = no\n", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1");
    tu_play(g, 1, "Rxe1");
    tu_assert_over(g, "0-1", "white's royal piece captured");
    game_free(g);
    /* without the check rule a mate is no end: the king steps into check */
    g = fg("check = no\n", "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    tu_assert_going_on(g);
    assert_int_equal(tu_legal_count(g, 1, ACT_MOVE), 3);
    game_free(g);
    g = fg(NULL, "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1");
    tu_assert_over(g, "1-0", "checkmate");
    game_free(g);
    /* royal = none: the king is a piece like another */
    assert_int_equal(fperft("royal = none\ncastling = none\n", fen, 1), 5);
}

/* PART-6: drops from the hand (crazyhouse), pawns not on the first and last
 * rank, captured promoted pieces back as pawns (chessops's counts). */
static void test_part6_hands(void **state)
{
    (void)state;
    assert_int_equal(fperft(RS_CRAZYHOUSE, "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1", 2),
                     75353);
    assert_int_equal(fperft(RS_CRAZYHOUSE, "r1bqk2r/pppp1ppp/2n5/2b1p3/2B1P1n1/3P1N2/PPP2PPP/"
                                           "RNBQK2R[Pp] w KQkq - 0 6", 2),
                     4219);
    /* a king and a pawn in hand: 5 king moves, 48 pawn drops (ranks 2..7) */
    assert_int_equal(fperft(RS_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", 1), 5 + 48);
    assert_int_equal(fperft(RS_CRAZYHOUSE "pawn_drop_ranks = 2\n",
                            "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1", 1),
                     5 + 8);
    /* the promoted queen, captured, goes to the hand as a pawn */
    Game *g = fg(RS_CRAZYHOUSE, "r3k3/1P6/8/8/8/8/8/4K3[] w - - 0 1");
    tu_play(g, 0, "b8=Q+");
    tu_assert_position(g, "rQ~2k3/8/8/8/8/8/8/4K3[] b - - 0 1");
    tu_play(g, 1, "Rxb8");
    tu_assert_position(g, "1r2k3/8/8/8/8/8/8/4K3[p] w - - 0 2");
    View v;
    assert_int_equal(game_view(g, 0, &v), 0);
    assert_int_equal(v.nhand, 1);
    assert_int_equal(v.hand[0].side, 1);
    assert_int_equal(v.hand[0].figure, FIG_PAWN);
    assert_int_equal(v.hand[0].count, 1);
    tu_play(g, 0, "Kd2");
    tu_assert_refused(g, "P@a1", "drop"); /* not on black's last rank */
    tu_play(g, 1, "P@d3");
    assert_string_equal(game_history(g, 3)->text, "P@d3");
    game_free(g);
    /* the lichess form of the hand: an extra rank */
    g = fg(RS_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3/Qn w - - 0 1");
    tu_assert_position(g, "4k3/8/8/8/8/8/8/4K3[Qn] w - - 0 1");
    game_free(g);
}

/* PART-7: atomic, as lichess (issue 24's position: 5 moves, where the
 * check rule of orthodox chess gives 4). */
static void test_part7_atomic(void **state)
{
    (void)state;
    const char *issue = "4k3/3p4/8/8/B7/8/8/r3K3 w - - 0 1";
    assert_int_equal(orth_perft(issue, 1), 4);
    assert_int_equal(fperft(RS_ATOMIC, issue, 1), 5);
    assert_int_equal(fperft(RS_ATOMIC, NULL, 4), 197326);
    assert_int_equal(fperft(RS_ATOMIC, "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/"
                                       "R2QKB1R b KQkq - 0 1", 3),
                     45237);
    /* kings side by side: no check; the blast takes the king: a win */
    Game *g = fg(RS_ATOMIC, "8/8/8/8/8/3k4/3K4/8 w - - 0 1");
    assert_true(tu_legal_count(g, 0, ACT_MOVE) > 0);
    game_free(g);
    g = fg(RS_ATOMIC, "4k3/4q3/8/8/8/8/4R3/4K3 w - - 0 1");
    tu_play(g, 0, "Rxe7");
    tu_assert_over(g, "1-0", "black's royal piece blown up");
    game_free(g);
    /* a capture next to the own king is illegal; the king never captures */
    g = fg(RS_ATOMIC, "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    tu_assert_refused(g, "Kxd2", NULL);
    game_free(g);
    /* a position string without black's King: it was blown up (chessops
     * reads it so: perft 0), while horde's White plays without one */
    g = fg(RS_ATOMIC, "r4bnr/p7/b4p2/7p/1pP3pP/N4P2/PP2PNP1/R3KB1R b KQ - 0 14");
    tu_assert_over(g, "1-0", "black's royal piece blown up");
    assert_int_equal(game_perft(g, 1), 0);
    game_free(g);
    g = fg(RS_HORDE, "4k3/8/8/8/8/8/8/P7 w - - 0 1");
    tu_assert_going_on(g);
    game_free(g);
    fg_refused(RS_ATOMIC "explode_immune = X\n", NULL, "line 2", "explode_immune");
}

/* PART-8: forced captures (antichess) and no check given (racing kings). */
static void test_part8_forced_capture_and_give_check(void **state)
{
    (void)state;
    assert_int_equal(fperft(RS_ANTICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                            4),
                     153299);
    /* after 1.e3 b5 the bishop must take */
    Game *g = fg(RS_ANTICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    tu_play_line(g, "e3 b5");
    assert_int_equal(tu_legal_count(g, 0, ACT_MOVE), 1);
    tu_assert_refused(g, "a3", NULL);
    game_free(g);
    assert_int_equal(fperft(RS_RACING, NULL, 4), 296242);
    /* a rook that would attack the black king may not go there */
    const char *race = "8/8/8/8/8/k7/8/1R5K w - - 0 1";
    assert_int_equal(fperft("give_check = no\n", race, 1), fperft(NULL, race, 1) - 2);
}

/* The game's end has this code (PART-9: each end its own, issue 24). */
static void assert_end_code(const Game *g, int code)
{
    Status st;
    game_status(g, &st);
    if (st.code != code)
        fail_msg("end code %s (%s), not %s", end_code_name(st.code) ? end_code_name(st.code)
                 : "none", st.reason, end_code_name(code));
}

/* PART-9: the n-th check, the goal (and black's reply), stalemate's
 * result, no pieces and a bare royal, each with its end code. */
static void test_part9_ends(void **state)
{
    (void)state;
    Game *g = fg(RS_THREE_CHECK, NULL);
    tu_assert_position(g, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 3+3 0 1");
    tu_play_line(g, "e4 e5 Bc4 Nc6 Bxf7+ Kxf7 Qh5+ g6 Qxg6+");
    tu_assert_over(g, "1-0", "white gave check 3 times");
    game_free(g);
    g = fg(RS_THREE_CHECK, "4k3/8/8/8/8/8/8/4K2R w K - 1+3 0 1");
    tu_assert_going_on(g);
    tu_play(g, 0, "Rh8+");
    tu_assert_over(g, "1-0", "white gave check 3 times");
    assert_end_code(g, END_CHECKS_GIVEN);
    game_free(g);
    g = fg(RS_THREE_CHECK, "4k3/8/8/8/8/8/8/4K2R w K - 0 1 +2+0");
    tu_assert_position(g, "4k3/8/8/8/8/8/8/4K2R w K - 1+3 0 1");
    game_free(g);
    g = fg(RS_KOTH, "4k3/8/8/8/8/3K4/8/8 w - - 0 1");
    tu_play(g, 0, "Kd4");
    tu_assert_over(g, "1-0", "white reached the goal");
    assert_end_code(g, END_GOAL_REACHED);
    assert_int_equal(game_perft(g, 1), 0);
    game_free(g);
    /* racing kings: white reaches rank 8; black, one step away, may reply */
    g = fg(RS_RACING, "8/1K5k/8/8/8/8/8/8 w - - 0 1");
    tu_play(g, 0, "Kb8");
    tu_assert_going_on(g);
    tu_play(g, 1, "Kh8");
    tu_assert_over(g, "1/2-1/2", "both reached the goal");
    assert_end_code(g, END_GOAL_REACHED);
    game_free(g);
    g = fg(RS_RACING, "8/1K6/7k/8/8/8/8/8 w - - 0 1");
    tu_play(g, 0, "Kb8");
    tu_assert_over(g, "1-0", "white reached the goal");
    game_free(g);
    /* antichess: the side without a move or without pieces wins */
    g = fg(RS_ANTICHESS, "8/8/8/8/8/1p6/1P6/8 w - - 0 1");
    tu_assert_over(g, "1-0", "stalemate: white, without a move, wins");
    game_free(g);
    g = fg(RS_ANTICHESS, "8/8/8/8/8/1p6/P7/8 w - - 0 1");
    tu_play(g, 0, "axb3");
    tu_assert_over(g, "0-1", "black has no pieces left");
    assert_end_code(g, END_NO_PIECES);
    game_free(g);
    /* horde: white without pieces loses (the default no_pieces = loss) */
    assert_int_equal(fperft(RS_HORDE, NULL, 4), 23310);
    g = fg(RS_HORDE, "4k3/8/8/8/8/8/1q6/P7 b - - 0 1");
    tu_play(g, 1, "Qxa1");
    tu_assert_over(g, "0-1", "white has no pieces left");
    assert_end_code(g, END_NO_PIECES);
    game_free(g);
    g = fg("stalemate = loss\n", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    tu_assert_over(g, "1-0", "stalemate: black, without a move, loses");
    game_free(g);
    g = fg("bare_royal = loss\n", "4k3/8/8/8/8/8/r7/3QK3 w - - 0 1");
    tu_play(g, 0, "Qd8+");
    tu_assert_going_on(g);
    tu_play(g, 1, "Kxd8");
    tu_assert_over(g, "0-1", "white's royal piece is bare");
    assert_end_code(g, END_BARE_ROYAL);
    game_free(g);
}

/* PART-10: the orthodox draws, or none. */
static void test_part10_draws(void **state)
{
    (void)state;
    Game *g = fg(NULL, "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    tu_assert_over(g, "1/2-1/2", "insufficient material");
    game_free(g);
    g = fg("draws = none\n", "8/8/8/4k3/8/8/8/4K3 w - - 0 1");
    tu_assert_going_on(g);
    game_free(g);
    /* a rule set of other pieces knows no insufficient material */
    g = fg("piece = N nightrider NN 5\n", "8/8/8/4k3/8/8/8/4K2N w - - 0 1");
    tu_assert_going_on(g);
    game_free(g);
    g = fg(NULL, "8/8/8/4k3/8/8/8/4K2N w - - 0 1");
    tu_assert_over(g, "1/2-1/2", "insufficient material");
    game_free(g);
}

/* ---- Bad texts ------------------------------------------------------------------ */

typedef struct BadCase {
    const char *ruleset, *fen, *want, *want2;
} BadCase;

/* issue 24: each bad rule set names the line, the key and what is allowed. */
static void test_issue24_bad_rulesets(void **state)
{
    (void)state;
    static const BadCase CASES[] = {
        {"board = 17x8\n", NULL, "line 1: board = 17x8", "2 to 16"},
        {"# a comment\n\nboard = 8\n", NULL, "line 3: board", "10x8"},
        {"colour = red\n", NULL, "line 1: no key 'colour'", "the keys: name"},
        {"board 8x8\n", NULL, "line 1", "not key = value"},
        {"check = maybe\n", NULL, "line 1: check = maybe", "yes or no"},
        {"royal = k\n", NULL, "line 1: royal", "upper case"},
        {"royal = X\n", NULL, "no piece X", NULL},
        {"promotion = \n", NULL, "line 1: promotion", "missing"},
        {"piece = A archbishop\n", NULL, "line 1: piece", "Betza"},
        {"piece = A archbishop BX 8\n", NULL, "line 1: piece A", "X"},
        {"piece = A archbishop BN lots\n", NULL, "line 1: piece A", "value"},
        {"piece = AB x N\n", NULL, "line 1: piece", "letter"},
        {"castling = c z\n", NULL, "line 1: castling", "two files"},
        {"double_step = 9\n", NULL, "line 1: double_step", "1..8"},
        {"en_passant = maybe\n", NULL, "line 1: en_passant = maybe", "yes, no, or white's ranks"},
        {"en_passant = 9\n", NULL, "line 1: en_passant = 9", "(1..8)"},
        {"captures = boom\n", NULL, "line 1: captures", "normal or explode"},
        {"stalemate = maybe\n", NULL, "line 1: stalemate", "draw, win or loss"},
        {"checks = -1\n", NULL, "line 1: checks", "0..99"},
        {"goal = K z9\n", NULL, "line 1: goal", "K rank 8"},
        {"promotion_limit = Q\n", NULL, "line 1: promotion_limit", "Q1 R2"},
        {"board = 10x8\n", NULL, "start", "8x8"},
        {"start = 8/8/8/8 w - - 0 1\n", NULL, "line 1: start", "4 ranks, not 8"},
        {"name = bad\x1b[2Jname\n", NULL, "line 1: name", "control"},
    };
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++)
        fg_refused(CASES[i].ruleset, CASES[i].fen, CASES[i].want, CASES[i].want2);
}

/* issue 24: bad position strings name the rank, the letter or the field. */
static void test_issue24_bad_positions(void **state)
{
    (void)state;
    static const BadCase CASES[] = {
        {NULL, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks, not 8", NULL},
        {NULL, "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6", "9 squares"},
        {NULL, "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 7",
         "no piece 'X'"},
        {NULL, "4k3/8/8/8/8/8/8/4K3 x - - 0 1", "side to move", "w or b"},
        {NULL, "4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "en passant", "e9"},
        {NULL, "4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant on e3", NULL},
        {NULL, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "hand", "hands = yes"},
        {NULL, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", "check counts", NULL},
        {NULL, "4k3/8/8/8/8/8/8/4K3 w - - x 1", "move counter", NULL},
        {NULL, "4k3/8/8/8/8/8/8/4K2p w - - 0 1", "pawn on h1", NULL},
        {NULL, "4k3/8/8/8/8/8/8/4K2R b - - 0 1", NULL, NULL},
        {NULL, "4k2R/8/8/8/8/8/8/4K3 b - - 0 1", NULL, NULL},
        {NULL, "4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "black is in check", NULL},
        {NULL, "4k3/8/8/8/8/8/8/~4K3 w - - 0 1", "'~' not after a piece", NULL},
        {NULL, "4k3/8/8/8/8/8/8/4K3", "side to move", NULL},
        {RS_THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 4+3 0 1", "each from 0 to 3", NULL},
    };
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++) {
        if (!CASES[i].want) { /* a good one among them: accepted */
            Game *g = fg(CASES[i].ruleset, CASES[i].fen);
            game_free(g);
            continue;
        }
        fg_refused(CASES[i].ruleset, CASES[i].fen, CASES[i].want, CASES[i].want2);
    }
    /* a variant without prepare refuses a rule set by name */
    GameConfig c;
    memset(&c, 0, sizeof c);
    c.variant = tu_variant("orthodox");
    c.ruleset = "board = 8x8\n";
    Error e;
    assert_null(game_new(&c, &e));
    assert_non_null(strstr(e.msg, "takes no rule set"));
}

/* ---- The other ops -------------------------------------------------------------- */

/* issue 24: the generic perft (legal + apply) and the fast one agree on the
 * rule sets of the lichess variants. */
static void test_issue24_fast_perft_is_generic(void **state)
{
    (void)state;
    static const char *const RS[][2] = {
        {RS_ATOMIC, "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1"},
        {RS_ANTICHESS, "8/1p6/8/8/8/8/P7/8 w - - 0 1"},
        {RS_CRAZYHOUSE, "r1bqk2r/pppp1ppp/2n5/2b1p3/2B1P1n1/3P1N2/PPP2PPP/RNBQK2R[Pp] w KQkq - 0 6"},
        {RS_HORDE, "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1"},
        {RS_KOTH, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"},
        {RS_RACING, NULL},
        {RS_THREE_CHECK, "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3+2 3 3"},
        {RS_CAPABLANCA, NULL},
    };
    static const uint64_t WANT3[] = {45237, 0, 0, 6633, 0, 11264, 28579, 25228};
    for (size_t i = 0; i < ARRAY_LEN(RS); i++) {
        Game *g = fg(RS[i][0], RS[i][1]);
        uint64_t fast = game_perft(g, 3), generic = game_perft_generic(g, 3);
        if (fast != generic)
            fail_msg("rule set %zu: fast %" PRIu64 ", generic %" PRIu64, i, fast, generic);
        if (WANT3[i] && fast != WANT3[i])
            fail_msg("rule set %zu: %" PRIu64 ", chessops %" PRIu64, i, fast, WANT3[i]);
        game_free(g);
    }
}

/* issue 24: a house rule's edit keeps the rules' invariants; the values of
 * the rule set's pieces. */
static void test_issue24_edit_and_values(void **state)
{
    (void)state;
    Game *g = fg(RS_CAPABLANCA, NULL);
    int values[FIG_MAX];
    fairy_values(g, values);
    assert_int_equal(values[FIG_LETTERED('A')], 8);
    assert_int_equal(values[FIG_LETTERED('C')], 9);
    assert_int_equal(values[FIG_QUEEN], 10);
    assert_int_equal(values[FIG_LETTERED('Z')], 0);
    const VariantOps *v = fairy();
    void *st = malloc(v->state_size);
    memcpy(st, game_state(g), v->state_size);
    Error e;
    Edit ed = {EDIT_ADD, coord_make(4, 4), 0, FIG_LETTERED('A'), 0};
    assert_int_equal(v->edit(g, st, &ed, NULL, &e), 0);
    Edit bad = {EDIT_ADD, coord_make(4, 4), 0, FIG_LETTERED('Z'), 0};
    assert_int_equal(v->edit(g, st, &bad, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "no piece Z"));
    Edit off = {EDIT_REMOVE, coord_make(10, 0), 0, 0, 0};
    assert_int_equal(v->edit(g, st, &off, NULL, &e), -1);
    assert_non_null(strstr(e.msg, "off the 10x8 board"));
    /* removing the rook of a1 drops white's queen-side right */
    Edit rook = {EDIT_REMOVE, coord_make(0, 0), 0, 0, 0};
    assert_int_equal(v->edit(g, st, &rook, NULL, &e), 0);
    StrBuf s = STRBUF_INIT;
    v->write_position(g, st, &s);
    assert_string_equal(sb_str(&s), "rnabqkbcnr/pppppppppp/10/4A5/10/10/PPPPPPPPPP/"
                                    "1NABQKBCNR w Kkq - 0 1");
    sb_free(&s);
    free(st);
    game_free(g);
}

/* issue 24: random games of each rule set end with a code and a reason
 * or run on, and legal_draw draws the action legal's list has at the same
 * index (the playouts of bots and experiments). */
static void test_issue24_random_games_of_each_rule_set(void **state)
{
    (void)state;
    static const char *const RS[] = {NULL, RS_ATOMIC, RS_ANTICHESS, RS_CRAZYHOUSE, RS_HORDE,
                                     RS_KOTH, RS_RACING, RS_THREE_CHECK, RS_CAPABLANCA,
                                     RS_GRAND};
    const int games = TU_SANITIZED ? 2 : 6;
    int ended = 0;
    for (size_t i = 0; i < ARRAY_LEN(RS); i++)
        for (int k = 0; k < games; k++) {
            Game *g = fg(RS[i], NULL);
            Rng rng;
            rng_seed(&rng, (uint64_t)(i * 100 + (size_t)k));
            Status st;
            assert_true(game_playout(g, &rng, 400, &st) >= 0);
            if (st.over) {
                ended++;
                assert_true(st.code > END_NONE && st.code < END__COUNT);
                assert_true(st.reason[0] != '\0');
            }
            /* legal_draw agrees with legal, ply by ply */
            const VariantOps *v = fairy();
            for (int ply = 0; ply < 30 && game_to_act(g) >= 0; ply++) {
                ActionList l = ACTIONLIST_INIT;
                assert_int_equal(game_legal_play(g, &l), 0);
                Rng a = rng, b = rng;
                Action drawn;
                int n = v->legal_draw(g, game_state(g), game_to_act(g), &a, &drawn);
                assert_int_equal(n, l.n);
                assert_true(action_eq(&drawn, &l.v[rng_below(&b, (uint32_t)l.n)]));
                Error e;
                assert_int_equal(game_apply(g, &drawn, &e), 0);
                rng = a;
                al_free(&l);
            }
            game_free(g);
        }
    assert_true(ended > 0);
}

/* issue 22 for the fairy variant: `why` names the PART-n rule. */
static void test_issue24_why(void **state)
{
    (void)state;
    Game *g = fg(RS_CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1");
    WhyAnswer w;
    Error e;
    assert_int_equal(game_why(g, 0, "N@f3", &w, &e), 0);
    assert_true(w.legal);
    assert_string_equal(w.rules, "PART-6");
    assert_int_equal(game_why(g, 0, "Ke2", &w, &e), 0);
    assert_string_equal(w.rules, "PART-2");
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue24_default_perft_equals_orthodox),
        cmocka_unit_test(test_issue24_default_perftsuite),
        cmocka_unit_test(test_issue24_default_random_games),
        cmocka_unit_test(test_issue24_default_notation),
        cmocka_unit_test(test_part1_large_boards),
        cmocka_unit_test(test_part2_new_piece_on_16x16),
        cmocka_unit_test(test_part2_piece_and_nopiece),
        cmocka_unit_test(test_part2_overlapping_atoms_move_once),
        cmocka_unit_test(test_part2_initial_move_of_a_piece),
        cmocka_unit_test(test_part3_pawn_keys),
        cmocka_unit_test(test_part3_en_passant_ranks),
        cmocka_unit_test(test_part4_castling),
        cmocka_unit_test(test_part4_castling_chess960),
        cmocka_unit_test(test_part5_royal_and_check),
        cmocka_unit_test(test_part6_hands),
        cmocka_unit_test(test_part7_atomic),
        cmocka_unit_test(test_part8_forced_capture_and_give_check),
        cmocka_unit_test(test_part9_ends),
        cmocka_unit_test(test_part10_draws),
        cmocka_unit_test(test_issue24_bad_rulesets),
        cmocka_unit_test(test_issue24_bad_positions),
        cmocka_unit_test(test_issue24_fast_perft_is_generic),
        cmocka_unit_test(test_issue24_edit_and_values),
        cmocka_unit_test(test_issue24_random_games_of_each_rule_set),
        cmocka_unit_test(test_issue24_why),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
