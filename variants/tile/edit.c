/*
 * edit.c -- house-rule edits of the Tile Chess table (HOUSE-5, core/variant.h
 * Edit): remove a piece, add one, change one's figure, from a react script
 * (game:remove, game:add, game:change), and give the turn to a seat (a
 * schedule's extra move, EDIT_TURN, issue 25).  The choices are
 * docs/TILE.md, "House-rule edits".
 *
 * Invariant: an edit that passes the table's own tests -- a square within
 * TILE_LIMIT, the table one group (TILE-3: a removed piece is no link, an
 * added one touches the table), one King per seat in the game and none for
 * a commanded colour (TILE-1, TILE-10), the army (TILE-1: only a figure the
 * colour has lost comes back) -- is written as a position string and read
 * back with tile_init, so the blob is exactly what the reader builds for
 * it; hands, commands and passes are never touched, the turn only by
 * EDIT_TURN (to a seat in the game that can act).  On -1 the state given
 * is unchanged.
 */
#include <stdio.h>
#include <string.h>
#include "tile.h"

/* Figures as messages name them (the King with a capital, as the rules). */
static const char *const FIG_TEXT[FIG__COUNT] = {"?",     "pawn", "knight", "bishop",
                                                 "rook",  "queen", "King",  "?"};

static const char *fig_text(int fig)
{
    return fig >= 0 && fig < FIG__COUNT ? FIG_TEXT[fig] : "?";
}

/* "the red knight on 2,-1" */
static const char *piece_text(const TPiece *q, char *buf, size_t n)
{
    snprintf(buf, n, "the %s %s on %ld,%ld", TILE_COLOURS[q->col], fig_text(q->fig),
             (long)q->x, (long)q->y);
    return buf;
}

/* TILE-3: does x,y touch a piece of the table (side or corner)? */
static int touches_table(const TileState *s, int32_t x, int32_t y)
{
    for (int i = 0; i < s->n; i++) {
        const int64_t dx = (int64_t)s->p[i].x - x, dy = (int64_t)s->p[i].y - y;
        if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
            return 1;
    }
    return 0;
}

/* TILE-1: how many pieces of fig colour col has lost (army less table and
 * hand); an added piece takes the place of one of them. */
static int lost(const Game *g, const TileState *s, int col, int fig)
{
    int k = tile_army(g, s->nsides, fig) - s->hand[col][fig];
    for (int i = 0; i < s->n; i++)
        k -= s->p[i].col == col && s->p[i].fig == fig;
    return k;
}

static int refuse_army(const Game *g, int col, int fig, const char *what, Error *e)
{
    const int army = tile_army(g, game_nsides(g), fig);
    return err_set(e, "cannot %s: %s's army has %d %s%s and none is lost (TILE-1: a piece "
                      "comes back only in place of a captured one)",
                   what, TILE_COLOURS[col], army, fig_text(fig), army == 1 ? "" : "s");
}

/* A King for colour col (added, or changed into): never (TILE-1, TILE-10). */
static int refuse_king(const TileState *s, int col, const char *what, Error *e)
{
    if (s->cmd[col] != col)
        return err_set(e, "cannot %s: %s's King was captured and %s commands %s; a King "
                          "never comes back (TILE-10)",
                       what, TILE_COLOURS[col], TILE_COLOURS[s->cmd[col]],
                       TILE_COLOURS[col]);
    const int k = tile_king(s, col);
    if (k < 0)
        return err_set(e, "cannot %s: %s has its King in hand and every seat in the game "
                          "keeps exactly one King (TILE-1)",
                       what, TILE_COLOURS[col]);
    return err_set(e, "cannot %s: %s has its King on %ld,%ld and every seat in the game "
                      "keeps exactly one King (TILE-1)",
                   what, TILE_COLOURS[col], (long)s->p[k].x, (long)s->p[k].y);
}

static void take_out(TileState *s, int i)
{
    memmove(&s->p[i], &s->p[i + 1], (size_t)(s->n - i - 1) * sizeof s->p[0]);
    memset(&s->p[s->n - 1], 0, sizeof s->p[0]);
    s->n--;
}

static int edit_remove(TileState *t, int32_t x, int32_t y, StrBuf *said, Error *e)
{
    char piece[64];
    const int i = tile_find(t, x, y);
    if (i < 0)
        return err_set(e, "no piece on %ld,%ld", (long)x, (long)y);
    piece_text(&t->p[i], piece, sizeof piece);
    if (t->p[i].fig == FIG_KING)
        return err_set(e, "cannot remove %s: every seat in the game keeps exactly one King; "
                          "a King leaves the table only when captured (TILE-1, TILE-10)",
                       piece);
    take_out(t, i);
    if (!tile_one_group(t))
        return err_set(e, "cannot remove %s: it is the only link between two groups, and "
                          "the table must stay one group (TILE-3)",
                       piece);
    sb_printf(said, "house rule: %s is removed", piece);
    return 0;
}

static int edit_add(const Game *g, TileState *t, const Edit *ed, StrBuf *said,
                    StrBuf *what, Error *e)
{
    char piece[64];
    const int32_t x = ed->at.x, y = ed->at.y;
    if (ed->side < 0 || ed->side >= t->nsides)
        return err_set(e, "cannot add a piece on %ld,%ld for side %d: this game's colours "
                          "are %s to %s",
                       (long)x, (long)y, ed->side, TILE_COLOURS[0],
                       TILE_COLOURS[t->nsides - 1]);
    if (ed->figure < FIG_PAWN || ed->figure > FIG_KING)
        return err_set(e, "cannot add a piece on %ld,%ld: figure %d is not one of P N B R "
                          "Q K",
                       (long)x, (long)y, ed->figure);
    sb_printf(what, "add a %s %s on %ld,%ld", TILE_COLOURS[ed->side], fig_text(ed->figure),
              (long)x, (long)y);
    if (ed->masked)
        return err_set(e, "cannot %s masked: no piece is masked in Tile Chess", sb_str(what));
    const int i = tile_find(t, x, y);
    if (i >= 0)
        return err_set(e, "cannot %s: %s stands there (remove it first)", sb_str(what),
                       piece_text(&t->p[i], piece, sizeof piece));
    if (ed->figure == FIG_KING)
        return refuse_king(t, ed->side, sb_str(what), e);
    if (t->n == 0 && (x != 0 || y != 0))
        return err_set(e, "cannot %s: the table is empty, and its first piece goes on 0,0 "
                          "(TILE-2)",
                       sb_str(what));
    if (t->n && !touches_table(t, x, y))
        return err_set(e, "cannot %s: %ld,%ld touches no piece; an added piece must touch "
                          "the table by a side or a corner, which stays one group (TILE-3)",
                       sb_str(what), (long)x, (long)y);
    if (lost(g, t, ed->side, ed->figure) <= 0)
        return refuse_army(g, ed->side, ed->figure, sb_str(what), e);
    if (t->n >= TILE_MAX_PIECES)
        return err_set(e, "cannot %s: the table holds %d pieces at most", sb_str(what),
                       TILE_MAX_PIECES);
    tile_put(t, (TPiece){.x = x, .y = y, .col = (uint8_t)ed->side,
                         .fig = (uint8_t)ed->figure});
    sb_printf(said, "house rule: a %s %s is added on %ld,%ld", TILE_COLOURS[ed->side],
              fig_text(ed->figure), (long)x, (long)y);
    return 0;
}

static int edit_change(const Game *g, TileState *t, const Edit *ed, StrBuf *said,
                       StrBuf *what, Error *e)
{
    char piece[64];
    const int32_t x = ed->at.x, y = ed->at.y;
    const int i = tile_find(t, x, y);
    if (i < 0)
        return err_set(e, "no piece on %ld,%ld", (long)x, (long)y);
    piece_text(&t->p[i], piece, sizeof piece);
    if (ed->figure < FIG_PAWN || ed->figure > FIG_KING)
        return err_set(e, "cannot change %s: figure %d is not one of P N B R Q K", piece,
                       ed->figure);
    const int col = t->p[i].col, old = t->p[i].fig;
    sb_printf(what, "change %s into a %s", piece, fig_text(ed->figure));
    if (old == ed->figure)
        return err_set(e, "cannot %s: it is one already", sb_str(what));
    if (old == FIG_KING)
        return err_set(e, "cannot %s: every seat in the game keeps exactly one King "
                          "(TILE-1)",
                       sb_str(what));
    if (ed->figure == FIG_KING)
        return refuse_king(t, col, sb_str(what), e);
    if (lost(g, t, col, ed->figure) <= 0)
        return refuse_army(g, col, ed->figure, sb_str(what), e);
    t->p[i].fig = (uint8_t)ed->figure;
    sb_printf(said, "house rule: %s becomes a %s", piece, fig_text(ed->figure));
    return 0;
}

/* TILE-8: after an edit, the Kings in check when that set has changed. */
static void report_checks(const TileState *old, const TileState *s, Events *ev)
{
    const unsigned before = tile_checks(old, NULL), now = tile_checks(s, NULL);
    if (before == now)
        return;
    if (!now) {
        ev_emit(ev, SEATS_ALL, "after the house rule no King is in check");
        return;
    }
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "after the house rule, in check:");
    for (int c = 0, first = 1; c < s->nsides; c++) {
        if (!(now & (1u << c)))
            continue;
        sb_printf(&b, "%s %s's King%s", first ? "" : ",", TILE_COLOURS[c],
                  (before & (1u << c)) ? "" : " (new)");
        first = 0;
    }
    ev_emit(ev, SEATS_ALL, "%s", sb_str(&b));
    sb_free(&b);
}

static int edit_table(const Game *g, TileState *t, const Edit *ed, StrBuf *said,
                      StrBuf *what, Error *e)
{
    const int32_t x = ed->at.x, y = ed->at.y;
    if (x > TILE_LIMIT || x < -TILE_LIMIT || y > TILE_LIMIT || y < -TILE_LIMIT)
        return err_set(e, "square %ld,%ld is beyond the table's limits (|x| and |y| at "
                          "most %d)",
                       (long)x, (long)y, TILE_LIMIT);
    if (ed->kind == EDIT_REMOVE) {
        sb_printf(what, "remove the piece on %ld,%ld", (long)x, (long)y);
        return edit_remove(t, x, y, said, e);
    }
    if (ed->kind == EDIT_ADD)
        return edit_add(g, t, ed, said, what, e);
    if (ed->kind == EDIT_CHANGE)
        return edit_change(g, t, ed, said, what, e);
    return err_set(e, "unknown edit %d", ed->kind);
}

/* Stops tile_gen at the first move (a lone pass is no move). */
static int visit_move(void *ud, const TMove *m)
{
    if (m->kind != TM_MOVE)
        return 0;
    *(int *)ud = 1;
    return 1;
}

/* EDIT_TURN (issue 25, TURN-2): ed->side acts next.  During placement it
 * places again (it needs pieces in hand, TILE-2); in the move phase it
 * moves again, with any piece it commands, and must have a move: a seat
 * without one could only pass again, and a round of passes would no longer
 * be every seat's (TILE-9).  A seat that is out never acts (TILE-10).  A
 * King left in check by the mover may be taken by its extra move, as by
 * any seat's move (TILE-10: no checkmate).  No en passant (TILE-5), no
 * duck. */
static int edit_turn(const Game *g, TileState *t, const Edit *ed, StrBuf *said,
                     StrBuf *what, Error *e)
{
    if (ed->side < 0 || ed->side >= t->nsides)
        return err_set(e, "cannot give the turn to side %d: this game's colours are %s to %s",
                       ed->side, TILE_COLOURS[0], TILE_COLOURS[t->nsides - 1]);
    const int side = ed->side;
    const char *c = TILE_COLOURS[side];
    sb_printf(what, "give the turn to %s", c);
    if (ed->figure == FIG_DUCK)
        return err_set(e, "cannot %s with a duck to place: Tile Chess has no duck (duck "
                          "chess is played on the fairy variant)",
                       sb_str(what));
    if (ed->figure != FIG_NONE)
        return err_set(e, "cannot %s: figure %d is not the duck", sb_str(what), ed->figure);
    if (ed->at.x != -1 || ed->at.y != -1)
        return err_set(e, "cannot %s with en passant on %ld,%ld: Tile Chess has no en "
                          "passant (TILE-5)",
                       sb_str(what), (long)ed->at.x, (long)ed->at.y);
    if (!tile_in_game(t, side))
        return err_set(e, "cannot %s: %s's King was captured and %s commands %s; a seat "
                          "that is out never moves again (TILE-10)",
                       sb_str(what), c, TILE_COLOURS[t->cmd[side]], c);
    if (tile_seats_in_game(t) <= 1)
        return err_set(e, "cannot %s: the game is over, %s's King is the last on the table "
                          "(TILE-10)",
                       sb_str(what), c);
    if (tile_structural_end(t))
        return err_set(e, "cannot %s: the game is over, drawn by a full round of passes "
                          "(TILE-9)",
                       sb_str(what));
    if (tile_placing(t)) {
        if (!tile_hand_size(t, side))
            return err_set(e, "cannot %s: %s has placed all its pieces, and only a seat "
                              "with pieces in hand places (TILE-2)",
                           sb_str(what), c);
        t->turn = (uint8_t)side;
        sb_printf(said, "house rule: %s places again", c);
        return 0;
    }
    int moves = 0;
    t->turn = (uint8_t)side;
    tile_gen(g, t, visit_move, &moves);
    if (!moves)
        return err_set(e, "cannot %s: %s has no legal move and could only pass (TILE-9)",
                       sb_str(what), c);
    sb_printf(said, "house rule: %s moves again", c);
    return 0;
}

int tile_edit(const Game *g, TileState *s, const Edit *ed, Events *ev, Error *e)
{
    TileState t = *s, fresh;
    StrBuf said = STRBUF_INIT, what = STRBUF_INIT, pos = STRBUF_INIT;
    Error why;
    int rc = -1;
    if (ed->kind == EDIT_TURN ? edit_turn(g, &t, ed, &said, &what, e)
                              : edit_table(g, &t, ed, &said, &what, e))
        goto done;
    tile_write(&t, &pos);
    if (sb_failed(&pos) || sb_failed(&said) || sb_failed(&what)) {
        err_set(e, "out of memory");
        goto done;
    }
    if (tile_init(g, &fresh, sb_str(&pos), &why)) {
        err_set(e, "cannot %s: the position would be impossible: %s", sb_str(&what),
                why.msg);
        goto done;
    }
    ev_emit(ev, SEATS_ALL, "%s", sb_str(&said));
    report_checks(s, &fresh, ev);
    *s = fresh;
    rc = 0;
done:
    sb_free(&said);
    sb_free(&what);
    sb_free(&pos);
    return rc;
}
