/*
 * position.c -- the start of a Masqués game: the setup phase (MASQ-1: both
 * armies in hand), or a full-truth position string (docs/MASQUES.md
 * "Position string") read, checked and written back.
 *
 * Invariant: mq_init accepts a string only if the state it builds could
 * arise in a game (army sizes, masked pieces never promoted, moved marks
 * only where a piece can have moved, castling and en passant backed by the
 * board, the phase's pieces where they must be, the side that just moved
 * not in check); every refusal names the problem.  Writing then reading a
 * position gives the same position string.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mq.h"

static const char ARMY_ORDER[17] = "KQRRBBNNPPPPPPPP";

/* ---- The setup phase ----------------------------------------------------- */

static void init_setup(MqState *s)
{
    for (int side = 0; side < 2; side++)
        for (int i = 0; i < 16; i++) {
            MqPiece *p = &s->pc[side * 16 + i];
            p->side = (uint8_t)side;
            p->fig = (uint8_t)figure_from_letter(ARMY_ORDER[i]);
            p->flags = PF_MASKED | PF_UNMOVED;
            p->sq = -1;
        }
    s->phase = PH_SETUP;
    s->side = MQ_WHITE;
}

/* ---- Reading --------------------------------------------------------------- */

typedef struct RawPiece {
    int sq, side, fig, masked, moved;
} RawPiece;

/* The squares field: 8 ranks, rank 8 first. */
static int parse_board(const char *f, RawPiece *raw, int *n, Error *e)
{
    int rank = 7, file = 0;
    *n = 0;
    for (const char *c = f;; c++) {
        if (*c == '/' || *c == '\0') {
            if (file != 8)
                return err_set(e, "rank %d has %d squares, not 8", rank + 1, file);
            if (*c == '\0')
                break;
            if (--rank < 0)
                return err_set(e, "the board has more than 8 ranks");
            file = 0;
            continue;
        }
        if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return err_set(e, "rank %d has more than 8 squares", rank + 1);
            continue;
        }
        int fig = figure_from_letter(*c);
        if (*c == '~' || *c == '^')
            return err_set(e, "'%c' in rank %d must follow a piece letter", *c, rank + 1);
        if (fig == FIG_NONE || fig == FIG_HIDDEN)
            return err_set(e, "bad letter '%c' in rank %d (pieces are K Q R B N P, "
                           "upper case for white)", *c, rank + 1);
        if (file >= 8)
            return err_set(e, "rank %d has more than 8 squares", rank + 1);
        RawPiece *r = &raw[(*n)++];
        r->sq = rank * 8 + file;
        r->side = isupper((unsigned char)*c) ? MQ_WHITE : MQ_BLACK;
        r->fig = fig;
        r->masked = c[1] == '~';
        c += r->masked;
        r->moved = c[1] == '^';
        c += r->moved;
        if (c[1] == '~')
            return err_set(e, "rank %d: write '~' before '^' (K~^)", rank + 1);
        file++;
        if (*n > 64)
            return err_set(e, "too many pieces");
    }
    if (rank != 0)
        return err_set(e, "the board has %d ranks, not 8", 8 - rank);
    return 0;
}

/* Army sizes: masked pieces are never promoted; each extra revealed
 * piece needs a missing pawn. */
static int check_army(const RawPiece *raw, int n, Error *e)
{
    for (int side = 0; side < 2; side++) {
        int count[7] = {0}, masked[7] = {0}, total = 0;
        for (int i = 0; i < n; i++)
            if (raw[i].side == side) {
                count[raw[i].fig]++;
                masked[raw[i].fig] += raw[i].masked;
                total++;
            }
        const char *name = MQ_SIDE_NAMES[side];
        if (total > 16)
            return err_set(e, "%s has %d pieces; an army has 16", name, total);
        if (count[FIG_KING] > 1)
            return err_set(e, "%s has %d Kings", name, count[FIG_KING]);
        int extra = 0;
        for (int f = FIG_KNIGHT; f <= FIG_QUEEN; f++) {
            if (masked[f] > MQ_ARMY[f])
                return err_set(e, "%s has %d masked %ss; an army has %d and a "
                               "masked piece was never promoted", name, masked[f],
                               MQ_FIG_NAMES[f], MQ_ARMY[f]);
            if (count[f] > MQ_ARMY[f])
                extra += count[f] - MQ_ARMY[f];
        }
        if (count[FIG_PAWN] + extra > 8)
            return err_set(e, "%s has %d Pawns and %d promoted pieces: more than "
                           "the 8 Pawns of an army", name, count[FIG_PAWN], extra);
    }
    return 0;
}

/* Marks: '^' only on the side's home ranks (a piece on its first rank may
 * carry it: an attacker repelled stays, but has moved); no revealed pawn on
 * its last rank (it would have promoted). */
static int check_marks(const RawPiece *r, Error *e)
{
    char sq[3];
    mq_sq(r->sq, sq);
    int rank = mq_rank(r->sq);
    if (!r->masked && r->fig == FIG_PAWN && rank == mq_last_rank(r->side))
        return err_set(e, "the revealed Pawn on %s stands on its last rank: it "
                       "would have promoted", sq);
    if (r->moved && !mq_home_rank(r->side, rank))
        return err_set(e, "'^' on %s: only a piece on its own home ranks is marked "
                       "as moved (elsewhere it has moved anyway)", sq);
    return 0;
}

static void place_raw(MqState *s, const RawPiece *raw, int n)
{
    int next[2] = {0, 16};
    for (int sq = 0; sq < 64; sq++)
        for (int i = 0; i < n; i++) {
            if (raw[i].sq != sq)
                continue;
            int id = next[raw[i].side]++;
            MqPiece *p = &s->pc[id];
            p->side = (uint8_t)raw[i].side;
            p->fig = (uint8_t)raw[i].fig;
            p->flags = (uint8_t)((raw[i].masked ? PF_MASKED : 0) |
                                 (raw[i].moved || !mq_home_rank(raw[i].side, mq_rank(sq))
                                      ? 0 : PF_UNMOVED));
            mq_put(s, id, sq);
        }
}

static int parse_castling(MqState *s, const char *f, Error *e)
{
    const MqCastle *C = MQ_CASTLES;
    if (!strcmp(f, "-"))
        return 0;
    for (const char *c = f; *c; c++) {
        int i = 0;
        while (i < 4 && C[i].letter != *c)
            i++;
        if (i == 4)
            return err_set(e, "bad castling field '%s' (letters KQkq, or -)", f);
        if (s->castling & C[i].bit)
            return err_set(e, "castling right '%c' given twice", *c);
        s->castling |= (uint8_t)C[i].bit;
        char k[3], r[3];
        if (!mq_unmoved_at(s, C[i].king, C[i].side, FIG_KING) ||
            !mq_unmoved_at(s, C[i].rook, C[i].side, FIG_ROOK))
            return err_set(e, "castling right '%c' needs %s's unmoved King on %s and "
                           "unmoved Rook on %s", *c, MQ_SIDE_NAMES[C[i].side],
                           mq_sq(C[i].king, k), mq_sq(C[i].rook, r));
    }
    return 0;
}

/* The side that made the last move (the one whose step may be taken en
 * passant, and who must not stand in check), or -1 during a battle. */
static int last_mover(const MqState *s)
{
    switch (s->phase) {
    case PH_PLAY:
    case PH_ANSWER:
        return s->side ^ 1;
    case PH_ANNOUNCE:
        return s->side;
    default:
        return -1;
    }
}

static int parse_ep(MqState *s, const char *f, Error *e)
{
    if (!strcmp(f, "-"))
        return 0;
    int sq;
    if (strlen(f) != 2 || mq_parse_sq(f, &sq))
        return err_set(e, "bad en passant field '%s' (a square, or -)", f);
    int v = last_mover(s);
    if (v < 0)
        return err_set(e, "en passant square %s: there is none during a battle", f);
    int fwd = mq_fwd(v), r = mq_rank(sq);
    int ok_rank = v == MQ_WHITE ? (r == 1 || r == 2) : (r == 5 || r == 6);
    int victim = ok_rank ? s->at[sq + fwd] : -1;
    const MqPiece *p = victim >= 0 ? &s->pc[victim] : NULL;
    if (!ok_rank || s->at[sq] >= 0 || s->at[sq - fwd] >= 0 || !p || p->side != v ||
        !(mq_masked(p) || p->fig == FIG_PAWN) || (p->flags & PF_UNMOVED))
        return err_set(e, "en passant square %s: no two-square step of %s could "
                       "have passed it", f, MQ_SIDE_NAMES[v]);
    s->ep = (int8_t)sq;
    s->ep_victim = (int8_t)victim;
    return 0;
}

static int parse_counter(const char *f, int lo, int hi, const char *what, int *out,
                         Error *e)
{
    char *end;
    long v = strtol(f, &end, 10);
    if (!*f || *end || v < lo || v > hi)
        return err_set(e, "bad %s '%s' (%d .. %d)", what, f, lo, hi);
    *out = (int)v;
    return 0;
}

/* "e4,c4:d5": attackers, then the target. */
static int parse_right(MqState *s, const char *v, Error *e)
{
    const char *colon = strchr(v, ':');
    int t;
    if (!colon || mq_parse_sq(colon + 1, &t) || colon[3] != '\0')
        return err_set(e, "bad right '%s' (right=SQ,SQ:SQ: attackers, then the "
                       "target)", v);
    int T = s->at[t];
    if (T < 0 || !mq_masked(&s->pc[T]))
        return err_set(e, "right=%s: the target must be a masked piece", v);
    int H = s->pc[T].side ^ 1;
    if (s->right[H].target >= 0)
        return err_set(e, "two capture rights for %s", MQ_SIDE_NAMES[H]);
    uint32_t A = 0;
    for (const char *c = v; c < colon;) {
        int a;
        if (mq_parse_sq(c, &a) || (c[2] != ',' && c + 2 != colon))
            return err_set(e, "bad right '%s' (right=SQ,SQ:SQ)", v);
        int id = s->at[a];
        if (id < 0 || s->pc[id].side != H)
            return err_set(e, "right=%s: %c%c holds no piece of %s", v, c[0], c[1],
                           MQ_SIDE_NAMES[H]);
        A |= 1u << id;
        c += c[2] == ',' ? 3 : 2;
    }
    if (!A)
        return err_set(e, "right=%s names no attacker", v);
    s->right[H].target = (int8_t)T;
    s->right[H].attackers = A;
    return 0;
}

static int parse_nokings(MqState *s, const char *v, Error *e)
{
    if (!strcmp(v, "w"))
        s->nokings = 1;
    else if (!strcmp(v, "b"))
        s->nokings = 2;
    else if (!strcmp(v, "wb") || !strcmp(v, "bw"))
        s->nokings = 3;
    else
        return err_set(e, "bad nokings '%s' (w, b or wb)", v);
    return 0;
}

static int parse_threats(MqState *s, const char *v, Error *e)
{
    for (const char *c = v; *c;) {
        int sq;
        if (mq_parse_sq(c, &sq) || (c[2] != ',' && c[2] != '\0'))
            return err_set(e, "bad threats '%s' (threats=SQ,SQ)", v);
        int id = s->at[sq];
        if (id < 0)
            return err_set(e, "threats=%s: %c%c is empty", v, c[0], c[1]);
        s->threats |= 1u << id;
        c += c[2] ? 3 : 2;
    }
    if (!s->threats)
        return err_set(e, "threats= names no square");
    return 0;
}

/* The two battling pieces from FROM and TO (an empty TO: en passant);
 * `masked_attack`: the attacker attacked while masked (a masked battle,
 * even if the call has revealed it since). */
static int battle_pieces(MqState *s, const char *from, const char *to,
                         int masked_attack, Error *e)
{
    int f, t;
    if (mq_parse_sq(from, &f) || from[2] || mq_parse_sq(to, &t))
        return err_set(e, "bad battle squares '%s:%s'", from, to);
    int A = s->side, att = s->at[f];
    if (att < 0 || s->pc[att].side != A)
        return err_set(e, "the attacker's square %s holds no piece of %s", from,
                       MQ_SIDE_NAMES[A]);
    int def = s->at[t];
    const MqPiece *p = &s->pc[att];
    int cat = masked_attack ? 0 : mq_cat(p);
    int pawnlike = cat == 0 || cat == FIG_PAWN;
    if (def < 0 && pawnlike && (CH_PAWN_ATT[A][f] & BB(t)))
        def = s->at[t - mq_fwd(A)];
    if (def < 0 || s->pc[def].side == A)
        return err_set(e, "the battle from %s to %c%c has no defender", from, to[0], to[1]);
    if (s->at[t] >= 0 && !(mq_attacks(cat, A, f, s->occ) & BB(t)))
        return err_set(e, "the piece on %s cannot take on %c%c", from, to[0], to[1]);
    s->att = (int8_t)att;
    s->def = (int8_t)def;
    s->land = (int8_t)t;
    return 0;
}

/* phase=...: the mid-decision states. */
static int parse_phase(const Game *g, MqState *s, const char *v, Error *e)
{
    char buf[64];
    char *part[6];
    int n = 0;
    str_copy(buf, sizeof buf, v);
    for (char *c = buf, *save = NULL; n < 6 && (c = strtok_r(c, ":", &save)); c = NULL)
        part[n++] = c;
    int A = s->side;
    if (n == 1 && !strcmp(part[0], "announce")) {
        s->phase = PH_ANNOUNCE;
        return 0;
    }
    if (n == 3 && !strcmp(part[0], "answer")) {
        int sq, mate = !strcmp(part[1], "mate");
        if ((!mate && strcmp(part[1], "check")) || mq_parse_sq(part[2], &sq) || part[2][2])
            return err_set(e, "bad phase '%s' (answer:check:SQ or answer:mate:SQ)", v);
        int T = s->at[sq];
        if (T < 0 || s->pc[T].side != A || !mq_masked(&s->pc[T]))
            return err_set(e, "phase=%s: %s holds no masked piece of %s", v, part[2],
                           MQ_SIDE_NAMES[A]);
        const MqPiece *p = &s->pc[T];
        if (mate && !(p->fig == FIG_PAWN && mq_rank(sq) == mq_last_rank(A)))
            return err_set(e, "phase=%s: a mask mate is answered at once unless the "
                           "target is a Pawn on its last rank (which promotes)", v);
        s->phase = PH_ANSWER;
        s->ann_target = (int8_t)T;
        s->ann_mate = (uint8_t)mate;
        s->ann_att = mq_threateners(s, T);
        if (!s->ann_att)
            return err_set(e, "phase=%s: no piece of %s threatens %s", v,
                           MQ_SIDE_NAMES[A ^ 1], part[2]);
        return 0;
    }
    if ((n == 3 || (n == 4 && !strcmp(part[3], "reveal"))) && !strcmp(part[0], "battle")) {
        s->att_revealed = n == 4;
        if (battle_pieces(s, part[1], part[2], 0, e))
            return -1;
        const MqPiece *a = &s->pc[s->att];
        int promotes = !mq_masked(a) && a->fig == FIG_PAWN &&
                       mq_rank(s->land) == mq_last_rank(A);
        int letter = part[2][2] ? figure_from_letter(part[2][2]) : 0;
        if (mq_masked(a) || !mq_masked(&s->pc[s->def]))
            return err_set(e, "phase=%s: a simple battle has a revealed attacker and "
                           "a masked defender", v);
        if (promotes != (letter != 0) || part[2][2 + (letter != 0)] ||
            (letter && (letter < FIG_KNIGHT || letter > FIG_QUEEN)))
            return err_set(e, "phase=%s: a promotion letter (q r b n) follows TO "
                           "exactly when a revealed Pawn reaches its last rank", v);
        s->promo = (uint8_t)letter;
        s->phase = PH_BATTLE;
        return 0;
    }
    if (n == 5 && !strcmp(part[0], "bid")) {
        if (battle_pieces(s, part[1], part[2], 1, e))
            return -1;
        if (part[2][2] || !mq_masked(&s->pc[s->att]) || !mq_masked(&s->pc[s->def]))
            return err_set(e, "phase=%s: a masked battle has two masked pieces", v);
        int bid;
        if (parse_counter(part[3], 0, mq_threshold(g), "bid", &bid, e))
            return -1;
        int last = !strcmp(part[4], "w") ? MQ_WHITE : !strcmp(part[4], "b") ? MQ_BLACK
                   : !strcmp(part[4], "-") ? MQ_NOSIDE : -1;
        if (last < 0 || (last == MQ_NOSIDE) != (bid == 0))
            return err_set(e, "phase=%s: the last field is who made the bid (w, b), "
                           "or - with bid 0", v);
        s->bid = (int16_t)bid;
        s->bidder = (uint8_t)last;
        s->phase = PH_BID;
        return 0;
    }
    if (n == 5 && !strcmp(part[0], "giveup")) {
        if (battle_pieces(s, part[1], part[2], 1, e))
            return -1;
        int L = !strcmp(part[3], "w") ? MQ_WHITE : !strcmp(part[3], "b") ? MQ_BLACK : -1;
        int bid;
        if (L < 0 || part[2][2])
            return err_set(e, "bad phase '%s' (giveup:FROM:TO:SIDE:BID)", v);
        if (parse_counter(part[4], 1, mq_threshold(g) - 1, "bid", &bid, e))
            return -1;
        const MqPiece *a = &s->pc[s->att], *d = &s->pc[s->def];
        const MqPiece *lp = L == A ? a : d, *wp = L == A ? d : a;
        if (mq_masked(a) || mq_masked(d) || mq_strength(lp->fig) >= mq_strength(wp->fig))
            return err_set(e, "phase=%s: after a call both pieces are revealed and "
                           "the loser's is the weaker", v);
        s->bid = (int16_t)bid;
        s->loser = (uint8_t)L;
        s->bidder = MQ_NOSIDE; /* the bidding is over */
        s->phase = PH_GIVEUP;
        if (mq_material(g, s, L) < bid || mq_giveup_sets(g, s, L, NULL, NULL) < 2)
            return err_set(e, "phase=%s: the give-up is settled without asking (the "
                           "loser cannot cover the bid, or has one way only)", v);
        return 0;
    }
    return err_set(e, "bad phase '%s' (announce, answer:check:SQ, answer:mate:SQ, "
                   "battle:FROM:TO[:reveal], bid:FROM:TO:BID:LAST, "
                   "giveup:FROM:TO:SIDE:BID)", v);
}

/* The threats before the battle: the position as written, with the
 * battling pieces masked as they were before the attack (both after a
 * call; the attacker of a simple battle if it revealed itself to attack). */
static void threats_before(MqState *s)
{
    MqState t = *s;
    for (int k = 0; k < 2; k++) {
        int id = k ? t.def : t.att, sq = t.pc[id].sq;
        if (mq_masked(&t.pc[id]) || (s->phase == PH_BATTLE && !s->att_revealed))
            continue;
        mq_lift(&t, id);
        t.pc[id].flags |= PF_MASKED;
        mq_put(&t, id, sq);
    }
    mq_threats(&t, s->side, s->before);
}

static int check_tokens(const Game *g, MqState *s, Error *e)
{
    for (int side = 0; side < 2; side++) {
        int has = mq_king(s, side) >= 0, none = (s->nokings >> side) & 1;
        if (!has && !none)
            return err_set(e, "%s has no King (nokings=%c says it was removed "
                           "without reveal)", MQ_SIDE_NAMES[side], "wb"[side]);
        if (has && none)
            return err_set(e, "nokings=%c, but %s's King is on the board", "wb"[side],
                           MQ_SIDE_NAMES[side]);
        if (s->right[side].target < 0)
            continue;
        int busy = s->phase == PH_ANSWER ? side != s->side
                   : s->phase == PH_PLAY ? 0 : side == s->side;
        if (busy)
            return err_set(e, "%s's capture right cannot exist in this phase: it "
                           "lapses with %s's next action", MQ_SIDE_NAMES[side],
                           MQ_SIDE_NAMES[side]);
    }
    if ((s->phase == PH_ANNOUNCE) != (s->threats != 0))
        return err_set(e, "threats=SQ,SQ goes with phase=announce, and only there");
    for (int i = 0; i < MQ_NPIECES; i++) {
        if (!(s->threats & (1u << i)))
            continue;
        char sq[3];
        if (s->pc[i].side == s->side || !mq_masked(&s->pc[i]) ||
            !mq_threateners(s, i))
            return err_set(e, "threats: %s is not a masked piece of %s threatened by %s",
                           mq_sq(s->pc[i].sq, sq), MQ_SIDE_NAMES[s->side ^ 1],
                           MQ_SIDE_NAMES[s->side]);
    }
    int mover = last_mover(s);
    if (mover >= 0 && mq_in_check(g, s, mover, GEN_FULL)) {
        if (s->phase != PH_PLAY)
            return err_set(e, "%s has just moved, yet its King is attacked",
                           MQ_SIDE_NAMES[mover]);
        /* MASQ-13: only a game ended by a check after a reveal leaves the
         * side that just moved with its King attacked (its opponent could
         * take it): the string is that finished game, as the engine writes
         * it (docs/MASQUES.md, "Position string"). */
        s->phase = PH_OVER;
        s->winners = (uint8_t)(1u << (mover ^ 1));
        s->end = END_CHECK_AFTER_REVEAL;
    }
    return 0;
}

static int parse_token(const Game *g, MqState *s, const char *tok, Error *e)
{
    const char *eq = strchr(tok, '=');
    if (!eq)
        return err_set(e, "unknown field '%s' after the counters (tokens: right=, "
                       "nokings=, phase=, threats=)", tok);
    size_t k = (size_t)(eq - tok);
    const char *v = eq + 1;
    if (k == 5 && !strncmp(tok, "right", 5))
        return parse_right(s, v, e);
    if (k == 7 && !strncmp(tok, "nokings", 7))
        return parse_nokings(s, v, e);
    if (k == 5 && !strncmp(tok, "phase", 5))
        return s->phase != PH_PLAY ? err_set(e, "phase= given twice")
                                   : parse_phase(g, s, v, e);
    if (k == 7 && !strncmp(tok, "threats", 7))
        return s->threats ? err_set(e, "threats= given twice") : parse_threats(s, v, e);
    return err_set(e, "unknown token '%s' (tokens: right=, nokings=, phase=, threats=)",
                   tok);
}

static int parse_position(const Game *g, MqState *s, const char *text, Error *e)
{
    char buf[600];
    char *f[24];
    int nf = 0;
    if (strlen(text) >= sizeof buf)
        return err_set(e, "the position string is too long");
    str_copy(buf, sizeof buf, text);
    for (char *c = buf, *save = NULL; (c = strtok_r(c, " \t\r\n", &save)); c = NULL) {
        if (nf == 24)
            return err_set(e, "too many fields in the position string");
        f[nf++] = c;
    }
    if (nf < 4)
        return err_set(e, "a position needs at least 4 fields (squares, side, "
                       "castling, en passant), not %d", nf);
    RawPiece raw[65];
    int n;
    if (parse_board(f[0], raw, &n, e) || check_army(raw, n, e))
        return -1;
    for (int i = 0; i < n; i++)
        if (check_marks(&raw[i], e))
            return -1;
    place_raw(s, raw, n);
    if (strcmp(f[1], "w") && strcmp(f[1], "b"))
        return err_set(e, "bad side to move '%s' (w or b)", f[1]);
    s->side = f[1][0] == 'w' ? MQ_WHITE : MQ_BLACK;
    s->phase = PH_PLAY;
    int next = 4, half = 0, full = 1;
    if (next < nf && !strchr(f[next], '=')) {
        if (parse_counter(f[next++], 0, 9999, "halfmove clock", &half, e))
            return -1;
        if (next < nf && !strchr(f[next], '=') &&
            parse_counter(f[next++], 1, 9999, "fullmove number", &full, e))
            return -1;
    }
    s->halfmove = (uint16_t)half;
    s->fullmove = (uint16_t)full;
    /* the phase first: it decides what the other fields may say */
    for (int i = next; i < nf; i++)
        if (!strncmp(f[i], "phase=", 6) && parse_token(g, s, f[i], e))
            return -1;
    for (int i = next; i < nf; i++)
        if (strncmp(f[i], "phase=", 6) && parse_token(g, s, f[i], e))
            return -1;
    if (parse_castling(s, f[2], e) || parse_ep(s, f[3], e) || check_tokens(g, s, e))
        return -1;
    if (s->phase == PH_BATTLE || s->phase == PH_BID || s->phase == PH_GIVEUP)
        threats_before(s);
    return 0;
}

int mq_check_position(const Game *g, const char *text, Error *e)
{
    MqState *t = cv_calloc(sizeof *t);
    if (!t)
        return err_set(e, "out of memory");
    mq_clear(t);
    int rc = parse_position(g, t, text, e);
    free(t);
    return rc;
}

int mq_init(Game *g, void *st, const char *position, Error *e)
{
    MqState *s = st;
    mq_clear(s);
    rng_seed(&s->rng, rng_next(game_rng(g)));
    if (!position) {
        init_setup(s);
        return 0;
    }
    if (parse_position(g, s, position, e)) {
        err_prefix(e, "position");
        return -1;
    }
    return 0;
}

/* ---- Writing ----------------------------------------------------------------- */

static void write_rest(const MqState *s, unsigned castling, unsigned nokings, StrBuf *out);

/* The nokings= token of the sides in bits (none: nothing). */
static void write_nokings(unsigned bits, StrBuf *out)
{
    if (bits)
        sb_printf(out, " nokings=%s", bits == 1 ? "w" : bits == 2 ? "b" : "wb");
}

/* The squares field; the masked pieces of side `open` (-1: none) are
 * written '?' for their figure (mq_write_known). */
static void write_squares(const MqState *s, int open, StrBuf *out)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int id = s->at[rank * 8 + file];
            if (id < 0) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            const MqPiece *p = &s->pc[id];
            char c = figure_letter(p->fig);
            if (p->side == open && mq_masked(p))
                c = '?';
            sb_putc(out, p->side == MQ_WHITE ? c : (char)tolower((unsigned char)c));
            if (mq_masked(p))
                sb_putc(out, '~');
            if (mq_home_rank(p->side, rank) && !(p->flags & PF_UNMOVED))
                sb_putc(out, '^');
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (rank)
            sb_putc(out, '/');
    }
}

static void write_squares_of(const MqState *s, uint32_t ids, StrBuf *out)
{
    int first = 1;
    char sq[3];
    for (int q = 0; q < 64; q++) {
        int id = s->at[q];
        if (id >= 0 && (ids & (1u << id))) {
            sb_printf(out, "%s%s", first ? "" : ",", mq_sq(q, sq));
            first = 0;
        }
    }
}

void mq_write_position(const Game *g, const void *st, StrBuf *out)
{
    const MqState *s = st;
    (void)g;
    if (s->phase == PH_SETUP)
        return; /* no position string in the setup phase */
    write_squares(s, -1, out);
    write_rest(s, s->castling, s->nokings, out);
}

/* Everything after the squares: side, castling, en passant, counters and
 * the tokens, with the given castling rights and nokings bits. */
static void write_rest(const MqState *s, unsigned castling, unsigned nokings, StrBuf *out)
{
    char a[3], b[3];
    sb_printf(out, " %c ", s->side == MQ_WHITE ? 'w' : 'b');
    if (!castling)
        sb_putc(out, '-');
    for (int i = 0; i < 4; i++)
        if (castling & MQ_CASTLES[i].bit)
            sb_putc(out, MQ_CASTLES[i].letter);
    sb_printf(out, " %s %d %d", mq_sq(s->ep, a), s->halfmove, s->fullmove);
    for (int h = 0; h < 2; h++) {
        if (s->right[h].target < 0)
            continue;
        sb_puts(out, " right=");
        write_squares_of(s, s->right[h].attackers, out);
        sb_printf(out, ":%s", mq_sq(s->pc[s->right[h].target].sq, a));
    }
    write_nokings(nokings, out);
    switch (s->phase) {
    case PH_ANNOUNCE:
        sb_puts(out, " phase=announce threats=");
        write_squares_of(s, s->threats, out);
        break;
    case PH_ANSWER:
        sb_printf(out, " phase=answer:%s:%s", s->ann_mate ? "mate" : "check",
                  mq_sq(s->pc[s->ann_target].sq, a));
        break;
    case PH_BATTLE:
        sb_printf(out, " phase=battle:%s:%s", mq_sq(s->pc[s->att].sq, a), mq_sq(s->land, b));
        if (s->promo)
            sb_putc(out, (char)tolower((unsigned char)figure_letter(s->promo)));
        if (s->att_revealed)
            sb_puts(out, ":reveal");
        break;
    case PH_BID:
        sb_printf(out, " phase=bid:%s:%s:%d:%s", mq_sq(s->pc[s->att].sq, a),
                  mq_sq(s->land, b), s->bid,
                  s->bidder == MQ_WHITE ? "w" : s->bidder == MQ_BLACK ? "b" : "-");
        break;
    case PH_GIVEUP:
        sb_printf(out, " phase=giveup:%s:%s:%c:%d", mq_sq(s->pc[s->att].sq, a),
                  mq_sq(s->land, b), s->loser == MQ_WHITE ? 'w' : 'b', s->bid);
        break;
    default:
        break;
    }
}

/* ---- The position as a seat knows it, and samples of it --------------------- */

/* The enemy's figures a seat cannot place: a full army less the enemy's
 * revealed pieces on the board and those that left revealed (a revealed
 * piece beyond its army's count is a promoted Pawn); by figure. */
static void unknown_pool(const MqState *s, int enemy, int pool[7])
{
    int known[7] = {0};
    for (int i = 0; i < MQ_NPIECES; i++) {
        const MqPiece *p = &s->pc[i];
        if (p->side == enemy && (p->flags & PF_ON) && !mq_masked(p))
            known[p->fig]++;
    }
    for (int i = 0; i < s->nlost; i++)
        if (s->lost[i].side == enemy && !s->lost[i].hidden)
            known[s->lost[i].fig]++;
    int promoted = 0;
    for (int f = FIG_KNIGHT; f <= FIG_QUEEN; f++)
        if (known[f] > MQ_ARMY[f]) {
            promoted += known[f] - MQ_ARMY[f];
            known[f] = MQ_ARMY[f];
        }
    known[FIG_PAWN] += promoted;
    for (int f = FIG_PAWN; f <= FIG_KING; f++)
        pool[f] = known[f] < MQ_ARMY[f] ? MQ_ARMY[f] - known[f] : 0;
}

/* Castling rights of `side` that the enemy cannot rule out: King and Rook
 * squares held by unmoved pieces of the side, each masked or revealed as
 * the right figure (whether a masked pair is King and Rook is hidden). */
static unsigned possible_castling(const MqState *s, int side)
{
    unsigned bits = 0;
    for (int i = 0; i < 4; i++) {
        const MqCastle *c = &MQ_CASTLES[i];
        int k = s->at[c->king], r = s->at[c->rook];
        if (c->side != side || k < 0 || r < 0)
            continue;
        const MqPiece *pk = &s->pc[k], *pr = &s->pc[r];
        if (pk->side == side && pr->side == side && (pk->flags & PF_UNMOVED) &&
            (pr->flags & PF_UNMOVED) && (mq_masked(pk) || pk->fig == FIG_KING) &&
            (mq_masked(pr) || pr->fig == FIG_ROOK))
            bits |= (unsigned)c->bit;
    }
    return bits;
}

void mq_write_known(const Game *g, const void *st, int seat, StrBuf *out)
{
    const MqState *s = st;
    (void)g;
    if (s->phase == PH_SETUP || s->phase == PH_OVER || seat < 0 || seat > 1)
        return;
    int enemy = seat ^ 1;
    unsigned castling = possible_castling(s, enemy);
    for (int i = 0; i < 4; i++)
        if (MQ_CASTLES[i].side == seat)
            castling |= s->castling & (unsigned)MQ_CASTLES[i].bit;
    write_squares(s, enemy, out);
    write_rest(s, castling, s->nokings & (1u << seat), out);
    int pool[7];
    unknown_pool(s, enemy, pool);
    sb_puts(out, " unknown=");
    for (int f = FIG_KING; f >= FIG_PAWN; f--)
        for (int n = 0; n < pool[f]; n++) {
            char c = figure_letter(f);
            sb_putc(out, enemy == MQ_WHITE ? c : (char)tolower((unsigned char)c));
        }
    if (!pool[FIG_PAWN] && !pool[FIG_KNIGHT] && !pool[FIG_BISHOP] && !pool[FIG_ROOK] &&
        !pool[FIG_QUEEN] && !pool[FIG_KING])
        sb_putc(out, '-');
    int removed = 0;
    for (int i = 0; i < s->nlost; i++)
        removed += s->lost[i].side == enemy && s->lost[i].hidden;
    sb_printf(out, " removed=%d", removed);
}

/* Fisher-Yates over n characters. */
static void shuffle(char *v, size_t n, Rng *rng)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = rng_below(rng, (uint32_t)i);
        char t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

int mq_sample(const char *known, Rng *rng, StrBuf *out, Error *e)
{
    char pool[32] = "";
    const char *u = strstr(known, " unknown=");
    size_t np = 0;
    if (u) {
        u += strlen(" unknown=");
        while (u[np] && u[np] != ' ' && np < sizeof pool - 1 && u[np] != '-') {
            pool[np] = u[np];
            np++;
        }
    }
    size_t nf = strcspn(known, " ");
    char board[128];
    if (nf >= sizeof board)
        return err_set(e, "a known position needs a squares field of 8 ranks");
    memcpy(board, known, nf);
    board[nf] = '\0';
    size_t nq = 0;
    for (size_t i = 0; i < nf; i++)
        nq += board[i] == '?';
    const char *r = strstr(known, " removed=");
    size_t slots = nq + (r ? strtoul(r + strlen(" removed="), NULL, 10) : 0);
    if (slots > np)
        return err_set(e, "the known position has %zu unknown pieces and only %zu "
                       "unknown figures", slots, np);
    /* More figures than pieces when the position did not come from a whole
     * game (a position string may leave pieces out): the King, which every
     * army has, keeps its place; the other slots take figures drawn from
     * the rest. */
    size_t king = strcspn(pool, "Kk");
    if (np > slots && king < np && slots > 0) {
        char t = pool[0];
        pool[0] = pool[king];
        pool[king] = t;
        shuffle(pool + 1, np - 1, rng);
        np = slots;
    }
    shuffle(pool, np, rng);
    size_t k = 0;
    for (size_t i = 0; i < nf; i++)
        if (board[i] == '?')
            board[i] = pool[k++];
    /* the figure on each square, as the reader sees the completed field */
    RawPiece raw[65];
    int nraw;
    if (parse_board(board, raw, &nraw, e))
        return err_prefix(e, "a known position"), -1;
    char at[64];
    memset(at, 0, sizeof at);
    for (int i = 0; i < nraw; i++) {
        char c = figure_letter(raw[i].fig);
        at[raw[i].sq] = raw[i].side == MQ_WHITE ? c : (char)tolower((unsigned char)c);
    }
    unsigned nokings = 0; /* the King among the pieces removed unseen */
    for (size_t i = k; i < slots && i < np; i++)
        if (pool[i] == 'K' || pool[i] == 'k')
            nokings |= pool[i] == 'K' ? 1u : 2u;
    sb_puts(out, board);
    /* the other fields: castling kept only where the sample put King and
     * Rook; nokings merged; the unknown= token dropped */
    const char *p = known + nf;
    for (int field = 1; *p; field++) {
        while (*p == ' ')
            p++;
        size_t len = strcspn(p, " ");
        if (!len)
            break;
        if (field == 2) { /* castling */
            size_t before = out->len;
            sb_putc(out, ' ');
            for (size_t i = 0; i < len; i++)
                for (int c = 0; c < 4; c++) {
                    const MqCastle *cs = &MQ_CASTLES[c];
                    char kl = cs->side == MQ_WHITE ? 'K' : 'k';
                    if (p[i] == cs->letter && at[cs->king] == kl && at[cs->rook] == kl - 'K' + 'R')
                        sb_putc(out, cs->letter);
                }
            if (out->len == before + 1)
                sb_putc(out, '-');
        } else if (len > 8 && strncmp(p, "nokings=", 8) == 0) {
            for (size_t i = 8; i < len; i++)
                nokings |= p[i] == 'w' ? 1u : p[i] == 'b' ? 2u : 0u;
        } else if (!(len >= 8 && strncmp(p, "unknown=", 8) == 0) &&
                   !(len >= 8 && strncmp(p, "removed=", 8) == 0)) {
            sb_putc(out, ' ');
            sb_putn(out, p, len);
        }
        p += len;
    }
    write_nokings(nokings, out);
    return out->failed ? err_set(e, "out of memory") : 0;
}
