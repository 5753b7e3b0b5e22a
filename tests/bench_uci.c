/*
 * bench_uci.c -- `make bench`: the strength of `chessvar uci` (the search
 * bot) against Debian's stockfish at Skill Level 0 (issue 12), over a few
 * dozen games from fixed openings, each played with both colours.  The
 * games are kept in the chessvar library, which judges every move (an
 * illegal one loses) and every end (mate, stalemate, the draw rules); a
 * game still going after MAX_PLIES plies is scored a draw.  Prints one
 * line per game, then the score with its 95% interval and the Elo
 * difference (core/lab/stats.h; docs/EXPERIMENTS.md gives the method), and
 * the depth chessvar's search reached on average (its info lines).
 *
 * CHESSVAR_UCI_GAMES sets the number of games (default 24, even).  Skips
 * with a note when stockfish is not installed.
 *
 * Invariant: a child that dies or does not answer within MOVE_SECONDS
 * stops the bench with a message; it never hangs.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/game.h"
#include "../core/lab/stats.h"

#define MAX_PLIES 300
#define MOVE_SECONDS 20
#define OURS_GO "go nodes 20000\n"        /* the search bot's own budget */
#define SF_GO "go movetime 50\n"

typedef struct Engine {
    const char *name;
    pid_t pid;
    FILE *in, *out;
} Engine;

static const char *const OPENINGS[] = {
    "e2e4 e7e5",           "d2d4 d7d5",           "e2e4 c7c5",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 e7e6",           "c2c4 e7e5",
    "g1f3 d7d5",           "e2e4 c7c6",           "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e5 g1f3 b8c6", "e2e4 d7d6",           "d2d4 d7d5 c2c4 e7e6",
};

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "bench_uci: an engine did not answer in time\n";
    ssize_t w = write(1, msg, sizeof msg - 1);
    (void)w;
    _exit(1);
}

static int engine_start(Engine *en, const char *exe, const char *arg)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        return -1;
    en->pid = fork();
    if (en->pid < 0)
        return -1;
    if (en->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(exe, exe, arg, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    en->in = fdopen(to[1], "w");
    en->out = fdopen(from[0], "r");
    return en->in && en->out ? 0 : -1;
}

static void engine_send(Engine *en, const char *cmd)
{
    fputs(cmd, en->in);
    fflush(en->in);
}

/* The depth of the last info line read, and the sum and count of those
 * before a bestmove (chessvar's, for the summary). */
static int last_depth;
static long depth_sum, depth_moves;

/* Read until a line starting with prefix (into line); -1 if the engine
 * closed its output. */
static int engine_wait(Engine *en, const char *prefix, char *line, size_t n)
{
    alarm(MOVE_SECONDS);
    last_depth = 0;
    while (fgets(line, (int)n, en->out)) {
        sscanf(line, "info depth %d", &last_depth);
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            alarm(0);
            return 0;
        }
    }
    alarm(0);
    return -1;
}

static void engine_stop(Engine *en)
{
    if (!en->in)
        return;
    fputs("quit\n", en->in);
    fclose(en->in);
    fclose(en->out);
    waitpid(en->pid, NULL, 0);
    en->in = NULL;
}

static const char *find_stockfish(void)
{
    if (access("/usr/games/stockfish", X_OK) == 0)
        return "/usr/games/stockfish";
    if (access("/usr/bin/stockfish", X_OK) == 0)
        return "/usr/bin/stockfish";
    return NULL;
}

/* One game; +1 chessvar won, 0 draw, -1 lost; the reason and plies out. */
static int play_game(Engine *ours, Engine *sf, const char *opening, int ours_white,
                     char *reason, size_t rn, int *plies)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("orthodox");
    Error e;
    Game *g = game_new(&cfg, &e);
    char moves[4096], line[8192], word[16];
    snprintf(moves, sizeof moves, "%s", opening);
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s", opening);
    for (char *m = strtok(tmp, " "); m; m = strtok(NULL, " "))
        if (game_play(g, game_to_act(g), m, &e)) {
            printf("bench_uci: opening %s: %s\n", opening, e.msg);
            exit(1);
        }
    engine_send(ours, "ucinewgame\n");
    engine_send(sf, "ucinewgame\n");
    int result = 0;
    *plies = game_history_len(g);
    for (;;) {
        Status st;
        game_status(g, &st);
        if (st.over) {
            snprintf(reason, rn, "%s", st.reason);
            int white_won = st.winners == 1, black_won = st.winners == 2;
            result = (white_won && ours_white) || (black_won && !ours_white) ? 1
                   : (white_won || black_won) ? -1 : 0;
            break;
        }
        if (*plies >= MAX_PLIES) {
            snprintf(reason, rn, "adjudicated a draw at %d plies", MAX_PLIES);
            break;
        }
        int white = game_side_to_move(g) == 0;
        Engine *en = white == ours_white ? ours : sf;
        snprintf(line, sizeof line, "position startpos moves %s\n", moves);
        engine_send(en, line);
        engine_send(en, en == ours ? OURS_GO : SF_GO);
        if (engine_wait(en, "bestmove", line, sizeof line)) {
            printf("bench_uci: %s closed its output\n", en->name);
            exit(1);
        }
        if (en == ours && last_depth > 0) {
            depth_sum += last_depth;
            depth_moves++;
        }
        if (sscanf(line, "bestmove %15s", word) != 1 ||
            game_play(g, game_to_act(g), word, &e)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(reason, rn, "%s played an illegal move: %.64s", en->name, line);
            result = en == ours ? -1 : 1;
            break;
        }
        size_t len = strlen(moves);
        snprintf(moves + len, sizeof moves - len, " %s", word);
        ++*plies;
    }
    game_free(g);
    return result;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    signal(SIGALRM, on_alarm);
    const char *sf_exe = find_stockfish();
    if (!sf_exe) {
        printf("bench_uci: stockfish NOT AVAILABLE (make deps-bench installs it); skipped\n");
        return 0;
    }
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    int games = getenv("CHESSVAR_UCI_GAMES") ? atoi(getenv("CHESSVAR_UCI_GAMES")) : 24;
    if (games < 2)
        games = 2;
    Engine ours = {"chessvar", 0, NULL, NULL}, sf = {"stockfish", 0, NULL, NULL};
    char line[4096];
    if (engine_start(&ours, prog, "uci") || engine_start(&sf, sf_exe, NULL)) {
        printf("bench_uci: cannot start the engines\n");
        return 1;
    }
    engine_send(&ours, "uci\n");
    engine_send(&sf, "uci\n");
    if (engine_wait(&ours, "uciok", line, sizeof line) ||
        engine_wait(&sf, "uciok", line, sizeof line)) {
        printf("bench_uci: an engine did not answer uciok\n");
        return 1;
    }
    engine_send(&sf, "setoption name Skill Level value 0\n"
                     "setoption name Threads value 1\nsetoption name Hash value 16\n");
    engine_send(&ours, "isready\n");
    engine_send(&sf, "isready\n");
    if (engine_wait(&ours, "readyok", line, sizeof line) ||
        engine_wait(&sf, "readyok", line, sizeof line)) {
        printf("bench_uci: an engine did not answer readyok\n");
        return 1;
    }
    printf("chessvar uci (search, %.*s) v stockfish Skill Level 0 (%.*s), %d games\n",
           (int)strlen(OURS_GO) - 1, OURS_GO, (int)strlen(SF_GO) - 1, SF_GO, games);
    long w = 0, d = 0, l = 0;
    int nopen = (int)(sizeof OPENINGS / sizeof OPENINGS[0]);
    for (int i = 0; i < games; i++) {
        const char *op = OPENINGS[(i / 2) % nopen];
        int ours_white = i % 2 == 0, plies;
        char reason[256];
        int r = play_game(&ours, &sf, op, ours_white, reason, sizeof reason, &plies);
        w += r > 0, d += r == 0, l += r < 0;
        printf("  game %2d  %-22s chessvar %s: %s (%s, %d plies)\n", i + 1, op,
               ours_white ? "white" : "black", r > 0 ? "won" : r < 0 ? "lost" : "draw",
               reason, plies);
        fflush(stdout);
    }
    engine_stop(&ours);
    engine_stop(&sf);
    double s = stats_score(w, d, l);
    Interval ci = stats_score_interval(w, d, l, STATS_Z95);
    char elo[3][32];
    double e3[3] = {stats_elo(s), stats_elo(ci.lo), stats_elo(ci.hi)};
    for (int k = 0; k < 3; k++) {
        if (e3[k] != e3[k] || e3[k] > 1e9 || e3[k] < -1e9)
            snprintf(elo[k], sizeof elo[k], "n/a");
        else
            snprintf(elo[k], sizeof elo[k], "%+.0f", e3[k]);
    }
    printf("chessvar uci v stockfish Skill Level 0: +%ld =%ld -%ld, score %.1f%% +- %.1f "
           "(95%%: %.1f - %.1f), Elo %s (%s .. %s)\n", w, d, l, 100 * s,
           50 * (ci.hi - ci.lo), 100 * ci.lo, 100 * ci.hi, elo[0], elo[1], elo[2]);
    printf("chessvar's search: depth %.1f on average over %ld moves (its info lines)\n",
           depth_moves ? (double)depth_sum / (double)depth_moves : 0.0, depth_moves);
    return 0;
}
