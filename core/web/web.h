/*
 * web.h -- `chessvar serve`: an HTTP + WebSocket server (civetweb) that
 * plays many games at once for browsers, one device per seat, spectators
 * beside them (issue 21; docs/WEB.md says what it serves and how).
 *
 * Invariant: every frame a viewer receives is built from that viewer's own
 * answers of the batch protocol (core/cli/cli.h: `as SEAT view`, `legal`,
 * `history`, `status`), or for a spectator from the view of seat -1, so a
 * frame never holds what its viewer may not know.  A request or frame a
 * client sends either works completely or changes nothing and is answered
 * by an error; no client can crash or stall the server.
 */
#ifndef CHESSVAR_WEB_H
#define CHESSVAR_WEB_H

#include <stddef.h>

#include "../util.h"

typedef struct WebConfig {
    const char *host;      /* address to listen on ("127.0.0.1", "0.0.0.0", "::1") */
    int port;              /* 0: a free port (web_port says which) */
    const char *data;      /* folder of the games' records and meta, or NULL */
    const char *scripts;   /* folder of the house rules offered (*.lua), or NULL */
    int max_games;         /* games the server holds at most */
    int max_conns;         /* WebSocket connections at once */
    size_t max_frame;      /* bytes of a client's frame */
    int max_rate;          /* frames a second a connection may send */
    size_t max_body;       /* bytes of an HTTP request's body */
    int bot_delay_ms;      /* pause between two bot moves in one game */
    long long idle_ms;     /* with data: a game without viewers or change
                            * this long may leave memory for a new one */
    int max_lab_rules;     /* house-rule lab rules kept (issue 23) */
    /* a game, experiment or comparison with a lab rule: all of a game's
     * hook calls together, and a search bot's decision of such a game, in
     * wall ms (0: WEB_LAB_GAME_MS, WEB_LAB_BOT_MS) */
    long lab_game_ms, lab_bot_ms;
    int quiet;             /* 1: no lines on standard error (tests) */
    /* experiments (labjobs.c, issue 23): the worker threads that play
     * them, the jobs queued or running at once (overall, per client
     * address), the results held in memory, the games a rule set may ask
     * and how long one may run */
    int lab_workers, lab_jobs, lab_per_client, lab_keep;
    long lab_max_games;
    long long lab_max_ms;
} WebConfig;

#define WEB_MAX_FRAME (64 * 1024)
#define WEB_MAX_BODY (64 * 1024)
#define WEB_LAB_GAME_MS 5000
#define WEB_LAB_BOT_MS 2000

/* The defaults of docs/WEB.md: loopback, port 8080, 1000 games, 1000
 * connections, 64 KiB frames and bodies, 50 frames a second. */
void web_config_defaults(WebConfig *c);

typedef struct WebServer WebServer;
/* Load every game of c->data (created if missing), then listen: the
 * server, or NULL with e (the address taken, a record that cannot be
 * read ...).  The strings of c are copied. */
WebServer *web_start(const WebConfig *c, Error *e);
/* The port the server listens on (the real one when c->port was 0). */
int web_port(const WebServer *s);
/* Games the server holds now. */
int web_game_count(WebServer *s);
/* The value of one of the HTTP server's options ("tcp_nodelay" ...), as
 * it runs: "" for an unknown name. */
const char *web_option(const WebServer *s, const char *name);
/* Stop listening, close every connection, stop the bots, write what is
 * left and free the server (NULL: nothing). */
void web_stop(WebServer *s);

/* The QR code of text drawn with half blocks, two modules a character,
 * a quiet zone around it, into out: 0, or -1 with e. */
int web_qr_text(const char *text, StrBuf *out, Error *e);

/* 1 when host is a loopback address (127.x.y.z, ::1, localhost). */
int web_host_is_loopback(const char *host);

#endif
