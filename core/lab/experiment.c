/*
 * experiment.c -- playing the games of an experiment and reporting what
 * they show (core/lab/experiment.h).  The statistics are core/lab/stats.c's; the
 * methods are documented in docs/EXPERIMENTS.md.
 *
 * Invariant: the report, the JSON and the chart are functions of
 * (ExpInfo, ExpGame[]) only, with games sorted by (set, index), so a
 * merged run and a single run print the same bytes.
 */
#include "experiment.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bot.h"
#include "chart.h"
#include "stats.h"

/* ---- Seeds and seats ------------------------------------------------------ */

uint64_t exp_game_seed(uint64_t seed, long round)
{
    return mix64(seed ^ mix64(0x6578706572696d65ULL + (uint64_t)round)); /* "experime" */
}

int exp_rotation(const ExpInfo *x, long index)
{
    return (int)(index % x->nseats);
}

int exp_player_seat(const ExpInfo *x, long index, int p)
{
    return (p + exp_rotation(x, index)) % x->nseats;
}

uint64_t exp_player_seed(uint64_t game_seed, int p)
{
    return mix64(game_seed + 0x9E3779B97F4A7C15ULL * (uint64_t)(p + 1));
}

/* ---- Playing ---------------------------------------------------------------- */

/* The players' bots and generators of game index, by seat. */
static void seat_players(const ExpInfo *x, long index, uint64_t seed, BotSpec *level,
                         Rng *rng)
{
    for (int p = 0; p < x->nseats; p++) {
        int seat = exp_player_seat(x, index, p);
        level[seat] = x->players[p];
        rng_seed(&rng[seat], exp_player_seed(seed, p));
    }
}

/* How the game ended, into out: its status s, result text and the sides
 * each seat commands at the end. */
static void fill_end(const ExpInfo *x, const Status *s, const char *result,
                     const unsigned *commands, ExpGame *out)
{
    out->finished = s->over;
    str_copy(out->result, sizeof out->result, result);
    if (s->over) {
        out->winners = s->winners;
        out->code = s->code;
        str_copy(out->reason, sizeof out->reason, s->reason[0] ? s->reason : "no reason given");
        for (int k = 0; k < x->nseats; k++)
            if (commands[k] & s->winners)
                out->seat_won |= 1u << k;
    } else {
        str_copy(out->reason, sizeof out->reason, "ply limit");
    }
}

/* Did g's start draw from the game's generator (a Chess960 script, a
 * setup from math.random)?  Then A and B are paired a round at a time
 * (issue 23). */
static int seeded_start(Game *g, uint64_t seed)
{
    Rng fresh;
    rng_seed(&fresh, seed);
    return memcmp(&fresh, game_rng(g), sizeof fresh) != 0;
}

int exp_play(const ExpInfo *x, long index, int set, Game *g, ExpGame *out, Error *e)
{
    memset(out, 0, sizeof *out);
    out->set = set;
    out->index = index;
    out->seed = game_config(g)->seed;
    out->seeded_start = seeded_start(g, out->seed);
    BotSpec level[MAX_SEATS];
    Rng rng[MAX_SEATS];
    seat_players(x, index, out->seed, level, rng);
    int seat;
    ActionList l = ACTIONLIST_INIT;
    while ((seat = game_to_act(g)) >= 0 && out->plies < x->max_plies) {
        BotInput in;
        Action a;
        int rc;
        al_clear(&l);
        /* a house rule's hook that fails is the game's error: not counted */
        if (level[seat].level == BOT_RANDOM && game_legal_play(g, &l)) {
            rc = err_set(e, "%s", game_hook_error(g));
        } else if (l.failed) {
            al_free(&l);
            return err_set(e, "out of memory");
        } else if (l.n > 0) {
            /* the random bot's own draw (core/lab/bot.h: uniform over the play
             * actions, which lead the seat's legal list) without building
             * its input: the same action for the same generator */
            out->choices += l.n;
            a = l.v[rng_below(&rng[seat], (uint32_t)l.n)];
            rc = 0;
        } else if ((rc = bot_input(g, seat, &in, e)) == 0) {
            for (int i = 0; i < in.legal.n; i++)
                out->choices += !action_is_meta(in.legal.v[i].kind);
            rc = bot_choose_limited(&in, level[seat].level, &level[seat].lim, &rng[seat], &a,
                                    e);
            bot_input_free(&in);
        }
        if (rc == 0)
            rc = game_apply(g, &a, e);
        if (rc) {
            al_free(&l);
            err_prefix(e, "ply %d, %s's %s bot", out->plies + 1, game_seat_name(g, seat),
                       bot_level_name(level[seat].level));
            return -1;
        }
        out->plies++;
    }
    al_free(&l);
    Status s;
    game_status(g, &s);
    char result[EXP_NAME];
    unsigned commands[MAX_SEATS];
    game_result_text(g, result, sizeof result);
    for (int k = 0; k < x->nseats; k++)
        commands[k] = game_seat_sides(g, k);
    fill_end(x, &s, result, commands, out);
    return 0;
}

int exp_play_quick(const ExpInfo *x, long index, int set, Game *g, ExpGame *out, Error *e)
{
    for (int p = 0; p < x->nseats; p++)
        if (x->players[p].level != BOT_RANDOM)
            return exp_play(x, index, set, g, out, e);
    memset(out, 0, sizeof *out);
    out->set = set;
    out->index = index;
    out->seed = game_config(g)->seed;
    out->seeded_start = seeded_start(g, out->seed);
    BotSpec level[MAX_SEATS];
    Rng rng[MAX_SEATS];
    seat_players(x, index, out->seed, level, rng);
    PlayoutSeats ps;
    for (int k = 0; k < MAX_SEATS; k++)
        ps.rng[k] = &rng[k < x->nseats ? k : 0];
    Status s;
    int plies = game_playout_seats(g, &ps, x->max_plies, &s);
    /* a failed hook, or a seat with no play action before the end (its
     * bot takes a meta action): exp_play says what, or plays it through */
    if (plies < 0 || (plies < x->max_plies && !s.over))
        return exp_play(x, index, set, g, out, e);
    out->plies = plies;
    out->choices = ps.choices;
    fill_end(x, &s, ps.result, ps.commands, out);
    return 0;
}

/* ---- Figures ---------------------------------------------------------------- */

#define MAX_REASONS 24

/* k of n games, and of each rotation's games (rk of rn: issue 23, the
 * strata of a share when the players differ) */
typedef struct Count {
    long k, n;
    long rk[MAX_SEATS], rn[MAX_SEATS];
} Count;

static void count_add(Count *c, int rotation, int hit)
{
    c->k += hit;
    c->n++;
    c->rk[rotation] += hit;
    c->rn[rotation]++;
}

typedef struct Figures {
    long n;
    Count seat_wins[MAX_SEATS];
    Count draws, decisive, unfinished;
    Moments len;
    double median;
    int min, max;
    long plies, choices;
    int nreasons;
    char reason[MAX_REASONS][EXP_REASON];
    long reason_n[MAX_REASONS];
    long pw[MAX_SEATS], pd[MAX_SEATS], pl[MAX_SEATS];
    Count pwin[MAX_SEATS];  /* player p's wins, by rotation */
} Figures;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void add_reason(Figures *f, const char *r)
{
    for (int i = 0; i < f->nreasons; i++)
        if (strcmp(f->reason[i], r) == 0) {
            f->reason_n[i]++;
            return;
        }
    int i = f->nreasons < MAX_REASONS ? f->nreasons++ : MAX_REASONS - 1;
    if (i == MAX_REASONS - 1 && f->reason_n[i] && strcmp(f->reason[i], "other") != 0)
        str_copy(f->reason[i], sizeof f->reason[i], "other");
    else if (!f->reason_n[i])
        str_copy(f->reason[i], sizeof f->reason[i], r);
    f->reason_n[i]++;
}

/* The figures of rule set `set`: out of memory leaves the median at 0. */
static void figures(const ExpInfo *x, const ExpGame *games, long n, int set, Figures *f)
{
    memset(f, 0, sizeof *f);
    int *lens = malloc(sizeof *lens * (size_t)(n > 0 ? n : 1));
    long m = 0;
    for (long i = 0; i < n; i++) {
        const ExpGame *g = &games[i];
        if (g->set != set)
            continue;
        f->n++;
        int r = exp_rotation(x, g->index);
        for (int s = 0; s < x->nseats; s++)
            count_add(&f->seat_wins[s], r, (g->seat_won >> s) & 1);
        count_add(&f->draws, r, g->finished && !g->winners);
        count_add(&f->decisive, r, g->winners != 0);
        count_add(&f->unfinished, r, !g->finished);
        stats_add(&f->len, g->plies);
        f->plies += g->plies;
        f->choices += g->choices;
        if (lens)
            lens[m++] = g->plies;
        f->min = f->n == 1 || g->plies < f->min ? g->plies : f->min;
        f->max = g->plies > f->max ? g->plies : f->max;
        add_reason(f, g->reason);
        for (int p = 0; p < x->nseats; p++) {
            int seat = exp_player_seat(x, g->index, p);
            count_add(&f->pwin[p], r, (g->seat_won >> seat) & 1);
            if ((g->seat_won >> seat) & 1)
                f->pw[p]++;
            else if (g->winners)
                f->pl[p]++;
            else
                f->pd[p]++;
        }
    }
    if (lens && m) {
        qsort(lens, (size_t)m, sizeof *lens, cmp_int);
        f->median = m % 2 ? lens[m / 2] : (lens[m / 2 - 1] + lens[m / 2]) / 2.0;
    }
    free(lens);
    /* reasons by count, then by name: the same order whatever the input's */
    for (int i = 1; i < f->nreasons; i++)
        for (int j = i; j > 0; j--) {
            int swap = f->reason_n[j] > f->reason_n[j - 1] ||
                       (f->reason_n[j] == f->reason_n[j - 1] &&
                        strcmp(f->reason[j], f->reason[j - 1]) < 0);
            if (!swap)
                break;
            long t = f->reason_n[j];
            f->reason_n[j] = f->reason_n[j - 1];
            f->reason_n[j - 1] = t;
            char tmp[EXP_REASON];
            memcpy(tmp, f->reason[j], sizeof tmp);
            memcpy(f->reason[j], f->reason[j - 1], sizeof tmp);
            memcpy(f->reason[j - 1], tmp, sizeof tmp);
        }
}

static double share(Count c)
{
    return c.n ? (double)c.k / (double)c.n : 0;
}

static double branching(const Figures *f)
{
    return f->plies ? (double)f->choices / (double)f->plies : 0;
}

/* Do the players differ (more than one level among them)? */
static int mixed_players(const ExpInfo *x)
{
    for (int p = 1; p < x->nseats; p++)
        if (!bot_spec_eq(&x->players[p], &x->players[0]))
            return 1;
    return 0;
}

/* The 95% interval of a share: with players that differ, a stratified
 * sample of the rotations (each rotation puts other bots at the seats);
 * with the same bot everywhere the rotations are alike: Wilson's. */
static Interval share_interval(const ExpInfo *x, const Count *c)
{
    if (mixed_players(x))
        return stats_stratified(c->rk, c->rn, x->nseats, STATS_Z95);
    return stats_wilson(c->k, c->n, STATS_Z95);
}

static void player_name(const ExpInfo *x, int p, char *buf, size_t n)
{
    char b[32];
    snprintf(buf, n, "P%d %s", p + 1, bot_spec_name(&x->players[p], b, sizeof b));
}

/* A rule set in words: each script by the name it declares, with its file
 * after it when files is set (the text report; the chart has no room). */
static void set_description(const ExpSet *s, int files, StrBuf *out)
{
    if (!s->nrules && !s->params[0]) {
        sb_puts(out, "the variant's own rules");
        return;
    }
    for (int i = 0; i < s->nrules; i++) {
        sb_printf(out, "%s%s", i ? ", " : "", s->rules_name[i]);
        if (files)
            sb_printf(out, " (%s)", s->rules[i]);
    }
    if (s->params[0])
        sb_printf(out, "%s%s", s->nrules ? "; " : "", s->params);
}

/* ---- B against A (issue 23) ---------------------------------------------- */

/* Whether game g counts for metric m: 1 or 0 (shares). */
static int metric_hit(const ExpMetric *m, const ExpGame *g)
{
    if (m->seat >= 0)
        return (g->seat_won >> m->seat) & 1;
    if (strcmp(m->key, "draws") == 0)
        return g->finished && !g->winners;
    if (strcmp(m->key, "decisive") == 0)
        return g->winners != 0;
    return !g->finished; /* "unfinished" */
}

/* P1's score in game g: 1, 1/2 (draw or stopped) or 0. */
static double p1_score(const ExpInfo *x, const ExpGame *g)
{
    int seat = exp_player_seat(x, g->index, 0);
    return (g->seat_won >> seat) & 1 ? 1 : g->winners ? 0 : 0.5;
}

/* The value of metric m in game g, as a number. */
static double metric_value(const ExpInfo *x, const ExpMetric *m, const ExpGame *g)
{
    if (m->kind == EXP_METRIC_PLIES)
        return g->plies;
    if (m->kind == EXP_METRIC_SCORE)
        return p1_score(x, g);
    return metric_hit(m, g);
}

static ExpMetric *add_metric(ExpComparison *c, const char *key, const char *label, int kind,
                             int seat, int judged)
{
    ExpMetric *m = &c->m[c->nmetrics++];
    memset(m, 0, sizeof *m);
    str_copy(m->key, sizeof m->key, key);
    str_copy(m->label, sizeof m->label, label);
    m->kind = kind;
    m->seat = seat;
    m->judged = judged;
    return m;
}

int exp_compare(const ExpInfo *x, const ExpGame *games, long n, ExpComparison *c)
{
    memset(c, 0, sizeof *c);
    if (x->nsets < 2 || x->games <= 0)
        return -1;
    /* game i of each set, found by its index (the games come sorted, but
     * the pairing does not rest on it) */
    const ExpGame **ga = calloc((size_t)x->games * 2, sizeof *ga);
    if (!ga)
        return -1;
    const ExpGame **gb = ga + x->games;
    int seeded = 0, unfinished = 0;
    for (long i = 0; i < n; i++) {
        const ExpGame *g = &games[i];
        if (g->index < 0 || g->index >= x->games || g->set < 0 || g->set > 1)
            continue;
        (g->set ? gb : ga)[g->index] = g;
        seeded |= g->seeded_start;
        unfinished |= !g->finished;
    }
    Figures f[2];
    figures(x, games, n, 0, &f[0]);
    figures(x, games, n, 1, &f[1]);
    for (int s = 0; s < x->nseats; s++) {
        char label[EXP_NAME + 8];
        snprintf(label, sizeof label, "%s wins", x->seat[s]);
        add_metric(c, x->seat[s], label, EXP_METRIC_SHARE, s, 1);
    }
    add_metric(c, "draws", "draws", EXP_METRIC_SHARE, -1, 1);
    /* without a stopped game, decisive = 1 - draws: not judged twice */
    add_metric(c, "decisive", "decisive games", EXP_METRIC_SHARE, -1, unfinished);
    if (unfinished)
        add_metric(c, "unfinished", "stopped at ply limit", EXP_METRIC_SHARE, -1, 0);
    add_metric(c, "length", "length (plies)", EXP_METRIC_PLIES, -1, 1);
    if (x->nseats == 2) {
        char a[32], label[48];
        player_name(x, 0, a, sizeof a);
        snprintf(label, sizeof label, "%s's score", a);
        add_metric(c, "score", label, EXP_METRIC_SCORE, -1, 1);
    }
    c->per_round = seeded;
    for (int k = 0; k < c->nmetrics; k++) {
        ExpMetric *m = &c->m[k];
        long a_only = 0, b_only = 0, pairs = 0;
        Moments d = {0, 0, 0};
        Clusters cl;
        memset(&cl, 0, sizeof cl);
        double rd = 0, rm = 0;
        long round = -1;
        for (long i = 0; i < x->games; i++) {
            if (!ga[i] || !gb[i])
                continue;
            double va = metric_value(x, m, ga[i]), vb = metric_value(x, m, gb[i]);
            pairs++;
            a_only += va > vb;
            b_only += vb > va;
            stats_add(&d, vb - va);
            if (i / x->nseats != round) {
                if (rm > 0)
                    stats_cluster_add(&cl, rd, rm);
                round = i / x->nseats;
                rd = rm = 0;
            }
            rd += vb - va;
            rm += 1;
        }
        if (rm > 0)
            stats_cluster_add(&cl, rd, rm);
        c->pairs = pairs;
        c->rounds = cl.r;
        const Figures *fa = &f[0], *fb = &f[1];
        switch (m->kind) {
        case EXP_METRIC_SHARE: {
            const Count *ca = m->seat >= 0 ? &fa->seat_wins[m->seat]
                            : strcmp(m->key, "draws") == 0    ? &fa->draws
                            : strcmp(m->key, "decisive") == 0 ? &fa->decisive
                                                              : &fa->unfinished;
            const Count *cb = m->seat >= 0 ? &fb->seat_wins[m->seat]
                            : strcmp(m->key, "draws") == 0    ? &fb->draws
                            : strcmp(m->key, "decisive") == 0 ? &fb->decisive
                                                              : &fb->unfinished;
            m->a = share(*ca);
            m->b = share(*cb);
            m->a_ci = share_interval(x, ca);
            m->b_ci = share_interval(x, cb);
            break;
        }
        case EXP_METRIC_PLIES:
            m->a = stats_mean(&fa->len);
            m->b = stats_mean(&fb->len);
            m->a_ci = stats_mean_interval(&fa->len, STATS_Z95);
            m->b_ci = stats_mean_interval(&fb->len, STATS_Z95);
            break;
        default:
            m->a = stats_score(fa->pw[0], fa->pd[0], fa->pl[0]);
            m->b = stats_score(fb->pw[0], fb->pd[0], fb->pl[0]);
            m->a_ci = stats_score_profile(fa->pw[0], fa->pd[0], fa->pl[0], STATS_Z95);
            m->b_ci = stats_score_profile(fb->pw[0], fb->pd[0], fb->pl[0], STATS_Z95);
        }
        m->diff = m->b - m->a;
        if (seeded) {
            m->ci = stats_cluster_interval(&cl, 0.95);
            m->p = stats_cluster_p(&cl);
        } else if (m->kind == EXP_METRIC_SHARE) {
            m->ci = stats_paired_diff(a_only, b_only, pairs, STATS_Z95);
            m->p = stats_paired_p(a_only, b_only);
        } else {
            m->ci = stats_t_interval(&d, 0.95);
            m->p = stats_t_p(&d);
        }
        if (m->kind != EXP_METRIC_PLIES) { /* a t interval may pass the ends */
            m->ci.lo = m->ci.lo < -1 ? -1 : m->ci.lo;
            m->ci.hi = m->ci.hi > 1 ? 1 : m->ci.hi;
        }
        m->p_holm = m->p;
    }
    free(ga);
    double p[EXP_MAX_METRICS], adj[EXP_MAX_METRICS];
    int idx[EXP_MAX_METRICS];
    for (int k = 0; k < c->nmetrics; k++)
        if (c->m[k].judged) {
            idx[c->njudged] = k;
            p[c->njudged++] = c->m[k].p;
        }
    stats_holm(p, c->njudged, adj);
    for (int j = 0; j < c->njudged; j++) {
        ExpMetric *m = &c->m[idx[j]];
        m->p_holm = adj[j];
        m->clear = adj[j] < 0.05;
    }
    return 0;
}

/* ---- The text report ---------------------------------------------------- */

/* A share, its 95% interval, and with players that differ each
 * rotation's share in the columns single_text's heading names. */
static void pct_interval(const ExpInfo *x, StrBuf *out, const Count *c)
{
    Interval w = share_interval(x, c);
    sb_printf(out, "%5.1f%%  (%4.1f - %4.1f)", 100 * share(*c), 100 * w.lo, 100 * w.hi);
    if (!mixed_players(x))
        return;
    for (int r = 0; r < x->nseats; r++) {
        char v[16];
        snprintf(v, sizeof v, "%.1f%%",
                 c->rn[r] ? 100.0 * (double)c->rk[r] / (double)c->rn[r] : 0.0);
        sb_printf(out, "  %*s", (int)strlen(x->seat[r]) + 6, v);
    }
}

/* An Elo figure, rounded; never "-0" (issue 23). */
static void elo_text(StrBuf *out, double elo)
{
    if (isinf(elo))
        sb_puts(out, elo > 0 ? "+inf" : "-inf");
    else if (fabs(elo) < 0.5)
        sb_puts(out, "0");
    else
        sb_printf(out, "%+.0f", elo);
}

static void players_text(const ExpInfo *x, const Figures *f, StrBuf *out)
{
    if (x->nseats == 2) {
        char a[32], b[32];
        player_name(x, 0, a, sizeof a);
        player_name(x, 1, b, sizeof b);
        double s = stats_score(f->pw[0], f->pd[0], f->pl[0]);
        Interval ci = stats_score_profile(f->pw[0], f->pd[0], f->pl[0], STATS_Z95);
        sb_printf(out, "  %s v %s: +%ld =%ld -%ld, score %.1f%% (%.1f - %.1f), Elo ",
                  a, b, f->pw[0], f->pd[0], f->pl[0], 100 * s, 100 * ci.lo, 100 * ci.hi);
        elo_text(out, stats_elo(s));
        sb_puts(out, " (");
        elo_text(out, stats_elo(ci.lo));
        sb_puts(out, " .. ");
        elo_text(out, stats_elo(ci.hi));
        sb_puts(out, ")\n");
        return;
    }
    for (int p = 0; p < x->nseats; p++) {
        char a[32];
        player_name(x, p, a, sizeof a);
        sb_printf(out, "  %-22s wins ", a);
        pct_interval(x, out, &f->pwin[p]);
        sb_putc(out, '\n');
    }
}

static void length_text(const Figures *f, StrBuf *out)
{
    Interval m = stats_mean_interval(&f->len, STATS_Z95);
    sb_printf(out, "%.1f (%.1f - %.1f), sd %.1f, median %g, %d to %d", stats_mean(&f->len),
              m.lo, m.hi, stats_sd(&f->len), f->median, f->min, f->max);
}

static void single_text(const ExpInfo *x, const Figures *f, StrBuf *out)
{
    sb_puts(out, "\nResults                   share   (95% interval)");
    if (mixed_players(x)) /* each rotation's share (issue 23) */
        for (int r = 0; r < x->nseats; r++)
            sb_printf(out, "  P1 at %s", x->seat[r]);
    sb_putc(out, '\n');
    for (int s = 0; s < x->nseats; s++) {
        char w[EXP_NAME + 8];
        snprintf(w, sizeof w, "%s wins", x->seat[s]);
        sb_printf(out, "  %-22s ", w);
        pct_interval(x, out, &f->seat_wins[s]);
        sb_putc(out, '\n');
    }
    sb_printf(out, "  %-22s ", "draws");
    pct_interval(x, out, &f->draws);
    sb_printf(out, "\n  %-22s ", "decisive games");
    pct_interval(x, out, &f->decisive);
    sb_putc(out, '\n');
    if (f->unfinished.k) {
        sb_printf(out, "  %-22s ", "stopped at ply limit");
        pct_interval(x, out, &f->unfinished);
        sb_putc(out, '\n');
    }
    if (x->nseats == 2 || mixed_players(x)) {
        sb_puts(out, "\nPlayers (seats rotated)\n");
        players_text(x, f, out);
    }
    sb_puts(out, "\nGame length (plies)       ");
    length_text(f, out);
    sb_printf(out, "\nBranching factor          %.1f play actions per ply\n", branching(f));
    sb_puts(out, "\nHow the games ended\n");
    for (int i = 0; i < f->nreasons; i++)
        sb_printf(out, "  %-38s %6ld  %5.1f%%\n", f->reason[i], f->reason_n[i],
                  f->n ? 100.0 * (double)f->reason_n[i] / (double)f->n : 0);
}

/* A metric's value: a share or score in percent, a length in plies. */
static void metric_value_text(const ExpMetric *m, double v, StrBuf *out)
{
    if (m->kind == EXP_METRIC_PLIES)
        sb_printf(out, "%5.1f ", v);
    else
        sb_printf(out, "%5.1f%%", 100 * v);
}

/* B - A and its interval: points of percentage or plies. */
static void metric_diff_text(const ExpMetric *m, StrBuf *out)
{
    double k = m->kind == EXP_METRIC_PLIES ? 1 : 100;
    sb_printf(out, "%+6.1f (%+.1f .. %+.1f)", k * m->diff, k * m->ci.lo, k * m->ci.hi);
}

static void p_text(double p, StrBuf *out)
{
    if (p < 0.001)
        sb_puts(out, "<0.001");
    else
        sb_printf(out, "%.3f", p);
}

static void compare_text(const ExpInfo *x, const Figures *fa, const Figures *fb,
                         const ExpComparison *c, StrBuf *out)
{
    sb_puts(out, "\n                           A        B       B - A (95% interval)        p\n");
    int mirror = 0;
    for (int k = 0; k < c->nmetrics; k++) {
        const ExpMetric *m = &c->m[k];
        StrBuf d = STRBUF_INIT;
        metric_diff_text(m, &d);
        sb_printf(out, "  %-22s ", m->label);
        metric_value_text(m, m->a, out);
        sb_puts(out, "   ");
        metric_value_text(m, m->b, out);
        sb_printf(out, "   %-26s", sb_str(&d));
        sb_free(&d);
        if (m->judged) {
            sb_putc(out, ' ');
            p_text(m->p_holm, out);
            if (m->clear)
                sb_puts(out, "  *");
        } else if (strcmp(m->key, "decisive") == 0) {
            sb_puts(out, " (= draws)");
            mirror = 1;
        }
        /* strip the blanks a row may end with */
        while (out->len && out->s[out->len - 1] == ' ')
            out->s[--out->len] = 0;
        sb_putc(out, '\n');
        if (m->kind == EXP_METRIC_PLIES)
            sb_printf(out, "  %-22s %5.1f    %5.1f      %+6.1f\n", "branching factor",
                      branching(fa), branching(fb), branching(fb) - branching(fa));
    }
    if (c->per_round)
        sb_printf(out, "  (B - A paired a round at a time: %ld rounds of %d games, each "
                       "round's games\n   sharing a start drawn from the seed)\n",
                  c->rounds, x->nseats);
    else
        sb_printf(out, "  (B - A from the %ld pairs of games played on the same seed, "
                       "same seats)\n", c->pairs);
    sb_printf(out, "  (p: Holm-adjusted over the %d rows with one; * a clear change, "
                   "p < 0.05)\n", c->njudged);
    if (mirror)
        sb_puts(out, "  (= draws: with no game stopped, decisive games are the draws' "
                     "mirror)\n");

    sb_puts(out, "\nVerdict (B against A)\n");
    int said = 0;
    for (int k = 0; k < c->nmetrics; k++) {
        const ExpMetric *m = &c->m[k];
        if (!m->clear)
            continue;
        int up = m->diff > 0;
        if (m->kind == EXP_METRIC_PLIES) {
            sb_printf(out, "  Games get %s: %.1f plies on average instead of %.1f "
                           "(%+.1f, %+.1f .. %+.1f).\n",
                      up ? "longer" : "shorter", m->b, m->a, m->diff, m->ci.lo, m->ci.hi);
        } else {
            char what[EXP_NAME + 48], why[EXP_NAME + 48];
            if (m->seat >= 0) {
                snprintf(what, sizeof what, "%s's win rate", x->seat[m->seat]);
                snprintf(why, sizeof why, up ? "B favours %s" : "B is harder on %s",
                         x->seat[m->seat]);
            } else if (m->kind == EXP_METRIC_SCORE) {
                char p[32];
                player_name(x, up ? 0 : 1, p, sizeof p);
                snprintf(what, sizeof what, "%s", m->label);
                snprintf(why, sizeof why, "B favours %s", p);
            } else if (strcmp(m->key, "draws") == 0) {
                str_copy(what, sizeof what, "The draw rate");
                str_copy(why, sizeof why,
                         up ? "B makes games more drawish" : "B makes games more decisive");
            } else {
                str_copy(what, sizeof what, "The share of decisive games");
                str_copy(why, sizeof why,
                         up ? "B makes more games decisive" : "B makes fewer games decisive");
            }
            sb_printf(out, "  %s goes from %.1f%% to %.1f%%: %s (%+.1f points, "
                           "%+.1f .. %+.1f).\n", what, 100 * m->a, 100 * m->b, why,
                      100 * m->diff, 100 * m->ci.lo, 100 * m->ci.hi);
        }
        said++;
    }
    if (!said)
        sb_printf(out, "  No clear difference between A and B in %ld games each "
                       "(none of the %d rows judged has p < 0.05).\n", fa->n, c->njudged);
}

void exp_report_text(const ExpInfo *x, const ExpGame *games, long n, StrBuf *out)
{
    sb_printf(out, "Experiment: %s, %ld games%s, seed %llu, at most %d plies a game\n",
              x->title, x->games, x->nsets > 1 ? " per rule set" : "",
              (unsigned long long)x->seed, x->max_plies);
    sb_puts(out, "Players:");
    for (int p = 0; p < x->nseats; p++) {
        char a[32];
        player_name(x, p, a, sizeof a);
        sb_printf(out, "%s %s", p ? "," : "", a);
    }
    sb_printf(out, " (P1 starts as %s; the seats rotate every game)\n", x->seat[0]);
    for (int k = 0; k < x->nsets; k++) {
        sb_printf(out, "%s", x->nsets > 1 ? (k ? "B: " : "A: ") : "Rules: ");
        set_description(&x->set[k], 1, out);
        sb_putc(out, '\n');
    }
    Figures fa, fb;
    figures(x, games, n, 0, &fa);
    if (x->nsets == 1) {
        single_text(x, &fa, out);
        return;
    }
    figures(x, games, n, 1, &fb);
    ExpComparison c;
    if (exp_compare(x, games, n, &c) == 0)
        compare_text(x, &fa, &fb, &c, out);
    else
        sb_puts(out, "\n(out of memory: no comparison)\n");
    sb_puts(out, "\nA in detail");
    single_text(x, &fa, out);
    sb_puts(out, "\nB in detail");
    single_text(x, &fb, out);
}

/* ---- JSON ------------------------------------------------------------------- */

/* A share's count, value and interval (stratified with players that
 * differ: then its count in each rotation too). */
static void json_share(const ExpInfo *x, StrBuf *out, const Count *c)
{
    Interval w = share_interval(x, c);
    sb_printf(out, "{\"count\":%ld,\"share\":%.6f,\"lo\":%.6f,\"hi\":%.6f", c->k,
              share(*c), w.lo, w.hi);
    if (mixed_players(x)) {
        sb_puts(out, ",\"by_rotation\":[");
        for (int r = 0; r < x->nseats; r++)
            sb_printf(out, "%s%ld", r ? "," : "", c->rk[r]);
        sb_putc(out, ']');
    }
    sb_putc(out, '}');
}

static void json_count(const ExpInfo *x, StrBuf *out, const char *key, const Count *c)
{
    sb_printf(out, "\"%s\":", key);
    json_share(x, out, c);
}

static void json_num(StrBuf *out, double v)
{
    if (isinf(v) || isnan(v))
        sb_puts(out, "null");
    else
        sb_printf(out, "%.6f", v);
}

static void json_figures(const ExpInfo *x, const Figures *f, int set, StrBuf *out)
{
    sb_printf(out, "{\"set\":\"%s\",\"games\":%ld,\"seat_wins\":{", x->set[set].label, f->n);
    for (int s = 0; s < x->nseats; s++) {
        if (s)
            sb_putc(out, ',');
        sb_json_str(out, x->seat[s]);
        sb_putc(out, ':');
        json_share(x, out, &f->seat_wins[s]);
    }
    sb_puts(out, "},");
    json_count(x, out, "draws", &f->draws);
    sb_putc(out, ',');
    json_count(x, out, "decisive", &f->decisive);
    sb_putc(out, ',');
    json_count(x, out, "unfinished", &f->unfinished);
    Interval m = stats_mean_interval(&f->len, STATS_Z95);
    sb_printf(out, ",\"length\":{\"mean\":%.6f,\"lo\":%.6f,\"hi\":%.6f,\"sd\":%.6f,"
                   "\"median\":%g,\"min\":%d,\"max\":%d},\"branching\":%.6f,\"reasons\":{",
              stats_mean(&f->len), m.lo, m.hi, stats_sd(&f->len), f->median, f->min, f->max,
              branching(f));
    for (int i = 0; i < f->nreasons; i++) {
        if (i)
            sb_putc(out, ',');
        sb_json_str(out, f->reason[i]);
        sb_printf(out, ":%ld", f->reason_n[i]);
    }
    sb_puts(out, "},\"players\":[");
    for (int p = 0; p < x->nseats; p++) {
        double s = stats_score(f->pw[p], f->pd[p], f->pl[p]);
        Interval ci = stats_score_profile(f->pw[p], f->pd[p], f->pl[p], STATS_Z95);
        char b[32];
        sb_printf(out, "%s{\"player\":%d,\"level\":\"%s\",\"wins\":%ld,\"draws\":%ld,"
                       "\"losses\":%ld,\"score\":%.6f,\"lo\":%.6f,\"hi\":%.6f}",
                  p ? "," : "", p + 1, bot_spec_name(&x->players[p], b, sizeof b), f->pw[p],
                  f->pd[p], f->pl[p], s, ci.lo, ci.hi);
    }
    sb_puts(out, "]");
    if (x->nseats == 2) {
        double s = stats_score(f->pw[0], f->pd[0], f->pl[0]);
        Interval ci = stats_score_profile(f->pw[0], f->pd[0], f->pl[0], STATS_Z95);
        sb_puts(out, ",\"elo\":{\"value\":");
        json_num(out, stats_elo(s));
        sb_puts(out, ",\"lo\":");
        json_num(out, stats_elo(ci.lo));
        sb_puts(out, ",\"hi\":");
        json_num(out, stats_elo(ci.hi));
        sb_puts(out, "}");
    }
    sb_puts(out, "}");
}

static void json_info(const ExpInfo *x, StrBuf *out)
{
    sb_puts(out, "{\"variant\":");
    sb_json_str(out, x->variant);
    sb_puts(out, ",\"title\":");
    sb_json_str(out, x->title);
    sb_puts(out, ",\"sides\":[");
    for (int s = 0; s < x->nsides; s++) {
        if (s)
            sb_putc(out, ',');
        sb_json_str(out, x->side[s]);
    }
    sb_puts(out, "],\"seats\":[");
    for (int s = 0; s < x->nseats; s++) {
        if (s)
            sb_putc(out, ',');
        sb_json_str(out, x->seat[s]);
    }
    sb_puts(out, "],\"players\":[");
    for (int p = 0; p < x->nseats; p++) {
        char b[32];
        sb_printf(out, "%s\"%s\"", p ? "," : "", bot_spec_name(&x->players[p], b, sizeof b));
    }
    sb_printf(out, "],\"games\":%ld,\"seed\":\"%llu\",\"max_plies\":%d,\"sets\":[", x->games,
              (unsigned long long)x->seed, x->max_plies);
    for (int k = 0; k < x->nsets; k++) {
        const ExpSet *st = &x->set[k];
        sb_printf(out, "%s{\"label\":\"%s\",\"params\":", k ? "," : "", st->label);
        sb_json_str(out, st->params);
        sb_puts(out, ",\"rules\":[");
        for (int i = 0; i < st->nrules; i++) {
            sb_puts(out, i ? ",{\"name\":" : "{\"name\":");
            sb_json_str(out, st->rules_name[i]);
            sb_puts(out, ",\"file\":");
            sb_json_str(out, st->rules[i]);
            sb_printf(out, ",\"sha256\":\"%s\"}", st->rules_sha[i]);
        }
        sb_puts(out, "]}");
    }
    sb_puts(out, "]}");
}

static const char *seat_result(const ExpGame *g, int seat)
{
    return (g->seat_won >> seat) & 1 ? "win" : g->winners ? "loss" : "draw";
}

void exp_json(const ExpInfo *x, const ExpGame *games, long n, int shard_k, int shard_n,
              StrBuf *out)
{
    sb_puts(out, "{\"chessvar\":\"experiment\",\"format\":1,\"info\":");
    json_info(x, out);
    if (shard_n)
        sb_printf(out, ",\"shard\":{\"part\":%d,\"of\":%d}", shard_k, shard_n);
    sb_puts(out, ",\n\"games\":[");
    for (long i = 0; i < n; i++) {
        const ExpGame *g = &games[i];
        sb_printf(out, "%s\n{\"set\":\"%s\",\"index\":%ld,\"seed\":\"%llu\",\"players\":[",
                  i ? "," : "", x->set[g->set].label, g->index, (unsigned long long)g->seed);
        for (int s = 0; s < x->nseats; s++) { /* the bot at each seat */
            char b[32] = "random";
            for (int p = 0; p < x->nseats; p++)
                if (exp_player_seat(x, g->index, p) == s)
                    bot_spec_name(&x->players[p], b, sizeof b);
            sb_printf(out, "%s\"%s\"", s ? "," : "", b);
        }
        sb_puts(out, "],\"result\":");
        sb_json_str(out, g->result);
        sb_puts(out, ",\"winners\":[");
        int first = 1;
        for (int s = 0; s < x->nsides; s++)
            if ((g->winners >> s) & 1) {
                if (!first)
                    sb_putc(out, ',');
                sb_json_str(out, x->side[s]);
                first = 0;
            }
        sb_puts(out, "],\"seat_results\":[");
        for (int s = 0; s < x->nseats; s++)
            sb_printf(out, "%s\"%s\"", s ? "," : "", seat_result(g, s));
        sb_puts(out, "],\"reason\":");
        sb_json_str(out, g->reason);
        sb_puts(out, ",\"reason_code\":");
        if (end_code_name(g->code))
            sb_json_str(out, end_code_name(g->code));
        else
            sb_puts(out, "null");
        sb_printf(out, ",\"finished\":%s,\"plies\":%d,\"choices\":%ld%s}",
                  g->finished ? "true" : "false", g->plies, g->choices,
                  g->seeded_start ? ",\"seeded_start\":true" : "");
    }
    sb_puts(out, "],\n\"figures\":[");
    Figures f[EXP_MAX_SETS];
    for (int k = 0; k < x->nsets; k++) {
        figures(x, games, n, k, &f[k]);
        if (k)
            sb_putc(out, ',');
        json_figures(x, &f[k], k, out);
    }
    sb_puts(out, "]");
    ExpComparison c;
    if (x->nsets == 2 && exp_compare(x, games, n, &c) == 0) {
        /* issue 23: every metric of exp_compare, with its pairing, paired
         * interval, p-value, Holm-adjusted p and whether it is a clear change */
        sb_printf(out, ",\n\"compare\":{\"pairing\":\"%s\",\"pairs\":%ld,\"rounds\":%ld,"
                       "\"judged\":%d,\"seat_wins\":{",
                  c.per_round ? "round" : "game", c.pairs, c.rounds, c.njudged);
        int first = 1;
        for (int k = 0; k < c.nmetrics; k++) {
            const ExpMetric *m = &c.m[k];
            if (m->seat < 0 && first) {
                sb_putc(out, '}');
                first = 0;
            }
            if (k)
                sb_putc(out, ',');
            sb_json_str(out, m->key);
            sb_printf(out, ":{\"a\":%.6f,\"b\":%.6f,\"difference\":%.6f,\"lo\":%.6f,"
                           "\"hi\":%.6f,\"p\":%.6g,\"judged\":%s,\"p_holm\":%.6g,"
                           "\"clear\":%s}",
                      m->a, m->b, m->diff, m->ci.lo, m->ci.hi, m->p,
                      m->judged ? "true" : "false", m->p_holm, m->clear ? "true" : "false");
        }
        sb_printf(out, ",\"branching\":{\"difference\":%.6f}}",
                  branching(&f[1]) - branching(&f[0]));
    }
    sb_puts(out, "}\n");
}

/* ---- Reading a part back ----------------------------------------------- */

static int get_string(const Json *o, const char *key, char *buf, size_t n, Error *e)
{
    const Json *j = json_get(o, key);
    if (!j || j->type != JSON_STRING)
        return err_set(e, "\"%s\" is missing or not a string", key);
    if (strlen(j->str) >= n)
        return err_set(e, "\"%s\" is too long", key);
    char why[80]; /* shown on screens and in the chart (issue 20 point 5) */
    if (text_check(j->str, strlen(j->str), 0, why, sizeof why))
        return err_set(e, "\"%s\" has %s", key, why);
    str_copy(buf, n, j->str);
    return 0;
}

static int get_long(const Json *o, const char *key, long lo, long hi, long *out, Error *e)
{
    const Json *j = json_get(o, key);
    if (!j || j->type != JSON_NUMBER || j->num != floor(j->num) || j->num < (double)lo ||
        j->num > (double)hi)
        return err_set(e, "\"%s\" is missing or not a whole number from %ld to %ld", key,
                       lo, hi);
    *out = (long)j->num;
    return 0;
}

static int get_u64(const Json *o, const char *key, uint64_t *out, Error *e)
{
    const Json *j = json_get(o, key);
    char *end;
    if (!j || j->type != JSON_STRING || j->str[0] < '0' || j->str[0] > '9')
        return err_set(e, "\"%s\" is missing or not a number in a string", key);
    unsigned long long v = strtoull(j->str, &end, 10);
    if (*end)
        return err_set(e, "\"%s\" is missing or not a number in a string", key);
    *out = (uint64_t)v;
    return 0;
}

/* An array of at most max strings into names. */
static int get_names(const Json *o, const char *key, char names[][EXP_NAME], int max,
                     int *n, Error *e)
{
    const Json *a = json_get(o, key);
    if (!a || a->type != JSON_ARRAY || a->count < 1 || a->count > max)
        return err_set(e, "\"%s\" is missing or not a list of 1 to %d names", key, max);
    int i = 0;
    for (const Json *c = a->child; c; c = c->next, i++) {
        if (c->type != JSON_STRING || !c->str[0] || strlen(c->str) >= EXP_NAME)
            return err_set(e, "\"%s\": entry %d is not a name", key, i + 1);
        char why[80];
        if (text_check(c->str, strlen(c->str), 0, why, sizeof why))
            return err_set(e, "\"%s\": entry %d has %s", key, i + 1, why);
        str_copy(names[i], EXP_NAME, c->str);
    }
    *n = i;
    return 0;
}

static int read_info(const Json *j, ExpInfo *x, Error *e)
{
    memset(x, 0, sizeof *x);
    long v;
    int np;
    char lv[MAX_SEATS][EXP_NAME];
    if (!j || j->type != JSON_OBJECT)
        return err_set(e, "\"info\" is missing or not an object");
    if (get_string(j, "variant", x->variant, sizeof x->variant, e) ||
        get_string(j, "title", x->title, sizeof x->title, e) ||
        get_names(j, "sides", x->side, MAX_SIDES, &x->nsides, e) ||
        get_names(j, "seats", x->seat, MAX_SEATS, &x->nseats, e) ||
        get_names(j, "players", lv, MAX_SEATS, &np, e) ||
        get_long(j, "games", 1, 1000000000L, &x->games, e) ||
        get_u64(j, "seed", &x->seed, e) || get_long(j, "max_plies", 1, 1000000, &v, e))
        return -1;
    x->max_plies = (int)v;
    if (np != x->nseats)
        return err_set(e, "\"players\" names %d players for %d seats", np, x->nseats);
    for (int p = 0; p < np; p++)
        if (bot_spec_parse(lv[p], &x->players[p], e))
            return err_prefix(e, "\"players\""), -1;
    const Json *sets = json_get(j, "sets");
    if (!sets || sets->type != JSON_ARRAY || sets->count < 1 || sets->count > EXP_MAX_SETS)
        return err_set(e, "\"sets\" is missing or not a list of 1 or 2 rule sets");
    x->nsets = sets->count;
    int k = 0;
    for (const Json *s = sets->child; s; s = s->next, k++) {
        ExpSet *st = &x->set[k];
        if (get_string(s, "label", st->label, sizeof st->label, e) ||
            get_string(s, "params", st->params, sizeof st->params, e))
            return err_prefix(e, "rule set %d", k + 1), -1;
        if (strcmp(st->label, k ? "B" : "A") != 0)
            return err_set(e, "rule set %d is labelled \"%s\", not \"%s\"", k + 1, st->label,
                           k ? "B" : "A");
        const Json *r = json_get(s, "rules");
        if (!r || r->type != JSON_ARRAY || r->count > EXP_MAX_RULES)
            return err_set(e, "rule set %s: \"rules\" is missing or too long", st->label);
        for (const Json *c = r->child; c; c = c->next, st->nrules++)
            if (get_string(c, "name", st->rules_name[st->nrules], sizeof st->rules_name[0],
                           e) ||
                get_string(c, "file", st->rules[st->nrules], sizeof st->rules[0], e) ||
                get_string(c, "sha256", st->rules_sha[st->nrules], sizeof st->rules_sha[0],
                           e))
                return err_prefix(e, "rule set %s, script %d", st->label, st->nrules + 1),
                       -1;
    }
    return 0;
}

static int side_bit(const ExpInfo *x, const char *name)
{
    for (int s = 0; s < x->nsides; s++)
        if (strcmp(x->side[s], name) == 0)
            return s;
    return -1;
}

static int read_game(const ExpInfo *x, const Json *j, ExpGame *g, Error *e)
{
    memset(g, 0, sizeof *g);
    char label[4];
    long v;
    if (!j || j->type != JSON_OBJECT)
        return err_set(e, "not an object");
    if (get_string(j, "set", label, sizeof label, e))
        return -1;
    g->set = strcmp(label, "A") == 0 ? 0 : strcmp(label, "B") == 0 ? 1 : -1;
    if (g->set < 0 || g->set >= x->nsets)
        return err_set(e, "\"set\" names no rule set of the experiment");
    if (get_long(j, "index", 0, x->games - 1, &g->index, e) || get_u64(j, "seed", &g->seed, e))
        return -1;
    if (g->seed != exp_game_seed(x->seed, g->index / x->nseats))
        return err_set(e, "\"seed\" is not the seed of game %ld of this experiment",
                       g->index);
    if (get_string(j, "result", g->result, sizeof g->result, e) ||
        get_string(j, "reason", g->reason, sizeof g->reason, e) ||
        get_long(j, "plies", 0, x->max_plies, &v, e) ||
        get_long(j, "choices", 0, 2000000000L, &g->choices, e))
        return -1;
    g->plies = (int)v;
    /* reason_code came after the first files were written: absent is
     * taken as unknown (END_NONE), present it must be a code's word */
    const Json *rc = json_get(j, "reason_code");
    if (rc && rc->type == JSON_STRING) {
        for (g->code = END_NONE + 1; g->code < END__COUNT; g->code++)
            if (strcmp(end_code_name(g->code), rc->str) == 0)
                break;
        if (g->code == END__COUNT)
            return err_set(e, "\"reason_code\" \"%.40s\" is not an end code", rc->str);
    } else if (rc && rc->type != JSON_NULL) {
        return err_set(e, "\"reason_code\" is not a word or null");
    }
    const Json *f = json_get(j, "finished");
    if (!f || (f->type != JSON_TRUE && f->type != JSON_FALSE))
        return err_set(e, "\"finished\" is missing or not true/false");
    g->finished = f->type == JSON_TRUE;
    /* issue 23: written only when true (absent in files from before it) */
    const Json *ss = json_get(j, "seeded_start");
    if (ss && ss->type != JSON_TRUE && ss->type != JSON_FALSE)
        return err_set(e, "\"seeded_start\" is not true/false");
    g->seeded_start = ss && ss->type == JSON_TRUE;
    const Json *w = json_get(j, "winners");
    if (!w || w->type != JSON_ARRAY)
        return err_set(e, "\"winners\" is missing or not a list");
    for (const Json *c = w->child; c; c = c->next) {
        int s = c->type == JSON_STRING ? side_bit(x, c->str) : -1;
        if (s < 0)
            return err_set(e, "\"winners\" names a side the experiment does not have");
        g->winners |= 1u << s;
    }
    const Json *r = json_get(j, "seat_results");
    if (!r || r->type != JSON_ARRAY || r->count != x->nseats)
        return err_set(e, "\"seat_results\" is missing or not one result per seat");
    int s = 0;
    for (const Json *c = r->child; c; c = c->next, s++) {
        const char *t = c->type == JSON_STRING ? c->str : "";
        if (strcmp(t, "win") == 0)
            g->seat_won |= 1u << s;
        else if (strcmp(t, g->winners ? "loss" : "draw") != 0)
            return err_set(e, "\"seat_results\": entry %d does not agree with \"winners\"",
                           s + 1);
    }
    if ((g->seat_won != 0) != (g->winners != 0) || (!g->finished && g->winners))
        return err_set(e, "\"seat_results\" do not agree with \"winners\" and \"finished\"");
    return 0;
}

int exp_read_part(const Json *root, ExpInfo *x, ExpGame **games, long *n, long *cap,
                  int *shard_k, int *shard_n, Error *e)
{
    const Json *tag = json_get(root, "chessvar");
    const Json *fmt = json_get(root, "format");
    if (!tag || tag->type != JSON_STRING || strcmp(tag->str, "experiment") != 0)
        return err_set(e, "not the JSON of a chessvar experiment (no \"chessvar\": "
                          "\"experiment\")");
    if (!fmt || fmt->type != JSON_NUMBER || fmt->num != 1)
        return err_set(e, "\"format\" is not 1 (written by another version of chessvar?)");
    if (read_info(json_get(root, "info"), x, e))
        return err_prefix(e, "info"), -1;
    *shard_k = *shard_n = 0;
    const Json *sh = json_get(root, "shard");
    if (sh) {
        long k, m;
        if (get_long(sh, "part", 1, 1000000, &k, e) || get_long(sh, "of", 1, 1000000, &m, e))
            return err_prefix(e, "shard"), -1;
        if (k > m)
            return err_set(e, "shard: part %ld of %ld", k, m);
        *shard_k = (int)k;
        *shard_n = (int)m;
    }
    const Json *gl = json_get(root, "games");
    if (!gl || gl->type != JSON_ARRAY)
        return err_set(e, "\"games\" is missing or not a list");
    int i = 0;
    for (const Json *c = gl->child; c; c = c->next, i++) {
        if (*n == *cap) {
            long nc = *cap ? *cap * 2 : 256;
            ExpGame *ng = realloc(*games, sizeof *ng * (size_t)nc);
            if (!ng)
                return err_set(e, "out of memory");
            *games = ng;
            *cap = nc;
        }
        if (read_game(x, c, &(*games)[*n], e))
            return err_prefix(e, "game %d of the list", i + 1), -1;
        ++*n;
    }
    return 0;
}

int exp_info_same(const ExpInfo *a, const ExpInfo *b)
{
    StrBuf x = STRBUF_INIT, y = STRBUF_INIT;
    json_info(a, &x);
    json_info(b, &y);
    int same = !sb_failed(&x) && !sb_failed(&y) && strcmp(sb_str(&x), sb_str(&y)) == 0;
    sb_free(&x);
    sb_free(&y);
    return same;
}

/* ---- The chart's numbers -------------------------------------------------- */

static ChartEst est(double v, Interval ci)
{
    ChartEst e = {v, ci.lo, ci.hi, 1};
    return e;
}

static ChartEst bare(double v)
{
    ChartEst e = {v, v, v, 0};
    return e;
}

static ChartRow *chart_row(ExpChart *m, ChartPanel panel, const char *label)
{
    ChartRow *r = &m->row[m->nrows++];
    str_copy(r->label, sizeof r->label, label);
    r->panel = panel;
    return r;
}

/* B - A of a row from the comparison (issue 23: the paired interval and
 * the verdict's decision, as compare_text prints them). */
static void chart_diff(ChartRow *r, const ExpMetric *em)
{
    if (!em)
        return;
    r->has_diff = 1;
    r->diff = est(em->diff, em->ci);
    r->clear = em->clear;
}

/* The metric of exp_compare with this key (a seat's wins: seat >= 0). */
static const ExpMetric *chart_metric(const ExpComparison *c, int seat, const char *key)
{
    for (int k = 0; c && k < c->nmetrics; k++)
        if (seat >= 0 ? c->m[k].seat == seat
                      : c->m[k].seat < 0 && strcmp(c->m[k].key, key) == 0)
            return &c->m[k];
    return NULL;
}

/* A share per set (the report's interval: share_interval); with two sets
 * its difference from the comparison. */
static void chart_share(const ExpInfo *x, ExpChart *m, int nsets, ChartPanel panel,
                        const char *label, const Count *const *c, const ExpMetric *em)
{
    ChartRow *r = chart_row(m, panel, label);
    for (int k = 0; k < nsets; k++)
        r->set[k] = est(share(*c[k]), share_interval(x, c[k]));
    if (nsets == 2)
        chart_diff(r, em);
}

/* The one place the chart's numbers come from: the figures, intervals and
 * verdicts of the text report (compare_text, single_text). */
void exp_chart_model(const ExpInfo *x, const ExpGame *games, long n, ExpChart *m)
{
    memset(m, 0, sizeof *m);
    Figures f[EXP_MAX_SETS];
    int ns = x->nsets;
    for (int k = 0; k < ns; k++) {
        figures(x, games, n, k, &f[k]);
        StrBuf d = STRBUF_INIT;
        set_description(&x->set[k], 0, &d);
        str_copy(m->desc[k], sizeof m->desc[k], sb_failed(&d) ? "" : sb_str(&d));
        sb_free(&d);
        m->games[k] = f[k].n;
    }
    ExpComparison cmp, *c = NULL;
    if (ns == 2 && exp_compare(x, games, n, &cmp) == 0)
        c = &cmp;
    for (int p = 0; p < x->nseats; p++)
        player_name(x, p, m->player[p], sizeof m->player[p]);
    const Count *cc[EXP_MAX_SETS];
    for (int s = 0; s < x->nseats; s++) {
        char label[EXP_NAME + 8];
        snprintf(label, sizeof label, "%s wins", x->seat[s]);
        for (int k = 0; k < ns; k++)
            cc[k] = &f[k].seat_wins[s];
        chart_share(x, m, ns, CHART_SHARES, label, cc, chart_metric(c, s, ""));
    }
    for (int k = 0; k < ns; k++)
        cc[k] = &f[k].draws;
    chart_share(x, m, ns, CHART_SHARES, "draws", cc, chart_metric(c, -1, "draws"));
    for (int k = 0; k < ns; k++)
        cc[k] = &f[k].decisive;
    chart_share(x, m, ns, CHART_SHARES, "decisive games", cc, chart_metric(c, -1, "decisive"));
    if (f[0].unfinished.k || (ns == 2 && f[1].unfinished.k)) {
        for (int k = 0; k < ns; k++)
            cc[k] = &f[k].unfinished;
        chart_share(x, m, ns, CHART_SHARES, "stopped at ply limit", cc,
                    chart_metric(c, -1, "unfinished"));
    }

    if (x->nseats == 2) { /* players_text and compare_text's score row */
        char label[48];
        snprintf(label, sizeof label, "%s's score", m->player[0]);
        ChartRow *r = chart_row(m, CHART_PLAYERS, label);
        m->has_elo = 1;
        for (int k = 0; k < ns; k++) {
            long w = f[k].pw[0], d = f[k].pd[0], l = f[k].pl[0];
            Interval ci = stats_score_profile(w, d, l, STATS_Z95);
            double sc = stats_score(w, d, l);
            r->set[k] = est(sc, ci);
            m->w[k] = w, m->d[k] = d, m->l[k] = l;
            m->elo[k] = est(stats_elo(sc), (Interval){stats_elo(ci.lo), stats_elo(ci.hi)});
        }
        if (ns == 2)
            chart_diff(r, chart_metric(c, -1, "score"));
    } else if (mixed_players(x)) {
        for (int p = 0; p < x->nseats; p++) {
            char label[48];
            snprintf(label, sizeof label, "%s wins", m->player[p]);
            for (int k = 0; k < ns; k++)
                cc[k] = &f[k].pwin[p];
            chart_share(x, m, ns, CHART_PLAYERS, label, cc, NULL);
        }
    }

    ChartRow *r = chart_row(m, CHART_LENGTH, "length (plies)");
    for (int k = 0; k < ns; k++)
        r->set[k] = est(stats_mean(&f[k].len), stats_mean_interval(&f[k].len, STATS_Z95));
    if (ns == 2)
        chart_diff(r, chart_metric(c, -1, "length"));
    r = chart_row(m, CHART_BRANCHING, "branching factor");
    for (int k = 0; k < ns; k++)
        r->set[k] = bare(branching(&f[k]));
    if (ns == 2) {
        r->has_diff = 1;
        r->diff = bare(branching(&f[1]) - branching(&f[0]));
    }

    for (int k = 0; k < ns; k++)
        for (int i = 0; i < f[k].nreasons; i++) {
            int e = 0;
            while (e < m->nends && strcmp(m->end[e], f[k].reason[i]) != 0)
                e++;
            if (e == m->nends) {
                if (m->nends == CHART_ENDS)
                    continue;
                str_copy(m->end[m->nends++], sizeof m->end[0], f[k].reason[i]);
            }
            m->end_n[e][k] += f[k].reason_n[i];
        }
    /* most games first (both sets together), then by name */
    for (int i = 1; i < m->nends; i++)
        for (int j = i; j > 0; j--) {
            long a = m->end_n[j][0] + m->end_n[j][1], b = m->end_n[j - 1][0] + m->end_n[j - 1][1];
            if (a < b || (a == b && strcmp(m->end[j], m->end[j - 1]) >= 0))
                break;
            char t[EXP_REASON];
            long tn[EXP_MAX_SETS];
            memcpy(t, m->end[j], sizeof t);
            memcpy(m->end[j], m->end[j - 1], sizeof t);
            memcpy(m->end[j - 1], t, sizeof t);
            memcpy(tn, m->end_n[j], sizeof tn);
            memcpy(m->end_n[j], m->end_n[j - 1], sizeof tn);
            memcpy(m->end_n[j - 1], tn, sizeof tn);
        }
    str_copy(m->clear_means, sizeof m->clear_means,
             "p < 0.05 after Holm's correction over the rows judged");
}

