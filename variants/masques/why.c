/*
 * why.c -- the rule behind an action of Les Échecs Masqués (issue 22,
 * `why`; VariantOps.why).  A legal action is one of the asking seat's own:
 * what it says of the piece (its figure, masked or not) its owner knows.
 * A refusal is the parse error the seat would have met; its rule follows
 * from the phase (public) and the refusal's words.
 */
#include <string.h>

#include "mq.h"

/* The end first (its reason may say anything), then the words of the
 * play phase's refusals (text.c, why_move), most particular first. */
static const WhyWords PLAY_REFUSALS[] = {
    {"castl", "MASQ-15"},
    {"last rank", "MASQ-3"},
    {"becomes", "MASQ-3 ORTH-4"},
    {"reveal comes with", "MASQ-5"},
    {"revealed already", "MASQ-5"},
    {"is your", "MASQ-5"},
    {"moves like a pawn", "MASQ-2"},
    {"masked piece", "MASQ-2"},
    {"no battle, announcement", "MASQ-8"},
    {"cannot go to", "ORTH-2"},
    {"no piece on", "ORTH-2"},
    {"not yours", "ORTH-2"},
    {NULL, NULL}};

/* The rule of a phase: whose decision it is and what it may be. */
static const char *phase_rule(const MqState *s)
{
    switch (s->phase) {
    case PH_SETUP: return "MASQ-1";
    case PH_ANNOUNCE:
    case PH_ANSWER: return s->ann_mate ? "MASQ-7" : "MASQ-6";
    case PH_BATTLE: return "MASQ-9";
    case PH_BID:
    case PH_GIVEUP: return "MASQ-10";
    case PH_PLAY: return "ORTH-1";
    default: return "MASQ-16";
    }
}

static int why_refused(const MqState *s, const char *refusal, WhyRule *out)
{
    if (strstr(refusal, "not an action here"))
        return -1; /* a text no rule reads: an error */
    if (!strncmp(refusal, "the game is over", 16))
        return why_set(out, "MASQ-16", "%s", "");
    if (strstr(refusal, "turn to act"))
        return why_set(out, phase_rule(s), "%s", "");
    if (s->phase == PH_PLAY)
        return why_words(refusal, PLAY_REFUSALS, out);
    if (strstr(refusal, "all-in"))
        return why_set(out, "MASQ-11", "%s", "");
    return why_set(out, phase_rule(s), "%s", "");
}

/* A move or reveal of the play phase. */
static int why_play(const Game *g, const MqState *s, const Action *a, WhyRule *out)
{
    MqMove m;
    if (mq_find_move(g, s, a, &m))
        return -1;
    const MqPiece *p = &s->pc[s->at[m.from]];
    const char *fig = MQ_FIG_NAMES[p->fig];
    char to[3];
    mq_sq(m.to, to);
    if (m.flags & MV_CASTLE)
        return why_set(out, "MASQ-15", "castling as in orthodox chess, King and Rook on "
                       "their squares since setup; it reveals both");
    if (m.flags & MV_RIGHT)
        return why_set(out, "MASQ-6 MASQ-12", "the mask check announced on the piece on "
                       "%s gives the right to take it without battle and without reveal",
                       to);
    if (m.flags & MV_BATTLE) {
        if (mq_masked(p) && !(m.flags & MV_REVEAL))
            return why_set(out, "MASQ-8 MASQ-10", "an attack on a masked piece starts a "
                           "battle; your attacker is masked, so the sides bid (a masked "
                           "battle)");
        return why_set(out, "MASQ-8 MASQ-9", "an attack on a masked piece starts a battle; "
                       "your attacker (your %s) is revealed, so the defender reveals or "
                       "not, and strength decides", fig);
    }
    if ((m.flags & MV_REVEAL) && m.to == m.from)
        return why_set(out, "MASQ-3", "your masked Pawn on its last rank is revealed and "
                       "becomes a %s", MQ_FIG_NAMES[m.promo]);
    if (m.flags & MV_REVEAL)
        return why_set(out, "MASQ-5", "you reveal your %s and move it by its figure, as "
                       "one action", fig);
    if (mq_masked(p)) {
        if (m.flags & MV_EP)
            return why_set(out, "MASQ-2", "a masked piece takes en passant, as a pawn, a "
                           "piece that has just stepped two");
        if (m.flags & MV_CAPTURE)
            return why_set(out, "MASQ-4", "a masked piece takes a revealed one as in "
                           "orthodox chess, with no battle, and stays masked");
        return why_set(out, "MASQ-2", "a masked piece moves like a pawn: one square "
                       "forward, two from its setup square while it has not moved");
    }
    if (m.promo)
        return why_set(out, "ORTH-4", "your revealed Pawn reaches the last rank and "
                       "becomes a %s", MQ_FIG_NAMES[m.promo]);
    if (m.flags & MV_EP)
        return why_set(out, "ORTH-3", "en passant");
    return why_set(out, "ORTH-2", "a revealed piece moves by its figure (your %s)%s", fig,
                   (m.flags & MV_CAPTURE) ? " and takes a revealed piece as in orthodox "
                                            "chess" : "");
}

int mq_why(const Game *g, const void *st, int seat, const Action *a,
           const char *refusal, WhyRule *out)
{
    const MqState *s = st;
    (void)seat;
    if (!a)
        return why_refused(s, refusal, out);
    switch (a->kind) {
    case ACT_PLACE:
        return why_set(out, "MASQ-1", "each side puts its sixteen pieces, masked, on its "
                       "own two home ranks");
    case ACT_MOVE:
        return why_play(g, s, a, out);
    case ACT_REVEAL:
        if (s->phase == PH_PLAY)
            return why_play(g, s, a, out);
        if (s->phase == PH_BATTLE)
            return why_set(out, "MASQ-9", "the defender of a simple battle may reveal: "
                           "strength decides");
        return why_set(out, s->ann_mate ? "MASQ-7" : "MASQ-6", "the owner of a piece "
                       "under mask %s reveals it%s", s->ann_mate ? "mate" : "check",
                       s->ann_mate ? " (it must)" : " or keeps it masked");
    case ACT_ANNOUNCE:
        if (a->amount == ANN_MATE)
            return why_set(out, "MASQ-7", "the threatened masked piece cannot be brought "
                           "out of the threat: a mask mate may be announced");
        return why_set(out, "MASQ-6", "your move made a piece threaten this masked piece: "
                       "a mask check may be announced");
    case ACT_PASS:
        if (s->phase == PH_ANSWER)
            return why_set(out, "MASQ-6", "the owner of a piece under mask check may keep "
                           "it masked");
        return why_set(out, "MASQ-6", "a mask check is never required");
    case ACT_FOLD:
        if (s->phase == PH_BATTLE)
            return why_set(out, "MASQ-9", "the defender of a simple battle may concede: its "
                           "piece is removed without reveal");
        return why_set(out, "MASQ-10", "a side may fold: its battling piece is removed "
                       "without reveal");
    case ACT_BID:
        if (a->amount == mq_threshold(g))
            return why_set(out, "MASQ-10 MASQ-11", "a bid of the all-in, %d, decides the "
                           "game if called", a->amount);
        if (!s->bid)
            return why_set(out, "MASQ-10", "the attacker bids first, at least 1");
        return why_set(out, "MASQ-10", "a raise above the last bid (%d)", s->bid);
    case ACT_CALL:
        return why_set(out, "MASQ-10", "a bid stands: calling reveals both battling pieces");
    case ACT_GIVEUP:
        return why_set(out, "MASQ-10", "the loser of the masked battle gives up pieces "
                       "worth at least the bid, its battling piece among them");
    default:
        return -1; /* the meta actions: the core's */
    }
}
