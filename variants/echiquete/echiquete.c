/*
 * echiquete.c -- L'Échiqueté's ops table: parameters, actions and their
 * texts (UCI with the merge letter; SAN with a merge mark), status and
 * ends (ECHQ-8, 13), draws, the repetition key, views and perft.
 *
 * Invariant: every action `legal` lists is an ACT_MOVE / ACT_PASS made
 * from ech_moves, or the ACT_TAKEOVER of ech_may_take_over; apply accepts
 * exactly those, and format/parse read each other's texts back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "echiquete.h"
#include "ech.h"

static const char *const E_MATE_CHOICES[] = {"win", "out", NULL};
static const char *const COLOUR_MATE_CHOICES[] = {"out", "win", NULL};
static const char *const DUO_MATE_CHOICES[] = {"any", "merged", NULL};

static const ParamDef ECH_PARAMS[EP__COUNT] = {
    [EP_PHASE2] = {.name = "phase2", .type = PARAM_BOOL, .def = 1, .rule = "ECHQ-9",
                   .doc = "a seat may take over the merged pieces (off: phase 1 only)"},
    [EP_TAKEOVER_FROM] = {.name = "takeover_from", .type = PARAM_INT, .def = 1, .min = 1,
                          .max = 999, .rule = "ECHQ-9",
                          .doc = "the takeover is allowed from this full move on"},
    [EP_NOUNDO] = {.name = "noundo", .type = PARAM_BOOL, .def = 1, .rule = "ECHQ-6",
                   .doc = "a move ending with a merged piece may not be reversed "
                          "on the very next move"},
    [EP_E_MATE] = {.name = "merged_mate", .type = PARAM_ENUM, .def = 0,
                   .choices = E_MATE_CHOICES, .rule = "ECHQ-13",
                   .doc = "three seats: a mate with a merged attacker: merged wins "
                          "at once (win) or the mated side goes out (out)"},
    [EP_COLOUR_MATE] = {.name = "colour_mate", .type = PARAM_ENUM, .def = 0,
                        .choices = COLOUR_MATE_CHOICES, .rule = "ECHQ-13",
                        .doc = "three seats: a King mated by white or black pieces "
                               "alone: its side goes out (out) or the mating side "
                               "wins (win)"},
    [EP_PASS_ROUND] = {.name = "pass_round_draw", .type = PARAM_BOOL, .def = 1,
                       .rule = "ECHQ-13",
                       .doc = "a full round of passes is a draw"},
    [EP_DUO_MATE] = {.name = "duo_mate", .type = PARAM_ENUM, .def = 0,
                     .choices = DUO_MATE_CHOICES, .rule = "ECHQ-13",
                     .doc = "two seats: any mate wins for merged (any), or only a "
                            "mate with a merged attacker, other mates a draw (merged)"},
    [EP_DUO_EMPTY] = {.name = "duo_empty_loses", .type = PARAM_BOOL, .def = 1,
                      .rule = "ECHQ-13",
                      .doc = "two seats: merged losing its last piece loses (off: "
                             "a draw)"},
    [EP_THREEFOLD] = {.name = "threefold", .type = PARAM_BOOL, .def = 1, .rule = "ECHQ-8",
                      .doc = "the player to move may claim a draw when the position "
                             "has occurred three times"},
    [EP_FIFTY] = {.name = "fifty_move", .type = PARAM_BOOL, .def = 1, .rule = "ECHQ-8",
                  .doc = "a draw may be claimed after 50 moves of every side without "
                         "a capture or a pawn move"},
    [EP_FIVEFOLD] = {.name = "fivefold", .type = PARAM_BOOL, .def = 1, .rule = "ECHQ-8",
                     .doc = "drawn at once when the position has occurred five times"},
    [EP_SEVENTY_FIVE] = {.name = "seventy_five_move", .type = PARAM_BOOL, .def = 1,
                         .rule = "ECHQ-8",
                         .doc = "drawn at once after 75 moves of every side without a "
                                "capture or a pawn move"},
    [EP_INSUFFICIENT] = {.name = "insufficient_material", .type = PARAM_BOOL, .def = 1,
                         .rule = "ECHQ-8",
                         .doc = "drawn at once when no mate is possible (a merged piece "
                                "counts for both sides)"},
};

static const char *const SIDE_NAMES[3] = {"white", "black", "merged"};

static const EchState *cst(const void *st) { return (const EchState *)st; }

/* ---- Actions -------------------------------------------------------------- */

static Action to_action(EMove m, int seat)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.seat = (uint8_t)seat;
    if (m.from == EM_PASS) {
        a.kind = ACT_PASS;
        return a;
    }
    a.kind = ACT_MOVE;
    a.from = (Coord){EK_FILE(m.from), EK_RANK(m.from)};
    a.to = (Coord){EK_FILE(m.to), EK_RANK(m.to)};
    a.figure = m.fig;
    return a;
}

static EMove from_action(const Action *a)
{
    if (a->kind == ACT_PASS)
        return (EMove){EM_PASS, EM_PASS, 0};
    return (EMove){(int8_t)(a->from.y * 8 + a->from.x), (int8_t)(a->to.y * 8 + a->to.x),
                   a->figure};
}

static int ech_seat_of_side(const Game *g, const void *st, int side)
{
    (void)g;
    return side >= 0 && side < 3 ? cst(st)->seat[side] : -1;
}

static int ech_to_act(const Game *g, const void *st)
{
    const EchState *s = cst(st);
    if (ech_structural_end(g, s))
        return -1;
    return s->seat[s->to_move];
}

static int ech_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return cst(st)->to_move;
}

/* The seat to act's moves, and the takeover for any seat that may take
 * over now (ECHQ-9, 12: the seat to act too, instead of a move). */
static void ech_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    const EchState *s = cst(st);
    int take;
    if (seat == ech_to_act(g, st)) {
        EMove mv[ECH_MAX_MOVES];
        const int n = ech_moves(g, s, mv);
        for (int i = 0; i < n; i++) {
            Action a = to_action(mv[i], seat);
            al_push(out, &a);
        }
        take = n > 0 && ech_takeover_open(g, s, seat);
    } else {
        take = ech_may_take_over(g, s, seat);
    }
    if (take) {
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = ACT_TAKEOVER;
        a.seat = (uint8_t)seat;
        al_push(out, &a);
    }
}

static int ech_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    EchState *s = (EchState *)st;
    if (a->kind == ACT_TAKEOVER) {
        if (!ech_may_take_over(g, s, a->seat))
            return -1;
        ech_takeover(g, s, a->seat, ev);
        ech_resolve(g, s, ev);
        return 0;
    }
    if ((a->kind != ACT_MOVE && a->kind != ACT_PASS) || a->seat != ech_to_act(g, st))
        return -1;
    const EMove m = from_action(a);
    if (!ech_move_ok(g, s, m))
        return -1;
    ech_make(g, s, m, ev);
    return 0;
}

/* ---- Texts ---------------------------------------------------------------- */

static void put_sq(StrBuf *out, int sq)
{
    sb_putc(out, (char)('a' + EK_FILE(sq)));
    sb_putc(out, (char)('1' + EK_RANK(sq)));
}

static void uci(EMove m, StrBuf *out)
{
    if (m.from == EM_PASS) {
        sb_puts(out, "pass");
        return;
    }
    put_sq(out, m.from);
    put_sq(out, m.to);
    if (m.fig)
        sb_putc(out, (char)(figure_letter(m.fig) - 'A' + 'a'));
}

/* Is m a merging capture (ECHQ-1, 3: phase 1, any capturer but a King)? */
static int merging(const EchState *s, EMove m)
{
    return s->phase == 1 && ech_is_capture(s, m) && EK_FIG(s->board[m.from]) != FIG_KING;
}

/* The figure m captures (a pawn en passant). */
static int captured_figure(const EchState *s, EMove m)
{
    return ech_is_ep(s, m) ? FIG_PAWN : EK_FIG(s->board[m.to]);
}

/* The seed's merge mark, É (docs/ECHIQUETE.md); read as '*' too. */
#define MERGE_MARK "\xC3\x89"

/* SAN forms: the record's, and the short one records were written in
 * before issue 19 (Bxf6=N*), still read. */
enum { SAN_RECORD, SAN_SHORT };

/* SAN (docs/ECHIQUETE.md): '*' before a merged mover, '=X' for a figure
 * chosen.  A merging capture (ECHQ-1) is written as the seed writes it:
 * the departure square, x, the captured figure, the square, '=' the figure
 * kept and the merge mark (Bg5xNf6=NÉ); SAN_SHORT writes it as SAN with
 * '*' as the mark (Bxf6=N*). */
static void san(const Game *g, const EchState *s, EMove m, int form, StrBuf *out)
{
    if (m.from == EM_PASS) {
        sb_puts(out, "pass");
        return;
    }
    const int pc = s->board[m.from], fig = EK_FIG(pc);
    const int cap = ech_is_capture(s, m);
    if (fig == FIG_KING && (m.to - m.from == 2 || m.from - m.to == 2)) {
        sb_puts(out, m.to > m.from ? "O-O" : "O-O-O");
        return;
    }
    if (EK_COL(pc) == ES_MERGED)
        sb_putc(out, '*');
    if (fig != FIG_PAWN)
        sb_putc(out, figure_letter(fig));
    if (form == SAN_RECORD && merging(s, m)) {
        put_sq(out, m.from);
        sb_putc(out, 'x');
        if (captured_figure(s, m) != FIG_PAWN)
            sb_putc(out, figure_letter(captured_figure(s, m)));
        put_sq(out, m.to);
        sb_putc(out, '=');
        sb_putc(out, figure_letter(m.fig));
        sb_puts(out, MERGE_MARK);
        return;
    }
    EMove mv[ECH_MAX_MOVES];
    const int n = ech_moves(g, s, mv);
    int same = 0, file = 0, rank = 0;
    for (int i = 0; i < n; i++) {
        if (mv[i].from < 0 || mv[i].to != m.to || mv[i].from == m.from ||
            (s->board[mv[i].from] & 0x1f) != (pc & 0x1f))
            continue;
        same = 1;
        file |= EK_FILE(mv[i].from) == EK_FILE(m.from);
        rank |= EK_RANK(mv[i].from) == EK_RANK(m.from);
    }
    if (fig == FIG_PAWN) { /* two É pawns may meet a square (ECHQ-11) */
        if (same)
            put_sq(out, m.from);
        else if (cap)
            sb_putc(out, (char)('a' + EK_FILE(m.from)));
    } else {
        if (same && (!file || rank))
            sb_putc(out, (char)('a' + EK_FILE(m.from)));
        if (same && file)
            sb_putc(out, (char)('1' + EK_RANK(m.from)));
    }
    if (cap)
        sb_putc(out, 'x');
    put_sq(out, m.to);
    if (m.fig) {
        sb_putc(out, '=');
        sb_putc(out, figure_letter(m.fig));
    }
    if (merging(s, m))
        sb_putc(out, '*');
}

/* '+' when the next side's King is attacked after m, '#' for a mate. */
static void check_mark(const Game *g, const EchState *s, EMove m, StrBuf *out)
{
    EchState t = *s;
    ech_make(g, &t, m, NULL);
    if (t.to_move == ES_MERGED || !ech_king_attackers(&t, t.to_move))
        return;
    EMove mv[ECH_MAX_MOVES];
    sb_putc(out, ech_moves(g, &t, mv) == 0 ? '#' : '+');
}

static void ech_format(const Game *g, const void *st, const Action *a, int style,
                       StrBuf *out)
{
    if (a->kind == ACT_TAKEOVER) {
        sb_puts(out, "takeover");
        return;
    }
    const EMove m = from_action(a);
    if (style == FMT_MACHINE) {
        uci(m, out);
        return;
    }
    san(g, cst(st), m, SAN_RECORD, out);
    if (m.from != EM_PASS)
        check_mark(g, cst(st), m, out);
}

/* The typed text without check marks, with É (or é) as '*'. */
static void normalize(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < n; p++) {
        if ((unsigned char)p[0] == 0xC3 &&
            ((unsigned char)p[1] == 0x89 || (unsigned char)p[1] == 0xA9)) {
            out[k++] = '*';
            p++;
        } else {
            out[k++] = *p;
        }
    }
    out[k] = 0;
    while (k && strchr("+#!?", out[k - 1]))
        out[--k] = 0;
}

/* A move typed as SAN, what it says and what it leaves out (-1 / 0):
 * [*][figure][file][rank][x[captured figure]]square[=figure][*]. */
typedef struct SanText {
    int merged;       /* a leading '*': a merged piece moves */
    int fig;          /* the mover's figure, FIG_PAWN without a letter */
    int file, rank;   /* of the departure square, -1 if not given */
    int capture;      /* 'x' */
    int cfig;         /* the captured figure (the seed's form), 0 none */
    int to;
    int promo;        /* '=X': the figure chosen, 0 none */
    int mark;         /* the merge mark after it */
} SanText;

static int figure_of(char c)
{
    return c && strchr("PNBRQK", c) ? figure_from_letter(c) : 0;
}

/* t (normalized) as SAN; 0, or -1 when it is none. */
static int san_read(const char *t, SanText *p)
{
    memset(p, 0, sizeof *p);
    p->file = p->rank = -1;
    p->fig = FIG_PAWN;
    if (*t == '*')
        p->merged = 1, t++;
    if (figure_of(*t))
        p->fig = figure_of(*t++);
    size_t n = strlen(t);
    /* the mark: '*' for É, or E after the figure as the seed's text has
     * it (Fg5xCf6=CE) */
    if (n && (t[n - 1] == '*' || (t[n - 1] == 'E' && n >= 3 && t[n - 3] == '=')))
        p->mark = 1, n--;
    if (n >= 2 && t[n - 2] == '=') {
        if (!(p->promo = figure_of(t[n - 1])) || p->promo == FIG_KING)
            return -1;
        n -= 2;
    }
    if (n < 2 || t[n - 2] < 'a' || t[n - 2] > 'h' || t[n - 1] < '1' || t[n - 1] > '8')
        return -1;
    p->to = (t[n - 1] - '1') * 8 + (t[n - 2] - 'a');
    n -= 2;
    if (n && figure_of(t[n - 1])) {
        p->cfig = figure_of(t[n - 1]);
        n--;
        if (!n || t[n - 1] != 'x')
            return -1;
    }
    if (n && t[n - 1] == 'x')
        p->capture = 1, n--;
    size_t i = 0;
    if (i < n && t[i] >= 'a' && t[i] <= 'h')
        p->file = t[i++] - 'a';
    if (i < n && t[i] >= '1' && t[i] <= '8')
        p->rank = t[i++] - '1';
    return i == n ? 0 : -1;
}

/* Could the SAN p mean m?  What p leaves out may be anything: the '*' of
 * a merged mover (issue 19: `dxc3` for É's pawn), the departure square,
 * the figure chosen, the merge mark; what it says must hold.  Castling is
 * read from its exact text only. */
static int san_fits(const EchState *s, EMove m, const SanText *p)
{
    if (m.from < 0)
        return 0;
    const int pc = s->board[m.from], fig = EK_FIG(pc), cap = ech_is_capture(s, m);
    if (fig == FIG_KING && (m.to - m.from == 2 || m.from - m.to == 2))
        return 0;
    return fig == p->fig && m.to == p->to && (!p->merged || EK_COL(pc) == ES_MERGED) &&
           (p->file < 0 || p->file == EK_FILE(m.from)) &&
           (p->rank < 0 || p->rank == EK_RANK(m.from)) && cap == p->capture &&
           (!p->cfig || p->cfig == captured_figure(s, m)) &&
           (!p->promo || p->promo == m.fig) && (!p->mark || merging(s, m));
}

static int ech_parse(const Game *g, const void *st, const ActionList *legal,
                     const char *text, Action *out, Error *e)
{
    const EchState *s = cst(st);
    char t[128], u[128];
    normalize(text, t, sizeof t);
    size_t k = 0; /* UCI with an optional '=' before the letter, any case */
    for (const char *p = t; *p && k + 1 < sizeof u; p++)
        if (*p != '=')
            u[k++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    u[k] = 0;
    /* An action's own text: its UCI, its record form (Bg5xNf6=NÉ, or with
     * '*' for É), the short form of older records (Bxf6=N*). */
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < legal->n; i++) {
        const Action *a = &legal->v[i];
        int hit;
        sb_reset(&b);
        if (a->kind == ACT_TAKEOVER) {
            hit = str_ieq(t, "takeover");
        } else {
            const EMove m = from_action(a);
            uci(m, &b);
            hit = !strcmp(sb_str(&b), u);
            for (int form = SAN_RECORD; !hit && form <= SAN_SHORT; form++) {
                char c[128];
                sb_reset(&b);
                san(g, s, m, form, &b);
                normalize(sb_str(&b), c, sizeof c);
                hit = !strcmp(c, t);
            }
        }
        if (hit) {
            sb_free(&b);
            *out = *a;
            return 0;
        }
    }
    /* Else a SAN that leaves something out, or a UCI capture without its
     * figure letter: taken when one action fits, else the candidates are
     * named. */
    SanText p;
    const int is_san = san_read(t, &p) == 0;
    int first = -1, nfit = 0, one_move = 1;
    StrBuf names = STRBUF_INIT, ucis = STRBUF_INIT;
    for (int i = 0; i < legal->n; i++) {
        const Action *a = &legal->v[i];
        if (a->kind != ACT_MOVE)
            continue;
        const EMove m = from_action(a);
        sb_reset(&b);
        uci(m, &b);
        if (!(is_san && san_fits(s, m, &p)) &&
            !(strlen(u) == 4 && !strncmp(sb_str(&b), u, 4)))
            continue;
        if (first >= 0 && !coord_eq(a->from, legal->v[first].from))
            one_move = 0;
        if (first >= 0 && !coord_eq(a->to, legal->v[first].to))
            one_move = 0;
        sb_printf(&ucis, "%s%s", nfit ? " or " : "", sb_str(&b));
        sb_puts(&names, nfit ? " or " : "");
        ech_format(g, s, a, FMT_RECORD, &names);
        if (first < 0)
            first = i;
        nfit++;
    }
    int rc = -1;
    if (nfit == 1) {
        *out = legal->v[first];
        rc = 0;
    } else if (nfit > 1 && one_move) {
        err_set(e, "%s: the figure must be chosen (ECHQ-1): %s (UCI %s)", text,
                sb_str(&names), sb_str(&ucis));
    } else if (nfit > 1) {
        err_set(e, "%s: ambiguous: %s (type one of them)", text, sb_str(&names));
    }
    sb_free(&b);
    sb_free(&names);
    sb_free(&ucis);
    if (nfit > 0)
        return rc;
    const EMove back = {s->noundo_from, s->noundo_to, 0};
    if (s->noundo_from >= 0 &&
        ((strlen(u) >= 4 && u[0] - 'a' == EK_FILE(s->noundo_from) &&
          u[1] - '1' == EK_RANK(s->noundo_from) && u[2] - 'a' == EK_FILE(s->noundo_to) &&
          u[3] - '1' == EK_RANK(s->noundo_to)) ||
         (is_san && san_fits(s, back, &p))))
        return err_set(e, "%s: the last move may not be undone on the very next move "
                          "(ECHQ-6)", text);
    if (!strcmp(u, "takeover")) {
        const int from = game_param(g, EP_TAKEOVER_FROM);
        if (s->phase == 2)
            return err_set(e, "takeover: the merged side has been taken over already "
                              "(ECHQ-9, 12)");
        if (!game_param(g, EP_PHASE2))
            return err_set(e, "takeover: this game has no phase 2 (phase2=off)");
        if (!ech_merged_count(s))
            return err_set(e, "takeover: no merged piece on the board (ECHQ-9)");
        if (s->fullmove < from)
            return err_set(e, "takeover: allowed from full move %d on (takeover_from=%d; "
                              "ECHQ-9)", from, from);
        return err_set(e, "takeover: not allowed now (ECHQ-9: between moves of phase 1)");
    }
    if (!strcmp(u, "pass"))
        return err_set(e, "pass: only a phase-2 side with no legal move and not in "
                          "check passes (ECHQ-13)");
    return err_set(e, "%s: not a legal move of %s now (SAN like Nf3 or Bg5xNf6=N\xC3\x89, "
                      "or UCI like g5f6n; type legal for the list)", text,
                   SIDE_NAMES[s->to_move]);
}

/* ---- Status and draws ----------------------------------------------------- */

static void set_result(Status *out, unsigned winners, int code, const char *reason)
{
    out->over = 1;
    out->winners = winners;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, reason);
}

/* ECHQ-8: a merged piece counts for both sides; orthodox's test. */
static int insufficient(const EchState *s)
{
    int minor[2] = {0, 0}, bishops = 0, bcolour = -1, mixed = 0;
    for (int sq = 0; sq < 64; sq++) {
        const int pc = s->board[sq], f = EK_FIG(pc);
        if (!pc || f == FIG_KING)
            continue;
        if (f == FIG_PAWN || f == FIG_ROOK || f == FIG_QUEEN)
            return 0;
        const int c = EK_COL(pc);
        for (int side = 0; side < 2; side++)
            if (c == ES_MERGED || c == side)
                minor[side]++;
        if (f == FIG_BISHOP) {
            const int sc = (EK_FILE(sq) + EK_RANK(sq)) & 1;
            mixed |= bcolour >= 0 && bcolour != sc;
            bcolour = sc;
            bishops++;
        } else {
            mixed = 1; /* a knight beside anything else */
        }
    }
    if (minor[0] + minor[1] == 0 || (minor[0] <= 1 && minor[1] == 0) ||
        (minor[1] <= 1 && minor[0] == 0))
        return 1;
    return !mixed && bishops > 0; /* bishops all on one colour */
}

static void status_phase2(const Game *g, const EchState *s, Status *out)
{
    const int two = ech_two_seat(s);
    if (!two && ech_active_count(s) == 1) {
        for (int i = 0; i < 3; i++)
            if (!(s->out & (1u << i)))
                set_result(out, 1u << i, END_LAST_SIDE_STANDING, "last side standing");
        return;
    }
    if (two && ech_merged_count(s) == 0) {
        if (game_param(g, EP_DUO_EMPTY))
            set_result(out, 3u, END_MERGED_SIDE_EMPTY, "the merged side lost its last piece");
        else
            set_result(out, 0, END_MERGED_SIDE_EMPTY, "the merged side lost its last piece");
        return;
    }
    if (game_param(g, EP_PASS_ROUND) && s->passes >= ech_active_count(s)) {
        set_result(out, 0, END_PASS_ROUND, "a full round of passes");
        return;
    }
    EMove mv[ECH_MAX_MOVES];
    if (ech_moves(g, s, mv) > 0)
        return;
    const unsigned att = ech_king_attackers(s, s->to_move);
    if (!att) {
        set_result(out, 0, END_STALEMATE, "stalemate");
        return;
    }
    if (two) {
        if ((att & 4u) || game_param(g, EP_DUO_MATE) == 0)
            set_result(out, 4u, END_DUO_MATE, "checkmate: the merged side wins");
        else
            set_result(out, 0, END_DUO_MATE_DRAWN, "checkmate without a merged attacker: a draw");
    } else if ((att & 4u) && game_param(g, EP_E_MATE) == 0) {
        set_result(out, 4u, END_MERGED_MATE, "checkmate by a merged piece: the merged side wins");
    } else {
        set_result(out, att, END_CHECKMATE, "checkmate");
    }
}

static void ech_status(const Game *g, const void *st, Status *out)
{
    const EchState *s = cst(st);
    for (int c = 0; c < 2; c++)
        if (!(s->phase == 2 && ((s->out >> c) & 1u)) &&
            (s->phase == 2 || c == s->to_move) && ech_king_attackers(s, c))
            out->in_check |= 1u << c;
    if (s->phase == 2) {
        status_phase2(g, s, out);
    } else {
        EMove mv[ECH_MAX_MOVES];
        if (ech_moves(g, s, mv) == 0) {
            if (out->in_check)
                set_result(out, 1u << (s->to_move ^ 1), END_CHECKMATE, "checkmate");
            else
                set_result(out, 0, END_STALEMATE, "stalemate");
        }
    }
    if (out->over)
        return;
    const int nact = s->phase == 2 ? ech_active_count(s) : 2;
    if (game_param(g, EP_FIVEFOLD) && game_repetitions(g) >= 5)
        set_result(out, 0, END_FIVEFOLD, "fivefold repetition");
    else if (game_param(g, EP_SEVENTY_FIVE) && s->halfmove >= 75 * nact)
        set_result(out, 0, END_SEVENTY_FIVE_MOVES, "seventy-five-move rule");
    else if (game_param(g, EP_INSUFFICIENT) && (s->phase == 1 || (s->out & 4u)) &&
             insufficient(s))
        set_result(out, 0, END_INSUFFICIENT_MATERIAL, "insufficient material");
}

static int ech_claim(const Game *g, const void *st, char *why, size_t n)
{
    const EchState *s = cst(st);
    const int nact = s->phase == 2 ? ech_active_count(s) : 2;
    if (game_param(g, EP_THREEFOLD) && game_repetitions(g) >= 3) {
        str_copy(why, n, "threefold repetition");
        return END_THREEFOLD;
    }
    if (game_param(g, EP_FIFTY) && s->halfmove >= 50 * nact) {
        str_copy(why, n, "fifty-move rule");
        return END_FIFTY_MOVES;
    }
    return 0;
}

/* ECHQ-8: everything that makes positions the same: pieces (kept double
 * steps too), the side to move, castling, en passant when it can be taken,
 * the no-undo move, phase, cycle, seats and sides out. */
static uint64_t ech_hash(const Game *g, const void *st)
{
    const EchState *s = cst(st);
    uint64_t h = 1469598103934665603ULL;
#define MIX(x) (h = (h ^ (uint64_t)(uint8_t)(x)) * 1099511628211ULL)
    for (int sq = 0; sq < 64; sq++)
        MIX(s->board[sq]);
    MIX(s->to_move);
    MIX(s->castling);
    MIX(s->noundo_from);
    MIX(s->noundo_to);
    MIX(s->phase);
    MIX(s->cycle);
    MIX(s->seat[0]);
    MIX(s->seat[1]);
    MIX(s->seat[2]);
    MIX(s->out);
    int ep = -1;
    if (s->ep >= 0) {
        EMove mv[ECH_MAX_MOVES];
        const int n = ech_moves(g, s, mv);
        for (int i = 0; i < n; i++)
            if (mv[i].from >= 0 && ech_is_ep(s, mv[i]))
                ep = s->ep;
    }
    MIX(ep);
#undef MIX
    return h ^ (h >> 29);
}

/* ---- Life cycle, views, perft --------------------------------------------- */

static int ech_init_op(Game *g, void *st, const char *position, Error *e)
{
    EchState *s = (EchState *)st;
    if (game_nsides(g) != 3)
        return err_set(e, "echiquete has three sides (white, black, merged)");
    if (game_nseats(g) < 2 || game_nseats(g) > 3)
        return err_set(e, "echiquete is played by 2 or 3 seats, not %d", game_nseats(g));
    if (ech_init(g, s, position, e))
        return -1;
    if (s->phase == 2 && s->seat[2] == 2 && game_nseats(g) < 3)
        return err_set(e, "seats=0,1,2 needs a game with three seats");
    ech_resolve(g, s, NULL);
    return 0;
}

/* ---- House-rule edits (HOUSE-5) ---------------------------------------------- */

static const char *edit_figure(int fig)
{
    return fig == FIG_KING ? "King" : figure_name(fig);
}

/* "the merged knight on d5" */
static void piece_words(StrBuf *out, uint8_t pc, int sq)
{
    sb_printf(out, "the %s %s on ", SIDE_NAMES[EK_COL(pc)], edit_figure(EK_FIG(pc)));
    put_sq(out, sq);
}

/* Why the board of s breaks a rule an edit must keep (ECHQ-5: one
 * one-coloured King a colour, no merged King; no pawn on rank 1 or 8,
 * ECHQ-8), for a piece pc put on sq; NULL if none. */
static const char *edit_refusal(uint8_t pc, int sq)
{
    int rank = EK_RANK(sq);
    if (EK_FIG(pc) == FIG_KING)
        return EK_COL(pc) == ES_MERGED ? "Kings never merge (ECHQ-5)"
                                       : "each colour keeps exactly one King (ECHQ-5)";
    if (EK_FIG(pc) == FIG_PAWN && (rank == 0 || rank == 7))
        return "no pawn stands on rank 1 or 8 (ECHQ-8, ECHQ-11)";
    return NULL;
}

/* Drop what the edited square makes void: castling rights whose King or
 * Rook left home, an en passant square whose pawn is gone, the no-undo
 * move (ECHQ-6) of a piece that changed. */
static void edit_fixups(EchState *s, int sq)
{
    static const struct { uint8_t right; int king, rook, col; } C[4] = {
        {ECASTLE_WK, 4, 7, ES_WHITE}, {ECASTLE_WQ, 4, 0, ES_WHITE},
        {ECASTLE_BK, 60, 63, ES_BLACK}, {ECASTLE_BQ, 60, 56, ES_BLACK}};
    for (int i = 0; i < 4; i++)
        if (s->board[C[i].king] != EK_PIECE(C[i].col, FIG_KING) ||
            s->board[C[i].rook] != EK_PIECE(C[i].col, FIG_ROOK))
            s->castling &= (uint8_t)~C[i].right;
    if (s->ep >= 0 && (sq == s->ep || sq == s->ep + 8 || sq == s->ep - 8))
        s->ep = -1;
    if (sq == s->noundo_from || sq == s->noundo_to)
        s->noundo_from = s->noundo_to = -1;
}

/* EDIT_TURN (issue 25, TURN-2): ed->side moves next, then the turn goes on
 * from it as after any of its moves (phase 1: the other colour; phase 2:
 * the next side of the cycle still in).  It moves with its own pieces and,
 * in phase 1, the merged ones, which belong to the side to move (ECHQ-2).
 * The no-undo move (ECHQ-6) binds only the other side's very next move, so
 * it goes; the en passant square goes too (a side never takes its own
 * pawn), or is set to ed->at when a pawn of another side has just passed
 * it.  Refused: the merged side before a takeover (it has no turn in phase
 * 1, ECHQ-9), a side that is out (ECHQ-13), in phase 1 a side whose
 * opponent's King it attacks (ECHQ-8: the check must be answered; the
 * reader refuses it), in phase 2 a side whose one action would be a pass
 * (it would pass again, and a round of passes would not be a round:
 * ECHQ-13).  A side without any move is mated or stalemated as after a
 * move (TURN-6). */
static int edit_turn(const Game *g, EchState *s, const Edit *ed, Events *ev, Error *e)
{
    StrBuf text = STRBUF_INIT;
    if (ed->side < ES_WHITE || ed->side > ES_MERGED)
        return err_set(e, "cannot give the turn to side %d: the sides are white, black and "
                          "merged", ed->side);
    const int side = ed->side;
    const char *c = SIDE_NAMES[side];
    if (ed->figure == FIG_DUCK)
        return err_set(e, "cannot give the turn to %s with a duck to place: L'Échiqueté "
                          "has no duck (duck chess is played on the fairy variant)", c);
    if (ed->figure != FIG_NONE)
        return err_set(e, "cannot give the turn to %s: figure %d is not the duck", c,
                       ed->figure);
    if (ech_structural_end(g, s))
        return err_set(e, "cannot give the turn to %s: the game is over", c);
    if (s->phase == 1 && side == ES_MERGED)
        return err_set(e, "cannot give the turn to merged: the merged pieces have no turn "
                          "of their own before a takeover (ECHQ-2, ECHQ-9)");
    if (s->phase == 2 && ((s->out >> side) & 1u))
        return err_set(e, "cannot give the turn to %s: %s is out (ECHQ-13)", c, c);
    s->to_move = (uint8_t)side;
    s->noundo_from = s->noundo_to = -1;
    s->ep = -1;
    if (ed->at.x != -1 || ed->at.y != -1) {
        if (ed->at.x < 0 || ed->at.x > 7 || ed->at.y < 0 || ed->at.y > 7)
            return err_set(e, "cannot give the turn to %s: en passant square (%d,%d) is off "
                              "the board", c, (int)ed->at.x, (int)ed->at.y);
        const int sq = (int)(ed->at.y * 8 + ed->at.x), up = ed->at.y == 2;
        const int pawn = (ed->at.y == 2 || ed->at.y == 5) ? s->board[sq + (up ? 8 : -8)] : 0;
        if (!pawn || EK_FIG(pawn) != FIG_PAWN || EK_COL(pawn) == side)
            return err_set(e, "cannot give the turn to %s with en passant on %c%d: no pawn "
                              "of another side has just passed it", c, 'a' + sq % 8,
                           sq / 8 + 1);
        s->ep = (int8_t)sq;
    }
    ech_write(s, &text);
    Error why_not;
    EchState *t = cv_calloc(sizeof *t);
    int rc = -1;
    if (!t || sb_failed(&text)) {
        err_set(e, "out of memory");
    } else if (ech_init(g, t, sb_str(&text), &why_not)) {
        err_set(e, "cannot give the turn to %s: %s", c, why_not.msg);
    } else {
        EMove mv[ECH_MAX_MOVES];
        const int n = ech_moves(g, t, mv);
        if (n == 1 && mv[0].from == EM_PASS) {
            err_set(e, "cannot give the turn to %s: it has no legal move and could only "
                       "pass (ECHQ-13)", c);
        } else {
            *s = *t;
            ev_emit(ev, SEATS_ALL, "house rule: %s moves again", c);
            ech_resolve(g, s, ev); /* without a move, in check: mated and out */
            rc = 0;
        }
    }
    free(t);
    sb_free(&text);
    return rc;
}

static int ech_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    EchState *s = st;
    StrBuf what = STRBUF_INIT, text = STRBUF_INIT;
    int rc = -1;
    if (ed->kind == EDIT_TURN)
        return edit_turn(g, s, ed, ev, e);
    if (ed->at.x < 0 || ed->at.x > 7 || ed->at.y < 0 || ed->at.y > 7)
        return err_set(e, "not a square of the board");
    const int sq = (int)(ed->at.y * 8 + ed->at.x);
    const uint8_t old = s->board[sq];
    const char *why;
    if (ed->kind == EDIT_ADD) {
        if (ed->side < 0 || ed->side > 2 || ed->figure < FIG_PAWN || ed->figure > FIG_KING)
            return err_set(e, "no such piece to add");
        uint8_t pc = EK_PIECE(ed->side, ed->figure);
        sb_printf(&what, "add a %s %s on ", SIDE_NAMES[ed->side], edit_figure(ed->figure));
        put_sq(&what, sq);
        if (old) {
            sb_reset(&what);
            piece_words(&what, old, sq);
            err_set(e, "cannot add a piece on %c%d: %s stands there", 'a' + sq % 8,
                    sq / 8 + 1, sb_str(&what));
            goto done;
        }
        if ((why = edit_refusal(pc, sq))) {
            err_set(e, "cannot %s: %s", sb_str(&what), why);
            goto done;
        }
        s->board[sq] = pc;
    } else {
        if (!old) {
            err_set(e, "no piece on %c%d", 'a' + sq % 8, sq / 8 + 1);
            goto done;
        }
        piece_words(&what, old, sq);
        if (ed->kind == EDIT_REMOVE) {
            if (EK_FIG(old) == FIG_KING) {
                err_set(e, "cannot remove %s: each colour keeps exactly one King (ECHQ-5)",
                        sb_str(&what));
                goto done;
            }
            s->board[sq] = 0;
        } else {
            uint8_t pc = EK_PIECE(EK_COL(old), ed->figure);
            if (ed->figure < FIG_PAWN || ed->figure > FIG_KING) {
                err_set(e, "no such figure");
                goto done;
            }
            if (ed->figure == EK_FIG(old)) {
                err_set(e, "cannot change %s into a %s: it is one already", sb_str(&what),
                        edit_figure(ed->figure));
                goto done;
            }
            why = EK_FIG(old) == FIG_KING ? "each colour keeps exactly one King (ECHQ-5)"
                                          : edit_refusal(pc, sq);
            if (why) {
                err_set(e, "cannot change %s into a %s: %s", sb_str(&what),
                        edit_figure(ed->figure), why);
                goto done;
            }
            s->board[sq] = pc; /* a changed pawn loses EK_KEPT with its figure */
        }
    }
    edit_fixups(s, sq);
    /* The reader has the last word (check in phase 1, the merged side's
     * pieces and its seat in phase 2 ...). */
    ech_write(s, &text);
    Error why_not;
    EchState *t = cv_calloc(sizeof *t);
    if (!t || sb_failed(&text) || sb_failed(&what)) {
        err_set(e, "out of memory");
    } else if (ech_init(g, t, sb_str(&text), &why_not)) {
        if (ed->kind == EDIT_ADD)
            err_set(e, "cannot %s: the position would be impossible: %s", sb_str(&what),
                    why_not.msg);
        else
            err_set(e, "cannot %s %s: the position would be impossible: %s",
                    ed->kind == EDIT_REMOVE ? "remove" : "change", sb_str(&what),
                    why_not.msg);
    } else {
        *s = *t;
        if (ed->kind == EDIT_ADD) {
            ev_emit(ev, SEATS_ALL, "house rule: a %s %s is added on %c%d", SIDE_NAMES[ed->side],
                    edit_figure(ed->figure), 'a' + sq % 8, sq / 8 + 1);
        } else if (ed->kind == EDIT_REMOVE) {
            ev_emit(ev, SEATS_ALL, "house rule: %s is removed", sb_str(&what));
        } else {
            ev_emit(ev, SEATS_ALL, "house rule: %s becomes a %s", sb_str(&what),
                    edit_figure(ed->figure));
        }
        ech_resolve(g, s, ev); /* a side left without a move goes out (ECHQ-13) */
        rc = 0;
    }
    free(t);
done:
    sb_free(&what);
    sb_free(&text);
    return rc;
}

/* game:phase() of house-rule scripts: phase 1 (two sides and merged
 * pieces) or phase 2 (the third side, ECHQ-9 .. 13). */
static const char *ech_phase(const Game *g, const void *st)
{
    (void)g;
    return cst(st)->phase == 2 ? "phase2" : "phase1";
}

static void ech_write_position(const Game *g, const void *st, StrBuf *out)
{
    (void)g;
    ech_write(cst(st), out);
}

static const char *ech_side_name(const Game *g, int side)
{
    (void)g;
    return side >= 0 && side < 3 ? SIDE_NAMES[side] : "nobody";
}

static void last_move_text(const Game *g, View *v)
{
    for (int i = game_history_len(g) - 1; i >= 0; i--) {
        const HistoryEntry *h = game_history(g, i);
        if (h->action.kind == ACT_MOVE || h->action.kind == ACT_PASS ||
            h->action.kind == ACT_TAKEOVER) {
            str_copy(v->last_text, sizeof v->last_text, h->text);
            if (h->action.kind == ACT_MOVE) {
                v->has_last = 1;
                v->last_from = h->action.from;
                v->last_to = h->action.to;
            }
            return;
        }
    }
}

static void view_info(const Game *g, const EchState *s, int seat, View *v)
{
    StrBuf b = STRBUF_INIT;
    if (s->phase == 1) {
        sb_puts(&b, "phase 1: merged pieces (*) belong to the side to move");
        if (ech_merged_count(s) && game_param(g, EP_PHASE2))
            sb_printf(&b, "\ntakeover open from full move %d (type takeover, at your "
                          "turn or between moves)", game_param(g, EP_TAKEOVER_FROM));
    } else {
        sb_printf(&b, "phase 2: cycle %s", s->cycle == EC_EWB ? "merged, white, black"
                                                             : "merged, black, white");
        /* who plays which colour (ECHQ-12: one seat may play two) */
        for (int i = 0; i < 3; i++)
            sb_printf(&b, "%s%s played by %s%s", i ? "; " : "\n", SIDE_NAMES[i],
                      s->seat[i] >= 0 ? game_seat_name(g, s->seat[i]) : "nobody",
                      (s->out >> i) & 1u ? " (out: its pieces are inert)" : "");
    }
    if (s->noundo_from >= 0)
        sb_printf(&b, "\nno undo now: %c%c%c%c (ECHQ-6)", 'a' + EK_FILE(s->noundo_from),
                  '1' + EK_RANK(s->noundo_from), 'a' + EK_FILE(s->noundo_to),
                  '1' + EK_RANK(s->noundo_to));
    str_copy(v->info, sizeof v->info, sb_str(&b));
    sb_free(&b);
    /* a seat that commands more than one colour is told which it moves now
     * (ECHQ-12); otherwise the status line says it all */
    if (seat >= 0 && seat == v->seat_to_act && seat != s->to_move)
        snprintf(v->question, sizeof v->question, "%s: you move %s now",
                 game_seat_name(g, seat), SIDE_NAMES[s->to_move]);
}

static void ech_view(const Game *g, const void *st, int seat, View *v)
{
    const EchState *s = cst(st);
    v->side_to_move = s->to_move;
    for (int sq = 0; sq < 64 && v->npieces < MAX_VIEW_PIECES; sq++) {
        const int pc = s->board[sq];
        if (!pc)
            continue;
        ViewPiece *p = &v->pieces[v->npieces++];
        p->at = (Coord){EK_FILE(sq), EK_RANK(sq)};
        p->figure = (uint8_t)EK_FIG(pc);
        if (EK_COL(pc) == ES_MERGED) {
            p->flags = VP_MERGED;
            p->side = s->phase == 2 ? ES_MERGED : -1;
            p->side2 = ES_BLACK; /* two-coloured: white and black */
        } else {
            p->side = (int8_t)EK_COL(pc);
            if (s->phase == 2 && ((s->out >> EK_COL(pc)) & 1u))
                p->flags = VP_INERT;
        }
    }
    if (v->brief) /* look-ahead: the pieces are all it needs */
        return;
    /* the turn order and the sides out, as view_info says them */
    if (s->phase == 2) {
        v->norder = 3;
        for (int i = 0; i < 3; i++)
            v->order[i] = (int8_t)ech_cycle_side(s, i);
        v->out = s->out;
        /* a side out is commanded by nobody: its pieces are inert (ECHQ-13) */
        for (int i = 0; i < MAX_SEATS; i++)
            v->commands[i] &= ~s->out;
    } else {
        v->norder = 2;
        v->order[0] = ES_WHITE;
        v->order[1] = ES_BLACK;
    }
    last_move_text(g, v);
    view_info(g, s, seat, v);
    StrBuf b = STRBUF_INIT;
    ech_write(s, &b);
    str_copy(v->position, sizeof v->position, sb_str(&b));
    sb_free(&b);
}

/* The seat to act's tree, as its legal list: every move and the takeover
 * it may choose instead (ECHQ-12); a takeover by another seat is out of
 * turn and no ply. */
static uint64_t perft_rec(const Game *g, const EchState *s, int depth)
{
    if (ech_structural_end(g, s))
        return 0;
    EMove mv[ECH_MAX_MOVES];
    const int n = ech_moves(g, s, mv);
    const int seat = s->seat[s->to_move];
    const int take = n > 0 && ech_takeover_open(g, s, seat);
    if (depth == 1)
        return (uint64_t)(n + take);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        EchState t = *s;
        ech_make(g, &t, mv[i], NULL);
        total += perft_rec(g, &t, depth - 1);
    }
    if (take) {
        EchState t = *s;
        ech_takeover(g, &t, seat, NULL);
        ech_resolve(g, &t, NULL);
        total += perft_rec(g, &t, depth - 1);
    }
    return total;
}

static uint64_t ech_perft(const Game *g, const void *st, int depth)
{
    return depth <= 0 ? 1 : perft_rec(g, cst(st), depth);
}

static const VariantHelp ECH_HELP[] = {
    {"SAN move", "as orthodox; a merged piece's move starts with *", "*Nd5"},
    {"merging capture", "from x captured to =figure \xC3\x89 (ECHQ-1)", "Bg5xNf6=N\xC3\x89"},
    {"plain SAN", "read when it fits one move (* and \xC3\x89 may go)", "dxc3"},
    {"UCI move", "from, to, the letter of a capture's figure", "g5f6n"},
    {"takeover", "at your turn or between moves (ECHQ-9, 12)", "takeover"},
    {"pass", "phase 2, no legal move and not in check (ECHQ-13)", "pass"},
    {NULL, NULL, NULL},
};

/* The rules as data (core/variant.h RuleInfo; issue 22, docs/TEACHING.md). */
static const RuleInfo ECHIQUETE_RULES[] = {
    {"ECHQ-1", AREA_CAPTURES, -1, "ORTH-2", "",
     "a capture fuses both pieces into a merged piece, the mover picks its figure",
     NULL},
    {"ECHQ-2", AREA_TURNS, AREA_MOVES, "", "",
     "the merged pieces belong to the side to move",
     NULL},
    {"ECHQ-3", AREA_CAPTURES, -1, "", "",
     "a merged piece that captures merges again",
     NULL},
    {"ECHQ-4", AREA_CAPTURES, -1, "ORTH-2", "",
     "merged pieces cannot be taken",
     NULL},
    {"ECHQ-5", AREA_CAPTURES, AREA_CHECK, "", "ORTH-2",
     "a King that captures removes the piece, as in chess",
     NULL},
    {"ECHQ-6", AREA_MOVES, -1, "", "",
     "a merged piece's move may not be reversed at once",
     NULL},
    {"ECHQ-7", AREA_MOVES, -1, "", "ORTH-3",
     "a pawn captured on its start rank keeps its double step",
     NULL},
    {"ECHQ-8", AREA_CHECK, AREA_END, "ORTH-6", "ORTH-7 ORTH-9",
     "merged pieces give check to both Kings",
     "b1c3 b8a6 f2f3 a6c5 c3d5 c7c6 d2d3 c5b3 d5c7"},
    {"ECHQ-9", AREA_TURNS, -1, "", "",
     "a third seat may take the merged pieces over",
     NULL},
    {"ECHQ-10", AREA_CAPTURES, -1, "", "ORTH-2",
     "in phase 2 captures remove the piece again",
     NULL},
    {"ECHQ-11", AREA_MOVES, -1, "", "",
     "merged pawns of the third side move both ways",
     NULL},
    {"ECHQ-12", AREA_TURNS, -1, "", "",
     "with two seats, one may take the merged side and the other both colours",
     NULL},
    {"ECHQ-13", AREA_END, -1, "ORTH-7", "",
     "phase 2 ends: mates put sides out, the last side standing wins",
     NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData ECHIQUETE_RULE_DATA = {ECHIQUETE_RULES, NULL, NULL, NULL, 0};

const VariantOps echiquete_variant = {
    .version = 8,
    .name = "echiquete",
    .title = "L'Échiqueté",
    .summary = "a capture fuses both pieces into a merged piece either side may move; "
               "a third side may take them over (ECHQ-1..13)",
    .params = ECH_PARAMS,
    .nparams = EP__COUNT,
    .min_sides = 3,
    .max_sides = 3,
    .default_sides = 3,
    .state_size = sizeof(EchState),
    .init = ech_init_op,
    .write_position = ech_write_position,
    .side_name = ech_side_name,
    .to_act = ech_to_act,
    .side_to_move = ech_side_to_move,
    .seat_of_side = ech_seat_of_side,
    .legal = ech_legal,
    .apply = ech_apply,
    .parse = ech_parse,
    .format = ech_format,
    .hash = ech_hash,
    .status = ech_status,
    .claim = ech_claim,
    .view = ech_view,
    .perft = ech_perft,
    .hidden_info = 0,
    .help = ECH_HELP,
    .rules = echiquete_rules,
    .min_seats = 2, /* three sides, two or three players (ECHQ-9, ECHQ-12) */
    .max_seats = 3,
    .default_seats = 2,
    .edit = ech_edit,
    .phase = ech_phase,
    .why = ech_why,
    .rule_data = &ECHIQUETE_RULE_DATA,
};
