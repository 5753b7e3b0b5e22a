/*
 * action.c -- figures, action kinds and lists of actions.
 */
#include "action.h"

#include <ctype.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char FIG_LETTERS[FIG__COUNT] = {0, 'P', 'N', 'B', 'R', 'Q', 'K', '?'};
static const char *const FIG_NAMES[FIG__COUNT] = {
    "none", "pawn", "knight", "bishop", "rook", "queen", "king", "masked piece"};

char figure_letter(int fig)
{
    if (figure_is_lettered(fig))
        return (char)('A' + (fig - FIG_LETTERED_FIRST));
    if (fig == FIG_DUCK)
        return '*';
    return fig > 0 && fig < FIG__COUNT ? FIG_LETTERS[fig] : 0;
}

int figure_from_letter(char c)
{
    c = (char)toupper((unsigned char)c);
    for (int f = FIG_PAWN; f <= FIG_KING; f++)
        if (FIG_LETTERS[f] == c)
            return f;
    return FIG_NONE;
}

int figure_from_any_letter(char c)
{
    int f = figure_from_letter(c);
    c = (char)toupper((unsigned char)c);
    if (f != FIG_NONE || c < 'A' || c > 'Z')
        return f;
    return FIG_LETTERED(c);
}

const char *figure_name(int fig)
{
    static const char *const LETTERS[26] = {
        "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
        "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X", "Y", "Z"};
    if (figure_is_lettered(fig))
        return LETTERS[fig - FIG_LETTERED_FIRST];
    if (fig == FIG_DUCK)
        return "duck";
    return fig >= 0 && fig < FIG__COUNT ? FIG_NAMES[fig] : "?";
}

static const char *const KIND_NAMES[ACT__COUNT] = {
    "none", "move", "place", "reveal", "announce", "bid", "call", "fold",
    "choose", "giveup", "pass", "resign", "draw-offer", "draw-accept",
    "draw-decline", "draw-claim", "takeover"};

const char *action_kind_name(int kind)
{
    return kind >= 0 && kind < ACT__COUNT ? KIND_NAMES[kind] : "?";
}

int action_eq(const Action *a, const Action *b)
{
    /* Field by field: the struct has padding that memcmp would read.
     * `note` is left out on purpose: it is a remark, not the action. */
    return a->kind == b->kind && a->seat == b->seat && a->figure == b->figure &&
           a->flags == b->flags && coord_eq(a->from, b->from) &&
           coord_eq(a->to, b->to) && a->amount == b->amount &&
           a->code == b->code && a->set == b->set;
}

void al_init(ActionList *l) { l->v = NULL; l->n = l->cap = l->failed = 0; }

void al_free(ActionList *l)
{
    free(l->v);
    al_init(l);
}

void al_clear(ActionList *l) { l->n = 0; l->failed = 0; }

Action *al_extend(ActionList *l, int n)
{
    if (n < 0 || l->n > INT_MAX - n) {
        l->failed = 1;
        return NULL;
    }
    if (l->n + n > l->cap) {
        int cap = l->cap ? l->cap : 64;
        while (cap < l->n + n)
            cap = cap > INT_MAX / 2 ? l->n + n : cap * 2;
        Action *v = cv_realloc(l->v, (size_t)cap * sizeof *v);
        if (!v) {
            l->failed = 1;
            return NULL;
        }
        l->v = v;
        l->cap = cap;
    }
    Action *first = l->v + l->n;
    memset(first, 0, sizeof *first * (size_t)n);
    l->n += n;
    return first;
}

Action *al_push(ActionList *l, const Action *a)
{
    Action *slot = al_extend(l, 1);
    if (slot)
        *slot = *a;
    return slot;
}

int al_find(const ActionList *l, const Action *a)
{
    for (int i = 0; i < l->n; i++)
        if (action_eq(&l->v[i], a))
            return i;
    return -1;
}
