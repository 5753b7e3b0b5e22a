/*
 * game.h -- a game: one variant, its parameters, seats, the current state
 * blob, the history of actions and the messages to seats.
 *
 * The core owns the turn loop: it asks the variant who must act and what
 * that seat may do, adds the meta actions (resign, draw offer / accept /
 * decline / claim), runs house-rule hooks (veto before, reaction after),
 * keeps the repetition history and records every action with its text.
 *
 * Invariant: a failed game_play/game_apply leaves the game exactly as it
 * was (the state blob is applied on a copy and committed at the end).
 */
#ifndef CHESSVAR_GAME_H
#define CHESSVAR_GAME_H

#include "action.h"
#include "params.h"
#include "util.h"
#include "variant.h"

/* A house-rule script the game was started with: the name it is known by
 * (the file name as given) and its whole text. */
typedef struct GameScript {
    const char *name;
    const char *text;
    size_t len;
} GameScript;

typedef struct GameConfig {
    const VariantOps *variant;
    int nsides;            /* 0: the variant's default */
    int nseats;            /* 0: as many seats as sides */
    uint64_t seed;         /* the game's random generator */
    const char *position;  /* NULL: the variant's start position */
    Params params;         /* from params_defaults (+ params_set) */
    int params_set;        /* 0: the core fills defaults */
    const GameScript *scripts; /* the house rules the hooks come from, in */
    int nscripts;              /* order (records carry them); the game keeps copies */
    /* A rule-set text for a variant with `prepare` (the fairy variant's
     * board, pieces and hands, docs/FAIRY.md), or NULL: the hooks' one
     * (GameHooks.ruleset, a house rule's), else the variant's default.
     * The game keeps a copy. */
    const char *ruleset;
    /* The turn under way at `position` (issue 25: a bot's model of a game
     * with a schedule, View.turn_*), or NULL: the start hook's.  It
     * replaces the turn the start hook set; the game keeps a copy. */
    const struct GameTurn *turn;
} GameConfig;

/* Seams where house-rule scripts attach (the Lua layer fills them). */
typedef struct GameHooks {
    void *ud;
    /* Build the start position instead of the variant: write a position
     * string into out (may draw from game_rng(g)).  -1 with e on failure. */
    int (*setup)(void *ud, Game *g, StrBuf *out, Error *e);
    /* Forbid a candidate action: return 1 and write a reason for people.
     * st is the state judged: g's own (ply 0), or in perft a state `ply`
     * actions after g's (those actions are in no history).  -1 when the
     * hook itself failed (why: the error): no list can then be made, and
     * every function that needed one fails with it (game_hook_error). */
    int (*veto)(void *ud, const Game *g, const void *st, int ply, const Action *a,
                char *why, size_t n);
    /* After an action is applied (the new state is in g).  May end the game
     * with game_end().  -1 with e: the action is refused (undone, the error
     * given).  -2 with e: the hook itself failed; the action is undone too,
     * and the failure is that of whatever call met it (game_hook_error): a
     * search or perft stops rather than skip the action. */
    int (*react)(void *ud, Game *g, const Action *a, Error *e);
    /* Optional: once the start position is made (a setup's too), before
     * any action: may end the game with game_end(), not edit it.  -1 with
     * e: the game is not made (issue 20 point 8). */
    int (*start)(void *ud, Game *g, Error *e);
    /* Optional: ud gains a holder (a new game, a clone) / loses one (a
     * game freed), so whatever ud is lives as long as its last game. */
    void (*retain)(void *ud);
    void (*release)(void *ud);
    /* Optional: the name of the script whose veto forbade the action the
     * veto hook last forbade (issue 22, `why`), or NULL. */
    const char *(*veto_script)(void *ud);
    /* Optional: the rule-set text the scripts describe (issue 24: a
     * script's board, pieces, hands ...), used when the config has none;
     * it lives as long as ud. */
    const char *ruleset;
} GameHooks;

/* One entry of the history. */
typedef struct HistoryEntry {
    Action action;
    char text[96];      /* record form (FMT_RECORD), e.g. "Nf3", "resign" */
    char machine[96];   /* FMT_MACHINE form, e.g. "g1f3" */
} HistoryEntry;

/* ---- Life cycle ------------------------------------------------------- */
/* Create a game; NULL with e on a bad position or configuration. */
Game *game_new(const GameConfig *cfg, Error *e);
/* Same, with hooks in place before setup. */
Game *game_new_hooked(const GameConfig *cfg, const GameHooks *hooks, Error *e);
/* A deep, independent copy (history included). */
Game *game_clone(const Game *g);
void game_free(Game *g);
/* 1 when a and b are the same game in every respect that can change what
 * it answers: configuration, state blob, history (actions, notes, texts),
 * repetition keys, messages, draw offer, forced end, random generator and
 * what was shown after the end.  For tests and harnesses: "a refused
 * command leaves the game byte-for-byte as it was". */
int game_same(const Game *a, const Game *b);

/* ---- Read access ------------------------------------------------------ */
const VariantOps *game_variant(const Game *g);
/* What the variant's prepare made of the game's rule set (NULL for a
 * variant without prepare): the same for the game and all its copies. */
const void *game_variant_data(const Game *g);
/* The game's rule-set text, or NULL (the variant's default rules). */
const char *game_ruleset(const Game *g);
const GameConfig *game_config(const Game *g);
const Params *game_params(const Game *g);
int game_param(const Game *g, int index);   /* value of parameter #index */
int game_nsides(const Game *g);
int game_nseats(const Game *g);
Rng *game_rng(Game *g);
const void *game_state(const Game *g);
const char *game_side_name(const Game *g, int side);
const char *game_seat_name(const Game *g, int seat);
/* Longest action text the game reads (game_parse, game_play): a longer
 * one is refused, never cut (a cut text could read as another action). */
#define ACTION_TEXT_MAX 255
/* Seat by name ("white", any case) or number from 0 ("0", "1": digits
 * only, no leading zero); -1 if none. */
int game_seat_by_name(const Game *g, const char *name);
int game_to_act(const Game *g);             /* seat, or -1 when over */
/* Mask of the sides seat commands now (public: who commands is known). */
unsigned game_seat_sides(const Game *g, int seat);
int game_side_to_move(const Game *g);
void game_status(const Game *g, Status *out);
/* "1-0", "0-1", "1/2-1/2", "*" for two sides; "white+red", "draw", "*"
 * otherwise.  buf of at least 64 bytes. */
const char *game_result_text(const Game *g, char *buf, size_t n);
/* How many times the current position occurred (1 = first time). */
int game_repetitions(const Game *g);
int game_history_len(const Game *g);
const HistoryEntry *game_history(const Game *g, int i);
/* The text of history entry i as `seat` may read it (hidden information
 * stays hidden: an enemy's setup placement reads "white arranges a piece"). */
void game_history_text(const Game *g, int i, int seat, StrBuf *out);
/* Current position string (full truth: for the engine, tests, records). */
void game_position(const Game *g, StrBuf *out);
/* The position as `seat` knows it (VariantOps.known), appended to out for
 * the search bot: 1, or 0 when the variant has none now (nothing hidden,
 * a setup under way). */
int game_known(const Game *g, int seat, StrBuf *out);

/* ---- Actions ---------------------------------------------------------- */
/* Everything `seat` may do now: the variant's play actions (minus vetoed
 * ones) then the meta actions.  0, or -1 when a house rule's hook failed
 * (game_hook_error says how; out gets nothing): never an empty list in
 * place of an error. */
int game_legal(const Game *g, int seat, ActionList *out);
/* Only the play actions of the seat to act (what perft counts); 0 or -1
 * as game_legal. */
int game_legal_play(const Game *g, ActionList *out);
/* Why is a an illegal candidate? 1 with a reason if a hook vetoes it, 0
 * if not, -1 with the error in why when the hook failed. */
int game_vetoed(const Game *g, const Action *a, char *why, size_t n);
/* After a call on g failed (-1, GAME_PERFT_FAILED): the error of the house
 * rule's hook that made it fail ("house rule loop.lua, veto: loop.lua:4:
 * instruction budget exceeded"), or NULL when it failed for another reason
 * (an illegal or refused action, memory).  Each such call forgets the
 * error of the one before. */
const char *game_hook_error(const Game *g);
/* Read text typed by `seat` ("e4", "resign", "bid 3") and apply it.  A
 * text that stands for several actions (the variant's parse_seq) applies
 * them all or none. */
int game_play(Game *g, int seat, const char *text, Error *e);
/* Parse without applying. */
int game_parse(const Game *g, int seat, const char *text, Action *out,
               Error *e);
/* issue 21: the variant's other texts for the play actions `seat` may take
 * now (VariantOps.inputs), at most max into out, each one game_parse reads
 * as an action of the seat's legal list (a vetoed one is left out).  Their
 * number; 0 when the variant has none or the game is over; -1 when a house
 * rule's hook failed (game_hook_error says how). */
int game_inputs(const Game *g, int seat, InputForm *out, int max);
/* game_parse without asking a house rule's veto: the action the text
 * names among the variant's (issue 22, `why` asks the veto itself). */
int game_parse_unvetted(const Game *g, int seat, const char *text, Action *out,
                        Error *e);
/* Why is the action `text` legal or not for `seat` now (issue 22)?  The
 * answer names the rule ids (the variant's why op) or the house-rule
 * script that forbids it, from what `seat` may know.  0 with *out, or -1
 * with e when the text names no action to judge (empty, garbled,
 * ambiguous, no such seat, a house rule's hook failed). */
typedef struct WhyAnswer {
    int legal;             /* 1: the action is legal for seat now */
    char action[96];       /* the action as asked (the text, trimmed) */
    char rules[64];        /* rule ids, space-separated; may be empty only
                              when script names the house rule */
    char script[128];      /* the script whose veto forbids it, or "" */
    char text[640];        /* the answer for people */
} WhyAnswer;
int game_why(const Game *g, int seat, const char *text, WhyAnswer *out, Error *e);
/* The answer's JSON members, without braces (docs/PROTOCOL.md, `why`):
 * "legal":true,"action":"e5","rules":["ORTH-2"],"script":null,"text":"..." */
void game_why_json(const WhyAnswer *w, StrBuf *out);
/* Apply an action from game_legal.  -1 with e when it is refused; when a
 * house rule's hook failed, game_hook_error(g) says so too. */
int game_apply(Game *g, const Action *a, Error *e);
/* Text of an action in the current position. */
void game_format(const Game *g, const Action *a, int style, StrBuf *out);
/* Undo the last n actions (replays from the start).  -1 if fewer exist. */
int game_undo(Game *g, int n, Error *e);
/* Undo asked for by `seat` (what the terminal and batch mode call).  In a
 * game without hidden information any seat may take back any actions.  In
 * one with hidden information (VariantOps.hidden_info) a seat may take back
 * only its own most recent actions, none of them a barrier (the variant's
 * undo_barrier: an action after which something became known), and never
 * after the game is over; otherwise -1 with a message naming the rule.
 * docs/MASQUES.md, "Taking back". */
int game_undo_by(Game *g, int seat, int n, Error *e);
/* Whether game_undo_by(g, seat, n) would be allowed, without undoing:
 * 0, or -1 with its message (a server asks the other players' consent
 * only for a takeback the rules allow; issue 21). */
int game_undo_allowed(const Game *g, int seat, int n, Error *e);
/* The hooks the game was made with (for a new game of the same rules). */
GameHooks game_hooks(const Game *g);
/* 1 when the start position was built by the setup hook (not given):
 * a record then has the hook build it again. */
int game_setup_made(const Game *g);
/* Does the game run hooks (house rules: setup, veto, react)? */
int game_hooked(const Game *g);
/* Does the game hide facts from some seats (the variant's hidden_info)? */
int game_hidden_info(const Game *g);
/* Once a game with hidden facts is over, each seat may choose to show what
 * it kept hidden (Masqués MASQ-16: nobody is forced to).  0, or -1 with e
 * (the game goes on, nothing is hidden, the seat has shown already). */
int game_show(Game *g, int seat, Error *e);
/* The seats that have shown (bit per seat). */
unsigned game_shown(const Game *g);
/* The seats whose hidden facts are still their own (bit per seat): none
 * without hidden information; every seat while the game is on; after the
 * end, those that have not shown them (game_show), none when the players
 * agreed before the game to show everything at its end (the view of seat
 * -1 then carries the full position, VariantOps.view).  Another seat's
 * view, legal list, history texts and messages, and a record holding a
 * seat's secrets, need that seat's consent (MASQ-12, MASQ-16; issue 19
 * point 2). */
unsigned game_secret_seats(const Game *g);
/* May `reader` (a seat, or -1: everyone) be given what is private to
 * `seat`?  Its own answers, or answers `seat` no longer keeps secret. */
int game_may_read(const Game *g, int reader, int seat);
/* End the game now (hooks, tests): winners is a side mask, 0 = draw; its
 * code is END_HOUSE_RULE.  A game already ended (a resignation, an agreed
 * draw, an earlier game_end) stays as it ended; an end the position shows
 * (a mate, a draw by rule) does not stop it: a reaction may still change
 * that position, and the end it declared stands. */
void game_end(Game *g, unsigned winners, const char *reason);
/* Change the position from inside a reaction hook, after a play action
 * (remove, add, change a piece: core/variant.h Edit): the variant checks
 * its invariants; the ply's repetition key becomes the edited position's.
 * -1 with e naming what the change would break; the game is unchanged. */
int game_edit(Game *g, const Edit *ed, Error *e);
/* A house rule's values kept in the game (issue 20 points 2 and 4): each
 * script's own keys, copied with the game, restored with it when an action
 * is refused or taken back, and rebuilt by replaying its actions (a record
 * saves none).  Bounded: GAME_VARS_MAX keys per game. */
#define GAME_VARS_MAX 32
#define GAME_VAR_KEY_MAX 24  /* bytes of a key: letters, digits, '_' */
#define GAME_VAR_STR_MAX 64  /* bytes of a string value */
enum { GAME_VAR_INT = 1, GAME_VAR_BOOL, GAME_VAR_STR };
typedef struct GameVar {
    int script;                       /* whose key it is */
    char key[GAME_VAR_KEY_MAX + 1];
    int type;                         /* GAME_VAR_INT, _BOOL, _STR */
    long long num;                    /* INT, BOOL (0 or 1) */
    size_t len;                       /* STR: bytes in str */
    char str[GAME_VAR_STR_MAX + 1];
} GameVar;
/* Script `script`'s value of key, or NULL when it has none. */
const GameVar *game_var(const Game *g, int script, const char *key);
/* Set (val: type, num, len, str) or, val NULL, clear script's key: only
 * from a reaction or a start hook.  -1 with e (the game unchanged) for a
 * bad key or value or a game with GAME_VARS_MAX keys. */
int game_var_set(Game *g, int script, const char *key, const GameVar *val, Error *e);
/* The draw offer pending, as the offering seat, or -1. */
int game_draw_offer(const Game *g);
/* A house rule's schedule (issue 25, docs/HOUSE-RULES.md "8. Turns"): the
 * turn under way, kept by the house layer, which gives the variant's turn
 * back to its side (game_edit EDIT_TURN) while moves remain.  moves == 0:
 * the game has no schedule (the variant alternates as it says). */
typedef struct GameTurn {
    int side;    /* whose turn it is */
    int number;  /* 1 for the game's first turn */
    int made;    /* moves made in it so far */
    int moves;   /* moves it has, as planned now */
    int duck;    /* 1 while its side must place the duck (FIG_DUCK) */
} GameTurn;
const GameTurn *game_turn(const Game *g);
/* Set the turn: only from a reaction or a start hook, like game_var_set.
 * Copied with the game, restored with it when an action is refused or
 * taken back, rebuilt by replaying its actions.  -1 with e for a turn that
 * makes no sense (a side out of range, made > moves). */
int game_turn_set(Game *g, const GameTurn *t, Error *e);

/* ---- Messages --------------------------------------------------------- */
int game_message_count(const Game *g);
/* Message i if `seat` may see it, else NULL. */
const char *game_message(const Game *g, int i, int seat);

/* ---- Views and perft -------------------------------------------------- */
/* What `seat` may know; -1 when memory ran out while it was built (the
 * View is then incomplete and must not be shown), else 0. */
int game_view(const Game *g, int seat, View *out);
/* A random game played out from g's position on a copy (g unchanged): at
 * each ply an action of the seat to act's play list (vetoes applied),
 * drawn with rng_below(rng, n), applied by the variant; repetition keys
 * and every draw rule as in play, but no history texts or messages (with
 * a reaction hook, each action goes through game_apply instead).  Stops at
 * the end or after max plies: the plies played and the final status in
 * *out, or -1 when memory ran out or a house rule's hook failed
 * (game_hook_error). */
int game_playout(const Game *g, Rng *rng, int max, Status *out);
/* game_playout with a generator per seat: the seat to act draws from
 * ps->rng[seat].  Also told, of the game played out: the play actions on
 * offer summed over the plies (ps->choices), the sides each seat commands
 * at the end (ps->commands, as game_seat_sides) and the result
 * (ps->result, as game_result_text).  A playout stops early, not over,
 * when the seat to act has no play action (its random bot would take a
 * meta action): plies < max with out->over 0 says so. */
typedef struct PlayoutSeats {
    Rng *rng[MAX_SEATS];          /* in */
    long choices;                 /* out */
    unsigned commands[MAX_SEATS]; /* out */
    char result[64];              /* out */
} PlayoutSeats;
int game_playout_seats(const Game *g, PlayoutSeats *ps, int max, Status *out);

/* Look-ahead (the search bot): game_push applies a play action of
 * game_legal_play's list by the variant alone -- no texts, no history
 * entry, no messages -- with the repetition keys (so every draw rule
 * holds) and the veto's ply count following; game_pop takes the last
 * pushed action back exactly.  With a house rule's reaction, game_push
 * also gives the action a history entry (its texts written when read)
 * and runs the reaction, which may edit the position, end the game, keep
 * values and draw from the generator as in play (edits write no
 * messages); game_pop undoes all of it (issue 20 point 7).  Only while
 * game_pushable (the game is not over).  While actions are pushed, use
 * only the reading functions and game_legal_play, push and pop; a copy
 * (game_clone) has a look-ahead of its own.  game_push: 0, or -1 (the
 * variant or the reaction refused the action, not pushable, out of
 * memory, or a reaction failed: game_hook_error says so) with g
 * unchanged. */
/* The look-ahead's lazy veto (issue 20 point 7): the variant's play
 * actions of `seat` without asking a house rule's veto (0; no other
 * answer), and game_push after asking the veto of that one action (-1
 * when it is forbidden or the veto failed: game_hook_error says which).
 * A search that tries few of a node's actions asks the veto few times. */
int game_legal_play_unvetted(const Game *g, int seat, ActionList *out);
int game_push_vetted(Game *g, const Action *a);
int game_pushable(const Game *g);
int game_push(Game *g, const Action *a);
void game_pop(Game *g);
/* For look-ahead, each with one call to the variant's status: the status
 * in *out and the seat to act (-1 when the game is over); the play actions
 * of `seat` (game_legal_play for a seat already known); and a brief View
 * of `seat` -- pieces, captured pieces, geometry, with s and to_act as
 * given -- in which the variant may leave the texts (position, question,
 * info, last_text) empty (View.brief).  The brief View is for a bot's
 * evaluation only, never to be shown. */
int game_status_to_act(const Game *g, Status *out);
int game_legal_play_of(const Game *g, int seat, ActionList *out);
int game_view_brief(const Game *g, int seat, const Status *s, int to_act, View *out);

/* What the perft functions return when memory ran out, and when a house
 * rule's hook failed (game_hook_error says how): never a count. */
#define GAME_PERFT_NOMEM UINT64_MAX
#define GAME_PERFT_FAILED (UINT64_MAX - 1)
/* Count leaves of the play tree (every decision of any seat is a ply).
 * Uses the variant's fast path unless hooks veto actions. */
uint64_t game_perft(const Game *g, int depth);
/* Same, through the generic legal/apply path only (cross-checks). */
uint64_t game_perft_generic(const Game *g, int depth);
/* Per root action: calls fn(ud, machine_text, count); returns the total. */
uint64_t game_perft_divide(const Game *g, int depth,
                           void (*fn)(void *ud, const char *move, uint64_t n),
                           void *ud);

#endif
