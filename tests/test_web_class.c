/*
 * test_web_class.c -- the teacher's board of `chessvar serve` (issue 22
 * point 5) over its WebSocket: a class opened on a game's position,
 * students joining and submitting, the submissions grouped for the teacher
 * (legal by machine text, refused ones with the engine's reason), the
 * answer revealed and played; and bad frames refused with what is wrong,
 * the teacher's token never in a student's frame.  Lessons over the same
 * socket (issue 22 point 3): a refusal with the rule and the solution.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/json.h"
#include "../core/web/web.h"
#include "support/testutil.h"
#include "support/webclient.h"

enum { WAIT_MS = 20000 };

static char *texts[64];
static int ntexts;

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

/* The next frame on w, of type want (with msg in its message when given);
 * its text is kept (freed at the end) for the caller to search. */
static Json *expect(WcSocket *w, const char *want, const char *msg)
{
    int op = 0;
    char *t = wc_ws_recv(w, WAIT_MS, &op);
    if (!t)
        fail_msg("no frame came within %d ms (wanted %s)", WAIT_MS, want);
    if (ntexts < 64)
        texts[ntexts++] = t;
    Json *j = parse(t);
    const char *type = str_of(j, "type");
    if (!type || strcmp(type, want) != 0)
        fail_msg("wanted a %s frame, got %.400s", want, t);
    if (msg && (!str_of(j, "message") || !strstr(str_of(j, "message"), msg)))
        fail_msg("wanted an error with \"%s\", got %.400s", msg, t);
    return j;
}

static void say(WcSocket *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(WcSocket *w, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    assert_int_equal(wc_ws_send(w, buf, strlen(buf)), 0);
}

static WebServer *server;
static int port;
static char game_id[64], seat_tok[64];

static int up(void **state)
{
    (void)state;
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    Error e;
    e.msg[0] = '\0';
    server = web_start(&c, &e);
    if (!server)
        fail_msg("the server did not start: %s", e.msg);
    port = web_port(server);
    const char *body = "{\"variant\":\"orthodox\"}";
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/games", body, strlen(body), &out);
    assert_int_equal(st, 201);
    Json *g = parse(sb_str(&out));
    snprintf(game_id, sizeof game_id, "%s", str_of(g, "game"));
    snprintf(seat_tok, sizeof seat_tok, "%s",
             str_of(json_at(json_get(g, "seats"), 0), "token"));
    json_free(g);
    sb_free(&out);
    return 0;
}

static int down(void **state)
{
    (void)state;
    web_stop(server);
    for (int i = 0; i < ntexts; i++)
        free(texts[i]);
    ntexts = 0;
    return 0;
}

/* A teacher's socket with a class open: its first frame. */
static Json *open_class(WcSocket *t)
{
    assert_int_equal(wc_ws_open(t, port, "/ws"), 0);
    say(t, "{\"type\":\"class-open\",\"game\":\"%s\",\"token\":\"%s\"}", game_id, seat_tok);
    return expect(t, "class", NULL);
}

static const Json *group_of(const Json *f, const char *move, int legal)
{
    const Json *gs = json_get(f, "groups");
    for (int i = 0; i < (int)gs->count; i++) {
        const Json *g = json_at(gs, i);
        if (strcmp(str_of(g, "move"), move) == 0 && json_get(g, "legal")->type ==
                                                        (legal ? JSON_TRUE : JSON_FALSE))
            return g;
    }
    fail_msg("no %s group %s", legal ? "legal" : "refused", move);
    return NULL;
}

/* issue 22 point 5: e4 and e2e4 are one group (the same machine text), a
 * refused Ke2 another with the engine's reason; the answer revealed
 * reaches the students and is played by class-next. */
static void test_class_round(void **state)
{
    (void)state;
    WcSocket t, a, b, c;
    Json *f = open_class(&t);
    assert_string_equal(str_of(f, "role"), "teacher");
    char code[16], ttok[64];
    snprintf(code, sizeof code, "%s", str_of(f, "code"));
    snprintf(ttok, sizeof ttok, "%s", str_of(f, "teacher"));
    assert_int_equal(strlen(code), 6);
    assert_non_null(strstr(str_of(f, "svg"), "<svg"));
    json_free(f);
    WcSocket *st[3] = {&a, &b, &c};
    const char *names[3] = {"Ann", "Bob", "Cy"}, *moves[3] = {"e4", "e2e4", "Ke2"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(wc_ws_open(st[i], port, "/ws"), 0);
        say(st[i], "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"%s\"}", code, names[i]);
        json_free(expect(st[i], "class", NULL));
        json_free(expect(&t, "class", NULL));
    }
    for (int i = 0; i < 3; i++) {
        say(st[i], "{\"type\":\"class-submit\",\"text\":\"%s\"}", moves[i]);
        f = expect(st[i], "class", NULL);
        assert_string_equal(str_of(f, "mine"), moves[i]);
        assert_null(strstr(texts[ntexts - 1], ttok)); /* no teacher token to a student */
        json_free(f);
        f = expect(&t, "class", NULL);
        if (i < 2)
            json_free(f);
    }
    assert_int_equal(json_get(f, "groups")->count, 2);
    assert_int_equal((int)json_get(group_of(f, "e2e4", 1), "count")->num, 2);
    const Json *bad = group_of(f, "Ke2", 0);
    assert_int_equal((int)json_get(bad, "count")->num, 1);
    assert_non_null(strstr(str_of(bad, "why"), "(ORTH-2)")); /* the rule, by game_why */
    json_free(f);
    /* a student changes its mind: the group counts follow */
    say(&c, "{\"type\":\"class-submit\",\"text\":\"d4\"}");
    json_free(expect(&c, "class", NULL));
    f = expect(&t, "class", NULL);
    assert_int_equal(json_get(f, "groups")->count, 2);
    assert_int_equal((int)json_get(group_of(f, "d2d4", 1), "count")->num, 1);
    json_free(f);
    /* a student may not reveal; the teacher's illegal answer is refused */
    say(&a, "{\"type\":\"class-reveal\",\"text\":\"e4\"}");
    json_free(expect(&a, "error", "only the class's teacher"));
    say(&t, "{\"type\":\"class-reveal\",\"text\":\"e5\"}");
    json_free(expect(&t, "error", "class-reveal:"));
    say(&t, "{\"type\":\"class-next\"}");
    json_free(expect(&t, "error", "reveal an answer first"));
    say(&t, "{\"type\":\"class-reveal\",\"text\":\"e4\"}");
    json_free(expect(&t, "class", NULL));
    for (int i = 0; i < 3; i++) {
        f = expect(st[i], "class", NULL);
        assert_string_equal(str_of(json_get(f, "answer"), "move"), "e2e4");
        json_free(f);
    }
    say(&a, "{\"type\":\"class-submit\",\"text\":\"d4\"}");
    json_free(expect(&a, "error", "the answer is revealed"));
    say(&t, "{\"type\":\"class-next\"}");
    f = expect(&t, "class", NULL);
    assert_string_equal(str_of(f, "seat"), "black");
    assert_int_equal((int)json_get(f, "round")->num, 1);
    assert_int_equal(json_get(f, "groups")->count, 0);
    assert_int_equal(json_get(f, "answer")->type, JSON_NULL);
    json_free(f);
    /* a second teacher screen with the token; a forged one is refused */
    WcSocket t2, t3;
    assert_int_equal(wc_ws_open(&t2, port, "/ws"), 0);
    say(&t2, "{\"type\":\"class-teach\",\"code\":\"%s\",\"teacher\":\"%s\"}", code, ttok);
    f = expect(&t2, "class", NULL);
    assert_string_equal(str_of(f, "role"), "teacher");
    json_free(f);
    assert_int_equal(wc_ws_open(&t3, port, "/ws"), 0);
    say(&t3, "{\"type\":\"class-teach\",\"code\":\"%s\",\"teacher\":\"%s\"}", code, seat_tok);
    json_free(expect(&t3, "error", "no class with this code and teacher token"));
    wc_ws_close(&t3);
    wc_ws_close(&t2);
    for (int i = 0; i < 3; i++)
        wc_ws_close(st[i]);
    wc_ws_close(&t);
}

/* issue 22 point 5: bad frames get a message naming what is wrong. */
static void test_class_bad_frames(void **state)
{
    (void)state;
    WcSocket w, t;
    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    say(&w, "{\"type\":\"class-open\"}");
    json_free(expect(&w, "error", "give the game's id"));
    say(&w, "{\"type\":\"class-open\",\"game\":\"%s\",\"token\":\"%s\"}", game_id, "0123");
    json_free(expect(&w, "error", "no seat's of this game"));
    say(&w, "{\"type\":\"class-join\",\"code\":\"ZZZZZZ\",\"name\":\"Ann\"}");
    json_free(expect(&w, "error", "no class with this code"));
    say(&w, "{\"type\":\"class-submit\",\"text\":\"e4\"}");
    json_free(expect(&w, "error", "join a class first"));
    say(&w, "{\"type\":\"class-reveal\",\"text\":\"e4\"}");
    json_free(expect(&w, "error", "only the class's teacher"));
    say(&w, "{\"type\":\"class-dance\"}");
    json_free(expect(&w, "error", "unknown frame type 'class-dance'"));
    Json *f = open_class(&t);
    char code[16];
    snprintf(code, sizeof code, "%s", str_of(f, "code"));
    json_free(f);
    say(&w, "{\"type\":\"class-join\",\"code\":\"%s\"}", code);
    json_free(expect(&w, "error", "give your name"));
    say(&w, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"%s\"}", code,
        "a name far longer than thirty-two bytes");
    json_free(expect(&w, "error", "1 to 32 bytes"));
    say(&w, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"Ann\"}", code);
    json_free(expect(&w, "class", NULL));
    json_free(expect(&t, "class", NULL));
    char big[400];
    memset(big, 'x', 300);
    big[300] = '\0';
    say(&w, "{\"type\":\"class-submit\",\"text\":\"%s\"}", big);
    json_free(expect(&w, "error", "longer than 255"));
    say(&w, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"Bo\"}", code);
    json_free(expect(&w, "error", "in a class already"));
    say(&w, "{\"type\":\"hello\",\"game\":\"%s\"}", game_id);
    json_free(expect(&w, "error", "this connection is in a class"));
    WcSocket x;
    assert_int_equal(wc_ws_open(&x, port, "/ws"), 0);
    say(&x, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"Ann\"}", code);
    json_free(expect(&x, "error", "a student of this name"));
    wc_ws_close(&x);
    wc_ws_close(&w);
    wc_ws_close(&t);
}

static char *get_text(const char *path, const char *token)
{
    StrBuf out = STRBUF_INIT;
    char hdr[128];
    snprintf(hdr, sizeof hdr, "X-Chessvar-Token: %s\r\n", token);
    assert_int_equal(wc_http_with(port, "GET", path, hdr, NULL, 0, &out), 200);
    char *s = strdup(sb_str(&out));
    sb_free(&out);
    return s;
}

/* issue 22 point 5, hidden information: a class on a game of Masques
 * shows the students exactly the board of the seat to play as that seat
 * sees it (GET /api/diagram with its token), not the other seat's. */
static void test_class_hidden_view(void **state)
{
    (void)state;
    const char *body = "{\"variant\":\"masques\"}";
    StrBuf out = STRBUF_INIT;
    assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 201);
    Json *g = parse(sb_str(&out));
    sb_free(&out);
    const Json *seats = json_get(g, "seats");
    WcSocket t, a;
    assert_int_equal(wc_ws_open(&t, port, "/ws"), 0);
    say(&t, "{\"type\":\"class-open\",\"game\":\"%s\",\"token\":\"%s\"}", str_of(g, "game"),
        str_of(json_at(seats, 1), "token"));
    Json *f = expect(&t, "class", NULL);
    assert_int_equal(wc_ws_open(&a, port, "/ws"), 0);
    say(&a, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"Ann\"}", str_of(f, "code"));
    Json *sf = expect(&a, "class", NULL);
    const char *seat = str_of(sf, "seat");
    assert_non_null(seat);
    char *mine = NULL, *other = NULL;
    for (int k = 0; k < 2; k++) {
        char path[256];
        const Json *s = json_at(seats, k);
        snprintf(path, sizeof path, "/api/diagram?game=%s", str_of(g, "game"));
        if (strcmp(str_of(s, "seat"), seat) == 0)
            mine = get_text(path, str_of(s, "token"));
        else
            other = get_text(path, str_of(s, "token"));
    }
    assert_non_null(mine);
    assert_non_null(other);
    assert_string_not_equal(mine, other); /* the two seats see different boards */
    assert_string_equal(str_of(sf, "svg"), mine);
    free(mine);
    free(other);
    json_free(sf);
    json_free(f);
    json_free(g);
    wc_ws_close(&a);
    wc_ws_close(&t);
}

/* issue 22 point 3, lessons in the browser: a Masqués lesson with
 * `views: both` gives both seats' boards, labelled; a wrong answer is
 * refused with the rule's explanation and changes nothing, the solution
 * finishes it. */
static void test_learn_frames(void **state)
{
    (void)state;
    WcSocket w;
    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    say(&w, "{\"type\":\"learn-answer\",\"text\":\"e4\"}");
    json_free(expect(&w, "error", "start a lesson first"));
    say(&w, "{\"type\":\"learn-list\",\"variant\":\"nosuch\"}");
    json_free(expect(&w, "error", "unknown: 'nosuch'"));
    say(&w, "{\"type\":\"learn-list\",\"variant\":\"masques\"}");
    Json *f = expect(&w, "lessons", NULL);
    assert_true(json_get(f, "lessons")->count >= 2);
    assert_string_equal(str_of(json_at(json_get(f, "lessons"), 1), "id"), "masked-moves");
    json_free(f);
    say(&w, "{\"type\":\"learn-start\",\"variant\":\"masques\",\"lesson\":\"nosuch\"}");
    json_free(expect(&w, "error", "learn-start:"));
    say(&w, "{\"type\":\"learn-start\",\"variant\":\"masques\",\"lesson\":\"masked-moves\"}");
    f = expect(&w, "lesson", NULL);
    assert_string_equal(str_of(f, "result"), "start");
    assert_string_equal(str_of(f, "seat"), "white");
    const Json *boards = json_get(f, "boards");
    assert_int_equal(boards->count, 2);
    assert_string_equal(str_of(json_at(boards, 0), "label"), "What white sees (you)");
    assert_string_equal(str_of(json_at(boards, 1), "label"), "What black sees");
    char *before = strdup(str_of(json_at(boards, 0), "svg"));
    json_free(f);
    say(&w, "{\"type\":\"learn-answer\",\"text\":\"g1f3\"}");
    f = expect(&w, "lesson", NULL);
    assert_string_equal(str_of(f, "result"), "refused");
    assert_non_null(strstr(str_of(f, "text"), "Why (MASQ-2)"));
    assert_string_equal(str_of(json_at(json_get(f, "boards"), 0), "svg"), before);
    json_free(f);
    free(before);
    say(&w, "{\"type\":\"learn-hint\"}");
    f = expect(&w, "lesson", NULL);
    assert_non_null(strstr(str_of(f, "text"), "g1g3"));
    json_free(f);
    say(&w, "{\"type\":\"learn-answer\",\"text\":\"g1g3\"}");
    f = expect(&w, "lesson", NULL);
    assert_string_not_equal(str_of(f, "result"), "refused");
    json_free(f);
    wc_ws_close(&w);
}

/* issue 22 point 5: a class on a lesson's position; the teacher's frame
 * holds the lesson's answer, a student's not; moving on shows the next
 * lesson's position. */
static void test_class_on_lessons(void **state)
{
    (void)state;
    WcSocket t, a;
    assert_int_equal(wc_ws_open(&t, port, "/ws"), 0);
    say(&t, "{\"type\":\"class-open\",\"variant\":\"orthodox\",\"lesson\":\"nosuch\"}");
    json_free(expect(&t, "error", "class-open: "));
    say(&t, "{\"type\":\"class-open\",\"variant\":\"orthodox\",\"lesson\":\"first-move\"}");
    Json *f = expect(&t, "class", NULL);
    assert_string_equal(str_of(f, "solution"), "Nf3");
    assert_string_equal(str_of(json_get(f, "lesson"), "id"), "first-move");
    assert_int_equal(wc_ws_open(&a, port, "/ws"), 0);
    say(&a, "{\"type\":\"class-join\",\"code\":\"%s\",\"name\":\"Ann\"}", str_of(f, "code"));
    json_free(f);
    f = expect(&a, "class", NULL);
    assert_null(strstr(texts[ntexts - 1], "solution"));
    assert_non_null(strstr(str_of(json_get(f, "lesson"), "goal"), "knight from g1 to f3"));
    json_free(f);
    json_free(expect(&t, "class", NULL));
    say(&t, "{\"type\":\"class-reveal\",\"text\":\"Nf3\"}");
    json_free(expect(&t, "class", NULL));
    json_free(expect(&a, "class", NULL));
    say(&t, "{\"type\":\"class-next\"}");
    f = expect(&t, "class", NULL);
    assert_string_equal(str_of(json_get(f, "lesson"), "id"), "en-passant");
    assert_string_equal(str_of(f, "seat"), "white");
    json_free(f);
    wc_ws_close(&a);
    wc_ws_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_class_round),
        cmocka_unit_test(test_class_bad_frames),
        cmocka_unit_test(test_class_hidden_view),
        cmocka_unit_test(test_learn_frames),
        cmocka_unit_test(test_class_on_lessons),
    };
    return cmocka_run_group_tests(tests, up, down);
}
