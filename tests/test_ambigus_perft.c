/*
 * test_ambigus_perft.c -- perft of Échecs ambigus (AMBI-1 .. AMBI-6) against
 * an independent count, and the orthodox engine's pseudo-legal generator
 * that count stands on (chess_pseudo_moves).
 *
 * The counter here knows nothing of variants/ambigus: it groups the
 * orthodox pseudo-legal moves by destination (docs/AMBIGUS.md, "Perft
 * positions", says how the tree is counted) and is itself checked by hand
 * counts and by colour symmetry; the pseudo-legal list is checked against
 * the strictly legal generator, which the orthodox perft suite proves.
 * The documented figures (docs/AMBIGUS.md, read from the repository root)
 * must be this file's table, so the doc cannot drift from the tests.
 *
 * Invariant: every count asserted is derived by hand in a comment or
 * reached by two independent counters; only depths whose count is below
 * PERFT_CAP run, and the cap drops under sanitizers.
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
#include <ctype.h>

#include "../core/game.h"
#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

#if TU_SANITIZED
#define PERFT_CAP 150000ULL
#else
#define PERFT_CAP 3000000ULL
#endif

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
    Move legal[CH_MAX_MOVES], pseudo[CH_MAX_PSEUDO_MOVES];
    const int nl = chess_legal_moves(p, legal);
    const int np = chess_pseudo_moves(p, pseudo);
    char uci[6];
    StrBuf fen = STRBUF_INIT;
    chess_to_fen(p, &fen);
    assert_in_range(np, nl, CH_MAX_PSEUDO_MOVES);
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

static void check_epd_line(const TuEpd *line, void *ud)
{
    Position p;
    tu_chess_load(&p, line->pos);
    *(long *)ud += check_pseudo_around(&p, 2);
}

/* AMBI-4 base: on the 126 positions of tests/data/perftsuite.epd, the
 * wiki positions 4 (mirrored) and 6, and everything two moves away. */
static void test_ambi4_pseudo_moves_filter_to_legal(void **state)
{
    (void)state;
    long checked = 0;
    int roots = tu_epd_each(TU_PERFTSUITE, check_epd_line, &checked);
    static const char *const more[] = {
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        TU_FEN_POS6,
        "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1",   /* en passant pinned on the rank */
        "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",  /* en passant out of check */
        "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",  /* castling through f1 */
        /* 218 moves, the most known for a legal position */
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1",
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
    Move moves[CH_MAX_PSEUDO_MOVES];
    int n = chess_pseudo_moves(p, moves), count = 0;
    for (int i = 0; i < n; i++)
        count += kind < 0 || MOVE_KIND(moves[i]) == kind;
    return count;
}

/* The pseudo-legal move of p written uci; fails the test if there is none. */
static Move pseudo_move(const Position *p, const char *uci)
{
    Move moves[CH_MAX_PSEUDO_MOVES];
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

/* ---- An independent count of the Ambigus action tree ------------------
 * Built on chess_pseudo_moves only (docs/AMBIGUS.md, "Perft positions"):
 * a node where a side names a square has one child per destination of its
 * pseudo-legal moves, castling dropped (AMBI-1, AMBI-4).  Naming the enemy
 * King's square is a leaf: the game is won (AMBI-4).  A square with one
 * candidate move is played at once; with several (each piece, each
 * promotion figure: AMBI-2, AMBI-3) the opponent's choice is a further
 * ply.  No square at all: the side has lost, nothing below (AMBI-5).  With
 * the mate rule (AMBI-6) a side all of whose squares let the opponent pick
 * a move after which its King is attacked has lost too (mate, or the
 * stalemate that wins for the side delivering it). */

/* The moves of one side grouped by destination: the candidates of square
 * t are moves[first[t] .. first[t + 1]). */
typedef struct Squares {
    Move moves[CH_MAX_PSEUDO_MOVES];
    int first[65];
    int nsquares;
} Squares;

static void squares_of(const Position *p, Squares *s)
{
    Move pseudo[CH_MAX_PSEUDO_MOVES];
    int count[64] = {0};
    const int n = chess_pseudo_moves(p, pseudo);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(pseudo[i]) != MK_CASTLE)
            count[MOVE_TO(pseudo[i])]++;
    s->first[0] = 0;
    s->nsquares = 0;
    for (int t = 0; t < 64; t++) {
        s->first[t + 1] = s->first[t] + count[t];
        s->nsquares += count[t] > 0;
    }
    int fill[64];
    memcpy(fill, s->first, sizeof fill);
    for (int i = 0; i < n; i++)
        if (MOVE_KIND(pseudo[i]) != MK_CASTLE)
            s->moves[fill[MOVE_TO(pseudo[i])]++] = pseudo[i];
}

static int is_enemy_king(const Position *p, int sq)
{
    return p->board[sq] == CH_PIECE(p->side ^ 1, FIG_KING);
}

/* AMBI-6 from its definition: every square the side may name is one
 * where the opponent can pick a candidate (a piece, a figure) after which
 * the King is attacked; the enemy King's square never is (it wins). */
static int all_squares_lose_king(const Position *p, const Squares *s)
{
    for (int t = 0; t < 64; t++) {
        if (s->first[t] == s->first[t + 1])
            continue;
        if (is_enemy_king(p, t))
            return 0;
        int some_exposes = 0;
        for (int i = s->first[t]; i < s->first[t + 1] && !some_exposes; i++)
            some_exposes = leaves_king_attacked(p, s->moves[i]);
        if (!some_exposes)
            return 0;
    }
    return 1;
}

static uint64_t amb_count(const Position *p, int depth, int mate);

/* Leaves below naming square t of p, the naming ply included. */
static uint64_t amb_count_square(const Position *p, const Squares *s, int t,
                                 int depth, int mate)
{
    const int n = s->first[t + 1] - s->first[t];
    if (is_enemy_king(p, t))
        return depth == 1;   /* the game is won: a leaf, nothing below */
    if (n == 1) {            /* unambiguous: played at once */
        Position c = *p;
        chess_make(&c, s->moves[s->first[t]]);
        return amb_count(&c, depth - 1, mate);
    }
    if (depth == 1)
        return 1;
    uint64_t total = 0;
    for (int i = s->first[t]; i < s->first[t + 1]; i++) {
        Position c = *p;
        chess_make(&c, s->moves[i]);
        total += amb_count(&c, depth - 2, mate);
    }
    return total;
}

static uint64_t amb_count(const Position *p, int depth, int mate)
{
    if (depth == 0)
        return 1;
    Squares s;
    squares_of(p, &s);
    if (s.nsquares == 0 || (mate && all_squares_lose_king(p, &s)))
        return 0;            /* AMBI-5, or AMBI-6 when on */
    uint64_t total = 0;
    for (int t = 0; t < 64; t++)
        if (s.first[t] < s.first[t + 1])
            total += amb_count_square(p, &s, t, depth, mate);
    return total;
}

/* Per named square of p ("f3"), as game_perft_divide reports it. */
static uint64_t amb_divide(const Position *p, int depth, int mate,
                           void (*fn)(void *ud, const char *text, uint64_t n),
                           void *ud)
{
    Squares s;
    squares_of(p, &s);
    if (s.nsquares == 0 || (mate && all_squares_lose_king(p, &s)))
        return 0;
    uint64_t total = 0;
    for (int t = 0; t < 64; t++) {
        if (s.first[t] == s.first[t + 1])
            continue;
        char name[3];
        uint64_t n = amb_count_square(p, &s, t, depth, mate);
        fn(ud, chess_square_name(t, name), n);
        total += n;
    }
    return total;
}

/* ---- The documented positions (docs/AMBIGUS.md, "Perft positions") ---- */

typedef struct AmbCase {
    const char *name;      /* what it exercises */
    const char *fen;       /* the engine's position string */
    int mate;              /* 1: --param mate=on (AMBI-6) */
    uint64_t counts[5];    /* leaves at depth 1..5 */
    /* A FEN the orthodox reader refuses (the side not to move attacked) is
     * reached by the counter from base through these pseudo-legal moves
     * (UCI, space-separated); NULL: fen itself is read. */
    const char *base, *moves;
} AmbCase;

#define FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

static const AmbCase CASES[] = {
    {"A1 start: pawn squares shared with knights (AMBI-1, AMBI-2)",
     FEN_START, 0, {16, 200, 2710, 34835, 474428}, NULL, NULL},
    {"A2 Kiwipete without castling rights: many shared squares (AMBI-2, AMBI-4)",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", 0,
     {28, 406, 7326, 114793, 2015852}, NULL, NULL},
    {"A3 en passant square shared by two pawns and a knight; double steps "
     "beside enemy pawns (AMBI-2, AMBI-4)",
     "4k3/5p2/8/1NPpP3/2p5/8/1P6/4K3 w - d6 0 1", 0, {15, 116, 1718, 15177, 220306}, NULL, NULL},
    {"A4 en passant that uncovers the own King, then captured along the rank "
     "(AMBI-4)",
     "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", 0, {7, 87, 582, 8471, 61144}, NULL, NULL},
    {"A5 two pawns and a rook on one promotion square: 9 candidates (AMBI-2, "
     "AMBI-3)",
     "3r2k1/2P1P3/8/8/8/8/8/3RK3 w - - 0 1", 0, {15, 175, 2579, 32912, 535661}, NULL, NULL},
    {"A6 a King in check that may be sent to capture a defended rook, or step "
     "into attack (AMBI-2, AMBI-4)",
     "4k3/8/8/7b/8/2N5/4r3/4K3 w - - 0 1", 0, {11, 177, 1698, 30886, 307282}, NULL, NULL},
    {"A7 a pawn step that leaves White no square; a capture by two pawns "
     "(AMBI-5, AMBI-2)",
     "k7/8/8/6p1/8/5pPp/5PRP/6BK b - - 0 1", 0, {5, 5, 29, 64, 308}, NULL, NULL},
    {"A8 White to move has no square: lost (AMBI-5)",
     "k7/8/8/8/6p1/5pPp/5PRP/6BK w - - 0 1", 0, {0, 0, 0, 0, 0}, NULL, NULL},
    {"A9 Ra1 checks; the mate rule off (AMBI-6 off by default)",
     "6k1/8/8/8/8/6N1/r4PPP/6K1 b - - 0 1", 0, {17, 169, 2410, 26070, 367433}, NULL, NULL},
    {"A10 Ra1 mates with the mate rule on: f1 and h1 can take the King as well "
     "as the knight (AMBI-6)",
     "6k1/8/8/8/8/6N1/r4PPP/6K1 b - - 0 1", 1, {17, 159, 2262, 23963, 336208}, NULL, NULL},
    {"A11 mated at the root: every square keeps the King attacked (AMBI-6 off)",
     "6k1/8/8/8/8/6N1/5PPP/r5K1 w - - 0 1", 0, {10, 148, 1550, 22098, 262787}, NULL, NULL},
    {"A12 mated at the root, the mate rule on: the game is over (AMBI-6)",
     "6k1/8/8/8/8/6N1/5PPP/r5K1 w - - 0 1", 1, {0, 0, 0, 0, 0}, NULL, NULL},
    {"A13 Ra1 checks but the knight can name the black King's square: no mate "
     "(AMBI-4 before AMBI-6)",
     "8/8/8/7k/8/6N1/r4PPP/6K1 b - - 0 1", 1, {17, 168, 2237, 23685, 330752}, NULL, NULL},
    {"A14 Rg8 and Rb1 leave White only King squares, the mate rule off",
     "1r6/8/8/8/8/k6p/7P/7K b - - 0 1", 0, {16, 32, 466, 2484, 40328}, NULL, NULL},
    {"A15 the same with the mate rule on: Rb1 mates, Rg8 stalemates (AMBI-6)",
     "1r6/8/8/8/8/k6p/7P/7K b - - 0 1", 1, {16, 28, 397, 2145, 34626}, NULL, NULL},
    {"A16 A6 after Kd2: Black may name d2, the White King's square, at once "
     "(AMBI-4)",
     "4k3/8/8/7b/8/2N5/3Kr3/8 b - - 1 1", 0, {17, 186, 3050, 31273, 536180},
     "4k3/8/8/7b/8/2N5/4r3/4K3 w - - 0 1", "e1d2"},
};

/* ---- The counter checked by hand and by symmetry ------------------------ */

static uint64_t counter(const char *fen, int depth, int mate)
{
    Position p;
    tu_chess_load(&p, fen);
    return amb_count(&p, depth, mate);
}

/* uci with the board turned over (e2e4 -> e7e5), in place. */
static void mirror_uci(char *uci)
{
    uci[1] = (char)('1' + '8' - uci[1]);
    uci[3] = (char)('1' + '8' - uci[3]);
}

/* fen with the board turned over and the colours swapped: the same tree. */
static void mirror_fen(const char *fen, char *out, size_t n)
{
    char board[100], side, castle[8], ep[3];
    int half, full;
    if (sscanf(fen, "%99s %c %7s %2s %d %d", board, &side, castle, ep, &half, &full) != 6)
        fail_msg("cannot split %s", fen);
    StrBuf b = STRBUF_INIT;
    for (char *rank = board + strlen(board);; rank--) {
        if (rank == board || rank[-1] == '/') {
            for (const char *c = rank; *c && *c != '/'; c++)
                sb_putc(&b, (char)(isupper((unsigned char)*c) ? tolower((unsigned char)*c)
                                                              : toupper((unsigned char)*c)));
            if (rank == board)
                break;
            sb_putc(&b, '/');
        }
    }
    sb_printf(&b, " %c ", side == 'w' ? 'b' : 'w');
    if (strcmp(castle, "-") == 0)
        sb_putc(&b, '-');
    for (const char *f = "KQkq"; *f && strcmp(castle, "-"); f++) {
        char mirrored = (char)(isupper((unsigned char)*f) ? tolower((unsigned char)*f)
                                                         : toupper((unsigned char)*f));
        if (strchr(castle, mirrored))
            sb_putc(&b, *f);
    }
    if (ep[0] == '-')
        sb_printf(&b, " - %d %d", half, full);
    else
        sb_printf(&b, " %c%c %d %d", ep[0], ep[1] == '3' ? '6' : '3', half, full);
    str_copy(out, n, sb_str(&b));
    sb_free(&b);
}

/* The counter's Position of case c, or of its mirror image.  A case
 * reached through moves must land on its own fen. */
static void load_case(const AmbCase *c, int mirrored, Position *p)
{
    char fen[128];
    if (!c->base) {
        if (mirrored)
            mirror_fen(c->fen, fen, sizeof fen);
        tu_chess_load(p, mirrored ? fen : c->fen);
        return;
    }
    if (mirrored)
        mirror_fen(c->base, fen, sizeof fen);
    tu_chess_load(p, mirrored ? fen : c->base);
    char moves[128];
    str_copy(moves, sizeof moves, c->moves);
    for (char *save, *uci = strtok_r(moves, " ", &save); uci; uci = strtok_r(NULL, " ", &save)) {
        if (mirrored)
            mirror_uci(uci);
        chess_make(p, pseudo_move(p, uci));
    }
    if (!mirrored) {
        StrBuf got = STRBUF_INIT;
        chess_to_fen(p, &got);
        if (strcmp(sb_str(&got), c->fen) != 0)
            fail_msg("%s: %s then %s gives %s", c->name, c->base, c->moves, sb_str(&got));
        sb_free(&got);
    }
}

/* Counts derived by hand.  Start: 16 squares (a3..h4; the knights' a3 c3
 * f3 h3 are pawn squares too); at depth 2 the 12 single squares have 16
 * answers each and the 4 shared ones 2 choices: 192 + 8.
 * A7: Black names a7 b7 b8 (King), g4 (g5 pawn), g2 (f3 or h3 pawn) = 5.
 * Depth 2: the King squares leave White g4 only (3), g4 leaves White no
 * square (0, AMBI-5), g2 has 2 choices: 5.  Depth 3: after Ka7 / Kb7 / Kb8
 * and g3-g4 Black has 5 / 8 / 5 King squares plus g2 (21); after fxg2 White
 * names g2 f3 f4 g4, after hxg2 g2 h3 h4 g4 (8): 29.
 * A11: Kf1 Kh1 (shared with the knight), f3 f4 h3 h4, Ne2 Ne4 Nf5 Nh5: 10;
 * every one keeps the King on the first rank or on g1: mated when on.
 * A14: the rook's 14 squares and the King's 5, b2 b3 b4 shared: 16.  At
 * depth 2 the three shared squares give 2 choices each (6); after each of
 * the other 13 White names g1 and g2 (h2 is blocked by h3): 26, total 32.
 * With the mate rule on, after Rb1 (g1 attacked by the rook, g2 by the
 * pawn: mate) and Rg8 (both attacked, no check: stalemate) White has lost:
 * 28.  A13 shows the other side of the definition: after Ra1 White is in
 * the same net as in A11 but can name h5, the black King's square.
 * A16: King d8 f8 d7 e7 f7, rook e1 e3..e7 d2 (the King) f2 g2 h2, bishop
 * g6 f7 g4 f3; e7 and f7 counted once: 17. */
static void test_ambi_counter_by_hand(void **state)
{
    (void)state;
    assert_int_equal(counter(FEN_START, 1, 0), 16);
    assert_int_equal(counter(FEN_START, 2, 0), 200);
    const char *a7 = "k7/8/8/6p1/8/5pPp/5PRP/6BK b - - 0 1";
    assert_int_equal(counter(a7, 1, 0), 5);
    assert_int_equal(counter(a7, 2, 0), 5);
    assert_int_equal(counter(a7, 3, 0), 29);
    const char *a11 = "6k1/8/8/8/8/6N1/5PPP/r5K1 w - - 0 1";
    assert_int_equal(counter(a11, 1, 0), 10);
    assert_int_equal(counter(a11, 1, 1), 0);
    const char *a14 = "1r6/8/8/8/8/k6p/7P/7K b - - 0 1";
    assert_int_equal(counter(a14, 1, 0), 16);
    assert_int_equal(counter(a14, 2, 0), 32);
    assert_int_equal(counter(a14, 2, 1), 28);
    const char *a13 = "8/8/8/7k/8/6N1/r4PPP/6K1 b - - 0 1";
    assert_int_equal(counter(a13, 2, 1), counter(a13, 2, 0));
    Position a16;
    load_case(&CASES[ARRAY_LEN(CASES) - 1], 0, &a16);
    assert_int_equal(amb_count(&a16, 1, 0), 17);
    /* The same with the knight on e3: d1 is reached by the knight alone
     * and blocks the rook, so White is not mated. */
    assert_int_equal(counter("6k1/8/8/8/8/4N3/5PPP/r5K1 w - - 0 1", 1, 1),
                     counter("6k1/8/8/8/8/4N3/5PPP/r5K1 w - - 0 1", 1, 0));
}

/* Every documented count is also the count of the mirrored position. */
static void test_ambi_counter_colour_symmetry(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++) {
        Position p, q;
        load_case(&CASES[i], 0, &p);
        load_case(&CASES[i], 1, &q);
        for (int d = 1; d <= 5 && CASES[i].counts[d - 1] < PERFT_CAP; d++) {
            uint64_t a = amb_count(&p, d, CASES[i].mate);
            uint64_t b = amb_count(&q, d, CASES[i].mate);
            if (a != CASES[i].counts[d - 1] || b != a)
                fail_msg("%s depth %d: counter %" PRIu64 ", mirrored %" PRIu64
                         ", documented %" PRIu64, CASES[i].name, d, a, b,
                         CASES[i].counts[d - 1]);
        }
    }
}

/* ---- The engine against the counter -------------------------------------- */

static Game *engine_game(const char *fen, int mate)
{
    const VariantOps *v = variant_find("ambigus");
    if (!v)
        fail_msg("the registry has no \"ambigus\" variant");
    return tu_game(&(TuGame){.variant = v, .position = fen,
                             .params = mate ? "mate=on" : NULL});
}

typedef struct DivLine {
    char text[16];
    uint64_t n;
} DivLine;

typedef struct Divide {
    DivLine v[64];
    int n;
} Divide;

static void divide_add(void *ud, const char *text, uint64_t n)
{
    Divide *d = ud;
    if (d->n == (int)ARRAY_LEN(d->v))
        fail_msg("more than 64 root actions: %s", text);
    str_copy(d->v[d->n].text, sizeof d->v[0].text, text);
    d->v[d->n++].n = n;
}

static int divline_cmp(const void *a, const void *b)
{
    return strcmp(((const DivLine *)a)->text, ((const DivLine *)b)->text);
}

/* Both divides side by side, one root action a line, "<<" where they
 * differ; returns the number of differing lines. */
static int divide_table(Divide *eng, Divide *ref, StrBuf *out)
{
    int diffs = 0, i = 0, j = 0;
    qsort(eng->v, (size_t)eng->n, sizeof eng->v[0], divline_cmp);
    qsort(ref->v, (size_t)ref->n, sizeof ref->v[0], divline_cmp);
    sb_printf(out, "  %-10s %12s %12s\n", "action", "engine", "counter");
    while (i < eng->n || j < ref->n) {
        int c = i == eng->n ? 1 : j == ref->n ? -1 : strcmp(eng->v[i].text, ref->v[j].text);
        char e[24] = "-", r[24] = "-";
        const char *text = c <= 0 ? eng->v[i].text : ref->v[j].text;
        if (c <= 0)
            snprintf(e, sizeof e, "%" PRIu64, eng->v[i++].n);
        if (c >= 0)
            snprintf(r, sizeof r, "%" PRIu64, ref->v[j++].n);
        int same = strcmp(e, r) == 0;
        diffs += !same;
        sb_printf(out, "  %-10s %12s %12s%s\n", text, e, r, same ? "" : "  <<");
    }
    return diffs;
}

/* One position at one depth: the engine's perft, generic perft and
 * divide, the counter's count and divide, and the documented count all
 * agree; otherwise both divides are printed. */
static void check_engine_depth(const AmbCase *c, const Game *g, const Position *p, int d)
{
    Divide eng = {.n = 0}, ref = {.n = 0};
    const uint64_t fast = game_perft(g, d), generic = game_perft_generic(g, d);
    const uint64_t etotal = game_perft_divide(g, d, divide_add, &eng);
    const uint64_t rtotal = amb_divide(p, d, c->mate, divide_add, &ref);
    StrBuf table = STRBUF_INIT;
    const int ndiff = divide_table(&eng, &ref, &table);
    if (ndiff || fast != rtotal || generic != rtotal || etotal != rtotal ||
        rtotal != c->counts[d - 1])
        fail_msg("%s\n  %s%s depth %d: engine perft %" PRIu64 ", generic %" PRIu64
                 ", divide %" PRIu64 "; counter %" PRIu64 "; documented %" PRIu64
                 "\n%s", c->name, c->fen, c->mate ? " mate=on" : "", d, fast, generic,
                 etotal, rtotal, c->counts[d - 1], sb_str(&table));
    sb_free(&table);
}

/* AMBI-1 .. AMBI-6 over the action tree: every documented position, every
 * depth whose count is under the cap. */
static void test_ambi_engine_perft_matches_counter(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++) {
        Game *g = engine_game(CASES[i].fen, CASES[i].mate);
        Position p;
        load_case(&CASES[i], 0, &p);
        for (int d = 1; d <= 5 && CASES[i].counts[d - 1] < PERFT_CAP; d++, checked++)
            check_engine_depth(&CASES[i], g, &p, d);
        game_free(g);
    }
    assert_true(checked >= (int)ARRAY_LEN(CASES) * 3);
}

/* The engine's own start position is A1's. */
static void test_ambi1_engine_start_position(void **state)
{
    (void)state;
    Game *g = engine_game(NULL, 0);
    for (int d = 1; d <= 4; d++)
        assert_int_equal(game_perft(g, d), CASES[0].counts[d - 1]);
    game_free(g);
}


/* ---- docs/AMBIGUS.md: the documented figures are the tested ones ------- */

/* Tests run from the repository root. */
#define DOC_PATH "docs/AMBIGUS.md"

/* One row of the doc's table "Perft positions". */
typedef struct DocRow {
    char id[8];         /* "A7" */
    char fen[128];
    int mate;
    uint64_t counts[5]; /* d1 .. d5 */
    uint64_t d6;        /* "d6 = N" in the row's text; 0 if none */
    int lineno;
} DocRow;

/* The whole file, malloc'd. */
static char *doc_read(void)
{
    char *s = tu_read_file(DOC_PATH);
    if (!s)
        fail_msg("cannot open %s (tests run from the repository root)", DOC_PATH);
    return s;
}

/* A figure as the doc writes it ("474428", "6 258 768"): digits, groups
 * of three after single spaces.  Moves *t past it; -1 if none. */
static int doc_number(const char **t, uint64_t *out)
{
    const char *c = *t;
    if (!isdigit((unsigned char)*c))
        return -1;
    *out = 0;
    for (;;) {
        while (isdigit((unsigned char)*c))
            *out = *out * 10 + (uint64_t)(*c++ - '0');
        if (!(c[0] == ' ' && isdigit((unsigned char)c[1]) && isdigit((unsigned char)c[2]) &&
              isdigit((unsigned char)c[3]) && !isdigit((unsigned char)c[4])))
            break;
        c++;
    }
    *t = c;
    return 0;
}

/* cell (trimmed, in place) of a table line split at '|'. */
static char *doc_trim(char *cell)
{
    while (isspace((unsigned char)*cell))
        cell++;
    char *end = cell + strlen(cell);
    while (end > cell && isspace((unsigned char)end[-1]))
        *--end = '\0';
    return cell;
}

/* A count cell: a figure and nothing else. */
static uint64_t doc_count(const char *cell, int lineno, int depth)
{
    uint64_t n;
    const char *c = cell;
    if (doc_number(&c, &n) || *c)
        fail_msg("%s:%d: d%d \"%s\" is not a count", DOC_PATH, lineno, depth, cell);
    return n;
}

/* One table line "| A7 | text | `FEN` | - | 5 | 5 | 29 | 64 | 308 |";
 * a position "as A9" is that row's. */
static void doc_row(char *line, int lineno, const DocRow *rows, int nrows, DocRow *r)
{
    char *cell[12];
    int n = 0;
    for (char *save, *c = strtok_r(line, "|", &save); c && n < 12;
         c = strtok_r(NULL, "|", &save))
        cell[n++] = doc_trim(c);
    if (n != 9)
        fail_msg("%s:%d: a perft row has %d cells, not 9", DOC_PATH, lineno, n);
    memset(r, 0, sizeof *r);
    r->lineno = lineno;
    str_copy(r->id, sizeof r->id, cell[0]);
    const char *d6 = strstr(cell[1], "d6 = ");
    if (d6 && (d6 += 5, doc_number(&d6, &r->d6)))
        fail_msg("%s:%d: \"d6 = \" without a count", DOC_PATH, lineno);
    const size_t len = strlen(cell[2]);
    if (len > 2 && cell[2][0] == '`' && cell[2][len - 1] == '`') {
        snprintf(r->fen, sizeof r->fen, "%.*s", (int)len - 2, cell[2] + 1);
    } else if (strncmp(cell[2], "as ", 3) == 0) {
        for (int i = 0; i < nrows && !r->fen[0]; i++)
            if (strcmp(rows[i].id, cell[2] + 3) == 0)
                str_copy(r->fen, sizeof r->fen, rows[i].fen);
        if (!r->fen[0])
            fail_msg("%s:%d: \"%s\": no row above has that name", DOC_PATH, lineno, cell[2]);
    } else {
        fail_msg("%s:%d: position \"%s\" is neither `FEN` nor \"as A<n>\"", DOC_PATH,
                 lineno, cell[2]);
    }
    if (strcmp(cell[3], "on") && strcmp(cell[3], "-"))
        fail_msg("%s:%d: mate \"%s\" is neither on nor -", DOC_PATH, lineno, cell[3]);
    r->mate = strcmp(cell[3], "on") == 0;
    for (int d = 1; d <= 5; d++)
        r->counts[d - 1] = doc_count(cell[3 + d], lineno, d);
}

/* The rows of the section "## Perft positions"; returns how many. */
static int doc_rows(const char *doc, DocRow *rows, int max)
{
    const char *sec = strstr(doc, "\n## Perft positions\n");
    if (!sec)
        fail_msg("%s has no section \"## Perft positions\"", DOC_PATH);
    int lineno = 2, n = 0;
    for (const char *c = doc; c < sec; c++)
        lineno += *c == '\n';
    for (const char *line = sec + 1; *line; lineno++) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        if (line != sec + 1 && strncmp(line, "## ", 3) == 0)
            break; /* the next section */
        if (strncmp(line, "| A", 3) == 0 && isdigit((unsigned char)line[3])) {
            if (n == max)
                fail_msg("%s: more than %d perft rows", DOC_PATH, max);
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)len, line);
            doc_row(buf, lineno, rows, n, &rows[n]);
            n++;
        }
        line += len + (end != NULL);
    }
    return n;
}

/* The case whose name starts with id and a space. */
static const AmbCase *case_named(const char *id)
{
    const size_t n = strlen(id);
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++)
        if (strncmp(CASES[i].name, id, n) == 0 && CASES[i].name[n] == ' ')
            return &CASES[i];
    return NULL;
}

/* Every documented row is a case of CASES with the same position, mate
 * rule and counts (which test_ambi_engine_perft_matches_counter holds to
 * the engine and the counter), and every case is documented once; a
 * documented d6 is the engine's (fast perft). */
static void test_ambi_doc_table_matches(void **state)
{
    (void)state;
    char *doc = doc_read();
    DocRow rows[64];
    const int n = doc_rows(doc, rows, (int)ARRAY_LEN(rows));
    int seen[ARRAY_LEN(CASES)] = {0};
    for (int i = 0; i < n; i++) {
        const DocRow *r = &rows[i];
        const AmbCase *c = case_named(r->id);
        if (!c)
            fail_msg("%s:%d: %s is not a case of the test's table CASES", DOC_PATH,
                     r->lineno, r->id);
        seen[c - CASES]++;
        if (strcmp(r->fen, c->fen) || r->mate != c->mate)
            fail_msg("%s:%d: %s documents \"%s\"%s, the test has \"%s\"%s", DOC_PATH,
                     r->lineno, r->id, r->fen, r->mate ? " mate=on" : "", c->fen,
                     c->mate ? " mate=on" : "");
        for (int d = 1; d <= 5; d++)
            if (r->counts[d - 1] != c->counts[d - 1])
                fail_msg("%s:%d: %s d%d documented %" PRIu64 ", the test's table has %"
                         PRIu64, DOC_PATH, r->lineno, r->id, d, r->counts[d - 1],
                         c->counts[d - 1]);
        if (r->d6) {
            Game *g = tu_game(&(TuGame){.variant = variant_find("ambigus"),
                                        .position = c->fen,
                                        .params = c->mate ? "mate=on" : NULL});
            const uint64_t got = game_perft(g, 6);
            game_free(g);
            if (got != r->d6)
                fail_msg("%s:%d: %s d6 documented %" PRIu64 ", the engine counts %" PRIu64,
                         DOC_PATH, r->lineno, r->id, r->d6, got);
        }
    }
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++)
        if (seen[i] != 1)
            fail_msg("%s: the case \"%s\" is documented %d times, not once", DOC_PATH,
                     CASES[i].name, seen[i]);
    free(doc);
}

/* The figures "From the start: 16, 200, ..." in the section "Perft" are
 * A1's, the sixth (depth 6) that of A1's row. */
static void test_ambi_doc_start_figures_match(void **state)
{
    (void)state;
    char *doc = doc_read();
    const char *c = strstr(doc, "From the start:");
    if (!c)
        fail_msg("%s has no \"From the start:\" figures", DOC_PATH);
    c += strlen("From the start:");
    uint64_t fig[8];
    int n = 0;
    for (;;) {
        while (isspace((unsigned char)*c))
            c++;
        if (n == 8 || doc_number(&c, &fig[n]))
            break;
        n++;
        if (*c++ != ',')
            break;
    }
    if (n < 6)
        fail_msg("%s: \"From the start:\" lists %d figures, not 6", DOC_PATH, n);
    assert_string_equal(CASES[0].fen, FEN_START);
    for (int d = 1; d <= 5; d++)
        if (fig[d - 1] != CASES[0].counts[d - 1])
            fail_msg("%s: from the start, depth %d is documented %" PRIu64 ", the test's "
                     "table has %" PRIu64, DOC_PATH, d, fig[d - 1], CASES[0].counts[d - 1]);
    /* Depth 6 is A1's "d6 = ...", which the test above holds to the engine. */
    DocRow rows[64];
    const int nrows = doc_rows(doc, rows, (int)ARRAY_LEN(rows));
    uint64_t d6 = 0;
    for (int i = 0; i < nrows; i++)
        if (case_named(rows[i].id) == &CASES[0])
            d6 = rows[i].d6;
    if (fig[5] != d6)
        fail_msg("%s: from the start, depth 6 is documented %" PRIu64 ", and %" PRIu64
                 " in A1's row", DOC_PATH, fig[5], d6);
    free(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ambi4_pseudo_moves_filter_to_legal),
        cmocka_unit_test(test_ambi4_pseudo_moves_by_hand),
        cmocka_unit_test(test_ambi_counter_by_hand),
        cmocka_unit_test(test_ambi_counter_colour_symmetry),
        cmocka_unit_test(test_ambi_engine_perft_matches_counter),
        cmocka_unit_test(test_ambi1_engine_start_position),
        cmocka_unit_test(test_ambi_doc_table_matches),
        cmocka_unit_test(test_ambi_doc_start_figures_match),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
