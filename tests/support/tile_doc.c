/*
 * tile_doc.c -- reading docs/TILE.md's perft table (see tile_doc.h).
 *
 * Invariant: tests run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "tile_doc.h"

int tile_doc_rows(TileDocRow *rows, int max)
{
    char *doc = tu_read_file("docs/TILE.md");
    assert_non_null(doc);
    char *save = NULL;
    int n = 0;
    for (char *line = strtok_r(doc, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "| T", 3) != 0)
            continue;
        char *cell[10], *cs = NULL;
        int k = 0;
        for (char *c = strtok_r(line, "|", &cs); c && k < 10; c = strtok_r(NULL, "|", &cs)) {
            while (*c == ' ')
                c++;
            char *end = c + strlen(c);
            while (end > c && end[-1] == ' ')
                *--end = 0;
            cell[k++] = c;
        }
        assert_int_equal(k, 7);
        assert_true(n < max);
        TileDocRow *r = &rows[n];
        memset(r, 0, sizeof *r);
        str_copy(r->id, sizeof r->id, cell[0]);
        r->sides = atoi(cell[1]);
        if (strcmp(cell[2], "-"))
            str_copy(r->params, sizeof r->params, cell[2]);
        r->orthogonal_pawns = strstr(cell[2], "orthogonal_pawns=on") != NULL;
        r->lenient_trapped = strstr(cell[2], "lenient_trapped=on") != NULL;
        const size_t len = strlen(cell[3]);
        if (cell[3][0] == '`') {
            assert_true(len > 2 && cell[3][len - 1] == '`' && len - 2 < sizeof r->position);
            memcpy(r->position, cell[3] + 1, len - 2);
        } else if (!strncmp(cell[3], "as ", 3)) {
            int j = 0;
            while (j < n && strcmp(rows[j].id, cell[3] + 3))
                j++;
            assert_true(j < n);
            memcpy(r->position, rows[j].position, sizeof r->position);
        } else {
            assert_string_equal(cell[3], "start");
        }
        for (int d = 0; d < 3; d++)
            r->count[d] = strtoull(cell[4 + d], NULL, 10);
        n++;
    }
    free(doc);
    return n;
}
