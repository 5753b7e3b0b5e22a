/*
 * cli_diff.c -- `chessvar diff A B` (issue 22 part 1, docs/TEACHING.md):
 * what changes between two rule sets, computed rather than written.
 *
 * A rule set is a variant with its parameters and house-rule scripts.  The
 * command prints (or with --json writes) three things:
 *  - the card: for every area of docs/TEACHING.md (board and setup ...
 *    draws), the rules each side changes against orthodox chess, from the
 *    variants' rule data (VariantOps.rule_data), the parameters that
 *    differ from their defaults (each names its rule) and what each script
 *    declares (rule{changes=}), or says it declares nothing;
 *  - positions where they part: both games are played in step from their
 *    starts with the same action texts, chosen at random from those both
 *    accept (seeded), and every position where the seat to act's legal
 *    actions differ, where the same action leads to different positions,
 *    or where the same line ends differently is a parting; the first one
 *    found for each area is shown, with the rule that makes the
 *    difference;
 *  - on request (--practice N), the experiment figures of N random games
 *    of each rule set, side by side.
 *
 * Invariant: the output depends only on the command line (the seed is 1
 * unless --seed says otherwise), never on the clock; every game it plays
 * is its own, and a refused option is refused before anything is played.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../lab/experiment.h"
#include "../lab/stats.h"
#include "../draw/draw.h"
#include "../lua/house.h"

#define DIFF_DEFAULT_BUDGET 2000  /* plies over all the lines */
#define DIFF_LINE_PLIES 120       /* one line's plies at most */
#define DIFF_MAX_ENTRIES 96
#define DIFF_LIST_SHOWN 16        /* actions listed per side and parting */

/* One line of the card: what one side changes in one area. */
typedef struct Entry {
    int side;          /* 0: A, 1: B */
    int area;          /* RuleArea, -1: not declared */
    char rules[96];    /* "MASQ-2", a script's file */
    char replaces[64]; /* orthodox ids, "" */
    char what[160];
} Entry;

typedef struct RuleSet {
    CliOptions so;     /* what starts one of its games */
    const VariantOps *v;
    House *house;
    Params params;     /* with the user's parameters and the scripts' */
    char label[2];
    int nsides, nseats;
    char side_name[MAX_SIDES][32], seat_name[MAX_SEATS][32];
} RuleSet;

typedef struct Parting {
    int kind;          /* PART_* */
    int ply;
    char line[1600];   /* the texts played before, A's machine texts, one a line */
    View *va, *vb;     /* the seat to act's views, NULL once over */
    int seat_a, seat_b;
    StrBuf only_a, only_b;
    int n_only_a, n_only_b;
    char why[512];     /* the refusals and reasons that name the rule */
    char action[600];  /* PART_POSITION, PART_END: the action played */
    char end_a[160], end_b[160];
    int diverged;      /* the positions differ since this ply + 1 (0: never) */
    unsigned areas;    /* bit per RuleArea */
    char rules[160];   /* the rule ids or scripts that make the difference */
} Parting;

enum { PART_ACTIONS = 1, PART_VIEWS, PART_POSITION, PART_END };

typedef struct Diff {
    const CliOptions *o;
    RuleSet set[2];
    int nentries;
    Entry entries[DIFF_MAX_ENTRIES];
    unsigned changed;   /* areas some entry changes */
    uint64_t seed;
    long budget;
    long plies, lines, positions, parting_positions;
    unsigned found;     /* areas a shown parting covers */
    int nparts;
    Parting parts[AREA__COUNT + 2];
    int squares;        /* moves matched by their squares (diff_squares) */
    Coord shift;        /* then B's square = A's square + shift */
    int svg;            /* the JSON gives each parting's boards as SVG too
                           (the browser's page, core/draw) */
} Diff;

/* ---- Rule data ------------------------------------------------------------ */

/* v's rules as data (VariantOps version 8), or NULL. */
static const VariantRuleData *rule_data_of(const VariantOps *v)
{
    return v && v->version >= 8 ? v->rule_data : NULL;
}

static const RuleInfo *rule_find(const VariantOps *v, const char *id)
{
    const VariantRuleData *d = rule_data_of(v);
    for (const RuleInfo *r = d ? d->rules : NULL; r && r->id; r++)
        if (strcmp(r->id, id) == 0)
            return r;
    return NULL;
}

/* The areas of rule id in the rule data of a, b or orthodox chess. */
static unsigned id_areas(const Diff *d, const char *id)
{
    const VariantOps *vs[3] = {d->set[0].v, d->set[1].v, variant_find("orthodox")};
    for (int i = 0; i < 3; i++) {
        const RuleInfo *r = rule_find(vs[i], id);
        if (r)
            return (1u << r->area) | (r->area2 >= 0 ? 1u << r->area2 : 0);
    }
    return 0;
}

static int is_orthodox(const VariantOps *v)
{
    return strcmp(v->name, "orthodox") == 0;
}

static Entry *entry_add(Diff *d, int side, int area)
{
    if (d->nentries == DIFF_MAX_ENTRIES)
        return NULL;
    Entry *e = &d->entries[d->nentries++];
    memset(e, 0, sizeof *e);
    e->side = side;
    e->area = area;
    return e;
}

static void variant_entries(Diff *d, int side)
{
    const VariantOps *v = d->set[side].v;
    const VariantRuleData *rd = rule_data_of(v);
    if (is_orthodox(v) || !rd)
        return;
    for (const RuleInfo *r = rd->rules; r->id; r++) {
        for (int k = 0; k < 2; k++) { /* under each of its areas */
            Entry *e = entry_add(d, side, k ? r->area2 : r->area);
            if (!e || (k && r->area2 < 0)) {
                d->nentries -= e != NULL;
                if (!e)
                    return;
                continue;
            }
            str_copy(e->rules, sizeof e->rules, r->id);
            str_copy(e->replaces, sizeof e->replaces, r->replaces ? r->replaces : "");
            str_copy(e->what, sizeof e->what, r->what);
        }
    }
}

/* Parameters that differ from their defaults: a change of their rule. */
static void param_entries(Diff *d, int side)
{
    const RuleSet *s = &d->set[side];
    Params def;
    params_defaults(s->v, &def);
    for (int i = 0; i < s->v->nparams; i++) {
        const ParamDef *p = &s->v->params[i];
        if (s->params.v[i] == def.v[i])
            continue;
        unsigned areas = id_areas(d, p->rule);
        int area = 0;
        while (area < AREA__COUNT && !(areas & (1u << area)))
            area++;
        Entry *e = entry_add(d, side, area < AREA__COUNT ? area : -1);
        if (!e)
            return;
        StrBuf now = STRBUF_INIT, was = STRBUF_INIT;
        params_format_value(s->v, &s->params, i, &now);
        params_format_value(s->v, &def, i, &was);
        str_copy(e->rules, sizeof e->rules, p->rule);
        snprintf(e->what, sizeof e->what, "--param %s=%s (default %s): %s", p->name,
                 sb_str(&now), sb_str(&was), p->doc);
        sb_free(&now);
        sb_free(&was);
    }
    for (int f = FIG_PAWN; f <= FIG_QUEEN; f++)
        if (s->params.values[f] != def.values[f]) {
            Entry *e = entry_add(d, side, AREA_CAPTURES);
            if (!e)
                return;
            str_copy(e->rules, sizeof e->rules, "values");
            snprintf(e->what, sizeof e->what, "the value table: %c %d (default %d)",
                     figure_letter(f), s->params.values[f], def.values[f]);
        }
}

static void script_entries(Diff *d, int side)
{
    House *h = d->set[side].house;
    for (int i = 0; h && i < house_count(h); i++) {
        int n = house_nchanges(h, i);
        for (int k = 0; k < n; k++) {
            const HouseChange *c = house_change(h, i, k);
            Entry *e = entry_add(d, side, c->area);
            if (!e)
                return;
            snprintf(e->rules, sizeof e->rules, "%s", house_name(h, i));
            str_copy(e->replaces, sizeof e->replaces, c->rules ? c->rules : "");
            str_copy(e->what, sizeof e->what, c->what);
        }
        if (n)
            continue;
        static const char *const PART[] = {"params", "setup", "veto",
                                           "reaction", "start", "turn"};
        unsigned m = house_parts(h, i);
        StrBuf b = STRBUF_INIT;
        for (int p = 0; p < 6; p++)
            if (m & (1u << p))
                sb_printf(&b, "%s%s", b.len ? ", " : "", PART[p]);
        Entry *e = entry_add(d, side, -1);
        if (e) {
            snprintf(e->rules, sizeof e->rules, "%s", house_name(h, i));
            snprintf(e->what, sizeof e->what, "changes: not declared (hooks: %s)",
                     b.len ? sb_str(&b) : "none");
        }
        sb_free(&b);
    }
}

static void build_card(Diff *d)
{
    int same = d->set[0].v == d->set[1].v;
    for (int s = 0; s < 2; s++) {
        if (!same)
            variant_entries(d, s);
        param_entries(d, s);
        script_entries(d, s);
    }
    for (int i = 0; i < d->nentries; i++)
        d->changed |= d->entries[i].area >= 0 ? 1u << d->entries[i].area : 0;
}

/* The ids of v's rules in area (the rules that stay the same there). */
static void area_ids(const VariantOps *v, int area, StrBuf *out)
{
    const VariantRuleData *rd = rule_data_of(v);
    for (const RuleInfo *r = rd ? rd->rules : NULL; r && r->id; r++)
        if (r->area == area || r->area2 == area)
            sb_printf(out, "%s%s", out->len ? " " : "", r->id);
}

/* ---- Playing in step -------------------------------------------------------- */

static int texts_of(const Game *g, ActionList *l, char ***out, int *n)
{
    *out = NULL;
    *n = 0;
    if (game_legal_play(g, l))
        return -1;
    char **t = calloc((size_t)l->n + 1, sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < l->n; i++) {
        StrBuf b = STRBUF_INIT;
        game_format(g, &l->v[i], FMT_MACHINE, &b);
        t[i] = strdup(sb_str(&b));
        sb_free(&b);
        if (!t[i]) {
            for (int k = 0; k < i; k++)
                free(t[k]);
            free(t);
            return -1;
        }
    }
    *out = t;
    *n = l->n;
    return 0;
}

static void texts_free(char **t, int n)
{
    for (int i = 0; t && i < n; i++)
        free(t[i]);
    free(t);
}

static int in_list(char **t, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(t[i], s) == 0)
            return 1;
    return 0;
}

/* Does g's seat read text as one of its actions?  The refusal in why. */
static int accepts(const Game *g, int seat, char **list, int n, const char *text, char *why,
                   size_t wn)
{
    if (in_list(list, n, text))
        return 1;
    Action a;
    Error e = {""};
    if (seat >= 0 && game_parse(g, seat, text, &a, &e) == 0 && !action_is_meta(a.kind))
        return 1;
    if (why)
        snprintf(why, wn, "%s", e.msg[0] ? e.msg : "not an action here");
    return 0;
}

/* Rule ids (MASQ-7, ORTH-6) named in text, added to p. */
static int ids_in(const Diff *d, Parting *p, const char *text)
{
    int found = 0;
    for (const char *s = text; *s; s++) {
        int k = 0;
        while (isupper((unsigned char)s[k]))
            k++;
        if (k != 4 || s[k] != '-' || !isdigit((unsigned char)s[k + 1]) ||
            (s > text && isalnum((unsigned char)s[-1])))
            continue;
        char id[16];
        int len = k + 1;
        while (len < 12 && isdigit((unsigned char)s[len]))
            len++;
        snprintf(id, sizeof id, "%.*s", len, s);
        unsigned areas = id_areas(d, id);
        if (!areas)
            continue;
        found = 1;
        if (strstr(p->rules, id))
            continue;
        p->areas |= areas;
        size_t used = strlen(p->rules);
        snprintf(p->rules + used, sizeof p->rules - used, "%s%s", used ? " " : "", id);
        s += len - 1;
    }
    return found;
}

/* A parting whose texts name no rule: the areas its actions point at,
 * and the rules each side changes there (from the card). */
static void area_rules(Diff *d, Parting *p, unsigned areas)
{
    areas &= d->changed;
    p->areas |= areas;
    for (int i = 0; i < d->nentries; i++) {
        const Entry *e = &d->entries[i];
        if (e->area < 0 || !(areas & (1u << e->area)) || strstr(p->rules, e->rules))
            continue;
        size_t used = strlen(p->rules);
        if (used + strlen(e->rules) + 2 < sizeof p->rules)
            snprintf(p->rules + used, sizeof p->rules - used, "%s%s", used ? " " : "",
                     e->rules);
    }
}

/* The area an action of g's seat points at when no text names its rule:
 * its kind (placing: the board; a decision: who moves and when; a
 * reveal: hidden information), else for a move whether the mover is in
 * check, takes something (a piece on the target in v, the seat's view) or
 * just moves. */
static unsigned action_areas(const Game *g, int seat, const char *text, const View *v)
{
    Action a;
    Error e = {""};
    if (seat < 0 || game_parse(g, seat, text, &a, &e))
        return 0;
    switch (a.kind) {
    case ACT_PLACE: return 1u << AREA_BOARD;
    case ACT_REVEAL: return 1u << AREA_HIDDEN | 1u << AREA_MOVES;
    case ACT_MOVE: break;
    default: return 1u << AREA_TURNS;
    }
    if (v && v->status.in_check)
        return 1u << AREA_CHECK;
    for (int i = 0; v && i < v->npieces; i++)
        if (v->pieces[i].at.x == a.to.x && v->pieces[i].at.y == a.to.y)
            return 1u << AREA_CAPTURES;
    return 1u << AREA_MOVES;
}

static View *view_of(const Game *g, int seat)
{
    View *v = malloc(sizeof *v);
    if (v && game_view(g, seat, v)) {
        free(v);
        v = NULL;
    }
    return v;
}

static int view_hides(const View *v)
{
    for (int i = 0; v && i < v->npieces; i++)
        if (v->pieces[i].figure == FIG_HIDDEN || (v->pieces[i].flags & VP_MASKED))
            return 1;
    return 0;
}

/* The public pieces of both games: the same squares, sides and, where
 * both show them, figures and merged marks. */
static int same_pieces(const Game *a, const Game *b, Coord shift)
{
    View *va = view_of(a, -1), *vb = view_of(b, -1);
    int same = va && vb && va->npieces == vb->npieces;
    for (int i = 0; same && i < va->npieces; i++) {
        const ViewPiece *p = &va->pieces[i];
        int hit = 0;
        for (int k = 0; k < vb->npieces && !hit; k++) {
            const ViewPiece *q = &vb->pieces[k];
            hit = p->at.x + shift.x == q->at.x && p->at.y + shift.y == q->at.y &&
                  p->side == q->side &&
                  (p->figure == q->figure || p->figure == FIG_HIDDEN ||
                   q->figure == FIG_HIDDEN) &&
                  (p->flags & VP_MERGED) == (q->flags & VP_MERGED);
        }
        same = hit;
    }
    free(va);
    free(vb);
    return same;
}

static void end_text(const Game *g, char *buf, size_t n)
{
    Status s;
    game_status(g, &s);
    char r[64];
    if (s.over)
        snprintf(buf, n, "%s (%s)", game_result_text(g, r, sizeof r), s.reason);
    else
        snprintf(buf, n, "the game goes on");
}

static unsigned end_areas(const Game *g)
{
    Status s;
    game_status(g, &s);
    if (!s.over)
        return 0;
    switch (s.code) {
    case END_STALEMATE: case END_THREEFOLD: case END_FIFTY_MOVES: case END_FIVEFOLD:
    case END_SEVENTY_FIVE_MOVES: case END_INSUFFICIENT_MATERIAL: case END_AGREEMENT:
        return 1u << AREA_DRAWS;
    default:
        return s.winners ? 1u << AREA_END : 1u << AREA_DRAWS;
    }
}

static void part_free(Parting *p)
{
    free(p->va);
    free(p->vb);
    sb_free(&p->only_a);
    sb_free(&p->only_b);
}

/* Keep p when it shows an area no kept parting shows yet. */
static void part_keep(Diff *d, Parting *p)
{
    d->parting_positions++;
    if (!(p->areas & ~d->found) || d->nparts == (int)ARRAY_LEN(d->parts)) {
        part_free(p);
        return;
    }
    d->found |= p->areas;
    d->parts[d->nparts++] = *p;
}

static void why_add(Parting *p, const char *label, const char *text, const char *why)
{
    size_t used = strlen(p->why);
    if (used + 8 < sizeof p->why)
        snprintf(p->why + used, sizeof p->why - used, "%s%s refuses %s: %s", used ? "\n" : "",
                 label, text, why);
}

/* B's move with the same squares as A's move a (the same move typed with
 * a choice A does not ask, as L'Échiqueté's merged figure: e4d5p for
 * e4d5): its index in lb, or -1.  The figure of A's move first. */
static int counterpart(const Action *a, const ActionList *lb, Coord shift)
{
    int hit = -1;
    if (a->kind != ACT_MOVE)
        return -1;
    for (int k = 0; k < lb->n; k++) {
        const Action *b = &lb->v[k];
        if (b->kind != ACT_MOVE || b->from.x != a->from.x + shift.x ||
            b->from.y != a->from.y + shift.y || b->to.x != a->to.x + shift.x ||
            b->to.y != a->to.y + shift.y)
            continue;
        if (hit < 0 || b->figure == a->figure)
            hit = k;
    }
    return hit;
}

static unsigned kind_areas(unsigned m, int diverged)
{
    /* once the positions differ, an action's squares say little: only
     * the kinds of action that are a rule of their own count */
    return diverged ? m & ~(1u << AREA_MOVES | 1u << AREA_CAPTURES | 1u << AREA_CHECK) : m;
}

/* Compare the two games where they stand; keep a parting.  Fills the
 * moves both accept as "A's text<TAB>B's text" for the next step. */
static int compare_here(Diff *d, Game *ga, Game *gb, const char *line, int ply,
                        int diverged, char ***common, int *ncommon)
{
    int sa = game_to_act(ga), sb = game_to_act(gb);
    ActionList la = ACTIONLIST_INIT, lb = ACTIONLIST_INIT;
    char **ta = NULL, **tb = NULL;
    int na = 0, nb = 0, rc = 0;
    *common = NULL;
    *ncommon = 0;
    if ((sa >= 0 && texts_of(ga, &la, &ta, &na)) || (sb >= 0 && texts_of(gb, &lb, &tb, &nb))) {
        rc = -1;
        goto out;
    }
    d->positions++;
    Parting p;
    memset(&p, 0, sizeof p);
    p.kind = PART_ACTIONS;
    p.ply = ply;
    p.seat_a = sa;
    p.seat_b = sb;
    p.diverged = diverged;
    str_copy(p.line, sizeof p.line, line);
    char **c = calloc((size_t)na + 1, sizeof *c);
    if (!c) {
        rc = -1;
        goto out;
    }
    unsigned hint = 0;
    char why[300];
    View *va = sa >= 0 ? view_of(ga, sa) : NULL, *vb = sb >= 0 ? view_of(gb, sb) : NULL;
    for (int i = 0; i < na; i++) {
        const char *twin = ta[i];
        int same = accepts(gb, sb, tb, nb, ta[i], why, sizeof why);
        int k = same ? -1 : counterpart(&la.v[i], &lb, d->shift);
        if (!same && d->squares && k >= 0) {
            twin = tb[k]; /* the same move in another notation */
        } else if (!same) {
            twin = k >= 0 ? tb[k] : NULL;
            if (p.n_only_a++ < DIFF_LIST_SHOWN)
                sb_printf(&p.only_a, "%s%s", p.only_a.len ? "\n" : "", ta[i]);
            if (p.n_only_a <= 2)
                why_add(&p, "B", ta[i], why);
            if (!ids_in(d, &p, why))
                hint |= kind_areas(action_areas(ga, sa, ta[i], va), diverged);
        }
        if (twin) {
            size_t n = strlen(ta[i]) + strlen(twin) + 2;
            if (!(c[*ncommon] = malloc(n))) {
                rc = -1;
                break;
            }
            snprintf(c[(*ncommon)++], n, "%s\t%s", ta[i], twin);
        }
    }
    Coord back = coord_make(-d->shift.x, -d->shift.y);
    for (int i = 0; i < nb && !rc; i++) {
        if (accepts(ga, sa, ta, na, tb[i], why, sizeof why) ||
            (d->squares && counterpart(&lb.v[i], &la, back) >= 0))
            continue;
        if (p.n_only_b++ < DIFF_LIST_SHOWN)
            sb_printf(&p.only_b, "%s%s", p.only_b.len ? "\n" : "", tb[i]);
        if (p.n_only_b <= 2)
            why_add(&p, "A", tb[i], why);
        if (!ids_in(d, &p, why))
            hint |= kind_areas(action_areas(gb, sb, tb[i], vb), diverged);
    }
    if (p.n_only_a || p.n_only_b) {
        if (va)
            ids_in(d, &p, va->question);
        if (vb)
            ids_in(d, &p, vb->question);
        area_rules(d, &p, hint); /* the actions whose refusal names no rule */
    } else if (view_hides(va) != view_hides(vb)) {
        p.kind = PART_VIEWS; /* the same actions, but one seat sees less */
        area_rules(d, &p, 1u << AREA_HIDDEN);
    }
    if (p.areas && !rc) {
        p.va = va;
        p.vb = vb;
        part_keep(d, &p);
    } else {
        free(va);
        free(vb);
        part_free(&p);
    }
    if (rc) { /* out of memory: no list rather than part of one */
        texts_free(c, *ncommon);
        c = NULL;
        *ncommon = 0;
    }
    *common = c;
out:
    texts_free(ta, na);
    texts_free(tb, nb);
    al_free(&la);
    al_free(&lb);
    return rc;
}

/* Both games from their starts to where the diff compares them: a rule
 * set with setup texts (Masqués: "standard"; Tile: a placement) types
 * them in turn while its game is not yet in play. */
static int align(const Diff *d, Game *g, int side)
{
    const VariantOps *v = d->set[side].v;
    const VariantRuleData *rd = rule_data_of(v);
    const char *t = rd ? rd->diff_setup : NULL;
    for (int guard = 0; t && guard < 128; guard++) {
        View *vw = view_of(g, -1);
        int setup = vw && strcmp(vw->phase, "play") != 0 && strcmp(vw->phase, "over") != 0;
        free(vw);
        int seat = game_to_act(g);
        if (!setup || seat < 0)
            return 0;
        if (!*t)
            t = rd->diff_setup;
        size_t n = strcspn(t, "|");
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)n, t);
        t += n + (t[n] == '|');
        Error e = {""};
        if (game_play(g, seat, text, &e))
            return -1;
    }
    return 0;
}

/* The pieces of g laid on an 8x8 board as a FEN (their box's corner on
 * a1), and where that corner is in g: 0, or -1 when they do not fit or g
 * is not a game of two sides whose figures show. */
static int board_fen(const Game *g, StrBuf *out, Coord *corner)
{
    View *v = view_of(g, -1);
    int rc = v && v->nsides == 2 && v->npieces ? 0 : -1;
    Coord lo = {INT32_MAX, INT32_MAX};
    for (int i = 0; !rc && i < v->npieces; i++) {
        lo.x = v->pieces[i].at.x < lo.x ? v->pieces[i].at.x : lo.x;
        lo.y = v->pieces[i].at.y < lo.y ? v->pieces[i].at.y : lo.y;
    }
    char board[8][8];
    memset(board, 0, sizeof board);
    for (int i = 0; !rc && i < v->npieces; i++) {
        const ViewPiece *p = &v->pieces[i];
        long x = (long)p->at.x - lo.x, y = (long)p->at.y - lo.y;
        char c = figure_letter(p->figure);
        if (x > 7 || y > 7 || p->side < 0 || p->side > 1 || p->figure == FIG_HIDDEN || !c) {
            rc = -1;
            break;
        }
        board[y][x] = p->side ? (char)tolower((unsigned char)c) : c;
    }
    for (int y = 7; !rc && y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < 8; x++) {
            if (!board[y][x]) {
                empty++;
                continue;
            }
            if (empty)
                sb_printf(out, "%d", empty);
            empty = 0;
            sb_printf(out, "%c", board[y][x]);
        }
        if (empty)
            sb_printf(out, "%d", empty);
        sb_printf(out, "%s", y ? "/" : "");
    }
    if (!rc)
        sb_printf(out, " %c - - 0 1", v->side_to_move == 1 ? 'b' : 'w');
    *corner = lo;
    free(v);
    return rc;
}

/* Tile and a board (VariantRuleData.diff_squares): once the squares
 * variant is set up, the other game starts again from the same pieces
 * on its board, and coordinates are mapped by the box's corner. */
static int lay_on_board(Diff *d, Game *g[2], Error *e)
{
    int sq = -1, n = 0;
    for (int k = 0; k < 2; k++) {
        const VariantRuleData *rd = rule_data_of(d->set[k].v);
        if (rd && rd->diff_squares) {
            sq = k;
            n++;
        }
    }
    if (n != 1) /* none, or both on the plane: nothing to lay */
        return 0;
    StrBuf fen = STRBUF_INIT;
    Coord corner;
    if (board_fen(g[sq], &fen, &corner)) {
        sb_free(&fen);
        return 0;
    }
    int other = 1 - sq, status;
    CliOptions so = d->set[other].so;
    so.have_seed = 1;
    so.seed = d->seed;
    so.fen = sb_str(&fen);
    Game *ng = cli_start_game(&so, 0, e, &status);
    sb_free(&fen);
    if (!ng)
        return 0; /* the other rule set cannot hold that position */
    game_free(g[other]);
    g[other] = ng;
    d->squares = 1;
    d->shift = sq == 1 ? corner : coord_make(-corner.x, -corner.y);
    return 1;
}

static Game *start(const Diff *d, int side, Error *e)
{
    int status;
    CliOptions so = d->set[side].so;
    so.have_seed = 1;
    so.seed = d->seed;
    return cli_start_game(&so, 0, e, &status);
}

/* The first text of a game's rule data diff_keep ("pass|concede|bid 1|
 * fold") that its seat to act may type now, for the first game that asks
 * one: the game's index (its text in text), or -1 when neither does. */
static int keep_text(const Diff *d, Game *g[2], char *text, size_t size)
{
    for (int k = 0; k < 2; k++) {
        const VariantRuleData *rd = rule_data_of(d->set[k].v);
        int seat = game_to_act(g[k]);
        for (const char *t = rd && seat >= 0 ? rd->diff_keep : NULL; t && *t;) {
            size_t n = strcspn(t, "|");
            snprintf(text, size, "%.*s", (int)n, t);
            t += n + (t[n] == '|');
            Action a;
            Error e = {""};
            if (game_parse(g[k], seat, text, &a, &e) == 0)
                return k;
        }
    }
    return -1;
}

/* When one game asks its seat to decide where the other goes on, the
 * keep_text played in that game alone (the move let stand): 1. */
static int keep(const Diff *d, Game *g[2])
{
    char text[64];
    Error e = {""};
    int k = keep_text(d, g, text, sizeof text);
    return k >= 0 && game_play(g[k], game_to_act(g[k]), text, &e) == 0;
}

/* Does one game ask a decision its diff_keep answers? */
static int asks_decision(const Diff *d, Game *g[2])
{
    char text[64];
    return keep_text(d, g, text, sizeof text) >= 0;
}

/* The n-th line of the rule data of A, then B (NULL past the last). */
static const char *rule_line(const Diff *d, long n)
{
    for (int k = 0; k < 2; k++) {
        const VariantOps *v = d->set[k].v;
        const VariantRuleData *rd = rule_data_of(v);
        for (const RuleInfo *r = rd ? rd->rules : NULL; r && r->id; r++)
            if (r->line && n-- == 0)
                return r->line;
    }
    return NULL;
}

/* One line: both games from the start in step, texts drawn from those both
 * accept at random, or first those of a rule's line. */
static int play_line(Diff *d, long index, Error *e)
{
    const char *script = rule_line(d, index);
    Rng rng; /* each line its own stream: a rule's line changes no other */
    rng_seed(&rng, d->seed ^ mix64((uint64_t)index + 1));
    Game *g[2] = {start(d, 0, e), start(d, 1, e)};
    StrBuf line = STRBUF_INIT;
    int rc = 0, diverged = 0;
    d->squares = 0;
    d->shift = coord_make(0, 0);
    if (!g[0] || !g[1]) {
        rc = -1;
        goto out;
    }
    int aligned = 0, keeps = 0;
    for (int ply = 0; ply < DIFF_LINE_PLIES && d->plies < d->budget; ply++) {
        char **common;
        int ncommon;
        if (compare_here(d, g[0], g[1], sb_str(&line), ply, diverged, &common, &ncommon)) {
            rc = err_set(e, "%s", game_hook_error(g[0]) ? game_hook_error(g[0])
                                  : game_hook_error(g[1]) ? game_hook_error(g[1])
                                  : "out of memory");
            goto out;
        }
        if (!aligned) { /* the starts compared as they are, then lined up */
            aligned = 1;
            if ((align(d, g[0], 0) || align(d, g[1], 1)) && !ncommon) {
                texts_free(common, ncommon);
                break;
            }
            lay_on_board(d, g, e);
            if (!ncommon) {
                texts_free(common, ncommon);
                ply--;
                continue;
            }
        }
        /* a decision only one asks (which piece goes there, a battle's
         * answer): compared above, then the move let stand */
        if (!ncommon && keeps < 8 && keep(d, g)) {
            texts_free(common, ncommon);
            keeps++;
            ply--;
            continue;
        }
        keeps = 0;
        if (!ncommon || game_to_act(g[0]) < 0 || game_to_act(g[1]) < 0) {
            texts_free(common, ncommon);
            break;
        }
        const char *pick = NULL;
        size_t n = script ? strcspn(script, " ") : 0;
        if (n) { /* the rule's line, as long as both accept it */
            for (int i = 0; i < ncommon && !pick; i++) { /* either side's text */
                const char *tb = strchr(common[i], '\t') + 1;
                if ((strncmp(common[i], script, n) == 0 && common[i][n] == '\t') ||
                    (strncmp(tb, script, n) == 0 && !tb[n]))
                    pick = common[i];
            }
            script += n + (script[n] == ' ');
        } else {
            pick = common[rng_below(&rng, (uint32_t)ncommon)];
        }
        if (!pick) {
            texts_free(common, ncommon);
            break;
        }
        char text[2][ACTION_TEXT_MAX + 1];
        size_t tab = strcspn(pick, "\t");
        snprintf(text[0], sizeof text[0], "%.*s", (int)tab, pick);
        str_copy(text[1], sizeof text[1], pick + tab + 1);
        texts_free(common, ncommon);
        int sa = game_to_act(g[0]), sb = game_to_act(g[1]);
        View *before[2] = {view_of(g[0], sa), view_of(g[1], sb)};
        unsigned act_areas = action_areas(g[0], sa, text[0], before[0]);
        Error pe = {""};
        int ok = game_play(g[0], sa, text[0], &pe) == 0 && game_play(g[1], sb, text[1], &pe) == 0;
        d->plies++;
        if (!ok) {
            free(before[0]);
            free(before[1]);
            break;
        }
        /* a decision only one rule set asks right after the move (which
         * piece goes there, a battle's answer): compared, then the move let
         * stand, before the positions are compared */
        StrBuf after = STRBUF_INIT;
        sb_printf(&after, "%s%s%s", sb_str(&line), line.len ? "\n" : "", text[0]);
        for (int k = 0; k < 8 && game_to_act(g[0]) >= 0 && game_to_act(g[1]) >= 0; k++) {
            if (!asks_decision(d, g))
                break;
            char **c2;
            int n2;
            if (compare_here(d, g[0], g[1], sb_str(&after), ply + 1, diverged, &c2, &n2)) {
                sb_free(&after);
                free(before[0]);
                free(before[1]);
                rc = err_set(e, "out of memory");
                goto out;
            }
            texts_free(c2, n2);
            if (n2 || !keep(d, g))
                break;
        }
        sb_free(&after);
        Parting p;
        memset(&p, 0, sizeof p);
        p.ply = ply;
        p.seat_a = sa;
        p.seat_b = sb;
        p.diverged = diverged;
        str_copy(p.line, sizeof p.line, sb_str(&line));
        if (strcmp(text[0], text[1]))
            snprintf(p.action, sizeof p.action, "%s (B: %s)", text[0], text[1]);
        else
            str_copy(p.action, sizeof p.action, text[0]);
        sb_printf(&line, "%s%s", line.len ? "\n" : "", text[0]);
        Status s0, s1;
        game_status(g[0], &s0);
        game_status(g[1], &s1);
        int ended = s0.over || s1.over;
        if (s0.over != s1.over || (ended && (s0.winners != s1.winners))) {
            p.kind = PART_END;
            end_text(g[0], p.end_a, sizeof p.end_a);
            end_text(g[1], p.end_b, sizeof p.end_b);
            ids_in(d, &p, s0.reason);
            ids_in(d, &p, s1.reason);
            if (!p.areas)
                area_rules(d, &p, end_areas(g[0]) | end_areas(g[1]));
        } else if (!ended && !diverged && !same_pieces(g[0], g[1], d->shift)) {
            p.kind = PART_POSITION;
            area_rules(d, &p, act_areas);
            diverged = ply + 1; /* from here on the positions differ */
        }
        if (p.areas) {
            p.va = before[0];
            p.vb = before[1];
            part_keep(d, &p);
        } else {
            part_free(&p);
            free(before[0]);
            free(before[1]);
        }
        if (ended)
            break;
    }
out:
    sb_free(&line);
    game_free(g[0]);
    game_free(g[1]);
    d->lines++;
    return rc;
}

static int search(Diff *d, Error *e)
{
    for (long i = 0; d->plies < d->budget; i++) {
        long before = d->plies;
        if (play_line(d, i, e))
            return -1;
        if (d->plies == before && !rule_line(d, i))
            break; /* nothing is common past the start: every line is this one */
    }
    return 0;
}

/* ---- Practice: the experiment figures ------------------------------------------ */

typedef struct Practice {
    long games, white, black, draws, unfinished;
    Moments len;
} Practice;

static int practice(const Diff *d, int side, long games, Practice *pr, Error *e)
{
    memset(pr, 0, sizeof *pr);
    ExpInfo x;
    memset(&x, 0, sizeof x);
    Game *g0 = start(d, side, e);
    if (!g0)
        return -1;
    x.nsides = game_nsides(g0);
    x.nseats = game_nseats(g0);
    game_free(g0);
    x.games = games;
    x.seed = d->seed;
    x.max_plies = 1000;
    x.nsets = 1;
    for (long i = 0; i < games; i++) {
        CliOptions so = d->set[side].so;
        so.have_seed = 1;
        so.seed = exp_game_seed(d->seed, i / x.nseats);
        int status;
        Game *g = cli_start_game(&so, 0, e, &status);
        ExpGame r;
        if (!g || exp_play(&x, i, 0, g, &r, e)) {
            game_free(g);
            return -1;
        }
        game_free(g);
        pr->games++;
        stats_add(&pr->len, r.plies);
        if (!r.finished)
            pr->unfinished++;
        else if (!r.winners)
            pr->draws++;
        else if (r.winners & 1u)
            pr->white++;
        else
            pr->black++;
    }
    return 0;
}

/* ---- Output ----------------------------------------------------------------- */

static void set_name(const RuleSet *s, StrBuf *out)
{
    sb_printf(out, "%s", s->v->name);
    for (int i = 0; i < s->so.nparams; i++)
        sb_printf(out, " --param %s", s->so.params[i]);
    for (int i = 0; i < s->so.nrules; i++)
        sb_printf(out, " --rules %s", s->so.rules[i]);
}

/* The rule set's side and seat names for the renderers. */
static void names_of(const View *v, const RuleSet *s, RenderNames *n)
{
    (void)v;
    memset(n, 0, sizeof *n);
    n->nsides = s->nsides;
    for (int i = 0; i < n->nsides; i++)
        n->side[i] = s->side_name[i];
    n->nseats = s->nseats;
    for (int i = 0; i < n->nseats; i++)
        n->seat[i] = s->seat_name[i];
}

static const char *KIND_TEXT[] = {"", "the legal actions differ", "one seat sees less",
                                  "the same action leads to different positions",
                                  "the same line ends differently"};

static void areas_text(unsigned m, StrBuf *out)
{
    int first = 1;
    for (int a = 0; a < AREA__COUNT; a++)
        if (m & (1u << a)) {
            sb_printf(out, "%s%s", first ? "" : ", ", rule_area_name(a));
            first = 0;
        }
}

/* Items kept one a line, on one line: spaces between them, or commas when
 * an item holds a space itself ("place K e1"). */
static void items_text(StrBuf *out, const char *s)
{
    const char *sep = " ";
    for (const char *q = s; *q; q++)
        if (*q == ' ')
            sep = ", ";
    for (; *s; s++) {
        if (*s == '\n')
            sb_printf(out, "%s", sep);
        else
            sb_printf(out, "%c", *s);
    }
}

static void text_report(const Diff *d, const Practice *pr, StrBuf *out)
{
    StrBuf na = STRBUF_INIT, nb = STRBUF_INIT;
    set_name(&d->set[0], &na);
    set_name(&d->set[1], &nb);
    sb_printf(out, "A: %s (%s)\nB: %s (%s)\n\nWhat changes, by area:\n", sb_str(&na),
              d->set[0].v->title, sb_str(&nb), d->set[1].v->title);
    for (int a = 0; a < AREA__COUNT; a++) {
        int any = 0;
        for (int i = 0; i < d->nentries; i++)
            any |= d->entries[i].area == a;
        if (!any) {
            StrBuf ids = STRBUF_INIT;
            area_ids(d->set[0].v, a, &ids);
            sb_printf(out, "  %-19s the same%s%s%s\n", rule_area_name(a), ids.len ? " (" : "",
                      sb_str(&ids), ids.len ? ")" : "");
            sb_free(&ids);
            continue;
        }
        sb_printf(out, "  %-19s changes\n", rule_area_name(a));
        for (int i = 0; i < d->nentries; i++) {
            const Entry *e = &d->entries[i];
            if (e->area != a)
                continue;
            sb_printf(out, "    %s %s%s%s%s: %s\n", e->side ? "B" : "A", e->rules,
                      e->replaces[0] ? " (replaces " : "", e->replaces,
                      e->replaces[0] ? ")" : "", e->what);
        }
    }
    for (int i = 0; i < d->nentries; i++)
        if (d->entries[i].area < 0)
            sb_printf(out, "  %-19s %s %s: %s\n", "(any area)", d->entries[i].side ? "B" : "A",
                      d->entries[i].rules, d->entries[i].what);
    sb_printf(out, "\nPositions where they part (seed %llu, %ld plies in %ld lines: %ld "
                   "positions compared, %ld part; the first for each area):\n",
              (unsigned long long)d->seed, d->plies, d->lines, d->positions,
              d->parting_positions);
    if (!d->nparts)
        sb_printf(out, "  none found in this budget\n");
    RenderOpts ro;
    memset(&ro, 0, sizeof ro);
    ro.ascii = d->o->ascii;
    for (int i = 0; i < d->nparts; i++) {
        const Parting *p = &d->parts[i];
        StrBuf ar = STRBUF_INIT;
        areas_text(p->areas, &ar);
        sb_printf(out, "\n%d. %s: %s (%s)\n", i + 1, sb_str(&ar), KIND_TEXT[p->kind], p->rules);
        sb_free(&ar);
        sb_printf(out, "   after: ");
        items_text(out, p->line[0] ? p->line : "(the start)");
        sb_printf(out, "\n");
        if (p->diverged)
            sb_printf(out, "   (the positions differ since ply %d: the same moves, other "
                           "rules)\n", p->diverged);
        const View *vs[2] = {p->va, p->vb};
        int same_look = d->set[0].v == d->set[1].v;
        for (int k = 0; k < 2; k++) {
            if (!vs[k] || (k == 1 && same_look && vs[0]))
                continue;
            RenderNames n;
            names_of(vs[k], &d->set[k], &n);
            const char *who = vs[k]->seat >= 0 && vs[k]->seat < n.nseats ? n.seat[vs[k]->seat]
                                                                          : "nobody";
            sb_printf(out, "   %s%s, %s to act (%s's view):\n", same_look ? "" : k ? "B " : "A ",
                      same_look ? "both" : d->set[k].v->name, who, who);
            render_board(vs[k], &ro, out);
        }
        if (p->kind == PART_ACTIONS) {
            sb_printf(out, "   only in A (%d): ", p->n_only_a);
            items_text(out, p->n_only_a ? sb_str(&p->only_a) : "none");
            sb_printf(out, "%s\n   only in B (%d): ", p->n_only_a > DIFF_LIST_SHOWN ? " ..." : "",
                      p->n_only_b);
            items_text(out, p->n_only_b ? sb_str(&p->only_b) : "none");
            sb_printf(out, "%s\n", p->n_only_b > DIFF_LIST_SHOWN ? " ..." : "");
        } else if (p->kind == PART_VIEWS) {
            sb_printf(out, "   the seat to act sees %s's pieces masked where %s shows them\n",
                      view_hides(p->va) ? "A" : "B", view_hides(p->va) ? "B" : "A");
        } else {
            sb_printf(out, "   the action: %s\n", p->action);
        }
        if (p->kind == PART_END)
            sb_printf(out, "   A: %s\n   B: %s\n", p->end_a, p->end_b);
        for (const char *w = p->why; *w;) {
            size_t len = strcspn(w, "\n");
            sb_printf(out, "   %.*s\n", (int)len, w);
            w += len + (w[len] == '\n');
        }
    }
    unsigned missing = d->changed & ~d->found;
    if (missing) {
        StrBuf m = STRBUF_INIT;
        areas_text(missing, &m);
        sb_printf(out, "\nNo parting found in this budget for: %s\n", sb_str(&m));
        sb_free(&m);
    }
    if (pr) {
        sb_printf(out, "\nIn practice (%ld random games each, seed %llu):\n", pr[0].games,
                  (unsigned long long)d->seed);
        sb_printf(out, "                       A                 B\n");
        const char *label[] = {"white wins", "black wins", "draws", "decisive games"};
        for (int r = 0; r < 4; r++) {
            sb_printf(out, "  %-16s", label[r]);
            for (int k = 0; k < 2; k++) {
                long c = r == 0 ? pr[k].white : r == 1 ? pr[k].black : r == 2 ? pr[k].draws
                       : pr[k].white + pr[k].black;
                Interval iv = stats_wilson(c, pr[k].games, STATS_Z95);
                double v = pr[k].games ? 100.0 * (double)c / (double)pr[k].games : 0;
                sb_printf(out, "  %5.1f%% +- %4.1f   ", v, 50.0 * (iv.hi - iv.lo));
            }
            sb_printf(out, "\n");
        }
        sb_printf(out, "  %-16s", "length (plies)");
        for (int k = 0; k < 2; k++) {
            Interval iv = stats_mean_interval(&pr[k].len, STATS_Z95);
            sb_printf(out, "  %6.1f +- %5.1f   ", stats_mean(&pr[k].len), (iv.hi - iv.lo) / 2);
        }
        sb_printf(out, "\n");
    }
    sb_free(&na);
    sb_free(&nb);
}

static void json_set(StrBuf *out, const RuleSet *s)
{
    sb_printf(out, "{\"variant\":");
    sb_json_str(out, s->v->name);
    sb_printf(out, ",\"params\":[");
    for (int i = 0; i < s->so.nparams; i++) {
        sb_printf(out, "%s", i ? "," : "");
        sb_json_str(out, s->so.params[i]);
    }
    sb_printf(out, "],\"rules\":[");
    for (int i = 0; i < s->so.nrules; i++) {
        sb_printf(out, "%s", i ? "," : "");
        sb_json_str(out, s->so.rules[i]);
    }
    sb_printf(out, "]}");
}

static void json_areas(StrBuf *out, unsigned m)
{
    int first = 1;
    sb_printf(out, "[");
    for (int a = 0; a < AREA__COUNT; a++)
        if (m & (1u << a)) {
            sb_printf(out, "%s\"%s\"", first ? "" : ",", rule_area_word(a));
            first = 0;
        }
    sb_printf(out, "]");
}

/* The items of s, split at sep, as a JSON list. */
static void json_list(StrBuf *out, const char *s, const char *sep)
{
    sb_printf(out, "[");
    int first = 1;
    while (s && *s) {
        size_t n = strcspn(s, sep);
        if (n) {
            char w[128];
            snprintf(w, sizeof w, "%.*s", (int)n, s);
            sb_printf(out, "%s", first ? "" : ",");
            sb_json_str(out, w);
            first = 0;
        }
        s += n + (s[n] != 0);
    }
    sb_printf(out, "]");
}

static void json_words(StrBuf *out, const char *s)
{
    json_list(out, s, " ");
}

static void json_report(const Diff *d, const Practice *pr, StrBuf *out)
{
    sb_printf(out, "{\"a\":");
    json_set(out, &d->set[0]);
    sb_printf(out, ",\"b\":");
    json_set(out, &d->set[1]);
    sb_printf(out, ",\"card\":[");
    for (int a = 0; a < AREA__COUNT; a++) {
        StrBuf ids = STRBUF_INIT;
        area_ids(d->set[0].v, a, &ids);
        sb_printf(out, "%s{\"area\":\"%s\",\"name\":\"%s\",\"changes\":%s,\"same\":", a ? "," : "",
                  rule_area_word(a), rule_area_name(a), d->changed & (1u << a) ? "true" : "false");
        json_words(out, sb_str(&ids));
        sb_free(&ids);
        sb_printf(out, ",\"lines\":[");
        int first = 1;
        for (int i = 0; i < d->nentries; i++) {
            const Entry *e = &d->entries[i];
            if (e->area != a)
                continue;
            sb_printf(out, "%s{\"side\":\"%s\",\"by\":", first ? "" : ",", e->side ? "B" : "A");
            sb_json_str(out, e->rules);
            sb_printf(out, ",\"replaces\":");
            json_words(out, e->replaces);
            sb_printf(out, ",\"what\":");
            sb_json_str(out, e->what);
            sb_printf(out, "}");
            first = 0;
        }
        sb_printf(out, "]}");
    }
    sb_printf(out, "],\"undeclared\":[");
    int first = 1;
    for (int i = 0; i < d->nentries; i++)
        if (d->entries[i].area < 0) {
            sb_printf(out, "%s{\"side\":\"%s\",\"script\":", first ? "" : ",",
                      d->entries[i].side ? "B" : "A");
            sb_json_str(out, d->entries[i].rules);
            sb_printf(out, ",\"what\":");
            sb_json_str(out, d->entries[i].what);
            sb_printf(out, "}");
            first = 0;
        }
    sb_printf(out, "],\"search\":{\"seed\":%llu,\"budget\":%ld,\"plies\":%ld,\"lines\":%ld,"
                   "\"positions\":%ld,\"parting_positions\":%ld,\"missing\":",
              (unsigned long long)d->seed, d->budget, d->plies, d->lines, d->positions,
              d->parting_positions);
    json_areas(out, d->changed & ~d->found);
    sb_printf(out, "},\"partings\":[");
    for (int i = 0; i < d->nparts; i++) {
        const Parting *p = &d->parts[i];
        static const char *const KIND[] = {"", "actions", "views", "position", "end"};
        sb_printf(out, "%s{\"kind\":\"%s\",\"areas\":", i ? "," : "", KIND[p->kind]);
        json_areas(out, p->areas);
        sb_printf(out, ",\"rules\":");
        json_words(out, p->rules);
        sb_printf(out, ",\"ply\":%d,\"diverged\":", p->ply);
        if (p->diverged)
            sb_printf(out, "%d", p->diverged);
        else
            sb_printf(out, "null");
        sb_printf(out, ",\"line\":");
        json_list(out, p->line, "\n");
        sb_printf(out, ",\"only_a\":");
        json_list(out, sb_str(&p->only_a), "\n");
        sb_printf(out, ",\"n_only_a\":%d,\"only_b\":", p->n_only_a);
        json_list(out, sb_str(&p->only_b), "\n");
        sb_printf(out, ",\"n_only_b\":%d,\"action\":", p->n_only_b);
        if (p->action[0])
            sb_json_str(out, p->action);
        else
            sb_printf(out, "null");
        sb_printf(out, ",\"why\":");
        sb_json_str(out, p->why);
        if (p->kind == PART_END) {
            sb_printf(out, ",\"end_a\":");
            sb_json_str(out, p->end_a);
            sb_printf(out, ",\"end_b\":");
            sb_json_str(out, p->end_b);
        }
        const View *vs[2] = {p->va, p->vb};
        for (int k = 0; k < 2; k++) {
            sb_printf(out, ",\"view_%s\":", k ? "b" : "a");
            if (!vs[k]) {
                sb_printf(out, "null");
                continue;
            }
            RenderNames n;
            names_of(vs[k], &d->set[k], &n);
            render_view_json(vs[k], &n, NULL, 0, out);
        }
        if (d->svg)
            for (int k = 0; k < 2; k++) {
                sb_printf(out, ",\"svg_%s\":", k ? "b" : "a");
                if (!vs[k]) {
                    sb_printf(out, "null");
                    continue;
                }
                DrawOpts o;
                memset(&o, 0, sizeof o);
                o.nsides = d->set[k].nsides;
                for (int j = 0; j < o.nsides; j++)
                    o.side[j] = d->set[k].side_name[j];
                o.label = k ? "B" : "A";
                StrBuf svg = STRBUF_INIT;
                Error e;
                if (draw_svg(vs[k], &o, &svg, &e))
                    sb_printf(out, "null"); /* a plane too wide to draw: the view says it */
                else
                    sb_json_str(out, sb_str(&svg));
                sb_free(&svg);
            }
        sb_printf(out, "}");
    }
    sb_printf(out, "]");
    if (pr) {
        sb_printf(out, ",\"practice\":[");
        for (int k = 0; k < 2; k++) {
            Interval iv = stats_mean_interval(&pr[k].len, STATS_Z95);
            sb_printf(out, "%s{\"set\":\"%s\",\"games\":%ld,\"white_wins\":%ld,\"black_wins\":%ld,"
                           "\"draws\":%ld,\"unfinished\":%ld,\"decisive\":%ld,"
                           "\"length\":%.2f,\"length_lo\":%.2f,\"length_hi\":%.2f}",
                      k ? "," : "", k ? "B" : "A", pr[k].games, pr[k].white, pr[k].black,
                      pr[k].draws, pr[k].unfinished, pr[k].white + pr[k].black,
                      stats_mean(&pr[k].len), iv.lo, iv.hi);
        }
        sb_printf(out, "]");
    }
    sb_printf(out, "}\n");
}

/* ---- The command -------------------------------------------------------------- */

static int set_up(Diff *d, int side, Error *e)
{
    const CliOptions *o = d->o;
    RuleSet *s = &d->set[side];
    s->so = *o;
    s->so.variant = side ? o->variant_b : o->variant;
    s->v = s->so.variant;
    s->label[0] = side ? 'B' : 'A';
    if (side) {
        s->so.nparams = o->cmp_nparams;
        memcpy(s->so.params, o->cmp_params, sizeof s->so.params);
        s->so.nrules = o->cmp_nrules;
        memcpy(s->so.rules, o->cmp_rules, sizeof s->so.rules);
        s->so.house = o->cmp_house;
    }
    s->house = s->so.house;
    s->so.compare = 0;
    /* the card reads the parameters as given; the games also read other
     * rule sets' texts (diff_params, docs/TEACHING.md) */
    int status;
    Game *g = cli_start_game(&s->so, 0, e, &status);
    if (!g)
        return err_prefix(e, "%s", s->label), -1;
    s->params = *game_params(g);
    RenderNames n;
    cli_names(g, &n);
    s->nsides = n.nsides < MAX_SIDES ? n.nsides : MAX_SIDES;
    s->nseats = n.nseats < MAX_SEATS ? n.nseats : MAX_SEATS;
    for (int i = 0; i < s->nsides; i++)
        str_copy(s->side_name[i], sizeof s->side_name[i], n.side[i]);
    for (int i = 0; i < s->nseats; i++)
        str_copy(s->seat_name[i], sizeof s->seat_name[i], n.seat[i]);
    game_free(g);
    const VariantRuleData *rd = rule_data_of(s->v);
    if (rd && rd->diff_params) {
        const char *p = rd->diff_params;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(p, "="), p);
        int given = 0;
        for (int i = 0; i < s->so.nparams; i++)
            given |= strncmp(s->so.params[i], name, strlen(name)) == 0 &&
                     s->so.params[i][strlen(name)] == '=';
        if (!given && s->so.nparams < CLI_MAX_PARAMS)
            s->so.params[s->so.nparams++] = p;
    }
    return 0;
}

int cli_diff_report(const CliOptions *o, int svg, StrBuf *out, Error *e)
{
    Diff *d = calloc(1, sizeof *d);
    if (!d)
        return err_set(e, "out of memory"), CLI_EXIT_FAIL;
    d->o = o;
    d->svg = svg;
    d->seed = o->have_seed ? o->seed : 1;
    d->budget = o->budget ? o->budget : DIFF_DEFAULT_BUDGET;
    int rc = CLI_EXIT_OK;
    if (set_up(d, 0, e) || set_up(d, 1, e)) {
        free(d);
        return CLI_EXIT_USAGE;
    }
    build_card(d);
    /* the card's parameters are the user's: the extra ones are for reading */
    Practice pr[2];
    if (search(d, e) ||
        (o->practice && (practice(d, 0, o->practice, &pr[0], e) ||
                         practice(d, 1, o->practice, &pr[1], e)))) {
        rc = CLI_EXIT_FAIL;
    } else if (o->json || svg) {
        json_report(d, o->practice ? pr : NULL, out);
    } else {
        text_report(d, o->practice ? pr : NULL, out);
    }
    for (int i = 0; i < d->nparts; i++)
        part_free(&d->parts[i]);
    free(d);
    if (rc == CLI_EXIT_OK && out->failed)
        return err_set(e, "out of memory"), CLI_EXIT_FAIL;
    return rc;
}

int cli_diff(const CliOptions *o)
{
    Error e = {""};
    StrBuf out = STRBUF_INIT;
    int rc = cli_diff_report(o, 0, &out, &e);
    if (rc == CLI_EXIT_OK)
        fputs(sb_str(&out), stdout);
    else
        fprintf(stderr, "chessvar diff: %s\n", e.msg);
    sb_free(&out);
    return rc;
}
