/*
 * bench_perft.c -- `make bench`: orthodox perft speed against Debian's
 * stockfish, plus deeper perft counts than `make test` can afford.
 *
 * Invariant: both engines are timed the same way (CLOCK_MONOTONIC around
 * one perft 6 from the start position, single-threaded); stockfish's clock
 * starts when "go perft 6" is sent, after it answered "readyok", and stops
 * at its "Nodes searched" line.  Any wrong count makes the exit status 1.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/game.h"
#include "../variants/orthodox/chess.h"
#include "../variants/orthodox/orthodox.h"
#include "support/testutil.h"

#define START_NODES_6 119060324ULL

/* /usr/games/stockfish, else the first stockfish on PATH, into found. */
static const char *find_stockfish(char *found, size_t size)
{
    if (access("/usr/games/stockfish", X_OK) == 0)
        return "/usr/games/stockfish";
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    for (const char *d = path; *d;) {
        size_t n = strcspn(d, ":");
        if (n > 0 && n + 11 < size) {
            memcpy(found, d, n);
            strcpy(found + n, "/stockfish");
            if (access(found, X_OK) == 0)
                return found;
        }
        d += n;
        if (*d == ':')
            d++;
    }
    return NULL;
}

typedef struct Engine {
    pid_t pid;
    FILE *in;   /* we write commands here */
    FILE *out;  /* we read its answers here */
} Engine;

static int engine_start(Engine *en, const char *exe)
{
    int to_child[2], from_child[2];
    if (pipe(to_child) < 0)
        return -1;
    if (pipe(from_child) < 0) {
        close(to_child[0]);
        close(to_child[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        close(to_child[1]);
        close(from_child[0]);
        execl(exe, exe, (char *)NULL);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    en->pid = pid;
    en->in = fdopen(to_child[1], "w");
    en->out = fdopen(from_child[0], "r");
    return en->in && en->out ? 0 : -1;
}

static void engine_send(Engine *en, const char *cmd)
{
    fputs(cmd, en->in);
    fflush(en->in);
}

/* Read lines until one starts with `prefix`; copies it to line. */
static int engine_wait(Engine *en, const char *prefix, char *line, size_t n)
{
    while (fgets(line, (int)n, en->out))
        if (strncmp(line, prefix, strlen(prefix)) == 0)
            return 0;
    return -1;
}

static void engine_stop(Engine *en)
{
    if (en->in) {
        fputs("quit\n", en->in);
        fclose(en->in);
    }
    if (en->out)
        fclose(en->out);
    int status;
    waitpid(en->pid, &status, 0);
}

/* Stockfish's perft 6 nodes/s, or 0 when it is not there or misbehaves. */
static double bench_stockfish(void)
{
    char path_buf[4096];
    const char *exe = find_stockfish(path_buf, sizeof path_buf);
    if (!exe) {
        printf("stockfish: NOT AVAILABLE (install Debian's stockfish: make deps-bench); "
               "no ratio\n");
        return 0;
    }
    Engine en = {0, NULL, NULL};
    char line[512];
    if (engine_start(&en, exe) < 0) {
        printf("stockfish: could not start %s\n", exe);
        return 0;
    }
    engine_send(&en, "uci\n");
    if (engine_wait(&en, "uciok", line, sizeof line) < 0) {
        printf("stockfish: %s did not answer uciok\n", exe);
        engine_stop(&en);
        return 0;
    }
    engine_send(&en, "setoption name Threads value 1\nposition startpos\nisready\n");
    if (engine_wait(&en, "readyok", line, sizeof line) < 0) {
        printf("stockfish: %s did not answer readyok\n", exe);
        engine_stop(&en);
        return 0;
    }
    double t0 = tu_seconds();
    engine_send(&en, "go perft 6\n");
    int rc = engine_wait(&en, "Nodes searched", line, sizeof line);
    double secs = tu_seconds() - t0;
    engine_stop(&en);
    unsigned long long nodes = 0;
    if (rc < 0 || sscanf(line, "Nodes searched: %llu", &nodes) != 1) {
        printf("stockfish: no \"Nodes searched\" line\n");
        return 0;
    }
    double nps = (double)nodes / secs;
    printf("stockfish (%s) perft 6: %llu nodes in %.3f s = %.1f M nodes/s%s\n", exe, nodes,
           secs, nps / 1e6, nodes == START_NODES_6 ? "" : " (WRONG COUNT)");
    return nps;
}

typedef struct DeepCase {
    const char *name, *fen;
    int depth;
    uint64_t nodes;
} DeepCase;

static const DeepCase DEEP[] = {
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     5, 193690690},
    {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7, 178633661},
    {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     5, 15833292},
    {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 5, 89941194},
    {"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     5, 164075551},
};

/* The other variants' action trees (docs/MASQUES.md and docs/AMBIGUS.md,
 * "Perft positions"), fast path then the core's generic path. */
static int bench_variants(void)
{
    static const struct {
        const char *variant, *name, *position, *param;
        int depth;
        uint64_t nodes;
    } CASES[] = {
        {"masques", "masques P1", "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/"
         "P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1", "allin=4", 4, 1700471},
        {"ambigus", "ambigus A1", NULL, NULL, 6, 6258768},
        {"ambigus", "ambigus A2", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/"
         "R3K2R w - - 0 1", NULL, 5, 2015852},
        /* L'Échiqueté beside orthodox on the same position and depth: the
         * reference for its speed is measured in the same run */
        {"orthodox", "orthodox K4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/"
         "R3K2R w KQkq - 0 1", NULL, 4, 4085603},
        {"echiquete", "echiquete K4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/"
         "R3K2R w KQkq - 0 1", NULL, 4, 5770226},
    };
    double speed[16][2] = {{0}}; /* M nodes/s, fast and generic, per case */
    int bad = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        GameConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.variant = variant_find(CASES[i].variant);
        cfg.position = CASES[i].position;
        Error e;
        if (cfg.variant && CASES[i].param) {
            params_defaults(cfg.variant, &cfg.params);
            cfg.params_set = 1;
            if (params_set(cfg.variant, &cfg.params, CASES[i].param, &e)) {
                printf("%s: %s\n", CASES[i].name, e.msg);
                bad = 1;
                continue;
            }
        }
        Game *g = cfg.variant ? game_new(&cfg, &e) : NULL;
        if (!g) {
            printf("%s: cannot start: %s\n", CASES[i].name, e.msg);
            bad = 1;
            continue;
        }
        for (int generic = 0; generic < 2; generic++) {
            double t0 = tu_seconds();
            uint64_t n = generic ? game_perft_generic(g, CASES[i].depth)
                                 : game_perft(g, CASES[i].depth);
            double secs = tu_seconds() - t0;
            int ok = n == CASES[i].nodes;
            printf("%-12s perft %d (%s): %10" PRIu64 " nodes in %6.3f s = %5.1f M nodes/s %s\n",
                   CASES[i].name, CASES[i].depth, generic ? "generic" : "fast", n, secs,
                   (double)n / secs / 1e6, ok ? "ok" : "MISMATCH");
            if (i < 16)
                speed[i][generic] = (double)n / secs / 1e6;
            bad |= !ok;
        }
        game_free(g);
    }
    size_t orth = sizeof CASES / sizeof CASES[0] - 2, echq = orth + 1;
    printf("echiquete / orthodox on the same position, same run: fast x%.2f, "
           "generic x%.2f (aim: generic at least x0.5)\n",
           speed[echq][0] / speed[orth][0], speed[echq][1] / speed[orth][1]);
    return bad;
}

/* Perft through the public game API: what `chessvar perft` runs. */
static uint64_t game_api_perft(const char *fen, int depth, int *bad)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = &orthodox_variant;
    cfg.position = fen;
    Error e;
    Game *g = game_new(&cfg, &e);
    if (!g) {
        printf("bad position: %s\n", e.msg);
        *bad = 1;
        return 0;
    }
    uint64_t n = game_perft(g, depth);
    game_free(g);
    return n;
}

int main(void)
{
    int bad = 0;
    double t0 = tu_seconds();
    uint64_t nodes = game_api_perft(NULL, 6, &bad);
    double secs = tu_seconds() - t0;
    double nps = (double)nodes / secs;
    printf("chessvar perft 6: %" PRIu64 " nodes in %.3f s = %.1f M nodes/s%s\n", nodes, secs,
           nps / 1e6, nodes == START_NODES_6 ? "" : " (WRONG COUNT)");
    bad |= nodes != START_NODES_6;

    signal(SIGPIPE, SIG_IGN);   /* a dying stockfish must not kill the bench */
    double sf = bench_stockfish();
    if (sf > 0)
        printf("ratio chessvar/stockfish: %.2f\n", nps / sf);

    for (size_t i = 0; i < sizeof DEEP / sizeof DEEP[0]; i++) {
        t0 = tu_seconds();
        nodes = game_api_perft(DEEP[i].fen, DEEP[i].depth, &bad);
        secs = tu_seconds() - t0;
        int ok = nodes == DEEP[i].nodes;
        printf("%-11s perft %d: %11" PRIu64 " nodes in %6.3f s = %5.1f M nodes/s %s\n",
               DEEP[i].name, DEEP[i].depth, nodes, secs, (double)nodes / secs / 1e6,
               ok ? "ok" : "MISMATCH");
        if (!ok) {
            printf("  expected %" PRIu64 "\n", DEEP[i].nodes);
            bad = 1;
        }
    }
    /* The core's generic legal/apply path (what variants without a fast
     * perft get): same count, no bulk counting. */
    {
        GameConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.variant = &orthodox_variant;
        Error e;
        Game *g = game_new(&cfg, &e);
        t0 = tu_seconds();
        nodes = g ? game_perft_generic(g, 5) : 0;
        secs = tu_seconds() - t0;
        int ok = nodes == 4865609ULL;
        printf("generic core path perft 5: %" PRIu64 " nodes in %.3f s = %.1f M nodes/s %s\n",
               nodes, secs, (double)nodes / secs / 1e6, ok ? "ok" : "MISMATCH");
        bad |= !ok;
        game_free(g);
    }
    bad |= bench_variants();
    if (bad)
        printf("bench: FAILED (wrong perft count)\n");
    return bad;
}
