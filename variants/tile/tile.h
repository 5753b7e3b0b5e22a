/*
 * tile.h -- private to Tile Chess (rules TILE-1 .. TILE-12): the state blob,
 * the engine on the unbounded plane (adjacency, trapped pieces, attacks,
 * placement and move generation, make) and the position string.  The
 * contract is docs/TILE.md.
 *
 * Invariant: a TileState holds no pointers and is always consistent: the
 * pieces are on distinct squares within TILE_LIMIT, in reading order (y
 * from high to low, then x from low to high), and form one group under
 * 8-neighbour adjacency; every seat in the game (cmd[seat] == seat) has
 * exactly one King, on the table or in hand (the last piece of its hand);
 * a colour commanded by another seat has no King and no hand.  tile_init
 * guarantees it for outside input, tile_make keeps it for the actions
 * tile_gen generates, and tile_edit reads its result back with tile_init.
 */
#ifndef CHESSVAR_TILE_H
#define CHESSVAR_TILE_H

#include <stddef.h>
#include <stdint.h>
#include "../../core/game.h"

#define TILE_MAX_SIDES 6
#define TILE_MAX_PAWNS 8
#define TILE_MAX_PIECES (TILE_MAX_SIDES * (8 + TILE_MAX_PAWNS))
#define TILE_LIMIT 1000000 /* |x|, |y| of every square (docs/TILE.md) */

/* Parameter indices, in table order (tile.c). */
enum { TP_PAWNS, TP_ORTHO, TP_LENIENT, TP_FIRST, TP__COUNT };

/* No padding the compiler could fill with garbage: the core compares
 * blobs byte for byte (game_same), so every byte is a named field. */
typedef struct TPiece {
    int32_t x, y;
    uint8_t col;    /* colour 0..nsides-1 */
    uint8_t fig;    /* FIG_PAWN .. FIG_KING */
    uint8_t pad[2]; /* always 0 */
} TPiece;

typedef struct TileState {
    uint8_t nsides;
    uint8_t n;      /* pieces on the table */
    uint8_t turn;   /* the seat to act (its own colour) */
    uint8_t first;  /* placement: the colour that moves first */
    uint8_t passes; /* passes in a row */
    int8_t cmd[TILE_MAX_SIDES];                 /* seat commanding each colour */
    uint8_t hand[TILE_MAX_SIDES][FIG__COUNT];   /* pieces in hand, by figure */
    uint8_t pad;                                /* always 0 (see TPiece) */
    TPiece p[TILE_MAX_PIECES];
} TileState;
_Static_assert(sizeof(TPiece) == 12, "TPiece has no hidden padding");
_Static_assert(offsetof(TileState, p) == 60, "TileState has no hidden padding");

/* One action of the engine.  kind: TM_PLACE (fig on x,y), TM_MOVE (piece
 * `from`, an index into p, to x,y), TM_PASS. */
enum { TM_PLACE = 1, TM_MOVE = 2, TM_PASS = 3 };
typedef struct TMove {
    uint8_t kind;
    uint8_t fig;
    uint8_t from;
    int32_t x, y;
} TMove;

/* Called for each legal action; returns nonzero to stop the generation. */
typedef int (*TileVisit)(void *ud, const TMove *m);

/* ---- Engine (engine.c) ---- */
extern const char TILE_LETTERS[TILE_MAX_SIDES + 1]; /* "wbrugy" */
extern const char *const TILE_COLOURS[TILE_MAX_SIDES];
/* The figures in the order hands are written and placements listed. */
extern const uint8_t TILE_FIGURES[6]; /* K Q R B N P */
int tile_hand_size(const TileState *s, int colour);
/* The letters of colour's hand in TILE_FIGURES order ("KQRRBBNNPPPP"). */
void tile_write_hand(const TileState *s, int colour, StrBuf *out);
/* The bounding box of the pieces (all 0 for an empty table). */
void tile_box(const TileState *s, int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1);
int tile_placing(const TileState *s);   /* some hand is not empty */
int tile_in_game(const TileState *s, int seat);
int tile_seats_in_game(const TileState *s);
int tile_king(const TileState *s, int colour); /* index in p, or -1 */
int tile_find(const TileState *s, int32_t x, int32_t y); /* index, or -1 */
/* The rule behind an action (why.c, issue 22). */
int tile_why(const Game *g, const void *st, int seat, const Action *a,
             const char *refusal, WhyRule *out);
/* Is the game over by the table alone (one seat left, a round of passes)? */
int tile_structural_end(const TileState *s);
/* Visit every legal action of the seat to act (a lone pass when it has no
 * move); returns how many were visited. */
int tile_gen(const Game *g, const TileState *s, TileVisit fn, void *ud);
/* Why is m not legal?  -1 with the reason in why, 0 if it is legal. */
int tile_explain(const Game *g, const TileState *s, const TMove *m, char *why, size_t n);
/* Is m one of tile_gen's actions? */
int tile_legal(const Game *g, const TileState *s, const TMove *m);
/* Play an action of tile_gen; messages to ev (may be NULL). */
void tile_make(const Game *g, TileState *s, const TMove *m, Events *ev);
/* Trapped pieces (TILE-6): flags[i] = 1 for each articulation point. */
void tile_trapped(const TileState *s, uint8_t flags[TILE_MAX_PIECES]);
/* Mask of seats whose King is in check (TILE-8), and of those only
 * threatened (TILE-7). */
unsigned tile_checks(const TileState *s, unsigned *threatened);
/* Is the table one group? */
int tile_one_group(const TileState *s);
/* Insert a piece in reading order (the caller checks room and the square). */
void tile_put(TileState *s, TPiece pc);
/* Would a move of piece i to x,y capture (an enemy piece there)? */
int tile_is_capture(const TileState *s, const TMove *m);
/* Pieces of the army of one colour (TILE-1). */
int tile_army(const Game *g, int nsides, int fig);

/* ---- Position string (position.c) ---- */
int tile_init(const Game *g, TileState *s, const char *text, Error *e);
void tile_write(const TileState *s, StrBuf *out);

/* ---- House-rule edits (edit.c) ---- */
/* Remove, add or change a piece (HOUSE-5, docs/TILE.md "House-rule edits"):
 * -1 with e naming the square and the rule, s unchanged; 0 with s exactly
 * as tile_init reads the edited position, the seats told through ev. */
int tile_edit(const Game *g, TileState *s, const Edit *ed, Events *ev, Error *e);

#endif
