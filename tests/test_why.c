/*
 * test_why.c -- "why ACTION" (issue 22 point 2): for every variant, legal
 * and illegal actions with the rule id that makes them so (the variant's
 * why op, core/why.c); a house rule's veto named by its script and its
 * reason; bad input answered with an error, never an answer, the game left
 * as it was; and the hidden twins of Les Échecs Masqués: two games that
 * differ only in what one seat may not know give that seat byte-identical
 * answers.
 *
 * Invariant: each case names its variant, position, the seat asking and the
 * text, so a failure says which answer went wrong.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

/* One question: in variant (position, or the start), after the actions of
 * `line` (separated by ';', each by the seat to act), `seat` (-1: the seat
 * to act) asks why `text`.  The answer must be legal or not, name exactly
 * the rule ids `rules`, and its text hold `holds` (NULL: anything). */
typedef struct Case {
    const char *variant, *position, *line;
    int seat;
    const char *text;
    int legal;
    const char *rules, *holds;
} Case;

/* Play the texts of line, separated by ';' (NULL: none), each by the seat
 * to act. */
static void play_texts(Game *g, const char *line)
{
    while (line && *line) {
        size_t n = strcspn(line, ";");
        char t[64];
        snprintf(t, sizeof t, "%.*s", (int)n, line);
        tu_play(g, game_to_act(g), t);
        line += n + (line[n] == ';');
    }
}

static void check_case(const Case *c)
{
    Game *g = tu_game(&(TuGame){.variant = tu_variant(c->variant), .position = c->position});
    play_texts(g, c->line);
    Game *before = game_clone(g);
    int seat = c->seat >= 0 ? c->seat : game_to_act(g);
    WhyAnswer w;
    Error e = {""};
    if (game_why(g, seat, c->text, &w, &e))
        fail_msg("%s, after '%s', seat %d: why %s: an error, not an answer: %s", c->variant,
                 c->line ? c->line : "", seat, c->text, e.msg);
    if (w.legal != c->legal || strcmp(w.rules, c->rules) ||
        (c->holds && !strstr(w.text, c->holds)))
        fail_msg("%s, after '%s', seat %d: why %s: got legal=%d rules '%s' text '%s'; "
                 "want legal=%d rules '%s' holding '%s'", c->variant,
                 c->line ? c->line : "", seat, c->text, w.legal, w.rules, w.text, c->legal,
                 c->rules, c->holds ? c->holds : "");
    if (!strstr(w.text, c->legal ? " is legal: " : " is illegal: "))
        fail_msg("%s: why %s: '%s' does not say legal or illegal", c->variant, c->text,
                 w.text);
    assert_true(game_same(g, before)); /* asking changes nothing */
    game_free(before);
    game_free(g);
}

static void check_cases(const Case *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        check_case(&c[i]);
}

#define EP_FEN "rnbqk2r/ppp2ppp/8/3pP3/8/8/PPPPQPPP/RNB1K2R w KQkq d6 0 1"

/* ORTH-1..9: each rule names the moves it allows and the refusals it makes. */
static void test_why_orthodox_orth(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"orthodox", NULL, NULL, -1, "e4", 1, "ORTH-2", "a pawn steps two squares"},
        {"orthodox", NULL, NULL, -1, "e3", 1, "ORTH-2", "a pawn steps one square forward"},
        {"orthodox", NULL, NULL, -1, "e5", 0, "ORTH-2", "cannot move to e5"},
        {"orthodox", NULL, NULL, -1, "Nf3", 1, "ORTH-2", "a knight jumps"},
        {"orthodox", NULL, NULL, -1, "Ng3", 0, "ORTH-2", "none of white's knights"},
        {"orthodox", NULL, NULL, -1, "Bc4", 0, "ORTH-2", "blocked"},
        {"orthodox", NULL, NULL, -1, "O-O", 0, "ORTH-5", "cannot castle"},
        {"orthodox", NULL, NULL, 1, "e5", 0, "ORTH-1", "white's turn"},
        {"orthodox", NULL, NULL, -1, "resign", 1, "ORTH-8", "resign"},
        {"orthodox", NULL, NULL, -1, "draw", 1, "ORTH-8", "offered"},
        {"orthodox", NULL, NULL, -1, "accept", 0, "ORTH-8", "no draw offer"},
        {"orthodox", NULL, NULL, -1, "claim", 0, "ORTH-9", "three times"},
        {"orthodox", EP_FEN, NULL, -1, "exd6", 1, "ORTH-3", "en passant"},
        {"orthodox", EP_FEN, NULL, -1, "O-O", 1, "ORTH-5", "castling"},
        {"orthodox", EP_FEN, NULL, -1, "Qxd5", 0, "ORTH-2", NULL},
        {"orthodox", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", NULL, -1, "Nf4", 0, "ORTH-6",
         "leave your king in check"},
        {"orthodox", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1", NULL, -1, "Ke2", 0, "ORTH-6",
         "in check"},
        {"orthodox", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", NULL, -1, "e8=Q", 1, "ORTH-2 ORTH-4",
         "becomes a queen"},
        {"orthodox", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", NULL, -1, "e8", 0, "ORTH-4",
         "promote"},
        {"orthodox", NULL, "f3;e5;g4;Qh4#", 0, "e4", 0, "ORTH-7", "checkmate"},
        {"orthodox", NULL, "e4;resign", 0, "d4", 0, "ORTH-8", "resigned"},
    };
    check_cases(cases, ARRAY_LEN(cases));
}

/* MASQ-1..11: setup, masked moves, reveals, battles, bids. */
static void test_why_masques_masq(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"masques", NULL, NULL, 0, "e2e4", 0, "MASQ-1", "arranging"},
        {"masques", NULL, NULL, 0, "place K e1", 1, "MASQ-1", "home ranks"},
        {"masques", NULL, NULL, 0, "standard", 1, "MASQ-1", NULL},
        {"masques", NULL, NULL, 0, "place K e4", 0, "MASQ-1", "home ranks"},
        {"masques", NULL, NULL, 0, "arrange RNBQKBNR/PPPPPPPP", 1, "MASQ-1",
         "16 actions, the first by this rule: each side puts its sixteen"},
        {"masques", NULL, NULL, 0, "arrange RNBQKBNR/PPPPPPP", 0, "MASQ-1", "7 pieces"},
        {"masques", NULL, "standard;standard", -1, "e2e4", 1, "MASQ-2", "moves like a pawn"},
        {"masques", NULL, "standard;standard", -1, "e2e5", 0, "MASQ-2", "like a pawn"},
        {"masques", NULL, "standard;standard", -1, "g1f3", 0, "MASQ-2", NULL},
        {"masques", NULL, "standard;standard", -1, "reveal g1f3", 1, "MASQ-5",
         "reveal your Knight"},
        {"masques", NULL, "standard;standard", -1, "reveal e1e2", 0, "ORTH-2", NULL},
        {"masques", NULL, "standard;standard", 1, "e7e5", 0, "ORTH-1", "white's turn"},
        {"masques", NULL, "standard;standard;e2e4;d7d5", -1, "pass", 1, "MASQ-6", NULL},
        {"masques", NULL, "standard;standard;e2e4;d7d5", -1, "announce check e4", 1,
         "MASQ-6", "mask check"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass", -1, "e4d5", 1,
         "MASQ-8 MASQ-10", "battle"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass;e4d5", -1, "bid 3", 1, "MASQ-10",
         "bids first"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass;e4d5", -1, "call", 0, "MASQ-10",
         "no bid to call"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass;e4d5", -1, "bid 99", 0, "MASQ-11",
         "all-in"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass;e4d5", -1, "bid 41", 1,
         "MASQ-10 MASQ-11", "all-in"},
        {"masques", NULL, "standard;standard;e2e4;d7d5;pass;e4d5;bid 3", -1, "bid 2", 0,
         "MASQ-10", "higher than 3"},
    };
    check_cases(cases, ARRAY_LEN(cases));
}

/* ECHQ-1..12: merging, merged pieces not taken, no undo, the takeover. */
static void test_why_echiquete_echq(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"echiquete", NULL, NULL, -1, "Nf3", 1, "ORTH-2", "knight"},
        {"echiquete", NULL, "e4;d5", -1, "exd5", 1, "ECHQ-1", "merge"},
        {"echiquete", NULL, "e4;d5;exd5", -1, "Qxd5", 0, "ECHQ-4", "cannot be taken"},
        {"echiquete", NULL, "e4;d5;exd5", -1, "d8d5", 0, "ECHQ-4", NULL},
        {"echiquete", NULL, "e4;d5;exd5", -1, "takeover", 1, "ECHQ-12", NULL},
        {"echiquete", NULL, NULL, -1, "takeover", 0, "ECHQ-9", "no merged piece"},
        {"echiquete", NULL, "Nf3;e5;Nxe5=N", -1, "e5f3", 0, "ECHQ-6", "undone"},
        {"echiquete", NULL, "Nf3;e5;Nxe5=N", -1, "Qxe5", 0, "ECHQ-4", NULL},
        {"echiquete", NULL, NULL, -1, "pass", 0, "ECHQ-13", NULL},
    };
    check_cases(cases, ARRAY_LEN(cases));
}

/* AMBI-1..4: naming a square, the opponent's choice, no castling. */
static void test_why_ambigus_ambi(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"ambigus", NULL, NULL, -1, "e4", 1, "AMBI-1 AMBI-2", "only one"},
        {"ambigus", NULL, NULL, -1, "f3", 1, "AMBI-1 AMBI-2", "opponent chooses"},
        {"ambigus", NULL, NULL, -1, "Nf3", 0, "AMBI-1 AMBI-2", "name only the square"},
        {"ambigus", NULL, NULL, -1, "e5", 0, "AMBI-1", "no white piece can go to e5"},
        {"ambigus", NULL, NULL, -1, "O-O", 0, "AMBI-4", "no castling"},
        {"ambigus", NULL, NULL, -1, "choose g1", 0, "AMBI-1 AMBI-2", "names a square now"},
        {"ambigus", NULL, "f3", -1, "Ng1", 1, "AMBI-2", "you choose"},
        {"ambigus", NULL, "f3", -1, "e4", 0, "AMBI-2", NULL},
        {"ambigus", NULL, "f3", 0, "e4", 0, "AMBI-2", "black's turn"},
        {"ambigus", "4k3/8/8/8/8/8/8/4Q1K1 w - - 0 1", NULL, -1, "e8", 1, "AMBI-4",
         "wins at once"},
    };
    check_cases(cases, ARRAY_LEN(cases));
}

/* TILE-2..10: placement, moves in one group, trapped pieces, Kings. */
static void test_why_tile_tile(void **state)
{
    (void)state;
    static const Case cases[] = {
        {"tile", NULL, NULL, -1, "Q@0,0", 1, "TILE-2", "0,0"},
        {"tile", NULL, NULL, -1, "K@0,0", 0, "TILE-2", "placed last"},
        {"tile", NULL, NULL, -1, "Q@1,0", 0, "TILE-2", "first piece"},
        {"tile", NULL, NULL, -1, "pass", 0, "TILE-2", "placement"},
        {"tile", NULL, NULL, -1, "random", 1, "TILE-2", "actions, the first by this rule"},
        {"tile", NULL, "Q@0,0", -1, "Q@5,5", 0, "TILE-2", "touches no piece"},
        {"tile", NULL, "Q@0,0", -1, "Q@1,1", 1, "TILE-2", "touching"},
        {"tile", NULL, "Q@0,0", 0, "Q@1,1", 0, "TILE-2", "black's turn"},
        {"tile", "wK0,0 bK1,0 turn:w", NULL, -1, "K1,0", 1, "TILE-10", "command"},
        {"tile", "wK0,0 bK1,0 turn:w", NULL, -1, "0,0-0,1", 0, "TILE-8", "check"},
        {"tile", "wK0,0 wQ1,0 bK2,0 bR3,0 turn:w", NULL, -1, "0,0-0,1", 1, "TILE-5 TILE-3",
         "one group"},
        {"tile", "wK0,0 wQ1,0 bK2,0 bR3,0 turn:w", NULL, -1, "1,0-1,3", 0, "TILE-6",
         "trapped"},
        {"tile", "wK0,0 wQ1,0 bK2,0 bR3,0 turn:w", NULL, -1, "3,0-3,1", 0, "TILE-10",
         "does not command"},
        {"tile", "wK0,0 wQ1,0 bK2,0 bR3,0 turn:w", NULL, -1, "resign", 1, "TILE-10", NULL},
        {"tile", "wK0,0 wQ1,0 bK2,0 bR3,0 turn:w", NULL, -1, "pass", 0, "TILE-9", NULL},
    };
    check_cases(cases, ARRAY_LEN(cases));
}

/* A game of orthodox chess under the named scripts (files of the repo). */
static Game *house_game(const char *const *files, int n, const char *fen, House **hp,
                        char **texts)
{
    const VariantOps *v = tu_variant("orthodox");
    HouseSource src[4];
    for (int i = 0; i < n; i++) {
        texts[i] = tu_read_file(files[i]);
        assert_non_null(texts[i]);
        src[i] = (HouseSource){files[i], texts[i], strlen(texts[i])};
    }
    Error e = {""};
    HouseLimits lim = {0};
    House *h = house_load(v, 0, src, n, &lim, &e);
    if (!h)
        fail_msg("house_load: %s", e.msg);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.position = fen;
    params_defaults(v, &cfg.params);
    assert_int_equal(house_params(h, &cfg.params, &e), 0);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    if (!g)
        fail_msg("game_new_hooked: %s", e.msg);
    *hp = h;
    return g;
}

/* Issue 22: an action a house rule's veto forbids names the script and its
 * reason, and no rule id; with two scripts, the one that forbade. */
static void test_why_house_rule_veto_names_script(void **state)
{
    (void)state;
    static const char *const files[] = {"scripts/no_queen_before_5.lua",
                                        "scripts/atomic.lua"};
    char *texts[2];
    House *h;
    Game *g = house_game(files, 2, "4k3/8/8/3p4/8/8/4p3/3QK3 w - - 0 1", &h, texts);
    WhyAnswer w;
    Error e = {""};
    assert_int_equal(game_why(g, 0, "Kxe2", &w, &e), 0);
    assert_int_equal(w.legal, 0);
    assert_string_equal(w.script, "scripts/atomic.lua");
    assert_string_equal(w.rules, "");
    assert_string_equal(w.text, "Kxe2 is illegal: scripts/atomic.lua forbids it: a King "
                                "may not capture: the explosion would blow it up");
    assert_int_equal(game_why(g, 0, "Qxd5", &w, &e), 0);
    assert_int_equal(w.legal, 0);
    assert_string_equal(w.script, "scripts/no_queen_before_5.lua");
    assert_non_null(strstr(w.text, "no queen moves before move 5"));
    assert_int_equal(game_why(g, 0, "Kd2", &w, &e), 0);
    assert_int_equal(w.legal, 1);
    assert_string_equal(w.rules, "ORTH-2");
    assert_string_equal(w.script, "");
    StrBuf j = STRBUF_INIT;
    assert_int_equal(game_why(g, 0, "Kxe2", &w, &e), 0);
    game_why_json(&w, &j);
    assert_string_equal(sb_str(&j), "\"legal\":false,\"action\":\"Kxe2\",\"rules\":[],"
                                    "\"script\":\"scripts/atomic.lua\",\"text\":\"Kxe2 is "
                                    "illegal: scripts/atomic.lua forbids it: a King may not "
                                    "capture: the explosion would blow it up\"");
    sb_free(&j);
    game_free(g);
    house_free(h);
    free(texts[0]);
    free(texts[1]);
}

/* The JSON of an answer lists its rule ids. */
static void test_why_json_rules(void **state)
{
    (void)state;
    Game *g = tu_orthodox("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    WhyAnswer w;
    Error e = {""};
    assert_int_equal(game_why(g, 0, "  e8=Q  ", &w, &e), 0);
    StrBuf j = STRBUF_INIT;
    game_why_json(&w, &j);
    assert_string_equal(sb_str(&j), "\"legal\":true,\"action\":\"e8=Q\",\"rules\":[\"ORTH-2\","
                                    "\"ORTH-4\"],\"script\":null,\"text\":\"e8=Q is legal: a "
                                    "pawn steps to e8 and, reaching the last rank, becomes a "
                                    "queen (ORTH-2 ORTH-4)\"");
    sb_free(&j);
    game_free(g);
}

/* Bad input is an error naming what is wrong, never an answer, and the
 * game is left exactly as it was. */
static void test_why_bad_input_is_an_error(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *line, *text, *want;
        int seat;
    } bad[] = {
        {"orthodox", NULL, "", "why what?", 0},
        {"orthodox", NULL, "   ", "why what?", 0},
        {"orthodox", NULL, "zz", "'zz' is not a move", 0},
        {"orthodox", NULL, "e4", "there is no seat 2", 2},
        {"orthodox", NULL, "e4", "there is no seat -1", -1},
        {"masques", "standard;standard", "zz", "not an action here", 0},
        {"ambigus", NULL, "zz", "not a square", 0},
        {"tile", NULL, "zz", "not an action here", 0},
        {"tile", "Q@0,0", "Q@", "not an action here", 1},
    };
    char longer[400];
    memset(longer, 'e', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    for (size_t i = 0; i < ARRAY_LEN(bad) + 1; i++) {
        const char *variant = i < ARRAY_LEN(bad) ? bad[i].variant : "orthodox";
        const char *text = i < ARRAY_LEN(bad) ? bad[i].text : longer;
        const char *want = i < ARRAY_LEN(bad) ? bad[i].want : "too long";
        int seat = i < ARRAY_LEN(bad) ? bad[i].seat : 0;
        Game *g = tu_game(&(TuGame){.variant = tu_variant(variant)});
        play_texts(g, i < ARRAY_LEN(bad) ? bad[i].line : NULL);
        Game *before = game_clone(g);
        WhyAnswer w;
        Error e = {""};
        if (game_why(g, seat, text, &w, &e) != -1)
            fail_msg("%s: why '%s': an answer, not an error: %s", variant, text, w.text);
        if (!e.msg[0] || (want && !strstr(e.msg, want)))
            fail_msg("%s: why '%s': error '%s', want '%s'", variant, text, e.msg,
                     want ? want : "(a message)");
        assert_true(game_same(g, before));
        game_free(before);
        game_free(g);
    }
    /* an ambiguous move names its candidates, as playing it would */
    Game *g = tu_orthodox("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    WhyAnswer w;
    Error e = {""};
    assert_int_equal(game_why(g, 0, "Nd2", &w, &e), -1);
    assert_string_equal(e.msg, "Nd2 is ambiguous: Nbd2 or Nfd2");
    game_free(g);
}

/* Every refusal of a seat's random legal-looking texts names a rule: over
 * random games of each variant, `why` of each legal action of the seat to
 * act is legal with a rule id, and of a move to a square it cannot reach
 * either illegal with a rule id or an error (never legal). */
static void test_why_every_legal_action_has_a_rule(void **state)
{
    (void)state;
    static const char *const variants[] = {"orthodox", "masques", "ambigus", "echiquete",
                                           "tile"};
    for (size_t v = 0; v < ARRAY_LEN(variants); v++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
            Game *g = tu_game(&(TuGame){.variant = tu_variant(variants[v]), .seed = seed});
            Rng rng;
            rng_seed(&rng, seed);
            for (int ply = 0; ply < (TU_SANITIZED ? 30 : 80) && game_to_act(g) >= 0; ply++) {
                int seat = game_to_act(g);
                ActionList l = ACTIONLIST_INIT;
                assert_int_equal(game_legal(g, seat, &l), 0);
                assert_true(l.n > 0);
                for (int i = 0; i < l.n; i++) {
                    StrBuf t = STRBUF_INIT;
                    game_format(g, &l.v[i], FMT_MACHINE, &t);
                    WhyAnswer w;
                    Error e = {""};
                    if (game_why(g, seat, sb_str(&t), &w, &e) || !w.legal || !w.rules[0])
                        fail_msg("%s seed %llu ply %d: why %s: %s", variants[v],
                                 (unsigned long long)seed, ply, sb_str(&t),
                                 e.msg[0] ? e.msg : w.text);
                    sb_free(&t);
                }
                Action a = l.v[rng_below(&rng, (uint32_t)l.n)];
                al_free(&l);
                if (action_is_meta(a.kind))
                    continue;
                Error e = {""};
                assert_int_equal(game_apply(g, &a, &e), 0);
            }
            game_free(g);
        }
    }
}

/* ---- Hidden twins (MASQ-1, MASQ-12) ------------------------------------- */

/* Every answer of `seat` to the battery, one line each ("error: ..." for
 * an error), into out. */
static void battery(const Game *g, int seat, StrBuf *out)
{
    static const char *const texts[] = {
        "e7e5", "d7d5", "e7e6", "d7d6", "reveal g8f6", "reveal e8e7", "reveal d8h4",
        "d8d4", "e8e7", "g8f6", "e2e4", "d2d4", "e1e2", "reveal e1e2", "d1h5", "e4d5",
        "d5e4", "c7c5", "pass", "announce check e4", "announce mate e4", "bid 1", "bid 41",
        "call", "fold", "give e4", "resign", "draw", "accept", "claim", "zz", "standard",
        "place K e1", "place K e8", "e4e5", "f1c4", "b1c3", "reveal b1c3", "O-O", "e1g1",
    };
    for (size_t i = 0; i < ARRAY_LEN(texts); i++) {
        WhyAnswer w;
        Error e = {""};
        if (game_why(g, seat, texts[i], &w, &e))
            sb_printf(out, "%s -> error: %s\n", texts[i], e.msg);
        else
            sb_printf(out, "%s -> %d [%s] {%s} %s\n", texts[i], w.legal, w.rules, w.script,
                      w.text);
    }
}

/* Two Masqués games whose white arrangements differ (the figures of white's
 * pieces permuted) are played alike; black's answers to every question,
 * at every ply, are the same bytes.  White's own answers do differ
 * somewhere (the test would prove nothing if the twins were equal). */
static void test_why_masques_hidden_twins_masq12(void **state)
{
    (void)state;
    static const char *const arrangements[][2] = {
        {"arrange RNBQKBNR/PPPPPPPP", "arrange RNBKQBNR/PPPPPPPP"},
        {"arrange RNBQKBNR/PPPPPPPP", "arrange PPPQKPPP/RNBPPBNR"},
        {"arrange RNBQKBNR/PPPPPPPP", "arrange RNBNKBQR/PPPPPPPP"},
    };
    /* the same texts in both games: moves of white's masked pieces as
     * pawns, black's answers, a battle of two masked pieces */
    static const char *const line[] = {"e2e4", "d7d5", "pass", "e4d5", "bid 3", "call"};
    int white_differs = 0;
    for (size_t k = 0; k < ARRAY_LEN(arrangements); k++) {
        Game *g[2];
        for (int t = 0; t < 2; t++) {
            g[t] = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 5});
            tu_play(g[t], 0, arrangements[k][t]);
        }
        for (size_t ply = 0;; ply++) {
            StrBuf b[2] = {STRBUF_INIT, STRBUF_INIT}, w[2] = {STRBUF_INIT, STRBUF_INIT};
            for (int t = 0; t < 2; t++) {
                battery(g[t], 1, &b[t]);
                battery(g[t], 0, &w[t]);
            }
            if (strcmp(sb_str(&b[0]), sb_str(&b[1]))) {
                const char *la, *lb;
                tu_first_diff(sb_str(&b[0]), sb_str(&b[1]), &la, &lb);
                fail_msg("twins %zu, ply %zu: black's answers differ:\n%.200s\n%.200s", k,
                         ply, la, lb);
            }
            white_differs |= strcmp(sb_str(&w[0]), sb_str(&w[1])) != 0;
            for (int t = 0; t < 2; t++) {
                sb_free(&b[t]);
                sb_free(&w[t]);
            }
            if (ply == 0) {
                for (int t = 0; t < 2; t++)
                    tu_play(g[t], 1, "standard");
                continue;
            }
            if (ply - 1 >= ARRAY_LEN(line) || game_to_act(g[0]) < 0)
                break;
            Error e0 = {""}, e1 = {""};
            int s = game_to_act(g[0]);
            int r0 = game_play(g[0], s, line[ply - 1], &e0);
            int r1 = game_play(g[1], s, line[ply - 1], &e1);
            if (r0 || r1) /* the twins part here (the battle revealed them) */
                break;
        }
        game_free(g[0]);
        game_free(g[1]);
    }
    assert_true(white_differs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_why_orthodox_orth),
        cmocka_unit_test(test_why_masques_masq),
        cmocka_unit_test(test_why_echiquete_echq),
        cmocka_unit_test(test_why_ambigus_ambi),
        cmocka_unit_test(test_why_tile_tile),
        cmocka_unit_test(test_why_house_rule_veto_names_script),
        cmocka_unit_test(test_why_json_rules),
        cmocka_unit_test(test_why_bad_input_is_an_error),
        cmocka_unit_test(test_why_every_legal_action_has_a_rule),
        cmocka_unit_test(test_why_masques_hidden_twins_masq12),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
