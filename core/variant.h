/*
 * variant.h -- the contract between the core and a variant module.
 *
 * A variant is one const VariantOps table, filled with designated
 * initializers (variants/<name>/).  The core owns the turn loop, meta
 * actions (resign, draws), history, repetition, records, hooks and views'
 * delivery; the variant owns its rules.  Its whole position lives in a
 * plain state blob of `state_size` bytes: the core copies a game with
 * memcpy (undo, bots, perft) without knowing what is inside.  A blob must
 * therefore hold no pointers.
 *
 * Ops take `const Game *` for read access to the game's parameters, sides
 * and history; they never keep it.  A NULL optional op means "the core's
 * default".  New ops are only ever appended (see `version`).
 */
#ifndef CHESSVAR_VARIANT_H
#define CHESSVAR_VARIANT_H

#include <stddef.h>
#include <stdint.h>
#include "action.h"
#include "params.h"
#include "util.h"

typedef struct Game Game;
typedef struct Events Events;

/* ---- Status ---------------------------------------------------------- */
/* Why a game ended, for programs (docs/PROTOCOL.md, "reason_code"): one
 * code per rule that ends a game, set by whoever writes the reason text,
 * in the same statement, so the two cannot part.  end_code_name gives the
 * code's word; codes are only ever appended, never renumbered. */
typedef enum EndCode {
    END_NONE = 0,              /* the game goes on */
    /* the core: meta actions, claims, house rules */
    END_RESIGNATION,           /* "white resigned" (ORTH-8) */
    END_AGREEMENT,             /* "draw by agreement" (ORTH-8) */
    END_THREEFOLD,             /* threefold repetition (claimed; Tile: at once) */
    END_FIFTY_MOVES,           /* the fifty-move rule, claimed (ORTH-9) */
    END_HOUSE_RULE,            /* a house rule's game:finish */
    /* the position (the variants' status ops) */
    END_CHECKMATE,
    END_STALEMATE,
    END_FIVEFOLD,              /* fivefold repetition */
    END_SEVENTY_FIVE_MOVES,    /* the seventy-five-move rule */
    END_INSUFFICIENT_MATERIAL,
    END_KING_CAPTURED,         /* a King taken (Masqués MASQ-13, Ambigus AMBI-4) */
    END_MATE,                  /* Ambigus AMBI-6: every square loses the King */
    END_NO_SQUARE,             /* Ambigus AMBI-5: no square to name */
    END_CHECK_AFTER_REVEAL,    /* Masqués MASQ-13 */
    END_ALL_IN,                /* Masqués: an all-in won */
    END_MASK_MATE,             /* Masqués: a mask mate on the King */
    END_FULL_REVEAL,           /* Masqués MASQ-16: no King, every piece revealed */
    END_FULL_REVEAL_BOTH,      /* ... for both sides: a draw */
    END_LAST_SIDE_STANDING,    /* Échiqueté ECHQ-13 */
    END_MERGED_SIDE_EMPTY,     /* Échiqueté ECHQ-13: two seats, merged has no piece */
    END_MERGED_MATE,           /* Échiqueté ECHQ-13: merged_mate=win */
    END_DUO_MATE,              /* Échiqueté ECHQ-13: two seats, a mate, merged wins */
    END_DUO_MATE_DRAWN,        /* ... a mate without a merged attacker: a draw */
    END_PASS_ROUND,            /* a full round of passes (ECHQ-13, TILE-9) */
    END_LAST_KING,             /* Tile TILE-10: the last King on the table */
    END_CHECKS_GIVEN,          /* fairy PART-9: the n-th check given (three-check) */
    END_GOAL_REACHED,          /* fairy PART-9: a piece on the goal (KOTH, racing kings) */
    END_NO_PIECES,             /* fairy PART-9: a side without pieces (antichess, horde) */
    END_BARE_ROYAL,            /* fairy PART-9: a side's royal pieces alone */
    END__COUNT
} EndCode;

/* The code's word ("checkmate", "king_captured"), NULL for END_NONE and
 * anything out of range. */
const char *end_code_name(int code);

typedef struct Status {
    int over;            /* 0: the game goes on */
    unsigned winners;    /* mask of winning sides; 0 with over = draw */
    char reason[128];    /* "checkmate", "stalemate", "fivefold repetition" */
    unsigned in_check;   /* mask of sides whose King is in check now */
    int code;            /* EndCode: END_NONE while the game goes on, else
                            why it ended, set beside reason */
} Status;

/* ---- Views ------------------------------------------------------------ */
#define MAX_VIEW_PIECES 256 /* a 16x16 board full (issue 24) */
#define MAX_VIEW_HAND 64

enum ViewPieceFlags {
    VP_MASKED = 1 << 0, /* still masked (Masqués); figure may be FIG_HIDDEN */
    VP_MERGED = 1 << 1, /* a merged, two-coloured piece (Échiqueté) */
    VP_INERT  = 1 << 2, /* belongs to a side that is out (Échiqueté) */
    VP_TRAPPED = 1 << 3, /* cannot move (Tile) */
    VP_CHECK = 1 << 4    /* a King in check (Tile: several may be at once) */
};

typedef struct ViewPiece {
    Coord at;
    int8_t side;    /* owner side; -1 for none (merged) */
    uint8_t figure; /* Figure, FIG_HIDDEN if this seat may not know it */
    uint8_t flags;  /* ViewPieceFlags */
    uint8_t side2;  /* merged pieces: the second colour */
} ViewPiece;

/* Pieces in a side's hand, to be dropped (crazyhouse, issue 24): count
 * pieces of figure belonging to side. */
typedef struct ViewHand {
    int8_t side;
    uint8_t figure;
    uint16_t count;
} ViewHand;

/* What one seat may know, built by the variant from that seat's rights
 * (never by blanking fields of the full state).  Renderers (terminal,
 * JSON) take only a View, so they cannot leak what is not in it. */
typedef struct View {
    int seat;                 /* whose view */
    Geometry geo;             /* bounded board, or the unbounded plane */
    int nsides;
    int side_to_move;         /* whose turn it is (-1 none, and once over) */
    int seat_to_act;          /* who must decide now (-1: game over) */
    int npieces;
    ViewPiece pieces[MAX_VIEW_PIECES];
    int ncaptured;            /* pieces off the board, as this seat knows them */
    ViewPiece captured[MAX_VIEW_PIECES];
    int nhand;                /* pieces in hand, as this seat knows them */
    ViewHand hand[MAX_VIEW_HAND];
    int has_last;             /* the last move's squares, if visible */
    Coord last_from, last_to;
    char last_text[48];       /* the last action as this seat may read it */
    int has_draw_offer;       /* a draw offer stands (filled by the core;
                                 never once the game is over) */
    int draw_offer_seat;      /* ... made by this seat */
    /* Public facts, for programs (docs/PROTOCOL.md, "view"): what the
     * text view says in words.  The core fills phase, commands and the
     * default turn order. */
    char phase[16];           /* game:phase()'s word ("setup", "play", "over") */
    unsigned commands[MAX_SEATS]; /* mask of the sides each seat commands now */
    int norder;               /* the turn order: the core fills every side in
                                 its order; a variant with another order
                                 (Échiqueté's cycle) rewrites it */
    int8_t order[MAX_SIDES];  /* sides in the order they move */
    unsigned out;             /* sides out of the game (Échiqueté, Tile) */
    unsigned threatened;      /* sides whose King only trapped pieces
                                 threaten (Tile, TILE-7) */
    int has_scores;           /* scores counted (Tile, TILE-11) */
    int scores[MAX_SIDES];    /* ... per side still in the game */
    int brief;                /* built by game_view_brief (look-ahead): the
                                 variant may leave the texts below empty */
    char position[2048];      /* a position string, only if the seat may see all */
    char question[256];       /* what seat_to_act is asked, if this seat */
    char info[1024];          /* variant lines for this seat (bids, phase ...) */
    Status status;
    /* A house rule's schedule (issue 25, core/game.h GameTurn), filled by
     * the core: all 0 without one.  turn_moves - turn_made moves remain. */
    int turn_number;          /* the turn's number, 1 for the game's first */
    int turn_made;            /* moves made in it so far */
    int turn_moves;           /* moves it has as planned now */
    int turn_duck;            /* 1: the side to act places the duck first */
} View;

/* Append one line to v->info (a newline before it unless it is the first);
 * a line that would not fit is cut, and none is added once info is full. */
void view_info_line(View *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- Edits (house rules' reactions) ---------------------------------- */
enum EditKind {
    EDIT_REMOVE = 1, /* take the piece on `at` off the board */
    EDIT_ADD,        /* put a new piece on the empty square `at` */
    EDIT_CHANGE,     /* give the piece on `at` another figure (same owner) */
    EDIT_TURN        /* issue 25: `side` acts next (a schedule's extra move):
                        the variant's side to move becomes `side`; `at` is
                        (-1,-1) or an en passant target to keep; figure
                        FIG_DUCK: `side` first places the duck.  Refused
                        when the variant's invariants forbid it (orthodox:
                        the other King in check, ORTH-6) or its phase does */
};

typedef struct Edit {
    int kind;       /* EditKind */
    Coord at;
    int side;       /* EDIT_ADD: the owner side (Échiqueté: ES_MERGED, 2, for a
                       merged piece) */
    int figure;     /* EDIT_ADD, EDIT_CHANGE: the Figure (never FIG_HIDDEN) */
    int masked;     /* EDIT_ADD (Masqués): the piece enters masked */
} Edit;

/* ---- Other ways to type an action (issue 21) --------------------------- */
/* A text a seat may type now that stands for one of its play actions but
 * is not that action's own text (legal lists show one text per action),
 * with what a click on the board names, so a page can offer it: Échecs
 * ambigus under the clock procedure (AMBI-7) reads a whole move "g1f3" as
 * the naming of f3 proposing the knight, and "keep" as the choice of the
 * proposed piece. */
typedef struct InputForm {
    int kind;        /* ActionKind of the action it stands for */
    Coord from, to;  /* the squares a click names; (-1,-1): none */
    int figure;      /* FIG_NONE, or the figure it names (a promotion) */
    char text[24];   /* what to type: "g1f3", "keep" */
    char label[64];  /* what it says to a person: "Ng1f3", "keep Ng1f3" */
} InputForm;

/* ---- Text styles ------------------------------------------------------ */
enum { FMT_RECORD = 0, /* records and people: SAN for chess */
       FMT_MACHINE = 1 /* legal lists, perft divide: UCI for chess */ };

/* ---- A variant's own commands, for `help` ----------------------------- */
typedef struct VariantHelp {
    const char *usage;   /* "bid N" */
    const char *doc;     /* "raise the bid to N (higher than the bid on the table)" */
    const char *example; /* "bid 3" */
} VariantHelp;

/* ---- The rule behind an action (issue 22, `why`) ---------------------- */
typedef struct WhyRule {
    char ids[64];   /* rule ids, space-separated: "ORTH-3", "AMBI-1 AMBI-2" */
    char say[256];  /* a clause for people: "en passant"; may stay empty for
                       a refusal, whose own text says it */
} WhyRule;

/* One line of a variant's table for its refusals: the first line whose
 * word occurs in the refusal (a parse error, or the core's: not the seat's
 * turn, the game over) names the rule.  words is one phrase; ids as in
 * WhyRule.  A table ends with a line whose words is NULL. */
typedef struct WhyWords {
    const char *words;
    const char *ids;
} WhyWords;
/* Fill out->ids from the first line of t that refusal contains: 0, or -1
 * when none does. */
int why_words(const char *refusal, const WhyWords *t, WhyRule *out);
/* Fill out (ids and say) and return 0: for the variants' why op. */
int why_set(WhyRule *out, const char *ids, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- Rule data, for teaching (issue 22, `chessvar diff`) -------------- */
/* The areas a rule belongs to, in the order a card of differences lists
 * them (docs/TEACHING.md); rule_area_name gives each one's words ("board
 * and setup") and rule_area_word its one-word key ("board"), which house
 * rules' `changes` and the JSON use.  Only ever appended. */
typedef enum RuleArea {
    AREA_BOARD = 0,  /* board and setup */
    AREA_TURNS,      /* who moves and when */
    AREA_MOVES,      /* how pieces move */
    AREA_CAPTURES,   /* captures */
    AREA_CHECK,      /* check and the King */
    AREA_HIDDEN,     /* hidden information */
    AREA_END,        /* how the game ends */
    AREA_DRAWS,      /* draws */
    AREA__COUNT
} RuleArea;
const char *rule_area_name(int area);
const char *rule_area_word(int area);
/* The area whose word (or whose words) is s, or -1. */
int rule_area_find(const char *s);

/* One numbered rule of a variant (docs/RULES.md) as data: its id, its
 * area and, for a variant other than orthodox chess, the orthodox rules
 * it replaces and keeps (space-separated ids, "" for none) and what
 * changes, in one line.  A rule may touch a second area (area2, -1 for
 * none): MASQ-2 is about moves and about what is hidden. */
typedef struct RuleInfo {
    const char *id;        /* "MASQ-2" */
    int area;              /* RuleArea */
    int area2;             /* a second RuleArea, or -1 */
    const char *replaces;  /* orthodox ids it replaces ("ORTH-2"), "" none */
    const char *keeps;     /* orthodox ids it keeps as they are, "" none */
    const char *what;      /* "every piece moves as a pawn while masked" */
    /* Optional: a line of action texts from the start (space-separated,
     * each typed by the seat to act; Masqués after diff_setup) that leads
     * to a position where the rule shows: `chessvar diff` plays it in both
     * rule sets, as far as both accept it.  NULL: none. */
    const char *line;
} RuleInfo;

/* A variant's rules as data, and how `chessvar diff` lines its games up
 * with another rule set's (docs/TEACHING.md, "Positions where they part"). */
typedef struct VariantRuleData {
    const RuleInfo *rules; /* in docs/RULES.md's order, ended by id NULL */
    /* Optional: NAME=VALUE parameters (space-separated) under which the
     * variant reads the texts other rule sets type for the same moves,
     * without changing the game (Ambigus: clock=on, AMBI-7).  NULL: none. */
    const char *diff_params;
    /* Optional: the texts the seats type, in turn and in this order
     * ('|' between them, taken again from the first while the setup
     * lasts), to set up the position `chessvar diff` compares (Masqués:
     * "standard", the orthodox start; Tile: a placement).  NULL: none. */
    const char *diff_setup;
    /* Optional: the text a seat types to let a move the other rule set
     * plays at once stand, when this one asks it to decide (Ambigus:
     * "keep", AMBI-7).  NULL: none. */
    const char *diff_keep;
    /* 1 when the variant writes squares in a notation of its own (Tile's
     * x,y): its moves are matched with another rule set's by their squares,
     * and once diff_setup is played a rule set of an 8x8 board starts from
     * the same pieces laid on its board. */
    int diff_squares;
} VariantRuleData;

/* ---- The ops table ---------------------------------------------------- */
typedef struct VariantOps {
    int version;               /* 1; 2 with the fields after history_text; 3 with values;
                                  4 with edit and phase; 5 with known,
                                  sample, apply_listed and legal_draw;
                                  6 with inputs; 7 with why; 8 with rule_data;
                                  9 with prepare and unprepare */
    const char *name;          /* command-line name: "orthodox" */
    const char *title;         /* "Orthodox chess" */
    const char *summary;       /* one line for the menu */
    const ParamDef *params;    /* parameter table, nparams entries */
    int nparams;
    int min_sides, max_sides, default_sides;
    size_t state_size;         /* bytes of the state blob (no pointers) */

    /* Fill st from a position string (NULL: the variant's start position,
     * which may draw from game_rng(g)).  Malformed or impossible input:
     * -1 with a message naming the problem; st may then be garbage. */
    int (*init)(Game *g, void *st, const char *position, Error *e);
    /* Write the full-truth position string (FEN for orthodox). */
    void (*write_position)(const Game *g, const void *st, StrBuf *out);
    /* Optional: the board.  NULL: the orthodox 8x8 board. */
    Geometry (*geometry)(const Game *g, const void *st);
    /* Optional: a side's name.  NULL: "white" and "black". */
    const char *(*side_name)(const Game *g, int side);
    /* The seat that must act next in this state, or -1 if none can.  The
     * core asks `status` first, so this need not detect the end of the
     * game (and must not use the game's history: perft calls it on copies). */
    int (*to_act)(const Game *g, const void *st);
    /* The side whose turn it is (for views and records). */
    int (*side_to_move)(const Game *g, const void *st);
    /* Optional: the seat commanding side (default: seat == side), or -1
     * while no seat commands it (a side a seat may take over later). */
    int (*seat_of_side)(const Game *g, const void *st, int side);
    /* Append the play actions `seat` may take now (no meta actions: the
     * core adds those).  For the seat that must act this is the complete
     * list; other seats usually have none (a takeover is an exception). */
    void (*legal)(const Game *g, const void *st, int seat, ActionList *out);
    /* Apply a legal play action.  Messages for seats go to ev (may be NULL,
     * as in perft).  Returns 0, or -1 if the action is not legal here. */
    int (*apply)(const Game *g, void *st, const Action *a, Events *ev);
    /* Read a typed action (SAN, UCI, "bid 5" ...) of `seat`, matching it to
     * an entry of `legal` (the seat's legal list).  Otherwise -1 with a
     * helpful message ("e2e5: the pawn on e2 cannot go to e5"). */
    int (*parse)(const Game *g, const void *st, const ActionList *legal,
                 const char *text, Action *out, Error *e);
    /* Write an action of the current state in the given FMT_ style. */
    void (*format)(const Game *g, const void *st, const Action *a, int style,
                   StrBuf *out);
    /* Repetition key of the position (everything that makes positions
     * "the same" under the variant's draw rules). */
    uint64_t (*hash)(const Game *g, const void *st);
    /* Result so far.  May use game_repetitions(g) for automatic draws. */
    void (*status)(const Game *g, const void *st, Status *out);
    /* Optional: does a draw claim of the seat to act hold now?  Its
     * EndCode (END_THREEFOLD, END_FIFTY_MOVES: never 0) and a reason
     * ("threefold repetition"), or 0. NULL: claims never hold. */
    int (*claim)(const Game *g, const void *st, char *why, size_t n);
    /* Build what `seat` may know. The core has zeroed v and filled seat,
     * nsides, side_to_move, seat_to_act, status, geometry and the draw
     * offer already.  Seat -1 is nobody in particular: what every seat
     * may know (a shared screen, the end of a hot-seat game).  Once the
     * game is over, game_shown(g) says which seats chose to show what they
     * kept hidden. */
    void (*view)(const Game *g, const void *st, int seat, View *v);
    /* Optional fast perft of the play tree (bulk counting allowed); must
     * use the same generation and apply code as legal/apply. */
    uint64_t (*perft)(const Game *g, const void *st, int depth);
    /* Optional: may `seat` resign now? NULL: any seat still playing. */
    int (*may_resign)(const Game *g, const void *st, int seat);
    /* Optional: a text that stands for several actions of `seat` (a whole
     * arrangement).  1 with the actions in out (applied in order, all or
     * none), 0 if text is not such a sequence, -1 with e if it is one but
     * wrong. */
    int (*parse_seq)(const Game *g, const void *st, int seat, const char *text,
                     ActionList *out, Error *e);
    /* Optional: the history text of action a (recorded as `text`) as `seat`
     * may read it.  NULL: every seat may read every text. */
    void (*history_text)(const Game *g, const Action *a, const char *text,
                         int seat, StrBuf *out);

    /* ---- version 2 ---- */
    /* 1 when seats may know different things (hidden figures, secrets).
     * The core and the interfaces then refuse a seat's request for another
     * seat's view or legal list, restrict undo (game_undo_by) and ask every
     * seat's consent before a game in progress is saved (docs/RECORDS.md). */
    int hidden_info;
    /* Optional, with hidden_info: 1 when action a, once played, may not be
     * taken back because it made something known or began an exchange a
     * seat reacts to (a reveal, a battle's answer, a bid, an announcement).
     * NULL: every action is a barrier. */
    int (*undo_barrier)(const Game *g, const Action *a);
    /* Optional: the variant's own commands for `help`, ended by an entry
     * whose usage is NULL (placing, bidding, naming a square ...). */
    const VariantHelp *help;
    /* Optional: the rules as this program plays them, for players
     * (`chessvar rules VARIANT`): plain UTF-8 text, lines of at most 78
     * columns, each rule numbered as in docs/RULES.md (ORTH-1 ...).
     * `{NAME}` stands for the current value of parameter NAME; the core
     * expands it and marks a value that differs from the default. */
    const char *rules;
    /* Optional: how many seats (players) the game may have, when that is
     * not one per side (L'Échiqueté: 2 or 3 seats for its 3 sides; a side
     * may have no seat until one takes it over).  0: one seat per side. */
    int min_seats, max_seats, default_seats;

    /* ---- version 3 ---- */
    /* Optional: the default value table, indexed by Figure (Tile's own:
     * Q 12, R 5 ...).  NULL: P 1, N 3, B 3, R 5, Q 10, K 0. */
    const int *values;
    /* Optional: what a draw the core decides (agreement, a claim) adds to
     * its reason, e.g. Tile's scores (TILE-11): "scores: white 40, ...". */
    void (*draw_note)(const Game *g, const void *st, char *buf, size_t n);

    /* ---- version 4 ---- */
    /* Optional: change the position as a house rule's reaction asks
     * (core/game.h game_edit): remove, add or change a piece, keeping every
     * invariant of the variant (one King per side where required, Tile's
     * unity, Masqués' hidden figures hidden, Échiqueté's merged pieces
     * consistent, castling rights and en passant that still make sense).
     * Tell the seats what they may know through ev (never a figure a seat
     * may not see).  -1 with e naming the invariant when the change would
     * break one; st may then be garbage (the core edits a copy).  NULL:
     * the variant takes no edits. */
    int (*edit)(const Game *g, void *st, const Edit *ed, Events *ev, Error *e);
    /* Optional: the name of the phase of the game in st, one lower-case
     * word for house-rule scripts (game:phase(), docs/HOUSE-RULES.md):
     * "setup", "placement", "play", "battle" ...  NULL: always "play".
     * (Once the game is over the core says "over" without asking.) */
    const char *(*phase)(const Game *g, const void *st);

    /* ---- version 5 ---- */
    /* Optional, with hidden_info: the position as `seat` knows it, for the
     * search bot's sampling (core/lab/bot.h): the variant's position string
     * with every fact the seat may not know left open, in the variant's
     * own notation, and nothing else (twin games that differ only in what
     * the seat cannot know give the same text).  Empty when there is no
     * position to search (a setup under way, a seat without a side). */
    void (*known)(const Game *g, const void *st, int seat, StrBuf *out);
    /* Optional, with known: a full-truth position string that agrees with
     * `known` (what the seat knows stays as it is, what it does not know
     * drawn from rng among the possibilities the public facts leave), for
     * init to read.  0, or -1 with e when `known` cannot be completed.  It
     * reads the text alone, never a game. */
    int (*sample)(const char *known, Rng *rng, StrBuf *out, Error *e);
    /* Optional: apply an action taken from the legal list of this very
     * state (the core guarantees it: game_playout) without the checks
     * `apply` makes and without messages.  NULL: the core calls apply. */
    void (*apply_listed)(const Game *g, void *st, const Action *a);
    /* Optional: draw one of the play actions `legal` would list for seat,
     * without building the list: their number n, and *out the one at
     * index rng_below(rng, n) in legal's order (rng untouched when n is
     * 0).  For random playouts; the same games as legal + the same draw. */
    int (*legal_draw)(const Game *g, const void *st, int seat, Rng *rng, Action *out);

    /* ---- version 6 ---- */
    /* Optional (issue 21): the other texts `seat` may type now for its play
     * actions (InputForm), at most max of them into out; their number.
     * The core keeps those its parse reads as an action of the seat's
     * legal list (game_inputs).  NULL: none. */
    int (*inputs)(const Game *g, const void *st, int seat, InputForm *out, int max);

    /* ---- version 7 ---- */
    /* Optional (issue 22, `why`; core/why.c, game_why): the rule behind an action
     * of seat.  With a, an action of seat's legal list now (a meta action
     * too): the rules that make it legal, in out (ids, and a clause
     * "a pawn steps one square forward").  With a NULL: the rules that
     * refuse a text of seat's, whose refusal is `refusal` (the variant's
     * parse error, or the core's: not seat's turn, the game over, a draw
     * offer missing); say may stay empty.  0, or -1 when the variant names
     * no rule: a refusal that is no rule's (a garbled or ambiguous text),
     * a meta action left to the core (ORTH-8, ORTH-9).  Only what seat
     * may know.  NULL: the core names only the meta actions' rules. */
    int (*why)(const Game *g, const void *st, int seat, const Action *a,
               const char *refusal, WhyRule *out);

    /* ---- version 8 ---- */
    /* Optional: the variant's rules as data (ids, areas, what each changes
     * against orthodox chess), for `chessvar diff` (issue 22).  NULL: none
     * declared (the card says so). */
    const VariantRuleData *rule_data;

    /* ---- version 9 ---- */
    /* Optional (issue 24): a variant whose rules come from a rule-set
     * text (GameConfig.ruleset; the fairy variant's board, pieces, hands
     * and the King's role).  prepare reads the text (NULL: the variant's
     * default rules) into whatever the variant needs, once per game: the
     * core keeps it unchanged, shares it with the game's copies and gives
     * it to unprepare with the last of them; the ops read it with
     * game_variant_data(g).  NULL with e naming the problem on a bad text.
     * A variant without prepare refuses a rule-set text. */
    void *(*prepare)(const char *ruleset, Error *e);
    void (*unprepare)(void *data);
} VariantOps;

/* Messages to seats.  seat_mask bit i: seat i sees the text.  ev may be
 * NULL: nothing is recorded (perft, bots). */
#define SEATS_ALL 0xFFu
void ev_emit(Events *ev, unsigned seat_mask, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The registry of built-in variants, NULL-terminated. */
extern const VariantOps *const variant_registry[];
const VariantOps *variant_find(const char *name);

#endif
