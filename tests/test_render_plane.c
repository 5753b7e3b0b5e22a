/*
 * test_render_plane.c -- the text board for games of more than two
 * colours on the unbounded plane (Tile Chess, TILE-1 .. TILE-8): side
 * numbers and a legend, one colour per side, the marks of a trapped piece
 * (TILE-6) and of a King in check (TILE-8: several at once), the window on
 * a table wider or taller than the screen and its panning, two-colour
 * boards unchanged, and the menu's question of how many sides.
 *
 * Invariant: every assertion reads what the renderers write for a View
 * built by hand or by the test-only toy variant (no Tile engine needed),
 * or what the `chessvar` program prints; each would fail if the behaviour
 * it names were broken.
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
#include "../core/cli/render.h"
#include "support/testutil.h"
#include "support/toy_variant.h"


static const char *const NAMES[6] = {"white", "black", "red", "blue", "green", "yellow"};

static RenderNames names_of(int count)
{
    RenderNames n;
    memset(&n, 0, sizeof n);
    n.nsides = n.nseats = count;
    for (int i = 0; i < count; i++)
        n.side[i] = n.seat[i] = NAMES[i];
    return n;
}

/* An empty View of seat 0 on the plane (width 0) or a bounded board. */
static View *hand_view(int nsides, int width, int height)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    v->nsides = nsides;
    v->geo.bounded = width > 0;
    v->geo.width = width;
    v->geo.height = height;
    v->side_to_move = 0;
    v->seat_to_act = 0;
    return v;
}

static void add_piece(View *v, int x, int y, int side, int fig, int flags)
{
    ViewPiece *p = &v->pieces[v->npieces++];
    p->at = coord_make(x, y);
    p->side = (int8_t)side;
    p->figure = (uint8_t)fig;
    p->flags = (uint8_t)flags;
}

static void assert_contains(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay);
}

static void assert_lacks(const char *hay, const char *needle)
{
    if (strstr(hay, needle))
        fail_msg("\"%s\" should not be in:\n%s", needle, hay);
}

/* The widest line of s, in bytes (ASCII drawings: columns). */
static int widest_line(const char *s)
{
    int w = 0;
    while (*s) {
        int len = (int)strcspn(s, "\n");
        w = len > w ? len : w;
        s += len + (s[len] == '\n');
    }
    return w;
}

/* TILE-1 (2 to 6 sides): with four colours every token is figure letter
 * and side number, in ASCII and in Unicode alike, and a legend under the
 * board says which number is which side. */
static void test_tile1_tokens_and_legend_four_colours(void **state)
{
    (void)state;
    View *v = hand_view(4, 0, 0);
    add_piece(v, 0, 0, 0, FIG_KING, 0);
    add_piece(v, 1, 0, 1, FIG_QUEEN, 0);
    add_piece(v, 0, 1, 2, FIG_ROOK, 0);
    add_piece(v, 1, 1, 3, FIG_PAWN, 0);
    RenderNames n = names_of(4);
    const char *expect =
        "    -1  0   1   2\n"
        " 2  .   .   .   .   2\n"
        " 1  .   R3  P4  .   1\n"
        " 0  .   K1  Q2  .   0\n"
        "-1  .   .   .   .   -1\n"
        "    -1  0   1   2\n"
        "1 white  2 black  3 red  4 blue\n"
        "white to move\n";
    for (int ascii = 0; ascii <= 1; ascii++) {
        RenderOpts o = {.ascii = ascii};
        StrBuf b = STRBUF_INIT;
        render_view_text(v, &n, &o, &b);
        if (ascii) {
            assert_string_equal(sb_str(&b), expect);
        } else {
            assert_contains(sb_str(&b), " 1  \u00B7   R3  P4  \u00B7   1\n");
            assert_contains(sb_str(&b), "1 white  2 black  3 red  4 blue\n");
        }
        sb_free(&b);
    }
    free(v);
}

/* The escape that colours the token `tok` in s (the last one before it). */
static void escape_before(const char *s, const char *tok, char *out, size_t n)
{
    const char *at = strstr(s, tok);
    assert_non_null(at);
    const char *esc = NULL;
    for (const char *p = s; p < at; p++)
        if (p[0] == '\x1b' && strncmp(p, "\x1b[1;38;5;", 9) == 0)
            esc = p;
    assert_non_null(esc);
    size_t len = strcspn(esc, "m") + 1;
    assert_true(len < n);
    memcpy(out, esc, len);
    out[len] = '\0';
    assert_true(esc + len == at); /* right before the token */
}

/* TILE-1: six colours on, each side's token in its own colour (six
 * different escapes), the number still there; the legend shows each name
 * in the same colour as its pieces.  Without colour: no escape at all. */
static void test_tile1_each_side_its_own_colour(void **state)
{
    (void)state;
    View *v = hand_view(6, 0, 0);
    for (int s = 0; s < 6; s++)
        add_piece(v, s, 0, s, FIG_KNIGHT, 0);
    RenderNames n = names_of(6);
    RenderOpts o = {.ascii = 1, .color = 1};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    char esc[6][32];
    for (int s = 0; s < 6; s++) {
        char tok[16], name[32];
        snprintf(tok, sizeof tok, "N%d", s + 1);
        escape_before(sb_str(&b), tok, esc[s], sizeof esc[s]);
        for (int t = 0; t < s; t++)
            if (strcmp(esc[s], esc[t]) == 0)
                fail_msg("sides %d and %d share the colour %s", t, s, esc[s] + 1);
        snprintf(name, sizeof name, "%d %s", s + 1, NAMES[s]);
        char legend_esc[32];
        escape_before(sb_str(&b), name, legend_esc, sizeof legend_esc);
        assert_string_equal(legend_esc, esc[s]);
    }
    sb_reset(&b);
    o.color = 0;
    render_view_text(v, &n, &o, &b);
    assert_lacks(sb_str(&b), "\x1b");
    sb_free(&b);
    free(v);
}

/* TILE-6 and TILE-8: a trapped piece is marked `#`, a King in check `+`
 * (both on a trapped King in check; two Kings in check at once), in ASCII
 * and Unicode, with and without colour; the JSON view names both flags. */
static void test_tile8_check_and_trapped_marks(void **state)
{
    (void)state;
    View *v = hand_view(3, 0, 0);
    add_piece(v, 0, 0, 0, FIG_KING, VP_CHECK);
    add_piece(v, 1, 0, 1, FIG_KING, VP_CHECK | VP_TRAPPED);
    add_piece(v, 2, 0, 2, FIG_ROOK, VP_TRAPPED);
    add_piece(v, 3, 0, 2, FIG_KING, 0);
    RenderNames n = names_of(3);
    for (int mode = 0; mode < 4; mode++) {
        RenderOpts o = {.ascii = mode & 1, .color = mode >> 1};
        StrBuf b = STRBUF_INIT;
        render_board(v, &o, &b);
        assert_contains(sb_str(&b), "K1+");
        assert_contains(sb_str(&b), "K2#+");
        assert_contains(sb_str(&b), "R3#");
        assert_lacks(sb_str(&b), "R3#+");
        assert_lacks(sb_str(&b), "K3+");
        sb_free(&b);
    }
    StrBuf b = STRBUF_INIT;
    render_view_json(v, &n, NULL, 0, &b);
    assert_contains(sb_str(&b), "\"square\":\"0,0\",\"x\":0,\"y\":0,\"side\":\"white\","
                                "\"figure\":\"king\",\"letter\":\"K\",\"flags\":[\"check\"]}");
    assert_contains(sb_str(&b), "\"letter\":\"K\",\"flags\":[\"trapped\",\"check\"]}");
    assert_contains(sb_str(&b), "\"letter\":\"R\",\"flags\":[\"trapped\"]}");
    assert_contains(sb_str(&b), "\"letter\":\"K\",\"flags\":[]}");
    sb_free(&b);
    /* two sides, Unicode figures: the mark follows the figure */
    View *w = hand_view(2, 0, 0);
    add_piece(w, 0, 0, 0, FIG_KING, VP_CHECK);
    add_piece(w, 2, 0, 1, FIG_KING, VP_TRAPPED);
    RenderOpts o = {.ascii = 0};
    render_board(w, &o, &b);
    assert_contains(sb_str(&b), "\u2654+");
    assert_contains(sb_str(&b), "\u265A#");
    sb_free(&b);
    free(w);
    free(v);
}

/* A row of 60 pieces of three sides, x = 0 .. 59 on y = 0, the last move
 * to 30,0 (the window follows it). */
static View *wide_view(void)
{
    View *v = hand_view(3, 0, 0);
    for (int x = 0; x < 60; x++)
        add_piece(v, x, 0, x % 3, x == 30 ? FIG_QUEEN : FIG_PAWN, 0);
    v->has_last = 1;
    v->last_from = coord_make(30, 1);
    v->last_to = coord_make(30, 0);
    return v;
}

/* The columns a drawing shows: the numbers of its first label line (the
 * first line of only a mark, blanks and numbers). */
static void label_range(const char *s, long *first, long *last)
{
    const char *l = s;
    for (;;) {
        size_t len = strcspn(l, "\n");
        assert_true(len > 0);
        if (strspn(l + 1, " -0123456789") == len - 1)
            break;
        l += len + 1;
    }
    const char *nl = strchr(l, '\n');
    char *end;
    *first = strtol(l + 1, &end, 10);
    *last = *first;
    while (end < nl) {
        long x = strtol(end, &end, 10);
        *last = x;
        while (end < nl && *end == ' ')
            end++;
    }
}

/* TILE-2 "display the occupied bounding box plus a margin": wider than the
 * screen, a window of it fits the width, centred on the last move, with
 * the columns and pieces cut off on each side said and `<` `>` at the
 * edges; panned to a square, then to past the left end (kept inside the
 * box); with no width the whole box shows. */
static void test_tile2_wide_table_window_and_pan(void **state)
{
    (void)state;
    View *v = wide_view();
    RenderOpts o = {.ascii = 1, .width = 80};
    StrBuf b = STRBUF_INIT;
    render_board(v, &o, &b);
    const char *s = sb_str(&b);
    assert_true(widest_line(s) <= 80);
    long first, last;
    label_range(s, &first, &last);
    /* the box is -1 .. 60 (margin); the window around 30 */
    assert_true(first > -1 && last < 60 && first <= 30 && last >= 30);
    assert_true(last - first + 1 >= 10); /* it uses the room: 5 columns a square */
    long mid = (first + last) / 2;
    assert_true(mid >= 29 && mid <= 31);
    char want[160];
    snprintf(want, sizeof want, "cut off: left %ld columns (%ld pieces), right %ld columns "
             "(%ld pieces);", first + 1, first, 60 - last, 59 - last);
    assert_contains(s, want);
    assert_contains(s, "pan moves the window\n");
    assert_contains(s, " 0< ");
    assert_contains(s, ">0\n");
    assert_lacks(s, "^");
    RenderWindow w;
    render_window(v, &o, &w);
    assert_int_equal(w.cut, 1);
    assert_int_equal(w.cols, last - first + 1);
    assert_int_equal(w.centre.x, first + (last - first) / 2);
    /* pan to a square: the window is centred there */
    sb_reset(&b);
    o.pan = 1;
    o.pan_at = coord_make(45, 0);
    render_board(v, &o, &b);
    long f2, l2;
    label_range(sb_str(&b), &f2, &l2);
    assert_true(f2 <= 45 && l2 >= 45 && f2 > first);
    assert_int_equal(l2 - f2, last - first);
    /* past the left end: the window stops at the box's first column */
    sb_reset(&b);
    o.pan_at = coord_make(-500, 0);
    render_board(v, &o, &b);
    label_range(sb_str(&b), &f2, &l2);
    assert_int_equal(f2, -1);
    assert_lacks(sb_str(&b), "cut off: left");
    assert_contains(sb_str(&b), "cut off: right");
    assert_lacks(sb_str(&b), "<");
    render_window(v, &o, &w);
    assert_int_equal(w.centre.x, -1 + (w.cols - 1) / 2);
    /* no width: the whole box, nothing said */
    sb_reset(&b);
    o.width = 0;
    render_board(v, &o, &b);
    label_range(sb_str(&b), &f2, &l2);
    assert_int_equal(f2, -1);
    assert_int_equal(l2, 60);
    assert_lacks(sb_str(&b), "cut off");
    render_window(v, &o, &w);
    assert_int_equal(w.cut, 0);
    sb_free(&b);
    free(v);
}

/* The same for height: a column of 40 pieces in 15 lines shows a window
 * of rows with `^` and `v` on the label lines and the rows said. */
static void test_tile2_tall_table_window(void **state)
{
    (void)state;
    View *v = hand_view(3, 0, 0);
    for (int y = 0; y < 40; y++)
        add_piece(v, 0, y, y % 3, FIG_ROOK, 0);
    RenderOpts o = {.ascii = 1, .height = 15};
    StrBuf b = STRBUF_INIT;
    render_board(v, &o, &b);
    int lines = 0;
    for (const char *p = sb_str(&b); *p; p++)
        lines += *p == '\n';
    assert_true(lines <= 15);
    assert_true(lines >= 10);
    assert_contains(sb_str(&b), "\n^");
    assert_contains(sb_str(&b), "\nv");
    assert_contains(sb_str(&b), "above ");
    assert_contains(sb_str(&b), "below ");
    RenderWindow w;
    render_window(v, &o, &w);
    assert_int_equal(w.cut, 1);
    assert_int_equal(w.rows, 10);
    /* pan up as far as it goes: nothing cut above */
    o.pan = 1;
    o.pan_at = coord_make(0, 1000);
    sb_reset(&b);
    render_board(v, &o, &b);
    assert_lacks(sb_str(&b), "above ");
    assert_contains(sb_str(&b), "\n40  .   .   .   40\n");
    sb_free(&b);
    free(v);
}

/* ORTH boards are never cut: an 8x8 board in 20 columns is drawn whole,
 * the same as with no width, and render_window says it is not cut. */
static void test_orth_bounded_board_never_cut(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    game_view(g, 0, v);
    RenderOpts o = {.ascii = 1};
    StrBuf whole = STRBUF_INIT, narrow = STRBUF_INIT;
    render_board(v, &o, &whole);
    o.width = 20;
    o.height = 6;
    render_board(v, &o, &narrow);
    assert_string_equal(sb_str(&narrow), sb_str(&whole));
    RenderWindow w;
    render_window(v, &o, &w);
    assert_int_equal(w.cut, 0);
    sb_free(&whole);
    sb_free(&narrow);
    free(v);
    game_free(g);
}

/* ORTH (two colours): the board is byte-for-byte what it was before the
 * side colours: Unicode glyphs, wood shades, no side colour, no legend. */
static void test_orth_two_colour_board_unchanged(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play(g, 0, "e4");
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    game_view(g, 0, v);
    RenderNames n;
    cli_names(g, &n);
    RenderOpts o = {.ascii = 1, .width = 80, .height = 24};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    const char *expect =
        "   a  b  c  d  e  f  g  h\n"
        "8  r  n  b  q  k  b  n  r  8\n"
        "7  p  p  p  p  p  p  p  p  7\n"
        "6  .  .  .  .  .  .  .  .  6\n"
        "5  .  .  .  .  .  .  .  .  5\n"
        "4  .  .  .  . [P] .  .  .  4\n"
        "3  .  .  .  .  .  .  .  .  3\n"
        "2  P  P  P  P [.] P  P  P  2\n"
        "1  R  N  B  Q  K  B  N  R  1\n"
        "   a  b  c  d  e  f  g  h\n"
        "last move: e4\n"
        "black to move\n";
    assert_string_equal(sb_str(&b), expect);
    sb_reset(&b);
    /* with colours: written by the renderer as it was before (commit
     * 07cf8bd), wood shades and the last move's olive */
    const char *colour =
        "   a  b  c  d  e  f  g  h\n"
        "8 \x1b[30;48;5;223m ♜ \x1b[0m\x1b[30;48;5;180m ♞ \x1b[0m\x1b[30;48;5;223m ♝ \x1b[0m\x1b[30;48;5;180m ♛ \x1b[0m\x1b[30;48;5;223m ♚ \x1b[0m\x1b[30;48;5;180m ♝ \x1b[0m\x1b[30;48;5;223m ♞ \x1b[0m\x1b[30;48;5;180m ♜ \x1b[0m 8\n"
        "7 \x1b[30;48;5;180m ♟ \x1b[0m\x1b[30;48;5;223m ♟ \x1b[0m\x1b[30;48;5;180m ♟ \x1b[0m\x1b[30;48;5;223m ♟ \x1b[0m\x1b[30;48;5;180m ♟ \x1b[0m\x1b[30;48;5;223m ♟ \x1b[0m\x1b[30;48;5;180m ♟ \x1b[0m\x1b[30;48;5;223m ♟ \x1b[0m 7\n"
        "6 \x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m 6\n"
        "5 \x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m 5\n"
        "4 \x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;186m ♙ \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m 4\n"
        "3 \x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m\x1b[30;48;5;180m · \x1b[0m\x1b[30;48;5;223m · \x1b[0m 3\n"
        "2 \x1b[30;48;5;223m ♙ \x1b[0m\x1b[30;48;5;180m ♙ \x1b[0m\x1b[30;48;5;223m ♙ \x1b[0m\x1b[30;48;5;180m ♙ \x1b[0m\x1b[30;48;5;186m · \x1b[0m\x1b[30;48;5;180m ♙ \x1b[0m\x1b[30;48;5;223m ♙ \x1b[0m\x1b[30;48;5;180m ♙ \x1b[0m 2\n"
        "1 \x1b[30;48;5;180m ♖ \x1b[0m\x1b[30;48;5;223m ♘ \x1b[0m\x1b[30;48;5;180m ♗ \x1b[0m\x1b[30;48;5;223m ♕ \x1b[0m\x1b[30;48;5;180m ♔ \x1b[0m\x1b[30;48;5;223m ♗ \x1b[0m\x1b[30;48;5;180m ♘ \x1b[0m\x1b[30;48;5;223m ♖ \x1b[0m 1\n"
        "   a  b  c  d  e  f  g  h\n";
    o.color = 1;
    o.ascii = 0;
    render_board(v, &o, &b);
    assert_string_equal(sb_str(&b), colour);
    sb_free(&b);
    free(v);
    game_free(g);
}

/* The toy variant (three sides on the plane), a real engine view: the
 * legend names its sides, in a narrow screen the window still fits. */
static void test_toy_view_legend_and_narrow_screen(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = &toy_variant, .seed = 5});
    RenderNames n;
    cli_names(g, &n);
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    game_view(g, 0, v);
    RenderOpts o = {.ascii = 1};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    char legend[96];
    snprintf(legend, sizeof legend, "1 %s  2 %s  3 %s\n", n.side[0], n.side[1], n.side[2]);
    assert_contains(sb_str(&b), legend);
    sb_reset(&b);
    o.width = 16;
    render_board(v, &o, &b);
    assert_contains(sb_str(&b), "cut off:");
    /* the board's lines (rows with their edge marks, label lines) fit 16
     * columns; only the words of the cut line wrap */
    int rows = 0;
    for (const char *l = sb_str(&b); *l; l += strcspn(l, "\n") + 1) {
        size_t len = strcspn(l, "\n");
        int row = memchr(l, '<', len) || memchr(l, '>', len);
        if (row || strspn(l, "^v -0123456789") == len)
            assert_true(len <= 16);
        rows += row;
    }
    assert_true(rows >= 3);
    sb_free(&b);
    free(v);
    game_free(g);
}

/* The menu asks how many sides only when the variant allows a choice
 * (Tile: TILE-1, 2 to 6), and reads the answer: Enter for the default, a
 * number in range, else a message naming the range. */
static void test_tile1_menu_sides_question(void **state)
{
    (void)state;
    assert_int_equal(cli_menu_asks_sides(variant_find("orthodox")), 0);
    assert_int_equal(cli_menu_asks_sides(variant_find("echiquete")), 0);
    assert_int_equal(cli_menu_asks_sides(variant_find("tile")), 1);
    int n = 0;
    Error e;
    assert_int_equal(cli_menu_count("", 2, 6, 3, &n, &e), 0);
    assert_int_equal(n, 3);
    assert_int_equal(cli_menu_count("5", 2, 6, 3, &n, &e), 0);
    assert_int_equal(n, 5);
    const char *bad[] = {"7", "1", "x", "4x", "-3"};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        n = 0;
        assert_int_equal(cli_menu_count(bad[i], 2, 6, 3, &n, &e), -1);
        assert_int_equal(n, 0);
        assert_contains(e.msg, bad[i]);
        assert_contains(e.msg, "from 2 to 6");
    }
}

/* The program: a variant with one number of sides goes straight from the
 * menu to the game; `help` lists pan, and
 * pan on a bounded board says the board is always whole. */
static void test_menu_and_pan_in_the_program(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "printf '1\\n\\n\\nhelp\\npan left\\nquit\\n' | '%s' menu --ascii 2>&1",
             tu_program());
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = tu_read_stream(p);
    pclose(p);
    assert_contains(out, "variant> 1\n");
    assert_lacks(out, "How many sides");
    assert_contains(out, "  pan DIR [N]");
    assert_contains(out, "  pan X,Y");
    assert_contains(out, "white> pan left\nthe board is always drawn whole");
    free(out);
}

/* A Tile game through the menu (TILE-1: how many sides, asked again after
 * a wrong answer) on a narrow terminal (TILE-2: the table is wider than
 * the screen): the window is cut with its counts, `pan left 2` moves it two
 * columns, `pan 0,0` centres a square, `pan` alone follows the play again. */
static void test_tile2_menu_sides_and_pan_in_a_game(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "printf 'tile\\n7\\n4\\n\\n\\nrandom\\npan left 2\\npan 0,0\\npan\\nquit\\nyes\\n' | "
             "COLUMNS=50 '%s' menu --ascii --seed 4 2>&1",
             tu_program());
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char *out = tu_read_stream(p);
    pclose(p);
    assert_contains(out, "How many sides (2 to 6, Enter: 2)> 7\n'7': type a number from 2 "
                         "to 6, or just Enter for 2\nHow many sides (2 to 6, Enter: 2)> 4\n");
    assert_contains(out, "1 white  2 black  3 red  4 blue");
    assert_contains(out, "white> random\n");
    assert_contains(out, "cut off: left 5 columns (4 pieces),\n  right 4 columns (8 pieces)");
    assert_contains(out, "white> pan left 2\n\ncut off: left 3 columns (2 pieces),");
    assert_contains(out, "white> pan 0,0\n\ncut off: left 7 columns (9 pieces),");
    assert_contains(out, "white> pan\nthe window follows the play again\n\ncut off: left 5 "
                         "columns (4 pieces),");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tile1_tokens_and_legend_four_colours),
        cmocka_unit_test(test_tile1_each_side_its_own_colour),
        cmocka_unit_test(test_tile8_check_and_trapped_marks),
        cmocka_unit_test(test_tile2_wide_table_window_and_pan),
        cmocka_unit_test(test_tile2_tall_table_window),
        cmocka_unit_test(test_orth_bounded_board_never_cut),
        cmocka_unit_test(test_orth_two_colour_board_unchanged),
        cmocka_unit_test(test_toy_view_legend_and_narrow_screen),
        cmocka_unit_test(test_tile1_menu_sides_question),
        cmocka_unit_test(test_menu_and_pan_in_the_program),
        cmocka_unit_test(test_tile2_menu_sides_and_pan_in_a_game),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
