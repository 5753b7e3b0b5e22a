/*
 * tile.c -- Tile Chess's ops table: parameters, actions and their texts,
 * status and ends (TILE-9 .. 11), the translation-free repetition key,
 * views and perft.  The rules engine is engine.c; the contract docs/TILE.md.
 *
 * Invariant: every action `legal` lists is an ACT_PLACE, ACT_MOVE or
 * ACT_PASS made from a TMove of tile_gen; apply accepts exactly those, and
 * format and parse read each other's texts back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tilevar.h"
#include "tile.h"

static const char *const PAWN_CHOICES[] = {"auto", "0", "1", "2", "3", "4",
                                           "5",    "6", "7", "8", NULL};
static const char *const FIRST_CHOICES[] = {"white", "black", "red",   "blue",
                                            "green", "yellow", NULL};

static const ParamDef TILE_PARAMS[TP__COUNT] = {
    [TP_PAWNS] = {.name = "pawns", .type = PARAM_ENUM, .def = 0, .choices = PAWN_CHOICES,
                  .rule = "TILE-1",
                  .doc = "pawns per side: auto (8 with two sides, 6 with three, 4 with "
                         "more) or 0 to 8"},
    [TP_ORTHO] = {.name = "orthogonal_pawns", .type = PARAM_BOOL, .def = 0,
                  .rule = "TILE-5",
                  .doc = "a pawn steps orthogonally only (it still captures diagonally)"},
    [TP_LENIENT] = {.name = "lenient_trapped", .type = PARAM_BOOL, .def = 0,
                    .rule = "TILE-6",
                    .doc = "a trapped piece may move when the table is one group after "
                           "the move"},
    [TP_FIRST] = {.name = "first", .type = PARAM_ENUM, .def = 0, .choices = FIRST_CHOICES,
                  .rule = "TILE-2",
                  .doc = "the colour that places first, and so moves first",
                  .position_field = "first:"},
};

/* TILE-11: Tile's own value table. */
static const int TILE_VALUES[FIG__COUNT] = {0, 1, 3, 3, 5, 12, 0, 0};

static const TileState *cst(const void *st) { return (const TileState *)st; }

/* ---- Actions ---------------------------------------------------------------- */

static Action to_action(const TileState *s, const TMove *m)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.seat = s->turn;
    a.kind = m->kind == TM_PLACE ? ACT_PLACE : m->kind == TM_MOVE ? ACT_MOVE : ACT_PASS;
    if (m->kind == TM_PLACE)
        a.figure = m->fig;
    if (m->kind == TM_MOVE)
        a.from = (Coord){s->p[m->from].x, s->p[m->from].y};
    if (m->kind != TM_PASS)
        a.to = (Coord){m->x, m->y};
    return a;
}

/* -1 when the action names no piece of the table (a move from nowhere). */
static int from_action(const TileState *s, const Action *a, TMove *m)
{
    memset(m, 0, sizeof *m);
    switch (a->kind) {
    case ACT_PLACE:
        m->kind = TM_PLACE;
        m->fig = a->figure;
        break;
    case ACT_MOVE: {
        const int i = tile_find(s, a->from.x, a->from.y);
        if (i < 0)
            return -1;
        m->kind = TM_MOVE;
        m->from = (uint8_t)i;
        break;
    }
    case ACT_PASS:
        m->kind = TM_PASS;
        return 0;
    default:
        return -1;
    }
    m->x = a->to.x;
    m->y = a->to.y;
    return 0;
}

static int tile_to_act(const Game *g, const void *st)
{
    (void)g;
    return tile_structural_end(cst(st)) ? -1 : cst(st)->turn;
}

static int tile_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return cst(st)->turn;
}

static int tile_seat_of_side(const Game *g, const void *st, int side)
{
    (void)g;
    return side >= 0 && side < cst(st)->nsides ? cst(st)->cmd[side] : -1;
}

typedef struct Push {
    const TileState *s;
    ActionList *out;
} Push;

static int push_visit(void *ud, const TMove *m)
{
    Push *p = ud;
    Action a = to_action(p->s, m);
    al_push(p->out, &a);
    return 0;
}

static void tile_legal_op(const Game *g, const void *st, int seat, ActionList *out)
{
    const TileState *s = cst(st);
    if (seat != tile_to_act(g, st))
        return;
    Push p = {s, out};
    tile_gen(g, s, push_visit, &p);
}

static int tile_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    TileState *s = (TileState *)st;
    TMove m;
    if (a->seat != tile_to_act(g, st) || from_action(s, a, &m) || !tile_legal(g, s, &m))
        return -1;
    tile_make(g, s, &m, ev);
    return 0;
}

/* ---- Texts ------------------------------------------------------------------ */

static void put_sq(StrBuf *out, Coord c)
{
    sb_printf(out, "%ld,%ld", (long)c.x, (long)c.y);
}

/* '+' when after the move some King of another seat is in check (TILE-8). */
static int gives_check(const Game *g, const TileState *s, const TMove *m)
{
    TileState t = *s;
    tile_make(g, &t, m, NULL);
    const unsigned chk = tile_checks(&t, NULL);
    return (chk & ~(1u << s->turn)) != 0;
}

static void tile_format(const Game *g, const void *st, const Action *a, int style,
                        StrBuf *out)
{
    const TileState *s = cst(st);
    switch (a->kind) {
    case ACT_PASS:
        sb_puts(out, "pass");
        return;
    case ACT_PLACE:
        sb_printf(out, "%c@", figure_letter(a->figure));
        put_sq(out, a->to);
        return;
    case ACT_MOVE:
        break;
    default:
        sb_puts(out, action_kind_name(a->kind));
        return;
    }
    const int i = tile_find(s, a->from.x, a->from.y);
    if (style == FMT_MACHINE || i < 0) {
        put_sq(out, a->from);
        sb_putc(out, '-');
        put_sq(out, a->to);
        return;
    }
    TMove m;
    from_action(s, a, &m);
    sb_putc(out, figure_letter(s->p[i].fig));
    put_sq(out, a->from);
    sb_putc(out, tile_is_capture(s, &m) ? 'x' : '-');
    put_sq(out, a->to);
    if (gives_check(g, s, &m))
        sb_putc(out, '+');
}

/* A square at *p ("-3,2"); advances *p. */
static int read_sq(const char **p, Coord *c)
{
    Geometry geo = {0, 0, 0};
    return geo_parse_square(&geo, p, c, NULL);
}

typedef struct Typed {
    int kind;        /* TM_PLACE, TM_MOVE (from and to), TM_PASS, or 4: figure + to */
    int fig;         /* FIG_NONE when not given */
    Coord from, to;
} Typed;

/* Read the typed forms of docs/TILE.md; 0 or -1. */
static int read_typed(const char *text, int placing, Typed *t)
{
    char buf[ACTION_TEXT_MAX + 1];
    str_copy(buf, sizeof buf, text);
    str_trim(buf);
    size_t k = strlen(buf);
    while (k && (buf[k - 1] == '+' || buf[k - 1] == '#' || buf[k - 1] == '!' ||
                 buf[k - 1] == '?'))
        buf[--k] = 0;
    memset(t, 0, sizeof *t);
    if (str_ieq(buf, "pass")) {
        t->kind = TM_PASS;
        return 0;
    }
    const char *p = buf;
    if (!strncmp(p, "place ", 6))
        p += 6;
    while (*p == ' ')
        p++;
    if (*p && strchr("KQRBNPkqrbnp", *p) && p[1] != ',') {
        t->fig = figure_from_letter(*p);
        p++;
    }
    int at = 0, dash = 0;
    if (*p == '@')
        at = 1, p++;
    else if (*p == ' ')
        p++;
    else if (*p == 'x' && t->fig && !placing) /* Qx3,2: a capture */
        dash = 1, p++;
    Coord a;
    if (read_sq(&p, &a))
        return -1;
    if (!*p) { /* FIGURE SQUARE: a placement, or a move to there */
        if (!t->fig)
            return -1;
        t->kind = placing || at ? TM_PLACE : 4;
        t->to = a;
        return 0;
    }
    if (at || dash || (*p != '-' && *p != 'x'))
        return -1;
    p++;
    Coord b;
    if (read_sq(&p, &b) || *p)
        return -1;
    t->kind = TM_MOVE;
    t->from = a;
    t->to = b;
    return 0;
}

static int tile_parse(const Game *g, const void *st, const ActionList *legal,
                      const char *text, Action *out, Error *e)
{
    const TileState *s = cst(st);
    const int placing = tile_placing(s);
    char clip[64];
    str_clip(clip, sizeof clip, text);
    Typed t;
    if (read_typed(text, placing, &t)) {
        char ex[48] = "Q@1,0"; /* a placement the game accepts now, 0,0 first */
        for (int i = 0; placing && i < legal->n; i++)
            if (legal->v[i].kind == ACT_PLACE) {
                snprintf(ex, sizeof ex, "%c@%ld,%ld", figure_letter(legal->v[i].figure),
                         (long)legal->v[i].to.x, (long)legal->v[i].to.y);
                break;
            }
        if (placing)
            return err_set(e, "%s: not an action here; place a piece: figure @ square "
                              "(%s), or random for the rest of the table", clip, ex);
        return err_set(e, "%s: not an action here; move: from-to (1,0-3,2), figure and "
                          "square (Qx3,2), or pass when nothing can move", clip);
    }
    int hit = -1, hits = 0;
    for (int i = 0; i < legal->n; i++) {
        const Action *a = &legal->v[i];
        int ok = 0;
        if (t.kind == TM_PASS)
            ok = a->kind == ACT_PASS;
        else if (t.kind == TM_PLACE)
            ok = a->kind == ACT_PLACE && a->figure == t.fig && coord_eq(a->to, t.to);
        else if (a->kind == ACT_MOVE && coord_eq(a->to, t.to)) {
            const int j = tile_find(s, a->from.x, a->from.y);
            ok = (t.kind == 4 || coord_eq(a->from, t.from)) &&
                 (!t.fig || (j >= 0 && s->p[j].fig == t.fig));
        }
        if (ok) {
            hits++;
            hit = i;
        }
    }
    if (hits == 1) {
        *out = legal->v[hit];
        return 0;
    }
    if (hits > 1) {
        StrBuf b = STRBUF_INIT;
        for (int i = 0; i < legal->n; i++)
            if (legal->v[i].kind == ACT_MOVE && coord_eq(legal->v[i].to, t.to)) {
                const int j = tile_find(s, legal->v[i].from.x, legal->v[i].from.y);
                if (j >= 0 && s->p[j].fig == t.fig) {
                    sb_puts(&b, b.len ? " or " : "");
                    tile_format(g, st, &legal->v[i], FMT_RECORD, &b);
                }
            }
        err_set(e, "%s: more than one %s can go there: write %s", clip,
                figure_name(t.fig), sb_str(&b));
        sb_free(&b);
        return -1;
    }
    /* not legal: say why */
    TMove m;
    memset(&m, 0, sizeof m);
    m.kind = (uint8_t)(t.kind == 4 ? TM_MOVE : t.kind);
    m.fig = (uint8_t)t.fig;
    m.x = t.to.x;
    m.y = t.to.y;
    char why[200] = "not legal now";
    if (t.kind == TM_PLACE && !t.fig) {
        str_copy(why, sizeof why, "say which figure (Q@1,0)");
    } else if (t.kind == TM_MOVE) {
        const int i = tile_find(s, t.from.x, t.from.y);
        if (i < 0)
            snprintf(why, sizeof why, "no piece on %ld,%ld", (long)t.from.x,
                     (long)t.from.y);
        else if (t.fig && s->p[i].fig != t.fig)
            snprintf(why, sizeof why, "the piece on %ld,%ld is a %s", (long)t.from.x,
                     (long)t.from.y, figure_name(s->p[i].fig));
        else {
            m.from = (uint8_t)i;
            tile_explain(g, s, &m, why, sizeof why);
        }
    } else if (t.kind == 4) {
        snprintf(why, sizeof why, "no %s of %s can go there (write from-to to learn why)",
                 figure_name(t.fig), TILE_COLOURS[s->turn]);
    } else {
        tile_explain(g, s, &m, why, sizeof why);
    }
    return err_set(e, "%s: %s", clip, why);
}

/* `random` (TILE-2): the rest of the placement, each placement drawn
 * uniformly from the legal ones of the seat to act in turn.  The draws come
 * from a generator seeded by the game's seed and the position, so the
 * same game and position give the same table; the record keeps the
 * placements themselves. */
typedef struct Pick {
    uint32_t want, k;
    TMove m;
} Pick;

static int pick_visit(void *ud, const TMove *m)
{
    Pick *p = ud;
    if (p->k++ == p->want) {
        p->m = *m;
        return 1;
    }
    return 0;
}

static uint64_t tile_hash(const Game *g, const void *st);

static int tile_parse_seq(const Game *g, const void *st, int seat, const char *text,
                          ActionList *out, Error *e)
{
    char buf[32];
    if (strlen(text) >= sizeof buf)
        return 0;
    str_copy(buf, sizeof buf, text);
    if (!str_ieq(str_trim(buf), "random"))
        return 0;
    TileState t = *cst(st);
    if (!tile_placing(&t))
        return err_set(e, "random: only during placement (TILE-2)");
    if (seat != tile_to_act(g, st))
        return err_set(e, "random: it is %s's turn to place", TILE_COLOURS[t.turn]);
    Rng r;
    rng_seed(&r, game_config(g)->seed ^ tile_hash(g, st));
    while (tile_placing(&t)) {
        const int n = tile_gen(g, &t, NULL, NULL);
        Pick p = {rng_below(&r, (uint32_t)n), 0, {0, 0, 0, 0, 0}};
        tile_gen(g, &t, pick_visit, &p);
        Action a = to_action(&t, &p.m);
        al_push(out, &a);
        tile_make(g, &t, &p.m, NULL);
    }
    return 1;
}

/* ---- Status, draws, the repetition key ----------------------------------------- */

/* TILE-11: each seat's score, the values of the pieces it commands. */
static void score_count(const Game *g, const TileState *s, int *score)
{
    const Params *pv = game_params(g);
    for (int c = 0; c < TILE_MAX_SIDES; c++)
        score[c] = 0;
    for (int i = 0; i < s->n; i++)
        score[s->cmd[s->p[i].col]] += pv->values[s->p[i].fig];
}

static void scores(const Game *g, const TileState *s, StrBuf *out)
{
    int score[TILE_MAX_SIDES];
    score_count(g, s, score);
    sb_puts(out, "scores:");
    int first = 1;
    for (int c = 0; c < s->nsides; c++)
        if (tile_in_game(s, c)) {
            sb_printf(out, "%s %s %d", first ? "" : ",", TILE_COLOURS[c], score[c]);
            first = 0;
        }
}

static void tile_draw_note(const Game *g, const void *st, char *buf, size_t n)
{
    StrBuf b = STRBUF_INIT;
    scores(g, cst(st), &b);
    str_copy(buf, n, sb_str(&b));
    sb_free(&b);
}

static void draw_result(const Game *g, const TileState *s, Status *out, int code,
                        const char *why)
{
    StrBuf b = STRBUF_INIT;
    sb_printf(&b, "%s; ", why);
    scores(g, s, &b);
    out->over = 1;
    out->winners = 0;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, sb_str(&b));
    sb_free(&b);
}

static void tile_status(const Game *g, const void *st, Status *out)
{
    const TileState *s = cst(st);
    out->in_check = tile_checks(s, NULL);
    if (tile_seats_in_game(s) <= 1) {
        for (int c = 0; c < s->nsides; c++)
            if (tile_in_game(s, c))
                out->winners = 1u << c;
        out->over = 1;
        out->code = END_LAST_KING;
        str_copy(out->reason, sizeof out->reason, "the last King on the table (TILE-10)");
        return;
    }
    if (tile_structural_end(s))
        draw_result(g, s, out, END_PASS_ROUND, "a full round of passes (TILE-9)");
    else if (game_repetitions(g) >= 3)
        draw_result(g, s, out, END_THREEFOLD, "threefold repetition (TILE-11)");
}

/* The same table up to a translation, the same commands, hands and seat to
 * act (TILE-11).  A sum of per-piece keys does not depend on their order. */
static uint64_t tile_hash(const Game *g, const void *st)
{
    (void)g;
    const TileState *s = cst(st);
    int32_t x0, y0, x1, y1;
    tile_box(s, &x0, &y0, &x1, &y1);
    uint64_t h = mix64(0x74696c65ULL ^ s->turn);
    for (int i = 0; i < s->n; i++) {
        const TPiece *q = &s->p[i];
        h += mix64(((uint64_t)(uint32_t)(q->x - x0) << 32) ^
                   ((uint64_t)(uint32_t)(q->y - y0) << 8) ^ (uint64_t)(q->col * 8 + q->fig));
    }
    for (int c = 0; c < s->nsides; c++) {
        h = mix64(h ^ ((uint64_t)(uint8_t)s->cmd[c] << 8) ^ (uint64_t)c);
        for (int f = FIG_PAWN; f <= FIG_KING; f++)
            h = mix64(h ^ ((uint64_t)s->hand[c][f] << 16) ^ (uint64_t)f);
    }
    return h;
}

static int tile_may_resign(const Game *g, const void *st, int seat)
{
    /* TILE-10: resignation only in a game of two sides */
    return game_nsides(g) == 2 && tile_in_game(cst(st), seat);
}

/* ---- Life cycle, views, perft ---------------------------------------------------- */

static int tile_init_op(Game *g, void *st, const char *position, Error *e)
{
    const int n = game_nsides(g);
    if (n < 2 || n > TILE_MAX_SIDES)
        return err_set(e, "tile is played by 2 to 6 sides, not %d", n);
    if (game_nseats(g) != n)
        return err_set(e, "tile has one seat per side");
    return tile_init(g, (TileState *)st, position, e);
}

static void tile_write_position(const Game *g, const void *st, StrBuf *out)
{
    (void)g;
    tile_write(cst(st), out);
}

/* game:phase() of house-rule scripts (TILE-2). */
static const char *tile_phase(const Game *g, const void *st)
{
    (void)g;
    return tile_placing(cst(st)) ? "placement" : "play";
}

static Geometry tile_geometry(const Game *g, const void *st)
{
    (void)g;
    (void)st;
    Geometry geo = {0, 0, 0}; /* the unbounded plane */
    return geo;
}

static const char *tile_side_name(const Game *g, int side)
{
    (void)g;
    return side >= 0 && side < TILE_MAX_SIDES ? TILE_COLOURS[side] : "nobody";
}

static void last_move(const Game *g, View *v)
{
    for (int i = game_history_len(g) - 1; i >= 0; i--) {
        const HistoryEntry *h = game_history(g, i);
        if (h->action.kind == ACT_MOVE || h->action.kind == ACT_PLACE ||
            h->action.kind == ACT_PASS) {
            str_copy(v->last_text, sizeof v->last_text, h->text);
            if (h->action.kind == ACT_MOVE) {
                v->has_last = 1;
                v->last_from = h->action.from;
                v->last_to = h->action.to;
            }
            return;
        }
    }
}

/* The kind of the first action generated, then stop: a pass is generated
 * only when there is no move (TILE-9), so a first pass means "must pass". */
static int first_kind(void *ud, const TMove *m)
{
    *(int *)ud = m->kind;
    return 1;
}

/* The first action generated, then stop. */
static int first_move(void *ud, const TMove *m)
{
    *(TMove *)ud = *m;
    return 1;
}

static void view_info(const Game *g, const TileState *s, int seat, View *v)
{
    StrBuf b = STRBUF_INIT;
    if (tile_placing(s)) {
        sb_puts(&b, "placement (TILE-2): in hand");
        for (int c = 0; c < s->nsides; c++) {
            sb_printf(&b, "%s %s ", c ? "," : "", TILE_COLOURS[c]);
            if (tile_hand_size(s, c))
                tile_write_hand(s, c, &b);
            else
                sb_puts(&b, "-");
        }
        sb_printf(&b, "\n%s moves first once every piece is placed",
                  TILE_COLOURS[s->first]);
    }
    for (int c = 0; c < s->nsides; c++) {
        if (!tile_in_game(s, c))
            continue;
        int many = 0;
        for (int d = 0; d < s->nsides; d++)
            many += d != c && s->cmd[d] == c;
        if (!many)
            continue;
        sb_printf(&b, "%s%s commands %s", b.len ? "\n" : "", TILE_COLOURS[c],
                  TILE_COLOURS[c]);
        for (int d = 0; d < s->nsides; d++)
            if (d != c && s->cmd[d] == c)
                sb_printf(&b, "%s%s", --many ? ", " : " and ", TILE_COLOURS[d]);
        sb_puts(&b, " (TILE-10)");
    }
    /* one line for every threatened King: with six sides, one line each
     * pushed the board off a 24-line terminal */
    unsigned threat;
    tile_checks(s, &threat);
    int nthreat = 0;
    for (int c = 0; c < s->nsides; c++)
        nthreat += (threat >> c) & 1;
    if (nthreat > 1)
        sb_printf(&b, "%sKings threatened by trapped pieces only (TILE-7): ",
                  b.len ? "\n" : "");
    for (int c = 0, k = 0; c < s->nsides; c++) {
        if (!(threat & (1u << c)))
            continue;
        if (nthreat == 1)
            sb_printf(&b, "%s%s's King is threatened by trapped pieces only (TILE-7)",
                      b.len ? "\n" : "", TILE_COLOURS[c]);
        else
            sb_printf(&b, "%s%s", k == 0 ? "" : k == nthreat - 1 ? " and " : ", ",
                      TILE_COLOURS[c]);
        k++;
    }
    if (s->passes)
        sb_printf(&b, "%spasses in a row: %d of %d (TILE-9)", b.len ? "\n" : "", s->passes,
                  tile_seats_in_game(s));
    if (!tile_structural_end(s) && !tile_placing(s)) {
        sb_puts(&b, b.len ? "\n" : "");
        scores(g, s, &b);
        sb_puts(&b, " (TILE-11, counted at a draw)");
    }
    str_copy(v->info, sizeof v->info, sb_str(&b));
    sb_free(&b);
    if (seat >= 0 && seat == v->seat_to_act) {
        TMove m = {0};
        if (tile_placing(s) && tile_gen(g, s, first_move, &m) > 0 && m.kind == TM_PLACE)
            /* the example is a placement the game accepts now: 0,0 first */
            snprintf(v->question, sizeof v->question,
                     "%s: place a piece (%c@%ld,%ld), or random for the rest of the table",
                     TILE_COLOURS[seat], figure_letter(m.fig), (long)m.x, (long)m.y);
        else if (tile_placing(s))
            snprintf(v->question, sizeof v->question,
                     "%s: place a piece, or random for the rest of the table",
                     TILE_COLOURS[seat]);
        else {
            int kind = 0;
            tile_gen(g, s, first_kind, &kind);
            if (kind == TM_PASS)
                snprintf(v->question, sizeof v->question,
                         "%s: no legal move: pass (TILE-9)", TILE_COLOURS[seat]);
        }
    }
}

static void tile_view(const Game *g, const void *st, int seat, View *v)
{
    const TileState *s = cst(st);
    uint8_t trap[TILE_MAX_PIECES];
    tile_trapped(s, trap);
    const unsigned chk = tile_checks(s, NULL);
    v->side_to_move = s->turn;
    int count[TILE_MAX_SIDES][FIG__COUNT];
    memset(count, 0, sizeof count);
    for (int i = 0; i < s->n && v->npieces < MAX_VIEW_PIECES; i++) {
        ViewPiece *p = &v->pieces[v->npieces++];
        p->at = (Coord){s->p[i].x, s->p[i].y};
        p->side = (int8_t)s->p[i].col;
        p->figure = s->p[i].fig;
        p->flags = (uint8_t)((trap[i] ? VP_TRAPPED : 0) |
                             (s->p[i].fig == FIG_KING && (chk & (1u << s->p[i].col))
                                  ? VP_CHECK : 0));
        count[s->p[i].col][s->p[i].fig]++;
    }
    /* captured: the army less the table and the hand (no promotions) */
    for (int c = 0; c < s->nsides; c++)
        for (int f = FIG_KING; f >= FIG_PAWN; f--) {
            int k = tile_army(g, s->nsides, f) - count[c][f] - s->hand[c][f];
            while (k-- > 0 && v->ncaptured < MAX_VIEW_PIECES) {
                ViewPiece *p = &v->captured[v->ncaptured++];
                p->side = (int8_t)c;
                p->figure = (uint8_t)f;
            }
        }
    if (v->brief) /* look-ahead: the pieces are all it needs */
        return;
    /* what view_info says in words: sides out, threats, scores */
    for (int c = 0; c < s->nsides; c++)
        if (!tile_in_game(s, c))
            v->out |= 1u << c;
    tile_checks(s, &v->threatened);
    if (!tile_placing(s)) {
        int score[TILE_MAX_SIDES];
        score_count(g, s, score);
        v->has_scores = 1;
        for (int c = 0; c < s->nsides && c < MAX_SIDES; c++)
            v->scores[c] = score[c];
    }
    last_move(g, v);
    view_info(g, s, seat, v);
    StrBuf b = STRBUF_INIT;
    tile_write(s, &b);
    str_copy(v->position, sizeof v->position, sb_str(&b));
    sb_free(&b);
}

typedef struct Perft {
    const Game *g;
    const TileState *s;
    int depth;
    uint64_t total;
} Perft;

static uint64_t perft_rec(const Game *g, const TileState *s, int depth);

static int perft_visit(void *ud, const TMove *m)
{
    Perft *p = ud;
    TileState t = *p->s;
    tile_make(p->g, &t, m, NULL);
    p->total += perft_rec(p->g, &t, p->depth - 1);
    return 0;
}

static uint64_t perft_rec(const Game *g, const TileState *s, int depth)
{
    if (depth == 1)
        return (uint64_t)tile_gen(g, s, NULL, NULL);
    Perft p = {g, s, depth, 0};
    tile_gen(g, s, perft_visit, &p);
    return p.total;
}

static uint64_t tile_perft(const Game *g, const void *st, int depth)
{
    return depth <= 0 ? 1 : perft_rec(g, cst(st), depth);
}

static int tile_edit_op(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    return tile_edit(g, (TileState *)st, ed, ev, e);
}

static const VariantHelp TILE_HELP[] = {
    {"F@x,y", "place a piece from your hand, the King last (TILE-2)", "Q@1,0"},
    {"random", "place the rest of the table at random (TILE-2)", "random"},
    {"x,y-x,y", "move the piece on x,y to x,y (TILE-3..5)", "0,1-0,2"},
    {"Fx,y-x,y", "the same with the figure; x for a capture", "Q1,0x3,2"},
    {"Fx,y", "figure and square, when only one such piece can go", "Q3,2"},
    {"pass", "when you have no legal move (TILE-9)", "pass"},
    {NULL, NULL, NULL},
};

/* The rules as data (core/variant.h RuleInfo; issue 22, docs/TEACHING.md). */
static const RuleInfo TILE_RULES[] = {
    {"TILE-1", AREA_BOARD, -1, "ORTH-1", "",
     "no board: 2 to 6 armies, fewer pawns with more sides",
     NULL},
    {"TILE-2", AREA_BOARD, AREA_TURNS, "ORTH-1", "",
     "the sides place their pieces one by one, all touching",
     NULL},
    {"TILE-3", AREA_MOVES, -1, "", "",
     "after every move the pieces form one group",
     NULL},
    {"TILE-4", AREA_MOVES, -1, "", "",
     "a piece may pass over its own side's pieces",
     NULL},
    {"TILE-5", AREA_MOVES, -1, "ORTH-2 ORTH-3 ORTH-4 ORTH-5", "",
     "pawns step any way; no castling, double step, en passant, promotion",
     NULL},
    {"TILE-6", AREA_MOVES, -1, "", "",
     "a piece linking two groups is trapped and cannot move",
     NULL},
    {"TILE-7", AREA_CHECK, -1, "", "",
     "a King attacked only by trapped pieces is threatened, not in check",
     NULL},
    {"TILE-8", AREA_CHECK, -1, "ORTH-6", "",
     "several Kings may be in check; no move may leave the own King in check",
     NULL},
    {"TILE-9", AREA_TURNS, AREA_END, "ORTH-7", "",
     "a side with no legal move passes: no checkmate, no stalemate",
     NULL},
    {"TILE-10", AREA_CAPTURES, AREA_END, "ORTH-7", "",
     "taking a King wins its army; the last King wins",
     NULL},
    {"TILE-11", AREA_DRAWS, -1, "ORTH-9", "ORTH-8",
     "threefold repetition draws at once; draws are scored",
     "g1h3 e4e5 h3g1 e5e4 g1h3 e4e5 h3g1 e5e4 g1h3"},
    {"TILE-12", AREA_TURNS, -1, "", "",
     "table talk is for the people at the table",
     NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData TILE_RULE_DATA = {TILE_RULES, NULL,
    "P@0,0|P@0,1|P@1,0|P@1,1|P@2,0|P@2,1|P@3,0|P@3,1|P@4,0|P@4,1|P@5,0|P@5,1|P@6,0|P@6,1|"
    "P@7,0|P@7,1|R@0,-1|R@0,2|N@1,-1|N@1,2|B@2,-1|B@2,2|Q@3,-1|Q@3,2|B@5,-1|B@5,2|N@6,-1|"
    "N@6,2|R@7,-1|R@7,2|K@4,-1|K@4,2",
    NULL, 1};

const VariantOps tile_variant = {
    .version = 8,
    .name = "tile",
    .title = "Tile Chess",
    .summary = "no board: 2 to 6 sides place their pieces on an open plane, all "
               "connected; take Kings to win their armies (TILE-1..12)",
    .params = TILE_PARAMS,
    .nparams = TP__COUNT,
    .min_sides = 2,
    .max_sides = 6,
    .default_sides = 2,
    .state_size = sizeof(TileState),
    .init = tile_init_op,
    .write_position = tile_write_position,
    .geometry = tile_geometry,
    .side_name = tile_side_name,
    .to_act = tile_to_act,
    .side_to_move = tile_side_to_move,
    .seat_of_side = tile_seat_of_side,
    .legal = tile_legal_op,
    .apply = tile_apply,
    .parse = tile_parse,
    .format = tile_format,
    .hash = tile_hash,
    .status = tile_status,
    .view = tile_view,
    .perft = tile_perft,
    .may_resign = tile_may_resign,
    .parse_seq = tile_parse_seq,
    .hidden_info = 0,
    .help = TILE_HELP,
    .rules = tile_rules,
    .values = TILE_VALUES,
    .draw_note = tile_draw_note,
    .edit = tile_edit_op,
    .phase = tile_phase,
    .why = tile_why,
    .rule_data = &TILE_RULE_DATA,
};
