/*
 * movegen.c -- legal move generation, make-move and perft for orthodox
 * chess (ORTH-2 .. ORTH-6), plus attack queries and insufficient material.
 *
 * Invariant: chess_legal_moves returns exactly the legal moves; it is
 * strictly legal (no pseudo-legal filtering later): the king never steps
 * onto an attacked square, a double check allows king moves only, a single
 * check restricts the others to capturing the checker or blocking
 * (the "check mask"), and a pinned piece stays on the line through its
 * King (the "pin line").  En passant, the one capture that removes a piece
 * from a square other than its target, is tested by playing it out on the
 * occupancy.  chess_make keeps every Position invariant, the key included.
 * chess_perft runs on these two functions, the same ones games use.
 * chess_pseudo_moves, for variants without check, shares the generators
 * but never looks at the own King's safety.
 */
#include "../../core/action.h"
#include "bitboard.h"

#define UP(color) ((color) == CH_WHITE ? 8 : -8)

static inline Bitboard shift_up(Bitboard b, int color)
{
    return color == CH_WHITE ? b << 8 : b >> 8;
}

Bitboard chess_attackers(const Position *p, int sq, int by, Bitboard occ)
{
    const Bitboard them = p->by_color[by];
    const Bitboard diag = p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN];
    const Bitboard orth = p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN];
    Bitboard a = CH_PAWN_ATT[by ^ 1][sq] & p->by_fig[FIG_PAWN];
    a |= CH_KNIGHT_ATT[sq] & p->by_fig[FIG_KNIGHT];
    a |= CH_KING_ATT[sq] & p->by_fig[FIG_KING];
    a |= bb_bishop_attacks(sq, occ) & diag;
    a |= bb_rook_attacks(sq, occ) & orth;
    return a & them;
}

/* Cheaper yes/no form, testing the likeliest attackers first. */
static inline int attacked(const Position *p, int sq, int by, Bitboard occ)
{
    const Bitboard them = p->by_color[by];
    if (CH_KNIGHT_ATT[sq] & p->by_fig[FIG_KNIGHT] & them)
        return 1;
    if (CH_PAWN_ATT[by ^ 1][sq] & p->by_fig[FIG_PAWN] & them)
        return 1;
    if (CH_KING_ATT[sq] & p->by_fig[FIG_KING] & them)
        return 1;
    Bitboard diag = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & them;
    if (diag && (bb_bishop_attacks(sq, occ) & diag))
        return 1;
    Bitboard orth = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & them;
    return orth && (bb_rook_attacks(sq, occ) & orth);
}

/* Every square `by` attacks with occupancy occ (the King's steps are
 * judged with the King lifted: occ without it). */
static inline Bitboard attack_map(const Position *p, int by, Bitboard occ)
{
    const Bitboard them = p->by_color[by];
    Bitboard a = 0;
    for (Bitboard b = p->by_fig[FIG_PAWN] & them; b;)
        a |= CH_PAWN_ATT[by][bb_pop(&b)];
    for (Bitboard b = p->by_fig[FIG_KNIGHT] & them; b;)
        a |= CH_KNIGHT_ATT[bb_pop(&b)];
    for (Bitboard b = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & them; b;)
        a |= bb_bishop_attacks(bb_pop(&b), occ);
    for (Bitboard b = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & them; b;)
        a |= bb_rook_attacks(bb_pop(&b), occ);
    for (Bitboard b = p->by_fig[FIG_KING] & them; b;)
        a |= CH_KING_ATT[bb_pop(&b)];
    return a;
}

/* The King's steps to `targets` that are not attacked: one attack test a
 * square when there are few, else the enemy's whole attack map. */
static inline Bitboard safe_steps(const Position *p, Bitboard targets, int them,
                                  Bitboard occ_no_king)
{
    if (bb_count(targets) <= 3) {
        Bitboard safe = 0;
        for (Bitboard t = targets; t;) {
            int to = bb_pop(&t);
            if (!attacked(p, to, them, occ_no_king))
                safe |= BB(to);
        }
        return safe;
    }
    return targets & ~attack_map(p, them, occ_no_king);
}

static inline int king_square(const Position *p, int color)
{
    return bb_lsb(p->by_fig[FIG_KING] & p->by_color[color]);
}

int chess_in_check(const Position *p)
{
    const Bitboard occ = p->by_color[0] | p->by_color[1];
    return attacked(p, king_square(p, p->side), p->side ^ 1, occ);
}

/* Would the side to move's pawn on `from` capturing en passant leave its
 * King safe?  Played out on the occupancy: the capturing pawn leaves from,
 * lands on ep, and the captured pawn disappears, which can open a line
 * (even a rank: the classic K..pP..r case). */
static int ep_capture_safe(const Position *p, int from)
{
    const int us = p->side, them = us ^ 1;
    const int to = p->ep, cap = to - UP(us);
    const Bitboard occ = ((p->by_color[0] | p->by_color[1]) ^ BB(from) ^ BB(cap)) | BB(to);
    const int ksq = king_square(p, us);
    return !(chess_attackers(p, ksq, them, occ) & ~BB(cap));
}

/* Pawns of the side to move that attack the en passant square. */
static inline Bitboard ep_candidates(const Position *p)
{
    const int us = p->side;
    return CH_PAWN_ATT[us ^ 1][p->ep] & p->by_fig[FIG_PAWN] & p->by_color[us];
}

int chess_ep_legal(const Position *p)
{
    if (p->ep < 0)
        return 0;
    for (Bitboard c = ep_candidates(p); c;)
        if (ep_capture_safe(p, bb_pop(&c)))
            return 1;
    return 0;
}

/* Emit the moves to every square of `to` from the square `delta` behind. */
static inline Move *emit_pawn(Move *m, Bitboard to, int delta, int kind)
{
    while (to) {
        int t = bb_pop(&to);
        *m++ = MOVE_MAKE(t - delta, t, kind);
    }
    return m;
}

static inline Move *emit_promos(Move *m, Bitboard to, int delta)
{
    while (to) {
        int t = bb_pop(&to);
        for (int k = MK_PROMO_Q; k >= MK_PROMO_N; k--)
            *m++ = MOVE_MAKE(t - delta, t, k);
    }
    return m;
}

/* Pawn pushes and captures of `pawns`, landing only inside `allowed`
 * (check mask, and pin line for a pinned pawn).  En passant is separate. */
static inline Move *gen_pawns(const Position *p, Move *m, Bitboard pawns, Bitboard allowed)
{
    const int us = p->side, up = UP(us);
    const Bitboard occ = p->by_color[0] | p->by_color[1];
    const Bitboard enemy = p->by_color[us ^ 1] & allowed;
    const Bitboard last = us == CH_WHITE ? BB_RANK_8 : BB_RANK_1;
    const Bitboard third = us == CH_WHITE ? BB_RANK_1 << 16 : BB_RANK_1 << 40;

    Bitboard one = shift_up(pawns, us) & ~occ;
    Bitboard two = shift_up(one & third, us) & ~occ & allowed;
    one &= allowed;
    /* Captures towards the h-file then the a-file; the file masks stop a
     * shift from wrapping to the other edge. */
    Bitboard east = shift_up((pawns & ~BB_FILE_H) << 1, us) & enemy;
    Bitboard west = shift_up((pawns & ~BB_FILE_A) >> 1, us) & enemy;

    m = emit_promos(m, one & last, up);
    m = emit_promos(m, east & last, up + 1);
    m = emit_promos(m, west & last, up - 1);
    m = emit_pawn(m, one & ~last, up, MK_NORMAL);
    m = emit_pawn(m, two, 2 * up, MK_DOUBLE);
    m = emit_pawn(m, east & ~last, up + 1, MK_NORMAL);
    m = emit_pawn(m, west & ~last, up - 1, MK_NORMAL);
    return m;
}

static inline Move *emit_from(Move *m, int from, Bitboard to)
{
    while (to)
        *m++ = MOVE_MAKE(from, bb_pop(&to), MK_NORMAL);
    return m;
}

/* Castling (ORTH-5): called only when not in check.  The rights imply the
 * King and Rook stand on their squares (kept by chess_make and checked by
 * chess_from_fen).  `inline` keeps it inside chess_legal_moves now that
 * chess_pseudo_moves calls it too (the perft's code stays as it was). */
static inline Move *gen_castles(const Position *p, Move *m, Bitboard occ)
{
    const int us = p->side, them = us ^ 1;
    const int base = us == CH_WHITE ? 0 : 56;
    const int ks = us == CH_WHITE ? CASTLE_WK : CASTLE_BK;
    const int qs = us == CH_WHITE ? CASTLE_WQ : CASTLE_BQ;
    if ((p->castling & ks) && !(occ & (BB(base + 5) | BB(base + 6))) &&
        !attacked(p, base + 5, them, occ) && !attacked(p, base + 6, them, occ))
        *m++ = MOVE_MAKE(base + 4, base + 6, MK_CASTLE);
    if ((p->castling & qs) && !(occ & (BB(base + 1) | BB(base + 2) | BB(base + 3))) &&
        !attacked(p, base + 3, them, occ) && !attacked(p, base + 2, them, occ))
        *m++ = MOVE_MAKE(base + 4, base + 2, MK_CASTLE);
    return m;
}

/* Own pieces pinned to the King at ksq. */
static inline Bitboard pinned_pieces(const Position *p, int ksq, Bitboard own, Bitboard enemy)
{
    const Bitboard occ = own | enemy;
    const Bitboard diag = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & enemy;
    const Bitboard orth = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & enemy;
    /* Enemy sliders that would see the King through our own pieces. */
    Bitboard snipers = (bb_bishop_attacks(ksq, enemy) & diag) | (bb_rook_attacks(ksq, enemy) & orth);
    Bitboard pinned = 0;
    while (snipers) {
        Bitboard between = bb_between(ksq, bb_pop(&snipers)) & occ;
        if (between && !bb_many(between))
            pinned |= between & own;
    }
    return pinned;
}

/* Most moves a side has that are not the King's, a pawn's or castling:
 * 15 pieces besides the King, a Queen counted as bishop and as rook. */
#define MAX_PIECE_SETS 32

/* A piece's moves to the squares of t: written out, or (sets) kept as
 * one set. */
static inline Move *piece_moves(Move *m, int sets, int sq, Bitboard t, int *from, Bitboard *to,
                                int *nsets)
{
    if (!sets)
        return emit_from(m, sq, t);
    if (*nsets < MAX_PIECE_SETS) {
        from[*nsets] = sq;
        to[(*nsets)++] = t;
    }
    return m;
}

/* The legal moves of p in their order: the King's steps, castlings, pawn
 * moves and en passant written to head, then every other piece's moves:
 * written too when `sets` is 0 (the end returned in *head_end, 0 sets),
 * else kept as a from square and a target set in from[]/to[] (the end of
 * the written ones in *head_end, the number of sets returned).  The one
 * generator of chess_legal_moves and chess_legal_draw; `sets` is a
 * constant at each call, so each gets its own code. */
static inline __attribute__((always_inline)) int
legal_gen(const Position *p, Move *head, Move **head_end, int sets, int *from, Bitboard *to)
{
    const int us = p->side, them = us ^ 1;
    const Bitboard own = p->by_color[us], enemy = p->by_color[them];
    const Bitboard occ = own | enemy;
    const int ksq = king_square(p, us);
    Move *m = head;
    int nsets = 0;

    /* King steps: tested with the King lifted off the board, so that it
     * cannot hide behind itself from a slider along the line. */
    const Bitboard occ_no_king = occ ^ BB(ksq);
    for (Bitboard t = safe_steps(p, CH_KING_ATT[ksq] & ~own, them, occ_no_king); t;)
        *m++ = MOVE_MAKE(ksq, bb_pop(&t), MK_NORMAL);

    const Bitboard checkers = chess_attackers(p, ksq, them, occ);
    if (bb_many(checkers)) {
        *head_end = m;
        return 0;  /* double check: only the King moves */
    }
    Bitboard allowed = ~own;
    if (checkers)
        allowed &= checkers | bb_between(ksq, bb_lsb(checkers));
    else
        m = gen_castles(p, m, occ);

    const Bitboard pinned = pinned_pieces(p, ksq, own, enemy);
    const Bitboard pawns = p->by_fig[FIG_PAWN] & own;

    m = gen_pawns(p, m, pawns & ~pinned, allowed);
    for (Bitboard pp = pawns & pinned; pp;) {
        int sq = bb_pop(&pp);
        m = gen_pawns(p, m, BB(sq), allowed & bb_line_through(ksq, sq));
    }
    if (p->ep >= 0) {
        for (Bitboard c = ep_candidates(p); c;) {
            int sq = bb_pop(&c);
            if (ep_capture_safe(p, sq))
                *m++ = MOVE_MAKE(sq, p->ep, MK_EP);
        }
    }

    for (Bitboard b = p->by_fig[FIG_KNIGHT] & own & ~pinned; b;) {
        int sq = bb_pop(&b);
        m = piece_moves(m, sets, sq, CH_KNIGHT_ATT[sq] & allowed, from, to, &nsets);
    }
    for (Bitboard b = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & own; b;) {
        int sq = bb_pop(&b);
        Bitboard t = bb_bishop_attacks(sq, occ) & allowed;
        if (pinned & BB(sq))
            t &= bb_line_through(ksq, sq);
        m = piece_moves(m, sets, sq, t, from, to, &nsets);
    }
    for (Bitboard b = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & own; b;) {
        int sq = bb_pop(&b);
        Bitboard t = bb_rook_attacks(sq, occ) & allowed;
        if (pinned & BB(sq))
            t &= bb_line_through(ksq, sq);
        m = piece_moves(m, sets, sq, t, from, to, &nsets);
    }
    *head_end = m;
    return nsets;
}

int chess_legal_moves(const Position *p, Move *out)
{
    Move *m;
    legal_gen(p, out, &m, 0, NULL, NULL);
    return (int)(m - out);
}

/* The legal move at index k (0 <= k < n) of chess_legal_moves's order,
 * after counting them: the King's steps, castlings, pawn moves and en
 * passant written out as chess_legal_moves writes them, every other
 * piece's moves kept as a target set (a popcount each) until the one
 * drawn is found in it.  Returns n; *out only when n > 0.  `draw` picks k
 * from n. */
int chess_legal_draw(const Position *p, uint32_t (*draw)(void *ud, uint32_t n), void *ud,
                     Move *out)
{
    Move head[CH_MAX_MOVES], *m;
    int from[MAX_PIECE_SETS];
    Bitboard to[MAX_PIECE_SETS];
    int nsets = legal_gen(p, head, &m, 1, from, to);
    int nhead = (int)(m - head), n = nhead;
    for (int i = 0; i < nsets; i++)
        n += bb_count(to[i]);
    if (n == 0)
        return 0;
    int k = (int)draw(ud, (uint32_t)n);
    if (k < nhead) {
        *out = head[k];
        return n;
    }
    k -= nhead;
    for (int i = 0; i < nsets; i++) {
        int c = bb_count(to[i]);
        if (k >= c) {
            k -= c;
            continue;
        }
        Bitboard t = to[i];
        while (k-- > 0)
            t &= t - 1;
        *out = MOVE_MAKE(from[i], bb_lsb(t), MK_NORMAL);
        return n;
    }
    return n; /* not reached: k < n */
}

/* chess_legal_moves(p) > 0, found with the least work: the pieces other
 * than the King first (a knight or a slider with a square it may go to is
 * enough), the King's steps last (each needs an attack test).  Castling
 * is never the only legal move: the King's step to the square it passes
 * is legal whenever the castling is. */
int chess_has_legal_move(const Position *p, int *in_check)
{
    const int us = p->side, them = us ^ 1;
    const Bitboard own = p->by_color[us], enemy = p->by_color[them];
    const Bitboard occ = own | enemy;
    const int ksq = king_square(p, us);
    const Bitboard checkers = chess_attackers(p, ksq, them, occ);
    if (in_check)
        *in_check = checkers != 0;
    if (!bb_many(checkers)) {
        Bitboard allowed = ~own;
        if (checkers)
            allowed &= checkers | bb_between(ksq, bb_lsb(checkers));
        const Bitboard pinned = pinned_pieces(p, ksq, own, enemy);
        for (Bitboard b = p->by_fig[FIG_KNIGHT] & own & ~pinned; b;) {
            int sq = bb_pop(&b);
            if (CH_KNIGHT_ATT[sq] & allowed)
                return 1;
        }
        for (Bitboard b = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & own; b;) {
            int sq = bb_pop(&b);
            Bitboard t = bb_bishop_attacks(sq, occ) & allowed;
            if (pinned & BB(sq))
                t &= bb_line_through(ksq, sq);
            if (t)
                return 1;
        }
        for (Bitboard b = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & own; b;) {
            int sq = bb_pop(&b);
            Bitboard t = bb_rook_attacks(sq, occ) & allowed;
            if (pinned & BB(sq))
                t &= bb_line_through(ksq, sq);
            if (t)
                return 1;
        }
        Move buf[CH_MAX_MOVES];
        const Bitboard pawns = p->by_fig[FIG_PAWN] & own;
        if (gen_pawns(p, buf, pawns & ~pinned, allowed) != buf)
            return 1;
        for (Bitboard pp = pawns & pinned; pp;) {
            int sq = bb_pop(&pp);
            if (gen_pawns(p, buf, BB(sq), allowed & bb_line_through(ksq, sq)) != buf)
                return 1;
        }
        if (p->ep >= 0)
            for (Bitboard c = ep_candidates(p); c;)
                if (ep_capture_safe(p, bb_pop(&c)))
                    return 1;
    }
    const Bitboard occ_no_king = occ ^ BB(ksq);
    for (Bitboard t = CH_KING_ATT[ksq] & ~own; t;)
        if (!attacked(p, bb_pop(&t), them, occ_no_king))
            return 1;
    return 0;
}

/* Pseudo-legal: the orthodox moves of every piece with the own King's
 * safety ignored (variants without check, such as Ambigus, filter or use
 * them).  Captures of the enemy King are ordinary captures here; castling
 * keeps its orthodox conditions, so callers that forbid it drop MK_CASTLE. */
int chess_pseudo_moves(const Position *p, Move *out)
{
    const int us = p->side, them = us ^ 1;
    const Bitboard own = p->by_color[us];
    const Bitboard occ = own | p->by_color[them];
    const Bitboard kings = p->by_fig[FIG_KING] & own;
    Move *m = out;

    m = gen_pawns(p, m, p->by_fig[FIG_PAWN] & own, ~own);
    if (p->ep >= 0)
        for (Bitboard c = ep_candidates(p); c;)
            *m++ = MOVE_MAKE(bb_pop(&c), p->ep, MK_EP);
    for (Bitboard b = p->by_fig[FIG_KNIGHT] & own; b;) {
        int sq = bb_pop(&b);
        m = emit_from(m, sq, CH_KNIGHT_ATT[sq] & ~own);
    }
    for (Bitboard b = (p->by_fig[FIG_BISHOP] | p->by_fig[FIG_QUEEN]) & own; b;) {
        int sq = bb_pop(&b);
        m = emit_from(m, sq, bb_bishop_attacks(sq, occ) & ~own);
    }
    for (Bitboard b = (p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN]) & own; b;) {
        int sq = bb_pop(&b);
        m = emit_from(m, sq, bb_rook_attacks(sq, occ) & ~own);
    }
    /* No King (one already captured): nothing to move, no castling. */
    if (kings) {
        const int ksq = bb_lsb(kings);
        m = emit_from(m, ksq, CH_KING_ATT[ksq] & ~own);
        if (!attacked(p, ksq, them, occ))
            m = gen_castles(p, m, occ);
    }
    return (int)(m - out);
}

/* Castling rights lost when a move touches these squares (from or to). */
static const uint8_t CASTLE_LOST[64] = {
    [0] = CASTLE_WQ, [4] = CASTLE_WK | CASTLE_WQ, [7] = CASTLE_WK,
    [56] = CASTLE_BQ, [60] = CASTLE_BK | CASTLE_BQ, [63] = CASTLE_BK,
};

static inline void put_piece(Position *p, int pc, int sq, uint64_t *key)
{
    p->board[sq] = (uint8_t)pc;
    p->by_color[CH_COLOR(pc)] |= BB(sq);
    p->by_fig[CH_FIG(pc)] |= BB(sq);
    *key ^= ZOB_PIECE(pc, sq);
}

static inline void remove_piece(Position *p, int sq, uint64_t *key)
{
    int pc = p->board[sq];
    p->board[sq] = 0;
    p->by_color[CH_COLOR(pc)] ^= BB(sq);
    p->by_fig[CH_FIG(pc)] ^= BB(sq);
    *key ^= ZOB_PIECE(pc, sq);
}

static inline void move_piece(Position *p, int from, int to, uint64_t *key)
{
    int pc = p->board[from];
    Bitboard fromto = BB(from) | BB(to);
    p->board[from] = 0;
    p->board[to] = (uint8_t)pc;
    p->by_color[CH_COLOR(pc)] ^= fromto;
    p->by_fig[CH_FIG(pc)] ^= fromto;
    *key ^= ZOB_PIECE(pc, from) ^ ZOB_PIECE(pc, to);
}

void chess_make(Position *p, Move m)
{
    const int from = MOVE_FROM(m), to = MOVE_TO(m), kind = MOVE_KIND(m);
    const int us = p->side;
    uint64_t key = p->key ^ ZOB_SIDE ^ ZOB_CASTLE(p->castling);

    if (p->ep_keyed)
        key ^= ZOB_EP(p->ep & 7);
    p->ep = CH_NO_SQ;
    p->ep_keyed = 0;
    p->halfmove++;
    if (p->board[to]) {
        remove_piece(p, to, &key);
        p->halfmove = 0;
    }
    if (CH_FIG(p->board[from]) == FIG_PAWN)
        p->halfmove = 0;
    move_piece(p, from, to, &key);

    switch (kind) {
    case MK_DOUBLE:
        p->ep = (int8_t)((from + to) / 2);
        break;
    case MK_EP:
        remove_piece(p, to - UP(us), &key);
        break;
    case MK_CASTLE:
        if (to > from)
            move_piece(p, from + 3, from + 1, &key);  /* h-rook to f */
        else
            move_piece(p, from - 4, from - 1, &key);  /* a-rook to d */
        break;
    case MK_NORMAL:
        break;
    default:  /* promotions */
        remove_piece(p, to, &key);
        put_piece(p, CH_PIECE(us, MOVE_PROMO_FIG(m)), to, &key);
        break;
    }

    p->castling &= (uint8_t)~(CASTLE_LOST[from] | CASTLE_LOST[to]);
    key ^= ZOB_CASTLE(p->castling);
    if (us == CH_BLACK)
        p->fullmove++;
    p->side = (uint8_t)(us ^ 1);
    /* The en passant file enters the key only when the capture is really
     * available, so that equal positions get equal keys (repetition). */
    if (p->ep >= 0 && ep_candidates(p) && chess_ep_legal(p)) {
        p->ep_keyed = 1;
        key ^= ZOB_EP(p->ep & 7);
    }
    p->key = key;
}

static uint64_t perft_rec(const Position *p, int depth)
{
    Move moves[CH_MAX_MOVES];
    int n = chess_legal_moves(p, moves);
    if (depth == 1)
        return (uint64_t)n;  /* bulk count: the leaves are the legal moves */
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        Position child = *p;
        chess_make(&child, moves[i]);
        total += perft_rec(&child, depth - 1);
    }
    return total;
}

uint64_t chess_perft(const Position *p, int depth)
{
    return depth <= 0 ? 1 : perft_rec(p, depth);
}

/* ORTH-9: K v K, K + one minor v K, K+B v K+B with bishops on squares of
 * one colour.  Any pawn, rook or queen is enough material. */
int chess_insufficient_material(const Position *p)
{
    if (p->by_fig[FIG_PAWN] | p->by_fig[FIG_ROOK] | p->by_fig[FIG_QUEEN])
        return 0;
    const Bitboard minors = p->by_fig[FIG_KNIGHT] | p->by_fig[FIG_BISHOP];
    const int n = bb_count(minors);
    if (n <= 1)
        return 1;
    if (n == 2 && !p->by_fig[FIG_KNIGHT]) {
        Bitboard b = p->by_fig[FIG_BISHOP];
        int one_each = bb_count(b & p->by_color[CH_WHITE]) == 1;
        int same_colour = !(b & BB_DARK) || !(b & ~BB_DARK);
        return one_each && same_colour;
    }
    return 0;
}
