/*
 * position.c -- orthodox positions: the start position, FEN in and out
 * (ORTH-1), validation of outside input, the Zobrist key and the full
 * consistency check.
 *
 * Invariant: chess_from_fen either fills *p with a position that passes
 * chess_position_ok (and could arise in a game as far as cheap tests can
 * tell), or leaves *p untouched and says in e what is wrong.
 * chess_from_fen_rules with CH_FEN_NO_CHECK_RULE is the same reader for
 * variants without check: it skips only the check-rule tests, so the side
 * not to move may be attacked (chess_position_ok then refuses the result).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/action.h"
#include "bitboard.h"

#define START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define FEN_MAX_HALFMOVE 150   /* the 75-move rule ends a game at 150 plies */
#define FEN_MAX_FULLMOVE 9999  /* no game can be that long under ORTH-9 */

static const char *const COLOR_NAME[2] = {"White", "Black"};
static const char PIECE_LETTERS[] = " PNBRQK";

const char *chess_square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + (sq & 7));
    buf[1] = (char)('1' + (sq >> 3));
    buf[2] = '\0';
    return buf;
}

const char *chess_move_uci(Move m, char *buf)
{
    chess_square_name(MOVE_FROM(m), buf);
    chess_square_name(MOVE_TO(m), buf + 2);
    if (MOVE_IS_PROMO(m)) {
        buf[4] = (char)tolower((unsigned char)PIECE_LETTERS[MOVE_PROMO_FIG(m)]);
        buf[5] = '\0';
    }
    return buf;
}

uint64_t chess_compute_key(const Position *p)
{
    uint64_t key = ZOB_CASTLE(p->castling & 15);
    for (int sq = 0; sq < 64; sq++)
        if (p->board[sq] && p->board[sq] < 15)
            key ^= ZOB_PIECE(p->board[sq], sq);
    if (p->side == CH_BLACK)
        key ^= ZOB_SIDE;
    if (p->ep >= 0 && p->ep < 64 && chess_ep_legal(p))
        key ^= ZOB_EP(p->ep & 7);
    return key;
}

static void place(Position *p, int pc, int sq)
{
    p->board[sq] = (uint8_t)pc;
    p->by_color[CH_COLOR(pc)] |= BB(sq);
    p->by_fig[CH_FIG(pc)] |= BB(sq);
}

/* ---- Reading FEN --------------------------------------------------------- */

static int piece_from_letter(char c)
{
    const char *s = strchr(PIECE_LETTERS + 1, toupper((unsigned char)c));
    if (!s || !isalpha((unsigned char)c))
        return 0;
    return CH_PIECE(islower((unsigned char)c) ? CH_BLACK : CH_WHITE,
                    (int)(s - PIECE_LETTERS));
}

/* Field 1: the eight ranks, from rank 8 down to rank 1. */
static int parse_placement(Position *q, const char *s, Error *e)
{
    int ranks = 1;
    for (const char *c = s; *c; c++)
        ranks += *c == '/';
    if (ranks != 8)
        return err_set(e, "FEN placement has %d ranks; expected 8 separated by '/'", ranks);
    int rank = 7, file = 0;
    for (const char *c = s;; c++) {
        if (*c == '/' || *c == '\0') {
            if (file != 8)
                return err_set(e, "FEN rank %d has %d squares; expected 8", rank + 1, file);
            if (*c == '\0')
                return 0;
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
            if (file > 8)
                return err_set(e, "FEN rank %d has more than 8 squares", rank + 1);
        } else {
            int pc = piece_from_letter(*c);
            if (!pc && !isgraph((unsigned char)*c))
                return err_set(e, "unexpected character (code %d) in FEN rank %d",
                               (unsigned char)*c, rank + 1);
            if (!pc && !isalpha((unsigned char)*c))
                return err_set(e, "unexpected character '%c' in FEN rank %d "
                               "(1-8 count empty squares)", *c, rank + 1);
            if (!pc)
                return err_set(e, "unknown piece letter '%c' in FEN rank %d "
                               "(use PNBRQK for White, pnbrqk for Black, 1-8 for empty squares)",
                               *c, rank + 1);
            if (file >= 8)
                return err_set(e, "FEN rank %d has more than 8 squares", rank + 1);
            place(q, pc, CH_SQ(file, rank));
            file++;
        }
    }
}

/* Numbers of pieces (kings, pawns and totals) a game could have. */
static int check_material(const Position *q, Error *e)
{
    for (int c = 0; c < 2; c++) {
        const Bitboard own = q->by_color[c];
        int kings = bb_count(q->by_fig[FIG_KING] & own);
        if (kings == 0)
            return err_set(e, "%s has no King; each side needs exactly one", COLOR_NAME[c]);
        if (kings > 1)
            return err_set(e, "%s has %d Kings; each side needs exactly one",
                           COLOR_NAME[c], kings);
        int pawns = bb_count(q->by_fig[FIG_PAWN] & own);
        if (pawns > 8)
            return err_set(e, "%s has %d pawns; at most 8 are possible", COLOR_NAME[c], pawns);
        if (bb_count(own) > 16)
            return err_set(e, "%s has %d pieces; at most 16 are possible",
                           COLOR_NAME[c], bb_count(own));
        /* Every piece beyond the initial set was a pawn once. */
        static const int initial[7] = {0, 8, 2, 2, 2, 1, 1};
        int promoted = 0;
        for (int f = FIG_KNIGHT; f <= FIG_QUEEN; f++) {
            int n = bb_count(q->by_fig[f] & own);
            promoted += n > initial[f] ? n - initial[f] : 0;
        }
        if (promoted > 8 - pawns)
            return err_set(e, "%s has %d promoted pieces but only %d pawns are missing",
                           COLOR_NAME[c], promoted, 8 - pawns);
    }
    Bitboard edge = q->by_fig[FIG_PAWN] & (BB_RANK_1 | BB_RANK_8);
    if (edge) {
        char sq[3];
        return err_set(e, "pawn on %s: pawns cannot stand on rank 1 or rank 8",
                       chess_square_name(bb_lsb(edge), sq));
    }
    return 0;
}

/* Field 3: castling rights, each needing its King and Rook at home. */
static int parse_castling(Position *q, const char *s, Error *e)
{
    static const struct {
        char letter;
        int right, king, rook, pc_king, pc_rook;
    } RIGHTS[4] = {
        {'K', CASTLE_WK, 4, 7, CH_PIECE(CH_WHITE, FIG_KING), CH_PIECE(CH_WHITE, FIG_ROOK)},
        {'Q', CASTLE_WQ, 4, 0, CH_PIECE(CH_WHITE, FIG_KING), CH_PIECE(CH_WHITE, FIG_ROOK)},
        {'k', CASTLE_BK, 60, 63, CH_PIECE(CH_BLACK, FIG_KING), CH_PIECE(CH_BLACK, FIG_ROOK)},
        {'q', CASTLE_BQ, 60, 56, CH_PIECE(CH_BLACK, FIG_KING), CH_PIECE(CH_BLACK, FIG_ROOK)},
    };
    q->castling = 0;
    if (strcmp(s, "-") == 0)
        return 0;
    for (const char *c = s; *c; c++) {
        int i = 0;
        while (i < 4 && RIGHTS[i].letter != *c)
            i++;
        if (i == 4)
            return err_set(e, "bad castling field \"%s\": use '-' or letters from KQkq", s);
        if (q->castling & RIGHTS[i].right)
            return err_set(e, "castling right '%c' is given twice", *c);
        if (q->board[RIGHTS[i].king] != RIGHTS[i].pc_king ||
            q->board[RIGHTS[i].rook] != RIGHTS[i].pc_rook) {
            char ks[3], rs[3];
            return err_set(e, "castling right '%c' needs the %s King on %s and a Rook on %s",
                           *c, COLOR_NAME[CH_COLOR(RIGHTS[i].pc_king)],
                           chess_square_name(RIGHTS[i].king, ks),
                           chess_square_name(RIGHTS[i].rook, rs));
        }
        q->castling |= (uint8_t)RIGHTS[i].right;
    }
    return 0;
}

/* Field 4: en passant target, only where a double step just landed. */
static int parse_ep(Position *q, const char *s, Error *e)
{
    q->ep = CH_NO_SQ;
    if (strcmp(s, "-") == 0)
        return 0;
    if (strlen(s) != 2 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return err_set(e, "bad en passant field \"%s\": use '-' or a square like e3", s);
    const int us = q->side, them = us ^ 1;
    const int sq = CH_SQ(s[0] - 'a', s[1] - '1');
    const int want_rank = us == CH_WHITE ? 5 : 2;
    if ((sq >> 3) != want_rank)
        return err_set(e, "en passant square %s is on the wrong rank: with %s to move it "
                       "must be on rank %d", s, COLOR_NAME[us], want_rank + 1);
    const int step = us == CH_WHITE ? -8 : 8;   /* towards the pawn that moved */
    char pawn_sq[3], start_sq[3];
    chess_square_name(sq + step, pawn_sq);
    chess_square_name(sq - step, start_sq);
    if (q->board[sq + step] != CH_PIECE(them, FIG_PAWN))
        return err_set(e, "en passant square %s is impossible: no %s pawn on %s that could "
                       "just have made a double step", s, COLOR_NAME[them], pawn_sq);
    if (q->board[sq] || q->board[sq - step])
        return err_set(e, "en passant square %s is impossible: %s and %s must be empty after "
                       "a double step", s, s, start_sq);
    q->ep = (int8_t)sq;
    return 0;
}

/* Fields 5 and 6: a whole number in [lo, hi]. */
static int parse_counter(const char *s, const char *what, long lo, long hi, long *out, Error *e)
{
    if (!isdigit((unsigned char)s[0]))
        return err_set(e, "bad %s \"%s\": expected a whole number from %ld to %ld",
                       what, s, lo, hi);
    errno = 0;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || errno)
        return err_set(e, "bad %s \"%s\": expected a whole number from %ld to %ld",
                       what, s, lo, hi);
    if (v < lo || v > hi)
        return err_set(e, "%s %ld is out of range: expected %ld to %ld", what, v, lo, hi);
    *out = v;
    return 0;
}

/* Split on white space into at most 7 fields (a 7th means too many). */
static int split_fields(char *buf, char *field[7])
{
    int n = 0;
    for (char *c = buf; *c && n < 7;) {
        while (isspace((unsigned char)*c))
            c++;
        if (!*c)
            break;
        field[n++] = c;
        while (*c && !isspace((unsigned char)*c))
            c++;
        if (*c)
            *c++ = '\0';
    }
    return n;
}

static int check_kings_safe(const Position *q, Error *e)
{
    const Bitboard occ = q->by_color[0] | q->by_color[1];
    const int them = q->side ^ 1;
    const int their_king = bb_lsb(q->by_fig[FIG_KING] & q->by_color[them]);
    if (chess_attackers(q, their_king, q->side, occ))
        return err_set(e, "%s is in check but it is %s's turn: the side not to move "
                       "cannot be in check", COLOR_NAME[them], COLOR_NAME[q->side]);
    const int our_king = bb_lsb(q->by_fig[FIG_KING] & q->by_color[q->side]);
    if (bb_count(chess_attackers(q, our_king, them, occ)) > 2)
        return err_set(e, "%s is in check from more than two pieces, which no move can give",
                       COLOR_NAME[q->side]);
    return 0;
}

static int parse_fields(Position *q, char *field[7], int n, unsigned rules, Error *e)
{
    if (parse_placement(q, field[0], e) < 0 || check_material(q, e) < 0)
        return -1;
    if (strcmp(field[1], "w") == 0)
        q->side = CH_WHITE;
    else if (strcmp(field[1], "b") == 0)
        q->side = CH_BLACK;
    else
        return err_set(e, "bad side to move \"%s\": expected 'w' or 'b'", field[1]);
    if (parse_castling(q, field[2], e) < 0 || parse_ep(q, field[3], e) < 0)
        return -1;
    long half = 0, full = 1;
    if (n >= 5 && parse_counter(field[4], "halfmove clock", 0, FEN_MAX_HALFMOVE, &half, e) < 0)
        return -1;
    if (n >= 6 && parse_counter(field[5], "fullmove number", 1, FEN_MAX_FULLMOVE, &full, e) < 0)
        return -1;
    q->halfmove = (uint16_t)half;
    q->fullmove = (uint16_t)full;
    if (!(rules & CH_FEN_NO_CHECK_RULE) && check_kings_safe(q, e) < 0)
        return -1;
    q->ep_keyed = (uint8_t)chess_ep_legal(q);
    q->key = chess_compute_key(q);
    return 0;
}

int chess_from_fen(Position *p, const char *fen, Error *e)
{
    return chess_from_fen_rules(p, fen, 0, e);
}

int chess_from_fen_rules(Position *p, const char *fen, unsigned rules, Error *e)
{
    if (!fen)
        return err_set(e, "no FEN given");
    size_t len = strlen(fen);
    if (len > 200)
        return err_set(e, "FEN is %zu characters long; a FEN has at most about 90", len);
    char buf[208];
    memcpy(buf, fen, len + 1);
    char *field[7];
    int n = split_fields(buf, field);
    if (n < 4 || n > 6)
        return err_set(e, "FEN has %s%d field%s; expected 4 to 6 (placement, side, castling, "
                       "en passant, halfmove clock, fullmove number)", n > 6 ? "more than " : "",
                       n > 6 ? 6 : n, n == 1 ? "" : "s");
    Position q;
    memset(&q, 0, sizeof q);
    if (parse_fields(&q, field, n, rules, e) < 0)
        return -1;
    *p = q;
    return 0;
}

void chess_startpos(Position *p)
{
    int rc = chess_from_fen(p, START_FEN, NULL);
    (void)rc;  /* a constant, valid FEN */
}

/* ---- Writing FEN --------------------------------------------------------- */

void chess_to_fen(const Position *p, StrBuf *out)
{
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int pc = p->board[CH_SQ(file, rank)];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            char c = PIECE_LETTERS[CH_FIG(pc)];
            sb_putc(out, CH_COLOR(pc) == CH_BLACK ? (char)tolower((unsigned char)c) : c);
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (rank)
            sb_putc(out, '/');
    }
    sb_puts(out, p->side == CH_WHITE ? " w " : " b ");
    if (!p->castling)
        sb_putc(out, '-');
    static const char CASTLE_LETTERS[] = "KQkq";
    for (int i = 0; i < 4; i++)
        if (p->castling & (1 << i))
            sb_putc(out, CASTLE_LETTERS[i]);
    char sq[3];
    sb_printf(out, " %s %u %u", p->ep >= 0 ? chess_square_name(p->ep, sq) : "-",
              (unsigned)p->halfmove, (unsigned)p->fullmove);
}

/* ---- Consistency ------------------------------------------------------- */

static int castling_ok(const Position *p)
{
    static const int king[4] = {4, 4, 60, 60}, rook[4] = {7, 0, 63, 56};
    for (int i = 0; i < 4; i++) {
        int color = i >= 2 ? CH_BLACK : CH_WHITE;
        if ((p->castling & (1 << i)) &&
            (p->board[king[i]] != CH_PIECE(color, FIG_KING) ||
             p->board[rook[i]] != CH_PIECE(color, FIG_ROOK)))
            return 0;
    }
    return p->castling < 16;
}

static int ep_ok(const Position *p)
{
    if (p->ep == CH_NO_SQ)
        return p->ep_keyed == 0;
    if (p->ep < 0 || p->ep > 63)
        return 0;
    const int us = p->side, step = us == CH_WHITE ? -8 : 8;
    if ((p->ep >> 3) != (us == CH_WHITE ? 5 : 2))
        return 0;
    if (p->board[p->ep + step] != CH_PIECE(us ^ 1, FIG_PAWN) || p->board[p->ep] ||
        p->board[p->ep - step])
        return 0;
    return p->ep_keyed == chess_ep_legal(p);
}

static int boards_agree(const Position *p)
{
    if (p->by_color[0] & p->by_color[1])
        return 0;
    Bitboard all = 0;
    for (int f = FIG_PAWN; f <= FIG_KING; f++) {
        if (all & p->by_fig[f])
            return 0;
        all |= p->by_fig[f];
    }
    if (p->by_fig[0] || all != (p->by_color[0] | p->by_color[1]))
        return 0;
    for (int sq = 0; sq < 64; sq++) {
        int pc = p->board[sq];
        if (!pc) {
            if (all & BB(sq))
                return 0;
            continue;
        }
        if ((pc & ~15) || CH_FIG(pc) < FIG_PAWN || CH_FIG(pc) > FIG_KING ||
            !(p->by_color[CH_COLOR(pc)] & BB(sq)) || !(p->by_fig[CH_FIG(pc)] & BB(sq)))
            return 0;
    }
    return 1;
}

int chess_position_ok(const Position *p)
{
    if (p->side > 1 || !boards_agree(p))
        return 0;
    for (int c = 0; c < 2; c++)
        if (bb_count(p->by_fig[FIG_KING] & p->by_color[c]) != 1)
            return 0;
    if (p->by_fig[FIG_PAWN] & (BB_RANK_1 | BB_RANK_8))
        return 0;
    if (!castling_ok(p) || !ep_ok(p) || p->fullmove < 1)
        return 0;
    const int them = p->side ^ 1;
    const int their_king = bb_lsb(p->by_fig[FIG_KING] & p->by_color[them]);
    if (chess_attackers(p, their_king, p->side, p->by_color[0] | p->by_color[1]))
        return 0;
    return p->key == chess_compute_key(p);
}
