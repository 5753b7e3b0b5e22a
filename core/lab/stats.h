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
 * p1 = k1/n1 and p2 = k2/n2 are independent proportions, at z.  (The
 * report compared A and B so before issue 23; tests/bench_calibration.c
 * still measures it beside the paired interval.) */
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
 * (before issue 23's stats_score_profile; bench_calibration compares the
 * two) its normal interval from the per-game scores' variance (each game
 * scores 1, 1/2 or 0), clipped to [0, 1]; without draws the score is a
 * proportion of wins and gets Wilson's interval (which stays honest when
 * every game went one way, where the normal one shrinks to a point). */
double stats_score(long w, long d, long l);
Interval stats_score_interval(long w, long d, long l, double z);

/* The Elo difference a score s stands for under the logistic model:
 * -400 log10(1/s - 1); -inf at 0 and +inf at 1. */
double stats_elo(double s);

/* ---- Issue 23: paired comparisons, strata, profile likelihood, Holm ---- */

/* The standard normal distribution function. */
double stats_normal_cdf(double x);
/* Student's t distribution with df > 0 degrees of freedom: its
 * distribution function and its q-quantile (0 < q < 1). */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double q, double df);

/* Tango's (1998) asymptotic score interval of pB - pA for n paired
 * yes/no outcomes, a_only of them yes under A alone and b_only yes under
 * B alone (the pairs that agree do not move the difference but are in n):
 * the values of delta whose score statistic, with the discordant cells'
 * probabilities at their maximum likelihood given delta, stays within z. */
Interval stats_paired_diff(long a_only, long b_only, long n, double z);
/* Its two-sided p-value of no change (delta = 0), which is McNemar's
 * (b_only - a_only) / sqrt(a_only + b_only); 1 when no pair disagrees. */
double stats_paired_p(long a_only, long b_only);

/* The paired t interval at `level` (0.95) of the mean of per-pair
 * differences accumulated in d, and its two-sided p-value of a mean of 0
 * (1 when there is no spread: every difference 0; 0 when they are all
 * the same non-zero value).  Fewer than 2 pairs: the point and p = 1. */
Interval stats_t_interval(const Moments *d, double level);
double stats_t_p(const Moments *d);

/* Differences summed over clusters of unequal size (the games of a round):
 * the ratio estimate sum(d) / sum(m) and its cluster variance. */
typedef struct Clusters {
    long r;                 /* clusters */
    double d, m, dd, dm, mm; /* sums of d_r, m_r, d_r^2, d_r m_r, m_r^2 */
} Clusters;
void stats_cluster_add(Clusters *c, double d, double m);
double stats_cluster_mean(const Clusters *c);
/* t interval with r - 1 degrees of freedom of the ratio, with the
 * variance r/(r-1) sum (d_r - mean m_r)^2 / sum(m)^2; and its p-value. */
Interval stats_cluster_interval(const Clusters *c, double level);
double stats_cluster_p(const Clusters *c);

/* A share from a stratified sample (k[h] of n[h] in stratum h, each
 * weighted n[h] / sum n): the interval of sum w_h p_h whose half-widths
 * are each stratum's Wilson half-widths combined as the stratified
 * variance combines variances (MOVER: Zou and Donner 2008), so it is
 * Wilson's for one stratum, stays in [0, 1], and keeps a width when a
 * stratum went all one way. */
Interval stats_stratified(const long *k, const long *n, int strata, double z);

/* The profile-likelihood interval of the mean score (w + d/2) / n of a
 * win/draw/loss trinomial: the means mu whose best likelihood with that
 * mean is within z^2 / 2 of the best overall.  Monotone in the counts; an
 * end is 0 or 1 only when every game was lost or won. */
Interval stats_score_profile(long w, long d, long l, double z);

/* Holm's (1979) step-down adjusted p-values of m <= STATS_HOLM_MAX tests:
 * adj[i] <= alpha exactly when Holm's procedure at alpha rejects
 * hypothesis i (larger m: only the first STATS_HOLM_MAX are adjusted). */
#define STATS_HOLM_MAX 64
void stats_holm(const double *p, int m, double *adj);

#endif
