/*
 * movegen.c -- what each seat may do: the moves of the play phase (masked
 * pieces as pawns, MASQ-2/3; reveal-moves, MASQ-5; battles, MASQ-8;
 * captures by right, MASQ-6/12; castling, MASQ-15; legality, MASQ-14),
 * the mask mate test (MASQ-7), the minimal give-up sets (MASQ-10) and the
 * legal op for every phase.
 *
 * Invariant: a move is listed only if, were it to succeed (a battle won,
 * the attacker landing), the mover's revealed King would not be attacked
 * by any enemy piece moving its current way.  Generation walks the board
 * from a1 to h8, so the order of a seat's list depends only on what it
 * may know.
 */
#include <string.h>

#include "mq.h"

/* ---- Simulation ---------------------------------------------------------- */

static void sim_unset(MqSim *m, int sq, int side, int cat)
{
    m->bb[side][cat] &= ~BB(sq);
    m->occ &= ~BB(sq);
}

static void sim_set(MqSim *m, int sq, int side, int cat)
{
    m->bb[side][cat] |= BB(sq);
    m->occ |= BB(sq);
}

/* The square of the piece a move takes (its victim), or -1. */
static int taken_square(const MqState *s, const MqMove *m)
{
    if (m->flags & MV_EP)
        return s->pc[s->ep_victim].sq;
    if (m->to != m->from && s->at[m->to] >= 0)
        return m->to;
    return -1;
}

void mq_sim_move(const MqState *s, const MqMove *m, MqSim *out)
{
    memcpy(out->bb, s->bb, sizeof out->bb);
    out->occ = s->occ;
    const MqPiece *p = &s->pc[s->at[m->from]];
    int side = p->side;
    out->taken = -1;
    out->mover_to = m->to;
    if (m->flags & MV_CASTLE) {
        int kingside = m->to > m->from;
        int rfrom = kingside ? m->from + 3 : m->from - 4;
        int rto = kingside ? m->from + 1 : m->from - 1;
        const MqPiece *r = &s->pc[s->at[rfrom]];
        sim_unset(out, m->from, side, mq_cat(p));
        sim_unset(out, rfrom, side, mq_cat(r));
        sim_set(out, m->to, side, FIG_KING);
        sim_set(out, rto, side, FIG_ROOK);
        return;
    }
    int t = taken_square(s, m);
    if (t >= 0) {
        const MqPiece *v = &s->pc[s->at[t]];
        sim_unset(out, t, v->side, mq_cat(v));
        out->taken = (int8_t)t;
    }
    int cat = mq_cat(p);
    if (m->flags & MV_REVEAL)
        cat = p->fig;
    if (m->promo && cat == FIG_PAWN)
        cat = m->promo;
    sim_unset(out, m->from, side, mq_cat(p));
    sim_set(out, m->to, side, cat);
}

/* ---- Generation ----------------------------------------------------------- */

typedef struct Gen {
    const Game *g;
    const MqState *s;
    int side, mode;
    MqMove *out;
    int n;
} Gen;

static void push(Gen *q, int from, int to, int promo, int flags)
{
    if (q->n >= MQ_MAX_MOVES)
        return;
    MqMove *m = &q->out[q->n++];
    m->from = (int8_t)from;
    m->to = (int8_t)to;
    m->promo = (uint8_t)promo;
    m->flags = (uint8_t)flags;
}

/* A move to `to`; four of them when a pawn reaches its last rank. */
static void push_promos(Gen *q, int from, int to, int flags, int promotes)
{
    static const int P[4] = {FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT};
    if (!promotes) {
        push(q, from, to, 0, flags);
        return;
    }
    for (int i = 0; i < 4; i++)
        push(q, from, to, P[i], flags);
}

/* What taking the piece `victim` is: a capture, a battle, or a capture by
 * right (the piece is one of the right's attackers, it does not reveal,
 * and the right is this turn's). */
static int take_kind(const Gen *q, int mover, int victim, int reveal)
{
    const MqState *s = q->s;
    if (!mq_masked(&s->pc[victim]))
        return MV_CAPTURE;
    const MqRight *r = &s->right[q->side];
    if (!reveal && s->phase == PH_PLAY && s->side == q->side &&
        r->target == victim && (r->attackers & (1u << mover)))
        return MV_RIGHT;
    return MV_BATTLE;
}

/* Moves of a piece that moves like a pawn: masked (MASQ-2), or a revealed
 * pawn (as_pawn: it promotes on the last rank). */
static void gen_pawnlike(Gen *q, int id, int as_pawn, int reveal)
{
    const MqState *s = q->s;
    const MqPiece *p = &s->pc[id];
    int side = p->side, sq = p->sq, fwd = mq_fwd(side);
    int base = reveal ? MV_REVEAL : 0;
    if (mq_rank(sq) == mq_last_rank(side))
        return; /* MASQ-3: stuck until revealed */
    int to = sq + fwd;
    int promotes = as_pawn && mq_rank(to) == mq_last_rank(side);
    if (s->at[to] < 0) {
        push_promos(q, sq, to, base, promotes);
        int to2 = to + fwd;
        if ((p->flags & PF_UNMOVED) && to2 >= 0 && to2 < 64 && s->at[to2] < 0)
            push(q, sq, to2, 0, base | MV_DOUBLE);
    }
    Bitboard caps = CH_PAWN_ATT[side][sq];
    while (caps) {
        int t = bb_pop(&caps);
        int v = s->at[t];
        if (v >= 0) {
            if (s->pc[v].side != side)
                push_promos(q, sq, t, base | take_kind(q, id, v, reveal), promotes);
        } else if (t == s->ep && s->ep_victim >= 0 &&
                   s->pc[s->ep_victim].side != side) {
            push(q, sq, t, 0, base | MV_EP | take_kind(q, id, s->ep_victim, reveal));
        }
    }
}

/* Moves of a revealed knight, bishop, rook, queen or king (no castling). */
static void gen_figure(Gen *q, int id, int fig, int reveal)
{
    const MqState *s = q->s;
    const MqPiece *p = &s->pc[id];
    Bitboard own = mq_side_occ(s->bb, p->side);
    Bitboard dest = mq_attacks(fig, p->side, p->sq, s->occ) & ~own;
    int base = reveal ? MV_REVEAL : 0;
    while (dest) {
        int t = bb_pop(&dest);
        int v = s->at[t];
        push(q, p->sq, t, 0, v < 0 ? base : base | take_kind(q, id, v, reveal));
    }
}

/* MASQ-15: castling as orthodox, but a masked King may castle in check.
 * Passing squares are judged with the King lifted (a line through it). */
static void gen_castling(Gen *q)
{
    const MqCastle *C = MQ_CASTLES;
    const MqState *s = q->s;
    for (int i = 0; i < 4; i++) {
        if (C[i].side != q->side || !(s->castling & C[i].bit) || (s->occ & C[i].empty))
            continue;
        const MqPiece *k = &s->pc[s->at[C[i].king]];
        const MqPiece *r = &s->pc[s->at[C[i].rook]];
        if (q->mode == GEN_PUBLIC && (mq_masked(k) || mq_masked(r)))
            continue; /* the enemy cannot know this right */
        int enemy = q->side ^ 1;
        if (!mq_masked(k) && mq_attacked(s->bb, s->occ, C[i].king, enemy))
            continue;
        if (mq_attacked(s->bb, s->occ & ~BB(C[i].king), C[i].pass, enemy))
            continue;
        push(q, C[i].king, C[i].land, 0, MV_CASTLE);
    }
}

/* MASQ-14: would the mover's King be attacked after m (battles won)? */
static int leaves_king_attacked(const Gen *q, const MqMove *m)
{
    const MqState *s = q->s;
    int k = mq_king(s, q->side);
    if (k < 0)
        return 0;
    /* a masked King that stays masked (no reveal-move of it, no castling,
     * which reveals it) is never in check, by default: no need to look */
    int masked_check = q->mode != GEN_PUBLIC && game_param(q->g, MP_MASKED_KING_CHECK);
    if (mq_masked(&s->pc[k]) && !masked_check &&
        !(s->pc[k].sq == m->from && (m->flags & (MV_REVEAL | MV_CASTLE))))
        return 0;
    MqSim sim;
    mq_sim_move(s, m, &sim);
    /* taking a revealed King ends the game at once (never a masked one: that
     * would tell the mover what it is) */
    const MqPiece *taken = sim.taken >= 0 ? &s->pc[s->at[sim.taken]] : NULL;
    if (taken && taken->fig == FIG_KING && !mq_masked(taken))
        return 0;
    int ksq = s->pc[k].sq == m->from ? sim.mover_to : s->pc[k].sq;
    int revealed = (sim.bb[q->side][FIG_KING] & BB(ksq)) != 0;
    if (!revealed && !masked_check)
        return 0;
    return mq_attacked((const Bitboard (*)[7])sim.bb, sim.occ, ksq, q->side ^ 1);
}

int mq_gen_moves(const Game *g, const MqState *s, int side, int mode,
                 MqMove *out)
{
    Gen q = {g, s, side, mode & GEN_PUBLIC, out, 0};
    int alone = game_param(g, MP_REVEAL_ALONE);
    for (int sq = 0; sq < 64; sq++) {
        int id = s->at[sq];
        if (id < 0 || s->pc[id].side != side)
            continue;
        const MqPiece *p = &s->pc[id];
        if (!mq_masked(p)) {
            if (p->fig == FIG_PAWN)
                gen_pawnlike(&q, id, 1, 0);
            else
                gen_figure(&q, id, p->fig, 0);
            continue;
        }
        gen_pawnlike(&q, id, 0, 0);
        if (mode == GEN_PUBLIC)
            continue;
        int stuck_pawn = p->fig == FIG_PAWN && mq_rank(sq) == mq_last_rank(side);
        if (stuck_pawn) /* MASQ-3: reveal to promote, the whole turn */
            push_promos(&q, sq, sq, MV_REVEAL, 1);
        else if (p->fig == FIG_PAWN)
            gen_pawnlike(&q, id, 1, 1);
        else
            gen_figure(&q, id, p->fig, 1);
        if (alone && !stuck_pawn)
            push(&q, sq, sq, 0, MV_REVEAL);
    }
    gen_castling(&q);
    if (mode & GEN_PSEUDO)
        return q.n;
    int n = 0;
    for (int i = 0; i < q.n; i++)
        if (!leaves_king_attacked(&q, &out[i]))
            out[n++] = out[i];
    return n;
}

/* ---- Who decides ----------------------------------------------------------- */

int mq_decider(const MqState *s)
{
    switch (s->phase) {
    case PH_SETUP:
        return mq_in_hand(s, MQ_WHITE) ? MQ_WHITE : MQ_BLACK;
    case PH_PLAY:
    case PH_ANNOUNCE:
    case PH_ANSWER:
        return s->side;
    case PH_BATTLE:
        return s->side ^ 1;
    case PH_BID:
        return s->bidder == MQ_NOSIDE ? s->side : s->bidder ^ 1;
    case PH_GIVEUP:
        return s->loser;
    default:
        return -1;
    }
}

int mq_has_move(const Game *g, const MqState *s)
{
    MqMove moves[MQ_MAX_MOVES];
    int n = mq_gen_moves(g, s, s->side, GEN_FULL | GEN_PSEUDO, moves);
    Gen q = {g, s, s->side, GEN_FULL, moves, 0};
    for (int i = 0; i < n; i++) /* the first legal move will do */
        if (!leaves_king_attacked(&q, &moves[i]))
            return 1;
    return 0;
}

/* ---- Mask mate (MASQ-7) ------------------------------------------------------ */

/* After the owner's move m (battles won), does any piece of A still
 * threaten the target?  A two-step of the target may be taken en passant. */
static int still_threatened(const MqState *t, const MqMove *m, int target,
                            uint32_t A)
{
    MqSim sim;
    mq_sim_move(t, m, &sim);
    int tsq = t->pc[target].sq;
    if (tsq == m->from)
        tsq = sim.mover_to;
    else if (m->flags & MV_CASTLE) { /* the target may be the Rook */
        int kingside = m->to > m->from;
        if (tsq == (kingside ? m->from + 3 : m->from - 4))
            tsq = kingside ? m->from + 1 : m->from - 1;
    }
    int passed = -1;
    if ((m->flags & MV_DOUBLE) && t->pc[target].sq == m->from)
        passed = (m->from + m->to) / 2;
    int S = t->pc[target].side ^ 1;
    for (int i = 0; i < MQ_NPIECES; i++) {
        if (!(A & (1u << i)))
            continue;
        const MqPiece *a = &t->pc[i];
        if (!(a->flags & PF_ON) || a->sq == sim.taken)
            continue;
        int cat = mq_cat(a);
        if (mq_attacks(cat, S, a->sq, sim.occ) & BB(tsq))
            return 1;
        if (passed >= 0 && (cat == 0 || cat == FIG_PAWN) &&
            (CH_PAWN_ATT[S][a->sq] & BB(passed)))
            return 1;
    }
    return 0;
}

int mq_mask_mate(const Game *g, const MqState *s, int target)
{
    uint32_t A = mq_threateners(s, target);
    if (!A)
        return 0;
    MqState t = *s;
    t.phase = PH_PLAY;
    t.side = (uint8_t)(s->side ^ 1);
    int mode = game_param(g, MP_MASK_MATE) == MASK_MATE_TRUTH ? GEN_FULL : GEN_PUBLIC;
    MqMove moves[MQ_MAX_MOVES];
    int n = mq_gen_moves(g, &t, t.side, mode, moves);
    for (int i = 0; i < n; i++)
        if (!still_threatened(&t, &moves[i], target, A))
            return 0;
    return 1;
}

/* ---- Give-up sets (MASQ-10) ----------------------------------------------------- */

typedef struct GiveUp {
    const Game *g;
    int seat;
    int ids[16], vals[16], k;
    int need;          /* value still needed beyond the battling piece */
    uint64_t base;     /* the battling piece */
    ActionList *out;
    uint64_t first;
    int count;
} GiveUp;

static void giveup_found(GiveUp *u, uint64_t set)
{
    if (u->count++ == 0)
        u->first = set;
    if (!u->out)
        return;
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_GIVEUP;
    a.seat = (uint8_t)u->seat;
    a.set = set;
    al_push(u->out, &a);
}

/* Add pieces in index order; a set is checked once it reaches the value
 * (adding more could only make it not minimal). */
static void giveup_dfs(GiveUp *u, int next, uint32_t chosen, int sum)
{
    if (sum >= u->need) {
        for (int i = 0; i < u->k; i++)
            if ((chosen & (1u << i)) && sum - u->vals[i] >= u->need)
                return;
        uint64_t set = u->base;
        for (int i = 0; i < u->k; i++)
            if (chosen & (1u << i))
                set |= (uint64_t)1 << u->ids[i];
        giveup_found(u, set);
        return;
    }
    for (int i = next; i < u->k; i++)
        giveup_dfs(u, i + 1, chosen | (1u << i), sum + u->vals[i]);
}

int mq_giveup_sets(const Game *g, const MqState *s, int seat, ActionList *out,
                   uint64_t *first)
{
    int loser = s->loser;
    int battler = s->pc[s->att].side == loser ? s->att : s->def;
    GiveUp u;
    memset(&u, 0, sizeof u);
    u.g = g;
    u.seat = seat;
    u.out = out;
    u.base = (uint64_t)1 << battler;
    u.need = s->bid - mq_value(g, s->pc[battler].fig);
    for (int sq = 0; sq < 64; sq++) {
        int id = s->at[sq];
        if (id < 0 || id == battler || s->pc[id].side != loser ||
            s->pc[id].fig == FIG_KING)
            continue;
        u.ids[u.k] = id;
        u.vals[u.k++] = mq_value(g, s->pc[id].fig);
    }
    if (u.need <= 0)
        giveup_found(&u, u.base);
    else
        giveup_dfs(&u, 0, 0, 0);
    if (first)
        *first = u.first;
    return u.count;
}

/* ---- The legal op ----------------------------------------------------------------- */

Action mq_move_action(int seat, const MqMove *m)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = (m->flags & MV_REVEAL) ? ACT_REVEAL : ACT_MOVE;
    a.seat = (uint8_t)seat;
    if (a.kind == ACT_MOVE)
        a.flags = (uint8_t)(((m->flags & (MV_BATTLE | MV_RIGHT)) ? MQ_AF_MASKED_TARGET : 0) |
                            ((m->flags & MV_CASTLE) ? MQ_AF_CASTLE : 0));
    a.figure = m->promo;
    a.from = mq_coord(m->from);
    a.to = mq_coord(m->to);
    return a;
}

int mq_find_move(const Game *g, const MqState *s, const Action *a, MqMove *out)
{
    MqMove moves[MQ_MAX_MOVES];
    int n = mq_gen_moves(g, s, s->side, GEN_FULL, moves);
    for (int i = 0; i < n; i++) {
        Action b = mq_move_action(s->side, &moves[i]);
        if (action_eq(&b, a)) {
            *out = moves[i];
            return 0;
        }
    }
    return -1;
}

static void push_simple(ActionList *out, int kind, int seat, int amount)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)seat;
    a.amount = amount;
    al_push(out, &a);
}

/* The reveals open to the owner of piece id (answer): one, or
 * four promotions for a pawn on its last rank (MASQ-3). */
static void push_reveals(ActionList *out, const MqState *s, int id, int seat)
{
    static const int P[4] = {FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT};
    const MqPiece *p = &s->pc[id];
    int promotes = p->fig == FIG_PAWN && mq_rank(p->sq) == mq_last_rank(p->side);
    for (int i = 0; i < (promotes ? 4 : 1); i++) {
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_REVEAL;
        a.seat = (uint8_t)seat;
        a.figure = (uint8_t)(promotes ? P[i] : 0);
        a.from = a.to = mq_coord(p->sq);
        al_push(out, &a);
    }
}

static void legal_setup(const MqState *s, int seat, ActionList *out)
{
    static const int ORDER[6] = {FIG_KING, FIG_QUEEN, FIG_ROOK,
                                 FIG_BISHOP, FIG_KNIGHT, FIG_PAWN};
    if (seat < 0 || seat > 1 || !mq_in_hand(s, seat))
        return;
    for (int f = 0; f < 6; f++) {
        if (mq_hand_piece(s, seat, ORDER[f]) < 0)
            continue;
        for (int sq = 0; sq < 64; sq++) {
            if (!mq_home_rank(seat, mq_rank(sq)) || s->at[sq] >= 0)
                continue;
            Action a;
            memset(&a, 0, sizeof a);
            a.kind = ACT_PLACE;
            a.seat = (uint8_t)seat;
            a.figure = (uint8_t)ORDER[f];
            a.to = mq_coord(sq);
            al_push(out, &a);
        }
    }
    if (mq_in_hand(s, seat) == 16)
        push_simple(out, ACT_PLACE, seat, SETUP_STANDARD);
    push_simple(out, ACT_PLACE, seat, SETUP_RANDOM);
}

static void legal_announce(const Game *g, const MqState *s, int seat,
                           ActionList *out)
{
    for (int sq = 0; sq < 64; sq++) {
        int id = s->at[sq];
        if (id < 0 || !(s->threats & (1u << id)))
            continue;
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_ANNOUNCE;
        a.seat = (uint8_t)seat;
        a.to = mq_coord(sq);
        a.amount = ANN_CHECK;
        al_push(out, &a);
        if (mq_mask_mate(g, s, id)) {
            a.amount = ANN_MATE;
            al_push(out, &a);
        }
    }
    push_simple(out, ACT_PASS, seat, 0);
}

void mq_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    const MqState *s = st;
    if (s->phase == PH_SETUP) {
        legal_setup(s, seat, out);
        return;
    }
    if (seat != mq_decider(s))
        return;
    switch (s->phase) {
    case PH_PLAY: {
        MqMove moves[MQ_MAX_MOVES];
        int n = mq_gen_moves(g, s, s->side, GEN_FULL, moves);
        for (int i = 0; i < n; i++) {
            Action a = mq_move_action(seat, &moves[i]);
            al_push(out, &a);
        }
        break;
    }
    case PH_ANNOUNCE:
        legal_announce(g, s, seat, out);
        break;
    case PH_ANSWER:
        push_reveals(out, s, s->ann_target, seat);
        if (!s->ann_mate)
            push_simple(out, ACT_PASS, seat, 0); /* keep */
        break;
    case PH_BATTLE: {
        /* Never a promotion here: only a piece stronger than a pawn can
         * attack a pawn on its last rank, so revealed it is always taken. */
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_REVEAL;
        a.seat = (uint8_t)seat;
        a.from = a.to = mq_coord(s->pc[s->def].sq);
        al_push(out, &a);
        push_simple(out, ACT_FOLD, seat, 0); /* concede */
        break;
    }
    case PH_BID: {
        push_simple(out, ACT_FOLD, seat, 0);
        int thr = mq_threshold(g);
        for (int b = s->bid + 1; b <= thr; b++)
            push_simple(out, ACT_BID, seat, b);
        if (s->bid > 0)
            push_simple(out, ACT_CALL, seat, 0);
        break;
    }
    case PH_GIVEUP:
        mq_giveup_sets(g, s, seat, out, NULL);
        break;
    default:
        break;
    }
}
