/*
 * test_turns_lab.c -- bots over a house rule's schedule (issue 25, TURN-1
 * to TURN-6; core/lab/bot.h): the search bot searches a multi-move turn as
 * the sequence of its actions, paranoid over the schedule (two maximising
 * plies in a row for Monster's White), and its model of the game knows how
 * many moves of the turn remain; the random and greedy bots play a
 * schedule to its end with every action from the legal list.
 *
 * The schedules here come from a harness of GameHooks (start and react
 * hooks calling game_turn_set and game_edit EDIT_TURN, as core/game.h
 * documents): the engine's side of a schedule without the Lua layer.
 *
 * Invariant: every game is capped in plies, every search in depth.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "../core/lab/bot.h"
#include "../core/game.h"
#include "../core/lua/house.h"
#include "../core/record/record.h"
#include "support/testutil.h"

/* ---- A schedule from hooks ------------------------------------------------ */

/* Moves a turn: the first turn's, then each side's. */
typedef struct Sched {
    int first, white, black;
} Sched;

static const Sched MONSTER = {2, 2, 1};
static const Sched MARSEILLAIS = {1, 2, 2};
static const Sched DOUBLE_MOVE = {2, 2, 2};

static int sched_moves(const Sched *s, int side, int number)
{
    return number == 1 ? s->first : side == 0 ? s->white : s->black;
}

static int sched_start(void *ud, Game *g, Error *e)
{
    GameTurn t = {game_side_to_move(g), 1, 0, 0, 0};
    t.moves = sched_moves(ud, t.side, 1);
    return game_turn_set(g, &t, e);
}

/* TURN-2: while moves remain the variant gives the turn back to the side
 * (EDIT_TURN); when it cannot (a check to answer, ORTH-6) the turn ends;
 * TURN-5: the next side begins the next turn. */
static int sched_react(void *ud, Game *g, const Action *a, Error *e)
{
    (void)a;
    GameTurn t = *game_turn(g);
    if (t.moves == 0 || game_to_act(g) < 0 || game_side_to_move(g) == t.side)
        return 0;
    t.made++;
    if (t.made < t.moves) {
        Edit ed = {EDIT_TURN, {-1, -1}, t.side, FIG_NONE, 0};
        Error refused;
        if (game_edit(g, &ed, &refused) == 0)
            return game_turn_set(g, &t, e) ? -2 : 0;
    }
    GameTurn n = {game_side_to_move(g), t.number + 1, 0, 0, 0};
    n.moves = sched_moves(ud, n.side, n.number);
    return game_turn_set(g, &n, e) ? -2 : 0;
}

static GameHooks sched_hooks(const Sched *s)
{
    GameHooks h;
    memset(&h, 0, sizeof h);
    h.ud = (void *)s;
    h.start = sched_start;
    h.react = sched_react;
    return h;
}

static Game *sched_game(const Sched *s, const char *fen)
{
    GameHooks h = sched_hooks(s);
    TuGame spec = {.variant = tu_variant("orthodox"), .position = fen, .hooks = &h};
    return tu_game(&spec);
}

/* The search bot's choice for the seat to act, within depth plies; its
 * machine text in out. */
static void search_choice(Game *g, int depth, char *out, size_t n)
{
    BotInput in;
    Error e;
    if (bot_input(g, game_to_act(g), &in, &e))
        fail_msg("bot input: %s", e.msg);
    BotLimits lim = {.nodes = 2000000, .depth = depth};
    Rng rng;
    rng_seed(&rng, 5);
    Action a;
    if (bot_choose_limited(&in, BOT_SEARCH, &lim, &rng, &a, &e))
        fail_msg("search bot: %s", e.msg);
    bot_input_free(&in);
    StrBuf b = STRBUF_INIT;
    game_format(g, &a, FMT_MACHINE, &b);
    snprintf(out, n, "%s", sb_str(&b));
    sb_free(&b);
}

/* Monster chess (issue 25): White mates only with two moves of one turn:
 * Ra2 cannot reach the eighth rank past its own pawn, but a move along
 * the second rank and then Rb8..Rf8 mate.  The search finds it within two
 * plies, its two maximising plies in a row, and plays both. */
static void test_search_mates_with_two_moves_of_a_monster_turn(void **state)
{
    (void)state;
    static const char FEN[] = "7k/6pp/8/8/8/P7/R7/4K3 w - - 0 1";
    /* no single White move mates */
    Game *plain = tu_orthodox(FEN);
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(plain, &l), 0);
    assert_true(l.n > 0);
    for (int i = 0; i < l.n; i++) {
        Game *c = game_clone(plain);
        Error e;
        assert_int_equal(game_apply(c, &l.v[i], &e), 0);
        assert_true(game_to_act(c) >= 0);
        game_free(c);
    }
    al_free(&l);
    game_free(plain);

    Game *g = sched_game(&MONSTER, FEN);
    char first[16], second[16];
    search_choice(g, 2, first, sizeof first);
    tu_play(g, 0, first);
    assert_int_equal(game_turn(g)->made, 1);  /* the same turn, White again */
    assert_int_equal(game_to_act(g), 0);
    search_choice(g, 2, second, sizeof second);
    tu_play(g, 0, second);
    tu_assert_over(g, "1-0", "checkmate");
    assert_int_equal(first[0], 'a');   /* the rook leaves a2 ... */
    assert_int_equal(second[3], '8');  /* ... and mates on the eighth rank */
    game_free(g);
}

/* Issue 25: the bot's model of the game knows how many moves of the turn
 * remain (View.turn_*, public): with White's last move of the turn to
 * play, Qxd5 loses the queen to exd5, though with one more move the queen
 * would get away with the rook.  A model rebuilt from the position string
 * alone restarts the schedule (two moves) and takes the rook. */
static void test_search_knows_the_moves_left_in_the_turn(void **state)
{
    (void)state;
    Game *g = sched_game(&MONSTER, "7k/8/4p3/3r4/8/8/8/3QK3 w - - 0 1");
    tu_play(g, 0, "e1f2");
    assert_int_equal(game_turn(g)->made, 1);
    assert_int_equal(game_turn(g)->moves, 2);
    View *v = calloc(1, sizeof *v);
    assert_int_equal(game_view(g, 0, v), 0);
    assert_int_equal(v->turn_made, 1);
    assert_int_equal(v->turn_moves, 2);
    free(v);
    char pick[16];
    search_choice(g, 2, pick, sizeof pick);
    assert_string_not_equal(pick, "d1d5");
    /* the turn ends with the queen out of Black's reach */
    Game *after = game_clone(g);
    tu_play(after, 0, pick);
    assert_int_equal(game_to_act(after), 1);
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(after, &l), 0);
    for (int i = 0; i < l.n; i++)
        if (l.v[i].to.x == pick[2] - 'a' && l.v[i].to.y == pick[3] - '1')
            fail_msg("after %s Black takes the queen", pick);
    al_free(&l);
    game_free(after);
    /* and at the turn's first move the same capture is right: within two
     * plies the queen takes the rook and leaves with the second move */
    Game *fresh = sched_game(&MONSTER, "7k/8/4p3/3r4/8/8/8/3QK3 w - - 0 1");
    search_choice(fresh, 2, pick, sizeof pick);
    assert_string_equal(pick, "d1d5");
    game_free(fresh);
    game_free(g);
}

/* Issue 25: GameConfig.turn, the turn under way at a position (what a
 * bot's model is built with), replaces the start hook's, is kept by a
 * copy and by undo's replay; one that makes no sense is refused, named. */
static void test_a_game_starts_mid_turn(void **state)
{
    (void)state;
    GameHooks h = sched_hooks(&MONSTER);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("orthodox");
    cfg.position = "7k/8/4p3/3r4/8/8/5K2/3Q4 w - - 0 1";
    GameTurn mid = {0, 4, 1, 2, 0};
    cfg.turn = &mid;
    Error e;
    Game *g = game_new_hooked(&cfg, &h, &e);
    assert_non_null(g);
    mid.made = 0; /* the game keeps its own copy */
    assert_int_equal(game_turn(g)->number, 4);
    assert_int_equal(game_turn(g)->made, 1);
    tu_play(g, 0, "d1h1"); /* the turn's last move: Black's turn 5 */
    assert_int_equal(game_turn(g)->side, 1);
    assert_int_equal(game_turn(g)->number, 5);
    Game *c = game_clone(g);
    assert_true(game_same(g, c));
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_int_equal(game_turn(g)->number, 4);
    assert_int_equal(game_turn(g)->made, 1);
    assert_int_equal(game_to_act(g), 0);
    game_free(c);
    game_free(g);
    GameTurn bad = {0, 1, 3, 2, 0};
    cfg.turn = &bad;
    strcpy(e.msg, "");
    assert_null(game_new_hooked(&cfg, &h, &e));
    assert_non_null(strstr(e.msg, "3 of 2 moves made"));
}

/* Marseillais (issue 25, TURN-2): a move that gives check ends the turn,
 * so Qxf7+ (two moves would take the pawn and retreat) loses the queen to
 * Kxf7: the search does not count on a second move after a check. */
static void test_search_knows_a_check_ends_the_turn(void **state)
{
    (void)state;
    static const char FEN[] = "4k3/5p2/8/8/8/5Q2/8/4K3 w - - 0 3";
    Game *g = sched_game(&MARSEILLAIS, FEN);
    /* turn 1 is White's single move in Marseillais; start at a later one */
    assert_int_equal(game_turn(g)->moves, 1);
    game_free(g);
    g = sched_game(&DOUBLE_MOVE, FEN);
    assert_int_equal(game_turn(g)->moves, 2);
    /* the rule itself: after Qxf7+ Black acts */
    Game *c = game_clone(g);
    tu_play(c, 0, "f3f7");
    assert_int_equal(game_to_act(c), 1);
    assert_int_equal(game_turn(c)->side, 1);
    game_free(c);
    char pick[16];
    search_choice(g, 3, pick, sizeof pick);
    assert_string_not_equal(pick, "f3f7");
    game_free(g);
}

/* Issue 25: the random and greedy bots play each schedule to its end (or
 * the cap), every action one of the legal list, and the turn's count
 * stays within its moves. */
static void test_random_and_greedy_play_schedules_to_the_end(void **state)
{
    (void)state;
    static const struct {
        const Sched *s;
        const char *fen;
    } games[] = {
        {&MONSTER, "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1"},
        {&MARSEILLAIS, NULL},
        {&DOUBLE_MOVE, NULL},
    };
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        for (int level = BOT_RANDOM; level <= BOT_GREEDY; level++) {
            Game *g = sched_game(games[i].s, games[i].fen);
            Rng rng;
            rng_seed(&rng, 11 + i);
            int plies = 0, again = 0;
            for (; plies < 400 && game_to_act(g) >= 0; plies++) {
                int seat = game_to_act(g), side = game_side_to_move(g);
                BotInput in;
                Action a;
                Error e;
                assert_int_equal(bot_input(g, seat, &in, &e), 0);
                assert_int_equal(bot_choose(&in, level, &rng, &a, &e), 0);
                int listed = 0;
                for (int k = 0; k < in.legal.n && !listed; k++)
                    listed = action_eq(&in.legal.v[k], &a);
                bot_input_free(&in);
                assert_true(listed);
                if (game_apply(g, &a, &e))
                    fail_msg("%s bot, ply %d: %s", bot_level_name(level), plies, e.msg);
                const GameTurn *t = game_turn(g);
                assert_true(t->made < t->moves || game_to_act(g) < 0);
                again += game_to_act(g) >= 0 && game_side_to_move(g) == side;
            }
            assert_true(plies > 0);
            assert_true(again > 0); /* a side moved twice in a row */
            game_free(g);
        }
}

/* ---- The schedules of scripts/ ---------------------------------------------- */

/* Each schedule of issue 25 and the variant it is played on. */
static const struct {
    const char *script, *variant;
} SCRIPTS[] = {
    {"monster.lua", "orthodox"},        {"marseillais.lua", "orthodox"},
    {"progressive.lua", "orthodox"},    {"balanced.lua", "orthodox"},
    {"double_move.lua", "orthodox"},    {"black_extra_capture.lua", "orthodox"},
    {"marseillais.lua", "ambigus"},       {"duck.lua", "fairy"},
};
enum { NSCRIPTS = sizeof SCRIPTS / sizeof SCRIPTS[0] };

/* A game of `variant` under scripts/FILE (its parameters as the program
 * sets them), from position (NULL: the script's or variant's start). */
static Game *script_game(const char *file, const char *variant, uint64_t seed,
                         const char *position)
{
    char path[256];
    snprintf(path, sizeof path, "scripts/%s", file);
    char *text = tu_read_file(path);
    if (!text)
        fail_msg("cannot read %s", path);
    const VariantOps *v = tu_variant(variant);
    HouseSource src = {file, text, strlen(text)};
    Error e = {""};
    House *h = house_load(v, 0, &src, 1, NULL, &e);
    if (!h)
        fail_msg("%s: %s", path, e.msg);
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
    house_free(h);
    free(text);
    if (!g)
        fail_msg("%s: %s", path, e.msg);
    return g;
}

/* Bots of spec play g until the end or max plies, each action checked
 * against the legal list of its moment, the turn's count within its
 * moves: the plies played; *again, the actions after which the same side
 * acts again (an extra move, a duck to place). */
static int bot_game(Game *g, const BotSpec *spec, uint64_t seed, int max, const char *what,
                    int *again)
{
    Rng rng;
    rng_seed(&rng, seed);
    int plies = 0;
    *again = 0;
    for (; plies < max && game_to_act(g) >= 0; plies++) {
        int seat = game_to_act(g), side = game_side_to_move(g);
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
        const GameTurn *t = game_turn(g);
        /* the turn is under way: a move of it to make, or (TURN-4) the
         * duck to place after its last move */
        if (game_to_act(g) >= 0 && (t->moves < 1 || t->made > t->moves ||
                                    (t->made == t->moves && !t->duck)))
            fail_msg("%s, ply %d: turn %d with %d of %d moves made", what, plies, t->number,
                     t->made, t->moves);
        *again += game_to_act(g) >= 0 && game_side_to_move(g) == side;
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

/* Issue 25: the random and greedy bots play every schedule of scripts/ to
 * its end (or 300 plies), every action in the legal list of its moment;
 * a side acts twice in a row somewhere; the same seed gives the same game;
 * the record loads back as the same game, the turn under way included;
 * undo takes back to the turn of the game replayed to that ply. */
static void test_bots_play_every_schedule_script(void **state)
{
    (void)state;
    int ended = 0, games = 0;
    for (int i = 0; i < NSCRIPTS; i++)
        for (int level = BOT_RANDOM; level <= BOT_GREEDY; level++) {
            BotSpec spec = {.level = level};
            char what[128];
            snprintf(what, sizeof what, "%s, %s bot", SCRIPTS[i].script,
                     bot_level_name(level));
            Game *a = script_game(SCRIPTS[i].script, SCRIPTS[i].variant, 5, NULL);
            Game *b = script_game(SCRIPTS[i].script, SCRIPTS[i].variant, 5, NULL);
            int again, again_b;
            int plies = bot_game(a, &spec, 11 + (uint64_t)i, 300, what, &again);
            assert_true(plies > 0);
            assert_int_equal(bot_game(b, &spec, 11 + (uint64_t)i, 300, what, &again_b), plies);
            if (!game_same(a, b))
                fail_msg("%s: the same seed gave another game", what);
            if (again == 0)
                fail_msg("%s: no side acted twice in a row in %d plies", what, plies);
            char *text = save_text(a);
            Error e = {""};
            Game *l = record_load(text, "turns.rec", &e);
            if (!l)
                fail_msg("%s: load: %s\n%s", what, e.msg, text);
            if (!game_same(a, l))
                fail_msg("%s: the loaded game differs from the one saved", what);
            game_free(l);
            free(text);
            /* undo three actions: the game replayed to that ply, the
             * turn under way included (a turn's second move taken back
             * gives the same side its move again) */
            if (plies > 3) {
                Game *u = game_clone(a);
                Game *r = script_game(SCRIPTS[i].script, SCRIPTS[i].variant, 5, NULL);
                for (int k = 0; k < plies - 3; k++) {
                    Action act = game_history(a, k)->action;
                    assert_int_equal(game_apply(r, &act, &e), 0);
                }
                assert_int_equal(game_undo(u, 3, &e), 0);
                const GameTurn *tu = game_turn(u), *tr = game_turn(r);
                assert_int_equal(tu->number, tr->number);
                assert_int_equal(tu->made, tr->made);
                assert_int_equal(game_to_act(u), game_to_act(r));
                assert_int_equal(game_history_len(u), plies - 3);
                game_free(u);
                game_free(r);
            }
            ended += game_to_act(a) < 0;
            games++;
            game_free(a);
            game_free(b);
        }
    assert_true(ended * 2 > games); /* most end by the rules, not the cap */
}

/* Issue 25: the search bot plays the first turns of every schedule, each
 * action legal (search:300 for speed). */
static void test_search_plays_every_schedule_script(void **state)
{
    (void)state;
    for (int i = 0; i < NSCRIPTS; i++) {
        BotSpec spec = {.level = BOT_SEARCH, .lim = {.nodes = 300}};
        Game *g = script_game(SCRIPTS[i].script, SCRIPTS[i].variant, 3, NULL);
        int again;
        assert_true(bot_game(g, &spec, 7, 12, SCRIPTS[i].script, &again) > 0);
        game_free(g);
    }
}

/* Duck chess (scripts/duck.lua, issue 25 TURN-4): a rook takes the King
 * along its back rank unless the duck stands between them; the King
 * cannot leave that rank (its own pawns).  A duck off the rank loses the
 * King; the search bot makes its move and then blocks the rank with the
 * duck, and no reply takes the King.  Both sides: White's rank 1 (b1..g1),
 * and Black's rank 8 (b8..g8), where the empty squares of the first ranks
 * come first in the list and none of them blocks. */
static void test_search_blocks_a_mate_with_the_duck(void **state)
{
    (void)state;
    static const struct {
        const char *fen, *lost[3];
        int seat;
        char rank;
    } P[] = {
        {"k7/8/8/8/8/8/6PP/r6K w - - 0 1", {"g2g3", "@e4", "a1h1"}, 0, '1'},
        {"k6R/pp6/8/8/8/8/8/7K b - - 0 1", {"a7a6", "@a1", "h8a8"}, 1, '8'},
    };
    for (size_t p = 0; p < sizeof P / sizeof P[0]; p++) {
        int seat = P[p].seat;
        /* the rank left open, the rook takes the King */
        Game *open = script_game("duck.lua", "fairy", 5, P[p].fen);
        tu_play(open, seat, P[p].lost[0]);
        tu_play(open, seat, P[p].lost[1]);
        tu_play(open, 1 - seat, P[p].lost[2]);
        tu_assert_over(open, seat ? "1-0" : "0-1",
                       seat ? "black's royal piece captured" : "white's royal piece captured");
        game_free(open);

        Game *g = script_game("duck.lua", "fairy", 5, P[p].fen);
        char move[16], duck[16];
        search_choice(g, 3, move, sizeof move);
        tu_play(g, seat, move);
        assert_int_equal(game_to_act(g), seat);
        assert_true(game_turn(g)->duck);
        search_choice(g, 2, duck, sizeof duck);
        tu_play(g, seat, duck);
        if (duck[0] != '@' || duck[1] < 'b' || duck[1] > 'g' || duck[2] != P[p].rank || duck[3])
            fail_msg("%s: after %s the duck went to %s, not between the rook and the King",
                     P[p].fen, move, duck);
        assert_int_equal(game_to_act(g), 1 - seat);
        ActionList l = ACTIONLIST_INIT;
        assert_int_equal(game_legal_play(g, &l), 0);
        assert_true(l.n > 0);
        for (int i = 0; i < l.n; i++) {
            Game *c = game_clone(g);
            Error e;
            assert_int_equal(game_apply(c, &l.v[i], &e), 0);
            if (game_to_act(c) < 0)
                fail_msg("%s: after %s %s a reply ends the game", P[p].fen, move, duck);
            game_free(c);
        }
        al_free(&l);
        game_free(g);
    }
}

static char *run_ok(const char *args)
{
    TuRun r;
    tu_run(&r, args, NULL);
    if (r.status != 0)
        fail_msg("chessvar %s: status %d, %s", args, r.status, r.err);
    free(r.err);
    return r.out;
}

/* Issue 25: an experiment of every schedule against the variant's own
 * rules, as a user types it, plays its games to the end; --jobs 2 gives
 * the single run's bytes. */
static void test_experiment_every_schedule_script(void **state)
{
    (void)state;
    for (int i = 0; i < NSCRIPTS; i++) {
        char args[512], want[160];
        snprintf(args, sizeof args, "experiment %s --games 4 --seed 1 --max-plies 400 "
                 "--bot white=greedy --compare --rules scripts/%s", SCRIPTS[i].variant,
                 SCRIPTS[i].script);
        char *one = run_ok(args);
        snprintf(want, sizeof want, "(scripts/%s)\n", SCRIPTS[i].script);
        assert_non_null(strstr(one, want));
        assert_non_null(strstr(one, "How the games ended"));
        strcat(args, " --jobs 2");
        char *two = run_ok(args);
        assert_string_equal(two, one);
        free(one);
        free(two);
    }
}

/* Issue 25: an experiment's saved games under a schedule load back with
 * `run --load` and replay to the same end (the result the report gave). */
static void test_experiment_saves_schedule_games(void **state)
{
    (void)state;
    char dir[] = "/tmp/cvturnslabXXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[512];
    snprintf(args, sizeof args,
             "experiment orthodox --rules scripts/monster.lua --games 2 --seed 9 "
             "--bot white=greedy --bot black=greedy --save-games %s --json", dir);
    char *json = run_ok(args);
    const char *at = json;
    for (int i = 0; i < 2; i++) {
        /* the game's result and plies in the report */
        at = strstr(at, "\"result\":\"");
        assert_non_null(at);
        char result[16] = "";
        sscanf(at + strlen("\"result\":\""), "%15[^\"]", result);
        const char *pl = strstr(at, "\"plies\":");
        assert_non_null(pl);
        int plies = atoi(pl + strlen("\"plies\":"));
        at = pl;
        char path[128];
        snprintf(path, sizeof path, "%s/game-%06d.rec", dir, i);
        char *rec = tu_read_file(path);
        if (!rec)
            fail_msg("no record %s after: %s", path, json);
        Error e = {""};
        Game *g = record_load(rec, path, &e);
        if (!g)
            fail_msg("%s: %s", path, e.msg);
        char res[64];
        assert_string_equal(game_result_text(g, res, sizeof res), result);
        assert_int_equal(game_history_len(g), plies);
        assert_true(game_to_act(g) < 0);
        game_free(g);
        char cmd[256];
        snprintf(cmd, sizeof cmd, "run --load %s --trust-rules", path);
        TuRun r;
        tu_run(&r, cmd, "status\n");
        assert_int_equal(r.status, 0);
        assert_non_null(strstr(r.out, "game over:"));
        tu_run_free(&r);
        free(rec);
        unlink(path);
    }
    rmdir(dir);
    free(json);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_mates_with_two_moves_of_a_monster_turn),
        cmocka_unit_test(test_search_knows_the_moves_left_in_the_turn),
        cmocka_unit_test(test_a_game_starts_mid_turn),
        cmocka_unit_test(test_search_knows_a_check_ends_the_turn),
        cmocka_unit_test(test_random_and_greedy_play_schedules_to_the_end),
        cmocka_unit_test(test_bots_play_every_schedule_script),
        cmocka_unit_test(test_search_plays_every_schedule_script),
        cmocka_unit_test(test_search_blocks_a_mate_with_the_duck),
        cmocka_unit_test(test_experiment_every_schedule_script),
        cmocka_unit_test(test_experiment_saves_schedule_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
