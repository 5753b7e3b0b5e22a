/*
 * cli_uci.c -- `chessvar uci`: the UCI protocol for orthodox chess with
 * the search bot (core/bot.h), so chess GUIs and match tools can use it.
 *
 * Understood: uci, isready, ucinewgame, position startpos|fen FEN [moves
 * ...], go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS
 * binc MS] [infinite], stop, quit; anything else is ignored, as the
 * protocol asks.  The search is synchronous: `go` answers with one
 * `bestmove` before the next line is read.
 *
 * Invariant: a `position` line that does not read (a bad FEN, an illegal
 * move) leaves the previous position and is reported with an `info
 * string` line, never a crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "cli.h"

#define UCI_LINE_MAX 65536

/* "position startpos moves e2e4 ..." or "position fen FEN moves ...": a
 * new game, or NULL with e. */
static Game *uci_position(char *args, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("orthodox");
    char *moves = strstr(args, " moves");
    if (moves) {
        *moves = '\0';
        moves += 6;
    }
    args += strspn(args, " ");
    if (!strncmp(args, "fen", 3)) {
        cfg.position = args + 3 + strspn(args + 3, " ");
    } else if (strncmp(args, "startpos", 8)) {
        err_set(e, "position: startpos or fen FEN");
        return NULL;
    }
    Game *g = game_new(&cfg, e);
    for (char *m = moves ? strtok(moves, " \t") : NULL; g && m; m = strtok(NULL, " \t")) {
        if (game_play(g, game_to_act(g), m, e)) {
            game_free(g);
            g = NULL;
        }
    }
    return g;
}

/* The limits of a `go` line for the side to move. */
static BotLimits uci_limits(const char *args, int white)
{
    BotLimits lim = {0, 0, 0};
    long wtime = 0, btime = 0, winc = 0, binc = 0;
    char word[32];
    const char *p = args;
    int n;
    while (sscanf(p, "%31s%n", word, &n) == 1) {
        p += n;
        long v = 0;
        int k = 0;
        int has = sscanf(p, "%ld%n", &v, &k) == 1;
        if (has && !strcmp(word, "depth"))
            lim.depth = (int)v;
        else if (has && !strcmp(word, "nodes"))
            lim.nodes = v;
        else if (has && !strcmp(word, "movetime"))
            lim.ms = v;
        else if (has && !strcmp(word, "wtime"))
            wtime = v;
        else if (has && !strcmp(word, "btime"))
            btime = v;
        else if (has && !strcmp(word, "winc"))
            winc = v;
        else if (has && !strcmp(word, "binc"))
            binc = v;
        if (has)
            p += k;
    }
    long left = white ? wtime : btime, inc = white ? winc : binc;
    if (!lim.ms && left > 0)
        lim.ms = left / 30 + inc / 2 > 1 ? left / 30 + inc / 2 : 1;
    if (lim.depth && !lim.nodes && !lim.ms)
        lim.nodes = 50000000L; /* the depth is the limit */
    return lim;
}

static void uci_go(Game *g, const char *args, Rng *rng)
{
    int seat = game_to_act(g);
    if (seat < 0) {
        puts("bestmove 0000");
        return;
    }
    BotLimits lim = uci_limits(args, game_side_to_move(g) == 0);
    BotInput in;
    Error e;
    Action a;
    int rc = bot_input(g, seat, &in, &e);
    if (rc == 0) {
        rc = bot_choose_limited(&in, BOT_SEARCH, &lim, rng, &a, &e);
        bot_input_free(&in);
    }
    if (rc) {
        printf("info string %s\nbestmove 0000\n", e.msg);
        return;
    }
    StrBuf m = STRBUF_INIT;
    game_format(g, &a, FMT_MACHINE, &m);
    printf("bestmove %s\n", sb_str(&m));
    sb_free(&m);
}

int cli_uci(const CliOptions *o)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("orthodox");
    Error e;
    Game *g = game_new(&cfg, &e);
    Rng rng;
    rng_seed(&rng, o->have_seed ? o->seed : 1);
    char *line = malloc(UCI_LINE_MAX);
    if (!g || !line) {
        game_free(g);
        free(line);
        fprintf(stderr, "chessvar uci: out of memory\n");
        return CLI_EXIT_FAIL;
    }
    while (fgets(line, UCI_LINE_MAX, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *cmd = line + strspn(line, " \t");
        size_t w = strcspn(cmd, " \t");
        char *args = cmd + w + strspn(cmd + w, " \t");
        if (w == 3 && !strncmp(cmd, "uci", 3)) {
            printf("id name chessvar %s\nid author the chessvar authors\nuciok\n",
                   CHESSVAR_VERSION);
        } else if (w == 7 && !strncmp(cmd, "isready", 7)) {
            puts("readyok");
        } else if (w == 10 && !strncmp(cmd, "ucinewgame", 10)) {
            Game *n = game_new(&cfg, &e);
            if (n) {
                game_free(g);
                g = n;
            }
        } else if (w == 8 && !strncmp(cmd, "position", 8)) {
            Game *n = uci_position(args, &e);
            if (n) {
                game_free(g);
                g = n;
            } else {
                printf("info string %s\n", e.msg);
            }
        } else if (w == 2 && !strncmp(cmd, "go", 2)) {
            uci_go(g, args, &rng);
        } else if (w == 4 && !strncmp(cmd, "quit", 4)) {
            break;
        } /* stop, setoption, debug, register, ponderhit: nothing to do */
        fflush(stdout);
    }
    game_free(g);
    free(line);
    return CLI_EXIT_OK;
}
