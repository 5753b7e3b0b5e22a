/*
 * chart.h -- the chart of an experiment (issue 23 point 5): the numbers it
 * draws, as one model (ExpChart), and the drawing (core/lab/chart.c).
 *
 * exp_chart_model (in experiment.c, beside the text report) is the one
 * place the chart's numbers are computed: the same figures, intervals and
 * verdicts as the report, so what the chart marks as a clear change is
 * what the report stars.  exp_chart_svg only lays them out; exp_svg
 * (experiment.h) is the two together, what `--svg` writes and the page
 * shows.
 *
 * Invariant: every number in an ExpChart is a share in 0..1, a number of
 * plies or play actions, or an Elo difference (which may be +-inf: an
 * interval with no bound on that side); lo <= v <= hi where ci is set.
 */
#ifndef CHESSVAR_CHART_H
#define CHESSVAR_CHART_H

#include "experiment.h"

#define CHART_ROWS (2 * MAX_SEATS + 8)
#define CHART_ENDS (2 * 24)
#define CHART_DESC 2688

/* The panel a row is drawn in, which gives its scale and unit. */
typedef enum ChartPanel {
    CHART_SHARES,    /* shares of games, 0..1 */
    CHART_PLAYERS,   /* a player's score or share of wins, 0..1 */
    CHART_LENGTH,    /* mean game length in plies */
    CHART_BRANCHING, /* play actions per ply */
} ChartPanel;

/* A figure and its interval (ci: 0 when it has none). */
typedef struct ChartEst {
    double v, lo, hi;
    int ci;
} ChartEst;

typedef struct ChartRow {
    char label[EXP_NAME + 32]; /* "white wins", "P1 greedy's score" */
    ChartPanel panel;
    ChartEst set[EXP_MAX_SETS]; /* the figure in A (and B) */
    int has_diff;               /* two sets, and the report compares them */
    ChartEst diff;              /* B - A */
    int clear;                  /* the report calls the difference clear (its '*') */
} ChartRow;

typedef struct ExpChart {
    char desc[EXP_MAX_SETS][CHART_DESC]; /* each rule set in words */
    char player[MAX_SEATS][32];          /* "P1 greedy" */
    int nrows;
    ChartRow row[CHART_ROWS];
    /* Two seats: P1's score (w, d, l) and its Elo difference against P2
     * per rule set. */
    int has_elo;
    long w[EXP_MAX_SETS], d[EXP_MAX_SETS], l[EXP_MAX_SETS];
    ChartEst elo[EXP_MAX_SETS];
    /* How the games ended: each reason (most games first) and its games
     * per rule set; games[k] is the games of set k, the sum of its column. */
    long games[EXP_MAX_SETS];
    int nends;
    char end[CHART_ENDS][EXP_REASON];
    long end_n[CHART_ENDS][EXP_MAX_SETS];
    /* What a clear difference is, for the legend. */
    char clear_means[160];
} ExpChart;

/* The model of games[0..n-1] (all of x's games, sorted as the report's). */
void exp_chart_model(const ExpInfo *x, const ExpGame *games, long n, ExpChart *m);
/* The chart of m as a standalone SVG document. */
void exp_chart_svg(const ExpInfo *x, const ExpChart *m, StrBuf *out);

#endif
