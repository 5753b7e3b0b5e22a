/*
 * test_house_turns.c -- issue 25: house rules that change who moves when
 * (docs/HOUSE-RULES.md "8. Turns", TURN-1 .. TURN-7).  The schedules of
 * scripts/ played move by move through the C API (who acts after each
 * move, the turn's number, moves made and planned), their perft from the
 * start against a counter written here from the docs alone (plain orthodox
 * games, the side to move handed back by rewriting the FEN), undo and
 * records in the middle of a turn, and hostile `turn` functions refused
 * with the game left as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

static void assert_has(const char *hay, const char *needle)
{
    if (!hay || !strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay ? hay : "(null)");
}

/* A script (a file of scripts/, or a text) against variant vname, and a
 * game from fen (NULL: the start, or the script's setup) under it. */
typedef struct Scripted {
    char *text;
    House *h;
    GameHooks k;
    Game *g;
} Scripted;

static void scripted_in(Scripted *s, const char *vname, const char *name, const char *text,
                        const char *fen)
{
    Error e;
    s->text = text ? cv_strdup(text) : tu_read_file(name);
    assert_non_null(s->text);
    HouseSource src = {name, s->text, strlen(s->text)};
    const VariantOps *v = tu_variant(vname);
    s->h = house_load(v, 0, &src, 1, NULL, &e);
    if (!s->h)
        fail_msg("%s: %s", name, e.msg);
    s->k = house_hooks(s->h);
    s->g = tu_game(&(TuGame){.variant = v, .seed = 7, .position = fen, .hooks = &s->k});
}

static void scripted(Scripted *s, const char *name, const char *text, const char *fen)
{
    scripted_in(s, "orthodox", name, text, fen);
}

static void scripted_close(Scripted *s)
{
    game_free(s->g);
    house_free(s->h);
    free(s->text);
}

/* The turn under way is side's (0 white, 1 black), number, made of moves,
 * and the variant's side to move is that side. */
static void assert_turn(const Game *g, int side, int number, int made, int moves)
{
    const GameTurn *t = game_turn(g);
    if (t->side != side || t->number != number || t->made != made || t->moves != moves ||
        game_side_to_move(g) != side)
        fail_msg("turn: side %d number %d made %d of %d (side to move %d); wanted side %d "
                 "number %d made %d of %d",
                 t->side, t->number, t->made, t->moves, game_side_to_move(g), side, number,
                 made, moves);
}

/* ---- The schedules played ------------------------------------------------ */

/* TURN-1, TURN-2, TURN-5: Marseillais -- White's first turn one move, then
 * two moves a turn for each side. */
static void test_turn1_marseillais_two_moves_a_turn(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/marseillais.lua", NULL, NULL);
    assert_turn(s.g, 0, 1, 0, 1);
    tu_play_line(s.g, "e4");
    assert_turn(s.g, 1, 2, 0, 2);
    tu_play_line(s.g, "e5");
    assert_turn(s.g, 1, 2, 1, 2); /* Black moves again */
    /* the en passant target of Black's double step is gone for Black
     * itself (TURN-2) ... */
    char *pos = tu_position(s.g);
    assert_has(pos, " b KQkq - ");
    free(pos);
    tu_play_line(s.g, "Nc6");
    assert_turn(s.g, 0, 3, 0, 2);
    tu_play_line(s.g, "Nf3 d4");
    assert_turn(s.g, 1, 4, 0, 2);
    /* ... and White's last move's is Black's, for one move (TURN-7) */
    pos = tu_position(s.g);
    assert_has(pos, " b KQkq d3 ");
    free(pos);
    scripted_close(&s);
}

/* TURN-2: a move that gives check ends the turn in orthodox chess: the
 * check is answered at once. */
static void test_turn2_check_ends_the_turn(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/marseillais.lua", NULL, NULL);
    tu_play_line(s.g, "e4 f6 a6");
    assert_turn(s.g, 0, 3, 0, 2);
    tu_play_line(s.g, "Qh5+");
    /* White's turn ends after one move: Black answers the check */
    assert_turn(s.g, 1, 4, 0, 2);
    tu_play_line(s.g, "g6");
    assert_turn(s.g, 1, 4, 1, 2);
    scripted_close(&s);
}

/* TURN-1: Monster chess -- the script's start, White two moves a turn,
 * Black one. */
static void test_turn1_monster(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/monster.lua", NULL, NULL);
    char *pos = tu_position(s.g);
    assert_string_equal(pos, "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1");
    free(pos);
    assert_turn(s.g, 0, 1, 0, 2);
    tu_play_line(s.g, "e4");
    assert_turn(s.g, 0, 1, 1, 2);
    tu_play_line(s.g, "d4");
    assert_turn(s.g, 1, 2, 0, 1);
    tu_play_line(s.g, "e5");
    assert_turn(s.g, 0, 3, 0, 2);
    scripted_close(&s);
}

/* The schedule composes: Marseillais on Échecs ambigus, where a move is a
 * naming and the opponent's choice (here each naming has one candidate,
 * so the choice is made with it), and no check ends a turn (AMBI-4). */
static void test_turn1_marseillais_composes_with_ambigus(void **state)
{
    (void)state;
    Scripted s;
    scripted_in(&s, "ambigus", "scripts/marseillais.lua", NULL, NULL);
    assert_turn(s.g, 0, 1, 0, 1);
    tu_play(s.g, 0, "e4");
    assert_turn(s.g, 1, 2, 0, 2);
    tu_play(s.g, 1, "e5");
    assert_turn(s.g, 1, 2, 1, 2);
    tu_play(s.g, 1, "d5");
    assert_turn(s.g, 0, 3, 0, 2);
    scripted_close(&s);
}

/* TURN-1, TURN-5: progressive chess -- turns of 1, 2, 3, 4 moves. */
static void test_turn1_progressive_one_two_three(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/progressive.lua", NULL, NULL);
    assert_turn(s.g, 0, 1, 0, 1);
    tu_play_line(s.g, "e4");
    assert_turn(s.g, 1, 2, 0, 2);
    tu_play_line(s.g, "e5 Nc6");
    assert_turn(s.g, 0, 3, 0, 3);
    tu_play_line(s.g, "d4 Nf3");
    assert_turn(s.g, 0, 3, 2, 3);
    tu_play_line(s.g, "Bc4");
    assert_turn(s.g, 1, 4, 0, 4);
    /* TURN-2: Black's check on its second move ends its turn of four */
    tu_play_line(s.g, "exd4 Bb4+");
    assert_turn(s.g, 0, 5, 0, 5);
    scripted_close(&s);
}

/* TURN-1: balanced alternation W B B W W ...; double-move chess two moves
 * from White's first turn on. */
static void test_turn1_balanced_and_double_move(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/balanced.lua", NULL, NULL);
    static const int ORDER[] = {0, 1, 1, 0, 0, 1, 1, 0};
    static const char *const MOVES[] = {"e4", "e5", "Nc6", "Nf3", "Bc4", "Nf6", "Be7", "O-O"};
    for (int i = 0; i < 8; i++) {
        if (game_side_to_move(s.g) != ORDER[i])
            fail_msg("balanced: move %d by side %d, wanted %d", i + 1,
                     game_side_to_move(s.g), ORDER[i]);
        tu_play_line(s.g, MOVES[i]);
    }
    scripted_close(&s);
    scripted(&s, "scripts/double_move.lua", NULL, NULL);
    assert_turn(s.g, 0, 1, 0, 2);
    tu_play_line(s.g, "e4 d4");
    assert_turn(s.g, 1, 2, 0, 2);
    scripted_close(&s);
}

/* TURN-1: t.capture -- Black moves again after each capture, White never. */
static void test_turn1_black_extra_capture(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "scripts/black_extra_capture.lua", NULL, NULL);
    tu_play_line(s.g, "e4 d5 exd5");
    assert_turn(s.g, 1, 4, 0, 1); /* White's capture: no extra move */
    tu_play_line(s.g, "Qxd5");
    assert_turn(s.g, 1, 4, 1, 2); /* Black's: Black again */
    tu_play_line(s.g, "Qe6+");
    assert_turn(s.g, 0, 5, 0, 1);
    tu_play_line(s.g, "Be2 Qxe2+");
    /* a capture that gives check: the turn cannot go on (TURN-2) */
    assert_turn(s.g, 0, 7, 0, 1);
    scripted_close(&s);
}

/* ---- Perft against a counter of our own ---------------------------------- */

/* A schedule as the docs state it: the moves of turn `number` of side,
 * asked with made moves made, check (the side to move next is in check)
 * and capture (the last move took a piece) -- the scripts' turn
 * functions in C. */
typedef int (*Plan)(int side, int number, int made, int check, int capture);

static int plan_marseillais(int side, int number, int made, int check, int capture)
{
    (void)side, (void)capture;
    return number == 1 ? 1 : made > 0 && check ? made : 2;
}

static int plan_monster(int side, int number, int made, int check, int capture)
{
    (void)number, (void)made, (void)check, (void)capture;
    return side == 0 ? 2 : 1;
}

static int plan_progressive(int side, int number, int made, int check, int capture)
{
    (void)side, (void)capture;
    return made > 0 && check ? made : number < 64 ? number : 64;
}

static int plan_balanced(int side, int number, int made, int check, int capture)
{
    (void)side, (void)made, (void)check, (void)capture;
    return number == 1 ? 1 : 2;
}

static int plan_double(int side, int number, int made, int check, int capture)
{
    (void)side, (void)number, (void)made, (void)check, (void)capture;
    return 2;
}

static int plan_black_extra(int side, int number, int made, int check, int capture)
{
    (void)number, (void)check;
    return side == 1 && capture ? made + 1 : 1;
}

/* The pieces of a FEN's placement field. */
static int fen_pieces(const char *fen)
{
    int n = 0;
    for (; *fen && *fen != ' '; fen++)
        n += (*fen >= 'a' && *fen <= 'z') || (*fen >= 'A' && *fen <= 'Z');
    return n;
}

/* fen with its side to move and en passant fields replaced. */
static void fen_turn(const char *fen, int side, char *out, size_t n)
{
    char f[6][96];
    int k = sscanf(fen, "%95s %95s %95s %95s %95s %95s", f[0], f[1], f[2], f[3], f[4], f[5]);
    assert_int_equal(k, 6);
    snprintf(out, n, "%s %s %s - %s %s", f[0], side ? "b" : "w", f[2], f[4], f[5]);
}

/* The leaves below fen (its side to move being the turn's, made of moves
 * made), counted with plain orthodox games: after a move, while moves
 * remain and the opponent is not in check (ORTH-6), the same side moves
 * again from the FEN with its side rewritten; else the next turn. */
static uint64_t counted(const char *fen, int depth, Plan plan, int number, int made,
                        int moves)
{
    if (depth == 0)
        return 1;
    Game *g = tu_orthodox(fen);
    ActionList l;
    al_init(&l);
    assert_int_equal(game_legal_play(g, &l), 0);
    uint64_t n = 0;
    int side = game_side_to_move(g);
    for (int i = 0; i < l.n && depth > 1; i++) {
        Game *c = game_clone(g);
        Error e;
        assert_int_equal(game_apply(c, &l.v[i], &e), 0);
        StrBuf b = STRBUF_INIT;
        game_position(c, &b);
        Status s;
        game_status(c, &s);
        int check = (int)((s.in_check >> (side ^ 1)) & 1u);
        int capture = fen_pieces(sb_str(&b)) < fen_pieces(fen);
        int want = plan(side, number, made + 1, check, capture);
        char next[400];
        if (made + 1 < want && !check) {
            fen_turn(sb_str(&b), side, next, sizeof next);
            n += counted(next, depth - 1, plan, number, made + 1, want);
        } else {
            snprintf(next, sizeof next, "%s", sb_str(&b));
            n += counted(next, depth - 1, plan, number + 1, 0,
                         plan(side ^ 1, number + 1, 0, check, capture));
        }
        sb_free(&b);
        game_free(c);
    }
    if (depth == 1)
        n = (uint64_t)l.n;
    (void)moves;
    al_free(&l);
    game_free(g);
    return n;
}

typedef struct PerftCase {
    const char *script, *fen;
    Plan plan;
    uint64_t want[4];
} PerftCase;

/* TURN-1..TURN-5 and the "perft counts every action as a ply":
 * the figures of docs/HOUSE-RULES.md "8. Turns", from the counter here
 * too.  Marseillais: 20 (White's one move), 20 x 20 (Black's first), and
 * Black's second move is Black's count in a position one White and one
 * Black move deep, which colour symmetry makes orthodox perft 3, 8902.
 * Monster: White's King has d1 and f1, each pawn one or two steps: 10. */
static void test_turn_perft_from_the_start(void **state)
{
    (void)state;
    static const PerftCase CASES[] = {
        {"scripts/marseillais.lua", TU_FEN_START, plan_marseillais, {20, 400, 8902, 197281}},
        {"scripts/monster.lua", "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1",
         plan_monster, {10, 99, 1976, 19902}},
        {"scripts/progressive.lua", TU_FEN_START, plan_progressive, {20, 400, 8902, 197281}},
        {"scripts/balanced.lua", TU_FEN_START, plan_balanced, {20, 400, 8902, 197281}},
        {"scripts/double_move.lua", TU_FEN_START, plan_double, {20, 445, 8864, 196646}},
        {"scripts/black_extra_capture.lua", TU_FEN_START, plan_black_extra,
         {20, 400, 8902, 197281}},
    };
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const PerftCase *p = &CASES[c];
        Scripted s;
        scripted(&s, p->script, NULL, NULL);
        for (int d = 1; d <= 4; d++) {
            uint64_t got = game_perft(s.g, d);
            uint64_t ours = counted(p->fen, d, p->plan, 1, 0, p->plan(0, 1, 0, 0, 0));
            if (got != p->want[d - 1] || ours != p->want[d - 1])
                fail_msg("%s depth %d: perft %llu, our counter %llu, wanted %llu",
                         p->script, d, (unsigned long long)got, (unsigned long long)ours,
                         (unsigned long long)p->want[d - 1]);
        }
        scripted_close(&s);
    }
}

/* The same schedules from positions where checks, captures and mates come
 * early (Kiwipete both ways, position 3, a Black attack on f2): perft
 * against the counter, no figure written here. */
static void test_turn_perft_against_the_counter(void **state)
{
    (void)state;
    static const char *const FENS[] = {
        TU_FEN_KIWIPETE,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        TU_FEN_POS3,
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR b KQkq - 3 3",
    };
    static const struct {
        const char *script;
        Plan plan;
        int depth;
    } S[] = {
        {"scripts/marseillais.lua", plan_marseillais, 3},
        {"scripts/progressive.lua", plan_progressive, 3},
        {"scripts/balanced.lua", plan_balanced, 3},
        {"scripts/double_move.lua", plan_double, 3},
        {"scripts/black_extra_capture.lua", plan_black_extra, 3},
    };
    for (size_t f = 0; f < sizeof FENS / sizeof FENS[0]; f++)
        for (size_t i = 0; i < sizeof S / sizeof S[0]; i++) {
            Scripted s;
            scripted(&s, S[i].script, NULL, FENS[f]);
            for (int d = 1; d <= S[i].depth; d++) {
                uint64_t got = game_perft(s.g, d);
                uint64_t ours = counted(FENS[f], d, S[i].plan, 1, 0,
                                        S[i].plan(game_side_to_move(s.g), 1, 0, 0, 0));
                if (got != ours)
                    fail_msg("%s from %s depth %d: perft %llu, our counter %llu",
                             S[i].script, FENS[f], d, (unsigned long long)got,
                             (unsigned long long)ours);
            }
            scripted_close(&s);
        }
}

/* ---- Undo and records in the middle of a turn ---------------------------- */

/* Undo replays the schedule: a game taken back to the middle of a turn
 * equals the game played to that point (turn, position, messages). */
static void test_turn_undo_mid_turn(void **state)
{
    (void)state;
    Scripted a, b;
    scripted(&a, "scripts/marseillais.lua", NULL, NULL);
    scripted(&b, "scripts/marseillais.lua", NULL, NULL);
    tu_play_line(a.g, "e4 e5 Nc6 Nf3");
    tu_play_line(b.g, "e4 e5 Nc6 Nf3 Bc4");
    Error e;
    assert_int_equal(game_undo(b.g, 1, &e), 0);
    assert_turn(b.g, 0, 3, 1, 2);
    assert_true(game_same(a.g, b.g));
    assert_int_equal(game_undo(b.g, 2, &e), 0);
    assert_turn(b.g, 1, 2, 1, 2);
    scripted_close(&a);
    scripted_close(&b);
}

/* A record saved in the middle of a turn loads with the turn where it
 * was: Black, after its first move of two, moves again. */
static void test_turn_record_mid_turn(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar_turns_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[256], input[256];
    snprintf(input, sizeof input, "e4\ne5\nsave %s\n", path);
    TuRun r;
    tu_run(&r, "run orthodox --rules scripts/marseillais.lua", input);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "house rule: black moves again");
    tu_run_free(&r);
    snprintf(args, sizeof args, "run orthodox --load %s --trust-rules", path);
    tu_run(&r, args, "status\nNc6\nstatus\nNf3\nstatus\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "black to move (move 2 of 2 this turn) (2 actions played)\n"
                      "black: Nc6 (b8c6)\n"
                      "message to white, black: black plays Nc6\n"
                      "white to move (move 1 of 2 this turn)\n"
                      "white to move (move 1 of 2 this turn) (3 actions played)\n"
                      "white: Nf3 (g1f3)\n"
                      "message to white, black: white plays Nf3\n"
                      "message to white, black: house rule: white moves again\n");
    tu_run_free(&r);
    unlink(path);
}

/* ---- Hostile schedules --------------------------------------------------- */

typedef struct Hostile {
    const char *body, *want;
} Hostile;

/* TURN-1: an answer that is not 1..64 or {moves=, duck=} is the script's
 * failure, named with its line and what it returned; the move that met it
 * is refused and the game is left exactly as it was.  At the start the
 * game is not made. */
static void test_turn1_hostile_turn_refused(void **state)
{
    (void)state;
    static const Hostile BAD[] = {
        {"return 0", "bad.lua:1: turn returned 0 (expected a number of moves from 1 to 64"},
        {"return 65", "turn returned 65"},
        {"return 1.5", "turn returned 1.5"},
        {"return \"two\"", "turn returned a string"},
        {"return {moves = 2, duck = 1}", "turn returned a table without moves"},
        {"return {move = 2}", "turn returned a table without moves"},
        {"return nil", "turn returned a nil"},
        {"error(\"no\")", "house rule bad.lua, turn: bad.lua:3: no"},
        {"while true do end", "instruction budget exceeded"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char text[512];
        /* turn 1 is planned well; the first answer after a move is bad */
        snprintf(text, sizeof text,
                 "rule { name = \"Bad\", turn = function(game, t)\n"
                 "  if t.made == 0 and t.number == 1 then return 2 end\n"
                 "  %s\n"
                 "end }\n",
                 BAD[i].body);
        Scripted s;
        scripted(&s, "bad.lua", text, NULL);
        Game *before = game_clone(s.g);
        TuSnap snap;
        tu_snap_take(s.g, &snap);
        Error e;
        if (game_play(s.g, 0, "e4", &e) == 0)
            fail_msg("%s: e4 was accepted", BAD[i].body);
        assert_has(e.msg, BAD[i].want);
        assert_has(game_hook_error(s.g), BAD[i].want);
        tu_snap_check(s.g, &snap);
        assert_true(game_same(before, s.g));
        game_free(before);
        scripted_close(&s);

        /* the same answer at the start: no game */
        snprintf(text, sizeof text,
                 "rule { name = \"Bad\", turn = function(game, t)\n"
                 "  %s\n"
                 "end }\n",
                 BAD[i].body);
        HouseSource src = {"bad.lua", text, strlen(text)};
        House *h = house_load(tu_variant("orthodox"), 0, &src, 1, NULL, &e);
        assert_non_null(h);
        GameHooks k = house_hooks(h);
        GameConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.variant = tu_variant("orthodox");
        Game *g = game_new_hooked(&cfg, &k, &e);
        assert_null(g);
        assert_has(e.msg, i == 0 ? "bad.lua:1: turn returned 0" : "turn");
        house_free(h);
    }
}

/* rule{turn=} that is not a function is refused at load, naming the
 * field; with several scripts the last with `turn` plans the turns. */
static void test_turn_field_checked_and_last_stands(void **state)
{
    (void)state;
    Error e;
    const char *bad = "rule { name = \"B\", turn = 2 }\n";
    HouseSource src = {"b.lua", bad, strlen(bad)};
    assert_null(house_load(tu_variant("orthodox"), 0, &src, 1, NULL, &e));
    assert_has(e.msg, "b.lua");
    assert_has(e.msg, "rule: turn: expected a function, got a number");

    const char *two = "rule { name = \"Two\", turn = function() return 2 end }\n";
    const char *three = "rule { name = \"Three\", turn = function() return 3 end }\n";
    HouseSource both[2] = {{"two.lua", two, strlen(two)}, {"three.lua", three, strlen(three)}};
    House *h = house_load(tu_variant("orthodox"), 0, both, 2, NULL, &e);
    assert_non_null(h);
    GameHooks k = house_hooks(h);
    Game *g = tu_game(&(TuGame){.hooks = &k});
    assert_turn(g, 0, 1, 0, 3);
    game_free(g);
    house_free(h);
}

/* game:turn() gives the turn under way to any hook; nil without one. */
static void test_turn_game_turn_in_lua(void **state)
{
    (void)state;
    Scripted s;
    scripted(&s, "show.lua",
             "rule { name = \"Show\", turn = function() return 2 end,\n"
             "  veto = function(game, action)\n"
             "    local t = game:turn()\n"
             "    if t.made == 1 and t.left == 1 and t.moves == 2 and t.number == 1\n"
             "       and t.side == 'white' and not t.duck and action.text == 'a2a3' then\n"
             "      return 'second move of turn 1: no a3'\n"
             "    end\n"
             "  end }\n",
             NULL);
    tu_play_line(s.g, "e4");
    tu_assert_refused(s.g, "a3", "second move of turn 1: no a3");
    tu_play_line(s.g, "h3");
    scripted_close(&s);
    /* without a schedule: nil */
    scripted(&s, "none.lua",
             "rule { name = \"None\", veto = function(game, action)\n"
             "  if game:turn() ~= nil then return 'a turn' end end }\n",
             NULL);
    tu_play_line(s.g, "e4 e5");
    scripted_close(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_turn1_marseillais_two_moves_a_turn),
        cmocka_unit_test(test_turn2_check_ends_the_turn),
        cmocka_unit_test(test_turn1_monster),
        cmocka_unit_test(test_turn1_marseillais_composes_with_ambigus),
        cmocka_unit_test(test_turn1_progressive_one_two_three),
        cmocka_unit_test(test_turn1_balanced_and_double_move),
        cmocka_unit_test(test_turn1_black_extra_capture),
        cmocka_unit_test(test_turn_perft_from_the_start),
        cmocka_unit_test(test_turn_perft_against_the_counter),
        cmocka_unit_test(test_turn_undo_mid_turn),
        cmocka_unit_test(test_turn_record_mid_turn),
        cmocka_unit_test(test_turn1_hostile_turn_refused),
        cmocka_unit_test(test_turn_field_checked_and_last_stands),
        cmocka_unit_test(test_turn_game_turn_in_lua),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
