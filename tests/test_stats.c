/*
 * test_stats.c -- core/lab/stats.c against values worked out by hand (the
 * arithmetic is in the comments) and published ones (Newcombe 1998's
 * examples of the Wilson interval and of his method 10 for a difference of
 * proportions).
 *
 * Invariant: the expected figures are not the program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../core/lab/stats.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) < (tol))

/* Wilson: 52 of 100 at z = 1.96 (z^2 = 3.8416):
 *   centre = (0.52 + 3.8416/200) / (1 + 3.8416/100) = 0.539208 / 1.038416 = 0.519260
 *   half   = 1.96 / 1.038416 * sqrt(0.52*0.48/100 + 3.8416/40000)
 *          = 1.887489 * sqrt(0.002592040) = 1.887489 * 0.050912 = 0.096096
 *   -> [0.4232, 0.6154] (a normal interval would say [0.4221, 0.6179]).
 * Newcombe (1998), "Two-sided confidence intervals for the single
 * proportion", example 81/263: [0.2553, 0.3662].
 * 0 of 10: lo exactly 0, hi = z^2/n / (1 + z^2/n) = 0.38416/1.38416 = 0.2775. */
static void test_stats_wilson(void **state)
{
    (void)state;
    Interval r = stats_wilson(52, 100, 1.96);
    NEAR(r.lo, 0.42317, 5e-5);
    NEAR(r.hi, 0.61535, 5e-5);
    r = stats_wilson(81, 263, STATS_Z95);
    NEAR(r.lo, 0.2553, 5e-5);
    NEAR(r.hi, 0.3662, 5e-5);
    r = stats_wilson(0, 10, 1.96);
    assert_true(r.lo == 0);
    NEAR(r.hi, 0.27753, 5e-5);
    r = stats_wilson(10, 10, 1.96);
    assert_true(r.hi == 1);
    NEAR(r.lo, 1 - 0.27753, 5e-5);
    r = stats_wilson(0, 0, 1.96); /* no games: nothing known */
    assert_true(r.lo == 0 && r.hi == 1);
}

/* Newcombe (1998), "Interval estimation for the difference between
 * independent proportions", example (a): 56/70 - 48/80 = 0.2000, method 10
 * interval [0.0524, 0.3339].  Our function gives p2 - p1, so the example
 * is asked as (48/80 -> 56/70). */
static void test_stats_newcombe_difference(void **state)
{
    (void)state;
    Interval r = stats_diff_proportions(48, 80, 56, 70, STATS_Z95);
    NEAR(r.lo, 0.0524, 5e-5);
    NEAR(r.hi, 0.3339, 5e-5);
    /* reversed: the interval mirrors */
    r = stats_diff_proportions(56, 70, 48, 80, STATS_Z95);
    NEAR(r.lo, -0.3339, 5e-5);
    NEAR(r.hi, -0.0524, 5e-5);
    /* the same proportions: an interval around 0, symmetric */
    r = stats_diff_proportions(30, 60, 30, 60, STATS_Z95);
    NEAR(r.lo, -r.hi, 1e-12);
    assert_true(r.lo < 0 && r.hi > 0);
}

/* Moments of 2, 4, 4, 4, 5, 5, 7, 9: mean 40/8 = 5; squared deviations
 * 9+1+1+1+0+0+4+16 = 32; sample variance 32/7 = 4.571429, sd 2.138090;
 * the mean's interval at z = 2: 5 -+ 2 * 2.138090/sqrt(8) = 5 -+ 1.511858. */
static void test_stats_moments(void **state)
{
    (void)state;
    static const double xs[] = {2, 4, 4, 4, 5, 5, 7, 9};
    Moments m = {0, 0, 0};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        stats_add(&m, xs[i]);
    NEAR(stats_mean(&m), 5.0, 1e-12);
    NEAR(stats_sd(&m), 2.138090, 1e-6);
    Interval r = stats_mean_interval(&m, 2.0);
    NEAR(r.lo, 3.488142, 1e-6);
    NEAR(r.hi, 6.511858, 1e-6);
    /* one value: no spread, a point interval */
    Moments one = {0, 0, 0};
    stats_add(&one, 3);
    assert_true(stats_sd(&one) == 0);
    r = stats_mean_interval(&one, 2.0);
    assert_true(r.lo == 3 && r.hi == 3);
    /* equal values never give a negative variance */
    Moments same = {0, 0, 0};
    for (int i = 0; i < 1000; i++)
        stats_add(&same, 0.1);
    assert_true(stats_sd(&same) == 0 || stats_sd(&same) < 1e-6);
}

/* Welch: a = {1, 2, 3} (mean 2, var 1), b = {4, 6, 8} (mean 6, var 4):
 * difference 4, se = sqrt(1/3 + 4/3) = 1.290994, z = 2: [1.418011, 6.581989]. */
static void test_stats_difference_of_means(void **state)
{
    (void)state;
    Moments a = {0, 0, 0}, b = {0, 0, 0};
    stats_add(&a, 1), stats_add(&a, 2), stats_add(&a, 3);
    stats_add(&b, 4), stats_add(&b, 6), stats_add(&b, 8);
    Interval r = stats_diff_means(&a, &b, 2.0);
    NEAR(r.lo, 1.418011, 1e-6);
    NEAR(r.hi, 6.581989, 1e-6);
}

/* Score of 6 wins, 4 draws, 10 losses: (6 + 2)/20 = 0.4; per-game
 * variance (6*0.6^2 + 4*0.1^2 + 10*0.4^2)/20 = 3.8/20 = 0.19; the mean's
 * standard error sqrt(0.19/20) = 0.097468; at z = 1.96: 0.4 -+ 0.191037.
 * Elo: s = 0.75 -> -400 log10(1/3) = +190.85; s = 0.5 -> 0; s = 0.25 ->
 * -190.85; s = 1 -> +inf. */
static void test_stats_score_and_elo(void **state)
{
    (void)state;
    NEAR(stats_score(6, 4, 10), 0.4, 1e-12);
    Interval r = stats_score_interval(6, 4, 10, 1.96);
    NEAR(r.lo, 0.208963, 1e-6);
    NEAR(r.hi, 0.591037, 1e-6);
    NEAR(stats_elo(0.75), 190.8485, 1e-4);
    NEAR(stats_elo(0.25), -190.8485, 1e-4);
    NEAR(stats_elo(0.5), 0, 1e-12);
    assert_true(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    assert_true(isinf(stats_elo(0.0)) && stats_elo(0.0) < 0);
    /* no draws: Wilson's interval of the wins, also when all were won
     * (5 of 5: 0.5655 - 1, not a point at 1) */
    r = stats_score_interval(5, 0, 0, 1.96);
    Interval wil = stats_wilson(5, 5, 1.96);
    assert_true(r.lo == wil.lo && r.hi == 1);
    NEAR(r.lo, 0.56552, 5e-5);
    r = stats_score_interval(3, 0, 7, 1.96);
    NEAR(r.lo, 0.10779, 5e-5); /* 3/10: 10.8 - 60.3 as above */
    NEAR(r.hi, 0.60323, 5e-5);
    assert_true(stats_score(0, 0, 0) == 0.5);
}

/* ---- Issue 23 ------------------------------------------------------------
 * The reference values below were computed once by an independent Python
 * script (standard library only): Student's t by Simpson integration of
 * its density, Tango's and the profile-likelihood intervals by maximizing
 * the restricted likelihoods numerically (golden section over the free
 * cell) and bisecting for the crossing -- not the closed forms and root
 * finders of stats.c.  Printed tables agree where they exist. */

/* t quantiles: the printed tables' 12.706 (1 df), 4.303 (2), 2.262 (9),
 * 2.045 (29); 1.972 (199) by the script.  The distribution function at
 * 2.5 with 4 df: 0.966617 (the script). */
static void test_stats_t_distribution_issue23(void **state)
{
    (void)state;
    NEAR(stats_t_quantile(0.975, 1), 12.706205, 1e-5);
    NEAR(stats_t_quantile(0.975, 2), 4.302653, 1e-5);
    NEAR(stats_t_quantile(0.975, 9), 2.262157, 1e-5);
    NEAR(stats_t_quantile(0.975, 29), 2.045230, 1e-5);
    NEAR(stats_t_quantile(0.975, 199), 1.971957, 1e-5);
    NEAR(stats_t_quantile(0.025, 9), -2.262157, 1e-5);
    NEAR(stats_t_cdf(2.5, 4), 0.966617, 1e-5);
    NEAR(stats_t_cdf(-2.5, 4), 1 - 0.966617, 1e-5);
    NEAR(stats_normal_cdf(1.959964), 0.975, 1e-6);
    /* many degrees of freedom: the normal quantile */
    NEAR(stats_t_quantile(0.975, 1e7), STATS_Z95, 1e-5);
}

/* Tango's interval (issue 23): the two examples of Fagerland, Lydersen and
 * Laake (2014) -- Bentur et al. 2009, 21 pairs, 1 yes under the first
 * condition alone and 7 under the second alone: first - second = -6/21 =
 * -0.2857, Tango -0.5172 .. -0.0260; Cavo et al. 2012, 161 pairs, 6 and
 * 16: -0.0621, Tango -0.1240 .. -0.0054 (the script's values, to 4
 * places).  Our function gives B - A with the cells a_only, b_only.
 * 13 of 100 pairs yes under B alone, 3 under A alone: +0.10, 0.0244 ..
 * 0.1855, McNemar's p = 2 (1 - Phi(10/4)) = 0.012419.  No pair differs,
 * n = 50: the ends solve n d / (1 - d) = z^2: d = z^2/(n + z^2) = 0.071348. */
static void test_stats_tango_paired_issue23(void **state)
{
    (void)state;
    Interval r = stats_paired_diff(7, 1, 21, STATS_Z95);
    NEAR(r.lo, -0.517232, 5e-6);
    NEAR(r.hi, -0.026003, 5e-6);
    r = stats_paired_diff(16, 6, 161, STATS_Z95);
    NEAR(r.lo, -0.124023, 5e-6);
    NEAR(r.hi, -0.005433, 5e-6);
    r = stats_paired_diff(3, 13, 100, STATS_Z95);
    NEAR(r.lo, 0.024376, 5e-6);
    NEAR(r.hi, 0.185483, 5e-6);
    NEAR(stats_paired_p(3, 13), 0.012419, 1e-6);
    assert_true(stats_paired_p(0, 0) == 1);
    r = stats_paired_diff(0, 0, 50, STATS_Z95);
    NEAR(r.hi, 0.071348, 5e-6);
    NEAR(r.lo, -0.071348, 5e-6);
    /* swapping A and B mirrors the interval */
    Interval m = stats_paired_diff(13, 3, 100, STATS_Z95);
    NEAR(m.lo, -0.185483, 5e-6);
    NEAR(m.hi, -0.024376, 5e-6);
    /* every pair differs one way: an end at +-1, the other inside */
    r = stats_paired_diff(0, 20, 20, STATS_Z95);
    assert_true(r.hi == 1 && r.lo > 0.5 && r.lo < 1);
    /* the paired interval is narrower than the independent one when the
     * pairs agree (B - A = +10 points either way) */
    Interval ind = stats_diff_proportions(40, 100, 50, 100, STATS_Z95);
    r = stats_paired_diff(0, 10, 100, STATS_Z95);
    assert_true(r.hi - r.lo < (ind.hi - ind.lo) / 2);
    /* the interval and the p-value agree: 0 is outside exactly when p < 0.05 */
    for (long a = 0; a <= 30; a += 3)
        for (long b = 0; b <= 30; b += 2) {
            r = stats_paired_diff(a, b, 200, STATS_Z95);
            int out = r.lo > 0 || r.hi < 0;
            assert_int_equal(out, stats_paired_p(a, b) < 0.05);
        }
}

/* Paired t (issue 23): 2, 4, 4, 4, 5, 5, 7, 9 (mean 5, sd 2.138090), t at
 * 0.975 with 7 df 2.364624: 5 -+ 1.787488: 3.212512 .. 6.787488.
 * -1, 0, 1, 2: mean 0.5, se 0.645497, t = 0.774597, p (3 df) = 0.495025. */
static void test_stats_paired_t_issue23(void **state)
{
    (void)state;
    static const double xs[] = {2, 4, 4, 4, 5, 5, 7, 9};
    Moments m = {0, 0, 0};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        stats_add(&m, xs[i]);
    Interval r = stats_t_interval(&m, 0.95);
    NEAR(r.lo, 3.212512, 1e-5);
    NEAR(r.hi, 6.787488, 1e-5);
    Moments d = {0, 0, 0};
    stats_add(&d, -1), stats_add(&d, 0), stats_add(&d, 1), stats_add(&d, 2);
    NEAR(stats_t_p(&d), 0.495025, 1e-5);
    /* no spread: a point, and p 1 (all 0) or 0 (all the same change) */
    Moments z0 = {0, 0, 0}, z1 = {0, 0, 0};
    for (int i = 0; i < 10; i++)
        stats_add(&z0, 0), stats_add(&z1, 3);
    assert_true(stats_t_p(&z0) == 1 && stats_t_p(&z1) == 0);
    r = stats_t_interval(&z0, 0.95);
    assert_true(r.lo == 0 && r.hi == 0);
}

/* Per-round clusters (issue 23): differences 1, 0, 2, -1 over rounds of
 * 2, 2, 2, 1 games: 2/7 = 0.285714; residuals d - 2/7 m: 0.428571,
 * -0.571429, 1.428571, -1.285714, squares summing to 4.204082; variance
 * 4/3 * 4.204082 / 49 = 0.114397, se 0.338226; t (3 df) 3.182446:
 * -0.790672 .. 1.362100, p 0.460296. */
static void test_stats_clusters_issue23(void **state)
{
    (void)state;
    Clusters c;
    memset(&c, 0, sizeof c);
    stats_cluster_add(&c, 1, 2), stats_cluster_add(&c, 0, 2);
    stats_cluster_add(&c, 2, 2), stats_cluster_add(&c, -1, 1);
    NEAR(stats_cluster_mean(&c), 2.0 / 7, 1e-12);
    Interval r = stats_cluster_interval(&c, 0.95);
    NEAR(r.lo, -0.790672, 1e-5);
    NEAR(r.hi, 1.362100, 1e-5);
    NEAR(stats_cluster_p(&c), 0.460296, 1e-5);
}

/* Stratified shares (issue 23): 43 of 50 in one rotation, 0 of 50 in the
 * other: 43%; Wilson 43/50 = 0.742969 .. 0.930495, 0/50 = 0 .. 0.071348;
 * lo = 0.43 - sqrt(0.25 (0.86 - 0.742969)^2 + 0.25 * 0) = 0.369069, hi =
 * 0.43 + sqrt(0.25 (0.930495 - 0.86)^2 + 0.25 * 0.071348^2) = 0.480149.
 * The pooled Wilson interval of 43/100 is 0.337333 .. 0.527846: twice as
 * wide.  One stratum: Wilson's own. */
static void test_stats_stratified_issue23(void **state)
{
    (void)state;
    long k[2] = {43, 0}, n[2] = {50, 50};
    Interval r = stats_stratified(k, n, 2, STATS_Z95);
    NEAR(r.lo, 0.369069, 5e-6);
    NEAR(r.hi, 0.480149, 5e-6);
    Interval w = stats_wilson(43, 100, STATS_Z95);
    NEAR(w.lo, 0.337333, 5e-6);
    assert_true(r.hi - r.lo < (w.hi - w.lo) * 0.6);
    long k1[1] = {52}, n1[1] = {100};
    r = stats_stratified(k1, n1, 1, 1.96);
    NEAR(r.lo, 0.42317, 5e-5);
    NEAR(r.hi, 0.61535, 5e-5);
    /* every game one way in every stratum: exact ends, still a width */
    long k2[2] = {0, 0};
    r = stats_stratified(k2, n, 2, STATS_Z95);
    assert_true(r.lo == 0 && r.hi > 0.03);
    long k3[2] = {50, 0};
    r = stats_stratified(k3, n, 2, STATS_Z95);
    assert_true(r.lo > 0.4 && r.lo < 0.5 && r.hi > 0.5 && r.hi < 0.6);
}

/* The profile-likelihood score interval (issue 23), the script's values:
 * +6 =4 -10: 0.225934 .. 0.595207; +5 =2 -3: 0.327484 .. 0.832310;
 * +178 =22 -0: 0.920871 .. 0.964170; =10: 0.412623 .. 0.587377;
 * +3 -7: 0.084559 .. 0.606539.  Every game won (+20): the likelihood is
 * mu^20, so lo = exp(-z^2/40) = 0.908431 and hi = 1.  The issue's case:
 * +19 =1 -0 must not have a higher lower end than +20 =0 -0 (0.877486 <
 * 0.908431), and its upper end is below 1 (0.998539), so its Elo is finite. */
static void test_stats_score_profile_issue23(void **state)
{
    (void)state;
    static const struct { long w, d, l; double lo, hi; } cases[] = {
        {6, 4, 10, 0.225934, 0.595207},  {5, 2, 3, 0.327484, 0.832310},
        {178, 22, 0, 0.920871, 0.964170}, {0, 10, 0, 0.412623, 0.587377},
        {3, 0, 7, 0.084559, 0.606539},   {20, 0, 0, 0.908431, 1},
        {19, 1, 0, 0.877486, 0.998539},  {196, 4, 0, 0.976807, 0.996874},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Interval r = stats_score_profile(cases[i].w, cases[i].d, cases[i].l, STATS_Z95);
        if (fabs(r.lo - cases[i].lo) > 5e-6 || fabs(r.hi - cases[i].hi) > 5e-6)
            fail_msg("+%ld =%ld -%ld: %.6f .. %.6f, want %.6f .. %.6f", cases[i].w,
                     cases[i].d, cases[i].l, r.lo, r.hi, cases[i].lo, cases[i].hi);
    }
    Interval all = stats_score_profile(20, 0, 0, STATS_Z95);
    Interval one = stats_score_profile(19, 1, 0, STATS_Z95);
    assert_true(one.lo < all.lo && all.hi == 1 && one.hi < 1);
    assert_true(!isinf(stats_elo(one.hi)) && isinf(stats_elo(all.hi)));
    Interval lost = stats_score_profile(0, 0, 20, STATS_Z95);
    assert_true(lost.lo == 0 && fabs(lost.hi - (1 - 0.908431)) < 5e-6);
    /* monotone: one more win never lowers an end, one more loss never
     * raises one */
    for (long w = 0; w <= 12; w++)
        for (long d = 0; d <= 12; d++)
            for (long l = 0; l <= 12; l++) {
                if (w + d + l == 0)
                    continue;
                Interval r = stats_score_profile(w, d, l, STATS_Z95);
                Interval up = stats_score_profile(w + 1, d, l, STATS_Z95);
                Interval down = stats_score_profile(w, d, l + 1, STATS_Z95);
                Interval shift = stats_score_profile(w + 1, d > 0 ? d - 1 : d, l,
                                                     STATS_Z95);
                assert_true(up.lo >= r.lo - 1e-9 && up.hi >= r.hi - 1e-9);
                assert_true(down.lo <= r.lo + 1e-9 && down.hi <= r.hi + 1e-9);
                if (d > 0) /* a draw turned into a win */
                    assert_true(shift.lo >= r.lo - 1e-9 && shift.hi >= r.hi - 1e-9);
                assert_true(r.lo <= stats_score(w, d, l) && r.hi >= stats_score(w, d, l));
                assert_true((r.hi == 1) == (d + l == 0) && (r.lo == 0) == (w + d == 0));
            }
}

/* Holm (1979), by hand: p = 0.01, 0.04, 0.03, 0.005; in order 0.005 x 4 =
 * 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06 (never
 * below the one before): adjusted 0.03, 0.06, 0.06, 0.02.  At 5% only
 * the first and the fourth are rejected. */
static void test_stats_holm_issue23(void **state)
{
    (void)state;
    double p[4] = {0.01, 0.04, 0.03, 0.005}, adj[4];
    stats_holm(p, 4, adj);
    NEAR(adj[0], 0.03, 1e-12);
    NEAR(adj[1], 0.06, 1e-12);
    NEAR(adj[2], 0.06, 1e-12);
    NEAR(adj[3], 0.02, 1e-12);
    double big[2] = {0.7, 0.9};
    stats_holm(big, 2, adj);
    assert_true(adj[0] == 1 && adj[1] == 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_wilson),
        cmocka_unit_test(test_stats_newcombe_difference),
        cmocka_unit_test(test_stats_moments),
        cmocka_unit_test(test_stats_difference_of_means),
        cmocka_unit_test(test_stats_score_and_elo),
        cmocka_unit_test(test_stats_t_distribution_issue23),
        cmocka_unit_test(test_stats_tango_paired_issue23),
        cmocka_unit_test(test_stats_paired_t_issue23),
        cmocka_unit_test(test_stats_clusters_issue23),
        cmocka_unit_test(test_stats_stratified_issue23),
        cmocka_unit_test(test_stats_score_profile_issue23),
        cmocka_unit_test(test_stats_holm_issue23),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
