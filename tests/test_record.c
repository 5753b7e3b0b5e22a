/*
 * test_record.c -- game records (core/record/record.c, docs/RECORDS.md): saved
 * games load back as the same game (orthodox ORTH-8 offers and resignation,
 * the toy variant's hidden secrets, choices, capture and takeover,
 * parameters and positions); every kind of corrupt record is an error
 * naming its line; truncated and mangled records never crash.
 *
 * Invariant: every test builds its own games and texts; the fuzzing uses a
 * fixed seed, so a failure is reproducible.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/game.h"
#include "../core/record/record.h"
#include "../variants/orthodox/orthodox.h"
#include "support/testutil.h"
#include "support/toy_variant.h"

/* ---- Helpers ------------------------------------------------------------ */

static Game *orth(uint64_t seed)
{
    return tu_game(&(TuGame){.variant = &orthodox_variant, .seed = seed});
}

/* TOY-5, TOY-6: from the toy start, three steps that each judge lets
 * happen (seats 0, 1, 2 in turn), the last one onto red, so blue's seat
 * commands red too. */
static void toy_capture_red(Game *g)
{
    tu_play(g, 0, "0,0");
    tu_play(g, 1, toy_wrong_guess(g));
    tu_play(g, 1, "0,1");
    tu_play(g, 2, toy_wrong_guess(g));
    tu_play(g, 2, "0,0"); /* onto red: TOY-6 */
    tu_play(g, 0, toy_wrong_guess(g));
}

static char *save(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    assert_int_equal(record_save(g, &b), 0);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

/* The built-in variants plus the test-only toy. */
static const VariantOps *const test_variants[] = {&orthodox_variant,
                                                  &toy_variant, NULL};

static Game *load(const char *text)
{
    Error e = {""};
    Game *g = record_load_from(text, "game.rec", test_variants, &e);
    if (!g)
        print_error("record_load: %s\n", e.msg);
    assert_non_null(g);
    return g;
}

/* The loaded game is the saved one: position (secrets included), history
 * with seats and texts, result, and every seat's messages. */
static void assert_same_game(const Game *a, const Game *b)
{
    char *pa = tu_position(a), *pb = tu_position(b);
    assert_string_equal(pa, pb);
    free(pa);
    free(pb);
    assert_int_equal(game_history_len(a), game_history_len(b));
    for (int i = 0; i < game_history_len(a); i++) {
        assert_int_equal(game_history(a, i)->action.seat,
                         game_history(b, i)->action.seat);
        assert_string_equal(game_history(a, i)->text, game_history(b, i)->text);
    }
    char ra[64], rb[64];
    assert_string_equal(game_result_text(a, ra, sizeof ra),
                        game_result_text(b, rb, sizeof rb));
    assert_int_equal(game_to_act(a), game_to_act(b));
    assert_int_equal(game_message_count(a), game_message_count(b));
    for (int i = 0; i < game_message_count(a); i++)
        for (int seat = 0; seat < game_nseats(a); seat++) {
            const char *ma = game_message(a, i, seat);
            const char *mb = game_message(b, i, seat);
            assert_true((ma == NULL) == (mb == NULL));
            if (ma)
                assert_string_equal(ma, mb);
        }
}

/* Save, load, compare, and saving the loaded game gives the same text. */
static void round_trip(const Game *g)
{
    char *text = save(g);
    Game *back = load(text);
    assert_same_game(g, back);
    char *again = save(back);
    assert_string_equal(text, again);
    free(again);
    free(text);
    game_free(back);
}

/* Loading must fail with "game.rec:LINE: ..." holding `want`. */
static void load_fails(const char *text, int line, const char *want)
{
    Error e = {""};
    Game *g = record_load(text, "game.rec", &e);
    if (g)
        print_error("loaded, but expected an error at line %d:\n%s\n", line,
                    text);
    assert_null(g);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "game.rec:%d: ", line);
    if (strncmp(e.msg, prefix, strlen(prefix)) || !strstr(e.msg, want))
        print_error("got \"%s\"\nwant \"%s...%s...\"\n", e.msg, prefix, want);
    assert_true(strncmp(e.msg, prefix, strlen(prefix)) == 0);
    assert_non_null(strstr(e.msg, want));
}

/* An orthodox game with an offer, a decline and a resignation (ORTH-8). */
static const char ORTH_RECORD[] =
    "[Variant \"orthodox\"]\n"
    "[Seed \"1\"]\n"
    "[Sides \"2\"]\n"
    "[Result \"1-0\"]\n"
    "[Termination \"black resigned\"]\n"
    "\n"
    "1. white: e4\n"
    "2. black: e5\n"
    "3. white: Nf3\n"
    "4. black: draw\n"
    "5. white: decline\n"
    "6. black: Nc6\n"
    "7. white: Bb5\n"
    "8. black: resign\n";

/* ---- Round trips --------------------------------------------------------- */

static void test_orth8_record_offers_and_resignation(void **state)
{
    (void)state;
    Game *g = orth(1);
    static const struct {
        int seat;
        const char *text;
    } acts[] = {{0, "e4"},      {1, "e5"},  {0, "Nf3"}, {1, "draw"},
                {0, "decline"}, {1, "Nc6"}, {0, "Bb5"}, {1, "resign"}};
    for (size_t i = 0; i < ARRAY_LEN(acts); i++)
        tu_play(g, acts[i].seat, acts[i].text);
    char *text = save(g);
    assert_string_equal(text, ORTH_RECORD);
    free(text);
    round_trip(g);
    game_free(g);
}

/* ORTH-7: a mate, typed in UCI, recorded in SAN with its mark. */
static void test_orth7_record_checkmate(void **state)
{
    (void)state;
    Game *g = orth(5);
    static const char *const moves[] = {"f2f3", "e7e5", "g2g4", "d8h4", NULL};
    tu_play_all(g, moves);
    char *text = save(g);
    assert_non_null(strstr(text, "[Result \"0-1\"]\n[Termination \"checkmate\"]\n"));
    assert_non_null(strstr(text, "\n4. black: Qh4#\n"));
    free(text);
    round_trip(g);
    game_free(g);
}

/* ORTH-8: a draw agreed, and a game still going. */
static void test_orth8_record_agreement_and_unfinished(void **state)
{
    (void)state;
    Game *g = orth(2);
    tu_play(g, 0, "d4");
    tu_play(g, 1, "d5");
    tu_play(g, 0, "draw");
    tu_play(g, 1, "accept");
    char *text = save(g);
    assert_non_null(strstr(text, "[Result \"1/2-1/2\"]\n"
                                 "[Termination \"draw by agreement\"]\n"));
    free(text);
    round_trip(g);
    game_free(g);

    /* Unfinished, with an offer pending: it is pending after loading. */
    g = orth(2);
    tu_play(g, 0, "e4");
    tu_play(g, 1, "draw");
    text = save(g);
    assert_non_null(strstr(text, "[Result \"*\"]\n\n"));
    assert_null(strstr(text, "[Termination"));
    Game *back = load(text);
    assert_int_equal(game_draw_offer(back), 1);
    game_free(back);
    free(text);
    round_trip(g);
    game_free(g);
}

/* Parameters that differ from the defaults and a start position. */
static void test_record_params_and_position(void **state)
{
    (void)state;
    static const char fen[] = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    Game *g = tu_game(&(TuGame){.variant = &orthodox_variant, .seed = 3,
                                .position = fen,
                                .params = "castling=off fivefold=off"});
    static const char *const moves[] = {"Kd1", "Kd8", "Ra8+", NULL};
    tu_play_all(g, moves);
    char *text = save(g);
    assert_non_null(strstr(text, "[Params \"fivefold=off castling=off\"]\n"));
    assert_non_null(strstr(text, "[Position \"r3k2r/8/8/8/8/8/8/R3K2R w KQkq "
                                 "- 0 1\"]\n"));
    Game *back = load(text);
    assert_int_equal(game_param(back, 5), 0); /* castling, from the tag */
    game_free(back);
    free(text);
    round_trip(g);
    game_free(g);

    /* Default parameters and the start position: neither tag is written. */
    g = orth(3);
    text = save(g);
    assert_null(strstr(text, "[Params"));
    assert_null(strstr(text, "[Position"));
    free(text);
    game_free(g);
}

/* A setup hook's start position is recorded, so the record replays
 * without the hook. */
static int setup_corner(void *ud, Game *g, StrBuf *out, Error *e)
{
    (void)ud, (void)g, (void)e;
    sb_puts(out, "7k/8/8/8/8/8/8/K5R1 w - - 0 1");
    return 0;
}

static void test_record_keeps_hooked_setup(void **state)
{
    (void)state;
    GameHooks h = {.setup = setup_corner};
    Game *g = tu_game(&(TuGame){.variant = &orthodox_variant, .seed = 3,
                                .hooks = &h});
    tu_play(g, 0, "Rg7");
    char *text = save(g);
    assert_non_null(strstr(text, "[Position \"7k/8/8/8/8/8/8/K5R1 w - - 0 1\"]"));
    free(text);
    round_trip(g);
    game_free(g);
}

/* The toy game: secrets rebuilt from the seed, a judge's choices, a
 * capture, a newcomer's takeover (TOY-3 .. TOY-7). */
static void test_toy_record_hidden_facts_and_choices(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = &toy_variant, .seed = 99,
                                .nseats = 4, .params = "goal=6"});
    /* TOY-5: each judge guesses wrong, so each step happens ... */
    toy_capture_red(g);
    assert_int_equal(toy_commander(g, 0), 2);
    tu_play(g, 3, "take red"); /* TOY-7, out of turn */
    tu_play(g, 3, "1,-1");
    tu_play(g, 1, toy_right_guess(g)); /* ... this one not */
    tu_play(g, 1, "draw");

    char *text = save(g);
    assert_non_null(strstr(text, "[Sides \"3\"]\n[Seats \"4\"]\n"));
    assert_non_null(strstr(text, "[Params \"goal=6\"]\n"));
    assert_non_null(strstr(text, "\n5. blue: 0,0\n"));
    assert_non_null(strstr(text, "\n7. seat4: take red\n"));
    assert_non_null(strstr(text, "\n10. green: draw\n"));
    assert_null(strstr(text, "[Position"));
    /* The record holds the seed, not the secrets. */
    char dec[16];
    snprintf(dec, sizeof dec, "%d", (int)toy_secret(g, 0));
    assert_null(strstr(text, dec));
    free(text);
    round_trip(g);
    game_free(g);

    /* From a position, with a step waiting for its judge. */
    g = tu_game(&(TuGame){.variant = &toy_variant, .seed = 4, .nsides = 2,
                          .position = "red:-3,2:700000001:0 "
                                      "green:3,-3:800000002:1 turn:green"});
    assert_int_equal(game_nsides(g), 2);
    tu_play(g, 1, "3,-2");
    round_trip(g);
    game_free(g);
}

/* ---- Reading rules --------------------------------------------------------- */

/* Comments, blank lines, CRLF ends, spacing, seat numbers, a byte order
 * mark and tags for people are all accepted. */
static void test_record_lenient_reading(void **state)
{
    (void)state;
    static const char text[] =
        "\xEF\xBB\xBF# a club game\r\n"
        "[Event \"club \\\"night\\\" \\\\ 3\"]\r\n"
        "  [Variant   \"orthodox\" ]  \r\n"
        "[Seed \"1\"]\n[Sides \"2\"]\n"
        "[Result \"*\"]\n"
        "\n"
        "# the opening\n"
        "1.white:e4\r\n"
        "   2.  black :   e5   \n"
        "\n";
    Game *g = load(text);
    assert_int_equal(game_history_len(g), 2);
    assert_int_equal(game_history(g, 1)->action.seat, 1);
    game_free(g);
}

static void test_record_escapes_tag_values(void **state)
{
    (void)state;
    Game *g = orth(1);
    game_end(g, 1, "said \"stop\" \\ left");
    char *text = save(g);
    assert_non_null(strstr(text, "[Termination \"said \\\"stop\\\" \\\\ left\"]\n"));
    free(text);
    game_free(g);

    /* The loader reads them back: a wrong Termination is named with its
     * unescaped text. */
    load_fails("[Variant \"orthodox\"]\n[Seed \"1\"]\n[Sides \"2\"]\n"
               "[Result \"0-1\"]\n[Termination \"a \\\"b\\\" \\\\\"]\n\n"
               "1. white: f3\n2. black: e5\n3. white: g4\n4. black: Qh4#\n",
               5, "Termination says \"a \"b\" \\\" but the game ended by "
               "\"checkmate\"");
}

/* ---- Corrupt records: every problem names its line ------------------------ */

#define TAGS3 "[Variant \"orthodox\"]\n[Seed \"1\"]\n[Sides \"2\"]\n"

static void test_record_rejects_bad_tags(void **state)
{
    (void)state;
    load_fails("[Variant \"orthodoxx\"]\n[Seed \"1\"]\n[Sides \"2\"]\n"
               "[Result \"*\"]\n", 1, "unknown variant \"orthodoxx\" (valid "
               "variants: orthodox");
    load_fails("[Variant \"orthodox\"]\n[Seed 1]\n", 2, "double quotes");
    load_fails("[Variant \"orthodox\"]\n[Seed \"1\"\n", 2, "expected ']'");
    load_fails("[Variant \"orthodox\"]\n[Seed \"1]\n", 2, "no closing quote");
    load_fails("[Variant \"orthodox\"]\n[Seed \"1\\n\"]\n", 2,
               "unknown escape");
    load_fails("[\"orthodox\"]\n", 1, "bad tag");
    load_fails("[Variant \"orthodox\"] x\n", 1, "text after ']'");
    load_fails("[Variant-2 \"orthodox\"]\n", 1, "bad tag name");
    load_fails(TAGS3 "[Rules \"a.lua\"]\n", 4, "unknown tag Rules (known "
               "tags: Variant, Seed");
    load_fails(TAGS3 "[Seed \"2\"]\n", 4, "second Seed tag (the first is on "
               "line 2)");
    load_fails(TAGS3 "[Params \"fivefold=maybe\"]\n[Result \"*\"]\n", 4,
               "Params: ");
    load_fails(TAGS3 "[Params \"castling=off nosuch=1\"]\n[Result \"*\"]\n",
               4, "nosuch");
    load_fails(TAGS3 "[Position \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n"
               "[Result \"*\"]\n", 4, "Position: ");
    load_fails(TAGS3 "[Position \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w\"]\n"
               "[Result \"*\"]\n", 4, "Position: ");
    load_fails("[Variant \"orthodox\"]\n[Seed \"1\"]\n[Sides \"3\"]\n"
               "[Result \"*\"]\n", 3, "Sides must be a number from 2 to 2");
    load_fails("[Variant \"orthodox\"]\n[Seed \"-1\"]\n[Sides \"2\"]\n"
               "[Result \"*\"]\n", 2, "Seed must be a whole number");
    load_fails("[Variant \"orthodox\"]\n[Seed \"18446744073709551616\"]\n"
               "[Sides \"2\"]\n[Result \"*\"]\n", 2, "Seed must be");
    load_fails(TAGS3 "[Seats \"9\"]\n[Result \"*\"]\n", 4, "Seats must be");
    load_fails("[Variant \"toy\"]\n", 1, "unknown variant \"toy\"");
}

static void test_record_requires_its_tags(void **state)
{
    (void)state;
    load_fails("", 1, "no Variant tag");
    load_fails("# only a comment\n\n", 2, "no Variant tag");
    load_fails("1. white: e4\n", 1, "no Variant tag");
    load_fails("[Variant \"orthodox\"]\n[Sides \"2\"]\n[Result \"*\"]\n", 3,
               "no Seed tag");
    load_fails("[Variant \"orthodox\"]\n[Seed \"1\"]\n[Result \"*\"]\n"
               "\n1. white: e4\n", 5, "no Sides tag");
    load_fails(TAGS3 "\n1. white: e4\n", 5, "no Result tag");
    load_fails(TAGS3 "[Result \"*\"]\n\n1. white: e4\n[Event \"late\"]\n", 7,
               "tag after the first action");
    Error e = {""};
    assert_null(record_load(NULL, "nothing", &e));
    assert_non_null(strstr(e.msg, "nothing"));
}

static void test_record_rejects_bad_actions(void **state)
{
    (void)state;
#define HEAD TAGS3 "[Result \"*\"]\n\n"
    load_fails(HEAD "1. white: e4\n3. black: e5\n", 7,
               "action number 3 is out of sequence (expected 2)");
    load_fails(HEAD "0. white: e4\n", 6, "out of sequence (expected 1)");
    load_fails(HEAD "1. white: e4\n2. red: e5\n", 7,
               "unknown seat \"red\" (the seats are: white (0), black (1))");
    load_fails(HEAD "1. white: e4\n2. black: e4\n", 7, "black cannot play "
               "\"e4\"");
    load_fails(HEAD "1. white: e4\n2. white: d4\n", 7, "white cannot play "
               "\"d4\": it is black's turn");
    load_fails(HEAD "1. white: e4\n2. black: Qxz9\n", 7, "black cannot play");
    load_fails(HEAD "1. white: e4\n2. black:\n", 7, "no action after");
    load_fails(HEAD "1. white: e4\n2 black: e5\n", 7, "expected an action "
               "line like");
    load_fails(HEAD "1. white: e4\n2. black e5\n", 7, "no ':'");
    load_fails(HEAD "1. white: e4\n12345678901. black: e5\n", 7,
               "action number too large");
    load_fails(HEAD "1. white: e4\n2. black: accept\n", 7,
               "there is no draw offer to accept");
    load_fails(HEAD "1. white: resign\n2. black: e5\n", 7, "the game is over");
#undef HEAD
}

/* The Result tag is checked against the replay: a truncated file fails. */
static void test_record_result_must_match_replay(void **state)
{
    (void)state;
    load_fails(TAGS3 "[Result \"1-0\"]\n\n1. white: f3\n2. black: e5\n"
               "3. white: g4\n4. black: Qh4#\n", 4, "Result says \"1-0\" but "
               "replaying the actions gives \"0-1\"");
    load_fails(TAGS3 "[Result \"*\"]\n[Termination \"checkmate\"]\n", 5,
               "the game is not over");

    /* Cut the orthodox record after each of its lines: everything shorter
     * than the whole is caught. */
    const char *p = ORTH_RECORD;
    int line = 0;
    while ((p = strchr(p, '\n')) != NULL) {
        p++;
        line++;
        size_t n = (size_t)(p - ORTH_RECORD);
        if (n == sizeof ORTH_RECORD - 1)
            break;
        char *cut = strndup(ORTH_RECORD, n);
        Error e = {""};
        Game *g = record_load(cut, "cut.rec", &e);
        if (g)
            print_error("a record cut after line %d loaded\n", line);
        assert_null(g);
        assert_true(strncmp(e.msg, "cut.rec:", 8) == 0);
        free(cut);
    }
}

/* ---- Files ----------------------------------------------------------------- */

static void test_record_files(void **state)
{
    (void)state;
    char path[] = "/tmp/chessvar-record-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    Game *g = tu_game(&(TuGame){.variant = &orthodox_variant, .seed = 12,
                                .params = "fifty_move=off"});
    tu_play(g, 0, "Nf3");
    Error e = {""};
    assert_int_equal(record_save_file(g, path, &e), 0);
    Game *back = record_load_file(path, &e);
    assert_non_null(back);
    assert_same_game(g, back);
    game_free(back);
    game_free(g);

    /* A NUL byte in a file is named with its line. */
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    static const char nul[] = TAGS3 "[Result \"*\"]\n\n1. white: e4\0\n";
    fwrite(nul, 1, sizeof nul - 1, f);
    fclose(f);
    assert_null(record_load_file(path, &e));
    char want[96];
    snprintf(want, sizeof want, "%s:6: a NUL byte", path);
    assert_true(strncmp(e.msg, want, strlen(want)) == 0);
    unlink(path);

    assert_null(record_load_file(path, &e));
    assert_non_null(strstr(e.msg, path));
    assert_non_null(strstr(e.msg, "cannot read"));
    g = orth(1);
    assert_int_equal(record_save_file(g, "/nonexistent-dir/x.rec", &e), -1);
    assert_non_null(strstr(e.msg, "/nonexistent-dir/x.rec: cannot write"));
    game_free(g);
}

/* Issue 8, item 5: no silent truncation.  An action text longer than the
 * game reads is refused, never cut to a shorter text that happens to be
 * legal ("e4", then 300 spaces and "zzz", once loaded as e4). */
static void test_record_refuses_overlong_action_text(void **state)
{
    (void)state;
    char text[1024];
    snprintf(text, sizeof text, TAGS3 "[Result \"*\"]\n\n1. white: e4%300szzz\n", "");
    load_fails(text, 6, "too long");
    /* Issue 8, item 2: a message quoting a long text of accented letters
     * never cuts a character (every byte sequence stays UTF-8). */
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, TAGS3 "[Result \"*\"]\n\n1. white: e");
    for (int i = 0; i < 60; i++)
        sb_puts(&b, "\xC3\xA9");
    sb_puts(&b, "\n");
    Error e = {""};
    assert_null(record_load(b.s, "game.rec", &e));
    assert_true(utf8_valid(e.msg, strlen(e.msg)));
    assert_non_null(strstr(e.msg, "game.rec:6: white cannot play \"e\xC3\xA9"));
    sb_reset(&b);
    sb_puts(&b, TAGS3 "[Result \"");
    for (int i = 0; i < 300; i++)
        sb_puts(&b, "\xC3\xA9");
    sb_puts(&b, "\"]\n");
    assert_null(record_load(b.s, "game.rec", &e));
    assert_true(utf8_valid(e.msg, strlen(e.msg)));
    sb_free(&b);
}

/* Issue 8, item 7: RECORDS.md says a seat is given by name or number; the
 * numbers (from 0) are read back, and one past the seats is refused. */
static void test_record_seat_numbers(void **state)
{
    (void)state;
    Game *g = load(TAGS3 "[Result \"*\"]\n\n1. 0: e4\n2. 1: e5\n3. white: Nf3\n");
    assert_int_equal(game_history(g, 1)->action.seat, 1);
    tu_assert_position(g, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    game_free(g);
    load_fails(TAGS3 "[Result \"*\"]\n\n1. 2: e4\n", 6, "unknown seat \"2\"");
    load_fails(TAGS3 "[Result \"*\"]\n\n1. 00: e4\n", 6, "unknown seat \"00\"");
}

/* A file of the directory dir (with a '/' at its end) other than keep, or
 * NULL: what a failed save may not leave behind. */
static char *stray_file(const char *dir, const char *keep)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls -A '%s'", dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[256], *stray = NULL;
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, keep) != 0 && !stray)
            stray = strdup(line);
    }
    pclose(p);
    return stray;
}

/* Issue 8, item 6: saving is atomic.  In a child limited to 200-byte
 * files (SIGXFSZ ignored, so the write fails with EFBIG), saving a long
 * game over an older record fails with a message, keeps the old record
 * whole, and leaves no partial or temporary file. */
static void test_record_save_is_atomic(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-atomic-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[96];
    snprintf(path, sizeof path, "%s/game.rec", dir);
    Game *old = orth(3);
    Error e = {""};
    assert_int_equal(record_save_file(old, path, &e), 0);
    char *before = tu_read_file(path);
    assert_non_null(before);
    Game *g = orth(3);
    tu_play_line(g, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8");
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit rl = {200, 200};
        signal(SIGXFSZ, SIG_IGN);
        if (setrlimit(RLIMIT_FSIZE, &rl))
            _exit(3);
        Error ce = {""};
        if (record_save_file(g, path, &ce) == 0)
            _exit(1);
        _exit(strstr(ce.msg, path) && strstr(ce.msg, "cannot write") ? 0 : 2);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0); /* failed, with the path and why */
    char *after = tu_read_file(path);
    assert_non_null(after);
    assert_string_equal(after, before); /* the old record is whole */
    char *stray = stray_file(dir, "game.rec");
    if (stray)
        fail_msg("a failed save left %s in %s", stray, dir);
    /* Without the limit the same save replaces the record completely. */
    assert_int_equal(record_save_file(g, path, &e), 0);
    Game *back = record_load_file(path, &e);
    assert_non_null(back);
    assert_same_game(g, back);
    stray = stray_file(dir, "game.rec");
    assert_null(stray);
    game_free(back);
    free(before);
    free(after);
    game_free(g);
    game_free(old);
    unlink(path);
    rmdir(dir);
}

/* Issue 8, item 7: a record is a regular file.  Loading a directory or a
 * FIFO, and saving onto one, are refused at once with what it is (a FIFO
 * without a writer used to block the load forever; a directory read as
 * "Input/output error"). */
static void test_record_files_must_be_regular(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar-notfile-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char fifo[96];
    snprintf(fifo, sizeof fifo, "%s/pipe.rec", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    Error e = {""};
    assert_null(record_load_file(dir, &e));
    assert_non_null(strstr(e.msg, "is a directory"));
    assert_null(strstr(e.msg, "Input/output"));
    alarm(20); /* a regression blocks here: fail, do not hang */
    assert_null(record_load_file(fifo, &e));
    assert_non_null(strstr(e.msg, "not a regular file"));
    Game *g = orth(1);
    assert_int_equal(record_save_file(g, fifo, &e), -1);
    assert_non_null(strstr(e.msg, "not a regular file"));
    assert_int_equal(record_save_file(g, dir, &e), -1);
    assert_non_null(strstr(e.msg, "is a directory"));
    alarm(0);
    struct stat sb;
    assert_int_equal(stat(fifo, &sb), 0);
    assert_true(S_ISFIFO(sb.st_mode)); /* not replaced by a file */
    game_free(g);
    unlink(fifo);
    rmdir(dir);
}

/* ---- Fuzzing ----------------------------------------------------------------- */

/* Load a mangled record: it loads, or fails with "fuzz.rec:N: ...". */
static int fuzz_one(const char *text)
{
    Error e = {""};
    Game *g = record_load_from(text, "fuzz.rec", test_variants, &e);
    if (g) {
        game_free(g);
        return 1;
    }
    if (strncmp(e.msg, "fuzz.rec:", 9) != 0)
        print_error("error without source and line: \"%s\"\n", e.msg);
    assert_true(strncmp(e.msg, "fuzz.rec:", 9) == 0);
    assert_true(e.msg[9] >= '1' && e.msg[9] <= '9');
    return 0;
}

static void mangle(Rng *r, const char *base, char *buf, size_t n)
{
    memcpy(buf, base, n + 1);
    switch (rng_below(r, 3)) {
    case 0: /* truncate anywhere */
        buf[rng_below(r, (uint32_t)n)] = '\0';
        break;
    case 1: { /* flip one to three bytes to anything */
        int flips = 1 + (int)rng_below(r, 3);
        for (int i = 0; i < flips; i++)
            buf[rng_below(r, (uint32_t)n)] = (char)(1 + rng_below(r, 255));
        break;
    }
    default: /* one byte of a character the format cares about */
        buf[rng_below(r, (uint32_t)n)] = "[]\"\\:.#\n 0123456789-,"
            [rng_below(r, 21)];
        break;
    }
}

static void test_record_fuzz_never_crashes(void **state)
{
    (void)state;
    Game *toyg = tu_game(&(TuGame){.variant = &toy_variant, .seed = 31,
                                   .nseats = 4});
    toy_capture_red(toyg);
    tu_play(toyg, 3, "take red");
    char *toy_text = save(toyg);
    game_free(toyg);
    const char *bases[] = {ORTH_RECORD, toy_text};

    Rng r;
    rng_seed(&r, 20240611);
    int loaded = 0, failed = 0;
    for (size_t b = 0; b < ARRAY_LEN(bases); b++) {
        size_t n = strlen(bases[b]);
        char *buf = malloc(n + 1);
        assert_int_equal(fuzz_one(bases[b]), 1);
        for (int i = 0; i < 600; i++) {
            mangle(&r, bases[b], buf, n);
            if (fuzz_one(buf))
                loaded++;
            else
                failed++;
        }
        free(buf);
    }
    /* Both outcomes happen: some mangling is harmless (a comment, a space),
     * most is caught. */
    assert_true(loaded > 0);
    assert_true(failed > loaded);
    free(toy_text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orth8_record_offers_and_resignation),
        cmocka_unit_test(test_orth7_record_checkmate),
        cmocka_unit_test(test_orth8_record_agreement_and_unfinished),
        cmocka_unit_test(test_record_params_and_position),
        cmocka_unit_test(test_record_keeps_hooked_setup),
        cmocka_unit_test(test_toy_record_hidden_facts_and_choices),
        cmocka_unit_test(test_record_lenient_reading),
        cmocka_unit_test(test_record_escapes_tag_values),
        cmocka_unit_test(test_record_rejects_bad_tags),
        cmocka_unit_test(test_record_requires_its_tags),
        cmocka_unit_test(test_record_rejects_bad_actions),
        cmocka_unit_test(test_record_result_must_match_replay),
        cmocka_unit_test(test_record_files),
        cmocka_unit_test(test_record_refuses_overlong_action_text),
        cmocka_unit_test(test_record_seat_numbers),
        cmocka_unit_test(test_record_save_is_atomic),
        cmocka_unit_test(test_record_files_must_be_regular),
        cmocka_unit_test(test_record_fuzz_never_crashes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
