/*
 * stats.h -- the statistics of experiments (issue 12): intervals for
 * proportions, means, scores and Elo differences, and for the difference
 * between two rule sets.  docs/EXPERIMENTS.md, "How the figures are
 * computed", documents each method; tests/test_stats.c checks them against
 * values worked out by hand.
 *
 * Invariant: every function is pure (no state, no allocation) and total:
 * empty samples and extreme proportions give defined results (an interval
 * of [0, 1] for n = 0, infinite Elo bounds flagged by isinf), never NaN.
 */
#ifndef CHESSVAR_STATS_H
#define CHESSVAR_STATS_H

/* The normal quantile of a two-sided 95% interval. */
#define STATS_Z95 1.959963984540054

typedef struct Interval {
    double lo, hi;
} Interval;

/* Wilson score interval of the proportion k/n (0 <= k <= n) at z; [0, 1]
 * when n is 0. */
Interval stats_wilson(long k, long n, double z);

/* Newcombe's hybrid score interval (his method 10) of p2 - p1, where
 * p1 = k1/n1 and p2 = k2/n2 are independent proportions, at z. */
Interval stats_diff_proportions(long k1, long n1, long k2, long n2, double z);

/* Mean and sample standard deviation (n - 1 in the divisor; 0 when n < 2)
 * of n values accumulated as their sum and sum of squares. */
typedef struct Moments {
    long n;
    double sum, sumsq;
} Moments;
void stats_add(Moments *m, double x);
double stats_mean(const Moments *m);
double stats_sd(const Moments *m);
/* Normal interval of the mean: mean -+ z sd / sqrt(n) ([mean, mean] when
 * n < 2). */
Interval stats_mean_interval(const Moments *m, double z);
/* Normal (Welch) interval of mean(b) - mean(a) for independent samples. */
Interval stats_diff_means(const Moments *a, const Moments *b, double z);

/* A player's score from w wins, d draws and l losses: (w + d/2) / n, and
 * its normal interval from the per-game scores' variance (each game
 * scores 1, 1/2 or 0), clipped to [0, 1]; without draws the score is a
 * proportion of wins and gets Wilson's interval (which stays honest when
 * every game went one way, where the normal one shrinks to a point). */
double stats_score(long w, long d, long l);
Interval stats_score_interval(long w, long d, long l, double z);

/* The Elo difference a score s stands for under the logistic model:
 * -400 log10(1/s - 1); -inf at 0 and +inf at 1. */
double stats_elo(double s);

#endif
