/*
 * lab.c -- the house-rule lab of `chessvar serve` (issue 23 point 3): a
 * house rule's text sent from the page is checked as `chessvar check`
 * checks a file, kept by its SHA-256 and then named "lab:<sha256>" wherever
 * the server takes "rules" (POST /api/games, the resolver of http.c); the
 * offered scripts' texts and the API a script sees, for the page's editor
 * (docs/WEB.md, "The house-rule lab").
 *
 * The server runs code from the network here, so: a rule's text is at most
 * LAB_TEXT_MAX bytes; it runs only in the sandbox of docs/HOUSE-RULES.md
 * with its limits (instructions, wall time per call, memory), and a check's
 * hooks have LAB_CHECK_MS together, a game's with a lab rule
 * cfg.lab_game_ms (web_lab_house), its search bots cfg.lab_bot_ms a
 * decision (the bots' thread serves every game); at most LAB_CHECKS checks
 * run at once;
 * at most cfg.max_lab_rules rules are kept, the least recently used leaving
 * first (its file removed).
 *
 * Invariant: a rule is kept only once it passed the check; its file is
 * named by the SHA-256 of its bytes, which are the text that was checked;
 * the index (under lab->mu) lists exactly the files of the folder it keeps,
 * each named by its id's first LAB_SHORT hex digits.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <civetweb.h>

#include "../lua/house.h"
#include "../record/record.h"
#include "../sha256.h"
#include "web_int.h"

#define LAB_TEXT_MAX (32 * 1024) /* bytes of a rule's text */
#define LAB_CHECKS 2             /* checks running at once */
#define LAB_CHECK_MS 5000        /* all the hook calls of one check together */
#define LAB_NAME "rule.lua"      /* what a rule is called while it is checked */
#define LAB_ID 65                /* 64 hex digits and a NUL */

typedef struct LabRule {
    char id[LAB_ID];
    long long used;              /* lab->tick when last stored or named */
} LabRule;

struct WebRuleLab {
    pthread_mutex_t mu;          /* everything below */
    char *dir;                   /* the rules' folder */
    int temp;                    /* made for this run (no --data): removed at the end */
    LabRule *rules;
    int n, max;
    long long tick;
    int checks;                  /* running now */
};

static int is_id(const char *id)
{
    return strlen(id) == LAB_ID - 1 && strspn(id, "0123456789abcdef") == LAB_ID - 1;
}

/* A rule's file is named by the first LAB_SHORT hex digits of its id, so
 * that the names in its errors stay short enough for Lua to show whole
 * (it cuts a script's name at 60 bytes): "DIR/lab-0123456789abcdef.lua".
 * Two rules whose ids begin alike are refused (2^-64 a pair). */
#define LAB_SHORT 16
static void file_of(const WebRuleLab *lab, const char *id, StrBuf *out)
{
    sb_printf(out, "%s/lab-%.*s.lua", lab->dir, LAB_SHORT, id);
}

static int find_short(const WebRuleLab *lab, const char *id)
{
    for (int i = 0; i < lab->n; i++)
        if (strncmp(lab->rules[i].id, id, LAB_SHORT) == 0)
            return i;
    return -1;
}

static int find_rule(const WebRuleLab *lab, const char *id)
{
    for (int i = 0; i < lab->n; i++)
        if (strcmp(lab->rules[i].id, id) == 0)
            return i;
    return -1;
}

/* Drop rule i from the index and its file from the folder. */
static void drop_rule(WebRuleLab *lab, int i)
{
    StrBuf f = STRBUF_INIT;
    file_of(lab, lab->rules[i].id, &f);
    if (!f.failed)
        unlink(sb_str(&f));
    sb_free(&f);
    lab->rules[i] = lab->rules[--lab->n];
}

/* Make room for one more: the least recently used rule leaves. */
static void make_room(WebRuleLab *lab)
{
    while (lab->n >= lab->max && lab->n > 0) {
        int old = 0;
        for (int i = 1; i < lab->n; i++)
            if (lab->rules[i].used < lab->rules[old].used)
                old = i;
        drop_rule(lab, old);
    }
}

typedef struct Found {
    char id[LAB_ID];
    struct timespec mtime;
} Found;

static int older_first(const void *a, const void *b)
{
    const struct timespec *x = &((const Found *)a)->mtime, *y = &((const Found *)b)->mtime;
    if (x->tv_sec != y->tv_sec)
        return x->tv_sec < y->tv_sec ? -1 : 1;
    if (x->tv_nsec != y->tv_nsec)
        return x->tv_nsec < y->tv_nsec ? -1 : 1;
    return strcmp(((const Found *)a)->id, ((const Found *)b)->id);
}

/* The rules of a --data folder, read back: each file must hold a text
 * whose SHA-256 its name begins (else the start stops, naming it, as for a
 * game); the most recently stored are kept up to the limit. */
static int read_back(WebRuleLab *lab, Error *e)
{
    DIR *d = opendir(lab->dir);
    if (!d)
        return err_set(e, "%s: cannot read the folder: %s", lab->dir, strerror(errno));
    Found *list = NULL;
    int n = 0, cap = 0, rc = 0;
    struct dirent *de;
    while (rc == 0 && (de = readdir(d))) {
        char id[LAB_ID];
        size_t len = strlen(de->d_name);
        if (de->d_name[0] == '.')
            continue;
        StrBuf f = STRBUF_INIT, text = STRBUF_INIT;
        sb_printf(&f, "%s/%s", lab->dir, de->d_name);
        if (len > 4 && strcmp(de->d_name + len - 4, ".tmp") == 0) {
            unlink(sb_str(&f)); /* a write cut short */
            sb_free(&f);
            continue;
        }
        char pre[LAB_SHORT + 1];
        snprintf(pre, sizeof pre, "%.*s", LAB_SHORT, len > 4 ? de->d_name + 4 : "");
        struct stat st;
        if (len != 4 + LAB_SHORT + 4 || strncmp(de->d_name, "lab-", 4) != 0 ||
            strcmp(de->d_name + len - 4, ".lua") != 0 ||
            strspn(pre, "0123456789abcdef") != LAB_SHORT) {
            rc = err_set(e, "%s: not a lab rule (a lab folder holds lab-HEX.lua files)",
                         sb_str(&f));
        } else if (record_read_file(sb_str(&f), "a lab rule", LAB_TEXT_MAX, &text, e)) {
            rc = -1; /* e says why */
        } else if (stat(sb_str(&f), &st)) {
            rc = err_set(e, "%s: %s", sb_str(&f), strerror(errno));
        } else {
            sha256_hex(text.s ? text.s : "", text.len, id);
            if (strncmp(pre, id, LAB_SHORT) != 0) {
                rc = err_set(e, "%s: its text's SHA-256 is %s, which its name does not "
                                "begin", sb_str(&f), id);
            } else {
                if (n == cap) {
                    cap = cap ? 2 * cap : 64;
                    Found *more = realloc(list, sizeof *list * (size_t)cap);
                    if (!more)
                        rc = err_set(e, "out of memory");
                    else
                        list = more;
                }
                if (rc == 0) {
                    str_copy(list[n].id, sizeof list[n].id, id);
                    list[n++].mtime = st.st_mtim;
                }
            }
        }
        sb_free(&f);
        sb_free(&text);
    }
    closedir(d);
    if (rc == 0 && n) {
        qsort(list, (size_t)n, sizeof *list, older_first);
        for (int i = 0; i < n; i++) {
            make_room(lab);
            str_copy(lab->rules[lab->n].id, LAB_ID, list[i].id);
            lab->rules[lab->n++].used = ++lab->tick;
        }
    }
    free(list);
    return rc;
}

WebRuleLab *web_rulelab_new(WebServer *s, Error *e)
{
    WebRuleLab *lab = calloc(1, sizeof *lab);
    if (!lab)
        return err_set(e, "out of memory"), NULL;
    pthread_mutex_init(&lab->mu, NULL);
    lab->max = s->cfg.max_lab_rules > 0 ? s->cfg.max_lab_rules : 1;
    lab->rules = calloc((size_t)lab->max, sizeof *lab->rules);
    StrBuf dir = STRBUF_INIT;
    if (s->data) {
        sb_printf(&dir, "%s/lab", s->data);
    } else {
        const char *tmp = getenv("TMPDIR");
        sb_printf(&dir, "%s/chessvar-lab-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    }
    if (!lab->rules || dir.failed || !(lab->dir = strdup(sb_str(&dir)))) {
        sb_free(&dir);
        web_rulelab_free(lab);
        return err_set(e, "out of memory"), NULL;
    }
    sb_free(&dir);
    if (s->data) {
        if (mkdir(lab->dir, 0700) && errno != EEXIST) {
            err_set(e, "--data: cannot make %s: %s", lab->dir, strerror(errno));
            web_rulelab_free(lab);
            return NULL;
        }
        if (read_back(lab, e)) {
            web_rulelab_free(lab);
            return NULL;
        }
    } else if (!mkdtemp(lab->dir)) {
        err_set(e, "cannot make a folder for the lab's rules (%s): %s", lab->dir,
                strerror(errno));
        web_rulelab_free(lab);
        return NULL;
    } else {
        lab->temp = 1;
    }
    return lab;
}

void web_rulelab_free(WebRuleLab *lab)
{
    if (!lab)
        return;
    if (lab->temp) {
        while (lab->n)
            drop_rule(lab, 0);
        rmdir(lab->dir);
    }
    free(lab->rules);
    free(lab->dir);
    pthread_mutex_destroy(&lab->mu);
    free(lab);
}

int web_rulelab_path(WebServer *s, const char *id, StrBuf *paths, Error *e)
{
    WebRuleLab *lab = s->rulelab;
    char q[48];
    if (!is_id(id))
        return err_set(e, "rules: 'lab:%s' is no lab rule's name: \"lab:\" and the 64 "
                          "hex digits of its id (POST /api/lab/rules gives it)",
                       str_clip(q, sizeof q, id));
    pthread_mutex_lock(&lab->mu);
    int i = find_rule(lab, id);
    if (i >= 0) {
        lab->rules[i].used = ++lab->tick;
        file_of(lab, id, paths);
        sb_putc(paths, '\0');
    }
    pthread_mutex_unlock(&lab->mu);
    if (i < 0)
        return err_set(e, "rules: no lab rule 'lab:%s' on this server: it was never "
                          "stored, or it left to make room (the server keeps the %d used "
                          "the most recently): POST its text to /api/lab/rules again",
                       id, lab->max);
    return paths->failed ? err_set(e, "out of memory") : 0;
}

House *web_lab_house(const WebServer *s, int lab, const VariantOps *v, int nsides,
                     const char *const *paths, int n, Error *e)
{
    return cli_load_house_limited(v, nsides, paths, n, lab ? &s->lab_limits : NULL, e);
}

/* ---- Checking a rule ----------------------------------------------------- */

typedef struct Check {
    const char *text;
    size_t len;
    const VariantOps *only;      /* the variant asked for, or NULL: every one */
    int ok;
    Error e;                     /* its error, as `chessvar check` prints it */
    const char *failed_on;       /* the variant whose check failed */
    char name[256];              /* rule{name} */
    StrBuf description, log;
    const VariantOps *variants[16]; /* where it loads, each checked */
    int nvariants;
} Check;

/* The line of the script an error names (LAB_NAME:N:), or 0. */
static int error_line(const char *msg)
{
    const char *p = msg;
    size_t k = strlen(LAB_NAME);
    while ((p = strstr(p, LAB_NAME ":"))) {
        p += k + 1;
        if (*p >= '1' && *p <= '9')
            return atoi(p);
    }
    return 0;
}

/* The check of `chessvar check --variant V` on each variant the rule loads
 * for (only c->only when given), its hooks under the lab's limits. */
static void check_big(void *arg)
{
    Check *c = arg;
    HouseSource src = {LAB_NAME, c->text, c->len};
    HouseLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.game_ms = LAB_CHECK_MS;
    Error first = {""};
    c->ok = 0;
    for (int k = 0; variant_registry[k]; k++) {
        const VariantOps *v = variant_registry[k];
        if (c->only && v != c->only)
            continue;
        Error e = {""};
        House *h = house_load(v, 0, &src, 1, &lim, &e);
        if (!h) {
            if (!first.msg[0] || v == c->only)
                first = e;
            continue;
        }
        if (c->nvariants == 0) {
            str_copy(c->name, sizeof c->name, house_title(h, 0) ? house_title(h, 0) : "");
            const char *d = house_description(h, 0);
            sb_puts(&c->description, d ? d : "");
        }
        int bad = cli_check_house(v, h, &e) != 0;
        const char *log = house_log(h);
        if (log && log[0] && c->log.len < 64 * 1024)
            sb_printf(&c->log, "%s%s", c->log.len ? "\n" : "", log);
        house_free(h);
        if (bad) {
            c->e = e;
            c->failed_on = v->name;
            return;
        }
        if (c->nvariants < (int)ARRAY_LEN(c->variants))
            c->variants[c->nvariants++] = v;
    }
    if (c->nvariants == 0) {
        c->e = first;
        if (!c->e.msg[0])
            err_set(&c->e, "house rule %s: it loads for no variant", LAB_NAME);
        return;
    }
    c->ok = 1;
}

/* The body's rule checked into c: 0 (c->ok says how it went), or an HTTP
 * status with e (a bad request, the server busy). */
static int run_check(WebServer *s, const Json *req, Check *c, Error *e)
{
    if (!req || req->type != JSON_OBJECT)
        return err_set(e, "the body must be one JSON object: {\"text\":\"rule { name = ... "
                          "}\", \"variant\":\"orthodox\"}"), 400;
    const Json *text = json_get(req, "text");
    if (!text || text->type != JSON_STRING)
        return err_set(e, "give the rule's text as \"text\" (a string)"), 400;
    c->text = text->str;
    c->len = strlen(text->str);
    if (c->len > LAB_TEXT_MAX)
        return err_set(e, "the rule's text has %zu bytes, more than the %d a lab rule may "
                          "have", c->len, LAB_TEXT_MAX), 413;
    const Json *var = json_get(req, "variant");
    if (var && var->type != JSON_NULL) {
        c->only = var->type == JSON_STRING ? variant_find(var->str) : NULL;
        if (!c->only) {
            char q[48];
            return err_set(e, "unknown variant '%s' (GET /api/variants lists them)",
                           var->type == JSON_STRING ? str_clip(q, sizeof q, var->str)
                                                    : "?"), 400;
        }
    }
    WebRuleLab *lab = s->rulelab;
    pthread_mutex_lock(&lab->mu);
    int busy = lab->checks >= LAB_CHECKS;
    if (!busy)
        lab->checks++;
    pthread_mutex_unlock(&lab->mu);
    if (busy)
        return err_set(e, "%d rules are being checked already, the most at once: try "
                          "again in a moment", LAB_CHECKS), 503;
    int rc = web_run_big(check_big, c);
    pthread_mutex_lock(&lab->mu);
    lab->checks--;
    pthread_mutex_unlock(&lab->mu);
    if (rc)
        return err_set(e, "the server is out of threads: nothing was checked, try again"),
               503;
    return 0;
}

/* The answer's members of a check: ok, message (`chessvar check`'s line),
 * and then name, description, variants, log, or error, line, variant. */
static void check_json(const Check *c, StrBuf *b)
{
    StrBuf m = STRBUF_INIT;
    if (c->ok)
        sb_printf(&m, "%s: ok (%s)", LAB_NAME, c->name);
    sb_printf(b, "\"ok\":%s,\"message\":", c->ok ? "true" : "false");
    sb_json_str(b, c->ok ? sb_str(&m) : c->e.msg);
    if (c->ok) {
        sb_puts(b, ",\"name\":");
        sb_json_str(b, c->name);
        sb_puts(b, ",\"description\":");
        sb_json_str(b, sb_str(&c->description));
        sb_puts(b, ",\"variants\":[");
        for (int i = 0; i < c->nvariants; i++) {
            if (i)
                sb_putc(b, ',');
            sb_json_str(b, c->variants[i]->name);
        }
        sb_putc(b, ']');
    } else {
        sb_puts(b, ",\"error\":");
        sb_json_str(b, c->e.msg);
        int line = error_line(c->e.msg);
        if (line)
            sb_printf(b, ",\"line\":%d", line);
        else
            sb_puts(b, ",\"line\":null");
        sb_puts(b, ",\"variant\":");
        if (c->failed_on)
            sb_json_str(b, c->failed_on);
        else
            sb_puts(b, "null");
    }
    sb_puts(b, ",\"log\":");
    sb_json_str(b, sb_str(&c->log));
    sb_free(&m);
}

static void check_free(Check *c)
{
    sb_free(&c->description);
    sb_free(&c->log);
}

/* POST /api/lab/check: the rule checked, nothing kept (the editor's live
 * check).  POST /api/lab/rules: checked, and kept when it passed. */
static int post_rule(WebServer *s, struct mg_connection *conn, int keep)
{
    Error e = {""};
    Json *req = web_read_json_body(s, conn, &e);
    if (!req)
        return e.msg[0] == '\0' ? 1 : web_send_error(conn, 400, e.msg);
    Check c;
    memset(&c, 0, sizeof c);
    sb_init(&c.description);
    sb_init(&c.log);
    int st = run_check(s, req, &c, &e);
    if (st) {
        json_free(req);
        check_free(&c);
        return web_send_error(conn, st, e.msg);
    }
    char id[LAB_ID];
    sha256_hex(c.text, c.len, id);
    StrBuf out = STRBUF_INIT;
    int status = 200;
    if (keep && c.ok) {
        WebRuleLab *lab = s->rulelab;
        StrBuf f = STRBUF_INIT, t = STRBUF_INIT;
        sb_putn(&t, c.text, c.len);
        pthread_mutex_lock(&lab->mu);
        int i = find_rule(lab, id);
        if (i >= 0) {
            lab->rules[i].used = ++lab->tick;
        } else if (find_short(lab, id) >= 0) {
            err_set(&e, "a rule whose id begins as this one's (%.*s) is kept already: "
                        "change the text a little (a comment will do)", LAB_SHORT, id);
        } else {
            make_room(lab);
            file_of(lab, id, &f);
            if (f.failed || t.failed)
                err_set(&e, "out of memory");
            else if (web_write_atomic(lab->dir, sb_str(&f), &t, &e) == 0) {
                str_copy(lab->rules[lab->n].id, LAB_ID, id);
                lab->rules[lab->n++].used = ++lab->tick;
                i = lab->n - 1;
            }
        }
        pthread_mutex_unlock(&lab->mu);
        sb_free(&f);
        sb_free(&t);
        if (i < 0 && strstr(e.msg, "is kept already")) {
            json_free(req);
            check_free(&c);
            return web_send_error(conn, 409, e.msg);
        }
        if (i < 0) {
            json_free(req);
            check_free(&c);
            if (!s->cfg.quiet)
                fprintf(stderr, "chessvar serve: lab: %s\n", e.msg);
            return web_send_error(conn, 500, "the rule could not be kept (the server's log "
                                             "says why)");
        }
        status = 201;
    } else if (keep) {
        status = 400;
    }
    sb_putc(&out, '{');
    if (keep && c.ok)
        sb_printf(&out, "\"id\":\"%s\",\"rule\":\"lab:%s\",", id, id);
    check_json(&c, &out);
    sb_putc(&out, '}');
    json_free(req);
    check_free(&c);
    int rc = web_send_json(conn, status, &out);
    sb_free(&out);
    return rc;
}

/* GET /api/lab/rules/ID: the text of a rule kept. */
static int get_rule(WebServer *s, struct mg_connection *conn, const char *id)
{
    WebRuleLab *lab = s->rulelab;
    char q[48];
    if (!is_id(id)) {
        char m[160];
        snprintf(m, sizeof m, "'%s' is no lab rule's id (64 hex digits)",
                 str_clip(q, sizeof q, id));
        return web_send_error(conn, 404, m);
    }
    StrBuf f = STRBUF_INIT, text = STRBUF_INIT, out = STRBUF_INIT;
    Error e = {""};
    pthread_mutex_lock(&lab->mu);
    int i = find_rule(lab, id);
    if (i >= 0) {
        lab->rules[i].used = ++lab->tick;
        file_of(lab, id, &f);
        if (f.failed || record_read_file(sb_str(&f), "a lab rule", LAB_TEXT_MAX, &text, &e))
            i = -2;
    }
    pthread_mutex_unlock(&lab->mu);
    int rc;
    if (i == -1) {
        char m[300];
        snprintf(m, sizeof m, "no lab rule %s on this server: it was never stored, or it "
                              "left to make room (the server keeps the %d used the most "
                              "recently)", id, lab->max);
        rc = web_send_error(conn, 404, m);
    } else if (i == -2) {
        rc = web_send_error(conn, 500, "the rule could not be read back");
    } else {
        sb_printf(&out, "{\"id\":\"%s\",\"rule\":\"lab:%s\",\"text\":", id, id);
        sb_json_str(&out, sb_str(&text));
        sb_putc(&out, '}');
        rc = web_send_json(conn, 200, &out);
    }
    sb_free(&f);
    sb_free(&text);
    sb_free(&out);
    return rc;
}

/* GET /api/scripts/FILE: the text of an offered script (one of --scripts). */
static int get_script(WebServer *s, struct mg_connection *conn, const char *file)
{
    int found = -1;
    for (int i = 0; i < s->nscripts; i++)
        if (strcmp(file, s->script_files[i]) == 0)
            found = i;
    if (found < 0) {
        char m[160], q[48];
        snprintf(m, sizeof m, "no script '%s' is offered (GET /api/variants lists them)",
                 str_clip(q, sizeof q, file));
        return web_send_error(conn, 404, m);
    }
    StrBuf f = STRBUF_INIT, text = STRBUF_INIT, out = STRBUF_INIT;
    Error e = {""};
    sb_printf(&f, "%s/%s", s->scripts, s->script_files[found]);
    int rc;
    if (f.failed || record_read_file(sb_str(&f), "a script", 1u << 20, &text, &e)) {
        rc = web_send_error(conn, 500, e.msg[0] ? e.msg : "out of memory");
    } else {
        sb_puts(&out, "{\"file\":");
        sb_json_str(&out, s->script_files[found]);
        sb_puts(&out, ",\"text\":");
        sb_json_str(&out, sb_str(&text));
        sb_putc(&out, '}');
        rc = web_send_json(conn, 200, &out);
    }
    sb_free(&f);
    sb_free(&text);
    sb_free(&out);
    return rc;
}

/* GET /api/lab/api: what a script may call (core/lua/house_api.c, the
 * words of docs/HOUSE-RULES.md) and the lab's limits. */
static int get_api(WebServer *s, struct mg_connection *conn)
{
    StrBuf out = STRBUF_INIT;
    sb_puts(&out, "{\"api\":[");
    for (int i = 0; house_api(i); i++) {
        const HouseApi *a = house_api(i);
        sb_puts(&out, i ? ",{\"section\":" : "{\"section\":");
        sb_json_str(&out, a->section);
        sb_puts(&out, ",\"call\":");
        sb_json_str(&out, a->call);
        sb_puts(&out, ",\"doc\":");
        sb_json_str(&out, a->doc);
        sb_putc(&out, '}');
    }
    sb_printf(&out, "],\"limits\":{\"text_bytes\":%d,\"rules_kept\":%d,\"check_ms\":%d,"
                    "\"checks_at_once\":%d,\"game_ms\":%ld,\"bot_ms\":%ld}}", LAB_TEXT_MAX,
              s->rulelab->max, LAB_CHECK_MS, LAB_CHECKS, s->lab_limits.game_ms,
              s->cfg.lab_bot_ms);
    int rc = web_send_json(conn, 200, &out);
    sb_free(&out);
    return rc;
}

int web_rulelab_request(WebServer *s, struct mg_connection *conn, const char *path, int get,
                    int post)
{
    if (strncmp(path, "/api/scripts/", 13) == 0)
        return get ? get_script(s, conn, path + 13)
                   : web_send_error(conn, 405, "GET /api/scripts/FILE");
    if (strcmp(path, "/api/lab/check") == 0)
        return post ? post_rule(s, conn, 0) : web_send_error(conn, 405, "POST /api/lab/check");
    if (strcmp(path, "/api/lab/rules") == 0)
        return post ? post_rule(s, conn, 1) : web_send_error(conn, 405, "POST /api/lab/rules");
    if (strncmp(path, "/api/lab/rules/", 15) == 0)
        return get ? get_rule(s, conn, path + 15)
                   : web_send_error(conn, 405, "GET /api/lab/rules/ID");
    if (strcmp(path, "/api/lab/api") == 0)
        return get ? get_api(s, conn) : web_send_error(conn, 405, "GET /api/lab/api");
    return web_send_error(conn, 404, "no such API: /api/lab/check, /api/lab/rules, "
                                     "/api/lab/rules/ID, /api/lab/api, /api/scripts/FILE");
}
