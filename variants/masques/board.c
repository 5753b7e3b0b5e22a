/*
 * board.c -- the Masqués board: placing, lifting, revealing and moving
 * pieces, attacks "by the current way of moving" (MASQ-14: a masked piece
 * attacks like a pawn of its side, a revealed one by its figure), threats
 * on masked pieces (MASQ-6), values and strengths (MASQ-9/10), the hash.
 *
 * Invariant: these edit functions are the only code that changes where a
 * piece is or how it moves, and each keeps `at`, the bitboards and the
 * piece list in agreement.
 */
#include <stdio.h>
#include <string.h>

#include "mq.h"

const char *const MQ_SIDE_NAMES[2] = {"white", "black"};
const char *const MQ_FIG_NAMES[7] = {"piece", "Pawn", "Knight", "Bishop",
                                     "Rook",  "Queen", "King"};
const int MQ_ARMY[7] = {0, 8, 2, 2, 2, 1, 1};
const MqCastle MQ_CASTLES[4] = {
    {'K', CASTLE_WK, MQ_WHITE, 4, 7, 5, 6, BB(5) | BB(6)},
    {'Q', CASTLE_WQ, MQ_WHITE, 4, 0, 3, 2, BB(1) | BB(2) | BB(3)},
    {'k', CASTLE_BK, MQ_BLACK, 60, 63, 61, 62, BB(61) | BB(62)},
    {'q', CASTLE_BQ, MQ_BLACK, 60, 56, 59, 58, BB(57) | BB(58) | BB(59)}};

void mq_clear(MqState *s)
{
    memset(s, 0, sizeof *s);
    memset(s->at, -1, sizeof s->at);
    s->ep = s->ep_victim = -1;
    s->right[0].target = s->right[1].target = -1;
    s->att = s->def = s->land = s->ann_target = -1;
    s->bidder = MQ_NOSIDE;
    s->last_from[0] = s->last_from[1] = s->last_to[0] = s->last_to[1] = -1;
    s->fullmove = 1;
    for (int i = 0; i < MQ_NPIECES; i++)
        s->pc[i].sq = -1;
}

static void bb_set(MqState *s, const MqPiece *p, int sq)
{
    s->bb[p->side][mq_cat(p)] |= BB(sq);
    s->occ |= BB(sq);
}

static void bb_unset(MqState *s, const MqPiece *p, int sq)
{
    s->bb[p->side][mq_cat(p)] &= ~BB(sq);
    s->occ &= ~BB(sq);
}

void mq_put(MqState *s, int id, int sq)
{
    MqPiece *p = &s->pc[id];
    p->sq = (int8_t)sq;
    p->flags |= PF_ON;
    s->at[sq] = (int8_t)id;
    bb_set(s, p, sq);
}

void mq_lift(MqState *s, int id)
{
    MqPiece *p = &s->pc[id];
    if (!(p->flags & PF_ON))
        return;
    bb_unset(s, p, p->sq);
    s->at[p->sq] = -1;
    p->sq = -1;
    p->flags &= (uint8_t)~PF_ON;
}

void mq_reveal(MqState *s, int id)
{
    MqPiece *p = &s->pc[id];
    if (!mq_masked(p))
        return;
    if (p->flags & PF_ON)
        bb_unset(s, p, p->sq);
    p->flags &= (uint8_t)~PF_MASKED;
    if (p->flags & PF_ON)
        bb_set(s, p, p->sq);
}

void mq_set_figure(MqState *s, int id, int fig)
{
    MqPiece *p = &s->pc[id];
    if (p->flags & PF_ON)
        bb_unset(s, p, p->sq);
    p->fig = (uint8_t)fig;
    if (p->flags & PF_ON)
        bb_set(s, p, p->sq);
}

void mq_move_piece(MqState *s, int id, int to)
{
    mq_lift(s, id);
    s->pc[id].flags &= (uint8_t)~PF_UNMOVED;
    mq_put(s, id, to);
}

void mq_remove(MqState *s, int id, int hidden)
{
    MqPiece *p = &s->pc[id];
    if (s->nlost < MQ_NPIECES) {
        MqLost *l = &s->lost[s->nlost++];
        l->side = p->side;
        l->fig = p->fig;
        l->hidden = (uint8_t)(hidden && mq_masked(p));
    }
    if (p->fig == FIG_KING && mq_masked(p))
        s->nokings |= (uint8_t)(1u << p->side);
    mq_lift(s, id);
}

int mq_unmoved_at(const MqState *s, int sq, int side, int fig)
{
    int id = s->at[sq];
    if (id < 0)
        return 0;
    const MqPiece *p = &s->pc[id];
    return p->side == side && p->fig == fig && (p->flags & PF_UNMOVED);
}

void mq_tidy(MqState *s)
{
    for (int i = 0; i < 4; i++) {
        const MqCastle *c = &MQ_CASTLES[i];
        if ((s->castling & c->bit) && (!mq_unmoved_at(s, c->king, c->side, FIG_KING) ||
                                       !mq_unmoved_at(s, c->rook, c->side, FIG_ROOK)))
            s->castling &= (uint8_t)~c->bit;
    }
    for (int h = 0; h < 2; h++) {
        MqRight *r = &s->right[h];
        if (r->target < 0)
            continue;
        const MqPiece *t = &s->pc[r->target];
        for (int i = 0; i < MQ_NPIECES; i++)
            if ((r->attackers & (1u << i)) && !(s->pc[i].flags & PF_ON))
                r->attackers &= ~(1u << i);
        if (!(t->flags & PF_ON) || !mq_masked(t) || !r->attackers) {
            r->target = -1;
            r->attackers = 0;
        }
    }
}

int mq_in_hand(const MqState *s, int side)
{
    int n = 0;
    for (int i = side * 16; i < side * 16 + 16; i++)
        n += !(s->pc[i].flags & PF_ON);
    return n;
}

int mq_hand_piece(const MqState *s, int side, int fig)
{
    for (int i = side * 16; i < side * 16 + 16; i++)
        if (!(s->pc[i].flags & PF_ON) && (fig == 0 || s->pc[i].fig == fig))
            return i;
    return -1;
}

int mq_king(const MqState *s, int side)
{
    for (int i = side * 16; i < side * 16 + 16; i++)
        if (s->pc[i].fig == FIG_KING && (s->pc[i].flags & PF_ON))
            return i;
    return -1;
}

Bitboard mq_side_occ(const Bitboard bb[2][7], int side)
{
    Bitboard b = 0;
    for (int c = 0; c < 7; c++)
        b |= bb[side][c];
    return b;
}

Bitboard mq_attacks(int cat, int side, int sq, Bitboard occ)
{
    switch (cat) {
    case 0:
    case FIG_PAWN:
        return CH_PAWN_ATT[side][sq];
    case FIG_KNIGHT:
        return CH_KNIGHT_ATT[sq];
    case FIG_BISHOP:
        return bb_bishop_attacks(sq, occ);
    case FIG_ROOK:
        return bb_rook_attacks(sq, occ);
    case FIG_QUEEN:
        return bb_bishop_attacks(sq, occ) | bb_rook_attacks(sq, occ);
    default:
        return CH_KING_ATT[sq];
    }
}

int mq_attacked(const Bitboard bb[2][7], Bitboard occ, int sq, int by)
{
    const Bitboard *b = bb[by];
    if (CH_PAWN_ATT[by ^ 1][sq] & (b[0] | b[FIG_PAWN]))
        return 1;
    if (CH_KNIGHT_ATT[sq] & b[FIG_KNIGHT])
        return 1;
    if (CH_KING_ATT[sq] & b[FIG_KING])
        return 1;
    if (bb_bishop_attacks(sq, occ) & (b[FIG_BISHOP] | b[FIG_QUEEN]))
        return 1;
    return (bb_rook_attacks(sq, occ) & (b[FIG_ROOK] | b[FIG_QUEEN])) != 0;
}

int mq_in_check(const Game *g, const MqState *s, int side, int mode)
{
    int k = mq_king(s, side);
    if (k < 0)
        return 0;
    if (mq_masked(&s->pc[k]) &&
        (mode == GEN_PUBLIC || !game_param(g, MP_MASKED_KING_CHECK)))
        return 0;
    return mq_attacked(s->bb, s->occ, s->pc[k].sq, side ^ 1);
}

void mq_threats(const MqState *s, int side, uint32_t out[MQ_NPIECES])
{
    memset(out, 0, MQ_NPIECES * sizeof *out);
    Bitboard targets = s->bb[side ^ 1][0];
    if (!targets)
        return;
    for (int i = side * 16; i < side * 16 + 16; i++) {
        const MqPiece *p = &s->pc[i];
        if (!(p->flags & PF_ON))
            continue;
        Bitboard hit = mq_attacks(mq_cat(p), side, p->sq, s->occ) & targets;
        while (hit)
            out[s->at[bb_pop(&hit)]] |= 1u << i;
    }
}

uint32_t mq_threateners(const MqState *s, int target)
{
    uint32_t t[MQ_NPIECES];
    mq_threats(s, s->pc[target].side ^ 1, t);
    return t[target];
}

/* Zobrist-style keys from a mixing function: one per fact. */
static uint64_t key(uint64_t tag, uint64_t v)
{
    return mix64((tag << 40) ^ (v + 0x51ED27A3u));
}

uint64_t mq_hash(const MqState *s)
{
    uint64_t h = key(1, s->phase) ^ key(2, s->side) ^ key(3, s->castling) ^
                 key(4, s->nokings);
    for (int sq = 0; sq < 64; sq++) {
        int id = s->at[sq];
        if (id < 0)
            continue;
        const MqPiece *p = &s->pc[id];
        /* "has not moved" changes what a piece may do only while it can
         * still make a double step (masked, or a revealed pawn) or castle
         * (King, Rook): a revealed Knight, Bishop or Queen back on its
         * square is the same position (ORTH-9 through MASQ-16) */
        int unmoved = (p->flags & PF_UNMOVED) &&
                      (mq_masked(p) || p->fig == FIG_PAWN || p->fig == FIG_KING ||
                       p->fig == FIG_ROOK);
        uint64_t v = ((((uint64_t)p->side * 8 + p->fig) * 2 + mq_masked(p)) * 2 +
                      (uint64_t)unmoved) * 64 + (uint64_t)sq;
        h ^= key(5, v);
    }
    /* En passant only matters when a pawn-like piece could take there. */
    if (s->ep >= 0) {
        int mover = s->phase == PH_ANNOUNCE ? s->side ^ 1 : s->side;
        Bitboard takers = CH_PAWN_ATT[mover ^ 1][s->ep] &
                          (s->bb[mover][0] | s->bb[mover][FIG_PAWN]);
        if (takers)
            h ^= key(6, (uint64_t)s->ep);
    }
    for (int side = 0; side < 2; side++) {
        const MqRight *r = &s->right[side];
        if (r->target < 0)
            continue;
        h ^= key(7, (uint64_t)side * 64 + (uint64_t)s->pc[r->target].sq);
        for (int i = 0; i < MQ_NPIECES; i++)
            if (r->attackers & (1u << i))
                h ^= key(8, (uint64_t)side * 64 + (uint64_t)s->pc[i].sq);
    }
    if (s->phase == PH_SETUP) {
        /* in-hand pieces are implied by the board; the generator is not a
         * position fact, but two setups never repeat anyway */
        return h;
    }
    if (s->att >= 0)
        h ^= key(9, (uint64_t)s->pc[s->att].sq) ^ key(10, (uint64_t)s->pc[s->def].sq) ^
             key(11, (uint64_t)s->land) ^ key(12, s->promo) ^ key(20, s->att_revealed);
    h ^= key(13, (uint64_t)s->bid) ^ key(14, s->bidder) ^ key(15, s->loser);
    if (s->ann_target >= 0)
        h ^= key(16, (uint64_t)s->pc[s->ann_target].sq) ^ key(17, s->ann_mate);
    for (int i = 0; i < MQ_NPIECES; i++)
        if (s->threats & (1u << i))
            h ^= key(18, (uint64_t)s->pc[i].sq);
    h ^= key(19, s->winners);
    return h;
}

int mq_strength(int fig)
{
    static const int S[7] = {0, 1, 2, 2, 3, 4, 5};
    return fig >= 0 && fig < 7 ? S[fig] : 0;
}

int mq_value(const Game *g, int fig)
{
    return game_params(g)->values[fig];
}

/* MASQ-11: the parameter, or the non-king value of a full army plus one
 * (41 with the default values). */
int mq_threshold(const Game *g)
{
    int t = game_param(g, MP_ALLIN);
    if (t > 0)
        return t;
    return 8 * mq_value(g, FIG_PAWN) + 2 * mq_value(g, FIG_KNIGHT) +
           2 * mq_value(g, FIG_BISHOP) + 2 * mq_value(g, FIG_ROOK) +
           mq_value(g, FIG_QUEEN) + 1;
}

int mq_material(const Game *g, const MqState *s, int side)
{
    int sum = 0;
    for (int i = side * 16; i < side * 16 + 16; i++)
        if ((s->pc[i].flags & PF_ON) && s->pc[i].fig != FIG_KING)
            sum += mq_value(g, s->pc[i].fig);
    return sum;
}

const char *mq_sq(int sq, char *buf)
{
    if (sq < 0 || sq > 63) {
        buf[0] = '-';
        buf[1] = '\0';
        return buf;
    }
    buf[0] = (char)('a' + mq_file(sq));
    buf[1] = (char)('1' + mq_rank(sq));
    buf[2] = '\0';
    return buf;
}

int mq_parse_sq(const char *t, int *sq)
{
    if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8')
        return -1;
    *sq = (t[1] - '1') * 8 + (t[0] - 'a');
    return 0;
}

const char *mq_piece_desc(const MqState *s, int id, int seat, char *buf, size_t n)
{
    const MqPiece *p = &s->pc[id];
    char sq[3];
    mq_sq(p->sq, sq);
    if (p->side == seat)
        snprintf(buf, n, "your %s%s on %s", mq_masked(p) ? "masked " : "",
                 MQ_FIG_NAMES[p->fig], sq);
    else if (mq_masked(p))
        snprintf(buf, n, "the masked piece on %s", sq);
    else
        snprintf(buf, n, "%s's %s on %s", MQ_SIDE_NAMES[p->side], MQ_FIG_NAMES[p->fig], sq);
    return buf;
}

int mq_all_revealed(const MqState *s, int side)
{
    return s->bb[side][0] == 0;
}
