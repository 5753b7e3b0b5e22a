/*
 * bitboard.c -- the orthodox engine's constant tables: knight, king and pawn
 * attacks, the four lines through each square, and the Zobrist keys.
 *
 * Invariant: every table is `static const`-style data computed by the
 * compiler from the constant expressions below (no start-up code, no
 * mutable state), so any number of games share them safely.
 */
#include "bitboard.h"

/* Expand F(sq) for sq = 0..63 (and F(i) for i = 0..1023). */
#define T8(F, s) F((s)), F((s) + 1), F((s) + 2), F((s) + 3), \
                 F((s) + 4), F((s) + 5), F((s) + 6), F((s) + 7)
#define T64(F, s) T8(F, (s)), T8(F, (s) + 8), T8(F, (s) + 16), T8(F, (s) + 24), \
                  T8(F, (s) + 32), T8(F, (s) + 40), T8(F, (s) + 48), T8(F, (s) + 56)
#define T256(F, s) T64(F, (s)), T64(F, (s) + 64), T64(F, (s) + 128), T64(F, (s) + 192)
#define T1024(F) T256(F, 0), T256(F, 256), T256(F, 512), T256(F, 768)

#define NOT_A  0xFEFEFEFEFEFEFEFEULL
#define NOT_AB 0xFCFCFCFCFCFCFCFCULL
#define NOT_H  0x7F7F7F7F7F7F7F7FULL
#define NOT_GH 0x3F3F3F3F3F3F3F3FULL

/* A shift that moves a piece right (towards h) must not land on file a
 * (it wrapped around), and vice versa. */
#define KNIGHT_FROM(b) \
    ((((b) << 17) & NOT_A) | (((b) << 15) & NOT_H) | (((b) << 10) & NOT_AB) | \
     (((b) << 6) & NOT_GH) | (((b) >> 17) & NOT_H) | (((b) >> 15) & NOT_A) | \
     (((b) >> 10) & NOT_GH) | (((b) >> 6) & NOT_AB))
#define KING_FROM(b) \
    (((b) << 8) | ((b) >> 8) | ((((b) << 1) | ((b) << 9) | ((b) >> 7)) & NOT_A) | \
     ((((b) >> 1) | ((b) >> 9) | ((b) << 7)) & NOT_H))
#define WPAWN_FROM(b) ((((b) << 9) & NOT_A) | (((b) << 7) & NOT_H))
#define BPAWN_FROM(b) ((((b) >> 7) & NOT_A) | (((b) >> 9) & NOT_H))

#define KNIGHT_SQ(s) KNIGHT_FROM(BB(s))
#define KING_SQ(s) KING_FROM(BB(s))
#define WPAWN_SQ(s) WPAWN_FROM(BB(s))
#define BPAWN_SQ(s) BPAWN_FROM(BB(s))

const Bitboard CH_KNIGHT_ATT[64] = {T64(KNIGHT_SQ, 0)};
const Bitboard CH_KING_ATT[64] = {T64(KING_SQ, 0)};
const Bitboard CH_PAWN_ATT[2][64] = {{T64(WPAWN_SQ, 0)}, {T64(BPAWN_SQ, 0)}};

#define MAIN_DIAG 0x8040201008040201ULL  /* a1-h8: file - rank == 0 */
#define MAIN_ANTI 0x0102040810204080ULL  /* h1-a8: file + rank == 7 */
#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)
/* Shifting by whole ranks moves a diagonal to its neighbours; bits pushed
 * off the board fall away, which is exactly the shorter diagonal. */
#define SHIFT_RANKS(b, d) \
    (((b) << (8 * ((d) > 0 ? (d) : 0))) >> (8 * ((d) < 0 ? -(d) : 0)))
#define RANK_LINE(s) (BB_RANK_1 << (8 * RANK_OF(s)))
#define FILE_LINE(s) (BB_FILE_A << FILE_OF(s))
#define DIAG_LINE(s) SHIFT_RANKS(MAIN_DIAG, RANK_OF(s) - FILE_OF(s))
#define ANTI_LINE(s) SHIFT_RANKS(MAIN_ANTI, RANK_OF(s) + FILE_OF(s) - 7)

const Bitboard CH_LINE[4][64] = {
    {T64(RANK_LINE, 0)}, {T64(FILE_LINE, 0)}, {T64(DIAG_LINE, 0)}, {T64(ANTI_LINE, 0)}};

/* splitmix64 of i, spelt as a constant expression. */
#define ZM0(i) ((uint64_t)(i) * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL)
#define ZM1(x) (((x) ^ ((x) >> 30)) * 0xBF58476D1CE4E5B9ULL)
#define ZM2(x) (((x) ^ ((x) >> 27)) * 0x94D049BB133111EBULL)
#define ZM3(x) ((x) ^ ((x) >> 31))
#define ZOB(i) ZM3(ZM2(ZM1(ZM0(i))))

const uint64_t CH_ZOBRIST[1024] = {T1024(ZOB)};
