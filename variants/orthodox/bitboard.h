/*
 * bitboard.h -- private to the orthodox engine: bit tricks, the constant
 * attack tables and slider attacks computed on the fly.
 *
 * Invariant: every table here is `const` data fixed at compile time
 * (bitboard.c builds them from constant expressions), so nothing in the
 * engine has mutable global state.
 *
 * Slider attacks use the "obstruction difference" on the four lines
 * through a square: the nearest blocker below the square (highest set bit)
 * and the nearest blocker above it (lowest set bit) bound the attacked
 * stretch of the line; blockers are included, the square itself is not.
 */
#ifndef CHESSVAR_BITBOARD_H
#define CHESSVAR_BITBOARD_H

#include "chess.h"

#define BB(sq) ((Bitboard)1 << (sq))
#define BB_FILE_A 0x0101010101010101ULL
#define BB_FILE_H 0x8080808080808080ULL
#define BB_RANK_1 0x00000000000000FFULL
#define BB_RANK_8 0xFF00000000000000ULL
#define BB_DARK   0xAA55AA55AA55AA55ULL   /* a1 is dark */

/* Lines through a square, indexed [LINE_*][sq]. */
enum { LINE_RANK = 0, LINE_FILE = 1, LINE_DIAG = 2, LINE_ANTI = 3 };

extern const Bitboard CH_KNIGHT_ATT[64];
extern const Bitboard CH_KING_ATT[64];
extern const Bitboard CH_PAWN_ATT[2][64];   /* squares a pawn of [color] on sq attacks */
extern const Bitboard CH_LINE[4][64];       /* full line through sq, sq included */

/* Zobrist keys, all fixed constants. */
extern const uint64_t CH_ZOBRIST[1024];
#define ZOB_PIECE(pc, sq) CH_ZOBRIST[(pc) * 64 + (sq)]   /* pc < 15 */
#define ZOB_CASTLE(c) CH_ZOBRIST[960 + (c)]               /* c < 16 */
#define ZOB_EP(file) CH_ZOBRIST[976 + (file)]
#define ZOB_SIDE CH_ZOBRIST[984]

static inline int bb_lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int bb_msb(Bitboard b) { return 63 - __builtin_clzll(b); }
static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
static inline int bb_many(Bitboard b) { return (b & (b - 1)) != 0; }
static inline int bb_pop(Bitboard *b)
{
    int sq = __builtin_ctzll(*b);
    *b &= *b - 1;
    return sq;
}

/* Attacks along one line through sq (sq excluded, first blockers included). */
static inline Bitboard bb_line_attacks(Bitboard line, int sq, Bitboard occ)
{
    Bitboard bit = BB(sq);
    Bitboard below = line & (bit - 1);
    Bitboard above = line & ~below & ~bit;
    Bitboard lo_block = below & occ;
    Bitboard hi_block = above & occ;
    /* All squares from the highest blocker below upwards (all of them if
     * there is none: the "| 1" makes the scan start at square 0). */
    Bitboard from_low = ~(Bitboard)0 << bb_msb(lo_block | 1);
    /* 2 * (lowest blocker above) - from_low's start: the stretch between the
     * two blockers, both included; 0 overflow means "no blocker above". */
    Bitboard first_hi = hi_block & (0 - hi_block);
    return (below | above) & (2 * first_hi + from_low);
}

static inline Bitboard bb_rook_attacks(int sq, Bitboard occ)
{
    return bb_line_attacks(CH_LINE[LINE_RANK][sq], sq, occ)
         | bb_line_attacks(CH_LINE[LINE_FILE][sq], sq, occ);
}

static inline Bitboard bb_bishop_attacks(int sq, Bitboard occ)
{
    return bb_line_attacks(CH_LINE[LINE_DIAG][sq], sq, occ)
         | bb_line_attacks(CH_LINE[LINE_ANTI][sq], sq, occ);
}

/* The full line through a and b (a != b), or 0 when they share none. */
static inline Bitboard bb_line_through(int a, int b)
{
    for (int l = 0; l < 4; l++)
        if (CH_LINE[l][a] & BB(b))
            return CH_LINE[l][a];
    return 0;
}

/* Squares strictly between a and b on their common line (0 if none). */
static inline Bitboard bb_between(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    Bitboard range = (BB(hi) - 1) & ~((BB(lo) << 1) - 1);
    return bb_line_through(a, b) & range;
}

#endif
