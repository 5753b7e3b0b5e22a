/*
 * test_web_twin.c -- the twin test of issue 21 over the WebSocket: two
 * games of Les Échecs Masqués that differ only in White's hidden
 * arrangement (the same seed; White arranges RNBQKBNR in one, RBNQKNBR in
 * the other, sixteen placements each) are played through the server with
 * the same actions, a masked battle with a bid and a call among them, and
 * refused actions too.  Every byte Black and a spectator receive must be
 * the same in both games (the game's id aside, which is drawn at random
 * for each game and says nothing of its position); White's own frames
 * must differ, or the twins would prove nothing.  MASQ-1, MASQ-10, MASQ-12.
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

enum { WAIT_MS = 20000, WHITE = 0, BLACK = 1, SPECTATOR = 2 };

typedef struct Twin {
    char id[32], token[2][40];
    WcSocket w[3];   /* white, black, spectator */
    char *first[3];  /* the state each got after its hello */
    int ply;
} Twin;

static char *frame(Twin *t, int k);

static const char *str_of(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

static void make(Twin *t, int port)
{
    const char *body = "{\"variant\":\"masques\",\"seed\":\"21\"}";
    StrBuf out = STRBUF_INIT;
    assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 201);
    Error e;
    Json *g = json_parse(out.s, out.len, &e);
    assert_non_null(g);
    snprintf(t->id, sizeof t->id, "%s", str_of(g, "game"));
    for (int k = 0; k < 2; k++)
        snprintf(t->token[k], sizeof t->token[k], "%s",
                 str_of(json_at(json_get(g, "seats"), k), "token"));
    json_free(g);
    sb_free(&out);
    for (int k = 0; k < 3; k++) {
        char hello[200];
        assert_int_equal(wc_ws_open(&t->w[k], port, "/ws"), 0);
        snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}",
                 t->id, k < 2 ? t->token[k] : "");
        assert_int_equal(wc_ws_send(&t->w[k], hello, strlen(hello)), 0);
        /* one after the other, so each state says the same seats are
         * connected in both twins */
        t->first[k] = frame(t, k);
        if (k == BLACK) { /* White is told Black came (a seats frame) */
            char *told = frame(t, WHITE);
            assert_non_null(strstr(told, "\"type\":\"seats\""));
            free(told);
        }
    }
}

/* The next frame of viewer k, with the game's id replaced by GAME. */
static char *frame(Twin *t, int k)
{
    int op = 0;
    char *f = wc_ws_recv(&t->w[k], WAIT_MS, &op);
    if (!f)
        fail_msg("viewer %d of game %s got no frame", k, t->id);
    StrBuf b = STRBUF_INIT;
    size_t n = strlen(t->id);
    for (const char *p = f; *p;) {
        if (strncmp(p, t->id, n) == 0) {
            sb_puts(&b, "GAME");
            p += n;
        } else {
            sb_putc(&b, *p++);
        }
    }
    free(f);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    Error e;
    Json *j = json_parse(s, strlen(s), &e);
    assert_non_null(j);
    const Json *ply = json_get(j, "ply");
    if (k == WHITE && ply)
        t->ply = (int)ply->num;
    json_free(j);
    return s;
}

typedef struct Count {
    int compared, white_differs;
} Count;

/* One frame of each viewer of both twins: Black's and the spectator's the
 * same byte for byte; whether White's differ is counted. */
static void compare(Twin *a, Twin *b, Count *c, int viewers)
{
    for (int k = 0; k < 3; k++) {
        if (!(viewers & (1 << k)))
            continue;
        char *fa = frame(a, k), *fb = frame(b, k);
        if (k == WHITE) {
            c->white_differs += strcmp(fa, fb) != 0;
        } else {
            if (strcmp(fa, fb) != 0) {
                size_t i = 0;
                while (fa[i] == fb[i])
                    i++;
                fail_msg("%s's frames differ between the twins at byte %zu:\n  %.200s\n  "
                         "%.200s", k == BLACK ? "black" : "the spectator", i,
                         fa + (i > 60 ? i - 60 : 0), fb + (i > 60 ? i - 60 : 0));
            }
            c->compared += 2;
        }
        free(fa);
        free(fb);
    }
}

/* seat plays text in both twins (texts[0] in a, texts[1] in b); every
 * viewer then gets one state, or the actor an error alone. */
static void play(Twin *a, Twin *b, int seat, const char *ta, const char *tb, int refused,
                 Count *c)
{
    char buf[2][300];
    snprintf(buf[0], sizeof buf[0], "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}", ta,
             a->ply);
    snprintf(buf[1], sizeof buf[1], "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}", tb,
             b->ply);
    assert_int_equal(wc_ws_send(&a->w[seat], buf[0], strlen(buf[0])), 0);
    assert_int_equal(wc_ws_send(&b->w[seat], buf[1], strlen(buf[1])), 0);
    if (refused) {
        /* only the actor hears of it; Black's refusals must read the same */
        char *fa = frame(a, seat), *fb = frame(b, seat);
        assert_non_null(strstr(fa, "\"type\":\"error\""));
        if (seat == BLACK) {
            assert_string_equal(fa, fb);
            c->compared += 2;
        }
        free(fa);
        free(fb);
        return;
    }
    compare(a, b, c, 7);
}

/* issue 21, MASQ-12: what Black and a spectator receive over the WebSocket
 * does not depend on White's hidden arrangement. */
static void test_twin_masques_over_websocket(void **state)
{
    (void)state;
    WebConfig cfg;
    web_config_defaults(&cfg);
    cfg.port = 0;
    cfg.quiet = 1;
    cfg.max_conns = 16;
    Error e;
    WebServer *s = web_start(&cfg, &e);
    assert_non_null(s);
    int port = web_port(s);
    Twin a, b;
    Count c = {0, 0};
    make(&a, port);
    make(&b, port);
    for (int k = BLACK; k <= SPECTATOR; k++) { /* the hello states */
        assert_string_equal(a.first[k], b.first[k]);
        c.compared += 2;
    }
    c.white_differs += strcmp(a.first[WHITE], b.first[WHITE]) != 0;
    for (int k = 0; k < 3; k++) {
        free(a.first[k]);
        free(b.first[k]);
    }
    play(&a, &b, WHITE, "arrange RNBQKBNR/PPPPPPPP", "arrange RBNQKNBR/PPPPPPPP", 0, &c);
    play(&a, &b, BLACK, "standard", "standard", 0, &c);
    play(&a, &b, BLACK, "e7e5", "e7e5", 1, &c); /* not Black's turn */
    play(&a, &b, WHITE, "d2d4", "d2d4", 0, &c);
    play(&a, &b, BLACK, "e7e5", "e7e5", 0, &c);
    play(&a, &b, BLACK, "pass", "pass", 0, &c); /* no announcement on d4 */
    play(&a, &b, WHITE, "d4e5", "d4e5", 0, &c); /* a masked battle: bidding */
    play(&a, &b, BLACK, "bid 2", "bid 2", 1, &c); /* White bids first */
    play(&a, &b, WHITE, "bid 1", "bid 1", 0, &c);
    play(&a, &b, BLACK, "bid 0", "bid 0", 1, &c); /* not a raise */
    play(&a, &b, BLACK, "call", "call", 0, &c);
    play(&a, &b, BLACK, "h7h6", "h7h6", 0, &c);
    play(&a, &b, WHITE, "a2a3", "a2a3", 0, &c);
    play(&a, &b, BLACK, "h6h5", "h6h5", 0, &c);
    play(&a, &b, WHITE, "g2g3", "g2g3", 0, &c);
    play(&a, &b, BLACK, "b8c6", "b8c6", 1, &c); /* masked: moves as a pawn */
    play(&a, &b, BLACK, "resign", "resign", 0, &c);
    /* after the end, Black may read nothing new of White's pieces either */
    play(&a, &b, BLACK, "show", "show", 0, &c);
    printf("twin test over the WebSocket: %d frames compared byte for byte, White's "
           "frames differed %d times\n", c.compared, c.white_differs);
    assert_true(c.compared >= 40);
    assert_true(c.white_differs >= 10);
    for (int k = 0; k < 3; k++) {
        wc_ws_close(&a.w[k]);
        wc_ws_close(&b.w[k]);
    }
    web_stop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_twin_masques_over_websocket),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
