/*
 * stats.c -- intervals for experiments (core/lab/stats.h).
 *
 * Invariant: pure functions of their arguments; no NaN escapes (every
 * division is guarded by the sample size).
 */
#include "stats.h"

#include <math.h>

static double clip01(double x)
{
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

Interval stats_wilson(long k, long n, double z)
{
    Interval r = {0, 1};
    if (n <= 0)
        return r;
    double p = (double)k / (double)n, nn = (double)n, z2 = z * z;
    double centre = (p + z2 / (2 * nn)) / (1 + z2 / nn);
    double half = z / (1 + z2 / nn) * sqrt(p * (1 - p) / nn + z2 / (4 * nn * nn));
    r.lo = clip01(centre - half);
    r.hi = clip01(centre + half);
    /* k = 0 and k = n give exact bounds (rounding would leave 1e-17) */
    if (k == 0)
        r.lo = 0;
    if (k == n)
        r.hi = 1;
    return r;
}

Interval stats_diff_proportions(long k1, long n1, long k2, long n2, double z)
{
    double p1 = n1 > 0 ? (double)k1 / (double)n1 : 0;
    double p2 = n2 > 0 ? (double)k2 / (double)n2 : 0;
    Interval w1 = stats_wilson(k1, n1, z), w2 = stats_wilson(k2, n2, z);
    double d = p2 - p1;
    Interval r;
    r.lo = d - sqrt((p2 - w2.lo) * (p2 - w2.lo) + (w1.hi - p1) * (w1.hi - p1));
    r.hi = d + sqrt((w2.hi - p2) * (w2.hi - p2) + (p1 - w1.lo) * (p1 - w1.lo));
    if (r.lo < -1)
        r.lo = -1;
    if (r.hi > 1)
        r.hi = 1;
    return r;
}

void stats_add(Moments *m, double x)
{
    m->n++;
    m->sum += x;
    m->sumsq += x * x;
}

double stats_mean(const Moments *m)
{
    return m->n > 0 ? m->sum / (double)m->n : 0;
}

/* Sample variance; never negative (rounding can make sumsq - n mean^2
 * a hair below zero for equal values). */
static double variance(const Moments *m)
{
    if (m->n < 2)
        return 0;
    double mean = stats_mean(m);
    double v = (m->sumsq - (double)m->n * mean * mean) / (double)(m->n - 1);
    return v > 0 ? v : 0;
}

double stats_sd(const Moments *m)
{
    return sqrt(variance(m));
}

Interval stats_mean_interval(const Moments *m, double z)
{
    double mean = stats_mean(m);
    double half = m->n >= 2 ? z * sqrt(variance(m) / (double)m->n) : 0;
    Interval r = {mean - half, mean + half};
    return r;
}

Interval stats_diff_means(const Moments *a, const Moments *b, double z)
{
    double d = stats_mean(b) - stats_mean(a);
    double se2 = 0;
    if (a->n >= 2)
        se2 += variance(a) / (double)a->n;
    if (b->n >= 2)
        se2 += variance(b) / (double)b->n;
    double half = z * sqrt(se2);
    Interval r = {d - half, d + half};
    return r;
}

double stats_score(long w, long d, long l)
{
    long n = w + d + l;
    return n > 0 ? ((double)w + 0.5 * (double)d) / (double)n : 0.5;
}

Interval stats_score_interval(long w, long d, long l, double z)
{
    long n = w + d + l;
    Interval r = {0, 1};
    if (n <= 0)
        return r;
    if (d == 0) /* no draws: a proportion of wins, Wilson's interval */
        return stats_wilson(w, n, z);
    double s = stats_score(w, d, l), nn = (double)n;
    /* the per-game scores' population variance, then the mean's */
    double var = ((double)w * (1 - s) * (1 - s) + (double)d * (0.5 - s) * (0.5 - s) +
                  (double)l * s * s) / nn;
    double half = z * sqrt(var / nn);
    r.lo = clip01(s - half);
    r.hi = clip01(s + half);
    return r;
}

double stats_elo(double s)
{
    if (s <= 0)
        return -INFINITY;
    if (s >= 1)
        return INFINITY;
    return -400.0 * log10(1.0 / s - 1.0);
}
