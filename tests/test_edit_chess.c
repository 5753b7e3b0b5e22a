/*
 * test_edit_chess.c -- the checked edit op of house-rule reactions
 * (capability HOUSE-5, core/variant.h Edit) for orthodox chess and
 * Échecs ambigus, and scripts/atomic.lua on top of it.
 *
 * Each edit is made by a small react script on a real game; each refusal
 * must give its message and leave the game byte-for-byte as it was
 * (game_same with a clone taken before the refused move).  The atomic
 * perft is checked against an independent count: this file plays each
 * move on a plain orthodox game and applies the explosion rule itself to
 * the FEN.
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

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define BUDGET 10000000L
#define MEMORY ((size_t)16 << 20)

/* ---- Helpers ----------------------------------------------------------- */

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* A House whose reaction runs `lua` after every move landing on `square`. */
static House *edit_house(const VariantOps *v, const char *square, const char *lua)
{
    char text[1024];
    Error e;
    snprintf(text, sizeof text,
             "rule { name = 'edit test', react = function(game, action)\n"
             "  if action.to == '%s' then %s end\n"
             "end }\n", square, lua);
    HouseSource s = {"edit.lua", text, strlen(text)};
    HouseLimits lim = {.instructions = BUDGET, .memory = MEMORY};
    House *h = house_load(v, 0, &s, 1, &lim, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    return h;
}

static House *atomic_house(void)
{
    char *text = tu_read_file("scripts/atomic.lua");
    assert_non_null(text);
    HouseSource s = {"atomic.lua", text, strlen(text)};
    HouseLimits lim = {.instructions = BUDGET, .memory = MEMORY};
    Error e;
    House *h = house_load(tu_variant("orthodox"), 0, &s, 1, &lim, &e);
    free(text);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    return h;
}

static Game *hooked_game(House *h, const char *variant, const char *fen)
{
    GameConfig cfg;
    Error e;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant(variant);
    cfg.position = fen;
    params_defaults(cfg.variant, &cfg.params);
    if (house_params(h, &cfg.params, &e))
        fail_msg("house_params: %s", e.msg);
    cfg.params_set = 1;
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        fail_msg("game_new_hooked: %s", e.msg);
    return g;
}

static Game *plain_game(const char *variant, const char *fen, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant(variant);
    cfg.position = fen;
    params_defaults(cfg.variant, &cfg.params);
    cfg.params_set = 1;
    return game_new(&cfg, e);
}

/* The last message, as seat 0 reads it. */
static const char *last_message(const Game *g)
{
    int n = game_message_count(g);
    return n ? game_message(g, n - 1, 0) : NULL;
}

/* Message i counted from the end (0 = last), as seat 1 reads it. */
static const char *message_back(const Game *g, int i)
{
    int n = game_message_count(g);
    return n > i ? game_message(g, n - 1 - i, 1) : NULL;
}

static uint64_t variant_hash(const Game *g)
{
    return game_variant(g)->hash(g, game_state(g));
}

/* The edited game's position equals one read fresh from its own FEN: the
 * same repetition key, and (orthodox) the same Position bytes: bitboards,
 * key, en passant, castling rights, counters. */
static void assert_as_read(const Game *g, const char *variant)
{
    char *fen = tu_position(g);
    Error e;
    Game *fresh = plain_game(variant, fen, &e);
    if (!fresh)
        fail_msg("the edited position %s does not read back: %s", fen, e.msg);
    assert_true(variant_hash(g) == variant_hash(fresh));
    if (strcmp(variant, "orthodox") == 0)
        assert_memory_equal(game_state(g), game_state(fresh), sizeof(Position));
    game_free(fresh);
    free(fen);
}

/* seat plays text; it must be refused with want, the game unchanged. */
static void assert_refused_same(Game *g, int seat, const char *text, const char *want)
{
    Game *before = game_clone(g);
    Error e;
    assert_non_null(before);
    if (game_play(g, seat, text, &e) == 0)
        fail_msg("%s was accepted; expected a refusal with \"%s\"", text, want);
    assert_has(e.msg, want);
    assert_true(game_same(g, before));
    game_free(before);
}

/* ---- HOUSE-5, orthodox: each edit kind --------------------------------- */

/* HOUSE-5 remove (ORTH-1 FEN): after e4 the black pawn on d7 goes; the
 * message reaches both seats. */
static void test_house5_orth_remove(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "e4", "game:remove('d7')");
    Game *g = hooked_game(h, "orthodox", NULL);
    tu_play(g, 0, "e4");
    tu_assert_position(g, "rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_string_equal(last_message(g), "house rule: the black pawn on d7 is removed");
    assert_string_equal(message_back(g, 0), "house rule: the black pawn on d7 is removed");
    assert_string_equal(message_back(g, 1), "white plays e4");
    assert_as_read(g, "orthodox");
    tu_play(g, 1, "Qd5"); /* the open file is real */
    game_free(g);
    house_free(h);
}

/* HOUSE-5 add: a white queen on d5 in a game where White has pawns to
 * spare (every piece beyond the initial set was a pawn once). */
static void test_house5_orth_add(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "a3", "game:add('d5', 'white', 'Q')");
    Game *g = hooked_game(h, "orthodox", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
    tu_play(g, 0, "a3");
    tu_assert_position(g, "4k3/8/8/3Q4/8/P7/8/4K3 b - - 0 1");
    assert_string_equal(last_message(g), "house rule: a white queen is added on d5");
    assert_as_read(g, "orthodox");
    assert_true(tu_is_legal(g, "e8e7"));
    assert_false(tu_is_legal(g, "e8d7")); /* the queen is live */
    game_free(g);
    house_free(h);
}

/* HOUSE-5 change (ORTH-4's figures): the white knight on f3 becomes a
 * queen; the owner is kept. */
static void test_house5_orth_change(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "f3", "game:change('f3', 'Q')");
    Game *g = hooked_game(h, "orthodox", "4k3/8/8/8/8/8/P7/4K1N1 w - - 0 1");
    tu_play(g, 0, "Nf3");
    tu_assert_position(g, "4k3/8/8/8/8/5Q2/P7/4K3 b - - 1 1");
    assert_string_equal(last_message(g), "house rule: the white knight on f3 becomes a queen");
    assert_as_read(g, "orthodox");
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5, orthodox: refusals ---------------------------------------- */

typedef struct Refusal {
    const char *fen, *move, *square, *lua, *want;
} Refusal;

/* Each invariant of the orthodox reader (ORTH-1 one King a side, ORTH-4
 * no pawn on rank 1/8, ORTH-6 the side not to move not in check, the
 * material a game can reach, the board's own tests) refuses the move
 * whose reaction asks for the edit, with the game as it was. */
static void test_house5_orth_refusals(void **state)
{
    (void)state;
    static const Refusal R[] = {
        {NULL, "e4", "e4", "game:remove('e8')",
         "game:remove: cannot remove the black King on e8: each side keeps exactly one "
         "King (ORTH-1)"},
        {NULL, "e4", "e4", "game:add('e5', 'white', 'K')",
         "game:add: cannot add a white King on e5: white has its King on e1 and each side "
         "keeps exactly one King (ORTH-1)"},
        {NULL, "e4", "e4", "game:change('d8', 'K')",
         "game:change: cannot change the black queen on d8 into a King: black has its King "
         "on e8 and each side keeps exactly one King (ORTH-1)"},
        {NULL, "e4", "e4", "game:change('e1', 'Q')",
         "game:change: cannot change the white King on e1 into a queen: each side keeps "
         "exactly one King (ORTH-1)"},
        {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", "a3", "a3", "game:add('c8', 'white', 'P')",
         "game:add: cannot add a white pawn on c8: a pawn never stands on rank 8 (rank 1 "
         "and rank 8 have no pawns: ORTH-4)"},
        {"4k3/8/8/8/8/8/P7/R3K3 w - - 0 1", "a3", "a3", "game:change('a1', 'P')",
         "game:change: cannot change the white rook on a1 into a pawn: a pawn never stands "
         "on rank 1"},
        {NULL, "e4", "e4", "game:remove('d4')", "game:remove: no piece on d4"},
        {NULL, "e4", "e4", "game:change('d4', 'Q')", "game:change: no piece on d4"},
        {NULL, "e4", "e4", "game:add('d7', 'white', 'N')",
         "game:add: cannot add a white knight on d7: the black pawn on d7 stands there "
         "(remove it first)"},
        {NULL, "e4", "e4", "game:change('d7', 'P')",
         "game:change: cannot change the black pawn on d7 into a pawn: it is one already"},
        {NULL, "e4", "e4", "game:add('d4', 'white', 'Q', {masked = true})",
         "game:add: cannot add a white queen on d4 masked: no piece is masked in this game"},
        /* ORTH-6: the bishop on e2 shields its King; the mover's King
         * would stand attacked with Black to move. */
        {"4r1k1/8/8/8/8/8/P3B3/4K3 w - - 0 1", "a3", "a3", "game:remove('e2')",
         "game:remove: cannot remove the white bishop on e2: white would be in check with "
         "black to move, and the side not to move may not be in check (ORTH-6)"},
        {NULL, "e4", "e4", "game:add('d4', 'white', 'Q')",
         "game:add: cannot add a white queen on d4: the position would be impossible: White "
         "has 17 pieces; at most 16 are possible"},
        {"4k3/8/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1", "a3", "a3", "game:add('d4', 'white', 'Q')",
         "game:add: cannot add a white queen on d4: the position would be impossible: White "
         "has 1 promoted pieces but only 0 pawns are missing"},
        {NULL, "e4", "e4", "game:add('e5', 'black', 'P')",
         "game:add: cannot add a black pawn on e5: the position would be impossible: Black "
         "has 9 pawns; at most 8 are possible"},
    };
    for (size_t i = 0; i < sizeof R / sizeof R[0]; i++) {
        House *h = edit_house(tu_variant("orthodox"), R[i].square, R[i].lua);
        Game *g = hooked_game(h, "orthodox", R[i].fen);
        assert_refused_same(g, 0, R[i].move, R[i].want);
        game_free(g);
        house_free(h);
    }
}

/* ---- HOUSE-5, orthodox: derived fields ---------------------------------- */

/* ORTH-5: a castling right goes with its rook or King; the others stay.
 * Removing h8's rook drops k; changing a1's rook drops Q. */
static void test_house5_orth_castling_dropped(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "a3",
                          "game:remove('h8'); game:change('a1', 'Q')");
    Game *g = hooked_game(h, "orthodox", "r3k2r/p7/8/8/8/8/P7/R3K2R w KQkq - 0 1");
    tu_play(g, 0, "a3");
    tu_assert_position(g, "r3k3/p7/8/8/8/P7/8/Q3K2R b Kq - 0 1");
    assert_as_read(g, "orthodox");
    assert_true(tu_is_legal(g, "e8c8"));
    assert_false(tu_is_legal(g, "e8g8"));
    game_free(g);
    house_free(h);
}

/* ORTH-3: the en passant target goes with the pawn that made it (here it
 * becomes a knight); if only the pawn that could take goes, the target
 * stays in the FEN but leaves the repetition key, as the reader builds
 * it. */
static void test_house5_orth_en_passant(void **state)
{
    (void)state;
    const char *fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1";
    House *h = edit_house(tu_variant("orthodox"), "d5", "game:change('d5', 'N')");
    Game *g = hooked_game(h, "orthodox", fen);
    tu_play(g, 1, "d5");
    tu_assert_position(g, "4k3/8/8/3nP3/8/8/8/4K3 w - - 0 2");
    assert_false(tu_is_legal(g, "e5d6"));
    assert_as_read(g, "orthodox");
    game_free(g);
    house_free(h);

    h = edit_house(tu_variant("orthodox"), "d5", "game:remove('e5')");
    g = hooked_game(h, "orthodox", fen);
    Error e;
    Game *plain = plain_game("orthodox", fen, &e);
    assert_non_null(plain);
    tu_play(g, 1, "d5");
    tu_play(plain, 1, "d5");
    tu_assert_position(g, "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2");
    assert_as_read(g, "orthodox");
    /* With the capturer there the key holds the en passant file; gone,
     * it does not: the keys differ by more than the pawn. */
    assert_true(variant_hash(plain) != variant_hash(g));
    game_free(plain);
    game_free(g);
    house_free(h);
}

/* HOUSE-5 repetition keys (ORTH-9): the ply's key is the edited
 * position's, so coming back to it counts as a repetition. */
static void test_house5_orth_repetition_keys(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "a3", "game:remove('h7')");
    Game *g = hooked_game(h, "orthodox", "4k1n1/p6p/8/8/8/8/P7/4K1N1 w - - 0 1");
    tu_play(g, 0, "a3");
    assert_as_read(g, "orthodox");
    assert_int_equal(game_repetitions(g), 1);
    tu_play_line(g, "Nf6 Nf3 Ng8 Ng1");
    assert_int_equal(game_repetitions(g), 2);
    tu_play_line(g, "Nf6 Nf3 Ng8 Ng1");
    assert_int_equal(game_repetitions(g), 3);
    game_free(g);
    house_free(h);
}

/* HOUSE-5 undo: taking back the move whose reaction edited gives the game
 * before it exactly; taking back a later move gives the edited one. */
static void test_house5_orth_undo_exact(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("orthodox"), "e4", "game:remove('d7')");
    Game *g = hooked_game(h, "orthodox", NULL);
    Error e;
    Game *start = game_clone(g);
    tu_play(g, 0, "e4");
    Game *edited = game_clone(g);
    tu_play_line(g, "Qd6 Nf3");
    assert_int_equal(game_undo(g, 2, &e), 0);
    assert_true(game_same(g, edited));
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_true(game_same(g, start));
    game_free(start);
    game_free(edited);
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5, ambigus --------------------------------------------------- */

/* AMBI-4 (one King a side, never taken off) and AMBI-2 (no edit while the
 * opponent chooses the piece): an edit after a move played at once, then
 * the refusals. */
static void test_house5_ambigus_edit_and_refusals(void **state)
{
    (void)state;
    House *h = edit_house(tu_variant("ambigus"), "e4", "game:remove('d7')");
    Game *g = hooked_game(h, "ambigus", NULL);
    tu_play(g, 0, "e4"); /* only the e-pawn reaches e4: played at once */
    tu_assert_position(g, "rnbqkbnr/ppp1pppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - e3 0 1");
    assert_string_equal(last_message(g), "house rule: the black pawn on d7 is removed");
    assert_as_read(g, "ambigus");
    game_free(g);
    house_free(h);

    h = edit_house(tu_variant("ambigus"), "e4", "game:remove('e8')");
    g = hooked_game(h, "ambigus", NULL);
    assert_refused_same(g, 0, "e4",
                        "game:remove: cannot remove the black King on e8: each side keeps "
                        "exactly one King (AMBI-4)");
    game_free(g);
    house_free(h);

    h = edit_house(tu_variant("ambigus"), "c3", "game:remove('h7')");
    g = hooked_game(h, "ambigus", NULL);
    assert_refused_same(g, 0, "c3",
                        "game:remove: black is choosing which white piece goes to c3 "
                        "(AMBI-2): the position may be edited only once the move is played");
    game_free(g);
    house_free(h);

    /* The same rule acts once the choice is made (the react runs again
     * after it, with the move played). */
    h = edit_house(tu_variant("ambigus"), "a3",
                   "if game:seat_to_act() == game:side_to_move() then game:remove('h7') end");
    g = hooked_game(h, "ambigus", "4k3/7p/8/8/8/8/P7/1N2K3 w - - 0 1");
    tu_play(g, 0, "a3");
    tu_play(g, 1, "choose Nb1");
    tu_assert_position(g, "4k3/8/8/8/8/N7/P7/4K3 b - - 1 1");
    assert_string_equal(last_message(g), "house rule: the black pawn on h7 is removed");
    assert_as_read(g, "ambigus");
    game_free(g);
    house_free(h);
}

/* ---- HOUSE-5: scripts/atomic.lua ---------------------------------------- */

/* A capture explodes: the bishop that takes on d4 goes, and so do the
 * knight on e3 and the rook on e5; the pawns on c5 and d3 stay. */
static void test_house5_atomic_explosion(void **state)
{
    (void)state;
    House *h = atomic_house();
    Game *g = hooked_game(h, "orthodox", "7k/8/8/2p1r3/3n4/3PN3/1B6/6K1 w - - 0 1");
    tu_play(g, 0, "Bxd4");
    tu_assert_position(g, "7k/8/8/2p5/8/3P4/8/6K1 b - - 0 1");
    assert_string_equal(message_back(g, 0), "house rule: the black rook on e5 is removed");
    assert_string_equal(message_back(g, 1), "house rule: the white knight on e3 is removed");
    assert_string_equal(message_back(g, 2), "house rule: the white bishop on d4 is removed");
    tu_assert_going_on(g);
    game_free(g);
    house_free(h);
}

/* The veto: a capture next to the mover's own King, and any King
 * capture, are forbidden with a reason; the game stays as it was. */
static void test_house5_atomic_own_king_vetoed(void **state)
{
    (void)state;
    House *h = atomic_house();
    Game *g = hooked_game(h, "orthodox", "7k/8/8/4r3/3n4/3K4/1B6/8 w - - 0 1");
    assert_refused_same(g, 0, "Bxd4", "a capture on d4 would blow up your own King on d3");
    assert_refused_same(g, 0, "Kxd4", "a King may not capture");
    assert_false(tu_is_legal(g, "b2d4"));
    assert_true(tu_is_legal(g, "b2c3"));
    game_free(g);
    house_free(h);
}

/* A capture next to the enemy King wins; the King stays on the board. */
static void test_house5_atomic_enemy_king_wins(void **state)
{
    (void)state;
    House *h = atomic_house();
    Game *g = hooked_game(h, "orthodox", "4k3/3r4/8/8/8/8/8/3RK3 w - - 0 1");
    tu_play(g, 0, "Rxd7");
    tu_assert_over(g, "1-0", "the black King on e8 was caught in the explosion on d7");
    tu_assert_position(g, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    game_free(g);
    house_free(h);
}

/* ORTH-6 through the edit API: an explosion that would leave the mover's
 * own King attacked is refused, and the capture with it.  Bxd4 blows up
 * the knight on e3, which shields the King on e1 from the rook on e8. */
static void test_house5_atomic_exposing_refused(void **state)
{
    (void)state;
    House *h = atomic_house();
    Game *g = hooked_game(h, "orthodox", "4r2k/8/8/8/3n4/4N3/1B6/4K3 w - - 0 1");
    assert_refused_same(g, 0, "Bxd4", "cannot remove the white knight on e3: white would "
                                      "be in check with black to move");
    game_free(g);
    house_free(h);
}

/* ---- The independent atomic count -------------------------------------- */

typedef struct Board {
    char sq[8][8]; /* [rank][file], '.' empty, FEN letters */
    char rest[96]; /* the FEN after the placement */
} Board;

static void board_read(Board *b, const char *fen)
{
    int rank = 7, file = 0;
    const char *c = fen;
    memset(b->sq, '.', sizeof b->sq);
    for (; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
        } else {
            b->sq[rank][file++] = *c;
        }
    }
    snprintf(b->rest, sizeof b->rest, "%s", c);
}

static void board_write(const Board *b, const char *rest, char *out, size_t n)
{
    size_t k = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            char p = b->sq[rank][file];
            if (p == '.') {
                empty++;
                continue;
            }
            if (empty)
                out[k++] = (char)('0' + empty);
            empty = 0;
            out[k++] = p;
        }
        if (empty)
            out[k++] = (char)('0' + empty);
        if (rank)
            out[k++] = '/';
    }
    snprintf(out + k, n - k, "%s", rest);
}

static int is_white(char p) { return p >= 'A' && p <= 'Z'; }

/* The atomic veto, from the board before the move "e2e4" (UCI). */
static int my_vetoed(const Board *b, const char *uci)
{
    int ff = uci[0] - 'a', fr = uci[1] - '1', tf = uci[2] - 'a', tr = uci[3] - '1';
    char mover = b->sq[fr][ff], target = b->sq[tr][tf];
    int capture = target != '.' ? 1 : ((mover == 'P' || mover == 'p') && ff != tf);
    if (!capture)
        return 0;
    if (mover == 'K' || mover == 'k')
        return 1;
    for (int r = tr - 1; r <= tr + 1; r++)
        for (int f = tf - 1; f <= tf + 1; f++)
            if (r >= 0 && r < 8 && f >= 0 && f < 8 && (r != tr || f != tf) &&
                b->sq[r][f] == (is_white(mover) ? 'K' : 'k'))
                return 1;
    return 0;
}

/* Legal moves of g that the atomic veto allows; 0 once the game is over. */
static int my_count_replies(const Game *g)
{
    Status s;
    game_status(g, &s);
    if (s.over)
        return 0;
    char *fen = tu_position(g);
    Board b;
    board_read(&b, fen);
    free(fen);
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    int n = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf t = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_MACHINE, &t);
        n += !my_vetoed(&b, sb_str(&t));
        sb_free(&t);
    }
    al_free(&l);
    return n;
}

/* The castling field of b: each right of `old` whose King and rook are
 * still at home. */
static void my_castling(const Board *b, const char *old, char *out)
{
    static const struct { char c, king, rook; int rank, kf, rf; } R[4] = {
        {'K', 'K', 'R', 0, 4, 7}, {'Q', 'K', 'R', 0, 4, 0},
        {'k', 'k', 'r', 7, 4, 7}, {'q', 'k', 'r', 7, 4, 0}};
    int k = 0;
    for (int i = 0; i < 4; i++)
        if (strchr(old, R[i].c) && b->sq[R[i].rank][R[i].kf] == R[i].king &&
            b->sq[R[i].rank][R[i].rf] == R[i].rook)
            out[k++] = R[i].c;
    if (!k)
        out[k++] = '-';
    out[k] = '\0';
}

/* The subtree of one root move at depth 2 under atomic captures, computed
 * here: -1 if the veto or the explosion refuses the move. */
static int my_after_root(const Game *root, const Action *a, const Board *before,
                         const char *uci)
{
    if (my_vetoed(before, uci))
        return -1;
    Game *c = game_clone(root);
    Error e;
    assert_int_equal(game_apply(c, a, &e), 0);
    int tf = uci[2] - 'a', tr = uci[3] - '1';
    int capture = before->sq[tr][tf] != '.' ||
                  ((before->sq[uci[1] - '1'][uci[0] - 'a'] | 32) == 'p' && uci[0] != uci[2]);
    if (!capture) {
        int n = my_count_replies(c);
        game_free(c);
        return n;
    }
    char *fen = tu_position(c);
    game_free(c);
    Board b;
    board_read(&b, fen);
    free(fen);
    int mover_white = is_white(b.sq[tr][tf]), king_hit = 0;
    b.sq[tr][tf] = '.';
    for (int r = tr - 1; r <= tr + 1; r++)
        for (int f = tf - 1; f <= tf + 1; f++) {
            if (r < 0 || r > 7 || f < 0 || f > 7 || (r == tr && f == tf))
                continue;
            char p = b.sq[r][f];
            if (p == (mover_white ? 'k' : 'K'))
                king_hit = 1;
            else if (p != '.' && p != 'P' && p != 'p')
                b.sq[r][f] = '.';
        }
    if (king_hit)
        return 0; /* the mover has won: no replies */
    char side[2], castling[8], ep[3], out[128], rest[96];
    int half, full;
    assert_int_equal(sscanf(b.rest, " %1s %7s %2s %d %d", side, castling, ep, &half, &full), 5);
    char now[8];
    my_castling(&b, castling, now);
    snprintf(rest, sizeof rest, " %s %s - %d %d", side, now, half, full);
    board_write(&b, rest, out, sizeof out);
    Game *after = plain_game("orthodox", out, &e);
    if (!after)
        return -1; /* an orthodox reader refuses it: so does the edit */
    int n = my_count_replies(after);
    game_free(after);
    return n;
}

static uint64_t my_atomic_perft2(const char *fen)
{
    Error e;
    Game *root = plain_game("orthodox", fen, &e);
    assert_non_null(root);
    Board before;
    board_read(&before, fen);
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(root, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf t = STRBUF_INIT;
        game_format(root, &l.v[i], FMT_MACHINE, &t);
        int n = my_after_root(root, &l.v[i], &before, sb_str(&t));
        total += n > 0 ? (uint64_t)n : 0;
        sb_free(&t);
    }
    al_free(&l);
    game_free(root);
    return total;
}

/* HOUSE-5 in perft, by hand first.  A King in check by a pawn may not
 * take it: orthodox 5 moves (Kd1 Kxd2 Ke2 Kf1 Kf2), atomic 4.  Beside
 * its King, the queen may not take the knight on d2, nor may the King:
 * orthodox 14 (the queen 11: Qxd2, c1 b1 a1, c2 b3 a4, e2 f3 g4 h5; the
 * King 3: Kxd2 Ke2 Kf2, f1 being the knight's), atomic 12.  Then, on
 * Kiwipete, an opening, position 5 and those two, perft 2 under
 * atomic.lua equals this file's own count and differs from orthodox. */
static void test_house5_atomic_perft(void **state)
{
    (void)state;
    House *h = atomic_house();
    Error e;
    const char *tiny = "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1";
    Game *plain = plain_game("orthodox", tiny, &e);
    Game *g = hooked_game(h, "orthodox", tiny);
    assert_int_equal(game_perft(plain, 1), 5);
    assert_int_equal(game_perft(g, 1), 4);
    game_free(plain);
    game_free(g);
    const char *beside = "4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1";
    plain = plain_game("orthodox", beside, &e);
    g = hooked_game(h, "orthodox", beside);
    assert_int_equal(game_perft(plain, 1), 14);
    assert_int_equal(game_perft(g, 1), 12);
    game_free(plain);
    game_free(g);

    static const char *const FENS[] = {
        TU_FEN_KIWIPETE,
        "r1bqkbnr/pppp1ppp/2n5/4p3/3PP3/5N2/PPP2PPP/RNBQKB1R b KQkq d3 0 3",
        TU_FEN_POS5,
        "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/3n4/3QK3 w - - 0 1",
    };
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        plain = plain_game("orthodox", FENS[i], &e);
        g = hooked_game(h, "orthodox", FENS[i]);
        uint64_t atomic = game_perft(g, 2), mine = my_atomic_perft2(FENS[i]);
        print_message("%s: orthodox %llu, atomic %llu, independent %llu\n", FENS[i],
                      (unsigned long long)game_perft(plain, 2), (unsigned long long)atomic,
                      (unsigned long long)mine);
        assert_int_equal(atomic, mine);
        assert_true(atomic != game_perft(plain, 2));
        game_free(plain);
        game_free(g);
    }
    house_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_house5_orth_remove),
        cmocka_unit_test(test_house5_orth_add),
        cmocka_unit_test(test_house5_orth_change),
        cmocka_unit_test(test_house5_orth_refusals),
        cmocka_unit_test(test_house5_orth_castling_dropped),
        cmocka_unit_test(test_house5_orth_en_passant),
        cmocka_unit_test(test_house5_orth_repetition_keys),
        cmocka_unit_test(test_house5_orth_undo_exact),
        cmocka_unit_test(test_house5_ambigus_edit_and_refusals),
        cmocka_unit_test(test_house5_atomic_explosion),
        cmocka_unit_test(test_house5_atomic_own_king_vetoed),
        cmocka_unit_test(test_house5_atomic_enemy_king_wins),
        cmocka_unit_test(test_house5_atomic_exposing_refused),
        cmocka_unit_test(test_house5_atomic_perft),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
