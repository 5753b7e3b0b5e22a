/*
 * bench_sequential.c -- `make bench`: the calibration of `chessvar
 * experiment --until clear` (issue 23 point 2, "Done when": the games the
 * sequential mode needs, in docs/EXPERIMENTS.md).
 *
 * The example: orthodox chess, P1 greedy v P2 random, A the plain
 * rules, B scripts/three_check.lua, the metric white's win rate, with
 * --until clear:white-wins --max-games 500, over the seeds 1..100:
 *   - each seed's games are played once, as a fixed run of 600 games a
 *     set (the games of game i do not depend on how many are played), and
 *     the sequential decision is taken on their first rounds look by look,
 *     as the command takes it (checked: the command itself, on seeds 1..3,
 *     stops where this bench says);
 *   - the power and the games needed to stop (median, quartiles);
 *   - the fixed-size run with the same power: the fewest games a set from
 *     which on the fixed test (|Z| >= 1.96, the same Z, one look) finds the
 *     change in as many of the same 100 runs, and the normal theory's
 *     figure from the change and spread measured in all the games;
 *   - the A/A error rate: B is A played from other seeds (101..200), so the
 *     games differ and their distribution does not (the same rules on the
 *     same seeds would give the same games, differences all 0).
 * Deterministic: the same figures on any machine (the games depend only on
 * the seeds); --jobs only makes it faster.
 *
 * Invariant: measures the program (./chessvar, or $CHESSVAR) as a user
 * runs it, and the decision with core/lab/sequential.c, the code the
 * command uses.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/lab/sequential.h"
#include "support/testutil.h"

#define RUNS 100
#define MAX_GAMES 500
#define PLAYED 600 /* games a set played per seed: up to 300 rounds */
#define ROUNDS (PLAYED / 2)

static const char *prog;
static int jobs;

static char *command(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s %s", prog, args);
    FILE *f = popen(cmd, "r");
    char *out = f ? tu_read_stream(f) : NULL;
    if (!f || pclose(f) != 0 || !out) {
        printf("bench_sequential: %s failed\n", cmd);
        exit(1);
    }
    return out;
}

/* White's win rate per round of set `set` ("A", "B") in a --json run. */
static void white_rates(const char *json, const char *set, double *rate)
{
    Error e;
    Json *j = json_parse(json, strlen(json), &e);
    if (!j) {
        printf("bench_sequential: bad JSON: %s\n", e.msg);
        exit(1);
    }
    for (int r = 0; r < ROUNDS; r++)
        rate[r] = 0;
    for (const Json *g = json_get(j, "games")->child; g; g = g->next) {
        if (strcmp(json_get(g, "set")->str, set) != 0)
            continue;
        long i = (long)json_get(g, "index")->num;
        const char *white = json_get(g, "seat_results")->child->str;
        rate[i / 2] += strcmp(white, "win") == 0 ? 0.5 : 0;
    }
    json_free(j);
}

/* The sequential decision on the differences d: the rounds played and
 * whether it stopped with a verdict. */
static long sequential(const SeqDesign *sd, const double *d, int *found)
{
    Moments m = {0, 0, 0};
    long r = 0;
    for (int look = 0; look < sd->nlooks; look++) {
        for (; r < sd->rounds[look]; r++)
            stats_add(&m, d[r]);
        int k = seq_decide(sd, look, &m);
        if (k != SEQ_GO_ON) {
            *found = k == SEQ_UP || k == SEQ_DOWN;
            return r;
        }
    }
    *found = 0;
    return r;
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = nproc < 1 ? 1 : nproc > 16 ? 16 : (int)nproc;
    SeqDesign sd;
    if (seq_design(&sd, MAX_GAMES / 2, 1, SEQ_POCOCK, SEQ_ALPHA)) {
        printf("bench_sequential: no design\n");
        return 1;
    }
    static double d[RUNS][ROUNDS], aa[RUNS][ROUNDS];
    double t0 = tu_seconds();
    Moments all = {0, 0, 0};
    for (int s = 0; s < RUNS; s++) {
        char args[512];
        double ra[ROUNDS], rb[ROUNDS], other[ROUNDS];
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %d "
                 "--games %d --json --jobs %d --compare --rules scripts/three_check.lua",
                 s + 1, PLAYED, jobs);
        char *out = command(args);
        white_rates(out, "A", ra);
        white_rates(out, "B", rb);
        free(out);
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %d "
                 "--games %d --json --jobs %d", s + 1 + RUNS, MAX_GAMES, jobs);
        out = command(args);
        white_rates(out, "A", other);
        free(out);
        for (int r = 0; r < ROUNDS; r++) {
            d[s][r] = rb[r] - ra[r];
            aa[s][r] = r < MAX_GAMES / 2 ? other[r] - ra[r] : 0;
            stats_add(&all, d[s][r]);
        }
    }
    /* the sequential runs */
    long need[RUNS], need_found[RUNS];
    int found = 0, false_stops = 0;
    for (int s = 0; s < RUNS; s++) {
        int f;
        need[s] = 2 * sequential(&sd, d[s], &f);
        if (f)
            need_found[found++] = need[s];
        sequential(&sd, aa[s], &f);
        false_stops += f;
    }
    /* the command stops where this bench says */
    for (int s = 0; s < 3; s++) {
        char args[512];
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %d "
                 "--until clear:white-wins --max-games %d --json --jobs %d --compare "
                 "--rules scripts/three_check.lua", s + 1, MAX_GAMES, jobs);
        char *out = command(args);
        char want[64];
        snprintf(want, sizeof want, "\"look_every\":%ld,", 2 * sd.every);
        const char *g = strstr(out, "\"sequential\":");
        const char *games = g ? strstr(g, "\"games\":") : NULL;
        if (!games || !strstr(g, want) || atol(games + 8) != need[s]) {
            printf("bench_sequential: seed %d: the command did not stop after %ld games a "
                   "set as the bench computed\n", s + 1, need[s]);
            return 1;
        }
        free(out);
    }
    /* the fixed test on the same games: the fewest rounds from which on it
     * finds the change in as many runs (the power of 100 runs wanders from
     * one size to the next; its first lucky size would flatter it) */
    double power = (double)found / RUNS;
    long fixed = -1;
    for (int n = ROUNDS; n >= 1; n--) {
        int hits = 0;
        for (int s = 0; s < RUNS; s++) {
            Moments m = {0, 0, 0};
            for (int r = 0; r < n; r++)
                stats_add(&m, d[s][r]);
            hits += fabs(seq_z(&m)) >= seq_quantile(1 - SEQ_ALPHA / 2);
        }
        if (hits < found)
            break;
        fixed = 2L * n;
    }
    double delta = stats_mean(&all), sdev = stats_sd(&all);
    double theory = 2 * seq_fixed_rounds(SEQ_ALPHA, power < 0.995 ? power : 0.995, delta, sdev);
    qsort(need, RUNS, sizeof *need, cmp_long);
    qsort(need_found, (size_t)found, sizeof *need_found, cmp_long);
    printf("bench_sequential: orthodox, P1 greedy v P2 random, A plain, B three-check; "
           "--until clear:white-wins --max-games %d (a look every %ld games, %d looks), "
           "seeds 1..%d\n", MAX_GAMES, 2 * sd.every, sd.nlooks, RUNS);
    printf("  the change, in all %ld rounds: %+.2f points of white's win rate (sd of a round's "
           "difference %.3f)\n", all.n, 100 * delta, sdev);
    printf("  sequential: found in %d of %d runs (power %.0f%%); games a set to stop: median "
           "%ld, quartiles %ld .. %ld (the runs that found it: median %ld, %ld .. %ld)\n",
           found, RUNS, 100 * power, need[RUNS / 2], need[RUNS / 4], need[3 * RUNS / 4],
           found ? need_found[found / 2] : 0, found ? need_found[found / 4] : 0,
           found ? need_found[3 * found / 4] : 0);
    if (fixed > 0)
        printf("  the fixed-size run with the same power: %ld games a set (the fixed test on "
               "the same games; normal theory: %.0f)\n", fixed, theory);
    else
        printf("  the fixed-size run with the same power: more than %d games a set (normal "
               "theory: %.0f)\n", PLAYED, theory);
    printf("  A/A (B: A on the seeds %d..%d): stopped with a verdict in %d of %d runs "
           "(%.0f%%)\n", RUNS + 1, 2 * RUNS, false_stops, RUNS, 100.0 * false_stops / RUNS);
    printf("  (%.0f s with --jobs %d; the command stopped where the bench says on seeds "
           "1..3)\n", tu_seconds() - t0, jobs);
    return 0;
}
