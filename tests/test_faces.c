/*
 * test_faces.c -- the faces show a rule set from parts (issue 24): a
 * lettered piece drawn by its letter in a glyph of its own, boards up to
 * 16 x 16 with their labels aligned, and the pieces in hand of both sides,
 * in the terminal, the JSON view and the SVG board.  The games are the
 * test-only toy's board mode (toy_board_variant, TOYB-1 ..), so no fairy
 * engine is needed.
 *
 * Run with `--frame SEAT SIZE` it prints instead the state frame the page
 * would get for that seat of a new toyboard game (the server's frame,
 * server.c state_frame, made of the same answers), which the browser test
 * tests/web/test_faces.js gives the page.
 *
 * Invariant: every assertion reads what the renderers write for a View of
 * the toy's engine; each would fail if the behaviour it names were broken.
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
#include "../core/cli/render.h"
#include "../core/draw/draw.h"
#include "../core/game.h"
#include "support/testutil.h"
#include "support/toy_variant.h"

static Game *toyboard(int size)
{
    char params[32];
    snprintf(params, sizeof params, "size=%d", size);
    return tu_game(&(TuGame){.variant = &toy_board_variant, .params = params});
}

/* The terminal's drawing of seat's view. */
static char *text_of(const Game *g, int seat, int ascii)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, seat, v), 0);
    RenderNames n;
    cli_names(g, &n);
    RenderOpts o = {.ascii = ascii};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    free(v);
    return b.s;
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

/* Display columns of a UTF-8 line: one per character (render.c's cells
 * hold figures of one column). */
static int columns(const char *s, size_t len)
{
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

/* issue 24: a 10 x 10 board in ASCII, as White sees it: files a..j, the
 * two-digit rank 10 aligned with the others, a lettered piece by its
 * letter (upper case white, lower case black, as the position string
 * writes it), Black's hand over the board and White's under it, with the
 * count before a figure held twice. */
static void test_issue24_terminal_ascii_large_board_and_hands(void **state)
{
    (void)state;
    Game *g = toyboard(10);
    char *t = text_of(g, 0, 1);
    assert_string_equal(t,
        "black in hand: q\n"
        "    a  b  c  d  e  f  g  h  i  j\n"
        "10  .  .  .  .  k  .  .  .  .  a  10\n"
        " 9  .  .  .  .  .  .  .  .  p  .  9\n"
        " 8  .  .  .  .  .  .  .  .  .  .  8\n"
        " 7  .  .  .  .  .  .  .  .  .  .  7\n"
        " 6  .  .  .  .  .  .  .  .  .  .  6\n"
        " 5  .  .  .  .  .  .  .  .  .  .  5\n"
        " 4  .  .  .  .  .  .  .  .  .  .  4\n"
        " 3  .  .  .  .  .  .  .  .  .  .  3\n"
        " 2  .  P  .  .  .  .  .  .  .  .  2\n"
        " 1  A  .  .  .  .  K  .  .  .  .  1\n"
        "    a  b  c  d  e  f  g  h  i  j\n"
        "white in hand: 2N Z\n"
        "white to move\n");
    free(t);
    /* Black sees the board turned: its own hand under it */
    t = text_of(g, 1, 1);
    assert_true(strncmp(t, "white in hand: 2N Z\n    j  i  h", 31) == 0);
    assert_contains(t, "10  a  .  .  .  .  k  .  .  .  .  10\n"
                       "    j  i  h  g  f  e  d  c  b  a\n"
                       "black in hand: q\n");
    free(t);
    game_free(g);
}

/* issue 24: in Unicode a lettered piece is its letter in a circle, white
 * Ⓐ and black ⓐ, told from the orthodox figures (♔ ♚) and from each other
 * without colour; a hand shows the same glyphs. */
static void test_issue24_terminal_lettered_glyphs(void **state)
{
    (void)state;
    Game *g = toyboard(10);
    char *t = text_of(g, 0, 0);
    assert_contains(t, "black in hand: \u265B\n");
    assert_contains(t, "10  \u00B7  \u00B7  \u00B7  \u00B7  \u265A  \u00B7  \u00B7  \u00B7  "
                       "\u00B7  \u24D0  10\n");
    assert_contains(t, " 1  \u24B6  \u00B7  \u00B7  \u00B7  \u00B7  \u2654  \u00B7  \u00B7  "
                       "\u00B7  \u00B7  1\n");
    assert_contains(t, "white in hand: 2\u2658 \u24CF\n");
    /* never drawn as a figure this seat may not know */
    assert_lacks(t, "\u25CB");
    assert_lacks(t, "\u25CF");
    free(t);
    game_free(g);
}

/* issue 24: a 16 x 16 board: files a..p, ranks 1..16, every line of the
 * board as wide as the label lines, in both alphabets. */
static void test_issue24_terminal_16x16_labels_aligned(void **state)
{
    (void)state;
    Game *g = toyboard(16);
    for (int ascii = 0; ascii <= 1; ascii++) {
        char *t = text_of(g, 0, ascii);
        const char *labels = "    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p\n";
        const char *top = strstr(t, labels);
        assert_non_null(top);
        assert_non_null(strstr(top + 1, labels)); /* under the board too */
        const char *p = top + strlen(labels);
        int rows = 0;
        while (strncmp(p, labels, strlen(labels)) != 0) {
            size_t len = strcspn(p, "\n");
            int rank = 16 - rows;
            char want[16];
            snprintf(want, sizeof want, "%2d  ", rank % 100);
            assert_true(strncmp(p, want, 4) == 0);
            /* the right-hand label starts at the same column on every rank:
             * label, a blank, 16 cells of 3, a blank */
            int digits = rank >= 10 ? 2 : 1;
            assert_int_equal(columns(p, len) - digits, 2 + 1 + 3 * 16 + 1);
            rows++;
            p += len + 1;
        }
        assert_int_equal(rows, 16);
        assert_contains(t, "16  ");
        assert_contains(t, ascii ? " 1  A  .  .  .  .  .  .  .  K" : " 1  \u24B6");
        free(t);
    }
    game_free(g);
}

/* The JSON view of seat. */
static char *json_of(const Game *g, int seat)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    assert_int_equal(game_view(g, seat, v), 0);
    RenderNames n;
    cli_names(g, &n);
    StrBuf b = STRBUF_INIT;
    render_view_json(v, &n, NULL, 0, &b);
    free(v);
    return b.s;
}

/* issue 24: the JSON view names a lettered piece by its letter and lists
 * the hands, side, figure, letter and count; a variant without hands has
 * an empty list. */
static void test_issue24_json_lettered_and_hands(void **state)
{
    (void)state;
    Game *g = toyboard(10);
    char *j = json_of(g, 1);
    assert_contains(j, "{\"square\":\"a1\",\"x\":0,\"y\":0,\"side\":\"white\",\"figure\":\"A\","
                       "\"letter\":\"A\",\"flags\":[]}");
    assert_contains(j, "{\"square\":\"j10\",\"x\":9,\"y\":9,\"side\":\"black\","
                       "\"figure\":\"A\",\"letter\":\"A\",\"flags\":[]}");
    assert_contains(j, ",\"captured\":[],\"hand\":[{\"side\":\"white\",\"figure\":\"knight\","
                       "\"letter\":\"N\",\"count\":2},{\"side\":\"white\",\"figure\":\"Z\","
                       "\"letter\":\"Z\",\"count\":1},{\"side\":\"black\",\"figure\":\"queen\","
                       "\"letter\":\"Q\",\"count\":1}],");
    assert_contains(j, "\"geometry\":{\"bounded\":true,\"width\":10,\"height\":10}");
    free(j);
    game_free(g);
    g = tu_orthodox(NULL);
    j = json_of(g, 0);
    assert_contains(j, ",\"captured\":[],\"hand\":[],");
    free(j);
    game_free(g);
}

/* issue 24 (TOYB-3, TOYB-4): a capture fills the capturer's hand and a
 * drop empties the dropper's, and every face follows: the terminal's
 * hand lines, the JSON's counts; an empty hand says "none", and while
 * no hand holds a piece there is no hand line. */
static void test_issue24_hands_follow_captures_and_drops(void **state)
{
    (void)state;
    Game *g = toyboard(5);
    tu_play(g, 0, "b2c3");
    tu_play(g, 1, "d4c3"); /* black's pawn takes white's: a pawn in hand */
    char *t = text_of(g, 0, 1);
    assert_contains(t, "black in hand: q p\n");
    free(t);
    char *j = json_of(g, 0);
    assert_contains(j, "{\"side\":\"black\",\"figure\":\"pawn\",\"letter\":\"P\",\"count\":1}");
    free(j);
    tu_play(g, 0, "N@a3");
    tu_play(g, 1, "Q@e1");
    tu_play(g, 0, "Z@a4");
    t = text_of(g, 0, 1);
    assert_contains(t, "white in hand: N\n");
    assert_contains(t, "\n4  Z  .  .  .  .  4\n");
    assert_contains(t, "\n1  A  .  K  .  q  1\n");
    free(t);
    tu_play(g, 1, "P@b4");
    t = text_of(g, 1, 1);
    assert_contains(t, "black in hand: none\n");
    assert_contains(t, "white in hand: N\n");
    free(t);
    /* no piece in any hand: no hand lines */
    tu_play(g, 0, "N@b1");
    t = text_of(g, 1, 1);
    assert_lacks(t, "in hand");
    free(t);
    game_free(g);
}

/* The SVG board of seat's view. */
static char *svg_of(const Game *g, int seat)
{
    View *v = calloc(1, sizeof *v);
    DrawOpts *o = calloc(1, sizeof *o);
    assert_non_null(v);
    assert_non_null(o);
    assert_int_equal(game_view(g, seat, v), 0);
    draw_opts_for(g, v, o);
    StrBuf b = STRBUF_INIT;
    Error e = {""};
    assert_int_equal(draw_svg(v, o, &b, &e), 0);
    free(v);
    free(o);
    return b.s;
}

/* The element of svg that starts at the first `<g` holding attr, up to
 * its closing "</g>" (pieces hold no nested group). */
static char *group_with(const char *svg, const char *attr)
{
    const char *at = strstr(svg, attr);
    if (!at)
        fail_msg("no element with %s in:\n%s", attr, svg);
    const char *start = at;
    while (start > svg && strncmp(start, "<g", 2) != 0)
        start--;
    const char *end = strstr(at, "</g>");
    assert_non_null(end);
    size_t n = (size_t)(end - start) + 4;
    char *s = malloc(n + 1);
    assert_non_null(s);
    memcpy(s, start, n);
    s[n] = '\0';
    return s;
}

/* issue 24: the SVG board (`chessvar diagram`, the page's board) of a
 * 16 x 16 game: its squares and labels a..p, 1..16, a lettered piece a
 * rounded square carrying its letter where the orthodox ones are discs,
 * and both hands in bands over and under the board, with their counts. */
static void test_issue24_svg_16x16_lettered_and_hands(void **state)
{
    (void)state;
    Game *g = toyboard(16);
    char *svg = svg_of(g, 0);
    /* the board and a band of 0.9 over and under it for the hands */
    assert_contains(svg, "viewBox=\"-0.6 -1.5 17.2 19\"");
    assert_contains(svg, "data-x=\"15\" data-y=\"15\"/>");
    assert_contains(svg, ">p</text>");
    assert_contains(svg, ">16</text>");
    char *a = group_with(svg, "data-square=\"a1\"");
    assert_contains(a, "data-figure=\"A\"");
    assert_contains(a, "<rect class=\"body rim\"");
    assert_contains(a, ">A</text>");
    assert_lacks(a, "<circle class=\"body rim\"");
    free(a);
    char *k = group_with(svg, "data-square=\"i1\"");
    assert_contains(k, "data-figure=\"king\"");
    assert_contains(k, "<circle class=\"body rim\"");
    assert_lacks(k, "<rect");
    free(k);
    /* Black's hand over the board, White's under it */
    const char *black = strstr(svg, "<g class=\"hand\" data-side=\"black\">");
    const char *white = strstr(svg, "<g class=\"hand\" data-side=\"white\">");
    assert_non_null(black);
    assert_non_null(white);
    assert_true(black < white);
    char *q = group_with(black, "data-figure=\"queen\"");
    assert_contains(q, "data-count=\"1\"");
    assert_contains(q, "cy=\"-1.05\"");
    free(q);
    char *n = group_with(white, "data-figure=\"knight\"");
    assert_contains(n, "data-count=\"2\"");
    assert_contains(n, ">\u00D72</text>");
    assert_contains(n, "cy=\"17.05\"");
    free(n);
    char *z = group_with(white, "data-figure=\"Z\"");
    assert_contains(z, "<rect class=\"body rim\"");
    assert_contains(z, ">Z</text>");
    free(z);
    free(svg);
    /* turned for Black: its own hand under the board */
    svg = svg_of(g, 1);
    assert_true(strstr(svg, "data-side=\"white\">") < strstr(svg, "data-side=\"black\">"));
    free(svg);
    game_free(g);
    /* without hands the board keeps its frame */
    g = tu_orthodox(NULL);
    svg = svg_of(g, 0);
    assert_contains(svg, "viewBox=\"-0.6 -0.6 9.2 9.2\"");
    assert_lacks(svg, "class=\"hands\"");
    free(svg);
    game_free(g);
}

/* ---- The page's frame (tests/web/test_faces.js) -------------------------- */

static int batch_json(Batch *b, const char *line, StrBuf *out)
{
    StrBuf a = STRBUF_INIT;
    int rc = batch_line(b, line, &a);
    while (a.len && a.s[a.len - 1] == '\n')
        a.s[--a.len] = '\0';
    sb_puts(out, sb_str(&a));
    sb_free(&a);
    return rc;
}

/* `test_faces --frame SEAT SIZE [ACTION ...]`: a toyboard game of that
 * size, the actions played by the seat to act, then one JSON object on
 * standard output: the answers the server builds seat's state frame from
 * (status, view, legal, history: batch lines as `chessvar run --json`
 * writes them), the ply and the board's SVG as the server draws it. */
static int frame_main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_faces --frame SEAT SIZE [ACTION ...]\n");
        return 2;
    }
    char size[32];
    snprintf(size, sizeof size, "size=%s", argv[3]);
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.command = "run";
    o.variant = &toy_board_variant;
    o.nparams = 1;
    o.params[0] = size;
    o.json = 1;
    o.depth = -1;
    Error e = {""};
    int status = 0;
    Batch *b = batch_open(&o, &e, &status);
    if (!b) {
        fprintf(stderr, "test_faces --frame: %s\n", e.msg);
        return 2;
    }
    Game *g = batch_game(b);
    for (int i = 4; i < argc; i++)
        if (game_play(g, game_to_act(g), argv[i], &e)) {
            fprintf(stderr, "test_faces --frame: %s: %s\n", argv[i], e.msg);
            batch_close(b);
            return 1;
        }
    int seat = strcmp(argv[2], "black") == 0;
    StrBuf out = STRBUF_INIT, line = STRBUF_INIT;
    sb_puts(&out, "{\"status\":");
    batch_json(b, "status", &out);
    static const char *const ASK[3] = {"view", "legal", "history"};
    for (int i = 0; i < 3; i++) {
        sb_reset(&line);
        sb_printf(&line, "as %s %s", seat ? "black" : "white", ASK[i]);
        sb_printf(&out, ",\"%s\":", ASK[i]);
        batch_json(b, sb_str(&line), &out);
    }
    View *v = calloc(1, sizeof *v);
    DrawOpts *d = calloc(1, sizeof *d);
    StrBuf svg = STRBUF_INIT;
    if (!v || !d || game_view(g, seat, v))
        return 1;
    draw_opts_for(g, v, d);
    if (draw_svg(v, d, &svg, &e))
        return 1;
    sb_printf(&out, ",\"ply\":%d,\"board_svg\":", game_history_len(g));
    sb_json_str(&out, sb_str(&svg));
    sb_puts(&out, "}\n");
    fputs(sb_str(&out), stdout);
    free(v);
    free(d);
    sb_free(&svg);
    sb_free(&out);
    sb_free(&line);
    batch_close(b);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--frame") == 0)
        return frame_main(argc, argv);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue24_terminal_ascii_large_board_and_hands),
        cmocka_unit_test(test_issue24_terminal_lettered_glyphs),
        cmocka_unit_test(test_issue24_terminal_16x16_labels_aligned),
        cmocka_unit_test(test_issue24_json_lettered_and_hands),
        cmocka_unit_test(test_issue24_hands_follow_captures_and_drops),
        cmocka_unit_test(test_issue24_svg_16x16_lettered_and_hands),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
