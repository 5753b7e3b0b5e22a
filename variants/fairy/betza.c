/*
 * betza.c -- reads a piece's moves in Betza notation into atoms, one per
 * direction of a step (issue 24, docs/BETZA.md).
 *
 * The text is a list of groups: modifiers, then an atom letter, then an
 * optional second copy of the letter or a range number ("fmW", "cpR",
 * "NN", "R4").  Directions read as Fairy-Stockfish reads them, so a rule set
 * written from its variants.ini means the same here: a single direction
 * letter counts double ("f" is "ff"), two letters of different axes make a
 * pair ("fs", "lf"), and a mixed pair on an orthogonal piece (W, D, H, R)
 * splits into its two letters ("fsW" is forward and sideways).
 *
 * Invariant: the atoms come out without repeats -- a step already covered
 * by an atom of the same direction (the W of "RW", the cW of "mWcW") is
 * folded into it -- so an engine that walks the atoms never generates one
 * move twice from the same atom direction.
 */
#include "betza.h"

#include <string.h>

/* An atom letter: its step (forward, sideways) as the notation draws it,
 * and whether it rides by itself (R B Q). */
typedef struct BzLetter {
    char c;
    int8_t fwd, side;
    uint8_t rides;
} BzLetter;

static const BzLetter BZ_LETTERS[] = {
    { 'W', 1, 0, 0 }, { 'F', 1, 1, 0 }, { 'D', 2, 0, 0 }, { 'N', 2, 1, 0 },
    { 'A', 2, 2, 0 }, { 'H', 3, 0, 0 }, { 'C', 3, 1, 0 }, { 'L', 3, 1, 0 },
    { 'Z', 3, 2, 0 }, { 'J', 3, 2, 0 }, { 'G', 3, 3, 0 },
    { 'R', 1, 0, 1 }, { 'B', 1, 1, 1 },
};

/* K and Q are two letters at once: W and F. */
static int bz_letter_steps(char c, const BzLetter **out)
{
    static const BzLetter wf[2] = { { 'W', 1, 0, 0 }, { 'F', 1, 1, 0 } };
    static const BzLetter rb[2] = { { 'R', 1, 0, 1 }, { 'B', 1, 1, 1 } };
    if (c == 'K') { *out = wf; return 2; }
    if (c == 'Q') { *out = rb; return 2; }
    for (size_t i = 0; i < sizeof BZ_LETTERS / sizeof BZ_LETTERS[0]; i++)
        if (BZ_LETTERS[i].c == c) {
            *out = &BZ_LETTERS[i];
            return 1;
        }
    return 0;
}

/* The eight orientations of a step (a forward, b sideways), in
 * Fairy-Stockfish's order, and the direction pairs that select each.
 * Orientation k moves (dx, dy) = BZ_ORIENT[k] applied to (a, b). */
typedef struct BzOrient {
    int8_t dx_a, dx_b, dy_a, dy_b;   /* dx = dx_a*a + dx_b*b, dy likewise */
    const char *pairs;               /* the pairs that select it, "ff vv ..." */
} BzOrient;

static const BzOrient BZ_ORIENT[8] = {
    { 0, 1, 1, 0, "ff vv rf rv" },    /* forward, turned right */
    { 0, -1, -1, 0, "bb vv lb lv" },  /* backward, turned left */
    { 1, 0, 0, -1, "rr ss br bs" },   /* right, turned back */
    { -1, 0, 0, 1, "ll ss fl fs" },   /* left, turned forward */
    { 1, 0, 0, 1, "rr ss fr fs" },    /* right, turned forward */
    { -1, 0, 0, -1, "ll ss bl bs" },  /* left, turned back */
    { 0, 1, -1, 0, "bb vv rb rv" },   /* backward, turned right */
    { 0, -1, 1, 0, "ff vv lf lv" },   /* forward, turned left */
};

static int bz_is_vertical(char c) { return c == 'f' || c == 'b' || c == 'v'; }
static int bz_is_horizontal(char c) { return c == 'l' || c == 'r' || c == 's'; }

/* Does the pair (two letters) select orientation k? */
static int bz_pair_selects(const char pair[2], int k)
{
    for (const char *p = BZ_ORIENT[k].pairs;; p += 3) {
        if (p[0] == pair[0] && p[1] == pair[1])
            return 1;
        if (p[2] == '\0')
            return 0;
    }
}

#define BZ_MAX_PAIRS 16

/* What the modifiers before one atom letter said. */
typedef struct BzGroup {
    int move, capture, hop, grasshop, lame, initial;
    int npairs;
    char pair[BZ_MAX_PAIRS][2];
    int pair_at[BZ_MAX_PAIRS];       /* 1-based position, for errors */
} BzGroup;

/* Squares a lame leap needs empty: the path Fairy-Stockfish walks, a
 * diagonal step while both distances left are equal, else a step along
 * the longer one; every square before the target is a leg. */
static uint8_t bz_legs(int dx, int dy, int8_t leg[2][2])
{
    int x = 0, y = 0, n = 0;
    int sx = dx > 0 ? 1 : dx < 0 ? -1 : 0, sy = dy > 0 ? 1 : dy < 0 ? -1 : 0;
    while (x != dx || y != dy) {
        int ax = dx - x < 0 ? x - dx : dx - x, ay = dy - y < 0 ? y - dy : dy - y;
        if (ax > ay)
            x += sx;
        else if (ax < ay)
            y += sy;
        else {
            x += sx;
            y += sy;
        }
        if ((x != dx || y != dy) && n < 2) {
            leg[n][0] = (int8_t)x;
            leg[n][1] = (int8_t)y;
            n++;
        }
    }
    return (uint8_t)n;
}

/* Can every move of atom x also be made with atom y? */
static int bz_covers(const BetzaAtom *y, const BetzaAtom *x)
{
    uint8_t mc = BZ_MOVE | BZ_CAPTURE;
    if (x->dx != y->dx || x->dy != y->dy)
        return 0;
    if ((x->flags & ~mc & ~BZ_INITIAL) != (y->flags & ~mc & ~BZ_INITIAL))
        return 0;
    if ((x->flags & mc & ~y->flags) != 0)
        return 0;
    if ((y->flags & BZ_INITIAL) && !(x->flags & BZ_INITIAL))
        return 0;
    if (y->range != 0 && (x->range == 0 || x->range > y->range))
        return 0;
    if (y->nlegs != 0 &&
        (y->range != 1 || x->range != 1 || x->nlegs != y->nlegs ||
         memcmp(x->leg, y->leg, sizeof x->leg) != 0))
        return 0;
    if (x->flags & (BZ_HOP | BZ_GRASSHOP))
        return x->range == y->range;
    return 1;
}

/* Same kind of atom in all but move/capture: the two fold into one. */
static int bz_same_but_mc(const BetzaAtom *x, const BetzaAtom *y)
{
    uint8_t mc = BZ_MOVE | BZ_CAPTURE;
    return x->dx == y->dx && x->dy == y->dy && x->range == y->range &&
           (x->flags & ~mc) == (y->flags & ~mc) && x->nlegs == y->nlegs &&
           memcmp(x->leg, y->leg, sizeof x->leg) == 0;
}

/* Add one atom, folding repeats; -1 when the table is full.  An atom that
 * differs from one already there only in move/capture is merged into it;
 * then whatever the (merged) atom covers is dropped. */
static int bz_add(BetzaMoves *out, const BetzaAtom *a)
{
    BetzaAtom x = *a;
    int merged = 0;
    for (int i = 0; i < out->n; i++)
        if (bz_same_but_mc(&out->a[i], &x)) {
            x.flags |= out->a[i].flags;
            out->a[i] = out->a[--out->n];    /* taken out; back in below */
            merged = 1;
            break;
        }
    if (!merged)
        for (int i = 0; i < out->n; i++)
            if (bz_covers(&out->a[i], &x))
                return 0;
    int keep = 0;
    for (int i = 0; i < out->n; i++)
        if (!bz_covers(&x, &out->a[i]))
            out->a[keep++] = out->a[i];
    out->n = keep;
    if (out->n >= BETZA_MAX_ATOMS)
        return -1;
    out->a[out->n++] = x;
    return 0;
}

/* Emit the atoms of one atom letter with the group's modifiers. */
static int bz_emit(const char *text, int at, const BzLetter *steps, int nsteps,
                   int range, const BzGroup *g, BetzaMoves *out, Error *e)
{
    for (int s = 0; s < nsteps; s++) {
        int a = steps[s].fwd, b = steps[s].side;
        unsigned sel = 0;
        if (g->npairs == 0)
            sel = 0xff;
        for (int p = 0; p < g->npairs; p++) {
            const char *pr = g->pair[p];
            unsigned one = 0;
            if (nsteps == 1 && b == 0 && pr[0] != pr[1]) {
                /* a mixed pair on an orthogonal piece: each letter alone */
                char d0[2] = { pr[0], pr[0] }, d1[2] = { pr[1], pr[1] };
                for (int k = 0; k < 8; k++)
                    if (bz_pair_selects(d0, k) || bz_pair_selects(d1, k))
                        one |= 1u << k;
            } else {
                for (int k = 0; k < 8; k++)
                    if (bz_pair_selects(pr, k))
                        one |= 1u << k;
            }
            if (one == 0)
                return err_set(e, "'%c%c' at %d in '%.60s' is no direction of %c "
                               "(pairs go vertical then sideways, as 'fs' 'bl', "
                               "or sideways then vertical, as 'lf' 'rb')",
                               pr[0], pr[1], g->pair_at[p], text, text[at - 1]);
            sel |= one;
        }
        for (int k = 0; k < 8; k++) {
            if (!(sel & (1u << k)))
                continue;
            const BzOrient *o = &BZ_ORIENT[k];
            BetzaAtom atom;
            memset(&atom, 0, sizeof atom);
            atom.dx = (int8_t)(o->dx_a * a + o->dx_b * b);
            atom.dy = (int8_t)(o->dy_a * a + o->dy_b * b);
            atom.range = (uint8_t)range;
            atom.flags = (uint8_t)((g->move ? BZ_MOVE : 0) | (g->capture ? BZ_CAPTURE : 0) |
                                   (g->hop ? BZ_HOP : 0) | (g->grasshop ? BZ_GRASSHOP : 0) |
                                   (g->initial ? BZ_INITIAL : 0));
            if (!g->move && !g->capture)
                atom.flags |= BZ_MOVE | BZ_CAPTURE;
            if (g->lame)
                atom.nlegs = bz_legs(atom.dx, atom.dy, atom.leg);
            if (bz_add(out, &atom) < 0)
                return err_set(e, "'%.60s' has more than %d directions of moves",
                               text, BETZA_MAX_ATOMS);
        }
    }
    return 0;
}

/* Read one direction letter (or pair) at text[i]; returns how many
 * characters it took. */
static int bz_direction(const char *text, int i, BzGroup *g, Error *e)
{
    char c = text[i], c2 = text[i + 1];
    int len = 1;
    char pr[2] = { c, c };
    if (c2 == c || (bz_is_vertical(c) && bz_is_horizontal(c2)) ||
        (bz_is_horizontal(c) && bz_is_vertical(c2))) {
        pr[1] = c2;
        len = 2;
    }
    if (g->npairs >= BZ_MAX_PAIRS)
        return err_set(e, "too many directions before the piece letter at %d in '%.60s'",
                       i + 1, text);
    g->pair[g->npairs][0] = pr[0];
    g->pair[g->npairs][1] = pr[1];
    g->pair_at[g->npairs] = i + 1;
    g->npairs++;
    return len;
}

int betza_parse(const char *text, BetzaMoves *out, Error *e)
{
    BetzaMoves m;
    BzGroup g;
    if (!text)
        return err_set(e, "no Betza text");
    m.n = 0;
    memset(&g, 0, sizeof g);
    int len = (int)strlen(text);
    for (int i = 0; i < len;) {
        char c = text[i];
        const BzLetter *steps;
        int nsteps;
        if (c == 'm' || c == 'c') {
            *(c == 'm' ? &g.move : &g.capture) = 1;
            i++;
        } else if (c == 'p' || c == 'g') {
            *(c == 'p' ? &g.hop : &g.grasshop) = 1;
            if (g.hop && g.grasshop)
                return err_set(e, "'%c' at %d in '%.60s': a piece hops with p or g, "
                               "not both", c, i + 1, text);
            i++;
        } else if (c == 'n' || c == 'i') {
            *(c == 'n' ? &g.lame : &g.initial) = 1;
            i++;
        } else if (bz_is_vertical(c) || bz_is_horizontal(c)) {
            int n = bz_direction(text, i, &g, e);
            if (n < 0)
                return -1;
            i += n;
        } else if ((nsteps = bz_letter_steps(c, &steps)) > 0) {
            int at = i + 1, range = steps[0].rides ? 0 : 1;
            i++;
            if (i < len && text[i] == c) {       /* NN: the leaper rides */
                range = 0;
                i++;
            }
            if (i < len && text[i] >= '0' && text[i] <= '9') {
                int n = 0, from = i;
                for (; i < len && text[i] >= '0' && text[i] <= '9'; i++)
                    if (n < 1000)
                        n = n * 10 + (text[i] - '0');
                if (n < 1 || n > 15)
                    return err_set(e, "range %d at %d in '%.60s' is not 1..15 "
                                   "(%c alone rides without limit)",
                                   n, from + 1, text, c);
                range = n;
            }
            if (g.lame && range != 1)
                return err_set(e, "'n' before '%c' at %d in '%.60s': only a leap "
                               "can be lame, not a ride", c, at, text);
            if ((g.hop || g.grasshop) && range == 1)
                return err_set(e, "'%c' before '%c' at %d in '%.60s': a piece hops "
                               "along a line, so it needs a rider (pR, gQ, pNN)",
                               g.hop ? 'p' : 'g', c, at, text);
            if ((g.hop || g.grasshop) && range != 0)
                return err_set(e, "'%c' before '%c' at %d in '%.60s': a hopper "
                               "takes no range", g.hop ? 'p' : 'g', c, at, text);
            if (bz_emit(text, at, steps, nsteps, range, &g, &m, e) < 0)
                return -1;
            memset(&g, 0, sizeof g);
        } else if (c >= '0' && c <= '9') {
            return err_set(e, "'%c' at %d in '%.60s': a range follows a piece "
                           "letter (R4, W2)", c, i + 1, text);
        } else if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e) {
            return err_set(e, "byte 0x%02x at %d in the Betza text is not a Betza letter",
                           (unsigned char)c, i + 1);
        } else {
            return err_set(e, "'%c' at %d in '%.60s' is not a Betza letter "
                           "(atoms W F D N A H C Z G K R B Q, modifiers "
                           "m c p g n i f b v s l r)", c, i + 1, text);
        }
    }
    if (g.move || g.capture || g.hop || g.grasshop || g.lame || g.initial || g.npairs)
        return err_set(e, "'%.60s' ends with modifiers and no piece letter after them",
                       text);
    *out = m;
    return 0;
}
