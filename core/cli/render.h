/*
 * render.h -- drawing a View for people (a text board) and for programs
 * (JSON).
 *
 * Invariant: every function here reads only a View plus public names
 * (sides, seats).  A View holds only what its seat may know, so nothing a
 * renderer writes can leak a hidden fact: that is the whole point of
 * keeping the renderers away from the game and its state blob.
 */
#ifndef CHESSVAR_RENDER_H
#define CHESSVAR_RENDER_H

#include "../action.h"
#include "../util.h"
#include "../variant.h"

/* Public names of the game's sides and seats ("white", "black"). */
typedef struct RenderNames {
    int nsides;
    const char *side[MAX_SIDES];
    int nseats;
    const char *seat[MAX_SEATS];
} RenderNames;

typedef struct RenderOpts {
    int ascii; /* letters (K/k) instead of Unicode figures (♔/♚) */
    int color; /* ANSI colours: square shades, last move highlighted,
                  with more than two colours each side's own colour */
    int bottom; /* 0: the viewing seat's side at the bottom; 1 + side:
                   that side at the bottom, whoever looks (a projector) */
    int width;  /* columns the board may take, 0 = unlimited */
    int height; /* lines the board may take (labels and marks included),
                   0 = unlimited */
    int pan;    /* the plane's window: 0 automatic (around the last move,
                   else the middle of the box); 1 centred on pan_at */
    Coord pan_at;
} RenderOpts;

/* An unbounded box wider or taller than this (squares) is drawn through a
 * window when a width or height is given; without one it is not drawn
 * (the pieces are listed).  Bounded boards (at most 26 x 99) always fit
 * and are never cut. */
#define RENDER_MAX_CELLS 100

/* The window through which the plane is drawn under o (width, height,
 * pan).  `cut` is 0 when the whole box shows (a bounded board always);
 * else the window's centre square and its size in squares.  A pan_at
 * outside the box is brought back: `centre` is where the window really is. */
typedef struct RenderWindow {
    int cut;
    Coord centre;
    int cols, rows;
} RenderWindow;
void render_window(const View *v, const RenderOpts *o, RenderWindow *w);

/* The board with coordinates on all four sides.  A bounded board is seen
 * from its seat: seat 1 (Black) gets it turned around.  The unbounded plane
 * shows the pieces' bounding box plus a margin of one, y upwards; wider
 * than o->width (or taller than o->height), a window of it, with a line
 * saying how many columns and rows (and pieces) are cut off on each side
 * and `<` `>` `^` `v` on the cut edges.  The last move's squares are
 * highlighted (colour) or bracketed ([e4]). */
void render_board(const View *v, const RenderOpts *o, StrBuf *out);

/* One line, no newline: "white to move, black is in check" or
 * "game over: 1-0, white wins (checkmate)". */
void render_status_line(const View *v, const RenderNames *n, StrBuf *out);

/* Result text from a Status: "1-0", "0-1", "1/2-1/2", "*" for two sides;
 * "white+red", "draw", "*" otherwise (the same as game_result_text). */
void render_result(const Status *s, const RenderNames *n, StrBuf *out);

/* Board, a legend of the side numbers when there are more than two
 * colours ("1 white  2 black  3 red"), last move, status line, the
 * question, info lines and captured pieces: what a person at that seat
 * sees. */
void render_view_text(const View *v, const RenderNames *n,
                      const RenderOpts *o, StrBuf *out);

/* The View as one JSON object (docs/PROTOCOL.md, "view"); msgs are the
 * messages for that seat (may be NULL with nmsgs 0). */
void render_view_json(const View *v, const RenderNames *n,
                      const char *const *msgs, int nmsgs, StrBuf *out);

/* The public facts of a View as JSON members, each after a ',': phase,
 * commands (by seat), turn_order, out, threatened, scores
 * (docs/PROTOCOL.md, "view"). */
void render_facts_json(const View *v, const RenderNames *n, StrBuf *out);

/* A Status as one JSON object (docs/PROTOCOL.md, "status object"). */
void render_status_json(const Status *s, const RenderNames *n, StrBuf *out);

/* A name or JSON null for index i of names (NULL or out of range: null). */
void render_json_name(StrBuf *out, const char *const *names, int count, int i);

#endif
