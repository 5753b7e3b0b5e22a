/*
 * experiment.h -- house-rule experiments (issue 12): many bot games of one
 * variant under one or two rule sets, and the report of what they show.
 *
 * An experiment is an ExpInfo (what was played: variant, seats, players,
 * rule sets, number of games, seed) and one ExpGame per game (how it
 * ended).  Everything the report says is computed from these two alone,
 * so the JSON of a run (exp_json) holds all the report needs and `chessvar
 * merge` rebuilds the same report from the JSON parts of a sharded run.
 *
 * Game i of a rule set: seed round r = i / nseats and rotation i % nseats;
 * its game seed is exp_game_seed(seed, r) (the same for every rotation and
 * both rule sets: the seats see the same start), player p sits at seat
 * (p + rotation) % nseats and draws from its own generator seeded from the
 * game seed and p.  So the games do not depend on how they are split
 * between processes or machines.
 *
 * Invariant: ExpGame holds plain values only (it crosses pipes between
 * worker processes as bytes); exp_report_* never touch a Game.
 */
#ifndef CHESSVAR_EXPERIMENT_H
#define CHESSVAR_EXPERIMENT_H

#include <stdint.h>

#include "bot.h"
#include "stats.h"
#include "../game.h"
#include "../json.h"
#include "../util.h"

#define EXP_MAX_SETS 2
#define EXP_MAX_RULES 16
#define EXP_NAME 64
#define EXP_REASON 96

/* One rule set: parameters given (as NAME=VALUE text) and scripts. */
typedef struct ExpSet {
    char label[4];                 /* "A", "B" */
    char params[512];              /* space-separated NAME=VALUE, "" = none */
    int nrules;
    char rules[EXP_MAX_RULES][256];      /* the scripts' files, as given */
    char rules_name[EXP_MAX_RULES][128]; /* the names they declare (rule{name=}) */
    char rules_sha[EXP_MAX_RULES][65];   /* their SHA-256 */
} ExpSet;

typedef struct ExpInfo {
    char variant[EXP_NAME];        /* the variant's name ("orthodox") */
    char title[EXP_NAME * 2];      /* "orthodox chess" */
    int nsides, nseats;
    char side[MAX_SIDES][EXP_NAME];
    char seat[MAX_SEATS][EXP_NAME];
    BotSpec players[MAX_SEATS];    /* the bot of player p (= seat p in rotation 0) */
    long games;                    /* per rule set */
    uint64_t seed;
    int max_plies;
    int nsets;
    ExpSet set[EXP_MAX_SETS];
} ExpInfo;

/* How one game ended. */
typedef struct ExpGame {
    int set;                /* 0 = A, 1 = B */
    long index;             /* 0 .. games-1 */
    uint64_t seed;          /* the game's seed */
    int finished;           /* 0: stopped at the ply limit */
    unsigned winners;       /* side mask (0: a draw, or unfinished) */
    unsigned seat_won;      /* seats commanding a winning side at the end */
    int plies;              /* actions of any seat */
    long choices;           /* play actions available, summed over the plies */
    char result[EXP_NAME];  /* "1-0", "white+red", "draw", "*" */
    char reason[EXP_REASON];/* the status's reason, or "ply limit" */
    int code;               /* the status's EndCode (END_NONE at the ply limit) */
    int seeded_start;       /* the start was drawn from the game's seed (a setup
                             * hook or the variant drew from its generator):
                             * the games of a round then share their start */
} ExpGame;

uint64_t exp_game_seed(uint64_t seed, long round);
int exp_rotation(const ExpInfo *x, long index);
/* The seat player p sits at in game index. */
int exp_player_seat(const ExpInfo *x, long index, int p);
/* Seed of player p's generator in a game of seed game_seed. */
uint64_t exp_player_seed(uint64_t game_seed, int p);

/* Play game g (fresh, made with seed exp_game_seed(...)) to its end or
 * x->max_plies with bots: 0 and *out, or -1 with e (a bot or a rule
 * failed: the message names the ply and the action). */
int exp_play(const ExpInfo *x, long index, int set, Game *g, ExpGame *out, Error *e);
/* exp_play's ExpGame, played the fastest way: when every player is
 * random, game g is played out on a copy without history texts or
 * messages (game_playout_seats: the same draws, so the same game, several
 * times faster) and g is left at its start; otherwise g is played by
 * exp_play.  For the report: what g holds afterwards is not to be read. */
int exp_play_quick(const ExpInfo *x, long index, int set, Game *g, ExpGame *out, Error *e);

/* The readable report (a table, and with two sets the comparison and its
 * verdict) of games[0..n-1]; all of x's games must be there. */
void exp_report_text(const ExpInfo *x, const ExpGame *games, long n, StrBuf *out);
/* The whole run as one JSON object: info, every game, the figures. */
void exp_json(const ExpInfo *x, const ExpGame *games, long n, int shard_k, int shard_n,
              StrBuf *out);
/* An SVG chart of the metrics and their intervals. */
void exp_svg(const ExpInfo *x, const ExpGame *games, long n, StrBuf *out);

/* ---- B against A (issue 23) -----------------------------------------------
 * What the report, its verdict, the JSON's "compare", the chart and the
 * browser say about B - A all come from exp_compare, so they cannot
 * disagree.  Game i of A is paired with game i of B (the same seed, the
 * same seats for the same players); when a start is drawn from the seed
 * in either rule set (ExpGame.seeded_start), the games of a round share
 * their start and the pairs are taken a round at a time (per_round).
 * docs/EXPERIMENTS.md, "How the figures are computed", gives the methods. */

enum { EXP_METRIC_SHARE, EXP_METRIC_PLIES, EXP_METRIC_SCORE };

typedef struct ExpMetric {
    char key[EXP_NAME + 8];    /* its JSON key: a seat's name (its wins), "draws",
                                * "decisive", "unfinished", "length", "score" */
    char label[EXP_NAME + 40]; /* "white wins", "length (plies)", "P1 greedy's score" */
    int kind;                  /* EXP_METRIC_*: a share or a score (0..1), plies */
    int seat;                  /* the seat whose wins it counts, else -1 */
    double a, b;               /* its value under A and under B */
    Interval a_ci, b_ci;       /* their own 95% intervals (as the report's
                                * detail sections give them) */
    double diff;               /* b - a */
    Interval ci;               /* the paired 95% interval of b - a */
    double p;                  /* two-sided p-value of no change */
    int judged;                /* in the verdict's family (Holm) */
    double p_holm;             /* Holm-adjusted p over the family (= p if not judged) */
    int clear;                 /* judged and p_holm < 0.05: the verdict names it */
} ExpMetric;

#define EXP_MAX_METRICS (MAX_SEATS + 5)

typedef struct ExpComparison {
    long pairs;                /* games of A paired with B's */
    int per_round;             /* 1: paired a round at a time (seeded starts) */
    long rounds;               /* the rounds the pairs fill */
    int nmetrics, njudged;
    ExpMetric m[EXP_MAX_METRICS]; /* seats' wins, draws, decisive, [unfinished],
                                   * length, [score with two seats] */
} ExpComparison;

/* Compare B with A over games[0..n-1] (all of x's games, as for the
 * report): 0, or -1 when x has one rule set or memory ran out. */
int exp_compare(const ExpInfo *x, const ExpGame *games, long n, ExpComparison *c);

/* Read one JSON part written by exp_json: its info, its games (appended
 * to *games, *n, *cap; free() them) and its shard (0/0 when whole).  -1
 * with e naming what is wrong. */
int exp_read_part(const Json *root, ExpInfo *x, ExpGame **games, long *n, long *cap,
                  int *shard_k, int *shard_n, Error *e);
/* 1 when a and b describe the same experiment. */
int exp_info_same(const ExpInfo *a, const ExpInfo *b);

#endif
