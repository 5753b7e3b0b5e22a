/*
 * test_house_ask.c -- issue 24, "What a script can ask" (core/lua/house.c,
 * docs/HOUSE-RULES.md "Asking about positions" and "The sandbox"):
 * game:legal, game:attackers, game:after and game:size, and the sandbox's
 * library of board squares, each checked against the engine's own answer
 * (the legal list, a game played on), in a game and below it in perft, on
 * positions the variant is asked to hand to the other side, and under the
 * sandbox's instruction and memory limits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

static House *load(const VariantOps *v, const char *text, long budget, Error *e)
{
    HouseSource s = {"ask.lua", text, strlen(text)};
    HouseLimits lim = {.instructions = budget, .memory = (size_t)8 << 20};
    e->msg[0] = '\0';
    return house_load(v, 0, &s, 1, &lim, e);
}

static Game *hooked(House *h, const VariantOps *v, const char *fen, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.position = fen;
    params_defaults(v, &cfg.params);
    cfg.params_set = 1;
    GameHooks k = house_hooks(h);
    return game_new_hooked(&cfg, &k, e);
}

/* What a start hook printed, the game made on fen (NULL: the start). */
static char *start_log(const char *variant, const char *fen, const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "rule { name = 'Ask', start = function(game)\n%s\nend }\n",
             body);
    Error e;
    const VariantOps *v = tu_variant(variant);
    House *h = load(v, text, 10000000L, &e);
    if (!h)
        fail_msg("%s", e.msg);
    Game *g = hooked(h, v, fen, &e);
    if (!g)
        fail_msg("%s", e.msg);
    char *log = cv_strdup(house_log(h));
    game_free(g);
    house_free(h);
    return log;
}

/* issue 24: game:legal() is the variant's legal list, action for action
 * (kind, squares, machine text), for the side to move and, handed to it,
 * for the other side. */
static void test_issue24_legal_is_the_engines(void **state)
{
    (void)state;
    const char *fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    char *log = start_log("orthodox", fen,
                          "for _, a in ipairs(game:legal()) do print(a.kind, a.from, a.to, "
                          "a.text) end\nprint('black', #game:legal('black'))\n"
                          "print('white', #game:legal('white'))");
    Game *g = tu_orthodox(fen);
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    assert_int_equal(l.n, 48);
    StrBuf want = STRBUF_INIT;
    for (int i = 0; i < l.n; i++) {
        StrBuf t = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_MACHINE, &t);
        sb_printf(&want, "move\t%.2s\t%.2s\t%s\n", sb_str(&t), sb_str(&t) + 2, sb_str(&t));
        sb_free(&t);
    }
    /* black's list: the same position with black to move */
    Game *b = tu_orthodox("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1");
    ActionList bl = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(b, &bl), 0);
    sb_printf(&want, "black\t%d\nwhite\t48\n", bl.n);
    assert_string_equal(log, sb_str(&want));
    sb_free(&want);
    al_free(&l);
    al_free(&bl);
    game_free(g);
    game_free(b);
    free(log);
}

/* issue 24: game:attackers(square, side): the pieces of side that can go
 * to the square, side to move or not. */
static void test_issue24_attackers(void **state)
{
    (void)state;
    char *log = start_log("orthodox", "4k3/4p3/3p4/8/2N1R3/8/8/4K2B w - - 0 1",
                          "print(table.concat(game:attackers('d6', 'white'), ' '))\n"
                          "print(table.concat(game:attackers('e4', 'black'), ' '))\n"
                          "print(table.concat(game:attackers('d7', 'black'), ' '))\n"
                          "print(#game:attackers('a8', 'white'))\n"
                          "print(table.concat(game:attackers('e7', 'white'), ' '))");
    /* d6: the knight (the rook is on the e file); e4: no black piece goes
     * there (the pawn d6 does not take forward); d7: black's King; a8: the
     * bishop's diagonal is blocked by its own rook; e7: the rook takes */
    assert_string_equal(log, "c4\n\ne8\n0\ne4\n");
    free(log);
    /* the side not to move, in check: the position handed to it is not
     * one chess accepts, and the error says so */
    log = start_log("orthodox", "4k3/8/8/8/8/8/8/4R2K b - - 0 1",
                    "print(pcall(game.attackers, game, 'e8', 'white'))\n"
                    "print(table.concat(game:after('e8d8'):attackers('d8', 'white'), ' '))");
    assert_has(log, "game:attackers: the position with white to move is not one orthodox "
                    "accepts (Black is in check but it is White's turn");
    free(log);
}

/* issue 24: game:after gives the position the engine reaches (position,
 * side, pieces, move number), chained; it is read-only. */
static void test_issue24_after_is_the_game_played_on(void **state)
{
    (void)state;
    char *log = start_log("orthodox", NULL,
                          "local a = game:after('e2e4')\n"
                          "local b = a:after('e7e5'):after('g1f3')\n"
                          "print(b:position())\nprint(b:side_to_move(), b:move_number(), "
                          "game:move_number())\n"
                          "print(b:piece_at('f3').figure, game:piece_at('f3'))\n"
                          "print(#b:legal(), b:in_check('black'), b:over())\n"
                          "print(pcall(b.history, b))\nprint(pcall(b.get, b, 'x'))\n"
                          "print(pcall(game.after, game, 'e2e5'))\n"
                          "print(pcall(game.after, game, 3))\n"
                          "print(game:after({text = 'd2d4'}):position())");
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5 Nf3");
    char *pos = tu_position(g);
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    char want[2048];
    snprintf(want, sizeof want,
             "%s\nblack\t4\t1\nN\tnil\n%d\tfalse\tfalse\n"
             "false\tgame:history: a position game:after gave answers about its board only "
             "(no history, kept values or edits)\n"
             "false\tgame:get: a position game:after gave answers about its board only (no "
             "history, kept values or edits)\n"
             "false\tgame:after: e2e5: the pawn on e2 cannot move to e5 (a pawn moves one "
             "square forward, or two from its starting rank)\n"
             "false\tgame:after: expected an action (its text, \"e2e4\", or an action table), "
             "got a number\n"
             "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1\n", pos, l.n);
    assert_string_equal(log, want);
    al_free(&l);
    free(pos);
    game_free(g);
    free(log);
}

/* Perft counting only moves that give no check, played through the engine
 * (a copy per move): what a veto asking game:after must count. */
static uint64_t no_check_perft(const Game *g, int depth)
{
    if (depth == 0)
        return 1;
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        Game *c = game_clone(g);
        Error e;
        assert_int_equal(game_apply(c, &l.v[i], &e), 0);
        Status s;
        game_status(c, &s);
        if (!s.in_check)
            n += no_check_perft(c, depth - 1);
        game_free(c);
    }
    al_free(&l);
    return n;
}

/* issue 24: in a veto below the game (perft), game:after starts from the
 * position judged, not the game's: a rule that forbids giving check
 * counts what the engine counts. */
static void test_issue24_after_in_a_veto_below_the_game(void **state)
{
    (void)state;
    const char *fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    const VariantOps *v = tu_variant("orthodox");
    Error e;
    House *h = load(v, "rule { name = 'No checks', veto = function(game, action)\n"
                       "  local after = game:after(action)\n"
                       "  local other = after:side_to_move()\n"
                       "  if other and after:in_check(other) then return 'no checks' end\n"
                       "end }\n", 10000000L, &e);
    if (!h)
        fail_msg("%s", e.msg);
    Game *g = hooked(h, v, fen, &e);
    if (!g)
        fail_msg("%s", e.msg);
    Game *plain = tu_orthodox(fen);
    uint64_t want2 = no_check_perft(plain, 2), want3 = no_check_perft(plain, 3);
    assert_true(want2 < game_perft(plain, 2));
    assert_int_equal(game_perft(g, 2), want2);
    assert_int_equal(game_perft(g, 3), want3);
    game_free(plain);
    game_free(g);
    house_free(h);
}

/* issue 24: the new calls are charged to the call's budget and held to the
 * memory cap: a loop of them fails with the limit, named. */
static void test_issue24_asking_is_limited(void **state)
{
    (void)state;
    const VariantOps *v = tu_variant("orthodox");
    static const char *const loops[] = {
        "while true do game:legal() end",
        "while true do game:attackers('e4', 'black') end",
        "local t = {} while true do t[#t + 1] = game:after('e2e4') end",
        "while true do board.squares(16, 16) end",
    };
    static const char *const wants[] = {"instruction budget exceeded",
                                        "instruction budget exceeded",
                                        "memory cap exceeded",
                                        "instruction budget exceeded"};
    for (size_t i = 0; i < sizeof loops / sizeof loops[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "rule { name = 'Loop', start = function(game) %s end }",
                 loops[i]);
        Error e;
        House *h = load(v, text, wants[i][0] == 'm' ? 1000000000L : 2000000L, &e);
        if (!h)
            fail_msg("%s", e.msg);
        Game *g = hooked(h, v, NULL, &e);
        if (g)
            fail_msg("%s: the game was made", loops[i]);
        if (!strstr(e.msg, wants[i]))
            fail_msg("%s: %s", loops[i], e.msg);
        assert_has(e.msg, wants[i][0] == 'm' ? "house rule ask.lua, start:" : "ask.lua:1:");
        assert_has(e.msg, wants[i]);
        house_free(h);
    }
}

/* issue 24: a variant whose positions are not FEN cannot hand one to
 * another side, and says so; game:size is nil on an open plane. */
static void test_issue24_other_variants(void **state)
{
    (void)state;
    char *log = start_log("tile", NULL,
                          "print(game:size())\nprint(#game:legal() > 0)\n"
                          "print(pcall(game.legal, game, game.sides[2]))");
    assert_has(log, "\ntrue\nfalse\tgame:legal: ");
    assert_has(log, "is not to move, and a tile position cannot be handed to another side "
                    "(only one written as FEN can)");
    assert_true(log[0] == '\n'); /* game:size(): nothing */
    free(log);
    log = start_log("orthodox", NULL, "print(game:size())");
    assert_string_equal(log, "8\t8\n");
    free(log);
}

/* issue 24: the sandbox's board squares. */
static void test_issue24_board_library(void **state)
{
    (void)state;
    char *log = start_log(
        "orthodox", NULL,
        "print(board.file('e4'), board.rank('e4'), board.file('p16'), board.rank('p16'))\n"
        "print(board.square(5, 4), board.square(16, 16), board.square(17, 1), "
        "board.square(0, 1))\n"
        "print(table.concat(board.around('a1', 8, 8), ' '))\n"
        "print(table.concat(board.around('e4', 8, 8), ' '))\n"
        "print(table.concat(board.around('j10', 10, 10), ' '))\n"
        "print(table.concat(board.around('h8', 10, 10), ' '))\n"
        "local s = board.squares(10, 8) print(#s, s[1], s[10], s[11], s[80])\n"
        "print(pcall(board.file, 'q1'))\nprint(pcall(board.rank, 'a17'))\n"
        "print(pcall(board.around, 'e4', 17, 8))");
    assert_string_equal(log,
                        "5\t4\t16\t16\n"
                        "e4\tp16\tnil\tnil\n"
                        "a2 b1 b2\n"
                        "d3 d4 d5 e3 e5 f3 f4 f5\n"
                        "i9 i10 j9\n"
                        "g7 g8 g9 h7 h9 i7 i8 i9\n"
                        "80\ta1\tj1\ta2\tj8\n"
                        "false\tboard.file: 'q1' is not a square (a1 .. p16)\n"
                        "false\tboard.rank: 'a17' is not a square (a1 .. p16)\n"
                        "false\tboard.around: the width is 1 to 16 squares, not 17\n");
    free(log);
}

/* issue 24: a reaction's edit changes the position the next call reads
 * (the calls answer for the position judged, which an edit replaces). */
static void test_issue24_reads_after_an_edit(void **state)
{
    (void)state;
    const VariantOps *v = tu_variant("orthodox");
    Error e;
    House *h = load(v, "rule { name = 'Rm', react = function(game, action)\n"
                       "  if action.text ~= 'e2e4' then return end\n"
                       "  game:remove('a7')\n"
                       "  print(game:piece_at('a7'), #game:pieces())\n"
                       "  game:add('a6', 'black', 'N')\n"
                       "  print(game:piece_at('a6').figure, #game:pieces(), #game:legal())\n"
                       "  print(game:after('b8c6'):piece_at('a6').figure)\n"
                       "  print(game:piece_at('b8').figure)\n"
                       "end }\n", 10000000L, &e);
    if (!h)
        fail_msg("%s", e.msg);
    Game *g = hooked(h, v, NULL, &e);
    if (!g)
        fail_msg("%s", e.msg);
    tu_play_line(g, "e4");
    Game *want = tu_orthodox("rnbqkbnr/1ppppppp/n7/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(want, &l), 0);
    char out[256];
    snprintf(out, sizeof out, "nil\t31\nN\t32\t%d\nN\nN\n", l.n);
    assert_string_equal(house_log(h), out);
    al_free(&l);
    game_free(want);
    game_free(g);
    house_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue24_legal_is_the_engines),
        cmocka_unit_test(test_issue24_attackers),
        cmocka_unit_test(test_issue24_after_is_the_game_played_on),
        cmocka_unit_test(test_issue24_after_in_a_veto_below_the_game),
        cmocka_unit_test(test_issue24_asking_is_limited),
        cmocka_unit_test(test_issue24_other_variants),
        cmocka_unit_test(test_issue24_board_library),
        cmocka_unit_test(test_issue24_reads_after_an_edit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
