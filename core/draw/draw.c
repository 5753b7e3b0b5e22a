/*
 * draw.c -- a View as an SVG board: the page's board (its state frames'
 * board_svg) and the diagrams (issue 22).
 *
 * The page (web/app.js) lays its overlays on it with the same coordinates
 * (its layout()).  Only the View's own facts are read (see draw.h).
 */
#include "draw.h"
#include "../game.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The page's side colours (fill, ink), web/app.js COLOURS and SPARE. */
static const struct {
    const char *name, *fill, *ink;
} COLOURS[] = {
    {"white", "#f7f3e8", "#1a1a1a"}, {"black", "#262626", "#ffffff"},
    {"red", "#b3261e", "#ffffff"},   {"blue", "#1f4fbf", "#ffffff"},
    {"green", "#7cc46a", "#102010"}, {"yellow", "#f2c230", "#1a1a1a"},
    {"merged", "#8a8a8a", "#ffffff"},
};
static const char *const SPARE[][2] = {{"#7a4fa0", "#fff"}, {"#2b8c8c", "#fff"},
                                       {"#c06a20", "#fff"}};

/* Every line is a line of web/style.css (the page's look). */
static const char CSS[] =
    "svg.board { --light: #e9dfc8; --dark: #b08a5a; --last: #c9c25a; --sel: #6fa8dc; }\n"
    "svg.board .bg { fill: #d8d2c4; }\n"
    ".cell.light { fill: var(--light); }\n"
    ".cell.dark { fill: var(--dark); }\n"
    ".plane .cell.light, .plane .cell.dark { fill: #e7e4dc; stroke: #c9c3b6; "
    "stroke-width: .02; }\n"
    ".cell.last { fill: var(--last); }\n"
    ".coords text { font-size: .32px; fill: #333; text-anchor: middle; "
    "font-family: system-ui, sans-serif; }\n"
    ".piece .rim { stroke: #111; stroke-width: .04; }\n"
    ".piece .letter { font: bold .42px system-ui, sans-serif; text-anchor: middle; "
    "pointer-events: none; }\n"
    ".piece .merged-letter { fill: #fff; stroke: #000; stroke-width: .05; "
    "paint-order: stroke; }\n"
    ".piece .crown { stroke-width: .03; }\n"
    ".piece .mask { fill: #6a2ca0; stroke: #fff; stroke-width: .02; }\n"
    ".piece.f-masked .rim { stroke-dasharray: .1 .06; stroke: #6a2ca0; stroke-width: .06; }\n"
    ".piece .trap { stroke: #c00; stroke-width: .07; stroke-linecap: round; }\n"
    ".piece .check-halo { fill: rgba(220, 0, 0, .45); }\n"
    ".piece .threat-halo { fill: none; stroke: #e07000; stroke-width: .08; "
    "stroke-dasharray: .12 .08; }\n"
    ".coords .band { fill: rgba(216, 210, 196, .92); }\n"
    ".marked { fill: none; stroke: #0a7d3b; stroke-width: .08; pointer-events: none; }\n"
    ".arrow { stroke: rgba(10, 125, 59, .8); stroke-width: .13; stroke-linecap: round; "
    "pointer-events: none; }\n"
    ".arrow-head { fill: rgba(10, 125, 59, .8); pointer-events: none; }\n";

const char *draw_css(void)
{
    return CSS;
}

void draw_opts_for(const Game *g, const View *v, DrawOpts *o)
{
    memset(o, 0, sizeof *o);
    o->nsides = game_nsides(g) < MAX_SIDES ? game_nsides(g) : MAX_SIDES;
    for (int i = 0; i < o->nsides; i++)
        o->side[i] = game_side_name(g, i);
    o->flip = v->seat >= 0 && v->geo.bounded && o->nsides > 1 &&
              strcmp(game_seat_name(g, v->seat), o->side[1]) == 0;
}

/* A number as the page writes it: no trailing zeros, "-0" as "0". */
static void num(StrBuf *out, double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3f", x);
    char *end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        *--end = '\0';
    sb_puts(out, strcmp(buf, "-0") == 0 ? "0" : buf);
}

/* name="value" with the value escaped for XML. */
static void attr(StrBuf *out, const char *name, const char *value)
{
    sb_printf(out, " %s=\"", name);
    for (const char *p = value; *p; p++) {
        switch (*p) {
        case '&': sb_puts(out, "&amp;"); break;
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        default: sb_putc(out, *p);
        }
    }
    sb_putc(out, '"');
}

static void attr_num(StrBuf *out, const char *name, double x)
{
    sb_printf(out, " %s=\"", name);
    num(out, x);
    sb_putc(out, '"');
}

static void text_escaped(StrBuf *out, const char *s)
{
    for (const char *p = s; *p; p++) {
        if (*p == '&')
            sb_puts(out, "&amp;");
        else if (*p == '<')
            sb_puts(out, "&lt;");
        else if (*p == '>')
            sb_puts(out, "&gt;");
        else
            sb_putc(out, *p);
    }
}

static const char *side_name(const DrawOpts *o, int side)
{
    return side >= 0 && side < o->nsides && o->side[side] ? o->side[side] : NULL;
}

/* colour() of web/app.js: by name, else a spare colour by the side's
 * index, else the merged grey. */
static void colour(const DrawOpts *o, const char *name, const char **fill, const char **ink)
{
    for (size_t i = 0; name && i < ARRAY_LEN(COLOURS); i++) {
        if (strcmp(COLOURS[i].name, name) == 0) {
            *fill = COLOURS[i].fill;
            *ink = COLOURS[i].ink;
            return;
        }
    }
    for (int i = 0; name && i < o->nsides; i++) {
        if (o->side[i] && strcmp(o->side[i], name) == 0) {
            *fill = SPARE[i % 3][0];
            *ink = SPARE[i % 3][1];
            return;
        }
    }
    *fill = COLOURS[ARRAY_LEN(COLOURS) - 1].fill;
    *ink = COLOURS[ARRAY_LEN(COLOURS) - 1].ink;
}

/* The drawn squares and how a square maps to the SVG (layout()). */
typedef struct Layout {
    int bounded, flip, W, H;
    int64_t x0, x1, y0, y1; /* squares drawn */
} Layout;

static double col_of(const Layout *l, int64_t x)
{
    if (!l->bounded)
        return (double)x;
    return (double)(l->flip ? l->W - 1 - x : x);
}

static double row_of(const Layout *l, int64_t y)
{
    if (!l->bounded)
        return (double)-y;
    return (double)(l->flip ? y : l->H - 1 - y);
}

static void grow(Layout *l, Coord c, int *any)
{
    if (!*any) {
        l->x0 = l->x1 = c.x;
        l->y0 = l->y1 = c.y;
        *any = 1;
        return;
    }
    l->x0 = c.x < l->x0 ? c.x : l->x0;
    l->x1 = c.x > l->x1 ? c.x : l->x1;
    l->y0 = c.y < l->y0 ? c.y : l->y0;
    l->y1 = c.y > l->y1 ? c.y : l->y1;
}

/* A window from its lowest corner lo to its highest hi, at most
 * DRAW_MAX_SPAN squares each way: 0, or -1 with e. */
static int window_check(Coord lo, Coord hi, Error *e)
{
    if (hi.x < lo.x || hi.y < lo.y || (int64_t)hi.x - lo.x + 1 > DRAW_MAX_SPAN ||
        (int64_t)hi.y - lo.y + 1 > DRAW_MAX_SPAN)
        return err_set(e, "the window must go from its lowest corner to its highest and "
                          "fit in %d x %d squares", DRAW_MAX_SPAN, DRAW_MAX_SPAN);
    return 0;
}

static int make_layout(const View *v, const DrawOpts *o, Layout *l, Error *e)
{
    memset(l, 0, sizeof *l);
    l->bounded = v->geo.bounded;
    if (l->bounded) {
        l->W = v->geo.width;
        l->H = v->geo.height;
        l->flip = o->flip;
        l->x1 = l->W - 1;
        l->y1 = l->H - 1;
        char sq[GEO_SQ_MAX];
        for (int i = 0; i < o->narrows; i++)
            for (int k = 0; k < 2; k++) {
                Coord c = k ? o->arrows[i].to : o->arrows[i].from;
                if (!geo_contains(&v->geo, c))
                    return err_set(e, "the arrow's square %s is off the board",
                                   geo_format_square(&v->geo, c, sq));
            }
        for (int i = 0; i < o->nmarks; i++)
            if (!geo_contains(&v->geo, o->marks[i]))
                return err_set(e, "the marked square %s is off the board",
                               geo_format_square(&v->geo, o->marks[i], sq));
        return 0;
    }
    if (o->window) { /* the plane through a window: those squares */
        l->x0 = o->lo.x, l->y0 = o->lo.y, l->x1 = o->hi.x, l->y1 = o->hi.y;
        return window_check(o->lo, o->hi, e);
    }
    /* The plane: the box of the pieces, arrows and marks, and a margin of
     * one square (the terminal's, render.h) unless o says more. */
    int any = 0;
    for (int i = 0; i < v->npieces && i < MAX_VIEW_PIECES; i++)
        grow(l, v->pieces[i].at, &any);
    for (int i = 0; i < o->narrows; i++) {
        grow(l, o->arrows[i].from, &any);
        grow(l, o->arrows[i].to, &any);
    }
    for (int i = 0; i < o->nmarks; i++)
        grow(l, o->marks[i], &any);
    if (!any)
        grow(l, coord_make(0, 0), &any);
    int64_t m = o->margin > 0 ? o->margin : 1;
    l->x0 -= m, l->y0 -= m, l->x1 += m, l->y1 += m;
    if (l->x1 - l->x0 + 1 > DRAW_MAX_SPAN || l->y1 - l->y0 + 1 > DRAW_MAX_SPAN)
        return err_set(e, "the diagram would be %lld x %lld squares: the pieces, arrows "
                          "and marks must fit in %d x %d",
                       (long long)(l->x1 - l->x0 + 1), (long long)(l->y1 - l->y0 + 1),
                       DRAW_MAX_SPAN, DRAW_MAX_SPAN);
    return 0;
}

static int is_last(const View *v, int64_t x, int64_t y)
{
    return v->has_last && ((v->last_from.x == x && v->last_from.y == y) ||
                           (v->last_to.x == x && v->last_to.y == y));
}

static void cells(const View *v, const Layout *l, StrBuf *out)
{
    sb_puts(out, "<g class=\"cells\">");
    for (int64_t y = l->y0; y <= l->y1; y++) {
        for (int64_t x = l->x0; x <= l->x1; x++) {
            int dark = (((x + y) % 2) + 2) % 2 == 0;
            sb_printf(out, "<rect class=\"cell %s%s\"", dark ? "dark" : "light",
                      is_last(v, x, y) ? " last" : "");
            attr_num(out, "x", col_of(l, x));
            attr_num(out, "y", row_of(l, y));
            sb_printf(out, " width=\"1\" height=\"1\" data-x=\"%lld\" data-y=\"%lld\"/>",
                      (long long)x, (long long)y);
        }
    }
    sb_puts(out, "</g>");
}

static void label(StrBuf *out, double x, double y, const char *cls, const char *t)
{
    sb_puts(out, "<text");
    attr_num(out, "x", x);
    attr_num(out, "y", y);
    if (cls)
        attr(out, "class", cls);
    sb_putc(out, '>');
    text_escaped(out, t);
    sb_puts(out, "</text>");
}

/* The page's open table (web/app.js FRAME_PX, LABEL_PX) at the page's
 * 40 pixels a square: the frame's bands and margins and the labels. */
#define PLANE_PX 40.0
#define FRAME_L 30.0
#define FRAME_T 20.0
#define FRAME_R 6.0
#define FRAME_B 6.0
#define LABEL_PX 11.0

/* labelStep() of web/app.js: the first of 1, 2, 5, 10, 20 ... that leaves
 * `need` pixels from one label to the next. */
static int64_t label_step(double need)
{
    for (int64_t k = 1;; k *= 10) {
        static const int M[] = {1, 2, 5};
        for (int i = 0; i < 3; i++)
            if ((double)(k * M[i]) * PLANE_PX >= need)
                return k * M[i];
    }
}

static void plane_label(StrBuf *out, double x, double y, const char *style,
                        const char *data, const char *t)
{
    sb_puts(out, "<text");
    attr_num(out, "x", x);
    attr_num(out, "y", y);
    attr(out, "style", style);
    sb_printf(out, " %s=\"%s\">%s</text>", data, t, t);
}

static void coords(const Layout *l, StrBuf *out)
{
    char t[32];
    sb_puts(out, "<g class=\"coords\">");
    if (l->bounded) {
        for (int x = 0; x < l->W; x++) {
            if (x < 26)
                snprintf(t, sizeof t, "%c", 'a' + x);
            else
                snprintf(t, sizeof t, "%d", x + 1);
            label(out, col_of(l, x) + 0.5, -0.3, NULL, t);
            label(out, col_of(l, x) + 0.5, l->H + 0.45, NULL, t);
        }
        for (int y = 0; y < l->H; y++) {
            snprintf(t, sizeof t, "%d", y + 1);
            label(out, -0.3, row_of(l, y) + 0.62, NULL, t);
            label(out, l->W + 0.3, row_of(l, y) + 0.62, NULL, t);
        }
    } else {
        /* Bands along the top and the left, as the page's open table
         * (web/app.js, draw()): the frame and the labels' size in squares,
         * for PLANE_PX pixels a square; every k-th label where they would
         * touch; a column's number only over the table, a row's beside it. */
        double cx = (double)l->x0, cy = -(double)l->y1;
        double cw = (double)(l->x1 - l->x0 + 1), ch = (double)(l->y1 - l->y0 + 1);
        double fl = FRAME_L / PLANE_PX, ft = FRAME_T / PLANE_PX, fr = FRAME_R / PLANE_PX,
               fb = FRAME_B / PLANE_PX, font = LABEL_PX / PLANE_PX, em = 0.7 * font;
        sb_puts(out, "<rect class=\"band\"");
        attr_num(out, "x", cx - fl);
        attr_num(out, "y", cy - ft);
        attr_num(out, "width", cw + fl + fr);
        attr_num(out, "height", ft);
        sb_puts(out, "/><rect class=\"band\"");
        attr_num(out, "x", cx - fl);
        attr_num(out, "y", cy - ft);
        attr_num(out, "width", fl);
        attr_num(out, "height", ch + ft + fb);
        sb_puts(out, "/>");
        char style[48], a[24], b[24];
        snprintf(a, sizeof a, "%lld", (long long)l->x0);
        snprintf(b, sizeof b, "%lld", (long long)l->x1);
        size_t widest = strlen(a) > strlen(b) ? strlen(a) : strlen(b);
        int64_t kx = label_step((double)widest * em * PLANE_PX + 6),
                ky = label_step(LABEL_PX + 4);
        StrBuf st = STRBUF_INIT;
        sb_puts(&st, "font-size:");
        num(&st, font);
        sb_puts(&st, "px");
        snprintf(style, sizeof style, "%s", sb_str(&st));
        sb_free(&st);
        for (int64_t x = l->x0; x <= l->x1; x++) {
            snprintf(t, sizeof t, "%lld", (long long)x);
            double half = (double)strlen(t) * em / 2;
            if (x % kx || (double)x + 0.5 - half < cx || (double)x + 0.5 + half > cx + cw + fr)
                continue;
            plane_label(out, (double)x + 0.5, cy - ft / 2 + 0.35 * font, style, "data-col", t);
        }
        for (int64_t y = l->y0; y <= l->y1; y++) {
            snprintf(t, sizeof t, "%lld", (long long)y);
            if (y % ky || (double)-y + 0.5 - 0.65 * font < cy ||
                (double)-y + 0.5 + 0.65 * font > cy + ch + fb)
                continue;
            plane_label(out, cx - fl / 2, (double)-y + 0.5 + 0.35 * font, style, "data-row", t);
        }
    }
    sb_puts(out, "</g>");
}

static int known_figure(int fig)
{
    return (fig > FIG_NONE && fig < FIG_HIDDEN) || figure_is_lettered(fig) || fig == FIG_DUCK;
}


/* A lettered figure's body (issue 24: a piece of a rule set from parts):
 * a rounded square where the orthodox figures have a disc, so its letter
 * never reads as one of theirs. */
static void square_body(StrBuf *out, double cx, double cy, double r, const char *fill)
{
    sb_puts(out, "<rect class=\"body rim\"");
    attr_num(out, "x", cx - r);
    attr_num(out, "y", cy - r);
    attr_num(out, "width", 2 * r);
    attr_num(out, "height", 2 * r);
    attr_num(out, "rx", r * 0.35);
    attr(out, "fill", fill);
    sb_puts(out, "/>");
}

static void circle(StrBuf *out, const char *cls, double cx, double cy, double r,
                   const char *fill, const char *stroke)
{
    sb_puts(out, "<circle");
    attr(out, "class", cls);
    attr_num(out, "cx", cx);
    attr_num(out, "cy", cy);
    attr_num(out, "r", r);
    if (fill)
        attr(out, "fill", fill);
    if (stroke)
        attr(out, "stroke", stroke);
    sb_puts(out, "/>");
}

/* The duck (issue 25, duck chess): nobody's piece, so no side's disc: a
 * yellow body and head looking right, an orange beak, an eye.  Its colours
 * are its own attributes (the stylesheet is every board's). */
static void duck_body(StrBuf *out, double cx, double cy)
{
    static const char YELLOW[] = " fill=\"#f2c230\" stroke=\"#111\" stroke-width=\"0.035\"";
    sb_puts(out, "<ellipse class=\"duck\"");
    attr_num(out, "cx", cx - 0.04);
    attr_num(out, "cy", cy + 0.1);
    attr_num(out, "rx", 0.3);
    attr_num(out, "ry", 0.19);
    sb_printf(out, "%s/>", YELLOW);
    sb_puts(out, "<circle class=\"duck\"");
    attr_num(out, "cx", cx + 0.12);
    attr_num(out, "cy", cy - 0.13);
    attr_num(out, "r", 0.14);
    sb_printf(out, "%s/>", YELLOW);
    sb_puts(out, "<path class=\"duck-beak\" d=\"M");
    num(out, cx + 0.24), sb_putc(out, ' '), num(out, cy - 0.17);
    sb_puts(out, " l0.16 0.05 l-0.16 0.05 Z\" fill=\"#e07000\" stroke=\"#111\" "
                 "stroke-width=\"0.025\"/>");
    circle(out, "duck-eye", cx + 0.15, cy - 0.17, 0.025, "#111", NULL);
}

/* A half disc of radius r, left (sweep 0) or right (sweep 1). */
static void half(StrBuf *out, double cx, double cy, double r, int sweep, const char *fill)
{
    sb_puts(out, "<path class=\"body\" d=\"M");
    num(out, cx), sb_putc(out, ' '), num(out, cy - r);
    sb_puts(out, " A"), num(out, r), sb_putc(out, ' '), num(out, r);
    sb_printf(out, " 0 0 %d ", sweep);
    num(out, cx), sb_putc(out, ' '), num(out, cy + r);
    sb_puts(out, " Z\"");
    attr(out, "fill", fill);
    sb_puts(out, "/>");
}

/* A piece: its group, halo, body, crown, letter, mask and trap marks. */
static void piece(const View *v, const DrawOpts *o, const Layout *l, const ViewPiece *p,
                  StrBuf *out)
{
    static const struct {
        unsigned bit;
        const char *name;
    } FLAGS[] = {{VP_MASKED, "masked"},   {VP_MERGED, "merged"}, {VP_INERT, "inert"},
                 {VP_TRAPPED, "trapped"}, {VP_CHECK, "check"}};
    const char *fig = known_figure(p->figure) ? figure_name(p->figure) : "hidden";
    char letter[2] = {known_figure(p->figure) ? figure_letter(p->figure) : '?', 0};
    char sq[GEO_SQ_MAX], flags[64] = "", cls[128];
    for (size_t i = 0; i < ARRAY_LEN(FLAGS); i++)
        if (p->flags & FLAGS[i].bit)
            snprintf(flags + strlen(flags), sizeof flags - strlen(flags), "%s%s",
                     flags[0] ? " " : "", FLAGS[i].name);
    snprintf(cls, sizeof cls, "piece fig-%s", fig);
    for (size_t i = 0; i < ARRAY_LEN(FLAGS); i++)
        if (p->flags & FLAGS[i].bit)
            snprintf(cls + strlen(cls), sizeof cls - strlen(cls), " f-%s", FLAGS[i].name);
    const char *side = side_name(o, p->side), *side2 = side_name(o, p->side2);
    int merged = (p->flags & VP_MERGED) != 0;

    sb_puts(out, "<g");
    attr(out, "class", cls);
    attr(out, "data-square", geo_format_square(&v->geo, p->at, sq));
    sb_printf(out, " data-x=\"%d\" data-y=\"%d\"", (int)p->at.x, (int)p->at.y);
    attr(out, "data-side", side ? side : "null");
    attr(out, "data-figure", fig);
    attr(out, "data-flags", flags);
    if (p->flags & VP_INERT)
        sb_puts(out, " opacity=\"0.45\"");
    sb_putc(out, '>');

    double cx = col_of(l, p->at.x) + 0.5, cy = row_of(l, p->at.y) + 0.5, r = 0.38;
    int king = p->figure == FIG_KING;
    int in_check = p->side >= 0 && p->side < MAX_SIDES && (v->status.in_check >> p->side) & 1;
    int threatened = p->side >= 0 && p->side < MAX_SIDES && (v->threatened >> p->side) & 1;
    if ((p->flags & VP_CHECK) || (king && in_check))
        circle(out, "check-halo", cx, cy, 0.49, NULL, NULL);
    else if (king && threatened)
        circle(out, "threat-halo", cx, cy, 0.48, NULL, NULL);
    const char *fill, *ink;
    if (p->figure == FIG_DUCK) {
        duck_body(out, cx, cy);
    } else if (merged) {
        const char *fill2, *ink2;
        colour(o, side ? side : "white", &fill, &ink);
        colour(o, side2 ? side2 : "black", &fill2, &ink2);
        half(out, cx, cy, r, 0, fill);
        half(out, cx, cy, r, 1, fill2);
        circle(out, "rim", cx, cy, r, "none", NULL);
        sb_puts(out, "<text class=\"letter merged-letter\"");
        attr_num(out, "x", cx);
        attr_num(out, "y", cy + 0.14);
        sb_printf(out, ">%s</text>", letter);
    } else {
        colour(o, side, &fill, &ink);
        if (figure_is_lettered(p->figure))
            square_body(out, cx, cy, r - 0.03, fill);
        else
            circle(out, "body rim", cx, cy, r, fill, NULL);
        if (king)
            circle(out, "crown", cx, cy, r - 0.07, "none", ink);
        sb_puts(out, "<text class=\"letter\"");
        attr_num(out, "x", cx);
        attr_num(out, "y", cy + 0.14);
        attr(out, "fill", ink);
        sb_printf(out, ">%s</text>", letter);
    }
    if (p->flags & VP_MASKED) {
        sb_puts(out, "<path class=\"mask\" d=\"M");
        num(out, cx - 0.3), sb_putc(out, ' '), num(out, cy - 0.3);
        sb_puts(out, " h0.6 v0.14 h-0.6 Z\"/>");
    }
    if (p->flags & VP_TRAPPED) {
        sb_puts(out, "<path class=\"trap\" d=\"M");
        num(out, cx - 0.36), sb_putc(out, ' '), num(out, cy + 0.36);
        sb_puts(out, " l0.18 -0.18 M");
        num(out, cx + 0.36), sb_putc(out, ' '), num(out, cy + 0.36);
        sb_puts(out, " l-0.18 -0.18\"/>");
    }
    StrBuf title = STRBUF_INIT;
    if (p->figure == FIG_DUCK) /* nobody's (issue 25) */
        sb_printf(&title, "%s: %s", sq, fig);
    else
        sb_printf(&title, "%s: %s%s%s %s", sq, side ? side : "merged",
                  merged && side2 ? "+" : "", merged && side2 ? side2 : "", fig);
    for (size_t i = 0, n = 0; i < ARRAY_LEN(FLAGS); i++) /* "(trapped, check)" */
        if (p->flags & FLAGS[i].bit)
            sb_printf(&title, "%s%s", n++ ? ", " : " (", FLAGS[i].name);
    if (flags[0])
        sb_putc(&title, ')');
    sb_puts(out, "<title>");
    text_escaped(out, sb_str(&title));
    sb_puts(out, "</title></g>");
    sb_free(&title);
}

/* Pieces in hand (issue 24, crazyhouse): is any piece in a hand? */
static int any_in_hand(const View *v)
{
    for (int i = 0; i < v->nhand && i < MAX_VIEW_HAND; i++)
        if (v->hand[i].count > 0)
            return 1;
    return 0;
}

/* The band over and under a bounded board that holds the hands. */
#define HAND_BAND 0.9

/* The hand of each side as a row of small pieces with their counts: the
 * side at the top of the board (the second, or the first when flipped) in
 * the band over it, the others in the band under it.  Each is a g.hand
 * with data-side, each figure a g.hand-piece with data-figure and
 * data-count. */
static void hands(const View *v, const DrawOpts *o, const Layout *l, StrBuf *out)
{
    int top = l->flip ? 0 : 1;
    sb_puts(out, "<g class=\"hands\">");
    for (int band = 0; band < 2; band++) {
        double cy = band ? l->H + 0.6 + HAND_BAND / 2 : -0.6 - HAND_BAND / 2, x = 0;
        for (int side = 0; side < o->nsides; side++) {
            if ((side == top) != (band == 0))
                continue;
            const char *name = side_name(o, side), *fill, *ink;
            colour(o, name, &fill, &ink);
            sb_puts(out, "<g class=\"hand\"");
            attr(out, "data-side", name ? name : "null");
            sb_putc(out, '>');
            for (int i = 0; i < v->nhand && i < MAX_VIEW_HAND; i++) {
                const ViewHand *h = &v->hand[i];
                if (h->side != side || h->count == 0)
                    continue;
                int known = known_figure(h->figure);
                char letter[2] = {known ? figure_letter(h->figure) : '?', 0};
                double cx = x + 0.35;
                sb_puts(out, "<g class=\"hand-piece\"");
                attr(out, "data-figure", known ? figure_name(h->figure) : "hidden");
                sb_printf(out, " data-count=\"%d\">", h->count);
                if (figure_is_lettered(h->figure))
                    square_body(out, cx, cy, 0.27, fill);
                else
                    circle(out, "body rim", cx, cy, 0.3, fill, NULL);
                sb_puts(out, "<text class=\"letter\"");
                attr_num(out, "x", cx);
                attr_num(out, "y", cy + 0.14);
                attr(out, "fill", ink);
                sb_printf(out, ">%s</text>", letter);
                if (h->count > 1) {
                    char t[16];
                    snprintf(t, sizeof t, "\u00D7%d", h->count);
                    sb_puts(out, "<text class=\"count\"");
                    attr_num(out, "x", cx + 0.34);
                    attr_num(out, "y", cy + 0.11);
                    sb_printf(out, " style=\"font: bold .3px system-ui, sans-serif\" "
                                   "fill=\"#333\">%s</text>", t);
                }
                sb_printf(out, "<title>%s in hand: %d %s</title></g>", name ? name : "?",
                          h->count, known ? figure_name(h->figure) : "hidden");
                x += h->count > 1 ? 1.3 : 0.8;
            }
            sb_puts(out, "</g>");
            x += 0.4;
        }
    }
    sb_puts(out, "</g>");
}

static void marks(const View *v, const DrawOpts *o, const Layout *l, StrBuf *out)
{
    char sq[GEO_SQ_MAX];
    sb_puts(out, "<g class=\"marks\">");
    for (int i = 0; i < o->nmarks; i++) {
        sb_puts(out, "<rect class=\"marked\"");
        attr_num(out, "x", col_of(l, o->marks[i].x) + 0.06);
        attr_num(out, "y", row_of(l, o->marks[i].y) + 0.06);
        sb_puts(out, " width=\"0.88\" height=\"0.88\"");
        attr(out, "data-square", geo_format_square(&v->geo, o->marks[i], sq));
        sb_puts(out, "/>");
    }
    sb_puts(out, "</g>");
}

static void arrows(const View *v, const DrawOpts *o, const Layout *l, StrBuf *out)
{
    char a[GEO_SQ_MAX], b[GEO_SQ_MAX];
    sb_puts(out, "<g class=\"arrows\">");
    for (int i = 0; i < o->narrows; i++) {
        const DrawArrow *w = &o->arrows[i];
        double x1 = col_of(l, w->from.x) + 0.5, y1 = row_of(l, w->from.y) + 0.5;
        double x2 = col_of(l, w->to.x) + 0.5, y2 = row_of(l, w->to.y) + 0.5;
        double len = hypot(x2 - x1, y2 - y1), dx = (x2 - x1) / len, dy = (y2 - y1) / len;
        double bx = x2 - dx * 0.4, by = y2 - dy * 0.4; /* the head's base */
        sb_puts(out, "<g class=\"arrow-group\"");
        attr(out, "data-from", geo_format_square(&v->geo, w->from, a));
        attr(out, "data-to", geo_format_square(&v->geo, w->to, b));
        sb_puts(out, "><line class=\"arrow\"");
        attr_num(out, "x1", x1);
        attr_num(out, "y1", y1);
        attr_num(out, "x2", bx + dx * 0.05);
        attr_num(out, "y2", by + dy * 0.05);
        sb_puts(out, "/><path class=\"arrow-head\" d=\"M");
        num(out, x2), sb_putc(out, ' '), num(out, y2);
        sb_puts(out, " L"), num(out, bx - dy * 0.22), sb_putc(out, ' '), num(out, by + dx * 0.22);
        sb_puts(out, " L"), num(out, bx + dy * 0.22), sb_putc(out, ' '), num(out, by - dx * 0.22);
        sb_puts(out, " Z\"/></g>");
    }
    sb_puts(out, "</g>");
}

int draw_svg(const View *v, const DrawOpts *o, StrBuf *out, Error *e)
{
    Layout l;
    if (make_layout(v, o, &l, e))
        return -1;
    double vx, vy, vw, vh;
    int with_hands = l.bounded && any_in_hand(v);
    if (l.bounded) {
        vx = vy = -0.6;
        vw = l.W + 1.2;
        vh = l.H + 1.2;
        if (with_hands) {
            vy -= HAND_BAND;
            vh += 2 * HAND_BAND;
        }
    } else {
        vx = (double)l.x0 - FRAME_L / PLANE_PX;
        vy = -(double)l.y1 - FRAME_T / PLANE_PX;
        vw = (double)(l.x1 - l.x0 + 1) + (FRAME_L + FRAME_R) / PLANE_PX;
        vh = (double)(l.y1 - l.y0 + 1) + (FRAME_T + FRAME_B) / PLANE_PX;
    }
    if (o->standalone)
        sb_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    sb_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board%s\"",
              l.bounded ? "" : " plane");
    sb_puts(out, " viewBox=\"");
    num(out, vx), sb_putc(out, ' '), num(out, vy), sb_putc(out, ' ');
    num(out, vw), sb_putc(out, ' '), num(out, vh);
    sb_putc(out, '"');
    if (o->size > 0) {
        /* The longer side gets the size. */
        double k = o->size / (vw > vh ? vw : vh);
        attr_num(out, "width", vw * k);
        attr_num(out, "height", vh * k);
    }
    if (o->label) {
        sb_puts(out, " role=\"img\"");
        attr(out, "aria-label", o->label);
    }
    sb_puts(out, ">\n");
    if (o->standalone) {
        sb_puts(out, "<style>\n");
        sb_puts(out, CSS);
        sb_puts(out, "</style>\n");
    }
    sb_puts(out, "<rect class=\"bg\"");
    attr_num(out, "x", vx);
    attr_num(out, "y", vy);
    attr_num(out, "width", vw);
    attr_num(out, "height", vh);
    sb_puts(out, "/>\n");
    cells(v, &l, out);
    sb_putc(out, '\n');
    if (l.bounded) {
        coords(&l, out);
        sb_putc(out, '\n');
    }
    marks(v, o, &l, out);
    sb_putc(out, '\n');
    sb_puts(out, "<g class=\"pieces\">");
    for (int i = 0; i < v->npieces && i < MAX_VIEW_PIECES; i++) {
        sb_putc(out, '\n');
        piece(v, o, &l, &v->pieces[i], out);
    }
    sb_puts(out, "</g>\n");
    if (with_hands) {
        hands(v, o, &l, out);
        sb_putc(out, '\n');
    }
    if (!l.bounded) {
        coords(&l, out);
        sb_putc(out, '\n');
    }
    arrows(v, o, &l, out);
    sb_puts(out, "\n</svg>\n");
    return 0;
}

/* ---- Arrows and marks as typed ------------------------------------------ */

/* The next item of a list at *s: items apart by spaces or ';', and by ','
 * on a bounded board (where no square holds one).  0 at the end. */
static size_t next_item(const Geometry *geo, const char **s, char *buf, size_t n)
{
    const char *p = *s;
    while (*p == ' ' || *p == ';' || (geo->bounded && *p == ','))
        p++;
    size_t k = 0;
    while (p[k] && p[k] != ' ' && p[k] != ';' && !(geo->bounded && p[k] == ','))
        k++;
    if (k >= n)
        k = n - 1;
    memcpy(buf, p, k);
    buf[k] = '\0';
    *s = p + k;
    while (**s && **s != ' ' && **s != ';' && !(geo->bounded && **s == ','))
        (*s)++;
    return k;
}

static const char *list_sep(const Geometry *geo)
{
    return geo->bounded ? "commas" : "';' or spaces";
}

int draw_parse_arrows(const Geometry *geo, const char *text, DrawOpts *o, Error *e)
{
    const char *s = text;
    char item[64];
    int any = 0;
    while (next_item(geo, &s, item, sizeof item)) {
        const char *p = item;
        DrawArrow w;
        Error why = {""};
        int bad = geo_parse_square(geo, &p, &w.from, &why);
        if (!bad && *p == '-')
            p++;
        else if (!bad && !geo->bounded)
            bad = err_set(&why, "write FROM-TO, as in 0,0-1,1");
        if (!bad)
            bad = geo_parse_square(geo, &p, &w.to, &why);
        if (!bad && *p)
            bad = err_set(&why, "'%s' follows the arrow's second square", p);
        if (bad)
            return err_set(e, "arrow '%s': %s (arrows are FROM%sTO squares apart by %s, "
                              "e.g. %s)", item, why.msg, geo->bounded ? "" : "-",
                           list_sep(geo), geo->bounded ? "e2e4,g1f3" : "0,0-1,1;0,0--1,2");
        if (coord_eq(w.from, w.to))
            return err_set(e, "arrow '%s': it starts and ends on the same square", item);
        if (o->narrows == DRAW_MAX_ARROWS)
            return err_set(e, "too many arrows (at most %d)", DRAW_MAX_ARROWS);
        o->arrows[o->narrows++] = w;
        any = 1;
    }
    if (!any)
        return err_set(e, "no arrow in '%s' (e.g. %s)", text,
                       geo->bounded ? "e2e4,g1f3" : "0,0-1,1");
    return 0;
}

int draw_parse_marks(const Geometry *geo, const char *text, DrawOpts *o, Error *e)
{
    const char *s = text;
    char item[64];
    int any = 0;
    while (next_item(geo, &s, item, sizeof item)) {
        const char *p = item;
        Coord c;
        Error why = {""};
        if (geo_parse_square(geo, &p, &c, &why) ||
            (*p && err_set(&why, "'%s' follows the square", p)))
            return err_set(e, "mark '%s': %s (marks are squares apart by %s, e.g. %s)", item,
                           why.msg, list_sep(geo), geo->bounded ? "e4,d5" : "0,0;1,-1");
        if (o->nmarks == DRAW_MAX_MARKS)
            return err_set(e, "too many marked squares (at most %d)", DRAW_MAX_MARKS);
        o->marks[o->nmarks++] = c;
        any = 1;
    }
    if (!any)
        return err_set(e, "no square in '%s' (e.g. %s)", text,
                       geo->bounded ? "e4,d5" : "0,0;1,-1");
    return 0;
}

int draw_parse_window(const Geometry *geo, const char *text, DrawOpts *o, Error *e)
{
    if (geo->bounded)
        return err_set(e, "window '%s': a board is drawn whole; a window is for the open "
                          "plane", text);
    const char *p = text;
    Coord lo, hi;
    if (geo_parse_square(geo, &p, &lo, NULL) || *p++ != ',' ||
        geo_parse_square(geo, &p, &hi, NULL) || *p)
        return err_set(e, "window '%s': write X0,Y0,X1,Y1, the lowest and the highest "
                          "corner square (e.g. -4,-4,4,4)", text);
    if (window_check(lo, hi, e)) {
        err_prefix(e, "window '%s'", text);
        return -1;
    }
    o->window = 1, o->lo = lo, o->hi = hi;
    return 0;
}
