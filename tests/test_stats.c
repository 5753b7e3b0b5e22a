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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_wilson),
        cmocka_unit_test(test_stats_newcombe_difference),
        cmocka_unit_test(test_stats_moments),
        cmocka_unit_test(test_stats_difference_of_means),
        cmocka_unit_test(test_stats_score_and_elo),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
