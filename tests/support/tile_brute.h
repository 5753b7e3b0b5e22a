/*
 * tile_brute.h -- an independent, deliberately simple reference for Tile
 * Chess (rules TILE-1 .. TILE-12 in docs/RULES.md, contract
 * docs/TILE.md): it reads a position string of the contract into
 * a plain list of pieces, lists the legal actions of the seat to act in
 * machine text (sorted), applies one on a copy, counts perft and writes the
 * position string back in its canonical form.  Used by tests/test_tile_brute.c
 * and tests/test_tile_perft.c to cross-check the engine (variants/tile/).
 *
 * Method (obviously right, not fast): unity is a full flood fill of the
 * table after each candidate move; a piece is trapped when a flood fill of
 * the table without it finds more than one group; attacks walk rays square
 * by square from each attacker; a candidate action is legal when the table
 * it leaves passes every test of the contract.
 *
 * Covered: TILE-1 armies (pawns parameter), TILE-2 placement (0,0 first, the
 * frontier, the King last, the King restriction and its lapse, the seat with
 * an empty hand skipped, `first` moving first), TILE-3 unity, TILE-4 passing
 * over friendly pieces only, TILE-5 figures (orthogonal_pawns), TILE-6
 * trapped (lenient_trapped), TILE-7/8 threat and check judged after the
 * move's effects, TILE-9 pass, TILE-10 King capture and command transfer,
 * the end (one seat left; a full round of passes).  Not covered: threefold
 * repetition (perft ignores it), draw offers, resignation, scores, random
 * placement, record-form texts.
 *
 * Choices where the brief and the contract are open (stated so the lead can
 * compare; none of them is reached by the engine's own canonical strings):
 *   - Runs of spaces between tokens and at either end are tolerated.
 *   - A square is `-?digits,-?digits` (no `+`, no blanks); "-0" reads as 0.
 *   - A token given twice (two `turn:`, a colour twice in `hand:`/`cmd:`)
 *     is refused; figures of a hand may come in any order; `c=` with no
 *     figure is an empty hand.
 *   - `first:` in the move phase is accepted and ignored (it is not
 *     written then); `passes:` during placement is refused (no pass exists
 *     there).
 *   - `turn:` naming a seat that is in the game when the game is over is
 *     accepted (the position simply has no action).
 *   - Slider destinations stop one square beyond the bounding box of the
 *     table before the move (contract), and at |x|,|y| <= 1000000.
 *
 * Invariant: nothing here shares code with the engine; it is written from
 * the brief and the contract only, so an agreement of the counts is
 * evidence, not an echo.  A TbPos is plain data: copying it with `=` gives
 * an independent position.  No globals.
 */
#ifndef CHESSVAR_TILE_BRUTE_H
#define CHESSVAR_TILE_BRUTE_H

#include <stddef.h>
#include <stdint.h>

#define TB_TEXT 40      /* longest machine text, NUL included */
#define TB_MAXP 96      /* 6 sides x 16 pieces */
#define TB_SIDES 6
#define TB_LIMIT 1000000

/* Figures, in the order hands are written: K Q R B N P. */
enum { TB_K = 0, TB_Q, TB_R, TB_B, TB_N, TB_P, TB_NFIG };

typedef struct TbPiece {
    int x, y;
    int col;        /* colour 0..nsides-1 (w b r u g y) */
    int fig;        /* TB_K .. TB_P */
} TbPiece;

typedef struct TbPos {
    int nsides;                     /* 2..6 */
    int pawns;                      /* pawns per side (auto resolved) */
    int orth;                       /* orthogonal_pawns */
    int lenient;                    /* lenient_trapped */
    int n;                          /* pieces on the table */
    TbPiece pc[TB_MAXP];
    int hand[TB_SIDES][TB_NFIG];    /* pieces in hand, per colour and figure */
    int turn;                       /* seat (= colour) to act */
    int first;                      /* colour that moves first (placement) */
    int cmd[TB_SIDES];              /* seat commanding each colour (itself
                                       unless its King was captured) */
    int passes;                     /* passes in a row */
} TbPos;

/* Read a position string of the contract for a game of nsides sides with
 * the given parameters (pawns < 0: auto).  0, or -1 with a message naming
 * the problem in err (errn bytes); p is then unspecified. */
int tb_parse(TbPos *p, const char *text, int nsides, int pawns,
             int orthogonal_pawns, int lenient_trapped, char *err, size_t errn);

/* The canonical position string of the contract into out (n bytes);
 * returns its length (as snprintf). */
int tb_format(const TbPos *p, char *out, size_t n);

/* 1 while some colour has pieces in hand. */
int tb_placing(const TbPos *p);
/* 1 when seat s is still in the game (it commands its own colour). */
int tb_in_game(const TbPos *p, int s);
/* 1 when the game is over (one seat left, or a full round of passes). */
int tb_over(const TbPos *p);

/* The index of the piece on x,y, or -1. */
int tb_at(const TbPos *p, int x, int y);
/* TILE-6: 1 when the piece of index i is trapped on p's table. */
int tb_trapped(const TbPos *p, int i);
/* TILE-3: 1 when p's table is one group. */
int tb_one_group(const TbPos *p);
/* TILE-8: 1 when seat s's King is attacked by a non-trapped enemy piece. */
int tb_in_check(const TbPos *p, int s);

/* The machine texts of the legal actions of the seat to act, sorted
 * (strcmp), up to max (texts may be NULL with max 0); returns how many
 * there are (may exceed max). */
int tb_legal_texts(const TbPos *p, char (*texts)[TB_TEXT], int max);

/* Apply the legal action whose machine text is text; -1 if none matches
 * (p unchanged). */
int tb_play(TbPos *p, const char *text);

/* Leaves of the action tree at depth (every placement, move, pass a ply;
 * a position that is over has no children). */
uint64_t tb_perft(const TbPos *p, int depth);

#endif
