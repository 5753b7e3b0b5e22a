/*
 * test_protocol.c -- the machine protocol of `chessvar run --json`
 * (docs/PROTOCOL.md) as a front end reads it, issue 19 point 7: every end
 * of every variant and of the core's meta actions carries a stable
 * `reason_code` beside its text; the status answer and every view carry
 * the phase, the sides each seat commands, the turn order, the sides out,
 * Tile's threatened Kings and scores; once the game is over no field says
 * a side is to move or a draw offer stands; Tile's `first` parameter is
 * refused beside --fen; errors about a seat name it.
 *
 * Invariant: answers are read as JSON (core/json.h), member by member,
 * never by matching prose; every expectation was worked out from the
 * rules, not copied from the program's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/json.h"
#include "support/testutil.h"

/* ---- Reading answers ------------------------------------------------------ */

#define MAX_ANSWERS 64

/* The answers of `chessvar ARGS` to input, one JSON object per line. */
typedef struct Answers {
    int n;
    Json *a[MAX_ANSWERS];
    TuRun run;
} Answers;

static void answers(Answers *r, const char *args, const char *input)
{
    memset(r, 0, sizeof *r);
    tu_run(&r->run, args, input);
    for (char *line = r->run.out, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        assert_non_null(nl);
        Error e;
        assert_true(r->n < MAX_ANSWERS);
        Json *j = json_parse(line, (size_t)(nl - line), &e);
        if (!j)
            fail_msg("%s: answer %d is not JSON (%s): %.*s", args, r->n + 1, e.msg,
                     (int)(nl - line), line);
        r->a[r->n++] = j;
    }
}

static void answers_free(Answers *r)
{
    for (int i = 0; i < r->n; i++)
        json_free(r->a[i]);
    tu_run_free(&r->run);
}

/* Member at a dotted path ("status.reason_code"); fails if one is missing. */
static const Json *at(const Json *o, const char *path)
{
    char buf[128];
    str_copy(buf, sizeof buf, path);
    const Json *j = o;
    for (char *save = NULL, *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
        if (!(j = json_get(j, k)))
            fail_msg("no member '%s' (in %s)", k, path);
    return j;
}

/* The answer's member at path is the string want, or null (want NULL). */
static void assert_member(const Json *o, const char *path, const char *want)
{
    const Json *j = at(o, path);
    if (!want) {
        if (j->type != JSON_NULL)
            fail_msg("%s: %.*s, not null", path, (int)j->len, j->text);
        return;
    }
    if (j->type != JSON_STRING || strcmp(j->str, want) != 0)
        fail_msg("%s: %.*s, not \"%s\"", path, (int)j->len, j->text, want);
}

/* The member at path, written back as JSON text, is exactly want
 * ("[\"white\"]", "{\"white\":15}"): the parser keeps each value's text. */
static void assert_json(const Json *o, const char *path, const char *want)
{
    const Json *j = at(o, path);
    if (j->len != strlen(want) || strncmp(j->text, want, j->len) != 0)
        fail_msg("%s: %.*s, not %s", path, (int)j->len, j->text, want);
}

/* The last answer of the run; every answer must have been a success. */
static const Json *last_ok(const Answers *r)
{
    assert_true(r->n > 0);
    for (int i = 0; i < r->n; i++)
        if (at(r->a[i], "ok")->type != JSON_TRUE)
            fail_msg("answer %d failed: %s", i + 1, at(r->a[i], "error")->str);
    return r->a[r->n - 1];
}

/* ---- reason_code: every end of every variant ------------------------------- */

typedef struct EndCase {
    const char *args;   /* after "run ", without --json */
    const char *input;  /* ends with a `status` line */
    int code;           /* EndCode the status must give */
    const char *reason; /* and the text beside it */
} EndCase;

#define FOOLS "f3\ne5\ng4\nQh4\n"
#define KNIGHTS "Nf3\nNf6\nNg1\nNg8\n"
#define TILE_SHUFFLE "1,2-1,3\n2,1-2,2\n0,2-0,3\n1,1-1,2\n1,3-1,4\n2,2-2,3\n0,3-0,4\n1,2-1,3\n"

static const EndCase END_CASES[] = {
    /* orthodox (ORTH-7..9) and the core's meta actions */
    {"orthodox", FOOLS "status\n", END_CHECKMATE, "checkmate"},
    {"orthodox --fen '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1'", "status\n", END_STALEMATE,
     "stalemate"},
    {"orthodox --fen '8/8/8/4k3/8/8/8/4K3 w - - 0 1'", "status\n",
     END_INSUFFICIENT_MATERIAL, "insufficient material"},
    {"orthodox --fen '4k3/8/8/8/8/8/8/R3K3 w - - 149 80'", "Ra2\nstatus\n",
     END_SEVENTY_FIVE_MOVES, "seventy-five-move rule"},
    {"orthodox", KNIGHTS KNIGHTS KNIGHTS KNIGHTS "status\n", END_FIVEFOLD,
     "fivefold repetition"},
    {"orthodox", KNIGHTS KNIGHTS "claim\nstatus\n", END_THREEFOLD,
     "threefold repetition claimed by white"},
    {"orthodox --fen '4k3/8/8/8/8/8/8/R3K3 w - - 100 80'", "claim\nstatus\n",
     END_FIFTY_MOVES, "fifty-move rule claimed by white"},
    {"orthodox", "e4\nas white resign\nstatus\n", END_RESIGNATION, "white resigned"},
    {"orthodox", "draw\nas black accept\nstatus\n", END_AGREEMENT, "draw by agreement"},
    {"orthodox --rules scripts/king_of_the_hill.lua --fen '4k3/p7/8/8/8/3K4/P7/8 w - - 0 1'",
     "Kd4\nstatus\n", END_HOUSE_RULE, "white's King reached the hill"},
    /* Les Échecs Masqués */
    {"masques --fen '4k~3/8/8/8/8/4P~3/6P~P~/r6K w - - 0 1'", "status\n", END_CHECKMATE,
     "checkmate"},
    {"masques --fen '7k~/8/8/8/8/8/2q5/K7 w - - 0 1'", "status\n", END_STALEMATE,
     "stalemate"},
    {"masques --fen '7k~/6p~p~/8/8/8/8/8/R3K3 w - - 0 1'", "a1a8\nannounce mate h8\nstatus\n",
     END_MASK_MATE, "mask mate on the King"},
    {"masques --fen '4k~3/8/8/8/3q~4/8/8/3R2K1 w - - 0 1'", "d1d4\nreveal\nstatus\n",
     END_CHECK_AFTER_REVEAL, "check after reveal"},
    {"masques --fen '4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1 phase=bid:c6:d7:40:w'",
     "bid 41\ncall\nstatus\n", END_ALL_IN, "all-in won"},
    {"masques --fen '4k~3/3p4/8/8/8/8/8/4R1K1 w - - 0 1'", "e1e8\nconcede\nstatus\n",
     END_FULL_REVEAL, "full reveal without King"},
    {"masques --fen '8/p7/8/8/8/8/P~7/8 w - - 0 1 nokings=wb'", "reveal a2a3\nstatus\n",
     END_FULL_REVEAL_BOTH, "full reveal of both sides without King"},
    {"masques --fen '4k3/8/3N~4/8/8/8/8/K7 w - - 0 1'", "reveal d6e8\nstatus\n",
     END_KING_CAPTURED, "King captured"},
    /* Échecs ambigus */
    {"ambigus --fen '4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1'", "e8\nstatus\n", END_KING_CAPTURED,
     "king captured"},
    {"ambigus --fen '7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1'", "status\n", END_NO_SQUARE,
     "no square to name"},
    {"ambigus --param mate=on --fen 'k5r1/8/8/8/8/8/r7/7K w - - 0 1'", "status\n",
     END_STALEMATE, "stalemate"},
    {"ambigus --param mate=on --fen 'k5r1/8/8/8/8/8/r7/6rK w - - 0 1'", "status\n", END_MATE,
     "mate"},
    /* L'Échiqueté */
    {"echiquete", FOOLS "status\n", END_CHECKMATE, "checkmate"},
    {"echiquete --seats 3 --fen '7k/8/5P2/8/8/8/8/K5*Q1 e - - 0 1 phase=2 cycle=ebw "
     "seats=0,1,2'", "g1g7\nstatus\n", END_MERGED_MATE,
     "checkmate by a merged piece: the merged side wins"},
    {"echiquete --fen '*N6k/8/5P2/8/8/8/8/K5Q1 w - - 0 1 phase=2 cycle=ewb seats=1,1,0'",
     "Qg7\nstatus\n", END_DUO_MATE, "checkmate: the merged side wins"},
    {"echiquete --param duo_mate=merged --fen '*N6k/8/5P2/8/8/8/8/K5Q1 w - - 0 1 phase=2 "
     "cycle=ewb seats=1,1,0'", "Qg7\nstatus\n", END_DUO_MATE_DRAWN,
     "checkmate without a merged attacker: a draw"},
    {"echiquete --fen '7k/8/8/8/8/8/8/K*N4Q1 w - - 0 1 phase=2 cycle=ewb seats=1,1,0'",
     "Kxb1\nstatus\n", END_MERGED_SIDE_EMPTY, "the merged side lost its last piece"},
    {"echiquete --seats 3 --fen '8/8/8/3k4/3*P4/3K4/8/8 e - - 0 1 phase=2 cycle=ewb "
     "seats=0,1,2 passes=2'", "pass\nstatus\n", END_PASS_ROUND, "a full round of passes"},
    {"echiquete --seats 3 --fen '4k3/8/8/3p4/4*N3/5P2/8/4K3 w - - 0 1 phase=2 cycle=ewb "
     "seats=0,1,2 out=b'", "fxe4\nstatus\n", END_LAST_SIDE_STANDING, "last side standing"},
    /* Tile Chess */
    {"tile --fen 'wP1,1 wK0,0 wR1,0 bK2,0 turn:w'", "1,0-2,0\nstatus\n", END_LAST_KING,
     "the last King on the table (TILE-10)"},
    {"tile --fen 'bK-2,0 bN-1,0 wK0,0 bB1,0 turn:w passes:1'", "pass\nstatus\n",
     END_PASS_ROUND, "a full round of passes (TILE-9); scores: white 0, black 6"},
    {"tile --fen 'wK0,2 wR1,2 bR1,1 bK2,1 turn:w'", TILE_SHUFFLE "status\n", END_THREEFOLD,
     "threefold repetition (TILE-11); scores: white 5, black 5"},
    /* rule sets from parts (issue 24, PART-9) */
    {"fairy --rules scripts/variants/three_check.lua --fen '4k3/8/8/8/8/8/8/4K2R w K - 1+3 0 1'",
     "Rh8+\nstatus\n", END_CHECKS_GIVEN, "white gave check 3 times"},
    {"fairy --rules scripts/variants/king_of_the_hill.lua --fen '4k3/8/8/8/8/3K4/8/8 w - - 0 1'",
     "Kd4\nstatus\n", END_GOAL_REACHED, "white reached the goal"},
    {"fairy --rules scripts/variants/antichess.lua --fen '8/8/8/8/8/1p6/P7/8 w - - 0 1'",
     "axb3\nstatus\n", END_NO_PIECES, "black has no pieces left"},
    {"fairy --rules scripts/variants/courier.lua --fen '4k7/12/12/12/12/12/r11/3RK7 w - - 0 1'",
     "Rd8+\nKxd8\nstatus\n", END_BARE_ROYAL, "white's royal piece is bare"},
};

/* issue 19 point 7: each end gives its code beside its text, in the
 * action's answer and in `status`; the code is a word of the protocol. */
static void test_issue19_7_reason_code_of_every_end(void **state)
{
    (void)state;
    for (size_t i = 0; i < ARRAY_LEN(END_CASES); i++) {
        const EndCase *c = &END_CASES[i];
        char args[512];
        snprintf(args, sizeof args, "run %s --json", c->args);
        Answers r;
        answers(&r, args, c->input);
        const Json *st = last_ok(&r);
        const char *word = end_code_name(c->code);
        assert_non_null(word);
        assert_member(st, "cmd", "status");
        if (at(st, "status.over")->type != JSON_TRUE)
            fail_msg("%s: the game goes on", args);
        assert_member(st, "status.reason", c->reason);
        assert_member(st, "status.reason_code", word);
        if (r.n > 1) /* the action that ended it says the same */
            assert_member(r.a[r.n - 2], "status.reason_code", word);
        answers_free(&r);
    }
}

/* issue 19 point 7: the table above reaches every code, and every code is
 * listed in docs/PROTOCOL.md, so a code cannot be added unseen. */
static void test_issue19_7_every_code_is_reached_and_documented(void **state)
{
    (void)state;
    char *doc = tu_read_file("docs/PROTOCOL.md");
    assert_non_null(doc);
    for (int code = END_NONE + 1; code < END__COUNT; code++) {
        const char *word = end_code_name(code);
        if (!word)
            fail_msg("end code %d has no word", code);
        int reached = 0;
        for (size_t i = 0; i < ARRAY_LEN(END_CASES); i++)
            reached |= END_CASES[i].code == code;
        if (!reached)
            fail_msg("no test ends a game with %s", word);
        char quoted[64];
        snprintf(quoted, sizeof quoted, "`%s`", word);
        if (!strstr(doc, quoted))
            fail_msg("docs/PROTOCOL.md does not list %s", quoted);
    }
    assert_null(end_code_name(END_NONE));
    assert_null(end_code_name(END__COUNT));
    free(doc);
}

/* issue 19 point 7: while the game goes on the code is null, in the
 * answers and in the views. */
static void test_issue19_7_no_code_while_the_game_goes_on(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run orthodox --json", "e4\nstatus\nview\n");
    const Json *a = last_ok(&r);
    assert_member(r.a[0], "status.reason_code", NULL);
    assert_member(r.a[1], "status.reason_code", NULL);
    assert_member(a, "view.status.reason_code", NULL);
    answers_free(&r);
}

/* issue 19 point 7: in random games of every variant, a game that is over
 * always has a code, and one code always comes with one text (before the
 * scores Tile adds): the code cannot drift from the text. */
static void test_issue19_7_codes_follow_the_texts_in_random_games(void **state)
{
    (void)state;
    static const char *const VARIANTS[] = {"orthodox", "masques", "ambigus", "echiquete",
                                           "tile"};
    const int games = TU_SANITIZED ? 6 : 30;
    for (size_t v = 0; v < ARRAY_LEN(VARIANTS); v++) {
        char text[END__COUNT][128];
        memset(text, 0, sizeof text);
        int ended = 0;
        for (int i = 0; i < games; i++) {
            Game *g = tu_game(&(TuGame){.variant = tu_variant(VARIANTS[v]),
                                        .seed = (uint64_t)i + 1});
            Rng rng;
            rng_seed(&rng, (uint64_t)i * 7919 + 3);
            Status s;
            assert_true(game_playout(g, &rng, 600, &s) >= 0);
            if (!s.over) {
                assert_int_equal(s.code, END_NONE);
            } else {
                ended++;
                if (s.code <= END_NONE || s.code >= END__COUNT)
                    fail_msg("%s: '%s' has no code", VARIANTS[v], s.reason);
                char head[128];
                str_copy(head, sizeof head, s.reason);
                head[strcspn(head, ";")] = '\0';
                if (!text[s.code][0])
                    str_copy(text[s.code], sizeof text[s.code], head);
                else if (strcmp(text[s.code], head) != 0)
                    fail_msg("%s: %s stands for '%s' and '%s'", VARIANTS[v],
                             end_code_name(s.code), text[s.code], head);
            }
            game_free(g);
        }
        if (ended == 0)
            fail_msg("%s: no random game ended", VARIANTS[v]);
    }
}

/* ---- The phase, the commands, the turn order, the sides out ----------------- */

/* issue 19 point 7: `phase` is game:phase()'s word, in `status` and in
 * the view, "over" at the end. */
static void test_issue19_7_phase_of_each_variant(void **state)
{
    (void)state;
    static const struct {
        const char *args, *input, *phase;
    } CASES[] = {
        {"orthodox", "", "play"},
        {"orthodox", FOOLS, "over"},
        {"masques", "", "setup"},
        {"masques", "as white standard\nas black standard\n", "play"},
        {"masques --fen '4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1'", "c6d7\n",
         "bid"},
        {"ambigus", "", "name"},
        {"ambigus", "c3\n", "choose"}, /* Nb1 or the c-pawn: Black chooses */
        {"echiquete", "", "phase1"},
        {"echiquete", "e4\nd5\nexd5=P*\nas white takeover\n", "phase2"},
        {"tile", "", "placement"},
        {"tile --fen 'wK0,0 bK1,0 turn:w'", "", "play"},
    };
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++) {
        char args[256], in[256];
        snprintf(args, sizeof args, "run %s --json", CASES[i].args);
        snprintf(in, sizeof in, "%sstatus\nview\n", CASES[i].input);
        Answers r;
        answers(&r, args, in);
        const Json *v = last_ok(&r);
        assert_member(r.a[r.n - 2], "phase", CASES[i].phase);
        assert_member(v, "view.phase", CASES[i].phase);
        answers_free(&r);
    }
}

/* issue 19 point 7: `commands` gives the sides each seat commands now;
 * `turn_order` and `out` what the text view says of the turn. */
static void test_issue19_7_commands_turn_order_and_sides_out(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run orthodox --json", "status\n");
    const Json *a = last_ok(&r);
    assert_json(a, "commands", "{\"white\":[\"white\"],\"black\":[\"black\"]}");
    assert_json(a, "turn_order", "[\"white\",\"black\"]");
    assert_json(a, "out", "[]");
    answers_free(&r);

    /* ECHQ-12, two seats: White's seat takes the merged side, Black's
     * commands both colours; the phase-2 cycle after a White move is
     * merged, black, white (ECHQ-9) */
    answers(&r, "run echiquete --json", "e4\nd5\nexd5=P*\nas white takeover\nstatus\n"
                                         "as black view\n");
    a = last_ok(&r);
    const Json *st = r.a[r.n - 2];
    assert_json(st, "commands", "{\"white\":[\"merged\"],\"black\":[\"white\",\"black\"]}");
    assert_json(st, "turn_order", "[\"merged\",\"black\",\"white\"]");
    assert_json(a, "view.commands", "{\"white\":[\"merged\"],\"black\":[\"white\",\"black\"]}");
    assert_json(a, "view.turn_order", "[\"merged\",\"black\",\"white\"]");
    assert_json(a, "view.out", "[]");
    answers_free(&r);

    /* ECHQ-13, three seats: Black mated by White alone goes out; its
     * pieces are inert, so its seat commands nothing any more */
    answers(&r, "run echiquete --seats 3 --fen '*N6k/8/5P2/8/8/8/8/K5Q1 w - - 0 1 phase=2 "
                "cycle=ewb seats=0,1,2' --json", "Qg7\nstatus\nview\n");
    a = last_ok(&r);
    assert_json(r.a[1], "out", "[\"black\"]");
    assert_json(r.a[1], "turn_order", "[\"merged\",\"white\",\"black\"]");
    assert_json(r.a[1], "commands",
                "{\"white\":[\"white\"],\"black\":[],\"merged\":[\"merged\"]}");
    assert_json(a, "view.out", "[\"black\"]");
    assert_json(a, "view.commands",
                "{\"white\":[\"white\"],\"black\":[],\"merged\":[\"merged\"]}");
    answers_free(&r);

    /* TILE-10: blue took red's King; white takes blue's and commands all three */
    answers(&r, "run tile --sides 4 --fen 'wK0,1 wB1,1 wR0,0 rN1,0 uK2,0 uP3,0 bP4,0 bK5,0 "
                "wP1,-1 turn:w cmd:r=u' --json", "status\n1,1-2,0\nstatus\nview\n");
    a = last_ok(&r);
    assert_json(r.a[0], "commands", "{\"white\":[\"white\"],\"black\":[\"black\"],"
                                    "\"red\":[],\"blue\":[\"red\",\"blue\"]}");
    assert_json(r.a[0], "out", "[\"red\"]");
    assert_json(r.a[2], "commands", "{\"white\":[\"white\",\"red\",\"blue\"],"
                                    "\"black\":[\"black\"],\"red\":[],\"blue\":[]}");
    assert_json(r.a[2], "out", "[\"red\",\"blue\"]");
    assert_json(a, "view.out", "[\"red\",\"blue\"]");
    answers_free(&r);
}

/* issue 19 point 7: Tile's threatened Kings (TILE-7) and scores (TILE-11:
 * Q 12, R 5, N 3, P 1, K 0), null during placement. */
static void test_issue19_7_tile_threats_and_scores(void **state)
{
    (void)state;
    /*  y=1  wQ  wN  .   .   bQ      bR is trapped and attacks wK:
     *  y=0  wK  .   bR  bP  bK      a threat, not a check (TILE-7) */
    Answers r;
    answers(&r, "run tile --fen 'wQ0,1 wN1,1 bQ4,1 wK0,0 bR2,0 bP3,0 bK4,0 turn:w' --json",
            "status\nview\n");
    const Json *a = last_ok(&r);
    assert_json(r.a[0], "threatened", "[\"white\"]");
    assert_json(r.a[0], "status.in_check", "[]");
    assert_json(r.a[0], "scores", "{\"white\":15,\"black\":18}");
    assert_json(a, "view.threatened", "[\"white\"]");
    assert_json(a, "view.scores", "{\"white\":15,\"black\":18}");
    answers_free(&r);

    answers(&r, "run tile --json", "status\n");
    a = last_ok(&r);
    assert_json(a, "scores", "null");
    assert_json(a, "threatened", "[]");
    answers_free(&r);

    answers(&r, "run orthodox --json", "status\n");
    a = last_ok(&r);
    assert_json(a, "scores", "null");
    answers_free(&r);
}

/* ---- Nothing stands once the game is over ----------------------------------- */

/* issue 19 point 7: a draw offer that stood when the game ended, and the
 * side that was to move, are gone from every answer: to_act,
 * side_to_move, seat_to_act and draw_offer are null, in each variant. */
static void test_issue19_7_nothing_stands_after_the_end(void **state)
{
    (void)state;
    static const struct {
        const char *args, *input;
    } CASES[] = {
        {"orthodox", "e4\ne5\ndraw\nas black resign\n"},
        {"orthodox", "f3\ne5\ng4\ndraw\nQh4\n"},
        {"masques --fen 'r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/"
         "R~N~B~Q~K~B~N~R~ w KQkq - 0 1'", "e2e4\ndraw\nas white resign\n"},
        {"ambigus", "e4\ne5\ndraw\nas white resign\n"},
        {"echiquete", "e4\ndraw\nas white resign\n"},
        {"tile --fen 'wR0,0 wK1,0 bP2,0 bK3,0 turn:w'", "draw\nas black resign\n"},
    };
    for (size_t i = 0; i < ARRAY_LEN(CASES); i++) {
        char args[256], in[256];
        snprintf(args, sizeof args, "run %s --json", CASES[i].args);
        snprintf(in, sizeof in, "%sstatus\nas white view\nas black view\n", CASES[i].input);
        Answers r;
        answers(&r, args, in);
        last_ok(&r);
        const Json *st = r.a[r.n - 3];
        if (at(st, "status.over")->type != JSON_TRUE)
            fail_msg("%s: the game goes on", args);
        assert_member(r.a[r.n - 4], "to_act", NULL);
        assert_member(st, "to_act", NULL);
        assert_member(st, "side_to_move", NULL);
        assert_member(st, "draw_offer", NULL);
        for (int k = r.n - 2; k < r.n; k++) {
            assert_member(r.a[k], "view.side_to_move", NULL);
            assert_member(r.a[k], "view.seat_to_act", NULL);
            assert_member(r.a[k], "view.draw_offer", NULL);
            assert_member(r.a[k], "view.question", NULL);
            assert_member(r.a[k], "view.phase", "over");
        }
        assert_member(st, "phase", "over");
        answers_free(&r);
    }
}

/* The offer itself is still told while the game goes on. */
static void test_issue19_7_a_standing_offer_is_told(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run orthodox --json", "e4\ndraw\nstatus\nview\n");
    const Json *a = last_ok(&r);
    assert_member(r.a[2], "draw_offer", "black");
    assert_member(a, "view.draw_offer", "black");
    assert_member(a, "view.side_to_move", "black");
    answers_free(&r);
}

/* ---- Options that clash, errors that name the seat --------------------------- */

/* issue 19 point 7: Tile's `first` and a --fen both say who moves first:
 * refused (exit 2) naming both, where the parameter was silently ignored;
 * alone, the parameter decides. */
static void test_issue19_7_tile_first_with_fen_is_refused(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "run tile --param first=black --fen 'hand:w=KQRRBBNNPPPPPPPP,"
               "b=KQRRBBNNPPPPPPPP turn:w' --json", "status\n");
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_non_null(strstr(r.err, "--param first=black"));
    assert_non_null(strstr(r.err, "--fen"));
    assert_non_null(strstr(r.err, "first:"));
    tu_run_free(&r);
    for (int cmd = 0; cmd < 2; cmd++) { /* every command that starts a game */
        tu_run(&r, cmd ? "legal tile --param first=red --sides 3 --fen 'wK0,0 bK1,0 "
                         "rK2,0 turn:w'" : "perft tile --depth 1 --param first=black "
                         "--fen 'wK0,0 bK1,0 turn:w'", NULL);
        assert_int_equal(r.status, 2);
        assert_non_null(strstr(r.err, "--fen"));
        tu_run_free(&r);
    }
    Answers a;
    answers(&a, "run tile --param first=black --json", "status\n");
    assert_member(last_ok(&a), "to_act", "black");
    answers_free(&a);
    answers(&a, "run tile --fen 'hand:w=KQRRBBNNPPPPPPPP,b=KQRRBBNNPPPPPPPP turn:w "
                "first:b' --json", "status\n");
    assert_member(last_ok(&a), "to_act", "white");
    answers_free(&a);
}

/* issue 19 point 7: a bot asked for a seat that has nothing to do names
 * the seat (it said "this seat"). */
static void test_issue19_7_bot_error_names_the_seat(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run tile --sides 3 --fen 'wK0,0 bK1,0 rQ2,0 cmd:r=w turn:w' --json",
            "as red bot random\n");
    assert_int_equal(r.n, 1);
    assert_int_equal(at(r.a[0], "ok")->type, JSON_FALSE);
    const char *msg = at(r.a[0], "error")->str;
    if (!strstr(msg, "red") || strstr(msg, "this seat"))
        fail_msg("the error does not name red: %s", msg);
    answers_free(&r);
}

/* A bot asked for a seat that is not to act, with only resign and a draw
 * offer open, has nothing to do: it never resigns out of turn (it did:
 * "black: resign" after 'as black bot random' at the start). */
static void test_bot_out_of_turn_does_not_resign(void **state)
{
    (void)state;
    static const char *const levels[] = {"random", "greedy", "search"};
    for (int i = 0; i < 3; i++) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "as black bot %s\nstatus\n", levels[i]);
        Answers r;
        answers(&r, "run orthodox --json", cmd);
        assert_int_equal(r.n, 2);
        assert_int_equal(at(r.a[0], "ok")->type, JSON_FALSE);
        const char *msg = at(r.a[0], "error")->str;
        if (!strstr(msg, "black is not the seat to act"))
            fail_msg("%s bot: %s", levels[i], msg);
        assert_int_equal(at(at(r.a[1], "status"), "over")->type, JSON_FALSE);
        assert_member(r.a[1], "to_act", "white");
        answers_free(&r);
    }
}

/* issue 19 point 7: an action for "the seat to act" (-1) once the game is
 * over is refused with why, never "there is no seat -1" (UCI met it). */
static void test_issue19_7_no_seat_minus_one_after_the_end(void **state)
{
    (void)state;
    Game *g = tu_orthodox(NULL);
    tu_play_line(g, "f3 e5 g4 Qh4");
    Error e;
    assert_int_equal(game_play(g, game_to_act(g), "a3", &e), -1);
    assert_non_null(strstr(e.msg, "the game is over (0-1, checkmate)"));
    assert_null(strstr(e.msg, "seat -1"));
    game_free(g);
}

/* ---- legal's detail (issue 21) ------------------------------------------- */

/* Every play action of a legal answer has its detail, in the same order,
 * with the same machine and record texts. */
static void assert_detail_follows(const Json *legal)
{
    const Json *acts = at(legal, "actions"), *rec = at(legal, "record"),
               *det = at(legal, "detail");
    assert_true(acts->count > 0);
    assert_int_equal(det->count, acts->count);
    for (int i = 0; i < acts->count; i++) {
        assert_member(json_at(det, i), "machine", json_at(acts, i)->str);
        assert_member(json_at(det, i), "record", json_at(rec, i)->str);
    }
}

/* The detail entry whose machine text is m is exactly want (JSON text). */
static void assert_detail(const Json *legal, const char *m, const char *want)
{
    const Json *det = at(legal, "detail");
    for (int i = 0; i < det->count; i++) {
        const Json *d = json_at(det, i);
        if (strcmp(at(d, "machine")->str, m) != 0)
            continue;
        if (d->len != strlen(want) || strncmp(d->text, want, d->len) != 0)
            fail_msg("detail of %s: %.*s, not %s", m, (int)d->len, d->text, want);
        return;
    }
    fail_msg("no detail for %s", m);
}

/* issue 21: `legal` gives each play action's kind, squares (x, y), figure
 * and amount, null where the kind has none, so a page maps clicks to
 * actions without reading the variant's texts. */
static void test_issue21_legal_detail(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run orthodox --json --fen '7k/1P6/8/8/8/8/8/K7 w - - 0 1'", "legal\n");
    const Json *l = last_ok(&r);
    assert_detail_follows(l);
    assert_detail(l, "b7b8q", "{\"kind\":\"move\",\"from\":{\"x\":1,\"y\":6},\"to\":"
                              "{\"x\":1,\"y\":7},\"figure\":\"Q\",\"amount\":null,"
                              "\"machine\":\"b7b8q\",\"record\":\"b8=Q+\"}");
    assert_detail(l, "a1a2", "{\"kind\":\"move\",\"from\":{\"x\":0,\"y\":0},\"to\":"
                             "{\"x\":0,\"y\":1},\"figure\":null,\"amount\":null,"
                             "\"machine\":\"a1a2\",\"record\":\"Ka2\"}");
    answers_free(&r);
    /* Masqués: placing (a square and a figure), standard (neither), bids */
    answers(&r, "run masques --json --seed 3",
            "legal\nstandard\nstandard\nd2d4\ne7e5\npass\nd4e5\nlegal\n");
    l = last_ok(&r);
    assert_detail_follows(r.a[0]);
    assert_detail(r.a[0], "place K a1", "{\"kind\":\"place\",\"from\":null,\"to\":{\"x\":0,"
                                        "\"y\":0},\"figure\":\"K\",\"amount\":null,"
                                        "\"machine\":\"place K a1\",\"record\":\"place K a1\"}");
    assert_detail(r.a[0], "standard", "{\"kind\":\"place\",\"from\":null,\"to\":null,"
                                      "\"figure\":null,\"amount\":null,\"machine\":"
                                      "\"standard\",\"record\":\"standard\"}");
    assert_detail_follows(l);
    assert_detail(l, "bid 3", "{\"kind\":\"bid\",\"from\":null,\"to\":null,\"figure\":null,"
                              "\"amount\":3,\"machine\":\"bid 3\",\"record\":\"bid 3\"}");
    answers_free(&r);
    /* Échecs ambigus: a square is named, no piece (AMBI-1) */
    answers(&r, "run ambigus --json", "legal\n");
    l = last_ok(&r);
    assert_detail_follows(l);
    assert_detail(l, "e4", "{\"kind\":\"move\",\"from\":null,\"to\":{\"x\":4,\"y\":3},"
                           "\"figure\":null,\"amount\":null,\"machine\":\"e4\",\"record\":"
                           "\"e4 (Pe2e4)\"}");
    answers_free(&r);
}

/* issue 21, AMBI-7: under the clock procedure `legal` also gives the
 * other texts the variant reads for its actions (`inputs`, each a detail
 * object): the whole moves, with their squares for a click, and, while a
 * proposal stands, the chooser's `keep`; `detail` stays one entry per
 * play action.  Without the procedure there is no `inputs`. */
static void test_issue21_ambi7_legal_inputs(void **state)
{
    (void)state;
    Answers r;
    answers(&r, "run ambigus --json --param clock=on", "legal\nNf3\nlegal\nas white legal\n");
    const Json *l = r.a[0];
    assert_detail_follows(l);
    const Json *in = at(l, "inputs");
    assert_int_equal(in->count, 20); /* the sixteen pawn moves, four knight moves */
    const char *want[][2] = {
        {"g1f3", "{\"kind\":\"move\",\"from\":{\"x\":6,\"y\":0},\"to\":{\"x\":5,\"y\":2},"
                 "\"figure\":null,\"amount\":null,\"machine\":\"g1f3\",\"record\":\"Ng1f3\"}"},
        {"e2e4", "{\"kind\":\"move\",\"from\":{\"x\":4,\"y\":1},\"to\":{\"x\":4,\"y\":3},"
                 "\"figure\":null,\"amount\":null,\"machine\":\"e2e4\",\"record\":\"e4 (Pe2e4)\"}"},
    };
    for (size_t w = 0; w < 2; w++) {
        int found = 0;
        for (int i = 0; i < in->count; i++) {
            const Json *d = json_at(in, i);
            if (strcmp(at(d, "machine")->str, want[w][0]) != 0)
                continue;
            found = 1;
            if (d->len != strlen(want[w][1]) || strncmp(d->text, want[w][1], d->len) != 0)
                fail_msg("input %s: %.*s, not %s", want[w][0], (int)d->len, d->text, want[w][1]);
        }
        if (!found)
            fail_msg("no input %s", want[w][0]);
    }
    l = r.a[2]; /* black chooses: keep the knight */
    assert_detail_follows(l);
    in = at(l, "inputs");
    assert_int_equal(in->count, 1);
    const char *keep = "{\"kind\":\"choose\",\"from\":null,\"to\":null,\"figure\":null,"
                       "\"amount\":null,\"machine\":\"keep\",\"record\":\"keep Ng1f3\"}";
    const Json *d = json_at(in, 0);
    if (d->len != strlen(keep) || strncmp(d->text, keep, d->len) != 0)
        fail_msg("keep: %.*s", (int)d->len, d->text);
    assert_null(json_get(r.a[3], "inputs")); /* white, waiting: nothing to type */
    answers_free(&r);
    answers(&r, "run ambigus --json", "legal\n");
    assert_null(json_get(r.a[0], "inputs"));
    answers_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue21_legal_detail),
        cmocka_unit_test(test_issue21_ambi7_legal_inputs),
        cmocka_unit_test(test_issue19_7_reason_code_of_every_end),
        cmocka_unit_test(test_issue19_7_every_code_is_reached_and_documented),
        cmocka_unit_test(test_issue19_7_no_code_while_the_game_goes_on),
        cmocka_unit_test(test_issue19_7_codes_follow_the_texts_in_random_games),
        cmocka_unit_test(test_issue19_7_phase_of_each_variant),
        cmocka_unit_test(test_issue19_7_commands_turn_order_and_sides_out),
        cmocka_unit_test(test_issue19_7_tile_threats_and_scores),
        cmocka_unit_test(test_issue19_7_nothing_stands_after_the_end),
        cmocka_unit_test(test_issue19_7_a_standing_offer_is_told),
        cmocka_unit_test(test_issue19_7_tile_first_with_fen_is_refused),
        cmocka_unit_test(test_issue19_7_bot_error_names_the_seat),
        cmocka_unit_test(test_issue19_7_no_seat_minus_one_after_the_end),
        cmocka_unit_test(test_bot_out_of_turn_does_not_resign),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
