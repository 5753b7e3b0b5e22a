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
#include <string.h>

#include "amb.h"
#include "../orthodox/bitboard.h"
#include "../../core/action.h"

#define AMB_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

const char *const AMB_SIDE_NAMES[2] = {"white", "black"};

/* ---- Fields ---------------------------------------------------------------- */

/* Split on white space into at most max fields; max + 1 means more. */
static int split(char *buf, char *field[], int max)
{
    static const char SPACE[] = " \t\n\v\f\r"; /* isspace in the C locale */
    char *save = NULL;
    int n = 0;
    for (char *f = strtok_r(buf, SPACE, &save); f; f = strtok_r(NULL, SPACE, &save)) {
        if (n == max)
            return max + 1;
        field[n++] = f;
    }
    return n;
}

static int read_square(const char *s, int *sq)
{
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    *sq = CH_SQ(s[0] - 'a', s[1] - '1');
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
    /* Before the orthodox reader, whose castling messages would suggest a
     * right that does not exist here. */
    if (strcmp(field[2], "-") != 0)
        return err_set(e, "no castling in Échecs ambigus (AMBI-4): the castling field "
                       "must be '-', not \"%s\"", field[2]);
    /* The orthodox reader does the FEN fields; only the check rule is not
     * ours (AMBI-4: the side not to move may have its King attacked). */
    char fen[208];
    size_t used = 0;
    for (int i = 0; i < n && i < 6; i++) {
        const size_t k = strlen(field[i]);
        if (i)
            fen[used++] = ' ';
        memcpy(fen + used, field[i], k);
        used += k;
    }
    fen[used] = '\0';
    AmbState q;
    memset(&q, 0, sizeof q);
    q.named = -1;
    if (chess_from_fen_rules(&q.pos, fen, CH_FEN_NO_CHECK_RULE, e))
        return -1;
    /* Our own repetition key: en passant counts whenever a pawn of the
     * side to move can take there, whatever that does to its own King. */
    q.pos.ep_keyed = (uint8_t)amb_ep_possible(&q.pos);
    q.pos.key = amb_board_key(&q.pos);
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
