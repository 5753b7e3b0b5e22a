/*
 * lesson.h -- lessons that teach a variant's rules by difference from
 * orthodox chess (issue 22 point 3): the lesson files (lessons/VARIANT.txt,
 * format in docs/LESSONS.md) and a lesson played answer by answer, for
 * `chessvar learn` and any other face.
 *
 * A lesson is a position of one variant (parameters, sides, seats, seed),
 * the seat the learner plays, and steps in order: the learner's answers
 * (`play:`, each with the texts that count as right, target squares, and
 * the wrong answers a test tries) and the opponent's scripted replies
 * (`reply:`).  An answer is right when it leads to the same position as
 * one of the step's texts, lands on one of its target squares, or (the
 * last step) ends the game with the lesson's `result:`.
 *
 * Invariant: an answer that is refused leaves the lesson's game exactly as
 * it was (it is tried on a copy), and its refusal names the engine's reason
 * or says that the action, though legal, misses the goal, followed by the
 * lesson's explanation of the rule.  A malformed file is refused as a
 * whole with its name, the line and what is wrong.
 */
#ifndef CHESSVAR_LESSON_H
#define CHESSVAR_LESSON_H

#include "../game.h"
#include "../util.h"
#include "../variant.h"

#define LESSON_MAX_ALTS 8     /* texts that count as one step's answer */
#define LESSON_MAX_TARGETS 16 /* target squares of one step */
#define LESSON_MAX_WRONG 8    /* wrong answers of one step */
#define LESSON_MAX_STEPS 32
#define LESSON_MAX_HINTS 8
#define LESSON_MAX_PARAMS 16
#define LESSON_MAX_IDS 16     /* rule ids one lesson teaches */
#define LESSON_MAX_HOUSE 4    /* house-rule scripts of one lesson */
#define LESSON_ID_MAX 24      /* bytes of a rule id ("MASQ-16") or lesson id */
#define LESSON_MAX 200        /* lessons in one file */
#define LESSON_FILE_MAX (1u << 20)

typedef struct LessonStep {
    int reply;                 /* 1: the opponent's scripted action (alt[0]) */
    int line;                  /* its line in the file */
    int nalts;
    char *alt[LESSON_MAX_ALTS];
    int ntargets;
    char *target[LESSON_MAX_TARGETS];
    int nwrong;
    char *wrong[LESSON_MAX_WRONG];
    int wrong_line[LESSON_MAX_WRONG];
} LessonStep;

typedef struct Lesson {
    int line;                  /* the line of its `lesson:` */
    /* the lines of the keys a game is made from (0: not given) */
    int position_line, seat_line, sides_line, seats_line;
    char id[LESSON_ID_MAX + 1];
    char *title, *goal, *explain, *success, *result, *position;
    char *ruleset;             /* `ruleset:` lines joined (issue 24), or NULL */
    int ruleset_line;
    int nrules;
    char rule[LESSON_MAX_IDS][LESSON_ID_MAX + 1]; /* ids, or a house: script's file
                                                     name ("atomic.lua") */
    int nparams;
    char *param[LESSON_MAX_PARAMS]; /* NAME=VALUE */
    int nhouse;                /* house-rule scripts, in order: each path as */
    char *house[LESSON_MAX_HOUSE]; /* it is opened (beside the lesson file) */
    int house_line[LESSON_MAX_HOUSE];
    int sides, seats;          /* 0: the variant's default */
    uint64_t seed;
    char seat[LESSON_ID_MAX + 1]; /* the learner's seat, by name */
    int both_views;            /* `views: both`: every seat's board side by side */
    int nhints;
    char *hint[LESSON_MAX_HINTS];
    int nsteps;
    LessonStep step[LESSON_MAX_STEPS];
} Lesson;

typedef struct LessonFile {
    char *path;                /* as given: messages name it */
    const VariantOps *variant;
    int n;
    Lesson *v;
} LessonFile;

/* Read and parse a lesson file (at most LESSON_FILE_MAX bytes).  0, or -1
 * with e "FILE:LINE: what is wrong" (the file as given); out is then
 * empty.  Free with lesson_file_free. */
int lesson_file_read(const char *path, LessonFile *out, Error *e);
/* The same from text already read; path only names it in messages. */
int lesson_file_parse(const char *path, const char *text, size_t len, LessonFile *out,
                      Error *e);
void lesson_file_free(LessonFile *f);
/* Where the lesson files are (cli_learn.c; `chessvar learn`, `chessvar
 * handout`, the server): $CHESSVAR_LESSONS, else lessons/ here, else
 * lessons/ beside the program. */
void lessons_dir(char *buf, size_t n);
/* The lesson named by its id or its number from 1; NULL with e listing
 * what there is. */
const Lesson *lesson_find(const LessonFile *f, const char *key, Error *e);
/* The rule ids of v as its rules text heads them ("ORTH-1" ...), in
 * order, into ids (at most max); how many. */
int lesson_rule_ids(const VariantOps *v, char ids[][LESSON_ID_MAX + 1], int max);

/* ---- A lesson being played --------------------------------------------- */

typedef struct LessonRun LessonRun;

enum {
    LESSON_REFUSED = -1, /* the answer was refused: the game is unchanged */
    LESSON_NEXT = 0,     /* right: the next step is the learner's */
    LESSON_DONE = 1      /* right, and the lesson is done */
};

/* Start lesson l of variant v: its game, and the replies before the
 * learner's first step.  NULL with e, which begins "line N: " when a line
 * of the lesson is at fault (lesson_where puts it in front). */
LessonRun *lesson_start(const VariantOps *v, const Lesson *l, Error *e);
void lesson_run_free(LessonRun *r);
const Lesson *lesson_of(const LessonRun *r);
const Game *lesson_game(const LessonRun *r);
int lesson_seat(const LessonRun *r);     /* the learner's seat */
int lesson_done(const LessonRun *r);
/* The learner's step to answer now, NULL once the lesson is done. */
const LessonStep *lesson_step(const LessonRun *r);
/* The learner answers text: LESSON_NEXT or LESSON_DONE with what happened
 * in out (the messages to the learner's seat, the replies, the success
 * text at the end), or LESSON_REFUSED with out saying why (the engine's
 * refusal, or that the legal action misses the goal) and the explanation
 * of the lesson's rules ("Why (ORTH-3): ..."). */
int lesson_answer(LessonRun *r, const char *text, StrBuf *out);
/* The messages to the learner's seat not given yet (those of the replies
 * before the first step, after lesson_start), appended to out. */
void lesson_news(LessonRun *r, StrBuf *out);
/* The next hint; once they are used up, the answer to the step. */
void lesson_hint(LessonRun *r, StrBuf *out);
/* The explanation as a refusal shows it: "Why (ORTH-3): ...". */
void lesson_why(const Lesson *l, StrBuf *out);

/* e's message as "FILE:LINE: lesson ID: what", LINE the line e names
 * ("line N: ...") or else the lesson's first. */
void lesson_where(const LessonFile *f, const Lesson *l, Error *e);
/* Play lesson l as --check does: its solution (every step's first text)
 * must reach the end (and its result), and every wrong answer must be
 * refused at its step with the explanation.  0, or -1 with e
 * "FILE:LINE: lesson ID: what failed". */
int lesson_verify(const LessonFile *f, const Lesson *l, Error *e);

#endif
