/*
 * apply.c -- what each action does: setup placements (MASQ-1), moves and
 * reveal-moves (MASQ-2..5), battles simple and masked with their bidding,
 * all-in and give-ups (MASQ-8..11), announcements and their answers
 * (MASQ-6/7), captures by right and removal without reveal (MASQ-12), and
 * the ends decided by an event (MASQ-11, 13, 7, 16).
 *
 * Invariant: every message that names a hidden figure goes only to the
 * seat that owns the piece; the enemy's copy says "the masked piece".  A
 * decision with a single possible answer is taken here at once (the forced
 * reveal after a mask mate, the only minimal give-up set), so the game
 * never waits on a seat that has nothing to decide.
 */
#include <stdio.h>
#include <string.h>

#include "mq.h"

#define ALL SEATS_ALL

static void set_over(MqState *s, unsigned winners, int end)
{
    s->phase = PH_OVER;
    s->winners = (uint8_t)winners;
    s->end = (uint8_t)end;
}

static void clear_battle(MqState *s)
{
    s->att = s->def = s->land = -1;
    s->promo = 0;
    s->att_revealed = 0;
    s->bid = 0;
    s->bidder = MQ_NOSIDE;
    s->loser = 0;
}

/* The turn of `mover` is over: the other side plays. */
static void pass_turn(MqState *s, int mover)
{
    clear_battle(s);
    s->threats = 0;
    s->phase = PH_PLAY;
    s->side = (uint8_t)(mover ^ 1);
    if (mover == MQ_BLACK)
        s->fullmove++;
}

/* ---- Removing pieces --------------------------------------------------- */

/* Removal without reveal (MASQ-12): the owner alone learns what left; a
 * King leaving so lets its side play on (MASQ-16). */
static void remove_hidden(const Game *g, MqState *s, int id, Events *ev)
{
    MqPiece *p = &s->pc[id];
    int owner = p->side;
    int king = p->fig == FIG_KING && mq_masked(p);
    (void)g;
    mq_remove(s, id, 1);
    if (king)
        ev_emit(ev, MQ_SEAT(owner),
                "your King is gone without reveal: you play on; %s wins once "
                "every piece you have left is revealed",
                MQ_SIDE_NAMES[owner ^ 1]);
}

/* MASQ-16: a side without King whose pieces are all revealed (or gone)
 * has lost.  1 if the game ended. */
static int end_by_full_reveal(MqState *s, Events *ev)
{
    unsigned done = 0;
    for (int side = 0; side < 2; side++)
        if ((s->nokings & (1u << side)) && mq_all_revealed(s, side))
            done |= 1u << side;
    if (!done)
        return 0;
    if (done == 3) {
        ev_emit(ev, ALL, "both sides have every piece revealed and no King");
        set_over(s, 0, END_FULL_REVEAL_BOTH);
        return 1;
    }
    int loser = done == 1 ? MQ_WHITE : MQ_BLACK;
    ev_emit(ev, ALL, "every piece %s has left is revealed, and %s has no King",
            MQ_SIDE_NAMES[loser], MQ_SIDE_NAMES[loser]);
    set_over(s, 1u << (loser ^ 1), END_FULL_REVEAL);
    return 1;
}

/* ---- After an action of the side to move --------------------------------- */

/* MASQ-13 (and its reason): after a battle, the attacker's revealed King
 * attacked means the defender could take it: the attacker has lost. */
static int end_by_check_after_battle(const Game *g, MqState *s, int attacker,
                                     Events *ev)
{
    if (!mq_in_check(g, s, attacker, GEN_FULL))
        return 0;
    ev_emit(ev, ALL, "after the battle %s's King is attacked: %s loses",
            MQ_SIDE_NAMES[attacker], MQ_SIDE_NAMES[attacker]);
    set_over(s, 1u << (attacker ^ 1), END_CHECK_AFTER_REVEAL);
    return 1;
}

/* The mover's action is complete: the ends decided by events, then the
 * announce phase if the action made a new threat (MASQ-6), else the turn
 * passes. */
static void finish_action(const Game *g, MqState *s, int mover, int battle,
                          Events *ev)
{
    mq_tidy(s);
    if (battle && end_by_check_after_battle(g, s, mover, ev))
        return;
    if (end_by_full_reveal(s, ev))
        return;
    uint32_t after[MQ_NPIECES], fresh = 0;
    mq_threats(s, mover, after);
    for (int i = 0; i < MQ_NPIECES; i++)
        if (after[i] & ~s->before[i])
            fresh |= 1u << i;
    if (mq_in_check(g, s, mover ^ 1, GEN_PUBLIC))
        ev_emit(ev, ALL, "check: %s's King is attacked", MQ_SIDE_NAMES[mover ^ 1]);
    if (fresh) {
        clear_battle(s);
        s->phase = PH_ANNOUNCE;
        s->threats = fresh;
        return;
    }
    pass_turn(s, mover);
}

/* ---- Setup (MASQ-1) ------------------------------------------------------ */

static const char STANDARD[17] = "RNBQKBNRPPPPPPPP";

void mq_start_play(MqState *s)
{
    s->phase = PH_PLAY;
    s->side = MQ_WHITE;
    s->halfmove = 0;
    s->fullmove = 1;
    s->castling = CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ;
    mq_tidy(s); /* rights only where K and R stand on their squares */
}

/* The arrangement of side as its owner types it: back rank a..h, then
 * the front rank (docs/MASQUES.md, `arrange`). */
static void arrangement(const MqState *s, int side, char out[18])
{
    int k = 0;
    for (int i = 0; i < 16; i++) {
        if (i == 8)
            out[k++] = '/';
        int id = s->at[mq_slot_square(side, i)];
        out[k++] = id >= 0 ? figure_letter(s->pc[id].fig) : '?';
    }
    out[k] = '\0';
}

/* MASQ-1: the enemy learns only that a side has finished (one line, never
 * where a piece went); the owner reads each single placement and, at the
 * end, its whole arrangement once. */
static void setup_action(MqState *s, const Action *a, Events *ev)
{
    int side = a->seat, whole = mq_in_hand(s, side) == 16;
    char sq[3];
    switch (a->amount) {
    case SETUP_STANDARD:
        for (int i = 0; i < 16; i++)
            mq_put(s, mq_hand_piece(s, side, figure_from_letter(STANDARD[i])),
                   mq_slot_square(side, i));
        break;
    case SETUP_RANDOM: {
        int ids[16], n = 0, squares[16], k = 0;
        for (int i = side * 16; i < side * 16 + 16; i++)
            if (!(s->pc[i].flags & PF_ON))
                ids[n++] = i;
        for (int i = 0; i < 16; i++)
            if (s->at[mq_slot_square(side, i)] < 0)
                squares[k++] = mq_slot_square(side, i);
        for (int i = n - 1; i > 0; i--) { /* Fisher-Yates from the state's generator */
            int j = (int)rng_below(&s->rng, (uint32_t)i + 1);
            int t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        for (int i = 0; i < n && i < k; i++)
            mq_put(s, ids[i], squares[i]);
        break;
    }
    default: {
        int to = mq_sq_of(a->to);
        mq_put(s, mq_hand_piece(s, side, a->figure), to);
        if (a->note != MQ_NOTE_ARRANGE)
            ev_emit(ev, MQ_SEAT(side), "you place your %s on %s",
                    MQ_FIG_NAMES[a->figure], mq_sq(to, sq));
        break;
    }
    }
    if (!mq_in_hand(s, side)) {
        char arr[18];
        arrangement(s, side, arr);
        ev_emit(ev, MQ_SEAT(side), "you arrange your pieces%s: %s",
                a->amount == SETUP_STANDARD ? " in the standard order"
                : a->amount != SETUP_RANDOM ? ""
                : whole ? " at random" : " (the rest at random)",
                arr);
        ev_emit(ev, MQ_SEAT(side ^ 1), "%s has set up its pieces", MQ_SIDE_NAMES[side]);
    }
    if (!mq_in_hand(s, MQ_WHITE) && !mq_in_hand(s, MQ_BLACK)) {
        mq_start_play(s);
        ev_emit(ev, ALL, "both armies are set up: white to move");
    }
}

/* ---- Moves (MASQ-2..5, 12, 15) ----------------------------------------------- */

/* A winning attacker moves in; a revealed pawn reaching its last rank
 * promotes as its move said. */
static void attacker_lands(MqState *s)
{
    int id = s->att;
    mq_move_piece(s, id, s->land);
    if (s->promo && !mq_masked(&s->pc[id]) && s->pc[id].fig == FIG_PAWN)
        mq_set_figure(s, id, s->promo);
}

static void start_battle(MqState *s, int att, int def, const MqMove *m,
                         Events *ev)
{
    s->att = (int8_t)att;
    s->def = (int8_t)def;
    s->land = m->to;
    s->promo = m->promo;
    s->att_revealed = (m->flags & MV_REVEAL) != 0;
    s->halfmove = 0;
    /* The battle is the attacker's move: it has moved, even if it stays. */
    s->pc[att].flags &= (uint8_t)~PF_UNMOVED;
    int A = s->side;
    for (int seat = 0; seat < 2; seat++) {
        char a[48], d[48];
        mq_piece_desc(s, att, seat, a, sizeof a);
        mq_piece_desc(s, def, seat, d, sizeof d);
        if (!mq_masked(&s->pc[att]))
            ev_emit(ev, MQ_SEAT(seat),
                    "%s attacks %s%s: a simple battle, %s reveals it or concedes",
                    a, d, (m->flags & MV_EP) ? " en passant" : "",
                    MQ_SIDE_NAMES[A ^ 1]);
        else
            ev_emit(ev, MQ_SEAT(seat),
                    "%s attacks %s%s: a masked battle, %s bids first",
                    a, d, (m->flags & MV_EP) ? " en passant" : "", MQ_SIDE_NAMES[A]);
    }
    s->phase = mq_masked(&s->pc[att]) ? PH_BID : PH_BATTLE;
    s->bid = 0;
    s->bidder = MQ_NOSIDE;
}

static void do_castle(MqState *s, const MqMove *m, Events *ev)
{
    int kingside = m->to > m->from;
    int rfrom = kingside ? m->from + 3 : m->from - 4;
    int rto = kingside ? m->from + 1 : m->from - 1;
    int k = s->at[m->from], r = s->at[rfrom];
    char a[3], b[3];
    mq_reveal(s, k);
    mq_reveal(s, r);
    mq_move_piece(s, k, m->to);
    mq_move_piece(s, r, rto);
    ev_emit(ev, ALL, "%s castles %s%s: its King and Rook are revealed",
            MQ_SIDE_NAMES[s->pc[k].side], mq_sq(m->from, a), mq_sq(m->to, b));
}

static void play_move(const Game *g, MqState *s, const MqMove *m, Events *ev)
{
    int X = s->side, id = s->at[m->from];
    MqPiece *p = &s->pc[id];
    char f[3], t[3], d[48];
    mq_threats(s, X, s->before);
    s->right[X].target = -1; /* MASQ-6: the right lapses after this turn */
    s->right[X].attackers = 0;
    int ep_victim = s->ep_victim;
    s->ep = s->ep_victim = -1;
    s->halfmove++;
    mq_sq(m->from, f);
    mq_sq(m->to, t);
    if (m->flags & MV_CASTLE) {
        do_castle(s, m, ev);
        finish_action(g, s, X, 0, ev);
        return;
    }
    if (m->flags & MV_REVEAL) {
        mq_reveal(s, id);
        ev_emit(ev, ALL, "%s reveals a %s on %s", MQ_SIDE_NAMES[X],
                MQ_FIG_NAMES[p->fig], f);
        if (m->to == m->from) { /* reveal alone, or to promote (MASQ-3/5) */
            if (m->promo) {
                mq_set_figure(s, id, m->promo);
                s->halfmove = 0;
                ev_emit(ev, ALL, "%s's Pawn on %s promotes to a %s",
                        MQ_SIDE_NAMES[X], f, MQ_FIG_NAMES[m->promo]);
            }
            finish_action(g, s, X, 0, ev);
            return;
        }
    }
    if (mq_masked(p) || p->fig == FIG_PAWN)
        s->halfmove = 0;
    int victim = (m->flags & MV_EP) ? ep_victim : s->at[m->to];
    if (m->flags & MV_BATTLE) {
        start_battle(s, id, victim, m, ev);
        return;
    }
    if (victim >= 0) {
        s->halfmove = 0;
        if (m->flags & MV_RIGHT) {
            ev_emit(ev, MQ_SEAT(X),
                    "%s takes the masked piece on %s by right from %s: no battle, "
                    "no reveal", MQ_SIDE_NAMES[X], mq_sq(s->pc[victim].sq, d), f);
            ev_emit(ev, MQ_SEAT(X ^ 1),
                    "%s takes %s by right from %s: it is removed without reveal",
                    MQ_SIDE_NAMES[X], mq_piece_desc(s, victim, X ^ 1, d, sizeof d), f);
            remove_hidden(g, s, victim, ev);
        } else {
            int king = s->pc[victim].fig == FIG_KING;
            ev_emit(ev, ALL, "%s plays %s%s and takes %s's %s", MQ_SIDE_NAMES[X], f, t,
                    MQ_SIDE_NAMES[X ^ 1], MQ_FIG_NAMES[s->pc[victim].fig]);
            mq_remove(s, victim, 0);
            if (king) { /* a hidden figure attacked it unseen (MASQ-14) */
                mq_move_piece(s, id, m->to);
                set_over(s, 1u << X, END_KING_CAPTURED);
                return;
            }
        }
    } else {
        ev_emit(ev, ALL, "%s plays %s%s", MQ_SIDE_NAMES[X], f, t);
    }
    mq_move_piece(s, id, m->to);
    if (m->promo && !mq_masked(p)) {
        mq_set_figure(s, id, m->promo);
        ev_emit(ev, ALL, "%s's Pawn promotes to a %s on %s", MQ_SIDE_NAMES[X],
                MQ_FIG_NAMES[m->promo], t);
    }
    if (m->flags & MV_DOUBLE) {
        s->ep = (int8_t)((m->from + m->to) / 2);
        s->ep_victim = (int8_t)id;
    }
    finish_action(g, s, X, 0, ev);
}

/* ---- Simple battle (MASQ-9) ---------------------------------------------------- */

static const char *compare_word(int sd, int sa)
{
    return sd < sa ? "weaker than" : sd > sa ? "stronger than" : "as strong as";
}

static void battle_answer(const Game *g, MqState *s, const Action *a, Events *ev)
{
    int A = s->side, D = A ^ 1, att = s->att, def = s->def;
    char sq[3], d[48];
    mq_sq(s->pc[def].sq, sq);
    if (a->kind == ACT_FOLD) { /* concede */
        ev_emit(ev, MQ_SEAT(A), "%s concedes: the masked piece on %s is removed "
                "without reveal", MQ_SIDE_NAMES[D], sq);
        ev_emit(ev, MQ_SEAT(D), "you concede: %s is removed without reveal",
                mq_piece_desc(s, def, D, d, sizeof d));
        remove_hidden(g, s, def, ev);
        attacker_lands(s);
        finish_action(g, s, A, 1, ev);
        return;
    }
    mq_reveal(s, def);
    int fa = s->pc[att].fig, fd = s->pc[def].fig;
    int sa = mq_strength(fa), sd = mq_strength(fd);
    const char *what = sd < sa   ? "it is taken"
                       : sd > sa ? "the attacker is taken"
                                 : "the attack is repelled";
    ev_emit(ev, ALL, "%s reveals a %s on %s: %s the %s, %s", MQ_SIDE_NAMES[D],
            MQ_FIG_NAMES[fd], sq, compare_word(sd, sa), MQ_FIG_NAMES[fa], what);
    if (sd < sa) {
        mq_remove(s, def, 0);
        attacker_lands(s);
    } else if (sd > sa) {
        mq_remove(s, att, 0);
    }
    finish_action(g, s, A, 1, ev);
}

/* ---- Masked battle (MASQ-10, 11) -------------------------------------------------- */

/* Give up the pieces of `set` (MASQ-10): revealed as they leave when the
 * parameter says so, else removed without reveal. */
static void do_giveup(const Game *g, MqState *s, uint64_t set, Events *ev)
{
    int L = s->loser, A = s->side;
    int shown = game_param(g, MP_GIVEUP_REVEALED);
    StrBuf own = STRBUF_INIT, seen = STRBUF_INIT;
    int total = 0;
    char sq[3];
    for (int q = 0; q < 64; q++) {
        int id = s->at[q];
        if (id < 0 || !(set & ((uint64_t)1 << id)))
            continue;
        const MqPiece *p = &s->pc[id];
        total += mq_value(g, p->fig);
        mq_sq(q, sq);
        sb_printf(&own, "%s%s on %s", own.len ? ", " : "", MQ_FIG_NAMES[p->fig], sq);
        if (shown || !mq_masked(p))
            sb_printf(&seen, "%s%s on %s", seen.len ? ", " : "", MQ_FIG_NAMES[p->fig], sq);
        else
            sb_printf(&seen, "%sthe masked piece on %s", seen.len ? ", " : "", sq);
    }
    ev_emit(ev, MQ_SEAT(L), "you give up: %s (%d points)", sb_str(&own), total);
    if (shown)
        ev_emit(ev, MQ_SEAT(L ^ 1), "%s gives up: %s (%d points)",
                MQ_SIDE_NAMES[L], sb_str(&seen), total);
    else
        ev_emit(ev, MQ_SEAT(L ^ 1), "%s gives up: %s", MQ_SIDE_NAMES[L], sb_str(&seen));
    sb_free(&own);
    sb_free(&seen);
    for (int i = 0; i < MQ_NPIECES; i++) {
        if (!(set & ((uint64_t)1 << i)))
            continue;
        if (shown)
            mq_reveal(s, i);
        mq_remove(s, i, !shown);
    }
    if (L != A)
        attacker_lands(s);
    finish_action(g, s, A, 1, ev);
}

/* After a call with unequal strength: the loser pays (MASQ-10), or the
 * all-in decides the game (MASQ-11). */
static void settle_call(const Game *g, MqState *s, int winner, Events *ev)
{
    int A = s->side, L = winner ^ 1;
    int lpiece = L == A ? s->att : s->def;
    if (s->bid >= mq_threshold(g)) {
        mq_remove(s, lpiece, 0);
        if (L != A)
            attacker_lands(s);
        ev_emit(ev, ALL, "the all-in at %d is called and %s wins the battle: %s wins "
                "the game", s->bid, MQ_SIDE_NAMES[winner], MQ_SIDE_NAMES[winner]);
        set_over(s, 1u << winner, END_ALL_IN);
        return;
    }
    s->loser = (uint8_t)L;
    uint64_t set = 0;
    if (mq_material(g, s, L) < s->bid) {
        for (int i = L * 16; i < L * 16 + 16; i++)
            if ((s->pc[i].flags & PF_ON) && s->pc[i].fig != FIG_KING)
                set |= (uint64_t)1 << i;
        ev_emit(ev, ALL, "%s cannot cover the bid of %d: it gives up every piece "
                "but its King", MQ_SIDE_NAMES[L], s->bid);
    } else if (mq_giveup_sets(g, s, L, NULL, &set) > 1) {
        s->phase = PH_GIVEUP;
        s->bidder = MQ_NOSIDE; /* the bidding is over; the bid stays */
        ev_emit(ev, ALL, "%s must give up pieces worth at least %d, its battling "
                "piece among them", MQ_SIDE_NAMES[L], s->bid);
        return;
    }
    do_giveup(g, s, set, ev);
}

static void bid_action(const Game *g, MqState *s, const Action *a, Events *ev)
{
    int A = s->side, Y = mq_decider(s);
    char d[48];
    switch (a->kind) {
    case ACT_BID:
        s->bid = (int16_t)a->amount;
        s->bidder = (uint8_t)Y;
        ev_emit(ev, ALL, "%s bids %d", MQ_SIDE_NAMES[Y], a->amount);
        return;
    case ACT_FOLD: {
        int mine = Y == A ? s->att : s->def;
        ev_emit(ev, MQ_SEAT(Y ^ 1), "%s folds: %s is removed without reveal",
                MQ_SIDE_NAMES[Y], mq_piece_desc(s, mine, Y ^ 1, d, sizeof d));
        ev_emit(ev, MQ_SEAT(Y), "you fold: %s is removed without reveal",
                mq_piece_desc(s, mine, Y, d, sizeof d));
        remove_hidden(g, s, mine, ev);
        if (Y != A)
            attacker_lands(s);
        finish_action(g, s, A, 1, ev);
        return;
    }
    default: { /* call: both battling pieces are revealed */
        mq_reveal(s, s->att);
        mq_reveal(s, s->def);
        int fa = s->pc[s->att].fig, fd = s->pc[s->def].fig;
        int sa = mq_strength(fa), sd = mq_strength(fd);
        char x[3], y[3];
        ev_emit(ev, ALL, "%s calls %d: %s's piece on %s is a %s, %s's on %s is a %s: %s",
                MQ_SIDE_NAMES[Y], s->bid, MQ_SIDE_NAMES[A], mq_sq(s->pc[s->att].sq, x),
                MQ_FIG_NAMES[fa], MQ_SIDE_NAMES[A ^ 1], mq_sq(s->pc[s->def].sq, y),
                MQ_FIG_NAMES[fd],
                sa == sd ? "equal strength, nothing moves"
                         : sa > sd ? "the attacker is stronger" : "the defender is stronger");
        if (sa == sd) {
            finish_action(g, s, A, 1, ev);
            return;
        }
        settle_call(g, s, sa > sd ? A : A ^ 1, ev);
        return;
    }
    }
}

/* ---- Announcements (MASQ-6, 7) ------------------------------------------------ */

static void end_answer(MqState *s, Events *ev)
{
    s->ann_target = -1;
    s->ann_att = 0;
    s->ann_mate = 0;
    s->phase = PH_PLAY;
    end_by_full_reveal(s, ev);
}

static void answer_reveal(const Game *g, MqState *s, int promo, Events *ev)
{
    int T = s->ann_target, O = s->side;
    MqPiece *p = &s->pc[T];
    char sq[3];
    mq_sq(p->sq, sq);
    mq_reveal(s, T);
    ev_emit(ev, ALL, "%s reveals a %s on %s", MQ_SIDE_NAMES[O], MQ_FIG_NAMES[p->fig], sq);
    if (promo) {
        mq_set_figure(s, T, promo);
        ev_emit(ev, ALL, "%s's Pawn on %s promotes to a %s", MQ_SIDE_NAMES[O], sq,
                MQ_FIG_NAMES[promo]);
    }
    if (s->ann_mate && p->fig == FIG_KING) {
        ev_emit(ev, ALL, "mask mate on %s's King", MQ_SIDE_NAMES[O]);
        set_over(s, 1u << (O ^ 1), END_MASK_MATE);
        return;
    }
    /* As MASQ-13: the piece revealed attacks the announcer's revealed King
     * and its owner plays next, so it could take it: the announcer lost. */
    if (mq_in_check(g, s, O ^ 1, GEN_FULL)) {
        ev_emit(ev, ALL, "the %s revealed on %s attacks %s's King: %s loses",
                MQ_FIG_NAMES[p->fig], sq, MQ_SIDE_NAMES[O ^ 1], MQ_SIDE_NAMES[O ^ 1]);
        set_over(s, 1u << O, END_CHECK_AFTER_REVEAL);
        return;
    }
    end_answer(s, ev);
}

static void announce_action(const Game *g, MqState *s, const Action *a, Events *ev)
{
    int S = s->side;
    if (a->kind == ACT_PASS) {
        ev_emit(ev, ALL, "%s announces nothing", MQ_SIDE_NAMES[S]);
        pass_turn(s, S);
        return;
    }
    int sq = mq_sq_of(a->to), T = s->at[sq];
    char name[3];
    s->ann_target = (int8_t)T;
    s->ann_mate = a->amount == ANN_MATE;
    s->ann_att = mq_threateners(s, T);
    ev_emit(ev, ALL, "%s announces a mask %s on %s", MQ_SIDE_NAMES[S],
            s->ann_mate ? "mate" : "check", mq_sq(sq, name));
    pass_turn(s, S);
    s->phase = PH_ANSWER;
    const MqPiece *p = &s->pc[T];
    int promotes = p->fig == FIG_PAWN && mq_rank(sq) == mq_last_rank(p->side);
    if (s->ann_mate && !promotes)
        answer_reveal(g, s, 0, ev); /* the owner must reveal: nothing to decide */
}

static void answer_action(const Game *g, MqState *s, const Action *a, Events *ev)
{
    if (a->kind == ACT_REVEAL) {
        answer_reveal(g, s, a->figure, ev);
        return;
    }
    int S = s->side ^ 1;
    char sq[3];
    s->right[S].target = s->ann_target;
    s->right[S].attackers = s->ann_att;
    ev_emit(ev, ALL, "%s keeps the piece on %s masked: %s may take it by right at "
            "its next turn", MQ_SIDE_NAMES[s->side], mq_sq(s->pc[s->ann_target].sq, sq),
            MQ_SIDE_NAMES[S]);
    end_answer(s, ev);
}

/* ---- Entry points ---------------------------------------------------------------- */

void mq_apply_trusted(const Game *g, MqState *s, const Action *a,
                      const MqMove *m, Events *ev)
{
    switch (s->phase) {
    case PH_SETUP:
        setup_action(s, a, ev);
        break;
    case PH_PLAY:
        play_move(g, s, m, ev);
        break;
    case PH_ANNOUNCE:
        announce_action(g, s, a, ev);
        break;
    case PH_ANSWER:
        answer_action(g, s, a, ev);
        break;
    case PH_BATTLE:
        battle_answer(g, s, a, ev);
        break;
    case PH_BID:
        bid_action(g, s, a, ev);
        break;
    case PH_GIVEUP:
        do_giveup(g, s, a->set, ev);
        break;
    default:
        break;
    }
    /* mid-turn too: a right whose target has just revealed itself to
     * attack is gone at once (the string of a battle must not carry it) */
    mq_tidy(s);
}

/* Remember the action as each seat may read it (views' last move); -1
 * when memory ran out (the text would be cut: the action is refused). */
static int note_last(const Game *g, MqState *s, const Action *a,
                     const char *text)
{
    int failed = 0;
    for (int seat = 0; seat < 2; seat++) {
        StrBuf b = STRBUF_INIT;
        mq_history_text(g, a, text, seat, &b);
        failed |= sb_failed(&b);
        str_copy(s->last_text[seat], sizeof s->last_text[seat], sb_str(&b));
        sb_free(&b);
        int hidden = a->kind == ACT_PLACE && a->seat != seat;
        if (hidden) {
            s->last_from[seat] = s->last_to[seat] = -1;
        } else if (a->kind == ACT_PLACE && a->amount == SETUP_PLACE) {
            s->last_from[seat] = -1;
            s->last_to[seat] = (int8_t)mq_sq_of(a->to);
        } else if ((a->kind == ACT_MOVE || a->kind == ACT_REVEAL) &&
                   !coord_eq(a->from, a->to)) {
            s->last_from[seat] = (int8_t)mq_sq_of(a->from);
            s->last_to[seat] = (int8_t)mq_sq_of(a->to);
        }
    }
    return failed ? -1 : 0;
}

int mq_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    MqState *s = st;
    MqMove m;
    memset(&m, 0, sizeof m);
    if (s->phase == PH_OVER)
        return -1;
    if (s->phase == PH_PLAY) {
        if (a->seat != s->side || mq_find_move(g, s, a, &m))
            return -1;
    } else {
        ActionList l = ACTIONLIST_INIT;
        mq_legal(g, s, a->seat, &l);
        int found = l.failed ? -1 : al_find(&l, a);
        al_free(&l);
        if (found < 0)
            return -1;
    }
    /* the core applies on a copy: refusing after a change is fine */
    StrBuf text = STRBUF_INIT;
    mq_format(g, s, a, FMT_RECORD, &text);
    mq_apply_trusted(g, s, a, &m, ev);
    int rc = sb_failed(&text) || note_last(g, s, a, sb_str(&text)) ? -1 : 0;
    sb_free(&text);
    return rc;
}
