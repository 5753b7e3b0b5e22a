/*
 * render.c -- the text board and the JSON form of a View.
 *
 * Invariant: only the View and public names are read (see render.h), so
 * whatever a seat may not know cannot appear in what is drawn for it.
 * Every board cell has the same display width, so columns line up whatever
 * the pieces (Unicode figures count as one column).
 */
#include "render.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Index by Figure; white and black sets. */
static const char *const WHITE_GLYPH[FIG__COUNT] = {
    "", "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654", ""};
static const char *const BLACK_GLYPH[FIG__COUNT] = {
    "", "\u265F", "\u265E", "\u265D", "\u265C", "\u265B", "\u265A", ""};

#define ANSI_RESET "\x1b[0m"
#define ANSI_LIGHT "\x1b[30;48;5;223m"
#define ANSI_DARK "\x1b[30;48;5;180m"
#define ANSI_LAST_LIGHT "\x1b[30;48;5;186m"
#define ANSI_LAST_DARK "\x1b[30;48;5;143m"
/* More than two colours: a neutral grey board (the light and dark wood
 * shades above make white and yellow unreadable), an olive last move, and
 * each side's figures in bold in its own colour: white, black, dark red,
 * dark blue, light green, yellow (xterm-256 numbers).  Each of them stands
 * out from the three backgrounds (contrast 2.6 to 6). */
#define ANSI_PLANE_LIGHT "\x1b[30;48;5;245m"
#define ANSI_PLANE_DARK "\x1b[30;48;5;243m"
#define ANSI_PLANE_LAST "\x1b[30;48;5;101m"
#define ANSI_SIDE_END "\x1b[22;30m" /* back to plain black, same background */
static const int SIDE_COLOUR[6] = {231, 16, 88, 19, 83, 227};

/* A cell's content: UTF-8 bytes and display width. */
typedef struct Token {
    char s[24];
    int width;
} Token;

static void tok_put(Token *t, const char *s, int width)
{
    size_t len = strlen(t->s);
    str_copy(t->s + len, sizeof t->s - len, s);
    t->width += width;
}

static void tok_putc(Token *t, char c)
{
    char s[2] = {c, 0};
    tok_put(t, s, 1);
}

/* A View filled by a careless variant must still not make us read past
 * its arrays. */
static int npieces(const View *v)
{
    return v->npieces < 0 ? 0 : v->npieces > MAX_VIEW_PIECES ? MAX_VIEW_PIECES : v->npieces;
}

static int known_figure(int fig)
{
    return (fig >= FIG_PAWN && fig <= FIG_KING) || figure_is_lettered(fig) || fig == FIG_DUCK;
}

/* A lettered figure (issue 24: a piece of a rule set from parts) in its own
 * glyph, never one of the orthodox six: white's letter in a circle (Ⓐ,
 * U+24B6 on), black's small letter in a circle (ⓐ, U+24D0 on), one column
 * each like the chess figures. */
static void lettered_glyph(int fig, int black, Token *t)
{
    unsigned cp = (black ? 0x24D0u : 0x24B6u) + (unsigned)(fig - FIG_LETTERED('A'));
    char s[4] = {(char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)),
                 (char)(0x80 | (cp & 0x3F)), 0};
    tok_put(t, s, 1);
}

/* The marks are documented in docs/PROTOCOL.md ("Board marks"). */
static void piece_token(const ViewPiece *p, int nsides, int ascii, Token *t)
{
    int fig = p->figure;
    char letter = known_figure(fig) ? figure_letter(fig) : '?';
    memset(t, 0, sizeof *t);
    if (fig == FIG_DUCK) /* issue 25: nobody's, one column like the figures */
        tok_put(t, ascii ? "*" : "\u229B", 1);
    else if (p->flags & VP_MERGED) {
        tok_putc(t, letter);
        tok_putc(t, '*');
    } else if (nsides <= 2 && (p->side == 0 || p->side == 1)) {
        if (!known_figure(fig))
            tok_put(t, ascii ? (p->side ? "x" : "X")
                             : (p->side ? "\u25CF" : "\u25CB"), 1);
        else if (ascii)
            tok_putc(t, p->side ? (char)tolower((unsigned char)letter) : letter);
        else if (figure_is_lettered(fig))
            lettered_glyph(fig, p->side, t);
        else
            tok_put(t, p->side ? BLACK_GLYPH[fig] : WHITE_GLYPH[fig], 1);
    } else {
        tok_putc(t, letter);
        tok_putc(t, p->side >= 0 && p->side < 9 ? (char)('1' + p->side) : '-');
    }
    if ((p->flags & VP_MASKED) && known_figure(fig))
        tok_putc(t, '~');
    if (p->flags & VP_TRAPPED)
        tok_putc(t, '#');
    if (p->flags & VP_CHECK)
        tok_putc(t, '+');
    if (p->flags & VP_INERT)
        tok_putc(t, '-');
}

/* How many sides the tokens must tell apart: 2 (white and black glyphs)
 * when every one-coloured piece is White's or Black's, even in a game of
 * more sides (L'Échiqueté's third side has only merged pieces, drawn
 * `Q*`); else the number of sides (figure letter and side number). */
static int colours(const View *v)
{
    for (int i = 0; i < v->npieces && i < MAX_VIEW_PIECES; i++)
        if (!(v->pieces[i].flags & VP_MERGED) && v->pieces[i].side > 1)
            return v->nsides;
    for (int i = 0; i < v->ncaptured && i < MAX_VIEW_PIECES; i++)
        if (!(v->captured[i].flags & VP_MERGED) && v->captured[i].side > 1)
            return v->nsides;
    return 2;
}

/* The side's colour escape with more than two colours (NULL: none, as for
 * a merged piece or a side past the palette). */
static const char *side_escape(int side, char *buf, size_t n)
{
    if (side < 0 || side >= (int)ARRAY_LEN(SIDE_COLOUR))
        return NULL;
    snprintf(buf, n, "\x1b[1;38;5;%dm", SIDE_COLOUR[side]);
    return buf;
}

/* The frame of a drawing: which square each column and row shows, and
 * (the plane through a window) what is cut off on each side. */
typedef struct Frame {
    int ncols, nrows;
    int32_t col_x[RENDER_MAX_CELLS];
    int32_t row_y[RENDER_MAX_CELLS];
    char col_label[RENDER_MAX_CELLS][12];
    char row_label[RENDER_MAX_CELLS][12];
    int cw, lw;        /* cell width, row label width */
    int tokw;          /* token width inside a cell */
    int colours;       /* colours(v), decided once for the whole board */
    int64_t cut[4];    /* columns / rows cut off: left, right, above, below */
    int cut_pieces[4]; /* pieces in them */
} Frame;

enum { CUT_LEFT, CUT_RIGHT, CUT_ABOVE, CUT_BELOW };

static void frame_bounded(const View *v, const RenderOpts *o, Frame *f)
{
    int w = v->geo.width, h = v->geo.height;
    /* Black looks from rank 8, unless a side is kept at the bottom */
    int flip = o->bottom ? o->bottom - 1 == 1 : v->seat == 1;
    f->ncols = w < RENDER_MAX_CELLS ? w : RENDER_MAX_CELLS;
    f->nrows = h < RENDER_MAX_CELLS ? h : RENDER_MAX_CELLS;
    for (int i = 0; i < f->ncols; i++) {
        int x = flip ? w - 1 - i : i;
        f->col_x[i] = x;
        snprintf(f->col_label[i], sizeof f->col_label[i], "%c", 'a' + x % 26);
    }
    for (int i = 0; i < f->nrows; i++) {
        int y = flip ? i : h - 1 - i;
        f->row_y[i] = y;
        snprintf(f->row_label[i], sizeof f->row_label[i], "%d", y + 1);
    }
}

/* The widest token of the board's pieces. */
static int token_width(const View *v, const RenderOpts *o, int cols)
{
    int w = 1;
    for (int i = 0; i < npieces(v); i++) {
        Token t;
        piece_token(&v->pieces[i], cols, o->ascii, &t);
        if (t.width > w)
            w = t.width;
    }
    return w;
}

/* The plane's layout: its box (pieces and last move plus a margin of one)
 * and the window of it that is drawn: columns wx0 .. wx0 + ncols - 1, rows
 * wy0 .. wy0 + nrows - 1. */
typedef struct Plane {
    int64_t x0, x1, y0, y1;
    int64_t wx0, wy0;
    int ncols, nrows;
} Plane;

static int label_len(int64_t n)
{
    char buf[24];
    return snprintf(buf, sizeof buf, "%lld", (long long)n);
}

static void plane_box(const View *v, Plane *pl)
{
    int64_t x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    int any = 0, np = npieces(v);
    for (int i = 0; i <= np + 1; i++) {
        Coord c;
        if (i < np)
            c = v->pieces[i].at;
        else if (v->has_last)
            c = i == np ? v->last_from : v->last_to;
        else
            break;
        if (!any || c.x < x0) x0 = c.x;
        if (!any || c.x > x1) x1 = c.x;
        if (!any || c.y < y0) y0 = c.y;
        if (!any || c.y > y1) y1 = c.y;
        any = 1;
    }
    /* the margin, inside what a square can be */
    pl->x0 = x0 > INT32_MIN ? x0 - 1 : x0;
    pl->y0 = y0 > INT32_MIN ? y0 - 1 : y0;
    pl->x1 = x1 < INT32_MAX ? x1 + 1 : x1;
    pl->y1 = y1 < INT32_MAX ? y1 + 1 : y1;
}

/* The first of n squares of [a, b] centred on c, kept inside [a, b]. */
static int64_t window_start(int64_t a, int64_t b, int n, int64_t c)
{
    int64_t lo = c - (n - 1) / 2;
    if (lo + n - 1 > b)
        lo = b - n + 1;
    return lo < a ? a : lo;
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

/* The layout of the plane under o; -1 when the box is too large to draw
 * and no width or height asks for a window. */
static int plane_layout(const View *v, const RenderOpts *o, Plane *pl)
{
    plane_box(v, pl);
    int64_t bw = pl->x1 - pl->x0 + 1, bh = pl->y1 - pl->y0 + 1;
    if (o->width <= 0 && o->height <= 0 && (bw > RENDER_MAX_CELLS || bh > RENDER_MAX_CELLS))
        return -1;
    int64_t maxc = RENDER_MAX_CELLS, maxr = RENDER_MAX_CELLS;
    if (o->width > 0) {
        /* the same widths frame_widths finds, at their largest */
        int cw = token_width(v, o, colours(v)) + 2;
        int lx = label_len(pl->x0) > label_len(pl->x1) ? label_len(pl->x0) : label_len(pl->x1);
        int ly = label_len(pl->y0) > label_len(pl->y1) ? label_len(pl->y0) : label_len(pl->y1);
        cw = lx + 1 > cw ? lx + 1 : cw;
        int fit = (o->width - 2 * ly - 2) / cw;
        maxc = min64(maxc, fit < 1 ? 1 : fit);
    }
    if (o->height > 0) /* two label lines, up to three lines of cut marks */
        maxr = min64(maxr, o->height - 5 < 1 ? 1 : o->height - 5);
    pl->ncols = (int)min64(bw, maxc);
    pl->nrows = (int)min64(bh, maxr);
    int64_t cx, cy;
    if (o->pan) {
        cx = o->pan_at.x;
        cy = o->pan_at.y;
    } else if (v->has_last) {
        cx = v->last_to.x;
        cy = v->last_to.y;
    } else {
        cx = pl->x0 + (bw - 1) / 2;
        cy = pl->y0 + (bh - 1) / 2;
    }
    pl->wx0 = window_start(pl->x0, pl->x1, pl->ncols, cx);
    pl->wy0 = window_start(pl->y0, pl->y1, pl->nrows, cy);
    return 0;
}

void render_window(const View *v, const RenderOpts *o, RenderWindow *w)
{
    Plane pl;
    memset(w, 0, sizeof *w);
    if (v->geo.bounded || plane_layout(v, o, &pl) < 0)
        return;
    w->cut = pl.wx0 > pl.x0 || pl.wx0 + pl.ncols - 1 < pl.x1 ||
             pl.wy0 > pl.y0 || pl.wy0 + pl.nrows - 1 < pl.y1;
    w->centre = coord_make((int32_t)(pl.wx0 + (pl.ncols - 1) / 2),
                           (int32_t)(pl.wy0 + (pl.nrows - 1) / 2));
    w->cols = pl.ncols;
    w->rows = pl.nrows;
}

/* The window of the plane as a frame.  Returns -1 if the box is too large
 * to draw (and no window was asked for). */
static int frame_plane(const View *v, const RenderOpts *o, Frame *f)
{
    Plane pl;
    if (plane_layout(v, o, &pl) < 0)
        return -1;
    f->ncols = pl.ncols;
    f->nrows = pl.nrows;
    int64_t top = pl.wy0 + pl.nrows - 1, right = pl.wx0 + pl.ncols - 1;
    for (int i = 0; i < f->ncols; i++) {
        f->col_x[i] = (int32_t)(pl.wx0 + i);
        snprintf(f->col_label[i], sizeof f->col_label[i], "%d", f->col_x[i]);
    }
    for (int i = 0; i < f->nrows; i++) {
        f->row_y[i] = (int32_t)(top - i); /* y grows upwards */
        snprintf(f->row_label[i], sizeof f->row_label[i], "%d", f->row_y[i]);
    }
    f->cut[CUT_LEFT] = pl.wx0 - pl.x0;
    f->cut[CUT_RIGHT] = pl.x1 - right;
    f->cut[CUT_ABOVE] = pl.y1 - top;
    f->cut[CUT_BELOW] = pl.wy0 - pl.y0;
    for (int i = 0; i < npieces(v); i++) {
        Coord c = v->pieces[i].at;
        f->cut_pieces[CUT_LEFT] += c.x < pl.wx0;
        f->cut_pieces[CUT_RIGHT] += c.x > right;
        f->cut_pieces[CUT_ABOVE] += c.y > top;
        f->cut_pieces[CUT_BELOW] += c.y < pl.wy0;
    }
    return 0;
}

static void frame_widths(const View *v, const RenderOpts *o, Frame *f)
{
    f->colours = colours(v);
    f->tokw = token_width(v, o, f->colours);
    f->cw = f->tokw + 2;
    for (int i = 0; i < f->ncols; i++) {
        int len = (int)strlen(f->col_label[i]);
        if (len + 1 > f->cw)
            f->cw = len + 1;
    }
    f->lw = 1;
    for (int i = 0; i < f->nrows; i++) {
        int len = (int)strlen(f->row_label[i]);
        if (len > f->lw)
            f->lw = len;
    }
}

static void put_spaces(StrBuf *out, int n)
{
    while (n-- > 0)
        sb_putc(out, ' ');
}

/* A label starts where the figures start: one column into its cell.
 * mark (or a space) in the first column, under or over the row labels:
 * `^` / `v` when rows are cut off above / below. */
static void column_labels(const Frame *f, char mark, StrBuf *out)
{
    StrBuf line = STRBUF_INIT;
    sb_putc(&line, mark);
    put_spaces(&line, f->lw);
    for (int i = 0; i < f->ncols; i++) {
        int len = (int)strlen(f->col_label[i]);
        sb_putc(&line, ' ');
        sb_puts(&line, f->col_label[i]);
        put_spaces(&line, f->cw - len - 1);
    }
    /* no trailing blanks: they only get in the way of tests and diffs */
    while (line.len && line.s[line.len - 1] == ' ')
        line.s[--line.len] = '\0';
    sb_puts(out, sb_str(&line));
    sb_putc(out, '\n');
    sb_free(&line);
}

static const ViewPiece *piece_at(const View *v, Coord c)
{
    for (int i = 0; i < npieces(v); i++)
        if (coord_eq(v->pieces[i].at, c))
            return &v->pieces[i];
    return NULL;
}

static int is_last_square(const View *v, Coord c)
{
    return v->has_last && (coord_eq(v->last_from, c) || coord_eq(v->last_to, c));
}

static const char *cell_shade(const Frame *f, int last, int dark)
{
    if (f->colours > 2)
        return last ? ANSI_PLANE_LAST : dark ? ANSI_PLANE_DARK : ANSI_PLANE_LIGHT;
    return last ? (dark ? ANSI_LAST_DARK : ANSI_LAST_LIGHT)
                : (dark ? ANSI_DARK : ANSI_LIGHT);
}

static void draw_cell(const View *v, const RenderOpts *o, const Frame *f,
                      Coord c, StrBuf *out)
{
    const ViewPiece *p = piece_at(v, c);
    int last = is_last_square(v, c);
    int dark = ((c.x + c.y) % 2 + 2) % 2 == 0; /* a1 is dark */
    Token t;
    char esc[24];
    const char *fg = NULL;
    if (p) {
        piece_token(p, f->colours, o->ascii, &t);
        if (o->color && f->colours > 2 && !(p->flags & VP_MERGED))
            fg = side_escape(p->side, esc, sizeof esc);
    } else {
        memset(&t, 0, sizeof t);
        tok_put(&t, o->ascii ? "." : "\u00B7", 1);
    }
    int pad = f->cw - 2 - t.width;
    if (o->color) {
        sb_puts(out, cell_shade(f, last, dark));
        sb_putc(out, ' ');
    } else {
        sb_putc(out, last ? '[' : ' ');
    }
    if (fg)
        sb_puts(out, fg);
    sb_puts(out, t.s);
    if (fg)
        sb_puts(out, ANSI_SIDE_END);
    if (o->color) {
        put_spaces(out, pad + 1);
        sb_puts(out, ANSI_RESET);
    } else {
        sb_putc(out, last ? ']' : ' ');
        put_spaces(out, pad);
    }
}

static void list_pieces(const View *v, const RenderOpts *o, StrBuf *out)
{
    sb_puts(out, "(the pieces are too far apart to draw; they are at)\n");
    const int cols = colours(v);
    for (int i = 0; i < npieces(v); i++) {
        char sq[GEO_SQ_MAX];
        Token t;
        piece_token(&v->pieces[i], cols, o->ascii, &t);
        sb_printf(out, "  %s %s\n", t.s,
                  geo_format_square(&v->geo, v->pieces[i].at, sq));
    }
}

/* What a window leaves out: "cut off: left 7 columns (5 pieces), above 2
 * rows (0 pieces); pan moves the window", wrapped to width (0: 78).
 * Nothing when all shows. */
static void cut_line(const Frame *f, int width, StrBuf *out)
{
    static const char *const WHERE[4] = {"left", "right", "above", "below"};
    char part[5][80];
    int nparts = 0;
    for (int i = 0; i < 4; i++)
        if (f->cut[i] > 0)
            snprintf(part[nparts++], sizeof part[0], "%s %lld %s%s (%d piece%s)%s", WHERE[i],
                     (long long)f->cut[i], i < CUT_ABOVE ? "column" : "row",
                     f->cut[i] == 1 ? "" : "s", f->cut_pieces[i],
                     f->cut_pieces[i] == 1 ? "" : "s", ",");
    if (!nparts)
        return;
    part[nparts - 1][strlen(part[nparts - 1]) - 1] = ';';
    str_copy(part[nparts++], sizeof part[0], "pan moves the window");
    int col = 0, room = width > 0 ? width : 78;
    sb_puts(out, "cut off:");
    col = 8;
    for (int i = 0; i < nparts; i++) {
        int len = (int)strlen(part[i]);
        if (col + 1 + len > room) {
            sb_puts(out, "\n ");
            col = 1;
        }
        sb_printf(out, " %s", part[i]);
        col += 1 + len;
    }
    sb_putc(out, '\n');
}

void render_board(const View *v, const RenderOpts *o, StrBuf *out)
{
    Frame f;
    memset(&f, 0, sizeof f);
    if (v->geo.bounded) {
        frame_bounded(v, o, &f);
    } else if (frame_plane(v, o, &f) < 0) {
        list_pieces(v, o, out);
        return;
    }
    frame_widths(v, o, &f);
    cut_line(&f, o->width, out);
    char left = f.cut[CUT_LEFT] > 0 ? '<' : ' ', right = f.cut[CUT_RIGHT] > 0 ? '>' : ' ';
    column_labels(&f, f.cut[CUT_ABOVE] > 0 ? '^' : ' ', out);
    for (int r = 0; r < f.nrows; r++) {
        sb_printf(out, "%*s%c", f.lw, f.row_label[r], left);
        for (int c = 0; c < f.ncols; c++)
            draw_cell(v, o, &f, coord_make(f.col_x[c], f.row_y[r]), out);
        sb_printf(out, "%c%s\n", right, f.row_label[r]);
    }
    column_labels(&f, f.cut[CUT_BELOW] > 0 ? 'v' : ' ', out);
}

/* ---- Status ----------------------------------------------------------- */

static const char *name_of(const char *const *names, int count, int i)
{
    return i >= 0 && i < count && names[i] ? names[i] : "?";
}

void render_result(const Status *s, const RenderNames *n, StrBuf *out)
{
    if (!s->over) {
        sb_putc(out, '*');
        return;
    }
    if (n->nsides == 2) {
        sb_puts(out, s->winners == 1u ? "1-0" : s->winners == 2u ? "0-1"
                     : s->winners == 0 ? "1/2-1/2" : "*");
        return;
    }
    if (s->winners == 0) {
        sb_puts(out, "draw");
        return;
    }
    int first = 1;
    for (int i = 0; i < n->nsides; i++) {
        if (!(s->winners & (1u << i)))
            continue;
        sb_printf(out, "%s%s", first ? "" : "+", name_of(n->side, n->nsides, i));
        first = 0;
    }
}

static void side_list(unsigned mask, const RenderNames *n, StrBuf *out)
{
    int count = 0, total = 0;
    for (int i = 0; i < n->nsides; i++)
        total += (mask >> i) & 1u;
    for (int i = 0; i < n->nsides; i++) {
        if (!(mask & (1u << i)))
            continue;
        count++;
        sb_printf(out, "%s%s", count == 1 ? "" : count == total ? " and " : ", ",
                  name_of(n->side, n->nsides, i));
    }
}

void render_status_line(const View *v, const RenderNames *n, StrBuf *out)
{
    const Status *s = &v->status;
    if (s->over) {
        sb_puts(out, "game over: ");
        render_result(s, n, out);
        if (s->winners) {
            sb_puts(out, ", ");
            side_list(s->winners, n, out);
            sb_puts(out, (s->winners & (s->winners - 1)) ? " win" : " wins");
        } else if (n->nsides == 2) {
            sb_puts(out, ", draw"); /* "1/2-1/2, draw"; with more sides the
                                       result already says "draw" */
        }
        if (s->reason[0])
            sb_printf(out, " (%s)", s->reason);
        return;
    }
    const char *mover = v->side_to_move >= 0
                            ? name_of(n->side, n->nsides, v->side_to_move) : NULL;
    const char *actor = v->seat_to_act >= 0
                            ? name_of(n->seat, n->nseats, v->seat_to_act) : NULL;
    if (mover && v->turn_moves > 0 && v->turn_duck) /* issue 25: a schedule */
        sb_printf(out, "%s places the duck", mover);
    else if (mover && v->turn_moves > 0)
        sb_printf(out, "%s to move (move %d of %d this turn)", mover,
                  v->turn_made < v->turn_moves ? v->turn_made + 1 : v->turn_moves,
                  v->turn_moves);
    else if (mover)
        sb_printf(out, "%s to move", mover);
    if (actor && (!mover || strcmp(actor, mover) != 0))
        sb_printf(out, "%s%s must act", mover ? "; " : "", actor);
    if (s->in_check) {
        sb_puts(out, mover || actor ? ", " : "");
        side_list(s->in_check, n, out);
        sb_puts(out, (s->in_check & (s->in_check - 1)) ? " are in check" : " is in check");
    }
}

/* A side's number and name ("3 red"), in its colour on the grey board
 * when colours are on. */
static void legend_entry(const RenderNames *n, int side, int color, StrBuf *out)
{
    char esc[24];
    const char *fg = color ? side_escape(side, esc, sizeof esc) : NULL;
    if (fg)
        sb_printf(out, "%s%s", ANSI_PLANE_LIGHT, fg);
    sb_printf(out, "%d %s", side + 1, name_of(n->side, n->nsides, side));
    if (fg)
        sb_puts(out, ANSI_RESET);
}

/* With more than two colours the tokens carry side numbers: which is
 * which ("1 white  2 black  3 red"). */
static void legend(const View *v, const RenderNames *n, const RenderOpts *o, StrBuf *out)
{
    if (colours(v) <= 2)
        return;
    for (int i = 0; i < n->nsides; i++) {
        if (i)
            sb_puts(out, "  ");
        legend_entry(n, i, o->color, out);
    }
    sb_putc(out, '\n');
}

/* What the marks after a figure mean, for those on the board now (docs/
 * PROTOCOL.md, "Board marks"): a line under the board, none without them. */
static void marks_legend(const View *v, StrBuf *out)
{
    static const struct {
        unsigned bit;
        const char *text;
    } MARKS[] = {
        {VP_TRAPPED, "# trapped: cannot move; a King it attacks is threatened, not in "
                     "check"},
        {VP_CHECK, "+ King in check"},
        {VP_INERT, "- its side is out of the game"},
    };
    unsigned seen = 0;
    for (int i = 0; i < v->npieces && i < MAX_VIEW_PIECES; i++)
        seen |= v->pieces[i].flags;
    int first = 1;
    for (size_t i = 0; i < ARRAY_LEN(MARKS); i++) {
        if (!(seen & MARKS[i].bit))
            continue;
        sb_printf(out, "%s%s", first ? "marks: " : "; ", MARKS[i].text);
        first = 0;
    }
    if (!first)
        sb_putc(out, '\n');
}

/* A captured piece's token, in its side's colour like on the board. */
static void captured_token(const ViewPiece *p, int cols, const RenderOpts *o, StrBuf *out)
{
    Token t;
    char esc[24];
    piece_token(p, cols, o->ascii, &t);
    const char *fg = o->color && cols > 2 && !(p->flags & VP_MERGED)
                         ? side_escape(p->side, esc, sizeof esc) : NULL;
    if (fg)
        sb_printf(out, " %s%s%s%s", ANSI_PLANE_LIGHT, fg, t.s, ANSI_RESET);
    else
        sb_printf(out, " %s", t.s);
}

/* Pieces in hand (issue 24, crazyhouse): is any piece in a hand? */
static int any_in_hand(const View *v)
{
    for (int i = 0; i < v->nhand && i < MAX_VIEW_HAND; i++)
        if (v->hand[i].count > 0)
            return 1;
    return 0;
}

/* One side's hand as a line, "black in hand: ♛ 2♞" (`q 2n` with
 * --ascii): each figure drawn as on the board, its count before it when
 * more than one; "none" for an empty hand. */
static void hand_line(const View *v, const RenderNames *n, const RenderOpts *o, int side,
                      StrBuf *out)
{
    int any = 0;
    sb_printf(out, "%s in hand:", name_of(n->side, n->nsides, side));
    for (int i = 0; i < v->nhand && i < MAX_VIEW_HAND; i++) {
        const ViewHand *h = &v->hand[i];
        if (h->side != side || h->count == 0)
            continue;
        ViewPiece p;
        Token t;
        memset(&p, 0, sizeof p);
        p.side = h->side;
        p.figure = h->figure;
        piece_token(&p, side <= 1 ? 2 : v->nsides, o->ascii, &t);
        sb_putc(out, ' ');
        if (h->count > 1)
            sb_printf(out, "%d", h->count);
        sb_puts(out, t.s);
        any = 1;
    }
    sb_puts(out, any ? "\n" : " none\n");
}

/* The hands of every side: with two sides on a board, the hand of the
 * side at the top over the board (top 1) and the other one's under it
 * (top 0); else all under the board.  Nothing while no hand holds a
 * piece. */
static void hands(const View *v, const RenderNames *n, const RenderOpts *o, int top,
                  StrBuf *out)
{
    if (!any_in_hand(v))
        return;
    int nsides = v->nsides > 0 && v->nsides <= MAX_SIDES ? v->nsides : n->nsides;
    if (nsides == 2 && v->geo.bounded) {
        int bottom = o->bottom ? o->bottom - 1 : v->seat == 1; /* frame_bounded's flip */
        hand_line(v, n, o, top ? 1 - bottom : bottom, out);
        return;
    }
    for (int side = 0; !top && side < nsides; side++)
        hand_line(v, n, o, side, out);
}

void render_view_text(const View *v, const RenderNames *n,
                      const RenderOpts *o, StrBuf *out)
{
    hands(v, n, o, 1, out);
    render_board(v, o, out);
    hands(v, n, o, 0, out);
    legend(v, n, o, out);
    marks_legend(v, out);
    if (v->last_text[0])
        sb_printf(out, "last move: %s\n", v->last_text);
    StrBuf st = STRBUF_INIT;
    render_status_line(v, n, &st);
    sb_printf(out, "%s\n", sb_str(&st));
    /* Variants often ask what the status line says already (or its
     * beginning: "black to move" before ", black is in check"). */
    if (v->question[0] && strncmp(v->question, sb_str(&st), strlen(v->question)) != 0)
        sb_printf(out, "question: %s\n", v->question);
    sb_free(&st);
    if (v->has_draw_offer && !v->status.over) {
        const char *who = name_of(n->seat, n->nseats, v->draw_offer_seat);
        if (v->draw_offer_seat == v->seat)
            sb_puts(out, "your draw offer stands\n");
        else
            sb_printf(out, "%s offers a draw: type accept or decline "
                           "(playing on declines it)\n", who ? who : "a seat");
    }
    if (v->info[0]) {
        sb_puts(out, v->info);
        if (v->info[strlen(v->info) - 1] != '\n')
            sb_putc(out, '\n');
    }
    if (v->ncaptured > 0) {
        sb_puts(out, "captured:");
        const int cols = colours(v);
        for (int i = 0; i < v->ncaptured && i < MAX_VIEW_PIECES; i++)
            captured_token(&v->captured[i], cols, o, out);
        sb_putc(out, '\n');
    }
}

/* ---- JSON ------------------------------------------------------------- */

void render_json_name(StrBuf *out, const char *const *names, int count, int i)
{
    if (names && i >= 0 && i < count && names[i])
        sb_json_str(out, names[i]);
    else
        sb_puts(out, "null");
}

static void json_mask(StrBuf *out, unsigned mask, const RenderNames *n)
{
    sb_putc(out, '[');
    int first = 1;
    for (int i = 0; i < n->nsides; i++) {
        if (!(mask & (1u << i)))
            continue;
        if (!first)
            sb_putc(out, ',');
        render_json_name(out, n->side, n->nsides, i);
        first = 0;
    }
    sb_putc(out, ']');
}

void render_status_json(const Status *s, const RenderNames *n, StrBuf *out)
{
    sb_printf(out, "{\"over\":%s,\"result\":", s->over ? "true" : "false");
    StrBuf r = STRBUF_INIT;
    render_result(s, n, &r);
    sb_json_str(out, sb_str(&r));
    sb_free(&r);
    sb_puts(out, ",\"winners\":");
    json_mask(out, s->over ? s->winners : 0, n);
    sb_puts(out, ",\"reason\":");
    if (s->reason[0])
        sb_json_str(out, s->reason);
    else
        sb_puts(out, "null");
    /* the reason for programs (issue 19 point 7): a word that stays */
    const char *code = s->over ? end_code_name(s->code) : NULL;
    sb_puts(out, ",\"reason_code\":");
    if (code)
        sb_printf(out, "\"%s\"", code);
    else
        sb_puts(out, s->over ? "\"other\"" : "null");
    sb_puts(out, ",\"in_check\":");
    json_mask(out, s->in_check, n);
    sb_putc(out, '}');
}

static void json_piece(const View *v, const ViewPiece *p, int on_board,
                       const RenderNames *n, StrBuf *out)
{
    sb_putc(out, '{');
    if (on_board) {
        char sq[GEO_SQ_MAX];
        sb_puts(out, "\"square\":");
        sb_json_str(out, geo_format_square(&v->geo, p->at, sq));
        sb_printf(out, ",\"x\":%d,\"y\":%d,", (int)p->at.x, (int)p->at.y);
    }
    sb_puts(out, "\"side\":");
    render_json_name(out, n->side, n->nsides, p->side);
    if (p->flags & VP_MERGED) {
        sb_puts(out, ",\"side2\":");
        render_json_name(out, n->side, n->nsides, p->side2);
    }
    sb_puts(out, ",\"figure\":");
    if (known_figure(p->figure))
        sb_printf(out, "\"%s\",\"letter\":\"%c\"", figure_name(p->figure),
                  figure_letter(p->figure));
    else
        sb_puts(out, "\"hidden\",\"letter\":\"?\"");
    static const struct { unsigned bit; const char *name; } FLAGS[] = {
        {VP_MASKED, "masked"}, {VP_MERGED, "merged"},
        {VP_INERT, "inert"}, {VP_TRAPPED, "trapped"}, {VP_CHECK, "check"}};
    sb_puts(out, ",\"flags\":[");
    int first = 1;
    for (size_t i = 0; i < ARRAY_LEN(FLAGS); i++) {
        if (!(p->flags & FLAGS[i].bit))
            continue;
        sb_printf(out, "%s\"%s\"", first ? "" : ",", FLAGS[i].name);
        first = 0;
    }
    sb_puts(out, "]}");
}

static void json_pieces(const View *v, const ViewPiece *pieces, int count,
                        int on_board, const RenderNames *n, StrBuf *out)
{
    sb_putc(out, '[');
    for (int i = 0; i < count && i < MAX_VIEW_PIECES; i++) {
        if (i)
            sb_putc(out, ',');
        json_piece(v, &pieces[i], on_board, n, out);
    }
    sb_putc(out, ']');
}

/* Pieces in hand (issue 24): [{"side":"black","figure":"knight",
 * "letter":"N","count":2}, ...], as this seat knows them. */
static void json_hand(const View *v, const RenderNames *n, StrBuf *out)
{
    sb_puts(out, ",\"hand\":[");
    for (int i = 0, k = 0; i < v->nhand && i < MAX_VIEW_HAND; i++) {
        const ViewHand *h = &v->hand[i];
        if (h->count == 0)
            continue;
        sb_puts(out, k++ ? ",{\"side\":" : "{\"side\":");
        render_json_name(out, n->side, n->nsides, h->side);
        if (known_figure(h->figure))
            sb_printf(out, ",\"figure\":\"%s\",\"letter\":\"%c\"", figure_name(h->figure),
                      figure_letter(h->figure));
        else
            sb_puts(out, ",\"figure\":\"hidden\",\"letter\":\"?\"");
        sb_printf(out, ",\"count\":%d}", h->count);
    }
    sb_putc(out, ']');
}

static void json_opt_str(StrBuf *out, const char *key, const char *s)
{
    sb_printf(out, ",\"%s\":", key);
    if (s[0])
        sb_json_str(out, s);
    else
        sb_puts(out, "null");
}

/* Info is free text of several lines; programs get it line by line. */
static void json_lines(StrBuf *out, const char *text)
{
    sb_putc(out, '[');
    int first = 1;
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        StrBuf line = STRBUF_INIT;
        sb_putn(&line, p, len);
        if (!first)
            sb_putc(out, ',');
        sb_json_str(out, sb_str(&line));
        sb_free(&line);
        first = 0;
        p += len + (nl ? 1 : 0);
    }
    sb_putc(out, ']');
}

static void json_last_move(const View *v, StrBuf *out)
{
    sb_puts(out, ",\"last_move\":");
    if (!v->has_last && !v->last_text[0]) {
        sb_puts(out, "null");
        return;
    }
    sb_puts(out, "{\"text\":");
    if (v->last_text[0])
        sb_json_str(out, v->last_text);
    else
        sb_puts(out, "null");
    if (v->has_last) {
        char a[GEO_SQ_MAX], b[GEO_SQ_MAX];
        sb_puts(out, ",\"from\":");
        sb_json_str(out, geo_format_square(&v->geo, v->last_from, a));
        sb_puts(out, ",\"to\":");
        sb_json_str(out, geo_format_square(&v->geo, v->last_to, b));
    }
    sb_putc(out, '}');
}

/* Scores by side, for the sides still in the game. */
static void json_scores(const View *v, const RenderNames *n, StrBuf *out)
{
    if (!v->has_scores) {
        sb_puts(out, "null");
        return;
    }
    sb_putc(out, '{');
    for (int i = 0, k = 0; i < n->nsides && i < MAX_SIDES; i++) {
        if (v->out & (1u << i))
            continue;
        if (k++)
            sb_putc(out, ',');
        render_json_name(out, n->side, n->nsides, i);
        sb_printf(out, ":%d", v->scores[i]);
    }
    sb_putc(out, '}');
}

void render_facts_json(const View *v, const RenderNames *n, StrBuf *out)
{
    sb_puts(out, ",\"phase\":");
    sb_json_str(out, v->phase[0] ? v->phase : "play");
    sb_puts(out, ",\"commands\":{");
    for (int i = 0; i < n->nseats && i < MAX_SEATS; i++) {
        if (i)
            sb_putc(out, ',');
        render_json_name(out, n->seat, n->nseats, i);
        sb_putc(out, ':');
        json_mask(out, v->commands[i], n);
    }
    sb_puts(out, "},\"turn_order\":");
    if (v->norder > 0) {
        sb_putc(out, '[');
        for (int i = 0; i < v->norder && i < MAX_SIDES; i++) {
            if (i)
                sb_putc(out, ',');
            render_json_name(out, n->side, n->nsides, v->order[i]);
        }
        sb_putc(out, ']');
    } else {
        sb_puts(out, "null");
    }
    sb_puts(out, ",\"out\":");
    json_mask(out, v->out, n);
    sb_puts(out, ",\"threatened\":");
    json_mask(out, v->threatened, n);
    sb_puts(out, ",\"scores\":");
    json_scores(v, n, out);
    if (v->turn_moves > 0) /* issue 25: a house rule's schedule runs */
        sb_printf(out, ",\"turn\":{\"number\":%d,\"made\":%d,\"moves\":%d,\"left\":%d,"
                       "\"duck\":%s}",
                  v->turn_number, v->turn_made, v->turn_moves,
                  v->turn_moves > v->turn_made ? v->turn_moves - v->turn_made : 0,
                  v->turn_duck ? "true" : "false");
}

void render_view_json(const View *v, const RenderNames *n,
                      const char *const *msgs, int nmsgs, StrBuf *out)
{
    sb_puts(out, "{\"seat\":");
    render_json_name(out, n->seat, n->nseats, v->seat);
    if (v->geo.bounded)
        sb_printf(out, ",\"geometry\":{\"bounded\":true,\"width\":%d,\"height\":%d}",
                  v->geo.width, v->geo.height);
    else
        sb_puts(out, ",\"geometry\":{\"bounded\":false}");
    sb_puts(out, ",\"sides\":[");
    for (int i = 0; i < n->nsides; i++) {
        if (i)
            sb_putc(out, ',');
        render_json_name(out, n->side, n->nsides, i);
    }
    sb_puts(out, "],\"side_to_move\":");
    render_json_name(out, n->side, n->nsides, v->side_to_move);
    sb_puts(out, ",\"seat_to_act\":");
    render_json_name(out, n->seat, n->nseats, v->seat_to_act);
    sb_puts(out, ",\"pieces\":");
    json_pieces(v, v->pieces, npieces(v), 1, n, out);
    sb_puts(out, ",\"captured\":");
    json_pieces(v, v->captured, v->ncaptured, 0, n, out);
    json_hand(v, n, out);
    json_last_move(v, out);
    json_opt_str(out, "position", v->position);
    json_opt_str(out, "question", v->question);
    sb_puts(out, ",\"draw_offer\":");
    render_json_name(out, n->seat, n->nseats,
                     v->has_draw_offer ? v->draw_offer_seat : -1);
    sb_puts(out, ",\"info\":");
    json_lines(out, v->info);
    sb_puts(out, ",\"status\":");
    render_status_json(&v->status, n, out);
    render_facts_json(v, n, out);
    sb_puts(out, ",\"messages\":[");
    for (int i = 0; i < nmsgs; i++) {
        if (i)
            sb_putc(out, ',');
        sb_json_str(out, msgs[i]);
    }
    sb_puts(out, "]}");
}
