/*
 * masques.c -- Les Échecs Masqués as a variant module: the parameters, the
 * ops table, who acts, the claims and the perft over the complete action
 * tree (every decision of every seat is a ply).
 *
 * Invariant: the perft here walks exactly what mq_legal lists and applies
 * it with the same code as mq_apply (mq_apply_trusted), so it always
 * equals the core's generic perft.
 */
#include <string.h>

#include "masques.h"
#include "mq.h"

static const char *const MASK_MATE_CHOICES[] = {"public", "truth", NULL};

static const ParamDef MASQUES_PARAMS[MP__COUNT] = {
    [MP_REVEAL_ALONE] = {.name = "reveal_alone", .type = PARAM_BOOL, .def = 0,
                         .rule = "MASQ-5",
                         .doc = "a side may reveal a masked piece without moving it, "
                                "and that is its turn"},
    [MP_MASK_MATE] = {.name = "mask_mate", .type = PARAM_ENUM, .def = MASK_MATE_PUBLIC,
                      .choices = MASK_MATE_CHOICES, .rule = "MASQ-7",
                      .doc = "a mask mate needs the target unable to escape: judged "
                             "on public facts (masked pieces as pawns) or on the "
                             "true figures"},
    [MP_GIVEUP_REVEALED] = {.name = "giveup_revealed", .type = PARAM_BOOL, .def = 1,
                            .rule = "MASQ-10",
                            .doc = "pieces given up after a called battle are revealed "
                                   "as they leave"},
    [MP_ALLIN] = {.name = "allin", .type = PARAM_INT, .def = 0, .min = 0, .max = 200,
                  .rule = "MASQ-11",
                  .doc = "the all-in bid; 0: the non-king value of a full army plus "
                         "one (41 with the usual values)"},
    [MP_MASKED_KING_CHECK] = {.name = "masked_king_check", .type = PARAM_BOOL,
                              .def = 0, .rule = "MASQ-14",
                              .doc = "a masked King is in check like a revealed one "
                                     "(no move may leave it attacked)"},
    [MP_THREEFOLD] = {.name = "threefold", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                      .doc = "the player to move may claim a draw when the position "
                             "has occurred three times"},
    [MP_FIFTY] = {.name = "fifty_move", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                  .doc = "the player to move may claim a draw after 50 moves each "
                         "without a battle, a capture or a pawn-like move"},
    [MP_FIVEFOLD] = {.name = "fivefold", .type = PARAM_BOOL, .def = 1, .rule = "ORTH-9",
                     .doc = "the game is drawn at once when the position has "
                            "occurred five times"},
    [MP_SEVENTY_FIVE] = {.name = "seventy_five_move", .type = PARAM_BOOL, .def = 1,
                         .rule = "ORTH-9",
                         .doc = "the game is drawn at once after 75 moves each without "
                                "a battle, a capture or a pawn-like move"},
    [MP_SHOW_AT_END] = {.name = "show_at_end", .type = PARAM_BOOL, .def = 0,
                        .rule = "MASQ-16",
                        .doc = "both players agree, when the game is made, to show their "
                               "masked pieces (and those removed without reveal) once it "
                               "is over"},
};

static int mq_to_act(const Game *g, const void *st)
{
    const MqState *s = st;
    if (s->phase == PH_OVER || (s->phase == PH_PLAY && !mq_has_move(g, s)))
        return -1;
    return mq_decider(s);
}

static int mq_side_to_move(const Game *g, const void *st)
{
    const MqState *s = st;
    (void)g;
    return s->phase == PH_SETUP ? mq_decider(s) : s->side;
}

static uint64_t mq_hash_op(const Game *g, const void *st)
{
    (void)g;
    return mq_hash(st);
}

/* ORTH-9 claims, between turns only. */
static int mq_claim(const Game *g, const void *st, char *why, size_t n)
{
    const MqState *s = st;
    if (s->phase != PH_PLAY)
        return 0;
    if (game_param(g, MP_THREEFOLD) && game_repetitions(g) >= 3) {
        str_copy(why, n, "threefold repetition");
        return END_THREEFOLD;
    }
    if (game_param(g, MP_FIFTY) && s->halfmove >= 100) {
        str_copy(why, n, "fifty-move rule");
        return END_FIFTY_MOVES;
    }
    return 0;
}

static uint64_t perft_rec(const Game *g, const MqState *s, int depth)
{
    uint64_t total = 0;
    MqState child;
    if (s->phase == PH_OVER)
        return 0;
    if (s->phase == PH_PLAY) {
        MqMove moves[MQ_MAX_MOVES];
        int n = mq_gen_moves(g, s, s->side, GEN_FULL, moves);
        if (depth == 1)
            return (uint64_t)n;
        for (int i = 0; i < n; i++) {
            child = *s;
            mq_apply_trusted(g, &child, NULL, &moves[i], NULL);
            total += perft_rec(g, &child, depth - 1);
        }
        return total;
    }
    ActionList l = ACTIONLIST_INIT;
    mq_legal(g, s, mq_decider(s), &l);
    if (depth == 1) {
        total = (uint64_t)l.n;
    } else {
        for (int i = 0; i < l.n; i++) {
            child = *s;
            mq_apply_trusted(g, &child, &l.v[i], NULL, NULL);
            total += perft_rec(g, &child, depth - 1);
        }
    }
    al_free(&l);
    return total;
}

static uint64_t mq_perft(const Game *g, const void *st, int depth)
{
    return depth <= 0 ? 1 : perft_rec(g, st, depth);
}

/* May action a be taken back (docs/MASQUES.md, "Taking back")?  Setup
 * placements and a plain move teach the mover nothing and begin nothing
 * the opponent answers; everything else makes a figure known, answers or
 * begins an exchange, or (mask_mate=truth) may be followed by a choice
 * judged on the enemy's true figures. */
static int mq_undo_barrier(const Game *g, const Action *a)
{
    switch (a->kind) {
    case ACT_PLACE:
        return 0;
    case ACT_MOVE:
        return a->flags != 0 || game_param(g, MP_MASK_MATE) == MASK_MATE_TRUTH;
    default:
        return 1;
    }
}

/* game:phase() of house-rule scripts: the MqPhase by name. */
static const char *mq_phase(const Game *g, const void *st)
{
    static const char *const NAMES[] = {"setup", "play",   "announce", "answer",
                                        "battle", "bid", "giveup", "over"};
    const MqState *s = st;
    (void)g;
    return s->phase < sizeof NAMES / sizeof NAMES[0] ? NAMES[s->phase] : "play";
}

/* `help`: what a Masqués player types.  Printed as "  usage  doc (e.g.
 * example)": short enough for 80 columns. */
static const VariantHelp MASQUES_HELP[] = {
    {"place F SQ", "put a piece from hand on a home square", "place K e1"},
    {"arrange BACK/FRONT", "set up 16 pieces, a to h", "arrange RNBQKBNR/PPPPPPPP"},
    {"standard", "set up in the orthodox order", "standard"},
    {"random", "set up the pieces in hand at random", "random"},
    {"FROMTO", "move a piece (masked: like a pawn)", "e2e4"},
    {"reveal FROMTO", "reveal a masked piece and move it", "reveal g1f3"},
    {"reveal SQ=F", "reveal a last-rank Pawn and promote", "reveal e8=Q"},
    {"reveal SQ", "reveal alone (reveal_alone=on)", "reveal e2"},
    {"e1g1, O-O, O-O-O", "castle (reveals King and Rook)", "O-O"},
    {"announce check SQ", "announce a mask check", "announce check d5"},
    {"announce mate SQ", "announce a mask mate", "announce mate h8"},
    {"pass", "announce nothing", "pass"},
    {"reveal, keep", "answer a mask check", "keep"},
    {"reveal =F", "answer a mask mate on a last-rank Pawn", "reveal =Q"},
    {"reveal, concede", "answer a simple battle", "concede"},
    {"bid N", "bid N points (more than the table)", "bid 3"},
    {"call", "call the bid: both pieces are revealed", "call"},
    {"fold", "give up the battle and the piece", "fold"},
    {"give SQ SQ ...", "pay a lost battle with these pieces", "give d7 b7"},
    {NULL, NULL, NULL},
};

/* The rules as data (core/variant.h RuleInfo; issue 22, docs/TEACHING.md). */
static const RuleInfo MASQUES_RULES[] = {
    {"MASQ-1", AREA_BOARD, AREA_HIDDEN, "ORTH-1", "",
     "each side arranges its sixteen pieces masked on its home ranks, unseen",
     NULL},
    {"MASQ-2", AREA_MOVES, AREA_HIDDEN, "ORTH-2 ORTH-3", "",
     "a masked piece moves as a pawn of its side, whatever its figure",
     NULL},
    {"MASQ-3", AREA_MOVES, -1, "ORTH-4", "",
     "a masked piece on the last rank is stuck until revealed",
     NULL},
    {"MASQ-4", AREA_CAPTURES, -1, "", "ORTH-2",
     "a masked piece takes a revealed one as in chess and stays masked",
     NULL},
    {"MASQ-5", AREA_MOVES, AREA_HIDDEN, "", "",
     "reveal a masked piece and move it by its figure, as one action",
     NULL},
    {"MASQ-6", AREA_TURNS, AREA_HIDDEN, "", "",
     "a move that threatens a masked piece may announce a mask check",
     NULL},
    {"MASQ-7", AREA_END, -1, "", "",
     "mask mate: the threatened piece must reveal, a King so revealed loses",
     NULL},
    {"MASQ-8", AREA_CAPTURES, AREA_TURNS, "ORTH-2", "",
     "trying to take a masked piece starts a battle",
     NULL},
    {"MASQ-9", AREA_CAPTURES, -1, "", "",
     "simple battle: the defender reveals or not, the stronger figure wins",
     NULL},
    {"MASQ-10", AREA_CAPTURES, AREA_TURNS, "", "",
     "masked battle: both sides bid points, the loser pays in pieces",
     NULL},
    {"MASQ-11", AREA_END, -1, "", "",
     "all-in: a called bid at the threshold decides the game",
     NULL},
    {"MASQ-12", AREA_HIDDEN, -1, "", "",
     "a piece removed without reveal is never shown to the opponent",
     NULL},
    {"MASQ-13", AREA_END, -1, "", "",
     "a revealed defender attacking the attacker's revealed King wins",
     NULL},
    {"MASQ-14", AREA_CHECK, -1, "ORTH-6 ORTH-7", "",
     "check concerns a revealed King only: a masked King is never in check",
     "c2c4 c7c6 b2b4 g7g5 d2d4 e7e6 g2g4 e8e7 b4b5 e6e5 f2f3 e7e6 a2a3 c6b5 h2h3 e5e4 "
     "d4d5 e6e5 h1h2 e4e3 f3f4 e5f4 d1d2 d7d6 d2e3"},
    {"MASQ-15", AREA_MOVES, AREA_CHECK, "ORTH-5", "",
     "castling reveals King and Rook; a masked King may castle in check",
     NULL},
    {"MASQ-16", AREA_END, AREA_HIDDEN, "ORTH-7", "ORTH-8 ORTH-9",
     "a King taken, every piece revealed, all-in, mask mate also end it",
     NULL},
    {NULL, 0, 0, NULL, NULL, NULL, NULL},
};

static const VariantRuleData MASQUES_RULE_DATA = {MASQUES_RULES, NULL, "standard",
                                                  "pass|concede|bid 1|fold", 0};

const VariantOps masques_variant = {
    .version = 8,
    .name = "masques",
    .title = "Les Échecs Masqués",
    .summary = "every piece starts masked and moves like a pawn until revealed; "
               "battles, bids and mask checks (MASQ-1..16)",
    .params = MASQUES_PARAMS,
    .nparams = MP__COUNT,
    .min_sides = 2,
    .max_sides = 2,
    .default_sides = 2,
    .state_size = sizeof(MqState),
    .init = mq_init,
    .write_position = mq_write_position,
    .to_act = mq_to_act,
    .side_to_move = mq_side_to_move,
    .legal = mq_legal,
    .apply = mq_apply,
    .parse = mq_parse,
    .format = mq_format,
    .hash = mq_hash_op,
    .status = mq_status,
    .claim = mq_claim,
    .view = mq_view,
    .perft = mq_perft,
    .parse_seq = mq_parse_seq,
    .history_text = mq_history_text,
    .hidden_info = 1,
    .undo_barrier = mq_undo_barrier,
    .help = MASQUES_HELP,
    .rules = masques_rules,
    .edit = mq_edit,
    .phase = mq_phase,
    .known = mq_write_known,
    .sample = mq_sample,
    .why = mq_why,
    .rule_data = &MASQUES_RULE_DATA,
};
