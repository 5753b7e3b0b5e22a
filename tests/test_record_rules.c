/*
 * test_record_rules.c -- records that carry their house-rule scripts
 * (issue 11, docs/RECORDS.md "House-rule scripts"): each script's name,
 * SHA-256 and exact text are written; loading rebuilds the rules from the
 * record alone and replays the game exactly (game_same: position, history,
 * messages, random generator); a text that no longer matches its digest,
 * and every malformed rule tag, is refused with the line and the reason.
 *
 * Invariant: the scripts come from scripts/ (or are written here); no
 * file is needed to load a record once it is written.
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
#include "../core/house.h"
#include "../core/record.h"
#include "../core/sha256.h"
#include "support/testutil.h"

/* ---- Helpers ----------------------------------------------------------- */

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* A game of variant `variant` (seed) under the given script texts. */
static Game *rules_game(const char *variant, uint64_t seed, const HouseSource *src, int n)
{
    const VariantOps *v = tu_variant(variant);
    Error e;
    House *h = house_load(v, 0, src, n, NULL, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = seed;
    params_defaults(v, &cfg.params);
    assert_int_equal(house_params(h, &cfg.params, &e), 0);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    house_free(h); /* the game holds the House from here on */
    if (!g)
        fail_msg("game_new_hooked: %s", e.msg);
    return g;
}

/* A game under one file of scripts/. */
static Game *script_game(const char *variant, uint64_t seed, const char *file, char **text)
{
    char path[128];
    snprintf(path, sizeof path, "scripts/%s", file);
    *text = tu_read_file(path);
    assert_non_null(*text);
    HouseSource s = {path, *text, strlen(*text)};
    return rules_game(variant, seed, &s, 1);
}

static char *save_text(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    assert_int_equal(record_save(g, &b), 0);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* Loading text must give a game the same as g, whose record is text again. */
static Game *assert_roundtrip(const Game *g, const char *text)
{
    Error e;
    Game *l = record_load(text, "rules.rec", &e);
    if (!l)
        fail_msg("load: %s\n%s", e.msg, text);
    assert_true(game_same(g, l));
    char *again = save_text(l);
    assert_string_equal(again, text);
    free(again);
    return l;
}

static void assert_load_fails(const char *text, const char *want)
{
    Error e;
    Game *l = record_load(text, "rules.rec", &e);
    if (l) {
        game_free(l);
        fail_msg("loaded, expected an error holding \"%s\":\n%s", want, text);
    }
    assert_has(e.msg, want);
}

/* text with the first occurrence of from replaced by to (malloc'd). */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *p = strstr(text, from);
    if (!p)
        fail_msg("\"%s\" not in the record:\n%s", from, text);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(p - text), text, to, p + strlen(from));
    return out;
}

/* text without its lines starting with prefix (malloc'd). */
static char *drop_lines(const char *text, const char *prefix)
{
    char *out = malloc(strlen(text) + 1);
    size_t n = 0;
    for (const char *p = text; *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
        if (strncmp(p, prefix, strlen(prefix)))
            memcpy(out + n, p, len), n += len;
        p += len;
    }
    out[n] = '\0';
    return out;
}

/* ---- Tests ------------------------------------------------------------- */

/* HOUSE-5 + records: a game King of the Hill ended is saved with the
 * script and replays to the same end from the record alone. */
static void test_koth_game_replays_from_record(void **state)
{
    (void)state;
    char *script;
    Game *g = script_game("orthodox", 3, "king_of_the_hill.lua", &script);
    tu_play_line(g, "e4 Nc6 Ke2 Nf6 Kd3 Nb8 Kd4");
    tu_assert_over(g, "1-0", "white's King reached the hill");
    char *text = save_text(g);
    assert_has(text, "[Rule \"scripts/king_of_the_hill.lua\"]\n[RuleSha256 \"");
    assert_has(text, "[RuleText \"rule {\\n\"]\n");
    assert_has(text, "[Termination \"white's King reached the hill\"]");
    Game *l = assert_roundtrip(g, text);
    assert_non_null(house_of(l));
    assert_string_equal(house_title(house_of(l), 0), "King of the Hill");
    /* The record without its rules is another game: the replay goes on
     * after Kd4 and no longer agrees with the Result. */
    char *bare = drop_lines(text, "[Rule");
    assert_load_fails(bare, "Result says \"1-0\" but replaying the actions gives \"*\"");
    free(bare);
    game_free(l);
    game_free(g);
    free(text);
    free(script);
}

/* HOUSE-3 + records: a start the setup drew from the generator is written
 * as SetupPosition, built again from the seed on loading (so the
 * generator is where it was: game_same compares it), and checked. */
static void test_setup_position_is_built_again(void **state)
{
    (void)state;
    char *script;
    Game *g = script_game("orthodox", 7, "chess960.lua", &script);
    assert_true(game_setup_made(g));
    const char *start = game_config(g)->position;
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    assert_true(l.n > 0);
    assert_int_equal(game_apply(g, &l.v[0], NULL), 0);
    al_free(&l);
    char *text = save_text(g);
    char want[160];
    snprintf(want, sizeof want, "[SetupPosition \"%s\"]\n", start);
    assert_has(text, want);
    assert_null(strstr(text, "[Position "));
    Game *ld = assert_roundtrip(g, text);
    assert_true(game_setup_made(ld));
    game_free(ld);

    /* Another start than the seed's: refused, naming both. */
    char *other = replace(text, start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_load_fails(other, "SetupPosition says \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB");
    assert_load_fails(other, "but the rules' setup builds");
    free(other);
    /* SetupPosition without a rule that sets up. */
    char *bare = drop_lines(text, "[Rule");
    assert_load_fails(bare, "SetupPosition, but no Rule builds a start position");
    free(bare);
    game_free(g);
    free(text);
    free(script);
}

/* Issue 11: a record whose script text no longer matches its SHA-256 is
 * refused, naming the rule and the tag's line. */
static void test_tampered_text_is_refused(void **state)
{
    (void)state;
    char *script;
    Game *g = script_game("orthodox", 3, "king_of_the_hill.lua", &script);
    tu_play_line(g, "e4 e5");
    char *text = save_text(g);
    char *bad = replace(text, "win at once.", "win at twice.");
    assert_load_fails(bad, "rules.rec:6: the text of the rule \"scripts/king_of_the_hill.lua\" "
                           "does not match its RuleSha256: the record was edited or damaged");
    free(bad);
    /* A changed digest is as wrong as a changed text. */
    const char *sha = strstr(text, "[RuleSha256 \"") + 13;
    char digit[2] = {sha[0] == 'a' ? 'b' : 'a', '\0'}, from[2] = {sha[0], '\0'};
    char *tag = strdup("[RuleSha256 \"x");
    tag[13] = from[0];
    char *totag = strdup(tag);
    totag[13] = digit[0];
    bad = replace(text, tag, totag);
    assert_load_fails(bad, "does not match its RuleSha256");
    free(bad);
    free(tag);
    free(totag);
    game_free(g);
    free(text);
    free(script);
}

/* Records: every byte of a script comes back (CR LF line ends, a tab,
 * control bytes, quotes, backslashes, UTF-8, no final line end), so the
 * digest matches and the rules are the same. */
static void test_script_bytes_exact(void **state)
{
    (void)state;
    static const char text[] =
        "-- \xc3\xa9t\xc3\xa9\tand a tab\r\n"
        "local s = \"\\\"quoted\\\" \\\\ \x01\x7f\"\r\n"
        "rule { name = \"Bytes\", description = s }";
    HouseSource src = {"bytes.lua", text, sizeof text - 1};
    Game *g = rules_game("orthodox", 1, &src, 1);
    tu_play_line(g, "d4");
    char *rec = save_text(g);
    assert_has(rec, "[RuleText \"-- \xc3\xa9t\xc3\xa9\\tand a tab\\r\\n\"]\n");
    assert_has(rec, "\\x01\\x7f");
    assert_has(rec, "[RuleText \"rule { name = \\\"Bytes\\\", description = s }\"]\n");
    Game *l = assert_roundtrip(g, rec);
    const GameConfig *c = game_config(l);
    assert_int_equal(c->nscripts, 1);
    assert_int_equal(c->scripts[0].len, sizeof text - 1);
    assert_memory_equal(c->scripts[0].text, text, sizeof text - 1);
    game_free(l);
    game_free(g);
    free(rec);
}

/* Records: two scripts keep their order, each with its own tags; a game
 * whose reaction draws from the game's generator replays to the same
 * draws (game_same compares the generator). */
static void test_two_scripts_and_random_reactions(void **state)
{
    (void)state;
    static const char coin[] =
        "rule { name = \"Coin\", react = function(game, action)\n"
        "  if math.random(6) == 1 then game:finish({}, \"the die said so\") end\n"
        "end }\n";
    char *koth = tu_read_file("scripts/king_of_the_hill.lua");
    HouseSource src[2] = {{"coin.lua", coin, sizeof coin - 1},
                          {"koth.lua", koth, strlen(koth)}};
    Game *g = rules_game("orthodox", 11, src, 2);
    const char *moves[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int i = 0; game_to_act(g) >= 0 && i < 400; i++)
        tu_play(g, game_to_act(g), moves[i % 4]);
    tu_assert_over(g, "1/2-1/2", "the die said so");
    char *rec = save_text(g);
    const char *a = strstr(rec, "[Rule \"coin.lua\"]"), *b = strstr(rec, "[Rule \"koth.lua\"]");
    assert_true(a && b && a < b);
    Game *l = assert_roundtrip(g, rec);
    game_free(l);
    game_free(g);
    free(rec);
    free(koth);
}

/* Records: malformed rule tags, each refused with its line and reason. */
static void test_malformed_rule_tags(void **state)
{
    (void)state;
    char *script;
    Game *g = script_game("orthodox", 3, "king_of_the_hill.lua", &script);
    char *text = save_text(g);
    char *t;

    t = replace(text, "[Rule \"scripts/king_of_the_hill.lua\"]\n", "");
    assert_load_fails(t, "rules.rec:5: RuleSha256 before any Rule tag");
    free(t);
    t = drop_lines(text, "[RuleSha256");
    assert_load_fails(t, "rules.rec:5: the rule \"scripts/king_of_the_hill.lua\" has no "
                         "RuleSha256 tag");
    free(t);
    t = replace(text, "[RuleSha256 \"", "[RuleSha256 \"XYZ");
    assert_load_fails(t, "rules.rec:6: RuleSha256 must be 64 lower-case hex digits");
    free(t);
    t = replace(text, "[RuleText \"rule {\\n\"]", "[RuleText \"rule {\\q\"]");
    assert_load_fails(t, "unknown escape in the value (only \\\" and \\\\ are allowed, "
                         "and \\n \\r \\t \\xHH)");
    free(t);
    /* \n is a script's escape, not a Termination's. */
    t = replace(text, "[Result \"*\"]", "[Result \"*\\n\"]");
    assert_load_fails(t, "unknown escape in the value (only \\\" and \\\\ are allowed)");
    free(t);
    t = replace(text, "[RuleText \"rule {", "[Rule \"\"]\n[RuleText \"rule {");
    assert_load_fails(t, "Rule: the script's name is empty");
    free(t);
    /* A text whose digest matches but which does not load: the script's
     * own error (file:line), from the record's text. */
    static const char fine[] = "rule { name = \"Fine\" }\n";
    static const char broken[] = "rule { name = \"Fine\" \n";
    HouseSource src = {"fine.lua", fine, sizeof fine - 1};
    Game *ok = rules_game("orthodox", 1, &src, 1);
    char *rec = save_text(ok);
    char hex_fine[65], hex_broken[65];
    sha256_hex(fine, sizeof fine - 1, hex_fine);
    sha256_hex(broken, sizeof broken - 1, hex_broken);
    char *t1 = replace(rec, "\\\"Fine\\\" }\\n", "\\\"Fine\\\" \\n");
    assert_load_fails(t1, "does not match its RuleSha256"); /* the digest guards it */
    t = replace(t1, hex_fine, hex_broken);
    assert_load_fails(t, "rules.rec:5: house rule fine.lua, load: fine.lua:2: '}' expected");
    free(t);
    free(t1);
    game_free(ok);
    free(rec);
    /* Too many scripts. */
    StrBuf many = STRBUF_INIT;
    sb_puts(&many, "[Variant \"orthodox\"]\n[Seed \"1\"]\n[Sides \"2\"]\n[Result \"*\"]\n");
    for (int i = 0; i < 17; i++)
        sb_printf(&many, "[Rule \"r%d.lua\"]\n", i);
    assert_load_fails(sb_str(&many), "rules.rec:21: more than 16 Rule tags");
    sb_free(&many);
    game_free(g);
    free(text);
    free(script);
}

/* Records: a script that the House refuses (here a rule for another
 * variant) is refused on loading with the House's own message. */
static void test_record_rule_for_other_variant(void **state)
{
    (void)state;
    char *script;
    Game *g = script_game("orthodox", 3, "king_of_the_hill.lua", &script);
    char *text = save_text(g);
    char *t = replace(text, "[Variant \"orthodox\"]", "[Variant \"ambigus\"]");
    assert_load_fails(t, "rules.rec:5: house rule scripts/king_of_the_hill.lua");
    assert_load_fails(t, "this script is not for ambigus");
    free(t);
    game_free(g);
    free(text);
    free(script);
}

/* Issue 11 at the command line: save in batch mode, load without the
 * script file, the terminal's title names the rules; --rules with --load
 * is refused. */
static void test_cli_save_and_load_rules(void **state)
{
    (void)state;
    char dir[] = "/tmp/cvrulesXXXXXX";
    assert_non_null(mkdtemp(dir));
    char script[128], rec[128], args[512];
    snprintf(script, sizeof script, "%s/koth.lua", dir);
    snprintf(rec, sizeof rec, "%s/koth.rec", dir);
    char *text = tu_read_file("scripts/king_of_the_hill.lua");
    FILE *f = fopen(script, "w");
    fputs(text, f);
    fclose(f);
    free(text);

    TuRun r;
    char input[256];
    snprintf(input, sizeof input, "e4\nNc6\nKe2\nNf6\nKd3\nNb8\nKd4\nsave %s\n", rec);
    snprintf(args, sizeof args, "run orthodox --seed 4 --rules %s", script);
    tu_run(&r, args, input);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "saved to");
    tu_run_free(&r);
    unlink(script); /* the record is enough */

    snprintf(args, sizeof args, "run --load %s", rec);
    tu_run(&r, args, "status\n");
    assert_int_equal(r.status, 0);
    assert_has(r.out, "game over: 1-0, white wins (white's King reached the hill)");
    tu_run_free(&r);

    snprintf(args, sizeof args, "play --load %s --ascii", rec);
    tu_run(&r, args, "quit\n");
    assert_has(r.out, "Orthodox chess, with house rules: King of the Hill.");
    tu_run_free(&r);

    snprintf(args, sizeof args, "run --load %s --rules %s", rec, script);
    tu_run(&r, args, "status\n");
    assert_int_equal(r.status, 2);
    assert_has(r.err, "--rules with --load: a record is replayed with the rules it was "
                      "played with");
    tu_run_free(&r);
    unlink(rec);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_koth_game_replays_from_record),
        cmocka_unit_test(test_setup_position_is_built_again),
        cmocka_unit_test(test_tampered_text_is_refused),
        cmocka_unit_test(test_script_bytes_exact),
        cmocka_unit_test(test_two_scripts_and_random_reactions),
        cmocka_unit_test(test_malformed_rule_tags),
        cmocka_unit_test(test_record_rule_for_other_variant),
        cmocka_unit_test(test_cli_save_and_load_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
