/*
 * bench_fairy.c -- `make bench`: the speed of rule sets from parts (issue
 * 24).  Perft 4 from the start of each lichess variant's script
 * (scripts/variants/NAME.lua on the fairy variant), nodes/s beside
 * chessops' perft of the same position and depth (lichess's rules library
 * in node, tests/oracle/perft.cjs bench) measured in the same run, as a
 * ratio (the goal: ahead of chessops in every one); orthodox perft
 * 4 by the hand-written engine and by the fairy variant without a rule
 * set, and the house rules on orthodox chess that were the only way before
 * (scripts/king_of_the_hill.lua, scripts/three_check.lua), for reference;
 * and Capablanca perft 4 (scripts/variants/capablanca.lua) beside ffish,
 * Fairy-Stockfish in WebAssembly.
 *
 * This machine's speed wanders from one second to the next: each figure
 * is the best of 3 rounds, each of our rounds right after one of the
 * reference's, so both are measured in the same moments; a perft of ours
 * shorter than a quarter of a second is repeated for that long (its time
 * is the mean), the reference's is timed once after a perft one shallower
 * has warmed node's compiler up.
 *
 * Invariant: every count is checked against the reference's count of the
 * same run (or the published one when the reference is not installed);
 * a wrong count, a script that does not load or a missing fairy variant
 * makes the exit status 1.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define ROUNDS 3
#define DEPTH 4

typedef struct Case {
    const char *label;
    const char *engine;   /* our variant */
    const char *script;   /* a house-rule file, or NULL */
    const char *oracle;   /* perft.cjs's variant name, or NULL: none */
    uint64_t published;   /* the count when the reference is missing (0: none) */
} Case;

static const Case CASES[] = {
    {"antichess", "fairy", "scripts/variants/antichess.lua", "antichess", 0},
    {"atomic", "fairy", "scripts/variants/atomic.lua", "atomic", 0},
    {"crazyhouse", "fairy", "scripts/variants/crazyhouse.lua", "crazyhouse", 0},
    {"horde", "fairy", "scripts/variants/horde.lua", "horde", 0},
    {"king of the hill", "fairy", "scripts/variants/king_of_the_hill.lua", "king_of_the_hill", 0},
    {"racing kings", "fairy", "scripts/variants/racing_kings.lua", "racing_kings", 0},
    {"three-check", "fairy", "scripts/variants/three_check.lua", "three_check", 0},
    {"orthodox", "orthodox", NULL, "orthodox", 197281},
    {"orthodox on fairy", "fairy", NULL, "orthodox", 197281},
    {"koth house rule", "orthodox", "scripts/king_of_the_hill.lua", "king_of_the_hill", 197281},
    {"3check house rule", "orthodox", "scripts/three_check.lua", "three_check", 197281},
    /* Fairy-Stockfish's tests/perft.sh: capablanca startpos depth 4 */
    {"capablanca", "fairy", "scripts/variants/capablanca.lua", "ffish:capablanca", 805128},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

static int have_oracle(void)
{
    const char *d = getenv("ORACLE_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/chessops/package.json",
             d && *d ? d : "build/oracle/node_modules");
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL && system("command -v node >/dev/null 2>&1") == 0;
}

/* One round of the reference: its count and seconds, or 0 when it failed. */
static int oracle_round(const char *variant, uint64_t *nodes, double *seconds)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "node tests/oracle/perft.cjs bench %s %d 2>&1", variant, DEPTH);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[512] = "", name[64];
    int depth = 0, ok = 0;
    unsigned long long n = 0;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "oracle %63s %d %llu %lf", name, &depth, &n, seconds) == 4 &&
            depth == DEPTH && *seconds > 0) {
            *nodes = n;
            ok = 1;
        } else {
            printf("  %s: %s", variant, line);
        }
    pclose(p);
    return ok;
}

/* Our game of c from the start: NULL with a message printed. */
static Game *our_game(const Case *c, House **h, char **text)
{
    Error e;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    *h = NULL;
    *text = NULL;
    cfg.variant = variant_find(c->engine);
    if (!cfg.variant) {
        printf("%-18s the variant \"%s\" is not registered\n", c->label, c->engine);
        return NULL;
    }
    params_defaults(cfg.variant, &cfg.params);
    cfg.params_set = 1;
    if (!c->script) {
        Game *g = game_new(&cfg, &e);
        if (!g)
            printf("%-18s %s\n", c->label, e.msg);
        return g;
    }
    *text = tu_read_file(c->script);
    if (!*text) {
        printf("%-18s %s cannot be read\n", c->label, c->script);
        return NULL;
    }
    HouseSource src = {c->script, *text, strlen(*text)};
    *h = house_load(cfg.variant, 0, &src, 1, NULL, &e);
    if (!*h || house_params(*h, &cfg.params, &e)) {
        printf("%-18s %s\n", c->label, e.msg);
        return NULL;
    }
    GameHooks k = house_hooks(*h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        printf("%-18s %s\n", c->label, e.msg);
    return g;
}

static double mnps(uint64_t nodes, double s)
{
    return s > 0 ? (double)nodes / s / 1e6 : 0;
}

/* Measure c: 0, or 1 on a wrong count or a failure. */
static int bench_case(const Case *c, int oracle)
{
    House *h;
    char *text;
    Game *g = our_game(c, &h, &text);
    if (!g) {
        if (h)
            house_free(h);
        free(text);
        return 1;
    }
    uint64_t ours = 0, ref = 0;
    double best = 0, ref_best = 0;
    int have_ref = 0, bad = 0;
    for (int r = 0; r < ROUNDS && !bad; r++) {
        uint64_t n;
        double s;
        if (oracle && c->oracle && oracle_round(c->oracle, &n, &s)) {
            if (!have_ref || s < ref_best)
                ref_best = s;
            ref = n;
            have_ref = 1;
        }
        /* a fast perft is repeated for a quarter of a second: the time of one */
        int times = 0;
        double t0 = tu_seconds();
        do {
            ours = game_perft(g, DEPTH);
            times++;
            s = tu_seconds() - t0;
            bad = ours == GAME_PERFT_NOMEM || ours == GAME_PERFT_FAILED;
        } while (!bad && s < 0.25);
        s /= times;
        if (r == 0 || s < best)
            best = s;
    }
    uint64_t want = have_ref ? ref : c->published;
    printf("%-18s %9" PRIu64 " nodes in %7.4f s = %7.3f M nodes/s", c->label, ours, best,
           mnps(ours, best));
    if (have_ref)
        printf(", %s %7.3f M nodes/s, x%.2f", strncmp(c->oracle, "ffish:", 6) ? "chessops" : "ffish",
               mnps(ref, ref_best), ref_best / best);
    else if (c->oracle)
        printf(", no reference measured");
    if (bad)
        printf(" (PERFT FAILED)");
    else if (want && ours != want)
        printf(" (WRONG COUNT: %s %" PRIu64 ")", have_ref ? "the reference counts" : "published",
               want);
    printf("\n");
    game_free(g);
    if (h)
        house_free(h);
    free(text);
    return bad || (want && ours != want);
}

int main(void)
{
    int oracle = have_oracle();
    printf("perft %d from the start, the best of %d rounds; the reference (%s) measured in the "
           "same run, xN = our nodes/s over its\n",
           DEPTH, ROUNDS,
           oracle ? "chessops and ffish in node, tests/oracle/perft.cjs"
                  : "NOT AVAILABLE: node or build/oracle missing (make deps-oracle); no ratio");
    int bad = 0;
    for (size_t i = 0; i < NCASES; i++)
        bad |= bench_case(&CASES[i], oracle);
    return bad;
}
