/*
 * test_diagram.c -- diagrams (issue 22 point 4): core/draw/ draws a View as
 * the page's SVG board, `chessvar diagram` writes one, `chessvar handout`
 * a page of them.
 *
 * For every variant, in positions with masked, merged, inert, trapped and
 * checked pieces and 2 to 6 colours, from every seat and a spectator: the
 * SVG is well-formed XML, holds exactly one piece element per piece of the
 * view with its figure, flags, side and square, and the command writes the
 * same board.  Hidden figures stay hidden (MASQ-1, MASQ-12): two Masqués
 * games that differ only in a masked arrangement draw byte-identical
 * boards for every seat that may not know it.  Arrows and marks show;
 * bad input is refused with a message naming it, exit status 2 and no
 * file.  The board's style is the page's (web/style.css), and the picture
 * in docs/DIAGRAMS.md is what the command writes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/draw/draw.h"
#include "../core/game.h"
#include "../core/json.h"
#include "../core/record/record.h"
#include "../core/web/web.h"
#include "support/testutil.h"
#include "support/webclient.h"

#define CONTAINS(hay, needle)                                                         \
    do {                                                                              \
        if (!strstr((hay), (needle)))                                                 \
            fail_msg("expected to find \"%s\" in:\n%s", (needle), (hay));             \
    } while (0)

/* ---- A small XML checker ---------------------------------------------------- */

/* Is s well-formed XML (one root element; tags nested and closed; attribute
 * values quoted; '<' and '&' only as markup or entities)?  The number of
 * elements, or -1 with why. */
static int xml_check(const char *s, char *why, size_t n)
{
    char stack[64][32];
    int depth = 0, elements = 0, roots = 0;
    const char *p = s;
    if (strncmp(p, "<?xml", 5) == 0) {
        p = strstr(p, "?>");
        if (!p)
            return snprintf(why, n, "the XML declaration is not closed"), -1;
        p += 2;
    }
    while (*p) {
        if (*p == '&') {
            const char *semi = strchr(p, ';');
            if (!semi || semi - p > 8 ||
                !(strncmp(p, "&amp;", 5) == 0 || strncmp(p, "&lt;", 4) == 0 ||
                  strncmp(p, "&gt;", 4) == 0 || strncmp(p, "&quot;", 6) == 0))
                return snprintf(why, n, "a bare '&' at %.20s", p), -1;
            p = semi + 1;
            continue;
        }
        if (*p != '<') {
            if (!depth && *p != '\n' && *p != ' ')
                return snprintf(why, n, "text outside the root: %.20s", p), -1;
            p++;
            continue;
        }
        if (p[1] == '/') { /* a closing tag */
            const char *e = strchr(p, '>');
            if (!e || !depth)
                return snprintf(why, n, "a stray closing tag at %.20s", p), -1;
            size_t len = (size_t)(e - p - 2);
            if (len != strlen(stack[depth - 1]) || strncmp(p + 2, stack[depth - 1], len))
                return snprintf(why, n, "</%.*s> closes <%.31s>", (int)(len > 31 ? 31 : len), p + 2,
                                stack[depth - 1]), -1;
            depth--;
            p = e + 1;
            continue;
        }
        /* an opening tag: a name, attributes name="value", then > or /> */
        const char *q = p + 1;
        size_t len = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-:0123456789");
        if (!len || len >= sizeof stack[0])
            return snprintf(why, n, "a bad tag at %.20s", p), -1;
        char name[32];
        memcpy(name, q, len);
        name[len] = 0;
        q += len;
        for (;;) {
            q += strspn(q, " \n");
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            size_t an = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-:0123456789");
            if (!an || q[an] != '=' || q[an + 1] != '"')
                return snprintf(why, n, "a bad attribute in <%s> at %.20s", name, q), -1;
            q += an + 2;
            for (; *q && *q != '"'; q++) {
                if (*q == '<')
                    return snprintf(why, n, "'<' in an attribute of <%s>", name), -1;
                if (*q == '&' && !(strncmp(q, "&amp;", 5) == 0 || strncmp(q, "&lt;", 4) == 0 ||
                                   strncmp(q, "&gt;", 4) == 0 || strncmp(q, "&quot;", 6) == 0))
                    return snprintf(why, n, "a bare '&' in an attribute of <%s>", name), -1;
            }
            if (!*q)
                return snprintf(why, n, "an attribute of <%s> is not closed", name), -1;
            q++;
        }
        elements++;
        if (!depth)
            roots++;
        if (*q == '/') {
            p = q + 2;
            continue;
        }
        if (depth == 64)
            return snprintf(why, n, "nested too deep"), -1;
        strcpy(stack[depth++], name);
        p = q + 1;
    }
    if (depth)
        return snprintf(why, n, "<%s> is not closed", stack[depth - 1]), -1;
    if (roots != 1)
        return snprintf(why, n, "%d root elements", roots), -1;
    return elements;
}

static int count(const char *hay, const char *needle)
{
    int k = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        k++;
    return k;
}

/* The draw options of g's view v (as the command sets them). */
static void opts_of(const Game *g, const View *v, DrawOpts *o)
{
    draw_opts_for(g, v, o);
    o->standalone = 1;
}

/* The SVG of seat's view of g, malloc'd. */
static char *svg_of(const Game *g, int seat, View *v)
{
    assert_int_equal(game_view(g, seat, v), 0);
    DrawOpts o;
    opts_of(g, v, &o);
    StrBuf out = STRBUF_INIT;
    Error e = {""};
    if (draw_svg(v, &o, &out, &e))
        fail_msg("draw_svg: %s", e.msg);
    char *s = strdup(sb_str(&out));
    sb_free(&out);
    return s;
}

/* The piece element of view piece p, as its attributes say: its square,
 * figure (hidden when the view hides it), side and flags. */
static void check_piece(const Game *g, const View *v, const ViewPiece *p, const char *svg)
{
    char sq[GEO_SQ_MAX], want[128];
    geo_format_square(&v->geo, p->at, sq);
    snprintf(want, sizeof want, "data-square=\"%s\" data-x=\"%d\" data-y=\"%d\"", sq,
             (int)p->at.x, (int)p->at.y);
    const char *at = strstr(svg, want);
    if (!at)
        fail_msg("no piece on %s in:\n%s", sq, svg);
    if (strstr(at + strlen(want), want))
        fail_msg("two pieces on %s", sq);
    const char *open = at;
    while (open > svg && strncmp(open, "<g class=\"piece ", 16) != 0)
        open--;
    const char *close = strchr(at, '>');
    char tag[512];
    snprintf(tag, sizeof tag, "%.*s", (int)(close - open), open);
    const char *fig = p->figure == FIG_HIDDEN ? "hidden" : figure_name(p->figure);
    snprintf(want, sizeof want, "class=\"piece fig-%s", fig);
    CONTAINS(tag, want);
    snprintf(want, sizeof want, "data-figure=\"%s\"", fig);
    CONTAINS(tag, want);
    snprintf(want, sizeof want, "data-side=\"%s\"", p->side >= 0 ? game_side_name(g, p->side)
                                                                 : "null");
    CONTAINS(tag, want);
    static const struct { unsigned bit; const char *cls; } FL[] = {
        {VP_MASKED, " f-masked"}, {VP_MERGED, " f-merged"}, {VP_INERT, " f-inert"},
        {VP_TRAPPED, " f-trapped"}, {VP_CHECK, " f-check"}};
    for (size_t i = 0; i < sizeof FL / sizeof FL[0]; i++) {
        int has = strstr(tag, FL[i].cls) != NULL;
        if (has != !!(p->flags & FL[i].bit))
            fail_msg("piece on %s: flag%s %s in %s", sq, FL[i].cls, has ? "drawn, not in the view"
                                                                     : "missing", tag);
    }
    /* the letter: the figure's, '?' where hidden */
    const char *end = strstr(at, "</g>");
    char letter[32];
    snprintf(letter, sizeof letter, ">%c</text>",
             p->figure == FIG_HIDDEN ? '?' : figure_letter(p->figure));
    const char *l = strstr(at, letter);
    if (!l || l > end)
        fail_msg("piece on %s: no letter %s", sq, letter);
}

/* Every seat's and a spectator's board of the game, checked. */
static void check_game(const TuGame *spec, const char *label)
{
    Game *g = tu_game(spec);
    View *v = malloc(sizeof *v);
    assert_non_null(v);
    for (int seat = -1; seat < game_nseats(g); seat++) {
        char *svg = svg_of(g, seat, v);
        char why[160];
        int n = xml_check(svg, why, sizeof why);
        if (n < 0)
            fail_msg("%s, seat %d: not well-formed: %s", label, seat, why);
        int pieces = count(svg, "<g class=\"piece ");
        if (pieces != v->npieces)
            fail_msg("%s, seat %d: %d piece elements for %d pieces", label, seat, pieces,
                     v->npieces);
        for (int i = 0; i < v->npieces; i++)
            check_piece(g, v, &v->pieces[i], svg);
        /* a square per cell, coordinates on a board */
        CONTAINS(svg, "<g class=\"cells\"><rect class=\"cell ");
        CONTAINS(svg, v->geo.bounded ? "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"board\""
                                     : "class=\"board plane\"");
        free(svg);
    }
    free(v);
    game_free(g);
}

#define MASQ_START "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/" \
                   "R~N~B~Q~K~B~N~R~ w KQkq - 0 1"

/* issue 22: every variant, its special pieces, every seat. */
static void test_diagram_every_variant_every_seat(void **state)
{
    (void)state;
    static const struct {
        const char *variant, *position;
        int sides, seats;
    } CASES[] = {
        {"orthodox", NULL, 0, 0},
        {"orthodox", "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", 0, 0}, /* check (ORTH-6) */
        {"masques", NULL, 0, 0},                              /* the setup */
        {"masques", MASQ_START, 0, 0},                        /* masked (MASQ-1) */
        {"masques", "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/4Q3/8/P~P~P~P~1P~P~P~/"
                    "R~N~B~1K~B~N~R~ b KQkq - 0 1", 0, 0},     /* a revealed queen */
        {"ambigus", NULL, 0, 0},
        {"echiquete", "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", 0, 0},
        {"echiquete", "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", 0, 3},
        {"tile", NULL, 0, 0},
        {"tile", "wK0,0 wR1,0 bK2,0 rK3,0 rQ3,1 turn:w", 3, 0}, /* trapped, check */
        {"tile", "wK0,0 wP0,1 bK2,0 bP2,1 rK4,0 rP4,1 uK0,3 uP0,2 gK2,3 gP2,2 yK4,3 yP4,2 "
                 "wR1,1 bR3,1 turn:w", 6, 0},                  /* six colours */
    };
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char label[160];
        snprintf(label, sizeof label, "%s %s", CASES[i].variant,
                 CASES[i].position ? CASES[i].position : "(start)");
        check_game(&(TuGame){.variant = tu_variant(CASES[i].variant),
                             .position = CASES[i].position, .nsides = CASES[i].sides,
                             .nseats = CASES[i].seats, .seed = 1},
                   label);
    }
}

/* Each special piece draws as the page does: the flags' marks. */
static void test_diagram_flags_draw_their_marks(void **state)
{
    (void)state;
    View *v = malloc(sizeof *v);
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"), .position = MASQ_START});
    char *svg = svg_of(g, 0, v);
    assert_int_equal(count(svg, "<path class=\"mask\""), 32); /* MASQ-1 */
    assert_int_equal(count(svg, "fig-hidden"), 16);           /* Black's, for White */
    free(svg);
    game_free(g);
    g = tu_game(&(TuGame){.variant = tu_variant("echiquete"),
                          .position = "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq "
                                      "- 0 2"});
    svg = svg_of(g, -1, v);
    assert_int_equal(count(svg, "class=\"letter merged-letter\""), 1); /* ECHQ-1: two halves, two colours */
    CONTAINS(svg, "fill=\"#f7f3e8\"/><path class=\"body\"");
    CONTAINS(svg, "fill=\"#262626\"/><circle class=\"rim\"");
    free(svg);
    game_free(g);
    g = tu_game(&(TuGame){.variant = tu_variant("tile"), .nsides = 3,
                          .position = "wK0,0 wR1,0 bK2,0 rK3,0 rQ3,1 turn:w"});
    svg = svg_of(g, -1, v);
    assert_int_equal(count(svg, "<path class=\"trap\""), 2);       /* TILE-6 */
    assert_int_equal(count(svg, "<circle class=\"check-halo\""), 1); /* TILE-8 */
    CONTAINS(svg, "fill=\"#b3261e\""); /* red */
    free(svg);
    game_free(g);
    free(v);
}

/* MASQ-1, MASQ-12: twins that differ only in White's masked arrangement
 * (knight and bishop swapped on b1 and c1) draw the same board for a
 * spectator and for Black, byte for byte; White's own boards differ (the
 * comparison could fail). */
static void test_diagram_masques_twins_identical(void **state)
{
    (void)state;
    const char *twin = "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/"
                       "R~B~N~Q~K~B~N~R~ w KQkq - 0 1";
    Game *a = tu_game(&(TuGame){.variant = tu_variant("masques"), .position = MASQ_START});
    Game *b = tu_game(&(TuGame){.variant = tu_variant("masques"), .position = twin});
    View *v = malloc(sizeof *v);
    for (int seat = -1; seat < 2; seat++) {
        char *sa = svg_of(a, seat, v), *sb = svg_of(b, seat, v);
        if (seat == 0)
            assert_string_not_equal(sa, sb);
        else
            assert_string_equal(sa, sb);
        free(sa), free(sb);
    }
    free(v);
    game_free(a), game_free(b);
    /* ... and through the command, spectator and Black */
    for (int i = 0; i < 2; i++) {
        TuRun ra, rb;
        char args[512];
        snprintf(args, sizeof args, "diagram masques --fen '%s' --svg -%s", MASQ_START,
                 i ? " --seat black" : "");
        tu_run(&ra, args, NULL);
        snprintf(args, sizeof args, "diagram masques --fen '%s' --svg -%s", twin,
                 i ? " --seat black" : "");
        tu_run(&rb, args, NULL);
        assert_int_equal(ra.status, 0);
        assert_string_equal(ra.out, rb.out);
        /* White's masked figures are nobody's here; Black knows its own */
        assert_int_equal(count(ra.out, "class=\"piece fig-hidden f-masked\""), i ? 16 : 32);
        tu_run_free(&ra), tu_run_free(&rb);
    }
}

/* The command writes the board draw_svg draws (480 pixels wide), to a
 * file or standard output. */
static void test_diagram_command_writes_the_board(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar_diagram_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    TuRun r;
    char args[256];
    snprintf(args, sizeof args, "diagram echiquete --fen 'rnbqkbnr/ppp1pppp/8/3*P4/8/8/"
                                "PPPP1PPP/RNBQKBNR w KQkq - 0 2' --svg %s", path);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.out, "");
    char *file = tu_read_file(path);
    Game *g = tu_game(&(TuGame){.variant = tu_variant("echiquete"),
                                .position = "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w "
                                            "KQkq - 0 2"});
    View *v = malloc(sizeof *v);
    assert_int_equal(game_view(g, -1, v), 0);
    DrawOpts o;
    opts_of(g, v, &o);
    o.size = 480;
    StrBuf want = STRBUF_INIT;
    assert_int_equal(draw_svg(v, &o, &want, NULL), 0);
    assert_string_equal(file, sb_str(&want));
    CONTAINS(file, "width=\"480\" height=\"480\"");
    tu_run_free(&r);
    /* the second side's seat sees the board turned, as on the page */
    tu_run(&r, "diagram orthodox --seat black --svg -", NULL);
    assert_int_equal(r.status, 0);
    CONTAINS(r.out, "<rect class=\"cell dark\" x=\"7\" y=\"0\" width=\"1\" height=\"1\" "
                    "data-x=\"0\" data-y=\"0\"/>");
    tu_run_free(&r);
    sb_free(&want);
    free(file), free(v);
    game_free(g);
    unlink(path);
}

/* Arrows and marked squares, on a board and on the plane. */
static void test_diagram_arrows_and_marks(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "diagram orthodox --arrows e2e4,g1f3 --arrows d2-d4 --marks e4,d5 --svg -",
           NULL);
    assert_int_equal(r.status, 0);
    assert_int_equal(count(r.out, "<g class=\"arrow-group\""), 3);
    CONTAINS(r.out, "data-from=\"e2\" data-to=\"e4\"><line class=\"arrow\" x1=\"4.5\" "
                    "y1=\"6.5\"");
    CONTAINS(r.out, "data-from=\"g1\" data-to=\"f3\"");
    CONTAINS(r.out, "data-from=\"d2\" data-to=\"d4\"");
    CONTAINS(r.out, "<rect class=\"marked\" x=\"4.06\" y=\"4.06\" width=\"0.88\" "
                    "height=\"0.88\" data-square=\"e4\"/>");
    CONTAINS(r.out, "data-square=\"d5\"/>");
    char why[160];
    assert_true(xml_check(r.out, why, sizeof why) > 0);
    tu_run_free(&r);
    /* the plane grows to show them: x from -1 to 5 and y from -3 to 2, and a
     * margin of one: 9 x 8 squares, and the page's frame: 0.75 on the left,
     * 0.5 on top (the labels' bands), 0.15 right and below */
    tu_run(&r, "diagram tile --fen 'wK0,0 wN1,0 bN1,1 bK2,1 turn:w' --arrows '1,0--1,2;2,1-5,1'"
               " --marks '0,-3' --svg -", NULL);
    assert_int_equal(r.status, 0);
    CONTAINS(r.out, "data-from=\"1,0\" data-to=\"-1,2\"");
    CONTAINS(r.out, "data-from=\"2,1\" data-to=\"5,1\"");
    CONTAINS(r.out, "data-square=\"0,-3\"");
    CONTAINS(r.out, "viewBox=\"-2.75 -3.5 9.9 8.65\"");
    tu_run_free(&r);
    /* ... or the window asked for, as the page's camera: those squares */
    tu_run(&r, "diagram tile --fen 'wK0,0 wN1,0 bN1,1 bK2,1 turn:w' --window -4,-3,5,4 --svg -",
           NULL);
    assert_int_equal(r.status, 0);
    CONTAINS(r.out, "viewBox=\"-4.75 -4.5 10.9 8.65\"");
    assert_int_equal(count(r.out, "<rect class=\"cell "), 10 * 8);
    CONTAINS(r.out, "data-x=\"-4\" data-y=\"-3\"/>");
    CONTAINS(r.out, "data-x=\"5\" data-y=\"4\"/>");
    tu_run_free(&r);
}

/* Bad input: a message naming it, exit status 2, no file written. */
static void test_diagram_bad_input_refused(void **state)
{
    (void)state;
    static const struct {
        const char *args, *want;
    } CASES[] = {
        {"diagram orthodox --fen 'rnbqkbnr/pppppppp w' --svg F", "--fen"},
        {"diagram orthodox --arrows e2e9 --svg F", "arrow 'e2e9': e9 is off the board"},
        {"diagram orthodox --arrows e2 --svg F", "arrow 'e2'"},
        {"diagram orthodox --arrows e2e2 --svg F", "arrow 'e2e2': it starts and ends on the same"},
        {"diagram orthodox --arrows , --svg F", "no arrow in ','"},
        {"diagram orthodox --marks zz --svg F", "mark 'zz': 'zz' is not a square"},
        {"diagram orthodox --marks e4x --svg F", "mark 'e4x': 'x' follows the square"},
        {"diagram tile --arrows 0,0,1,1 --svg F", "arrow '0,0,1,1': write FROM-TO"},
        {"diagram tile --marks '0,0;900,0' --svg F", "must fit in 200 x 200"},
        {"diagram tile --window 0,0,300,1 --svg F", "window '0,0,300,1': the window must go"},
        {"diagram tile --window 2,2,1,1 --svg F", "from its lowest corner to its highest"},
        {"diagram tile --window 0,0,1 --svg F", "window '0,0,1': write X0,Y0,X1,Y1"},
        {"diagram orthodox --window 0,0,1,1 --svg F", "a window is for the open plane"},
        {"diagram orthodox --seat red --svg F", "--seat red: no such seat; the seats are "
                                                "white, black, or spectator"},
        {"diagram orthodox", "say where the diagram goes: --svg FILE"},
        {"diagram orthodox --svg F --html G", "unknown option '--html'"},
        {"diagram nosuch --svg F", "unknown variant 'nosuch'"},
        {"handout orthodox", "say where the page goes: --html FILE"},
        {"handout orthodox --html F --param castling=maybe", "castling"},
        {"handout tile --sides 3 --html F", "unknown option '--sides'"},
    };
    char dir[] = "/tmp/chessvar_diagram_bad_XXXXXX";
    assert_non_null(mkdtemp(dir));
    for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        char args[512], file[300];
        snprintf(file, sizeof file, "%s/out", dir);
        snprintf(args, sizeof args, "%s", CASES[i].args);
        char *f = strstr(args, " F");
        if (f && (f[2] == ' ' || !f[2])) { /* F: the file in dir */
            char rest[256];
            snprintf(rest, sizeof rest, "%s", f + 2);
            snprintf(f, sizeof args - (size_t)(f - args), " %s%s", file, rest);
        }
        TuRun r;
        tu_run(&r, args, NULL);
        if (r.status != 2 || !strstr(r.err, CASES[i].want))
            fail_msg("%s: status %d, stderr %s (want 2, '%s')", CASES[i].args, r.status, r.err,
                     CASES[i].want);
        assert_string_equal(r.out, "");
        if (access(file, F_OK) == 0)
            fail_msg("%s: wrote %s", CASES[i].args, file);
        tu_run_free(&r);
    }
    rmdir(dir);
    TuRun r;
    tu_run(&r, "diagram orthodox --svg /nonexistent/dir/x.svg", NULL);
    assert_int_equal(r.status, 1);
    CONTAINS(r.err, "cannot write /nonexistent/dir/x.svg");
    tu_run_free(&r);
}

/* The board looks as the page's: every rule of its style is a line of
 * web/style.css. */
static void test_diagram_style_is_the_pages(void **state)
{
    (void)state;
    char *css = tu_read_file("web/style.css");
    assert_non_null(css);
    const char *p = draw_css();
    int lines = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        char line[256], want[260];
        snprintf(line, sizeof line, "%.*s", (int)(nl - p), p);
        snprintf(want, sizeof want, "\n%s\n", line);
        if (!strstr(css, want))
            fail_msg("web/style.css has no line \"%s\"", line);
        lines++;
        p = nl + 1;
    }
    assert_true(lines >= 15);
    free(css);
}

/* The handout: a diagram per rule of `chessvar rules`, exercises and their
 * solutions (on the last page), well-formed boards. */
static void test_handout_every_variant(void **state)
{
    (void)state;
    for (int i = 0; variant_registry[i]; i++) {
        const char *name = variant_registry[i]->name;
        char args[128];
        snprintf(args, sizeof args, "rules %s", name);
        TuRun rules, page;
        tu_run(&rules, args, NULL);
        int nrules = 0;
        for (const char *l = rules.out; l; l = strchr(l, '\n')) {
            l += *l == '\n';
            size_t k = strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
            if (k && l[k] == '-' && l[k + 1] >= '0' && l[k + 1] <= '9')
                nrules++;
        }
        assert_true(nrules >= 7);
        snprintf(args, sizeof args, "handout %s --html -", name);
        tu_run(&page, args, NULL);
        assert_int_equal(page.status, 0);
        int ex = count(page.out, "<div class=\"exercise\""),
            sol = count(page.out, "<div class=\"solution\"");
        if (count(page.out, "<article class=\"rule\"") != nrules ||
            count(page.out, "<figure class=\"diagram\" data-rule=\"") != nrules)
            fail_msg("%s: %d rules, %d articles", name, nrules,
                     count(page.out, "<article class=\"rule\""));
        /* issue 22: every lesson of the variant is an exercise and has a
         * solution, in the lesson file's order */
        snprintf(args, sizeof args, "lessons/%s.txt", name);
        FILE *lf = fopen(args, "r");
        assert_non_null(lf);
        char line[256];
        int nlessons = 0;
        const char *at_ex = strstr(page.out, "<section class=\"exercises\">"),
                   *at_sol = strstr(page.out, "<section class=\"solutions\">");
        assert_non_null(at_ex);
        assert_non_null(at_sol);
        while (fgets(line, sizeof line, lf)) {
            if (strncmp(line, "lesson: ", 8) != 0)
                continue;
            nlessons++;
            line[strcspn(line, "\n")] = '\0';
            char want[300];
            snprintf(want, sizeof want, "<div class=\"exercise\" data-lesson=\"%s\"", line + 8);
            const char *x = strstr(at_ex, want);
            if (!x || x > at_sol)
                fail_msg("%s: lesson %s is not an exercise", name, line + 8);
            at_ex = x;
            snprintf(want, sizeof want, "<div class=\"solution\" data-lesson=\"%s\"", line + 8);
            const char *y = strstr(at_sol, want);
            if (!y)
                fail_msg("%s: lesson %s has no solution", name, line + 8);
            at_sol = y;
            CONTAINS(y, "<p class=\"steps\">play: ");
        }
        fclose(lf);
        assert_true(nlessons >= 1);
        assert_int_equal(ex, nlessons);
        assert_int_equal(ex, sol);
        /* each rule states what it changes (its rule data) */
        assert_int_equal(count(page.out, "<p class=\"difference\">"), nrules);
        assert_int_equal(count(page.out, "<svg xmlns="), nrules + ex + sol);
        CONTAINS(page.out, "<section class=\"solutions\">");
        assert_true(strstr(page.out, "<section class=\"solutions\">") >
                    strstr(page.out, "<section class=\"exercises\">"));
        /* every board is well-formed */
        for (const char *s = strstr(page.out, "<svg "); s; s = strstr(s + 1, "<svg ")) {
            const char *e = strstr(s, "</svg>");
            char *one = strndup(s, (size_t)(e + 6 - s)), why[160];
            if (xml_check(one, why, sizeof why) < 0)
                fail_msg("%s: a board is not well-formed: %s", name, why);
            free(one);
        }
        tu_run_free(&rules), tu_run_free(&page);
    }
}

/* Issue 22: the rules say what they change from orthodox chess, a rule
 * the fixed figures leave out is drawn from its first lesson, and the
 * exercises are the lessons with their solutions.  ORTH-5's figure is the
 * engine's: castling arrows, gone under castling=off. */
static void test_handout_lessons_and_differences(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "handout orthodox --html -", NULL);
    assert_int_equal(r.status, 0);
    /* ORTH-1 has no fixed figure: lesson first-move's, f3 marked */
    CONTAINS(r.out, "<figure class=\"diagram\" data-rule=\"ORTH-1\" data-lesson=\"first-move\">");
    CONTAINS(r.out, "(lesson first-move; what white sees)");
    CONTAINS(r.out, "<p><b>1.</b> White moves first. Bring the knight from g1 to f3");
    CONTAINS(r.out, "<p class=\"steps\">play: Nf3<br></p>");
    CONTAINS(r.out, "data-from=\"e1\" data-to=\"g1\""); /* ORTH-5's figure castles */
    tu_run_free(&r);
    tu_run(&r, "handout orthodox --param castling=off --html -", NULL);
    assert_int_equal(r.status, 0);
    assert_null(strstr(r.out, "data-from=\"e1\" data-to=\"g1\""));
    CONTAINS(r.out, "data-from=\"e1\" data-to=\"d1\"");
    tu_run_free(&r);
    /* MASQ-2 replaces ORTH-2 and ORTH-3, from the rule data */
    tu_run(&r, "handout masques --html -", NULL);
    assert_int_equal(r.status, 0);
    CONTAINS(r.out, "<p class=\"difference\">Replaces ORTH-2 ORTH-3: a masked piece moves as a "
                    "pawn of its side");
    /* Hidden information (MASQ-1): on an exercise's or a solution's board,
     * a masked figure of the other seat never shows, `views: both` or not;
     * the learner's own masked figures do */
    int other = 0, own = 0, boxes = 0;
    for (const char *p = strstr(r.out, "<section class=\"exercises\">"); p;) {
        const char *a = strstr(p, "<div class=\"exercise\" data-lesson=");
        const char *b = strstr(p, "<div class=\"solution\" data-lesson=");
        const char *d = a && (!b || a < b) ? a : b;
        if (!d)
            break;
        const char *seat = strstr(d, "data-seat=\"") + 11;
        char me[16];
        snprintf(me, sizeof me, "%.*s", (int)(strchr(seat, '"') - seat), seat);
        const char *end = strstr(d, "</svg>");
        boxes++;
        for (const char *q = strstr(d, "<g class=\"piece "); q && q < end;
             q = strstr(q + 1, "<g class=\"piece ")) {
            char tag[400], side[40];
            snprintf(tag, sizeof tag, "%.*s", (int)(strchr(q, '>') - q), q);
            snprintf(side, sizeof side, "data-side=\"%s\"", me);
            if (!strstr(tag, "f-masked"))
                continue;
            if (strstr(tag, side)) {
                own += !strstr(tag, "data-figure=\"hidden\"");
            } else {
                if (!strstr(tag, "data-figure=\"hidden\""))
                    fail_msg("%s sees a masked figure of the other seat: %s", me, tag);
                other++;
            }
        }
        p = end;
    }
    assert_int_equal(boxes, 2 * 16);
    assert_true(other >= 16);
    assert_true(own >= 16);
    tu_run_free(&r);
}

/* The picture in docs/DIAGRAMS.md is what the command beside it writes. */
static void test_diagram_docs_picture(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar_diagram_doc_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args,
             "diagram tile --sides 6 --fen 'wK0,0 wP0,1 bK2,0 bP2,1 rK4,0 rP4,1 uK0,3 uP0,2 "
             "gK2,3 gP2,2 yK4,3 yP4,2 wR1,1 bR3,1 turn:w' --arrows '1,1-1,2' --marks '1,2' "
             "--svg %s", path);
    TuRun r;
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    char *made = tu_read_file(path), *doc = tu_read_file("docs/diagram-tile.svg");
    assert_non_null(made);
    if (!doc || strcmp(made, doc) != 0)
        fail_msg("docs/diagram-tile.svg is not what the command writes now; run it again "
                 "with --svg docs/diagram-tile.svg");
    free(made), free(doc);
    tu_run_free(&r);
    unlink(path);
}

/* GET /api/diagram (chessvar serve): a game's board as the seat of the
 * request's token sees it, a spectator's without one; the same SVG as
 * draw_svg of that seat's View (MASQ-1: a seat's own figures only). */
static void test_diagram_server_draws_each_seats_board(void **state)
{
    (void)state;
    WebConfig c;
    web_config_defaults(&c);
    c.port = 0;
    c.quiet = 1;
    Error e = {""};
    WebServer *s = web_start(&c, &e);
    if (!s)
        fail_msg("the server did not start: %s", e.msg);
    int port = web_port(s);
    Game *g = tu_game(&(TuGame){.variant = tu_variant("masques"), .position = MASQ_START});
    StrBuf rec = STRBUF_INIT, body = STRBUF_INIT, out = STRBUF_INIT;
    assert_int_equal(record_save(g, &rec), 0);
    sb_puts(&body, "{\"record\":");
    sb_json_str(&body, sb_str(&rec));
    sb_putc(&body, '}');
    assert_int_equal(wc_http(port, "POST", "/api/games", sb_str(&body), body.len, &out), 201);
    Json *j = json_parse(sb_str(&out), out.len, &e);
    assert_non_null(j);
    const char *id = json_get(j, "game")->str;
    const char *white = json_get(json_at(json_get(j, "seats"), 0), "token")->str;
    View *v = malloc(sizeof *v);
    char path[256];
    char header[128];
    snprintf(header, sizeof header, "X-Chessvar-Token: %s\r\n", white);
    snprintf(path, sizeof path, "/api/diagram?game=%s", id);
    for (int seat = -1; seat < 1; seat++) {
        sb_reset(&out);
        assert_int_equal(wc_http_with(port, "GET", path, seat < 0 ? NULL : header, NULL, 0,
                                      &out), 200);
        char *want = svg_of(g, seat, v);
        assert_string_equal(sb_str(&out), want);
        free(want);
    }
    assert_int_equal(count(sb_str(&out), "fig-hidden"), 16); /* White's: Black's hidden */
    /* arrows and marks as the command reads them */
    snprintf(path, sizeof path, "/api/diagram?game=%s&arrows=e2e4%%2Cg1f3&marks=e4", id);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", path, NULL, 0, &out), 200);
    assert_int_equal(count(sb_str(&out), "<g class=\"arrow-group\""), 2);
    CONTAINS(sb_str(&out), "data-square=\"e4\"/>");
    snprintf(path, sizeof path, "/api/diagram?game=%s&window=0,0,1,1", id);
    sb_reset(&out);
    assert_int_equal(wc_http(port, "GET", path, NULL, 0, &out), 400);
    CONTAINS(sb_str(&out), "a window is for the open plane");
    /* refusals */
    static const struct { const char *query; int status; const char *want; } BAD[] = {
        {"", 400, "say which game"},
        {"?game=0123", 404, "no game '0123'"},
        {"?game=%s&t=00ff", 400, "a token goes in the X-Chessvar-Token header, never in"},
        {"?game=%s&token=00ff", 400, "a token goes in the X-Chessvar-Token header"},
        {"?game=%s&arrows=e2e9", 400, "arrow 'e2e9': e9 is off the board"},
        {"?game=%s&marks=zz", 400, "mark 'zz'"},
    };
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        char q[128];
        snprintf(q, sizeof q, BAD[i].query, id);
        snprintf(path, sizeof path, "/api/diagram%s", q);
        sb_reset(&out);
        int st = wc_http(port, "GET", path, NULL, 0, &out);
        if (st != BAD[i].status || !strstr(sb_str(&out), BAD[i].want))
            fail_msg("%s: %d %s", path, st, sb_str(&out));
    }
    sb_reset(&out);
    snprintf(path, sizeof path, "/api/diagram?game=%s", id);
    assert_int_equal(wc_http_with(port, "GET", path, "X-Chessvar-Token: 00ff\r\n", NULL, 0,
                                  &out), 404);
    CONTAINS(sb_str(&out), "this token is no seat's of this game");
    sb_reset(&out);
    assert_int_equal(wc_http(port, "POST", "/api/diagram", "{}", 2, &out), 405);
    json_free(j);
    free(v);
    sb_free(&rec), sb_free(&body), sb_free(&out);
    game_free(g);
    web_stop(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diagram_every_variant_every_seat),
        cmocka_unit_test(test_diagram_flags_draw_their_marks),
        cmocka_unit_test(test_diagram_masques_twins_identical),
        cmocka_unit_test(test_diagram_command_writes_the_board),
        cmocka_unit_test(test_diagram_arrows_and_marks),
        cmocka_unit_test(test_diagram_bad_input_refused),
        cmocka_unit_test(test_diagram_style_is_the_pages),
        cmocka_unit_test(test_handout_every_variant),
        cmocka_unit_test(test_handout_lessons_and_differences),
        cmocka_unit_test(test_diagram_docs_picture),
        cmocka_unit_test(test_diagram_server_draws_each_seats_board),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
