/*
 * bot.c -- machine players: the random, greedy and search levels
 * (core/lab/bot.h).
 *
 * Invariant: bot_choose reads only its BotInput.  A model game is built
 * from the View's position string, which a variant fills only when the
 * seat may know the whole position, or from a sample of BotInput.known,
 * which the variant writes from what the seat knows and completes from
 * that text alone; so a model never holds more than the seat knows, and
 * everything drawn for it comes from the bot's own generator.
 */
#include "bot.h"

#include <stdio.h>
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
    str_copy(in->seat_name, sizeof in->seat_name, game_seat_name(g, seat));
    in->sides = game_seat_sides(g, seat);
    in->legal = (ActionList)ACTIONLIST_INIT;
    in->view = cv_calloc(sizeof *in->view);
    if (!in->view || game_view(g, seat, in->view))
        goto oom;
    if (game_legal(g, seat, &in->legal)) { /* a house rule's hook failed */
        bot_input_free(in);
        return err_set(e, "%s", game_hook_error(g));
    }
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
    if (game_hidden_info(g)) {
        StrBuf b = STRBUF_INIT;
        if (game_known(g, seat, &b)) {
            in->known = b.failed ? NULL : cv_strdup(sb_str(&b));
            if (!in->known) {
                sb_free(&b);
                goto oom;
            }
        }
        sb_free(&b);
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
    free(in->known);
    free(in->view);
    al_free(&in->legal);
    memset(in, 0, sizeof *in);
}

/* ---- Levels ------------------------------------------------------------- */

/* Indices of the play actions of in->legal, or of its meta actions when
 * there is no play action (a draw to answer; resign only for the seat to
 * act); how many. */
static int candidates(const BotInput *in, int *idx)
{
    int n = 0;
    for (int i = 0; i < in->legal.n; i++)
        if (!action_is_meta(in->legal.v[i].kind))
            idx[n++] = i;
    for (int i = 0; n == 0 && i < in->legal.n; i++)
        if (in->legal.v[i].kind != ACT_RESIGN && in->legal.v[i].kind != ACT_DRAW_OFFER)
            idx[n++] = i;
    /* Resigning (or offering a draw) is the last resort of the seat that
     * must decide; a seat asked out of turn with nothing else has nothing
     * to do. */
    for (int i = 0; n == 0 && in->view->seat_to_act == in->seat && i < in->legal.n; i++)
        idx[n++] = i;
    return n;
}

/* The value table's entry for fig: the orthodox six, and a rule set's
 * lettered pieces (issue 24: their values reach Params.values through the
 * Lua layer).  A hidden figure, or a lettered one its rule set gives no
 * value, is unknown: the average of a full army's non-King pieces. */
static int value_of(const BotInput *in, int fig)
{
    if (fig > FIG_NONE && fig < FIG_HIDDEN)
        return in->params.values[fig];
    if (figure_is_lettered(fig) && in->params.values[fig] > 0)
        return in->params.values[fig];
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
    /* pieces in hand (issue 24, crazyhouse) count as on the board: a
     * capture gains the piece twice, a drop is no gain by itself */
    for (int i = 0; i < v->nhand; i++) {
        const ViewHand *h = &v->hand[i];
        if (h->side < 0 || h->figure == FIG_KING)
            continue;
        long val = 100L * value_of(in, h->figure) * h->count;
        sum += (in->sides >> h->side) & 1u ? val : -val;
    }
    return sum;
}

#define WIN_SCORE 1000000L
/* Quiescence: its most plies, and the most options of a decision that
 * is not a move (a battle's answer) it resolves. */
#define QUIESCE_PLIES 8
#define QUIESCE_WIDTH 8

/* A model game of `position`, with the input's rules, or NULL. */
static Game *model_game(const BotInput *in, const char *position)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = in->v;
    cfg.nsides = in->nsides;
    cfg.nseats = in->nseats;
    cfg.position = position;
    cfg.params = in->params;
    cfg.params_set = 1;
    /* a schedule's turn under way (issue 25): the position string does
     * not say how many moves of the turn remain, the View does (public) */
    const View *v = in->view;
    GameTurn turn = {v->side_to_move, v->turn_number, v->turn_made, v->turn_moves,
                     v->turn_duck};
    if (v->turn_moves > 0)
        cfg.turn = &turn;
    Error e;
    return game_new_hooked(&cfg, &in->hooks, &e);
}

/* Did the call on m that just failed meet a house rule's hook that
 * failed?  Then its error goes to e (once) and *failed is set. */
static int hook_failed(const Game *m, int *failed, Error *e)
{
    const char *msg = game_hook_error(m);
    if (msg && !*failed)
        err_set(e, "%s", msg);
    *failed |= msg != NULL;
    return msg != NULL;
}

/* The score of action a for the seat on the model m: a win, a loss, or
 * the material balance after it (*failed and e when a hook failed). */
static long score_on_model(const BotInput *in, Game *m, const Action *a, View *scratch,
                           int *failed, Error *err)
{
    /* pushed and popped, or on a copy when a house rule's reaction needs
     * the whole path (King of the Hill's win is a reaction) */
    int pushed = game_pushable(m);
    Game *c = pushed ? m : game_clone(m);
    Error e;
    long score = 0;
    if (c && (pushed ? game_push(c, a) : game_apply(c, a, &e)) == 0) {
        Status s;
        int to_act = game_status_to_act(c, &s);
        if (s.over && (s.winners & in->sides))
            score = WIN_SCORE;
        else if (s.over && s.winners)
            score = -WIN_SCORE;
        else if (game_view_brief(c, in->seat, &s, to_act, scratch) == 0)
            score = balance(in, scratch);
        if (pushed)
            game_pop(c);
    } else if (c) {
        hook_failed(c, failed, err);
    }
    if (!pushed)
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

/* The greedy choice (an index into in->legal), or -1 with e when a house
 * rule's hook failed. */
static int choose_greedy(const BotInput *in, const int *idx, int n, Rng *rng, Error *e)
{
    Game *m = in->view->position[0] ? model_game(in, in->view->position) : NULL;
    View *scratch = m ? cv_calloc(sizeof *scratch) : NULL;
    long best = 0;
    int nbest = 0, pick = idx[0], failed = 0;
    for (int k = 0; k < n && !failed; k++) {
        const Action *a = &in->legal.v[idx[k]];
        long s = m && scratch ? score_on_model(in, m, a, scratch, &failed, e)
                              : score_on_view(in, a);
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
    return failed ? -1 : pick;
}

/* ---- Search ------------------------------------------------------------ */

typedef struct Search {
    const BotInput *in;
    long nodes, budget;
    int out_of_nodes;
    View *scratch;
    double deadline;       /* seconds on the monotonic clock, 0: none */
    const BotWatch *watch; /* NULL: none */
    int failed;            /* a house rule's hook failed: the search stops */
    Error *e;              /* ... and this says how */
} Search;

/* Stop the search when the call on m that just failed met a failing hook. */
static int search_failed(Search *S, const Game *m)
{
    if (hook_failed(m, &S->failed, S->e))
        S->out_of_nodes = 1;
    return S->failed;
}

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The value of model game m for the seat: a win (sooner is better), a
 * loss, a draw, or the material balance; *to_act, the seat to act (-1
 * once the game is over). */
static long evaluate(Search *S, const Game *m, int ply, int *to_act)
{
    Status s;
    *to_act = game_status_to_act(m, &s);
    if (s.over)
        return (s.winners & S->in->sides) ? WIN_SCORE - ply
             : s.winners ? -WIN_SCORE + ply : 0;
    return game_view_brief(m, S->in->seat, &s, *to_act, S->scratch) == 0
               ? balance(S->in, S->scratch)
               : 0;
}

static long alphabeta(Search *S, Game *m, int depth, int ply, long alpha, long beta);
static long quiesce(Search *S, Game *m, int ply, int qply, long alpha, long beta);

/* Play a on m and search the position after it (alphabeta, or quiesce
 * when qply >= 0): pushed and popped (game_push_vetted: a house rule's
 * veto is asked of the actions the search tries, not of every action a
 * node lists; its reaction runs in the push).  0 and *v, or -1 when a
 * could not be played (forbidden, refused). */
static int child(Search *S, Game *m, const Action *a, int depth, int qply, int ply,
                 long alpha, long beta, long *v)
{
    Game *c = NULL;
    if (game_pushable(m)) {
        if (game_push_vetted(m, a)) {
            search_failed(S, m); /* a reaction's failure, or a refusal */
            return -1;
        }
    } else {
        Error e;
        c = game_clone(m);
        if (!c || game_apply(c, a, &e)) {
            if (c)
                search_failed(S, c);
            game_free(c);
            return -1;
        }
    }
    Game *at = c ? c : m;
    *v = qply >= 0 ? quiesce(S, at, ply, qply, alpha, beta)
                   : alphabeta(S, at, depth, ply, alpha, beta);
    if (c)
        game_free(c);
    else
        game_pop(m);
    return 0;
}

/* Does a move a piece onto a square (or put one there)?  A reveal that
 * stays in place, a bid, an answer are decisions of another kind. */
static int move_like(const Action *a)
{
    return a->kind == ACT_MOVE || a->kind == ACT_PLACE ||
           (a->kind == ACT_REVEAL && !coord_eq(a->from, a->to));
}

static int on_map(Coord c)
{
    return c.x >= 0 && c.x < 16 && c.y >= 0 && c.y < 16;
}

/* The piece of v on square c, or NULL: from map (the index of the piece
 * on each square of a board of at most 16x16) when there is one. */
static const ViewPiece *piece_at(const View *v, const int16_t *map, Coord c)
{
    if (map)
        return on_map(c) && map[c.y * 16 + c.x] >= 0 ? &v->pieces[map[c.y * 16 + c.x]] : NULL;
    for (int j = 0; j < v->npieces; j++)
        if (coord_eq(v->pieces[j].at, c))
            return &v->pieces[j];
    return NULL;
}

/* How the actions of l are tried (best first): captures by the value of
 * the piece taken, the most valuable first, and by the cheapest taker;
 * then the rest in the variant's order.  `sides`: those of the seat to
 * act; v: the position's brief View.  Captures only (the others dropped)
 * when captures_only; returns the number kept in order[]. */
static int order_actions(const BotInput *in, const View *v, unsigned sides,
                         const ActionList *l, int captures_only, int *order, long *key)
{
    int n = 0;
    /* on a board of at most 16x16, the piece on each square at a glance */
    int16_t map[256];
    int mapped = v->geo.bounded && v->geo.width <= 16 && v->geo.height <= 16;
    if (mapped) {
        memset(map, 0xff, sizeof map);
        for (int j = 0; j < v->npieces; j++)
            if (on_map(v->pieces[j].at))
                map[v->pieces[j].at.y * 16 + v->pieces[j].at.x] = (int16_t)j;
    }
    for (int i = 0; i < l->n; i++) {
        const Action *a = &l->v[i];
        long k = 0;
        if (move_like(a)) {
            const ViewPiece *p = piece_at(v, mapped ? map : NULL, a->to);
            if (p && p->side >= 0 && !((sides >> p->side) & 1u))
                k += 1000L * (1 + value_of(in, p->figure));
            p = a->kind == ACT_PLACE ? NULL : piece_at(v, mapped ? map : NULL, a->from);
            if (p && p->side >= 0 && ((sides >> p->side) & 1u))
                k -= value_of(in, p->figure);
        }
        if (captures_only && k < 1000 - 100)
            continue;
        int at = n++;
        for (; at > 0 && key[at - 1] < k; at--) { /* stable insertion */
            key[at] = key[at - 1];
            order[at] = order[at - 1];
        }
        key[at] = k;
        order[at] = i;
    }
    return n;
}

/* Search the actions of l at m (the seat to act commands `sides`; mine:
 * they are the bot seat's) in order_actions' order, captures only when
 * captures_only, each by child() with depth and qply, within alpha-beta's
 * window: the best value from `best` on, and in *tried how many could be
 * played. */
static long search_actions(Search *S, Game *m, const ActionList *l, unsigned sides, int mine,
                           int captures_only, int depth, int qply, int ply, long alpha,
                           long beta, long best, int *tried)
{
    int *order = cv_calloc(sizeof *order * (size_t)(l->n + 1));
    long *key = cv_calloc(sizeof *key * (size_t)(l->n + 1));
    int n = order && key ? order_actions(S->in, S->scratch, sides, l, captures_only, order, key)
                         : 0;
    *tried = 0;
    for (int j = 0; j < n && !S->out_of_nodes && alpha < beta; j++) {
        long v;
        if (child(S, m, &l->v[order[j]], depth, qply, ply + 1, alpha, beta, &v))
            continue;
        (*tried)++;
        if (mine ? v > best : v < best)
            best = v;
        if (mine && best > alpha)
            alpha = best;
        if (!mine && best < beta)
            beta = best;
    }
    free(order);
    free(key);
    return best;
}

static int out_of_budget(Search *S)
{
    if ((S->budget && S->nodes >= S->budget) ||
        ((S->nodes & 255) == 0 &&
         ((S->deadline > 0 && seconds_now() > S->deadline) ||
          (S->watch && S->watch->stop && S->watch->stop(S->watch->ud)))))
        S->out_of_nodes = 1;
    return S->out_of_nodes;
}

/* The search beyond the nominal depth until the position is quiet: the
 * side to act may stand on the evaluation or try its captures; a decision
 * of another kind (a battle's answer, a choice) is searched in full when
 * it has few options.  At most QUIESCE_PLIES plies. */
static long quiesce(Search *S, Game *m, int ply, int qply, long alpha, long beta)
{
    int seat;
    S->nodes++;
    long stand = evaluate(S, m, ply, &seat);
    if (seat < 0 || qply >= QUIESCE_PLIES || out_of_budget(S))
        return stand;
    unsigned sides = game_seat_sides(m, seat);
    int mine = (sides & S->in->sides) != 0;
    ActionList l = ACTIONLIST_INIT;
    if (game_legal_play_unvetted(m, seat, &l) && search_failed(S, m)) {
        al_free(&l);
        return stand;
    }
    int quiet = 0;
    for (int i = 0; i < l.n && !quiet; i++)
        quiet = move_like(&l.v[i]);
    if (!quiet && l.n > QUIESCE_WIDTH) {
        al_free(&l);
        return stand;
    }
    if (quiet && (mine ? stand >= beta : stand <= alpha)) {
        al_free(&l);
        return stand;
    }
    if (quiet && mine && stand > alpha)
        alpha = stand;
    if (quiet && !mine && stand < beta)
        beta = stand;
    int tried;
    long best = search_actions(S, m, &l, sides, mine, quiet, 0, qply + 1, ply, alpha, beta,
                               quiet ? stand : mine ? -2 * WIN_SCORE : 2 * WIN_SCORE, &tried);
    al_free(&l);
    return quiet || tried ? best : stand;
}

/* Paranoid alpha-beta: the seat's sides maximise, the others minimise;
 * at depth 0 the quiescence search. */
static long alphabeta(Search *S, Game *m, int depth, int ply, long alpha, long beta)
{
    if (depth <= 0)
        return quiesce(S, m, ply, 0, alpha, beta);
    int seat;
    S->nodes++;
    long here = evaluate(S, m, ply, &seat);
    if (seat < 0 || out_of_budget(S))
        return here;
    unsigned sides = game_seat_sides(m, seat);
    int mine = (sides & S->in->sides) != 0;
    ActionList l = ACTIONLIST_INIT;
    if (game_legal_play_unvetted(m, seat, &l) && search_failed(S, m)) {
        al_free(&l);
        return here;
    }
    int tried;
    long best = search_actions(S, m, &l, sides, mine, 0, depth - 1, -1, ply, alpha, beta,
                               mine ? -2 * WIN_SCORE : 2 * WIN_SCORE, &tried);
    al_free(&l);
    return tried ? best : here;
}

/* Iterative deepening on model m within S's limits, up to max_depth:
 * last[k], the score of candidate k (idx[k] in S->in->legal) at the
 * deepest finished iteration, each of which S's watch hears of.  score and
 * order are scratch of n. */
static void deepen(Search *S, Game *m, const int *idx, int n, int max_depth,
                   long *score, long *last, int *order)
{
    const BotInput *in = S->in;
    for (int k = 0; k < n; k++) {
        order[k] = k;
        score[k] = last[k] = 0;
    }
    for (int depth = 0; depth < max_depth && !S->out_of_nodes; depth++) {
        /* the best of the last iteration first; the others searched with
         * alpha just below the best so far: a worse one stops early (its
         * score is then only an upper bound, below the best), one as good
         * gets its exact score (ties stay ties) */
        long best = -2 * WIN_SCORE;
        for (int j = 0; j < n && !S->out_of_nodes; j++) {
            int k = order[j];
            if (child(S, m, &in->legal.v[idx[k]], depth, -1, 1, best - 1, 2 * WIN_SCORE,
                      &score[k]))
                score[k] = -2 * WIN_SCORE;
            if (score[k] > best)
                best = score[k];
        }
        if (!S->out_of_nodes || depth == 0) { /* a finished iteration */
            memcpy(last, score, sizeof *last * (size_t)n);
            for (int a = 1; a < n; a++) /* stable: by score, then as before */
                for (int b = a; b > 0 && last[order[b]] > last[order[b - 1]]; b--) {
                    int t = order[b];
                    order[b] = order[b - 1];
                    order[b - 1] = t;
                }
        }
        if (!S->out_of_nodes && S->watch && S->watch->iteration) {
            long s = last[order[0]];
            int mate = s > WIN_SCORE / 2 && s <= WIN_SCORE ? (int)(WIN_SCORE - s)
                     : s < -WIN_SCORE / 2 && s >= -WIN_SCORE ? -(int)(WIN_SCORE + s) : 0;
            BotIteration it = {depth + 1, s, mate, S->nodes, &in->legal.v[idx[order[0]]]};
            S->watch->iteration(S->watch->ud, &it);
        }
    }
}

/* A model of the position for the search: the position itself when the
 * seat sees it whole, else one drawn by the variant from what the seat
 * knows (in->known; a few draws, as init may refuse one, e.g. a King the
 * draw left in check); NULL when neither can be had. */
static Game *search_model(const BotInput *in, Rng *rng)
{
    if (in->view->position[0])
        return model_game(in, in->view->position);
    if (!in->known)
        return NULL;
    for (int attempt = 0; attempt < 8; attempt++) {
        StrBuf b = STRBUF_INIT;
        Error e;
        Game *m = in->v->sample(in->known, rng, &b, &e) || b.failed
                      ? NULL
                      : model_game(in, sb_str(&b));
        sb_free(&b);
        if (m)
            return m;
    }
    return NULL;
}

/* The search level: the candidate (an index into in->legal) with the best
 * score at the deepest iteration finished within the limits; with hidden
 * facts, the best sum over BOT_SAMPLES positions drawn from what the seat
 * knows, the limits shared among them.  Without any model (a Masqués
 * setup) the greedy choice.  -1 with e when a house rule's hook failed. */
static int choose_search(const BotInput *in, const int *idx, int n, const BotLimits *lim,
                         Rng *rng, Error *e)
{
    int samples = in->view->position[0] ? 1 : in->known ? BOT_SAMPLES : 0;
    if (!samples)
        return choose_greedy(in, idx, n, rng, e);
    long budget = BOT_SEARCH_NODES;
    double start = seconds_now(), ms = 0;
    int max_depth = 32;
    if (lim && (lim->nodes > 0 || lim->ms > 0))
        budget = lim->nodes > 0 ? lim->nodes : 0;
    if (lim && lim->ms > 0)
        ms = (double)lim->ms;
    if (lim && lim->depth > 0)
        max_depth = lim->depth < 32 ? lim->depth : 32;
    long *score = cv_calloc(sizeof *score * (size_t)n);
    long *last = cv_calloc(sizeof *last * (size_t)n);
    long *total = cv_calloc(sizeof *total * (size_t)n);
    int *order = cv_calloc(sizeof *order * (size_t)n);
    View *scratch = cv_calloc(sizeof *scratch);
    int pick = -1, done = 0, failed = 0;
    for (int t = 0; t < samples && !failed && score && last && total && order && scratch;
         t++) {
        Game *m = search_model(in, rng);
        if (!m)
            continue;
        Search S = {in, 0, 0, 0, scratch, 0, lim ? lim->watch : NULL, 0, e};
        if (budget)
            S.budget = budget / samples > 0 ? budget / samples : 1;
        if (ms > 0)
            S.deadline = start + ms * (t + 1) / samples / 1000.0;
        deepen(&S, m, idx, n, max_depth, score, last, order);
        failed = S.failed;
        for (int k = 0; k < n; k++)
            total[k] += last[k];
        done++;
        game_free(m);
    }
    if (done) {
        long best = 0;
        int nbest = 0;
        for (int k = 0; k < n; k++) {
            if (nbest == 0 || total[k] > best) {
                best = total[k];
                nbest = 1;
                pick = idx[k];
            } else if (total[k] == best && rng_below(rng, (uint32_t)++nbest) == 0) {
                pick = idx[k];
            }
        }
    }
    free(score);
    free(last);
    free(total);
    free(order);
    free(scratch);
    if (failed)
        return -1;
    return pick >= 0 ? pick : choose_greedy(in, idx, n, rng, e);
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
    } else if (n > 0) {
        pick = level == BOT_RANDOM ? idx[rng_below(rng, (uint32_t)n)]
                                   : choose_greedy(in, idx, n, rng, e);
    }
    free(idx);
    if (pick < 0 && n > 0)
        return -1; /* a house rule's hook failed: e says how */
    const char *who = in->seat_name[0] ? in->seat_name : "its seat";
    if (pick < 0 && in->view->seat_to_act != in->seat && in->legal.n > 0)
        return err_set(e, "the %s bot has nothing to do: %s is not the seat to act and "
                          "has no move to make now (a bot does not resign out of turn)",
                       bot_level_name(level), who);
    if (pick < 0)
        return err_set(e, "the %s bot has nothing to do: no action is open to %s now",
                       bot_level_name(level), who);
    *out = in->legal.v[pick];
    return 0;
}

int bot_play(Game *g, int seat, int level, Rng *rng, Action *chosen, Error *e)
{
    BotSpec spec = {.level = level};
    return bot_play_spec(g, seat, &spec, rng, chosen, e);
}

int bot_spec_parse(const char *text, BotSpec *spec, Error *e)
{
    memset(spec, 0, sizeof *spec);
    const char *colon = strchr(text, ':');
    char level[16], q[48];
    size_t n = colon ? (size_t)(colon - text) : strlen(text);
    if (n >= sizeof level)
        return bot_level_parse(str_clip(q, sizeof q, text), &spec->level, e);
    memcpy(level, text, n);
    level[n] = '\0';
    if (bot_level_parse(level, &spec->level, e))
        return -1;
    if (!colon)
        return 0;
    if (spec->level != BOT_SEARCH)
        return err_set(e, "'%s': only the search bot takes a budget (search:20000 for "
                          "nodes, search:500ms for milliseconds)", str_clip(q, sizeof q, text));
    const char *t = colon + 1;
    char *end;
    long v = (*t >= '0' && *t <= '9') ? strtol(t, &end, 10) : -1;
    int ms = v >= 0 && strcmp(end, "ms") == 0;
    if (v < 1 || (!ms && *end) || (ms ? v > 3600000L : v > 100000000L))
        return err_set(e, "'%s': the search's budget is a number of nodes (search:20000, 1 to "
                          "100000000) or of milliseconds (search:500ms, 1 to 3600000)",
                       str_clip(q, sizeof q, text));
    if (ms)
        spec->lim.ms = v;
    else
        spec->lim.nodes = v;
    return 0;
}

const char *bot_spec_name(const BotSpec *spec, char *buf, size_t n)
{
    if (spec->lim.ms > 0)
        snprintf(buf, n, "%s:%ldms", bot_level_name(spec->level), spec->lim.ms);
    else if (spec->lim.nodes > 0)
        snprintf(buf, n, "%s:%ld", bot_level_name(spec->level), spec->lim.nodes);
    else
        snprintf(buf, n, "%s", bot_level_name(spec->level));
    return buf;
}

int bot_spec_eq(const BotSpec *a, const BotSpec *b)
{
    return a->level == b->level && a->lim.nodes == b->lim.nodes && a->lim.ms == b->lim.ms &&
           a->lim.depth == b->lim.depth;
}

int bot_play_spec(Game *g, int seat, const BotSpec *spec, Rng *rng, Action *chosen, Error *e)
{
    BotInput in;
    if (bot_input(g, seat, &in, e))
        return -1;
    Action a;
    int rc = bot_choose_limited(&in, spec->level, &spec->lim, rng, &a, e);
    bot_input_free(&in);
    if (rc == 0)
        rc = game_apply(g, &a, e);
    if (rc == 0 && chosen)
        *chosen = a;
    return rc;
}
