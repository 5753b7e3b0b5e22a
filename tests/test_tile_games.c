/*
 * test_tile_games.c -- Tile Chess (TILE-1 .. TILE-12) through seeded random
 * games with 2 to 6 sides: at every ply the position string reads back to
 * the same position and legal actions, every translation of the whole
 * table is the same position (TILE-11's repetition key) with the same
 * actions moved along, and every action's texts (record and machine form)
 * read back to that action.
 *
 * Invariant: the games are chosen by a generator of the test's own, seeded
 * here, so a failure names a seed and a ply that replay it exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "support/testutil.h"
#include "support/tile_doc.h"
#include "../core/cli/render.h"

#define TEXT 128

/* The legal play actions of the seat to act. */
static void legal_of(const Game *g, ActionList *l)
{
    al_clear(l);
    game_legal_play(g, l);
    assert_false(l->failed);
}

/* The position string with every square moved by dx,dy (docs/TILE.md: a
 * piece is colour, figure, x,y). */
static char *translated(const char *pos, int dx, int dy)
{
    StrBuf out = STRBUF_INIT;
    char *copy = strdup(pos), *save = NULL;
    for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        long x, y;
        char c, f;
        int used = 0;
        if (out.len)
            sb_putc(&out, ' ');
        if (sscanf(t, "%c%c%ld,%ld%n", &c, &f, &x, &y, &used) == 4 && !t[used] &&
            f >= 'A' && f <= 'Z')
            sb_printf(&out, "%c%c%ld,%ld", c, f, x + dx, y + dy);
        else
            sb_puts(&out, t);
    }
    free(copy);
    char *r = strdup(sb_str(&out));
    sb_free(&out);
    return r;
}

static uint64_t key_of(const Game *g)
{
    return game_variant(g)->hash(g, game_state(g));
}

static Game *tile_at(int nsides, const char *pos, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = nsides,
                             .position = pos, .params = params});
}

/* TILE-11: the same table moved as a whole is the same position, with the
 * same actions moved along. */
static void check_translation(const Game *g, const ActionList *l, const char *pos,
                              int nsides, const char *params, int dx, int dy)
{
    char *moved = translated(pos, dx, dy);
    Game *t = tile_at(nsides, moved, params);
    assert_true(key_of(t) == key_of(g));
    ActionList lt = ACTIONLIST_INIT;
    legal_of(t, &lt);
    assert_int_equal(lt.n, l->n);
    int placing_start = strstr(pos, "hand:") == pos; /* empty table: 0,0 stays */
    for (int i = 0; i < l->n; i++) {
        Action a = l->v[i];
        if (a.kind == ACT_MOVE || (a.kind == ACT_PLACE && !placing_start)) {
            a.from.x += dx;
            a.from.y += dy;
            a.to.x += dx;
            a.to.y += dy;
        }
        if (a.kind == ACT_PLACE && !placing_start)
            a.from = l->v[i].from; /* a placement has no from */
        if (al_find(&lt, &a) < 0)
            fail_msg("translation %d,%d of %s loses an action", dx, dy, pos);
    }
    al_free(&lt);
    game_free(t);
    free(moved);
}

/* Every legal action's texts read back to it. */
static void check_texts(const Game *g, const ActionList *l)
{
    const int seat = game_to_act(g);
    for (int i = 0; i < l->n; i++) {
        for (int style = FMT_RECORD; style <= FMT_MACHINE; style++) {
            StrBuf b = STRBUF_INIT;
            Action back;
            Error e;
            game_format(g, &l->v[i], style, &b);
            if (game_parse(g, seat, sb_str(&b), &back, &e))
                fail_msg("%s does not read back: %s", sb_str(&b), e.msg);
            if (!action_eq(&back, &l->v[i]))
                fail_msg("%s reads back as another action", sb_str(&b));
            sb_free(&b);
        }
    }
}

static void random_game(int nsides, uint64_t seed, const char *params, int plies,
                        int *moves_seen, int *passes_seen)
{
    Game *g = tile_at(nsides, NULL, params);
    Rng r;
    rng_seed(&r, seed);
    ActionList l = ACTIONLIST_INIT, l2 = ACTIONLIST_INIT;
    for (int ply = 0; ply < plies && game_to_act(g) >= 0; ply++) {
        char *pos = tu_position(g);
        legal_of(g, &l);
        assert_true(l.n > 0);
        /* the string reads back to itself and the same actions */
        Game *back = tile_at(nsides, pos, params);
        char *pos2 = tu_position(back);
        assert_string_equal(pos2, pos);
        legal_of(back, &l2);
        assert_int_equal(l2.n, l.n);
        for (int i = 0; i < l.n; i++)
            assert_true(al_find(&l2, &l.v[i]) >= 0);
        assert_true(key_of(back) == key_of(g));
        free(pos2);
        game_free(back);
        if (ply % 3 == 0)
            check_translation(g, &l, pos, nsides, params, (int)rng_below(&r, 41) - 20,
                              (int)rng_below(&r, 41) - 20);
        if (ply % 2 == 0)
            check_texts(g, &l);
        free(pos);
        const Action a = l.v[rng_below(&r, (uint32_t)l.n)];
        *moves_seen += a.kind == ACT_MOVE;
        *passes_seen += a.kind == ACT_PASS;
        Error e;
        if (game_apply(g, &a, &e))
            fail_msg("seed %llu ply %d: %s", (unsigned long long)seed, ply, e.msg);
    }
    al_free(&l);
    al_free(&l2);
    game_free(g);
}

/* TILE-1..11: 2 to 6 sides, the default rules. */
static void test_tile_random_games_read_back(void **state)
{
    (void)state;
    int moves = 0, passes = 0;
    for (int n = 2; n <= 6; n++)
        for (uint64_t seed = 1; seed <= 2; seed++)
            random_game(n, seed * 100 + (uint64_t)n, NULL, TU_SANITIZED ? 120 : 220, &moves,
                        &passes);
    assert_true(moves > 200); /* the games reached the move phase */
}

/* TILE-5, 6: the parameters change the tree, not the texts' round trip. */
static void test_tile_random_games_parameters(void **state)
{
    (void)state;
    int moves = 0, passes = 0;
    random_game(3, 7, "orthogonal_pawns=on lenient_trapped=on pawns=2", 160, &moves,
                &passes);
    random_game(4, 8, "pawns=0 first=blue", 140, &moves, &passes);
    assert_true(moves > 50);
}

/* TILE-11: translations never change the key; a different table does. */
static void test_tile11_key_translation_only(void **state)
{
    (void)state;
    const char *pos = "wK0,0 wQ1,0 bK3,0 bP2,0 turn:w";
    Game *a = tile_at(2, pos, NULL);
    char *moved = translated(pos, -7, 12);
    Game *b = tile_at(2, moved, NULL);
    Game *c = tile_at(2, "wK0,0 wQ1,1 bK3,1 bP2,1 turn:w", NULL); /* a new shape */
    Game *d = tile_at(2, "wK0,0 wQ1,0 bK3,0 bP2,0 turn:b", NULL); /* other seat */
    assert_true(key_of(a) == key_of(b));
    assert_true(key_of(a) != key_of(c));
    assert_true(key_of(a) != key_of(d));
    free(moved);
    game_free(a);
    game_free(b);
    game_free(c);
    game_free(d);
}

/* TILE-11: a draw by agreement of every seat still in carries the scores
 * (the core asks the variant's draw_note); one refusal is not enough. */
static void test_tile11_agreement_of_every_seat_with_value_table(void **state)
{
    (void)state;
    Game *g = tile_at(3, "wK0,0 wQ1,0 bK2,0 bR3,0 rK4,0 rP5,0 rN6,0 turn:w", NULL);
    tu_play(g, 0, "draw");
    tu_play(g, 1, "accept");
    tu_assert_going_on(g); /* red has not agreed */
    tu_play(g, 2, "accept");
    tu_assert_over(g, "draw", "draw by agreement; scores: white 12, black 5, red 4");
    /* the status line says "draw" once (not "game over: draw, draw") */
    View *v = calloc(1, sizeof *v);
    assert_int_equal(game_view(g, -1, v), 0);
    RenderNames names = {.nsides = 3, .side = {"white", "black", "red"}, .nseats = 3,
                         .seat = {"white", "black", "red"}};
    StrBuf line = STRBUF_INIT;
    render_status_line(v, &names, &line);
    assert_string_equal(sb_str(&line), "game over: draw (draw by agreement; scores: "
                                       "white 12, black 5, red 4)");
    sb_free(&line);
    free(v);
    game_free(g);
    g = tile_at(3, "wK0,0 wQ1,0 bK2,0 bR3,0 rK4,0 rP5,0 rN6,0 turn:w",
                "value.Q=20 value.N=1");
    tu_play(g, 0, "draw");
    tu_play(g, 1, "accept");
    tu_play(g, 2, "accept");
    tu_assert_over(g, "draw", "draw by agreement; scores: white 20, black 5, red 2");
    game_free(g);
}

/* docs/TILE.md "Perft": every row's counts are the engine's, by the fast
 * path and by the generic one (the positions come with 2, 3, 4 and 6
 * sides, in placement and in play; tests/test_tile_perft.c counts them
 * again with the independent counter). */
static void test_tile_doc_perft_table(void **state)
{
    (void)state;
    TileDocRow rows[TILE_DOC_ROWS];
    const int n = tile_doc_rows(rows, TILE_DOC_ROWS);
    assert_int_equal(n, 8);
    for (int i = 0; i < n; i++) {
        const TileDocRow *r = &rows[i];
        Game *g = tile_at(r->sides, r->position[0] ? r->position : NULL,
                          r->params[0] ? r->params : NULL);
        for (int d = 1; d <= 3; d++) {
            const uint64_t want = r->count[d - 1];
            if (d == 3 && want > 500000 && TU_SANITIZED)
                continue; /* the big ones: plain build only */
            assert_int_equal(game_perft(g, d), want);
            if (want < 300000)
                assert_int_equal(game_perft_generic(g, d), want);
        }
        game_free(g);
    }
}

/* TILE-2..9: every example of `help` is read, as the action it stands
 * for, in a position where it applies (the help table cannot drift). */
static void test_tile_help_examples_are_played(void **state)
{
    (void)state;
    static const struct { const char *example; int sides; const char *pos; } CASES[] = {
        {"Q@1,0", 2, "wQ0,0 hand:w=KRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:b first:w"},
        {"random", 2, NULL},
        /* . . . . k      y 3
         * . . R n .        2
         * P B . . .        1
         * K Q . . .        0 */
        {"0,1-0,2", 2, "bK4,3 wR2,2 bN3,2 wP0,1 wB1,1 wK0,0 wQ1,0 turn:w"},
        {"Q1,0x3,2", 2, "bK4,3 wR2,2 bN3,2 wP0,1 wB1,1 wK0,0 wQ1,0 turn:w"},
        {"Q3,2", 2, "bK4,3 wR2,2 bN3,2 wP0,1 wB1,1 wK0,0 wQ1,0 turn:w"},
        /* black's lone King is trapped: it must pass */
        {"pass", 3, "rK-3,0 wK-2,0 wR-1,0 bK0,0 wN1,0 rQ2,0 turn:b"},
    };
    const VariantOps *v = tu_variant("tile");
    tu_assert_help_fits(v->help);
    int n = 0;
    for (; v->help[n].usage; n++) {
        size_t k = 0;
        while (k < ARRAY_LEN(CASES) && strcmp(CASES[k].example, v->help[n].example))
            k++;
        if (k == ARRAY_LEN(CASES))
            fail_msg("help example \"%s\" has no position here", v->help[n].example);
        Game *g = tile_at(CASES[k].sides, CASES[k].pos, NULL);
        View *view = calloc(1, sizeof *view); /* TILE-9: told to pass, and only then */
        assert_int_equal(game_view(g, game_to_act(g), view), 0);
        assert_int_equal(strstr(view->question, "no legal move: pass (TILE-9)") != NULL,
                         !strcmp(CASES[k].example, "pass"));
        free(view);
        const int before = game_history_len(g);
        tu_play(g, game_to_act(g), CASES[k].example);
        assert_true(game_history_len(g) > before);
        game_free(g);
    }
    assert_int_equal(n, (int)ARRAY_LEN(CASES));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_random_games_read_back),
        cmocka_unit_test(test_tile_random_games_parameters),
        cmocka_unit_test(test_tile11_key_translation_only),
        cmocka_unit_test(test_tile_doc_perft_table),
        cmocka_unit_test(test_tile_help_examples_are_played),
        cmocka_unit_test(test_tile11_agreement_of_every_seat_with_value_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
