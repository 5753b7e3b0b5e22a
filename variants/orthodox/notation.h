/*
 * notation.h -- reading and writing orthodox chess moves as text: UCI
 * (e2e4, e7e8q, e1g1) and SAN (Nf3, exd5, Nbd7, O-O, e8=Q+).  Shared by
 * every variant that plays on the orthodox engine.
 *
 * Invariant: a move is only ever read as an entry of a given list of legal
 * moves, never invented; whatever does not match exactly one entry is an
 * error with a message that says why (syntax, ambiguity, missing promotion
 * piece, or what keeps the piece from going there).
 *
 * Accepted input (ORTH notation rules, docs/RULES.md):
 *  - UCI: from and to squares, then a promotion letter (q r b n, either
 *    case).  Castling is the king's two-square move (e1g1, e1c1).  As a
 *    convenience "king takes own rook" (e1h1, e1a1) also means castling,
 *    because in orthodox chess that move can mean nothing else; it is only
 *    read so when the king stands on the from square, one of its own rooks
 *    on the to square, and castling on that side is legal.
 *  - SAN: Nf3, exd5, Nbd7, R1e2, Qh4xe1, O-O, O-O-O (also 0-0, 0-0-0, o-o),
 *    e8=Q, e8Q, e8=q, e8(Q), long forms (Ng1-f3, e2-e4, Ng1f3), a pawn
 *    capture without the x (ed5), a capture mark on a quiet move, an en
 *    passant capture with or without "e.p.", a king's two-square move as
 *    castling (Kg1), and any trailing + # ! ? marks.  Upper-case letters are
 *    pieces; lower-case letters are files (so "bc4" is a pawn move), except
 *    after "=" where only a promotion piece can stand.
 *  - Ambiguity is never guessed: "Nd7 is ambiguous: Nbd7 or Nfd7".
 */
#ifndef CHESSVAR_NOTATION_H
#define CHESSVAR_NOTATION_H

#include "../../core/util.h"
#include "chess.h"

/* Longest SAN or UCI text we write, NUL included ("Qh4xe1=Q#" fits). */
#define NOTATION_MAX 16

/* Read `text` (UCI first, then SAN) as one of the n moves in `legal`, which
 * must be legal moves of p (a subset is fine: a move missing from it is
 * refused as "not a legal move here").  Returns 0 and stores the move, or
 * -1 with a message that starts with the text as typed. */
int notation_parse(const Position *p, const Move *legal, int n,
                   const char *text, Move *out, Error *e);

/* Append the SAN of legal move m of p: disambiguation by file, then rank,
 * then both (against every legal move of p); x for captures, en passant
 * included; =Q for promotions; O-O / O-O-O; + for check, # for mate. */
void notation_san(const Position *p, Move m, StrBuf *out);

/* Same into a buffer of at least NOTATION_MAX bytes; returns buf. */
const char *notation_san_buf(const Position *p, Move m, char *buf);

/* Append the UCI form of m (e2e4, e7e8q, e1g1). */
void notation_uci(Move m, StrBuf *out);

#endif
