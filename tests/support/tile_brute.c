/*
 * tile_brute.c -- the brute-force Tile Chess reference declared in
 * tile_brute.h: a position is a plain list of pieces; every candidate action
 * is applied to a copy and kept only if the copy passes the contract's
 * tests (one group by flood fill, the mover's King not in check with
 * trapped attackers found by removing each one and flood-filling the rest).
 *
 * Invariant: written from docs/RULES.md (TILE) and docs/TILE.md
 * only, never from the engine; no globals; every function reads its
 * position and writes only the copy it was given.
 */
#include "tile_brute.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char COLOUR_LETTERS[] = "wbrugy";
static const char *const COLOUR_NAMES[TB_SIDES] = {"white", "black", "red",
                                                   "blue", "green", "yellow"};
static const char FIG_LETTERS[] = "KQRBNP";

enum { ACT_PLACE, ACT_MOVE, ACT_PASS };

typedef struct TbAct {
    int kind;
    int fig;               /* ACT_PLACE */
    int fx, fy, tx, ty;    /* ACT_MOVE: from, to; ACT_PLACE: to */
} TbAct;

/* Called once per legal action with the position it leaves. */
typedef void (*TbVisit)(void *ud, const TbAct *a, const TbPos *child);

/* ---- Small helpers ---------------------------------------------------------- */

static int tb_abs(int v) { return v < 0 ? -v : v; }
static int tb_sign(int v) { return (v > 0) - (v < 0); }

static int army_count(const TbPos *p, int fig)
{
    static const int base[TB_NFIG] = {1, 1, 2, 2, 2, 0};
    return fig == TB_P ? p->pawns : base[fig];
}

static int hand_total(const TbPos *p, int c)
{
    int t = 0;
    for (int f = 0; f < TB_NFIG; f++)
        t += p->hand[c][f];
    return t;
}

static void set_err(char *err, size_t errn, const char *fmt, ...)
{
    if (!err || errn == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
}

int tb_placing(const TbPos *p)
{
    for (int c = 0; c < p->nsides; c++)
        if (hand_total(p, c) > 0)
            return 1;
    return 0;
}

int tb_in_game(const TbPos *p, int s)
{
    return s >= 0 && s < p->nsides && p->cmd[s] == s;
}

static int seats_in_game(const TbPos *p)
{
    int k = 0;
    for (int s = 0; s < p->nsides; s++)
        k += tb_in_game(p, s);
    return k;
}

int tb_over(const TbPos *p)
{
    if (tb_placing(p))
        return 0;
    int k = seats_in_game(p);
    return k <= 1 || p->passes >= k;
}

int tb_at(const TbPos *p, int x, int y)
{
    for (int i = 0; i < p->n; i++)
        if (p->pc[i].x == x && p->pc[i].y == y)
            return i;
    return -1;
}

/* ---- TILE-3, TILE-6: groups by flood fill ----------------------------------- */

static int touching(const TbPiece *a, const TbPiece *b)
{
    int dx = tb_abs(a->x - b->x), dy = tb_abs(a->y - b->y);
    return dx <= 1 && dy <= 1 && (dx | dy) != 0;
}

/* 1 when the pieces other than skip (-1: none) form one group. */
static int one_group_without(const TbPos *p, int skip)
{
    int seen[TB_MAXP] = {0}, stack[TB_MAXP], top = 0, count = 0, start = -1;
    for (int i = 0; i < p->n; i++)
        if (i != skip) {
            count++;
            if (start < 0)
                start = i;
        }
    if (count <= 1)
        return 1;
    seen[start] = 1;
    stack[top++] = start;
    int reached = 1;
    while (top > 0) {
        int a = stack[--top];
        for (int b = 0; b < p->n; b++)
            if (b != skip && !seen[b] && touching(&p->pc[a], &p->pc[b])) {
                seen[b] = 1;
                stack[top++] = b;
                reached++;
            }
    }
    return reached == count;
}

int tb_one_group(const TbPos *p) { return one_group_without(p, -1); }

int tb_trapped(const TbPos *p, int i) { return !one_group_without(p, i); }

/* ---- TILE-7, TILE-8: attacks and check -------------------------------------- */

/* 1 when colour c is friendly to seat s. */
static int friendly(const TbPos *p, int s, int c) { return p->cmd[c] == s; }

/* 1 when the piece of index i attacks tx,ty (as it would capture there). */
static int attacks(const TbPos *p, int i, int tx, int ty)
{
    const TbPiece *a = &p->pc[i];
    int dx = tx - a->x, dy = ty - a->y, adx = tb_abs(dx), ady = tb_abs(dy);
    if (adx == 0 && ady == 0)
        return 0;
    switch (a->fig) {
    case TB_K: return adx <= 1 && ady <= 1;
    case TB_N: return (adx == 1 && ady == 2) || (adx == 2 && ady == 1);
    case TB_P: return adx == 1 && ady == 1;
    default: break;
    }
    int orth = dx == 0 || dy == 0, diag = adx == ady;
    if ((a->fig == TB_R && !orth) || (a->fig == TB_B && !diag) ||
        (a->fig == TB_Q && !orth && !diag))
        return 0;
    int owner = p->cmd[a->col], sx = tb_sign(dx), sy = tb_sign(dy);
    /* walk square by square; pass over friends, stop at the first other */
    for (int x = a->x + sx, y = a->y + sy; x != tx || y != ty; x += sx, y += sy) {
        int j = tb_at(p, x, y);
        if (j >= 0 && !friendly(p, owner, p->pc[j].col))
            return 0;
    }
    return 1;
}

int tb_in_check(const TbPos *p, int s)
{
    if (!tb_in_game(p, s))
        return 0;
    int k = -1;
    for (int i = 0; i < p->n; i++)
        if (p->pc[i].col == s && p->pc[i].fig == TB_K)
            k = i;
    if (k < 0)
        return 0;
    for (int j = 0; j < p->n; j++)
        if (!friendly(p, s, p->pc[j].col) && attacks(p, j, p->pc[k].x, p->pc[k].y) &&
            !tb_trapped(p, j))
            return 1;
    return 0;
}

/* ---- Turn order ------------------------------------------------------------- */

/* The next seat after s still in the game (s itself if it is alone). */
static int next_seat(const TbPos *p, int s)
{
    for (int k = 1; k <= p->nsides; k++) {
        int c = (s + k) % p->nsides;
        if (tb_in_game(p, c))
            return c;
    }
    return s;
}

/* After a placement by s: the next seat with something in hand, or the
 * move phase with `first` to act. */
static void after_placement(TbPos *p, int s)
{
    for (int k = 1; k <= p->nsides; k++) {
        int c = (s + k) % p->nsides;
        if (hand_total(p, c) > 0) {
            p->turn = c;
            return;
        }
    }
    p->turn = p->first;
    p->passes = 0;
}

/* ---- TILE-2: placements ------------------------------------------------------ */

static int in_range(int x, int y) { return tb_abs(x) <= TB_LIMIT && tb_abs(y) <= TB_LIMIT; }

/* The squares a piece may be placed on: 0,0 on an empty table, else every
 * empty neighbour of a piece.  Returns how many (at most 8 * TB_MAXP). */
static int frontier(const TbPos *p, int (*sq)[2])
{
    if (p->n == 0) {
        sq[0][0] = sq[0][1] = 0;
        return 1;
    }
    int k = 0;
    for (int i = 0; i < p->n; i++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int x = p->pc[i].x + dx, y = p->pc[i].y + dy, dup = 0;
                if (!in_range(x, y) || tb_at(p, x, y) >= 0)
                    continue;
                for (int m = 0; m < k && !dup; m++)
                    dup = sq[m][0] == x && sq[m][1] == y;
                if (!dup) {
                    sq[k][0] = x;
                    sq[k][1] = y;
                    k++;
                }
            }
    return k;
}

static TbPos placed(const TbPos *p, int fig, int x, int y)
{
    TbPos c = *p;
    int s = p->turn;
    c.hand[s][fig]--;
    c.pc[c.n++] = (TbPiece){x, y, s, fig};
    after_placement(&c, s);
    return c;
}

/* The King restriction: not in check once placed, no King next to it. */
static int king_square_ok(const TbPos *p, int x, int y)
{
    for (int i = 0; i < p->n; i++)
        if (p->pc[i].fig == TB_K && tb_abs(p->pc[i].x - x) <= 1 &&
            tb_abs(p->pc[i].y - y) <= 1)
            return 0;
    TbPos c = *p;
    c.pc[c.n++] = (TbPiece){x, y, p->turn, TB_K};
    return !tb_in_check(&c, p->turn);
}

static void visit_placements(const TbPos *p, TbVisit fn, void *ud)
{
    static const int most = 8 * TB_MAXP;
    int (*sq)[2] = malloc(sizeof(int[2]) * (size_t)most);
    int ok[8 * TB_MAXP];
    if (!sq)
        abort();
    int k = frontier(p, sq), s = p->turn, others = hand_total(p, s) - p->hand[s][TB_K];
    for (int f = 0; f < TB_NFIG; f++) {
        if (p->hand[s][f] == 0 || (f == TB_K && others > 0))
            continue;
        int any = 0;
        for (int m = 0; m < k; m++) {
            ok[m] = f != TB_K || king_square_ok(p, sq[m][0], sq[m][1]);
            any |= ok[m];
        }
        for (int m = 0; m < k; m++) {
            if (!ok[m] && any)   /* no square fits: the restriction lapses */
                continue;
            TbAct a = {ACT_PLACE, f, 0, 0, sq[m][0], sq[m][1]};
            TbPos c = placed(p, f, sq[m][0], sq[m][1]);
            fn(ud, &a, &c);
        }
    }
    free(sq);
}

/* ---- TILE-3 .. 5, 8, 10: moves ----------------------------------------------- */

typedef struct Box { int x0, y0, x1, y1; } Box;

static Box table_box(const TbPos *p)
{
    Box b = {p->pc[0].x, p->pc[0].y, p->pc[0].x, p->pc[0].y};
    for (int i = 1; i < p->n; i++) {
        if (p->pc[i].x < b.x0) b.x0 = p->pc[i].x;
        if (p->pc[i].x > b.x1) b.x1 = p->pc[i].x;
        if (p->pc[i].y < b.y0) b.y0 = p->pc[i].y;
        if (p->pc[i].y > b.y1) b.y1 = p->pc[i].y;
    }
    return b;
}

/* Try the piece of index i to tx,ty: call fn if the move is legal.
 * Returns 1 if it was. */
static int try_move(const TbPos *p, int i, int tx, int ty, TbVisit fn, void *ud)
{
    int s = p->turn;
    if (!in_range(tx, ty))
        return 0;
    TbPos c = *p;
    TbPiece mover = c.pc[i];
    int j = tb_at(&c, tx, ty);
    if (j >= 0) {
        TbPiece victim = c.pc[j];
        if (friendly(p, s, victim.col))
            return 0;
        c.pc[j] = c.pc[--c.n];      /* remove the captured piece */
        if (victim.fig == TB_K)     /* TILE-10: command passes to the captor */
            for (int k = 0; k < c.nsides; k++)
                if (c.cmd[k] == victim.col)
                    c.cmd[k] = s;
    }
    int m = tb_at(&c, mover.x, mover.y);
    c.pc[m].x = tx;
    c.pc[m].y = ty;
    if (!tb_one_group(&c) || tb_in_check(&c, s))
        return 0;
    c.passes = 0;
    c.turn = next_seat(&c, s);
    TbAct a = {ACT_MOVE, mover.fig, mover.x, mover.y, tx, ty};
    fn(ud, &a, &c);
    return 1;
}

static int visit_piece_moves(const TbPos *p, int i, Box b, TbVisit fn, void *ud)
{
    static const int ring[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1},
                                   {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int jumps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2},
                                    {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    const TbPiece *a = &p->pc[i];
    int s = p->turn, found = 0;
    for (int d = 0; d < 8; d++) {
        int orth = d % 2 == 0, dx = ring[d][0], dy = ring[d][1];
        switch (a->fig) {
        case TB_K:
            found += try_move(p, i, a->x + dx, a->y + dy, fn, ud);
            break;
        case TB_N:
            found += try_move(p, i, a->x + jumps[d][0], a->y + jumps[d][1], fn, ud);
            break;
        case TB_P: {
            int j = tb_at(p, a->x + dx, a->y + dy);
            if (j < 0 && (orth || !p->orth))
                found += try_move(p, i, a->x + dx, a->y + dy, fn, ud);
            if (j >= 0 && !orth && !friendly(p, s, p->pc[j].col))
                found += try_move(p, i, a->x + dx, a->y + dy, fn, ud);
            break;
        }
        default:
            if ((a->fig == TB_R && !orth) || (a->fig == TB_B && orth))
                break;
            for (int x = a->x + dx, y = a->y + dy;
                 x >= b.x0 - 1 && x <= b.x1 + 1 && y >= b.y0 - 1 && y <= b.y1 + 1;
                 x += dx, y += dy) {
                int j = tb_at(p, x, y);
                if (j >= 0 && friendly(p, s, p->pc[j].col))
                    continue;               /* TILE-4: pass over friends */
                found += try_move(p, i, x, y, fn, ud);
                if (j >= 0)
                    break;                  /* the first enemy ends the ray */
            }
        }
    }
    return found;
}

static int visit_moves(const TbPos *p, TbVisit fn, void *ud)
{
    Box b = table_box(p);
    int found = 0;
    for (int i = 0; i < p->n; i++) {
        if (!friendly(p, p->turn, p->pc[i].col))
            continue;
        if (!p->lenient && tb_trapped(p, i))
            continue;
        found += visit_piece_moves(p, i, b, fn, ud);
    }
    return found;
}

static void visit_legal(const TbPos *p, TbVisit fn, void *ud)
{
    if (tb_over(p))
        return;
    if (tb_placing(p)) {
        visit_placements(p, fn, ud);
        return;
    }
    if (visit_moves(p, fn, ud) > 0)
        return;
    TbPos c = *p;             /* TILE-9: no legal move, so pass */
    c.passes++;
    c.turn = next_seat(p, p->turn);
    TbAct a = {ACT_PASS, 0, 0, 0, 0, 0};
    fn(ud, &a, &c);
}

/* ---- Texts, lists, play, perft ---------------------------------------------- */

static void act_text(const TbAct *a, char *out)
{
    if (a->kind == ACT_PASS)
        snprintf(out, TB_TEXT, "pass");
    else if (a->kind == ACT_PLACE)
        snprintf(out, TB_TEXT, "%c@%d,%d", FIG_LETTERS[a->fig], a->tx, a->ty);
    else
        snprintf(out, TB_TEXT, "%d,%d-%d,%d", a->fx, a->fy, a->tx, a->ty);
}

typedef struct TextList {
    char (*v)[TB_TEXT];
    int n, cap;
} TextList;

static void collect_text(void *ud, const TbAct *a, const TbPos *child)
{
    (void)child;
    TextList *l = ud;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, sizeof *l->v * (size_t)l->cap);
        if (!l->v)
            abort();
    }
    act_text(a, l->v[l->n++]);
}

static int cmp_text(const void *a, const void *b) { return strcmp(a, b); }

int tb_legal_texts(const TbPos *p, char (*texts)[TB_TEXT], int max)
{
    TextList l = {NULL, 0, 0};
    visit_legal(p, collect_text, &l);
    if (l.n > 1)
        qsort(l.v, (size_t)l.n, sizeof *l.v, cmp_text);
    for (int i = 0; i < l.n && i < max; i++)
        memcpy(texts[i], l.v[i], TB_TEXT);
    free(l.v);
    return l.n;
}

typedef struct Finder {
    const char *want;
    TbPos found;
    int hit;
} Finder;

static void find_text(void *ud, const TbAct *a, const TbPos *child)
{
    Finder *f = ud;
    char t[TB_TEXT];
    act_text(a, t);
    if (!f->hit && strcmp(t, f->want) == 0) {
        f->found = *child;
        f->hit = 1;
    }
}

int tb_play(TbPos *p, const char *text)
{
    Finder *f = calloc(1, sizeof *f);
    if (!f)
        abort();
    f->want = text;
    visit_legal(p, find_text, f);
    int hit = f->hit;
    if (hit)
        *p = f->found;
    free(f);
    return hit ? 0 : -1;
}

typedef struct Counter {
    int depth;
    uint64_t sum;
} Counter;

static void count_leaves(void *ud, const TbAct *a, const TbPos *child)
{
    (void)a;
    Counter *c = ud;
    c->sum += c->depth <= 1 ? 1 : tb_perft(child, c->depth - 1);
}

uint64_t tb_perft(const TbPos *p, int depth)
{
    if (depth <= 0)
        return 1;
    Counter c = {depth, 0};
    visit_legal(p, count_leaves, &c);
    return c.sum;
}

/* ---- The position string ------------------------------------------------------ */

static int cmp_reading(const void *a, const void *b)
{
    const TbPiece *p = a, *q = b;
    if (p->y != q->y)
        return p->y > q->y ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

typedef struct Out {
    char *s;
    size_t n, len;
} Out;

static void out_put(Out *o, const char *fmt, ...)
{
    char buf[64];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (o->len + 1 < o->n)
        snprintf(o->s + o->len, o->n - o->len, "%s", buf);
    o->len += (size_t)k;
}

int tb_format(const TbPos *p, char *out, size_t n)
{
    Out o = {out, n, 0};
    if (n > 0)
        out[0] = '\0';
    TbPiece sorted[TB_MAXP];
    memcpy(sorted, p->pc, sizeof(TbPiece) * (size_t)p->n);
    qsort(sorted, (size_t)p->n, sizeof *sorted, cmp_reading);
    for (int i = 0; i < p->n; i++)
        out_put(&o, "%s%c%c%d,%d", i ? " " : "", COLOUR_LETTERS[sorted[i].col],
                FIG_LETTERS[sorted[i].fig], sorted[i].x, sorted[i].y);
    int sep = 0;
    for (int c = 0; c < p->nsides; c++) {
        if (hand_total(p, c) == 0)
            continue;
        out_put(&o, "%s%c=", sep ? "," : (o.len ? " hand:" : "hand:"), COLOUR_LETTERS[c]);
        sep = 1;
        for (int f = 0; f < TB_NFIG; f++)
            for (int k = 0; k < p->hand[c][f]; k++)
                out_put(&o, "%c", FIG_LETTERS[f]);
    }
    out_put(&o, "%sturn:%c", o.len ? " " : "", COLOUR_LETTERS[p->turn]);
    if (tb_placing(p))
        out_put(&o, " first:%c", COLOUR_LETTERS[p->first]);
    sep = 0;
    for (int c = 0; c < p->nsides; c++)
        if (p->cmd[c] != c) {
            out_put(&o, "%s%c=%c", sep ? "," : " cmd:", COLOUR_LETTERS[c],
                    COLOUR_LETTERS[p->cmd[c]]);
            sep = 1;
        }
    if (p->passes > 0)
        out_put(&o, " passes:%d", p->passes);
    return (int)o.len;
}

/* ---- Reading ------------------------------------------------------------------- */

typedef struct Reader {
    TbPos *p;
    char *err;
    size_t errn;
    int seen_hand[TB_SIDES], seen_cmd[TB_SIDES];
    int seen_turn, seen_first, seen_passes;
} Reader;

/* The colour of letter ch, or -1 with a message. */
static int read_colour(Reader *r, char ch)
{
    const char *q = ch ? strchr(COLOUR_LETTERS, ch) : NULL;
    if (!q) {
        set_err(r->err, r->errn, "unknown colour letter '%c'", ch ? ch : '?');
        return -1;
    }
    int c = (int)(q - COLOUR_LETTERS);
    if (c >= r->p->nsides) {
        set_err(r->err, r->errn, "colour %s is beyond the game's %d sides", COLOUR_NAMES[c],
                r->p->nsides);
        return -1;
    }
    return c;
}

static int read_fig(char ch)
{
    const char *q = ch ? strchr(FIG_LETTERS, ch) : NULL;
    return q ? (int)(q - FIG_LETTERS) : -1;
}

/* One coordinate: -?digits, |v| <= TB_LIMIT; advances *s.  -1 on error. */
static int read_coord(const char **s, int *v)
{
    const char *q = *s;
    int neg = *q == '-', digits = 0;
    long val = 0;
    if (neg)
        q++;
    while (*q >= '0' && *q <= '9') {
        if (val <= TB_LIMIT)
            val = val * 10 + (*q - '0');
        q++;
        digits++;
    }
    if (digits == 0 || val > TB_LIMIT)
        return -1;
    *v = (int)(neg ? -val : val);
    *s = q;
    return 0;
}

/* A square `x,y` that must end the token. */
static int read_square(const char *s, int *x, int *y)
{
    if (read_coord(&s, x) < 0 || *s++ != ',' || read_coord(&s, y) < 0 || *s != '\0')
        return -1;
    return 0;
}

static int read_piece(Reader *r, const char *tok)
{
    TbPos *p = r->p;
    if (strlen(tok) < 2 || read_fig(tok[1]) < 0) {
        set_err(r->err, r->errn, "unknown token '%s'", tok);
        return -1;
    }
    int c = read_colour(r, tok[0]);
    if (c < 0)
        return -1;
    int x, y;
    if (read_square(tok + 2, &x, &y) < 0) {
        set_err(r->err, r->errn, "malformed or out-of-range square in '%s'", tok);
        return -1;
    }
    if (tb_at(p, x, y) >= 0) {
        set_err(r->err, r->errn, "two pieces on %d,%d", x, y);
        return -1;
    }
    if (p->n == TB_MAXP) {
        set_err(r->err, r->errn, "more than %d pieces", TB_MAXP);
        return -1;
    }
    p->pc[p->n++] = (TbPiece){x, y, c, read_fig(tok[1])};
    return 0;
}

/* `hand:w=KQ,b=...` */
static int read_hand(Reader *r, const char *s)
{
    for (;;) {
        int c = read_colour(r, *s);
        if (c < 0)
            return -1;
        if (s[1] != '=') {
            set_err(r->err, r->errn, "malformed hand entry (want colour=figures)");
            return -1;
        }
        if (r->seen_hand[c]++) {
            set_err(r->err, r->errn, "hand of %s given twice", COLOUR_NAMES[c]);
            return -1;
        }
        for (s += 2; *s && *s != ','; s++) {
            int f = read_fig(*s);
            if (f < 0) {
                set_err(r->err, r->errn, "unknown figure '%c' in hand of %s", *s,
                        COLOUR_NAMES[c]);
                return -1;
            }
            r->p->hand[c][f]++;
        }
        if (*s == '\0')
            return 0;
        s++;
    }
}

/* `cmd:r=w,u=w` */
static int read_cmd(Reader *r, const char *s)
{
    for (;;) {
        int c = read_colour(r, s[0]);
        if (c < 0)
            return -1;
        if (s[1] != '=') {
            set_err(r->err, r->errn, "malformed cmd entry (want colour=seat)");
            return -1;
        }
        int d = read_colour(r, s[2]);
        if (d < 0)
            return -1;
        if (r->seen_cmd[c]++) {
            set_err(r->err, r->errn, "command of %s given twice", COLOUR_NAMES[c]);
            return -1;
        }
        if (c == d) {
            set_err(r->err, r->errn, "cmd: %s names itself", COLOUR_NAMES[c]);
            return -1;
        }
        r->p->cmd[c] = d;
        s += 3;
        if (*s == '\0')
            return 0;
        if (*s != ',') {
            set_err(r->err, r->errn, "malformed cmd entry");
            return -1;
        }
        s++;
    }
}

/* `turn:w` or `first:w` into *slot. */
static int read_seat(Reader *r, const char *s, int *seen, int *slot, const char *what)
{
    if ((*seen)++) {
        set_err(r->err, r->errn, "%s: given twice", what);
        return -1;
    }
    if (s[0] == '\0' || s[1] != '\0') {
        set_err(r->err, r->errn, "%s: wants one colour letter", what);
        return -1;
    }
    int c = read_colour(r, s[0]);
    if (c < 0)
        return -1;
    *slot = c;
    return 0;
}

static int read_token(Reader *r, const char *tok)
{
    if (strncmp(tok, "hand:", 5) == 0)
        return read_hand(r, tok + 5);
    if (strncmp(tok, "cmd:", 4) == 0)
        return read_cmd(r, tok + 4);
    if (strncmp(tok, "turn:", 5) == 0)
        return read_seat(r, tok + 5, &r->seen_turn, &r->p->turn, "turn");
    if (strncmp(tok, "first:", 6) == 0)
        return read_seat(r, tok + 6, &r->seen_first, &r->p->first, "first");
    if (strncmp(tok, "passes:", 7) == 0) {
        const char *s = tok + 7;
        if (r->seen_passes++ || !*s || strspn(s, "0123456789") != strlen(s) ||
            strlen(s) > 2) {
            set_err(r->err, r->errn, "malformed passes: '%s'", tok);
            return -1;
        }
        r->p->passes = atoi(s);
        return 0;
    }
    return read_piece(r, tok);
}

/* The checks on the whole position, once every token is read. */
static int check_position(Reader *r)
{
    TbPos *p = r->p;
    char *err = r->err;
    size_t errn = r->errn;
    int placing = tb_placing(p);
    if (!r->seen_turn)
        return set_err(err, errn, "no turn: token"), -1;
    if (!tb_one_group(p))
        return set_err(err, errn, "the table is in more than one group"), -1;
    for (int c = 0; c < p->nsides; c++) {
        int d = p->cmd[c];
        if (d == c)
            continue;
        if (placing)
            return set_err(err, errn, "cmd: during placement"), -1;
        if (p->cmd[d] != d)
            return set_err(err, errn, "cmd: %s commanded by %s, a seat that is out",
                           COLOUR_NAMES[c], COLOUR_NAMES[d]), -1;
    }
    for (int c = 0; c < p->nsides; c++) {
        int count[TB_NFIG] = {0};
        for (int i = 0; i < p->n; i++)
            if (p->pc[i].col == c)
                count[p->pc[i].fig]++;
        for (int f = 0; f < TB_NFIG; f++)
            if (count[f] + p->hand[c][f] > army_count(p, f))
                return set_err(err, errn, "%s has more %c than its army (%d)", COLOUR_NAMES[c],
                               FIG_LETTERS[f], army_count(p, f)), -1;
        int kings = count[TB_K] + p->hand[c][TB_K];
        if (p->cmd[c] != c && (kings > 0 || hand_total(p, c) > 0))
            return set_err(err, errn, "a King or a hand for %s, a commanded colour",
                           COLOUR_NAMES[c]), -1;
        if (p->cmd[c] == c && kings != 1)
            return set_err(err, errn, "%s has %d Kings (wants exactly one)", COLOUR_NAMES[c],
                           kings), -1;
        if (count[TB_K] > 0 && hand_total(p, c) > 0)
            return set_err(err, errn, "%s's King is on the table with pieces still in hand",
                           COLOUR_NAMES[c]), -1;
    }
    if (!tb_in_game(p, p->turn))
        return set_err(err, errn, "turn: %s is out", COLOUR_NAMES[p->turn]), -1;
    if (placing && hand_total(p, p->turn) == 0)
        return set_err(err, errn, "turn: %s has nothing in hand", COLOUR_NAMES[p->turn]), -1;
    if (!r->seen_first)
        p->first = p->turn;
    if (!tb_in_game(p, p->first))
        return set_err(err, errn, "first: %s is out", COLOUR_NAMES[p->first]), -1;
    if (placing && p->passes > 0)
        return set_err(err, errn, "passes: during placement"), -1;
    if (p->passes > seats_in_game(p))
        return set_err(err, errn, "passes: %d is above the %d seats in the game", p->passes,
                       seats_in_game(p)), -1;
    return 0;
}

int tb_parse(TbPos *p, const char *text, int nsides, int pawns, int orthogonal_pawns,
             int lenient_trapped, char *err, size_t errn)
{
    if (nsides < 2 || nsides > TB_SIDES)
        return set_err(err, errn, "sides %d: wants 2 to 6", nsides), -1;
    if (pawns > 8)
        return set_err(err, errn, "pawns %d: wants 0 to 8", pawns), -1;
    memset(p, 0, sizeof *p);
    p->nsides = nsides;
    p->pawns = pawns >= 0 ? pawns : nsides == 2 ? 8 : nsides == 3 ? 6 : 4;
    p->orth = orthogonal_pawns != 0;
    p->lenient = lenient_trapped != 0;
    for (int c = 0; c < TB_SIDES; c++)
        p->cmd[c] = c;
    Reader r = {.p = p, .err = err, .errn = errn};
    const char *s = text ? text : "";
    char tok[128];
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        size_t len = strcspn(s, " ");
        if (len >= sizeof tok)
            return set_err(err, errn, "token too long: '%.20s...'", s), -1;
        memcpy(tok, s, len);
        tok[len] = '\0';
        s += len;
        if (read_token(&r, tok) < 0)
            return -1;
    }
    return check_position(&r);
}
