/*
 * test_uci.c -- `chessvar uci` driven as GUIs and match tools drive it
 * (issue 12; issue 19 point 5): the handshake and the options; an info
 * line per finished iteration; go infinite and go ponder that think until
 * stop or ponderhit while isready is answered; every legal position gets
 * a legal move (bestmove 0000 only with none); bad input -- a move after
 * the end, a bad go or setoption, garbage, a line over 64 KiB -- gets an
 * info string and changes nothing.
 *
 * The program runs as a user runs it: the whole input at once (tu_run),
 * or through pipes with a deadline on every answer (Engine below), for
 * what must happen while it thinks.
 *
 * Invariant: no test waits on the program without a deadline; a child
 * that overstays it fails the test and is killed by its teardown.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/game.h"
#include "support/testutil.h"

/* A mate in one for White (Ra8#), and the same with Black to move, who is
 * mated whatever it plays. */
#define FEN_MATE_IN_ONE "6k1/5ppp/8/8/8/8/8/R2n2K1 w - - 0 1"
#define FEN_MATED_IN_ONE "7k/8/6K1/8/8/8/8/1R6 b - - 0 1"
#define FEN_KVK "8/8/8/4k3/8/8/8/4K3 w - - 0 1"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

static void assert_lacks(const char *text, const char *unwanted)
{
    if (text && strstr(text, unwanted))
        fail_msg("did not expect \"%s\" in: %s", unwanted, text);
}

static int count_of(const char *text, const char *what)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, what)) != NULL; p += strlen(what))
        n++;
    return n;
}

/* The move of the first "bestmove " at or after from, into mv (n >= 8). */
static const char *bestmove_after(const char *from, char *mv)
{
    const char *p = strstr(from, "bestmove ");
    if (!p)
        fail_msg("no bestmove in: %s", from);
    sscanf(p + 9, "%7s", mv);
    return p + 9;
}

/* The move fen's side plays is legal there (the draw rules off: the GUI
 * judges them). */
static void assert_legal_in(const char *fen, const char *mv)
{
    Game *g = tu_orthodox_with(fen, "fivefold=off seventy_five_move=off "
                                    "insufficient_material=off");
    if (!tu_is_legal(g, mv))
        fail_msg("%s is not a legal move in %s", mv, fen);
    game_free(g);
}

/* ---- The program through pipes ------------------------------------------- */

typedef struct Engine {
    pid_t pid;
    int to, from;
    char *out;       /* everything it wrote, NUL-terminated */
    size_t len;
} Engine;

/* The child of the running test, killed by its teardown when the test
 * failed before ending it. */
static pid_t live_child = -1;

static int kill_live_child(void **state)
{
    (void)state;
    if (live_child > 0) {
        kill(live_child, SIGKILL);
        waitpid(live_child, NULL, 0);
    }
    live_child = -1;
    return 0;
}

static long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void engine_start(Engine *en)
{
    int to[2], from[2];
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(from), 0);
    fflush(NULL);
    en->pid = fork();
    assert_true(en->pid >= 0);
    if (en->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[0]);
        close(to[1]);
        close(from[0]);
        close(from[1]);
        execl(tu_program(), tu_program(), "uci", (char *)NULL);
        _exit(127);
    }
    live_child = en->pid;
    close(to[0]);
    close(from[1]);
    en->to = to[1];
    en->from = from[0];
    en->out = calloc(1, 1);
    en->len = 0;
    assert_non_null(en->out);
}

static void engine_send(Engine *en, const char *text)
{
    size_t n = strlen(text);
    assert_int_equal(write(en->to, text, n), (ssize_t)n);
}

/* Read what it writes until its output from offset `from` holds want, for
 * at most ms milliseconds (want NULL: the whole ms); 1 if want came. */
static int engine_wait(Engine *en, size_t from, const char *want, long ms)
{
    long end = now_ms() + ms;
    for (;;) {
        if (want && strstr(en->out + from, want))
            return 1;
        long left = end - now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {en->from, POLLIN, 0};
        if (poll(&p, 1, (int)left) <= 0)
            continue;
        char chunk[4096];
        ssize_t r = read(en->from, chunk, sizeof chunk);
        if (r <= 0)
            return want && strstr(en->out + from, want);
        en->out = realloc(en->out, en->len + (size_t)r + 1);
        assert_non_null(en->out);
        memcpy(en->out + en->len, chunk, (size_t)r);
        en->len += (size_t)r;
        en->out[en->len] = '\0';
    }
}

/* Wait at most ms for it to exit (its input closed first when close_input);
 * its exit status; killed and failed if it overstays. */
static int engine_end(Engine *en, int close_input, long ms)
{
    if (close_input && en->to >= 0) {
        close(en->to);
        en->to = -1;
    }
    long end = now_ms() + ms;
    int st = 0;
    pid_t w;
    while ((w = waitpid(en->pid, &st, WNOHANG)) == 0 && now_ms() < end)
        engine_wait(en, en->len, NULL, 20);
    if (w == 0)
        fail_msg("chessvar uci did not exit within %ld ms; it wrote: %s", ms, en->out);
    live_child = -1;
    engine_wait(en, en->len, "\n\n\n", 2000); /* what is left, to its end */
    if (en->to >= 0)
        close(en->to);
    close(en->from);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void engine_free(Engine *en)
{
    free(en->out);
}

/* ---- Tests --------------------------------------------------------------- */

/* Issue 12, `chessvar uci`: the handshake; go depth finds the mate in
 * one; go nodes / movetime / wtime answer a legal move; a bad position
 * keeps the previous one and says why; a finished game answers 0000. */
static void test_uci(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "uci",
           "uci\nisready\n"
           "position fen " FEN_MATE_IN_ONE "\ngo depth 2\n"
           "position startpos moves e2e4 e7e5\ngo nodes 3000\n"
           "position startpos moves e2e5\ngo wtime 3000 btime 3000 winc 0 binc 0\n"
           "position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo movetime 50\nquit\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "id name chessvar ");
    assert_has(r.out, "uciok\nreadyok\n");
    assert_has(r.out, "info string e2e5: the pawn on e2 cannot move to e5");
    assert_has(r.out, "info string no legal move: checkmate\nbestmove 0000\n");
    char mv[8];
    const char *p = bestmove_after(r.out, mv);
    assert_string_equal(mv, "a1a8");
    /* the bestmove after the startpos lines is a legal move of that position */
    bestmove_after(p, mv);
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4 e5");
    assert_true(tu_is_legal(g, mv));
    game_free(g);
    assert_int_equal(count_of(r.out, "bestmove "), 4);
    tu_run_free(&r);
}

/* Issue 19 point 5: an `info depth D score cp|mate S nodes N nps N time MS
 * pv M` line after each finished iteration, depths in order, nodes
 * growing, each pv a legal move; mate scores in moves, negative when the
 * engine is mated; the last line names the move played. */
static void test_uci_info_per_iteration(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "uci",
           "position startpos\ngo depth 3\n"
           "position fen " FEN_MATE_IN_ONE "\ngo depth 2\n"
           "position fen " FEN_MATED_IN_ONE "\ngo depth 2\nquit\n");
    assert_int_equal(r.status, 0);
    int depth = 0;
    long nodes = 0;
    char last_pv[8] = "";
    const char *line = r.out;
    for (; line && strncmp(line, "bestmove ", 9); line = strchr(line, '\n') + 1) {
        int d;
        char kind[8], pv[8];
        long s, n, nps, ms;
        if (sscanf(line, "info depth %d score %7s %ld nodes %ld nps %ld time %ld pv %7s", &d,
                   kind, &s, &n, &nps, &ms, pv) != 7)
            fail_msg("not an info line: %.80s", line);
        assert_string_equal(kind, "cp");
        /* deeper each time, or the last iteration again naming the move
         * played, which the bot drew among those as good */
        assert_true((d == depth + 1 && n > nodes) || (d == depth && n == nodes));
        assert_true(nps >= 0 && ms >= 0);
        assert_legal_in(TU_FEN_START, pv);
        depth = d;
        nodes = n;
        strcpy(last_pv, pv);
    }
    assert_int_equal(depth, 3);
    char mv[8];
    bestmove_after(line, mv);
    assert_string_equal(mv, last_pv);
    assert_has(r.out, "info depth 1 score mate 1 nodes ");
    assert_has(r.out, "info depth 2 score mate 1 nodes ");
    assert_has(r.out, "pv a1a8\nbestmove a1a8\n");
    assert_has(r.out, "info depth 1 score cp -500 nodes ");
    assert_has(r.out, "info depth 2 score mate -1 nodes ");
    assert_has(r.out, "pv h8g8\nbestmove h8g8\n");
    tu_run_free(&r);
}

/* Issue 19 point 5: go infinite thinks until stop, answering isready
 * while it thinks (readyok, and no bestmove yet), then one bestmove; quit
 * while it thinks ends the program. */
static void test_uci_infinite_until_stop(void **state)
{
    (void)state;
    Engine en;
    engine_start(&en);
    engine_send(&en, "uci\nposition startpos moves e2e4\ngo infinite\n");
    assert_true(engine_wait(&en, 0, "uciok\n", 10000));
    engine_wait(&en, 0, NULL, 700);
    assert_lacks(en.out, "bestmove");
    assert_has(en.out, "info depth 1 ");
    size_t at = en.len;
    engine_send(&en, "isready\n");
    assert_true(engine_wait(&en, at, "readyok\n", 5000));
    assert_lacks(en.out, "bestmove");
    engine_send(&en, "stop\n");
    assert_true(engine_wait(&en, at, "bestmove ", 5000));
    assert_true(engine_wait(&en, (size_t)(strstr(en.out + at, "bestmove ") - en.out), "\n",
                            1000)); /* the whole line */
    char mv[8];
    bestmove_after(en.out + at, mv);
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "e4");
    assert_true(tu_is_legal(g, mv));
    game_free(g);
    /* stop with no search under way: nothing (the protocol ignores it) */
    at = en.len;
    engine_send(&en, "stop\nisready\n");
    assert_true(engine_wait(&en, at, "readyok\n", 5000));
    assert_string_equal(en.out + at, "readyok\n");
    /* quit while thinking */
    engine_send(&en, "go infinite\n");
    engine_wait(&en, at, NULL, 300);
    engine_send(&en, "quit\n");
    assert_int_equal(engine_end(&en, 0, 5000), 0);
    assert_int_equal(count_of(en.out, "bestmove "), 2);
    engine_free(&en);
}

/* Issue 19 point 5: go ponder thinks, even when the search is done, until
 * ponderhit (then it plays as in a normal search: at once when done, else
 * within its time) or stop; isready is answered meanwhile. */
static void test_uci_ponder(void **state)
{
    (void)state;
    Engine en;
    engine_start(&en);
    engine_send(&en, "position fen " FEN_MATE_IN_ONE "\ngo ponder depth 1\n");
    engine_wait(&en, 0, NULL, 500);
    assert_has(en.out, "info depth 1 score mate 1 ");
    assert_lacks(en.out, "bestmove");
    engine_send(&en, "isready\n");
    assert_true(engine_wait(&en, 0, "readyok\n", 5000));
    assert_lacks(en.out, "bestmove");
    engine_send(&en, "ponderhit\n");
    assert_true(engine_wait(&en, 0, "bestmove a1a8\n", 5000));
    /* with a clock: no bestmove while pondering, then one within the time
     * the clock gives (3000 ms / 30) after ponderhit */
    size_t at = en.len;
    engine_send(&en, "position startpos\ngo ponder wtime 3000 btime 3000\n");
    engine_wait(&en, at, NULL, 500);
    assert_lacks(en.out + at, "bestmove");
    engine_send(&en, "ponderhit\n");
    assert_true(engine_wait(&en, at, "bestmove ", 5000));
    /* stop ends pondering too */
    at = en.len;
    engine_send(&en, "go ponder wtime 3000 btime 3000\n");
    engine_wait(&en, at, NULL, 300);
    assert_lacks(en.out + at, "bestmove");
    engine_send(&en, "stop\n");
    assert_true(engine_wait(&en, at, "bestmove ", 5000));
    assert_int_equal(engine_end(&en, 1, 5000), 0);
    engine_free(&en);
}

/* Issue 19 point 5: while a finite search runs, isready is answered at
 * once (before the bestmove); other commands wait for the bestmove, so a
 * script may send all its lines at once; the end of the input during an
 * infinite search stops it with a bestmove. */
static void test_uci_input_while_thinking(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "uci",
           "position startpos\ngo movetime 400\nisready\n"
           "position fen " FEN_MATE_IN_ONE "\ngo depth 2\n"
           "go infinite\n");
    assert_int_equal(r.status, 0);
    const char *ready = strstr(r.out, "readyok\n"), *best = strstr(r.out, "bestmove ");
    assert_non_null(ready);
    assert_non_null(best);
    assert_true(ready < best);
    char mv[8];
    const char *p = bestmove_after(r.out, mv);
    assert_legal_in(TU_FEN_START, mv);
    p = bestmove_after(p, mv);
    assert_string_equal(mv, "a1a8");
    bestmove_after(p, mv);
    assert_string_equal(mv, "a1a8");
    tu_run_free(&r);
}

/* Issue 19 point 5: the options a GUI shows, listed after uci and applied
 * by setoption (names in any case); an unknown option or a bad value gets
 * an info string and changes nothing. */
static void test_uci_options(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "uci",
           "uci\nsetoption name nodes value 3000\n"
           "setoption name Hash value 16\nsetoption name Nodes value -1\n"
           "setoption name Nodes value abc\nsetoption name Nodes value 100000001\n"
           "setoption name Nodes\nsetoption Nodes value 5\n"
           "position startpos\ngo nodes 1000000\n"
           "setoption name Nodes value 0\ngo nodes 30000\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "option name Nodes type spin default 0 min 0 max 100000000\nuciok\n");
    assert_has(r.out, "info string setoption: no option 'Hash' (the options: Nodes)\n");
    assert_has(r.out, "not '-1'\n");
    assert_has(r.out, "not 'abc'\n");
    assert_has(r.out, "not '100000001'\n");
    assert_has(r.out, "not ''\n");
    assert_has(r.out, "info string setoption: name NAME value VALUE\n");
    /* the cap of 3000 held through the bad values: every line within it */
    const char *second = bestmove_after(r.out, (char[8]){0});
    int lines = 0;
    long most = 0;
    for (const char *p = r.out; (p = strstr(p, "info depth ")) != NULL; p++) {
        long n;
        assert_int_equal(sscanf(strstr(p, " nodes "), " nodes %ld", &n), 1);
        if (p < second) {
            assert_true(n <= 3000);
            lines++;
        } else if (n > most) {
            most = n;
        }
    }
    assert_true(lines >= 2);
    assert_true(most > 3000); /* Nodes 0: no cap */
    tu_run_free(&r);
}

/* Issue 19 point 5: every position with a legal move gets one, whatever
 * the draw rules say (the GUI judges them): K v K, a fifth repetition, a
 * halfmove clock at 150; bestmove 0000 only at mate and stalemate. */
static void test_uci_every_position_gets_a_move(void **state)
{
    (void)state;
    static const char *const FENS[] = {FEN_KVK, "8/8/8/4k3/8/8/4P3/4K3 w - - 150 90",
                                       "8/8/8/2b1k3/8/8/8/4K3 b - - 0 1"};
    for (size_t i = 0; i < sizeof FENS / sizeof FENS[0]; i++) {
        char in[256];
        snprintf(in, sizeof in, "position fen %s\ngo depth 3\ngo nodes 100\ngo\n", FENS[i]);
        TuRun r;
        tu_run(&r, "uci", in);
        assert_int_equal(count_of(r.out, "bestmove "), 3);
        char mv[8];
        for (const char *p = r.out; (p = strstr(p, "bestmove ")) != NULL; p++) {
            bestmove_after(p, mv);
            assert_legal_in(FENS[i], mv);
        }
        tu_run_free(&r);
    }
    TuRun r;
    tu_run(&r, "uci",
           "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 "
           "f6g8 g1f3 g8f6 f3g1 f6g8\ngo depth 2\n"
           "position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo depth 2\n");
    char mv[8];
    const char *p = bestmove_after(r.out, mv);
    assert_legal_in(TU_FEN_START, mv);
    bestmove_after(p, mv);
    assert_string_equal(mv, "0000");
    assert_has(r.out, "info string no legal move: stalemate\n");
    tu_run_free(&r);
}

/* Issue 19 point 5: a move after the end of the game, a meta action, a
 * broken position line: an info string, and the previous position stays
 * (the mate in one is still found). */
static void test_uci_bad_position_changes_nothing(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "uci",
           "position fen " FEN_MATE_IN_ONE "\n"
           "position startpos moves f2f3 e7e5 g2g4 d8h4 e2e4\n"
           "position startpos moves resign\n"
           "position startpos e2e4\n"
           "position\n"
           "position fen\n"
           "go depth 2\n");
    assert_has(r.out, "info string e2e4 comes after the end of the game (checkmate)\n");
    assert_has(r.out, "info string 'resign' is not a move\n");
    assert_has(r.out, "info string position: 'e2e4' where moves or the end of the line "
                      "was expected\n");
    assert_has(r.out, "info string position: startpos or fen FEN, then moves M... (not '')\n");
    assert_has(r.out, "info string position fen: the FEN is missing\n");
    assert_lacks(r.out, "seat -1");
    char mv[8];
    bestmove_after(r.out, mv);
    assert_string_equal(mv, "a1a8");
    tu_run_free(&r);
}

/* Issue 19 point 5: a go with a bad value is refused with an info string
 * and no search (go depth -5 searched 50 M nodes, deaf to stop); an
 * unknown word of a go is skipped, as the protocol asks, and so is an
 * unknown word before a command; a line that is no command gets an info
 * string. */
static void test_uci_bad_go_and_garbage(void **state)
{
    (void)state;
    Engine en;
    engine_start(&en);
    engine_send(&en, "position fen " FEN_MATE_IN_ONE "\n"
                     "go depth -5\ngo nodes 0\ngo movetime abc\ngo depth\ngo mate 0\n"
                     "go searchmoves e2e5\nisready\n");
    assert_true(engine_wait(&en, 0, "readyok\n", 5000));
    assert_lacks(en.out, "bestmove");
    assert_has(en.out, "info string go: depth takes a whole number from 1 to 2147483647, "
                       "not '-5': no search\n");
    assert_has(en.out, "info string go: nodes takes a whole number from 1 to ");
    assert_has(en.out, "info string go: movetime takes a whole number from 1 to ");
    assert_has(en.out, "not '': no search\n");
    assert_has(en.out, "info string go: mate takes a whole number from 1 to 1000, not '0'");
    assert_has(en.out, "info string go: searchmoves: ");
    size_t at = en.len;
    engine_send(&en, "xyzzy\njoho isready\ngo frobnicate depth 2\n"
                     "go searchmoves a1b1 a1c1 depth 3\ngo mate 1\ndebug on\ngo nodes 50\n"
                     "debug sideways\n");
    assert_true(engine_wait(&en, at, "info string go: the limits: nodes 50, depth none, time none\n", 10000));
    assert_true(engine_wait(&en, at, "info string debug: on or off, not 'sideways'\n", 10000));
    assert_has(en.out + at, "info string 'xyzzy' is not a UCI command (");
    assert_has(en.out + at, "info string 'joho' is not a UCI command: skipped\nreadyok\n");
    assert_has(en.out + at, "info string go: 'frobnicate' is not a go parameter: skipped\n");
    char mv[8];
    const char *p = bestmove_after(en.out + at, mv);
    assert_string_equal(mv, "a1a8");
    p = bestmove_after(p, mv);
    assert_true(!strcmp(mv, "a1b1") || !strcmp(mv, "a1c1"));
    p = bestmove_after(p, mv);
    assert_string_equal(mv, "a1a8");
    assert_int_equal(engine_end(&en, 1, 10000), 0);
    engine_free(&en);
}

/* Issue 19 point 5: a line over 64 KiB is read to its end and refused
 * whole with an info string: its tail is never run as a command (old: the
 * line was cut at 65535 characters and "isready" at its end answered); a
 * line of exactly 65536 characters is read; a NUL byte makes a line no
 * command. */
static void test_uci_long_lines(void **state)
{
    (void)state;
    size_t cut = 65535, n = 0;
    char *in = malloc(3 * 70000);
    assert_non_null(in);
    memset(in, 'a', cut);
    n = cut;
    n += (size_t)sprintf(in + n, "isready\n");
    memset(in + n, ' ', 65536 - 7);
    memcpy(in + n + 65536 - 7, "isready\n", 8); /* "isready" last: 65536 in all */
    n += 65536 + 1;
    memcpy(in + n, "isready\0 quit\nisready\n", 22);
    n += 22;
    TuRun r;
    tu_run_n(&r, "uci", in, n);
    assert_has(r.out, "info string a line of 65542 characters is longer than 65536: "
                      "ignored\n");
    assert_has(r.out, "info string a line holding a NUL byte is not a command: ignored\n");
    assert_int_equal(count_of(r.out, "readyok\n"), 2);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    free(in);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_uci, kill_live_child),
        cmocka_unit_test_teardown(test_uci_info_per_iteration, kill_live_child),
        cmocka_unit_test_teardown(test_uci_infinite_until_stop, kill_live_child),
        cmocka_unit_test_teardown(test_uci_ponder, kill_live_child),
        cmocka_unit_test_teardown(test_uci_input_while_thinking, kill_live_child),
        cmocka_unit_test_teardown(test_uci_options, kill_live_child),
        cmocka_unit_test_teardown(test_uci_every_position_gets_a_move, kill_live_child),
        cmocka_unit_test_teardown(test_uci_bad_position_changes_nothing, kill_live_child),
        cmocka_unit_test_teardown(test_uci_bad_go_and_garbage, kill_live_child),
        cmocka_unit_test_teardown(test_uci_long_lines, kill_live_child),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
