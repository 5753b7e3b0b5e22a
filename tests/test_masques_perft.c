/*
 * test_masques_perft.c -- the complete action tree of Les Échecs Masqués
 * (MASQ-1 .. MASQ-16), counted by the brute-force reference of
 * tests/support/masques_brute.c on the positions documented in
 * docs/MASQUES.md, "Perft positions".  The reference is itself checked:
 * on fully revealed positions Masqués is orthodox chess, so it must give
 * the published perft counts; counts must not change when the board is
 * mirrored with the colours swapped; a few counts are derived by hand.
 * The table of docs/MASQUES.md is read from the file and must agree with
 * CASES cell by cell, and with the engine under the cap, so it cannot
 * drift from what is tested.
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

#include "../core/game.h"
#include "support/masques_brute.h"
#include "support/testutil.h"

#if TU_SANITIZED
#define PERFT_CAP 60000ULL
#else
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
     "4k~3/8/8/8/8/p1p~5/6P~1/1N~2K~2R~ w - - 0 1", 4, {26, 227, 4263, 39171, 763728}},
    {"P3 en passant battles, simple and masked (MASQ-2, 8, 9, 10)",
     "4k~3/8/8/8/8/pN~p~5/8/4K~3 b - b2 0 1", 4, {13, 139, 1441, 16856, 176256}},
    {"P4 simple and masked battles, bids, give-up sets (MASQ-8 .. 11)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1", 4,
     {31, 692, 18395, 359001}},
    {"P5 a bidding round under way: raise, call, several give-up sets (MASQ-10)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=bid:c6:d7:2:b", 4,
     {4, 36, 645, 14644, 298854}},
    {"P6 a bid nobody can cover and the all-in at 41 (MASQ-11)",
     "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=bid:c6:d7:40:w", 0,
     {3, 10, 204, 2021, 46486}},
    {"P7 mask check and mask mate on the King (MASQ-6, 7, 16)",
     "7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1", 4, {15, 122, 2132, 15918, 283366}},
    {"P8 reveal and move, reveal to promote, promotion in an answer (MASQ-3, 5, 7)",
     "1P~4N~1/R~7/8/8/3k~4/7r/8/4K3 w - - 0 1", 4, {27, 554, 11005, 190754}},
    {"P9 capture by right, and the battle that is not by right (MASQ-6, 12)",
     "4k~3/8/8/4p~3/3P~4/5N2/7B/4K~3 w - - 0 3 right=d4,h2:e5", 4,
     {20, 191, 3328, 28605, 476550}},
    {"P10 castling with a masked King in check (MASQ-15)",
     "4r1k~1/8/8/8/8/8/8/R~3K~2R~ w KQ - 0 1", 4, {31, 534, 14783, 249480}},
    {"P11 the same with the King revealed: no castling out of check (MASQ-14, 15)",
     "4r1k~1/8/8/8/8/8/8/R~3K2R~ w KQ - 0 1", 4, {4, 76, 1951, 34004, 859008}},
    {"P12 full reveal without King (MASQ-16)",
     "8/8/6n~1/8/8/2p~5/1B6/4K3 w - - 0 1 nokings=b", 4, {8, 73, 686, 5632, 45551}},
    {"P13 a masked King in check along the rank cannot castle through it (MASQ-15)",
     "4k~3/8/8/8/8/8/8/1r2K~2R~ w K - 0 1", 4, {16, 282, 5060, 89090}},
    {"P14 an equal simple battle is the attacker's move: no two-step after it (MASQ-2, 9)",
     "4k~3/8/8/8/8/4p~3/3P4/4K~3 w - - 0 1", 4, {7, 54, 330, 2540, 16146}},
    {"P15 the same after an equal masked battle (MASQ-2, 10)",
     "4k~3/8/8/8/8/4p~3/3P~4/4K~3 w - - 0 1", 4, {10, 77, 511, 3759, 24959}},
    {"P16 capture by right en passant (MASQ-6, 12)",
     "4k~3/8/8/3P~p~3/8/8/8/4K~3 w - e6 0 2 right=d5:e5", 4, {11, 85, 678, 5078, 39172}},
    {"P17 a masked King revealed by a call lands in check: check after reveal (MASQ-13)",
     "4r2k~/8/8/4p~3/3K~4/8/8/8 w - - 0 1", 4, {9, 123, 735, 10939, 72981}},
    {"P18 a battle out of check, and a fold that leaves the King in check (MASQ-13, 14)",
     "4k~3/8/8/8/8/8/3p~4/2P~1K3 w - - 0 1", 4, {7, 72, 517, 5578, 43186}},
    {"P19 a revealed pawn attacks onto its last rank, naming its promotion (MASQ-9)",
     "2n~1q~2k~/3P4/8/8/8/8/8/4K3 w - - 0 1", 4, {17, 280, 3306, 72298}},
    {"P20 the same battle under way (MASQ-9)",
     "2n~1q~2k~/3P4/8/8/8/8/8/4K3 w - - 0 1 phase=battle:d7:e8q", 4, {2, 2, 12, 247, 2288}},
    {"P21 a give-up under way, the knight moves in after it (MASQ-10)",
     "4k~3/1n~p~p1p~p~1/2N5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=giveup:c6:d7:b:2", 4,
     {4, 75, 1930, 29542, 766560}},
};

/* ---- The documented table (docs/MASQUES.md, "Perft positions") ------------
 * The doc's rows P1..P21 are read from the file (the tests run from the
 * repository root) and must say exactly what CASES says: the position (a
 * row "P4 with `phase=...`" is P4's position plus that token), allin and
 * every count, as text for counts over the cap; the counts under the cap
 * are also compared with the engine (check_case_depth). */

#define DOC_PATH "docs/MASQUES.md"
#define NCASES (sizeof CASES / sizeof CASES[0])

typedef struct DocRow {
    char pos[256];
    char allin[16];
    char counts[5][24];   /* as written; "" when the cell is empty */
} DocRow;

/* Cell k (0 = the first after the leading '|') of a table row, trimmed. */
static int doc_cell(const char *row, int k, char *out, size_t n)
{
    const char *c = row;
    for (int i = 0; i <= k; i++) {
        c = strchr(c, '|');
        if (!c)
            return -1;
        c++;
    }
    const char *end = strchr(c, '|');
    if (!end)
        return -1;
    while (c < end && *c == ' ')
        c++;
    while (end > c && end[-1] == ' ')
        end--;
    snprintf(out, n, "%.*s", (int)(end - c), c);
    return 0;
}

/* The text between the first pair of backquotes of cell. */
static int doc_quoted(const char *cell, char *out, size_t n)
{
    const char *a = strchr(cell, '`'), *b = a ? strchr(a + 1, '`') : NULL;
    if (!b)
        return -1;
    snprintf(out, n, "%.*s", (int)(b - a - 1), a + 1);
    return 0;
}

/* Read the rows P1..P<NCASES> of the table into rows; fails the test on
 * a missing file, section or row. */
static void doc_table(DocRow rows[NCASES])
{
    FILE *f = fopen(DOC_PATH, "r");
    if (!f)
        fail_msg("cannot open %s (run the tests from the repository root)", DOC_PATH);
    char line[1024];
    int in_section = 0, seen = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "### Perft positions", 19)) {
            in_section = 1;
            continue;
        }
        if (!in_section)
            continue;
        if (!strncmp(line, "#", 1))
            break; /* the next section */
        int num;
        char id[16], cell[512];
        if (strncmp(line, "| P", 3) || doc_cell(line, 0, id, sizeof id) ||
            sscanf(id, "P%d", &num) != 1)
            continue;
        if (num != seen + 1 || num > (int)NCASES)
            fail_msg("%s: row %s out of order (expected P%d of P1..P%d)", DOC_PATH, id,
                     seen + 1, (int)NCASES);
        DocRow *r = &rows[num - 1];
        char quoted[256];
        if (doc_cell(line, 2, cell, sizeof cell) || doc_quoted(cell, quoted, sizeof quoted))
            fail_msg("%s: row %s has no position in backquotes", DOC_PATH, id);
        int base;
        if (sscanf(cell, "P%d with", &base) == 1) {
            if (base < 1 || base >= num)
                fail_msg("%s: row %s builds on P%d, not an earlier row", DOC_PATH, id, base);
            char joined[sizeof r->pos + sizeof quoted + 1];
            snprintf(joined, sizeof joined, "%s %s", rows[base - 1].pos, quoted);
            if (strlen(joined) >= sizeof r->pos)
                fail_msg("%s: row %s: the position is too long", DOC_PATH, id);
            memcpy(r->pos, joined, strlen(joined) + 1);
        } else {
            snprintf(r->pos, sizeof r->pos, "%s", quoted);
        }
        if (doc_cell(line, 3, r->allin, sizeof r->allin))
            fail_msg("%s: row %s has no allin cell", DOC_PATH, id);
        for (int d = 0; d < 5; d++)
            if (doc_cell(line, 4 + d, r->counts[d], sizeof r->counts[d]))
                fail_msg("%s: row %s has no d%d cell", DOC_PATH, id, d + 1);
        seen = num;
    }
    fclose(f);
    if (seen != (int)NCASES)
        fail_msg("%s, \"Perft positions\": %d rows, CASES has %d", DOC_PATH, seen, (int)NCASES);
}

/* The documented count of a case at depth d (0 when the cell is empty). */
static uint64_t doc_count(const DocRow *r, int d)
{
    return r->counts[d - 1][0] ? strtoull(r->counts[d - 1], NULL, 10) : 0;
}

/* docs/MASQUES.md's table says what CASES says, row by row and cell by
 * cell (counts compared as text, so those over the cap too). */
static void test_masq_doc_table_matches_cases(void **state)
{
    (void)state;
    static DocRow rows[NCASES];
    memset(rows, 0, sizeof rows);
    doc_table(rows);
    for (size_t i = 0; i < NCASES; i++) {
        const MqCase *c = &CASES[i];
        char id[8], allin[16];
        snprintf(id, sizeof id, "P%zu ", i + 1);
        if (strncmp(c->name, id, strlen(id)))
            fail_msg("CASES[%zu] is \"%s\", expected row %s", i, c->name, id);
        if (strcmp(rows[i].pos, c->pos))
            fail_msg("%s: the doc's position \"%s\" is not CASES' \"%s\"", c->name,
                     rows[i].pos, c->pos);
        snprintf(allin, sizeof allin, "%d", c->allin);
        if (strcmp(rows[i].allin, allin))
            fail_msg("%s: the doc's allin %s is not CASES' %s", c->name, rows[i].allin, allin);
        for (int d = 1; d <= 5; d++) {
            char want[24] = "";
            if (c->counts[d - 1])
                snprintf(want, sizeof want, "%" PRIu64, c->counts[d - 1]);
            if (strcmp(rows[i].counts[d - 1], want))
                fail_msg("%s: the doc's d%d is \"%s\", CASES says \"%s\"", c->name, d,
                         rows[i].counts[d - 1], want);
        }
    }
}

static void load_with(MbPos *p, const char *pos, const MbConfig *c)
{
    char err[256];
    if (mb_parse(p, pos, c, err, sizeof err))
        fail_msg("the reference cannot read %s: %s", pos, err);
}

static void load(MbPos *p, const char *pos, int allin)
{
    MbConfig c;
    mb_config_default(&c, allin);
    load_with(p, pos, &c);
}

/* ---- The reference on its own -------------------------------------------- */

/* One line of the perft suite, from the reference: every depth below a
 * quarter of the cap; ud counts the depths checked. */
static void reference_epd_line(const TuEpd *e, void *ud)
{
    int *checks = ud;
    MbPos p;
    load(&p, e->pos, 0);
    for (int i = 0; i < e->ndepths && e->count[i] < PERFT_CAP / 4; i++) {
        uint64_t got = mb_perft(&p, e->depth[i]);
        if (got != e->count[i])
            fail_msg("%s depth %d: the reference counts %" PRIu64 ", published %" PRIu64,
                     e->pos, e->depth[i], got, e->count[i]);
        (*checks)++;
    }
}

/* Masqués with every piece revealed is orthodox chess (docs/RULES.md, the
 * opening of MASQ; ORTH-2 .. ORTH-6): the reference must give every
 * published count of the perft suite below the cap. */
static void test_masq_reference_is_orthodox_when_revealed(void **state)
{
    (void)state;
    int checks = 0;
    tu_epd_each(TU_PERFTSUITE, reference_epd_line, &checks);
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

/* The k texts sorted, joined by '|' into out. */
static void join_sorted(char (*texts)[MB_TEXT], int k, StrBuf *out)
{
    qsort(texts, (size_t)k, MB_TEXT, (int (*)(const void *, const void *))strcmp);
    sb_reset(out);
    for (int i = 0; i < k; i++)
        sb_printf(out, "%s%s", i ? "|" : "", texts[i]);
}

/* The machine texts of the reference's actions for the seat to act,
 * sorted and joined by '|'. */
static void reference_legal_joined(const MbPos *p, StrBuf *out)
{
    char (*texts)[MB_TEXT] = calloc(1024, MB_TEXT);
    assert_non_null(texts);
    int k = mb_legal_texts(p, texts, 1024);
    assert_in_range(k, 0, 1024);
    join_sorted(texts, k, out);
    free(texts);
}

static void play(MbPos *p, const char *text)
{
    if (mb_play(p, text))
        fail_msg("the reference refuses \"%s\"", text);
}

static void assert_legal(const MbPos *p, const char *want)
{
    StrBuf got = STRBUF_INIT;
    reference_legal_joined(p, &got);
    if (strcmp(sb_str(&got), want))
        fail_msg("legal actions\n  got  %s\n  want %s", sb_str(&got), want);
    sb_free(&got);
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
    assert_int_equal(p.phase, MB_PLAY);
    assert_int_equal(mb_perft(&p, 1), 0);
    assert_int_equal(mb_to_act(&p), -1);
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
        "4k~3/8/8/8/8/8/8/4K3 w - - 0 1 phase=giveup:b:3", /* give-up without squares */
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


/* ---- The engine against the reference ------------------------------------ */

static Game *engine_game(const char *pos, int allin)
{
    char params[32];
    snprintf(params, sizeof params, "allin=%d", allin);
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .position = pos, .params = allin ? params : NULL});
}

typedef struct DivLine {
    char text[MB_TEXT];
    uint64_t n;
} DivLine;

typedef struct Divide {
    DivLine v[1024];
    int n;
    int overflow;
} Divide;

static void divide_add(void *ud, const char *text, uint64_t n)
{
    Divide *d = ud;
    if (d->n == (int)(sizeof d->v / sizeof d->v[0])) {
        d->overflow = 1;
        return;
    }
    snprintf(d->v[d->n].text, MB_TEXT, "%s", text);
    d->v[d->n++].n = n;
}

static int divline_cmp(const void *a, const void *b)
{
    return strcmp(((const DivLine *)a)->text, ((const DivLine *)b)->text);
}

/* Compare the two divides line by line; every line that differs goes to
 * out (one per line).  Returns the number of differing lines. */
static int divide_diff(Divide *eng, Divide *ref, char *out, size_t n)
{
    int diffs = 0, i = 0, j = 0;
    qsort(eng->v, (size_t)eng->n, sizeof eng->v[0], divline_cmp);
    qsort(ref->v, (size_t)ref->n, sizeof ref->v[0], divline_cmp);
    out[0] = '\0';
    while (i < eng->n || j < ref->n) {
        int c = i == eng->n ? 1 : j == ref->n ? -1 : strcmp(eng->v[i].text, ref->v[j].text);
        char line[256];
        line[0] = '\0';
        if (c < 0) {
            snprintf(line, sizeof line, "  %-22s engine %" PRIu64 ", not in the reference\n",
                     eng->v[i].text, eng->v[i].n);
            i++;
        } else if (c > 0) {
            snprintf(line, sizeof line, "  %-22s reference %" PRIu64 ", not in the engine\n",
                     ref->v[j].text, ref->v[j].n);
            j++;
        } else {
            if (eng->v[i].n != ref->v[j].n)
                snprintf(line, sizeof line, "  %-22s engine %" PRIu64 ", reference %" PRIu64 "\n",
                         eng->v[i].text, eng->v[i].n, ref->v[j].n);
            i++;
            j++;
        }
        if (line[0]) {
            diffs++;
            if (strlen(out) + strlen(line) < n)
                strcat(out, line);
        }
    }
    return diffs;
}

/* One documented position at one depth: the engine's fast perft, its
 * generic perft, its divide, the reference's perft and divide, and the
 * documented count all agree; on a mismatch the differing divide lines
 * say which root action to follow. */
static void check_case_depth(const MqCase *c, Game *g, const MbPos *p, int d,
                             uint64_t doc)
{
    static Divide eng, ref;  /* large: kept off the stack; tests run one at a time */
    uint64_t fast = game_perft(g, d), generic = game_perft_generic(g, d);
    eng.n = ref.n = eng.overflow = ref.overflow = 0;
    uint64_t etotal = game_perft_divide(g, d, divide_add, &eng);
    uint64_t rtotal = mb_divide(p, d, divide_add, &ref);
    char diff[8192];
    int ndiff = divide_diff(&eng, &ref, diff, sizeof diff);
    assert_false(eng.overflow || ref.overflow);
    if (ndiff || fast != rtotal || generic != rtotal || etotal != rtotal
        || rtotal != c->counts[d - 1] || fast != doc)
        fail_msg("%s\n  %s allin=%d depth %d: engine perft %" PRIu64 ", generic %" PRIu64
                 ", divide %" PRIu64 "; reference %" PRIu64 "; CASES %" PRIu64
                 "; %s %" PRIu64 "\n  divide lines that differ (%d):\n%s",
                 c->name, c->pos, c->allin, d, fast, generic, etotal, rtotal,
                 c->counts[d - 1], DOC_PATH, doc, ndiff, diff);
}

/* MASQ-1 .. MASQ-16 over the complete action tree: every documented
 * position, every depth below the cap. */
static void test_masq_engine_perft_matches_reference(void **state)
{
    (void)state;
    int checked = 0;
    static DocRow rows[NCASES];
    memset(rows, 0, sizeof rows);
    doc_table(rows);
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        Game *g = engine_game(CASES[i].pos, CASES[i].allin);
        MbPos p;
        load(&p, CASES[i].pos, CASES[i].allin);
        for (int d = 1; d <= 5 && CASES[i].counts[d - 1]; d++) {
            if (CASES[i].counts[d - 1] >= PERFT_CAP)
                break;
            check_case_depth(&CASES[i], g, &p, d, doc_count(&rows[i], d));
            checked++;
        }
        game_free(g);
    }
    assert_true(checked >= (int)(sizeof CASES / sizeof CASES[0]) * 2);
}

/* One line of the perft suite, from the engine: its fast perft at every
 * depth below the cap, its generic perft below a quarter of it; ud counts
 * the depths checked. */
static void engine_epd_line(const TuEpd *e, void *ud)
{
    int *checks = ud;
    Game *g = engine_game(e->pos, 0);
    for (int i = 0; i < e->ndepths && e->count[i] < PERFT_CAP; i++) {
        uint64_t want = e->count[i];
        uint64_t fast = game_perft(g, e->depth[i]);
        uint64_t generic = want < PERFT_CAP / 4 ? game_perft_generic(g, e->depth[i]) : want;
        if (fast != want || generic != want)
            fail_msg("%s depth %d: engine %" PRIu64 " (generic %" PRIu64 "), published %" PRIu64,
                     e->pos, e->depth[i], fast, generic, want);
        (*checks)++;
    }
    game_free(g);
}

/* With every piece revealed the engine plays orthodox chess (docs/RULES.md,
 * the opening of MASQ): the published counts of the perft suite. */
static void test_masq_engine_is_orthodox_when_revealed(void **state)
{
    (void)state;
    int checks = 0;
    tu_epd_each(TU_PERFTSUITE, engine_epd_line, &checks);
    assert_true(checks >= 126 * 2);
}

/* ---- Random games: position strings and legal lists ----------------------- */

#if PERFT_CAP < 100000ULL
enum { WALK_GAMES = 8, WALK_PLIES = 80 };
#else
enum { WALK_GAMES = 30, WALK_PLIES = 160 };
#endif

/* The play actions of the seat to act, as sorted machine texts joined by
 * '|', from the engine. */
static void engine_legal_joined(const Game *g, StrBuf *out)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT;
    char (*texts)[MB_TEXT] = NULL;
    game_legal_play(g, &l);
    texts = calloc((size_t)l.n + 1, MB_TEXT);
    for (int i = 0; i < l.n; i++) {
        sb_reset(&t);
        game_format(g, &l.v[i], FMT_MACHINE, &t);
        snprintf(texts[i], MB_TEXT, "%s", sb_str(&t));
    }
    join_sorted(texts, l.n, out);
    free(texts);
    sb_free(&t);
    al_free(&l);
}

/* One ply of a walk: the position string read back by the engine; the
 * reference's list, from that string and from the reference kept in step
 * (lock), against the engine's; then the action chosen from rng applied by
 * both, and the seat to act after it compared.  (The string cannot hold
 * the position before a battle began, which the announcements after it
 * depend on: only the reference kept in step can follow the game.)
 * Returns 0 to go on, 1 when the game is over, -1 with the problem in why. */
static int walk_ply(Game *g, const MbConfig *c, MbPos *lock, Rng *rng, int lean, StrBuf *why)
{
    StrBuf pos = STRBUF_INIT, back = STRBUF_INIT, eng = STRBUF_INIT, ref = STRBUF_INIT;
    int rc = 0;
    game_position(g, &pos);
    engine_legal_joined(g, &eng);

    GameConfig cfg;
    Error e = {""};
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = game_variant(g);
    cfg.params = *game_params(g);
    cfg.params_set = 1;
    cfg.position = sb_str(&pos);
    Game *r = game_new(&cfg, &e);
    if (!r) {
        sb_printf(why, "the engine cannot read its own position string %s: %s",
                  sb_str(&pos), e.msg);
        rc = -1;
    } else {
        game_position(r, &back);
        engine_legal_joined(r, &ref);
        if (strcmp(sb_str(&pos), sb_str(&back)) || game_to_act(g) != game_to_act(r)
            || strcmp(sb_str(&eng), sb_str(&ref))) {
            sb_printf(why, "%s read back as %s\n    actions   %s\n    read back %s",
                      sb_str(&pos), sb_str(&back), sb_str(&eng), sb_str(&ref));
            rc = -1;
        }
        game_free(r);
    }
    MbPos p;
    char err[256];
    if (rc == 0 && mb_parse(&p, sb_str(&pos), c, err, sizeof err)) {
        sb_printf(why, "the reference cannot read %s: %s", sb_str(&pos), err);
        rc = -1;
    }
    for (int k = 0; k < 2 && rc == 0; k++) {
        const MbPos *q = k ? lock : &p;
        reference_legal_joined(q, &ref);
        if (strcmp(sb_str(&eng), sb_str(&ref)) || mb_to_act(q) != game_to_act(g)) {
            sb_printf(why, "at %s (to act: engine %d, reference %s %d)\n    engine    %s\n"
                      "    reference %s", sb_str(&pos), game_to_act(g),
                      k ? "in step" : "from the string", mb_to_act(q), sb_str(&eng),
                      sb_str(&ref));
            rc = -1;
        }
    }
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    if (rc == 0 && l.n == 0)
        rc = 1;
    if (rc == 0) {
        Action act = l.v[rng_below(rng, (uint32_t)l.n)];
        /* every other game leans to actions that reveal nothing and to
         * calls, for long masked play with bids and give-ups */
        if (lean && rng_below(rng, 4)) {
            int quiet = 0;
            for (int i = 0; i < l.n; i++)
                quiet += l.v[i].kind != ACT_REVEAL;
            for (int i = 0, k = quiet ? (int)rng_below(rng, (uint32_t)quiet) : -1; i < l.n; i++)
                if (l.v[i].kind != ACT_REVEAL && k-- == 0)
                    act = l.v[i];
            for (int i = 0; i < l.n; i++)
                if (l.v[i].kind == ACT_CALL && rng_below(rng, 2))
                    act = l.v[i];
        }
        sb_reset(&eng);
        game_format(g, &act, FMT_MACHINE, &eng);
        sb_printf(why, " [%s]", sb_str(&eng));  /* the line so far */
        if (game_apply(g, &act, &e) || mb_play(lock, sb_str(&eng))) {
            sb_printf(why, "\n    %s refused: %s", sb_str(&eng), e.msg);
            rc = -1;
        } else if (game_to_act(g) != mb_to_act(lock)) {
            Status st;
            game_status(g, &st);
            sb_reset(&back);
            game_position(g, &back);
            sb_printf(why, "\n    after %s from %s: engine to act %d (%s; %s), reference %d "
                      "(winner %d)", sb_str(&eng), sb_str(&pos), game_to_act(g),
                      st.over ? st.reason : "game on", sb_str(&back), mb_to_act(lock),
                      lock->winner);
            rc = -1;
        } else if (game_to_act(g) < 0) {
            rc = 1;
        }
    }
    al_free(&l);
    sb_free(&pos);
    sb_free(&back);
    sb_free(&eng);
    sb_free(&ref);
    return rc;
}

/* Each ply of seeded random games (random setups, random legal actions):
 * the engine reads its position string back to the same string, seat to
 * act and actions; the reference, reading the same string, lists exactly
 * the engine's actions and agrees on who acts after each.  This reaches
 * states the perft positions do not (deep give-ups, rights, late
 * promotions, Kings gone).  Every game that goes wrong is listed. */
static void test_masq_random_games_agree_with_reference(void **state)
{
    (void)state;
    static const char *const params[] = {NULL, "allin=6", "reveal_alone=on"};
    StrBuf report = STRBUF_INIT, line = STRBUF_INIT;
    int plies = 0, failed = 0, games = WALK_GAMES;
    const char *more = getenv("MASQUES_WALK_GAMES");  /* deeper runs, by hand */
    if (more && atoi(more) > 0)
        games = atoi(more);
    for (int seed = 1; seed <= games; seed++) {
        const char *par = params[seed % 3];
        int allin = par && !strncmp(par, "allin=", 6) ? atoi(par + 6) : 0;
        Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"),
                                    .seed = (uint64_t)seed, .params = par});
        Rng rng;
        rng_seed(&rng, (uint64_t)seed * 7919);
        tu_play(g, 0, "random");
        tu_play(g, 1, "random");
        MbConfig c;
        MbPos lock;
        char *start = tu_position(g);
        mb_config_default(&c, allin);
        c.reveal_alone = par && !strcmp(par, "reveal_alone=on");
        load_with(&lock, start, &c);
        free(start);
        sb_reset(&line);
        for (int ply = 0; ply < WALK_PLIES; ply++, plies++) {
            size_t mark = line.len;
            int rc = walk_ply(g, &c, &lock, &rng, seed % 2, &line);
            if (rc < 0) {
                failed++;
                if (failed <= 6)
                    sb_printf(&report, "\n  seed %d (%s) ply %d: %s\n    line:%.*s", seed,
                              par ? par : "defaults", ply, line.s + mark, (int)mark, sb_str(&line));
                break;
            }
            if (rc > 0)
                break;
        }
        game_free(g);
    }
    if (failed) {
        fprintf(stderr, "random games that went wrong:%s\n", sb_str(&report));
        fail_msg("%d of %d random games went wrong (listed above)", failed, games);
    }
    sb_free(&report);
    sb_free(&line);
    assert_true(plies >= WALK_GAMES * 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq_reference_is_orthodox_when_revealed),
        cmocka_unit_test(test_masq_doc_table_matches_cases),
        cmocka_unit_test(test_masq_reference_counts),
        cmocka_unit_test(test_masq_reference_mirror_symmetry),
        cmocka_unit_test(test_masq2_reference_start_by_hand),
        cmocka_unit_test(test_masq7_reference_mask_mate_by_hand),
        cmocka_unit_test(test_masq3_reference_promotion_answer),
        cmocka_unit_test(test_masq10_reference_giveup_sets),
        cmocka_unit_test(test_masq15_reference_castling_by_hand),
        cmocka_unit_test(test_masq_reference_refuses_bad_positions),
        cmocka_unit_test(test_masq_engine_perft_matches_reference),
        cmocka_unit_test(test_masq_engine_is_orthodox_when_revealed),
        cmocka_unit_test(test_masq_random_games_agree_with_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
