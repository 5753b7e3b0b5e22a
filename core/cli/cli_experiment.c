/*
 * cli_experiment.c -- `chessvar experiment` and `chessvar merge`: many bot
 * games under one or two rule sets, played in one process or several,
 * whole or as one shard of a larger run, and the report of what they show
 * (core/lab/experiment.h computes it; docs/EXPERIMENTS.md explains it).
 *
 * Invariant: the games and the report depend only on the command line
 * (variant, rules, bots, seed, games), never on --jobs or --shard: game i
 * has its own seed and its own bots' generators, and the results are
 * sorted before they are reported.  A worker process only plays the games
 * the parent hands it and sends their ExpGame back through its socket; the
 * parent does all output.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lab/bot.h"
#include "cli.h"
#include "../lab/experiment.h"
#include "../lab/sequential.h"
#include "../lua/house.h"
#include "../record/record.h"
#include "../sha256.h"

#define DEFAULT_GAMES 100
#define DEFAULT_MAX_PLIES 1000

/* One message from a worker: task's game, or (error 1) the error that
 * stopped it, whose text follows as sizeof Error.msg bytes. */
typedef struct WorkerMsg {
    long task;
    int error;
    ExpGame game;
} WorkerMsg;

/* The parent's message to a worker: play tasks [lo, hi). */
typedef struct TaskRange {
    long lo, hi;
} TaskRange;

typedef struct Run {
    const CliOptions *o;
    CliOptions set_opts[EXP_MAX_SETS]; /* the options that start a game of A, of B */
    ExpInfo x;
    long lo, hi;          /* the games of this shard: [lo, hi) of each set */
    long ntasks;          /* (hi - lo) * nsets */
    ExpGame *games;       /* ntasks results, in task order */
    long done;
    long failed;          /* play_jobs: the first task whose error came back (ntasks: none) */
    double t0, last_draw; /* the progress bar's clock */
    int progress;         /* draw a progress bar on stderr */
} Run;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- Setting up ----------------------------------------------------------- */

/* Seat levels from --bot SEAT=LEVEL (seats not named: random). */
static int read_players(const Game *g, const CliOptions *o, ExpInfo *x, Error *e)
{
    for (int p = 0; p < x->nseats; p++)
        memset(&x->players[p], 0, sizeof x->players[p]); /* random */
    for (int i = 0; i < o->nbots; i++) {
        const char *eq = strchr(o->bots[i], '=');
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->bots[i]), o->bots[i]);
        int seat = game_seat_by_name(g, name);
        if (seat < 0 || seat >= MAX_SEATS) {
            StrBuf b = STRBUF_INIT;
            for (int s = 0; s < game_nseats(g); s++)
                sb_printf(&b, "%s%s", s ? ", " : "", game_seat_name(g, s));
            err_set(e, "--bot %s: no seat '%s' (the seats: %s)", o->bots[i], name,
                    sb_str(&b));
            sb_free(&b);
            return -1;
        }
        if (bot_spec_parse(eq + 1, &x->players[seat], e))
            return err_prefix(e, "--bot %s", o->bots[i]), -1;
    }
    return 0;
}

static void describe_set(const CliOptions *so, House *h, ExpSet *st, const char *label)
{
    memset(st, 0, sizeof *st);
    str_copy(st->label, sizeof st->label, label);
    StrBuf p = STRBUF_INIT;
    for (int i = 0; i < so->nparams; i++)
        sb_printf(&p, "%s%s", i ? " " : "", so->params[i]);
    str_copy(st->params, sizeof st->params, sb_str(&p));
    sb_free(&p);
    const GameScript *sc = h ? house_scripts(h) : NULL;
    for (int i = 0; h && i < house_count(h) && i < EXP_MAX_RULES; i++) {
        str_copy(st->rules[i], sizeof st->rules[i], sc[i].name);
        str_copy(st->rules_name[i], sizeof st->rules_name[i], house_title(h, i));
        sha256_hex(sc[i].text, sc[i].len, st->rules_sha[i]);
        st->nrules++;
    }
}

/* Check the options by starting game 0 of each rule set, and fill r->x. */
static int run_setup(Run *r, Error *e, int *status)
{
    const CliOptions *o = r->o;
    ExpInfo *x = &r->x;
    memset(x, 0, sizeof *x);
    x->games = o->games ? o->games : DEFAULT_GAMES;
    x->max_plies = o->max_plies ? o->max_plies : DEFAULT_MAX_PLIES;
    x->seed = o->have_seed ? o->seed : cli_fresh_seed();
    x->nsets = o->compare ? 2 : 1;
    for (int k = 0; k < x->nsets; k++) {
        CliOptions *so = &r->set_opts[k];
        *so = *o;
        so->have_seed = 1;
        so->seed = exp_game_seed(x->seed, 0);
        if (k == 1) {
            so->nparams = o->cmp_nparams;
            memcpy(so->params, o->cmp_params, sizeof so->params);
            so->nrules = o->cmp_nrules;
            memcpy(so->rules, o->cmp_rules, sizeof so->rules);
            so->house = o->cmp_house;
        }
        Game *g = cli_start_game(so, 0, e, status);
        if (!g) {
            if (k == 1)
                err_prefix(e, "after --compare");
            return -1;
        }
        if (k == 0) {
            str_copy(x->variant, sizeof x->variant, game_variant(g)->name);
            str_copy(x->title, sizeof x->title, game_variant(g)->title);
            x->nsides = game_nsides(g);
            x->nseats = game_nseats(g);
            for (int s = 0; s < x->nsides && s < MAX_SIDES; s++)
                str_copy(x->side[s], EXP_NAME, game_side_name(g, s));
            for (int s = 0; s < x->nseats && s < MAX_SEATS; s++)
                str_copy(x->seat[s], EXP_NAME, game_seat_name(g, s));
            if (read_players(g, o, x, e)) {
                game_free(g);
                *status = CLI_EXIT_USAGE;
                return -1;
            }
        } else if (game_nseats(g) != x->nseats || game_nsides(g) != x->nsides) {
            game_free(g);
            *status = CLI_EXIT_USAGE;
            return err_set(e, "after --compare: the second rule set plays with other "
                              "seats or sides than the first; the two cannot be compared");
        }
        game_free(g);
        describe_set(so, so->house, &x->set[k], k ? "B" : "A");
    }
    r->lo = 0;
    r->hi = x->games;
    if (o->shard_n) {
        r->lo = x->games * (o->shard_k - 1) / o->shard_n;
        r->hi = x->games * o->shard_k / o->shard_n;
    }
    r->ntasks = (r->hi - r->lo) * x->nsets;
    return 0;
}

/* ---- Playing ---------------------------------------------------------------- */

/* Task t: rule set t / (hi - lo), game lo + t % (hi - lo). */
static int task_play(Run *r, long t, ExpGame *out, Error *e)
{
    long m = r->hi - r->lo;
    int set = (int)(t / m);
    long index = r->lo + t % m;
    CliOptions so = r->set_opts[set];
    so.seed = exp_game_seed(r->x.seed, index / r->x.nseats);
    int status;
    Game *g = cli_start_game(&so, 0, e, &status);
    /* a game to save is played whole; otherwise the fastest way */
    if (!g || (r->o->save_games ? exp_play : exp_play_quick)(&r->x, index, set, g, out, e)) {
        game_free(g);
        return err_prefix(e, "game %ld%s%s (seed %llu)", index,
                          r->x.nsets > 1 ? " of rule set " : "",
                          r->x.nsets > 1 ? r->x.set[set].label : "",
                          (unsigned long long)so.seed), -1;
    }
    int rc = 0;
    if (r->o->save_games) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%sgame-%06ld.rec", r->o->save_games,
                 r->x.nsets > 1 ? (set ? "B-" : "A-") : "", index);
        rc = record_save_file(g, path, e);
    }
    game_free(g);
    return rc;
}

static void progress_draw(Run *r, int last)
{
    double t = now_seconds();
    if (!r->progress || (!last && t - r->last_draw < 0.1))
        return;
    r->last_draw = t;
    double el = t - r->t0, rate = el > 0 ? (double)r->done / el : 0;
    int width = 30, fill = r->ntasks ? (int)(width * r->done / r->ntasks) : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    if (last) {
        fprintf(stderr, "\r\033[K%ld games in %.1f s (%.0f games/s)\n", r->done, el, rate);
        return;
    }
    double left = rate > 0 ? (double)(r->ntasks - r->done) / rate : 0;
    if (r->done == 0) /* nothing to measure a rate by yet: the time so far */
        fprintf(stderr, "\r[%s] 0/%ld games, %.0f s so far ", bar, r->ntasks, el);
    else
        fprintf(stderr, "\r[%s] %ld/%ld games, %.*f games/s, %.0f s left ", bar, r->done,
                r->ntasks, rate < 10 ? 1 : 0, rate, left);
    fflush(stderr);
}

static int play_here(Run *r, Error *e)
{
    for (long t = 0; t < r->ntasks; t++) {
        if (task_play(r, t, &r->games[t], e))
            return -1;
        r->done++;
        progress_draw(r, 0);
    }
    return 0;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Read n bytes: 1, 0 at the end of the stream before any, -1 otherwise. */
static int read_all(int fd, void *p, size_t n)
{
    char *c = p;
    size_t have = 0;
    while (have < n) {
        ssize_t got = read(fd, c + have, n - have);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return got == 0 && have == 0 ? 0 : -1;
        have += (size_t)got;
    }
    return 1;
}

/* A worker: plays the ranges of tasks the parent sends, in order, until
 * the parent says there are no more (the end of its stream).  Each game
 * goes back as a WorkerMsg, the games of a range together (one write for
 * many short games) unless 20 ms have passed since the last were sent. */
#define RANGE_MAX 16
static void worker(Run *r, int fd)
{
    TaskRange tr;
    WorkerMsg m[RANGE_MAX];
    int got;
    double sent = now_seconds();
    while ((got = read_all(fd, &tr, sizeof tr)) == 1) {
        int n = 0;
        for (long t = tr.lo; t < tr.hi; t++) {
            Error e = {""};
            memset(&m[n], 0, sizeof m[n]);
            m[n].task = t;
            m[n].error = task_play(r, t, &m[n].game, &e) != 0;
            int error = m[n++].error;
            if (t + 1 < tr.hi && n < RANGE_MAX && !error && now_seconds() - sent < 0.02)
                continue;
            if (write_all(fd, m, sizeof m[0] * (size_t)n) ||
                (error && write_all(fd, e.msg, sizeof e.msg)) || error)
                _exit(1);
            n = 0;
            sent = now_seconds();
        }
    }
    _exit(got == 0 ? 0 : 1);
}

/* The parent's side of one worker.  Tasks are handed out in ranges as
 * workers become free (a worker in long games takes fewer), at most two
 * ranges ahead of what came back, so a worker never waits for its next
 * task; the ranges shrink as the tasks left do, so that at the end no
 * worker has games queued while another is idle. */
#define WORKER_BUF (64 * sizeof(WorkerMsg))
typedef struct Worker {
    pid_t pid;
    int fd;            /* the socket to the worker, -1 once it is closed */
    int sending;       /* 0 once told there are no more tasks */
    TaskRange range[2]; /* the ranges handed out, oldest first */
    int nranges;
    long expect;       /* the next task due back: in range[0] */
    size_t have;       /* bytes in buf */
    char buf[WORKER_BUF + sizeof(Error)];
} Worker;

/* Hand w its next range, or tell it there is none when no range of it is
 * outstanding.  A worker that cannot be reached has stopped: it gets no
 * more, and the games that do not come back say so at the end. */
static void worker_feed(Run *r, Worker *w, long *next, int jobs)
{
    long left = r->failed - *next; /* none after a game that failed */
    /* two ranges ahead while there are many tasks left, one near the end */
    int want = left > 4L * jobs ? 2 : 1;
    while (w->sending && w->nranges < want && left > 0) {
        long n = left / (4L * jobs);
        n = n < 1 ? 1 : n > RANGE_MAX ? RANGE_MAX : n;
        TaskRange tr = {*next, *next + n};
        if (send(w->fd, &tr, sizeof tr, MSG_NOSIGNAL) != (ssize_t)sizeof tr) {
            w->sending = 0;
            return;
        }
        if (w->nranges == 0)
            w->expect = tr.lo;
        w->range[w->nranges++] = tr;
        *next += n;
        left -= n;
    }
    if (w->sending && w->nranges == 0 && left <= 0) {
        w->sending = 0;
        shutdown(w->fd, SHUT_WR); /* the worker's end of its stream: it exits */
    }
}

/* The messages complete in w's buffer: filed into r->games.  A game that
 * failed ends w (the worker stops there); its error goes to e when it is
 * the first in task order so far (r->failed).  0, or -1 with e for a
 * message that makes no sense. */
static int worker_take(Run *r, Worker *w, long *next, int jobs, Error *e)
{
    size_t at = 0;
    while (w->have - at >= sizeof(WorkerMsg)) {
        WorkerMsg m;
        memcpy(&m, w->buf + at, sizeof m);
        if (w->nranges == 0 || m.task != w->expect)
            return err_set(e, "a worker sent a game that was not asked for");
        if (m.error) {
            if (w->have - at < sizeof m + sizeof e->msg)
                break;
            if (m.task < r->failed) {
                char msg[sizeof e->msg];
                memcpy(msg, w->buf + at + sizeof m, sizeof msg);
                msg[sizeof msg - 1] = '\0';
                err_set(e, "%s", msg);
                r->failed = m.task;
            }
            w->nranges = 0; /* it has stopped: nothing more of it to wait for */
            w->sending = 0;
            w->have = 0;
            return 0;
        }
        at += sizeof m;
        r->games[m.task] = m.game;
        r->done++;
        w->expect++;
        if (w->expect == w->range[0].hi) { /* a range done: the next one */
            w->range[0] = w->range[1];
            w->expect = w->range[0].lo;
            w->nranges--;
            worker_feed(r, w, next, jobs);
        }
        progress_draw(r, 0);
    }
    memmove(w->buf, w->buf + at, w->have - at);
    w->have -= at;
    return 0;
}

/* Does the run still need games of w: some handed to it and not back yet
 * that come before the first failure, or (none so far) more to play? */
static int worker_owes(const Run *r, const Worker *w)
{
    return (w->nranges && w->expect < r->failed) || (w->sending && r->failed == r->ntasks);
}

/* Play the tasks in jobs workers.  A game that fails stops the run as
 * play_here does, with the same error: that of the first game in task
 * order that fails, whichever worker comes back first.  So the run goes
 * on until every game before the first failure known is back (one of
 * them may fail too), hands out nothing after it, and then stops the
 * workers still playing later games. */
static int play_jobs(Run *r, int jobs, Error *e)
{
    if (jobs > r->ntasks)
        jobs = (int)r->ntasks; /* a worker with nothing to play is not started */
    Worker *w = cv_calloc(sizeof *w * (size_t)jobs);
    struct pollfd *pf = cv_calloc(sizeof *pf * (size_t)jobs);
    if (!w || !pf) {
        free(w);
        free(pf);
        return err_set(e, "out of memory");
    }
    int n = 0, rc = 0;
    long next = 0;
    r->failed = r->ntasks;
    fflush(NULL);
    for (; n < jobs; n++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
            rc = err_set(e, "cannot start a worker: %s", strerror(errno));
            break;
        }
        w[n].pid = fork();
        if (w[n].pid < 0) {
            close(sv[0]);
            close(sv[1]);
            rc = err_set(e, "cannot start a worker: %s", strerror(errno));
            break;
        }
        if (w[n].pid == 0) {
            close(sv[0]);
            for (int k = 0; k < n; k++)
                close(w[k].fd);
            worker(r, sv[1]);
        }
        close(sv[1]);
        w[n].fd = sv[0];
        w[n].sending = 1;
    }
    for (int k = 0; k < n && rc == 0; k++)
        worker_feed(r, &w[k], &next, jobs);
    int open = rc ? 0 : n, lost = 0, settled = 0;
    while (open > 0 && rc == 0 && !lost && !settled) {
        for (int k = 0; k < n; k++) {
            pf[k].fd = w[k].fd;
            pf[k].events = POLLIN;
            pf[k].revents = 0;
        }
        /* a second at most between two draws of the bar, so that it moves
         * (the time so far) while every worker is in a long game */
        int ready = poll(pf, (nfds_t)n, r->progress ? 1000 : -1);
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            rc = err_set(e, "waiting for the workers: %s", strerror(errno));
            break;
        }
        if (ready == 0) {
            progress_draw(r, 0);
            continue;
        }
        for (int k = 0; k < n && rc == 0; k++) {
            if (w[k].fd < 0 || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t got = read(w[k].fd, w[k].buf + w[k].have, sizeof w[k].buf - w[k].have);
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0) {
                close(w[k].fd);
                w[k].fd = -1;
                open--;
                if (worker_owes(r, &w[k])) { /* it had games to play: stop now */
                    lost = 1;
                    break;
                }
                continue;
            }
            w[k].have += (size_t)got;
            rc = worker_take(r, &w[k], &next, jobs, e);
        }
        settled = r->failed < r->ntasks;
        for (int k = 0; k < n && settled; k++)
            settled = !worker_owes(r, &w[k]);
    }
    if (rc == 0 && !lost && r->failed < r->ntasks)
        rc = -1; /* e: the first game that failed */
    for (int k = 0; k < n; k++) {
        if (rc || lost)
            kill(w[k].pid, SIGTERM);
        if (w[k].fd >= 0)
            close(w[k].fd);
    }
    for (int k = 0; k < n; k++) {
        int st;
        while (waitpid(w[k].pid, &st, 0) < 0 && errno == EINTR)
            ;
        lost |= !WIFEXITED(st) || WEXITSTATUS(st) != 0;
    }
    free(w);
    free(pf);
    if (rc == 0 && (lost || r->done != r->ntasks))
        rc = err_set(e, "a worker stopped before its games were played (%ld of %ld "
                        "games came back)", r->done, r->ntasks);
    return rc;
}

/* ---- As a library ------------------------------------------------------------ */
/* The experiment o describes, set up and played as this command does, one
 * task at a time, for the server's experiments (core/web/labjobs.c, issue
 * 23): a report made from its games is the command's, byte for byte. */

struct CliExpRun {
    Run r;
};

CliExpRun *cli_exp_open(const CliOptions *o, Error *e, int *status)
{
    CliExpRun *x = cv_calloc(sizeof *x);
    *status = CLI_EXIT_FAIL;
    if (!x)
        return err_set(e, "out of memory"), NULL;
    x->r.o = o;
    if (run_setup(&x->r, e, status)) {
        free(x);
        return NULL;
    }
    return x;
}

const ExpInfo *cli_exp_info(const CliExpRun *x) { return &x->r.x; }

long cli_exp_tasks(const CliExpRun *x) { return x->r.ntasks; }

int cli_exp_play(CliExpRun *x, long t, ExpGame *out, Error *e)
{
    if (t < 0 || t >= x->r.ntasks)
        return err_set(e, "no task %ld: the experiment has %ld", t, x->r.ntasks);
    return task_play(&x->r, t, out, e);
}

void cli_exp_close(CliExpRun *x) { free(x); }

/* ---- Output --------------------------------------------------------------- */

static int cmp_game(const void *a, const void *b)
{
    const ExpGame *x = a, *y = b;
    if (x->set != y->set)
        return x->set - y->set;
    return (x->index > y->index) - (x->index < y->index);
}

static int write_file(const char *path, const StrBuf *b, Error *e)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return err_set(e, "cannot write %s: %s", path, strerror(errno));
    size_t n = fwrite(b->s ? b->s : "", 1, b->len, f);
    int bad = n != b->len;
    bad |= fclose(f) != 0;
    return bad ? err_set(e, "cannot write %s: %s", path, strerror(errno)) : 0;
}

/* The report (text or JSON) on stdout and the chart in o->svg. */
/* Write the report in out (freed) to standard output, then the chart of
 * --svg: the end of both the fixed and the --until run. */
static int write_report(const CliOptions *o, const ExpInfo *x, const ExpGame *games,
                        long n, StrBuf *out, Error *e)
{
    int rc = 0;
    if (sb_failed(out))
        rc = err_set(e, "out of memory");
    else if (fwrite(out->s, 1, out->len, stdout) != out->len || fflush(stdout))
        rc = err_set(e, "cannot write the report: %s", strerror(errno));
    sb_free(out);
    if (rc == 0 && o->svg) {
        StrBuf svg = STRBUF_INIT;
        exp_svg(x, games, n, &svg);
        rc = sb_failed(&svg) ? err_set(e, "out of memory") : write_file(o->svg, &svg, e);
        sb_free(&svg);
    }
    return rc;
}

static int report(const CliOptions *o, const ExpInfo *x, ExpGame *games, long n,
                  int shard_k, int shard_n, Error *e)
{
    qsort(games, (size_t)n, sizeof *games, cmp_game);
    StrBuf out = STRBUF_INIT;
    if (o->json)
        exp_json(x, games, n, shard_k, shard_n, &out);
    else
        exp_report_text(x, games, n, &out);
    return write_report(o, x, games, n, &out, e);
}

/* Can a file be written at path?  Tried with the system (not guessed from
 * permissions): a file that is not there is created and removed again, one
 * that is there is opened for writing and left as it is.  0, or -1 with e
 * naming the option, the path and the system's reason. */
static int check_writable_file(const char *opt, const char *path, Error *e)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK, 0666);
    if (fd >= 0) {
        close(fd);
        unlink(path);
        return 0;
    }
    if (errno == EEXIST)
        fd = open(path, O_WRONLY | O_NONBLOCK);
    if (fd < 0)
        return err_set(e, "%s %s: %s", opt, path, strerror(errno));
    close(fd);
    return 0;
}

/* Everything the command will write, checked before the first game is
 * played (an experiment may take hours; its results must not be lost to
 * a typo): the report's standard output, the chart's file, the games'
 * directory (made here when it is not there).  0, or -1 with e. */
static int check_targets(const CliOptions *o, const char *cmd, Error *e)
{
    int fl = fcntl(STDOUT_FILENO, F_GETFL);
    if (fl < 0)
        return err_set(e, "the %s goes to standard output, which cannot be written: %s",
                       o->json ? "JSON report" : "report", strerror(errno));
    if ((fl & O_ACCMODE) == O_RDONLY)
        return err_set(e, "the %s goes to standard output, which is open for reading "
                          "only", o->json ? "JSON report" : "report");
    if (o->svg && check_writable_file("--svg", o->svg, e))
        return -1;
    if (!o->save_games || strcmp(cmd, "experiment") != 0)
        return 0;
    struct stat st;
    if (mkdir(o->save_games, 0777) && errno != EEXIST)
        return err_set(e, "--save-games %s: %s", o->save_games, strerror(errno));
    if (stat(o->save_games, &st))
        return err_set(e, "--save-games %s: %s", o->save_games, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return err_set(e, "--save-games %s: %s", o->save_games, strerror(ENOTDIR));
    if (access(o->save_games, W_OK | X_OK))
        return err_set(e, "--save-games %s: %s", o->save_games, strerror(errno));
    return 0;
}

static int fail(const char *cmd, const Error *e, int status)
{
    fprintf(stderr, "chessvar %s: %s\n", cmd, e->msg);
    return status;
}

static int experiment_until(const CliOptions *o);

int cli_experiment(const CliOptions *o)
{
    Error e = {""};
    int status = CLI_EXIT_USAGE;
    if (o->until || o->max_games)
        return experiment_until(o); /* issue 23 point 2 */
    if (o->shard_n && !o->have_seed) {
        err_set(&e, "--shard needs --seed: every part must play the same experiment");
        return fail("experiment", &e, CLI_EXIT_USAGE);
    }
    if (check_targets(o, "experiment", &e))
        return fail("experiment", &e, CLI_EXIT_FAIL);
    Run *r = cv_calloc(sizeof *r);
    if (!r) {
        err_set(&e, "out of memory");
        return fail("experiment", &e, CLI_EXIT_FAIL);
    }
    r->o = o;
    if (run_setup(r, &e, &status)) {
        free(r);
        return fail("experiment", &e, status);
    }
    r->games = cv_calloc(sizeof *r->games * (size_t)(r->ntasks ? r->ntasks : 1));
    int rc = r->games ? 0 : err_set(&e, "out of memory");
    r->progress = isatty(STDERR_FILENO);
    r->t0 = now_seconds();
    r->last_draw = r->t0 - 1;
    if (rc == 0 && r->ntasks)
        progress_draw(r, 0); /* at once: the first game may be long */
    int jobs = o->jobs ? o->jobs : 1;
    if (rc == 0 && r->ntasks)
        rc = jobs > 1 ? play_jobs(r, jobs, &e) : play_here(r, &e);
    if (r->progress && rc == 0)
        progress_draw(r, 1);
    else if (r->progress) /* the bar, drawn at once: gone before the error */
        fputs("\r\033[K", stderr);
    if (rc == 0)
        rc = report(o, &r->x, r->games, r->ntasks, o->shard_k, o->shard_n, &e);
    free(r->games);
    free(r);
    return rc ? fail("experiment", &e, CLI_EXIT_FAIL) : CLI_EXIT_OK;
}

/* ---- --until clear: stop when the answer is clear (issue 23 point 2) -------- */

/* Rounds: round q is the games q * nseats .. q * nseats + nseats - 1 of each
 * rule set (one seed, every rotation of the players).  The games are
 * played a look at a time (core/lab/sequential.h: a look every few rounds
 * up to --max-games) with the ordinary play code, so --jobs, --save-games
 * and the games themselves are what a fixed run of as many games has; after
 * each look the per-round differences B - A of the metric decide whether
 * to go on.  Nothing in the decision depends on --jobs. */

#define DEFAULT_UNTIL_MAX 10000

enum { M_SEAT_WINS, M_DRAWS, M_DECISIVE, M_LENGTH, M_SCORE };

typedef struct Metric {
    int kind, seat;
    char name[EXP_NAME + 8];  /* as on the command line: "white-wins" */
    char what[EXP_NAME + 40]; /* in words: "white's win rate" */
} Metric;

typedef struct Until {
    Metric m;
    SeqDesign d;
    long max_games;  /* per rule set, as asked */
    int look;        /* the last look taken */
    int decision;    /* SEQ_UP, SEQ_DOWN, SEQ_UNCLEAR */
    Moments diff;    /* one difference per round */
    double z[SEQ_MAX_LOOKS];
} Until;

static void metric_names(const ExpInfo *x, StrBuf *b)
{
    for (int s = 0; s < x->nseats; s++)
        sb_printf(b, "%s-wins, ", x->seat[s]);
    sb_puts(b, "draws, decisive, length, score");
}

/* "P1 greedy" */
static void player_label(const ExpInfo *x, int p, char *buf, size_t n)
{
    char b[32];
    snprintf(buf, n, "P%d %s", p + 1, bot_spec_name(&x->players[p], b, sizeof b));
}

/* The metric --until names, or its default: P1's score when two players
 * differ (and always without --compare), else the first seat's wins. */
static int until_metric(const CliOptions *o, const ExpInfo *x, Metric *m, Error *e)
{
    const char *u = o->until, *name = NULL;
    memset(m, 0, sizeof *m);
    if (strncmp(u, "clear:", 6) == 0 && u[6])
        name = u + 6;
    else if (strcmp(u, "clear") != 0) {
        StrBuf b = STRBUF_INIT;
        metric_names(x, &b);
        err_set(e, "--until %s: write clear, or clear:METRIC to name what to test (%s)", u,
                sb_str(&b));
        sb_free(&b);
        return -1;
    }
    int mixed = 0;
    for (int p = 1; p < x->nseats; p++)
        mixed |= !bot_spec_eq(&x->players[p], &x->players[0]);
    if (!name)
        name = x->nsets == 1 || (x->nseats == 2 && mixed) ? "score" : NULL;
    if (!name)
        m->kind = M_SEAT_WINS, m->seat = 0;
    else if (strcmp(name, "draws") == 0)
        m->kind = M_DRAWS;
    else if (strcmp(name, "decisive") == 0)
        m->kind = M_DECISIVE;
    else if (strcmp(name, "length") == 0)
        m->kind = M_LENGTH;
    else if (strcmp(name, "score") == 0)
        m->kind = M_SCORE;
    else {
        size_t n = strlen(name);
        m->seat = -1;
        for (int s = 0; s < x->nseats; s++)
            if (n == strlen(x->seat[s]) + 5 && strncmp(name, x->seat[s], n - 5) == 0 &&
                strcmp(name + n - 5, "-wins") == 0)
                m->seat = s;
        if (m->seat < 0) {
            StrBuf b = STRBUF_INIT;
            metric_names(x, &b);
            err_set(e, "--until %s: no metric '%s' (the metrics: %s)", u, name, sb_str(&b));
            sb_free(&b);
            return -1;
        }
        m->kind = M_SEAT_WINS;
    }
    if (m->kind == M_SCORE && x->nseats != 2)
        return err_set(e, "--until %s: %sthe score is P1's against P2, and this game has %d "
                          "players", u, x->nsets == 1 ? "without --compare it tests P1's "
                          "score against 50%, but " : "", x->nseats);
    if (x->nsets == 1 && m->kind != M_SCORE)
        return err_set(e, "--until %s: without --compare there is nothing to compare %s "
                          "with; --until clear then tests P1's score against 50%%", u, name);
    char p1[48];
    player_label(x, 0, p1, sizeof p1);
    switch (m->kind) {
    case M_SEAT_WINS:
        snprintf(m->name, sizeof m->name, "%s-wins", x->seat[m->seat]);
        snprintf(m->what, sizeof m->what, "%s's win rate", x->seat[m->seat]);
        break;
    case M_DRAWS: str_copy(m->name, sizeof m->name, "draws");
        str_copy(m->what, sizeof m->what, "the draw rate"); break;
    case M_DECISIVE: str_copy(m->name, sizeof m->name, "decisive");
        str_copy(m->what, sizeof m->what, "the share of decisive games"); break;
    case M_LENGTH: str_copy(m->name, sizeof m->name, "length");
        str_copy(m->what, sizeof m->what, "the mean length"); break;
    default: str_copy(m->name, sizeof m->name, "score");
        snprintf(m->what, sizeof m->what, "%s's score", p1);
    }
    return 0;
}

/* The metric's value in the nseats games of one round of one rule set. */
static double round_value(const ExpInfo *x, const Metric *m, const ExpGame *g)
{
    double v = 0;
    for (int k = 0; k < x->nseats; k++) {
        const ExpGame *a = &g[k];
        switch (m->kind) {
        case M_SEAT_WINS: v += (a->seat_won >> m->seat) & 1; break;
        case M_DRAWS: v += a->finished && !a->winners; break;
        case M_DECISIVE: v += a->winners != 0; break;
        case M_LENGTH: v += a->plies; break;
        default: /* P1's score; a game stopped at the ply limit is a draw, as in the report */
            v += (a->seat_won >> exp_player_seat(x, a->index, 0)) & 1 ? 1
               : a->winners                                          ? 0 : 0.5;
        }
    }
    return v / x->nseats;
}

/* The estimate of B - A (or P1's score, alone) and its unit, in words. */
static void until_estimate(const ExpInfo *x, const Until *u, StrBuf *out)
{
    double mean = stats_mean(&u->diff);
    if (x->nsets == 1)
        sb_printf(out, "%s %.1f%%", u->m.what, 100 * (mean + 0.5));
    else if (u->m.kind == M_LENGTH)
        sb_printf(out, "%s %+.1f plies", u->m.what, mean);
    else
        sb_printf(out, "%s %+.1f points", u->m.what, 100 * mean);
}

static void until_verdict(const ExpInfo *x, const Until *u, StrBuf *out)
{
    int up = u->decision == SEQ_UP;
    char p[2][32];
    for (int k = 0; k < 2 && k < x->nseats; k++)
        player_label(x, k, p[k], sizeof p[k]);
    if (u->decision == SEQ_UNCLEAR) {
        if (x->nsets == 1)
            sb_printf(out, "no clear difference between %s and %s", p[0], p[1]);
        else
            sb_printf(out, "no clear change in %s", u->m.what);
        return;
    }
    if (x->nsets == 1) {
        sb_printf(out, "%s is the stronger player", p[up ? 0 : 1]);
        return;
    }
    switch (u->m.kind) {
    case M_SEAT_WINS:
        sb_printf(out, up ? "B favours %s" : "B is harder on %s", x->seat[u->m.seat]);
        break;
    case M_DRAWS: sb_puts(out, up ? "B makes games more drawish" : "B makes games more decisive");
        break;
    case M_DECISIVE:
        sb_puts(out, up ? "B makes games more decisive" : "B makes games more drawish");
        break;
    case M_LENGTH: sb_puts(out, up ? "games get longer under B" : "games get shorter under B");
        break;
    default: sb_printf(out, "B favours %s", p[up ? 0 : 1]);
    }
}

static void until_text(const ExpInfo *x, const Until *u, StrBuf *out)
{
    const SeqDesign *d = &u->d;
    long ns = x->nseats, games = d->rounds[u->look] * ns;
    sb_printf(out, "Until clear: %s%s; at most %ld games%s, a look every %ld games\n",
              u->m.what, x->nsets > 1 ? ", B - A" : " against 50%", d->rounds_max * ns,
              x->nsets > 1 ? " per rule set" : "", d->every * ns);
    if (u->decision == SEQ_UNCLEAR)
        sb_printf(out, "  Went to the most, %ld games%s, without a clear answer: z = %+.2f "
                       "stayed inside +-%.2f at the last look (%d).\n", games,
                  x->nsets > 1 ? " per rule set" : "", u->z[u->look], d->b[u->look],
                  d->nlooks);
    else
        sb_printf(out, "  Stopped after %ld games%s: z = %+.2f crossed +-%.2f at look %d of "
                       "%d.\n", games, x->nsets > 1 ? " per rule set" : "", u->z[u->look],
                  d->b[u->look], u->look + 1, d->nlooks);
    sb_puts(out, "  Verdict: ");
    until_verdict(x, u, out);
    sb_puts(out, " (");
    until_estimate(x, u, out);
    sb_printf(out, " as played%s).\n", u->decision == SEQ_UNCLEAR ? ""
                   : "; a run stopped early tends to overstate the change");
}

static void until_json(const ExpInfo *x, const Until *u, StrBuf *out)
{
    const SeqDesign *d = &u->d;
    long ns = x->nseats;
    sb_puts(out, "{\"metric\":");
    sb_json_str(out, u->m.name);
    sb_puts(out, ",\"what\":");
    sb_json_str(out, u->m.what);
    sb_printf(out, ",\"method\":\"group-sequential\",\"spending\":\"pocock\",\"alpha\":%g,"
                   "\"max_games\":%ld,\"look_every\":%ld,\"looks\":%d,\"stopped\":\"%s\","
                   "\"look\":%d,\"games\":%ld,\"rounds\":%ld,\"estimate\":%.6f,\"z\":%.6f,"
                   "\"boundary\":%.6f,\"verdict\":",
              d->alpha, d->rounds_max * ns, d->every * ns, d->nlooks,
              u->decision == SEQ_UNCLEAR ? "max_games" : "boundary", u->look + 1,
              d->rounds[u->look] * ns, d->rounds[u->look],
              stats_mean(&u->diff) + (x->nsets == 1 ? 0.5 : 0), u->z[u->look], d->b[u->look]);
    StrBuf v = STRBUF_INIT;
    until_verdict(x, u, &v);
    sb_json_str(out, sb_str(&v));
    sb_free(&v);
    sb_puts(out, ",\"history\":[");
    for (int i = 0; i <= u->look; i++)
        sb_printf(out, "%s{\"games\":%ld,\"z\":%.6f,\"boundary\":%.6f}", i ? "," : "",
                  d->rounds[i] * ns, u->z[i], d->b[i]);
    sb_puts(out, "]}");
}

static int until_report(const CliOptions *o, const ExpInfo *x, ExpGame *games, long n,
                        const Until *u, Error *e)
{
    qsort(games, (size_t)n, sizeof *games, cmp_game);
    StrBuf out = STRBUF_INIT;
    if (o->json) { /* the ordinary JSON, with "sequential" added to its object */
        exp_json(x, games, n, 0, 0, &out);
        while (out.len && out.s[out.len - 1] == '\n')
            out.len--;
        if (!out.len || out.s[out.len - 1] != '}')
            return sb_free(&out), err_set(e, "the JSON report does not end its object");
        out.s[--out.len] = 0;
        sb_puts(&out, ",\n\"sequential\":");
        until_json(x, u, &out);
        sb_puts(&out, "}\n");
    } else {
        until_text(x, u, &out);
        sb_putc(&out, '\n');
        exp_report_text(x, games, n, &out);
    }
    return write_report(o, x, games, n, &out, e);
}

/* Play the rounds of look L (after `played` rounds) into r->games; add
 * their differences to u. */
static int until_look(Run *r, Until *u, int L, long played, int jobs, Error *e)
{
    const ExpInfo *x = &r->x;
    long ns = x->nseats, m = (u->d.rounds[L] - played) * ns;
    r->lo = played * ns;
    r->hi = u->d.rounds[L] * ns;
    r->ntasks = m * x->nsets;
    r->done = 0;
    if (jobs > 1 ? play_jobs(r, jobs, e) : play_here(r, e))
        return -1;
    for (long q = 0; q < m; q += ns) {
        double a = round_value(x, &u->m, &r->games[q]);
        stats_add(&u->diff, x->nsets > 1 ? round_value(x, &u->m, &r->games[m + q]) - a
                                          : a - 0.5);
    }
    return 0;
}

static int until_fail(Run *r, CliOptions *oo, Until *u, ExpGame *all, const Error *e,
                      int status)
{
    free(all);
    free(u);
    free(oo);
    free(r);
    return fail("experiment", e, status);
}

static int experiment_until(const CliOptions *o)
{
    Error e = {""};
    int status = CLI_EXIT_USAGE;
    if (!o->until)
        err_set(&e, "--max-games %d: it goes with --until clear (a run of a fixed number of "
                    "games takes --games N)", o->max_games);
    else if (o->games)
        err_set(&e, "--games with --until: --until clear decides how many games to play; "
                    "give the most with --max-games N");
    else if (o->shard_n)
        err_set(&e, "--shard with --until: whether to stop is decided on all the games "
                    "played so far, which no part sees; --jobs J plays them in parallel");
    if (e.msg[0])
        return fail("experiment", &e, CLI_EXIT_USAGE);
    if (check_targets(o, "experiment", &e))
        return fail("experiment", &e, CLI_EXIT_FAIL);
    Run *r = cv_calloc(sizeof *r);
    CliOptions *oo = cv_calloc(sizeof *oo);
    Until *u = cv_calloc(sizeof *u);
    if (!r || !oo || !u) {
        err_set(&e, "out of memory");
        return until_fail(r, oo, u, NULL, &e, CLI_EXIT_FAIL);
    }
    *oo = *o;
    oo->games = o->max_games ? o->max_games : DEFAULT_UNTIL_MAX;
    r->o = oo;
    if (run_setup(r, &e, &status))
        return until_fail(r, oo, u, NULL, &e, status);
    ExpInfo *x = &r->x;
    long ns = x->nseats, rounds_max = oo->games / ns;
    if (until_metric(o, x, &u->m, &e))
        return until_fail(r, oo, u, NULL, &e, CLI_EXIT_USAGE);
    if (rounds_max < 1) {
        err_set(&e, "--max-games %ld: fewer than one round (%ld games, one for each seat "
                    "the players rotate through)", oo->games, ns);
        return until_fail(r, oo, u, NULL, &e, CLI_EXIT_USAGE);
    }
    if (seq_design(&u->d, rounds_max, 1, SEQ_POCOCK, SEQ_ALPHA)) {
        err_set(&e, "out of memory");
        return until_fail(r, oo, u, NULL, &e, CLI_EXIT_FAIL);
    }
    int jobs = o->jobs ? o->jobs : 1, tty = isatty(STDERR_FILENO), rc = 0;
    ExpGame *all = NULL;
    long played = 0, n = 0;
    u->decision = SEQ_GO_ON;
    for (int L = 0; L < u->d.nlooks && u->decision == SEQ_GO_ON; L++) {
        size_t want = (size_t)(u->d.rounds[L] * ns * x->nsets);
        ExpGame *more = realloc(all, sizeof *all * want);
        if (!more) {
            rc = err_set(&e, "out of memory");
            break;
        }
        all = more;
        r->games = all + n;
        if ((rc = until_look(r, u, L, played, jobs, &e)) != 0)
            break;
        n = (long)want;
        played = u->d.rounds[L];
        u->look = L;
        u->z[L] = seq_z(&u->diff);
        u->decision = seq_decide(&u->d, L, &u->diff);
        if (tty) {
            fprintf(stderr, "\r\033[Klook %d of %d: %ld games%s, z %+.2f (stops at +-%.2f)",
                    L + 1, u->d.nlooks, played * ns, x->nsets > 1 ? " per rule set" : "",
                    u->z[L], u->d.b[L]);
            fflush(stderr);
        }
    }
    if (tty)
        fputs("\r\033[K", stderr);
    x->games = played * ns;
    if (rc == 0)
        rc = until_report(o, x, all, n, u, &e);
    return rc ? until_fail(r, oo, u, all, &e, CLI_EXIT_FAIL)
              : (free(all), free(u), free(oo), free(r), CLI_EXIT_OK);
}

/* ---- merge ------------------------------------------------------------------ */

#define MERGE_MAX_BYTES (1L << 30)

/* The ranges of indexes of set k missing from the sorted games. */
static void missing_ranges(const ExpInfo *x, const ExpGame *g, long n, int k, StrBuf *out)
{
    long want = 0, shown = 0;
    for (long i = 0; i <= n; i++) {
        long at = i < n && g[i].set == k ? g[i].index : i < n && g[i].set < k ? -1 : x->games;
        if (at < 0)
            continue;
        if (at > want && shown < 5) {
            sb_printf(out, "%s%ld", shown ? ", " : "", want);
            if (at - 1 > want)
                sb_printf(out, "..%ld", at - 1);
            shown++;
        }
        if (at >= x->games)
            break;
        want = at + 1;
    }
}

int cli_merge(const CliOptions *o)
{
    Error e = {""};
    ExpInfo x, y;
    ExpGame *games = NULL;
    long n = 0, cap = 0;
    int rc = check_targets(o, "merge", &e);
    for (int i = 0; i < o->nfiles && rc == 0; i++) {
        StrBuf text = STRBUF_INIT;
        int k, m;
        rc = record_read_file(o->files[i], "experiment part", (size_t)MERGE_MAX_BYTES, &text,
                              &e);
        Json *j = NULL;
        if (rc == 0 && !(j = json_parse(sb_str(&text), text.len, &e)))
            rc = -1;
        if (rc == 0)
            rc = exp_read_part(j, i ? &y : &x, &games, &n, &cap, &k, &m, &e);
        if (rc == 0 && i && !exp_info_same(&x, &y))
            rc = err_set(&e, "it is a part of another experiment than %s (variant, rules, "
                             "players, games, seed or ply limit differ)", o->files[0]);
        if (rc && !strstr(e.msg, o->files[i]))
            err_prefix(&e, "%s", o->files[i]);
        json_free(j);
        sb_free(&text);
    }
    if (rc)
        goto out;
    qsort(games, (size_t)n, sizeof *games, cmp_game);
    for (long i = 1; i < n; i++)
        if (games[i].set == games[i - 1].set && games[i].index == games[i - 1].index) {
            rc = err_set(&e, "game %ld%s%s is in the parts twice (a shard given twice?)",
                         games[i].index, x.nsets > 1 ? " of rule set " : "",
                         x.nsets > 1 ? x.set[games[i].set].label : "");
            goto out;
        }
    if (n != x.games * x.nsets) {
        StrBuf miss = STRBUF_INIT;
        for (int k = 0; k < x.nsets; k++) {
            long have = 0;
            for (long i = 0; i < n; i++)
                have += games[i].set == k;
            if (have == x.games)
                continue;
            sb_printf(&miss, "%s%s%s", miss.len ? "; " : "",
                      x.nsets > 1 ? x.set[k].label : "", x.nsets > 1 ? ": " : "");
            missing_ranges(&x, games, n, k, &miss);
        }
        rc = err_set(&e, "the parts hold %ld of the %ld games; missing %s (a shard not "
                         "given?)", n, x.games * x.nsets, sb_str(&miss));
        sb_free(&miss);
        goto out;
    }
    rc = report(o, &x, games, n, 0, 0, &e);
out:
    free(games);
    return rc ? fail("merge", &e, CLI_EXIT_FAIL) : CLI_EXIT_OK;
}
