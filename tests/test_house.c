/*
 * test_house.c -- house rules in Lua 5.4 (core/lua/house.c, issue 11,
 * docs/HOUSE-RULES.md): each capability on a real game (HOUSE1
 * parameters, HOUSE2 values, HOUSE3 setup, HOUSE4 vetoes, HOUSE5
 * reactions, HOUSE6 inspection on every variant) and the hostile scripts
 * of the sandbox list, each refused quickly with a message naming the
 * script, the process unharmed for the next House.
 *
 * Invariant: every test builds its own Houses and games with small limits
 * (the scripts are the .lua files of tests/house/), so the suite stays fast.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "../core/record/record.h"
#include "support/testutil.h"

#define SMALL_BUDGET 200000L
#define SMALL_MEMORY ((size_t)4 << 20)

/* ---- Helpers ----------------------------------------------------------- */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Load the named files of tests/house/ (NULL-terminated) against v; NULL
 * with e on failure.  The texts live as long as the test (freed by
 * free_texts). */
typedef struct Loaded {
    HouseSource src[8];
    char *text[8];
    int n;
} Loaded;

static House *load_files(Loaded *ld, const VariantOps *v, const char *const *files,
                         Error *e)
{
    memset(ld, 0, sizeof *ld);
    for (; files[ld->n]; ld->n++) {
        char path[256];
        snprintf(path, sizeof path, "tests/house/%s", files[ld->n]);
        ld->text[ld->n] = tu_read_file(path);
        assert_non_null(ld->text[ld->n]);
        ld->src[ld->n].name = files[ld->n];
        ld->src[ld->n].text = ld->text[ld->n];
        ld->src[ld->n].len = strlen(ld->text[ld->n]);
    }
    HouseLimits lim = {.instructions = SMALL_BUDGET, .memory = SMALL_MEMORY};
    return house_load(v, 0, ld->src, ld->n, &lim, e);
}

static void free_texts(Loaded *ld)
{
    for (int i = 0; i < ld->n; i++)
        free(ld->text[i]);
}

static House *load_text(const VariantOps *v, const char *name, const char *text,
                        Error *e)
{
    HouseSource s = {name, text, strlen(text)};
    HouseLimits lim = {.instructions = SMALL_BUDGET, .memory = SMALL_MEMORY};
    return house_load(v, 0, &s, 1, &lim, e);
}

/* A game of v under h (its params, values and hooks). */
static Game *house_game_at(House *h, const VariantOps *v, uint64_t seed,
                           const char *position, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = seed;
    cfg.position = position;
    params_defaults(v, &cfg.params);
    if (house_params(h, &cfg.params, e))
        return NULL;
    cfg.params_set = 1;
    GameHooks k = house_hooks(h);
    return game_new_hooked(&cfg, &k, e);
}

static Game *house_game(House *h, const VariantOps *v, uint64_t seed, Error *e)
{
    return house_game_at(h, v, seed, NULL, e);
}

static void assert_has(const char *text, const char *want)
{
    if (!text || !strstr(text, want))
        fail_msg("expected \"%s\" in: %s", want, text ? text : "(null)");
}

/* A clean House and game in the same process still work after a hostile
 * script: a rule that sets parameters, and a veto that acts. */
static void assert_next_game_clean(void)
{
    Loaded ld;
    Error e;
    const char *files[] = {"params.lua", "noqueen.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    if (!h)
        fail_msg("a clean House failed after a hostile one: %s", e.msg);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    tu_play_line(g, "e4 e5");
    assert_int_equal(game_perft(g, 1), 25); /* 29 less Qe2 Qf3 Qg4 Qh5 */
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* Loading file must fail within two seconds, naming the script and want. */
static void hostile_load(const char *file, const char *want)
{
    Loaded ld;
    Error e;
    const char *files[] = {file, NULL};
    double t0 = now();
    House *h = load_files(&ld, tu_variant("orthodox"), files, &e);
    double dt = now() - t0;
    if (h) {
        house_free(h);
        fail_msg("%s loaded", file);
    }
    assert_has(e.msg, file);
    assert_has(e.msg, want);
    if (dt > 2.0)
        fail_msg("%s took %.2f s to refuse", file, dt);
    free_texts(&ld);
    assert_next_game_clean();
}

/* ---- HOUSE1, HOUSE2: parameters and values ---------------------------- */

static void test_house1_params_by_name_and_house2_values(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"params.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    assert_int_equal(house_count(h), 1);
    assert_string_equal(house_title(h, 0), "No castling, cheap queens");
    assert_string_equal(house_description(h, 0), "Castling is off and a Queen is worth 9.");
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    assert_int_equal(game_param(g, params_index(v, "castling")), 0);
    assert_int_equal(game_param(g, params_index(v, "fivefold")), 0);
    assert_int_equal(game_params(g)->values[FIG_QUEEN], 9);
    assert_int_equal(game_params(g)->values[FIG_KNIGHT], 4);
    /* ORTH-5 with castling off: O-O is refused in a position allowing it. */
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

static void test_house1_tile_enum_by_integer(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"params_tile.lua", NULL};
    const VariantOps *v = tu_variant("tile");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Params p;
    params_defaults(v, &p);
    assert_int_equal(house_params(h, &p, &e), 0);
    StrBuf b = STRBUF_INIT;
    params_diff(v, &p, &b);
    assert_has(sb_str(&b), "pawns=6");
    assert_has(sb_str(&b), "orthogonal_pawns=on");
    sb_free(&b);
    house_free(h);
    free_texts(&ld);
}

static void test_house1_unknown_param_lists_valid_names(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *f1[] = {"bad_param_name.lua", NULL};
    assert_null(load_files(&ld, tu_variant("orthodox"), f1, &e));
    assert_has(e.msg, "bad_param_name.lua:1:");
    assert_has(e.msg, "castle");
    assert_has(e.msg, "castling"); /* the valid names are listed */
    free_texts(&ld);
    const char *f2[] = {"bad_param_type.lua", NULL};
    assert_null(load_files(&ld, tu_variant("orthodox"), f2, &e));
    assert_has(e.msg, "bad_param_type.lua:1:");
    assert_has(e.msg, "params.castling: expected a boolean");
    free_texts(&ld);
}

static void test_house_rule_fields_checked(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *f1[] = {"bad_field.lua", NULL};
    assert_null(load_files(&ld, tu_variant("orthodox"), f1, &e));
    assert_has(e.msg, "bad_field.lua:1: rule: unknown field 'vetoo'");
    free_texts(&ld);
    const char *f2[] = {"wrong_variant.lua", NULL};
    assert_null(load_files(&ld, tu_variant("orthodox"), f2, &e));
    assert_has(e.msg, "wrong_variant.lua:1: rule: this script is not for orthodox");
    free_texts(&ld);
    House *h = load_text(tu_variant("orthodox"), "none.lua", "local x = 1", &e);
    assert_null(h);
    assert_has(e.msg, "none.lua: the script never calls rule{...}");
    h = load_text(tu_variant("orthodox"), "twice.lua",
                  "rule{name='a'}\nrule{name='b'}", &e);
    assert_null(h);
    assert_has(e.msg, "twice.lua:2: rule{} is called a second time");
    h = load_text(tu_variant("orthodox"), "react.lua", "rule{name='a', react=3}", &e);
    assert_null(h);
    assert_has(e.msg, "react.lua:1: rule: react: expected a function, got a number");
}

static void test_house_syntax_error_names_file_line(void **state)
{
    (void)state;
    hostile_load("syntax.lua", "syntax.lua:4:");
}

/* ---- HOUSE3: setup ---------------------------------------------------- */

static void test_house3_fixed_setup(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"setup_fixed.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 3, &e);
    assert_non_null(g);
    char *pos = tu_position(g);
    assert_string_equal(pos, "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    free(pos);
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* Chess960 (HOUSE3): the back rank of a seed is always the same, it is a
 * Chess960 rank (bishops on both colours, King between the Rooks), and
 * the seeds reach several of them. */
static void check_960(const char *fen)
{
    int b = -1, k = -1, r1 = -1, r2 = -1, bishops = 0;
    for (int i = 0; i < 8; i++) {
        char c = fen[i];
        if (c == 'b')
            bishops |= 1 << (i & 1), b = i;
        if (c == 'k')
            k = i;
        if (c == 'r')
            r1 < 0 ? (r1 = i) : (r2 = i);
    }
    (void)b;
    if (bishops != 3 || !(r1 < k && k < r2) || fen[8] != '/')
        fail_msg("not a Chess960 rank: %s", fen);
}

static void test_house3_chess960_seeded(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"chess960.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    char first[8][80];
    int distinct = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        Game *a = house_game(h, v, seed, &e), *b = house_game(h, v, seed, &e);
        assert_non_null(a);
        assert_non_null(b);
        char *pa = tu_position(a), *pb = tu_position(b);
        assert_string_equal(pa, pb); /* same seed, same start */
        check_960(pa);
        str_copy(first[seed - 1], sizeof first[0], pa);
        int seen = 0;
        for (uint64_t k = 0; k + 1 < seed; k++)
            seen |= !strcmp(first[k], pa);
        distinct += !seen;
        assert_int_equal(game_param(a, params_index(v, "castling")), 0);
        free(pa);
        free(pb);
        game_free(a);
        game_free(b);
    }
    assert_true(distinct >= 4);
    house_free(h);
    free_texts(&ld);
}

/* ---- HOUSE4: vetoes ------------------------------------------------------ */

static int queen_at(Game *g, Coord c)
{
    View *w = calloc(1, sizeof *w);
    assert_int_equal(game_view(g, -1, w), 0);
    int q = 0;
    for (int i = 0; i < w->npieces; i++)
        q |= coord_eq(w->pieces[i].at, c) && w->pieces[i].figure == FIG_QUEEN;
    free(w);
    return q;
}

/* Perft of an unhooked game with queen moves left out, counted here. */
static uint64_t perft_no_queen(Game *g, int depth)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    uint64_t n = 0;
    for (int i = 0; i < l.n; i++) {
        if (l.v[i].kind == ACT_MOVE && queen_at(g, l.v[i].from))
            continue;
        if (depth == 1) {
            n++;
            continue;
        }
        Game *c = game_clone(g);
        Error e;
        assert_int_equal(game_apply(c, &l.v[i], &e), 0);
        n += perft_no_queen(c, depth - 1);
        game_free(c);
    }
    al_free(&l);
    return n;
}

static void test_house4_veto_no_queen_in_the_first_four_plies(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"noqueen.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    tu_play_line(g, "e4 e5"); /* ply 3: the queens could move now */
    Game *plain = tu_orthodox(NULL);
    tu_play_line(plain, "e4 e5");
    uint64_t want = perft_no_queen(plain, 2);
    assert_true(want < game_perft(plain, 2)); /* the veto has work to do */
    assert_int_equal(game_perft(g, 2), want);
    assert_int_equal(game_perft(g, 1), perft_no_queen(plain, 1));
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, 0, &l);
    for (int i = 0; i < l.n; i++)
        assert_false(l.v[i].kind == ACT_MOVE && queen_at(g, l.v[i].from));
    al_free(&l);
    Game *before = game_clone(g);
    assert_int_equal(game_play(g, 0, "Qh5", &e), -1);
    assert_has(e.msg, "no queen moves in the first four plies");
    assert_true(game_same(g, before));
    tu_play_line(g, "Nf3 Nc6"); /* ply 5 (move_number() counts plies): the queen may go */
    tu_play(g, 0, "Qe2");
    game_free(before);
    game_free(plain);
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* A veto returning a number is an error (issue 19, point 4): of perft, of
 * the move typed, never a count of 0 or a "forbidden". */
static void test_house4_veto_wrong_type_is_an_error(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"wrong_veto.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    assert_true(game_perft(g, 1) == GAME_PERFT_FAILED);
    assert_has(game_hook_error(g), "wrong_veto.lua:1: veto returned a number");
    assert_int_equal(game_play(g, 0, "e4", &e), -1);
    assert_has(e.msg, "wrong_veto.lua:1: veto returned a number");
    assert_null(strstr(e.msg, "forbidden"));
    assert_has(house_error(h), "house rule wrong_veto.lua, veto:");
    house_clear_error(h);
    assert_null(house_error(h));
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* A veto that loops: the move is refused with the budget error (an error
 * of the veto, issue 19, point 4), quickly, and the game goes on being
 * answerable. */
static void test_house_sandbox_loop_in_veto(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"h_veto_loop.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    double t0 = now();
    assert_int_equal(game_play(g, 0, "e4", &e), -1);
    assert_has(e.msg, "h_veto_loop.lua:1: instruction budget exceeded");
    assert_has(house_error(h), "veto");
    assert_true(now() - t0 < 2.0);
    game_free(g);
    house_free(h);
    free_texts(&ld);
    assert_next_game_clean();
}

/* ---- HOUSE5: reactions ------------------------------------------------- */

static void test_house5_king_of_the_hill_ends_game(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"koth.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game_at(h, v, 1, "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", &e);
    assert_non_null(g);
    tu_play_line(g, "Ke2 Kd8 Ke3 Ke8");
    Status s;
    game_status(g, &s);
    assert_false(s.over);
    tu_play(g, 0, "Ke4");
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u); /* white */
    assert_string_equal(s.reason, "white King reached the hill");
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

static void test_house5_react_error_undoes_action(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"react_error.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    Game *before = game_clone(g);
    assert_int_equal(game_play(g, 0, "e4", &e), -1);
    assert_has(e.msg, "react_error.lua:5: no e4 today");
    assert_has(e.msg, "react");
    assert_true(game_same(g, before));
    tu_play(g, 0, "d4");
    game_free(before);
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* ---- Values kept in the game (issue 20 points 2 and 4) ------------------- */

static long long kept_int(const Game *g, const char *key)
{
    const GameVar *v = game_var(g, 0, key);
    assert_non_null(v);
    assert_int_equal(v->type, GAME_VAR_INT);
    return v->num;
}

/* Issue 20 point 4: game:set keeps a value in the game: undo takes it back,
 * a refused action leaves it, a copy (what a search plays on) has its own,
 * and a saved record rebuilds it on loading. */
static void test_house_kept_values_are_part_of_the_game(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"kept.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = 1;
    params_defaults(v, &cfg.params);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    assert_non_null(g);
    /* start set them */
    assert_int_equal(kept_int(g, "plies"), 0);
    assert_non_null(game_var(g, 0, "flag"));
    assert_int_equal(game_var(g, 0, "flag")->type, GAME_VAR_BOOL);
    assert_int_equal(game_var(g, 0, "word")->len, 5);
    assert_memory_equal(game_var(g, 0, "word")->str, "start", 5);
    assert_null(game_var(g, 1, "plies")); /* another script's keys are its own */
    tu_play_line(g, "e4 e5 Nf3");
    assert_int_equal(kept_int(g, "plies"), 3);
    assert_null(game_var(g, 0, "flag")); /* set to nil: cleared */
    assert_memory_equal(game_var(g, 0, "word")->str, "move", 4);

    /* refused after the reaction set them: nothing kept */
    Game *before = game_clone(g);
    assert_int_equal(game_play(g, 1, "h6", &e), 0);
    assert_int_equal(kept_int(g, "plies"), 4);
    assert_int_equal(game_play(g, 0, "h3", &e), -1);
    assert_has(e.msg, "no h3");
    assert_int_equal(kept_int(g, "plies"), 4);

    /* undo takes them back; the copy taken before is untouched */
    assert_int_equal(game_undo(g, 1, &e), 0);
    assert_int_equal(kept_int(g, "plies"), 3);
    assert_true(game_same(g, before));
    assert_int_equal(game_undo(g, 3, &e), 0);
    assert_int_equal(kept_int(g, "plies"), 0);
    assert_non_null(game_var(g, 0, "flag"));
    assert_int_equal(kept_int(before, "plies"), 3);
    tu_play(before, 1, "d5");
    assert_int_equal(kept_int(before, "plies"), 4);
    assert_int_equal(kept_int(g, "plies"), 0);

    /* a record saves no values: loading replays them */
    StrBuf rec = STRBUF_INIT;
    assert_int_equal(record_save(before, &rec), 0);
    Game *loaded = record_load(sb_str(&rec), "kept.rec", &e);
    assert_non_null(loaded);
    assert_int_equal(kept_int(loaded, "plies"), 4);
    assert_true(game_same(loaded, before));
    sb_free(&rec);
    game_free(loaded);
    game_free(before);
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

/* Issue 20 point 4: a veto may read but not set (it is asked as often as
 * anyone asks), nor a setup (it is not replayed); bad keys and values and
 * too many keys are refused, naming what is wrong, the game unchanged. */
static void test_house_kept_values_refused(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"kept_veto.lua", NULL};
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_files(&ld, v, files, &e);
    assert_non_null(h);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    assert_int_equal(game_play(g, 0, "e4", &e), -1);
    assert_has(e.msg, "kept_veto.lua:5: game:set is only allowed in react and start "
                      "(not in veto");
    game_free(g);
    house_free(h);
    free_texts(&ld);

    static const struct {
        const char *body, *want;
    } cases[] = {
        {"setup = function(game) game:set('a', 1) return nil end",
         "bad.lua:1: setup: there is no position yet"},
        {"react = function(game, action) game:set('a', 1.5) end",
         "game:set: 'a': 1.5 is not an integer"},
        {"react = function(game, action) game:set('a', {}) end", "game:set: 'a': a table"},
        {"react = function(game, action) game:set('a', string.rep('x', 65)) end",
         "game:set: 'a': a string of 65 bytes (at most 64)"},
        {"react = function(game, action) game:set('a b', 1) end",
         "game:set: the key has the byte 0x20 at byte 2"},
        {"react = function(game, action) game:set(string.rep('k', 25), 1) end",
         "game:set: a key of 25 bytes"},
        {"react = function(game, action) game:set('a\\0b', 1) end", "a key with a zero byte"},
        {"react = function(game, action) for i = 1, 33 do game:set('k' .. i, i) end end",
         "game:set: the game keeps at most 32 values (for all its house rules); 'k33' "
         "would be one more"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "rule { name = 'Bad', %s }", cases[i].body);
        h = load_text(v, "bad.lua", text, &e);
        assert_non_null(h);
        g = house_game(h, v, 1, &e);
        if (!g) { /* the setup's case */
            assert_has(e.msg, cases[i].want);
            house_free(h);
            continue;
        }
        Game *before = game_clone(g);
        assert_int_equal(game_play(g, 0, "e4", &e), -1);
        assert_has(e.msg, cases[i].want);
        assert_true(game_same(g, before));
        game_free(before);
        game_free(g);
        house_free(h);
    }
}

/* Plies of the three-check test game: the rook cycle with its checks
 * (Ra8+, Rh1+) twice, shuffles between, and a last Ra8+. */
static const char *const CHECK_CYCLE[] = {"Ra8+", "Ke7", "Ra1", "Rh1+",
                                          "Ke2", "Rh8", "Ke1", "Ke8"};
static const char *const QUIET_CYCLE[] = {"Ra2", "Rh7", "Ra1", "Rh8"};

/* Issue 20 point 2: scripts/three_check.lua counts the checks in the game
 * (game:set) and reads only the last history entry at each ply, so a long
 * record loads in linear time; it ends a game exactly where the old
 * script, which counted the whole history at every ply, did: at the third
 * check of a side (counted here from the record texts).  `quiet` quiet
 * plies between the checks. */
static void three_check_long(const char *script, int quiet)
{
    const VariantOps *v = tu_variant("orthodox");
    char *text = tu_read_file(script);
    assert_non_null(text);
    HouseSource src = {"three_check.lua", text, strlen(text)};
    Error e;
    /* A reaction's work per ply must not grow with the game: a budget of
     * 20,000 instructions a call holds for the whole game (recounting the
     * history at every ply exceeds it within a few thousand plies). */
    HouseLimits lim = {.instructions = 20000};
    House *h = house_load(v, 0, &src, 1, &lim, &e);
    assert_non_null(h);
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = 1;
    cfg.position = "4k2r/8/8/8/8/8/8/R3K3 w - - 0 1";
    params_defaults(v, &cfg.params);
    assert_int_equal(params_set(v, &cfg.params, "fivefold=off", &e), 0);
    assert_int_equal(params_set(v, &cfg.params, "seventy_five_move=off", &e), 0);
    cfg.params_set = 1;
    cfg.scripts = house_scripts(h);
    cfg.nscripts = house_count(h);
    GameHooks k = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &k, &e);
    assert_non_null(g);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 8; i++)
            tu_play(g, i % 2, CHECK_CYCLE[i]);
        for (int i = 0; i < quiet; i++)
            tu_play(g, i % 2, QUIET_CYCLE[i % 4]);
    }
    tu_assert_going_on(g);
    tu_play(g, 0, "Ra8+");
    tu_assert_over(g, "1-0", "white gave check three times");
    int checks[2] = {0, 0}, n = game_history_len(g);
    for (int i = 0; i < n; i++) {
        const char *t = game_history(g, i)->text;
        if (t[strlen(t) - 1] == '+')
            checks[game_history(g, i)->action.seat]++;
    }
    assert_int_equal(checks[0], 3);
    assert_int_equal(checks[1], 2);
    StrBuf rec = STRBUF_INIT;
    assert_int_equal(record_save(g, &rec), 0);
    Game *loaded = record_load(sb_str(&rec), "long.rec", &e);
    if (!loaded)
        fail_msg("%s", e.msg);
    assert_int_equal(game_history_len(loaded), n);
    assert_true(game_same(loaded, g));
    tu_assert_over(loaded, "1-0", "white gave check three times");
    sb_free(&rec);
    game_free(loaded);
    game_free(g);
    house_free(h);
    free(text);
}

static void test_house5_three_check_long_record(void **state)
{
    (void)state;
    three_check_long("scripts/three_check.lua", 10000); /* 20,017 plies */
}

/* The same game, short, under the old script (a copy kept in tests/house/):
 * the same end at the same ply. */
static void test_house5_three_check_as_before(void **state)
{
    (void)state;
    three_check_long("tests/house/three_check_history.lua", 100);
}

/* ---- HOUSE6: inspection on every variant ------------------------------- */

/* Play text by the seat to act under inspect.lua; return the log. */
static void inspect_one(const char *variant, const char *text, const char *const *want)
{
    Loaded ld;
    Error e;
    const char *files[] = {"inspect.lua", NULL};
    const VariantOps *v = tu_variant(variant);
    House *h = load_files(&ld, v, files, &e);
    if (!h)
        fail_msg("%s: %s", variant, e.msg);
    Game *g = house_game(h, v, 1, &e);
    assert_non_null(g);
    tu_play(g, game_to_act(g), text);
    const char *log = house_log(h);
    char *pos = tu_position(g);
    char line[2200];
    snprintf(line, sizeof line, "position\t%s\n", pos);
    assert_has(log, line);
    snprintf(line, sizeof line, "variant\t%s\t", variant);
    assert_has(log, line);
    for (int i = 0; want[i]; i++)
        assert_has(log, want[i]);
    free(pos);
    game_free(g);
    house_free(h);
    free_texts(&ld);
}

static void test_house6_inspect_orthodox(void **state)
{
    (void)state;
    const char *want[] = {"variant\torthodox\t2\t2\n",
                          "action\tmove\twhite\te2\te4\tnil\te2e4\n",
                          "turn\tblack\tblack\t2\n",
                          "history\t1\te4\te2e4\twhite\tmove\n",
                          "pieces\t32\n", "material\t40\n",
                          "check\tfalse\tfalse\n", "at\te4\twhite\tP\tnil\n", NULL};
    inspect_one("orthodox", "e4", want);
}

static void test_house6_inspect_ambigus(void **state)
{
    (void)state;
    const char *want[] = {"variant\tambigus\t", "pieces\t32\n", "history\t1\t", NULL};
    inspect_one("ambigus", "a3", want);
}

static void test_house6_inspect_echiquete(void **state)
{
    (void)state;
    const char *want[] = {"action\tmove\twhite\tb1\tc3\tnil\tb1c3\n",
                          "at\tc3\twhite\tN\tnil\n", NULL};
    inspect_one("echiquete", "b1c3", want);
}

/* Tile (TILE-1): the plane's squares are "x,y". */
static void test_house6_inspect_tile_plane_squares(void **state)
{
    (void)state;
    const char *want[] = {"action\tplace\twhite\tnil\t0,0\tQ\t", "pieces\t1\n",
                          "at\t0,0\twhite\tQ\tnil\n", NULL};
    inspect_one("tile", "Q@0,0", want);
}

/* Masqués: the rule script sees the real figure of a masked piece, which
 * the enemy's view does not show (MASQ hidden figures). */
static void test_house6_inspect_masques_masked_figure(void **state)
{
    (void)state;
    const char *want[] = {"action\tplace\twhite\tnil\ta1\tK\t",
                          "at\ta1\twhite\tK\ttrue\n", "masked\ta1\twhite\tK\n", NULL};
    inspect_one("masques", "place K a1", want);
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 1});
    tu_play(g, 0, "place K a1");
    View *w = calloc(1, sizeof *w);
    assert_int_equal(game_view(g, 1, w), 0);
    for (int i = 0; i < w->npieces; i++) /* black cannot know it (MASQ-2) */
        assert_false(coord_eq(w->pieces[i].at, coord_make(0, 0)) &&
                     w->pieces[i].figure == FIG_KING);
    free(w);
    game_free(g);
}

/* ---- The sandbox: hostile scripts ------------------------------------- */

static void test_house_sandbox_infinite_loop(void **state)
{
    (void)state;
    hostile_load("h_loop.lua", "h_loop.lua:2: instruction budget exceeded");
}

static void test_house_sandbox_loop_in_pcall(void **state)
{
    (void)state;
    hostile_load("h_loop_pcall.lua", "instruction budget exceeded");
}

static void test_house_sandbox_loop_in_coroutine(void **state)
{
    (void)state;
    hostile_load("h_loop_coroutine.lua", "instruction budget exceeded");
}

static void test_house_sandbox_loop_in_close_handler(void **state)
{
    (void)state;
    hostile_load("h_loop_close.lua", "instruction budget exceeded");
}

static void test_house_sandbox_loop_in_gc_handler_refused(void **state)
{
    (void)state;
    hostile_load("h_loop_gc.lua", "h_loop_gc.lua:2: setmetatable: __gc metamethods are "
                                  "not allowed");
}

static void test_house_sandbox_loop_in_error_handler(void **state)
{
    (void)state;
    hostile_load("h_loop_xpcall.lua", "instruction budget exceeded");
}

static void test_house_sandbox_memory_rep(void **state)
{
    (void)state;
    hostile_load("h_mem_rep.lua", "h_mem_rep.lua:2: string.rep:");
}

/* Doubling a string: stopped at 1 MiB, the longest string (issue 20
 * point 2), before the memory cap. */
static void test_house_sandbox_memory_concat(void **state)
{
    (void)state;
    hostile_load("h_mem_concat.lua", "string longer than 1 MiB refused");
}

static void test_house_sandbox_memory_table(void **state)
{
    (void)state;
    hostile_load("h_mem_table.lua", "memory cap exceeded");
}

static void test_house_sandbox_deep_recursion(void **state)
{
    (void)state;
    hostile_load("h_recursion.lua", "memory cap exceeded");
}

static void test_house_sandbox_pattern_bomb(void **state)
{
    (void)state;
    hostile_load("h_pattern.lua", "h_pattern.lua:3: pattern 'a*a*a*a*a*a*b' is too costly");
}

/* string.rep("", 2^62) and table.move over 2^40 keys loop in C. */
static void test_house_sandbox_c_loops(void **state)
{
    (void)state;
    hostile_load("h_empty_rep.lua", "instruction budget exceeded");
}

/* Every name the sandbox leaves out is unreachable: an error naming the
 * script and the line. */
static void test_house_sandbox_forbidden_names(void **state)
{
    (void)state;
    static const char *const tries[] = {
        "io.open('/etc/passwd')", "os.exit(1)", "os.time()", "package.loadlib('x','y')",
        "require('io')", "debug.sethook()", "load('return 1')()", "loadstring('x')",
        "dofile('/etc/passwd')", "loadfile('/etc/passwd')", "collectgarbage('stop')",
        "string.dump(print)", "(''):dump()", "getmetatable('').__index.dump(print)",
        "rawget(_G, 'io').open('x')", NULL};
    for (int i = 0; tries[i]; i++) {
        char text[200];
        snprintf(text, sizeof text, "rule{name='x'}\nlocal _ = %s\n", tries[i]);
        Error e;
        House *h = load_text(tu_variant("orthodox"), "reach.lua", text, &e);
        if (h) {
            house_free(h);
            fail_msg("reached: %s", tries[i]);
        }
        assert_has(e.msg, "reach.lua:2:");
    }
    assert_next_game_clean();
}

static void test_house_sandbox_binary_chunk_refused(void **state)
{
    (void)state;
    static const char bin[] = "\x1bLua\x54\x00\x19\x93\r\n\x1a\n";
    HouseSource s = {"bin.luac", bin, sizeof bin - 1};
    Error e;
    HouseLimits lim = {.instructions = SMALL_BUDGET, .memory = SMALL_MEMORY};
    assert_null(house_load(tu_variant("orthodox"), 0, &s, 1, &lim, &e));
    assert_has(e.msg, "bin.luac");
    assert_has(e.msg, "binary chunk");
}

/* Poisoning the string metatable or _G reaches neither a later script of
 * the same House nor a later House. */
static void test_house_sandbox_poison_string_and_G(void **state)
{
    (void)state;
    Loaded ld;
    Error e;
    const char *files[] = {"h_poison.lua", "h_clean.lua", NULL};
    House *h = load_files(&ld, tu_variant("orthodox"), files, &e);
    if (!h)
        fail_msg("%s", e.msg);
    house_free(h);
    free_texts(&ld);
    const char *again[] = {"h_clean.lua", NULL};
    h = load_files(&ld, tu_variant("orthodox"), again, &e);
    assert_non_null(h);
    house_free(h);
    free_texts(&ld);
    assert_next_game_clean();
}

/* math.random is the game's: randomseed is refused, and random outside a
 * hook says where it may be used. */
static void test_house_sandbox_random_is_the_games(void **state)
{
    (void)state;
    Error e;
    House *h = load_text(tu_variant("orthodox"), "seed.lua",
                         "rule{name='x'}\nmath.randomseed(1)\n", &e);
    assert_null(h);
    assert_has(e.msg, "seed.lua:2: math.randomseed is not available");
    h = load_text(tu_variant("orthodox"), "rand.lua", "rule{name='x'}\nmath.random()\n", &e);
    assert_null(h);
    assert_has(e.msg, "rand.lua:2: math.random is the game's generator");
}

/* print goes to the House's log, nowhere else. */
static void test_house_print_goes_to_log(void **state)
{
    (void)state;
    Error e;
    House *h = load_text(tu_variant("orthodox"), "p.lua",
                         "rule{name='x'}\nprint('hello', 1, nil)\n", &e);
    assert_non_null(h);
    assert_string_equal(house_log(h), "hello\t1\tnil\n");
    house_free(h);
}

/* HOUSE-6 inspection, the phase: game:phase() names where each variant's
 * game stands after each action ("over" once it ended). */
static void test_house6_phase_every_variant(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *position, *line, *want;
    } cases[] = {
        {"orthodox", NULL, "f3 e5 g4 Qh4#", "play\nplay\nplay\nover\n"},
        {"ambigus", NULL, "f3", "choose\n"},
        {"masques", NULL, "standard", "setup\n"},
        {"masques", "4k~3/3p~4/8/8/8/8/8/3RK~3 w - - 0 1", "d1d7", "battle\n"},
        {"echiquete", NULL, "e4 d5", "phase1\nphase1\n"},
        {"tile", NULL, "Q@0,0", "placement\n"},
        {"tile", "wK0,0 wR1,0 bN2,0 bK3,0 turn:w", "0,0-0,1", "play\n"},
    };
    static const char script[] =
        "rule { name = 'phase', react = function(game, action) print(game:phase()) end }\n";
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const VariantOps *v = tu_variant(cases[i].variant);
        Error e;
        House *h = load_text(v, "phase.lua", script, &e);
        assert_non_null(h);
        Game *g = house_game_at(h, v, 5, cases[i].position, &e);
        if (!g)
            fail_msg("%s: %s", cases[i].variant, e.msg);
        if (!strcmp(cases[i].variant, "masques") && !cases[i].position)
            tu_play(g, 0, cases[i].line);
        else
            tu_play_line(g, cases[i].line);
        if (strcmp(house_log(h), cases[i].want))
            fail_msg("%s after %s: phases\n%s, not\n%s", cases[i].variant, cases[i].line,
                     house_log(h), cases[i].want);
        game_free(g);
        house_free(h);
    }
}

/* ---- Issue 20 point 8: what an outside oracle found ------------------------ */

/* A reaction that ends the game and then edits the position keeps the end
 * it declared, even when the action itself was a mate the edit undoes
 * (issue 20 point 8). */
static void test_issue20_p8_finish_then_edit_keeps_the_end(void **state)
{
    (void)state;
    Error e;
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_text(v, "finish_edit.lua",
                         "rule{name='x', react=function(game, action)\n"
                         "  if action.to == 'a8' then\n"
                         "    game:finish('white', 'the rook reached a8'); game:remove('a8')\n"
                         "  end\n"
                         "end}\n", &e);
    assert_non_null(h);
    Game *g = house_game_at(h, v, 1, "7k/8/6K1/8/8/8/7P/R7 w - - 0 1", &e);
    assert_non_null(g);
    tu_play(g, 0, "Ra8");
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u);
    assert_string_equal(s.reason, "the rook reached a8");
    assert_int_equal(game_to_act(g), -1);
    game_free(g);
    house_free(h);

    /* The shipped atomic captures: Qxc7 mates and blows up Black's King
     * on d7; the explosion takes the mate away, the win stays. */
    char *text = tu_read_file("scripts/atomic.lua");
    assert_non_null(text);
    h = load_text(v, "atomic.lua", text, &e);
    assert_non_null(h);
    g = house_game_at(h, v, 1,
                      "rn2q1r1/1ppknp2/4p1p1/p2p3p/3P1B1P/NPQ5/P1P3P1/RN2KB1R w Q - 7 15", &e);
    assert_non_null(g);
    tu_play(g, 0, "Qxc7");
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u);
    assert_has(s.reason, "black King on d7 was caught in the explosion on c7");
    game_free(g);
    house_free(h);
    free(text);
}

static void sum_divide(void *ud, const char *move, uint64_t n)
{
    (void)move;
    *(uint64_t *)ud += n;
}

/* perft and perft --divide through a reaction agree, a game-ending move
 * counting 1 at the last ply (issue 20 point 8): King of the Hill, where
 * Kd4 and Ke4 win at once. */
static void test_issue20_p8_divide_counts_game_ending_moves(void **state)
{
    (void)state;
    Error e;
    const VariantOps *v = tu_variant("orthodox");
    const char *fen = "8/2p5/2k5/8/4n3/3K4/2P5/8 w - - 0 1";
    char *text = tu_read_file("scripts/king_of_the_hill.lua");
    assert_non_null(text);
    House *h = load_text(v, "king_of_the_hill.lua", text, &e);
    assert_non_null(h);
    Game *g = house_game_at(h, v, 1, fen, &e);
    assert_non_null(g);
    Game *plain = tu_orthodox(fen);
    /* depth 1: the hill changes nothing yet (7 moves, as without it) */
    assert_int_equal(game_perft(plain, 1), 7);
    assert_int_equal(game_perft(g, 1), 7);
    for (int depth = 1; depth <= 3; depth++) {
        uint64_t sum = 0;
        uint64_t total = game_perft_divide(g, depth, sum_divide, &sum);
        assert_int_equal(total, game_perft(g, depth));
        assert_int_equal(sum, total);
    }
    /* depth 2: after Kd4 or Ke4 (won) nothing is counted below */
    assert_true(game_perft(g, 2) < game_perft(plain, 2));
    game_free(plain);
    game_free(g);
    house_free(h);
    free(text);
}

/* A reaction that does nothing changes no count: perft through whole games
 * counts what the engine's perft counts (no automatic draw inside the
 * tree: here dead material after Rd1 Nxd1, and the 75-move rule after one
 * quiet move), and a root that is already drawn counts 0 in both
 * (issue 20 point 8). */
static void test_issue20_p8_perft_with_a_reaction_is_the_plain_perft(void **state)
{
    (void)state;
    Error e;
    const VariantOps *v = tu_variant("orthodox");
    House *h = load_text(v, "empty.lua",
                         "rule{name='x', react=function(game, action) end}\n", &e);
    assert_non_null(h);
    const struct {
        const char *fen;
        int depth;
    } cases[] = {
        {"8/8/2k5/8/8/8/1n6/K6R w - - 0 1", 3},
        {"4k3/8/8/8/8/8/8/R3K3 w - - 149 80", 2},
        {"4k3/8/8/8/8/8/8/R3K3 w - - 150 80", 2}, /* drawn at the root */
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        Game *g = house_game_at(h, v, 1, cases[i].fen, &e);
        assert_non_null(g);
        Game *plain = tu_orthodox(cases[i].fen);
        for (int d = 0; d <= cases[i].depth; d++) {
            uint64_t want = game_perft(plain, d), sum = 0;
            assert_int_equal(game_perft_generic(plain, d), want);
            assert_int_equal(game_perft(g, d), want);
            if (d > 0) {
                assert_int_equal(game_perft_divide(g, d, sum_divide, &sum), want);
                assert_int_equal(sum, want);
            }
        }
        game_free(plain);
        game_free(g);
    }
    Game *plain = tu_orthodox("4k3/8/8/8/8/8/8/R3K3 w - - 149 80");
    assert_int_equal(game_perft(plain, 2), 68); /* 15 rook and king moves, then Black's */
    game_free(plain);
    plain = tu_orthodox("4k3/8/8/8/8/8/8/R3K3 w - - 150 80");
    assert_int_equal(game_perft(plain, 0), 1);
    assert_int_equal(game_perft(plain, 1), 0); /* over: the 75-move rule */
    game_free(plain);
    house_free(h);
}

/* With a reaction, perft asks the veto once per candidate of each node:
 * 20 + 400 + 8902 times for depth 3 from the start (issue 20 point 8). */
static long veto_calls;

static int veto_count(void *ud, const Game *g, const void *st, int ply, const Action *a,
                      char *why, size_t n)
{
    (void)ud, (void)g, (void)st, (void)ply, (void)a, (void)why, (void)n;
    veto_calls++;
    return 0;
}

static int react_none(void *ud, Game *g, const Action *a, Error *e)
{
    (void)ud, (void)g, (void)a, (void)e;
    return 0;
}

static void test_issue20_p8_perft_asks_the_veto_once_per_candidate(void **state)
{
    (void)state;
    Error e;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("orthodox");
    GameHooks k = {.veto = veto_count, .react = react_none};
    Game *g = game_new_hooked(&cfg, &k, &e);
    assert_non_null(g);
    veto_calls = 0;
    assert_int_equal(game_perft(g, 3), 8902);
    assert_int_equal(veto_calls, 20 + 400 + 8902);
    veto_calls = 0;
    assert_int_equal(game_perft_divide(g, 3, NULL, NULL), 8902);
    assert_int_equal(veto_calls, 20 + 400 + 8902);
    game_free(g);
}

/* A setup whose position the variant refuses is the script's error, named
 * (issue 20 point 8): a fixed string and a function's. */
static void test_issue20_p8_refused_setup_names_the_script(void **state)
{
    (void)state;
    Error e;
    const VariantOps *v = tu_variant("orthodox");
    const char *texts[] = {"rule{name='x', setup='8/8/8/8/8/8/8/8 w - - 0 1'}\n",
                           "rule{name='x', setup=function(game) return 'xyz' end}\n"};
    const char *why[] = {"White has no King", "FEN has 1 field"};
    for (int i = 0; i < 2; i++) {
        House *h = load_text(v, "nokings.lua", texts[i], &e);
        assert_non_null(h);
        e.msg[0] = '\0';
        assert_null(house_game(h, v, 1, &e));
        assert_has(e.msg, "house rule nokings.lua, setup: the position it gives is "
                          "refused: ");
        assert_has(e.msg, why[i]);
        assert_int_equal(house_setup_script(h), 0);
        house_free(h);
    }
}

/* The start hook: a rule that would end the game on its start position
 * ends it there (issue 20 point 8).  King of the Hill with White's King on
 * d4: over before any move, perft 0 below the root, the seats told; a
 * King off the hill: the game goes on.  A start may not edit. */
static void test_issue20_p8_start_ends_a_game_won_at_the_start(void **state)
{
    (void)state;
    Error e;
    const VariantOps *v = tu_variant("orthodox");
    char *text = tu_read_file("scripts/king_of_the_hill.lua");
    assert_non_null(text);
    House *h = load_text(v, "king_of_the_hill.lua", text, &e);
    assert_non_null(h);
    Game *g = house_game_at(h, v, 1, "8/2p5/2k5/8/3K4/8/2P5/8 w - - 0 1", &e);
    assert_non_null(g);
    Status s;
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 1u);
    assert_string_equal(s.reason, "white's King stands on the hill");
    assert_int_equal(game_perft(g, 1), 0);
    assert_int_equal(game_perft(g, 0), 1);
    assert_int_equal(game_message_count(g), 1);
    assert_has(game_message(g, 0, 1), "game over: 1-0");
    game_free(g);
    g = house_game_at(h, v, 1, "8/2p5/8/3k4/8/8/2P5/4K3 b - - 0 1", &e); /* Black's */
    assert_non_null(g);
    game_status(g, &s);
    assert_true(s.over);
    assert_int_equal(s.winners, 2u);
    game_free(g);
    g = house_game_at(h, v, 1, "8/2p5/2k5/8/4n3/3K4/2P5/8 w - - 0 1", &e);
    assert_non_null(g);
    game_status(g, &s);
    assert_false(s.over);
    assert_int_equal(game_perft(g, 1), 7);
    game_free(g);
    house_free(h);
    free(text);

    h = load_text(v, "start_edit.lua",
                  "rule{name='x', start=function(game) game:remove('e2') end}\n", &e);
    assert_non_null(h);
    assert_null(house_game(h, v, 1, &e));
    assert_has(e.msg, "house rule start_edit.lua, start: ");
    assert_has(e.msg, "game:remove is only allowed in react");
    house_free(h);
}

/* Memory that runs out while perft plays through a reaction gives no
 * count, never a smaller one: each allocation failing in turn, perft and
 * perft --divide answer the true count or GAME_PERFT_NOMEM (issue 20
 * point 8: apply_known's failure is not a refusal). */
static void test_issue20_p8_perft_through_a_reaction_out_of_memory(void **state)
{
    (void)state;
    Error e;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = tu_variant("orthodox");
    cfg.position = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    GameHooks k = {.react = react_none};
    Game *g = game_new_hooked(&cfg, &k, &e);
    assert_non_null(g);
    const uint64_t want = game_perft(g, 2);
    assert_true(want > 0 && want < GAME_PERFT_FAILED);
    int divide = 0;
    for (long n = 1;; n++) {
        cv_alloc_fail(n, 0);
        uint64_t got = divide ? game_perft_divide(g, 2, NULL, NULL) : game_perft(g, 2);
        long made = cv_alloc_count();
        cv_alloc_fail(0, 0);
        if (got != want && got != GAME_PERFT_NOMEM)
            fail_msg("perft%s with allocation %ld failing: %llu (want %llu or no count)",
                     divide ? " --divide" : "", n, (unsigned long long)got,
                     (unsigned long long)want);
        if (made < n) { /* the n-th allocation was never made: all tried */
            if (divide)
                break;
            divide = 1;
            n = 0;
        }
    }
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue20_p8_finish_then_edit_keeps_the_end),
        cmocka_unit_test(test_issue20_p8_divide_counts_game_ending_moves),
        cmocka_unit_test(test_issue20_p8_perft_with_a_reaction_is_the_plain_perft),
        cmocka_unit_test(test_issue20_p8_perft_asks_the_veto_once_per_candidate),
        cmocka_unit_test(test_issue20_p8_refused_setup_names_the_script),
        cmocka_unit_test(test_issue20_p8_start_ends_a_game_won_at_the_start),
        cmocka_unit_test(test_issue20_p8_perft_through_a_reaction_out_of_memory),
        cmocka_unit_test(test_house1_params_by_name_and_house2_values),
        cmocka_unit_test(test_house1_tile_enum_by_integer),
        cmocka_unit_test(test_house1_unknown_param_lists_valid_names),
        cmocka_unit_test(test_house_rule_fields_checked),
        cmocka_unit_test(test_house_syntax_error_names_file_line),
        cmocka_unit_test(test_house3_fixed_setup),
        cmocka_unit_test(test_house3_chess960_seeded),
        cmocka_unit_test(test_house4_veto_no_queen_in_the_first_four_plies),
        cmocka_unit_test(test_house4_veto_wrong_type_is_an_error),
        cmocka_unit_test(test_house_sandbox_loop_in_veto),
        cmocka_unit_test(test_house5_king_of_the_hill_ends_game),
        cmocka_unit_test(test_house5_react_error_undoes_action),
        cmocka_unit_test(test_house_kept_values_are_part_of_the_game),
        cmocka_unit_test(test_house_kept_values_refused),
        cmocka_unit_test(test_house5_three_check_long_record),
        cmocka_unit_test(test_house5_three_check_as_before),
        cmocka_unit_test(test_house6_inspect_orthodox),
        cmocka_unit_test(test_house6_inspect_ambigus),
        cmocka_unit_test(test_house6_inspect_echiquete),
        cmocka_unit_test(test_house6_inspect_tile_plane_squares),
        cmocka_unit_test(test_house6_inspect_masques_masked_figure),
        cmocka_unit_test(test_house_sandbox_infinite_loop),
        cmocka_unit_test(test_house_sandbox_loop_in_pcall),
        cmocka_unit_test(test_house_sandbox_loop_in_coroutine),
        cmocka_unit_test(test_house_sandbox_loop_in_close_handler),
        cmocka_unit_test(test_house_sandbox_loop_in_gc_handler_refused),
        cmocka_unit_test(test_house_sandbox_loop_in_error_handler),
        cmocka_unit_test(test_house_sandbox_memory_rep),
        cmocka_unit_test(test_house_sandbox_memory_concat),
        cmocka_unit_test(test_house_sandbox_memory_table),
        cmocka_unit_test(test_house_sandbox_deep_recursion),
        cmocka_unit_test(test_house_sandbox_pattern_bomb),
        cmocka_unit_test(test_house_sandbox_c_loops),
        cmocka_unit_test(test_house_sandbox_forbidden_names),
        cmocka_unit_test(test_house_sandbox_binary_chunk_refused),
        cmocka_unit_test(test_house_sandbox_poison_string_and_G),
        cmocka_unit_test(test_house_sandbox_random_is_the_games),
        cmocka_unit_test(test_house_print_goes_to_log),
        cmocka_unit_test(test_house6_phase_every_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
