/*
 * bench_tile.c -- `make bench`: Tile Chess (TILE-1..12) speed: perft from a
 * mid-game of two sides and one of six (fast and generic paths), and
 * seeded random games with 2, 4 and 6 sides through the game API.
 *
 * Invariant: every figure printed is measured in this run
 * (CLOCK_MONOTONIC); the two positions were made by `random` placement
 * with a fixed seed and a few random moves (below), and their perft counts
 * are checked: fast = generic at depth 2, and the depth-3 counts found
 * when the bench was written.  A wrong count makes the exit status 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../core/game.h"
#include "support/testutil.h"

typedef struct TileCase {
    const char *name;
    int sides;
    const char *position;
    int depth;
    uint64_t nodes; /* at depth; 0: not checked */
} TileCase;

/* Two sides: `chessvar run tile --seed 21`, random, then -3,1--5,2
 * -4,0--5,0 5,-1-5,0 4,1-3,2 1,-1-2,1 3,4-1,2.  Six sides: --seed 61
 * --sides 6, random, then -1,5--5,5 -5,4--5,5 -1,1-0,1 -2,6--3,8
 * -2,-3--3,-4 -1,-4-2,-1. */
static const TileCase CASES[] = {
    {"tile 2 sides", 2,
     "bP-2,4 bB-3,3 bP1,3 wP3,3 wN-5,2 bN-4,2 wK-3,2 bP-1,2 wR0,2 bB1,2 bQ3,2 bP4,2 "
     "wP-4,1 bP-2,1 bR-1,1 wR0,1 bR1,1 wN2,1 bK-5,0 wB0,0 wB1,0 bP3,0 wQ4,0 wP5,0 "
     "wP-1,-1 wP0,-1 bN4,-1 wP5,-2 wP5,-3 turn:w",
     3, 128758},
    {"tile 6 sides", 6,
     "uN-3,8 bR-2,7 rP-3,6 wP-1,6 wP0,6 rP1,6 uP2,6 bK-5,5 wB-4,5 gP2,5 yN-2,4 yP1,4 "
     "yP-3,3 bN-1,3 bN0,3 wB1,3 bP2,3 rR3,3 rK6,3 bP-5,2 wP-2,2 gB-1,2 wQ0,2 uR1,2 "
     "gR3,2 rN4,2 uR5,2 gK-7,1 rN-4,1 bP-3,1 wR-2,1 rQ0,1 bB1,1 uP2,1 rB3,1 yK4,1 "
     "rP5,1 gQ6,1 yP-7,0 rB-3,0 gN-2,0 gB-1,0 wN0,0 uP3,0 uB7,0 wP-6,-1 gN-5,-1 "
     "uQ-3,-1 yP-2,-1 uN-1,-1 rP0,-1 yQ2,-1 uK4,-1 wK7,-1 uP8,-1 bP-4,-2 bQ-3,-2 "
     "bB-2,-2 gR-1,-2 yR0,-2 yB1,-2 rR-4,-3 yB-1,-3 yN0,-3 gP1,-3 gP-3,-4 bR1,-4 "
     "yR-2,-5 uB-1,-5 gP-1,-6 turn:w",
     3, 147200},
};

static Game *tile_game(int sides, const char *position)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("tile");
    cfg.nsides = sides;
    cfg.position = position;
    Error e;
    e.msg[0] = '\0';
    Game *g = cfg.variant ? game_new(&cfg, &e) : NULL;
    if (!g)
        printf("tile: cannot start a game of %d sides: %s\n", sides,
               cfg.variant ? e.msg : "no variant 'tile'");
    return g;
}

/* Perft of one case, fast and generic; 0 when the counts are right. */
static int bench_perft_case(const TileCase *c)
{
    Game *g = tile_game(c->sides, c->position);
    if (!g)
        return 1;
    int bad = game_perft(g, 2) != game_perft_generic(g, 2);
    double t0 = tu_seconds();
    uint64_t fast = game_perft(g, c->depth);
    double t1 = tu_seconds();
    uint64_t slow = game_perft_generic(g, c->depth);
    double t2 = tu_seconds();
    bad |= fast != slow || (c->nodes && fast != c->nodes);
    printf("%-12s perft %d: %10" PRIu64 " nodes in %6.3f s = %5.2f M nodes/s (generic "
           "core path %6.3f s = %5.2f M nodes/s) %s\n",
           c->name, c->depth, fast, t1 - t0, (double)fast / (t1 - t0) / 1e6, t2 - t1,
           (double)slow / (t2 - t1) / 1e6, bad ? "WRONG" : "ok");
    if (bad)
        printf("  expected %" PRIu64 " (fast %" PRIu64 ", generic %" PRIu64 ")\n", c->nodes,
               fast, slow);
    game_free(g);
    return bad;
}

/* xorshift64*: the bench's own generator, seeded per game. */
static uint64_t next_random(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

#define MAX_PLIES 400

/* One game from the start: each ply a legal play action of the seat to
 * act drawn uniformly (placements included, as `random` does), until the
 * game ends or MAX_PLIES.  Plies played, or -1 on an error. */
static int random_game(int sides, uint64_t seed, int *ended)
{
    Game *g = tile_game(sides, NULL);
    if (!g)
        return -1;
    ActionList l = ACTIONLIST_INIT;
    int plies = 0;
    while (plies < MAX_PLIES && game_to_act(g) >= 0) {
        al_clear(&l);
        game_legal_play(g, &l);
        if (l.n == 0)
            break;
        Error e;
        if (game_apply(g, &l.v[next_random(&seed) % (uint64_t)l.n], &e)) {
            printf("tile: a legal action refused: %s\n", e.msg);
            plies = -1;
            break;
        }
        plies++;
    }
    *ended = game_to_act(g) < 0;
    al_free(&l);
    game_free(g);
    return plies;
}

/* Random games of `sides` for about `budget` seconds (at least 3). */
static int bench_games(int sides, double budget)
{
    int games = 0, ended = 0;
    long plies = 0;
    double t0 = tu_seconds(), t = 0;
    while (games < 3 || t < budget) {
        int over = 0;
        int n = random_game(sides, 0x9E3779B97F4A7C15ULL * (uint64_t)(games + 1), &over);
        if (n < 0)
            return 1;
        plies += n;
        ended += over;
        games++;
        t = tu_seconds() - t0;
    }
    printf("tile %d sides random games: %d in %.3f s = %.1f games/s, %ld plies = %.0f "
           "plies/s (%d ended, %d stopped at %d plies)\n",
           sides, games, t, games / t, plies, (double)plies / t, ended, games - ended,
           MAX_PLIES);
    return 0;
}

int main(void)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++)
        bad |= bench_perft_case(&CASES[i]);
    static const int SIDES[] = {2, 4, 6};
    for (size_t i = 0; i < sizeof SIDES / sizeof SIDES[0]; i++)
        bad |= bench_games(SIDES[i], 2.0);
    if (bad)
        printf("bench_tile: FAILED (a wrong perft count or a refused action)\n");
    return bad;
}
