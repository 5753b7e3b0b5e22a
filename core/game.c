/*
 * game.c -- the turn loop shared by every variant.
 *
 * A Game holds its configuration, the variant's state blob, the history of
 * actions (with their texts), one repetition key per position reached, the
 * messages to seats, and the meta state (a pending draw offer, an end set
 * by resignation, agreement, a claim or a hook).
 *
 * Invariant: game_apply either commits an action completely (state,
 * history, key, messages, meta state) or leaves the game byte-for-byte as
 * it was: the variant applies to a scratch copy of the blob, and a failing
 * reaction hook restores the snapshot taken before.
 *
 * Cost: nothing grows faster than the game.  Repetitions are counted in a
 * hash table of keys (O(1) per action); undo restores the blob kept every
 * SNAP_EVERY actions and re-applies at most SNAP_EVERY - 1 actions, with
 * the messages, keys and draw offer of the target taken from the marks
 * kept per action.
 */
#include "game.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Message {
    unsigned mask; /* seats that may read it */
    char *text;
} Message;

struct Events {
    Message *v;
    int n, cap;
    int failed; /* a message was lost for want of memory */
};

/* The game just before history entry i (for undo). */
typedef struct PlyMark {
    int nmsgs, nkeys;
    int offer_seat;
    unsigned offer_agreed;
    int untexted; /* a pushed action's entry: its texts are written when read */
} PlyMark;

/* What game_push saves of a game with a reaction hook, beside the blob:
 * whatever the reaction may change (issue 20 point 7). */
typedef struct PushSave {
    GameTurn turn;
    int ended, offer_seat;
    unsigned offer_agreed;
    Rng rng;
    int nvars, var_at; /* its vars, at pushvars[var_at...] */
} PushSave;

/* A blob is kept before every SNAP_EVERY-th action. */
#define SNAP_EVERY 64

/* Repetition counts: open addressing with linear probing, key -> how many
 * times it occurs in keys[] (> 0; a key whose count falls to 0 leaves the
 * table: rep_add). */
typedef struct RepTable {
    uint64_t *key;
    int *count;
    size_t cap, used; /* cap: 0 or a power of two */
} RepTable;

/* What the variant's prepare made of the rule set, shared by a game and
 * its copies (which may live in other threads: the count is atomic). */
typedef struct Prepared {
    int refs;
    void *data;
    void (*unprepare)(void *data);
} Prepared;

struct Game {
    GameConfig cfg;          /* cfg.position points at `position` below */
    char *position;          /* owned copy of the start position, or NULL */
    char *ruleset;           /* owned copy of the rule-set text (cfg points here) */
    Prepared *prep;          /* the variant's prepared rule set, or NULL */
    GameHooks hooks;
    Rng rng;
    Rng rng_start;           /* the generator once the game is set up */
    void *st;                /* the variant's state blob */
    void *scratch;           /* a second blob: actions apply here first */
    HistoryEntry *hist;
    int nhist, caphist;
    uint64_t *keys;          /* keys[0]: start; one more per play action */
    int nkeys, capkeys;
    RepTable reps;           /* how often each key occurs in keys[] */
    PlyMark *marks;          /* marks[i]: before hist[i]; capacity caphist */
    unsigned char *snaps;    /* blob before action k * SNAP_EVERY, k < nsnaps */
    int nsnaps, capsnaps;
    Events msgs;
    int offer_seat;          /* seat with a pending draw offer, or -1 */
    unsigned offer_agreed;   /* seats that agreed to it (offerer included) */
    int ended;               /* set by resign, agreement, claim, game_end */
    Status forced;
    unsigned shown;          /* seats that showed their secrets after the end */
    GameScript *scripts;     /* owned copies of cfg.scripts (cfg points here) */
    int setup_made;          /* the position came from the setup hook */
    int reacting;            /* inside the reaction hook: game_edit allowed */
    int react_keyed;         /* ... after an action that pushed a key */
    unsigned char *pushed;   /* look-ahead: the blob before each game_push */
    int npushed, cappushed;
    PushSave *saves;         /* ... and with a reaction, the rest it may change */
    int capsaves;
    GameVar *pushvars;       /* the vars saved before each push (saves[].var_at) */
    int npushvars, cappushvars;
    int quiet;               /* a pushed action's reaction: edits write no messages */
    GameVar vars[GAME_VARS_MAX]; /* a house rule's values (game_var_set) */
    int nvars;
    GameTurn turn;           /* a house rule's schedule (game_turn_set) */
    GameTurn start_turn;     /* cfg.turn's copy (cfg.turn points here) */
    Error *fail;             /* with hooks: the error of the hook that made the
                                last call fail (written by reading calls too,
                                hence a block of its own); NULL without hooks */
};

/* ---- Small helpers ------------------------------------------------------ */

/* cap bytes (at least 1) holding the first n bytes of src, the rest
 * zeroed; NULL when memory runs out. */
static void *mem_copy(const void *src, size_t n, size_t cap)
{
    void *p = cv_calloc(cap > n ? cap : n);
    if (p && n)
        memcpy(p, src, n);
    return p;
}

/* Grow *v (elements of size `size`) to hold one more than n; 0 or -1. */
static int grow(void **v, int *cap, int n, size_t size, int first)
{
    if (n < *cap)
        return 0;
    int c = *cap ? *cap * 2 : first;
    void *p = cv_realloc(*v, (size_t)c * size);
    if (!p)
        return -1;
    *v = p;
    *cap = c;
    return 0;
}

void ev_emit(Events *ev, unsigned seat_mask, const char *fmt, ...)
{
    if (!ev || ev->failed)
        return;
    StrBuf b = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = sb_failed(&b) ? NULL : b.s ? b.s : cv_strdup("");
    if (!text || grow((void **)&ev->v, &ev->cap, ev->n, sizeof *ev->v, 16)) {
        sb_free(&b);
        ev->failed = 1; /* the action that said it is undone: game_apply */
        return;
    }
    ev->v[ev->n].mask = seat_mask;
    ev->v[ev->n].text = text;
    ev->n++;
}

/* Drop messages from index n on. */
static void ev_truncate(Events *ev, int n)
{
    while (ev->n > n)
        free(ev->v[--ev->n].text);
    ev->failed = 0;
}

static void ev_free(Events *ev)
{
    ev_truncate(ev, 0);
    free(ev->v);
    ev->v = NULL;
    ev->cap = 0;
}

static size_t rep_home(const RepTable *t, uint64_t k)
{
    return (size_t)((k ^ (k >> 29)) * 0x9E3779B97F4A7C15ull) & (t->cap - 1);
}

static size_t rep_slot(const RepTable *t, uint64_t k)
{
    size_t i = rep_home(t, k);
    while (t->count[i] >= 0 && t->key[i] != k)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static int rep_grow(RepTable *t)
{
    RepTable n = {NULL, NULL, t->cap ? t->cap * 2 : 256, 0};
    n.key = cv_calloc(n.cap * sizeof *n.key);
    n.count = cv_calloc(n.cap * sizeof *n.count);
    if (!n.key || !n.count) {
        free(n.key);
        free(n.count);
        return -1;
    }
    for (size_t i = 0; i < n.cap; i++)
        n.count[i] = -1; /* empty */
    for (size_t i = 0; i < t->cap; i++) {
        if (t->count[i] < 0)
            continue;
        size_t j = rep_slot(&n, t->key[i]);
        n.key[j] = t->key[i];
        n.count[j] = t->count[i];
        n.used++;
    }
    free(t->key);
    free(t->count);
    *t = n;
    return 0;
}

/* Count k once more (delta 1) or once less (-1, never needs memory). */
static int rep_add(RepTable *t, uint64_t k, int delta)
{
    if (delta > 0 && (t->used + 1) * 2 > t->cap && rep_grow(t))
        return -1;
    size_t i = rep_slot(t, k);
    if (t->count[i] < 0) {
        t->key[i] = k;
        t->count[i] = 0;
        t->used++;
    }
    t->count[i] += delta;
    if (t->count[i] > 0)
        return 0;
    /* The key is gone: its slot is emptied and the keys after it in the
     * run move back where their probe starts allow, so a look-ahead that
     * pushes and pops millions of positions leaves no trace (issue 20
     * point 7: no table that grows with the keys ever seen). */
    size_t mask = t->cap - 1;
    for (size_t j = (i + 1) & mask; t->count[j] >= 0; j = (j + 1) & mask) {
        size_t home = rep_home(t, t->key[j]);
        /* j's key may fill slot i when its probe passed i: home is not in (i, j] */
        int stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!stays) {
            t->key[i] = t->key[j];
            t->count[i] = t->count[j];
            i = j;
        }
    }
    t->count[i] = -1;
    t->used--;
    return 0;
}

static int rep_count(const RepTable *t, uint64_t k)
{
    if (!t->cap)
        return 0;
    size_t i = rep_slot(t, k);
    return t->count[i] > 0 ? t->count[i] : 0;
}

static int rep_copy(RepTable *dst, const RepTable *src)
{
    *dst = *src;
    if (!src->cap)
        return 0;
    dst->key = mem_copy(src->key, src->cap * sizeof *dst->key, 0);
    dst->count = mem_copy(src->count, src->cap * sizeof *dst->count, 0);
    return dst->key && dst->count ? 0 : -1;
}

static int push_key(Game *g, uint64_t k)
{
    if (grow((void **)&g->keys, &g->capkeys, g->nkeys, sizeof *g->keys, 64) ||
        rep_add(&g->reps, k, 1))
        return -1;
    g->keys[g->nkeys++] = k;
    return 0;
}

/* Drop the keys from index n on. */
static void keys_truncate(Game *g, int n)
{
    while (g->nkeys > n)
        rep_add(&g->reps, g->keys[--g->nkeys], -1);
}

/* Keep the blob before action nhist when it starts a block of SNAP_EVERY. */
static int snap_keep(Game *g)
{
    size_t sz = g->cfg.variant->state_size;
    int k = g->nhist / SNAP_EVERY;
    if (g->nhist % SNAP_EVERY || k < g->nsnaps)
        return 0;
    if (grow((void **)&g->snaps, &g->capsnaps, g->nsnaps, sz, 16))
        return -1;
    memcpy(g->snaps + (size_t)g->nsnaps++ * sz, g->st, sz);
    return 0;
}

/* Room for one more history entry and its mark: 0, or -1. */
static int hist_reserve(Game *g)
{
    if (g->nhist < g->caphist)
        return 0;
    /* both arrays grow to the same capacity, or caphist stays */
    int cap = g->caphist, capm = g->caphist;
    if (grow((void **)&g->hist, &cap, g->nhist, sizeof *g->hist, 64) ||
        grow((void **)&g->marks, &capm, g->nhist, sizeof *g->marks, 64))
        return -1;
    g->caphist = cap;
    return 0;
}

static int push_hist(Game *g, const HistoryEntry *h, const PlyMark *m)
{
    if (hist_reserve(g))
        return -1;
    g->marks[g->nhist] = *m;
    g->hist[g->nhist++] = *h;
    return 0;
}

/* ---- Life cycle --------------------------------------------------------- */

/* Give g its own copies of n scripts (cfg.scripts then points at them).
 * 0, or -1 when memory ran out (what was copied is g's, freed with it). */
static int scripts_copy(Game *g, const GameScript *src, int n)
{
    if (n <= 0)
        return 0;
    g->scripts = cv_calloc(sizeof *g->scripts * (size_t)n);
    if (!g->scripts)
        return -1;
    g->cfg.scripts = g->scripts;
    for (int i = 0; i < n; i++, g->cfg.nscripts++) {
        GameScript *d = &g->scripts[i];
        d->len = src[i].len;
        d->name = cv_strdup(src[i].name);
        char *t = d->name ? mem_copy(src[i].text, src[i].len, src[i].len + 1) : NULL;
        d->text = t;
        if (!t) {
            g->cfg.nscripts++; /* the name is freed with the game */
            return -1;
        }
    }
    return 0;
}

static void scripts_free(Game *g)
{
    for (int i = 0; i < g->cfg.nscripts; i++) {
        free((char *)g->scripts[i].name);
        free((char *)g->scripts[i].text);
    }
    free(g->scripts);
}

static void prepared_release(Prepared *p)
{
    if (p && __atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        if (p->unprepare)
            p->unprepare(p->data);
        free(p);
    }
}

/* Keep the rule-set text (the config's, else the hooks') and let the
 * variant prepare it. */
static int ruleset_prepare(Game *g, const char *text, Error *e)
{
    const VariantOps *v = g->cfg.variant;
    g->cfg.ruleset = NULL;
    if (v->version < 9 || !v->prepare) {
        if (text)
            return err_set(e, "%s takes no rule set (board, pieces, hands): only "
                              "a variant from parts does (fairy)", v->name);
        return 0;
    }
    if (text && !(g->ruleset = cv_strdup(text)))
        return err_set(e, "out of memory");
    g->cfg.ruleset = g->ruleset;
    if (!(g->prep = cv_calloc(sizeof *g->prep)))
        return err_set(e, "out of memory");
    g->prep->refs = 1;
    g->prep->unprepare = v->unprepare;
    if (!(g->prep->data = v->prepare(g->ruleset, e))) {
        free(g->prep);
        g->prep = NULL;
        err_prefix(e, "rule set");
        return -1;
    }
    return 0;
}

static int check_config(const GameConfig *c, Error *e)
{
    const VariantOps *v = c->variant;
    if (!v)
        return err_set(e, "no variant given");
    if (c->nsides < v->min_sides || c->nsides > v->max_sides) {
        if (v->min_sides == v->max_sides)
            return err_set(e, "%s is played by %d sides, not %d", v->name,
                           v->min_sides, c->nsides);
        return err_set(e, "%s is played by %d to %d sides, not %d", v->name,
                       v->min_sides, v->max_sides, c->nsides);
    }
    if (c->nseats < 1 || c->nseats > MAX_SEATS)
        return err_set(e, "a game has 1 to %d seats, not %d", MAX_SEATS, c->nseats);
    if (v->version >= 2 && v->max_seats &&
        (c->nseats < v->min_seats || c->nseats > v->max_seats))
        return err_set(e, "%s is played by %d to %d players (seats), not %d", v->name,
                       v->min_seats, v->max_seats, c->nseats);
    if (c->nseats < c->nsides && !v->seat_of_side)
        return err_set(e, "%s needs a seat for each of its %d sides, not %d seats",
                       v->name, c->nsides, c->nseats);
    if (c->params_set && c->params.n != v->nparams)
        return err_set(e, "the parameters given are not %s's", v->name);
    return 0;
}

/* The start hook on the new game's position: it may end the game there
 * (the seats are told, as after an action), not edit it. */
static int game_start_hook(Game *g, Error *e)
{
    g->reacting = 1; /* game_end allowed; game_edit refused: not after a play */
    g->react_keyed = 0;
    int r = g->hooks.start(g->hooks.ud, g, e);
    g->reacting = 0;
    if (r)
        return -1;
    if (g->ended) {
        char res[64];
        ev_emit(&g->msgs, SEATS_ALL, "game over: %s (%s)",
                game_result_text(g, res, sizeof res), g->forced.reason);
    }
    return g->msgs.failed ? err_set(e, "out of memory") : 0;
}

static int turn_check(const GameTurn *t, int nsides, Error *e)
{
    if (t->side < 0 || t->side >= nsides)
        return err_set(e, "a turn of side %d (the sides are 0 to %d)", t->side, nsides - 1);
    if (t->number < 1 || t->moves < 1 || t->made < 0 || t->made > t->moves ||
        (t->duck != 0 && t->duck != 1))
        return err_set(e, "a turn numbered %d with %d of %d moves made (duck %d) makes "
                          "no sense", t->number, t->made, t->moves, t->duck);
    return 0;
}

Game *game_new_hooked(const GameConfig *cfg, const GameHooks *hooks, Error *e)
{
    GameConfig c = *cfg;
    if (c.variant && c.nsides == 0)
        c.nsides = c.variant->default_sides;
    if (c.nseats == 0)
        c.nseats = c.variant && c.variant->version >= 2 && c.variant->default_seats
                       ? c.variant->default_seats : c.nsides;
    if (check_config(&c, e) || (c.turn && turn_check(c.turn, c.nsides, e)))
        return NULL;
    if (!c.params_set) {
        params_defaults(c.variant, &c.params);
        c.params_set = 1;
    }

    Game *g = cv_calloc(sizeof *g);
    StrBuf pos = STRBUF_INIT; /* before the first goto fail (a refused rule set) */
    if (!g) {
        err_set(e, "out of memory");
        return NULL;
    }
    g->cfg = c;
    g->cfg.scripts = NULL;
    g->cfg.nscripts = 0;
    g->cfg.ruleset = NULL;
    g->cfg.turn = NULL;
    if (c.turn) {
        g->start_turn = *c.turn;
        g->cfg.turn = &g->start_turn;
    }
    if (hooks)
        g->hooks = *hooks;
    if (g->hooks.retain)
        g->hooks.retain(g->hooks.ud);
    if (ruleset_prepare(g, c.ruleset ? c.ruleset : g->hooks.ruleset, e))
        goto fail;
    g->offer_seat = -1;
    rng_seed(&g->rng, c.seed);
    g->st = cv_calloc(c.variant->state_size);
    g->scratch = cv_calloc(c.variant->state_size);
    if (!g->st || !g->scratch || scripts_copy(g, c.scripts, c.nscripts) ||
        (game_hooked(g) && !(g->fail = cv_calloc(sizeof *g->fail)))) {
        err_set(e, "out of memory");
        goto fail;
    }

    /* A setup hook builds the start position; it is then kept as the
     * game's position, so a record replays without the hook. */
    if (!c.position && g->hooks.setup) {
        if (g->hooks.setup(g->hooks.ud, g, &pos, e)) {
            err_prefix(e, "setup");
            goto fail;
        }
        if (sb_failed(&pos)) {
            err_set(e, "out of memory");
            goto fail;
        }
        c.position = sb_str(&pos);
        g->setup_made = 1;
    }
    if (c.position && !(g->position = cv_strdup(c.position))) {
        err_set(e, "out of memory");
        goto fail;
    }
    g->cfg.position = g->position;
    if (c.variant->init(g, g->st, g->position, e))
        goto fail;
    sb_free(&pos);
    if (push_key(g, c.variant->hash(g, g->st))) {
        err_set(e, "out of memory");
        game_free(g);
        return NULL;
    }
    if (g->hooks.start && game_start_hook(g, e)) {
        game_free(g);
        return NULL;
    }
    if (g->cfg.turn) /* a game under way: its turn, not the start hook's */
        g->turn = g->start_turn;
    g->rng_start = g->rng;
    return g;
fail:
    sb_free(&pos);
    game_free(g);
    return NULL;
}

Game *game_new(const GameConfig *cfg, Error *e)
{
    return game_new_hooked(cfg, NULL, e);
}

Game *game_clone(const Game *g)
{
    size_t sz = g->cfg.variant->state_size;
    Game *c = cv_calloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *g;
    /* every pointer is c's own (or NULL) before anything can fail, so a
     * failure frees exactly what was made */
    c->position = NULL;
    c->st = c->scratch = c->snaps = NULL;
    c->hist = NULL;
    c->marks = NULL;
    c->keys = NULL;
    c->reps.key = NULL;
    c->reps.count = NULL;
    c->msgs.v = NULL;
    c->msgs.n = 0;
    c->scripts = NULL;
    c->reacting = 0;
    c->pushed = NULL; /* a copy starts a look-ahead of its own */
    c->npushed = c->cappushed = 0;
    c->saves = NULL;
    c->capsaves = 0;
    c->pushvars = NULL;
    c->npushvars = c->cappushvars = 0;
    c->quiet = 0;
    for (int i = g->nhist - g->npushed; g->hooks.react && i < g->nhist; i++)
        game_history(g, i); /* pushed entries get their texts before they are copied */
    c->cfg.scripts = NULL;
    c->cfg.nscripts = 0;
    c->cfg.turn = g->cfg.turn ? &c->start_turn : NULL;
    c->fail = NULL;
    c->ruleset = NULL;
    c->cfg.ruleset = NULL;
    if (c->prep)
        __atomic_add_fetch(&c->prep->refs, 1, __ATOMIC_RELAXED);
    if (c->hooks.retain)
        c->hooks.retain(c->hooks.ud);
    if (g->ruleset && !(c->ruleset = cv_strdup(g->ruleset))) {
        game_free(c);
        return NULL;
    }
    c->cfg.ruleset = c->ruleset;
    int ok = scripts_copy(c, g->cfg.scripts, g->cfg.nscripts) == 0;
    ok = ok && (!g->position || (c->position = cv_strdup(g->position)));
    c->cfg.position = c->position;
    ok = ok && (c->st = mem_copy(g->st, sz, sz)) && (c->scratch = cv_calloc(sz));
    ok = ok && (c->hist = mem_copy(g->hist, (size_t)g->nhist * sizeof *c->hist,
                                   (size_t)g->caphist * sizeof *c->hist));
    ok = ok && (c->marks = mem_copy(g->marks, (size_t)g->nhist * sizeof *c->marks,
                                    (size_t)g->caphist * sizeof *c->marks));
    ok = ok && (c->keys = mem_copy(g->keys, (size_t)g->nkeys * sizeof *c->keys,
                                   (size_t)g->capkeys * sizeof *c->keys));
    ok = ok && (c->snaps = mem_copy(g->snaps, (size_t)g->nsnaps * sz,
                                    (size_t)g->capsnaps * sz));
    ok = ok && rep_copy(&c->reps, &g->reps) == 0;
    ok = ok && (c->msgs.v = cv_calloc((size_t)g->msgs.cap * sizeof *c->msgs.v));
    ok = ok && (!g->fail || (c->fail = cv_calloc(sizeof *c->fail)));
    for (int i = 0; ok && i < g->msgs.n; i++, c->msgs.n++) {
        c->msgs.v[i].mask = g->msgs.v[i].mask;
        ok = (c->msgs.v[i].text = cv_strdup(g->msgs.v[i].text)) != NULL;
    }
    if (!ok) {
        game_free(c);
        return NULL;
    }
    return c;
}

void game_free(Game *g)
{
    if (!g)
        return;
    if (g->hooks.release)
        g->hooks.release(g->hooks.ud);
    prepared_release(g->prep);
    free(g->ruleset);
    scripts_free(g);
    free(g->position);
    free(g->st);
    free(g->scratch);
    free(g->hist);
    free(g->keys);
    free(g->reps.key);
    free(g->reps.count);
    free(g->marks);
    free(g->snaps);
    free(g->pushed);
    free(g->saves);
    free(g->pushvars);
    free(g->fail);
    ev_free(&g->msgs);
    free(g);
}

int game_same(const Game *a, const Game *b)
{
    const GameConfig *x = &a->cfg, *y = &b->cfg;
    if (x->variant != y->variant || x->nsides != y->nsides || x->nseats != y->nseats ||
        x->seed != y->seed || !x->position != !y->position ||
        (x->position && strcmp(x->position, y->position)) ||
        memcmp(&x->params, &y->params, sizeof x->params) ||
        !x->ruleset != !y->ruleset || (x->ruleset && strcmp(x->ruleset, y->ruleset)) ||
        x->nscripts != y->nscripts || a->setup_made != b->setup_made ||
        !x->turn != !y->turn || (x->turn && memcmp(x->turn, y->turn, sizeof *x->turn)))
        return 0;
    for (int i = 0; i < x->nscripts; i++)
        if (strcmp(x->scripts[i].name, y->scripts[i].name) ||
            x->scripts[i].len != y->scripts[i].len ||
            memcmp(x->scripts[i].text, y->scripts[i].text, x->scripts[i].len))
            return 0;
    if (memcmp(a->st, b->st, x->variant->state_size) || a->nhist != b->nhist ||
        a->nkeys != b->nkeys || a->msgs.n != b->msgs.n || a->nvars != b->nvars ||
        memcmp(a->vars, b->vars, (size_t)a->nvars * sizeof *a->vars) ||
        memcmp(&a->turn, &b->turn, sizeof a->turn))
        return 0;
    for (int i = 0; i < a->nhist; i++) {
        const HistoryEntry *h = &a->hist[i], *k = &b->hist[i];
        if (!action_eq(&h->action, &k->action) || h->action.note != k->action.note ||
            strcmp(h->text, k->text) || strcmp(h->machine, k->machine))
            return 0;
    }
    if (a->nkeys && memcmp(a->keys, b->keys, (size_t)a->nkeys * sizeof *a->keys))
        return 0;
    for (int i = 0; i < a->msgs.n; i++)
        if (a->msgs.v[i].mask != b->msgs.v[i].mask ||
            strcmp(a->msgs.v[i].text, b->msgs.v[i].text))
            return 0;
    return a->offer_seat == b->offer_seat && a->offer_agreed == b->offer_agreed &&
           a->ended == b->ended && a->shown == b->shown &&
           (!a->ended || (a->forced.over == b->forced.over &&
                          a->forced.winners == b->forced.winners &&
                          !strcmp(a->forced.reason, b->forced.reason))) &&
           !memcmp(&a->rng, &b->rng, sizeof a->rng) &&
           !memcmp(&a->rng_start, &b->rng_start, sizeof a->rng_start);
}

/* ---- Read access -------------------------------------------------------- */

const VariantOps *game_variant(const Game *g) { return g->cfg.variant; }
const void *game_variant_data(const Game *g) { return g->prep ? g->prep->data : NULL; }
const char *game_ruleset(const Game *g) { return g->ruleset; }
const GameConfig *game_config(const Game *g) { return &g->cfg; }
GameHooks game_hooks(const Game *g) { return g->hooks; }
int game_setup_made(const Game *g) { return g->setup_made; }
const Params *game_params(const Game *g) { return &g->cfg.params; }
int game_param(const Game *g, int index) { return g->cfg.params.v[index]; }
int game_nsides(const Game *g) { return g->cfg.nsides; }
int game_nseats(const Game *g) { return g->cfg.nseats; }
Rng *game_rng(Game *g) { return &g->rng; }
const void *game_state(const Game *g) { return g->st; }
int game_history_len(const Game *g) { return g->nhist; }

const HistoryEntry *game_history(const Game *g, int i)
{
    if (i < 0 || i >= g->nhist)
        return NULL;
    if (g->marks[i].untexted) {
        /* An action pushed in a game with a reaction: its texts are written
         * now, in the position before it (the blob game_push kept).  They
         * are a cache of what the entry is: the game is unchanged. */
        HistoryEntry *h = &g->hist[i];
        const VariantOps *v = g->cfg.variant;
        const void *before = g->pushed + (size_t)(i - (g->nhist - g->npushed)) * v->state_size;
        StrBuf b = STRBUF_INIT;
        v->format(g, before, &h->action, FMT_RECORD, &b);
        str_copy(h->text, sizeof h->text, sb_str(&b));
        int failed = sb_failed(&b);
        sb_free(&b);
        v->format(g, before, &h->action, FMT_MACHINE, &b);
        str_copy(h->machine, sizeof h->machine, sb_str(&b));
        g->marks[i].untexted = failed || sb_failed(&b); /* out of memory: again */
        sb_free(&b);
    }
    return &g->hist[i];
}

void game_history_text(const Game *g, int i, int seat, StrBuf *out)
{
    if (i < 0 || i >= g->nhist)
        return;
    const HistoryEntry *h = &g->hist[i];
    if (g->cfg.variant->history_text && !action_is_meta(h->action.kind))
        g->cfg.variant->history_text(g, &h->action, h->text, seat, out);
    else
        sb_puts(out, h->text);
}

const char *game_side_name(const Game *g, int side)
{
    static const char *const ORTHODOX_SIDES[2] = {"white", "black"};
    if (side < 0 || side >= g->cfg.nsides)
        return "nobody";
    if (g->cfg.variant->side_name)
        return g->cfg.variant->side_name(g, side);
    return side < 2 ? ORTHODOX_SIDES[side] : "nobody";
}

const char *game_seat_name(const Game *g, int seat)
{
    static const char *const extra[MAX_SEATS] = {"seat1", "seat2", "seat3",
                                                 "seat4", "seat5", "seat6"};
    if (seat < 0 || seat >= g->cfg.nseats)
        return "nobody";
    if (seat < g->cfg.nsides)
        return game_side_name(g, seat);
    return extra[seat];
}

int game_seat_by_name(const Game *g, const char *name)
{
    for (int s = 0; s < g->cfg.nseats; s++)
        if (str_ieq(name, game_seat_name(g, s)))
            return s;
    if (name[0] < '0' || name[0] > '9' || (name[0] == '0' && name[1]))
        return -1;
    int n = 0;
    for (const char *p = name; *p; p++) {
        if (*p < '0' || *p > '9' || n > MAX_SEATS)
            return -1;
        n = n * 10 + (*p - '0');
    }
    return n < g->cfg.nseats ? n : -1;
}

static int seat_of_side(const Game *g, int side)
{
    const VariantOps *v = g->cfg.variant;
    return v->seat_of_side ? v->seat_of_side(g, g->st, side) : side;
}

/* Bit mask of the sides a seat commands now. */
static unsigned seat_sides(const Game *g, int seat)
{
    unsigned m = 0;
    for (int s = 0; s < g->cfg.nsides; s++)
        if (seat_of_side(g, s) == seat)
            m |= 1u << s;
    return m;
}

unsigned game_seat_sides(const Game *g, int seat) { return seat_sides(g, seat); }

void game_status(const Game *g, Status *out)
{
    if (g->ended) {
        *out = g->forced;
        return;
    }
    memset(out, 0, sizeof *out);
    g->cfg.variant->status(g, g->st, out);
}

int game_to_act(const Game *g)
{
    Status s;
    game_status(g, &s);
    if (s.over)
        return -1;
    return g->cfg.variant->to_act(g, g->st);
}

int game_status_to_act(const Game *g, Status *out)
{
    game_status(g, out);
    return out->over ? -1 : g->cfg.variant->to_act(g, g->st);
}

int game_side_to_move(const Game *g)
{
    return g->cfg.variant->side_to_move(g, g->st);
}

const char *game_result_text(const Game *g, char *buf, size_t n)
{
    Status s;
    game_status(g, &s);
    if (!s.over)
        str_copy(buf, n, "*");
    else if (g->cfg.nsides == 2 && s.winners == 0)
        str_copy(buf, n, "1/2-1/2");
    else if (g->cfg.nsides == 2)
        str_copy(buf, n, s.winners == 1 ? "1-0" : s.winners == 2 ? "0-1" : "1-1");
    else if (s.winners == 0)
        str_copy(buf, n, "draw");
    else {
        StrBuf b = STRBUF_INIT;
        for (int i = 0; i < g->cfg.nsides; i++)
            if (s.winners & (1u << i))
                sb_printf(&b, "%s%s", b.len ? "+" : "", game_side_name(g, i));
        str_copy(buf, n, sb_str(&b));
        sb_free(&b);
    }
    return buf;
}

int game_repetitions(const Game *g)
{
    return rep_count(&g->reps, g->keys[g->nkeys - 1]);
}

void game_position(const Game *g, StrBuf *out)
{
    g->cfg.variant->write_position(g, g->st, out);
}

int game_known(const Game *g, int seat, StrBuf *out)
{
    const VariantOps *v = g->cfg.variant;
    if (v->version < 5 || !v->known || !v->sample || seat < 0 || seat >= g->cfg.nseats)
        return 0;
    size_t before = out->len;
    v->known(g, g->st, seat, out);
    return out->len > before;
}

int game_draw_offer(const Game *g) { return g->offer_seat; }

/* ---- Hook failures ------------------------------------------------------ */

/* g->fail is written through a pointer by calls that only read the game:
 * a failing hook is what they report, not a change of the game. */
static void fail_clear(const Game *g)
{
    if (g->fail)
        g->fail->msg[0] = '\0';
}

static void fail_set(const Game *g, const char *msg)
{
    if (g->fail)
        str_copy(g->fail->msg, sizeof g->fail->msg,
                 msg && msg[0] ? msg : "a house rule's hook failed");
}

/* Pass the failure met on `from` (a copy) to g: 1 if there was one. */
static int fail_pass(const Game *from, const Game *g)
{
    const char *msg = game_hook_error(from);
    if (msg)
        fail_set(g, msg);
    return msg != NULL;
}

const char *game_hook_error(const Game *g)
{
    return g->fail && g->fail->msg[0] ? g->fail->msg : NULL;
}

/* ---- Legal actions ------------------------------------------------------ */

/* game_vetoed for the state st, `ply` actions after g's own. */
static int vetoed_at(const Game *g, const void *st, int ply, const Action *a, char *why,
                     size_t n)
{
    if (!g->hooks.veto)
        return 0;
    char buf[sizeof g->fail->msg] = "";
    int rc = g->hooks.veto(g->hooks.ud, g, st, ply, a, buf, sizeof buf);
    if (rc < 0) /* the hook failed: an error, never a verdict */
        fail_set(g, buf);
    if (rc && why)
        str_copy(why, n, buf[0] ? buf : rc < 0 ? "a house rule's veto failed"
                                               : "forbidden by a house rule");
    return rc < 0 ? -1 : rc != 0;
}

int game_vetoed(const Game *g, const Action *a, char *why, size_t n)
{
    fail_clear(g);
    return vetoed_at(g, g->st, 0, a, why, n);
}

/* The variant's play actions for seat in state st, minus vetoed ones.  0,
 * or -1 when a veto failed (out gets none; g->fail says why). */
static int legal_play(const Game *g, const void *st, int ply, int seat, ActionList *out)
{
    int first = out->n;
    g->cfg.variant->legal(g, st, seat, out);
    if (!g->hooks.veto)
        return 0;
    int k = first;
    for (int i = first; i < out->n; i++) {
        int rc = vetoed_at(g, st, ply, &out->v[i], NULL, 0);
        if (rc < 0) {
            out->n = first;
            return -1;
        }
        if (!rc)
            out->v[k++] = out->v[i];
    }
    out->n = k;
    return 0;
}

static void push_meta(ActionList *out, int kind, int seat)
{
    Action a;
    memset(&a, 0, sizeof a);
    a.kind = (uint8_t)kind;
    a.seat = (uint8_t)seat;
    al_push(out, &a);
}

static int may_resign(const Game *g, int seat)
{
    const VariantOps *v = g->cfg.variant;
    if (v->may_resign)
        return v->may_resign(g, g->st, seat);
    return seat_sides(g, seat) != 0;
}

int game_legal(const Game *g, int seat, ActionList *out)
{
    Status s;
    fail_clear(g);
    game_status(g, &s);
    if (s.over || seat < 0 || seat >= g->cfg.nseats)
        return 0;
    if (legal_play(g, g->st, 0, seat, out))
        return -1;
    if (!seat_sides(g, seat))
        return 0;
    if (may_resign(g, seat))
        push_meta(out, ACT_RESIGN, seat);
    if (g->offer_seat < 0)
        push_meta(out, ACT_DRAW_OFFER, seat);
    else if (!(g->offer_agreed & (1u << seat))) {
        push_meta(out, ACT_DRAW_ACCEPT, seat);
        push_meta(out, ACT_DRAW_DECLINE, seat);
    }
    char why[128];
    if (seat == game_to_act(g) && g->cfg.variant->claim &&
        g->cfg.variant->claim(g, g->st, why, sizeof why))
        push_meta(out, ACT_DRAW_CLAIM, seat);
    return 0;
}

int game_legal_play(const Game *g, ActionList *out)
{
    return game_legal_play_of(g, game_to_act(g), out);
}

int game_legal_play_unvetted(const Game *g, int seat, ActionList *out)
{
    fail_clear(g);
    if (seat >= 0 && seat < g->cfg.nseats)
        g->cfg.variant->legal(g, g->st, seat, out);
    return 0;
}

int game_push_vetted(Game *g, const Action *a)
{
    fail_clear(g);
    if (g->hooks.veto && !action_is_meta(a->kind) &&
        vetoed_at(g, g->st, g->hooks.react ? 0 : g->npushed, a, NULL, 0))
        return -1; /* forbidden, or the veto failed (g->fail says so) */
    return game_push(g, a);
}

int game_legal_play_of(const Game *g, int seat, ActionList *out)
{
    fail_clear(g);
    if (seat < 0 || seat >= g->cfg.nseats)
        return 0;
    /* the veto is told the pushed actions (with a reaction they are in the
     * history) */
    return legal_play(g, g->st, g->hooks.react ? 0 : g->npushed, seat, out);
}

/* ---- Text --------------------------------------------------------------- */

static const struct {
    const char *word;
    int kind;
} META_WORDS[] = {
    {"resign", ACT_RESIGN},       {"draw", ACT_DRAW_OFFER},
    {"offer", ACT_DRAW_OFFER},    {"accept", ACT_DRAW_ACCEPT},
    {"decline", ACT_DRAW_DECLINE}, {"claim", ACT_DRAW_CLAIM},
};

void game_format(const Game *g, const Action *a, int style, StrBuf *out)
{
    if (action_is_meta(a->kind)) {
        for (size_t i = 0; i < ARRAY_LEN(META_WORDS); i++)
            if (META_WORDS[i].kind == a->kind && strcmp(META_WORDS[i].word, "offer")) {
                sb_puts(out, META_WORDS[i].word);
                return;
            }
    }
    g->cfg.variant->format(g, g->st, a, style, out);
}

/* Why a meta action of `kind` is not open to seat now. */
static int meta_refusal(const Game *g, int kind, int seat, Error *e)
{
    const char *who = game_seat_name(g, seat);
    if (!seat_sides(g, seat))
        return err_set(e, "%s commands no side: it may not resign, offer, accept, "
                          "decline or claim a draw", who);
    switch (kind) {
    case ACT_RESIGN:
        return err_set(e, "%s may not resign now", who);
    case ACT_DRAW_OFFER:
        if (g->offer_seat == seat)
            return err_set(e, "%s has already offered a draw", who);
        return err_set(e, "%s offered a draw: accept or decline it", game_seat_name(g, g->offer_seat));
    case ACT_DRAW_ACCEPT:
    case ACT_DRAW_DECLINE:
        if (g->offer_seat < 0)
            return err_set(e, "there is no draw offer to %s",
                           kind == ACT_DRAW_ACCEPT ? "accept" : "decline");
        return err_set(e, "%s cannot answer this draw offer", who);
    default:
        return err_set(e, "no draw can be claimed now: the position has not "
                          "occurred three times and the fifty-move count is not reached");
    }
}

static int parse_text(const Game *g, int seat, const char *text, Action *out, int veto,
                      Error *e);

int game_parse(const Game *g, int seat, const char *text, Action *out, Error *e)
{
    return parse_text(g, seat, text, out, 1, e);
}

int game_parse_unvetted(const Game *g, int seat, const char *text, Action *out, Error *e)
{
    fail_clear(g);
    return parse_text(g, seat, text, out, 0, e);
}

static int parse_text(const Game *g, int seat, const char *text, Action *out, int veto,
                      Error *e)
{
    char buf[ACTION_TEXT_MAX + 1];
    if (strlen(text) > ACTION_TEXT_MAX)
        return err_set(e, "the action text is too long (%zu bytes; at most %d)",
                       strlen(text), ACTION_TEXT_MAX);
    str_copy(buf, sizeof buf, text);
    str_trim(buf);
    if (!buf[0])
        return err_set(e, "nothing to play: type a move, or help");
    /* The end first: once the game is over no seat is to act, and a
     * caller asking for "the seat to act" (-1) is told why (issue 19
     * point 7: it was "there is no seat -1"). */
    Status s;
    game_status(g, &s);
    if (s.over) {
        char r[64];
        return err_set(e, "the game is over (%s, %s)", game_result_text(g, r, sizeof r),
                       s.reason);
    }
    if (seat < 0 || seat >= g->cfg.nseats)
        return err_set(e, "there is no seat %d (the seats are 0 to %d)", seat,
                       g->cfg.nseats - 1);

    ActionList legal = ACTIONLIST_INIT;
    int rc = -1;
    for (size_t i = 0; i < ARRAY_LEN(META_WORDS); i++) {
        if (!str_ieq(buf, META_WORDS[i].word))
            continue;
        int failed = game_legal(g, seat, &legal);
        Action a;
        memset(&a, 0, sizeof a);
        a.kind = (uint8_t)META_WORDS[i].kind;
        a.seat = (uint8_t)seat;
        if (failed) {
            rc = err_set(e, "%s", game_hook_error(g));
        } else if (legal.failed) {
            rc = err_set(e, "out of memory");
        } else if (al_find(&legal, &a) >= 0) {
            *out = a;
            rc = 0;
        } else {
            rc = meta_refusal(g, a.kind, seat, e);
        }
        goto done;
    }

    /* Parse against the unfiltered list, so a vetoed action is named as
     * such rather than as nonsense. */
    g->cfg.variant->legal(g, g->st, seat, &legal);
    int to_act = game_to_act(g);
    if (legal.n == 0 && seat != to_act) {
        rc = err_set(e, "it is %s's turn to act, not %s's",
                     game_seat_name(g, to_act), game_seat_name(g, seat));
        goto done;
    }
    if (legal.failed) {
        rc = err_set(e, "out of memory");
        goto done;
    }
    if (g->cfg.variant->parse(g, g->st, &legal, buf, out, e))
        goto done;
    if (!veto) {
        rc = 0;
        goto done;
    }
    char why[sizeof g->fail->msg];
    int vetoed = game_vetoed(g, out, why, sizeof why);
    if (vetoed < 0) {
        rc = err_set(e, "%s", why);
        goto done;
    }
    if (vetoed) {
        rc = err_set(e, "%s is forbidden: %s", buf, why);
        goto done;
    }
    rc = 0;
done:
    al_free(&legal);
    return rc;
}

int game_inputs(const Game *g, int seat, InputForm *out, int max)
{
    const VariantOps *v = g->cfg.variant;
    if (v->version < 6 || !v->inputs || max <= 0 || seat < 0 || seat >= g->cfg.nseats ||
        game_to_act(g) < 0)
        return 0;
    ActionList legal = ACTIONLIST_INIT;
    if (game_legal(g, seat, &legal)) {
        al_free(&legal);
        return -1;
    }
    int n = v->inputs(g, g->st, seat, out, max), k = 0;
    for (int i = 0; i < n && i < max; i++) {
        Action a;
        Error e;
        if (game_parse(g, seat, out[i].text, &a, &e) == 0 && !action_is_meta(a.kind) &&
            al_find(&legal, &a) >= 0)
            out[k++] = out[i];
    }
    al_free(&legal);
    return k;
}

/* ---- Applying ----------------------------------------------------------- */

typedef struct Snapshot {
    GameTurn turn;
    int nhist, nkeys, nmsgs, nvars;
    GameVar vars[GAME_VARS_MAX];
    int offer_seat;
    unsigned offer_agreed;
    int ended;
    Status forced;
    Rng rng;
} Snapshot;

static void snapshot_take(const Game *g, Snapshot *s, void *blob)
{
    s->nhist = g->nhist;
    s->nkeys = g->nkeys;
    s->nmsgs = g->msgs.n;
    s->offer_seat = g->offer_seat;
    s->offer_agreed = g->offer_agreed;
    s->ended = g->ended;
    s->forced = g->forced;
    s->rng = g->rng;
    s->nvars = g->nvars;
    memcpy(s->vars, g->vars, (size_t)g->nvars * sizeof *g->vars);
    s->turn = g->turn;
    memcpy(blob, g->st, g->cfg.variant->state_size);
}

static void snapshot_restore(Game *g, const Snapshot *s, const void *blob)
{
    g->nhist = s->nhist;
    keys_truncate(g, s->nkeys);
    ev_truncate(&g->msgs, s->nmsgs);
    g->offer_seat = s->offer_seat;
    g->offer_agreed = s->offer_agreed;
    g->ended = s->ended;
    g->forced = s->forced;
    g->rng = s->rng;
    g->nvars = s->nvars;
    memcpy(g->vars, s->vars, (size_t)s->nvars * sizeof *g->vars);
    g->turn = s->turn;
    memcpy(g->st, blob, g->cfg.variant->state_size);
}

static void end_game(Game *g, unsigned winners, int code, const char *reason)
{
    g->ended = 1;
    memset(&g->forced, 0, sizeof g->forced);
    g->forced.over = 1;
    g->forced.winners = winners;
    g->forced.code = code;
    str_copy(g->forced.reason, sizeof g->forced.reason, reason);
}

/* A draw decided by the core, with what the variant adds (scores). */
static void end_draw(Game *g, int code, const char *reason)
{
    const VariantOps *v = g->cfg.variant;
    char note[96] = "", full[128];
    if (v->version >= 3 && v->draw_note)
        v->draw_note(g, g->st, note, sizeof note);
    snprintf(full, sizeof full, note[0] ? "%s; %s" : "%s", reason, note);
    end_game(g, 0, code, full);
}

void game_end(Game *g, unsigned winners, const char *reason)
{
    if (g->ended) /* the first end stands (issue 20 point 8) */
        return;
    end_game(g, winners, END_HOUSE_RULE, reason);
}

const GameVar *game_var(const Game *g, int script, const char *key)
{
    for (int i = 0; i < g->nvars; i++)
        if (g->vars[i].script == script && strcmp(g->vars[i].key, key) == 0)
            return &g->vars[i];
    return NULL;
}

int game_var_set(Game *g, int script, const char *key, const GameVar *val, Error *e)
{
    if (!g->reacting)
        return err_set(e, "values are kept in the game only by a reaction or a start hook");
    size_t n = strlen(key);
    if (n == 0 || n > GAME_VAR_KEY_MAX)
        return err_set(e, "a key of %zu bytes (1 to %d letters, digits or '_')", n,
                       GAME_VAR_KEY_MAX);
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)key[i]) && key[i] != '_')
            return err_set(e, "the key has the byte 0x%02x at byte %zu (a key is letters, "
                              "digits or '_')", (unsigned char)key[i], i + 1);
    if (val && val->type == GAME_VAR_STR && val->len > GAME_VAR_STR_MAX)
        return err_set(e, "a string of %zu bytes for '%s' (at most %d)", val->len, key,
                       GAME_VAR_STR_MAX);
    if (val && val->type != GAME_VAR_INT && val->type != GAME_VAR_BOOL &&
        val->type != GAME_VAR_STR)
        return err_set(e, "unknown value type %d", val->type);
    GameVar *v = (GameVar *)game_var(g, script, key);
    if (!val) { /* cleared: the later keys move up, so the order stays that of setting */
        if (v) {
            int i = (int)(v - g->vars);
            memmove(v, v + 1, (size_t)(g->nvars - i - 1) * sizeof *v);
            g->nvars--;
        }
        return 0;
    }
    if (!v) {
        if (g->nvars == GAME_VARS_MAX)
            return err_set(e, "the game keeps at most %d values (for all its house rules); "
                              "'%s' would be one more", GAME_VARS_MAX, key);
        v = &g->vars[g->nvars++];
    }
    memset(v, 0, sizeof *v);
    v->script = script;
    memcpy(v->key, key, n);
    v->type = val->type;
    if (val->type == GAME_VAR_STR) {
        v->len = val->len;
        memcpy(v->str, val->str, val->len);
    } else {
        v->num = val->type == GAME_VAR_BOOL ? val->num != 0 : val->num;
    }
    return 0;
}

const GameTurn *game_turn(const Game *g) { return &g->turn; }

int game_turn_set(Game *g, const GameTurn *t, Error *e)
{
    if (!g->reacting)
        return err_set(e, "the turn is set only by a reaction or a start hook");
    if (turn_check(t, g->cfg.nsides, e))
        return -1;
    g->turn = *t;
    return 0;
}

int game_edit(Game *g, const Edit *ed, Error *e)
{
    const VariantOps *v = g->cfg.variant;
    if (!g->reacting)
        return err_set(e, "the position may be edited only by a house rule's reaction");
    if (!g->react_keyed)
        return err_set(e, "the position may be edited only after a play action "
                          "(not after a resignation or a draw offer)");
    if (v->version < 4 || !v->edit)
        return err_set(e, "%s takes no edits of its position", v->name);
    if (ed->kind != EDIT_ADD && ed->kind != EDIT_REMOVE && ed->kind != EDIT_CHANGE &&
        ed->kind != EDIT_TURN)
        return err_set(e, "unknown edit %d", ed->kind);
    if (ed->kind == EDIT_TURN && (ed->side < 0 || ed->side >= g->cfg.nsides))
        return err_set(e, "cannot give the turn to side %d (the sides are 0 to %d)",
                       ed->side, g->cfg.nsides - 1);
    int nmsgs = g->msgs.n;
    memcpy(g->scratch, g->st, v->state_size);
    if (v->edit(g, g->scratch, ed, g->quiet ? NULL : &g->msgs, e)) {
        ev_truncate(&g->msgs, nmsgs);
        return -1;
    }
    void *t = g->st;
    g->st = g->scratch;
    g->scratch = t;
    /* The repetition key of this ply is the edited position's. */
    keys_truncate(g, g->nkeys - 1);
    if (g->msgs.failed || push_key(g, v->hash(g, g->st)))
        return err_set(e, "out of memory");
    return 0;
}

/* Seats still in the game: those commanding at least one side. */
static unsigned playing_seats(const Game *g)
{
    unsigned m = 0;
    for (int s = 0; s < g->cfg.nsides; s++)
        if (seat_of_side(g, s) >= 0) /* a side no seat commands yet */
            m |= 1u << seat_of_side(g, s);
    return m;
}

static void apply_meta(Game *g, const Action *a)
{
    const char *who = game_seat_name(g, a->seat);
    char reason[128];
    switch (a->kind) {
    case ACT_RESIGN: {
        unsigned all = (1u << g->cfg.nsides) - 1;
        snprintf(reason, sizeof reason, "%s resigned", who);
        end_game(g, all & ~seat_sides(g, a->seat), END_RESIGNATION, reason);
        break;
    }
    case ACT_DRAW_OFFER:
        g->offer_seat = a->seat;
        g->offer_agreed = 1u << a->seat;
        ev_emit(&g->msgs, SEATS_ALL, "%s offers a draw", who);
        break;
    case ACT_DRAW_ACCEPT:
        g->offer_agreed |= 1u << a->seat;
        ev_emit(&g->msgs, SEATS_ALL, "%s accepts the draw", who);
        if ((playing_seats(g) & ~g->offer_agreed) == 0)
            end_draw(g, END_AGREEMENT, "draw by agreement");
        break;
    case ACT_DRAW_DECLINE:
        g->offer_seat = -1;
        g->offer_agreed = 0;
        ev_emit(&g->msgs, SEATS_ALL, "%s declines the draw", who);
        break;
    case ACT_DRAW_CLAIM: {
        char why[100] = "";
        int code = g->cfg.variant->claim(g, g->st, why, sizeof why);
        snprintf(reason, sizeof reason, "%s claimed by %s", why, who);
        end_draw(g, code, reason);
        break;
    }
    }
}

/* Commit a play action: the variant applies it to the scratch blob, which
 * then becomes the state.  The text is written before, in the old state. */
static int apply_play(Game *g, const Action *a, HistoryEntry *h, Error *e)
{
    const VariantOps *v = g->cfg.variant;
    memcpy(g->scratch, g->st, v->state_size);
    if (v->apply(g, g->scratch, a, &g->msgs))
        return err_set(e, "%s: the variant refused this action", h->text);
    void *t = g->st;
    g->st = g->scratch;
    g->scratch = t;
    if (g->msgs.failed || push_key(g, v->hash(g, g->st)))
        return err_set(e, "out of memory");
    /* Any play by a seat that has not agreed answers an offer: no. */
    if (g->offer_seat >= 0 && !(g->offer_agreed & (1u << a->seat))) {
        g->offer_seat = -1;
        g->offer_agreed = 0;
    }
    return 0;
}

/* Is a in its seat's legal list now?  (A play action is looked up in the
 * variant's list alone: the meta actions and claims need not be built.)
 * Its index, -1 if not, -2 when memory ran out, -3 when a veto failed. */
static int is_legal(const Game *g, const Action *a)
{
    ActionList legal = ACTIONLIST_INIT;
    int failed = 0;
    if (action_is_meta(a->kind)) {
        failed = game_legal(g, a->seat, &legal);
    } else {
        Status s;
        game_status(g, &s);
        if (!s.over && a->seat < g->cfg.nseats)
            failed = legal_play(g, g->st, 0, a->seat, &legal);
    }
    int found = failed ? -3 : legal.failed ? -2 : al_find(&legal, a);
    al_free(&legal);
    return found;
}

static int apply_checked(Game *g, const Action *a, Error *e);
static int apply_known(Game *g, const Action *a, unsigned long failures, Error *e);

/* Memory that ran out while an API function worked makes its failure an
 * "out of memory", whatever a variant made of an incomplete list. */
static int oom_is_why(int rc, unsigned long failures_before, Error *e)
{
    if (rc && cv_alloc_failures() != failures_before)
        err_set(e, "out of memory");
    return rc;
}

int game_apply(Game *g, const Action *a, Error *e)
{
    unsigned long f = cv_alloc_failures();
    return oom_is_why(apply_checked(g, a, e), f, e);
}

/* game_apply.  Memory that runs out anywhere while the action is applied
 * (a message or a text cut short inside a variant) refuses the action: it
 * is undone, and the error says why. */
static int apply_checked(Game *g, const Action *a, Error *e)
{
    unsigned long failures = cv_alloc_failures();
    fail_clear(g);
    int found = is_legal(g, a);
    if (found == -3)
        return err_set(e, "%s", game_hook_error(g));
    if (found == -2)
        return err_set(e, "out of memory");
    if (found < 0) {
        char why[sizeof g->fail->msg];
        int vetoed = game_vetoed(g, a, why, sizeof why);
        if (vetoed < 0)
            return err_set(e, "%s", why);
        if (vetoed)
            return err_set(e, "this %s is forbidden: %s", action_kind_name(a->kind), why);
        return err_set(e, "this %s is not legal for %s now",
                       action_kind_name(a->kind), game_seat_name(g, a->seat));
    }
    return apply_known(g, a, failures, e);
}

/* apply_checked for an action known to be in its seat's legal list (perft
 * through whole games takes it from the list it just made: the veto is not
 * asked again, issue 20 point 8).  failures: cv_alloc_failures() when the
 * caller began. */
static int apply_known(Game *g, const Action *a, unsigned long failures, Error *e)
{
    HistoryEntry h;
    memset(&h, 0, sizeof h);
    h.action = *a;
    StrBuf b = STRBUF_INIT, m = STRBUF_INIT;
    game_format(g, a, FMT_RECORD, &b);
    game_format(g, a, FMT_MACHINE, &m);
    int failed = sb_failed(&b) || sb_failed(&m);
    str_copy(h.text, sizeof h.text, sb_str(&b));
    str_copy(h.machine, sizeof h.machine, sb_str(&m));
    sb_free(&b);
    sb_free(&m);
    void *blob = failed ? NULL : cv_calloc(g->cfg.variant->state_size);
    if (!blob || snap_keep(g)) {
        free(blob);
        return err_set(e, "out of memory");
    }

    Snapshot snap;
    snapshot_take(g, &snap, blob);
    int rc = 0;
    if (action_is_meta(a->kind))
        apply_meta(g, a);
    else
        rc = apply_play(g, a, &h, e);
    if (rc == 0) {
        PlyMark mark = {snap.nmsgs, snap.nkeys, snap.offer_seat, snap.offer_agreed, 0};
        if (g->msgs.failed || push_hist(g, &h, &mark))
            rc = err_set(e, "out of memory");
    }
    if (rc == 0 && g->hooks.react) {
        g->reacting = 1;
        g->react_keyed = g->nkeys > snap.nkeys;
        Error re = {""};
        int r = g->hooks.react(g->hooks.ud, g, a, &re);
        if (r) {
            err_prefix(&re, "after %s", h.text); /* the hook names its script */
            if (r == -2) /* the hook failed: not a refusal */
                fail_set(g, re.msg);
            err_set(e, "%s", re.msg);
            rc = -1;
        }
        g->reacting = 0;
    }
    if (rc == 0) {
        Status s;
        game_status(g, &s);
        if (s.over) {
            char r[64];
            ev_emit(&g->msgs, SEATS_ALL, "game over: %s (%s)",
                    game_result_text(g, r, sizeof r), s.reason);
        }
        if (g->msgs.failed || cv_alloc_failures() != failures)
            rc = err_set(e, "out of memory");
    }
    if (rc)
        snapshot_restore(g, &snap, blob);
    free(blob);
    return rc;
}

/* Apply every action of seq, or none: on a failure the game gets back the
 * copy taken before. */
static int apply_seq(Game *g, const ActionList *seq, Error *e)
{
    Game *before = seq->failed ? NULL : game_clone(g);
    if (!before)
        return err_set(e, "out of memory");
    for (int i = 0; i < seq->n; i++) {
        if (game_apply(g, &seq->v[i], e)) {
            Game tmp = *g;
            *g = *before;
            *before = tmp;
            game_free(before);
            return -1;
        }
    }
    game_free(before);
    return 0;
}

static int play_text(Game *g, int seat, const char *text, Error *e);

int game_play(Game *g, int seat, const char *text, Error *e)
{
    unsigned long f = cv_alloc_failures();
    return oom_is_why(play_text(g, seat, text, e), f, e);
}

static int play_text(Game *g, int seat, const char *text, Error *e)
{
    const VariantOps *v = g->cfg.variant;
    if (v->parse_seq && seat >= 0 && seat < g->cfg.nseats) {
        ActionList seq = ACTIONLIST_INIT;
        int rc = v->parse_seq(g, g->st, seat, text, &seq, e);
        int handled = rc > 0;
        if (handled)
            rc = apply_seq(g, &seq, e);
        al_free(&seq);
        if (rc < 0 || handled)
            return rc;
    }
    Action a;
    if (game_parse(g, seat, text, &a, e))
        return -1;
    return game_apply(g, &a, e);
}

/* Undo by replaying every action kept from the start (exact whatever a
 * reaction hook did to the game). */
static int undo_by_replay(Game *g, int n, Error *e)
{
    Game *r = game_new_hooked(&g->cfg, &g->hooks, e);
    if (!r)
        return -1;
    /* The position already holds what a setup hook drew; resume the
     * generator where that setup left it. */
    r->rng = g->rng_start;
    r->rng_start = g->rng_start;
    r->setup_made = g->setup_made; /* and it came from the setup */
    for (int i = 0; i < g->nhist - n; i++) {
        if (game_apply(r, &g->hist[i].action, e)) {
            game_free(r);
            return -1;
        }
    }
    Game tmp = *g;
    *g = *r;
    *r = tmp;
    game_free(r);
    return 0;
}

int game_undo(Game *g, int n, Error *e)
{
    if (n < 0 || n > g->nhist)
        return err_set(e, "cannot undo %d action%s: only %d played", n,
                       n == 1 ? "" : "s", g->nhist);
    if (n == 0)
        return 0;
    /* A reaction hook may change anything, the generator included: only a
     * replay through it is exact. */
    if (g->hooks.react)
        return undo_by_replay(g, n, e);
    const VariantOps *v = g->cfg.variant;
    int t = g->nhist - n, k = t / SNAP_EVERY;
    /* the blob before action t: the kept one, then the actions after it
     * (apply reads only the blob and the game's configuration) */
    memcpy(g->scratch, g->snaps + (size_t)k * v->state_size, v->state_size);
    for (int i = k * SNAP_EVERY; i < t; i++)
        if (!action_is_meta(g->hist[i].action.kind) &&
            v->apply(g, g->scratch, &g->hist[i].action, NULL))
            return undo_by_replay(g, n, e); /* cannot happen: it was applied */
    void *sw = g->st;
    g->st = g->scratch;
    g->scratch = sw;
    const PlyMark *m = &g->marks[t];
    keys_truncate(g, m->nkeys);
    ev_truncate(&g->msgs, m->nmsgs);
    g->offer_seat = m->offer_seat;
    g->offer_agreed = m->offer_agreed;
    g->ended = 0; /* an ended game takes no action: only the last could end it */
    memset(&g->forced, 0, sizeof g->forced);
    g->shown = 0;
    g->rng = g->rng_start; /* only hooks draw after the setup */
    g->nhist = t;
    if (g->nsnaps > k + 1)
        g->nsnaps = k + 1;
    return 0;
}

int game_hooked(const Game *g)
{
    return g->hooks.setup || g->hooks.veto || g->hooks.react || g->hooks.start;
}

int game_hidden_info(const Game *g)
{
    return g->cfg.variant->version >= 2 && g->cfg.variant->hidden_info;
}

int game_show(Game *g, int seat, Error *e)
{
    if (seat < 0 || seat >= g->cfg.nseats)
        return err_set(e, "there is no seat %d", seat);
    if (!game_hidden_info(g))
        return err_set(e, "nothing is hidden in %s: there is nothing to show",
                       g->cfg.variant->name);
    if (game_to_act(g) >= 0)
        return err_set(e, "the game is not over: pieces are shown only after the end");
    if (g->shown & (1u << seat))
        return err_set(e, "%s has shown its pieces already", game_seat_name(g, seat));
    g->shown |= 1u << seat;
    ev_emit(&g->msgs, SEATS_ALL, "%s shows its pieces", game_seat_name(g, seat));
    return 0;
}

unsigned game_shown(const Game *g) { return g->shown; }

unsigned game_secret_seats(const Game *g)
{
    if (!game_hidden_info(g))
        return 0;
    unsigned all = (1u << g->cfg.nseats) - 1, secret = all & ~g->shown;
    if (game_to_act(g) >= 0)
        return all; /* nothing is shown before the end */
    View *v = secret ? malloc(sizeof *v) : NULL;
    if (v && game_view(g, -1, v) == 0 && v->position[0])
        secret = 0; /* what everyone may see is the whole position */
    free(v);
    return secret;
}

int game_may_read(const Game *g, int reader, int seat)
{
    if (seat < 0 || seat >= g->cfg.nseats)
        return 0;
    return reader == seat || !(game_secret_seats(g) & (1u << seat));
}

int game_undo_by(Game *g, int seat, int n, Error *e)
{
    if (game_undo_allowed(g, seat, n, e))
        return -1;
    return game_undo(g, n, e);
}

int game_undo_allowed(const Game *g, int seat, int n, Error *e)
{
    if (seat < 0 || seat >= g->cfg.nseats)
        return err_set(e, "there is no seat %d", seat);
    if (n < 0 || n > g->nhist)
        return err_set(e, "cannot undo %d action%s: only %d played", n,
                       n == 1 ? "" : "s", g->nhist);
    if (!game_hidden_info(g))
        return 0;
    const VariantOps *v = g->cfg.variant;
    const char *who = game_seat_name(g, seat);
    Status s;
    game_status(g, &s);
    if (s.over && n > 0)
        return err_set(e, "the game is over: in %s nothing can be taken back then",
                       v->name);
    for (int i = g->nhist - 1; i >= g->nhist - n; i--) {
        const HistoryEntry *h = &g->hist[i];
        if (h->action.seat != seat)
            return err_set(e, "%s may take back only its own actions, and %s acted "
                              "after them (in %s a seat may not undo what another "
                              "seat did)", who, game_seat_name(g, h->action.seat),
                           v->name);
        if (!action_is_meta(h->action.kind) &&
            (!v->undo_barrier || v->undo_barrier(g, &h->action)))
            return err_set(e, "%s cannot be taken back: in %s an action that "
                              "made something known or began an exchange stays "
                              "played", h->text, v->name);
    }
    return 0;
}

/* ---- Messages ------------------------------------------------------------ */

int game_message_count(const Game *g) { return g->msgs.n; }

const char *game_message(const Game *g, int i, int seat)
{
    if (i < 0 || i >= g->msgs.n || seat < 0 || seat >= MAX_SEATS)
        return NULL;
    return g->msgs.v[i].mask & (1u << seat) ? g->msgs.v[i].text : NULL;
}

/* ---- Views ----------------------------------------------------------------- */

/* What the core fills before the variant builds a View of seat (out
 * zeroed as far as the caller needs), with the status and seat to act
 * given; then the variant's view.  0, or -1 when memory ran out. */
static int view_fill(const Game *g, int seat, const Status *s, int to_act, View *out)
{
    unsigned long failures = cv_alloc_failures();
    out->seat = seat;
    out->nsides = g->cfg.nsides;
    out->side_to_move = game_side_to_move(g);
    out->seat_to_act = to_act;
    out->status = *s;
    out->has_draw_offer = g->offer_seat >= 0;
    out->draw_offer_seat = g->offer_seat;
    if (g->cfg.variant->geometry) {
        out->geo = g->cfg.variant->geometry(g, g->st);
    } else { /* the core's default: the orthodox board */
        out->geo.bounded = 1;
        out->geo.width = out->geo.height = 8;
    }
    const VariantOps *v = g->cfg.variant;
    str_copy(out->phase, sizeof out->phase, s->over ? "over"
             : v->version >= 4 && v->phase ? v->phase(g, g->st) : "play");
    for (int i = 0; i < g->cfg.nseats && i < MAX_SEATS; i++)
        out->commands[i] = seat_sides(g, i);
    out->norder = g->cfg.nsides; /* the sides in turn, unless the variant says */
    for (int i = 0; i < g->cfg.nsides && i < MAX_SIDES; i++)
        out->order[i] = (int8_t)i;
    v->view(g, g->st, seat, out);
    /* a house rule's schedule (all 0 without one, and once over; set
     * here in full: a brief view is zeroed only up to its texts) */
    int sched = g->turn.moves > 0 && !s->over;
    out->turn_number = sched ? g->turn.number : 0;
    out->turn_made = sched ? g->turn.made : 0;
    out->turn_moves = sched ? g->turn.moves : 0;
    out->turn_duck = sched ? g->turn.duck : 0;
    if (s->over) { /* nobody's turn, no offer standing (issue 19 point 7) */
        out->side_to_move = -1;
        out->has_draw_offer = 0;
        out->draw_offer_seat = -1;
    }
    return cv_alloc_failures() == failures ? 0 : -1;
}

void view_info_line(View *v, const char *fmt, ...)
{
    size_t len = strlen(v->info);
    if (len + 2 >= sizeof v->info)
        return;
    if (len)
        v->info[len++] = '\n';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->info + len, sizeof v->info - len, fmt, ap);
    va_end(ap);
}

int game_view(const Game *g, int seat, View *out)
{
    unsigned long failures = cv_alloc_failures(); /* the status's too */
    Status s;
    int to_act = game_status_to_act(g, &s);
    memset(out, 0, sizeof *out);
    return view_fill(g, seat, &s, to_act, out) || cv_alloc_failures() != failures ? -1 : 0;
}

int game_view_brief(const Game *g, int seat, const Status *s, int to_act, View *out)
{
    memset(out, 0, offsetof(View, position)); /* the texts are not written */
    out->position[0] = out->question[0] = out->info[0] = '\0';
    out->brief = 1;
    return view_fill(g, seat, s, to_act, out);
}

/* ---- Playouts ----------------------------------------------------------------- */

int game_playout(const Game *g, Rng *rng, int max, Status *out)
{
    PlayoutSeats ps;
    for (int i = 0; i < MAX_SEATS; i++)
        ps.rng[i] = rng;
    return game_playout_seats(g, &ps, max, out);
}

int game_playout_seats(const Game *g, PlayoutSeats *ps, int max, Status *out)
{
    memset(out, 0, sizeof *out);
    ps->choices = 0;
    memset(ps->commands, 0, sizeof ps->commands);
    str_copy(ps->result, sizeof ps->result, "*");
    fail_clear(g);
    Game *c = game_clone(g);
    if (!c)
        return -1;
    const VariantOps *v = c->cfg.variant;
    ActionList l = ACTIONLIST_INIT;
    int plies = 0, failed = 0;
    for (; plies < max && !failed; plies++) {
        int seat = game_to_act(c); /* the status first: the end of the game */
        if (seat < 0)
            break;
        Rng *rng = ps->rng[seat];
        al_clear(&l);
        if (c->hooks.react) { /* a reaction may change anything: the whole path */
            Error e;
            failed = game_legal_play(c, &l);
            if (!failed && !l.failed && !l.n)
                break; /* nothing to play: the status says why */
            ps->choices += l.n;
            failed = failed || l.failed ||
                     game_apply(c, &l.v[rng_below(rng, (uint32_t)l.n)], &e);
            continue;
        }
        const Action *a;
        Action drawn;
        if (!c->hooks.veto && v->version >= 5 && v->legal_draw) {
            int n = v->legal_draw(c, c->st, seat, rng, &drawn);
            if (n <= 0)
                break; /* nothing to play: the status says why */
            ps->choices += n;
            a = &drawn;
        } else {
            /* the actions played so far are in no history: the veto is told */
            failed = legal_play(c, c->st, plies, seat, &l) || l.failed;
            if (failed || !l.n)
                break;
            ps->choices += l.n;
            a = &l.v[rng_below(rng, (uint32_t)l.n)];
        }
        memcpy(c->scratch, c->st, v->state_size);
        if (v->version >= 5 && v->apply_listed) {
            v->apply_listed(c, c->scratch, a);
        } else if (v->apply(c, c->scratch, a, NULL)) {
            failed = 1;
            break;
        }
        void *t = c->st;
        c->st = c->scratch;
        c->scratch = t;
        failed = push_key(c, v->hash(c, c->st));
    }
    game_status(c, out);
    for (int i = 0; i < c->cfg.nseats && i < MAX_SEATS; i++)
        ps->commands[i] = seat_sides(c, i);
    game_result_text(c, ps->result, sizeof ps->result);
    al_free(&l);
    fail_pass(c, g);
    game_free(c);
    return failed ? -1 : plies;
}

/* ---- Look-ahead ------------------------------------------------------------ */

int game_pushable(const Game *g)
{
    return !g->ended;
}

/* What push_reacted makes of an action. */
#define PUSH_OK 0
#define PUSH_REFUSED (-1) /* the reaction refused it: the action cannot be played */
#define PUSH_HOOK (-2)    /* the reaction failed (g->fail says how) */
#define PUSH_NOMEM (-3)   /* memory ran out, or the variant refused the action */

/* game_pop for an action push_reacted pushed. */
static void pop_reacted(Game *g)
{
    size_t sz = g->cfg.variant->state_size;
    const PushSave *p = &g->saves[--g->npushed];
    memcpy(g->st, g->pushed + (size_t)g->npushed * sz, sz);
    keys_truncate(g, g->nkeys - 1);
    g->nhist--;
    g->ended = p->ended;
    g->offer_seat = p->offer_seat;
    g->offer_agreed = p->offer_agreed;
    g->rng = p->rng;
    g->turn = p->turn;
    g->nvars = p->nvars;
    if (p->nvars) /* pushvars is NULL until a value was kept */
        memcpy(g->vars, g->pushvars + p->var_at, (size_t)p->nvars * sizeof *g->vars);
    g->npushvars = p->var_at;
}

/* game_push in a game with a reaction hook: the action applied by the
 * variant, its history entry (texts written when read), its key, then the
 * reaction, which may edit, end, keep values and draw from the generator
 * as in play -- all undone by game_pop.  No messages: edits write none.
 * (issue 20 point 7: the search and perft run a reaction without copying
 * the game.)  listed: a is known to be in the legal list of this very
 * position (perft made it), so the variant applies it unchecked. */
static int push_reacted(Game *g, const Action *a, int listed)
{
    const VariantOps *v = g->cfg.variant;
    size_t sz = v->state_size;
    int cap = g->capsaves;
    if (grow((void **)&g->pushed, &g->cappushed, g->npushed, sz, 16) ||
        grow((void **)&g->saves, &cap, g->npushed, sizeof *g->saves, 16))
        return PUSH_NOMEM;
    g->capsaves = cap;
    if (g->npushvars + g->nvars > g->cappushvars) {
        int c = g->cappushvars ? g->cappushvars : 64;
        while (c < g->npushvars + g->nvars)
            c *= 2;
        GameVar *pv = cv_realloc(g->pushvars, (size_t)c * sizeof *pv);
        if (!pv)
            return PUSH_NOMEM;
        g->pushvars = pv;
        g->cappushvars = c;
    }
    if (hist_reserve(g))
        return PUSH_NOMEM;
    /* the blob before is kept, and the action applied in place */
    memcpy(g->pushed + (size_t)g->npushed * sz, g->st, sz);
    if (listed && v->version >= 5 && v->apply_listed) {
        v->apply_listed(g, g->st, a);
    } else if (v->apply(g, g->st, a, NULL)) {
        memcpy(g->st, g->pushed + (size_t)g->npushed * sz, sz);
        return PUSH_NOMEM;
    }
    PushSave *p = &g->saves[g->npushed];
    p->ended = g->ended;
    p->offer_seat = g->offer_seat;
    p->offer_agreed = g->offer_agreed;
    p->rng = g->rng;
    p->turn = g->turn;
    p->nvars = g->nvars;
    p->var_at = g->npushvars;
    if (g->nvars)
        memcpy(g->pushvars + g->npushvars, g->vars, (size_t)g->nvars * sizeof *g->vars);
    PlyMark *m = &g->marks[g->nhist];
    m->nmsgs = g->msgs.n;
    m->nkeys = g->nkeys;
    m->offer_seat = g->offer_seat;
    m->offer_agreed = g->offer_agreed;
    m->untexted = 1;
    if (push_key(g, v->hash(g, g->st))) {
        memcpy(g->st, g->pushed + (size_t)g->npushed * sz, sz);
        return PUSH_NOMEM;
    }
    HistoryEntry *h = &g->hist[g->nhist++];
    h->action = *a;
    h->text[0] = h->machine[0] = '\0';
    g->npushvars += g->nvars;
    g->npushed++;
    if (g->offer_seat >= 0 && !(g->offer_agreed & (1u << a->seat))) {
        g->offer_seat = -1;
        g->offer_agreed = 0;
    }
    unsigned long failures = cv_alloc_failures();
    g->reacting = g->react_keyed = g->quiet = 1;
    Error re;
    re.msg[0] = '\0';
    int r = g->hooks.react(g->hooks.ud, g, a, &re);
    g->reacting = g->react_keyed = g->quiet = 0;
    if (r == 0 && cv_alloc_failures() == failures)
        return PUSH_OK;
    if (r == -2) {
        /* the error names the action, as game_apply's does */
        const HistoryEntry *e = game_history(g, g->nhist - 1);
        err_prefix(&re, "after %s", e ? e->text : "?");
        fail_set(g, re.msg);
    }
    pop_reacted(g);
    return r == 0 ? PUSH_NOMEM : r == -2 ? PUSH_HOOK : PUSH_REFUSED;
}

int game_push(Game *g, const Action *a)
{
    const VariantOps *v = g->cfg.variant;
    size_t sz = v->state_size;
    fail_clear(g);
    if (!game_pushable(g) || action_is_meta(a->kind))
        return -1;
    if (g->hooks.react)
        return push_reacted(g, a, 0) == PUSH_OK ? 0 : -1;
    if (grow((void **)&g->pushed, &g->cappushed, g->npushed, sz, 16))
        return -1;
    memcpy(g->scratch, g->st, sz);
    if (v->apply(g, g->scratch, a, NULL))
        return -1;
    memcpy(g->pushed + (size_t)g->npushed * sz, g->st, sz);
    void *t = g->st;
    g->st = g->scratch;
    g->scratch = t;
    if (push_key(g, v->hash(g, g->st))) {
        memcpy(g->st, g->pushed + (size_t)g->npushed * sz, sz);
        return -1;
    }
    g->npushed++;
    return 0;
}

void game_pop(Game *g)
{
    if (g->npushed <= 0)
        return;
    if (g->hooks.react) {
        pop_reacted(g);
        return;
    }
    size_t sz = g->cfg.variant->state_size;
    g->npushed--;
    memcpy(g->st, g->pushed + (size_t)g->npushed * sz, sz);
    keys_truncate(g, g->nkeys - 1);
}

/* ---- Perft ------------------------------------------------------------------ */

typedef struct PerftCtx {
    const Game *g;
    size_t size;
    unsigned char *blobs; /* one blob per remaining depth */
    ActionList *lists;    /* one list per remaining depth */
    int failed;           /* memory ran out: the count is worthless */
    int hook_failed;      /* a veto failed (g->fail): there is no count */
    int top;              /* the remaining depth at g's own state (ply 0) */
} PerftCtx;

static uint64_t perft_rec(PerftCtx *c, const void *st, int depth)
{
    const VariantOps *v = c->g->cfg.variant;
    int seat = v->to_act(c->g, st);
    if (seat < 0)
        return 0;
    ActionList *l = &c->lists[depth];
    al_clear(l);
    if (c->hook_failed || legal_play(c->g, st, c->top - depth, seat, l)) {
        c->hook_failed = 1;
        return 0;
    }
    c->failed |= l->failed;
    if (depth == 1)
        return (uint64_t)l->n;
    void *child = c->blobs + (size_t)depth * c->size;
    uint64_t n = 0;
    for (int i = 0; i < l->n; i++) {
        memcpy(child, st, c->size);
        v->apply(c->g, child, &l->v[i], NULL);
        n += perft_rec(c, child, depth - 1);
    }
    return n;
}

/* Perft from st at depth >= 1, fast path when allowed. */
static uint64_t perft_from(PerftCtx *c, const void *st, int depth, int generic)
{
    const VariantOps *v = c->g->cfg.variant;
    if (depth <= 0)
        return 1;
    if (!generic && v->perft && !c->g->hooks.veto)
        return v->perft(c->g, st, depth);
    return perft_rec(c, st, depth);
}

/* 0, or -1 when memory runs out. */
static int perft_init(PerftCtx *c, const Game *g, int depth)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->top = depth;
    c->size = g->cfg.variant->state_size;
    int levels = depth > 0 ? depth + 1 : 1;
    c->blobs = cv_calloc(c->size * (size_t)levels);
    c->lists = cv_calloc(sizeof *c->lists * (size_t)levels);
    return c->blobs && c->lists ? 0 : -1;
}

static void perft_done(PerftCtx *c, int depth)
{
    for (int i = 0; c->lists && i <= (depth > 0 ? depth : 0); i++)
        al_free(&c->lists[i]);
    free(c->lists);
    free(c->blobs);
}

/* What stopped a perft through whole games. */
#define PERFT_NOMEM 1
#define PERFT_HOOK 2 /* a hook failed: g->fail says how */

/* Perft through a reaction: each action pushed (game_push: the reaction
 * runs as in play, edits and ends included, and game_pop undoes it), on
 * one copy of the game, with the action taken from the node's list, so
 * neither its legality nor its veto is asked again.  What counts is what
 * the engine's perft counts: a node has children when the variant gives
 * its seat to act play actions (a mate or a stalemate has none); an
 * automatic draw (the 75-move rule, fivefold repetition, dead material)
 * ends no game inside the tree, as in the published perft counts; a game
 * a reaction ended (game:finish) has none either.  A leaf (depth 0)
 * counts 1, whatever ended there.  An action its reaction refuses is not
 * counted, at the last ply too (it cannot be played); a hook that fails
 * stops the count.  Sets *failed (PERFT_NOMEM, PERFT_HOOK) when it cannot
 * count.  lists: one per remaining depth; fn (may be NULL) is told the
 * count of each action of this node (perft --divide's root).  (issue 20
 * points 7 and 8) */
static uint64_t perft_pushed(Game *g, ActionList *lists, int depth, int *failed,
                             void (*fn)(void *ud, const char *move, uint64_t n), void *ud)
{
    if (depth <= 0)
        return 1;
    int seat = g->ended ? -1 : g->cfg.variant->to_act(g, g->st);
    if (seat < 0)
        return 0;
    ActionList *l = &lists[depth];
    al_clear(l);
    if (legal_play(g, g->st, 0, seat, l))
        *failed |= PERFT_HOOK;
    *failed |= l->failed ? PERFT_NOMEM : 0;
    uint64_t n = 0;
    for (int i = 0; i < l->n && !*failed; i++) {
        int rc = push_reacted(g, &l->v[i], 1);
        if (rc == PUSH_OK) {
            uint64_t k = perft_pushed(g, lists, depth - 1, failed, NULL, NULL);
            if (fn && !*failed)
                fn(ud, game_history(g, g->nhist - 1)->machine, k);
            n += k;
            pop_reacted(g);
        } else if (rc == PUSH_HOOK) {
            *failed |= PERFT_HOOK;
        } else if (rc == PUSH_NOMEM) {
            *failed |= PERFT_NOMEM;
        } /* PUSH_REFUSED: not counted */
    }
    return n;
}

/* perft_pushed on a copy of g (g unchanged; a hook's failure is passed to
 * it); fn, when given, is told each root action's count. */
static uint64_t perft_games(const Game *g, int depth, int *failed,
                            void (*fn)(void *ud, const char *move, uint64_t n), void *ud)
{
    Game *c = game_clone(g);
    ActionList *lists = cv_calloc(sizeof *lists * (size_t)(depth + 1));
    uint64_t total = 0;
    if (!c || !lists)
        *failed |= PERFT_NOMEM;
    else
        total = perft_pushed(c, lists, depth, failed, fn, ud);
    if (c && fail_pass(c, g))
        *failed |= PERFT_HOOK;
    for (int i = 0; lists && i <= depth; i++)
        al_free(&lists[i]);
    free(lists);
    game_free(c);
    return total;
}

/* The perft functions' answer when they could not count. */
static uint64_t perft_failure(int failed)
{
    return failed & PERFT_HOOK ? GAME_PERFT_FAILED : GAME_PERFT_NOMEM;
}

static uint64_t perft_top(const Game *g, int depth, int generic)
{
    Status s;
    fail_clear(g);
    game_status(g, &s);
    if (s.over)
        return depth <= 0 ? 1 : 0;
    if (g->hooks.react) {
        int failed = 0;
        uint64_t n = perft_games(g, depth, &failed, NULL, NULL);
        return failed ? perft_failure(failed) : n;
    }
    PerftCtx c;
    uint64_t n = GAME_PERFT_NOMEM;
    if (perft_init(&c, g, depth) == 0)
        n = perft_from(&c, g->st, depth, generic);
    if (c.failed || c.hook_failed)
        n = c.hook_failed ? GAME_PERFT_FAILED : GAME_PERFT_NOMEM;
    perft_done(&c, depth);
    return n;
}

uint64_t game_perft(const Game *g, int depth) { return perft_top(g, depth, 0); }
uint64_t game_perft_generic(const Game *g, int depth) { return perft_top(g, depth, 1); }

uint64_t game_perft_divide(const Game *g, int depth,
                           void (*fn)(void *ud, const char *move, uint64_t n),
                           void *ud)
{
    fail_clear(g);
    if (depth <= 0)
        return 1;
    if (g->hooks.react) {
        int failed = 0;
        uint64_t n = game_to_act(g) < 0 ? 0 : perft_games(g, depth, &failed, fn, ud);
        return failed ? perft_failure(failed) : n;
    }
    ActionList root = ACTIONLIST_INIT;
    int hook_failed = game_legal_play(g, &root);
    PerftCtx c;
    void *child = NULL;
    StrBuf b = STRBUF_INIT;
    uint64_t total = 0;
    int inited = !hook_failed && !root.failed;
    int failed = !inited || perft_init(&c, g, depth) || !(child = cv_calloc(c.size));
    for (int i = 0; !failed && i < root.n; i++) {
        memcpy(child, g->st, c.size);
        g->cfg.variant->apply(g, child, &root.v[i], NULL);
        uint64_t n = perft_from(&c, child, depth - 1, 0);
        sb_reset(&b);
        g->cfg.variant->format(g, g->st, &root.v[i], FMT_MACHINE, &b);
        hook_failed = c.hook_failed;
        failed = c.failed || hook_failed || sb_failed(&b);
        if (fn && !failed)
            fn(ud, sb_str(&b), n);
        total += n;
    }
    sb_free(&b);
    free(child);
    if (inited)
        perft_done(&c, depth);
    al_free(&root);
    return hook_failed ? GAME_PERFT_FAILED : failed ? GAME_PERFT_NOMEM : total;
}
