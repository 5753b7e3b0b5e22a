/*
 * masques_brute.c -- the brute-force reference of Les Échecs Masqués used
 * by the tests (see masques_brute.h).  Written from docs/RULES.md (MASQ)
 * and docs/MASQUES.md only; speed is no goal, plainness is:
 * every rule is one visible loop or one switch case.
 *
 * Invariant: an MbPos is always in exactly one phase and mb_to_act names
 * the side that decides in it; after any action the forced single answers
 * (a mask-mate reveal without choice, a give-up with one possible set) are
 * already applied, as the contract says the engine does, so a ply is
 * always a real decision.
 */
#include "masques_brute.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/action.h" /* the Figure numbers, nothing else */

#define FILE_OF(s) ((s) & 7)
#define RANK_OF(s) ((s) >> 3)

enum MbKind {
    MA_MOVE,      /* a move or a capture without battle (right, revealed victim) */
    MA_BATTLE,    /* a capture attempt on a masked piece (MASQ-8) */
    MA_CASTLE,    /* MASQ-15 */
    MA_REVPROMO,  /* reveal a masked pawn on its last rank and promote (MASQ-3) */
    MA_REVALONE,  /* reveal without moving (MASQ-5 Parameter reveal_alone) */
    MA_ANN_CHECK, /* MASQ-6 */
    MA_ANN_MATE,  /* MASQ-7 */
    MA_PASS,      /* no announcement */
    MA_REVEAL,    /* answer to an announcement, or a defender's reveal */
    MA_KEEP,      /* answer to a mask check: stay masked */
    MA_CONCEDE,   /* simple battle: removed without reveal (MASQ-9) */
    MA_FOLD,      /* MASQ-10 */
    MA_BID,
    MA_CALL,
    MA_GIVE       /* the loser's set (MASQ-10/11) */
};

typedef struct MbAct {
    int kind;
    int from, to;    /* squares; to is where the mover lands */
    int victim;      /* square of the piece taken or attacked, -1 none */
    int promo;       /* promotion figure, 0 none */
    int reveal;      /* the mover is revealed by this action (MASQ-5) */
    int dbl;         /* a two-square step: the passed square, else -1 */
    int right;       /* a capture by right (MASQ-6/12) */
    int amount;      /* bid */
    uint64_t set;    /* give: squares */
} MbAct;

typedef struct MbList {
    MbAct *v;
    int n, cap;
} MbList;

/* Strength for battles: P < N = B < R < Q < K (MASQ-9). */
static const int STRENGTH[8] = {0, 1, 2, 2, 3, 4, 5, 0};
static const int PROMOS[4] = {FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT};

static int actor(const MbPos *p);

static void list_push(MbList *l, const MbAct *a)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
        if (!l->v)
            abort();
    }
    l->v[l->n++] = *a;
}

static int fwd(int side) { return side ? -8 : 8; }
static int last_rank(int side) { return side ? 0 : 7; }
static int home_rank(int side, int rank)
{
    return side ? rank >= 6 : rank <= 1;
}
static int sgn(int x) { return (x > 0) - (x < 0); }

static void sq_name(int sq, char *buf)
{
    buf[0] = (char)('a' + FILE_OF(sq));
    buf[1] = (char)('1' + RANK_OF(sq));
    buf[2] = '\0';
}

/* ---- Attacks and threats ------------------------------------------------ */

static int path_clear(const MbPiece *b, int from, int to)
{
    int df = sgn(FILE_OF(to) - FILE_OF(from));
    int dr = sgn(RANK_OF(to) - RANK_OF(from));
    int f = FILE_OF(from) + df, r = RANK_OF(from) + dr;
    while (f != FILE_OF(to) || r != RANK_OF(to)) {
        if (b[r * 8 + f].fig)
            return 0;
        f += df;
        r += dr;
    }
    return 1;
}

/* Does the piece on from attack square to by its current way of moving
 * (MASQ-14: a masked piece like a pawn of its side)? */
static int attacks(const MbPiece *b, int from, int to)
{
    const MbPiece *a = &b[from];
    int df = FILE_OF(to) - FILE_OF(from), dr = RANK_OF(to) - RANK_OF(from);
    int adf = abs(df), adr = abs(dr);
    if (!a->fig || from == to)
        return 0;
    if (a->masked || a->fig == FIG_PAWN)
        return adf == 1 && dr == (a->side ? -1 : 1);
    switch (a->fig) {
    case FIG_KNIGHT:
        return (adf == 1 && adr == 2) || (adf == 2 && adr == 1);
    case FIG_KING:
        return adf <= 1 && adr <= 1;
    case FIG_BISHOP:
        return adf == adr && path_clear(b, from, to);
    case FIG_ROOK:
        return (adf == 0 || adr == 0) && path_clear(b, from, to);
    case FIG_QUEEN:
        return (adf == adr || adf == 0 || adr == 0) && path_clear(b, from, to);
    default:
        return 0;
    }
}

static int attacked_by(const MbPiece *b, int sq, int side)
{
    for (int s = 0; s < 64; s++)
        if (b[s].fig && b[s].side == side && attacks(b, s, sq))
            return 1;
    return 0;
}

/* Is side's revealed King (if it has one on the board) safe?  A masked
 * King is never in check (MASQ-14 default). */
static int king_safe(const MbPiece *b, int side)
{
    for (int s = 0; s < 64; s++)
        if (b[s].fig == FIG_KING && b[s].side == side && !b[s].masked)
            return !attacked_by(b, s, side ^ 1);
    return 1;
}

/* map[id of a piece of side] = ids of the masked enemy pieces it threatens. */
static void threat_map(const MbPiece *b, int side, uint64_t *map)
{
    memset(map, 0, sizeof *map * 64);
    for (int a = 0; a < 64; a++) {
        if (!b[a].fig || b[a].side != side)
            continue;
        for (int t = 0; t < 64; t++)
            if (b[t].fig && b[t].side != side && b[t].masked && attacks(b, a, t))
                map[b[a].id] |= 1ull << b[t].id;
    }
}

/* Ids of the pieces of side that threaten square t. */
static uint64_t threatened_by(const MbPiece *b, int t, int side)
{
    uint64_t ids = 0;
    for (int a = 0; a < 64; a++)
        if (b[a].fig && b[a].side == side && attacks(b, a, t))
            ids |= 1ull << b[a].id;
    return ids;
}

static int square_of_id(const MbPiece *b, int id)
{
    for (int s = 0; s < 64; s++)
        if (b[s].fig && b[s].id == id)
            return s;
    return -1;
}

/* ---- Play: generation ---------------------------------------------------- */

static void push_promos(MbList *l, MbAct *a, int promote)
{
    if (!promote) {
        list_push(l, a);
        return;
    }
    for (int i = 0; i < 4; i++) {
        a->promo = PROMOS[i];
        list_push(l, a);
    }
    a->promo = 0;
}

static MbAct act_move(int from, int to, int reveal)
{
    MbAct a;
    memset(&a, 0, sizeof a);
    a.kind = MA_MOVE;
    a.from = from;
    a.to = to;
    a.victim = -1;
    a.reveal = reveal;
    a.dbl = -1;
    return a;
}

/* The piece on from goes to `to` (not en passant): a quiet move, a capture
 * of a revealed piece, a capture by right or a battle. */
static void add_target(const MbPos *p, int from, int to, int reveal,
                       int promote, MbList *l)
{
    const MbPiece *m = &p->b[from], *t = &p->b[to];
    MbAct a = act_move(from, to, reveal);
    if (t->fig) {
        if (t->side == m->side)
            return;
        a.victim = to;
        if (t->masked) {
            const MbRight *r = &p->right[m->side];
            if (!reveal && r->active && (r->att >> m->id & 1) && r->target == t->id)
                a.right = 1;  /* MASQ-12: no battle, no reveal */
            else
                a.kind = MA_BATTLE;
        }
    }
    push_promos(l, &a, promote && RANK_OF(to) == last_rank(m->side));
}

/* Pawn moves of the piece on from: a masked piece (MASQ-2, promote 0) or a
 * pawn by its figure (promote 1). */
static void gen_pawn(const MbPos *p, int from, int reveal, int promote,
                     MbList *l)
{
    const MbPiece *m = &p->b[from];
    int side = m->side;
    if (RANK_OF(from) == last_rank(side))
        return;  /* MASQ-3: stuck until revealed */
    int one = from + fwd(side);
    if (!p->b[one].fig) {
        add_target(p, from, one, reveal, promote, l);
        int two = one + fwd(side);
        if (!m->moved && home_rank(side, RANK_OF(from)) && two >= 0 && two < 64
            && !p->b[two].fig) {
            MbAct a = act_move(from, two, reveal);
            a.dbl = one;
            list_push(l, &a);
        }
    }
    for (int df = -1; df <= 1; df += 2) {
        int f = FILE_OF(from) + df;
        if (f < 0 || f > 7)
            continue;
        int t = RANK_OF(one) * 8 + f;
        if (p->b[t].fig) {
            if (p->b[t].side != side)
                add_target(p, from, t, reveal, promote, l);
            continue;
        }
        if (t != p->ep)
            continue;
        int v = t - fwd(side);  /* where the stepping piece landed */
        if (!p->b[v].fig || p->b[v].side == side)
            continue;
        MbAct a = act_move(from, t, reveal);
        const MbRight *r = &p->right[side];
        a.victim = v;
        if (p->b[v].masked && !reveal && r->active && (r->att >> m->id & 1)
            && r->target == p->b[v].id)
            a.right = 1;  /* "could capture it on the next move": en passant too */
        else if (p->b[v].masked)
            a.kind = MA_BATTLE;  /* MASQ-2: en passant onto a masked piece */
        list_push(l, &a);
    }
}

static void gen_figure(const MbPos *p, int from, int fig, int reveal,
                       MbList *l)
{
    static const int KN[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                 {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int DIRS[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1},
                                   {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    int f0 = FILE_OF(from), r0 = RANK_OF(from);
    if (fig == FIG_PAWN) {
        gen_pawn(p, from, reveal, 1, l);
        return;
    }
    if (fig == FIG_KNIGHT || fig == FIG_KING) {
        for (int i = 0; i < 8; i++) {
            int f = f0 + (fig == FIG_KNIGHT ? KN[i][0] : DIRS[i][0]);
            int r = r0 + (fig == FIG_KNIGHT ? KN[i][1] : DIRS[i][1]);
            if (f >= 0 && f < 8 && r >= 0 && r < 8)
                add_target(p, from, r * 8 + f, reveal, 0, l);
        }
        return;
    }
    int first = fig == FIG_BISHOP ? 4 : 0, end = fig == FIG_ROOK ? 4 : 8;
    for (int d = first; d < end; d++) {
        for (int f = f0 + DIRS[d][0], r = r0 + DIRS[d][1];
             f >= 0 && f < 8 && r >= 0 && r < 8; f += DIRS[d][0], r += DIRS[d][1]) {
            add_target(p, from, r * 8 + f, reveal, 0, l);
            if (p->b[r * 8 + f].fig)
                break;
        }
    }
}

/* Every move of the piece on from; public: only what the opponent can
 * foresee (no reveal of a masked piece), for the mask mate test. */
static void gen_piece(const MbPos *p, int from, int public_only, MbList *l)
{
    const MbPiece *m = &p->b[from];
    if (!m->masked) {
        gen_figure(p, from, m->fig, 0, l);
        return;
    }
    gen_pawn(p, from, 0, 0, l);
    if (public_only)
        return;
    if (m->fig == FIG_PAWN && RANK_OF(from) == last_rank(m->side)) {
        MbAct a = act_move(from, from, 1);
        a.kind = MA_REVPROMO;
        push_promos(l, &a, 1);
    } else {
        gen_figure(p, from, m->fig, 1, l);  /* MASQ-5 */
        if (p->cfg.reveal_alone) {
            MbAct a = act_move(from, from, 1);
            a.kind = MA_REVALONE;
            list_push(l, &a);
        }
    }
}

static void gen_castle(const MbPos *p, int side, int public_only, MbList *l)
{
    int base = side ? 56 : 0, ks = base + 4;
    const MbPiece *k = &p->b[ks];
    if (k->fig != FIG_KING || k->side != side || k->moved)
        return;
    for (int wing = 0; wing < 2; wing++) {  /* 0 king side, 1 queen side */
        int bit = (wing ? 2 : 1) << (side * 2);
        int rs = base + (wing ? 0 : 7);
        const MbPiece *r = &p->b[rs];
        if (!(p->castle & bit) || r->fig != FIG_ROOK || r->side != side || r->moved)
            continue;
        if (public_only && (k->masked || r->masked))
            continue;  /* the enemy cannot foresee it */
        int lo = wing ? base + 1 : base + 5, hi = wing ? base + 3 : base + 6;
        int ok = 1;
        for (int s = lo; s <= hi; s++)
            ok &= !p->b[s].fig;
        /* MASQ-15: a masked King may castle out of check */
        if (!k->masked && attacked_by(p->b, ks, side ^ 1))
            ok = 0;
        /* the passing and landing squares are judged with the King lifted
         * (contract: a King in check along the rank would pass through it) */
        MbPiece lifted[64];
        memcpy(lifted, p->b, sizeof lifted);
        memset(&lifted[ks], 0, sizeof lifted[ks]);
        int pass1 = wing ? base + 3 : base + 5, pass2 = wing ? base + 2 : base + 6;
        if (ok && !attacked_by(lifted, pass1, side ^ 1) && !attacked_by(lifted, pass2, side ^ 1)) {
            MbAct a = act_move(ks, wing ? base + 2 : base + 6, 1);
            a.kind = MA_CASTLE;
            list_push(l, &a);
        }
    }
}

/* The board after a play action, had it succeeded (a battle won). */
static void move_success(MbPiece *b, const MbAct *a)
{
    MbPiece none;
    memset(&none, 0, sizeof none);
    if (a->kind == MA_REVPROMO || a->kind == MA_REVALONE) {
        b[a->from].masked = 0;
        if (a->promo)
            b[a->from].fig = (uint8_t)a->promo;
        return;
    }
    MbPiece m = b[a->from];
    m.moved = 1;
    if (a->reveal)
        m.masked = 0;
    if (a->promo)
        m.fig = (uint8_t)a->promo;
    if (a->victim >= 0)
        b[a->victim] = none;
    b[a->from] = none;
    b[a->to] = m;
    if (a->kind == MA_CASTLE) {
        int base = a->from & 56, wing = a->to < a->from;
        int rs = base + (wing ? 0 : 7), rt = base + (wing ? 3 : 5);
        MbPiece r = b[rs];
        r.masked = 0;
        r.moved = 1;
        b[rs] = none;
        b[rt] = r;
    }
}

/* MASQ-14: the mover's revealed King is not attacked after the action
 * (a battle counted as won). */
static int legal_after(const MbPiece *b, const MbAct *a, int side)
{
    MbPiece q[64];
    memcpy(q, b, sizeof q);
    move_success(q, a);
    return king_safe(q, side);
}

static void gen_moves(const MbPos *p, int side, int public_only, MbList *l)
{
    MbList raw = {NULL, 0, 0};
    for (int s = 0; s < 64; s++)
        if (p->b[s].fig && p->b[s].side == side)
            gen_piece(p, s, public_only, &raw);
    gen_castle(p, side, public_only, &raw);
    for (int i = 0; i < raw.n; i++) {
        const MbAct *a = &raw.v[i];
        /* contract ("taking a revealed King"): the game ends at once, so
         * the taker's own King may be left attacked */
        int takes_king = a->victim >= 0 && p->b[a->victim].fig == FIG_KING
                         && !p->b[a->victim].masked;
        if (takes_king || legal_after(p->b, a, side))
            list_push(l, a);
    }
    free(raw.v);
}

/* ---- Mask mate (MASQ-7, public judgement) ------------------------------- */

/* Does the announced attacker set att still threaten the piece tid in q,
 * the position after the owner's move a?  A two-square step of the target
 * next to a pawn-like attacker leaves it threatened (en passant). */
static int still_threatened(const MbPiece *q, const MbAct *a, int tid, uint64_t att)
{
    int tq = square_of_id(q, tid);
    for (int s = 0; s < 64; s++) {
        if (!q[s].fig || !(att >> q[s].id & 1))
            continue;
        if (attacks(q, s, tq))
            return 1;
        if (a->dbl >= 0 && a->to == tq && (q[s].masked || q[s].fig == FIG_PAWN)
            && attacks(q, s, a->dbl))
            return 1;
    }
    return 0;
}

/* MASQ-7, judged on public information (the contract's "Mask mate"): can
 * the owner of the masked piece on t take it out of the threat of every
 * piece that threatens it now?  The owner's moves are those the enemy can
 * foresee; every battle among them counts as won. */
static int mask_mate_holds(const MbPos *p, int t)
{
    int owner = p->b[t].side, tid = p->b[t].id;
    uint64_t att = threatened_by(p->b, t, owner ^ 1);
    MbList l = {NULL, 0, 0};
    int escape = 0;
    gen_moves(p, owner, 1, &l);
    for (int i = 0; i < l.n && !escape; i++) {
        MbPiece q[64];
        memcpy(q, p->b, sizeof q);
        move_success(q, &l.v[i]);
        escape = !still_threatened(q, &l.v[i], tid, att);
    }
    free(l.v);
    return !escape;
}

/* ---- Give-up sets (MASQ-10/11) ------------------------------------------ */

typedef struct GiveCtx {
    int n, sq[16], val[16];
    int bid, bp, bpval;
    MbList *out;
} GiveCtx;

static int give_minimal(const GiveCtx *c, uint64_t set, int sum)
{
    for (int i = 0; i < c->n; i++)
        if ((set >> c->sq[i] & 1) && sum - c->val[i] >= c->bid)
            return 0;
    return 1;
}

static void give_dfs(const GiveCtx *c, int i, uint64_t set, int sum)
{
    if (sum >= c->bid) {
        if (give_minimal(c, set, sum)) {
            MbAct a = act_move(c->bp, c->bp, 0);
            a.kind = MA_GIVE;
            a.set = set;
            list_push(c->out, &a);
        }
        return;
    }
    if (i == c->n)
        return;
    give_dfs(c, i + 1, set | 1ull << c->sq[i], sum + c->val[i]);
    give_dfs(c, i + 1, set, sum);
}

static void gen_give(const MbPos *p, MbList *l)
{
    GiveCtx c;
    memset(&c, 0, sizeof c);
    int L = p->loser;
    c.bp = L == p->stm ? p->from : p->victim;
    c.bid = p->bid;
    c.bpval = p->cfg.values[p->b[c.bp].fig];
    c.out = l;
    int total = c.bpval;
    uint64_t all = 1ull << c.bp;
    for (int s = 0; s < 64; s++) {
        const MbPiece *q = &p->b[s];
        if (!q->fig || q->side != L || q->fig == FIG_KING || s == c.bp)
            continue;
        c.sq[c.n] = s;
        c.val[c.n++] = p->cfg.values[q->fig];
        total += p->cfg.values[q->fig];
        all |= 1ull << s;
    }
    if (total < c.bid) {  /* MASQ-11: cannot cover, gives all it has */
        MbAct a = act_move(c.bp, c.bp, 0);
        a.kind = MA_GIVE;
        a.set = all;
        list_push(l, &a);
        return;
    }
    give_dfs(&c, 0, 1ull << c.bp, c.bpval);
}

/* ---- Every phase: generation --------------------------------------------- */

static MbAct act_simple(int kind)
{
    MbAct a = act_move(-1, -1, 0);
    a.kind = kind;
    return a;
}

/* Push the decision of kind that names no square (amount: a bid's). */
static void push_simple(MbList *l, int kind, int amount)
{
    MbAct a = act_simple(kind);
    a.amount = amount;
    list_push(l, &a);
}

static void gen_all(const MbPos *p, MbList *l)
{
    MbAct a;
    switch (p->phase) {
    case MB_PLAY:
        gen_moves(p, p->stm, 0, l);
        break;
    case MB_ANNOUNCE:
        for (int mate = 0; mate < 2; mate++)
            for (int s = 0; s < 64; s++) {
                if (!p->b[s].fig || !(p->threats >> p->b[s].id & 1))
                    continue;
                if (mate && !mask_mate_holds(p, s))
                    continue;
                a = act_simple(mate ? MA_ANN_MATE : MA_ANN_CHECK);
                a.to = s;
                list_push(l, &a);
            }
        push_simple(l, MA_PASS, 0);
        break;
    case MB_ANSWER: {
        const MbPiece *t = &p->b[p->target];
        a = act_simple(MA_REVEAL);
        push_promos(l, &a, t->fig == FIG_PAWN && RANK_OF(p->target) == last_rank(t->side));
        if (!p->mate)
            push_simple(l, MA_KEEP, 0);
        break;
    }
    case MB_BATTLE:
        /* the defender can never be a pawn on its last rank here: no enemy
         * piece that attacks its last rank is weaker than or equal to a pawn */
        push_simple(l, MA_REVEAL, 0);
        push_simple(l, MA_CONCEDE, 0);
        break;
    case MB_BID:
        push_simple(l, MA_FOLD, 0);
        for (int n = p->bid + 1; n <= p->cfg.threshold; n++)
            push_simple(l, MA_BID, n);
        if (p->bid > 0)
            push_simple(l, MA_CALL, 0);
        break;
    case MB_GIVEUP:
        gen_give(p, l);
        break;
    default:
        break;
    }
}

/* ---- Every phase: application ---------------------------------------------- */

static void remove_unrevealed(MbPos *p, int sq)
{
    if (p->b[sq].fig == FIG_KING && p->b[sq].masked)
        p->nokings |= 1 << p->b[sq].side;  /* MASQ-12/16 */
    memset(&p->b[sq], 0, sizeof p->b[sq]);
}

static void end_game(MbPos *p, int winner)
{
    p->phase = MB_OVER;
    p->winner = winner;
}

/* MASQ-16: a side without King whose pieces are all revealed (or gone). */
static int full_reveal_ends(MbPos *p)
{
    int done[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        if (!(p->nokings >> side & 1))
            continue;
        int masked = 0;
        for (int s = 0; s < 64; s++)
            masked |= p->b[s].fig && p->b[s].side == side && p->b[s].masked;
        done[side] = !masked;
    }
    if (done[0] || done[1])
        end_game(p, done[0] && done[1] ? -1 : done[0] ? 1 : 0);
    return done[0] || done[1];
}

static void update_castle(MbPos *p)
{
    static const int KS[4] = {4, 4, 60, 60}, RS[4] = {7, 0, 63, 56};
    for (int i = 0; i < 4; i++) {
        const MbPiece *k = &p->b[KS[i]], *r = &p->b[RS[i]];
        int side = i / 2;
        if (k->fig != FIG_KING || k->side != side || k->moved
            || r->fig != FIG_ROOK || r->side != side || r->moved)
            p->castle &= ~(1 << i);
    }
}

static void end_turn(MbPos *p)
{
    p->stm ^= 1;
    p->phase = MB_PLAY;
}

/* The mover's action is complete: endings, then the announce phase if the
 * move made a new threat on a masked enemy piece (MASQ-6), else the turn
 * passes. */
static void post_move(MbPos *p)
{
    uint64_t post[64], fresh = 0;
    update_castle(p);
    if (full_reveal_ends(p))
        return;
    threat_map(p->b, p->stm, post);
    for (int i = 0; i < 64; i++)
        fresh |= post[i] & ~p->pre[i];
    if (fresh) {
        p->phase = MB_ANNOUNCE;
        p->threats = fresh;
    } else {
        end_turn(p);
    }
}

/* A battle is over: MASQ-13 as the contract settles it (the attacker's
 * revealed King attacked once the battle is settled: the defender could
 * take it), then as any move. */
static void post_battle(MbPos *p)
{
    if (!king_safe(p->b, p->stm)) {
        end_game(p, p->stm ^ 1);
        return;
    }
    post_move(p);
}

/* The attacker takes the defender's place (its square, or the passed square
 * en passant). */
static void attacker_moves_in(MbPos *p)
{
    MbPiece m = p->b[p->from];
    m.moved = 1;
    if (p->promo)
        m.fig = (uint8_t)p->promo;
    memset(&p->b[p->from], 0, sizeof m);
    if (p->b[p->victim].fig)
        memset(&p->b[p->victim], 0, sizeof m);
    p->b[p->to] = m;
}

static void apply_play(MbPos *p, const MbAct *a)
{
    int S = p->stm;
    threat_map(p->b, S, p->pre);
    p->right[S].active = 0;  /* a right lasts one turn (MASQ-6) */
    p->ep = -1;
    if (a->kind == MA_BATTLE) {
        p->from = a->from;
        p->to = a->to;
        p->victim = a->victim;
        p->promo = a->promo;
        if (a->reveal)
            p->b[a->from].masked = 0;
        /* contract: the battle is the attacker's move, so it has moved even
         * if it stays (no two-step, no castling after it) */
        p->b[a->from].moved = 1;
        p->phase = p->b[a->from].masked ? MB_BID : MB_BATTLE;
        p->bid = 0;
        p->last = -1;
        return;
    }
    if (a->right)
        remove_unrevealed(p, a->victim);
    int king_taken = a->victim >= 0 && p->b[a->victim].fig == FIG_KING
                     && !p->b[a->victim].masked;
    move_success(p->b, a);
    if (a->dbl >= 0)
        p->ep = a->dbl;
    if (king_taken) {
        /* A revealed King can stand in the line of a masked piece's true
         * figure (MASQ-14 judges masked pieces as pawns); a reveal-move may
         * take it.  The rules list no such ending; the contract (as MASQ-13
         * says of a King the enemy "could take"): the taker wins at once. */
        end_game(p, S);
        return;
    }
    post_move(p);
}

static void apply_answer(MbPos *p, const MbAct *a)
{
    int S = p->stm;
    if (a->kind == MA_KEEP) {
        p->right[S].active = 1;
        p->right[S].att = p->ann_att;
        p->right[S].target = p->b[p->target].id;
    } else {
        p->b[p->target].masked = 0;
        if (a->promo)
            p->b[p->target].fig = (uint8_t)a->promo;
        /* contract, refining MASQ-13: the revealed piece attacks the
         * announcer's revealed King, which its owner could now take */
        for (int s = 0; s < 64; s++)
            if (p->b[s].fig == FIG_KING && p->b[s].side == S && !p->b[s].masked
                && attacks(p->b, p->target, s)) {
                end_game(p, S ^ 1);
                return;
            }
        if (full_reveal_ends(p))
            return;
    }
    end_turn(p);
}

static void apply_battle(MbPos *p, const MbAct *a)
{
    if (a->kind == MA_CONCEDE) {
        remove_unrevealed(p, p->victim);
        attacker_moves_in(p);
    } else {
        p->b[p->victim].masked = 0;
        int sa = STRENGTH[p->b[p->from].fig], sd = STRENGTH[p->b[p->victim].fig];
        if (sd < sa)
            attacker_moves_in(p);
        else if (sd > sa)
            memset(&p->b[p->from], 0, sizeof p->b[p->from]);
    }
    post_battle(p);
}

static void apply_bid(MbPos *p, const MbAct *a)
{
    int who = actor(p);
    if (a->kind == MA_BID) {
        p->bid = a->amount;
        p->last = who;
        return;
    }
    if (a->kind == MA_FOLD) {
        if (who == p->stm) {
            remove_unrevealed(p, p->from);
        } else {
            remove_unrevealed(p, p->victim);
            attacker_moves_in(p);
        }
        post_battle(p);
        return;
    }
    p->b[p->from].masked = 0;  /* call: both revealed */
    p->b[p->victim].masked = 0;
    int sa = STRENGTH[p->b[p->from].fig], sd = STRENGTH[p->b[p->victim].fig];
    if (sa == sd) {
        post_battle(p);
    } else if (p->bid == p->cfg.threshold) {
        end_game(p, sa > sd ? p->stm : p->stm ^ 1);  /* MASQ-11 all-in */
    } else {
        p->loser = sa < sd ? p->stm : p->stm ^ 1;
        p->phase = MB_GIVEUP;
    }
}

static void apply_give(MbPos *p, const MbAct *a)
{
    int defender_lost = p->loser != p->stm;
    for (int s = 0; s < 64; s++)
        if ((a->set >> s & 1) && !(defender_lost && s == p->victim))
            memset(&p->b[s], 0, sizeof p->b[s]);
    if (defender_lost)
        attacker_moves_in(p);
    post_battle(p);
}

static void apply_one(MbPos *p, const MbAct *a)
{
    switch (p->phase) {
    case MB_PLAY:
        apply_play(p, a);
        break;
    case MB_ANNOUNCE:
        if (a->kind == MA_PASS) {
            end_turn(p);
        } else if (a->kind == MA_ANN_MATE && p->b[a->to].fig == FIG_KING) {
            end_game(p, p->stm);  /* MASQ-7: mask mate on the King */
        } else {
            p->phase = MB_ANSWER;
            p->target = a->to;
            p->mate = a->kind == MA_ANN_MATE;
            p->ann_att = threatened_by(p->b, a->to, p->stm);
        }
        break;
    case MB_ANSWER:
        apply_answer(p, a);
        break;
    case MB_BATTLE:
        apply_battle(p, a);
        break;
    case MB_BID:
        apply_bid(p, a);
        break;
    case MB_GIVEUP:
        apply_give(p, a);
        break;
    default:
        break;
    }
}

/* Apply a, then every forced single answer (the seat has nothing to
 * decide: the contract says the engine applies it without asking). */
static void apply_settled(MbPos *p, const MbAct *a)
{
    apply_one(p, a);
    while ((p->phase == MB_ANSWER && p->mate) || p->phase == MB_GIVEUP) {
        MbList l = {NULL, 0, 0};
        gen_all(p, &l);
        if (l.n != 1) {
            free(l.v);
            break;
        }
        MbAct only = l.v[0];
        free(l.v);
        apply_one(p, &only);
    }
}

/* ---- Texts --------------------------------------------------------------- */

static void act_text(const MbAct *a, char *buf)
{
    char f[3], t[3];
    int n = 0;
    switch (a->kind) {
    case MA_MOVE:
    case MA_BATTLE:
    case MA_CASTLE:
        sq_name(a->from, f);
        sq_name(a->to, t);
        snprintf(buf, MB_TEXT, "%s%s%s", a->reveal && a->kind != MA_CASTLE ? "reveal " : "", f, t);
        if (a->promo) {
            size_t len = strlen(buf);
            buf[len] = (char)tolower(figure_letter(a->promo));
            buf[len + 1] = '\0';
        }
        break;
    case MA_REVPROMO:
        sq_name(a->from, f);
        snprintf(buf, MB_TEXT, "reveal %s=%c", f, figure_letter(a->promo));
        break;
    case MA_REVALONE:
        sq_name(a->from, f);
        snprintf(buf, MB_TEXT, "reveal %s", f);
        break;
    case MA_ANN_CHECK:
    case MA_ANN_MATE:
        sq_name(a->to, t);
        snprintf(buf, MB_TEXT, "announce %s %s", a->kind == MA_ANN_MATE ? "mate" : "check", t);
        break;
    case MA_PASS: snprintf(buf, MB_TEXT, "pass"); break;
    case MA_REVEAL:
        if (a->promo)
            snprintf(buf, MB_TEXT, "reveal =%c", figure_letter(a->promo));
        else
            snprintf(buf, MB_TEXT, "reveal");
        break;
    case MA_KEEP: snprintf(buf, MB_TEXT, "keep"); break;
    case MA_CONCEDE: snprintf(buf, MB_TEXT, "concede"); break;
    case MA_FOLD: snprintf(buf, MB_TEXT, "fold"); break;
    case MA_BID: snprintf(buf, MB_TEXT, "bid %d", a->amount); break;
    case MA_CALL: snprintf(buf, MB_TEXT, "call"); break;
    case MA_GIVE:
        n = snprintf(buf, MB_TEXT, "give");
        for (int s = 0; s < 64 && n + 4 < MB_TEXT; s++)
            if (a->set >> s & 1) {
                sq_name(s, t);
                n += snprintf(buf + n, (size_t)(MB_TEXT - n), " %s", t);
            }
        break;
    default:
        buf[0] = '\0';
    }
}

/* ---- Public entry points ------------------------------------------------- */

void mb_config_default(MbConfig *c, int allin)
{
    static const int DEF[8] = {0, 1, 3, 3, 5, 10, 0, 0};
    memcpy(c->values, DEF, sizeof DEF);
    int army = 8 * DEF[FIG_PAWN] + 2 * (DEF[FIG_KNIGHT] + DEF[FIG_BISHOP] + DEF[FIG_ROOK])
               + DEF[FIG_QUEEN];
    c->threshold = allin > 0 ? allin : army + 1;
    c->reveal_alone = 0;
}

static int actor(const MbPos *p)
{
    switch (p->phase) {
    case MB_PLAY:
    case MB_ANNOUNCE:
        return p->stm;
    case MB_ANSWER:
    case MB_BATTLE:
        return p->stm ^ 1;
    case MB_BID:
        return p->last < 0 ? p->stm : p->last ^ 1;
    case MB_GIVEUP:
        return p->loser;
    default:
        return -1;
    }
}

int mb_to_act(const MbPos *p)
{
    MbList l = {NULL, 0, 0};
    gen_all(p, &l);
    free(l.v);
    return l.n ? actor(p) : -1;  /* no action at all: mate or stalemate */
}

static uint64_t perft_rec(const MbPos *p, int depth)
{
    if (depth == 0)
        return 1;
    MbList l = {NULL, 0, 0};
    gen_all(p, &l);
    uint64_t n = 0;
    if (depth == 1) {
        n = (uint64_t)l.n;
    } else {
        for (int i = 0; i < l.n; i++) {
            MbPos q = *p;
            apply_settled(&q, &l.v[i]);
            n += perft_rec(&q, depth - 1);
        }
    }
    free(l.v);
    return n;
}

uint64_t mb_perft(const MbPos *p, int depth)
{
    return perft_rec(p, depth);
}

uint64_t mb_divide(const MbPos *p, int depth,
                   void (*fn)(void *ud, const char *text, uint64_t n), void *ud)
{
    if (depth <= 0)
        return 1;
    MbList l = {NULL, 0, 0};
    gen_all(p, &l);
    uint64_t total = 0;
    for (int i = 0; i < l.n; i++) {
        MbPos q = *p;
        char text[MB_TEXT];
        apply_settled(&q, &l.v[i]);
        uint64_t n = perft_rec(&q, depth - 1);
        act_text(&l.v[i], text);
        if (fn)
            fn(ud, text, n);
        total += n;
    }
    free(l.v);
    return total;
}

int mb_legal_texts(const MbPos *p, char (*texts)[MB_TEXT], int max)
{
    MbList l = {NULL, 0, 0};
    gen_all(p, &l);
    for (int i = 0; i < l.n && i < max; i++)
        act_text(&l.v[i], texts[i]);
    int n = l.n;
    free(l.v);
    return n;
}

int mb_play(MbPos *p, const char *text)
{
    MbList l = {NULL, 0, 0};
    gen_all(p, &l);
    int found = -1;
    for (int i = 0; i < l.n && found < 0; i++) {
        char t[MB_TEXT];
        act_text(&l.v[i], t);
        if (!strcmp(t, text))
            found = i;
    }
    if (found >= 0)
        apply_settled(p, &l.v[found]);
    free(l.v);
    return found >= 0 ? 0 : -1;
}

int mb_mirror(const MbPos *p, MbPos *out)
{
    if (p->phase != MB_PLAY)
        return -1;
    *out = *p;
    for (int s = 0; s < 64; s++) {
        out->b[s ^ 56] = p->b[s];
        if (p->b[s].fig)
            out->b[s ^ 56].side ^= 1;
    }
    out->stm = p->stm ^ 1;
    out->castle = (p->castle & 3) << 2 | (p->castle >> 2 & 3);
    out->ep = p->ep < 0 ? -1 : p->ep ^ 56;
    out->nokings = (p->nokings & 1) << 1 | (p->nokings >> 1 & 1);
    out->right[0] = p->right[1];
    out->right[1] = p->right[0];
    return 0;
}

/* ---- Reading the position string ----------------------------------------- */

static int perr(char *err, size_t n, const char *msg, const char *at)
{
    if (err && n)
        snprintf(err, n, "%s%s%s", msg, at ? ": " : "", at ? at : "");
    return -1;
}

/* A square at *s ("e4"); advances *s.  -1 if none. */
static int read_sq(const char **s)
{
    const char *c = *s;
    if (c[0] < 'a' || c[0] > 'h' || c[1] < '1' || c[1] > '8')
        return -1;
    *s = c + 2;
    return (c[1] - '1') * 8 + (c[0] - 'a');
}

static int read_board(MbPos *p, const char *s, char *err, size_t n)
{
    int rank = 7, file = 0, id = 0;
    MbPiece tmp[64];
    memset(tmp, 0, sizeof tmp);
    for (; *s; s++) {
        if (*s == '/') {
            if (file != 8 || rank == 0)
                return perr(err, n, "bad rank in the board", s);
            rank--;
            file = 0;
        } else if (*s >= '1' && *s <= '8') {
            file += *s - '0';
        } else {
            int fig = figure_from_letter(*s);
            if (fig < FIG_PAWN || fig > FIG_KING || file > 7)
                return perr(err, n, "bad piece letter", s);
            MbPiece *q = &tmp[rank * 8 + file];
            q->fig = (uint8_t)fig;
            q->side = isupper((unsigned char)*s) ? 0 : 1;
            if (s[1] == '~') {
                q->masked = 1;
                s++;
            }
            if (s[1] == '^') {
                if (!home_rank(q->side, rank))
                    return perr(err, n, "'^' outside the home ranks", s);
                q->moved = 1;
                s++;
            }
            if (!home_rank(q->side, rank))
                q->moved = 1;
            file++;
        }
        if (file > 8)
            return perr(err, n, "rank too long", s);
    }
    if (rank != 0 || file != 8)
        return perr(err, n, "the board needs 8 ranks of 8 squares", NULL);
    for (int s2 = 0; s2 < 64; s2++)
        if (tmp[s2].fig)
            tmp[s2].id = (uint8_t)id++;
    memcpy(p->b, tmp, sizeof tmp);
    return 0;
}

/* "a,b:c" of a right token; the holder is the side of the attackers. */
static int read_right(MbPos *p, const char *s)
{
    MbRight r = {1, 0, -1};
    int holder = -1;
    for (;;) {
        int sq = read_sq(&s);
        if (sq < 0 || !p->b[sq].fig || (holder >= 0 && p->b[sq].side != holder))
            return -1;
        holder = p->b[sq].side;
        r.att |= 1ull << p->b[sq].id;
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s++ != ':')
            return -1;
        sq = read_sq(&s);
        if (sq < 0 || !p->b[sq].fig || p->b[sq].side == holder || !p->b[sq].masked
            || *s || p->right[holder].active)
            return -1;
        r.target = p->b[sq].id;
        p->right[holder] = r;
        return 0;
    }
}

static int read_phase(MbPos *p, const char *s, char *err, size_t n)
{
    const char *at = s;
    if (!strcmp(s, "announce")) {
        p->phase = MB_ANNOUNCE;
        return 0;
    }
    if (!strncmp(s, "answer:", 7)) {
        s += 7;
        if (!strncmp(s, "check:", 6))
            p->mate = 0;
        else if (!strncmp(s, "mate:", 5))
            p->mate = 1;
        else
            return perr(err, n, "bad answer phase", at);
        s += p->mate ? 5 : 6;
        p->target = read_sq(&s);
        if (p->target < 0 || *s || !p->b[p->target].fig || !p->b[p->target].masked)
            return perr(err, n, "bad answer target", at);
        p->stm ^= 1;  /* the side field names the owner of the target */
        p->ann_att = threatened_by(p->b, p->target, p->stm);
        p->phase = MB_ANSWER;
        return 0;
    }
    int battle = !strncmp(s, "battle:", 7), bid = !strncmp(s, "bid:", 4);
    int give = !strncmp(s, "giveup:", 7);
    if (!battle && !bid && !give)
        return perr(err, n, "unknown phase", at);
    s += bid ? 4 : 7;
    p->from = read_sq(&s);
    if (p->from < 0 || *s++ != ':')
        return perr(err, n, "bad battle squares", at);
    p->to = read_sq(&s);
    if (p->to < 0)
        return perr(err, n, "bad battle squares", at);
    if (battle && *s && strchr("qrbn", *s)) {
        p->promo = figure_from_letter(*s);
        s++;
    }
    p->revealing = 0;
    if (battle && !strcmp(s, ":reveal")) {
        p->revealing = 1;  /* the attacker was masked before this attack */
        s += 7;
    }
    p->victim = p->to;
    if (!p->b[p->to].fig)  /* en passant: the defender stands behind TO */
        p->victim = p->to - fwd(p->stm);
    p->bid = 0;
    p->last = -1;
    if (bid || give) {
        char who;
        int used = 0, got;
        if (bid)
            got = sscanf(s, ":%d:%c%n", &p->bid, &who, &used);
        else
            got = sscanf(s, ":%c:%d%n", &who, &p->bid, &used);
        if (got != 2 || s[used] || (who != 'w' && who != 'b' && (give || who != '-')))
            return perr(err, n, "bad bid or give-up phase", at);
        if (bid)
            p->last = who == 'w' ? 0 : who == 'b' ? 1 : -1;
        else
            p->loser = who == 'b';
    } else if (*s) {
        return perr(err, n, "bad battle phase", at);
    }
    const MbPiece *a = &p->b[p->from], *d = &p->b[p->victim];
    if (!a->fig || a->side != p->stm || !d->fig || d->side == p->stm
        || (!give && !d->masked) || (battle && a->masked) || (bid && !a->masked))
        return perr(err, n, "the battle squares do not hold an attacker and a defender", at);
    p->phase = battle ? MB_BATTLE : bid ? MB_BID : MB_GIVEUP;
    return 0;
}

int mb_parse(MbPos *p, const char *text, const MbConfig *cfg, char *err,
             size_t errn)
{
    char buf[1024], *save = NULL;
    if (strlen(text) >= sizeof buf)
        return perr(err, errn, "position too long", NULL);
    memset(p, 0, sizeof *p);
    p->cfg = *cfg;
    p->ep = -1;
    p->last = -1;
    p->winner = -1;
    strcpy(buf, text);
    char *f[6];
    for (int i = 0; i < 6; i++)
        if (!(f[i] = strtok_r(i ? NULL : buf, " ", &save)))
            return perr(err, errn, "a position needs 6 fields", text);
    if (read_board(p, f[0], err, errn))
        return -1;
    if (strcmp(f[1], "w") && strcmp(f[1], "b"))
        return perr(err, errn, "side must be w or b", f[1]);
    p->stm = f[1][0] == 'b';
    if (strcmp(f[2], "-"))
        for (const char *c = f[2]; *c; c++) {
            const char *k = strchr("KQkq", *c);
            if (!k)
                return perr(err, errn, "bad castling field", f[2]);
            p->castle |= 1 << (k - "KQkq");
        }
    if (strcmp(f[3], "-")) {
        const char *c = f[3];
        if ((p->ep = read_sq(&c)) < 0 || *c)
            return perr(err, errn, "bad en passant square", f[3]);
    }
    const char *phase = NULL, *right[2] = {NULL, NULL}, *threats = NULL;
    int nright = 0;
    for (char *t; (t = strtok_r(NULL, " ", &save));) {
        if (!strncmp(t, "right=", 6) && nright < 2)
            right[nright++] = t + 6;
        else if (!strncmp(t, "phase=", 6))
            phase = t + 6;
        else if (!strncmp(t, "threats=", 8))
            threats = t + 8;
        else if (!strcmp(t, "nokings=w") || !strcmp(t, "nokings=b") || !strcmp(t, "nokings=wb"))
            p->nokings = (strchr(t + 8, 'w') ? 1 : 0) | (strchr(t + 8, 'b') ? 2 : 0);
        else
            return perr(err, errn, "unknown token", t);
    }
    int kings[2] = {0, 0};
    for (int s = 0; s < 64; s++)
        if (p->b[s].fig == FIG_KING)
            kings[p->b[s].side]++;
    for (int side = 0; side < 2; side++)
        if (kings[side] != !(p->nokings >> side & 1))
            return perr(err, errn, "each side needs one King (or nokings)", NULL);
    int castle = p->castle;
    update_castle(p);
    if (castle != p->castle)
        return perr(err, errn, "a castling right without its unmoved King and Rook", f[2]);
    for (int i = 0; i < nright; i++)
        if (read_right(p, right[i]))
            return perr(err, errn, "bad right token", right[i]);
    if (phase && read_phase(p, phase, err, errn))
        return -1;
    if (p->phase == MB_BATTLE || p->phase == MB_BID || p->phase == MB_GIVEUP) {
        /* contract: "before" is the position as written with the battling
         * pieces masked as they were before the attack (the attacker of a
         * simple battle only with `:reveal`) */
        MbPiece before[64];
        memcpy(before, p->b, sizeof before);
        if (p->phase != MB_BATTLE || p->revealing)
            before[p->from].masked = 1;
        before[p->victim].masked = 1;
        threat_map(before, p->stm, p->pre);
    } else {
        threat_map(p->b, p->stm, p->pre);
    }
    if (p->phase == MB_ANNOUNCE) {
        const char *c = threats;
        if (!c)
            return perr(err, errn, "phase=announce needs threats=", NULL);
        for (;;) {
            int sq = read_sq(&c);
            if (sq < 0 || !p->b[sq].fig || p->b[sq].side == p->stm || !p->b[sq].masked)
                return perr(err, errn, "bad threats token", threats);
            p->threats |= 1ull << p->b[sq].id;
            if (!*c)
                break;
            if (*c++ != ',')
                return perr(err, errn, "bad threats token", threats);
        }
    } else if (threats) {
        return perr(err, errn, "threats= belongs to phase=announce", NULL);
    }
    return 0;
}
