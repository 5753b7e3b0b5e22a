/*
 * masques_brute.h -- an independent, deliberately simple reference for Les
 * Échecs Masqués (rules MASQ-1 .. MASQ-16, contract docs/MASQUES.md): it
 * reads the full-truth position string into a plain mailbox, lists every
 * decision of the seat to act in every phase (play, announce, answer,
 * battle, bid, give-up) by plain loops over squares and directions, applies
 * an action on a copy, and counts the leaves of the complete action tree.
 * The tests compare it with the engine's perft (tests/test_masques_perft.c).
 *
 * Invariant: nothing here shares code with variants/masques/; it is written
 * from the rules and the contract only, so an agreement of the two counts
 * is evidence, not an echo.  Every MbPos is plain data: copying it with `=`
 * gives an independent position.
 */
#ifndef CHESSVAR_MASQUES_BRUTE_H
#define CHESSVAR_MASQUES_BRUTE_H

#include <stddef.h>
#include <stdint.h>

#define MB_TEXT 96   /* longest action text, NUL included */

/* What changes the tree besides the position: the all-in threshold, the
 * value table (bids and give-ups, MASQ-10/11) and reveal_alone (MASQ-5). */
typedef struct MbConfig {
    int threshold;   /* all-in bid (MASQ-11) */
    int values[8];   /* by the core's Figure number; [FIG_KING] unused */
    int reveal_alone; /* MASQ-5 Parameter: a reveal may end the turn */
} MbConfig;

/* One square of the mailbox.  fig 0: empty. */
typedef struct MbPiece {
    uint8_t fig;     /* FIG_PAWN .. FIG_KING: the true figure */
    uint8_t side;    /* 0 white, 1 black */
    uint8_t masked;  /* 1 while masked */
    uint8_t moved;   /* moved since setup: no double step, no castling */
    uint8_t id;      /* identity that follows the piece (threats, rights) */
} MbPiece;

/* A capture right (MASQ-6/12), used at its holder's next play action. */
typedef struct MbRight {
    int active;
    uint64_t att;    /* ids of the pieces that threatened the target */
    int target;      /* id of the target */
} MbRight;

enum MbPhase {
    MB_PLAY = 0, MB_ANNOUNCE, MB_ANSWER, MB_BATTLE, MB_BID, MB_GIVEUP, MB_OVER
};

typedef struct MbPos {
    MbPiece b[64];      /* a1 = 0 .. h8 = 63 */
    MbConfig cfg;
    int phase;          /* enum MbPhase */
    int stm;            /* the side whose move it is (mover, announcer, attacker) */
    int castle;         /* 1 K, 2 Q, 4 k, 8 q */
    int ep;             /* passed square of the last two-square step, or -1 */
    int nokings;        /* bit s: side s lost its King without reveal */
    MbRight right[2];   /* per holder side */
    uint64_t pre[64];   /* threats before the current move: id -> target ids */
    uint64_t threats;   /* announce: ids newly threatened */
    int target;         /* answer: target square */
    int mate;           /* answer: 1 after a mask mate, 0 after a check */
    uint64_t ann_att;   /* answer: ids threatening the target when announced */
    int from, to;       /* battle / bid / give-up: attacker and defender squares */
    int victim;         /* square of the defender (differs from `to` en passant) */
    int promo;          /* a revealed attacking pawn promotes to this if it wins */
    int revealing;      /* read from a string: the attacker revealed itself to attack */
    int bid, last;      /* bid on the table, side that made it (-1 none) */
    int loser;          /* give-up: the side that gives up */
    int winner;         /* over: winning side, -1 draw */
} MbPos;

/* allin 0: the threshold of MASQ-11 from the default values (41);
 * reveal_alone off. */
void mb_config_default(MbConfig *c, int allin);

/* Read a position string of docs/MASQUES.md.  -1 with a message in err
 * (errn bytes) if it is malformed or uses what this reference does not read
 * (the reference reads every token of the contract). */
int mb_parse(MbPos *p, const char *text, const MbConfig *cfg, char *err,
             size_t errn);

/* The side that must decide now, -1 when the game is over (a side with no
 * action at all is mated or stalemated: over too). */
int mb_to_act(const MbPos *p);

/* Leaves of the complete action tree at depth (every decision a ply;
 * single forced answers applied at once, as the contract says). */
uint64_t mb_perft(const MbPos *p, int depth);

/* Per action of the seat to act: fn(ud, machine text, leaves at depth-1).
 * Returns the total. */
uint64_t mb_divide(const MbPos *p, int depth,
                   void (*fn)(void *ud, const char *text, uint64_t n),
                   void *ud);

/* The machine texts of the legal actions, up to max; returns how many
 * actions there are (may exceed max). */
int mb_legal_texts(const MbPos *p, char (*texts)[MB_TEXT], int max);

/* Apply the legal action whose machine text is text; -1 if none matches. */
int mb_play(MbPos *p, const char *text);

/* The position flipped top to bottom with the colours swapped: perft must
 * not change (a check of this reference's symmetry).  Play phase only:
 * returns -1 otherwise. */
int mb_mirror(const MbPos *p, MbPos *out);

#endif
