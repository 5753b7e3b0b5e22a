/*
 * house.h -- house rules: Lua 5.4 scripts that bend a variant's rules
 * without recompiling (docs/HOUSE-RULES.md).
 *
 * A House is the scripts of one game, loaded in order into one sandboxed
 * Lua state of its own: text chunks only, an allow-listed environment (no
 * io, os, package, require, debug, load, dofile, loadfile, string.dump,
 * collectgarbage tuning), math.random drawn from the game's generator, an
 * instruction budget and a wall time per call, and a memory cap per House
 * (strings, a reaction's edits and coroutine.close nesting bounded too),
 * next and pairs in a defined order, and globals read-only once loaded (a
 * hook keeps no state between calls: issue 20 point 4).  The House gives
 * the core its hooks (setup, veto, react: core/game.h GameHooks) and the
 * parameters and values the scripts set.
 *
 * The texts are the game's, not the files': a record carries them, so a
 * game replays without the files (core/record/record.c).
 *
 * Invariant: nothing a script does reaches a seat except through the
 * game's own channels (a veto's reason, a finished game's reason): print
 * goes to the House's log; an error never leaves a game half-changed (the
 * core applies on a copy, and a failing reaction undoes the action).
 */
#ifndef CHESSVAR_HOUSE_H
#define CHESSVAR_HOUSE_H

#include <stddef.h>
#include "../game.h"
#include "../params.h"
#include "../util.h"
#include "../variant.h"

/* One script: the name it is known by (the file name as given) and its
 * text (any bytes; a binary chunk is refused). */
typedef GameScript HouseSource;

/* Limits; zero fields take the defaults. */
typedef struct HouseLimits {
    long instructions; /* per call into a script (default 10,000,000) */
    size_t memory;     /* bytes for all the scripts of a game (default 64 MiB) */
    long ms;           /* wall milliseconds per call (default: house_set_default_ms) */
    long game_ms;      /* wall milliseconds of all a game's calls together
                          (default: house_set_default_game_ms) */
    int messages;      /* a game's messages past which a reaction's edit is
                          refused (default 100,000: each edit writes one per seat) */
} HouseLimits;

/* The wall time a hook call may take where HouseLimits gives none
 * (`--hook-ms`; 0: the default, 1000 ms). */
void house_set_default_ms(long ms);
/* The wall time all the hook calls of one game may take together, where
 * HouseLimits gives none (`--hook-game-ms`; 0: the default, 300 s).  A
 * game's copies and every bot's look-ahead in it share its House, and so
 * its budget (issue 20 point 2). */
void house_set_default_game_ms(long ms);

typedef struct House House;

/* Load the scripts in order against variant v with nsides sides (0: the
 * variant's default).  Every problem is an error naming the script
 * (file:line) and, for a hook, the hook: a syntax error, a runtime error
 * while loading, an unknown parameter (listing the valid ones), a value of
 * the wrong type, a field of the wrong type, a script for another variant.
 * NULL with e on failure. */
House *house_load(const VariantOps *v, int nsides, const HouseSource *src, int n,
                  const HouseLimits *lim, Error *e);
/* Give up the caller's hold on h: it is freed once no game holds it
 * either (each game made with house_hooks(h) holds it until freed). */
void house_free(House *h);

/* The scripts' parameters and value table applied, in order, on top of p
 * (filled from params_defaults and the command line first).  -1 with e. */
int house_params(House *h, Params *p, Error *e);

/* The script whose setup builds the start position (the last one with a
 * setup), or -1 when none has one. */
int house_setup_script(const House *h);

/* The hooks for game_new_hooked (ud is h; each game and clone made with
 * them holds h until it is freed).  A new game starts: its total time
 * budget is whole again (house_new_game). */
GameHooks house_hooks(House *h);
/* A new game starts on h: the time its hooks have spent is forgotten. */
void house_new_game(House *h);
/* Copies of the scripts as given to house_load (house_count of them), for
 * GameConfig.scripts: a record carries them. */
const GameScript *house_scripts(const House *h);
/* The House whose hooks g runs, or NULL (a game without house rules). */
House *house_of(const Game *g);

/* How many scripts, and each one's name and one-paragraph description
 * (from the script; "" when it gives none). */
int house_count(const House *h);
const char *house_name(const House *h, int i);
const char *house_title(const House *h, int i);
const char *house_description(const House *h, int i);

/* What script i declares it changes (rule{changes = ...}), by area
 * (issue 22, docs/HOUSE-RULES.md "What a script changes"): how many, and
 * each one (area: core/variant.h RuleArea; rules: the rule ids it names,
 * NULL when it names none). */
#define HOUSE_MAX_CHANGES 16
typedef struct HouseChange {
    int area;
    char *what;
    char *rules;
} HouseChange;
int house_nchanges(const House *h, int i);
const HouseChange *house_change(const House *h, int i, int k);
/* The parts script i gives (HOUSE_PART_* bits), for a script that
 * declares no changes: "changes: not declared (hooks: veto, react)". */
enum { HOUSE_PART_PARAMS = 1, HOUSE_PART_SETUP = 2, HOUSE_PART_VETO = 4,
       HOUSE_PART_REACT = 8, HOUSE_PART_START = 16, HOUSE_PART_TURN = 32 };
unsigned house_parts(const House *h, int i);
/* 1 when script i sets parameter `name` (its params or values field). */
int house_param_set(const House *h, int i, const char *name);

/* The first error a hook met since the last call (file:line, hook name),
 * or NULL; house_clear_error forgets it.  A hook that fails gives it to
 * the core as the error of whatever met it (GameHooks): a setup's refuses
 * the game, a veto's fails the legal list, perft, a bot's choice.  A
 * reaction refuses its action when it raises an error on purpose (error(),
 * or an edit the variant refused, not caught); any other failure (a slip
 * of the script, a limit) is reported as the hook's failure (-2). */
const char *house_error(const House *h);
void house_clear_error(House *h);

/* Try the hooks of g's house rules (`chessvar check`): every seat's legal
 * list (each veto asked about each candidate) on g's position and after
 * each ply of a random game of at most `plies` plies from it, drawn from
 * seed, each action applied (each reaction run; one its reaction refuses
 * is passed over for another).  g is unchanged.  0, or -1 with e: the
 * hook's error and where it failed ("on the start position", "after e4
 * e5"). */
int house_try(const Game *g, int plies, uint64_t seed, Error *e);

/* The API a script sees, for the house-rule lab's reference (issue 23):
 * the names of the game object's methods and of rule{}'s fields (NULL past
 * the last), as the sandbox registers and reads them; house_api gives each
 * documented call of docs/HOUSE-RULES.md (house_api.c; tests/test_web_lab.c
 * holds the three and the page to each other). */
const char *house_game_method(int i);
const char *house_rule_field(int i);
typedef struct HouseApi {
    const char *section; /* "rule", "game", "action", "sandbox" */
    const char *call;    /* as the docs write it: `game:piece_at(square)` */
    const char *doc;     /* what it gives or does, as the docs say it */
} HouseApi;
/* The i-th entry, or NULL past the last. */
const HouseApi *house_api(int i);

/* Issue 24: the rule-set text the scripts give (rule{ruleset = ...},
 * docs/HOUSE-RULES.md "A rule set from parts"), or NULL; house_hooks
 * passes it on as GameHooks.ruleset. */
const char *house_ruleset(const House *h);

/* Issue 24: a script's arguments.  A script's name may carry them after
 * its last colon, `three_check.lua:checks=5,x=y` (as --rules takes it and
 * a record keeps it): house_script_args gives where they start (past the
 * colon), or NULL when the name carries none; the file is the part
 * before.  A script declares what it takes with arguments{...}; house_arg
 * gives each, by name order. */
const char *house_script_args(const char *name);
enum { HOUSE_ARG_BOOL, HOUSE_ARG_INT, HOUSE_ARG_NUMBER, HOUSE_ARG_STRING };
typedef struct HouseArg {
    char *name;
    int type;            /* HOUSE_ARG_* (the default's type) */
    char *doc;           /* the doc line the script gives */
    char *expect;        /* "an integer from 1 to 99", for people */
    char *def, *value;   /* the default and the value taken, as text */
    int given;           /* 1 when the name gave it */
    int has_min, has_max;
    double min, max;
} HouseArg;
int house_nargs(const House *h, int i);
const HouseArg *house_arg(const House *h, int i, int k);

/* What the scripts printed (the House's log, never a seat's screen). */
const char *house_log(const House *h);

#endif
