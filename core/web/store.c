/*
 * store.c -- the data folder of `chessvar serve --data DIR`: each game is
 * GAME.rec, its record (docs/RECORDS.md, full truth: every seat's secrets,
 * as the server keeps them) and GAME.meta, its tokens and players (JSON),
 * and whether its rules include a lab rule (its limits: web_lab_house).
 * Both are written after every change, each atomically (a temporary file,
 * fsync, rename, then the folder synced); on start every game is read back.
 *
 * Invariant: a file in DIR is always a whole version of itself, old or new;
 * the files are made readable by their owner only (they hold the seats'
 * secrets and tokens).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../record/record.h"
#include "web_int.h"

static int sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* text to path, all or nothing: path.tmp written, synced, renamed. */
int web_write_atomic(const char *dir, const char *path, const StrBuf *text, Error *e)
{
    StrBuf tmp = STRBUF_INIT;
    sb_printf(&tmp, "%s.tmp", path);
    int fd = tmp.failed ? -1 : open(sb_str(&tmp), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                                    0600);
    int err = fd < 0 ? errno : 0;
    size_t done = 0;
    while (!err && done < text->len) {
        ssize_t w = write(fd, text->s + done, text->len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            err = w < 0 ? errno : EIO;
        else
            done += (size_t)w;
    }
    if (!err && fsync(fd))
        err = errno;
    if (fd >= 0 && close(fd) && !err)
        err = errno;
    if (!err && rename(sb_str(&tmp), path))
        err = errno;
    if (err && fd >= 0)
        unlink(sb_str(&tmp));
    if (!err)
        sync_dir(dir);
    sb_free(&tmp);
    return err ? err_set(e, "cannot write %s: %s", path, strerror(err)) : 0;
}

int web_store_meta(WebServer *s, WebGame *g, Error *e)
{
    if (!s->data)
        return 0;
    Game *gm = batch_game(g->b);
    StrBuf t = STRBUF_INIT, path = STRBUF_INIT;
    sb_puts(&t, "{\"game\":");
    sb_json_str(&t, g->id);
    sb_puts(&t, ",\"seats\":[");
    for (int k = 0; k < g->nseats; k++) {
        sb_puts(&t, k ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(&t, game_seat_name(gm, k));
        sb_printf(&t, ",\"token\":\"%s\",\"bot\":", g->token[k]);
        if (g->bot[k][0])
            sb_json_str(&t, g->bot[k]);
        else
            sb_puts(&t, "null");
        sb_putc(&t, '}');
    }
    sb_puts(&t, g->lab ? "],\"lab\":true}\n" : "]}\n");
    sb_printf(&path, "%s/%s.meta", s->data, g->id);
    int rc = t.failed || path.failed ? err_set(e, "out of memory")
                                     : web_write_atomic(s->data, sb_str(&path), &t, e);
    sb_free(&t);
    sb_free(&path);
    return rc;
}

int web_store_record(WebServer *s, WebGame *g, Error *e)
{
    if (!s->data)
        return 0;
    StrBuf t = STRBUF_INIT, path = STRBUF_INIT;
    sb_printf(&path, "%s/%s.rec", s->data, g->id);
    int rc = record_save(batch_game(g->b), &t);
    if (rc || t.failed || path.failed)
        rc = err_set(e, "the record of game %s could not be written as text", g->id);
    else
        rc = web_write_atomic(s->data, sb_str(&path), &t, e);
    g->unsaved = rc != 0;
    sb_free(&t);
    sb_free(&path);
    return rc;
}

void web_store_remove(WebServer *s, WebGame *g)
{
    if (!s->data)
        return;
    StrBuf path = STRBUF_INIT;
    sb_printf(&path, "%s/%s.meta", s->data, g->id);
    unlink(sb_str(&path));
    sb_reset(&path);
    sb_printf(&path, "%s/%s.rec", s->data, g->id);
    unlink(sb_str(&path));
    sb_free(&path);
}

/* The game whose meta is the file `name` of s->data, last written at
 * mtime: loaded into the table (*got: it, with a reference for the caller,
 * when got is given; evict: as web_add_game), or -1 with e naming the
 * file; *full: the table had no room (nothing loaded).  want: the id its
 * meta must name, or NULL. */
static int load_one(WebServer *s, const char *name, time_t mtime, const char *want,
                    int evict, WebGame **got, int *full, Error *e)
{
    StrBuf path = STRBUF_INIT, text = STRBUF_INIT, rec = STRBUF_INIT;
    Json *meta = NULL;
    WebGame *g = NULL;
    int rc = -1;
    sb_printf(&path, "%s/%s", s->data, name);
    if (record_read_file(sb_str(&path), "a game's meta", 64 * 1024, &text, e))
        goto done;
    Error je;
    meta = json_parse(text.s ? text.s : "", text.len, &je);
    const Json *id = meta ? json_get(meta, "game") : NULL, *seats = json_get(meta, "seats");
    if (!id || id->type != JSON_STRING || strlen(id->str) != WEB_ID_HEX - 1 ||
        strspn(id->str, "0123456789abcdef") != WEB_ID_HEX - 1 || !seats ||
        seats->type != JSON_ARRAY || seats->count > MAX_SEATS) {
        err_set(e, "%s: not a game's meta (game, seats)", sb_str(&path));
        goto done;
    }
    if (want && strcmp(id->str, want) != 0) {
        err_set(e, "%s: its meta names game %s", sb_str(&path), id->str);
        goto done;
    }
    WebGame *twice = web_find_game(s, id->str);
    if (twice) {
        web_game_put(s, twice);
        err_set(e, "%s: game %s is there twice", sb_str(&path), id->str);
        goto done;
    }
    sb_printf(&rec, "%s/%s.rec", s->data, id->str);
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.command = "serve";
    o.json = 1;
    o.depth = -1;
    o.load = sb_str(&rec);
    o.trust_rules = 1; /* the server wrote it, with scripts it offered or its lab's */
    const Json *lab = json_get(meta, "lab");
    int is_lab = lab && lab->type == JSON_TRUE;
    if (is_lab) { /* its replay and its play under the lab's limits */
        o.record_limits = &s->lab_limits;
        o.bot_ms = s->cfg.lab_bot_ms;
    }
    int st;
    Batch *b = batch_open(&o, e, &st);
    if (!b)
        goto done;
    g = web_game_new(b, e);
    if (!g)
        goto done;
    str_copy(g->id, sizeof g->id, id->str);
    g->lab = is_lab;
    if (seats->count != g->nseats) {
        err_set(e, "%s: %d seats, the record has %d", sb_str(&path), seats->count,
                g->nseats);
        goto done;
    }
    int k = 0;
    for (const Json *m = seats->child; m; m = m->next, k++) {
        const Json *tok = json_get(m, "token"), *bot = json_get(m, "bot");
        if (!tok || tok->type != JSON_STRING || strlen(tok->str) != WEB_TOKEN_HEX - 1 ||
            (bot && bot->type != JSON_NULL &&
             (bot->type != JSON_STRING || web_bot_level(bot->str, e) ||
              strlen(bot->str) >= WEB_BOT_MAX))) {
            err_set(e, "%s: seat %d has no token or a bad bot", sb_str(&path), k);
            goto done;
        }
        str_copy(g->token[k], sizeof g->token[k], tok->str);
        if (bot && bot->type == JSON_STRING)
            str_copy(g->bot[k], sizeof g->bot[k], bot->str);
    }
    /* its last change, as web_now_ms counts: the games idle the longest
     * leave memory first */
    g->active = web_now_ms() - 1000 * (long long)(time(NULL) - mtime);
    if (web_add_game(s, g, evict, e)) {
        *full = 1;
        goto done;
    }
    if (got)
        *got = g;
    else
        web_game_put(s, g);
    g = NULL;
    rc = 0;
done:
    web_game_free(g);
    json_free(meta);
    sb_free(&path);
    sb_free(&text);
    sb_free(&rec);
    return rc;
}

typedef struct Stored {
    char name[WEB_ID_HEX + 8];
    struct timespec mtime;   /* of its record: its last change */
} Stored;

static int newest_first(const void *a, const void *b)
{
    const struct timespec *x = &((const Stored *)a)->mtime, *y = &((const Stored *)b)->mtime;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? 1 : -1;
    if (x->tv_nsec != y->tv_nsec)
        return x->tv_nsec < y->tv_nsec ? 1 : -1;
    return strcmp(((const Stored *)a)->name, ((const Stored *)b)->name);
}

/* Every game of DIR, the most recently changed first, until the table is
 * full: the others stay in DIR, read back when a seat's link asks for one
 * (web_store_reload).  A file that cannot be read stops the start. */
int web_store_load_all(WebServer *s, Error *e)
{
    if (mkdir(s->data, 0700) && errno != EEXIST)
        return err_set(e, "--data %s: cannot make the folder: %s", s->data, strerror(errno));
    DIR *d = opendir(s->data);
    if (!d)
        return err_set(e, "--data %s: cannot read the folder: %s", s->data, strerror(errno));
    struct dirent *de;
    Stored *list = NULL;
    int n = 0, cap = 0, rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        size_t len = strlen(de->d_name);
        if (len <= 5 || strcmp(de->d_name + len - 5, ".meta") != 0)
            continue;
        if (len >= sizeof list->name) {
            rc = err_set(e, "--data %s: %s is no game's meta (its name is too long)",
                         s->data, de->d_name);
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            Stored *more = realloc(list, sizeof *list * (size_t)cap);
            if (!more) {
                rc = err_set(e, "out of memory");
                break;
            }
            list = more;
        }
        StrBuf rec = STRBUF_INIT;
        struct stat st;
        sb_printf(&rec, "%s/%.*s.rec", s->data, (int)(len - 5), de->d_name);
        str_copy(list[n].name, sizeof list[n].name, de->d_name);
        memset(&list[n].mtime, 0, sizeof list[n].mtime);
        if (!rec.failed && stat(sb_str(&rec), &st) == 0)
            list[n].mtime = st.st_mtim;
        n++;
        sb_free(&rec);
    }
    closedir(d);
    if (rc == 0 && n)
        qsort(list, (size_t)n, sizeof *list, newest_first);
    int full = 0;
    for (int i = 0; rc == 0 && !full && i < n; i++) {
        rc = load_one(s, list[i].name, list[i].mtime.tv_sec, NULL, 0, NULL, &full, e);
        if (full)
            rc = 0;
    }
    free(list);
    return rc;
}

WebGame *web_store_reload(WebServer *s, const char *id, Error *e)
{
    e->msg[0] = '\0';
    if (strlen(id) != WEB_ID_HEX - 1 || strspn(id, "0123456789abcdef") != WEB_ID_HEX - 1)
        return NULL;
    StrBuf name = STRBUF_INIT, path = STRBUF_INIT;
    sb_printf(&name, "%s.meta", id);
    sb_printf(&path, "%s/%s.rec", s->data, id);
    WebGame *g = NULL;
    struct stat st;
    pthread_mutex_lock(&s->load_mu);
    g = web_find_game(s, id); /* another hello read it back meanwhile */
    if (!g && !name.failed && !path.failed && stat(sb_str(&path), &st) == 0) {
        int full = 0;
        Error le;
        if (load_one(s, sb_str(&name), st.st_mtime, id, 1, &g, &full, &le) == 0) {
            /* in the table, with the caller's reference */
        } else if (full) {
            err_set(e, "game %s is kept, but the server holds %d games, its limit, none "
                       "of them over or idle to make room: try again later", id,
                    s->cfg.max_games);
        } else { /* the message names the server's folder: to its log */
            if (!s->cfg.quiet)
                fprintf(stderr, "chessvar serve: game %s: %s\n", id, le.msg);
            err_set(e, "game %s is in the server's data folder but could not be read "
                       "back (the server's log says why)", id);
        }
    }
    pthread_mutex_unlock(&s->load_mu);
    sb_free(&name);
    sb_free(&path);
    return g;
}
