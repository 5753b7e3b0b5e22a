/*
 * test_cli_house.c -- house rules (issue 11, docs/HOUSE-RULES.md) at
 * the interfaces a person uses: `--rules FILE` on perft, legal, run and
 * play, `chessvar check`, `chessvar rules VARIANT --rules FILE`, and the
 * example scripts of scripts/ each shown acting (a game, a count, the
 * rules text).  The Lua layer itself is tests/test_house.c's.
 *
 * Invariant: every expected figure is computed here by other means (the
 * engine without scripts, counting the actions a rule forbids), never
 * copied from the program's own output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

static void assert_has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay);
}

/* Leaves of the orthodox tree at depth 3 whose last move is a Queen's
 * (its record text starts with Q): what "no queen moves before move 5"
 * removes at depth 3 (no Queen can move at ply 1 nor 2 from the start). */
static uint64_t queen_leaves_at_3(void)
{
    Game *g = tu_orthodox(NULL);
    ActionList l1 = ACTIONLIST_INIT, l2 = ACTIONLIST_INIT, l3 = ACTIONLIST_INIT;
    uint64_t n = 0;
    game_legal_play(g, &l1);
    for (int i = 0; i < l1.n; i++) {
        Game *a = game_clone(g);
        assert_int_equal(game_apply(a, &l1.v[i], NULL), 0);
        al_clear(&l2);
        game_legal_play(a, &l2);
        for (int j = 0; j < l2.n; j++) {
            Game *b = game_clone(a);
            assert_int_equal(game_apply(b, &l2.v[j], NULL), 0);
            al_clear(&l3);
            game_legal_play(b, &l3);
            for (int k = 0; k < l3.n; k++) {
                StrBuf t = STRBUF_INIT;
                game_format(b, &l3.v[k], FMT_RECORD, &t);
                n += sb_str(&t)[0] == 'Q';
                sb_free(&t);
            }
            game_free(b);
        }
        game_free(a);
    }
    al_free(&l1);
    al_free(&l2);
    al_free(&l3);
    game_free(g);
    return n;
}

/* Capability 4 (vetoes) through perft and legal: the count drops by the
 * Queen moves, the legal list lacks them. */
static void test_house4_veto_in_perft_and_legal(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    const uint64_t plain = game_perft(g, 3);
    game_free(g);
    const uint64_t queen = queen_leaves_at_3();
    assert_true(queen > 0);
    TuRun r;
    tu_run(&r, "perft orthodox --depth 3 --rules scripts/no_queen_before_5.lua", NULL);
    char want[64];
    snprintf(want, sizeof want, "Nodes searched: %llu\n",
             (unsigned long long)(plain - queen));
    assert_string_equal(r.out, want);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run(&r, "legal orthodox --fen 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w "
            "KQkq - 0 2' --rules scripts/no_queen_before_5.lua", NULL);
    assert_has(r.out, "g1f3\n");
    assert_true(strstr(r.out, "d1h5") == NULL);
    assert_true(strstr(r.out, "d1e2") == NULL);
    tu_run_free(&r);
    tu_run(&r, "legal orthodox --fen 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w "
            "KQkq - 0 2'", NULL);
    assert_has(r.out, "d1h5\n");
    tu_run_free(&r);
}

/* Capability 4 in play: the vetoed move is refused with the script's
 * reason; the game goes on; the record carries the rule, so the loaded
 * game (without the script file) still forbids the queen. */
static void test_house4_veto_reason_in_batch(void **state)
{
    (void)state;
    TuRun r;
    char rec[] = "/tmp/chessvar_house_XXXXXX";
    int fd = mkstemp(rec);
    assert_true(fd >= 0);
    close(fd);
    char input[128];
    snprintf(input, sizeof input, "e4\ne5\nQh5\nNf3\nsave %s\n", rec);
    tu_run(&r, "run orthodox --rules scripts/no_queen_before_5.lua", input);
    assert_has(r.out, "error: Qh5 is forbidden: no queen moves before move 5\n");
    assert_has(r.out, "white: Nf3 (g1f3)\n");
    assert_has(r.out, "saved to");
    assert_int_equal(r.status, 1); /* Qh5 failed */
    tu_run_free(&r);
    char args[128];
    snprintf(args, sizeof args, "run --load %s --trust-rules", rec); /* issue 20 point 6 */
    tu_run(&r, args, "Nc6\nQe2\n");
    assert_has(r.out, "error: Qe2 is forbidden: no queen moves before move 5\n");
    tu_run_free(&r);
    unlink(rec);
}

/* Capability 5 (reactions end the game): King of the Hill in batch and in
 * the terminal, whose title names the rule. */
static void test_house5_king_of_the_hill(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run orthodox --rules scripts/king_of_the_hill.lua",
        "e4\na6\nKe2\na5\nKe3\na4\nKd4\nstatus\n");
    assert_has(r.out, "game over: 1-0, white wins (white's King reached the hill)");
    tu_run_free(&r);
    tu_run(&r, "play orthodox --ascii --rules scripts/king_of_the_hill.lua", "quit\nyes\n");
    assert_has(r.out, "Orthodox chess, with house rules: King of the Hill. Type 'help'");
    tu_run_free(&r);
}

/* `chessvar check`: clean scripts say ok and exit 0; a broken one is
 * named with file:line and exit 1, and does not stop the others. */
static void test_house_check_command(void **state)
{
    (void)state;
    char bad[] = "/tmp/chessvar_house_bad_XXXXXX";
    int fd = mkstemp(bad);
    assert_true(fd >= 0);
    const char *text = "rule {\n  name = 'broken',\n  veto = function(g, a)\n"
                       "    if a.kind == then return 'x' end\n  end,\n}\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    TuRun r;
    tu_run(&r, "check scripts/king_of_the_hill.lua scripts/no_queen_before_5.lua", NULL);
    assert_has(r.out, "scripts/king_of_the_hill.lua: ok (King of the Hill)\n");
    assert_has(r.out, "scripts/no_queen_before_5.lua: ok (No queen moves before move 5)\n");
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    char args[256];
    snprintf(args, sizeof args, "check %s scripts/king_of_the_hill.lua", bad);
    tu_run(&r, args, NULL);
    char where[64];
    snprintf(where, sizeof where, "%s:4:", bad);
    assert_has(r.out, where);
    assert_has(r.out, "scripts/king_of_the_hill.lua: ok");
    assert_int_equal(r.status, 1);
    tu_run_free(&r);
    /* not for orthodox: checked against the variant its variants field
     * names (issue 24: the scripts of scripts/variants are fairy's) ... */
    tu_run(&r, "check scripts/tile_six_orthogonal.lua scripts/variants/atomic.lua", NULL);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "scripts/tile_six_orthogonal.lua: ok (Six orthogonal pawns) for tile\n");
    assert_has(r.out, "scripts/variants/atomic.lua: ok (Atomic chess) for fairy\n");
    tu_run_free(&r);
    /* ... unless --variant names another one: the refusal names its variants */
    tu_run(&r, "check scripts/tile_six_orthogonal.lua --variant orthodox", NULL);
    assert_int_equal(r.status, 1);
    assert_has(r.out, "this script is not for orthodox: its variants field names tile");
    tu_run_free(&r);
    tu_run(&r, "check scripts/tile_six_orthogonal.lua --variant tile", NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    tu_run(&r, "check scripts", NULL); /* read as records are: regular files only */
    assert_string_equal(r.out, "scripts is a directory: a script is a file\n");
    assert_int_equal(r.status, 1);
    tu_run_free(&r);
    tu_run(&r, "perft orthodox --depth 1 --rules /nonexistent/x.lua", NULL);
    assert_int_equal(r.status, 2);
    assert_has(r.err, "/nonexistent/x.lua");
    tu_run_free(&r);
    unlink(bad);
}

/* `rules VARIANT --rules FILE`: the variant's rules with the scripts'
 * parameter values, then each script's name and description.  The
 * parameter scripts of scripts/ (MASQ-11, AMBI-6, ECHQ-9) show acting. */
static void test_house1_parameter_scripts_in_rules_text(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "rules masques --rules scripts/masques_allin_31.lua", NULL);
    assert_has(r.out, "allin=31");
    assert_has(r.out, "House rule 1: All-in at 31 (scripts/masques_allin_31.lua)\n");
    tu_run_free(&r);
    tu_run(&r, "rules ambigus --rules scripts/ambigus_mate.lua", NULL);
    assert_has(r.out, "mate=on");
    tu_run_free(&r);
    /* ECHQ-9: a takeover at move 2 is allowed by default, not with the script */
    const char *moves = "e4\nd5\nexd5\nNf6\nas black takeover\n";
    tu_run(&r, "run echiquete", moves);
    assert_has(r.out, "black takes over the merged pieces");
    tu_run_free(&r);
    tu_run(&r, "run echiquete --rules scripts/echiquete_takeover_20.lua", moves);
    assert_true(strstr(r.out, "black takes over") == NULL);
    assert_has(r.out, "error: ");
    tu_run_free(&r);
}

/* TILE-1, TILE-5 through a script: six pawns in every hand, pawns step
 * orthogonally (a pawn alone beside the first piece has 3 steps, not 5). */
static void test_house1_tile_script(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run tile --rules scripts/tile_six_orthogonal.lua", "position\n");
    assert_has(r.out, "hand:w=KQRRBBNNPPPPPP,b=KQRRBBNNPPPPPP turn:w");
    tu_run_free(&r);
    tu_run(&r, "legal tile --fen 'wK0,0 wP1,0 bK3,0 turn:w' --rules "
            "scripts/tile_six_orthogonal.lua", NULL);
    assert_true(strstr(r.out, "1,0-2,1") == NULL); /* no diagonal step */
    tu_run_free(&r);
}

/* Capability 3: Chess960 gives exactly 960 starts, each with the bishops
 * on both colours and the King between the Rooks, mirrored for black. */
static void test_house3_chess960_has_960_starts(void **state)
{
    (void)state;
    char *text = tu_read_file("scripts/chess960.lua");
    assert_non_null(text);
    HouseSource src = {"scripts/chess960.lua", text, strlen(text)};
    Error e = {""};
    House *h = house_load(tu_variant("orthodox"), 0, &src, 1, NULL, &e);
    if (!h)
        fail_msg("%s", e.msg);
    GameHooks hooks = house_hooks(h);
    char seen[1000][9];
    int nseen = 0;
    for (uint64_t seed = 1; seed <= 20000 && nseen < 960; seed++) {
        GameConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.variant = tu_variant("orthodox");
        cfg.seed = seed;
        Game *g = game_new_hooked(&cfg, &hooks, &e);
        if (!g)
            fail_msg("seed %llu: %s", (unsigned long long)seed, e.msg);
        char *pos = tu_position(g);
        char back[9], front[9];
        memcpy(back, pos, 8);
        back[8] = 0;
        const char *last = strrchr(strtok(pos, " "), '/') + 1;
        memcpy(front, last, 8);
        front[8] = 0;
        for (int i = 0; i < 8; i++) /* black mirrors white */
            assert_int_equal(back[i], front[i] - 'A' + 'a');
        int b0 = -1, b1 = -1, r0 = -1, k = -1, r1 = -1;
        for (int i = 0; i < 8; i++) {
            if (front[i] == 'B')
                *(b0 < 0 ? &b0 : &b1) = i;
            if (front[i] == 'R')
                *(r0 < 0 ? &r0 : &r1) = i;
            if (front[i] == 'K')
                k = i;
        }
        assert_true((b0 + b1) % 2 == 1); /* both colours */
        assert_true(r0 < k && k < r1);
        int j = 0;
        while (j < nseen && strcmp(seen[j], front))
            j++;
        if (j == nseen)
            memcpy(seen[nseen++], front, 9);
        free(pos);
        game_free(g);
    }
    assert_int_equal(nseen, 960);
    house_free(h);
    free(text);
}

/* Capability 5 again: three-check counted from the history. */
static void test_house5_three_check(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run orthodox --rules scripts/three_check.lua",
        "e4\ne5\nBc4\nNc6\nBxf7+\nKxf7\nQh5+\ng6\nQxg6+\nstatus\n");
    assert_has(r.out, "game over: 1-0, white wins (white gave check three times)");
    tu_run_free(&r);
}

/* Leaves at depth `depth` of g where no Queen moves in the first `banned`
 * plies: counted without hooks, by the record texts. */
static uint64_t count_no_queen(const Game *g, int depth, int banned)
{
    if (depth == 0)
        return 1;
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        StrBuf t = STRBUF_INIT;
        game_format(g, &l.v[i], FMT_RECORD, &t);
        const int queen = sb_str(&t)[0] == 'Q';
        sb_free(&t);
        if (queen && banned > 0)
            continue;
        Game *c = game_clone(g);
        assert_int_equal(game_apply(c, &l.v[i], NULL), 0);
        n += count_no_queen(c, depth - 1, banned - 1);
        game_free(c);
    }
    al_free(&l);
    return n;
}

/* Capability 4: a veto that depends on the move number is judged at the
 * position perft reaches, not at perft's root: from ply 7, "no queen
 * moves before move 5" (the first eight plies) bans Queen moves at plies
 * 7 and 8 and allows them at ply 9. */
static void test_house4_veto_move_number_in_perft(void **state)
{
    (void)state;
    char *text = tu_read_file("scripts/no_queen_before_5.lua");
    assert_non_null(text);
    HouseSource src = {"scripts/no_queen_before_5.lua", text, strlen(text)};
    Error e = {""};
    House *h = house_load(tu_variant("orthodox"), 0, &src, 1, NULL, &e);
    assert_non_null(h);
    GameHooks hooks = house_hooks(h);
    Game *g = tu_game(&(TuGame){.hooks = &hooks});
    Game *plain = tu_orthodox(NULL);
    const char *line[] = {"e4", "e5", "d4", "d5", "c4", "c5"};
    for (int i = 0; i < 6; i++) {
        tu_play(g, game_to_act(g), line[i]);
        tu_play(plain, game_to_act(plain), line[i]);
    }
    const uint64_t want = count_no_queen(plain, 3, 2);
    assert_true(want < game_perft(plain, 3));
    assert_true(want > count_no_queen(plain, 3, 3)); /* ply 9 Queen moves count */
    assert_int_equal(game_perft(g, 3), want);
    assert_int_equal(game_perft_generic(g, 3), want);
    game_free(plain);
    game_free(g);
    house_free(h);
    free(text);
}

/* HOUSE-5 in perft: with a reaction, perft plays through whole games,
 * so a game King of the Hill ends has no moves below it.  White's King on
 * e3 has 8 moves; Black has 5 (Ka7 Kb7 Kb8 h6 h5): 40 without the rule;
 * Kd4 and Ke4 reach the hill, leaving 6 x 5 = 30. */
static void test_house5_reaction_acts_in_perft(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "perft orthodox --depth 2 --fen \"k7/7p/8/8/8/4K3/8/8 w - - 0 1\"", NULL);
    assert_has(r.out, "Nodes searched: 40\n");
    tu_run_free(&r);
    tu_run(&r, "perft orthodox --depth 2 --fen \"k7/7p/8/8/8/4K3/8/8 w - - 0 1\" "
               "--rules scripts/king_of_the_hill.lua --divide", NULL);
    assert_has(r.out, "e3d4: 0\n");
    assert_has(r.out, "e3e4: 0\n");
    assert_has(r.out, "e3f4: 5\n");
    assert_has(r.out, "Nodes searched: 30\n");
    tu_run_free(&r);
}

/* Issue 11: the menu offers the scripts of scripts/ that fit the chosen
 * variant (not another variant's), asks again after a wrong answer, and
 * the game's title names the rules chosen; with no script for the
 * variant it does not ask. */
/* HOUSE-5 edits at the command line: atomic.lua explodes in a batch game
 * (the position after Nxe5... shows the blast) and in perft 2 from
 * Kiwipete: 2039 plain, 1939 with explosions (the figure tests/
 * test_edit_chess.c counts independently, applying the blast itself). */
static void test_house5_atomic_script(void **state)
{
    (void)state;
    TuRun r;
    const char *kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    char args[256];
    snprintf(args, sizeof args, "perft orthodox --depth 2 --fen \"%s\"", kiwi);
    tu_run(&r, args, NULL);
    assert_has(r.out, "Nodes searched: 2039\n");
    tu_run_free(&r);
    snprintf(args, sizeof args, "perft orthodox --depth 2 --fen \"%s\" --rules "
             "scripts/atomic.lua", kiwi);
    tu_run(&r, args, NULL);
    assert_has(r.out, "Nodes searched: 1939\n");
    tu_run_free(&r);
    /* 1. e4 d5 2. exd5: the pawn on d5 explodes with the capturer; the
     * Queen on d8 and the pawns around stay (pawns do not explode, d8 is
     * not next to d5). */
    tu_run(&r, "run orthodox --rules scripts/atomic.lua", "e4\nd5\nexd5\nposition\n");
    assert_has(r.out, "house rule: ");
    assert_has(r.out, "rnbqkbnr/ppp1pppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    tu_run_free(&r);
}

static void copy_script(const char *dir, const char *name)
{
    char src[128], dst[256];
    snprintf(src, sizeof src, "scripts/%s", name);
    snprintf(dst, sizeof dst, "%s/%s", dir, name);
    char *text = tu_read_file(src);
    assert_non_null(text);
    FILE *f = fopen(dst, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
}

static void test_menu_offers_scripts(void **state)
{
    (void)state;
    TuRun r;
    /* The real scripts/ beside the program. */
    tu_run(&r, "--ascii", "orthodox\nquit\n");
    assert_has(r.out, "House rules for Orthodox chess (");
    assert_has(r.out, "King of the Hill                   king_of_the_hill.lua\n");
    assert_null(strstr(r.out, "tile_six_orthogonal.lua"));
    tu_run_free(&r);

    /* A directory of our own (CHESSVAR_SCRIPTS): a Tile script and King of
     * the Hill; orthodox is offered only the latter. */
    char dir[] = "/tmp/cvscriptsXXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    copy_script(dir, "king_of_the_hill.lua");
    copy_script(dir, "tile_six_orthogonal.lua");
    setenv("CHESSVAR_SCRIPTS", dir, 1);
    tu_run(&r, "--ascii", "orthodox\n9\n1 1\n1\n\nquit\n");
    assert_has(r.out, "  1  King of the Hill                   king_of_the_hill.lua\n"
                      "House rules (numbers, Enter: none)> 9\n"
                      "'9': type numbers from 1 to 1 separated by spaces, or just Enter "
                      "for none\n");
    assert_null(strstr(r.out, "tile_six_orthogonal.lua"));
    assert_has(r.out, "'1 1': 1 is there twice\n");
    assert_has(r.out, "Orthodox chess, with house rules: King of the Hill. Type 'help'");
    tu_run_free(&r);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", dir,
                 i ? "king_of_the_hill.lua" : "tile_six_orthogonal.lua");
        unlink(path);
    }
    /* No script for the variant: no question. */
    tu_run(&r, "--ascii", "orthodox\n\nquit\n");
    unsetenv("CHESSVAR_SCRIPTS");
    rmdir(dir);
    assert_null(strstr(r.out, "House rules for"));
    assert_has(r.out, "Orthodox chess. Type 'help'");
    tu_run_free(&r);
}

/* ---- Issue 19, point 4: a broken house rule fails loudly, everywhere ---- */

/* A script of tests/house/ whose hook fails, the hook and the error. */
typedef struct Broken {
    const char *file, *hook, *what;
} Broken;

static const Broken BROKEN[] = {
    {"tests/house/h_veto_loop.lua", "veto", "h_veto_loop.lua:1: instruction budget exceeded"},
    {"tests/house/wrong_veto.lua", "veto", "wrong_veto.lua:1: veto returned a number"},
    {"tests/house/react_slip.lua", "react", "react_slip.lua:7: attempt to index a nil value"},
};

/* text names the script, the hook and the error. */
static void assert_broken(const char *text, const Broken *b)
{
    char head[128];
    snprintf(head, sizeof head, "house rule %s, %s: ", b->file, b->hook);
    assert_has(text, head);
    assert_has(text, b->what);
}

/* A failing command still frees what it made: no sanitizer report (the
 * sanitized build's run of the suite). */
static void run_free(TuRun *r)
{
    assert_null(strstr(r->err, "Sanitizer"));
    tu_run_free(r);
}

/* Issue 19, point 4 (HOUSE-4, HOUSE-5): `check` runs the hooks and names
 * the one that fails (exit 1, never "ok"); `legal` and `perft` fail with
 * its error and print no list or count.  A setup that fails is refused
 * the same way. */
static void test_house_broken_check_legal_perft(void **state)
{
    (void)state;
    char args[256];
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        const Broken *b = &BROKEN[i];
        TuRun r;
        snprintf(args, sizeof args, "check %s scripts/king_of_the_hill.lua", b->file);
        tu_run(&r, args, NULL);
        assert_broken(r.out, b);
        assert_has(r.out, "scripts/king_of_the_hill.lua: ok");
        char ok[128];
        snprintf(ok, sizeof ok, "%s: ok", b->file);
        assert_null(strstr(r.out, ok));
        assert_int_equal(r.status, 1);
        run_free(&r);
        snprintf(args, sizeof args, "legal orthodox --rules %s", b->file);
        tu_run(&r, args, NULL);
        if (!strcmp(b->hook, "veto")) { /* a list needs the veto, not the reaction */
            assert_string_equal(r.out, "");
            assert_has(r.err, "chessvar legal: ");
            assert_broken(r.err, b);
            assert_int_equal(r.status, 1);
        } else {
            assert_has(r.out, "e2e4\n");
            assert_int_equal(r.status, 0);
        }
        run_free(&r);
        for (int divide = 0; divide < 2; divide++) {
            snprintf(args, sizeof args, "perft orthodox --depth 2 %s--rules %s",
                     divide ? "--divide " : "", b->file);
            tu_run(&r, args, NULL);
            assert_string_equal(r.out, "");
            assert_has(r.err, "chessvar perft: ");
            assert_broken(r.err, b);
            assert_int_equal(r.status, 1);
            run_free(&r);
        }
    }
    TuRun r;
    tu_run(&r, "check tests/house/setup_error.lua", NULL);
    assert_has(r.out, "house rule tests/house/setup_error.lua, setup: ");
    assert_has(r.out, "setup_error.lua:1: no position today");
    assert_int_equal(r.status, 1);
    run_free(&r);
    tu_run(&r, "legal orthodox --rules tests/house/setup_error.lua", NULL);
    assert_string_equal(r.out, "");
    assert_has(r.err, "no position today");
    assert_true(r.status != 0);
    run_free(&r);
}

/* Issue 19, point 4: in batch mode the listing, each bot level and a typed
 * move fail with the hook's error (no empty list, no resignation); with
 * --json each answer is "ok":false; the game is left as it was. */
static void test_house_broken_in_run(void **state)
{
    (void)state;
    char args[256];
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        const Broken *b = &BROKEN[i];
        const int veto = !strcmp(b->hook, "veto");
        TuRun r;
        snprintf(args, sizeof args, "run orthodox --rules %s", b->file);
        tu_run(&r, args, "legal\nbot random\nbot greedy\nbot search\ne4\nstatus\nposition\n");
        /* the reaction leaves the list whole: 4 failures, else 5 */
        int errors = 0;
        for (const char *p = r.out; (p = strstr(p, "error: ")); p++) {
            const char *eol = strchr(p, '\n');
            const char *hr = strstr(p, "house rule ");
            errors += hr && (!eol || hr < eol); /* "after e4: house rule ..." too */
        }
        assert_int_equal(errors, veto ? 5 : 4);
        assert_broken(r.out, b);
        if (veto)
            assert_null(strstr(r.out, "white (0)"));
        assert_null(strstr(r.out, "resigned"));
        assert_has(r.out, "white to move (0 actions played)\n");
        assert_has(r.out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_int_equal(r.status, 1);
        run_free(&r);
        snprintf(args, sizeof args, "run orthodox --json --rules %s", b->file);
        tu_run(&r, args, veto ? "legal\nbot greedy\n" : "e4\nbot greedy\n");
        assert_has(r.out, "{\"ok\":false,");
        assert_null(strstr(r.out, "\"ok\":true"));
        assert_int_equal(r.status, 1);
        run_free(&r);
    }
}

/* Issue 19, point 4: bots on every seat of `play` stop at the failure with
 * its error and exit 1 (no "resigned"); the `legal` command at the prompt
 * prints the error, not "0 moves". */
static void test_house_broken_in_play(void **state)
{
    (void)state;
    char args[256];
    static const char *const levels[] = {"random", "greedy", "search"};
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        const Broken *b = &BROKEN[i];
        for (size_t k = 0; k < sizeof levels / sizeof levels[0]; k++) {
            TuRun r;
            snprintf(args, sizeof args, "play orthodox --ascii --rules %s --bot white=%s "
                     "--bot black=%s", b->file, levels[k], levels[k]);
            tu_run(&r, args, "");
            char want[64];
            snprintf(want, sizeof want, "error: the %s bot of white: ", levels[k]);
            assert_has(r.out, want);
            assert_broken(r.out, b);
            assert_null(strstr(r.out, "resigned"));
            assert_null(strstr(r.out, "game over"));
            assert_int_equal(r.status, 1);
            run_free(&r);
        }
        if (strcmp(b->hook, "veto"))
            continue;
        TuRun r;
        snprintf(args, sizeof args, "play orthodox --ascii --rules %s", b->file);
        tu_run(&r, args, "legal\nquit\ny\nn\n");
        assert_has(r.out, "error: ");
        assert_broken(r.out, b);
        assert_null(strstr(r.out, "0 moves"));
        run_free(&r);
    }
}

/* Issue 19, point 4: an experiment stops at the first failure -- plain,
 * with --jobs, in rule set B -- naming the game's seed, the ply, the bot,
 * the script and the hook; it prints no report and exits 1. */
static void test_house_broken_in_experiment(void **state)
{
    (void)state;
    char args[512];
    static const char *const how[] = {
        "--rules %s --bot white=greedy",
        "--rules %s --bot white=search:200 --bot black=search:200 --jobs 2",
        "--bot white=random --compare --rules %s",
    };
    for (size_t i = 0; i < sizeof BROKEN / sizeof BROKEN[0]; i++) {
        for (size_t k = 0; k < sizeof how / sizeof how[0]; k++) {
            const Broken *b = &BROKEN[i];
            char opts[256];
            snprintf(opts, sizeof opts, how[k], b->file);
            snprintf(args, sizeof args, "experiment orthodox --games 4 --seed 5 %s", opts);
            TuRun r;
            tu_run(&r, args, NULL);
            assert_string_equal(r.out, "");
            assert_has(r.err, "chessvar experiment: game ");
            assert_has(r.err, "(seed ");
            assert_has(r.err, "): ply 1, white's ");
            assert_broken(r.err, b);
            if (k == 2)
                assert_has(r.err, " of rule set B ");
            assert_int_equal(r.status, 1);
            run_free(&r);
        }
    }
}

/* ---- Issue 20 point 8: what an outside oracle found ------------------------ */

/* The oracle's reproducers at the command line: atomic captures whose
 * explosion takes away the mate it made still win; perft and perft
 * --divide with King of the Hill agree with the plain perft at depth 1
 * (no King can reach the hill and be counted less); an empty reaction
 * counts what the plain perft counts. */
static void test_issue20_p8_cli_oracle_reproducers(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run orthodox --fen 'rn2q1r1/1ppknp2/4p1p1/p2p3p/3P1B1P/NPQ5/P1P3P1/RN2KB1R w "
               "Q - 7 15' --rules scripts/atomic.lua", "Qxc7\nstatus\n");
    assert_has(r.out, "game over: 1-0, white wins (the black King on d7 was caught in the "
                      "explosion on c7) (1 actions played)\n");
    tu_run_free(&r);

    const char *fen = "8/2p5/2k5/8/4n3/3K4/2P5/8 w - - 0 1";
    Game *g = tu_orthodox(fen);
    char want[64], args[600];
    snprintf(want, sizeof want, "Nodes searched: %llu\n",
             (unsigned long long)game_perft(g, 1));
    game_free(g);
    snprintf(args, sizeof args, "perft orthodox --fen '%s' --depth 1 --divide "
                                "--rules scripts/king_of_the_hill.lua", fen);
    tu_run(&r, args, NULL);
    assert_has(r.out, "d3d4: 1\n");
    assert_has(r.out, "d3e4: 1\n");
    assert_has(r.out, want);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);

    char dir[] = "/tmp/chessvar_p8_XXXXXX", path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/empty.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("rule { name = \"Empty\", react = function(game, action) end }\n", f);
    fclose(f);
    const struct {
        const char *fen;
        int depth;
    } cases[] = {{"8/8/2k5/8/8/8/1n6/K6R w - - 0 1", 3},
                 {"4k3/8/8/8/8/8/8/R3K3 w - - 149 80", 2}};
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        g = tu_orthodox(cases[i].fen);
        snprintf(want, sizeof want, "Nodes searched: %llu\n",
                 (unsigned long long)game_perft(g, cases[i].depth));
        game_free(g);
        snprintf(args, sizeof args, "perft orthodox --fen '%s' --depth %d --rules %s",
                 cases[i].fen, cases[i].depth, path);
        tu_run(&r, args, NULL);
        assert_string_equal(r.out, want);
        tu_run_free(&r);
    }
    unlink(path);
    rmdir(dir);
}

/* A refused setup names its script; --fen with a script's setup is
 * refused naming both; King of the Hill with a King already on the hill
 * is over at the start; `check` shows what a script printed, control
 * characters as '?' (issue 20 point 8). */
static void test_issue20_p8_cli_setup_fen_start_and_print(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_p8_XXXXXX", bad[256], talk[256], args[600];
    assert_non_null(mkdtemp(dir));
    snprintf(bad, sizeof bad, "%s/nokings.lua", dir);
    snprintf(talk, sizeof talk, "%s/talk.lua", dir);
    FILE *f = fopen(bad, "w");
    assert_non_null(f);
    fputs("rule { name = \"No kings\", setup = \"8/8/8/8/8/8/8/8 w - - 0 1\" }\n", f);
    fclose(f);
    f = fopen(talk, "w");
    assert_non_null(f);
    fputs("print('loaded', '\\27[2J')\nrule { name = \"Talker\" }\n", f);
    fclose(f);
    TuRun r;
    snprintf(args, sizeof args, "perft orthodox --depth 1 --rules %s", bad);
    tu_run(&r, args, NULL);
    assert_has(r.err, "house rule ");
    assert_has(r.err, "nokings.lua, setup: the position it gives is refused: White has "
                      "no King");
    assert_int_equal(r.status, 2);
    tu_run_free(&r);

    tu_run(&r, "perft orthodox --depth 1 --fen '4k3/8/8/8/8/8/8/4K3 w - - 0 1' "
               "--rules scripts/chess960.lua", NULL);
    assert_string_equal(r.err, "chessvar perft: --fen and house rule scripts/chess960.lua "
                               "both give the start position (its setup): leave out one "
                               "of them\n");
    assert_string_equal(r.out, "");
    assert_int_equal(r.status, 2);
    tu_run_free(&r);

    tu_run(&r, "run orthodox --fen '8/2p5/2k5/8/3K4/8/2P5/8 w - - 0 1' "
               "--rules scripts/king_of_the_hill.lua", "status\nKc3\n");
    assert_has(r.out, "game over: 1-0, white wins (white's King stands on the hill) "
                      "(0 actions played)\n");
    assert_has(r.out, "error: the game is over");
    tu_run_free(&r);
    tu_run(&r, "perft orthodox --fen '8/2p5/2k5/8/3K4/8/2P5/8 w - - 0 1' --depth 2 "
               "--rules scripts/king_of_the_hill.lua", NULL);
    assert_string_equal(r.out, "Nodes searched: 0\n");
    tu_run_free(&r);

    snprintf(args, sizeof args, "check %s", talk);
    tu_run(&r, args, NULL);
    assert_has(r.out, "talk.lua: ok (Talker)\n  print: loaded\t?[2J\n");
    assert_null(strchr(r.out, '\033'));
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    unlink(bad);
    unlink(talk);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_house4_veto_in_perft_and_legal),
        cmocka_unit_test(test_house4_veto_reason_in_batch),
        cmocka_unit_test(test_house5_king_of_the_hill),
        cmocka_unit_test(test_house_check_command),
        cmocka_unit_test(test_house1_parameter_scripts_in_rules_text),
        cmocka_unit_test(test_house1_tile_script),
        cmocka_unit_test(test_house3_chess960_has_960_starts),
        cmocka_unit_test(test_house5_three_check),
        cmocka_unit_test(test_house4_veto_move_number_in_perft),
        cmocka_unit_test(test_house5_reaction_acts_in_perft),
        cmocka_unit_test(test_menu_offers_scripts),
        cmocka_unit_test(test_house5_atomic_script),
        cmocka_unit_test(test_house_broken_check_legal_perft),
        cmocka_unit_test(test_house_broken_in_run),
        cmocka_unit_test(test_house_broken_in_play),
        cmocka_unit_test(test_issue20_p8_cli_oracle_reproducers),
        cmocka_unit_test(test_issue20_p8_cli_setup_fen_start_and_print),
        cmocka_unit_test(test_house_broken_in_experiment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
