/*
 * view.c -- what each seat may see (docs/MASQUES.md "What each seat
 * sees") and the result of the game (MASQ-16).
 *
 * Invariant: a View is built from the seat's rights, piece by piece: an
 * enemy's masked piece goes in as FIG_HIDDEN, a piece removed without
 * reveal stays FIG_HIDDEN in the enemy's captured list, the enemy's
 * arrangement is not shown before it is complete, and the full position
 * string is never put in a view.  After the game (MASQ-16) masked pieces
 * stay masked unless the players agreed to show them (show_at_end): then
 * every figure, the position string included, is in every view.  Nothing
 * the enemy may not know is read into a line of text here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mq.h"

/* ---- Result ---------------------------------------------------------------- */

static void set_result(Status *out, unsigned winners, int code, const char *reason)
{
    out->over = 1;
    out->winners = winners;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, reason);
}

/* The text of an end an event decided (MqState.end): one text per code. */
static const char *end_text(int code)
{
    switch (code) {
    case END_FULL_REVEAL_BOTH: return "full reveal of both sides without King";
    case END_FULL_REVEAL: return "full reveal without King";
    case END_CHECK_AFTER_REVEAL: return "check after reveal";
    case END_KING_CAPTURED: return "King captured";
    case END_ALL_IN: return "all-in won";
    case END_MASK_MATE: return "mask mate on the King";
    default: return "the game is over";
    }
}

void mq_status(const Game *g, const void *st, Status *out)
{
    const MqState *s = st;
    if (s->phase == PH_SETUP)
        return;
    for (int side = 0; side < 2; side++)
        if (mq_in_check(g, s, side, GEN_PUBLIC))
            out->in_check |= 1u << side;
    if (s->phase == PH_OVER) {
        set_result(out, s->winners, s->end, end_text(s->end));
        return;
    }
    if (s->phase != PH_PLAY)
        return; /* a turn under way is finished first */
    if (!mq_has_move(g, s)) { /* MASQ-14, judged on the true figures */
        if (mq_in_check(g, s, s->side, GEN_FULL))
            set_result(out, 1u << (s->side ^ 1), END_CHECKMATE, "checkmate");
        else
            set_result(out, 0, END_STALEMATE, "stalemate");
        return;
    }
    if (game_param(g, MP_FIVEFOLD) && game_repetitions(g) >= 5)
        set_result(out, 0, END_FIVEFOLD, "fivefold repetition");
    else if (game_param(g, MP_SEVENTY_FIVE) && s->halfmove >= 150)
        set_result(out, 0, END_SEVENTY_FIVE_MOVES, "seventy-five-move rule");
}

/* ---- Views ---------------------------------------------------------------------- */

/* `all`: this seat may see every figure (the game is over and the
 * players agreed to show, show_at_end, MASQ-16).  VP_MASKED stays on what
 * was never revealed. */
static void add_piece(View *v, const MqPiece *p, int seat, int all)
{
    if (v->npieces >= MAX_VIEW_PIECES)
        return;
    ViewPiece *vp = &v->pieces[v->npieces++];
    vp->at = mq_coord(p->sq);
    vp->side = (int8_t)p->side;
    vp->figure = (uint8_t)(all || p->side == seat || !mq_masked(p) ? p->fig : FIG_HIDDEN);
    vp->flags = mq_masked(p) ? VP_MASKED : 0;
}

static void add_lost(View *v, const MqLost *l, int seat, int all)
{
    if (v->ncaptured >= MAX_VIEW_PIECES)
        return;
    ViewPiece *vp = &v->captured[v->ncaptured++];
    vp->side = (int8_t)l->side;
    vp->figure = (uint8_t)(all || l->side == seat || !l->hidden ? l->fig : FIG_HIDDEN);
    vp->flags = l->hidden ? VP_MASKED : 0;
}


/* The squares of the pieces in ids (bits by piece id), a1 to h8, joined
 * by ", ". */
static void square_list(const MqState *s, uint32_t ids, char *buf, size_t n)
{
    char sq[3];
    buf[0] = '\0';
    for (int x = 0; x < 64; x++)
        if (s->at[x] >= 0 && (ids & (1u << s->at[x])))
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     mq_sq(x, sq));
}

static void question(const Game *g, const MqState *s, int seat, View *v)
{
    char *q = v->question;
    size_t n = sizeof v->question;
    const char *me = MQ_SIDE_NAMES[seat];
    char sq[3], d[48];
    switch (s->phase) {
    case PH_SETUP:
        if (mq_in_hand(s, seat) == 16)
            snprintf(q, n, "%s: arrange your pieces (arrange RNBQKBNR/PPPPPPPP, "
                     "standard, random, or place F SQ)", me);
        else
            snprintf(q, n, "%s: place your %d remaining pieces (place F SQ, or random)",
                     me, mq_in_hand(s, seat));
        break;
    case PH_PLAY:
        snprintf(q, n, "%s to move%s", me,
                 mq_in_check(g, s, seat, GEN_FULL) ? " (your King is in check)" : "");
        break;
    case PH_ANNOUNCE: {
        char list[128];
        square_list(s, s->threats, list, sizeof list);
        snprintf(q, n, "%s: you newly threaten the masked piece%s on %s: announce "
                 "check SQ, announce mate SQ (where listed), or pass", me,
                 strchr(list, ',') ? "s" : "", list);
        break;
    }
    case PH_ANSWER:
        mq_sq(s->pc[s->ann_target].sq, sq);
        if (s->ann_mate)
            snprintf(q, n, "%s: mask mate on %s: reveal your Pawn and choose its "
                     "promotion (reveal =Q, =R, =B, =N)", me, sq);
        else
            snprintf(q, n, "%s: mask check on %s: reveal the piece or keep it masked "
                     "(reveal, keep)?", me, sq);
        break;
    case PH_BATTLE:
        snprintf(q, n, "%s: reveal the piece on %s or concede?", me,
                 mq_sq(s->pc[s->def].sq, sq));
        break;
    case PH_BID: {
        int thr = mq_threshold(g);
        if (s->bid == 0)
            snprintf(q, n, "%s: bid (1 to %d) or fold", me, thr);
        else if (s->bid >= thr)
            snprintf(q, n, "%s: the all-in (%d) is on the table: call or fold", me, thr);
        else
            snprintf(q, n, "%s: bid higher than %d, call, or fold", me, s->bid);
        break;
    }
    case PH_GIVEUP: {
        int mine = s->pc[s->att].side == seat ? s->att : s->def;
        mq_piece_desc(s, mine, seat, d, sizeof d);
        snprintf(q, n, "%s: give up pieces worth at least %d, %s among them "
                 "(give SQ SQ ...)", me, s->bid, d);
        break;
    }
    default:
        break;
    }
}

/* Once the game is over, by the variant or by the core (resignation,
 * agreement, a claim, an automatic draw): no line of the game under way
 * applies any more (no battle, bid, announcement, right, castling or
 * check); one line says what the board shows. */
static void end_lines(const Game *g, View *v)
{
    unsigned shown = mq_shown_sides(g);
    if (game_param(g, MP_SHOW_AT_END))
        view_info_line(v, "both armies are shown in full (show_at_end), masks still marked");
    else if (shown == 3)
        view_info_line(v, "both sides have shown their pieces (masks still marked)");
    else if (shown)
        view_info_line(v, "%s has shown its pieces; %s's masked pieces stay masked unless it "
             "shows them too (show)", MQ_SIDE_NAMES[shown == 1 ? 0 : 1],
             MQ_SIDE_NAMES[shown == 1 ? 1 : 0]);
    else
        view_info_line(v, "masked pieces stay masked after the game unless their owner shows "
             "them (show, MASQ-16)");
}

static void info_lines(const Game *g, const MqState *s, int seat, View *v)
{
    char sq[3], a[48], d[48];
    if (v->status.over) {
        end_lines(g, v);
        return;
    }
    if (s->phase == PH_SETUP) {
        view_info_line(v, "setup: white has placed %d of 16 pieces, black %d of 16",
             16 - mq_in_hand(s, MQ_WHITE), 16 - mq_in_hand(s, MQ_BLACK));
        if (seat >= 0 && seat < 2 && mq_in_hand(s, seat)) {
            char hand[64] = "";
            for (int i = seat * 16; i < seat * 16 + 16; i++)
                if (!(s->pc[i].flags & PF_ON))
                    snprintf(hand + strlen(hand), sizeof hand - strlen(hand), "%s%c",
                             hand[0] ? " " : "", figure_letter(s->pc[i].fig));
            view_info_line(v, "in hand: %s", hand);
            if (v->seat_to_act != seat)
                view_info_line(v, "you may arrange your pieces now too");
        }
        return;
    }
    if (s->phase == PH_BATTLE || s->phase == PH_BID || s->phase == PH_GIVEUP) {
        mq_piece_desc(s, s->att, seat, a, sizeof a);
        mq_piece_desc(s, s->def, seat, d, sizeof d);
        view_info_line(v, "%s battle: %s attacks %s", s->phase == PH_BATTLE ? "simple" : "masked",
             a, d);
    }
    if (s->phase == PH_BID || s->phase == PH_GIVEUP) {
        if (s->bid)
            view_info_line(v, "bid on the table: %d%s%s; the all-in is %d", s->bid,
                 s->bidder == MQ_NOSIDE ? " (called)" : " by ",
                 s->bidder == MQ_NOSIDE ? "" : MQ_SIDE_NAMES[s->bidder], mq_threshold(g));
        else
            view_info_line(v, "no bid yet; the all-in is %d", mq_threshold(g));
    }
    if (s->phase == PH_ANSWER)
        view_info_line(v, "%s announced a mask %s on %s", MQ_SIDE_NAMES[s->side ^ 1],
             s->ann_mate ? "mate" : "check", mq_sq(s->pc[s->ann_target].sq, sq));
    for (int h = 0; h < 2; h++) {
        const MqRight *r = &s->right[h];
        if (r->target < 0)
            continue;
        char from[32];
        square_list(s, r->attackers, from, sizeof from);
        int now = s->phase == PH_PLAY && s->side == h;
        view_info_line(v, "capture right: %s may take the masked piece on %s from %s without "
             "battle %s", MQ_SIDE_NAMES[h], mq_sq(s->pc[r->target].sq, sq), from,
             now ? "this turn" : "at its next turn");
    }
    if (seat >= 0 && seat < 2) {
        char c[32] = "", k[3], l[3];
        for (int i = 0; i < 4; i++)
            if (MQ_CASTLES[i].side == seat && (s->castling & MQ_CASTLES[i].bit))
                snprintf(c + strlen(c), sizeof c - strlen(c), " %s%s",
                         mq_sq(MQ_CASTLES[i].king, k), mq_sq(MQ_CASTLES[i].land, l));
        if (c[0])
            view_info_line(v, "your castling rights:%s", c);
        if (s->nokings & (1u << seat))
            view_info_line(v, "your King was removed without reveal: you play on; %s wins once "
                 "every piece you have left is revealed", MQ_SIDE_NAMES[seat ^ 1]);
    }
    for (int side = 0; side < 2; side++)
        if (mq_in_check(g, s, side, GEN_PUBLIC))
            view_info_line(v, "check: %s's King is attacked", MQ_SIDE_NAMES[side]);
}

/* Sides whose seat chose to show its pieces after the end (game_show). */
unsigned mq_shown_sides(const Game *g)
{
    return game_shown(g) & 3u;
}

void mq_view(const Game *g, const void *st, int seat, View *v)
{
    const MqState *s = st;
    int over = v->status.over; /* filled by the core, whoever ended the game */
    /* sides whose figures every seat may see: after the end, by agreement
     * (show_at_end) or by their owner's choice (show, MASQ-16) */
    unsigned open = !over ? 0 : game_param(g, MP_SHOW_AT_END) ? 3 : mq_shown_sides(g);
    int all = open == 3;
    for (int sq = 0; sq < 64; sq++) {
        int id = s->at[sq];
        if (id < 0)
            continue;
        const MqPiece *p = &s->pc[id];
        /* an arrangement under way stays its owner's secret (MASQ-1) */
        int shown = (open >> p->side) & 1;
        if (s->phase == PH_SETUP && p->side != seat && mq_in_hand(s, p->side) && !shown)
            continue;
        add_piece(v, p, seat, shown);
    }
    for (int i = 0; i < s->nlost; i++)
        add_lost(v, &s->lost[i], seat, (open >> s->lost[i].side) & 1);
    if (v->brief) /* look-ahead: the pieces are all it needs */
        return;
    if (all && s->phase != PH_SETUP) { /* the seat may see everything now */
        StrBuf b = STRBUF_INIT;
        mq_write_position(g, s, &b);
        str_copy(v->position, sizeof v->position, sb_str(&b));
        sb_free(&b);
    }
    if (seat >= 0 && seat < 2) {
        str_copy(v->last_text, sizeof v->last_text, s->last_text[seat]);
        int from = s->last_from[seat], to = s->last_to[seat];
        if (to >= 0) { /* squares only when this seat may know them */
            v->has_last = 1;
            v->last_to = mq_coord(to);
            v->last_from = from >= 0 ? mq_coord(from) : v->last_to;
        }
    }
    if (!over && v->seat_to_act >= 0 && seat == v->seat_to_act)
        question(g, s, seat, v);
    info_lines(g, s, seat, v);
}
