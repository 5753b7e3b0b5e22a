/*
 * test_edit_masques.c -- the checked edit op of house-rule reactions
 * (capability HOUSE-5, core/variant.h Edit) for Les Échecs Masqués:
 * remove, add (masked or revealed), change a piece between turns of play,
 * with hidden figures kept hidden: its owner reads the figure, the other
 * seat reads "the masked black piece on d8" -- in the game's messages and
 * at the interface a person uses (a batch session's output for White),
 * and in the refusals, whose text reaches the seat that acted.
 *
 * Each refusal must leave the game byte-for-byte as it was
 * (tu_assert_refused_by: game_same with a copy taken before).
 *
 * Invariant: every test builds its own House and games and frees them.
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

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define START "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"
/* Black loses its masked Queen, its b8 Knight becomes the Queen, a masked
 * Knight comes on d5 (within the army: MASQ-1). */
#define SWAP "game:remove('d8'); game:change('b8', 'Q'); " \
             "game:add('d5', 'black', 'N', {masked = true})"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

static void assert_lacks(const char *text, const char *bad)
{
    if (text && strstr(text, bad))
        fail_msg("\"%s\" must not be in: %s", bad, text);
}

static const char *script_text(const char *lua)
{
    static char text[1024];
    snprintf(text, sizeof text,
             "rule { name = 'edit test', variants = 'masques',\n"
             "  react = function(game, action)\n"
             "    if action.kind == 'move' and action.seat == 'white' then %s end\n"
             "  end }\n", lua);
    return text;
}

/* A Masqués game from pos (NULL: setup) whose reaction runs lua after
 * each of White's moves. */
static Game *edit_game(const char *pos, const char *lua)
{
    Error e;
    const char *text = script_text(lua);
    const VariantOps *v = tu_variant("masques");
    HouseSource s = {"edit.lua", text, strlen(text)};
    House *h = house_load(v, 0, &s, 1, NULL, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.variant = v, .position = pos, .seed = 5, .hooks = &k});
    house_free(h);
    return g;
}

/* Every message seat got from index from on, one per line (malloc'd). */
static char *messages_of(const Game *g, int seat, int from)
{
    StrBuf b = STRBUF_INIT;
    for (int i = from; i < game_message_count(g); i++)
        if (game_message(g, i, seat))
            sb_printf(&b, "%s\n", game_message(g, i, seat));
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* HOUSE-5, MASQ-12: the edits happen; Black reads its figures, White
 * reads none; the full truth is as the reader builds it; undo is exact. */
static void test_masq_edit_messages_by_seat(void **state)
{
    (void)state;
    Game *g = edit_game(START, SWAP);
    Game *before = game_clone(g);
    int from = game_message_count(g);
    tu_play(g, 0, "e2e3");
    tu_assert_position(g, "r~q~b~1k~b~n~r~/p~p~p~p~p~p~p~p~/8/3n~4/8/4P~3/P~P~P~P~1P~P~P~/"
                          "R~N~B~Q~K~B~N~R~ b KQkq - 0 1");
    char *white = messages_of(g, 0, from), *black = messages_of(g, 1, from);
    assert_has(white, "house rule: the masked black piece on d8 is removed\n"
                      "house rule: the masked black piece on b8 changes its hidden figure\n"
                      "house rule: a masked black piece is added on d5\n");
    assert_has(black, "house rule: the masked black Queen on d8 is removed\n"
                      "house rule: the masked black Knight on b8 becomes a masked Queen\n"
                      "house rule: a masked black Knight is added on d5\n");
    assert_lacks(white, "Queen");
    assert_lacks(white, "Knight");
    Error e;
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_true(game_same(g, before));
    free(white);
    free(black);
    game_free(before);
    game_free(g);
}

/* HOUSE-5: revealed pieces are edited in the open; a revealed King is
 * never removed nor changed (MASQ-14, MASQ-1). */
static void test_masq_edit_revealed(void **state)
{
    (void)state;
    const char *pos = "4k~3/3p~4/8/8/8/8/4P3/3RK3 w - - 0 1";
    Game *g = edit_game(pos, "game:change('d1', 'Q'); game:add('a1', 'white', 'N')");
    tu_play(g, 0, "e2e3");
    tu_assert_position(g, "4k~3/3p~4/8/8/8/4P3/8/N^2QK3 b - - 0 1"); /* added: "moved" */
    assert_string_equal(game_message(g, game_message_count(g) - 1, 1),
                        "house rule: a white Knight is added on a1");
    game_free(g);
    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:remove('e1')", "cannot remove the white King on e1: a revealed King is "
                              "never removed, it is mated (MASQ-14, MASQ-16)"},
        {"game:change('e1', 'Q')", "cannot change the white King on e1 into a Queen: each "
                                   "side keeps its one King (MASQ-1)"},
        {"game:add('a8', 'white', 'P')", "cannot add a revealed white Pawn on a8: its last "
                                         "rank (MASQ-3)"},
        {"game:add('a1', 'white', 'K')", "Kings are never added"},
        {"game:remove('h8')", "no piece on h8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        g = edit_game(pos, cases[i].lua);
        tu_assert_refused_by(g, 0, "e2e3", cases[i].want);
        game_free(g);
    }
}

/* HOUSE-5, MASQ-1, MASQ-12: a refusal that could tell a hidden figure
 * gives no reason: changing the masked King, or a change beyond the army
 * (a second masked Queen), reads the same to the seat that acted. */
static void test_masq_edit_refusals_tell_nothing(void **state)
{
    (void)state;
    static const struct {
        const char *lua, *want;
    } cases[] = {
        {"game:change('e8', 'Q')", "cannot change the masked black piece on e8 (its figure "
                                   "is hidden, so the reason is not given)"},
        {"game:change('b8', 'Q')", "cannot change the masked black piece on b8: the position "
                                   "would break the armies' limits or the rule of check "
                                   "(MASQ-1, MASQ-14)"},
        {"game:remove('a7'); game:add('d5', 'black', 'Q', {masked = true})",
         "cannot add a masked black piece on d5: the position would break"},
        {"game:add('d2', 'black', 'N')", "cannot add a piece on d2: the masked white piece on "
                                         "d2 stands there"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = edit_game(START, cases[i].lua);
        tu_assert_refused_by(g, 0, "e2e3", cases[i].want);
        Error e;
        assert_int_equal(game_play(g, 0, "e2e3", &e), -1);
        assert_lacks(e.msg, "King");
        assert_lacks(e.msg, "Queen");
        assert_lacks(e.msg, "Knight");
        game_free(g);
    }
}

/* MASQ-1, MASQ-8: no edit during setup, nor while a battle is under way
 * (the rook's attack on the masked d7 starts one). */
static void test_masq_edit_phases(void **state)
{
    (void)state;
    Game *g = edit_game("4k~3/3p~4/8/8/8/8/8/3RK~3 w - - 0 1", "game:remove('e8')");
    tu_assert_refused_by(g, 0, "d1d7", "the board may be edited only between turns of "
                                       "play, not while an announcement, a battle or a "
                                       "bidding is under way");
    game_free(g);
    /* In setup, placements are not moves: a rule editing after them. */
    static const char setup[] =
        "rule { name = 'edit in setup', variants = 'masques',\n"
        "  react = function(game, action) game:remove('a1') end }\n";
    Error e;
    HouseSource s = {"setup.lua", setup, sizeof setup - 1};
    House *h = house_load(tu_variant("masques"), 0, &s, 1, NULL, &e);
    assert_non_null(h);
    GameHooks k = house_hooks(h);
    g = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 5, .hooks = &k});
    house_free(h);
    tu_assert_refused_by(g, 0, "place R a1", "the board may be edited only once both sides "
                                             "have set up (MASQ-1)");
    game_free(g);
}

/* MASQ-12 at the interface: White's side of a batch session (its moves,
 * its view, its history and every message it is shown) names no black
 * figure the rule moved; Black's names them.  The check fails if the
 * edit's message named the figure to both seats. */
static void test_masq_edit_batch_leaks_nothing(void **state)
{
    (void)state;
    char path[] = "/tmp/cvmasqeditXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = script_text(SWAP);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char args[512];
    snprintf(args, sizeof args, "run masques --fen \"%s\" --rules %s --ascii", START, path);
    TuRun r;
    tu_run(&r, args, "as white e2e3\nas white view\nas white history\n");
    assert_has(r.out, "message to white: house rule: the masked black piece on d8 is removed");
    assert_lacks(r.out, "Queen");
    assert_lacks(r.out, "Knight");
    assert_lacks(r.out, "n~");
    assert_lacks(r.out, "q~");
    tu_run_free(&r);
    tu_run(&r, args, "as white e2e3\nas black view\n");
    assert_has(r.out, "q~");
    tu_run_free(&r);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq_edit_messages_by_seat),
        cmocka_unit_test(test_masq_edit_revealed),
        cmocka_unit_test(test_masq_edit_refusals_tell_nothing),
        cmocka_unit_test(test_masq_edit_phases),
        cmocka_unit_test(test_masq_edit_batch_leaks_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
