/*
 * server.c -- the games of `chessvar serve` and the WebSocket frames that
 * play them (docs/WEB.md).  Each game is a Batch (core/cli/cli.h) behind
 * its own mutex; the table of games has one more.  Everything a seat asks
 * or does goes through that seat's own batch commands (`as SEAT view`,
 * `as SEAT legal`, `as SEAT history`, `as SEAT ACTION`, `as SEAT bot
 * LEVEL`), a spectator's view is the view of seat -1.
 *
 * Invariant: a game's Batch, its viewers and its files are touched only
 * with the game's mutex held (civetweb calls the handlers from several
 * threads; the engine is not thread-safe within a game); locks are taken
 * the loader's (a game read back from --data) first, then the table, then
 * a game, then a connection's writer.  A game's pointer is used outside
 * the table's lock only with a reference (WebGame.refs): a game leaves
 * memory only when the table holds the last one.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <civetweb.h>

#include "../cli/cli.h"
#include "../draw/draw.h"
#include "../json.h"
#include "../lab/bot.h"
#include "../lua/house.h"
#include "../record/record.h"
#include "web.h"
#include "web_files.h"
#include "web_int.h"

/* ---- Small helpers ------------------------------------------------------ */

long long web_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* n random bytes from the OS (getrandom(2)) as 2n hex digits into out. */
int web_random_hex(char *out, size_t nbytes)
{
    unsigned char buf[32];
    size_t got = 0;
    if (nbytes > sizeof buf)
        return -1;
    while (got < nbytes) {
        ssize_t r = getrandom(buf + got, nbytes - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    for (size_t i = 0; i < nbytes; i++)
        snprintf(out + 2 * i, 3, "%02x", buf[i]);
    return 0;
}

int web_token_eq(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    unsigned diff = na != nb;
    for (size_t i = 0; i < na && i < nb; i++)
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i];
    return diff == 0;
}

/* civetweb's threads have small stacks (its Debian build: 100 KiB), too
 * small for the engine, a house rule's Lua or a sanitized build: the work
 * of a request runs on a thread of WEB_STACK bytes, the caller waiting. */
#define WEB_STACK (8u << 20)

typedef struct BigCall {
    void (*fn)(void *);
    void *arg;
} BigCall;

static void *big_main(void *p)
{
    BigCall *c = p;
    c->fn(c->arg);
    return NULL;
}

int web_run_big(void (*fn)(void *), void *arg)
{
    pthread_attr_t a;
    pthread_t t;
    BigCall c = {fn, arg};
    if (pthread_attr_init(&a))
        return -1;
    int rc = pthread_attr_setstacksize(&a, WEB_STACK) ||
             pthread_create(&t, &a, big_main, &c);
    pthread_attr_destroy(&a);
    if (rc)
        return -1;
    pthread_join(t, NULL);
    return 0;
}

/* ---- Writing to a connection -------------------------------------------- */

/* One text frame to c (its writer's lock keeps frames whole when two
 * threads write).  A frame not written whole (the client stopped reading
 * and the write timed out after 3 s, or it left), or written only after
 * more than a second, ends the frames to c: a client that does not read
 * holds up its game once, never again (its page reconnects when its pings
 * go unanswered). */
static void conn_send(WebConn *c, const char *text, size_t n)
{
    pthread_mutex_lock(&c->wmu);
    long long t0 = web_now_ms();
    if (!c->closed && (mg_websocket_write(c->mc, MG_WEBSOCKET_OPCODE_TEXT, text, n) != (int)n ||
                       web_now_ms() - t0 > 1000))
        c->closed = 1;
    pthread_mutex_unlock(&c->wmu);
}

static void conn_error(WebConn *c, const char *msg)
{
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"type\":\"error\",\"message\":");
    sb_json_str(&b, msg);
    sb_putc(&b, '}');
    if (!b.failed)
        conn_send(c, b.s, b.len);
    sb_free(&b);
}

void web_conn_send(WebConn *c, const char *text, size_t n) { conn_send(c, text, n); }
void web_conn_error(WebConn *c, const char *msg) { conn_error(c, msg); }

/* ---- Building a state frame --------------------------------------------- */

/* Run one batch line and parse its answer: the tree (ok or not), or NULL
 * when memory ran out. */
static Json *batch_ask(WebGame *g, const char *line, StrBuf *keep)
{
    Error e;
    sb_reset(keep);
    batch_line(g->b, line, keep);
    if (keep->failed)
        return NULL;
    return json_parse(keep->s, keep->len, &e);
}

static int answer_ok(const Json *j)
{
    const Json *ok = json_get(j, "ok");
    return ok && ok->type == JSON_TRUE;
}

static void put_raw(StrBuf *out, const Json *j)
{
    if (j)
        sb_printf(out, "%.*s", (int)j->len, j->text);
    else
        sb_puts(out, "null");
}

/* The seats list of a frame or of GET /api/games. */
void web_seats_json(WebGame *g, StrBuf *out)
{
    Game *gm = batch_game(g->b);
    sb_putc(out, '[');
    for (int s = 0; s < g->nseats; s++) {
        int connected = 0;
        for (WebConn *c = g->conns; c; c = c->next)
            connected += c->seat == s && !c->closed;
        sb_puts(out, s ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(out, game_seat_name(gm, s));
        sb_puts(out, ",\"bot\":");
        if (g->bot[s][0])
            sb_json_str(out, g->bot[s]);
        else
            sb_puts(out, "null");
        sb_printf(out, ",\"connected\":%s", connected ? "true" : "false");
        if (s == g->bot_failed_seat && g->bot_failed == g->changes &&
            game_to_act(gm) == s) { /* its bot failed here: stuck until a change */
            sb_puts(out, ",\"stuck\":");
            sb_json_str(out, g->bot_error);
        }
        sb_putc(out, '}');
    }
    sb_putc(out, ']');
}

static void wake_bots(WebServer *s)
{
    pthread_mutex_lock(&s->bot_mu);
    s->bot_wake = 1;
    pthread_cond_signal(&s->bot_cond);
    pthread_mutex_unlock(&s->bot_mu);
}

/* The "takeback" member of a state frame: null, or who asks, how many
 * actions, whose consent it waits for and who gave it (seat names: what
 * every seat may know). */
static void takeback_json(WebGame *g, StrBuf *out)
{
    Game *gm = batch_game(g->b);
    if (g->tb_seat < 0) {
        sb_puts(out, "null");
        return;
    }
    sb_puts(out, "{\"by\":");
    sb_json_str(out, game_seat_name(gm, g->tb_seat));
    sb_printf(out, ",\"actions\":%d", g->tb_n);
    for (int agreed = 0; agreed < 2; agreed++) {
        unsigned set = agreed ? g->tb_agreed : g->tb_need & ~g->tb_agreed;
        sb_puts(out, agreed ? "],\"agreed\":[" : ",\"waiting\":[");
        for (int k = 0, n = 0; k < g->nseats; k++)
            if (set & (1u << k)) {
                if (n++)
                    sb_putc(out, ',');
                sb_json_str(out, game_seat_name(gm, k));
            }
    }
    sb_puts(out, "]}");
}

/* The spectator's view, legal list (null) and history: what every seat
 * may know (seat -1), with the messages every seat reads. */
static int spectator_parts(WebGame *g, StrBuf *view, StrBuf *history, StrBuf *msgs,
                           int *nmsgs, int from)
{
    Game *gm = batch_game(g->b);
    View *v = malloc(sizeof *v);
    int n = game_message_count(gm), k = 0;
    const char **list = malloc(sizeof *list * (size_t)(n ? n : 1));
    if (!v || !list || game_view(gm, -1, v)) {
        free(v);
        free(list);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        int all = 1;
        for (int s = 0; s < game_nseats(gm); s++)
            all &= game_message(gm, i, s) != NULL;
        if (all)
            list[k++] = game_message(gm, i, 0);
    }
    RenderNames names;
    cli_names(gm, &names);
    render_view_json(v, &names, list, k, view);
    for (int i = from; i < k; i++) {
        sb_puts(msgs, msgs->len ? ",{\"text\":" : "{\"text\":");
        sb_json_str(msgs, list[i]);
        sb_putc(msgs, '}');
    }
    *nmsgs = k;
    int nh = game_history_len(gm);
    int *turns = malloc(((size_t)nh + 1) * sizeof *turns); /* issue 25 */
    if (!turns || cli_history_turns(gm, turns) < 0) {
        free(turns);
        free(v);
        free(list);
        return -1;
    }
    StrBuf t = STRBUF_INIT;
    sb_putc(history, '[');
    for (int i = 0; i < nh; i++) {
        const HistoryEntry *h = game_history(gm, i);
        sb_reset(&t);
        game_history_text(gm, i, -1, &t);
        const char *machine = strcmp(sb_str(&t), h->text) == 0 ? h->machine : sb_str(&t);
        sb_puts(history, i ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(history, game_seat_name(gm, h->action.seat));
        sb_printf(history, ",\"kind\":\"%s\",\"text\":", action_kind_name(h->action.kind));
        sb_json_str(history, sb_str(&t));
        sb_puts(history, ",\"machine\":");
        sb_json_str(history, machine);
        if (turns[i])
            sb_printf(history, ",\"turn\":%d", turns[i]);
        sb_putc(history, '}');
    }
    sb_putc(history, ']');
    sb_free(&t);
    free(turns);
    free(list);
    free(v);
    return 0;
}

/* The open table's squares drawn around its pieces (its legal targets lie
 * a square beyond them at most): the page pans and zooms over them by its
 * viewBox, on a grid of empty squares that look the same beyond them.
 * Each square is some 90 bytes of every state frame. */
#define WEB_PLANE_MARGIN 2

/* The board of viewer c, its seat's View (or a spectator's) drawn by
 * core/draw as an element for the page (no style: the page has the same
 * lines), as a JSON string into out (issue 22: one renderer for the
 * diagrams and the page).  -1 when out of memory; a plane too wide to draw
 * is null and "board_error" says why. */
static int board_svg_json(WebGame *g, WebConn *c, StrBuf *out, Error *why)
{
    Game *gm = batch_game(g->b);
    View *v = malloc(sizeof *v);
    DrawOpts *o = malloc(sizeof *o);
    StrBuf svg = STRBUF_INIT;
    int rc = -1;
    if (!v || !o || game_view(gm, c->seat, v))
        goto done;
    draw_opts_for(gm, v, o);
    o->margin = WEB_PLANE_MARGIN;
    if (draw_svg(v, o, &svg, why)) {
        sb_puts(out, "null,\"board_error\":");
        sb_json_str(out, why->msg);
    } else
        sb_json_str(out, sb_str(&svg));
    rc = svg.failed || out->failed ? -1 : 0;
done:
    sb_free(&svg);
    free(v);
    free(o);
    return rc;
}

/* The state frame for viewer c (its seat's answers only) into out; c's
 * count of messages seen moves on.  -1 when an answer failed (memory). */
static int state_frame(WebGame *g, WebConn *c, StrBuf *out)
{
    Game *gm = batch_game(g->b);
    StrBuf a = STRBUF_INIT, view = STRBUF_INIT, legal = STRBUF_INIT,
           history = STRBUF_INIT, msgs = STRBUF_INIT, status = STRBUF_INIT;
    int rc = -1;
    Json *j = batch_ask(g, "status", &a);
    if (!j || !answer_ok(j))
        goto done;
    sb_putc(&status, '{');
    int first = 1;
    for (const Json *m = j->child; m; m = m->next) {
        if (strcmp(m->key, "ok") == 0 || strcmp(m->key, "cmd") == 0)
            continue;
        if (!first)
            sb_putc(&status, ',');
        first = 0;
        sb_json_str(&status, m->key);
        sb_putc(&status, ':');
        put_raw(&status, m);
    }
    sb_putc(&status, '}');
    json_free(j);
    j = NULL;
    if (c->seat < 0) {
        sb_puts(&legal, "null");
        int seen = c->seen, k = 0;
        if (spectator_parts(g, &view, &history, &msgs, &k, seen))
            goto done;
        c->seen = k;
    } else {
        const char *name = game_seat_name(gm, c->seat);
        char line[64];
        snprintf(line, sizeof line, "as %s view", name);
        j = batch_ask(g, line, &a);
        const Json *v = j && answer_ok(j) ? json_get(j, "view") : NULL;
        if (!v)
            goto done;
        put_raw(&view, v);
        const Json *ms = json_get(v, "messages");
        int k = 0, n = ms ? ms->count : 0;
        if (c->seen > n)
            c->seen = n;
        for (const Json *m = ms ? ms->child : NULL; m; m = m->next, k++) {
            if (k < c->seen)
                continue;
            sb_puts(&msgs, msgs.len ? ",{\"text\":" : "{\"text\":");
            put_raw(&msgs, m);
            sb_putc(&msgs, '}');
        }
        c->seen = n;
        json_free(j);
        snprintf(line, sizeof line, "as %s legal", name);
        j = batch_ask(g, line, &a);
        if (!j || !answer_ok(j))
            goto done;
        const Json *acts = json_get(j, "actions"), *meta = json_get(j, "meta");
        if ((acts && acts->count) || (meta && meta->count)) {
            sb_putc(&legal, '{');
            int f = 1;
            for (const Json *m = j->child; m; m = m->next) {
                if (strcmp(m->key, "ok") == 0 || strcmp(m->key, "cmd") == 0)
                    continue;
                if (!f)
                    sb_putc(&legal, ',');
                f = 0;
                sb_json_str(&legal, m->key);
                sb_putc(&legal, ':');
                put_raw(&legal, m);
            }
            sb_putc(&legal, '}');
        } else {
            sb_puts(&legal, "null");
        }
        json_free(j);
        snprintf(line, sizeof line, "as %s history", name);
        j = batch_ask(g, line, &a);
        const Json *h = j && answer_ok(j) ? json_get(j, "history") : NULL;
        if (!h)
            goto done;
        put_raw(&history, h);
    }
    sb_puts(out, "{\"type\":\"state\",\"game\":");
    sb_json_str(out, g->id);
    sb_puts(out, ",\"seat\":");
    if (c->seat >= 0)
        sb_json_str(out, game_seat_name(gm, c->seat));
    else
        sb_puts(out, "null");
    sb_printf(out, ",\"ply\":%d,\"variant\":", game_history_len(gm));
    sb_json_str(out, game_variant(gm)->name);
    sb_puts(out, ",\"title\":");
    sb_json_str(out, game_variant(gm)->title);
    sb_printf(out, ",\"view\":%s,\"status\":%s,\"legal\":%s,\"history\":%s,\"messages\":[%s]"
                   ",\"seats\":", sb_str(&view), sb_str(&status), sb_str(&legal),
              sb_str(&history), sb_str(&msgs));
    web_seats_json(g, out);
    sb_puts(out, ",\"takeback\":");
    takeback_json(g, out);
    sb_printf(out, ",\"board\":%s,\"board_svg\":", c->board ? "true" : "false");
    Error why = {0};
    if (board_svg_json(g, c, out, &why))
        goto done;
    sb_putc(out, '}');
    rc = out->failed || view.failed || legal.failed || history.failed || msgs.failed ||
         status.failed ? -1 : 0;
done:
    json_free(j);
    sb_free(&a);
    sb_free(&view);
    sb_free(&legal);
    sb_free(&history);
    sb_free(&msgs);
    sb_free(&status);
    return rc;
}

static void send_state(WebGame *g, WebConn *c)
{
    StrBuf f = STRBUF_INIT;
    if (state_frame(g, c, &f) == 0)
        conn_send(c, f.s, f.len);
    else
        conn_error(c, "out of memory: the state could not be built");
    sb_free(&f);
}

/* After a change of g (its lock held): every viewer gets its state. */
static void broadcast(WebGame *g)
{
    for (WebConn *c = g->conns; c; c = c->next)
        if (!c->closed)
            send_state(g, c);
}

/* Whether seat has a connection in g other than skip that still gets
 * frames (g's lock held). */
static int seat_online(const WebGame *g, int seat, const WebConn *skip)
{
    for (const WebConn *c = g->conns; c; c = c->next)
        if (c != skip && c->seat == seat && !c->closed)
            return 1;
    return 0;
}

/* A seat came online or went away in g (its lock held): every viewer but
 * skip gets {"type":"seats",...}, the seats list of a state frame, so each
 * page shows at once who is there (issue 21).  Nothing else changed, so
 * no state frame is built. */
static void broadcast_seats(WebGame *g, const WebConn *skip)
{
    StrBuf f = STRBUF_INIT;
    sb_puts(&f, "{\"type\":\"seats\",\"game\":");
    sb_json_str(&f, g->id);
    sb_puts(&f, ",\"seats\":");
    web_seats_json(g, &f);
    sb_putc(&f, '}');
    if (!f.failed)
        for (WebConn *c = g->conns; c; c = c->next)
            if (c != skip && !c->closed)
                conn_send(c, f.s, f.len);
    sb_free(&f);
}

/* ---- The game table ----------------------------------------------------- */

WebGame *web_find_game(WebServer *s, const char *id)
{
    WebGame *found = NULL;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->ngames && !found; i++)
        if (strcmp(s->games[i]->id, id) == 0)
            found = s->games[i];
    if (found)
        found->refs++;
    pthread_mutex_unlock(&s->mu);
    return found;
}

WebGame *web_game_at(WebServer *s, int i)
{
    pthread_mutex_lock(&s->mu);
    WebGame *g = i >= 0 && i < s->ngames ? s->games[i] : NULL;
    if (g)
        g->refs++;
    pthread_mutex_unlock(&s->mu);
    return g;
}

void web_game_put(WebServer *s, WebGame *g)
{
    if (!g)
        return;
    pthread_mutex_lock(&s->mu);
    int last = --g->refs == 0;
    pthread_mutex_unlock(&s->mu);
    if (last)
        web_game_free(g);
}

int web_game_gone(WebServer *s, const char *id)
{
    int gone = 0;
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->ngone && !gone; i++)
        gone = strcmp(s->gone[i], id) == 0;
    pthread_mutex_unlock(&s->mu);
    return gone;
}

/* A game after its change (lock held): written to the data folder, pushed
 * to its viewers, the bots woken. */
void web_changed(WebServer *s, WebGame *g)
{
    Error e;
    g->changes++;
    g->tb_seat = -1; /* a takeback asked is about the game as it was */
    g->over = game_to_act(batch_game(g->b)) < 0;
    g->active = web_now_ms();
    if (web_store_record(s, g, &e) && !s->cfg.quiet)
        fprintf(stderr, "chessvar serve: game %s: %s\n", g->id, e.msg);
    broadcast(g);
    wake_bots(s);
}

/* ---- Frames from a client ----------------------------------------------- */

static const char *str_member(const Json *j, const char *key)
{
    const Json *m = json_get(j, key);
    return m && m->type == JSON_STRING ? m->str : NULL;
}

static void on_hello(WebServer *s, WebConn *c, const Json *j)
{
    const char *id = str_member(j, "game"), *token = str_member(j, "token");
    const Json *tok = json_get(j, "token"), *board = json_get(j, "board");
    if (c->game)
        return conn_error(c, "hello: this connection already joined a game; open a new "
                             "connection for another");
    if (c->cls)
        return conn_error(c, "hello: this connection is in a class; open a new connection "
                             "for a game");
    if (!id)
        return conn_error(c, "hello: give the game's id as \"game\"");
    if (tok && tok->type != JSON_STRING && tok->type != JSON_NULL)
        return conn_error(c, "hello: \"token\" must be a string (or absent for a spectator)");
    /* the game with a reference of this hello's, which the connection
     * keeps: the game cannot leave memory under it */
    WebGame *g = web_find_game(s, id);
    Error e;
    e.msg[0] = '\0';
    if (!g && s->data) /* dropped from memory to make room: it is on disk */
        g = web_store_reload(s, id, &e);
    if (!g) {
        char q[48];
        StrBuf m = STRBUF_INIT;
        if (e.msg[0])
            sb_printf(&m, "hello: %s", e.msg);
        else if (web_game_gone(s, id))
            sb_printf(&m, "hello: game '%s' was over and is gone: the server dropped it "
                          "to make room for new games, and keeps no game once it is "
                          "dropped (it was started without --data)",
                      str_clip(q, sizeof q, id));
        else
            sb_printf(&m, "hello: no game '%s' on this server", str_clip(q, sizeof q, id));
        conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    pthread_mutex_lock(&g->mu);
    int seat = -1;
    if (token && token[0]) {
        for (int k = 0; k < g->nseats; k++)
            if (web_token_eq(token, g->token[k]))
                seat = k;
        if (seat < 0) {
            pthread_mutex_unlock(&g->mu);
            web_game_put(s, g);
            return conn_error(c, "hello: this token is no seat's of this game (the link "
                                 "may be wrong or from another server)");
        }
    }
    c->game = g;
    c->seat = seat;
    c->seen = 0;
    c->board = board && board->type == JSON_TRUE;
    int was_online = seat >= 0 && seat_online(g, seat, NULL);
    c->next = g->conns;
    g->conns = c;
    send_state(g, c);
    if (seat >= 0 && !was_online)
        broadcast_seats(g, c);
    pthread_mutex_unlock(&g->mu);
}

/* The batch commands that are not actions: a client may not run them
 * through "act" (they would read or write files, or ask as another seat);
 * undo and show are actions of the seat. */
static const char *const NOT_ACTIONS[] = {"as", "bot", "legal", "view", "status", "position",
                                          "history", "save", "params", "help", "quit", "why"};

/* ---- Takebacks ---------------------------------------------------------- */

/* Over the network each player has a device, so an undo that takes back
 * another person's action needs that person's consent, as a takeback is
 * asked on lichess (issue 21): `undo [N]` asks, each person whose action
 * it would take back answers `takeback accept` or `takeback decline` (the
 * asker may `takeback cancel`), and the undo is made as the asker's once
 * every one of them agreed.  The asker's own actions and a bot's need no
 * consent (a bot agrees).  The engine's limits are checked when it is
 * asked (game_undo_allowed: hidden information lets a seat take back only
 * its own latest actions, not past a barrier), so a refusal comes to the
 * asker at once with the engine's message.  Any change of the game ends
 * the offer (web_changed), and a bot does not play while one stands. */

static void send_notice(WebGame *g, const char *msg)
{
    StrBuf f = STRBUF_INIT;
    sb_puts(&f, "{\"type\":\"notice\",\"game\":");
    sb_json_str(&f, g->id);
    sb_puts(&f, ",\"message\":");
    sb_json_str(&f, msg);
    sb_putc(&f, '}');
    if (!f.failed)
        for (WebConn *c = g->conns; c; c = c->next)
            if (!c->closed)
                conn_send(c, f.s, f.len);
    sb_free(&f);
}

/* The seats in mask as "black" or "black and red" into out. */
static void seat_names(Game *gm, unsigned mask, StrBuf *out)
{
    for (int k = 0, n = 0; k < game_nseats(gm); k++)
        if (mask & (1u << k))
            sb_printf(out, "%s%s", n++ ? " and " : "", game_seat_name(gm, k));
}

/* The undo `undo [N]` of seat asks (g's lock held): 0 not an undo; 1 an
 * undo of *n actions; -1 refused (why); 2 its count is for the engine to
 * refuse.  Without N it goes back to the seat's last turn: its latest
 * action and every action after it. */
static int undo_asked(WebGame *g, int seat, const char *text, int *n, char *why, size_t wn)
{
    Game *gm = batch_game(g->b);
    if (strncmp(text, "undo", 4) != 0 || (text[4] && text[4] != ' ' && text[4] != '\t'))
        return 0;
    const char *arg = text + 4 + strspn(text + 4, " \t");
    size_t digits = strspn(arg, "0123456789");
    if (*arg) {
        if (!digits || digits > 7 || arg[digits + strspn(arg + digits, " \t")])
            return 2;
        *n = atoi(arg);
        return 1;
    }
    int len = game_history_len(gm), k = len - 1;
    while (k >= 0 && game_history(gm, k)->action.seat != seat)
        k--;
    if (k < 0) {
        snprintf(why, wn, "undo: %s has played no action yet, so there is no turn of "
                          "yours to go back to (undo N takes back the last N actions)",
                 game_seat_name(gm, seat));
        return -1;
    }
    *n = len - k;
    return 1;
}

/* The seats whose consent taking back the last n actions of g needs, as
 * asked by seat: the persons other than seat who played one of them. */
static unsigned consent_needed(WebGame *g, int seat, int n)
{
    Game *gm = batch_game(g->b);
    int len = game_history_len(gm);
    unsigned need = 0;
    for (int i = len - n; i < len; i++) {
        int by = game_history(gm, i)->action.seat;
        if (i >= 0 && by != seat && by >= 0 && by < g->nseats && !g->bot[by][0])
            need |= 1u << by;
    }
    return need;
}

/* Run `as SEAT undo N` in g: 0 done (a change), or -1 with the engine's
 * message sent to c. */
static int do_undo(WebServer *s, WebGame *g, WebConn *c, int seat, int n)
{
    StrBuf line = STRBUF_INIT, ans = STRBUF_INIT;
    sb_printf(&line, "as %s undo %d", game_seat_name(batch_game(g->b), seat), n);
    Json *a = line.failed ? NULL : batch_ask(g, sb_str(&line), &ans);
    int rc = -1;
    if (!a)
        conn_error(c, "out of memory: nothing was taken back");
    else if (!answer_ok(a))
        conn_error(c, str_member(a, "error") ? str_member(a, "error") : "refused");
    else
        rc = 0;
    json_free(a);
    sb_free(&line);
    sb_free(&ans);
    if (rc == 0)
        web_changed(s, g);
    return rc;
}

/* c's seat asks to take back the last n actions (g's lock held). */
static void ask_takeback(WebServer *s, WebGame *g, WebConn *c, int n)
{
    Game *gm = batch_game(g->b);
    Error e;
    if (game_undo_allowed(gm, c->seat, n, &e))
        return conn_error(c, e.msg);
    unsigned need = consent_needed(g, c->seat, n);
    if (!need) {
        do_undo(s, g, c, c->seat, n);
        return;
    }
    StrBuf m = STRBUF_INIT;
    if (g->tb_seat >= 0) { /* one offer at a time, as with a draw */
        if (g->tb_seat == c->seat) {
            sb_printf(&m, "undo: your takeback of %d action%s waits for ", g->tb_n,
                      g->tb_n == 1 ? "" : "s");
            seat_names(gm, g->tb_need & ~g->tb_agreed, &m);
            sb_puts(&m, "; takeback cancel withdraws it");
        } else {
            sb_printf(&m, "undo: %s asks to take back %d action%s: answer it first "
                          "(takeback accept or takeback decline)",
                      game_seat_name(gm, g->tb_seat), g->tb_n, g->tb_n == 1 ? "" : "s");
        }
        conn_error(c, m.failed ? "undo: a takeback is asked already" : sb_str(&m));
        sb_free(&m);
        return;
    }
    sb_free(&m);
    g->tb_seat = c->seat;
    g->tb_n = n;
    g->tb_need = need;
    g->tb_agreed = 0;
    broadcast(g);
}

/* `takeback accept|decline|cancel` from c (g's lock held). */
static void answer_takeback(WebServer *s, WebGame *g, WebConn *c, const char *word)
{
    Game *gm = batch_game(g->b);
    int accept = strcmp(word, "accept") == 0, decline = strcmp(word, "decline") == 0,
        cancel = strcmp(word, "cancel") == 0;
    StrBuf m = STRBUF_INIT;
    if (!accept && !decline && !cancel) {
        conn_error(c, "takeback: say takeback accept or takeback decline (the seat that "
                      "asked: takeback cancel)");
    } else if (g->tb_seat < 0) {
        conn_error(c, "takeback: nobody asks to take back actions now");
    } else if (cancel && c->seat != g->tb_seat) {
        sb_printf(&m, "takeback: only %s, who asked it, can cancel it (takeback accept or "
                      "takeback decline)", game_seat_name(gm, g->tb_seat));
        conn_error(c, sb_str(&m));
    } else if (!cancel && c->seat == g->tb_seat) {
        conn_error(c, "takeback: you asked it: the others answer (takeback cancel "
                      "withdraws it)");
    } else if (!cancel && !(g->tb_need & (1u << c->seat))) {
        sb_printf(&m, "takeback: the takeback %s asks takes back no action of yours: it "
                      "waits for ", game_seat_name(gm, g->tb_seat));
        seat_names(gm, g->tb_need & ~g->tb_agreed, &m);
        conn_error(c, sb_str(&m));
    } else if (accept) {
        g->tb_agreed |= 1u << c->seat;
        if (g->tb_agreed != g->tb_need) {
            broadcast(g);
        } else {
            int by = g->tb_seat, n = g->tb_n;
            g->tb_seat = -1;
            if (do_undo(s, g, c, by, n)) { /* the engine refused after all */
                broadcast(g);
                wake_bots(s);
            }
        }
    } else {
        sb_printf(&m, cancel ? "%s withdrew the takeback" : "%s declined the takeback %s "
                                                            "asked",
                  game_seat_name(gm, c->seat), game_seat_name(gm, g->tb_seat));
        g->tb_seat = -1;
        broadcast(g);
        send_notice(g, m.failed ? "the takeback was declined" : sb_str(&m));
        wake_bots(s);
    }
    sb_free(&m);
}

static void on_act(WebServer *s, WebConn *c, const Json *j)
{
    const char *text = str_member(j, "text");
    const Json *ply = json_get(j, "ply");
    if (!c->game)
        return conn_error(c, "act: say hello first (game and token)");
    if (c->seat < 0)
        return conn_error(c, "act: a spectator cannot act (the link has no seat's token)");
    if (!text)
        return conn_error(c, "act: give the action as \"text\" (e.g. \"e2e4\")");
    if (!ply || ply->type != JSON_NUMBER || ply->num < 0 || ply->num > 1e9 ||
        ply->num != (double)(long)ply->num)
        return conn_error(c, "act: give \"ply\", the ply of the last state you saw");
    size_t n = strlen(text);
    if (n == 0 || n > ACTION_TEXT_MAX)
        return conn_error(c, "act: the action text is empty or too long (at most 255 bytes)");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
            return conn_error(c, "act: the action text holds a control character");
    size_t w = strcspn(text, " \t");
    for (size_t i = 0; i < ARRAY_LEN(NOT_ACTIONS); i++)
        if (strlen(NOT_ACTIONS[i]) == w && strncmp(text, NOT_ACTIONS[i], w) == 0) {
            StrBuf m = STRBUF_INIT;
            sb_printf(&m, "act: '%s' is a command of the batch protocol, not an action "
                          "(the state frame carries the view, legal list and history)",
                      NOT_ACTIONS[i]);
            conn_error(c, sb_str(&m));
            sb_free(&m);
            return;
        }
    WebGame *g = c->game;
    pthread_mutex_lock(&g->mu);
    Game *gm = batch_game(g->b);
    int now = game_history_len(gm);
    if ((long)ply->num != now) {
        char m[128];
        snprintf(m, sizeof m, "stale: the game moved on (ply %d, you saw %ld)", now,
                 (long)ply->num);
        pthread_mutex_unlock(&g->mu);
        return conn_error(c, m);
    }
    char why[256];
    int undo_n = 0, undo = undo_asked(g, c->seat, text, &undo_n, why, sizeof why);
    if (undo == 1 || undo == -1) {
        if (undo == 1)
            ask_takeback(s, g, c, undo_n);
        else
            conn_error(c, why);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    if (w == 8 && strncmp(text, "takeback", 8) == 0) {
        answer_takeback(s, g, c, text + 8 + strspn(text + 8, " \t"));
        pthread_mutex_unlock(&g->mu);
        return;
    }
    StrBuf line = STRBUF_INIT, ans = STRBUF_INIT;
    sb_printf(&line, "as %s %s", game_seat_name(gm, c->seat), text);
    Json *a = line.failed ? NULL : batch_ask(g, sb_str(&line), &ans);
    if (!a) {
        conn_error(c, "out of memory: nothing was played");
    } else if (!answer_ok(a)) {
        const char *msg = str_member(a, "error");
        conn_error(c, msg ? msg : "refused");
    } else {
        web_changed(s, g);
    }
    json_free(a);
    sb_free(&line);
    sb_free(&ans);
    pthread_mutex_unlock(&g->mu);
}

/* {"type":"why","text":"e2e5"} (issue 22): is that action legal for the
 * connection's seat now, and by which rule -- the batch's `as SEAT why
 * TEXT`, so the answer holds only what that seat may know.  The answer:
 * {"type":"why","game":ID,"seat":..,"legal":..,"action":..,"rules":[..],
 * "script":..,"text":..}; a text that names no action, an error frame. */
static void on_why(WebConn *c, const Json *j)
{
    const char *text = str_member(j, "text");
    if (!c->game)
        return conn_error(c, "why: say hello first (game and token)");
    if (c->seat < 0)
        return conn_error(c, "why: a spectator has no actions to ask about (the link has "
                             "no seat's token)");
    if (!text || !text[0] || strlen(text) > ACTION_TEXT_MAX)
        return conn_error(c, "why: give the action as \"text\" (e.g. \"e2e5\"), at most "
                             "255 bytes");
    for (const char *p = text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            return conn_error(c, "why: the action text holds a control character");
    WebGame *g = c->game;
    pthread_mutex_lock(&g->mu);
    Game *gm = batch_game(g->b);
    StrBuf line = STRBUF_INIT, ans = STRBUF_INIT, f = STRBUF_INIT;
    sb_printf(&line, "as %s why %s", game_seat_name(gm, c->seat), text);
    Json *a = line.failed ? NULL : batch_ask(g, sb_str(&line), &ans);
    if (!a) {
        conn_error(c, "out of memory");
    } else if (!answer_ok(a)) {
        const char *msg = str_member(a, "error");
        sb_printf(&f, "why: %s", msg ? msg : "refused");
        conn_error(c, f.failed ? "why: refused" : sb_str(&f));
    } else {
        sb_puts(&f, "{\"type\":\"why\",\"game\":");
        sb_json_str(&f, g->id);
        for (const Json *m = a->child; m; m = m->next) {
            if (strcmp(m->key, "ok") == 0 || strcmp(m->key, "cmd") == 0)
                continue;
            sb_putc(&f, ',');
            sb_json_str(&f, m->key);
            sb_putc(&f, ':');
            put_raw(&f, m);
        }
        sb_putc(&f, '}');
        if (!f.failed)
            conn_send(c, f.s, f.len);
    }
    json_free(a);
    pthread_mutex_unlock(&g->mu);
    sb_free(&line);
    sb_free(&ans);
    sb_free(&f);
}

/* {"type":"record"}: the game's record (docs/RECORDS.md), when it holds
 * nothing the asker may not know: no other seat's hidden facts (MASQ-12,
 * MASQ-16: after the end, once they have shown them); a spectator, no
 * seat's. */
static void on_record(WebConn *c)
{
    if (!c->game)
        return conn_error(c, "record: say hello first (game and token)");
    WebGame *g = c->game;
    pthread_mutex_lock(&g->mu);
    Game *gm = batch_game(g->b);
    unsigned others = game_secret_seats(gm) & ~(c->seat >= 0 ? 1u << c->seat : 0u);
    StrBuf rec = STRBUF_INIT, f = STRBUF_INIT;
    if (others) {
        sb_puts(&f, "record: the record would hold the hidden facts of ");
        for (int s = 0, k = 0; s < game_nseats(gm); s++)
            if (others & (1u << s))
                sb_printf(&f, "%s%s", k++ ? " and " : "", game_seat_name(gm, s));
        sb_puts(&f, game_to_act(gm) >= 0 ? ": it can be saved once the game is over and they "
                                           "have shown their pieces (show)"
                                         : ": they have not shown their pieces (show)");
        conn_error(c, sb_str(&f));
    } else if (record_save(gm, &rec) || rec.failed) {
        conn_error(c, "record: this game cannot be written as a record");
    } else {
        sb_puts(&f, "{\"type\":\"record\",\"game\":");
        sb_json_str(&f, g->id);
        sb_puts(&f, ",\"text\":");
        sb_json_str(&f, sb_str(&rec));
        sb_putc(&f, '}');
        if (!f.failed)
            conn_send(c, f.s, f.len);
    }
    pthread_mutex_unlock(&g->mu);
    sb_free(&rec);
    sb_free(&f);
}

typedef struct FrameCall {
    WebServer *s;
    WebConn *c;
    const char *data;
    size_t n;
} FrameCall;

static void frame_big(void *arg)
{
    FrameCall *f = arg;
    web_frame_here(f->s, f->c, f->data, f->n);
}

void web_frame(WebServer *s, WebConn *c, const char *data, size_t n)
{
    FrameCall f = {s, c, data, n};
    if (web_run_big(frame_big, &f))
        conn_error(c, "the server is out of threads: nothing was done, try again");
}

/* One text frame of n bytes from c, on a thread with room for the engine. */
void web_frame_here(WebServer *s, WebConn *c, const char *data, size_t n)
{
    Error e;
    e.msg[0] = '\0';
    Json *j = json_parse(data, n, &e);
    if (!j) {
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "malformed JSON: %s", e.msg);
        conn_error(c, sb_str(&m));
        sb_free(&m);
        return;
    }
    const char *type = j->type == JSON_OBJECT ? str_member(j, "type") : NULL;
    if (j->type != JSON_OBJECT)
        conn_error(c, "a frame is one JSON object with a \"type\"");
    else if (!type)
        conn_error(c, "the frame has no \"type\" (hello, act, why, record or ping)");
    else if (strcmp(type, "hello") == 0)
        on_hello(s, c, j);
    else if (strcmp(type, "act") == 0)
        on_act(s, c, j);
    else if (strcmp(type, "record") == 0)
        on_record(c);
    else if (strcmp(type, "why") == 0)
        on_why(c, j);
    else if (strcmp(type, "ping") == 0)
        conn_send(c, "{\"type\":\"pong\"}", 15);
    else if (strncmp(type, "class-", 6) == 0)
        web_class_frame(s, c, type, j);
    else if (strncmp(type, "learn-", 6) == 0)
        web_learn_frame(c, type, j);
    else {
        char q[48];
        StrBuf m = STRBUF_INIT;
        sb_printf(&m, "unknown frame type '%s' (hello, act, why, record or ping)",
                  str_clip(q, sizeof q, type));
        conn_error(c, sb_str(&m));
        sb_free(&m);
    }
    json_free(j);
}

/* c leaves its game (its lock taken here): no frame goes to it again, and
 * its reference to the game goes. */
void web_conn_leave(WebServer *s, WebConn *c)
{
    web_class_leave(s, c);
    web_learn_leave(c);
    WebGame *g = c->game;
    if (!g)
        return;
    pthread_mutex_lock(&g->mu);
    g->active = web_now_ms();
    int away = c->seat >= 0 && !seat_online(g, c->seat, c);
    for (WebConn **p = &g->conns; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    if (away) /* its seat has no viewer now */
        broadcast_seats(g, NULL);
    pthread_mutex_unlock(&g->mu);
    c->game = NULL;
    web_game_put(s, g);
}

/* ---- Bots --------------------------------------------------------------- */

/* The bot of seat failed at this ply (g's lock held; a: its answer, or
 * NULL when memory ran out).  It is not tried again until the game changes
 * (a failure of the same state would repeat, and trying at every turn of
 * the bots' thread would spin): every viewer is told at once by a notice
 * frame, and the seat's entry of the seats list says it is stuck, so a
 * person can undo their move (the bot then tries again when its turn comes
 * back) or resign.  The engine's message is given only while no seat holds
 * hidden facts: the bot thinks from what its seat knows, so a house rule's
 * error met in its thinking could name its seat's secrets. */
static void bot_failed(WebServer *s, WebGame *g, int seat, const Json *a, const StrBuf *ans)
{
    Game *gm = batch_game(g->b);
    const char *msg = a ? str_member(a, "error") : NULL;
    const char *name = game_seat_name(gm, seat);
    if (!s->cfg.quiet)
        fprintf(stderr, "chessvar serve: game %s: the bot of %s failed: %s\n", g->id, name,
                sb_str(ans));
    StrBuf t = STRBUF_INIT, f = STRBUF_INIT;
    sb_printf(&t, "the bot of %s (%s) failed: ", name, g->bot[seat]);
    if (game_secret_seats(gm))
        sb_puts(&t, "its message is not shown, as it may tell what only that seat knows");
    else
        sb_puts(&t, msg ? msg : "out of memory");
    sb_puts(&t, "; it tries again once the game changes (an undo), or the game may be resigned");
    str_copy(g->bot_error, sizeof g->bot_error, t.failed ? "the bot failed" : sb_str(&t));
    g->bot_failed = g->changes;
    g->bot_failed_seat = seat;
    sb_puts(&f, "{\"type\":\"notice\",\"game\":");
    sb_json_str(&f, g->id);
    sb_puts(&f, ",\"seat\":");
    sb_json_str(&f, name);
    sb_puts(&f, ",\"message\":");
    sb_json_str(&f, g->bot_error);
    sb_putc(&f, '}');
    if (!f.failed)
        for (WebConn *c = g->conns; c; c = c->next)
            if (!c->closed)
                conn_send(c, f.s, f.len);
    sb_free(&t);
    sb_free(&f);
}

/* One bot move in g if a bot is to act and its time has come: 1 played,
 * 0 none due (*due: when the next is, or 0), -1 the bot failed. */
static int bot_step(WebServer *s, WebGame *g, long long now, long long *due)
{
    int rc = 0;
    pthread_mutex_lock(&g->mu);
    Game *gm = batch_game(g->b);
    int seat = game_to_act(gm);
    if (seat >= 0 && g->bot[seat][0] && g->bot_failed != g->changes && g->tb_seat < 0) {
        if (now < g->bot_due) {
            *due = g->bot_due;
        } else {
            StrBuf line = STRBUF_INIT, ans = STRBUF_INIT;
            sb_printf(&line, "as %s bot %s", game_seat_name(gm, seat), g->bot[seat]);
            Json *a = batch_ask(g, sb_str(&line), &ans);
            if (a && answer_ok(a)) {
                g->bot_due = web_now_ms() + s->cfg.bot_delay_ms;
                web_changed(s, g);
                rc = 1;
            } else {
                bot_failed(s, g, seat, a, &ans);
                rc = -1;
            }
            json_free(a);
            sb_free(&line);
            sb_free(&ans);
        }
    }
    pthread_mutex_unlock(&g->mu);
    return rc;
}

/* The bots' thread: plays every bot seat that is to act, one move a game
 * at a time in turn, so no game waits for another's whole game. */
void *web_bot_thread(void *arg)
{
    WebServer *s = arg;
    pthread_mutex_lock(&s->bot_mu);
    while (!s->stopping) {
        s->bot_wake = 0;
        pthread_mutex_unlock(&s->bot_mu);
        long long next = 0;
        int played = 0;
        for (int i = 0;; i++) {
            WebGame *g = web_game_at(s, i); /* held while its bot thinks */
            if (!g || s->stopping) {
                web_game_put(s, g);
                break;
            }
            long long due = 0;
            played |= bot_step(s, g, web_now_ms(), &due) == 1;
            web_game_put(s, g);
            if (due && (!next || due < next))
                next = due;
        }
        pthread_mutex_lock(&s->bot_mu);
        if (played || s->bot_wake || s->stopping)
            continue;
        if (next) {
            long long wait = next - web_now_ms();
            if (wait < 1)
                wait = 1;
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            t.tv_sec += wait / 1000;
            t.tv_nsec += (wait % 1000) * 1000000;
            if (t.tv_nsec >= 1000000000) {
                t.tv_sec++;
                t.tv_nsec -= 1000000000;
            }
            pthread_cond_timedwait(&s->bot_cond, &s->bot_mu, &t);
        } else {
            pthread_cond_wait(&s->bot_cond, &s->bot_mu);
        }
    }
    pthread_mutex_unlock(&s->bot_mu);
    return NULL;
}

/* ---- Making games ------------------------------------------------------- */

void web_game_free(WebGame *g)
{
    if (!g)
        return;
    batch_close(g->b);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* A bot level the server lets play: bot_spec_parse's, with at most 10 s or
 * 2,000,000 nodes a decision (the bots' thread serves every game). */
int web_bot_level(const char *text, Error *e)
{
    BotSpec spec;
    if (bot_spec_parse(text, &spec, e))
        return -1;
    if (spec.lim.ms > 10000 || spec.lim.nodes > 2000000)
        return err_set(e, "bot %s: a bot of this server thinks at most 10 s or 2000000 "
                          "nodes a decision (search:10000ms, search:2000000)", text);
    return 0;
}

/* The game web_add_game drops from the full table to make room (s->mu
 * held): its index, or -1.  Only a game held by the table alone (refs 1:
 * no viewer, no thread using it, so reading it here races with nobody)
 * whose record is on disk or that is over: the one over and least
 * recently active, else with --data the one least recently active idle
 * for cfg.idle_ms. */
static int evictable(WebServer *s)
{
    long long now = web_now_ms();
    int over = -1, idle = -1;
    for (int i = 0; i < s->ngames; i++) {
        WebGame *g = s->games[i];
        if (g->refs != 1 || g->unsaved)
            continue;
        if (g->over && (over < 0 || g->active < s->games[over]->active))
            over = i;
        else if (!g->over && s->data && now - g->active >= s->cfg.idle_ms &&
                 (idle < 0 || g->active < s->games[idle]->active))
            idle = i;
    }
    return over >= 0 ? over : idle;
}

int web_add_game(WebServer *s, WebGame *g, int evict, Error *e)
{
    WebGame *dropped = NULL;
    pthread_mutex_lock(&s->mu);
    if (s->ngames >= s->cfg.max_games) {
        int k = evict ? evictable(s) : -1;
        if (k < 0) {
            pthread_mutex_unlock(&s->mu);
            return err_set(e, "the server holds %d games, its limit, none of them over or "
                              "idle without viewers to make room: no new game can start",
                           s->cfg.max_games);
        }
        dropped = s->games[k];
        memmove(s->games + k, s->games + k + 1, sizeof *s->games * (size_t)(s->ngames - k - 1));
        s->ngames--;
        dropped->in_table = 0;
        dropped->refs--; /* the table's, the last */
        if (!s->data) { /* gone for good: its link will say so */
            str_copy(s->gone[s->gone_next], sizeof s->gone[0], dropped->id);
            s->gone_next = (s->gone_next + 1) % WEB_GONE;
            if (s->ngone < WEB_GONE)
                s->ngone++;
        }
    }
    s->games[s->ngames++] = g;
    g->in_table = 1;
    g->refs++;
    pthread_mutex_unlock(&s->mu);
    web_game_free(dropped);
    wake_bots(s);
    return 0;
}

WebGame *web_game_new(Batch *b, Error *e)
{
    WebGame *g = calloc(1, sizeof *g);
    if (!g) {
        batch_close(b);
        err_set(e, "out of memory");
        return NULL;
    }
    g->b = b;
    g->nseats = game_nseats(batch_game(b));
    g->bot_failed = -1;
    g->bot_failed_seat = -1;
    g->tb_seat = -1;
    g->refs = 1;
    g->over = game_to_act(batch_game(b)) < 0;
    g->active = web_now_ms();
    pthread_mutex_init(&g->mu, NULL);
    int bad = web_random_hex(g->id, 8);
    for (int k = 0; k < g->nseats; k++)
        bad |= web_random_hex(g->token[k], 16);
    if (bad) {
        web_game_free(g);
        err_set(e, "the system gave no random bytes for the tokens (getrandom failed)");
        return NULL;
    }
    return g;
}
