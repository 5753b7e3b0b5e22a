/*
 * test_web_rulelab.c -- the house-rule lab of `chessvar serve` (issue 23 point
 * 3) over HTTP: a rule's text checked as `chessvar check` checks a file
 * (the same text, the error's line), kept by its SHA-256 and played as
 * "lab:ID" in POST /api/games; the server runs code from the network, so
 * an oversize text, an infinite loop and a memory bomb get a clear error
 * and the server goes on serving, an unknown id is refused, the number of
 * rules kept is bounded, and with --data the rules and the games played
 * with them come back after a restart.  The API panel's entries are held
 * to docs/HOUSE-RULES.md and to what the sandbox registers.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/json.h"
#include "../core/lua/house.h"
#include "../core/sha256.h"
#include "../core/web/web.h"
#include "support/testutil.h"
#include "support/webclient.h"

enum { WAIT_MS = 20000 };

static WebServer *start_with(const char *data, int max_rules)
{
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.max_conns = 8;
    c.bot_delay_ms = 0;
    c.data = data;
    if (max_rules)
        c.max_lab_rules = max_rules;
    Error e = {""};
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    return s;
}

static int setup(void **state)
{
    *state = start_with(NULL, 0);
    return 0;
}

static int teardown(void **state)
{
    web_stop(*state);
    return 0;
}

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

/* body as a JSON string (quoted, escaped). */
static void json_text(StrBuf *b, const char *text)
{
    sb_json_str(b, text);
}

/* POST path {"text":TEXT[,"variant":V]}: the answer, its status in *st. */
static Json *post_text(int port, const char *path, const char *text, const char *variant,
                       int *st)
{
    StrBuf body = STRBUF_INIT, out = STRBUF_INIT;
    sb_puts(&body, "{\"text\":");
    json_text(&body, text);
    if (variant)
        sb_printf(&body, ",\"variant\":\"%s\"", variant);
    sb_putc(&body, '}');
    *st = wc_http(port, "POST", path, sb_str(&body), body.len, &out);
    Json *j = parse(sb_str(&out));
    sb_free(&body);
    sb_free(&out);
    return j;
}

static Json *get(int port, const char *path, int *st)
{
    StrBuf out = STRBUF_INIT;
    *st = wc_http(port, "GET", path, NULL, 0, &out);
    Json *j = parse(sb_str(&out));
    sb_free(&out);
    return j;
}

/* The server still answers and still makes games. */
static void still_serving(int port)
{
    int st;
    Json *j = get(port, "/api/variants", &st);
    assert_int_equal(st, 200);
    json_free(j);
    StrBuf out = STRBUF_INIT;
    const char *body = "{\"variant\":\"orthodox\"}";
    assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 201);
    sb_free(&out);
}

/* What `chessvar check DIR/rule.lua` prints for text, DIR/ taken out. */
static char *check_says(const char *text)
{
    char dir[] = "/tmp/chessvar-lab-test-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], args[256];
    snprintf(path, sizeof path, "%s/rule.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(args, sizeof args, "check '%s'", path);
    TuRun r;
    tu_run(&r, args, NULL);
    unlink(path);
    rmdir(dir);
    StrBuf out = STRBUF_INIT;
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s/", dir);
    const char *line_end = strchr(r.out, '\n');
    size_t n = line_end ? (size_t)(line_end - r.out) : strlen(r.out);
    for (size_t i = 0; i < n;) {
        if (strncmp(r.out + i, prefix, strlen(prefix)) == 0) {
            i += strlen(prefix);
            continue;
        }
        sb_putc(&out, r.out[i++]);
    }
    tu_run_free(&r);
    char *s = strdup(sb_str(&out));
    sb_free(&out);
    return s;
}

static const char *GOOD = "-- a rule\n"
                          "rule {\n"
                          "  name = \"No pawn to a6\",\n"
                          "  variants = {\"orthodox\"},\n"
                          "  veto = function(game, action)\n"
                          "    if action.to == \"a6\" then return \"not a6\" end\n"
                          "  end,\n"
                          "}\n";

/* issue 23: the live check says what `chessvar check` says, with the line
 * of the error: a syntax error, an unknown field, a hook that slips; a
 * rule that passes is named, with the variants it loads for. */
static void test_lab_check_as_chessvar_check(void **state)
{
    int port = web_port(*state), st;
    static const char *const BAD[][2] = {
        {"rule {\n  name = \"Broken\",\n  veto = function(game, action) retur nil end,\n}\n",
         "3"},
        {"rule {\n  name = \"Typo\",\n  vetoo = 1,\n}\n", "1"},
        {"rule {\n  name = \"Slip\",\n  react = function(game, action)\n"
         "    return game:piece_at(\"e5\").figure\n  end,\n}\n", "4"},
    };
    for (size_t i = 0; i < ARRAY_LEN(BAD); i++) {
        Json *j = post_text(port, "/api/lab/check", BAD[i][0], "orthodox", &st);
        assert_int_equal(st, 200);
        assert_int_equal(json_get(j, "ok")->type, JSON_FALSE);
        char *want = check_says(BAD[i][0]);
        if (strcmp(str_of(j, "error"), want) != 0)
            fail_msg("the lab says '%s', chessvar check '%s'", str_of(j, "error"), want);
        const Json *line = json_get(j, "line");
        assert_int_equal(line->type, JSON_NUMBER);
        assert_int_equal((int)line->num, atoi(BAD[i][1]));
        free(want);
        json_free(j);
    }
    Json *j = post_text(port, "/api/lab/check", GOOD, NULL, &st);
    assert_int_equal(st, 200);
    assert_int_equal(json_get(j, "ok")->type, JSON_TRUE);
    char *want = check_says(GOOD);
    assert_string_equal(str_of(j, "message"), want);
    free(want);
    assert_string_equal(str_of(j, "name"), "No pawn to a6");
    assert_int_equal(json_get(j, "variants")->count, 1);
    assert_string_equal(json_at(json_get(j, "variants"), 0)->str, "orthodox");
    assert_null(json_get(j, "id")); /* a check keeps nothing */
    json_free(j);
    /* against a variant it is not for: the loader's refusal */
    j = post_text(port, "/api/lab/check", GOOD, "tile", &st);
    assert_int_equal(json_get(j, "ok")->type, JSON_FALSE);
    assert_non_null(strstr(str_of(j, "error"), "not for tile"));
    json_free(j);
}

/* issue 23 (issue 20: house rules are untrusted code): a rule that loops,
 * one that eats memory in a hook and one that does while it loads are
 * stopped by the sandbox's limits, each with a clear error; none is kept,
 * and the server goes on serving. */
static void test_lab_hostile_rules(void **state)
{
    int port = web_port(*state), st;
    static const char *const HOSTILE[][2] = {
        {"rule { name = \"Loop\", veto = function(game, action)\n  while true do end\nend }\n",
         "instruction budget exceeded"},
        {"rule { name = \"Bomb\", veto = function(game, action)\n  local t = {}\n"
         "  for i = 1, 1000000000 do t[i] = i end\nend }\n",
         "memory cap exceeded"},
        {"local t = {}\nfor i = 1, 1000000000 do t[i] = i end\n"
         "rule { name = \"Load bomb\" }\n",
         "memory cap exceeded"},
        {"local s = \"x\"\nfor i = 1, 40 do s = s .. s end\nrule { name = \"Long\" }\n",
         "string longer than 1 MiB refused"},
    };
    for (size_t i = 0; i < ARRAY_LEN(HOSTILE); i++) {
        time_t t0 = time(NULL);
        Json *j = post_text(port, "/api/lab/rules", HOSTILE[i][0], NULL, &st);
        assert_int_equal(st, 400);
        assert_int_equal(json_get(j, "ok")->type, JSON_FALSE);
        if (!strstr(str_of(j, "error"), HOSTILE[i][1]))
            fail_msg("rule %zu: wanted '%s', got '%s'", i, HOSTILE[i][1], str_of(j, "error"));
        assert_null(json_get(j, "id"));
        assert_true(time(NULL) - t0 < 30);
        json_free(j);
        still_serving(port);
    }
}

/* issue 23: a text over the limit is refused before anything runs, with
 * its size; a body that is not a rule says what to send. */
static void test_lab_refusals(void **state)
{
    int port = web_port(*state), st;
    size_t n = 33 * 1024;
    char *big = malloc(n + 1);
    memset(big, '-', n);
    memcpy(big, "rule { name = \"Big\" }\n", 22);
    big[n] = '\0';
    Json *j = post_text(port, "/api/lab/rules", big, NULL, &st);
    assert_int_equal(st, 413);
    assert_non_null(strstr(str_of(j, "error"), "33792 bytes, more than the 32768"));
    json_free(j);
    free(big);
    StrBuf out = STRBUF_INIT;
    static const char *const BODIES[][2] = {
        {"[1]", "one JSON object"},
        {"{\"text\":5}", "the rule's text as"},
        {"{\"text\":\"rule{name='x'}\",\"variant\":\"draughts\"}", "unknown variant 'draughts'"},
        {"{\"text\":", "malformed JSON"},
    };
    for (size_t i = 0; i < ARRAY_LEN(BODIES); i++) {
        sb_reset(&out);
        assert_int_equal(wc_http(port, "POST", "/api/lab/check", BODIES[i][0],
                                 strlen(BODIES[i][0]), &out), 400);
        assert_non_null(strstr(sb_str(&out), BODIES[i][1]));
    }
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/lab/rules", NULL, 0, &out), 405);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/lab/nothing", NULL, 0, &out), 404);
    /* an offered script's text; nothing else of the disk */
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/king_of_the_hill.lua", NULL, 0, &out),
                     200);
    j = parse(sb_str(&out));
    char *file = tu_read_file("scripts/king_of_the_hill.lua");
    assert_string_equal(str_of(j, "text"), file);
    free(file);
    json_free(j);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/..%2fMakefile", NULL, 0, &out), 404);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/README.md", NULL, 0, &out), 404);
    /* issue 24: the scripts of a folder in --scripts (scripts/variants/)
     * are offered as FOLDER/NAME.lua; only those, no way up or deeper */
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/variants%2fcrazyhouse.lua", NULL, 0, &out),
                     200);
    j = parse(sb_str(&out));
    file = tu_read_file("scripts/variants/crazyhouse.lua");
    assert_string_equal(str_of(j, "text"), file);
    free(file);
    json_free(j);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/variants%2f..%2f..%2fMakefile", NULL, 0, &out),
                     404);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", "/api/scripts/variants%2fREADME.md", NULL, 0, &out), 404);
    sb_free(&out);
    still_serving(port);
}

/* issue 23: an id the server does not keep is refused where "rules" is
 * taken, saying why; so is a name that is no id. */
static void test_lab_unknown_id(void **state)
{
    int port = web_port(*state);
    StrBuf out = STRBUF_INIT;
    char body[256];
    snprintf(body, sizeof body, "{\"variant\":\"orthodox\",\"rules\":[\"lab:%064d\"]}", 0);
    assert_int_equal(wc_http(port, "POST", "/api/games", body, strlen(body), &out), 400);
    assert_non_null(strstr(sb_str(&out), "no lab rule"));
    assert_non_null(strstr(sb_str(&out), "POST its text to /api/lab/rules again"));
    sb_reset(&out);
    const char *bad = "{\"variant\":\"orthodox\",\"rules\":[\"lab:../../etc/passwd\"]}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_non_null(strstr(sb_str(&out), "is no lab rule's name"));
    sb_reset(&out);
    char path[128];
    snprintf(path, sizeof path, "/api/lab/rules/%064d", 0);
    assert_int_equal(wc_http(port, "GET", path, NULL, 0, &out), 404);
    assert_non_null(strstr(sb_str(&out), "no lab rule"));
    sb_free(&out);
}

static int files_in(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)))
        n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The id of a rule kept (POST /api/lab/rules, 201), into id. */
static void keep(int port, const char *text, char *id)
{
    int st;
    Json *j = post_text(port, "/api/lab/rules", text, NULL, &st);
    if (st != 201)
        fail_msg("POST /api/lab/rules: %d %.*s", st, (int)j->len, j->text);
    char sha[65];
    sha256_hex(text, strlen(text), sha);
    assert_string_equal(str_of(j, "id"), sha);
    char rule[80];
    snprintf(rule, sizeof rule, "lab:%s", sha);
    assert_string_equal(str_of(j, "rule"), rule);
    strcpy(id, sha);
    json_free(j);
}

static int game_with(int port, const char *id, StrBuf *out)
{
    char body[256];
    snprintf(body, sizeof body, "{\"variant\":\"orthodox\",\"rules\":[\"lab:%s\"]}", id);
    sb_reset(out);
    return wc_http(port, "POST", "/api/games", body, strlen(body), out);
}

/* issue 23: nothing grows without bound: with room for 3 rules, a fourth
 * makes the least recently used leave (its file too), and its name is
 * then refused with the reason; the others still play. */
static void test_lab_too_many_rules(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-lab-many-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start_with(dir, 3);
    int port = web_port(s);
    char ids[4][65], text[200], lab[160];
    for (int i = 0; i < 4; i++) {
        snprintf(text, sizeof text, "rule { name = \"Rule %d\" }\n", i);
        keep(port, text, ids[i]);
        if (i == 2) { /* rule 0 used again: rule 1 is now the oldest */
            StrBuf out = STRBUF_INIT;
            assert_int_equal(game_with(port, ids[0], &out), 201);
            sb_free(&out);
        }
    }
    snprintf(lab, sizeof lab, "%s/lab", dir);
    assert_int_equal(files_in(lab), 3);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(game_with(port, ids[1], &out), 400);
    assert_non_null(strstr(sb_str(&out), "left to make room"));
    assert_non_null(strstr(sb_str(&out), "keeps the 3"));
    for (int i = 0; i < 4; i++)
        if (i != 1)
            assert_int_equal(game_with(port, ids[i], &out), 201);
    /* the same text again is the same rule: nothing more is kept */
    char again[65];
    snprintf(text, sizeof text, "rule { name = \"Rule %d\" }\n", 3);
    keep(port, text, again);
    assert_string_equal(again, ids[3]);
    assert_int_equal(files_in(lab), 3);
    sb_free(&out);
    web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* issue 23: a lab rule plays as "lab:ID" (King of the Hill: the King on
 * d4 wins); with --data the rule and the game played with it come back
 * after a restart (the record carries the rule's text). */
static void test_lab_rule_plays_and_comes_back(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-lab-data-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start_with(dir, 0);
    int port = web_port(s);
    char *koth = tu_read_file("scripts/king_of_the_hill.lua");
    char id[65];
    keep(port, koth, id);
    StrBuf out = STRBUF_INIT;
    assert_int_equal(game_with(port, id, &out), 201);
    Json *g = parse(sb_str(&out));
    char game[32], tw[40], tb[40];
    snprintf(game, sizeof game, "%s", str_of(g, "game"));
    snprintf(tw, sizeof tw, "%s", str_of(json_at(json_get(g, "seats"), 0), "token"));
    snprintf(tb, sizeof tb, "%s", str_of(json_at(json_get(g, "seats"), 1), "token"));
    json_free(g);
    WcSocket w[2];
    const char *tok[2] = {tw, tb};
    for (int k = 0; k < 2; k++) {
        assert_int_equal(wc_ws_open(&w[k], port, "/ws"), 0);
        char hello[160];
        snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\",\"token\":\"%s\"}",
                 game, tok[k]);
        assert_int_equal(wc_ws_send(&w[k], hello, strlen(hello)), 0);
    }
    static const char *const MOVES[] = {"e2e4", "a7a6", "e1e2", "a6a5", "e2e3", "a5a4",
                                        "e3d4"};
    char *last = NULL;
    for (int p = 0; p < (int)ARRAY_LEN(MOVES); p++) {
        char act[128];
        snprintf(act, sizeof act, "{\"type\":\"act\",\"text\":\"%s\",\"ply\":%d}", MOVES[p],
                 p);
        assert_int_equal(wc_ws_send(&w[p % 2], act, strlen(act)), 0);
        /* read white's frames until the state of ply p + 1 */
        for (;;) {
            int op;
            free(last);
            last = wc_ws_recv(&w[0], WAIT_MS, &op);
            assert_non_null(last);
            Json *f = parse(last);
            const Json *ply = json_get(f, "ply");
            int done = str_of(f, "type") && strcmp(str_of(f, "type"), "state") == 0 && ply &&
                       (int)ply->num == p + 1;
            if (str_of(f, "type") && strcmp(str_of(f, "type"), "error") == 0)
                fail_msg("ply %d: %s", p, last);
            json_free(f);
            if (done)
                break;
        }
    }
    assert_non_null(strstr(last, "white's King reached the hill"));
    free(last);
    wc_ws_close(&w[0]);
    wc_ws_close(&w[1]);
    web_stop(s);

    s = start_with(dir, 0);
    port = web_port(s);
    int st;
    char path[128];
    snprintf(path, sizeof path, "/api/lab/rules/%s", id);
    Json *r = get(port, path, &st);
    assert_int_equal(st, 200);
    assert_string_equal(str_of(r, "text"), koth);
    json_free(r);
    Json *list = get(port, "/api/games", &st);
    assert_int_equal(st, 200);
    const Json *games = json_get(list, "games");
    int seen = 0;
    for (const Json *x = games->child; x; x = x->next)
        if (strcmp(str_of(x, "game"), game) == 0) {
            seen = 1;
            assert_int_equal(json_get(x, "over")->type, JSON_TRUE);
            assert_string_equal(str_of(x, "result"), "1-0");
        }
    assert_true(seen);
    json_free(list);
    assert_int_equal(game_with(port, id, &out), 201);
    sb_free(&out);
    web_stop(s);
    /* a file in DIR/lab whose text is not what its name says stops the
     * start, naming it */
    char bad[200];
    snprintf(bad, sizeof bad, "%s/lab/lab-%.16s.lua", dir, id);
    FILE *f = fopen(bad, "a");
    assert_non_null(f);
    fputs("-- changed\n", f);
    fclose(f);
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.data = dir;
    Error e = {""};
    assert_null(web_start(&c, &e));
    assert_non_null(strstr(e.msg, bad));
    assert_non_null(strstr(e.msg, "SHA-256"));
    free(koth);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* issue 23: the editor's API panel (GET /api/lab/api, core/lua/house_api.c)
 * is what docs/HOUSE-RULES.md documents and what the sandbox has: every
 * row of the docs' inspection table is an entry, cell for cell; every call
 * is written so in the docs; every method of the game object and every
 * field of rule{} has its entry, and no entry names one the sandbox lacks. */
static void test_lab_api_is_the_docs(void **state)
{
    int port = web_port(*state), st;
    char *doc = tu_read_file("docs/HOUSE-RULES.md");
    assert_non_null(doc);
    Json *j = get(port, "/api/lab/api", &st);
    assert_int_equal(st, 200);
    const Json *api = json_get(j, "api");
    int n = 0;
    for (const Json *a = api->child; a; a = a->next, n++) {
        const HouseApi *h = house_api(n);
        assert_non_null(h);
        assert_string_equal(str_of(a, "call"), h->call);
        if (strcmp(h->section, "rule") == 0) { /* a field of "A script"'s rule{} */
            char field[64];
            snprintf(field, sizeof field, "\n  %.*s = ", (int)strlen(h->call) - 2, h->call + 1);
            if (!strstr(doc, field))
                fail_msg("rule{} field %s is not in docs/HOUSE-RULES.md's script", h->call);
            continue;
        }
        /* each `code` of the call is in the docs */
        const char *c = h->call;
        while ((c = strchr(c, '`'))) {
            const char *e = strchr(c + 1, '`');
            assert_non_null(e);
            char code[128];
            snprintf(code, sizeof code, "%.*s", (int)(e - c + 1), c);
            if (!strstr(doc, code))
                fail_msg("the API panel's %s is not in docs/HOUSE-RULES.md", code);
            c = e + 1;
        }
        if (strcmp(h->section, "game") == 0) {
            char row[1024];
            snprintf(row, sizeof row, "\n| %s | %s |\n", h->call, h->doc);
            if (!strstr(doc, row))
                fail_msg("no row '%s' in the inspection table of docs/HOUSE-RULES.md", row);
        }
    }
    assert_null(house_api(n));
    /* every row of the inspection table is an entry */
    const char *t = strstr(doc, "| call | answer |\n|---|---|\n");
    assert_non_null(t);
    t = strchr(strchr(t, '\n') + 1, '\n') + 1;
    int rows = 0;
    for (; strncmp(t, "| ", 2) == 0; t = strchr(t, '\n') + 1) {
        int found = 0;
        for (int i = 0; house_api(i); i++)
            if (strcmp(house_api(i)->section, "game") == 0) {
                char row[1024];
                snprintf(row, sizeof row, "| %s | %s |\n", house_api(i)->call,
                         house_api(i)->doc);
                found |= strncmp(t, row, strlen(row)) == 0;
            }
        if (!found)
            fail_msg("the docs' row %.80s is not in the API panel", t);
        rows++;
    }
    assert_true(rows >= 14);
    /* the sandbox's methods and fields, each with an entry, and back */
    for (int m = 0; house_game_method(m); m++) {
        char call[64];
        snprintf(call, sizeof call, "game:%s(", house_game_method(m));
        int found = 0;
        for (int i = 0; house_api(i); i++)
            found |= strstr(house_api(i)->call, call) != NULL;
        if (!found)
            fail_msg("game:%s has no entry in the API panel", house_game_method(m));
    }
    for (int i = 0; house_api(i); i++) {
        const char *c = house_api(i)->call;
        while ((c = strstr(c, "game:"))) {
            c += 5;
            size_t len = strcspn(c, "(");
            int found = 0;
            for (int m = 0; house_game_method(m); m++)
                found |= strlen(house_game_method(m)) == len &&
                         strncmp(house_game_method(m), c, len) == 0;
            if (!found)
                fail_msg("the API panel names game:%.*s, which the sandbox lacks", (int)len, c);
        }
    }
    int fields = 0;
    for (int f = 0; house_rule_field(f); f++, fields++) {
        char call[64];
        snprintf(call, sizeof call, "`%s`", house_rule_field(f));
        int found = 0;
        for (int i = 0; house_api(i); i++)
            found |= strcmp(house_api(i)->section, "rule") == 0 &&
                     strcmp(house_api(i)->call, call) == 0;
        if (!found)
            fail_msg("rule{} field %s has no entry in the API panel", house_rule_field(f));
    }
    int rule_entries = 0;
    for (int i = 0; house_api(i); i++)
        rule_entries += strcmp(house_api(i)->section, "rule") == 0;
    assert_int_equal(rule_entries, fields);
    json_free(j);
    free(doc);
}

/* ---- Lab rules under the lab's limits (issue 23) ----------------------- */

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Slow in every hook, under each call's budgets (40,000 and a million
 * instructions, milliseconds a call): it passes the check (a few hundred
 * ms), but a search bot's look-ahead calls its hooks at every node. */
static const char *SLOW = "rule {\n"
                          "  name = \"Slow\",\n"
                          "  veto = function(game, action)\n"
                          "    local x = 0 for i = 1, 20000 do x = x + i end\n"
                          "  end,\n"
                          "  react = function(game, action)\n"
                          "    local x = 0 for i = 1, 500000 do x = x + i end\n"
                          "  end,\n"
                          "}\n";

/* POST /api/games with body (201 wanted): the game's id into id. */
static void made(int port, const char *body, char *id)
{
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/games", body, strlen(body), &out);
    if (st != 201)
        fail_msg("POST /api/games %s: %d %s", body, st, sb_str(&out));
    Json *j = parse(sb_str(&out));
    snprintf(id, 32, "%s", str_of(j, "game"));
    json_free(j);
    sb_free(&out);
}

/* A spectator of game id waits until the game has ply plies, at most
 * until the deadline (now_ms): 1 when it had, 0 when time ran out. */
static int reaches(int port, const char *id, int ply, long long deadline)
{
    WcSocket w;
    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    char hello[96];
    snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\"}", id);
    assert_int_equal(wc_ws_send(&w, hello, strlen(hello)), 0);
    int got = 0;
    long long left;
    while (!got && (left = deadline - now_ms()) > 0) {
        int op;
        char *text = wc_ws_recv(&w, (int)left, &op);
        if (!text)
            break;
        Json *f = parse(text);
        const Json *p = json_get(f, "ply");
        got = str_of(f, "type") && strcmp(str_of(f, "type"), "state") == 0 && p &&
              (int)p->num >= ply;
        json_free(f);
        free(text);
    }
    wc_ws_close(&w);
    return got;
}

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* The seat's entry of game id in GET /api/games: its "stuck" text, or ""
 * (a copy). */
static char *stuck_of(int port, const char *id, int seat)
{
    int st;
    Json *list = get(port, "/api/games", &st);
    assert_int_equal(st, 200);
    char *out = NULL;
    for (const Json *x = json_get(list, "games")->child; x; x = x->next)
        if (strcmp(str_of(x, "game"), id) == 0) {
            const char *t = str_of(json_at(json_get(x, "seats"), seat), "stuck");
            out = strdup(t ? t : "");
        }
    json_free(list);
    assert_non_null(out);
    return out;
}

/* The ply game id is at: its spectator's first frame. */
static int ply_now(int port, const char *id)
{
    WcSocket w;
    assert_int_equal(wc_ws_open(&w, port, "/ws"), 0);
    char hello[96];
    snprintf(hello, sizeof hello, "{\"type\":\"hello\",\"game\":\"%s\"}", id);
    assert_int_equal(wc_ws_send(&w, hello, strlen(hello)), 0);
    int ply = -1, op;
    for (char *text; ply < 0 && (text = wc_ws_recv(&w, WAIT_MS, &op)); free(text)) {
        Json *f = parse(text);
        if (str_of(f, "type") && strcmp(str_of(f, "type"), "state") == 0)
            ply = (int)json_get(f, "ply")->num;
        json_free(f);
    }
    wc_ws_close(&w);
    assert_true(ply >= 0);
    return ply;
}

/* The "stuck" text of a seat of game id, within 30 s of t0 (a copy), or
 * NULL; *seat: whose. */
static char *stuck_within(int port, const char *id, long long t0, int *seat)
{
    for (;;) {
        for (*seat = 0; *seat < 2; (*seat)++) {
            char *why = stuck_of(port, id, *seat);
            if (*why)
                return why;
            free(why);
        }
        if (now_ms() - t0 > 30000)
            return NULL;
        pause_ms(100);
    }
}

/* issue 23: a lab rule slow in every hook, played by search bots, held
 * the server's one bots' thread for its game's whole hook budget (300 s,
 * issue 20's) while every other game's bot waited.  A game with a lab
 * rule has the lab's limits (5 s of hooks a game, a search bot's decision
 * 2 s at most): the other game's bot answers within seconds, and the slow
 * game's bot fails with the limit named, its game left as it was. With
 * --data the game keeps those limits when it is read back. */
static void test_lab_slow_rule_frees_the_bots(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-lab-slow-XXXXXX";
    assert_non_null(mkdtemp(dir));
    WebServer *s = start_with(dir, 0);
    int port = web_port(s);
    char id[65], slow[32], other[32], body[320];
    keep(port, SLOW, id);
    snprintf(body, sizeof body, "{\"variant\":\"orthodox\",\"seed\":\"1\",\"rules\":"
                                "[\"lab:%s\"],\"players\":[{\"seat\":\"white\",\"bot\":"
                                "\"search\"},{\"seat\":\"black\",\"bot\":\"search\"}]}", id);
    made(port, body, slow);
    pause_ms(500); /* the bots' thread takes it up at once */
    long long t0 = now_ms();
    made(port, "{\"variant\":\"orthodox\",\"seed\":\"2\",\"players\":[{\"seat\":\"white\","
               "\"bot\":\"random\"}]}", other);
    /* one decision of the slow game (2 s and the 256 nodes after which the
     * search looks at the clock) and room for a loaded machine; without
     * the bounds the search thought for minutes */
    if (!reaches(port, other, 1, t0 + 10000))
        fail_msg("the other game's bot did not move within 10 s: the lab rule's game holds "
                 "the bots' thread");
    /* the slow game's bots spend its 5 s of hooks within a few decisions */
    static const char LIMIT[] = "the game's total time budget for house-rule hooks (5 s) is "
                                "exceeded";
    int seat;
    char *why = stuck_within(port, slow, t0, &seat);
    if (!why || !strstr(why, LIMIT))
        fail_msg("the slow game's bots say '%s' after %lld ms", why ? why : "nothing",
                 now_ms() - t0);
    /* the bot, the rule by its file and the hook that met the limit */
    char bot[64];
    snprintf(bot, sizeof bot, "the bot of %s (search) failed: ", seat ? "black" : "white");
    if (strncmp(why, bot, strlen(bot)) || !strstr(why, "house rule ") || !strstr(why, "/lab-"))
        fail_msg("the slow game's bot says '%s'", why);
    free(why);
    /* left as it was: no ply more is played */
    int ply = ply_now(port, slow);
    assert_false(reaches(port, slow, ply + 1, now_ms() + 1000));
    /* the lab's limits, and the lab's 2 s and 5 s in its editor's panel */
    int st;
    Json *api = get(port, "/api/lab/api", &st);
    assert_int_equal((int)json_get(json_get(api, "limits"), "game_ms")->num, 5000);
    assert_int_equal((int)json_get(json_get(api, "limits"), "bot_ms")->num, 2000);
    json_free(api);
    web_stop(s);
    /* read back from --data, the game keeps the lab's limits: its bots try
     * again, and meet the 5 s again */
    s = start_with(dir, 0);
    port = web_port(s);
    t0 = now_ms();
    why = stuck_within(port, slow, t0, &seat);
    if (!why || !strstr(why, LIMIT))
        fail_msg("read back, the slow game's bots say '%s' after %lld ms",
                 why ? why : "nothing", now_ms() - t0);
    free(why);
    web_stop(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* issue 23: a lab rule whose every call is short (under the 1000
 * instructions after which a call reads the clock, so no hook budget
 * counts it) still makes each of a search's nodes dear: a search bot of a
 * lab rule's game thinks 2 s a decision at most (beside its nodes), so the
 * bots' thread moves on; it plays its move, it does not fail. */
static const char *MANY = "rule {\n"
                          "  name = \"Many\",\n"
                          "  veto = function(game, action)\n"
                          "    local x = 0 for i = 1, 450 do x = x + i end\n"
                          "  end,\n"
                          "  react = function(game, action)\n"
                          "    local x = 0 for i = 1, 450 do x = x + i end\n"
                          "  end,\n"
                          "}\n";

static void test_lab_bot_decision_bounded(void **state)
{
    (void)state;
    WebServer *s = start_with(NULL, 0);
    int port = web_port(s);
    char id[65], busy[32], other[32], body[256];
    keep(port, MANY, id);
    snprintf(body, sizeof body, "{\"variant\":\"orthodox\",\"seed\":\"1\",\"rules\":"
                                "[\"lab:%s\"],\"players\":[{\"seat\":\"white\",\"bot\":"
                                "\"search:2000000\"}]}", id);
    made(port, body, busy);
    pause_ms(500);
    long long t0 = now_ms();
    made(port, "{\"variant\":\"orthodox\",\"seed\":\"2\",\"players\":[{\"seat\":\"white\","
               "\"bot\":\"random\"}]}", other);
    /* 2 s and room; the whole search took about 20 s of a core */
    if (!reaches(port, other, 1, t0 + 10000))
        fail_msg("the other game's bot did not move within 10 s: the lab rule's game holds "
                 "the bots' thread");
    assert_true(reaches(port, busy, 1, now_ms() + WAIT_MS));
    char *why = stuck_of(port, busy, 0);
    assert_string_equal(why, "");
    free(why);
    web_stop(s);
}

/* Slow in every hook, each call a fraction of a millisecond: far from
 * each call's 1 s even on a worker at nice 19 on a loaded machine, so the
 * game's budget is what stops it. */
static const char *SLOWER = "rule {\n"
                            "  name = \"Slower\",\n"
                            "  veto = function(game, action)\n"
                            "    local x = 0 for i = 1, 20000 do x = x + i end\n"
                            "  end,\n"
                            "  react = function(game, action)\n"
                            "    local x = 0 for i = 1, 50000 do x = x + i end\n"
                            "  end,\n"
                            "}\n";

/* issue 23: an experiment of a lab rule slow in every hook played each of
 * its games up to the 300 s budget, the experiment worker held for
 * minutes (up to its 30-minute cap); under the lab's limits its first game
 * with the rule fails within seconds, the experiment with it, saying
 * which limit. */
static void test_lab_slow_rule_experiment_bounded(void **state)
{
    (void)state;
    WebServer *s = start_with(NULL, 0);
    int port = web_port(s);
    char id[65], body[512];
    keep(port, SLOWER, id);
    snprintf(body, sizeof body, "{\"variant\":\"orthodox\",\"seed\":\"5\",\"games\":1,"
                                "\"rules\":[\"lab:%s\"],\"bots\":{\"white\":\"search:500\","
                                "\"black\":\"search:500\"}}", id);
    StrBuf out = STRBUF_INIT;
    int st = wc_http(port, "POST", "/api/experiments", body, strlen(body), &out);
    if (st != 202)
        fail_msg("POST /api/experiments: %d %s", st, sb_str(&out));
    Json *j = parse(sb_str(&out));
    char job[96];
    snprintf(job, sizeof job, "/api/experiments/%s", str_of(j, "id"));
    json_free(j);
    long long t0 = now_ms();
    Json *a = NULL;
    for (;;) {
        a = get(port, job, &st);
        assert_int_equal(st, 200);
        const char *state_now = str_of(a, "state");
        if (strcmp(state_now, "queued") && strcmp(state_now, "running"))
            break;
        json_free(a);
        a = NULL;
        /* A's quick game, then B's 5 s, and room */
        if (now_ms() - t0 > 60000)
            fail_msg("the experiment of a slow lab rule still runs after 60 s");
        pause_ms(100);
    }
    assert_string_equal(str_of(a, "state"), "failed");
    const char *err = str_of(a, "error");
    if (!strstr(err, "the game's total time budget for house-rule hooks (5 s) is exceeded") ||
        !strstr(err, "of rule set B"))
        fail_msg("the experiment failed with '%s'", err);
    /* the same experiment on the command line, under the same limit */
    assert_non_null(strstr(str_of(a, "command"), " --hook-game-ms 5000 "));
    json_free(a);
    sb_free(&out);
    web_stop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lab_check_as_chessvar_check),
        cmocka_unit_test(test_lab_hostile_rules),
        cmocka_unit_test(test_lab_refusals),
        cmocka_unit_test(test_lab_unknown_id),
        cmocka_unit_test(test_lab_api_is_the_docs),
        cmocka_unit_test(test_lab_too_many_rules),
        cmocka_unit_test(test_lab_rule_plays_and_comes_back),
        cmocka_unit_test(test_lab_slow_rule_frees_the_bots),
        cmocka_unit_test(test_lab_bot_decision_bounded),
        cmocka_unit_test(test_lab_slow_rule_experiment_bounded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
