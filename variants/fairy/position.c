/*
 * position.c -- the fairy variant's position strings (issue 24, PART-1,
 * docs/FAIRY.md "Position strings"): FEN extended as Fairy-Stockfish and
 * lichess write it for large boards (runs of empty squares as numbers up
 * to 16), `~` after a promoted piece, the hand in [..] (or as an extra
 * rank), castling as KQkq or rook files, lichess's check counts (3+3
 * remaining, +0+0 given), the duck as `*` and its placement due as `w*`
 * or `b*` (issue 25, TURN-4).
 *
 * Invariant: fv_read either fills the whole state consistently (fv_derive)
 * or fails with a message naming the rank, letter or field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "fv.h"

void fv_square_name(int sq, char *buf)
{
    int y = (sq >> 4) & 15;
    buf[0] = (char)('a' + (sq & 15));
    if (y >= 9) {
        buf[1] = '1';
        buf[2] = (char)('0' + y - 9);
        buf[3] = '\0';
    } else {
        buf[1] = (char)('1' + y);
        buf[2] = '\0';
    }
}

int fv_parse_square(const FvRules *r, const char **p)
{
    const char *s = *p;
    if (s[0] < 'a' || s[0] >= 'a' + r->w || !isdigit((unsigned char)s[1]) || s[1] == '0')
        return -1;
    int y = s[1] - '0', n = 2;
    if (isdigit((unsigned char)s[2]) && y * 10 + (s[2] - '0') <= r->h) {
        y = y * 10 + (s[2] - '0');
        n = 3;
    }
    if (y > r->h)
        return -1;
    *p = s + n;
    return FV_SQ(s[0] - 'a', y - 1);
}

int fv_derive(const FvRules *r, FvState *s, Error *e)
{
    memset(s->count, 0, sizeof s->count);
    s->nroyal[0] = s->nroyal[1] = 0;
    s->duck = FV_NO_SQ;
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int sq = FV_SQ(x, y), cell = s->board[sq];
            if (!cell)
                continue;
            if (cell == FV_DUCK) {
                if (s->duck != FV_NO_SQ) {
                    char a[4], b[4];
                    fv_square_name(s->duck, a);
                    fv_square_name(sq, b);
                    return err_set(e, "two ducks, on %s and %s: there is one duck (TURN-4)",
                                   a, b);
                }
                s->duck = (uint8_t)sq;
                continue;
            }
            int t = FV_TYPE(cell), c = FV_COLOR(cell);
            s->count[c][t]++;
            if (fv_is_royal(r, t)) {
                if (s->nroyal[c] >= FV_MAX_ROYALS)
                    return err_set(e, "%s has more than %d royal pieces", c ? "black" : "white",
                                   FV_MAX_ROYALS);
                s->royal_sq[c][s->nroyal[c]++] = (uint8_t)sq;
            }
        }
    return 0;
}

/* The castling right of letter ch (KQkq or a rook's file). */
static int read_castle(const FvRules *r, FvState *s, char ch, Error *e)
{
    int c = islower((unsigned char)ch) ? 1 : 0, up = toupper((unsigned char)ch);
    int y = c ? r->h - 1 : 0, kf = -1;
    for (int x = 0; x < r->w; x++)
        if (s->board[FV_SQ(x, y)] == FV_CELL(c, FV_T('K')))
            kf = x;
    if (kf < 0)
        return err_set(e, "castling %c: %s has no king on rank %d", ch, c ? "black" : "white",
                       y + 1);
    uint8_t rook = FV_CELL(c, FV_T('R'));
    int rf = -1;
    if (up == 'K') {
        for (int x = r->w - 1; x > kf && rf < 0; x--)
            if (s->board[FV_SQ(x, y)] == rook)
                rf = x;
    } else if (up == 'Q') {
        for (int x = 0; x < kf && rf < 0; x++)
            if (s->board[FV_SQ(x, y)] == rook)
                rf = x;
    } else if (up >= 'A' && up < 'A' + r->w) {
        if (s->board[FV_SQ(up - 'A', y)] == rook && up - 'A' != kf)
            rf = up - 'A';
    } else {
        return err_set(e, "castling: '%c' is not K, Q, k, q or a file letter", ch);
    }
    if (rf < 0)
        return err_set(e, "castling %c: no %s rook for it on rank %d", ch,
                       c ? "black" : "white", y + 1);
    s->castle_king[c] = (uint8_t)FV_SQ(kf, y);
    s->castle_rook[c][rf > kf] = (uint8_t)FV_SQ(rf, y);
    return 0;
}

/* The board field, its hand included. */
static int read_board(const FvRules *r, FvState *s, char *f, Error *e)
{
    char *hand = NULL, *br = strchr(f, '[');
    if (br) {
        char *close = strchr(br, ']');
        if (!close || close[1])
            return err_set(e, "the hand: '[' without a closing ']' at the end of the board");
        *close = '\0';
        *br = '\0';
        hand = br + 1;
    }
    char *ranks[18];
    int n = 0;
    for (char *p = f;; p++) {
        if (n < 18)
            ranks[n] = p;
        n++;
        p = strchr(p, '/');
        if (!p)
            break;
        *p = '\0';
    }
    if (n == r->h + 1 && r->hands && !hand) { /* lichess: the hand as an extra rank */
        hand = ranks[r->h];
        n = r->h;
    }
    if (n != r->h)
        return err_set(e, "the board has %d ranks, not %d", n, r->h);
    for (int i = 0; i < r->h; i++) {
        int y = r->h - 1 - i, x = 0, last = -1;
        for (const char *p = ranks[i]; *p; p++) {
            if (isdigit((unsigned char)*p)) {
                int k = 0;
                while (isdigit((unsigned char)*p) && k <= 99)
                    k = k * 10 + (*p++ - '0');
                p--;
                if (k == 0)
                    return err_set(e, "rank %d: an empty run of 0 squares", y + 1);
                x += k;
                last = -1;
            } else if (*p == '*') { /* the duck (TURN-4) */
                if (x >= r->w)
                    return err_set(e, "rank %d ('%s') has more than %d squares", y + 1,
                                   ranks[i], r->w);
                s->board[FV_SQ(x, y)] = FV_DUCK;
                x++;
                last = -1;
            } else if (*p == '~') {
                if (last < 0)
                    return err_set(e, "rank %d: '~' not after a piece", y + 1);
                s->board[last] |= FV_PROMOTED;
            } else if (isalpha((unsigned char)*p)) {
                int t = FV_T(toupper((unsigned char)*p));
                if (!((r->defined >> t) & 1))
                    return err_set(e, "rank %d: no piece '%c' in the rule set", y + 1, *p);
                if (x >= r->w)
                    return err_set(e, "rank %d ('%s') has more than %d squares", y + 1,
                                   ranks[i], r->w);
                last = FV_SQ(x, y);
                s->board[last] = FV_CELL(islower((unsigned char)*p) ? 1 : 0, t);
                x++;
            } else {
                return err_set(e, "rank %d: '%c' is neither a piece letter nor a number",
                               y + 1, *p);
            }
        }
        if (x != r->w)
            return err_set(e, "rank %d ('%s') has %d squares, not %d", y + 1, ranks[i], x,
                           r->w);
    }
    if (hand) {
        if (!r->hands && *hand)
            return err_set(e, "the hand [%s]: the rule set has no hands (hands = yes)", hand);
        for (const char *p = hand; *p; p++) {
            if (!isalpha((unsigned char)*p) || !((r->defined >> FV_T(toupper((unsigned char)*p))) & 1))
                return err_set(e, "the hand: '%c' is no piece of the rule set", *p);
            uint8_t *h = &s->hand[islower((unsigned char)*p) ? 1 : 0][FV_T(toupper((unsigned char)*p))];
            if (*h == 255)
                return err_set(e, "the hand: more than 255 of '%c'", *p);
            (*h)++;
        }
    }
    return 0;
}

static int read_count(const char *f, long lo, long hi, long *out)
{
    char *end;
    if (!isdigit((unsigned char)*f))
        return -1;
    long v = strtol(f, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int fv_read(const FvRules *r, FvState *s, const char *text, Error *e)
{
    char buf[2048], *f[10], *save = NULL;
    int n = 0;
    memset(s, 0, sizeof *s);
    memset(s->castle_rook, FV_NO_SQ, sizeof s->castle_rook);
    memset(s->castle_king, FV_NO_SQ, sizeof s->castle_king);
    s->ep = s->ep_victim = FV_NO_SQ;
    s->fullmove = 1;
    if (!text)
        text = r->start;
    if (!*text)
        return err_set(e, "the rule set gives no start position (start = ...), and the "
                          "orthodox one needs an 8x8 board and the pieces P N B R Q K: "
                          "give a position");
    if (strlen(text) >= sizeof buf)
        return err_set(e, "a position string of at most %d characters", (int)sizeof buf - 1);
    strcpy(buf, text);
    for (char *t = strtok_r(buf, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
        if (n == 10)
            return err_set(e, "too many fields in the position string");
        f[n++] = t;
    }
    if (n < 2)
        return err_set(e, "a position string needs at least the board and the side to move "
                          "(w or b)");
    if (read_board(r, s, f[0], e))
        return -1;
    if ((f[1][0] == 'w' || f[1][0] == 'b') && (!f[1][1] || (f[1][1] == '*' && !f[1][2]))) {
        s->side = f[1][0] == 'b';
        s->duck_due = f[1][1] == '*'; /* that side places the duck first (TURN-4) */
    } else {
        return err_set(e, "the side to move is '%s', not w or b (w* or b*: that side places "
                       "the duck first)", f[1]);
    }
    if (fv_derive(r, s, e))
        return -1;
    if (n > 2 && strcmp(f[2], "-") && r->castling) /* castling = none: rights are void */
        for (const char *p = f[2]; *p; p++)
            if (read_castle(r, s, *p, e))
                return -1;
    if (n > 3 && strcmp(f[3], "-")) {
        const char *p = f[3];
        int sq = fv_parse_square(r, &p);
        if (sq < 0 || *p)
            return err_set(e, "the en passant square '%s' is not a square of the board", f[3]);
        const int mover = fv_mover(s); /* the side that may take it */
        int victim = mover ? sq + 16 : sq - 16;
        if (victim < 0 || FV_Y(victim) >= r->h || (s->board[sq] && s->board[sq] != FV_DUCK) ||
            s->board[victim] != FV_CELL(mover ^ 1, FV_T('P')))
            return err_set(e, "en passant on %s: no %s pawn has just stepped over it", f[3],
                           mover ? "white" : "black");
        int origin = 2 * sq - victim; /* where the pawn stepped two from */
        if (origin >= 0 && FV_Y(origin) < r->h &&
            ((r->ep_ranks[mover ^ 1] >> FV_Y(origin)) & 1)) {
            s->ep = (uint8_t)sq;
            s->ep_victim = (uint8_t)victim;
        }
    }
    int counters = 0;
    for (int i = 4; i < n; i++) {
        long a, b;
        char *plus = strchr(f[i] + 1, '+');
        if (plus && (f[i][0] == '+' || isdigit((unsigned char)f[i][0]))) {
            int given = f[i][0] == '+';
            *plus = '\0';
            if (!r->checks)
                return err_set(e, "'%s+%s': check counts, but the rule set counts no "
                               "checks (checks = n)", f[i], plus + 1);
            if (read_count(f[i] + given, 0, r->checks, &a) ||
                read_count(plus + 1, 0, r->checks, &b))
                return err_set(e, "check counts: each from 0 to %d", r->checks);
            s->checks[0] = (uint8_t)(given ? a : r->checks - a);
            s->checks[1] = (uint8_t)(given ? b : r->checks - b);
        } else if (counters == 0 && !read_count(f[i], 0, 9999, &a)) {
            s->halfmove = (uint16_t)a;
            counters++;
        } else if (counters == 1 && !read_count(f[i], 1, 9999, &a)) {
            s->fullmove = (uint16_t)a;
            counters++;
        } else {
            return err_set(e, "'%s' is not a move counter (half-moves 0..9999, then the move "
                           "number 1..9999)", f[i]);
        }
    }
    /* a pawn on its own last rank could never move */
    for (int x = 0; x < r->w; x++)
        for (int c = 0; c < 2; c++) {
            int sq = FV_SQ(x, r->last_rank[c]);
            if (s->board[sq] && FV_TYPE(s->board[sq]) == FV_T('P') &&
                FV_COLOR(s->board[sq]) == c) {
                char nm[4];
                fv_square_name(sq, nm);
                return err_set(e, "a %s pawn on %s, its last rank", c ? "black" : "white", nm);
            }
        }
    /* A side without a royal piece has lost it, unless the check rule
     * lets a side play without one (horde, PART-5); then it never had one. */
    for (int c = 0; c < 2; c++)
        s->had_royal[c] = s->nroyal[c] > 0 || (r->royal && (r->explode || !r->check));
    const int waits = fv_mover(s) ^ 1; /* the side whose move is not next */
    if (r->check && fv_in_check(r, s, waits))
        return err_set(e, "%s is in check with %s to move: the side not to move may not be "
                       "in check", waits ? "black" : "white", waits ? "white" : "black");
    return 0;
}

/* The castling letter of side c's wing w: K/Q for the outermost rook,
 * else its file. */
static char castle_letter(const FvRules *r, const FvState *s, int c, int w)
{
    int rsq = s->castle_rook[c][w], y = FV_Y(rsq), rf = FV_X(rsq);
    int outer = 1;
    for (int x = w ? rf + 1 : 0; x < (w ? r->w : rf); x++)
        if (s->board[FV_SQ(x, y)] == FV_CELL(c, FV_T('R')))
            outer = 0;
    char ch = outer ? (w ? 'K' : 'Q') : (char)('A' + rf);
    return c ? (char)tolower((unsigned char)ch) : ch;
}

void fv_write(const FvRules *r, const FvState *s, StrBuf *out)
{
    for (int y = r->h - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < r->w; x++) {
            int cell = s->board[FV_SQ(x, y)];
            if (!cell) {
                run++;
                continue;
            }
            if (run)
                sb_printf(out, "%d", run);
            run = 0;
            if (cell == FV_DUCK) {
                sb_putc(out, '*');
                continue;
            }
            char ch = (char)('A' + FV_TYPE(cell));
            sb_putc(out, FV_COLOR(cell) ? (char)tolower((unsigned char)ch) : ch);
            if (cell & FV_PROMOTED)
                sb_putc(out, '~');
        }
        if (run)
            sb_printf(out, "%d", run);
        if (y)
            sb_putc(out, '/');
    }
    if (r->hands) {
        static const char ORDER[] = "QRBNPACDEFGHIJLMOSTUVWXYZK";
        sb_putc(out, '[');
        for (int c = 0; c < 2; c++)
            for (const char *o = ORDER; *o; o++)
                for (int k = 0; k < s->hand[c][FV_T(*o)]; k++)
                    sb_putc(out, c ? (char)tolower((unsigned char)*o) : *o);
        sb_putc(out, ']');
    }
    sb_puts(out, s->side ? " b" : " w");
    sb_puts(out, s->duck_due ? "* " : " ");
    int any = 0;
    for (int c = 0; c < 2; c++)
        for (int w = 1; w >= 0; w--)
            if (s->castle_rook[c][w] != FV_NO_SQ) {
                sb_putc(out, castle_letter(r, s, c, w));
                any = 1;
            }
    if (!any)
        sb_putc(out, '-');
    if (s->ep != FV_NO_SQ) {
        char nm[4];
        fv_square_name(s->ep, nm);
        sb_printf(out, " %s", nm);
    } else {
        sb_puts(out, " -");
    }
    if (r->checks)
        sb_printf(out, " %d+%d", s->checks[0] >= r->checks ? 0 : r->checks - s->checks[0],
                  s->checks[1] >= r->checks ? 0 : r->checks - s->checks[1]);
    sb_printf(out, " %d %d", s->halfmove, s->fullmove);
}
