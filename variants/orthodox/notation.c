/*
 * notation.c -- UCI and SAN for orthodox chess: writing a move, and reading
 * typed text back into one of the legal moves, with messages that say what
 * is wrong when it does not fit.
 *
 * Invariant: parsing only ever selects an entry of the caller's legal list;
 * the explanations below are read-only questions about the position (they
 * never decide legality, chess_legal_moves does).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "notation.h"
#include "../../core/action.h"

#define FILE_OF(sq) ((sq) & 7)
#define RANK_OF(sq) ((sq) >> 3)

static const char *const FIG_NAMES[] = {
    "", "pawn", "knight", "bishop", "rook", "queen", "king"
};
static const char *const FIG_PLURALS[] = {
    "", "pawns", "knights", "bishops", "rooks", "queens", "kings"
};
static const char FIG_LETTERS[] = " PNBRQK";
static const char *const COLOR_NAMES[] = {"white", "black"};
static const char *const TRY_HINT = "try e4, Nf3, O-O or e2e4";

/* FIG_* of an upper-case piece letter, FIG_NONE otherwise. */
static int fig_of_upper(char c)
{
    const char *s = c ? strchr(FIG_LETTERS + 1, c) : NULL;
    return s ? (int)(s - FIG_LETTERS) : FIG_NONE;
}

static int own_piece(const Position *p, int sq, int fig)
{
    return p->board[sq] == CH_PIECE(p->side, fig);
}

static int is_capture(const Position *p, Move m)
{
    if (MOVE_KIND(m) == MK_EP)
        return 1;
    return MOVE_KIND(m) != MK_CASTLE && p->board[MOVE_TO(m)] != 0;
}

static int home_rank(int color) { return color == CH_WHITE ? 0 : 7; }

/* ---- Writing ------------------------------------------------------------ */

/* SAN without the check mark; `all` is every legal move of p (for the
 * disambiguation).  Returns the length written into buf. */
static size_t san_body(const Position *p, Move m, const Move *all, int n,
                       char *buf)
{
    int from = MOVE_FROM(m), to = MOVE_TO(m);
    int fig = CH_FIG(p->board[from]);
    size_t k = 0;

    if (MOVE_KIND(m) == MK_CASTLE) {
        const char *s = FILE_OF(to) > FILE_OF(from) ? "O-O" : "O-O-O";
        k = strlen(s);
        memcpy(buf, s, k + 1);
        return k;
    }
    if (fig == FIG_PAWN) {
        if (is_capture(p, m)) {
            buf[k++] = (char)('a' + FILE_OF(from));
            buf[k++] = 'x';
        }
    } else {
        int twin = 0, twin_file = 0, twin_rank = 0;
        buf[k++] = FIG_LETTERS[fig];
        for (int i = 0; i < n; i++) {
            int f2 = MOVE_FROM(all[i]);
            if (MOVE_TO(all[i]) != to || f2 == from
                || CH_FIG(p->board[f2]) != fig)
                continue;
            twin = 1;
            twin_file |= FILE_OF(f2) == FILE_OF(from);
            twin_rank |= RANK_OF(f2) == RANK_OF(from);
        }
        /* File first, then rank, then both: the SAN standard. */
        if (twin && (!twin_file || twin_rank))
            buf[k++] = (char)('a' + FILE_OF(from));
        if (twin && twin_file)
            buf[k++] = (char)('1' + RANK_OF(from));
        if (is_capture(p, m))
            buf[k++] = 'x';
    }
    buf[k++] = (char)('a' + FILE_OF(to));
    buf[k++] = (char)('1' + RANK_OF(to));
    if (MOVE_IS_PROMO(m)) {
        buf[k++] = '=';
        buf[k++] = FIG_LETTERS[MOVE_PROMO_FIG(m)];
    }
    buf[k] = '\0';
    return k;
}

const char *notation_san_buf(const Position *p, Move m, char *buf)
{
    Move all[CH_MAX_MOVES];
    int n = chess_legal_moves(p, all);
    size_t k = san_body(p, m, all, n, buf);
    Position after = *p;

    chess_make(&after, m);
    if (chess_in_check(&after)) {
        Move replies[CH_MAX_MOVES];
        buf[k++] = chess_legal_moves(&after, replies) ? '+' : '#';
        buf[k] = '\0';
    }
    return buf;
}

void notation_san(const Position *p, Move m, StrBuf *out)
{
    char buf[NOTATION_MAX];
    sb_puts(out, notation_san_buf(p, m, buf));
}

void notation_uci(Move m, StrBuf *out)
{
    char buf[8];
    sb_puts(out, chess_move_uci(m, buf));
}

/* ---- Explaining why a move is not legal ------------------------------- */

/* Why castling on that side is refused now (ORTH-5), or "" if nothing in
 * the rules forbids it (then something else, e.g. a house rule, does). */
static void explain_castle(const Position *p, int king_side, char *why,
                           size_t n)
{
    int us = p->side, them = us ^ 1, rank = home_rank(us);
    int right = us == CH_WHITE ? (king_side ? CASTLE_WK : CASTLE_WQ)
                               : (king_side ? CASTLE_BK : CASTLE_BQ);
    int king = CH_SQ(4, rank);
    int rook = CH_SQ(king_side ? 7 : 0, rank);
    int step = king_side ? 1 : -1;
    Bitboard occ = p->by_color[0] | p->by_color[1];
    char sq[3];

    why[0] = '\0';
    if (!(p->castling & right)) {
        snprintf(why, n, "%s has no castling right on that side: the king "
                 "or that rook has moved or been taken, or castling is off",
                 COLOR_NAMES[us]);
        return;
    }
    for (int s = king + step; s != rook; s += step) {
        if (p->board[s]) {
            snprintf(why, n, "the squares between the king and the rook "
                     "must be empty, and %s is not",
                     chess_square_name(s, sq));
            return;
        }
    }
    if (chess_in_check(p)) {
        snprintf(why, n, "you cannot castle out of check");
        return;
    }
    occ &= ~((Bitboard)1 << king); /* the king no longer shields its path */
    if (chess_attackers(p, king + step, them, occ)) {
        snprintf(why, n, "the king would pass through %s, which is attacked",
                 chess_square_name(king + step, sq));
        return;
    }
    if (chess_attackers(p, king + 2 * step, them, occ))
        snprintf(why, n, "the king would land in check on %s",
                 chess_square_name(king + 2 * step, sq));
}

/* Is this from -> to an attempt to castle (king two squares along its home
 * rank from the e-file, or king onto its own rook in the corner)?  Returns
 * 1 king-side, 2 queen-side, 0 no. */
static int castle_attempt(const Position *p, int from, int to)
{
    int us = p->side, rank = home_rank(us);
    if (!own_piece(p, from, FIG_KING) || from != CH_SQ(4, rank)
        || RANK_OF(to) != rank)
        return 0;
    if (to == CH_SQ(6, rank)
        || (to == CH_SQ(7, rank) && own_piece(p, to, FIG_ROOK)))
        return 1;
    if (to == CH_SQ(2, rank)
        || (to == CH_SQ(0, rank) && own_piece(p, to, FIG_ROOK)))
        return 2;
    return 0;
}

/* The first occupied square strictly between from and to along a line, or
 * CH_NO_SQ. */
static int first_blocker(const Position *p, int from, int to)
{
    int df = FILE_OF(to) - FILE_OF(from), dr = RANK_OF(to) - RANK_OF(from);
    int step = (df > 0) - (df < 0) + 8 * ((dr > 0) - (dr < 0));
    for (int s = from + step; s != to; s += step)
        if (p->board[s])
            return s;
    return CH_NO_SQ;
}

/* Why the pawn on from cannot go to to by its own way of moving, or NULL
 * when its move pattern allows it (ORTH-2, ORTH-3). */
static const char *explain_pawn(const Position *p, int from, int to,
                                char *tmp, size_t n)
{
    int us = p->side, dir = us == CH_WHITE ? 1 : -1;
    int df = FILE_OF(to) - FILE_OF(from);
    int dr = (RANK_OF(to) - RANK_OF(from)) * dir;
    char sq[3];

    if (df == 0 && dr > 2)
        return "a pawn moves one square forward, or two from its starting "
               "rank";
    if (df == 0 && (dr == 1 || dr == 2)) {
        if (dr == 2 && RANK_OF(from) != (us == CH_WHITE ? 1 : 6))
            return "a pawn moves two squares only from its starting rank";
        if (dr == 2 && p->board[from + 8 * dir]) {
            snprintf(tmp, n, "the way is blocked on %s",
                     chess_square_name(from + 8 * dir, sq));
            return tmp;
        }
        return p->board[to] ? "a pawn cannot capture straight ahead" : NULL;
    }
    if ((df == 1 || df == -1) && dr == 1) {
        int victim = to - 8 * dir;
        if (p->board[to] || to == p->ep)
            return NULL;
        if (p->board[victim] == CH_PIECE(us ^ 1, FIG_PAWN))
            return "en passant is only allowed on the move right after "
                   "the enemy pawn's double step";
        snprintf(tmp, n, "there is nothing to capture on %s",
                 chess_square_name(to, sq));
        return tmp;
    }
    return "a pawn moves straight forward and captures one square "
           "diagonally forward";
}

/* Why the piece on from cannot go to to by its own way of moving (or is
 * blocked), or NULL when its move pattern allows it. */
static const char *explain_geometry(const Position *p, int from, int to,
                                    char *tmp, size_t n)
{
    int fig = CH_FIG(p->board[from]);
    int df = abs(FILE_OF(to) - FILE_OF(from));
    int dr = abs(RANK_OF(to) - RANK_OF(from));
    int line = df == 0 || dr == 0, diag = df == dr;
    int blocker;
    char sq[3];

    switch (fig) {
    case FIG_PAWN:
        return explain_pawn(p, from, to, tmp, n);
    case FIG_KNIGHT:
        return df * dr == 2 ? NULL
                            : "a knight jumps two squares one way and one "
                              "the other";
    case FIG_KING:
        return df <= 1 && dr <= 1 ? NULL : "a king moves one square";
    case FIG_BISHOP:
        if (!diag)
            return "a bishop moves diagonally";
        break;
    case FIG_ROOK:
        if (!line)
            return "a rook moves along ranks and files";
        break;
    default:
        if (!line && !diag)
            return "a queen moves along ranks, files and diagonals";
        break;
    }
    blocker = first_blocker(p, from, to);
    if (blocker == CH_NO_SQ)
        return NULL;
    snprintf(tmp, n, "the way is blocked on %s",
             chess_square_name(blocker, sq));
    return tmp;
}

/* "the knight on g1 cannot move to g3 (a knight jumps ...)" or "white
 * cannot castle king-side (...)", for a move that is not legal; the piece
 * on from is the mover's.  Empty when the rules give no reason. */
static void explain_move(const Position *p, int from, int to, char *out,
                         size_t n)
{
    int fig = CH_FIG(p->board[from]);
    int castle = castle_attempt(p, from, to);
    const char *why;
    char tmp[160], fs[3], ts[3];

    if (castle) {
        explain_castle(p, castle == 1, tmp, sizeof tmp);
        if (tmp[0])
            snprintf(out, n, "%s cannot castle %s (%s)",
                     COLOR_NAMES[p->side],
                     castle == 1 ? "king-side" : "queen-side", tmp);
        else
            out[0] = '\0';
        return;
    }
    if (from == to)
        why = "it is already there";
    else if (p->board[to] && CH_COLOR(p->board[to]) == p->side)
        why = "the square is occupied by your own piece";
    else
        why = explain_geometry(p, from, to, tmp, sizeof tmp);
    if (!why) /* ORTH-6: the pattern fits, so the king is the problem */
        why = fig == FIG_KING ? "the king would be in check there"
                              : "that would leave your king in check";
    snprintf(out, n, "the %s on %s cannot move to %s (%s)", FIG_NAMES[fig],
             chess_square_name(from, fs), chess_square_name(to, ts), why);
}

/* ---- Reading UCI ------------------------------------------------------- */

/* Index of the queen promotion in list, else of the first entry. */
static int best_promo(const Move *list, int n)
{
    for (int i = 0; i < n; i++)
        if (MOVE_PROMO_FIG(list[i]) == FIG_QUEEN)
            return i;
    return 0;
}

static int find_move(const Move *list, int n, int from, int to, int promo)
{
    for (int i = 0; i < n; i++)
        if (MOVE_FROM(list[i]) == from && MOVE_TO(list[i]) == to
            && MOVE_PROMO_FIG(list[i]) == promo)
            return i;
    return -1;
}

/* "say which piece to promote to" with both spellings of the queen move. */
static int err_promotion(const Position *p, const char *text, Move queen,
                         Error *e)
{
    Move all[CH_MAX_MOVES];
    char uci[8], san[NOTATION_MAX];
    int n = chess_legal_moves(p, all);

    san_body(p, queen, all, n, san);
    return err_set(e, "%s: say which piece to promote to, e.g. %s or %s",
                   text, chess_move_uci(queen, uci), san);
}

/* Explain a from -> to that is not in the list; always returns -1. */
static int err_not_legal(const Position *p, const char *text, int from,
                         int to, Error *e)
{
    Move all[CH_MAX_MOVES];
    char why[320], sq[3];
    int n = chess_legal_moves(p, all), pc = p->board[from];

    for (int i = 0; i < n; i++)
        if (MOVE_FROM(all[i]) == from && MOVE_TO(all[i]) == to)
            return err_set(e, "%s is not a legal move here", text);
    if (!pc)
        return err_set(e, "%s: there is no piece on %s", text,
                       chess_square_name(from, sq));
    if (CH_COLOR(pc) != p->side)
        return err_set(e, "%s: the %s on %s is %s's, and it is %s's move",
                       text, FIG_NAMES[CH_FIG(pc)],
                       chess_square_name(from, sq), COLOR_NAMES[CH_COLOR(pc)],
                       COLOR_NAMES[p->side]);
    explain_move(p, from, to, why, sizeof why);
    if (!why[0])
        return err_set(e, "%s is not a legal move here", text);
    return err_set(e, "%s: %s", text, why);
}

/* Read s as UCI.  Returns 1 when s is not UCI at all (try SAN), else 0 with
 * *out set or -1 with e set. */
static int parse_uci(const Position *p, const Move *legal, int n,
                     const char *text, const char *s, Move *out, Error *e)
{
    size_t len = strlen(s);
    int from, to, promo = FIG_NONE, castle, i;

    if (len < 4 || len > 5 || s[0] < 'a' || s[0] > 'h' || s[1] < '1'
        || s[1] > '8' || s[2] < 'a' || s[2] > 'h' || s[3] < '1' || s[3] > '8')
        return 1;
    if (len == 5) {
        char c = (char)toupper((unsigned char)s[4]);
        promo = fig_of_upper(c);
        if (promo == FIG_PAWN || promo == FIG_KING)
            return err_set(e, "%s: a pawn promotes to a queen, rook, bishop "
                           "or knight (q, r, b or n)", text);
        if (promo == FIG_NONE)
            return 1;
    }
    from = CH_SQ(s[0] - 'a', s[1] - '1');
    to = CH_SQ(s[2] - 'a', s[3] - '1');

    /* King takes own rook: castling, the only thing it can mean here. */
    castle = castle_attempt(p, from, to);
    if (castle && promo == FIG_NONE && own_piece(p, to, FIG_ROOK)) {
        int king_to = CH_SQ(castle == 1 ? 6 : 2, RANK_OF(from));
        if ((i = find_move(legal, n, from, king_to, FIG_NONE)) >= 0
            && MOVE_KIND(legal[i]) == MK_CASTLE) {
            *out = legal[i];
            return 0;
        }
    }
    if ((i = find_move(legal, n, from, to, promo)) >= 0) {
        *out = legal[i];
        return 0;
    }
    if (promo == FIG_NONE) { /* a promotion without its piece? */
        Move promos[4];
        int k = 0;
        for (i = 0; i < n && k < 4; i++)
            if (MOVE_FROM(legal[i]) == from && MOVE_TO(legal[i]) == to)
                promos[k++] = legal[i];
        if (k)
            return err_promotion(p, text, promos[best_promo(promos, k)], e);
    }
    if (promo != FIG_NONE && find_move(legal, n, from, to, FIG_NONE) >= 0)
        return err_set(e, "%s: only a pawn reaching the last rank promotes",
                       text);
    return err_not_legal(p, text, from, to, e);
}

/* ---- Reading SAN -------------------------------------------------------- */

typedef struct SanQuery {
    int fig;                  /* FIG_PAWN .. FIG_KING */
    int from_file, from_rank; /* -1 when not given */
    int to;                   /* destination square */
    int promo;                /* FIG_* or FIG_NONE */
    int capture;              /* an x (or :) was written */
    int castle;               /* 0, 1 king-side, 2 queen-side */
} SanQuery;

enum { SCAN_OK = 0, SCAN_SYNTAX, SCAN_LOWER_PROMO, SCAN_BAD_PROMO };

static int scan_castle(const char *s)
{
    static const char *const KING_SIDE[] = {"O-O", "0-0", "o-o"};
    static const char *const QUEEN_SIDE[] = {"O-O-O", "0-0-0", "o-o-o"};
    for (size_t i = 0; i < ARRAY_LEN(KING_SIDE); i++) {
        if (!strcmp(s, KING_SIDE[i]))
            return 1;
        if (!strcmp(s, QUEEN_SIDE[i]))
            return 2;
    }
    return 0;
}

/* The promotion part after the destination: "=Q", "=q", "/Q", "(Q)", "Q". */
static int scan_promo(const char *t, int *promo)
{
    char letter;
    if (t[0] == '=' || t[0] == '/') {
        letter = (char)toupper((unsigned char)t[1]);
        t += t[1] ? 2 : 1;
    } else if (t[0] == '(' && t[1] && t[2] == ')') {
        letter = (char)toupper((unsigned char)t[1]);
        t += 3;
    } else if (t[0] >= 'A' && t[0] <= 'Z') {
        letter = *t++;
    } else {
        return strchr("qrbnk", t[0]) && !t[1] ? SCAN_LOWER_PROMO : SCAN_SYNTAX;
    }
    if (*t)
        return SCAN_SYNTAX;
    *promo = fig_of_upper(letter);
    if (*promo == FIG_NONE)
        return SCAN_SYNTAX;
    return *promo == FIG_PAWN || *promo == FIG_KING ? SCAN_BAD_PROMO : SCAN_OK;
}

/* Tokenize a SAN move (suffixes already stripped) into q. */
static int scan_san(const char *s, SanQuery *q)
{
    int val[4], nc = 0, sep_at = -1, nfrom, k = 0, rc;
    char kind[4];
    size_t i = 0;

    memset(q, 0, sizeof *q);
    q->from_file = q->from_rank = -1;
    if ((q->castle = scan_castle(s)))
        return SCAN_OK;
    if (s[0] && strchr("KQRBNP", s[0])) {
        q->fig = fig_of_upper(s[0]);
        i = 1;
    } else if (s[0] >= 'a' && s[0] <= 'h') {
        q->fig = FIG_PAWN; /* a lower-case letter is a file, never a piece */
    } else {
        return SCAN_SYNTAX;
    }
    for (; s[i]; i++) {
        char c = s[i];
        if ((c >= 'a' && c <= 'h') || (c >= '1' && c <= '8')) {
            /* "e8b": a lower-case promotion letter that is also a file. */
            if (nc == 4)
                return c == 'b' && !s[i + 1] ? SCAN_LOWER_PROMO : SCAN_SYNTAX;
            kind[nc] = c >= 'a' ? 'f' : 'r';
            val[nc++] = c >= 'a' ? c - 'a' : c - '1';
        } else if (c == 'x' || c == ':' || c == '-') {
            if (sep_at >= 0)
                return SCAN_SYNTAX;
            sep_at = nc;
            q->capture = c != '-';
        } else {
            break;
        }
    }
    if (nc >= 3 && kind[nc - 1] == 'f' && val[nc - 1] == 1 && !s[i]
        && kind[nc - 2] == 'r' && kind[nc - 3] == 'f')
        return SCAN_LOWER_PROMO;
    if (nc < 2 || kind[nc - 2] != 'f' || kind[nc - 1] != 'r')
        return SCAN_SYNTAX;
    q->to = CH_SQ(val[nc - 2], val[nc - 1]);
    nfrom = nc - 2;
    if (k < nfrom && kind[k] == 'f')
        q->from_file = val[k++];
    if (k < nfrom && kind[k] == 'r')
        q->from_rank = val[k++];
    if (k != nfrom || (sep_at >= 0 && sep_at != nfrom))
        return SCAN_SYNTAX;
    if (s[i] && (rc = scan_promo(s + i, &q->promo)) != SCAN_OK)
        return rc;
    return SCAN_OK;
}

/* Does legal move m fit q (the promotion piece aside)? */
static int san_fits(const Position *p, Move m, const SanQuery *q)
{
    int from = MOVE_FROM(m);
    if (q->castle)
        return MOVE_KIND(m) == MK_CASTLE
               && (FILE_OF(MOVE_TO(m)) == 6) == (q->castle == 1);
    if (MOVE_TO(m) != q->to || CH_FIG(p->board[from]) != q->fig)
        return 0;
    if (q->from_file >= 0 && FILE_OF(from) != q->from_file)
        return 0;
    if (q->from_rank >= 0 && RANK_OF(from) != q->from_rank)
        return 0;
    /* A pawn move without a from-file is a push ("d5"); "Pxd5" a capture. */
    if (q->fig == FIG_PAWN && q->from_file < 0
        && (FILE_OF(from) != FILE_OF(q->to)) != q->capture)
        return 0;
    return 1;
}

/* Moves of list fitting q; promotions count only with q's piece when one
 * was given.  Returns the count, moves in out. */
static int san_matches(const Position *p, const Move *list, int n,
                       const SanQuery *q, Move *out)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (san_fits(p, list[i], q)
            && (!q->promo || MOVE_PROMO_FIG(list[i]) == q->promo))
            out[k++] = list[i];
    return k;
}

/* "Nd7 is ambiguous: Nbd7 or Nfd7" for candidates from several squares;
 * a promoting pawn is shown with its queen promotion. */
static int err_ambiguous(const Position *p, const char *text,
                         const Move *cand, int k, Error *e)
{
    Move all[CH_MAX_MOVES], shown[CH_MAX_MOVES];
    int n = chess_legal_moves(p, all), ns = 0;
    char san[NOTATION_MAX];
    StrBuf b = STRBUF_INIT;

    for (int i = 0; i < k; i++) {
        int j = 0;
        while (j < ns && MOVE_FROM(shown[j]) != MOVE_FROM(cand[i]))
            j++;
        if (j == ns)
            shown[ns++] = cand[i];
        else if (MOVE_PROMO_FIG(cand[i]) == FIG_QUEEN)
            shown[j] = cand[i];
    }
    for (int i = 1; i < ns; i++) /* by square, so messages are stable */
        for (int j = i; j > 0 && MOVE_FROM(shown[j]) < MOVE_FROM(shown[j - 1]); j--) {
            Move t = shown[j];
            shown[j] = shown[j - 1];
            shown[j - 1] = t;
        }
    for (int i = 0; i < ns; i++) {
        san_body(p, shown[i], all, n, san);
        sb_printf(&b, "%s%s", i == 0 ? "" : i == ns - 1 ? " or " : ", ", san);
    }
    err_set(e, "%s is ambiguous: %s", text, sb_str(&b));
    sb_free(&b);
    return -1;
}

/* " on the b-file", " on rank 1", " on b1" or "" for q's from-part. */
static void where_text(const SanQuery *q, char *buf, size_t n)
{
    if (q->from_file >= 0 && q->from_rank >= 0)
        snprintf(buf, n, " on %c%c", 'a' + q->from_file, '1' + q->from_rank);
    else if (q->from_file >= 0)
        snprintf(buf, n, " on the %c-file", 'a' + q->from_file);
    else if (q->from_rank >= 0)
        snprintf(buf, n, " on rank %c", '1' + q->from_rank);
    else
        buf[0] = '\0';
}

/* Does a piece (not a pawn) of fig move from -> to by its pattern, on an
 * empty board? */
static int shape_fits(int fig, int from, int to)
{
    int df = abs(FILE_OF(to) - FILE_OF(from));
    int dr = abs(RANK_OF(to) - RANK_OF(from));
    int line = (df == 0) != (dr == 0), diag = df == dr && df > 0;
    switch (fig) {
    case FIG_KNIGHT: return df * dr == 2;
    case FIG_BISHOP: return diag;
    case FIG_ROOK: return line;
    case FIG_QUEEN: return line || diag;
    default: return df <= 1 && dr <= 1 && df + dr > 0;
    }
}

/* The own pawn a pawn move of q would start from, or CH_NO_SQ. */
static int pawn_source(const Position *p, const SanQuery *q)
{
    int dir = p->side == CH_WHITE ? 1 : -1, to = q->to;
    if (q->from_file >= 0 && q->from_file != FILE_OF(to)) {
        int r = RANK_OF(to) - dir;
        int sq = CH_SQ(q->from_file, r);
        return r >= 0 && r < 8 && own_piece(p, sq, FIG_PAWN) ? sq : CH_NO_SQ;
    }
    if (q->capture && q->from_file < 0)
        return CH_NO_SQ;
    /* A push: the nearest own pawn behind the square on its file. */
    for (int r = RANK_OF(to) - dir; r >= 0 && r < 8; r -= dir)
        if (own_piece(p, CH_SQ(FILE_OF(to), r), FIG_PAWN))
            return CH_SQ(FILE_OF(to), r);
    return CH_NO_SQ;
}

/* Explain a SAN move that fits no legal move; always returns -1. */
static int err_san_none(const Position *p, const char *text,
                        const SanQuery *q, Error *e)
{
    Move all[CH_MAX_MOVES], cand[CH_MAX_MOVES];
    SanQuery plain = *q;
    int n = chess_legal_moves(p, all), us = p->side, src = CH_NO_SQ, count;
    char why[320], where[24], sq[3];

    if (san_matches(p, all, n, q, cand))
        return err_set(e, "%s is not a legal move here", text);
    plain.promo = FIG_NONE;
    if (q->promo && (q->fig != FIG_PAWN || san_matches(p, all, n, &plain,
                                                       cand)))
        return err_set(e, "%s: only a pawn reaching the last rank promotes",
                       text);
    if (q->castle) {
        explain_castle(p, q->castle == 1, why, sizeof why);
        if (!why[0])
            return err_set(e, "%s is not a legal move here", text);
        return err_set(e, "%s: %s cannot castle %s (%s)", text,
                       COLOR_NAMES[us], q->castle == 1 ? "king-side"
                                                       : "queen-side", why);
    }
    chess_square_name(q->to, sq);
    if (q->fig == FIG_PAWN) {
        src = pawn_source(p, q);
        if (src == CH_NO_SQ)
            return err_set(e, "%s: no %s pawn can %s %s", text,
                           COLOR_NAMES[us],
                           q->capture || (q->from_file >= 0
                                          && q->from_file != FILE_OF(q->to))
                                   ? "capture on" : "move to",
                           sq);
    } else {
        int fitting = CH_NO_SQ, nfit = 0;
        count = 0;
        for (int s = 0; s < 64; s++) {
            if (!own_piece(p, s, q->fig)
                || (q->from_file >= 0 && FILE_OF(s) != q->from_file)
                || (q->from_rank >= 0 && RANK_OF(s) != q->from_rank))
                continue;
            src = s;
            count++;
            if (shape_fits(q->fig, s, q->to)) {
                fitting = s;
                nfit++;
            }
        }
        where_text(q, where, sizeof where);
        if (count == 0)
            return err_set(e, "%s: %s has no %s%s", text, COLOR_NAMES[us],
                           FIG_NAMES[q->fig], where);
        /* Of several, the one whose way of moving fits is the one meant. */
        if (count > 1 && nfit == 1)
            src = fitting;
        else if (count > 1)
            return err_set(e, "%s: none of %s's %s%s can move to %s", text,
                           COLOR_NAMES[us], FIG_PLURALS[q->fig], where, sq);
    }
    explain_move(p, src, q->to, why, sizeof why);
    if (!why[0])
        return err_set(e, "%s is not a legal move here", text);
    return err_set(e, "%s: %s", text, why);
}

static int parse_san(const Position *p, const Move *legal, int n,
                     const char *text, const char *s, Move *out, Error *e)
{
    Move cand[CH_MAX_MOVES];
    SanQuery q;
    int k, rc = scan_san(s, &q);

    if (rc == SCAN_LOWER_PROMO) {
        int body = (int)strlen(s) - 1;
        char piece = (char)toupper((unsigned char)s[body]);
        return err_set(e, "%s: write the promotion piece in upper case, "
                       "e.g. %.*s=%c or %.*s%c", text, body, s, piece, body,
                       s, piece);
    }
    if (rc == SCAN_BAD_PROMO)
        return err_set(e, "%s: a pawn promotes to a queen, rook, bishop or "
                       "knight (Q, R, B or N)", text);
    if (rc != SCAN_OK)
        return err_set(e, "'%s' is not a move: %s", text, TRY_HINT);
    k = san_matches(p, legal, n, &q, cand);
    if (k == 0)
        return err_san_none(p, text, &q, e);
    for (int i = 1; i < k; i++)
        if (MOVE_FROM(cand[i]) != MOVE_FROM(cand[0]))
            return err_ambiguous(p, text, cand, k, e);
    if (k > 1) /* one pawn, several promotions: q named no piece */
        return err_promotion(p, text, cand[best_promo(cand, k)], e);
    *out = cand[0];
    return 0;
}

/* ---- Entry point ------------------------------------------------------ */

/* Drop trailing check, mate and comment marks and an "e.p." note. */
static void strip_suffixes(char *s)
{
    size_t len = strlen(s);
    for (;;) {
        size_t before = len;
        while (len && (strchr("+#!?", s[len - 1])
                       || isspace((unsigned char)s[len - 1])))
            len--;
        if (len >= 4 && !strncmp(s + len - 4, "e.p.", 4))
            len -= 4;
        else if (len >= 3 && !strncmp(s + len - 2, "ep", 2)
                 && (isdigit((unsigned char)s[len - 3])
                     || isspace((unsigned char)s[len - 3])))
            len -= 2;
        s[len] = '\0';
        if (len == before)
            return;
    }
}

static int parse_text(const Position *p, const Move *legal, int n,
                      const char *text, Move *out, Error *e)
{
    char s[64];
    int rc;

    if (!text[0])
        return err_set(e, "type a move, e.g. %s", TRY_HINT + 4);
    if (strlen(text) >= sizeof s) {
        char q[44];
        return err_set(e, "'%s' is not a move: %s", str_clip(q, sizeof q, text), TRY_HINT);
    }
    str_copy(s, sizeof s, text);
    strip_suffixes(s);
    rc = parse_uci(p, legal, n, text, s, out, e);
    if (rc <= 0)
        return rc;
    return parse_san(p, legal, n, text, s, out, e);
}

int notation_parse(const Position *p, const Move *legal, int n,
                   const char *text, Move *out, Error *e)
{
    char trimmed[80], upper[80];
    Move guess;
    size_t len;

    while (isspace((unsigned char)*text))
        text++;
    len = strlen(text);
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    if (len >= sizeof trimmed)
        len = sizeof trimmed - 1;
    memcpy(trimmed, text, len);
    trimmed[len] = '\0';
    if (parse_text(p, legal, n, trimmed, out, e) == 0)
        return 0;
    /* "nf3", or "bc4" meant for a bishop: say that pieces are upper case
     * (a lower-case b is a file, so only hint when the bishop move fits). */
    if (trimmed[0] && strchr("kqrnb", trimmed[0]) && e) {
        memcpy(upper, trimmed, len + 1);
        upper[0] = (char)toupper((unsigned char)upper[0]);
        if (parse_text(p, legal, n, upper, &guess, NULL) == 0
            || trimmed[0] != 'b') {
            size_t used = strlen(e->msg);
            snprintf(e->msg + used, sizeof e->msg - used,
                     " (piece letters are upper case: did you mean %s?)",
                     upper);
        }
    }
    return -1;
}
