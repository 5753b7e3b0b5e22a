/*
 * movegen.c -- the fairy variant's moves (issue 24, PART-2 .. PART-9):
 * pseudo-legal moves from each piece's Betza atoms (and the pawn keys,
 * castling, drops), made on a copy of the small state and kept when the
 * rule set's legality holds (the check rule, atomic's blasts, no check to
 * give, forced captures); the ends the rule set adds; perft.
 *
 * Invariant: legal, perft and status all use fv_legal and fv_make, so the
 * fast perft counts exactly what the generic one does.  No allocation:
 * move lists live on the stack (FV_MAX_MOVES).
 */
#include <stdio.h>
#include <string.h>

#include "fv.h"
#include "../../core/variant.h"

static inline int on_board(const FvRules *r, int x, int y)
{
    return (unsigned)x < (unsigned)r->w && (unsigned)y < (unsigned)r->h;
}

static inline void push(uint32_t *out, int *n, uint32_t m)
{
    if (*n < FV_MAX_MOVES)
        out[(*n)++] = m;
}

/* ---- Attacks ------------------------------------------------------------ */

int fv_attacked(const FvRules *r, const FvState *s, int sq, int by)
{
    const int x = FV_X(sq), y = FV_Y(sq);
    const FvAttack *e = r->attack[by];
    for (int i = 0; i < r->nattack[by]; i++, e++) {
        const BetzaAtom *a = &e->a;
        const int dx = a->dx, dy = a->dy;
        int qx = x - dx, qy = y - dy, cell;
        if (a->range == 1 && !(a->flags & (BZ_HOP | BZ_GRASSHOP))) {
            if (!on_board(r, qx, qy))
                continue;
            cell = s->board[FV_SQ(qx, qy)];
            if (!cell || FV_COLOR(cell) != by || !((e->types >> FV_TYPE(cell)) & 1))
                continue;
            int blocked = 0;
            for (int l = 0; l < a->nlegs && l < 2; l++) {
                int lx = qx + a->leg[l][0], ly = qy + a->leg[l][1];
                if (!on_board(r, lx, ly) || s->board[FV_SQ(lx, ly)])
                    blocked = 1;
            }
            if (blocked || ((a->flags & BZ_INITIAL) && !((r->dstep[by] >> qy) & 1)))
                continue;
            return 1;
        }
        const int lim = a->range ? a->range : 99;
        if (a->flags & BZ_GRASSHOP) { /* the hurdle right behind sq */
            if (!on_board(r, qx, qy) || !s->board[FV_SQ(qx, qy)])
                continue;
            for (int k = 0; k < lim; k++) {
                qx -= dx;
                qy -= dy;
                if (!on_board(r, qx, qy))
                    break;
                cell = s->board[FV_SQ(qx, qy)];
                if (!cell)
                    continue;
                if (FV_COLOR(cell) == by && ((e->types >> FV_TYPE(cell)) & 1))
                    return 1;
                break;
            }
            continue;
        }
        int screens = (a->flags & BZ_HOP) ? 1 : 0;
        for (int k = 1; k <= lim; k++, qx -= dx, qy -= dy) {
            if (!on_board(r, qx, qy))
                break;
            cell = s->board[FV_SQ(qx, qy)];
            if (!cell)
                continue;
            if (screens) {
                screens--;
                continue;
            }
            if (FV_COLOR(cell) == by && ((e->types >> FV_TYPE(cell)) & 1) &&
                (!(a->flags & BZ_INITIAL) || ((r->dstep[by] >> qy) & 1)))
                return 1;
            break;
        }
    }
    return 0;
}

/* Is the royal on sq attacked by `by`?  Atomic (PART-7): never while it
 * stands next to a royal of `by`, nor when `by` has no royal. */
static int royal_attacked(const FvRules *r, const FvState *s, int sq, int by)
{
    if (r->explode) {
        if (!s->nroyal[by])
            return 0;
        for (int i = 0; i < s->nroyal[by]; i++) {
            int q = s->royal_sq[by][i], dx = FV_X(q) - FV_X(sq), dy = FV_Y(q) - FV_Y(sq);
            if (dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1)
                return 0;
        }
    }
    return fv_attacked(r, s, sq, by);
}

int fv_in_check(const FvRules *r, const FvState *s, int c)
{
    for (int i = 0; i < s->nroyal[c]; i++)
        if (royal_attacked(r, s, s->royal_sq[c][i], c ^ 1))
            return 1;
    return 0;
}

/* ---- Pseudo-legal moves ----------------------------------------------------- */

/* A pawn's move to `to`: its promotions where they are allowed (PART-3). */
static void add_pawn(const FvRules *r, const FvState *s, int from, int to, int kind, int c,
                     uint32_t *out, int *n)
{
    int ty = FV_Y(to);
    if (!((r->promo_ranks[c] >> ty) & 1)) {
        push(out, n, FV_MOVE(from, to, kind, 0));
        return;
    }
    for (int t = 0; t < FV_TYPES; t++)
        if (((r->promo >> t) & 1) && (!r->promo_limit[t] || s->count[c][t] < r->promo_limit[t]))
            push(out, n, FV_MOVE(from, to, kind, t + 1));
    if (ty != r->last_rank[c])
        push(out, n, FV_MOVE(from, to, kind, 0));
}

static void gen_pawn(const FvRules *r, const FvState *s, int sq, int c, uint32_t *out, int *n)
{
    const int x = FV_X(sq), y = FV_Y(sq), f = c ? -1 : 1, ny = y + f;
    if (ny < 0 || ny >= r->h)
        return;
    int to = FV_SQ(x, ny);
    if (!s->board[to]) {
        add_pawn(r, s, sq, to, FV_NORMAL, c, out, n);
        int y2 = ny + f;
        if (((r->dstep[c] >> y) & 1) && y2 >= 0 && y2 < r->h && !s->board[FV_SQ(x, y2)]) {
            if ((r->promo_ranks[c] >> y2) & 1)
                add_pawn(r, s, sq, FV_SQ(x, y2), FV_NORMAL, c, out, n);
            else
                push(out, n, FV_MOVE(sq, FV_SQ(x, y2), FV_DOUBLE, 0));
        }
    }
    for (int dx = -1; dx <= 1; dx += 2) {
        if (!on_board(r, x + dx, ny))
            continue;
        to = FV_SQ(x + dx, ny);
        int cell = s->board[to];
        if (cell && cell != FV_DUCK && FV_COLOR(cell) != c)
            add_pawn(r, s, sq, to, FV_NORMAL, c, out, n);
        else if (!cell && to == s->ep)
            push(out, n, FV_MOVE(sq, to, FV_EP, 0));
    }
}

static void gen_atoms(const FvRules *r, const FvState *s, const FvPiece *p, int sq, int c,
                      int nocap, uint32_t *out, int *n)
{
    const int x = FV_X(sq), y = FV_Y(sq);
    for (int i = 0; i < p->natoms; i++) {
        const BetzaAtom *a = &p->atoms[c][i];
        const int fl = a->flags, dx = a->dx, dy = a->dy;
        const int cap = (fl & BZ_CAPTURE) && !nocap;
        if ((fl & BZ_INITIAL) && !((r->dstep[c] >> y) & 1))
            continue;
        int nx = x + dx, ny = y + dy, cell;
        if (a->range == 1 && !(fl & (BZ_HOP | BZ_GRASSHOP))) {
            if (!on_board(r, nx, ny))
                continue;
            int blocked = 0;
            for (int l = 0; l < a->nlegs && l < 2; l++) {
                int lx = x + a->leg[l][0], ly = y + a->leg[l][1];
                if (!on_board(r, lx, ly) || s->board[FV_SQ(lx, ly)])
                    blocked = 1;
            }
            if (blocked)
                continue;
            int to = FV_SQ(nx, ny);
            cell = s->board[to];
            if (!cell ? (fl & BZ_MOVE) : (cell != FV_DUCK && FV_COLOR(cell) != c && cap))
                push(out, n, FV_MOVE(sq, to, FV_NORMAL, 0));
            continue;
        }
        const int lim = a->range ? a->range : 99;
        if (fl & BZ_GRASSHOP) { /* over the first piece, onto the square after it */
            for (int k = 0; k < lim && on_board(r, nx, ny); k++, nx += dx, ny += dy) {
                if (!s->board[FV_SQ(nx, ny)])
                    continue;
                if (on_board(r, nx + dx, ny + dy)) {
                    int to = FV_SQ(nx + dx, ny + dy);
                    cell = s->board[to];
                    if (!cell ? (fl & BZ_MOVE) : (cell != FV_DUCK && FV_COLOR(cell) != c && cap))
                        push(out, n, FV_MOVE(sq, to, FV_NORMAL, 0));
                }
                break;
            }
            continue;
        }
        int screens = (fl & BZ_HOP) ? 1 : 0;
        for (int k = 1; k <= lim && on_board(r, nx, ny); k++, nx += dx, ny += dy) {
            int to = FV_SQ(nx, ny);
            cell = s->board[to];
            if (screens) {
                screens -= cell != 0;
                continue;
            }
            if (!cell) {
                if (fl & BZ_MOVE)
                    push(out, n, FV_MOVE(sq, to, FV_NORMAL, 0));
                continue;
            }
            if (cell != FV_DUCK && FV_COLOR(cell) != c && cap)
                push(out, n, FV_MOVE(sq, to, FV_NORMAL, 0));
            break;
        }
    }
}

/* A piece's moves; a square two of its atoms reach is one move, as
 * Fairy-Stockfish counts it (QNAD: the queen's line and the D leap). */
static void gen_piece(const FvRules *r, const FvState *s, int sq, int c, int t, int nocap,
                      uint32_t *out, int *n)
{
    const FvPiece *p = &r->piece[t];
    if (!p->overlap) {
        gen_atoms(r, s, p, sq, c, nocap, out, n);
        return;
    }
    uint32_t moves[BETZA_MAX_ATOMS * 16]; /* an atom reaches at most 15 squares */
    uint64_t seen[4] = {0, 0, 0, 0};
    int k = 0;
    gen_atoms(r, s, p, sq, c, nocap, moves, &k);
    for (int i = 0; i < k; i++) {
        int to = FV_TO(moves[i]);
        if (!((seen[to >> 6] >> (to & 63)) & 1)) {
            seen[to >> 6] |= 1ull << (to & 63);
            push(out, n, moves[i]);
        }
    }
}

/* Castling (PART-4): the king to its file of the wing, the rook to the
 * square it passed over; every square between them empty; with the check
 * rule, the king not in check nor passing over an attacked square. */
static void gen_castle(const FvRules *r, const FvState *s, int c, uint32_t *out, int *n)
{
    const int ksq = s->castle_king[c];
    if (ksq == FV_NO_SQ || s->board[ksq] != FV_CELL(c, FV_T('K')))
        return;
    const int guarded = r->check && fv_is_royal(r, FV_T('K'));
    int checked = -1;
    for (int w = 0; w < 2; w++) {
        int rsq = s->castle_rook[c][w];
        if (rsq == FV_NO_SQ || s->board[rsq] != FV_CELL(c, FV_T('R')))
            continue;
        const int y = FV_Y(ksq), kf = FV_X(ksq), rf = FV_X(rsq);
        const int kt = r->castle_file[w], rt = w ? kt - 1 : kt + 1;
        int lo = kf, hi = kf;
        const int f4[3] = {kt, rf, rt};
        for (int i = 0; i < 3; i++) {
            lo = f4[i] < lo ? f4[i] : lo;
            hi = f4[i] > hi ? f4[i] : hi;
        }
        int blocked = 0;
        for (int x = lo; x <= hi && !blocked; x++) {
            int q = FV_SQ(x, y);
            blocked = q != ksq && q != rsq && s->board[q];
        }
        if (blocked)
            continue;
        if (guarded) {
            if (checked < 0)
                checked = royal_attacked(r, s, ksq, c ^ 1);
            if (checked)
                return;
            /* the squares strictly between the king and its file, the
             * king lifted (Chess960: none when it stays or steps one;
             * where it lands, the legality test sees) */
            FvState t = *s;
            t.board[ksq] = 0;
            const int step = kt > kf ? 1 : -1;
            for (int x = kf + step; kt != kf && x != kt && !blocked; x += step)
                blocked = royal_attacked(r, &t, FV_SQ(x, y), c ^ 1);
            if (blocked)
                continue;
        }
        push(out, n, FV_MOVE(ksq, FV_SQ(kt, y), FV_CASTLE, w));
    }
}

static int gen_pseudo(const FvRules *r, const FvState *s, uint32_t *out)
{
    const int c = s->side;
    const int pawn = FV_T('P');
    int n = 0;
    if (s->duck_due) { /* TURN-4: the duck onto any empty square, its own excluded */
        for (int y = 0; y < r->h; y++)
            for (int x = 0; x < r->w; x++)
                if (!s->board[FV_SQ(x, y)])
                    push(out, &n, FV_MOVE(0, FV_SQ(x, y), FV_DUCK_PLACE, 0));
        return n;
    }
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int sq = FV_SQ(x, y), cell = s->board[sq];
            if (!cell || cell == FV_DUCK || FV_COLOR(cell) != c)
                continue;
            int t = FV_TYPE(cell);
            if (t == pawn)
                gen_pawn(r, s, sq, c, out, &n);
            else /* atomic: a royal piece never captures (PART-7) */
                gen_piece(r, s, sq, c, t, r->explode && fv_is_royal(r, t), out, &n);
        }
    if (r->castling && s->castle_king[c] != FV_NO_SQ)
        gen_castle(r, s, c, out, &n);
    if (r->hands)
        for (int t = 0; t < FV_TYPES; t++) {
            if (!s->hand[c][t])
                continue;
            for (int y = 0; y < r->h; y++) {
                if (t == pawn && !((r->drop_ranks[c] >> y) & 1))
                    continue;
                for (int x = 0; x < r->w; x++)
                    if (!s->board[FV_SQ(x, y)])
                        push(out, &n, FV_MOVE(0, FV_SQ(x, y), FV_DROP, t + 1));
            }
        }
    return n;
}

/* ---- Making a move --------------------------------------------------------- */

static void put(const FvRules *r, FvState *s, int sq, int cell)
{
    int c = FV_COLOR(cell), t = FV_TYPE(cell);
    s->board[sq] = (uint8_t)cell;
    s->count[c][t]++;
    if (fv_is_royal(r, t) && s->nroyal[c] < FV_MAX_ROYALS)
        s->royal_sq[c][s->nroyal[c]++] = (uint8_t)sq;
}

static void take(const FvRules *r, FvState *s, int sq)
{
    int cell = s->board[sq], c = FV_COLOR(cell), t = FV_TYPE(cell);
    s->board[sq] = 0;
    s->count[c][t]--;
    if (fv_is_royal(r, t))
        for (int i = 0; i < s->nroyal[c]; i++)
            if (s->royal_sq[c][i] == sq) {
                s->royal_sq[c][i] = s->royal_sq[c][--s->nroyal[c]];
                break;
            }
}

/* A castling right goes when its king's or its rook's square changes. */
static void touch(FvState *s, int sq)
{
    for (int c = 0; c < 2; c++) {
        if (s->castle_king[c] == sq)
            s->castle_rook[c][0] = s->castle_rook[c][1] = FV_NO_SQ;
        for (int w = 0; w < 2; w++)
            if (s->castle_rook[c][w] == sq)
                s->castle_rook[c][w] = FV_NO_SQ;
    }
}

void fv_make(const FvRules *r, FvState *s, uint32_t m)
{
    const int from = FV_FROM(m), to = FV_TO(m), kind = FV_KIND(m), pt = FV_PT(m);
    const int c = s->side, pawn = FV_T('P');
    const int victim = s->ep_victim;
    s->last = m;
    s->has_last = 1;
    if (kind == FV_DUCK_PLACE) {
        /* TURN-4: no move -- the counters and the en passant target of the
         * move before it stay (the target is the other side's, who moves
         * next; a duck on its square blocks it) */
        if (s->duck != FV_NO_SQ)
            s->board[s->duck] = 0;
        s->board[to] = FV_DUCK;
        s->duck = (uint8_t)to;
        s->duck_due = 0;
        s->side ^= 1;
        return;
    }
    s->ep = s->ep_victim = FV_NO_SQ;
    if (kind == FV_DROP) {
        s->hand[c][pt - 1]--;
        put(r, s, to, FV_CELL(c, pt - 1));
        s->halfmove = pt - 1 == pawn ? 0 : (uint16_t)(s->halfmove + 1);
    } else if (kind == FV_CASTLE) {
        const int rsq = s->castle_rook[c][pt], y = FV_Y(to);
        const int rt = pt ? FV_X(to) - 1 : FV_X(to) + 1;
        const int king = s->board[from], rook = s->board[rsq];
        take(r, s, from);
        take(r, s, rsq);
        put(r, s, to, king);
        put(r, s, FV_SQ(rt, y), rook);
        s->castle_rook[c][0] = s->castle_rook[c][1] = FV_NO_SQ;
        s->halfmove++;
    } else {
        const int cell = s->board[from], t = FV_TYPE(cell);
        const int capsq = kind == FV_EP ? victim : to;
        const int cap = s->board[capsq];
        if (cap) {
            take(r, s, capsq);
            touch(s, capsq);
            if (r->hands) {
                int ht = (cap & FV_PROMOTED) ? pawn : FV_TYPE(cap);
                if (s->hand[c][ht] < 255)
                    s->hand[c][ht]++;
            }
        }
        take(r, s, from);
        put(r, s, to, pt ? (FV_CELL(c, pt - 1) | (r->hands ? FV_PROMOTED : 0)) : cell);
        touch(s, from);
        touch(s, to);
        if (cap && r->explode) { /* PART-7: the blast */
            take(r, s, to);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int nx = FV_X(to) + dx, ny = FV_Y(to) + dy;
                    if ((!dx && !dy) || !on_board(r, nx, ny))
                        continue;
                    int q = FV_SQ(nx, ny), qc = s->board[q];
                    if (qc && qc != FV_DUCK && !((r->immune >> FV_TYPE(qc)) & 1)) {
                        take(r, s, q);
                        touch(s, q);
                    }
                }
        }
        if (kind == FV_DOUBLE && ((r->ep_ranks[c] >> FV_Y(from)) & 1)) {
            /* kept only when an enemy pawn stands beside it (a capture may follow) */
            int x = FV_X(to), y = FV_Y(to), enemy = FV_CELL(c ^ 1, pawn);
            if ((x > 0 && s->board[FV_SQ(x - 1, y)] == enemy) ||
                (x + 1 < r->w && s->board[FV_SQ(x + 1, y)] == enemy)) {
                s->ep = (uint8_t)((from + to) / 2);
                s->ep_victim = (uint8_t)to;
            }
        }
        s->halfmove = (t == pawn || cap) ? 0 : (uint16_t)(s->halfmove + 1);
    }
    if (c)
        s->fullmove++;
    s->side ^= 1;
    if (r->checks && s->nroyal[c ^ 1] && fv_in_check(r, s, c ^ 1) && s->checks[c] < 255)
        s->checks[c]++;
}

int fv_is_capture(const FvRules *r, const FvState *s, uint32_t m)
{
    (void)r;
    int kind = FV_KIND(m);
    if (kind == FV_EP)
        return 1;
    if (kind == FV_DROP || kind == FV_CASTLE)
        return 0;
    return s->board[FV_TO(m)] != 0;
}

/* ---- Legality ---------------------------------------------------------------- */

/* Does the rule set allow child, made from parent by side c? */
static int legal_after(const FvRules *r, const FvState *parent, const FvState *child, int c)
{
    if (r->explode) { /* PART-7 */
        if (child->nroyal[c] < parent->nroyal[c])
            return 0; /* its own blast took a royal piece */
        if (r->check && child->nroyal[c] && child->nroyal[c ^ 1] && fv_in_check(r, child, c))
            return 0;
    } else if (r->check && child->nroyal[c] && fv_in_check(r, child, c)) {
        return 0; /* PART-5 */
    }
    if (!r->give_check && child->nroyal[c ^ 1] && fv_in_check(r, child, c ^ 1))
        return 0; /* PART-8 */
    return 1;
}

/* The check rule alone (no blasts, checks may be given): is move m of the
 * side to move legal?  Tried on t's board in place and put back, so no
 * state is copied per move (t is the caller's scratch copy of the
 * position). */
static int quick_legal(const FvRules *r, FvState *t, uint32_t m)
{
    const int c = t->side, from = FV_FROM(m), to = FV_TO(m), kind = FV_KIND(m);
    const int pt = FV_PT(m);
    const uint8_t was_from = t->board[from], was_to = t->board[to];
    int capsq = -1, ok = 1;
    uint8_t was_cap = 0;
    if (kind == FV_DROP) {
        t->board[to] = FV_CELL(c, pt - 1);
    } else {
        if (kind == FV_EP) {
            capsq = t->ep_victim;
            was_cap = t->board[capsq];
            t->board[capsq] = 0;
        }
        t->board[from] = 0;
        t->board[to] = pt ? FV_CELL(c, pt - 1) : was_from;
    }
    for (int i = 0; i < t->nroyal[c] && ok; i++) {
        int sq = t->royal_sq[c][i];
        if (kind != FV_DROP && sq == from)
            sq = to;
        ok = !fv_attacked(r, t, sq, c ^ 1);
    }
    /* a royal piece dropped or promoted to stands on `to` */
    if (ok && (kind == FV_DROP || pt) && fv_is_royal(r, FV_TYPE(t->board[to])))
        ok = !fv_attacked(r, t, to, c ^ 1);
    if (kind != FV_DROP)
        t->board[from] = was_from;
    t->board[to] = was_to;
    if (capsq >= 0)
        t->board[capsq] = was_cap;
    return ok;
}

/* The duck's squares (TURN-4): every one, unless a rule the placement
 * could break holds (it only blocks, but it may become a hopper's screen:
 * a royal piece of one's own attacked under the check rule, an enemy one
 * checked under give_check = no). */
static int legal_ducks(const FvRules *r, const FvState *s, uint32_t *out, int n)
{
    if (!r->check && r->give_check)
        return n;
    int k = 0;
    FvState child;
    for (int i = 0; i < n; i++) {
        child = *s;
        fv_make(r, &child, out[i]);
        if (legal_after(r, s, &child, s->side))
            out[k++] = out[i];
    }
    return k;
}

int fv_legal(const FvRules *r, const FvState *s, uint32_t *out)
{
    int n = gen_pseudo(r, s, out), k = 0, caps = 0;
    const int c = s->side;
    if (s->duck_due)
        return legal_ducks(r, s, out, n);
    const int quick = !r->explode && r->give_check;
    const int guard = quick && r->check && s->nroyal[c];
    /* not in check and no hopper: a move needs testing only when its piece
     * is royal, or stood where it may shield a royal piece */
    const int shortcut = guard && r->pins_ok && !fv_in_check(r, s, c);
    FvState child, scratch;
    if (guard)
        scratch = *s;
    for (int i = 0; i < n; i++) {
        const int kind = FV_KIND(out[i]);
        if (quick && kind != FV_CASTLE) {
            int test = guard;
            if (shortcut && kind != FV_EP && !FV_PT(out[i])) {
                test = 0;
                if (kind != FV_DROP) {
                    const int from = FV_FROM(out[i]);
                    if (fv_is_royal(r, FV_TYPE(s->board[from])))
                        test = 1;
                    for (int j = 0; j < s->nroyal[c] && !test; j++) {
                        int q = s->royal_sq[c][j];
                        test = r->shield[c][(FV_X(from) - FV_X(q) + 15) * 31 +
                                            FV_Y(from) - FV_Y(q) + 15];
                    }
                }
            }
            if (test && !quick_legal(r, &scratch, out[i]))
                continue;
        } else {
            child = *s;
            fv_make(r, &child, out[i]);
            if (!legal_after(r, s, &child, s->side))
                continue;
        }
        out[k++] = out[i];
        if (r->forced_capture)
            caps += fv_is_capture(r, s, out[i]);
    }
    if (caps && caps < k) { /* PART-8: a side that can capture must */
        int j = 0;
        for (int i = 0; i < k; i++)
            if (fv_is_capture(r, s, out[i]))
                out[j++] = out[i];
        k = j;
    }
    return k;
}

int fv_has_legal(const FvRules *r, const FvState *s)
{
    uint32_t moves[FV_MAX_MOVES];
    int n = gen_pseudo(r, s, moves);
    FvState child;
    for (int i = 0; i < n; i++) {
        child = *s;
        fv_make(r, &child, moves[i]);
        if (legal_after(r, s, &child, s->side))
            return 1;
    }
    return 0;
}

/* ---- Ends of the rule set ----------------------------------------------------- */

static int end_with(unsigned winners, int code, char *reason, size_t n, const char *text,
                    unsigned *w, int *c)
{
    *w = winners;
    *c = code;
    str_copy(reason, n, text);
    return 1;
}

static int pieces_of(const FvState *s, int c, int with_hand)
{
    int k = 0;
    for (int t = 0; t < FV_TYPES; t++)
        k += s->count[c][t] + (with_hand ? s->hand[c][t] : 0);
    return k;
}

/* Does side c have a piece of the goal's type on a goal square? */
static int in_goal(const FvRules *r, const FvState *s, int c)
{
    const int want = FV_CELL(c, r->goal_type);
    for (int i = 0; i < r->ngoal; i++)
        if ((s->board[r->goal_list[i]] & ~FV_PROMOTED) == want)
            return 1;
    return 0;
}

/* goal_reply (racing kings): may black, to move, reach the goal too? */
static int may_reach(const FvRules *r, const FvState *s)
{
    uint32_t moves[FV_MAX_MOVES];
    int n = fv_legal(r, s, moves);
    for (int i = 0; i < n; i++) {
        int to = FV_TO(moves[i]), kind = FV_KIND(moves[i]);
        int t = kind == FV_DROP ? FV_PT(moves[i]) - 1 : FV_TYPE(s->board[FV_FROM(moves[i])]);
        if (kind != FV_CASTLE && t == r->goal_type && r->goal[to])
            return 1;
    }
    return 0;
}

static const char *const SIDE[2] = {"white", "black"};

int fv_variant_end(const FvRules *r, const FvState *s, unsigned *winners, int *code,
                   char *reason, size_t n)
{
    char text[128];
    /* a side that had royal pieces and has none left loses (PART-5, PART-7) */
    int lost0 = s->had_royal[0] && !s->nroyal[0], lost1 = s->had_royal[1] && !s->nroyal[1];
    if (lost0 || lost1) {
        const char *how = r->explode ? "blown up" : "captured";
        if (lost0 && lost1)
            snprintf(text, sizeof text, "both royal pieces %s", how);
        else
            snprintf(text, sizeof text, "%s's royal piece %s", SIDE[lost1], how);
        return end_with(lost0 && lost1 ? 0 : 1u << lost0, END_KING_CAPTURED, reason, n, text,
                        winners, code);
    }
    if (r->checks) /* PART-9 */
        for (int c = 0; c < 2; c++)
            if (s->checks[c] >= r->checks) {
                snprintf(text, sizeof text, "%s gave check %d times", SIDE[c], r->checks);
                return end_with(1u << c, END_CHECKS_GIVEN, reason, n, text, winners, code);
            }
    if (r->goal_type >= 0) { /* PART-9 */
        int g0 = in_goal(r, s, 0), g1 = in_goal(r, s, 1);
        if (g0 && g1)
            return end_with(0, END_GOAL_REACHED, reason, n, "both reached the goal", winners,
                            code);
        /* goal_reply: Black's reply comes after White's duck, if one is due */
        if (g0 && !(r->goal_reply && fv_mover(s) == 1 && (s->duck_due || may_reach(r, s))))
            return end_with(1u, END_GOAL_REACHED, reason, n, "white reached the goal", winners,
                            code);
        if (g1)
            return end_with(2u, END_GOAL_REACHED, reason, n, "black reached the goal", winners,
                            code);
    }
    for (int i = 0; i < 2; i++) { /* PART-9: the side to move first */
        int c = s->side ^ i;
        if (!pieces_of(s, c, 1)) {
            snprintf(text, sizeof text, "%s has no pieces left", SIDE[c]);
            return end_with(r->no_pieces == FV_WIN ? 1u << c : 1u << (c ^ 1), END_NO_PIECES,
                            reason, n, text, winners, code);
        }
    }
    if (r->bare_royal != FV_NO) {
        int b0 = s->nroyal[0] && pieces_of(s, 0, 1) == s->nroyal[0];
        int b1 = s->nroyal[1] && pieces_of(s, 1, 1) == s->nroyal[1];
        if (b0 && b1)
            return end_with(0, END_BARE_ROYAL, reason, n, "both royal pieces bare", winners,
                            code);
        if (b0 || b1) {
            snprintf(text, sizeof text, "%s's royal piece is bare", SIDE[b1]);
            return end_with(r->bare_royal == FV_DRAW ? 0 : 1u << b0, END_BARE_ROYAL, reason, n,
                            text, winners, code);
        }
    }
    return 0;
}

/* ---- Perft and the repetition key ------------------------------------------------ */

static int over(const FvRules *r, const FvState *s)
{
    unsigned w;
    int code;
    char why[8];
    return fv_variant_end(r, s, &w, &code, why, sizeof why);
}

uint64_t fv_perft(const FvRules *r, const FvState *s, int depth)
{
    uint32_t moves[FV_MAX_MOVES];
    if (depth <= 0)
        return 1;
    if (over(r, s))
        return 0;
    int n = fv_legal(r, s, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    FvState child;
    for (int i = 0; i < n; i++) {
        child = *s;
        fv_make(r, &child, moves[i]);
        total += fv_perft(r, &child, depth - 1);
    }
    return total;
}

uint64_t fv_hash(const FvRules *r, const FvState *s)
{
    uint64_t h = mix64(0x9e3779b97f4a7c15ull + s->side);
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int sq = FV_SQ(x, y);
            if (s->board[sq])
                h ^= mix64(((uint64_t)sq << 8) | s->board[sq]);
        }
    for (int c = 0; c < 2; c++) {
        for (int t = 0; t < FV_TYPES; t++)
            if (s->hand[c][t])
                h ^= mix64(0x100000ull + ((uint64_t)c << 16) + ((uint64_t)t << 8) + s->hand[c][t]);
        for (int w = 0; w < 2; w++)
            h ^= mix64(0x200000ull + ((uint64_t)c << 12) + ((uint64_t)w << 10) +
                       s->castle_rook[c][w]);
        h ^= mix64(0x300000ull + ((uint64_t)c << 8) + s->checks[c]);
    }
    if (s->ep != FV_NO_SQ)
        h ^= mix64(0x400000ull + s->ep);
    if (s->duck_due) /* the duck on the board is in the cells above */
        h ^= mix64(0x500000ull);
    return h;
}
