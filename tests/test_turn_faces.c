/*
 * test_turn_faces.c -- the faces of a house rule's schedule (issue 25,
 * TURN-1 .. TURN-5): the terminal's status line says whose action it is
 * and which move of the turn ("white to move (move 2 of 2 this turn)",
 * "white places the duck"), the JSON view carries a "turn" object only
 * while a schedule runs, the history is grouped by turns, and the duck
 * (FIG_DUCK, nobody's) is drawn in the terminal, the JSON view and the
 * SVG board.
 *
 * The schedule here is a C harness, not a script: a start hook and a
 * reaction that set the turn (game_turn_set) and give the variant's turn
 * back (game_edit EDIT_TURN) as the Lua layer does, so the faces are
 * tested on their own.  Monster chess (White two moves a turn, Black one)
 * on orthodox chess.
 *
 * Invariant: every assertion reads what a face writes for a real game
 * (or, for the duck, a real view with the duck added, the fairy engine's
 * form of it); each would fail if the behaviour it names were broken.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli/cli.h"
#include "../core/cli/render.h"
#include "../core/draw/draw.h"
#include "../core/game.h"
#include "support/testutil.h"

#define MONSTER "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1"

/* ---- The harness: Monster chess's schedule through hooks -------------- */

static int monster_moves(int side)
{
    return side == 0 ? 2 : 1;
}

static int sched_start(void *ud, Game *g, Error *e)
{
    (void)ud;
    int side = game_side_to_move(g);
    GameTurn t = {.side = side, .number = 1, .made = 0, .moves = monster_moves(side)};
    return game_turn_set(g, &t, e);
}

/* TURN-2: while moves remain the same side moves again (unless the
 * variant refuses: a check ends the turn); TURN-5: else the next turn. */
static int sched_react(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud;
    if (action_is_meta(a->kind))
        return 0;
    GameTurn t = *game_turn(g);
    t.made++;
    if (t.made < t.moves) {
        Edit ed = {.kind = EDIT_TURN, .at = {-1, -1}, .side = t.side, .figure = FIG_NONE};
        Error refused;
        if (game_edit(g, &ed, &refused) == 0)
            return game_turn_set(g, &t, e);
    }
    int side = game_side_to_move(g);
    GameTurn next = {.side = side, .number = t.number + 1, .moves = monster_moves(side)};
    return game_turn_set(g, &next, e);
}

static const GameHooks MONSTER_HOOKS = {.react = sched_react, .start = sched_start};

static Game *monster(const char *fen)
{
    return tu_game(&(TuGame){.position = fen ? fen : MONSTER, .hooks = &MONSTER_HOOKS});
}

/* ---- What the faces write ---------------------------------------------- */

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
    if (strstr(hay, needle))
        fail_msg("\"%s\" should not be in:\n%s", needle, hay);
}

static View *view_of(const Game *g, int seat)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, seat, v), 0);
    return v;
}

static char *text_of_view(const Game *g, const View *v, int ascii)
{
    RenderNames n;
    cli_names(g, &n);
    RenderOpts o = {.ascii = ascii};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    return b.s;
}

static char *text_of(const Game *g, int seat)
{
    View *v = view_of(g, seat);
    char *t = text_of_view(g, v, 1);
    free(v);
    return t;
}

static char *json_of_view(const Game *g, const View *v)
{
    RenderNames n;
    cli_names(g, &n);
    StrBuf b = STRBUF_INIT;
    render_view_json(v, &n, NULL, 0, &b);
    return b.s;
}

static char *json_of(const Game *g, int seat)
{
    View *v = view_of(g, seat);
    char *j = json_of_view(g, v);
    free(v);
    return j;
}

static char *status_of(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    cli_status_line(g, &b);
    return b.s;
}

/* ---- Tests ------------------------------------------------------------- */

/* issue 25: the terminal says which move of the turn is to be made: White
 * "move 1 of 2", after its first move "move 2 of 2" (White again), then
 * Black "move 1 of 1"; the board's status line and the public one
 * (batch answers) alike. */
static void test_issue25_terminal_move_k_of_n(void **state)
{
    (void)state;
    Game *g = monster(NULL);
    static const char *const want[] = {
        "white to move (move 1 of 2 this turn)", "white to move (move 2 of 2 this turn)",
        "black to move (move 1 of 1 this turn)", "white to move (move 1 of 2 this turn)"};
    static const char *const moves[] = {"d4", "e4", "e5"};
    for (int i = 0; i < 4; i++) {
        char *t = text_of(g, i == 2 ? 1 : 0);
        char line[80];
        snprintf(line, sizeof line, "\n%s\n", want[i]);
        assert_contains(t, line);
        char *s = status_of(g);
        assert_string_equal(s, want[i]);
        free(s);
        free(t);
        if (i < 3)
            tu_play(g, game_to_act(g), moves[i]);
    }
    game_free(g);
}

/* issue 25, TURN-2: a move that gives check ends White's turn in orthodox
 * chess: Black is then to move, 1 of 1, in check. */
static void test_issue25_terminal_check_ends_turn(void **state)
{
    (void)state;
    Game *g = monster("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1");
    tu_play(g, 0, "Qd7+");
    char *s = status_of(g);
    assert_string_equal(s, "black to move (move 1 of 1 this turn), black is in check");
    free(s);
    game_free(g);
}

/* issue 25: a game without a schedule says "white to move" as before, and
 * a finished game with one says only how it ended. */
static void test_issue25_terminal_plain_and_over(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    char *s = status_of(g);
    assert_string_equal(s, "white to move");
    free(s);
    game_free(g);
    g = monster("k7/8/8/8/8/8/8/1Q2K2R w - - 0 1");
    tu_play(g, 0, "Rh7");
    tu_play(g, 0, "Qb7#");
    s = status_of(g);
    assert_contains(s, "game over");
    assert_lacks(s, "this turn");
    free(s);
    char *t = text_of(g, 0);
    assert_lacks(t, "this turn");
    free(t);
    game_free(g);
}

/* issue 25: the JSON view has "turn" {number, made, moves, left, duck}
 * while a schedule runs, and no "turn" key without one or once over. */
static void test_issue25_json_turn_object(void **state)
{
    (void)state;
    Game *g = monster(NULL);
    char *j = json_of(g, 0);
    assert_contains(j, ",\"scores\":null,\"turn\":{\"number\":1,\"made\":0,"
                       "\"moves\":2,\"left\":2,\"duck\":false},");
    free(j);
    tu_play(g, 0, "d4");
    j = json_of(g, 1); /* the other seat reads it too: it is public */
    assert_contains(j, "\"turn\":{\"number\":1,\"made\":1,\"moves\":2,\"left\":1,"
                       "\"duck\":false}");
    free(j);
    tu_play(g, 0, "e4");
    j = json_of(g, 1);
    assert_contains(j, "\"side_to_move\":\"black\",\"seat_to_act\":\"black\",");
    assert_contains(j, "\"turn\":{\"number\":2,\"made\":0,\"moves\":1,\"left\":1,"
                       "\"duck\":false}");
    free(j);
    game_free(g);

    g = tu_orthodox(NULL);
    j = json_of(g, 0);
    assert_lacks(j, "\"turn\"");
    free(j);
    game_free(g);

    g = monster("k7/8/8/8/8/8/8/1Q2K2R w - - 0 1");
    tu_play(g, 0, "Rh7");
    tu_play(g, 0, "Qb7#");
    j = json_of(g, 0);
    assert_lacks(j, "\"turn\"");
    free(j);
    game_free(g);
}

/* issue 25: the history's actions by turn: White's two moves share turn
 * 1, Black's one is turn 2 ... (out of memory aside, never -1); none
 * without a schedule. */
static void test_issue25_history_turns(void **state)
{
    (void)state;
    Game *g = monster(NULL);
    tu_play_line(g, "d4 e4 e5 Kd2 Kd3");
    int turns[5];
    assert_int_equal(cli_history_turns(g, turns), 1);
    static const int want[5] = {1, 1, 2, 3, 3};
    assert_memory_equal(turns, want, sizeof want);
    assert_int_equal(game_history_len(g), 5); /* the game itself untouched */
    game_free(g);

    g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5");
    turns[0] = turns[1] = -1;
    assert_int_equal(cli_history_turns(g, turns), 0);
    assert_int_equal(turns[0], 0);
    assert_int_equal(turns[1], 0);
    game_free(g);
}

/* A view with the duck on e5, as the fairy engine gives it (a piece of
 * figure FIG_DUCK and side -1), its side to place it again when duck is
 * set. */
static View *duck_view(const Game *g, int duck)
{
    View *v = view_of(g, 0);
    assert_true(v->npieces < MAX_VIEW_PIECES);
    ViewPiece *p = &v->pieces[v->npieces++];
    memset(p, 0, sizeof *p);
    p->at = coord_make(4, 4);
    p->side = -1;
    p->side2 = -1;
    p->figure = FIG_DUCK;
    if (duck) {
        v->turn_number = 1;
        v->turn_made = 1;
        v->turn_moves = 1;
        v->turn_duck = 1;
    }
    return v;
}

/* Display columns of a UTF-8 line (render.c's cells are one column). */
static int columns(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* issue 25: the duck in the terminal: '*' in ASCII, U+229B in Unicode,
 * one column like the figures, so rank 5 is as wide as the others; the
 * status line says the side places the duck. */
static void test_issue25_terminal_duck(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    View *v = duck_view(g, 1);
    char *t = text_of_view(g, v, 1);
    assert_contains(t, "5  .  .  .  .  *  .  .  .  5\n");
    assert_contains(t, "\nwhite places the duck\n");
    free(t);
    t = text_of_view(g, v, 0);
    const char *r5 = strstr(t, "5  \u00B7  \u00B7  \u00B7  \u00B7  \u229B  ");
    const char *r4 = strstr(t, "\n4  ");
    assert_non_null(r5);
    assert_non_null(r4);
    assert_int_equal(columns(r5, strcspn(r5, "\n")), columns(r4 + 1, strcspn(r4 + 1, "\n")));
    free(t);
    free(v);
    game_free(g);
}

/* issue 25: the duck in the JSON view: figure "duck", letter '*', side
 * null (nobody's); the turn says the duck is to be placed. */
static void test_issue25_json_duck(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    View *v = duck_view(g, 1);
    char *j = json_of_view(g, v);
    assert_contains(j, "{\"square\":\"e5\",\"x\":4,\"y\":4,\"side\":null,\"figure\":\"duck\","
                       "\"letter\":\"*\",\"flags\":[]}");
    assert_contains(j, "\"turn\":{\"number\":1,\"made\":1,\"moves\":1,\"left\":0,"
                       "\"duck\":true}");
    free(j);
    free(v);
    game_free(g);
}

/* issue 25: the duck on the SVG board: a piece group of figure "duck",
 * nobody's (data-side null), drawn as a duck (body and beak), no side's
 * disc or letter; its title names the square and the duck. */
static void test_issue25_svg_duck(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    View *v = duck_view(g, 0);
    DrawOpts o;
    draw_opts_for(g, v, &o);
    StrBuf b = STRBUF_INIT;
    Error e;
    assert_int_equal(draw_svg(v, &o, &b, &e), 0);
    const char *svg = sb_str(&b);
    const char *duck = strstr(svg, "<g class=\"piece fig-duck\" data-square=\"e5\"");
    assert_non_null(duck);
    const char *end = strstr(duck, "</g>");
    assert_non_null(end);
    char *grp = strndup(duck, (size_t)(end - duck));
    assert_contains(grp, "data-side=\"null\"");
    assert_contains(grp, "<ellipse class=\"duck\"");
    assert_contains(grp, "class=\"duck-beak\"");
    assert_contains(grp, "fill=\"#f2c230\""); /* its own yellow, no side's colour */
    assert_contains(grp, "<title>e5: duck</title>");
    assert_lacks(grp, "class=\"body rim\"");
    assert_lacks(grp, "class=\"letter\"");
    free(grp);
    sb_free(&b);
    free(v);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue25_terminal_move_k_of_n),
        cmocka_unit_test(test_issue25_terminal_check_ends_turn),
        cmocka_unit_test(test_issue25_terminal_plain_and_over),
        cmocka_unit_test(test_issue25_json_turn_object),
        cmocka_unit_test(test_issue25_history_turns),
        cmocka_unit_test(test_issue25_terminal_duck),
        cmocka_unit_test(test_issue25_json_duck),
        cmocka_unit_test(test_issue25_svg_duck),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
