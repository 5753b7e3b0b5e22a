/*
 * labjobs.c -- experiments in the browser (issue 23 point 3, "Measure
 * it"): POST /api/experiments starts the A/B of `chessvar experiment` on
 * the server (A: the variant with its parameters, B: the same with the
 * house rules asked), answered at once with the job's id; a queue of jobs
 * is played by a few worker threads at the lowest priority, beside the
 * games.  GET /api/experiments/ID says how far it is and, once done, gives
 * the report; ID.json, ID.svg and ID.txt are the command's JSON, chart
 * and report; DELETE (with the token its maker got) cancels it; /measure/ID
 * is the link to share (docs/WEB.md).
 *
 * Invariant: the figures are the command's own: the experiment is set up
 * and played by cli_exp_* (core/cli/cli_experiment.c), its games in task
 * order, and reported by exp_report_text, exp_json and exp_svg.  Every
 * thing is bounded: the jobs queued or running (overall and per client
 * address), the games a job asks, the time it runs, the results held in
 * memory (the oldest finished leave first; with --data a finished one
 * stays on disk, DIR/experiments/ID.json, and is read back when asked).  The
 * lab's lock is taken after no other of the server's.
 */
#define _GNU_SOURCE /* gettid: a worker lowers its own priority */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <civetweb.h>

#include "../lab/bot.h"
#include "../lab/experiment.h"
#include "../lua/house.h"
#include "../record/record.h"
#include "web_int.h"

enum { LAB_QUEUED, LAB_RUNNING, LAB_DONE, LAB_FAILED, LAB_CANCELLED };
static const char *const STATE_NAME[] = {"queued", "running", "done", "failed", "cancelled"};

#define LAB_DEFAULT_GAMES 100
#define LAB_MAX_NODES 100000      /* a search bot's nodes a decision */
#define LAB_MAX_FILE (256L << 20) /* a result read back from --data */

typedef struct LabJob LabJob;
struct LabJob {
    char id[WEB_ID_HEX];
    char token[WEB_TOKEN_HEX];    /* its maker's: cancels it */
    char client[48];              /* its maker's address */
    int state;
    int cancel;                   /* asked: the worker stops after its game */
    long done, total;             /* games played, to play (both rule sets) */
    unsigned long serial;         /* the order of making */
    long long ended;              /* web_now_ms when it ended (eviction) */
    char error[sizeof ((Error *)0)->msg];
    ExpInfo info;                 /* what it plays */
    ExpGame *games;               /* total, in task order */
    char command[1024];           /* the same experiment on the command line */
    /* while queued or running: the options it was set up from */
    CliOptions *o;
    char (*ptext)[128];           /* --param texts (A's, B's the same) */
    char bots[CLI_MAX_SEATS_BOTS][WEB_BOT_MAX + EXP_NAME];
    StrBuf paths;                 /* the scripts' paths (B) */
    CliExpRun *run;
    LabJob *next;
};

struct WebLab {
    WebServer *s;
    pthread_mutex_t mu;           /* everything below, and every job's fields */
    pthread_cond_t cond;          /* a job queued, or stopping */
    LabJob *jobs;                 /* newest first */
    unsigned long serial;
    int stopping;
    int nworkers;
    pthread_t workers[16];
};

/* ---- Jobs ------------------------------------------------------------------ */

/* What a queued or running job holds to play: let go once it ended. */
static void job_drop_run(LabJob *j)
{
    cli_exp_close(j->run);
    j->run = NULL;
    if (j->o) {
        house_free(j->o->cmp_house);
        free(j->o);
        j->o = NULL;
    }
    free(j->ptext);
    j->ptext = NULL;
    sb_free(&j->paths);
}

static void job_free(LabJob *j)
{
    if (!j)
        return;
    job_drop_run(j);
    free(j->games);
    free(j);
}

static int job_active(const LabJob *j)
{
    return j->state == LAB_QUEUED || j->state == LAB_RUNNING;
}

static LabJob *job_find(WebLab *L, const char *id)
{
    for (LabJob *j = L->jobs; j; j = j->next)
        if (strcmp(j->id, id) == 0)
            return j;
    return NULL;
}

/* Finished jobs beyond cfg.lab_keep leave memory, the one that ended
 * first first (with --data a done one stays on disk).  L->mu held. */
static void lab_evict(WebLab *L)
{
    for (;;) {
        int finished = 0;
        LabJob **oldest = NULL;
        for (LabJob **p = &L->jobs; *p; p = &(*p)->next)
            if (!job_active(*p)) {
                finished++;
                if (!oldest || (*p)->ended < (*oldest)->ended)
                    oldest = p;
            }
        if (finished <= L->s->cfg.lab_keep || !oldest)
            return;
        LabJob *j = *oldest;
        *oldest = j->next;
        job_free(j);
    }
}

/* ---- Setting a job up from a request ---------------------------------------- */

static int lab_id_ok(const char *id, size_t n)
{
    if (n != WEB_ID_HEX - 1)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
            return 0;
    return 1;
}

/* "bots" ({SEAT: LEVEL}) as --bot texts; the seats are checked when the
 * experiment is set up (the command's message). */
static int read_bots(const Json *bots, LabJob *j, CliOptions *o, Error *e)
{
    if (!bots || bots->type == JSON_NULL)
        return 0;
    if (bots->type != JSON_OBJECT || bots->count > CLI_MAX_SEATS_BOTS)
        return err_set(e, "\"bots\" must be an object of SEAT: LEVEL ({\"white\":\"greedy\"}, "
                          "at most %d)", CLI_MAX_SEATS_BOTS);
    for (const Json *b = bots->child; b; b = b->next) {
        char q[48];
        BotSpec spec;
        if (b->type != JSON_STRING || strlen(b->str) >= WEB_BOT_MAX ||
            strlen(b->key) >= EXP_NAME)
            return err_set(e, "bots: %s must be a level (random, greedy, search, search:N)",
                           str_clip(q, sizeof q, b->key));
        if (bot_spec_parse(b->str, &spec, e))
            return err_prefix(e, "bots: %s", str_clip(q, sizeof q, b->key)), -1;
        if (spec.lim.ms)
            return err_set(e, "bots: %s: an experiment's bots think by nodes, not time "
                              "(search:N): a time makes the figures depend on the machine",
                           str_clip(q, sizeof q, b->key));
        if (spec.lim.nodes > LAB_MAX_NODES)
            return err_set(e, "bots: %s: at most %d nodes a decision in an experiment on "
                              "this server", str_clip(q, sizeof q, b->key), LAB_MAX_NODES);
        snprintf(j->bots[o->nbots], sizeof j->bots[o->nbots], "%s=%s", b->key, b->str);
        o->bots[o->nbots] = j->bots[o->nbots];
        o->nbots++;
    }
    return 0;
}

/* The command line of the same experiment (for people, and the tests);
 * game_ms: the hook budget of a game with a lab rule, 0: the default. */
static void job_command(LabJob *j, long game_ms)
{
    const CliOptions *o = j->o;
    StrBuf c = STRBUF_INIT;
    sb_printf(&c, "chessvar experiment %s --games %ld --seed %llu", o->variant->name, o->games,
              (unsigned long long)o->seed);
    if (game_ms)
        sb_printf(&c, " --hook-game-ms %ld", game_ms);
    for (int i = 0; i < o->nbots; i++)
        sb_printf(&c, " --bot %s", o->bots[i]);
    for (int i = 0; i < o->nparams; i++)
        sb_printf(&c, " --param %s", o->params[i]);
    sb_puts(&c, " --compare");
    for (int i = 0; i < o->cmp_nparams; i++)
        sb_printf(&c, " --param %s", o->cmp_params[i]);
    for (int i = 0; i < o->cmp_nrules; i++)
        sb_printf(&c, " --rules %s", o->cmp_rules[i]);
    str_copy(j->command, sizeof j->command, sb_str(&c));
    sb_free(&c);
}

/* The job a request's body describes, set up as the command would (its
 * first games started): it, or NULL with e and *status (400, 500). */
static LabJob *job_from_request(WebServer *s, const Json *req, Error *e, int *status)
{
    *status = 400;
    if (!req || req->type != JSON_OBJECT)
        return err_set(e, "the body must be one JSON object ({\"variant\":\"orthodox\","
                          "\"rules\":[\"king_of_the_hill.lua\"]})"), NULL;
    LabJob *j = calloc(1, sizeof *j);
    CliOptions *o = j ? calloc(1, sizeof *o) : NULL;
    char (*ptext)[128] = o ? calloc(CLI_MAX_PARAMS, 128) : NULL;
    if (!ptext) {
        free(o);
        free(j);
        *status = 500;
        return err_set(e, "out of memory"), NULL;
    }
    j->o = o;
    j->ptext = ptext;
    o->command = "experiment";
    o->depth = -1;
    o->compare = 1;
    const Json *var = json_get(req, "variant");
    const Json *games = json_get(req, "games");
    const Json *seed = json_get(req, "seed");
    const Json *rules = json_get(req, "rules");
    char *end;
    int lab = 0;
    if (!var || var->type != JSON_STRING) {
        err_set(e, "give the variant as \"variant\" (GET /api/variants lists them)");
    } else if (!(o->variant = variant_find(var->str))) {
        char q[48];
        err_set(e, "unknown variant '%s' (GET /api/variants lists them)",
                str_clip(q, sizeof q, var->str));
    } else if (games && games->type != JSON_NULL &&
               (games->type != JSON_NUMBER || games->num < 1 ||
                games->num > (double)s->cfg.lab_max_games ||
                games->num != (double)(long)games->num)) {
        err_set(e, "\"games\" must be a whole number from 1 to %ld (games per rule set)",
                s->cfg.lab_max_games);
    } else if (seed && seed->type != JSON_NULL &&
               (seed->type != JSON_STRING || !seed->str[0] || seed->str[0] == '-' ||
                (errno = 0, o->seed = strtoull(seed->str, &end, 10), errno || *end))) {
        err_set(e, "\"seed\" must be a whole number from 0 to 18446744073709551615, "
                   "written as a string");
    } else if (!rules || rules->type != JSON_ARRAY || rules->count == 0) {
        err_set(e, "give the house rules to measure as \"rules\", a list of script names "
                   "(GET /api/variants lists them): A plays without them, B with them");
    } else if (!web_params_texts(json_get(req, "params"), ptext, o->params, &o->nparams, e) &&
               !read_bots(json_get(req, "bots"), j, o, e) &&
               !web_rules_paths(s, rules, &j->paths, o->cmp_rules, &o->cmp_nrules, &lab, e)) {
        o->games = games && games->type == JSON_NUMBER ? (long)games->num : LAB_DEFAULT_GAMES;
        o->have_seed = 1;
        if (!seed || seed->type == JSON_NULL)
            o->seed = cli_fresh_seed();
        o->cmp_nparams = o->nparams; /* B: the same parameters */
        memcpy(o->cmp_params, o->params, sizeof o->params);
        int st = CLI_EXIT_USAGE;
        /* a lab rule's games run under the lab's limits (docs/WEB.md):
         * a rule slow in every hook fails its first game in seconds */
        o->cmp_house = web_lab_house(s, lab, o->variant, 0, o->cmp_rules, o->cmp_nrules, e);
        if (o->cmp_house && (j->run = cli_exp_open(o, e, &st))) {
            j->info = *cli_exp_info(j->run);
            j->total = cli_exp_tasks(j->run);
            j->games = calloc((size_t)(j->total ? j->total : 1), sizeof *j->games);
            job_command(j, lab ? s->lab_limits.game_ms : 0);
            if (j->games)
                return j;
            *status = 500;
            err_set(e, "out of memory");
        } else if (o->cmp_house && st != CLI_EXIT_USAGE) {
            *status = 500;
        }
    }
    job_free(j);
    return NULL;
}

/* ---- The workers -------------------------------------------------------------- */

/* The result of a done job as the command's JSON (exp_json) in DIR/experiments/ID.json. */
static void job_save(WebLab *L, LabJob *j)
{
    WebServer *s = L->s;
    if (!s->data)
        return;
    StrBuf dir = STRBUF_INIT, path = STRBUF_INIT, t = STRBUF_INIT;
    sb_printf(&dir, "%s/experiments", s->data);
    sb_printf(&path, "%s/%s.json", sb_str(&dir), j->id);
    exp_json(&j->info, j->games, j->total, 0, 0, &t);
    Error e = {""};
    if (dir.failed || path.failed || t.failed)
        err_set(&e, "out of memory");
    else if (mkdir(sb_str(&dir), 0700) && errno != EEXIST)
        err_set(&e, "cannot make %s: %s", sb_str(&dir), strerror(errno));
    else
        web_write_atomic(sb_str(&dir), sb_str(&path), &t, &e);
    if (e.msg[0] && !s->cfg.quiet)
        fprintf(stderr, "chessvar serve: experiment %s: %s\n", j->id, e.msg);
    sb_free(&dir);
    sb_free(&path);
    sb_free(&t);
}

/* Play job j's games (L->mu not held; j is RUNNING, so nobody frees it
 * or touches its games): the state it ends in, with j->error. */
static int job_play(WebLab *L, LabJob *j)
{
    long long t0 = web_now_ms();
    for (long t = 0; t < j->total; t++) {
        pthread_mutex_lock(&L->mu);
        int stop = j->cancel ? 1 : L->stopping ? 2 : 0;
        pthread_mutex_unlock(&L->mu);
        if (stop) {
            snprintf(j->error, sizeof j->error, "%s after %ld of %ld games",
                     stop == 1 ? "cancelled by its maker" : "stopped: the server stopped",
                     t, j->total);
            return LAB_CANCELLED;
        }
        if (web_now_ms() - t0 > L->s->cfg.lab_max_ms) {
            snprintf(j->error, sizeof j->error, "stopped after %lld s, the most an experiment "
                     "may run on this server (%ld of %ld games played): ask fewer games or "
                     "quicker bots", L->s->cfg.lab_max_ms / 1000, t, j->total);
            return LAB_FAILED;
        }
        Error e = {""};
        if (cli_exp_play(j->run, t, &j->games[t], &e)) {
            str_copy(j->error, sizeof j->error, e.msg);
            return LAB_FAILED;
        }
        pthread_mutex_lock(&L->mu);
        j->done = t + 1;
        pthread_mutex_unlock(&L->mu);
    }
    return LAB_DONE;
}

static void *lab_worker(void *arg)
{
    WebLab *L = arg;
    /* the games come first: this thread only takes what they leave (a
     * thread's own nice value, on Linux) */
    setpriority(PRIO_PROCESS, (id_t)gettid(), 19);
    pthread_mutex_lock(&L->mu);
    for (;;) {
        LabJob *j = NULL;
        while (!L->stopping) {
            for (LabJob *k = L->jobs; k; k = k->next) /* the oldest queued */
                if (k->state == LAB_QUEUED && (!j || k->serial < j->serial))
                    j = k;
            if (j)
                break;
            pthread_cond_wait(&L->cond, &L->mu);
        }
        if (L->stopping)
            break;
        j->state = LAB_RUNNING;
        pthread_mutex_unlock(&L->mu);
        int end = job_play(L, j);
        if (end == LAB_DONE)
            job_save(L, j);
        pthread_mutex_lock(&L->mu);
        job_drop_run(j);
        j->state = end;
        j->ended = web_now_ms();
        lab_evict(L);
    }
    pthread_mutex_unlock(&L->mu);
    return NULL;
}

WebLab *web_lab_new(WebServer *s, Error *e)
{
    WebLab *L = calloc(1, sizeof *L);
    if (!L)
        return err_set(e, "out of memory"), NULL;
    L->s = s;
    pthread_mutex_init(&L->mu, NULL);
    pthread_cond_init(&L->cond, NULL);
    int want = s->cfg.lab_workers;
    if (want > (int)ARRAY_LEN(L->workers))
        want = (int)ARRAY_LEN(L->workers);
    pthread_attr_t a; /* the engine's stack, as the bots' thread */
    if (pthread_attr_init(&a) == 0) {
        if (pthread_attr_setstacksize(&a, 8u << 20) == 0)
            while (L->nworkers < want &&
                   pthread_create(&L->workers[L->nworkers], &a, lab_worker, L) == 0)
                L->nworkers++;
        pthread_attr_destroy(&a);
    }
    if (L->nworkers < want) {
        web_lab_free(L);
        return err_set(e, "the experiments' threads could not start"), NULL;
    }
    return L;
}

void web_lab_free(WebLab *L)
{
    if (!L)
        return;
    pthread_mutex_lock(&L->mu);
    L->stopping = 1;
    pthread_cond_broadcast(&L->cond);
    pthread_mutex_unlock(&L->mu);
    for (int i = 0; i < L->nworkers; i++)
        pthread_join(L->workers[i], NULL);
    while (L->jobs) {
        LabJob *j = L->jobs;
        L->jobs = j->next;
        job_free(j);
    }
    pthread_mutex_destroy(&L->mu);
    pthread_cond_destroy(&L->cond);
    free(L);
}

/* ---- Answers ---------------------------------------------------------------- */

/* A job's state as JSON (L->mu held). */
static void job_json(WebLab *L, const LabJob *j, StrBuf *out)
{
    const ExpInfo *x = &j->info;
    const ExpSet *b = &x->set[x->nsets > 1 ? 1 : 0];
    int ahead = 0;
    for (const LabJob *k = L->jobs; k; k = k->next)
        ahead += k->state == LAB_QUEUED && j->state == LAB_QUEUED && k->serial < j->serial;
    sb_puts(out, "{\"id\":");
    sb_json_str(out, j->id);
    sb_printf(out, ",\"state\":\"%s\",\"done\":%ld,\"total\":%ld,\"ahead\":%d,\"cancel\":%s",
              STATE_NAME[j->state], j->done, j->total, ahead, j->cancel ? "true" : "false");
    sb_puts(out, ",\"variant\":");
    sb_json_str(out, x->variant);
    sb_puts(out, ",\"title\":");
    sb_json_str(out, x->title);
    sb_puts(out, ",\"params\":");
    sb_json_str(out, b->params);
    sb_puts(out, ",\"rules\":[");
    for (int i = 0; i < b->nrules; i++) {
        sb_puts(out, i ? ",{\"file\":" : "{\"file\":");
        sb_json_str(out, b->rules[i]);
        sb_puts(out, ",\"name\":");
        sb_json_str(out, b->rules_name[i]);
        sb_putc(out, '}');
    }
    sb_puts(out, "],\"players\":[");
    for (int p = 0; p < x->nseats; p++) {
        char buf[48];
        if (p)
            sb_putc(out, ',');
        sb_json_str(out, bot_spec_name(&x->players[p], buf, sizeof buf));
    }
    sb_printf(out, "],\"games\":%ld,\"seed\":\"%llu\",\"command\":", x->games,
              (unsigned long long)x->seed);
    if (j->command[0])
        sb_json_str(out, j->command);
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"error\":");
    if (j->error[0])
        sb_json_str(out, j->error);
    else
        sb_puts(out, "null");
    sb_printf(out, ",\"link\":\"/measure/%s\",\"json\":\"/api/experiments/%s.json\","
                   "\"svg\":\"/api/experiments/%s.svg\",\"report\":", j->id, j->id, j->id);
    if (j->state == LAB_DONE) {
        StrBuf r = STRBUF_INIT;
        exp_report_text(x, j->games, j->total, &r);
        sb_json_str(out, sb_str(&r));
        sb_free(&r);
    } else {
        sb_puts(out, "null");
    }
    sb_putc(out, '}');
}

/* A done job's result read back from DIR/experiments/ID.json into memory: 0, or
 * -1 (no such file: e empty; else e says why). */
static int job_reload(WebLab *L, const char *id, Error *e)
{
    WebServer *s = L->s;
    e->msg[0] = '\0';
    if (!s->data)
        return -1;
    StrBuf path = STRBUF_INIT, text = STRBUF_INIT;
    sb_printf(&path, "%s/experiments/%s.json", s->data, id);
    if (path.failed || access(sb_str(&path), F_OK)) {
        sb_free(&path);
        return -1;
    }
    LabJob *j = calloc(1, sizeof *j);
    Json *root = NULL;
    long n = 0, cap = 0;
    int k, m, rc = j ? 0 : err_set(e, "out of memory");
    if (rc == 0)
        rc = record_read_file(sb_str(&path), "experiment", (size_t)LAB_MAX_FILE, &text, e);
    if (rc == 0 && !(root = json_parse(sb_str(&text), text.len, e)))
        rc = -1;
    if (rc == 0)
        rc = exp_read_part(root, &j->info, &j->games, &n, &cap, &k, &m, e);
    if (rc == 0 && (k || n != j->info.games * j->info.nsets))
        rc = err_set(e, "%s holds %ld of the %ld games", sb_str(&path), n,
                     j->info.games * j->info.nsets);
    json_free(root);
    sb_free(&text);
    sb_free(&path);
    if (rc) {
        job_free(j);
        return -1;
    }
    str_copy(j->id, sizeof j->id, id);
    j->state = LAB_DONE;
    j->done = j->total = n;
    pthread_mutex_lock(&L->mu);
    if (job_find(L, id)) {
        job_free(j);
    } else {
        j->ended = web_now_ms();
        j->serial = ++L->serial;
        j->next = L->jobs;
        L->jobs = j;
        lab_evict(L);
    }
    pthread_mutex_unlock(&L->mu);
    return 0;
}

typedef struct MakeCall {
    WebServer *s;
    const Json *req;
    Error *e;
    int status;
    LabJob *j;
} MakeCall;

static void make_big(void *arg)
{
    MakeCall *c = arg;
    c->j = job_from_request(c->s, c->req, c->e, &c->status);
}

/* Whether a job of client may be queued now (L->mu held): 0, or the
 * refusal's status with e. */
static int lab_room(WebLab *L, const char *client, Error *e)
{
    int all = 0, mine = 0;
    for (const LabJob *k = L->jobs; k; k = k->next)
        if (job_active(k)) {
            all++;
            mine += strcmp(k->client, client) == 0;
        }
    if (mine >= L->s->cfg.lab_per_client)
        return err_set(e, "you have %d experiments queued or running, the most one client "
                          "may have: wait for one to end, or cancel one", mine), 429;
    if (all >= L->s->cfg.lab_jobs)
        return err_set(e, "the server has %d experiments queued or running, its limit: try "
                          "again later", all), 503;
    return 0;
}

static int post_experiment(WebServer *s, struct mg_connection *conn)
{
    WebLab *L = s->lab;
    const char *client = mg_get_request_info(conn)->remote_addr;
    Error e = {""};
    Json *req = web_read_json_body(s, conn, &e); /* read whole: the answer then arrives */
    if (!req)
        return e.msg[0] == '\0' ? 1 : web_send_error(conn, 400, e.msg);
    pthread_mutex_lock(&L->mu);
    int st = lab_room(L, client, &e);
    pthread_mutex_unlock(&L->mu);
    if (st) { /* before the games are started */
        json_free(req);
        return web_send_error(conn, st, e.msg);
    }
    MakeCall call = {s, req, &e, 400, NULL};
    if (web_run_big(make_big, &call)) {
        call.status = 503;
        err_set(&e, "the server is out of threads: no experiment was started, try again");
    }
    json_free(req);
    LabJob *j = call.j;
    if (!j)
        return web_send_error(conn, call.status, e.msg);
    str_copy(j->client, sizeof j->client, client);
    if (web_random_hex(j->id, 8) || web_random_hex(j->token, 16)) {
        job_free(j);
        return web_send_error(conn, 500, "no random bytes from the system for the id");
    }
    pthread_mutex_lock(&L->mu);
    st = lab_room(L, client, &e); /* again: another may have come meanwhile */
    if (st == 0) {
        j->state = LAB_QUEUED;
        j->serial = ++L->serial;
        j->next = L->jobs;
        L->jobs = j;
        pthread_cond_signal(&L->cond);
    }
    pthread_mutex_unlock(&L->mu);
    if (st) {
        job_free(j);
        return web_send_error(conn, st, e.msg);
    }
    StrBuf out = STRBUF_INIT;
    sb_printf(&out, "{\"id\":\"%s\",\"token\":\"%s\",\"link\":\"/measure/%s\",\"total\":%ld}",
              j->id, j->token, j->id, j->total);
    int rc = web_send_json(conn, 202, &out);
    sb_free(&out);
    return rc;
}

static int cancel_experiment(WebLab *L, struct mg_connection *conn, const char *id)
{
    const char *tok = mg_get_header(conn, "X-Chessvar-Token");
    StrBuf out = STRBUF_INIT;
    int st = 200;
    const char *msg = NULL;
    pthread_mutex_lock(&L->mu);
    LabJob *j = job_find(L, id);
    if (!j) {
        st = 404;
        msg = "no such experiment on this server";
    } else if (!j->token[0] || !tok || !web_token_eq(tok, j->token)) {
        st = 403;
        msg = "only who started an experiment may cancel it: give the token it got in the "
              "X-Chessvar-Token header";
    } else if (!job_active(j)) {
        st = 409;
        msg = j->state == LAB_DONE ? "the experiment is done: nothing to cancel"
                                   : "the experiment has already ended";
    } else {
        j->cancel = 1;
        if (j->state == LAB_QUEUED) { /* never started: it ends here */
            snprintf(j->error, sizeof j->error, "cancelled by its maker before it started");
            job_drop_run(j);
            j->state = LAB_CANCELLED;
            j->ended = web_now_ms();
        }
        job_json(L, j, &out);
        lab_evict(L);
    }
    pthread_mutex_unlock(&L->mu);
    int rc = msg ? web_send_error(conn, st, msg) : web_send_json(conn, 200, &out);
    sb_free(&out);
    return rc;
}

/* GET ID, ID.json, ID.svg, ID.txt. */
static int get_experiment(WebLab *L, struct mg_connection *conn, const char *id,
                          const char *ext)
{
    StrBuf out = STRBUF_INIT;
    int st = 200;
    const char *type = "application/json";
    char msg[sizeof ((Error *)0)->msg] = "";
    for (int tries = 0; tries < 2; tries++) {
        pthread_mutex_lock(&L->mu);
        LabJob *j = job_find(L, id);
        if (j && !ext) {
            job_json(L, j, &out);
            sb_putc(&out, '\n');
        } else if (j && j->state != LAB_DONE) {
            st = 409;
            snprintf(msg, sizeof msg, "the experiment is %s (%ld of %ld games): its %s comes "
                     "when it is done", STATE_NAME[j->state], j->done, j->total, ext);
        } else if (j && strcmp(ext, "json") == 0) {
            exp_json(&j->info, j->games, j->total, 0, 0, &out);
        } else if (j && strcmp(ext, "svg") == 0) {
            exp_svg(&j->info, j->games, j->total, &out);
            type = "image/svg+xml";
        } else if (j) {
            exp_report_text(&j->info, j->games, j->total, &out);
            type = "text/plain; charset=utf-8";
        }
        pthread_mutex_unlock(&L->mu);
        if (j || tries)
            break;
        Error e;
        if (job_reload(L, id, &e)) {
            st = e.msg[0] ? 500 : 404;
            snprintf(msg, sizeof msg, "%s", e.msg[0] ? e.msg
                     : "no such experiment on this server (a server without --data keeps "
                       "a few results in memory only)");
            break;
        }
    }
    int rc;
    if (msg[0])
        rc = web_send_error(conn, st, msg);
    else if (out.failed)
        rc = web_send_error(conn, 500, "out of memory");
    else
        rc = web_send_body(conn, 200, type, sb_str(&out), out.len);
    sb_free(&out);
    return rc;
}

int web_lab_http(WebServer *s, struct mg_connection *conn, const char *rest)
{
    const char *m = mg_get_request_info(conn)->request_method;
    int get = strcmp(m, "GET") == 0 || strcmp(m, "HEAD") == 0;
    if (!rest[0])
        return strcmp(m, "POST") == 0 ? post_experiment(s, conn)
                                      : web_send_error(conn, 405, "POST /api/experiments");
    const char *id = rest + 1, *dot = strchr(id, '.');
    size_t n = dot ? (size_t)(dot - id) : strlen(id);
    const char *ext = dot ? dot + 1 : NULL;
    char buf[WEB_ID_HEX];
    if (!lab_id_ok(id, n) ||
        (ext && strcmp(ext, "json") && strcmp(ext, "svg") && strcmp(ext, "txt")))
        return web_send_error(conn, 404, "no such experiment: /api/experiments/ID, ID.json, "
                                         "ID.svg or ID.txt (ID: 16 hex digits)");
    snprintf(buf, sizeof buf, "%.*s", (int)n, id);
    if (strcmp(m, "DELETE") == 0 && !ext)
        return cancel_experiment(s->lab, conn, buf);
    if (!get)
        return web_send_error(conn, 405, ext ? "GET /api/experiments/ID.EXT"
                                             : "GET or DELETE /api/experiments/ID");
    return get_experiment(s->lab, conn, buf, ext);
}

/* /measure/ID: the page's view of the experiment (web/measure.js), #measure=ID. */
int web_lab_link(struct mg_connection *conn, const char *id)
{
    if (!lab_id_ok(id, strlen(id)))
        return web_send_error(conn, 404, "no such experiment: /measure/ID (ID: 16 hex digits)");
    mg_printf(conn, "HTTP/1.1 302 Found\r\nLocation: /#measure=%s\r\nContent-Length: 0\r\n"
                    "Cache-Control: no-cache\r\nConnection: close\r\n\r\n", id);
    return 302;
}
