/*
 * test_betza.c -- Betza notation as the fairy variant's rule sets write a
 * piece's moves (issue 24, PART-2, docs/BETZA.md): betza_parse turns a text
 * into one atom per direction, and refuses a bad text with a message that
 * names the character and its position.
 *
 * Invariant: each piece is checked as a whole set of atoms (every atom it
 * must have, and no other), each refusal by a word of its message and by
 * the output being left as it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../variants/fairy/betza.h"

/* One expected atom: step, range, flags, legs. */
typedef struct Want {
    int dx, dy, range, flags, nlegs;
    int leg[2][2];
} Want;

#define MC (BZ_MOVE | BZ_CAPTURE)

static BetzaMoves parse_ok(const char *text)
{
    BetzaMoves m;
    Error e = { "" };
    if (betza_parse(text, &m, &e) != 0)
        fail_msg("'%s' refused: %s", text, e.msg);
    return m;
}

static const BetzaAtom *find(const BetzaMoves *m, int dx, int dy)
{
    const BetzaAtom *hit = NULL;
    for (int i = 0; i < m->n; i++)
        if (m->a[i].dx == dx && m->a[i].dy == dy) {
            if (hit)
                fail_msg("two atoms for the step (%d,%d)", dx, dy);
            hit = &m->a[i];
        }
    return hit;
}

/* text gives exactly the atoms of want (order free; one atom a step). */
static void expect(const char *text, const Want *want, int n)
{
    BetzaMoves m = parse_ok(text);
    if (m.n != n)
        fail_msg("'%s': %d atoms, expected %d", text, m.n, n);
    for (int i = 0; i < n; i++) {
        const BetzaAtom *a = find(&m, want[i].dx, want[i].dy);
        if (!a)
            fail_msg("'%s': no atom for the step (%d,%d)", text, want[i].dx, want[i].dy);
        if (a->range != want[i].range || a->flags != want[i].flags ||
            a->nlegs != want[i].nlegs)
            fail_msg("'%s' step (%d,%d): range %d flags %d legs %d, expected %d %d %d",
                     text, want[i].dx, want[i].dy, a->range, a->flags, a->nlegs,
                     want[i].range, want[i].flags, want[i].nlegs);
        for (int l = 0; l < a->nlegs; l++)
            if (a->leg[l][0] != want[i].leg[l][0] || a->leg[l][1] != want[i].leg[l][1])
                fail_msg("'%s' step (%d,%d): leg %d is (%d,%d), expected (%d,%d)", text,
                         want[i].dx, want[i].dy, l, a->leg[l][0], a->leg[l][1],
                         want[i].leg[l][0], want[i].leg[l][1]);
    }
}

/* The eight orientations of the step (a, b), all with one range/flags. */
static int eight(int a, int b, int range, int flags, Want *w)
{
    int n = 0;
    int v[8][2] = { { a, b }, { -a, b }, { a, -b }, { -a, -b },
                    { b, a }, { -b, a }, { b, -a }, { -b, -a } };
    for (int i = 0; i < 8; i++) {
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= w[j].dx == v[i][0] && w[j].dy == v[i][1];
        if (!dup)
            w[n++] = (Want){ v[i][0], v[i][1], range, flags, 0, { { 0, 0 }, { 0, 0 } } };
    }
    return n;
}

/* issue 24 PART-2: the orthodox pieces. */
static void test_part2_orthodox_pieces(void **state)
{
    (void)state;
    Want w[32];
    int n;
    n = eight(1, 0, 0, MC, w);
    assert_int_equal(n, 4);
    expect("R", w, n);
    n = eight(1, 1, 0, MC, w);
    assert_int_equal(n, 4);
    expect("B", w, n);
    n = eight(1, 0, 0, MC, w);
    n += eight(1, 1, 0, MC, w + n);
    assert_int_equal(n, 8);
    expect("Q", w, n);
    n = eight(2, 1, 1, MC, w);
    assert_int_equal(n, 8);
    expect("N", w, n);
    n = eight(1, 0, 1, MC, w);
    n += eight(1, 1, 1, MC, w + n);
    expect("K", w, n);
    expect("WF", w, n);
}

/* issue 24 PART-2: every leaper letter, and the compounds of Capablanca
 * chess and Grand chess. */
static void test_part2_leapers_and_compounds(void **state)
{
    (void)state;
    static const struct { const char *t; int a, b, n; } leap[] = {
        { "W", 1, 0, 4 }, { "F", 1, 1, 4 }, { "D", 2, 0, 4 }, { "N", 2, 1, 8 },
        { "A", 2, 2, 4 }, { "H", 3, 0, 4 }, { "C", 3, 1, 8 }, { "Z", 3, 2, 8 },
        { "G", 3, 3, 4 }, { "L", 3, 1, 8 }, { "J", 3, 2, 8 },
    };
    Want w[32];
    for (size_t i = 0; i < sizeof leap / sizeof leap[0]; i++) {
        int n = eight(leap[i].a, leap[i].b, 1, MC, w);
        assert_int_equal(n, leap[i].n);
        expect(leap[i].t, w, n);
    }
    int n = eight(1, 1, 0, MC, w);
    n += eight(2, 1, 1, MC, w + n);
    expect("BN", w, n);       /* archbishop */
    expect("NB", w, n);
    n = eight(1, 0, 0, MC, w);
    n += eight(2, 1, 1, MC, w + n);
    expect("RN", w, n);       /* chancellor */
    n = eight(1, 0, 0, MC, w);
    n += eight(1, 1, 0, MC, w + n);
    n += eight(2, 1, 1, MC, w + n);
    assert_int_equal(n, 16);
    expect("QN", w, n);       /* amazon */
    expect("", w, 0);         /* an immobile piece */
}

/* issue 24 PART-2: riders -- doubled leapers, ranges. */
static void test_part2_riders_and_ranges(void **state)
{
    (void)state;
    Want w[32];
    int n = eight(2, 1, 0, MC, w);
    expect("NN", w, n);       /* nightrider */
    n = eight(1, 0, 0, MC, w);
    expect("WW", w, n);       /* WW is the rook */
    n = eight(1, 0, 4, MC, w);
    expect("R4", w, n);
    expect("W4", w, n);
    n = eight(1, 0, 2, MC, w);
    expect("W2", w, n);
    n = eight(1, 1, 12, MC, w);
    expect("B12", w, n);      /* a number, not only a digit */
    n = eight(2, 1, 3, MC, w);
    expect("NN3", w, n);
    n = eight(1, 0, 1, MC, w);
    expect("R1", w, n);       /* a ride of one step is a leap */
    n = eight(1, 0, 2, MC, w);
    n += eight(1, 1, 2, MC, w + n);
    expect("K2", w, n);       /* K is WF: K2 is Q2 */
    expect("Q2", w, n);
}

/* issue 24 PART-2: m and c -- the pawn written as a piece, and pieces that
 * move one way and capture another. */
static void test_part2_move_and_capture(void **state)
{
    (void)state;
    const Want pawn[] = {
        { 0, 1, 1, BZ_MOVE, 0, { { 0, 0 } } },
        { 1, 1, 1, BZ_CAPTURE, 0, { { 0, 0 } } },
        { -1, 1, 1, BZ_CAPTURE, 0, { { 0, 0 } } },
    };
    expect("fmWfcF", pawn, 3);
    expect("fcFfmW", pawn, 3);
    expect("mfWcfF", pawn, 3);   /* modifiers in any order */
    Want w[32];
    int n = eight(2, 1, 1, BZ_MOVE, w);
    n += eight(1, 1, 0, BZ_CAPTURE, w + n);
    expect("mNcB", w, n);        /* knibis */
    n = eight(1, 0, 1, BZ_CAPTURE, w);
    expect("cW", w, n);          /* clobber */
    n = eight(1, 0, 1, MC, w);
    expect("mWcW", w, n);        /* folded into one atom a step */
    expect("mcW", w, n);
}

/* issue 24 PART-2: the initial move (i) and lame leaps (n), with the
 * squares that must be empty. */
static void test_part2_initial_and_lame(void **state)
{
    (void)state;
    const Want dbl[] = {
        { 0, 1, 1, BZ_MOVE, 0, { { 0, 0 } } },
        { 0, 2, 1, BZ_MOVE | BZ_INITIAL, 1, { { 0, 1 } } },
        { 1, 1, 1, BZ_CAPTURE, 0, { { 0, 0 } } },
        { -1, 1, 1, BZ_CAPTURE, 0, { { 0, 0 } } },
    };
    expect("fmWfcFifmnD", dbl, 4);
    const Want horse[] = {
        { 1, 2, 1, MC, 1, { { 0, 1 } } },   { -1, 2, 1, MC, 1, { { 0, 1 } } },
        { 1, -2, 1, MC, 1, { { 0, -1 } } }, { -1, -2, 1, MC, 1, { { 0, -1 } } },
        { 2, 1, 1, MC, 1, { { 1, 0 } } },   { 2, -1, 1, MC, 1, { { 1, 0 } } },
        { -2, 1, 1, MC, 1, { { -1, 0 } } }, { -2, -1, 1, MC, 1, { { -1, 0 } } },
    };
    expect("nN", horse, 8);                 /* the xiangqi horse */
    const Want eleph[] = {
        { 2, 2, 1, MC, 1, { { 1, 1 } } },   { -2, 2, 1, MC, 1, { { -1, 1 } } },
        { 2, -2, 1, MC, 1, { { 1, -1 } } }, { -2, -2, 1, MC, 1, { { -1, -1 } } },
    };
    expect("nA", eleph, 4);                 /* the xiangqi elephant */
    const Want jeleph[] = {
        { 2, 3, 1, MC, 2, { { 0, 1 }, { 1, 2 } } },
        { -2, 3, 1, MC, 2, { { 0, 1 }, { -1, 2 } } },
        { 2, -3, 1, MC, 2, { { 0, -1 }, { 1, -2 } } },
        { -2, -3, 1, MC, 2, { { 0, -1 }, { -1, -2 } } },
        { 3, 2, 1, MC, 2, { { 1, 0 }, { 2, 1 } } },
        { 3, -2, 1, MC, 2, { { 1, 0 }, { 2, -1 } } },
        { -3, 2, 1, MC, 2, { { -1, 0 }, { -2, 1 } } },
        { -3, -2, 1, MC, 2, { { -1, 0 }, { -2, -1 } } },
    };
    expect("nZ", jeleph, 8);                /* the janggi elephant */
    Want w[32];
    int n = eight(2, 1, 1, MC, w);
    expect("NnN", w, n);      /* the free leap covers the lame one */
    n = eight(1, 0, 1, MC, w);
    expect("WiW", w, n);      /* and a move at any time the first one */
    n = eight(1, 0, 0, MC | BZ_INITIAL, w);
    expect("iWW", w, n);      /* a rook's ride, on its first move only */
}

/* issue 24 PART-2: hoppers -- the cannon (p) and the grasshopper (g). */
static void test_part2_hoppers(void **state)
{
    (void)state;
    Want w[32];
    int n = eight(1, 0, 0, MC | BZ_HOP, w);
    expect("pR", w, n);                     /* janggi cannon */
    n = eight(1, 1, 0, MC | BZ_GRASSHOP, w);
    n += eight(1, 0, 0, MC | BZ_GRASSHOP, w + n);
    expect("gQ", w, n);                     /* grasshopper */
    /* the xiangqi cannon: two atoms a direction, one to move, one to hop */
    BetzaMoves m = parse_ok("mRcpR");
    assert_int_equal(m.n, 8);
    int moves = 0, hops = 0;
    for (int i = 0; i < m.n; i++) {
        assert_int_equal(m.a[i].range, 0);
        assert_int_equal(abs(m.a[i].dx) + abs(m.a[i].dy), 1);
        moves += m.a[i].flags == BZ_MOVE;
        hops += m.a[i].flags == (BZ_CAPTURE | BZ_HOP);
    }
    assert_int_equal(moves, 4);
    assert_int_equal(hops, 4);
}

/* Steps of a text, as a sorted string "dx,dy dx,dy ..." (for the
 * direction tests, where only the steps matter). */
static void steps_of(const char *text, char *buf, size_t size)
{
    BetzaMoves m = parse_ok(text);
    int key[BETZA_MAX_ATOMS];
    for (int i = 0; i < m.n; i++)
        key[i] = (m.a[i].dx + 8) * 100 + (m.a[i].dy + 8);
    for (int i = 1; i < m.n; i++)
        for (int j = i; j > 0 && key[j - 1] > key[j]; j--) {
            int t = key[j];
            key[j] = key[j - 1];
            key[j - 1] = t;
        }
    buf[0] = '\0';
    for (int i = 0; i < m.n; i++) {
        size_t l = strlen(buf);
        snprintf(buf + l, size - l, "%s%d,%d", i ? " " : "", key[i] / 100 - 8,
                 key[i] % 100 - 8);
    }
}

static void expect_steps(const char *text, const char *want)
{
    char got[512];
    steps_of(text, got, sizeof got);
    if (strcmp(got, want) != 0)
        fail_msg("'%s' steps %s, expected %s", text, got, want);
}

/* issue 24 PART-2: direction letters, read as Fairy-Stockfish reads them
 * (a single letter counts double: fN is the shogi knight). */
static void test_part2_directions(void **state)
{
    (void)state;
    expect_steps("fR", "0,1");                    /* lance */
    expect_steps("bR", "0,-1");
    expect_steps("vR", "0,-1 0,1");
    expect_steps("sR", "-1,0 1,0");
    expect_steps("lW", "-1,0");
    expect_steps("rW", "1,0");
    expect_steps("fsW", "-1,0 0,1 1,0");          /* soldier: split on W */
    expect_steps("frW", "0,1 1,0");
    expect_steps("fF", "-1,1 1,1");
    expect_steps("bF", "-1,-1 1,-1");
    expect_steps("lF", "-1,-1 -1,1");
    expect_steps("frF", "1,1");
    expect_steps("flF", "-1,1");
    expect_steps("fK", "-1,1 0,1 1,1");
    expect_steps("frK", "1,0 1,1");               /* the pair is not split on K */
    expect_steps("fsK", "-1,0 -1,1 1,0 1,1");
    expect_steps("fN", "-1,2 1,2");               /* shogi knight */
    expect_steps("ffN", "-1,2 1,2");
    expect_steps("fsN", "-2,1 2,1");
    expect_steps("bbN", "-1,-2 1,-2");
    expect_steps("bsN", "-2,-1 2,-1");
    expect_steps("vN", "-1,-2 -1,2 1,-2 1,2");
    expect_steps("sN", "-2,-1 -2,1 2,-1 2,1");
    expect_steps("lN", "-2,-1 -2,1");
    expect_steps("rrN", "2,-1 2,1");
    expect_steps("lfN", "-1,2");
    expect_steps("flN", "-2,1");
    expect_steps("rbN", "1,-2");
    expect_steps("brN", "2,-1");
    expect_steps("lvN", "-1,-2 -1,2");
    expect_steps("fNbW", "-1,2 0,-1 1,2");        /* directions end with their letter */
    expect_steps("FfW", "-1,-1 -1,1 0,1 1,-1 1,1"); /* silver */
    expect_steps("WfF", "-1,0 -1,1 0,-1 0,1 1,0 1,1"); /* gold */
    expect_steps("fbR", "0,-1 0,1");
    expect_steps("lrN", "-2,-1 -2,1 2,-1 2,1");
    expect_steps("ifmnD", "0,2");
}

/* One atom a step: a ride covers its own first step, a wider move or
 * capture set covers a narrower one, merged atoms fold in what they cover. */
static void test_part2_one_atom_per_direction(void **state)
{
    (void)state;
    Want w[32];
    int n = eight(1, 0, 0, MC, w);
    expect("RW", w, n);
    expect("WR", w, n);
    expect("mRcR", w, n);
    expect("mRcWcR", w, n);
    expect("R4R", w, n);
    expect("RR", w, n);
    n = eight(1, 0, 5, MC, w);
    expect("R2R5", w, n);
    n = eight(2, 1, 0, MC, w);
    expect("NNN", w, n);
    /* different kinds of the same step stay apart */
    BetzaMoves m = parse_ok("RpR");
    assert_int_equal(m.n, 8);
    m = parse_ok("mWcF");
    assert_int_equal(m.n, 8);
    m = parse_ok("WD");
    assert_int_equal(m.n, 8);
}

static void expect_error(const char *text, const char *word)
{
    BetzaMoves m;
    memset(&m, 0x5a, sizeof m);
    BetzaMoves before = m;
    Error e = { "" };
    if (betza_parse(text, &m, &e) == 0)
        fail_msg("'%s' accepted, expected an error with \"%s\"", text ? text : "(null)", word);
    if (!strstr(e.msg, word))
        fail_msg("'%s': message \"%s\" lacks \"%s\"", text ? text : "(null)", e.msg, word);
    if (memcmp(&m, &before, sizeof m) != 0)
        fail_msg("'%s': the output changed on an error", text ? text : "(null)");
}

/* issue 24 PART-2: a bad text is refused, naming the character and its
 * position, and the output is left as it was. */
static void test_part2_errors(void **state)
{
    (void)state;
    expect_error("BNX", "'X' at 3 in 'BNX' is not a Betza letter");
    expect_error("Rx", "'x' at 2");
    expect_error("R Q", "' ' at 2");
    expect_error("fm", "ends with modifiers");
    expect_error("Wf", "ends with modifiers");
    expect_error("R0", "range 0 at 2");
    expect_error("R16", "range 16 at 2");
    expect_error("R99999999999", "is not 1..15");
    expect_error("4R", "'4' at 1");
    expect_error("pW", "needs a rider");
    expect_error("gN", "needs a rider");
    expect_error("pR4", "takes no range");
    expect_error("nR", "only a leap can be lame");
    expect_error("nNN", "only a leap can be lame");
    expect_error("pgR", "not both");
    expect_error("sfN", "'sf' at 1");
    expect_error("vlN", "no direction of N");
    expect_error("hR", "'h' at 1");
    expect_error("feF", "'e' at 2");
    expect_error("W\x01", "byte 0x01 at 2");
    expect_error(NULL, "no Betza text");
    /* every atom there is, and then more: the table's bound is an error */
    expect_error("WFDNAHCZGpQgQpNN", "more than 64");
    BetzaMoves m = parse_ok("WFDNAHCZGpQgQ");
    assert_int_equal(m.n, BETZA_MAX_ATOMS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_part2_orthodox_pieces),
        cmocka_unit_test(test_part2_leapers_and_compounds),
        cmocka_unit_test(test_part2_riders_and_ranges),
        cmocka_unit_test(test_part2_move_and_capture),
        cmocka_unit_test(test_part2_initial_and_lame),
        cmocka_unit_test(test_part2_hoppers),
        cmocka_unit_test(test_part2_directions),
        cmocka_unit_test(test_part2_one_atom_per_direction),
        cmocka_unit_test(test_part2_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
