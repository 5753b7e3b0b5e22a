/*
 * notation.c -- the fairy variant's move texts (issue 24, docs/FAIRY.md
 * "Moves"): UCI for machines (e2e4, e7e8q, a9a10q, N@f3, the king's move
 * for castling) and SAN for records and people (Nf3, exd5, e8=Q, O-O,
 * N@f3, Axe5, + and #), disambiguated as SAN does; both read back.  The
 * duck's placement (issue 25, TURN-4) is @e5 in both.
 *
 * Invariant: a text is read only as a move of the legal list given, and an
 * ambiguous one is never guessed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "fv.h"

/* The square a castling move is also written to: its rook's (PART-4). */
static int castle_rook_sq(const FvState *s, uint32_t m)
{
    return s ? s->castle_rook[s->side][FV_PT(m) & 1] : FV_NO_SQ;
}

/* Is `to` how castling m is written (fv_uci), or its rook's square? */
static int uci_castle_to(const FvState *s, uint32_t m, int to)
{
    if (castle_rook_sq(s, m) == to)
        return 1;
    return FV_TO(m) == to && abs(FV_X(to) - FV_X(FV_FROM(m))) != 1;
}

void fv_uci(const FvRules *r, const FvState *s, uint32_t m, StrBuf *out)
{
    char a[4], b[4];
    (void)r;
    int to = FV_TO(m);
    /* Chess960 castling whose king steps one file would read as the
     * king's plain step: written as the king onto its rook instead */
    if (FV_KIND(m) == FV_CASTLE && abs(FV_X(to) - FV_X(FV_FROM(m))) == 1 &&
        castle_rook_sq(s, m) != FV_NO_SQ)
        to = castle_rook_sq(s, m);
    fv_square_name(to, b);
    if (FV_KIND(m) == FV_DUCK_PLACE) {
        sb_printf(out, "@%s", b);
        return;
    }
    if (FV_KIND(m) == FV_DROP) {
        sb_printf(out, "%c@%s", 'A' + FV_PT(m) - 1, b);
        return;
    }
    fv_square_name(FV_FROM(m), a);
    sb_printf(out, "%s%s", a, b);
    if (FV_KIND(m) != FV_CASTLE && FV_PT(m))
        sb_putc(out, (char)tolower('A' + FV_PT(m) - 1));
}

/* SAN without + or #. */
static void san_core(const FvRules *r, const FvState *s, uint32_t m, const uint32_t *moves,
                     int n, char *buf, size_t size)
{
    char to[4], from[4];
    const int kind = FV_KIND(m), f = FV_FROM(m), t = FV_TO(m);
    fv_square_name(t, to);
    if (kind == FV_DUCK_PLACE) {
        snprintf(buf, size, "@%s", to);
        return;
    }
    if (kind == FV_DROP) {
        snprintf(buf, size, "%c@%s", 'A' + FV_PT(m) - 1, to);
        return;
    }
    if (kind == FV_CASTLE) {
        snprintf(buf, size, "%s", FV_PT(m) ? "O-O" : "O-O-O");
        return;
    }
    const int type = FV_TYPE(s->board[f]);
    const int cap = fv_is_capture(r, s, m);
    fv_square_name(f, from);
    char promo[4] = "";
    if (FV_PT(m))
        snprintf(promo, sizeof promo, "=%c", 'A' + FV_PT(m) - 1);
    if (type == FV_T('P')) {
        if (cap)
            snprintf(buf, size, "%cx%s%s", from[0], to, promo);
        else
            snprintf(buf, size, "%s%s", to, promo);
        return;
    }
    int others = 0, same_file = 0, same_rank = 0;
    for (int i = 0; i < n; i++) {
        uint32_t o = moves[i];
        if (FV_KIND(o) == FV_DROP || FV_KIND(o) == FV_CASTLE || FV_TO(o) != t || FV_FROM(o) == f)
            continue;
        if (FV_TYPE(s->board[FV_FROM(o)]) != type)
            continue;
        others = 1;
        same_file |= FV_X(FV_FROM(o)) == FV_X(f);
        same_rank |= FV_Y(FV_FROM(o)) == FV_Y(f);
    }
    char dis[4] = "";
    if (others) {
        if (!same_file)
            snprintf(dis, sizeof dis, "%c", from[0]);
        else if (!same_rank)
            snprintf(dis, sizeof dis, "%s", from + 1);
        else
            snprintf(dis, sizeof dis, "%s", from);
    }
    snprintf(buf, size, "%c%s%s%s%s", 'A' + type, dis, cap ? "x" : "", to, promo);
}

void fv_san(const FvRules *r, const FvState *s, uint32_t m, StrBuf *out)
{
    uint32_t moves[FV_MAX_MOVES];
    char buf[32];
    int n = fv_legal(r, s, moves);
    san_core(r, s, m, moves, n, buf, sizeof buf);
    sb_puts(out, buf);
    if (FV_KIND(m) == FV_DUCK_PLACE)
        return; /* the move before it carried its + */
    FvState child = *s;
    fv_make(r, &child, m);
    int opp = child.side;
    if (child.nroyal[opp] && fv_in_check(r, &child, opp)) {
        unsigned w;
        int code;
        char why[8];
        int ended = fv_variant_end(r, &child, &w, &code, why, sizeof why);
        sb_putc(out, !ended && r->check && !fv_has_legal(r, &child) ? '#' : '+');
    }
}

/* The text without x, = and the marks after it. */
static void normalize(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < n; p++)
        if (*p != 'x' && *p != '=' && *p != '+' && *p != '#' && *p != '!' && *p != '?')
            out[k++] = *p;
    out[k] = '\0';
}

/* Does t begin with the word "duck" (any case)? */
static int duck_word(const char *t)
{
    for (int i = 0; i < 4; i++)
        if (tolower((unsigned char)t[i]) != "duck"[i])
            return 0;
    return !t[4] || isspace((unsigned char)t[4]);
}

/* "duck e5" or "@e5": the square after it, else NULL. */
static const char *duck_square_text(const char *t)
{
    if (t[0] == '@')
        return t + 1;
    if (duck_word(t)) {
        t += 4;
        while (isspace((unsigned char)*t))
            t++;
        return t;
    }
    return NULL;
}

/* The duck's placement (TURN-4) while it is due: "@e5", "duck e5" or
 * "e5", onto an empty square of moves (the legal ones). */
static int parse_duck(const FvRules *r, const FvState *s, const uint32_t *moves, int n,
                      const char *t, uint32_t *out, Error *e)
{
    const char *who = s->side ? "black" : "white";
    const char *p = duck_square_text(t);
    p = p ? p : t;
    int sq = fv_parse_square(r, &p);
    if (sq < 0 || *p)
        return err_set(e, "%s: %s places the duck now: type its square (@e5, duck e5 or e5)",
                       t, who);
    char nm[4];
    fv_square_name(sq, nm);
    for (int i = 0; i < n; i++)
        if (FV_KIND(moves[i]) == FV_DUCK_PLACE && FV_TO(moves[i]) == sq) {
            *out = moves[i];
            return 0;
        }
    if (sq == s->duck)
        return err_set(e, "%s: the duck stands on %s already; it goes to another empty "
                       "square (TURN-4)", t, nm);
    if (s->board[sq])
        return err_set(e, "%s: %s is not empty; the duck goes onto an empty square (TURN-4)", t,
                       nm);
    return err_set(e, "%s: the duck may not go to %s here", t, nm);
}

int fv_parse_move(const FvRules *r, const FvState *s, const uint32_t *moves, int n,
                  const char *text, uint32_t *out, Error *e)
{
    char t[64], norm[64], cand[64], c2[64];
    size_t len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    while (len && isspace((unsigned char)*text)) {
        text++;
        len--;
    }
    if (!len)
        return err_set(e, "type a move (Nf3, e4, e2e4, O-O, N@f3)");
    if (len >= sizeof t)
        return err_set(e, "'%.20s...' is too long for a move", text);
    memcpy(t, text, len);
    t[len] = '\0';
    if (s->duck_due)
        return parse_duck(r, s, moves, n, t, out, e);
    if (duck_word(t) || (t[0] == '@' && !r->hands))
        return err_set(e, "%s: no duck is to be placed now (a house rule's turn has %s place "
                       "it after a move, TURN-4)%s", t, s->side ? "black" : "white",
                       t[0] == '@' ? "; and this rule set has no hands to drop from" : "");
    /* UCI: two squares and a promotion letter */
    const char *p = t;
    int from = fv_parse_square(r, &p), to = -1;
    if (from >= 0)
        to = fv_parse_square(r, &p);
    if (from >= 0 && to >= 0 && (!*p || (isalpha((unsigned char)*p) && !p[1]))) {
        int want = *p ? toupper((unsigned char)*p) - 'A' + 1 : 0;
        int found = -1, promo_needed = 0;
        for (int i = 0; i < n; i++)
            if (FV_KIND(moves[i]) != FV_DROP && FV_FROM(moves[i]) == from &&
                (FV_KIND(moves[i]) == FV_CASTLE ? uci_castle_to(s, moves[i], to)
                                                 : FV_TO(moves[i]) == to)) {
                int pt = FV_KIND(moves[i]) == FV_CASTLE ? 0 : FV_PT(moves[i]);
                if (pt == want) {
                    if (found >= 0 && moves[found] != moves[i])
                        return err_set(e, "%s is ambiguous here", t);
                    found = i;
                } else if (pt && !want) {
                    promo_needed = 1;
                }
            }
        if (found >= 0) {
            *out = moves[found];
            return 0;
        }
        char a[4], b[4];
        fv_square_name(from, a);
        fv_square_name(to, b);
        if (promo_needed)
            return err_set(e, "%s: say what the pawn becomes (%s%sq)", t, a, b);
        int cell = s->board[from];
        if (!cell)
            return err_set(e, "%s: no piece on %s", t, a);
        if (cell == FV_DUCK)
            return err_set(e, "%s: the duck on %s is nobody's; it moves only when placed "
                           "(TURN-4)", t, a);
        if (FV_COLOR(cell) != s->side)
            return err_set(e, "%s: the piece on %s is %s's", t, a,
                           FV_COLOR(cell) ? "black" : "white");
        if (want)
            return err_set(e, "%s: the %s on %s cannot go to %s and become %c", t,
                           r->piece[FV_TYPE(cell)].name, a, b, (char)toupper((unsigned char)*p));
        return err_set(e, "%s: the %s on %s cannot go to %s", t, r->piece[FV_TYPE(cell)].name,
                       a, b);
    }
    /* SAN (and drops, castling) against every legal move's texts */
    normalize(t, norm, sizeof norm);
    if (!strcmp(norm, "0-0"))
        strcpy(norm, "O-O");
    if (!strcmp(norm, "0-0-0"))
        strcpy(norm, "O-O-O");
    if (norm[0] == '@') { /* a pawn drop written @e4 */
        memmove(norm + 1, norm, strlen(norm) + 1);
        norm[0] = 'P';
    }
    int found = -1, nfound = 0;
    char seen[256] = "";
    for (int i = 0; i < n; i++) {
        san_core(r, s, moves[i], moves, n, cand, sizeof cand);
        normalize(cand, c2, sizeof c2);
        int hit = !strcmp(c2, norm);
        int f = FV_FROM(moves[i]);
        if (!hit && FV_KIND(moves[i]) == FV_NORMAL && s->board[f] &&
            FV_TYPE(s->board[f]) != FV_T('P')) {
            /* a piece's move with more (or less) of its square than SAN
             * needs: Nf3, Ngf3, N1f3, Ng1f3 */
            char a[4], b[4], promo[2] = {0, 0};
            fv_square_name(f, a);
            fv_square_name(FV_TO(moves[i]), b);
            if (FV_PT(moves[i]))
                promo[0] = (char)('A' + FV_PT(moves[i]) - 1);
            const char *from_forms[4] = {"", NULL, a + 1, a};
            char file[2] = {a[0], 0};
            from_forms[1] = file;
            for (int k = 0; k < 4 && !hit; k++) {
                snprintf(c2, sizeof c2, "%c%s%s%s", 'A' + FV_TYPE(s->board[f]), from_forms[k],
                         b, promo);
                hit = !strcmp(c2, norm);
            }
        }
        if (!hit || (found >= 0 && moves[found] == moves[i]))
            continue;
        size_t l = strlen(seen);
        snprintf(seen + l, sizeof seen - l, "%s%s", l ? ", " : "", cand);
        found = i;
        nfound++;
    }
    if (nfound > 1)
        return err_set(e, "%s is ambiguous: %s", t, seen);
    if (found >= 0) {
        *out = moves[found];
        return 0;
    }
    if (!strcmp(norm, "O-O") || !strcmp(norm, "O-O-O"))
        return err_set(e, "%s: castling is not allowed here", t);
    if (strchr(t, '@'))
        return err_set(e, "%s: that drop is not allowed here (a piece in hand, an empty "
                       "square%s)", t, r->hands ? "" : "; this rule set has no hands");
    if (s->duck != FV_NO_SQ) { /* the last square named: the duck's? */
        int last = -1;
        for (const char *q = t; *q; q++) {
            const char *at = q;
            int sq = fv_parse_square(r, &at);
            if (sq >= 0)
                last = sq;
        }
        if (last == s->duck) {
            char d[4];
            fv_square_name(last, d);
            return err_set(e, "%s: the duck stands on %s; no piece goes there (TURN-4)", t, d);
        }
    }
    return err_set(e, "%s is not a legal move here", t);
}
