/*
 * orthodox.c -- orthodox chess as a variant module: the glue between the
 * core's VariantOps contract and the bitboard engine (chess.h) and the
 * notation (notation.h).  Rules ORTH-1 .. ORTH-9 of docs/RULES.md.
 *
 * Invariant: the state blob is plain data (a Position and the last move):
 * the core copies it with memcpy, and the Position in it is always
 * consistent (chess_from_fen at init, chess_make of a legal move after).
 * Repetition-based draws read the game's history through
 * game_repetitions(); everything else comes from the blob alone.
 */
#include <stdio.h>
#include <string.h>

#include "orthodox.h"
#include "chess.h"
#include "notation.h"
#include "edit.h"
#include "bitboard.h"
#include "../../core/game.h"

typedef struct OrthodoxState {
    Position pos;
    Move last;      /* the last move played, for views */
    uint8_t has_last;
} OrthodoxState;

/* Parameter indices, in table order. */
enum {
    P_THREEFOLD,
    P_FIFTY,
    P_FIVEFOLD,
    P_SEVENTY_FIVE,
    P_INSUFFICIENT,
    P_CASTLING,
    P__COUNT
};

static const ParamDef ORTHODOX_PARAMS[P__COUNT] = {
    [P_THREEFOLD] = {.name = "threefold", .type = PARAM_BOOL, .def = 1,
                     .rule = "ORTH-9",
                     .doc = "the player to move may claim a draw when the "
                            "position has occurred three times"},
    [P_FIFTY] = {.name = "fifty_move", .type = PARAM_BOOL, .def = 1,
                 .rule = "ORTH-9",
                 .doc = "the player to move may claim a draw after 50 moves "
                        "each without a capture or a pawn move"},
    [P_FIVEFOLD] = {.name = "fivefold", .type = PARAM_BOOL, .def = 1,
                    .rule = "ORTH-9",
                    .doc = "the game is drawn at once when the position has "
                           "occurred five times"},
    [P_SEVENTY_FIVE] = {.name = "seventy_five_move", .type = PARAM_BOOL,
                        .def = 1, .rule = "ORTH-9",
                        .doc = "the game is drawn at once after 75 moves each "
                               "without a capture or a pawn move (unless the "
                               "last one mates)"},
    [P_INSUFFICIENT] = {.name = "insufficient_material", .type = PARAM_BOOL,
                        .def = 1, .rule = "ORTH-9",
                        .doc = "the game is drawn at once when no mate is "
                               "possible: K v K, K+minor v K, K+B v K+B with "
                               "bishops on one colour"},
    [P_CASTLING] = {.name = "castling", .type = PARAM_BOOL, .def = 1,
                    .rule = "ORTH-5",
                    .doc = "castling is allowed (off: every castling right "
                           "is dropped at the start)"},
};

static const char *const SIDE_NAMES[2] = {"white", "black"};

static const OrthodoxState *cstate(const void *st) { return st; }

static Coord sq_coord(int sq) { return coord_make(sq & 7, sq >> 3); }

/* ---- Setup and read access --------------------------------------------- */

static int orth_init(Game *g, void *st, const char *position, Error *e)
{
    OrthodoxState *s = st;
    memset(s, 0, sizeof *s);
    if (!position)
        chess_startpos(&s->pos);
    else if (chess_from_fen(&s->pos, position, e))
        return -1;
    if (!game_param(g, P_CASTLING) && s->pos.castling) {
        s->pos.castling = 0; /* a house rule: no castling at all */
        s->pos.key = chess_compute_key(&s->pos);
    }
    return 0;
}

static void orth_write_position(const Game *g, const void *st, StrBuf *out)
{
    (void)g;
    chess_to_fen(&cstate(st)->pos, out);
}

static int orth_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return cstate(st)->pos.side;
}

/* The seat of the side to move, -1 when it has no move (ORTH-7).  The
 * draws that depend on parameters or history are in orth_status, which the
 * core consults first; keeping them out of here keeps the generic perft
 * equal to chess_perft. */
static int orth_to_act(const Game *g, const void *st)
{
    (void)g;
    /* whether there is a move, not the moves: the core asks every ply */
    if (!chess_has_legal_move(&cstate(st)->pos, NULL))
        return -1;
    return cstate(st)->pos.side;
}

/* ---- Actions ------------------------------------------------------------ */

static Action move_action(int seat, Move m)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = ACT_MOVE;
    a.seat = (uint8_t)seat;
    a.figure = (uint8_t)MOVE_PROMO_FIG(m);
    a.from = sq_coord(MOVE_FROM(m));
    a.to = sq_coord(MOVE_TO(m));
    a.code = m;
    return a;
}

static void orth_legal(const Game *g, const void *st, int seat,
                       ActionList *out)
{
    const Position *p = &cstate(st)->pos;
    Move moves[CH_MAX_MOVES];
    (void)g;
    if (seat != p->side)
        return;
    int n = chess_legal_moves(p, moves);
    Action *a = al_extend(out, n);
    for (int i = 0; a && i < n; i++) { /* move_action, in place */
        a[i].kind = ACT_MOVE;
        a[i].seat = (uint8_t)seat;
        a[i].figure = (uint8_t)MOVE_PROMO_FIG(moves[i]);
        a[i].from = sq_coord(MOVE_FROM(moves[i]));
        a[i].to = sq_coord(MOVE_TO(moves[i]));
        a[i].code = moves[i];
    }
}

/* Is a one of the legal moves of p (checked field by field, so an action
 * forged with a wrong square or figure is refused)? */
static int is_legal_action(const Position *p, const Action *a)
{
    Move moves[CH_MAX_MOVES];
    if (a->kind != ACT_MOVE || a->seat != p->side || a->code > 0xFFFF)
        return 0;
    int n = chess_legal_moves(p, moves);
    for (int i = 0; i < n; i++) {
        if (moves[i] != a->code)
            continue;
        Action want = move_action(p->side, moves[i]);
        return action_eq(&want, a);
    }
    return 0;
}

static int orth_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    OrthodoxState *s = st;
    Move m = (Move)a->code;
    char san[NOTATION_MAX];
    int mover = s->pos.side;
    (void)g;

    if (!is_legal_action(&s->pos, a))
        return -1;
    if (ev) /* the text needs the position before the move */
        notation_san_buf(&s->pos, m, san);
    chess_make(&s->pos, m);
    s->last = m;
    s->has_last = 1;
    /* One message: the SAN's + or # says check or mate, and the core's
     * status line says who is in check (Status.in_check). */
    if (ev)
        ev_emit(ev, SEATS_ALL, "%s plays %s", SIDE_NAMES[mover], san);
    return 0;
}

static uint32_t draw_below(void *rng, uint32_t n)
{
    return rng_below(rng, n);
}

static int orth_legal_draw(const Game *g, const void *st, int seat, Rng *rng, Action *out)
{
    const Position *p = &cstate(st)->pos;
    Move m;
    (void)g;
    if (seat != p->side)
        return 0;
    int n = chess_legal_draw(p, draw_below, rng, &m);
    if (n > 0)
        *out = move_action(seat, m);
    return n;
}

static void orth_apply_listed(const Game *g, void *st, const Action *a)
{
    OrthodoxState *s = st;
    (void)g;
    chess_make(&s->pos, (Move)a->code);
    s->last = (Move)a->code;
    s->has_last = 1;
}

static int orth_parse(const Game *g, const void *st, const ActionList *legal,
                      const char *text, Action *out, Error *e)
{
    Move moves[CH_MAX_MOVES], m;
    int n = 0;
    (void)g;
    for (int i = 0; i < legal->n && n < CH_MAX_MOVES; i++)
        if (legal->v[i].kind == ACT_MOVE)
            moves[n++] = (Move)legal->v[i].code;
    if (notation_parse(&cstate(st)->pos, moves, n, text, &m, e))
        return -1;
    for (int i = 0; i < legal->n; i++)
        if (legal->v[i].kind == ACT_MOVE && legal->v[i].code == m) {
            *out = legal->v[i];
            return 0;
        }
    return err_set(e, "%s is not a legal move here", text);
}

/* ---- Why (issue 22) ----------------------------------------------------- */

/* What a figure's move is, by its rule (ORTH-2). */
static const char *move_clause(int fig)
{
    switch (fig) {
    case FIG_PAWN: return "a pawn steps one square forward";
    case FIG_KNIGHT: return "a knight jumps two squares one way and one the other";
    case FIG_BISHOP: return "a bishop slides along its diagonals until a piece stops it";
    case FIG_ROOK: return "a rook slides along its file or rank until a piece stops it";
    case FIG_QUEEN: return "a queen slides along its lines and diagonals until a piece stops it";
    default: return "the king steps one square";
    }
}

/* The rule a refusal of orthodox chess names by its words; the end of the
 * game first (its reason may say "checkmate"). */
static const WhyWords ORTH_OVER[] = {
    {"checkmate", "ORTH-7"}, {"stalemate", "ORTH-7"}, {"resigned", "ORTH-8"},
    {"agreement", "ORTH-8"}, {"", "ORTH-9"},          {NULL, NULL}};
static const WhyWords ORTH_REFUSALS[] = {
    {"castle", "ORTH-5"},          {"check", "ORTH-6"},
    {"promot", "ORTH-4"},          {"en passant", "ORTH-3"},
    {"turn to act", "ORTH-1"},     {"'s move", "ORTH-1"},
    {"claimed", "ORTH-9"},         {"draw", "ORTH-8"},
    {"resign", "ORTH-8"},          {"move to", "ORTH-2"},
    {"blocked", "ORTH-2"},         {"capture on", "ORTH-2"},
    {"has no", "ORTH-2"},          {"no piece on", "ORTH-2"},
    {"not a legal move", "ORTH-2"}, {NULL, NULL}};

static int orth_why(const Game *g, const void *st, int seat, const Action *a,
                    const char *refusal, WhyRule *out)
{
    const Position *p = &cstate(st)->pos;
    char sq[3], on[3];
    (void)g;
    (void)seat;
    if (!a) {
        if (!strncmp(refusal, "the game is over", 16))
            return why_words(refusal, ORTH_OVER, out);
        return why_words(refusal, ORTH_REFUSALS, out);
    }
    if (a->kind != ACT_MOVE)
        return -1; /* the meta actions: the core's ORTH-8, ORTH-9 */
    Move m = (Move)a->code;
    int from = MOVE_FROM(m), to = MOVE_TO(m), fig = CH_FIG(p->board[from]);
    int taken = p->board[to] ? CH_FIG(p->board[to]) : FIG_NONE;
    chess_square_name(to, sq);
    switch (MOVE_KIND(m)) {
    case MK_CASTLE:
        return why_set(out, "ORTH-5", "castling: king and rook have never moved, the "
                       "squares between them are empty and the king is not in check "
                       "nor crosses an attacked square");
    case MK_EP:
        chess_square_name(CH_SQ(to & 7, from >> 3), on);
        return why_set(out, "ORTH-3", "en passant: the pawn on %s has just stepped two "
                       "squares and is taken as if it had stepped one", on);
    case MK_DOUBLE:
        return why_set(out, "ORTH-2", "a pawn steps two squares from its start rank when "
                       "both squares are empty");
    default:
        break;
    }
    if (MOVE_IS_PROMO(m))
        return why_set(out, "ORTH-2 ORTH-4", "a pawn %s %s and, reaching the last rank, "
                       "becomes a %s", taken ? "captures diagonally on" : "steps to", sq,
                       figure_name(MOVE_PROMO_FIG(m)));
    if (fig == FIG_PAWN && taken)
        return why_set(out, "ORTH-2", "a pawn captures one square diagonally forward "
                       "(the %s on %s)", figure_name(taken), sq);
    if (taken)
        return why_set(out, "ORTH-2", "%s, and takes the %s on %s", move_clause(fig),
                       figure_name(taken), sq);
    return why_set(out, "ORTH-2", "%s", move_clause(fig));
}

static void orth_format(const Game *g, const void *st, const Action *a,
                        int style, StrBuf *out)
{
    const Position *p = &cstate(st)->pos;
    (void)g;
    if (a->kind != ACT_MOVE) {
        sb_puts(out, action_kind_name(a->kind));
        return;
    }
    /* SAN needs a legal move of this position (disambiguation, check);
     * anything else is still written, in UCI. */
    if (style == FMT_RECORD && is_legal_action(p, a))
        notation_san(p, (Move)a->code, out);
    else
        notation_uci((Move)a->code, out);
}

/* ---- Results ------------------------------------------------------------ */

static uint64_t orth_hash(const Game *g, const void *st)
{
    (void)g;
    return cstate(st)->pos.key;
}

static void set_result(Status *out, unsigned winners, int code, const char *reason)
{
    out->over = 1;
    out->winners = winners;
    out->code = code;
    str_copy(out->reason, sizeof out->reason, reason);
}

static void orth_status(const Game *g, const void *st, Status *out)
{
    const Position *p = &cstate(st)->pos;
    int check;
    int moves = chess_has_legal_move(p, &check);

    out->in_check = check ? 1u << p->side : 0;
    if (!moves) { /* ORTH-7 */
        if (check)
            set_result(out, 1u << (p->side ^ 1), END_CHECKMATE, "checkmate");
        else
            set_result(out, 0, END_STALEMATE, "stalemate");
        return;
    }
    /* ORTH-9 automatic draws; a mate on the 150th ply was caught above. */
    if (game_param(g, P_FIVEFOLD) && game_repetitions(g) >= 5)
        set_result(out, 0, END_FIVEFOLD, "fivefold repetition");
    else if (game_param(g, P_SEVENTY_FIVE) && p->halfmove >= 150)
        set_result(out, 0, END_SEVENTY_FIVE_MOVES, "seventy-five-move rule");
    else if (game_param(g, P_INSUFFICIENT) && chess_insufficient_material(p))
        set_result(out, 0, END_INSUFFICIENT_MATERIAL, "insufficient material");
}

/* ORTH-9: draws the player to move may claim. */
static int orth_claim(const Game *g, const void *st, char *why, size_t n)
{
    if (game_param(g, P_THREEFOLD) && game_repetitions(g) >= 3) {
        str_copy(why, n, "threefold repetition");
        return END_THREEFOLD;
    }
    if (game_param(g, P_FIFTY) && cstate(st)->pos.halfmove >= 100) {
        str_copy(why, n, "fifty-move rule");
        return END_FIFTY_MOVES;
    }
    return 0;
}

/* ---- Views and perft ---------------------------------------------------- */

/* The record text of the last move, from the game's history (a meta action
 * such as a draw offer may have come after it). */
static void last_move_text(const Game *g, View *v)
{
    for (int i = game_history_len(g) - 1; i >= 0; i--) {
        const HistoryEntry *h = game_history(g, i);
        if (h->action.kind == ACT_MOVE) {
            str_copy(v->last_text, sizeof v->last_text, h->text);
            return;
        }
    }
}

static void orth_view(const Game *g, const void *st, int seat, View *v)
{
    const OrthodoxState *s = cstate(st);
    const Position *p = &s->pos;
    StrBuf fen = STRBUF_INIT;

    v->side_to_move = p->side;
    for (int sq = 0; sq < 64 && v->npieces < MAX_VIEW_PIECES; sq++) {
        int pc = p->board[sq];
        if (!pc)
            continue;
        ViewPiece *vp = &v->pieces[v->npieces++];
        vp->at = sq_coord(sq); /* orthodox chess hides nothing */
        vp->side = (int8_t)CH_COLOR(pc);
        vp->figure = (uint8_t)CH_FIG(pc);
    }
    if (v->brief) /* look-ahead: the pieces are all it needs */
        return;
    if (s->has_last) {
        v->has_last = 1;
        v->last_from = sq_coord(MOVE_FROM(s->last));
        v->last_to = sq_coord(MOVE_TO(s->last));
        last_move_text(g, v);
    }
    chess_to_fen(p, &fen);
    str_copy(v->position, sizeof v->position, sb_str(&fen));
    sb_free(&fen);
    /* No info line for check: the status line drawn from Status.in_check
     * says it already. */
    if (v->seat_to_act >= 0 && seat == v->seat_to_act)
        snprintf(v->question, sizeof v->question, "%s to move",
                 SIDE_NAMES[p->side]);
}

/* ---- House-rule edits ---------------------------------------------------- */

static const ChessEditRules ORTH_EDIT_RULES = {"ORTH-1", "ORTH-4"};

/* Is the side not to move attacked (ORTH-6 forbids that position)? */
static int refuse_check(const Position *p, const char *what, Error *e)
{
    const int them = p->side ^ 1;
    const Bitboard k = p->by_fig[FIG_KING] & p->by_color[them];
    if (!chess_attackers(p, bb_lsb(k), p->side, p->by_color[0] | p->by_color[1]))
        return 0;
    return err_set(e, "cannot %s: %s would be in check with %s to move, and the side not "
                   "to move may not be in check (ORTH-6)", what, SIDE_NAMES[them],
                   SIDE_NAMES[p->side]);
}

/* A house rule's edit (core/variant.h): the board's own tests, ORTH-6,
 * then the FEN reader, so the blob is exactly what it would build for
 * the new position (bitboards, key, en passant, castling); the counters
 * and the last move stay. */
static int orth_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e)
{
    OrthodoxState *s = st;
    Position p = s->pos;
    StrBuf said = STRBUF_INIT, what = STRBUF_INIT, fen = STRBUF_INIT;
    Error why;
    int rc = -1;
    (void)g;
    if (chess_edit_board(&p, ed, &ORTH_EDIT_RULES, &said, &what, e) ||
        refuse_check(&p, sb_str(&what), e))
        goto done;
    chess_edit_fen(&p, &fen);
    if (sb_failed(&fen) || sb_failed(&said) || sb_failed(&what)) {
        err_set(e, "out of memory");
        goto done;
    }
    if (chess_from_fen(&s->pos, sb_str(&fen), &why)) {
        err_set(e, "cannot %s: the position would be impossible: %s", sb_str(&what),
                why.msg);
        goto done;
    }
    s->pos.halfmove = p.halfmove;
    s->pos.fullmove = p.fullmove;
    ev_emit(ev, SEATS_ALL, "%s", sb_str(&said));
    rc = 0;
done:
    sb_free(&said);
    sb_free(&what);
    sb_free(&fen);
    return rc;
}

/* ---- Help ---------------------------------------------------------------- */

/* What a player types, for `help` (printed "  usage  doc (e.g. example)" in
 * 80 columns).  tests/test_orthodox.c plays every example in a
 * position where it applies. */
static const VariantHelp ORTHODOX_HELP[] = {
    {"SAN move", "the figure K Q R B N (none for a pawn), the square", "Nf3"},
    {"SAN capture", "x before the square; a pawn gives its file", "exd5"},
    {"O-O, O-O-O", "castle on the king's side, on the queen's side", "O-O"},
    {"promotion", "the pawn's move, = and the figure Q R B N", "e8=Q"},
    {"UCI move", "from-square, to-square (+ q r b n to promote)", "g1f3"},
    {NULL, NULL, NULL},
};

static uint64_t orth_perft(const Game *g, const void *st, int depth)
{
    (void)g;
    return chess_perft(&cstate(st)->pos, depth);
}

/* The rules as data (core/variant.h RuleInfo; issue 22, docs/TEACHING.md). */
static const RuleInfo ORTHODOX_RULES[] = {
    {"ORTH-1", AREA_BOARD, AREA_TURNS, NULL, NULL,
     "eight by eight squares, the usual start, White moves first",
     NULL},
    {"ORTH-2", AREA_MOVES, AREA_CAPTURES, NULL, NULL,
     "each figure moves its own way; a capture removes the piece taken",
     NULL},
    {"ORTH-3", AREA_MOVES, AREA_CAPTURES, NULL, NULL,
     "en passant",
     NULL},
    {"ORTH-4", AREA_MOVES, -1, NULL, NULL,
     "a pawn on the last rank promotes, its player's choice",
     NULL},
    {"ORTH-5", AREA_MOVES, AREA_CHECK, NULL, NULL,
     "castling, never out of, through or into check",
     NULL},
    {"ORTH-6", AREA_CHECK, -1, NULL, NULL,
     "no move may leave the own King attacked",
     NULL},
    {"ORTH-7", AREA_END, AREA_DRAWS, NULL, NULL,
     "checkmate wins; stalemate is a draw",
     NULL},
    {"ORTH-8", AREA_END, AREA_DRAWS, NULL, NULL,
     "resignation and agreed draws",
     NULL},
    {"ORTH-9", AREA_DRAWS, -1, NULL, NULL,
     "repetition, fifty moves, dead positions",
     NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData ORTHODOX_RULE_DATA = {ORTHODOX_RULES, NULL, NULL, NULL, 0};

const VariantOps orthodox_variant = {
    .version = 8,
    .name = "orthodox",
    .title = "Orthodox chess",
    .summary = "the standard game: check, mate, castling, en passant, "
               "draw rules (ORTH-1..9)",
    .params = ORTHODOX_PARAMS,
    .nparams = P__COUNT,
    .min_sides = 2,
    .max_sides = 2,
    .default_sides = 2,
    .state_size = sizeof(OrthodoxState),
    .init = orth_init,
    .write_position = orth_write_position,
    .to_act = orth_to_act,
    .side_to_move = orth_side_to_move,
    .legal = orth_legal,
    .apply = orth_apply,
    .parse = orth_parse,
    .format = orth_format,
    .hash = orth_hash,
    .status = orth_status,
    .claim = orth_claim,
    .view = orth_view,
    .perft = orth_perft,
    .hidden_info = 0, /* orthodox chess hides nothing */
    .help = ORTHODOX_HELP,
    .rules = orthodox_rules,
    .edit = orth_edit,
    .apply_listed = orth_apply_listed,
    .legal_draw = orth_legal_draw,
    .why = orth_why,
    .rule_data = &ORTHODOX_RULE_DATA,
};
