/*
 * test_web_lab.c -- experiments in the browser (issue 23 point 3, "Measure
 * it"): POST /api/experiments and what follows, through HTTP to a server
 * in this process (tests/support/webclient.c).  Bad bodies and unknown
 * rules refused with a message naming them; the report, JSON and chart the
 * same bytes as `chessvar experiment` prints for the same experiment; the
 * limits per client and overall; cancelling (only with the maker's token);
 * the results kept in memory within a bound, and with --data across a
 * restart; and games served at their pace while an experiment runs.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/record/record.h"
#include "../core/web/web.h"
#include "support/testutil.h"
#include "support/webclient.h"

enum { WAIT_MS = 60000 };

static WebServer *start(const char *data, int per_client, int jobs, int keep)
{
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.max_conns = 24;
    c.bot_delay_ms = 0;
    c.data = data;
    c.lab_per_client = per_client;
    c.lab_jobs = jobs;
    c.lab_keep = keep;
    Error e;
    e.msg[0] = '\0';
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    return s;
}

static Json *parse(const StrBuf *b)
{
    Error e;
    Json *j = json_parse(sb_str(b), b->len, &e);
    if (!j)
        fail_msg("not JSON (%s): %.300s", e.msg, sb_str(b));
    return j;
}

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

static long num_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    if (!m || m->type != JSON_NUMBER)
        fail_msg("no number \"%s\" in %.*s", key, (int)j->len, j->text);
    return (long)m->num;
}

/* POST /api/experiments with body: the status, the answer in out. */
static int post(int port, const char *body, StrBuf *out)
{
    sb_reset(out);
    return wc_http(port, "POST", "/api/experiments", body, strlen(body), out);
}

/* The body must be refused with status want and an error holding msg. */
static void refused(int port, const char *body, int want, const char *msg)
{
    StrBuf out = STRBUF_INIT;
    int st = post(port, body, &out);
    if (st != want || !strstr(sb_str(&out), "\"error\"") || !strstr(sb_str(&out), msg))
        fail_msg("POST %s: %d %s (wanted %d with \"%s\")", body, st, sb_str(&out), want, msg);
    sb_free(&out);
}

/* Start the experiment of body (202 wanted): its id and token. */
static void started(int port, const char *body, char *id, char *token)
{
    StrBuf out = STRBUF_INIT;
    int st = post(port, body, &out);
    if (st != 202)
        fail_msg("POST %s: %d %s", body, st, sb_str(&out));
    Json *j = parse(&out);
    snprintf(id, 32, "%s", str_of(j, "id"));
    snprintf(token, 40, "%s", str_of(j, "token"));
    json_free(j);
    sb_free(&out);
}

/* An answer parsed, with the text its Json points into. */
typedef struct Answer {
    StrBuf text;
    Json *j;
} Answer;

static void answer_free(Answer *a)
{
    json_free(a->j);
    sb_free(&a->text);
    free(a);
}

/* GET /api/experiments/ID: the state. */
static Answer *status_of(int port, const char *id)
{
    char path[96];
    snprintf(path, sizeof path, "/api/experiments/%s", id);
    Answer *a = calloc(1, sizeof *a);
    int st = wc_http(port, "GET", path, NULL, 0, &a->text);
    if (st != 200)
        fail_msg("GET %s: %d %s", path, st, sb_str(&a->text));
    a->j = parse(&a->text);
    return a;
}

static const char *state_of(const Json *j) { return str_of(j, "state"); }

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Wait until experiment id is no longer queued or running: its last
 * state; the games done seen on the way never go back. */
static Answer *wait_end(int port, const char *id)
{
    long long t0 = (long long)time(NULL);
    long last = 0;
    for (;;) {
        Answer *a = status_of(port, id);
        const Json *j = a->j;
        long done = num_of(j, "done");
        assert_true(done >= last);
        assert_true(done <= num_of(j, "total"));
        last = done;
        if (strcmp(state_of(j), "queued") && strcmp(state_of(j), "running"))
            return a;
        answer_free(a);
        if ((long long)time(NULL) - t0 > WAIT_MS / 1000)
            fail_msg("experiment %s did not end within %d s", id, WAIT_MS / 1000);
        pause_ms(20);
    }
}

/* GET path: status want, body in out. */
static void get(int port, const char *path, int want, StrBuf *out)
{
    sb_reset(out);
    int st = wc_http(port, "GET", path, NULL, 0, out);
    if (st != want)
        fail_msg("GET %s: %d (wanted %d) %.300s", path, st, want, sb_str(out));
}

/* DELETE /api/experiments/ID with token (NULL: none): the status. */
static int cancel(int port, const char *id, const char *token, StrBuf *out)
{
    char path[96], hdr[96];
    snprintf(path, sizeof path, "/api/experiments/%s", id);
    snprintf(hdr, sizeof hdr, "X-Chessvar-Token: %s\r\n", token ? token : "");
    sb_reset(out);
    return wc_http_with(port, "DELETE", path, token ? hdr : NULL, NULL, 0, out);
}

/* The output of a command line (run from the tree's root, the program of
 * $CHESSVAR or ./chessvar) into out. */
static void command_output(const char *args, StrBuf *out)
{
    const char *prog = getenv("CHESSVAR") ? getenv("CHESSVAR") : "./chessvar";
    StrBuf cmd = STRBUF_INIT;
    sb_printf(&cmd, "%s %s", prog, args);
    FILE *p = popen(sb_str(&cmd), "r");
    assert_non_null(p);
    char buf[4096];
    size_t n;
    sb_reset(out);
    while ((n = fread(buf, 1, sizeof buf, p)) > 0)
        sb_putn(out, buf, n);
    if (pclose(p) != 0)
        fail_msg("%s failed", sb_str(&cmd));
    sb_free(&cmd);
}

static void same_bytes(const char *what, const StrBuf *got, const StrBuf *want)
{
    if (got->len != want->len || memcmp(got->s, want->s, want->len) != 0)
        fail_msg("%s: the server's differs from the command's\n--- server:\n%s\n--- "
                 "command:\n%s", what, sb_str(got), sb_str(want));
}

#define KOTH "\"rules\":[\"king_of_the_hill.lua\"]"
/* An experiment that runs long (greedy bots, 1000 games a rule set). */
#define LONG_BODY "{\"variant\":\"orthodox\"," KOTH ",\"games\":1000,\"seed\":\"3\"," \
                  "\"bots\":{\"white\":\"greedy\",\"black\":\"greedy\"}}"

/* issue 23: what is wrong with a body is said, and nothing starts. */
static void test_lab_refusals(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    refused(port, "{\"variant\":", 400, "malformed JSON");
    refused(port, "[1]", 400, "one JSON object");
    refused(port, "{\"rules\":[\"king_of_the_hill.lua\"]}", 400, "give the variant");
    refused(port, "{\"variant\":\"draughts\"," KOTH "}", 400, "unknown variant 'draughts'");
    refused(port, "{\"variant\":\"orthodox\"}", 400, "give the house rules to measure");
    refused(port, "{\"variant\":\"orthodox\",\"rules\":[]}", 400, "give the house rules");
    refused(port, "{\"variant\":\"orthodox\",\"rules\":[\"nosuch.lua\"]}", 400,
            "no script 'nosuch.lua' is offered");
    refused(port, "{\"variant\":\"orthodox\",\"rules\":[\"../../etc/passwd\"]}", 400,
            "is offered");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"games\":0}", 400, "games per rule set");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"games\":1001}", 400, "1 to 1000");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"games\":2.5}", 400, "games per rule set");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"seed\":7}", 400, "written as a string");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"params\":{\"castling\":\"sometimes\"}}",
            400, "castling");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"bots\":{\"white\":\"clever\"}}", 400,
            "clever");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"bots\":{\"white\":\"search:50ms\"}}",
            400, "not time");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"bots\":{\"white\":\"search:100001\"}}",
            400, "at most 100000 nodes");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"bots\":{\"red\":\"greedy\"}}", 400,
            "no seat 'red'");
    refused(port, "{\"variant\":\"orthodox\"," KOTH ",\"bots\":[\"greedy\"]}", 400,
            "SEAT: LEVEL");
    /* a rule that does not load against the variant: the loader's message */
    refused(port, "{\"variant\":\"tile\"," KOTH "}", 400, "king_of_the_hill.lua");

    StrBuf out = STRBUF_INIT;
    get(port, "/api/experiments", 405, &out);
    get(port, "/api/experiments/0123456789abcdef", 404, &out);
    assert_non_null(strstr(sb_str(&out), "no such experiment"));
    get(port, "/api/experiments/../../etc/passwd", 404, &out);
    get(port, "/api/experiments/0123456789abcdef.exe", 404, &out);
    get(port, "/measure/zz", 404, &out);
    assert_int_equal(cancel(port, "0123456789abcdef", "x", &out), 404);
    sb_free(&out);
}

/* issue 23: the same experiment gives the same bytes as the command: the
 * report, its JSON and its chart (--svg); the games done go up to all. */
static void test_lab_same_as_command(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    char id[32], token[40];
    started(port, "{\"variant\":\"orthodox\"," KOTH ",\"games\":30,\"seed\":\"7\","
                  "\"bots\":{\"white\":\"greedy\"},\"params\":{\"castling\":false}}", id,
            token);
    Answer *a = wait_end(port, id);
    const Json *j = a->j;
    assert_string_equal(state_of(j), "done");
    assert_int_equal(num_of(j, "done"), 60);
    assert_int_equal(num_of(j, "total"), 60);
    const char *cmd = str_of(j, "command");
    /* the parameters are A's and B's: B differs by the rules alone */
    assert_string_equal(cmd, "chessvar experiment orthodox --games 30 --seed 7 --bot "
                             "white=greedy --param castling=off --compare --param "
                             "castling=off --rules scripts/king_of_the_hill.lua");
    assert_non_null(strstr(str_of(j, "report"), "castling=off"));
    char *svg_file = strdup("/tmp/chessvar-lab-XXXXXX");
    int fd = mkstemp(svg_file);
    assert_true(fd >= 0);
    close(fd);
    StrBuf args = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
    sb_printf(&args, "%s --svg %s", cmd + strlen("chessvar "), svg_file);
    command_output(sb_str(&args), &want);
    same_bytes("the report in the state", &(StrBuf){.s = (char *)str_of(j, "report"),
                                                    .len = strlen(str_of(j, "report"))}, &want);
    char path[96];
    snprintf(path, sizeof path, "/api/experiments/%s.txt", id);
    get(port, path, 200, &got);
    same_bytes("the report", &got, &want);
    Error e;
    sb_reset(&want);
    assert_int_equal(record_read_file(svg_file, "the chart", 1 << 24, &want, &e), 0);
    snprintf(path, sizeof path, "/api/experiments/%s.svg", id);
    get(port, path, 200, &got);
    same_bytes("the chart", &got, &want);
    sb_reset(&args);
    sb_printf(&args, "%s --json", cmd + strlen("chessvar "));
    command_output(sb_str(&args), &want);
    snprintf(path, sizeof path, "/api/experiments/%s.json", id);
    get(port, path, 200, &got);
    same_bytes("the JSON", &got, &want);
    unlink(svg_file);
    free(svg_file);
    sb_free(&args);
    sb_free(&want);
    sb_free(&got);
    answer_free(a);
}

/* Wait until experiment id runs (the worker took it). */
static void wait_running(int port, const char *id)
{
    for (int i = 0; i < WAIT_MS / 20; i++) {
        Answer *a = status_of(port, id);
        int running = strcmp(state_of(a->j), "running") == 0;
        answer_free(a);
        if (running)
            return;
        pause_ms(20);
    }
    fail_msg("experiment %s did not start running", id);
}

/* issue 23: a client may have 2 experiments queued or running (429 past
 * that); only the token its maker got cancels one (403 without, 409 once
 * it ended); a queued one ends at once, a running one after its game. */
static void test_lab_per_client_and_cancel(void **state)
{
    (void)state;
    WebServer *s = start(NULL, 2, 16, 32);
    int port = web_port(s);
    char id1[32], tok1[40], id2[32], tok2[40];
    StrBuf out = STRBUF_INIT;
    started(port, LONG_BODY, id1, tok1);
    wait_running(port, id1);
    started(port, LONG_BODY, id2, tok2);
    Answer *a = status_of(port, id2);
    assert_string_equal(state_of(a->j), "queued"); /* one worker: it waits */
    answer_free(a);
    refused(port, LONG_BODY, 429, "you have 2 experiments queued or running");
    /* not its maker */
    assert_int_equal(cancel(port, id2, NULL, &out), 403);
    assert_non_null(strstr(sb_str(&out), "only who started"));
    assert_int_equal(cancel(port, id2, tok1, &out), 403);
    assert_int_equal(cancel(port, id2, tok2, &out), 200);
    a = status_of(port, id2);
    assert_string_equal(state_of(a->j), "cancelled");
    assert_non_null(strstr(str_of(a->j, "error"), "before it started"));
    answer_free(a);
    assert_int_equal(cancel(port, id2, tok2, &out), 409);
    /* room again for one */
    char id3[32], tok3[40];
    started(port, LONG_BODY, id3, tok3);
    assert_int_equal(cancel(port, id3, tok3, &out), 200);
    /* the running one stops after its game */
    assert_int_equal(cancel(port, id1, tok1, &out), 200);
    a = wait_end(port, id1);
    assert_string_equal(state_of(a->j), "cancelled");
    assert_non_null(strstr(str_of(a->j, "error"), "cancelled by its maker after"));
    assert_true(num_of(a->j, "done") < 2000);
    answer_free(a);
    char path[96];
    snprintf(path, sizeof path, "/api/experiments/%s.json", id1);
    get(port, path, 409, &out);
    assert_non_null(strstr(sb_str(&out), "cancelled"));
    sb_free(&out);
    web_stop(s);
}

/* issue 23: the server's own limit (503), whoever asks. */
static void test_lab_server_limit(void **state)
{
    (void)state;
    WebServer *s = start(NULL, 5, 2, 32);
    int port = web_port(s);
    char id[2][32], tok[2][40];
    started(port, LONG_BODY, id[0], tok[0]);
    started(port, LONG_BODY, id[1], tok[1]);
    refused(port, LONG_BODY, 503, "the server has 2 experiments queued or running");
    /* a stop with an experiment running ends it after its game, at once */
    long long t0 = (long long)time(NULL);
    web_stop(s);
    assert_true((long long)time(NULL) - t0 < 20);
}

#define SMALL_BODY(seed) "{\"variant\":\"orthodox\"," KOTH ",\"games\":4,\"seed\":\"" seed "\"}"

/* issue 23: without --data, the results held in memory are bounded
 * (lab_keep): the oldest finished leaves, its link says so; with --data a
 * result comes back after a restart, the same bytes, and /measure/ID leads to
 * the page's view of it. */
static void test_lab_kept_bounded_and_across_restart(void **state)
{
    (void)state;
    WebServer *s = start(NULL, 2, 16, 2);
    int port = web_port(s);
    char id[3][32], tok[3][40];
    const char *bodies[3] = {SMALL_BODY("1"), SMALL_BODY("2"), SMALL_BODY("3")};
    for (int i = 0; i < 3; i++) {
        started(port, bodies[i], id[i], tok[i]);
        answer_free(wait_end(port, id[i]));
    }
    StrBuf out = STRBUF_INIT, first = STRBUF_INIT;
    char path[96];
    snprintf(path, sizeof path, "/api/experiments/%s", id[0]);
    get(port, path, 404, &out);
    assert_non_null(strstr(sb_str(&out), "keeps a few results in memory only"));
    for (int i = 1; i < 3; i++) {
        snprintf(path, sizeof path, "/api/experiments/%s.txt", id[i]);
        get(port, path, 200, &out);
    }
    web_stop(s);

    char dir[] = "/tmp/chessvar-lab-data-XXXXXX";
    assert_non_null(mkdtemp(dir));
    s = start(dir, 2, 16, 1);
    port = web_port(s);
    for (int i = 0; i < 2; i++) {
        started(port, bodies[i], id[i], tok[i]);
        answer_free(wait_end(port, id[i]));
    }
    snprintf(path, sizeof path, "/api/experiments/%s.txt", id[0]);
    get(port, path, 200, &first); /* read back from DIR/experiments: only one is held */
    web_stop(s);
    s = start(dir, 2, 16, 1);
    port = web_port(s);
    get(port, path, 200, &out);
    same_bytes("the report after a restart", &out, &first);
    Answer *a = status_of(port, id[0]);
    assert_string_equal(state_of(a->j), "done");
    assert_int_equal(num_of(a->j, "total"), 8);
    answer_free(a);
    snprintf(path, sizeof path, "/measure/%s", id[0]);
    get(port, path, 302, &out);
    web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    sb_free(&out);
    sb_free(&first);
}

/* issue 23: games are served while an experiment runs: a game played
 * through the API gets each of its answers in time, and the experiment was
 * running all along (tests/bench_web.c measures the latency's ratio). */
static void test_lab_games_served_while_running(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    char id[32], tok[40];
    started(port, LONG_BODY, id, tok);
    wait_running(port, id);
    static const char *const MOVES[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6",
                                        "d2d3", "f8c5", "c2c3", "d7d6"};
    long long worst = 0;
    for (int round = 0; round < 3; round++) {
        StrBuf out = STRBUF_INIT;
        const char *body = "{\"variant\":\"orthodox\"}";
        assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 201);
        Json *g = parse(&out);
        const char *game = str_of(g, "game");
        WcSocket v[2];
        for (int i = 0; i < 2; i++) {
            char hello[256];
            assert_int_equal(wc_ws_open(&v[i], port, "/ws"), 0);
            snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}",
                     game, str_of(json_at(json_get(g, "seats"), i), "token"));
            assert_int_equal(wc_ws_send(&v[i], hello, strlen(hello)), 0);
        }
        for (int ply = -1; ply < (int)ARRAY_LEN(MOVES); ply++) {
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            if (ply >= 0) {
                char act[128];
                snprintf(act, sizeof act, "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}",
                         MOVES[ply], ply);
                assert_int_equal(wc_ws_send(&v[ply % 2], act, strlen(act)), 0);
            }
            for (int i = 0; i < 2; i++) { /* each seat's state of this ply */
                for (;;) {
                    int op;
                    char *t = wc_ws_recv(&v[i], 10000, &op);
                    if (!t)
                        fail_msg("no state frame within 10 s while an experiment runs");
                    int mine = strstr(t, "\"type\":\"state\"") != NULL;
                    free(t);
                    if (mine)
                        break;
                }
            }
            clock_gettime(CLOCK_MONOTONIC, &t1);
            long long ms = (t1.tv_sec - t0.tv_sec) * 1000LL + (t1.tv_nsec - t0.tv_nsec) / 1000000;
            if (ms > worst)
                worst = ms;
        }
        for (int i = 0; i < 2; i++)
            wc_ws_close(&v[i]);
        json_free(g);
        sb_free(&out);
    }
    Answer *a = status_of(port, id);
    assert_string_equal(state_of(a->j), "running"); /* it ran beside them all along */
    answer_free(a);
    /* loose: the machine may be loaded by others; a game starved by the
     * experiment would wait for its 2000 games (many seconds) */
    if (worst > 3000)
        fail_msg("an action waited %lld ms for its state while an experiment ran", worst);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(cancel(port, id, tok, &out), 200);
    answer_free(wait_end(port, id));
    sb_free(&out);
}

static int shared_up(void **state)
{
    *state = start(NULL, 2, 16, 32);
    return 0;
}

static int shared_down(void **state)
{
    web_stop(*state);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lab_refusals),
        cmocka_unit_test(test_lab_same_as_command),
        cmocka_unit_test(test_lab_games_served_while_running),
        /* these start servers of their own */
        cmocka_unit_test(test_lab_per_client_and_cancel),
        cmocka_unit_test(test_lab_server_limit),
        cmocka_unit_test(test_lab_kept_bounded_and_across_restart),
    };
    return cmocka_run_group_tests(tests, shared_up, shared_down);
}
