/*
 * test_masques_perft.c -- the complete action tree of Les Échecs Masqués
 * (MASQ-1 .. MASQ-16), counted by the brute-force reference of
 * tests/support/masques_brute.c on the positions documented in
 * docs/MASQUES.md, "Perft positions".  The reference is itself checked:
 * on fully revealed positions Masqués is orthodox chess, so it must give
 * the published perft counts; counts must not change when the board is
 * mirrored with the colours swapped; a few counts are derived by hand.
 *
 * Invariant: every count asserted here is either published (orthodox
 * suite), derived by hand in a comment, or the same number reached by two
 * independent counters; only depths whose count is below PERFT_CAP run, and
 * the cap drops under sanitizers.
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

#include "support/masques_brute.h"

#if defined(__SANITIZE_ADDRESS__)
#define PERFT_CAP 60000ULL
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PERFT_CAP 60000ULL
#endif
#endif
#ifndef PERFT_CAP
#define PERFT_CAP 400000ULL
#endif

/* ---- The documented positions (docs/MASQUES.md, "Perft positions") ----- */

typedef struct MqCase {
    const char *name;      /* what it exercises */
    const char *pos;       /* full-truth position string */
    int allin;             /* --param allin=N; 0 the default (41) */
    uint64_t counts[5];    /* leaves at depth 1..; 0 ends the list */
} MqCase;

#define POS_START \
    "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/R~N~B~Q~K~B~N~R~ w KQkq - 0 1"

static const MqCase CASES[] = {
    {"P1 masked start: pawn moves, reveal-moves, first announcements (MASQ-2, 5, 6)",
     POS_START, 4, {36, 1296, 48124, 1700471}},
    {"P2 double steps from rank 1, en passant onto a masked piece (MASQ-2, 8)",
     "4k~3/8/8/8/8/p1p~5/6P~1/1N~2K~2R~ w - - 0 1", 4, {26, 227, 4263, 39171}},
    {"P3 en passant battles, simple and masked (MASQ-2, 8, 9, 10)",
     "4k~3/8/8/8/8/pN~p~5/8/4K~3 b - b2 0 1", 4, {13, 139, 1441, 16856}},
    {"P4 simple and masked battles, bids, give-up sets (MASQ-8 .. 11)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1", 4,
     {31, 692, 18395, 359436}},
    {"P5 a bidding round under way: raise, call, several give-up sets (MASQ-10)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=bid:c6:d7:2:b", 4,
     {4, 36, 645, 14644}},
    {"P6 a bid nobody can cover and the all-in at 41 (MASQ-11)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=bid:c6:d7:40:w", 0,
     {3, 10, 204, 2021}},
    {"P7 mask check and mask mate on the King (MASQ-6, 7, 16)",
     "7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", 4, {15, 122, 2132, 15918}},
    {"P8 reveal and move, reveal to promote, promotion in an answer (MASQ-3, 5, 7)",
     "1P~4N~1/R~7/8/8/3k~4/7r/8/4K3 w - - 0 1", 4, {27, 554, 11005, 190753}},
    {"P9 capture by right, and the battle that is not by right (MASQ-6, 12)",
     "4k~3/8/8/4p~3/3P~4/5N2/7B/4K~3 w - - 0 3 right=d4,h2:e5", 4,
     {20, 191, 3328, 28598}},
    {"P10 castling with a masked King in check (MASQ-15)",
     "4r1k~1/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1", 4, {31, 534, 14783, 250048}},
    {"P11 the same with the King revealed: no castling out of check (MASQ-14, 15)",
     "4r1k~1/8/8/8/8/8/8/R~3K2R~ w KQ - 0 1", 4, {4, 76, 1951, 34116}},
    {"P12 full reveal without King (MASQ-16)",
     "8/8/6n~1/8/8/2p~5/1B6/4K3 w - - 0 1 nokings=b", 4, {8, 73, 686, 5632}},
};

static const char *shared_dir(void)
{
    const char *s = getenv("SHARED");
    return s && *s ? s : "../shared";
}

static void load(MbPos *p, const char *pos, int allin)
{
    MbConfig c;
    char err[256];
    mb_config_default(&c, allin);
    if (mb_parse(p, pos, &c, err, sizeof err))
        fail_msg("the reference cannot read %s: %s", pos, err);
}

/* ---- The reference on its own -------------------------------------------- */

/* Masqués with every piece revealed is orthodox chess (masques.md, opening
 * line; ORTH-2 .. ORTH-6): the reference must give every published count
 * of the shared suite below the cap. */
static void test_masq_reference_is_orthodox_when_revealed(void **state)
{
    (void)state;
    char path[1024], line[512];
    snprintf(path, sizeof path, "%s/data/perftsuite.epd", shared_dir());
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (set SHARED)", path);
    int checks = 0;
    while (fgets(line, sizeof line, f)) {
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        MbPos p;
        load(&p, line, 0);
        for (char *d = semi + 1; d; d = strchr(d, ';') ? strchr(d, ';') + 1 : NULL) {
            int depth;
            unsigned long long want;
            if (sscanf(d, " D%d %llu", &depth, &want) != 2)
                fail_msg("bad depth field \"%s\"", d);
            if (want >= PERFT_CAP / 4)
                break;
            uint64_t got = mb_perft(&p, depth);
            if (got != want)
                fail_msg("%s depth %d: the reference counts %" PRIu64 ", published %llu",
                         line, depth, got, want);
            checks++;
        }
    }
    fclose(f);
    assert_true(checks >= 126 * 2);
}

/* Every documented count, from the reference. */
static void test_masq_reference_counts(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        MbPos p;
        load(&p, CASES[i].pos, CASES[i].allin);
        for (int d = 1; d <= 5 && CASES[i].counts[d - 1]; d++) {
            if (CASES[i].counts[d - 1] >= PERFT_CAP)
                break;
            uint64_t got = mb_perft(&p, d);
            if (got != CASES[i].counts[d - 1])
                fail_msg("%s depth %d: reference %" PRIu64 ", documented %" PRIu64,
                         CASES[i].name, d, got, CASES[i].counts[d - 1]);
        }
    }
}

/* The rules are symmetric in the colours: the mirrored position (ranks
 * flipped, colours swapped) has the same tree. */
static void test_masq_reference_mirror_symmetry(void **state)
{
    (void)state;
    int checked = 0;
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        MbPos p, m;
        load(&p, CASES[i].pos, CASES[i].allin);
        if (mb_mirror(&p, &m))
            continue;  /* mid-decision positions: play phase only */
        for (int d = 1; d <= 4 && CASES[i].counts[d - 1] < PERFT_CAP / 4; d++) {
            uint64_t a = mb_perft(&p, d), b = mb_perft(&m, d);
            if (a != b)
                fail_msg("%s depth %d: %" PRIu64 " but mirrored %" PRIu64,
                         CASES[i].name, d, a, b);
            checked++;
        }
    }
    assert_true(checked >= 20);
}

/* The texts of the seat to act, sorted and joined by '|'. */
static void legal_joined(const MbPos *p, char *out, size_t n)
{
    char texts[256][MB_TEXT];
    int k = mb_legal_texts(p, texts, 256);
    assert_in_range(k, 0, 256);
    qsort(texts, (size_t)k, MB_TEXT, (int (*)(const void *, const void *))strcmp);
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        if (i)
            strncat(out, "|", n - strlen(out) - 1);
        strncat(out, texts[i], n - strlen(out) - 1);
    }
}

static void play(MbPos *p, const char *text)
{
    if (mb_play(p, text))
        fail_msg("the reference refuses \"%s\"", text);
}

static void assert_legal(const MbPos *p, const char *want)
{
    char got[4096];
    legal_joined(p, got, sizeof got);
    if (strcmp(got, want))
        fail_msg("legal actions\n  got  %s\n  want %s", got, want);
}

/* Hand counts. MASQ-2/5 from the masked start: 8 front pieces, each 2 pawn
 * steps masked and (true pawns) 2 revealed; 2 knights, 2 reveal-moves
 * each: 36. */
static void test_masq2_reference_start_by_hand(void **state)
{
    (void)state;
    MbPos p;
    load(&p, POS_START, 4);
    assert_int_equal(mb_perft(&p, 1), 36);
    /* MASQ-6: d7d5 threatens the masked e4: the mover is asked; not a mask
     * mate since e4 may capture its masked attacker. */
    play(&p, "e2e4");
    play(&p, "d7d5");
    assert_int_equal(mb_to_act(&p), 1);
    assert_legal(&p, "announce check e4|pass");
    play(&p, "announce check e4");
    assert_int_equal(mb_to_act(&p), 0);
    assert_legal(&p, "keep|reveal");
}

/* MASQ-7/16: a Rook on the eighth threatens the masked King on h8, whose
 * side has no public escape: mask mate is offered, and ends the game. */
static void test_masq7_reference_mask_mate_by_hand(void **state)
{
    (void)state;
    MbPos p;
    load(&p, CASES[6].pos, 4);
    MbPos q = p;
    play(&q, "a1a7"); /* g7 can step away: check only */
    assert_legal(&q, "announce check g7|pass");
    play(&p, "a1a8");
    assert_legal(&p, "announce check h8|announce mate h8|pass");
    q = p;
    play(&q, "announce mate h8");
    assert_int_equal(mb_to_act(&q), -1);
    assert_int_equal(q.winner, 0);
    play(&p, "announce check h8");
    play(&p, "reveal");  /* revealed in check, no way out: checkmate */
    assert_int_equal(mb_to_act(&p), 1);
    assert_int_equal(mb_perft(&p, 1), 0);
}

/* MASQ-3/7: a masked pawn on its last rank answers a mask mate by
 * revealing and choosing its promotion: four decisions, none forced. */
static void test_masq3_reference_promotion_answer(void **state)
{
    (void)state;
    MbPos p;
    load(&p, CASES[7].pos, 4);
    play(&p, "e1d1");
    play(&p, "h3b3");
    assert_legal(&p, "announce check b8|announce mate b8|pass");
    play(&p, "announce mate b8");
    assert_legal(&p, "reveal =B|reveal =N|reveal =Q|reveal =R");
}

/* MASQ-10/11: the call after a bid of 2 that a knight wins against a pawn:
 * the loser picks a minimal set holding its battling piece (d7): with
 * itself plus any one of four other pieces. */
static void test_masq10_reference_giveup_sets(void **state)
{
    (void)state;
    MbPos p;
    load(&p, CASES[4].pos, 4);
    assert_legal(&p, "bid 3|bid 4|call|fold");
    play(&p, "call");
    assert_legal(&p, "give b7 d7|give c7 d7|give d7 f7|give d7 g7");
    /* A bid of 40 nobody can cover: everything but the King goes, without
     * asking (MASQ-11), and the knight moves in. */
    load(&p, CASES[5].pos, 0);
    assert_legal(&p, "bid 41|call|fold");
    MbPos q = p;
    play(&q, "call");
    assert_int_equal(mb_to_act(&q), 1);
    assert_int_equal(q.b[51].fig, 2 /* FIG_KNIGHT on d7 */);
    assert_int_equal(q.b[51].masked, 0);
    /* All-in: a called bid at the threshold ends the game (MASQ-11). */
    play(&p, "bid 41");
    play(&p, "call");
    assert_int_equal(mb_to_act(&p), -1);
    assert_int_equal(p.winner, 0);
}

/* Is text among the legal actions of p? */
static int has_action(const MbPos *p, const char *text)
{
    char texts[256][MB_TEXT];
    int k = mb_legal_texts(p, texts, 256);
    for (int i = 0; i < k && i < 256; i++)
        if (!strcmp(texts[i], text))
            return 1;
    return 0;
}

/* MASQ-15: the masked King in check castles both ways; revealed, it may
 * only step off the Rook's file.  By hand, masked: Rook a1 2 pawn steps + 10
 * reveal-moves, Rook h1 2 + 9, King 2 pawn steps + 4 reveal-moves (e2 is
 * attacked), 2 castlings: 31. */
static void test_masq15_reference_castling_by_hand(void **state)
{
    (void)state;
    MbPos p;
    load(&p, CASES[10].pos, 4);
    assert_legal(&p, "e1d1|e1d2|e1f1|e1f2");
    load(&p, CASES[9].pos, 4);
    assert_int_equal(mb_perft(&p, 1), 31);
    assert_true(has_action(&p, "e1g1"));
    assert_true(has_action(&p, "e1c1"));
    assert_false(has_action(&p, "reveal e1e2"));
    play(&p, "e1g1");  /* both revealed now */
    assert_int_equal(p.b[6].fig, 6);
    assert_int_equal(p.b[6].masked, 0);
    assert_int_equal(p.b[5].fig, 4);
    assert_int_equal(p.b[5].masked, 0);
}

/* The reference refuses what the contract calls malformed. */
static void test_masq_reference_refuses_bad_positions(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "4k~3/8/8/8/8/8/8/4K3 w - - 0",                  /* five fields */
        "4k~3/8/8/8/8/8/8/4K3 x - - 0 1",                /* side */
        "4k~4/8/8/8/8/8/8/4K3 w - - 0 1",                /* long rank */
        "4k~3/8/8/8/8/8/8/4X3 w - - 0 1",                /* letter */
        "4k~3/8/8/8/8/8/8/8 w - - 0 1",                  /* no white King */
        "4k~3/8/8/8/8/8/8/4K3 w K - 0 1",                /* right without Rook */
        "4k~3/8/8/4K^3/8/8/8/8 w - - 0 1",               /* ^ off home ranks */
        "4k~3/8/8/8/8/8/8/4K3 w - - 0 1 phase=giveup:b:3", /* not read */
        "4k~3/8/8/8/8/8/8/4K3 w - - 0 1 bogus=1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MbPos p;
        MbConfig c;
        char err[256] = "";
        mb_config_default(&c, 0);
        if (mb_parse(&p, bad[i], &c, err, sizeof err) == 0)
            fail_msg("the reference accepted %s", bad[i]);
        assert_true(err[0] != '\0');
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq_reference_is_orthodox_when_revealed),
        cmocka_unit_test(test_masq_reference_counts),
        cmocka_unit_test(test_masq_reference_mirror_symmetry),
        cmocka_unit_test(test_masq2_reference_start_by_hand),
        cmocka_unit_test(test_masq7_reference_mask_mate_by_hand),
        cmocka_unit_test(test_masq3_reference_promotion_answer),
        cmocka_unit_test(test_masq10_reference_giveup_sets),
        cmocka_unit_test(test_masq15_reference_castling_by_hand),
        cmocka_unit_test(test_masq_reference_refuses_bad_positions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
