/*
 * tilevar.h -- Tile Chess as a variant module (rules TILE-1 .. TILE-12): no
 * board, 2 to 6 sides place their pieces on the unbounded plane, the pieces
 * always form one connected group, and a captured King hands its armies to
 * the captor.  One const ops table; the contract is docs/TILE.md.
 *
 * Invariant: all of the module's state lives in the game's blob (TileState
 * in tile.h); the table itself is read-only.
 */
#ifndef CHESSVAR_TILEVAR_H
#define CHESSVAR_TILEVAR_H

#include "../../core/variant.h"

extern const VariantOps tile_variant;
/* The rules for players (rules.c), printed by `chessvar rules tile`. */
extern const char tile_rules[];

#endif
