/*
 * ech.h -- private to L'Échiqueté (rules ECHQ-1 .. ECHQ-13): the state blob,
 * the mailbox engine (attacks, move generation, make) and the position
 * string.  The contract is docs/ECHIQUETE.md.
 *
 * Invariant: an EchState holds no pointers and is always consistent: each
 * colour has exactly one one-coloured King, no merged King, no merged pawn
 * on rank 1 or 8, EK_KEPT only on a merged pawn on rank 2 or 7; in phase 1
 * the side not to move is not in check.  ech_init guarantees it for outside
 * input and ech_make keeps it for the moves ech_moves generates.
 */
#ifndef CHESSVAR_ECH_H
#define CHESSVAR_ECH_H

#include <stdint.h>
#include "../../core/game.h"

/* Sides (nsides = 3). */
enum { ES_WHITE = 0, ES_BLACK = 1, ES_MERGED = 2 };

/* A square's code: figure (FIG_PAWN..FIG_KING) | colour << 3 | EK_KEPT.
 * Colour 0 white, 1 black, 2 merged; 0 is an empty square. */
#define EK_PIECE(col, fig) ((uint8_t)(((col) << 3) | (fig)))
#define EK_FIG(pc) ((pc) & 7)
#define EK_COL(pc) (((pc) >> 3) & 3)
#define EK_KEPT 0x20 /* ECHQ-7: a merged pawn that keeps its double step */

/* Squares 0..63, a1 = 0, h8 = 63. */
#define EK_FILE(sq) ((sq) & 7)
#define EK_RANK(sq) ((sq) >> 3)

enum { EC_EWB = 0, EC_EBW = 1 }; /* phase 2 turn cycles (ECHQ-9) */
enum { ECASTLE_WK = 1, ECASTLE_WQ = 2, ECASTLE_BK = 4, ECASTLE_BQ = 8 };

typedef struct EchState {
    uint8_t board[64];
    uint8_t to_move;    /* ES_* */
    uint8_t phase;      /* 1 or 2 */
    uint8_t cycle;      /* EC_*, phase 2 */
    int8_t seat[3];     /* the seat commanding each side, -1 none */
    uint8_t out;        /* mask of sides that are out (phase 2) */
    uint8_t passes;     /* consecutive passes (phase 2) */
    uint8_t castling;   /* ECASTLE_* */
    int8_t ep;          /* square passed by the last double step, or -1 */
    int8_t noundo_from; /* ECHQ-6: the move forbidden now, or -1 */
    int8_t noundo_to;
    uint16_t halfmove;
    uint16_t fullmove;
} EchState;

/* Parameter indices, in table order (echiquete.c). */
enum {
    EP_PHASE2,
    EP_TAKEOVER_FROM,
    EP_NOUNDO,
    EP_E_MATE,
    EP_COLOUR_MATE,
    EP_PASS_ROUND,
    EP_DUO_MATE,
    EP_DUO_EMPTY,
    EP_THREEFOLD,
    EP_FIFTY,
    EP_FIVEFOLD,
    EP_SEVENTY_FIVE,
    EP_INSUFFICIENT,
    EP__COUNT
};

/* An internal move.  fig: the figure letter written (merge choice,
 * promotion), 0 for none.  EM_PASS as from marks a pass. */
typedef struct EMove {
    int8_t from, to;
    uint8_t fig;
} EMove;
#define EM_PASS (-2)
#define ECH_MAX_MOVES 512

/* Engine (engine.c). */
int ech_two_seat(const EchState *s);
/* The side at place i (0 .. 2) of the phase-2 turn cycle (ECHQ-9). */
int ech_cycle_side(const EchState *s, int i);
int ech_active_count(const EchState *s);
int ech_merged_count(const EchState *s);
int ech_king_square(const EchState *s, int colour);
/* Is the King of colour attacked now, by the sides that may check it
 * (ECHQ-8 in phase 1, ECHQ-13 in phase 2)?  Mask of attacking sides. */
unsigned ech_king_attackers(const EchState *s, int colour);
/* Legal moves of the side to move (a lone pass when phase 2 allows one). */
int ech_moves(const Game *g, const EchState *s, EMove *out);
/* Is m one of ech_moves's moves?  (One move checked: apply's guard.) */
int ech_move_ok(const Game *g, const EchState *s, EMove m);
/* Play a move of ech_moves; then the turn passes (sides mated out, the
 * merged side emptied out: ECHQ-13).  Messages to ev (may be NULL). */
void ech_make(const Game *g, EchState *s, EMove m, Events *ev);
/* ECHQ-9 / 12: the takeover by seat. */
void ech_takeover(const Game *g, EchState *s, int seat, Events *ev);
/* Let sides that cannot play any more go out (ECHQ-13). */
void ech_resolve(const Game *g, EchState *s, Events *ev);
/* May seat take over now (ECHQ-9, 12)?  Any seat, the seat to act
 * included (as its action for that moment), in phase 1 with a merged piece
 * on the board and the side to move not mated or stalemated. */
int ech_may_take_over(const Game *g, const EchState *s, int seat);
/* ech_may_take_over but for the last condition, for callers that know
 * the side to move's moves already. */
int ech_takeover_open(const Game *g, const EchState *s, int seat);
/* Over by the board alone (last side standing, passes, an empty merged
 * side in two seats)?  Used by to_act and perft. */
int ech_structural_end(const Game *g, const EchState *s);
/* Is m an en passant capture / a capture at all in s? */
int ech_is_capture(const EchState *s, EMove m);
int ech_is_ep(const EchState *s, EMove m);

/* The rule behind an action (why.c, issue 22). */
int ech_why(const Game *g, const void *st, int seat, const Action *a,
            const char *refusal, WhyRule *out);

/* Position string (position.c). */
int ech_init(const Game *g, EchState *s, const char *text, Error *e);
void ech_write(const EchState *s, StrBuf *out);
void ech_startpos(EchState *s);

#endif
