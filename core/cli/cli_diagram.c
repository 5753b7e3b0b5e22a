/*
 * cli_diagram.c -- `chessvar diagram` and `chessvar handout` (issue 22,
 * point 4): a position as an SVG diagram, and a printable page of a
 * variant's rules with a diagram per rule and exercises.
 *
 * Invariant: every board drawn here comes from a seat's View (a spectator's
 * unless said otherwise) through core/draw/, and every arrow that stands
 * for legal actions comes from the legal list of that same seat, or of the
 * seat to act in a game where every seat knows everything: a diagram never
 * shows more than its seat may know.
 */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../draw/draw.h"
#include "lesson.h"

/* ---- Shared ------------------------------------------------------------- */

static int write_out(const char *path, const StrBuf *b, Error *e)
{
    if (sb_failed(b))
        return err_set(e, "out of memory");
    if (strcmp(path, "-") == 0) {
        if (fwrite(sb_str(b), 1, b->len, stdout) != b->len || fflush(stdout))
            return err_set(e, "cannot write to standard output: %s", strerror(errno));
        return 0;
    }
    FILE *f = fopen(path, "wb");
    if (!f)
        return err_set(e, "cannot write %s: %s", path, strerror(errno));
    int bad = fwrite(sb_str(b), 1, b->len, f) != b->len;
    bad |= fclose(f) != 0;
    return bad ? err_set(e, "cannot write %s: %s", path, strerror(errno)) : 0;
}

/* The seat named name ("white"; "spectator" or NULL: -1) in *seat, or -1
 * with e listing the seats. */
static int seat_arg(const Game *g, const char *name, int *seat, Error *e)
{
    *seat = -1;
    if (!name || strcmp(name, "spectator") == 0)
        return 0;
    for (int i = 0; i < game_nseats(g); i++) {
        if (strcmp(game_seat_name(g, i), name) == 0) {
            *seat = i;
            return 0;
        }
    }
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < game_nseats(g); i++)
        sb_printf(&b, "%s, ", game_seat_name(g, i));
    err_set(e, "--seat %s: no such seat; the seats are %sor spectator", name, sb_str(&b));
    sb_free(&b);
    return -1;
}

/* The legal actions that show on a board for what `seat` sees: its own
 * list, or the seat to act's where nothing is hidden; else none. */
static int shown_actions(const Game *g, const View *v, ActionList *out)
{
    int seat = v->seat;
    if (seat < 0 && !game_variant(g)->hidden_info)
        seat = v->seat_to_act;
    if (seat < 0 || v->status.over)
        return 0;
    ActionList all = ACTIONLIST_INIT;
    int rc = game_legal(g, seat, &all);
    for (int i = 0; rc == 0 && i < all.n; i++)
        if (!action_is_meta(all.v[i].kind))
            al_push(out, &all.v[i]);
    if (all.failed || out->failed)
        rc = -1;
    al_free(&all);
    return rc;
}

/* ---- chessvar diagram ----------------------------------------------------- */

int cli_diagram(const CliOptions *o)
{
    Error e = {""};
    if (!o->svg) {
        fprintf(stderr, "chessvar diagram: say where the diagram goes: --svg FILE "
                        "(--svg - for standard output)\n");
        return CLI_EXIT_USAGE;
    }
    int status;
    Game *g = cli_start_game(o, 1, &e, &status);
    if (!g) {
        fprintf(stderr, "chessvar diagram: %s\n", e.msg);
        return status;
    }
    int rc = CLI_EXIT_USAGE, seat;
    View *v = malloc(sizeof *v);
    DrawOpts *d = malloc(sizeof *d);
    StrBuf out = STRBUF_INIT;
    if (!v || !d) {
        err_set(&e, "out of memory");
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    if (seat_arg(g, o->seat, &seat, &e))
        goto done;
    if (game_view(g, seat, v)) {
        err_set(&e, "out of memory");
        rc = CLI_EXIT_FAIL;
        goto done;
    }
    draw_opts_for(g, v, d);
    d->standalone = 1;
    d->size = 480;
    for (int i = 0; i < o->ndraw; i++) {
        int bad = o->draw[i].arrows ? draw_parse_arrows(&v->geo, o->draw[i].text, d, &e)
                                    : draw_parse_marks(&v->geo, o->draw[i].text, d, &e);
        if (bad)
            goto done;
    }
    if (o->window && draw_parse_window(&v->geo, o->window, d, &e))
        goto done;
    if (draw_svg(v, d, &out, &e))
        goto done;
    rc = write_out(o->svg, &out, &e) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    if (rc != CLI_EXIT_OK)
        fprintf(stderr, "chessvar diagram: %s\n", e.msg);
    sb_free(&out);
    free(v);
    free(d);
    game_free(g);
    return rc;
}

/* ---- chessvar handout ------------------------------------------------------ */

/* A position that shows a rule, where a lesson (lessons/, issue 22 point 3)
 * shows it less well: a rule without one here is drawn from the first
 * lesson that teaches it, and only a rule no lesson teaches falls back on
 * the variant's default figure.  `focus`: the square whose
 * actions are drawn as arrows, or "*" for the squares of the actions that
 * name only a square (a placement, an Ambigus square). */
typedef struct RuleFigure {
    const char *variant, *rule; /* rule NULL: the variant's default figure */
    const char *position;       /* NULL: the start position */
    const char *seat;           /* NULL: a spectator */
    const char *focus;
    const char *marks;
    const char *caption;
} RuleFigure;

static const RuleFigure FIGURES[] = {
    {"orthodox", NULL, NULL, NULL, NULL, NULL, "The start position."},
    {"orthodox", "ORTH-2", "4k3/8/8/3N4/8/8/8/4K3 w - - 0 1", NULL, "d5", NULL,
     "A knight's moves."},
    {"orthodox", "ORTH-3", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", NULL, "e5", NULL,
     "After ...d7-d5 the pawn on e5 may take en passant."},
    {"orthodox", "ORTH-4", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", NULL, "b7", NULL,
     "A pawn reaching the last rank promotes."},
    {"orthodox", "ORTH-5", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", NULL, "e1", NULL,
     "The King may castle on either side."},
    {"orthodox", "ORTH-6", "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", NULL, "e1", NULL,
     "In check: only the King's moves out of it are legal."},
    {"orthodox", "ORTH-7", "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
     NULL, NULL, "e1", "Checkmate: the King is attacked and nothing helps."},
    {"orthodox", "ORTH-9", "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1", NULL, NULL, NULL,
     "King and Bishop against King: a dead position, drawn at once."},

    {"masques", NULL, "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/"
                      "R~N~B~Q~K~B~N~R~ w KQkq - 0 1", "white", NULL, NULL,
     "White's view after the setup: its own figures, the enemy's masked."},
    {"masques", "MASQ-1", NULL, "white", "*", NULL,
     "White's view of the setup: its pieces go on ranks 1 and 2."},
    {"masques", "MASQ-2", "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/"
                          "R~N~B~Q~K~B~N~R~ w KQkq - 0 1", "white", "g1", NULL,
     "The masked knight on g1 moves like a pawn, or is revealed to move as a knight."},
    {"masques", "MASQ-3", "N~3k~3/8/8/8/8/8/8/4K~3 w - - 0 1", "white", "a8", NULL,
     "White's masked knight on a8 cannot move as a pawn: revealed, it jumps."},
    {"masques", "MASQ-4", "4k~3/8/8/3q4/4P~3/8/8/4K~3 w - - 0 1", "white", "e4", NULL,
     "The masked piece on e4 may take the revealed queen on d5: no battle."},
    {"masques", "MASQ-15", "r~3k~2r~/8/8/8/8/8/8/R~3K~2R~ w KQkq - 0 1", "white", "e1", NULL,
     "King and Rooks placed on their squares, still masked, may castle."},
    {"masques", "MASQ-5", "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/"
                          "R~N~B~Q~K~B~N~R~ w KQkq - 0 1", "white", "b1", NULL,
     "Reveal and move: the knight on b1 jumps once revealed."},

    {"ambigus", NULL, NULL, NULL, "*", NULL,
     "The start: White names a square, Black will choose the piece."},
    {"ambigus", "AMBI-2", "4k3/8/8/8/8/2N5/8/3QK3 w - - 0 1", NULL, NULL, "d5,e4",
     "Name d5 or e4 and Black chooses which of your pieces goes there."},
    {"ambigus", "AMBI-3", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", NULL, "*", NULL,
     "The squares White may name: b8 among them, where the pawn promotes."},
    {"ambigus", "AMBI-4", "4k3/8/8/8/8/8/3q4/4K3 w - - 0 1", NULL, "*", NULL,
     "No check: White may name any square, even one that loses the King."},

    {"echiquete", NULL, "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", NULL,
     NULL, "d5", "A merged pawn (two colours) on d5: either side may move it."},
    {"echiquete", "ECHQ-1", "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
     NULL, "e4", NULL, "exd5 would fuse both pawns into one merged pawn."},
    {"echiquete", "ECHQ-4", "4k3/8/8/3*N4/8/8/8/3RK3 w - - 0 1", NULL, "d1", NULL,
     "The Rook stops before d5: the merged knight cannot be taken, it blocks."},
    {"echiquete", "ECHQ-7", "4k3/8/8/8/8/8/3*P+4/4K3 w - - 0 1", NULL, "d2", NULL,
     "A pawn captured on its start rank keeps its double step: d2 to d4."},
    {"echiquete", "ECHQ-5", "4k3/8/8/8/8/4p3/4K3/8 w - - 0 1", NULL, "e2", NULL,
     "The King takes e3 the orthodox way: the pawn goes, nothing merges."},
    {"echiquete", "ECHQ-2", "rnbqkbnr/ppp1pppp/8/3*P4/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
     NULL, "d5", NULL, "The merged pawn belongs to whoever is to move: here White."},

    {"tile", NULL, "wK0,0 wN1,0 bN1,1 bK2,1 turn:w", NULL, NULL, NULL,
     "No board: the pieces stand on an open plane."},
    {"tile", "TILE-2", "wQ0,0 bQ1,0 wR0,1 hand:w=KRBB,b=KRRBB turn:b", "black", "*", NULL,
     "Placement: Black may put a piece on any marked square, touching the table."},
    {"tile", "TILE-6", "wK0,0 wR1,0 bR2,0 bK3,0 turn:w", NULL, NULL, NULL,
     "Both Rooks are the only links between the Kings: trapped (the red marks)."},
    {"tile", "TILE-7", "wK0,0 wB0,1 bQ1,1 bK2,2 turn:w", NULL, NULL, NULL,
     "The Queen on 1,1 is trapped: the King it attacks is only threatened."},
    {"tile", "TILE-8", "wK0,0 wN0,1 bQ1,1 bK1,2 turn:w", NULL, "0,0", NULL,
     "A free Queen attacks the King: check, and the King must get out of it."},
    {"tile", "TILE-3", "wK0,0 wR1,0 wN2,0 bN0,1 bR1,1 bK2,1 turn:w", NULL, "1,0", NULL,
     "Unity: after every move all pieces still touch."},
};

static void html_text(StrBuf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        switch (s[i]) {
        case '&': sb_puts(out, "&amp;"); break;
        case '<': sb_puts(out, "&lt;"); break;
        case '>': sb_puts(out, "&gt;"); break;
        case '"': sb_puts(out, "&quot;"); break;
        default: sb_putc(out, s[i]);
        }
    }
}

static void html_str(StrBuf *out, const char *s)
{
    html_text(out, s, strlen(s));
}

/* The actions of list l that start on focus (or, with "*", that name only
 * a square): their squares into d's arrows or marks, their texts into
 * answer (", " apart).  -1 with e on a focus that is not a square. */
static int focus_actions(const Game *g, const View *v, const char *focus,
                         const ActionList *l, DrawOpts *d, StrBuf *answer, Error *e)
{
    Coord at = {0, 0};
    int any = strcmp(focus, "*") == 0;
    const char *p = focus;
    if (!any && (geo_parse_square(&v->geo, &p, &at, e) || *p))
        return err_set(e, "focus '%s' is not a square", focus);
    for (int i = 0; i < l->n; i++) {
        const Action *a = &l->v[i];
        int hit = any ? a->kind == ACT_PLACE
                      : (a->kind == ACT_MOVE || a->kind == ACT_REVEAL) && coord_eq(a->from, at);
        if (any && !hit) {
            /* a square named alone (Ambigus, AMBI-1): its text is its square */
            StrBuf t = STRBUF_INIT;
            char sq[GEO_SQ_MAX];
            game_format(g, a, FMT_MACHINE, &t);
            hit = strcmp(sb_str(&t), geo_format_square(&v->geo, a->to, sq)) == 0;
            sb_free(&t);
        }
        if (!hit)
            continue;
        if (answer) {
            if (answer->len)
                sb_puts(answer, ", ");
            game_format(g, a, FMT_RECORD, answer);
        }
        if (any || coord_eq(a->from, a->to)) {
            int dup = 0;
            for (int k = 0; k < d->nmarks; k++)
                dup |= coord_eq(d->marks[k], a->to);
            if (!dup && d->nmarks < DRAW_MAX_MARKS)
                d->marks[d->nmarks++] = a->to;
        } else {
            int dup = 0;
            for (int k = 0; k < d->narrows; k++)
                dup |= coord_eq(d->arrows[k].to, a->to) && coord_eq(d->arrows[k].from, a->from);
            if (!dup && d->narrows < DRAW_MAX_ARROWS)
                d->arrows[d->narrows++] = (DrawArrow){a->from, a->to};
        }
    }
    return 0;
}

/* One diagram of `position` from `seat`'s view into out (an element of the
 * page), with focus's actions drawn and marks; the answer's texts into
 * answer (may be NULL), the arrows drawn only when draw_focus.  0, or -1
 * with e. */
static int page_diagram(const CliOptions *o, const char *position, const char *seat_name,
                        const char *focus, int draw_focus, const char *marks,
                        const char *label, StrBuf *out, StrBuf *answer, Error *e)
{
    CliOptions c = *o;
    c.fen = position;
    c.load = NULL;
    c.house = NULL;
    int status, seat, rc = -1;
    Game *g = cli_start_game(&c, 1, e, &status);
    if (!g)
        return -1;
    View *v = malloc(sizeof *v);
    DrawOpts *d = malloc(sizeof *d);
    ActionList l = ACTIONLIST_INIT;
    if (!v || !d) {
        err_set(e, "out of memory");
        goto done;
    }
    if (seat_arg(g, seat_name, &seat, e))
        goto done;
    if (game_view(g, seat, v)) {
        err_set(e, "out of memory");
        goto done;
    }
    draw_opts_for(g, v, d);
    d->label = label;
    if (focus) {
        if (shown_actions(g, v, &l)) {
            err_set(e, "the legal actions could not be listed");
            goto done;
        }
        DrawOpts *scratch = draw_focus ? d : malloc(sizeof *scratch);
        if (!scratch) {
            err_set(e, "out of memory");
            goto done;
        }
        if (!draw_focus)
            memset(scratch, 0, sizeof *scratch);
        int bad = focus_actions(g, v, focus, &l, scratch, answer, e);
        if (!draw_focus)
            free(scratch);
        if (bad)
            goto done;
    }
    if (marks && draw_parse_marks(&v->geo, marks, d, e))
        goto done;
    rc = draw_svg(v, d, out, e);
done:
    al_free(&l);
    free(v);
    free(d);
    game_free(g);
    return rc;
}

/* Lesson l's position (after the replies before the learner's first step;
 * solved: after its solution, every step's first text, is played) as the
 * learner's seat sees it, never any other seat's view (`views: both` too),
 * with the first step's target squares marked when marks.  0, or -1 with
 * e. */
static int lesson_diagram(const CliOptions *o, const LessonFile *f, const Lesson *l,
                          int marks, int solved, const char *label, StrBuf *out, Error *e)
{
    LessonRun *r = lesson_start(o->variant, l, e);
    if (!r) {
        lesson_where(f, l, e);
        return -1;
    }
    while (solved && lesson_step(r)) {
        StrBuf said = STRBUF_INIT;
        int bad = lesson_answer(r, lesson_step(r)->alt[0], &said) == LESSON_REFUSED;
        if (bad)
            err_set(e, "line %d: its solution '%s' is refused: %s", lesson_step(r)->line,
                    lesson_step(r)->alt[0], sb_str(&said));
        sb_free(&said);
        if (bad) {
            lesson_where(f, l, e);
            lesson_run_free(r);
            return -1;
        }
    }
    const Game *g = lesson_game(r);
    View *v = malloc(sizeof *v);
    DrawOpts *d = malloc(sizeof *d);
    int rc = -1;
    if (!v || !d || game_view(g, lesson_seat(r), v)) {
        err_set(e, "out of memory");
        goto done;
    }
    draw_opts_for(g, v, d);
    d->label = label;
    const LessonStep *s = lesson_step(r);
    for (int i = 0; marks && s && i < s->ntargets; i++) {
        const char *t = s->target[i];
        Coord c;
        Error ignore = {""};
        if (geo_parse_square(&v->geo, &t, &c, &ignore) == 0 && !*t &&
            d->nmarks < DRAW_MAX_MARKS)
            d->marks[d->nmarks++] = c;
    }
    rc = draw_svg(v, d, out, e);
done:
    free(v);
    free(d);
    lesson_run_free(r);
    return rc;
}

/* The first lesson of f that teaches rule id, or NULL. */
static const Lesson *lesson_for_rule(const LessonFile *f, const char *id)
{
    for (int i = 0; f && i < f->n; i++)
        for (int k = 0; k < f->v[i].nrules; k++)
            if (strcmp(f->v[i].rule[k], id) == 0)
                return &f->v[i];
    return NULL;
}

/* The page's own style: the board's (draw_css) and the print layout. */
static const char PAGE_CSS[] =
    "body { font: 11pt/1.4 Georgia, serif; color: #1b1b1b; margin: 0 auto; "
    "max-width: 48rem; padding: 1rem; }\n"
    "h1 { font-size: 20pt; margin: 0 0 .3rem; }\n"
    "h2 { font-size: 15pt; margin: 1.2rem 0 .4rem; border-bottom: 1px solid #999; }\n"
    "h3 { font-size: 12pt; margin: .8rem 0 .2rem; }\n"
    ".params { white-space: pre; font: 9pt/1.3 monospace; }\n"
    ".rule-text p { margin: .2rem 0; }\n"
    ".rule-text .title { font-weight: bold; }\n"
    "pre.example { font: 9pt/1.3 monospace; margin: .2rem 0; white-space: pre-wrap; }\n"
    ".rule { display: flex; gap: 1rem; align-items: flex-start; break-inside: avoid; "
    "margin: .6rem 0; }\n"
    ".rule > div { flex: 1; }\n"
    "figure { margin: 0; width: 6.2cm; flex: none; }\n"
    "figure svg { width: 6.2cm; height: auto; display: block; }\n"
    "figcaption { font-size: 9pt; color: #444; }\n"
    ".exercise, .solution { break-inside: avoid; display: flex; gap: 1rem; margin: .6rem 0; }\n"
    ".solutions { break-before: page; }\n"
    ".phase { font-style: italic; }\n"
    ".difference { font-style: italic; margin: .2rem 0; }\n"
    ".steps { font: 10pt/1.3 monospace; margin: .2rem 0; }\n"
    "@page { size: A4; margin: 14mm; }\n"
    "@media print { body { max-width: none; padding: 0; } }\n";

/* A rule's text after its id (lines indented by 4) as HTML: its title
 * (the first line, and the next while it has not ended with a full stop)
 * in bold, then lines at the base indent joined into paragraphs and deeper
 * ones (examples, a parameter's note) kept as they stand in a pre block. */
static void rule_body_html(StrBuf *out, const char *s, size_t n, int title)
{
    const char *end = s + n;
    int in_title = title, in_p = 0, in_pre = 0, first = title;
    if (title)
        sb_puts(out, "<p class=\"title\">");
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s), ind = 0;
        while (ind < len && s[ind] == ' ')
            ind++;
        int rel = first ? 0 : (int)ind - 4;
        const char *t = s + ind;
        size_t tlen = len - ind;
        if (in_title && !first && (rel != 0 || tlen == 0))
            in_title = 0, sb_puts(out, "</p>");
        if (in_title) {
            if (!first)
                sb_putc(out, ' ');
            html_text(out, t, tlen);
            if (tlen && t[tlen - 1] == '.')
                in_title = 0, sb_puts(out, "</p>");
        } else if (tlen == 0) {
            if (in_p)
                sb_puts(out, "</p>");
            if (in_pre)
                sb_puts(out, "</pre>");
            in_p = in_pre = 0;
        } else if (rel <= 0) {
            if (in_pre)
                sb_puts(out, "</pre>");
            in_pre = 0;
            sb_puts(out, in_p ? " " : "<p>");
            in_p = 1;
            html_text(out, t, tlen);
        } else {
            if (in_p)
                sb_puts(out, "</p>");
            in_p = 0;
            sb_puts(out, in_pre ? "\n" : "<pre class=\"example\">");
            in_pre = 1;
            for (int i = 0; i < rel; i++)
                sb_putc(out, ' ');
            html_text(out, t, tlen);
        }
        first = 0;
        s = nl ? nl + 1 : end;
    }
    if (in_title)
        sb_puts(out, "</p>");
    if (in_p)
        sb_puts(out, "</p>");
    if (in_pre)
        sb_puts(out, "</pre>");
}

/* Is the line the start of a rule ("MASQ-10 Masked battle ...")? The id's
 * length into *n. */
static int rule_id(const char *line, size_t len, size_t *n)
{
    size_t i = 0;
    while (i < len && line[i] >= 'A' && line[i] <= 'Z')
        i++;
    if (i == 0 || i >= len || line[i] != '-')
        return 0;
    size_t k = ++i;
    while (i < len && line[i] >= '0' && line[i] <= '9')
        i++;
    if (i == k || i >= len || line[i] != ' ')
        return 0;
    *n = i;
    return 1;
}

/* The figure of rule in the table, else (exact 0) the variant's default. */
static const RuleFigure *figure_for(const char *variant, const char *rule, int exact)
{
    const RuleFigure *dflt = NULL;
    for (size_t i = 0; i < ARRAY_LEN(FIGURES); i++) {
        if (strcmp(FIGURES[i].variant, variant) != 0)
            continue;
        if (!FIGURES[i].rule)
            dflt = &FIGURES[i];
        else if (rule && strcmp(FIGURES[i].rule, rule) == 0)
            return &FIGURES[i];
    }
    return exact ? NULL : dflt;
}

static int figure_html(const CliOptions *o, const RuleFigure *f, const char *rule,
                       StrBuf *out, Error *e)
{
    char label[96];
    snprintf(label, sizeof label, "diagram of %s", rule ? rule : o->variant->name);
    sb_printf(out, "<figure class=\"diagram\" data-rule=\"%s\">", rule ? rule : "");
    if (page_diagram(o, f->position, f->seat, f->focus, 1, f->marks, label, out, NULL, e)) {
        err_prefix(e, "the diagram of %s", rule ? rule : o->variant->name);
        return -1;
    }
    sb_puts(out, "<figcaption>");
    html_str(out, f->caption);
    if (f->seat)
        sb_printf(out, " (what %s sees)", f->seat);
    sb_puts(out, "</figcaption></figure>\n");
    return 0;
}

/* What rule id changes from orthodox chess, from the variant's rule data
 * (core/variant.h RuleInfo): "Replaces ORTH-2: every piece moves as a pawn
 * while masked (how pieces move; hidden information)."  Nothing without
 * rule data for id. */
static void difference_html(const VariantOps *v, const char *id, StrBuf *out)
{
    const VariantRuleData *rd = v->version >= 8 ? v->rule_data : NULL;
    const RuleInfo *r = NULL;
    for (int i = 0; rd && rd->rules && rd->rules[i].id && !r; i++)
        if (strcmp(rd->rules[i].id, id) == 0)
            r = &rd->rules[i];
    if (!r || !r->what)
        return;
    int orth = strcmp(v->name, "orthodox") == 0;
    sb_puts(out, "<p class=\"difference\">");
    if (orth)
        sb_puts(out, "In short: ");
    else if (r->replaces && r->replaces[0])
        sb_printf(out, "Replaces %s: ", r->replaces);
    else
        sb_puts(out, "New, replaces no orthodox rule: ");
    html_str(out, r->what);
    sb_printf(out, " (%s", rule_area_name(r->area));
    if (r->area2 >= 0)
        sb_printf(out, "; %s", rule_area_name(r->area2));
    sb_puts(out, ")");
    if (!orth && r->keeps && r->keeps[0])
        sb_printf(out, ". Keeps %s as it is", r->keeps);
    sb_puts(out, ".</p>");
}

/* The diagram of rule id from lesson l: its position as the learner sees
 * it, its targets marked. */
static int lesson_figure_html(const CliOptions *o, const LessonFile *lf, const Lesson *l,
                              const char *id, StrBuf *out, Error *e)
{
    char label[96];
    snprintf(label, sizeof label, "diagram of %s", id);
    sb_printf(out, "<figure class=\"diagram\" data-rule=\"%s\" data-lesson=\"", id);
    html_str(out, l->id);
    sb_puts(out, "\">");
    if (lesson_diagram(o, lf, l, 1, 0, label, out, e)) {
        err_prefix(e, "the diagram of %s", id);
        return -1;
    }
    sb_puts(out, "<figcaption>");
    html_str(out, l->title ? l->title : l->id);
    sb_printf(out, " (lesson %s; what %s sees", l->id, l->seat[0] ? l->seat : "the learner");
    sb_puts(out, ")");
    sb_puts(out, "</figcaption></figure>\n");
    return 0;
}

/* The rules text as sections: the introduction, one article per rule with
 * its diagram, headings between rules (Échiqueté's phases), the
 * parameters at the end. */
static int rules_html(const CliOptions *o, const LessonFile *lf, const char *text,
                      StrBuf *out, int *nrules, Error *e)
{
    const char *p = strchr(text, '\n'); /* the first line is the title */
    p = p ? p + 1 : text;
    const char *params = strstr(p, "\nParameters of this game");
    const char *end = params ? params + 1 : p + strlen(p);
    sb_puts(out, "<section class=\"intro-section\"><div class=\"intro\">");
    /* the introduction: up to the first rule */
    const char *q = p;
    while (q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        size_t len = nl ? (size_t)(nl - q) : (size_t)(end - q), n;
        if (rule_id(q, len, &n))
            break;
        q = nl ? nl + 1 : end;
    }
    /* a line alone between blank lines just before the first rule, with no
     * full stop, is a heading of the rules (Échiqueté's "Phase 1") */
    if (q - p > 3 && q[-1] == '\n' && q[-2] == '\n') {
        const char *h = q - 2;
        while (h > p && h[-1] != '\n')
            h--;
        if (h - p >= 2 && h[-1] == '\n' && h[-2] == '\n' && q - 3 >= h && q[-3] != '.')
            q = h;
    }
    const char *intro_end = q;
    while (intro_end > p && (intro_end[-1] == '\n'))
        intro_end--;
    while (*p == '\n')
        p++;
    rule_body_html(out, p, (size_t)(intro_end - p), 0);
    sb_puts(out, "</div></section>\n<section class=\"rules\">\n");
    sb_printf(out, "<h2>%s</h2>\n", strcmp(o->variant->name, "orthodox") == 0
                                        ? "The rules, the reference the variants differ from"
                                        : "What changes from orthodox chess, rule by rule");
    *nrules = 0;
    while (q < end) {
        const char *nl = memchr(q, '\n', (size_t)(end - q));
        size_t len = nl ? (size_t)(nl - q) : (size_t)(end - q), n;
        if (len == 0) {
            q = nl ? nl + 1 : end;
            continue;
        }
        if (!rule_id(q, len, &n)) { /* a heading between rules */
            sb_puts(out, "<h3 class=\"phase\">");
            html_text(out, q, len);
            sb_puts(out, "</h3>\n");
            q = nl ? nl + 1 : end;
            continue;
        }
        char id[24];
        snprintf(id, sizeof id, "%.*s", (int)(n < sizeof id ? n : sizeof id - 1), q);
        /* the rule: its line and every indented or blank line after it,
         * up to the next rule or heading */
        const char *r = nl ? nl + 1 : end;
        while (r < end && (*r == ' ' || (*r == '\n' && r + 1 < end && r[1] == ' '))) {
            const char *next = memchr(r, '\n', (size_t)(end - r));
            r = next ? next + 1 : end;
        }
        const char *body_end = r;
        while (body_end > q && body_end[-1] == '\n')
            body_end--;
        sb_printf(out, "<article class=\"rule\" id=\"%s\" data-rule=\"%s\"><div>", id, id);
        sb_puts(out, "<h3>");
        html_str(out, id);
        sb_puts(out, "</h3><div class=\"rule-text\">");
        const char *t = q + n;
        while (*t == ' ')
            t++;
        rule_body_html(out, t, (size_t)(body_end - t), 1);
        difference_html(o->variant, id, out);
        sb_puts(out, "</div></div>\n");
        const RuleFigure *f = figure_for(o->variant->name, id, 1);
        const Lesson *l = f ? NULL : lesson_for_rule(lf, id);
        if (!f && !l)
            f = figure_for(o->variant->name, id, 0);
        if (f && figure_html(o, f, id, out, e))
            return -1;
        if (l && lesson_figure_html(o, lf, l, id, out, e))
            return -1;
        sb_puts(out, "</article>\n");
        (*nrules)++;
        q = r;
    }
    sb_puts(out, "</section>\n");
    if (params) {
        sb_puts(out, "<section class=\"params-section\"><h2>Parameters</h2><div class=\"params\">");
        const char *nl = strchr(params + 1, '\n');
        const char *s = nl ? nl + 1 : params + strlen(params);
        html_str(out, s);
        sb_puts(out, "</div></section>\n");
    }
    return 0;
}

/* The variant's lessons as exercises: each one's goal and its position as
 * the learner's seat sees it; their solutions (the play and reply lines,
 * and the explanation) on pages of their own at the end. */
static int exercises_html(const CliOptions *o, const LessonFile *lf, StrBuf *out, int *nex,
                          Error *e)
{
    StrBuf sol = STRBUF_INIT;
    int k = 0, rc = 0;
    for (int i = 0; i < lf->n && !rc; i++) {
        const Lesson *l = &lf->v[i];
        if (!k)
            sb_puts(out, "<section class=\"exercises\"><h2>Exercises</h2>\n");
        k++;
        char label[64];
        snprintf(label, sizeof label, "exercise %d", k);
        sb_printf(out, "<div class=\"exercise\" data-lesson=\"%s\" data-seat=\"%s\">"
                       "<figure class=\"diagram\">", l->id, l->seat);
        rc = lesson_diagram(o, lf, l, 0, 0, label, out, e);
        sb_printf(out, "</figure><p><b>%d.</b> ", k);
        html_str(out, l->goal ? l->goal : "");
        sb_puts(out, " (");
        for (int r = 0; r < l->nrules; r++)
            sb_printf(out, "%s%s", r ? ", " : "", l->rule[r]);
        sb_printf(out, "%sthe board as it looks to %s)</p></div>\n", l->nrules ? "; " : "",
                  l->seat[0] ? l->seat : "the learner");
        snprintf(label, sizeof label, "solution %d", k);
        sb_printf(&sol, "<div class=\"solution\" data-lesson=\"%s\" data-seat=\"%s\">"
                        "<figure class=\"diagram\">", l->id, l->seat);
        if (!rc)
            rc = lesson_diagram(o, lf, l, 0, 1, label, &sol, e);
        sb_printf(&sol, "</figure><div><p><b>%d.</b></p><p class=\"steps\">", k);
        for (int s = 0; s < l->nsteps; s++) {
            const LessonStep *st = &l->step[s];
            if (st->nalts < 1)
                continue;
            sb_puts(&sol, st->reply ? "reply: " : "play: ");
            html_str(&sol, st->alt[0]);
            sb_puts(&sol, "<br>");
        }
        sb_puts(&sol, "</p><p>");
        html_str(&sol, l->explain ? l->explain : "");
        sb_puts(&sol, "</p></div></div>\n");
    }
    if (k) {
        sb_puts(out, "</section>\n<section class=\"solutions\"><h2>Solutions</h2>\n");
        sb_puts(out, sb_str(&sol));
        sb_puts(out, "</section>\n");
    }
    sb_free(&sol);
    *nex = k;
    return rc;
}

int cli_handout(const CliOptions *o)
{
    Error e = {""};
    if (!o->html) {
        fprintf(stderr, "chessvar handout: say where the page goes: --html FILE "
                        "(--html - for standard output)\n");
        return CLI_EXIT_USAGE;
    }
    Params p;
    params_defaults(o->variant, &p);
    for (int i = 0; i < o->nparams; i++) {
        if (params_set(o->variant, &p, o->params[i], &e) < 0) {
            fprintf(stderr, "chessvar handout: %s\n", e.msg);
            return CLI_EXIT_USAGE;
        }
    }
    StrBuf rules = STRBUF_INIT, out = STRBUF_INIT;
    int rc = CLI_EXIT_FAIL, nrules = 0, nex = 0;
    LessonFile lf;
    memset(&lf, 0, sizeof lf);
    if (cli_rules_text(o->variant, &p, &rules)) {
        err_set(&e, "%s has no rules text", o->variant->name);
        goto done;
    }
    sb_puts(&out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<title>");
    html_str(&out, o->variant->title);
    sb_puts(&out, ": the rules on paper</title>\n<style>\n");
    sb_puts(&out, PAGE_CSS);
    sb_puts(&out, draw_css());
    sb_puts(&out, "</style>\n</head>\n<body>\n<h1>");
    html_str(&out, o->variant->title);
    sb_puts(&out, "</h1>\n<p class=\"summary\">");
    html_str(&out, o->variant->summary);
    sb_puts(&out, "</p>\n");
    char dir[512], path[600];
    if (o->lessons) {
        snprintf(path, sizeof path, "%s", o->lessons);
    } else {
        lessons_dir(dir, sizeof dir);
        snprintf(path, sizeof path, "%s/%s.txt", dir, o->variant->name);
    }
    if (lesson_file_read(path, &lf, &e))
        goto done;
    if (lf.variant != o->variant) {
        err_set(&e, "%s holds lessons of %s, not %s", path, lf.variant->name,
                o->variant->name);
        goto done;
    }
    StrBuf body = STRBUF_INIT;
    int bad = rules_html(o, &lf, sb_str(&rules), &body, &nrules, &e) ||
              exercises_html(o, &lf, &body, &nex, &e);
    sb_puts(&out, sb_str(&body));
    sb_free(&body);
    if (bad)
        goto done;
    sb_puts(&out, "</body>\n</html>\n");
    rc = write_out(o->html, &out, &e) ? CLI_EXIT_FAIL : CLI_EXIT_OK;
done:
    if (rc != CLI_EXIT_OK)
        fprintf(stderr, "chessvar handout: %s\n", e.msg);
    sb_free(&rules);
    sb_free(&out);
    lesson_file_free(&lf);
    return rc;
}
