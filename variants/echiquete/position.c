/*
 * position.c -- L'Échiqueté's position string (FEN extended, the contract
 * in docs/ECHIQUETE.md): reading with a message for every malformed or
 * impossible case, and writing.
 *
 * Invariant: ech_init either returns 0 with a state satisfying ech.h's
 * invariants, or -1 with a message naming the problem; ech_write then
 * ech_init gives back the same state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ech.h"

void ech_startpos(EchState *s)
{
    static const uint8_t back[8] = {FIG_ROOK, FIG_KNIGHT, FIG_BISHOP, FIG_QUEEN,
                                    FIG_KING, FIG_BISHOP, FIG_KNIGHT, FIG_ROOK};
    memset(s, 0, sizeof *s);
    for (int f = 0; f < 8; f++) {
        s->board[f] = EK_PIECE(ES_WHITE, back[f]);
        s->board[8 + f] = EK_PIECE(ES_WHITE, FIG_PAWN);
        s->board[48 + f] = EK_PIECE(ES_BLACK, FIG_PAWN);
        s->board[56 + f] = EK_PIECE(ES_BLACK, back[f]);
    }
    s->to_move = ES_WHITE;
    s->phase = 1;
    s->seat[0] = 0;
    s->seat[1] = 1;
    s->seat[2] = -1;
    s->castling = 15;
    s->ep = s->noundo_from = s->noundo_to = -1;
    s->fullmove = 1;
}

static int parse_square(const char *t)
{
    if (t[0] < 'a' || t[0] > 'h' || t[1] < '1' || t[1] > '8')
        return -1;
    return (t[1] - '1') * 8 + (t[0] - 'a');
}

static int parse_board(EchState *s, const char *b, Error *e)
{
    int r = 7, f = 0;
    for (const char *p = b; *p; p++) {
        if (*p == '/') {
            if (f != 8)
                return err_set(e, "rank %d has %d squares, not 8", r + 1, f);
            if (--r < 0)
                return err_set(e, "the board has more than 8 ranks");
            f = 0;
            continue;
        }
        if (*p >= '1' && *p <= '8') {
            f += *p - '0';
            if (f > 8)
                return err_set(e, "rank %d has more than 8 squares", r + 1);
            continue;
        }
        if (f >= 8)
            return err_set(e, "rank %d has more than 8 squares", r + 1);
        const int sq = r * 8 + f;
        char sqn[3] = {(char)('a' + f), (char)('1' + r), 0};
        if (*p == '*') {
            int fig = figure_from_letter(p[1]);
            if (!p[1] || fig < FIG_PAWN || fig > FIG_KING || p[1] < 'A' || p[1] > 'Z')
                return err_set(e, "'*' on %s must be followed by a figure letter in "
                                  "upper case (P N B R Q)", sqn);
            if (fig == FIG_KING)
                return err_set(e, "a merged King on %s: Kings never merge (ECHQ-5)", sqn);
            if (fig == FIG_PAWN && (r == 0 || r == 7))
                return err_set(e, "a merged pawn on %s: not on rank 1 or 8 (ECHQ-8)", sqn);
            int code = EK_PIECE(ES_MERGED, fig);
            p++;
            if (p[1] == '+') {
                if (fig != FIG_PAWN || (r != 1 && r != 6))
                    return err_set(e, "'+' on %s: only a merged pawn on rank 2 or 7 "
                                      "keeps a double step (ECHQ-7)", sqn);
                code |= EK_KEPT;
                p++;
            }
            s->board[sq] = (uint8_t)code;
            f++;
            continue;
        }
        int fig = figure_from_letter(*p);
        if (fig < FIG_PAWN || fig > FIG_KING)
            return err_set(e, "unknown piece letter '%c' on %s", *p, sqn);
        if (fig == FIG_PAWN && (r == 0 || r == 7))
            return err_set(e, "a pawn on %s: not on rank 1 or 8", sqn);
        s->board[sq] = EK_PIECE(*p >= 'a' ? ES_BLACK : ES_WHITE, fig);
        f++;
    }
    if (r != 0 || f != 8)
        return err_set(e, "the board needs 8 ranks of 8 squares");
    return 0;
}

static int parse_castling(EchState *s, const char *t, Error *e)
{
    if (!strcmp(t, "-"))
        return 0;
    static const struct { char c; int bit, king, rook, col; } R[4] = {
        {'K', ECASTLE_WK, 4, 7, ES_WHITE}, {'Q', ECASTLE_WQ, 4, 0, ES_WHITE},
        {'k', ECASTLE_BK, 60, 63, ES_BLACK}, {'q', ECASTLE_BQ, 60, 56, ES_BLACK}};
    for (const char *p = t; *p; p++) {
        int i = 0;
        while (i < 4 && R[i].c != *p)
            i++;
        if (i == 4)
            return err_set(e, "castling field '%s': unknown letter '%c' (K Q k q or -)", t, *p);
        if (s->castling & R[i].bit)
            return err_set(e, "castling field '%s': '%c' twice", t, *p);
        if (s->board[R[i].king] != EK_PIECE(R[i].col, FIG_KING) ||
            s->board[R[i].rook] != EK_PIECE(R[i].col, FIG_ROOK))
            return err_set(e, "castling right '%c' needs its one-coloured King and Rook "
                              "on their squares (a merged Rook never castles, ECHQ-8)", *p);
        s->castling |= (uint8_t)R[i].bit;
    }
    return 0;
}

static int parse_ep(EchState *s, const char *t, Error *e)
{
    if (!strcmp(t, "-"))
        return 0;
    const int sq = parse_square(t);
    if (sq < 0 || t[2] || (EK_RANK(sq) != 2 && EK_RANK(sq) != 5))
        return err_set(e, "en passant square '%s': a square on rank 3 or 6, or -", t);
    const int up = EK_RANK(sq) == 2;
    const int victim = sq + (up ? 8 : -8), start = sq + (up ? -8 : 8);
    const int vp = s->board[victim];
    if (!vp || EK_FIG(vp) != FIG_PAWN || s->board[sq] || s->board[start] ||
        EK_COL(vp) == (up ? ES_BLACK : ES_WHITE))
        return err_set(e, "en passant square %s: no pawn has just passed it with a double "
                          "step", t);
    if (s->phase == 1 && s->to_move != (up ? ES_BLACK : ES_WHITE))
        return err_set(e, "en passant square %s: the double step was not the last move "
                          "of the side not to move", t);
    s->ep = (int8_t)sq;
    return 0;
}

static int parse_seats(const Game *g, EchState *s, const char *v, Error *e)
{
    int n = 0;
    const char *p = v;
    for (; n < 3; n++) {
        if (*p == '-')
            s->seat[n] = -1;
        else if (*p >= '0' && *p <= '9')
            s->seat[n] = (int8_t)(*p - '0');
        else
            break;
        p++;
        if (n < 2 && *p++ != ',')
            break;
    }
    if (n != 3 || *p)
        return err_set(e, "seats=%s: three seats (a digit or -) for white, black, merged", v);
    for (int i = 0; i < 3; i++)
        if (s->seat[i] >= game_nseats(g))
            return err_set(e, "seats=%s: this game has %d seats", v, game_nseats(g));
    return 0;
}

static int parse_token(const Game *g, EchState *s, const char *t, unsigned *seen, Error *e)
{
    static const char *const names[] = {"noundo=", "phase=", "cycle=", "seats=",
                                        "out=", "passes="};
    int k = 0;
    while (k < 6 && strncmp(t, names[k], strlen(names[k])))
        k++;
    if (k == 6)
        return err_set(e, "unknown token '%s' (noundo= phase= cycle= seats= out= passes=)", t);
    if (*seen & (1u << k))
        return err_set(e, "token %s given twice", names[k]);
    *seen |= 1u << k;
    const char *v = t + strlen(names[k]);
    switch (k) {
    case 0: {
        const int a = parse_square(v), b = a >= 0 ? parse_square(v + 2) : -1;
        if (a < 0 || b < 0 || v[4] || a == b)
            return err_set(e, "noundo=%s: two different squares, e.g. noundo=f6g5", v);
        if (!s->board[a] || EK_COL(s->board[a]) != ES_MERGED || s->board[b])
            return err_set(e, "noundo=%s: the forbidden move must take a merged piece back "
                              "to an empty square (ECHQ-6)", v);
        s->noundo_from = (int8_t)a;
        s->noundo_to = (int8_t)b;
        return 0;
    }
    case 1:
        if (strcmp(v, "2"))
            return err_set(e, "phase=%s: only phase=2 is written (phase 1 is the default)", v);
        s->phase = 2;
        return 0;
    case 2:
        if (strcmp(v, "ewb") && strcmp(v, "ebw"))
            return err_set(e, "cycle=%s: ewb or ebw (ECHQ-9)", v);
        s->cycle = strcmp(v, "ewb") ? EC_EBW : EC_EWB;
        return 0;
    case 3:
        return parse_seats(g, s, v, e);
    case 4:
        for (const char *p = v; *p; p++) {
            const char *w = strchr("wbe", *p);
            if (!w)
                return err_set(e, "out=%s: letters w b e", v);
            s->out |= (uint8_t)(1u << (w - "wbe"));
        }
        if (!*v)
            return err_set(e, "out= needs the sides that are out (w b e)");
        return 0;
    default: {
        char *end;
        long n = strtol(v, &end, 10);
        if (!*v || *end || n < 0 || n > 2)
            return err_set(e, "passes=%s: 0 to 2", v);
        s->passes = (uint8_t)n;
        return 0;
    }
    }
}

static int parse_count(const char *t, long max, const char *what, long *out, Error *e)
{
    char *end;
    long n = strtol(t, &end, 10);
    if (!*t || *end || t[0] == '-' || t[0] == '+' || n > max)
        return err_set(e, "%s '%s': a number from 0 to %ld", what, t, max);
    *out = n;
    return 0;
}

/* The phase-2 tokens make sense together: who commands, who is out. */
static int check_phase2(const Game *g, EchState *s, unsigned seen, Error *e)
{
    if (s->phase == 1) {
        if (seen & 0x3cu)
            return err_set(e, "cycle=, seats=, out= and passes= belong to phase 2 (add phase=2)");
        if (s->to_move == ES_MERGED)
            return err_set(e, "side 'e' (the merged side to move) exists only in phase 2");
        return 0;
    }
    if (!(seen & 4u))
        return err_set(e, "phase 2 needs its turn cycle: cycle=ewb or cycle=ebw");
    if (!(seen & 8u))
        return err_set(e, "phase 2 needs seats=W,B,E (who took over the merged side)");
    const int w = s->seat[0], b = s->seat[1], m = s->seat[2];
    const int three = w == 0 && b == 1 && m == 2;
    const int two = w == b && w >= 0 && m >= 0 && w != m && w <= 1 && m <= 1;
    if (!three && !two)
        return err_set(e, "seats: in phase 2 either 0,1,2 (a third seat took over) or one "
                          "seat for white and black and the other for merged (ECHQ-12)");
    if (two && s->out)
        return err_set(e, "out=: no side goes out in the two-seat phase 2 (ECHQ-13)");
    if ((s->out >> s->to_move) & 1u)
        return err_set(e, "the side to move is out");
    if ((s->out & 4u) && ech_merged_count(s) > 0)
        return err_set(e, "out=e: the merged side still has pieces");
    if (s->passes >= ech_active_count(s))
        return err_set(e, "passes=%d: a full round of passes has ended the game",
                       s->passes);
    (void)g;
    return 0;
}

int ech_init(const Game *g, EchState *s, const char *text, Error *e)
{
    if (!text) {
        ech_startpos(s);
        return 0;
    }
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return err_set(e, "the position string is too long");
    str_copy(buf, sizeof buf, text);
    char *tok[16];
    int nt = 0;
    for (char *p = strtok(buf, " \t\r\n"); p; p = strtok(NULL, " \t\r\n")) {
        if (nt == 16)
            return err_set(e, "too many fields in the position string");
        tok[nt++] = p;
    }
    if (nt < 6)
        return err_set(e, "a position needs BOARD SIDE CASTLING EP HALFMOVE FULLMOVE "
                          "[TOKENS], got %d field%s", nt, nt == 1 ? "" : "s");
    memset(s, 0, sizeof *s);
    s->phase = 1;
    s->seat[0] = 0;
    s->seat[1] = 1;
    s->seat[2] = -1;
    s->ep = s->noundo_from = s->noundo_to = -1;
    if (parse_board(s, tok[0], e))
        return -1;
    for (int c = 0; c < 2; c++) {
        int kings = 0;
        for (int sq = 0; sq < 64; sq++)
            kings += s->board[sq] == EK_PIECE(c, FIG_KING);
        if (kings != 1)
            return err_set(e, "%s has %d Kings, it needs exactly one", c ? "black" : "white",
                           kings);
    }
    const char *sides = "wbe";
    if (strlen(tok[1]) != 1 || !strchr(sides, tok[1][0]))
        return err_set(e, "side to move '%s': w, b or e", tok[1]);
    s->to_move = (uint8_t)(strchr(sides, tok[1][0]) - sides);
    unsigned seen = 0;
    for (int i = 6; i < nt; i++)
        if (parse_token(g, s, tok[i], &seen, e))
            return -1;
    if (check_phase2(g, s, seen, e) || parse_castling(s, tok[2], e) ||
        parse_ep(s, tok[3], e))
        return -1;
    long half, full;
    if (parse_count(tok[4], 9999, "halfmove count", &half, e) ||
        parse_count(tok[5], 9999, "fullmove number", &full, e))
        return -1;
    if (full < 1)
        return err_set(e, "fullmove number '%s': from 1", tok[5]);
    s->halfmove = (uint16_t)half;
    s->fullmove = (uint16_t)full;
    if (s->phase == 1 && ech_king_attackers(s, s->to_move ^ 1)) {
        /* The side not to move is in check: seen from the side to move. */
        return err_set(e, "%s, not to move, has its King attacked (ECHQ-8)",
                       s->to_move ? "white" : "black");
    }
    return 0;
}

void ech_write(const EchState *s, StrBuf *out)
{
    for (int r = 7; r >= 0; r--) {
        int empty = 0;
        for (int f = 0; f < 8; f++) {
            const int pc = s->board[r * 8 + f];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                sb_putc(out, (char)('0' + empty));
            empty = 0;
            const char l = figure_letter(EK_FIG(pc));
            if (EK_COL(pc) == ES_MERGED) {
                sb_putc(out, '*');
                sb_putc(out, l);
                if (pc & EK_KEPT)
                    sb_putc(out, '+');
            } else {
                sb_putc(out, EK_COL(pc) == ES_BLACK ? (char)(l - 'A' + 'a') : l);
            }
        }
        if (empty)
            sb_putc(out, (char)('0' + empty));
        if (r)
            sb_putc(out, '/');
    }
    sb_printf(out, " %c ", "wbe"[s->to_move]);
    if (!s->castling)
        sb_putc(out, '-');
    static const char cl[4] = {'K', 'Q', 'k', 'q'};
    for (int i = 0; i < 4; i++)
        if (s->castling & (1u << i))
            sb_putc(out, cl[i]);
    if (s->ep >= 0)
        sb_printf(out, " %c%c", 'a' + EK_FILE(s->ep), '1' + EK_RANK(s->ep));
    else
        sb_puts(out, " -");
    sb_printf(out, " %u %u", s->halfmove, s->fullmove);
    if (s->noundo_from >= 0)
        sb_printf(out, " noundo=%c%c%c%c", 'a' + EK_FILE(s->noundo_from),
                  '1' + EK_RANK(s->noundo_from), 'a' + EK_FILE(s->noundo_to),
                  '1' + EK_RANK(s->noundo_to));
    if (s->phase == 2) {
        sb_printf(out, " phase=2 cycle=%s seats=", s->cycle == EC_EWB ? "ewb" : "ebw");
        for (int i = 0; i < 3; i++)
            sb_printf(out, "%c%s", s->seat[i] < 0 ? '-' : '0' + s->seat[i], i < 2 ? "," : "");
        if (s->out) {
            sb_puts(out, " out=");
            for (int i = 0; i < 3; i++)
                if (s->out & (1u << i))
                    sb_putc(out, "wbe"[i]);
        }
        if (s->passes)
            sb_printf(out, " passes=%u", s->passes);
    }
}
