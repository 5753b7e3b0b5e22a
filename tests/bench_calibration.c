/*
 * bench_calibration.c -- `make bench`: do the experiment's intervals and
 * verdict keep their promises?  (issue 23, "Done when": the audit's
 * calibration, a real effect, an A/A rule and a near-certain player.)
 *
 * Orthodox chess, P1 greedy v P2 random, seats rotating, as `chessvar
 * experiment orthodox --bot white=greedy` plays it; A the plain rules, B
 * scripts/three_check.lua.  A large run on seeds of its own (TRUTH games
 * a set) and RUNS experiments of GAMES games a set, each on its own seed,
 * are played; each experiment is judged against the truth measured on all
 * the games but its own (the large run and the other experiments pooled:
 * about 50,000 games a set, independent of the one judged -- the large run
 * alone is off by its own error, 0.15 points, which would move the
 * coverage by itself):
 *   (a) a real effect: how often the paired 95% interval of B - A in
 *       white's wins covers the true change, and how often the verdict
 *       names it (finds the change);
 *   (b) A/A: run k's A games against run k+1's A games (the same rules, on
 *       other seeds: the games differ, the pairing is there but carries no
 *       information): how often the verdict names any change (5% promised);
 *   (c) a near-certain player: P1's true score under three-check is about
 *       0.98; how often each run's interval of that score (B's) covers it.
 * The methods before issue 23 (independent Newcombe and Welch intervals,
 * no correction over the verdict's metrics, the clipped normal score
 * interval) are judged on the same games, side by side.  Each rate is
 * printed with its own Wilson interval.
 *
 * docs/EXPERIMENTS.md quotes the report; after printing it the bench
 * compares it with that block (tests/support/docblock.h: only the seconds
 * and the number of workers may differ) and fails when they differ;
 * CHESSVAR_DOCS_UPDATE=1 rewrites the block.  CALIBRATION_RUNS,
 * CALIBRATION_GAMES and CALIBRATION_TRUTH change the sizes (test_bench_docs
 * runs it tiny).
 *
 * Invariant: the games are exp_play's, played by forked workers (one per
 * core, at most 8) that send them back through pipes, each game from its
 * own seed: the figures do not depend on the number of workers.
 */
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/lab/experiment.h"
#include "../core/lab/stats.h"
#include "../core/lua/house.h"
#include "../core/variant.h"
#include "support/docblock.h"
#include "support/testutil.h"

#define RUNS 200
#define GAMES 200
#define TRUTH 10000
#define SMALL 50 /* (c) again on each run's first SMALL games */
#define TRUTH_SEED 0x7472757468ULL /* "truth" */

static House *three_check;

static void info(ExpInfo *x, long games, uint64_t seed)
{
    memset(x, 0, sizeof *x);
    strcpy(x->variant, "orthodox");
    strcpy(x->title, "Orthodox chess");
    x->nsides = x->nseats = 2;
    strcpy(x->side[0], "white"), strcpy(x->side[1], "black");
    strcpy(x->seat[0], "white"), strcpy(x->seat[1], "black");
    x->players[0].level = BOT_GREEDY;
    x->players[1].level = BOT_RANDOM;
    x->games = games;
    x->seed = seed;
    x->max_plies = 1000;
    x->nsets = 2;
    strcpy(x->set[0].label, "A");
    strcpy(x->set[1].label, "B");
    x->set[1].nrules = 1;
    strcpy(x->set[1].rules[0], "scripts/three_check.lua");
    strcpy(x->set[1].rules_name[0], "Three-check");
}

/* Game `index` of rule set `set` of experiment x into *out. */
static int play(const ExpInfo *x, long index, int set, ExpGame *out)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find("orthodox");
    cfg.seed = exp_game_seed(x->seed, index / x->nseats);
    GameHooks hooks;
    memset(&hooks, 0, sizeof hooks);
    if (set) {
        house_new_game(three_check);
        hooks = house_hooks(three_check);
    }
    Error e = {""};
    Game *g = game_new_hooked(&cfg, &hooks, &e);
    int rc = g ? exp_play(x, index, set, g, out, &e) : -1;
    if (rc)
        fprintf(stderr, "bench_calibration: game %ld of %s: %s\n", index, set ? "B" : "A",
                e.msg);
    game_free(g);
    return rc;
}

/* Read exactly n bytes from fd: 0, or -1 at the end or an error. */
static int read_full(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* Play every game of the experiments xs[0..n-1] (both sets) into out
 * (n * 2 * games, experiment k's at k * 2 * games, A before B): game t by
 * worker t % workers, which sends it back through its pipe. */
static int play_all(const ExpInfo *xs, int n, long games, ExpGame *out, int workers)
{
    long total = (long)n * 2 * games;
    int fd[8];
    for (int w = 0; w < workers; w++) {
        int p[2];
        if (pipe(p))
            return -1;
        pid_t pid = fork();
        if (pid < 0)
            return -1;
        if (pid == 0) {
            close(p[0]);
            for (long t = w; t < total; t += workers) {
                ExpGame g;
                long k = t / (2 * games), r = t % (2 * games);
                if (play(&xs[k], r % games, (int)(r / games), &g) ||
                    write(p[1], &g, sizeof g) != (ssize_t)sizeof g)
                    _exit(1);
            }
            _exit(0);
        }
        close(p[1]);
        fd[w] = p[0];
    }
    /* each worker's games come in its order: read whichever is ready */
    long next[8];
    int open = workers, bad = 0;
    for (int w = 0; w < workers; w++)
        next[w] = w < total ? w : -1;
    while (open > 0 && !bad) {
        struct pollfd pf[8];
        int m = 0, who[8];
        for (int w = 0; w < workers; w++)
            if (next[w] >= 0) {
                pf[m].fd = fd[w];
                pf[m].events = POLLIN;
                who[m++] = w;
            }
        if (poll(pf, (nfds_t)m, -1) < 0)
            bad = 1;
        for (int i = 0; i < m && !bad; i++) {
            if (!(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int w = who[i];
            if (read_full(fd[w], &out[next[w]], sizeof out[0]))
                bad = 1;
            next[w] += workers;
            if (next[w] >= total) {
                next[w] = -1;
                open--;
            }
        }
    }
    for (int w = 0; w < workers; w++) {
        int st;
        close(fd[w]);
        if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
            bad = 1;
    }
    return bad ? -1 : 0;
}

/* ---- The methods before issue 23, for the comparison ----------------- */

typedef struct Old {
    int verdict;          /* the old verdict named some change */
    int white_found;      /* ... white's wins going up */
    Interval white;       /* Newcombe's interval of white's B - A */
    Interval score_b;     /* the clipped normal interval of P1's score in B */
} Old;

static Old old_methods(const ExpInfo *x, const ExpGame *a, const ExpGame *b, long games)
{
    long wa[2] = {0, 0}, wb[2] = {0, 0}, da = 0, db = 0, pw = 0, pd = 0, pl = 0;
    Moments la = {0, 0, 0}, lb = {0, 0, 0};
    for (long i = 0; i < games; i++) {
        for (int s = 0; s < 2; s++) {
            wa[s] += (a[i].seat_won >> s) & 1;
            wb[s] += (b[i].seat_won >> s) & 1;
        }
        da += a[i].finished && !a[i].winners;
        db += b[i].finished && !b[i].winners;
        stats_add(&la, a[i].plies);
        stats_add(&lb, b[i].plies);
        int seat = exp_player_seat(x, b[i].index, 0);
        if ((b[i].seat_won >> seat) & 1)
            pw++;
        else if (b[i].winners)
            pl++;
        else
            pd++;
    }
    Old o;
    memset(&o, 0, sizeof o);
    for (int s = 0; s < 2; s++) {
        Interval d = stats_diff_proportions(wa[s], games, wb[s], games, STATS_Z95);
        o.verdict |= d.lo > 0 || d.hi < 0;
        if (s == 0) {
            o.white = d;
            o.white_found = d.lo > 0;
        }
    }
    Interval d = stats_diff_proportions(da, games, db, games, STATS_Z95);
    o.verdict |= d.lo > 0 || d.hi < 0;
    Interval l = stats_diff_means(&la, &lb, STATS_Z95);
    o.verdict |= l.lo > 0 || l.hi < 0;
    o.score_b = stats_score_interval(pw, pd, pl, STATS_Z95);
    return o;
}

/* ---- Reporting ---------------------------------------------------------- */

static void rate(FILE *out, const char *what, long k, long n)
{
    Interval w = stats_wilson(k, n, STATS_Z95);
    fprintf(out, "  %-58s %5.1f%%  (%4.1f - %4.1f), %ld of %ld\n", what, 100.0 * (double)k / (double)n,
           100 * w.lo, 100 * w.hi, k, n);
}

static ExpComparison compare(const ExpInfo *x, const ExpGame *a, const ExpGame *b, long games,
                             ExpGame *buf)
{
    for (long i = 0; i < games; i++) {
        buf[i] = a[i];
        buf[i].set = 0;
        buf[games + i] = b[i];
        buf[games + i].set = 1;
    }
    ExpComparison c;
    if (exp_compare(x, buf, 2 * games, &c)) {
        fprintf(stderr, "bench_calibration: out of memory\n");
        exit(1);
    }
    return c;
}

static const ExpMetric *metric(const ExpComparison *c, const char *key)
{
    for (int k = 0; k < c->nmetrics; k++)
        if (strcmp(c->m[k].key, key) == 0)
            return &c->m[k];
    fprintf(stderr, "bench_calibration: no metric %s\n", key);
    exit(1);
}

/* Compare the report with the block docs/EXPERIMENTS.md quotes: the one of
 * "$ ./build/tests/bench_calibration" at the bench's own sizes (it must be
 * there), else of the command with the sizes set ("$ CALIBRATION_RUNS=3
 * ... ./build/tests/bench_calibration", compared when the docs have one). */
static int docs_check(long runs, long games, long truth_games, const char *report)
{
    char cmd[256] = "";
    size_t n = 0;
    if (runs != RUNS)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "CALIBRATION_RUNS=%ld ", runs);
    if (games != GAMES)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "CALIBRATION_GAMES=%ld ", games);
    if (truth_games != TRUTH)
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "CALIBRATION_TRUTH=%ld ", truth_games);
    snprintf(cmd + n, sizeof cmd - n, "./build/tests/bench_calibration");
    return bench_docs_check(cmd, report, n == 0);
}

static long env_long(const char *name, long def)
{
    const char *v = getenv(name);
    return v && atol(v) > 0 ? atol(v) : def;
}

int main(void)
{
    long runs = env_long("CALIBRATION_RUNS", RUNS), games = env_long("CALIBRATION_GAMES", GAMES);
    long truth_games = env_long("CALIBRATION_TRUTH", TRUTH);
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int workers = ncores < 1 ? 1 : ncores > 8 ? 8 : (int)ncores;
    char *text = tu_read_file("scripts/three_check.lua");
    if (!text) {
        printf("bench_calibration: cannot read scripts/three_check.lua (run from the tree)\n");
        return 1;
    }
    HouseSource src = {"scripts/three_check.lua", text, strlen(text)};
    Error e = {""};
    three_check = house_load(variant_find("orthodox"), 0, &src, 1, NULL, &e);
    if (!three_check) {
        printf("bench_calibration: %s\n", e.msg);
        return 1;
    }
    double t0 = tu_seconds();

    /* the truth */
    ExpInfo tx;
    info(&tx, truth_games, TRUTH_SEED);
    size_t tsize = sizeof(ExpGame) * 2 * (size_t)truth_games;
    ExpGame *tg = malloc(tsize);
    if (!tg || play_all(&tx, 1, truth_games, tg, workers)) {
        printf("bench_calibration: the truth run failed\n");
        return 1;
    }
    ExpGame *buf = malloc(sizeof *buf * 2 * (size_t)(truth_games > games ? truth_games : games));
    if (!buf)
        return 1;
    ExpComparison tc = compare(&tx, tg, tg + truth_games, truth_games, buf);
    double tw = metric(&tc, "white")->diff, ts = metric(&tc, "score")->b;
    Interval twi = metric(&tc, "white")->ci, tsi = metric(&tc, "score")->b_ci;
    double t_truth = tu_seconds() - t0;
    /* the same games taken a round at a time: wider when the games of a
     * round (which share their seed) go together */
    for (long i = 0; i < 2 * truth_games; i++)
        tg[i].seeded_start = 1;
    ExpComparison tr = compare(&tx, tg, tg + truth_games, truth_games, buf);
    for (long i = 0; i < 2 * truth_games; i++)
        tg[i].seeded_start = 0;
    Interval twr = metric(&tr, "white")->ci;

    /* the runs */
    ExpInfo *xs = calloc((size_t)runs, sizeof *xs);
    size_t rsize = sizeof(ExpGame) * 2 * (size_t)games * (size_t)runs;
    ExpGame *rg = malloc(rsize);
    if (!xs || !rg)
        return 1;
    for (long k = 0; k < runs; k++)
        info(&xs[k], games, 1000 + (uint64_t)k);
    if (play_all(xs, (int)runs, games, rg, workers)) {
        printf("bench_calibration: a run failed\n");
        return 1;
    }
    long cover = 0, found = 0, found_alone = 0, old_cover = 0, old_found = 0;
    long aa = 0, old_aa = 0, aa_metric = 0, s_cover = 0, old_s_cover = 0;
    long aa_metrics = 0, s_small = 0, old_s_small = 0;
    Moments est = {0, 0, 0};
    double half = 0;
    /* the truth each run is judged against: the truth run pooled with
     * every other run (leave one out: never the run's own games), so that
     * it is both large and independent of the run */
    double *dw = calloc((size_t)runs, sizeof *dw), *sb = calloc((size_t)runs, sizeof *sb);
    double sum_w = 0, sum_s = 0, pool = (double)(runs - 1) * (double)games + (double)truth_games;
    if (!dw || !sb)
        return 1;
    for (long k = 0; k < runs; k++) {
        const ExpGame *a = rg + k * 2 * games;
        ExpComparison c = compare(&xs[k], a, a + games, games, buf);
        sum_w += dw[k] = metric(&c, "white")->diff;
        sum_s += sb[k] = metric(&c, "score")->b;
    }
    for (long k = 0; k < runs; k++) {
        const ExpGame *a = rg + k * 2 * games, *b = a + games;
        double true_white = ((sum_w - dw[k]) * (double)games + tw * (double)truth_games) / pool;
        double true_score = ((sum_s - sb[k]) * (double)games + ts * (double)truth_games) / pool;
        ExpComparison c = compare(&xs[k], a, b, games, buf);
        const ExpMetric *w = metric(&c, "white"), *s = metric(&c, "score");
        stats_add(&est, w->diff);
        half += (w->ci.hi - w->ci.lo) / 2 / (double)runs;
        cover += w->ci.lo <= true_white && true_white <= w->ci.hi;
        found += w->clear && w->diff > 0;
        found_alone += w->ci.lo > 0;
        s_cover += s->b_ci.lo <= true_score && true_score <= s->b_ci.hi;
        /* the score over the first SMALL games of the run too, where the
         * old interval was worst (the audit measured 78.5% there) */
        long sw = 0, sd = 0, sl = 0, few = games < SMALL ? games : SMALL;
        for (long i = 0; i < few; i++) {
            int seat = exp_player_seat(&xs[k], b[i].index, 0);
            if ((b[i].seat_won >> seat) & 1)
                sw++;
            else if (b[i].winners)
                sl++;
            else
                sd++;
        }
        Interval ps = stats_score_profile(sw, sd, sl, STATS_Z95);
        Interval os = stats_score_interval(sw, sd, sl, STATS_Z95);
        s_small += ps.lo <= true_score && true_score <= ps.hi;
        old_s_small += os.lo <= true_score && true_score <= os.hi;
        Old o = old_methods(&xs[k], a, b, games);
        old_cover += o.white.lo <= true_white && true_white <= o.white.hi;
        old_found += o.white_found;
        old_s_cover += o.score_b.lo <= true_score && true_score <= o.score_b.hi;
        /* A/A: run k's A games against run k+1's, as a rule set B */
        const ExpGame *a2 = rg + ((k + 1) % runs) * 2 * games;
        ExpComparison n = compare(&xs[k], a, a2, games, buf);
        int named = 0;
        for (int m = 0; m < n.nmetrics; m++) {
            named |= n.m[m].clear;
            if (n.m[m].judged) {
                aa_metrics++;
                aa_metric += n.m[m].ci.lo > 0 || n.m[m].ci.hi < 0;
            }
        }
        aa += named;
        old_aa += old_methods(&xs[k], a, a2, games).verdict;
    }
    double t_all = tu_seconds() - t0;

    /* the report, kept to be compared with the block the docs quote */
    char *report = NULL;
    size_t report_len = 0;
    FILE *out = open_memstream(&report, &report_len);
    if (!out)
        return 1;
    fprintf(out, "Calibration (issue 23): orthodox, P1 greedy v P2 random, A plain, B three-check\n");
    double all = (double)runs * (double)games + (double)truth_games;
    fprintf(out, "truth run, %ld games a set (seed %llu): white's wins B - A %+.2f points "
           "(%+.2f .. %+.2f);\n  P1's score under three-check %.2f%% (%.2f - %.2f)\n",
           truth_games, (unsigned long long)TRUTH_SEED, 100 * tw, 100 * twi.lo, 100 * twi.hi,
           100 * ts, 100 * tsi.lo, 100 * tsi.hi);
    fprintf(out, "  paired per game %+.2f .. %+.2f, per round %+.2f .. %+.2f\n", 100 * twi.lo,
           100 * twi.hi, 100 * twr.lo, 100 * twr.hi);
    fprintf(out, "truth each run is judged by: the truth run and the other runs pooled, about "
           "%.0f games a set:\n  white's wins B - A %+.2f points, P1's score %.2f%%\n",
           pool, 100 * (sum_w * (double)games + tw * (double)truth_games) / all,
           100 * (sum_s * (double)games + ts * (double)truth_games) / all);
    fprintf(out, "%ld runs of %ld games a set (seeds 1000 ..); %d workers; %.0f s (truth %.0f s)\n",
           runs, games, workers, t_all, t_truth);
    fprintf(out, "(a) a real effect: white's wins B - A\n");
    rate(out, "paired (Tango) interval covers the truth", cover, runs);
    rate(out, "the verdict names the change (Holm)", found, runs);
    rate(out, "the paired interval alone leaves out 0", found_alone, runs);
    rate(out, "before: independent (Newcombe) interval covers the truth", old_cover, runs);
    rate(out, "before: its interval leaves out 0 (the change found)", old_found, runs);
    fprintf(out, "  the runs' B - A: mean %+.2f points, sd %.2f; the intervals' mean half-width "
           "%.2f (/1.96 = %.2f)\n", 100 * stats_mean(&est), 100 * stats_sd(&est), 100 * half,
           100 * half / STATS_Z95);
    fprintf(out, "(b) A/A: the same rules on other seeds\n");
    rate(out, "the verdict names a change (Holm over its metrics)", aa, runs);
    rate(out, "a judged metric's interval leaves out 0 (each alone)", aa_metric, aa_metrics);
    rate(out, "before: the verdict named a change (no correction)", old_aa, runs);
    fprintf(out, "(c) a near-certain player: P1's score under three-check\n");
    rate(out, "profile-likelihood interval covers the truth", s_cover, runs);
    rate(out, "before: the clipped normal interval covers it", old_s_cover, runs);
    char what[80];
    snprintf(what, sizeof what, "the same over each run's first %ld games: profile",
             games < SMALL ? games : SMALL);
    rate(out, what, s_small, runs);
    rate(out, "  before: clipped normal", old_s_small, runs);
    if (fclose(out) != 0)
        return 1;
    fputs(report, stdout);
    int rc = docs_check(runs, games, truth_games, report);
    free(report);
    free(text);
    free(tg);
    free(rg);
    free(xs);
    free(buf);
    free(dw);
    free(sb);
    return rc;
}
