/*
 * fairy.c -- "Chess from parts" as a variant module (issue 24, PART-1 ..
 * PART-10 of docs/FAIRY.md): the glue between the core's VariantOps and
 * the generic engine of fv.h.  prepare compiles the rule-set text once per
 * game (ruleset.c); every op reads it with game_variant_data.
 *
 * Invariant: the blob is an FvState (plain data), always consistent: made
 * by fv_read at init and by fv_make of a legal move after; apply refuses
 * what the legal list does not hold, field by field.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairy.h"
#include "fv.h"
#include "../../core/game.h"

static const char *const SIDE_NAMES[2] = {"white", "black"};

static const FvRules *rules_of(const Game *g) { return game_variant_data(g); }

static void *fairy_prepare(const char *ruleset, Error *e)
{
    return fv_rules_new(ruleset, e);
}

static void fairy_unprepare(void *data) { free(data); }

static Coord sq_coord(int sq) { return coord_make(FV_X(sq), FV_Y(sq)); }

static int letter_figure(int t) { return figure_from_any_letter((char)('A' + t)); }

static Action move_action(int seat, uint32_t m)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.seat = (uint8_t)seat;
    a.code = m;
    a.to = sq_coord(FV_TO(m));
    if (FV_KIND(m) == FV_DUCK_PLACE) { /* TURN-4 */
        a.kind = ACT_PLACE;
        a.figure = FIG_DUCK;
        a.from = coord_make(-1, -1);
    } else if (FV_KIND(m) == FV_DROP) {
        a.kind = ACT_PLACE;
        a.figure = (uint8_t)letter_figure(FV_PT(m) - 1);
        a.from = coord_make(-1, -1);
    } else {
        a.kind = ACT_MOVE;
        a.from = sq_coord(FV_FROM(m));
        if (FV_KIND(m) != FV_CASTLE && FV_PT(m))
            a.figure = (uint8_t)letter_figure(FV_PT(m) - 1);
    }
    return a;
}

/* ---- Setup and read access --------------------------------------------- */

static int fairy_init(Game *g, void *st, const char *position, Error *e)
{
    return fv_read(rules_of(g), st, position, e);
}

static void fairy_write_position(const Game *g, const void *st, StrBuf *out)
{
    fv_write(rules_of(g), st, out);
}

static Geometry fairy_geometry(const Game *g, const void *st)
{
    const FvRules *r = rules_of(g);
    Geometry geo = {1, r->w, r->h};
    (void)st;
    return geo;
}

static int fairy_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return ((const FvState *)st)->side;
}

static int ended(const FvRules *r, const FvState *s)
{
    unsigned w;
    int code;
    char why[8];
    return fv_variant_end(r, s, &w, &code, why, sizeof why);
}

static int fairy_to_act(const Game *g, const void *st)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    if (ended(r, s) || !fv_has_legal(r, s))
        return -1;
    return s->side;
}

/* ---- Actions ------------------------------------------------------------ */

static void fairy_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    uint32_t moves[FV_MAX_MOVES];
    if (seat != s->side || ended(r, s))
        return;
    int n = fv_legal(r, s, moves);
    Action *a = al_extend(out, n);
    for (int i = 0; a && i < n; i++)
        a[i] = move_action(seat, moves[i]);
}

static int is_legal_action(const FvRules *r, const FvState *s, const Action *a)
{
    uint32_t moves[FV_MAX_MOVES];
    if ((a->kind != ACT_MOVE && a->kind != ACT_PLACE) || a->seat != s->side || ended(r, s))
        return 0;
    int n = fv_legal(r, s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == a->code) {
            Action want = move_action(s->side, moves[i]);
            return action_eq(&want, a);
        }
    return 0;
}

static int fairy_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    const FvRules *r = rules_of(g);
    FvState *s = st;
    StrBuf san = STRBUF_INIT;
    int mover = s->side;
    if (!is_legal_action(r, s, a))
        return -1;
    if (ev)
        fv_san(r, s, a->code, &san);
    fv_make(r, s, a->code);
    if (ev && FV_KIND(a->code) == FV_DUCK_PLACE)
        ev_emit(ev, SEATS_ALL, "%s places the duck: %s", SIDE_NAMES[mover], sb_str(&san));
    else if (ev)
        ev_emit(ev, SEATS_ALL, "%s plays %s", SIDE_NAMES[mover], sb_str(&san));
    sb_free(&san);
    return 0;
}

static void fairy_apply_listed(const Game *g, void *st, const Action *a)
{
    fv_make(rules_of(g), st, a->code);
}

static int fairy_legal_draw(const Game *g, const void *st, int seat, Rng *rng, Action *out)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    uint32_t moves[FV_MAX_MOVES];
    if (seat != s->side || ended(r, s))
        return 0;
    int n = fv_legal(r, s, moves);
    if (n > 0)
        *out = move_action(seat, moves[rng_below(rng, (uint32_t)n)]);
    return n;
}

static int fairy_parse(const Game *g, const void *st, const ActionList *legal, const char *text,
                       Action *out, Error *e)
{
    const FvRules *r = rules_of(g);
    uint32_t moves[FV_MAX_MOVES], m;
    int n = 0;
    for (int i = 0; i < legal->n && n < FV_MAX_MOVES; i++)
        if (legal->v[i].kind == ACT_MOVE || legal->v[i].kind == ACT_PLACE)
            moves[n++] = legal->v[i].code;
    if (fv_parse_move(r, st, moves, n, text, &m, e))
        return -1;
    for (int i = 0; i < legal->n; i++)
        if ((legal->v[i].kind == ACT_MOVE || legal->v[i].kind == ACT_PLACE) &&
            legal->v[i].code == m) {
            *out = legal->v[i];
            return 0;
        }
    return err_set(e, "%s is not a legal move here", text);
}

static void fairy_format(const Game *g, const void *st, const Action *a, int style, StrBuf *out)
{
    const FvRules *r = rules_of(g);
    if (a->kind != ACT_MOVE && a->kind != ACT_PLACE) {
        sb_puts(out, action_kind_name(a->kind));
        return;
    }
    if (style == FMT_RECORD && is_legal_action(r, st, a))
        fv_san(r, st, a->code, out);
    else
        fv_uci(r, st, a->code, out);
}

/* ---- Results ------------------------------------------------------------ */

static uint64_t fairy_hash(const Game *g, const void *st)
{
    return fv_hash(rules_of(g), st);
}

static void set_result(Status *out, unsigned winners, int code, const char *reason)
{
    out->over = 1;
    out->winners = winners;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, reason);
}

/* Insufficient material on the orthodox pieces (PART-10): K v K, K+minor
 * v K, K+B v K+B with the bishops on one colour of squares. */
static int insufficient(const FvRules *r, const FvState *s)
{
    int minors = 0, bishops[2] = {0, 0};
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int cell = s->board[FV_SQ(x, y)], t = FV_TYPE(cell);
            if (!cell || cell == FV_DUCK || t == FV_T('K'))
                continue;
            if (t != FV_T('N') && t != FV_T('B'))
                return 0;
            minors++;
            if (t == FV_T('B'))
                bishops[(x + y) & 1]++;
        }
    if (minors <= 1)
        return 1;
    return s->count[0][FV_T('N')] + s->count[1][FV_T('N')] == 0 &&
           s->count[0][FV_T('B')] == 1 && s->count[1][FV_T('B')] == 1 &&
           (!bishops[0] || !bishops[1]);
}

static void fairy_status(const Game *g, const void *st, Status *out)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    unsigned winners;
    int code;
    char why[128];
    /* while the duck is placed, the side in check is the one moving next */
    const int mover = fv_mover(s);
    int check = s->nroyal[mover] && fv_in_check(r, s, mover);
    out->in_check = check ? 1u << mover : 0;
    check &= !s->duck_due; /* a placer without a square is stalemated, not mated */
    if (fv_variant_end(r, s, &winners, &code, why, sizeof why)) {
        set_result(out, winners, code, why);
        return;
    }
    if (!fv_has_legal(r, s)) {
        if (check && r->check) {
            set_result(out, 1u << (s->side ^ 1), END_CHECKMATE, "checkmate");
        } else if (r->stalemate == FV_DRAW) {
            set_result(out, 0, END_STALEMATE, "stalemate");
        } else {
            int wins = r->stalemate == FV_WIN;
            snprintf(why, sizeof why, "stalemate: %s, without a move, %s", SIDE_NAMES[s->side],
                     wins ? "wins" : "loses");
            set_result(out, 1u << (wins ? s->side : s->side ^ 1), END_STALEMATE, why);
        }
        return;
    }
    if (!r->draws) /* PART-10 */
        return;
    if (game_repetitions(g) >= 5)
        set_result(out, 0, END_FIVEFOLD, "fivefold repetition");
    else if (s->halfmove >= 150)
        set_result(out, 0, END_SEVENTY_FIVE_MOVES, "seventy-five-move rule");
    else if (r->orthodox_material && insufficient(r, s))
        set_result(out, 0, END_INSUFFICIENT_MATERIAL, "insufficient material");
}

static int fairy_claim(const Game *g, const void *st, char *why, size_t n)
{
    if (!rules_of(g)->draws)
        return 0;
    if (game_repetitions(g) >= 3) {
        str_copy(why, n, "threefold repetition");
        return END_THREEFOLD;
    }
    if (((const FvState *)st)->halfmove >= 100) {
        str_copy(why, n, "fifty-move rule");
        return END_FIFTY_MOVES;
    }
    return 0;
}

/* ---- Views ---------------------------------------------------------------- */


static int orthodox_piece(const FvPiece *p, int t)
{
    static const char LET[] = "PNBRQK";
    static const char *const BETZA[] = {"fmWfcF", "N", "B", "R", "Q", "K"};
    const char *at = strchr(LET, 'A' + t);
    return at && !strcmp(p->betza, BETZA[at - LET]);
}

static void fairy_view(const Game *g, const void *st, int seat, View *v)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    (void)seat;
    v->side_to_move = s->side;
    for (int y = 0; y < r->h; y++)
        for (int x = 0; x < r->w; x++) {
            int cell = s->board[FV_SQ(x, y)];
            if (!cell || v->npieces >= MAX_VIEW_PIECES)
                continue;
            ViewPiece *vp = &v->pieces[v->npieces++];
            vp->at = coord_make(x, y);
            if (cell == FV_DUCK) { /* TURN-4: nobody's */
                vp->side = -1;
                vp->figure = FIG_DUCK;
                continue;
            }
            vp->side = (int8_t)FV_COLOR(cell);
            vp->figure = (uint8_t)letter_figure(FV_TYPE(cell));
            if (s->nroyal[FV_COLOR(cell)] && fv_is_royal(r, FV_TYPE(cell)) &&
                fv_in_check(r, s, FV_COLOR(cell)))
                vp->flags |= VP_CHECK;
        }
    for (int c = 0; c < 2; c++)
        for (int t = 0; t < FV_TYPES; t++)
            if (s->hand[c][t] && v->nhand < MAX_VIEW_HAND) {
                ViewHand *h = &v->hand[v->nhand++];
                h->side = (int8_t)c;
                h->figure = (uint8_t)letter_figure(t);
                h->count = s->hand[c][t];
            }
    if (v->brief)
        return;
    if (s->has_last) {
        v->has_last = 1;
        if (FV_KIND(s->last) != FV_DROP && FV_KIND(s->last) != FV_DUCK_PLACE)
            v->last_from = sq_coord(FV_FROM(s->last));
        else
            v->last_from = sq_coord(FV_TO(s->last));
        v->last_to = sq_coord(FV_TO(s->last));
        for (int i = game_history_len(g) - 1; i >= 0; i--) {
            const HistoryEntry *h = game_history(g, i);
            if (h->action.kind == ACT_MOVE || h->action.kind == ACT_PLACE) {
                str_copy(v->last_text, sizeof v->last_text, h->text);
                break;
            }
        }
    }
    StrBuf pos = STRBUF_INIT;
    fv_write(r, s, &pos);
    str_copy(v->position, sizeof v->position, sb_str(&pos));
    sb_free(&pos);
    if (strcmp(r->name, "Chess from parts"))
        view_info_line(v, "%s", r->name);
    for (int t = 0; t < FV_TYPES; t++)
        if (r->piece[t].defined && !orthodox_piece(&r->piece[t], t))
            view_info_line(v, "%c %s (%s)", 'A' + t, r->piece[t].name, r->piece[t].betza);
    if (r->checks)
        view_info_line(v, "checks given: white %d, black %d of %d", s->checks[0], s->checks[1],
                  r->checks);
    if (s->duck != FV_NO_SQ) {
        char d[4];
        fv_square_name(s->duck, d);
        view_info_line(v, "the duck: %s", d);
    }
    if (v->seat_to_act >= 0 && seat == v->seat_to_act)
        snprintf(v->question, sizeof v->question,
                 s->duck_due ? "%s places the duck" : "%s to move", SIDE_NAMES[s->side]);
}

static uint64_t fairy_perft(const Game *g, const void *st, int depth)
{
    return fv_perft(rules_of(g), st, depth);
}

void fairy_values(const Game *g, int values[FIG_MAX])
{
    const FvRules *r = rules_of(g);
    memset(values, 0, sizeof(int) * FIG_MAX);
    for (int t = 0; r && t < FV_TYPES; t++)
        if (r->piece[t].defined)
            values[letter_figure(t)] = r->piece[t].value;
}

/* ---- Edits (house rules' reactions) ----------------------------------------- */

/* EDIT_TURN (issue 25, TURN-2, TURN-4): ed->side acts next.  Without the
 * duck it moves: the en passant target goes (a side never takes its own
 * pawn) unless ed->at names one a pawn of the other side has just made.
 * With the duck it places the duck first and the other side moves after:
 * the target the last move made stays for that side (ed->at, if given,
 * must name it).  Refused where the check rule (PART-5) would leave the
 * side not moving next in check, and while a duck is still to be placed. */
static int edit_turn(const FvRules *r, FvState *s, const Edit *ed, Events *ev, Error *e)
{
    FvState t = *s;
    char what[64], sq[4];
    if (ed->side != 0 && ed->side != 1)
        return err_set(e, "cannot give the turn to side %d: the sides are white and black",
                       ed->side);
    const int duck = ed->figure == FIG_DUCK;
    snprintf(what, sizeof what, duck ? "give %s the duck to place" : "give the turn to %s",
             SIDE_NAMES[ed->side]);
    if (ed->figure != FIG_NONE && !duck)
        return err_set(e, "cannot %s: figure %d is not the duck", what, ed->figure);
    if (s->duck_due)
        return err_set(e, "cannot %s: %s must place the duck first (TURN-4)", what,
                       SIDE_NAMES[s->side]);
    const int has_at = ed->at.x >= 0 || ed->at.y >= 0;
    int at = -1;
    if (has_at) {
        if (ed->at.x < 0 || ed->at.x >= r->w || ed->at.y < 0 || ed->at.y >= r->h)
            return err_set(e, "cannot %s: en passant square (%d,%d) is off the %dx%d board",
                           what, ed->at.x, ed->at.y, r->w, r->h);
        at = FV_SQ(ed->at.x, ed->at.y);
        fv_square_name(at, sq);
    }
    t.side = (uint8_t)ed->side;
    t.duck_due = (uint8_t)duck;
    const int mover = fv_mover(&t); /* who may take en passant */
    if (duck) {
        if (t.ep != FV_NO_SQ && t.board[t.ep_victim] != FV_CELL(mover ^ 1, FV_T('P')))
            t.ep = t.ep_victim = FV_NO_SQ;
        if (has_at && at != t.ep)
            return err_set(e, "cannot %s with en passant on %s: the last move made no target "
                           "there (PART-3)", what, sq);
    } else {
        t.ep = t.ep_victim = FV_NO_SQ;
        if (has_at) {
            int victim = mover ? at + 16 : at - 16, origin = mover ? at - 16 : at + 16;
            if (victim < 0 || FV_Y(victim) >= r->h || origin < 0 || FV_Y(origin) >= r->h ||
                t.board[at] || t.board[origin] ||
                t.board[victim] != FV_CELL(mover ^ 1, FV_T('P')) ||
                !((r->ep_ranks[mover ^ 1] >> FV_Y(origin)) & 1))
                return err_set(e, "cannot %s with en passant on %s: no %s pawn has just "
                               "stepped over it (PART-3)", what, sq, SIDE_NAMES[mover ^ 1]);
            t.ep = (uint8_t)at;
            t.ep_victim = (uint8_t)victim;
        }
    }
    if (r->check && t.nroyal[mover ^ 1] && fv_in_check(r, &t, mover ^ 1))
        return err_set(e, "cannot %s: %s's royal piece is in check and %s would move next "
                       "(PART-5)", what, SIDE_NAMES[mover ^ 1], SIDE_NAMES[mover]);
    if (duck)
        ev_emit(ev, SEATS_ALL, "house rule: %s places the duck", SIDE_NAMES[ed->side]);
    else
        ev_emit(ev, SEATS_ALL, "house rule: %s moves %s", SIDE_NAMES[ed->side],
                ed->side == s->side ? "next" : "again");
    *s = t;
    return 0;
}

static int fairy_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    const FvRules *r = rules_of(g);
    FvState *s = st, t = *s;
    char sq[4];
    if (ed->kind == EDIT_TURN)
        return edit_turn(r, s, ed, ev, e);
    if (ed->at.x < 0 || ed->at.x >= r->w || ed->at.y < 0 || ed->at.y >= r->h)
        return err_set(e, "cannot edit: (%d,%d) is off the %dx%d board", ed->at.x, ed->at.y,
                       r->w, r->h);
    int at = FV_SQ(ed->at.x, ed->at.y);
    fv_square_name(at, sq);
    int cell = t.board[at];
    if (cell == FV_DUCK && ed->kind == EDIT_ADD)
        return err_set(e, "cannot add a piece on %s: the duck stands there (TURN-4)", sq);
    if (cell == FV_DUCK && ed->kind == EDIT_CHANGE)
        return err_set(e, "cannot change the duck on %s: it is nobody's piece and moves only "
                       "when placed (TURN-4)", sq);
    char letter = ed->figure > 0 && ed->figure < FIG_MAX ? figure_letter(ed->figure) : 0;
    int type = letter >= 'A' && letter <= 'Z' ? FV_T(letter) : -1;
    if ((ed->kind == EDIT_ADD || ed->kind == EDIT_CHANGE) &&
        (type < 0 || !r->piece[type].defined))
        return err_set(e, "cannot put a piece on %s: the rule set has no piece %c", sq,
                       letter ? letter : '?');
    switch (ed->kind) {
    case EDIT_REMOVE:
        if (!cell)
            return err_set(e, "cannot remove a piece from %s: it is empty", sq);
        t.board[at] = 0;
        break;
    case EDIT_ADD:
        if (cell)
            return err_set(e, "cannot add a piece on %s: it is taken", sq);
        if (ed->side != 0 && ed->side != 1)
            return err_set(e, "cannot add a piece of side %d: white or black", ed->side);
        t.board[at] = FV_CELL(ed->side, type);
        break;
    case EDIT_CHANGE:
        if (!cell)
            return err_set(e, "cannot change the piece on %s: it is empty", sq);
        t.board[at] = FV_CELL(FV_COLOR(cell), type);
        break;
    default:
        return err_set(e, "cannot edit: unknown edit %d", ed->kind);
    }
    int nc = t.board[at];
    if (nc && FV_TYPE(nc) == FV_T('P') && FV_Y(at) == r->last_rank[FV_COLOR(nc)])
        return err_set(e, "cannot put a pawn on %s, its last rank (PART-3)", sq);
    if (fv_derive(r, &t, e))
        return -1;
    /* castling rights and en passant that no longer make sense go */
    for (int c = 0; c < 2; c++) {
        if (t.castle_king[c] != FV_NO_SQ && t.board[t.castle_king[c]] != FV_CELL(c, FV_T('K')))
            t.castle_rook[c][0] = t.castle_rook[c][1] = FV_NO_SQ;
        for (int w = 0; w < 2; w++)
            if (t.castle_rook[c][w] != FV_NO_SQ &&
                t.board[t.castle_rook[c][w]] != FV_CELL(c, FV_T('R')))
                t.castle_rook[c][w] = FV_NO_SQ;
    }
    const int mover = fv_mover(&t);
    if (t.ep != FV_NO_SQ && ((t.board[t.ep] && t.board[t.ep] != FV_DUCK) ||
                             t.board[t.ep_victim] != FV_CELL(mover ^ 1, FV_T('P'))))
        t.ep = t.ep_victim = FV_NO_SQ;
    t.had_royal[0] |= t.nroyal[0] > 0;
    t.had_royal[1] |= t.nroyal[1] > 0;
    if (r->check && t.nroyal[mover ^ 1] && fv_in_check(r, &t, mover ^ 1))
        return err_set(e, "cannot edit %s: %s would be in check with %s to move (PART-5)", sq,
                       SIDE_NAMES[mover ^ 1], SIDE_NAMES[mover]);
    *s = t;
    if (cell == FV_DUCK)
        ev_emit(ev, SEATS_ALL, "house rule: the duck on %s is removed", sq);
    else if (ed->kind == EDIT_REMOVE)
        ev_emit(ev, SEATS_ALL, "house rule: the %s %s on %s is removed",
                SIDE_NAMES[FV_COLOR(cell)], r->piece[FV_TYPE(cell)].name, sq);
    else if (ed->kind == EDIT_ADD)
        ev_emit(ev, SEATS_ALL, "house rule: a %s %s is put on %s", SIDE_NAMES[ed->side],
                r->piece[type].name, sq);
    else
        ev_emit(ev, SEATS_ALL, "house rule: the piece on %s becomes a %s", sq,
                r->piece[type].name);
    return 0;
}

/* ---- Why (issue 22) ----------------------------------------------------------- */

static const WhyWords FAIRY_OVER[] = {
    {"checkmate", "PART-5"}, {"royal piece", "PART-5"}, {"stalemate", "PART-9"},
    {"check", "PART-9"},     {"goal", "PART-9"},        {"pieces", "PART-9"},
    {"bare", "PART-9"},      {"resigned", "ORTH-8"},    {"agreement", "ORTH-8"},
    {"", "PART-10"},         {NULL, NULL}};
static const WhyWords FAIRY_REFUSALS[] = {
    {"duck", "TURN-4"},
    {"castl", "PART-4"},      {"promot", "PART-3"},    {"becomes", "PART-3"},
    {"drop", "PART-6"},       {"en passant", "PART-3"}, {"turn to act", "PART-1"},
    {"'s move", "PART-1"},    {"claimed", "PART-10"},   {"draw", "ORTH-8"},
    {"resign", "ORTH-8"},     {"cannot go", "PART-2"},  {"no piece on", "PART-2"},
    {"not a legal move", "PART-2"}, {NULL, NULL}};

static int fairy_why(const Game *g, const void *st, int seat, const Action *a,
                     const char *refusal, WhyRule *out)
{
    const FvRules *r = rules_of(g);
    const FvState *s = st;
    char sq[4];
    (void)seat;
    if (!a) {
        if (!strncmp(refusal, "the game is over", 16))
            return why_words(refusal, FAIRY_OVER, out);
        return why_words(refusal, FAIRY_REFUSALS, out);
    }
    if (a->kind != ACT_MOVE && a->kind != ACT_PLACE)
        return -1;
    uint32_t m = a->code;
    fv_square_name(FV_TO(m), sq);
    switch (FV_KIND(m)) {
    case FV_DUCK_PLACE:
        return why_set(out, "TURN-4", "the duck goes onto an empty square (%s), not the one it "
                       "stood on; it blocks every piece and is nobody's", sq);
    case FV_DROP:
        return why_set(out, "PART-6", "a piece in hand is dropped on an empty square (%s)", sq);
    case FV_CASTLE:
        return why_set(out, "PART-4", "castling: king and rook have not moved and the squares "
                       "between them are empty%s", r->check ? "; the king is not in check "
                       "and crosses no attacked square" : "");
    case FV_EP:
        return why_set(out, "PART-3", "en passant: the pawn that has just stepped two is "
                       "taken as if it had stepped one");
    case FV_DOUBLE:
        return why_set(out, "PART-3", "a pawn steps two squares from its double-step rank");
    default:
        break;
    }
    int cell = s->board[FV_FROM(m)];
    const FvPiece *p = &r->piece[FV_TYPE(cell)];
    int cap = fv_is_capture(r, s, m);
    const char *blast = cap && r->explode ? "; the capture explodes (PART-7)" : "";
    if (FV_PT(m))
        return why_set(out, "PART-3", "a pawn reaching %s becomes a %s", sq,
                       r->piece[FV_PT(m) - 1].name);
    if (FV_TYPE(cell) == FV_T('P'))
        return why_set(out, r->explode && cap ? "PART-3 PART-7" : "PART-3",
                       "a pawn %s %s%s", cap ? "captures diagonally forward on" : "steps to",
                       sq, blast);
    return why_set(out, r->explode && cap ? "PART-2 PART-7" : "PART-2",
                   "the %s moves as %s says (Betza notation)%s%s", p->name, p->betza,
                   cap ? ", capturing" : "", blast);
}

/* ---- Help, rules as data ---------------------------------------------------------- */

static const VariantHelp FAIRY_HELP[] = {
    {"SAN move", "the piece's letter (none for a pawn), the square", "Nf3"},
    {"SAN capture", "x before the square; a pawn gives its file", "exd5"},
    {"O-O, O-O-O", "castle on the king's side, on the queen's side", "O-O"},
    {"promotion", "the pawn's move, = and the piece's letter", "e8=Q"},
    {"drop", "a piece in hand: its letter, @ and the square", "N@f3"},
    {"UCI move", "from-square, to-square (+ a letter to promote)", "g1f3"},
    {"the duck", "when a house rule's turn asks for it (TURN-4): @ and an empty square",
     "@e5"},
    {NULL, NULL, NULL},
};

static const RuleInfo FAIRY_RULES[] = {
    {"PART-1", AREA_BOARD, AREA_TURNS, "ORTH-1", "",
     "the board (up to 16x16) and the start come from the rule set", NULL},
    {"PART-2", AREA_MOVES, AREA_CAPTURES, "ORTH-2", "",
     "each piece moves as its Betza notation says; the rule set adds pieces", NULL},
    {"PART-3", AREA_MOVES, -1, "ORTH-3 ORTH-4", "",
     "pawns: double steps, en passant and promotion as the rule set says", NULL},
    {"PART-4", AREA_MOVES, AREA_CHECK, "ORTH-5", "",
     "castling to the rule set's files, or none", NULL},
    {"PART-5", AREA_CHECK, AREA_END, "ORTH-6 ORTH-7", "",
     "the royal pieces, with or without the check rule", NULL},
    {"PART-6", AREA_CAPTURES, AREA_MOVES, "", "ORTH-2",
     "captured pieces go to the capturer's hand and are dropped", NULL},
    {"PART-7", AREA_CAPTURES, AREA_CHECK, "ORTH-2", "",
     "captures explode (atomic)", NULL},
    {"PART-8", AREA_MOVES, AREA_CHECK, "", "ORTH-2",
     "forced captures; no move may give check", NULL},
    {"PART-9", AREA_END, -1, "ORTH-7", "",
     "the n-th check, a goal, stalemate, no pieces and a bare royal end the game", NULL},
    {"PART-10", AREA_DRAWS, -1, "ORTH-9", "",
     "the orthodox draws, or none", NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData FAIRY_RULE_DATA = {FAIRY_RULES, NULL, NULL, NULL, 0};

const VariantOps fairy_variant = {
    .version = 9,
    .name = "fairy",
    .title = "Chess from parts",
    .summary = "a board, pieces in Betza notation, hands and the King's role from a rule set "
               "(PART-1..10); orthodox chess without one",
    .params = NULL,
    .nparams = 0,
    .min_sides = 2,
    .max_sides = 2,
    .default_sides = 2,
    .state_size = sizeof(FvState),
    .init = fairy_init,
    .write_position = fairy_write_position,
    .geometry = fairy_geometry,
    .to_act = fairy_to_act,
    .side_to_move = fairy_side_to_move,
    .legal = fairy_legal,
    .apply = fairy_apply,
    .parse = fairy_parse,
    .format = fairy_format,
    .hash = fairy_hash,
    .status = fairy_status,
    .claim = fairy_claim,
    .view = fairy_view,
    .perft = fairy_perft,
    .hidden_info = 0,
    .help = FAIRY_HELP,
    .rules = fairy_rules,
    .edit = fairy_edit,
    .apply_listed = fairy_apply_listed,
    .legal_draw = fairy_legal_draw,
    .why = fairy_why,
    .rule_data = &FAIRY_RULE_DATA,
    .prepare = fairy_prepare,
    .unprepare = fairy_unprepare,
};
