/*
 * movegen.c -- Échecs ambigus on the board: pseudo-legal move generation
 * (AMBI-1, AMBI-4), grouping moves by destination square, make-move, King
 * attacks and the mate rule's test (AMBI-6).
 *
 * Invariant: amb_moves lists every move of an orthodox piece that lands on
 * an empty or enemy-held square, ignoring the own King's safety (no check)
 * and never castling; amb_make plays any of them except a King capture
 * (the game ends before one is played) and keeps the Position's
 * bitboards, mailbox and key in agreement.  Only the orthodox engine's
 * constant tables and chess_attackers are borrowed; nothing here depends
 * on orthodox legality.
 */
#include <assert.h>

#include "amb.h"
#include "../orthodox/bitboard.h"
#include "../../core/action.h"

#define UP(color) ((color) == CH_WHITE ? 8 : -8)

static Move *add_from(Move *m, int from, Bitboard to)
{
    while (to)
        *m++ = MOVE_MAKE(from, bb_pop(&to), MK_NORMAL);
    return m;
}

/* One pawn step or capture onto `to`: four moves on the last rank. */
static Move *add_pawn(Move *m, int from, int to)
{
    if (to >= 56 || to < 8) {
        for (int k = MK_PROMO_Q; k >= MK_PROMO_N; k--)
            *m++ = MOVE_MAKE(from, to, k);
    } else {
        *m++ = MOVE_MAKE(from, to, MK_NORMAL);
    }
    return m;
}

static Move *gen_pawn(const Position *p, Move *m, int from)
{
    const int us = p->side, up = UP(us);
    const Bitboard occ = p->by_color[0] | p->by_color[1];
    const int start_rank = us == CH_WHITE ? 1 : 6;
    const int one = from + up;
    if (!(occ & BB(one))) {
        m = add_pawn(m, from, one);
        if ((from >> 3) == start_rank && !(occ & BB(one + up)))
            *m++ = MOVE_MAKE(from, one + up, MK_DOUBLE);
    }
    for (Bitboard t = CH_PAWN_ATT[us][from] & p->by_color[us ^ 1]; t;)
        m = add_pawn(m, from, bb_pop(&t));
    if (p->ep >= 0 && (CH_PAWN_ATT[us][from] & BB(p->ep)))
        *m++ = MOVE_MAKE(from, p->ep, MK_EP);
    return m;
}

int amb_moves(const Position *p, Move *out)
{
    const Bitboard own = p->by_color[p->side];
    const Bitboard occ = own | p->by_color[p->side ^ 1];
    Move *m = out;
    for (Bitboard b = own; b;) {
        const int sq = bb_pop(&b);
        switch (CH_FIG(p->board[sq])) {
        case FIG_PAWN:
            m = gen_pawn(p, m, sq);
            break;
        case FIG_KNIGHT:
            m = add_from(m, sq, CH_KNIGHT_ATT[sq] & ~own);
            break;
        case FIG_BISHOP:
            m = add_from(m, sq, bb_bishop_attacks(sq, occ) & ~own);
            break;
        case FIG_ROOK:
            m = add_from(m, sq, bb_rook_attacks(sq, occ) & ~own);
            break;
        case FIG_QUEEN:
            m = add_from(m, sq, (bb_bishop_attacks(sq, occ) | bb_rook_attacks(sq, occ)) & ~own);
            break;
        default: /* the King */
            m = add_from(m, sq, CH_KING_ATT[sq] & ~own);
            break;
        }
    }
    return (int)(m - out);
}

/* Order of candidates: from-square, then Q R B N (kinds 7 down to 4). */
static int cand_before(Move a, Move b)
{
    if (MOVE_FROM(a) != MOVE_FROM(b))
        return MOVE_FROM(a) < MOVE_FROM(b);
    return MOVE_KIND(a) > MOVE_KIND(b);
}

int amb_candidates(const Move *list, int n, int sq, Move *out)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (MOVE_TO(list[i]) != sq)
            continue;
        int j = k++;  /* insertion sort: a handful of moves at most */
        while (j > 0 && cand_before(list[i], out[j - 1])) {
            out[j] = out[j - 1];
            j--;
        }
        out[j] = list[i];
    }
    return k;
}

void amb_targets(const Move *list, int n, Bitboard *all, Bitboard *ambiguous)
{
    Bitboard seen = 0, twice = 0;
    for (int i = 0; i < n; i++) {
        const Bitboard b = BB(MOVE_TO(list[i]));
        twice |= seen & b;
        seen |= b;
    }
    *all = seen;
    *ambiguous = twice;
}

int amb_king_square(const Position *p, int color)
{
    return bb_lsb(p->by_fig[FIG_KING] & p->by_color[color]);
}

int amb_king_attacked(const Position *p, int color)
{
    const Bitboard occ = p->by_color[0] | p->by_color[1];
    return chess_attackers(p, amb_king_square(p, color), color ^ 1, occ) != 0;
}

int amb_ep_possible(const Position *p)
{
    if (p->ep < 0)
        return 0;
    const int us = p->side;
    return (CH_PAWN_ATT[us ^ 1][p->ep] & p->by_fig[FIG_PAWN] & p->by_color[us]) != 0;
}

uint64_t amb_board_key(const Position *p)
{
    uint64_t key = 0;
    for (Bitboard b = p->by_color[0] | p->by_color[1]; b;) {
        const int sq = bb_pop(&b);
        key ^= ZOB_PIECE(p->board[sq], sq);
    }
    if (p->side == CH_BLACK)
        key ^= ZOB_SIDE;
    if (amb_ep_possible(p))
        key ^= ZOB_EP(p->ep & 7);
    return key;
}

static void put(Position *p, int pc, int sq, uint64_t *key)
{
    p->board[sq] = (uint8_t)pc;
    p->by_color[CH_COLOR(pc)] |= BB(sq);
    p->by_fig[CH_FIG(pc)] |= BB(sq);
    *key ^= ZOB_PIECE(pc, sq);
}

static void take(Position *p, int sq, uint64_t *key)
{
    const int pc = p->board[sq];
    p->board[sq] = 0;
    p->by_color[CH_COLOR(pc)] ^= BB(sq);
    p->by_fig[CH_FIG(pc)] ^= BB(sq);
    *key ^= ZOB_PIECE(pc, sq);
}

void amb_make(Position *p, Move m)
{
    const int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    const int us = p->side, pc = p->board[from];
    uint64_t key = p->key ^ ZOB_SIDE;

    assert(CH_FIG(p->board[to]) != FIG_KING);
    if (p->ep_keyed)
        key ^= ZOB_EP(p->ep & 7);
    p->halfmove++;
    if (p->board[to] || CH_FIG(pc) == FIG_PAWN)
        p->halfmove = 0;
    if (p->board[to])
        take(p, to, &key);
    take(p, from, &key);
    if (kind == MK_EP)
        take(p, to - UP(us), &key);
    put(p, MOVE_IS_PROMO(m) ? CH_PIECE(us, MOVE_PROMO_FIG(m)) : pc, to, &key);

    p->ep = kind == MK_DOUBLE ? (int8_t)((from + to) / 2) : CH_NO_SQ;
    if (us == CH_BLACK)
        p->fullmove++;
    p->side = (uint8_t)(us ^ 1);
    /* The en passant file counts only when the capture exists, so that
     * equal positions get equal keys (repetition). */
    p->ep_keyed = (uint8_t)amb_ep_possible(p);
    if (p->ep_keyed)
        key ^= ZOB_EP(p->ep & 7);
    p->key = key;
}

/* Does some choice of the opponent among the candidates for sq leave the
 * mover's King attackable?  (AMBI-6: "its King can still be captured".) */
static int square_loses(const Position *p, const Move *list, int n, int sq)
{
    for (int i = 0; i < n; i++) {
        if (MOVE_TO(list[i]) != sq)
            continue;
        Position c = *p;
        amb_make(&c, list[i]);
        if (amb_king_attacked(&c, p->side))
            return 1;
    }
    return 0;
}

int amb_doomed(const Position *p, const Move *list, int n)
{
    Bitboard all, ambiguous;
    amb_targets(list, n, &all, &ambiguous);
    /* Naming the enemy King's square wins outright: no choice follows. */
    if (all & p->by_fig[FIG_KING])
        return 0;
    while (all)
        if (!square_loses(p, list, n, bb_pop(&all)))
            return 0;
    return 1;
}
