/*
 * why.c -- the rule behind an action of Échecs ambigus (issue 22, `why`;
 * VariantOps.why): naming a square (AMBI-1), the opponent's choice of the
 * piece (AMBI-2) and of a promotion (AMBI-3), the King taken (AMBI-4).
 * Nothing is hidden in this variant.
 */
#include <string.h>

#include "amb.h"

static const WhyWords OVER[] = {
    {"no square", "AMBI-5"}, {"mate", "AMBI-6"},      {"King", "AMBI-4"},
    {"resigned", "ORTH-8"},  {"agreement", "ORTH-8"}, {"", "ORTH-9"},
    {NULL, NULL}};
static const WhyWords NAMING[] = {
    {"piece can go to", "AMBI-1"}, {"may not be named", "AMBI-1"},
    {"names a square now", "AMBI-1 AMBI-2"}, {NULL, NULL}};
static const WhyWords CHOOSING[] = {
    {"promot", "AMBI-3"}, {"becomes", "AMBI-3"}, {"choose", "AMBI-2"},
    {"choice", "AMBI-2"}, {NULL, NULL}};

int amb_why(const Game *g, const void *st, int seat, const Action *a,
            const char *refusal, WhyRule *out)
{
    const AmbState *s = st;
    char sq[3];
    (void)g;
    (void)seat;
    if (!a) {
        if (!strncmp(refusal, "the game is over", 16))
            return why_words(refusal, OVER, out);
        if (strstr(refusal, "turn to act"))
            return why_set(out, s->phase == AP_CHOOSE ? "AMBI-2" : "AMBI-1", "%s", "");
        return why_words(refusal, s->phase == AP_CHOOSE ? CHOOSING : NAMING, out);
    }
    if (a->kind == ACT_MOVE) {
        chess_square_name((int)a->code & 63, sq);
        if (a->flags & AMB_KING)
            return why_set(out, "AMBI-4", "%s is the enemy King's square: naming it wins "
                           "at once, whichever piece would go", sq);
        if (a->flags & AMB_AMBIGUOUS)
            return why_set(out, "AMBI-1 AMBI-2", "several of your pieces can reach %s: "
                           "you name the square and your opponent chooses which goes", sq);
        return why_set(out, "AMBI-1 AMBI-2", "only one of your pieces can reach %s: naming it "
                       "plays that move at once", sq);
    }
    if (a->kind == ACT_CHOOSE) {
        chess_square_name((int)MOVE_TO((Move)a->code), sq);
        if (a->figure)
            return why_set(out, "AMBI-2 AMBI-3", "your opponent named %s: you choose "
                           "which of its pieces goes there, and what a pawn becomes", sq);
        return why_set(out, "AMBI-2", "your opponent named %s: you choose which of its "
                       "pieces goes there", sq);
    }
    return -1;
}
