/*
 * test_edit_turn.c -- giving the turn back (core/variant.h EDIT_TURN, issue
 * 25 TURN-2: a schedule's extra move) in Tile Chess, Les Échecs Masqués,
 * L'Échiqueté and Échecs ambigus.
 *
 * A react hook written here in C calls game_edit with EDIT_TURN after the
 * action the test chooses, as a schedule does: the side acts again (its
 * seat is the one to act, the seats read "house rule: white moves again"),
 * or the variant refuses with a message naming the rule, and the game is
 * then exactly as before the edit (game_same with a copy taken inside the
 * hook) and goes on as the variant says (the turn ends there).  Masqués'
 * answers depend on public facts only: twin games that differ only in
 * hidden figures read the same words.  A schedule "each side moves twice"
 * kept in the game's GameTurn is counted by perft and checked against a
 * count made from position strings whose side to move is rewritten (the
 * variants' readers, not the edit code).
 *
 * Invariant: every test builds its own games and frees them; the hooks'
 * state lives in the test's stack or in the game's GameTurn.
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

/* ---- The hook ---------------------------------------------------------- */

/* Give the turn to `side` after the next `armed` actions of seat `seat`
 * (-1: any seat) of kind `kind` (0: any play action). */
typedef struct Again {
    int armed, seat, kind;
    int side;
    Coord at;
    int figure;
    int given, refused;
    int unchanged; /* after a refusal: the game is as before the edit */
    char msg[256];
} Again;

static Again again_for(int side)
{
    return (Again){.armed = 1, .seat = -1, .side = side, .at = {-1, -1},
                   .figure = FIG_NONE};
}

static int react_again(void *ud, Game *g, const Action *a, Error *e)
{
    Again *k = ud;
    (void)e;
    if (k->armed <= 0 || (k->seat >= 0 && a->seat != k->seat) ||
        (k->kind && a->kind != k->kind))
        return 0;
    k->armed--;
    Game *before = game_clone(g);
    assert_non_null(before);
    Edit ed = {.kind = EDIT_TURN, .at = k->at, .side = k->side, .figure = k->figure};
    Error why;
    if (game_edit(g, &ed, &why) == 0) {
        k->given++;
    } else {
        k->refused++;
        str_copy(k->msg, sizeof k->msg, why.msg);
        k->unchanged = game_same(g, before);
    }
    game_free(before);
    return 0;
}

static Game *game_again(const char *variant, int nsides, int nseats, const char *pos,
                        const char *params, Again *k)
{
    GameHooks h = {.ud = k, .react = react_again};
    return tu_game(&(TuGame){.variant = tu_variant(variant), .nsides = nsides,
                             .nseats = nseats, .position = pos, .params = params,
                             .hooks = &h});
}

/* The edit was made: every seat of g reads `said` as the last message, and
 * side's seat is to act. */
static void assert_given(const Game *g, const Again *k, const char *said, int side, int seat)
{
    if (k->refused)
        fail_msg("the turn was refused: %s", k->msg);
    assert_int_equal(k->given, 1);
    for (int s = 0; s < game_nseats(g); s++) {
        const char *m = game_message(g, game_message_count(g) - 1, s);
        if (!m || strcmp(m, said))
            fail_msg("seat %d reads \"%s\", expected \"%s\"", s, m ? m : "(none)", said);
    }
    assert_int_equal(game_side_to_move(g), side);
    assert_int_equal(game_to_act(g), seat);
}

/* The edit was refused with want, the game left as before it. */
static void assert_refused(const Again *k, const char *want)
{
    assert_int_equal(k->given, 0);
    assert_int_equal(k->refused, 1);
    if (!strstr(k->msg, want))
        fail_msg("expected \"%s\" in: %s", want, k->msg);
    assert_true(k->unchanged);
}

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* ---- A schedule: each side moves twice a turn -------------------------- */
/* The turn lives in the game (GameTurn), so perft's copies keep their own.
 * A move has ended when the side to move is no longer the turn's (TURN-1);
 * a refused edit ends the turn (TURN-2). */

static int start_double(void *ud, Game *g, Error *e)
{
    (void)ud;
    GameTurn t = {.side = game_side_to_move(g), .number = 1, .made = 0, .moves = 2};
    return game_turn_set(g, &t, e);
}

static int react_double(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud, (void)a;
    Status st;
    game_status(g, &st);
    if (st.over || game_side_to_move(g) < 0)
        return 0;
    GameTurn t = *game_turn(g);
    if (game_side_to_move(g) == t.side)
        return 0; /* the move goes on (a placement phase ends, a choice ...) */
    t.made++;
    if (t.made < t.moves) {
        Edit ed = {.kind = EDIT_TURN, .at = {-1, -1}, .side = t.side, .figure = FIG_NONE};
        Error why;
        if (game_edit(g, &ed, &why) == 0)
            return game_turn_set(g, &t, e) ? -2 : 0;
    }
    GameTurn next = {.side = game_side_to_move(g), .number = t.number + 1, .moves = 2};
    return game_turn_set(g, &next, e) ? -2 : 0;
}

static Game *game_double(const char *variant, int nsides, const char *pos)
{
    GameHooks h = {.start = start_double, .react = react_double};
    return tu_game(&(TuGame){.variant = tu_variant(variant), .nsides = nsides,
                             .position = pos, .hooks = &h});
}

/* The count the schedule must give, from plain games: after the first
 * move of a turn, the position string is rewritten with the mover to move
 * again (rewrite: 0, or -1 when it cannot be, the turn then ends), and the
 * variant's own reader decides the rest. */
typedef int (*Rewrite)(const char *pos, int mover, char *out, size_t n);

static uint64_t count_double(const char *variant, int nsides, const char *pos, int depth,
                             int made, Rewrite rw)
{
    if (depth == 0)
        return 1;
    Game *g = tu_game(&(TuGame){.variant = tu_variant(variant), .nsides = nsides,
                                .position = pos});
    Status st;
    game_status(g, &st);
    uint64_t total = 0;
    ActionList l = ACTIONLIST_INIT;
    assert_int_equal(game_legal_play(g, &l), 0);
    const int mover = game_side_to_move(g);
    for (int i = 0; !st.over && i < l.n; i++) {
        Game *c = game_clone(g);
        Error e;
        if (game_apply(c, &l.v[i], &e))
            fail_msg("apply: %s", e.msg);
        char *next = tu_position(c);
        char again[1024];
        if (game_side_to_move(c) == mover) { /* the move goes on */
            total += count_double(variant, nsides, next, depth - 1, made, rw);
        } else if (made == 0 && rw(next, mover, again, sizeof again) == 0) {
            total += count_double(variant, nsides, again, depth - 1, 1, rw);
        } else {
            total += count_double(variant, nsides, next, depth - 1, 0, rw);
        }
        free(next);
        game_free(c);
    }
    al_free(&l);
    game_free(g);
    return total;
}

/* TURN-2 by perft: the double-move schedule on each position of pos[]
 * counts what count_double counts from plain games at depths 1 to max,
 * and differs from the plain game's perft at depth `differs` (so the
 * extra moves really happen).  The plain game has nseats seats (0: the
 * variant's default). */
static void check_double_perft(const char *variant, int nsides, int nseats,
                               const char *const *pos, size_t n, int differs, int max,
                               Rewrite rw)
{
    for (size_t i = 0; i < n; i++) {
        Game *g = game_double(variant, nsides, pos[i]);
        Game *alt = tu_game(&(TuGame){.variant = tu_variant(variant), .nsides = nsides,
                                      .nseats = nseats, .position = pos[i]});
        assert_true(game_perft(g, differs) != game_perft(alt, differs)); /* the schedule counts */
        game_free(alt);
        for (int d = 1; d <= max; d++) {
            uint64_t want = count_double(variant, nsides, pos[i], d, 0, rw);
            if (game_perft(g, d) != want)
                fail_msg("%s depth %d: %llu, expected %llu", pos[i], d,
                         (unsigned long long)game_perft(g, d), (unsigned long long)want);
        }
        game_free(g);
    }
}

/* ---- Tile Chess (TILE-1 .. TILE-12) ------------------------------------ */

/* White's Queen checks Black's King from 2,1, then takes it with its extra
 * move (TILE-10: no checkmate, a King is captured like any piece). */
#define TILE_CHECK "wQ0,2 wN1,1 bK3,1 wK0,0 bR2,0 turn:w"

static void test_tile_turn2_moves_again_and_takes_the_king(void **state)
{
    (void)state;
    Again k = again_for(0);
    Game *g = game_again("tile", 2, 0, TILE_CHECK, NULL, &k);
    tu_play(g, 0, "Q0,2-0,1"); /* checks the King on 3,1 over the knight */
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    Status st;
    game_status(g, &st);
    assert_false(st.over);
    assert_int_equal(st.in_check, 1u << 1); /* TILE-8: black's King, as before */
    View v;
    assert_int_equal(game_view(g, 1, &v), 0);
    assert_int_equal(v.side_to_move, 0);
    assert_int_equal(v.seat_to_act, 0);
    int flagged = 0;
    for (int i = 0; i < v.npieces; i++)
        if (v.pieces[i].figure == FIG_KING && v.pieces[i].side == 1)
            flagged = (v.pieces[i].flags & VP_CHECK) != 0;
    assert_true(flagged);
    tu_play(g, 0, "Q0,1x3,1"); /* the extra move takes the King */
    tu_assert_over(g, "1-0", "the last King on the table (TILE-10)");
    game_free(g);
}

static void test_tile_turn2_then_the_next_seat(void **state)
{
    (void)state;
    /* Three sides: after white's extra move, black (the next seat) acts. */
    Again k = again_for(0);
    Game *g = game_again("tile", 3, 0, "wR0,1 bK2,1 wK0,0 bN1,0 rK3,0 turn:w", NULL, &k);
    tu_play(g, 0, "R0,1--1,1");
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    tu_play(g, 0, "R-1,1-0,1");
    assert_int_equal(game_to_act(g), 1);
    assert_int_equal(game_side_to_move(g), 1);
    game_free(g);
}

static void test_tile_turn2_placement(void **state)
{
    (void)state;
    /* TILE-2: during placement the seat places again. */
    Again k = again_for(0);
    Game *g = game_again("tile", 2, 0, NULL, NULL, &k);
    tu_play(g, 0, "Q@0,0");
    assert_given(g, &k, "house rule: white places again", 0, 0);
    tu_play(g, 0, "R@1,0");
    assert_int_equal(game_to_act(g), 1);
    char *pos = tu_position(g);
    assert_has(pos, "turn:b");
    free(pos);
    game_free(g);

    /* A seat that has placed everything places no more. */
    Again k2 = again_for(0);
    k2.seat = 1;
    g = game_again("tile", 2, 0, "wK0,0 hand:b=KQ turn:b first:w", "pawns=0", &k2);
    tu_play(g, 1, "Q@1,0");
    assert_refused(&k2, "cannot give the turn to white: white has placed all its pieces, "
                        "and only a seat with pieces in hand places (TILE-2)");
    assert_int_equal(game_to_act(g), 1); /* the turn ends: black places its King */
    game_free(g);
}

static void test_tile_turn2_refusals(void **state)
{
    (void)state;
    /* TILE-10: red's King was taken, white commands red: red never moves
     * again; the action stands and the turn goes on (blue). */
    const char *out = "wK0,1 rN1,1 bK2,1 uK3,1 wR0,0 turn:w cmd:r=w";
    Again k = again_for(2);
    Game *g = game_again("tile", 4, 0, out, NULL, &k);
    tu_play(g, 0, "R0,0-1,0");
    assert_refused(&k, "cannot give the turn to red: red's King was captured and white "
                       "commands red; a seat that is out never moves again (TILE-10)");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    /* TILE-9: a seat without a move would only pass again. */
    Again k2 = again_for(0);
    g = game_again("tile", 2, 0, "wK0,0 bK1,2 bQ1,-1 bR1,1 turn:b", NULL, &k2);
    k2.seat = 1;
    tu_play(g, 1, "Q1,-1-0,-1"); /* white's King in check, no escape */
    assert_refused(&k2, "cannot give the turn to white: white has no legal move and could "
                        "only pass (TILE-9)");
    game_free(g);

    /* TILE-5: no en passant; no duck. */
    Again k3 = again_for(0);
    k3.at = (Coord){0, 2};
    g = game_again("tile", 2, 0, TILE_CHECK, NULL, &k3);
    tu_play(g, 0, "Q0,2-0,1");
    assert_refused(&k3, "Tile Chess has no en passant (TILE-5)");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);
    Again k4 = again_for(0);
    k4.figure = FIG_DUCK;
    g = game_again("tile", 2, 0, TILE_CHECK, NULL, &k4);
    tu_play(g, 0, "Q0,2-0,1");
    assert_refused(&k4, "Tile Chess has no duck");
    game_free(g);
}

/* "turn:b" -> "turn:w" (the mover), for count_double. */
static int tile_rewrite(const char *pos, int mover, char *out, size_t n)
{
    const char *t = strstr(pos, "turn:");
    if (!t || strlen(pos) >= n)
        return -1;
    str_copy(out, n, pos);
    out[t - pos + 5] = "wbrugy"[mover];
    /* the reader refuses what makes no sense (a seat with nothing to
     * place); a seat with only a pass cannot have the turn (TILE-9) */
    Error e;
    Game *g = game_new(&(GameConfig){.variant = tu_variant("tile"), .nsides = 2,
                                     .nseats = 2, .position = out}, &e);
    if (!g)
        return -1;
    int ok = game_to_act(g) >= 0 && tu_legal_count(g, game_to_act(g), ACT_PASS) == 0;
    game_free(g);
    return ok ? 0 : -1;
}

static void test_tile_turn2_perft_double_move(void **state)
{
    (void)state;
    static const char *const POS[] = {
        TILE_CHECK,
        "wK0,0 bK1,2 bQ1,-1 bR1,1 turn:b",
        "wQ0,0 hand:w=K,b=KN turn:b first:w",
    };
    check_double_perft("tile", 2, 0, POS, sizeof POS / sizeof *POS, 2, 3,
                       tile_rewrite);
}

/* ---- Les Échecs Masqués (MASQ-1 .. MASQ-16) ---------------------------- */

#define MQ_START "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"

static void test_masq_turn2_moves_again(void **state)
{
    (void)state;
    Again k = again_for(0);
    Game *g = game_again("masques", 2, 0, MQ_START, NULL, &k);
    tu_play(g, 0, "e2e4");
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    char *pos = tu_position(g);
    /* white to move; its own two-step's en passant square goes (MASQ-2) */
    assert_has(pos, "R~N~B~Q~K~B~N~R~ w KQkq - ");
    free(pos);
    tu_play(g, 0, "d2d4");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);
}

static void test_masq_turn2_en_passant(void **state)
{
    (void)state;
    /* White's own two-step cannot leave White an en passant square. */
    Again k = again_for(0);
    k.at = (Coord){4, 2};
    Game *g = game_again("masques", 2, 0, MQ_START, NULL, &k);
    tu_play(g, 0, "e2e4");
    assert_refused(&k, "cannot give the turn to white with en passant on e3: no two-step of "
                       "black has just passed it (MASQ-2)");
    game_free(g);

    /* Black's two-step, the turn given to White with its square kept: White
     * may take en passant (a battle, the piece being masked). */
    Again k2 = again_for(0);
    k2.seat = 1;
    k2.at = (Coord){3, 5};
    g = game_again("masques", 2, 0, "4k~3/3p~4/8/4P~3/8/8/8/4K~3 b - - 0 1", NULL, &k2);
    tu_play(g, 1, "d7d5");
    assert_given(g, &k2, "house rule: white moves again", 0, 0);
    char *pos = tu_position(g);
    assert_has(pos, " w - d6 ");
    free(pos);
    assert_true(tu_is_legal(g, "e5d6"));
    game_free(g);
}

static void test_masq_turn2_refused_by_phase(void **state)
{
    (void)state;
    static const struct {
        const char *pos, *play, *want;
        int seat;
    } C[] = {
        /* a simple battle: black answers (MASQ-9) */
        {"4k~3/8/5p~2/8/4N3/8/8/4K3 w - - 0 1", "e4f6",
         "cannot give the turn to white during a battle: black answers white's attack "
         "(MASQ-9)", 0},
        /* a masked battle: the bidding (MASQ-10) */
        {"4k~3/8/8/3p~4/4P~3/8/8/4K3 w - - 0 1", "e4d5",
         "cannot give the turn to white during the bidding of a masked battle (MASQ-10)", 0},
        /* a new threat on d5: white may announce (MASQ-6) */
        {"4k~3/8/8/3p~4/8/4P~3/8/4K3 w - - 0 1", "e3e4",
         "cannot give the turn to white while white decides whether to announce a mask "
         "check (MASQ-6)", 0},
        /* announced: black answers, then plays its turn (MASQ-6) */
        {"4k~3/8/8/3p~4/4P~3/8/8/4K3 w - - 0 1 phase=announce threats=d5",
         "announce check d5",
         "cannot give the turn to white while black answers a mask check: it then plays "
         "its turn, so an announced mask check ends the turn (MASQ-6)", 0},
        /* a revealed King in check must answer it (MASQ-14) */
        {"4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2e2",
         "cannot give the turn to white: black's King is in check (MASQ-14)", 0},
    };
    for (size_t i = 0; i < sizeof C / sizeof *C; i++) {
        Again k = again_for(0);
        Game *g = game_again("masques", 2, 0, C[i].pos, NULL, &k);
        tu_play(g, C[i].seat, C[i].play);
        assert_refused(&k, C[i].want);
        assert_int_not_equal(game_to_act(g), -1);
        game_free(g);
    }
    /* setup (MASQ-1) */
    Again k = again_for(0);
    Game *g = game_again("masques", 2, 0, NULL, NULL, &k);
    tu_play(g, 0, "standard");
    assert_refused(&k, "cannot give the turn to white during the setup: both sides set up "
                       "first (MASQ-1)");
    game_free(g);
}

/* The words White's seat reads in a game, every message and the refusal. */
static void white_reads(const Game *g, const Again *k, StrBuf *out)
{
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, 0);
        sb_printf(out, "%s\n", m ? m : "-");
    }
    sb_printf(out, "given %d refused %d: %s\n", k->given, k->refused, k->msg);
    View v;
    assert_int_equal(game_view(g, 0, &v), 0);
    sb_printf(out, "to act %d side %d check %u\n", v.seat_to_act, v.side_to_move,
              v.status.in_check);
}

/* Twin games that differ only in Black's hidden figures (the masked Queen
 * and King swapped): White reads the same words, with the default rules
 * (the turn is given) and with masked_king_check on (refused: the piece on
 * d8 that White's Rook attacks may be the King). */
static void test_masq_turn2_twins_read_the_same(void **state)
{
    (void)state;
    static const char *const TWIN[2] = {"3q~k~3/8/8/8/8/8/8/R3K3 w - - 0 1",
                                        "3k~q~3/8/8/8/8/8/8/R3K3 w - - 0 1"};
    static const char *const PARAMS[2] = {NULL, "masked_king_check=on"};
    for (int p = 0; p < 2; p++) {
        StrBuf read[2] = {STRBUF_INIT, STRBUF_INIT};
        for (int t = 0; t < 2; t++) {
            Again k = again_for(0);
            k.armed = 0;
            Game *g = game_again("masques", 2, 0, TWIN[t], PARAMS[p], &k);
            tu_play(g, 0, "a1a8"); /* a new threat on d8: White may announce */
            k.armed = 1;
            tu_play(g, 0, "pass");
            white_reads(g, &k, &read[t]);
            if (p == 0)
                assert_given(g, &k, "house rule: white moves again", 0, 0);
            else
                assert_refused(&k, "cannot give the turn to white: white attacks black's "
                                   "masked piece on d8, which may be its King, and "
                                   "masked_king_check is on (MASQ-14)");
            game_free(g);
        }
        if (strcmp(sb_str(&read[0]), sb_str(&read[1])))
            fail_msg("White reads\n%s\nin one twin and\n%s\nin the other", sb_str(&read[0]),
                     sb_str(&read[1]));
        sb_free(&read[0]);
        sb_free(&read[1]);
    }
}

/* ---- L'Échiqueté (ECHQ-1 .. ECHQ-13) ----------------------------------- */

static void test_echq_turn2_phase1_merged_pieces(void **state)
{
    (void)state;
    /* After White's merging capture, White moves again: the merged pawn is
     * its to move (ECHQ-2), forward as White's; the no-undo move binds only
     * Black (ECHQ-6), so it goes. */
    Again k = again_for(0);
    k.seat = 0;
    k.kind = ACT_MOVE;
    k.armed = 2;
    Game *g = game_again("echiquete", 3, 2, NULL, NULL, &k);
    k.armed = 0;
    tu_play_line(g, "e4 d5");
    k.armed = 1;
    tu_play(g, 0, "e4d5p");
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    char *pos = tu_position(g);
    assert_has(pos, "3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    free(pos);
    assert_true(tu_is_legal(g, "d5d6"));
    Game *taken = game_clone(g);
    tu_play(g, 0, "d5d6");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);
    /* A takeover now follows the side to move (ECHQ-9): É, White, Black. */
    tu_play(taken, 1, "takeover");
    pos = tu_position(taken);
    assert_has(pos, " e KQkq - 0 2 phase=2 cycle=ewb seats=0,0,1");
    free(pos);
    game_free(taken);

    /* En passant: the own double step's square goes, and cannot be kept. */
    Again k2 = again_for(0);
    g = game_again("echiquete", 3, 2, NULL, NULL, &k2);
    tu_play(g, 0, "e4");
    assert_given(g, &k2, "house rule: white moves again", 0, 0);
    pos = tu_position(g);
    assert_has(pos, " w KQkq - 0 1");
    free(pos);
    game_free(g);
    Again k3 = again_for(0);
    k3.at = (Coord){4, 2};
    g = game_again("echiquete", 3, 2, NULL, NULL, &k3);
    tu_play(g, 0, "e4");
    assert_refused(&k3, "cannot give the turn to white with en passant on e3: no pawn of "
                        "another side has just passed it");
    game_free(g);

    /* Black's double step kept for White (ECHQ-7: en passant merges). */
    Again k4 = again_for(0);
    k4.seat = 1;
    k4.at = (Coord){3, 5};
    g = game_again("echiquete", 3, 2, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", NULL, &k4);
    tu_play(g, 1, "d5");
    assert_given(g, &k4, "house rule: white moves again", 0, 0);
    assert_true(tu_is_legal(g, "e5d6p"));
    game_free(g);
}

static void test_echq_turn2_refusals(void **state)
{
    (void)state;
    /* phase 1: merged has no turn (ECHQ-9) */
    Again k = again_for(2);
    Game *g = game_again("echiquete", 3, 2, NULL, NULL, &k);
    tu_play(g, 0, "e4");
    assert_refused(&k, "cannot give the turn to merged: the merged pieces have no turn of "
                       "their own before a takeover (ECHQ-2, ECHQ-9)");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    /* phase 1: a check must be answered (ECHQ-8) */
    Again k2 = again_for(0);
    g = game_again("echiquete", 3, 2, "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", NULL, &k2);
    tu_play(g, 0, "Qe2");
    assert_refused(&k2, "cannot give the turn to white: black, not to move, has its King "
                        "attacked (ECHQ-8)");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    /* phase 2: a side that is out (ECHQ-13) */
    Again k3 = again_for(1);
    g = game_again("echiquete", 3, 3,
                   "4k3/8/8/8/3*N4/8/8/4K3 w - - 0 1 phase=2 cycle=ewb seats=0,1,2 out=b",
                   NULL, &k3);
    tu_play(g, 0, "Kd1");
    assert_refused(&k3, "cannot give the turn to black: black is out (ECHQ-13)");
    assert_int_equal(game_to_act(g), 2);
    game_free(g);

    /* phase 2: a side without a move would only pass (ECHQ-13) */
    Again k4 = again_for(0);
    g = game_again("echiquete", 3, 3,
                   "7*N/6p1/8/6P1/8/1q6/2k5/K7 w - - 0 1 phase=2 cycle=ewb seats=0,1,2",
                   NULL, &k4);
    tu_play(g, 0, "g6");
    assert_refused(&k4, "cannot give the turn to white: it has no legal move and could only "
                        "pass (ECHQ-13)");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    /* ... but once only White and Black remain, without a move it is
     * stalemated, as in phase 1 (TURN-6) */
    Again k5 = again_for(0);
    g = game_again("echiquete", 3, 3,
                   "8/8/8/6p1/8/1q4P1/2k5/K7 w - - 0 1 phase=2 cycle=ewb seats=0,1,2 out=e",
                   NULL, &k5);
    tu_play(g, 0, "g4");
    assert_int_equal(k5.given, 1);
    tu_assert_over(g, "draw", "stalemate");
    game_free(g);
}

static void test_echq_turn2_phase2_cycle_and_seats(void **state)
{
    (void)state;
    /* Three seats: merged moves again, then the cycle goes on after it. */
    Again k = again_for(2);
    Game *g = game_again("echiquete", 3, 3,
                         "4k3/8/8/8/1*N3*N2/8/8/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2",
                         NULL, &k);
    tu_play(g, 2, "f4d5");
    assert_given(g, &k, "house rule: merged moves again", 2, 2);
    tu_play(g, 2, "d5f4");
    assert_int_equal(game_side_to_move(g), 0);
    assert_int_equal(game_to_act(g), 0);
    game_free(g);

    /* Two seats (ECHQ-12): White's seat took the merged side, Black's seat
     * plays white and black; white moves again, its seat acts. */
    Again k2 = again_for(0);
    g = game_again("echiquete", 3, 2,
                   "4k3/8/8/8/1*N6/8/8/4K3 w - - 0 1 phase=2 cycle=ebw seats=1,1,0", NULL,
                   &k2);
    tu_play(g, 1, "Kd1");
    assert_given(g, &k2, "house rule: white moves again", 0, 1);
    tu_play(g, 1, "Ke1");
    assert_int_equal(game_side_to_move(g), 2); /* cycle É, black, white: É after white */
    assert_int_equal(game_to_act(g), 0);
    game_free(g);
}

/* Side field w <-> b, and the en passant square and the no-undo move (which
 * bind the other side only) dropped, for count_double. */
static int echq_rewrite(const char *pos, int mover, char *out, size_t n)
{
    char board[128], side[4], castling[8], ep[4];
    int half, full;
    if (sscanf(pos, "%127s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full) != 6)
        return -1;
    snprintf(out, n, "%s %c %s - %d %d", board, "wb"[mover], castling, half, full);
    Error e;
    Game *g = game_new(&(GameConfig){.variant = tu_variant("echiquete"), .nsides = 3,
                                     .nseats = 2, .position = out}, &e);
    if (!g)
        return -1; /* ECHQ-8: the other King in check */
    game_free(g);
    return 0;
}

static void test_echq_turn2_perft_double_move(void **state)
{
    (void)state;
    static const char *const POS[] = {
        "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
        "4k3/3p4/8/8/1Q6/8/8/4K3 w - - 0 1",
    };
    check_double_perft("echiquete", 3, 2, POS, sizeof POS / sizeof *POS, 2, 3,
                       echq_rewrite);
}

/* ---- Échecs ambigus (AMBI-1 .. AMBI-7) --------------------------------- */

static void test_ambi_turn2_after_the_choice(void **state)
{
    (void)state;
    /* Marseillais Échecs ambigus, two namings each: White names f3, Black
     * chooses the piece (AMBI-2), then White names again. */
    Again k = again_for(0);
    k.kind = ACT_CHOOSE;
    k.seat = 1;
    Game *g = game_again("ambigus", 2, 0, NULL, NULL, &k);
    tu_play(g, 0, "f3");
    assert_int_equal(k.refused + k.given, 0);
    tu_play(g, 1, "choose g1");
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    tu_play(g, 0, "e4");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);

    /* Mid-choice the turn cannot be given (AMBI-2). */
    Again k2 = again_for(0);
    g = game_again("ambigus", 2, 0, NULL, NULL, &k2);
    tu_play(g, 0, "f3");
    assert_refused(&k2, "black is choosing which white piece goes to f3 (AMBI-2): the "
                        "position may be edited only once the move is played");
    assert_int_equal(game_to_act(g), 1);
    game_free(g);
}

static void test_ambi_turn2_en_passant(void **state)
{
    (void)state;
    /* White's own double step: the en passant square goes (TURN-2). */
    Again k = again_for(0);
    Game *g = game_again("ambigus", 2, 0, NULL, NULL, &k);
    tu_play(g, 0, "e4");
    assert_given(g, &k, "house rule: white moves again", 0, 0);
    char *pos = tu_position(g);
    assert_has(pos, "RNBQKBNR w - - 0 1");
    free(pos);
    game_free(g);

    /* ... and cannot be kept for the side that made it. */
    Again k2 = again_for(0);
    k2.at = (Coord){4, 2};
    g = game_again("ambigus", 2, 0, NULL, NULL, &k2);
    tu_play(g, 0, "e4");
    assert_refused(&k2, "cannot give the turn to white with en passant on e3: no black pawn "
                        "just passed it");
    pos = tu_position(g);
    assert_has(pos, " b - e3 0 1");
    free(pos);
    game_free(g);

    /* Black's double step, the turn given to white with the target kept:
     * white takes en passant. */
    Again k3 = again_for(0);
    k3.seat = 1;
    k3.at = (Coord){3, 5};
    g = game_again("ambigus", 2, 0, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", NULL, &k3);
    tu_play(g, 1, "d5");
    assert_given(g, &k3, "house rule: white moves again", 0, 0);
    tu_play(g, 0, "d6");
    pos = tu_position(g);
    assert_has(pos, "4k3/8/3P4/8/8/8/8/4K3 b");
    free(pos);
    game_free(g);
}

/* Side field w <-> b, the en passant square dropped, for count_double. */
static int ambi_rewrite(const char *pos, int mover, char *out, size_t n)
{
    char board[128], side[4], castling[8], ep[4];
    int half, full;
    if (sscanf(pos, "%127s %3s %7s %3s %d %d", board, side, castling, ep, &half, &full) != 6)
        return -1;
    snprintf(out, n, "%s %c %s - %d %d", board, "wb"[mover], castling, half, full);
    return 0;
}

static void test_ambi_turn2_perft_double_move(void **state)
{
    (void)state;
    /* two namings each (no check in Échecs ambigus: AMBI-4), the choices
     * counted as plies */
    static const char *const POS[] = {
        "4k3/8/8/8/8/8/4PP2/4K1N1 w - - 0 1",
        "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
    };
    check_double_perft("ambigus", 2, 0, POS, sizeof POS / sizeof *POS, 3, 4,
                       ambi_rewrite);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile_turn2_moves_again_and_takes_the_king),
        cmocka_unit_test(test_tile_turn2_then_the_next_seat),
        cmocka_unit_test(test_tile_turn2_placement),
        cmocka_unit_test(test_tile_turn2_refusals),
        cmocka_unit_test(test_tile_turn2_perft_double_move),
        cmocka_unit_test(test_masq_turn2_moves_again),
        cmocka_unit_test(test_masq_turn2_en_passant),
        cmocka_unit_test(test_masq_turn2_refused_by_phase),
        cmocka_unit_test(test_masq_turn2_twins_read_the_same),
        cmocka_unit_test(test_echq_turn2_phase1_merged_pieces),
        cmocka_unit_test(test_echq_turn2_refusals),
        cmocka_unit_test(test_echq_turn2_phase2_cycle_and_seats),
        cmocka_unit_test(test_echq_turn2_perft_double_move),
        cmocka_unit_test(test_ambi_turn2_after_the_choice),
        cmocka_unit_test(test_ambi_turn2_en_passant),
        cmocka_unit_test(test_ambi_turn2_perft_double_move),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
