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
 * the seeds); --jobs only makes it faster.  docs/EXPERIMENTS.md quotes the
 * report; after printing it the bench compares it with that block
 * (tests/support/docblock.h: only the seconds and --jobs may differ) and
 * fails when they differ; CHESSVAR_DOCS_UPDATE=1 rewrites the block.
 * SEQUENTIAL_RUNS (seeds) and SEQUENTIAL_MAX_GAMES (even) change the sizes
 * (test_bench_docs runs it tiny).
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
#include "support/docblock.h"
#include "support/testutil.h"

#define RUNS 100
#define MAX_GAMES 500
#define CHECKED 3 /* seeds on which the command itself is run */

static const char *prog;
static int jobs;
static long rounds; /* rounds played a seed: games a set / 2 */

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
    for (long r = 0; r < rounds; r++)
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

static long env_long(const char *name, long def)
{
    const char *v = getenv(name);
    return v && atol(v) > 0 ? atol(v) : def;
}

/* Compare the report with the block docs/EXPERIMENTS.md quotes: the one of
 * "$ ./build/tests/bench_sequential" at the bench's own sizes (it must be
 * there), else of the command with the sizes set, compared when the docs
 * have one. */
static int docs_check(long runs, long max_games, const char *report)
{
    char cmd[256] = "";
    size_t n = 0;
    if (runs != RUNS)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "SEQUENTIAL_RUNS=%ld ", runs);
    if (max_games != MAX_GAMES)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "SEQUENTIAL_MAX_GAMES=%ld ", max_games);
    snprintf(cmd + n, sizeof cmd - n, "./build/tests/bench_sequential");
    return bench_docs_check(cmd, report, n == 0);
}

int main(void)
{
    prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    jobs = nproc < 1 ? 1 : nproc > 16 ? 16 : (int)nproc;
    long runs = env_long("SEQUENTIAL_RUNS", RUNS);
    long max_games = env_long("SEQUENTIAL_MAX_GAMES", MAX_GAMES);
    if (max_games % 2) {
        printf("bench_sequential: SEQUENTIAL_MAX_GAMES=%ld: give an even number (a round is "
               "two games)\n", max_games);
        return 1;
    }
    long played = max_games + max_games / 10 * 2; /* 600 for 500: a run may need more */
    rounds = played / 2;
    SeqDesign sd;
    if (seq_design(&sd, max_games / 2, 1, SEQ_POCOCK, SEQ_ALPHA)) {
        printf("bench_sequential: no design\n");
        return 1;
    }
    double *d = calloc((size_t)(runs * rounds), sizeof *d);
    double *aa = calloc((size_t)(runs * rounds), sizeof *aa);
    double *ra = calloc((size_t)rounds, sizeof *ra), *rb = calloc((size_t)rounds, sizeof *rb);
    double *other = calloc((size_t)rounds, sizeof *other);
    long *need = calloc((size_t)runs, sizeof *need);
    long *need_found = calloc((size_t)runs, sizeof *need_found);
    if (!d || !aa || !ra || !rb || !other || !need || !need_found) {
        printf("bench_sequential: out of memory\n");
        return 1;
    }
    double t0 = tu_seconds();
    Moments all = {0, 0, 0};
    for (long s = 0; s < runs; s++) {
        char args[512];
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %ld "
                 "--games %ld --json --jobs %d --compare --rules scripts/three_check.lua",
                 s + 1, played, jobs);
        char *out = command(args);
        white_rates(out, "A", ra);
        white_rates(out, "B", rb);
        free(out);
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %ld "
                 "--games %ld --json --jobs %d", s + 1 + runs, max_games, jobs);
        out = command(args);
        white_rates(out, "A", other);
        free(out);
        for (long r = 0; r < rounds; r++) {
            d[s * rounds + r] = rb[r] - ra[r];
            aa[s * rounds + r] = r < max_games / 2 ? other[r] - ra[r] : 0;
            stats_add(&all, d[s * rounds + r]);
        }
    }
    /* the sequential runs */
    int found = 0, false_stops = 0;
    for (long s = 0; s < runs; s++) {
        int f;
        need[s] = 2 * sequential(&sd, d + s * rounds, &f);
        if (f)
            need_found[found++] = need[s];
        sequential(&sd, aa + s * rounds, &f);
        false_stops += f;
    }
    /* the command stops where this bench says */
    long checked = runs < CHECKED ? runs : CHECKED;
    for (long s = 0; s < checked; s++) {
        char args[512];
        snprintf(args, sizeof args, "experiment orthodox --bot white=greedy --seed %ld "
                 "--until clear:white-wins --max-games %ld --json --jobs %d --compare "
                 "--rules scripts/three_check.lua", s + 1, max_games, jobs);
        char *out = command(args);
        char want[64];
        snprintf(want, sizeof want, "\"look_every\":%ld,", 2 * sd.every);
        const char *g = strstr(out, "\"sequential\":");
        const char *games = g ? strstr(g, "\"games\":") : NULL;
        if (!games || !strstr(g, want) || atol(games + 8) != need[s]) {
            printf("bench_sequential: seed %ld: the command did not stop after %ld games a "
                   "set as the bench computed\n", s + 1, need[s]);
            return 1;
        }
        free(out);
    }
    /* the fixed test on the same games: the fewest rounds from which on it
     * finds the change in as many runs (the power of 100 runs wanders from
     * one size to the next; its first lucky size would flatter it) */
    double power = (double)found / (double)runs;
    long fixed = -1;
    for (long n = rounds; n >= 1; n--) {
        int hits = 0;
        for (long s = 0; s < runs; s++) {
            Moments m = {0, 0, 0};
            for (long r = 0; r < n; r++)
                stats_add(&m, d[s * rounds + r]);
            hits += fabs(seq_z(&m)) >= seq_quantile(1 - SEQ_ALPHA / 2);
        }
        if (hits < found)
            break;
        fixed = 2 * n;
    }
    double delta = stats_mean(&all), sdev = stats_sd(&all);
    double theory = 2 * seq_fixed_rounds(SEQ_ALPHA, power < 0.995 ? power : 0.995, delta, sdev);
    qsort(need, (size_t)runs, sizeof *need, cmp_long);
    qsort(need_found, (size_t)found, sizeof *need_found, cmp_long);
    /* the report, kept to be compared with the block the docs quote */
    char *report = NULL;
    size_t report_len = 0;
    FILE *rep = open_memstream(&report, &report_len);
    if (!rep)
        return 1;
    fprintf(rep, "bench_sequential: orthodox, P1 greedy v P2 random, A plain, B three-check; "
            "--until clear:white-wins --max-games %ld (a look every %ld games, %d looks), "
            "seeds 1..%ld\n", max_games, 2 * sd.every, sd.nlooks, runs);
    fprintf(rep, "  the change, in all %ld rounds: %+.2f points of white's win rate (sd of a "
            "round's difference %.3f)\n", all.n, 100 * delta, sdev);
    fprintf(rep, "  sequential: found in %d of %ld runs (power %.0f%%); games a set to stop: "
            "median %ld, quartiles %ld .. %ld (the runs that found it: median %ld, %ld .. %ld)\n",
            found, runs, 100 * power, need[runs / 2], need[runs / 4], need[3 * runs / 4],
            found ? need_found[found / 2] : 0, found ? need_found[found / 4] : 0,
            found ? need_found[3 * found / 4] : 0);
    if (fixed > 0)
        fprintf(rep, "  the fixed-size run with the same power: %ld games a set (the fixed test "
                "on the same games; normal theory: %.0f)\n", fixed, theory);
    else
        fprintf(rep, "  the fixed-size run with the same power: more than %ld games a set "
                "(normal theory: %.0f)\n", played, theory);
    fprintf(rep, "  A/A (B: A on the seeds %ld..%ld): stopped with a verdict in %d of %ld runs "
            "(%.0f%%)\n", runs + 1, 2 * runs, false_stops, runs,
            100.0 * false_stops / (double)runs);
    fprintf(rep, "  (%.0f s with --jobs %d; the command stopped where the bench says on seeds "
            "1..%ld)\n", tu_seconds() - t0, jobs, checked);
    if (fclose(rep) != 0)
        return 1;
    fputs(report, stdout);
    int rc = docs_check(runs, max_games, report);
    free(report);
    free(d);
    free(aa);
    free(ra);
    free(rb);
    free(other);
    free(need);
    free(need_found);
    return rc;
}
