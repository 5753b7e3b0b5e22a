/*
 * test_masques_golden.c -- golden playthroughs of Les Échecs Masqués: a few
 * complete short games, each stored in tests/data/masques/NAME.golden as
 * its record (docs/RECORDS.md) followed by, at every ply, what each seat
 * receives: its rendered view (text, ASCII, no colour) and the messages the
 * action sent it.  The test replays each game and compares byte for byte,
 * and the stored record must load (record_load) into the same game.
 *
 * Regenerating (people only, never CI): UPDATE_GOLDEN=1 ./build/tests/
 * test_masques_golden rewrites the files; read every ply of the diff before
 * committing it (a golden file that captures a bug is worse than none).
 *
 * Invariant: the files are produced only by golden_text() below from the
 * scripts in GAMES, so a mismatch is a change of behaviour (or of
 * rendering), shown with the ply and the first differing line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli/cli.h"
#include "../core/game.h"
#include "../core/record/record.h"
#include "../core/cli/render.h"
#include "support/testutil.h"

#define GOLDEN_DIR "tests/data/masques"

typedef struct Step {
    int seat;          /* 0 white, 1 black */
    const char *text;  /* as a person types it */
} Step;

typedef struct Golden {
    const char *name;      /* file name without .golden */
    const char *title;     /* what the game shows, rules cited */
    const char *params;    /* NAME=VALUE words, or NULL */
    const char *position;  /* NULL: from the setup */
    const char *result;    /* expected game_result_text at the end */
    Step steps[40];        /* ends at text NULL */
} Golden;

static const Golden GAMES[] = {
    {"mask_mate",
     "setups (standard; Black's King hidden on a7), a mask check left unanswered, "
     "a masked battle with a bid and a call between equal pawns, a reveal-move, and a "
     "mask mate on the masked King (MASQ-1, 2, 5, 6, 7, 10, 16)",
     NULL, NULL, "1-0",
     {{0, "standard"},
      {1, "arrange RNBQPBNR/KPPPPPPP"},
      {0, "c2c3"},
      {1, "g7g5"},
      {0, "h2h4"},
      {0, "pass"},
      {1, "g5h4"},
      {1, "bid 2"},
      {0, "call"},
      {0, "reveal d1a4"},
      {0, "announce mate a7"},
      {0, NULL}}},
    {"full_reveal",
     "a mask check kept, the King taken by right without reveal, and the last masked "
     "piece revealed: full reveal without King (MASQ-6, 12, 16)",
     NULL, "4k~3/3p~4/8/8/8/8/8/R3K3 w - - 0 1", "1-0",
     {{0, "a1a8"},
      {0, "announce check e8"},
      {1, "keep"},
      {1, "d7d5"},
      {0, "a8e8"},
      {1, "d5d4"},
      {0, "e8e4"},
      {0, "announce check d4"},
      {1, "reveal"},
      {0, NULL}}},
    {"all_in",
     "a hidden Knight on e2, a masked battle against a pawn, raises up to the all-in at "
     "41 and the call that decides the game (MASQ-1, 10, 11)",
     NULL, NULL, "1-0",
     {{0, "arrange RPBQKBNR/PPPPNPPP"},
      {1, "standard"},
      {0, "e2e4"},
      {1, "d7d5"},
      {1, "pass"},
      {0, "e4d5"},
      {0, "bid 1"},
      {1, "bid 5"},
      {0, "bid 41"},
      {1, "call"},
      {0, NULL}}},
    {"giveup_choice",
     "a masked Knight wins a called battle against a pawn; the loser chooses which pieces "
     "pay the bid; then resigns (MASQ-10, ORTH-8)",
     "allin=4", "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1", "1-0",
     {{0, "c6d7"},
      {0, "bid 2"},
      {1, "call"},
      {1, "give c7 d7"},
      {1, "reveal b7c5"},
      {0, "d1d6"},
      {1, "resign"},
      {0, NULL}}},
    {"show_at_end",
     "with show_at_end=on: a simple battle conceded (removed without reveal), a mask "
     "check kept (a capture right pending), then a resignation: at the end every view "
     "shows both armies in full, masks marked, and no line of the game under way "
     "(MASQ-9, 6, 12, 16, ORTH-8)",
     "allin=4 show_at_end=on", "4k~3/1n~p~p~1p~p~1/2N~5/8/8/8/PP4PP/3RK3 w - - 0 1", "0-1",
     {{0, "d1d7"},
      {1, "concede"},
      {0, "announce check c7"},
      {1, "keep"},
      {1, "g7g6"},
      {0, "resign"},
      {0, NULL}}},
};

/* What each seat receives after a step: its view and the messages
 * [from, game_message_count) it may see. */
static void seats_block(const Game *g, int from, StrBuf *out)
{
    RenderNames n;
    RenderOpts o = {.ascii = 1, .color = 0};
    cli_names(g, &n);
    for (int seat = 0; seat < game_nseats(g); seat++) {
        View v;
        game_view(g, seat, &v);
        sb_printf(out, "-- %s sees\n", game_seat_name(g, seat));
        for (int i = from; i < game_message_count(g); i++) {
            const char *m = game_message(g, i, seat);
            if (m)
                sb_printf(out, "message: %s\n", m);
        }
        render_view_text(&v, &n, &o, out);
        if (out->len && out->s[out->len - 1] != '\n')
            sb_putc(out, '\n');
    }
}

static Game *golden_start(const Golden *gd)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = 1, .params = gd->params,
                             .position = gd->position});
}

/* The whole golden file of gd, from its script; the game is left in *out. */
static void golden_text(const Golden *gd, StrBuf *text, Game **out)
{
    StrBuf plies = STRBUF_INIT;
    Game *g = golden_start(gd);
    sb_printf(&plies, "== ply 0: the start\n");
    seats_block(g, 0, &plies);
    for (int i = 0; gd->steps[i].text; i++) {
        int from = game_message_count(g);
        tu_play(g, gd->steps[i].seat, gd->steps[i].text);
        sb_printf(&plies, "\n== ply %d: %s: %s\n", i + 1, game_seat_name(g, gd->steps[i].seat),
                  gd->steps[i].text);
        seats_block(g, from, &plies);
    }
    char result[64];
    game_result_text(g, result, sizeof result);
    if (strcmp(result, gd->result))
        fail_msg("%s: the game ends %s, the script expects %s", gd->name, result, gd->result);
    sb_printf(text, "# Golden playthrough \"%s\": %s.\n", gd->name, gd->title);
    sb_puts(text, "# The record, then what each seat receives after each typed action:\n"
                  "# the messages it may see and its view (text, ASCII, no colour).\n"
                  "# Regenerate (people only, after checking every ply by hand):\n"
                  "#   UPDATE_GOLDEN=1 ./build/tests/test_masques_golden\n");
    if (record_save(g, text))
        fail_msg("%s: the game cannot be written as a record", gd->name);
    sb_printf(text, "\n%s", sb_str(&plies));
    sb_free(&plies);
    *out = g;
}

/* Where two texts part: the ply block and the first differing line. */
static void diff_hint(const char *want, const char *got, StrBuf *out)
{
    const char *lw, *lg, *ply = "(the record)";
    int line = tu_first_diff(want, got, &lw, &lg);
    size_t plylen = strlen(ply);
    /* the last ply header up to that line (the lines before it are common) */
    for (const char *nl = strchr(want, '\n'); nl && nl < lw; nl = strchr(nl + 1, '\n'))
        if (!strncmp(nl + 1, "== ply", 6)) {
            ply = nl + 1;
            plylen = strcspn(ply, "\n");
        }
    sb_printf(out, "first difference at line %d, in %.*s\n  file: %.*s\n  now:  %.*s", line,
              (int)plylen, ply, (int)strcspn(lw, "\n"), lw, (int)strcspn(lg, "\n"), lg);
}

/* The stored record loads into the game the script plays. */
static void check_record(const Golden *gd, const char *file, const Game *g)
{
    const char *end = strstr(file, "\n== ply");
    StrBuf rec = STRBUF_INIT;
    Error e = {""};
    sb_putn(&rec, file, end ? (size_t)(end - file) + 1 : strlen(file));
    Game *r = record_load(sb_str(&rec), gd->name, &e);
    if (!r)
        fail_msg("%s.golden: its record does not load: %s", gd->name, e.msg);
    char *pr = tu_position(r), *pg = tu_position(g);
    assert_int_equal(game_history_len(r), game_history_len(g));
    assert_string_equal(pr, pg);
    free(pr);
    free(pg);
    game_free(r);
    sb_free(&rec);
}

static void run_golden(const Golden *gd)
{
    char path[256];
    StrBuf text = STRBUF_INIT;
    Game *g = NULL;
    snprintf(path, sizeof path, "%s/%s.golden", GOLDEN_DIR, gd->name);
    golden_text(gd, &text, &g);
    const char *update = getenv("UPDATE_GOLDEN");
    if (update && *update && strcmp(update, "0")) {
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(text.s, 1, text.len, f) != text.len || fclose(f))
            fail_msg("cannot write %s", path);
        print_message("wrote %s: read every ply before committing it\n", path);
    }
    char *file = tu_read_file(path);
    if (!file)
        fail_msg("%s is missing (UPDATE_GOLDEN=1 writes it)", path);
    if (strcmp(file, sb_str(&text))) {
        StrBuf hint = STRBUF_INIT;
        diff_hint(file, sb_str(&text), &hint);
        fail_msg("%s no longer matches the game: %s\n(if the change is right, regenerate with "
                 "UPDATE_GOLDEN=1 and check the diff ply by ply)", path, sb_str(&hint));
    }
    check_record(gd, file, g);
    free(file);
    game_free(g);
    sb_free(&text);
}

static void test_masq7_golden_mask_mate(void **state)
{
    (void)state;
    run_golden(&GAMES[0]);
}

static void test_masq16_golden_full_reveal_without_king(void **state)
{
    (void)state;
    run_golden(&GAMES[1]);
}

static void test_masq11_golden_all_in(void **state)
{
    (void)state;
    run_golden(&GAMES[2]);
}

static void test_masq10_golden_giveup_choice(void **state)
{
    (void)state;
    run_golden(&GAMES[3]);
}

static void test_masq16_golden_show_at_end(void **state)
{
    (void)state;
    run_golden(&GAMES[4]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq7_golden_mask_mate),
        cmocka_unit_test(test_masq16_golden_full_reveal_without_king),
        cmocka_unit_test(test_masq11_golden_all_in),
        cmocka_unit_test(test_masq10_golden_giveup_choice),
        cmocka_unit_test(test_masq16_golden_show_at_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
