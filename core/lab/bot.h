/*
 * bot.h -- machine players (issue 12): a bot decides for one seat from
 * what that seat may know, and nothing else.
 *
 * The core builds a BotInput from the seat's own channels (its View, its
 * legal actions, the messages sent to it, the public facts of the game:
 * variant, parameters, who commands which side); the bot chooses from the
 * input alone and never sees the game or its state blob.  Bots obey house
 * rules because they choose from the same legal list as a person (vetoed
 * actions are not in it) and their action is applied by game_apply
 * (reactions run).
 *
 * Levels:
 *   random  a play action drawn uniformly (meta actions only when no play
 *           action exists);
 *   greedy  the play action with the best immediate outcome for the seat:
 *           a win first, then the balance after it (material in
 *           hundredths of the value table, plus placement on 8x8 boards;
 *           judged on a model game rebuilt from the View's position string
 *           when the seat may see everything; with hidden figures, from
 *           what the View shows: a known figure's value, an unknown one's
 *           average), ties drawn at random;
 *   search  alpha-beta with iterative deepening (the seat's sides
 *           maximise, every other side minimises: the "paranoid" scheme,
 *           exact for two sides, cautious for more), captures first, and a
 *           quiescence search at the leaves (captures, or a battle's answer
 *           with few options), within BOT_SEARCH_NODES nodes; the best
 *           action of the deepest finished iteration, ties drawn at random.
 *           It searches a model game: the position itself when the seat
 *           sees it whole; otherwise (Masqués) BOT_SAMPLES positions drawn
 *           by the variant from what the seat knows (BotInput.known, the
 *           hidden figures drawn among those the public facts leave), the
 *           scores summed, the budget shared.  With no position to search
 *           (a Masqués setup) it makes the greedy choice.  Look-ahead
 *           pushes and pops actions on the model (game_push; a house
 *           rule's reaction runs inside the push and is undone by the
 *           pop).
 *
 * Invariant: for the same input and the same generator state a bot makes
 * the same choice (tests compare twin games that differ only in what the
 * seat cannot know).
 */
#ifndef CHESSVAR_BOT_H
#define CHESSVAR_BOT_H

#include "../game.h"
#include "../util.h"
#include "../variant.h"

enum BotLevel { BOT_RANDOM = 0, BOT_GREEDY = 1, BOT_SEARCH = 2, BOT__COUNT };

/* Nodes the search level may visit per decision. */
#define BOT_SEARCH_NODES 20000
/* Positions the search level draws when its seat cannot see them whole
 * (the limits are shared among them). */
#define BOT_SAMPLES 8

/* "random", "greedy": 0 and *level, or -1 with e listing the levels. */
int bot_level_parse(const char *name, int *level, Error *e);
const char *bot_level_name(int level);

/* What one seat may know, built by bot_input. */
typedef struct BotInput {
    const VariantOps *v;
    Params params;
    GameHooks hooks;       /* the rules' hooks, only in games without hidden facts */
    int nsides, nseats, seat;
    char seat_name[32];    /* the seat's name, for messages ("white") */
    unsigned sides;        /* the sides the seat commands */
    View *view;            /* game_view(g, seat) */
    ActionList legal;      /* game_legal(g, seat): play actions, then meta */
    int nmsgs;             /* messages to the seat, oldest first */
    char **msgs;
    char *known;           /* the position as the seat knows it (game_known),
                              with hidden facts open; NULL when none */
} BotInput;

/* Fill in from g for seat; 0, or -1 with e (memory). Free with
 * bot_input_free. */
int bot_input(const Game *g, int seat, BotInput *in, Error *e);
void bot_input_free(BotInput *in);

/* One finished iteration of the search level's deepening, as a BotWatch
 * sees it. */
typedef struct BotIteration {
    int depth;           /* plies searched, the bot's action included */
    long score;          /* the best action's, for the seat: the balance (in
                            hundredths of the value table's unit), 0 a draw */
    int mate;            /* a forced end seen: the plies to it, > 0 the seat
                            wins, < 0 it loses; 0: none */
    long nodes;          /* visited so far (in this sample, when several) */
    const Action *best;  /* the best action (the first of equals) */
} BotIteration;

/* Someone watching the search level think (UCI: input read while it
 * thinks, info lines); NULL members: none. */
typedef struct BotWatch {
    int (*stop)(void *ud);  /* asked every 256 nodes: nonzero ends the
                               search as a spent budget does */
    void (*iteration)(void *ud, const BotIteration *it);
    void *ud;
} BotWatch;

/* Limits of the search level; zero fields: none (nodes: BOT_SEARCH_NODES
 * when neither nodes nor ms is given). */
typedef struct BotLimits {
    long nodes;   /* nodes a decision may visit */
    int depth;    /* deepest iteration, in plies after the bot's action + 1 */
    long ms;      /* wall-clock milliseconds (not deterministic) */
    const BotWatch *watch; /* NULL: none */
} BotLimits;

/* The bot's choice among in->legal: 0 and *out, or -1 with e (no action
 * at all). */
int bot_choose(const BotInput *in, int level, Rng *rng, Action *out, Error *e);
/* The same with the search level's limits (lim may be NULL). */
int bot_choose_limited(const BotInput *in, int level, const BotLimits *lim, Rng *rng,
                       Action *out, Error *e);

/* Build the input of seat, choose and apply: 0, or -1 with e (the game
 * unchanged).  *chosen (may be NULL) gets the action played. */
int bot_play(Game *g, int seat, int level, Rng *rng, Action *chosen, Error *e);

/* A bot as a person names it: a level, and for the search its budget. */
typedef struct BotSpec {
    int level;
    BotLimits lim;  /* zero: the level's own (BOT_SEARCH_NODES) */
} BotSpec;

/* "random", "greedy", "search", "search:N" (N nodes a decision, 1 to
 * 100,000,000) or "search:Nms" (N milliseconds a decision, 1 to 3,600,000;
 * not deterministic): 0 and *spec, or -1 with e naming what is wrong. */
int bot_spec_parse(const char *text, BotSpec *spec, Error *e);
/* The text bot_spec_parse reads back ("search:50000"), in buf (n >= 32). */
const char *bot_spec_name(const BotSpec *spec, char *buf, size_t n);
int bot_spec_eq(const BotSpec *a, const BotSpec *b);
/* bot_play with a spec's level and limits. */
int bot_play_spec(Game *g, int seat, const BotSpec *spec, Rng *rng, Action *chosen, Error *e);

#endif
