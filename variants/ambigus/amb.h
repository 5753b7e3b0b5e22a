/*
 * amb.h -- internal API of the Échecs ambigus module (variants/ambigus/):
 * the state blob, its phases, the pseudo-legal generator, position
 * strings, texts and views.  The core never sees it.
 *
 * Invariant: an AmbState is plain data (the core copies it with memcpy).
 * Its Position always has exactly one King per side and no castling
 * rights: naming the enemy King's square ends the game before any piece
 * moves (AMBI-4), so no King is ever taken off the board.  In AP_CHOOSE
 * the named square has at least two candidate moves; in AP_OVER the named
 * square is the loser's King's square.
 *
 * The board code reuses the orthodox engine's types and constant tables
 * (chess.h, bitboard.h: Position, Move, attack tables, lines, Zobrist
 * constants, square names, chess_attackers, chess_to_fen), but generates
 * and plays its own pseudo-legal moves: no check, no castling, the own
 * King's safety ignored (AMBI-4).
 */
#ifndef CHESSVAR_AMB_H
#define CHESSVAR_AMB_H

#include "../orthodox/chess.h"
#include "../../core/game.h"

/* More than any position can have (nine queens alone reach 243). */
#define AMB_MAX_MOVES 400

/* Phases of the state. */
enum AmbPhase {
    AP_NAME = 0,   /* the side to move names a square (AMBI-1) */
    AP_CHOOSE = 1, /* its opponent chooses the candidate (AMBI-2, AMBI-3) */
    AP_OVER = 2    /* the side to move named the enemy King's square */
};

typedef struct AmbState {
    Position pos;      /* castling always 0; pos.side is the mover, also in
                          AP_CHOOSE (the move is not played yet) */
    uint8_t phase;     /* AmbPhase */
    int8_t named;      /* AP_CHOOSE, AP_OVER: the square named; else -1 */
    uint8_t has_proposal; /* AP_CHOOSE under AMBI-7: the mover proposed */
    uint8_t has_last;  /* a move was played (for views) */
    Move proposal;     /* ... this candidate (kept out of the hash) */
    Move last;         /* the last move played */
} AmbState;

/* Parameter indices, in table order (ambigus.c). */
enum AmbParam {
    AM_MATE,
    AM_STALEMATE,
    AM_CLOCK,
    AM_THREEFOLD,
    AM_FIFTY,
    AM_FIVEFOLD,
    AM_SEVENTY_FIVE,
    AM__COUNT
};
/* Choices of AM_STALEMATE: the fate of the side that delivers it. */
enum { STALE_WIN = 0, STALE_DRAW = 1, STALE_LOSS = 2 };

/* Action.flags of a naming action (ACT_MOVE with only `to` set). */
enum {
    AMB_AMBIGUOUS = 1 << 0, /* several candidate moves: the opponent chooses */
    AMB_KING = 1 << 1       /* the enemy King's square: naming it wins */
};

/* Action.note of a naming action under the clock procedure (AMBI-7): this
 * bit, and the proposed Move in the low 16 bits.  The note is not part of
 * the action's identity (action_eq ignores it), so the named square is the
 * same action with or without a proposal. */
#define AMB_NOTE_PROPOSAL 0x10000u

extern const char *const AMB_SIDE_NAMES[2];

/* ---- movegen.c: pseudo-legal moves (AMBI-1, AMBI-4) ------------------- */
/* Every move of the side to move: pawn steps, double steps, captures, en
 * passant and promotions (Q R B N, four moves), pieces and the King, with
 * the own King's safety ignored; no castling.  Returns the count. */
int amb_moves(const Position *p, Move *out);
/* The moves of list that land on sq, ordered by from-square, then
 * promotion figure Q R B N.  Returns the count. */
int amb_candidates(const Move *list, int n, int sq, Move *out);
/* Squares the side to move can name, and those with several candidates. */
void amb_targets(const Move *list, int n, Bitboard *all, Bitboard *ambiguous);
/* Play a pseudo-legal move that does not take a King; keeps the key. */
void amb_make(Position *p, Move m);
int amb_king_square(const Position *p, int color);
/* Is color's King attacked by the other side (could it be named)? */
int amb_king_attacked(const Position *p, int color);
/* AMBI-6: for every square the side to move may name, some choice of the
 * opponent leaves its King attackable.  Needs at least one move. */
int amb_doomed(const Position *p, const Move *list, int n);
/* Repetition key of the board (pieces, side, en passant when a pawn of
 * the side to move can take there). */
uint64_t amb_board_key(const Position *p);
/* 1 if a pawn of the side to move can take en passant. */
int amb_ep_possible(const Position *p);

/* ---- position.c: position strings ------------------------------------- */
/* Read "FEN" or "FEN choose SQ" or "FEN capture SQ" into s. */
int amb_read(AmbState *s, const char *text, Error *e);
void amb_start(AmbState *s);
void amb_write(const AmbState *s, StrBuf *out);
/* The repetition key of the whole state (phase and named square too). */
uint64_t amb_hash(const AmbState *s);
/* Full consistency check; 1 if ok. */
int amb_state_ok(const AmbState *s);

/* ---- text.c: action texts and parsing ---------------------------------- */
/* "Ng1", "Pb7=Q": the figure and from-square of candidate m of p. */
void amb_piece_text(const Position *p, Move m, StrBuf *out);
/* "Ng1f3", "Pe7e8=Q": the whole move. */
void amb_move_text(const Position *p, Move m, StrBuf *out);
void amb_format(const Game *g, const void *st, const Action *a, int style,
                StrBuf *out);
int amb_parse(const Game *g, const void *st, const ActionList *legal,
              const char *text, Action *out, Error *e);

/* ---- view.c ------------------------------------------------------------- */
void amb_view(const Game *g, const void *st, int seat, View *v);

/* ---- ambigus.c ---------------------------------------------------------- */
/* The opponent's choice of candidate m (s in AP_CHOOSE). */
Action amb_choose_action(const AmbState *s, Move m);
/* The rule behind an action (why.c, issue 22). */
int amb_why(const Game *g, const void *st, int seat, const Action *a,
            const char *refusal, WhyRule *out);

#endif
