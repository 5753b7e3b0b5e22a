/*
 * bot.c -- machine players: the random and greedy levels (core/bot.h).
 *
 * Invariant: bot_choose reads only its BotInput.  The greedy level's
 * model game is rebuilt from the View's position string, which a variant
 * fills only when the seat may know the whole position, so a model never
 * holds more than the seat knows.
 */
#include "bot.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const LEVEL_NAMES[BOT__COUNT] = {"random", "greedy", "search"};

int bot_level_parse(const char *name, int *level, Error *e)
{
    for (int i = 0; i < BOT__COUNT; i++)
        if (str_ieq(name, LEVEL_NAMES[i])) {
            *level = i;
            return 0;
        }
    char q[48];
    return err_set(e, "no bot level '%s' (levels: random, greedy, search)",
                   str_clip(q, sizeof q, name));
}

const char *bot_level_name(int level)
{
    return level >= 0 && level < BOT__COUNT ? LEVEL_NAMES[level] : "?";
}

/* ---- The input ---------------------------------------------------------- */

int bot_input(const Game *g, int seat, BotInput *in, Error *e)
{
    memset(in, 0, sizeof *in);
    in->v = game_variant(g);
    in->params = *game_params(g);
    if (!game_hidden_info(g))
        in->hooks = game_hooks(g);
    in->nsides = game_nsides(g);
    in->nseats = game_nseats(g);
    in->seat = seat;
    in->sides = game_seat_sides(g, seat);
    in->legal = (ActionList)ACTIONLIST_INIT;
    in->view = cv_calloc(sizeof *in->view);
    if (!in->view || game_view(g, seat, in->view))
        goto oom;
    game_legal(g, seat, &in->legal);
    if (in->legal.failed)
        goto oom;
    int n = game_message_count(g);
    in->msgs = cv_calloc(sizeof *in->msgs * (size_t)(n > 0 ? n : 1));
    if (!in->msgs)
        goto oom;
    for (int i = 0; i < n; i++) {
        const char *m = game_message(g, i, seat);
        if (m && !(in->msgs[in->nmsgs++] = cv_strdup(m)))
            goto oom;
    }
    return 0;
oom:
    bot_input_free(in);
    return err_set(e, "out of memory");
}

void bot_input_free(BotInput *in)
{
    for (int i = 0; i < in->nmsgs; i++)
        free(in->msgs[i]);
    free(in->msgs);
    free(in->view);
    al_free(&in->legal);
    memset(in, 0, sizeof *in);
}

/* ---- Levels ------------------------------------------------------------- */

/* Indices of the play actions of in->legal, or of its meta actions when
 * there is no play action (resign, a draw to answer); how many. */
static int candidates(const BotInput *in, int *idx)
{
    int n = 0;
    for (int i = 0; i < in->legal.n; i++)
        if (!action_is_meta(in->legal.v[i].kind))
            idx[n++] = i;
    for (int i = 0; n == 0 && i < in->legal.n; i++)
        if (in->legal.v[i].kind != ACT_RESIGN && in->legal.v[i].kind != ACT_DRAW_OFFER)
            idx[n++] = i;
    for (int i = 0; n == 0 && i < in->legal.n; i++)
        idx[n++] = i;
    return n;
}

static int value_of(const BotInput *in, int fig)
{
    if (fig > FIG_NONE && fig < FIG_HIDDEN)
        return in->params.values[fig];
    /* unknown: the average of a full army's non-King pieces */
    const int *v = in->params.values;
    return (8 * v[FIG_PAWN] + 2 * v[FIG_KNIGHT] + 2 * v[FIG_BISHOP] + 2 * v[FIG_ROOK] +
            v[FIG_QUEEN]) / 15;
}

/* A positional bonus in hundredths of a pawn for a piece on an 8x8
 * board (the board variants): knights and bishops toward the centre,
 * pawns forward (white's pawns go up the files, black's down).  0 on
 * other boards and for figures the seat does not know. */
static long placement(const View *v, const ViewPiece *p)
{
    if (!v->geo.bounded || v->geo.width != 8 || v->geo.height != 8 || p->at.x < 0 ||
        p->at.x > 7 || p->at.y < 0 || p->at.y > 7)
        return 0;
    int dx = p->at.x < 4 ? 3 - p->at.x : p->at.x - 4;  /* 0 in the centre, 3 at an edge */
    int dy = p->at.y < 4 ? 3 - p->at.y : p->at.y - 4;
    switch (p->figure) {
    case FIG_KNIGHT: return 30 - 10 * (dx + dy);
    case FIG_BISHOP: return 15 - 5 * (dx + dy);
    case FIG_QUEEN: return 6 - 2 * (dx + dy);
    case FIG_PAWN: return 6 * (p->side == 0 ? p->at.y - 1 : 6 - p->at.y) + (dx == 0 ? 10 : 0);
    default: return 0;
    }
}

/* Material (in hundredths of the value table's unit) and placement of the
 * seat's sides less the others', as a View shows it. */
static long balance(const BotInput *in, const View *v)
{
    long sum = 0;
    for (int i = 0; i < v->npieces; i++) {
        const ViewPiece *p = &v->pieces[i];
        if (p->side < 0 || p->figure == FIG_KING)
            continue;
        long val = 100L * value_of(in, p->figure) + placement(v, p);
        sum += (in->sides >> p->side) & 1u ? val : -val;
    }
    return sum;
}

#define WIN_SCORE 1000000L

/* The model of the position the seat sees, or NULL (hidden facts). */
static Game *model_game(const BotInput *in)
{
    if (!in->view->position[0])
        return NULL;
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = in->v;
    cfg.nsides = in->nsides;
    cfg.nseats = in->nseats;
    cfg.position = in->view->position;
    cfg.params = in->params;
    cfg.params_set = 1;
    Error e;
    return game_new_hooked(&cfg, &in->hooks, &e);
}

/* The score of action a for the seat on the model m: a win, a loss, or
 * the material balance after it. */
static long score_on_model(const BotInput *in, const Game *m, const Action *a, View *scratch)
{
    Game *c = game_clone(m);
    Error e;
    long score = 0;
    if (c && game_apply(c, a, &e) == 0) {
        Status s;
        game_status(c, &s);
        if (s.over && (s.winners & in->sides))
            score = WIN_SCORE;
        else if (s.over && s.winners)
            score = -WIN_SCORE;
        else if (game_view(c, in->seat, scratch) == 0)
            score = balance(in, scratch);
    }
    game_free(c);
    return score;
}

/* Without a model: what taking the piece on the target square gains, as
 * the View shows it. */
static long score_on_view(const BotInput *in, const Action *a)
{
    if (a->kind != ACT_MOVE)
        return 0;
    const View *v = in->view;
    for (int i = 0; i < v->npieces; i++) {
        const ViewPiece *p = &v->pieces[i];
        if (coord_eq(p->at, a->to) && p->side >= 0 && !((in->sides >> p->side) & 1u))
            return value_of(in, p->figure);
    }
    return 0;
}

static int choose_greedy(const BotInput *in, const int *idx, int n, Rng *rng)
{
    Game *m = model_game(in);
    View *scratch = m ? cv_calloc(sizeof *scratch) : NULL;
    long best = 0;
    int nbest = 0, pick = idx[0];
    for (int k = 0; k < n; k++) {
        const Action *a = &in->legal.v[idx[k]];
        long s = m && scratch ? score_on_model(in, m, a, scratch) : score_on_view(in, a);
        if (nbest == 0 || s > best) {
            best = s;
            nbest = 1;
            pick = idx[k];
        } else if (s == best && rng_below(rng, (uint32_t)++nbest) == 0) {
            pick = idx[k]; /* each of the best equally likely */
        }
    }
    free(scratch);
    game_free(m);
    return pick;
}

/* ---- Search ------------------------------------------------------------ */

typedef struct Search {
    const BotInput *in;
    long nodes, budget;
    int out_of_nodes;
    View *scratch;
    double deadline;       /* seconds on the monotonic clock, 0: none */
} Search;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The value of model game m for the seat: a win (sooner is better), a
 * loss, a draw, or the material balance; *over when the game ended. */
static long evaluate(Search *S, const Game *m, int ply, int *over)
{
    Status s;
    game_status(m, &s);
    *over = s.over;
    if (s.over)
        return (s.winners & S->in->sides) ? WIN_SCORE - ply
             : s.winners ? -WIN_SCORE + ply : 0;
    return game_view(m, S->in->seat, S->scratch) == 0 ? balance(S->in, S->scratch) : 0;
}

/* Paranoid alpha-beta: the seat's sides maximise, the others minimise. */
static long alphabeta(Search *S, const Game *m, int depth, int ply, long alpha, long beta)
{
    int over;
    S->nodes++;
    long here = evaluate(S, m, ply, &over);
    if (over || depth == 0)
        return here;
    if ((S->budget && S->nodes >= S->budget) ||
        (S->deadline > 0 && (S->nodes & 255) == 0 && seconds_now() > S->deadline)) {
        S->out_of_nodes = 1;
        return here;
    }
    int mine = (game_seat_sides(m, game_to_act(m)) & S->in->sides) != 0;
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(m, &l);
    long best = mine ? -2 * WIN_SCORE : 2 * WIN_SCORE;
    int tried = 0;
    for (int i = 0; i < l.n && !S->out_of_nodes && alpha < beta; i++) {
        Game *c = game_clone(m);
        Error e;
        if (c && game_apply(c, &l.v[i], &e) == 0) {
            long v = alphabeta(S, c, depth - 1, ply + 1, alpha, beta);
            tried++;
            if (mine ? v > best : v < best)
                best = v;
            if (mine && best > alpha)
                alpha = best;
            if (!mine && best < beta)
                beta = best;
        }
        game_free(c);
    }
    al_free(&l);
    return tried ? best : here;
}

/* The search level: the best candidate (indices into in->legal) at the
 * deepest iteration finished within the budget; -1 with e without a
 * model. */
static int choose_search(const BotInput *in, const int *idx, int n, const BotLimits *lim,
                         Rng *rng, Error *e)
{
    Game *m = model_game(in);
    if (!m)
        return err_set(e, "the search bot needs a position its seat sees whole, and in %s "
                          "it does not (use random or greedy)", in->v->name);
    Search S = {in, 0, BOT_SEARCH_NODES, 0, cv_calloc(sizeof(View)), 0};
    int max_depth = 32;
    if (lim && (lim->nodes > 0 || lim->ms > 0))
        S.budget = lim->nodes > 0 ? lim->nodes : 0;
    if (lim && lim->ms > 0)
        S.deadline = seconds_now() + (double)lim->ms / 1000.0;
    if (lim && lim->depth > 0)
        max_depth = lim->depth < 32 ? lim->depth : 32;
    long *score = cv_calloc(sizeof *score * (size_t)n);
    long *last = cv_calloc(sizeof *last * (size_t)n);
    int pick = idx[0];
    int *order = cv_calloc(sizeof *order * (size_t)n);
    if (S.scratch && score && last && order) {
        for (int k = 0; k < n; k++)
            order[k] = k;
        for (int depth = 0; depth < max_depth && !S.out_of_nodes; depth++) {
            /* the best of the last iteration first; the others searched
             * with alpha just below the best so far: a worse one stops
             * early (its score is then only an upper bound, below the
             * best), one as good gets its exact score (ties stay ties) */
            long best = -2 * WIN_SCORE;
            for (int j = 0; j < n && !S.out_of_nodes; j++) {
                int k = order[j];
                Game *c = game_clone(m);
                Error ae;
                score[k] = !c || game_apply(c, &in->legal.v[idx[k]], &ae)
                               ? -2 * WIN_SCORE
                               : alphabeta(&S, c, depth, 1, best - 1, 2 * WIN_SCORE);
                if (score[k] > best)
                    best = score[k];
                game_free(c);
            }
            if (!S.out_of_nodes || depth == 0) { /* a finished iteration */
                memcpy(last, score, sizeof *last * (size_t)n);
                for (int a = 1; a < n; a++) /* stable: by score, then as before */
                    for (int b = a; b > 0 && last[order[b]] > last[order[b - 1]]; b--) {
                        int t = order[b];
                        order[b] = order[b - 1];
                        order[b - 1] = t;
                    }
            }
        }
        long best = 0;
        int nbest = 0;
        for (int k = 0; k < n; k++) {
            if (nbest == 0 || last[k] > best) {
                best = last[k];
                nbest = 1;
                pick = idx[k];
            } else if (last[k] == best && rng_below(rng, (uint32_t)++nbest) == 0) {
                pick = idx[k];
            }
        }
    }
    free(score);
    free(last);
    free(order);
    free(S.scratch);
    game_free(m);
    return pick;
}

int bot_choose(const BotInput *in, int level, Rng *rng, Action *out, Error *e)
{
    return bot_choose_limited(in, level, NULL, rng, out, e);
}

int bot_choose_limited(const BotInput *in, int level, const BotLimits *lim, Rng *rng,
                       Action *out, Error *e)
{
    int *idx = cv_calloc(sizeof *idx * (size_t)(in->legal.n > 0 ? in->legal.n : 1));
    if (!idx)
        return err_set(e, "out of memory");
    int n = candidates(in, idx), pick = -1;
    if (n > 0 && level == BOT_SEARCH && !action_is_meta(in->legal.v[idx[0]].kind)) {
        pick = choose_search(in, idx, n, lim, rng, e);
        if (pick < 0) {
            free(idx);
            return -1;
        }
    } else if (n > 0) {
        pick = level == BOT_RANDOM ? idx[rng_below(rng, (uint32_t)n)]
                                   : choose_greedy(in, idx, n, rng);
    }
    free(idx);
    if (pick < 0)
        return err_set(e, "the %s bot has nothing to do: no action is open to this seat",
                       bot_level_name(level));
    *out = in->legal.v[pick];
    return 0;
}

int bot_play(Game *g, int seat, int level, Rng *rng, Action *chosen, Error *e)
{
    BotInput in;
    if (bot_input(g, seat, &in, e))
        return -1;
    Action a;
    int rc = bot_choose(&in, level, rng, &a, e);
    bot_input_free(&in);
    if (rc == 0)
        rc = game_apply(g, &a, e);
    if (rc == 0 && chosen)
        *chosen = a;
    return rc;
}
