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

/* ---- Issue 23: paired comparisons, strata, profile likelihood, Holm ---- */

double stats_normal_cdf(double x)
{
    return 0.5 * erfc(-x / sqrt(2.0));
}

/* The continued fraction of the regularized incomplete beta function
 * I_x(a, b) (modified Lentz), for x < (a + 1) / (a + b + 2). */
static double beta_fraction(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = fabs(d) < tiny ? tiny : d;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m;
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        h *= d * c;
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        d = fabs(d) < tiny ? tiny : d;
        c = 1 + num / c;
        c = fabs(c) < tiny ? tiny : c;
        d = 1 / d;
        double step = d * c;
        h *= step;
        if (fabs(step - 1) < 1e-15)
            break;
    }
    return h;
}

static double incomplete_beta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * beta_fraction(a, b, x) / a;
    return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
    double tail = 0.5 * incomplete_beta(df / 2, 0.5, df / (df + t * t));
    return t < 0 ? tail : 1 - tail;
}

double stats_t_quantile(double q, double df)
{
    if (q == 0.5)
        return 0;
    if (q < 0.5)
        return -stats_t_quantile(1 - q, df);
    double lo = 0, hi = 1;
    while (stats_t_cdf(hi, df) < q && hi < 1e12)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (stats_t_cdf(mid, df) < q)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

/* Tango's score statistic at delta: (b_only - a_only - n delta) /
 * sqrt(n (2 q + delta (1 - delta))), q the maximum likelihood of the cell
 * "yes under A alone" given delta: the root of 2n q^2 - B q - a delta
 * (1 - delta) = 0 with B = s + delta (b - a - 2n), s = a + b.  Decreasing
 * in delta; +-HUGE_VAL where the variance is 0 (delta at -1 or 1). */
static double tango_z(long a, long b, long n, double delta)
{
    double nn = (double)n, s = (double)(a + b);
    double bq = s + delta * ((double)(b - a) - 2 * nn);
    double disc = bq * bq + 8 * nn * (double)a * delta * (1 - delta);
    double q = (bq + sqrt(disc > 0 ? disc : 0)) / (4 * nn);
    double var = nn * (2 * q + delta * (1 - delta));
    double num = (double)(b - a) - nn * delta;
    if (var <= 0)
        return num > 0 ? HUGE_VAL : num < 0 ? -HUGE_VAL : 0;
    return num / sqrt(var);
}

Interval stats_paired_diff(long a_only, long b_only, long n, double z)
{
    Interval r = {-1, 1};
    if (n <= 0)
        return r;
    double est = (double)(b_only - a_only) / (double)n;
    /* the lower end: tango_z(delta) = z, between -1 and est */
    if (b_only - a_only > -n) {
        double lo = -1, hi = est;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (tango_z(a_only, b_only, n, mid) > z)
                lo = mid;
            else
                hi = mid;
        }
        r.lo = (lo + hi) / 2;
    }
    if (b_only - a_only < n) {
        double lo = est, hi = 1;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (tango_z(a_only, b_only, n, mid) > -z)
                lo = mid;
            else
                hi = mid;
        }
        r.hi = (lo + hi) / 2;
    }
    return r;
}

double stats_paired_p(long a_only, long b_only)
{
    if (a_only + b_only <= 0)
        return 1;
    double zz = fabs((double)(b_only - a_only)) / sqrt((double)(a_only + b_only));
    return erfc(zz / sqrt(2.0));
}

Interval stats_t_interval(const Moments *d, double level)
{
    double mean = stats_mean(d);
    Interval r = {mean, mean};
    if (d->n < 2)
        return r;
    double half = stats_t_quantile(0.5 + level / 2, (double)(d->n - 1)) *
                  sqrt(variance(d) / (double)d->n);
    r.lo = mean - half;
    r.hi = mean + half;
    return r;
}

/* Two-sided p-value of a t statistic of estimate est with standard error
 * se: 1 when both are 0, 0 when only se is. */
static double t_p(double est, double se, double df)
{
    if (se <= 0)
        return est == 0 ? 1 : 0;
    double t = fabs(est) / se;
    return 2 * (1 - stats_t_cdf(t, df));
}

double stats_t_p(const Moments *d)
{
    if (d->n < 2)
        return 1;
    return t_p(stats_mean(d), sqrt(variance(d) / (double)d->n), (double)(d->n - 1));
}

void stats_cluster_add(Clusters *c, double d, double m)
{
    c->r++;
    c->d += d;
    c->m += m;
    c->dd += d * d;
    c->dm += d * m;
    c->mm += m * m;
}

double stats_cluster_mean(const Clusters *c)
{
    return c->m > 0 ? c->d / c->m : 0;
}

static double cluster_se(const Clusters *c)
{
    if (c->r < 2 || c->m <= 0)
        return 0;
    double mean = stats_cluster_mean(c);
    double ss = c->dd - 2 * mean * c->dm + mean * mean * c->mm;
    double rr = (double)c->r;
    double v = ss > 0 ? rr / (rr - 1) * ss / (c->m * c->m) : 0;
    return sqrt(v);
}

Interval stats_cluster_interval(const Clusters *c, double level)
{
    double mean = stats_cluster_mean(c);
    Interval r = {mean, mean};
    if (c->r < 2)
        return r;
    double half = stats_t_quantile(0.5 + level / 2, (double)(c->r - 1)) * cluster_se(c);
    r.lo = mean - half;
    r.hi = mean + half;
    return r;
}

double stats_cluster_p(const Clusters *c)
{
    if (c->r < 2)
        return 1;
    return t_p(stats_cluster_mean(c), cluster_se(c), (double)(c->r - 1));
}

Interval stats_stratified(const long *k, const long *n, int strata, double z)
{
    double total = 0, p = 0, lo2 = 0, hi2 = 0;
    for (int h = 0; h < strata; h++)
        total += (double)n[h];
    Interval r = {0, 1};
    if (total <= 0)
        return r;
    int all_zero = 1, all_one = 1;
    for (int h = 0; h < strata; h++) {
        if (n[h] <= 0)
            continue;
        double w = (double)n[h] / total, ph = (double)k[h] / (double)n[h];
        Interval wi = stats_wilson(k[h], n[h], z);
        p += w * ph;
        lo2 += w * w * (ph - wi.lo) * (ph - wi.lo);
        hi2 += w * w * (wi.hi - ph) * (wi.hi - ph);
        all_zero &= k[h] == 0;
        all_one &= k[h] == n[h];
    }
    r.lo = all_zero ? 0 : clip01(p - sqrt(lo2));
    r.hi = all_one ? 1 : clip01(p + sqrt(hi2));
    return r;
}

/* n log p, with 0 log 0 = 0 (an unseen outcome costs nothing). */
static double xlogp(long n, double p)
{
    if (n == 0)
        return 0;
    return p > 0 ? (double)n * log(p) : -HUGE_VAL;
}

/* The best log-likelihood of (w, d, l) among the trinomials of mean mu:
 * with t the chance of a draw, the win and loss chances are mu - t/2 and
 * 1 - mu - t/2, and the log-likelihood is concave in t on [0, tmax]: its
 * derivative's root by bisection. */
static double score_loglik(long w, long d, long l, double mu)
{
    double tmax = 2 * (mu < 1 - mu ? mu : 1 - mu), t = 0;
    if (d > 0) {
        double lo = 0, hi = tmax;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            double g = (double)d / mid - (w ? (double)w / (2 * (mu - mid / 2)) : 0) -
                       (l ? (double)l / (2 * (1 - mu - mid / 2)) : 0);
            if (g > 0)
                lo = mid;
            else
                hi = mid;
        }
        t = (lo + hi) / 2;
    }
    return xlogp(w, mu - t / 2) + xlogp(d, t) + xlogp(l, 1 - mu - t / 2);
}

Interval stats_score_profile(long w, long d, long l, double z)
{
    long n = w + d + l;
    Interval r = {0, 1};
    if (n <= 0)
        return r;
    double nn = (double)n, mu = stats_score(w, d, l);
    double best = xlogp(w, (double)w / nn) + xlogp(d, (double)d / nn) +
                  xlogp(l, (double)l / nn);
    double cut = best - z * z / 2; /* the deviance 2 (best - ll) at z^2 */
    if (l < n) {                    /* else every game lost: 0 is the end */
        double lo = 0, hi = mu;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (score_loglik(w, d, l, mid) < cut)
                lo = mid;
            else
                hi = mid;
        }
        r.lo = (lo + hi) / 2;
    }
    if (w < n) {
        double lo = mu, hi = 1;
        for (int i = 0; i < 100; i++) {
            double mid = (lo + hi) / 2;
            if (score_loglik(w, d, l, mid) < cut)
                hi = mid;
            else
                lo = mid;
        }
        r.hi = (lo + hi) / 2;
    }
    return r;
}

void stats_holm(const double *p, int m, double *adj)
{
    /* the order of the p-values, smallest first (insertion sort: m is
     * a handful of metrics); ties keep their order */
    int order[STATS_HOLM_MAX];
    if (m > STATS_HOLM_MAX)
        m = STATS_HOLM_MAX;
    for (int i = 0; i < m; i++) {
        int j = i;
        while (j > 0 && p[order[j - 1]] > p[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    double running = 0;
    for (int j = 0; j < m; j++) {
        double a = (double)(m - j) * p[order[j]];
        if (a > 1)
            a = 1;
        if (a > running)
            running = a;
        adj[order[j]] = running;
    }
}
