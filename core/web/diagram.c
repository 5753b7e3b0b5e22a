/*
 * diagram.c -- GET /api/diagram (issue 22 point 4): a game's board as one
 * viewer sees it, drawn by core/draw/ (the renderer of `chessvar diagram`),
 * so that the page can show the server's board (docs/WEB.md).
 *
 * Invariant: the seat is the one whose token the request carries, as for a
 * WebSocket's hello (no token: a spectator); the board is that seat's View
 * and nothing else, so a request learns what its link may see and no more.
 */
#include <stdlib.h>
#include <string.h>

#include "../draw/draw.h"
#include "web_int.h"

typedef struct DiagramCall {
    WebGame *g;
    int seat;
    const char *arrows, *marks, *window;
    StrBuf *out;
    Error *e;
    int status;
} DiagramCall;

/* On a thread with room for the engine (web_run_big), the game locked. */
static void diagram_big(void *arg)
{
    DiagramCall *c = arg;
    View *v = malloc(sizeof *v);
    DrawOpts *o = malloc(sizeof *o);
    c->status = 500;
    if (!v || !o) {
        err_set(c->e, "out of memory");
        goto done;
    }
    pthread_mutex_lock(&c->g->mu);
    Game *gm = batch_game(c->g->b);
    int bad = game_view(gm, c->seat, v);
    if (!bad)
        draw_opts_for(gm, v, o);
    pthread_mutex_unlock(&c->g->mu);
    if (bad) {
        err_set(c->e, "out of memory");
        goto done;
    }
    c->status = 400;
    if ((c->arrows && draw_parse_arrows(&v->geo, c->arrows, o, c->e)) ||
        (c->marks && draw_parse_marks(&v->geo, c->marks, o, c->e)) ||
        (c->window && draw_parse_window(&v->geo, c->window, o, c->e)))
        goto done;
    o->standalone = 1;
    if (draw_svg(v, o, c->out, c->e))
        goto done;
    c->status = 200;
    if (sb_failed(c->out)) {
        err_set(c->e, "out of memory");
        c->status = 500;
    }
done:
    free(v);
    free(o);
}

int web_diagram(WebServer *s, const char *id, const char *token, const char *arrows,
                const char *marks, const char *window, StrBuf *out, Error *e)
{
    if (!id) {
        err_set(e, "say which game: /api/diagram?game=ID (and &t=TOKEN for a seat's board)");
        return 400;
    }
    WebGame *g = web_find_game(s, id); /* held (a reference) until drawn */
    if (!g) {
        err_set(e, "no game '%.40s' on this server", id);
        return 404;
    }
    int seat = -1;
    if (token && token[0]) {
        for (int k = 0; k < g->nseats && seat < 0; k++)
            if (web_token_eq(token, g->token[k]))
                seat = k;
        if (seat < 0) {
            web_game_put(s, g);
            err_set(e, "this token is no seat's of this game (the link may be mistyped)");
            return 404;
        }
    }
    DiagramCall c = {g, seat, arrows, marks, window, out, e, 500};
    if (web_run_big(diagram_big, &c)) {
        err_set(e, "the server is out of threads: try again");
        c.status = 503;
    }
    web_game_put(s, g);
    return c.status;
}
