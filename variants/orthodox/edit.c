/*
 * edit.c -- house-rule edits of a chess board, shared by orthodox and
 * ambigus: the tests the board alone can answer, the change itself, the
 * castling rights and en passant target it makes void, and the texts of
 * the message and of refusals.
 *
 * Invariant: on -1 the Position is untouched; on 0 its board, bitboards,
 * castling rights and en passant target agree with each other (the key
 * and ep_keyed are the caller's to rebuild through its reader).
 */
#include <stdio.h>
#include <string.h>

#include "edit.h"
#include "bitboard.h"

static const char *const COLOR_TEXT[2] = {"white", "black"};
static const char *const FIG_TEXT[7] = {"?", "pawn", "knight", "bishop", "rook", "queen",
                                        "King"};

const char *chess_edit_piece_text(const Position *p, int sq, char *buf, size_t n)
{
    const int pc = p->board[sq];
    char name[3];
    snprintf(buf, n, "the %s %s on %s", COLOR_TEXT[CH_COLOR(pc)], FIG_TEXT[CH_FIG(pc)],
             chess_square_name(sq, name));
    return buf;
}

static void put_piece(Position *p, int pc, int sq)
{
    p->board[sq] = (uint8_t)pc;
    p->by_color[CH_COLOR(pc)] |= BB(sq);
    p->by_fig[CH_FIG(pc)] |= BB(sq);
}

static void take_piece(Position *p, int sq)
{
    const int pc = p->board[sq];
    p->board[sq] = 0;
    p->by_color[CH_COLOR(pc)] &= ~BB(sq);
    p->by_fig[CH_FIG(pc)] &= ~BB(sq);
}

/* Castling rights whose King or Rook no longer stands at home go. */
static void drop_castling(Position *p)
{
    static const int king[4] = {4, 4, 60, 60}, rook[4] = {7, 0, 63, 56};
    for (int i = 0; i < 4; i++) {
        const int color = i >= 2 ? CH_BLACK : CH_WHITE;
        if (p->board[king[i]] != CH_PIECE(color, FIG_KING) ||
            p->board[rook[i]] != CH_PIECE(color, FIG_ROOK))
            p->castling &= (uint8_t)~(1 << i);
    }
}

/* The en passant target goes when the pawn that made the double step is
 * gone or changed, or when the squares it crossed are no longer empty. */
static void drop_ep(Position *p)
{
    if (p->ep == CH_NO_SQ)
        return;
    const int step = p->side == CH_WHITE ? -8 : 8; /* towards the pawn */
    if (p->board[p->ep + step] != CH_PIECE(p->side ^ 1, FIG_PAWN) || p->board[p->ep] ||
        p->board[p->ep - step])
        p->ep = CH_NO_SQ;
}

static int king_square(const Position *p, int color)
{
    const Bitboard k = p->by_fig[FIG_KING] & p->by_color[color];
    return k ? bb_lsb(k) : CH_NO_SQ;
}

/* Refusals that name the King of color; 1 if the figure is a King. */
static int refuse_king(const Position *p, int color, const char *what,
                       const ChessEditRules *r, Error *e)
{
    char name[3];
    const int k = king_square(p, color);
    if (k == CH_NO_SQ)
        err_set(e, "cannot %s: each side keeps exactly one King (%s)", what, r->king_rule);
    else
        err_set(e, "cannot %s: %s has its King on %s and each side keeps exactly one King "
                "(%s)", what, COLOR_TEXT[color], chess_square_name(k, name), r->king_rule);
    return -1;
}

static int refuse_pawn_rank(int sq, const char *what, const ChessEditRules *r, Error *e)
{
    return err_set(e, "cannot %s: a pawn never stands on rank %d (rank 1 and rank 8 have no "
                   "pawns: %s)", what, (sq >> 3) + 1, r->pawn_rule);
}

static int edit_remove(Position *p, int sq, const ChessEditRules *r, StrBuf *said,
                       StrBuf *what, Error *e)
{
    char piece[48], name[3];
    if (!p->board[sq])
        return err_set(e, "no piece on %s", chess_square_name(sq, name));
    chess_edit_piece_text(p, sq, piece, sizeof piece);
    sb_printf(what, "remove %s", piece);
    if (CH_FIG(p->board[sq]) == FIG_KING)
        return err_set(e, "cannot remove %s: each side keeps exactly one King (%s)", piece,
                       r->king_rule);
    take_piece(p, sq);
    sb_printf(said, "house rule: %s is removed", piece);
    return 0;
}

static int edit_add(Position *p, int sq, const Edit *ed, const ChessEditRules *r,
                    StrBuf *said, StrBuf *what, Error *e)
{
    char piece[48], name[3];
    chess_square_name(sq, name);
    if (ed->side != CH_WHITE && ed->side != CH_BLACK)
        return err_set(e, "cannot add a piece on %s for side %d: the sides are white and "
                       "black", name, ed->side);
    if (ed->figure < FIG_PAWN || ed->figure > FIG_KING)
        return err_set(e, "cannot add a piece on %s: figure %d is not one of P N B R Q K",
                       name, ed->figure);
    sb_printf(what, "add a %s %s on %s", COLOR_TEXT[ed->side], FIG_TEXT[ed->figure], name);
    if (ed->masked)
        return err_set(e, "cannot %s masked: no piece is masked in this game", sb_str(what));
    if (p->board[sq])
        return err_set(e, "cannot %s: %s stands there (remove it first)", sb_str(what),
                       chess_edit_piece_text(p, sq, piece, sizeof piece));
    if (ed->figure == FIG_KING)
        return refuse_king(p, ed->side, sb_str(what), r, e);
    if (ed->figure == FIG_PAWN && (BB(sq) & (BB_RANK_1 | BB_RANK_8)))
        return refuse_pawn_rank(sq, sb_str(what), r, e);
    put_piece(p, CH_PIECE(ed->side, ed->figure), sq);
    sb_printf(said, "house rule: a %s %s is added on %s", COLOR_TEXT[ed->side],
              FIG_TEXT[ed->figure], name);
    return 0;
}

static int edit_change(Position *p, int sq, const Edit *ed, const ChessEditRules *r,
                       StrBuf *said, StrBuf *what, Error *e)
{
    char piece[48], name[3];
    chess_square_name(sq, name);
    if (!p->board[sq])
        return err_set(e, "no piece on %s", name);
    chess_edit_piece_text(p, sq, piece, sizeof piece);
    if (ed->figure < FIG_PAWN || ed->figure > FIG_KING)
        return err_set(e, "cannot change %s: figure %d is not one of P N B R Q K", piece,
                       ed->figure);
    const int color = CH_COLOR(p->board[sq]), old = CH_FIG(p->board[sq]);
    sb_printf(what, "change %s into a %s", piece, FIG_TEXT[ed->figure]);
    if (old == ed->figure)
        return err_set(e, "cannot %s: it is one already", sb_str(what));
    if (old == FIG_KING)
        return err_set(e, "cannot %s: each side keeps exactly one King (%s)", sb_str(what),
                       r->king_rule);
    if (ed->figure == FIG_KING)
        return refuse_king(p, color, sb_str(what), r, e);
    if (ed->figure == FIG_PAWN && (BB(sq) & (BB_RANK_1 | BB_RANK_8)))
        return refuse_pawn_rank(sq, sb_str(what), r, e);
    take_piece(p, sq);
    put_piece(p, CH_PIECE(color, ed->figure), sq);
    sb_printf(said, "house rule: %s becomes a %s", piece, FIG_TEXT[ed->figure]);
    return 0;
}

/* EDIT_TURN (issue 25): ed->side moves next; the en passant target goes
 * unless ed->at names one a pawn of the other side just made (a side never
 * takes its own pawn: the old target was for the opponent). */
static int edit_turn(Position *p, const Edit *ed, StrBuf *said, StrBuf *what, Error *e)
{
    if (ed->side != CH_WHITE && ed->side != CH_BLACK)
        return err_set(e, "cannot give the turn to side %d: the sides are white and black",
                       ed->side);
    sb_printf(what, "give the turn to %s", COLOR_TEXT[ed->side]);
    if (ed->figure == FIG_DUCK)
        return err_set(e, "cannot %s with a duck to place: this engine has no duck (duck "
                       "chess is played on the fairy variant)", sb_str(what));
    if (ed->figure != FIG_NONE)
        return err_set(e, "cannot %s: figure %d is not the duck", sb_str(what), ed->figure);
    p->side = (uint8_t)ed->side;
    p->ep = CH_NO_SQ;
    if (ed->at.x >= 0 || ed->at.y >= 0) {
        char name[3];
        if (ed->at.x > 7 || ed->at.y > 7 || ed->at.x < 0 || ed->at.y < 0)
            return err_set(e, "cannot %s: en passant square (%d,%d) is off the 8x8 board",
                           sb_str(what), (int)ed->at.x, (int)ed->at.y);
        p->ep = (int8_t)CH_SQ((int)ed->at.x, (int)ed->at.y);
        drop_ep(p);
        if (p->ep == CH_NO_SQ || (ed->at.y != 2 && ed->at.y != 5))
            return err_set(e, "cannot %s with en passant on %s: no %s pawn just passed it",
                           sb_str(what),
                           chess_square_name(CH_SQ((int)ed->at.x, (int)ed->at.y), name),
                           COLOR_TEXT[ed->side ^ 1]);
    }
    sb_printf(said, "house rule: %s moves again", COLOR_TEXT[ed->side]);
    return 0;
}

int chess_edit_board(Position *p, const Edit *ed, const ChessEditRules *r,
                     StrBuf *said, StrBuf *what, Error *e)
{
    if (ed->kind == EDIT_TURN) {
        Position q = *p;
        if (edit_turn(&q, ed, said, what, e))
            return -1;
        *p = q;
        return 0;
    }
    if (ed->at.x < 0 || ed->at.x > 7 || ed->at.y < 0 || ed->at.y > 7)
        return err_set(e, "square (%d,%d) is off the 8x8 board", (int)ed->at.x,
                       (int)ed->at.y);
    const int sq = CH_SQ((int)ed->at.x, (int)ed->at.y);
    Position q = *p;
    int rc;
    if (ed->kind == EDIT_REMOVE)
        rc = edit_remove(&q, sq, r, said, what, e);
    else if (ed->kind == EDIT_ADD)
        rc = edit_add(&q, sq, ed, r, said, what, e);
    else if (ed->kind == EDIT_CHANGE)
        rc = edit_change(&q, sq, ed, r, said, what, e);
    else
        rc = err_set(e, "unknown edit %d", ed->kind);
    if (rc)
        return -1;
    drop_castling(&q);
    drop_ep(&q);
    *p = q;
    return 0;
}

void chess_edit_fen(const Position *p, StrBuf *out)
{
    Position q = *p;
    q.halfmove = 0;
    q.fullmove = 1;
    chess_to_fen(&q, out);
}
