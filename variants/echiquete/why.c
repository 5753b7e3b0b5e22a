/*
 * why.c -- the rule behind an action of L'Échiqueté (issue 22, `why`;
 * VariantOps.why).  Nothing is hidden in this variant: the answer speaks
 * of the board as every seat sees it.
 */
#include <string.h>

#include "ech.h"

static const char *move_clause(int fig)
{
    switch (fig) {
    case FIG_PAWN: return "a pawn steps one square forward";
    case FIG_KNIGHT: return "a knight jumps two squares one way and one the other";
    case FIG_BISHOP: return "a bishop slides along its diagonals";
    case FIG_ROOK: return "a rook slides along its file or rank";
    case FIG_QUEEN: return "a queen slides along its lines and diagonals";
    default: return "the king steps one square";
    }
}

/* The destination a move's text names (UCI or SAN: its last square, in
 * the text before the refusal's ':'), or -1. */
static int text_target(const char *refusal)
{
    int to = -1;
    for (const char *p = refusal; *p && *p != ':'; p++)
        if (p[0] >= 'a' && p[0] <= 'h' && p[1] >= '1' && p[1] <= '8')
            to = (p[1] - '1') * 8 + (p[0] - 'a');
    return to;
}

static const WhyWords OVER_PHASE1[] = {
    {"resigned", "ORTH-8"}, {"agreement", "ORTH-8"}, {"", "ECHQ-8"}, {NULL, NULL}};

static int why_refused(const EchState *s, const char *refusal, WhyRule *out)
{
    if (!strncmp(refusal, "the game is over", 16))
        return s->phase == 2 && !strstr(refusal, "resigned") && !strstr(refusal, "agreement")
                   ? why_set(out, "ECHQ-13", "%s", "")
                   : why_words(refusal, OVER_PHASE1, out);
    if (strstr(refusal, "turn to act"))
        return why_set(out, s->phase == 2 ? "ECHQ-9" : "ORTH-1", "%s", "");
    if (strstr(refusal, "no phase 2"))
        return why_set(out, "ECHQ-9", "%s", "");
    if (strstr(refusal, "ambiguous"))
        return -1; /* the text names no one action */
    if (strstr(refusal, "not a legal move")) {
        int to = text_target(refusal);
        if (s->phase == 1 && to >= 0 && s->board[to] && EK_COL(s->board[to]) == ES_MERGED)
            return why_set(out, "ECHQ-4", "a merged piece cannot be taken: on your turn "
                           "it is yours, and it blocks like any piece");
        return why_set(out, "ORTH-2 ECHQ-8", "no piece of yours can go there, or the move "
                       "would leave your King attacked");
    }
    return -1;
}

int ech_why(const Game *g, const void *st, int seat, const Action *a,
            const char *refusal, WhyRule *out)
{
    const EchState *s = st;
    (void)seat;
    if (!a)
        return why_refused(s, refusal, out);
    if (a->kind == ACT_TAKEOVER)
        return why_set(out, game_nseats(g) == 2 ? "ECHQ-12" : "ECHQ-9",
                       "after a move of phase 1 that leaves a merged piece on the board, "
                       "%s may take the merged pieces over as a side of their own",
                       game_nseats(g) == 2 ? "white's or black's seat" : "a third seat");
    if (a->kind == ACT_PASS)
        return why_set(out, "ECHQ-13", "a side not in check with no legal move passes");
    if (a->kind != ACT_MOVE)
        return -1;
    EMove m = {(int8_t)(a->from.y * 8 + a->from.x), (int8_t)(a->to.y * 8 + a->to.x),
               a->figure};
    int pc = s->board[m.from], fig = EK_FIG(pc), merged = EK_COL(pc) == ES_MERGED;
    int capture = ech_is_capture(s, m);
    if (fig == FIG_KING && (m.to - m.from == 2 || m.from - m.to == 2))
        return why_set(out, "ORTH-5 ECHQ-8", "castling, as in orthodox chess (a captured "
                       "Rook has lost its right)");
    if (fig == FIG_KING && capture)
        return why_set(out, "ECHQ-5", "a King that captures removes the captured piece: "
                       "Kings never merge");
    if (capture && s->phase == 2)
        return why_set(out, "ECHQ-10", "in phase 2 a capture removes the captured piece, "
                       "as in orthodox chess%s", merged ? " (a merged piece may take its "
                                                          "figure)" : "");
    if (capture)
        return why_set(out, merged ? "ECHQ-3" : "ECHQ-1", "%s: capturer and captured "
                       "merge into one merged piece%s", ech_is_ep(s, m) ? "en passant" :
                       merged ? "a merged piece captures again" : "a capture",
                       a->figure ? ", the figure chosen by the mover" : "");
    if (merged && s->phase == 2 && fig == FIG_PAWN)
        return why_set(out, "ECHQ-11", "the merged pawns of the merged side move both ways");
    if (merged && fig == FIG_PAWN && (m.to - m.from == 16 || m.from - m.to == 16))
        return why_set(out, "ECHQ-7", "a pawn captured on its start rank keeps its double "
                       "step");
    if (merged && s->phase == 1)
        return why_set(out, "ECHQ-2", "the merged pieces belong to the side to move: %s",
                       move_clause(fig));
    if (fig == FIG_PAWN && a->figure)
        return why_set(out, "ORTH-4", "a pawn reaching the last rank is promoted");
    return why_set(out, "ORTH-2", "%s", move_clause(fig));
}
