/*
 * fairy.h -- "Chess from parts" (issue 24, docs/FAIRY.md, PART-1 ..
 * PART-10): a variant whose board, pieces (Betza notation), hands and
 * King's role come from a rule-set text (GameConfig.ruleset, or a house
 * rule's `ruleset`).  Without one it plays orthodox chess on its own
 * generic engine.
 *
 * Invariant: the compiled rule set is made once per game by prepare and
 * never changed; the state blob holds no pointers.
 */
#ifndef CHESSVAR_FAIRY_H
#define CHESSVAR_FAIRY_H

#include "../../core/variant.h"

extern const VariantOps fairy_variant;
/* The rules for players (rules.c), printed by `chessvar rules fairy`. */
extern const char fairy_rules[];

/* The value of each figure under the game's rule set (the `piece` lines'
 * values; Params.values for the Lua layer and the bots): values[FIG_MAX]
 * is filled, 0 for figures the rule set has not. */
void fairy_values(const Game *g, int values[FIG_MAX]);

#endif
