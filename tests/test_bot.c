/*
 * test_bot.c -- machine players (issue 12, core/lab/bot.h): the random and
 * greedy bots play every variant and every seat to the end through the
 * legal list; the same seed gives the same game; greedy takes the
 * material and the win in front of it; a bot's choices depend only on
 * what its seat may know (Masqués twins that differ only in Black's hidden
 * figures get the same choices from White's bot); bots obey house rules
 * (a vetoed move is never chosen); `bot LEVEL` in batch mode.
 *
 * Invariant: every game is capped in plies, so the suite stays fast.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/lab/bot.h"
#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* Bots at `level` play g for every seat until the end or max plies; the
 * plies played. */
static int self_play(Game *g, int level, uint64_t seed, int max)
{
    Rng rng;
    rng_seed(&rng, seed);
    int plies = 0;
    for (; plies < max && game_to_act(g) >= 0; plies++) {
        Error e;
        if (bot_play(g, game_to_act(g), level, &rng, NULL, &e))
            fail_msg("%s bot, ply %d: %s", bot_level_name(level), plies, e.msg);
    }
    return plies;
}

/* Issue 12: each level plays every variant, every seat (the Échiqueté
 * third seat, 2 to 6 Tile sides), and the same seed gives the same game. */
static void test_bots_play_every_variant(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        int nsides, nseats;
    } games[] = {
        {"orthodox", 0, 0}, {"masques", 0, 0},  {"ambigus", 0, 0}, {"echiquete", 0, 2},
        {"echiquete", 0, 3}, {"tile", 2, 0},    {"tile", 4, 0},    {"tile", 6, 0},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        for (int level = 0; level <= BOT_GREEDY; level++) {
            TuGame spec = {.variant = tu_variant(games[i].variant), .seed = 7,
                           .nsides = games[i].nsides, .nseats = games[i].nseats};
            Game *a = tu_game(&spec), *b = tu_game(&spec);
            int n = self_play(a, level, 99, 300);
            assert_true(n > 0);
            assert_int_equal(self_play(b, level, 99, 300), n);
            assert_true(game_same(a, b));
            game_free(a);
            game_free(b);
        }
}

/* Issue 12, greedy: a queen en prise is taken; a mate in one is played
 * (a win beats any material). */
static void test_greedy_takes_material_and_the_win(void **state)
{
    (void)state;
    Rng rng;
    rng_seed(&rng, 1);
    Game *g = tu_orthodox("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    Action a;
    Error e;
    assert_int_equal(bot_play(g, 0, BOT_GREEDY, &rng, &a, &e), 0);
    assert_string_equal(game_history(g, 0)->text, "Rxd5");
    game_free(g);
    /* Back-rank mate with the rook, though Rxd1 wins a knight. */
    g = tu_orthodox("6k1/5ppp/8/8/8/8/8/R2n2K1 w - - 0 1");
    assert_int_equal(bot_play(g, 0, BOT_GREEDY, &rng, &a, &e), 0);
    assert_string_equal(game_history(g, 0)->text, "Ra8#");
    game_free(g);
}

/* Issue 12, house rules: the greedy bot never plays a vetoed move (the
 * queen may not move before move 5, though Qxd5 would win a queen), and
 * sees a reaction's win (King of the Hill: Kd4 wins at once). */
static void test_bots_obey_house_rules(void **state)
{
    (void)state;
    Error e;
    char *noq = tu_read_file("scripts/no_queen_before_5.lua");
    HouseSource s = {"noq.lua", noq, strlen(noq)};
    House *h = house_load(tu_variant("orthodox"), 0, &s, 1, NULL, &e);
    assert_non_null(h);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.variant = tu_variant("orthodox"), .hooks = &k,
                                .position = "4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1"});
    house_free(h);
    Rng rng;
    rng_seed(&rng, 3);
    for (int i = 0; i < 20; i++) {
        Game *c = game_clone(g);
        assert_int_equal(bot_play(c, 0, BOT_GREEDY, &rng, NULL, &e), 0);
        assert_string_not_equal(game_history(c, 0)->text, "Qxd5");
        assert_int_equal(game_history(c, 0)->text[0], 'K');
        game_free(c);
    }
    game_free(g);
    free(noq);

    char *koth = tu_read_file("scripts/king_of_the_hill.lua");
    HouseSource s2 = {"koth.lua", koth, strlen(koth)};
    h = house_load(tu_variant("orthodox"), 0, &s2, 1, NULL, &e);
    k = house_hooks(h);
    g = tu_game(&(TuGame){.variant = tu_variant("orthodox"), .hooks = &k,
                          .position = "k7/7p/8/8/8/4K3/8/8 w - - 0 1"});
    house_free(h);
    assert_int_equal(bot_play(g, 0, BOT_GREEDY, &rng, NULL, &e), 0);
    tu_assert_over(g, "1-0", "white's King reached the hill");
    game_free(g);
    free(koth);
}

/* White's inputs in both games: its view's pieces, question and lines, its
 * legal list and its messages; equal when White cannot tell them apart. */
static int same_input(const Game *a, const Game *b, int seat)
{
    BotInput x, y;
    Error e;
    assert_int_equal(bot_input(a, seat, &x, &e), 0);
    assert_int_equal(bot_input(b, seat, &y, &e), 0);
    int same = x.view->npieces == y.view->npieces &&
               !memcmp(x.view->pieces, y.view->pieces,
                       sizeof x.view->pieces[0] * (size_t)x.view->npieces) &&
               !strcmp(x.view->question, y.view->question) &&
               !strcmp(x.view->info, y.view->info) && x.legal.n == y.legal.n &&
               x.nmsgs == y.nmsgs;
    for (int i = 0; same && i < x.legal.n; i++)
        same = action_eq(&x.legal.v[i], &y.legal.v[i]);
    for (int i = 0; same && i < x.nmsgs; i++)
        same = !strcmp(x.msgs[i], y.msgs[i]);
    if (same)
        same = x.known && y.known ? !strcmp(x.known, y.known) : x.known == y.known;
    bot_input_free(&x);
    bot_input_free(&y);
    return same;
}

/* The choice of seat's bot at level (the search with a small budget,
 * 2000 nodes, to keep the tests quick), applied; 0 or -1 with e.  With
 * `truth`, the search is given the whole position, as a bot that could
 * read the hidden figures would be (the control of the twin tests). */
static int bot_act(Game *g, int seat, int level, Rng *rng, const char *truth, Action *a,
                   Error *e)
{
    BotInput in;
    if (bot_input(g, seat, &in, e))
        return -1;
    if (truth)
        snprintf(in.view->position, sizeof in.view->position, "%s", truth);
    BotLimits lim = {.nodes = 2000};
    int rc = bot_choose_limited(&in, level, &lim, rng, a, e);
    bot_input_free(&in);
    return rc ? rc : game_apply(g, a, e);
}

/* Issue 12, MASQ-12: twin Masqués games that differ only in Black's hidden
 * figures (Knight and Bishop swapped on b8 and c8): while White's inputs
 * are the same (the position it knows included), White's bot chooses the
 * same action in both, at every level. */
static void test_bot_sees_only_its_seat(void **state)
{
    (void)state;
    const char *twin[2] = {
        "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1",
        "r~b~n~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"};
    static const char *const black[] = {"a7a6", "h7h6", "a6a5", "h6h5", "b7b6",
                                        "g7g6", "c7c6", "f7f6", "d7d6", "e7e6"};
    for (int level = 0; level < BOT__COUNT; level++) {
        int compared = 0;
        for (uint64_t seed = 1; seed <= 6; seed++) {
            Game *g[2];
            for (int t = 0; t < 2; t++)
                g[t] = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 4,
                                         .position = twin[t]});
            Rng r0, r1;
            rng_seed(&r0, seed);
            rng_seed(&r1, seed);
            int next = 0; /* Black's next scripted move */
            for (int ply = 0; ply < 16; ply++) {
                int seat = game_to_act(g[0]);
                if (seat != game_to_act(g[1]) || seat < 0)
                    break;
                Error e;
                if (seat == 1) { /* the same text in both: its next move that is legal
                                    (masked pieces move alike), keep, or pass */
                    int done = 0;
                    static const char *const other[] = {"keep", "pass"};
                    for (int i = 0; i < 2 && !done; i++)
                        done = !game_play(g[0], 1, other[i], &e) &&
                               !game_play(g[1], 1, other[i], &e);
                    while (!done && next < (int)(sizeof black / sizeof *black)) {
                        done = !game_play(g[0], 1, black[next], &e);
                        if (done)
                            assert_int_equal(game_play(g[1], 1, black[next], &e), 0);
                        next++;
                    }
                    if (!done)
                        break;
                    continue;
                }
                if (!same_input(g[0], g[1], 0))
                    break;
                Action a0, a1;
                assert_int_equal(bot_act(g[0], 0, level, &r0, NULL, &a0, &e), 0);
                assert_int_equal(bot_act(g[1], 0, level, &r1, NULL, &a1, &e), 0);
                if (!action_eq(&a0, &a1))
                    fail_msg("%s bot, seed %d, ply %d: different choices on the same input",
                             bot_level_name(level), (int)seed, ply);
                compared++;
            }
            game_free(g[0]);
            game_free(g[1]);
        }
        print_message("%s bot: %d choices compared\n", bot_level_name(level), compared);
        if (compared < 24)
            fail_msg("%s bot: only %d choices compared", bot_level_name(level), compared);
    }
}

/* Issue 12, MASQ-12: White's revealed Queen can take either of two masked
 * black pieces, a Queen and a Pawn, on squares the twins swap.  White's
 * greedy bot, which cannot tell them apart, makes the same choice in both
 * twins for every seed (and over the seeds takes each of them); so does
 * the search, which looks ahead on positions drawn from what White knows.
 * Control: a search given the true position chooses differently in the
 * twins (it knows where the Queen is), so the test can see a leak. */
static void test_bot_twins_with_a_choice(void **state)
{
    (void)state;
    const char *twin[2] = {"4k3/8/1p~1q~4/8/3Q4/8/8/4K~3 w - - 0 1",
                           "4k3/8/1q~1p~4/8/3Q4/8/8/4K~3 w - - 0 1"};
    int took[2] = {0, 0}, cheat_differs = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        for (int level = BOT_GREEDY; level <= BOT_SEARCH; level++) {
            Action a[2], c[2];
            for (int t = 0; t < 2; t++) {
                Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"),
                                            .position = twin[t]});
                Game *h = game_clone(g);
                Rng rng, rng2;
                rng_seed(&rng, seed);
                rng_seed(&rng2, seed);
                Error e;
                assert_int_equal(bot_act(g, 0, level, &rng, NULL, &a[t], &e), 0);
                if (level == BOT_SEARCH)
                    assert_int_equal(bot_act(h, 0, level, &rng2, twin[t], &c[t], &e), 0);
                game_free(g);
                game_free(h);
            }
            if (!action_eq(&a[0], &a[1]))
                fail_msg("%s bot, seed %d: different choices in the twins",
                         bot_level_name(level), (int)seed);
            if (level == BOT_GREEDY) {
                assert_int_equal(a[0].to.y, 5); /* it takes one of them: b6 or d6 */
                took[a[0].to.x == 3]++;
            } else {
                cheat_differs += !action_eq(&c[0], &c[1]);
            }
        }
    }
    assert_true(took[0] > 0 && took[1] > 0);
    assert_true(cheat_differs >= 6);
}

/* Issue 12, batch mode: `bot LEVEL` plays for the seat to act, `as SEAT
 * bot LEVEL` for a seat; a bad level is named; runs repeat with the seed. */
static void test_bot_batch_command(void **state)
{
    (void)state;
    TuRun r, r2;
    tu_run(&r, "run orthodox --seed 3", "bot greedy\nbot random\nas white bot random\n"
                                        "bot clever\nhistory\n");
    assert_has(r.out, "white: ");
    assert_has(r.out, "error: no bot level 'clever' (levels: random, greedy, search)");
    tu_run(&r2, "run orthodox --seed 3", "bot greedy\nbot random\nas white bot random\n"
                                         "bot clever\nhistory\n");
    assert_string_equal(r.out, r2.out);
    tu_run_free(&r);
    tu_run_free(&r2);
    tu_run(&r, "run orthodox --fen \"4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1\"", "bot greedy\n");
    assert_has(r.out, "white: Rxd5 (d1d5)");
    tu_run_free(&r);
}

/* Issue 12, budgets: `search:N` gives the search N nodes a decision and
 * `search:Nms` N milliseconds, in batch mode, in the terminal and in
 * experiments (the JSON names them, merge reads them back); a budget is
 * honoured (1 node does not see what 20,000 see) and a bad one is named. */
static void test_bot_budgets(void **state)
{
    (void)state;
    BotSpec spec;
    Error e;
    char buf[32];
    assert_int_equal(bot_spec_parse("search:5000", &spec, &e), 0);
    assert_int_equal(spec.level, BOT_SEARCH);
    assert_int_equal(spec.lim.nodes, 5000);
    assert_string_equal(bot_spec_name(&spec, buf, sizeof buf), "search:5000");
    assert_int_equal(bot_spec_parse("search:250ms", &spec, &e), 0);
    assert_int_equal(spec.lim.ms, 250);
    assert_string_equal(bot_spec_name(&spec, buf, sizeof buf), "search:250ms");
    assert_int_equal(bot_spec_parse("Greedy", &spec, &e), 0);
    assert_string_equal(bot_spec_name(&spec, buf, sizeof buf), "greedy");
    static const char *const bad[] = {"search:", "search:0", "search:-3", "search:12x",
                                      "search:5000s", "search:3600001ms", "search:100000001"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(bot_spec_parse(bad[i], &spec, &e), -1);
        assert_has(e.msg, "the search's budget is a number of nodes");
    }
    assert_int_equal(bot_spec_parse("greedy:10", &spec, &e), -1);
    assert_has(e.msg, "'greedy:10': only the search bot takes a budget");

    const char *fen = "run orthodox --fen \"4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1\"";
    TuRun r, r2;
    tu_run(&r, fen, "bot search\n");
    tu_run(&r2, fen, "bot search:1\n");
    assert_has(r.out, "white: Qa1 (d1a1)");
    assert_string_not_equal(r.out, r2.out);
    tu_run_free(&r);
    tu_run_free(&r2);
    tu_run(&r, fen, "bot search:1\nbot search:0\n");
    tu_run(&r2, fen, "bot search:1\nbot search:0\n");
    assert_string_equal(r.out, r2.out); /* a node budget repeats */
    assert_has(r.out, "error: 'search:0': the search's budget is a number of nodes");
    tu_run_free(&r);
    tu_run_free(&r2);
    tu_run(&r, "play orthodox --bot black=search:abc", "");
    assert_has(r.err, "--bot black=search:abc: 'search:abc': the search's budget is a number");
    tu_run_free(&r);
    tu_run(&r, "experiment orthodox --games 2 --bot white=search:300 --seed 2 --json", NULL);
    assert_has(r.out, "\"players\":[\"search:300\",\"random\"]");
    char path[] = "/tmp/chessvar-budgets-XXXXXX", cmd[64]; /* mkstemp fills the X's */
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(r.out, f);
    fclose(f);
    tu_run_free(&r);
    snprintf(cmd, sizeof cmd, "merge %s", path);
    tu_run(&r, cmd, NULL);
    assert_has(r.out, "Players: P1 search:300, P2 random");
    tu_run_free(&r);
    remove(path);
}

/* Issue 12 in the terminal: `play --bot SEAT=LEVEL` -- a bot's move is
 * printed like a person's and the person keeps its own board; bots on
 * every seat play to the end; bad seats and levels are named; in Masqués
 * the person's screen never shows the bot's hidden figures (MASQ-12). */
static void test_play_with_bots(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "play orthodox --bot black=greedy --seed 3 --ascii", "e4\nquit\nyes\n\n");
    assert_has(r.out, "white> e4\n");
    assert_has(r.out, "black (greedy bot): ");
    tu_run_free(&r);
    tu_run(&r, "play orthodox --bot white=random --bot black=greedy --seed 3 --ascii", "");
    assert_has(r.out, "game over: ");
    assert_has(r.out, "white (random bot): ");
    tu_run_free(&r);
    tu_run(&r, "play orthodox --bot red=greedy", "");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--bot red=greedy: no seat 'red' (the seats: white, black)");
    tu_run_free(&r);
    tu_run(&r, "play orthodox --bot black", "");
    assert_has(r.err, "--bot black: write SEAT=LEVEL");
    tu_run_free(&r);
    /* The menu asks which seats bots play, again after a wrong answer. */
    setenv("CHESSVAR_SCRIPTS", "/nonexistent", 1); /* no house-rule question */
    tu_run(&r, "--ascii", "orthodox\nred=x\nblack=greedy\ne4\nquit\nyes\n\n");
    unsetenv("CHESSVAR_SCRIPTS");
    assert_has(r.out, "Bots (random, greedy, search) may play seats: white, black.\n");
    assert_has(r.out, "'red=x': write SEAT=LEVEL with a seat among white, black and a "
                      "level random, greedy or search (search:N for N nodes a move)\n");
    assert_has(r.out, "black (greedy bot): ");
    tu_run_free(&r);
    tu_run(&r, "play masques --bot black=random --seed 3 --ascii",
           "standard\nyes\ne2e4\nd2d4\nc2c4\nquit\nyes\n\n");
    /* issue 19 point 6: the bot's hidden placements in a row, one line */
    assert_has(r.out, "black (random bot): black arranges a piece (11 times)\n");
    static const char *const hidden[] = {"p~", "n~", "b~", "r~", "q~", "k~"};
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++)
        assert_null(strstr(r.out, hidden[i]));
    tu_run_free(&r);
}

/* Issue 12, playouts: game_playout gives, for the same draws, the game
 * that game_legal_play + game_apply give (same plies, same end), for every
 * variant, and leaves the game it starts from unchanged. */
static void test_playout_is_the_game(void **state)
{
    (void)state;
    static const struct {
        const char *variant;
        int nsides, nseats;
    } games[] = {{"orthodox", 0, 0}, {"masques", 0, 0}, {"ambigus", 0, 0},
                 {"echiquete", 0, 3}, {"tile", 3, 0}};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            TuGame spec = {.variant = tu_variant(games[i].variant), .seed = seed,
                           .nsides = games[i].nsides, .nseats = games[i].nseats};
            Game *g = tu_game(&spec), *before = game_clone(g);
            Rng r1, r2;
            rng_seed(&r1, seed);
            rng_seed(&r2, seed);
            Status fast, slow;
            int n = game_playout(g, &r1, 600, &fast);
            assert_true(n > 0);
            assert_true(game_same(g, before));
            ActionList l = ACTIONLIST_INIT;
            int plies = 0;
            for (; plies < 600 && game_to_act(g) >= 0; plies++) {
                al_clear(&l);
                game_legal_play(g, &l);
                Error e;
                assert_int_equal(game_apply(g, &l.v[rng_below(&r2, (uint32_t)l.n)], &e), 0);
            }
            al_free(&l);
            game_status(g, &slow);
            assert_int_equal(n, plies);
            assert_int_equal(fast.over, slow.over);
            assert_int_equal(fast.winners, slow.winners);
            assert_string_equal(fast.reason, slow.reason);
            game_free(g);
            game_free(before);
        }
}

/* Issue 12, search: it looks ahead where greedy does not -- greedy takes
 * the pawn d5 that the e6 pawn defends, search does not (the queen would
 * be lost); from K c6 + R h1 against K a8 it mates in two whatever Black
 * answers; every perfect-information variant and seat is played a few
 * plies, the same with the same seed, Masqués too (over its hidden
 * figures). */
static void test_search_looks_ahead(void **state)
{
    (void)state;
    Rng rng;
    Error e;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        rng_seed(&rng, seed);
        Game *g = tu_orthodox("4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1");
        Game *h = game_clone(g);
        assert_int_equal(bot_play(g, 0, BOT_GREEDY, &rng, NULL, &e), 0);
        assert_string_equal(game_history(g, 0)->text, "Qxd5");
        assert_int_equal(bot_play(h, 0, BOT_SEARCH, &rng, NULL, &e), 0);
        assert_string_not_equal(game_history(h, 0)->text, "Qxd5");
        game_free(g);
        game_free(h);

        g = tu_orthodox("k7/8/2K5/8/8/8/8/7R w - - 0 1");
        assert_int_equal(bot_play(g, 0, BOT_SEARCH, &rng, NULL, &e), 0);
        assert_int_equal(bot_play(g, 1, BOT_RANDOM, &rng, NULL, &e), 0);
        assert_int_equal(bot_play(g, 0, BOT_SEARCH, &rng, NULL, &e), 0);
        tu_assert_over(g, "1-0", "checkmate");
        game_free(g);
    }
    /* Masqués: 40 plies, the setup (no position to search yet: the greedy
     * choice) then positions drawn from what the seat knows */
    static const struct {
        const char *variant;
        int nsides, nseats, plies;
    } games[] = {{"orthodox", 0, 0, 4}, {"ambigus", 0, 0, 4}, {"echiquete", 0, 3, 4},
                 {"tile", 3, 0, 4},     {"masques", 0, 0, 40}};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        TuGame spec = {.variant = tu_variant(games[i].variant), .seed = 2,
                       .nsides = games[i].nsides, .nseats = games[i].nseats};
        Game *a = tu_game(&spec), *b = tu_game(&spec);
        assert_int_equal(self_play(a, BOT_SEARCH, 5, games[i].plies), games[i].plies);
        assert_int_equal(self_play(b, BOT_SEARCH, 5, games[i].plies), games[i].plies);
        assert_true(game_same(a, b));
        game_free(a);
        game_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bots_play_every_variant),
        cmocka_unit_test(test_greedy_takes_material_and_the_win),
        cmocka_unit_test(test_bots_obey_house_rules),
        cmocka_unit_test(test_bot_sees_only_its_seat),
        cmocka_unit_test(test_bot_twins_with_a_choice),
        cmocka_unit_test(test_bot_batch_command),
        cmocka_unit_test(test_bot_budgets),
        cmocka_unit_test(test_play_with_bots),
        cmocka_unit_test(test_playout_is_the_game),
        cmocka_unit_test(test_search_looks_ahead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
