/*
 * test_tile_brute.c -- self-checks of the Tile Chess brute-force reference
 * (tests/support/tile_brute.[ch]) that need no engine: tiny hand-built
 * positions, one per rule (TILE-n in the test's name), whose legal lists and
 * counts were counted by hand from the rules (docs/RULES.md) and the
 * contract (docs/TILE.md) before being checked here (the count is explained
 * in the comment above each test); the start position's perft at depths 1
 * to 3; refusals of malformed position strings; the canonical string read
 * back unchanged.
 *
 * Invariant: every asserted number comes from the reasoning in the comment
 * beside it, not from a run of the brute; squares are written x,y (x to the
 * right, y up) and every position is drawn in its comment.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/tile_brute.h"

#define START2 "hand:w=KQRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:w first:w"

/* A position of an nsides game with the given parameters; fails if refused. */
static TbPos load_with(const char *text, int nsides, int orth, int lenient)
{
    TbPos p;
    char err[256];
    if (tb_parse(&p, text, nsides, -1, orth, lenient, err, sizeof err) < 0)
        fail_msg("refused %s: %s", text, err);
    return p;
}

static TbPos load(const char *text) { return load_with(text, 2, 0, 0); }

static int nlegal(const TbPos *p) { return tb_legal_texts(p, NULL, 0); }

static int has(const TbPos *p, const char *text)
{
    char t[512][TB_TEXT];
    int n = tb_legal_texts(p, t, 512);
    assert_true(n <= 512);
    for (int i = 0; i < n; i++)
        if (strcmp(t[i], text) == 0)
            return 1;
    return 0;
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

/* Append s and a space to the string dst of n bytes (cut if full). */
static void append(char *dst, size_t n, const char *s)
{
    size_t len = strlen(dst), k = strlen(s);
    if (len + k + 2 > n)
        return;
    memcpy(dst + len, s, k);
    dst[len + k] = ' ';
    dst[len + k + 1] = '\0';
}

/* The legal list must be exactly want (NULL-terminated, sorted). */
static void assert_legal(const TbPos *p, const char *const *want)
{
    char t[512][TB_TEXT], got[2048] = "", exp[2048] = "";
    char w[512][TB_TEXT];
    int n = tb_legal_texts(p, t, 512), k = 0;
    for (int i = 0; i < n && i < 512; i++)
        append(got, sizeof got, t[i]);
    for (; want[k]; k++)
        snprintf(w[k], TB_TEXT, "%s", want[k]);
    qsort(w, (size_t)k, sizeof *w, cmp_text);   /* the brute sorts by strcmp */
    for (int i = 0; i < k; i++)
        append(exp, sizeof exp, w[i]);
    if (strcmp(got, exp) != 0)
        fail_msg("legal list\n  got  %s\n  want %s", got, exp);
}

/* How many legal actions start with prefix (a piece's moves: "0,0-"). */
static int count_prefix(const TbPos *p, const char *prefix)
{
    char t[512][TB_TEXT];
    int n = tb_legal_texts(p, t, 512), k = 0;
    assert_true(n <= 512);
    for (int i = 0; i < n; i++)
        k += strncmp(t[i], prefix, strlen(prefix)) == 0;
    return k;
}

static void play(TbPos *p, const char *text)
{
    if (tb_play(p, text) < 0)
        fail_msg("%s is not legal here", text);
}

static void assert_string(const TbPos *p, const char *want)
{
    char s[4096];
    tb_format(p, s, sizeof s);
    assert_string_equal(s, want);
}

/* ---- TILE-2: placement -------------------------------------------------------- */

/* TILE-1, TILE-2: the start.  Depth 1: White places one of Q R B N P on 0,0
 * (the King only last): 5.  Depth 2: Black places one of its 5 figures on
 * one of the 8 neighbours: 5 * 40 = 200.  Depth 3: the two pieces touch by
 * a side (4 of Black's squares) and White's frontier is the 4x3 box less 2
 * = 10 squares, or by a corner (4 squares) and it is two 3x3 boxes sharing
 * 2x2, 14 less 2 = 12; White has 5 figures left unless it placed its only
 * Queen (4): (4 + 4*5) * 5 * (4*10 + 4*12) = 24 * 5 * 88 = 10560. */
static void test_tile2_start_perft(void **state)
{
    (void)state;
    TbPos p = load(START2);
    const char *first[] = {"B@0,0", "N@0,0", "P@0,0", "Q@0,0", "R@0,0", NULL};
    assert_legal(&p, first);
    assert_int_equal(tb_perft(&p, 1), 5);
    assert_int_equal(tb_perft(&p, 2), 200);
    assert_int_equal(tb_perft(&p, 3), 10560);
    play(&p, "Q@0,0");
    assert_string(&p, "wQ0,0 hand:w=KRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:b first:w");
    assert_false(has(&p, "Q@0,0"));    /* only on an empty table */
    assert_false(has(&p, "K@1,0"));    /* the King last */
    assert_false(has(&p, "Q@2,0"));    /* not touching */
    assert_true(has(&p, "Q@1,1"));     /* a corner is enough */
    assert_int_equal(nlegal(&p), 40);
}

/* TILE-2: a seat with an empty hand is skipped; `first` moves first.
 *   . wK bQ?    White has nothing in hand, Black places twice in a row.
 * Black's Q: the 8 neighbours of 0,0 (its K must wait): 8. */
static void test_tile2_empty_hand_skipped(void **state)
{
    (void)state;
    TbPos p = load("wK0,0 hand:b=KQ turn:b first:w");
    assert_int_equal(nlegal(&p), 8);
    assert_false(has(&p, "K@1,0"));
    play(&p, "Q@1,0");
    assert_string(&p, "wK0,0 bQ1,0 hand:b=K turn:b first:w");
    /* Black's King: frontier of 0,0 and 1,0 is the 4x3 box less 2 = 10;
     * not next to wK0,0 leaves 2,-1 2,0 2,1 (TILE-2 (b)). */
    const char *kings[] = {"K@2,-1", "K@2,0", "K@2,1", NULL};
    assert_legal(&p, kings);
    play(&p, "K@2,0");
    assert_string(&p, "wK0,0 bQ1,0 bK2,0 turn:w");  /* move phase, first = w */
}

/* TILE-2, TILE-7: the King restriction judged with trapped attackers.
 *   y=0:  wQ0,0 bQ1,0     Black then White place their Kings.
 * Black's frontier: 10 squares (x -1..2, y -1..1).  wQ attacks 0,±1,
 * 1,±1 (bK touching bQ too: wQ not trapped, check: refused) and -1,* (bK
 * touching only wQ: wQ is then the only link, trapped, so only threatened:
 * allowed); its row to the right stops on bQ, so 2,* are free: 6 squares.
 * White after K@2,0: frontier x -1..3 (12 squares), not next to bK leaves
 * -1,* and 0,±1; bQ attacks 0,±1, but with wK there bQ is the only link to
 * bK2,0, trapped: allowed.  5 squares; then the move phase, White first. */
static void test_tile2_king_restriction_threat_allowed(void **state)
{
    (void)state;
    TbPos p = load("wQ0,0 bQ1,0 hand:w=K,b=K turn:b first:w");
    const char *black[] = {"K@-1,-1", "K@-1,0", "K@-1,1", "K@2,-1", "K@2,0", "K@2,1", NULL};
    assert_legal(&p, black);
    play(&p, "K@2,0");
    const char *white[] = {"K@-1,-1", "K@-1,0", "K@-1,1", "K@0,-1", "K@0,1", NULL};
    assert_legal(&p, white);
    play(&p, "K@0,1");
    assert_string(&p, "wK0,1 wQ0,0 bQ1,0 bK2,0 turn:w");
    assert_false(tb_in_check(&p, 0));   /* threatened by a trapped bQ only */
}

/* TILE-2: the restriction lapses when no square satisfies it: White's King
 * must go next to bK0,0 (all 8 frontier squares touch it): 8 legal.  Then
 * a table where some squares satisfy it: only those are legal. */
static void test_tile2_king_restriction_lapses(void **state)
{
    (void)state;
    TbPos p = load("bK0,0 hand:w=K turn:w");
    assert_int_equal(nlegal(&p), 8);
    assert_true(has(&p, "K@1,0"));
    assert_true(has(&p, "K@-1,-1"));
    /* with a rook, some squares are fine and only those are legal:
     *   bR2,1 touches wQ1,0; bK0,0 wQ1,0.  Frontier 14 squares; not next to
     *   bK: 1,2 2,-1 2,0 2,2 3,0 3,1 3,2; bR attacks 2,2 2,0 2,-1 3,1; on
     *   2,2 and 3,1 the wK touches only bR, which is then trapped
     *   (threatened: allowed); on 2,0 and 2,-1 bR stays free: check.  5. */
    TbPos q = load("bR2,1 bK0,0 wQ1,0 hand:w=K turn:w");
    const char *want[] = {"K@1,2", "K@2,2", "K@3,0", "K@3,1", "K@3,2", NULL};
    assert_legal(&q, want);
}

/* ---- TILE-3, TILE-6: unity and trapped --------------------------------------- */

/* TILE-3, TILE-6: the chain wK0,0 wR1,0 wP2,0 bK3,0.  wR and wP are the
 * only links (trapped, no move); the Kings are ends (one neighbour: never
 * trapped).  wK may go only where it still touches wR: 0,1 0,-1 1,1 1,-1
 * (the -1,* squares split the table).  4 moves. */
static void test_tile3_6_chain(void **state)
{
    (void)state;
    TbPos p = load("wK0,0 wR1,0 wP2,0 bK3,0 turn:w");
    assert_false(tb_trapped(&p, tb_at(&p, 0, 0)));
    assert_true(tb_trapped(&p, tb_at(&p, 1, 0)));
    assert_true(tb_trapped(&p, tb_at(&p, 2, 0)));
    assert_false(tb_trapped(&p, tb_at(&p, 3, 0)));
    const char *want[] = {"0,0-0,-1", "0,0-0,1", "0,0-1,-1", "0,0-1,1", NULL};
    assert_legal(&p, want);
    assert_false(has(&p, "0,0--1,0"));   /* TILE-3: the King would be apart */
    assert_false(has(&p, "1,0-1,1"));    /* TILE-6: the trapped Rook */
}

/* TILE-6 parameter lenient_trapped: the same chain; a trapped piece may
 * move where the table is one group after: wR to 1,1 or 1,-1 (touching
 * both wK and wP), wP to 2,1 or 2,-1 (touching wR and bK; 3,±1 and 1,±1
 * leave one end apart; wR x bK leaves wK apart).  4 + 2 + 2 = 8. */
static void test_tile6_lenient_trapped(void **state)
{
    (void)state;
    TbPos p = load_with("wK0,0 wR1,0 wP2,0 bK3,0 turn:w", 2, 0, 1);
    const char *want[] = {"0,0-0,-1", "0,0-0,1", "0,0-1,-1", "0,0-1,1", "1,0-1,-1",
                          "1,0-1,1", "2,0-2,-1", "2,0-2,1", NULL};
    assert_legal(&p, want);
}

/* ---- TILE-4, TILE-7: passing over, threatened squares ---------------------------
 *   y=1:  wK0,1 .    bK2,1
 *   y=0:  wR0,0 wB1,0 .   bN3,0
 * wB1,0 (the only link between the White pair and the Black pair) and bK
 * (bN hangs on it) are trapped.  The Rook: right, over wB (own), 2,0 then
 * bN 3,0 taken and the ray ends (not 4,0); left -1,0; up over wK to 0,2;
 * down 0,-1 (rays end one square beyond the bounding box): 5.  The King
 * from 0,1: -1,0 -1,1 touch wR; -1,2 and 0,2 touch nothing; 1,1 is
 * attacked by bN (free: check); 1,2 touches bK, attacked only by bK, which
 * is trapped (TILE-7: threatened, allowed): 3.  wB trapped: 0.  8. */
static void test_tile4_pass_over_own_stopped_by_enemy(void **state)
{
    (void)state;
    TbPos p = load("wK0,1 bK2,1 wR0,0 wB1,0 bN3,0 turn:w");
    const char *want[] = {"0,0--1,0", "0,0-0,-1", "0,0-0,2", "0,0-2,0", "0,0-3,0",
                          "0,1--1,0", "0,1--1,1", "0,1-1,2", NULL};
    assert_legal(&p, want);
}

/* TILE-7: a King next to a trapped enemy King: 0,1-1,2 above is legal and
 * leaves wK threatened by the trapped bK, not in check; bK is in check
 * from wK, which touches only bK (one neighbour: never trapped). */
static void test_tile7_king_next_to_trapped_king(void **state)
{
    (void)state;
    TbPos p = load("wK0,1 bK2,1 wR0,0 wB1,0 bN3,0 turn:w");
    play(&p, "0,1-1,2");
    assert_false(tb_in_check(&p, 0));
    assert_true(tb_in_check(&p, 1));
    assert_true(tb_trapped(&p, tb_at(&p, 2, 1)));
}

/* TILE-7, TILE-8: a King attacked only by a trapped Rook ignores it.
 *   y=1:  wP-1,1
 *   y=0:  wN-1,0 wK0,0 bR1,0 bK2,0
 * bR is the only link to bK: trapped, wK threatened (not in check); wK is
 * trapped too.  wP: -2,1 0,1 -2,0 (the other steps touch nothing); 0,1
 * touches bR but bK still hangs on bR alone.  wN: 0,2 and -2,2 (touching
 * wP); 1,1 and 1,-1 would link wK to bK around bR, freeing it: check
 * (TILE-8, judged after the move): illegal.  5. */
static void test_tile7_threat_ignored_freeing_is_check(void **state)
{
    (void)state;
    TbPos p = load("wP-1,1 wN-1,0 wK0,0 bR1,0 bK2,0 turn:w");
    assert_false(tb_in_check(&p, 0));
    const char *want[] = {"-1,0--2,2", "-1,0-0,2", "-1,1--2,0", "-1,1--2,1", "-1,1-0,1",
                          NULL};
    assert_legal(&p, want);
}

/* TILE-8: check escaped by trapping the attacker.
 *   y=1:  .    wN1,1
 *   y=0:  wK0,0 bR1,0 bK2,0
 * wN links wK to bK around bR: bR is free and checks wK.  wN: 3,0 2,-1
 * 0,-1 -1,0 all leave bR the only link (trapped: check gone); -1,2 2,3
 * 3,2 0,3 touch nothing.  wK: 0,1 and 0,-1 (off bR's lines); 1,-1 is on
 * bR's file with bR free; wK x bR lands next to bK, free: check; -1,*
 * touch nothing.  6. */
static void test_tile8_escape_by_trapping_attacker(void **state)
{
    (void)state;
    TbPos p = load("wN1,1 wK0,0 bR1,0 bK2,0 turn:w");
    assert_true(tb_in_check(&p, 0));
    const char *want[] = {"0,0-0,-1", "0,0-0,1", "1,1--1,0", "1,1-0,-1", "1,1-2,-1",
                          "1,1-3,0", NULL};
    assert_legal(&p, want);
    play(&p, "1,1-3,0");
    assert_false(tb_in_check(&p, 0));
}

/* ---- TILE-5: pawns ------------------------------------------------------------------
 *   y=1:  .      .     bP1,1
 *   y=0:  .      wP0,0 bK1,0
 *   y=-1: wK-1,-1 wR0,-1 .
 * wP is not trapped (wK-wR-bK-bP hold together).  Its steps: 1,1 taken
 * (diagonal capture); 0,1 -1,0 1,-1 (empty, touching); -1,1 touches
 * nothing; 1,0 holds bK (no orthogonal capture); -1,-1 0,-1 own: 4.
 * orthogonal_pawns: the diagonal step 1,-1 goes, the capture stays: 3. */
static void test_tile5_pawn_eight_steps_diagonal_capture(void **state)
{
    (void)state;
    const char *pos = "bP1,1 wP0,0 bK1,0 wK-1,-1 wR0,-1 turn:w";
    TbPos p = load(pos);
    assert_int_equal(count_prefix(&p, "0,0-"), 4);
    assert_true(has(&p, "0,0-1,1"));
    assert_true(has(&p, "0,0-0,1"));
    assert_true(has(&p, "0,0--1,0"));
    assert_true(has(&p, "0,0-1,-1"));
    assert_false(has(&p, "0,0-1,0"));
    TbPos q = load_with(pos, 2, 1, 0);
    assert_int_equal(count_prefix(&q, "0,0-"), 3);
    assert_false(has(&q, "0,0-1,-1"));
    assert_true(has(&q, "0,0-1,1"));
}

/* ---- TILE-9: pass ----------------------------------------------------------------
 *   y=0:  wN-1,0 wK0,0 bR1,0 bK2,0
 * wK and bR are trapped; wN's only touching jumps 1,1 and 1,-1 free bR
 * (check): White must pass.  Black then: bK to 2,1 2,-1 (1,±1 are
 * attacked by the free wN; wK is trapped); bR trapped: 2 moves, and the
 * move resets the passes.  With passes:1 already, White's pass ends the
 * game (every seat passed in a row): a draw, no action. */
static void test_tile9_forced_pass(void **state)
{
    (void)state;
    TbPos p = load("wN-1,0 wK0,0 bR1,0 bK2,0 turn:w");
    const char *pass[] = {"pass", NULL};
    assert_legal(&p, pass);
    play(&p, "pass");
    assert_string(&p, "wN-1,0 wK0,0 bR1,0 bK2,0 turn:b passes:1");
    const char *black[] = {"2,0-2,-1", "2,0-2,1", NULL};
    assert_legal(&p, black);
    assert_int_equal(tb_perft(&p, 1), 2);
    play(&p, "2,0-2,1");
    assert_int_equal(p.passes, 0);
    TbPos q = load("wN-1,0 wK0,0 bR1,0 bK2,0 turn:w passes:1");
    play(&q, "pass");
    assert_true(tb_over(&q));
    assert_int_equal(nlegal(&q), 0);
    assert_int_equal(tb_perft(&q, 2), 0);
}

/* ---- TILE-10: King capture -----------------------------------------------------------
 * Four sides, blue already commanded by Black:
 *   y=1:          wP0,1
 *   y=0:  wK-1,0  wR0,0 bK1,0 uP2,0 rK3,0
 * wR x bK: White takes Black's colour and the blue one Black held; Black
 * is out, blue was out: the turn goes to red.  The pawn wP0,1 keeps wK
 * linked to wR1,0.  Then blue is an enemy of red: rK may take uP (landing
 * next to wR, which is trapped then: only threatened), and blue is a
 * friend of White: its Rook passes over uP. */
static void test_tile10_king_capture_hands_two_colours(void **state)
{
    (void)state;
    TbPos p = load_with("wP0,1 wK-1,0 wR0,0 bK1,0 uP2,0 rK3,0 turn:w cmd:u=b", 4, 0, 0);
    assert_true(has(&p, "0,0-1,0"));
    play(&p, "0,0-1,0");
    assert_string(&p, "wP0,1 wK-1,0 wR1,0 uP2,0 rK3,0 turn:r cmd:b=w,u=w");
    assert_false(tb_in_game(&p, 1));
    assert_false(tb_over(&p));
    assert_true(has(&p, "3,0-2,0"));
    /* White's Rook passes over the blue pawn and takes rK (wB1,1 keeps
     * the table whole); uP is never its target; red gone, White alone. */
    TbPos r = load_with("wP0,1 wB1,1 wK-1,0 wR1,0 uP2,0 rK3,0 turn:w cmd:b=w,u=w", 4, 0, 0);
    assert_true(has(&r, "1,0-3,0"));
    assert_false(has(&r, "1,0-2,0"));
    play(&r, "1,0-3,0");
    assert_true(tb_over(&r));
    /* two sides: capturing the King ends the game */
    TbPos q = load("wP0,1 wK-1,0 wR0,0 bK1,0 turn:w");
    play(&q, "0,0-1,0");
    assert_true(tb_over(&q));
    assert_string(&q, "wP0,1 wK-1,0 wR1,0 turn:w cmd:b=w");
    assert_int_equal(nlegal(&q), 0);
}

/* ---- Position strings -------------------------------------------------------------- */

static void refused(const char *text, int nsides, const char *want)
{
    TbPos p;
    char err[256] = "";
    if (tb_parse(&p, text, nsides, -1, 0, 0, err, sizeof err) == 0)
        fail_msg("accepted: %s", text);
    if (!strstr(err, want))
        fail_msg("%s: message '%s' lacks '%s'", text, err, want);
}

/* The contract's list of refusals, each with a message naming it. */
static void test_tile_malformed_refused(void **state)
{
    (void)state;
    refused("xK0,0 bK1,0 turn:w", 2, "colour letter");
    refused("wK0,0 rK1,0 turn:w", 2, "beyond");
    refused("wK0,0 bK1,0 turn:x", 2, "colour letter");
    refused("wK0 bK1,0 turn:w", 2, "square");
    refused("wK0,0 bK1,0x turn:w", 2, "square");
    refused("wK1000001,0 bK1000000,0 turn:w", 2, "square");
    refused("wK0,0 bK0,0 turn:w", 2, "two pieces");
    refused("wK0,0 bK2,0 turn:w", 2, "group");
    refused("wK0,0 bQ1,0 turn:w", 2, "Kings");
    refused("wK0,0 wK1,0 bK2,0 turn:w", 2, "more K");
    refused("wK0,0 bK1,0", 2, "turn");
    refused("wK0,0 bK1,0 turn:w foo", 2, "token");
    refused("wK0,0 wQ1,0 wQ2,0 bK3,0 turn:w", 2, "army");
    refused("hand:w=KPPPPPPPPP,b=K turn:w", 2, "army");
    refused("wK0,0 hand:w=Q,b=K turn:b", 2, "in hand");
    refused("wQ0,0 hand:w=K,b=K turn:w cmd:b=w", 2, "placement");
    refused("wK0,0 bK1,0 rK2,0 turn:w cmd:r=r", 3, "itself");
    refused("wK0,0 bK1,0 rQ2,0 turn:w cmd:r=u", 3, "beyond");
    refused("wK0,0 uQ1,0 rK2,0 turn:w cmd:b=u,u=w", 4, "out");
    refused("wK0,0 bQ1,0 rK2,0 turn:b cmd:b=w", 3, "out");
}

/* cmd:r=b with rQ on the table and no red King is fine; the same with a
 * red King is a King for a commanded colour; passes above the seats, a
 * turn with an empty hand in placement. */
static void test_tile_more_refusals_and_acceptances(void **state)
{
    (void)state;
    TbPos p;
    char err[256];
    assert_int_equal(tb_parse(&p, "wK0,0 bK1,0 rQ2,0 turn:w cmd:r=b", 3, -1, 0, 0, err,
                              sizeof err), 0);
    refused("wK0,0 bK1,0 rK2,0 turn:w cmd:r=b", 3, "commanded");
    refused("wK0,0 bK1,0 turn:w passes:3", 2, "passes");
    refused("wK0,0 hand:b=K turn:w", 2, "nothing in hand");
    refused("wK0,0 bK1,0 rK2,0 turn:w cmd:r=w", 3, "commanded");
}

/* Canonical strings read and written back unchanged (reading order: y
 * down, x up; hands in K Q R B N P order; first only in placement). */
static void test_tile_round_trip(void **state)
{
    (void)state;
    const char *texts[] = {
        START2,
        "wP0,1 wK-1,0 wR1,0 uP2,0 rK3,0 turn:r cmd:b=w,u=w",
        "wQ0,0 bQ1,0 hand:w=K,b=KPP turn:b first:w",
        "wN-1,0 wK0,0 bR1,0 bK2,0 turn:b passes:1",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        TbPos p = load_with(texts[i], i == 1 ? 4 : 2, 0, 0);
        assert_string(&p, texts[i]);
    }
    /* any token order and a missing first: are read; written canonically */
    TbPos q = load("turn:b bQ1,0 hand:b=PKP,w=K wQ0,0");
    assert_string(&q, "wQ0,0 bQ1,0 hand:w=K,b=KPP turn:b first:b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile2_start_perft),
        cmocka_unit_test(test_tile2_empty_hand_skipped),
        cmocka_unit_test(test_tile2_king_restriction_threat_allowed),
        cmocka_unit_test(test_tile2_king_restriction_lapses),
        cmocka_unit_test(test_tile3_6_chain),
        cmocka_unit_test(test_tile6_lenient_trapped),
        cmocka_unit_test(test_tile4_pass_over_own_stopped_by_enemy),
        cmocka_unit_test(test_tile7_king_next_to_trapped_king),
        cmocka_unit_test(test_tile7_threat_ignored_freeing_is_check),
        cmocka_unit_test(test_tile8_escape_by_trapping_attacker),
        cmocka_unit_test(test_tile5_pawn_eight_steps_diagonal_capture),
        cmocka_unit_test(test_tile9_forced_pass),
        cmocka_unit_test(test_tile10_king_capture_hands_two_colours),
        cmocka_unit_test(test_tile_malformed_refused),
        cmocka_unit_test(test_tile_more_refusals_and_acceptances),
        cmocka_unit_test(test_tile_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
