/*
 * bench_games.c -- `make bench`: random self-play games per second for
 * every variant (issue 12): orthodox, Masqués, Ambigus, Échiqueté with 2
 * and 3 seats, Tile with 2, 4 and 6 sides.  Three paths in one run:
 *   core  the legal list of the seat to act, an action drawn from it,
 *         game_apply (every rule, draw rules included, checked at every
 *         ply by the core's status);
 *   bot   the random bot (core/lab/bot.h): the same, but through the seat's
 *         BotInput (its View, legal list and messages built each ply);
 *   playout  game_playout: the same draws, on a copy, without history
 *         texts or messages (the same games: tests/test_bot.c);
 *   command (orthodox) `chessvar experiment orthodox` random v random, as
 *         people run it (issue 23 point 4): the process, its setup, every
 *         game's start and the report are in the time.
 * Each game runs to its end or 2,000 plies; the figures are games/s and
 * plies/s, and for orthodox the ratios to chess.js playing random games
 * in node (tests/bench_chessjs.cjs: moves(), move(), isGameOver() a ply),
 * measured in the same run when make bench could install it
 * (build/chessjs), else to the figure of 6 games/s, said so, and
 * the command's to the playout's.  This machine's speed wanders by a third
 * from one second to the next, so the orthodox playout and command (4,000
 * games each) are measured three times, each round right after a round of
 * chess.js, and each keeps its best round.
 *
 * Invariant: every game is played by the public API only, and a failed
 * action stops the bench with exit status 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/lab/bot.h"
#include "../core/game.h"
#include "support/testutil.h"

#define MAX_PLIES 2000

typedef struct Config {
    const char *label, *variant;
    int nsides, nseats;
    int games;
    int rounds;  /* the playout measured this many times, the best kept */
} Config;

/* One random game from seed; its plies, or -1 on a failure. */
enum { PATH_CORE, PATH_BOT, PATH_PLAYOUT };
static const char *const PATHS[] = {"core", "bot", "playout"};

static int random_game(const Config *c, uint64_t seed, int path)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find(c->variant);
    cfg.nsides = c->nsides;
    cfg.nseats = c->nseats;
    cfg.seed = seed;
    Error e;
    Game *g = game_new(&cfg, &e);
    if (!g) {
        printf("bench_games: %s: %s\n", c->label, e.msg);
        return -1;
    }
    Rng rng;
    rng_seed(&rng, seed * 7919 + 1);
    if (path == PATH_PLAYOUT) {
        Status st;
        int n = game_playout(g, &rng, MAX_PLIES, &st);
        game_free(g);
        if (n < 0)
            printf("bench_games: %s, seed %" PRIu64 ": playout failed\n", c->label, seed);
        return n;
    }
    int use_bot = path == PATH_BOT;
    ActionList l = ACTIONLIST_INIT;
    int plies = 0;
    for (; plies < MAX_PLIES; plies++) {
        int seat = game_to_act(g);
        if (seat < 0)
            break;
        int rc;
        if (use_bot) {
            rc = bot_play(g, seat, BOT_RANDOM, &rng, NULL, &e);
        } else {
            al_clear(&l);
            game_legal_play(g, &l);
            rc = l.n ? game_apply(g, &l.v[rng_below(&rng, (uint32_t)l.n)], &e)
                     : err_set(&e, "no legal action for the seat to act");
        }
        if (rc) {
            printf("bench_games: %s, seed %" PRIu64 ", ply %d: %s\n", c->label, seed, plies,
                   e.msg);
            plies = -1;
            break;
        }
    }
    al_free(&l);
    game_free(g);
    return plies;
}

/* The reference: chess.js's random games a second and plies a second in
 * this run, or the 6 games/s (plies unknown: 0). */
static double ref_games = 6.0, ref_plies = 0;
static const char *ref_what = "the issue's figure for chess.js, 6 games/s, not measured here";

static int have_chessjs(void)
{
    FILE *f = fopen("build/chessjs/node_modules/chess.js/package.json", "r");
    if (f)
        fclose(f);
    return f != NULL;
}

/* One round of chess.js (10 games); the reference keeps the best round. */
static void chessjs_round(void)
{
    static char what[192];
    static int rounds;
    FILE *p = popen("NODE_PATH=build/chessjs/node_modules node tests/bench_chessjs.cjs 10 "
                    "2>/dev/null", "r");
    int games = 0;
    double seconds = 0, plies = 0;
    if (p && fscanf(p, "chessjs %d %lf %lf", &games, &seconds, &plies) == 3 && games > 0 &&
        seconds > 0 && (rounds++ == 0 || games / seconds > ref_games)) {
        ref_games = games / seconds;
        ref_plies = plies / seconds;
        snprintf(what, sizeof what,
                 "chess.js measured now, the best of its rounds: %d games in %.2f s = "
                 "%.2f games/s, %.0f plies/s (%.0f plies a game)",
                 games, seconds, ref_games, ref_plies, plies / games);
        ref_what = what;
    }
    if (p)
        pclose(p);
}

typedef struct Measure {
    double seconds;   /* the best round */
    long plies;
    int rounds;
} Measure;

/* Play c's games by path, `rounds` times (each after a round of chess.js
 * when `with_chessjs`), the best round kept: 0, or 1 on a failure. */
static int measure(const Config *c, int path, int rounds, int with_chessjs, Measure *m)
{
    m->rounds = rounds;
    for (int round = 0; round < rounds; round++) {
        if (with_chessjs)
            chessjs_round();
        long p = 0;
        double t0 = tu_seconds();
        for (int i = 0; i < c->games; i++) {
            int n = random_game(c, (uint64_t)i + 1, path);
            if (n < 0)
                return 1;
            p += n;
        }
        double t = tu_seconds() - t0;
        if (round == 0 || t < m->seconds)
            m->seconds = t;
        m->plies = p;
    }
    return 0;
}

/* One round of the command: its games (to 2,000 plies, as here) timed as
 * a whole; m keeps the best round.  0, or 1 when it failed. */
static int command_round(int games, Measure *m)
{
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    char cmd[512];
    static char out[1 << 16];
    snprintf(cmd, sizeof cmd, "%s experiment orthodox --seed 1 --games %d --max-plies %d",
             prog, games, MAX_PLIES);
    double t = tu_timed_command(cmd, out, sizeof out);
    const char *len = strstr(out, "Game length (plies)");
    double mean;
    if (t < 0 || !len || sscanf(len, "Game length (plies) %lf", &mean) != 1) {
        printf("bench_games: %s failed\n", cmd);
        return 1;
    }
    if (m->rounds++ == 0 || t < m->seconds)
        m->seconds = t;
    m->plies = (long)(mean * games + 0.5);
    return 0;
}

static void report(const Config *c, int path, const Measure *m)
{
    double s = m->seconds;
    printf("random games %-22s %-7s %5d games in %6.2f s = %8.1f games/s, %9.0f plies/s "
           "(%.0f plies a game%s)",
           c->label, PATHS[path], c->games, s, c->games / s, m->plies / s,
           (double)m->plies / c->games, m->rounds > 1 ? ", the best of 3 rounds" : "");
    if (!strcmp(c->variant, "orthodox")) {
        printf(", x%.0f chess.js's games/s", c->games / s / ref_games);
        if (ref_plies > 0)
            printf(", x%.0f its plies/s", m->plies / s / ref_plies);
    }
    printf("\n");
}

/* Issue 23 point 4: the command people run, against the playout and
 * chess.js of the same rounds. */
static void report_command(const Config *c, const Measure *cmd, const Measure *po)
{
    double gs = c->games / cmd->seconds;
    printf("random games %-22s %-7s %5d games in %6.2f s = %8.1f games/s, %9.0f plies/s "
           "(%.0f plies a game, the best of %d rounds), x%.0f chess.js's games/s",
           c->label, "command", c->games, cmd->seconds, gs, cmd->plies / cmd->seconds,
           (double)cmd->plies / c->games, cmd->rounds, gs / ref_games);
    if (ref_plies > 0)
        printf(", x%.0f its plies/s", cmd->plies / cmd->seconds / ref_plies);
    printf(", x%.2f the playout's games/s, x%.2f its plies/s\n", gs / (c->games / po->seconds),
           (cmd->plies / cmd->seconds) / (po->plies / po->seconds));
    printf("  (the command: %s experiment orthodox --seed 1 --games %d --max-plies %d, "
           "its process and report included)\n",
           getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar", c->games, MAX_PLIES);
}

int main(void)
{
    static const Config configs[] = {
        {"orthodox", "orthodox", 0, 0, 1000, 3},
        {"masques", "masques", 0, 0, 100, 1},
        {"ambigus", "ambigus", 0, 0, 200, 1},
        {"echiquete, 2 seats", "echiquete", 0, 2, 100, 1},
        {"echiquete, 3 seats", "echiquete", 0, 3, 100, 1},
        {"tile, 2 sides", "tile", 2, 0, 100, 1},
        {"tile, 4 sides", "tile", 4, 0, 50, 1},
        {"tile, 6 sides", "tile", 6, 0, 30, 1},
    };
    /* orthodox's playout and the command first, each round after one of
     * chess.js, so the three are measured in the same moments of this
     * machine */
    Config fast = configs[0]; /* 4,000 games: a fraction of a second each */
    fast.games = 4000;
    Measure po, cmd = {0, 0, 0};
    for (int round = 0; round < fast.rounds; round++) {
        Measure m;
        if (measure(&fast, PATH_PLAYOUT, 1, have_chessjs(), &m) ||
            command_round(fast.games, &cmd))
            return 1;
        if (round == 0 || m.seconds < po.seconds)
            po = m;
    }
    po.rounds = fast.rounds;
    printf("reference: %s\n", ref_what);
    for (size_t i = 0; i < sizeof configs / sizeof configs[0]; i++)
        for (int path = PATH_CORE; path <= PATH_PLAYOUT; path++) {
            Measure m;
            if (i == 0 && path == PATH_PLAYOUT) {
                report(&fast, path, &po);
                report_command(&fast, &cmd, &po);
                continue;
            }
            if (measure(&configs[i], path, path == PATH_PLAYOUT ? configs[i].rounds : 1, 0, &m))
                return 1;
            report(&configs[i], path, &m);
        }
    return 0;
}
