/*
 * cli_uci.c -- `chessvar uci`: the UCI protocol for orthodox chess with
 * the search bot (core/lab/bot.h), so chess GUIs and match tools can use it.
 *
 * Commands: uci (the id, the options, uciok), debug on|off, isready,
 * setoption name NAME value V, register, ucinewgame, position
 * startpos|fen FEN [moves M...], go [searchmoves M...] [ponder] [wtime MS]
 * [btime MS] [winc MS] [binc MS] [movestogo N] [depth N] [nodes N]
 * [mate N] [movetime MS] [infinite], stop, ponderhit, quit.  The search
 * prints `info depth D score cp|mate S nodes N nps N time MS pv M` after
 * each finished iteration (BotWatch).  The position is judged by the
 * rules of chess but only mate and stalemate end it: the GUI is the
 * arbiter of the draw rules (a K v K position gets a move).
 *
 * Input is read with read(2) from descriptor 0 into a buffer of our own,
 * one line at a time; a line of more than UCI_LINE_MAX characters is read
 * to its end and refused whole, never cut.  While the bot thinks, it asks
 * uci_stop_asked every 256 nodes, which takes the lines already waiting
 * (poll with no timeout, so it never blocks) and answers stop, quit,
 * isready, ponderhit, debug and bad lines at once.  Reading pauses at any
 * other command, which runs after the bestmove: a finite search (depth,
 * nodes, time) ends by its limits first, so a script can send all its
 * lines at once; an infinite or ponder search ends then, as by stop (the
 * GUI has moved on).  One thread, so nothing is shared between a reader
 * and the search: no lock, no race; a stop is seen within 256 nodes.
 *
 * Invariant: input that does not read -- a bad position, a move after
 * the end, a bad go or setoption, an unknown command, an over-long line --
 * gets an `info string` naming what is wrong and changes nothing.  Every
 * go that is accepted ends with one bestmove (in infinite and ponder mode
 * only after stop or ponderhit, or at the end of the input); bestmove
 * 0000 only when the side to move has no legal move.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lab/bot.h"
#include "cli.h"

/* The longest line read, in characters (its newline not counted). */
#define UCI_LINE_MAX 65536
/* The Nodes option's largest value (the most `search:N` takes). */
#define UCI_NODES_MAX 100000000L
/* The most moves after searchmoves (more than any position has). */
#define UCI_SEARCHMOVES_MAX 256
#define WS " \t\r"

/* What uci_read_line found. */
enum { IN_LINE, IN_LONG, IN_NONE, IN_EOF };

enum {
    C_UCI, C_DEBUG, C_ISREADY, C_SETOPTION, C_REGISTER, C_UCINEWGAME, C_POSITION,
    C_GO, C_STOP, C_PONDERHIT, C_QUIT, C__COUNT
};
static const char *const COMMANDS[C__COUNT] = {
    "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position",
    "go", "stop", "ponderhit", "quit",
};

typedef struct Uci {
    Game *g;
    Rng rng;
    long nodes_cap;          /* the Nodes option; 0: none */
    int debug;
    /* input */
    char *buf;               /* read, not yet taken (UCI_LINE_MAX + 1 bytes) */
    size_t len;
    char *line;              /* the line taken, NUL-terminated */
    size_t line_len;         /* its length (a NUL byte inside shows) */
    size_t skipped;          /* the length of an over-long line, so far */
    int skipping, eof;
    int held;                /* line holds a command for after the search */
    /* the go under way */
    int pondering, infinite, stopped, quitting;
    double start, deadline;  /* monotonic seconds; deadline 0: none */
    long ponder_ms;          /* the time the search gets after ponderhit */
    /* its last info line (info_depth 0: none yet) */
    int info_depth;
    long info_nodes;
    double info_t;           /* seconds from the go */
    char info_score[32], info_pv[16];
} Uci;

static double uci_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One line to the GUI, at once. */
static void uci_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void uci_say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* "info string MESSAGE", kept on one line. */
static void uci_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void uci_note(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *p = msg; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    uci_say("info string %s", msg);
}

/* src, clipped and made valid UTF-8, to quote in a message. */
static const char *uci_quote(char *dst, size_t n, const char *src)
{
    str_clip(dst, n, src);
    utf8_scrub(dst);
    return dst;
}

/* ---- Input -------------------------------------------------------------- */

/* The next line into u->line: IN_LINE; IN_LONG for a line over
 * UCI_LINE_MAX characters (read to its end and dropped, its length in
 * u->skipped); IN_NONE when wait is 0 and no whole line is waiting;
 * IN_EOF at the end of the input (a last line without a newline is a
 * line). */
static int uci_read_line(Uci *u, int wait)
{
    for (;;) {
        char *nl = memchr(u->buf, '\n', u->len);
        if (u->skipping && nl) {
            size_t k = (size_t)(nl - u->buf) + 1;
            u->skipped += k - 1;
            memmove(u->buf, nl + 1, u->len - k);
            u->len -= k;
            u->skipping = 0;
            return IN_LONG;
        } else if (u->skipping) {
            u->skipped += u->len;
            u->len = 0;
        } else if (!nl && u->len > UCI_LINE_MAX) { /* full, and no newline */
            u->skipping = 1;
            u->skipped = u->len;
            u->len = 0;
        } else if (nl || (u->eof && u->len > 0)) {
            size_t k = nl ? (size_t)(nl - u->buf) : u->len;
            memcpy(u->line, u->buf, k);
            u->line[k] = '\0';
            u->line_len = k;
            k += nl != NULL;
            memmove(u->buf, u->buf + k, u->len - k);
            u->len -= k;
            return IN_LINE;
        }
        if (u->eof) {
            if (!u->skipping)
                return IN_EOF;
            u->skipping = 0;
            return IN_LONG;
        }
        if (!wait) {
            struct pollfd p = {0, POLLIN, 0};
            if (poll(&p, 1, 0) <= 0)
                return IN_NONE;
        }
        ssize_t r = read(0, u->buf + u->len, UCI_LINE_MAX + 1 - u->len);
        if (r < 0 && errno == EAGAIN && wait) { /* a descriptor left non-blocking */
            struct pollfd p = {0, POLLIN, 0};
            poll(&p, 1, -1);
            continue;
        }
        if (r < 0 && errno == EAGAIN)
            return IN_NONE;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            u->eof = 1;
        else
            u->len += (size_t)r;
    }
}

static void uci_refuse_long(const Uci *u)
{
    uci_note("a line of %zu characters is longer than %d: ignored", u->skipped, UCI_LINE_MAX);
}

/* The command of u->line (its index) with *at on its word and *args after
 * it: the first word that is a command, as the protocol asks (an unknown
 * word before it is skipped, uci_skipped says so); -1 when there is none
 * to run (a blank line, or one refused here with an info string). */
static int uci_command(const Uci *u, char **at, char **args)
{
    char *p = u->line, q[48];
    if (strlen(p) != u->line_len) {
        uci_note("a line holding a NUL byte is not a command: ignored");
        return -1;
    }
    p += strspn(p, WS);
    if (!*p)
        return -1;
    for (char *w = p; *w; w += strspn(w, WS)) {
        size_t n = strcspn(w, WS);
        for (int c = 0; c < C__COUNT; c++)
            if (strlen(COMMANDS[c]) == n && !strncmp(w, COMMANDS[c], n)) {
                *at = w;
                *args = w + n + strspn(w + n, WS);
                return c;
            }
        w += n;
    }
    uci_note("'%s' is not a UCI command (uci, debug, isready, setoption, register, "
             "ucinewgame, position, go, stop, ponderhit, quit): ignored",
             uci_quote(q, sizeof q, p));
    return -1;
}

/* Say which unknown words before the command at `at` were skipped. */
static void uci_skipped(const Uci *u, const char *at)
{
    const char *p = u->line + strspn(u->line, WS);
    if (p == at)
        return;
    char words[48], q[48];
    size_t n = (size_t)(at - p);
    while (n > 0 && strchr(WS, p[n - 1]))
        n--;
    snprintf(words, sizeof words, "%.*s", (int)(n < 47 ? n : 47), p);
    uci_note("'%s' is not a UCI command: skipped", uci_quote(q, sizeof q, words));
}

/* ---- Options ------------------------------------------------------------ */

/* "name NAME value VALUE": the option set, or an info string. */
static void uci_setoption(Uci *u, char *args)
{
    char *save, *w = strtok_r(args, WS, &save), q[48];
    if (!w || strcmp(w, "name")) {
        uci_note("setoption: name NAME value VALUE");
        return;
    }
    char name[64] = "";
    while ((w = strtok_r(NULL, WS, &save)) && strcmp(w, "value"))
        if (strlen(name) + strlen(w) + 2 <= sizeof name)
            snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s",
                     name[0] ? " " : "", w);
    char *value = w ? strtok_r(NULL, WS, &save) : NULL;
    if (!str_ieq(name, "Nodes")) {
        uci_note("setoption: no option '%s' (the options: Nodes)",
                 uci_quote(q, sizeof q, name));
        return;
    }
    char *end = NULL;
    errno = 0;
    long v = value ? strtol(value, &end, 10) : -1;
    if (!value || *end || errno || v < 0 || v > UCI_NODES_MAX ||
        strtok_r(NULL, WS, &save)) {
        uci_note("setoption: Nodes takes a whole number from 0 to %ld (0: no limit), not "
                 "'%s'", UCI_NODES_MAX, value ? uci_quote(q, sizeof q, value) : "");
        return;
    }
    u->nodes_cap = v;
}

/* ---- The position ------------------------------------------------------- */

/* The game UCI plays: orthodox chess, where only mate and stalemate end a
 * game (ORTH-9's draws are the GUI's to judge). */
static Game *uci_game(const char *fen, Error *e)
{
    static const char *const NO_DRAWS[] = {"threefold=off", "fifty_move=off",
                                           "fivefold=off", "seventy_five_move=off",
                                           "insufficient_material=off"};
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("orthodox");
    cfg.position = fen;
    params_defaults(cfg.variant, &cfg.params);
    cfg.params_set = 1;
    for (size_t i = 0; i < ARRAY_LEN(NO_DRAWS); i++)
        if (params_set(cfg.variant, &cfg.params, NO_DRAWS[i], e))
            return NULL;
    return game_new(&cfg, e);
}

/* A move of the seat to act of g typed as text: 0 and *a, or -1 with e
 * (not a move, or no seat to act). */
static int uci_move(const Game *g, const char *text, Action *a, Error *e)
{
    char q[48];
    int seat = game_to_act(g);
    if (seat < 0) {
        Status st;
        game_status(g, &st);
        return err_set(e, "%s comes after the end of the game (%s)",
                       uci_quote(q, sizeof q, text), st.reason);
    }
    if (game_parse(g, seat, text, a, e))
        return -1;
    if (action_is_meta(a->kind))
        return err_set(e, "'%s' is not a move", uci_quote(q, sizeof q, text));
    return 0;
}

/* "startpos [moves M...]" or "fen FEN [moves M...]": a new game, or NULL
 * with e. */
static Game *uci_position(char *args, Error *e)
{
    char *save, *w = strtok_r(args, WS, &save), fen[256] = "", q[48];
    if (w && !strcmp(w, "fen")) {
        while ((w = strtok_r(NULL, WS, &save)) && strcmp(w, "moves")) {
            if (strlen(fen) + strlen(w) + 2 > sizeof fen) {
                err_set(e, "position fen: a FEN of more than %zu characters", sizeof fen - 1);
                return NULL;
            }
            snprintf(fen + strlen(fen), sizeof fen - strlen(fen), "%s%s", fen[0] ? " " : "",
                     w);
        }
        if (!fen[0]) {
            err_set(e, "position fen: the FEN is missing");
            return NULL;
        }
    } else if (w && !strcmp(w, "startpos")) {
        w = strtok_r(NULL, WS, &save);
    } else {
        err_set(e, "position: startpos or fen FEN, then moves M... (not '%s')",
                w ? uci_quote(q, sizeof q, w) : "");
        return NULL;
    }
    if (w && strcmp(w, "moves")) {
        err_set(e, "position: '%s' where moves or the end of the line was expected",
                uci_quote(q, sizeof q, w));
        return NULL;
    }
    Game *g = uci_game(fen[0] ? fen : NULL, e);
    while (g && w && (w = strtok_r(NULL, WS, &save))) {
        Action a;
        if (uci_move(g, w, &a, e) || game_apply(g, &a, e)) {
            game_free(g);
            g = NULL;
        }
    }
    return g;
}

/* ---- Thinking ----------------------------------------------------------- */

static void uci_run_debug(Uci *u, char *args)
{
    char *save, *w = strtok_r(args, WS, &save), q[48];
    if (w && (!strcmp(w, "on") || !strcmp(w, "off")) && !strtok_r(NULL, WS, &save))
        u->debug = !strcmp(w, "on");
    else
        uci_note("debug: on or off, not '%s'", w ? uci_quote(q, sizeof q, w) : "");
}

/* A line met while a go is under way (searching, or holding the bestmove
 * back): stop, quit, isready, ponderhit, debug and bad lines are answered
 * at once; another command is held for after the bestmove, and ends an
 * infinite or ponder search as stop does.  So does the end of the input. */
static void uci_meanwhile(Uci *u, int r)
{
    char *at, *args;
    int c = r == IN_LINE ? uci_command(u, &at, &args) : -1;
    if (r == IN_LONG)
        uci_refuse_long(u);
    if (r == IN_EOF && (u->infinite || u->pondering))
        u->stopped = u->quitting = 1;
    if (c < 0)
        return;
    if (c == C_STOP || c == C_QUIT || c == C_ISREADY || c == C_PONDERHIT || c == C_DEBUG)
        uci_skipped(u, at);
    if (c == C_STOP || c == C_QUIT) {
        u->stopped = 1;
        u->quitting |= c == C_QUIT;
    } else if (c == C_ISREADY) {
        uci_say("readyok");
    } else if (c == C_PONDERHIT) {
        if (u->pondering && u->ponder_ms > 0)
            u->deadline = uci_now() + (double)u->ponder_ms / 1000.0;
        u->pondering = 0;
    } else if (c == C_DEBUG) {
        uci_run_debug(u, args);
    } else {
        u->held = 1;
        u->stopped |= u->infinite || u->pondering;
    }
}

/* BotWatch.stop: take the lines waiting; should the search end? */
static int uci_stop_asked(void *ud)
{
    Uci *u = ud;
    while (!u->stopped && !u->held) {
        int r = uci_read_line(u, 0);
        if (r == IN_NONE)
            break;
        uci_meanwhile(u, r);
        if (r == IN_EOF)
            break;
    }
    return u->stopped || (!u->pondering && u->deadline > 0 && uci_now() > u->deadline);
}

/* The info line of the last finished iteration, with pv. */
static void uci_info(const Uci *u, const char *pv)
{
    uci_say("info depth %d score %s nodes %ld nps %ld time %ld pv %s", u->info_depth,
            u->info_score, u->info_nodes,
            u->info_t > 0 ? (long)((double)u->info_nodes / u->info_t) : 0L,
            (long)(u->info_t * 1000.0), pv);
}

/* BotWatch.iteration: its info line. */
static void uci_iteration(void *ud, const BotIteration *it)
{
    Uci *u = ud;
    StrBuf m = STRBUF_INIT;
    game_format(u->g, it->best, FMT_MACHINE, &m);
    u->info_depth = it->depth;
    u->info_nodes = it->nodes;
    u->info_t = uci_now() - u->start;
    if (it->mate) /* in moves, not plies; negative when the bot is mated */
        snprintf(u->info_score, sizeof u->info_score, "mate %d",
                 it->mate > 0 ? (it->mate + 1) / 2 : -(-it->mate / 2));
    else
        snprintf(u->info_score, sizeof u->info_score, "cp %ld", it->score);
    str_copy(u->info_pv, sizeof u->info_pv, sb_str(&m));
    uci_info(u, u->info_pv);
    sb_free(&m);
}

/* The value of `go` parameter w: 0 and *v, or -1 with an info string. */
static int uci_go_value(const char *w, const char *text, long lo, long hi, long *v)
{
    char q[48];
    char *end = NULL;
    errno = 0;
    *v = text ? strtol(text, &end, 10) : 0;
    if (text && !*end && !errno && *v >= lo && *v <= hi)
        return 0;
    uci_note("go: %s takes a whole number from %ld to %ld, not '%s': no search", w, lo, hi,
             text ? uci_quote(q, sizeof q, text) : "");
    return -1;
}

typedef struct UciGo {
    int ponder, infinite;
    long wtime, btime, winc, binc, movestogo, depth, nodes, mate, movetime;
    int nmoves;                          /* searchmoves */
    Action moves[UCI_SEARCHMOVES_MAX];
} UciGo;

/* The words of a go line: 0, or -1 with an info string (the go refused). */
static int uci_go_parse(const Uci *u, char *args, UciGo *go)
{
    static const char *const VALUED[] = {"wtime", "btime", "winc", "binc", "movestogo",
                                         "depth", "nodes", "mate", "movetime"};
    long *slot[] = {&go->wtime, &go->btime, &go->winc, &go->binc, &go->movestogo,
                    &go->depth, &go->nodes, &go->mate, &go->movetime};
    const long lo[] = {LONG_MIN, LONG_MIN, 0, 0, 1, 1, 1, 1, 1};
    const long hi[] = {LONG_MAX, LONG_MAX, LONG_MAX, LONG_MAX, INT_MAX, INT_MAX, LONG_MAX,
                       1000, LONG_MAX};
    char *save, q[48];
    int in_moves = 0;
    memset(go, 0, sizeof *go);
    go->wtime = go->btime = -1; /* none */
    for (char *w = strtok_r(args, WS, &save); w; w = strtok_r(NULL, WS, &save)) {
        size_t k = 0;
        while (k < ARRAY_LEN(VALUED) && strcmp(w, VALUED[k]))
            k++;
        int flag = !strcmp(w, "ponder") || !strcmp(w, "infinite");
        if (k < ARRAY_LEN(VALUED)) {
            in_moves = 0;
            if (uci_go_value(w, strtok_r(NULL, WS, &save), lo[k], hi[k], slot[k]))
                return -1;
            if (k < 2 && *slot[k] < 1)
                *slot[k] = 1; /* a clock at zero or below: as little time as can be */
        } else if (flag) {
            in_moves = 0;
            *(w[0] == 'p' ? &go->ponder : &go->infinite) = 1;
        } else if (!strcmp(w, "searchmoves")) {
            in_moves = 1;
        } else if (in_moves) {
            Error e;
            if (go->nmoves == UCI_SEARCHMOVES_MAX) {
                uci_note("go: searchmoves: more than %d moves: no search", UCI_SEARCHMOVES_MAX);
                return -1;
            }
            if (uci_move(u->g, w, &go->moves[go->nmoves], &e)) {
                uci_note("go: searchmoves: %s: no search", e.msg);
                return -1;
            }
            go->nmoves++;
        } else {
            uci_note("go: '%s' is not a go parameter: skipped", uci_quote(q, sizeof q, w));
        }
    }
    return 0;
}

/* The search's limits for go (a time, in *ms, the watch keeps). */
static BotLimits uci_limits(const Uci *u, const UciGo *go, long *ms, const BotWatch *watch)
{
    BotLimits lim = {0, 0, 0, watch};
    int white = game_side_to_move(u->g) == 0;
    long left = white ? go->wtime : go->btime, inc = white ? go->winc : go->binc;
    *ms = go->movetime;
    if (!*ms && left > 0) {
        long share = left / (go->movestogo > 0 && go->movestogo < 30 ? go->movestogo + 1 : 30);
        *ms = share + inc / 2 < left / 2 ? share + inc / 2 : left / 2;
        if (*ms < 1)
            *ms = 1;
    }
    int open = go->infinite || go->depth || go->mate || *ms > 0;
    lim.nodes = go->nodes ? go->nodes : open ? LONG_MAX : BOT_SEARCH_NODES;
    if (u->nodes_cap > 0 && lim.nodes > u->nodes_cap)
        lim.nodes = u->nodes_cap;
    lim.depth = (int)go->depth;
    if (go->mate && (!lim.depth || 2 * go->mate - 1 < lim.depth))
        lim.depth = (int)(2 * go->mate - 1); /* a mate in N moves: 2N - 1 plies */
    return lim;
}

/* The bot's move (0 and *a), or -1 when the side to move has none. */
static int uci_think(Uci *u, const UciGo *go, const BotLimits *lim, Action *a)
{
    int seat = game_to_act(u->g);
    if (seat < 0) {
        Status st;
        game_status(u->g, &st);
        uci_note("no legal move: %s", st.reason);
        return -1;
    }
    BotInput in;
    Error e;
    int rc = bot_input(u->g, seat, &in, &e);
    if (rc == 0) {
        /* the search judges by the rules' draws, which the game leaves to the GUI */
        params_defaults(in.v, &in.params);
        int n = 0;
        for (int i = 0; i < in.legal.n; i++) {
            int keep = go->nmoves == 0;
            for (int k = 0; k < go->nmoves && !keep; k++)
                keep = action_eq(&in.legal.v[i], &go->moves[k]);
            if (keep)
                in.legal.v[n++] = in.legal.v[i];
        }
        in.legal.n = n;
        rc = bot_choose_limited(&in, BOT_SEARCH, lim, &u->rng, a, &e);
        bot_input_free(&in);
    }
    if (rc)
        uci_note("%s", e.msg);
    return rc;
}

static void uci_go(Uci *u, char *args)
{
    UciGo *go = cv_calloc(sizeof *go);
    if (!go || uci_go_parse(u, args, go)) {
        if (!go)
            uci_note("go: out of memory: no search");
        free(go);
        return;
    }
    BotWatch watch = {uci_stop_asked, uci_iteration, u};
    long ms;
    BotLimits lim = uci_limits(u, go, &ms, &watch);
    u->pondering = go->ponder;
    u->infinite = go->infinite;
    u->stopped = 0;
    u->info_depth = 0;
    u->start = uci_now();
    u->ponder_ms = ms;
    u->deadline = ms > 0 && !go->ponder && !go->infinite ? u->start + (double)ms / 1000.0 : 0;
    if (u->debug) {
        char n[24] = "none", d[24] = "none", t[24] = "none";
        if (lim.nodes < LONG_MAX)
            snprintf(n, sizeof n, "%ld", lim.nodes);
        if (lim.depth)
            snprintf(d, sizeof d, "%d", lim.depth);
        if (ms)
            snprintf(t, sizeof t, "%ld ms", ms);
        uci_note("go: the limits: nodes %s, depth %s, time %s%s%s", n, d, t,
                 go->ponder ? " (after ponderhit)" : "", go->infinite ? ", infinite" : "");
    }
    Action a;
    int rc = uci_think(u, go, &lim, &a);
    /* infinite and ponder: the bestmove waits for stop (or ponderhit) */
    while ((u->infinite || u->pondering) && !u->stopped)
        uci_meanwhile(u, uci_read_line(u, 1));
    StrBuf m = STRBUF_INIT;
    if (rc == 0)
        game_format(u->g, &a, FMT_MACHINE, &m);
    /* the bot draws among the moves as good as the best: the last line,
     * said again, names the one it plays (with that same score) */
    if (rc == 0 && u->info_depth > 0 && strcmp(u->info_pv, sb_str(&m)))
        uci_info(u, sb_str(&m));
    uci_say("bestmove %s", rc == 0 ? sb_str(&m) : "0000");
    sb_free(&m);
    u->pondering = u->infinite = 0;
    free(go);
}

/* ---- The loop ----------------------------------------------------------- */

/* Run command c of u->line while no go is under way: 1 to quit. */
static int uci_run(Uci *u, int c, char *at, char *args)
{
    Error e;
    uci_skipped(u, at);
    switch (c) {
    case C_UCI:
        uci_say("id name chessvar %s\nid author the chessvar authors\n"
                "option name Nodes type spin default 0 min 0 max %ld\nuciok",
                CHESSVAR_VERSION, UCI_NODES_MAX);
        break;
    case C_DEBUG: uci_run_debug(u, args); break;
    case C_ISREADY: uci_say("readyok"); break;
    case C_SETOPTION: uci_setoption(u, args); break;
    case C_UCINEWGAME:
    case C_POSITION: {
        Game *n = c == C_POSITION ? uci_position(args, &e) : uci_game(NULL, &e);
        if (n) {
            game_free(u->g);
            u->g = n;
        } else {
            uci_note("%s", e.msg);
        }
        break;
    }
    case C_GO: uci_go(u, args); return u->quitting;
    case C_QUIT: return 1;
    default: break; /* register; stop and ponderhit with no go under way */
    }
    return 0;
}

int cli_uci(const CliOptions *o)
{
    Uci u;
    Error e;
    memset(&u, 0, sizeof u);
    u.g = uci_game(NULL, &e);
    rng_seed(&u.rng, o->have_seed ? o->seed : 1);
    u.buf = malloc(UCI_LINE_MAX + 1);
    u.line = malloc(UCI_LINE_MAX + 1);
    int rc = CLI_EXIT_OK;
    if (!u.g || !u.buf || !u.line) {
        fprintf(stderr, "chessvar uci: %s\n", u.g ? "out of memory" : e.msg);
        rc = CLI_EXIT_FAIL;
    }
    while (rc == CLI_EXIT_OK) {
        int r = u.held ? IN_LINE : uci_read_line(&u, 1);
        char *at, *args;
        int c = r == IN_LINE ? uci_command(&u, &at, &args) : -1;
        u.held = 0;
        if (r == IN_EOF)
            break;
        if (r == IN_LONG)
            uci_refuse_long(&u);
        if (c >= 0 && uci_run(&u, c, at, args))
            break;
    }
    game_free(u.g);
    free(u.buf);
    free(u.line);
    return rc;
}
