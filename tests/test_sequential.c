/*
 * test_sequential.c -- core/lab/sequential.c (issue 23 point 2: stop when
 * the answer is clear) against published boundaries, values worked out by
 * hand, and the error rate it promises, measured on simulated experiments
 * where nothing changed.
 *
 * Published values: Jennison and Turnbull (2000), "Group Sequential
 * Methods with Applications to Clinical Trials", table 2.1 (Pocock's
 * constant C_P(K, 0.05)) and table 2.3 (O'Brien and Fleming's C_B(K,
 * 0.05)); the Lan-DeMets spending boundaries at five equally spaced looks,
 * two-sided alpha 0.05 (DeMets and Lan 1994, "Interim analysis: the alpha
 * spending function approach", Statistics in Medicine 13, table I):
 * O'Brien-Fleming type 4.877 3.357 2.680 2.290 2.031, Pocock type 2.438
 * 2.427 2.410 2.397 2.386.
 *
 * The command (`chessvar experiment --until clear`): it stops early on a
 * big change, goes to --max-games where nothing changed, decides the same
 * with any --jobs, says so in its report and JSON (whose z is recomputed
 * here from the games), and refuses bad values with exit status 2.
 *
 * Invariant: the expected figures are not the program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../core/json.h"
#include "../core/lab/sequential.h"
#include "support/testutil.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) < (tol))

static void test_sequential_normal(void **state)
{
    (void)state;
    NEAR(seq_phi(1.959963984540054), 0.975, 1e-12);
    NEAR(seq_phi(-1.644853626951472), 0.05, 1e-12);
    NEAR(seq_quantile(0.975), 1.959963984540054, 1e-9);
    NEAR(seq_quantile(0.8), 0.841621233572914, 1e-9);
    NEAR(seq_quantile(1e-10), -6.361340902404056, 1e-8);
    assert_true(seq_phi(-30) > 0); /* the lower tail does not round to 0 */
}

/* Jennison and Turnbull's tables 2.1 and 2.3, alpha 0.05 two-sided. */
static void test_sequential_classical_constants(void **state)
{
    (void)state;
    static const struct { int k; double pocock, obf; } TABLE[] = {
        {1, 1.960, 1.960}, {2, 2.178, 1.977}, {3, 2.289, 2.004}, {4, 2.361, 2.024},
        {5, 2.413, 2.040}, {10, 2.555, 2.087},
    };
    for (size_t i = 0; i < sizeof TABLE / sizeof TABLE[0]; i++) {
        NEAR(seq_classical(0, TABLE[i].k, 0.05), TABLE[i].pocock, 6e-4);
        NEAR(seq_classical(1, TABLE[i].k, 0.05), TABLE[i].obf, 6e-4);
    }
}

/* DeMets and Lan (1994), table I: five equally spaced looks. */
static void test_sequential_spending_boundaries(void **state)
{
    (void)state;
    double t[5] = {0.2, 0.4, 0.6, 0.8, 1.0}, b[5];
    static const double OBF[5] = {4.877, 3.357, 2.680, 2.290, 2.031};
    static const double POCOCK[5] = {2.438, 2.427, 2.410, 2.397, 2.386};
    assert_int_equal(seq_boundaries(SEQ_OBF, 0.05, t, 5, b), 0);
    for (int i = 0; i < 5; i++)
        NEAR(b[i], OBF[i], 6e-4);
    assert_int_equal(seq_boundaries(SEQ_POCOCK, 0.05, t, 5, b), 0);
    for (int i = 0; i < 5; i++)
        NEAR(b[i], POCOCK[i], 6e-4);
    /* what the boundaries spend, look by look and in all */
    double cross[5];
    NEAR(seq_crossing(t, b, 5, 0, cross), 0.05, 1e-6);
    NEAR(cross[0], 0.05 * log(1 + (exp(1) - 1) * 0.2), 1e-6);
    /* looks that are not increasing fractions of (0, 1] are refused */
    double bad[2] = {0.5, 0.5};
    assert_int_equal(seq_boundaries(SEQ_POCOCK, 0.05, bad, 2, b), -1);
    bad[0] = 0;
    assert_int_equal(seq_boundaries(SEQ_POCOCK, 0.05, bad, 2, b), -1);
}

/* One look is the fixed test: power at drift z_0.975 + z_0.8 is 0.80
 * (plus the other tail's Phi(-1.96 - 2.80) = 1.0e-6); and the rounds a
 * fixed test needs: ((1.95996 + 0.84162) * 0.1146 / 0.0258)^2 = 154.9. */
static void test_sequential_power_and_fixed_size(void **state)
{
    (void)state;
    double t[1] = {1}, b[1] = {1.959963984540054};
    NEAR(seq_crossing(t, b, 1, 1.959963984540054 + 0.841621233572914, NULL),
         0.800001, 2e-6);
    assert_true(seq_fixed_rounds(0.05, 0.8, 0.0258, 0.1146) == 155);
    assert_true(seq_fixed_rounds(0.05, 0.9, 0.5, 1) == 43); /* 3.2415^2 * 4 = 42.03 */
}

/* Z by hand.  d = .5, 0, -.5, .5, 1: sum 1.5, squares 1.75, Z = 1.5 /
 * 1.3229 = 1.1339.  A share whose rounds are single games: 7 rounds won by
 * B alone, 2 by A alone, 11 alike is McNemar's (7 - 2) / sqrt(9) = 1.667.
 * No difference yet: Z is 0. */
static void test_sequential_statistic(void **state)
{
    (void)state;
    Moments m = {0, 0, 0};
    static const double D[] = {0.5, 0, -0.5, 0.5, 1};
    for (int i = 0; i < 5; i++)
        stats_add(&m, D[i]);
    NEAR(seq_z(&m), 1.133893419, 1e-9);
    Moments mc = {0, 0, 0};
    for (int i = 0; i < 20; i++)
        stats_add(&mc, i < 7 ? 1 : i < 9 ? -1 : 0);
    NEAR(seq_z(&mc), 5.0 / 3.0, 1e-12);
    Moments zero = {0, 0, 0};
    stats_add(&zero, 0);
    assert_true(seq_z(&zero) == 0);
}

/* The design: looks every rounds_max / 100 rounds (rounded up), the last
 * at rounds_max, and the decision at each. */
static void test_sequential_design_and_decision(void **state)
{
    (void)state;
    SeqDesign d;
    assert_int_equal(seq_design(&d, 250, 1, SEQ_POCOCK, 0.05), 0);
    assert_int_equal(d.every, 3);
    assert_int_equal(d.nlooks, 84);
    assert_int_equal(d.rounds[0], 3);
    assert_int_equal(d.rounds[83], 250);
    NEAR(d.t[83], 1.0, 1e-15);
    assert_int_equal(seq_design(&d, 40, 10, SEQ_POCOCK, 0.05), 0);
    assert_int_equal(d.nlooks, 4); /* every 10 rounds */
    /* the four boundaries of a Pocock-type design at equal looks lie
     * between Pocock's constants for 4 looks and for 1 */
    for (int i = 0; i < 4; i++)
        assert_true(d.b[i] > 1.96 && d.b[i] < 2.5);
    Moments m = {0, 0, 0};
    for (int i = 0; i < 9; i++)
        stats_add(&m, 0.5); /* Z = 3 */
    assert_int_equal(seq_decide(&d, 0, &m), SEQ_UP);
    Moments n = {0, 0, 0};
    for (int i = 0; i < 9; i++)
        stats_add(&n, -1);
    assert_int_equal(seq_decide(&d, 1, &n), SEQ_DOWN);
    Moments small = {0, 0, 0};
    stats_add(&small, 0.5);
    stats_add(&small, -0.5);
    stats_add(&small, 0.5); /* Z = 0.577 */
    assert_int_equal(seq_decide(&d, 2, &small), SEQ_GO_ON);
    assert_int_equal(seq_decide(&d, 3, &small), SEQ_UNCLEAR);
    assert_int_equal(seq_design(&d, 0, 1, SEQ_POCOCK, 0.05), -1);
}

/* A generator of our own for the simulations (splitmix64). */
static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The share of simulated experiments that stop with a verdict.  Each
 * round's difference: with probability `sparse` a round differs, by +-0.5
 * (then +-1 one time in six), the sign drawn with P(+) = up; otherwise 0. */
static double stop_rate(const SeqDesign *d, int runs, double sparse, double up, uint64_t seed)
{
    int stopped = 0;
    for (int r = 0; r < runs; r++) {
        Moments m = {0, 0, 0};
        long played = 0;
        for (int look = 0; look < d->nlooks; look++) {
            for (; played < d->rounds[look]; played++) {
                double u = (double)(next(&seed) >> 11) / 9007199254740992.0, x = 0;
                if (u < sparse) {
                    double v = (double)(next(&seed) >> 11) / 9007199254740992.0;
                    x = (next(&seed) % 6 == 0 ? 1 : 0.5) * (v < up ? 1 : -1);
                }
                stats_add(&m, x);
            }
            int k = seq_decide(d, look, &m);
            if (k == SEQ_UP || k == SEQ_DOWN)
                stopped++;
            if (k != SEQ_GO_ON)
                break;
        }
    }
    return (double)stopped / runs;
}

/* The error rate holds where nothing changed (issue 23: an A/A run names a
 * change in about 5% of runs): 4,000 simulated runs each, dense rounds (a
 * difference in every other round) and sparse ones (one round in 20, as
 * three-check against plain chess between greedy and random), against the
 * binomial band 5% +- 1 point (3 standard errors is 1.0 point at n =
 * 4,000), and 0.5 point more on the cautious side: |Z| <= sqrt(rounds that
 * differ), so the first looks, with a handful of such rounds, cannot use
 * the error rate they are allotted.  Sparse rounds make Z lumpy and the
 * test more cautious, not bold.  And where B clearly changes the rounds,
 * it stops. */
static void test_sequential_error_rate(void **state)
{
    (void)state;
    SeqDesign d;
    assert_int_equal(seq_design(&d, 1000, 1, SEQ_POCOCK, SEQ_ALPHA), 0);
    double dense = stop_rate(&d, 4000, 0.5, 0.5, 1);
    printf("A/A, dense: %.4f of runs stopped\n", dense);
    assert_true(dense > 0.035 && dense < 0.06);
    double sparse = stop_rate(&d, 4000, 0.05, 0.5, 2);
    printf("A/A, sparse: %.4f of runs stopped\n", sparse);
    assert_true(sparse > 0.02 && sparse < 0.06);
    double power = stop_rate(&d, 1000, 0.05, 0.8, 3);
    printf("B/A, sparse, 80%% of the differences for B: %.3f stopped\n", power);
    assert_true(power > 0.95);
}

/* ---- The command ---------------------------------------------------------- */

#define CONTAINS(hay, needle)                                                         \
    do {                                                                              \
        if (!strstr((hay), (needle)))                                                 \
            fail_msg("'%s' not found in:\n%s", (needle), (hay));                      \
    } while (0)

static char *run_ok(const char *args)
{
    TuRun r;
    tu_run(&r, args, NULL);
    if (r.status != 0)
        fail_msg("chessvar %s: status %d, %s", args, r.status, r.err);
    free(r.err);
    return r.out;
}

static double num(const Json *o, const char *key)
{
    const Json *j = json_get(o, key);
    assert_non_null(j);
    assert_int_equal(j->type, JSON_NUMBER);
    return j->num;
}

/* issue 23 point 2: King of the Hill shortens games so much (random v
 * random) that the length test stops at once, far before --max-games; the
 * JSON's z is the one recomputed here from its own games (per round,
 * B's mean plies minus A's; Z = sum d / sqrt(sum d^2)), it crossed the
 * boundary at the last look and at no look before. */
static void test_until_stops_early_on_a_big_change(void **state)
{
    (void)state;
    const char *args = "experiment orthodox --seed 3 --until clear:length --max-games 400 "
                       "--json --compare --rules scripts/king_of_the_hill.lua";
    char *out = run_ok(args);
    Error e;
    Json *j = json_parse(out, strlen(out), &e);
    assert_non_null(j);
    const Json *sq = json_get(j, "sequential"), *games = json_get(j, "games");
    assert_non_null(sq);
    assert_string_equal(json_get(sq, "stopped")->str, "boundary");
    assert_string_equal(json_get(sq, "metric")->str, "length");
    long n = (long)num(sq, "games");
    assert_true(n >= 2 && n < 100);
    assert_true(num(json_get(j, "info"), "games") == n);
    assert_int_equal(games->count, 2 * n);
    double plies[2][100] = {{0}};
    for (const Json *g = games->child; g; g = g->next)
        plies[strcmp(json_get(g, "set")->str, "B") == 0][(long)num(g, "index")] =
            num(g, "plies");
    Moments m = {0, 0, 0};
    for (long r = 0; r < n / 2; r++)
        stats_add(&m, (plies[1][2 * r] + plies[1][2 * r + 1]) / 2 -
                          (plies[0][2 * r] + plies[0][2 * r + 1]) / 2);
    double z = m.sum / sqrt(m.sumsq);
    NEAR(num(sq, "z"), z, 1e-5);
    assert_true(z < 0 && -z >= num(sq, "boundary"));
    const Json *h = json_get(sq, "history");
    assert_int_equal(h->count, (int)num(sq, "look"));
    for (const Json *c = h->child; c && c->next; c = c->next)
        assert_true(fabs(num(c, "z")) < num(c, "boundary"));
    json_free(j);
    free(out);
    char *text = run_ok("experiment orthodox --seed 3 --until clear:length --max-games 400 "
                        "--compare --rules scripts/king_of_the_hill.lua");
    CONTAINS(text, "Until clear: the mean length, B - A; at most 400 games per rule set");
    CONTAINS(text, "  Stopped after ");
    CONTAINS(text, "  Verdict: games get shorter under B");
    CONTAINS(text, "\nExperiment: Orthodox chess, ");
    free(text);
}

/* Where nothing changed (B is A: every round's difference is 0) it plays
 * to --max-games and says it found no clear answer; the rest of the report
 * is the ordinary report of the games played: the same as a fixed run of
 * as many games, and `chessvar merge` of its JSON gives that report. */
static void test_until_goes_to_max_games_when_nothing_changes(void **state)
{
    (void)state;
    char *text = run_ok("experiment orthodox --seed 5 --bot white=greedy --until "
                        "clear:white-wins --max-games 41 --compare");
    CONTAINS(text, "Until clear: white's win rate, B - A; at most 40 games per rule set");
    CONTAINS(text, "  Went to the most, 40 games per rule set, without a clear answer: "
                   "z = +0.00");
    CONTAINS(text, "  Verdict: no clear change in white's win rate (white's win rate +0.0 "
                   "points as played).\n\n");
    char *fixed = run_ok("experiment orthodox --seed 5 --bot white=greedy --games 40 "
                         "--compare");
    assert_string_equal(strstr(text, "\n\n") + 2, fixed);
    char *json = run_ok("experiment orthodox --seed 5 --bot white=greedy --until "
                        "clear:white-wins --max-games 41 --compare --json");
    CONTAINS(json, "\"stopped\":\"max_games\"");
    char path[] = "/tmp/chessvar_until_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_true(write(fd, json, strlen(json)) == (ssize_t)strlen(json));
    close(fd);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "merge %s", path);
    char *merged = run_ok(cmd);
    assert_string_equal(merged, fixed);
    unlink(path);
    free(text), free(fixed), free(json), free(merged);
}

/* The games and the decision do not depend on --jobs (issue 23 point 2);
 * without --compare it tests P1's score against 50%. */
static void test_until_same_with_jobs(void **state)
{
    (void)state;
    const char *base = "experiment orthodox --seed 11 --bot white=greedy --until clear "
                       "--max-games 300 --json --compare --rules scripts/three_check.lua";
    char cmd[512];
    char *one = run_ok(base);
    snprintf(cmd, sizeof cmd, "%s --jobs 3", base);
    char *three = run_ok(cmd);
    assert_string_equal(one, three);
    CONTAINS(one, "\"metric\":\"score\""); /* the players differ: the score by default */
    char *alone = run_ok("experiment orthodox --seed 11 --bot white=greedy --until clear "
                         "--max-games 300 --jobs 2");
    CONTAINS(alone, "Until clear: P1 greedy's score against 50%; at most 300 games");
    CONTAINS(alone, "  Verdict: P1 greedy is the stronger player");
    free(one), free(three), free(alone);
}

/* Bad values: one clear message, exit status 2, no report. */
static void test_until_bad_values(void **state)
{
    (void)state;
    static const struct { const char *args, *want; } BAD[] = {
        {"orthodox --until soon --compare", "--until soon: write clear, or clear:METRIC"},
        {"orthodox --until clear:purple-wins --compare",
         "no metric 'purple-wins' (the metrics: white-wins, black-wins, draws, decisive, "
         "length, score)"},
        {"orthodox --until clear:draws", "without --compare there is nothing to compare"},
        {"orthodox --max-games 50", "--max-games 50: it goes with --until clear"},
        {"orthodox --until clear --games 50", "--games with --until"},
        {"orthodox --until clear --seed 1 --shard 1/2", "--shard with --until"},
        {"orthodox --until clear --max-games 1", "--max-games 1: fewer than one round"},
        {"orthodox --until clear --max-games 0", "--max-games 0: give a number from 1 to "
                                                 "100000000"},
        {"orthodox --compare --until clear", "--until after --compare"},
        {"echiquete --seats 3 --until clear:score --compare",
         "the score is P1's against P2, and this game has 3 players"},
        {"echiquete --seats 3 --until clear",
         "without --compare it tests P1's score against 50%, but the score is P1's "
         "against P2, and this game has 3 players"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "experiment %s", BAD[i].args);
        TuRun r;
        tu_run(&r, cmd, NULL);
        if (r.status != 2 || !strstr(r.err, BAD[i].want) || r.out[0])
            fail_msg("chessvar %s: status %d, stderr %s, stdout %s", cmd, r.status, r.err,
                     r.out);
        tu_run_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sequential_normal),
        cmocka_unit_test(test_sequential_classical_constants),
        cmocka_unit_test(test_sequential_spending_boundaries),
        cmocka_unit_test(test_sequential_power_and_fixed_size),
        cmocka_unit_test(test_sequential_statistic),
        cmocka_unit_test(test_sequential_design_and_decision),
        cmocka_unit_test(test_sequential_error_rate),
        cmocka_unit_test(test_until_stops_early_on_a_big_change),
        cmocka_unit_test(test_until_goes_to_max_games_when_nothing_changes),
        cmocka_unit_test(test_until_same_with_jobs),
        cmocka_unit_test(test_until_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
