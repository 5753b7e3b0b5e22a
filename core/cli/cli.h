/*
 * cli.h -- the `chessvar` command: argument parsing, subcommand dispatch
 * and what the subcommands share (starting a game from options, playing a
 * typed command for a seat, names for the renderers).
 *
 * Invariant: every failure reaches the user as one message on standard
 * error and a non-zero exit status (CLI_EXIT_*); nothing here exits the
 * process behind its caller's back, so the commands are plain functions.
 */
#ifndef CHESSVAR_CLI_H
#define CHESSVAR_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "../game.h"
#include "render.h"
#include "../util.h"
#include "../variant.h"

/* Exit statuses (docs/PROTOCOL.md, "Exit status"). */
enum {
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAIL = 1,  /* a command failed: batch error, file, I/O */
    CLI_EXIT_USAGE = 2  /* the command line is wrong: unknown command,
                           option, variant, parameter, bad value or FEN */
};

#define CLI_MAX_PARAMS 64
#define CLI_MAX_RULES 16
#define CLI_MAX_SEATS_BOTS 8
#define CLI_MAX_FILES 4096
#define CLI_MAX_DRAW 32

typedef struct House House;
struct HouseLimits;
#define CHESSVAR_VERSION "0.4.0"

typedef struct CliOptions {
    const char *command;        /* "play", "run", ... */
    const VariantOps *variant;  /* NULL when none was named */
    const char *fen;            /* --fen */
    const char *load;           /* --load */
    int have_seed;
    uint64_t seed;              /* --seed */
    int sides;                  /* --sides, 0 = the variant's default */
    int seats;                  /* --seats, 0 = the variant's default */
    int nparams;
    const char *params[CLI_MAX_PARAMS]; /* --param NAME=VALUE, in order */
    int ascii;                  /* --ascii */
    int json;                   /* --json */
    int depth;                  /* --depth, -1 when not given */
    int divide;                 /* --divide */
    const char *bottom;         /* --bottom SIDE, NULL: the seat's own side */
    int nrules;
    const char *rules[CLI_MAX_RULES]; /* --rules FILE, in order */
    int trust_rules;            /* --trust-rules: a record's scripts may run */
    House *house;               /* the scripts of --rules, loaded once per command */
    /* serve: a game with rules of the house-rule lab (issue 23) */
    const struct HouseLimits *record_limits; /* --load: its scripts' (NULL: the defaults) */
    long bot_ms;                /* `bot search`: wall ms a decision at most (0: none) */
    int nbots;
    const char *bots[CLI_MAX_SEATS_BOTS]; /* --bot SEAT=LEVEL, in order */
    int delay_ms;               /* --delay */
    /* experiment and merge (cli_experiment.c) */
    long games;                 /* --games, 0: not given */
    int jobs;                   /* --jobs, 0: not given */
    int max_plies;              /* --max-plies, 0: not given */
    int shard_k, shard_n;       /* --shard K/N, 0/0: the whole experiment */
    const char *until;          /* --until clear[:METRIC], NULL: a fixed number of games */
    const char *svg;            /* --svg FILE */
    const char *save_games;     /* --save-games DIR */
    int compare;                /* --compare seen: --rules and --param after it */
    int cmp_nparams;            /* make the second rule set, B */
    const char *cmp_params[CLI_MAX_PARAMS];
    int cmp_nrules;
    const char *cmp_rules[CLI_MAX_RULES];
    House *cmp_house;           /* the scripts of B's --rules */
    int nfiles;
    const char *files[CLI_MAX_FILES]; /* merge: the JSON parts */
    /* serve (core/web/) */
    const char *host;           /* --host ADDR, NULL: loopback */
    int have_port, port;        /* --port P (0: a free port) */
    int max_games;              /* --max-games N, or 0: the default (serve: games held;
                                   experiment --until: games per rule set at most) */
    const char *data;           /* --data DIR */
    const char *scripts;        /* --scripts DIR */
    /* diagram and handout (cli_diagram.c, issue 22) */
    int ndraw;
    struct { int arrows; const char *text; } draw[CLI_MAX_DRAW]; /* --arrows, --marks */
    const char *seat;           /* --seat SEAT, NULL: a spectator */
    const char *window;         /* --window X0,Y0,X1,Y1 (the plane) */
    const char *html;           /* --html FILE */
    /* learn (cli_learn.c) */
    const char *lesson;         /* the lesson to play: its number or name */
    const char *lessons;        /* --lessons FILE */
    int check_lessons;          /* --check */
    /* diff (cli_diff.c): the second rule set's variant; the --param and
     * --rules after its name go to cmp_params and cmp_rules */
    const VariantOps *variant_b;
    long budget;                /* --budget N, 0: the default */
    long practice;              /* --practice N, 0: none */
    const char *moves;          /* perft, legal: --moves LIST, played first (issue 25) */
} CliOptions;

/* The menu's answer to "which house rules": numbers from 1 to n separated
 * by spaces (or commas), each once, into picked (0-based, at most
 * CLI_MAX_RULES); "" picks none.  0, or -1 with e saying what to type. */
int cli_menu_rules(const char *line, int n, int *picked, int *npicked, Error *e);

/* Load the script files at paths (in order) against v with nsides sides
 * (0: the default): NULL with e naming the file and the problem. */
House *cli_load_house(const VariantOps *v, int nsides, const char *const *paths, int n,
                      Error *e);
/* The same under the limits lim (core/lua/house.h; NULL: the defaults). */
House *cli_load_house_limited(const VariantOps *v, int nsides, const char *const *paths,
                              int n, const struct HouseLimits *lim, Error *e);

/* What `chessvar check` does with a loaded House h (issue 19 point 4; the
 * house-rule lab's check, issue 23): a game of v made with it (its setup
 * and start run), then every hook tried on its start position and a short
 * random game (house_try).  0, or -1 with e, the text `check` prints. */
int cli_check_house(const VariantOps *v, House *h, Error *e);

/* The whole program: parse argv, run the command, return the exit status. */
int cli_main(int argc, char **argv);

/* Start the game the options describe: a new game of o->variant (--fen,
 * --seed, --sides, --param) or the record of --load.  NULL with e set;
 * *status gets CLI_EXIT_USAGE or CLI_EXIT_FAIL to say whose fault it is.
 * default_seed is used when --seed is absent. */
Game *cli_start_game(const CliOptions *o, uint64_t default_seed, Error *e,
                     int *status);
/* A yes/no question at the terminal: 1 yes, 0 no, -1 no answer (input
 * ended). */
typedef int (*CliAsk)(void *ctx, const char *question);
/* cli_start_game where a record's house-rule scripts without --trust-rules
 * are shown and `ask`ed about (issue 20 point 6); cli_start_game refuses
 * them instead.  An answer other than yes: NULL, *status CLI_EXIT_OK and e
 * saying how to trust them. */
Game *cli_start_game_asking(const CliOptions *o, uint64_t default_seed, CliAsk ask,
                            void *ctx, Error *e, int *status);

/* A seed for games the user did not seed: differs from run to run. */
uint64_t cli_fresh_seed(void);

/* Side and seat names of g for the renderers. */
void cli_names(const Game *g, RenderNames *n);

/* The status line of g ("white to move", "game over: 1-0, white wins
 * (checkmate)") and its JSON object, from public facts only. */
void cli_status_line(const Game *g, StrBuf *out);
void cli_status_json(const Game *g, StrBuf *out);
/* The turn of a house rule's schedule each action of g's history was made
 * in (issue 25): out[i] (game_history_len(g) entries) its number, 0 where
 * no schedule ran.  1 when some action has one, 0 when none has, -1 when
 * the history could not be replayed (out of memory). */
int cli_history_turns(const Game *g, int *out);

/* The side named `name` ("white") of g in *side; -1 with e listing the
 * sides otherwise. */
int cli_side_arg(const Game *g, const char *name, int *side, Error *e);

/* The variant's rules text for players (VariantOps.rules) with the values
 * of p, then the parameters' values, marked where they differ from the
 * defaults.  -1 (and a note in out) if the variant has no rules text. */
int cli_rules_text(const VariantOps *v, const Params *p, StrBuf *out);

/* Colours on stdout: a terminal, and NO_COLOR unset or empty. */
int cli_use_color(void);

/* Batch mode as a library (cli_run.c): what `chessvar run` does with each
 * line, for harnesses and programs that embed it.  batch_open starts the
 * game the options describe (NULL with e and *status on failure);
 * batch_line runs one command line (a blank or comment line is the
 * caller's to skip) and appends its whole answer to out (exactly one line
 * with o->json); 0, or -1 when the command failed and left the game as it
 * was.  batch_done: `quit` was read. */
typedef struct Batch Batch;
Batch *batch_open(const CliOptions *o, Error *e, int *status);
int batch_line(Batch *b, const char *line, StrBuf *out);
/* The same for the n bytes at line, which may hold NUL bytes: a line
 * with one, or that is not strict UTF-8, is refused as a whole
 * ("cmd":"none"). */
int batch_line_n(Batch *b, const char *line, size_t n, StrBuf *out);
int batch_done(const Batch *b);
Game *batch_game(Batch *b);
void batch_close(Batch *b);

/* Subcommands (cli_run.c, cli_play.c). */
int cli_run(const CliOptions *o);
int cli_play(const CliOptions *o);
int cli_menu(const CliOptions *o);
int cli_uci(const CliOptions *o);
int cli_experiment(const CliOptions *o);
int cli_merge(const CliOptions *o);
/* `chessvar diagram` and `chessvar handout` (cli_diagram.c, issue 22). */
int cli_diagram(const CliOptions *o);
int cli_handout(const CliOptions *o);
/* `chessvar learn` (cli_learn.c, docs/LESSONS.md: issue 22 point 3). */
int cli_learn(const CliOptions *o);
/* `chessvar diff A B` (cli_diff.c, docs/TEACHING.md, issue 22). */
int cli_diff(const CliOptions *o);
/* The report of `chessvar diff` for o (o->json: its JSON; svg: the JSON,
 * each parting's boards also drawn as SVG by core/draw, for the browser)
 * appended to out: CLI_EXIT_OK, or CLI_EXIT_USAGE (a rule set that cannot
 * start) or CLI_EXIT_FAIL with e. */
int cli_diff_report(const CliOptions *o, int svg, StrBuf *out, Error *e);
/* `chessvar experiment` as a library (cli_experiment.c; the server's
 * experiments, core/web/labjobs.c, issue 23): the experiment o describes
 * (o must outlive it), set up as the command does (NULL with e and
 * *status); its tasks (games of A, then of B) played one at a time into
 * *out (-1 with e: the command's message).  Sorted by task, the games make
 * the command's report (exp_report_text, exp_json, exp_svg). */
typedef struct CliExpRun CliExpRun;
struct ExpInfo;
struct ExpGame;
CliExpRun *cli_exp_open(const CliOptions *o, Error *e, int *status);
const struct ExpInfo *cli_exp_info(const CliExpRun *x);
long cli_exp_tasks(const CliExpRun *x);
int cli_exp_play(CliExpRun *x, long t, struct ExpGame *out, Error *e);
void cli_exp_close(CliExpRun *x);
/* `chessvar serve` (core/web/serve.c, docs/WEB.md). */
int cli_serve(const CliOptions *o);
/* The menu's questions: does it ask how many sides play v (min_sides <
 * max_sides)?  The answer to "how many (lo to hi, Enter: def)": 0 with *n,
 * or -1 with e naming what is wrong (the question is then asked again). */
int cli_menu_asks_sides(const VariantOps *v);
int cli_menu_count(const char *line, int lo, int hi, int def, int *n, Error *e);

#endif
