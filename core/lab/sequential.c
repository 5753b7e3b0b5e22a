/*
 * sequential.c -- group-sequential boundaries and the stopping decision
 * (core/lab/sequential.h).
 *
 * The boundaries: Z_i sqrt(t_i) = S_i, the sum on the information scale,
 * has independent normal increments (mean drift * (t_i - t_{i-1}),
 * variance t_i - t_{i-1}).  The density of S_i on the region where the test
 * went on is carried from look to look on a grid (Simpson's rule), and the
 * boundary of look i is the one whose crossing probability, from that
 * density, is the error rate the spending function allows between looks
 * i - 1 and i (found by bisection).  Jennison and Turnbull (2000), section
 * 19.2, describe this computation.
 *
 * Invariant: pure; scratch memory is freed before each function returns.
 */
#include "sequential.h"

#include <math.h>
#include <stdlib.h>

#define SQRT2 1.4142135623730951
#define SQRT_2PI 2.5066282746310002
#define B_MAX 40.0   /* a boundary no Z reaches (a look that spends nothing) */
#define TAIL_SD 12.0 /* the density beyond 12 sd of its mean is below 1e-32 */
#define STEPS_PER_SD 16

double seq_phi(double x)
{
    return 0.5 * erfc(-x / SQRT2); /* exact in the lower tail, where it matters */
}

double seq_quantile(double p)
{
    if (!(p > 0 && p < 1))
        return p <= 0 ? -INFINITY : INFINITY;
    double lo = -40, hi = 40;
    for (int i = 0; i < 200 && hi - lo > 1e-15 * (1 + fabs(lo)); i++) {
        double mid = 0.5 * (lo + hi);
        if (seq_phi(mid) < p)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

double seq_spent(SeqSpend f, double alpha, double t)
{
    if (t <= 0)
        return 0;
    if (t >= 1)
        return alpha;
    if (f == SEQ_POCOCK)
        return alpha * log(1 + (exp(1.0) - 1) * t);
    /* alpha / 2 a side, each spent as 2 - 2 Phi(z_{1-(alpha/2)/2} / sqrt t):
     * 4 - 4 Phi(z_{1-alpha/4} / sqrt t) in all, written with erfc so that
     * tiny values survive */
    return 2 * erfc(seq_quantile(1 - alpha / 4) / sqrt(t) / SQRT2);
}

/* The density of S at one look, on the grid x0 + j h (j = 0 .. n, n even),
 * already multiplied by Simpson's weights. */
typedef struct Grid {
    int n;
    double x0, h;
    double *w;
} Grid;

/* Probability that S at the next look (increment mean mu, sd sd) is
 * outside (-c, c), having come through g. */
static double cross_from(const Grid *g, double c, double mu, double sd)
{
    double p = 0;
    for (int j = 0; j <= g->n; j++) {
        double u = g->x0 + j * g->h + mu;
        p += g->w[j] * (seq_phi((-c - u) / sd) + seq_phi((u - c) / sd));
    }
    return p;
}

/* The grid of look i: (-c, c), cut where the density is negligible, with
 * a step well below both increments' sd. */
static int grid_make(Grid *g, double c, double centre, double t, double sd_in,
                     double sd_out)
{
    double lo = -c, hi = c, reach = TAIL_SD * sqrt(t);
    if (lo < centre - reach)
        lo = centre - reach;
    if (hi > centre + reach)
        hi = centre + reach;
    if (hi <= lo)
        hi = lo; /* the density is all past the boundary: one point */
    double step = (sd_in < sd_out ? sd_in : sd_out) / STEPS_PER_SD;
    int n = (int)ceil((hi - lo) / step);
    n += n % 2;
    if (n < 2)
        n = 2;
    g->n = n;
    g->x0 = lo;
    g->h = (hi - lo) / n;
    g->w = malloc(sizeof *g->w * (size_t)(n + 1));
    return g->w ? 0 : -1;
}

static double simpson(int j, int n, double h)
{
    return h / 3 * (j == 0 || j == n ? 1 : j % 2 ? 4 : 2);
}

/* The recursion over k looks: with solve, b[i] is found for the spending
 * (f, alpha) at drift 0; otherwise b is given.  cross[i] (may be NULL)
 * gets each look's crossing probability; the total is returned (-1: no
 * memory). */
static double integrate(const double *t, double *b, int k, double drift, int solve,
                        SeqSpend f, double alpha, double *cross)
{
    Grid prev = {0, 0, 0, NULL}, next;
    double total = 0;
    for (int i = 0; i < k; i++) {
        double dt = i ? t[i] - t[i - 1] : t[0], sd = sqrt(dt), mu = drift * dt;
        double sd_next = i + 1 < k ? sqrt(t[i + 1] - t[i]) : sd;
        double p;
        if (solve) {
            double want = seq_spent(f, alpha, t[i]) - seq_spent(f, alpha, i ? t[i - 1] : 0);
            double lo = 0, hi = B_MAX;
            for (int it = 0; it < 100; it++) {
                double mid = 0.5 * (lo + hi), c = mid * sqrt(t[i]);
                double q = i ? cross_from(&prev, c, mu, sd)
                             : seq_phi((-c - mu) / sd) + seq_phi((mu - c) / sd);
                if (q > want)
                    lo = mid;
                else
                    hi = mid;
            }
            b[i] = hi;
        }
        double c = b[i] * sqrt(t[i]);
        p = i ? cross_from(&prev, c, mu, sd) : seq_phi((-c - mu) / sd) + seq_phi((mu - c) / sd);
        if (cross)
            cross[i] = p;
        total += p;
        if (i + 1 == k)
            break;
        if (grid_make(&next, c, drift * t[i], t[i], sd, sd_next)) {
            free(prev.w);
            return -1;
        }
        for (int j = 0; j <= next.n; j++) {
            double s = next.x0 + j * next.h, dens = 0;
            if (i == 0) {
                double z = (s - mu) / sd;
                dens = exp(-0.5 * z * z) / (sd * SQRT_2PI);
            } else {
                for (int m = 0; m <= prev.n; m++) {
                    double z = (s - (prev.x0 + m * prev.h) - mu) / sd;
                    dens += prev.w[m] * exp(-0.5 * z * z);
                }
                dens /= sd * SQRT_2PI;
            }
            next.w[j] = dens * simpson(j, next.n, next.h);
        }
        free(prev.w);
        prev = next;
    }
    free(prev.w);
    return total;
}

static int looks_ok(const double *t, int k)
{
    if (k < 1 || k > SEQ_MAX_LOOKS)
        return 0;
    for (int i = 0; i < k; i++)
        if (!(t[i] > 0 && t[i] <= 1) || (i && !(t[i] > t[i - 1])))
            return 0;
    return 1;
}

int seq_boundaries(SeqSpend f, double alpha, const double *t, int k, double *b)
{
    if (!looks_ok(t, k) || !(alpha > 0 && alpha < 1))
        return -1;
    return integrate(t, b, k, 0, 1, f, alpha, NULL) < 0 ? -1 : 0;
}

double seq_crossing(const double *t, const double *b, int k, double drift, double *cross)
{
    if (!looks_ok(t, k))
        return -1;
    double bb[SEQ_MAX_LOOKS];
    for (int i = 0; i < k; i++)
        bb[i] = b[i];
    return integrate(t, bb, k, drift, 0, SEQ_POCOCK, 0, cross);
}

double seq_classical(int shape, int k, double alpha)
{
    double t[SEQ_MAX_LOOKS], b[SEQ_MAX_LOOKS];
    if (k < 1 || k > SEQ_MAX_LOOKS)
        return NAN;
    for (int i = 0; i < k; i++)
        t[i] = (double)(i + 1) / k;
    double lo = 0, hi = 10;
    for (int it = 0; it < 60; it++) {
        double c = 0.5 * (lo + hi);
        for (int i = 0; i < k; i++)
            b[i] = shape ? c * sqrt((double)k / (i + 1)) : c;
        double p = integrate(t, b, k, 0, 0, SEQ_POCOCK, 0, NULL);
        if (p < 0)
            return NAN;
        if (p > alpha)
            lo = c;
        else
            hi = c;
    }
    return 0.5 * (lo + hi);
}

int seq_design(SeqDesign *d, long rounds_max, long min_every, SeqSpend f, double alpha)
{
    if (rounds_max < 1)
        return -1;
    long every = (rounds_max + SEQ_MAX_LOOKS - 1) / SEQ_MAX_LOOKS;
    if (every < min_every)
        every = min_every;
    d->spend = f;
    d->alpha = alpha;
    d->rounds_max = rounds_max;
    d->every = every;
    d->nlooks = 0;
    for (long r = every;; r += every) {
        if (r > rounds_max)
            r = rounds_max;
        d->rounds[d->nlooks] = r;
        d->t[d->nlooks] = (double)r / (double)rounds_max;
        d->nlooks++;
        if (r == rounds_max)
            break;
    }
    return seq_boundaries(f, alpha, d->t, d->nlooks, d->b);
}

double seq_z(const Moments *m)
{
    return m->sumsq > 0 ? m->sum / sqrt(m->sumsq) : 0;
}

int seq_decide(const SeqDesign *d, int look, const Moments *m)
{
    double z = seq_z(m);
    if (z >= d->b[look])
        return SEQ_UP;
    if (-z >= d->b[look])
        return SEQ_DOWN;
    return look + 1 >= d->nlooks ? SEQ_UNCLEAR : SEQ_GO_ON;
}

double seq_fixed_rounds(double alpha, double power, double delta, double sd)
{
    double z = seq_quantile(1 - alpha / 2) + seq_quantile(power);
    return ceil(z * z * sd * sd / (delta * delta));
}
