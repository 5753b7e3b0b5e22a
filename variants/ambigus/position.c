/*
 * position.c -- Échecs ambigus position strings: FEN in and out, with an
 * optional phase suffix, the repetition key of the whole state and the
 * consistency check.
 *
 *   FEN                   the side to move names a square
 *   FEN choose SQ         it named SQ; its opponent must choose the piece
 *   FEN capture SQ        it named SQ, the enemy King's square: game over
 *
 * The FEN is standard, with two differences from orthodox chess: the
 * castling field must be '-' (AMBI-4), and the side not to move may have
 * its King attacked (there is no check).  A suffix needs all six fields.
 *
 * Invariant: amb_read either fills *s with a state that passes
 * amb_state_ok or leaves *s untouched and says in e what is wrong.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "amb.h"
#include "../orthodox/bitboard.h"
#include "../../core/action.h"

#define AMB_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
#define MAX_HALFMOVE 150  /* the 75-move rule ends a game there (ORTH-9) */
#define MAX_FULLMOVE 9999

const char *const AMB_SIDE_NAMES[2] = {"white", "black"};
static const char *const COLOUR[2] = {"White", "Black"};

/* ---- Fields ---------------------------------------------------------------- */

static int split(char *buf, char *field[], int max)
{
    int n = 0;
    for (char *c = buf; *c;) {
        while (isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        if (n == max)
            return max + 1;
        field[n++] = c;
        while (*c && !isspace((unsigned char)*c))
            c++;
        if (*c)
            *c++ = '\0';
    }
    return n;
}

static int piece_code(char c)
{
    int fig = figure_from_letter(c);
    if (!isalpha((unsigned char)c) || fig == FIG_NONE)
        return 0;
    return CH_PIECE(islower((unsigned char)c) ? CH_BLACK : CH_WHITE, fig);
}

static int read_placement(Position *q, const char *s, Error *e)
{
    int rank = 7, file = 0;
    for (const char *c = s;; c++) {
        if (*c == '/' || *c == '\0') {
            if (file != 8)
                return err_set(e, "FEN rank %d has %d squares; expected 8", rank + 1, file);
            if (*c == '\0')
                break;
            if (--rank < 0)
                return err_set(e, "FEN placement has more than 8 ranks");
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return err_set(e, "FEN rank %d has more than 8 squares", rank + 1);
        } else {
            const int pc = piece_code(*c);
            if (!pc)
                return err_set(e, "unexpected character '%c' in FEN rank %d (use PNBRQK for "
                               "White, pnbrqk for Black, 1-8 for empty squares)",
                               isgraph((unsigned char)*c) ? *c : '?', rank + 1);
            if (file >= 8)
                return err_set(e, "FEN rank %d has more than 8 squares", rank + 1);
            const int sq = CH_SQ(file, rank);
            q->board[sq] = (uint8_t)pc;
            q->by_color[CH_COLOR(pc)] |= BB(sq);
            q->by_fig[CH_FIG(pc)] |= BB(sq);
            file++;
        }
    }
    if (rank != 0)
        return err_set(e, "FEN placement has %d ranks; expected 8 separated by '/'", 8 - rank);
    return 0;
}

/* One King per side while the game runs; the material a game can have. */
static int check_material(const Position *q, Error *e)
{
    static const int initial[7] = {0, 8, 2, 2, 2, 1, 1};
    for (int c = 0; c < 2; c++) {
        const Bitboard own = q->by_color[c];
        const int kings = bb_count(q->by_fig[FIG_KING] & own);
        if (kings != 1)
            return err_set(e, "%s has %d Kings; each side has exactly one while the game "
                           "runs (a King named is a King taken: the game is over)",
                           COLOUR[c], kings);
        const int pawns = bb_count(q->by_fig[FIG_PAWN] & own);
        if (pawns > 8 || bb_count(own) > 16)
            return err_set(e, "%s has %d pieces and %d pawns; at most 16 and 8 are possible",
                           COLOUR[c], bb_count(own), pawns);
        int promoted = 0;
        for (int f = FIG_KNIGHT; f <= FIG_QUEEN; f++) {
            const int n = bb_count(q->by_fig[f] & own);
            promoted += n > initial[f] ? n - initial[f] : 0;
        }
        if (promoted > 8 - pawns)
            return err_set(e, "%s has %d promoted pieces but only %d pawns are missing",
                           COLOUR[c], promoted, 8 - pawns);
    }
    const Bitboard edge = q->by_fig[FIG_PAWN] & (BB_RANK_1 | BB_RANK_8);
    if (edge) {
        char sq[3];
        return err_set(e, "pawn on %s: pawns cannot stand on rank 1 or rank 8",
                       chess_square_name(bb_lsb(edge), sq));
    }
    return 0;
}

static int read_square(const char *s, int *sq)
{
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    *sq = CH_SQ(s[0] - 'a', s[1] - '1');
    return 0;
}

/* En passant target: only where a double step just landed. */
static int read_ep(Position *q, const char *s, Error *e)
{
    int sq;
    q->ep = CH_NO_SQ;
    if (strcmp(s, "-") == 0)
        return 0;
    if (read_square(s, &sq))
        return err_set(e, "bad en passant field \"%s\": use '-' or a square like e3", s);
    const int us = q->side, them = us ^ 1, back = us == CH_WHITE ? -8 : 8;
    if ((sq >> 3) != (us == CH_WHITE ? 5 : 2))
        return err_set(e, "en passant square %s is on the wrong rank: with %s to move it "
                       "must be on rank %d", s, COLOUR[us], us == CH_WHITE ? 6 : 3);
    if (q->board[sq + back] != CH_PIECE(them, FIG_PAWN) || q->board[sq] ||
        q->board[sq - back]) {
        char pawn[3], start[3];
        return err_set(e, "en passant square %s is impossible: it needs a %s pawn on %s "
                       "that just made a double step from %s, and %s and %s empty", s,
                       COLOUR[them], chess_square_name(sq + back, pawn),
                       chess_square_name(sq - back, start), s, start);
    }
    q->ep = (int8_t)sq;
    return 0;
}

static int read_counter(const char *s, const char *what, long lo, long hi, long *out, Error *e)
{
    char *end;
    errno = 0;
    long v = isdigit((unsigned char)s[0]) ? strtol(s, &end, 10) : -1;
    if (v < 0 || *end || errno)
        return err_set(e, "bad %s \"%s\": expected a whole number from %ld to %ld",
                       what, s, lo, hi);
    if (v < lo || v > hi)
        return err_set(e, "%s %ld is out of range: expected %ld to %ld", what, v, lo, hi);
    *out = v;
    return 0;
}

static int read_fen(Position *q, char *field[], int n, Error *e)
{
    if (read_placement(q, field[0], e) || check_material(q, e))
        return -1;
    if (strcmp(field[1], "w") && strcmp(field[1], "b"))
        return err_set(e, "bad side to move \"%s\": expected 'w' or 'b'", field[1]);
    q->side = field[1][0] == 'w' ? CH_WHITE : CH_BLACK;
    if (strcmp(field[2], "-") != 0)
        return err_set(e, "no castling in Échecs ambigus (AMBI-4): the castling field "
                       "must be '-', not \"%s\"", field[2]);
    if (read_ep(q, field[3], e))
        return -1;
    long half = 0, full = 1;
    if (n >= 5 && read_counter(field[4], "halfmove clock", 0, MAX_HALFMOVE, &half, e))
        return -1;
    if (n >= 6 && read_counter(field[5], "fullmove number", 1, MAX_FULLMOVE, &full, e))
        return -1;
    q->halfmove = (uint16_t)half;
    q->fullmove = (uint16_t)full;
    q->ep_keyed = (uint8_t)amb_ep_possible(q);
    q->key = amb_board_key(q);
    return 0;
}

/* The phase suffix: "choose SQ" or "capture SQ". */
static int read_phase(AmbState *s, const char *word, const char *square, Error *e)
{
    int sq;
    char buf[3];
    const int capture = strcmp(word, "capture") == 0;
    if (!capture && strcmp(word, "choose") != 0)
        return err_set(e, "unexpected \"%s\" after the FEN: a position string may end with "
                       "\"choose SQ\" (a choice is pending) or \"capture SQ\" (a King was "
                       "named)", word);
    if (read_square(square, &sq))
        return err_set(e, "%s %s: expected a square like f3", word, square);
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int n = amb_moves(&s->pos, list);
    const int k = amb_candidates(list, n, sq, cand);
    const int king = amb_king_square(&s->pos, s->pos.side ^ 1);
    if (capture && sq != king)
        return err_set(e, "capture %s: the %s King stands on %s", square,
                       AMB_SIDE_NAMES[s->pos.side ^ 1], chess_square_name(king, buf));
    if (!capture && sq == king)
        return err_set(e, "choose %s: naming the enemy King's square ends the game; write "
                       "\"capture %s\"", square, square);
    if (k == 0)
        return err_set(e, "%s %s: no %s piece can go to %s", word, square,
                       AMB_SIDE_NAMES[s->pos.side], square);
    if (!capture && k == 1)
        return err_set(e, "choose %s: only one %s piece can go to %s, so there is no "
                       "choice to make (AMBI-2)", square, AMB_SIDE_NAMES[s->pos.side], square);
    s->phase = capture ? AP_OVER : AP_CHOOSE;
    s->named = (int8_t)sq;
    return 0;
}

int amb_read(AmbState *s, const char *text, Error *e)
{
    if (!text)
        return err_set(e, "no position given");
    const size_t len = strlen(text);
    if (len > 200)
        return err_set(e, "position string is %zu characters long; a FEN has at most about "
                       "90", len);
    char buf[208];
    memcpy(buf, text, len + 1);
    char *field[8];
    const int n = split(buf, field, 8);
    if (n < 4 || n == 7 || n > 8)
        return err_set(e, "position has %d field%s; expected a FEN of 4 to 6 fields "
                       "(placement, side, castling '-', en passant, halfmove clock, fullmove "
                       "number), then optionally \"choose SQ\" or \"capture SQ\"",
                       n > 8 ? 9 : n, n == 1 ? "" : "s");
    AmbState q;
    memset(&q, 0, sizeof q);
    q.named = -1;
    if (read_fen(&q.pos, field, n < 6 ? n : 6, e))
        return -1;
    if (n == 8 && read_phase(&q, field[6], field[7], e))
        return -1;
    *s = q;
    return 0;
}

void amb_start(AmbState *s)
{
    int rc = amb_read(s, AMB_START, NULL);
    assert(rc == 0); /* a constant, valid FEN */
    (void)rc;
}

void amb_write(const AmbState *s, StrBuf *out)
{
    char sq[3];
    chess_to_fen(&s->pos, out);
    if (s->phase != AP_NAME)
        sb_printf(out, " %s %s", s->phase == AP_CHOOSE ? "choose" : "capture",
                  chess_square_name(s->named, sq));
}

uint64_t amb_hash(const AmbState *s)
{
    uint64_t key = s->pos.key;
    if (s->phase != AP_NAME) /* a choice pending, or the game over */
        key ^= mix64(((uint64_t)s->phase << 8) | (uint64_t)(uint8_t)s->named);
    return key;
}

/* ---- Consistency ------------------------------------------------------------ */

static int boards_ok(const Position *p)
{
    Bitboard all = 0;
    if (p->by_color[0] & p->by_color[1] || p->by_fig[0])
        return 0;
    for (int f = FIG_PAWN; f <= FIG_KING; f++) {
        if (all & p->by_fig[f])
            return 0;
        all |= p->by_fig[f];
    }
    if (all != (p->by_color[0] | p->by_color[1]))
        return 0;
    for (int sq = 0; sq < 64; sq++) {
        const int pc = p->board[sq];
        if (!pc ? (all & BB(sq)) != 0
                : (pc & ~15) || CH_FIG(pc) < FIG_PAWN || CH_FIG(pc) > FIG_KING ||
                      !(p->by_color[CH_COLOR(pc)] & BB(sq)) || !(p->by_fig[CH_FIG(pc)] & BB(sq)))
            return 0;
    }
    return 1;
}

static int ep_ok(const Position *p)
{
    if (p->ep == CH_NO_SQ)
        return p->ep_keyed == 0;
    if (p->ep < 0 || p->ep > 63)
        return 0;
    const int back = p->side == CH_WHITE ? -8 : 8;
    if ((p->ep >> 3) != (p->side == CH_WHITE ? 5 : 2) ||
        p->board[p->ep + back] != CH_PIECE(p->side ^ 1, FIG_PAWN) || p->board[p->ep] ||
        p->board[p->ep - back])
        return 0;
    return p->ep_keyed == amb_ep_possible(p);
}

int amb_state_ok(const AmbState *s)
{
    const Position *p = &s->pos;
    if (p->side > 1 || p->castling || !boards_ok(p) || !ep_ok(p) || p->fullmove < 1)
        return 0;
    for (int c = 0; c < 2; c++)
        if (bb_count(p->by_fig[FIG_KING] & p->by_color[c]) != 1)
            return 0;
    if ((p->by_fig[FIG_PAWN] & (BB_RANK_1 | BB_RANK_8)) || p->key != amb_board_key(p))
        return 0;
    if (s->phase == AP_NAME)
        return s->named == -1 && !s->has_proposal;
    if (s->phase > AP_OVER || s->named < 0 || s->named > 63)
        return 0;
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int n = amb_moves(p, list);
    const int k = amb_candidates(list, n, s->named, cand);
    const int king = s->named == amb_king_square(p, p->side ^ 1);
    if (s->phase == AP_OVER)
        return king && k >= 1 && !s->has_proposal;
    if (king || k < 2)
        return 0;
    for (int i = 0; s->has_proposal && i < k; i++)
        if (cand[i] == s->proposal)
            return 1;
    return !s->has_proposal;
}
