/*
 * ambigus.c -- Échecs ambigus as a variant module: parameters, the ops
 * table, who acts, legal actions, applying them, the result, draw claims
 * and the perft over the action tree (rules AMBI-1 .. AMBI-7,
 * docs/RULES.md; the contract is docs/AMBIGUS.md).
 *
 * A turn is two decisions: the side to move names a square (an ACT_MOVE
 * with only `to` set), then, when several of its moves land there, the
 * opponent's seat picks one (an ACT_CHOOSE carrying the move).  A square
 * with one candidate move is played at once; the enemy King's square ends
 * the game at once (AMBI-4).
 *
 * Invariant: legal, apply and perft share one generator (amb_moves) and
 * one make (amb_make), and the perft here counts exactly the tree that
 * legal/apply span (the core's generic perft), so the two always agree.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "ambigus.h"
#include "amb.h"
#include "../orthodox/bitboard.h"
#include "../orthodox/edit.h"

static const char *const STALEMATE_CHOICES[] = {"win", "draw", "loss", NULL};

static const ParamDef AMBIGUS_PARAMS[AM__COUNT] = {
    [AM_MATE] = {.name = "mate", .type = PARAM_BOOL, .def = 0, .rule = "AMBI-6",
                 .doc = "the mate rule: a side whose King is attacked and that cannot "
                        "name a square where every choice of the opponent keeps its King "
                        "safe is mated (and loses)"},
    [AM_STALEMATE] = {.name = "stalemate", .type = PARAM_ENUM, .def = STALE_WIN,
                      .choices = STALEMATE_CHOICES, .rule = "AMBI-6",
                      .doc = "with the mate rule on, a side not attacked whose every square "
                             "can cost its King is stalemated: a win, a draw or a loss for "
                             "the side that delivered it"},
    [AM_CLOCK] = {.name = "clock", .type = PARAM_BOOL, .def = 0, .rule = "AMBI-7",
                  .doc = "the clock procedure: the mover may type a whole move (Nf3, g1f3), "
                         "which names its square and proposes the piece; the opponent "
                         "answers keep or chooses another candidate"},
    [AM_THREEFOLD] = {.name = "threefold", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                      .doc = "the side to name a square may claim a draw when the position "
                             "has occurred three times"},
    [AM_FIFTY] = {.name = "fifty_move", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                  .doc = "the side to name a square may claim a draw after 50 moves each "
                         "without a capture or a pawn move"},
    [AM_FIVEFOLD] = {.name = "fivefold", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                     .doc = "the game is drawn at once when the position has occurred "
                            "five times"},
    [AM_SEVENTY_FIVE] = {.name = "seventy_five_move", .type = PARAM_BOOL, .def = 1,
                         .rule = "ORTH-9",
                         .doc = "the game is drawn at once after 75 moves each without a "
                                "capture or a pawn move"},
};

static const AmbState *cst(const void *st) { return st; }

static Coord sq_coord(int sq) { return coord_make(sq & 7, sq >> 3); }

/* ---- Actions --------------------------------------------------------------- */

/* The naming action's flags for sq: several candidates, the King's square. */
static int square_flags(const AmbState *s, const Move *list, int n, int sq)
{
    int count = 0;
    for (int i = 0; i < n && count < 2; i++)
        count += MOVE_TO(list[i]) == sq;
    int flags = count > 1 ? AMB_AMBIGUOUS : 0;
    if (sq == amb_king_square(&s->pos, s->pos.side ^ 1))
        flags |= AMB_KING;
    return flags;
}

static Action name_action(const AmbState *s, int sq, int flags)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_MOVE;
    a.seat = s->pos.side;
    a.flags = (uint8_t)flags;
    a.from = coord_make(-1, -1); /* only the square is named */
    a.to = sq_coord(sq);
    a.code = (uint32_t)sq;
    return a;
}

Action amb_choose_action(const AmbState *s, Move m)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_CHOOSE;
    a.seat = (uint8_t)(s->pos.side ^ 1); /* the opponent chooses (AMBI-2) */
    a.figure = (uint8_t)MOVE_PROMO_FIG(m);
    a.from = sq_coord(MOVE_FROM(m));
    a.to = sq_coord(MOVE_TO(m));
    a.code = m;
    return a;
}

static void amb_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    const AmbState *s = cst(st);
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    (void)g;
    if (s->phase == AP_OVER)
        return;
    const int n = amb_moves(&s->pos, list);
    if (s->phase == AP_NAME) {
        if (seat != s->pos.side)
            return;
        Bitboard all, ambiguous;
        amb_targets(list, n, &all, &ambiguous);
        while (all) {
            const int sq = bb_pop(&all);
            Action a = name_action(s, sq, square_flags(s, list, n, sq));
            al_push(out, &a);
        }
        return;
    }
    if (seat != (s->pos.side ^ 1))
        return;
    const int k = amb_candidates(list, n, s->named, cand);
    for (int i = 0; i < k; i++) {
        Action a = amb_choose_action(s, cand[i]);
        al_push(out, &a);
    }
}

/* Is a one of the legal actions of s (field by field, so a forged square,
 * move or flag is refused)?  Stores the candidates of its square. */
static int is_legal(const AmbState *s, const Action *a, Move *cand, int *k)
{
    Move list[AMB_MAX_MOVES];
    const int n = amb_moves(&s->pos, list);
    if (a->to.x < 0 || a->to.x > 7 || a->to.y < 0 || a->to.y > 7)
        return 0;
    const int sq = CH_SQ(a->to.x, a->to.y);
    if (s->phase == AP_NAME) {
        *k = amb_candidates(list, n, sq, cand);
        Action want = name_action(s, sq, square_flags(s, list, n, sq));
        return *k > 0 && action_eq(&want, a);
    }
    if (s->phase != AP_CHOOSE || sq != s->named)
        return 0;
    *k = amb_candidates(list, n, sq, cand);
    for (int i = 0; i < *k; i++) {
        Action want = amb_choose_action(s, cand[i]);
        if (action_eq(&want, a))
            return 1;
    }
    return 0;
}

static void play_move(AmbState *s, Move m)
{
    amb_make(&s->pos, m);
    s->last = m;
    s->has_last = 1;
    s->phase = AP_NAME;
    s->named = -1;
    s->has_proposal = 0;
    s->proposal = 0;
}

/* Naming: the King's square ends the game, one candidate is played, more
 * ask the opponent.  The clock procedure's proposal rides in a->note. */
static void apply_name(const Game *g, AmbState *s, const Action *a, const Move *cand,
                       int k, Events *ev)
{
    const int sq = (int)a->code, mover = s->pos.side;
    StrBuf b = STRBUF_INIT;
    char name[3];
    chess_square_name(sq, name);
    if (a->flags & AMB_KING) {
        s->phase = AP_OVER;
        s->named = (int8_t)sq;
        if (ev)
            ev_emit(ev, SEATS_ALL, "%s names %s, the square of the %s King, and takes it "
                    "(AMBI-4)", AMB_SIDE_NAMES[mover], name, AMB_SIDE_NAMES[mover ^ 1]);
        return;
    }
    if (k == 1) {
        if (ev)
            amb_move_text(&s->pos, cand[0], &b);
        play_move(s, cand[0]);
        if (ev) {
            ev_emit(ev, SEATS_ALL, "%s names %s: only %s can go there", AMB_SIDE_NAMES[mover],
                    name, sb_str(&b));
        }
        sb_free(&b);
        return;
    }
    s->phase = AP_CHOOSE;
    s->named = (int8_t)sq;
    s->has_proposal = 0;
    const Move proposed = (Move)(a->note & 0xFFFF);
    for (int i = 0; (a->note & AMB_NOTE_PROPOSAL) && game_param(g, AM_CLOCK) && i < k; i++)
        if (cand[i] == proposed) {
            s->has_proposal = 1;
            s->proposal = proposed;
        }
    if (!ev)
        return;
    for (int i = 0; i < k; i++) {
        sb_puts(&b, i ? (i == k - 1 ? " or " : ", ") : "");
        amb_piece_text(&s->pos, cand[i], &b);
    }
    ev_emit(ev, SEATS_ALL, "%s names %s: %s chooses %s", AMB_SIDE_NAMES[mover], name,
            AMB_SIDE_NAMES[mover ^ 1], sb_str(&b));
    if (s->has_proposal) {
        sb_reset(&b);
        amb_move_text(&s->pos, s->proposal, &b);
        ev_emit(ev, SEATS_ALL, "%s proposes %s (clock procedure): %s may keep it or send "
                "another piece", AMB_SIDE_NAMES[mover], sb_str(&b), AMB_SIDE_NAMES[mover ^ 1]);
    }
    sb_free(&b);
}

static int amb_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    AmbState *s = st;
    Move cand[AMB_MAX_MOVES];
    int k = 0;
    if (!is_legal(s, a, cand, &k))
        return -1;
    if (s->phase == AP_NAME) {
        apply_name(g, s, a, cand, k, ev);
        assert(amb_state_ok(s));
        return 0;
    }
    const Move m = (Move)a->code;
    const int mover = s->pos.side;
    StrBuf b = STRBUF_INIT;
    if (ev) {
        amb_piece_text(&s->pos, m, &b);
        sb_puts(&b, ": ");
        amb_move_text(&s->pos, m, &b);
    }
    play_move(s, m);
    if (ev)
        ev_emit(ev, SEATS_ALL, "%s chooses %s", AMB_SIDE_NAMES[mover ^ 1], sb_str(&b));
    sb_free(&b);
    assert(amb_state_ok(s));
    return 0;
}

/* ---- Who acts, results ------------------------------------------------------ */

static void set_result(Status *out, unsigned winners, int code, const char *reason)
{
    out->over = 1;
    out->winners = winners;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, reason);
}

/* The end of the game the position itself decides, in AP_NAME: AMBI-5
 * first, then (mate rule on) AMBI-6.  0 while the side may name. */
static int position_end(const Game *g, const AmbState *s, Status *out)
{
    Move list[AMB_MAX_MOVES];
    const int side = s->pos.side, n = amb_moves(&s->pos, list);
    if (n == 0) {
        set_result(out, 1u << (side ^ 1), END_NO_SQUARE, "no square to name");
        return 1;
    }
    if (!game_param(g, AM_MATE) || !amb_doomed(&s->pos, list, n))
        return 0;
    if (amb_king_attacked(&s->pos, side)) {
        set_result(out, 1u << (side ^ 1), END_MATE, "mate");
        return 1;
    }
    /* The parameter says what stalemate is for the side that delivered it:
     * the opponent of the side to move. */
    unsigned winners = 0;
    if (game_param(g, AM_STALEMATE) == STALE_WIN)
        winners = 1u << (side ^ 1);
    else if (game_param(g, AM_STALEMATE) == STALE_LOSS)
        winners = 1u << side;
    set_result(out, winners, END_STALEMATE, "stalemate");
    return 1;
}

static int amb_to_act(const Game *g, const void *st)
{
    const AmbState *s = cst(st);
    Status end;
    if (s->phase == AP_OVER)
        return -1;
    if (s->phase == AP_CHOOSE)
        return s->pos.side ^ 1;
    return position_end(g, s, &end) ? -1 : s->pos.side;
}

/* No check in Échecs ambigus (AMBI-4): in_check stays 0, so the core never
 * says "in check"; the views' info lines say whose King can be taken. */
static void amb_status(const Game *g, const void *st, Status *out)
{
    const AmbState *s = cst(st);
    if (s->phase == AP_OVER) {
        set_result(out, 1u << s->pos.side, END_KING_CAPTURED, "king captured");
        return;
    }
    if (s->phase == AP_CHOOSE || position_end(g, s, out))
        return;
    /* ORTH-9's automatic draws, between moves only. */
    if (game_param(g, AM_FIVEFOLD) && game_repetitions(g) >= 5)
        set_result(out, 0, END_FIVEFOLD, "fivefold repetition");
    else if (game_param(g, AM_SEVENTY_FIVE) && s->pos.halfmove >= 150)
        set_result(out, 0, END_SEVENTY_FIVE_MOVES, "seventy-five-move rule");
}

/* ORTH-9 claims, by the side about to name a square. */
static int amb_claim(const Game *g, const void *st, char *why, size_t n)
{
    const AmbState *s = cst(st);
    if (s->phase != AP_NAME)
        return 0;
    if (game_param(g, AM_THREEFOLD) && game_repetitions(g) >= 3) {
        str_copy(why, n, "threefold repetition");
        return END_THREEFOLD;
    }
    if (game_param(g, AM_FIFTY) && s->pos.halfmove >= 100) {
        str_copy(why, n, "fifty-move rule");
        return END_FIFTY_MOVES;
    }
    return 0;
}

/* ---- Setup and read access -------------------------------------------------- */

static int amb_init(Game *g, void *st, const char *position, Error *e)
{
    (void)g;
    if (!position)
        amb_start(st);
    else if (amb_read(st, position, e))
        return -1;
    assert(amb_state_ok(st));
    return 0;
}

static void amb_write_position(const Game *g, const void *st, StrBuf *out)
{
    (void)g;
    amb_write(cst(st), out);
}

static int amb_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return cst(st)->pos.side;
}

static uint64_t amb_hash_op(const Game *g, const void *st)
{
    (void)g;
    return amb_hash(cst(st));
}

/* ---- House-rule edits ------------------------------------------------------ */

static const ChessEditRules AMB_EDIT_RULES = {"AMBI-4", "AMBI-3"};

/* Edits only between turns: while the opponent chooses the piece, the
 * candidates it is offered must stay those of the named square; once a
 * King is named the game is over. */
static int edit_phase_ok(const AmbState *s, Error *e)
{
    char sq[3];
    if (s->phase == AP_CHOOSE)
        return err_set(e, "%s is choosing which %s piece goes to %s (AMBI-2): the position "
                       "may be edited only once the move is played",
                       AMB_SIDE_NAMES[s->pos.side ^ 1], AMB_SIDE_NAMES[s->pos.side],
                       chess_square_name(s->named, sq));
    if (s->phase == AP_OVER)
        return err_set(e, "the game is over: %s named the %s King's square (AMBI-4)",
                       AMB_SIDE_NAMES[s->pos.side], AMB_SIDE_NAMES[s->pos.side ^ 1]);
    return 0;
}

/* A house rule's edit (core/variant.h): the board's own tests, then the
 * position reader, so the blob is what it would build for the new
 * position (bitboards, key, en passant); no check rule (AMBI-4), so a
 * King may be left attacked.  The counters and the last move stay. */
static int amb_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    AmbState *s = st;
    Position p = s->pos;
    AmbState fresh;
    StrBuf said = STRBUF_INIT, what = STRBUF_INIT, fen = STRBUF_INIT;
    Error why;
    int rc = -1;
    (void)g;
    if (edit_phase_ok(s, e) || chess_edit_board(&p, ed, &AMB_EDIT_RULES, &said, &what, e))
        goto done;
    chess_edit_fen(&p, &fen);
    if (sb_failed(&fen) || sb_failed(&said) || sb_failed(&what)) {
        err_set(e, "out of memory");
        goto done;
    }
    if (amb_read(&fresh, sb_str(&fen), &why)) {
        err_set(e, "cannot %s: the position would be impossible: %s", sb_str(&what),
                why.msg);
        goto done;
    }
    s->pos = fresh.pos;
    s->pos.halfmove = p.halfmove;
    s->pos.fullmove = p.fullmove;
    assert(amb_state_ok(s));
    ev_emit(ev, SEATS_ALL, "%s", sb_str(&said));
    rc = 0;
done:
    sb_free(&said);
    sb_free(&what);
    sb_free(&fen);
    return rc;
}

/* ---- Perft ----------------------------------------------------------------- */

static uint64_t perft_name(const Game *g, const AmbState *s, int depth);

/* The subtree after the move m is played. */
static uint64_t perft_after(const Game *g, const AmbState *s, Move m, int depth)
{
    if (depth == 0)
        return 1;
    AmbState c = *s;
    play_move(&c, m);
    return perft_name(g, &c, depth);
}

/* Leaves below a choice among k candidates, depth >= 1. */
static uint64_t perft_choose(const Game *g, const AmbState *s, const Move *cand, int k,
                             int depth)
{
    if (depth == 1)
        return (uint64_t)k;
    uint64_t total = 0;
    for (int i = 0; i < k; i++)
        total += perft_after(g, s, cand[i], depth - 1);
    return total;
}

/* Leaves below a naming node, depth >= 1. */
static uint64_t perft_name(const Game *g, const AmbState *s, int depth)
{
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int n = amb_moves(&s->pos, list);
    if (n == 0 || (game_param(g, AM_MATE) && amb_doomed(&s->pos, list, n)))
        return 0; /* AMBI-5, AMBI-6: nobody acts */
    Bitboard all, ambiguous;
    amb_targets(list, n, &all, &ambiguous);
    if (depth == 1)
        return (uint64_t)bb_count(all);
    /* The enemy King's square is a leaf: the game ends there. */
    all &= ~BB(amb_king_square(&s->pos, s->pos.side ^ 1));
    uint64_t total = 0;
    while (all) {
        const int sq = bb_pop(&all);
        const int k = amb_candidates(list, n, sq, cand);
        total += k == 1 ? perft_after(g, s, cand[0], depth - 1)
                        : perft_choose(g, s, cand, k, depth - 1);
    }
    return total;
}

static uint64_t amb_perft(const Game *g, const void *st, int depth)
{
    const AmbState *s = cst(st);
    if (depth <= 0)
        return 1;
    if (s->phase == AP_OVER)
        return 0;
    if (s->phase == AP_NAME)
        return perft_name(g, s, depth);
    Move list[AMB_MAX_MOVES], cand[AMB_MAX_MOVES];
    const int n = amb_moves(&s->pos, list);
    return perft_choose(g, s, cand, amb_candidates(list, n, s->named, cand), depth);
}

/* ---- Other texts for the same actions (issue 21) ------------------------- */

/* Under the clock procedure (AMBI-7), what the mover may type besides the
 * squares: every whole move of the naming list, in UCI (it names its square
 * and, where the opponent chooses, proposes its piece), with its from- and
 * to-square for a page's clicks and, as its label, the record form of the
 * naming it is read as ("Ng1f3", "e4 (Pe2e4)"); and, while a proposal
 * stands, the opponent's `keep` ("keep Ng1f3").  Read back by amb_parse,
 * so each text is exactly what the parser takes. */
static int amb_inputs(const Game *g, const void *st, int seat, InputForm *out, int max)
{
    const AmbState *s = cst(st);
    if (!game_param(g, AM_CLOCK) || s->phase == AP_OVER || max <= 0)
        return 0;
    StrBuf b = STRBUF_INIT;
    int k = 0;
    if (s->phase == AP_CHOOSE) {
        if (s->has_proposal && seat == (s->pos.side ^ 1)) {
            memset(&out[0], 0, sizeof out[0]);
            out[0].kind = ACT_CHOOSE;
            out[0].from = out[0].to = coord_make(-1, -1);
            snprintf(out[0].text, sizeof out[0].text, "keep");
            amb_move_text(&s->pos, s->proposal, &b);
            snprintf(out[0].label, sizeof out[0].label, "keep %s", sb_str(&b));
            k = 1;
        }
        sb_free(&b);
        return k;
    }
    ActionList legal = ACTIONLIST_INIT;
    Move list[AMB_MAX_MOVES];
    amb_legal(g, st, seat, &legal);
    const int n = amb_moves(&s->pos, list);
    for (int i = 0; i < n && k < max && !legal.failed; i++) {
        const int to = MOVE_TO(list[i]);
        int named = 0;
        for (int j = 0; j < legal.n && !named; j++)
            named = (int)legal.v[j].code == to;
        if (!named)
            continue; /* not a square the seat may name now (AMBI-5, AMBI-6) */
        InputForm *f = &out[k];
        char from[3], sq[3];
        const int fig = MOVE_PROMO_FIG(list[i]);
        memset(f, 0, sizeof *f);
        f->kind = ACT_MOVE;
        f->from = sq_coord(MOVE_FROM(list[i]));
        f->to = sq_coord(to);
        f->figure = fig;
        snprintf(f->text, sizeof f->text, "%s%s", chess_square_name(MOVE_FROM(list[i]), from),
                 chess_square_name(to, sq));
        if (fig != FIG_NONE) {
            const size_t len = strlen(f->text);
            f->text[len] = (char)(figure_letter(fig) - 'A' + 'a');
            f->text[len + 1] = '\0';
        }
        Action a;
        Error e;
        if (amb_parse(g, st, &legal, f->text, &a, &e))
            continue;
        sb_reset(&b);
        amb_format(g, st, &a, FMT_RECORD, &b);
        snprintf(f->label, sizeof f->label, "%s", sb_str(&b));
        k++;
    }
    al_free(&legal);
    sb_free(&b);
    return k;
}

/* ---- Help ------------------------------------------------------------------ */

/* What a player types, for `help` (printed "  usage  doc (e.g. example)" in
 * 80 columns).  tests/test_ambigus.c plays every example in a position
 * where it applies, with the parameters it names. */
static const VariantHelp AMBIGUS_HELP[] = {
    {"SQUARE", "name a square: your opponent picks which piece goes", "e4"},
    {"choose PIECE", "when asked, which of the mover's pieces goes", "choose Nb1"},
    {"choose PIECE=F", "a promoting pawn and its figure (AMBI-3)", "choose Pe7=N"},
    {"MOVE", "with clock=on: a whole move proposes its piece", "Nf3"},
    {"keep", "with clock=on: the opponent takes the proposal", "keep"},
    {NULL, NULL, NULL},
};

/* game:phase() of house-rule scripts: naming a square (AMBI-1) or the
 * opponent choosing the piece (AMBI-2, AMBI-3). */
static const char *amb_phase(const Game *g, const void *st)
{
    (void)g;
    return ((const AmbState *)st)->phase == AP_CHOOSE ? "choose" : "name";
}

/* The rules as data (core/variant.h RuleInfo; issue 22, docs/TEACHING.md). */
static const RuleInfo AMBIGUS_RULES[] = {
    {"AMBI-1", AREA_TURNS, AREA_MOVES, "ORTH-2", "",
     "the side to move names a square, not a move",
     NULL},
    {"AMBI-2", AREA_TURNS, -1, "", "",
     "the opponent chooses which piece goes to the named square",
     NULL},
    {"AMBI-3", AREA_MOVES, -1, "ORTH-4", "",
     "the opponent chooses the promotion figure",
     NULL},
    {"AMBI-4", AREA_CHECK, AREA_END, "ORTH-5 ORTH-6 ORTH-7", "ORTH-3",
     "no check, no castling: naming the enemy King's square wins",
     "e2e4 f7f6 d1h5"},
    {"AMBI-5", AREA_END, AREA_DRAWS, "ORTH-7", "",
     "a side with no square to name loses: no stalemate draw",
     "e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 b8c8 f7g6 c8e6"},
    {"AMBI-6", AREA_END, -1, "", "",
     "the mate rule (a parameter, off by default)",
     "f2f3 e7e5 g2g4 d8h4"},
    {"AMBI-7", AREA_TURNS, -1, "", "",
     "the clock procedure: a whole move proposes a piece",
     NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData AMBIGUS_RULE_DATA = {AMBIGUS_RULES, "clock=on", NULL, "keep", 0};

const VariantOps ambigus_variant = {
    .version = 8,
    .name = "ambigus",
    .title = "Échecs ambigus",
    .summary = "you name the square, your opponent chooses which of your pieces goes "
               "there; no check, take the King (AMBI-1..7)",
    .params = AMBIGUS_PARAMS,
    .nparams = AM__COUNT,
    .min_sides = 2,
    .max_sides = 2,
    .default_sides = 2,
    .state_size = sizeof(AmbState),
    .init = amb_init,
    .write_position = amb_write_position,
    .to_act = amb_to_act,
    .side_to_move = amb_side_to_move,
    .legal = amb_legal,
    .apply = amb_apply,
    .parse = amb_parse,
    .format = amb_format,
    .hash = amb_hash_op,
    .status = amb_status,
    .claim = amb_claim,
    .view = amb_view,
    .perft = amb_perft,
    .hidden_info = 0, /* every seat sees everything */
    .help = AMBIGUS_HELP,
    .rules = ambigus_rules,
    .edit = amb_edit,
    .phase = amb_phase,
    .inputs = amb_inputs,
    .why = amb_why,
    .rule_data = &AMBIGUS_RULE_DATA,
};
