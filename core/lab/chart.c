/*
 * chart.c -- the SVG chart of an experiment (core/lab/chart.h): lays out
 * the numbers of an ExpChart; computes none of its own.
 *
 * Invariant: the chart is a function of (ExpInfo, ExpChart) only, so a
 * merged run and a single run draw the same bytes.
 */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Layout ------------------------------------------------------------------ */

/* Columns, left to right: the row's label (right-aligned at LBL_R), the
 * plot of each rule set's figure (PLOT_X..+PLOT_W), its value (VAL_X),
 * and with two rule sets the difference B - A drawn on its own axis
 * (DIFF_X..+DIFF_W) and written (right-aligned at DTXT_R), then the mark
 * of a clear change (MARK_X). */
#define W_ONE 760
#define W_TWO 980
#define LBL_R 192
#define PLOT_X 200
#define PLOT_W 300
#define VAL_X 508
#define DIFF_X 596
#define DIFF_W 180
#define DTXT_X 790
#define DTXT_R 950
#define MARK_X 956
#define BAR 14
#define STEP (BAR + 4)
#define SHOW_ENDS 8
#define ENDS_N 400 /* the table of endings: the games of each set */

static const char *const SET_COLOUR[EXP_MAX_SETS] = {"#4e79a7", "#f28e2b"};
/* The ways games ended, in the order of the table. */
static const char *const END_COLOUR[SHOW_ENDS + 1] = {
    "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1",
    "#ff9da7", "#9c755f", "#d4a6c8", "#bab0ac"};

typedef struct Chart {
    StrBuf *out;
    const ExpInfo *x;
    const ExpChart *m;
    int two; /* two rule sets: the difference columns */
    int w;
} Chart;

/* Character data of the chart: escaped for XML, and kept well-formed
 * whatever s holds (XML 1.0 allows no C0 control but tab and line ends,
 * and no byte that is not UTF-8): those are written as escapes (\xHH).
 * The texts are checked where they enter; this is the last guard. */
static void svg_text(StrBuf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        char esc[16], why[80];
        if (!k || text_check(s + i, k, 0, why, sizeof why)) {
            char one[5] = {0};
            memcpy(one, s + i, k ? k : 1);
            sb_puts(out, str_safe(esc, sizeof esc, one));
            i += k ? k : 1;
            continue;
        }
        switch (p[i]) {
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '&': sb_puts(out, "&amp;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        default: sb_putn(out, s + i, k);
        }
        i += k;
    }
}

/* The width of one character at font size fs, as the tests estimate it:
 * 0.6 em (0.66 bold), a full em for the wide scripts from U+0800 (the
 * characters of three bytes and more). */
static double char_width(size_t bytes, double fs, int bold)
{
    return fs * (bytes >= 3 ? 1.0 : bold ? 0.66 : 0.6);
}

static double text_width(const char *s, double fs, int bold)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    double w = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        k = k ? k : 1;
        w += char_width(k, fs, bold);
        i += k;
    }
    return w;
}

/* One line of text at (x, y), cut to maxw with an ellipsis when it is
 * longer (the whole text then in a title: a tooltip, and what a screen
 * reader says).  attrs: more attributes, "" for none. */
static void text_line(StrBuf *out, double x, int y, int fs, const char *anchor, int bold,
                      const char *attrs, double maxw, const char *s)
{
    size_t n = strlen(s), cut = n;
    if (text_width(s, fs, bold) > maxw) {
        const unsigned char *p = (const unsigned char *)s;
        double room = maxw - char_width(3, fs, bold), w = 0;
        cut = 0;
        while (cut < n) {
            size_t k = utf8_seq_len(p + cut, n - cut);
            k = k ? k : 1;
            if (w + char_width(k, fs, bold) > room)
                break;
            w += char_width(k, fs, bold);
            cut += k;
        }
        sb_puts(out, "<g><title>");
        svg_text(out, s);
        sb_puts(out, "</title>");
    }
    sb_printf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"%d\"%s%s%s%s%s>", x, y, fs,
              anchor ? " text-anchor=\"" : "", anchor ? anchor : "", anchor ? "\"" : "",
              bold ? " font-weight=\"bold\"" : "", attrs);
    if (cut < n) {
        char *head = malloc(cut + 1);
        if (head) {
            memcpy(head, s, cut);
            head[cut] = '\0';
            svg_text(out, head);
            free(head);
        } else {
            out->failed = 1;
        }
        sb_puts(out, "\u2026</text></g>\n");
    } else {
        svg_text(out, s);
        sb_puts(out, "</text>\n");
    }
}

/* The end of a scale above v whose quarter is a round number (1, 2, 2.5
 * or 5 times a power of ten), so the four grid steps read well. */
static double nice_top(double v)
{
    if (!(v > 0) || isinf(v))
        v = 1;
    double q = v * 1.02 / 4, p = pow(10, floor(log10(q)));
    static const double steps[] = {1, 2, 2.5, 5, 10};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] * p >= q)
            return 4 * steps[i] * p;
    return 40 * p;
}

static int percent_panel(ChartPanel p)
{
    return p == CHART_SHARES || p == CHART_PLAYERS;
}

/* A figure of a panel as text: "15.0%", "78.8". */
static void value_text(char *buf, size_t n, ChartPanel p, double v)
{
    snprintf(buf, n, percent_panel(p) ? "%.1f%%" : "%.1f", percent_panel(p) ? 100 * v : v);
}

/* A tick label: "25%", "+40", "0"; signed for a difference axis. */
static void tick_text(char *buf, size_t n, double v, int percent, int sign)
{
    if (fabs(v) < 1e-9)
        v = 0;
    snprintf(buf, n, sign && v != 0 ? "%+g%s" : "%g%s", v, percent ? "%" : "");
}

/* Elo as the report writes it: "+inf" for no bound, a rounded 0 as "0"
 * (never "-0" or "+0": issue 23). */
static void elo_text(char *buf, size_t n, double elo)
{
    if (isinf(elo))
        snprintf(buf, n, "%s", elo > 0 ? "+inf" : "-inf");
    else if (fabs(elo) < 0.5)
        snprintf(buf, n, "0");
    else
        snprintf(buf, n, "%+.0f", elo);
}

/* ---- Pieces ------------------------------------------------------------------ */

static void heading(const Chart *c, int y, const char *text, const char *diff_head)
{
    double room = (c->two && diff_head ? DIFF_X - 20 : c->w - 20);
    text_line(c->out, 10, y, 13, NULL, 1, "", room, text);
    if (c->two && diff_head)
        text_line(c->out, DIFF_X, y, 11, NULL, 0, " fill=\"#555\"", c->w - DIFF_X - 10,
                  diff_head);
}

/* Vertical grid lines and tick labels from x0 over width w, values lo..hi
 * in `ticks` steps. */
static void axis(const Chart *c, double x0, double w, int y0, int y1, double lo, double hi,
                 int ticks, int percent, int sign)
{
    for (int i = 0; i <= ticks; i++) {
        double x = x0 + w * i / ticks, v = lo + (hi - lo) * i / ticks;
        char t[32];
        tick_text(t, sizeof t, v, percent, sign);
        int zero = sign && fabs(v) < 1e-9;
        sb_printf(c->out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"%s/>\n",
                  x, y0, x, y1, zero ? "#444" : "#ccc",
                  zero ? " stroke-dasharray=\"3 2\"" : "");
        sb_printf(c->out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">"
                          "%s</text>\n", x, y1 + 12, t);
    }
}

/* A whisker from lo to hi at height y on the scale x = x0 + v * k,
 * clipped to x0..x0+w: a side with no bound (or beyond the axis) ends in
 * an arrow at the edge instead of a cap. */
static void whisker(StrBuf *out, double x0, double w, double zero, double k, int y, double lo,
                    double hi, const char *stroke, double width)
{
    double a = zero + lo * k, b = zero + hi * k;
    int open_lo = isinf(lo) || a < x0, open_hi = isinf(hi) || b > x0 + w;
    if (open_lo)
        a = x0;
    if (open_hi)
        b = x0 + w;
    sb_printf(out, "<path d=\"M%.1f %dH%.1f", a, y, b);
    if (!open_lo)
        sb_printf(out, "M%.1f %dV%d", a, y - 4, y + 4);
    if (!open_hi)
        sb_printf(out, "M%.1f %dV%d", b, y - 4, y + 4);
    sb_printf(out, "\" stroke=\"%s\" stroke-width=\"%.1f\" fill=\"none\"/>\n", stroke, width);
    if (open_lo)
        sb_printf(out, "<path class=\"open\" d=\"M%.1f %dL%.1f %dL%.1f %dZ\" fill=\"%s\"/>\n",
                  a - 2, y, a + 6, y - 5, a + 6, y + 5, stroke);
    if (open_hi)
        sb_printf(out, "<path class=\"open\" d=\"M%.1f %dL%.1f %dL%.1f %dZ\" fill=\"%s\"/>\n",
                  b + 2, y, b - 6, y - 5, b - 6, y + 5, stroke);
}

/* The largest figure (or bound) of a panel's rows, or of their
 * differences. */
static double panel_max(const Chart *c, ChartPanel panel, int diff)
{
    double v = 0;
    for (int r = 0; r < c->m->nrows; r++) {
        const ChartRow *row = &c->m->row[r];
        if (row->panel != panel)
            continue;
        for (int k = 0; k < (diff ? 1 : c->x->nsets); k++) {
            const ChartEst *e = diff ? &row->diff : &row->set[k];
            if (diff && !row->has_diff)
                continue;
            double h = fmax(fabs(e->v), e->ci ? fmax(fabs(e->lo), fabs(e->hi)) : 0);
            if (!isinf(h) && h > v)
                v = h;
        }
    }
    return v;
}

/* A row: its bars (one per rule set, with whiskers), their values, and
 * with two sets the difference on the diff axis (-dtop..dtop), its text and
 * the mark of a clear change.  The next row's y. */
static int row_draw(const Chart *c, const ChartRow *row, int y, double top, double dtop)
{
    StrBuf *out = c->out;
    int ns = c->x->nsets, pct = percent_panel(row->panel);
    double k = PLOT_W / (top > 0 ? top : 1);
    int mid = y + ns * STEP / 2 - 2;
    char d[96] = "";
    if (c->two && row->has_diff) {
        double u = pct ? 100 : 1;
        if (row->diff.ci)
            snprintf(d, sizeof d, "%+.1f (%+.1f .. %+.1f)", u * row->diff.v, u * row->diff.lo,
                     u * row->diff.hi);
        else
            snprintf(d, sizeof d, "%+.1f", u * row->diff.v);
    }
    sb_printf(out, "<g class=\"row%s\"><title>", row->clear ? " clear" : "");
    svg_text(out, row->label);
    for (int s = 0; s < ns; s++) {
        char v[32];
        value_text(v, sizeof v, row->panel, row->set[s].v);
        sb_printf(out, "%s%s %s", s ? "; " : ": ", ns > 1 ? c->x->set[s].label : "", v);
        if (row->set[s].ci) {
            char lo[32], hi[32];
            value_text(lo, sizeof lo, row->panel, row->set[s].lo);
            value_text(hi, sizeof hi, row->panel, row->set[s].hi);
            sb_printf(out, " (%s - %s)", lo, hi);
        }
    }
    if (d[0])
        sb_printf(out, "; B - A %s%s", d, row->clear ? ", a clear change" : "");
    sb_puts(out, "</title>\n");
    text_line(out, LBL_R, mid + 4, 12, "end", 0, "", LBL_R - 10, row->label);
    for (int s = 0; s < ns; s++) {
        const ChartEst *e = &row->set[s];
        int by = y + s * STEP;
        sb_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
                  PLOT_X, by, fmin(e->v * k, PLOT_W), BAR, SET_COLOUR[s]);
        if (e->ci && e->hi > e->lo)
            whisker(out, PLOT_X, PLOT_W, PLOT_X, k, by + BAR / 2, e->lo, e->hi, "#222", 1.5);
        char v[96];
        value_text(v, sizeof v, row->panel, e->v);
        if (!c->two && e->ci) { /* room for the interval too */
            char lo[32], hi[32];
            value_text(lo, sizeof lo, row->panel, e->lo);
            value_text(hi, sizeof hi, row->panel, e->hi);
            size_t l = strlen(v);
            snprintf(v + l, sizeof v - l, " (%s - %s)", lo, hi);
        }
        text_line(out, VAL_X, by + 11, 11, NULL, 0, "", (c->two ? DIFF_X - 8 : c->w - 10) - VAL_X,
                  v);
    }
    if (d[0]) {
        double dk = (DIFF_W / 2) / (dtop > 0 ? dtop : 1), zero = DIFF_X + DIFF_W / 2.0;
        double u = pct ? 100 : 1;
        const char *ink = row->clear ? "#000" : "#888";
        if (row->diff.ci)
            whisker(out, DIFF_X, DIFF_W, zero, dk, mid, u * row->diff.lo, u * row->diff.hi, ink,
                    row->clear ? 2.5 : 1.5);
        sb_printf(out, "<circle cx=\"%.1f\" cy=\"%d\" r=\"%d\" fill=\"%s\"/>\n",
                  zero + u * row->diff.v * dk, mid, row->clear ? 4 : 3, ink);
        text_line(out, DTXT_R, mid + 4, 11, "end", row->clear, " class=\"diff\"",
                  DTXT_R - DTXT_X, d);
        if (row->clear)
            sb_printf(out, "<text class=\"mark\" x=\"%d\" y=\"%d\" font-size=\"13\" "
                           "font-weight=\"bold\">*</text>\n", MARK_X, mid + 6);
    }
    sb_puts(out, "</g>\n");
    return y + ns * STEP + 8;
}

/* A panel of rows: heading, rows, the axes below them.  The next y. */
static int panel(const Chart *c, int y, ChartPanel p, const char *title, const char *diff_head)
{
    int any = 0;
    for (int r = 0; r < c->m->nrows; r++)
        any |= c->m->row[r].panel == p;
    if (!any)
        return y;
    int pct = percent_panel(p);
    y += 30;
    heading(c, y, title, diff_head);
    y += 10;
    double top = pct ? 1 : nice_top(panel_max(c, p, 0));
    double dtop = nice_top(panel_max(c, p, 1) * (pct ? 100 : 1));
    int y0 = y, dy0 = -1;
    for (int r = 0; r < c->m->nrows; r++)
        if (c->m->row[r].panel == p) {
            if (dy0 < 0 && c->m->row[r].has_diff)
                dy0 = y;
            y = row_draw(c, &c->m->row[r], y, top, dtop);
        }
    if (p == CHART_PLAYERS && c->m->has_elo) /* a score of 50%: even */
        sb_printf(c->out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\" "
                          "stroke-dasharray=\"3 2\"/>\n",
                  PLOT_X + PLOT_W / 2.0, y0 - 4, PLOT_X + PLOT_W / 2.0, y - 4);
    axis(c, PLOT_X, PLOT_W, y0 - 4, y - 4, 0, pct ? 100 : top, 4, pct, 0);
    if (c->two && dy0 >= 0)
        axis(c, DIFF_X, DIFF_W, dy0 - 4, y - 4, -dtop, dtop, 2, 0, 1);
    return y + 12;
}

/* P1's Elo against P2 in each rule set: a point and its interval on a
 * symmetric axis, an arrow where the interval has no bound, and the
 * figures as the report writes them. */
static int elo_panel(const Chart *c, int y)
{
    const ExpChart *m = c->m;
    StrBuf *out = c->out;
    char t[160];
    snprintf(t, sizeof t, "Elo of %s against %s (whiskers: 95%% intervals)", m->player[0],
             m->player[1]);
    y += 30;
    heading(c, y, t, NULL);
    y += 10;
    double e = 0;
    for (int k = 0; k < c->x->nsets; k++) {
        const ChartEst *r = &m->elo[k];
        double v[3] = {r->v, r->lo, r->hi};
        for (int i = 0; i < 3; i++)
            if (!isinf(v[i]) && fabs(v[i]) > e)
                e = fabs(v[i]);
    }
    double top = nice_top(e < 100 ? 100 : e), k = (PLOT_W / 2) / top, zero = PLOT_X + PLOT_W / 2.0;
    int y0 = y;
    for (int s = 0; s < c->x->nsets; s++) {
        const ChartEst *r = &m->elo[s];
        char v[32], lo[32], hi[32], line[160];
        elo_text(v, sizeof v, r->v);
        elo_text(lo, sizeof lo, r->lo);
        elo_text(hi, sizeof hi, r->hi);
        snprintf(line, sizeof line, "%s (%s .. %s)", v, lo, hi);
        int mid = y + BAR / 2;
        sb_puts(out, "<g class=\"elo\"><title>");
        sb_printf(out, "%s%sElo %s, from +%ld =%ld -%ld", c->two ? c->x->set[s].label : "",
                  c->two ? ": " : "", line, m->w[s], m->d[s], m->l[s]);
        sb_puts(out, "</title>\n");
        text_line(out, LBL_R, mid + 4, 12, "end", 0, "", LBL_R - 10,
                  c->two ? c->x->set[s].label : "Elo");
        whisker(out, PLOT_X, PLOT_W, zero, k, mid, r->lo, r->hi, SET_COLOUR[s], 2.5);
        if (!isinf(r->v))
            sb_printf(out, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\" stroke=\"#222\"/>\n",
                      zero + r->v * k, mid, SET_COLOUR[s]);
        text_line(out, VAL_X, mid + 4, 11, NULL, 0, " class=\"elo-text\"",
                  (c->two ? DIFF_X + DIFF_W : c->w - 10) - VAL_X, line);
        char wdl[96];
        snprintf(wdl, sizeof wdl, "+%ld =%ld -%ld", m->w[s], m->d[s], m->l[s]);
        if (c->two)
            text_line(out, DTXT_R, mid + 4, 11, "end", 0, " fill=\"#555\"", DTXT_R - DTXT_X,
                      wdl);
        sb_puts(out, "</g>\n");
        y += STEP + 4;
    }
    axis(c, PLOT_X, PLOT_W, y0 - 4, y - 4, -top, top, 4, 0, 1);
    y += 12;
    int any_open = 0;
    for (int s = 0; s < c->x->nsets; s++)
        any_open |= isinf(m->elo[s].lo) || isinf(m->elo[s].hi);
    if (any_open) {
        y += 16;
        text_line(out, PLOT_X, y, 11, NULL, 0, " fill=\"#555\"", c->w - PLOT_X - 10,
                  "An arrow: the interval has no bound on that side (every game won or lost).");
    }
    return y;
}

/* How the games ended: each rule set's games as one stacked bar, and a
 * table of the reasons with their games (the bar's colours beside them). */
static int ends_panel(const Chart *c, int y)
{
    const ExpChart *m = c->m;
    StrBuf *out = c->out;
    int ns = c->x->nsets, shown = m->nends <= SHOW_ENDS + 1 ? m->nends : SHOW_ENDS;
    y += 30;
    heading(c, y, "How the games ended", NULL);
    y += 10;
    for (int s = 0; s < ns; s++) {
        double x = PLOT_X, g = m->games[s] > 0 ? (double)m->games[s] : 1;
        sb_puts(out, "<g class=\"ends-bar\">");
        text_line(out, LBL_R, y + 11, 12, "end", 0, "", LBL_R - 10,
                  ns > 1 ? c->x->set[s].label : "all games");
        for (int e = 0; e < m->nends; e++) {
            int i = e < shown ? e : SHOW_ENDS;
            long n = m->end_n[e][s];
            if (!n)
                continue;
            double w = PLOT_W * (double)n / g;
            sb_printf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
                           "stroke=\"white\" stroke-width=\"0.5\"><title>",
                      x, y, w, BAR, END_COLOUR[i]);
            svg_text(out, m->end[e]);
            sb_printf(out, ": %ld games</title></rect>\n", n);
            x += w;
        }
        char v[32];
        snprintf(v, sizeof v, "%ld games", m->games[s]);
        text_line(out, VAL_X, y + 11, 11, NULL, 0, "", 120, v);
        sb_puts(out, "</g>\n");
        y += STEP;
    }
    y += 8;
    if (ns > 1)
        for (int s = 0; s < ns; s++)
            text_line(out, ENDS_N + 110 * s, y + 8, 11, NULL, 1, "", 100, c->x->set[s].label);
    y += ns > 1 ? 8 : 0;
    int rows = shown < m->nends ? shown + 1 : shown;
    for (int e = 0; e < rows; e++) {
        char label[EXP_REASON + 32];
        long n[EXP_MAX_SETS] = {0};
        if (e < shown) {
            str_copy(label, sizeof label, m->end[e]);
            for (int s = 0; s < ns; s++)
                n[s] = m->end_n[e][s];
        } else {
            snprintf(label, sizeof label, "%d other ways", m->nends - shown);
            for (int r = shown; r < m->nends; r++)
                for (int s = 0; s < ns; s++)
                    n[s] += m->end_n[r][s];
        }
        y += 16;
        sb_puts(out, "<g class=\"end\"><title>");
        svg_text(out, label);
        sb_puts(out, "</title>");
        sb_printf(out, "<rect x=\"10\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
                  y - 9, END_COLOUR[e < shown ? e : SHOW_ENDS]);
        text_line(out, 26, y, 12, NULL, 0, "", ENDS_N - 26 - 14, label);
        for (int s = 0; s < ns; s++) {
            char v[48];
            snprintf(v, sizeof v, "%ld (%.1f%%)", n[s],
                     m->games[s] ? 100.0 * (double)n[s] / (double)m->games[s] : 0);
            text_line(out, ENDS_N + 110 * s, y, 11, NULL, 0, " class=\"count\"", 100, v);
        }
        sb_puts(out, "</g>\n");
    }
    return y + 4;
}

/* ---- The chart --------------------------------------------------------------- */

/* In words, for those who do not see the chart: each clear change, then
 * what did not change clearly. */
static void chart_desc(const Chart *c, StrBuf *out)
{
    const ExpChart *m = c->m;
    for (int k = 0; k < c->x->nsets; k++) {
        sb_printf(out, "%s", c->two ? (k ? " B: " : "A: ") : "Rules: ");
        svg_text(out, m->desc[k]);
        sb_putc(out, '.');
    }
    if (!c->two)
        return;
    int clear = 0, other = 0;
    for (int r = 0; r < m->nrows; r++)
        if (m->row[r].clear) {
            sb_puts(out, clear++ ? ", " : " Clear changes from A to B: ");
            svg_text(out, m->row[r].label);
            ChartPanel p = m->row[r].panel;
            sb_printf(out, " %+.1f%s", (percent_panel(p) ? 100 : 1) * m->row[r].diff.v,
                      percent_panel(p) ? " points" : "");
        }
    sb_puts(out, clear ? "." : " No clear change from A to B.");
    for (int r = 0; r < m->nrows; r++)
        if (m->row[r].has_diff && !m->row[r].clear) {
            sb_puts(out, other++ ? ", " : " Not clear: ");
            svg_text(out, m->row[r].label);
        }
    if (other)
        sb_putc(out, '.');
}

void exp_chart_svg(const ExpInfo *x, const ExpChart *m, StrBuf *out)
{
    StrBuf body = STRBUF_INIT;
    Chart c = {&body, x, m, x->nsets == 2, x->nsets == 2 ? W_TWO : W_ONE};
    char t[EXP_NAME * 2 + 80];
    snprintf(t, sizeof t, "%s: %ld games%s, seed %llu", x->title, x->games,
             c.two ? " per rule set" : "", (unsigned long long)x->seed);
    int y = 20;
    text_line(&body, 10, y, 15, NULL, 1, "", c.w - 20, t);
    for (int k = 0; k < x->nsets; k++) {
        char d[CHART_DESC + 8];
        snprintf(d, sizeof d, "%s%s", c.two ? (k ? "B: " : "A: ") : "Rules: ", m->desc[k]);
        y += 18;
        sb_printf(&body, "<rect x=\"10\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
                  y - 10, SET_COLOUR[k]);
        text_line(&body, 28, y, 12, NULL, 0, "", c.w - 38, d);
    }
    y += 18;
    StrBuf pl = STRBUF_INIT;
    for (int p = 0; p < x->nseats; p++)
        sb_printf(&pl, "%s%s", p ? ", " : "players (seats rotated): ", m->player[p]);
    text_line(&body, 10, y, 11, NULL, 0, " fill=\"#555\"", c.w - 20, sb_str(&pl));
    sb_free(&pl);

    y = panel(&c, y, CHART_SHARES, "Share of games (whiskers: 95% intervals)",
              "B - A in points (95% interval)");
    char ph[160];
    if (m->has_elo)
        snprintf(ph, sizeof ph, "Score of %s against %s (whiskers: 95%% intervals)",
                 m->player[0], m->player[1]);
    else
        snprintf(ph, sizeof ph, "Wins of each player, seats rotated (whiskers: 95%% intervals)");
    y = panel(&c, y, CHART_PLAYERS, ph, "B - A in points");
    if (m->has_elo)
        y = elo_panel(&c, y);
    y = panel(&c, y, CHART_LENGTH, "Mean game length in plies (whiskers: 95% intervals)",
              "B - A in plies (95% interval)");
    y = panel(&c, y, CHART_BRANCHING, "Branching factor (play actions per ply)", "B - A");
    y = ends_panel(&c, y);

    y += 24;
    text_line(&body, 10, y, 11, NULL, 0, " fill=\"#555\"", c.w - 20,
              c.two ? "Whiskers: 95% intervals. A bar's colour is its rule set (A above B); "
                      "every figure is also written beside it."
                    : "Whiskers: 95% intervals; every figure is also written beside its bar.");
    if (c.two) {
        char l[260];
        snprintf(l, sizeof l, "* and bold: a clear change (%s). The dot on the B - A axis is "
                              "the difference.", m->clear_means);
        y += 16;
        text_line(&body, 10, y, 11, NULL, 0, " class=\"legend\"", c.w - 20, l);
    }
    y += 14;

    sb_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" role=\"img\">\n<title>",
              c.w, y, c.w, y);
    svg_text(out, t);
    sb_puts(out, "</title>\n<desc>");
    chart_desc(&c, out);
    sb_puts(out, "</desc>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    sb_putn(out, body.s ? body.s : "", body.len);
    sb_puts(out, "</svg>\n");
    sb_free(&body);
}

void exp_svg(const ExpInfo *x, const ExpGame *games, long n, StrBuf *out)
{
    ExpChart *m = malloc(sizeof *m);
    if (!m) {
        out->failed = 1; /* as an append that found no memory */
        return;
    }
    exp_chart_model(x, games, n, m);
    exp_chart_svg(x, m, out);
    free(m);
}
