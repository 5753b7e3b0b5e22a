/*
 * ambigus.h -- Échecs ambigus as a variant module (rules AMBI-1 .. AMBI-7):
 * the side to move names a square, the opponent chooses which of the
 * mover's pieces goes there.  One const ops table that the registry lists.
 *
 * Invariant: all of the module's state lives in the game's blob (AmbState
 * in amb.h); the table itself is read-only.
 */
#ifndef CHESSVAR_AMBIGUS_H
#define CHESSVAR_AMBIGUS_H

#include "../../core/variant.h"

extern const VariantOps ambigus_variant;
/* The rules for players (rules.c), printed by `chessvar rules ambigus`. */
extern const char ambigus_rules[];

#endif
