/*
 * testutil.h -- helpers shared by the test files (tu_ prefix): starting a
 * game, playing texts as a seat, reading the position string, asserting
 * that an action is refused and changes nothing, legality checks, the end
 * of a game, reading perft EPD files (tests/data/), and the same for the
 * orthodox engine's own Position; plus the FENs many tests
 * use (chessprogramming wiki, "Perft Results").
 *
 * Invariant: a helper either succeeds or fails the running cmocka test
 * with a message naming what went wrong; none keeps state between calls,
 * and every Game or string it returns belongs to the caller.
 */
#ifndef CHESSVAR_TESTUTIL_H
#define CHESSVAR_TESTUTIL_H

#include <stdio.h>
#include <stdint.h>
#include "../../core/game.h"
#include "../../variants/orthodox/chess.h"

/* ---- The build ----------------------------------------------------------- */
/* 1 in a build with AddressSanitizer (gcc or clang), which runs several
 * times slower: long tests shrink their loops then. */
#if defined(__SANITIZE_ADDRESS__)
#define TU_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TU_SANITIZED 1
#endif
#endif
#ifndef TU_SANITIZED
#define TU_SANITIZED 0
#endif

/* ---- Positions used by several files ------------------------------------- */
#define TU_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define TU_FEN_KIWIPETE \
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
#define TU_FEN_POS3 "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
#define TU_FEN_POS4 \
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
#define TU_FEN_POS5 "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
#define TU_FEN_POS6 \
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"
/* Positions 1 to 5 (start to "position 5"), to open a list of FENs. */
#define TU_FENS_PERFT \
    TU_FEN_START, TU_FEN_KIWIPETE, TU_FEN_POS3, TU_FEN_POS4, TU_FEN_POS5

/* ---- Starting games ------------------------------------------------------ */
/* What a test game is made of; zero fields mean the defaults, so a
 * compound literal names only what matters:
 *   tu_game(&(TuGame){.variant = &toy_variant, .seed = 7}) */
typedef struct TuGame {
    const VariantOps *variant; /* NULL: "orthodox" from the registry */
    uint64_t seed;
    int nsides, nseats;        /* 0: the variant's default / one per side */
    const char *position;      /* NULL: the variant's start position */
    const char *params;        /* space-separated NAME=VALUE, or NULL */
    const GameHooks *hooks;    /* NULL: none */
} TuGame;

/* The registered variant called name; fails the test if there is none. */
const VariantOps *tu_variant(const char *name);
/* Start the game described; fails the test if it cannot start. */
Game *tu_game(const TuGame *spec);
/* An orthodox game (seed 0) from fen (NULL: the start position) ... */
Game *tu_orthodox(const char *fen);
/* ... and with space-separated NAME=VALUE params. */
Game *tu_orthodox_with(const char *fen, const char *params);
/* Starting the game described must fail with a message holding want. */
void tu_game_refused(const TuGame *spec, const char *want);

/* ---- Playing ------------------------------------------------------------- */
/* seat types text ("e4", "resign", "2,0"); it must be accepted. */
void tu_play(Game *g, int seat, const char *text);
/* Each text of a NULL-terminated list, by the seat to act at that point. */
void tu_play_all(Game *g, const char *const *texts);
/* Space-separated texts ("e4 e5 Nf3"), each by the seat to act. */
void tu_play_line(Game *g, const char *texts);

/* ---- Refusals ------------------------------------------------------------ */
/* Everything a refused action must leave alone (game.h's invariant):
 * position, history, messages, seat to act, draw offer, generator. */
typedef struct TuSnap {
    char *position;
    int nhist, nmsgs, to_act, offer;
    Rng rng;
} TuSnap;

void tu_snap_take(Game *g, TuSnap *s);
/* Assert g is still as it was when s was taken; frees s. */
void tu_snap_check(Game *g, TuSnap *s);

/* seat types text: refused with a message holding want (NULL: any
 * message), and the game is left exactly as it was. */
void tu_assert_refused_by(Game *g, int seat, const char *text,
                          const char *want);
/* The same, typed by the seat to act. */
void tu_assert_refused(Game *g, const char *text, const char *want);
/* The same, and the message is exactly want. */
void tu_assert_refused_exactly(Game *g, const char *text, const char *want);

/* ---- Reading the game ---------------------------------------------------- */
/* The position string (game_position), malloc'd: the caller frees it. */
char *tu_position(const Game *g);
void tu_assert_position(const Game *g, const char *want);

/* Where texts a and b part: the number of the first line that differs
 * (from 1), and where that line starts in each. */
int tu_first_diff(const char *a, const char *b, const char **line_a, const char **line_b);

/* How many actions of l are of kind. */
int tu_count_kind(const ActionList *l, int kind);
/* How many actions seat may take now (game_legal), of kind (-1: any). */
int tu_legal_count(const Game *g, int seat, int kind);
/* Is the move written machine-style (UCI for chess: "e1g1") a play action
 * of the seat to act? */
int tu_is_legal(const Game *g, const char *machine);

/* ---- Game state ---------------------------------------------------------- */
/* The game is not over, and a seat is to act. */
void tu_assert_going_on(const Game *g);
/* The game is over with result ("1-0", "1/2-1/2" ...) and exactly this
 * reason, and nobody is to act. */
void tu_assert_over(const Game *g, const char *result, const char *reason);

/* ---- Data files ---------------------------------------------------------- */
/* The orthodox perft suite kept in the repository: 126 positions and their
 * leaf counts by depth, every count checked with the project's own perft
 * (tests run from the repository root; tests/data/README.md). */
#define TU_PERFTSUITE "tests/data/perftsuite.epd"
/* The whole of an open stream, or of the file at path, malloc'd and
 * NUL-terminated (a file that cannot be opened: NULL). */
char *tu_read_stream(FILE *f);
char *tu_read_file(const char *path);
/* The program under test: $CHESSVAR, else ./chessvar (tests run from the
 * repository root). */
const char *tu_program(void);
/* The program run as a user runs it: "chessvar ARGS" (ARGS as shell
 * words) through /bin/sh, NO_COLOR unset, with the n bytes of input (NUL
 * bytes included) on stdin; its standard output, standard error (both
 * malloc'd) and exit status (-1 if it did not exit normally). */
typedef struct TuRun {
    char *out;
    char *err;
    int status;
} TuRun;
void tu_run_n(TuRun *r, const char *args, const char *input, size_t n);
void tu_run(TuRun *r, const char *args, const char *input); /* input: a string or NULL */
void tu_run_free(TuRun *r);
/* Masqués: "arrange BACK/FRONT" (docs/MASQUES.md, setup) for side, from
 * figures by square (fig[sq], a1 = 0); out holds at least 26 bytes. */
void tu_arrange_text(const int *fig, int side, char *out, size_t n);
/* A variant's help table as `help` prints it ("  usage  doc (e.g.
 * example)", usages padded to the widest): every entry has a doc and an
 * example, and every line fits in 80 columns. */
void tu_assert_help_fits(const VariantHelp *h);

/* One line of a perft EPD file: "FEN ;D1 20 ;D2 400 ...". */
#define TU_EPD_MAX_DEPTHS 16
typedef struct TuEpd {
    const char *pos;   /* the text before the first ';', as it stands */
    int lineno;        /* from 1 */
    int ndepths;
    int depth[TU_EPD_MAX_DEPTHS];
    uint64_t count[TU_EPD_MAX_DEPTHS];  /* leaves at depth[i], in file order */
} TuEpd;

/* fn(line, ud) for every line of the EPD file at path that holds a ';'
 * (the others are skipped); returns how many.  A file that will not open
 * or a depth field that is not "D<depth> <count>" fails the test. */
int tu_epd_each(const char *path, void (*fn)(const TuEpd *line, void *ud), void *ud);

/* ---- The orthodox engine's Position -------------------------------------- */
/* Read fen into p; fails the test if it is refused. */
void tu_chess_load(Position *p, const char *fen);
/* The legal move of p written uci; fails the test if there is none. */
Move tu_chess_move(const Position *p, const char *uci);

/* ---- Benchmarks ---------------------------------------------------------- */
/* Seconds on the monotonic clock, for differences. */
double tu_seconds(void);
/* Run cmd through the shell, its standard output into buf (at most n - 1
 * bytes kept, the rest read and dropped): the seconds it took, or -1 when
 * it could not start or did not exit 0. */
double tu_timed_command(const char *cmd, char *buf, size_t n);

#endif
