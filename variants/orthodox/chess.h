/*
 * chess.h -- the orthodox chess engine: bitboard position, legal move
 * generation, make-move, FEN, perft.  Variants that are "orthodox, except
 * ..." reuse it.  This is internal to variants/; the core never sees it.
 *
 * Invariant: a Position is always consistent (chess_position_ok): the
 * bitboards, the mailbox and the key agree, the side not to move is not
 * in check.  chess_from_fen guarantees it for outside input; chess_make
 * keeps it for legal moves.
 *
 * No mutable globals: every table is const (computed at build time or on
 * the fly), so any number of positions and games coexist.
 */
#ifndef CHESSVAR_CHESS_H
#define CHESSVAR_CHESS_H

#include <stdint.h>
#include "../../core/util.h"

typedef uint64_t Bitboard;

enum { CH_WHITE = 0, CH_BLACK = 1 };

/* Figures use the core's numbering: FIG_PAWN=1 .. FIG_KING=6.
 * A piece code in the mailbox is (color << 3) | figure; 0 is empty. */
#define CH_PIECE(color, fig) (((color) << 3) | (fig))
#define CH_COLOR(pc) ((pc) >> 3)
#define CH_FIG(pc) ((pc) & 7)

/* Squares 0..63: a1 = 0, b1 = 1, ..., h8 = 63.  file = sq & 7, rank = sq >> 3. */
#define CH_SQ(file, rank) ((rank) * 8 + (file))
#define CH_NO_SQ (-1)

/* Castling rights bits. */
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8 };

/* A move in 16 bits: from (6) | to (6) << 6 | kind (4) << 12.
 * Castling is written king-from -> king-to (e1g1), as UCI does. */
typedef uint16_t Move;
enum MoveKind {
    MK_NORMAL = 0,
    MK_DOUBLE = 1,  /* pawn double step */
    MK_CASTLE = 2,
    MK_EP = 3,      /* en passant capture */
    MK_PROMO_N = 4, MK_PROMO_B = 5, MK_PROMO_R = 6, MK_PROMO_Q = 7
};
#define MOVE_MAKE(from, to, kind) ((Move)((from) | ((to) << 6) | ((kind) << 12)))
#define MOVE_FROM(m) ((m) & 63)
#define MOVE_TO(m) (((m) >> 6) & 63)
#define MOVE_KIND(m) ((m) >> 12)
#define MOVE_IS_PROMO(m) (MOVE_KIND(m) >= MK_PROMO_N)
/* Figure a promotion move promotes to (FIG_KNIGHT..FIG_QUEEN), else 0. */
#define MOVE_PROMO_FIG(m) (MOVE_IS_PROMO(m) ? MOVE_KIND(m) - MK_PROMO_N + 2 : 0)

#define CH_MAX_MOVES 256
/* Without the check rule the bound of legal positions does not hold; per
 * piece at most Q 27, R 14, B 13, N 8, K 8, a pawn 12 (three squares, four
 * figures): nine queens, two each of R B N and the King make 321. */
#define CH_MAX_PSEUDO_MOVES 321

typedef struct Position {
    Bitboard by_color[2];
    Bitboard by_fig[7];     /* index FIG_PAWN..FIG_KING; [0] unused */
    uint8_t board[64];      /* piece codes, 0 empty */
    uint8_t side;           /* CH_WHITE or CH_BLACK to move */
    uint8_t castling;       /* CASTLE_* bits */
    int8_t ep;              /* en passant target square (FEN field), or -1 */
    uint8_t ep_keyed;       /* 1 when the key includes ep: the side to move
                               has a legal en passant capture */
    uint16_t halfmove;      /* plies since the last capture or pawn move */
    uint16_t fullmove;      /* starts at 1, incremented after Black moves */
    uint64_t key;           /* Zobrist key: pieces, side, castling, and ep
                               only when an en passant capture is legal
                               (so it is a proper repetition key) */
} Position;

/* The standard start position. */
void chess_startpos(Position *p);
/* Read FEN (4 to 6 fields; missing counters default to 0 1).  Rejects
 * malformed or impossible positions with a message naming the problem:
 * bad rank length, unknown letter, missing/extra King, pawn on rank 1/8,
 * castling right without King and Rook in place, an impossible en passant
 * square, the side not to move in check, absurd counters ...
 * Returns 0, or -1 with e set and *p unchanged. */
int chess_from_fen(Position *p, const char *fen, Error *e);
/* Bits of chess_from_fen_rules' rules. */
enum {
    /* Skip only the check rule's tests (the side not to move in check,
     * more than two checkers), for variants without check; the result
     * then need not pass chess_position_ok. */
    CH_FEN_NO_CHECK_RULE = 1 << 0
};
/* chess_from_fen with some of its tests switched off by rules (0: none,
 * which is chess_from_fen). */
int chess_from_fen_rules(Position *p, const char *fen, unsigned rules, Error *e);
/* Write FEN (en passant square written only after a double step, as
 * stored). */
void chess_to_fen(const Position *p, StrBuf *out);

/* All legal moves; returns the count (<= CH_MAX_MOVES). */
int chess_legal_moves(const Position *p, Move *out);
/* Has the side to move a legal move (chess_legal_moves > 0, cheaper)?
 * *in_check (may be NULL): chess_in_check(p). */
int chess_has_legal_move(const Position *p, int *in_check);
/* The number n of legal moves, and in *out (when n > 0) the one at index
 * draw(ud, n) of chess_legal_moves's order, with less work than listing
 * them (random playouts). */
int chess_legal_draw(const Position *p, uint32_t (*draw)(void *ud, uint32_t n), void *ud,
                     Move *out);
/* All pseudo-legal moves: every orthodox move of the side to move with
 * its own King's safety ignored (it may stay or step into attack, and an
 * enemy King may be captured), en passant and double steps included;
 * castling only as orthodox allows it.  Returns the count (<=
 * CH_MAX_PSEUDO_MOVES).  chess_make plays them all correctly, but a
 * Position reached this way may break the "not in check" invariant, and
 * after a King capture it lacks a King: stop there (chess_make,
 * chess_in_check and chess_legal_moves assume both Kings stand). */
int chess_pseudo_moves(const Position *p, Move *out);
/* Play a legal move (no check that it is legal). */
void chess_make(Position *p, Move m);
/* Is the side to move in check? */
int chess_in_check(const Position *p);
/* Squares of pieces of `by` attacking sq, with the given occupancy. */
Bitboard chess_attackers(const Position *p, int sq, int by, Bitboard occ);
/* 1 if the side to move has a legal en passant capture (this is when the
 * key includes the en passant file). */
int chess_ep_legal(const Position *p);
/* Leaves at depth (depth >= 1 bulk-counts the last ply; depth 0 = 1). */
uint64_t chess_perft(const Position *p, int depth);
/* Insufficient material to mate: K v K, K+minor v K, K+B v K+B with
 * bishops on the same colour. */
int chess_insufficient_material(const Position *p);
/* Full consistency check (bitboards, mailbox, key, kings); 1 if ok. */
int chess_position_ok(const Position *p);
/* The key recomputed from scratch. */
uint64_t chess_compute_key(const Position *p);

/* "e4" for square 28; buf >= 3 bytes. */
const char *chess_square_name(int sq, char *buf);
/* Move in UCI ("e2e4", "e7e8q"); buf >= 6 bytes. */
const char *chess_move_uci(Move m, char *buf);

#endif
