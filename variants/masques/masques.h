/*
 * masques.h -- Les Échecs Masqués (rules MASQ-1 .. MASQ-16) as a variant
 * module: one const ops table that the core's registry lists.  The
 * contract (phases, action texts, position string, views) is
 * docs/MASQUES.md.
 *
 * Invariant: all of the module's state lives in the game's blob (MqState
 * in mq.h); the table itself is read-only.
 */
#ifndef CHESSVAR_MASQUES_H
#define CHESSVAR_MASQUES_H

#include "../../core/variant.h"

extern const VariantOps masques_variant;
/* The rules for players (rules.c), printed by `chessvar rules masques`. */
extern const char masques_rules[];

#endif
