/*
 * action.h -- the one currency of every game: an Action.
 *
 * Placing, moving, revealing, announcing, bidding, choosing, giving up
 * pieces, passing, resigning, draw offers and taking over a side are all
 * Actions.  An Action is a small plain struct: it can be copied, compared,
 * stored in a record (through its text form) and replayed.
 *
 * Invariant: the variant's `legal` op produces complete Actions; an Action
 * is legal exactly when action_eq() matches it to one of that list.
 */
#ifndef CHESSVAR_ACTION_H
#define CHESSVAR_ACTION_H

#include <stdint.h>
#include "util.h"

#define MAX_SIDES 6
#define MAX_SEATS 6

/* Figures shared by every variant (Tile, Masqués, Échiqueté all use the
 * orthodox set).  FIG_HIDDEN is what a view shows for a figure the seat may
 * not know. */
typedef enum Figure {
    FIG_NONE = 0,
    FIG_PAWN,
    FIG_KNIGHT,
    FIG_BISHOP,
    FIG_ROOK,
    FIG_QUEEN,
    FIG_KING,
    FIG_HIDDEN,
    FIG__COUNT
} Figure;

/* Lettered figures (issue 24): a rule set from parts (the fairy variant)
 * names its own pieces by letters; every letter A..Z other than the six
 * orthodox ones is a figure of its own, FIG_LETTERED('A') ... ('Z').  Arrays
 * indexed by any figure have FIG_MAX entries; FIG__COUNT counts the orthodox
 * set and FIG_HIDDEN, which the other variants use. */
#define FIG_LETTERED_FIRST 8
#define FIG_LETTERED(c) (FIG_LETTERED_FIRST + ((c) - 'A'))
/* The duck (issue 25, docs/HOUSE-RULES.md "Turns"): nobody's piece that
 * blocks every other and is never captured; a schedule's side places it
 * after each move (ACT_PLACE with this figure).  Letter '*', value 0. */
#define FIG_DUCK (FIG_LETTERED_FIRST + 26)
#define FIG_MAX (FIG_DUCK + 1)
static inline int figure_is_lettered(int fig)
{
    return fig >= FIG_LETTERED_FIRST && fig < FIG_DUCK;
}

/* 'P','N','B','R','Q','K','?' (upper case), a lettered figure's letter,
 * '*' for the duck; 0 for FIG_NONE. */
char figure_letter(int fig);
/* Inverse of figure_letter for the orthodox six, case-insensitive; FIG_NONE
 * if unknown. */
int figure_from_letter(char c);
/* Any letter, case-insensitive: an orthodox figure for P N B R Q K, else
 * the lettered figure; FIG_NONE for what is not a letter. */
int figure_from_any_letter(char c);
/* "pawn", "knight", ...; a lettered figure: its letter ("A"), the rule set
 * names it. */
const char *figure_name(int fig);

typedef enum ActionKind {
    ACT_NONE = 0,
    ACT_MOVE,         /* from -> to, figure = promotion / chosen figure */
    ACT_PLACE,        /* put figure on to */
    ACT_REVEAL,       /* reveal the piece on from (optionally with a move) */
    ACT_ANNOUNCE,     /* announce (mask check ...) on to; amount = kind */
    ACT_BID,          /* amount = bid */
    ACT_CALL,
    ACT_FOLD,
    ACT_CHOOSE,       /* choose among candidates: from/to/figure/amount */
    ACT_GIVEUP,       /* set = variant-defined set of pieces */
    ACT_PASS,
    ACT_RESIGN,       /* core-level (meta) */
    ACT_DRAW_OFFER,   /* core-level (meta) */
    ACT_DRAW_ACCEPT,  /* core-level (meta) */
    ACT_DRAW_DECLINE, /* core-level (meta) */
    ACT_DRAW_CLAIM,   /* core-level (meta), the variant says whether it holds */
    ACT_TAKEOVER,     /* a seat takes command of a side, out of turn */
    ACT__COUNT
} ActionKind;

typedef struct Action {
    uint8_t kind;   /* ActionKind */
    uint8_t seat;   /* the seat that acts */
    uint8_t figure; /* Figure: promotion, merge choice, revealed figure ... */
    uint8_t flags;  /* variant-defined bits */
    Coord from, to;
    int32_t amount; /* bid, announcement kind, choice index ... */
    uint32_t code;  /* variant-private packed form (e.g. orthodox move) */
    uint64_t set;   /* variant-defined set (pieces given up ...) */
    /* A remark typed with the action that is not part of what the action
     * is: action_eq ignores it, legal lists leave it 0 and perft never
     * sees it, but the core hands it to `apply` and keeps it in the
     * history (undo replays it).  Échecs ambigus: the piece the mover
     * proposes under the clock procedure (AMBI-7), which the opponent may
     * keep or replace.  A variant must treat it as untrusted input. */
    uint32_t note;
} Action;

/* Meta actions are handled by the core (game.c), never by a variant's
 * apply: resign and the draw family. */
static inline int action_is_meta(int kind)
{
    return kind >= ACT_RESIGN && kind <= ACT_DRAW_CLAIM;
}

int action_eq(const Action *a, const Action *b);
const char *action_kind_name(int kind); /* "move", "bid", ... */

/* A growing list of actions. */
/* When memory runs out, al_push drops the action and sets `failed`: a list
 * with failed set is incomplete, and the caller reports it. */
typedef struct ActionList {
    Action *v;
    int n, cap;
    int failed;
} ActionList;

#define ACTIONLIST_INIT {NULL, 0, 0, 0}
void al_init(ActionList *l);
void al_free(ActionList *l);
void al_clear(ActionList *l);
Action *al_push(ActionList *l, const Action *a);
/* n more actions at the end, zeroed, for the caller to fill: the first of
 * them, or NULL (failed set) when memory runs out. */
Action *al_extend(ActionList *l, int n);
/* Index of the action equal to a, or -1. */
int al_find(const ActionList *l, const Action *a);

#endif
