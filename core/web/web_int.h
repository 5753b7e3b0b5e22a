/*
 * web_int.h -- what the files of core/web share: the server, its games and
 * connections (server.c: frames and bots; http.c: civetweb and the HTTP
 * API; store.c: the data folder).
 *
 * Invariant: the locks of server.c's header comment; a WebConn belongs to
 * at most one game, whose list holds it from hello to close.
 */
#ifndef CHESSVAR_WEB_INT_H
#define CHESSVAR_WEB_INT_H

#include <pthread.h>

#include "../cli/cli.h"
#include "../json.h"
#include "../lua/house.h"
#include "web.h"

struct mg_connection;
struct mg_context;

#define WEB_ID_HEX 17     /* 64 bits as hex, and a NUL */
#define WEB_TOKEN_HEX 33  /* 128 bits as hex, and a NUL */
#define WEB_BOT_MAX 32    /* a bot level's text */

typedef struct WebConn WebConn;
typedef struct WebGame WebGame;
typedef struct WebClass WebClass;
typedef struct WebClasses WebClasses;
typedef struct WebLesson WebLesson;
typedef struct WebLab WebLab;
typedef struct WebRuleLab WebRuleLab;

struct WebGame {
    char id[WEB_ID_HEX];
    /* Under the table's lock (s->mu): the references to the game.  The
     * table holds one while the game is in it, each connection that said
     * hello one, and every thread that uses the game outside the table's
     * lock (the bots' thread, a hello, a listing, a game just made) one
     * while it does; the last to let go frees it (web_game_put).  So a
     * game with one reference is the table's alone: nobody else holds its
     * pointer, and it may be dropped from memory (web_add_game). */
    int refs;
    int in_table;
    int over;                /* the game is over (its last change said so), */
    long long active;        /* and when it last changed or a viewer left */
    pthread_mutex_t mu;      /* everything below, and over and active */
    Batch *b;                /* the game and its batch protocol */
    int nseats;
    char token[MAX_SEATS][WEB_TOKEN_HEX];
    char bot[MAX_SEATS][WEB_BOT_MAX]; /* "" for a person */
    WebConn *conns;          /* its viewers */
    long long bot_due;       /* the next bot move, not before (web_now_ms) */
    long changes;            /* changes of the game so far (web_changed) */
    int unsaved;             /* its last record write failed (web_stop tries again) */
    long bot_failed;         /* the change after which a bot failed, -1: it */
    int bot_failed_seat;     /* is not tried again until the next change */
    char bot_error[400];     /* what its viewers were told */
    int lab;                 /* its rules include a lab rule: the lab's limits */
    int tb_seat;             /* the seat asking a takeback (issue 21), -1: none; */
    int tb_n;                /* the actions it takes back, */
    unsigned tb_need;        /* the seats whose consent it needs (bits), */
    unsigned tb_agreed;      /* those that gave it; any change ends it */
};

struct WebConn {
    struct mg_connection *mc;
    pthread_mutex_t wmu;     /* writes to mc, closed */
    int closed;              /* a write failed: no more frames */
    int refused;             /* over the connection limit: told and closed */
    WebGame *game;           /* after hello */
    int seat;                /* -1: a spectator */
    int board;               /* the classroom board view (a spectator's) */
    int seen;                /* messages already sent in state frames */
    long long window;        /* the second (web_now_ms / 1000) counted */
    int frames;              /* frames in that second */
    WebClass *cls;           /* the class it is in (class.c), or NULL, */
    int cls_teacher;         /* as its teacher (1) or a student */
    WebLesson *lesson;       /* the lesson it plays (learn.c), or NULL */
    WebConn *next;           /* in game->conns */
};

struct WebServer {
    WebConfig cfg;
    char host[256];
    char *data, *scripts;    /* copies of cfg's, or NULL */
    struct mg_context *ctx;
    int port;
    pthread_mutex_t mu;      /* games, ngames, nconns, gone, refs */
    WebGame **games;
    int ngames;
    int nconns;
    char (*gone)[WEB_ID_HEX]; /* games over dropped for good (no --data): */
    int ngone, gone_next;    /* the last WEB_GONE, so a link says so */
    pthread_mutex_t load_mu; /* a game read back from --data: one at a time */
    pthread_mutex_t bot_mu;  /* stopping, bot_wake */
    pthread_cond_t bot_cond;
    int stopping, bot_wake, bot_started;
    pthread_t bot_thread;
    StrBuf variants_json;    /* GET /api/variants, made once */
    int nscripts;
    char **script_files;     /* the offered scripts' file names */
    WebClasses *classes;     /* the teacher's boards (class.c) */
    WebLab *lab;             /* the experiments (labjobs.c) */
    WebRuleLab *rulelab;     /* the house-rule lab's rules (lab.c) */
    /* The limits of a game whose rules include a lab rule (one of the
     * page's, an experiment's, a comparison's): every house rule's, with
     * cfg.lab_game_ms for all of a game's hook calls together (lab.c). */
    HouseLimits lab_limits;
};

long long web_now_ms(void);
int web_random_hex(char *out, size_t nbytes);
void web_seats_json(WebGame *g, StrBuf *out);
/* The game of id in the table with a reference for the caller, or NULL;
 * web_game_at: the i-th, or NULL past the last.  web_game_put lets a
 * reference go (the last one frees the game). */
WebGame *web_find_game(WebServer *s, const char *id);
WebGame *web_game_at(WebServer *s, int i);
void web_game_put(WebServer *s, WebGame *g);
/* Whether game id was over and dropped for good (a server without --data). */
int web_game_gone(WebServer *s, const char *id);
#define WEB_GONE 1024
/* Equal tokens, in a time that does not depend on where they differ. */
int web_token_eq(const char *a, const char *b);
/* diagram.c, GET /api/diagram (issue 22): the SVG board of game id as the
 * seat of token sees it (no token: a spectator), with the arrows, marks and
 * the plane's window (NULL: none) as core/draw/ reads them, into out: 200,
 * or 400 or 404 with e. */
int web_diagram(WebServer *s, const char *id, const char *token, const char *arrows,
                const char *marks, const char *window, StrBuf *out, Error *e);
void web_changed(WebServer *s, WebGame *g);
/* One text frame to c; an error frame {"type":"error","message":msg}. */
void web_conn_send(WebConn *c, const char *text, size_t n);
void web_conn_error(WebConn *c, const char *msg);
/* class.c, the teacher's board (issue 22 point 5): the classes' table,
 * a frame whose type begins "class-", and c leaving its class. */
WebClasses *web_classes_new(void);
void web_classes_free(WebClasses *cl);
void web_class_frame(WebServer *s, WebConn *c, const char *type, const Json *j);
void web_class_leave(WebServer *s, WebConn *c);
/* learn.c, lessons in the browser (issue 22 point 3): a frame whose type
 * begins "learn-", and c's lesson freed. */
void web_learn_frame(WebConn *c, const char *type, const Json *j);
void web_learn_leave(WebConn *c);
/* The lesson file of variant name (lessons_dir()/NAME.txt) into f: 0, or
 * -1 with e. */
struct LessonFile;
int web_lesson_file(const char *name, struct LessonFile *f, Error *e);
/* fn(arg) on a thread with a stack for the engine (civetweb's are small),
 * waited for: 0, or -1 when no thread could be made (nothing ran). */
int web_run_big(void (*fn)(void *), void *arg);
/* One text frame of n bytes from c: web_frame runs web_frame_here on
 * such a thread. */
void web_frame(WebServer *s, WebConn *c, const char *data, size_t n);
void web_frame_here(WebServer *s, WebConn *c, const char *data, size_t n);
void web_conn_leave(WebServer *s, WebConn *c);
void *web_bot_thread(void *arg);
void web_game_free(WebGame *g);
int web_bot_level(const char *text, Error *e);
/* Add g to the table (it takes a reference of its own).  When the table
 * is full and evict is 1, the game that is over and was active least
 * recently, held by nobody but the table, is dropped from memory to make
 * room (its files stay in --data, where a hello finds it again); with
 * --data, else the least recently active game idle for cfg.idle_ms with
 * no viewer.  0, or -1 with e when there is no room. */
int web_add_game(WebServer *s, WebGame *g, int evict, Error *e);
/* A new WebGame around batch b (taken over), with fresh tokens and one
 * reference, the caller's; web_game_free frees one never added. */
WebGame *web_game_new(Batch *b, Error *e);

/* text to path (in folder dir), all or nothing: written beside, synced,
 * renamed, dir synced; mode 0600.  0, or -1 with e. */
int web_write_atomic(const char *dir, const char *path, const StrBuf *text, Error *e);

/* store.c: the data folder (s->data).  Each game is GAME.rec (its record,
 * full truth) and GAME.meta (tokens and players), written atomically. */
int web_store_meta(WebServer *s, WebGame *g, Error *e);
int web_store_record(WebServer *s, WebGame *g, Error *e);
int web_store_load_all(WebServer *s, Error *e);
/* The game id read back from s->data into the table (a hello for a game
 * dropped from memory): it with a reference for the caller; NULL with
 * e->msg empty when DIR has no such game, or with why. */
WebGame *web_store_reload(WebServer *s, const char *id, Error *e);
/* The files of a game that did not start (the table was full). */
void web_store_remove(WebServer *s, WebGame *g);

/* lab.c, the house-rule lab (issue 23 point 3): rules sent over the
 * network, checked as `chessvar check` does and kept by their SHA-256 in a
 * folder (DIR/lab with --data, else a private temporary one), at most
 * cfg.max_lab_rules of them, the least recently used leaving first.
 * web_rulelab_new: the lab of s (its rules of --data read back), or NULL with
 * e; web_rulelab_free removes a temporary folder. */
WebRuleLab *web_rulelab_new(WebServer *s, Error *e);
void web_rulelab_free(WebRuleLab *lab);
/* The file of lab rule `id` (64 hex digits, after "lab:") appended to
 * paths with its NUL, as the resolver of "rules" names scripts: 0, or -1
 * with e saying the rule is unknown (never stored, or left to make room). */
int web_rulelab_path(WebServer *s, const char *id, StrBuf *paths, Error *e);
/* The scripts at paths loaded as cli_load_house does, under the lab's
 * limits (s->lab_limits) when lab is 1 (one of them is a lab rule): NULL
 * with e. */
House *web_lab_house(const WebServer *s, int lab, const VariantOps *v, int nsides,
                     const char *const *paths, int n, Error *e);
/* A request under /api/lab/ or /api/scripts/: answered, its status. */
int web_rulelab_request(WebServer *s, struct mg_connection *conn, const char *path, int get,
                    int post);

/* http.c: the answers every request handler gives (a JSON error, a JSON
 * body with a newline, the request's body read as JSON: NULL with e set
 * when malformed, with e empty when already answered 413 or 400). */
int web_send_error(struct mg_connection *conn, int status, const char *msg);
int web_send_json(struct mg_connection *conn, int status, StrBuf *b);
Json *web_read_json_body(WebServer *s, struct mg_connection *conn, Error *e);

/* http.c: a new game from the JSON body of POST /api/games: the game
 * (added to the table) and the request's answer in `answer` (its id, seats
 * and tokens), or NULL with e and *status (400, 503). */
WebGame *web_create_game(WebServer *s, const Json *req, StrBuf *answer, Error *e,
                         int *status);
/* http.c: a body of any type; "rules" as the scripts' paths (offered
 * files and lab:ID rules; *lab: 1 when one is a lab rule) and "params" as
 * --param texts, as POST /api/games reads them. */
int web_send_body(struct mg_connection *conn, int status, const char *type, const void *body,
                  size_t n);
int web_rules_paths(WebServer *s, const Json *rules, StrBuf *paths, const char **list, int *n,
                    int *lab, Error *e);
int web_params_texts(const Json *params, char ptext[][128], const char **list, int *n,
                     Error *e);

/* labjobs.c, experiments in the browser (issue 23 point 3): the queue and
 * its worker threads (NULL with e), stopped and freed (jobs running are
 * stopped after their game); the requests under /api/experiments (rest:
 * the path after it) and the share link /lab/ID. */
WebLab *web_lab_new(WebServer *s, Error *e);
void web_lab_free(WebLab *lab);
int web_lab_http(WebServer *s, struct mg_connection *conn, const char *rest);
int web_lab_link(struct mg_connection *conn, const char *id);

#endif
