/*
 * orthodox.h -- the orthodox chess variant module (rules ORTH-1 .. ORTH-9):
 * one const ops table that the core's registry lists.
 *
 * Invariant: all of the module's state lives in the game's blob
 * (OrthodoxState in orthodox.c); the table itself is read-only.
 */
#ifndef CHESSVAR_ORTHODOX_H
#define CHESSVAR_ORTHODOX_H

#include "../../core/variant.h"

extern const VariantOps orthodox_variant;
/* The rules for players (rules.c), printed by `chessvar rules orthodox`. */
extern const char orthodox_rules[];

#endif
