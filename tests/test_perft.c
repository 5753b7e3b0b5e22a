/*
 * test_perft.c -- exactness of the orthodox move generator (ORTH-2 .. ORTH-6):
 * perft counts of tests/data/perftsuite.epd and of the chessprogramming
 * wiki positions, a walk that checks every Position invariant after each
 * chess_make, the repetition key, and insufficient material (ORTH-9).
 *
 * Invariant: only counts below PERFT_CAP run here (deeper ones belong to
 * `make bench`), so the file stays fast, and under sanitizers the cap drops.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>

#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

#if defined(__SANITIZE_ADDRESS__)
#define PERFT_CAP 1000000ULL    /* ASan + UBSan run several times slower */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PERFT_CAP 1000000ULL
#endif
#endif
#ifndef PERFT_CAP
#define PERFT_CAP 2000000ULL
#endif

/* Checks every depth of one perftsuite.epd line whose count is below the
 * cap; ud counts the depths checked. */
static void check_epd_line(const TuEpd *e, void *ud)
{
    int *checked = ud;
    Position p;
    tu_chess_load(&p, e->pos);
    for (int i = 0; i < e->ndepths; i++) {
        if (e->count[i] < PERFT_CAP) {
            uint64_t got = chess_perft(&p, e->depth[i]);
            if (got != e->count[i])
                fail_msg("perftsuite.epd line %d (%s) depth %d: %" PRIu64 " nodes, expected %"
                         PRIu64, e->lineno, e->pos, e->depth[i], got, e->count[i]);
            (*checked)++;
        }
    }
}

/* ORTH-2..6: every position of the perft suite, every affordable depth. */
static void test_orth_perftsuite(void **state)
{
    (void)state;
    int checks = 0;
    int positions = tu_epd_each(TU_PERFTSUITE, check_epd_line, &checks);
    assert_int_equal(positions, 126);
    assert_true(checks >= 126 * 3);   /* D1..D3 are always cheap */
}

typedef struct WikiCase {
    const char *name, *fen;
    uint64_t counts[7];   /* counts[d - 1]; 0 ends the list */
} WikiCase;

/* The chessprogramming wiki "Perft Results" page. */
static const WikiCase WIKI[] = {
    {"start", TU_FEN_START, {20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete", TU_FEN_KIWIPETE, {48, 2039, 97862, 4085603, 193690690}},
    {"position 3", TU_FEN_POS3, {14, 191, 2812, 43238, 674624, 11030083, 178633661}},
    {"position 4", TU_FEN_POS4, {6, 264, 9467, 422333, 15833292}},
    {"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {6, 264, 9467, 422333, 15833292}},
    {"position 5", TU_FEN_POS5, {44, 1486, 62379, 2103487, 89941194}},
    {"position 6", TU_FEN_POS6, {46, 2079, 89890, 3894594, 164075551}},
};

static void test_orth_wiki_positions(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof WIKI / sizeof WIKI[0]; i++) {
        Position p;
        tu_chess_load(&p, WIKI[i].fen);
        for (int d = 1; d <= 7 && WIKI[i].counts[d - 1]; d++) {
            if (WIKI[i].counts[d - 1] >= PERFT_CAP)
                break;
            uint64_t got = chess_perft(&p, d);
            if (got != WIKI[i].counts[d - 1])
                fail_msg("%s depth %d: %" PRIu64 " nodes, expected %" PRIu64,
                         WIKI[i].name, d, got, WIKI[i].counts[d - 1]);
        }
    }
}

/* Depth 0 is the position itself. */
static void test_orth_perft_depth_zero(void **state)
{
    (void)state;
    Position p;
    chess_startpos(&p);
    assert_int_equal(chess_perft(&p, 0), 1);
}

static uint32_t draw_fixed(void *ud, uint32_t n)
{
    (void)n;
    return *(const uint32_t *)ud;
}

/* Every position reached in a shallow walk keeps the invariants: bitboards,
 * mailbox and key agree, the side not to move is not in check; the key
 * updated by chess_make equals the key computed from scratch. */
static void walk(const Position *p, int depth, long *visited)
{
    Move moves[CH_MAX_MOVES];
    int n = chess_legal_moves(p, moves), check = -1;
    assert_in_range(n, 0, CH_MAX_MOVES);
    /* ORTH-7: the status's quick test agrees with the generator */
    assert_int_equal(chess_has_legal_move(p, &check), n > 0);
    assert_int_equal(check, chess_in_check(p));
    /* the playouts' draw: the same count, and move k is moves[k] */
    for (uint32_t k = 0; k < (uint32_t)n || k == 0; k++) {
        Move drawn = 0;
        assert_int_equal(chess_legal_draw(p, draw_fixed, &k, &drawn), n);
        if (n)
            assert_int_equal(drawn, moves[k]);
    }
    for (int i = 0; i < n; i++) {
        Position c = *p;
        chess_make(&c, moves[i]);
        (*visited)++;
        if (!chess_position_ok(&c) || c.key != chess_compute_key(&c)) {
            char uci[6];
            StrBuf fen = STRBUF_INIT;
            chess_to_fen(p, &fen);
            fail_msg("after %s from %s: position broken (key %016" PRIx64 " vs %016" PRIx64 ")",
                     chess_move_uci(moves[i], uci), sb_str(&fen), c.key,
                     chess_compute_key(&c));
        }
        if (depth > 1)
            walk(&c, depth - 1, visited);
    }
}

static void test_orth_make_keeps_invariants(void **state)
{
    (void)state;
    static const char *const fens[] = {
        TU_FENS_PERFT,
        "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1",         /* double steps beside a pawn */
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",          /* ep capture that resolves check */
    };
    long visited = 0;
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position p;
        tu_chess_load(&p, fens[i]);
        assert_true(chess_position_ok(&p));
        walk(&p, 3, &visited);
    }
    assert_true(visited > 100000);
}

/* The position after the UCI moves of a NULL-terminated list. */
static Position after(const char *fen, const char *const *ucis)
{
    Position p;
    tu_chess_load(&p, fen);
    for (; *ucis; ucis++)
        chess_make(&p, tu_chess_move(&p, *ucis));
    return p;
}

/* How many legal moves of p are of MoveKind kind. */
static int moves_of_kind(const Position *p, int kind)
{
    Move moves[CH_MAX_MOVES];
    int n = chess_legal_moves(p, moves), count = 0;
    for (int i = 0; i < n; i++)
        count += MOVE_KIND(moves[i]) == kind;
    return count;
}

/* The key is a repetition key: same pieces, side, rights and capturable ep
 * give the same key, whatever the move counters or an idle ep square. */
static void test_orth9_key_is_repetition_key(void **state)
{
    (void)state;
    static const char *const knights[] = {"g1f3", "g8f6", "f3g1", "f6g8", NULL};
    Position a = after(TU_FEN_START, knights);
    Position start;
    chess_startpos(&start);
    assert_int_equal(a.key, start.key);
    assert_int_not_equal(a.fullmove, start.fullmove);

    /* 1. e4: e3 is stored (FEN) but no Black pawn can take, so the key is
     * the key of the same position without an ep square. */
    static const char *const e4[] = {"e2e4", NULL};
    Position b = after(TU_FEN_START, e4);
    assert_int_equal(b.ep, 20);
    Position c;
    tu_chess_load(&c, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_int_equal(b.key, c.key);

    /* A capturable ep square changes the key. */
    Position d, d2;
    tu_chess_load(&d, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    tu_chess_load(&d2, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_true(d.ep_keyed);
    assert_int_not_equal(d.key, d2.key);

    /* Castling rights are part of the key. */
    Position r1, r2;
    tu_chess_load(&r1, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    tu_chess_load(&r2, "r3k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1");
    assert_int_not_equal(r1.key, r2.key);
}

/* ORTH-3: en passant that would expose the King along the rank is illegal,
 * and the key then leaves the ep file out. */
static void test_orth3_ep_pinned_on_rank(void **state)
{
    (void)state;
    Position p;
    tu_chess_load(&p, "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1");
    assert_int_equal(moves_of_kind(&p, MK_EP), 0);
    assert_false(chess_ep_legal(&p));
    assert_false(p.ep_keyed);

    tu_chess_load(&p, "8/8/8/K2pP3/8/8/8/7k w - d6 0 1");
    assert_int_equal(moves_of_kind(&p, MK_EP), 1);
    assert_true(p.ep_keyed);
}

/* ORTH-5: no castling out of, through or into check; rights vanish when
 * the King or Rook moves or the Rook is captured. */
static void test_orth5_castling(void **state)
{
    (void)state;
    Position p;
    tu_chess_load(&p, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_int_equal(moves_of_kind(&p, MK_CASTLE), 2);

    tu_chess_load(&p, "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");  /* f2 rook: through f1 */
    assert_int_equal(moves_of_kind(&p, MK_CASTLE), 1);   /* only O-O-O */

    tu_chess_load(&p, "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");  /* in check */
    assert_int_equal(moves_of_kind(&p, MK_CASTLE), 0);

    static const char *const rook_taken[] = {"a1a8", NULL};
    p = after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", rook_taken);
    assert_int_equal(p.castling, CASTLE_WK | CASTLE_BK);
    static const char *const castle[] = {"e1g1", NULL};
    p = after("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", castle);
    assert_int_equal(p.board[5], CH_PIECE(CH_WHITE, 4));
    assert_int_equal(p.board[6], CH_PIECE(CH_WHITE, 6));
    assert_int_equal(p.board[7], 0);
    assert_int_equal(p.castling, CASTLE_BK | CASTLE_BQ);
}

/* ORTH-4: a promotion offers all four pieces; counters follow the rules. */
static void test_orth4_promotion_and_counters(void **state)
{
    (void)state;
    Position p;
    Move moves[CH_MAX_MOVES];
    tu_chess_load(&p, "8/4P3/8/8/8/8/k7/4K3 w - - 7 30");
    int n = chess_legal_moves(&p, moves), promos = 0;
    for (int i = 0; i < n; i++)
        promos += MOVE_IS_PROMO(moves[i]);
    assert_int_equal(promos, 4);
    static const char *const under[] = {"e7e8n", NULL};
    p = after("8/4P3/8/8/8/8/k7/4K3 w - - 7 30", under);
    assert_int_equal(p.board[60], CH_PIECE(CH_WHITE, 2));
    assert_int_equal(p.halfmove, 0);
    assert_int_equal(p.fullmove, 30);
    static const char *const quiet[] = {"e1d1", "a2b2", NULL};
    p = after("8/4P3/8/8/8/8/k7/4K3 w - - 7 30", quiet);
    assert_int_equal(p.halfmove, 9);
    assert_int_equal(p.fullmove, 31);
}

/* ORTH-6/7: mate and stalemate leave no legal move. */
static void test_orth7_no_moves(void **state)
{
    (void)state;
    Position p;
    Move moves[CH_MAX_MOVES];
    tu_chess_load(&p, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    assert_true(chess_in_check(&p));
    assert_int_equal(chess_legal_moves(&p, moves), 0);
    assert_int_equal(chess_has_legal_move(&p, NULL), 0);
    tu_chess_load(&p, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_false(chess_in_check(&p));
    assert_int_equal(chess_legal_moves(&p, moves), 0);
    assert_int_equal(chess_has_legal_move(&p, NULL), 0);
    /* positions with an en passant capture (ORTH-3) */
    tu_chess_load(&p, "8/8/8/8/4Pp1k/8/8/4K3 b - e3 0 1");
    assert_int_equal(chess_has_legal_move(&p, NULL), 1);
    tu_chess_load(&p, "7k/8/8/6pP/7K/8/8/8 w - g6 0 1");
    assert_int_equal(chess_has_legal_move(&p, NULL), chess_legal_moves(&p, moves) > 0);
}

/* chess_attackers names every attacker, for the occupancy given. */
static void test_orth6_attackers(void **state)
{
    (void)state;
    Position p;
    tu_chess_load(&p, "4k3/8/8/8/1b6/8/3N4/R3K3 w - - 0 1");
    Bitboard occ = p.by_color[0] | p.by_color[1];
    assert_int_equal(chess_attackers(&p, 4, CH_BLACK, occ), 0);        /* d2 blocks */
    assert_int_equal(chess_attackers(&p, 4, CH_BLACK, occ & ~(1ULL << 11)),
                     1ULL << 25);                                       /* b4 */
    assert_int_equal(chess_attackers(&p, 3, CH_WHITE, occ), (1ULL << 0) | (1ULL << 4));
}

/* ORTH-9: dead positions by material. */
static void test_orth9_insufficient_material(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        int dead;
    } cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", 1},              /* K v K */
        {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 1},            /* K+B v K */
        {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", 1},            /* K+N v K */
        {"4kn2/8/8/8/8/8/8/4K3 w - - 0 1", 1},             /* K v K+N */
        {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", 0},          /* bishops on c1 (dark) c8 (light) */
        {"3bk3/8/8/8/8/8/8/2B1K3 w - - 0 1", 1},           /* c1 and d8: both dark */
        {"4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1", 0},           /* K+B+N v K */
        {"4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1", 0},           /* K+N v K+N can mate */
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 0},            /* a pawn */
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", 0},             /* a rook */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Position p;
        tu_chess_load(&p, cases[i].fen);
        if (chess_insufficient_material(&p) != cases[i].dead)
            fail_msg("%s: expected %s", cases[i].fen, cases[i].dead ? "dead" : "not dead");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orth_perftsuite),
        cmocka_unit_test(test_orth_wiki_positions),
        cmocka_unit_test(test_orth_perft_depth_zero),
        cmocka_unit_test(test_orth_make_keeps_invariants),
        cmocka_unit_test(test_orth9_key_is_repetition_key),
        cmocka_unit_test(test_orth3_ep_pinned_on_rank),
        cmocka_unit_test(test_orth5_castling),
        cmocka_unit_test(test_orth4_promotion_and_counters),
        cmocka_unit_test(test_orth7_no_moves),
        cmocka_unit_test(test_orth6_attackers),
        cmocka_unit_test(test_orth9_insufficient_material),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
