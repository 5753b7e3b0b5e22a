/*
 * bench_fairy.c -- `make bench`: the speed of rule sets from parts (issue
 * 24).  Perft 4 from the start of each lichess variant's script
 * (scripts/variants/NAME.lua on the fairy variant), nodes/s beside
 * chessops' perft of the same position and depth (lichess's rules library
 * in node, tests/oracle/perft.cjs bench) measured in the same run, as a
 * ratio (the goal: ahead of chessops in every one); orthodox perft
 * 4 by the hand-written engine and by the fairy variant without a rule
 * set, and the house rules on orthodox chess that were the only way before
 * (scripts/king_of_the_hill.lua, scripts/three_check.lua), for reference;
 * and Capablanca perft 4 and Grand chess perft 3 (scripts/variants/) beside
 * Fairy-Stockfish's own `go perft` (Debian's fairy-stockfish, which make
 * bench installs) and ffish, Fairy-Stockfish in WebAssembly.
 *
 * This machine's speed wanders from one second to the next: each figure
 * is the best of 3 rounds, each of our rounds right after one of the
 * reference's, so both are measured in the same moments; a perft of ours
 * shorter than a quarter of a second is repeated for that long (its time
 * is the mean), the reference's is timed once after a perft one shallower
 * has warmed node's compiler up.
 *
 * Invariant: every count is checked against the reference's count of the
 * same run (or the published one when the reference is not installed);
 * a wrong count, a script that does not load or a missing fairy variant
 * makes the exit status 1.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define ROUNDS 3
#define DEPTH 4

typedef struct Case {
    const char *label;
    const char *engine;   /* our variant */
    const char *script;   /* a house-rule file, or NULL */
    const char *oracle;   /* perft.cjs's variant name, or NULL: none */
    uint64_t published;   /* the count when the reference is missing (0: none) */
    const char *fsf;      /* Fairy-Stockfish's UCI_Variant, or NULL */
    int depth;            /* 0: DEPTH */
} Case;

static const Case CASES[] = {
    {"antichess", "fairy", "scripts/variants/antichess.lua", "antichess", 0, NULL, 0},
    {"atomic", "fairy", "scripts/variants/atomic.lua", "atomic", 0, NULL, 0},
    {"crazyhouse", "fairy", "scripts/variants/crazyhouse.lua", "crazyhouse", 0, NULL, 0},
    {"horde", "fairy", "scripts/variants/horde.lua", "horde", 0, NULL, 0},
    {"king of the hill", "fairy", "scripts/variants/king_of_the_hill.lua", "king_of_the_hill", 0,
     NULL, 0},
    {"racing kings", "fairy", "scripts/variants/racing_kings.lua", "racing_kings", 0, NULL, 0},
    {"three-check", "fairy", "scripts/variants/three_check.lua", "three_check", 0, NULL, 0},
    {"orthodox", "orthodox", NULL, "orthodox", 197281, NULL, 0},
    {"orthodox on fairy", "fairy", NULL, "orthodox", 197281, NULL, 0},
    {"koth house rule", "orthodox", "scripts/king_of_the_hill.lua", "king_of_the_hill", 197281,
     NULL, 0},
    {"3check house rule", "orthodox", "scripts/three_check.lua", "three_check", 197281, NULL, 0},
    /* Fairy-Stockfish's tests/perft.sh: capablanca startpos depth 4, grand 3 */
    {"capablanca", "fairy", "scripts/variants/capablanca.lua", "ffish:capablanca", 805128,
     "capablanca", 0},
    {"grand", "fairy", "scripts/variants/grand.lua", "ffish:grand", 259514, "grand", 3},
};
#define NCASES (sizeof CASES / sizeof CASES[0])

static int have_oracle(void)
{
    const char *d = getenv("ORACLE_DIR");
    char path[512];
    snprintf(path, sizeof path, "%s/chessops/package.json",
             d && *d ? d : "build/oracle/node_modules");
    FILE *f = fopen(path, "r");
    if (f)
        fclose(f);
    return f != NULL && system("command -v node >/dev/null 2>&1") == 0;
}

/* One round of the reference: its count and seconds, or 0 when it failed. */
static int oracle_round(const char *variant, int want_depth, uint64_t *nodes, double *seconds)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "node tests/oracle/perft.cjs bench %s %d 2>&1", variant,
             want_depth);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[512] = "", name[64];
    int depth = 0, ok = 0;
    unsigned long long n = 0;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "oracle %63s %d %llu %lf", name, &depth, &n, seconds) == 4 &&
            depth == want_depth && *seconds > 0) {
            *nodes = n;
            ok = 1;
        } else {
            printf("  %s: %s", variant, line);
        }
    pclose(p);
    return ok;
}

/* ---- Fairy-Stockfish's own perft (Debian's fairy-stockfish, UCI) -------- */

/* /usr/games/fairy-stockfish, else the first on PATH, or NULL. */
static const char *find_fsf(void)
{
    static char found[4096];
    if (access("/usr/games/fairy-stockfish", X_OK) == 0)
        return "/usr/games/fairy-stockfish";
    const char *path = getenv("PATH");
    for (const char *d = path ? path : ""; *d;) {
        size_t n = strcspn(d, ":");
        if (n > 0 && n + 17 < sizeof found) {
            snprintf(found, sizeof found, "%.*s/fairy-stockfish", (int)n, d);
            if (access(found, X_OK) == 0)
                return found;
        }
        d += n + (d[n] == ':');
    }
    return NULL;
}

typedef struct Uci {
    pid_t pid;
    FILE *in, *out;  /* we write to in, read from out */
} Uci;

static int uci_start(Uci *u, const char *exe)
{
    int to[2], from[2];
    memset(u, 0, sizeof *u);
    if (pipe(to) < 0)
        return -1;
    if (pipe(from) < 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
    u->pid = fork();
    if (u->pid < 0)
        return -1;
    if (u->pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(exe, exe, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    u->in = fdopen(to[1], "w");
    u->out = fdopen(from[0], "r");
    return u->in && u->out ? 0 : -1;
}

/* Send cmd, then read lines until one starts with prefix (into line). */
static int uci_ask(Uci *u, const char *cmd, const char *prefix, char *line, size_t n)
{
    fputs(cmd, u->in);
    fflush(u->in);
    while (fgets(line, (int)n, u->out))
        if (!strncmp(line, prefix, strlen(prefix)))
            return 0;
    return -1;
}

static void uci_stop(Uci *u)
{
    if (u->in) {
        fputs("quit\n", u->in);
        fclose(u->in);
    }
    if (u->out)
        fclose(u->out);
    if (u->pid > 0)
        waitpid(u->pid, NULL, 0);
}

/* One `go perft` of Fairy-Stockfish from the variant's start, timed from
 * the command to its "Nodes searched" line: 1 with the count and seconds. */
static int fsf_round(const char *exe, const char *variant, int depth, uint64_t *nodes,
                     double *seconds)
{
    Uci u;
    char line[512], cmd[128];
    unsigned long long n = 0;
    int ok = 0;
    if (uci_start(&u, exe) == 0 && uci_ask(&u, "uci\n", "uciok", line, sizeof line) == 0) {
        snprintf(cmd, sizeof cmd, "setoption name UCI_Variant value %s\nisready\n", variant);
        if (uci_ask(&u, cmd, "readyok", line, sizeof line) == 0) {
            snprintf(cmd, sizeof cmd, "position startpos\ngo perft %d\n", depth);
            double t0 = tu_seconds();
            if (uci_ask(&u, cmd, "Nodes searched", line, sizeof line) == 0 &&
                sscanf(line, "Nodes searched: %llu", &n) == 1) {
                *seconds = tu_seconds() - t0;
                *nodes = n;
                ok = *seconds > 0;
            }
        }
    }
    uci_stop(&u);
    return ok;
}

/* Our game of c from the start: NULL with a message printed. */
static Game *our_game(const Case *c, House **h, char **text)
{
    Error e;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    *h = NULL;
    *text = NULL;
    cfg.variant = variant_find(c->engine);
    if (!cfg.variant) {
        printf("%-18s the variant \"%s\" is not registered\n", c->label, c->engine);
        return NULL;
    }
    params_defaults(cfg.variant, &cfg.params);
    cfg.params_set = 1;
    if (!c->script) {
        Game *g = game_new(&cfg, &e);
        if (!g)
            printf("%-18s %s\n", c->label, e.msg);
        return g;
    }
    *text = tu_read_file(c->script);
    if (!*text) {
        printf("%-18s %s cannot be read\n", c->label, c->script);
        return NULL;
    }
    HouseSource src = {c->script, *text, strlen(*text)};
    *h = house_load(cfg.variant, 0, &src, 1, NULL, &e);
    if (!*h || house_params(*h, &cfg.params, &e)) {
        printf("%-18s %s\n", c->label, e.msg);
        return NULL;
    }
    GameHooks k = house_hooks(*h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        printf("%-18s %s\n", c->label, e.msg);
    return g;
}

static double mnps(uint64_t nodes, double s)
{
    return s > 0 ? (double)nodes / s / 1e6 : 0;
}

/* Measure c: 0, or 1 on a wrong count or a failure. */
static int bench_case(const Case *c, int oracle, const char *fsf)
{
    House *h;
    char *text;
    int depth = c->depth ? c->depth : DEPTH;
    Game *g = our_game(c, &h, &text);
    if (!g) {
        if (h)
            house_free(h);
        free(text);
        return 1;
    }
    uint64_t ours = 0, ref = 0, fsf_n = 0;
    double best = 0, ref_best = 0, fsf_best = 0;
    int have_ref = 0, have_fsf = 0, bad = 0;
    for (int r = 0; r < ROUNDS && !bad; r++) {
        uint64_t n;
        double s;
        if (oracle && c->oracle && oracle_round(c->oracle, depth, &n, &s)) {
            if (!have_ref || s < ref_best)
                ref_best = s;
            ref = n;
            have_ref = 1;
        }
        if (fsf && c->fsf && fsf_round(fsf, c->fsf, depth, &n, &s)) {
            if (!have_fsf || s < fsf_best)
                fsf_best = s;
            fsf_n = n;
            have_fsf = 1;
        }
        /* a fast perft is repeated for a quarter of a second: the time of one */
        int times = 0;
        double t0 = tu_seconds();
        do {
            ours = game_perft(g, depth);
            times++;
            s = tu_seconds() - t0;
            bad = ours == GAME_PERFT_NOMEM || ours == GAME_PERFT_FAILED;
        } while (!bad && s < 0.25);
        s /= times;
        if (r == 0 || s < best)
            best = s;
    }
    uint64_t want = have_ref ? ref : have_fsf ? fsf_n : c->published;
    char label[48];
    snprintf(label, sizeof label, "%s %d", c->label, depth);
    printf("%-20s %9" PRIu64 " nodes in %7.4f s = %7.3f M nodes/s", label, ours, best,
           mnps(ours, best));
    if (have_ref)
        printf(", %s %7.3f M nodes/s, x%.2f",
               strncmp(c->oracle, "ffish:", 6) ? "chessops" : "ffish", mnps(ref, ref_best),
               ref_best / best);
    else if (c->oracle)
        printf(", no reference measured");
    if (have_fsf)
        printf(", fairy-stockfish go perft %7.3f M nodes/s, x%.2f", mnps(fsf_n, fsf_best),
               fsf_best / best);
    else if (c->fsf)
        printf(", fairy-stockfish NOT AVAILABLE (make deps-bench)");
    if (bad)
        printf(" (PERFT FAILED)");
    else if (want && ours != want)
        printf(" (WRONG COUNT: %s %" PRIu64 ")", have_ref || have_fsf ? "the reference counts"
                                                                      : "published", want);
    else if (have_ref && have_fsf && ref != fsf_n)
        printf(" (ffish %" PRIu64 " and fairy-stockfish %" PRIu64 " differ)", ref, fsf_n);
    printf("\n");
    game_free(g);
    if (h)
        house_free(h);
    free(text);
    return bad || (want && ours != want);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN); /* an engine that dies is a failed round, not ours */
    int oracle = have_oracle();
    const char *fsf = find_fsf();
    printf("perft from the start (depth after the name), the best of %d rounds; the references "
           "(%s; %s) measured in the same run, xN = our nodes/s over theirs\n",
           ROUNDS,
           oracle ? "chessops and ffish in node, tests/oracle/perft.cjs"
                  : "chessops and ffish NOT AVAILABLE: node or build/oracle missing (make "
                    "deps-oracle)",
           fsf ? fsf : "fairy-stockfish NOT AVAILABLE (make deps-bench)");
    int bad = 0;
    for (size_t i = 0; i < NCASES; i++)
        bad |= bench_case(&CASES[i], oracle, fsf);
    return bad;
}
