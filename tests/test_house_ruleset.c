/*
 * test_house_ruleset.c -- issue 24, the Lua layer of rule sets from parts
 * (core/lua/house.c, docs/HOUSE-RULES.md "A rule set from parts" and
 * "Script arguments"): rule{ruleset = ...} written as the rule-set text in
 * its fixed order and handed to the game (GameHooks.ruleset), piece values
 * into the value table, the errors naming the script, the key and what is
 * expected; a script's arguments (`FILE:name=value`) declared with
 * arguments{...}, checked, listed by `chessvar check` and carried by a
 * game's record.
 *
 * The fairy variant is not in this build's registry yet: the rule set is
 * prepared by a copy of the orthodox variant given a prepare of its own
 * (test_prepare), which keeps the text it was given and refuses what a
 * rule-set reader refuses, so what the Lua layer writes is read as a
 * variant reads it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "../core/web/web.h"
#include "support/testutil.h"
#include "support/webclient.h"

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* ---- A variant that prepares a rule set -------------------------------- */

static int g_prepared;

/* Reads the text line by line as the rule-set format says (key = value,
 * # comments): a line without " = " or a board key other than WxH is
 * refused with its line number, as the engine's reader does. */
static void *test_prepare(const char *text, Error *e)
{
    int line = 0;
    for (const char *p = text ? text : ""; *p;) {
        size_t n = strcspn(p, "\n");
        line++;
        const char *eq = strstr(p, " = ");
        if (!eq || eq > p + n)
            return err_set(e, "line %d: expected key = value", line), NULL;
        if (!strncmp(p, "board = ", 8) && !memchr(p, 'x', n))
            return err_set(e, "line %d: board: expected WxH, 2..16 each", line), NULL;
        p += n + (p[n] == '\n');
    }
    g_prepared++;
    return cv_strdup(text ? text : "");
}

static void test_unprepare(void *data) { free(data); }

static const VariantOps *parts_variant(void)
{
    static VariantOps v;
    v = *tu_variant("orthodox");
    v.version = 9;
    v.prepare = test_prepare;
    v.unprepare = test_unprepare;
    return &v;
}

/* The same, showing its queens as a rule set's piece A: a game of
 * lettered figures as a script sees one. */
static void lettered_view(const Game *g, const void *st, int seat, View *out)
{
    tu_variant("orthodox")->view(g, st, seat, out);
    for (int i = 0; i < out->npieces; i++)
        if (out->pieces[i].figure == FIG_QUEEN)
            out->pieces[i].figure = FIG_LETTERED('A');
}

static const VariantOps *lettered_variant(void)
{
    static VariantOps v;
    v = *parts_variant();
    v.view = lettered_view;
    return &v;
}

static House *load_n(const VariantOps *v, const char *const *names, const char *const *texts,
                     int n, Error *e)
{
    HouseSource s[4];
    for (int i = 0; i < n; i++) {
        s[i].name = names[i];
        s[i].text = texts[i];
        s[i].len = strlen(texts[i]);
    }
    HouseLimits lim = {.instructions = 1000000, .memory = (size_t)8 << 20};
    e->msg[0] = '\0';
    return house_load(v, 0, s, n, &lim, e);
}

static House *load1(const VariantOps *v, const char *name, const char *text, Error *e)
{
    return load_n(v, &name, &text, 1, e);
}

/* Loading text as name must fail with each of the wants in its message. */
static void refused(const VariantOps *v, const char *name, const char *text,
                    const char *want1, const char *want2)
{
    Error e;
    House *h = load1(v, name, text, &e);
    if (h) {
        house_free(h);
        fail_msg("%s loaded; expected an error with \"%s\"", name, want1);
    }
    assert_has(e.msg, want1);
    if (want2)
        assert_has(e.msg, want2);
}

/* ---- The rule set's text ------------------------------------------------ */

/* issue 24: every kind of value, in the fixed order of the format's keys
 * whatever the order in the script (a Lua table has none), pieces as
 * `piece` lines, booleans as yes/no; the game gets the text. */
static void test_issue24_ruleset_text_in_fixed_order(void **state)
{
    (void)state;
    const VariantOps *v = parts_variant();
    Error e;
    House *h = load1(v, "capa.lua",
                     "rule { name = 'Capablanca', ruleset = {\n"
                     "  promotion = 'QRBNAC', checks = 3, hands = false,\n"
                     "  pieces = {'A archbishop BN 8',\n"
                     "            {letter = 'C', name = 'chancellor', betza = 'RN', value = 9},\n"
                     "            {letter = 'W', name = 'wazir', betza = 'W'}},\n"
                     "  board = '10x8', castling = 'c i', en_passant = true,\n"
                     "  name = 'Capablanca chess',\n"
                     "} }\n", &e);
    if (!h)
        fail_msg("%s", e.msg);
    const char *want = "name = Capablanca chess\n"
                       "board = 10x8\n"
                       "piece = A archbishop BN 8\n"
                       "piece = C chancellor RN 9\n"
                       "piece = W wazir W\n"
                       "castling = c i\n"
                       "en_passant = yes\n"
                       "promotion = QRBNAC\n"
                       "hands = no\n"
                       "checks = 3\n";
    assert_string_equal(house_ruleset(h), want);
    /* the game is made with it */
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    params_defaults(v, &cfg.params);
    assert_int_equal(house_params(h, &cfg.params, &e), 0);
    cfg.params_set = 1;
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        fail_msg("%s", e.msg);
    assert_string_equal(game_ruleset(g), want);
    assert_string_equal(game_variant_data(g), want);
    /* the pieces' values are in the value table */
    assert_int_equal(game_params(g)->values[FIG_LETTERED('A')], 8);
    assert_int_equal(game_params(g)->values[FIG_LETTERED('C')], 9);
    assert_int_equal(game_params(g)->values[FIG_LETTERED('W')], 0);
    game_free(g);
    house_free(h);
    /* without a ruleset: none */
    h = load1(v, "plain.lua", "rule { name = 'Plain' }", &e);
    assert_non_null(h);
    assert_null(house_ruleset(h));
    assert_null(house_hooks(h).ruleset);
    house_free(h);
}

/* issue 24: values = {A = ...} takes a rule set's lettered figure, and
 * overrides the value a piece line gives. */
static void test_issue24_values_of_lettered_figures(void **state)
{
    (void)state;
    const VariantOps *v = parts_variant();
    Error e;
    House *h = load1(v, "vals.lua",
                     "rule { name = 'V', values = {A = 7, Q = 10, z = 2},\n"
                     "  ruleset = {pieces = {'A archbishop BN 8', 'Z amazon QN 12'}} }\n", &e);
    if (!h)
        fail_msg("%s", e.msg);
    Params p;
    params_defaults(v, &p);
    assert_int_equal(house_params(h, &p, &e), 0);
    assert_int_equal(p.values[FIG_LETTERED('A')], 7);
    assert_int_equal(p.values[FIG_LETTERED('Z')], 2);
    assert_int_equal(p.values[FIG_QUEEN], 10);
    house_free(h);
    refused(v, "badv.lua", "rule { name = 'V', values = {['?'] = 1} }", "badv.lua:1:",
            "values: keys must be figure letters");
    refused(v, "badk.lua", "rule { name = 'V', values = {K = 1} }", "badk.lua",
            "unknown piece value 'value.K'");
}

/* issue 24: the errors name the script, the key and what is expected. */
static void test_issue24_ruleset_bad_types(void **state)
{
    (void)state;
    const VariantOps *v = parts_variant();
    refused(v, "t1.lua", "rule { name = 'x', ruleset = 'board = 8x8' }", "t1.lua:1:",
            "rule: ruleset: expected a table of the rule set's keys");
    refused(v, "t2.lua", "rule { name = 'x', ruleset = {boards = '8x8'} }", "t2.lua:1:",
            "rule: ruleset: unknown key 'boards' (the keys are name, board, start, pieces");
    refused(v, "t3.lua", "rule { name = 'x', ruleset = {board = {8, 8}} }", "t3.lua:1:",
            "rule: ruleset.board: expected a string, an integer or a boolean (yes/no), got a "
            "table");
    refused(v, "t4.lua", "rule { name = 'x', ruleset = {checks = 2.5} }", "t4.lua:1:",
            "ruleset.checks: expected a string, an integer or a boolean (yes/no), got a "
            "number with a fraction");
    refused(v, "t5.lua", "rule { name = 'x', ruleset = {start = 'a\\nboard = 9x9'} }",
            "t5.lua:1:", "ruleset.start: ");
    refused(v, "t6.lua", "rule { name = 'x', ruleset = {name = 'Chess #2'} }", "t6.lua:1:",
            "ruleset.name: '#' starts a comment");
    refused(v, "t7.lua", "rule { name = 'x', ruleset = {pieces = 'A a BN'} }", "t7.lua:1:",
            "ruleset.pieces: expected a list of pieces");
    refused(v, "t8.lua", "rule { name = 'x', ruleset = {pieces = {'A archbishop'}} }",
            "t8.lua:1:", "ruleset.pieces[1]: expected \"LETTER name betza [value]\"");
    refused(v, "t9.lua", "rule { name = 'x', ruleset = {pieces = {'a archbishop BN'}} }",
            "t9.lua:1:", "ruleset.pieces[1]: a piece's letter is one upper-case letter");
    refused(v, "t10.lua", "rule { name = 'x', ruleset = {pieces = {'A archbishop BN x'}} }",
            "t10.lua:1:", "ruleset.pieces[1]: the value \"x\" is not a whole number");
    refused(v, "t11.lua",
            "rule { name = 'x', ruleset = {pieces = {{letter = 'A', name = 'arch'}}} }",
            "t11.lua:1:", "ruleset.pieces[1].betza: expected a string (Betza notation");
    refused(v, "t12.lua",
            "rule { name = 'x', ruleset = {pieces = {{letter = 'A', name = 'a b', betza = "
            "'BN'}}} }", "t12.lua:1:", "ruleset.pieces[1].name: one word without spaces");
    refused(v, "t13.lua",
            "rule { name = 'x', ruleset = {pieces = {{letter = 'A', name = 'a', betza = "
            "'BN', value = 'high'}}} }", "t13.lua:1:",
            "ruleset.pieces[1].value: expected a whole number from 0 to 1000, got string");
    refused(v, "t14.lua",
            "rule { name = 'x', ruleset = {pieces = {{letter = 'A', name = 'a', betza = "
            "'BN', colour = 'red'}}} }", "t14.lua:1:",
            "ruleset.pieces[1]: unknown field 'colour'");
    refused(v, "t15.lua", "rule { name = 'x', ruleset = function() return 3 end }",
            "t15.lua:1:", "rule: ruleset: the function returned a number, not a table");
    /* the variant's own reading of the text, prefixed with the script */
    refused(v, "t16.lua", "rule { name = 'x', ruleset = {board = 'big'} }", "t16.lua:1:",
            "rule: ruleset: line 1: board: expected WxH");
}

/* issue 24: two scripts of one game that both give a rule set: an error
 * naming both. */
static void test_issue24_two_rulesets(void **state)
{
    (void)state;
    const char *names[] = {"first.lua", "second.lua"};
    const char *texts[] = {"rule { name = 'a', ruleset = {board = '10x8'} }",
                           "rule { name = 'b', ruleset = {checks = 3} }"};
    Error e;
    House *h = load_n(parts_variant(), names, texts, 2, &e);
    assert_null(h);
    assert_has(e.msg, "second.lua:1: rule: ruleset: first.lua gives the rule set already");
    assert_has(e.msg, "first.lua and second.lua both do");
}

/* issue 24: a variant that takes no rule set refuses a script's, by name,
 * where the script is loaded; a game given one directly refuses it too. */
static void test_issue24_ruleset_refused_by_other_variants(void **state)
{
    (void)state;
    refused(tu_variant("orthodox"), "koth.lua",
            "rule { name = 'x', ruleset = {goal = 'K d4 e4 d5 e5'} }", "koth.lua:1:",
            "rule: ruleset: orthodox takes no rule set (board, pieces, hands): only a "
            "variant from parts does (fairy)");
    refused(tu_variant("masques"), "m.lua", "rule { name = 'x', ruleset = {checks = 3} }",
            "m.lua:1:", "masques takes no rule set");
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("orthodox");
    cfg.ruleset = "checks = 3\n";
    Error e;
    assert_null(game_new(&cfg, &e));
    assert_has(e.msg, "orthodox takes no rule set");
}

/* issue 24: a script sees a rule set's own pieces by their letters, and
 * game:material counts them at the rule set's values. */
static void test_issue24_scripts_see_lettered_figures(void **state)
{
    (void)state;
    const VariantOps *v = lettered_variant();
    Error e;
    House *h = load1(v, "see.lua",
                     "rule { name = 'See', ruleset = {pieces = {'A archbishop BN 8'}},\n"
                     "  start = function(game)\n"
                     "    local p = game:piece_at('d1')\n"
                     "    assert(p.figure == 'A', 'd1 holds ' .. p.figure)\n"
                     "    assert(game:piece_at('d1') == p)\n"
                     "    local n = 0\n"
                     "    for _, q in ipairs(game:pieces()) do if q.figure == 'A' then n = n + 1 end end\n"
                     "    assert(n == 2, n .. ' pieces A')\n"
                     "    assert(game:material('white') == 38, 'material ' .. game:material('white'))\n"
                     "  end }\n", &e);
    if (!h)
        fail_msg("%s", e.msg);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    params_defaults(v, &cfg.params);
    assert_int_equal(house_params(h, &cfg.params, &e), 0);
    cfg.params_set = 1;
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        fail_msg("%s", e.msg);
    game_free(g);
    house_free(h);
}

/* ---- Script arguments ------------------------------------------------------ */

static const char ARGS_SCRIPT[] =
    "local a = arguments {\n"
    "  checks = {3, 'checks that win', min = 1, max = 9},\n"
    "  mode = {'plain', 'how', choices = {'plain', 'fancy'}},\n"
    "  hands = {false, 'pieces in hand'},\n"
    "  weight = {1.5, 'a number'},\n"
    "}\n"
    "rule { name = 'Args', ruleset = function(x)\n"
    "  assert(x == a)\n"
    "  return {checks = x.checks, hands = x.hands, name = x.mode .. ' ' .. x.weight}\n"
    "end }\n";

/* issue 24: FILE:name=value,... gives a script's arguments; the ruleset
 * function gets them; the defaults fill what is not given. */
static void test_issue24_arguments_reach_the_ruleset(void **state)
{
    (void)state;
    const VariantOps *v = parts_variant();
    Error e;
    House *h = load1(v, "dir/three.lua", ARGS_SCRIPT, &e);
    if (!h)
        fail_msg("%s", e.msg);
    assert_string_equal(house_ruleset(h), "name = plain 1.5\nhands = no\nchecks = 3\n");
    assert_int_equal(house_nargs(h, 0), 4);
    const HouseArg *a = house_arg(h, 0, 0);
    assert_string_equal(a->name, "checks");
    assert_string_equal(a->value, "3");
    assert_string_equal(a->def, "3");
    assert_string_equal(a->doc, "checks that win");
    assert_string_equal(a->expect, "an integer from 1 to 9");
    house_free(h);
    h = load1(v, "dir/three.lua:checks=5,hands=yes,mode=fancy,weight=-2", ARGS_SCRIPT, &e);
    if (!h)
        fail_msg("%s", e.msg);
    assert_string_equal(house_ruleset(h), "name = fancy -2.0\nhands = yes\nchecks = 5\n");
    assert_string_equal(house_arg(h, 0, 0)->value, "5");
    assert_int_equal(house_arg(h, 0, 0)->given, 1);
    assert_string_equal(house_name(h, 0), "dir/three.lua"); /* the file, for messages */
    assert_string_equal(house_scripts(h)[0].name,
                        "dir/three.lua:checks=5,hands=yes,mode=fancy,weight=-2");
    house_free(h);
}

/* issue 24: an unknown name or a bad value is an error naming the script
 * and the accepted names (or values). */
static void test_issue24_arguments_refused(void **state)
{
    (void)state;
    const VariantOps *v = parts_variant();
    refused(v, "three.lua:chekcs=5", ARGS_SCRIPT, "three.lua:1: arguments: chekcs=5: no such "
            "argument (its arguments: checks, hands, mode, weight)", NULL);
    refused(v, "three.lua:checks=10", ARGS_SCRIPT, "three.lua:1: arguments: checks=10: out "
            "of range (expected an integer from 1 to 9)", NULL);
    refused(v, "three.lua:checks=x", ARGS_SCRIPT, "three.lua:1: arguments: checks=x: expected "
            "an integer from 1 to 9", NULL);
    refused(v, "three.lua:checks=2.5", ARGS_SCRIPT, "arguments: checks=2.5: expected an "
            "integer", NULL);
    refused(v, "three.lua:mode=odd", ARGS_SCRIPT, "arguments: mode=odd: not one of the "
            "choices (expected a text, one of: plain fancy)", NULL);
    refused(v, "three.lua:hands=maybe", ARGS_SCRIPT, "arguments: hands=maybe: expected yes "
            "or no", NULL);
    refused(v, "three.lua:checks=2,checks=3", ARGS_SCRIPT, "arguments: checks is given twice",
            NULL);
    refused(v, "three.lua:checks=2,x", ARGS_SCRIPT, "arguments: they are given as name=value "
            "pairs separated by commas, not \"x\"", NULL);
    refused(tu_variant("orthodox"), "plain.lua:x=1", "rule { name = 'p' }",
            "house rule plain.lua, load: the script takes no arguments (it declares none "
            "with arguments{...}), but is given x=1", NULL);
    /* declarations */
    refused(v, "d1.lua", "arguments { checks = 3 }\nrule { name = 'p' }",
            "d1.lua:1: arguments: checks: expected {default, \"what it is\"}", NULL);
    refused(v, "d2.lua", "arguments { checks = {3} }\nrule { name = 'p' }",
            "d2.lua:1: arguments: checks: the second is the doc line", NULL);
    refused(v, "d3.lua", "arguments { checks = {0, 'n', min = 1} }\nrule { name = 'p' }",
            "d3.lua:1: arguments: checks: the default is out of range", NULL);
    refused(v, "d4.lua", "arguments { ['a b'] = {0, 'n'} }\nrule { name = 'p' }",
            "d4.lua:1: arguments: the names are words", NULL);
    refused(v, "d5.lua", "arguments {}\narguments {}\nrule { name = 'p' }",
            "d5.lua:2: arguments{} is called a second time", NULL);
}

/* issue 24: the arguments change the game, `chessvar check` lists them, and
 * a record keeps them: the game replayed from it is the same game. */
static void test_issue24_arguments_cli_and_record(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_args_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128], args[512];
    snprintf(path, sizeof path, "%s/noe4.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("local a = arguments { ply = {1, 'the ply at which e2e4 is forbidden'} }\n"
          "rule { name = 'No e4', veto = function(game, action)\n"
          "  if game:move_number() == a.ply and action.text == 'e2e4' then return 'not now' end\n"
          "end }\n", f);
    assert_int_equal(fclose(f), 0);
    TuRun r;
    snprintf(args, sizeof args, "check %s:ply=3", path);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_has(r.out, ":ply=3: ok (No e4)\n  argument ply = 3 (an integer; default 1): the ply "
                      "at which e2e4 is forbidden\n");
    tu_run_free(&r);
    snprintf(args, sizeof args, "perft orthodox --depth 1 --rules %s", path);
    tu_run(&r, args, NULL);
    assert_has(r.out, "Nodes searched: 19");
    tu_run_free(&r);
    snprintf(args, sizeof args, "perft orthodox --depth 1 --rules %s:ply=3", path);
    tu_run(&r, args, NULL);
    assert_has(r.out, "Nodes searched: 20");
    tu_run_free(&r);
    snprintf(args, sizeof args, "perft orthodox --depth 1 --rules %s:plies=3", path);
    tu_run(&r, args, NULL);
    assert_int_not_equal(r.status, 0);
    assert_has(r.err, "noe4.lua:1: arguments: plies=3: no such argument (its arguments: ply)");
    tu_run_free(&r);
    /* the record: played with ply=3, e2e4 is refused at ply 3 on replay */
    snprintf(args, sizeof args, "run orthodox --rules %s:ply=3", path);
    char save[256];
    snprintf(save, sizeof save, "d4\nd5\nsave %s/g.rec\n", dir);
    tu_run(&r, args, save);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    snprintf(save, sizeof save, "%s/g.rec", dir);
    char *rec = tu_read_file(save);
    assert_non_null(rec);
    assert_has(rec, "[Rule \"noe4.lua:ply=3\"]");
    free(rec);
    snprintf(args, sizeof args, "legal --load %s/g.rec --trust-rules", dir);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "e2e3\n");
    if (strstr(r.out, "e2e4\n"))
        fail_msg("the replayed game lost its argument: e2e4 is legal at ply 3:\n%s", r.out);
    tu_run_free(&r);
    snprintf(args, sizeof args, "rm -rf %s", dir);
    assert_int_equal(system(args), 0);
}

/* issue 24: `chessvar serve` takes an offered script with its arguments,
 * "three_check.lua:checks=5" in POST /api/games "rules", and refuses a bad
 * one with the script's error. */
static void test_issue24_arguments_on_the_server(void **state)
{
    (void)state;
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    c.bot_delay_ms = 0;
    c.scripts = "scripts";
    Error e = {""};
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    int port = web_port(s);
    StrBuf out = STRBUF_INIT;
    const char *good = "{\"variant\":\"orthodox\",\"rules\":[\"three_check.lua:checks=5\"]}";
    int st = wc_http(port, "POST", "/api/games", good, strlen(good), &out);
    if (st != 201)
        fail_msg("POST %s: %d %s", good, st, sb_str(&out));
    sb_reset(&out);
    const char *bad = "{\"variant\":\"orthodox\",\"rules\":[\"three_check.lua:check=5\"]}";
    assert_int_equal(wc_http(port, "POST", "/api/games", bad, strlen(bad), &out), 400);
    assert_has(sb_str(&out), "arguments: check=5: no such argument (its arguments: checks)");
    sb_free(&out);
    web_stop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue24_ruleset_text_in_fixed_order),
        cmocka_unit_test(test_issue24_values_of_lettered_figures),
        cmocka_unit_test(test_issue24_ruleset_bad_types),
        cmocka_unit_test(test_issue24_two_rulesets),
        cmocka_unit_test(test_issue24_ruleset_refused_by_other_variants),
        cmocka_unit_test(test_issue24_scripts_see_lettered_figures),
        cmocka_unit_test(test_issue24_arguments_reach_the_ruleset),
        cmocka_unit_test(test_issue24_arguments_refused),
        cmocka_unit_test(test_issue24_arguments_cli_and_record),
        cmocka_unit_test(test_issue24_arguments_on_the_server),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
