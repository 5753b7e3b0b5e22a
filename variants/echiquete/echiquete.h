/*
 * echiquete.h -- L'Échiqueté as a variant module (rules ECHQ-1 .. ECHQ-13):
 * a capture fuses both pieces into a merged piece that whichever side is to
 * move may play; a seat may later take the merged pieces over as a third
 * side.  One const ops table; the contract is docs/ECHIQUETE.md.
 *
 * Invariant: all of the module's state lives in the game's blob (EchState
 * in ech.h); the table itself is read-only.
 */
#ifndef CHESSVAR_ECHIQUETE_H
#define CHESSVAR_ECHIQUETE_H

#include "../../core/variant.h"

extern const VariantOps echiquete_variant;
/* The rules for players (rules.c), printed by `chessvar rules echiquete`. */
extern const char echiquete_rules[];

#endif
