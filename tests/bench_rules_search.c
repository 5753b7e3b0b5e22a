/*
 * bench_rules_search.c -- `make bench`: what a house rule costs the search
 * bot (issue 20 point 7: "search with King of the Hill or three-check
 * within x2 of no rule, atomic within x3").  The same experiment as a user
 * runs it -- 20 games of search:2000 against greedy, seed 1 -- without a
 * rule and with each shipped script: the time of each run as a ratio to
 * the run without a rule (the measure, which its goals are of),
 * and beside it the time per ply, a ratio too (the rules change how long
 * games last: atomic's end in a few plies).
 *
 * This machine's speed wanders, so the runs are interleaved three times
 * and each keeps its best time.
 *
 * Invariant: measures the program (./chessvar, or $CHESSVAR) end to end;
 * a run that fails, or a report without its length line, fails the bench.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "support/testutil.h"

#define ROUNDS 3
#define GAMES 20

/* The mean game length the report gives, or -1. */
static double mean_plies(const char *report)
{
    const char *p = strstr(report, "Game length (plies)");
    double m;
    if (!p || sscanf(p + strlen("Game length (plies)"), "%lf", &m) != 1 || m <= 0)
        return -1;
    return m;
}

int main(void)
{
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    static const struct { const char *name, *script; double goal; } runs[] = {
        {"no rule", NULL, 1},
        {"King of the Hill", "scripts/king_of_the_hill.lua", 2},
        {"three-check", "scripts/three_check.lua", 2},
        {"atomic", "scripts/atomic.lua", 3},
    };
    enum { N = sizeof runs / sizeof runs[0] };
    double best[N] = {0}, plies[N] = {0};
    static char out[1 << 16];
    for (int round = 0; round < ROUNDS; round++) {
        for (int i = 0; i < N; i++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd,
                     "%s experiment orthodox --games %d --seed 1 --bot white=search:2000 "
                     "--bot black=greedy%s%s", prog, GAMES, runs[i].script ? " --rules " : "",
                     runs[i].script ? runs[i].script : "");
            double t = tu_timed_command(cmd, out, sizeof out);
            double m = mean_plies(out);
            if (t < 0 || m < 0) {
                printf("bench_rules_search: %s failed\n", cmd);
                return 1;
            }
            plies[i] = m;
            best[i] = round == 0 || t < best[i] ? t : best[i];
        }
    }
    /* The measure is the run's time (its goals are of it); the
     * time a ply is printed beside it, since a rule changes how long the
     * games last (atomic's end in a few plies). */
    double base = best[0] / (plies[0] * GAMES);
    for (int i = 0; i < N; i++) {
        double per_ply = best[i] / (plies[i] * GAMES);
        printf("search:2000 v greedy, %d games, %-17s %6.2f s = x%.2f of no rule", GAMES,
               runs[i].name, best[i], best[i] / best[0]);
        if (i > 0)
            printf(" (goal: within x%.0f)", runs[i].goal);
        printf("; %5.1f plies a game, %6.3f ms a ply = x%.2f (best of %d)\n", plies[i],
               per_ply * 1e3, per_ply / base, ROUNDS);
    }
    return 0;
}
