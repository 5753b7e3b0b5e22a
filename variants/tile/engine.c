/*
 * engine.c -- Tile Chess on the unbounded plane: adjacency, trapped pieces
 * (TILE-6), attacks and check (TILE-7, 8), placement (TILE-2) and moves
 * (TILE-3 .. 5, 9, 10).
 *
 * Each position is laid on a Board: a grid window over the pieces' bounding
 * box plus two squares each way (region R), every cell of which holds a
 * piece index or -1.  Nothing outside R can matter: destinations touch a
 * piece, so they lie within one square of the box, and a ray that leaves R
 * meets nothing more.  A connected table of at most 96 pieces is at most 96
 * squares wide, so R always fits the grid.
 *
 * Trapped pieces come from one depth-first pass over the adjacency graph
 * (articulation points, Hopcroft-Tarjan), not from one search per piece.
 * A candidate move is tried on the Board in place (make, look, unmake).
 * Whether it leaves the mover's King in check depends on whether the
 * King's attackers are trapped on the new table: bd_cut answers that for
 * each attacker alone, locally when it can, else by searches that stop
 * as soon as the answer is known (no articulation pass per candidate).
 *
 * Invariant: tile_gen visits exactly the legal actions of docs/TILE.md, and
 * tile_make keeps every invariant of TileState (tile.h).
 */
#include <stdio.h>
#include <string.h>
#include "tile.h"

const char TILE_LETTERS[TILE_MAX_SIDES + 1] = "wbrugy";
const char *const TILE_COLOURS[TILE_MAX_SIDES] = {"white", "black", "red",
                                                  "blue",  "green", "yellow"};

#define TG 128 /* the grid's side: more than 96 + 4 */

static const int DX8[8] = {1, 1, 0, -1, -1, -1, 0, 1};
static const int DY8[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int NX[8] = {1, 2, 2, 1, -1, -2, -2, -1};
static const int NY[8] = {2, 1, -1, -2, -2, -1, 1, 2};

typedef struct Board {
    int32_t ox, oy;         /* the square of cell 0 (= R's low corner) */
    int32_t x0, y0, x1, y1; /* region R, inclusive */
    int n;
    TPiece p[TILE_MAX_PIECES];
    int8_t seat[TILE_MAX_PIECES]; /* the seat commanding each piece */
    uint8_t dead[TILE_MAX_PIECES];
    int8_t cell[TG * TG];
} Board;

/* ---- Small facts of a state ------------------------------------------------- */

const uint8_t TILE_FIGURES[6] = {FIG_KING, FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT,
                                 FIG_PAWN};

int tile_hand_size(const TileState *s, int colour)
{
    int k = 0;
    for (int f = FIG_PAWN; f <= FIG_KING; f++)
        k += s->hand[colour][f];
    return k;
}

void tile_write_hand(const TileState *s, int colour, StrBuf *out)
{
    for (int o = 0; o < 6; o++)
        for (int j = 0; j < s->hand[colour][TILE_FIGURES[o]]; j++)
            sb_putc(out, figure_letter(TILE_FIGURES[o]));
}

void tile_box(const TileState *s, int32_t *x0, int32_t *y0, int32_t *x1, int32_t *y1)
{
    *x0 = *x1 = *y0 = *y1 = 0;
    for (int i = 0; i < s->n; i++) {
        const TPiece *q = &s->p[i];
        if (!i || q->x < *x0) *x0 = q->x;
        if (!i || q->x > *x1) *x1 = q->x;
        if (!i || q->y < *y0) *y0 = q->y;
        if (!i || q->y > *y1) *y1 = q->y;
    }
}

int tile_placing(const TileState *s)
{
    for (int c = 0; c < s->nsides; c++)
        if (tile_hand_size(s, c))
            return 1;
    return 0;
}

int tile_in_game(const TileState *s, int seat)
{
    return seat >= 0 && seat < s->nsides && s->cmd[seat] == seat;
}

int tile_seats_in_game(const TileState *s)
{
    int k = 0;
    for (int c = 0; c < s->nsides; c++)
        k += tile_in_game(s, c);
    return k;
}

int tile_king(const TileState *s, int colour)
{
    for (int i = 0; i < s->n; i++)
        if (s->p[i].fig == FIG_KING && s->p[i].col == colour)
            return i;
    return -1;
}

int tile_find(const TileState *s, int32_t x, int32_t y)
{
    for (int i = 0; i < s->n; i++)
        if (s->p[i].x == x && s->p[i].y == y)
            return i;
    return -1;
}

int tile_structural_end(const TileState *s)
{
    const int k = tile_seats_in_game(s);
    return k <= 1 || (!tile_placing(s) && s->passes >= k);
}

int tile_army(const Game *g, int nsides, int fig)
{
    static const int ARMY[FIG__COUNT] = {0, 0, 2, 2, 2, 1, 1, 0};
    if (fig != FIG_PAWN)
        return fig > FIG_NONE && fig < FIG__COUNT ? ARMY[fig] : 0;
    const int p = game_param(g, TP_PAWNS); /* 0: auto, else 1 + count */
    if (p > 0)
        return p - 1;
    return nsides == 2 ? 8 : nsides == 3 ? 6 : 4;
}

/* Reading order: y from high to low, then x from low to high. */
static int before(const TPiece *a, const TPiece *b)
{
    return a->y != b->y ? a->y > b->y : a->x < b->x;
}

void tile_put(TileState *s, TPiece pc)
{
    int i = s->n;
    while (i > 0 && before(&pc, &s->p[i - 1])) {
        s->p[i] = s->p[i - 1];
        i--;
    }
    s->p[i] = pc;
    s->n++;
}

static void take_out(TileState *s, int i)
{
    memmove(&s->p[i], &s->p[i + 1], (size_t)(s->n - i - 1) * sizeof s->p[0]);
    s->n--;
}

/* ---- The board ----------------------------------------------------------------- */

static inline int bd_at(const Board *b, int32_t x, int32_t y)
{
    if (x < b->x0 || x > b->x1 || y < b->y0 || y > b->y1)
        return -1;
    return b->cell[(y - b->oy) * TG + (x - b->ox)];
}

static inline void bd_set(Board *b, int32_t x, int32_t y, int v)
{
    b->cell[(y - b->oy) * TG + (x - b->ox)] = (int8_t)v;
}

static void bd_build(Board *b, const TileState *s)
{
    int32_t x0, x1, y0, y1;
    tile_box(s, &x0, &y0, &x1, &y1);
    b->x0 = b->ox = x0 - 2;
    b->y0 = b->oy = y0 - 2;
    b->x1 = x1 + 2;
    b->y1 = y1 + 2;
    for (int32_t y = b->y0; y <= b->y1; y++)
        memset(&b->cell[(y - b->oy) * TG], -1, (size_t)(b->x1 - b->x0 + 1));
    b->n = s->n;
    memcpy(b->p, s->p, (size_t)s->n * sizeof s->p[0]);
    memset(b->dead, 0, sizeof b->dead);
    for (int i = 0; i < s->n; i++) {
        b->seat[i] = s->cmd[s->p[i].col];
        bd_set(b, s->p[i].x, s->p[i].y, i);
    }
}

/* Is x,y within one square of the pieces' box (R shrunk by one)? */
static inline int bd_near(const Board *b, int32_t x, int32_t y)
{
    return x > b->x0 && x < b->x1 && y > b->y0 && y < b->y1;
}

/* ---- Articulation points (TILE-6) ------------------------------------------------ */

typedef struct Dfs {
    const Board *b;
    int disc[TILE_MAX_PIECES], low[TILE_MAX_PIECES];
    int timer;
    uint8_t *trap;
} Dfs;

static void dfs(Dfs *d, int u, int parent)
{
    const Board *b = d->b;
    int children = 0;
    d->disc[u] = d->low[u] = ++d->timer;
    for (int k = 0; k < 8; k++) {
        const int v = bd_at(b, b->p[u].x + DX8[k], b->p[u].y + DY8[k]);
        if (v < 0)
            continue;
        if (!d->disc[v]) {
            children++;
            dfs(d, v, u);
            if (d->low[v] < d->low[u])
                d->low[u] = d->low[v];
            if (parent >= 0 && d->low[v] >= d->disc[u])
                d->trap[u] = 1;
        } else if (v != parent && d->disc[v] < d->low[u]) {
            d->low[u] = d->disc[v];
        }
    }
    if (parent < 0 && children > 1)
        d->trap[u] = 1;
}

/* Flags the articulation points in trap; returns the number of groups. */
static int bd_trapped(const Board *b, uint8_t *trap)
{
    Dfs d;
    d.b = b;
    d.timer = 0;
    d.trap = trap;
    memset(d.disc, 0, sizeof d.disc);
    memset(trap, 0, TILE_MAX_PIECES);
    int groups = 0;
    for (int i = 0; i < b->n; i++) {
        if (b->dead[i] || d.disc[i])
            continue;
        groups++;
        dfs(&d, i, -1);
    }
    return groups;
}

/* ---- Attacks (TILE-7, 8) --------------------------------------------------------- */

/* The pieces of seats other than `seat` that attack x,y, trapped or not. */
static int bd_attackers(const Board *b, int32_t x, int32_t y, int seat, int *out)
{
    int n = 0;
    for (int k = 0; k < 8; k++) {
        const int v = bd_at(b, x + NX[k], y + NY[k]);
        if (v >= 0 && b->p[v].fig == FIG_KNIGHT && b->seat[v] != seat)
            out[n++] = v;
    }
    for (int k = 0; k < 8; k++) {
        const int diag = DX8[k] && DY8[k];
        int allowed = -1; /* after a first piece, only its seat's pieces reach */
        for (int32_t d = 1;; d++) {
            const int32_t tx = x + DX8[k] * d, ty = y + DY8[k] * d;
            if (tx < b->x0 || tx > b->x1 || ty < b->y0 || ty > b->y1)
                break;
            const int v = bd_at(b, tx, ty);
            if (v < 0)
                continue;
            const int sv = b->seat[v];
            if (sv == seat || (allowed >= 0 && sv != allowed))
                break;
            allowed = sv;
            const int f = b->p[v].fig;
            if (f == FIG_QUEEN || (f == FIG_ROOK && !diag) || (f == FIG_BISHOP && diag) ||
                (d == 1 && (f == FIG_KING || (f == FIG_PAWN && diag))))
                out[n++] = v;
        }
    }
    return n;
}

/* Is piece a trapped: would taking it off split the rest of the table?
 * For the attackers of one King after a candidate move, where a full
 * articulation pass would cost a graph search per candidate.  Most often
 * the answer is local: the pieces around a touch one another without it
 * (the 8 squares around form a ring; two of them touch when they are next
 * in the ring, or both orthogonal neighbours of a and next but one).
 * Otherwise a search from one neighbour stops as soon as it has met every
 * neighbour of a; only a trapped piece makes it cover its whole side. */
static int bd_cut(const Board *b, int a)
{
    int nb[8], occ[8], k, nn = 0;
    for (k = 0; k < 8; k++) {
        nb[k] = bd_at(b, b->p[a].x + DX8[k], b->p[a].y + DY8[k]);
        occ[k] = nb[k] >= 0;
        nn += occ[k];
    }
    if (nn <= 1)
        return 0;
    /* local groups: walk the ring, joining touching cells */
    int group[8], ngroups = 0;
    for (k = 0; k < 8; k++)
        group[k] = -1;
    for (k = 0; k < 8; k++) {
        if (!occ[k] || group[k] >= 0)
            continue;
        int stack[8], top = 0;
        group[k] = ngroups;
        stack[top++] = k;
        while (top) {
            const int c = stack[--top];
            const int next[4] = {(c + 1) & 7, (c + 7) & 7, (c + 2) & 7, (c + 6) & 7};
            for (int j = 0; j < 4; j++) {
                const int d = next[j];
                if (j >= 2 && (c & 1)) /* next but one: orthogonal cells only */
                    continue;
                if (occ[d] && group[d] < 0) {
                    group[d] = ngroups;
                    stack[top++] = d;
                }
            }
        }
        ngroups++;
    }
    if (ngroups == 1)
        return 0;
    /* one search per local group, taking turns, over the table without a:
     * when two meet they join; when a group's search ends alone, its side
     * is cut off.  A trapped piece mostly holds a small appendage, so the
     * search of that side ends soon. */
    uint8_t seen[TILE_MAX_PIECES]; /* 1 + the group that reached a piece */
    int queue[4][TILE_MAX_PIECES], head[4] = {0}, tail[4] = {0}, root[4], roots = ngroups;
    memset(seen, 0, sizeof seen);
    seen[a] = 0xFF;
    for (int g = 0; g < ngroups; g++)
        root[g] = g;
    for (k = 0; k < 8; k++)
        if (occ[k] && !seen[nb[k]]) {
            seen[nb[k]] = (uint8_t)(1 + group[k]);
            queue[group[k]][tail[group[k]]++] = nb[k];
        }
    for (;;) {
        for (int g = 0; g < ngroups; g++) {
            int r = g; /* is every search of g's set over? then it is cut off */
            while (root[r] != r)
                r = root[r];
            int busy = 0;
            for (int h = 0; h < ngroups; h++) {
                int q = h;
                while (root[q] != q)
                    q = root[q];
                busy |= q == r && head[h] < tail[h];
            }
            if (!busy)
                return 1;
            if (head[g] >= tail[g])
                continue;
            const int u = queue[g][head[g]++];
            for (int d = 0; d < 8; d++) {
                const int v = bd_at(b, b->p[u].x + DX8[d], b->p[u].y + DY8[d]);
                if (v < 0 || seen[v] == 0xFF)
                    continue;
                if (!seen[v]) {
                    seen[v] = (uint8_t)(1 + g);
                    queue[g][tail[g]++] = v;
                    continue;
                }
                int x = seen[v] - 1, y = g; /* two searches meet: join them */
                while (root[x] != x)
                    x = root[x];
                while (root[y] != y)
                    y = root[y];
                if (x != y) {
                    root[x] = y;
                    if (--roots == 1)
                        return 0;
                }
            }
        }
    }
}

/* Is the King at x,y of `seat` in check: attacked by a non-trapped enemy?
 * trap may be NULL: each attacker is then judged by bd_cut. */
static int bd_in_check(const Board *b, int32_t x, int32_t y, int seat, const uint8_t *trap)
{
    int att[64];
    const int n = bd_attackers(b, x, y, seat, att);
    for (int i = 0; i < n; i++)
        if (trap ? !trap[att[i]] : !bd_cut(b, att[i]))
            return 1;
    return 0;
}

unsigned tile_checks(const TileState *s, unsigned *threatened)
{
    Board b;
    uint8_t trap[TILE_MAX_PIECES];
    unsigned check = 0, threat = 0;
    bd_build(&b, s);
    bd_trapped(&b, trap);
    for (int c = 0; c < s->nsides; c++) {
        const int k = tile_in_game(s, c) ? tile_king(s, c) : -1;
        if (k < 0)
            continue;
        int att[64];
        const int n = bd_attackers(&b, s->p[k].x, s->p[k].y, c, att);
        int free_ = 0;
        for (int i = 0; i < n; i++)
            free_ |= !trap[att[i]];
        if (free_)
            check |= 1u << c;
        else if (n)
            threat |= 1u << c;
    }
    if (threatened)
        *threatened = threat;
    return check;
}

void tile_trapped(const TileState *s, uint8_t flags[TILE_MAX_PIECES])
{
    Board b;
    bd_build(&b, s);
    bd_trapped(&b, flags);
}

int tile_one_group(const TileState *s)
{
    Board b;
    uint8_t trap[TILE_MAX_PIECES];
    bd_build(&b, s);
    return bd_trapped(&b, trap) <= 1;
}

/* ---- Moves (TILE-3 .. 5, 8) ------------------------------------------------------ */

typedef struct Gen {
    const Game *g;
    const TileState *s;
    Board *b;
    uint8_t trap[TILE_MAX_PIECES]; /* trapped pieces of the position */
    int seat, king; /* the mover's seat and King (index) */
    int lenient;
    TileVisit fn;
    void *ud;
    int count, stop;
    int explain;            /* tile_explain: judge one destination only */
    int32_t want_x, want_y;
    int reached, why;
} Gen;

static int visit(Gen *G, const TMove *m)
{
    G->count++;
    if (G->fn && G->fn(G->ud, m))
        G->stop = 1;
    return G->stop;
}

/* Does x,y touch a piece other than `self`? */
static int touches(const Board *b, int32_t x, int32_t y, int self)
{
    for (int k = 0; k < 8; k++) {
        const int v = bd_at(b, x + DX8[k], y + DY8[k]);
        if (v >= 0 && v != self)
            return 1;
    }
    return 0;
}

/* Verdict on piece i to x,y (victim: the piece there, or -1), tried on the
 * board in place: 0 legal, 1 the table splits (TILE-3), 2 the mover's King
 * is in check after it (TILE-8). */
static int verdict(Gen *G, int i, int32_t x, int32_t y, int victim)
{
    Board *b = G->b;
    const int trapped = G->trap[i];
    /* a lone piece is one group too: the capture of the last other piece */
    if (!trapped && !touches(b, x, y, i) && !(victim >= 0 && b->n == 2))
        return 1;
    const TPiece from = b->p[i];
    int8_t seats[TILE_MAX_PIECES];
    const int transfer = victim >= 0 && b->p[victim].fig == FIG_KING;
    bd_set(b, from.x, from.y, -1);
    bd_set(b, x, y, i);
    b->p[i].x = x;
    b->p[i].y = y;
    if (victim >= 0)
        b->dead[victim] = 1;
    if (transfer) { /* TILE-10: the captured seat's colours change sides */
        const int v = b->seat[victim];
        memcpy(seats, b->seat, sizeof seats);
        for (int j = 0; j < b->n; j++)
            if (b->seat[j] == v)
                b->seat[j] = (int8_t)G->seat;
    }
    int rc = 0;
    if (trapped) { /* lenient TILE-6: the table must be one group after */
        uint8_t t[TILE_MAX_PIECES];
        rc = bd_trapped(b, t) == 1 ? 0 : 1;
    }
    if (!rc && G->king >= 0 &&
        bd_in_check(b, b->p[G->king].x, b->p[G->king].y, G->seat, NULL))
        rc = 2;
    if (transfer)
        memcpy(b->seat, seats, sizeof seats);
    if (victim >= 0)
        b->dead[victim] = 0;
    b->p[i] = from;
    bd_set(b, x, y, victim);
    bd_set(b, from.x, from.y, i);
    return rc;
}

static void try_move(Gen *G, int i, int32_t x, int32_t y, int victim)
{
    if (x > TILE_LIMIT || x < -TILE_LIMIT || y > TILE_LIMIT || y < -TILE_LIMIT)
        return;
    if (G->explain) { /* tile_explain: the one destination asked about */
        if (x == G->want_x && y == G->want_y) {
            G->reached = 1;
            G->why = verdict(G, i, x, y, victim);
        }
        return;
    }
    if (!verdict(G, i, x, y, victim)) {
        TMove m = {TM_MOVE, 0, (uint8_t)i, x, y};
        visit(G, &m);
    }
}

/* One square of a step or jump: empty or an enemy. */
static void try_square(Gen *G, int i, int32_t x, int32_t y, int may_move, int may_take)
{
    if (!bd_near(G->b, x, y))
        return;
    const int v = bd_at(G->b, x, y);
    if (v < 0 ? may_move : (may_take && G->b->seat[v] != G->seat))
        try_move(G, i, x, y, v);
}

static void gen_piece(Gen *G, int i)
{
    const Board *b = G->b;
    const TPiece *q = &b->p[i];
    switch (q->fig) {
    case FIG_KING:
        for (int k = 0; k < 8 && !G->stop; k++)
            try_square(G, i, q->x + DX8[k], q->y + DY8[k], 1, 1);
        break;
    case FIG_KNIGHT:
        for (int k = 0; k < 8 && !G->stop; k++)
            try_square(G, i, q->x + NX[k], q->y + NY[k], 1, 1);
        break;
    case FIG_PAWN: {
        const int ortho = game_param(G->g, TP_ORTHO);
        for (int k = 0; k < 8 && !G->stop; k++) {
            const int diag = DX8[k] && DY8[k];
            try_square(G, i, q->x + DX8[k], q->y + DY8[k], !(diag && ortho), diag);
        }
        break;
    }
    default: { /* Q, R, B: TILE-4 */
        const int32_t x = q->x, y = q->y;
        for (int k = 0; k < 8 && !G->stop; k++) {
            const int diag = DX8[k] && DY8[k];
            if ((q->fig == FIG_ROOK && diag) || (q->fig == FIG_BISHOP && !diag))
                continue;
            for (int32_t d = 1; !G->stop; d++) {
                const int32_t tx = x + DX8[k] * d, ty = y + DY8[k] * d;
                if (!bd_near(b, tx, ty))
                    break;
                const int v = bd_at(b, tx, ty);
                if (v >= 0 && b->seat[v] == G->seat)
                    continue; /* passes over its own */
                try_move(G, i, tx, ty, v);
                if (v >= 0)
                    break;
            }
        }
        break;
    }
    }
}

static void gen_moves(Gen *G)
{
    bd_trapped(G->b, G->trap);
    for (int i = 0; i < G->b->n && !G->stop; i++)
        if (G->b->seat[i] == G->seat && (!G->trap[i] || G->lenient))
            gen_piece(G, i);
    if (!G->count) {
        TMove m = {TM_PASS, 0, 0, 0, 0}; /* TILE-9 */
        visit(G, &m);
    }
}

/* ---- Placement (TILE-2) ---------------------------------------------------------- */

/* May the King of G->seat stand on x,y: no King beside, not in check? */
static int king_square_ok(Gen *G, int32_t x, int32_t y)
{
    Board *b = G->b;
    for (int k = 0; k < 8; k++) {
        const int v = bd_at(b, x + DX8[k], y + DY8[k]);
        if (v >= 0 && b->p[v].fig == FIG_KING)
            return 0;
    }
    const int n = b->n;
    b->p[n] = (TPiece){.x = x, .y = y, .col = (uint8_t)G->seat, .fig = FIG_KING};
    b->seat[n] = (int8_t)G->seat;
    b->dead[n] = 0;
    b->n = n + 1;
    bd_set(b, x, y, n);
    const int check = bd_in_check(b, x, y, G->seat, NULL);
    bd_set(b, x, y, -1);
    b->n = n;
    return !check;
}

static void gen_placements(Gen *G)
{
    const TileState *s = G->s;
    Board *b = G->b;
    const uint8_t *hand = s->hand[G->seat];
    const int left = tile_hand_size(s, G->seat);
    /* the frontier, in a fixed order (the pieces' order, then 8 directions) */
    int32_t fx[TILE_MAX_PIECES * 8], fy[TILE_MAX_PIECES * 8];
    int nf = 0;
    if (!b->n) {
        fx[0] = fy[0] = 0;
        nf = 1;
    } else {
        for (int i = 0; i < b->n; i++)
            for (int k = 0; k < 8; k++) {
                const int32_t x = b->p[i].x + DX8[k], y = b->p[i].y + DY8[k];
                if (bd_at(b, x, y) != -1 || x > TILE_LIMIT || x < -TILE_LIMIT ||
                    y > TILE_LIMIT || y < -TILE_LIMIT)
                    continue;
                bd_set(b, x, y, -2); /* listed */
                fx[nf] = x;
                fy[nf++] = y;
            }
        for (int j = 0; j < nf; j++)
            bd_set(b, fx[j], fy[j], -1);
    }
    for (int o = 0; o < 6 && !G->stop; o++) {
        const int f = TILE_FIGURES[o];
        if (!hand[f] || (f == FIG_KING && left > 1))
            continue;
        uint8_t ok[TILE_MAX_PIECES * 8];
        int nok = 0;
        for (int j = 0; j < nf; j++) {
            ok[j] = f != FIG_KING || king_square_ok(G, fx[j], fy[j]);
            nok += ok[j];
        }
        for (int j = 0; j < nf && !G->stop; j++) {
            if (!ok[j] && nok) /* no square at all: the restriction lapses */
                continue;
            TMove m = {TM_PLACE, (uint8_t)f, 0, fx[j], fy[j]};
            visit(G, &m);
        }
    }
}

int tile_gen(const Game *g, const TileState *s, TileVisit fn, void *ud)
{
    Board b;
    Gen G;
    memset(&G, 0, sizeof G);
    if (tile_structural_end(s))
        return 0;
    bd_build(&b, s);
    G.g = g;
    G.s = s;
    G.b = &b;
    G.seat = s->turn;
    G.fn = fn;
    G.ud = ud;
    G.lenient = game_param(g, TP_LENIENT);
    if (tile_placing(s)) {
        gen_placements(&G);
    } else {
        G.king = tile_king(s, s->turn);
        gen_moves(&G);
    }
    return G.count;
}

typedef struct Match {
    const TMove *m;
    int found;
} Match;

static int match_visit(void *ud, const TMove *m)
{
    Match *k = ud;
    if (m->kind == k->m->kind && m->x == k->m->x && m->y == k->m->y &&
        (m->kind != TM_PLACE || m->fig == k->m->fig) &&
        (m->kind != TM_MOVE || m->from == k->m->from))
        k->found = 1;
    return k->found;
}

int tile_legal(const Game *g, const TileState *s, const TMove *m)
{
    Match k = {m, 0};
    tile_gen(g, s, match_visit, &k);
    return k.found;
}

int tile_is_capture(const TileState *s, const TMove *m)
{
    return m->kind == TM_MOVE && tile_find(s, m->x, m->y) >= 0;
}

/* ---- Make ---------------------------------------------------------------------- */

static int next_in_game(const TileState *s, int seat)
{
    for (int k = 1; k <= s->nsides; k++) {
        const int c = (seat + k) % s->nsides;
        if (tile_in_game(s, c))
            return c;
    }
    return seat;
}

static int next_placer(const TileState *s, int seat)
{
    for (int k = 1; k <= s->nsides; k++) {
        const int c = (seat + k) % s->nsides;
        if (tile_hand_size(s, c))
            return c;
    }
    return -1;
}

/* The pieces giving check to the King of seat c (indices), -1 ended. */
static void checkers(const TileState *s, int c, int *out)
{
    Board b;
    uint8_t trap[TILE_MAX_PIECES];
    int att[64], n = 0, k = tile_king(s, c);
    out[0] = -1;
    if (k < 0)
        return;
    bd_build(&b, s);
    bd_trapped(&b, trap);
    const int na = bd_attackers(&b, s->p[k].x, s->p[k].y, c, att);
    for (int i = 0; i < na; i++)
        if (!trap[att[i]])
            out[n++] = att[i];
    out[n] = -1;
}

static void sq_text(int32_t x, int32_t y, char *buf, size_t n)
{
    snprintf(buf, n, "%ld,%ld", (long)x, (long)y);
}

/* TILE-7, 8: every King in check, new ones flagged; a check that comes
 * from an attacker freed from its trap is announced as such. */
static void report_checks(const TileState *old, const TileState *s, const TMove *m,
                          Events *ev)
{
    unsigned before_threat;
    const unsigned before = tile_checks(old, &before_threat);
    const unsigned now = tile_checks(s, NULL);
    if (!now)
        return;
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "in check:");
    int first = 1;
    for (int c = 0; c < s->nsides; c++) {
        if (!(now & (1u << c)))
            continue;
        sb_printf(&b, "%s %s's King%s", first ? "" : ",", TILE_COLOURS[c],
                  (before & (1u << c)) ? "" : " (new)");
        first = 0;
    }
    ev_emit(ev, SEATS_ALL, "%s", sb_str(&b));
    sb_free(&b);
    /* freed attackers: a piece that stood still, attacked this King
     * before while trapped, and now gives check */
    for (int c = 0; c < s->nsides; c++) {
        if (!(now & (1u << c)) || (before & (1u << c)) || !(before_threat & (1u << c)))
            continue;
        int chk[TILE_MAX_PIECES + 1];
        checkers(s, c, chk);
        uint8_t trap_old[TILE_MAX_PIECES];
        tile_trapped(old, trap_old);
        for (int i = 0; chk[i] >= 0; i++) {
            const TPiece *q = &s->p[chk[i]];
            const int j = tile_find(old, q->x, q->y);
            if (j < 0 || old->p[j].fig != q->fig || old->p[j].col != q->col ||
                !trap_old[j] || (m->kind == TM_MOVE && m->x == q->x && m->y == q->y))
                continue;
            char sq[32];
            sq_text(q->x, q->y, sq, sizeof sq);
            ev_emit(ev, SEATS_ALL,
                    "check to %s's King: %s's %s on %s is free again (TILE-7)",
                    TILE_COLOURS[c], TILE_COLOURS[q->col], figure_name(q->fig), sq);
        }
    }
}

void tile_make(const Game *g, TileState *s, const TMove *m, Events *ev)
{
    (void)g;
    TileState old;
    if (ev)
        old = *s;
    const int seat = s->turn;
    char sq[32];
    if (m->kind == TM_PLACE) {
        tile_put(s, (TPiece){.x = m->x, .y = m->y, .col = (uint8_t)seat, .fig = m->fig});
        s->hand[seat][m->fig]--;
        if (m->fig == FIG_KING && ev && (tile_checks(s, NULL) & (1u << seat))) {
            sq_text(m->x, m->y, sq, sizeof sq);
            ev_emit(ev, SEATS_ALL,
                    "%s's King is placed in check on %s: no other square was "
                    "allowed (TILE-2)", TILE_COLOURS[seat], sq);
        }
        const int next = next_placer(s, seat);
        if (next >= 0) {
            s->turn = (uint8_t)next;
        } else {
            s->turn = s->first;
            ev_emit(ev, SEATS_ALL, "every piece is placed: %s moves first (TILE-2)",
                    TILE_COLOURS[s->first]);
        }
    } else if (m->kind == TM_MOVE) {
        TPiece pc = s->p[m->from];
        const int victim = tile_find(s, m->x, m->y);
        int vcol = -1, vfig = 0;
        if (victim >= 0) {
            vcol = s->p[victim].col;
            vfig = s->p[victim].fig;
        }
        take_out(s, m->from);
        if (victim >= 0)
            take_out(s, victim > m->from ? victim - 1 : victim);
        pc.x = m->x;
        pc.y = m->y;
        tile_put(s, pc);
        s->passes = 0;
        if (vfig == FIG_KING) { /* TILE-10 */
            const int loser = s->cmd[vcol];
            StrBuf b = STRBUF_INIT;
            for (int c = 0; c < s->nsides; c++)
                if (s->cmd[c] == loser) {
                    s->cmd[c] = (int8_t)seat;
                    sb_printf(&b, "%s%s", b.len ? ", " : "", TILE_COLOURS[c]);
                }
            ev_emit(ev, SEATS_ALL, "%s takes %s's King and now commands %s (TILE-10)",
                    TILE_COLOURS[seat], TILE_COLOURS[loser], sb_str(&b));
            sb_free(&b);
        }
        s->turn = (uint8_t)next_in_game(s, seat);
    } else {
        s->passes++;
        s->turn = (uint8_t)next_in_game(s, seat);
    }
    if (ev)
        report_checks(&old, s, m, ev);
}

int tile_explain(const Game *g, const TileState *s, const TMove *m, char *why, size_t n)
{
    Board b;
    Gen G;
    char sq[32];
    memset(&G, 0, sizeof G);
    if (tile_structural_end(s))
        return snprintf(why, n, "the game is over"), -1;
    const int placing = tile_placing(s), seat = s->turn;
    if (m->kind == TM_PASS)
        return snprintf(why, n, placing ? "nobody passes during placement (TILE-2)"
                                        : "%s has a legal move: a side passes only when "
                                          "it has none (TILE-9)", TILE_COLOURS[seat]), -1;
    if (placing != (m->kind == TM_PLACE))
        return snprintf(why, n, placing ? "every piece must be placed before anything "
                                          "moves (TILE-2)"
                                        : "every piece is placed already: move one (TILE-2)"),
               -1;
    sq_text(m->x, m->y, sq, sizeof sq);
    bd_build(&b, s);
    G.g = g;
    G.s = s;
    G.b = &b;
    G.seat = seat;
    G.lenient = game_param(g, TP_LENIENT);
    if (m->kind == TM_PLACE) {
        const uint8_t *hand = s->hand[seat];
        const int left = tile_hand_size(s, seat);
        if (!hand[m->fig])
            return snprintf(why, n, "%s has no %s left to place", TILE_COLOURS[seat],
                            figure_name(m->fig)), -1;
        if (m->fig == FIG_KING && left > 1)
            return snprintf(why, n, "the King is placed last (TILE-2)"), -1;
        if (bd_at(&b, m->x, m->y) >= 0)
            return snprintf(why, n, "%s is taken", sq), -1;
        if (!s->n && (m->x || m->y))
            return snprintf(why, n, "the first piece goes on 0,0 (TILE-2)"), -1;
        if (s->n && !touches(&b, m->x, m->y, -1))
            return snprintf(why, n, "%s touches no piece: place next to one, by a side "
                                    "or a corner (TILE-2)", sq), -1;
        if (m->fig == FIG_KING)
            return snprintf(why, n, "a King may not be placed in check nor next to "
                                    "another King while another square allows it (TILE-2)"),
                   -1;
        return snprintf(why, n, "%s is not a legal placement", sq), -1;
    }
    const int i = m->from;
    if (i >= s->n)
        return snprintf(why, n, "no piece there"), -1;
    bd_trapped(&b, G.trap);
    G.king = tile_king(s, seat);
    if (b.seat[i] != seat)
        return snprintf(why, n, "the %s there is %s's and %s does not command it",
                        figure_name(s->p[i].fig), TILE_COLOURS[s->p[i].col],
                        TILE_COLOURS[seat]), -1;
    if (G.trap[i] && !G.lenient)
        return snprintf(why, n, "the %s is trapped: it is the only link between two "
                                "groups, so it cannot move (TILE-6)",
                        figure_name(s->p[i].fig)), -1;
    G.explain = 1;
    G.want_x = m->x;
    G.want_y = m->y;
    gen_piece(&G, i);
    if (!G.reached)
        return snprintf(why, n, "the %s cannot go to %s (TILE-4, TILE-5)",
                        figure_name(s->p[i].fig), sq), -1;
    if (G.why == 1)
        return snprintf(why, n, "the table would not be one group (TILE-3)"), -1;
    if (G.why == 2)
        return snprintf(why, n, "%s's King would be in check (TILE-8)",
                        TILE_COLOURS[seat]), -1;
    return 0;
}
