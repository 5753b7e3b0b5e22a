/*
 * edit.c -- house-rule edits of Les Échecs Masqués (HOUSE-5,
 * core/variant.h Edit): a reaction removes, adds or changes a piece
 * between turns of play.
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

int mq_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    MqState *s = st;
    char b[3];
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
