/*
 * bench_jobs.c -- `make bench`: how `chessvar experiment --jobs N` scales
 * (issue 12: "close to 2x with two jobs"; issue 23 point 4: x14 aimed for
 * at 16), for N = 1, 2, 4, 8, 16 up to the cores this machine has (it
 * prints the cores it saw and the N it leaves out), on four experiments
 * run as a user runs them: orthodox random v random, greedy v random,
 * search:2000 v greedy, and the same under scripts/king_of_the_hill.lua.
 * Every N must print the same bytes as --jobs 1.
 *
 * This machine's speed wanders by a third from one second to the next, so
 * the N are run in turn three times and each keeps its best time; the
 * speed-ups are ratios of times of the same rounds.
 *
 * Invariant: measures the program (./chessvar, or $CHESSVAR) end to end:
 * process start, workers, their sockets and the report are all in the time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "support/testutil.h"

#define ROUNDS 3
#define MAX_N 5

int main(void)
{
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    static const struct { const char *label, *args; int games; } runs[] = {
        {"random v random", "orthodox --seed 1", 20000},
        {"greedy v random", "orthodox --seed 1 --bot white=greedy", 4000},
        {"search v greedy", "orthodox --seed 1 --bot white=search:2000 --bot black=greedy", 160},
        {"search v greedy, King of the Hill",
         "orthodox --seed 1 --bot white=search:2000 --bot black=greedy "
         "--rules scripts/king_of_the_hill.lua", 120},
    };
    static const int all_n[MAX_N] = {1, 2, 4, 8, 16};
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nn = 0;
    while (nn < MAX_N && all_n[nn] <= (cores > 1 ? cores : 2))
        nn++;
    printf("cores seen: %ld; --jobs", cores);
    for (int k = 0; k < nn; k++)
        printf(" %d", all_n[k]);
    if (nn < MAX_N) {
        printf(" measured, --jobs");
        for (int k = nn; k < MAX_N; k++)
            printf(" %d", all_n[k]);
        printf(" not (more than the cores)");
    }
    printf("\n");
    static char first[1 << 16], out[1 << 16];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char cmd[512];
        double best[MAX_N];
        for (int round = 0; round < ROUNDS; round++) /* the N in turn; the best of each */
            for (int k = 0; k < nn; k++) {
                snprintf(cmd, sizeof cmd, "%s experiment %s --games %d --jobs %d", prog,
                         runs[i].args, runs[i].games, all_n[k]);
                double t = tu_timed_command(cmd, round == 0 && k == 0 ? first : out,
                                            sizeof out);
                if (t < 0) {
                    printf("bench_jobs: %s failed\n", cmd);
                    return 1;
                }
                if ((round || k) && strcmp(out, first) != 0) {
                    printf("bench_jobs: --jobs %d reported other figures than --jobs 1 (%s)\n",
                           all_n[k], runs[i].args);
                    return 1;
                }
                best[k] = round == 0 || t < best[k] ? t : best[k];
            }
        printf("experiment %s, %d games (%s):\n", runs[i].label, runs[i].games, runs[i].args);
        for (int k = 0; k < nn; k++)
            printf("  --jobs %-2d %7.2f s = %8.1f games/s, speed-up x%.2f\n", all_n[k], best[k],
                   runs[i].games / best[k], best[0] / best[k]);
    }
    printf("(each the best of %d rounds; the same report for every N)\n", ROUNDS);
    return 0;
}
