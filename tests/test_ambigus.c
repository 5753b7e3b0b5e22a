/*
 * test_ambigus.c -- Échecs ambigus (rules AMBI-1 .. AMBI-7, contract in
 * docs/AMBIGUS.md) through the public game API, on concrete positions:
 * naming squares, the opponent's choice of piece and promotion figure, the
 * King-square win, no square to name, the mate rule's three escapes and
 * their failures, stalemate, the clock procedure, records, position
 * strings, views, texts and their errors, draws and perft.
 *
 * Invariant: games are driven with game_play(g, seat, text, &e) as a
 * player or a script would; the mate-rule tests check the engine's verdict
 * against an independent one built on the public API alone (safe_squares:
 * play every square and every choice, look at the King).
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
#include "../core/record/record.h"
#include "../core/cli/render.h"
#include "../variants/orthodox/bitboard.h"
#include "../variants/orthodox/chess.h"
#include "support/testutil.h"

enum { WHITE = 0, BLACK = 1 };

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"

/* ---- Local helpers ----------------------------------------------------------- */

static const VariantOps *ambigus(void)
{
    const VariantOps *v = variant_find("ambigus");
    assert_non_null(v);
    return v;
}

/* A game from fen (NULL: the start) with space-separated NAME=VALUE
 * params (NULL: defaults); NULL with e filled if it cannot start. */
static Game *try_start(const char *fen, const char *params, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = ambigus();
    cfg.position = fen;
    params_defaults(cfg.variant, &cfg.params);
    cfg.params_set = 1;
    char buf[256], *save = NULL;
    str_copy(buf, sizeof buf, params ? params : "");
    for (char *p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save))
        if (params_set(cfg.variant, &cfg.params, p, e))
            fail_msg("parameter %s: %s", p, e->msg);
    return game_new(&cfg, e);
}

static Game *start(const char *fen, const char *params)
{
    Error e = {""};
    Game *g = try_start(fen, params, &e);
    if (!g)
        fail_msg("cannot start from %s: %s", fen ? fen : "the start", e.msg);
    return g;
}

/* Starting from fen must fail with a message holding want. */
static void start_refused(const char *fen, const char *want)
{
    Error e = {""};
    Game *g = try_start(fen, NULL, &e);
    if (g)
        fail_msg("%s was accepted", fen);
    if (!strstr(e.msg, want))
        fail_msg("%s: message \"%s\" lacks \"%s\"", fen, e.msg, want);
}

static void play_as(Game *g, int seat, const char *text)
{
    Error e = {""};
    if (game_play(g, seat, text, &e))
        fail_msg("seat %d cannot play \"%s\": %s", seat, text, e.msg);
}

/* Each text of a NULL-terminated list (texts hold spaces: "choose g1"),
 * by the seat to act at that point. */
static void play_list(Game *g, const char *const *texts)
{
    for (int i = 0; texts[i]; i++)
        play_as(g, game_to_act(g), texts[i]);
}

static void play(Game *g, const char *text) { play_as(g, game_to_act(g), text); }

static char *position_of(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    game_position(g, &b);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    return s;
}

static void assert_position(const Game *g, const char *want)
{
    char *got = position_of(g);
    if (strcmp(got, want) != 0)
        fail_msg("position \"%s\", expected \"%s\"", got, want);
    free(got);
}

/* seat types text: refused with a message holding want, and the game is
 * left as it was (position, history, messages, seat to act). */
static void refused(Game *g, int seat, const char *text, const char *want)
{
    char *before = position_of(g);
    const int nhist = game_history_len(g), nmsg = game_message_count(g);
    const int to_act = game_to_act(g);
    Error e = {""};
    if (game_play(g, seat, text, &e) == 0)
        fail_msg("\"%s\" was accepted", text);
    if (want && !strstr(e.msg, want))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", text, e.msg, want);
    assert_position(g, before);
    assert_int_equal(game_history_len(g), nhist);
    assert_int_equal(game_message_count(g), nmsg);
    assert_int_equal(game_to_act(g), to_act);
    free(before);
}

/* The play actions of the seat to act, in style, space-separated. */
static void legal_texts(const Game *g, int style, StrBuf *out)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    for (int i = 0; i < l.n; i++) {
        if (i)
            sb_putc(out, '|');
        game_format(g, &l.v[i], style, out);
    }
    al_free(&l);
}

static void assert_legal(const Game *g, const char *want)
{
    StrBuf b = STRBUF_INIT;
    legal_texts(g, FMT_MACHINE, &b);
    if (strcmp(sb_str(&b), want) != 0)
        fail_msg("legal \"%s\", expected \"%s\"", sb_str(&b), want);
    sb_free(&b);
}

/* "seat:record text" of every history entry, joined by '|'. */
static void history_texts(const Game *g, StrBuf *out)
{
    for (int i = 0; i < game_history_len(g); i++) {
        const HistoryEntry *h = game_history(g, i);
        sb_printf(out, "%s%s:%s", i ? "|" : "", game_seat_name(g, h->action.seat), h->text);
    }
}

static void assert_history(const Game *g, const char *want)
{
    StrBuf b = STRBUF_INIT;
    history_texts(g, &b);
    if (strcmp(sb_str(&b), want) != 0)
        fail_msg("history \"%s\", expected \"%s\"", sb_str(&b), want);
    sb_free(&b);
}

static void assert_going_on(const Game *g)
{
    Status s;
    game_status(g, &s);
    if (s.over)
        fail_msg("the game ended (%s)", s.reason);
    assert_true(game_to_act(g) >= 0);
}

/* Is `side`'s King attacked in g?  Read from the position string with
 * the orthodox engine's attack code (without its check rule), not from
 * the variant; and Status.in_check is empty all the while: there is no
 * check in Échecs ambigus (AMBI-4). */
static int king_attacked(const Game *g, int side)
{
    Status s;
    game_status(g, &s);
    assert_int_equal(s.in_check, 0);
    StrBuf b = STRBUF_INIT;
    game_position(g, &b);
    char fen[128];
    str_copy(fen, sizeof fen, sb_str(&b));
    sb_free(&b);
    char *end = fen; /* the FEN's six fields, without a phase suffix */
    for (int fields = 0; *end && fields < 6; fields += *end++ == ' ')
        ;
    if (end > fen && end[-1] == ' ')
        end[-1] = '\0';
    Position p;
    Error e = {""};
    if (chess_from_fen_rules(&p, fen, CH_FEN_NO_CHECK_RULE, &e))
        fail_msg("%s: %s", fen, e.msg);
    const int king = bb_lsb(p.by_fig[FIG_KING] & p.by_color[side]);
    return chess_attackers(&p, king, side ^ 1, p.by_color[0] | p.by_color[1]) != 0;
}

/* AMBI-6 by brute force on the public API: the squares the side to move
 * may name after which every choice of the opponent leaves its King
 * unattacked (naming the enemy King's square wins, so it is safe). */
static void safe_squares(const Game *g, StrBuf *out)
{
    const int mover = game_to_act(g);
    ActionList names = ACTIONLIST_INIT;
    game_legal_play(g, &names);
    for (int i = 0; i < names.n; i++) {
        Game *c = game_clone(g);
        Error e = {""};
        if (game_apply(c, &names.v[i], &e))
            fail_msg("naming refused: %s", e.msg);
        int safe = 1;
        ActionList choices = ACTIONLIST_INIT;
        if (game_to_act(c) >= 0)
            game_legal_play(c, &choices);
        if (choices.n && choices.v[0].kind == ACT_CHOOSE) {
            for (int j = 0; j < choices.n && safe; j++) {
                Game *d = game_clone(c);
                if (game_apply(d, &choices.v[j], &e))
                    fail_msg("choice refused: %s", e.msg);
                safe = !king_attacked(d, mover);
                game_free(d);
            }
        } else {
            Status s;
            game_status(c, &s);
            safe = (s.over && s.winners == 1u << mover) || !king_attacked(c, mover);
        }
        if (safe) {
            if (out->len)
                sb_putc(out, ' ');
            game_format(g, &names.v[i], FMT_MACHINE, out);
        }
        al_free(&choices);
        game_free(c);
    }
    al_free(&names);
}

static void assert_safe_squares(const Game *g, const char *want)
{
    StrBuf b = STRBUF_INIT;
    safe_squares(g, &b);
    if (strcmp(sb_str(&b), want) != 0)
        fail_msg("safe squares \"%s\", expected \"%s\"", sb_str(&b), want);
    sb_free(&b);
}

static int count_kind(const Game *g, int seat, int kind)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    int n = 0;
    for (int i = 0; i < l.n; i++)
        n += l.v[i].kind == kind;
    al_free(&l);
    return n;
}

static void view_of(const Game *g, int seat, View *v) { game_view(g, seat, v); }

/* Every message of the game, joined by '|' (as White reads them; every
 * message goes to both seats). */
static void assert_messages(const Game *g, const char *want)
{
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, WHITE);
        sb_printf(&b, "%s%s", i ? "|" : "", m ? m : "(hidden)");
    }
    if (strcmp(sb_str(&b), want) != 0)
        fail_msg("messages \"%s\", expected \"%s\"", sb_str(&b), want);
    sb_free(&b);
}

/* seat's view has the info line `want`, whole. */
static void assert_info_line(const Game *g, int seat, const char *want)
{
    View v;
    view_of(g, seat, &v);
    const size_t n = strlen(want);
    for (const char *at = strstr(v.info, want); at; at = strstr(at + 1, want))
        if ((at == v.info || at[-1] == '\n') && (at[n] == '\0' || at[n] == '\n'))
            return;
    fail_msg("seat %d: no info line \"%s\" in\n%s", seat, want, v.info);
}

/* The core's status line and JSON status of seat's view. */
static void status_texts(const Game *g, int seat, StrBuf *line, StrBuf *json)
{
    const RenderNames names = {.nsides = 2, .side = {"white", "black"},
                               .nseats = 2, .seat = {"white", "black"}};
    View v;
    view_of(g, seat, &v);
    render_status_line(&v, &names, line);
    render_status_json(&v.status, &names, json);
}

/* ---- AMBI-1: naming a square ------------------------------------------------- */

/* AMBI-1, AMBI-2 (Note 3): at the start White may name the sixteen squares
 * of rank 3 and 4; a3 c3 f3 h3 are ambiguous (a pawn and a knight). */
static void test_ambi1_start_squares(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    assert_position(g, START);
    assert_legal(g, "a3|b3|c3|d3|e3|f3|g3|h3|a4|b4|c4|d4|e4|f4|g4|h4");
    StrBuf b = STRBUF_INIT;
    legal_texts(g, FMT_RECORD, &b);
    assert_string_equal(sb_str(&b), "a3|b3 (Pb2b3)|c3|d3 (Pd2d3)|e3 (Pe2e3)|f3|g3 (Pg2g3)|h3|"
                        "a4 (Pa2a4)|b4 (Pb2b4)|c4 (Pc2c4)|d4 (Pd2d4)|e4 (Pe2e4)|"
                        "f4 (Pf2f4)|g4 (Pg2g4)|h4 (Ph2h4)");
    sb_free(&b);
    assert_int_equal(count_kind(g, BLACK, ACT_MOVE), 0); /* only the mover names */
    View v;
    view_of(g, BLACK, &v);
    assert_string_equal(v.info, "ambiguous: a3 c3 f3 h3 / unambiguous: b3 d3 e3 g3 a4 b4 "
                        "c4 d4 e4 f4 g4 h4");
    assert_string_equal(v.position, START);
    assert_string_equal(v.question, "");
    view_of(g, WHITE, &v);
    assert_string_equal(v.question, "white: name a square (black then chooses which of "
                        "your pieces goes there)");
    game_free(g);
}

/* AMBI-1: a square no piece of the mover reaches cannot be named; the
 * message lists the squares that can. */
static void test_ambi1_square_nothing_reaches_refused(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    refused(g, WHITE, "e5", "e5: no white piece can go to e5; name one of: a3 b3 c3");
    refused(g, WHITE, "e2", "no white piece can go to e2 (your own piece stands there)");
    refused(g, WHITE, "e9", "not a square");
    refused(g, WHITE, "hello", "not a square: white names a square such as e4 and black "
            "chooses the piece");
    refused(g, BLACK, "e6", "it is white's turn");
    refused(g, WHITE, "choose g1", "white names a square now; black chooses the piece");
    game_free(g);
}

/* AMBI-1 (double steps stay) and AMBI-2: one candidate is played at once,
 * the record shows what happened, and the mover's opponent names next. */
static void test_ambi2_unambiguous_played_at_once(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    play(g, "e4");
    assert_history(g, "white:e4 (Pe2e4)");
    assert_position(g, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - e3 0 1");
    assert_int_equal(game_to_act(g), BLACK);
    /* The record form is read back, and must say what would happen. */
    refused(g, BLACK, "e6 (Pd7e6)", "the record form of naming e6 here is \"e6 (Pe7e6)\"");
    play(g, "e5 (Pe7e5)");
    assert_history(g, "white:e4 (Pe2e4)|black:e5 (Pe7e5)");
    assert_position(g, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w - e6 0 2");
    game_free(g);
}

/* AMBI-1 with en passant (AMBI-4 keeps it): d6 is reached by the pawn on
 * e5 taking en passant and by the knight; the opponent picks. */
static void test_ambi1_en_passant_square(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/3pP3/2N5/8/8/4K3 w - d6 0 2";
    Game *g = start(fen, NULL);
    play(g, "d6");
    assert_legal(g, "choose c4|choose e5");
    play(g, "choose Pe5");
    assert_history(g, "white:d6|black:choose Pe5");
    assert_position(g, "4k3/8/3P4/8/2N5/8/8/4K3 b - - 0 2"); /* d5 is gone */
    game_free(g);

    g = start(fen, NULL);
    play_list(g, (const char *const[]){"d6", "choose c4", NULL});
    assert_position(g, "4k3/8/3N4/3pP3/8/8/8/4K3 b - - 1 2");
    assert_true(king_attacked(g, BLACK)); /* the knight on d6 eyes e8 */
    game_free(g);

    /* Alone, the en passant capture is played at once. */
    g = start("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", NULL);
    play(g, "d6");
    assert_history(g, "white:d6 (Pe5d6)");
    assert_position(g, "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
    game_free(g);
}

/* ---- AMBI-2: the opponent chooses ------------------------------------------- */

/* AMBI-2: f3 is reached by the f-pawn's push and the g1 knight; Black
 * chooses, its choice is Black's history entry. */
static void test_ambi2_pawn_push_and_piece(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    play(g, "f3");
    assert_history(g, "white:f3");
    assert_position(g, START " choose f3");
    assert_int_equal(game_to_act(g), BLACK);
    assert_int_equal(game_side_to_move(g), WHITE);
    assert_legal(g, "choose g1|choose f2");
    StrBuf b = STRBUF_INIT;
    legal_texts(g, FMT_RECORD, &b);
    assert_string_equal(sb_str(&b), "choose Ng1|choose Pf2");
    sb_free(&b);
    refused(g, WHITE, "choose g1", "it is black's turn to act, not white's");
    play(g, "choose f2");
    assert_history(g, "white:f3|black:choose Pf2");
    assert_int_equal(game_history(g, 1)->action.seat, BLACK); /* who chose */
    assert_position(g, "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b - - 0 1");
    game_free(g);

    /* Other spellings: a check mark after the square, "Choose". */
    g = start(NULL, NULL);
    play_list(g, (const char *const[]){"f3+", "Choose Ng1", NULL});
    assert_history(g, "white:f3|black:choose Ng1");
    assert_position(g, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1");
    game_free(g);
}

/* AMBI-2: choosing a piece that is not a candidate is refused with the
 * reason and the list of candidates. */
static void test_ambi2_choice_errors(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    play(g, "f3");
    const char *list = "one of: g1 (Ng1), f2 (Pf2)";
    refused(g, BLACK, "choose e2", "choose e2: the pawn on e2 cannot go to f3");
    refused(g, BLACK, "choose c3", "no white piece stands on c3");
    refused(g, BLACK, "choose e7", "no white piece stands on e7");
    refused(g, BLACK, "choose Bg1", "the piece on g1 is a knight");
    refused(g, BLACK, "choose g1q", "the knight on g1 does not promote");
    refused(g, BLACK, "choose g1f4", "the piece goes to f3");
    refused(g, BLACK, "xyz", list);
    refused(g, BLACK, "keep", "there is no proposal to keep");
    /* Other spellings of a choice. */
    play(g, "Ng1-f3");
    assert_history(g, "white:f3|black:choose Ng1");
    game_free(g);
}

/* ---- AMBI-3: promotion ------------------------------------------------------- */

/* AMBI-3: c8 is taken by the pawns on b7 and d7; the opponent picks the
 * pawn and the figure (eight choices). */
static void test_ambi3_promotion_two_pawns(void **state)
{
    (void)state;
    Game *g = start("2r4k/1P1P4/8/8/8/8/8/4K3 w - - 0 1", NULL);
    play(g, "c8");
    assert_legal(g, "choose b7q|choose b7r|choose b7b|choose b7n|"
                    "choose d7q|choose d7r|choose d7b|choose d7n");
    StrBuf b = STRBUF_INIT;
    legal_texts(g, FMT_RECORD, &b);
    assert_string_equal(sb_str(&b), "choose Pb7=Q|choose Pb7=R|choose Pb7=B|choose Pb7=N|"
                        "choose Pd7=Q|choose Pd7=R|choose Pd7=B|choose Pd7=N");
    sb_free(&b);
    refused(g, BLACK, "choose b7", "add the figure, which is yours to choose (AMBI-3)");
    refused(g, BLACK, "choose d7k", "a pawn promotes to a queen, rook, bishop or knight");
    refused(g, BLACK, "choose e1", "the king on e1 cannot go to c8");
    play(g, "choose Pd7=N");
    assert_history(g, "white:c8|black:choose Pd7=N");
    assert_position(g, "2N4k/1P6/8/8/8/8/8/4K3 b - - 0 1");
    game_free(g);
}

/* AMBI-3: a single pawn reaching the last rank still leaves the figure to
 * the opponent (four candidates, so the square is ambiguous). */
static void test_ambi3_single_pawn_opponent_picks_figure(void **state)
{
    (void)state;
    Game *g = start("7k/3P4/8/8/8/8/8/4K3 w - - 0 1", NULL);
    StrBuf b = STRBUF_INIT;
    legal_texts(g, FMT_RECORD, &b);
    /* The last square, without "(Pd7d8=Q)": a choice follows. */
    assert_string_equal(sb_str(&b) + b.len - 3, "|d8");
    sb_free(&b);
    play(g, "d8");
    assert_legal(g, "choose d7q|choose d7r|choose d7b|choose d7n");
    play(g, "choose d7=R");
    assert_position(g, "3R3k/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_true(king_attacked(g, BLACK));
    game_free(g);
}

/* ---- AMBI-4: no castling, no check, take the King ------------------------------- */

/* AMBI-4: naming the enemy King's square wins at once, even when several
 * pieces reach it: no choice, no move, the game is over. */
static void test_ambi4_king_square_wins(void **state)
{
    (void)state;
    const char *fen = "4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1";
    Game *g = start(fen, NULL);
    assert_true(king_attacked(g, BLACK));
    play(g, "e8");
    tu_assert_over(g, "1-0", "king captured");
    assert_history(g, "white:e8 (King taken)");
    assert_position(g, "4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1 capture e8");
    View v;
    view_of(g, BLACK, &v);
    assert_string_equal(v.info, "white named e8, the square of the black King (AMBI-4)");
    game_free(g);
    /* The position string of the end reads back as the end. */
    g = start("4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1 capture e8", NULL);
    tu_assert_over(g, "1-0", "king captured");
    game_free(g);
}

/* AMBI-4: the opponent may send the King to take a protected pawn; the
 * King is then named and taken. */
static void test_ambi4_king_forced_to_capture_into_attack(void **state)
{
    (void)state;
    Game *g = start("4k3/8/8/b7/8/8/3p4/1N2K3 w - - 0 1", NULL);
    play(g, "d2");
    assert_legal(g, "choose b1|choose e1");
    play(g, "choose Ke1");
    assert_position(g, "4k3/8/8/b7/8/8/3K4/1N6 b - - 0 1");
    assert_true(king_attacked(g, WHITE));
    /* Said once, in every seat's view (messages only tell the moves). */
    assert_messages(g, "white names d2: black chooses Nb1 or Ke1|black chooses Ke1: Ke1d2");
    for (int seat = WHITE; seat <= BLACK; seat++)
        assert_info_line(g, seat, "white's King on d2 can be taken: black may name d2 now "
                         "and win (AMBI-4)");
    play(g, "d2");
    tu_assert_over(g, "0-1", "king captured");
    assert_history(g, "white:d2|black:choose Ke1|black:d2 (King taken)");
    game_free(g);
}

/* AMBI-4: no castling: rights in a FEN are refused, O-O is refused, and
 * g1 is only the rook's square. */
static void test_ambi4_no_castling(void **state)
{
    (void)state;
    start_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                  "no castling in Échecs ambigus (AMBI-4)");
    Game *g = start("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", "clock=on");
    refused(g, WHITE, "O-O", "no castling in Échecs ambigus (AMBI-4)");
    refused(g, WHITE, "e1g1", "e1g1: no such move of white; the pieces that can go to g1: "
            "h1 (Rh1)");
    play(g, "g1");
    assert_history(g, "white:g1 (Rh1g1)");
    assert_position(g, "r3k2r/8/8/8/8/8/8/R3K1R1 b - - 1 1");
    game_free(g);
}

/* AMBI-4: no check: a FEN may have the side not to move attacked, and a
 * move may leave the own King attacked. */
static void test_ambi4_no_check(void **state)
{
    (void)state;
    Game *g = start("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", NULL);
    assert_true(king_attacked(g, BLACK));
    assert_going_on(g);
    game_free(g);
    /* White's d-pawn, pinned in orthodox terms, still moves. */
    g = start("4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1", NULL);
    play(g, "d4");
    assert_true(king_attacked(g, WHITE));
    play(g, "e1");
    tu_assert_over(g, "0-1", "king captured");
    game_free(g);
}

/* AMBI-4: no check, so nothing says "in check" (Status.in_check, the
 * status line, JSON's in_check stay empty); instead every seat's view says
 * what an attacked King means: the side to name may take it now, or it
 * may be taken after the attacked side's move. */
static void test_ambi4_attacked_king_said_as_meant(void **state)
{
    (void)state;
    Game *g = start("4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", NULL);
    assert_true(king_attacked(g, WHITE)); /* and in_check is 0 */
    StrBuf line = STRBUF_INIT, json = STRBUF_INIT;
    for (int seat = WHITE; seat <= BLACK; seat++) {
        assert_info_line(g, seat, "white's King on e1 is attacked: if it still is after "
                         "white's move, black may name its square and win (AMBI-4)");
        sb_reset(&line);
        sb_reset(&json);
        status_texts(g, seat, &line, &json);
        assert_string_equal(sb_str(&line), "white to move");
        assert_non_null(strstr(sb_str(&json), "\"in_check\":[]"));
        View v;
        view_of(g, seat, &v);
        assert_null(strstr(v.info, "check"));
    }
    play(g, "d2"); /* the King steps aside; nothing attacks it now */
    assert_false(king_attacked(g, WHITE));
    assert_messages(g, "white names d2: only Ke1d2 can go there");
    View v;
    view_of(g, BLACK, &v);
    assert_null(strstr(v.info, "King on"));
    game_free(g);
    /* The pawn steps away and uncovers the King: Black may take it. */
    g = start("4k3/8/8/b7/8/8/3P4/4K3 w - - 0 1", NULL);
    play(g, "d4");
    assert_true(king_attacked(g, WHITE));
    assert_messages(g, "white names d4: only Pd2d4 can go there");
    for (int seat = WHITE; seat <= BLACK; seat++)
        assert_info_line(g, seat, "white's King on e1 can be taken: black may name e1 now "
                         "and win (AMBI-4)");
    sb_reset(&line);
    sb_reset(&json);
    status_texts(g, WHITE, &line, &json);
    assert_string_equal(sb_str(&line), "black to move");
    assert_non_null(strstr(sb_str(&json), "\"in_check\":[]"));
    sb_free(&line);
    sb_free(&json);
    game_free(g);
}

/* ---- AMBI-5: no square to name -------------------------------------------------- */

/* AMBI-5: White's pieces are all blocked: White loses, mate rule or not. */
static void test_ambi5_no_square_loses(void **state)
{
    (void)state;
    const char *fen = "7k/8/8/8/1p6/pPp5/PRP5/KB6 w - - 0 1";
    Game *g = start(fen, NULL);
    tu_assert_over(g, "0-1", "no square to name");
    assert_int_equal((int)game_perft(g, 1), 0);
    game_free(g);
    g = start(fen, "mate=on stalemate=loss");
    tu_assert_over(g, "0-1", "no square to name"); /* AMBI-5 applies first */
    game_free(g);
}

/* ---- AMBI-6: the mate rule -------------------------------------------------------- */

/* fen (White to move, in check): with the mate rule off the game goes on
 * and `safe` are the squares that keep the King safe whatever Black
 * chooses; with it on, the engine agrees: mate exactly when none is. */
static void check_mate_rule(const char *fen, const char *safe)
{
    Game *g = start(fen, NULL);
    assert_true(king_attacked(g, WHITE));
    assert_going_on(g);
    assert_safe_squares(g, safe);
    game_free(g);
    g = start(fen, "mate=on");
    if (safe[0])
        assert_going_on(g);
    else
        tu_assert_over(g, "0-1", "mate");
    game_free(g);
}

/* AMBI-6, first escape: take the single checking piece (the knight on
 * f2).  Both capturers are safe; once the rook on g2 shields the King from
 * the bishop on d5, Black sends the rook and the capture fails: mate. */
static void test_ambi6_escape_capture_the_checker(void **state)
{
    (void)state;
    check_mate_rule("7k/8/8/8/8/8/5nRP/6BK w - - 0 1", "f2");
    check_mate_rule("7k/8/8/3b4/8/8/5nRP/6BK w - - 0 1", "");
}

/* AMBI-6, second escape: the King steps to a safe square no other own
 * piece reaches (g1); once the rook on a1 reaches g1 too, Black sends the
 * rook instead: mate. */
static void test_ambi6_escape_king_flight(void **state)
{
    (void)state;
    check_mate_rule("7k/8/8/8/8/8/5nPP/7K w - - 0 1", "g1");
    check_mate_rule("7k/8/8/8/8/8/5nPP/R6K w - - 0 1", "");
}

/* AMBI-6, third escape: interpose, not next to the King.  The knight on
 * d3 blocks the rook's check on c1 or e1; a knight that only reaches g1,
 * next to the King, is no help (Black sends the King to g1): mate. */
static void test_ambi6_escape_interpose_not_adjacent(void **state)
{
    (void)state;
    check_mate_rule("7k/8/8/8/8/3N4/6PP/r6K w - - 0 1", "c1 e1");
    check_mate_rule("7k/8/8/8/8/7N/6PP/r6K w - - 0 1", "");
}

/* AMBI-6, third escape: interpose, but not where a pinned piece could go
 * too.  f1 is reached by the knight on g3 and the bishop on g2; with a
 * black bishop on d5 the bishop on g2 is pinned, Black sends it: mate. */
static void test_ambi6_escape_interpose_not_pinned(void **state)
{
    (void)state;
    check_mate_rule("7k/8/8/8/8/6N1/6BP/r6K w - - 0 1", "f1");
    check_mate_rule("7k/8/8/3b4/8/6N1/6BP/r6K w - - 0 1", "");
}

/* AMBI-6: a mate reached in play ends the game for the mover; without the
 * rule the mated side must name a square and lose its King after. */
static void test_ambi6_mate_in_play(void **state)
{
    (void)state;
    const char *fen = "7k/8/8/8/8/3n4/6PP/R6K b - - 0 1";
    Game *g = start(fen, "mate=on");
    play(g, "f2");
    assert_history(g, "black:f2 (Nd3f2)");
    tu_assert_over(g, "0-1", "mate");
    game_free(g);
    g = start(fen, NULL);
    play_list(g, (const char *const[]){"f2", "g1", "choose a1", NULL});
    play(g, "h1");
    tu_assert_over(g, "0-1", "king captured");
    game_free(g);
}

/* AMBI-6: a side in check that can name the enemy King's square is not
 * mated: that square ends the game in its favour. */
static void test_ambi6_king_square_is_an_escape(void **state)
{
    (void)state;
    Game *g = start("k7/8/8/8/8/8/5nPP/R6K w - - 0 1", "mate=on");
    assert_going_on(g);
    play(g, "a8");
    tu_assert_over(g, "1-0", "king captured");
    game_free(g);
}

/* AMBI-6: not in check, every square costs the King: stalemate, whose
 * fate for the side that delivered it (Black) is the parameter. */
static void test_ambi6_stalemate_parameter(void **state)
{
    (void)state;
    const char *fen = "k5r1/8/8/8/8/8/r7/7K w - - 0 1";
    Game *g = start(fen, NULL);
    assert_false(king_attacked(g, WHITE));
    assert_legal(g, "g1|g2|h2");
    assert_safe_squares(g, "");
    game_free(g);
    g = start(fen, "mate=on");
    tu_assert_over(g, "0-1", "stalemate");
    game_free(g);
    g = start(fen, "mate=on stalemate=draw");
    tu_assert_over(g, "1/2-1/2", "stalemate");
    game_free(g);
    g = start(fen, "mate=on stalemate=loss");
    tu_assert_over(g, "1-0", "stalemate");
    game_free(g);
    g = start(fen, "stalemate=draw"); /* no mate rule: no stalemate */
    assert_going_on(g);
    game_free(g);
}

/* ---- AMBI-7: the clock procedure ------------------------------------------------- */

static const char *const NORMAL_GAME[] = {
    "e4", "e5", "f3", "choose g1", "c6", "choose b8", "c3", "choose c2", NULL};
/* The same game typed under the clock procedure: whole moves, keep, and
 * substitutions (Black's c7c6 becomes Nb8c6, White's Nc3 becomes c2c3). */
static const char *const CLOCK_GAME[] = {
    "e2e4", "e7e5", "Nf3", "keep", "c7c6", "choose b8", "Nc3", "choose Pc2", NULL};
#define GAME_END "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/2P2N2/PP1P1PPP/RNBQKB1R b - - 0 3"

/* AMBI-7: same game, same actions with or without it; the record differs
 * by its Params tag and by the proposals it keeps (issue 8, item 1): a
 * naming that proposed a piece records as the whole move typed. */
static void test_ambi7_clock_same_game(void **state)
{
    (void)state;
    Game *a = start(NULL, NULL), *b = start(NULL, "clock=on");
    play_list(a, NORMAL_GAME);
    play_list(b, CLOCK_GAME);
    assert_position(a, GAME_END);
    assert_position(b, GAME_END);
    assert_history(b, "white:e4 (Pe2e4)|black:e5 (Pe7e5)|white:Ng1f3|black:choose Ng1|"
                      "black:Pc7c6|white:choose Nb8|white:Nb1c3|black:choose Pc2");
    assert_int_equal(game_history_len(a), game_history_len(b));
    for (int i = 0; i < game_history_len(a); i++) {
        const HistoryEntry *x = game_history(a, i), *y = game_history(b, i);
        assert_true(action_eq(&x->action, &y->action));
        if (!y->action.note)
            assert_string_equal(x->text, y->text);
        assert_string_equal(x->machine, y->machine);
    }
    /* Records differ in the Params tag and the three proposals. */
    StrBuf ra = STRBUF_INIT, rb = STRBUF_INIT;
    assert_int_equal(record_save(a, &ra), 0);
    assert_int_equal(record_save(b, &rb), 0);
    const char *tag = "[Params \"clock=on\"]\n";
    char *cut = strstr(rb.s, tag);
    assert_non_null(cut);
    memmove(cut, cut + strlen(tag), strlen(cut + strlen(tag)) + 1);
    const char *const proposals[][2] = {
        {"3. white: f3\n", "3. white: Ng1f3\n"}, {"5. black: c6\n", "5. black: Pc7c6\n"},
        {"7. white: c3\n", "7. white: Nb1c3\n"}};
    for (size_t i = 0; i < 3; i++) {
        char *at = strstr(ra.s, proposals[i][0]);
        assert_non_null(at);
        size_t off = (size_t)(at - ra.s), len = strlen(proposals[i][0]);
        sb_putn(&ra, "", 0);
        StrBuf t = STRBUF_INIT;
        sb_putn(&t, ra.s, off);
        sb_puts(&t, proposals[i][1]);
        sb_puts(&t, ra.s + off + len);
        sb_free(&ra);
        ra = t;
    }
    assert_string_equal(ra.s, rb.s);
    sb_free(&ra);
    sb_free(&rb);
    /* Perft does not see the proposals. */
    game_free(a);
    game_free(b);
    a = start(NULL, NULL);
    b = start(NULL, "clock=on");
    assert_int_equal((int)game_perft_generic(b, 3), (int)game_perft_generic(a, 3));
    game_free(a);
    game_free(b);
}

/* AMBI-7: the proposal is shown, kept, or replaced; undo replays it. */
static void test_ambi7_clock_keep_and_substitute(void **state)
{
    (void)state;
    Game *g = start(NULL, "clock=on");
    play(g, "Nf3");
    View v;
    view_of(g, BLACK, &v);
    assert_string_equal(v.question, "black: choose the white piece that goes to f3: "
                        "choose g1, choose f2, or keep");
    assert_non_null(strstr(v.info, "white proposes Ng1f3 (clock procedure): keep it, or "
                           "choose another"));
    play(g, "keep");
    assert_history(g, "white:Ng1f3|black:choose Ng1");
    assert_int_equal(game_undo(g, 1, NULL), 0); /* the proposal survives undo */
    play(g, "keep");
    assert_position(g, "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b - - 1 1");
    game_free(g);

    g = start(NULL, "clock=on");
    play(g, "f3"); /* the square alone: nothing to keep */
    refused(g, BLACK, "keep", "the mover named the square without proposing a piece");
    play(g, "choose f2");
    game_free(g);
}

/* AMBI-7 with AMBI-3: the mover's promotion letter is a proposal too; the
 * opponent keeps it or picks another figure. */
static void test_ambi7_clock_promotion(void **state)
{
    (void)state;
    const char *fen = "7k/3P4/8/8/8/8/8/4K3 w - - 0 1";
    Game *g = start(fen, "clock=on");
    refused(g, WHITE, "d7d8", "add the figure you propose (q, r, b or n); your opponent "
            "still picks it (AMBI-3)");
    play(g, "d7d8r");
    play(g, "keep");
    assert_history(g, "white:Pd7d8=R|black:choose Pd7=R");
    assert_position(g, "3R3k/8/8/8/8/8/8/4K3 b - - 0 1");
    game_free(g);
    g = start(fen, "clock=on");
    play(g, "d8=Q");
    play(g, "choose d7n");
    assert_position(g, "3N3k/8/8/8/8/8/8/4K3 b - - 0 1");
    game_free(g);
}

/* AMBI-1, AMBI-2, AMBI-7: a whole move without the clock procedure is
 * refused with what to type instead (the square) and who then picks the
 * piece and a pawn's figure (AMBI-3); with it, a whole move is read
 * exactly (an ambiguous SAN is not guessed). */
static void test_ambi7_whole_move_errors(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    static const char *const rule = " (AMBI-1, AMBI-2; a whole move is read only with the "
                                    "clock procedure, --param clock=on)";
    char want[256];
    snprintf(want, sizeof want, "g1f3: in Échecs ambigus you name only the square: type f3; "
             "black chooses which of your pieces goes there (Ng1 or Pf2)%s", rule);
    tu_assert_refused_exactly(g, "g1f3", want);
    refused(g, WHITE, "Nf3", "Nf3: in Échecs ambigus you name only the square: type f3; "
            "black chooses which of your pieces goes there (Ng1 or Pf2) (AMBI-1, AMBI-2;");
    refused(g, WHITE, "Bf3", "Bf3: in Échecs ambigus you name only the square: type f3;");
    refused(g, WHITE, "e2e4", "e2e4: in Échecs ambigus you name only the square: type e4; "
            "only Pe2e4 can go there (AMBI-1; a whole move is read only with the clock "
            "procedure, --param clock=on)");
    refused(g, WHITE, "Nf4", "Nf4: in Échecs ambigus you name only the square: type f4; "
            "only Pf2f4 can go there");
    refused(g, WHITE, "Nxe5", "Nxe5: in Échecs ambigus you name only a square, and no white "
            "piece can go to e5; name one of: a3 b3 c3 d3 e3 f3 g3 h3 a4 b4 c4 d4 e4 f4 g4 h4");
    refused(g, WHITE, "Nf5", "Nf5: in Échecs ambigus you name only a square, and no white "
            "piece can go to f5");
    play(g, "f3"); /* what the message says to type */
    assert_legal(g, "choose g1|choose f2");
    game_free(g);
    /* A promotion: the figure is the opponent's too (AMBI-3). */
    g = start("7k/4P3/8/8/8/8/8/4K3 w - - 0 1", NULL);
    refused(g, WHITE, "e8=Q", "e8=Q: in Échecs ambigus you name only the square: type e8; "
            "only Pe7 can go there, and black chooses the figure it becomes (AMBI-1, AMBI-3;");
    game_free(g);
    g = start("3r2k1/2P1P3/8/8/8/8/8/3RK3 w - - 0 1", NULL);
    refused(g, WHITE, "cxd8=Q", "cxd8=Q: in Échecs ambigus you name only the square: type d8; "
            "black chooses which of your pieces goes there (Rd1, Pc7 or Pe7) and the figure "
            "a pawn becomes (AMBI-1, AMBI-2, AMBI-3;");
    game_free(g);
    /* With the clock procedure the move itself must be one. */
    g = start(NULL, "clock=on");
    refused(g, WHITE, "Nf5", "Nf5: no white piece can go to f5; name one of: a3 b3");
    refused(g, WHITE, "Nf4", "Nf4: no such move of white; the pieces that can go to f4: "
            "f2 (Pf2)");
    refused(g, WHITE, "Bf3", "Bf3: no such move of white; the pieces that can go to f3: "
            "g1 (Ng1), f2 (Pf2)");
    game_free(g);
    g = start("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1", "clock=on");
    refused(g, WHITE, "Nd2", "Nd2 is ambiguous: Nb1d2 or Nf1d2");
    play(g, "Nbd2");
    assert_legal(g, "choose b1|choose e1|choose f1");
    play(g, "keep");
    assert_position(g, "4k3/8/8/8/8/8/3N4/4KN2 b - - 1 1");
    game_free(g);
}

/* ---- Records, position strings, views --------------------------------------------- */

/* Records keep both halves of each move and who chose; loading replays
 * them into the same game. */
static void test_record_round_trip(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    play_list(g, NORMAL_GAME);
    StrBuf r = STRBUF_INIT;
    assert_int_equal(record_save(g, &r), 0);
    assert_non_null(strstr(r.s, "[Variant \"ambigus\"]\n"));
    assert_non_null(strstr(r.s, "\n1. white: e4 (Pe2e4)\n2. black: e5 (Pe7e5)\n"
                                "3. white: f3\n4. black: choose Ng1\n5. black: c6\n"
                                "6. white: choose Nb8\n7. white: c3\n8. black: choose Pc2\n"));
    Error e = {""};
    Game *h = record_load(r.s, "test", &e);
    if (!h)
        fail_msg("record refused: %s", e.msg);
    assert_position(h, GAME_END);
    StrBuf x = STRBUF_INIT, y = STRBUF_INIT;
    history_texts(g, &x);
    history_texts(h, &y);
    assert_string_equal(x.s, y.s);
    sb_free(&x);
    sb_free(&y);
    game_free(h);
    /* A game saved while a choice is pending, and a King-square win. */
    play(g, "e7"); /* Qd8, Bf8, Ng8 and the King: White will choose */
    sb_reset(&r);
    assert_int_equal(record_save(g, &r), 0);
    h = record_load(r.s, "test", &e);
    assert_non_null(h);
    assert_position(h, GAME_END " choose e7");
    assert_int_equal(game_to_act(h), WHITE);
    game_free(h);
    game_free(g);
    g = start("4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1", NULL);
    play(g, "e8");
    sb_reset(&r);
    assert_int_equal(record_save(g, &r), 0);
    assert_non_null(strstr(r.s, "[Termination \"king captured\"]"));
    h = record_load(r.s, "test", &e);
    assert_non_null(h);
    tu_assert_over(h, "1-0", "king captured");
    game_free(h);
    game_free(g);
    sb_free(&r);
}

/* Every message seat `seat` may read, joined by '|'. */
static void messages_of(const Game *g, int seat, StrBuf *out)
{
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m)
            sb_printf(out, "%s%s", out->len ? "|" : "", m);
    }
}

/* Issue 8, item 1 (AMBI-7): a record of a game under the clock procedure
 * carries every proposal, so the loaded game is the saved game: a pending
 * proposal can be kept, its message is there, and undo finds the earlier
 * proposals too.  The proposing naming records as the whole move the
 * mover typed (Ng1f3), which the clock procedure reads back. */
static void test_ambi7_record_keeps_proposals(void **state)
{
    (void)state;
    Game *g = start(NULL, "clock=on");
    play_list(g, (const char *const[]){"Nc3", "choose b1", "e5", "Nf3", NULL});
    StrBuf r = STRBUF_INIT;
    assert_int_equal(record_save(g, &r), 0);
    assert_non_null(strstr(r.s, "\n1. white: Nb1c3\n2. black: choose Nb1\n"
                                "3. black: e5 (Pe7e5)\n4. white: Ng1f3\n"));
    Error e = {""};
    Game *h = record_load(r.s, "test", &e);
    if (!h)
        fail_msg("record refused: %s", e.msg);
    StrBuf x = STRBUF_INIT, y = STRBUF_INIT;
    history_texts(g, &x);
    history_texts(h, &y);
    assert_string_equal(x.s, y.s);
    for (int seat = WHITE; seat <= BLACK; seat++) {
        sb_reset(&x);
        sb_reset(&y);
        messages_of(g, seat, &x);
        messages_of(h, seat, &y);
        assert_string_equal(sb_str(&x), sb_str(&y));
    }
    assert_non_null(strstr(sb_str(&y), "white proposes Ng1f3 (clock procedure)"));
    for (int i = 0; i < game_history_len(g); i++)
        assert_int_equal(game_history(g, i)->action.note, game_history(h, i)->action.note);
    play(h, "keep");
    assert_position(h, "rnbqkbnr/pppp1ppp/8/4p3/8/2N2N2/PPPPPPPP/R1BQKB1R b - - 1 2");
    /* Undo back into the first choice: its proposal is back too. */
    assert_int_equal(game_undo(h, 4, NULL), 0);
    play(h, "keep");
    assert_position(h, "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b - - 1 1");
    /* A square named without a proposal still records as the square. */
    game_free(h);
    game_free(g);
    g = start(NULL, "clock=on");
    play(g, "f3");
    sb_reset(&r);
    assert_int_equal(record_save(g, &r), 0);
    assert_non_null(strstr(r.s, "\n1. white: f3\n"));
    h = record_load(r.s, "test", &e);
    assert_non_null(h);
    refused(h, BLACK, "keep", "the mover named the square without proposing a piece");
    game_free(h);
    game_free(g);
    sb_free(&x);
    sb_free(&y);
    sb_free(&r);
}

/* Position strings: FEN errors name the problem; the phase suffix reads
 * back; the side not to move may be attacked. */
static void test_position_errors(void **state)
{
    (void)state;
    start_refused("8/8/8/8/8/8/8/4K3 w - - 0 1", "Black has no King; each side needs exactly one");
    start_refused("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "White has 2 Kings; each side needs exactly one");
    start_refused("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on d8");
    start_refused("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "en passant square e6 is impossible: no Black pawn on e5");
    start_refused("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "en passant square e3 is on the wrong rank");
    start_refused("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "bad side to move \"x\"");
    start_refused("4k3/8/8/8/8/8/8/4K3 w Kk - 0 1", "no castling in Échecs ambigus (AMBI-4)");
    start_refused("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "FEN rank 1 has more than 8 squares");
    start_refused("4k3/8/8/8/8/8/4K3 w - - 0 1", "FEN placement has 7 ranks");
    start_refused("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "unknown piece letter 'X' in FEN rank 1");
    start_refused("4k3/8/8/8/8/8/8/4K3 w - - 200 1", "halfmove clock 200 is out of range");
    start_refused("4k3/8/8/8/8/8/8/4K3", "position has 1 field");
    start_refused(START " choose", "position has 7 fields");
    start_refused(START " choose e4", "choose e4: only one white piece can go to e4");
    start_refused(START " choose e5", "choose e5: no white piece can go to e5");
    start_refused(START " capture e4", "capture e4: the black King stands on e8");
    start_refused(START " pending e4", "unexpected \"pending\" after the FEN");
    start_refused("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1 choose e8",
                  "naming the enemy King's square ends the game");
    Game *g = start("4k3/8/8/8/8/8/8/4K3 w - -", NULL); /* counters default */
    assert_position(g, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    game_free(g);
    /* No check rule (AMBI-4): three pieces may attack the King of the
     * side to move, which orthodox chess refuses as impossible. */
    g = start("4k3/8/8/8/7b/3n4/8/r3K3 w - - 0 1", NULL);
    assert_true(king_attacked(g, WHITE));
    assert_position(g, "4k3/8/8/8/7b/3n4/8/r3K3 w - - 0 1");
    game_free(g);
    /* A pending choice reads back as one. */
    g = start(START " choose f3", NULL);
    assert_int_equal(game_to_act(g), BLACK);
    assert_legal(g, "choose g1|choose f2");
    assert_position(g, START " choose f3");
    game_free(g);
}

/* Views: the chooser is asked and sees the candidates; the last move
 * says who chose; everything is in every view. */
static void test_views(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    play(g, "f3");
    View v;
    view_of(g, BLACK, &v);
    assert_string_equal(v.question, "black: choose the white piece that goes to f3: "
                        "choose g1, choose f2");
    assert_string_equal(v.info, "white named f3; black chooses among: Ng1 Pf2");
    assert_string_equal(v.position, START " choose f3");
    assert_string_equal(v.last_text, "f3");
    assert_int_equal(v.npieces, 32);
    view_of(g, WHITE, &v);
    assert_string_equal(v.question, "");
    assert_string_equal(v.info, "white named f3; black chooses among: Ng1 Pf2");
    play(g, "choose g1");
    view_of(g, WHITE, &v);
    assert_string_equal(v.last_text, "f3: black chose Ng1");
    assert_true(v.has_last);
    assert_int_equal(v.last_from.x, 6);
    assert_int_equal(v.last_from.y, 0);
    assert_int_equal(v.last_to.x, 5);
    assert_int_equal(v.last_to.y, 2);
    const char *m = game_message(g, game_message_count(g) - 1, WHITE);
    assert_string_equal(m, "black chooses Ng1: Ng1f3");
    game_free(g);
    /* The lines about Kings, the mate rule and the clock procedure. */
    g = start("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "mate=on clock=on");
    view_of(g, WHITE, &v);
    assert_string_equal(v.info,
                        "ambiguous: e2 / unambiguous: d1 f1 d2 f2 e3 e4 e5 e6 a7 b7 c7 "
                        "d7 f7 g7 h7 e8\n"
                        "black's King on e8 can be taken: white may name e8 now and win "
                        "(AMBI-4)\n"
                        "mate rule on (AMBI-6); stalemate is a win for the side that "
                        "delivers it\n"
                        "clock procedure on (AMBI-7): a whole move names its square and "
                        "proposes the piece");
    game_free(g);
}

/* A forged action (a square with the wrong flags, a choice of a piece
 * that is no candidate) is refused by the variant's apply. */
static void test_forged_actions_refused(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    Action a = l.v[0]; /* a3, ambiguous */
    const void *st = game_state(g);
    void *copy = malloc(ambigus()->state_size);
    memcpy(copy, st, ambigus()->state_size);
    a.flags = 0;
    assert_int_equal(ambigus()->apply(g, copy, &a, NULL), -1);
    a = l.v[0];
    a.to.x = 4; /* e3 with a3's flags */
    assert_int_equal(ambigus()->apply(g, copy, &a, NULL), -1);
    assert_int_equal(memcmp(copy, st, ambigus()->state_size), 0);
    al_free(&l);
    play(g, "f3");
    game_legal_play(g, &l);
    a = l.v[0];
    a.from.x = 1; /* b1 cannot go to f3 */
    a.code = (uint32_t)(1 | (21 << 6));
    memcpy(copy, game_state(g), ambigus()->state_size);
    assert_int_equal(ambigus()->apply(g, copy, &a, NULL), -1);
    Error e = {""};
    assert_int_equal(game_apply(g, &a, &e), -1);
    a = l.v[0];
    a.figure = FIG_QUEEN; /* the knight does not promote */
    assert_int_equal(ambigus()->apply(g, copy, &a, NULL), -1);
    al_free(&l);
    free(copy);
    game_free(g);
}

/* ---- Draws (ORTH-9 kept) --------------------------------------------------------- */

static const char *const SHUFFLE[] = {"a2", "a7", "a1", "a8", NULL};

/* ORTH-9: threefold may be claimed by the side about to name a square,
 * fivefold ends the game. */
static void test_draw_repetition(void **state)
{
    (void)state;
    Game *g = start("r6k/8/8/8/8/8/8/R6K w - - 0 1", NULL);
    play_list(g, SHUFFLE);
    assert_int_equal(count_kind(g, WHITE, ACT_DRAW_CLAIM), 0);
    play_list(g, SHUFFLE);
    assert_int_equal(count_kind(g, WHITE, ACT_DRAW_CLAIM), 1);
    play_list(g, SHUFFLE);
    assert_going_on(g);
    play_list(g, SHUFFLE);
    tu_assert_over(g, "1/2-1/2", "fivefold repetition");
    game_free(g);
    g = start("r6k/8/8/8/8/8/8/R6K w - - 0 1", "threefold=off fivefold=off");
    for (int i = 0; i < 4; i++)
        play_list(g, SHUFFLE);
    assert_int_equal(count_kind(g, WHITE, ACT_DRAW_CLAIM), 0);
    assert_going_on(g);
    game_free(g);
}

/* ORTH-9: the fifty-move claim between moves only (not while a choice is
 * pending), the seventy-five-move end. */
static void test_draw_move_counts(void **state)
{
    (void)state;
    Game *g = start("r6k/8/8/8/8/8/8/R1R4K w - - 100 60", NULL);
    assert_int_equal(count_kind(g, WHITE, ACT_DRAW_CLAIM), 1);
    play(g, "b1");
    assert_int_equal(game_to_act(g), BLACK);
    assert_int_equal(count_kind(g, BLACK, ACT_DRAW_CLAIM), 0);
    play(g, "choose a1");
    assert_int_equal(count_kind(g, BLACK, ACT_DRAW_CLAIM), 1);
    play(g, "claim");
    tu_assert_over(g, "1/2-1/2", "fifty-move rule claimed by black");
    game_free(g);
    g = start("r6k/8/8/8/8/8/8/R6K w - - 149 80", NULL);
    play(g, "a2");
    tu_assert_over(g, "1/2-1/2", "seventy-five-move rule");
    game_free(g);
}

/* ---- Perft over the action tree ----------------------------------------------- */

typedef struct PerftCase {
    const char *fen;
    const char *params;
    int depth;
} PerftCase;

/* The variant's fast perft equals the core's generic walk over
 * legal/apply, on positions that exercise every rule. */
static void test_perft_fast_equals_generic(void **state)
{
    (void)state;
    static const PerftCase cases[] = {
        {NULL, NULL, 3},
        {START " choose f3", NULL, 3},
        {"2r4k/1P1P4/8/8/8/8/8/4K3 w - - 0 1", NULL, 3},
        {"4k3/8/8/3pP3/2N5/8/8/4K3 w - d6 0 2", NULL, 3},
        {"4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1", NULL, 3},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1", NULL, 2},
        {"7k/8/8/8/8/8/5nRP/6BK w - - 0 1", "mate=on", 3},
        {"7k/8/8/8/8/3n4/6PP/R6K b - - 0 1", "mate=on", 3},
        {"k5r1/8/8/8/8/8/r7/7K b - - 0 1", "mate=on", 3},
        {"7k/8/8/8/1p6/pPp5/PRP5/KB6 b - - 0 1", NULL, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Game *g = start(cases[i].fen, cases[i].params);
        for (int d = 1; d <= cases[i].depth; d++) {
            uint64_t fast = game_perft(g, d), slow = game_perft_generic(g, d);
            if (fast != slow || fast == 0)
                fail_msg("%s depth %d: fast %llu, generic %llu",
                         cases[i].fen ? cases[i].fen : "start", d,
                         (unsigned long long)fast, (unsigned long long)slow);
        }
        game_free(g);
    }
}

static void add_divide(void *ud, const char *move, uint64_t n)
{
    StrBuf *b = ud;
    sb_printf(b, "%s%s %llu", b->len ? "|" : "", move, (unsigned long long)n);
}

/* Counts worked out by hand.  The start: 16 squares; 12 of them have one
 * candidate and Black then names 16 squares, 4 (a3 c3 f3 h3) have two
 * choices: 12 * 16 + 4 * 2 = 200 at depth 2.  The King's square is a leaf. */
static void test_perft_counts(void **state)
{
    (void)state;
    Game *g = start(NULL, NULL);
    assert_int_equal((int)game_perft(g, 1), 16);
    assert_int_equal((int)game_perft(g, 2), 200);
    StrBuf b = STRBUF_INIT;
    assert_int_equal((int)game_perft_divide(g, 2, add_divide, &b), 200);
    assert_non_null(strstr(b.s, "a3 2|b3 16|c3 2|d3 16|"));
    game_free(g);
    /* A choice pending on f3: one ply per candidate. */
    g = start(START " choose f3", NULL);
    assert_int_equal((int)game_perft(g, 1), 2);
    game_free(g);
    /* Two pawns taking on c8: eight choices after naming it. */
    g = start("2r4k/1P1P4/8/8/8/8/8/4K3 w - - 0 1", NULL);
    sb_reset(&b);
    game_perft_divide(g, 2, add_divide, &b);
    assert_non_null(strstr(b.s, "c8 8"));
    game_free(g);
    /* e8 is the King's square: counted at depth 1, nothing below it. */
    g = start("4k3/8/8/8/Q7/8/4R3/4K3 w - - 0 1", NULL);
    sb_reset(&b);
    game_perft_divide(g, 2, add_divide, &b);
    assert_non_null(strstr(b.s, "|e8 0"));
    game_free(g);
    sb_free(&b);
}

/* Every play action's record and machine texts read back as that action;
 * the position string reads back as the same state (same string, same
 * actions); perft is the same both ways.  Checked at every ply of seeded
 * random games, with the mate rule and the clock procedure on and off. */
static void check_ply(const Game *g)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    const int seat = game_to_act(g);
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < l.n; i++) {
        for (int style = FMT_RECORD; style <= FMT_MACHINE; style++) {
            sb_reset(&b);
            game_format(g, &l.v[i], style, &b);
            Action back;
            Error e = {""};
            if (game_parse(g, seat, sb_str(&b), &back, &e) || !action_eq(&back, &l.v[i]))
                fail_msg("\"%s\" does not read back: %s", sb_str(&b), e.msg);
        }
    }
    char *pos = position_of(g);
    Game *h = start(pos, NULL);
    assert_position(h, pos);
    StrBuf x = STRBUF_INIT, y = STRBUF_INIT;
    legal_texts(g, FMT_MACHINE, &x);
    legal_texts(h, FMT_MACHINE, &y);
    assert_string_equal(sb_str(&x), sb_str(&y));
    assert_true(game_perft(g, 2) == game_perft_generic(g, 2));
    sb_free(&x);
    sb_free(&y);
    game_free(h);
    free(pos);
    sb_free(&b);
    al_free(&l);
}

static void test_random_games_read_back(void **state)
{
    (void)state;
    static const char *const PARAMS[] = {NULL, "mate=on", "clock=on", "mate=on stalemate=loss"};
    Rng rng;
    rng_seed(&rng, 20240611);
    for (int game = 0; game < 12; game++) {
        Game *g = start(NULL, PARAMS[game % 4]);
        for (int ply = 0; ply < 120 && game_to_act(g) >= 0; ply++) {
            check_ply(g);
            ActionList l = ACTIONLIST_INIT;
            game_legal_play(g, &l);
            Error e = {""};
            if (game_apply(g, &l.v[rng_below(&rng, (uint32_t)l.n)], &e))
                fail_msg("a legal action was refused: %s", e.msg);
            al_free(&l);
        }
        game_free(g);
    }
}


/* ---- issue 21: the other texts of the clock procedure (game_inputs) ---------- */

/* The whole moves the seat to act may type (AMBI-7), found without the
 * variant's inputs: every "from to [promotion]" from a square of one of
 * its pieces that the engine reads as a naming of its legal list,
 * sorted, one "text label from>to figure" a line. */
static void typed_whole_moves(const Game *g, StrBuf *out)
{
    const int seat = game_to_act(g);
    View v;
    game_view(g, seat, &v);
    StrBuf b = STRBUF_INIT;
    static const char *const PROMO[] = {"", "q", "r", "b", "n"};
    char lines[512][96];
    int n = 0;
    for (int p = 0; p < v.npieces; p++) {
        if (v.pieces[p].side != game_side_to_move(g))
            continue;
        for (int to = 0; to < 64; to++) {
            for (int k = 0; k < 5; k++) {
                char text[16], from[3], sq[3];
                const int fsq = CH_SQ(v.pieces[p].at.x, v.pieces[p].at.y);
                snprintf(text, sizeof text, "%s%s%s", chess_square_name(fsq, from),
                         chess_square_name(to, sq), PROMO[k]);
                Action a;
                Error e = {""};
                if (game_parse(g, seat, text, &a, &e) || a.kind != ACT_MOVE)
                    continue;
                sb_reset(&b);
                game_format(g, &a, FMT_RECORD, &b);
                assert_true(n < 512);
                snprintf(lines[n++], sizeof lines[0], "%s %s %d,%d>%d,%d %c", text, sb_str(&b),
                         v.pieces[p].at.x, v.pieces[p].at.y, a.to.x, a.to.y,
                         k ? figure_letter(figure_from_letter(PROMO[k][0])) : '-');
            }
        }
    }
    qsort(lines, (size_t)n, sizeof lines[0], (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < n; i++)
        sb_printf(out, "%s\n", lines[i]);
    sb_free(&b);
}

/* The inputs of the seat to act the same way. */
static int inputs_of(const Game *g, StrBuf *out)
{
    InputForm f[512];
    const int n = game_inputs(g, game_to_act(g), f, 512);
    char lines[512][96];
    for (int i = 0; i < n; i++)
        snprintf(lines[i], sizeof lines[0], "%s %s %d,%d>%d,%d %c", f[i].text, f[i].label,
                 f[i].from.x, f[i].from.y, f[i].to.x, f[i].to.y,
                 f[i].figure ? figure_letter(f[i].figure) : '-');
    qsort(lines, (size_t)(n > 0 ? n : 0), sizeof lines[0],
          (int (*)(const void *, const void *))strcmp);
    for (int i = 0; i < n; i++)
        sb_printf(out, "%s\n", lines[i]);
    return n;
}

/* AMBI-7, issue 21: under the clock procedure the variant's inputs are
 * exactly the whole moves the engine reads (each with its from- and
 * to-square, promotion and the record form it plays as), and while a
 * proposal stands the chooser's `keep`, which chooses the proposed piece;
 * without the procedure there are none.  Random games, every ply. */
static void test_issue21_ambi7_inputs_are_the_whole_moves(void **state)
{
    (void)state;
    static const char *const PARAMS[] = {"clock=on", "clock=on mate=on", NULL};
    Rng rng;
    rng_seed(&rng, 21);
    int proposals = 0, keeps = 0;
    for (int game = 0; game < 3; game++) {
        Game *g = start(NULL, PARAMS[game]);
        for (int ply = 0; ply < 40 && game_to_act(g) >= 0; ply++) {
            StrBuf want = STRBUF_INIT, got = STRBUF_INIT;
            const int n = inputs_of(g, &got);
            if (!PARAMS[game]) {
                assert_int_equal(n, 0);
            } else if (strcmp(game_variant(g)->phase(g, game_state(g)), "name") == 0) {
                typed_whole_moves(g, &want);
                assert_string_equal(sb_str(&got), sb_str(&want));
            } else {
                InputForm f[4];
                const HistoryEntry *h = game_history(g, game_history_len(g) - 1);
                const int proposed = strchr(h->text, ' ') == NULL && strlen(h->text) > 2;
                assert_int_equal(game_inputs(g, game_to_act(g), f, 4), proposed);
                if (proposed) { /* "Ng1f3": keep chooses Ng1 */
                    Action a;
                    Error e = {""};
                    assert_string_equal(f[0].text, "keep");
                    assert_int_equal(game_parse(g, game_to_act(g), "keep", &a, &e), 0);
                    StrBuf r = STRBUF_INIT;
                    game_format(g, &a, FMT_RECORD, &r);
                    char want_label[128];
                    snprintf(want_label, sizeof want_label, "keep %s", h->text);
                    assert_string_equal(f[0].label, want_label);
                    assert_int_equal(a.from.x, h->text[1] - 'a');
                    assert_int_equal(a.from.y, h->text[2] - '1');
                    assert_true(strncmp(sb_str(&r), "choose ", 7) == 0);
                    sb_free(&r);
                    keeps++;
                }
            }
            /* play a proposal when one is offered, else a random action */
            InputForm f[512];
            const int k = PARAMS[game] ? game_inputs(g, game_to_act(g), f, 512) : 0;
            const int pick = k ? (int)rng_below(&rng, (uint32_t)k) : -1;
            if (pick >= 0 && rng_below(&rng, 2)) {
                play(g, f[pick].text);
                proposals += f[pick].kind == ACT_MOVE;
            } else {
                ActionList l = ACTIONLIST_INIT;
                game_legal_play(g, &l);
                Error e = {""};
                if (game_apply(g, &l.v[rng_below(&rng, (uint32_t)l.n)], &e))
                    fail_msg("a legal action was refused: %s", e.msg);
                al_free(&l);
            }
            sb_free(&want);
            sb_free(&got);
        }
        game_free(g);
    }
    assert_true(proposals > 10 && keeps > 2);
}

/* ---- help: every example of the variant's table is played ------------------- */

/* Where a help example applies: position, parameters, the texts played
 * before it (space-separated), and the action it must read as (machine
 * form). */
typedef struct HelpCase {
    const char *example, *fen, *params, *before, *machine;
} HelpCase;

static const HelpCase HELP_CASES[] = {
    {"e4", NULL, NULL, NULL, "e4"},                                    /* AMBI-1 */
    {"choose Nb1", NULL, NULL, "a3", "choose b1"},                     /* AMBI-2 */
    {"choose Pe7=N", "7k/4P3/8/8/8/8/8/4K3 w - - 0 1", NULL, "e8",
     "choose e7n"},                                                    /* AMBI-3 */
    {"Nf3", NULL, "clock=on", NULL, "f3"},                             /* AMBI-7 */
    {"keep", NULL, "clock=on", "Nf3", "choose g1"},                    /* AMBI-7 */
};

static const HelpCase *help_case(const char *example)
{
    for (size_t j = 0; j < ARRAY_LEN(HELP_CASES); j++)
        if (strcmp(HELP_CASES[j].example, example) == 0)
            return &HELP_CASES[j];
    fail_msg("help example \"%s\" has no position in HELP_CASES", example);
    return NULL;
}

/* AMBI-1, 2, 3, 7: every example of the help table is read, as the
 * action it stands for, in a position where it applies. */
static void test_help_examples_are_played(void **state)
{
    (void)state;
    const VariantOps *v = ambigus();
    assert_int_equal(v->version, 8);
    assert_int_equal(v->hidden_info, 0);
    assert_non_null(v->help);
    tu_assert_help_fits(v->help);
    int n = 0;
    for (; v->help[n].usage; n++) {
        const HelpCase *c = help_case(v->help[n].example);
        Game *g = start(c->fen, c->params);
        if (c->before)
            tu_play_line(g, c->before);
        Action a;
        Error e = {""};
        if (game_parse(g, game_to_act(g), c->example, &a, &e))
            fail_msg("help example %s refused: %s", c->example, e.msg);
        StrBuf b = STRBUF_INIT;
        game_format(g, &a, FMT_MACHINE, &b);
        assert_string_equal(sb_str(&b), c->machine);
        sb_free(&b);
        play(g, c->example);
        game_free(g);
    }
    assert_true(n >= 5); /* a square, two choices, a whole move, keep */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ambi1_start_squares),
        cmocka_unit_test(test_ambi1_square_nothing_reaches_refused),
        cmocka_unit_test(test_ambi1_en_passant_square),
        cmocka_unit_test(test_ambi2_unambiguous_played_at_once),
        cmocka_unit_test(test_ambi2_pawn_push_and_piece),
        cmocka_unit_test(test_ambi2_choice_errors),
        cmocka_unit_test(test_ambi3_promotion_two_pawns),
        cmocka_unit_test(test_ambi3_single_pawn_opponent_picks_figure),
        cmocka_unit_test(test_ambi4_king_square_wins),
        cmocka_unit_test(test_ambi4_king_forced_to_capture_into_attack),
        cmocka_unit_test(test_ambi4_no_castling),
        cmocka_unit_test(test_ambi4_no_check),
        cmocka_unit_test(test_ambi4_attacked_king_said_as_meant),
        cmocka_unit_test(test_ambi5_no_square_loses),
        cmocka_unit_test(test_ambi6_escape_capture_the_checker),
        cmocka_unit_test(test_ambi6_escape_king_flight),
        cmocka_unit_test(test_ambi6_escape_interpose_not_adjacent),
        cmocka_unit_test(test_ambi6_escape_interpose_not_pinned),
        cmocka_unit_test(test_ambi6_mate_in_play),
        cmocka_unit_test(test_ambi6_king_square_is_an_escape),
        cmocka_unit_test(test_ambi6_stalemate_parameter),
        cmocka_unit_test(test_ambi7_clock_same_game),
        cmocka_unit_test(test_ambi7_clock_keep_and_substitute),
        cmocka_unit_test(test_ambi7_clock_promotion),
        cmocka_unit_test(test_ambi7_whole_move_errors),
        cmocka_unit_test(test_record_round_trip),
        cmocka_unit_test(test_ambi7_record_keeps_proposals),
        cmocka_unit_test(test_position_errors),
        cmocka_unit_test(test_views),
        cmocka_unit_test(test_forged_actions_refused),
        cmocka_unit_test(test_draw_repetition),
        cmocka_unit_test(test_draw_move_counts),
        cmocka_unit_test(test_perft_fast_equals_generic),
        cmocka_unit_test(test_perft_counts),
        cmocka_unit_test(test_random_games_read_back),
        cmocka_unit_test(test_issue21_ambi7_inputs_are_the_whole_moves),
        cmocka_unit_test(test_help_examples_are_played),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
