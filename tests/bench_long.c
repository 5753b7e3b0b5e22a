/*
 * bench_long.c -- `make bench`: long games cost time in proportion to their
 * length (issue 8, "Cost that grows faster than the game").
 *
 * Knight shuffles (Nf3 Nf6 Ng1 Ng8 ...) with fivefold=off and
 * seventy_five_move=off never end, and every position repeats: the worst
 * case for repetition counting.  Measured: loading records of 40,000 and
 * 160,000 plies (the ratio of the two times is 4 when loading is linear,
 * 16 when quadratic), and 1,000 single undos after 40,000 plies.  A
 * 160,000-ply record with scripts/three_check.lua (rook shuffles, two
 * checks a side, the third white check last) loads beside the plain one
 * (issue 20 point 2: the rule's inspection costs O(1) a ply).
 *
 * Invariant: every loaded game is checked (its length and its repetition
 * count) before a time is reported; a wrong one makes the exit status 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "../core/record/record.h"
#include "support/testutil.h"

static const char *const CYCLE[] = {"Nf3", "Nf6", "Ng1", "Ng8"};

static void shuffle_record(int plies, StrBuf *out)
{
    sb_puts(out, "[Variant \"orthodox\"]\n[Seed \"0\"]\n[Sides \"2\"]\n"
                 "[Params \"fivefold=off seventy_five_move=off\"]\n[Result \"*\"]\n\n");
    for (int i = 0; i < plies; i++)
        sb_printf(out, "%d. %s: %s\n", i + 1, i % 2 ? "black" : "white", CYCLE[i % 4]);
}

/* Seconds to load a record of `plies` plies; -1 if it loads wrong. */
static double time_load(int plies)
{
    StrBuf text = STRBUF_INIT;
    shuffle_record(plies, &text);
    Error e;
    double t0 = tu_seconds();
    Game *g = record_load(sb_str(&text), "shuffles", &e);
    double t = tu_seconds() - t0;
    sb_free(&text);
    int ok = g && game_history_len(g) == plies &&
             game_repetitions(g) == 1 + plies / 4 - (plies % 4 ? 1 : 0);
    if (!g)
        fprintf(stderr, "bench_long: %s\n", e.msg);
    game_free(g);
    return ok ? t : -1;
}

static const char *const CHECKS[] = {"Ra8+", "Ke7", "Ra1", "Rh1+", "Ke2", "Rh8", "Ke1", "Ke8"};
static const char *const QUIET[] = {"Ra2", "Rh7", "Ra1", "Rh8"};

/* Seconds to load the three-check record of about `plies` plies; -1 if
 * it cannot be made or loads wrong. */
static double time_three_check(int plies)
{
    StrBuf script = STRBUF_INIT, text = STRBUF_INIT;
    Error e;
    const VariantOps *v = variant_find("orthodox");
    if (!v || record_read_file("scripts/three_check.lua", "the script", 1 << 20, &script, &e))
        return -1;
    HouseSource src = {"three_check.lua", sb_str(&script), script.len};
    House *h = house_load(v, 0, &src, 1, NULL, &e);
    sb_free(&script);
    if (!h) {
        fprintf(stderr, "bench_long: %s\n", e.msg);
        return -1;
    }
    GameConfig cfg = {.variant = v, .seed = 1,
                      .position = "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1"};
    params_defaults(v, &cfg.params);
    params_set(v, &cfg.params, "fivefold=off", &e);
    params_set(v, &cfg.params, "seventy_five_move=off", &e);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    house_free(h);
    int quiet = (plies - 17) / 8 * 4, rc = g ? 0 : -1;
    for (int round = 0; rc == 0 && round < 2; round++) {
        for (int i = 0; rc == 0 && i < 8; i++)
            rc = game_play(g, i % 2, CHECKS[i], &e);
        for (int i = 0; rc == 0 && i < quiet; i++)
            rc = game_play(g, i % 2, QUIET[i % 4], &e);
    }
    if (rc == 0)
        rc = game_play(g, 0, "Ra8+", &e);
    if (rc == 0)
        rc = record_save(g, &text);
    if (rc) {
        fprintf(stderr, "bench_long: three-check: %s\n", e.msg);
        game_free(g);
        sb_free(&text);
        return -1;
    }
    double t0 = tu_seconds();
    Game *l = record_load(sb_str(&text), "three-check", &e);
    double t = tu_seconds() - t0;
    Status s;
    if (l)
        game_status(l, &s);
    int ok = l && game_same(l, g) && s.over &&
             strstr(s.reason, "white gave check three times");
    if (!l)
        fprintf(stderr, "bench_long: %s\n", e.msg);
    game_free(l);
    game_free(g);
    sb_free(&text);
    return ok ? t : -1;
}

int main(void)
{
    double small = time_load(40000), large = time_load(160000);
    if (small < 0 || large < 0) {
        fputs("bench_long: a loaded game is wrong\n", stderr);
        return 1;
    }
    printf("load a record of  40,000 plies: %.3f s\n", small);
    printf("load a record of 160,000 plies: %.3f s  (x%.1f for 4x the plies: "
           "linear is 4, quadratic 16)\n", large, large / small);
    double three = time_three_check(160000);
    if (three < 0) {
        fputs("bench_long: the three-check game is wrong\n", stderr);
        return 1;
    }
    printf("load a record of 160,000 plies with three_check.lua: %.3f s  (x%.1f the "
           "plain load)\n", three, three / large);

    StrBuf text = STRBUF_INIT;
    shuffle_record(40000, &text);
    Error e;
    Game *g = record_load(sb_str(&text), "shuffles", &e);
    sb_free(&text);
    if (!g)
        return 1;
    double t0 = tu_seconds();
    for (int i = 0; i < 1000; i++)
        if (game_undo(g, 1, &e)) {
            fprintf(stderr, "bench_long: undo: %s\n", e.msg);
            return 1;
        }
    double t = tu_seconds() - t0;
    int ok = game_history_len(g) == 39000 && game_repetitions(g) == 9751;
    game_free(g);
    if (!ok) {
        fputs("bench_long: the undone game is wrong\n", stderr);
        return 1;
    }
    printf("1,000 undos after 40,000 plies:  %.3f s  (%.1f us each)\n", t, t * 1e3);
    return 0;
}
