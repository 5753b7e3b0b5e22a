/*
 * draw.h -- a View drawn as an SVG board (issue 22, diagrams and handouts).
 *
 * The board is the page's (web/app.js shows it, its overlays on top): the
 * same coordinates (a square is 1 x 1, column x, row -y on the plane, rank 8
 * on top of a bounded board unless flipped), the same elements and classes
 * (g.cells > rect.cell.light|dark with data-x/data-y, g.coords > text,
 * g.pieces > g.piece.fig-FIGURE.f-FLAG with data-square, data-x, data-y,
 * data-side, data-figure, data-flags) and the same colours; its style rules
 * (draw_css) are lines of web/style.css.  So `chessvar diagram`, the
 * handout and the page (the state frames' board_svg, core/web/server.c)
 * draw one board.
 *
 * Invariant: the renderer reads only a View and public names, like the
 * terminal's (core/cli/render.h): nothing it writes can tell more than the
 * View's seat may know.  The engine never uses this layer.
 */
#ifndef CHESSVAR_DRAW_H
#define CHESSVAR_DRAW_H

#include "../util.h"
#include "../variant.h"

#define DRAW_MAX_ARROWS 64
#define DRAW_MAX_MARKS 128
/* The plane's drawn box (pieces, arrows and marks, plus the margin) may not
 * be wider or taller than this many squares. */
#define DRAW_MAX_SPAN 200

typedef struct DrawArrow {
    Coord from, to;
} DrawArrow;

typedef struct DrawOpts {
    int nsides;
    const char *side[MAX_SIDES]; /* the sides' public names ("white") */
    int flip;        /* bounded board: rank 1 on top, file a on the right
                        (the page does so for the second side's seat) */
    int standalone;  /* a file of its own: XML declaration and the style;
                        0: an element to put inside an HTML page that
                        carries draw_css() once */
    double size;     /* width and height in CSS pixels; 0: none (scales) */
    const char *label; /* aria-label of the board; NULL: none */
    int narrows;
    DrawArrow arrows[DRAW_MAX_ARROWS];
    int nmarks;
    Coord marks[DRAW_MAX_MARKS];
    int window;      /* the plane: draw the squares lo..hi (a camera, as the
                        page's), not the box of the pieces and a margin */
    Coord lo, hi;
    int margin;      /* the plane without a window: squares drawn around
                        the pieces, arrows and marks; 0: one */
} DrawOpts;

typedef struct Game Game;
/* o cleared and set for a View v of game g: the sides' public names, and
 * the board turned for the second side's seat, as the page turns it. */
void draw_opts_for(const Game *g, const View *v, DrawOpts *o);

/* Append the SVG of v to out.  -1 with e when the plane's box of pieces,
 * arrows and marks is wider or taller than DRAW_MAX_SPAN squares, or an
 * arrow or mark lies off a bounded board. */
int draw_svg(const View *v, const DrawOpts *o, StrBuf *out, Error *e);

/* The style rules of the board, one per line, each a line of
 * web/style.css (tests/test_diagram.c checks it). */
const char *draw_css(void);

/* Read "e2e4,g1f3" (bounded; "e2-e4" too) or "0,0-1,1;2,0--1,2" (the
 * plane: FROM-TO, items apart by ';' or spaces) into o->arrows, after
 * those already there.  -1 with e naming the item that is wrong. */
int draw_parse_arrows(const Geometry *geo, const char *text, DrawOpts *o, Error *e);
/* Read "e4,d5" (bounded) or "0,0;1,-1" (the plane) into o->marks. */
int draw_parse_marks(const Geometry *geo, const char *text, DrawOpts *o, Error *e);
/* Read the plane's window "X0,Y0,X1,Y1" (the lowest and the highest
 * corner square) into o.  -1 with e on a bounded board, a malformed text,
 * or a window wider or taller than DRAW_MAX_SPAN squares. */
int draw_parse_window(const Geometry *geo, const char *text, DrawOpts *o, Error *e);

#endif
