/*
 * why.c -- the rule behind an action of Tile Chess (issue 22, `why`;
 * VariantOps.why).  Nothing is hidden in this variant.  Most refusals
 * name their rule already (tile_explain); the table below names the
 * rest.
 */
#include <string.h>

#include "tile.h"
#include "tilevar.h"

static const WhyWords OVER[] = {
    {"last King", "TILE-10"},  {"resigned", "TILE-10"}, {"pass", "TILE-9"},
    {"", "TILE-11"},           {NULL, NULL}};
static const WhyWords REFUSALS[] = {
    {"does not command", "TILE-10"}, {"left to place", "TILE-1"},
    {"is taken", "TILE-2"},          {"placement", "TILE-2"},
    {"place", "TILE-2"},             {"may not resign", "TILE-10"},
    {"draw", "TILE-11"},             {"no piece", "TILE-5"},
    {"is a", "TILE-5"},              {"can go there", "TILE-5"},
    {"not legal now", "TILE-3 TILE-5 TILE-8"},
    {NULL, NULL}};

static const char *move_clause(int fig)
{
    switch (fig) {
    case FIG_PAWN: return "a pawn steps one square in any of the eight directions onto "
                          "an empty square";
    case FIG_KNIGHT: return "the knight jumps as in chess";
    case FIG_BISHOP: return "a bishop slides along a diagonal, over its own pieces only";
    case FIG_ROOK: return "a rook slides along a line, over its own pieces only";
    case FIG_QUEEN: return "a queen slides along a line or diagonal, over its own pieces "
                           "only";
    default: return "the King steps one square in any direction";
    }
}

int tile_why(const Game *g, const void *st, int seat, const Action *a,
             const char *refusal, WhyRule *out)
{
    const TileState *s = st;
    (void)g;
    (void)seat;
    if (!a) {
        if (!strncmp(refusal, "the game is over", 16))
            return why_words(refusal, OVER, out);
        if (strstr(refusal, "turn to act") || strstr(refusal, "'s turn"))
            return why_set(out, "TILE-2", "%s", ""); /* the refusal says whose turn */
        if (strstr(refusal, "more than one") || strstr(refusal, "not an action here"))
            return -1; /* the text names no one action */
        return why_words(refusal, REFUSALS, out);
    }
    switch (a->kind) {
    case ACT_PLACE:
        if (a->figure == FIG_KING)
            return why_set(out, "TILE-2", "the King is a side's last piece, placed "
                           "touching a placed piece, not in check nor next to another "
                           "King where another square allows it");
        if (!s->n)
            return why_set(out, "TILE-2", "the first piece goes on 0,0");
        return why_set(out, "TILE-2", "a piece is placed touching a placed piece by a "
                       "side or a corner");
    case ACT_PASS:
        return why_set(out, "TILE-9", "a side with no legal move passes");
    case ACT_RESIGN:
        return why_set(out, "TILE-10", "with two sides a seat may resign");
    case ACT_DRAW_OFFER:
    case ACT_DRAW_ACCEPT:
    case ACT_DRAW_DECLINE:
        return why_set(out, "TILE-11", "a draw agreed by every seat still in the game");
    case ACT_MOVE:
        break;
    default:
        return -1;
    }
    int i = tile_find(s, a->from.x, a->from.y), t = tile_find(s, a->to.x, a->to.y);
    if (i < 0)
        return -1;
    if (t >= 0 && s->p[t].fig == FIG_KING)
        return why_set(out, "TILE-10", "Kings are captured like any piece: the captor "
                       "takes command of every piece of that colour");
    if (t >= 0)
        return why_set(out, "TILE-5 TILE-3", "%s; it captures the %s there, and the "
                       "table stays one group",
                       s->p[i].fig == FIG_PAWN ? "a pawn captures one square diagonally"
                                               : move_clause(s->p[i].fig),
                       figure_name(s->p[t].fig));
    return why_set(out, "TILE-5 TILE-3", "%s, and the table stays one group",
                   move_clause(s->p[i].fig));
}
