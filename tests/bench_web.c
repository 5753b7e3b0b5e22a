/*
 * bench_web.c -- `make bench`: `chessvar serve` as a user runs it (issue 21,
 * "Speed and scale").  The program is started as a child process,
 * `chessvar serve --port 0 --data DIR`, and the address it prints is read;
 * everything then goes over loopback through tests/support/webclient.c.
 *
 * - The page: the bytes a seat's link fetches on its first load (GET / and
 *   every local file index.html names), and the time to the first board's
 *   data: those fetches plus a WebSocket's hello -> state, against the
 *   round trip of a tiny request (GET /api/games) and of a WebSocket ping
 *   measured in the same run; and in chromium (tests/bench_web_page.cjs)
 *   until the page has drawn the board, against loading /api/games there.
 * - A load run: GAMES games at once (orthodox, L'Échiqueté, Tile, Les
 *   Échecs Masqués in turn), two seat sockets each and a spectator every
 *   SPECT_EVERY games, all driven by one poll() loop; each seat plays a
 *   random action of its state frame's legal.detail when it is to act,
 *   as soon as its state comes, up to PLIES plies a game.  Actions a
 *   second against the same games played through `chessvar run VARIANT
 *   --json` (the engine's batch protocol, no network, one process per
 *   game, as many at once as the machine has cores); the time from an
 *   action sent to the last of its game's viewers having the state with
 *   the new ply, against the idle server's ping; the server's VmRSS per
 *   game.  Then GAMES more games paced as people play (each seat thinks
 *   about THINK_MS before it acts, PACED_PLIES plies a game): the same
 *   time, when the server is not saturated.
 * - Games beside an experiment (issue 23): a game's action until both
 *   seats have its state, on the idle server and while an experiment of
 *   greedy bots runs on it, and the experiment's games meanwhile.
 *
 * Invariant: the load run checks every game afterwards through a fresh
 * spectator: its ply equals the actions its seats had accepted and its
 * history is exactly the actions they sent, in order.  A lost or doubled
 * action, a stalled game or a server that dies makes the exit status 1
 * with a line saying which.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/json.h"
#include "support/testutil.h"
#include "support/webclient.h"

enum {
    GAMES = 200,        /* games at once in the load run */
    PLIES = 40,         /* plies a game plays at most */
    PACED_PLIES = 8,    /* the same in the paced run */
    THINK_MS = 500,     /* a seat's mean thought there */
    SPECT_EVERY = 4,    /* a spectator on every 4th game */
    LOADS = 30,         /* first loads timed */
    BROWSER_LOADS = 8,  /* the same in chromium */
    PINGS = 100,        /* round trips of the references */
    LOAD_LIMIT_S = 45,  /* the load run stalls beyond this */
    WAIT_MS = 20000,
};

/* The variants of the load run, game i playing VARIANTS[i % NVARIANTS]. */
static const char *const VARIANTS[] = {"orthodox", "echiquete", "tile", "masques"};
enum { NVARIANTS = sizeof VARIANTS / sizeof VARIANTS[0] };

/* ---- The server as a child process --------------------------------------- */

typedef struct Server {
    pid_t pid;
    int port;
    char dir[64];       /* --data */
    char err[64];       /* its standard error */
    int out;            /* its standard output */
    int ended, status;  /* reaped, and its wait status */
} Server;

static int server_start(Server *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->dir, sizeof s->dir, "/tmp/chessvar-bench-web-XXXXXX");
    snprintf(s->err, sizeof s->err, "/tmp/chessvar-bench-web-err-XXXXXX");
    int efd = mkstemp(s->err);
    int p[2];
    if (!mkdtemp(s->dir) || efd < 0 || pipe(p)) {
        printf("bench_web: cannot make the server's folder: %s\n", strerror(errno));
        return -1;
    }
    const char *prog = tu_program();
    s->pid = fork();
    if (s->pid == 0) {
        dup2(p[1], 1);
        dup2(efd, 2);
        close(p[0]);
        close(p[1]);
        execl(prog, prog, "serve", "--port", "0", "--data", s->dir, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    close(efd);
    if (s->pid < 0) {
        close(p[0]);
        printf("bench_web: fork: %s\n", strerror(errno));
        return -1;
    }
    /* "chessvar serve: http://127.0.0.1:PORT/", within WAIT_MS */
    char buf[4096];
    size_t len = 0;
    double end = tu_seconds() + WAIT_MS / 1000.0;
    for (;;) {
        buf[len] = '\0';
        const char *at = strstr(buf, "http://127.0.0.1:");
        if (at && strchr(at, '\n')) {
            s->port = atoi(at + strlen("http://127.0.0.1:"));
            break;
        }
        struct pollfd pf = {.fd = p[0], .events = POLLIN};
        int left = (int)((end - tu_seconds()) * 1000);
        ssize_t n = 0;
        if (left <= 0 || poll(&pf, 1, left) <= 0 ||
            (n = read(p[0], buf + len, sizeof buf - 1 - len)) <= 0) {
            printf("bench_web: `%s serve --port 0 --data %s` printed no address: %s\n", prog,
                   s->dir, buf);
            close(p[0]);
            return -1;
        }
        len += (size_t)n;
    }
    s->out = p[0]; /* read again when it stops */
    fcntl(s->out, F_SETFD, FD_CLOEXEC);
    return 0;
}

static int server_alive(Server *s)
{
    if (!s->ended && waitpid(s->pid, &s->status, WNOHANG) == s->pid)
        s->ended = 1;
    return !s->ended;
}

/* The server's VmRSS in KiB (-1: unreadable). */
static long server_rss_kib(const Server *s)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)s->pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0)
            kib = atol(line + 6);
    if (f)
        fclose(f);
    return kib;
}

static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* SIGTERM, as Ctrl-C would: 0 when it stops cleanly within WAIT_MS. */
static int server_stop(Server *s)
{
    int rc = -1;
    if (server_alive(s))
        kill(s->pid, SIGTERM);
    double end = tu_seconds() + WAIT_MS / 1000.0;
    while (server_alive(s) && tu_seconds() < end)
        nanosleep(&(struct timespec){0, 10000000}, NULL);
    if (!s->ended) {
        printf("bench_web: the server did not stop within %d s of SIGTERM\n", WAIT_MS / 1000);
        kill(s->pid, SIGKILL);
        waitpid(s->pid, &s->status, 0);
    } else {
        rc = WIFEXITED(s->status) && WEXITSTATUS(s->status) == 0 ? 0 : -1;
    }
    int st = s->status;
    char tail[4096];
    ssize_t n = read(s->out, tail, sizeof tail - 1); /* the pipe holds it all */
    tail[n > 0 ? n : 0] = '\0';
    close(s->out);
    if (!rc && !strstr(tail, "chessvar serve: stopped (SIGTERM)")) {
        printf("bench_web: the server's last words were not 'stopped': %s\n", tail);
        rc = -1;
    }
    if (rc) {
        if (WIFSIGNALED(st))
            printf("bench_web: the server DIED (signal %d)\n", WTERMSIG(st));
        else if (WIFEXITED(st))
            printf("bench_web: the server ended with exit status %d\n", WEXITSTATUS(st));
        printf("bench_web: the server did not stop cleanly; its standard error:\n");
        char *err = tu_read_file(s->err);
        printf("%s\n", err ? err : "(none)");
        free(err);
    }
    remove_dir(s->dir);
    unlink(s->err);
    return rc;
}

/* ---- Small helpers --------------------------------------------------------- */

static Json *parse(const char *text, size_t n)
{
    Error e;
    return json_parse(text, n, &e);
}

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = j ? json_get(j, key) : NULL;
    return m && m->type == JSON_STRING ? m->str : NULL;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The q-quantile (0..1) of n sorted values. */
static double quantile(const double *v, int n, double q)
{
    int i = (int)(q * (n - 1) + 0.5);
    return n ? v[i < n ? i : n - 1] : 0;
}

static uint64_t draw_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The state of game i's draws of actions (the load run's and the
 * reference's). */
static uint64_t game_seed(int i)
{
    return (uint64_t)i * 0x2545f4914f6cdd1dULL + 1;
}

/* The machine text of a random play action of a legal answer (its
 * "detail"), into out; 0, or -1 when it has none. */
static int pick_action(const Json *legal, uint64_t *rng, char *out, size_t n)
{
    const Json *d = legal && legal->type == JSON_OBJECT ? json_get(legal, "detail") : NULL;
    if (!d || d->type != JSON_ARRAY || d->count == 0)
        return -1;
    const char *m = str_of(json_at(d, (int)(draw_next(rng) % (uint64_t)d->count)), "machine");
    if (!m || strlen(m) >= n)
        return -1;
    snprintf(out, n, "%s", m);
    return 0;
}

/* POST /api/games for game i of the load run (and of its reference): the
 * answer, or NULL. */
static Json *create_game(int port, int i)
{
    char body[160];
    snprintf(body, sizeof body, "{\"variant\":\"%s\",\"seed\":\"%d\"}",
             VARIANTS[i % NVARIANTS], i + 1);
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/games", body, strlen(body), &out);
    Json *j = st == 201 ? parse(sb_str(&out), out.len) : NULL;
    if (!j)
        printf("bench_web: POST /api/games %s: %d %s\n", body, st, sb_str(&out));
    sb_free(&out);
    return j;
}

static int send_hello(WcSocket *w, const char *game, const char *token)
{
    char buf[256];
    snprintf(buf, sizeof buf, "{\"type\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}", game,
             token ? token : "");
    return wc_ws_send(w, buf, strlen(buf));
}

/* The next frame of type want on w (others read over): parsed, or NULL. */
static Json *recv_type(WcSocket *w, const char *want, char **text)
{
    for (;;) {
        int op = 0;
        char *t = wc_ws_recv(w, WAIT_MS, &op);
        if (!t)
            return NULL;
        Json *j = parse(t, strlen(t));
        const char *type = str_of(j, "type");
        if (type && strcmp(type, want) == 0) {
            *text = t;
            return j;
        }
        if (type && strcmp(type, "error") == 0)
            printf("bench_web: an error frame: %s\n", str_of(j, "message"));
        json_free(j);
        free(t);
        if (op == 8)
            return NULL;
    }
}

/* ---- The page -------------------------------------------------------------- */

typedef struct Page {
    char path[8][96];
    size_t bytes[8];
    int n;
    size_t total;
} Page;

/* The local files a page loads: <link href>, <script src>, <img src>. */
static void page_files(const char *html, Page *p)
{
    for (const char *t = strchr(html, '<'); t && p->n < 8; t = strchr(t + 1, '<')) {
        const char *end = strchr(t, '>');
        if (!end)
            break;
        const char *attr = strncmp(t, "<link", 5) == 0 ? "href=\""
                           : strncmp(t, "<script", 7) == 0 || strncmp(t, "<img", 4) == 0
                               ? "src=\""
                               : NULL;
        const char *v = attr ? strstr(t, attr) : NULL;
        if (!v || v > end)
            continue;
        v += strlen(attr);
        const char *q = strchr(v, '"');
        if (!q || q > end || q == v || strncmp(v, "data:", 5) == 0 || strstr(v, "//") ||
            v[0] == '#' || (size_t)(q - v) >= sizeof p->path[0] - 2)
            continue;
        snprintf(p->path[p->n++], sizeof p->path[0], "%s%.*s", v[0] == '/' ? "" : "/",
                 (int)(q - v), v);
    }
}

/* GET of every file of p (its sizes into p): 0, or -1. */
static int fetch_page(int port, Page *p)
{
    p->total = 0;
    for (int i = 0; i < p->n; i++) {
        StrBuf out = STRBUF_INIT;
        int st = wc_http(port, "GET", p->path[i], NULL, 0, &out);
        p->bytes[i] = out.len;
        p->total += out.len;
        sb_free(&out);
        if (st != 200) {
            printf("bench_web: GET %s: %d\n", p->path[i], st);
            return -1;
        }
    }
    return 0;
}

/* The page in a real browser: tests/bench_web_page.cjs (chromium driven
 * by puppeteer-core, `make deps-web`), when both are there; said so when
 * not.  0, or 1 when it ran and failed. */
static int bench_browser(int port, const char *link)
{
    const char *chromium = getenv("CHROMIUM");
    chromium = chromium && chromium[0] ? chromium : "/usr/bin/chromium";
    if (access("build/web-test/node_modules/puppeteer-core/package.json", R_OK) ||
        access(chromium, X_OK) || !link || strchr(link, '\'')) {
        printf("web first board in chromium: not measured (puppeteer-core in build/web-test, "
               "make deps-web, and %s are needed)\n", chromium);
        return 0;
    }
    char cmd[512], line[256] = "";
    snprintf(cmd, sizeof cmd, "node tests/bench_web_page.cjs http://127.0.0.1:%d '%s' %d 2>&1",
             port, link, BROWSER_LOADS);
    FILE *p = popen(cmd, "r");
    double board = 0, ref = 0;
    int got = p && fgets(line, sizeof line, p) && sscanf(line, "browser %lf %lf", &board, &ref) == 2;
    if (p)
        pclose(p);
    if (!got || ref <= 0) {
        printf("bench_web: the browser's first board FAILED: %s\n", line);
        return 1;
    }
    printf("web first board in chromium (a seat's link, a fresh context each time, until the "
           "board is drawn): median %.1f ms = x%.1f of loading /api/games there (%.1f ms) "
           "(%d loads)\n", board, board / ref, ref, BROWSER_LOADS);
    return 0;
}

static int bench_page(int port, double *ping_median)
{
    Json *g = create_game(port, 0);
    if (!g)
        return 1;
    const char *id = str_of(g, "game");
    const char *token = str_of(json_at(json_get(g, "seats"), 0), "token");
    Page page = {.path = {"/"}, .n = 1};
    StrBuf html = STRBUF_INIT;
    if (wc_http(port, "GET", "/", NULL, 0, &html) != 200) {
        printf("bench_web: GET / failed\n");
        return 1;
    }
    page_files(sb_str(&html), &page);
    sb_free(&html);
    if (fetch_page(port, &page))
        return 1;
    StrBuf api = STRBUF_INIT;
    int st = wc_http(port, "GET", "/api/variants", NULL, 0, &api);
    size_t variants = api.len;
    sb_free(&api);
    if (st != 200)
        return printf("bench_web: GET /api/variants: %d\n", st), 1;

    double load[LOADS], get[PINGS], ping[PINGS];
    for (int i = 0; i < LOADS; i++) {
        double t0 = tu_seconds();
        WcSocket w;
        char *text = NULL;
        Json *state = NULL;
        if (fetch_page(port, &page) == 0 && wc_ws_open(&w, port, "/ws") == 0) {
            if (send_hello(&w, id, token) == 0)
                state = recv_type(&w, "state", &text);
            wc_ws_close(&w);
        }
        load[i] = tu_seconds() - t0;
        json_free(state);
        free(text);
        if (!state)
            return printf("bench_web: a first load got no state frame\n"), 1;
    }
    for (int i = 0; i < PINGS; i++) {
        double t0 = tu_seconds();
        if (wc_http(port, "GET", "/api/games", NULL, 0, NULL) != 200)
            return printf("bench_web: GET /api/games failed\n"), 1;
        get[i] = tu_seconds() - t0;
    }
    WcSocket w;
    char *text = NULL;
    Json *state = NULL;
    if (wc_ws_open(&w, port, "/ws") == 0 && send_hello(&w, id, NULL) == 0)
        state = recv_type(&w, "state", &text);
    json_free(state);
    free(text);
    for (int i = 0; i < PINGS && state; i++) {
        /* at most 50 frames a second a connection: a ping every 21 ms */
        nanosleep(&(struct timespec){0, 21000000}, NULL);
        double t0 = tu_seconds();
        Json *pong = NULL;
        if (wc_ws_send(&w, "{\"type\":\"ping\"}", 15) == 0)
            pong = recv_type(&w, "pong", &text);
        ping[i] = tu_seconds() - t0;
        json_free(pong);
        free(text);
        if (!pong)
            state = NULL;
    }
    wc_ws_close(&w);
    if (!state)
        return printf("bench_web: a WebSocket ping went unanswered\n"), 1;
    qsort(load, LOADS, sizeof load[0], cmp_double);
    qsort(get, PINGS, sizeof get[0], cmp_double);
    qsort(ping, PINGS, sizeof ping[0], cmp_double);
    double ml = quantile(load, LOADS, 0.5), mg = quantile(get, PINGS, 0.5),
           mp = quantile(ping, PINGS, 0.5);
    printf("web page: a seat's link loads %d files, %zu bytes (", page.n, page.total);
    for (int i = 0; i < page.n; i++)
        printf("%s%s %zu", i ? ", " : "", page.path[i], page.bytes[i]);
    printf("); the lobby adds /api/variants, %zu bytes = x%.2f of the page\n", variants,
           (double)variants / (double)page.total);
    printf("web first board on loopback (%d fetches, then WebSocket hello -> state): median "
           "%.2f ms = x%.1f of a GET /api/games (%.3f ms), x%.1f of a WebSocket ping (%.3f ms)"
           " (%d loads, %d round trips)\n",
           page.n, ml * 1e3, ml / mg, mg * 1e3, ml / mp, mp * 1e3, LOADS, PINGS);
    *ping_median = mp;
    int rc = bench_browser(port, str_of(json_at(json_get(g, "seats"), 0), "link"));
    json_free(g);
    return rc;
}

/* ---- The load run ---------------------------------------------------------- */

typedef struct Viewer {
    WcSocket w;
    int game;           /* index in the games */
    int seat;           /* 0, 1; -1 a spectator */
    int seen;           /* the ply of the latest state it received, -1 none */
    int acted;          /* the ply it last acted at, -1 none */
    int sent, refused;
    char *last;         /* its latest state frame (a seat's), to act again */
    Json *lastj;
    int pending;        /* the ply of an action it thinks over, -1 none */
    double due;         /* when it sends it */
} Viewer;

typedef struct LoadGame {
    char id[40];
    char token[2][80];
    int viewer[3], nviewers;
    uint64_t rng;
    int over;           /* a state said the game is over */
    int next;           /* the ply of the next action it may send */
    int done;           /* plies whose time to every viewer was taken */
    int finished;
    double sent_at[PLIES];
    char text[PLIES][32];
    int refused;
} LoadGame;

typedef struct Load {
    LoadGame *g;
    Viewer *v;
    int nv;
    double *lat;
    int nlat;
    int actions, refused, finished;
    double last;        /* when the last action reached its viewers */
    int base;           /* game i is the i-th of create_game(base + i) */
    int plies;          /* plies a game plays at most (<= PLIES) */
    int think_ms;       /* a seat thinks think_ms/2 .. 3*think_ms/2 (0: acts at once) */
    uint64_t think_rng;
} Load;

/* v's game after v received a state of ply: the times of the actions
 * every viewer now has, and whether the game is done. */
static void game_progress(Load *L, LoadGame *g, double now)
{
    int min = PLIES + 1, max = -1;
    for (int k = 0; k < g->nviewers; k++) {
        int s = L->v[g->viewer[k]].seen;
        min = s < min ? s : min;
        max = s > max ? s : max;
    }
    for (; g->done < min && g->done < PLIES; g->done++)
        if (g->sent_at[g->done] > 0) {
            L->lat[L->nlat++] = now - g->sent_at[g->done];
            L->last = now;
        }
    /* every viewer has the latest ply and nobody acted on it */
    if (!g->finished && min == max && min >= 0 && g->next <= min) {
        g->finished = 1;
        L->finished++;
    }
}

/* v sends the action its game drew at ply. */
static int send_act(Load *L, Viewer *v, int ply)
{
    LoadGame *g = &L->g[v->game];
    char frame[160];
    snprintf(frame, sizeof frame, "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}",
             g->text[ply], ply);
    v->pending = -1;
    if (wc_ws_send(&v->w, frame, strlen(frame)))
        return -1;
    v->sent++;
    g->sent_at[ply] = tu_seconds();
    return 0;
}

/* A seat's turn from its state frame: one random action, sent at once or
 * after its thought. */
static int seat_act(Load *L, Viewer *v, const Json *state, int ply)
{
    LoadGame *g = &L->g[v->game];
    const Json *status = json_get(state, "status");
    const Json *over = status ? json_get(status, "over") : NULL;
    if (over && over->type == JSON_TRUE)
        g->over = 1;
    if (v->seat < 0 || g->over || ply >= L->plies || v->acted >= ply || g->next > ply)
        return 0;
    /* only the seat to act, as `legal` in the reference: in L'Échiqueté
     * the other may take a merged piece over out of turn */
    const char *me = str_of(state, "seat"), *to_act = str_of(json_get(state, "view"),
                                                               "seat_to_act");
    char text[32];
    if (!me || !to_act || strcmp(me, to_act) != 0 ||
        pick_action(json_get(state, "legal"), &g->rng, text, sizeof text))
        return 0;
    v->acted = ply;
    g->next = ply + 1;
    snprintf(g->text[ply], sizeof g->text[ply], "%s", text);
    if (L->think_ms) {
        int ms = L->think_ms / 2 + (int)(draw_next(&L->think_rng) % (uint64_t)L->think_ms);
        v->pending = ply;
        v->due = tu_seconds() + ms / 1000.0;
        return 0;
    }
    return send_act(L, v, ply);
}

/* One frame for v: 0, or -1 when the run must stop. */
static int on_frame(Load *L, Viewer *v, char *t, int op)
{
    if (op == 8) {
        printf("bench_web: the server closed a connection of game %s: %s\n",
               L->g[v->game].id, t);
        free(t);
        return -1;
    }
    Json *j = parse(t, strlen(t));
    const char *type = str_of(j, "type");
    int rc = 0;
    const Json *plyj = j ? json_get(j, "ply") : NULL;
    if (type && strcmp(type, "state") == 0 && plyj && plyj->type == JSON_NUMBER) {
        int ply = (int)plyj->num;
        v->seen = ply > v->seen ? ply : v->seen;
        rc = seat_act(L, v, j, ply);
        game_progress(L, &L->g[v->game], tu_seconds());
        if (v->seat >= 0 && ply >= v->seen) {
            json_free(v->lastj);
            free(v->last);
            v->lastj = j;
            v->last = t;
            return rc;
        }
    } else if (type && strcmp(type, "error") == 0) {
        /* the action at g->next - 1 was refused: nothing was played */
        LoadGame *g = &L->g[v->game];
        if (L->refused++ < 5)
            printf("bench_web: game %s refused an action: %s\n", g->id, str_of(j, "message"));
        v->refused++;
        g->refused++;
        if (v->acted >= 0 && g->next == v->acted + 1) {
            g->sent_at[v->acted] = 0;
            g->next = v->acted;
            v->acted = -1;
            /* another draw from the same state, a few times at most */
            if (g->refused < 5 && v->lastj)
                rc = seat_act(L, v, v->lastj, v->seen);
            game_progress(L, g, tu_seconds());
        }
    } else if (type && (strcmp(type, "seats") == 0 || strcmp(type, "notice") == 0)) {
        /* who is online, a bot that failed: nothing this load plays on */
    } else {
        printf("bench_web: an unexpected frame: %.200s\n", t);
        rc = -1;
    }
    json_free(j);
    free(t);
    return rc;
}

/* Drive every socket until every game has played its plies. */
static int load_loop(Load *L, Server *s)
{
    struct pollfd *pf = calloc((size_t)L->nv, sizeof *pf);
    double limit = tu_seconds() + LOAD_LIMIT_S;
    int rc = 0;
    while (!rc && L->finished < GAMES) {
        double now = tu_seconds(), next = now + 1;
        for (int i = 0; i < L->nv && !rc; i++) {
            Viewer *v = &L->v[i];
            pf[i] = (struct pollfd){.fd = v->w.fd, .events = POLLIN};
            if (v->pending >= 0 && v->due <= now)
                rc = send_act(L, v, v->pending);
            else if (v->pending >= 0 && v->due < next)
                next = v->due;
        }
        int n = rc ? 0 : poll(pf, (nfds_t)L->nv, (int)((next - now) * 1000) + 1);
        if (tu_seconds() > limit || !server_alive(s)) {
            printf("bench_web: %s: %d of %d games done after %d s\n",
                   server_alive(s) ? "the load run STALLED" : "the server DIED", L->finished,
                   GAMES, LOAD_LIMIT_S);
            rc = -1;
            break;
        }
        for (int i = 0; i < L->nv && n > 0 && !rc; i++) {
            if (!pf[i].revents)
                continue;
            Viewer *v = &L->v[i];
            if (wc_ws_read_ready(&v->w) < 0) {
                printf("bench_web: a connection of game %s ended\n", L->g[v->game].id);
                rc = -1;
                break;
            }
            int op = 0;
            char *t;
            while (!rc && (t = wc_ws_recv(&v->w, 0, &op)))
                rc = on_frame(L, v, t, op); /* it keeps or frees t */
        }
    }
    free(pf);
    return rc;
}

/* Game g's state through a fresh connection (token: a seat's, or NULL
 * for a spectator): parsed (its text in *text), or NULL. */
static Json *fresh_state(int port, const LoadGame *g, const char *token, char **text)
{
    WcSocket w;
    Json *st = NULL;
    *text = NULL;
    if (wc_ws_open(&w, port, "/ws") == 0) {
        if (send_hello(&w, g->id, token) == 0)
            st = recv_type(&w, "state", text);
        wc_ws_close(&w);
    }
    return st;
}

/* Every game through fresh connections: a spectator's ply and history
 * length are the actions its seats had accepted, and each seat's own
 * history holds, at each ply it played, the action it sent (a seat's
 * own texts: a Masqués placement is hidden from the others).  The number
 * of games where it is not so. */
static int load_check(Load *L, int port)
{
    int bad = 0;
    for (int i = 0; i < GAMES; i++) {
        LoadGame *g = &L->g[i];
        int accepted = 0;
        for (int k = 0; k < g->nviewers; k++)
            accepted += L->v[g->viewer[k]].sent - L->v[g->viewer[k]].refused;
        L->actions += accepted;
        char *text = NULL;
        Json *st = fresh_state(port, g, NULL, &text);
        const Json *hist = st ? json_get(st, "history") : NULL;
        const Json *pj = st ? json_get(st, "ply") : NULL;
        int ply = pj && pj->type == JSON_NUMBER ? (int)pj->num : -1;
        int same = hist && hist->count == ply && ply == accepted, checked = 0;
        json_free(st);
        free(text);
        for (int s = 0; s < 2 && same; s++) {
            st = fresh_state(port, g, g->token[s], &text);
            const char *me = str_of(st, "seat");
            hist = st ? json_get(st, "history") : NULL;
            same = me && hist && hist->count == ply;
            for (int k = 0; same && k < ply; k++) {
                const Json *h = json_at(hist, k);
                const char *by = str_of(h, "seat"), *m = str_of(h, "machine");
                if (by && strcmp(by, me) == 0) {
                    same = m && strcmp(m, g->text[k]) == 0;
                    checked++;
                }
            }
            json_free(st);
            free(text);
        }
        if (same && checked != ply)
            same = 0;
        if (!same && bad++ < 5)
            printf("bench_web: game %s (%s) has ply %d after %d accepted actions, or its "
                   "history is not the actions sent: an action was LOST or APPLIED TWICE\n",
                   g->id, VARIANTS[(L->base + i) % NVARIANTS], ply, accepted);
    }
    return bad;
}

/* ---- The reference: the engine's batch protocol, no network --------------- */

typedef struct RefShare {
    int first, step;    /* games first, first + step, ... */
    int actions;
    int failed;
} RefShare;

static pthread_mutex_t fork_mu = PTHREAD_MUTEX_INITIALIZER;
/* The actions the reference played, game by game, to compare. */
static char ref_text[GAMES][PLIES][32];

static char *read_line(FILE *f, char **line, size_t *cap)
{
    return getline(line, cap, f) > 0 ? *line : NULL;
}

/* Game i played through `chessvar run VARIANT --seed N --json`, drawing
 * its actions as the load run does: the actions it played, or -1. */
static int ref_game(int i)
{
    int in[2], out[2];
    char seed[32];
    snprintf(seed, sizeof seed, "%d", i + 1);
    const char *prog = tu_program();
    /* the pipes close on exec, and are made and forked under a lock, so
     * that no other thread's child holds them open */
    pthread_mutex_lock(&fork_mu);
    if (pipe(in) || pipe(out)) {
        pthread_mutex_unlock(&fork_mu);
        return -1;
    }
    for (int k = 0; k < 2; k++) {
        fcntl(in[k], F_SETFD, FD_CLOEXEC);
        fcntl(out[k], F_SETFD, FD_CLOEXEC);
    }
    pid_t pid = fork();
    pthread_mutex_unlock(&fork_mu);
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl(prog, prog, "run", VARIANTS[i % NVARIANTS], "--seed", seed, "--json",
              (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    FILE *to = fdopen(in[1], "w"), *from = fdopen(out[0], "r");
    uint64_t rng = game_seed(i); /* the draws of the load run's game i */
    char *line = NULL;
    size_t cap = 0;
    int played = 0, rc = 0;
    while (played < PLIES) {
        fputs("legal\n", to);
        fflush(to);
        Json *j = read_line(from, &line, &cap) ? parse(line, strlen(line)) : NULL;
        char text[32];
        int none = !j || pick_action(j, &rng, text, sizeof text);
        json_free(j);
        if (!line || none)
            break;
        fprintf(to, "%s\n", text);
        snprintf(ref_text[i][played], sizeof ref_text[i][played], "%s", text);
        fflush(to);
        j = read_line(from, &line, &cap) ? parse(line, strlen(line)) : NULL;
        const Json *ok = j ? json_get(j, "ok") : NULL;
        if (!ok || ok->type != JSON_TRUE) {
            printf("bench_web: `chessvar run %s` refused %s: %s\n", VARIANTS[i % NVARIANTS],
                   text, line ? line : "(nothing)");
            rc = -1;
        }
        json_free(j);
        if (rc)
            break;
        played++;
    }
    fputs("quit\n", to);
    fclose(to);
    while (read_line(from, &line, &cap))
        ; /* to its end */
    fclose(from);
    free(line);
    int st;
    waitpid(pid, &st, 0);
    return rc ? -1 : played;
}

static void *ref_thread(void *arg)
{
    RefShare *r = arg;
    for (int i = r->first; i < GAMES && !r->failed; i += r->step) {
        int n = ref_game(i);
        if (n < 0)
            r->failed = 1;
        else
            r->actions += n;
    }
    return NULL;
}

/* The same games through the batch protocol, ncores processes at once:
 * the seconds, the actions in *actions; -1 on a failure. */
static double bench_reference(int *actions)
{
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    int n = ncores < 1 ? 1 : ncores > 16 ? 16 : (int)ncores;
    RefShare share[16];
    pthread_t th[16];
    double t0 = tu_seconds();
    for (int k = 0; k < n; k++) {
        share[k] = (RefShare){.first = k, .step = n};
        pthread_create(&th[k], NULL, ref_thread, &share[k]);
    }
    int failed = 0;
    *actions = 0;
    for (int k = 0; k < n; k++) {
        pthread_join(th[k], NULL);
        failed |= share[k].failed;
        *actions += share[k].actions;
    }
    return failed ? -1 : tu_seconds() - t0;
}

/* Make L's games, connect their viewers, play them, close and check
 * them: 0, or 1 with a line saying why.  rss: the server's VmRSS (KiB)
 * before the games were made, after, and while they were played. */
static int load_run(Server *s, Load *L, long rss[3], int *nspect)
{
    int port = s->port;
    L->g = calloc(GAMES, sizeof *L->g);
    L->v = calloc(GAMES * 3, sizeof *L->v);
    L->lat = calloc(GAMES * PLIES, sizeof *L->lat);
    rss[0] = server_rss_kib(s);
    for (int i = 0; i < GAMES; i++) {
        Json *j = create_game(port, L->base + i);
        if (!j)
            return 1;
        LoadGame *g = &L->g[i];
        snprintf(g->id, sizeof g->id, "%s", str_of(j, "game"));
        for (int k = 0; k < 2; k++)
            snprintf(g->token[k], sizeof g->token[k], "%s",
                     str_of(json_at(json_get(j, "seats"), k), "token"));
        g->rng = game_seed(L->base + i);
        json_free(j);
    }
    rss[1] = server_rss_kib(s);
    *nspect = 0;
    for (int i = 0; i < GAMES; i++) {
        LoadGame *g = &L->g[i];
        int seats = i % SPECT_EVERY == 0 ? 3 : 2;
        for (int k = 0; k < seats; k++) {
            Viewer *v = &L->v[L->nv];
            v->game = i;
            v->seat = k < 2 ? k : -1;
            v->seen = v->acted = v->pending = -1;
            if (wc_ws_open(&v->w, port, "/ws") ||
                send_hello(&v->w, g->id, k < 2 ? g->token[k] : NULL)) {
                printf("bench_web: connection %d could not open\n", L->nv);
                return 1;
            }
            g->viewer[g->nviewers++] = L->nv++;
            *nspect += k == 2;
        }
    }
    double t0 = tu_seconds();
    int rc = load_loop(L, s);
    L->last -= t0;
    rss[2] = server_rss_kib(s);
    for (int i = 0; i < L->nv; i++) {
        wc_ws_close(&L->v[i].w);
        json_free(L->v[i].lastj);
        free(L->v[i].last);
    }
    if (rc)
        return 1;
    int bad = load_check(L, port);
    if (!server_alive(s))
        return printf("bench_web: the server DIED\n"), 1;
    if (bad)
        printf("web load: %d games LOST, DOUBLED or CHANGED an action\n", bad);
    qsort(L->lat, (size_t)L->nlat, sizeof L->lat[0], cmp_double);
    return bad ? 1 : 0;
}

static void load_free(Load *L)
{
    free(L->g);
    free(L->v);
    free(L->lat);
}

static void print_latency(const Load *L, double ping)
{
    double med = quantile(L->lat, L->nlat, 0.5), p99 = quantile(L->lat, L->nlat, 0.99);
    printf("web load: action sent -> the last of its game's viewers has it: median %.2f ms = "
           "x%.0f, 99th percentile %.2f ms = x%.0f of the idle server's WebSocket ping "
           "(%.3f ms); worst %.2f ms (%d actions)\n", med * 1e3, med / ping, p99 * 1e3,
           p99 / ping, ping * 1e3, L->nlat ? L->lat[L->nlat - 1] * 1e3 : 0, L->nlat);
}

static int bench_load(Server *s, double ping)
{
    /* flat out: every seat acts as soon as its state comes */
    Load L = {.base = 0, .plies = PLIES};
    long rss[3];
    int nspect = 0;
    if (load_run(s, &L, rss, &nspect))
        return load_free(&L), 1;
    int ref_actions = 0;
    double ref = bench_reference(&ref_actions);
    if (ref < 0)
        return load_free(&L), printf("bench_web: the reference run failed\n"), 1;
    /* the server and the engine drew the same actions from the same
     * lists: the same games, action for action */
    int differ = 0;
    for (int i = 0; i < GAMES; i++)
        for (int k = 0; k < PLIES; k++)
            if (strcmp(L.g[i].text[k], ref_text[i][k]) != 0) {
                if (differ++ < 5)
                    printf("bench_web: game %d (%s), ply %d: the server played '%s', the "
                           "engine '%s' from the same draws: the games DIFFER\n", i,
                           VARIANTS[i % NVARIANTS], k, L.g[i].text[k], ref_text[i][k]);
                break;
            }
    double rate = L.actions / L.last, ref_rate = ref_actions / ref;
    long ncores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("web load: %d games at once (%s in turn), %d WebSockets (2 seats a game, %d "
           "spectators), %d plies a game at most, every seat acting at once\n", GAMES,
           "orthodox, echiquete, tile, masques", L.nv, nspect, PLIES);
    printf("web load: %d actions in %.2f s = %.0f actions/s = x%.2f of the engine's batch rate "
           "(the same games through `chessvar run --json`, %ld at once: %d actions in %.2f s = "
           "%.0f actions/s)\n", L.actions, L.last, rate, rate / ref_rate, ncores, ref_actions,
           ref, ref_rate);
    print_latency(&L, ping);
    printf("web load: memory %.0f KiB a game made, %.0f KiB a game in play (with its "
           "connections) = x%.3f of the idle server's %ld KiB (VmRSS %ld -> %ld -> %ld KiB)\n",
           (double)(rss[1] - rss[0]) / GAMES, (double)(rss[2] - rss[0]) / GAMES,
           (double)(rss[2] - rss[0]) / GAMES / (double)rss[0], rss[0], rss[0], rss[1], rss[2]);
    if (!differ)
        printf("web load: every game's ply and history are the %d actions its seats had "
               "accepted, the same as the engine's games: none lost, none applied twice (%d "
               "refused and not played)\n", L.actions, L.refused);
    load_free(&L);
    if (differ)
        return 1;

    /* paced as people play: each seat thinks a while before it acts */
    Load P = {.base = GAMES, .plies = PACED_PLIES, .think_ms = THINK_MS, .think_rng = 7};
    if (load_run(s, &P, rss, &nspect))
        return load_free(&P), 1;
    printf("web load, paced: %d more games, each seat thinking %d to %d ms before it acts, "
           "%d plies a game: %d actions in %.2f s = %.0f actions/s, none lost or doubled\n",
           GAMES, THINK_MS / 2, THINK_MS * 3 / 2, PACED_PLIES, P.actions, P.last,
           P.actions / P.last);
    print_latency(&P, ping);
    load_free(&P);
    return 0;
}

/* ---- Games beside an experiment (issue 23) ---------------------------------- */

enum { LAB_ROUNDS = 12 };
static const char *const LAB_LINE[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6",
                                       "d2d3", "f8c5", "c2c3", "d7d6"};
enum { LAB_PLIES = sizeof LAB_LINE / sizeof LAB_LINE[0] };

/* LAB_ROUNDS games of LAB_LINE by two seat sockets: the time of each
 * action until both seats have its state, into t (LAB_ROUNDS * LAB_PLIES
 * of them): 0, or 1 with a line. */
static int time_line(int port, double *t)
{
    for (int r = 0; r < LAB_ROUNDS; r++) {
        Json *g = create_game(port, 0);
        if (!g)
            return 1;
        WcSocket w[2];
        int bad = 0;
        for (int i = 0; i < 2 && !bad; i++) {
            char *text = NULL;
            Json *st = NULL;
            if (wc_ws_open(&w[i], port, "/ws") == 0 &&
                send_hello(&w[i], str_of(g, "game"),
                           str_of(json_at(json_get(g, "seats"), i), "token")) == 0)
                st = recv_type(&w[i], "state", &text);
            bad = !st;
            json_free(st);
            free(text);
        }
        for (int ply = 0; ply < LAB_PLIES && !bad; ply++) {
            char act[128];
            snprintf(act, sizeof act, "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}",
                     LAB_LINE[ply], ply);
            double t0 = tu_seconds();
            bad = wc_ws_send(&w[ply % 2], act, strlen(act)) != 0;
            for (int i = 0; i < 2 && !bad; i++) {
                char *text = NULL;
                Json *st = recv_type(&w[i], "state", &text);
                bad = !st;
                json_free(st);
                free(text);
            }
            t[r * LAB_PLIES + ply] = tu_seconds() - t0;
        }
        wc_ws_close(&w[0]);
        wc_ws_close(&w[1]);
        json_free(g);
        if (bad)
            return printf("bench_web: a game beside the experiments got no state\n"), 1;
    }
    return 0;
}

/* The games done of experiment id, or -1. */
static long lab_done(int port, const char *id)
{
    char path[64];
    snprintf(path, sizeof path, "/api/experiments/%s", id);
    StrBuf out = STRBUF_INIT;
    long done = -1;
    if (wc_http(port, "GET", path, NULL, 0, &out) == 200) {
        Json *j = parse(sb_str(&out), out.len);
        const Json *d = j ? json_get(j, "done") : NULL;
        done = d && d->type == JSON_NUMBER ? (long)d->num : -1;
        json_free(j);
    }
    sb_free(&out);
    return done;
}

/* A game's actions timed on the idle server, then while an experiment
 * (greedy bots, played by the server's worker at nice 19) runs: the
 * experiment must not slow the games. */
static int bench_lab(int port)
{
    enum { N = LAB_ROUNDS * LAB_PLIES };
    double idle[N], busy[N];
    if (time_line(port, idle))
        return 1;
    const char *body = "{\"variant\":\"orthodox\",\"rules\":[\"king_of_the_hill.lua\"],"
                       "\"games\":1000,\"seed\":\"1\",\"bots\":{\"white\":\"greedy\","
                       "\"black\":\"greedy\"}}";
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/experiments", body, strlen(body), &out);
    Json *j = st == 202 ? parse(sb_str(&out), out.len) : NULL;
    if (!j) {
        printf("bench_web: POST /api/experiments: %d %s\n", st, sb_str(&out));
        sb_free(&out);
        return 1;
    }
    char id[32], hdr[96];
    snprintf(id, sizeof id, "%s", str_of(j, "id"));
    snprintf(hdr, sizeof hdr, "X-Chessvar-Token: %s\r\n", str_of(j, "token"));
    json_free(j);
    nanosleep(&(struct timespec){0, 300000000}, NULL); /* the worker has taken it */
    long d0 = lab_done(port, id);
    double t0 = tu_seconds();
    int rc = time_line(port, busy);
    double el = tu_seconds() - t0;
    long d1 = lab_done(port, id);
    char path[64];
    snprintf(path, sizeof path, "/api/experiments/%s", id);
    sb_reset(&out);
    wc_http_with(port, "DELETE", path, hdr, NULL, 0, &out);
    sb_free(&out);
    if (rc)
        return 1;
    qsort(idle, N, sizeof idle[0], cmp_double);
    qsort(busy, N, sizeof busy[0], cmp_double);
    double mi = quantile(idle, N, 0.5), mb = quantile(busy, N, 0.5);
    double pi = quantile(idle, N, 0.99), pb = quantile(busy, N, 0.99);
    printf("web games beside an experiment: an action until both seats have its state, "
           "median %.2f ms = x%.2f of the idle server's (%.2f ms), 99th percentile %.2f ms = "
           "x%.2f (%.2f ms); the experiment played %ld games meanwhile (%.0f games/s, "
           "greedy, nice 19) (%d actions each)\n", mb * 1e3, mb / mi, mi * 1e3, pb * 1e3,
           pb / pi, pi * 1e3, d1 - d0, el > 0 ? (double)(d1 - d0) / el : 0.0, N);
    if (d1 < 0 || d0 < 0)
        return printf("bench_web: the experiment's progress could not be read\n"), 1;
    return 0;
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0); /* each line as it comes, under make */
    Server s;
    if (server_start(&s))
        return 1;
    double ping = 0;
    int bad = bench_page(s.port, &ping);
    if (!bad)
        bad = bench_lab(s.port);
    if (!bad)
        bad = bench_load(&s, ping);
    if (!server_alive(&s)) {
        printf("bench_web: the server DIED\n");
        bad = 1;
    }
    bad |= server_stop(&s) != 0;
    return bad;
}
