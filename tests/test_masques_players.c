/*
 * test_masques_players.c -- what a Masqués player types and reads around
 * the rules (docs/MASQUES.md): taking back (game_undo_by and the variant's
 * undo barriers, "Taking back"), the `help` table, the hints given for SAN
 * where squares are wanted, the setup messages, and the views once the
 * game is over (MASQ-12, 16).
 *
 * Invariant: games are driven through the public game API as the terminal
 * and batch mode drive them (game_play, game_undo_by), and every refusal
 * is checked to leave the game exactly as it was; every text shown to a
 * seat is checked not to depend on an enemy's masked figure (twin games).
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
#include "support/testutil.h"

enum { W = 0, B = 1 };

#define START \
    "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"
/* A white masked Knight on c6 facing black masked pieces; a revealed Rook. */
#define P4 "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1"
/* The same with black's b7 and d7 figures swapped (a twin for leak tests). */
#define P4_TWIN "4k~3/1p~p~n~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1"

static Game *mq(const char *pos, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .position = pos, .params = params,
                             .seed = 3});
}

#define PLAY(g, ...) tu_play_all((g), (const char *const[]){__VA_ARGS__, NULL})

/* seat asks to take back n actions: refused with a message holding want,
 * and the game is exactly as it was. */
static void assert_undo_refused(Game *g, int seat, int n, const char *want)
{
    TuSnap snap;
    Error e = {""};
    tu_snap_take(g, &snap);
    if (game_undo_by(g, seat, n, &e) == 0)
        fail_msg("%s could take back %d action(s)", game_seat_name(g, seat), n);
    if (!strstr(e.msg, want))
        fail_msg("undo refused with \"%s\", expected \"%s\" in it", e.msg, want);
    tu_snap_check(g, &snap);
}

static void assert_undo_ok(Game *g, int seat, int n)
{
    Error e = {""};
    if (game_undo_by(g, seat, n, &e))
        fail_msg("%s may take back %d action(s): %s", game_seat_name(g, seat), n, e.msg);
}

/* Messages [from, count) seat may see, joined by " | ". */
static char *messages_since(const Game *g, int from, int seat)
{
    StrBuf b = STRBUF_INIT;
    for (int i = from; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m)
            sb_printf(&b, "%s%s", b.len ? " | " : "", m);
    }
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

static void assert_messages_since(const Game *g, int from, int seat, const char *want)
{
    char *got = messages_since(g, from, seat);
    if (strcmp(got, want))
        fail_msg("%s read \"%s\"\nexpected \"%s\"", game_seat_name(g, seat), got, want);
    free(got);
}

/* The refusal of text typed by seat (the game unchanged). */
static char *refusal(Game *g, int seat, const char *text)
{
    TuSnap snap;
    Error e = {""};
    tu_snap_take(g, &snap);
    if (game_play(g, seat, text, &e) == 0)
        fail_msg("%s was accepted", text);
    tu_snap_check(g, &snap);
    return strdup(e.msg);
}

static View *view_of(const Game *g, int seat)
{
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    game_view(g, seat, v);
    return v;
}

/* ---- Taking back (docs/MASQUES.md "Taking back") ---------------------------- */

/* MASQ-12 (and MASQ-10): Black calls, so both battling figures become
 * known; it may not take the call back and bid again. */
static void test_masq12_undo_refused_after_a_call(void **state)
{
    (void)state;
    Game *g = mq(P4, "allin=4");
    PLAY(g, "c6d7", "bid 2", "call"); /* d7 a Pawn, c6 a Knight: black gives up */
    assert_int_equal(game_to_act(g), B);
    assert_undo_refused(g, B, 1, "call cannot be taken back");
    /* white's own actions lie behind black's call */
    assert_undo_refused(g, W, 1, "may take back only its own actions");
    game_free(g);
}

/* MASQ-1: placements teach nothing: White takes back its own. */
static void test_masq1_white_undoes_its_own_placements(void **state)
{
    (void)state;
    Game *g = mq(NULL, NULL);
    PLAY(g, "place K e1", "place Q d1");
    assert_undo_ok(g, W, 1);
    assert_int_equal(game_history_len(g), 1);
    assert_string_equal(game_history(g, 0)->text, "place K e1");
    tu_play(g, W, "place Q d1");
    /* a whole arrangement is sixteen placements: all of them go back */
    assert_undo_ok(g, W, 2);
    tu_play(g, W, "arrange RNBQKBNR/PPPPPPPP");
    assert_int_equal(game_history_len(g), 16);
    assert_undo_ok(g, W, 16);
    assert_int_equal(game_history_len(g), 0);
    /* once Black has placed a piece, White's earlier ones are behind it */
    PLAY(g, "place K e1");
    tu_play(g, B, "place K e8");
    assert_undo_refused(g, W, 1, "black acted after them");
    assert_undo_ok(g, B, 1);
    assert_undo_ok(g, W, 1);
    game_free(g);
}

/* MASQ-12: a seat may not take back the other seat's move. */
static void test_masq12_black_cannot_undo_whites_move(void **state)
{
    (void)state;
    Game *g = mq(START, NULL);
    tu_play(g, W, "e2e4");
    assert_undo_refused(g, B, 1, "may take back only its own actions");
    assert_undo_ok(g, W, 1); /* a plain move: the mover learned nothing */
    tu_assert_position(g, START);
    game_free(g);
}

/* MASQ-16: once the game is over nothing is taken back. */
static void test_masq16_undo_refused_after_the_end(void **state)
{
    (void)state;
    Game *g = mq("7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", NULL);
    PLAY(g, "a1a8", "announce mate h8");
    tu_assert_over(g, "1-0", "mask mate on the King");
    assert_undo_refused(g, W, 1, "the game is over");
    assert_undo_refused(g, B, 1, "the game is over");
    game_free(g);
    g = mq(START, NULL);
    tu_play(g, W, "resign"); /* ended by the core */
    assert_undo_refused(g, W, 1, "the game is over");
    game_free(g);
}

/* MASQ-6, 8, 15: a move that begins an exchange or reveals is a barrier;
 * a plain move that opens an announcement may go back until the
 * announcement is made (the announcer decides on public facts). */
static void test_masq6_barriers_among_moves(void **state)
{
    (void)state;
    Game *g = mq(P4, "allin=4");
    tu_play(g, W, "c6d7"); /* a masked battle: black is told of it */
    assert_undo_refused(g, W, 1, "c6d7 cannot be taken back");
    game_free(g);

    g = mq("4k~3/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1", NULL);
    tu_play(g, W, "e1g1"); /* castling reveals King and Rook */
    assert_undo_refused(g, W, 1, "cannot be taken back");
    game_free(g);

    g = mq("7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", NULL);
    tu_play(g, W, "a1a7"); /* newly threatens g7: white is asked */
    assert_int_equal(game_to_act(g), W);
    assert_undo_ok(g, W, 1);
    PLAY(g, "a1a7", "pass");
    assert_undo_refused(g, W, 2, "pass cannot be taken back");
    game_free(g);

    /* mask_mate=truth: after a move the announcer's choices are judged on
     * the enemy's true figures, so the move stays played */
    g = mq("7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", "mask_mate=truth");
    tu_play(g, W, "a1a7");
    assert_undo_refused(g, W, 1, "a1a7 cannot be taken back");
    game_free(g);
}

/* MASQ-5, 9: reveals and battle answers stay played. */
static void test_masq5_reveals_and_answers_are_barriers(void **state)
{
    (void)state;
    Game *g = mq(START, NULL);
    tu_play(g, W, "reveal g1f3");
    assert_undo_refused(g, W, 1, "cannot be taken back");
    game_free(g);
    g = mq(P4, NULL);
    PLAY(g, "d1d7", "concede");
    assert_undo_refused(g, B, 1, "concede cannot be taken back");
    game_free(g);
}

/* ---- help ----------------------------------------------------------------- */

/* Every command a player types is in the table, with a doc and an
 * example, and each line fits 80 columns as `  usage  doc (e.g. example)`. */
static void test_masq_help_lists_every_command(void **state)
{
    (void)state;
    const VariantOps *v = tu_variant("masques");
    assert_true(v->version >= 2);
    assert_true(v->hidden_info);
    assert_non_null(v->help);
    size_t width = 0;
    StrBuf all = STRBUF_INIT;
    for (const VariantHelp *h = v->help; h->usage; h++)
        if (strlen(h->usage) > width)
            width = strlen(h->usage);
    for (const VariantHelp *h = v->help; h->usage; h++) {
        assert_non_null(h->doc);
        assert_non_null(h->example);
        size_t len = 2 + width + 2 + strlen(h->doc) + strlen(" (e.g. )") + strlen(h->example);
        if (len > 80)
            fail_msg("help line for \"%s\" is %zu columns", h->usage, len);
        sb_printf(&all, "%s | %s\n", h->usage, h->example);
    }
    static const char *const WORDS[] = {"place", "arrange", "standard", "random", "e2e4",
                                        "reveal g1f3", "reveal e8=Q", "reveal e2", "O-O",
                                        "announce check", "announce mate", "pass", "keep",
                                        "concede", "bid", "call", "fold", "give", "reveal =Q"};
    for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
        if (!strstr(sb_str(&all), WORDS[i]))
            fail_msg("help does not show \"%s\"", WORDS[i]);
    sb_free(&all);
}

/* The examples are what the game takes, where it takes them. */
static void test_masq_help_examples_are_accepted(void **state)
{
    (void)state;
    Action a;
    Error e = {""};
    Game *g = mq(NULL, NULL);
    assert_int_equal(game_parse(g, W, "place K e1", &a, &e), 0);
    assert_int_equal(game_parse(g, W, "random", &a, &e), 0);
    tu_play(g, W, "arrange RNBQKBNR/PPPPPPPP");
    game_free(g);
    g = mq(START, NULL);
    assert_int_equal(game_parse(g, W, "e2e4", &a, &e), 0);
    assert_int_equal(game_parse(g, W, "reveal g1f3", &a, &e), 0);
    game_free(g);
    g = mq("4k~3/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1", NULL);
    assert_int_equal(game_parse(g, W, "O-O", &a, &e), 0);
    game_free(g);
    g = mq("4P~2k~/8/8/8/8/8/8/4K3 w - - 0 1", NULL);
    assert_int_equal(game_parse(g, W, "reveal e8=Q", &a, &e), 0);
    game_free(g);
    g = mq(START, "reveal_alone=on");
    assert_int_equal(game_parse(g, W, "reveal e2", &a, &e), 0);
    game_free(g);
    g = mq(P4, "allin=4");
    tu_play(g, W, "c6d7");
    assert_int_equal(game_parse(g, W, "bid 3", &a, &e), 0);
    assert_int_equal(game_parse(g, W, "fold", &a, &e), 0);
    game_free(g);
}

/* ---- SAN where squares are wanted ------------------------------------------- */

/* MASQ-2, 5: "e4" and "Nf3" get what to type instead. */
static void test_masq2_san_gets_a_hint(void **state)
{
    (void)state;
    Game *g = mq(START, NULL);
    char *m = refusal(g, W, "e4");
    assert_string_equal(m, "e4: masked pieces move by their squares: e2e4; to reveal a piece "
                           "and move it: reveal g1f3; here: e2e4 or reveal e2e4");
    free(m);
    m = refusal(g, W, "Nf3");
    assert_non_null(strstr(m, "here: reveal g1f3"));
    assert_null(strstr(m, "e2e3"));
    free(m);
    m = refusal(g, W, "Nc6");
    assert_non_null(strstr(m, "no Knight of yours can go to c6 now"));
    free(m);
    m = refusal(g, W, "Ng1f3");
    assert_non_null(strstr(m, "here: reveal g1f3"));
    free(m);
    game_free(g);
}

/* MASQ-12: a hint about a square holding an enemy masked piece is the
 * same whatever that piece is (twins with the figures of b7 and d7
 * swapped), and it never names an enemy figure. */
static void test_masq12_san_hints_do_not_depend_on_enemy_figures(void **state)
{
    (void)state;
    static const char *const TEXTS[] = {"Nxd7", "cxd7", "Rxd7", "Rd7", "Nxb7", "Kd2",
                                        "d7", "Qd7", "bxc7", "exd7", "Rxd7+", "e8=Q"};
    Game *a = mq(P4, NULL), *b = mq(P4_TWIN, NULL);
    for (size_t i = 0; i < sizeof TEXTS / sizeof *TEXTS; i++) {
        char *ma = refusal(a, W, TEXTS[i]), *mb = refusal(b, W, TEXTS[i]);
        if (strcmp(ma, mb))
            fail_msg("%s: \"%s\" in one twin, \"%s\" in the other", TEXTS[i], ma, mb);
        assert_null(strstr(ma, "Pawn on d7"));
        assert_null(strstr(ma, "Knight on b7"));
        free(ma);
        free(mb);
    }
    char *m = refusal(a, W, "Nxd7"); /* the own masked Knight on c6 attacks like a pawn */
    assert_non_null(strstr(m, "here: c6d7"));
    free(m);
    game_free(a);
    game_free(b);
}

/* ---- Setup messages (MASQ-1) ------------------------------------------------- */

static void test_masq1_the_enemy_reads_one_line_per_setup(void **state)
{
    (void)state;
    Game *g = mq(NULL, NULL);
    int from = game_message_count(g);
    tu_play(g, W, "place K e1");
    assert_messages_since(g, from, W, "you place your King on e1");
    assert_messages_since(g, from, B, "");
    from = game_message_count(g);
    tu_play(g, B, "arrange RNBQKBNR/PPPPPPPP");
    assert_messages_since(g, from, B, "you arrange your pieces: RNBQKBNR/PPPPPPPP");
    assert_messages_since(g, from, W, "black has set up its pieces");
    from = game_message_count(g);
    tu_play(g, W, "random");
    char *own = messages_since(g, from, W);
    assert_non_null(strstr(own, "you arrange your pieces (the rest at random): "));
    assert_non_null(strstr(own, "both armies are set up: white to move"));
    free(own);
    assert_messages_since(g, from, B,
                          "white has set up its pieces | both armies are set up: white to move");
    game_free(g);
    g = mq(NULL, NULL);
    from = game_message_count(g);
    tu_play(g, W, "standard");
    assert_messages_since(g, from, W,
                          "you arrange your pieces in the standard order: RNBQKBNR/PPPPPPPP");
    assert_messages_since(g, from, B, "white has set up its pieces");
    game_free(g);
}

/* ---- After the game (MASQ-12, 16) ------------------------------------------- */

/* A game ended by resignation with a capture right pending and a piece
 * removed without reveal (P4: d1d7, concede, announce check c7, keep). */
static Game *ended_with_right(const char *params)
{
    Game *g = mq(P4, params);
    PLAY(g, "d1d7", "concede", "announce check c7", "keep", "g7g6");
    assert_int_equal(game_to_act(g), W);
    tu_play(g, W, "resign");
    tu_assert_over(g, "0-1", "white resigned");
    return g;
}

/* No line of the game under way is left once it is over. */
static void assert_no_stale_lines(const View *v)
{
    static const char *const STALE[] = {"capture right", "battle", "bid", "announced",
                                        "castling", "check:", "setup:", "in hand"};
    assert_string_equal(v->question, "");
    for (size_t i = 0; i < sizeof STALE / sizeof *STALE; i++)
        if (strstr(v->info, STALE[i]))
            fail_msg("after the game the view still says \"%s\":\n%s", STALE[i], v->info);
}

/* MASQ-16 default: masked pieces stay masked, pieces removed without
 * reveal stay unknown (MASQ-12), and the stale lines are gone. */
static void test_masq16_the_end_keeps_masks_and_drops_stale_lines(void **state)
{
    (void)state;
    Game *g = ended_with_right(NULL);
    View *v = view_of(g, W);
    assert_no_stale_lines(v);
    assert_non_null(strstr(v->info, "masked pieces stay masked after the game"));
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].side == B && (v->pieces[i].flags & VP_MASKED))
            assert_int_equal(v->pieces[i].figure, FIG_HIDDEN);
    assert_int_equal(v->ncaptured, 1);
    assert_int_equal(v->captured[0].figure, FIG_HIDDEN);
    assert_string_equal(v->position, "");
    free(v);
    v = view_of(g, B);
    assert_no_stale_lines(v);
    free(v);
    game_free(g);
}

/* MASQ-16 with show_at_end=on: both armies in full, the masks still
 * marked, the captured list with its true figures. */
static void test_masq16_show_at_end_shows_both_armies(void **state)
{
    (void)state;
    Game *g = ended_with_right("show_at_end=on");
    for (int seat = 0; seat < 2; seat++) {
        View *v = view_of(g, seat);
        assert_no_stale_lines(v);
        int masked = 0;
        for (int i = 0; i < v->npieces; i++) {
            assert_int_not_equal(v->pieces[i].figure, FIG_HIDDEN);
            masked += (v->pieces[i].flags & VP_MASKED) != 0;
        }
        assert_int_equal(masked, 6); /* e8 b7 c7 f7 g6 and white's c6 */
        assert_int_equal(v->ncaptured, 1);
        assert_int_equal(v->captured[0].figure, FIG_PAWN);
        assert_true(v->captured[0].flags & VP_MASKED);
        assert_non_null(strstr(v->position, "n~p~"));
        free(v);
    }
    game_free(g);
    /* the show waits for the end */
    g = mq(P4, "show_at_end=on");
    View *v = view_of(g, W);
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].side == B)
            assert_int_equal(v->pieces[i].figure, FIG_HIDDEN);
    free(v);
    game_free(g);
}

/* An end decided by the variant (PH_OVER) drops the lines too; a draw by
 * agreement (ended by the core) in the middle of a battle as well. */
static void test_masq16_every_kind_of_end_drops_stale_lines(void **state)
{
    (void)state;
    Game *g = mq("7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", NULL);
    PLAY(g, "a1a8", "announce mate h8");
    View *v = view_of(g, B);
    assert_no_stale_lines(v);
    free(v);
    game_free(g);
    g = mq(P4, "allin=4");
    PLAY(g, "c6d7", "bid 1");
    tu_play(g, B, "draw");
    tu_play(g, W, "accept");
    tu_assert_over(g, "1/2-1/2", "draw by agreement");
    for (int seat = 0; seat < 2; seat++) {
        v = view_of(g, seat);
        assert_no_stale_lines(v);
        free(v);
    }
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq12_undo_refused_after_a_call),
        cmocka_unit_test(test_masq1_white_undoes_its_own_placements),
        cmocka_unit_test(test_masq12_black_cannot_undo_whites_move),
        cmocka_unit_test(test_masq16_undo_refused_after_the_end),
        cmocka_unit_test(test_masq6_barriers_among_moves),
        cmocka_unit_test(test_masq5_reveals_and_answers_are_barriers),
        cmocka_unit_test(test_masq_help_lists_every_command),
        cmocka_unit_test(test_masq_help_examples_are_accepted),
        cmocka_unit_test(test_masq2_san_gets_a_hint),
        cmocka_unit_test(test_masq12_san_hints_do_not_depend_on_enemy_figures),
        cmocka_unit_test(test_masq1_the_enemy_reads_one_line_per_setup),
        cmocka_unit_test(test_masq16_the_end_keeps_masks_and_drops_stale_lines),
        cmocka_unit_test(test_masq16_show_at_end_shows_both_armies),
        cmocka_unit_test(test_masq16_every_kind_of_end_drops_stale_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
