/*
 * test_web.c -- `chessvar serve` over the network (issue 21): the server
 * runs in this process on a free port (port 0) and the tests talk HTTP
 * and WebSocket to it through tests/support/webclient.c, as a browser
 * would: games of every variant made through the API and played through
 * two seats' sockets and a spectator's; refusals with the engine's
 * message; forged tokens, stale plies, two sockets on one seat,
 * reconnection, a restart with --data, bots, and garbage (bad JSON,
 * binary, fragments, a huge frame, a flood).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/variant.h"
#include "../core/web/web.h"
#include "../core/web/web_files.h"
#include "../core/record/record.h"
#include "support/testutil.h"
#include "support/webclient.h"

enum { WAIT_MS = 20000 };

static WebServer *start(const char *data)
{
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.max_conns = 24;
    c.bot_delay_ms = 0;
    c.data = data;
    Error e;
    e.msg[0] = '\0';
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    return s;
}

/* A frame or an answer parsed; the test fails on anything else. */
static Json *parse(const char *text)
{
    Error e;
    Json *j = json_parse(text, strlen(text), &e);
    if (!j)
        fail_msg("not JSON (%s): %.300s", e.msg, text);
    return j;
}

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

/* POST /api/games with body: the answer (201 wanted). */
static Json *create(int port, const char *body)
{
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/games", body, strlen(body), &out);
    if (st != 201)
        fail_msg("POST %s: %d %s", body, st, sb_str(&out));
    Json *j = parse(sb_str(&out));
    sb_free(&out);
    return j;
}

static const char *seat_token(const Json *game, int k)
{
    return str_of(json_at(json_get(game, "seats"), k), "token");
}

/* The next frame on w (the test fails after WAIT_MS), as text. */
static char *next_text(WcSocket *w)
{
    int op = 0;
    char *t = wc_ws_recv(w, WAIT_MS, &op);
    if (!t)
        fail_msg("no frame came within %d ms", WAIT_MS);
    if (op != 1)
        fail_msg("a frame with opcode %d: %s", op, t);
    return t;
}

/* The text of the last frame next_frame read (a Json's text points in). */
static char *last_text;

static Json *next_frame(WcSocket *w)
{
    free(last_text);
    last_text = next_text(w);
    if (getenv("WEB_TEST_TRACE")) fprintf(stderr, "frame: %.150s\n", last_text);
    return parse(last_text);
}

/* A frame of type want; its "message" must hold msg when given.  A seats
 * frame (a seat came or went) may come between any two frames: it is let
 * pass unless wanted (test_join_and_leave_told checks them). */
static Json *expect(WcSocket *w, const char *want, const char *msg)
{
    Json *j = next_frame(w);
    while (strcmp(want, "seats") != 0 && str_of(j, "type") &&
           strcmp(str_of(j, "type"), "seats") == 0) {
        json_free(j);
        j = next_frame(w);
    }
    const char *type = str_of(j, "type");
    if (!type || strcmp(type, want) != 0)
        fail_msg("wanted a %s frame, got %.*s", want, (int)j->len, j->text);
    if (msg && (!str_of(j, "message") || !strstr(str_of(j, "message"), msg)))
        fail_msg("wanted an error with \"%s\", got %.*s", msg, (int)j->len, j->text);
    return j;
}

static void join(WcSocket *w, int port, const char *game, const char *token)
{
    assert_int_equal(wc_ws_open(w, port, "/ws"), 0);
    char buf[256];
    if (token)
        snprintf(buf, sizeof buf, "{\"type\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}",
                 game, token);
    else
        snprintf(buf, sizeof buf, "{\"type\":\"hello\",\"game\":\"%s\"}", game);
    assert_int_equal(wc_ws_send(w, buf, strlen(buf)), 0);
}

static void act(WcSocket *w, const char *text, int ply)
{
    char buf[512];
    snprintf(buf, sizeof buf, "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}", text, ply);
    assert_int_equal(wc_ws_send(w, buf, strlen(buf)), 0);
}

static int ply_of(const Json *state)
{
    return (int)json_get(state, "ply")->num;
}

/* ---- HTTP --------------------------------------------------------------- */

/* issue 21: the API lists every variant; bad requests get their status and
 * a message naming the problem. */
static void test_http_api(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    int games = web_game_count(s);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(wc_http(port, "GET", "/api/variants", NULL, 0, &out), 200);
    Json *v = parse(sb_str(&out));
    int n = 0;
    for (n = 0; variant_registry[n]; n++)
        assert_string_equal(str_of(json_at(json_get(v, "variants"), n), "name"),
                            variant_registry[n]->name);
    assert_int_equal(json_get(v, "variants")->count, n);
    const Json *ech = json_at(json_get(v, "variants"), 3);
    assert_string_equal(str_of(ech, "name"), "echiquete");
    assert_int_equal(json_get(ech, "seats")->count, 2); /* 2 or 3 seats */
    assert_true(json_get(v, "scripts")->count >= 1);     /* scripts/ of the tree */
    json_free(v);

    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/nothing", NULL, 0, &out), 404);
    assert_non_null(strstr(sb_str(&out), "\"error\""));
    sb_reset(&out);
    assert_int_equal(wc_http(port, "POST", "/api/games", "{\"variant\":", 11, &out), 400);
    assert_non_null(strstr(sb_str(&out), "malformed JSON"));
    sb_reset(&out);
    const char *bad = "{\"variant\":\"draughts\"}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "unknown variant 'draughts'"));
    /* the engine's own message for a bad parameter */
    sb_reset(&out);
    bad = "{\"variant\":\"orthodox\",\"params\":{\"castling\":\"sometimes\"}}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "castling"));
    sb_reset(&out);
    bad = "{\"variant\":\"orthodox\",\"players\":[{\"seat\":\"black\",\"bot\":\"clever\"}]}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "clever"));
    sb_reset(&out);
    bad = "{\"variant\":\"orthodox\",\"rules\":[\"../../etc/passwd\"]}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "no script"));
    /* a body over 64 KiB: 413, nothing made */
    size_t big = 70 * 1024;
    char *huge = malloc(big);
    memset(huge, ' ', big);
    huge[0] = '{';
    huge[big - 1] = '}';
    sb_reset(&out);
    assert_int_equal(wc_http(port, "POST", "/api/games", huge, big, &out), 413);
    free(huge);
    assert_int_equal(web_game_count(s), games);
    /* GET /api/games lists no token */
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/games", NULL, 0, &out), 200);
    assert_non_null(strstr(sb_str(&out), str_of(g, "game")));
    assert_null(strstr(sb_str(&out), seat_token(g, 0)));
    assert_null(strstr(sb_str(&out), seat_token(g, 1)));
    assert_int_equal(strlen(seat_token(g, 0)), 32); /* 128 bits */
    json_free(g);
    sb_free(&out);
}

/* issue 21: /api/variants names the seats of every number of sides and
 * seats a variant allows, as the engine names them (Échiqueté's third seat
 * is "merged", Tile's colours), and every name it lists is one POST
 * /api/games takes, in the order the game gives its seats. */
static void test_seat_names(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    StrBuf out = STRBUF_INIT, body = STRBUF_INIT;
    assert_int_equal(wc_http(port, "GET", "/api/variants", NULL, 0, &out), 200);
    Json *v = parse(sb_str(&out));
    int combos = 0;
    for (const Json *var = json_get(v, "variants")->child; var; var = var->next) {
        const Json *list = json_get(var, "seat_names");
        assert_non_null(list);
        assert_true(list->count >= 1);
        for (const Json *c = list->child; c; c = c->next, combos++) {
            const Json *names = json_get(c, "names");
            int sides = (int)json_get(c, "sides")->num, seats = (int)json_get(c, "seats")->num;
            assert_int_equal(names->count, seats);
            sb_reset(&body);
            /* as the lobby sends them: a count only where there is a choice */
            const Json *sd = json_get(var, "sides");
            sb_printf(&body, "{\"variant\":\"%s\",", str_of(var, "name"));
            if (json_get(sd, "max")->num > json_get(sd, "min")->num)
                sb_printf(&body, "\"sides\":%d,", sides);
            if (json_get(var, "seats")->count > 1)
                sb_printf(&body, "\"seats\":%d,", seats);
            sb_puts(&body, "\"players\":[");
            for (const Json *n = names->child; n; n = n->next)
                sb_printf(&body, "%s{\"seat\":\"%s\",\"bot\":null}", n == names->child ? "" : ",",
                          n->str);
            sb_puts(&body, "]}");
            Json *g = create(port, sb_str(&body));
            const Json *got = json_get(g, "seats");
            assert_int_equal(got->count, seats);
            for (int k = 0; k < seats; k++)
                assert_string_equal(str_of(json_at(got, k), "seat"), json_at(names, k)->str);
            json_free(g);
        }
        if (strcmp(str_of(var, "name"), "echiquete") == 0) {
            const Json *three = json_get(json_at(list, list->count - 1), "names");
            assert_int_equal(three->count, 3);
            assert_string_equal(json_at(three, 2)->str, "merged");
        }
        if (strcmp(str_of(var, "name"), "tile") == 0)
            assert_int_equal(list->count, 5); /* 2 to 6 sides */
    }
    assert_true(combos >= 10);
    json_free(v);
    sb_free(&out);
    sb_free(&body);
}

/* ---- Playing ------------------------------------------------------------ */

/* The first play action of the seat's legal list in a state frame. */
static const char *first_action(const Json *st)
{
    const Json *legal = json_get(st, "legal");
    const Json *acts = legal && legal->type == JSON_OBJECT ? json_get(legal, "actions") : NULL;
    return acts && acts->count ? json_at(acts, 0)->str : NULL;
}

/* issue 21: a game of every variant made through the API, six plies played
 * through the seats' sockets; every viewer gets one state per change, the
 * spectator's with no legal list. */
static void test_every_variant(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    /* every variant, then Échiqueté's third seat, Tile's six colours and a
     * house rule */
    static const char *const MORE[][2] = {
        {"echiquete", "\"seats\":3"},
        {"tile", "\"sides\":6"},
        {"orthodox", "\"rules\":[\"king_of_the_hill.lua\"],\"params\":{\"castling\":false}"},
    };
    int nv = 0;
    while (variant_registry[nv])
        nv++;
    for (int k = 0; k < nv + (int)ARRAY_LEN(MORE); k++) {
        const VariantOps *v = k < nv ? variant_registry[k] : tu_variant(MORE[k - nv][0]);
        char body[256];
        snprintf(body, sizeof body, "{\"variant\":\"%s\",\"seed\":\"7\"%s%s}", v->name,
                 k < nv ? "" : ",", k < nv ? "" : MORE[k - nv][1]);
        Json *g = create(port, body);
        if (k == nv)
            assert_int_equal(json_get(g, "seats")->count, 3);
        if (k == nv + 1)
            assert_int_equal(json_get(g, "seats")->count, 6);
        const char *id = str_of(g, "game");
        int nseats = json_get(g, "seats")->count;
        WcSocket seat[MAX_SEATS], spec;
        Json *st[MAX_SEATS];
        for (int i = 0; i < nseats; i++) {
            join(&seat[i], port, id, seat_token(g, i));
            st[i] = expect(&seat[i], "state", NULL);
            assert_string_equal(str_of(st[i], "seat"), str_of(json_at(json_get(g, "seats"), i),
                                                              "seat"));
            assert_string_equal(str_of(st[i], "variant"), v->name);
        }
        join(&spec, port, id, NULL);
        Json *sp = expect(&spec, "state", NULL);
        assert_int_equal(json_get(sp, "legal")->type, JSON_NULL);
        assert_int_equal(json_get(sp, "seat")->type, JSON_NULL);
        json_free(sp);
        for (int ply = 0; ply < 6; ply++) {
            const Json *status = json_get(st[0], "status");
            const char *to_act = str_of(status, "to_act");
            if (!to_act)
                break;
            int who = -1;
            for (int i = 0; i < nseats; i++)
                if (strcmp(str_of(st[i], "seat"), to_act) == 0)
                    who = i;
            assert_true(who >= 0);
            const char *a = first_action(st[who]);
            assert_non_null(a);
            char text[256];
            snprintf(text, sizeof text, "%s", a);
            act(&seat[who], text, ply_of(st[who]));
            for (int i = 0; i < nseats; i++) {
                json_free(st[i]);
                st[i] = expect(&seat[i], "state", NULL);
                assert_int_equal(ply_of(st[i]), ply + 1 + (ply_of(st[i]) - ply - 1));
                assert_true(ply_of(st[i]) > ply);
            }
            sp = expect(&spec, "state", NULL);
            assert_int_equal(ply_of(sp), ply_of(st[0]));
            json_free(sp);
        }
        for (int i = 0; i < nseats; i++) {
            json_free(st[i]);
            wc_ws_close(&seat[i]);
        }
        wc_ws_close(&spec);
        json_free(g);
    }
}

/* issue 21: refusals carry the engine's message and change nothing; a
 * forged token, a spectator acting, a stale ply, a batch command passed as
 * an action are refused. */
static void test_refusals(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    const char *id = str_of(g, "game");
    WcSocket w, b, spec, forged;
    join(&w, port, id, seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    join(&b, port, id, seat_token(g, 1));
    json_free(expect(&b, "state", NULL));
    join(&spec, port, id, NULL);
    json_free(expect(&spec, "state", NULL));

    /* the engine's message, as the batch protocol gives it */
    Game *ref = tu_orthodox(NULL);
    Error e;
    assert_int_equal(game_play(ref, 0, "e2e5", &e), -1);
    act(&w, "e2e5", 0);
    json_free(expect(&w, "error", e.msg));
    assert_int_equal(game_play(ref, 1, "e7e5", &e), -1);
    act(&b, "e7e5", 0); /* out of turn */
    json_free(expect(&b, "error", e.msg));
    game_free(ref);
    act(&spec, "e2e4", 0);
    json_free(expect(&spec, "error", "spectator"));
    act(&w, "e2e4", 3);
    json_free(expect(&w, "error", "stale: the game moved on (ply 0, you saw 3)"));
    act(&w, "save /tmp/x.rec", 0);
    json_free(expect(&w, "error", "not an action"));
    act(&w, "as black resign", 0);
    json_free(expect(&w, "error", "not an action"));
    const char *nojson = "{\"type\":\"act\",";
    wc_ws_send(&w, nojson, strlen(nojson));
    json_free(expect(&w, "error", "malformed JSON"));
    wc_ws_send(&w, "[1,2]", 5);
    json_free(expect(&w, "error", "one JSON object"));
    wc_ws_send(&w, "{\"type\":\"dance\"}", 16);
    json_free(expect(&w, "error", "unknown frame type 'dance'"));
    wc_ws_send(&w, "{\"type\":\"ping\"}", 15);
    json_free(expect(&w, "pong", NULL));
    wc_ws_send_op(&w, 2, 1, "\x01\x02", 2);
    json_free(expect(&w, "error", "only text frames"));

    join(&forged, port, id, "00000000000000000000000000000000");
    json_free(expect(&forged, "error", "this token is no seat's"));
    wc_ws_close(&forged);
    join(&forged, port, "0123456789abcdef", NULL);
    json_free(expect(&forged, "error", "no game '0123456789abcdef'"));
    wc_ws_close(&forged);

    /* nothing changed: ply 0, and the legal move plays */
    act(&w, "e2e4", 0);
    Json *a = expect(&w, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    json_free(a);
    a = expect(&b, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    assert_string_equal(str_of(json_at(json_get(a, "messages"), 0), "text"), "white plays e4");
    json_free(a);
    a = expect(&spec, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    json_free(a);
    wc_ws_close(&w);
    wc_ws_close(&b);
    wc_ws_close(&spec);
    json_free(g);
}

/* issue 21: two sockets on one seat both get every state; a closed one
 * reconnects with the same link and resumes. */
static void test_two_tabs_reconnect(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    const char *id = str_of(g, "game");
    WcSocket w1, w2, b;
    join(&w1, port, id, seat_token(g, 0));
    json_free(expect(&w1, "state", NULL));
    join(&w2, port, id, seat_token(g, 0));
    json_free(expect(&w2, "state", NULL));
    join(&b, port, id, seat_token(g, 1));
    json_free(expect(&b, "state", NULL));
    act(&w1, "e2e4", 0);
    json_free(expect(&w1, "state", NULL));
    Json *a = expect(&w2, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    json_free(a);
    json_free(expect(&b, "state", NULL));
    /* the second tab plays on */
    wc_ws_close(&b);
    act(&w2, "d2d4", 1);
    json_free(expect(&w2, "error", NULL)); /* not white's turn */
    join(&b, port, id, seat_token(g, 1));
    a = expect(&b, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    assert_string_equal(str_of(json_get(a, "status"), "to_act"), "black");
    json_free(a);
    act(&b, "e7e5", 1);
    json_free(expect(&b, "state", NULL));
    a = expect(&w1, "state", NULL);
    assert_int_equal(ply_of(a), 2);
    json_free(a);
    a = expect(&w2, "state", NULL);
    assert_int_equal(ply_of(a), 2);
    json_free(a);
    wc_ws_close(&w1);
    wc_ws_close(&w2);
    wc_ws_close(&b);
    json_free(g);
}

static void nothing_before_pong(WcSocket *w);

/* The "takeback" member of a state frame as "by actions waiting/agreed"
 * ("by 2 black/" ...), or "null". */
static const char *takeback_of(const Json *f, char *buf, size_t n)
{
    const Json *t = json_get(f, "takeback");
    assert_non_null(t);
    if (t->type == JSON_NULL)
        return "null";
    StrBuf b = STRBUF_INIT;
    sb_printf(&b, "%s %d ", str_of(t, "by"), (int)json_get(t, "actions")->num);
    for (int agreed = 0; agreed < 2; agreed++) {
        const Json *l = json_get(t, agreed ? "agreed" : "waiting");
        for (const Json *m = l->child; m; m = m->next)
            sb_printf(&b, "%s%s", m == l->child ? "" : ",", m->str);
        if (!agreed)
            sb_putc(&b, '/');
    }
    snprintf(buf, n, "%s", sb_str(&b));
    sb_free(&b);
    return buf;
}

/* The next state frame of each socket of v (n of them): its ply and
 * takeback member must be ply and tb. */
static void states_are(WcSocket *v, int n, int ply, const char *tb)
{
    for (int i = 0; i < n; i++) {
        char buf[128];
        Json *f = expect(&v[i], "state", NULL);
        assert_int_equal(ply_of(f), ply);
        assert_string_equal(takeback_of(f, buf, sizeof buf), tb);
        json_free(f);
    }
}

/* issue 21: undo with the consent the variant requires.  An undo that
 * takes back another person's action is asked of that person (a takeback
 * offer in every viewer's state frame) and made only once they accept;
 * declined, withdrawn or ended by a new action it is gone; the asker's
 * own actions need no consent.  `undo` alone goes back to the asker's last
 * turn. */
static void test_takeback_asked_and_answered(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    const char *id = str_of(g, "game");
    WcSocket v[3]; /* white, black, a spectator */
    WcSocket *w = &v[0], *b = &v[1];
    join(w, port, id, seat_token(g, 0));
    json_free(expect(w, "state", NULL));
    join(b, port, id, seat_token(g, 1));
    json_free(expect(b, "state", NULL));
    join(&v[2], port, id, NULL);
    json_free(expect(&v[2], "state", NULL));
    act(w, "e2e4", 0);
    states_are(v, 3, 1, "null");
    act(b, "e7e5", 1);
    states_are(v, 3, 2, "null");
    /* white goes back to its last turn: its e4 and black's e5, asked */
    act(w, "undo", 2);
    states_are(v, 3, 2, "white 2 black/");
    act(w, "takeback accept", 2);
    json_free(expect(w, "error", "you asked it: the others answer"));
    act(w, "undo 1", 2);
    json_free(expect(w, "error", "your takeback of 2 actions waits for black; takeback "
                                 "cancel withdraws it"));
    act(b, "undo 2", 2); /* white's e4 too: a second offer is not made */
    json_free(expect(b, "error", "white asks to take back 2 actions: answer it first"));
    act(b, "takeback cancel", 2);
    json_free(expect(b, "error", "only white, who asked it, can cancel it"));
    act(b, "takeback maybe", 2);
    json_free(expect(b, "error", "say takeback accept or takeback decline"));
    act(&v[2], "takeback accept", 2);
    json_free(expect(&v[2], "error", "a spectator cannot act"));
    /* declined: gone, and every viewer is told */
    act(b, "takeback decline", 2);
    states_are(v, 3, 2, "null");
    for (int i = 0; i < 3; i++)
        json_free(expect(&v[i], "notice", "black declined the takeback white asked"));
    act(b, "takeback accept", 2);
    json_free(expect(b, "error", "nobody asks to take back actions now"));
    /* asked again, accepted: taken back */
    act(w, "undo 1", 2);
    states_are(v, 3, 2, "white 1 black/");
    act(b, "takeback accept", 2);
    states_are(v, 3, 1, "null");
    /* black's own move needs nobody's consent; nor does white's */
    act(b, "e7e6", 1);
    states_are(v, 3, 2, "null");
    act(b, "undo", 2);
    states_are(v, 3, 1, "null");
    act(b, "e7e6", 1);
    states_are(v, 3, 2, "null");
    act(w, "d2d4", 2);
    states_are(v, 3, 3, "null");
    /* a new action ends a takeback asked: black asks, then plays on */
    act(b, "undo", 3);
    states_are(v, 3, 3, "black 2 white/");
    act(b, "d7d5", 3);
    states_are(v, 3, 4, "null");
    act(w, "takeback accept", 4);
    json_free(expect(w, "error", "nobody asks"));
    /* withdrawn by the asker: gone, and every viewer is told */
    act(w, "undo 2", 4);
    states_are(v, 3, 4, "white 2 black/");
    act(w, "takeback cancel", 4);
    states_are(v, 3, 4, "null");
    for (int i = 0; i < 3; i++)
        json_free(expect(&v[i], "notice", "white withdrew the takeback"));
    /* black's own d5 needs no consent, and taking it back ends white's */
    act(w, "undo 2", 4);
    states_are(v, 3, 4, "white 2 black/");
    act(b, "undo 1", 4);
    states_are(v, 3, 3, "null");
    /* a stale answer is refused like any stale action */
    act(b, "d7d5", 3);
    states_are(v, 3, 4, "null");
    act(w, "undo", 4);
    states_are(v, 3, 4, "white 2 black/");
    act(b, "takeback accept", 3);
    json_free(expect(b, "error", "stale: the game moved on (ply 4, you saw 3)"));
    act(b, "takeback accept", 4);
    states_are(v, 3, 2, "null");
    for (int i = 0; i < 3; i++)
        wc_ws_close(&v[i]);
    json_free(g);
}

/* issue 21: with three persons a takeback waits for each one whose action
 * it takes back, the others' answers shown as they come. */
static void test_takeback_of_three(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"tile\",\"sides\":3,\"seed\":\"4\"}");
    const char *id = str_of(g, "game");
    WcSocket v[3];
    Json *st[3];
    for (int i = 0; i < 3; i++) {
        join(&v[i], port, id, seat_token(g, i));
        st[i] = expect(&v[i], "state", NULL);
    }
    char names[3][16];
    for (int i = 0; i < 3; i++)
        snprintf(names[i], sizeof names[i], "%s", str_of(st[i], "seat"));
    for (int ply = 0; ply < 3; ply++) { /* each seat plays once, in turn */
        const char *to_act = str_of(json_get(st[0], "status"), "to_act");
        assert_string_equal(to_act, names[ply]);
        char text[256];
        snprintf(text, sizeof text, "%s", first_action(st[ply]));
        act(&v[ply], text, ply);
        for (int i = 0; i < 3; i++) {
            json_free(st[i]);
            st[i] = expect(&v[i], "state", NULL);
        }
    }
    char want[64], buf[128];
    act(&v[2], "undo 3", 3);
    snprintf(want, sizeof want, "%s 3 %s,%s/", names[2], names[0], names[1]);
    for (int i = 0; i < 3; i++) {
        json_free(st[i]);
        st[i] = expect(&v[i], "state", NULL);
        assert_string_equal(takeback_of(st[i], buf, sizeof buf), want);
    }
    act(&v[1], "takeback accept", 3);
    snprintf(want, sizeof want, "%s 3 %s/%s", names[2], names[0], names[1]);
    states_are(v, 3, 3, want);
    act(&v[0], "takeback accept", 3);
    states_are(v, 3, 0, "null");
    for (int i = 0; i < 3; i++) {
        json_free(st[i]);
        wc_ws_close(&v[i]);
    }
    json_free(g);
}

/* issue 21: a bot does not play while a takeback is asked (its move would
 * end the offer before the person asked could answer): with red a bot, 2 s
 * between its moves, black asks white to take back while red is to act;
 * red waits, and plays once white declines. */
static void test_takeback_holds_the_bot(void **state)
{
    (void)state; /* a server of its own: a bot that waits 2 s between moves */
    WebConfig cfg;
    web_config_defaults(&cfg);
    cfg.port = 0;
    cfg.quiet = 1;
    cfg.bot_delay_ms = 2000;
    Error e;
    WebServer *s = web_start(&cfg, &e);
    assert_non_null(s);
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"tile\",\"sides\":3,\"seed\":\"4\",\"players\":["
                           "{\"seat\":\"red\",\"bot\":\"random\"}]}");
    const char *id = str_of(g, "game");
    WcSocket v[2];
    Json *st[2];
    for (int i = 0; i < 2; i++) {
        join(&v[i], port, id, seat_token(g, i));
        st[i] = expect(&v[i], "state", NULL);
    }
    /* white, black, the bot, white, black: the bot is to act again */
    for (int ply = 0; ply < 5; ply++) {
        if (ply % 3 != 2) {
            char text[256];
            snprintf(text, sizeof text, "%s", first_action(st[ply % 3]));
            act(&v[ply % 3], text, ply);
        }
        for (int i = 0; i < 2; i++) {
            json_free(st[i]);
            st[i] = expect(&v[i], "state", NULL);
            assert_int_equal(ply_of(st[i]), ply + 1);
        }
    }
    assert_string_equal(str_of(json_get(st[0], "status"), "to_act"), "red");
    act(&v[1], "undo 2", 5);
    states_are(v, 2, 5, "black 2 white/");
    nanosleep(&(struct timespec){2, 500 * 1000 * 1000}, NULL); /* past the bot's time */
    nothing_before_pong(&v[0]);
    act(&v[0], "takeback decline", 5);
    states_are(v, 2, 5, "null");
    for (int i = 0; i < 2; i++)
        json_free(expect(&v[i], "notice", "white declined the takeback black asked"));
    states_are(v, 2, 6, "null"); /* the bot plays now */
    for (int i = 0; i < 2; i++) {
        json_free(st[i]);
        wc_ws_close(&v[i]);
    }
    json_free(g);
    web_stop(s);
}

/* issue 21: a bot agrees to a takeback at once (`undo` takes back the
 * person's move and the bot's answer); the engine's own limits refuse a
 * takeback before anyone is asked, with its own message (Les Échecs
 * Masqués: only one's own latest actions, docs/MASQUES.md), and the other
 * seat hears nothing of it. */
static void test_takeback_bot_and_refusal(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\",\"players\":[{\"seat\":\"black\","
                           "\"bot\":\"greedy\"}]}");
    WcSocket w, b;
    join(&w, port, str_of(g, "game"), seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    act(&w, "e2e4", 0);
    for (int ply = 0; ply < 2;) { /* White's move, then the bot's */
        Json *a = expect(&w, "state", NULL);
        ply = ply_of(a);
        json_free(a);
    }
    act(&w, "undo", 2);
    states_are(&w, 1, 0, "null");
    wc_ws_close(&w);
    json_free(g);

    g = create(port, "{\"variant\":\"masques\",\"seed\":\"3\"}");
    const char *id = str_of(g, "game");
    join(&w, port, id, seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    join(&b, port, id, seat_token(g, 1));
    json_free(expect(&b, "state", NULL));
    act(&w, "undo", 0);
    json_free(expect(&w, "error", "white has played no action yet"));
    act(&w, "standard", 0);
    json_free(expect(&w, "state", NULL));
    json_free(expect(&b, "state", NULL));
    act(&b, "standard", 1);
    json_free(expect(&b, "state", NULL));
    json_free(expect(&w, "state", NULL));
    act(&w, "undo", 2);
    json_free(expect(&w, "error", "white may take back only its own actions, and black "
                                  "acted after them (in masques a seat may not undo what "
                                  "another seat did)"));
    act(&w, "undo 1", 2);
    json_free(expect(&w, "error", "white may take back only its own actions"));
    nothing_before_pong(&b); /* nothing was asked of black */
    act(&b, "undo", 2); /* black's own latest action: no consent needed */
    Json *a = expect(&b, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    json_free(a);
    json_free(expect(&w, "state", NULL));
    wc_ws_close(&w);
    wc_ws_close(&b);
    json_free(g);
}

/* issue 21: the server stopped and started again on the same --data keeps
 * every game, its moves and its tokens. */
static void test_restart(void **state)
{
    (void)state; /* a server of its own */
    char dir[] = "/tmp/chessvar-web-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start(dir);
    int port = web_port(s);
    /* a game under a house rule comes back with its rule (its record
     * carries the script) */
    Json *h = create(port, "{\"variant\":\"orthodox\",\"rules\":[\"king_of_the_hill.lua\"]}");
    char hid[32];
    snprintf(hid, sizeof hid, "%s", str_of(h, "game"));
    json_free(h);
    Json *g = create(port, "{\"variant\":\"masques\",\"seed\":\"5\"}");
    char id[32], tw[40], tb[40];
    snprintf(id, sizeof id, "%s", str_of(g, "game"));
    snprintf(tw, sizeof tw, "%s", seat_token(g, 0));
    snprintf(tb, sizeof tb, "%s", seat_token(g, 1));
    json_free(g);
    WcSocket w, b;
    join(&w, port, id, tw);
    json_free(expect(&w, "state", NULL));
    act(&w, "random", 0);
    json_free(expect(&w, "state", NULL));
    join(&b, port, id, tb);
    json_free(expect(&b, "state", NULL));
    act(&b, "standard", 1);
    json_free(expect(&b, "state", NULL));
    json_free(expect(&w, "state", NULL));
    act(&w, "e2e4", 2);
    Json *before = expect(&w, "state", NULL);
    char *view_before = strndup(json_get(before, "view")->text, json_get(before, "view")->len);
    json_free(before);
    wc_ws_close(&w);
    wc_ws_close(&b);
    /* every change was written when it happened: the stop writes nothing
     * again (the record keeps its file, the one the last move made) */
    char rec[128];
    struct stat st0, st1;
    snprintf(rec, sizeof rec, "%s/%s.rec", dir, id);
    assert_int_equal(stat(rec, &st0), 0);
    web_stop(s);
    assert_int_equal(stat(rec, &st1), 0);
    assert_true(st0.st_ino == st1.st_ino);

    s = start(dir);
    port = web_port(s);
    assert_int_equal(web_game_count(s), 2);
    StrBuf list = STRBUF_INIT;
    assert_int_equal(wc_http(port, "GET", "/api/games", NULL, 0, &list), 200);
    assert_non_null(strstr(sb_str(&list), hid));
    sb_free(&list);
    join(&w, port, id, tw);
    Json *after = expect(&w, "state", NULL);
    assert_int_equal(ply_of(after), 3);
    const Json *v = json_get(after, "view");
    assert_int_equal(v->len, strlen(view_before));
    assert_memory_equal(v->text, view_before, v->len); /* the hidden arrangement too */
    json_free(after);
    free(view_before);
    join(&b, port, id, tb);
    json_free(expect(&b, "state", NULL));
    act(&b, "e7e5", 3);
    Json *a = expect(&b, "state", NULL);
    assert_true(ply_of(a) >= 4);
    json_free(a);
    wc_ws_close(&w);
    wc_ws_close(&b);
    web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* issue 21: bots play their seats in the server; a spectator watches a
 * whole game of two bots to its end. */
static void test_bots(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\",\"seed\":\"11\",\"players\":["
                           "{\"seat\":\"white\",\"bot\":\"greedy\"},"
                           "{\"seat\":\"black\",\"bot\":\"random\"}]}");
    WcSocket spec;
    join(&spec, port, str_of(g, "game"), NULL);
    int frames = 0, over = 0, last = -1;
    while (!over && frames < 3000) {
        Json *f = expect(&spec, "state", NULL);
        frames++;
        assert_true(ply_of(f) > last);
        last = ply_of(f);
        over = json_get(json_get(json_get(f, "status"), "status"), "over")->type == JSON_TRUE;
        json_free(f);
    }
    assert_true(over);
    assert_true(last > 0);
    wc_ws_close(&spec);
    json_free(g);
}

/* The "connected" flag of seat k in a frame's seats list. */
static int connected(const Json *f, int k)
{
    return json_get(json_at(json_get(f, "seats"), k), "connected")->type == JSON_TRUE;
}

/* The next frame on w is a pong: nothing else came before it. */
static void nothing_before_pong(WcSocket *w)
{
    assert_int_equal(wc_ws_send(w, "{\"type\":\"ping\"}", 15), 0);
    Json *f = next_frame(w);
    assert_string_equal(str_of(f, "type"), "pong");
    json_free(f);
}

/* issue 21: when a seat comes online or goes away, every other viewer of
 * the game is told at once (a seats frame), not at the next move; a
 * spectator or a second tab of a seat already there changes nothing and
 * sends nothing. */
static void test_join_and_leave_told(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    const char *id = str_of(g, "game");
    WcSocket w, b, b2, spec;
    join(&spec, port, id, NULL);
    Json *f = expect(&spec, "state", NULL);
    assert_false(connected(f, 0));
    json_free(f);
    join(&w, port, id, seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    f = expect(&spec, "seats", NULL);
    assert_string_equal(str_of(f, "game"), id);
    assert_true(connected(f, 0));
    assert_false(connected(f, 1));
    json_free(f);
    join(&b, port, id, seat_token(g, 1));
    json_free(expect(&b, "state", NULL));
    for (WcSocket *v = &w; v; v = v == &w ? &spec : NULL) {
        f = expect(v, "seats", NULL);
        assert_true(connected(f, 0));
        assert_true(connected(f, 1));
        json_free(f);
    }
    nothing_before_pong(&b); /* it is not told of its own coming */
    /* a second tab of black: black was there already */
    join(&b2, port, id, seat_token(g, 1));
    json_free(expect(&b2, "state", NULL));
    nothing_before_pong(&w);
    nothing_before_pong(&b);
    /* black's first tab goes: its second is still there */
    wc_ws_close(&b);
    nothing_before_pong(&spec);
    /* a spectator comes: no seat changed */
    WcSocket spec2;
    join(&spec2, port, id, NULL);
    json_free(expect(&spec2, "state", NULL));
    nothing_before_pong(&w);
    /* black's last tab goes: the others learn it is away */
    wc_ws_close(&b2);
    for (WcSocket *v = &w; v; v = v == &w ? &spec : v == &spec ? &spec2 : NULL) {
        f = expect(v, "seats", NULL);
        assert_true(connected(f, 0));
        assert_false(connected(f, 1));
        json_free(f);
    }
    wc_ws_close(&w);
    f = expect(&spec, "seats", NULL);
    assert_false(connected(f, 0));
    json_free(f);
    wc_ws_close(&spec);
    wc_ws_close(&spec2);
    json_free(g);
}

/* issue 21: a bot that fails is said: every viewer gets a notice with the
 * engine's message (here a house rule whose veto fails in a search, below
 * the game), the seats list says the seat is stuck (for a page that comes
 * later), the bot is not tried again until the game changes, and after an
 * undo it tries again when its turn comes back (and is said again). */
static void test_bot_failure_told(void **state)
{
    (void)state; /* a server of its own, with its own house rules */
    char dir[] = "/tmp/chessvar-web-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/deep.lua", dir);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("rule {\n  name = \"Deep\",\n  variants = {\"orthodox\"},\n"
          "  veto = function(game, action)\n"
          "    if game:move_number() > #game:history() + 1 then error(\"no search here\") end\n"
          "  end,\n}\n", fp);
    fclose(fp);
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.bot_delay_ms = 0;
    c.scripts = dir;
    Error e;
    WebServer *s = web_start(&c, &e);
    assert_non_null(s);
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\",\"rules\":[\"deep.lua\"],\"players\":["
                           "{\"seat\":\"black\",\"bot\":\"search:200\"}]}");
    const char *id = str_of(g, "game");
    WcSocket w, spec;
    join(&w, port, id, seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    join(&spec, port, id, NULL);
    json_free(expect(&spec, "state", NULL));
    for (int round = 0; round < 2; round++) {
        act(&w, "e2e4", 0);
        for (WcSocket *v = &w; v; v = v == &w ? &spec : NULL) {
            json_free(expect(v, "state", NULL)); /* e4 */
            Json *n = expect(v, "notice", "the bot of black (search:200) failed");
            assert_string_equal(str_of(n, "seat"), "black");
            assert_non_null(strstr(str_of(n, "message"), "no search here"));
            json_free(n);
        }
        /* the seats list says it, for a page that comes now */
        WcSocket late;
        join(&late, port, id, NULL);
        Json *f = expect(&late, "state", NULL);
        assert_int_equal(ply_of(f), 1);
        const char *stuck = str_of(json_at(json_get(f, "seats"), 1), "stuck");
        assert_non_null(stuck);
        assert_non_null(strstr(stuck, "no search here"));
        assert_null(str_of(json_at(json_get(f, "seats"), 0), "stuck"));
        json_free(f);
        wc_ws_close(&late);
        /* not tried again at this ply: nothing more comes */
        nanosleep(&(struct timespec){0, 300 * 1000 * 1000}, NULL);
        nothing_before_pong(&spec);
        if (round == 0) { /* white takes its move back; the bot is not to act */
            act(&w, "undo", 1);
            f = expect(&w, "state", NULL);
            assert_int_equal(ply_of(f), 0);
            assert_null(str_of(json_at(json_get(f, "seats"), 1), "stuck"));
            json_free(f);
            json_free(expect(&spec, "state", NULL));
        }
    }
    wc_ws_close(&w);
    wc_ws_close(&spec);
    json_free(g);
    web_stop(s);
    unlink(path);
    rmdir(dir);
}

/* issue 21: a viewer that stops reading (its buffers full) does not stop
 * its game for the others: a bots' game goes on to its end while one
 * spectator reads nothing, and another game's bots play meanwhile. */
static void test_slow_reader(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"tile\",\"sides\":6,\"seed\":\"3\",\"players\":["
                           "{\"seat\":\"white\",\"bot\":\"random\"},"
                           "{\"seat\":\"black\",\"bot\":\"random\"},"
                           "{\"seat\":\"red\",\"bot\":\"random\"},"
                           "{\"seat\":\"green\",\"bot\":\"random\"},"
                           "{\"seat\":\"blue\",\"bot\":\"random\"},"
                           "{\"seat\":\"yellow\",\"bot\":\"random\"}]}");
    WcSocket mute, reader;
    assert_int_equal(wc_ws_open_small(&mute, port, "/ws", 2048), 0);
    char hello[128];
    snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\"}", str_of(g, "game"));
    wc_ws_send(&mute, hello, strlen(hello));
    join(&reader, port, str_of(g, "game"), NULL);
    /* the game of six bots goes on to its end for the reader while the
     * mute one is cut off (it was waited for 10 s at every frame, so this
     * loop ran for minutes); how long the one wait lasts is not a test's
     * to say */
    int over = 0, frames = 0;
    time_t start = time(NULL);
    while (!over) {
        /* a hang guard, not a speed test: the game takes seconds, and
         * waiting for the mute one at every frame took minutes */
        if (time(NULL) - start > 60)
            fail_msg("the game stalled: %d frames in a minute, a mute client holds it up",
                     frames);
        Json *f = expect(&reader, "state", NULL);
        frames++;
        over = json_get(json_get(json_get(f, "status"), "status"), "over")->type == JSON_TRUE;
        json_free(f);
    }
    assert_true(frames > 50);
    /* the server stopped writing to the mute one: read now, it holds only
     * the frames that were in flight when it was cut off, not the game */
    int muted = 0, op = 0;
    for (char *p; (p = wc_ws_recv(&mute, 2000, &op)) != NULL; free(p))
        muted += op == 1;
    if (muted >= frames)
        fail_msg("the mute client got %d frames of %d: it was never cut off", muted, frames);
    wc_ws_close(&mute);
    wc_ws_close(&reader);
    json_free(g);
}

/* issue 21: frames go out at once: the server's sockets have Nagle's
 * algorithm off (civetweb writes a frame's header and payload apart, and
 * the payload waited 40 ms for the client's delayed ACK).  How long a
 * round trip takes is make bench's to say, not a test's. */
static void test_frames_without_delay(void **state)
{
    WebServer *s = *state;
    assert_string_equal(web_option(s, "tcp_nodelay"), "1");
    WcSocket w;
    assert_int_equal(wc_ws_open(&w, web_port(s), "/ws"), 0);
    for (int i = 0; i < 5; i++) {
        wc_ws_send(&w, "{\"type\":\"ping\"}", 15);
        json_free(expect(&w, "pong", NULL));
    }
    wc_ws_close(&w);
}

/* ---- Garbage ------------------------------------------------------------ */

/* issue 21: a huge frame, a fragmented one and a flood each get an error
 * frame and the connection closed; the server goes on serving. */
static void test_garbage(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    const char *id = str_of(g, "game");
    WcSocket w;

    join(&w, port, id, NULL);
    json_free(expect(&w, "state", NULL));
    size_t big = 70 * 1024;
    char *huge = malloc(big);
    memset(huge, 'x', big);
    wc_ws_send(&w, huge, big);
    free(huge);
    json_free(expect(&w, "error", "more than the 65536 a frame may have"));
    assert_true(wc_ws_closed(&w, WAIT_MS));
    wc_ws_close(&w);

    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    wc_ws_send_op(&w, 1, 0, "{\"type\":", 8);
    json_free(expect(&w, "error", "fragmented"));
    assert_true(wc_ws_closed(&w, WAIT_MS));
    wc_ws_close(&w);

    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    /* 200 at once: even across the turn of a second, one second gets
     * more than 50 */
    for (int i = 0; i < 200; i++)
        wc_ws_send(&w, "{\"type\":\"ping\"}", 15);
    int errors = 0, pongs = 0;
    for (;;) {
        int op;
        char *t = wc_ws_recv(&w, WAIT_MS, &op);
        if (!t)
            break;
        errors += op == 1 && strstr(t, "too many frames") != NULL;
        pongs += op == 1 && strstr(t, "pong") != NULL;
        free(t);
        if (op == 8)
            break;
    }
    assert_int_equal(errors, 1);
    assert_true(pongs >= 50 && pongs <= 100);
    wc_ws_close(&w);

    /* random bytes on the socket, then still a server */
    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    unsigned char junk[512];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (unsigned char)(i * 37 + 11);
    wc_ws_send_raw(&w, junk, sizeof junk);
    wc_ws_closed(&w, 2000);
    wc_ws_close(&w);

    join(&w, port, id, seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    act(&w, "e2e4", 0);
    Json *a = expect(&w, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    json_free(a);
    wc_ws_close(&w);
    json_free(g);
}

/* issue 21: connections beyond the limit get an error frame and a close. */
static void test_connection_limit(void **state)
{
    (void)state;
    WebServer *s = start(NULL);
    int port = web_port(s);
    enum { N = 24 };
    WcSocket w[N + 1];
    for (int i = 0; i < N; i++) {
        assert_int_equal(wc_ws_open(&w[i], port, "/ws"), 0);
        wc_ws_send(&w[i], "{\"type\":\"ping\"}", 15);
        json_free(expect(&w[i], "pong", NULL));
    }
    assert_int_equal(wc_ws_open(&w[N], port, "/ws"), 0);
    json_free(expect(&w[N], "error", "its limit"));
    assert_true(wc_ws_closed(&w[N], WAIT_MS));
    wc_ws_close(&w[N]);
    wc_ws_close(&w[0]);
    /* a place freed is taken again (once the server has seen the close:
     * tried for up to 20 s) */
    int pong = 0;
    for (int tries = 0; tries < 100 && !pong; tries++) {
        nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
        assert_int_equal(wc_ws_open(&w[0], port, "/ws"), 0);
        wc_ws_send(&w[0], "{\"type\":\"ping\"}", 15);
        Json *f = next_frame(&w[0]);
        pong = strcmp(str_of(f, "type"), "pong") == 0;
        json_free(f);
        if (!pong)
            wc_ws_close(&w[0]);
    }
    assert_true(pong);
    for (int i = 0; i < N; i++)
        wc_ws_close(&w[i]);
    web_stop(s);
}

/* issue 21: games beyond the limit are refused with 503 and why. */
static void test_games_limit(void **state)
{
    (void)state;
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.max_games = 2;
    c.max_conns = 4;
    Error e;
    WebServer *s = web_start(&c, &e);
    assert_non_null(s);
    int port = web_port(s);
    json_free(create(port, "{\"variant\":\"orthodox\"}"));
    json_free(create(port, "{\"variant\":\"tile\"}"));
    StrBuf out = STRBUF_INIT;
    const char *body = "{\"variant\":\"orthodox\"}";
    assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 503);
    assert_non_null(strstr(sb_str(&out), "the server holds 2 games, its limit"));
    assert_int_equal(web_game_count(s), 2);
    sb_free(&out);
    web_stop(s);
}

/* ---- Games leave memory to make room (issue 21) --------------------------- */

/* A server of its own with at most max games and idle_ms, on data (or
 * none). */
static WebServer *start_small(const char *data, int max, long long idle_ms)
{
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.max_games = max;
    c.max_conns = 64;
    c.bot_delay_ms = 0;
    c.idle_ms = idle_ms;
    c.data = data;
    Error e;
    e.msg[0] = '\0';
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    return s;
}

/* A game of orthodox chess played to fool's mate by its two seats, who
 * then leave: its id and White's token into id and tok. */
static void fools_mate(int port, char *id, char *tok)
{
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    snprintf(id, 32, "%s", str_of(g, "game"));
    snprintf(tok, 40, "%s", seat_token(g, 0));
    WcSocket v[2];
    for (int i = 0; i < 2; i++) {
        join(&v[i], port, id, seat_token(g, i));
        json_free(expect(&v[i], "state", NULL));
    }
    static const char *const MOVES[] = {"f2f3", "e7e5", "g2g4", "d8h4"};
    for (int ply = 0; ply < 4; ply++) {
        act(&v[ply % 2], MOVES[ply], ply);
        for (int i = 0; i < 2; i++)
            json_free(expect(&v[i], "state", NULL));
    }
    for (int i = 0; i < 2; i++)
        wc_ws_close(&v[i]);
    json_free(g);
}

/* hello on game id with tok: the state frame's ply, or -1 with the error's
 * message in msg. */
static int hello_ply(int port, const char *id, const char *tok, char *msg, size_t n)
{
    WcSocket w;
    join(&w, port, id, tok);
    Json *f = next_frame(&w);
    while (strcmp(str_of(f, "type"), "seats") == 0) {
        json_free(f);
        f = next_frame(&w);
    }
    int ply = -1;
    if (strcmp(str_of(f, "type"), "state") == 0)
        ply = ply_of(f);
    else
        snprintf(msg, n, "%s", str_of(f, "message"));
    json_free(f);
    wc_ws_close(&w);
    return ply;
}

/* POST /api/games {"variant":"orthodox"}: its status, the answer in out. */
static int try_create(int port, StrBuf *out)
{
    const char *body = "{\"variant\":\"orthodox\"}";
    sb_reset(out);
    return wc_http(port, "POST", "/api/games", body, strlen(body), out);
}

/* Wait until no connection holds a game of s (a closed socket's close is
 * seen by the server a moment later). */
static void settle(void)
{
    nanosleep(&(struct timespec){0, 200 * 1000 * 1000}, NULL);
}

/* issue 21: a table full of games that are over still takes a new game:
 * the one over and least recently active leaves memory (without --data it
 * is gone, and its link says so), a game over with a viewer stays, and a
 * game still on is never dropped without --data (then 503 and why). */
static void test_full_table_drops_games_over(void **state)
{
    (void)state;
    WebServer *s = start_small(NULL, 3, 0);
    int port = web_port(s);
    char a[32], ta[40], b[32], tb[40], c[32], tc[40], msg[400];
    fools_mate(port, a, ta);
    fools_mate(port, b, tb);
    fools_mate(port, c, tc);
    assert_int_equal(web_game_count(s), 3);
    /* a board drawn lets the game go when it is drawn */
    StrBuf svg = STRBUF_INIT;
    char path[80];
    snprintf(path, sizeof path, "/api/diagram?game=%s", a);
    assert_int_equal(wc_http(port, "GET", path, NULL, 0, &svg), 200);
    sb_free(&svg);
    WcSocket watch; /* b has a viewer: it stays */
    join(&watch, port, b, NULL);
    json_free(expect(&watch, "state", NULL));
    settle();
    StrBuf out = STRBUF_INIT;
    assert_int_equal(try_create(port, &out), 201); /* a goes, the oldest over */
    assert_int_equal(try_create(port, &out), 201); /* c goes: b is watched */
    assert_int_equal(web_game_count(s), 3);
    assert_int_equal(hello_ply(port, b, tb, msg, sizeof msg), 4);
    for (const char *gone = a; gone; gone = gone == a ? c : NULL) {
        assert_int_equal(hello_ply(port, gone, NULL, msg, sizeof msg), -1);
        assert_non_null(strstr(msg, "was over and is gone: the server dropped it to make "
                                    "room for new games"));
    }
    /* b is watched, the two new games are on: no room, and why */
    assert_int_equal(try_create(port, &out), 503);
    assert_non_null(strstr(sb_str(&out), "the server holds 3 games, its limit, none of "
                                         "them over or idle"));
    assert_int_equal(hello_ply(port, "0123456789abcdef", NULL, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "no game '0123456789abcdef' on this server"));
    /* the viewer leaves: b is over and may go */
    wc_ws_close(&watch);
    settle();
    assert_int_equal(try_create(port, &out), 201);
    sb_free(&out);
    web_stop(s);
}

/* issue 21: with --data a game that left memory is read back from its
 * files when its link says hello (in play again, with its moves and its
 * tokens); a game idle without viewers for idle_ms leaves too, and one
 * that cannot find room is told to try again; at a restart the most
 * recently changed games fill the table and the others wait on disk. */
static void test_dropped_game_comes_back(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-web-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start_small(dir, 2, 400);
    int port = web_port(s);
    char a[32], ta[40], b[32], tb[40], msg[400];
    fools_mate(port, a, ta);
    fools_mate(port, b, tb);
    settle();
    StrBuf out = STRBUF_INIT;
    assert_int_equal(try_create(port, &out), 201); /* a leaves memory */
    Json *g = parse(sb_str(&out));
    char c[32], tc[40];
    snprintf(c, sizeof c, "%s", str_of(g, "game"));
    snprintf(tc, sizeof tc, "%s", seat_token(g, 0));
    json_free(g);
    assert_int_equal(web_game_count(s), 2);
    /* a's link: read back (b, over, makes room), at its last ply, and its
     * token still a seat's */
    WcSocket wa;
    join(&wa, port, a, ta);
    Json *f = expect(&wa, "state", NULL);
    assert_int_equal(ply_of(f), 4);
    assert_string_equal(str_of(f, "seat"), "white");
    json_free(f);
    assert_int_equal(web_game_count(s), 2);
    /* c is on and has no viewer: once idle it may leave for a new game */
    assert_int_equal(try_create(port, &out), 503);
    nanosleep(&(struct timespec){0, 500 * 1000 * 1000}, NULL);
    assert_int_equal(try_create(port, &out), 201); /* c leaves; a is watched */
    g = parse(sb_str(&out));
    char d[32];
    snprintf(d, sizeof d, "%s", str_of(g, "game"));
    json_free(g);
    /* c's link now: d is not idle yet, a is watched: no room */
    assert_int_equal(hello_ply(port, c, tc, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "is kept, but the server holds 2 games, its limit"));
    nanosleep(&(struct timespec){0, 500 * 1000 * 1000}, NULL);
    WcSocket wc; /* d idle now: c comes back and plays on */
    join(&wc, port, c, tc);
    f = expect(&wc, "state", NULL);
    assert_int_equal(ply_of(f), 0);
    json_free(f);
    act(&wc, "e2e4", 0);
    f = expect(&wc, "state", NULL);
    assert_int_equal(ply_of(f), 1);
    json_free(f);
    wc_ws_close(&wc);
    wc_ws_close(&wa);
    settle();
    web_stop(s);
    /* four games on disk, room for two: the two changed last (c, then a's
     * read back wrote nothing: d) are loaded, the others wait on disk */
    s = start_small(dir, 2, 3600 * 1000);
    port = web_port(s);
    assert_int_equal(web_game_count(s), 2);
    assert_int_equal(hello_ply(port, b, tb, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "is kept, but the server holds 2 games"));
    web_stop(s);
    s = start_small(dir, 4, 3600 * 1000);
    port = web_port(s);
    assert_int_equal(web_game_count(s), 4);
    assert_int_equal(hello_ply(port, b, tb, msg, sizeof msg), 4);
    web_stop(s);
    sb_free(&out);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* The race of test_drop_while_in_use: clients that make games of bots,
 * say hello to them and list them, all at once. */
typedef struct Racer {
    int port, kind, stop;
    char ids[64][32];
    int nids;
    pthread_mutex_t *mu;
    int bad;                 /* answers that were neither right nor a known refusal */
    char why[300];
    int done;
} Racer;

static void *race_main(void *arg)
{
    Racer *r = arg;
    StrBuf out = STRBUF_INIT;
    unsigned seed = (unsigned)r->kind * 7919u + 1;
    while (!__atomic_load_n(&r->stop, __ATOMIC_SEQ_CST)) {
        if (r->kind == 0) { /* games of two random bots */
            const char *body = "{\"variant\":\"orthodox\",\"players\":[{\"seat\":\"white\","
                               "\"bot\":\"random\"},{\"seat\":\"black\",\"bot\":\"random\"}]}";
            sb_reset(&out);
            int st = wc_http(r->port, "POST", "/api/games", body, strlen(body), &out);
            if (st == 201) {
                Error e;
                Json *j = json_parse(out.s, out.len, &e);
                pthread_mutex_lock(r->mu);
                if (j && str_of(j, "game") && r->nids < 64)
                    snprintf(r->ids[r->nids++], 32, "%s", str_of(j, "game"));
                pthread_mutex_unlock(r->mu);
                json_free(j);
            } else if (st != 503 && !r->bad++) {
                snprintf(r->why, sizeof r->why, "POST: %d %.200s", st, sb_str(&out));
            }
        } else if (r->kind == 1) { /* a spectator's hello to any of them */
            char id[32] = "";
            pthread_mutex_lock(r->mu);
            if (r->nids)
                snprintf(id, sizeof id, "%s", r->ids[rand_r(&seed) % (unsigned)r->nids]);
            pthread_mutex_unlock(r->mu);
            WcSocket w;
            char hello[96];
            if (!id[0] || wc_ws_open(&w, r->port, "/ws"))
                continue;
            snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\"}", id);
            wc_ws_send(&w, hello, strlen(hello));
            int op;
            char *t = wc_ws_recv(&w, WAIT_MS, &op);
            if (!t || (!strstr(t, "\"type\":\"state\"") && !strstr(t, "try again later"))) {
                if (!r->bad++)
                    snprintf(r->why, sizeof r->why, "hello: %.200s", t ? t : "(nothing)");
            }
            free(t);
            wc_ws_close(&w);
        } else { /* the list */
            sb_reset(&out);
            int st = wc_http(r->port, "GET", "/api/games", NULL, 0, &out);
            if (st != 200 && !r->bad++)
                snprintf(r->why, sizeof r->why, "GET /api/games: %d", st);
        }
        r->done++;
    }
    sb_free(&out);
    return NULL;
}

/* issue 21: a game leaves memory only when nobody holds it, so dropping
 * games while a bot thinks in one, clients say hello to them (reading
 * them back from --data) and others list them uses no freed memory (run
 * under ASan: make SANITIZE=address,undefined, ./build-san/tests/test_web)
 * and every answer is a game's state or a known refusal.  A table of
 * three games, every one idle at once: each new game or hello drops one. */
static void test_drop_while_in_use(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-web-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start_small(dir, 3, 0);
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    Racer shared = {.port = web_port(s), .mu = &mu};
    Racer r[5];
    pthread_t t[5];
    static const int KINDS[5] = {0, 0, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        r[i] = shared;
        r[i].kind = KINDS[i];
    }
    Racer *ids = &r[0]; /* the games of the first creator, said hello to */
    for (int i = 0; i < 5; i++)
        assert_int_equal(pthread_create(&t[i], NULL, race_main, &r[i]), 0);
    for (int ms = 0; ms < 3000; ms += 100) {
        nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
        pthread_mutex_lock(&mu);
        for (int i = 2; i < 4; i++) {
            r[i].nids = ids->nids;
            memcpy(r[i].ids, ids->ids, sizeof ids->ids);
        }
        pthread_mutex_unlock(&mu);
    }
    for (int i = 0; i < 5; i++)
        __atomic_store_n(&r[i].stop, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    for (int i = 0; i < 5; i++)
        if (r[i].bad)
            fail_msg("racer %d: %d bad answers, the first: %s", i, r[i].bad, r[i].why);
    if (getenv("WEB_TEST_TRACE"))
        fprintf(stderr, "race: %d games, %d+%d posts, %d+%d hellos, %d lists\n", ids->nids,
                r[0].done, r[1].done, r[2].done, r[3].done, r[4].done);
    assert_true(ids->nids > 3);                 /* games were made, and dropped */
    assert_true(r[2].done + r[3].done > 3);     /* hellos were answered */
    assert_true(web_game_count(s) <= 3);
    web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- Records: save and load ---------------------------------------------- */

/* issue 21: a seat downloads the record ({"type":"record"}) when it holds
 * no other seat's secrets, and POST /api/games {"record": ...} starts the
 * game it holds; a record with house rules, a broken one and a request
 * mixing a record with a variant are refused with why. */
static void test_record_save_and_load(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"orthodox\"}");
    WcSocket w, b;
    join(&w, port, str_of(g, "game"), seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    join(&b, port, str_of(g, "game"), seat_token(g, 1));
    json_free(expect(&b, "state", NULL));
    act(&w, "e2e4", 0);
    json_free(expect(&w, "state", NULL));
    json_free(expect(&b, "state", NULL));
    act(&b, "e7e5", 1);
    json_free(expect(&w, "state", NULL));
    json_free(expect(&b, "state", NULL));
    wc_ws_send(&w, "{\"type\":\"record\"}", 17);
    Json *r = expect(&w, "record", NULL);
    const char *text = str_of(r, "text");
    assert_non_null(strstr(text, "[Variant \"orthodox\"]"));
    assert_non_null(strstr(text, "2. black: e5"));
    /* the same record, loaded as a new game with a bot on black */
    StrBuf body = STRBUF_INIT;
    sb_puts(&body, "{\"record\":");
    sb_json_str(&body, text);
    sb_puts(&body, ",\"players\":[{\"seat\":\"black\",\"bot\":\"greedy\"}]}");
    Json *g2 = create(port, sb_str(&body));
    WcSocket w2;
    join(&w2, port, str_of(g2, "game"), seat_token(g2, 0));
    Json *st = expect(&w2, "state", NULL);
    assert_int_equal(ply_of(st), 2);
    assert_string_equal(str_of(json_get(st, "status"), "to_act"), "white");
    json_free(st);
    act(&w2, "g1f3", 2);
    json_free(expect(&w2, "state", NULL));
    st = expect(&w2, "state", NULL); /* the bot's answer */
    assert_int_equal(ply_of(st), 4);
    json_free(st);
    wc_ws_close(&w2);
    json_free(g2);
    json_free(r);

    StrBuf out = STRBUF_INIT;
    const char *bad = "{\"record\":\"[Variant \\\"orthodox\\\"]\\n\\n1. white: e5\\n\"}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "record:"));
    assert_null(strstr(sb_str(&out), "/tmp/"));
    sb_reset(&out);
    bad = "{\"record\":\"x\",\"variant\":\"orthodox\"}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "leave out \\\"variant\\\""));
    /* a record that carries a house rule: the server runs only its own */
    Json *h = create(port, "{\"variant\":\"orthodox\",\"rules\":[\"three_check.lua\"]}");
    WcSocket hw;
    join(&hw, port, str_of(h, "game"), NULL);
    json_free(expect(&hw, "state", NULL));
    wc_ws_send(&hw, "{\"type\":\"record\"}", 17);
    r = expect(&hw, "record", NULL);
    sb_reset(&body);
    sb_puts(&body, "{\"record\":");
    sb_json_str(&body, str_of(r, "text"));
    sb_putc(&body, '}');
    sb_reset(&out);
    assert_int_equal(wc_http(port, "POST", "/api/games", body.s, body.len, &out), 400);
    assert_non_null(strstr(sb_str(&out), "house-rule"));
    json_free(r);
    wc_ws_close(&hw);
    json_free(h);
    sb_free(&out);
    sb_free(&body);
    wc_ws_close(&w);
    wc_ws_close(&b);
    json_free(g);
}

/* issue 21, MASQ-12: the record of a Masqués game under way holds both
 * arrangements: neither a seat nor a spectator may download it. */
static void test_record_keeps_secrets(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    Json *g = create(port, "{\"variant\":\"masques\"}");
    WcSocket w, spec;
    join(&w, port, str_of(g, "game"), seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    join(&spec, port, str_of(g, "game"), NULL);
    json_free(expect(&spec, "state", NULL));
    act(&w, "random", 0);
    json_free(expect(&w, "state", NULL));
    json_free(expect(&spec, "state", NULL));
    wc_ws_send(&w, "{\"type\":\"record\"}", 17);
    json_free(expect(&w, "error", "hidden facts of black"));
    wc_ws_send(&spec, "{\"type\":\"record\"}", 17);
    json_free(expect(&spec, "error", "hidden facts of white and black"));
    wc_ws_close(&w);
    wc_ws_close(&spec);
    json_free(g);
}

/* ---- The page's files ----------------------------------------------------- */

/* The files under dir (relative to web/ as prefix), counted; each must be
 * in the program's table and served byte for byte. */
static int check_page_dir(int port, const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[512], name[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        snprintf(name, sizeof name, "%s%s", prefix, de->d_name);
        struct stat st;
        assert_int_equal(stat(path, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            char sub[520];
            snprintf(sub, sizeof sub, "%s/", name);
            n += check_page_dir(port, path, sub);
            continue;
        }
        n++;
        StrBuf want = STRBUF_INIT, got = STRBUF_INIT;
        Error e;
        assert_int_equal(record_read_file(path, "a page file", 1 << 24, &want, &e), 0);
        char url[530];
        snprintf(url, sizeof url, "/%s", name);
        assert_int_equal(wc_http(port, "GET", url, NULL, 0, &got), 200);
        assert_int_equal(got.len, want.len);
        assert_memory_equal(got.s, want.s, want.len);
        if (strcmp(name, "index.html") == 0) {
            sb_reset(&got);
            assert_int_equal(wc_http(port, "GET", "/", NULL, 0, &got), 200);
            assert_int_equal(got.len, want.len);
        }
        sb_free(&want);
        sb_free(&got);
    }
    closedir(d);
    return n;
}

/* issue 21: every file of web/ is built into the program and served as it
 * is; nothing else is (no file of the disk, no path out of the table). */
static void test_page_files(void **state)
{
    WebServer *s = *state;
    int port = web_port(s);
    int files = check_page_dir(port, "web", "");
    int table = 0;
    while (web_files[table].name)
        table++;
    assert_int_equal(table, files);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(wc_http(port, "GET", "/../Makefile", NULL, 0, &out), 404);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/core/game.c", NULL, 0, &out), 404);
    if (!files) { /* a build without the page says so at / */
        sb_reset(&out);
        assert_int_equal(wc_http(port, "GET", "/", NULL, 0, &out), 404);
        assert_non_null(strstr(sb_str(&out), "holds no page"));
    }
    sb_free(&out);
}

/* issue 21: tools/embed writes each file's bytes, all 256 values, and its
 * name relative to the folder given. */
static void test_embed_generator(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-embed-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[64], file[96], cmd[1024], self[512], gen[560];
    snprintf(sub, sizeof sub, "%s/x", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(file, sizeof file, "%s/all.bin", sub);
    FILE *f = fopen(file, "wb");
    for (int i = 0; i < 256; i++)
        fputc(255 - i, f);
    fclose(f);
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = '\0';
    *strrchr(self, '/') = '\0'; /* build/tests */
    snprintf(gen, sizeof gen, "%s/../tools/embed", self);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' > '%s/out.c'", gen, dir, file, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(file, sizeof file, "%s/out.c", dir);
    char *c = tu_read_file(file);
    assert_non_null(c);
    const char *p = strstr(c, "file_0[] = {");
    assert_non_null(p);
    p += strlen("file_0[] = {");
    for (int i = 0; i <= 256; i++) {
        char *end;
        long v = strtol(p, &end, 10);
        assert_true(end != p);
        assert_int_equal(v, i < 256 ? 255 - i : 0); /* the bytes, then a NUL */
        p = end + strspn(end, ",\n ");
    }
    assert_non_null(strstr(c, "{\"x/all.bin\", file_0, sizeof file_0 - 1},"));
    free(c);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* ---- The command -------------------------------------------------------- */

typedef struct Child {
    pid_t pid;
    FILE *out;   /* its standard output */
    int port;
} Child;

/* `chessvar serve --port 0 ARGS...` as a child; its first line gives the
 * port. */
static void serve_child(Child *c, const char *data)
{
    int fd[2];
    assert_int_equal(pipe(fd), 0);
    c->pid = fork();
    assert_true(c->pid >= 0);
    if (c->pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execl(tu_program(), tu_program(), "serve", "--port", "0", "--data", data,
              (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    c->out = fdopen(fd[0], "r");
    char line[256];
    assert_non_null(fgets(line, sizeof line, c->out));
    const char *colon = strrchr(line, ':');
    if (strncmp(line, "chessvar serve: http://127.0.0.1:", 33) != 0 || !colon)
        fail_msg("the first line: %s", line);
    c->port = atoi(colon + 1);
    assert_true(c->port > 0);
}

/* Stop the child with sig: its exit status (it must end within 20 s). */
static int stop_child(Child *c, int sig, StrBuf *rest)
{
    kill(c->pid, sig);
    int status = -1;
    for (int i = 0; i < 400; i++) {
        if (waitpid(c->pid, &status, WNOHANG) == c->pid)
            break;
        nanosleep(&(struct timespec){0, 50 * 1000 * 1000}, NULL);
        status = -1;
    }
    if (status == -1) {
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
        fail_msg("chessvar serve did not stop within 20 s of signal %d", sig);
    }
    char line[256];
    while (fgets(line, sizeof line, c->out))
        sb_puts(rest, line);
    fclose(c->out);
    return status;
}

/* issue 21: the command prints its address, stops cleanly on SIGTERM and
 * SIGINT with a browser still connected, and a game made before the stop
 * is there after the next start, its tokens working. */
static void test_command_stops_and_keeps_games(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-serve-XXXXXX";
    assert_non_null(mkdtemp(dir));
    Child c;
    serve_child(&c, dir);
    Json *g = create(c.port, "{\"variant\":\"orthodox\"}");
    WcSocket w;
    join(&w, c.port, str_of(g, "game"), seat_token(g, 0));
    json_free(expect(&w, "state", NULL));
    act(&w, "e2e4", 0);
    json_free(expect(&w, "state", NULL));
    StrBuf rest = STRBUF_INIT;
    int st = stop_child(&c, SIGTERM, &rest); /* w still open */
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_non_null(strstr(sb_str(&rest), "chessvar serve: stopped (SIGTERM)"));
    assert_true(wc_ws_closed(&w, WAIT_MS));
    wc_ws_close(&w);

    serve_child(&c, dir);
    join(&w, c.port, str_of(g, "game"), seat_token(g, 1));
    Json *a = expect(&w, "state", NULL);
    assert_int_equal(ply_of(a), 1);
    assert_string_equal(str_of(json_get(a, "status"), "to_act"), "black");
    json_free(a);
    wc_ws_close(&w);
    sb_reset(&rest);
    st = stop_child(&c, SIGINT, &rest);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_non_null(strstr(sb_str(&rest), "games kept in"));
    assert_non_null(strstr(sb_str(&rest), "(1 loaded)"));
    assert_non_null(strstr(sb_str(&rest), "stopped (SIGINT)"));
    sb_free(&rest);
    json_free(g);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* issue 21: the QR code of an address is a square of modules drawn two
 * rows a line, and only loopback addresses go without one. */
static void test_qr_and_loopback(void **state)
{
    (void)state;
    StrBuf q = STRBUF_INIT;
    Error e;
    assert_int_equal(web_qr_text("http://192.168.1.20:8080/", &q, &e), 0);
    int lines = 0, width = -1;
    for (const char *p = sb_str(&q); *p; lines++) {
        const char *nl = strchr(p, '\n');
        assert_non_null(nl);
        int chars = 0;
        for (const char *c = p; c < nl; c++)
            chars += ((unsigned char)*c & 0xc0) != 0x80; /* UTF-8 characters */
        if (width < 0)
            width = chars;
        assert_int_equal(chars, width);
        p = nl + 1;
    }
    /* version 2 (25 modules) and a quiet zone of 2 on each side */
    assert_int_equal(width, 29);
    assert_int_equal(lines, (width + 1) / 2);
    sb_free(&q);
    assert_true(web_host_is_loopback("127.0.0.1"));
    assert_true(web_host_is_loopback("::1"));
    assert_true(web_host_is_loopback("localhost"));
    assert_false(web_host_is_loopback("0.0.0.0"));
    assert_false(web_host_is_loopback("192.168.1.20"));
}

/* One server for the tests that need no fresh one (a stop takes civetweb
 * a second or two). */
static int shared_up(void **state)
{
    *state = start(NULL);
    return 0;
}

static int shared_down(void **state)
{
    web_stop(*state);
    free(last_text);
    last_text = NULL;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http_api),
        cmocka_unit_test(test_seat_names),
        cmocka_unit_test(test_every_variant),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_two_tabs_reconnect),
        cmocka_unit_test(test_join_and_leave_told),
        cmocka_unit_test(test_bot_failure_told),
        cmocka_unit_test(test_takeback_asked_and_answered),
        cmocka_unit_test(test_takeback_of_three),
        cmocka_unit_test(test_takeback_holds_the_bot),
        cmocka_unit_test(test_takeback_bot_and_refusal),
        cmocka_unit_test(test_bots),
        cmocka_unit_test(test_garbage),
        cmocka_unit_test(test_slow_reader),
        cmocka_unit_test(test_frames_without_delay),
        cmocka_unit_test(test_record_save_and_load),
        cmocka_unit_test(test_record_keeps_secrets),
        cmocka_unit_test(test_page_files),
        cmocka_unit_test(test_embed_generator),
        /* these two start servers of their own */
        cmocka_unit_test(test_restart),
        cmocka_unit_test(test_connection_limit),
        cmocka_unit_test(test_games_limit),
        cmocka_unit_test(test_full_table_drops_games_over),
        cmocka_unit_test(test_dropped_game_comes_back),
        cmocka_unit_test(test_drop_while_in_use),
        cmocka_unit_test(test_command_stops_and_keeps_games),
        cmocka_unit_test(test_qr_and_loopback),
    };
    int failed = cmocka_run_group_tests(tests, shared_up, shared_down);
    free(last_text);
    return failed;
}
