/*
 * engine.c -- L'Échiqueté's rules on a mailbox: attacks with merged pieces
 * (ECHQ-8, 11), legal moves with merge choices (ECHQ-1..7, 10, 11), make,
 * the phase-2 turn cycle, sides going out and the takeover (ECHQ-9, 12, 13).
 *
 * Invariant: ech_make applied to a move of ech_moves keeps the EchState
 * invariants of ech.h; nothing here keeps state outside the blob.
 */
#include <string.h>
#include "ech.h"
#include "../../core/variant.h"

static const int KNIGHT_D[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                   {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
static const int KING_D[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                 {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

static int on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

int ech_two_seat(const EchState *s)
{
    return s->phase == 2 && s->seat[ES_WHITE] == s->seat[ES_BLACK];
}

int ech_active_count(const EchState *s)
{
    return 3 - __builtin_popcount(s->out & 7u);
}

int ech_merged_count(const EchState *s)
{
    int n = 0;
    for (int sq = 0; sq < 64; sq++)
        n += s->board[sq] && EK_COL(s->board[sq]) == ES_MERGED;
    return n;
}

int ech_king_square(const EchState *s, int colour)
{
    const uint8_t k = EK_PIECE(colour, FIG_KING);
    for (int sq = 0; sq < 64; sq++)
        if (s->board[sq] == k)
            return sq;
    return -1;
}

/* Who may attack: one-coloured colours (bit per colour), merged pieces,
 * and the directions merged pawns attack in (1 up, 2 down). */
typedef struct AttackSpec {
    unsigned cols;
    int merged;
    unsigned mdirs;
} AttackSpec;

/* The attackers of colour's King: ECHQ-8 in phase 1 (the opponent and every
 * merged piece, pawns with the opponent's direction), ECHQ-13 in phase 2
 * (every other side that is not out; É's pawns both ways). */
static AttackSpec king_spec(const EchState *s, int colour)
{
    AttackSpec a;
    if (s->phase == 1) {
        a.cols = 1u << (colour ^ 1);
        a.merged = 1;
        a.mdirs = colour == ES_WHITE ? 2u : 1u;
    } else {
        a.cols = (3u & ~(1u << colour)) & ~s->out;
        a.merged = !(s->out & 4u);
        a.mdirs = 3u;
    }
    return a;
}

static int may_attack(const AttackSpec *a, int pc)
{
    const int col = EK_COL(pc);
    return col == ES_MERGED ? a->merged : (int)((a->cols >> col) & 1u);
}

static unsigned side_bit(int pc) { return 1u << EK_COL(pc); }

/* Sides (bit mask) whose pieces allowed by a attack sq. */
static unsigned attackers(const uint8_t *b, int sq, const AttackSpec *a)
{
    const int f = EK_FILE(sq), r = EK_RANK(sq);
    unsigned m = 0;
    for (int df = -1; df <= 1; df += 2) {
        /* A pawn attacking upwards stands below, one attacking down above. */
        if (on_board(f + df, r - 1)) {
            int pc = b[sq - 8 + df];
            if (pc && EK_FIG(pc) == FIG_PAWN && may_attack(a, pc) &&
                (EK_COL(pc) == ES_MERGED ? (a->mdirs & 1u) : EK_COL(pc) == ES_WHITE))
                m |= side_bit(pc);
        }
        if (on_board(f + df, r + 1)) {
            int pc = b[sq + 8 + df];
            if (pc && EK_FIG(pc) == FIG_PAWN && may_attack(a, pc) &&
                (EK_COL(pc) == ES_MERGED ? (a->mdirs & 2u) : EK_COL(pc) == ES_BLACK))
                m |= side_bit(pc);
        }
    }
    for (int i = 0; i < 8; i++) {
        int nf = f + KNIGHT_D[i][0], nr = r + KNIGHT_D[i][1];
        if (on_board(nf, nr)) {
            int pc = b[nr * 8 + nf];
            if (pc && EK_FIG(pc) == FIG_KNIGHT && may_attack(a, pc))
                m |= side_bit(pc);
        }
        nf = f + KING_D[i][0];
        nr = r + KING_D[i][1];
        if (on_board(nf, nr)) {
            int pc = b[nr * 8 + nf];
            if (pc && EK_FIG(pc) == FIG_KING && may_attack(a, pc))
                m |= side_bit(pc);
        }
    }
    for (int i = 0; i < 8; i++) {
        const int diag = KING_D[i][0] && KING_D[i][1];
        int nf = f + KING_D[i][0], nr = r + KING_D[i][1];
        while (on_board(nf, nr)) {
            int pc = b[nr * 8 + nf];
            if (pc) {
                int fig = EK_FIG(pc);
                if ((fig == FIG_QUEEN || fig == (diag ? FIG_BISHOP : FIG_ROOK)) &&
                    may_attack(a, pc))
                    m |= side_bit(pc);
                break;
            }
            nf += KING_D[i][0];
            nr += KING_D[i][1];
        }
    }
    return m;
}

unsigned ech_king_attackers(const EchState *s, int colour)
{
    if (colour == ES_MERGED)
        return 0;
    const int k = ech_king_square(s, colour);
    if (k < 0)
        return 0;
    AttackSpec a = king_spec(s, colour);
    return attackers(s->board, k, &a);
}

/* ---- Move generation ----------------------------------------------------- */

/* May the side to move move the piece pc (ECHQ-2 in phase 1)? */
static int own(const EchState *s, int pc)
{
    if (!pc)
        return 0;
    if (s->phase == 2)
        return EK_COL(pc) == s->to_move;
    return EK_COL(pc) == s->to_move || EK_COL(pc) == ES_MERGED;
}

/* May the side to move capture pc?  Never a King (ECHQ-13), never a merged
 * piece in phase 1 (ECHQ-4), never its own. */
static int capturable(const EchState *s, int pc)
{
    if (!pc || EK_FIG(pc) == FIG_KING)
        return 0;
    if (s->phase == 1)
        return EK_COL(pc) == (s->to_move ^ 1);
    return EK_COL(pc) != s->to_move;
}

/* Directions (1 up, 2 down) in which the side to move moves pawn pc. */
static unsigned pawn_dirs(const EchState *s, int pc)
{
    if (EK_COL(pc) == ES_MERGED)
        return s->phase == 2 ? 3u : (s->to_move == ES_WHITE ? 1u : 2u);
    return EK_COL(pc) == ES_WHITE ? 1u : 2u;
}

typedef struct Gen {
    EMove *v;
    int n;
} Gen;

static void push(Gen *g, int from, int to, int fig)
{
    if (g->n < ECH_MAX_MOVES)
        g->v[g->n++] = (EMove){(int8_t)from, (int8_t)to, (uint8_t)fig};
}

static const uint8_t PROMOS[4] = {FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT};

static void push_promos(Gen *g, int from, int to)
{
    for (int i = 0; i < 4; i++)
        push(g, from, to, PROMOS[i]);
}

/* A capture of the piece of figure cfig by pc (ECHQ-1, 3, 5, 10). */
static void push_capture(Gen *g, const EchState *s, int from, int to, int pc,
                         int cfig, int promo)
{
    const int mfig = EK_FIG(pc);
    const int merges = s->phase == 1 ? mfig != FIG_KING : EK_COL(pc) == ES_MERGED;
    if (promo) {
        push_promos(g, from, to); /* the captured figure is one of them, or a pawn */
    } else if (!merges) {
        push(g, from, to, 0);
    } else {
        push(g, from, to, mfig);
        if (cfig != mfig)
            push(g, from, to, cfig);
    }
}

static void gen_pawn(Gen *g, const EchState *s, int sq, int pc)
{
    const unsigned dirs = pawn_dirs(s, pc);
    const int f = EK_FILE(sq), r = EK_RANK(sq);
    for (int d = 1; d <= 2; d++) {
        if (!(dirs & (unsigned)d))
            continue;
        const int dr = d == 1 ? 1 : -1, last = d == 1 ? 7 : 0;
        const int r1 = r + dr;
        if (r1 < 0 || r1 > 7)
            continue;
        const int one = r1 * 8 + f;
        if (!s->board[one]) {
            if (r1 == last) {
                push_promos(g, sq, one);
            } else {
                push(g, sq, one, 0);
                /* ECHQ-7: the start rank, or a kept right away from it. */
                const int start = d == 1 ? 1 : 6;
                int may = r == start && (EK_COL(pc) == ES_MERGED ? (pc & EK_KEPT) != 0
                                                                : 1);
                const int two = one + dr * 8;
                if (may && !s->board[two])
                    push(g, sq, two, 0);
            }
        }
        for (int df = -1; df <= 1; df += 2) {
            if (f + df < 0 || f + df > 7)
                continue;
            const int to = r1 * 8 + f + df;
            const int t = s->board[to];
            if (capturable(s, t)) {
                push_capture(g, s, sq, to, pc, EK_FIG(t), r1 == last);
            } else if (!t && to == s->ep) {
                const int victim = s->ep + (EK_RANK(s->ep) == 2 ? 8 : -8);
                const int vp = s->board[victim];
                if (vp && EK_FIG(vp) == FIG_PAWN && capturable(s, vp))
                    push_capture(g, s, sq, to, pc, FIG_PAWN, 0);
            }
        }
    }
}

static void gen_steps(Gen *g, const EchState *s, int sq, int pc, const int (*d)[2])
{
    const int f = EK_FILE(sq), r = EK_RANK(sq);
    for (int i = 0; i < 8; i++) {
        const int nf = f + d[i][0], nr = r + d[i][1];
        if (!on_board(nf, nr))
            continue;
        const int to = nr * 8 + nf, t = s->board[to];
        if (!t)
            push(g, sq, to, 0);
        else if (capturable(s, t))
            push_capture(g, s, sq, to, pc, EK_FIG(t), 0);
    }
}

static void gen_slides(Gen *g, const EchState *s, int sq, int pc, int lo, int hi)
{
    const int f = EK_FILE(sq), r = EK_RANK(sq);
    for (int i = lo; i < hi; i++) {
        const int diag = KING_D[i][0] && KING_D[i][1];
        if ((EK_FIG(pc) == FIG_ROOK && diag) || (EK_FIG(pc) == FIG_BISHOP && !diag))
            continue;
        int nf = f + KING_D[i][0], nr = r + KING_D[i][1];
        while (on_board(nf, nr)) {
            const int to = nr * 8 + nf, t = s->board[to];
            if (!t) {
                push(g, sq, to, 0);
            } else {
                if (capturable(s, t))
                    push_capture(g, s, sq, to, pc, EK_FIG(t), 0);
                break;
            }
            nf += KING_D[i][0];
            nr += KING_D[i][1];
        }
    }
}

/* ECHQ-8: castling through squares no enemy or merged piece attacks; a
 * one-coloured Rook only. */
static void gen_castles(Gen *g, const EchState *s)
{
    const int c = s->to_move;
    if (c == ES_MERGED)
        return;
    const int base = c == ES_WHITE ? 0 : 56;
    if (s->board[base + 4] != EK_PIECE(c, FIG_KING))
        return;
    AttackSpec a = king_spec(s, c);
    const uint8_t rook = EK_PIECE(c, FIG_ROOK);
    const int kside = c == ES_WHITE ? ECASTLE_WK : ECASTLE_BK;
    const int qside = c == ES_WHITE ? ECASTLE_WQ : ECASTLE_BQ;
    if ((s->castling & (kside | qside)) == 0 || attackers(s->board, base + 4, &a))
        return;
    if ((s->castling & kside) && s->board[base + 7] == rook && !s->board[base + 5] &&
        !s->board[base + 6] && !attackers(s->board, base + 5, &a) &&
        !attackers(s->board, base + 6, &a))
        push(g, base + 4, base + 6, 0);
    if ((s->castling & qside) && s->board[base] == rook && !s->board[base + 1] &&
        !s->board[base + 2] && !s->board[base + 3] &&
        !attackers(s->board, base + 3, &a) && !attackers(s->board, base + 2, &a))
        push(g, base + 4, base + 2, 0);
}

/* The pseudo-legal moves of the piece on sq (the side to move's). */
static void piece_moves(Gen *g, const EchState *s, int sq)
{
    const int pc = s->board[sq];
    if (!own(s, pc))
        return;
    switch (EK_FIG(pc)) {
    case FIG_PAWN: gen_pawn(g, s, sq, pc); break;
    case FIG_KNIGHT: gen_steps(g, s, sq, pc, KNIGHT_D); break;
    case FIG_KING: gen_steps(g, s, sq, pc, KING_D); break;
    default: gen_slides(g, s, sq, pc, 0, 8); break;
    }
}

static int pseudo_moves(const EchState *s, EMove *out)
{
    Gen g = {out, 0};
    for (int sq = 0; sq < 64; sq++)
        piece_moves(&g, s, sq);
    gen_castles(&g, s);
    return g.n;
}

/* The pseudo-legal moves that start on sq (castling with the King). */
static int pseudo_moves_from(const EchState *s, int sq, EMove *out)
{
    Gen g = {out, 0};
    piece_moves(&g, s, sq);
    if (EK_FIG(s->board[sq]) == FIG_KING)
        gen_castles(&g, s);
    return g.n;
}

int ech_is_ep(const EchState *s, EMove m)
{
    const int pc = s->board[m.from];
    return m.to == s->ep && EK_FIG(pc) == FIG_PAWN && EK_FILE(m.from) != EK_FILE(m.to) &&
           !s->board[m.to];
}

int ech_is_capture(const EchState *s, EMove m)
{
    return m.from >= 0 && (s->board[m.to] != 0 || ech_is_ep(s, m));
}

/* The board part of a move: pieces, merging, castling's Rook, the en
 * passant victim.  Returns the captured piece's code (0 none). */
static int make_board(EchState *s, EMove m)
{
    const int pc = s->board[m.from], fig = EK_FIG(pc);
    int col = EK_COL(pc);
    int victim_sq = m.to, cap = s->board[m.to];
    if (!cap && ech_is_ep(s, m)) {
        victim_sq = s->ep + (EK_RANK(s->ep) == 2 ? 8 : -8);
        cap = s->board[victim_sq];
    }
    s->board[victim_sq] = 0;
    s->board[m.from] = 0;
    if (fig == FIG_KING && (m.to - m.from == 2 || m.from - m.to == 2)) {
        const int rf = m.to > m.from ? m.from + 3 : m.from - 4;
        const int rt = m.to > m.from ? m.from + 1 : m.from - 1;
        s->board[rt] = s->board[rf];
        s->board[rf] = 0;
    }
    if (cap && s->phase == 1 && fig != FIG_KING)
        col = ES_MERGED; /* ECHQ-1, 3 */
    int code = EK_PIECE(col, m.fig ? m.fig : fig);
    /* ECHQ-7: a pawn captured on its start rank, the merged pawn keeps the
     * double step (not after en passant: the victim had left its rank). */
    if (cap && col == ES_MERGED && m.fig == FIG_PAWN && victim_sq == m.to &&
        EK_FIG(cap) == FIG_PAWN && EK_COL(cap) != ES_MERGED &&
        EK_RANK(m.to) == (EK_COL(cap) == ES_WHITE ? 1 : 6))
        code |= EK_KEPT;
    s->board[m.to] = (uint8_t)code;
    return cap;
}

/* Are a and b on one rank, file or diagonal? */
static int aligned(int a, int b)
{
    const int df = EK_FILE(a) - EK_FILE(b), dr = EK_RANK(a) - EK_RANK(b);
    return !df || !dr || df == dr || df == -dr;
}

static unsigned mover_in_check(const EchState *after, int mover)
{
    return ech_king_attackers(after, mover);
}

/* Could moving the piece on `from` open a line from an attacker to the
 * mover's King on k?  Only if from is on a line through k with nothing
 * between them, and the first piece beyond from on that line is a slider
 * of that line that may attack the King. */
static int discovers(const EchState *s, int from, int k)
{
    if (!aligned(from, k) || from == k)
        return 0;
    const int df = EK_FILE(from) - EK_FILE(k), dr = EK_RANK(from) - EK_RANK(k);
    const int sf = df > 0 ? 1 : df < 0 ? -1 : 0, sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
    const int step = sf + 8 * sr, line = (!sf || !sr) ? FIG_ROOK : FIG_BISHOP;
    int sq = k + step;
    for (; sq != from; sq += step)
        if (s->board[sq])
            return 0; /* another piece shields the King */
    int f = EK_FILE(from), r = EK_RANK(from);
    AttackSpec a = king_spec(s, s->to_move);
    for (f += sf, r += sr; f >= 0 && f < 8 && r >= 0 && r < 8; f += sf, r += sr) {
        const int pc = s->board[r * 8 + f];
        if (!pc)
            continue;
        const int fig = EK_FIG(pc);
        return (fig == FIG_QUEEN || fig == line) && may_attack(&a, pc);
    }
    return 0;
}

/* The squares whose piece, moving away, could open a line to the King on
 * k: on each of the eight lines from k, the first piece when the next one
 * beyond it is a slider of that line that may attack the King (discovers()
 * for every square at once: one walk per line instead of one per move). */
static uint64_t opening_squares(const EchState *s, int k)
{
    uint64_t m = 0;
    for (int i = 0; i < 8; i++) {
        int f = EK_FILE(k) + KING_D[i][0], r = EK_RANK(k) + KING_D[i][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8 && !s->board[r * 8 + f])
            f += KING_D[i][0], r += KING_D[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8 && discovers(s, r * 8 + f, k))
            m |= (uint64_t)1 << (r * 8 + f);
    }
    return m;
}

/* Does a piece of figure fig on t attack k, on board b (pawns: towards
 * rank 1 when down)?  Lines are judged on b with the square `vacated`
 * (the mover's departure) empty. */
static int piece_hits(const uint8_t *b, int fig, int t, int k, int down, int vacated)
{
    const int df = EK_FILE(k) - EK_FILE(t), dr = EK_RANK(k) - EK_RANK(t);
    const int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
    switch (fig) {
    case FIG_PAWN: return adf == 1 && dr == (down ? -1 : 1);
    case FIG_KNIGHT: return (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
    case FIG_KING: return adf <= 1 && adr <= 1 && (adf || adr);
    default: break;
    }
    int line = (!df || !dr) ? FIG_ROOK : adf == adr ? FIG_BISHOP : 0;
    if (!line || !(fig == FIG_QUEEN || fig == line) || t == k)
        return 0;
    const int sf = df > 0 ? 1 : df < 0 ? -1 : 0, sr = dr > 0 ? 1 : dr < 0 ? -1 : 0;
    for (int sq = t + sf + 8 * sr; sq != k; sq += sf + 8 * sr)
        if (b[sq] && sq != vacated)
            return 0;
    return 1;
}

/* Is the mover's King (on k, attacked by `pre` now) safe after the
 * pseudo-legal move m?  Most moves are judged without making them: with
 * the King not attacked now, a piece that is not the King, that opens no
 * line to the King (`opens`: the squares for which discovers() holds) and
 * takes nothing en passant keeps the King safe,
 * unless it ends as a merged piece (a merging capture, a merged piece's
 * move: the enemy's once the move is made, ECHQ-8) that hits the King. */
static int king_safe_after(const EchState *s, EMove m, int k, unsigned pre,
                           uint64_t opens)
{
    const int mover = s->to_move;
    const int pc = m.from >= 0 ? s->board[m.from] : 0;
    if (k < 0)
        return 1; /* no King of the mover: nothing to attack */
    if (!pre && pc && EK_FIG(pc) != FIG_KING && !((opens >> m.from) & 1u) &&
        !ech_is_ep(s, m)) {
        const int merged_after = s->phase == 1 && (EK_COL(pc) == ES_MERGED || s->board[m.to]);
        if (!merged_after)
            return 1;
        const int fig = m.fig ? m.fig : EK_FIG(pc);
        /* the merged piece will be moved by the mover's opponent */
        return !piece_hits(s->board, fig, m.to, k, mover == ES_WHITE, m.from);
    }
    EchState t;
    memcpy(t.board, s->board, 64);
    t.phase = s->phase;
    t.out = s->out;
    t.ep = s->ep;
    make_board(&t, m);
    /* the King is where it was, or where it went */
    const int kk = pc && EK_FIG(pc) == FIG_KING ? m.to : k;
    if (kk < 0)
        return !mover_in_check(&t, mover);
    AttackSpec a = king_spec(&t, mover);
    return !attackers(t.board, kk, &a);
}

/* The King's square and what attacks it now, for king_safe_after. */
static unsigned king_now(const EchState *s, int *k)
{
    *k = -1;
    if (s->to_move == ES_MERGED || (*k = ech_king_square(s, s->to_move)) < 0)
        return 0;
    AttackSpec a = king_spec(s, s->to_move);
    return attackers(s->board, *k, &a);
}

int ech_move_ok(const Game *g, const EchState *s, EMove m)
{
    (void)g;
    if (s->phase == 2 && (s->out >> s->to_move) & 1u)
        return 0;
    if (m.from == EM_PASS) { /* a pass is legal only when nothing else is */
        EMove all[ECH_MAX_MOVES];
        int n = ech_moves(g, s, all);
        return n == 1 && all[0].from == EM_PASS;
    }
    if (m.from == s->noundo_from && m.to == s->noundo_to)
        return 0;
    if (m.from < 0 || m.from > 63 || m.to < 0 || m.to > 63)
        return 0;
    EMove pseudo[ECH_MAX_MOVES];
    const int np = pseudo_moves_from(s, m.from, pseudo);
    int found = 0;
    for (int i = 0; i < np && !found; i++)
        found = pseudo[i].from == m.from && pseudo[i].to == m.to && pseudo[i].fig == m.fig;
    if (!found)
        return 0;
    int k;
    unsigned pre = king_now(s, &k);
    return s->to_move == ES_MERGED ||
           king_safe_after(s, m, k, pre, k >= 0 && discovers(s, m.from, k)
                                             ? (uint64_t)1 << m.from : 0);
}

int ech_moves(const Game *g, const EchState *s, EMove *out)
{
    (void)g;
    if (s->phase == 2 && (s->out >> s->to_move) & 1u)
        return 0;
    EMove pseudo[ECH_MAX_MOVES];
    const int np = pseudo_moves(s, pseudo);
    /* A move needs the full check test (make it, look at the King) only
     * when it could leave the King attacked: the King is attacked now, the
     * King moves, the piece leaves a line through the King (a discovery),
     * the move makes or moves a merged piece (which is the enemy's once
     * the move is made, ECHQ-8), or en passant takes a second piece away.
     * Every other move keeps the King as safe as it is. */
    const int mover = s->to_move;
    int k;
    const unsigned pre = king_now(s, &k);
    const uint64_t opens = k >= 0 ? opening_squares(s, k) : 0;
    int n = 0;
    for (int i = 0; i < np; i++) {
        const EMove m = pseudo[i];
        if (m.from == s->noundo_from && m.to == s->noundo_to)
            continue; /* ECHQ-6 */
        if (mover == ES_MERGED || king_safe_after(s, m, k, pre, opens))
            out[n++] = m;
    }
    if (n == 0 && s->phase == 2 && !(s->out & 4u) &&
        !ech_king_attackers(s, s->to_move))
        out[n++] = (EMove){EM_PASS, EM_PASS, 0}; /* ECHQ-13 */
    return n;
}

/* ---- The turn ------------------------------------------------------------ */

static const uint8_t CYCLES[2][3] = {{ES_MERGED, ES_WHITE, ES_BLACK},
                                     {ES_MERGED, ES_BLACK, ES_WHITE}};

int ech_cycle_side(const EchState *s, int i)
{
    return CYCLES[s->cycle][i];
}

static int cycle_index(const EchState *s, int side)
{
    for (int i = 0; i < 3; i++)
        if (CYCLES[s->cycle][i] == side)
            return i;
    return 0;
}

/* The next side in the cycle that is not out; a new round counts a move. */
static void advance(EchState *s)
{
    if (s->phase == 1) {
        if (s->to_move == ES_BLACK)
            s->fullmove++;
        s->to_move ^= 1;
        return;
    }
    int i = cycle_index(s, s->to_move);
    for (int k = 0; k < 3; k++) {
        i++;
        if (i == 3) {
            i = 0;
            s->fullmove++;
        }
        if (!((s->out >> CYCLES[s->cycle][i]) & 1u))
            break;
    }
    s->to_move = CYCLES[s->cycle][i];
}

static const char *const SIDE_WORD[3] = {"white", "black", "merged"};

int ech_structural_end(const Game *g, const EchState *s)
{
    if (s->phase != 2)
        return 0;
    if (ech_active_count(s) <= 1)
        return 1;
    if (ech_two_seat(s) && ech_merged_count(s) == 0)
        return 1;
    return game_param(g, EP_PASS_ROUND) && s->passes >= ech_active_count(s);
}

void ech_resolve(const Game *g, EchState *s, Events *ev)
{
    if (s->phase != 2 || ech_two_seat(s))
        return;
    if (!(s->out & 4u) && ech_merged_count(s) == 0) {
        s->out |= 4u; /* ECHQ-13: É is out with no piece left */
        ev_emit(ev, SEATS_ALL, "the merged side has no piece left: it is out");
        if (s->to_move == ES_MERGED)
            advance(s);
    }
    for (int k = 0; k < 3 && !ech_structural_end(g, s); k++) {
        const int side = s->to_move;
        if (side == ES_MERGED)
            return;
        const unsigned att = ech_king_attackers(s, side);
        if (!att)
            return;
        EMove mv[ECH_MAX_MOVES];
        if (ech_moves(g, s, mv) > 0)
            return;
        if (((att & 4u) && game_param(g, EP_E_MATE) == 0) ||
            game_param(g, EP_COLOUR_MATE) == 1)
            return; /* the game ends: status says how */
        s->out |= 1u << side;
        ev_emit(ev, SEATS_ALL, "%s is mated and out: its pieces stay as inert obstacles",
                SIDE_WORD[side]);
        advance(s);
    }
}

void ech_make(const Game *g, EchState *s, EMove m, Events *ev)
{
    if (m.from == EM_PASS) {
        s->passes++;
        s->noundo_from = s->noundo_to = -1;
        s->ep = -1;
        s->halfmove++;
        advance(s);
        ech_resolve(g, s, ev);
        return;
    }
    const int pc = s->board[m.from];
    const int fig = EK_FIG(pc);
    const int cap = make_board(s, m);
    if (fig == FIG_KING && EK_COL(pc) != ES_MERGED)
        s->castling &= EK_COL(pc) == ES_WHITE ? ~(ECASTLE_WK | ECASTLE_WQ)
                                              : ~(ECASTLE_BK | ECASTLE_BQ);
    static const int corner[4] = {7, 0, 63, 56};
    for (int i = 0; i < 4; i++)
        if (m.from == corner[i] || m.to == corner[i])
            s->castling &= (uint8_t)~(1u << i);
    s->halfmove = (fig == FIG_PAWN || cap) ? 0 : (uint16_t)(s->halfmove + 1);
    s->ep = (fig == FIG_PAWN && (m.to - m.from == 16 || m.from - m.to == 16))
                ? (int8_t)((m.from + m.to) / 2)
                : -1;
    s->noundo_from = s->noundo_to = -1;
    if (s->phase == 1 && game_param(g, EP_NOUNDO) &&
        EK_COL(s->board[m.to]) == ES_MERGED) {
        s->noundo_from = m.to; /* ECHQ-6 */
        s->noundo_to = m.from;
    }
    s->passes = 0;
    if (s->phase == 2 && !ech_two_seat(s) && !(s->out & 4u) && ech_merged_count(s) == 0) {
        s->out |= 4u;
        ev_emit(ev, SEATS_ALL, "the merged side has no piece left: it is out");
    }
    advance(s);
    ech_resolve(g, s, ev);
}

int ech_takeover_open(const Game *g, const EchState *s, int seat)
{
    if (s->phase != 1 || !game_param(g, EP_PHASE2) || seat < 0 ||
        seat >= game_nseats(g) || seat > 2)
        return 0;
    if (s->fullmove < game_param(g, EP_TAKEOVER_FROM))
        return 0;
    return ech_merged_count(s) > 0;
}

int ech_may_take_over(const Game *g, const EchState *s, int seat)
{
    /* ECHQ-9, 12: any seat, the seat to act too (instead of its move), at
     * a moment between moves; a side mated or stalemated has ended the
     * game (ECHQ-8), so there is no such moment */
    EMove mv[ECH_MAX_MOVES];
    return ech_takeover_open(g, s, seat) && ech_moves(g, s, mv) > 0;
}

void ech_takeover(const Game *g, EchState *s, int seat, Events *ev)
{
    s->phase = 2;
    s->cycle = s->to_move == ES_WHITE ? EC_EWB : EC_EBW; /* ECHQ-9 */
    if (seat == 2) {
        s->seat[ES_WHITE] = 0;
        s->seat[ES_BLACK] = 1;
    } else { /* ECHQ-12 */
        s->seat[ES_WHITE] = s->seat[ES_BLACK] = (int8_t)(seat ^ 1);
    }
    s->seat[ES_MERGED] = (int8_t)seat;
    s->to_move = ES_MERGED;
    s->passes = 0;
    ev_emit(ev, SEATS_ALL, "%s takes over the merged pieces: merged moves next",
            game_seat_name(g, seat));
}
