/*
 * cli_run.c -- `chessvar run`: batch mode.  Commands come from standard
 * input, one per line; each gets one answer (with --json exactly one JSON
 * object on one line).  Scripts, tests and other programs drive games
 * through this; docs/PROTOCOL.md is its contract.
 *
 * Invariant: a command either succeeds completely or leaves the game
 * unchanged and answers an error (ok:false / "error: ..."); the answer is
 * flushed before the next line is read, so a program can converse.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../lab/bot.h"
#include "cli.h"
#include "../record/record.h"

struct Batch {
    Game *g;
    CliOptions o_copy;  /* the options the batch was opened with */
    const CliOptions *o;
    StrBuf json;  /* JSON members of the answer, each starting with ',' */
    StrBuf text;  /* text answer, whole lines */
    int asker;    /* seat of `as SEAT COMMAND`, or -1: the seat to act */
    int quit;
    /* A save of a game in progress with hidden facts waits for every
     * seat's consent: the seats that asked to save to consent_file since
     * the game last changed (changes counts actions and undos). */
    char consent_file[1024];
    unsigned consent;
    unsigned long consent_at, changes;
    /* The game before a command that undo cannot reverse (undo, show):
     * put back if memory runs out while it answers. */
    Game *keep;
    Rng bot_rng;  /* the bots' draws: from the game's seed, so runs repeat */
};

/* Keep a copy of the game before an irreversible command; -1 with e when
 * there is no memory for it (nothing done yet). */
static int keep_game(Batch *b, Error *e)
{
    b->keep = game_clone(b->g);
    return b->keep ? 0 : err_set(e, "out of memory");
}

/* What separates a command's words: any blank, so "as\tblack" is two. */
#define BATCH_BLANKS " \t\v\f\r"

typedef struct BatchCommand {
    const char *name;
    const char *usage;
    const char *doc;
    int (*fn)(Batch *b, const char *arg, Error *e);
} BatchCommand;

/* ---- Shared pieces of answers ------------------------------------------- */

static void json_seat(Batch *b, const char *key, int seat)
{
    sb_printf(&b->json, ",\"%s\":", key);
    if (seat >= 0 && seat < game_nseats(b->g))
        sb_json_str(&b->json, game_seat_name(b->g, seat));
    else
        sb_puts(&b->json, "null");
}

static void seat_names(const Game *g, StrBuf *out)
{
    for (int s = 0; s < game_nseats(g); s++)
        sb_printf(out, "%s%s (%d)", s ? ", " : "", game_seat_name(g, s), s);
}

/* A seat named by the user, by name or number (game_seat_by_name); -1 with e
 * listing the seats. */
static int seat_arg(const Game *g, const char *name, Error *e)
{
    int seat = game_seat_by_name(g, name);
    if (seat >= 0)
        return seat;
    StrBuf b = STRBUF_INIT;
    char q[48];
    seat_names(g, &b);
    err_set(e, "no seat '%s'; the seats are: %s", str_clip(q, sizeof q, name), sb_str(&b));
    sb_free(&b);
    return -1;
}

/* The seat a command speaks to: the one named by `as SEAT`, else the seat
 * to act (or the first seat once the game is over).  Every answer holds
 * only what that seat may know. */
static int asking_seat(const Batch *b)
{
    if (b->asker >= 0)
        return b->asker;
    int s = game_to_act(b->g);
    return s >= 0 ? s : 0;
}

/* Seat given as an optional argument, else the asking seat.  In a game
 * with hidden facts a seat may not ask for another seat's private answer
 * (`what`: "view", "legal", "history") while the game is on, nor after
 * the end unless that seat has shown its pieces (game_may_read). */
static int seat_or_default(const Batch *b, const char *arg, const char *what,
                           Error *e)
{
    int asker = asking_seat(b);
    if (!arg[0])
        return asker;
    int seat = seat_arg(b->g, arg, e);
    if (seat < 0 || game_may_read(b->g, asker, seat))
        return seat;
    const char *name = game_seat_name(b->g, seat);
    if (game_to_act(b->g) < 0)
        return err_set(e, "%s's %s is private to %s: the game is over but %s has not "
                          "shown its pieces (%s hides facts from the other seats): ask "
                          "it as %s, 'as %s %s', or %s may show them, 'as %s show'",
                       name, what, name, name, game_variant(b->g)->name, name, name,
                       what, name, name);
    return err_set(e, "%s's %s is private to %s while the game is on (%s hides "
                      "facts from the other seats): ask it as %s, 'as %s %s'",
                   name, what, name, game_variant(b->g)->name, name, name, what);
}

/* The messages from index `from` on that `seat` may read, each with the
 * seats that read it among those `seat` may know of: itself, or everyone. */
static void answer_messages(Batch *b, int from, int seat)
{
    const Game *g = b->g;
    sb_puts(&b->json, ",\"messages\":[");
    for (int i = from; i < game_message_count(g); i++) {
        const char *text = game_message(g, i, seat);
        if (!text)
            continue;
        int all = 1;
        for (int s = 0; s < game_nseats(g); s++)
            all &= game_message(g, i, s) != NULL;
        StrBuf to = STRBUF_INIT, names = STRBUF_INIT;
        for (int s = 0; s < game_nseats(g); s++) {
            if (!all && s != seat)
                continue;
            if (to.len)
                sb_putc(&to, ',');
            sb_json_str(&to, game_seat_name(g, s));
            sb_printf(&names, "%s%s", names.len ? ", " : "", game_seat_name(g, s));
        }
        if (b->json.len && b->json.s[b->json.len - 1] != '[')
            sb_putc(&b->json, ',');
        sb_printf(&b->json, "{\"to\":[%s],\"text\":", sb_str(&to));
        sb_json_str(&b->json, text);
        sb_putc(&b->json, '}');
        sb_printf(&b->text, "message to %s: %s\n", sb_str(&names), text);
        sb_free(&to);
        sb_free(&names);
    }
    sb_putc(&b->json, ']');
}

static void answer_status(Batch *b)
{
    sb_puts(&b->json, ",\"status\":");
    cli_status_json(b->g, &b->json);
    json_seat(b, "to_act", game_to_act(b->g));
}

/* ---- Commands ----------------------------------------------------------- */

static int answer_played(Batch *b, int seat, int msgs, int before);

static int act(Batch *b, int seat, const char *text, Error *e)
{
    /* Issue 8, item 5: the game reads at most ACTION_TEXT_MAX bytes; a
     * longer text would be cut, and its head might be a legal action. */
    if (strlen(text) > ACTION_TEXT_MAX) {
        char q[48];
        return err_set(e, "the action '%s' is too long (%zu bytes; an action text has "
                          "at most %d): nothing was played", str_clip(q, sizeof q, text),
                       strlen(text), ACTION_TEXT_MAX);
    }
    int msgs = game_message_count(b->g);
    int before = game_history_len(b->g);
    if (game_play(b->g, seat, text, e))
        return -1;
    return answer_played(b, seat, msgs, before);
}

/* The answer to actions just played by seat: history entries from
 * `before`, messages from `msgs` on. */
static int answer_played(Batch *b, int seat, int msgs, int before)
{
    b->changes++;
    int after = game_history_len(b->g);
    const HistoryEntry *h = game_history(b->g, after - 1);
    json_seat(b, "seat", h->action.seat);
    sb_puts(&b->json, ",\"action\":");
    sb_json_str(&b->json, h->text);
    sb_puts(&b->json, ",\"machine\":");
    sb_json_str(&b->json, h->machine);
    /* One text may stand for several actions (a whole arrangement). */
    sb_puts(&b->json, ",\"actions\":[");
    for (int i = before; i < after; i++) {
        const HistoryEntry *hi = game_history(b->g, i);
        if (i > before)
            sb_putc(&b->json, ',');
        sb_json_str(&b->json, hi->text);
        sb_printf(&b->text, "%s: %s", game_seat_name(b->g, hi->action.seat), hi->text);
        if (strcmp(hi->text, hi->machine) != 0)
            sb_printf(&b->text, " (%s)", hi->machine);
        sb_putc(&b->text, '\n');
    }
    sb_putc(&b->json, ']');
    answer_status(b);
    answer_messages(b, msgs, seat);
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "%s\n", sb_str(&st));
    sb_free(&st);
    return 0;
}

static int run_command(Batch *b, char *line, const char **name, Error *e);

/* `as SEAT ACTION` plays as SEAT; `as SEAT COMMAND` asks as SEAT.  The
 * rest of the line is copied whole (issue 8, item 5: a fixed buffer cut
 * a long `save` path into another file name). */
static int cmd_as(Batch *b, const char *arg, Error *e)
{
    size_t n = strcspn(arg, BATCH_BLANKS);
    if (!arg[0] || !arg[n])
        return err_set(e, "usage: as SEAT ACTION or as SEAT COMMAND (e.g. as black "
                          "resign, as black view)");
    char *name = strndup(arg, n);
    int seat = name ? seat_arg(b->g, name, e) : err_set(e, "out of memory");
    free(name);
    if (seat < 0)
        return -1;
    const char *tail = arg + n + strspn(arg + n, BATCH_BLANKS);
    size_t word = strcspn(tail, BATCH_BLANKS);
    if (word == 2 && strncmp(tail, "as", 2) == 0)
        return err_set(e, "'as' cannot be nested");
    char *rest = strdup(tail);
    if (!rest)
        return err_set(e, "out of memory");
    b->asker = seat;
    const char *cmd = NULL;
    int rc = run_command(b, rest, &cmd, e);
    b->asker = -1;
    free(rest);
    return rc;
}

/* `bot LEVEL`: a bot decides for the asking seat, from what that seat may
 * know (core/lab/bot.h), and its action is answered like a typed one. */
static int cmd_bot(Batch *b, const char *arg, Error *e)
{
    BotSpec spec;
    if (bot_spec_parse(arg[0] ? arg : "", &spec, e))
        return -1;
    if (b->o->bot_ms > 0 && spec.level == BOT_SEARCH) {
        /* a time cap beside its own budget (serve: a lab rule's game) */
        if (!spec.lim.nodes && !spec.lim.ms)
            spec.lim.nodes = BOT_SEARCH_NODES;
        if (!spec.lim.ms || spec.lim.ms > b->o->bot_ms)
            spec.lim.ms = b->o->bot_ms;
    }
    int seat = asking_seat(b);
    if (game_to_act(b->g) < 0)
        return err_set(e, "the game is over: no bot can act");
    int msgs = game_message_count(b->g);
    int before = game_history_len(b->g);
    if (bot_play_spec(b->g, seat, &spec, &b->bot_rng, NULL, e))
        return -1;
    return answer_played(b, seat, msgs, before);
}

/* One play action of a legal list as the `detail` object (issue 21: the
 * page maps clicks to actions without reading the variant's texts): its
 * kind and the squares, figure and amount the kind uses, null otherwise. */
static void legal_detail(const Game *g, const Action *a, StrBuf *out)
{
    int k = a->kind;
    int from = (k == ACT_MOVE || k == ACT_REVEAL || k == ACT_CHOOSE) && a->from.x != -1;
    int to = k == ACT_MOVE || k == ACT_REVEAL || k == ACT_CHOOSE || k == ACT_ANNOUNCE ||
             (k == ACT_PLACE && a->figure != FIG_NONE);
    int figure = a->figure != FIG_NONE && k != ACT_ANNOUNCE;
    int amount = k == ACT_BID || k == ACT_ANNOUNCE;
    StrBuf t = STRBUF_INIT;
    sb_printf(out, "{\"kind\":\"%s\",\"from\":", action_kind_name(k));
    if (from)
        sb_printf(out, "{\"x\":%d,\"y\":%d}", (int)a->from.x, (int)a->from.y);
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"to\":");
    if (to)
        sb_printf(out, "{\"x\":%d,\"y\":%d}", (int)a->to.x, (int)a->to.y);
    else
        sb_puts(out, "null");
    if (figure)
        sb_printf(out, ",\"figure\":\"%c\"", figure_letter(a->figure));
    else
        sb_puts(out, ",\"figure\":null");
    if (amount)
        sb_printf(out, ",\"amount\":%d", (int)a->amount);
    else
        sb_puts(out, ",\"amount\":null");
    sb_puts(out, ",\"machine\":");
    game_format(g, a, FMT_MACHINE, &t);
    sb_json_str(out, sb_str(&t));
    sb_reset(&t);
    sb_puts(out, ",\"record\":");
    game_format(g, a, FMT_RECORD, &t);
    sb_json_str(out, sb_str(&t));
    sb_putc(out, '}');
    sb_free(&t);
}

/* One of the variant's other texts for a play action (game_inputs) as a
 * `detail` object: its squares and figure for a click, the text to send
 * (machine) and what it says to a person (record). */
static void input_detail(const InputForm *f, StrBuf *out)
{
    sb_printf(out, "{\"kind\":\"%s\",\"from\":", action_kind_name(f->kind));
    if (f->from.x != -1)
        sb_printf(out, "{\"x\":%d,\"y\":%d}", (int)f->from.x, (int)f->from.y);
    else
        sb_puts(out, "null");
    sb_puts(out, ",\"to\":");
    if (f->to.x != -1)
        sb_printf(out, "{\"x\":%d,\"y\":%d}", (int)f->to.x, (int)f->to.y);
    else
        sb_puts(out, "null");
    if (f->figure != FIG_NONE)
        sb_printf(out, ",\"figure\":\"%c\"", figure_letter(f->figure));
    else
        sb_puts(out, ",\"figure\":null");
    sb_puts(out, ",\"amount\":null,\"machine\":");
    sb_json_str(out, f->text);
    sb_puts(out, ",\"record\":");
    sb_json_str(out, f->label);
    sb_putc(out, '}');
}

static int cmd_legal(Batch *b, const char *arg, Error *e)
{
    int seat = seat_or_default(b, arg, "legal", e);
    if (seat < 0)
        return -1;
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT, machine = STRBUF_INIT, record = STRBUF_INIT,
           meta = STRBUF_INIT, plain = STRBUF_INIT, meta_plain = STRBUF_INIT,
           detail = STRBUF_INIT;
    int nplay = 0;
    if (game_legal(b->g, seat, &l)) { /* a house rule's hook failed */
        al_free(&l);
        return err_set(e, "%s", game_hook_error(b->g));
    }
    for (int i = 0; i < l.n; i++) {
        int is_meta = action_is_meta(l.v[i].kind);
        sb_reset(&t);
        game_format(b->g, &l.v[i], FMT_MACHINE, &t);
        StrBuf *js = is_meta ? &meta : &machine;
        StrBuf *tx = is_meta ? &meta_plain : &plain;
        if (js->len)
            sb_putc(js, ',');
        sb_json_str(js, sb_str(&t));
        sb_printf(tx, " %s", sb_str(&t));
        if (!is_meta) {
            nplay++;
            sb_reset(&t);
            game_format(b->g, &l.v[i], FMT_RECORD, &t);
            if (record.len)
                sb_putc(&record, ',');
            sb_json_str(&record, sb_str(&t));
            if (detail.len)
                sb_putc(&detail, ',');
            legal_detail(b->g, &l.v[i], &detail);
        }
    }
    /* issue 21: the variant's other texts for these actions (Échecs
     * ambigus' whole moves and keep under the clock procedure, AMBI-7) */
    enum { INPUTS_MAX = 512 };
    InputForm *forms = malloc(sizeof *forms * INPUTS_MAX);
    int nforms = forms ? game_inputs(b->g, seat, forms, INPUTS_MAX) : 0;
    if (nforms < 0) {
        free(forms);
        sb_free(&t);
        sb_free(&machine);
        sb_free(&record);
        sb_free(&meta);
        sb_free(&plain);
        sb_free(&meta_plain);
        sb_free(&detail);
        al_free(&l);
        return err_set(e, "%s", game_hook_error(b->g));
    }
    json_seat(b, "seat", seat);
    sb_printf(&b->json, ",\"actions\":[%s],\"record\":[%s],\"meta\":[%s],\"detail\":[%s]",
              sb_str(&machine), sb_str(&record), sb_str(&meta), sb_str(&detail));
    if (nforms > 0) {
        sb_puts(&b->json, ",\"inputs\":[");
        for (int i = 0; i < nforms; i++) {
            if (i)
                sb_putc(&b->json, ',');
            input_detail(&forms[i], &b->json);
        }
        sb_putc(&b->json, ']');
    }
    free(forms);
    if (l.n == 0 && game_to_act(b->g) < 0)
        sb_puts(&b->text, "no legal actions: the game is over\n");
    else
        sb_printf(&b->text, "%s (%d):%s\n", game_seat_name(b->g, seat), nplay,
                  sb_str(&plain));
    if (meta_plain.len)
        sb_printf(&b->text, "also:%s\n", sb_str(&meta_plain));
    sb_free(&t);
    sb_free(&machine);
    sb_free(&record);
    sb_free(&meta);
    sb_free(&plain);
    sb_free(&meta_plain);
    sb_free(&detail);
    al_free(&l);
    return 0;
}

/* `why ACTION` (issue 22): is ACTION legal for the asking seat now, and by
 * which rule or house rule. */
static int cmd_why(Batch *b, const char *arg, Error *e)
{
    int seat = asking_seat(b);
    WhyAnswer w;
    if (game_why(b->g, seat, arg, &w, e))
        return -1;
    json_seat(b, "seat", seat);
    sb_putc(&b->json, ',');
    game_why_json(&w, &b->json);
    sb_printf(&b->text, "%s\n", w.text);
    return 0;
}

static int cmd_view(Batch *b, const char *arg, Error *e)
{
    int seat = seat_or_default(b, arg, "view", e);
    if (seat < 0)
        return -1;
    View *v = malloc(sizeof *v);
    int n = game_message_count(b->g), k = 0;
    const char **msgs = malloc(sizeof *msgs * (size_t)(n ? n : 1));
    if (!v || !msgs) {
        free(v);
        free(msgs);
        return err_set(e, "out of memory");
    }
    if (game_view(b->g, seat, v)) { /* incomplete: never shown */
        free(v);
        free(msgs);
        return err_set(e, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        const char *m = game_message(b->g, i, seat);
        if (m)
            msgs[k++] = m;
    }
    RenderNames names;
    RenderOpts ro = {.ascii = b->o->ascii};
    cli_names(b->g, &names);
    sb_puts(&b->json, ",\"view\":");
    render_view_json(v, &names, msgs, k, &b->json);
    render_view_text(v, &names, &ro, &b->text);
    free(msgs);
    free(v);
    return 0;
}

static int cmd_status(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    answer_status(b);
    int side = game_to_act(b->g) >= 0 ? game_side_to_move(b->g) : -1;
    sb_puts(&b->json, ",\"side_to_move\":");
    if (side >= 0 && side < game_nsides(b->g))
        sb_json_str(&b->json, game_side_name(b->g, side));
    else
        sb_puts(&b->json, "null");
    int offer = game_to_act(b->g) >= 0 ? game_draw_offer(b->g) : -1;
    json_seat(b, "draw_offer", offer);
    sb_printf(&b->json, ",\"ply\":%d,\"repetitions\":%d", game_history_len(b->g),
              game_repetitions(b->g));
    /* the public facts a view gives in words: phase, who commands what,
     * turn order, sides out, threats, scores (issue 19 point 7) */
    View *v = malloc(sizeof *v);
    if (!v)
        return err_set(e, "out of memory");
    RenderNames names;
    cli_names(b->g, &names);
    if (game_view(b->g, -1, v)) { /* incomplete: never shown */
        free(v);
        return err_set(e, "out of memory");
    }
    render_facts_json(v, &names, &b->json);
    free(v);
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "%s", sb_str(&st));
    if (offer >= 0)
        sb_printf(&b->text, "; %s offers a draw", game_seat_name(b->g, offer));
    sb_printf(&b->text, " (%d actions played)\n", game_history_len(b->g));
    sb_free(&st);
    return 0;
}

/* The full position string, only to a seat that may see everything (the
 * variant's view says so by filling View.position). */
static int cmd_position(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    int seat = asking_seat(b);
    View *v = malloc(sizeof *v);
    if (!v)
        return err_set(e, "out of memory");
    if (game_view(b->g, seat, v)) { /* incomplete: never shown */
        free(v);
        return err_set(e, "out of memory");
    }
    int hidden = v->position[0] == '\0';
    if (!hidden) {
        sb_puts(&b->json, ",\"position\":");
        sb_json_str(&b->json, v->position);
        sb_printf(&b->text, "%s\n", v->position);
    }
    free(v);
    if (hidden)
        return err_set(e, "the full position is hidden from %s in %s (it holds facts "
                          "%s may not know); 'view' shows what %s may see",
                       game_seat_name(b->g, seat), game_variant(b->g)->name,
                       game_seat_name(b->g, seat), game_seat_name(b->g, seat));
    return 0;
}

/* The history as a seat may read it (default: the asking seat). */
static int cmd_history(Batch *b, const char *arg, Error *e)
{
    int seat = seat_or_default(b, arg, "history", e);
    if (seat < 0)
        return -1;
    int n = game_history_len(b->g);
    /* a schedule's turns (issue 25): "1. d4 e4 2. d5" */
    int *turns = malloc(((size_t)n + 1) * sizeof *turns);
    int grouped = turns ? cli_history_turns(b->g, turns) : -1;
    if (grouped < 0) {
        free(turns);
        return err_set(e, "out of memory");
    }
    StrBuf t = STRBUF_INIT;
    json_seat(b, "asker", seat);
    sb_puts(&b->json, ",\"history\":[");
    for (int i = 0; i < n; i++) {
        const HistoryEntry *h = game_history(b->g, i);
        sb_reset(&t);
        game_history_text(b->g, i, seat, &t);
        /* A text hidden from this seat hides its machine form too. */
        const char *machine = strcmp(sb_str(&t), h->text) == 0 ? h->machine : sb_str(&t);
        sb_puts(&b->json, i ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(&b->json, game_seat_name(b->g, h->action.seat));
        sb_printf(&b->json, ",\"kind\":\"%s\",\"text\":", action_kind_name(h->action.kind));
        sb_json_str(&b->json, sb_str(&t));
        sb_puts(&b->json, ",\"machine\":");
        sb_json_str(&b->json, machine);
        if (grouped && turns[i])
            sb_printf(&b->json, ",\"turn\":%d", turns[i]);
        sb_putc(&b->json, '}');
        sb_puts(&b->text, i ? " " : "");
        if (grouped && turns[i] && (i == 0 || turns[i] != turns[i - 1]))
            sb_printf(&b->text, "%d. ", turns[i]);
        sb_puts(&b->text, sb_str(&t));
    }
    sb_putc(&b->json, ']');
    sb_puts(&b->text, n ? "\n" : "(no actions yet)\n");
    sb_free(&t);
    free(turns);
    return 0;
}

static int cmd_undo(Batch *b, const char *arg, Error *e)
{
    int n = 1;
    if (arg[0]) {
        /* Digits only: strtol would also take blanks and a sign. */
        long x = 0;
        size_t digits = strspn(arg, "0123456789");
        if (!digits || arg[digits] || digits > 7 || (x = strtol(arg, NULL, 10)) > 1000000) {
            char q[48];
            return err_set(e, "undo %s: give how many actions to take back (a whole "
                              "number, 1 when left out)", str_clip(q, sizeof q, arg));
        }
        n = (int)x;
    }
    if (keep_game(b, e) || game_undo_by(b->g, asking_seat(b), n, e))
        return -1;
    b->changes++;
    sb_printf(&b->json, ",\"undone\":%d", n);
    answer_status(b);
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "undone %d; %s\n", n, sb_str(&st));
    sb_free(&st);
    return 0;
}

/* The seats in mask as a JSON array (json) and as words (text). */
static void seat_set(const Game *g, unsigned mask, StrBuf *json, StrBuf *text)
{
    sb_putc(json, '[');
    for (int s = 0, k = 0; s < game_nseats(g); s++) {
        if (!(mask & (1u << s)))
            continue;
        if (k)
            sb_putc(json, ',');
        sb_json_str(json, game_seat_name(g, s));
        sb_printf(text, "%s%s", k++ ? " and " : "", game_seat_name(g, s));
    }
    sb_putc(json, ']');
}

/* A game that hides facts is saved only when every seat whose secrets
 * the record holds agrees (docs/RECORDS.md): every seat while the game is
 * on, after the end those that have not shown them (game_secret_seats).
 * The asking seat's `save FILE` is its consent; 1 when all have agreed. */
static int save_consented(Batch *b, const char *file, Error *e)
{
    const Game *g = b->g;
    unsigned need = game_secret_seats(g) & ~(1u << asking_seat(b));
    if (!need)
        return 1;
    if (strlen(file) >= sizeof b->consent_file)
        return err_set(e, "save: the file name is too long (at most %zu bytes)",
                       sizeof b->consent_file - 1);
    if (b->consent_at != b->changes || strcmp(b->consent_file, file) != 0) {
        str_copy(b->consent_file, sizeof b->consent_file, file);
        b->consent = 0;
        b->consent_at = b->changes;
    }
    b->consent |= 1u << asking_seat(b);
    if (!(need & ~b->consent)) {
        b->consent = 0;
        return 1;
    }
    StrBuf agreed = STRBUF_INIT, waiting = STRBUF_INIT;
    sb_puts(&b->json, ",\"file\":");
    sb_json_str(&b->json, file);
    sb_puts(&b->json, ",\"saved\":false,\"agreed\":");
    seat_set(g, b->consent, &b->json, &agreed);
    sb_puts(&b->json, ",\"waiting\":");
    seat_set(g, need & ~b->consent, &b->json, &waiting);
    if (game_to_act(g) >= 0)
        sb_printf(&b->text, "%s agree%s to save to %s; waiting for %s: the record of a "
                            "game in progress holds every seat's hidden facts, so every "
                            "seat must ask 'save %s' before anything else is played\n",
                  sb_str(&agreed), b->consent & (b->consent - 1) ? "" : "s", file,
                  sb_str(&waiting), file);
    else
        sb_printf(&b->text, "%s agree%s to save to %s; waiting for %s: the record holds "
                            "the hidden facts of every seat that has not shown them, so "
                            "%s must ask 'save %s' too (or show first)\n",
                  sb_str(&agreed), b->consent & (b->consent - 1) ? "" : "s", file,
                  sb_str(&waiting), sb_str(&waiting), file);
    sb_free(&agreed);
    sb_free(&waiting);
    return 0;
}

static int cmd_save(Batch *b, const char *arg, Error *e)
{
    if (!arg[0])
        return err_set(e, "usage: save FILE");
    int go = save_consented(b, arg, e);
    if (go <= 0)
        return go;
    int secrets = game_hidden_info(b->g) && game_to_act(b->g) >= 0;
    unsigned kept = game_secret_seats(b->g);
    if (record_save_file(b->g, arg, e))
        return -1;
    sb_puts(&b->json, ",\"file\":");
    sb_json_str(&b->json, arg);
    sb_puts(&b->json, ",\"saved\":true");
    StrBuf who = STRBUF_INIT, ignored = STRBUF_INIT;
    seat_set(b->g, kept, &ignored, &who);
    sb_printf(&b->text, "saved to %s%s%s%s\n", arg,
              secrets ? " (it holds every seat's hidden facts: keep it closed until "
                        "you resume)" : kept ? " (it holds what " : "",
              !secrets && kept ? sb_str(&who) : "",
              !secrets && kept ? " did not show)" : "");
    sb_free(&who);
    sb_free(&ignored);
    return 0;
}

/* After the end of a game with hidden facts: the asking seat shows them. */
static int cmd_show(Batch *b, const char *arg, Error *e)
{
    if (arg[0])
        return err_set(e, "usage: show (a seat shows only its own pieces: as SEAT show)");
    int seat = asking_seat(b), msgs = game_message_count(b->g);
    if (keep_game(b, e) || game_show(b->g, seat, e))
        return -1;
    json_seat(b, "seat", seat);
    answer_messages(b, msgs, seat);
    return 0;
}

static const char *const PARAM_TYPES[] = {"bool", "int", "choice"};

static int cmd_params(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    (void)e;
    const VariantOps *v = game_variant(b->g);
    const Params *p = game_params(b->g);
    Params def;
    StrBuf t = STRBUF_INIT;
    params_defaults(v, &def);
    sb_puts(&b->json, ",\"params\":[");
    for (int i = 0; i < v->nparams; i++) {
        const ParamDef *d = &v->params[i];
        sb_puts(&b->json, i ? ",{\"name\":" : "{\"name\":");
        sb_json_str(&b->json, d->name);
        sb_printf(&b->json, ",\"type\":\"%s\",\"value\":", PARAM_TYPES[d->type]);
        sb_reset(&t);
        params_format_value(v, p, i, &t);
        sb_json_str(&b->json, sb_str(&t));
        sb_puts(&b->json, ",\"default\":");
        sb_reset(&t);
        params_format_value(v, &def, i, &t);
        sb_json_str(&b->json, sb_str(&t));
        if (d->type == PARAM_INT)
            sb_printf(&b->json, ",\"min\":%d,\"max\":%d", d->min, d->max);
        if (d->type == PARAM_ENUM) {
            sb_puts(&b->json, ",\"choices\":[");
            for (int k = 0; d->choices[k]; k++) {
                if (k)
                    sb_putc(&b->json, ',');
                sb_json_str(&b->json, d->choices[k]);
            }
            sb_putc(&b->json, ']');
        }
        sb_puts(&b->json, ",\"rule\":");
        if (d->rule)
            sb_json_str(&b->json, d->rule);
        else
            sb_puts(&b->json, "null");
        sb_puts(&b->json, ",\"doc\":");
        sb_json_str(&b->json, d->doc);
        sb_putc(&b->json, '}');
    }
    sb_puts(&b->json, "],\"values\":{");
    for (int f = FIG_PAWN; f <= FIG_QUEEN; f++)
        sb_printf(&b->json, "%s\"%c\":%d", f == FIG_PAWN ? "" : ",",
                  figure_letter(f), p->values[f]);
    sb_putc(&b->json, '}');
    params_describe(v, p, &b->text);
    sb_free(&t);
    return 0;
}

static int cmd_help(Batch *b, const char *arg, Error *e);

static int cmd_quit(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    (void)e;
    b->quit = 1;
    sb_puts(&b->text, "bye\n");
    return 0;
}

static const BatchCommand COMMANDS[] = {
    {"as", "as SEAT ACTION|COMMAND", "play ACTION as SEAT, or ask COMMAND as SEAT "
                                     "(as black resign, as black history)", cmd_as},
    {"bot", "bot LEVEL", "a bot plays for the asking seat (the seat to act, or as SEAT): "
                         "random, greedy or search (search:N nodes, search:Nms "
                         "milliseconds), from what that seat may know", cmd_bot},
    {"legal", "legal [SEAT]", "the legal actions of SEAT (default: the seat to act)", cmd_legal},
    {"view", "view [SEAT]", "what SEAT may see: board, last move, question, status, messages",
     cmd_view},
    {"status", "status", "whose turn, check, result", cmd_status},
    {"position", "position", "the full position string, if the asking seat may see "
                             "everything (always in orthodox chess)", cmd_position},
    {"history", "history [SEAT]", "the actions played so far, as SEAT may read them "
                                  "(default: the asking seat)", cmd_history},
    {"undo", "undo [N]", "take back the last N actions (default 1)", cmd_undo},
    {"save", "save FILE", "write the game record to FILE (hidden facts: once every seat "
                          "whose secrets it holds has asked)", cmd_save},
    {"show", "show", "after the end of a game with hidden facts: show the asking seat's "
                     "pieces to everyone", cmd_show},
    {"params", "params", "the game's parameters and piece values", cmd_params},
    {"why", "why ACTION", "is ACTION legal for the asking seat now, and by which rule "
                          "(or house rule)", cmd_why},
    {"help", "help", "this list", cmd_help},
    {"quit", "quit", "stop reading commands", cmd_quit},
};

static int cmd_help(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    (void)e;
    sb_puts(&b->json, ",\"commands\":[");
    sb_puts(&b->text, "ACTION            play ACTION (a move: e4, Nf3, e2e4; resign, draw, "
                      "accept, decline, claim) as the seat to act\n");
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS); i++) {
        sb_puts(&b->json, i ? ",{\"name\":" : "{\"name\":");
        sb_json_str(&b->json, COMMANDS[i].name);
        sb_puts(&b->json, ",\"usage\":");
        sb_json_str(&b->json, COMMANDS[i].usage);
        sb_puts(&b->json, ",\"doc\":");
        sb_json_str(&b->json, COMMANDS[i].doc);
        sb_putc(&b->json, '}');
        sb_printf(&b->text, "%-17s %s\n", COMMANDS[i].usage, COMMANDS[i].doc);
    }
    sb_putc(&b->json, ']');
    return 0;
}

static int cmd_act(Batch *b, const char *line, Error *e)
{
    return act(b, asking_seat(b), line, e);
}

/* Dispatch one command line (not yet checked for UTF-8); *name is the
 * command's name for the answer. */
static int run_command(Batch *b, char *line, const char **name, Error *e)
{
    size_t n = strcspn(line, BATCH_BLANKS);
    char *arg = line + n + strspn(line + n, BATCH_BLANKS);
    const BatchCommand *c = NULL;
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS) && !c; i++)
        if (strlen(COMMANDS[i].name) == n && strncmp(COMMANDS[i].name, line, n) == 0)
            c = &COMMANDS[i];
    *name = c ? c->name : "play";
    return c ? c->fn(b, arg, e) : cmd_act(b, line, e);
}

/* ---- The loop ----------------------------------------------------------- */

/* Run one command line (NULL: refused as a whole with why); append its
 * answer to out; 0 or -1. */
static int run_line(Batch *b, char *line, const char *refusal, StrBuf *out)
{
    const char *name = "play";
    Error e;
    e.msg[0] = '\0';
    sb_reset(&b->json);
    sb_reset(&b->text);
    b->asker = -1;
    int rc;
    if (refusal) {
        name = "none";
        rc = err_set(&e, "%s", refusal);
    } else {
        rc = run_command(b, line, &name, &e);
    }
    if (rc == 0 && b->o->json) {
        sb_printf(out, "{\"ok\":true,\"cmd\":\"%s\"%s}\n", name, sb_str(&b->json));
    } else if (b->o->json) {
        sb_printf(out, "{\"ok\":false,\"cmd\":\"%s\",\"error\":", name);
        sb_json_str(out, e.msg[0] ? e.msg : "failed");
        sb_puts(out, "}\n");
    } else if (rc == 0) {
        sb_puts(out, sb_str(&b->text));
    } else {
        sb_printf(out, "error: %s\n", e.msg[0] ? e.msg : "failed");
    }
    return rc;
}

Batch *batch_open(const CliOptions *o, Error *e, int *status)
{
    Batch *b = calloc(1, sizeof *b);
    if (!b) {
        *status = CLI_EXIT_FAIL;
        err_set(e, "out of memory");
        return NULL;
    }
    b->o_copy = *o;
    b->o = &b->o_copy;
    b->asker = -1;
    b->g = cli_start_game(o, 0, e, status);
    if (!b->g) {
        free(b);
        return NULL;
    }
    rng_seed(&b->bot_rng, game_config(b->g)->seed ^ 0x626f7473ULL); /* "bots" */
    return b;
}

int batch_line(Batch *b, const char *line, StrBuf *out)
{
    return batch_line_n(b, line, strlen(line), out);
}

int batch_line_n(Batch *b, const char *line, size_t n, StrBuf *out)
{
    /* Answers echo what was typed and JSON strings must stay valid
     * UTF-8, so the line is checked whole first (issue 8, items 3, 5):
     * a NUL byte would silently end it early, an invalid sequence would
     * reach the answer. */
    const char *refusal = memchr(line, '\0', n) ? "the line holds a NUL byte"
                        : !utf8_valid(line, n) ? "the line is not valid UTF-8 text" : NULL;
    char *copy = cv_realloc(NULL, refusal ? 1 : n + 1);
    if (copy) {
        memcpy(copy, line, refusal ? 0 : n);
        copy[refusal ? 0 : n] = '\0';
    }
    if (!copy) {
        sb_puts(out, b->o->json ? "{\"ok\":false,\"cmd\":\"none\",\"error\":\"out of "
                                  "memory\"}\n" : "error: out of memory\n");
        return -1;
    }
    str_trim(copy);
    size_t start = out->len;
    unsigned long failures = cv_alloc_failures();
    int played = game_history_len(b->g);
    int rc = run_line(b, copy, refusal, out);
    free(copy);
    /* Memory that ran out anywhere in the command (an answer cut short,
     * a text lost): the actions it played are taken back (undo needs no
     * memory) and the answer is the error alone. */
    if (cv_alloc_failures() != failures) {
        int back = game_history_len(b->g) - played;
        Error u;
        if (b->keep) {
            game_free(b->g);
            b->g = b->keep;
            b->keep = NULL;
            b->changes++;
        } else if (back > 0 && game_undo(b->g, back, &u) == 0) {
            b->changes++;
        }
        out->failed = 0;
        out->len = start;
        if (out->s)
            out->s[start] = '\0';
        sb_puts(out, b->o->json ? "{\"ok\":false,\"cmd\":\"none\",\"error\":\"out of "
                                  "memory\"}\n" : "error: out of memory\n");
        rc = -1;
    }
    game_free(b->keep);
    b->keep = NULL;
    return rc;
}

int batch_done(const Batch *b) { return b->quit; }
Game *batch_game(Batch *b) { return b->g; }

void batch_close(Batch *b)
{
    if (!b)
        return;
    sb_free(&b->json);
    sb_free(&b->text);
    game_free(b->g);
    free(b);
}

int cli_run(const CliOptions *o)
{
    int status;
    Error e;
    e.msg[0] = '\0';
    Batch *b = batch_open(o, &e, &status);
    if (!b) {
        fprintf(stderr, "chessvar run: %s\n", e.msg);
        return status;
    }
    char *line = NULL;
    size_t cap = 0;
    int failed = 0, total = 0, write_err = 0;
    ssize_t len;
    StrBuf out = STRBUF_INIT;
    while (!batch_done(b) && (len = getline(&line, &cap, stdin)) >= 0) {
        /* A line with a NUL byte is a command (refused), never blank. */
        int nul = memchr(line, '\0', (size_t)len) != NULL;
        if (!nul) {
            str_trim(line);
            len = (ssize_t)strlen(line);
            if (!line[0] || line[0] == '#')
                continue;
        }
        total++;
        sb_reset(&out);
        if (batch_line_n(b, line, (size_t)len, &out))
            failed++;
        /* Issue 8, item 4: a lost answer is a failure (exit 1), and
         * there is no point going on without a reader. */
        errno = 0;
        fwrite(sb_str(&out), 1, out.len, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
            write_err = errno ? errno : EIO;
            break;
        }
    }
    free(line);
    sb_free(&out);
    batch_close(b);
    if (write_err) {
        fprintf(stderr, "chessvar run: cannot write the output: %s\n", strerror(write_err));
        return CLI_EXIT_FAIL;
    }
    if (failed) {
        fprintf(stderr, "chessvar run: %d of %d command%s failed\n", failed, total,
                total == 1 ? "" : "s");
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
