/*
 * bench_jobs.c -- `make bench`: the speed-up of `chessvar experiment
 * --jobs 2` over `--jobs 1` (issue 12: "close to 2x with two jobs"), on
 * the same experiment (orthodox, random v random, and greedy v random),
 * run as a user runs it; the two reports must be the same bytes.
 *
 * This machine's speed wanders by a third from one second to the next, so
 * the two are run alternately three times and each keeps its best time.
 *
 * Invariant: measures the program (./chessvar, or $CHESSVAR) end to end:
 * process start, workers, pipes and the report are all in the time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "support/testutil.h"

#define ROUNDS 3

int main(void)
{
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    static const struct { const char *args; int games; } runs[] = {
        {"orthodox --seed 1", 3000},
        {"orthodox --seed 1 --bot white=greedy", 2000},
    };
    static char out1[1 << 16], out2[1 << 16];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char cmd[512];
        double t1 = 0, t2 = 0;
        for (int round = 0; round < ROUNDS; round++) { /* alternating; the best of each */
            snprintf(cmd, sizeof cmd, "%s experiment %s --games %d --jobs 1", prog,
                     runs[i].args, runs[i].games);
            double a = tu_timed_command(cmd, out1, sizeof out1);
            snprintf(cmd, sizeof cmd, "%s experiment %s --games %d --jobs 2", prog,
                     runs[i].args, runs[i].games);
            double b = tu_timed_command(cmd, out2, sizeof out2);
            if (a < 0 || b < 0) {
                printf("bench_jobs: %s failed\n", cmd);
                return 1;
            }
            t1 = round == 0 || a < t1 ? a : t1;
            t2 = round == 0 || b < t2 ? b : t2;
        }
        if (strcmp(out1, out2) != 0) {
            printf("bench_jobs: --jobs 2 reported other figures than --jobs 1 (%s)\n",
                   runs[i].args);
            return 1;
        }
        printf("experiment %-38s %5d games: --jobs 1 %6.2f s (%6.0f games/s), --jobs 2 "
               "%6.2f s (%6.0f games/s): speed-up x%.2f (best of 3)\n", runs[i].args, runs[i].games,
               t1, runs[i].games / t1, t2, runs[i].games / t2, t1 / t2);
    }
    return 0;
}
