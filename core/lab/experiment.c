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

int exp_play(const ExpInfo *x, long index, int set, Game *g, ExpGame *out, Error *e)
{
    memset(out, 0, sizeof *out);
    out->set = set;
    out->index = index;
    out->seed = game_config(g)->seed;
    BotSpec level[MAX_SEATS];
    Rng rng[MAX_SEATS];
    for (int p = 0; p < x->nseats; p++) {
        int seat = exp_player_seat(x, index, p);
        level[seat] = x->players[p];
        rng_seed(&rng[seat], exp_player_seed(out->seed, p));
    }
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
    out->finished = s.over;
    game_result_text(g, out->result, sizeof out->result);
    if (s.over) {
        out->winners = s.winners;
        out->code = s.code;
        str_copy(out->reason, sizeof out->reason, s.reason[0] ? s.reason : "no reason given");
        for (int k = 0; k < x->nseats; k++)
            if (game_seat_sides(g, k) & s.winners)
                out->seat_won |= 1u << k;
    } else {
        str_copy(out->reason, sizeof out->reason, "ply limit");
    }
    return 0;
}

/* ---- Figures ---------------------------------------------------------------- */

#define MAX_REASONS 24

typedef struct Count {
    long k, n;
} Count;

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
        for (int s = 0; s < x->nseats; s++)
            f->seat_wins[s].k += (g->seat_won >> s) & 1;
        f->draws.k += g->finished && !g->winners;
        f->decisive.k += g->winners != 0;
        f->unfinished.k += !g->finished;
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
            if ((g->seat_won >> seat) & 1)
                f->pw[p]++;
            else if (g->winners)
                f->pl[p]++;
            else
                f->pd[p]++;
        }
    }
    for (int s = 0; s < x->nseats; s++)
        f->seat_wins[s].n = f->n;
    f->draws.n = f->decisive.n = f->unfinished.n = f->n;
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

/* ---- The text report ---------------------------------------------------- */

static void pct_interval(StrBuf *out, Count c)
{
    Interval w = stats_wilson(c.k, c.n, STATS_Z95);
    sb_printf(out, "%5.1f%%  (%4.1f - %4.1f)", 100 * share(c), 100 * w.lo, 100 * w.hi);
}

static void elo_text(StrBuf *out, double elo)
{
    if (isinf(elo))
        sb_puts(out, elo > 0 ? "+inf" : "-inf");
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
        Interval ci = stats_score_interval(f->pw[0], f->pd[0], f->pl[0], STATS_Z95);
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
        Count c = {f->pw[p], f->n};
        sb_printf(out, "  %-22s wins ", a);
        pct_interval(out, c);
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
    sb_puts(out, "\nResults                   share   (95% interval)\n");
    for (int s = 0; s < x->nseats; s++) {
        char w[EXP_NAME + 8];
        snprintf(w, sizeof w, "%s wins", x->seat[s]);
        sb_printf(out, "  %-22s ", w);
        pct_interval(out, f->seat_wins[s]);
        sb_putc(out, '\n');
    }
    sb_printf(out, "  %-22s ", "draws");
    pct_interval(out, f->draws);
    sb_printf(out, "\n  %-22s ", "decisive games");
    pct_interval(out, f->decisive);
    sb_putc(out, '\n');
    if (f->unfinished.k) {
        sb_printf(out, "  %-22s ", "stopped at ply limit");
        pct_interval(out, f->unfinished);
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

/* Half the width of a Wilson interval, in percentage points. */
static double plusminus(Count c)
{
    Interval w = stats_wilson(c.k, c.n, STATS_Z95);
    return 50 * (w.hi - w.lo);
}

static void compare_row(StrBuf *out, const char *label, Count a, Count b)
{
    Interval d = stats_diff_proportions(a.k, a.n, b.k, b.n, STATS_Z95);
    sb_printf(out, "  %-22s %5.1f%% +- %-4.1f  %5.1f%% +- %-4.1f  %+6.1f (%+.1f .. %+.1f)%s\n",
              label, 100 * share(a), plusminus(a), 100 * share(b), plusminus(b),
              100 * (share(b) - share(a)), 100 * d.lo, 100 * d.hi,
              d.lo > 0 || d.hi < 0 ? "  *" : "");
}

/* One verdict line for a proportion that changed clearly (the interval
 * of the difference leaves out 0). */
static int verdict_share(StrBuf *out, const char *what, Count a, Count b,
                         const char *up, const char *down)
{
    Interval d = stats_diff_proportions(a.k, a.n, b.k, b.n, STATS_Z95);
    if (!(d.lo > 0 || d.hi < 0))
        return 0;
    sb_printf(out, "  %s goes from %.0f%% +- %.0f to %.0f%% +- %.0f: %s.\n", what,
              100 * share(a), plusminus(a), 100 * share(b), plusminus(b),
              d.lo > 0 ? up : down);
    return 1;
}

static void compare_text(const ExpInfo *x, const Figures *fa, const Figures *fb, StrBuf *out)
{
    sb_puts(out, "\n                          A                B                B - A (95% interval)\n");
    for (int s = 0; s < x->nseats; s++) {
        char w[EXP_NAME + 8];
        snprintf(w, sizeof w, "%s wins", x->seat[s]);
        compare_row(out, w, fa->seat_wins[s], fb->seat_wins[s]);
    }
    compare_row(out, "draws", fa->draws, fb->draws);
    compare_row(out, "decisive games", fa->decisive, fb->decisive);
    if (fa->unfinished.k || fb->unfinished.k)
        compare_row(out, "stopped at ply limit", fa->unfinished, fb->unfinished);
    Interval ma = stats_mean_interval(&fa->len, STATS_Z95);
    Interval mb = stats_mean_interval(&fb->len, STATS_Z95);
    Interval dl = stats_diff_means(&fa->len, &fb->len, STATS_Z95);
    int len_clear = dl.lo > 0 || dl.hi < 0;
    sb_printf(out, "  %-22s %6.1f +- %-5.1f %6.1f +- %-5.1f %+6.1f (%+.1f .. %+.1f)%s\n",
              "length (plies)", stats_mean(&fa->len), (ma.hi - ma.lo) / 2,
              stats_mean(&fb->len), (mb.hi - mb.lo) / 2,
              stats_mean(&fb->len) - stats_mean(&fa->len), dl.lo, dl.hi,
              len_clear ? "  *" : "");
    sb_printf(out, "  %-22s %6.1f          %6.1f          %+6.1f\n", "branching factor",
              branching(fa), branching(fb), branching(fb) - branching(fa));
    if (x->nseats == 2) {
        char a[32];
        player_name(x, 0, a, sizeof a);
        double sa = stats_score(fa->pw[0], fa->pd[0], fa->pl[0]);
        double sb = stats_score(fb->pw[0], fb->pd[0], fb->pl[0]);
        Interval ca = stats_score_interval(fa->pw[0], fa->pd[0], fa->pl[0], STATS_Z95);
        Interval cb = stats_score_interval(fb->pw[0], fb->pd[0], fb->pl[0], STATS_Z95);
        char label[48];
        snprintf(label, sizeof label, "%s's score", a);
        sb_printf(out, "  %-22s %5.1f%% +- %-4.1f  %5.1f%% +- %-4.1f  %+6.1f\n", label,
                  100 * sa, 50 * (ca.hi - ca.lo), 100 * sb, 50 * (cb.hi - cb.lo),
                  100 * (sb - sa));
    }
    sb_puts(out, "  (* the interval of the difference leaves out 0: a clear change)\n");

    sb_puts(out, "\nVerdict (B against A)\n");
    int said = 0;
    for (int s = 0; s < x->nseats; s++) {
        char what[EXP_NAME + 16], up[EXP_NAME + 32], down[EXP_NAME + 32];
        snprintf(what, sizeof what, "%s's win rate", x->seat[s]);
        snprintf(up, sizeof up, "B favours %s", x->seat[s]);
        snprintf(down, sizeof down, "B is harder on %s", x->seat[s]);
        said += verdict_share(out, what, fa->seat_wins[s], fb->seat_wins[s], up, down);
    }
    said += verdict_share(out, "The draw rate", fa->draws, fb->draws,
                          "B makes games more drawish", "B makes games more decisive");
    if (len_clear) {
        sb_printf(out, "  Games get %s: %.0f plies on average instead of %.0f "
                       "(difference %+.0f, %+.0f .. %+.0f).\n",
                  dl.lo > 0 ? "longer" : "shorter", stats_mean(&fb->len),
                  stats_mean(&fa->len), stats_mean(&fb->len) - stats_mean(&fa->len),
                  dl.lo, dl.hi);
        said++;
    }
    if (!said)
        sb_printf(out, "  No clear difference between A and B in %ld games each "
                       "(no interval of a difference leaves out 0).\n", fa->n);
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
    compare_text(x, &fa, &fb, out);
    sb_puts(out, "\nA in detail");
    single_text(x, &fa, out);
    sb_puts(out, "\nB in detail");
    single_text(x, &fb, out);
}

/* ---- JSON ------------------------------------------------------------------- */

static void json_count(StrBuf *out, const char *key, Count c)
{
    Interval w = stats_wilson(c.k, c.n, STATS_Z95);
    sb_printf(out, "\"%s\":{\"count\":%ld,\"share\":%.6f,\"lo\":%.6f,\"hi\":%.6f}", key, c.k,
              share(c), w.lo, w.hi);
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
        Interval w = stats_wilson(f->seat_wins[s].k, f->n, STATS_Z95);
        sb_printf(out, ":{\"count\":%ld,\"share\":%.6f,\"lo\":%.6f,\"hi\":%.6f}",
                  f->seat_wins[s].k, share(f->seat_wins[s]), w.lo, w.hi);
    }
    sb_puts(out, "},");
    json_count(out, "draws", f->draws);
    sb_putc(out, ',');
    json_count(out, "decisive", f->decisive);
    sb_putc(out, ',');
    json_count(out, "unfinished", f->unfinished);
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
        Interval ci = stats_score_interval(f->pw[p], f->pd[p], f->pl[p], STATS_Z95);
        char b[32];
        sb_printf(out, "%s{\"player\":%d,\"level\":\"%s\",\"wins\":%ld,\"draws\":%ld,"
                       "\"losses\":%ld,\"score\":%.6f,\"lo\":%.6f,\"hi\":%.6f}",
                  p ? "," : "", p + 1, bot_spec_name(&x->players[p], b, sizeof b), f->pw[p],
                  f->pd[p], f->pl[p], s, ci.lo, ci.hi);
    }
    sb_puts(out, "]");
    if (x->nseats == 2) {
        double s = stats_score(f->pw[0], f->pd[0], f->pl[0]);
        Interval ci = stats_score_interval(f->pw[0], f->pd[0], f->pl[0], STATS_Z95);
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

static void json_diff(StrBuf *out, const char *key, Count a, Count b)
{
    Interval d = stats_diff_proportions(a.k, a.n, b.k, b.n, STATS_Z95);
    sb_printf(out, "\"%s\":{\"difference\":%.6f,\"lo\":%.6f,\"hi\":%.6f}", key,
              share(b) - share(a), d.lo, d.hi);
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
        sb_printf(out, ",\"finished\":%s,\"plies\":%d,\"choices\":%ld}",
                  g->finished ? "true" : "false", g->plies, g->choices);
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
    if (x->nsets == 2) {
        sb_puts(out, ",\n\"compare\":{\"seat_wins\":{");
        for (int s = 0; s < x->nseats; s++) {
            if (s)
                sb_putc(out, ',');
            Interval d = stats_diff_proportions(f[0].seat_wins[s].k, f[0].n,
                                                f[1].seat_wins[s].k, f[1].n, STATS_Z95);
            sb_json_str(out, x->seat[s]);
            sb_printf(out, ":{\"difference\":%.6f,\"lo\":%.6f,\"hi\":%.6f}",
                      share(f[1].seat_wins[s]) - share(f[0].seat_wins[s]), d.lo, d.hi);
        }
        sb_puts(out, "},");
        json_diff(out, "draws", f[0].draws, f[1].draws);
        sb_putc(out, ',');
        json_diff(out, "decisive", f[0].decisive, f[1].decisive);
        Interval dl = stats_diff_means(&f[0].len, &f[1].len, STATS_Z95);
        sb_printf(out, ",\"length\":{\"difference\":%.6f,\"lo\":%.6f,\"hi\":%.6f}",
                  stats_mean(&f[1].len) - stats_mean(&f[0].len), dl.lo, dl.hi);
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

static int is_clear(Interval d)
{
    return d.lo > 0 || d.hi < 0;
}

static ChartRow *chart_row(ExpChart *m, ChartPanel panel, const char *label)
{
    ChartRow *r = &m->row[m->nrows++];
    str_copy(r->label, sizeof r->label, label);
    r->panel = panel;
    return r;
}

/* A share per set; with two sets its difference (Newcombe's interval, as
 * compare_row). */
static void chart_share(ExpChart *m, int nsets, ChartPanel panel, const char *label,
                        const Count *c, int diff)
{
    ChartRow *r = chart_row(m, panel, label);
    for (int k = 0; k < nsets; k++)
        r->set[k] = est(share(c[k]), stats_wilson(c[k].k, c[k].n, STATS_Z95));
    if (nsets == 2 && diff) {
        Interval d = stats_diff_proportions(c[0].k, c[0].n, c[1].k, c[1].n, STATS_Z95);
        r->has_diff = 1;
        r->diff = est(share(c[1]) - share(c[0]), d);
        r->clear = is_clear(d);
    }
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
    for (int p = 0; p < x->nseats; p++)
        player_name(x, p, m->player[p], sizeof m->player[p]);
    Count c[EXP_MAX_SETS];
    for (int s = 0; s < x->nseats; s++) {
        char label[EXP_NAME + 8];
        snprintf(label, sizeof label, "%s wins", x->seat[s]);
        for (int k = 0; k < ns; k++)
            c[k] = f[k].seat_wins[s];
        chart_share(m, ns, CHART_SHARES, label, c, 1);
    }
    for (int k = 0; k < ns; k++)
        c[k] = f[k].draws;
    chart_share(m, ns, CHART_SHARES, "draws", c, 1);
    for (int k = 0; k < ns; k++)
        c[k] = f[k].decisive;
    chart_share(m, ns, CHART_SHARES, "decisive games", c, 1);
    if (f[0].unfinished.k || (ns == 2 && f[1].unfinished.k)) {
        for (int k = 0; k < ns; k++)
            c[k] = f[k].unfinished;
        chart_share(m, ns, CHART_SHARES, "stopped at ply limit", c, 1);
    }

    if (x->nseats == 2) { /* players_text and compare_text's score row */
        char label[48];
        snprintf(label, sizeof label, "%s's score", m->player[0]);
        ChartRow *r = chart_row(m, CHART_PLAYERS, label);
        m->has_elo = 1;
        for (int k = 0; k < ns; k++) {
            long w = f[k].pw[0], d = f[k].pd[0], l = f[k].pl[0];
            Interval ci = stats_score_interval(w, d, l, STATS_Z95);
            double sc = stats_score(w, d, l);
            r->set[k] = est(sc, ci);
            m->w[k] = w, m->d[k] = d, m->l[k] = l;
            m->elo[k] = est(stats_elo(sc), (Interval){stats_elo(ci.lo), stats_elo(ci.hi)});
        }
        if (ns == 2) {
            r->has_diff = 1;
            r->diff = bare(r->set[1].v - r->set[0].v);
        }
    } else if (mixed_players(x)) {
        for (int p = 0; p < x->nseats; p++) {
            char label[48];
            snprintf(label, sizeof label, "%s wins", m->player[p]);
            for (int k = 0; k < ns; k++)
                c[k] = (Count){f[k].pw[p], f[k].n};
            chart_share(m, ns, CHART_PLAYERS, label, c, 0);
        }
    }

    ChartRow *r = chart_row(m, CHART_LENGTH, "length (plies)");
    for (int k = 0; k < ns; k++)
        r->set[k] = est(stats_mean(&f[k].len), stats_mean_interval(&f[k].len, STATS_Z95));
    if (ns == 2) {
        Interval d = stats_diff_means(&f[0].len, &f[1].len, STATS_Z95);
        r->has_diff = 1;
        r->diff = est(stats_mean(&f[1].len) - stats_mean(&f[0].len), d);
        r->clear = is_clear(d);
    }
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
             "the 95% interval of B - A leaves out 0");
}

