/*
 * cli.c -- the `chessvar` command line: subcommands, options, help, and
 * the small commands (list, params, perft, legal).
 *
 * Invariant: each command accepts exactly the options its table entry
 * names; anything else is refused with a message listing what is valid,
 * before a game is started.  Errors go to stderr as "chessvar CMD: ...".
 */
#include "cli.h"
#include "../lua/house.h"

#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../record/record.h"

enum {
    OPT_FEN = 1 << 0,
    OPT_SEED = 1 << 1,
    OPT_LOAD = 1 << 2,
    OPT_PARAM = 1 << 3,
    OPT_SIDES = 1 << 4,
    OPT_ASCII = 1 << 5,
    OPT_JSON = 1 << 6,
    OPT_DEPTH = 1 << 7,
    OPT_DIVIDE = 1 << 8,
    OPT_BOTTOM = 1 << 9,
    OPT_SEATS = 1 << 10,
    OPT_RULES = 1 << 11,
    OPT_VARIANT = 1 << 12,
    OPT_BOT = 1 << 13,
    OPT_DELAY = 1 << 14,
    OPT_GAMES = 1 << 15,
    OPT_JOBS = 1 << 16,
    OPT_MAX_PLIES = 1 << 17,
    OPT_SHARD = 1 << 18,
    OPT_SVG = 1 << 19,
    OPT_SAVE_GAMES = 1 << 20,
    OPT_COMPARE = 1 << 21,
    OPT_TRUST_RULES = 1 << 22,
    OPT_HOOK_MS = 1 << 23,
    OPT_HOOK_GAME_MS = 1 << 24,
    OPT_PORT = 1 << 25,
    OPT_HOST = 1 << 26,
    OPT_DATA = 1 << 27,
    OPT_SCRIPTS = 1 << 28,
    OPT_ARROWS = 1 << 29,
    OPT_MARKS = 1 << 30
};
/* Past an int's bits: option sets are 64 bits wide. */
#define OPT_SEAT ((uint64_t)1 << 31)
#define OPT_HTML ((uint64_t)1 << 32)
#define OPT_WINDOW ((uint64_t)1 << 33)
#define OPT_LESSONS ((uint64_t)1 << 34)
#define OPT_CHECK ((uint64_t)1 << 35)
#define OPT_MAX_GAMES ((uint64_t)1 << 36)
#define OPT_BUDGET ((uint64_t)1 << 37)
#define OPT_PRACTICE ((uint64_t)1 << 38)
#define OPT_UNTIL ((uint64_t)1 << 39)
#define OPT_MOVES ((uint64_t)1 << 40)

typedef struct OptionDef {
    const char *name;
    uint64_t bit;
    const char *arg; /* NULL: a flag */
    const char *doc;
} OptionDef;

static const OptionDef OPTIONS[] = {
    {"--fen", OPT_FEN, "POS", "start from this position (FEN for orthodox chess)"},
    {"--seed", OPT_SEED, "N", "seed of the game's random generator (0 .. 2^64-1)"},
    {"--load", OPT_LOAD, "FILE", "start from the game saved in FILE (its variant, "
                                 "parameters and seed)"},
    {"--param", OPT_PARAM, "NAME=VALUE", "set a variant parameter; repeatable "
                                         "(chessvar params VARIANT lists them)"},
    {"--sides", OPT_SIDES, "N", "number of sides (the variant's default otherwise)"},
    {"--seats", OPT_SEATS, "N", "number of players, where the variant allows a choice "
                                "(L'Échiqueté: 2 or 3)"},
    {"--ascii", OPT_ASCII, NULL, "draw pieces as letters (K/k) instead of Unicode"},
    {"--json", OPT_JSON, NULL, "answer every command with one JSON object per line"},
    {"--depth", OPT_DEPTH, "N", "depth of the perft search (plies)"},
    {"--divide", OPT_DIVIDE, NULL, "one 'move: count' line per root action"},
    {"--bottom", OPT_BOTTOM, "SIDE", "keep SIDE at the bottom of the board (default: "
                                     "the side of the seat to act)"},
    {"--rules", OPT_RULES, "FILE", "house rules: a Lua script; repeatable, applied in "
                                   "order (docs/HOUSE-RULES.md)"},
    {"--trust-rules", OPT_TRUST_RULES, NULL, "run the house-rule scripts a --load record "
                                             "carries (they are code: only from people "
                                             "you trust)"},
    {"--bot", OPT_BOT, "SEAT=LEVEL", "a bot plays SEAT: random, greedy or search (search:N "
                                     "nodes a move, search:Nms milliseconds); repeatable "
                                     "(every seat may be a bot: watch the game)"},
    {"--delay", OPT_DELAY, "MS", "wait MS milliseconds after each bot's move (0 .. 60000)"},
    {"--variant", OPT_VARIANT, "NAME", "the variant to check the scripts against "
                                       "(default: orthodox)"},
    {"--games", OPT_GAMES, "N", "games to play (per rule set; default 100)"},
    {"--jobs", OPT_JOBS, "J", "play in J processes at once (1 .. 64; default 1)"},
    {"--max-plies", OPT_MAX_PLIES, "N", "stop a game after N plies (default 1000)"},
    {"--shard", OPT_SHARD, "K/N", "play only the K-th of N parts (with --seed); "
                                  "chessvar merge joins the --json parts"},
    {"--svg", OPT_SVG, "FILE", "write a chart of the figures to FILE (SVG)"},
    {"--save-games", OPT_SAVE_GAMES, "DIR", "save every game in DIR as a record "
                                            "(play --load replays it)"},
    {"--hook-ms", OPT_HOOK_MS, "MS", "wall time of one house-rule hook call (1 .. 600000; "
                                     "default 1000)"},
    {"--hook-game-ms", OPT_HOOK_GAME_MS, "MS", "wall time of all of one game's house-rule "
                                               "hook calls together (1 .. 86400000; "
                                               "default 300000)"},
    {"--port", OPT_PORT, "P", "the port to listen on (default 8080; 0: a free one)"},
    {"--host", OPT_HOST, "ADDR", "the address to listen on (default 127.0.0.1; 0.0.0.0: "
                                 "every network of this machine)"},
    {"--data", OPT_DATA, "DIR", "keep every game in DIR (records and tokens, written "
                                "after each change) and load them at the start"},
    {"--scripts", OPT_SCRIPTS, "DIR", "the house rules offered in the lobby: the *.lua of "
                                      "DIR and of its folders (default: scripts)"},
    {"--lessons", OPT_LESSONS, "FILE", "a lesson file of your own (docs/LESSONS.md)"},
    {"--check", OPT_CHECK, NULL, "play every lesson's solution and wrong answers"},
    {"--max-games", OPT_MAX_GAMES, "N", "games held in memory at most (1 .. 100000; default "
                                        "1000): when full, the oldest game over, or one idle "
                                        "an hour with --data, makes room"},
    {"--until", OPT_UNTIL, "clear", "play round by round; stop when the answer is clear "
                                    "or at --max-games (clear:METRIC names it: SEAT-wins, "
                                    "draws, decisive, length, score)"},
    {"--compare", OPT_COMPARE, NULL, "the --rules and --param after it make a second "
                                     "rule set, B, played on the same seeds"},
    {"--arrows", OPT_ARROWS, "LIST", "arrows to draw: e2e4,g1f3 (the plane: 0,0-1,1;2,0-2,2); "
                                     "repeatable"},
    {"--marks", OPT_MARKS, "LIST", "squares to mark: e4,d5 (the plane: 0,0;1,-1); repeatable"},
    {"--seat", OPT_SEAT, "SEAT", "draw what SEAT may know (default: a spectator, what "
                                 "every seat knows)"},
    {"--html", OPT_HTML, "FILE", "write the page to FILE ('-': standard output)"},
    {"--window", OPT_WINDOW, "X0,Y0,X1,Y1", "the open plane's squares to draw, from the "
                                           "lowest corner to the highest (default: the "
                                           "pieces and a margin)"},
    {"--budget", OPT_BUDGET, "N", "plies the search for parting positions may play "
                                  "(1 .. 10000000; default 2000)"},
    {"--practice", OPT_PRACTICE, "N", "also play N random games of each rule set and "
                                      "give the experiment's figures side by side"},
    {"--moves", OPT_MOVES, "LIST", "play these actions first, in order, separated by "
                                   "spaces (machine notation: \"e2e4 e7e5\"), each "
                                   "through the game and its house rules"},
};

enum { VARIANT_NONE, VARIANT_REQUIRED, VARIANT_OPTIONAL };

typedef struct CommandDef {
    const char *name;
    const char *usage;     /* after "chessvar NAME " */
    uint64_t opts;
    int variant;           /* VARIANT_* */
    const char *summary;
    const char *details;
    int (*fn)(const CliOptions *o);
} CommandDef;

static int cmd_list(const CliOptions *o);
static int cmd_params(const CliOptions *o);
static int cmd_perft(const CliOptions *o);
static int cmd_legal(const CliOptions *o);
static int cmd_help(const CliOptions *o);
static int cmd_rules(const CliOptions *o);
static int cmd_check(const CliOptions *o);

#define GAME_OPTS \
    (OPT_FEN | OPT_SEED | OPT_LOAD | OPT_PARAM | OPT_SIDES | OPT_SEATS | OPT_RULES | \
     OPT_TRUST_RULES | OPT_HOOK_MS | OPT_HOOK_GAME_MS)

static const CommandDef COMMANDS[] = {
    {"menu", "[--ascii] [--seed N] [--bottom SIDE]", OPT_ASCII | OPT_SEED | OPT_BOTTOM,
     VARIANT_NONE,
     "choose a variant from a menu, then play it in the terminal (hot-seat)",
     "This is also what 'chessvar' without arguments does.", cli_menu},
    {"list", "", 0, VARIANT_NONE, "list the variants, one per line",
     "Each line: name, title, summary.", cmd_list},
    {"params", "VARIANT [--param NAME=VALUE]...", OPT_PARAM, VARIANT_REQUIRED,
     "list a variant's parameters",
     "One line each: name, type, default (and the value given with --param),\n"
     "the rule it belongs to, what it does and its valid values.", cmd_params},
    {"play", "VARIANT [--fen POS] [--seed N] [--load FILE] [--param NAME=VALUE]...\n"
             "                     [--sides N] [--seats N] [--ascii] [--bottom SIDE]\n"
             "                     [--rules FILE]... [--trust-rules] [--bot SEAT=LEVEL]...\n"
             "                     [--delay MS]",
     GAME_OPTS | OPT_ASCII | OPT_BOTTOM | OPT_BOT | OPT_DELAY, VARIANT_OPTIONAL,
     "play a game in the terminal, hot-seat",
     "The board is shown from the point of view of the seat to act.  Type\n"
     "'help' at the prompt for the commands.  With --load the variant may be\n"
     "left out; a finished game loaded this way can be stepped through.\n"
     "--bottom white keeps White at the bottom (for a projector).", cli_play},
    {"rules", "VARIANT [--param NAME=VALUE]... [--rules FILE]...", OPT_PARAM | OPT_RULES,
     VARIANT_REQUIRED,
     "the rules of a variant as chessvar plays them",
     "Numbered as in docs/RULES.md (ORTH-1 ...), with the parameters' values;\n"
     "a value given with --param that differs from the default is marked.\n"
     "With --rules, each script's name and description follow.",
     cmd_rules},
    {"uci", "[--seed N]", OPT_SEED, VARIANT_NONE,
     "speak the UCI protocol (orthodox chess) with the search bot",
     "For chess GUIs and match tools: uci, debug, isready, setoption (Nodes),\n"
     "ucinewgame, position startpos|fen FEN [moves ...], go [depth N] [nodes N]\n"
     "[movetime MS] [wtime MS btime MS winc MS binc MS movestogo N] [mate N]\n"
     "[searchmoves M...] [infinite] [ponder], stop, ponderhit, quit; an info\n"
     "line per search depth; input is read while it thinks.  docs/BOTS.md.", cli_uci},
    {"check", "FILE... [--variant NAME] [--hook-ms MS] [--hook-game-ms MS]",
     OPT_VARIANT | OPT_HOOK_MS | OPT_HOOK_GAME_MS,
     VARIANT_NONE,
     "check house-rule scripts without playing",
     "Loads each script against the variant (orthodox unless --variant says;\n"
     "without it, a script whose variants field leaves orthodox out is checked\n"
     "against the first variant it names),\n"
     "makes a game with it and runs its hooks on the start position and 8\n"
     "plies of a random game (seed 1): one line per script, 'FILE: ok (NAME)'\n"
     "or the problem with file:line and the hook, then what the script\n"
     "printed ('  print: ...').  Exit status 0 when every script is clean, 1\n"
     "otherwise.", cmd_check},
    {"perft", "VARIANT [--fen POS] --depth N [--divide] [--param NAME=VALUE]...\n"
              "                      [--rules FILE]... [--load FILE [--trust-rules]]\n"
              "                      [--moves LIST]",
     GAME_OPTS | OPT_DEPTH | OPT_DIVIDE | OPT_MOVES, VARIANT_OPTIONAL,
     "count the leaves of the action tree, like Stockfish's 'go perft'",
     "With --divide, one 'action: count' line per root action (machine\n"
     "notation, UCI for chess), then an empty line.  Always a last line\n"
     "'Nodes searched: N'.  A branch ends where no seat is to act or it has\n"
     "no action, or a house rule ended the game; the automatic draws (75 moves,\n"
     "fivefold repetition, dead material) end none inside the tree, as in\n"
     "the published counts; a game already over at the root counts 0.\n"
     "--moves plays actions first, as the seats to act would type them, so\n"
     "the count starts where a house rule's schedule stands after them (a\n"
     "turn's second move); an action refused stops it, naming the action.",
     cmd_perft},
    {"legal", "VARIANT [--fen POS] [--param NAME=VALUE]... [--rules FILE]...\n"
              "                      [--load FILE [--trust-rules]] [--moves LIST]",
     GAME_OPTS | OPT_MOVES, VARIANT_OPTIONAL,
     "list the legal actions of the seat to act, one per line",
     "Machine notation (UCI for chess); resign and draw actions are not\n"
     "listed.", cmd_legal},
    {"run", "VARIANT [--fen POS] [--seed N] [--load FILE] [--param NAME=VALUE]...\n"
            "                    [--sides N] [--seats N] [--json] [--ascii]\n"
            "                    [--rules FILE]... [--trust-rules]",
     GAME_OPTS | OPT_JSON | OPT_ASCII, VARIANT_OPTIONAL,
     "batch mode: read commands from standard input, answer each",
     "One command per line; blank lines and lines starting with # are\n"
     "ignored.  Type 'help' for the commands.  --json answers each command\n"
     "with exactly one JSON object on one line (docs/PROTOCOL.md).  Exit\n"
     "status 0 if every command succeeded, 1 if any failed.", cli_run},
    {"experiment", "VARIANT [--games N] [--bot SEAT=LEVEL]... [--param NAME=VALUE]...\n"
                   "                   [--rules FILE]... [--seed N] [--jobs J] [--json]\n"
                   "                   [--svg FILE] [--save-games DIR] [--shard K/N]\n"
                   "                   [--max-plies N] [--sides N] [--seats N] [--fen POS]\n"
                   "                   [--until clear[:METRIC] [--max-games N]]\n"
                   "                   [--compare [--rules FILE]... [--param NAME=VALUE]...]",
     OPT_FEN | OPT_SEED | OPT_PARAM | OPT_SIDES | OPT_SEATS | OPT_RULES | OPT_BOT | OPT_JSON |
         OPT_GAMES | OPT_JOBS | OPT_MAX_PLIES | OPT_SHARD | OPT_SVG | OPT_SAVE_GAMES |
         OPT_COMPARE | OPT_HOOK_MS | OPT_HOOK_GAME_MS | OPT_UNTIL | OPT_MAX_GAMES,
     VARIANT_REQUIRED,
     "play many bot games and report what the rules do (wins, draws, length)",
     "Seats without --bot are played by the random bot; the players rotate\n"
     "through the seats game after game.  The report gives each seat's wins,\n"
     "the draws and decisive games with 95% intervals, the length, the\n"
     "branching factor, how games ended and, for two players, the score and\n"
     "Elo difference.  --compare plays a second rule set on the same seeds\n"
     "and says what changed.  --until clear plays round by round and stops as\n"
     "soon as a sequential test (5% error rate) settles B - A of the metric\n"
     "(default: P1's score when the players differ, else the first seat's\n"
     "wins; without --compare: P1's score against 50%).  docs/EXPERIMENTS.md.",
     cli_experiment},
    {"merge", "FILE... [--json] [--svg FILE]", OPT_JSON | OPT_SVG, VARIANT_NONE,
     "join the --json parts of an experiment played with --shard",
     "Prints the report of the whole experiment, the same as one run would;\n"
     "every part must come from the same experiment and each game must be\n"
     "there exactly once.  docs/EXPERIMENTS.md.", cli_merge},
    {"serve", "[--port P] [--host ADDR] [--data DIR] [--scripts DIR] [--max-games N]",
     OPT_PORT | OPT_HOST | OPT_DATA | OPT_SCRIPTS | OPT_MAX_GAMES, VARIANT_NONE,
     "serve the games to browsers: one device per seat, spectators, bots",
     "Prints the address to open (and a QR code of it when --host is not a\n"
     "loopback address).  Every variant, its parameters and the house rules of\n"
     "--scripts are offered in the page; each seat gets a private link.  With\n"
     "--data every game is written after each change and loaded back at the\n"
     "next start.  Ctrl-C (or SIGTERM) stops it.  docs/WEB.md.", cli_serve},
    {"diagram", "VARIANT [--fen POS] [--param NAME=VALUE]... [--rules FILE]...\n"
                "                      [--sides N] [--seats N] [--seed N] [--load FILE]\n"
                "                      [--arrows LIST] [--marks LIST] [--seat SEAT]\n"
                "                      [--window X0,Y0,X1,Y1] --svg FILE",
     GAME_OPTS | OPT_ARROWS | OPT_MARKS | OPT_SEAT | OPT_WINDOW | OPT_SVG, VARIANT_OPTIONAL,
     "draw a position as an SVG diagram, with arrows and marked squares",
     "The board of the browser's page, as a file: what the seat (or a\n"
     "spectator) may know, masked, merged and trapped pieces, checks, every\n"
     "colour, Tile's plane around its pieces.  docs/DIAGRAMS.md.", cli_diagram},
    {"handout", "VARIANT [--param NAME=VALUE]... --html FILE",
     OPT_PARAM | OPT_HTML, VARIANT_REQUIRED,
     "a printable page: the rules by difference, diagrams, exercises",
     "One HTML file, nothing to fetch: the variant's rules as it differs from\n"
     "orthodox chess with a diagram per rule, then exercises, their solutions\n"
     "on the last page, all drawn under the parameters given, for the\n"
     "variant's default number of sides.  Print it from a browser.\n"
     "docs/DIAGRAMS.md.", cli_handout},
    {"learn", "[VARIANT [LESSON]] [--lessons FILE] [--check] [--ascii]",
     OPT_LESSONS | OPT_CHECK | OPT_ASCII, VARIANT_NONE,
     "lessons: each rule of a variant, taught by difference from orthodox chess",
     "Without a variant: how many lessons each variant has.  With one: its\n"
     "lessons, numbered.  With a lesson (its number or name): plays it -- the\n"
     "goal, the board, your answers; a wrong one is refused with the rule's\n"
     "explanation; 'hint' helps.  Exit status 0 once the lesson is done, 1\n"
     "if it is left undone.  --check plays every lesson's solution and wrong\n"
     "answers and names the rules without a lesson (exit status 1 if a lesson\n"
     "fails).  docs/LESSONS.md.", cli_learn},
    {"diff", "A [--param NAME=VALUE]... [--rules FILE]... B [--param NAME=VALUE]...\n"
             "                     [--rules FILE]... [--seed N] [--budget N] [--practice N]\n"
             "                     [--json] [--ascii]",
     OPT_PARAM | OPT_RULES | OPT_SEED | OPT_BUDGET | OPT_PRACTICE | OPT_JSON | OPT_ASCII,
     VARIANT_REQUIRED,
     "what changes between two rule sets, and positions where they part",
     "A and B are variants; the --param and --rules after a variant's name are\n"
     "its own (chessvar diff orthodox orthodox --rules scripts/atomic.lua).\n"
     "Prints the card of changes by area, then the positions where the two\n"
     "part, found by playing both in step from the start (seed 1 unless\n"
     "--seed), each with the rule that makes the difference.  docs/TEACHING.md.",
     cli_diff},
    {"help", "[COMMAND]", 0, VARIANT_NONE, "help on chessvar or on one command",
     "", cmd_help},
};

/* ---- Help --------------------------------------------------------------- */

static const CommandDef *command_find(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++)
        if (strcmp(COMMANDS[i].name, name) == 0)
            return &COMMANDS[i];
    return NULL;
}

static void command_names(StrBuf *b)
{
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++)
        sb_printf(b, "%s%s", i ? ", " : "", COMMANDS[i].name);
}

static void variant_names(StrBuf *b)
{
    for (int i = 0; variant_registry[i]; i++)
        sb_printf(b, "%s%s", i ? ", " : "", variant_registry[i]->name);
}

static void print_main_help(void)
{
    fputs("usage: chessvar [COMMAND] [ARGUMENTS]\n\n"
          "A rules-variant sandbox for chess.  Without a command: the variant\n"
          "menu, then a game in the terminal.\n\ncommands:\n", stdout);
    int w = 0; /* the summaries line up after the longest name */
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++)
        w = (int)strlen(COMMANDS[i].name) > w ? (int)strlen(COMMANDS[i].name) : w;
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++)
        printf("  %-*s %s\n", w, COMMANDS[i].name, COMMANDS[i].summary);
    fputs("\nvariants:", stdout);
    for (int i = 0; variant_registry[i]; i++)
        printf(" %s", variant_registry[i]->name);
    fputs("\n\n'chessvar help COMMAND' or 'chessvar COMMAND --help' shows a command's\n"
          "options.  docs/PROTOCOL.md describes every command and the JSON of\n"
          "batch mode.\n", stdout);
}

/* What an option does for command c: its table line, unless the command
 * gives the option another meaning (--json of experiment, merge, diff). */
static const char *option_doc(const CommandDef *c, const OptionDef *d)
{
    static const struct {
        const char *command;
        uint64_t bit;
        const char *doc;
    } OWN[] = {
        {"experiment", OPT_JSON, "print the report as JSON instead of text: the rule "
                                 "sets, every game, the figures (merge reads it)"},
        {"experiment", OPT_MAX_GAMES, "with --until: games per rule set at most (1 .. "
                                      "100000000; default 10000)"},
        {"merge", OPT_JSON, "print the merged report as JSON, as experiment --json does"},
        {"diagram", OPT_SVG, "write the diagram to FILE ('-': standard output)"},
        {"diff", OPT_JSON, "print the whole answer as one JSON object (docs/TEACHING.md)"},
        {"diff", OPT_SEED, "seed of the search's lines and of the games (default 1)"},
    };
    for (size_t i = 0; i < ARRAY_LEN(OWN); i++)
        if (OWN[i].bit == d->bit && strcmp(OWN[i].command, c->name) == 0)
            return OWN[i].doc;
    return d->doc;
}

static void print_command_help(const CommandDef *c)
{
    printf("usage: chessvar %s %s\n\n%s.\n", c->name, c->usage, c->summary);
    if (c->details[0])
        printf("%s\n", c->details);
    if (c->opts) {
        fputs("\noptions:\n", stdout);
        for (size_t i = 0; i < ARRAY_LEN(OPTIONS); i++) {
            const OptionDef *d = &OPTIONS[i];
            if (!(c->opts & d->bit))
                continue;
            char head[40];
            snprintf(head, sizeof head, "%s%s%s", d->name, d->arg ? " " : "",
                     d->arg ? d->arg : "");
            printf("  %-18s %s\n", head, option_doc(c, d));
        }
    }
    fputs("  --help             this text\n", stdout);
}

static int cmd_help(const CliOptions *o)
{
    (void)o;
    print_main_help();
    return CLI_EXIT_OK;
}

/* ---- Parsing ------------------------------------------------------------ */

static int usage_error(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "chessvar%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return CLI_EXIT_USAGE;
}

/* Digits only: strtoull alone would skip blanks and take a sign, so
 * " -1" became 2^64-1 (issue 8, item 5). */
static int parse_u64(const char *s, uint64_t *out)
{
    char *end;
    if (s[0] < '0' || s[0] > '9')
        return -1;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end)
        return -1;
    *out = (uint64_t)x;
    return 0;
}

static int parse_int(const char *s, int lo, int hi, int *out)
{
    uint64_t x;
    if (parse_u64(s, &x) || x < (uint64_t)lo || x > (uint64_t)hi)
        return -1;
    *out = (int)x;
    return 0;
}

/* "K/N" with 1 <= K <= N <= 1000000. */
static int parse_shard(const char *s, int *k, int *n)
{
    const char *slash = strchr(s, '/');
    char buf[32];
    if (!slash || (size_t)(slash - s) >= sizeof buf)
        return -1;
    memcpy(buf, s, (size_t)(slash - s));
    buf[slash - s] = 0;
    return parse_int(buf, 1, 1000000, k) || parse_int(slash + 1, 1, 1000000, n) || *k > *n
               ? -1 : 0;
}

static int option_value(const CommandDef *c, const OptionDef *d,
                        const char *val, CliOptions *o)
{
    if (o->compare && (d->bit & (OPT_BOT | OPT_SIDES | OPT_SEATS | OPT_FEN | OPT_SEED |
                                 OPT_GAMES | OPT_MAX_PLIES | OPT_UNTIL | OPT_MAX_GAMES)))
        return usage_error(c->name, "%s after --compare: it is the same for both rule sets, "
                                    "give it before --compare (after it, --rules and "
                                    "--param make the second rule set)", d->name);
    if (o->variant_b && (d->bit == OPT_RULES || d->bit == OPT_PARAM)) {
        /* diff: after B's name, B's own (issue 22) */
        if (d->bit == OPT_RULES ? o->cmp_nrules == CLI_MAX_RULES
                                : o->cmp_nparams == CLI_MAX_PARAMS)
            return usage_error(c->name, "too many %s options (at most %d)", d->name,
                               d->bit == OPT_RULES ? CLI_MAX_RULES : CLI_MAX_PARAMS);
        if (d->bit == OPT_RULES)
            o->cmp_rules[o->cmp_nrules++] = val;
        else
            o->cmp_params[o->cmp_nparams++] = val;
        return 0;
    }
    if (o->compare && d->bit == OPT_RULES) {
        if (o->cmp_nrules == CLI_MAX_RULES)
            return usage_error(c->name, "too many --rules options (at most %d)",
                               CLI_MAX_RULES);
        o->cmp_rules[o->cmp_nrules++] = val;
        return 0;
    }
    if (o->compare && d->bit == OPT_PARAM) {
        if (o->cmp_nparams == CLI_MAX_PARAMS)
            return usage_error(c->name, "too many --param options (at most %d)",
                               CLI_MAX_PARAMS);
        o->cmp_params[o->cmp_nparams++] = val;
        return 0;
    }
    int n;
    switch (d->bit) {
    case OPT_GAMES:
        if (parse_int(val, 1, 100000000, &n))
            return usage_error(c->name, "--games %s: give a number from 1 to 100000000", val);
        o->games = n;
        break;
    case OPT_JOBS:
        if (parse_int(val, 1, 64, &o->jobs))
            return usage_error(c->name, "--jobs %s: give a number from 1 to 64", val);
        break;
    case OPT_MAX_PLIES:
        if (parse_int(val, 1, 1000000, &o->max_plies))
            return usage_error(c->name, "--max-plies %s: give a number from 1 to 1000000",
                               val);
        break;
    case OPT_SHARD:
        if (parse_shard(val, &o->shard_k, &o->shard_n))
            return usage_error(c->name, "--shard %s: write K/N, the K-th of N parts "
                                        "(1 <= K <= N), e.g. --shard 2/4", val);
        break;
    case OPT_BUDGET:
        if (parse_int(val, 1, 10000000, &n))
            return usage_error(c->name, "--budget %s: give a number of plies from 1 to "
                                        "10000000", val);
        o->budget = n;
        break;
    case OPT_PRACTICE:
        if (parse_int(val, 1, 100000, &n))
            return usage_error(c->name, "--practice %s: give a number of games from 1 to "
                                        "100000", val);
        o->practice = n;
        break;
    case OPT_SVG: o->svg = val; break;
    case OPT_HTML: o->html = val; break;
    case OPT_SEAT: o->seat = val; break;
    case OPT_WINDOW: o->window = val; break;
    case OPT_ARROWS:
    case OPT_MARKS:
        if (o->ndraw == CLI_MAX_DRAW)
            return usage_error(c->name, "too many --arrows and --marks options (at most %d)",
                               CLI_MAX_DRAW);
        o->draw[o->ndraw].arrows = d->bit == OPT_ARROWS;
        o->draw[o->ndraw++].text = val;
        break;
    case OPT_HOST: o->host = val; break;
    case OPT_DATA: o->data = val; break;
    case OPT_SCRIPTS: o->scripts = val; break;
    case OPT_LESSONS: o->lessons = val; break;
    case OPT_MAX_GAMES: {
        int most = c->fn == cli_experiment ? 100000000 : 100000;
        if (parse_int(val, 1, most, &o->max_games))
            return usage_error(c->name, "--max-games %s: give a number from 1 to %d", val,
                               most);
        break;
    }
    case OPT_UNTIL: o->until = val; break;
    case OPT_MOVES: o->moves = val; break;
    case OPT_PORT:
        if (parse_int(val, 0, 65535, &o->port))
            return usage_error(c->name, "--port %s: give a number from 0 to 65535 (0: a "
                                        "free port)", val);
        o->have_port = 1;
        break;
    case OPT_SAVE_GAMES: o->save_games = val; break;
    case OPT_FEN: o->fen = val; break;
    case OPT_LOAD: o->load = val; break;
    case OPT_BOTTOM: o->bottom = val; break;
    case OPT_SEED:
        if (parse_u64(val, &o->seed))
            return usage_error(c->name, "--seed %s: give a whole number from 0 to "
                                        "18446744073709551615", val);
        o->have_seed = 1;
        break;
    case OPT_SEATS:
        if (parse_int(val, 1, MAX_SEATS, &o->seats))
            return usage_error(c->name, "--seats %s: give a number from 1 to %d",
                               val, MAX_SEATS);
        break;
    case OPT_SIDES:
        if (parse_int(val, 1, MAX_SIDES, &o->sides))
            return usage_error(c->name, "--sides %s: give a number from 1 to %d",
                               val, MAX_SIDES);
        break;
    case OPT_DEPTH:
        if (parse_int(val, 0, 64, &o->depth))
            return usage_error(c->name, "--depth %s: give a whole number from 0 "
                                        "to 64", val);
        break;
    case OPT_VARIANT:
        o->variant = variant_find(val);
        if (!o->variant) {
            StrBuf b = STRBUF_INIT;
            variant_names(&b);
            usage_error(c->name, "--variant %s: unknown; the variants are: %s", val,
                        sb_str(&b));
            sb_free(&b);
            return CLI_EXIT_USAGE;
        }
        break;
    case OPT_BOT:
        if (o->nbots == CLI_MAX_SEATS_BOTS)
            return usage_error(c->name, "too many --bot options (at most %d)",
                               CLI_MAX_SEATS_BOTS);
        if (!strchr(val, '='))
            return usage_error(c->name, "--bot %s: write SEAT=LEVEL (e.g. --bot "
                                        "black=greedy)", val);
        o->bots[o->nbots++] = val;
        break;
    case OPT_HOOK_MS: /* issue 20 point 2: every hook call's wall time */
        if (parse_int(val, 1, 600000, &n))
            return usage_error(c->name, "--hook-ms %s: milliseconds from 1 to 600000", val);
        house_set_default_ms(n);
        break;
    case OPT_HOOK_GAME_MS: /* issue 20 point 2: a game's hook calls together */
        if (parse_int(val, 1, 86400000, &n))
            return usage_error(c->name, "--hook-game-ms %s: milliseconds from 1 to "
                                        "86400000", val);
        house_set_default_game_ms(n);
        break;
    case OPT_DELAY:
        if (parse_int(val, 0, 60000, &o->delay_ms))
            return usage_error(c->name, "--delay %s: milliseconds from 0 to 60000", val);
        break;
    case OPT_RULES:
        if (o->nrules == CLI_MAX_RULES)
            return usage_error(c->name, "too many --rules options (at most %d)",
                               CLI_MAX_RULES);
        o->rules[o->nrules++] = val;
        break;
    case OPT_PARAM:
        if (o->nparams == CLI_MAX_PARAMS)
            return usage_error(c->name, "too many --param options (at most %d)",
                               CLI_MAX_PARAMS);
        o->params[o->nparams++] = val;
        break;
    }
    return 0;
}

static void option_names(uint64_t opts, StrBuf *b)
{
    int first = 1;
    for (size_t i = 0; i < ARRAY_LEN(OPTIONS); i++) {
        if (!(opts & OPTIONS[i].bit))
            continue;
        sb_printf(b, "%s%s", first ? "" : ", ", OPTIONS[i].name);
        first = 0;
    }
    sb_printf(b, "%s--help", first ? "" : ", ");
}

static int unknown_option(const CommandDef *c, const char *arg)
{
    StrBuf b = STRBUF_INIT;
    option_names(c->opts, &b);
    usage_error(c->name, "unknown option '%s'; valid options: %s", arg, sb_str(&b));
    sb_free(&b);
    return CLI_EXIT_USAGE;
}

static int set_variant(const CommandDef *c, const char *name, CliOptions *o)
{
    o->variant = variant_find(name);
    if (o->variant)
        return 0;
    StrBuf b = STRBUF_INIT;
    variant_names(&b);
    usage_error(c->name, "unknown variant '%s'; the variants are: %s", name,
                sb_str(&b));
    sb_free(&b);
    return CLI_EXIT_USAGE;
}

/* One option at argv[*i] ("--seed 5" or "--seed=5"). */
static int parse_option(const CommandDef *c, int argc, char **argv, int *i,
                        CliOptions *o)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    for (size_t k = 0; k < ARRAY_LEN(OPTIONS); k++) {
        const OptionDef *d = &OPTIONS[k];
        if (strlen(d->name) != len || strncmp(d->name, arg, len) != 0)
            continue;
        if (!(c->opts & d->bit))
            return unknown_option(c, arg);
        if (!d->arg) {
            if (eq)
                return usage_error(c->name, "%s takes no value", d->name);
            if (d->bit == OPT_ASCII) o->ascii = 1;
            if (d->bit == OPT_JSON) o->json = 1;
            if (d->bit == OPT_DIVIDE) o->divide = 1;
            if (d->bit == OPT_TRUST_RULES) o->trust_rules = 1;
            if (d->bit == OPT_CHECK) o->check_lessons = 1;
            if (d->bit == OPT_COMPARE) {
                if (o->compare)
                    return usage_error(c->name, "--compare is given twice (one second "
                                                "rule set at most)");
                o->compare = 1;
            }
            return 0;
        }
        const char *val = eq ? eq + 1 : NULL;
        if (!val) {
            if (*i + 1 >= argc)
                return usage_error(c->name, "%s needs a value: %s", d->name, d->arg);
            val = argv[++*i];
        }
        return option_value(c, d, val, o);
    }
    return unknown_option(c, arg);
}

static int wants_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* Options and positional arguments after the command name. */
static int parse_args(const CommandDef *c, int argc, char **argv, int first,
                      CliOptions *o, const char **help_topic)
{
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (wants_help(a)) {
            print_command_help(c);
            return -1;
        }
        if (a[0] == '-' && a[1]) {
            int rc = parse_option(c, argc, argv, &i, o);
            if (rc)
                return rc;
            continue;
        }
        if (o->compare) {
            return usage_error(c->name, "'%s' after --compare: only options may follow it "
                                        "(--rules and --param make the second rule set)", a);
        } else if (c->fn == cmd_help && !*help_topic) {
            *help_topic = a;
        } else if (c->fn == cli_merge) {
            if (o->nfiles == CLI_MAX_FILES)
                return usage_error(c->name, "too many files (at most %d)", CLI_MAX_FILES);
            o->files[o->nfiles++] = a;
        } else if (c->fn == cli_learn && !o->variant && !o->lesson && variant_find(a)) {
            o->variant = variant_find(a);
        } else if (c->fn == cli_learn && !o->lesson) {
            o->lesson = a; /* checked by cli_learn: with --lessons, no variant */
        } else if (c->fn == cmd_check) {
            if (o->nrules == CLI_MAX_RULES)
                return usage_error(c->name, "too many scripts (at most %d)", CLI_MAX_RULES);
            o->rules[o->nrules++] = a;
        } else if (c->variant != VARIANT_NONE && !o->variant) {
            int rc = set_variant(c, a, o);
            if (rc)
                return rc;
        } else if (c->fn == cli_diff && !o->variant_b) {
            const VariantOps *va = o->variant;
            int rc = set_variant(c, a, o);
            if (rc)
                return rc;
            o->variant_b = o->variant;
            o->variant = va;
        } else {
            return usage_error(c->name, "unexpected argument '%s'%s; see "
                               "'chessvar help' for the usage", a,
                               c->variant != VARIANT_NONE ? " (one variant only)" : "");
        }
    }
    if (c->fn == cli_merge && !o->nfiles)
        return usage_error(c->name, "name the JSON parts to join: chessvar merge FILE...");
    if (c->fn == cmd_check && !o->nrules)
        return usage_error(c->name, "name the scripts to check: chessvar check FILE...");
    if (c->fn == cli_diff && !o->variant_b) {
        StrBuf b = STRBUF_INIT;
        variant_names(&b);
        usage_error(c->name, "name two rule sets: chessvar diff A B, e.g. chessvar diff "
                             "orthodox masques (variants: %s)", sb_str(&b));
        sb_free(&b);
        return CLI_EXIT_USAGE;
    }
    if (c->variant == VARIANT_REQUIRED && !o->variant) {
        StrBuf b = STRBUF_INIT;
        variant_names(&b);
        usage_error(c->name, "name a variant: chessvar %s VARIANT (variants: %s)",
                    c->name, sb_str(&b));
        sb_free(&b);
        return CLI_EXIT_USAGE;
    }
    if (c->variant == VARIANT_OPTIONAL && !o->variant && !o->load) {
        StrBuf b = STRBUF_INIT;
        variant_names(&b);
        usage_error(c->name, "name a variant or --load FILE (variants: %s)",
                    sb_str(&b));
        sb_free(&b);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static int help_on(const char *topic)
{
    const CommandDef *c = command_find(topic);
    if (!c) {
        StrBuf b = STRBUF_INIT;
        command_names(&b);
        usage_error("help", "unknown command '%s'; commands: %s", topic, sb_str(&b));
        sb_free(&b);
        return CLI_EXIT_USAGE;
    }
    print_command_help(c);
    return CLI_EXIT_OK;
}

/* ---- House rules ---------------------------------------------------------- */

#define SCRIPT_MAX (1u << 20) /* bytes of one script file */

House *cli_load_house(const VariantOps *v, int nsides, const char *const *paths, int n,
                         Error *e)
{
    return cli_load_house_limited(v, nsides, paths, n, NULL, e);
}

House *cli_load_house_limited(const VariantOps *v, int nsides, const char *const *paths,
                              int n, const HouseLimits *lim, Error *e)
{
    HouseSource src[CLI_MAX_RULES];
    StrBuf text[CLI_MAX_RULES];
    int k = 0;
    House *h = NULL;
    for (; k < n; k++) {
        sb_init(&text[k]);
        /* issue 24: FILE:name=value,... gives the script arguments; the
         * name keeps them (house_load reads them, a record carries them) */
        const char *args = house_script_args(paths[k]);
        StrBuf file = STRBUF_INIT;
        sb_putn(&file, paths[k], args ? (size_t)(args - 1 - paths[k]) : strlen(paths[k]));
        int bad = file.failed ? err_set(e, "out of memory")
                              : record_read_file(sb_str(&file), "script", SCRIPT_MAX,
                                                 &text[k], e);
        sb_free(&file);
        if (bad) {
            sb_free(&text[k]);
            break;
        }
        src[k].name = paths[k];
        src[k].text = sb_str(&text[k]);
        src[k].len = text[k].len;
    }
    if (k == n)
        h = house_load(v, nsides, src, n, lim, e);
    while (k-- > 0)
        sb_free(&text[k]);
    return h;
}

/* Issue 8, item 4: every command's output is checked at the end (a full
 * disk, a closed pipe): a lost write is a failure, exit 1 with a message,
 * unless the command failed already. */
static int finish_output(const char *cmd, int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return rc;
    if (rc == CLI_EXIT_OK) {
        fprintf(stderr, "chessvar%s%s: cannot write the output: %s\n", cmd ? " " : "",
                cmd ? cmd : "", strerror(errno ? errno : EIO));
        return CLI_EXIT_FAIL;
    }
    return rc;
}

static int cli_dispatch(int argc, char **argv, const char **name);

int cli_main(int argc, char **argv)
{
    const char *name = NULL;
    int rc = cli_dispatch(argc, argv, &name);
    return finish_output(name, rc);
}

/* Parse argv and run the command; *name gets the command's name. */
static int cli_dispatch(int argc, char **argv, const char **name)
{
    CliOptions o;
    memset(&o, 0, sizeof o);
    o.depth = -1;
    house_set_default_ms(0); /* until --hook-ms says otherwise */
    house_set_default_game_ms(0); /* and --hook-game-ms */
    const CommandDef *c;
    int first = 2;
    if (argc < 2) {
        c = command_find("menu");
    } else if (wants_help(argv[1])) {
        print_main_help();
        return CLI_EXIT_OK;
    } else if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        if (argc > 2)
            return usage_error(NULL, "--version takes no arguments");
        printf("chessvar %s\n", CHESSVAR_VERSION);
        return CLI_EXIT_OK;
    } else if (argv[1][0] == '-') {
        c = command_find("menu"); /* "chessvar --ascii" */
        first = 1;
    } else {
        c = command_find(argv[1]);
        if (!c) {
            StrBuf b = STRBUF_INIT;
            command_names(&b);
            usage_error(NULL, "unknown command '%s'; commands: %s (see "
                        "'chessvar --help')", argv[1], sb_str(&b));
            sb_free(&b);
            return CLI_EXIT_USAGE;
        }
    }
    o.command = c->name;
    *name = c->name;
    const char *topic = NULL;
    int rc = parse_args(c, argc, argv, first, &o, &topic);
    if (rc < 0)
        return CLI_EXIT_OK; /* --help was shown */
    if (rc)
        return rc;
    if (c->fn == cmd_help && topic)
        return help_on(topic);
    if (o.nrules && c->fn != cmd_check) {
        Error e = {""};
        if (o.load)
            return usage_error(c->name, "--rules with --load: a record is replayed with "
                                        "the rules it was played with");
        o.house = cli_load_house(o.variant, o.sides, o.rules, o.nrules, &e);
        if (!o.house)
            return usage_error(c->name, "%s%s", o.variant_b ? "A: " : "", e.msg);
    }
    if (o.cmp_nrules) {
        Error e = {""};
        o.cmp_house = cli_load_house(o.variant_b ? o.variant_b : o.variant, o.sides,
                                     o.cmp_rules, o.cmp_nrules, &e);
        if (!o.cmp_house) {
            house_free(o.house);
            return usage_error(c->name, "%s: %s", o.variant_b ? "B" : "after --compare",
                               e.msg);
        }
    }
    rc = c->fn(&o);
    house_free(o.house);
    house_free(o.cmp_house);
    return rc;
}

/* ---- Shared by the commands -------------------------------------------- */

uint64_t cli_fresh_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return mix64((uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec) ^
           mix64((uint64_t)getpid());
}

/* ---- A record's scripts run only with consent (issue 20 point 6) ------ */

typedef struct Consent {
    const CliOptions *o;
    CliAsk ask;         /* NULL: no terminal to ask, --trust-rules or refused */
    void *ctx;
    int declined;       /* asked, and not answered yes */
} Consent;

/* A name from a record as a message shows it: its head, control bytes as
 * '?' (the record is someone else's text). */
static const char *shown_name(char *buf, size_t n, const char *name)
{
    str_clip(buf, n, name);
    for (char *p = buf; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return buf;
}

static int consent_asked(void *ctx, const VariantOps *v, const RecordScript *s, int n,
                         Error *e)
{
    Consent *c = ctx;
    if (c->o->trust_rules)
        return 0;
    char file[100], name[64];
    str_clip(file, sizeof file, c->o->load);
    const char *hidden = v->version >= 2 && v->hidden_info
        ? "a rule script reads every hidden piece, and its refusals and finish "
          "texts reach the seat that acted" : NULL;
    if (!c->ask) {
        StrBuf b = STRBUF_INIT;
        int i = 0;
        for (; i < n && b.len < 300; i++) /* the rest counted: e has room */
            sb_printf(&b, "%s\"%s\" (sha256 %s, %zu bytes)", i ? ", " : "",
                      shown_name(name, sizeof name, s[i].name), s[i].sha256, s[i].len);
        if (i < n)
            sb_printf(&b, " and %d more", n - i);
        err_set(e, "%s carries house-rule script%s, code that runs only if you trust it "
                   "(add --trust-rules to run %s%s%s); nothing was run: %s", file,
                n == 1 ? "" : "s",
                n == 1 ? "it" : "them", hidden ? "; " : "", hidden ? hidden : "",
                sb_str(&b));
        sb_free(&b);
        return -1;
    }
    printf("%s carries %d house-rule script%s, code that runs on this computer only "
           "if you agree:\n", file, n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        printf("  %s  sha256 %s  %zu bytes\n", shown_name(name, sizeof name, s[i].name),
               s[i].sha256, s[i].len);
    if (hidden)
        printf("This game hides pieces: %s.\n", hidden);
    if (c->ask(c->ctx, n == 1 ? "Run it? (yes/no)> " : "Run them? (yes/no)> ") == 1)
        return 0;
    c->declined = 1;
    fflush(stdout); /* the answer's echo before the message on stderr */
    return err_set(e, "%s: its house rules were not run, so the game was not loaded "
                      "(to run them, answer yes or add --trust-rules)", file);
}

static Game *load_game(const CliOptions *o, CliAsk ask, void *ctx, Error *e,
                       int *status)
{
    const char *clash = o->fen ? "--fen" : o->nparams ? "--param"
                      : o->have_seed ? "--seed" : o->sides ? "--sides"
                      : o->seats ? "--seats" : NULL;
    if (clash) {
        *status = CLI_EXIT_USAGE;
        err_set(e, "--load takes the variant, parameters, seed and position from "
                   "the record; leave out %s", clash);
        return NULL;
    }
    *status = CLI_EXIT_FAIL;
    Consent c = {o, ask, ctx, 0};
    Game *g = record_load_file_asking(o->load, consent_asked, &c, o->record_limits, e);
    if (!g) {
        if (c.declined)
            *status = CLI_EXIT_OK; /* the user's own choice */
        return NULL;
    }
    if (o->variant && game_variant(g) != o->variant) {
        err_set(e, "%s holds a game of %s, not %s", o->load, game_variant(g)->name,
                o->variant->name);
        game_free(g);
        *status = CLI_EXIT_USAGE;
        return NULL;
    }
    return g;
}

/* "--param foo=1: ..." without saying "foo=1" twice. */
static void param_error(Error *e, const char *assign)
{
    if (strncmp(e->msg, assign, strlen(assign)) == 0)
        err_prefix(e, "--param");
    else
        err_prefix(e, "--param %s", assign);
}

Game *cli_start_game(const CliOptions *o, uint64_t default_seed, Error *e,
                     int *status)
{
    return cli_start_game_asking(o, default_seed, NULL, NULL, e, status);
}

Game *cli_start_game_asking(const CliOptions *o, uint64_t default_seed, CliAsk ask,
                            void *ctx, Error *e, int *status)
{
    if (o->load)
        return load_game(o, ask, ctx, e, status);
    *status = CLI_EXIT_USAGE;
    const VariantOps *v = o->variant;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.nsides = o->sides;
    cfg.nseats = o->seats;
    if (o->seats && !(v->version >= 2 && v->max_seats)) {
        err_set(e, "--seats %d: %s is played by one seat per side", o->seats, v->name);
        return NULL;
    }
    cfg.seed = o->have_seed ? o->seed : default_seed;
    cfg.position = o->fen;
    int setup = o->house && o->fen ? house_setup_script(o->house) : -1;
    if (setup >= 0) { /* issue 20 point 8: neither silently wins */
        err_set(e, "--fen and house rule %s both give the start position (its "
                   "setup): leave out one of them", house_name(o->house, setup));
        return NULL;
    }
    if (o->sides && (o->sides < v->min_sides || o->sides > v->max_sides)) {
        if (v->min_sides == v->max_sides)
            err_set(e, "--sides %d: %s is played by %d sides", o->sides, v->name,
                    v->min_sides);
        else
            err_set(e, "--sides %d: %s is played by %d to %d sides", o->sides,
                    v->name, v->min_sides, v->max_sides);
        return NULL;
    }
    params_defaults(v, &cfg.params);
    for (int i = 0; i < o->nparams; i++) {
        if (params_set(v, &cfg.params, o->params[i], e) < 0) {
            param_error(e, o->params[i]);
            return NULL;
        }
        /* issue 19 point 7: a start position that says the same wins,
         * so the parameter would be ignored: refused instead */
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(o->params[i], "="), o->params[i]);
        int k = params_index(v, name);
        if (o->fen && k >= 0 && v->params[k].position_field) {
            err_set(e, "--param %s and --fen both set %s: a position string decides "
                       "it with its %s field, so write it there or leave out --fen",
                    o->params[i], name, v->params[k].position_field);
            return NULL;
        }
    }
    GameHooks hooks;
    memset(&hooks, 0, sizeof hooks);
    if (o->house) { /* the command line first, then the scripts in order */
        if (house_params(o->house, &cfg.params, e))
            return NULL;
        hooks = house_hooks(o->house);
        cfg.scripts = house_scripts(o->house);
        cfg.nscripts = house_count(o->house);
    }
    cfg.params_set = 1;
    Game *g = game_new_hooked(&cfg, &hooks, e);
    if (!g && o->fen)
        err_prefix(e, "--fen");
    return g;
}

void cli_names(const Game *g, RenderNames *n)
{
    memset(n, 0, sizeof *n);
    n->nsides = game_nsides(g);
    for (int i = 0; i < n->nsides && i < MAX_SIDES; i++)
        n->side[i] = game_side_name(g, i);
    n->nseats = game_nseats(g);
    for (int i = 0; i < n->nseats && i < MAX_SEATS; i++)
        n->seat[i] = game_seat_name(g, i);
}

/* A View holding only what everyone knows: whose turn, the status. */
static void public_view(const Game *g, View *v)
{
    memset(v, 0, sizeof *v);
    v->seat = -1;
    v->nsides = game_nsides(g);
    v->side_to_move = game_side_to_move(g);
    v->seat_to_act = game_to_act(g);
    game_status(g, &v->status);
    const GameTurn *t = game_turn(g); /* a schedule's turn (issue 25) */
    if (t->moves > 0 && !v->status.over) {
        v->turn_number = t->number;
        v->turn_made = t->made;
        v->turn_moves = t->moves;
        v->turn_duck = t->duck;
    }
}

int cli_history_turns(const Game *g, int *out)
{
    int n = game_history_len(g), any = 0;
    for (int i = 0; i < n; i++)
        out[i] = 0;
    /* only a house rule runs a schedule, from the start on (its start
     * hook sets the first turn, which stays set after the end) */
    if (!game_hooked(g) || game_turn(g)->moves == 0 || n == 0)
        return 0;
    /* the turn is kept with the game, not with each action: replay the
     * actions on a copy taken back to the start */
    Game *c = game_clone(g);
    Error e;
    if (!c)
        return -1;
    if (game_undo(c, n, &e)) {
        game_free(c);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const GameTurn *t = game_turn(c);
        out[i] = t->moves > 0 ? t->number : 0;
        any |= out[i] > 0;
        if (game_apply(c, &game_history(g, i)->action, &e)) {
            game_free(c);
            return -1;
        }
    }
    game_free(c);
    return any;
}

void cli_status_line(const Game *g, StrBuf *out)
{
    View *v = malloc(sizeof *v);
    RenderNames n;
    if (!v)
        return;
    public_view(g, v);
    cli_names(g, &n);
    render_status_line(v, &n, out);
    free(v);
}

void cli_status_json(const Game *g, StrBuf *out)
{
    Status s;
    RenderNames n;
    game_status(g, &s);
    cli_names(g, &n);
    render_status_json(&s, &n, out);
}

int cli_use_color(void)
{
    const char *nc = getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) && !(nc && nc[0]);
}

/* ---- The small commands ------------------------------------------------- */

static int cmd_list(const CliOptions *o)
{
    (void)o;
    for (int i = 0; variant_registry[i]; i++) {
        const VariantOps *v = variant_registry[i];
        printf("%-12s %s%*s %s\n", v->name, v->title,
               24 - str_width(v->title) > 0 ? 24 - str_width(v->title) : 0, "",
               v->summary);
    }
    return CLI_EXIT_OK;
}

/* The variant's defaults with every --param applied; CLI_EXIT_USAGE
 * after a message on a bad one. */
static int options_params(const CliOptions *o, Params *p)
{
    Error e;
    params_defaults(o->variant, p);
    for (int i = 0; i < o->nparams; i++) {
        if (params_set(o->variant, p, o->params[i], &e) < 0) {
            param_error(&e, o->params[i]);
            fprintf(stderr, "chessvar %s: %s\n", o->command, e.msg);
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_EXIT_OK;
}

static int cmd_params(const CliOptions *o)
{
    Params p;
    if (options_params(o, &p))
        return CLI_EXIT_USAGE;
    StrBuf out = STRBUF_INIT;
    if (o->variant->nparams == 0)
        sb_printf(&out, "(%s has no parameters of its own)\n", o->variant->name);
    params_describe(o->variant, o->nparams ? &p : NULL, &out);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    return CLI_EXIT_OK;
}

/* Expand the variant's rules text: {NAME} becomes parameter NAME's value
 * in p, followed by "(default D)" when it differs from the default. */
static void rules_expand(const VariantOps *v, const Params *p, StrBuf *out)
{
    Params def;
    params_defaults(v, &def);
    for (const char *t = v->rules; *t; t++) {
        const char *close = *t == '{' ? strchr(t, '}') : NULL;
        char name[64];
        size_t n = close ? (size_t)(close - t - 1) : 0;
        int i = -1;
        if (close && n < sizeof name) {
            memcpy(name, t + 1, n);
            name[n] = '\0';
            i = params_index(v, name);
        }
        if (i < 0) {
            sb_putc(out, *t);
            continue;
        }
        StrBuf now = STRBUF_INIT, was = STRBUF_INIT;
        params_format_value(v, p, i, &now);
        params_format_value(v, &def, i, &was);
        sb_puts(out, sb_str(&now));
        if (strcmp(sb_str(&now), sb_str(&was)) != 0)
            sb_printf(out, " (default %s)", sb_str(&was));
        sb_free(&now);
        sb_free(&was);
        t = close;
    }
}

int cli_side_arg(const Game *g, const char *name, int *side, Error *e)
{
    for (int s = 0; s < game_nsides(g); s++) {
        if (str_ieq(name, game_side_name(g, s))) {
            *side = s;
            return 0;
        }
    }
    StrBuf b = STRBUF_INIT;
    for (int s = 0; s < game_nsides(g); s++)
        sb_printf(&b, "%s%s", s ? ", " : "", game_side_name(g, s));
    err_set(e, "no side '%s'; the sides are: %s (or auto)", name, sb_str(&b));
    sb_free(&b);
    return -1;
}

int cli_rules_text(const VariantOps *v, const Params *p, StrBuf *out)
{
    if (v->version < 2 || !v->rules) {
        sb_printf(out, "(no rules text for %s yet)\n", v->name);
        return -1;
    }
    rules_expand(v, p, out);
    if (v->nparams == 0)
        return 0;
    Params def;
    params_defaults(v, &def);
    sb_puts(out, "\nParameters of this game (chessvar params shows what each does):\n");
    for (int i = 0; i < v->nparams; i++) {
        StrBuf now = STRBUF_INIT, was = STRBUF_INIT;
        params_format_value(v, p, i, &now);
        params_format_value(v, &def, i, &was);
        int changed = strcmp(sb_str(&now), sb_str(&was)) != 0;
        sb_printf(out, "  %-21s %s%s%s%s\n", v->params[i].name, sb_str(&now),
                  changed ? "  (changed; default " : "", changed ? sb_str(&was) : "",
                  changed ? ")" : "");
        sb_free(&now);
        sb_free(&was);
    }
    return 0;
}

/* Text wrapped at 74 columns, each line indented by 4. */
static void put_wrapped(StrBuf *out, const char *text)
{
    int col = 0;
    for (const char *w = text; *w;) {
        while (*w == ' ' || *w == '\n')
            w++;
        size_t n = strcspn(w, " \n");
        if (!n)
            break;
        if (col && col + 1 + (int)n > 74) {
            sb_putc(out, '\n');
            col = 0;
        }
        sb_puts(out, col ? " " : "    ");
        sb_putn(out, w, n);
        col += (col ? 1 : 4) + (int)n;
        w += n;
    }
    if (col)
        sb_putc(out, '\n');
}

static int cmd_rules(const CliOptions *o)
{
    Params p;
    if (options_params(o, &p))
        return CLI_EXIT_USAGE;
    Error e = {""};
    if (o->house && house_params(o->house, &p, &e)) {
        fprintf(stderr, "chessvar rules: %s\n", e.msg);
        return CLI_EXIT_USAGE;
    }
    StrBuf out = STRBUF_INIT;
    int rc = cli_rules_text(o->variant, &p, &out);
    for (int i = 0; !rc && o->house && i < house_count(o->house); i++) {
        sb_printf(&out, "%sHouse rule %d: %s (%s)\n", i ? "" : "\n", i + 1,
                  house_title(o->house, i), house_name(o->house, i));
        put_wrapped(&out, house_description(o->house, i));
    }
    if (rc)
        fprintf(stderr, "chessvar rules: %s", sb_str(&out));
    else
        fputs(sb_str(&out), stdout);
    sb_free(&out);
    return rc ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* What a script printed (its House's log), each line as "  print: ...",
 * control characters shown as '?' (issue 20 point 8: check is where a
 * script's print can be read). */
static void print_house_log(const char *log)
{
    while (*log) {
        size_t n = strcspn(log, "\n");
        fputs("  print: ", stdout);
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)log[i];
            putchar(c == '\t' || (c >= 32 && c != 127) ? c : '?');
        }
        putchar('\n');
        log += n + (log[n] == '\n');
    }
}

/* `chessvar check FILE...`: each script alone, loaded and tried in a game:
 * its hooks run on the start position and a short random game (issue 19,
 * point 4). */
#define CHECK_PLIES 8
#define CHECK_SEED 1
int cli_check_house(const VariantOps *v, House *h, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    params_defaults(v, &cfg.params);
    cfg.params_set = 1;
    if (house_params(h, &cfg.params, e))
        return -1;
    GameHooks hooks = house_hooks(h);
    Game *g = game_new_hooked(&cfg, &hooks, e);
    /* a hook that fails is caught here, not in the first game */
    int rc = g ? house_try(g, CHECK_PLIES, CHECK_SEED, e) : -1;
    game_free(g);
    return rc;
}

static int cmd_check(const CliOptions *o)
{
    int bad = 0;
    for (int i = 0; i < o->nrules; i++) {
        Error e = {""};
        const VariantOps *v = o->variant ? o->variant : variant_find("orthodox");
        House *h = cli_load_house(v, 0, &o->rules[i], 1, &e);
        /* Without --variant, a script that is not for orthodox is checked
         * against the first built-in variant it loads for (its variants
         * field): the scripts of scripts/variants are the fairy variant's. */
        for (int k = 0; !h && !o->variant && strstr(e.msg, "this script is not for") &&
                        variant_registry[k]; k++) {
            Error e2 = {""};
            if (variant_registry[k] == v ||
                !(h = cli_load_house(variant_registry[k], 0, &o->rules[i], 1, &e2)))
                continue;
            v = variant_registry[k];
        }
        int ok = h && cli_check_house(v, h, &e) == 0;
        if (ok) {
            printf("%s: ok (%s)%s%s\n", o->rules[i], house_title(h, 0),
                   o->variant || v == variant_find("orthodox") ? "" : " for ",
                   o->variant || v == variant_find("orthodox") ? "" : v->name);
            for (int k = 0; k < house_nargs(h, 0); k++) { /* issue 24 */
                const HouseArg *a = house_arg(h, 0, k);
                printf("  argument %s = %s (%s; default %s): %s\n", a->name, a->value,
                       a->expect, a->def, a->doc);
            }
        } else
            printf("%s\n", e.msg);
        if (h)
            print_house_log(house_log(h));
        bad |= !ok;
        house_free(h);
    }
    return bad ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* Commands that need a game report a failed start the same way. */
static Game *start_or_report(const CliOptions *o, uint64_t seed, int *status)
{
    Error e;
    e.msg[0] = '\0';
    Game *g = cli_start_game(o, seed, &e, status);
    if (!g)
        fprintf(stderr, "chessvar %s: %s\n", o->command,
                e.msg[0] ? e.msg : "cannot start the game");
    return g;
}

/* --moves (issue 25): play the actions of o->moves on g, in order, each by
 * the seat to act and through the game (its house rules and schedule), as
 * typed at the prompt.  0, or -1 after saying on stderr which action was
 * refused and why. */
static int play_moves(const CliOptions *o, Game *g)
{
    const char *s = o->moves;
    for (int k = 1; s && *(s += strspn(s, " \t")); k++) {
        size_t len = strcspn(s, " \t");
        char text[64];
        if (len >= sizeof text) {
            fprintf(stderr, "chessvar %s: --moves: action %d '%.*s...' is too long\n",
                    o->command, k, 16, s);
            return -1;
        }
        memcpy(text, s, len);
        text[len] = '\0';
        s += len;
        int seat = game_to_act(g);
        Error e = {""};
        if (seat < 0) {
            char buf[64];
            fprintf(stderr, "chessvar %s: --moves: action %d '%s': the game is over (%s)\n",
                    o->command, k, text, game_result_text(g, buf, sizeof buf));
            return -1;
        }
        if (game_play(g, seat, text, &e) != 0) {
            fprintf(stderr, "chessvar %s: --moves: action %d '%s' is refused: %s\n",
                    o->command, k, text, e.msg[0] ? e.msg : "illegal here");
            return -1;
        }
    }
    return 0;
}

static void print_divide(void *ud, const char *move, uint64_t n)
{
    (void)ud;
    printf("%s: %" PRIu64 "\n", move, n);
}

static int cmd_perft(const CliOptions *o)
{
    if (o->depth < 0) {
        fputs("chessvar perft: give the depth: --depth N\n", stderr);
        return CLI_EXIT_USAGE;
    }
    int status;
    Game *g = start_or_report(o, 0, &status);
    if (!g)
        return status;
    if (play_moves(o, g) != 0) {
        game_free(g);
        return CLI_EXIT_USAGE;
    }
    uint64_t n;
    if (o->depth == 0) {
        n = 1; /* the root alone, as Stockfish counts it */
    } else if (o->divide) {
        n = game_perft_divide(g, o->depth, print_divide, NULL);
    } else {
        n = game_perft(g, o->depth);
    }
    if (n == GAME_PERFT_FAILED || n == GAME_PERFT_NOMEM) { /* no count: an error */
        fprintf(stderr, "chessvar perft: %s\n",
                n == GAME_PERFT_FAILED ? game_hook_error(g) : "out of memory");
        game_free(g);
        return CLI_EXIT_FAIL;
    }
    if (o->divide && o->depth > 0)
        fputc('\n', stdout);
    printf("Nodes searched: %" PRIu64 "\n", n);
    game_free(g);
    return CLI_EXIT_OK;
}

static int cmd_legal(const CliOptions *o)
{
    int status;
    Game *g = start_or_report(o, 0, &status);
    if (!g)
        return status;
    if (play_moves(o, g) != 0) {
        game_free(g);
        return CLI_EXIT_USAGE;
    }
    int seat = game_to_act(g);
    if (seat < 0) {
        char buf[64];
        fprintf(stderr, "chessvar legal: the game is over (%s): no legal actions\n",
                game_result_text(g, buf, sizeof buf));
        game_free(g);
        return CLI_EXIT_OK;
    }
    ActionList l = ACTIONLIST_INIT;
    StrBuf out = STRBUF_INIT;
    if (game_legal(g, seat, &l)) {
        fprintf(stderr, "chessvar legal: %s\n", game_hook_error(g));
        al_free(&l);
        game_free(g);
        return CLI_EXIT_FAIL;
    }
    for (int i = 0; i < l.n; i++) {
        if (action_is_meta(l.v[i].kind))
            continue;
        game_format(g, &l.v[i], FMT_MACHINE, &out);
        sb_putc(&out, '\n');
    }
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    al_free(&l);
    game_free(g);
    return CLI_EXIT_OK;
}
