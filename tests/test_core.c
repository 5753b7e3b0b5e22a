/*
 * test_core.c -- the core is general: the toy variant (TOY-1 .. TOY-8,
 * tests/support/toy_variant.c) proves that the turn loop carries a decision
 * by a seat that is not the side to move, hidden facts, three sides, the
 * unbounded plane, seats commanding several sides and a seat joining
 * mid-game; orthodox chess checks meta actions (ORTH-8, ORTH-9), hooks,
 * repetition, undo, clones and perft against the generic path.
 *
 * Invariant: every test builds its own games; nothing is shared.
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
#include "../core/cli/cli.h"
#include "../core/cli/render.h"
#include "../variants/orthodox/orthodox.h"
#include "support/testutil.h"
#include "support/toy_variant.h"

/* A toy position with red next to green and secrets of known parity:
 * red 700000001 is odd, green 800000002 even, blue 711111110 even. */
#define TOY_ADJACENT "red:1,0:700000001:0 green:2,0:800000002:1 " \
                     "blue:0,-1:711111110:2 turn:red"

enum { RED, GREEN, BLUE, NEWCOMER };

/* ---- Helpers ----------------------------------------------------------- */

static Game *orth(const char *fen)
{
    return tu_game(&(TuGame){.variant = &orthodox_variant, .seed = 1,
                             .position = fen});
}

static Game *toy(uint64_t seed, int nseats, const char *pos)
{
    return tu_game(&(TuGame){.variant = &toy_variant, .seed = seed,
                             .nseats = nseats, .position = pos});
}

static Game *hooked(const VariantOps *v, uint64_t seed, const GameHooks *h)
{
    return tu_game(&(TuGame){.variant = v, .seed = seed, .hooks = h});
}

/* The side to move steps to `to` and the judge lets it happen. */
static void toy_step_to(Game *g, const char *to)
{
    tu_play(g, game_to_act(g), to);
    tu_play(g, game_to_act(g), toy_wrong_guess(g));
}

static int count_play(const ActionList *l)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += !action_is_meta(l->v[i].kind);
    return n;
}

static int has_bytes(const void *hay, size_t n, const void *needle, size_t k)
{
    const unsigned char *h = hay;
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(h + i, needle, k))
            return 1;
    return 0;
}

/* Does anything `seat` can see (its View's bytes, the View rendered as text
 * and as JSON, its messages) hold the secret, as an int or in decimal? */
static int seat_can_see(const Game *g, int seat, int32_t secret)
{
    View *v = malloc(sizeof *v);
    game_view(g, seat, v);
    char dec[16];
    snprintf(dec, sizeof dec, "%d", (int)secret);
    int found = has_bytes(v, sizeof *v, &secret, sizeof secret) ||
                has_bytes(v, sizeof *v, dec, strlen(dec));

    RenderNames names;
    cli_names(g, &names);
    const char *msgs[256];
    int nmsgs = 0;
    for (int i = 0; i < game_message_count(g) && nmsgs < 256; i++)
        if (game_message(g, i, seat))
            msgs[nmsgs++] = game_message(g, i, seat);
    RenderOpts o = {.ascii = 1};
    StrBuf text = STRBUF_INIT;
    render_view_text(v, &names, &o, &text);
    render_view_json(v, &names, msgs, nmsgs, &text);
    found |= strstr(sb_str(&text), dec) != NULL;
    for (int i = 0; i < nmsgs; i++)
        found |= strstr(msgs[i], dec) != NULL;
    sb_free(&text);
    free(v);
    return found;
}

/* ---- The toy variant: the core's generality ------------------------------ */

/* TOY-5: after red's step green's seat decides; red is still to move. */
static void test_toy5_decision_by_seat_not_to_move(void **state)
{
    (void)state;
    Game *g = toy(42, 0, NULL);
    assert_int_equal(game_to_act(g), RED);
    tu_play(g, RED, "2,0");
    assert_int_equal(game_side_to_move(g), RED);
    assert_int_equal(game_to_act(g), GREEN);

    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    assert_int_equal(l.n, 2);
    assert_int_equal(tu_count_kind(&l, ACT_CHOOSE), 2);
    assert_int_equal(l.v[0].seat, GREEN);
    al_free(&l);
    for (int seat = RED; seat <= BLUE; seat += 2) {
        game_legal(g, seat, &l);
        assert_int_equal(count_play(&l), 0);
        al_clear(&l);
    }
    al_free(&l);
    tu_assert_refused_by(g, RED, "even", NULL);
    tu_assert_refused_by(g, BLUE, "odd", NULL);

    /* A right guess cancels the step; the turn passes all the same. */
    tu_play(g, GREEN, toy_right_guess(g));
    assert_int_equal(toy_token(g, RED).x, 1);
    assert_int_equal(game_side_to_move(g), GREEN);
    assert_int_equal(game_to_act(g), GREEN);
    /* A wrong one lets it happen. */
    tu_play(g, GREEN, "-1,2");
    tu_play(g, BLUE, toy_wrong_guess(g));
    assert_int_equal(toy_token(g, GREEN).y, 2);
    game_free(g);
}

/* TOY-3: a seat's view, renderings and messages never show another side's
 * secret; its own secret is there, and the full truth has all three. */
static void test_toy3_hidden_secret_not_shown(void **state)
{
    (void)state;
    Game *g = toy(7, 0, NULL);
    static const char *const steps[] = {"2,0", "-1,2", "0,-2", "3,0"};
    for (size_t i = 0; i < ARRAY_LEN(steps); i++)
        toy_step_to(g, steps[i]);
    int32_t secret[3];
    char *truth = tu_position(g);
    for (int side = RED; side <= BLUE; side++) {
        secret[side] = toy_secret(g, side);
        assert_in_range(secret[side], TOY_SECRET_MIN, TOY_SECRET_MAX);
        char dec[16];
        snprintf(dec, sizeof dec, "%d", (int)secret[side]);
        assert_non_null(strstr(truth, dec));
    }
    free(truth);
    /* The private parity messages went out: the secret was spoken. */
    int private_msgs = 0;
    for (int i = 0; i < game_message_count(g); i++)
        private_msgs += game_message(g, i, RED) && !game_message(g, i, GREEN);
    assert_true(private_msgs > 0);
    for (int seat = RED; seat <= BLUE; seat++)
        for (int side = RED; side <= BLUE; side++)
            assert_int_equal(seat_can_see(g, seat, secret[side]), seat == side);
    game_free(g);
}

/* TOY-4: red, green, blue, red ...; each step judged by the next side. */
static void test_toy4_three_sides_turn_order(void **state)
{
    (void)state;
    Game *g = toy(3, 0, NULL);
    assert_int_equal(game_nsides(g), 3);
    static const char *const targets[] = {"2,0", "-2,1", "0,-2", "3,0"};
    for (int i = 0; i < 4; i++) {
        int mover = i % 3;
        assert_int_equal(game_side_to_move(g), mover);
        assert_int_equal(game_to_act(g), mover);
        tu_play(g, mover, targets[i]);
        assert_int_equal(game_side_to_move(g), mover);
        assert_int_equal(game_to_act(g), (mover + 1) % 3);
        tu_play(g, (mover + 1) % 3, toy_wrong_guess(g));
    }
    assert_int_equal(game_side_to_move(g), GREEN);
    assert_int_equal(toy_token(g, RED).x, 3);
    game_free(g);
}

/* TOY-2: the unbounded plane, negative coordinates in text, view and
 * position string. */
static void test_toy2_unbounded_negative_coordinates(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){
        .variant = &toy_variant, .seed = 5, .params = "goal=1000",
        .position = "red:-7,-3:700000000:0 green:-999,250:800000000:1 "
                    "blue:0,-1:711111111:2 turn:blue"});
    tu_play(g, BLUE, "0,-2");
    tu_play(g, RED, "odd"); /* red judges blue: 711111111 is odd, so right */
    assert_int_equal(toy_token(g, BLUE).y, -1);
    tu_play(g, RED, "-8,-3");
    tu_play(g, GREEN, "odd"); /* 700000000 is even: the step happens */
    assert_int_equal(toy_token(g, RED).x, -8);
    View *v = malloc(sizeof *v);
    game_view(g, GREEN, v);
    assert_int_equal(v->geo.bounded, 0);
    int seen = 0;
    for (int i = 0; i < v->npieces; i++)
        seen += v->pieces[i].at.x == -8 && v->pieces[i].at.y == -3 &&
                v->pieces[i].side == RED;
    assert_int_equal(seen, 1);
    free(v);
    char *pos = tu_position(g);
    assert_non_null(strstr(pos, "red:-8,-3:"));
    assert_non_null(strstr(pos, "green:-999,250:"));
    free(pos);
    tu_assert_refused_by(g, GREEN, "-999;251", NULL);
    tu_assert_refused_by(g, GREEN, "-999,252", NULL);
    game_free(g);
}

/* TOY-6: after a capture one seat commands two sides and acts for both. */
static void test_toy6_seat_commands_two_sides(void **state)
{
    (void)state;
    Game *g = toy(1, 0, TOY_ADJACENT);
    tu_play(g, RED, "2,0");
    tu_play(g, GREEN, "even"); /* wrong: red's secret is odd */
    assert_int_equal(toy_commander(g, GREEN), RED);
    assert_int_equal(toy_token(g, GREEN).x, 1);
    assert_int_equal(game_side_to_move(g), GREEN);
    assert_int_equal(game_to_act(g), RED); /* seat red moves green */
    assert_int_equal(tu_legal_count(g, GREEN, -1), 0); /* green's seat is out */
    assert_true(seat_can_see(g, RED, 800000002));
    assert_false(seat_can_see(g, BLUE, 800000002));

    /* Green's step is judged by blue: the next side with another seat. */
    tu_play(g, RED, "1,1");
    assert_int_equal(game_to_act(g), BLUE);
    tu_play(g, BLUE, "odd"); /* wrong: green's secret is even */
    assert_int_equal(game_to_act(g), BLUE);
    tu_play(g, BLUE, "0,-2");
    assert_int_equal(game_to_act(g), RED); /* red judges blue */
    tu_play(g, RED, "odd");
    assert_int_equal(game_side_to_move(g), RED);
    assert_int_equal(game_to_act(g), RED);
    /* A resignation by the seat loses both of its sides. */
    tu_play(g, RED, "resign");
    char r[64];
    assert_string_equal(game_result_text(g, r, sizeof r), "blue");
    game_free(g);
}

/* TOY-7: a fourth seat joins mid-game by taking over a captured side, out
 * of turn, and only when the rules allow it. */
static void test_toy7_takeover_mid_game(void **state)
{
    (void)state;
    Game *g = toy(1, 4, TOY_ADJACENT);
    assert_int_equal(game_nseats(g), 4);
    assert_int_equal(tu_legal_count(g, NEWCOMER, -1), 0);
    tu_assert_refused_by(g, NEWCOMER, "take green", NULL);
    tu_play(g, RED, "2,0");
    tu_play(g, GREEN, "even");
    assert_int_equal(tu_legal_count(g, NEWCOMER, ACT_TAKEOVER), 1);
    assert_int_equal(tu_legal_count(g, NEWCOMER, -1), 1);
    assert_int_equal(game_to_act(g), RED);
    assert_false(seat_can_see(g, NEWCOMER, 800000002));

    tu_play(g, NEWCOMER, "take green");
    assert_int_equal(toy_commander(g, GREEN), NEWCOMER);
    assert_int_equal(game_to_act(g), NEWCOMER);
    assert_true(seat_can_see(g, NEWCOMER, 800000002));
    assert_false(seat_can_see(g, NEWCOMER, 700000001));
    assert_int_equal(tu_legal_count(g, NEWCOMER, ACT_TAKEOVER), 0);
    assert_true(tu_legal_count(g, NEWCOMER, ACT_RESIGN) == 1);
    tu_play(g, NEWCOMER, "1,1");
    assert_int_equal(game_to_act(g), BLUE); /* blue judges green now */
    game_free(g);
}

/* TOY-8 and the core: a win ends the game; perft counts decisions of the
 * judging seat as plies. */
static void test_toy8_goal_and_perft(void **state)
{
    (void)state;
    Game *g = toy(9, 0, "red:3,0:700000001:0 green:-1,1:800000002:1 "
                        "blue:0,-1:711111110:2 turn:red");
    assert_int_equal(game_perft(g, 1), 4);
    assert_int_equal(game_perft(g, 2), 8);
    /* Red's secret is odd: after 4,0 the guess "even" lets red win (no
     * further plies); "odd" cancels it.  3 other steps x 2 guesses x 4. */
    assert_int_equal(game_perft(g, 3), 3 * 2 * 4 + 4);
    tu_play(g, RED, "4,0");
    tu_play(g, GREEN, "even");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u << RED);
    assert_int_equal(game_to_act(g), -1);
    char r[64];
    assert_string_equal(game_result_text(g, r, sizeof r), "red");
    tu_assert_refused_by(g, GREEN, "-2,1", NULL);
    game_free(g);
}

/* ---- Copies and failures ------------------------------------------------- */

static void test_clone_is_independent(void **state)
{
    (void)state;
    Game *g = toy(11, 4, TOY_ADJACENT);
    tu_play(g, RED, "1,1");
    TuSnap s;
    tu_snap_take(g, &s);
    Game *c = game_clone(g);
    tu_play(c, GREEN, "even");
    tu_play(c, GREEN, "2,1");
    assert_int_equal(game_history_len(c), 3);
    tu_snap_check(g, &s);
    game_free(g); /* the clone outlives its original */
    assert_int_equal(toy_token(c, RED).y, 1);
    game_free(c);

    Game *o = orth(NULL);
    tu_play(o, 0, "e4");
    tu_snap_take(o, &s);
    Game *oc = game_clone(o);
    tu_play(oc, 1, "c5");
    tu_play(oc, 0, "draw");
    tu_snap_check(o, &s);
    assert_int_equal(game_draw_offer(o), -1);
    game_free(oc);
    game_free(o);
}

/* A refused action leaves everything as it was: position, history,
 * messages, the random generator, the seat to act, a draw offer. */
static void test_failed_actions_change_nothing(void **state)
{
    (void)state;
    Game *g = orth(NULL);
    tu_play(g, 0, "e4");
    tu_play(g, 1, "draw");
    tu_assert_refused_by(g, 0, "d4", NULL);        /* black is to move */
    tu_assert_refused_by(g, 1, "e4", NULL);        /* no black pawn can go there */
    tu_assert_refused_by(g, 1, "e2e4", NULL);      /* not black's piece */
    tu_assert_refused_by(g, 1, "Nf9", NULL);       /* garbled */
    tu_assert_refused_by(g, 1, "xyzzy", NULL);
    tu_assert_refused_by(g, 1, "", NULL);
    tu_assert_refused_by(g, 1, "accept", NULL);    /* one's own offer */
    tu_assert_refused_by(g, 5, "e5", NULL);        /* no such seat */
    tu_assert_refused_by(g, 1, "claim", NULL);     /* nothing to claim */
    game_free(g);

    Game *t = toy(2, 4, NULL);
    tu_play(t, RED, "2,0");
    tu_assert_refused_by(t, RED, "3,0", NULL);
    tu_assert_refused_by(t, GREEN, "2,0", NULL);
    tu_assert_refused_by(t, GREEN, "maybe", NULL);
    tu_assert_refused_by(t, BLUE, "even", NULL);
    tu_assert_refused_by(t, NEWCOMER, "take red", NULL);
    game_free(t);
}

/* ---- Meta actions (ORTH-8, ORTH-9) --------------------------------------- */

/* From TOY_ADJACENT: every judge guesses right, so every step is cancelled
 * and the round ends where it began. */
static const char *const cancelled_round[] = {"1,1", "odd", "2,1", "even",
                                              "0,-2", "even", NULL};

static void test_orth8_resign_and_draw_agreement(void **state)
{
    (void)state;
    char r[64];
    Status s;
    Game *g = orth(NULL);
    tu_assert_refused_by(g, 1, "accept", NULL); /* no offer yet */
    tu_play(g, 0, "draw");
    assert_int_equal(game_draw_offer(g), 0);
    assert_int_equal(tu_legal_count(g, 1, ACT_DRAW_ACCEPT), 1);
    View v;
    game_view(g, 1, &v); /* the other seat is told of the offer */
    assert_true(v.has_draw_offer);
    assert_int_equal(v.draw_offer_seat, 0);
    tu_play(g, 1, "decline");
    assert_int_equal(game_draw_offer(g), -1);
    game_view(g, 1, &v);
    assert_false(v.has_draw_offer);
    tu_play(g, 0, "draw"); /* a move by the other seat declines it */
    tu_play(g, 0, "e4");
    assert_int_equal(game_draw_offer(g), 0); /* the offerer's own move keeps it */
    tu_play(g, 1, "e5");
    assert_int_equal(game_draw_offer(g), -1);
    game_free(g);
    g = orth(NULL);
    tu_play(g, 0, "e4");
    tu_play(g, 1, "e5");
    tu_play(g, 0, "draw");
    tu_play(g, 1, "accept");
    game_status(g, &s);
    assert_true(s.over);
    assert_string_equal(game_result_text(g, r, sizeof r), "1/2-1/2");
    assert_string_equal(s.reason, "draw by agreement");
    game_free(g);

    g = orth(NULL);
    tu_play(g, 0, "d4");
    tu_play(g, 0, "resign"); /* out of turn is fine for a resignation */
    assert_string_equal(game_result_text(g, r, sizeof r), "0-1");
    tu_assert_refused_by(g, 1, "e5", NULL);
    game_free(g);
}

/* ORTH-9: a claim exists only when the variant says it holds. */
static void test_orth9_claim_only_when_variant_allows(void **state)
{
    (void)state;
    Game *g = orth(NULL);
    static const char *const dance[] = {"Nf3", "Nf6", "Ng1", "Ng8", NULL};
    assert_int_equal(tu_legal_count(g, 0, ACT_DRAW_CLAIM), 0);
    tu_assert_refused_by(g, 0, "claim", NULL);
    tu_play_all(g, dance);
    assert_int_equal(game_repetitions(g), 2);
    tu_assert_refused_by(g, 0, "claim", NULL);
    tu_play_all(g, dance);
    assert_int_equal(game_repetitions(g), 3);
    assert_int_equal(tu_legal_count(g, 0, ACT_DRAW_CLAIM), 1);
    assert_int_equal(tu_legal_count(g, 1, ACT_DRAW_CLAIM), 0); /* not to move */
    tu_play(g, 0, "claim");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 0);
    assert_non_null(strstr(s.reason, "threefold repetition"));
    game_free(g);

    /* The toy's own claim rule (TOY-8): the second occurrence counts. */
    Game *t = toy(4, 0, TOY_ADJACENT);
    assert_int_equal(tu_legal_count(t, RED, ACT_DRAW_CLAIM), 0);
    tu_assert_refused_by(t, RED, "claim", NULL);
    tu_play_all(t, cancelled_round);
    assert_int_equal(game_repetitions(t), 2);
    assert_int_equal(tu_legal_count(t, RED, ACT_DRAW_CLAIM), 1);
    assert_int_equal(tu_legal_count(t, GREEN, ACT_DRAW_CLAIM), 0);
    tu_play(t, RED, "claim");
    game_status(t, &s);
    assert_true(s.over);
    assert_string_equal(s.reason, "repetition claimed by red");
    game_free(t);
}

/* Repetition counting by position keys (the orthodox key includes the side
 * to move, castling and a capturable en passant square). */
static void test_repetitions_counted(void **state)
{
    (void)state;
    Game *g = orth(NULL);
    assert_int_equal(game_repetitions(g), 1);
    static const char *const out_and_back[] = {"Nc3", "Nc6", "Nb1", "Nb8",
                                               NULL};
    tu_play_all(g, out_and_back);
    assert_int_equal(game_repetitions(g), 2);
    tu_play(g, 0, "Nc3");
    assert_int_equal(game_repetitions(g), 2); /* seen once before */
    tu_play(g, 1, "Nc6");
    tu_play(g, 0, "Nb1");
    tu_play(g, 1, "Nb8");
    assert_int_equal(game_repetitions(g), 3);
    game_free(g);

    /* Toy: rounds of cancelled steps repeat the position; the third time
     * draws by itself (TOY-8). */
    Game *t = toy(4, 0, TOY_ADJACENT);
    tu_play(t, RED, "1,1");
    assert_int_equal(game_repetitions(t), 1); /* a step pending differs */
    tu_play(t, GREEN, "odd");
    tu_play_all(t, cancelled_round + 2);
    assert_int_equal(game_repetitions(t), 2);
    tu_play_all(t, cancelled_round);
    Status s;
    game_status(t, &s);
    assert_true(s.over);
    assert_string_equal(s.reason, "threefold repetition");
    char r[64];
    assert_string_equal(game_result_text(t, r, sizeof r), "draw");
    game_free(t);
}

/* ---- Hooks --------------------------------------------------------------- */

/* Veto: no knight moves (from b1, g1, b8, g8 at the start). */
static int veto_knights(void *ud, const Game *g, const void *st, int ply,
                        const Action *a, char *why, size_t n)
{
    (void)ud, (void)g, (void)st, (void)ply;
    int knight_file = a->from.x == 1 || a->from.x == 6;
    int home_rank = a->from.y == 0 || a->from.y == 7;
    if (a->kind != ACT_MOVE || !knight_file || !home_rank)
        return 0;
    snprintf(why, n, "knights stay home");
    return 1;
}

static void test_hook_veto_removes_from_legal_and_perft(void **state)
{
    (void)state;
    GameHooks h = {.veto = veto_knights};
    Game *g = hooked(&orthodox_variant, 1, &h);
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    assert_int_equal(l.n, 16);
    al_free(&l);
    assert_int_equal(game_perft(g, 1), 16);
    assert_int_equal(game_perft(g, 2), 16 * 16);
    Error e = {""};
    assert_int_equal(game_play(g, 0, "Nf3", &e), -1);
    assert_non_null(strstr(e.msg, "knights stay home"));
    game_free(g);

    Game *plain = orth(NULL);
    assert_int_equal(game_perft(plain, 2), 400);
    game_free(plain);
}

/* Veto on the toy: the judge may never guess "odd". */
static int veto_odd(void *ud, const Game *g, const void *st, int ply, const Action *a,
                    char *why, size_t n)
{
    (void)ud, (void)g, (void)st, (void)ply;
    if (a->kind != ACT_CHOOSE || a->amount != 1)
        return 0;
    snprintf(why, n, "odd guesses are banned");
    return 1;
}

static void test_hook_veto_on_a_judges_decision(void **state)
{
    (void)state;
    GameHooks h = {.veto = veto_odd};
    Game *g = hooked(&toy_variant, 1, &h);
    assert_int_equal(game_perft(g, 2), 4);
    assert_int_equal(game_perft(g, 3), 16);
    tu_play(g, RED, "2,0");
    assert_int_equal(tu_legal_count(g, GREEN, ACT_CHOOSE), 1);
    tu_assert_refused_by(g, GREEN, "odd", NULL);
    game_free(g);
}

/* React: reaching e4 with a pawn wins on the spot ("hill"). */
static int react_hill(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud, (void)e;
    if (a->kind == ACT_MOVE && a->to.x == 4 && a->to.y == 3)
        game_end(g, 1u << a->seat, "reached \"the hill\"");
    return 0;
}

static void test_hook_react_ends_game(void **state)
{
    (void)state;
    GameHooks h = {.react = react_hill};
    Game *g = hooked(&orthodox_variant, 1, &h);
    tu_play(g, 0, "d4");
    assert_int_equal(game_to_act(g), 1);
    tu_play(g, 1, "e5");
    tu_play(g, 0, "e4");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1);
    assert_string_equal(s.reason, "reached \"the hill\"");
    assert_int_equal(game_to_act(g), -1);
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, 1, &l);
    assert_int_equal(l.n, 0);
    al_free(&l);
    game_free(g);
}

/* React returning an error: the action is undone whole. */
static int react_refuse_captures(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud;
    StrBuf b = STRBUF_INIT;
    game_position(g, &b);
    int pieces = 0;
    for (const char *p = sb_str(&b); *p && *p != ' '; p++)
        pieces += (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z');
    sb_free(&b);
    if (a->kind == ACT_MOVE && pieces < 32)
        return err_set(e, "captures are off tonight");
    return 0;
}

static void test_hook_react_error_rolls_back(void **state)
{
    (void)state;
    GameHooks h = {.react = react_refuse_captures};
    Game *g = hooked(&orthodox_variant, 1, &h);
    static const char *const opening[] = {"e4", "d5", NULL};
    tu_play_all(g, opening);
    TuSnap s;
    tu_snap_take(g, &s);
    Error e = {""};
    assert_int_equal(game_play(g, 0, "exd5", &e), -1);
    assert_non_null(strstr(e.msg, "captures are off tonight"));
    tu_snap_check(g, &s);
    tu_play(g, 0, "e5"); /* the game goes on from where it was */
    game_free(g);
}

/* Setup: a fixed position, and one drawn from the game's generator. */
static int setup_fixed(void *ud, Game *g, StrBuf *out, Error *e)
{
    (void)ud, (void)g, (void)e;
    sb_puts(out, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    return 0;
}

static int setup_toy_random(void *ud, Game *g, StrBuf *out, Error *e)
{
    (void)ud, (void)e;
    int x = (int)rng_below(game_rng(g), 100) - 50;
    sb_printf(out, "red:%d,%d:700000000:0 green:500,0:700000000:1 "
                   "blue:-500,0:700000000:2 turn:green", x, -x - 60);
    return 0;
}

static int setup_fails(void *ud, Game *g, StrBuf *out, Error *e)
{
    (void)ud, (void)g, (void)out;
    return err_set(e, "no board tonight");
}

static void test_hook_setup_replaces_start(void **state)
{
    (void)state;
    GameHooks h = {.setup = setup_fixed};
    Game *g = hooked(&orthodox_variant, 1, &h);
    tu_assert_position(g, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_string_equal(game_config(g)->position,
                        "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    tu_play(g, 0, "O-O");
    game_free(g);

    GameHooks th = {.setup = setup_toy_random};
    Game *a = hooked(&toy_variant, 77, &th);
    Game *b = hooked(&toy_variant, 77, &th);
    assert_int_equal(game_side_to_move(a), GREEN);
    assert_int_equal(toy_token(a, RED).x, toy_token(b, RED).x);
    assert_true(toy_token(a, RED).y <= -10); /* from the hook, not TOY-2 */
    game_free(a);
    game_free(b);

    GameHooks fh = {.setup = setup_fails};
    tu_game_refused(&(TuGame){.variant = &orthodox_variant, .hooks = &fh},
                    "no board tonight");
}

/* ---- Undo and perft ------------------------------------------------------- */

static void test_undo_restores_earlier_position(void **state)
{
    (void)state;
    Game *g = orth(NULL);
    tu_play(g, 0, "e4");
    char *after_e4 = tu_position(g);
    tu_play(g, 1, "e5");
    tu_play(g, 0, "Nf3");
    Error e = {""};
    assert_int_equal(game_undo(g, 2, &e), 0);
    tu_assert_position(g, after_e4);
    assert_int_equal(game_history_len(g), 1);
    assert_int_equal(game_undo(g, 5, &e), -1);
    assert_non_null(strstr(e.msg, "only 1"));
    assert_int_equal(game_history_len(g), 1);
    free(after_e4);
    game_free(g);

    /* Toy: undo replays from the seed, so the secrets stay the same. */
    Game *t = toy(21, 0, NULL);
    int32_t red = toy_secret(t, RED);
    char *start = tu_position(t);
    toy_step_to(t, "2,0");
    assert_int_equal(game_undo(t, 2, &e), 0);
    tu_assert_position(t, start);
    assert_int_equal(toy_secret(t, RED), red);
    free(start);
    game_free(t);
}

/* Undo after a setup hook resumes the generator where the setup left it,
 * so the game's later random draws are the same as without the undo. */
static void test_undo_after_setup_keeps_rng(void **state)
{
    (void)state;
    GameHooks th = {.setup = setup_toy_random};
    Game *a = hooked(&toy_variant, 91, &th);
    Game *b = game_clone(a);
    Error e = {""};
    assert_int_equal(game_undo(b, 0, &e), 0);
    uint64_t ra = rng_next(game_rng(a)), rb = rng_next(game_rng(b));
    assert_true(ra == rb);
    game_free(a);
    game_free(b);
}

/* A variant without seat_of_side needs one seat per side. */
static void test_config_needs_a_seat_per_side(void **state)
{
    (void)state;
    tu_game_refused(&(TuGame){.variant = &orthodox_variant, .nseats = 1},
                    "seat for each");
}

/* The variant's fast perft and the core's generic legal/apply path agree
 * (published counts: chessprogramming wiki, "Perft Results"). */
static void test_perft_generic_equals_fast(void **state)
{
    (void)state;
    static const struct {
        const char *fen;
        uint64_t n[3];
    } cases[] = {
        {NULL, {20, 400, 8902}},
        {TU_FEN_KIWIPETE, {48, 2039, 97862}},
        {TU_FEN_POS3, {14, 191, 2812}},
        {TU_FEN_POS4, {6, 264, 9467}},
        {TU_FEN_POS5, {44, 1486, 62379}},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        Game *g = orth(cases[i].fen);
        for (int d = 1; d <= 3; d++) {
            assert_int_equal(game_perft(g, d), cases[i].n[d - 1]);
            assert_int_equal(game_perft_generic(g, d), cases[i].n[d - 1]);
        }
        game_free(g);
    }
}

/* Many games of different variants live side by side (no globals). */
static void test_games_side_by_side(void **state)
{
    (void)state;
    Game *a = toy(8, 0, NULL), *b = toy(8, 0, NULL), *o = orth(NULL);
    toy_step_to(a, "2,0");
    tu_play(o, 0, "e4");
    assert_int_equal(toy_token(b, RED).x, 1);
    assert_int_equal(toy_secret(a, GREEN), toy_secret(b, GREEN));
    toy_step_to(b, "2,0");
    tu_assert_position(o, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    char *pa = tu_position(a), *pb = tu_position(b);
    assert_string_equal(pa, pb);
    free(pa);
    free(pb);
    game_free(a);
    game_free(b);
    game_free(o);
}

/* Issue 8, item 7 (ORTH-8): a seat that commands no side is told so when
 * it resigns or answers a draw, not "nobody offered a draw"; a seat may be
 * named by its number; an over-long action text is refused, never cut. */
static void test_seat_without_side_and_long_texts(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.nseats = 3});
    Error e = {""};
    assert_int_equal(game_seat_by_name(g, "seat3"), 2);
    assert_int_equal(game_seat_by_name(g, "2"), 2);
    assert_int_equal(game_seat_by_name(g, "1"), 1);
    assert_int_equal(game_seat_by_name(g, "3"), -1);
    assert_int_equal(game_seat_by_name(g, "01"), -1);
    assert_int_equal(game_seat_by_name(g, "1x"), -1);
    static const char *const META[] = {"draw", "accept", "decline", "resign"};
    for (size_t i = 0; i < ARRAY_LEN(META); i++) {
        assert_int_not_equal(game_play(g, 2, META[i], &e), 0);
        assert_string_equal(e.msg, "seat3 commands no side: it may not resign, offer, "
                                   "accept, decline or claim a draw");
    }
    char text[ACTION_TEXT_MAX + 8];
    memset(text, ' ', sizeof text);
    memcpy(text, "e4", 2);
    memcpy(text + sizeof text - 4, "zzz", 4); /* "e4", spaces, then zzz */
    assert_int_not_equal(game_play(g, 0, text, &e), 0);
    assert_non_null(strstr(e.msg, "the action text is too long"));
    assert_int_equal(game_history_len(g), 0);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy5_decision_by_seat_not_to_move),
        cmocka_unit_test(test_toy3_hidden_secret_not_shown),
        cmocka_unit_test(test_toy4_three_sides_turn_order),
        cmocka_unit_test(test_toy2_unbounded_negative_coordinates),
        cmocka_unit_test(test_toy6_seat_commands_two_sides),
        cmocka_unit_test(test_toy7_takeover_mid_game),
        cmocka_unit_test(test_toy8_goal_and_perft),
        cmocka_unit_test(test_clone_is_independent),
        cmocka_unit_test(test_failed_actions_change_nothing),
        cmocka_unit_test(test_orth8_resign_and_draw_agreement),
        cmocka_unit_test(test_orth9_claim_only_when_variant_allows),
        cmocka_unit_test(test_repetitions_counted),
        cmocka_unit_test(test_hook_veto_removes_from_legal_and_perft),
        cmocka_unit_test(test_hook_veto_on_a_judges_decision),
        cmocka_unit_test(test_hook_react_ends_game),
        cmocka_unit_test(test_hook_react_error_rolls_back),
        cmocka_unit_test(test_hook_setup_replaces_start),
        cmocka_unit_test(test_undo_after_setup_keeps_rng),
        cmocka_unit_test(test_config_needs_a_seat_per_side),
        cmocka_unit_test(test_undo_restores_earlier_position),
        cmocka_unit_test(test_perft_generic_equals_fast),
        cmocka_unit_test(test_games_side_by_side),
        cmocka_unit_test(test_seat_without_side_and_long_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
