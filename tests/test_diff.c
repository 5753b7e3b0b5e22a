/*
 * test_diff.c -- `chessvar diff A B` (issue 22 part 1, docs/TEACHING.md):
 * the rule data every variant and script declares, the card of changes by
 * area built from it, the positions where two rule sets part, bad input
 * and determinism.
 *
 * The program runs as a user runs it (tu_run); its --json is read back
 * with core/json.h, so each test asserts on the same facts the text shows.
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

#include "../core/json.h"
#include "../core/variant.h"
#include "support/testutil.h"

/* The JSON answer of `chessvar ARGS` (exit 0 asserted); free with json_free. */
static Json *diff_json(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "diff %s --json", args);
    TuRun r;
    tu_run(&r, cmd, NULL);
    if (r.status != 0)
        fail_msg("chessvar %s: exit %d: %s", cmd, r.status, r.err);
    Error e = {""};
    Json *j = json_parse(r.out, strlen(r.out), &e);
    if (!j)
        fail_msg("chessvar %s: not JSON: %s", cmd, e.msg);
    tu_run_free(&r);
    return j;
}

static int has_word(const Json *list, const char *w)
{
    for (int i = 0; list && i < list->count; i++)
        if (strcmp(json_at(list, i)->str, w) == 0)
            return 1;
    return 0;
}

/* The card's entry for area word w. */
static const Json *card_area(const Json *j, const char *w)
{
    const Json *card = json_get(j, "card");
    for (int i = 0; card && i < card->count; i++)
        if (strcmp(json_get(json_at(card, i), "area")->str, w) == 0)
            return json_at(card, i);
    return NULL;
}

/* Issue 22, done-when of part 1: `chessvar diff orthodox V` names every
 * rule area the docs list and finds a position where the two part for
 * each area that changes -- for every variant V (Tile Chess through the
 * placement its rule data gives, laid on the orthodox board). */
static void check_variant(const char *v)
{
    char args[64];
    snprintf(args, sizeof args, "orthodox %s", v);
    Json *j = diff_json(args);
    for (int a = 0; a < AREA__COUNT; a++) {
        const Json *c = card_area(j, rule_area_word(a));
        if (!c)
            fail_msg("%s: the card has no area '%s'", v, rule_area_word(a));
        assert_string_equal(json_get(c, "name")->str, rule_area_name(a));
    }
    const Json *parts = json_get(j, "partings");
    const Json *missing = json_get(json_get(j, "search"), "missing");
    int changes = 0;
    for (int a = 0; a < AREA__COUNT; a++) {
        const Json *c = card_area(j, rule_area_word(a));
        int changed = json_get(c, "changes")->type == JSON_TRUE;
        int shown = 0;
        for (int i = 0; i < parts->count; i++)
            shown |= has_word(json_get(json_at(parts, i), "areas"), rule_area_word(a));
        if (changed != (json_get(c, "lines")->count > 0))
            fail_msg("%s: area %s changes=%d with %d lines", v, rule_area_word(a), changed,
                     json_get(c, "lines")->count);
        changes += changed;
        if (changed && (!shown || has_word(missing, rule_area_word(a))))
            fail_msg("diff orthodox %s: no position found where %s parts", v,
                     rule_area_name(a));
        if (!changed && shown)
            fail_msg("diff orthodox %s: a parting in %s, which does not change", v,
                     rule_area_name(a));
    }
    assert_true(changes >= 4);
    /* every parting names the rule that makes the difference: an id of
     * V's own (docs/RULES.md) */
    char prefix[8];
    snprintf(prefix, sizeof prefix, "%.4s-", strcmp(v, "echiquete") == 0 ? "ECHQ"
                                              : strcmp(v, "masques") == 0 ? "MASQ"
                                              : strcmp(v, "ambigus") == 0 ? "AMBI" : "TILE");
    for (int i = 0; i < parts->count; i++) {
        const Json *rules = json_get(json_at(parts, i), "rules");
        assert_true(rules->count > 0);
        int own = 0;
        for (int k = 0; k < rules->count; k++)
            own |= strncmp(json_at(rules, k)->str, prefix, 5) == 0;
        assert_true(own);
    }
    json_free(j);
}

static void test_issue22_diff_masques_every_area(void **state)
{
    (void)state;
    check_variant("masques");
}

static void test_issue22_diff_ambigus_every_area(void **state)
{
    (void)state;
    check_variant("ambigus");
}

static void test_issue22_diff_echiquete_every_area(void **state)
{
    (void)state;
    check_variant("echiquete");
}

static void test_issue22_diff_tile_every_area(void **state)
{
    (void)state;
    check_variant("tile");
}

/* Issue 22: the rule data of each variant lists exactly the ids of
 * docs/RULES.md, in order, each with an area (and what it changes, for a
 * variant other than orthodox chess). */
static void test_issue22_rule_data_matches_rules_md(void **state)
{
    (void)state;
    char *doc = tu_read_file("docs/RULES.md");
    for (int i = 0; variant_registry[i]; i++) {
        const VariantOps *v = variant_registry[i];
        assert_true(v->version >= 8);
        assert_non_null(v->rule_data);
        const RuleInfo *r = v->rule_data->rules;
        char prefix[8];
        snprintf(prefix, sizeof prefix, "%.4s-", r[0].id);
        /* the ids of the doc's "- **XXXX-N Title.**" lines, in order */
        int k = 0;
        for (const char *p = doc; (p = strstr(p, "- **")); p += 4) {
            if (strncmp(p + 4, prefix, 5) != 0)
                continue;
            size_t n = strcspn(p + 4, " *");
            if (!r[k].id)
                fail_msg("%s: docs/RULES.md has %.*s beyond the rule data", v->name, (int)n,
                         p + 4);
            if (strlen(r[k].id) != n || strncmp(r[k].id, p + 4, n) != 0)
                fail_msg("%s: rule data %s where docs/RULES.md has %.*s", v->name, r[k].id,
                         (int)n, p + 4);
            assert_true(r[k].area >= 0 && r[k].area < AREA__COUNT);
            assert_true(r[k].area2 >= -1 && r[k].area2 < AREA__COUNT);
            assert_non_null(r[k].what);
            if (strcmp(v->name, "orthodox") != 0)
                assert_true(r[k].replaces && r[k].keeps);
            k++;
        }
        if (r[k].id)
            fail_msg("%s: rule data %s is not in docs/RULES.md", v->name, r[k].id);
        assert_true(k > 0);
    }
    free(doc);
}

/* Issue 22: the card comes from the data -- a script's declared changes,
 * a parameter that differs from its default (its rule's area), and an
 * honest line for a script that declares nothing. */
static void test_issue22_card_from_scripts_and_params(void **state)
{
    (void)state;
    Json *j = diff_json("orthodox orthodox --rules scripts/atomic.lua --budget 300");
    const Json *cap = card_area(j, "captures");
    assert_int_equal(json_get(cap, "changes")->type, JSON_TRUE);
    const Json *line = json_at(json_get(cap, "lines"), 0);
    assert_string_equal(json_get(line, "side")->str, "B");
    assert_string_equal(json_get(line, "by")->str, "scripts/atomic.lua");
    assert_true(has_word(json_get(line, "replaces"), "ORTH-2"));
    assert_int_equal(json_get(card_area(j, "board"), "changes")->type, JSON_FALSE);
    assert_true(has_word(json_get(card_area(j, "board"), "same"), "ORTH-1"));
    /* atomic's captures part in a position reachable in both */
    const Json *parts = json_get(j, "partings");
    int capt = 0;
    for (int i = 0; i < parts->count; i++)
        capt |= has_word(json_get(json_at(parts, i), "areas"), "captures") &&
                has_word(json_get(json_at(parts, i), "rules"), "scripts/atomic.lua");
    assert_true(capt);
    json_free(j);

    /* a parameter: castling (ORTH-5) is a change of how pieces move, on A */
    j = diff_json("orthodox --param castling=off orthodox --budget 300");
    const Json *mv = card_area(j, "moves");
    assert_int_equal(json_get(mv, "changes")->type, JSON_TRUE);
    line = json_at(json_get(mv, "lines"), 0);
    assert_string_equal(json_get(line, "side")->str, "A");
    assert_string_equal(json_get(line, "by")->str, "ORTH-5");
    assert_non_null(strstr(json_get(line, "what")->str, "castling=off"));
    json_free(j);

    /* a script that declares nothing: the hooks it defines, in no area */
    char path[64];
    snprintf(path, sizeof path, "/tmp/cv_diff_%d.lua", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("rule { name = \"Quiet\", veto = function(game, action) return nil end }\n", f);
    fclose(f);
    char args[160];
    snprintf(args, sizeof args, "orthodox orthodox --rules %s --budget 50", path);
    j = diff_json(args);
    const Json *und = json_at(json_get(j, "undeclared"), 0);
    assert_non_null(und);
    assert_string_equal(json_get(und, "what")->str, "changes: not declared (hooks: veto)");
    json_free(j);
    TuRun r;
    tu_run(&r, args, NULL); /* the text says the same */
    unlink(path);
    tu_run_free(&r);
}

/* Issue 22: bad input is refused with a message naming it, exit 2, before
 * anything is played. */
static void test_issue22_diff_bad_input(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } cases[] = {
        {"diff orthodox nosuch", "unknown variant 'nosuch'"},
        {"diff nosuch orthodox", "unknown variant 'nosuch'"},
        {"diff orthodox", "name two rule sets"},
        {"diff orthodox masques tile", "unexpected argument 'tile'"},
        {"diff orthodox masques --param bogus=1", "B: --param bogus=1: masques has no "
                                                  "parameter 'bogus'"},
        {"diff orthodox --param castling=maybe masques", "A: --param: castling=maybe: bad "
                                                         "value"},
        {"diff orthodox orthodox --rules /nonexistent/x.lua", "B: /nonexistent/x.lua: "
                                                              "cannot read"},
        {"diff orthodox orthodox --rules scripts/tile_six_orthogonal.lua",
         "this script is not for orthodox"},
        {"diff orthodox masques --budget 0", "--budget 0: give a number"},
        {"diff orthodox masques --practice x", "--practice x: give a number"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        TuRun r;
        tu_run(&r, cases[i].args, NULL);
        if (r.status != 2 || !strstr(r.err, cases[i].want) || r.out[0])
            fail_msg("chessvar %s: exit %d, stderr '%s', stdout '%s' (want '%s')",
                     cases[i].args, r.status, r.err, r.out, cases[i].want);
        tu_run_free(&r);
    }
}

/* Issue 22 (docs/HOUSE-RULES.md, "What a script changes"): a wrong
 * `changes` field is the script's error, named. */
static void test_issue22_script_changes_field_checked(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } cases[] = {
        {"rule { name = 'x', changes = {{area = 'nowhere', what = 'y'}} }",
         "changes[1].area: expected one of board, turns, moves, captures, check, hidden, end, "
         "draws"},
        {"rule { name = 'x', changes = {{area = 'end'}} }", "changes[1].what: expected a string"},
        {"rule { name = 'x', changes = 'end' }", "changes: expected a list"},
        {"rule { name = 'x', changes = {} }", "changes: give 1 to 16 entries"},
        {"rule { name = 'x', changes = {{area = 'end', what = 'y', why = 1}} }",
         "unknown field 'why'"},
        {"rule { name = 'x', changes = {{area = 'end', what = 'y', rules = 5}} }",
         "changes[1].rules: expected a string"},
    };
    char path[64];
    snprintf(path, sizeof path, "/tmp/cv_changes_%d.lua", (int)getpid());
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "%s\n", cases[i].text);
        fclose(f);
        char args[128];
        snprintf(args, sizeof args, "check %s", path);
        TuRun r;
        tu_run(&r, args, NULL);
        if (r.status != 1 || !strstr(r.out, cases[i].want))
            fail_msg("%s: exit %d, '%s' (want '%s')", cases[i].text, r.status, r.out,
                     cases[i].want);
        tu_run_free(&r);
    }
    unlink(path);
}

/* Issue 22: every script of scripts/ declares what it changes. */
static void test_issue22_every_script_declares_changes(void **state)
{
    (void)state;
    static const char *const scripts[][2] = {
        {"orthodox", "atomic.lua"}, {"orthodox", "chess960.lua"},
        {"orthodox", "king_of_the_hill.lua"}, {"orthodox", "no_queen_before_5.lua"},
        {"orthodox", "three_check.lua"}, {"masques", "masques_allin_31.lua"},
        {"tile", "tile_six_orthogonal.lua"}, {"ambigus", "ambigus_mate.lua"},
        {"echiquete", "echiquete_takeover_20.lua"},
    };
    for (size_t i = 0; i < ARRAY_LEN(scripts); i++) {
        char args[160];
        snprintf(args, sizeof args, "%s %s --rules scripts/%s --budget 1", scripts[i][0],
                 scripts[i][0], scripts[i][1]);
        Json *j = diff_json(args);
        assert_int_equal(json_get(j, "undeclared")->count, 0);
        int lines = 0;
        for (int a = 0; a < AREA__COUNT; a++)
            lines += json_get(card_area(j, rule_area_word(a)), "lines")->count;
        if (lines < 1)
            fail_msg("scripts/%s declares no change", scripts[i][1]);
        json_free(j);
    }
}

/* Issue 22: the same command gives the same answer (a seed, a budget);
 * another seed plays other lines. */
static void test_issue22_diff_deterministic(void **state)
{
    (void)state;
    TuRun a, b, c;
    tu_run(&a, "diff orthodox echiquete --seed 5 --budget 400 --ascii", NULL);
    tu_run(&b, "diff orthodox echiquete --seed 5 --budget 400 --ascii", NULL);
    tu_run(&c, "diff orthodox echiquete --seed 6 --budget 400 --ascii", NULL);
    assert_int_equal(a.status, 0);
    assert_string_equal(a.out, b.out);
    assert_string_not_equal(a.out, c.out);
    assert_non_null(strstr(a.out, "(seed 5, 400 plies"));
    tu_run_free(&a);
    tu_run_free(&b);
    tu_run_free(&c);
}

/* Issue 22: --practice gives the experiment's figures of both rule sets. */
static void test_issue22_diff_practice(void **state)
{
    (void)state;
    Json *j = diff_json("orthodox orthodox --rules scripts/king_of_the_hill.lua --budget 1 "
                        "--practice 6");
    const Json *pr = json_get(j, "practice");
    assert_int_equal(pr->count, 2);
    for (int k = 0; k < 2; k++) {
        const Json *s = json_at(pr, k);
        assert_int_equal((int)json_get(s, "games")->num, 6);
        int sum = (int)(json_get(s, "white_wins")->num + json_get(s, "black_wins")->num +
                        json_get(s, "draws")->num + json_get(s, "unfinished")->num);
        assert_int_equal(sum, 6);
        assert_true(json_get(s, "length")->num > 0);
    }
    json_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue22_rule_data_matches_rules_md),
        cmocka_unit_test(test_issue22_diff_masques_every_area),
        cmocka_unit_test(test_issue22_diff_ambigus_every_area),
        cmocka_unit_test(test_issue22_diff_echiquete_every_area),
        cmocka_unit_test(test_issue22_diff_tile_every_area),
        cmocka_unit_test(test_issue22_card_from_scripts_and_params),
        cmocka_unit_test(test_issue22_diff_bad_input),
        cmocka_unit_test(test_issue22_script_changes_field_checked),
        cmocka_unit_test(test_issue22_every_script_declares_changes),
        cmocka_unit_test(test_issue22_diff_deterministic),
        cmocka_unit_test(test_issue22_diff_practice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
