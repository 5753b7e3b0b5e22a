/*
 * why.c -- "why is this action legal or not?" (issue 22, point 2).
 *
 * game_why reads an action's text as the seat would play it, and names
 * the rule behind the answer: for a legal action the variant's why op
 * says which rule makes it legal; for a refused one the refusal itself
 * (the variant's parse error, or the core's) is the answer, with the rule
 * ids it names, else the ones the variant's op finds for it; an action a
 * house rule's veto forbids names the script and its reason.  Nothing in
 * an answer is new to the seat: a refusal is what playing the text would
 * have said, and the op speaks of the seat's own legal actions.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "game.h"

int why_words(const char *refusal, const WhyWords *t, WhyRule *out)
{
    for (; t->words; t++)
        if (strstr(refusal, t->words)) {
            str_copy(out->ids, sizeof out->ids, t->ids);
            return 0;
        }
    return -1;
}

int why_set(WhyRule *out, const char *ids, const char *fmt, ...)
{
    va_list ap;
    str_copy(out->ids, sizeof out->ids, ids);
    va_start(ap, fmt);
    vsnprintf(out->say, sizeof out->say, fmt, ap);
    va_end(ap);
    return 0;
}

/* Is s[0..] a rule id: four capitals, '-', digits? Its length, else 0. */
static size_t rule_id_at(const char *s)
{
    size_t i = 0;
    while (i < 4 && s[i] >= 'A' && s[i] <= 'Z')
        i++;
    if (i != 4 || s[4] != '-' || !isdigit((unsigned char)s[5]))
        return 0;
    i = 5;
    while (isdigit((unsigned char)s[i]))
        i++;
    return isalnum((unsigned char)s[i]) ? 0 : i;
}

/* The rule ids a text names, space-separated in ids (each once). */
static void ids_in(const char *text, char *ids, size_t n)
{
    ids[0] = '\0';
    for (const char *p = text; *p; p++) {
        if (p > text && isalnum((unsigned char)p[-1]))
            continue;
        size_t k = rule_id_at(p);
        if (!k)
            continue;
        char id[24];
        snprintf(id, sizeof id, "%.*s", (int)k, p);
        size_t used = strlen(ids);
        const char *seen = strstr(ids, id);
        if ((!seen || (seen[k] && seen[k] != ' ')) && used + k + 2 < n)
            snprintf(ids + used, n - used, "%s%s", used ? " " : "", id);
        p += k - 1;
    }
}

/* The core's rules for the meta actions, when the variant names none. */
static int meta_rule(int kind, WhyRule *r)
{
    switch (kind) {
    case ACT_RESIGN:
        return why_set(r, "ORTH-8", "a player may resign");
    case ACT_DRAW_OFFER:
        return why_set(r, "ORTH-8", "a draw may be offered");
    case ACT_DRAW_ACCEPT:
    case ACT_DRAW_DECLINE:
        return why_set(r, "ORTH-8", "a draw offer stands, to accept or decline");
    case ACT_DRAW_CLAIM:
        return why_set(r, "ORTH-9",
                       "the position has occurred three times, or fifty moves "
                       "passed without a capture or a pawn move");
    default:
        return -1;
    }
}

/* The meta word a text is ("resign", "draw" ...), or 0. */
static int meta_kind(const char *text)
{
    static const struct {
        const char *word;
        int kind;
    } words[] = {{"resign", ACT_RESIGN},        {"draw", ACT_DRAW_OFFER},
                 {"offer", ACT_DRAW_OFFER},     {"accept", ACT_DRAW_ACCEPT},
                 {"decline", ACT_DRAW_DECLINE}, {"claim", ACT_DRAW_CLAIM}};
    for (size_t i = 0; i < ARRAY_LEN(words); i++)
        if (str_ieq(text, words[i].word))
            return words[i].kind;
    return 0;
}

static int ask_variant(const Game *g, int seat, const Action *a, const char *refusal,
                       WhyRule *r)
{
    const VariantOps *v = game_variant(g);
    memset(r, 0, sizeof *r);
    if (v->version < 7 || !v->why)
        return -1;
    if (v->why(g, game_state(g), seat, a, refusal, r) || !r->ids[0])
        return -1;
    return 0;
}

/* The refusal without its leading "TEXT: " (the answer names the text). */
static const char *refusal_body(const char *msg, const char *text)
{
    size_t n = strlen(text);
    if (strncmp(msg, text, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ')
        return msg + n + 2;
    return msg;
}

static int answer_refused(const Game *g, int seat, const char *text, const char *msg,
                          WhyAnswer *out, Error *e)
{
    WhyRule r;
    char named[sizeof out->rules];
    ids_in(msg, named, sizeof named);
    if (ask_variant(g, seat, NULL, msg, &r) && !named[0]) {
        int kind = meta_kind(text);
        if (!kind || meta_rule(kind, &r))
            return err_set(e, "%s", msg); /* no rule's: the text is at fault */
    }
    if (named[0])
        str_copy(out->rules, sizeof out->rules, named);
    else
        str_copy(out->rules, sizeof out->rules, r.ids);
    /* the variant's clause where the refusal names no rule (a generic
     * "not a legal move"), else the refusal's own words */
    const char *body = !named[0] && r.say[0] ? r.say : refusal_body(msg, text);
    snprintf(out->text, sizeof out->text, "%s is illegal: %s%s%s%s", text, body,
             named[0] ? "" : " (", named[0] ? "" : out->rules, named[0] ? "" : ")");
    return 0;
}

int game_why(const Game *g, int seat, const char *text, WhyAnswer *out, Error *e)
{
    memset(out, 0, sizeof *out);
    if (strlen(text) > ACTION_TEXT_MAX)
        return err_set(e, "the action text is too long (%zu bytes; at most %d)",
                       strlen(text), ACTION_TEXT_MAX);
    char buf[ACTION_TEXT_MAX + 1];
    str_copy(buf, sizeof buf, text);
    str_trim(buf);
    if (!buf[0])
        return err_set(e, "why what? name an action after why (why ACTION)");
    if (seat < 0 || seat >= game_nseats(g))
        return err_set(e, "there is no seat %d (the seats are 0 to %d)", seat,
                       game_nseats(g) - 1);
    char q[64];
    str_copy(out->action, sizeof out->action, str_clip(q, sizeof q, buf));

    Action a;
    Error pe = {""};
    const VariantOps *v = game_variant(g);
    ActionList seq = ACTIONLIST_INIT;
    int rc = v->parse_seq ? v->parse_seq(g, game_state(g), seat, buf, &seq, &pe) : 0;
    if (rc < 0) { /* a text for several actions (an arrangement), refused */
        al_free(&seq);
        return answer_refused(g, seat, out->action, pe.msg, out, e);
    }
    if (rc > 0 && (seq.failed || !seq.n)) {
        al_free(&seq);
        return err_set(e, seq.failed ? "out of memory" : "%s stands for no action",
                       out->action);
    }
    if (rc == 0 && game_parse_unvetted(g, seat, buf, &a, &pe)) {
        if (game_hook_error(g)) /* a broken hook: an error, never a verdict */
            return err_set(e, "%s", game_hook_error(g));
        return answer_refused(g, seat, out->action, pe.msg, out, e);
    }
    int nseq = rc > 0 ? seq.n : 1;
    if (rc > 0)
        a = seq.v[0];
    al_free(&seq);
    /* A house rule's veto of the action: of a sequence's first, the one
     * played in this state (each later one is judged in the state the one
     * before it makes, when it is played). */
    if (!action_is_meta(a.kind)) {
        char why[256];
        int vetoed = game_vetoed(g, &a, why, sizeof why);
        if (vetoed) {
            if (vetoed < 0)
                return err_set(e, "%s", why);
            GameHooks k = game_hooks(g);
            const char *name = k.veto_script ? k.veto_script(k.ud) : NULL;
            str_copy(out->script, sizeof out->script, name ? name : "a house rule");
            snprintf(out->text, sizeof out->text, "%s is illegal: %s forbids it: %s",
                     out->action, out->script, why);
            return 0;
        }
    }
    WhyRule r;
    if (ask_variant(g, seat, &a, NULL, &r) &&
        (!action_is_meta(a.kind) || meta_rule(a.kind, &r)))
        return err_set(e, "%s names no rule for %s", game_variant(g)->name, out->action);
    out->legal = 1;
    str_copy(out->rules, sizeof out->rules, r.ids);
    char several[48] = "";
    if (nseq > 1) /* an arrangement, a random placement: the rule of its first */
        snprintf(several, sizeof several, "%d actions, the first by this rule: ", nseq);
    snprintf(out->text, sizeof out->text, "%s is legal: %s%s (%s)", out->action, several,
             r.say[0] ? r.say : "the rules allow it", r.ids);
    return 0;
}

void game_why_json(const WhyAnswer *w, StrBuf *out)
{
    sb_printf(out, "\"legal\":%s,\"action\":", w->legal ? "true" : "false");
    sb_json_str(out, w->action);
    sb_puts(out, ",\"rules\":[");
    const char *p = w->rules;
    for (int n = 0; *p; n++) {
        size_t k = strcspn(p, " ");
        char id[sizeof w->rules];
        snprintf(id, sizeof id, "%.*s", (int)k, p);
        if (n)
            sb_putc(out, ',');
        sb_json_str(out, id);
        p += k;
        p += strspn(p, " ");
    }
    sb_puts(out, "],\"script\":");
    if (w->script[0])
        sb_json_str(out, w->script);
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"text\":");
    sb_json_str(out, w->text);
}
