/*
 * edit.c -- house-rule edits of Les Échecs Masqués (HOUSE-5,
 * core/variant.h Edit): a reaction removes, adds or changes a piece
 * between turns of play, or gives the turn to a side (a schedule's extra
 * move, EDIT_TURN, issue 25).
 *
 * Invariant: a masked piece's figure never reaches a seat that may not
 * know it.  Its owner reads the figure in the edit's message, the other
 * seat reads "the masked white piece on d2"; a refusal whose reason could
 * depend on a hidden figure (the armies' limits, a masked King) gives no
 * reason, since its text reaches the seat whose action triggered the
 * edit.  The state is changed with board.c's functions (so squares,
 * bitboards and the lost list agree), then read back from its position
 * string by the variant's own reader as a check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mq.h"

/* What is said of a piece: "the white knight on d2", "the masked white
 * knight on d2" (its owner), "the masked white piece on d2" (the other). */
static void words(StrBuf *out, int side, int fig, int masked, int sq, int owner)
{
    char b[3];
    if (masked)
        sb_printf(out, "the masked %s %s on %s", MQ_SIDE_NAMES[side],
                  owner ? MQ_FIG_NAMES[fig] : "piece", mq_sq(sq, b));
    else
        sb_printf(out, "the %s %s on %s", MQ_SIDE_NAMES[side], MQ_FIG_NAMES[fig],
                  mq_sq(sq, b));
}

/* Tell each seat what happened, in its words.  before/after: the piece
 * (NULL for none) with its figure and mask. */
static void tell(Events *ev, int kind, const MqPiece *was, const MqPiece *now, int sq)
{
    for (int seat = 0; seat < 2; seat++) {
        StrBuf b = STRBUF_INIT;
        char s[3];
        if (kind == EDIT_REMOVE) {
            words(&b, was->side, was->fig, mq_masked(was), sq, seat == was->side);
            sb_puts(&b, " is removed");
        } else if (kind == EDIT_ADD) {
            int own = seat == now->side;
            sb_printf(&b, "a %s%s %s is added on %s", mq_masked(now) ? "masked " : "",
                      MQ_SIDE_NAMES[now->side],
                      mq_masked(now) && !own ? "piece" : MQ_FIG_NAMES[now->fig],
                      mq_sq(sq, s));
        } else if (mq_masked(was) && seat != was->side) {
            words(&b, was->side, was->fig, 1, sq, 0);
            sb_puts(&b, " changes its hidden figure");
        } else {
            words(&b, was->side, was->fig, mq_masked(was), sq, 1);
            sb_printf(&b, " becomes a %s%s", mq_masked(now) ? "masked " : "",
                      MQ_FIG_NAMES[now->fig]);
        }
        ev_emit(ev, MQ_SEAT(seat), "house rule: %s", sb_str(&b));
        sb_free(&b);
    }
}

/* A free id of side (a piece off the board), or -1. */
static int free_id(const MqState *s, int side)
{
    for (int id = side * 16; id < side * 16 + 16; id++)
        if (!(s->pc[id].flags & PF_ON))
            return id;
    return -1;
}

/* The reader's verdict on the edited state (its string read back). */
static int read_back(const Game *g, const MqState *s, Error *e)
{
    StrBuf text = STRBUF_INIT;
    mq_write_position(g, s, &text);
    int rc = sb_failed(&text) ? err_set(e, "out of memory") : mq_check_position(g, sb_str(&text), e);
    sb_free(&text);
    return rc;
}

/* Why the turn cannot be given now, by the phase (public: every seat
 * knows which phase the game is in), or NULL between turns of play. */
static const char *turn_phase_refusal(const MqState *s, char *buf, size_t n)
{
    const char *mover = MQ_SIDE_NAMES[s->side], *other = MQ_SIDE_NAMES[s->side ^ 1];
    switch (s->phase) {
    case PH_PLAY:
        return NULL;
    case PH_SETUP:
        return "during the setup: both sides set up first (MASQ-1)";
    case PH_ANNOUNCE:
        snprintf(buf, n, "while %s decides whether to announce a mask check (MASQ-6)",
                 mover);
        return buf;
    case PH_ANSWER: /* the side field is the target's owner here */
        snprintf(buf, n, "while %s answers a mask check: it then plays its turn, so an "
                 "announced mask check ends the turn (MASQ-6)", mover);
        return buf;
    case PH_BATTLE:
        snprintf(buf, n, "during a battle: %s answers %s's attack (MASQ-9)", other, mover);
        return buf;
    case PH_BID:
        return "during the bidding of a masked battle (MASQ-10)";
    case PH_GIVEUP:
        snprintf(buf, n, "while %s gives up pieces after a called battle (MASQ-10)",
                 MQ_SIDE_NAMES[s->loser]);
        return buf;
    default:
        return "once the game is over";
    }
}

/* EDIT_TURN (issue 25, TURN-2): ed->side plays next, only between turns of
 * play.  Every test here is on public facts, so twin games that differ only
 * in hidden figures get the same answer and the same words: the other
 * side's revealed King in check must be answered (MASQ-14); with
 * masked_king_check on and the other King not revealed, no masked piece of
 * the other side may be attacked (it might be that King).  The en passant
 * target goes (a side never takes its own piece), or stays at ed->at when
 * a two-step of the other side passed it; the capture rights stay as they
 * are (a right lapses after its holder's next action, MASQ-6). */
static int edit_turn(const Game *g, MqState *s, const Edit *ed, Events *ev, Error *e)
{
    char why[160], sq[3];
    if (ed->side != MQ_WHITE && ed->side != MQ_BLACK)
        return err_set(e, "cannot give the turn to side %d: the sides are white and black",
                       ed->side);
    const int side = ed->side, other = side ^ 1;
    const char *c = MQ_SIDE_NAMES[side];
    if (ed->figure == FIG_DUCK)
        return err_set(e, "cannot give the turn to %s with a duck to place: Les Échecs "
                          "Masqués has no duck (duck chess is played on the fairy variant)", c);
    if (ed->figure != FIG_NONE)
        return err_set(e, "cannot give the turn to %s: figure %d is not the duck", c,
                       ed->figure);
    const char *phase = turn_phase_refusal(s, why, sizeof why);
    if (phase)
        return err_set(e, "cannot give the turn to %s %s", c, phase);
    if (mq_in_check(g, s, other, GEN_PUBLIC))
        return err_set(e, "cannot give the turn to %s: %s's King is in check (MASQ-14)", c,
                       MQ_SIDE_NAMES[other]);
    if (game_param(g, MP_MASKED_KING_CHECK) && !(s->bb[other][FIG_KING])) {
        for (int id = other * 16; id < other * 16 + 16; id++)
            if ((s->pc[id].flags & PF_ON) && mq_masked(&s->pc[id]) &&
                mq_attacked(s->bb, s->occ, s->pc[id].sq, side))
                return err_set(e, "cannot give the turn to %s: %s attacks %s's masked piece "
                                  "on %s, which may be its King, and masked_king_check is "
                                  "on (MASQ-14)",
                               c, c, MQ_SIDE_NAMES[other], mq_sq(s->pc[id].sq, sq));
    }
    const int ep = s->ep, victim = s->ep_victim;
    s->side = (uint8_t)side;
    s->ep = s->ep_victim = -1;
    if (ed->at.x != -1 || ed->at.y != -1) {
        if (ed->at.x < 0 || ed->at.x > 7 || ed->at.y < 0 || ed->at.y > 7)
            return err_set(e, "cannot give the turn to %s: en passant square (%d,%d) is off "
                              "the board", c, (int)ed->at.x, (int)ed->at.y);
        if (mq_sq_of(ed->at) != ep || victim < 0 || s->pc[victim].side != other)
            return err_set(e, "cannot give the turn to %s with en passant on %s: no two-step "
                              "of %s has just passed it (MASQ-2)",
                           c, mq_sq(mq_sq_of(ed->at), sq), MQ_SIDE_NAMES[other]);
        s->ep = (int8_t)ep;
        s->ep_victim = (int8_t)victim;
    }
    Error broke;
    if (read_back(g, s, &broke))
        return err_set(e, "cannot give the turn to %s: the position would break the rules "
                          "of the game (MASQ-1, MASQ-14)", c);
    ev_emit(ev, SEATS_ALL, "house rule: %s moves again", c);
    return 0;
}

int mq_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    MqState *s = st;
    char b[3];
    if (ed->kind == EDIT_TURN)
        return edit_turn(g, s, ed, ev, e);
    if (s->phase == PH_SETUP)
        return err_set(e, "the board may be edited only once both sides have set up (MASQ-1)");
    if (s->phase != PH_PLAY)
        return err_set(e, "the board may be edited only between turns of play, not while "
                          "an announcement, a battle or a bidding is under way "
                          "(MASQ-6, MASQ-8, MASQ-10)");
    if (ed->at.x < 0 || ed->at.x > 7 || ed->at.y < 0 || ed->at.y > 7)
        return err_set(e, "not a square of the board");
    const int sq = mq_sq_of(ed->at);
    const int id = s->at[sq];
    MqPiece was = id >= 0 ? s->pc[id] : (MqPiece){-1, 0, 0, 0};
    MqPiece now = was;
    const char *sqn = mq_sq(sq, b);

    if (ed->kind == EDIT_ADD) {
        if (ed->side < 0 || ed->side > 1 || ed->figure < FIG_PAWN || ed->figure > FIG_KING)
            return err_set(e, "no such piece to add");
        if (id >= 0) {
            StrBuf w = STRBUF_INIT;
            words(&w, was.side, was.fig, mq_masked(&was), sq, 0);
            err_set(e, "cannot add a piece on %s: %s stands there", sqn, sb_str(&w));
            sb_free(&w);
            return -1;
        }
        if (ed->figure == FIG_KING)
            return err_set(e, "cannot add a %s King on %s: Kings are never added (MASQ-1)",
                           MQ_SIDE_NAMES[ed->side], sqn);
        if (!ed->masked && ed->figure == FIG_PAWN && mq_rank(sq) == mq_last_rank(ed->side))
            return err_set(e, "cannot add a revealed %s Pawn on %s: its last rank (MASQ-3)",
                           MQ_SIDE_NAMES[ed->side], sqn);
        int nid = free_id(s, ed->side);
        if (nid < 0)
            return err_set(e, "cannot add a %s piece on %s: %s has 16 pieces on the board "
                              "(MASQ-1)", MQ_SIDE_NAMES[ed->side], sqn,
                           MQ_SIDE_NAMES[ed->side]);
        MqPiece *p = &s->pc[nid];
        p->side = (uint8_t)ed->side;
        p->fig = (uint8_t)ed->figure;
        p->flags = (uint8_t)(ed->masked ? PF_MASKED : 0); /* it has not been set up */
        mq_put(s, nid, sq);
        now = *p;
    } else {
        if (id < 0)
            return err_set(e, "no piece on %s", sqn);
        StrBuf w = STRBUF_INIT; /* as the other seat knows it: safe in any error */
        words(&w, was.side, was.fig, mq_masked(&was), sq, 0);
        int refused = 0;
        if (ed->kind == EDIT_REMOVE) {
            if (was.fig == FIG_KING && !mq_masked(&was))
                refused = err_set(e, "cannot remove %s: a revealed King is never removed, it "
                                     "is mated (MASQ-14, MASQ-16)", sb_str(&w));
            else /* a masked King may go, as when lost without reveal (MASQ-12) */
                mq_remove(s, id, 1);
        } else if (ed->figure < FIG_PAWN || ed->figure > FIG_KING) {
            refused = err_set(e, "no such figure");
        } else if (!mq_masked(&was) && (was.fig == FIG_KING || ed->figure == FIG_KING)) {
            refused = err_set(e, "cannot change %s into a %s: each side keeps its one King "
                                 "(MASQ-1)", sb_str(&w), MQ_FIG_NAMES[ed->figure]);
        } else if (!mq_masked(&was) && ed->figure == was.fig) {
            refused = err_set(e, "cannot change %s into a %s: it is one already", sb_str(&w),
                              MQ_FIG_NAMES[ed->figure]);
        } else if (mq_masked(&was) && (was.fig == FIG_KING || ed->figure == FIG_KING ||
                                       ed->figure == was.fig)) {
            /* the reason would tell the hidden figure */
            refused = err_set(e, "cannot change %s (its figure is hidden, so the reason is "
                                 "not given)", sb_str(&w));
        } else if (!mq_masked(&was) && ed->figure == FIG_PAWN &&
                   mq_rank(sq) == mq_last_rank(was.side)) {
            refused = err_set(e, "cannot change %s into a Pawn: its last rank (MASQ-3)",
                              sb_str(&w));
        } else {
            mq_lift(s, id);
            s->pc[id].fig = (uint8_t)ed->figure;
            mq_put(s, id, sq);
            now = s->pc[id];
        }
        sb_free(&w);
        if (refused)
            return -1;
    }
    if (s->ep >= 0 && (s->ep_victim == id || (ed->kind == EDIT_ADD && sq == s->ep) ||
                       (s->ep_victim >= 0 && !(s->pc[s->ep_victim].flags & PF_ON)))) {
        s->ep = -1; /* the two-step it allowed to take is void */
        s->ep_victim = -1;
    }
    mq_tidy(s);
    Error why;
    if (read_back(g, s, &why)) {
        StrBuf w = STRBUF_INIT;
        if (ed->kind == EDIT_ADD)
            sb_printf(&w, "add a %s%s %s on %s", ed->masked ? "masked " : "",
                      MQ_SIDE_NAMES[ed->side],
                      ed->masked ? "piece" : MQ_FIG_NAMES[ed->figure], sqn);
        else
            words(&w, was.side, was.fig, mq_masked(&was), sq, 0);
        /* The reader's words may name hidden figures (the armies): none
         * is given. */
        err_set(e, "cannot %s%s: the position would break the armies' limits or the rule "
                   "of check (MASQ-1, MASQ-14)", ed->kind == EDIT_ADD ? "" :
                   ed->kind == EDIT_REMOVE ? "remove " : "change ", sb_str(&w));
        sb_free(&w);
        return -1;
    }
    tell(ev, ed->kind, &was, &now, sq);
    return 0;
}
