/*
 * test_oom.c -- running out of memory is an error like any other (issue 8,
 * "Allocation failures"; SQLite's OOM tests are the model).
 *
 * cv_alloc_fail(N) makes the N-th allocation from now fail (and, in the
 * persistent mode, every one after it).  Each operation of the API is run
 * with N = 1, 2, ... until it makes fewer than N allocations; every run must
 * either succeed exactly as without the failure, or fail with a message
 * while leaving the game exactly as it was (game_same).  Nothing may crash,
 * and under AddressSanitizer nothing may leak (LeakSanitizer checks at the
 * end of the run).
 *
 * Invariant: the reference results and the "before" copies are made with
 * the failures switched off; only the operation under test runs with them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli/cli.h"
#include "../core/game.h"
#include "../core/record/record.h"
#include "support/testutil.h"

/* One game and the texts played into it, one operation after another. */
typedef struct Script {
    const char *variant;
    const char *position; /* NULL: the start */
    const char *params;
    int sides;             /* 0: the variant's default */
    const char *texts[12]; /* played by the seat to act, in order */
} Script;

static const Script SCRIPTS[] = {
    {"orthodox", NULL, NULL, 0, {"e4", "draw", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6",
                                 "O-O", "resign"}},
    {"orthodox", "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL, 0,
     {"bxa8=Q+", "Kd7", "O-O", "Kc7", "Qxh8"}},
    {"masques", NULL, "allin=6", 0, {"arrange RNBQKBNR/PPPPPPPP", "random", "d2d4", "e7e5",
                                     "pass", "d4e5", "bid 2", "call"}},
    {"ambigus", NULL, "clock=on", 0, {"e4", "d5", "Nf3", "keep", "c6", "choose Nb8", "exd5"}},
    /* ECHQ-1, 6, 9: a merging capture, a merged piece moved, the takeover
     * (out of turn: played by the seat that may, see op_play) */
    {"echiquete", NULL, NULL, 0, {"e4", "d5", "exd5", "Nf6", "*d6", "takeover", "d6c7p"}},
    /* Tile, three sides: placements by hand (TILE-2, a typed form too),
     * `random` for the rest of the table, moves, a capture (TILE-4) */
    {"tile", NULL, NULL, 3, {"P@0,0", "P@1,0", "place N -1,0", "Q@0,1", "random",
                             "-1,-2--2,-2", "3,0-1,-1"}},
    /* Tile, three sides from a position: black's lone King is trapped, so
     * black passes (TILE-6, TILE-9); red's King takes white's and red
     * commands white's pieces (TILE-10); black passes again; red's Queen
     * takes black's King and red wins alone */
    {"tile", "rK-3,0 wK-2,0 wR-1,0 bK0,0 wN1,0 rQ2,0 turn:b", NULL, 3,
     {"pass", "Kx-2,0", "pass", "Q2,0x0,0"}},
};

static Game *start(const Script *sc)
{
    return tu_game(&(TuGame){.variant = tu_variant(sc->variant), .seed = 5,
                             .nsides = sc->sides, .position = sc->position,
                             .params = sc->params});
}

/* Run op on a copy of g with the n-th allocation failing; compare with the
 * result of the same op without failures.  1 while n was reached. */
typedef int (*Op)(Game *g, const void *arg, Error *e);

static int check_op(const Game *g, Op op, const void *arg, long n, int persist,
                    const char *what)
{
    Error e;
    Game *ref = game_clone(g), *c = game_clone(g);
    assert_non_null(ref);
    assert_non_null(c);
    int want = op(ref, arg, &e);
    e.msg[0] = '\0';
    cv_alloc_fail(n, persist);
    int got = op(c, arg, &e);
    long made = cv_alloc_count();
    cv_alloc_fail(0, 0);
    if (got == want) {
        if (!game_same(c, ref))
            fail_msg("%s with allocation %ld failing: succeeded but differs", what, n);
    } else {
        if (got == 0)
            fail_msg("%s with allocation %ld failing: succeeded where it fails", what, n);
        if (!strstr(e.msg, "out of memory"))
            fail_msg("%s with allocation %ld failing: message \"%s\"", what, n, e.msg);
        if (!game_same(c, g))
            fail_msg("%s with allocation %ld failing: the game changed", what, n);
        /* it still works once memory is back */
        if (op(c, arg, &e) != want || !game_same(c, ref))
            fail_msg("%s after allocation %ld failed: the game does not go on", what, n);
    }
    game_free(c);
    game_free(ref);
    return made >= n;
}

static void check_all(const Game *g, Op op, const void *arg, const char *what)
{
    for (int persist = 0; persist <= 1; persist++)
        for (long n = 1; check_op(g, op, arg, n, persist, what); n++)
            ;
}

/* The seat that plays text: the seat to act, or for "takeover" the first
 * seat that may. */
static int player(const Game *g, const char *text)
{
    if (strcmp(text, "takeover") != 0)
        return game_to_act(g);
    for (int s = 0; s < game_nseats(g); s++) {
        ActionList l = ACTIONLIST_INIT;
        game_legal(g, s, &l);
        int can = 0;
        for (int i = 0; i < l.n; i++)
            can |= l.v[i].kind == ACT_TAKEOVER;
        al_free(&l);
        if (can)
            return s;
    }
    return -1;
}

/* A text and the seat that plays it (found before any allocation fails). */
typedef struct Turn {
    int seat;
    const char *text;
} Turn;

static int op_play(Game *g, const void *arg, Error *e)
{
    const Turn *m = arg;
    return game_play(g, m->seat, m->text, e);
}

static int op_undo(Game *g, const void *arg, Error *e)
{
    return game_undo(g, *(const int *)arg, e);
}

/* Clone, view, save and load, legal: answers without changing g. */
static int op_read(Game *g, const void *arg, Error *e)
{
    (void)arg;
    Game *c = game_clone(g);
    if (!c)
        return err_set(e, "clone: out of memory");
    game_free(c);
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, game_to_act(g) >= 0 ? game_to_act(g) : 0, &l);
    int failed = l.failed;
    al_free(&l);
    if (failed)
        return err_set(e, "legal: out of memory");
    return 0;
}

/* MASQ-1, AMBI-7, ORTH-8: every text of every script, with each of its
 * allocations failing in turn, once and for good. */
static void test_oom_play_every_action(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++) {
        Game *g = start(&SCRIPTS[k]);
        for (int i = 0; SCRIPTS[k].texts[i] && game_to_act(g) >= 0; i++) {
            char what[96];
            snprintf(what, sizeof what, "%s: %s", SCRIPTS[k].variant, SCRIPTS[k].texts[i]);
            Turn m = {player(g, SCRIPTS[k].texts[i]), SCRIPTS[k].texts[i]};
            check_all(g, op_play, &m, what);
            check_all(g, op_read, NULL, what);
            tu_play(g, player(g, SCRIPTS[k].texts[i]), SCRIPTS[k].texts[i]);
        }
        for (int n = 1; n <= game_history_len(g); n += 2)
            check_all(g, op_undo, &n, "undo");
        game_free(g);
    }
}

/* MASQ-12 (views are what seats see): a view built while memory runs out
 * says so (-1); a view that says 0 is the whole view, byte for byte. */
static void check_views(const Game *g, const char *what)
{
    View *want = malloc(sizeof *want), *got = malloc(sizeof *got);
    assert_non_null(want);
    assert_non_null(got);
    for (int seat = -1; seat < game_nseats(g); seat++) {
        assert_int_equal(game_view(g, seat, want), 0);
        for (int persist = 0; persist <= 1; persist++) {
            for (long n = 1;; n++) {
                cv_alloc_fail(n, persist);
                int rc = game_view(g, seat, got);
                long made = cv_alloc_count();
                cv_alloc_fail(0, 0);
                if (rc == 0 && memcmp(want, got, sizeof *want) != 0)
                    fail_msg("%s: the view of seat %d with allocation %ld failing is "
                             "incomplete but says nothing", what, seat, n);
                if (made < n)
                    break;
            }
        }
    }
    free(want);
    free(got);
}

static void test_oom_views(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++) {
        Game *g = start(&SCRIPTS[k]);
        for (int i = 0; SCRIPTS[k].texts[i] && game_to_act(g) >= 0; i++) {
            check_views(g, SCRIPTS[k].texts[i]);
            tu_play(g, player(g, SCRIPTS[k].texts[i]), SCRIPTS[k].texts[i]);
        }
        check_views(g, "the end");
        game_free(g);
    }
}

/* Records: a save that runs out of memory says so (-1) and never hands
 * out a cut text; a load says "out of memory" or gives the saved game. */
static void test_oom_save_and_load(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++) {
        Game *g = start(&SCRIPTS[k]);
        for (int i = 0; SCRIPTS[k].texts[i] && game_to_act(g) >= 0; i++)
            tu_play(g, player(g, SCRIPTS[k].texts[i]), SCRIPTS[k].texts[i]);
        StrBuf want = STRBUF_INIT;
        assert_int_equal(record_save(g, &want), 0);
        for (int persist = 0; persist <= 1; persist++) {
            for (long n = 1;; n++) {
                StrBuf got = STRBUF_INIT;
                cv_alloc_fail(n, persist);
                int rc = record_save(g, &got);
                long made = cv_alloc_count();
                cv_alloc_fail(0, 0);
                if (rc == 0 && strcmp(sb_str(&got), sb_str(&want)) != 0)
                    fail_msg("%s: record_save with allocation %ld failing: a cut record",
                             SCRIPTS[k].variant, n);
                sb_free(&got);
                if (made < n)
                    break;
            }
            for (long n = 1;; n++) {
                Error e = {""};
                cv_alloc_fail(n, persist);
                Game *l = record_load(sb_str(&want), "oom.rec", &e);
                long made = cv_alloc_count();
                cv_alloc_fail(0, 0);
                if (!l && !strstr(e.msg, "out of memory"))
                    fail_msg("%s: record_load with allocation %ld failing: \"%s\"",
                             SCRIPTS[k].variant, n, e.msg);
                if (l && !game_same(l, g))
                    fail_msg("%s: record_load with allocation %ld failing: another game",
                             SCRIPTS[k].variant, n);
                game_free(l);
                if (made < n)
                    break;
            }
        }
        sb_free(&want);
        game_free(g);
    }
}

/* Batch mode: each command with each allocation failing answers exactly
 * as without the failure, or answers one line "out of memory" and leaves
 * the game as it was. */
static Batch *batch_at(const CliOptions *o, const char *const *lines, int upto)
{
    Error e;
    int status;
    Batch *b = batch_open(o, &e, &status);
    assert_non_null(b);
    StrBuf out = STRBUF_INIT;
    for (int i = 0; i < upto; i++)
        batch_line(b, lines[i], &out);
    sb_free(&out);
    return b;
}

static void test_oom_batch_lines(void **state)
{
    (void)state;
    static const char *const LINES[] = {"e4", "view", "legal", "as black draw", "e5",
                                        "history", "undo", "status", "e5"};
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.command = "run";
    o.variant = tu_variant("orthodox");
    o.json = 1;
    for (int i = 0; i < (int)ARRAY_LEN(LINES); i++) {
        Batch *ref = batch_at(&o, LINES, i);
        StrBuf want = STRBUF_INIT;
        int want_rc = batch_line(ref, LINES[i], &want);
        for (long n = 1;; n++) {
            Batch *b = batch_at(&o, LINES, i);
            Game *before = game_clone(batch_game(b));
            StrBuf got = STRBUF_INIT;
            cv_alloc_fail(n, 0);
            int rc = batch_line(b, LINES[i], &got);
            long made = cv_alloc_count();
            cv_alloc_fail(0, 0);
            if (rc == want_rc && !strcmp(sb_str(&got), sb_str(&want))) {
                /* the same answer */
            } else if (rc != 0 && strstr(sb_str(&got), "out of memory")) {
                if (!game_same(batch_game(b), before))
                    fail_msg("batch %s with allocation %ld failing: the game changed",
                             LINES[i], n);
            } else {
                fail_msg("batch %s with allocation %ld failing: answered %s", LINES[i], n,
                         sb_str(&got));
            }
            int lines = 0;
            for (const char *c = sb_str(&got); *c; c++)
                lines += *c == '\n';
            assert_int_equal(lines, 1);
            sb_free(&got);
            game_free(before);
            batch_close(b);
            if (made < n)
                break;
        }
        sb_free(&want);
        batch_close(ref);
    }
}

/* Creating a game: NULL with "out of memory", never a half-made game. */
static void test_oom_game_new(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(SCRIPTS); k++) {
        GameConfig cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.variant = tu_variant(SCRIPTS[k].variant);
        cfg.position = SCRIPTS[k].position;
        cfg.nsides = SCRIPTS[k].sides;
        for (int persist = 0; persist <= 1; persist++) {
            for (long n = 1;; n++) {
                Error e = {""};
                cv_alloc_fail(n, persist);
                Game *g = game_new(&cfg, &e);
                long made = cv_alloc_count();
                cv_alloc_fail(0, 0);
                if (!g && !strstr(e.msg, "out of memory"))
                    fail_msg("game_new of %s with allocation %ld failing: \"%s\"",
                             SCRIPTS[k].variant, n, e.msg);
                game_free(g);
                if (made < n)
                    break;
            }
        }
    }
}

/* The hook itself: counting, failing once, failing for good, off. */
static void test_oom_hook_counts_and_fails(void **state)
{
    (void)state;
    cv_alloc_fail(2, 0);
    void *a = cv_realloc(NULL, 8), *b = cv_realloc(NULL, 8), *c = cv_realloc(NULL, 8);
    assert_non_null(a);
    assert_null(b);
    assert_non_null(c);
    assert_int_equal(cv_alloc_count(), 3);
    cv_alloc_fail(1, 1);
    assert_null(cv_realloc(NULL, 8));
    assert_null(cv_realloc(NULL, 8));
    cv_alloc_fail(0, 0);
    void *d = cv_realloc(NULL, 8);
    assert_non_null(d);
    free(a);
    free(c);
    free(d);
    StrBuf s = STRBUF_INIT;
    cv_alloc_fail(1, 0);
    sb_puts(&s, "lost");
    cv_alloc_fail(0, 0);
    sb_puts(&s, "kept?");
    assert_true(sb_failed(&s)); /* a failed buffer stays failed ... */
    sb_reset(&s);
    sb_puts(&s, "new");
    assert_false(sb_failed(&s)); /* ... until it starts again */
    assert_string_equal(sb_str(&s), "new");
    sb_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oom_hook_counts_and_fails),
        cmocka_unit_test(test_oom_game_new),
        cmocka_unit_test(test_oom_play_every_action),
        cmocka_unit_test(test_oom_views),
        cmocka_unit_test(test_oom_save_and_load),
        cmocka_unit_test(test_oom_batch_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
