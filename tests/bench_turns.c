/*
 * bench_turns.c -- `make bench`: what a schedule costs (issue 25, "Speed":
 * perft of Monster chess and Marseillais through the scripts, and search
 * nodes per second, against the plain orthodox figures of the same run).
 * Everything is measured as a user runs it, through ./chessvar (or
 * $CHESSVAR):
 *   - perft: `chessvar perft orthodox --depth N` (the hand-written engine's
 *     fast path), the same with a script whose reaction does nothing (the
 *     price of any reaction: perft then pushes every action and runs the
 *     hook in the push), and with `--rules scripts/monster.lua` and
 *     `--rules scripts/marseillais.lua` (every action a ply, the schedule's
 *     reaction run in each push), in nodes per second and as ratios to
 *     orthodox and to the reaction that does nothing;
 *   - search: an experiment of search:2000 against search:2000, seed 1,
 *     each game cut at 60 plies, without a rule and with each script; a
 *     decision of search:2000 spends its 2,000 nodes (the deepening stops
 *     only at 32 plies), so nodes per second = 2,000 x plies / seconds,
 *     and the ratio to orthodox is that of the time a ply.
 *
 * This machine's speed wanders, so the runs are interleaved three times
 * and each keeps its best time.
 *
 * Invariant: every perft count is checked (orthodox's against the
 * published one; Marseillais' against tests/test_house_turns.c's counter,
 * the same as orthodox's by colour symmetry; Monster's against its own
 * count of the first round); a run that fails or a report without its
 * length line makes the exit status 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "support/testutil.h"

#define ROUNDS 3
#define GAMES 4
#define BUDGET 2000
#define MAX_PLIES 60

/* The "Nodes searched: N" of a perft's output, or 0. */
static uint64_t nodes_of(const char *out)
{
    const char *p = strstr(out, "Nodes searched: ");
    return p ? strtoull(p + strlen("Nodes searched: "), NULL, 10) : 0;
}

/* The mean game length an experiment's report gives, or -1. */
static double mean_plies(const char *report)
{
    const char *p = strstr(report, "Game length (plies)");
    double m;
    if (!p || sscanf(p + strlen("Game length (plies)"), "%lf", &m) != 1 || m <= 0)
        return -1;
    return m;
}

/* A script whose reaction does nothing, written for the run. */
static char NOOP[] = "/tmp/chessvar-bench-noopXXXXXX";

int main(void)
{
    int fd = mkstemp(NOOP);
    static const char text[] =
        "rule { name = 'no-op reaction', react = function(game, action) end }\n";
    if (fd < 0 || write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1)) {
        printf("bench_turns: cannot write %s\n", NOOP);
        return 1;
    }
    close(fd);
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    static const struct {
        const char *name, *script;
        int depth;
        uint64_t published; /* 0: none (the first round's count stands) */
    } perfts[] = {
        {"orthodox", NULL, 6, 119060324ULL},
        {"no-op reaction", NOOP, 5, 4865609ULL},
        {"Monster chess", "scripts/monster.lua", 5, 0},
        {"Marseillais", "scripts/marseillais.lua", 4, 197281ULL},
    };
    static const struct { const char *name, *script; } searches[] = {
        {"orthodox", NULL},
        {"no-op reaction", NOOP},
        {"Monster chess", "scripts/monster.lua"},
        {"Marseillais", "scripts/marseillais.lua"},
    };
    enum { NP = sizeof perfts / sizeof perfts[0], NS = sizeof searches / sizeof searches[0] };
    double pbest[NP] = {0}, sbest[NS] = {0}, plies[NS] = {0};
    uint64_t count[NP] = {0};
    static char out[1 << 16];
    int bad = 0;
    for (int round = 0; round < ROUNDS && !bad; round++) {
        for (int i = 0; i < NP && !bad; i++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd, "%s perft orthodox --depth %d%s%s", prog,
                     perfts[i].depth, perfts[i].script ? " --rules " : "",
                     perfts[i].script ? perfts[i].script : "");
            double t = tu_timed_command(cmd, out, sizeof out);
            uint64_t n = nodes_of(out);
            uint64_t want = perfts[i].published ? perfts[i].published : count[i];
            if (t < 0 || n == 0 || (want && n != want)) {
                printf("bench_turns: %s gave %" PRIu64 " nodes (expected %" PRIu64 ")\n", cmd,
                       n, want);
                bad = 1;
            }
            count[i] = n;
            pbest[i] = round == 0 || t < pbest[i] ? t : pbest[i];
        }
        for (int i = 0; i < NS && !bad; i++) {
            char cmd[512];
            snprintf(cmd, sizeof cmd,
                     "%s experiment orthodox --games %d --seed 1 --max-plies %d --bot "
                     "white=search:%d --bot black=search:%d%s%s", prog, GAMES, MAX_PLIES, BUDGET,
                     BUDGET, searches[i].script ? " --rules " : "",
                     searches[i].script ? searches[i].script : "");
            double t = tu_timed_command(cmd, out, sizeof out);
            double m = mean_plies(out);
            if (t < 0 || m < 0) {
                printf("bench_turns: %s failed\n", cmd);
                bad = 1;
            }
            plies[i] = m;
            sbest[i] = round == 0 || t < sbest[i] ? t : sbest[i];
        }
    }
    unlink(NOOP);
    if (bad)
        return 1;
    double base = (double)count[0] / pbest[0], noop = (double)count[1] / pbest[1];
    for (int i = 0; i < NP; i++) {
        double nps = (double)count[i] / pbest[i];
        printf("turns perft %d, %-14s %10" PRIu64 " nodes in %6.3f s = %7.3f M nodes/s"
               " (x%.4f of orthodox, x%.2f of the no-op reaction; best of %d)\n",
               perfts[i].depth, perfts[i].name, count[i], pbest[i], nps / 1e6, nps / base,
               nps / noop, ROUNDS);
    }
    double sbase = BUDGET * plies[0] * GAMES / sbest[0];
    double snoop = BUDGET * plies[1] * GAMES / sbest[1];
    for (int i = 0; i < NS; i++) {
        double nps = BUDGET * plies[i] * GAMES / sbest[i];
        printf("turns search:%d v search:%d, %d games, at most %d plies, %-14s %5.1f plies "
               "a game, %6.2f s = %5.0f k nodes/s (x%.3f of orthodox, x%.2f of the no-op "
               "reaction; best of %d)\n", BUDGET, BUDGET, GAMES, MAX_PLIES, searches[i].name,
               plies[i], sbest[i], nps / 1e3, nps / sbase, nps / snoop, ROUNDS);
    }
    return 0;
}
