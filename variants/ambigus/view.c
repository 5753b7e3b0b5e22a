/*
 * view.c -- what a seat sees of an Échecs ambigus game.  Nothing is hidden
 * (the position string is in every view), and the view answers the
 * questions the rules raise: which squares are ambiguous and which are
 * not before a square is named (AMBI-2, the seed's Note 3), which pieces
 * the chooser picks among, what the mover proposed under the clock
 * procedure (AMBI-7), and whose King can be taken (AMBI-4): the one
 * place that says so, since there is no check (Status.in_check stays 0)
 * and moves announce no attack.
 *
 * Invariant: a view is built from the state blob and the game's history
 * only; every seat gets the same board, lines and position string, and
 * only the seat to act gets a question.
 */
#include <stdio.h>
#include <string.h>

#include "amb.h"
#include "../orthodox/bitboard.h"

static void add_line(View *v, const char *text)
{
    size_t len = strlen(v->info);
    if (len + strlen(text) + 2 > sizeof v->info)
        return;  /* never cut a line in half */
    snprintf(v->info + len, sizeof v->info - len, "%s%s", len ? "\n" : "", text);
}

static void square_list(Bitboard b, StrBuf *out)
{
    char sq[3];
    if (!b)
        sb_puts(out, "none");
    for (int first = 1; b; first = 0)
        sb_printf(out, "%s%s", first ? "" : " ", chess_square_name(bb_pop(&b), sq));
}

/* "ambiguous: d2 f3 / unambiguous: a3 a4 ...", then whose King is open. */
static void naming_lines(const AmbState *s, View *v)
{
    const Position *p = &s->pos;
    const int us = p->side, them = us ^ 1;
    Move list[AMB_MAX_MOVES];
    Bitboard all, ambiguous;
    StrBuf b = STRBUF_INIT;
    char sq[3];
    amb_targets(list, amb_moves(p, list), &all, &ambiguous);
    sb_puts(&b, "ambiguous: ");
    square_list(ambiguous, &b);
    sb_puts(&b, " / unambiguous: ");
    square_list(all & ~ambiguous, &b);
    add_line(v, sb_str(&b));
    sb_free(&b);
    /* There is no check (AMBI-4), so Status.in_check stays empty: these
     * lines say what an attacked King means, to every seat alike. */
    char line[160];
    if (amb_king_attacked(p, them)) {
        snprintf(line, sizeof line, "%s's King on %s can be taken: %s may name %s now and "
                 "win (AMBI-4)", AMB_SIDE_NAMES[them],
                 chess_square_name(amb_king_square(p, them), sq), AMB_SIDE_NAMES[us], sq);
        add_line(v, line);
    }
    if (amb_king_attacked(p, us)) {
        snprintf(line, sizeof line, "%s's King on %s is attacked: if it still is after %s's "
                 "move, %s may name its square and win (AMBI-4)", AMB_SIDE_NAMES[us],
                 chess_square_name(amb_king_square(p, us), sq), AMB_SIDE_NAMES[us],
                 AMB_SIDE_NAMES[them]);
        add_line(v, line);
    }
}

/* Who picks among what, and the proposal, while a choice is pending. */
static void choice_lines(const AmbState *s, View *v)
{
    const Position *p = &s->pos;
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int k = amb_candidates(list, amb_moves(p, list), s->named, cand);
    StrBuf b = STRBUF_INIT;
    char sq[3];
    sb_printf(&b, "%s named %s; %s chooses among:", AMB_SIDE_NAMES[p->side],
              chess_square_name(s->named, sq), AMB_SIDE_NAMES[p->side ^ 1]);
    for (int i = 0; i < k; i++) {
        sb_putc(&b, ' ');
        amb_piece_text(p, cand[i], &b);
    }
    add_line(v, sb_str(&b));
    if (s->has_proposal) {
        sb_reset(&b);
        sb_printf(&b, "%s proposes ", AMB_SIDE_NAMES[p->side]);
        amb_move_text(p, s->proposal, &b);
        sb_puts(&b, " (clock procedure): keep it, or choose another");
        add_line(v, sb_str(&b));
    }
    sb_free(&b);
}

static void question(const Game *g, const AmbState *s, View *v)
{
    const Position *p = &s->pos;
    const char *mover = AMB_SIDE_NAMES[p->side], *other = AMB_SIDE_NAMES[p->side ^ 1];
    if (s->phase == AP_NAME) {
        snprintf(v->question, sizeof v->question,
                 "%s: name a square (%s then chooses which of your pieces goes there)%s",
                 mover, other, game_param(g, AM_CLOCK) ? ", or play a whole move" : "");
        return;
    }
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int k = amb_candidates(list, amb_moves(p, list), s->named, cand);
    StrBuf b = STRBUF_INIT;
    char sq[3];
    sb_printf(&b, "%s: choose the %s piece that goes to %s:", other, mover,
              chess_square_name(s->named, sq));
    for (int i = 0; i < k; i++) {
        Action a = amb_choose_action(s, cand[i]);
        sb_puts(&b, i ? ", " : " ");
        amb_format(g, s, &a, FMT_MACHINE, &b);
    }
    if (s->has_proposal)
        sb_puts(&b, ", or keep");
    str_copy(v->question, sizeof v->question, sb_str(&b));
    sb_free(&b);
}

/* The last play action in words: "f3 (Ng1f3)", or "f3: black chose Ng1"
 * when the opponent chose. */
static void last_text(const Game *g, View *v)
{
    for (int i = game_history_len(g) - 1; i >= 0; i--) {
        const HistoryEntry *h = game_history(g, i);
        if (h->action.kind == ACT_MOVE) {
            str_copy(v->last_text, sizeof v->last_text, h->text);
            return;
        }
        if (h->action.kind != ACT_CHOOSE)
            continue;
        const char *piece = strncmp(h->text, "choose ", 7) == 0 ? h->text + 7 : h->text;
        char sq[3];
        StrBuf b = STRBUF_INIT;
        chess_square_name(CH_SQ(h->action.to.x & 7, h->action.to.y & 7), sq);
        sb_printf(&b, "%s: %s chose %s", sq, AMB_SIDE_NAMES[h->action.seat & 1], piece);
        str_copy(v->last_text, sizeof v->last_text, sb_str(&b));
        sb_free(&b);
        return;
    }
}

void amb_view(const Game *g, const void *st, int seat, View *v)
{
    const AmbState *s = st;
    const Position *p = &s->pos;
    StrBuf pos = STRBUF_INIT;
    char sq[3], line[160];

    v->side_to_move = p->side;
    for (int i = 0; i < 64 && v->npieces < MAX_VIEW_PIECES; i++) {
        if (!p->board[i])
            continue;
        ViewPiece *vp = &v->pieces[v->npieces++];
        vp->at = coord_make(i & 7, i >> 3);
        vp->side = (int8_t)CH_COLOR(p->board[i]);
        vp->figure = (uint8_t)CH_FIG(p->board[i]);
    }
    if (s->has_last) {
        v->has_last = 1;
        v->last_from = coord_make(MOVE_FROM(s->last) & 7, MOVE_FROM(s->last) >> 3);
        v->last_to = coord_make(MOVE_TO(s->last) & 7, MOVE_TO(s->last) >> 3);
    }
    if (v->brief) /* look-ahead: the pieces are all it needs */
        return;
    last_text(g, v);
    amb_write(s, &pos);
    str_copy(v->position, sizeof v->position, sb_str(&pos));
    sb_free(&pos);
    if (v->seat_to_act >= 0 && seat == v->seat_to_act)
        question(g, s, v);

    if (s->phase == AP_OVER) {
        snprintf(line, sizeof line, "%s named %s, the square of the %s King (AMBI-4)",
                 AMB_SIDE_NAMES[p->side], chess_square_name(s->named, sq),
                 AMB_SIDE_NAMES[p->side ^ 1]);
        add_line(v, line);
    } else if (s->phase == AP_CHOOSE) {
        choice_lines(s, v);
    } else if (!v->status.over) {
        naming_lines(s, v);
    }
    if (game_param(g, AM_MATE) && !v->status.over) {
        static const char *const FATE[3] = {"a win", "a draw", "a loss"};
        snprintf(line, sizeof line, "mate rule on (AMBI-6); stalemate is %s for the side "
                 "that delivers it", FATE[game_param(g, AM_STALEMATE) % 3]);
        add_line(v, line);
    }
    if (game_param(g, AM_CLOCK) && !v->status.over)
        add_line(v, "clock procedure on (AMBI-7): a whole move names its square and "
                    "proposes the piece");
}
