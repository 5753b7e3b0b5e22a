/*
 * test_masques_leak.c -- the required leak test of Les Échecs Masqués
 * (MASQ-1, MASQ-12 and the views of docs/MASQUES.md): nothing a seat can
 * see, do or read depends on the enemy's masked figures.
 *
 * Seeded random games (random setups, random legal actions) run beside a
 * twin: the same game except that the figures of one side's still-masked
 * pieces are permuted among themselves (the setup placements permuted
 * accordingly, every other action identical).  At every ply the other
 * seat's View (the whole struct), its legal actions (machine texts and
 * Action structs), every message it may see, its history texts and its
 * rendered view (text and JSON) must be byte-identical between the twins.
 *
 * Invariant: a twin is only compared while every piece whose figure the
 * permutation changed is still masked (or was removed without reveal, and
 * was a King in neither game); the only differences allowed are the ones
 * the rules themselves publish: whether a loser had a choice of give-up
 * sets (MASQ-10, see MASQUES.md "Leak note") and a game end judged on the
 * true figures (MASQ-14, MASQ-16).  Such a twin is rebuilt, never excused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/cli/cli.h"
#include "../core/game.h"
#include "../core/cli/render.h"
#include "support/testutil.h"

#if TU_SANITIZED
enum { LEAK_GAMES = 16, LEAK_PLIES = 80 };
#else
enum { LEAK_GAMES = 40, LEAK_PLIES = 120 };
#endif

/* Parameters the games cycle through: each changes what can happen. */
static const char *const PARAMS[] = {
    NULL, "allin=6", "giveup_revealed=off", "reveal_alone=on",
};

static Game *new_game(uint64_t seed, const char *params)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = seed, .params = params});
}

/* ---- The board of a position string (docs/MASQUES.md) --------------------- */

typedef struct Cell {
    int fig;     /* Figure, 0 empty */
    int side;
    int masked;
} Cell;

/* The piece characters of a squares field by square (0 empty), with the
 * marks that follow them ("n~^"). */
static void board_cells(const char *pos, char cells[64][4])
{
    int rank = 7, file = 0;
    memset(cells, 0, sizeof(char[64][4]));
    for (const char *c = pos; *c && *c != ' '; c++) {
        if (*c == '/') {
            rank--;
            file = 0;
        } else if (*c >= '1' && *c <= '8') {
            file += *c - '0';
        } else if (*c == '~' || *c == '^') {
            assert_in_range(rank * 8 + file - 1, 0, 63);
            size_t l = strlen(cells[rank * 8 + file - 1]);
            assert_true(l < 3);
            cells[rank * 8 + file - 1][l] = *c;
        } else {
            assert_in_range(rank * 8 + file, 0, 63);
            cells[rank * 8 + file++][0] = *c;
        }
    }
    assert_int_equal(rank, 0);
}

static void read_board(const Game *g, Cell *b)
{
    char *pos = tu_position(g);
    char cells[64][4];
    board_cells(pos, cells);
    memset(b, 0, sizeof *b * 64);
    for (int q = 0; q < 64; q++)
        if (cells[q][0]) {
            b[q].fig = figure_from_letter(cells[q][0]);
            b[q].side = cells[q][0] >= 'a';
            b[q].masked = strchr(cells[q], '~') != NULL;
        }
    free(pos);
}

static int masked_of(const Cell *b, int s, int side)
{
    return b[s].fig && b[s].masked && b[s].side == side;
}

/* ---- What one seat receives ------------------------------------------------ */

/* Everything seat receives from g, as one text, plus the raw structs that
 * are compared byte for byte. */
typedef struct Seen {
    View view;
    ActionList legal;
    StrBuf text;   /* legal texts, messages, history, renders */
} Seen;

static void seen_take(const Game *g, int seat, Seen *s)
{
    RenderNames n;
    RenderOpts o = {.ascii = 1, .color = 0};
    const char *msgs[4096];
    int nmsgs = 0;
    StrBuf t = STRBUF_INIT;
    cli_names(g, &n);
    game_view(g, seat, &s->view);
    al_init(&s->legal);
    game_legal(g, seat, &s->legal);
    sb_init(&s->text);
    sb_puts(&s->text, "legal:");
    for (int i = 0; i < s->legal.n; i++) {
        sb_reset(&t);
        game_format(g, &s->legal.v[i], FMT_MACHINE, &t);
        sb_printf(&s->text, " [%s]", sb_str(&t));
    }
    sb_puts(&s->text, "\nmessages:\n");
    for (int i = 0; i < game_message_count(g); i++) {
        const char *m = game_message(g, i, seat);
        if (m && nmsgs < (int)ARRAY_LEN(msgs)) {
            msgs[nmsgs++] = m;
            sb_printf(&s->text, "  %s\n", m);
        }
    }
    sb_puts(&s->text, "history:\n");
    for (int i = 0; i < game_history_len(g); i++) {
        sb_reset(&t);
        game_history_text(g, i, seat, &t);
        sb_printf(&s->text, "  %d. %s\n", i + 1, sb_str(&t));
    }
    /* the search bot's input (issue 12): the position as the seat knows it */
    sb_puts(&s->text, "known: ");
    game_known(g, seat, &s->text);
    sb_puts(&s->text, "\nview:\n");
    render_view_text(&s->view, &n, &o, &s->text);
    sb_puts(&s->text, "\njson:\n");
    render_view_json(&s->view, &n, msgs, nmsgs, &s->text);
    sb_free(&t);
}

static void seen_free(Seen *s)
{
    al_free(&s->legal);
    sb_free(&s->text);
}

/* The first line where two texts differ, both versions. */
static void first_difference(const char *a, const char *b, StrBuf *out)
{
    const char *la, *lb;
    int line = tu_first_diff(a, b, &la, &lb);
    sb_printf(out, "line %d:\n    game: %.*s\n    twin: %.*s", line, (int)strcspn(la, "\n"), la,
              (int)strcspn(lb, "\n"), lb);
}

/* 0 if seat received the same from both games, else 1 and what differs. */
static int seen_differs(const Game *a, const Game *b, int seat, StrBuf *why)
{
    Seen x, y;
    int differs = 0;
    seen_take(a, seat, &x);
    seen_take(b, seat, &y);
    if (strcmp(sb_str(&x.text), sb_str(&y.text))) {
        first_difference(sb_str(&x.text), sb_str(&y.text), why);
        differs = 1;
    } else if (memcmp(&x.view, &y.view, sizeof x.view)) {
        sb_puts(why, "the View structs differ (same renders)");
        differs = 1;
    } else if (x.legal.n != y.legal.n
               || (x.legal.n
                   && memcmp(x.legal.v, y.legal.v, sizeof *x.legal.v * (size_t)x.legal.n))) {
        sb_puts(why, "the Action structs of the legal list differ (same texts)");
        differs = 1;
    }
    seen_free(&x);
    seen_free(&y);
    return differs;
}

/* ---- A game and its twins ---------------------------------------------------- */

/* One post-setup action of the game, as played. */
typedef struct Played {
    int seat;
    char text[96];   /* machine form */
} Played;

typedef struct Walk {
    const char *params;
    uint64_t seed;
    Game *a;                 /* the game */
    int setup[64];           /* figures as placed, by square */
    int origin[64];          /* origin square of the piece now on a square, -1 */
    Played *played;
    int nplayed, cap;
    Rng rng;
    int twins, rebuilt, legit_giveup, legit_end, compared, rejected, control;
    int unrevealed;          /* permuted pieces removed without reveal, twin kept */
} Walk;

typedef struct Twin {
    int side;                /* whose figures are permuted */
    Game *b;                 /* NULL: none now */
    int fig[64];             /* figures by origin in the twin */
    int changed[64];         /* origins whose figure differs from the game's */
    int built_at;            /* ply it was built at */
} Twin;

/* Random setups (the engine's `random`, drawn in a scratch game of the same
 * seed), given to the game as placements so a twin can permute them. */
static void walk_start(Walk *w, uint64_t seed, const char *params)
{
    memset(w, 0, sizeof *w);
    w->seed = seed;
    w->params = params;
    rng_seed(&w->rng, seed * 1000003u);
    Game *scratch = new_game(seed, params);
    tu_play(scratch, 0, "random");
    tu_play(scratch, 1, "random");
    Cell b[64];
    read_board(scratch, b);
    game_free(scratch);
    for (int s = 0; s < 64; s++) {
        w->setup[s] = b[s].fig;
        w->origin[s] = b[s].fig ? s : -1;
    }
    char text[64];
    w->a = new_game(seed, params);
    for (int side = 0; side < 2; side++) {
        tu_arrange_text(w->setup, side, text, sizeof text);
        tu_play(w->a, side, text);
    }
}

/* Follow the masked pieces of the game across one action (prev -> now):
 * a masked piece only moves by one action's move, so at most one square
 * gains a masked piece of a side, and its source is that side's last
 * move-like action's from square. */
static void follow(Walk *w, const Cell *prev, const Cell *now, const int *from_of_side)
{
    int next[64];
    for (int s = 0; s < 64; s++)
        next[s] = -1;
    for (int side = 0; side < 2; side++) {
        int gained = -1, ngained = 0;
        for (int s = 0; s < 64; s++) {
            if (!masked_of(now, s, side))
                continue;
            if (masked_of(prev, s, side)) {
                next[s] = w->origin[s];
            } else {
                gained = s;
                ngained++;
            }
        }
        if (ngained > 1)
            fail_msg("seed %llu: %d masked pieces of one side moved in one action",
                     (unsigned long long)w->seed, ngained);
        if (ngained == 1) {
            int src = from_of_side[side];
            if (src < 0 || !masked_of(prev, src, side) || masked_of(now, src, side))
                fail_msg("seed %llu: cannot tell where the masked piece on square %d came from",
                         (unsigned long long)w->seed, gained);
            next[gained] = w->origin[src];
        }
    }
    memcpy(w->origin, next, sizeof next);
}

/* The from square of a move-like machine text ("e2e4", "reveal g1f3"), -1. */
static int move_from(const char *text)
{
    if (!strncmp(text, "reveal ", 7))
        text += 7;
    if (text[0] >= 'a' && text[0] <= 'h' && text[1] >= '1' && text[1] <= '8'
        && text[2] >= 'a' && text[2] <= 'h' && text[3] >= '1' && text[3] <= '8')
        return (text[1] - '1') * 8 + (text[0] - 'a');
    return -1;
}

/* Is the seat to act in g asked for a give-up (every action "give ...")? */
static int asked_giveup(const Game *g, int side)
{
    if (game_to_act(g) != side)
        return 0;
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT;
    int all = 1;
    game_legal_play(g, &l);
    for (int i = 0; i < l.n && all; i++) {
        sb_reset(&t);
        game_format(g, &l.v[i], FMT_MACHINE, &t);
        all = !strncmp(sb_str(&t), "give", 4);
    }
    int asked = all && l.n > 0;
    al_free(&l);
    sb_free(&t);
    return asked;
}

/* A divergence the rules publish (see the file comment): a give-up of the
 * permuted side under way in either game, or the end of either game. */
static int rules_publish(Walk *w, const Game *a, const Game *b, int side)
{
    if (asked_giveup(a, side) || asked_giveup(b, side)) {
        w->legit_giveup++;
        return 1;
    }
    if (w->nplayed && !strncmp(w->played[w->nplayed - 1].text, "give", 4)
        && w->played[w->nplayed - 1].seat == side) {
        w->legit_giveup++;
        return 1;
    }
    /* an end judged on the true figures (mate, stalemate, a King's
     * identity): one game over and not the other, or over differently; the
     * same end must look the same (MASQ-12: nor the end-of-game screen) */
    Status sa, sb;
    game_status(a, &sa);
    game_status(b, &sb);
    if (sa.over != sb.over
        || (sa.over && (sa.winners != sb.winners || strcmp(sa.reason, sb.reason)))) {
        w->legit_end++;
        return 1;
    }
    return 0;
}

static void twin_drop(Twin *t)
{
    if (t->b)
        game_free(t->b);
    t->b = NULL;
}

/* Draw a permutation of the figures of side's pieces masked now: random,
 * or (tries > 3) one that swaps a Knight with a Bishop (values and
 * strengths equal, so give-ups cannot diverge).  0 if none exists. */
static int twin_permute(Walk *w, Twin *t, const Cell *now, int tries)
{
    int org[16], fig[16], n = 0;
    for (int s = 0; s < 64; s++)
        if (masked_of(now, s, t->side) && n < 16) {
            org[n] = w->origin[s];
            fig[n++] = now[s].fig;
        }
    memcpy(t->fig, w->setup, sizeof t->fig);
    memset(t->changed, 0, sizeof t->changed);
    int perm[16];
    memcpy(perm, fig, sizeof perm);
    int differ = 0;
    if (tries <= 3) {
        for (int round = 0; round < 8 && !differ; round++) {
            for (int i = n - 1; i > 0; i--) {
                int j = (int)rng_below(&w->rng, (uint32_t)i + 1), x = perm[i];
                perm[i] = perm[j];
                perm[j] = x;
            }
            for (int i = 0; i < n; i++)
                differ |= perm[i] != fig[i];
        }
    } else {
        int kn = -1, bi = -1;
        for (int i = 0; i < n; i++) {
            if (fig[i] == FIG_KNIGHT && kn < 0)
                kn = i;
            if (fig[i] == FIG_BISHOP && bi < 0)
                bi = i;
        }
        if (kn >= 0 && bi >= 0) {
            perm[kn] = FIG_BISHOP;
            perm[bi] = FIG_KNIGHT;
            differ = 1;
        }
    }
    if (!differ)
        return 0;
    for (int i = 0; i < n; i++) {
        t->fig[org[i]] = perm[i];
        t->changed[org[i]] = perm[i] != fig[i];
    }
    return 1;
}

/* Build the twin of the game at ply nplayed: setups with t->fig for the
 * permuted side, then every action replayed as text.  0 if the replay
 * diverges where the rules publish it; fails the test otherwise. */
static int twin_replay(Walk *w, Twin *t)
{
    char text[64];
    Error e = {""};
    t->b = new_game(w->seed, w->params);
    for (int side = 0; side < 2; side++) {
        tu_arrange_text(side == t->side ? t->fig : w->setup, side, text, sizeof text);
        tu_play(t->b, side, text);
    }
    for (int i = 0; i < w->nplayed; i++) {
        if (game_to_act(t->b) != w->played[i].seat
            || game_play(t->b, w->played[i].seat, w->played[i].text, &e)) {
            /* Only the permuted side's give-ups and game ends may differ;
             * a replay is checked ply by ply when it runs in step, so here
             * any divergence only rejects this permutation. */
            twin_drop(t);
            w->rejected++;
            return 0;
        }
    }
    /* a twin must really differ from the game, or it proves nothing */
    char *pa = tu_position(w->a), *pb = tu_position(t->b);
    if (!strcmp(pa, pb))
        fail_msg("seed %llu: the twin equals the game (%s)", (unsigned long long)w->seed, pa);
    free(pa);
    free(pb);
    return 1;
}

static void twin_build(Walk *w, Twin *t, const Cell *now)
{
    twin_drop(t);
    for (int tries = 0; tries < 5; tries++) {
        if (!twin_permute(w, t, now, tries))
            continue;
        if (twin_replay(w, t)) {
            t->built_at = w->nplayed;
            w->twins++;
            return;
        }
    }
}

/* After the game's last action: is every changed piece still masked (or
 * removed without reveal, a King in neither game)? */
static int twin_still_valid(Walk *w, Twin *t, const Cell *now, const char *text)
{
    int present[64] = {0};
    for (int s = 0; s < 64; s++)
        if (w->origin[s] >= 0)
            present[w->origin[s]] = 1;
    int unrevealed_removal = !strcmp(text, "concede") || !strcmp(text, "fold")
                             || (!strncmp(text, "give", 4) && w->params
                                 && !strcmp(w->params, "giveup_revealed=off"));
    (void)now;
    for (int o = 0; o < 64; o++) {
        if (!t->changed[o] || present[o])
            continue;
        if (!unrevealed_removal || t->fig[o] == FIG_KING || w->setup[o] == FIG_KING)
            return 0;
        t->changed[o] = 0;  /* gone for good, its figure never shown */
        w->unrevealed++;
    }
    return 1;
}

/* Apply the game's next action in the twin too and compare what the other
 * seat receives.  Fails the test on a leak. */
static void twin_step(Walk *w, Twin *t, const Cell *now, const Played *p)
{
    Error e = {""};
    if (!t->b)
        return;
    if (!twin_still_valid(w, t, now, p->text)) {
        twin_drop(t);
        return;
    }
    if (game_to_act(t->b) != p->seat || game_play(t->b, p->seat, p->text, &e)) {
        if (rules_publish(w, w->a, t->b, t->side)) {
            twin_drop(t);
            return;
        }
        fail_msg("seed %llu (%s) ply %d: the twin (%s figures permuted) cannot follow \"%s\" "
                 "by %s: %s", (unsigned long long)w->seed, w->params ? w->params : "defaults",
                 w->nplayed, t->side ? "black" : "white", p->text,
                 game_seat_name(w->a, p->seat), e.msg);
    }
    StrBuf why = STRBUF_INIT;
    int seat = !t->side;
    if (seen_differs(w->a, t->b, seat, &why)) {
        if (rules_publish(w, w->a, t->b, t->side)) {
            twin_drop(t);
        } else {
            char *pa = tu_position(w->a), *pb = tu_position(t->b);
            fail_msg("LEAK, seed %llu (%s) after ply %d (\"%s\"): %s receives different things "
                     "when %s's masked figures are permuted:\n  %s\n  game: %s\n  twin: %s",
                     (unsigned long long)w->seed, w->params ? w->params : "defaults",
                     w->nplayed, p->text, game_seat_name(w->a, seat),
                     t->side ? "black" : "white", sb_str(&why), pa, pb);
        }
    } else {
        w->compared++;
        /* control: the permuted side itself does see its figures differ */
        sb_reset(&why);
        w->control += seen_differs(w->a, t->b, t->side, &why);
    }
    sb_free(&why);
}

static void walk_push(Walk *w, int seat, const char *text)
{
    if (w->nplayed == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 64;
        w->played = realloc(w->played, sizeof *w->played * (size_t)w->cap);
        assert_non_null(w->played);
    }
    w->played[w->nplayed].seat = seat;
    snprintf(w->played[w->nplayed].text, sizeof w->played[0].text, "%s", text);
    w->nplayed++;
}

/* A random legal action, with two leanings that keep the hidden
 * information alive (the point of the test): three times in four an
 * action that reveals nothing if there is one (reveal-moves outnumber
 * masked moves, and would unmask the armies in a few plies), and a call
 * half of the time it is possible (so bids end and give-ups, whose sets
 * depend on hidden values, come often). */
static Action pick_action(Walk *w, const Action *v, int n)
{
    int quiet[512], nq = 0;
    for (int i = 0; i < n; i++) {
        if (v[i].kind == ACT_CALL && rng_below(&w->rng, 2))
            return v[i];
        if (v[i].kind != ACT_REVEAL && nq < (int)ARRAY_LEN(quiet))
            quiet[nq++] = i;
    }
    if (nq && rng_below(&w->rng, 4))
        return v[quiet[rng_below(&w->rng, (uint32_t)nq)]];
    return v[rng_below(&w->rng, (uint32_t)n)];
}

/* One seeded game with its two twins; returns the plies played. */
static int leak_game(uint64_t seed, const char *params, Walk *w)
{
    Twin twins[2];
    Cell prev[64], now[64];
    int from_of_side[2] = {-1, -1};
    memset(twins, 0, sizeof twins);
    twins[0].side = 0;
    twins[1].side = 1;
    walk_start(w, seed, params);
    read_board(w->a, now);
    for (int side = 0; side < 2; side++) {
        twin_build(w, &twins[side], now);
        StrBuf why = STRBUF_INIT;
        if (twins[side].b && seen_differs(w->a, twins[side].b, !side, &why))
            fail_msg("LEAK, seed %llu after the setups: %s", (unsigned long long)seed,
                     sb_str(&why));
        sb_free(&why);
    }
    for (int ply = 0; ply < LEAK_PLIES && game_to_act(w->a) >= 0; ply++) {
        ActionList l = ACTIONLIST_INIT;
        StrBuf text = STRBUF_INIT;
        int seat = game_to_act(w->a);
        game_legal(w->a, seat, &l);
        int n = 0;
        for (int i = 0; i < l.n; i++)  /* play actions only: no resign, no draws */
            if (!action_is_meta(l.v[i].kind))
                l.v[n++] = l.v[i];
        if (n == 0) {
            al_free(&l);
            break;
        }
        Action act = pick_action(w, l.v, n);
        game_format(w->a, &act, FMT_MACHINE, &text);
        Error e = {""};
        memcpy(prev, now, sizeof prev);
        if (game_apply(w->a, &act, &e))
            fail_msg("seed %llu ply %d: %s refused: %s", (unsigned long long)seed, ply,
                     sb_str(&text), e.msg);
        if (move_from(sb_str(&text)) >= 0)
            from_of_side[seat] = move_from(sb_str(&text));
        read_board(w->a, now);
        follow(w, prev, now, from_of_side);
        walk_push(w, seat, sb_str(&text));
        for (int side = 0; side < 2; side++) {
            twin_step(w, &twins[side], now, &w->played[w->nplayed - 1]);
            /* a new permutation when the twin lapsed, and now and then */
            if (!twins[side].b || w->nplayed - twins[side].built_at >= 16) {
                twin_build(w, &twins[side], now);
                if (twins[side].b) {
                    w->rebuilt++;
                    StrBuf why = STRBUF_INIT;
                    if (seen_differs(w->a, twins[side].b, !side, &why)
                        && !rules_publish(w, w->a, twins[side].b, side))
                        fail_msg("LEAK, seed %llu (%s) at ply %d (fresh twin, %s permuted): %s",
                                 (unsigned long long)seed, params ? params : "defaults",
                                 w->nplayed, side ? "black" : "white", sb_str(&why));
                    sb_free(&why);
                }
            }
        }
        sb_free(&text);
        al_free(&l);
    }
    twin_drop(&twins[0]);
    twin_drop(&twins[1]);
    game_free(w->a);
    free(w->played);
    return w->nplayed;
}

/* MASQ-1, 12 and the views: the twins test over many seeded games. */
static void test_masq12_twins_see_the_same(void **state)
{
    (void)state;
    long plies = 0, compared = 0, twins = 0, giveups = 0, ends = 0, rejected = 0, control = 0,
         unrevealed = 0;
    int games = LEAK_GAMES;
    const char *more = getenv("MASQUES_LEAK_GAMES");  /* deeper runs, by hand */
    if (more && atoi(more) > 0)
        games = atoi(more);
    for (int i = 0; i < games; i++) {
        Walk w;
        plies += leak_game((uint64_t)(i + 1), PARAMS[i % ARRAY_LEN(PARAMS)], &w);
        compared += w.compared;
        twins += w.twins;
        giveups += w.legit_giveup;
        ends += w.legit_end;
        rejected += w.rejected;
        control += w.control;
        unrevealed += w.unrevealed;
    }
    print_message("%ld plies, %ld twin comparisons (the permuted side saw a difference in "
                  "%ld), %ld twins built, %ld permutations whose replay diverged, %ld permuted pieces "
                  "removed without reveal with the twin kept (MASQ-12); twins "
                  "retired where the rules publish a difference: %ld give-ups, %ld game ends\n",
                  plies, compared, control, twins, rejected, unrevealed, giveups, ends);
    /* the test must have compared a lot, or it proves nothing */
    assert_true(plies >= games * 30);
    assert_true(compared >= plies);
    assert_true(control >= compared * 9 / 10);
}

/* MASQ-1: White's `random` and `standard` setups, `random` with another
 * seed, an `arrange` and sixteen single placements in another order read
 * the same to Black (no enemy piece until White is done, then 16 masked
 * pieces; one message "white has set up its pieces"; the history reads
 * "white arranges ..."), before and after Black's own setup. */
static void test_masq1_random_setup_reads_the_same(void **state)
{
    (void)state;
    static const char *const NAMES[] = {"", "random against standard", "another seed",
                                        "", "arrange against sixteen placements"};
    Game *g[5] = {new_game(1, NULL), new_game(1, NULL), new_game(99, NULL),
                  new_game(1, NULL), new_game(1, NULL)};
    tu_play(g[0], 0, "random");
    tu_play(g[1], 0, "standard");
    tu_play(g[2], 0, "random");
    tu_play(g[3], 0, "arrange QRBNKBNR/PPPPPPPP");
    static const char *const PLACES[] = {
        "place P h2", "place K d1", "place Q e1", "place R a1", "place R h1", "place B c1",
        "place B f1", "place N b1", "place N g1", "place P a2", "place P b2", "place P c2",
        "place P d2", "place P e2", "place P f2", "place P g2"};
    for (size_t i = 0; i < sizeof PLACES / sizeof *PLACES; i++)
        tu_play(g[4], 0, PLACES[i]);
    for (int round = 0; round < 2; round++) {
        for (int i = 1; i < 5; i++) {
            if (i == 3) /* one history entry per action: compared with g[4] */
                continue;
            StrBuf why = STRBUF_INIT;
            if (seen_differs(i == 4 ? g[3] : g[0], g[i], 1, &why))
                fail_msg("LEAK: black sees White's setup (%s): %s", NAMES[i], sb_str(&why));
            sb_free(&why);
        }
        for (int i = 0; i < 5 && round == 0; i++)
            tu_play(g[i], 1, "standard");
    }
    char *pos[3];
    for (int i = 0; i < 3; i++)
        pos[i] = tu_position(g[i]);
    assert_string_not_equal(pos[0], pos[1]);  /* the setups do differ */
    assert_string_not_equal(pos[0], pos[2]);
    for (int i = 0; i < 3; i++)
        free(pos[i]);
    for (int i = 0; i < 5; i++)
        game_free(g[i]);
}

/* ---- The search bot's samples (issue 12) ------------------------------------ */

static int by_char(const void *a, const void *b)
{
    return *(const char *)a - *(const char *)b;
}

/* A token's value ("unknown=" -> "kqp"), "" when absent. */
static void token(const char *pos, const char *name, char *out, size_t n)
{
    const char *t = strstr(pos, name);
    out[0] = '\0';
    if (t)
        snprintf(out, n, "%.*s", (int)strcspn(t + strlen(name), " "), t + strlen(name));
}

/* Check what `seat` knows against the truth of g, and samples of it. */
static void check_known(Game *g, int seat, uint64_t seed, int *checked, int *promoted)
{
    StrBuf k = STRBUF_INIT, t = STRBUF_INIT;
    if (!game_known(g, seat, &k)) {
        sb_free(&k);
        return;
    }
    game_position(g, &t);
    const char *known = sb_str(&k), *truth = sb_str(&t);
    int enemy = seat ^ 1;
    char kc[64][4], tc[64][4], sc[64][4];
    board_cells(known, kc);
    board_cells(truth, tc);
    /* what is open is exactly the enemy's masked figures; all else as is */
    char hidden[40] = "";
    size_t nh = 0;
    for (int q = 0; q < 64; q++) {
        if (kc[q][0] == '?') {
            if (!strchr(tc[q], '~') || !!isupper((unsigned char)tc[q][0]) != (enemy == 0))
                fail_msg("seed %llu: %s knows %s but the truth is %s", (unsigned long long)seed,
                         seat ? "black" : "white", known, truth);
            assert_string_equal(kc[q] + 1, tc[q] + 1); /* the marks */
            hidden[nh++] = tc[q][0];
        } else if (strcmp(kc[q], tc[q])) {
            fail_msg("seed %llu: square %d differs: %s knows %s, truth %s",
                     (unsigned long long)seed, q, seat ? "black" : "white", known, truth);
        }
    }
    /* the figures removed without reveal, as their owner sees them */
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    game_view(g, enemy, v);
    int removed = 0, count[7] = {0};
    for (int i = 0; i < v->ncaptured; i++) {
        if (v->captured[i].side == enemy)
            count[v->captured[i].figure]++;
        if (v->captured[i].side == enemy && (v->captured[i].flags & VP_MASKED)) {
            char c = figure_letter(v->captured[i].figure);
            hidden[nh++] = enemy == 0 ? c : (char)tolower((unsigned char)c);
            removed++;
        }
    }
    for (int i = 0; i < v->npieces; i++)
        if (v->pieces[i].side == enemy)
            count[v->pieces[i].figure]++;
    free(v);
    char pool[40], want[8];
    token(known, " unknown=", pool, sizeof pool);
    token(known, " removed=", want, sizeof want);
    assert_int_equal(atoi(want), removed);
    /* the pool is the truth's unknown figures, unless a Pawn promoted to a
     * figure of which the army's own may still be masked */
    int promo = count[FIG_QUEEN] > 1 || count[FIG_ROOK] > 2 || count[FIG_BISHOP] > 2 ||
                count[FIG_KNIGHT] > 2;
    hidden[nh] = '\0';
    qsort(hidden, nh, 1, by_char);
    qsort(pool, strlen(pool), 1, by_char);
    if (!strcmp(pool, "-"))
        pool[0] = '\0';
    if (promo)
        (*promoted)++;
    else if (strcmp(pool, hidden))
        fail_msg("seed %llu: %s's unknown figures are %s, the truth %s (%s)",
                 (unsigned long long)seed, seat ? "black" : "white", pool, hidden, truth);
    /* samples: readable, agreeing with what is known, drawn from the pool */
    const VariantOps *mq = tu_variant("masques");
    Rng rng;
    rng_seed(&rng, seed);
    for (int i = 0; i < 3; i++) {
        StrBuf sb = STRBUF_INIT;
        Error e;
        if (mq->sample(known, &rng, &sb, &e))
            fail_msg("seed %llu: no sample of %s: %s", (unsigned long long)seed, known, e.msg);
        Game *m = tu_game(&(TuGame){.variant = mq, .position = sb_str(&sb)});
        board_cells(sb_str(&sb), sc);
        char drawn[40];
        size_t nd = 0;
        for (int q = 0; q < 64; q++) {
            if (kc[q][0] == '?') {
                assert_string_equal(sc[q] + 1, kc[q] + 1);
                drawn[nd++] = sc[q][0];
            } else {
                assert_string_equal(sc[q], kc[q]);
            }
        }
        drawn[nd] = '\0';
        for (size_t j = 0; j < nd; j++) /* a sub-multiset of the pool */
            assert_non_null(strchr(pool, drawn[j]));
        /* the fields known to both: side, en passant, clocks */
        assert_memory_equal(strchr(sb_str(&sb), ' '), strchr(known, ' '), 3);
        game_free(m);
        sb_free(&sb);
    }
    (*checked)++;
    sb_free(&k);
    sb_free(&t);
}

/* Issue 12, MASQ-1/MASQ-12: what the search bot starts from.  In seeded
 * random games, at every ply and for both seats, the position the seat
 * knows is the true position with exactly the enemy's masked figures left
 * open (the twins test above shows it reads the same whatever they are),
 * its `unknown=` figures are the truth's masked and removed-unseen ones,
 * and every sample of it is a position the variant reads, equal to it
 * where it is known, drawn from those figures. */
static void test_masq12_bot_samples_what_the_seat_knows(void **state)
{
    (void)state;
    int checked = 0, promoted = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        Game *g = new_game(seed, PARAMS[seed % ARRAY_LEN(PARAMS)]);
        tu_play(g, 0, "random");
        tu_play(g, 1, "random");
        Walk w;
        memset(&w, 0, sizeof w);
        rng_seed(&w.rng, seed);
        for (int ply = 0; ply < 100 && game_to_act(g) >= 0; ply++) {
            check_known(g, 0, seed * 1000 + (uint64_t)ply, &checked, &promoted);
            check_known(g, 1, seed * 1000 + (uint64_t)ply, &checked, &promoted);
            ActionList l = ACTIONLIST_INIT;
            game_legal(g, game_to_act(g), &l);
            int n = 0;
            for (int i = 0; i < l.n; i++)
                if (!action_is_meta(l.v[i].kind))
                    l.v[n++] = l.v[i];
            if (n == 0) {
                al_free(&l);
                break;
            }
            Action a = pick_action(&w, l.v, n);
            Error e;
            assert_int_equal(game_apply(g, &a, &e), 0);
            al_free(&l);
        }
        game_free(g);
    }
    print_message("%d known positions checked (%d with a promotion)\n", checked, promoted);
    assert_true(checked >= 1000);
}

/* Issue 12, docs/MASQUES.md "The position as a seat knows it": for Black
 * at the start, after both arrangements, White's pieces are open, White
 * keeps its castling rights, every figure is unknown and none removed;
 * White's own text shows its figures. */
static void test_masq12_known_at_the_start(void **state)
{
    (void)state;
    Game *g = new_game(1, NULL);
    tu_play(g, 0, "random");
    tu_play(g, 1, "standard");
    StrBuf b = STRBUF_INIT, w = STRBUF_INIT;
    assert_int_equal(game_known(g, 1, &b), 1);
    assert_string_equal(sb_str(&b), "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/"
                                    "?~?~?~?~?~?~?~?~/?~?~?~?~?~?~?~?~ w KQkq - 0 1 "
                                    "unknown=KQRRBBNNPPPPPPPP removed=0");
    assert_int_equal(game_known(g, 0, &w), 1);
    assert_true(strncmp(sb_str(&w), "?~?~?~?~?~?~?~?~/?~?~?~?~?~?~?~?~/8/8/8/8/", 42) == 0);
    const char *white = sb_str(&w) + 42; /* White's own two ranks: figures */
    assert_true(strcspn(white, " ") == strcspn(white, " ?"));
    assert_non_null(strstr(sb_str(&w), " unknown=kqrrbbnnpppppppp removed=0"));
    sb_free(&b);
    sb_free(&w);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_masq1_random_setup_reads_the_same),
        cmocka_unit_test(test_masq12_twins_see_the_same),
        cmocka_unit_test(test_masq12_bot_samples_what_the_seat_knows),
        cmocka_unit_test(test_masq12_known_at_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
