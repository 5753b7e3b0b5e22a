/*
 * text.c -- Échecs ambigus actions as text: writing them (machine and
 * record forms) and reading what a player types.
 *
 *   naming     machine "f3"; record "f3" when the opponent will choose,
 *              "f3 (Ng1f3)" when one piece only could go (played at
 *              once), "e8 (King taken)" for the enemy King's square,
 *              and under the clock procedure (AMBI-7) "Ng1f3" when the
 *              mover proposed that piece (the record keeps proposals).
 *   choosing   machine "choose g1", "choose b7q"; record "choose Ng1",
 *              "choose Pb7=Q".
 *
 * Read: a square, or the record form of its naming; under the clock
 * procedure (AMBI-7) also a whole move in UCI or SAN, which names its
 * square and proposes the piece (Action.note).  In the choice: "choose"
 * and a from-square (with the figure letter and the promotion figure as
 * in either form, "choose" itself optional, or the whole move), and
 * "keep" for the proposal.
 *
 * Invariant: a text is only ever read as an entry of the legal list the
 * core passes; whatever does not match exactly one entry is an error that
 * says why and what may be typed instead.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "amb.h"
#include "../orthodox/bitboard.h"

static const AmbState *cst(const void *st) { return st; }

static char fig_letter_at(const Position *p, int sq)
{
    return p->board[sq] ? figure_letter(CH_FIG(p->board[sq])) : '?';
}

void amb_piece_text(const Position *p, Move m, StrBuf *out)
{
    char sq[3];
    sb_printf(out, "%c%s", fig_letter_at(p, MOVE_FROM(m)), chess_square_name(MOVE_FROM(m), sq));
    if (MOVE_IS_PROMO(m))
        sb_printf(out, "=%c", figure_letter(MOVE_PROMO_FIG(m)));
}

void amb_move_text(const Position *p, Move m, StrBuf *out)
{
    char from[3], to[3];
    sb_printf(out, "%c%s%s", fig_letter_at(p, MOVE_FROM(m)),
              chess_square_name(MOVE_FROM(m), from), chess_square_name(MOVE_TO(m), to));
    if (MOVE_IS_PROMO(m))
        sb_printf(out, "=%c", figure_letter(MOVE_PROMO_FIG(m)));
}

/* Machine form of a candidate: "g1", "b7q". */
static void cand_machine(Move m, StrBuf *out)
{
    char sq[3];
    sb_puts(out, chess_square_name(MOVE_FROM(m), sq));
    if (MOVE_IS_PROMO(m))
        sb_putc(out, (char)tolower((unsigned char)figure_letter(MOVE_PROMO_FIG(m))));
}

/* "g1 (Ng1), d2 (Nd2)"; a promoting pawn as "b7q b7r b7b b7n (Pb7)". */
static void cand_list(const Position *p, const Move *cand, int k, StrBuf *out)
{
    char sq[3];
    for (int i = 0; i < k; i++) {
        const int first = i == 0 || MOVE_FROM(cand[i - 1]) != MOVE_FROM(cand[i]);
        const int last = i == k - 1 || MOVE_FROM(cand[i + 1]) != MOVE_FROM(cand[i]);
        sb_puts(out, i == 0 ? "" : first ? ", " : " ");
        cand_machine(cand[i], out);
        if (last)
            sb_printf(out, " (%c%s)", fig_letter_at(p, MOVE_FROM(cand[i])),
                      chess_square_name(MOVE_FROM(cand[i]), sq));
    }
}

/* The moves of the side to move and the candidates for sq. */
static int moves_to(const Position *p, int sq, Move *cand)
{
    Move list[AMB_MAX_MOVES];
    const int n = amb_moves(p, list);
    return amb_candidates(list, n, sq, cand);
}

/* ---- Writing ------------------------------------------------------------- */

/* The candidate a naming proposes under the clock procedure (AMBI-7), or
 * -1: the note is untrusted, so it counts only as apply_name counts it
 * (clock on, an ambiguous square, one of its candidates). */
static int proposed_move(const Game *g, const Action *a, const Move *cand, int k)
{
    if (!(a->note & AMB_NOTE_PROPOSAL) || !game_param(g, AM_CLOCK) || k < 2)
        return -1;
    for (int i = 0; i < k; i++)
        if (cand[i] == (Move)(a->note & 0xFFFF))
            return i;
    return -1;
}

/* The record form of a naming: the square, what happened when one piece
 * only could go, and under the clock procedure the whole move proposed
 * ("Ng1f3"), so a record carries the proposal and reads back as it. */
static void format_name(const Game *g, const AmbState *s, const Action *a, int style,
                        StrBuf *out)
{
    char sq[3];
    const int to = (int)a->code & 63;
    if (style != FMT_RECORD || s->phase != AP_NAME) {
        sb_puts(out, chess_square_name(to, sq));
        return;
    }
    if (a->flags & AMB_KING) {
        sb_printf(out, "%s (King taken)", chess_square_name(to, sq));
        return;
    }
    Move cand[AMB_MAX_MOVES];
    const int k = moves_to(&s->pos, to, cand);
    const int p = proposed_move(g, a, cand, k);
    if (p >= 0) {
        amb_move_text(&s->pos, cand[p], out);
        return;
    }
    sb_puts(out, chess_square_name(to, sq));
    if (k == 1) {
        sb_puts(out, " (");
        amb_move_text(&s->pos, cand[0], out);
        sb_putc(out, ')');
    }
}

void amb_format(const Game *g, const void *st, const Action *a, int style, StrBuf *out)
{
    const AmbState *s = cst(st);
    if (a->kind == ACT_MOVE) {
        format_name(g, s, a, style, out);
    } else if (a->kind == ACT_CHOOSE) {
        sb_puts(out, "choose ");
        if (style == FMT_RECORD)
            amb_piece_text(&s->pos, (Move)a->code, out);
        else
            cand_machine((Move)a->code, out);
    } else {
        sb_puts(out, action_kind_name(a->kind));
    }
}

/* ---- Reading: shared pieces ----------------------------------------------- */

static int is_square(const char *t)
{
    return t[0] >= 'a' && t[0] <= 'h' && t[1] >= '1' && t[1] <= '8';
}

static int square_at(const char *t) { return CH_SQ(t[0] - 'a', t[1] - '1'); }

static int promo_fig(char c)
{
    const int f = figure_from_letter(c);
    return f >= FIG_KNIGHT && f <= FIG_QUEEN ? f : FIG_NONE;
}

/* Copy text without spaces, so "choose  Ng1" and "f3 ( Ng1f3 )" compare. */
static void squeeze(const char *text, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *c = text; *c && k + 1 < n; c++)
        if (!isspace((unsigned char)*c))
            buf[k++] = *c;
    buf[k] = '\0';
}

/* Does t start with word, in any case? */
static int starts_with(const char *t, const char *word)
{
    for (; *word; t++, word++)
        if (tolower((unsigned char)*t) != *word)
            return 0;
    return 1;
}

static int find_action(const ActionList *legal, const Action *want, Action *out)
{
    for (int i = 0; i < legal->n; i++)
        if (action_eq(&legal->v[i], want)) {
            *out = legal->v[i];
            return 0;
        }
    return -1;
}

/* ---- Reading in the naming phase ----------------------------------------- */

/* The squares the mover may name, for error messages. */
static void name_list(const ActionList *legal, StrBuf *out)
{
    char sq[3];
    for (int i = 0; i < legal->n; i++)
        if (legal->v[i].kind == ACT_MOVE)
            sb_printf(out, "%s%s", i ? " " : "",
                      chess_square_name((int)legal->v[i].code & 63, sq));
}

static int err_no_square(const AmbState *s, const ActionList *legal, const char *text,
                         int sq, Error *e)
{
    StrBuf b = STRBUF_INIT;
    char name[3];
    name_list(legal, &b);
    const int own = s->pos.board[sq] && CH_COLOR(s->pos.board[sq]) == s->pos.side;
    err_set(e, "%s: no %s piece can go to %s%s; name one of: %s", text,
            AMB_SIDE_NAMES[s->pos.side], chess_square_name(sq, name),
            own ? " (your own piece stands there)" : "", sb_str(&b));
    sb_free(&b);
    return -1;
}

/* A whole move, as the clock procedure reads it. */
typedef struct MoveQuery {
    int fig;            /* FIG_PAWN .. FIG_KING; FIG_NONE: whatever stands
                           on the from-square (UCI) */
    int file, rank;     /* of the from-square, -1 if not given */
    int to;
    int promo;          /* FIG_NONE if not given */
} MoveQuery;

/* UCI (g1f3, e7e8q, g1-f3) or SAN (Nf3, exd5, Nbd7, R1e2, e8=Q, Ng1f3, with
 * + # ! ? and e.p. marks).  Upper-case letters are pieces, lower-case
 * letters files.  0 if text has this shape. */
static int scan_move(const char *text, MoveQuery *q)
{
    char t[32];
    squeeze(text, t, sizeof t);
    size_t n = strlen(t);
    while (n && strchr("+#!?", t[n - 1]))
        t[--n] = '\0';
    if (n > 4 && strcmp(t + n - 4, "e.p.") == 0)
        t[n -= 4] = '\0';
    memset(q, 0, sizeof *q);
    q->file = q->rank = -1;
    q->fig = FIG_PAWN;
    if (n >= 4 && t[n - 1] == ')' && t[n - 3] == '(' && promo_fig(t[n - 2])) {
        q->promo = promo_fig(t[n - 2]);
        t[n -= 3] = '\0';
    } else if (n >= 3 && promo_fig(t[n - 1]) && isdigit((unsigned char)t[n - 2])) {
        q->promo = promo_fig(t[n - 1]);
        t[--n] = '\0';
        if (t[n - 1] == '=')
            t[--n] = '\0';
    } else if (n >= 4 && promo_fig(t[n - 1]) && t[n - 2] == '=') {
        q->promo = promo_fig(t[n - 1]);
        t[n -= 2] = '\0';
    }
    if (n < 2 || !is_square(t + n - 2))
        return -1;
    q->to = square_at(t + n - 2);
    size_t i = 0, end = n - 2;
    const int lettered = i < end && strchr("PNBRQK", t[i]) != NULL;
    if (lettered)
        q->fig = figure_from_letter(t[i++]);
    if (i < end && t[i] >= 'a' && t[i] <= 'h')
        q->file = t[i++] - 'a';
    if (i < end && t[i] >= '1' && t[i] <= '8')
        q->rank = t[i++] - '1';
    if (i < end && strchr("x-:", t[i]))
        i++;
    if (!lettered && q->file >= 0 && q->rank >= 0)
        q->fig = FIG_NONE; /* UCI: the from-square says which piece */
    /* A bare square is a naming, not a move. */
    return i == end && (q->file >= 0 || q->rank >= 0 || q->fig != FIG_PAWN || q->promo)
               ? 0 : -1;
}

static int query_fits(const Position *p, Move m, const MoveQuery *q)
{
    const int from = MOVE_FROM(m);
    return (q->fig == FIG_NONE || CH_FIG(p->board[from]) == q->fig) && (q->file < 0 || (from & 7) == q->file) &&
           (q->rank < 0 || (from >> 3) == q->rank) &&
           (q->promo == FIG_NONE || MOVE_PROMO_FIG(m) == q->promo);
}

/* How many pieces k candidates are (a promoting pawn's four figures are
 * one piece; candidates come ordered by from-square). */
static int piece_count(const Move *cand, int k)
{
    int pieces = 0;
    for (int i = 0; i < k; i++)
        pieces += i == 0 || MOVE_FROM(cand[i]) != MOVE_FROM(cand[i - 1]);
    return pieces;
}

/* "Ng1 or Pf2": the pieces among k candidates, each once. */
static void piece_list(const Position *p, const Move *cand, int k, StrBuf *out)
{
    char sq[3];
    const int pieces = piece_count(cand, k);
    for (int i = 0, n = 0; i < k; i++) {
        if (i && MOVE_FROM(cand[i]) == MOVE_FROM(cand[i - 1]))
            continue;
        n++;
        sb_puts(out, n == 1 ? "" : n == pieces ? " or " : ", ");
        sb_printf(out, "%c%s", fig_letter_at(p, MOVE_FROM(cand[i])),
                  chess_square_name(MOVE_FROM(cand[i]), sq));
    }
}

/* A whole move typed without the clock procedure (AMBI-1, AMBI-2): say
 * what to type instead, and who then picks the piece (and the figure). */
static int err_whole_move(const AmbState *s, const ActionList *legal, const char *text,
                          int to, const Move *cand, int k, Error *e)
{
    const char *us = AMB_SIDE_NAMES[s->pos.side], *them = AMB_SIDE_NAMES[s->pos.side ^ 1];
    StrBuf b = STRBUF_INIT;
    char sq[3];
    chess_square_name(to, sq);
    if (k == 0) {
        name_list(legal, &b);
        err_set(e, "%s: in Échecs ambigus you name only a square, and no %s piece can go "
                "to %s; name one of: %s", text, us, sq, sb_str(&b));
    } else if (k == 1) {
        amb_move_text(&s->pos, cand[0], &b);
        err_set(e, "%s: in Échecs ambigus you name only the square: type %s; only %s can go "
                "there (AMBI-1; a whole move is read only with the clock procedure, "
                "--param clock=on)", text, sq, sb_str(&b));
    } else if (piece_count(cand, k) == 1) { /* a lone promoting pawn */
        piece_list(&s->pos, cand, k, &b);
        err_set(e, "%s: in Échecs ambigus you name only the square: type %s; only %s can go "
                "there, and %s chooses the figure it becomes (AMBI-1, AMBI-3; a whole move "
                "is read only with the clock procedure, --param clock=on)", text, sq,
                sb_str(&b), them);
    } else {
        const int promo = MOVE_IS_PROMO(cand[0]) || MOVE_IS_PROMO(cand[k - 1]);
        piece_list(&s->pos, cand, k, &b);
        err_set(e, "%s: in Échecs ambigus you name only the square: type %s; %s chooses "
                "which of your pieces goes there (%s)%s (AMBI-1, AMBI-2%s; a whole move is "
                "read only with the clock procedure, --param clock=on)", text, sq, them,
                sb_str(&b), promo ? " and the figure a pawn becomes" : "",
                promo ? ", AMBI-3" : "");
    }
    sb_free(&b);
    return -1;
}

/* The clock procedure: the whole move m names its square, proposes m. */
static int read_whole_move(const Game *g, const AmbState *s, const ActionList *legal,
                           const char *text, const MoveQuery *q, Action *out, Error *e)
{
    Move cand[AMB_MAX_MOVES], fit[AMB_MAX_MOVES];
    char to[3];
    const int k = moves_to(&s->pos, q->to, cand);
    int nf = 0;
    chess_square_name(q->to, to);
    if (!game_param(g, AM_CLOCK))
        return err_whole_move(s, legal, text, q->to, cand, k, e);
    if (k == 0)
        return err_no_square(s, legal, text, q->to, e);
    for (int i = 0; i < k; i++)
        if (query_fits(&s->pos, cand[i], q))
            fit[nf++] = cand[i];
    StrBuf b = STRBUF_INIT;
    int rc = -1;
    if (nf == 0) {
        cand_list(&s->pos, cand, k, &b);
        err_set(e, "%s: no such move of %s; the pieces that can go to %s: %s", text,
                AMB_SIDE_NAMES[s->pos.side], to, sb_str(&b));
    } else if (MOVE_IS_PROMO(fit[0]) && q->promo == FIG_NONE) {
        err_set(e, "%s: the pawn promotes on %s: add the figure you propose (q, r, b or n); "
                "your opponent still picks it (AMBI-3)", text, to);
    } else if (nf > 1) {
        for (int i = 0; i < nf; i++) {
            sb_puts(&b, i ? (i == nf - 1 ? " or " : ", ") : "");
            amb_move_text(&s->pos, fit[i], &b);
        }
        err_set(e, "%s is ambiguous: %s; write the from-square (or name only the square: %s)",
                text, sb_str(&b), to);
    } else {
        for (int i = 0; i < legal->n && rc; i++)
            if (legal->v[i].kind == ACT_MOVE && (int)legal->v[i].code == q->to) {
                *out = legal->v[i];
                /* a proposal only where the opponent chooses (AMBI-7): an
                 * unambiguous square goes at once and keeps no note, so
                 * the record (which then writes the square) replays it */
                out->note = k >= 2 ? AMB_NOTE_PROPOSAL | fit[0] : 0;
                rc = 0;
            }
        if (rc)
            err_set(e, "%s: %s may not be named now", text, to);
    }
    sb_free(&b);
    return rc;
}

static int parse_name(const Game *g, const AmbState *s, const ActionList *legal,
                      const char *text, Action *out, Error *e)
{
    char t[64];
    squeeze(text, t, sizeof t);
    for (size_t n = strlen(t); n > 2 && strchr("+#!?", t[n - 1]); n--)
        t[n - 1] = '\0'; /* "f3+" names f3 */
    if (str_ieq(text, "O-O") || str_ieq(text, "O-O-O") || str_ieq(text, "0-0") ||
        str_ieq(text, "0-0-0"))
        return err_set(e, "%s: no castling in Échecs ambigus (AMBI-4)", text);
    if (str_ieq(text, "keep") || starts_with(t, "choose"))
        return err_set(e, "%s: %s names a square now; %s chooses the piece after that",
                       text, AMB_SIDE_NAMES[s->pos.side], AMB_SIDE_NAMES[s->pos.side ^ 1]);
    /* The bare square, or its record form "f3 (Ng1f3)". */
    if (is_square(t) && (t[2] == '\0' || t[2] == '(')) {
        const int sq = square_at(t);
        for (int i = 0; i < legal->n; i++) {
            if (legal->v[i].kind != ACT_MOVE || (int)legal->v[i].code != sq)
                continue;
            StrBuf b = STRBUF_INIT;
            char r[64];
            amb_format(g, s, &legal->v[i], FMT_RECORD, &b);
            squeeze(sb_str(&b), r, sizeof r);
            const int ok = t[2] == '\0' || strcmp(t, r) == 0;
            if (!ok)
                err_set(e, "%s: the record form of naming %c%c here is \"%s\"; or type "
                        "the square alone", text, t[0], t[1], sb_str(&b));
            sb_free(&b);
            if (!ok)
                return -1;
            *out = legal->v[i];
            return 0;
        }
        return err_no_square(s, legal, text, sq, e);
    }
    MoveQuery q;
    if (scan_move(text, &q) == 0)
        return read_whole_move(g, s, legal, text, &q, out, e);
    StrBuf b = STRBUF_INIT;
    name_list(legal, &b);
    err_set(e, "%s: not a square: %s names a square such as e4 and %s chooses the piece; "
            "squares to name: %s", text, AMB_SIDE_NAMES[s->pos.side],
            AMB_SIDE_NAMES[s->pos.side ^ 1], sb_str(&b));
    sb_free(&b);
    return -1;
}

/* ---- Reading in the choice -------------------------------------------------- */

/* What the chooser typed: [choose] [FIG] SQ [[-x] SQ] [=PROMO | PROMO | (PROMO)]. */
typedef struct ChooseQuery {
    int fig;    /* FIG_NONE if not given */
    int from;
    int to;     /* -1 if not given */
    int promo;  /* FIG_NONE if not given; -1 if a bad letter was given */
} ChooseQuery;

static int scan_choose(const char *text, ChooseQuery *q)
{
    char t[64];
    squeeze(text, t, sizeof t);
    const char *c = t;
    if (starts_with(c, "choose"))
        c += 6;
    memset(q, 0, sizeof *q);
    q->to = -1;
    if (c[0] && strchr("PNBRQKpnbrqk", c[0]) && is_square(c + 1))
        q->fig = figure_from_letter(*c++);
    if (!is_square(c))
        return -1;
    q->from = square_at(c);
    c += 2;
    if (*c && strchr("-x", *c) && is_square(c + 1))
        c++;
    if (is_square(c)) {
        q->to = square_at(c);
        c += 2;
    }
    if (*c == '=' || *c == '(')
        c++;
    if (*c && isalpha((unsigned char)*c)) {
        q->promo = promo_fig(*c) ? promo_fig(*c) : -1;
        c++;
    }
    if (*c == ')')
        c++;
    return *c ? -1 : 0;
}

static int err_choose(const AmbState *s, const char *text, const Move *cand, int k,
                      const char *why, Error *e)
{
    StrBuf b = STRBUF_INIT;
    char sq[3];
    cand_list(&s->pos, cand, k, &b);
    err_set(e, "%s: %s; choose the %s piece that goes to %s, one of: %s", text, why,
            AMB_SIDE_NAMES[s->pos.side], chess_square_name(s->named, sq), sb_str(&b));
    sb_free(&b);
    return -1;
}

static int choose_move(const AmbState *s, const ActionList *legal, Move m, Action *out,
                       Error *e)
{
    Action want = amb_choose_action(s, m);
    if (find_action(legal, &want, out) == 0)
        return 0;
    return err_set(e, "that choice is not open now");
}

static int parse_keep(const Game *g, const AmbState *s, const ActionList *legal,
                      const char *text, const Move *cand, int k, Action *out, Error *e)
{
    if (!game_param(g, AM_CLOCK))
        return err_choose(s, text, cand, k, "there is no proposal to keep (keep belongs to "
                          "the clock procedure, AMBI-7, which is off)", e);
    if (!s->has_proposal)
        return err_choose(s, text, cand, k, "the mover named the square without proposing "
                          "a piece", e);
    return choose_move(s, legal, s->proposal, out, e);
}

static int parse_choose(const Game *g, const AmbState *s, const ActionList *legal,
                        const char *text, Action *out, Error *e)
{
    Move cand[AMB_MAX_MOVES];
    const int k = moves_to(&s->pos, s->named, cand);
    char why[160], sq[3], to[3];
    ChooseQuery q;
    chess_square_name(s->named, to);
    if (str_ieq(text, "keep"))
        return parse_keep(g, s, legal, text, cand, k, out, e);
    if (scan_choose(text, &q))
        return err_choose(s, text, cand, k, "not a choice", e);
    chess_square_name(q.from, sq);
    const int pc = s->pos.board[q.from];
    Move hit[4];
    int nh = 0;
    for (int i = 0; i < k; i++)
        if (MOVE_FROM(cand[i]) == q.from && nh < 4)
            hit[nh++] = cand[i];
    if (q.to >= 0 && q.to != s->named)
        snprintf(why, sizeof why, "the piece goes to %s, the square %s named",
                 to, AMB_SIDE_NAMES[s->pos.side]);
    else if (nh == 0 && (!pc || CH_COLOR(pc) != s->pos.side))
        snprintf(why, sizeof why, "no %s piece stands on %s", AMB_SIDE_NAMES[s->pos.side], sq);
    else if (nh == 0)
        snprintf(why, sizeof why, "the %s on %s cannot go to %s", figure_name(CH_FIG(pc)),
                 sq, to);
    else if (q.fig != FIG_NONE && q.fig != CH_FIG(pc))
        snprintf(why, sizeof why, "the piece on %s is a %s", sq, figure_name(CH_FIG(pc)));
    else if (q.promo < 0)
        snprintf(why, sizeof why, "a pawn promotes to a queen, rook, bishop or knight "
                 "(q, r, b, n)");
    else if (nh == 1 && q.promo != FIG_NONE)
        snprintf(why, sizeof why, "the %s on %s does not promote", figure_name(CH_FIG(pc)), sq);
    else if (nh > 1 && q.promo == FIG_NONE)
        snprintf(why, sizeof why, "the pawn on %s promotes on %s: add the figure, which "
                 "is yours to choose (AMBI-3)", sq, to);
    else {
        for (int i = 0; i < nh; i++)
            if (nh == 1 || MOVE_PROMO_FIG(hit[i]) == q.promo)
                return choose_move(s, legal, hit[i], out, e);
        snprintf(why, sizeof why, "no such choice");
    }
    return err_choose(s, text, cand, k, why, e);
}

int amb_parse(const Game *g, const void *st, const ActionList *legal, const char *text,
              Action *out, Error *e)
{
    const AmbState *s = cst(st);
    if (s->phase == AP_NAME)
        return parse_name(g, s, legal, text, out, e);
    if (s->phase == AP_CHOOSE)
        return parse_choose(g, s, legal, text, out, e);
    return err_set(e, "%s: the game is over", text);
}
