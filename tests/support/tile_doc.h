/*
 * tile_doc.h -- the perft table of docs/TILE.md, read for the tests that
 * check it (test_tile_games: the engine's fast and generic paths;
 * test_tile_perft: the independent counter).
 *
 * Invariant: a row is read exactly as docs/TILE.md documents its shape
 * (`| id | sides | params | `position`, start or as ID | d1 | d2 | d3 |`);
 * any other shape fails the test that reads it.
 */
#ifndef CHESSVAR_TILE_DOC_H
#define CHESSVAR_TILE_DOC_H

#include <stdint.h>

#define TILE_DOC_ROWS 16

typedef struct TileDocRow {
    char id[8];
    int sides;
    int orthogonal_pawns, lenient_trapped; /* from the params cell */
    char params[128];                      /* "" for "-" */
    char position[1024];                   /* "" for the start */
    uint64_t count[3];                     /* d1 .. d3 */
} TileDocRow;

/* The rows of the table, in order; how many. */
int tile_doc_rows(TileDocRow *rows, int max);

#endif
