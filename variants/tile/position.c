/*
 * position.c -- Tile Chess position strings (docs/TILE.md, "Position
 * string"): pieces as colour, figure and square (`wK0,0`), then `hand:`,
 * `turn:`, `first:`, `cmd:` and `passes:` tokens.
 *
 * Invariant: tile_init accepts exactly the strings that describe a
 * consistent TileState (tile.h) and names the first problem otherwise;
 * tile_write writes the canonical form, which tile_init reads back to the
 * same state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tile.h"

static int colour_of(char c, int nsides)
{
    const char *p = c ? strchr(TILE_LETTERS, c) : NULL;
    return p && p - TILE_LETTERS < nsides ? (int)(p - TILE_LETTERS) : -1;
}

static int bad_colour(char c, int nsides, Error *e)
{
    return err_set(e, "'%c' is not a colour of this game (%.*s: %s%s)", c, nsides,
                   TILE_LETTERS, "w white, b black, r red, u blue, g green, y yellow",
                   nsides < TILE_MAX_SIDES ? ", as many as the sides" : "");
}

/* An integer of at most 7 digits, optional minus: *s advanced. */
static int read_int(const char **s, int32_t *out)
{
    const char *p = *s;
    int neg = *p == '-';
    p += neg;
    if (*p < '0' || *p > '9')
        return -1;
    long v = 0;
    int digits = 0;
    while (*p >= '0' && *p <= '9') {
        if (++digits > 7)
            return -1;
        v = v * 10 + (*p++ - '0');
    }
    *out = (int32_t)(neg ? -v : v);
    *s = p;
    return 0;
}

static int read_square(const char *tok, const char *s, int32_t *x, int32_t *y, Error *e)
{
    if (read_int(&s, x) || *s++ != ',' || read_int(&s, y) || *s)
        return err_set(e, "%s: a square is x,y with whole numbers (like -3,2)", tok);
    if (*x > TILE_LIMIT || *x < -TILE_LIMIT || *y > TILE_LIMIT || *y < -TILE_LIMIT)
        return err_set(e, "%s: squares are limited to -%d..%d on each axis", tok,
                       TILE_LIMIT, TILE_LIMIT);
    return 0;
}

static int read_hand(TileState *s, const char *tok, const char *v, Error *e)
{
    while (*v) {
        const int c = colour_of(v[0], s->nsides);
        if (c < 0)
            return bad_colour(v[0], s->nsides, e);
        if (v[1] != '=')
            return err_set(e, "%s: write hand:COLOUR=FIGURES,... (hand:w=KQRRBBNN)", tok);
        v += 2;
        if (*v == ',' || !*v)
            return err_set(e, "%s: %s's hand is empty (leave it out)", tok,
                           TILE_COLOURS[c]);
        for (; *v && *v != ','; v++) {
            const int f = figure_from_letter(*v);
            if (f < FIG_PAWN || f > FIG_KING || *v < 'A' || *v > 'Z')
                return err_set(e, "%s: '%c' is not a figure (K Q R B N P)", tok, *v);
            if (s->hand[c][f] >= TILE_MAX_PAWNS)
                return err_set(e, "%s: too many %ss in %s's hand", tok, figure_name(f),
                               TILE_COLOURS[c]);
            s->hand[c][f]++;
        }
        if (*v == ',')
            v++;
    }
    return 0;
}

static int read_cmd(TileState *s, const char *tok, const char *v, Error *e)
{
    while (*v) {
        const int c = colour_of(v[0], s->nsides);
        if (c < 0)
            return bad_colour(v[0], s->nsides, e);
        if (v[1] != '=' || !v[2])
            return err_set(e, "%s: write cmd:COLOUR=SEAT,... (cmd:r=w)", tok);
        const int by = colour_of(v[2], s->nsides);
        if (by < 0)
            return bad_colour(v[2], s->nsides, e);
        if (by == c)
            return err_set(e, "%s: a colour commanded by its own seat is not written", tok);
        s->cmd[c] = (int8_t)by;
        v += 3;
        if (*v == ',')
            v++;
        else if (*v)
            return err_set(e, "%s: write cmd:COLOUR=SEAT,... (cmd:r=w)", tok);
    }
    return 0;
}

/* The state is read; is it consistent (tile.h's invariant)? */
static int check_state(const Game *g, TileState *s, Error *e)
{
    const int placing = tile_placing(s);
    for (int c = 0; c < s->nsides; c++) {
        if (s->cmd[c] != c && s->cmd[s->cmd[c]] != s->cmd[c])
            return err_set(e, "cmd: %s is commanded by %s, which is out itself (write "
                              "the seat that commands it now)",
                           TILE_COLOURS[c], TILE_COLOURS[s->cmd[c]]);
        if (s->cmd[c] != c && placing)
            return err_set(e, "cmd: no King can have been captured during placement");
        int count[FIG__COUNT] = {0};
        for (int i = 0; i < s->n; i++)
            if (s->p[i].col == c)
                count[s->p[i].fig]++;
        for (int f = FIG_PAWN; f <= FIG_KING; f++) {
            const int total = count[f] + s->hand[c][f], army = tile_army(g, s->nsides, f);
            if (total > army)
                return err_set(e, "%s has %d %ss; its army has %d (TILE-1)",
                               TILE_COLOURS[c], total, figure_name(f), army);
        }
        const int kings = count[FIG_KING] + s->hand[c][FIG_KING];
        if (s->cmd[c] == c && kings != 1)
            return err_set(e, "%s has no King (TILE-1): every seat in the game has one",
                           TILE_COLOURS[c]);
        if (s->cmd[c] != c && kings)
            return err_set(e, "%s is commanded by %s, so its King was captured: it "
                              "cannot have one (TILE-10)",
                           TILE_COLOURS[c], TILE_COLOURS[s->cmd[c]]);
        if (count[FIG_KING] && tile_hand_size(s, c) > s->hand[c][FIG_KING])
            return err_set(e, "%s's King is on the table while %s still has pieces in "
                              "hand: the King is placed last (TILE-2)",
                           TILE_COLOURS[c], TILE_COLOURS[c]);
    }
    if (!tile_in_game(s, s->turn))
        return err_set(e, "turn:%c: %s is out of the game", TILE_LETTERS[s->turn],
                       TILE_COLOURS[s->turn]);
    if (placing && !tile_hand_size(s, s->turn))
        return err_set(e, "turn:%c: %s has nothing left to place", TILE_LETTERS[s->turn],
                       TILE_COLOURS[s->turn]);
    if (s->passes > tile_seats_in_game(s))
        return err_set(e, "passes:%d: more than the %d seats in the game", s->passes,
                       tile_seats_in_game(s));
    if (placing && s->passes)
        return err_set(e, "passes: nobody passes during placement");
    /* squares: distinct, one group (TILE-3) */
    for (int i = 1; i < s->n; i++)
        if (s->p[i].x == s->p[i - 1].x && s->p[i].y == s->p[i - 1].y)
            return err_set(e, "two pieces on %ld,%ld", (long)s->p[i].x, (long)s->p[i].y);
    int32_t x0, x1, y0, y1;
    tile_box(s, &x0, &y0, &x1, &y1);
    /* a group of n pieces spans at most n - 1 squares: check that first,
     * so that the grid of the engine always holds the table */
    if ((s->n && ((int64_t)x1 - x0 >= s->n || (int64_t)y1 - y0 >= s->n)) ||
        !tile_one_group(s))
        return err_set(e, "the pieces are not one group: every piece must touch the "
                          "others by a side or a corner, all connected (TILE-3)");
    return 0;
}

static int field_once(unsigned *seen, unsigned bit, const char *tok, Error *e)
{
    if (*seen & bit)
        return err_set(e, "%s: given twice", tok);
    *seen |= bit;
    return 0;
}

int tile_init(const Game *g, TileState *s, const char *text, Error *e)
{
    memset(s, 0, sizeof *s);
    s->nsides = (uint8_t)game_nsides(g);
    for (int c = 0; c < TILE_MAX_SIDES; c++)
        s->cmd[c] = (int8_t)c;
    const int first = game_param(g, TP_FIRST);
    if (first >= s->nsides)
        return err_set(e, "first=%s: this game has %d sides (%s to %s)",
                       TILE_COLOURS[first], s->nsides, TILE_COLOURS[0],
                       TILE_COLOURS[s->nsides - 1]);
    if (!text) { /* every piece in hand (TILE-1) */
        for (int c = 0; c < s->nsides; c++)
            for (int f = FIG_PAWN; f <= FIG_KING; f++)
                s->hand[c][f] = (uint8_t)tile_army(g, s->nsides, f);
        s->turn = s->first = (uint8_t)first;
        return 0;
    }
    char buf[4096];
    if (strlen(text) >= sizeof buf)
        return err_set(e, "the position string is too long (%zu bytes)", strlen(text));
    str_copy(buf, sizeof buf, text);
    unsigned seen = 0;
    int have_turn = 0, have_first = 0;
    for (char *save = NULL, *tok = strtok_r(buf, " \t\n", &save); tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        char clip[48];
        str_clip(clip, sizeof clip, tok);
        if (!strncmp(tok, "hand:", 5)) {
            if (field_once(&seen, 1, "hand:", e) || read_hand(s, clip, tok + 5, e))
                return -1;
        } else if (!strncmp(tok, "turn:", 5) || !strncmp(tok, "first:", 6)) {
            const int is_turn = tok[0] == 't';
            const char *v = tok + (is_turn ? 5 : 6);
            const int c = colour_of(v[0], s->nsides);
            if (field_once(&seen, is_turn ? 2 : 4, is_turn ? "turn:" : "first:", e))
                return -1;
            if (c < 0 || v[1])
                return v[0] && !v[1] ? bad_colour(v[0], s->nsides, e)
                                     : err_set(e, "%s: give one colour letter", clip);
            if (is_turn) {
                s->turn = (uint8_t)c;
                have_turn = 1;
            } else {
                s->first = (uint8_t)c;
                have_first = 1;
            }
        } else if (!strncmp(tok, "cmd:", 4)) {
            if (field_once(&seen, 8, "cmd:", e) || read_cmd(s, clip, tok + 4, e))
                return -1;
        } else if (!strncmp(tok, "passes:", 7)) {
            const char *v = tok + 7;
            int32_t k;
            if (field_once(&seen, 16, "passes:", e))
                return -1;
            if (*v == '-' || read_int(&v, &k) || *v || k > 99)
                return err_set(e, "%s: passes:N with N a number of passes", clip);
            s->passes = (uint8_t)k;
        } else {
            if (seen)
                return err_set(e, "%s: pieces come before hand:, turn:, cmd: and passes:",
                               clip);
            const int c = colour_of(tok[0], s->nsides);
            const int f = tok[0] ? figure_from_letter(tok[1]) : FIG_NONE;
            if (c < 0 && tok[0] >= 'a' && tok[0] <= 'z' && tok[1] >= 'A' && tok[1] <= 'Z')
                return bad_colour(tok[0], s->nsides, e);
            if (c < 0 || f < FIG_PAWN || f > FIG_KING || tok[1] < 'A' || tok[1] > 'Z')
                return err_set(e, "%s: not a piece (colour letter, figure, square: wK0,0) "
                                  "nor a field (hand: turn: first: cmd: passes:)",
                               clip);
            int32_t x, y;
            if (read_square(clip, tok + 2, &x, &y, e))
                return -1;
            if (s->n >= TILE_MAX_PIECES)
                return err_set(e, "more than %d pieces", TILE_MAX_PIECES);
            tile_put(s, (TPiece){.x = x, .y = y, .col = (uint8_t)c, .fig = (uint8_t)f});
        }
    }
    if (!have_turn)
        return err_set(e, "turn: missing: say whose turn it is (turn:w)");
    if (!have_first)
        s->first = s->turn;
    if (!tile_placing(s) && have_first)
        return err_set(e, "first: only during placement (it says who moves first)");
    if (!tile_in_game(s, s->first))
        return err_set(e, "first:%c: %s is out of the game", TILE_LETTERS[s->first],
                       TILE_COLOURS[s->first]);
    return check_state(g, s, e);
}

void tile_write(const TileState *s, StrBuf *out)
{
    for (int i = 0; i < s->n; i++)
        sb_printf(out, "%s%c%c%ld,%ld", i ? " " : "", TILE_LETTERS[s->p[i].col],
                  figure_letter(s->p[i].fig), (long)s->p[i].x, (long)s->p[i].y);
    const int placing = tile_placing(s);
    if (placing) {
        sb_puts(out, s->n ? " hand:" : "hand:");
        int any = 0;
        for (int c = 0; c < s->nsides; c++) {
            if (!tile_hand_size(s, c))
                continue;
            sb_printf(out, "%s%c=", any++ ? "," : "", TILE_LETTERS[c]);
            tile_write_hand(s, c, out);
        }
    }
    sb_printf(out, "%sturn:%c", s->n || placing ? " " : "", TILE_LETTERS[s->turn]);
    if (placing)
        sb_printf(out, " first:%c", TILE_LETTERS[s->first]);
    int any = 0;
    for (int c = 0; c < s->nsides; c++)
        if (s->cmd[c] != c)
            sb_printf(out, "%s%c=%c", any++ ? "," : " cmd:", TILE_LETTERS[c],
                      TILE_LETTERS[s->cmd[c]]);
    if (s->passes)
        sb_printf(out, " passes:%d", s->passes);
}
