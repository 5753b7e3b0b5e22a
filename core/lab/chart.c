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

/* ---- The chart ---------------------------------------------------------- */

#define SVG_W 760
#define SVG_LEFT 190
#define SVG_PLOT 450
#define SVG_BAR 14

static const char *const SET_COLOUR[EXP_MAX_SETS] = {"#4e79a7", "#f28e2b"};

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

/* One bar from 0 to v with a whisker from lo to hi (on a scale of 0..top),
 * its value written after it. */
static void svg_bar(StrBuf *out, int y, int set, double v, double lo, double hi, double top,
                    const char *value)
{
    double k = SVG_PLOT / (top > 0 ? top : 1);
    sb_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>\n",
              SVG_LEFT, y, v * k, SVG_BAR, SET_COLOUR[set]);
    if (hi > lo) {
        int m = y + SVG_BAR / 2;
        sb_printf(out, "<path d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" stroke=\"#222\" "
                       "stroke-width=\"1.5\" fill=\"none\"/>\n",
                  SVG_LEFT + lo * k, m, SVG_LEFT + hi * k, SVG_LEFT + lo * k, m - 4, m + 4,
                  SVG_LEFT + hi * k, m - 4, m + 4);
    }
    sb_printf(out, "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>\n",
              SVG_LEFT + SVG_PLOT + 8, y + 11, value);
}

static void svg_label(StrBuf *out, int y, const char *label)
{
    sb_printf(out, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"end\">",
              SVG_LEFT - 8, y);
    svg_text(out, label);
    sb_puts(out, "</text>\n");
}

/* Grid lines and tick labels for a panel from y0 to y1 on 0..top. */
static void svg_axis(StrBuf *out, int y0, int y1, double top, int percent)
{
    for (int i = 0; i <= 4; i++) {
        double x = SVG_LEFT + SVG_PLOT * i / 4.0;
        sb_printf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ccc\"/>\n",
                  x, y0, x, y1);
        if (percent)
            sb_printf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">"
                           "%d%%</text>\n", x, y1 + 12, 25 * i);
        else
            sb_printf(out, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"middle\">"
                           "%g</text>\n", x, y1 + 12, top * i / 4.0);
    }
}

/* The end of a scale above v whose quarter is a round number (1, 2, 2.5
 * or 5 times a power of ten), so the four grid steps read well. */
static double nice_top(double v)
{
    double q = v * 1.02 / 4, p = pow(10, floor(log10(q)));
    static const double steps[] = {1, 2, 2.5, 5, 10};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++)
        if (steps[i] * p >= q)
            return 4 * steps[i] * p;
    return 40 * p;
}

static void svg_heading(StrBuf *out, int y, const char *text)
{
    sb_printf(out, "<text x=\"10\" y=\"%d\" font-size=\"13\" font-weight=\"bold\">%s</text>\n",
              y, text);
}

/* The bars of one panel's rows. */
static int svg_rows(StrBuf *out, const ExpInfo *x, const ExpChart *m, ChartPanel panel, int y,
                    double top, int whiskers)
{
    for (int r = 0; r < m->nrows; r++) {
        const ChartRow *row = &m->row[r];
        if (row->panel != panel)
            continue;
        svg_label(out, y + x->nsets * (SVG_BAR + 4) / 2 + 4,
                  panel == CHART_SHARES ? row->label
                  : panel == CHART_LENGTH ? "length" : "branching");
        for (int k = 0; k < x->nsets; k++) {
            const ChartEst *e = &row->set[k];
            char v[32];
            if (panel == CHART_SHARES)
                snprintf(v, sizeof v, "%.1f%%", 100 * e->v);
            else
                snprintf(v, sizeof v, "%.1f", e->v);
            svg_bar(out, y, k, e->v, whiskers ? e->lo : 0, whiskers ? e->hi : 0, top, v);
            y += SVG_BAR + 4;
        }
        y += 8;
    }
    return y;
}

/* The largest value (or upper bound) of a panel's rows. */
static double panel_max(const ExpChart *m, int nsets, ChartPanel panel, int whiskers)
{
    double v = 1;
    for (int r = 0; r < m->nrows; r++)
        for (int k = 0; k < nsets; k++)
            if (m->row[r].panel == panel) {
                double h = whiskers ? m->row[r].set[k].hi : m->row[r].set[k].v;
                if (h > v)
                    v = h;
            }
    return v;
}

void exp_chart_svg(const ExpInfo *x, const ExpChart *m, StrBuf *out)
{
    StrBuf body = STRBUF_INIT;
    int y = 20;
    sb_printf(&body, "<text x=\"10\" y=\"%d\" font-size=\"15\" font-weight=\"bold\">", y);
    svg_text(&body, x->title);
    sb_printf(&body, ": %ld games%s, seed %llu</text>\n", x->games,
              x->nsets > 1 ? " per rule set" : "", (unsigned long long)x->seed);
    for (int k = 0; k < x->nsets; k++) {
        y += 18;
        sb_printf(&body, "<rect x=\"10\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                         "<text x=\"28\" y=\"%d\" font-size=\"12\">%s",
                  y - 10, SET_COLOUR[k], y, x->nsets > 1 ? (k ? "B: " : "A: ") : "");
        svg_text(&body, m->desc[k]);
        sb_puts(&body, "</text>\n");
    }
    y += 14;
    StrBuf pl = STRBUF_INIT;
    for (int p = 0; p < x->nseats; p++)
        sb_printf(&pl, "%s%s", p ? ", " : "players (seats rotated): ", m->player[p]);
    sb_printf(&body, "<text x=\"10\" y=\"%d\" font-size=\"11\" fill=\"#555\">", y + 4);
    svg_text(&body, sb_str(&pl));
    sb_puts(&body, "</text>\n");
    sb_free(&pl);

    y += 30;
    svg_heading(&body, y, "Share of games (whiskers: 95% intervals)");
    y += 10;
    int top = y;
    y = svg_rows(&body, x, m, CHART_SHARES, y, 1, 1);
    svg_axis(&body, top - 4, y - 4, 1, 1);

    y += 30;
    svg_heading(&body, y, "Mean game length in plies (whiskers: 95% intervals)");
    y += 10;
    double lmax = nice_top(panel_max(m, x->nsets, CHART_LENGTH, 1));
    top = y;
    y = svg_rows(&body, x, m, CHART_LENGTH, y, lmax, 1);
    svg_axis(&body, top - 4, y - 4, lmax, 0);

    y += 30;
    svg_heading(&body, y, "Branching factor (play actions per ply)");
    y += 10;
    double bmax = nice_top(panel_max(m, x->nsets, CHART_BRANCHING, 0));
    top = y;
    y = svg_rows(&body, x, m, CHART_BRANCHING, y, bmax, 0);
    svg_axis(&body, top - 4, y - 4, bmax, 0);
    y += 24;
    sb_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                   "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n"
                   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
              SVG_W, y, SVG_W, y);
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
