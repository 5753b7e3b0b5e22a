/*
 * echiquete_brute.h -- an independent, deliberately simple reference for
 * L'Échiqueté (rules ECHQ-1 .. ECHQ-13 in docs/RULES.md,
 * contract docs/ECHIQUETE.md): it reads a position string of the
 * contract into a plain mailbox, lists the legal actions of the side to act
 * in machine text (sorted), applies one on a copy, and counts perft.  Used
 * by tests/test_echiquete_brute.c and, by the lead, to cross-check the
 * engine's perft.
 *
 * Covered:
 *   - Phase 1 completely: ECHQ-1 merging captures with the figure choice
 *     (one action per distinct figure; a pawn capturing onto its last rank:
 *     Q, R, B, N), ECHQ-2 merged pieces moved by the side to move in its
 *     direction, ECHQ-3 merging again, ECHQ-4 merged pieces never captured,
 *     ECHQ-5 King captures remove, ECHQ-6 no undo (token noundo=), ECHQ-7
 *     kept double steps (`*P+`) and en passant by a merged pawn, ECHQ-8
 *     check and castling against enemy and merged attackers, rights lost
 *     when a King or Rook square is left or taken.  Mate and stalemate end
 *     the game (no action: the tree stops).
 *   - Phase 2: ECHQ-9 turn cycle (cycle=ewb / ebw); ECHQ-12: the seat to
 *     act may take the merged side instead of moving ("at the same moments
 *     as a third seat"): `takeover`, one of its actions (a ply) wherever a
 *     merged piece stands and it has a move; a takeover out of turn (a
 *     third seat, or the seat that has just moved) is the helper
 *     eb_takeover (not a ply).  ECHQ-10 captures that remove (a merged
 *     capturer may take the captured figure), ECHQ-11 É pawns both ways,
 *     promoting on ranks 1 and 8, kept double steps away from their start
 *     rank, ECHQ-13 ends: Kings never captured, no side ends its move with
 *     its King attacked by a side that is not out; two seats: a side with no
 *     move in check ends the game (É wins), É without pieces ends it;
 *     three seats: mated with an É attacker ends the game, mated by White
 *     or Black alone puts the side out (automatic, not a ply: its pieces
 *     stay as inert obstacles, capturable, Kings excepted), É without
 *     pieces is out, one side left ends the game, White and Black alone
 *     play orthodox (stalemate ends), otherwise a side without move and not
 *     in check has `pass` (a ply); passes by every side still in, in a row,
 *     end the game.
 * Choices where the rules are open (stated so the lead can compare):
 *   - En passant: a pawn whose capture pattern reaches the passed square
 *     takes the pawn that passed it (FIDE's wording: "as if it had moved
 *     one square"; with pawns going both ways in phase 2 the taker need not
 *     stand beside it; docs/ECHIQUETE.md, ECHQ-7).  Phase 1: only a
 *     one-coloured enemy pawn can be taken so; phase 2: any pawn of another
 *     side.
 *   - A merged pawn gets `+` whenever the captured piece was a one-coloured
 *     pawn on its own start rank and the result's figure is a pawn (both
 *     phases).
 *   - Two seats: a side without move and not in check passes too.
 *   - Not covered: draws by the 50-move rule, repetition or material (the
 *     tree does not stop on them), parameters (takeover from move N,
 *     phase 2 disabled, ECHQ-6 disabled).
 *
 * Invariant: nothing here shares code with the engine (variants/echiquete/);
 * it is written from the rules and the contract only, so an agreement of
 * the counts is evidence, not an echo.  An EbPos is plain data: copying it
 * with `=` gives an independent position.
 */
#ifndef CHESSVAR_ECHIQUETE_BRUTE_H
#define CHESSVAR_ECHIQUETE_BRUTE_H

#include <stddef.h>
#include <stdint.h>

#define EB_TEXT 16   /* longest action text, NUL included */

/* Figures (this file's own numbering) and sides. */
enum { EB_EMPTY = 0, EB_P, EB_N, EB_B, EB_R, EB_Q, EB_K };
enum { EB_WHITE = 0, EB_BLACK = 1, EB_MERGED = 2 };

/* One square.  fig EB_EMPTY: empty. */
typedef struct EbSq {
    uint8_t fig;    /* EB_P .. EB_K */
    uint8_t col;    /* EB_WHITE, EB_BLACK, EB_MERGED */
    uint8_t keep;   /* merged pawn that kept its double step (ECHQ-7, `+`) */
} EbSq;

typedef struct EbPos {
    EbSq b[64];     /* a1 = 0 .. h8 = 63 */
    int stm;        /* side to act: 0, 1 or 2 (2: phase 2 only) */
    int castle;     /* 1 K, 2 Q, 4 k, 8 q */
    int ep;         /* square passed by the last double step, or -1 */
    int half, full;
    int nu_from, nu_to; /* ECHQ-6: the move the side to act may not make; -1 none */
    int phase;      /* 1 or 2 */
    int cycle;      /* phase 2: 0 = É White Black (ewb), 1 = É Black White (ebw) */
    int seat[3];    /* seat of white, black, merged; -1 none */
    int out;        /* bit s: side s is out (phase 2, three seats) */
    int passes;     /* consecutive passes (phase 2) */
    int over;       /* 1: nobody acts any more (phase 2 ends) */
} EbPos;

/* Read a position string of the contract.  0, or -1 with a message naming
 * the problem in err (errn bytes); p is then unspecified. */
int eb_parse(EbPos *p, const char *text, char *err, size_t errn);

/* The side to act, -1 when the game is over (phase 2) -- in phase 1 a side
 * without legal move is mated or stalemated: eb_legal_texts gives 0. */
int eb_to_act(const EbPos *p);

/* The machine texts of the legal actions of the side to act, sorted
 * (strcmp), up to max; returns how many there are (may exceed max). */
int eb_legal_texts(const EbPos *p, char (*texts)[EB_TEXT], int max);

/* Apply the legal action whose machine text is text; -1 if none matches
 * (p unchanged). */
int eb_play(EbPos *p, const char *text);

/* Leaves of the play tree at depth (every move, figure choice, pass and
 * the seat to act's takeover a ply; a takeover out of turn is not). */
uint64_t eb_perft(const EbPos *p, int depth);

/* Per action of the side to act: fn(ud, machine text, leaves at depth-1),
 * in sorted order.  Returns the total. */
uint64_t eb_divide(const EbPos *p, int depth,
                   void (*fn)(void *ud, const char *text, uint64_t n),
                   void *ud);

/* ECHQ-9 / ECHQ-12: the merged side is taken over now (between moves),
 * out of turn.  three_seats 1: a third seat; 0: White's seat (seat 0).
 * -1 with p unchanged unless in phase 1 with at least one merged piece. */
int eb_takeover(EbPos *p, int three_seats);

/* The phase-1 position flipped top to bottom with the colours swapped
 * (side to move too): perft must not change.  -1 in phase 2. */
int eb_mirror(const EbPos *p, EbPos *out);

#endif
