/*
 * test_play_tty.c -- the terminal game in a real terminal: tmux runs
 * `chessvar play`, keys are typed with send-keys, and the *whole* pane,
 * scrollback included, is read with capture-pane (MASQ-1, MASQ-12: a seat
 * never sees what it may not know, not even by scrolling back or by
 * recalling the previous seat's typed lines with the arrow keys).
 *
 * Invariant: every assertion reads what a person at the terminal could
 * read.  tmux is installed by `make check` (Makefile DEB_PKGS); without it
 * these tests are skipped, loudly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "support/testutil.h"

/* One tmux server per test run (its own socket), one session. */
static char sock[64];

static int have_tmux(void)
{
    return system("tmux -V >/dev/null 2>&1") == 0;
}

static int tmux(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int tmux(const char *fmt, ...)
{
    char args[2048], cmd[2300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    snprintf(cmd, sizeof cmd, "tmux -L %s -f /dev/null %s >/dev/null 2>&1", sock, args);
    return system(cmd);
}

/* The whole pane: the visible screen and every line of scrollback. */
static char *capture(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux -L %s capture-pane -p -J -S - -E - -t t", sock);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *s = tu_read_stream(p);
    pclose(p);
    return s;
}

/* Wait (up to 20 s: sanitized builds are slow) until the pane shows text;
 * the pane then. */
static char *wait_for(const char *text)
{
    for (int i = 0; i < 400; i++) {
        char *s = capture();
        if (strstr(s, text))
            return s;
        free(s);
        struct timespec ts = {0, 50 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    char *s = capture();
    fail_msg("the terminal never showed \"%s\"; it shows:\n%s", text, s);
    return s;
}

static void keys(const char *text)
{
    assert_int_equal(tmux("send-keys -t t -l '%s'", text), 0);
}

static void enter(void)
{
    assert_int_equal(tmux("send-keys -t t Enter"), 0);
}

/* chessvar ARGS (shell words: "| cat" pipes its output) in a terminal of
 * cols x rows; after it ends, "exit N" and the pane stays. */
static int start_sized(const char *args, int cols, int rows)
{
    if (!have_tmux()) {
        print_message("tmux is not installed: the terminal tests are skipped "
                      "(make check installs it)\n");
        return -1;
    }
    snprintf(sock, sizeof sock, "chessvar-test-%ld", (long)getpid());
    tmux("kill-server");
    assert_int_equal(tmux("new-session -d -s t -x %d -y %d \"TERM=xterm NO_COLOR=1 "
                          "'%s' %s; echo exit \\$?; sleep 60\"", cols, rows, tu_program(),
                          args), 0);
    return 0;
}

static int start(const char *args)
{
    return start_sized(args, 100, 40);
}

/* How many times needle is in hay. */
static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

static void stop(void)
{
    tmux("kill-server");
}

static void assert_absent(const char *screen, const char *secret, const char *what)
{
    if (strstr(screen, secret))
        fail_msg("%s: \"%s\" is still in the terminal:\n%s", what, secret, screen);
}

/* MASQ-1, MASQ-12: after White's arrangement and the hand-over, neither
 * the screen nor its scrollback holds White's typed arrangement or its
 * board with the figures; Up at Black's prompt brings back none of
 * White's lines; Black's own setup then is not in White's terminal. */
static void test_masq12_hand_over_wipes_scrollback(void **state)
{
    (void)state;
    if (start("play masques --seed 7 --ascii") < 0)
        skip();
    free(wait_for("white> "));
    /* White arranges, sees its arrangement, changes it, arranges again. */
    keys("arrange BRNQKNRB/PPPPPPPP");
    enter();
    char *s = wait_for("change: place again> ");
    assert_non_null(strstr(s, "This is your arrangement."));
    free(s);
    keys("change");
    enter();
    free(wait_for("your pieces are back in hand"));
    keys("arrange NRBQKBRN/PPPPPPPP");
    enter();
    free(wait_for("arrange NRBQKBRN/PPPPPPPP"));
    s = wait_for("change: place again> ");
    free(s);
    enter();
    free(wait_for("press Enter when only you can see the screen"));
    enter();
    s = wait_for("black> ");
    assert_absent(s, "arrange NRBQKBRN", "White's typed arrangement");
    assert_absent(s, "BRNQKNRB", "White's first arrangement, taken back");
    assert_absent(s, "This is your arrangement", "White's confirmation");
    assert_absent(s, "N~ R~ B~", "White's masked figures");
    assert_absent(s, "you place", "White's own messages");
    assert_absent(s, "white> ", "White's prompt");
    free(s);
    /* Up: the line editor's history must not hold White's lines. */
    assert_int_equal(tmux("send-keys -t t Up"), 0);
    struct timespec ts = {0, 300 * 1000 * 1000};
    nanosleep(&ts, NULL);
    s = capture();
    assert_absent(s, "NRBQKBRN", "White's line recalled with the arrow key");
    free(s);
    assert_int_equal(tmux("send-keys -t t C-u"), 0);
    keys("arrange RNBKQBNR/PPPPPPPP");
    enter();
    free(wait_for("change: place again> "));
    enter();
    free(wait_for("press Enter when only you can see the screen"));
    enter();
    s = wait_for("white> ");
    assert_absent(s, "RNBKQBNR", "Black's typed arrangement, in White's terminal");
    assert_absent(s, "k~", "Black's masked figures, in White's terminal");
    free(s);
    stop();
}

/* Issue 19 point 2, MASQ-12: `play --load` of a Masqués game in progress
 * starts with the hand-over: nothing of the seat to act (its masked
 * figures) is drawn before that seat has pressed Enter, and the other
 * seat's figures not even then. */
static void test_masq12_load_starts_with_hand_over(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_tty_load_XXXXXX", path[96], in[512], args[160];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.rec", dir);
    snprintf(in, sizeof in, "as white arrange QNBRKBNR/PPPPPPPP\n"
                            "as black arrange RNBKQBNR/PPPPPPPP\nas white e2e4\n"
                            "as white save %s\nas black save %s\n", path, path);
    TuRun r;
    tu_run(&r, "run masques", in);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    snprintf(args, sizeof args, "play --load %s --ascii", path);
    if (start(args) < 0) {
        unlink(path);
        rmdir(dir);
        skip();
    }
    char *s = wait_for("press Enter when only you can see the screen");
    assert_non_null(strstr(s, "Pass the terminal to black."));
    assert_absent(s, "k~", "Black's masked figures before the hand-over");
    assert_absent(s, "r~", "Black's masked figures before the hand-over");
    assert_absent(s, "Q~", "White's masked figures");
    free(s);
    enter();
    s = wait_for("black> ");
    assert_non_null(strstr(s, "k~"));  /* Black's own board now */
    assert_absent(s, "Q~", "White's masked figures, on Black's board");
    free(s);
    stop();
    unlink(path);
    rmdir(dir);
}

/* issue 20 point 6: at a real terminal, play --load of a Masqués record
 * that carries a script names it (digest, size), says that it reads the
 * hidden pieces and asks before it runs; no: nothing loaded, exit 0;
 * yes: the game, starting with the hand-over. */
static void test_record_scripts_asked_at_the_terminal(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_tty_trust_XXXXXX", path[96], lua[96], in[512], args[160];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/q.rec", dir);
    snprintf(lua, sizeof lua, "%s/quiet.lua", dir);
    FILE *f = fopen(lua, "w");
    assert_non_null(f);
    fputs("rule { name = \"Quiet\", variants = \"masques\" }\n", f);
    fclose(f);
    snprintf(in, sizeof in, "as white arrange QNBRKBNR/PPPPPPPP\n"
                            "as black arrange RNBKQBNR/PPPPPPPP\nas white e2e4\n"
                            "as white save %s\nas black save %s\n", path, path);
    snprintf(args, sizeof args, "run masques --rules %s", lua);
    TuRun r;
    tu_run(&r, args, in);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    snprintf(args, sizeof args, "play --load %s --ascii", path);
    for (int answer = 0; answer < 2; answer++) {
        if (start(args) < 0) {
            unlink(path), unlink(lua), rmdir(dir);
            skip();
        }
        char *s = wait_for("Run it? (yes/no)> ");
        assert_non_null(strstr(s, "q.rec carries 1 house-rule script, code that runs on "
                                  "this computer only if you agree:"));
        assert_non_null(strstr(s, "  quiet.lua  sha256 e896d31107b1a5b57e1720ed66fd18b5d13b8f"
                                  "36426a4a1c3aabaf610c9e8832  46 bytes"));
        assert_non_null(strstr(s, "This game hides pieces: a rule script reads every hidden "
                                  "piece"));
        assert_absent(s, "Q~", "White's masked figures before the answer");
        free(s);
        keys(answer ? "yes" : "no");
        enter();
        if (answer) {
            s = wait_for("press Enter when only you can see the screen");
            assert_non_null(strstr(s, "Pass the terminal to black."));
        } else {
            s = wait_for("exit 0");
            assert_non_null(strstr(s, "its house rules were not run, so the game was not "
                                      "loaded (to run them, answer yes or add --trust-rules)"));
            assert_absent(s, "Pass the terminal", "a game, after no");
        }
        free(s);
        stop();
    }
    unlink(path);
    unlink(lua);
    rmdir(dir);
}

/* issue 19 point 6: Ctrl-D at the prompt leaves the game as quit does:
 * it asks, "no" plays on; Ctrl-C too, and then the game is saved where
 * the player says. */
static void test_ctrl_d_and_ctrl_c_quit_offering_to_save(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar_ctrl_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    if (start("play orthodox --ascii --seed 1") < 0)
        skip();
    free(wait_for("white> "));
    keys("e4");
    enter();
    free(wait_for("black> "));
    assert_int_equal(tmux("send-keys -t t C-d"), 0);
    free(wait_for("Leave it? (yes/no)> "));
    keys("no");
    enter();
    free(wait_for("the game goes on"));
    assert_int_equal(tmux("send-keys -t t C-c"), 0);
    char *s = wait_for("(Ctrl-C) quit\nThe game is not over. Leave it? (yes/no)> ");
    free(s);
    keys("yes");
    enter();
    free(wait_for("File name to save it to"));
    keys(path);
    enter();
    s = wait_for("exit 0");
    assert_non_null(strstr(s, "saved to"));
    free(s);
    stop();
    char *rec = tu_read_file(path);
    assert_non_null(rec);
    assert_non_null(strstr(rec, "e4"));
    free(rec);
    unlink(path);
}

/* issue 19 point 6: with standard output piped (chessvar play | tee log)
 * and standard input the terminal, the prompts are still shown. */
static void test_prompts_with_output_piped(void **state)
{
    (void)state;
    if (start("play orthodox --ascii --seed 1 | cat") < 0)
        skip();
    free(wait_for("white> "));
    keys("e4");
    enter();
    free(wait_for("black> "));
    keys("quit");
    enter();
    free(wait_for("Leave it? (yes/no)> "));
    keys("yes");
    enter();
    free(wait_for("File name to save it to (Enter: leave without saving)> "));
    enter();
    free(wait_for("exit 0"));
    stop();
}

/* issue 19 point 6: a lone person against a bot in Les Échecs Masqués is
 * never asked to pass the terminal (nobody to pass it to), and the bot's
 * sixteen setup placements draw one board, not sixteen. */
static void test_masques_against_a_bot_no_hand_over(void **state)
{
    (void)state;
    if (start("play masques --ascii --seed 1 --bot black=greedy") < 0)
        skip();
    free(wait_for("white> "));
    keys("arrange QNBRKBNR/PPPPPPPP");
    enter();
    char *s = wait_for("your castling rights");
    assert_absent(s, "pass the terminal", "a hand-over for a lone person");
    assert_absent(s, "Pass the terminal", "a hand-over for a lone person");
    assert_absent(s, "press Enter when only you can see", "a hand-over for a lone person");
    assert_non_null(strstr(s, "black (greedy bot): black arranges a piece (16 times)"));
    /* the start, White's arrangement, the armies set up: three boards */
    if (count(s, "\n8  ") != 3)
        fail_msg("not one board per step of the setup:\n%s", s);
    free(s);
    stop();
}

/* The visible screen only, without the scrollback. */
static char *capture_screen(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "tmux -L %s capture-pane -p -t t", sock);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *s = tu_read_stream(p);
    pclose(p);
    return s;
}

/* issue 19 point 6: Tile Chess with six sides on an 80x24 terminal: after a
 * random placement the window of the table, the legend of the marks (what
 * # means) and the one line of threatened Kings fit under the board's top
 * line, so nothing of the board is pushed off the screen; the threat line
 * is one line whatever the number of Kings. */
static void test_tile_six_sides_fit_24_rows(void **state)
{
    (void)state;
    if (start_sized("play tile --sides 6 --ascii --seed 3", 80, 24) < 0)
        skip();
    free(wait_for("white> "));
    keys("random");
    enter();
    free(wait_for("last move: K@"));
    free(wait_for("white> "));
    char *s = capture_screen();
    if (!strstr(s, "every piece is placed") || !strstr(s, "\n^ ") ||
        !strstr(s, "\nv ") || !strstr(s, "\nwhite>"))
        fail_msg("the board's top, its bottom or the prompt is off the screen:\n%s", s);
    assert_non_null(strstr(s, "marks: # trapped: cannot move"));
    assert_non_null(strstr(s, "Kings threatened by trapped pieces only (TILE-7): red, "
                              "green and yellow"));
    free(s);
    stop();
}

/* Type each move of a list (one line each), waiting for the game to say
 * it was played ("plays MOVE") before the next. */
static void play_moves(const char *const *moves, const char *const *said)
{
    for (int i = 0; moves[i]; i++) {
        keys(moves[i]);
        enter();
        char want[64];
        snprintf(want, sizeof want, "plays %s\n", said[i]);
        free(wait_for(want));
    }
}

/* issue 24 ("a user ... plays it in the terminal"): Capablanca chess from
 * scripts/variants/capablanca.lua at the terminal: the 10x8 board with its
 * files a..j and the new pieces' legend, the chancellor moved by SAN
 * (Cg3), the archbishop by UCI (c8d6, answered as Ad6), and castling O-O
 * taking the King three files, f1 to i1, and the rook j1 to h1 (PART-4). */
static void test_issue24_capablanca_at_the_terminal(void **state)
{
    (void)state;
    if (start("play fairy --ascii --rules scripts/variants/capablanca.lua") < 0)
        skip();
    char *s = wait_for("white> ");
    if (!strstr(s, "1  R  N  A  B  Q  K  B  C  N  R  1") || !strstr(s, "   a  b  c  d  e  f  g  h  i  j") ||
        !strstr(s, "A archbishop (BN)") || !strstr(s, "C chancellor (RN)"))
        fail_msg("not Capablanca's start with its pieces named:\n%s", s);
    free(s);
    static const char *const moves[] = {"Nj3", "Nj6", "Cg3", "c8d6", "h3", "h6", "Bh2", "Bh7", "O-O", NULL};
    static const char *const said[] = {"Nj3", "Nj6", "Cg3", "Ad6", "h3", "h6", "Bh2", "Bh7", "O-O", NULL};
    play_moves(moves, said);
    s = wait_for("last move: O-O");
    /* Black's view after O-O: rank 1 first, files j..a */
    if (!strstr(s, "1  . [K] R  . [.] Q  B  A  N  R  1") || !strstr(s, "last move: O-O"))
        fail_msg("castling did not bring the King to i1 and the rook to h1:\n%s", s);
    assert_non_null(strstr(s, "6  n  .  p  .  .  .  a  .  .  .  6")); /* the archbishop on d6 */
    free(s);
    stop();
}

/* issue 24 (PART-6): crazyhouse from scripts/variants/crazyhouse.lua at the
 * terminal: the knight White takes goes to White's hand, shown under the
 * board, and N@f3 drops it; the hand is empty after. */
static void test_issue24_crazyhouse_drop_at_the_terminal(void **state)
{
    (void)state;
    if (start("play fairy --ascii --rules scripts/variants/crazyhouse.lua") < 0)
        skip();
    free(wait_for("white> "));
    static const char *const moves[] = {"e4", "Nf6", "Nc3", "Nxe4", "Nxe4", "d5", NULL};
    play_moves(moves, moves);
    free(wait_for("white in hand: N\n"));
    keys("N@f3");
    enter();
    char *s = wait_for("last move: N@f3");
    const char *after = strstr(s, "plays N@f3");
    if (!strstr(after, "white in hand: none") || !strstr(after, "black in hand: p") ||
        !strstr(after, "3  .  . [N] .  .  .  .  .  3"))
        fail_msg("the drop N@f3 is not on the board or the hands are wrong:\n%s", after);
    free(s);
    stop();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq12_hand_over_wipes_scrollback),
        cmocka_unit_test(test_masq12_load_starts_with_hand_over),
        cmocka_unit_test(test_ctrl_d_and_ctrl_c_quit_offering_to_save),
        cmocka_unit_test(test_prompts_with_output_piped),
        cmocka_unit_test(test_masques_against_a_bot_no_hand_over),
        cmocka_unit_test(test_tile_six_sides_fit_24_rows),
        cmocka_unit_test(test_record_scripts_asked_at_the_terminal),
        cmocka_unit_test(test_issue24_capablanca_at_the_terminal),
        cmocka_unit_test(test_issue24_crazyhouse_drop_at_the_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
