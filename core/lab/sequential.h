/*
 * sequential.h -- stopping an experiment when its answer is clear (issue
 * 23 point 2): a group-sequential test of "B - A is 0" on per-round paired
 * differences, with Lan and DeMets' alpha spending over looks every few
 * rounds up to a most, the boundaries found by the recursive numerical
 * integration of Armitage, McPherson and Rowe (1969; Jennison and Turnbull
 * 2000, chapter 19).  docs/EXPERIMENTS.md, "Stopping when the answer is
 * clear", explains the method and its choices; tests/test_sequential.c
 * checks it against published boundaries.
 *
 * The statistic: round r gives one difference d_r (B's value of the metric
 * in the round's games minus A's, the same seeds); after n rounds
 * Z = sum d_r / sqrt(sum d_r^2).  Under "no change" (E d = 0) sum d_r^2
 * estimates the variance of the sum whatever the metric, and for a share
 * whose rounds are one game it is McNemar's statistic (b - c)/sqrt(b + c).
 * |Z| <= sqrt(the rounds with d != 0): a few lucky rounds cannot cross a
 * boundary, and Z is 0, not a division by 0, while every d is 0.
 *
 * Invariant: pure functions (no state, no allocation but the scratch of
 * seq_boundaries and seq_crossing, freed before they return); the design
 * depends only on (rounds_max, looks, spending, alpha), so the decision
 * depends only on the games played, never on how they were played.
 */
#ifndef CHESSVAR_SEQUENTIAL_H
#define CHESSVAR_SEQUENTIAL_H

#include "stats.h"

#define SEQ_MAX_LOOKS 100
#define SEQ_ALPHA 0.05 /* two-sided, as the report's 95% intervals */

/* How the error rate alpha is spent over the information fraction t
 * (Lan and DeMets 1983): SEQ_POCOCK alpha ln(1 + (e - 1) t), nearly the
 * same boundary at every look (stops early on a clear change, asks more at
 * the end); SEQ_OBF 2 - 2 Phi(z_{1-alpha/2} / sqrt t), O'Brien-Fleming's
 * shape (hardly any stop early, almost the fixed test's boundary at the
 * end). */
typedef enum SeqSpend { SEQ_POCOCK, SEQ_OBF } SeqSpend;

/* The standard normal distribution and its quantile (0 < p < 1). */
double seq_phi(double x);
double seq_quantile(double p);

/* The error rate spent by information fraction t (0 <= t <= 1). */
double seq_spent(SeqSpend f, double alpha, double t);

/* Two-sided boundaries |Z| >= b[i] for looks at information fractions
 * t[0] < ... < t[k-1] (0 < t <= 1, k <= SEQ_MAX_LOOKS), spending
 * seq_spent(f, alpha, t[i]) by look i: 0, or -1 (bad looks, no memory). */
int seq_boundaries(SeqSpend f, double alpha, const double *t, int k, double *b);

/* The probability that Z crosses +-b at each look (into cross[i]; NULL:
 * not wanted) and in all when Z_i ~ N(drift sqrt(t_i), 1) with independent
 * increments (drift 0: no change).  -1 when out of memory. */
double seq_crossing(const double *t, const double *b, int k, double drift, double *cross);

/* The constant c of the classical designs with k equally spaced looks:
 * Pocock's (shape 0: b_i = c) and O'Brien and Fleming's (shape 1:
 * b_i = c sqrt(k / i)), tabled by Jennison and Turnbull (their tables 2.1
 * and 2.3). */
double seq_classical(int shape, int k, double alpha);

/* A design: looks every `every` rounds (the last one at rounds_max), at
 * most SEQ_MAX_LOOKS of them, with their boundaries. */
typedef struct SeqDesign {
    SeqSpend spend;
    double alpha;
    long rounds_max, every;
    int nlooks;
    long rounds[SEQ_MAX_LOOKS]; /* rounds played at each look */
    double t[SEQ_MAX_LOOKS];    /* rounds / rounds_max */
    double b[SEQ_MAX_LOOKS];
} SeqDesign;

/* The design for at most rounds_max rounds (>= 1) with looks as often as
 * SEQ_MAX_LOOKS allows but no more often than every `min_every` rounds.
 * 0, or -1 when out of memory. */
int seq_design(SeqDesign *d, long rounds_max, long min_every, SeqSpend f, double alpha);

/* Z of the differences m holds (stats_add'ed one per round). */
double seq_z(const Moments *m);

enum { SEQ_GO_ON, SEQ_UP, SEQ_DOWN, SEQ_UNCLEAR };
/* At look i of d with the differences of its rounds in m: SEQ_UP (B's
 * value is clearly higher) or SEQ_DOWN when Z crosses the boundary,
 * SEQ_UNCLEAR at the last look otherwise, else SEQ_GO_ON. */
int seq_decide(const SeqDesign *d, int look, const Moments *m);

/* Rounds a fixed-size paired test (two-sided alpha) needs for `power`
 * against a mean difference delta whose rounds have standard deviation
 * sd: ((z_{1-alpha/2} + z_power) sd / delta)^2, rounded up. */
double seq_fixed_rounds(double alpha, double power, double delta, double sd);

#endif
