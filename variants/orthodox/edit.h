/*
 * edit.h -- house-rule edits of a chess board (remove, add, change a
 * piece: core/variant.h Edit), shared by the variants built on the
 * orthodox engine (orthodox, ambigus).  Internal to variants/.
 *
 * Invariant: chess_edit_board changes a Position only after the edit has
 * passed the board's own tests (a square of the board, a piece there or
 * none, a figure, one King per side, no pawn on rank 1 or 8); it then
 * drops the castling rights and the en passant target that no longer
 * make sense, so the result's FEN is one the variant's reader may accept.
 * The key and ep_keyed are left stale: the caller re-reads the position
 * through its own reader (chess_edit_fen, then chess_from_fen or
 * amb_read), which builds every derived field exactly as for outside
 * input.
 */
#ifndef CHESSVAR_CHESS_EDIT_H
#define CHESSVAR_CHESS_EDIT_H

#include "chess.h"
#include "../../core/variant.h"

/* What a variant's rules say, for the texts of refusals. */
typedef struct ChessEditRules {
    const char *king_rule;  /* "ORTH-1": each side keeps exactly one King */
    const char *pawn_rule;  /* "ORTH-4": no pawn on rank 1 or 8 */
} ChessEditRules;

/* Apply ed to p's board (see the invariant), or -1 with e naming the
 * square and the rule ("cannot remove the white King on e1: each side
 * keeps exactly one King (ORTH-1)"); p is then unchanged.  said receives
 * what every seat is told ("house rule: the black knight on d7 is
 * removed"); the verb of the edit goes to *what ("remove the black knight
 * on d7"), for the caller's later refusals. */
int chess_edit_board(Position *p, const Edit *ed, const ChessEditRules *r,
                     StrBuf *said, StrBuf *what, Error *e);

/* "the white pawn on e2" for the piece on sq of p; buf >= 32 bytes. */
const char *chess_edit_piece_text(const Position *p, int sq, char *buf, size_t n);

/* The FEN of p with neutral counters (0 1), so a reader whose counters
 * have limits that a long game may pass still reads it; the caller puts
 * p's counters back after reading. */
void chess_edit_fen(const Position *p, StrBuf *out);

#endif
