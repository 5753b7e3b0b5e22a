/*
 * test_echiquete_perft.c -- L'Échiqueté's perft, reached twice: by the
 * engine (variants/echiquete/, fast path and generic path) and by the
 * independent brute-force counter tests/support/echiquete_brute.c, written
 * from the rules (ECHQ-1..13) and the contract of docs/ECHIQUETE.md only.
 *
 * Invariant: on every documented position the two agree action by action
 * (divide); on a mismatch both lists are printed side by side, so the
 * action whose subtree differs is named.  Counts above the cap are left to
 * hand runs (the cap is smaller under the sanitizers).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "support/echiquete_brute.h"
#include "support/testutil.h"

#if TU_SANITIZED
#define CAP 60000u
#else
#define CAP 900000u
#endif

/* Documented positions: docs/ECHIQUETE.md's perft table and the brute's. */
static const struct {
    const char *fen;
    int seats;
    uint64_t count[5]; /* d1..d4 (0: not given) */
} CASES[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 2,
     {20, 400, 8922, 198817}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2,
     {53, 2384, 126705}},
    {"rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 2, {29, 877, 25254}},
    {"rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR e KQkq - 0 2 phase=2 cycle=ebw "
     "seats=0,1,2", 3, {2, 58, 1643, 8654}},
    {"r1bqkbnr/1ppp1ppp/p1*N5/4p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 0 4 noundo=c6b5", 2,
     {32, 1122, 35276}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2,
     {53, 2505, 125742}},
    {"4k3/8/8/8/2*P5/8/3P4/4K3 w - - 0 1", 2, {8, 52, 403, 3080}},
    {"4k3/8/8/8/4p3/8/3*P+4/7K w - - 0 1", 2, {6, 54, 429, 4857}},
    {"r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 1", 2, {16, 219, 3527, 55027}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R e KQkq - 0 1 phase=2 "
     "cycle=ewb seats=0,1,2", 3, {16, 580, 21547}},
    {"r3k2r/p1ppqpb1/bn2pnp1/3*P*N3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R e KQkq - 0 1 phase=2 "
     "cycle=ebw seats=1,1,0", 2, {16, 616, 21745}},
    {"4k3/1*P6/8/8/3*N4/8/1*P2P3/4K3 e - - 0 1 phase=2 cycle=ewb seats=0,1,2", 3,
     {19, 96, 420, 7754}},
};

typedef struct Div {
    char text[256][EB_TEXT];
    uint64_t n[256];
    int count;
} Div;

static void div_add(void *ud, const char *text, uint64_t n)
{
    Div *d = ud;
    if (d->count < 256) {
        snprintf(d->text[d->count], EB_TEXT, "%s", text);
        d->n[d->count++] = n;
    }
}

static int div_cmp(const void *a, const void *b) { return strcmp(a, b); }

static void div_sort(Div *d)
{
    /* sort texts and counts together: pack, sort, unpack */
    struct { char t[EB_TEXT]; uint64_t n; } tmp[256];
    for (int i = 0; i < d->count; i++) {
        memcpy(tmp[i].t, d->text[i], EB_TEXT);
        tmp[i].n = d->n[i];
    }
    qsort(tmp, (size_t)d->count, sizeof tmp[0], div_cmp);
    for (int i = 0; i < d->count; i++) {
        memcpy(d->text[i], tmp[i].t, EB_TEXT);
        d->n[i] = tmp[i].n;
    }
}

static void compare(int k, int depth)
{
    Game *g = tu_game(&(TuGame){.variant = tu_variant("echiquete"), .position = CASES[k].fen,
                                .nseats = CASES[k].seats});
    EbPos p;
    char err[256];
    if (eb_parse(&p, CASES[k].fen, err, sizeof err))
        fail_msg("the brute refuses %s: %s", CASES[k].fen, err);
    Div a, b;
    a.count = b.count = 0;
    uint64_t engine = game_perft_divide(g, depth, div_add, &a);
    uint64_t brute = eb_divide(&p, depth, div_add, &b);
    uint64_t fast = game_perft(g, depth), generic = game_perft_generic(g, depth);
    if (engine != brute || fast != brute || generic != brute) {
        div_sort(&a);
        div_sort(&b);
        print_message("%s depth %d: engine %" PRIu64 " (fast %" PRIu64 ", generic %" PRIu64
                      "), brute %" PRIu64 "\n", CASES[k].fen, depth, engine, fast, generic,
                      brute);
        for (int i = 0, j = 0; i < a.count || j < b.count;) {
            int c = i >= a.count ? 1 : j >= b.count ? -1 : strcmp(a.text[i], b.text[j]);
            if (c == 0 && a.n[i] == b.n[j]) {
                i++, j++;
                continue;
            }
            if (c < 0)
                print_message("  %-8s engine %" PRIu64 "  brute -\n", a.text[i], a.n[i]), i++;
            else if (c > 0)
                print_message("  %-8s engine -  brute %" PRIu64 "\n", b.text[j], b.n[j]), j++;
            else
                print_message("  %-8s engine %" PRIu64 "  brute %" PRIu64 "\n", a.text[i],
                              a.n[i], b.n[j]), i++, j++;
        }
        fail_msg("engine and brute differ");
    }
    if (CASES[k].count[depth - 1])
        assert_int_equal(brute, CASES[k].count[depth - 1]);
    game_free(g);
}

/* ECHQ-1..13: every documented position, every depth under the cap. */
static void test_echq_perft_engine_equals_brute(void **state)
{
    (void)state;
    for (int k = 0; k < (int)ARRAY_LEN(CASES); k++)
        for (int d = 1; d <= 4; d++) {
            if (CASES[k].count[d - 1] > CAP)
                break;
            if (!CASES[k].count[d - 1] && d > 3)
                break;
            compare(k, d);
        }
}

static int str_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ECHQ-1..13 along seeded random games (two and three seats, takeovers
 * at random moments): at every ply the engine's legal actions are the
 * independent counter's, read from the engine's own position string. */
static void test_echq_random_games_engine_equals_brute(void **state)
{
    (void)state;
    int games = TU_SANITIZED ? 6 : 30, plies = TU_SANITIZED ? 60 : 140;
    for (int seed = 1; seed <= games; seed++) {
        Rng rng;
        rng_seed(&rng, (uint64_t)seed * 104729);
        int seats = 2 + seed % 2;
        Game *g = tu_game(&(TuGame){.variant = tu_variant("echiquete"), .nseats = seats});
        for (int ply = 0; ply < plies && game_to_act(g) >= 0; ply++) {
            StrBuf pos = STRBUF_INIT;
            game_position(g, &pos);
            EbPos p;
            char err[256];
            if (eb_parse(&p, sb_str(&pos), err, sizeof err))
                fail_msg("seed %d ply %d: the brute refuses %s: %s", seed, ply, sb_str(&pos),
                         err);
            static char texts[512][EB_TEXT];
            int nb = eb_legal_texts(&p, texts, 512);
            ActionList l = ACTIONLIST_INIT;
            game_legal_play(g, &l);
            const char *mine[512];
            StrBuf fmt[512];
            int ne = 0;
            for (int i = 0; i < l.n && ne < 512; i++, ne++) {
                sb_init(&fmt[ne]);
                game_format(g, &l.v[i], FMT_MACHINE, &fmt[ne]);
                mine[ne] = sb_str(&fmt[ne]);
            }
            qsort(mine, (size_t)ne, sizeof mine[0], str_cmp);
            int same = ne == nb;
            for (int i = 0; same && i < ne; i++)
                same = !strcmp(mine[i], texts[i]);
            if (!same) {
                StrBuf a = STRBUF_INIT, b = STRBUF_INIT;
                for (int i = 0; i < ne; i++)
                    sb_printf(&a, " %s", mine[i]);
                for (int i = 0; i < nb && i < 512; i++)
                    sb_printf(&b, " %s", texts[i]);
                fail_msg("seed %d ply %d, %s:\n engine:%s\n brute: %s", seed, ply,
                         sb_str(&pos), sb_str(&a), sb_str(&b));
            }
            for (int i = 0; i < ne; i++)
                sb_free(&fmt[i]);
            /* now and then a takeover by a seat that may, else a move */
            int done = 0;
            if (rng_below(&rng, 6) == 0)
                for (int s = 0; s < game_nseats(g) && !done; s++) {
                    Error e;
                    done = s != game_to_act(g) && game_play(g, s, "takeover", &e) == 0;
                }
            if (!done) {
                Error e;
                const Action *a = &l.v[rng_below(&rng, (uint32_t)l.n)];
                if (game_apply(g, a, &e))
                    fail_msg("seed %d ply %d: %s", seed, ply, e.msg);
            }
            al_free(&l);
            sb_free(&pos);
        }
        game_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_echq_perft_engine_equals_brute),
        cmocka_unit_test(test_echq_random_games_engine_equals_brute),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
