/*
 * http.c -- civetweb's side of `chessvar serve`: starting and stopping
 * the server, the page's files, the HTTP API (GET /api/variants, GET and
 * POST /api/games, GET /api/diagram) and the WebSocket /ws's handlers
 * (docs/WEB.md).
 *
 * Invariant: every request gets one complete answer with a status (404,
 * 405, 413, 400, 503 with a JSON error naming the problem); a body or a
 * frame over its limit is never read whole.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <civetweb.h>

#include "../lab/bot.h"
#include "../lua/house.h"
#include "web_files.h"
#include "web_int.h"

/* ---- Answers ------------------------------------------------------------ */

static const char *reason_of(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 302: return "Found";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 429: return "Too Many Requests";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
    }
}

static int send_body(struct mg_connection *conn, int status, const char *type,
                     const void *body, size_t n)
{
    mg_printf(conn, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
                    "Cache-Control: no-cache\r\nX-Content-Type-Options: nosniff\r\n"
                    "Connection: close\r\n\r\n", status, reason_of(status), type, n);
    mg_write(conn, body, n);
    return status;
}

static int send_error(struct mg_connection *conn, int status, const char *msg)
{
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"error\":");
    sb_json_str(&b, msg);
    sb_puts(&b, "}\n");
    int rc = send_body(conn, status, "application/json", sb_str(&b), b.len);
    sb_free(&b);
    return rc;
}

static int send_json(struct mg_connection *conn, int status, StrBuf *b)
{
    if (b->failed)
        return send_error(conn, 500, "out of memory");
    sb_putc(b, '\n');
    return send_body(conn, status, "application/json", sb_str(b), b->len);
}

int web_send_body(struct mg_connection *conn, int status, const char *type, const void *body,
                  size_t n)
{
    return send_body(conn, status, type, body, n);
}

int web_send_error(struct mg_connection *conn, int status, const char *msg)
{
    return send_error(conn, status, msg);
}

int web_send_json(struct mg_connection *conn, int status, StrBuf *b)
{
    return send_json(conn, status, b);
}

/* ---- The page's files --------------------------------------------------- */

static const char *mime_of(const char *name)
{
    static const char *const TYPES[][2] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
        {".png", "image/png"},                 {".json", "application/json"},
        {".ico", "image/x-icon"},              {".txt", "text/plain; charset=utf-8"},
    };
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < ARRAY_LEN(TYPES); i++)
        if (strcmp(dot, TYPES[i][0]) == 0)
            return TYPES[i][1];
    return "application/octet-stream";
}

static int send_file(struct mg_connection *conn, const char *path)
{
    const char *name = strcmp(path, "/") == 0 ? "index.html" : path + 1;
    for (const WebFile *f = web_files; f->name; f++)
        if (strcmp(f->name, name) == 0)
            return send_body(conn, 200, mime_of(f->name), f->data, f->len);
    if (strcmp(path, "/") == 0) {
        const char *t = "chessvar serve: this build holds no page (web/ was empty); "
                        "the API is at /api/variants, /api/games and /ws\n";
        return send_body(conn, 404, "text/plain; charset=utf-8", t, strlen(t));
    }
    return send_error(conn, 404, "no such file on this server");
}

/* ---- GET /api/variants -------------------------------------------------- */

static const char *const PARAM_TYPES[] = {"bool", "int", "choice"};

/* The seats' names for every number of sides and seats the variant allows,
 * from a game made with them (game_seat_name, as `chessvar play` names
 * them): {"sides":S,"seats":N,"names":[...]}, so the lobby offers exactly
 * the names POST /api/games takes (issue 21).  A count whose game cannot
 * be made is left out. */
static void seat_names_json(const VariantOps *v, StrBuf *b)
{
    int lo = 0, hi = 0, k = 0;
    if (v->version >= 2 && v->max_seats) {
        lo = v->min_seats;
        hi = v->max_seats;
    }
    for (int sides = v->min_sides; sides <= v->max_sides; sides++)
        for (int seats = lo; seats <= hi; seats++) {
            GameConfig cfg;
            Error e;
            memset(&cfg, 0, sizeof cfg);
            cfg.variant = v;
            cfg.nsides = sides;
            cfg.nseats = seats;
            Game *g = game_new(&cfg, &e);
            if (!g)
                continue;
            sb_printf(b, "%s{\"sides\":%d,\"seats\":%d,\"names\":[", k++ ? "," : "", sides,
                      game_nseats(g));
            for (int i = 0; i < game_nseats(g); i++) {
                if (i)
                    sb_putc(b, ',');
                sb_json_str(b, game_seat_name(g, i));
            }
            sb_puts(b, "]}");
            game_free(g);
        }
}

static void variant_json(const VariantOps *v, StrBuf *b)
{
    Params def;
    StrBuf t = STRBUF_INIT;
    params_defaults(v, &def);
    sb_puts(b, "{\"name\":");
    sb_json_str(b, v->name);
    sb_puts(b, ",\"title\":");
    sb_json_str(b, v->title);
    sb_puts(b, ",\"summary\":");
    sb_json_str(b, v->summary);
    sb_printf(b, ",\"sides\":{\"min\":%d,\"max\":%d,\"default\":%d},\"seats\":[",
              v->min_sides, v->max_sides, v->default_sides);
    if (v->version >= 2 && v->max_seats)
        for (int n = v->min_seats; n <= v->max_seats; n++)
            sb_printf(b, "%s%d", n > v->min_seats ? "," : "", n);
    else
        sb_printf(b, "%d", v->default_sides);
    sb_puts(b, "],\"seat_names\":[");
    seat_names_json(v, b);
    sb_puts(b, "],\"params\":[");
    for (int i = 0; i < v->nparams; i++) {
        const ParamDef *d = &v->params[i];
        sb_puts(b, i ? ",{\"name\":" : "{\"name\":");
        sb_json_str(b, d->name);
        sb_printf(b, ",\"type\":\"%s\",\"default\":", PARAM_TYPES[d->type]);
        sb_reset(&t);
        params_format_value(v, &def, i, &t);
        sb_json_str(b, sb_str(&t));
        if (d->type == PARAM_INT)
            sb_printf(b, ",\"min\":%d,\"max\":%d", d->min, d->max);
        if (d->type == PARAM_ENUM) {
            sb_puts(b, ",\"choices\":[");
            for (int k = 0; d->choices[k]; k++) {
                if (k)
                    sb_putc(b, ',');
                sb_json_str(b, d->choices[k]);
            }
            sb_putc(b, ']');
        }
        sb_puts(b, ",\"doc\":");
        sb_json_str(b, d->doc);
        sb_putc(b, '}');
    }
    sb_puts(b, "]}");
    sb_free(&t);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Add the *.lua of folder dir (s->scripts, or a folder in it: sub its
 * name) to s->script_files, as "NAME.lua" or "SUB/NAME.lua"; with
 * sub == NULL, the folders in it too, one level down (scripts/variants/,
 * issue 24).  0, or -1 when out of memory. */
static int list_scripts(WebServer *s, const char *sub, int *cap)
{
    StrBuf dir = STRBUF_INIT;
    sb_printf(&dir, sub ? "%s/%s" : "%s", s->scripts, sub);
    DIR *d = dir.failed ? NULL : opendir(sb_str(&dir));
    struct dirent *de;
    int rc = 0;
    while (d && !rc && (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (de->d_name[0] == '.')
            continue;
        if (n < 5 || strcmp(de->d_name + n - 4, ".lua") != 0) {
            StrBuf in = STRBUF_INIT;
            sb_printf(&in, "%s/%s", sb_str(&dir), de->d_name);
            DIR *more = !sub && !in.failed ? opendir(sb_str(&in)) : NULL;
            if (more) {
                closedir(more);
                rc = list_scripts(s, de->d_name, cap);
            }
            sb_free(&in);
            continue;
        }
        if (s->nscripts == *cap) {
            *cap = *cap ? 2 * *cap : 16;
            char **more = realloc(s->script_files, sizeof *more * (size_t)*cap);
            if (!more) {
                rc = -1;
                break;
            }
            s->script_files = more;
        }
        StrBuf name = STRBUF_INIT;
        sb_printf(&name, sub ? "%s/%s" : "%s%s", sub ? sub : "", de->d_name);
        if (name.failed || !(s->script_files[s->nscripts] = strdup(sb_str(&name))))
            rc = -1;
        else
            s->nscripts++;
        sb_free(&name);
    }
    if (d)
        closedir(d);
    sb_free(&dir);
    return rc;
}

/* The *.lua of s->scripts and of its folders (one level: variants/...),
 * each loaded against every variant: the ones that load are offered for
 * those variants.  Made once at the start. */
static void scripts_json(WebServer *s, StrBuf *b)
{
    sb_puts(b, "\"scripts\":[");
    int cap = 0;
    if (s->scripts)
        list_scripts(s, NULL, &cap);
    if (s->nscripts)
        qsort(s->script_files, (size_t)s->nscripts, sizeof *s->script_files, by_name);
    for (int i = 0, shown = 0; i < s->nscripts; i++) {
        StrBuf path = STRBUF_INIT, vs = STRBUF_INIT;
        sb_printf(&path, "%s/%s", s->scripts, s->script_files[i]);
        const char *p = sb_str(&path);
        House *first = NULL;
        for (int k = 0; variant_registry[k]; k++) {
            Error e;
            House *h = cli_load_house(variant_registry[k], 0, &p, 1, &e);
            if (!h)
                continue;
            sb_printf(&vs, "%s", vs.len ? "," : "");
            sb_json_str(&vs, variant_registry[k]->name);
            if (!first)
                first = h;
            else
                house_free(h);
        }
        if (first) {
            sb_puts(b, shown++ ? ",{\"file\":" : "{\"file\":");
            sb_json_str(b, s->script_files[i]);
            sb_puts(b, ",\"name\":");
            sb_json_str(b, house_title(first, 0) ? house_title(first, 0)
                                                 : house_name(first, 0));
            sb_puts(b, ",\"description\":");
            const char *desc = house_description(first, 0);
            sb_json_str(b, desc ? desc : "");
            sb_printf(b, ",\"variants\":[%s]}", sb_str(&vs));
            house_free(first);
        }
        sb_free(&path);
        sb_free(&vs);
    }
    sb_putc(b, ']');
}

static void make_variants_json(WebServer *s)
{
    StrBuf *b = &s->variants_json;
    sb_puts(b, "{\"variants\":[");
    for (int k = 0; variant_registry[k]; k++) {
        if (k)
            sb_putc(b, ',');
        variant_json(variant_registry[k], b);
    }
    sb_puts(b, "],");
    scripts_json(s, b);
    sb_putc(b, '}');
}

/* ---- POST /api/games ---------------------------------------------------- */

/* A JSON value as the text --param takes: strings as they are, numbers,
 * true/false as on/off. */
static int param_text(const Json *v, char *buf, size_t n)
{
    if (v->type == JSON_STRING)
        return snprintf(buf, n, "%s", v->str) < (int)n ? 0 : -1;
    if (v->type == JSON_TRUE || v->type == JSON_FALSE)
        return snprintf(buf, n, "%s", v->type == JSON_TRUE ? "on" : "off"), 0;
    if (v->type == JSON_NUMBER && v->num == (double)(long)v->num)
        return snprintf(buf, n, "%ld", (long)v->num), 0;
    return -1;
}

/* "params" ({NAME: VALUE}, absent or null: none) as --param texts in
 * ptext, listed in list; *n of them. */
static int params_texts(const Json *params, char ptext[][128], const char **list, int *n,
                        Error *e)
{
    *n = 0;
    if (!params || params->type == JSON_NULL)
        return 0;
    if (params->type != JSON_OBJECT || params->count > CLI_MAX_PARAMS)
        return err_set(e, "\"params\" must be an object of NAME: VALUE (at most %d)",
                       CLI_MAX_PARAMS);
    for (const Json *p = params->child; p; p = p->next) {
        char val[96];
        if (param_text(p, val, sizeof val) || strlen(p->key) > 24) {
            char q[48];
            return err_set(e, "params: %s must be a string, number or true/false",
                           str_clip(q, sizeof q, p->key));
        }
        snprintf(ptext[*n], 128, "%s=%s", p->key, val);
        list[*n] = ptext[*n];
        (*n)++;
    }
    return 0;
}

static int int_member(const Json *req, const char *key, int lo, int hi, int *out, Error *e)
{
    const Json *m = json_get(req, key);
    if (!m || m->type == JSON_NULL)
        return 0;
    if (m->type != JSON_NUMBER || m->num < lo || m->num > hi || m->num != (double)(int)m->num)
        return err_set(e, "\"%s\" must be a whole number from %d to %d", key, lo, hi);
    *out = (int)m->num;
    return 0;
}

/* The scripts named by "rules": each one of the offered files, by name,
 * or a rule of the house-rule lab, "lab:" and its SHA-256 (issue 23);
 * *lab: 1 when one of them is a lab rule (its game runs under the lab's
 * limits, web_lab_house). */
static int rules_paths(WebServer *s, const Json *rules, StrBuf *paths, const char **list,
                       int *n, int *lab, Error *e)
{
    *lab = 0;
    if (!rules || rules->type == JSON_NULL)
        return 0;
    if (rules->type != JSON_ARRAY || rules->count > CLI_MAX_RULES)
        return err_set(e, "\"rules\" must be a list of at most %d script files",
                       CLI_MAX_RULES);
    size_t offs[CLI_MAX_RULES];
    for (const Json *r = rules->child; r; r = r->next) {
        if (r->type == JSON_STRING && strncmp(r->str, "lab:", 4) == 0) {
            offs[*n] = paths->len;
            if (web_rulelab_path(s, r->str + 4, paths, e))
                return -1;
            *lab = 1;
            (*n)++;
            continue;
        }
        int found = -1;
        /* issue 24: "three_check.lua:checks=5", an offered file and its arguments */
        const char *args = r->type == JSON_STRING ? house_script_args(r->str) : NULL;
        size_t flen = r->type != JSON_STRING ? 0 : args ? (size_t)(args - 1 - r->str)
                                                        : strlen(r->str);
        for (int i = 0; r->type == JSON_STRING && i < s->nscripts; i++)
            if (strlen(s->script_files[i]) == flen &&
                strncmp(r->str, s->script_files[i], flen) == 0)
                found = i;
        if (found < 0) {
            char q[48];
            return err_set(e, "rules: no script '%s' is offered (GET /api/variants lists "
                              "them; a lab rule is \"lab:\" and its id)", r->type == JSON_STRING
                                           ? str_clip(q, sizeof q, r->str) : "?");
        }
        offs[*n] = paths->len;
        sb_printf(paths, "%s/%s%s%s", s->scripts, s->script_files[found], args ? ":" : "",
                  args ? args : "");
        sb_putc(paths, '\0');
        (*n)++;
    }
    if (paths->failed)
        return err_set(e, "out of memory");
    for (int i = 0; i < *n; i++)
        list[i] = paths->s + offs[i];
    return 0;
}

/* "players", checked before the game is made: 0, or -1 with e. */
static int check_players(const Json *players, Error *e)
{
    if (players && players->type != JSON_NULL &&
        (players->type != JSON_ARRAY || players->count > MAX_SEATS))
        return err_set(e, "\"players\" must be a list of {\"seat\",\"bot\"} (at most %d)",
                       MAX_SEATS);
    for (const Json *p = players && players->type == JSON_ARRAY ? players->child : NULL; p;
         p = p->next) {
        const Json *bot = json_get(p, "bot");
        if (p->type != JSON_OBJECT || !json_get(p, "seat") ||
            json_get(p, "seat")->type != JSON_STRING)
            return err_set(e, "players: each is {\"seat\":\"white\",\"bot\":null or a "
                              "level}");
        if (bot && bot->type != JSON_NULL && (bot->type != JSON_STRING ||
                                              strlen(bot->str) >= WEB_BOT_MAX))
            return err_set(e, "players: bot must be null or a level (random, greedy, "
                              "search, search:N, search:Nms)");
        if (bot && bot->type == JSON_STRING && web_bot_level(bot->str, e))
            return -1;
    }
    return 0;
}

static WebGame *finish_game(WebServer *s, Batch *b, const Json *players, int lab,
                            StrBuf *answer, Error *e, int *status);

/* POST /api/games with "record": the game a record holds (docs/RECORDS.md),
 * as `chessvar play --load` would start it; a record that carries house
 * rules is refused (they are code, and the server runs only its own). */
static WebGame *game_from_record(WebServer *s, const Json *req, const Json *rec,
                                 StrBuf *answer, Error *e, int *status)
{
    static const char *const ALONE[] = {"variant", "params", "rules", "sides", "seats", "seed"};
    for (size_t i = 0; i < ARRAY_LEN(ALONE); i++) {
        const Json *m = json_get(req, ALONE[i]);
        if (m && m->type != JSON_NULL)
            return err_set(e, "a record brings its own variant, parameters, rules and "
                              "seed: leave out \"%s\"", ALONE[i]), NULL;
    }
    if (rec->type != JSON_STRING)
        return err_set(e, "\"record\" must be the text of a record (docs/RECORDS.md)"), NULL;
    const Json *players = json_get(req, "players");
    if (check_players(players, e))
        return NULL;
    char path[] = "/tmp/chessvar-record-XXXXXX";
    int fd = mkstemp(path);
    size_t n = strlen(rec->str);
    if (fd < 0 || write(fd, rec->str, n) != (ssize_t)n) {
        if (fd >= 0) {
            close(fd);
            unlink(path);
        }
        *status = 500;
        return err_set(e, "the record could not be read in: %s", strerror(errno)), NULL;
    }
    close(fd);
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.command = "serve";
    o.json = 1;
    o.depth = -1;
    o.load = path;
    int st;
    Batch *b = batch_open(&o, e, &st);
    unlink(path);
    if (!b) { /* the message names the record, not the file it was read from */
        char msg[sizeof e->msg];
        const char *at = strstr(e->msg, path);
        if (at) {
            snprintf(msg, sizeof msg, "%.*srecord%s", (int)(at - e->msg), e->msg,
                     at + strlen(path));
            str_copy(e->msg, sizeof e->msg, msg);
        }
        return NULL;
    }
    return finish_game(s, b, players, 0, answer, e, status); /* it carries no rules */
}

static WebGame *create_with(WebServer *s, const Json *req, CliOptions *o, StrBuf *answer,
                            Error *e, int *status);

WebGame *web_create_game(WebServer *s, const Json *req, StrBuf *answer, Error *e,
                         int *status)
{
    *status = 400;
    CliOptions *op = calloc(1, sizeof *op);
    if (!op) {
        *status = 500;
        return err_set(e, "out of memory"), NULL;
    }
    WebGame *g = create_with(s, req, op, answer, e, status);
    free(op);
    return g;
}

/* web_create_game with its options in o (large: kept off the stack). */
static WebGame *create_with(WebServer *s, const Json *req, CliOptions *o, StrBuf *answer,
                            Error *e, int *status)
{
    o->command = "serve";
    o->json = 1;
    o->depth = -1;
    if (!req || req->type != JSON_OBJECT)
        return err_set(e, "the body must be one JSON object ({\"variant\":\"orthodox\"})"),
               NULL;
    const Json *rec = json_get(req, "record");
    if (rec && rec->type != JSON_NULL)
        return game_from_record(s, req, rec, answer, e, status);
    const Json *var = json_get(req, "variant");
    if (!var || var->type != JSON_STRING)
        return err_set(e, "give the variant as \"variant\" (GET /api/variants lists them)"),
               NULL;
    o->variant = variant_find(var->str);
    if (!o->variant) {
        StrBuf b = STRBUF_INIT;
        char q[48];
        for (int k = 0; variant_registry[k]; k++)
            sb_printf(&b, "%s%s", k ? ", " : "", variant_registry[k]->name);
        err_set(e, "unknown variant '%s'; the variants are: %s",
                str_clip(q, sizeof q, var->str), sb_str(&b));
        sb_free(&b);
        return NULL;
    }
    if (int_member(req, "sides", 1, MAX_SIDES, &o->sides, e) ||
        int_member(req, "seats", 1, MAX_SEATS, &o->seats, e))
        return NULL;
    const Json *seed = json_get(req, "seed");
    if (seed && seed->type != JSON_NULL) {
        char *end;
        errno = 0;
        if (seed->type != JSON_STRING || !seed->str[0] || seed->str[0] == '-' ||
            (o->seed = strtoull(seed->str, &end, 10), errno || *end))
            return err_set(e, "\"seed\" must be a whole number from 0 to "
                              "18446744073709551615, written as a string"), NULL;
        o->have_seed = 1;
    } else {
        o->have_seed = 1;
        o->seed = cli_fresh_seed();
    }
    /* --param NAME=VALUE texts */
    char ptext[CLI_MAX_PARAMS][128];
    if (params_texts(json_get(req, "params"), ptext, o->params, &o->nparams, e))
        return NULL;
    const Json *players = json_get(req, "players");
    if (check_players(players, e))
        return NULL;
    StrBuf paths = STRBUF_INIT;
    int lab;
    if (rules_paths(s, json_get(req, "rules"), &paths, o->rules, &o->nrules, &lab, e)) {
        sb_free(&paths);
        return NULL;
    }
    if (o->nrules) {
        o->house = web_lab_house(s, lab, o->variant, o->sides, o->rules, o->nrules, e);
        if (!o->house) {
            sb_free(&paths);
            return NULL;
        }
    }
    if (lab)
        o->bot_ms = s->cfg.lab_bot_ms;
    int st;
    Batch *b = batch_open(o, e, &st);
    house_free(o->house);
    sb_free(&paths);
    if (!b)
        return NULL;
    return finish_game(s, b, players, lab, answer, e, status);
}

/* A new game around b (lab: its rules include a lab rule): its players
 * set, written, its answer to the maker in `answer`, added to the table;
 * it comes with a reference for the caller (web_game_put). */
static WebGame *finish_game(WebServer *s, Batch *b, const Json *players, int lab,
                            StrBuf *answer, Error *e, int *status)
{
    WebGame *g = web_game_new(b, e);
    if (!g) {
        *status = 500;
        return NULL;
    }
    g->lab = lab;
    Game *gm = batch_game(b);
    for (const Json *p = players && players->type == JSON_ARRAY ? players->child : NULL; p;
         p = p->next) {
        const char *seat = json_get(p, "seat")->str;
        int k = game_seat_by_name(gm, seat);
        if (k < 0) {
            char q[48];
            err_set(e, "players: no seat '%s' in this game", str_clip(q, sizeof q, seat));
            web_game_free(g);
            return NULL;
        }
        const Json *bot = json_get(p, "bot");
        if (bot && bot->type == JSON_STRING)
            str_copy(g->bot[k], sizeof g->bot[k], bot->str);
    }
    if (web_store_meta(s, g, e) || web_store_record(s, g, e)) {
        *status = 500;
        web_game_free(g);
        return NULL;
    }
    /* the answer before the table has it: from then on the bots' thread
     * may hold it while a bot thinks, and the maker would wait for that */
    sb_puts(answer, "{\"game\":");
    sb_json_str(answer, g->id);
    sb_puts(answer, ",\"seats\":[");
    for (int k = 0; k < g->nseats; k++) {
        sb_puts(answer, k ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(answer, game_seat_name(gm, k));
        sb_puts(answer, ",\"bot\":");
        if (g->bot[k][0])
            sb_json_str(answer, g->bot[k]);
        else
            sb_puts(answer, "null");
        sb_printf(answer, ",\"token\":\"%s\",\"link\":\"/#g=%s&t=%s\"}", g->token[k], g->id,
                  g->token[k]);
    }
    sb_printf(answer, "],\"spectator\":\"/#g=%s\",\"board\":\"/#g=%s&board=1\"}", g->id,
              g->id);
    if (web_add_game(s, g, 1, e)) {
        *status = 503;
        web_store_remove(s, g);
        web_game_free(g);
        return NULL;
    }
    return g;
}

typedef struct CreateCall {
    WebServer *s;
    const Json *req;
    Error *e;
    int status;
    StrBuf *answer;
    WebGame *g;
} CreateCall;

/* The request's body as JSON, or NULL: with e set when the body is
 * malformed (the caller answers 400), with e empty when this already
 * answered (413, 400). */
static Json *read_json_body(WebServer *s, struct mg_connection *conn, Error *e)
{
    const struct mg_request_info *ri = mg_get_request_info(conn);
    e->msg[0] = '\0';
    if (ri->content_length > (long long)s->cfg.max_body)
        return send_error(conn, 413, "the body is larger than the server reads (64 KiB)"), NULL;
    StrBuf body = STRBUF_INIT;
    char buf[4096];
    int n;
    while ((n = mg_read(conn, buf, sizeof buf)) > 0) {
        if (body.len + (size_t)n > s->cfg.max_body) {
            sb_free(&body);
            return send_error(conn, 413, "the body is larger than the server reads (64 KiB)"),
                   NULL;
        }
        if (memchr(buf, '\0', (size_t)n)) {
            sb_free(&body);
            return send_error(conn, 400, "the body holds a NUL byte"), NULL;
        }
        sb_putn(&body, buf, (size_t)n);
    }
    Error pe = {""};
    Json *req = json_parse(body.s ? body.s : "", body.len, &pe);
    sb_free(&body);
    if (!req)
        err_set(e, "malformed JSON: %s", pe.msg);
    return req;
}

Json *web_read_json_body(WebServer *s, struct mg_connection *conn, Error *e)
{
    return read_json_body(s, conn, e);
}

int web_rules_paths(WebServer *s, const Json *rules, StrBuf *paths, const char **list, int *n,
                    int *lab, Error *e)
{
    return rules_paths(s, rules, paths, list, n, lab, e);
}

int web_params_texts(const Json *params, char ptext[][128], const char **list, int *n,
                     Error *e)
{
    return params_texts(params, ptext, list, n, e);
}

static void create_big(void *arg)
{
    CreateCall *c = arg;
    c->g = web_create_game(c->s, c->req, c->answer, c->e, &c->status);
}

static int post_game(WebServer *s, struct mg_connection *conn)
{
    Error e = {""};
    Json *req = read_json_body(s, conn, &e);
    if (!req)
        return e.msg[0] == '\0' ? 1 : send_error(conn, 400, e.msg);
    StrBuf out = STRBUF_INIT;
    CreateCall call = {s, req, &e, 400, &out, NULL};
    int status = 503;
    if (web_run_big(create_big, &call))
        err_set(&e, "the server is out of threads: no game was made, try again");
    else
        status = call.status;
    WebGame *g = call.g;
    json_free(req);
    int rc = g ? send_json(conn, 201, &out) : send_error(conn, status, e.msg);
    web_game_put(s, g);
    sb_free(&out);
    return rc;
}

/* ---- POST /api/diff ----------------------------------------------------- */
/* `chessvar diff A B` for the page (issue 22 part 1, docs/TEACHING.md): the
 * body {"a":{"variant","params","rules"},"b":{...},"seed":"N"} names two
 * rule sets as POST /api/games names one (only offered scripts); the answer
 * is the command's JSON, each parting's boards also as SVG.  A diff plays
 * thousands of positions (seconds): one runs at a time, others get 503. */
static pthread_mutex_t diff_mu = PTHREAD_MUTEX_INITIALIZER;
static int diff_busy;

typedef struct DiffCall {
    WebServer *s;
    const Json *req;
    Error *e;
    int status;
    StrBuf *out;
} DiffCall;

/* One rule set of the body into o's A fields (side 0) or B's (side 1). */
static int diff_set(WebServer *s, const Json *set, int side, CliOptions *o,
                    char ptext[][128], StrBuf *paths, Error *e)
{
    const char *label = side ? "b" : "a";
    if (!set || set->type != JSON_OBJECT)
        return err_set(e, "give the rule set \"%s\" as an object: {\"variant\":\"orthodox\"}",
                       label);
    const Json *var = json_get(set, "variant");
    const VariantOps *v = var && var->type == JSON_STRING ? variant_find(var->str) : NULL;
    if (!v) {
        char q[48];
        return err_set(e, "%s: unknown variant '%s' (GET /api/variants lists them)", label,
                       var && var->type == JSON_STRING ? str_clip(q, sizeof q, var->str)
                                                       : "?");
    }
    int np = 0;
    if (params_texts(json_get(set, "params"), ptext, side ? o->cmp_params : o->params, &np,
                     e))
        return err_prefix(e, "%s", label), -1;
    const char **rlist = side ? o->cmp_rules : o->rules;
    int nr = 0, lab;
    if (rules_paths(s, json_get(set, "rules"), paths, rlist, &nr, &lab, e))
        return err_prefix(e, "%s", label), -1;
    House *h = NULL;
    if (nr && !(h = web_lab_house(s, lab, v, 0, rlist, nr, e)))
        return err_prefix(e, "%s", label), -1;
    if (side) {
        o->variant_b = v;
        o->cmp_nparams = np;
        o->cmp_nrules = nr;
        o->cmp_house = h;
    } else {
        o->variant = v;
        o->nparams = np;
        o->nrules = nr;
        o->house = h;
    }
    return 0;
}

static void diff_big(void *arg)
{
    DiffCall *c = arg;
    CliOptions *o = calloc(1, sizeof *o);
    char (*ptext)[128] = calloc(2 * CLI_MAX_PARAMS, 128);
    StrBuf paths[2] = {STRBUF_INIT, STRBUF_INIT};
    c->status = 400;
    if (!o || !ptext) {
        c->status = 500;
        err_set(c->e, "out of memory");
    } else if (!c->req || c->req->type != JSON_OBJECT) {
        err_set(c->e, "the body must be one JSON object "
                      "({\"a\":{\"variant\":\"orthodox\"},\"b\":{\"variant\":\"masques\"}})");
    } else if (!diff_set(c->s, json_get(c->req, "a"), 0, o, ptext, &paths[0], c->e) &&
               !diff_set(c->s, json_get(c->req, "b"), 1, o, ptext + CLI_MAX_PARAMS,
                         &paths[1], c->e)) {
        o->command = "diff";
        o->json = 1;
        o->depth = -1;
        const Json *seed = json_get(c->req, "seed");
        char *end;
        if (seed && seed->type != JSON_NULL &&
            (seed->type != JSON_STRING || !seed->str[0] || seed->str[0] == '-' ||
             (errno = 0, o->seed = strtoull(seed->str, &end, 10), errno || *end))) {
            err_set(c->e, "\"seed\" must be a whole number from 0 to 18446744073709551615, "
                          "written as a string");
        } else {
            o->have_seed = seed && seed->type != JSON_NULL;
            int rc = cli_diff_report(o, 1, c->out, c->e);
            c->status = rc == CLI_EXIT_OK ? 200 : rc == CLI_EXIT_USAGE ? 400 : 500;
        }
    }
    if (o) {
        house_free(o->house);
        house_free(o->cmp_house);
    }
    sb_free(&paths[0]);
    sb_free(&paths[1]);
    free(ptext);
    free(o);
}

static int post_diff(WebServer *s, struct mg_connection *conn)
{
    Error e = {""};
    Json *req = read_json_body(s, conn, &e);
    if (!req)
        return e.msg[0] == '\0' ? 1 : send_error(conn, 400, e.msg);
    pthread_mutex_lock(&diff_mu);
    int busy = diff_busy;
    diff_busy = 1;
    pthread_mutex_unlock(&diff_mu);
    if (busy) {
        json_free(req);
        return send_error(conn, 503, "a comparison is running: try again in a few seconds");
    }
    StrBuf out = STRBUF_INIT;
    DiffCall call = {s, req, &e, 503, &out};
    if (web_run_big(diff_big, &call))
        err_set(&e, "the server is out of threads: try again");
    pthread_mutex_lock(&diff_mu);
    diff_busy = 0;
    pthread_mutex_unlock(&diff_mu);
    json_free(req);
    int rc = call.status == 200 ? send_json(conn, 200, &out) : send_error(conn, call.status, e.msg);
    sb_free(&out);
    return rc;
}

static int list_games(WebServer *s, struct mg_connection *conn)
{
    StrBuf out = STRBUF_INIT;
    sb_puts(&out, "{\"games\":[");
    for (int i = 0;; i++) {
        WebGame *g = web_game_at(s, i);
        if (!g)
            break;
        pthread_mutex_lock(&g->mu);
        Game *gm = batch_game(g->b);
        char res[64];
        sb_puts(&out, i ? ",{\"game\":" : "{\"game\":");
        sb_json_str(&out, g->id);
        sb_puts(&out, ",\"variant\":");
        sb_json_str(&out, game_variant(gm)->name);
        sb_puts(&out, ",\"title\":");
        sb_json_str(&out, game_variant(gm)->title);
        sb_puts(&out, ",\"seats\":");
        web_seats_json(g, &out);
        sb_printf(&out, ",\"over\":%s,\"result\":", game_to_act(gm) < 0 ? "true" : "false");
        sb_json_str(&out, game_result_text(gm, res, sizeof res));
        sb_putc(&out, '}');
        pthread_mutex_unlock(&g->mu);
        web_game_put(s, g);
    }
    sb_puts(&out, "]}");
    int rc = send_json(conn, 200, &out);
    sb_free(&out);
    return rc;
}

/* GET /api/diagram?game=ID[&arrows=LIST][&marks=LIST][&window=X0,Y0,X1,Y1]:
 * the board as the seat
 * of the X-Chessvar-Token header (none: a spectator) sees it, as SVG
 * (diagram.c, issue 22).  A token in the address is refused: addresses
 * reach logs and histories, and a token is a seat's key. */
static int get_diagram(WebServer *s, struct mg_connection *conn)
{
    const char *q = mg_get_request_info(conn)->query_string;
    size_t n = q ? strlen(q) : 0;
    char id[WEB_ID_HEX + 8], token[WEB_TOKEN_HEX + 8], arrows[1024], marks[1024], win[96];
    struct { const char *name; char *buf; size_t size; int got; } v[] = {
        {"game", id, sizeof id, 0}, {"t", token, sizeof token, 0},
        {"token", token, sizeof token, 0},
        {"arrows", arrows, sizeof arrows, 0}, {"marks", marks, sizeof marks, 0},
        {"window", win, sizeof win, 0}};
    for (size_t i = 0; i < ARRAY_LEN(v); i++) {
        v[i].got = q ? mg_get_var(q, n, v[i].name, v[i].buf, v[i].size) : -1;
        if (v[i].got == -2) {
            char m[80];
            snprintf(m, sizeof m, "%s: too long (at most %zu bytes)", v[i].name,
                     v[i].size - 1);
            return send_error(conn, 400, m);
        }
    }
    if (v[1].got >= 0 || v[2].got >= 0)
        return send_error(conn, 400, "a token goes in the X-Chessvar-Token header, never in "
                                     "the address (addresses reach logs and histories)");
    const char *tok = mg_get_header(conn, "X-Chessvar-Token");
    if (tok && strlen(tok) >= sizeof token)
        return send_error(conn, 400, "X-Chessvar-Token: too long");
    Error e = {""};
    StrBuf out = STRBUF_INIT;
    int st = web_diagram(s, v[0].got >= 0 ? id : NULL, tok,
                         v[3].got >= 0 ? arrows : NULL, v[4].got >= 0 ? marks : NULL,
                         v[5].got >= 0 ? win : NULL, &out, &e);
    int rc = st == 200 ? send_body(conn, 200, "image/svg+xml", sb_str(&out), out.len)
                       : send_error(conn, st, e.msg);
    sb_free(&out);
    return rc;
}

static int on_request(struct mg_connection *conn, void *cbdata)
{
    WebServer *s = cbdata;
    const struct mg_request_info *ri = mg_get_request_info(conn);
    const char *path = ri->local_uri ? ri->local_uri : "/";
    int get = strcmp(ri->request_method, "GET") == 0 ||
              strcmp(ri->request_method, "HEAD") == 0;
    int post = strcmp(ri->request_method, "POST") == 0;
    if (strcmp(path, "/api/variants") == 0)
        return get ? send_body(conn, 200, "application/json", sb_str(&s->variants_json),
                               s->variants_json.len)
                   : send_error(conn, 405, "GET /api/variants");
    if (strcmp(path, "/api/games") == 0)
        return get ? list_games(s, conn) : post ? post_game(s, conn)
                   : send_error(conn, 405, "GET or POST /api/games");
    if (strcmp(path, "/api/diagram") == 0)
        return get ? get_diagram(s, conn) : send_error(conn, 405, "GET /api/diagram");
    if (strcmp(path, "/api/diff") == 0)
        return post ? post_diff(s, conn) : send_error(conn, 405, "POST /api/diff");
    if (strncmp(path, "/api/experiments", 16) == 0 && (!path[16] || path[16] == '/'))
        return web_lab_http(s, conn, path + 16);
    if (strncmp(path, "/measure/", 9) == 0)
        return web_lab_link(conn, path + 9);
    if (strncmp(path, "/api/lab/", 9) == 0 || strncmp(path, "/api/scripts/", 13) == 0)
        return web_rulelab_request(s, conn, path, get, post);
    if (strncmp(path, "/api/", 5) == 0)
        return send_error(conn, 404, "no such API: /api/variants, /api/games, /api/diagram, "
                                     "/api/diff, /api/experiments, /api/scripts/FILE, /api/lab/");
    if (!get)
        return send_error(conn, 405, "the page's files are read with GET");
    return send_file(conn, path);
}

/* ---- WebSocket /ws ------------------------------------------------------ */

static int ws_connect(const struct mg_connection *conn, void *cbdata)
{
    WebServer *s = cbdata;
    WebConn *c = calloc(1, sizeof *c);
    if (!c)
        return 1; /* refused: civetweb closes it */
    pthread_mutex_init(&c->wmu, NULL);
    c->seat = -1;
    pthread_mutex_lock(&s->mu);
    if (s->nconns >= s->cfg.max_conns)
        c->refused = 1;
    else
        s->nconns++;
    pthread_mutex_unlock(&s->mu);
    mg_set_user_connection_data((struct mg_connection *)conn, c);
    return 0;
}

static void ws_ready(struct mg_connection *conn, void *cbdata)
{
    WebServer *s = cbdata;
    WebConn *c = mg_get_user_connection_data(conn);
    if (!c)
        return;
    c->mc = conn;
    if (c->refused) {
        char m[160];
        snprintf(m, sizeof m, "the server has %d connections, its limit: try again later",
                 s->cfg.max_conns);
        StrBuf b = STRBUF_INIT;
        sb_puts(&b, "{\"type\":\"error\",\"message\":");
        sb_json_str(&b, m);
        sb_putc(&b, '}');
        mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_TEXT, sb_str(&b), b.len);
        mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xe8", 2);
        sb_free(&b);
    }
}

static void ws_error_close(WebConn *c, const char *msg)
{
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "{\"type\":\"error\",\"message\":");
    sb_json_str(&b, msg);
    sb_putc(&b, '}');
    pthread_mutex_lock(&c->wmu);
    if (!c->closed) {
        mg_websocket_write(c->mc, MG_WEBSOCKET_OPCODE_TEXT, sb_str(&b), b.len);
        mg_websocket_write(c->mc, MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE, "\x03\xf0", 2);
    }
    c->closed = 1;
    pthread_mutex_unlock(&c->wmu);
    sb_free(&b);
}

/* Returns 0 to close the connection. */
static int ws_data(struct mg_connection *conn, int flags, char *data, size_t n, void *cbdata)
{
    WebServer *s = cbdata;
    WebConn *c = mg_get_user_connection_data(conn);
    int op = flags & 0x0f;
    if (!c || c->refused || op == MG_WEBSOCKET_OPCODE_CONNECTION_CLOSE)
        return 0;
    if (op == MG_WEBSOCKET_OPCODE_PONG || op == MG_WEBSOCKET_OPCODE_PING)
        return 1;
    long long sec = web_now_ms() / 1000;
    if (sec != c->window) {
        c->window = sec;
        c->frames = 0;
    }
    if (++c->frames > s->cfg.max_rate) {
        char m[128];
        snprintf(m, sizeof m, "too many frames: at most %d a second; the connection is "
                              "closed", s->cfg.max_rate);
        ws_error_close(c, m);
        return 0;
    }
    if (n > s->cfg.max_frame) {
        char m[128];
        snprintf(m, sizeof m, "the frame has %zu bytes, more than the %zu a frame may "
                              "have; the connection is closed", n, s->cfg.max_frame);
        ws_error_close(c, m);
        return 0;
    }
    if (!(flags & 0x80) || op == MG_WEBSOCKET_OPCODE_CONTINUATION) {
        ws_error_close(c, "fragmented frames are not read: send each message in one "
                          "frame; the connection is closed");
        return 0;
    }
    if (op != MG_WEBSOCKET_OPCODE_TEXT) {
        StrBuf b = STRBUF_INIT;
        sb_puts(&b, "{\"type\":\"error\",\"message\":\"only text frames (JSON) are read\"}");
        pthread_mutex_lock(&c->wmu);
        if (!c->closed)
            mg_websocket_write(conn, MG_WEBSOCKET_OPCODE_TEXT, sb_str(&b), b.len);
        pthread_mutex_unlock(&c->wmu);
        sb_free(&b);
        return 1;
    }
    web_frame(s, c, data, n);
    return 1;
}

static void ws_close(const struct mg_connection *conn, void *cbdata)
{
    WebServer *s = cbdata;
    WebConn *c = mg_get_user_connection_data(conn);
    if (!c)
        return;
    web_conn_leave(s, c);
    pthread_mutex_lock(&s->mu);
    if (!c->refused)
        s->nconns--;
    pthread_mutex_unlock(&s->mu);
    pthread_mutex_destroy(&c->wmu);
    free(c);
}

/* ---- Start and stop ----------------------------------------------------- */

void web_config_defaults(WebConfig *c)
{
    memset(c, 0, sizeof *c);
    c->host = "127.0.0.1";
    c->port = 8080;
    c->scripts = "scripts";
    c->max_games = 1000;
    c->max_conns = 1000;
    c->max_frame = WEB_MAX_FRAME;
    c->max_rate = 50;
    c->max_body = WEB_MAX_BODY;
    c->bot_delay_ms = 300;
    c->idle_ms = 3600 * 1000;
    c->lab_workers = 1;
    c->lab_jobs = 16;
    c->lab_per_client = 2;
    c->lab_keep = 32;
    c->lab_max_games = 1000;
    c->lab_max_ms = 30LL * 60 * 1000;
    c->max_lab_rules = 256;
    c->lab_game_ms = WEB_LAB_GAME_MS;
    c->lab_bot_ms = WEB_LAB_BOT_MS;
}

int web_host_is_loopback(const char *host)
{
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "::1") == 0 ||
           strcmp(host, "localhost") == 0;
}

int web_port(const WebServer *s) { return s->port; }

const char *web_option(const WebServer *s, const char *name)
{
    const char *v = s->ctx ? mg_get_option(s->ctx, name) : NULL;
    return v ? v : "";
}

int web_game_count(WebServer *s)
{
    pthread_mutex_lock(&s->mu);
    int n = s->ngames;
    pthread_mutex_unlock(&s->mu);
    return n;
}

static int civet_log(const struct mg_connection *conn, const char *msg)
{
    const struct mg_context *ctx = mg_get_context(conn);
    WebServer *s = ctx ? mg_get_user_data(ctx) : NULL;
    if (s && !s->cfg.quiet)
        fprintf(stderr, "chessvar serve: %s\n", msg);
    return 1;
}

static void free_server(WebServer *s)
{
    for (int i = 0; i < s->ngames; i++)
        web_game_free(s->games[i]);
    for (int i = 0; i < s->nscripts; i++)
        free(s->script_files[i]);
    free(s->script_files);
    free(s->games);
    free(s->gone);
    free(s->data);
    free(s->scripts);
    web_classes_free(s->classes);
    web_lab_free(s->lab);
    web_rulelab_free(s->rulelab);
    sb_free(&s->variants_json);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->load_mu);
    pthread_mutex_destroy(&s->bot_mu);
    pthread_cond_destroy(&s->bot_cond);
    free(s);
}

WebServer *web_start(const WebConfig *cfg, Error *e)
{
    WebServer *s = calloc(1, sizeof *s);
    if (!s)
        return err_set(e, "out of memory"), NULL;
    s->cfg = *cfg;
    if (s->cfg.lab_game_ms <= 0)
        s->cfg.lab_game_ms = WEB_LAB_GAME_MS;
    if (s->cfg.lab_bot_ms <= 0)
        s->cfg.lab_bot_ms = WEB_LAB_BOT_MS;
    s->lab_limits.game_ms = s->cfg.lab_game_ms; /* the others: every rule's */
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->load_mu, NULL);
    pthread_mutex_init(&s->bot_mu, NULL);
    pthread_cond_init(&s->bot_cond, NULL);
    s->data = cfg->data ? strdup(cfg->data) : NULL;
    s->scripts = cfg->scripts ? strdup(cfg->scripts) : NULL;
    s->games = calloc((size_t)(cfg->max_games > 0 ? cfg->max_games : 1), sizeof *s->games);
    s->gone = calloc(WEB_GONE, sizeof *s->gone);
    s->classes = web_classes_new();
    if (strlen(cfg->host) >= 200 || strpbrk(cfg->host, ",[] \t")) {
        free_server(s);
        return err_set(e, "--host %s: give one address (127.0.0.1, 0.0.0.0, ::1)",
                       cfg->host), NULL;
    }
    snprintf(s->host, sizeof s->host, "%s", cfg->host);
    if (!s->games || !s->gone || !s->classes || (cfg->data && !s->data) || (cfg->scripts && !s->scripts)) {
        free_server(s);
        return err_set(e, "out of memory"), NULL;
    }
    make_variants_json(s);
    if (s->variants_json.failed || (s->data && web_store_load_all(s, e)) ||
        !(s->rulelab = web_rulelab_new(s, e))) {
        if (s->variants_json.failed)
            err_set(e, "out of memory");
        free_server(s);
        return NULL;
    }
    if (!(s->lab = web_lab_new(s, e))) {
        free_server(s);
        return NULL;
    }
    char ports[300], threads[32], conns[32];
    if (strchr(s->host, ':'))
        snprintf(ports, sizeof ports, "[%s]:%d", s->host, cfg->port);
    else
        snprintf(ports, sizeof ports, "%s:%d", s->host, cfg->port);
    /* civetweb gives each WebSocket a worker thread for its whole life */
    snprintf(threads, sizeof threads, "%d", cfg->max_conns + 8);
    snprintf(conns, sizeof conns, "%d", cfg->max_conns);
    const char *options[] = {"listening_ports", ports,
                             "num_threads", threads,
                             /* also a write's: a client that stops
                              * reading holds up its game this long, once */
                             "request_timeout_ms", "3000",
                             "websocket_timeout_ms", "3600000",
                             "enable_keep_alive", "no",
                             /* a frame is written as header then payload:
                              * with Nagle's algorithm the payload waited for
                              * the client's delayed ACK, 40 ms a frame */
                             "tcp_nodelay", "1",
                             NULL};
    (void)conns;
    struct mg_callbacks cb;
    memset(&cb, 0, sizeof cb);
    cb.log_message = civet_log;
    mg_init_library(0);
    s->ctx = mg_start(&cb, s, options);
    if (!s->ctx) {
        mg_exit_library();
        free_server(s);
        return err_set(e, "cannot listen on %s (the port may be taken, or the address is "
                          "not this machine's)", ports), NULL;
    }
    struct mg_server_port sp[4];
    int np = mg_get_server_ports(s->ctx, 4, sp);
    s->port = np > 0 ? sp[0].port : cfg->port;
    mg_set_request_handler(s->ctx, "/", on_request, s);
    mg_set_websocket_handler(s->ctx, "/ws", ws_connect, ws_ready, ws_data, ws_close, s);
    pthread_attr_t a; /* the search bot looks deep: the engine's stack */
    if (pthread_attr_init(&a) == 0) {
        if (pthread_attr_setstacksize(&a, 8u << 20) == 0 &&
            pthread_create(&s->bot_thread, &a, web_bot_thread, s) == 0)
            s->bot_started = 1;
        pthread_attr_destroy(&a);
    }
    if (!s->bot_started) {
        web_stop(s);
        return err_set(e, "the bots' thread could not start"), NULL;
    }
    return s;
}

void web_stop(WebServer *s)
{
    if (!s)
        return;
    pthread_mutex_lock(&s->bot_mu);
    s->stopping = 1;
    pthread_cond_broadcast(&s->bot_cond);
    pthread_mutex_unlock(&s->bot_mu);
    if (s->bot_started)
        pthread_join(s->bot_thread, NULL);
    mg_stop(s->ctx);
    mg_exit_library();
    /* every change was written when it happened: only a game whose last
     * write failed (a full disk since freed) is written again (rewriting
     * every game took seconds for a few hundred, each synced) */
    for (int i = 0; i < s->ngames; i++) {
        Error e;
        if (s->data && s->games[i]->unsaved && web_store_record(s, s->games[i], &e) &&
            !s->cfg.quiet)
            fprintf(stderr, "chessvar serve: game %s: %s\n", s->games[i]->id, e.msg);
    }
    free_server(s);
}
