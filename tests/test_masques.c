/*
 * test_masques.c -- Les Échecs Masqués rule by rule (MASQ-1 .. MASQ-16 of
 * docs/RULES.md, contract docs/MASQUES.md): setup, masked
 * moves, reveals, battles simple and masked, bids, give-ups, the all-in,
 * announcements, rights, check after reveal, castling, the ends, and what
 * each seat may see (views, messages, history).
 *
 * Invariant: games are driven through the public game API as a player or a
 * script would (game_play with the texts of MASQUES.md), mostly from
 * full-truth position strings, and every test asserts facts that a wrong
 * engine would get wrong: positions after the action, the exact legal
 * answers, the result and its reason, and what the other seat must not see.
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
#include "../core/record/record.h"
#include "support/testutil.h"

enum { W = 0, B = 1 };

#define START \
    "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"
/* A white masked Knight facing two black masked pieces (MASQ-10 battles). */
#define P4 "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1"

/* ---- Helpers ------------------------------------------------------------- */

static Game *mq(const char *pos, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .position = pos, .params = params});
}

static Game *mq_seeded(uint64_t seed)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = seed});
}

/* Each text by the seat to act. */
#define PLAY(g, ...) tu_play_all((g), (const char *const[]){__VA_ARGS__, NULL})

/* Is `text` (machine form) one of seat's play actions? */
static int has(const Game *g, int seat, const char *text)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    int found = 0;
    for (int i = 0; i < l.n && !found; i++) {
        if (action_is_meta(l.v[i].kind))
            continue;
        StrBuf b = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_MACHINE, &b);
        found = !strcmp(sb_str(&b), text);
        sb_free(&b);
    }
    al_free(&l);
    return found;
}

/* The play actions of seat, machine form, joined by single spaces. */
static char *actions(const Game *g, int seat)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf b = STRBUF_INIT;
    game_legal(g, seat, &l);
    for (int i = 0; i < l.n; i++) {
        if (action_is_meta(l.v[i].kind))
            continue;
        if (b.len)
            sb_putc(&b, ' ');
        game_format(g, &l.v[i], FMT_MACHINE, &b);
    }
    al_free(&l);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

static void assert_actions(const Game *g, int seat, const char *want)
{
    char *got = actions(g, seat);
    if (strcmp(got, want)) {
        print_error("%s may: \"%s\"\nexpected \"%s\"\n", game_seat_name(g, seat), got, want);
        free(got);
        fail();
    }
    free(got);
}

static int count_play(const Game *g, int seat)
{
    return tu_legal_count(g, seat, -1) - tu_legal_count(g, seat, ACT_RESIGN) -
           tu_legal_count(g, seat, ACT_DRAW_OFFER) - tu_legal_count(g, seat, ACT_DRAW_ACCEPT) -
           tu_legal_count(g, seat, ACT_DRAW_DECLINE) - tu_legal_count(g, seat, ACT_DRAW_CLAIM);
}

/* Has seat been told something containing needle? */
static int told(const Game *g, int seat, const char *needle)
{
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m && strstr(m, needle))
            return 1;
    }
    return 0;
}

static View *view_of(const Game *g, int seat)
{
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    game_view(g, seat, v);
    return v;
}

static const ViewPiece *piece_at(const View *v, const char *sq)
{
    Coord c = coord_make(sq[0] - 'a', sq[1] - '1');
    for (int i = 0; i < v->npieces; i++)
        if (coord_eq(v->pieces[i].at, c))
            return &v->pieces[i];
    return NULL;
}

/* The history of the game as seat reads it, joined by " | ". */
static char *history(const Game *g, int seat)
{
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < game_history_len(g); i++) {
        if (i)
            sb_puts(&b, " | ");
        game_history_text(g, i, seat, &b);
    }
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* No view, message or history text of `seat` names `figure`. */
static void assert_never_named(const Game *g, int seat, const char *figure)
{
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m && strstr(m, figure))
            fail_msg("%s was told \"%s\"", game_seat_name(g, seat), m);
    }
    char *h = history(g, seat);
    View *v = view_of(g, seat);
    if (strstr(h, figure) || strstr(v->info, figure) || strstr(v->last_text, figure) ||
        strstr(v->question, figure))
        fail_msg("%s may read \"%s\" in its history or view", game_seat_name(g, seat), figure);
    free(h);
    free(v);
}

/* ---- MASQ-1 setup ---------------------------------------------------------- */

static void test_masq1_standard_arrangements_start_the_game(void **state)
{
    (void)state;
    Game *g = mq_seeded(1);
    assert_int_equal(game_to_act(g), W);
    /* 6 figures x 16 home squares, standard, random: for both seats */
    assert_int_equal(count_play(g, W), 98);
    assert_int_equal(count_play(g, B), 98);
    assert_int_equal(game_perft(g, 1), 98);
    tu_play(g, W, "standard");
    assert_int_equal(game_to_act(g), B);
    tu_play(g, B, "standard");
    tu_assert_position(g, START);
    assert_int_equal(game_to_act(g), W);
    assert_true(told(g, B, "both armies are set up"));
    game_free(g);
}

static void test_masq1_castling_only_where_king_and_rook_were_set(void **state)
{
    (void)state;
    Game *g = mq_seeded(1);
    tu_play(g, W, "arrange RNBKQBNR/PPPPPPPP");
    tu_play(g, B, "arrange RNBQKBNR/PPPPPPPP");
    tu_assert_position(g, "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/"
                          "P~P~P~P~P~P~P~P~/R~N~B~K~Q~B~N~R~ w kq - 0 1");
    /* the arrangement is sugar for sixteen placements, each recorded */
    assert_int_equal(game_history_len(g), 32);
    game_free(g);
}

static void test_masq1_black_may_arrange_out_of_turn(void **state)
{
    (void)state;
    Game *g = mq_seeded(2);
    tu_play(g, B, "arrange RNBQKBNR/PPPPPPPP");
    assert_int_equal(game_to_act(g), W); /* White still has its pieces in hand */
    assert_int_equal(count_play(g, B), 0);
    View *v = view_of(g, W);
    assert_int_equal(v->npieces, 16); /* Black is done: 16 masked pieces */
    for (int i = 0; i < v->npieces; i++) {
        assert_int_equal(v->pieces[i].figure, FIG_HIDDEN);
        assert_true(v->pieces[i].flags & VP_MASKED);
    }
    free(v);
    tu_play(g, W, "place K e1");
    v = view_of(g, B);
    assert_int_equal(v->npieces, 16); /* White's arrangement under way stays hidden */
    free(v);
    tu_play(g, W, "random");
    assert_int_equal(game_to_act(g), W);
    char *pos = tu_position(g);
    assert_non_null(strstr(pos, " w ")); /* play began, White to move */
    free(pos);
    v = view_of(g, W);
    assert_int_equal(piece_at(v, "e1")->figure, FIG_KING); /* placed before `random` */
    assert_string_equal(v->question, "white to move");
    free(v);
    game_free(g);
}

static void test_masq1_random_arrangement_comes_from_the_seed(void **state)
{
    (void)state;
    char *pos[2];
    for (int k = 0; k < 2; k++) {
        Game *g = mq_seeded(9);
        tu_play(g, W, "random");
        tu_play(g, B, "random");
        pos[k] = tu_position(g);
        game_free(g);
    }
    assert_string_equal(pos[0], pos[1]);
    /* a whole army on each side, every piece masked and unmoved */
    int count[128] = {0};
    for (const char *c = pos[0]; *c && *c != ' '; c++)
        count[(unsigned char)*c]++;
    assert_int_equal(count['P'], 8);
    assert_int_equal(count['p'], 8);
    assert_int_equal(count['N'] + count['B'] + count['R'], 6);
    assert_int_equal(count['K'] + count['Q'], 2);
    assert_int_equal(count['~'], 32);
    assert_int_equal(count['^'], 0);
    assert_memory_equal(strstr(pos[0], "/8/8/8/8/"), "/8/8/8/8/", 9);
    free(pos[0]);
    free(pos[1]);
}

static void test_masq1_arrangement_errors_leave_the_game_unchanged(void **state)
{
    (void)state;
    Game *g = mq_seeded(3);
    tu_assert_refused_by(g, W, "arrange RNBQKBNR/PPPPPPP", "the front rank has 7 pieces, not 8");
    tu_assert_refused_by(g, W, "arrange RNBQKBNR", "the back rank then the front rank");
    tu_assert_refused_by(g, W, "arrange RNBQKBNX/PPPPPPPP", "'X' is not a piece");
    tu_assert_refused_by(g, W, "arrange RNNQKBNR/PPPPPPPP", "3 Knights; an army has 2");
    tu_assert_refused_by(g, B, "arrange RNBQKBNR/PPPPPPPP/P", "the back rank then the front rank");
    tu_play(g, W, "place K e1");
    tu_assert_refused_by(g, W, "arrange RNBQKBNR/PPPPPPPP", "some of your pieces are placed already");
    tu_assert_refused_by(g, W, "standard", "some of your pieces are placed already");
    tu_assert_refused_by(g, W, "place K e2", "you have no King left in hand");
    tu_assert_refused_by(g, W, "place Q e1", "e1 is taken already");
    tu_assert_refused_by(g, W, "place Q e3", "your pieces go on your home ranks (1 and 2)");
    tu_assert_refused_by(g, W, "place X e2", "is not a piece");
    tu_assert_refused_by(g, B, "place Q e2", "your pieces go on your home ranks (7 and 8)");
    tu_assert_refused_by(g, W, "e2e4", "white is arranging its pieces");
    game_free(g);
}

static void test_masq1_the_arrangement_stays_hidden(void **state)
{
    (void)state;
    Game *g = mq_seeded(4);
    tu_play(g, W, "place K e1");
    tu_play(g, W, "place Q d1");
    View *v = view_of(g, B);
    assert_int_equal(v->npieces, 0);
    assert_string_equal(v->last_text, "white arranges a piece");
    assert_false(v->has_last);
    free(v);
    v = view_of(g, W);
    assert_int_equal(v->npieces, 2);
    assert_int_equal(piece_at(v, "e1")->figure, FIG_KING);
    assert_true(piece_at(v, "e1")->flags & VP_MASKED);
    assert_non_null(strstr(v->info, "in hand: R R B B N N P P P P P P P P"));
    free(v);
    char *h = history(g, B);
    assert_string_equal(h, "white arranges a piece | white arranges a piece");
    free(h);
    h = history(g, W);
    assert_string_equal(h, "place K e1 | place Q d1");
    free(h);
    tu_play(g, W, "random");
    h = history(g, B);
    assert_string_equal(h, "white arranges a piece | white arranges a piece | "
                           "white arranges its pieces");
    free(h);
    assert_never_named(g, B, "King");
    assert_never_named(g, B, "Queen");
    v = view_of(g, B);
    assert_int_equal(v->npieces, 16);
    for (int i = 0; i < v->npieces; i++)
        assert_int_equal(v->pieces[i].figure, FIG_HIDDEN);
    assert_string_equal(v->position, "");
    free(v);
    game_free(g);
}

/* ---- MASQ-2 masked pieces move like pawns ---------------------------------- */

#define A_POS "4k~3/8/8/8/8/8/4P~3/4K~1N~1 w - - 0 1"

static void test_masq2_a_masked_piece_moves_like_a_pawn(void **state)
{
    (void)state;
    Game *g = mq(A_POS, NULL);
    assert_true(has(g, W, "g1g2"));
    assert_true(has(g, W, "g1g3")); /* two from its setup square, rank 1 too */
    assert_true(has(g, W, "e2e4"));
    assert_false(has(g, W, "g1f3"));
    assert_true(has(g, W, "reveal g1f3"));
    assert_false(has(g, W, "e1e2")); /* blocked like a pawn */
    tu_assert_refused(g, "g1f3", "a masked piece moves like a pawn: one square forward "
                                 "(two from its setup square)");
    tu_play(g, W, "g1g3");
    tu_assert_position(g, "4k~3/8/8/8/8/6N~1/4P~3/4K~3 b - g2 0 1");
    game_free(g);
}

static void test_masq2_no_two_step_after_moving(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/8/8/8/4P~^3/4K~3 w - - 0 1", NULL);
    assert_true(has(g, W, "e2e3"));
    assert_false(has(g, W, "e2e4"));
    tu_assert_refused(g, "e2e4", "cannot go to e4");
    game_free(g);
}

static void test_masq2_an_unmoved_revealed_pawn_steps_two_from_rank_one(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/8/8/8/8/3PK~3 w - - 0 1", NULL);
    assert_true(has(g, W, "d1d2"));
    tu_play(g, W, "d1d3");
    tu_assert_position(g, "4k~3/8/8/8/8/3P4/8/4K~3 b - d2 0 1");
    game_free(g);
}

static void test_masq2_en_passant_onto_a_masked_piece_is_a_battle(void **state)
{
    (void)state;
    Game *g = mq("4k~3/3p~4/8/4P~3/8/8/8/4K~3 b - - 0 1", NULL);
    tu_play(g, B, "d7d5");
    assert_true(has(g, W, "e5d6"));
    tu_play(g, W, "e5d6");
    tu_assert_position(g, "4k~3/8/8/3p~P~3/8/8/8/4K~3 w - - 0 2 phase=bid:e5:d6:0:-");
    assert_true(told(g, B, "the masked piece on e5 attacks your masked Pawn on d5 en passant"));
    PLAY(g, "bid 1", "fold");
    /* the defender leaves without reveal; the winner lands on the passed square */
    tu_assert_position(g, "4k~3/8/3P~4/8/8/8/8/4K~3 b - - 0 2");
    assert_true(told(g, W, "black folds: the masked piece on d5 is removed without reveal"));
    game_free(g);
}

static void test_masq2_en_passant_onto_a_revealed_pawn_is_a_capture(void **state)
{
    (void)state;
    Game *g = mq("4k~3/3p4/8/4P~3/8/8/8/4K~3 b - - 0 1", NULL);
    PLAY(g, "d7d5", "e5d6");
    tu_assert_position(g, "4k~3/8/3P~4/8/8/8/8/4K~3 b - - 0 2");
    View *v = view_of(g, B);
    assert_int_equal(v->ncaptured, 1);
    assert_int_equal(v->captured[0].figure, FIG_PAWN);
    assert_int_equal(piece_at(v, "d6")->figure, FIG_HIDDEN); /* still masked (MASQ-4) */
    free(v);
    game_free(g);
}

/* ---- MASQ-3 the last rank -------------------------------------------------- */

static void test_masq3_a_masked_piece_on_its_last_rank_is_stuck(void **state)
{
    (void)state;
    Game *g = mq("3N~k~3/8/8/8/8/8/8/4K~3 w - - 0 1", NULL);
    assert_actions(g, W, "e1e2 e1e3 reveal e1d1 reveal e1f1 reveal e1d2 reveal e1e2 "
                         "reveal e1f2 reveal d8c6 reveal d8e6 reveal d8b7 reveal d8f7");
    tu_assert_refused(g, "d8e7", "a masked piece on its last rank cannot move until revealed");
    game_free(g);
}

static void test_masq3_reveal_to_promote_is_the_whole_turn(void **state)
{
    (void)state;
    Game *g = mq("3P~k~3/8/8/8/8/8/8/4K~3 w - - 0 1", NULL);
    assert_true(has(g, W, "reveal d8=Q"));
    assert_true(has(g, W, "reveal d8=N"));
    assert_false(has(g, W, "reveal d8d7"));
    tu_play(g, W, "reveal d8=Q");
    /* the turn is over; the new Queen threatens the masked piece on e8 */
    tu_assert_position(g, "3Qk~3/8/8/8/8/8/8/4K~3 w - - 0 1 phase=announce threats=e8");
    assert_true(told(g, B, "white's Pawn on d8 promotes to a Queen"));
    game_free(g);
}

static void test_masq3_a_revealed_pawn_promotes(void **state)
{
    (void)state;
    Game *g = mq("4k~3/3P4/8/8/8/8/8/4K~3 w - - 0 1", NULL);
    tu_assert_refused(g, "d7d8", "say what the Pawn becomes");
    tu_play(g, W, "d7d8n");
    tu_assert_position(g, "3Nk~3/8/8/8/8/8/8/4K~3 b - - 0 1");
    game_free(g);
}

static void test_masq3_a_pawn_revealed_in_an_answer_promotes(void **state)
{
    (void)state;
    Game *g = mq("P~6k~/8/8/8/8/8/8/1r2K~3 b - - 0 1", NULL);
    tu_play(g, B, "b1b8");
    assert_actions(g, B, "announce check a8 announce mate a8 pass");
    tu_play(g, B, "announce check a8");
    assert_actions(g, W, "reveal =Q reveal =R reveal =B reveal =N keep");
    tu_play(g, W, "reveal =R");
    /* (the black Rook on its home rank has moved: ^) */
    tu_assert_position(g, "Rr^5k~/8/8/8/8/8/8/4K~3 w - - 1 2");
    assert_int_equal(game_to_act(g), W); /* then White plays its turn */
    game_free(g);

    g = mq("P~6k~/8/8/8/8/8/8/1r2K~3 b - - 0 1", NULL);
    PLAY(g, "b1b8", "announce mate a8");
    tu_assert_position(g, "P~r^5k~/8/8/8/8/8/8/4K~3 w - - 1 2 phase=answer:mate:a8");
    assert_actions(g, W, "reveal =Q reveal =R reveal =B reveal =N");
    tu_assert_refused(g, "keep", "reveal =Q");
    game_free(g);
}

/* ---- MASQ-4 a masked capturer stays masked ---------------------------------- */

static void test_masq4_a_masked_piece_takes_a_revealed_one_and_stays_masked(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/3p4/4P~3/8/8/4K~3 w - - 0 1", NULL);
    tu_play(g, W, "e4d5");
    tu_assert_position(g, "4k~3/8/8/3P~4/8/8/8/4K~3 b - - 0 1");
    View *v = view_of(g, B);
    assert_int_equal(piece_at(v, "d5")->figure, FIG_HIDDEN);
    assert_true(piece_at(v, "d5")->flags & VP_MASKED);
    free(v);
    game_free(g);
}

/* ---- MASQ-5 reveal and move ----------------------------------------------------- */

static void test_masq5_reveal_and_move_by_the_figure(void **state)
{
    (void)state;
    Game *g = mq(A_POS, NULL);
    tu_assert_refused(g, "reveal Bg1f3", "the piece on g1 is your Knight");
    tu_assert_refused(g, "reveal g1", "revealing alone is a house rule");
    tu_assert_refused(g, "reveal e1e2", NULL); /* e2 is White's own */
    tu_play(g, W, "reveal Ng1f3");
    tu_assert_position(g, "4k~3/8/8/8/8/5N2/4P~3/4K~3 b - - 1 1");
    char *h = history(g, B);
    assert_string_equal(h, "reveal Ng1f3");
    free(h);
    assert_true(told(g, B, "white reveals a Knight on g1"));
    View *v = view_of(g, B);
    assert_int_equal(piece_at(v, "f3")->figure, FIG_KNIGHT);
    assert_false(piece_at(v, "f3")->flags & VP_MASKED);
    free(v);
    game_free(g);
}

static void test_masq5_a_revealed_pawn_may_step_two(void **state)
{
    (void)state;
    Game *g = mq(A_POS, NULL);
    tu_play(g, W, "reveal e2e4");
    tu_assert_position(g, "4k~3/8/8/8/4P3/8/8/4K~1N~1 b - e3 0 1");
    game_free(g);
}

static void test_masq5_reveal_alone_is_a_parameter(void **state)
{
    (void)state;
    Game *g = mq(A_POS, "reveal_alone=on");
    assert_true(has(g, W, "reveal g1"));
    assert_true(has(g, W, "reveal e1"));
    tu_play(g, W, "reveal e2");
    tu_assert_position(g, "4k~3/8/8/8/8/8/4P3/4K~1N~1 b - - 1 1");
    assert_true(told(g, B, "white reveals a Pawn on e2"));
    game_free(g);
}

/* ---- MASQ-6 mask check and the capture right ------------------------------------- */

#define CHECK_POS "4k~3/7p~/8/4p~3/8/8/8/R3K~3 w - - 0 1"

static void test_masq6_announce_only_after_a_new_threat(void **state)
{
    (void)state;
    Game *g = mq(CHECK_POS, NULL);
    tu_play(g, W, "a1a2");
    assert_int_equal(game_to_act(g), B); /* nothing newly threatened: no question */
    game_free(g);
    g = mq(CHECK_POS, NULL);
    tu_play(g, W, "a1a5");
    tu_assert_position(g, "4k~3/7p~/8/R3p~3/8/8/8/4K~3 w - - 1 1 phase=announce threats=e5");
    assert_int_equal(game_to_act(g), W);
    /* e5 can step to e4, out of the Rook's reach: no mask mate */
    assert_actions(g, W, "announce check e5 pass");
    tu_assert_refused(g, "announce mate e5", "a mask mate needs");
    tu_play(g, W, "pass");
    assert_int_equal(game_to_act(g), B);
    game_free(g);
}

static void test_masq6_new_threats_after_a_battle(void **state)
{
    (void)state;
    /* a revealed Rook wins on f1 and newly threatens e1 and g1 */
    Game *g = mq("4k~3/8/8/8/8/8/5r2/4P~P~P~K~ b - - 0 1", NULL);
    PLAY(g, "f2f1", "reveal");
    tu_assert_position(g, "4k~3/8/8/8/8/8/8/4P~rP~K~ b - - 0 1 phase=announce threats=e1,g1");
    game_free(g);
    /* revealed for the attack: as a masked piece it threatened both before */
    g = mq("4k~3/8/8/8/8/8/5r~2/4P~P~P~K~ b - - 0 1", NULL);
    tu_play(g, B, "reveal f2f1");
    tu_assert_position(g, "4k~3/8/8/8/8/8/5r2/4P~P~P~K~ b - - 0 1 phase=battle:f2:f1:reveal");
    tu_play(g, W, "reveal");
    tu_assert_position(g, "4k~3/8/8/8/8/8/8/4P~rP~K~ w - - 0 2");
    game_free(g);
    /* the same from the position string alone */
    g = mq("4k~3/8/8/8/8/8/5r2/4P~P~P~K~ b - - 0 1 phase=battle:f2:f1:reveal", NULL);
    tu_play(g, W, "reveal");
    assert_int_equal(game_to_act(g), W);
    game_free(g);
}

static void test_masq6_mask_check_then_capture_by_right(void **state)
{
    (void)state;
    Game *g = mq(CHECK_POS, NULL);
    PLAY(g, "a1a5", "announce check e5");
    assert_int_equal(game_to_act(g), B);
    assert_actions(g, B, "reveal keep");
    View *v = view_of(g, B);
    assert_string_equal(v->question, "black: mask check on e5: reveal the piece or keep it "
                                     "masked (reveal, keep)?");
    free(v);
    PLAY(g, "keep", "h7h6");
    tu_assert_position(g, "4k~3/8/7p~/R3p~3/8/8/8/4K~3 w - - 0 2 right=a5:e5");
    v = view_of(g, W);
    assert_non_null(strstr(v->info, "capture right: white may take the masked piece on e5 "
                                    "from a5 without battle this turn"));
    free(v);
    tu_play(g, W, "a5e5"); /* by right: no battle, no reveal */
    /* from e5 the Rook newly threatens the masked piece on e8 */
    tu_assert_position(g, "4k~3/8/7p~/4R3/8/8/8/4K~3 w - - 0 2 phase=announce threats=e8");
    assert_true(told(g, W, "white takes the masked piece on e5 by right from a5"));
    assert_true(told(g, B, "white takes your masked Pawn on e5 by right"));
    v = view_of(g, W);
    assert_int_equal(v->ncaptured, 1);
    assert_int_equal(v->captured[0].figure, FIG_HIDDEN);
    free(v);
    v = view_of(g, B);
    assert_int_equal(v->captured[0].figure, FIG_PAWN);
    free(v);
    assert_never_named(g, W, "Pawn");
    game_free(g);
}

static void test_masq6_the_right_lapses_after_one_turn(void **state)
{
    (void)state;
    Game *g = mq(CHECK_POS, NULL);
    PLAY(g, "a1a5", "announce check e5", "keep", "h7h6", "e1e2");
    char *pos = tu_position(g);
    assert_null(strstr(pos, "right="));
    free(pos);
    PLAY(g, "h6h5", "a5e5");
    assert_int_equal(game_to_act(g), B); /* now a simple battle: Black decides */
    tu_assert_position(g, "4k~3/8/8/R3p~2p~/8/8/4K~^3/8 w - - 0 3 phase=battle:a5:e5");
    game_free(g);
}

static void test_masq6_the_right_follows_the_target(void **state)
{
    (void)state;
    Game *g = mq("7k~/8/4p~3/8/8/8/R7/6K~1 w - - 0 1", NULL);
    PLAY(g, "a2e2", "announce check e6", "keep", "e6e5");
    tu_assert_position(g, "7k~/8/8/4p~3/8/8/4R^3/6K~1 w - - 0 2 right=e2:e5");
    tu_play(g, W, "e2e5");
    tu_assert_position(g, "7k~/8/8/4R3/8/8/8/6K~1 b - - 0 2");
    game_free(g);
}

static void test_masq6_only_the_pieces_that_threatened_hold_the_right(void **state)
{
    (void)state;
    /* d4 and h2 threatened e5 when the check was announced; the Knight on f3
     * threatens it too, but attacking it is a battle (docs/MASQUES.md P9) */
    const char *pos = "4k~3/8/8/4p~3/3P~4/5N2/7B/4K~3 w - - 0 3 right=d4,h2:e5";
    Game *g = mq(pos, NULL);
    tu_play(g, W, "f3e5");
    tu_assert_position(g, "4k~3/8/8/4p~3/3P~4/5N2/7B/4K~3 w - - 0 3 phase=battle:f3:e5");
    game_free(g);
    g = mq(pos, NULL);
    tu_play(g, W, "h2e5");
    tu_assert_position(g, "4k~3/8/8/4B3/3P~4/5N2/8/4K~3 b - - 0 3");
    game_free(g);
    g = mq(pos, NULL);
    tu_play(g, W, "reveal d4e5"); /* revealing first: a simple battle, not the right */
    assert_int_equal(game_to_act(g), B);
    game_free(g);
}

static void test_masq6_a_revealed_target_gives_no_right(void **state)
{
    (void)state;
    Game *g = mq("7k~/8/4p~3/8/8/8/R7/6K~1 w - - 0 1", NULL);
    PLAY(g, "a2e2", "announce check e6", "reveal", "h8h7");
    tu_assert_position(g, "8/7k~^/4p3/8/8/8/4R^3/6K~1 w - - 0 2");
    tu_play(g, W, "e2e6"); /* an ordinary capture */
    tu_assert_position(g, "8/7k~^/4R3/8/8/8/8/6K~1 b - - 0 2");
    game_free(g);
}

/* ---- MASQ-7 mask mate ----------------------------------------------------------- */

static void test_masq7_mask_mate_on_the_king_wins(void **state)
{
    (void)state;
    Game *g = mq("7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", NULL);
    tu_play(g, W, "a1a8");
    assert_actions(g, W, "announce check h8 announce mate h8 pass");
    tu_play(g, W, "announce mate h8"); /* the reveal is forced: nothing to ask */
    tu_assert_over(g, "1-0", "mask mate on the King");
    assert_true(told(g, B, "black reveals a King on h8"));
    View *v = view_of(g, W); /* MASQ-16: the other masked pieces stay hidden */
    assert_int_equal(piece_at(v, "g7")->figure, FIG_HIDDEN);
    assert_string_equal(v->position, "");
    free(v);
    game_free(g);
}

static void test_masq7_mask_mate_on_another_piece_reveals_it(void **state)
{
    (void)state;
    Game *g = mq("7n~/6p~p~/1k~6/8/8/8/8/R3K3 w - - 0 1", NULL);
    PLAY(g, "a1a8", "announce mate h8");
    tu_assert_going_on(g);
    assert_int_equal(game_to_act(g), B);
    tu_assert_position(g, "R6n/6p~p~/1k~6/8/8/8/8/4K3 b - - 1 1");
    game_free(g);
}

static void test_masq7_one_attacker_taken_is_no_escape_from_another(void **state)
{
    (void)state;
    /* d7 is pinned to the revealed King; b7 may attack the masked c6, but
     * the Rook would still threaten d7: a mask mate (MASQUES.md choice) */
    Game *g = mq("3k^4/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3R^K3 w - - 3 2 phase=announce threats=d7",
                 NULL);
    assert_actions(g, W, "announce check d7 announce mate d7 pass");
    game_free(g);
}

static void test_masq7_truth_judges_the_true_figures(void **state)
{
    (void)state;
    const char *pos = "7n~/7p~/8/8/1k~6/8/8/R3K3 w - - 0 1";
    Game *g = mq(pos, NULL);
    tu_play(g, W, "a1a8"); /* publicly h8 cannot move; as a Knight it could */
    assert_true(has(g, W, "announce mate h8"));
    game_free(g);
    g = mq(pos, "mask_mate=truth");
    tu_play(g, W, "a1a8");
    assert_actions(g, W, "announce check h8 pass");
    game_free(g);
}

/* ---- MASQ-8, 9 simple battles ---------------------------------------------------- */

static Game *simple_battle(char defender)
{
    char pos[64];
    snprintf(pos, sizeof pos, "4k~3/8/8/3%c~4/8/8/8/3RK3 w - - 0 1", defender);
    Game *g = mq(pos, NULL);
    tu_play(g, W, "d1d5");
    return g;
}

static void test_masq8_the_defender_decides_a_battle(void **state)
{
    (void)state;
    Game *g = simple_battle('q');
    assert_int_equal(game_to_act(g), B);
    assert_int_equal(game_side_to_move(g), W);
    assert_actions(g, B, "reveal concede");
    assert_actions(g, W, "");
    /* the battle is the attacker's move: the Rook counts as moved (^) */
    tu_assert_position(g, "4k~3/8/8/3q~4/8/8/8/3R^K3 w - - 0 1 phase=battle:d1:d5");
    View *v = view_of(g, B);
    assert_string_equal(v->question, "black: reveal the piece on d5 or concede?");
    free(v);
    tu_assert_refused(g, "e8e7", "black must answer the battle on d5: reveal or concede");
    game_free(g);
}

static void test_masq9_concede_removes_without_reveal(void **state)
{
    (void)state;
    Game *g = simple_battle('q');
    tu_play(g, B, "concede");
    tu_assert_position(g, "4k~3/8/8/3R4/8/8/8/4K3 b - - 0 1");
    assert_true(told(g, W, "black concedes: the masked piece on d5 is removed without reveal"));
    assert_true(told(g, B, "you concede: your masked Queen on d5 is removed without reveal"));
    View *v = view_of(g, W);
    assert_int_equal(v->ncaptured, 1);
    assert_int_equal(v->captured[0].figure, FIG_HIDDEN);
    assert_true(v->captured[0].flags & VP_MASKED);
    free(v);
    v = view_of(g, B);
    assert_int_equal(v->captured[0].figure, FIG_QUEEN);
    free(v);
    assert_never_named(g, W, "Queen");
    game_free(g);
}

static void test_masq9_a_weaker_defender_is_taken(void **state)
{
    (void)state;
    Game *g = simple_battle('n');
    tu_play(g, B, "reveal");
    tu_assert_position(g, "4k~3/8/8/3R4/8/8/8/4K3 b - - 0 1");
    assert_true(told(g, W, "black reveals a Knight on d5: weaker than the Rook, it is taken"));
    View *v = view_of(g, W);
    assert_int_equal(v->captured[0].figure, FIG_KNIGHT);
    free(v);
    game_free(g);
}

static void test_masq9_a_stronger_defender_takes_the_attacker(void **state)
{
    (void)state;
    Game *g = simple_battle('q');
    tu_play(g, B, "reveal");
    tu_assert_position(g, "4k~3/8/8/3q4/8/8/8/4K3 b - - 0 1");
    assert_true(told(g, W, "stronger than the Rook, the attacker is taken"));
    game_free(g);
}

static void test_masq9_an_equal_defender_repels_the_attack(void **state)
{
    (void)state;
    Game *g = simple_battle('r');
    tu_play(g, B, "reveal");
    /* both stay; the Rook made its move (it counts as moved) */
    tu_assert_position(g, "4k~3/8/8/3r4/8/8/8/3R^K3 b - - 0 1");
    assert_true(told(g, B, "as strong as the Rook, the attack is repelled"));
    game_free(g);
}

static void test_masq9_a_pawn_attacker_promotes_when_it_moves_in(void **state)
{
    (void)state;
    Game *g = mq("3n~k~3/4P3/8/8/8/8/8/4K~3 w - - 0 1", NULL);
    tu_play(g, W, "e7d8q");
    tu_assert_position(g, "3n~k~3/4P3/8/8/8/8/8/4K~3 w - - 0 1 phase=battle:e7:d8q");
    tu_play(g, B, "concede");
    tu_assert_position(g, "3Qk~3/8/8/8/8/8/8/4K~3 w - - 0 1 phase=announce threats=e8");
    game_free(g);
}

/* ---- MASQ-10 masked battles ------------------------------------------------------- */

static void test_masq10_the_attacker_bids_first_and_may_fold(void **state)
{
    (void)state;
    Game *g = mq(P4, NULL);
    tu_play(g, W, "c6d7");
    assert_int_equal(game_to_act(g), W);
    assert_int_equal(count_play(g, W), 42); /* fold, bid 1 .. bid 41 */
    assert_false(has(g, W, "call"));
    View *v = view_of(g, W);
    assert_string_equal(v->question, "white: bid (1 to 41) or fold");
    free(v);
    tu_assert_refused(g, "call", "there is no bid to call yet");
    tu_play(g, W, "fold");
    tu_assert_position(g, "4k~3/1n~p~p~1p~p~1/8/8/8/8/PP4PP/3RK3 b - - 0 1");
    assert_true(told(g, B, "white folds: the masked piece on c6 is removed without reveal"));
    assert_true(told(g, W, "you fold: your masked Knight on c6 is removed without reveal"));
    assert_never_named(g, B, "Knight");
    game_free(g);
}

static void test_masq10_a_folding_defender_lets_the_attacker_in(void **state)
{
    (void)state;
    Game *g = mq(P4, NULL);
    PLAY(g, "c6d7", "bid 1");
    assert_actions(g, B, "fold bid 2 bid 3 bid 4 bid 5 bid 6 bid 7 bid 8 bid 9 bid 10 bid 11 "
                         "bid 12 bid 13 bid 14 bid 15 bid 16 bid 17 bid 18 bid 19 bid 20 "
                         "bid 21 bid 22 bid 23 bid 24 bid 25 bid 26 bid 27 bid 28 bid 29 "
                         "bid 30 bid 31 bid 32 bid 33 bid 34 bid 35 bid 36 bid 37 bid 38 "
                         "bid 39 bid 40 bid 41 call");
    View *v = view_of(g, B);
    assert_string_equal(v->question, "black: bid higher than 1, call, or fold");
    assert_non_null(strstr(v->info, "bid on the table: 1 by white"));
    free(v);
    tu_assert_refused(g, "bid 1", "the bid must be higher than 1");
    tu_play(g, B, "fold");
    /* the masked Knight lands on d7 and newly threatens the King on e8 */
    tu_assert_position(g, "4k~3/1n~p~N~1p~p~1/8/8/8/8/PP4PP/3RK3 w - - 0 1 "
                          "phase=announce threats=e8");
    game_free(g);
}

static void test_masq10_a_call_with_equal_strength_moves_nothing(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/3p~4/4P~3/8/8/4K~3 w - - 0 1", NULL);
    PLAY(g, "e4d5", "bid 2", "call");
    tu_assert_position(g, "4k~3/8/8/3p4/4P3/8/8/4K~3 b - - 0 1");
    assert_true(told(g, W, "black calls 2: white's piece on e4 is a Pawn, black's on d5 is "
                           "a Pawn: equal strength, nothing moves"));
    game_free(g);
}

static void test_masq10_call_stronger_one_set_is_settled_at_once(void **state)
{
    (void)state;
    Game *g = mq(P4, NULL);
    PLAY(g, "c6d7", "bid 1", "call");
    /* a bid of 1 is covered by the losing Pawn alone: no question */
    tu_assert_position(g, "4k~3/1n~p~N1p~p~1/8/8/8/8/PP4PP/3RK3 b - - 0 1");
    assert_true(told(g, W, "black gives up: Pawn on d7 (1 points)"));
    game_free(g);
}

static void test_masq10_the_loser_chooses_among_minimal_sets(void **state)
{
    (void)state;
    Game *g = mq(P4, NULL);
    PLAY(g, "c6d7", "bid 2", "call");
    tu_assert_position(g, "4k~3/1n~p~p1p~p~1/2N5/8/8/8/PP4PP/3RK3 w - - 0 1 "
                          "phase=giveup:c6:d7:b:2");
    assert_int_equal(game_to_act(g), B);
    assert_actions(g, B, "give b7 d7 give c7 d7 give d7 f7 give d7 g7");
    View *v = view_of(g, B);
    assert_string_equal(v->question, "black: give up pieces worth at least 2, your Pawn on "
                                     "d7 among them (give SQ SQ ...)");
    free(v);
    tu_assert_refused(g, "give d7", "the pieces given must be worth at least 2 (these are "
                                    "worth 1)");
    tu_assert_refused(g, "give c7 f7", "the Pawn on d7 that lost the battle must be among them");
    tu_assert_refused(g, "give b7 c7 d7", "too much");
    tu_assert_refused(g, "give e8 d7", "the King is never given up");
    tu_assert_refused(g, "give d2 d7", "d2 holds no piece of yours");
    tu_play(g, B, "give f7, d7"); /* any order */
    tu_assert_position(g, "4k~3/1n~p~N2p~1/8/8/8/8/PP4PP/3RK3 b - - 0 1");
    View *w = view_of(g, W); /* given up revealed (the default): figures known */
    assert_int_equal(w->ncaptured, 2);
    assert_int_equal(w->captured[0].figure, FIG_PAWN);
    assert_int_equal(w->captured[1].figure, FIG_PAWN);
    free(w);
    game_free(g);
}

static void test_masq10_pieces_given_up_unrevealed_stay_hidden(void **state)
{
    (void)state;
    Game *g = mq(P4, "giveup_revealed=off");
    PLAY(g, "c6d7", "bid 2", "call", "give d7 b7");
    View *w = view_of(g, W);
    assert_int_equal(w->ncaptured, 2);
    int hidden = 0, pawns = 0;
    for (int i = 0; i < w->ncaptured; i++) {
        hidden += w->captured[i].figure == FIG_HIDDEN;
        pawns += w->captured[i].figure == FIG_PAWN; /* d7, revealed by the call */
    }
    assert_int_equal(hidden, 1);
    assert_int_equal(pawns, 1);
    free(w);
    assert_true(told(g, W, "black gives up: the masked piece on b7, Pawn on d7"));
    assert_false(told(g, W, "Knight on b7"));
    assert_true(told(g, B, "you give up: Knight on b7, Pawn on d7 (4 points)"));
    game_free(g);
}

static void test_masq10_a_losing_attacker_pays_with_several_pieces(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/3n~4/4P~3/8/PPP5/4K3 w - - 0 1", NULL);
    PLAY(g, "e4d5", "bid 2", "call");
    assert_int_equal(game_to_act(g), W);
    assert_actions(g, W, "give a2 e4 give b2 e4 give c2 e4");
    tu_play(g, W, "give a2 e4");
    tu_assert_position(g, "4k~3/8/8/3n4/8/8/1PP5/4K3 b - - 0 1");
    game_free(g);
}

static void test_masq10_a_bid_nobody_can_cover_takes_every_piece_but_the_king(void **state)
{
    (void)state;
    Game *g = mq("4k~3/3p~p~3/2N~5/8/8/8/8/4K3 w - - 0 1", NULL);
    PLAY(g, "c6d7", "bid 5", "call");
    tu_assert_position(g, "4k~3/3N4/8/8/8/8/8/4K3 b - - 0 1");
    assert_true(told(g, W, "black cannot cover the bid of 5: it gives up every piece but "
                           "its King"));
    game_free(g);
}

static void test_masq10_bid_errors(void **state)
{
    (void)state;
    Game *g = mq(P4 " phase=bid:c6:d7:3:w", NULL);
    tu_assert_refused(g, "bid 2", "bid 2: the bid must be higher than 3");
    tu_assert_refused(g, "bid 50", "the highest bid is the all-in, 41");
    tu_assert_refused(g, "e8e7", "bids higher than 3, calls, or folds");
    assert_true(has(g, B, "call"));
    game_free(g);
}

/* ---- MASQ-11 the all-in ------------------------------------------------------------- */

static void test_masq11_a_called_all_in_at_41_decides_the_game(void **state)
{
    (void)state;
    Game *g = mq(P4 " phase=bid:c6:d7:40:w", NULL);
    assert_actions(g, B, "fold bid 41 call");
    tu_play(g, B, "bid 41");
    assert_actions(g, W, "fold call");
    tu_play(g, W, "call");
    tu_assert_over(g, "1-0", "all-in won");
    game_free(g);
}

static void test_masq11_a_fold_or_an_equal_battle_lets_the_game_go_on(void **state)
{
    (void)state;
    Game *g = mq(P4 " phase=bid:c6:d7:40:w", NULL);
    PLAY(g, "bid 41", "fold");
    tu_assert_going_on(g);
    game_free(g);
    g = mq("4k~3/8/8/3p~4/4P~3/8/8/4K~3 w - - 0 1 phase=bid:e4:d5:40:w", NULL);
    PLAY(g, "bid 41", "call");
    tu_assert_going_on(g);
    tu_assert_position(g, "4k~3/8/8/3p4/4P3/8/8/4K~3 b - - 0 1");
    game_free(g);
}

static void test_masq11_a_house_rule_may_restore_31(void **state)
{
    (void)state;
    Game *g = mq(P4, "allin=31");
    tu_play(g, W, "c6d7");
    assert_int_equal(count_play(g, W), 32); /* fold, bid 1 .. bid 31 */
    tu_assert_refused(g, "bid 32", "the highest bid is the all-in, 31");
    PLAY(g, "bid 31", "call");
    tu_assert_over(g, "1-0", "all-in won");
    game_free(g);
}

/* ---- MASQ-12 removal without reveal ---------------------------------------------- */

static void test_masq12_a_piece_removed_without_reveal_is_never_named(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/3n~4/4P~3/8/8/4K3 w - - 0 1", NULL);
    PLAY(g, "e4d5", "fold"); /* White's masked Pawn leaves unseen */
    View *v = view_of(g, B);
    assert_int_equal(v->ncaptured, 1);
    assert_int_equal(v->captured[0].figure, FIG_HIDDEN);
    assert_true(v->captured[0].flags & VP_MASKED);
    free(v);
    assert_never_named(g, B, "Pawn");
    /* even at the end of the game (MASQ-16) */
    tu_play(g, B, "resign");
    assert_never_named(g, B, "Pawn");
    v = view_of(g, B);
    assert_int_equal(v->captured[0].figure, FIG_HIDDEN);
    assert_string_equal(v->position, "");
    free(v);
    game_free(g);
}

/* ---- MASQ-13 check after reveal -------------------------------------------------------- */

static void test_masq13_check_after_reveal_loses(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/8/3q~4/8/8/3R2K1 w - - 0 1", NULL);
    PLAY(g, "d1d4", "reveal");
    tu_assert_over(g, "0-1", "check after reveal");
    game_free(g);
}

static void test_masq13_not_while_the_king_is_masked(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/8/3q~4/8/8/3R2K~1 w - - 0 1", NULL);
    PLAY(g, "d1d4", "reveal");
    tu_assert_going_on(g);
    tu_assert_position(g, "4k~3/8/8/8/3q4/8/8/6K~1 b - - 0 1");
    game_free(g);
}

static void test_masq13_a_king_revealed_by_the_call_into_an_attack_loses(void **state)
{
    (void)state;
    Game *g = mq("3rk~3/8/8/3n~4/4K~3/8/8/8 w - - 0 1", NULL);
    PLAY(g, "e4d5", "bid 1", "call");
    tu_assert_over(g, "0-1", "check after reveal");
    game_free(g);
}

/* ---- MASQ-14 check ----------------------------------------------------------------- */

static void test_masq14_a_masked_king_is_not_in_check(void **state)
{
    (void)state;
    const char *pos = "4k~3/8/8/8/8/8/3P~4/4K~2r w - - 0 1";
    Game *g = mq(pos, NULL);
    assert_actions(g, W, "e1e2 e1e3 reveal e1e2 reveal e1f2 d2d3 d2d4 reveal d2d3 "
                         "reveal d2d4");
    Status s;
    game_status(g, &s);
    assert_int_equal(s.in_check, 0);
    game_free(g);
    g = mq(pos, "masked_king_check=on");
    assert_actions(g, W, "e1e2 e1e3 reveal e1e2 reveal e1f2");
    game_free(g);
}

static void test_masq14_a_battle_may_not_expose_the_revealed_king(void **state)
{
    (void)state;
    Game *g = mq("4r1k~1/8/8/8/8/8/p~3R3/4K3 w - - 0 1", NULL);
    assert_false(has(g, W, "e2a2"));
    assert_true(has(g, W, "e2e8"));
    tu_assert_refused(g, "e2a2", "e2a2: your King would be attacked after it (MASQ-14: a "
                                 "battle is judged as if won)");
    game_free(g);
}

static void test_masq14_mate_is_judged_on_the_true_figures(void **state)
{
    (void)state;
    Game *g = mq("4k~3/8/8/8/8/4B~3/6P~P~/r6K w - - 0 1", NULL);
    Status s;
    game_status(g, &s);
    assert_int_equal(s.in_check, 1);
    assert_actions(g, W, "reveal e3c1 reveal e3g1"); /* the masked Bishop parries */
    tu_assert_going_on(g);
    game_free(g);
    g = mq("4k~3/8/8/8/8/4P~3/6P~P~/r6K w - - 0 1", NULL);
    tu_assert_over(g, "0-1", "checkmate");
    game_free(g);
}

static void test_masq14_no_legal_action_is_stalemate(void **state)
{
    (void)state;
    Game *g = mq("7k~/8/8/8/8/8/2q5/K7 w - - 0 1", NULL);
    tu_assert_over(g, "1/2-1/2", "stalemate");
    game_free(g);
}

/* ---- MASQ-15 castling ------------------------------------------------------------------ */

static void test_masq15_a_masked_king_castles_out_of_check(void **state)
{
    (void)state;
    Game *g = mq("4r1k~1/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1", NULL);
    assert_true(has(g, W, "e1g1"));
    assert_true(has(g, W, "e1c1"));
    tu_play(g, W, "O-O");
    tu_assert_position(g, "4r1k~1/8/8/8/8/8/8/R~4R^K^1 b - - 1 1");
    assert_true(told(g, B, "white castles e1g1: its King and Rook are revealed"));
    game_free(g);
}

static void test_masq15_a_revealed_king_in_check_cannot_castle(void **state)
{
    (void)state;
    Game *g = mq("4r1k~1/8/8/8/8/8/8/R~3K2R~ w KQ - 0 1", NULL);
    assert_false(has(g, W, "e1g1"));
    assert_false(has(g, W, "e1c1"));
    tu_assert_refused(g, "e1g1", "castling needs");
    game_free(g);
}

static void test_masq15_no_castling_through_the_line_of_the_check(void **state)
{
    (void)state;
    /* the King would pass f1, on the rook's line once it leaves e1 */
    Game *g = mq("4k~3/8/8/8/8/8/8/r3K~2R~ w K - 0 1", NULL);
    assert_false(has(g, W, "e1g1"));
    game_free(g);
}

/* ---- MASQ-16 the ends ------------------------------------------------------------------- */

static void test_masq16_full_reveal_without_king_at_once(void **state)
{
    (void)state;
    Game *g = mq("4k~3/3p4/8/8/8/8/8/4R1K1 w - - 0 1", NULL);
    PLAY(g, "e1e8", "concede");
    tu_assert_over(g, "1-0", "full reveal without King");
    game_free(g);
}

static void test_masq16_full_reveal_without_king_later(void **state)
{
    (void)state;
    Game *g = mq("4k~3/p~2p4/8/8/8/8/8/4R1K1 w - - 0 1", NULL);
    PLAY(g, "e1e8", "concede");
    tu_assert_going_on(g); /* Black plays on without its King */
    tu_assert_position(g, "4R3/p~2p4/8/8/8/8/8/6K1 b - - 0 1 nokings=b");
    View *v = view_of(g, B);
    assert_non_null(strstr(v->info, "your King was removed without reveal"));
    free(v);
    v = view_of(g, W);
    assert_null(strstr(v->info, "King was removed"));
    free(v);
    assert_never_named(g, W, "King");
    tu_play(g, B, "reveal a7a5"); /* the last masked piece shows itself */
    tu_assert_over(g, "1-0", "full reveal without King");
    game_free(g);
}

/* ---- Views, records, perft, position strings ------------------------------------------------- */

/* MASQ-16: once the game is over (here by resignation, a core-level end)
 * a seat's view no longer offers its castling rights. */
static void test_masq16_no_castling_line_after_the_end(void **state)
{
    (void)state;
    Game *g = mq(START, NULL);
    View *v = view_of(g, W);
    assert_non_null(strstr(v->info, "your castling rights"));
    free(v);
    tu_play(g, W, "resign");
    v = view_of(g, W);
    assert_null(strstr(v->info, "castling"));
    free(v);
    game_free(g);
}

static void test_masq_views_show_each_seat_only_what_it_may_know(void **state)
{
    (void)state;
    Game *g = mq(START, NULL);
    for (int seat = 0; seat < 2; seat++) {
        View *v = view_of(g, seat);
        assert_int_equal(v->npieces, 32);
        for (int i = 0; i < v->npieces; i++) {
            const ViewPiece *p = &v->pieces[i];
            assert_true(p->flags & VP_MASKED);
            if (p->side == seat)
                assert_int_not_equal(p->figure, FIG_HIDDEN);
            else
                assert_int_equal(p->figure, FIG_HIDDEN);
        }
        assert_int_equal(piece_at(v, seat ? "d8" : "d1")->figure, FIG_QUEEN);
        assert_string_equal(v->position, "");
        assert_string_equal(v->question, seat == W ? "white to move" : "");
        free(v);
    }
    game_free(g);
}

static void test_masq_records_replay_every_kind_of_action(void **state)
{
    (void)state;
    Game *g = mq_seeded(11);
    PLAY(g, "standard", "standard", "e2e4", "reveal g8f6", "pass", "reveal Bf1c4");
    /* play on with whatever is listed first, through battles and bids */
    for (int i = 0; i < 40 && game_to_act(g) >= 0; i++) {
        ActionList l = ACTIONLIST_INIT;
        game_legal_play(g, &l);
        Error e;
        assert_int_equal(game_apply(g, &l.v[l.n > 2 ? l.n / 2 : 0], &e), 0);
        al_free(&l);
    }
    StrBuf rec = STRBUF_INIT;
    assert_int_equal(record_save(g, &rec), 0);
    Error e = {""};
    Game *h = record_load(sb_str(&rec), "test", &e);
    if (!h)
        fail_msg("%s\n%s", e.msg, sb_str(&rec));
    char *a = tu_position(g), *b = tu_position(h);
    assert_string_equal(a, b);
    free(a);
    free(b);
    game_free(h);
    sb_free(&rec);
    game_free(g);
}

static void test_masq_perft_fast_path_equals_the_generic_one(void **state)
{
    (void)state;
    static const char *const POS[] = {
        START, P4, P4 " phase=bid:c6:d7:2:b", "7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1",
        "4k~3/8/8/4p~3/3P~4/5N2/7B/4K~3 w - - 0 3 right=d4,h2:e5",
        "4r1k~1/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1",
        "8/8/6n~1/8/8/2p~5/1B6/4K3 w - - 0 1 nokings=b"};
    for (size_t i = 0; i < sizeof POS / sizeof *POS; i++) {
        Game *g = mq(POS[i], "allin=4");
        assert_int_equal(game_perft(g, 3), game_perft_generic(g, 3));
        game_free(g);
    }
    Game *g = mq(START, "allin=4"); /* docs/MASQUES.md, P1 */
    assert_int_equal(game_perft(g, 1), 36);
    assert_int_equal(game_perft(g, 3), 48124);
    game_free(g);
}

static void test_masq_position_strings_round_trip(void **state)
{
    (void)state;
    static const char *const POS[] = {
        START,
        "4k~3/1n~p~p1p~p~1/2N5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=giveup:c6:d7:b:2",
        P4 " phase=bid:c6:d7:3:w",
        "3n~k~3/4P3/8/8/8/8/8/4K~3 w - - 0 1 phase=battle:e7:d8q",
        "3n~k~3/4P3/8/8/8/8/8/4K~3 w - - 0 1 phase=battle:e7:d8q:reveal",
        "4k~3/7p~/8/R3p~3/8/8/8/4K~3 w - - 1 1 phase=announce threats=e5",
        "P~r5k~/8/8/8/8/8/8/4K~3 w - - 1 2 phase=answer:mate:a8",
        "4k~3/8/7p~/R3p~3/8/8/8/4K~3 w - - 0 2 right=a5:e5",
        "4R3/p~2p4/8/8/8/8/8/6K1 b - - 0 1 nokings=b",
        "4k~3/8/8/8/8/6N~1/4P~3/4K~3 b - g2 0 1",
    };
    for (size_t i = 0; i < sizeof POS / sizeof *POS; i++) {
        Game *g = mq(POS[i], NULL);
        tu_assert_position(g, POS[i]);
        game_free(g);
    }
}

static void test_masq_bad_position_strings_are_refused(void **state)
{
    (void)state;
    static const struct { const char *pos, *want; } BAD[] = {
        {"4k~3/8/8/8/8/8/8/4K~2 w - - 0 1", "rank 1 has 7 squares"},
        {"4k~3/8/8/8/8/8/8/4X~3 w - - 0 1", "bad letter 'X'"},
        {"4k~3/8/8/8/8/8/8/4~K3 w - - 0 1", "must follow a piece letter"},
        {"4k~3/8/8/8/4P^3/8/8/4K~3 w - - 0 1", "only a piece on its own home ranks"},
        {"3Pk~3/8/8/8/8/8/8/4K~3 w - - 0 1", "stands on its last rank"},
        {"4k~3/8/8/8/8/8/8/N~N~N~1K~3 w - - 0 1", "3 masked Knights"},
        {"4k~3/8/8/8/8/8/8/8 w - - 0 1", "white has no King"},
        {"4k~3/8/8/8/8/8/8/4K~3 w - - 0 1 nokings=w", "but white's King is on the board"},
        {"4k~3/8/8/8/8/8/8/4K~3 w K - 0 1", "needs white's unmoved King on e1"},
        {"4k~3/8/8/8/8/8/8/4K~3 w - e6 0 1", "no two-square step of black could have passed it"},
        {"4k~3/8/8/8/8/8/8/4K~3 w - - 0 1 phase=fly", "bad phase 'fly'"},
        {"4k~3/8/8/8/8/8/8/4K~3 w - - 0 1 threats=e8", "goes with phase=announce"},
        {"4k~3/8/8/8/8/8/8/4K~3 w - - 0 1 colour=red", "unknown token"},
        {"4k~3/8/8/3p~4/4P~3/8/8/4K~3 w - - 0 1 phase=bid:e4:d5:0:w", "or - with bid 0"},
        {"4k~3/1n~p~p1p~p~1/2N5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=giveup:c6:d7:b:1",
         "settled without asking"},
        {P4 " phase=giveup:c6:d7:b:2", "both pieces are revealed"},
        {"4k~3/8/8/R3p~3/8/8/8/4K~3 w - - 1 1 phase=announce threats=e5 right=a5:e5",
         "white's capture right cannot exist in this phase"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof *BAD; i++)
        tu_game_refused(&(TuGame){.variant = tu_variant("masques"), .position = BAD[i].pos}, BAD[i].want);
}

/* MASQ-13: a game lost by a check after a reveal writes a position where
 * the side that just moved has its King attacked; that string reads back as
 * the same finished game (found by the batch fuzzer: it was refused). */
static void test_masq13_check_after_reveal_position_reads_back(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"),
                                .position = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1"});
    tu_assert_over(g, "1-0", "check after reveal");
    tu_assert_position(g, "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1");
    game_free(g);
    /* the fuzzer's game: black's revealed Rook attacks white's King */
    g = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 187,
                          .params = "masked_king_check=on"});
    static const char *const LINE[] = {
        "place Q f1", "place K b2", "place B g1", "place R h1", "place R f2",
        "place N d1", "random", "place B g8", "place B c8", "place P h8",
        "place P d8", "place P e7", "place Q f7", "place P d7", "place N c7",
        "place N g7", "place P h7", "random", "reveal f2f6", "pass", "a7a6",
        "reveal Qf1f3", "announce check b7", "reveal"};
    for (size_t i = 0; i < sizeof LINE / sizeof *LINE; i++)
        tu_play(g, game_to_act(g), LINE[i]);
    tu_assert_over(g, "0-1", "check after reveal");
    char *pos = tu_position(g);
    Game *back = tu_game(&(TuGame){.variant = tu_variant("masques"), .position = pos,
                                   .params = "masked_king_check=on"});
    tu_assert_over(back, "0-1", "check after reveal");
    tu_assert_position(back, pos);
    free(pos);
    game_free(back);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq13_check_after_reveal_position_reads_back),
        cmocka_unit_test(test_masq1_standard_arrangements_start_the_game),
        cmocka_unit_test(test_masq1_castling_only_where_king_and_rook_were_set),
        cmocka_unit_test(test_masq1_black_may_arrange_out_of_turn),
        cmocka_unit_test(test_masq1_random_arrangement_comes_from_the_seed),
        cmocka_unit_test(test_masq1_arrangement_errors_leave_the_game_unchanged),
        cmocka_unit_test(test_masq1_the_arrangement_stays_hidden),
        cmocka_unit_test(test_masq2_a_masked_piece_moves_like_a_pawn),
        cmocka_unit_test(test_masq2_no_two_step_after_moving),
        cmocka_unit_test(test_masq2_an_unmoved_revealed_pawn_steps_two_from_rank_one),
        cmocka_unit_test(test_masq2_en_passant_onto_a_masked_piece_is_a_battle),
        cmocka_unit_test(test_masq2_en_passant_onto_a_revealed_pawn_is_a_capture),
        cmocka_unit_test(test_masq3_a_masked_piece_on_its_last_rank_is_stuck),
        cmocka_unit_test(test_masq3_reveal_to_promote_is_the_whole_turn),
        cmocka_unit_test(test_masq3_a_revealed_pawn_promotes),
        cmocka_unit_test(test_masq3_a_pawn_revealed_in_an_answer_promotes),
        cmocka_unit_test(test_masq4_a_masked_piece_takes_a_revealed_one_and_stays_masked),
        cmocka_unit_test(test_masq5_reveal_and_move_by_the_figure),
        cmocka_unit_test(test_masq5_a_revealed_pawn_may_step_two),
        cmocka_unit_test(test_masq5_reveal_alone_is_a_parameter),
        cmocka_unit_test(test_masq6_announce_only_after_a_new_threat),
        cmocka_unit_test(test_masq6_new_threats_after_a_battle),
        cmocka_unit_test(test_masq6_mask_check_then_capture_by_right),
        cmocka_unit_test(test_masq6_the_right_lapses_after_one_turn),
        cmocka_unit_test(test_masq6_the_right_follows_the_target),
        cmocka_unit_test(test_masq6_only_the_pieces_that_threatened_hold_the_right),
        cmocka_unit_test(test_masq6_a_revealed_target_gives_no_right),
        cmocka_unit_test(test_masq7_mask_mate_on_the_king_wins),
        cmocka_unit_test(test_masq7_mask_mate_on_another_piece_reveals_it),
        cmocka_unit_test(test_masq7_one_attacker_taken_is_no_escape_from_another),
        cmocka_unit_test(test_masq7_truth_judges_the_true_figures),
        cmocka_unit_test(test_masq8_the_defender_decides_a_battle),
        cmocka_unit_test(test_masq9_concede_removes_without_reveal),
        cmocka_unit_test(test_masq9_a_weaker_defender_is_taken),
        cmocka_unit_test(test_masq9_a_stronger_defender_takes_the_attacker),
        cmocka_unit_test(test_masq9_an_equal_defender_repels_the_attack),
        cmocka_unit_test(test_masq9_a_pawn_attacker_promotes_when_it_moves_in),
        cmocka_unit_test(test_masq10_the_attacker_bids_first_and_may_fold),
        cmocka_unit_test(test_masq10_a_folding_defender_lets_the_attacker_in),
        cmocka_unit_test(test_masq10_a_call_with_equal_strength_moves_nothing),
        cmocka_unit_test(test_masq10_call_stronger_one_set_is_settled_at_once),
        cmocka_unit_test(test_masq10_the_loser_chooses_among_minimal_sets),
        cmocka_unit_test(test_masq10_pieces_given_up_unrevealed_stay_hidden),
        cmocka_unit_test(test_masq10_a_losing_attacker_pays_with_several_pieces),
        cmocka_unit_test(test_masq10_a_bid_nobody_can_cover_takes_every_piece_but_the_king),
        cmocka_unit_test(test_masq10_bid_errors),
        cmocka_unit_test(test_masq11_a_called_all_in_at_41_decides_the_game),
        cmocka_unit_test(test_masq11_a_fold_or_an_equal_battle_lets_the_game_go_on),
        cmocka_unit_test(test_masq11_a_house_rule_may_restore_31),
        cmocka_unit_test(test_masq12_a_piece_removed_without_reveal_is_never_named),
        cmocka_unit_test(test_masq13_check_after_reveal_loses),
        cmocka_unit_test(test_masq13_not_while_the_king_is_masked),
        cmocka_unit_test(test_masq13_a_king_revealed_by_the_call_into_an_attack_loses),
        cmocka_unit_test(test_masq14_a_masked_king_is_not_in_check),
        cmocka_unit_test(test_masq14_a_battle_may_not_expose_the_revealed_king),
        cmocka_unit_test(test_masq14_mate_is_judged_on_the_true_figures),
        cmocka_unit_test(test_masq14_no_legal_action_is_stalemate),
        cmocka_unit_test(test_masq15_a_masked_king_castles_out_of_check),
        cmocka_unit_test(test_masq15_a_revealed_king_in_check_cannot_castle),
        cmocka_unit_test(test_masq15_no_castling_through_the_line_of_the_check),
        cmocka_unit_test(test_masq16_full_reveal_without_king_at_once),
        cmocka_unit_test(test_masq16_full_reveal_without_king_later),
        cmocka_unit_test(test_masq16_no_castling_line_after_the_end),
        cmocka_unit_test(test_masq_views_show_each_seat_only_what_it_may_know),
        cmocka_unit_test(test_masq_records_replay_every_kind_of_action),
        cmocka_unit_test(test_masq_perft_fast_path_equals_the_generic_one),
        cmocka_unit_test(test_masq_position_strings_round_trip),
        cmocka_unit_test(test_masq_bad_position_strings_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
