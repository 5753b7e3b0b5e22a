/*
 * toy_variant.c -- "toy", a test-only variant that proves the core carries
 * what orthodox chess never asks of it.  Its rules:
 *
 * TOY-1 Sides and seats.  2 or 3 sides: red, green, blue (default 3).  One
 *       seat per side, plus optionally one more seat, the newcomer (create
 *       the game with nseats = nsides + 1), who starts with no side.
 * TOY-2 Board.  The unbounded integer plane; squares are written "x,y"
 *       ("-3,2").  Each side has one token: red 1,0  green -1,1  blue 0,-1.
 *       Tokens stay within TOY_LIMIT of the origin on each axis.
 * TOY-3 Secrets.  At setup each side draws a secret number from the game's
 *       generator.  A seat sees the secrets of the sides it commands now,
 *       and nobody else's until the game is over.
 * TOY-4 Turns.  Sides move in order red, green, blue, red ...  The side to
 *       move proposes a step of its token to one of its four orthogonal
 *       neighbours (typed as the target square: "2,0").
 * TOY-5 The judge.  The next side in turn order whose seat is not the
 *       mover's seat is the judge: its seat must answer "even" or "odd",
 *       guessing the parity of the mover's secret, before the turn passes
 *       (so the seat to act is not the side to move).  A right guess
 *       cancels the step, a wrong one lets it happen; either way the turn
 *       then passes.  Only the mover's seat is told the secret's parity
 *       again, privately.  With no judge (one seat commands every side)
 *       the step happens at once.
 * TOY-6 Capture.  A step onto another token swaps the two tokens, and from
 *       then on the mover's seat commands the captured side too.
 * TOY-7 The newcomer.  Once per game, at any moment, out of turn, the
 *       newcomer may take over a captured side ("take green"); it then
 *       commands that side.
 * TOY-8 End.  A side whose token is at Chebyshev distance >= goal from the
 *       origin (parameter, default 4) wins.  A position occurring a third
 *       time is drawn; the seat to act may claim a draw when it occurs the
 *       second time.
 *
 * Position string (full truth, secrets included), one word per side then
 * the turn, the pending step and the newcomer's flag:
 *     red:1,0:712345678:0 green:-1,1:812345678:1 blue:0,-1:798765432:2 \
 *     turn:red [ask:2,0] [joined]
 * i.e. NAME:SQUARE:SECRET:SEAT for each side in order.
 *
 * Invariant: tokens are on distinct squares within the limit, every side
 * is commanded by a seat of the game, and ask is a neighbour of the token
 * of the side to move.
 */
#include "toy_variant.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOY_MAX_SIDES 3
#define TOY_MAX_ACTIONS 8 /* 4 steps or 2 guesses, plus up to 3 takeovers */

typedef struct ToyState {
    Coord token[TOY_MAX_SIDES];
    int32_t secret[TOY_MAX_SIDES];
    uint8_t commander[TOY_MAX_SIDES]; /* seat of each side */
    uint8_t nsides, nseats;
    uint8_t turn;    /* side to move */
    uint8_t pending; /* 1: a step to `ask` awaits the judge's guess */
    uint8_t joined;  /* 1: the newcomer has taken over a side */
    Coord ask;
} ToyState;

static const char *const toy_side_names[TOY_MAX_SIDES] = {"red", "green",
                                                          "blue"};
static const Coord toy_start[TOY_MAX_SIDES] = {{1, 0}, {-1, 1}, {0, -1}};
static const Coord toy_steps[4] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};

static const ParamDef toy_params[] = {
    {.name = "goal", .type = PARAM_INT, .def = 4, .min = 1, .max = 1000,
     .rule = "TOY-8", .doc = "distance from the origin that wins"},
};

/* ---- Rules ------------------------------------------------------------- */

static int32_t cheb(Coord c)
{
    int32_t ax = c.x < 0 ? -c.x : c.x, ay = c.y < 0 ? -c.y : c.y;
    return ax > ay ? ax : ay;
}

static unsigned toy_winners(const Game *g, const ToyState *s)
{
    unsigned w = 0;
    for (int i = 0; i < s->nsides; i++)
        if (cheb(s->token[i]) >= game_param(g, 0))
            w |= 1u << i;
    return w;
}

/* TOY-5: the side that must guess, or -1. */
static int toy_judge(const ToyState *s)
{
    for (int k = 1; k < s->nsides; k++) {
        int side = (s->turn + k) % s->nsides;
        if (s->commander[side] != s->commander[s->turn])
            return side;
    }
    return -1;
}

static int toy_to_act(const Game *g, const void *st)
{
    const ToyState *s = st;
    if (toy_winners(g, s))
        return -1;
    int judge = s->pending ? toy_judge(s) : -1;
    return s->commander[judge >= 0 ? judge : s->turn];
}

static int toy_side_at(const ToyState *s, Coord c)
{
    for (int i = 0; i < s->nsides; i++)
        if (coord_eq(s->token[i], c))
            return i;
    return -1;
}

/* Every play action of seat now, into out; returns the count. */
static int toy_gen(const Game *g, const ToyState *s, int seat, Action *out)
{
    int n = 0;
    if (toy_winners(g, s))
        return 0;
    Action a;
    memset(&a, 0, sizeof a);
    a.seat = (uint8_t)seat;
    if (seat == toy_to_act(g, s)) {
        if (s->pending) {
            a.kind = ACT_CHOOSE;
            for (a.amount = 0; a.amount < 2; a.amount++)
                out[n++] = a;
            a.amount = 0;
        } else {
            a.kind = ACT_MOVE;
            a.from = s->token[s->turn];
            for (int d = 0; d < 4; d++) {
                a.to = coord_make(a.from.x + toy_steps[d].x,
                                  a.from.y + toy_steps[d].y);
                if (cheb(a.to) <= TOY_LIMIT)
                    out[n++] = a;
            }
            a.from = a.to = coord_make(0, 0);
        }
    }
    /* TOY-7: the newcomer's takeover, offered whatever the turn. */
    if (seat == s->nsides && s->nseats > s->nsides && !s->joined) {
        a.kind = ACT_TAKEOVER;
        for (int side = 0; side < s->nsides; side++)
            if (s->commander[side] != side) {
                a.amount = side;
                out[n++] = a;
            }
    }
    return n;
}

/* Make the pending step of the side to move (TOY-6 on a capture). */
static void toy_step(const Game *g, ToyState *s, Coord to, Events *ev)
{
    int mover = s->turn, victim = toy_side_at(s, to);
    char sq[GEO_SQ_MAX];
    Geometry geo = {0, 0, 0};
    if (victim >= 0) {
        int seat = s->commander[mover];
        s->token[victim] = s->token[mover];
        s->commander[victim] = (uint8_t)seat;
        ev_emit(ev, SEATS_ALL, "%s captures %s: %s now commands %s",
                toy_side_names[mover], toy_side_names[victim],
                game_seat_name(g, seat), toy_side_names[victim]);
        ev_emit(ev, 1u << seat, "%s's secret is %d", toy_side_names[victim],
                (int)s->secret[victim]);
    }
    s->token[mover] = to;
    ev_emit(ev, SEATS_ALL, "%s steps to %s", toy_side_names[mover],
            geo_format_square(&geo, to, sq));
}

static int toy_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    ToyState *s = st;
    Action legal[TOY_MAX_ACTIONS];
    int n = toy_gen(g, s, a->seat, legal), i = 0;
    while (i < n && !action_eq(&legal[i], a))
        i++;
    if (i == n)
        return -1;
    int mover = s->turn, seat = s->commander[mover];
    if (a->kind == ACT_TAKEOVER) {
        s->commander[a->amount] = a->seat;
        s->joined = 1;
        ev_emit(ev, SEATS_ALL, "%s takes over %s", game_seat_name(g, a->seat),
                toy_side_names[a->amount]);
        ev_emit(ev, 1u << a->seat, "%s's secret is %d",
                toy_side_names[a->amount], (int)s->secret[a->amount]);
        return 0;
    }
    if (a->kind == ACT_MOVE && toy_judge(s) >= 0) {
        s->pending = 1;
        s->ask = a->to;
        ev_emit(ev, SEATS_ALL, "%s proposes a step; %s must guess the parity "
                "of %s's secret", toy_side_names[mover],
                toy_side_names[toy_judge(s)], toy_side_names[mover]);
        return 0;
    }
    if (a->kind == ACT_MOVE)
        toy_step(g, s, a->to, ev);
    else { /* ACT_CHOOSE: the judge's guess */
        int right = a->amount == (s->secret[mover] & 1);
        ev_emit(ev, SEATS_ALL, "%s guessed %s: %s", toy_side_names[toy_judge(s)],
                a->amount ? "odd" : "even",
                right ? "right, the step is cancelled" : "wrong");
        ev_emit(ev, 1u << seat, "(%s's secret %d is %s)", toy_side_names[mover],
                (int)s->secret[mover], (s->secret[mover] & 1) ? "odd" : "even");
        s->pending = 0;
        if (!right)
            toy_step(g, s, s->ask, ev);
        s->ask = coord_make(0, 0);
    }
    s->turn = (uint8_t)((s->turn + 1) % s->nsides);
    return 0;
}

/* ---- Position strings --------------------------------------------------- */

static int read_long(const char **p, long lo, long hi, long *out)
{
    char *end;
    if (!((**p >= '0' && **p <= '9') || **p == '-'))
        return -1;
    long v = strtol(*p, &end, 10);
    if (end == *p || v < lo || v > hi)
        return -1;
    *p = end;
    *out = v;
    return 0;
}

static int read_side_name(const char **p, int nsides)
{
    for (int i = 0; i < nsides; i++) {
        size_t k = strlen(toy_side_names[i]);
        if (!strncmp(*p, toy_side_names[i], k)) {
            *p += k;
            return i;
        }
    }
    return -1;
}

static int toy_parse_position(ToyState *s, const char *p, Error *e)
{
    Geometry geo = {0, 0, 0};
    long v;
    for (int i = 0; i < s->nsides; i++) {
        if (i > 0 && *p++ != ' ')
            return err_set(e, "toy position: expected a space before %s",
                           toy_side_names[i]);
        size_t k = strlen(toy_side_names[i]);
        if (strncmp(p, toy_side_names[i], k) || p[k] != ':')
            return err_set(e, "toy position: expected \"%s:\" (sides in "
                           "order, NAME:SQUARE:SECRET:SEAT)", toy_side_names[i]);
        p += k + 1;
        if (geo_parse_square(&geo, &p, &s->token[i], e) < 0) {
            err_prefix(e, "toy position, %s", toy_side_names[i]);
            return -1;
        }
        if (cheb(s->token[i]) > TOY_LIMIT)
            return err_set(e, "toy position: %s's token is beyond the limit "
                           "%d", toy_side_names[i], TOY_LIMIT);
        if (toy_side_at(s, s->token[i]) != i)
            return err_set(e, "toy position: %s's token shares a square",
                           toy_side_names[i]);
        if (*p++ != ':' || read_long(&p, 0, 999999999, &v) < 0)
            return err_set(e, "toy position: %s's secret must be a number "
                           "from 0 to 999999999", toy_side_names[i]);
        s->secret[i] = (int32_t)v;
        if (*p++ != ':' || read_long(&p, 0, s->nseats - 1, &v) < 0)
            return err_set(e, "toy position: %s's seat must be a number "
                           "from 0 to %d", toy_side_names[i], s->nseats - 1);
        s->commander[i] = (uint8_t)v;
        if (v == s->nsides)
            s->joined = 1; /* the newcomer commands it already */
    }
    int turn = -1;
    if (!strncmp(p, " turn:", 6)) {
        p += 6;
        turn = read_side_name(&p, s->nsides);
    }
    if (turn < 0)
        return err_set(e, "toy position: expected \" turn:SIDE\" after the "
                       "sides");
    s->turn = (uint8_t)turn;
    if (!strncmp(p, " ask:", 5)) {
        p += 5;
        if (geo_parse_square(&geo, &p, &s->ask, e) < 0) {
            err_prefix(e, "toy position, ask");
            return -1;
        }
        Coord t = s->token[turn];
        long dx = (long)s->ask.x - t.x, dy = (long)s->ask.y - t.y;
        if (labs(dx) + labs(dy) != 1 || cheb(s->ask) > TOY_LIMIT)
            return err_set(e, "toy position: ask must be a neighbour of "
                           "%s's token", toy_side_names[turn]);
        if (toy_judge(s) < 0)
            return err_set(e, "toy position: a step is asked but no seat "
                           "can judge it");
        s->pending = 1;
    }
    if (!strcmp(p, " joined") && s->nseats > s->nsides) {
        s->joined = 1;
        p += 7;
    }
    if (*p)
        return err_set(e, "toy position: unexpected \"%.20s\"", p);
    return 0;
}

static int toy_init(Game *g, void *st, const char *position, Error *e)
{
    ToyState *s = st;
    memset(s, 0, sizeof *s);
    s->nsides = (uint8_t)game_nsides(g);
    s->nseats = (uint8_t)game_nseats(g);
    if (s->nseats != s->nsides && s->nseats != s->nsides + 1)
        return err_set(e, "toy: %d sides need %d seats, or %d with a "
                       "newcomer", s->nsides, s->nsides, s->nsides + 1);
    if (position)
        return toy_parse_position(s, position, e);
    for (int i = 0; i < s->nsides; i++) {
        s->token[i] = toy_start[i];
        s->secret[i] = TOY_SECRET_MIN + (int32_t)rng_below(
            game_rng(g), TOY_SECRET_MAX - TOY_SECRET_MIN + 1);
        s->commander[i] = (uint8_t)i;
    }
    return 0;
}

static void toy_write_position(const Game *g, const void *st, StrBuf *out)
{
    const ToyState *s = st;
    Geometry geo = {0, 0, 0};
    char sq[GEO_SQ_MAX];
    (void)g;
    for (int i = 0; i < s->nsides; i++)
        sb_printf(out, "%s%s:%s:%d:%d", i ? " " : "", toy_side_names[i],
                  geo_format_square(&geo, s->token[i], sq), (int)s->secret[i],
                  s->commander[i]);
    sb_printf(out, " turn:%s", toy_side_names[s->turn]);
    if (s->pending)
        sb_printf(out, " ask:%s", geo_format_square(&geo, s->ask, sq));
    if (s->joined)
        sb_puts(out, " joined");
}

/* ---- The rest of the ops ------------------------------------------------- */

static Geometry toy_geometry(const Game *g, const void *st)
{
    Geometry geo = {0, 0, 0}; /* TOY-2: unbounded */
    (void)g, (void)st;
    return geo;
}

static const char *toy_side_name(const Game *g, int side)
{
    (void)g;
    return side >= 0 && side < TOY_MAX_SIDES ? toy_side_names[side] : "?";
}

static int toy_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return ((const ToyState *)st)->turn;
}

static int toy_seat_of_side(const Game *g, const void *st, int side)
{
    (void)g;
    return ((const ToyState *)st)->commander[side];
}

static void toy_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    Action acts[TOY_MAX_ACTIONS];
    int n = toy_gen(g, st, seat, acts);
    for (int i = 0; i < n; i++)
        al_push(out, &acts[i]);
}

static void toy_format(const Game *g, const void *st, const Action *a,
                       int style, StrBuf *out)
{
    Geometry geo = {0, 0, 0};
    char sq[GEO_SQ_MAX];
    (void)g, (void)st, (void)style;
    if (a->kind == ACT_MOVE)
        sb_puts(out, geo_format_square(&geo, a->to, sq));
    else if (a->kind == ACT_CHOOSE)
        sb_puts(out, a->amount ? "odd" : "even");
    else if (a->kind == ACT_TAKEOVER)
        sb_printf(out, "take %s", toy_side_name(g, a->amount));
    else
        sb_puts(out, action_kind_name(a->kind));
}

static int toy_parse(const Game *g, const void *st, const ActionList *legal,
                     const char *text, Action *out, Error *e)
{
    const ToyState *s = st;
    Geometry geo = {0, 0, 0};
    Action want;
    memset(&want, 0, sizeof want);
    const char *p = text;
    if (str_ieq(text, "even") || str_ieq(text, "odd")) {
        want.kind = ACT_CHOOSE;
        want.amount = str_ieq(text, "odd");
    } else if (!strncmp(text, "take ", 5)) {
        p = text + 5;
        want.kind = ACT_TAKEOVER;
        want.amount = read_side_name(&p, s->nsides);
        if (want.amount < 0 || *p)
            return err_set(e, "%.40s: no such side to take over", text);
    } else if (geo_parse_square(&geo, &p, &want.to, NULL) == 0 && !*p) {
        want.kind = ACT_MOVE;
        want.from = s->token[s->turn];
    } else
        return err_set(e, "%.40s: expected a square like \"2,-1\", \"even\", "
                       "\"odd\" or \"take SIDE\"", text);
    for (int i = 0; i < legal->n; i++) {
        const Action *a = &legal->v[i];
        if (a->kind == want.kind && a->amount == want.amount &&
            coord_eq(a->to, want.to)) {
            *out = *a;
            return 0;
        }
    }
    if (want.kind == ACT_MOVE && !s->pending) {
        char sq[GEO_SQ_MAX];
        return err_set(e, "%.40s: %s's token on %s can only step to a "
                       "neighbouring square", text, toy_side_name(g, s->turn),
                       geo_format_square(&geo, want.from, sq));
    }
    if (want.kind == ACT_CHOOSE)
        return err_set(e, "%.40s: no guess is asked of you now", text);
    if (want.kind == ACT_TAKEOVER)
        return err_set(e, "%.40s: only the newcomer may take over, once, a "
                       "captured side", text);
    return err_set(e, "%.40s: a step is waiting for the judge's guess", text);
}

static uint64_t toy_hash(const Game *g, const void *st)
{
    const ToyState *s = st;
    uint64_t h = mix64(s->turn + 16u * s->pending + 256u * s->joined);
    (void)g;
    for (int i = 0; i < s->nsides; i++)
        h = mix64(h ^ ((uint64_t)(uint32_t)s->token[i].x << 32 |
                       (uint32_t)s->token[i].y)) + s->commander[i];
    if (s->pending)
        h = mix64(h ^ ((uint64_t)(uint32_t)s->ask.x << 32 | (uint32_t)s->ask.y));
    return h;
}

static void toy_status(const Game *g, const void *st, Status *out)
{
    memset(out, 0, sizeof *out);
    out->winners = toy_winners(g, st);
    if (out->winners) {
        out->over = 1;
        str_copy(out->reason, sizeof out->reason, "goal reached");
    } else if (game_repetitions(g) >= 3) {
        out->over = 1;
        str_copy(out->reason, sizeof out->reason, "threefold repetition");
    }
}

static int toy_claim(const Game *g, const void *st, char *why, size_t n)
{
    (void)st;
    if (game_repetitions(g) < 2)
        return 0;
    str_copy(why, n, "repetition");
    return 1;
}

static void toy_view(const Game *g, const void *st, int seat, View *v)
{
    const ToyState *s = st;
    Geometry geo = {0, 0, 0};
    char sq[GEO_SQ_MAX];
    StrBuf info = STRBUF_INIT;
    v->geo = geo;
    v->side_to_move = s->turn;
    v->npieces = s->nsides;
    for (int i = 0; i < s->nsides; i++) {
        v->pieces[i].at = s->token[i];
        v->pieces[i].side = (int8_t)i;
        v->pieces[i].figure = FIG_KING;
        sb_printf(&info, "%s: %s\n", toy_side_names[i],
                  game_seat_name(g, s->commander[i]));
    }
    if (s->pending) {
        v->has_last = 1;
        v->last_from = s->token[s->turn];
        v->last_to = s->ask;
        snprintf(v->last_text, sizeof v->last_text, "%s proposes %s",
                 toy_side_names[s->turn], geo_format_square(&geo, s->ask, sq));
    }
    if (seat == v->seat_to_act)
        snprintf(v->question, sizeof v->question, s->pending
                 ? "Is %s's secret even or odd?" : "Where does %s step?",
                 toy_side_names[s->turn]);
    /* TOY-3: only the secrets this seat may know are copied in. */
    for (int i = 0; i < s->nsides; i++)
        if (s->commander[i] == seat || v->status.over)
            sb_printf(&info, "secret of %s: %d\n", toy_side_names[i],
                      (int)s->secret[i]);
    str_copy(v->info, sizeof v->info, sb_str(&info));
    sb_free(&info);
    if (v->status.over) {
        StrBuf pos = STRBUF_INIT;
        toy_write_position(g, s, &pos);
        str_copy(v->position, sizeof v->position, sb_str(&pos));
        sb_free(&pos);
    }
}

const VariantOps toy_variant = {
    .version = 1,
    .name = "toy",
    .title = "Toy (test-only)",
    .summary = "three tokens on the plane, secrets and guesses",
    .params = toy_params,
    .nparams = (int)ARRAY_LEN(toy_params),
    .min_sides = 2,
    .max_sides = 3,
    .default_sides = 3,
    .state_size = sizeof(ToyState),
    .init = toy_init,
    .write_position = toy_write_position,
    .geometry = toy_geometry,
    .side_name = toy_side_name,
    .to_act = toy_to_act,
    .side_to_move = toy_side_to_move,
    .seat_of_side = toy_seat_of_side,
    .legal = toy_legal,
    .apply = toy_apply,
    .parse = toy_parse,
    .format = toy_format,
    .hash = toy_hash,
    .status = toy_status,
    .claim = toy_claim,
    .view = toy_view,
};

int32_t toy_secret(const Game *g, int side)
{
    return ((const ToyState *)game_state(g))->secret[side];
}

int toy_commander(const Game *g, int side)
{
    return ((const ToyState *)game_state(g))->commander[side];
}

Coord toy_token(const Game *g, int side)
{
    return ((const ToyState *)game_state(g))->token[side];
}

/* TOY-5: a guess names the parity of the mover's secret; a right one
 * cancels the step. */
const char *toy_right_guess(const Game *g)
{
    return toy_secret(g, game_side_to_move(g)) & 1 ? "odd" : "even";
}

const char *toy_wrong_guess(const Game *g)
{
    return toy_secret(g, game_side_to_move(g)) & 1 ? "even" : "odd";
}

/* ======================================================================== */
/*
 * "toyboard", the toy's board mode (issue 24): what a rule set from parts
 * shows the faces, without the fairy engine: a large square board,
 * lettered pieces and pieces in hand.  Its rules:
 *
 * TOYB-1 Sides and board.  White and black, one seat each, on a size x
 *        size board (parameter, 5 to 16, default 10): files a.., ranks 1..
 * TOYB-2 Start.  White: King on the middle file of rank 1, an A (a
 *        lettered piece) on a1, a pawn on b2; in hand two Knights and a
 *        Z.  Black, mirrored through the centre: King on the middle file of
 *        the last rank, an A in the top right corner, a pawn beside the
 *        corner one rank down; in hand a Queen.  White moves first.
 * TOYB-3 A move.  Any piece steps to one of its eight neighbours, empty or
 *        holding an enemy piece ("e1e2").  A captured piece goes to the
 *        capturer's hand as its figure.
 * TOYB-4 A drop.  A piece of the mover's hand goes on any empty square
 *        ("N@e5"; ACT_PLACE with the figure and the square).
 * TOYB-5 End.  The side that captures the enemy King wins.
 *
 * Position string (written, not read): the board's ranks from the top as
 * in FEN (runs of empty squares as decimal numbers), the side to move,
 * then the hands in brackets ("[NNZq]").
 */
#define TOYB_MAX 16
#define TOYB_SQ (TOYB_MAX * TOYB_MAX)

typedef struct ToyBoardState {
    uint8_t fig[TOYB_SQ];  /* Figure, FIG_NONE for an empty square */
    uint8_t side[TOYB_SQ]; /* owner of a piece */
    uint8_t hand[2][FIG_MAX];
    uint8_t size, turn;
    int8_t winner; /* TOYB-5: -1 while both Kings stand */
} ToyBoardState;

static const ParamDef toyb_params[] = {
    {.name = "size", .type = PARAM_INT, .def = 10, .min = 5, .max = TOYB_MAX,
     .rule = "TOYB-1", .doc = "files and ranks of the board"},
};

/* The figures in the order hands list them. */
static const int toyb_order[] = {FIG_KING,  FIG_QUEEN, FIG_ROOK, FIG_BISHOP, FIG_KNIGHT,
                                 FIG_PAWN,  FIG_LETTERED('A'), FIG_LETTERED('Z')};

static int toyb_at(const ToyBoardState *s, Coord c)
{
    return c.y * s->size + c.x;
}

static Geometry toyb_geo(const ToyBoardState *s)
{
    Geometry geo = {1, s->size, s->size};
    return geo;
}

static void toyb_put(ToyBoardState *s, int x, int y, int side, int fig)
{
    int i = toyb_at(s, coord_make(x, y));
    s->fig[i] = (uint8_t)fig;
    s->side[i] = (uint8_t)side;
}

static int toyb_init(Game *g, void *st, const char *position, Error *e)
{
    ToyBoardState *s = st;
    memset(s, 0, sizeof *s);
    if (position)
        return err_set(e, "toyboard: no position strings (it always starts as TOYB-2 says)");
    int n = game_param(g, 0), mid = n / 2;
    s->size = (uint8_t)n;
    s->winner = -1;
    toyb_put(s, mid, 0, 0, FIG_KING);
    toyb_put(s, 0, 0, 0, FIG_LETTERED('A'));
    toyb_put(s, 1, 1, 0, FIG_PAWN);
    toyb_put(s, n - 1 - mid, n - 1, 1, FIG_KING);
    toyb_put(s, n - 1, n - 1, 1, FIG_LETTERED('A'));
    toyb_put(s, n - 2, n - 2, 1, FIG_PAWN);
    s->hand[0][FIG_KNIGHT] = 2;
    s->hand[0][FIG_LETTERED('Z')] = 1;
    s->hand[1][FIG_QUEEN] = 1;
    return 0;
}

static void toyb_legal(const Game *g, const void *st, int seat, ActionList *out)
{
    const ToyBoardState *s = st;
    (void)g;
    if (s->winner >= 0 || seat != s->turn)
        return;
    Action a;
    memset(&a, 0, sizeof a);
    a.seat = (uint8_t)seat;
    for (int y = 0; y < s->size; y++)
        for (int x = 0; x < s->size; x++) {
            int i = y * s->size + x;
            if (!s->fig[i] || s->side[i] != s->turn)
                continue;
            a.kind = ACT_MOVE;
            a.from = coord_make(x, y);
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    a.to = coord_make(x + dx, y + dy);
                    if ((dx || dy) && a.to.x >= 0 && a.to.y >= 0 && a.to.x < s->size &&
                        a.to.y < s->size &&
                        !(s->fig[toyb_at(s, a.to)] && s->side[toyb_at(s, a.to)] == s->turn))
                        al_push(out, &a);
                }
        }
    a.kind = ACT_PLACE;
    a.from = coord_make(-1, -1);
    for (size_t k = 0; k < ARRAY_LEN(toyb_order); k++) {
        if (!s->hand[s->turn][toyb_order[k]])
            continue;
        a.figure = (uint8_t)toyb_order[k];
        for (int i = 0; i < s->size * s->size; i++)
            if (!s->fig[i]) {
                a.to = coord_make(i % s->size, i / s->size);
                al_push(out, &a);
            }
    }
}

static void toyb_format(const Game *g, const void *st, const Action *a, int style,
                        StrBuf *out)
{
    Geometry geo = toyb_geo(st);
    char f[GEO_SQ_MAX], t[GEO_SQ_MAX];
    (void)g, (void)style;
    if (a->kind == ACT_MOVE)
        sb_printf(out, "%s%s", geo_format_square(&geo, a->from, f),
                  geo_format_square(&geo, a->to, t));
    else if (a->kind == ACT_PLACE)
        sb_printf(out, "%c@%s", figure_letter(a->figure), geo_format_square(&geo, a->to, t));
    else
        sb_puts(out, action_kind_name(a->kind));
}

static int toyb_parse(const Game *g, const void *st, const ActionList *legal,
                      const char *text, Action *out, Error *e)
{
    StrBuf t = STRBUF_INIT;
    for (int i = 0; i < legal->n; i++) {
        sb_reset(&t);
        toyb_format(g, st, &legal->v[i], FMT_MACHINE, &t);
        if (str_ieq(sb_str(&t), text)) {
            *out = legal->v[i];
            sb_free(&t);
            return 0;
        }
    }
    sb_free(&t);
    return err_set(e, "%.40s: not a legal step (\"e1e2\") or drop (\"N@e5\") now", text);
}

static int toyb_apply(const Game *g, void *st, const Action *a, Events *ev)
{
    ToyBoardState *s = st;
    ActionList l = ACTIONLIST_INIT;
    toyb_legal(g, s, a->seat, &l);
    int ok = 0;
    for (int i = 0; i < l.n && !ok; i++)
        ok = action_eq(&l.v[i], a);
    al_free(&l);
    if (!ok)
        return -1;
    StrBuf t = STRBUF_INIT;
    toyb_format(g, s, a, FMT_RECORD, &t);
    ev_emit(ev, SEATS_ALL, "%s plays %s", s->turn ? "black" : "white", sb_str(&t));
    sb_free(&t);
    int to = toyb_at(s, a->to);
    if (a->kind == ACT_PLACE) {
        s->hand[s->turn][a->figure]--;
        s->fig[to] = a->figure;
    } else {
        int from = toyb_at(s, a->from);
        if (s->fig[to] == FIG_KING)
            s->winner = (int8_t)s->turn;
        else if (s->fig[to] && s->hand[s->turn][s->fig[to]] < 255)
            s->hand[s->turn][s->fig[to]]++; /* TOYB-3 */
        s->fig[to] = s->fig[from];
        s->fig[from] = FIG_NONE;
    }
    s->side[to] = s->turn;
    s->turn ^= 1;
    return 0;
}

static void toyb_write_position(const Game *g, const void *st, StrBuf *out)
{
    const ToyBoardState *s = st;
    (void)g;
    for (int y = s->size - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < s->size; x++) {
            int i = y * s->size + x;
            if (!s->fig[i]) {
                run++;
                continue;
            }
            if (run)
                sb_printf(out, "%d", run);
            run = 0;
            char c = figure_letter(s->fig[i]);
            sb_putc(out, s->side[i] ? (char)(c - 'A' + 'a') : c);
        }
        if (run)
            sb_printf(out, "%d", run);
        if (y)
            sb_putc(out, '/');
    }
    sb_printf(out, " %c [", s->turn ? 'b' : 'w');
    for (int side = 0; side < 2; side++)
        for (size_t k = 0; k < ARRAY_LEN(toyb_order); k++)
            for (int c = 0; c < s->hand[side][toyb_order[k]]; c++) {
                char l = figure_letter(toyb_order[k]);
                sb_putc(out, side ? (char)(l - 'A' + 'a') : l);
            }
    sb_putc(out, ']');
}

static Geometry toyb_geometry(const Game *g, const void *st)
{
    (void)g;
    return toyb_geo(st);
}

static const char *toyb_side_name(const Game *g, int side)
{
    (void)g;
    return side == 0 ? "white" : side == 1 ? "black" : "?";
}

static int toyb_to_act(const Game *g, const void *st)
{
    const ToyBoardState *s = st;
    (void)g;
    return s->winner >= 0 ? -1 : s->turn;
}

static int toyb_side_to_move(const Game *g, const void *st)
{
    (void)g;
    return ((const ToyBoardState *)st)->turn;
}

static int toyb_seat_of_side(const Game *g, const void *st, int side)
{
    (void)g, (void)st;
    return side;
}

static uint64_t toyb_hash(const Game *g, const void *st)
{
    const ToyBoardState *s = st;
    uint64_t h = mix64(s->turn + 2u * (uint64_t)(s->winner + 1));
    (void)g;
    for (int i = 0; i < s->size * s->size; i++)
        h = mix64(h ^ ((uint64_t)i << 16 | (uint64_t)s->fig[i] << 8 | s->side[i]));
    for (int side = 0; side < 2; side++)
        for (int f = 0; f < FIG_MAX; f++)
            h = mix64(h ^ ((uint64_t)side << 40 | (uint64_t)f << 8 | s->hand[side][f]));
    return h;
}

static void toyb_status(const Game *g, const void *st, Status *out)
{
    const ToyBoardState *s = st;
    (void)g;
    memset(out, 0, sizeof *out);
    if (s->winner >= 0) {
        out->over = 1;
        out->winners = 1u << s->winner;
        str_copy(out->reason, sizeof out->reason, "King captured");
    }
}

static void toyb_view(const Game *g, const void *st, int seat, View *v)
{
    const ToyBoardState *s = st;
    (void)g, (void)seat;
    v->geo = toyb_geo(s);
    v->side_to_move = s->turn;
    for (int i = 0; i < s->size * s->size; i++) {
        if (!s->fig[i])
            continue;
        ViewPiece *p = &v->pieces[v->npieces++];
        p->at = coord_make(i % s->size, i / s->size);
        p->side = (int8_t)s->side[i];
        p->figure = s->fig[i];
    }
    for (int side = 0; side < 2; side++)
        for (size_t k = 0; k < ARRAY_LEN(toyb_order); k++)
            if (s->hand[side][toyb_order[k]] && v->nhand < MAX_VIEW_HAND) {
                ViewHand *h = &v->hand[v->nhand++];
                h->side = (int8_t)side;
                h->figure = (uint8_t)toyb_order[k];
                h->count = s->hand[side][toyb_order[k]];
            }
    if (!v->status.over)
        snprintf(v->question, sizeof v->question, "%s to move", s->turn ? "black" : "white");
}

const VariantOps toy_board_variant = {
    .version = 1,
    .name = "toyboard",
    .title = "Toy board (test-only)",
    .summary = "a large board, lettered pieces and pieces in hand",
    .params = toyb_params,
    .nparams = (int)ARRAY_LEN(toyb_params),
    .min_sides = 2,
    .max_sides = 2,
    .default_sides = 2,
    .state_size = sizeof(ToyBoardState),
    .init = toyb_init,
    .write_position = toyb_write_position,
    .geometry = toyb_geometry,
    .side_name = toyb_side_name,
    .to_act = toyb_to_act,
    .side_to_move = toyb_side_to_move,
    .seat_of_side = toyb_seat_of_side,
    .legal = toyb_legal,
    .apply = toyb_apply,
    .parse = toyb_parse,
    .format = toyb_format,
    .hash = toyb_hash,
    .status = toyb_status,
    .view = toyb_view,
};
