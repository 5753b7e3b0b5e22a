/*
 * toy_variant.h -- a small test-only variant that exercises what orthodox
 * chess does not: three sides on the unbounded plane, hidden secrets, a
 * decision by a seat that is not the side to move, seats commanding
 * several sides, and a seat joining mid-game.  The rules (TOY-1 ..) are at
 * the top of toy_variant.c.  Not in the registry: tests use it directly.
 *
 * Invariant: the whole toy position is its plain state blob; the helpers
 * below only read it.
 */
#ifndef CHESSVAR_TOY_VARIANT_H
#define CHESSVAR_TOY_VARIANT_H

#include <stdint.h>
#include "../../core/game.h"

/* Secrets are drawn from [TOY_SECRET_MIN, TOY_SECRET_MAX]: nine digits,
 * distinctive enough for tests to search views and messages for them. */
#define TOY_SECRET_MIN 700000000
#define TOY_SECRET_MAX 899999999
/* Tokens never leave [-TOY_LIMIT, TOY_LIMIT] on either axis. */
#define TOY_LIMIT 1000000

extern const VariantOps toy_variant;
/* The toy's board mode (issue 24, TOYB-1 ..): a size x size board (up to
 * 16 x 16) with lettered pieces and pieces in hand, for the faces' tests. */
extern const VariantOps toy_board_variant;

/* Full truth, for tests: the secret of side, and the seat commanding it. */
int32_t toy_secret(const Game *g, int side);
int toy_commander(const Game *g, int side);
/* Where side's token stands. */
Coord toy_token(const Game *g, int side);
/* The judge's guess about the side to move's pending step (TOY-5): the
 * right one cancels the step, the wrong one lets it happen. */
const char *toy_right_guess(const Game *g);
const char *toy_wrong_guess(const Game *g);

#endif
