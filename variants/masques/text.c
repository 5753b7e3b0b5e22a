/*
 * text.c -- Masqués actions as text: writing them (machine and record
 * forms of docs/MASQUES.md), reading what a player types (matched against
 * the seat's legal list, with a message that says why when it is not
 * there; SAN gets what to type instead), the `arrange` sugar (one text,
 * sixteen placements) and the history as each seat may read it (the
 * enemy's placements hidden).
 *
 * Invariant: parse only ever returns an entry of the legal list it was
 * given, and its refusals never name a figure the typing seat may not
 * know (they speak of "the masked piece"): they are built from the
 * seat's own pieces, its legal list and public facts only.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mq.h"

/* ---- Writing ------------------------------------------------------------- */

static void put_squares(const MqState *s, uint64_t set, StrBuf *out)
{
    char sq[3];
    for (int q = 0; q < 64; q++) {
        int id = s->at[q];
        if (id >= 0 && (set & ((uint64_t)1 << id)))
            sb_printf(out, " %s", mq_sq(q, sq));
    }
}

static char lower_letter(int fig)
{
    return (char)tolower((unsigned char)figure_letter(fig));
}

static void format_reveal(const MqState *s, const Action *a, int style, StrBuf *out)
{
    char f[3], t[3];
    int from = mq_sq_of(a->from), to = mq_sq_of(a->to);
    mq_sq(from, f);
    mq_sq(to, t);
    if (s->phase == PH_ANSWER || s->phase == PH_BATTLE) {
        sb_puts(out, "reveal");
        if (a->figure)
            sb_printf(out, " =%c", figure_letter(a->figure));
        return;
    }
    if (from == to && a->figure) { /* reveal to promote (MASQ-3) */
        sb_printf(out, "reveal %s=%c", f, figure_letter(a->figure));
        return;
    }
    sb_puts(out, "reveal ");
    int id = s->at[from];
    if (style == FMT_RECORD && id >= 0)
        sb_putc(out, figure_letter(s->pc[id].fig));
    sb_puts(out, f);
    if (from != to)
        sb_puts(out, t);
    if (a->figure)
        sb_putc(out, lower_letter(a->figure));
}

void mq_format(const Game *g, const void *st, const Action *a, int style,
               StrBuf *out)
{
    const MqState *s = st;
    char f[3], t[3];
    (void)g;
    switch (a->kind) {
    case ACT_PLACE:
        if (a->amount == SETUP_STANDARD)
            sb_puts(out, "standard");
        else if (a->amount == SETUP_RANDOM)
            sb_puts(out, "random");
        else /* a placement made by an arrangement says so, so that a record
              * replays it with the arrangement's one message (MQ_NOTE_ARRANGE) */
            sb_printf(out, "%s %c %s",
                      style == FMT_RECORD && a->note == MQ_NOTE_ARRANGE ? "arrange" : "place",
                      figure_letter(a->figure), mq_sq(mq_sq_of(a->to), t));
        break;
    case ACT_MOVE:
        sb_printf(out, "%s%s", mq_sq(mq_sq_of(a->from), f), mq_sq(mq_sq_of(a->to), t));
        if (a->figure)
            sb_putc(out, lower_letter(a->figure));
        break;
    case ACT_REVEAL:
        format_reveal(s, a, style, out);
        break;
    case ACT_ANNOUNCE:
        sb_printf(out, "announce %s %s", a->amount == ANN_MATE ? "mate" : "check",
                  mq_sq(mq_sq_of(a->to), t));
        break;
    case ACT_PASS:
        sb_puts(out, s->phase == PH_ANSWER ? "keep" : "pass");
        break;
    case ACT_FOLD:
        sb_puts(out, s->phase == PH_BATTLE ? "concede" : "fold");
        break;
    case ACT_BID:
        sb_printf(out, "bid %d", a->amount);
        break;
    case ACT_CALL:
        sb_puts(out, "call");
        break;
    case ACT_GIVEUP:
        sb_puts(out, "give");
        put_squares(s, a->set, out);
        break;
    default:
        sb_puts(out, action_kind_name(a->kind));
        break;
    }
}

void mq_history_text(const Game *g, const Action *a, const char *text, int seat,
                     StrBuf *out)
{
    (void)g;
    if (a->kind == ACT_PLACE && a->seat != seat) {
        const char *who = a->seat < 2 ? MQ_SIDE_NAMES[a->seat] : "a side";
        sb_printf(out, "%s arranges %s", who,
                  a->amount == SETUP_PLACE ? "a piece" : "its pieces");
        return;
    }
    sb_puts(out, text);
}

/* ---- Reading ------------------------------------------------------------- */

/* Lower case, commas as blanks, single spaces: the form both the typed
 * text and the listed texts are compared in. */
static void normalize(const char *in, char *out, size_t n)
{
    size_t k = 0;
    int space = 0;
    for (const char *c = in; *c && k + 2 < n; c++) {
        char ch = (char)tolower((unsigned char)*c);
        if (ch == ',' || isspace((unsigned char)ch)) {
            space = k > 0;
            continue;
        }
        if (space)
            out[k++] = ' ';
        space = 0;
        out[k++] = ch;
    }
    out[k] = '\0';
}

/* Words people also type: O-O, "check e5", "raise 5", "reveal q". */
static void synonyms(const MqState *s, const char *in, char *out, size_t n)
{
    int back = s->side == MQ_WHITE ? 1 : 8;
    if (!strcmp(in, "o-o") || !strcmp(in, "0-0"))
        snprintf(out, n, "e%dg%d", back, back);
    else if (!strcmp(in, "o-o-o") || !strcmp(in, "0-0-0"))
        snprintf(out, n, "e%dc%d", back, back);
    else if (!strncmp(in, "check ", 6) || !strncmp(in, "mate ", 5))
        snprintf(out, n, "announce %s", in);
    else if (!strncmp(in, "raise ", 6))
        snprintf(out, n, "bid %s", in + 6);
    else if (!strncmp(in, "reveal ", 7) && strlen(in) == 8 && isalpha((unsigned char)in[7]) &&
             (s->phase == PH_ANSWER || s->phase == PH_BATTLE))
        snprintf(out, n, "reveal =%c", in[7]);
    else if (!strcmp(in, "give up"))
        snprintf(out, n, "give");
    else
        snprintf(out, n, "%s", in);
}

/* "give e4 a2": the set of pieces named, or -1 with the square at fault. */
static int read_give(const MqState *s, const char *t, uint64_t *set, int *bad)
{
    *set = 0;
    const char *c = t + 4;
    while (*c == ' ')
        c++;
    while (*c) {
        int sq;
        if (mq_parse_sq(c, &sq) || (c[2] && c[2] != ' ')) {
            *bad = -1;
            return -1;
        }
        int id = s->at[sq];
        if (id < 0 || s->pc[id].side != s->loser) {
            *bad = sq;
            return -1;
        }
        *set |= (uint64_t)1 << id;
        c += 2;
        while (*c == ' ')
            c++;
    }
    return 0;
}

static int why_giveup(const Game *g, const MqState *s, const char *text,
                      const char *t, Error *e)
{
    uint64_t set;
    int bad;
    char sq[3];
    int L = s->loser;
    int battler = s->pc[s->att].side == L ? s->att : s->def;
    if (strncmp(t, "give", 4) || (t[4] && t[4] != ' '))
        return err_set(e, "%s: %s must now give up pieces: give SQ SQ ... (worth at "
                       "least %d, the %s on %s among them)", text, MQ_SIDE_NAMES[L],
                       s->bid, MQ_FIG_NAMES[s->pc[battler].fig],
                       mq_sq(s->pc[battler].sq, sq));
    if (read_give(s, t, &set, &bad))
        return bad < 0 ? err_set(e, "%s: name the pieces by their squares: give e4 a2", text)
                       : err_set(e, "%s: %s holds no piece of yours", text, mq_sq(bad, sq));
    int total = 0;
    for (int i = 0; i < MQ_NPIECES; i++)
        if (set & ((uint64_t)1 << i)) {
            if (s->pc[i].fig == FIG_KING)
                return err_set(e, "%s: the King is never given up", text);
            total += mq_value(g, s->pc[i].fig);
        }
    if (!(set & ((uint64_t)1 << battler)))
        return err_set(e, "%s: the %s on %s that lost the battle must be among them",
                       text, MQ_FIG_NAMES[s->pc[battler].fig], mq_sq(s->pc[battler].sq, sq));
    if (total < s->bid)
        return err_set(e, "%s: the pieces given must be worth at least %d (these are "
                       "worth %d)", text, s->bid, total);
    for (int i = 0; i < MQ_NPIECES; i++)
        if (i != battler && (set & ((uint64_t)1 << i)) &&
            total - mq_value(g, s->pc[i].fig) >= s->bid)
            return err_set(e, "%s: too much: the %s on %s can be left out and the rest "
                           "still covers %d", text, MQ_FIG_NAMES[s->pc[i].fig],
                           mq_sq(s->pc[i].sq, sq), s->bid);
    return err_set(e, "%s is not a give-up open now", text);
}

static int why_bid(const Game *g, const MqState *s, const char *text, const char *t,
                   Error *e)
{
    int thr = mq_threshold(g), n;
    char extra;
    if (sscanf(t, "bid %d%c", &n, &extra) == 1) {
        if (s->bid == thr)
            return err_set(e, "%s: the all-in (%d) is on the table: call or fold", text, thr);
        if (n <= s->bid)
            return err_set(e, "%s: the bid must be higher than %d", text, s->bid);
        if (n > thr)
            return err_set(e, "%s: the highest bid is the all-in, %d", text, thr);
        return err_set(e, "%s: a bid is a whole number from 1 to %d", text, thr);
    }
    if (!strcmp(t, "call"))
        return err_set(e, "call: there is no bid to call yet: bid (1 to %d) or fold", thr);
    if (s->bid == 0)
        return err_set(e, "%s: a masked battle is under way: %s bids (bid 1 to bid %d) "
                       "or folds", text, MQ_SIDE_NAMES[mq_decider(s)], thr);
    return err_set(e, "%s: a masked battle is under way: %s bids higher than %d, "
                   "calls, or folds", text, MQ_SIDE_NAMES[mq_decider(s)], s->bid);
}

static int why_setup(const MqState *s, int seat, const char *text, const char *t,
                     Error *e)
{
    char fl, f, r, extra;
    if (!strcmp(t, "standard"))
        return err_set(e, "standard: some of your pieces are placed already: place the "
                       "rest (place F SQ) or draw them at random (random)");
    if (sscanf(t, "place %c %c%c%c", &fl, &f, &r, &extra) == 3) {
        int fig = figure_from_letter(fl);
        int sq = (r - '1') * 8 + (f - 'a');
        if (fig == FIG_NONE || fig == FIG_HIDDEN)
            return err_set(e, "%s: '%c' is not a piece (K Q R B N P)", text, fl);
        if (f < 'a' || f > 'h' || r < '1' || r > '8')
            return err_set(e, "%s: '%c%c' is not a square", text, f, r);
        if (!mq_home_rank(seat, mq_rank(sq)))
            return err_set(e, "%s: your pieces go on your home ranks (%s)", text,
                           seat == MQ_WHITE ? "1 and 2" : "7 and 8");
        if (s->at[sq] >= 0)
            return err_set(e, "%s: %c%c is taken already", text, f, r);
        return err_set(e, "%s: you have no %s left in hand", text, MQ_FIG_NAMES[fig]);
    }
    return err_set(e, "%s: %s is arranging its pieces (%d in hand): arrange "
                   "RNBQKBNR/PPPPPPPP, standard, random, or place F SQ", text,
                   MQ_SIDE_NAMES[seat], mq_in_hand(s, seat));
}

/* Why the move typed is not one of the legal moves. */
static int why_move(const Game *g, const MqState *s, const char *text, const char *t,
                    Error *e)
{
    int reveal = !strncmp(t, "reveal ", 7);
    const char *m = reveal ? t + 7 : t;
    int named = 0; /* "reveal Ng1f3": the figure is checked below */
    if (reveal && isalpha((unsigned char)m[0]) && m[1] >= 'a' && m[1] <= 'h' &&
        m[2] >= '1' && m[2] <= '8') {
        named = figure_from_letter(m[0]);
        m++;
    }
    char f[3] = {0}, to[3] = {0};
    int from;
    if (mq_parse_sq(m, &from))
        return err_set(e, "%s: not an action here; %s to move: a move (e2e4), "
                       "reveal g1f3, castling (e1g1), ...", text, MQ_SIDE_NAMES[s->side]);
    memcpy(f, m, 2);
    int id = s->at[from];
    if (id < 0)
        return err_set(e, "%s: there is no piece on %s", text, f);
    const MqPiece *p = &s->pc[id];
    if (p->side != s->side)
        return err_set(e, "%s: the piece on %s is not yours", text, f);
    if (reveal && !mq_masked(p))
        return err_set(e, "%s: your %s on %s is revealed already: move it without "
                       "'reveal'", text, MQ_FIG_NAMES[p->fig], f);
    if (named && named != p->fig)
        return err_set(e, "%s: the piece on %s is your %s", text, f, MQ_FIG_NAMES[p->fig]);
    if (reveal && !m[2] && !game_param(g, MP_REVEAL_ALONE))
        return err_set(e, "%s: a reveal comes with a move of the piece (reveal %s..); "
                       "revealing alone is a house rule (reveal_alone=on)", text, f);
    int last = mq_rank(from) == mq_last_rank(p->side);
    if (mq_masked(p) && !reveal && last)
        return err_set(e, "%s: a masked piece on its last rank cannot move until "
                       "revealed (a Pawn: reveal %s=Q; any other: reveal and move it)",
                       text, f);
    if (strlen(m) >= 4 && m[2] >= 'a' && m[2] <= 'h' && m[3] >= '1' && m[3] <= '8')
        memcpy(to, m + 2, 2);
    else if (!(reveal && m[2] == '=') && m[2])
        return err_set(e, "%s: write a move as from and to squares (e2e4)", text);
    int tsq = to[0] ? (to[1] - '1') * 8 + (to[0] - 'a') : from;
    MqMove all[MQ_MAX_MOVES];
    int n = mq_gen_moves(g, s, s->side, GEN_FULL | GEN_PSEUDO, all);
    int fig = reveal || !mq_masked(p) ? p->fig : 0;
    int pawnlike = fig == 0 || fig == FIG_PAWN;
    int promotes = fig == FIG_PAWN && mq_rank(tsq) == mq_last_rank(p->side);
    for (int i = 0; i < n; i++) {
        if (all[i].from != from || all[i].to != tsq ||
            ((all[i].flags & MV_REVEAL) != 0) != reveal)
            continue;
        if (promotes && (!m[4] || !strchr("qrbn", m[4]) || m[5]))
            return err_set(e, "%s: say what the Pawn becomes: %s%s%sq (or r, b, n)", text,
                           reveal ? "reveal " : "", f, to);
        return err_set(e, "%s: your King would be attacked after it (MASQ-14%s)", text,
                       (all[i].flags & MV_BATTLE) ? ": a battle is judged as if won" : "");
    }
    if (fig == 0 && to[0]) {
        int d = (tsq - from) * (p->side == MQ_WHITE ? 1 : -1);
        int df = mq_file(tsq) - mq_file(from);
        if (!(d == 8 || d == 16 || ((d == 7 || d == 9) && (df == 1 || df == -1))))
            return err_set(e, "%s: a masked piece moves like a pawn: one square forward "
                           "(two from its setup square), taking one square diagonally "
                           "forward", text);
    }
    const char *who = mq_masked(p) && !reveal ? "your masked piece" : "your";
    char what[64];
    if (fig)
        snprintf(what, sizeof what, "%s %s", who, MQ_FIG_NAMES[fig]);
    else
        snprintf(what, sizeof what, "%s", who);
    if (pawnlike && to[0])
        return err_set(e, "%s: %s on %s cannot go to %s (the way is blocked, nothing "
                       "to take there, or no two-step once it has moved)", text, what, f, to);
    return err_set(e, "%s: %s on %s cannot go to %s", text, what, f,
                   to[0] ? to : "there");
}

/* ---- SAN typed where Masqués takes squares ----------------------------- */

/* What a SAN text asks for: a figure (0: a pawn move), an optional origin
 * file/rank, the target, a promotion. */
typedef struct SanAsk {
    int fig, file, rank, to, promo, pawn_capture;
} SanAsk;

/* Read t (lower case) as SAN: "e4", "exd5", "e8=q", "nf3", "nbd2", "qxd5+",
 * "ng1f3".  0 and *out, or -1 when t is not SAN or is a move by squares. */
static int san_read(const char *t, SanAsk *out)
{
    char b[16];
    size_t n = strlen(t);
    int sq;
    if (n < 2 || n >= sizeof b)
        return -1;
    if (!mq_parse_sq(t, &sq) && n >= 4 && !mq_parse_sq(t + 2, &sq))
        return -1; /* e2e4: squares already */
    memcpy(b, t, n + 1);
    while (n && strchr("+#!?", b[n - 1]))
        b[--n] = '\0';
    memset(out, 0, sizeof *out);
    out->file = out->rank = -1;
    if (n >= 4 && b[n - 2] == '=' && strchr("qrbn", b[n - 1])) {
        out->promo = figure_from_letter(b[n - 1]);
        b[n -= 2] = '\0';
    }
    if (n < 2 || mq_parse_sq(b + n - 2, &out->to))
        return -1;
    b[n -= 2] = '\0';
    const char *c = b;
    if (*c && strchr("kqrbn", *c) && !(c[0] == 'b' && c[1] == 'x' && !c[2]))
        out->fig = figure_from_letter(*c++);
    else if (c[0] == 'b' && c[1] == 'x')
        out->pawn_capture = 1; /* bxc4: a Bishop, or a pawn from the b-file */
    if (*c >= 'a' && *c <= 'h')
        out->file = *c++ - 'a';
    if (*c >= '1' && *c <= '8')
        out->rank = *c++ - '1';
    if (*c == 'x')
        c++;
    if (*c || (!out->fig && out->rank >= 0))
        return -1;
    if (out->pawn_capture)
        out->fig = FIG_BISHOP;
    return 0;
}

/* Does legal action a (of the seat to move) fit the SAN ask?  Only the
 * seat's own piece is looked at, so its own figures decide. */
static int san_fits(const MqState *s, const Action *a, const SanAsk *q)
{
    if ((a->kind != ACT_MOVE && a->kind != ACT_REVEAL) || coord_eq(a->from, a->to))
        return 0;
    int from = mq_sq_of(a->from);
    const MqPiece *p = &s->pc[s->at[from]];
    int pawnlike = a->kind == ACT_MOVE ? mq_cat(p) == 0 || p->fig == FIG_PAWN
                                       : p->fig == FIG_PAWN;
    if (mq_sq_of(a->to) != q->to || (q->promo && a->figure != q->promo))
        return 0;
    if (q->rank >= 0 && mq_rank(from) != q->rank)
        return 0;
    if (q->pawn_capture && pawnlike && mq_file(from) == 1)
        return 1;
    if (q->file >= 0 && mq_file(from) != q->file)
        return 0;
    return q->fig ? p->fig == q->fig : pawnlike;
}

/* SAN where Masqués takes squares: say what to type, with the seat's own
 * matching actions when there are some (docs/MASQUES.md "Actions"). */
static int san_hint(const Game *g, const MqState *s, const ActionList *legal,
                    const char *text, const SanAsk *q, Error *e)
{
    StrBuf tries = STRBUF_INIT, b = STRBUF_INIT;
    int found = 0;
    for (int pass = 0; pass < 2; pass++) /* plain moves first, then reveals */
        for (int i = 0; i < legal->n && found < 4; i++) {
            const Action *a = &legal->v[i];
            if ((a->kind == ACT_REVEAL) != pass || !san_fits(s, a, q))
                continue;
            sb_reset(&b);
            mq_format(g, s, a, FMT_MACHINE, &b);
            sb_printf(&tries, "%s%s", found++ ? " or " : "", sb_str(&b));
        }
    char to[3];
    mq_sq(q->to, to);
    if (found)
        err_set(e, "%s: masked pieces move by their squares: e2e4; to reveal a piece "
                "and move it: reveal g1f3; here: %s", text, sb_str(&tries));
    else
        err_set(e, "%s: masked pieces move by their squares: e2e4; to reveal a piece "
                "and move it: reveal g1f3; no %s of yours can go to %s now", text,
                q->fig ? MQ_FIG_NAMES[q->fig] : "piece moving like a pawn", to);
    sb_free(&tries);
    sb_free(&b);
    return -1;
}

static int why_not(const Game *g, const MqState *s, int seat, const char *text,
                   const char *t, Error *e)
{
    char sq[3];
    switch (s->phase) {
    case PH_SETUP:
        return why_setup(s, seat, text, t, e);
    case PH_PLAY:
        if (!strcmp(t, "e1g1") || !strcmp(t, "e1c1") || !strcmp(t, "e8g8") ||
            !strcmp(t, "e8c8"))
            return err_set(e, "%s: castling needs the King and Rook on their squares "
                           "since setup, the squares between empty, the passing and "
                           "landing squares not attacked, and a revealed King not in "
                           "check", text);
        {
            static const char *const WORDS[] = {"bid", "call", "fold", "give", "keep",
                                                "concede", "announce", "pass"};
            for (size_t i = 0; i < sizeof WORDS / sizeof *WORDS; i++)
                if (!strncmp(t, WORDS[i], strlen(WORDS[i])))
                    return err_set(e, "%s: there is no battle, announcement or bid "
                                   "under way: %s to move", text, MQ_SIDE_NAMES[s->side]);
        }
        return why_move(g, s, text, t, e);
    case PH_ANNOUNCE:
        if (!strncmp(t, "announce mate ", 14))
            return err_set(e, "%s: a mask mate needs a threatened masked piece its owner "
                           "cannot take out of the threat next turn", text);
        return err_set(e, "%s: %s may announce a mask check on a masked piece it newly "
                       "threatens (announce check SQ), a mask mate (announce mate SQ), "
                       "or pass", text, MQ_SIDE_NAMES[s->side]);
    case PH_ANSWER:
        return err_set(e, "%s: %s answers the mask %s on %s: %s", text,
                       MQ_SIDE_NAMES[s->side], s->ann_mate ? "mate" : "check",
                       mq_sq(s->pc[s->ann_target].sq, sq),
                       s->ann_mate ? "reveal =Q (or =R, =B, =N)" : "reveal or keep");
    case PH_BATTLE:
        return err_set(e, "%s: %s must answer the battle on %s: reveal or concede", text,
                       MQ_SIDE_NAMES[s->side ^ 1], mq_sq(s->pc[s->def].sq, sq));
    case PH_BID:
        return why_bid(g, s, text, t, e);
    case PH_GIVEUP:
        return why_giveup(g, s, text, t, e);
    default:
        return err_set(e, "%s: the game is over", text);
    }
}

int mq_parse(const Game *g, const void *st, const ActionList *legal,
             const char *text, Action *out, Error *e)
{
    const MqState *s = st;
    char norm[160], want[192];
    normalize(text, norm, sizeof norm);
    /* "arrange K e1": one placement of an arrangement, as records write it */
    int arranged = !strncmp(norm, "arrange ", 8) && !strchr(norm, '/');
    if (arranged) {
        memmove(norm + 6, norm + 8, strlen(norm + 8) + 1);
        memcpy(norm, "place ", 6);
    }
    synonyms(s, norm, want, sizeof want);
    StrBuf b = STRBUF_INIT;
    for (int style = FMT_MACHINE; style >= FMT_RECORD; style--)
        for (int i = 0; i < legal->n; i++) {
            char cand[192];
            sb_reset(&b);
            mq_format(g, s, &legal->v[i], style, &b);
            normalize(sb_str(&b), cand, sizeof cand);
            if (!strcmp(cand, want) && (!arranged || legal->v[i].kind == ACT_PLACE)) {
                *out = legal->v[i];
                if (arranged)
                    out->note = MQ_NOTE_ARRANGE;
                sb_free(&b);
                return 0;
            }
        }
    sb_free(&b);
    /* a give-up may name its squares in any order */
    if (s->phase == PH_GIVEUP && !strncmp(want, "give ", 5)) {
        uint64_t set;
        int bad;
        if (!read_give(s, want, &set, &bad))
            for (int i = 0; i < legal->n; i++)
                if (legal->v[i].kind == ACT_GIVEUP && legal->v[i].set == set) {
                    *out = legal->v[i];
                    return 0;
                }
    }
    int seat = legal->n ? legal->v[0].seat : mq_decider(s);
    SanAsk ask;
    if (s->phase == PH_PLAY && seat == s->side && !san_read(want, &ask))
        return san_hint(g, s, legal, text, &ask, e);
    return why_not(g, s, seat, text, want, e);
}

/* ---- The arrangement sugar (MASQ-1) -------------------------------------- */

int mq_parse_seq(const Game *g, const void *st, int seat, const char *text,
                 ActionList *out, Error *e)
{
    const MqState *s = st;
    char norm[160];
    (void)g;
    str_copy(norm, sizeof norm, text);
    str_trim(norm);
    if (strncmp(norm, "arrange", 7) && strncmp(norm, "Arrange", 7))
        return 0;
    if (norm[7] && !isspace((unsigned char)norm[7]))
        return 0;
    const char *arg = norm + 7;
    while (isspace((unsigned char)*arg))
        arg++;
    if (*arg && !strchr(arg, '/') && strchr(arg, ' '))
        return 0; /* "arrange K e1": one placement (mq_parse) */
    if (s->phase != PH_SETUP)
        return err_set(e, "%s: the setup is over", norm);
    if (seat < 0 || seat > 1)
        return err_set(e, "%s: only white and black arrange pieces", norm);
    if (mq_in_hand(s, seat) < 16)
        return err_set(e, "%s: some of your pieces are placed already: place the rest "
                       "(place F SQ) or draw them at random (random)", norm);
    const char *slash = strchr(arg, '/');
    if (!*arg || !slash || strchr(slash + 1, '/'))
        return err_set(e, "%s: give the back rank then the front rank, a to h: arrange "
                       "RNBQKBNR/PPPPPPPP", norm);
    int back = (int)(slash - arg), front = (int)strlen(slash + 1);
    if (back != 8 || front != 8)
        return err_set(e, "%s: the %s rank has %d pieces, not 8", norm,
                       back != 8 ? "back" : "front", back != 8 ? back : front);
    int count[7] = {0}, figs[16];
    for (int i = 0; i < 16; i++) {
        char c = i < 8 ? arg[i] : slash[1 + i - 8];
        int fig = figure_from_letter(c);
        if (fig == FIG_NONE || fig == FIG_HIDDEN)
            return err_set(e, "%s: '%c' is not a piece (K Q R B N P)", norm, c);
        figs[i] = fig;
        count[fig]++;
    }
    for (int f = FIG_PAWN; f <= FIG_KING; f++)
        if (count[f] != MQ_ARMY[f])
            return err_set(e, "%s: %d %s%s; an army has %d", norm, count[f],
                           MQ_FIG_NAMES[f], count[f] == 1 ? "" : "s", MQ_ARMY[f]);
    for (int i = 0; i < 16; i++) {
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_PLACE;
        a.seat = (uint8_t)seat;
        a.figure = (uint8_t)figs[i];
        a.to = mq_coord(mq_slot_square(seat, i));
        a.note = MQ_NOTE_ARRANGE; /* one line to the owner, not sixteen */
        al_push(out, &a);
    }
    return 1;
}
