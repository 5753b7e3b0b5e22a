/*
 * betza.h -- a piece's moves in Betza notation, as the fairy variant's
 * rule sets write them (issue 24, docs/BETZA.md): "BN" the archbishop,
 * "mRcpR" the cannon, "NN" the nightrider.
 *
 * betza_parse reads the text into atoms: one atom per direction of a step,
 * with how far it goes and how it may be used.  The engine generates moves
 * from the atoms alone.
 */
#ifndef CHESSVAR_BETZA_H
#define CHESSVAR_BETZA_H

#include <stdint.h>
#include "../../core/util.h"

enum BetzaFlags {
    BZ_MOVE = 1,      /* may go to an empty square */
    BZ_CAPTURE = 2,   /* may capture on the square */
    BZ_HOP = 4,       /* p: must jump exactly one piece on the line, then moves
                         or captures beyond it as the other flags say */
    BZ_GRASSHOP = 8,  /* g: lands on the square right after the jumped piece */
    BZ_INITIAL = 16   /* i: only a piece's first move */
};

typedef struct BetzaAtom {
    int8_t dx, dy;    /* one step, from white's side: dy > 0 forward, dx > 0
                         toward the h file; black's moves are mirrored top to
                         bottom (dy negated) */
    uint8_t range;    /* 1: a leap; 0: a ride without limit; n > 1: a ride of
                         at most n steps */
    uint8_t flags;    /* BetzaFlags */
    uint8_t nlegs;    /* a lame leap (n): the squares that must be empty, */
    int8_t leg[2][2]; /* relative to the start (nN: the orthogonal square next
                         to it; nD, nA: the middle one) */
} BetzaAtom;

#define BETZA_MAX_ATOMS 64
typedef struct BetzaMoves {
    int n;
    BetzaAtom a[BETZA_MAX_ATOMS];
} BetzaMoves;

/* Read a piece's moves: 0, or -1 with e naming the character and why
 * ("'X' at 3 in 'BNX' is not a Betza letter"). */
int betza_parse(const char *text, BetzaMoves *out, Error *e);

#endif
