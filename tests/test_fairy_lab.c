/*
 * test_fairy_lab.c -- issue 24: bots, experiments and records with every
 * rule set from parts (the fairy variant under each script of
 * scripts/variants/).  The random and greedy bots play each script to its
 * end or a ply cap, every action in the legal list of its moment, and the
 * record of the game loads back as the same game (script and arguments
 * included); the search bot plays a few of them; the bots read a rule
 * set's own piece values (Capablanca's A and C) and count pieces in hand
 * (crazyhouse); an experiment with --compare runs through the program on
 * a script and its arguments, --jobs 2 giving the single run's bytes.
 *
 * Invariant: every game is capped in plies, so the suite stays fast.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/lab/bot.h"
#include "../core/game.h"
#include "../core/lua/house.h"
#include "../core/record/record.h"
#include "support/testutil.h"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

static Game *fairy_game_of(const char *file, const char *text, uint64_t seed,
                           const char *position);

/* A fairy game under scripts/variants/FILE (FILE may carry arguments,
 * "three_check.lua:checks=5"), its parameters and piece values as the
 * program sets them (house_params), from position (NULL: the start). */
static Game *fairy_game(const char *file, uint64_t seed, const char *position)
{
    char path[256];
    snprintf(path, sizeof path, "scripts/variants/%s", file);
    const char *args = house_script_args(path);
    char disk[256];
    snprintf(disk, sizeof disk, "%.*s", args ? (int)(args - path - 1) : (int)strlen(path),
             path);
    char *text = tu_read_file(disk);
    if (!text)
        fail_msg("cannot read %s", disk);
    Game *g = fairy_game_of(file, text, seed, position);
    free(text);
    return g;
}

/* A fairy game under the script text named name. */
static Game *fairy_game_of(const char *file, const char *text, uint64_t seed,
                           const char *position)
{
    const VariantOps *v = tu_variant("fairy");
    HouseSource s = {file, text, strlen(text)};
    Error e = {""};
    House *h = house_load(v, 0, &s, 1, NULL, &e);
    if (!h)
        fail_msg("%s: %s", file, e.msg);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = seed;
    cfg.position = position;
    params_defaults(v, &cfg.params);
    assert_int_equal(house_params(h, &cfg.params, &e), 0);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    house_free(h); /* the game holds the House from here on */
    if (!g)
        fail_msg("%s from %s: %s", file, position ? position : "the start", e.msg);
    return g;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The scripts of scripts/variants/, sorted; how many (at most max). */
static int variant_scripts(char names[][64], int max)
{
    DIR *d = opendir("scripts/variants");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len > 4 && len < 64 && !strcmp(de->d_name + len - 4, ".lua") && n < max)
            memcpy(names[n++], de->d_name, len + 1);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], by_name);
    return n;
}

/* Bots of spec play g for every seat until the end or max plies, each
 * action checked against game_legal of its moment: the plies played. */
static int bot_game(Game *g, const BotSpec *spec, uint64_t seed, int max, const char *what)
{
    Rng rng;
    rng_seed(&rng, seed);
    int plies = 0;
    for (; plies < max && game_to_act(g) >= 0; plies++) {
        int seat = game_to_act(g);
        ActionList legal;
        al_init(&legal);
        assert_int_equal(game_legal(g, seat, &legal), 0);
        Error e = {""};
        Action a;
        if (bot_play_spec(g, seat, spec, &rng, &a, &e))
            fail_msg("%s, ply %d: %s", what, plies, e.msg);
        if (al_find(&legal, &a) < 0)
            fail_msg("%s, ply %d: %s is not in the legal list", what, plies,
                     game_history(g, game_history_len(g) - 1)->text);
        al_free(&legal);
    }
    return plies;
}

static char *save_text(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    assert_int_equal(record_save(g, &b), 0);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* g's record loads back as the same game, whose record is the same text. */
static void assert_record_roundtrip(const Game *g, const char *what)
{
    char *text = save_text(g);
    Error e = {""};
    Game *l = record_load(text, "fairy.rec", &e);
    if (!l)
        fail_msg("%s: load: %s\n%s", what, e.msg, text);
    if (!game_same(g, l))
        fail_msg("%s: the loaded game differs from the one saved", what);
    char *again = save_text(l);
    assert_string_equal(again, text);
    free(again);
    game_free(l);
    free(text);
}

/* Issue 24: the random and greedy bots play every script of
 * scripts/variants/ (antichess's forced captures, crazyhouse's drops,
 * atomic's blasts, racing kings, 10x8 and 10x10 boards) to the end or 160
 * plies, each action legal; the record round-trips; the same seed gives
 * the same game. */
static void test_bots_play_every_fairy_script(void **state)
{
    (void)state;
    char names[64][64];
    int n = variant_scripts(names, 64);
    assert_true(n >= 19); /* the seven lichess variants and the classics */
    int ended = 0, games = 0;
    for (int i = 0; i < n; i++)
        for (int level = BOT_RANDOM; level <= BOT_GREEDY; level++) {
            BotSpec spec = {.level = level};
            char what[128];
            snprintf(what, sizeof what, "%.60s, %s bot", names[i], bot_level_name(level));
            Game *a = fairy_game(names[i], 5, NULL), *b = fairy_game(names[i], 5, NULL);
            int plies = bot_game(a, &spec, 11 + (uint64_t)i, 160, what);
            assert_true(plies > 0);
            assert_int_equal(bot_game(b, &spec, 11 + (uint64_t)i, 160, what), plies);
            if (!game_same(a, b))
                fail_msg("%s: the same seed gave another game", what);
            assert_record_roundtrip(a, what);
            ended += game_to_act(a) < 0;
            games++;
            game_free(a);
            game_free(b);
        }
    /* most games end by the rules, not by the cap */
    assert_true(ended * 2 > games);
}

/* Issue 24 (PART-1): on the largest board, 16x16, with lettered pieces and
 * a grasshopper, every bot plays legal actions within its budget and the
 * record round-trips. */
static void test_bots_play_16x16(void **state)
{
    (void)state;
    static const char big[] =
        "rule {\n"
        "  name = \"Big board\",\n"
        "  variants = {\"fairy\"},\n"
        "  ruleset = {\n"
        "    board = \"16x16\",\n"
        "    pieces = {\"A archbishop BN 8\", \"C chancellor RN 9\", \"G grasshopper gQ 2\"},\n"
        "    castling = \"none\",\n"
        "    promotion = \"QRBNAC\",\n"
        "    start = \"rnbqkbnracgggggg/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/"
        "PPPPPPPPPPPPPPPP/RNBQKBNRACGGGGGG w - - 0 1\",\n"
        "  },\n"
        "}\n";
    for (int level = BOT_RANDOM; level <= BOT_SEARCH; level++) {
        BotSpec spec = {.level = level, .lim = {.nodes = level == BOT_SEARCH ? 300 : 0}};
        char what[64];
        snprintf(what, sizeof what, "16x16, %s bot", bot_level_name(level));
        Game *g = fairy_game_of("big.lua", big, 2, NULL);
        assert_int_equal(game_params(g)->values[FIG_LETTERED('G')], 2);
        int plies = bot_game(g, &spec, 5, level == BOT_SEARCH ? 12 : 120, what);
        assert_true(plies > 0);
        assert_record_roundtrip(g, what);
        game_free(g);
    }
}

/* Issue 24, the search bot on a few rule sets (crazyhouse's drops, atomic,
 * antichess, Capablanca's 10x8, Grand chess's 10x10) with a small budget:
 * legal actions, a record that round-trips. */
static void test_search_bot_plays_fairy_scripts(void **state)
{
    (void)state;
    static const char *const files[] = {"crazyhouse.lua", "atomic.lua", "antichess.lua",
                                        "capablanca.lua", "grand.lua",
                                        "three_check.lua:checks=2"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        BotSpec spec = {.level = BOT_SEARCH, .lim = {.nodes = 300}};
        char what[128];
        snprintf(what, sizeof what, "%s, search bot", files[i]);
        Game *g = fairy_game(files[i], 3, NULL);
        assert_true(bot_game(g, &spec, 7, 40, what) > 0);
        assert_record_roundtrip(g, what);
        game_free(g);
    }
}

/* Issue 24: the bots read a rule set's own piece values, which reach the
 * value table through the Lua layer (capablanca.lua: A archbishop 8, C
 * chancellor 9): greedy takes the chancellor (9) rather than the rook (5);
 * valued as an unknown figure (the average of an army, 2) it took the rook. */
static void test_greedy_reads_lettered_values(void **state)
{
    (void)state;
    Game *g = fairy_game("capablanca.lua", 1, "c8k/10/10/10/10/4K5/10/R8r w - - 0 1");
    const Params *p = game_params(g);
    assert_int_equal(p->values[FIG_LETTERED('A')], 8);
    assert_int_equal(p->values[FIG_LETTERED('C')], 9);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        Game *c = game_clone(g);
        Rng rng;
        rng_seed(&rng, seed);
        Error e = {""};
        assert_int_equal(bot_play(c, 0, BOT_GREEDY, &rng, NULL, &e), 0);
        assert_string_equal(game_history(c, 0)->text, "Rxa8+");
        game_free(c);
    }
    /* the search bot too (it scores with the same table) */
    Game *c = game_clone(g);
    Rng rng;
    rng_seed(&rng, 1);
    Error e = {""};
    BotSpec spec = {.level = BOT_SEARCH, .lim = {.nodes = 2000}};
    assert_int_equal(bot_play_spec(c, 0, &spec, &rng, NULL, &e), 0);
    assert_string_equal(game_history(c, 0)->text, "Rxa8+");
    game_free(c);
    game_free(g);
    /* and `params` shows them beside the orthodox ones */
    TuRun r;
    tu_run(&r, "run fairy --rules scripts/variants/capablanca.lua", "params\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "piece values: P=1 N=3 B=3 R=5 Q=10 A=8 C=9  (");
    tu_run_free(&r);
}

/* Issue 24, crazyhouse: pieces in hand count as material, so taking a
 * knight (it joins the hand) beats dropping the queen from the hand (no
 * gain: it was White's already); counted as nothing, every drop looked
 * like a queen won. */
static void test_greedy_counts_the_hand(void **state)
{
    (void)state;
    Game *g = fairy_game("crazyhouse.lua", 1, "4k3/8/8/8/8/2n5/1P6/4K3[Q] w - - 0 1");
    for (uint64_t seed = 1; seed <= 5; seed++) {
        Game *c = game_clone(g);
        Rng rng;
        rng_seed(&rng, seed);
        Error e = {""};
        assert_int_equal(bot_play(c, 0, BOT_GREEDY, &rng, NULL, &e), 0);
        assert_string_equal(game_history(c, 0)->text, "bxc3");
        game_free(c);
    }
    game_free(g);
}

/* ---- Through the program --------------------------------------------------- */

static char *run_ok(const char *args)
{
    TuRun r;
    tu_run(&r, args, NULL);
    if (r.status != 0)
        fail_msg("chessvar %s: status %d, %s", args, r.status, r.err);
    free(r.err);
    return r.out;
}

/* Issue 24: `chessvar experiment fairy --rules SCRIPT:ARGS ... --compare
 * --rules SCRIPT:ARGS` as a user types it: three-check to 3 checks against
 * three-check to 5, a greedy player; the report names both rule sets and
 * how the games ended, and --jobs 2 gives the single run's bytes. */
static void test_experiment_compares_fairy_scripts(void **state)
{
    (void)state;
    const char *args = "experiment fairy --rules scripts/variants/three_check.lua:checks=3 "
                       "--games 12 --seed 4 --bot white=greedy --max-plies 400 --compare "
                       "--rules scripts/variants/three_check.lua:checks=5";
    char *one = run_ok(args);
    assert_has(one, "A: Three-check (scripts/variants/three_check.lua:checks=3)");
    assert_has(one, "B: Three-check (scripts/variants/three_check.lua:checks=5)");
    assert_has(one, "gave check 3 times");
    assert_has(one, "gave check 5 times");
    assert_has(one, "Players: P1 greedy, P2 random");
    char jobs[512];
    snprintf(jobs, sizeof jobs, "%s --jobs 2", args);
    char *two = run_ok(jobs);
    assert_string_equal(two, one);
    free(one);
    free(two);
}

/* Issue 24: every script of scripts/variants/ as B of an experiment
 * against the fairy variant's own rules (orthodox chess from parts), with
 * --jobs 2 giving one process's bytes. */
static void test_experiment_every_fairy_script(void **state)
{
    (void)state;
    char names[64][64];
    int n = variant_scripts(names, 64);
    for (int i = 0; i < n; i++) {
        char args[512], want[160];
        snprintf(args, sizeof args, "experiment fairy --games 4 --seed 1 --max-plies 200 "
                 "--bot white=greedy --compare --rules scripts/variants/%.60s", names[i]);
        char *one = run_ok(args);
        snprintf(want, sizeof want, "(scripts/variants/%.60s)\n", names[i]);
        assert_has(one, "A: the variant's own rules\nB: ");
        assert_has(one, want);
        assert_has(one, "How the games ended");
        strcat(args, " --jobs 2");
        char *two = run_ok(args);
        assert_string_equal(two, one);
        free(one);
        free(two);
    }
}

/* Issue 24: an experiment's saved games of a script with arguments load
 * back with `run --load` (the record names the script and its arguments),
 * replayed to the same end. */
static void test_experiment_saves_fairy_games(void **state)
{
    (void)state;
    char dir[] = "/tmp/cvfairylabXXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args,
             "experiment fairy --rules scripts/variants/three_check.lua:checks=2 --games 2 "
             "--seed 9 --bot white=greedy --save-games %s --json", dir);
    char *json = run_ok(args);
    for (int i = 0; i < 2; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/game-%06d.rec", dir, i);
        char *rec = tu_read_file(path);
        if (!rec)
            fail_msg("no record %s after: %s", path, json);
        assert_has(rec, "[Rule \"three_check.lua:checks=2\"]");
        char cmd[256];
        snprintf(cmd, sizeof cmd, "run --load %s --trust-rules", path);
        TuRun r;
        tu_run(&r, cmd, "status\n");
        assert_int_equal(r.status, 0);
        assert_has(r.out, "game over:");
        assert_has(r.out, "gave check");
        tu_run_free(&r);
        free(rec);
        unlink(path);
    }
    rmdir(dir);
    free(json);
}

/* Issue 24, records through the program: `run` saves a fairy game under
 * a script (with arguments, with drops, on 10x8) and `run --load` and
 * `play --load` replay it to the same position and history. */
static void test_run_saves_and_loads_fairy_games(void **state)
{
    (void)state;
    static const struct {
        const char *rules, *moves;
    } cases[] = {
        {"crazyhouse.lua", "e4\nd5\nexd5\nQxd5\nNc3\nP@e4\nNxe4\nQxe4+\nP@e2\n"},
        {"three_check.lua:checks=5", "e4\ne5\nBc4\nNc6\nBxf7+\nKxf7\nQh5+\n"},
        {"capablanca.lua", "e4\ne5\nNj3\nNj6\nbot greedy\nbot greedy\n"},
        {"grand.lua", "bot random\nbot random\nbot greedy\nbot greedy\n"},
    };
    char dir[] = "/tmp/cvfairyrecXXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[128], args[512], input[512];
        snprintf(path, sizeof path, "%s/g%zu.rec", dir, i);
        snprintf(args, sizeof args, "run fairy --seed 5 --rules scripts/variants/%s",
                 cases[i].rules);
        snprintf(input, sizeof input, "%ssave %s\nposition\nhistory\n", cases[i].moves,
                 path);
        TuRun a;
        tu_run(&a, args, input);
        if (a.status != 0)
            fail_msg("chessvar %s: %s%s", args, a.out, a.err);
        const char *saved = strstr(a.out, "saved to ");
        assert_non_null(saved);
        saved = strchr(saved, '\n') + 1; /* the position and history lines */
        char *rec = tu_read_file(path);
        assert_non_null(rec);
        char tag[128];
        snprintf(tag, sizeof tag, "[Rule \"%s\"]", cases[i].rules);
        assert_has(rec, tag);
        snprintf(args, sizeof args, "run --load %s --trust-rules", path);
        TuRun b;
        tu_run(&b, args, "position\nhistory\n");
        assert_int_equal(b.status, 0);
        assert_string_equal(b.out, saved);
        snprintf(args, sizeof args, "play --load %s --ascii --trust-rules", path);
        TuRun c;
        tu_run(&c, args, "");
        assert_has(c.out, "actions played");
        assert_has(c.out, "Chess from parts, with house rules: ");
        tu_run_free(&a);
        tu_run_free(&b);
        tu_run_free(&c);
        free(rec);
        unlink(path);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_play_every_fairy_script),
        cmocka_unit_test(test_bots_play_16x16),
        cmocka_unit_test(test_search_bot_plays_fairy_scripts),
        cmocka_unit_test(test_greedy_reads_lettered_values),
        cmocka_unit_test(test_greedy_counts_the_hand),
        cmocka_unit_test(test_experiment_compares_fairy_scripts),
        cmocka_unit_test(test_experiment_every_fairy_script),
        cmocka_unit_test(test_experiment_saves_fairy_games),
        cmocka_unit_test(test_run_saves_and_loads_fairy_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
