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
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "record.h"

typedef struct Batch {
    Game *g;
    const CliOptions *o;
    StrBuf json;  /* JSON members of the answer, each starting with ',' */
    StrBuf text;  /* text answer, whole lines */
    int quit;
} Batch;

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
        sb_printf(out, "%s%s", s ? ", " : "", game_seat_name(g, s));
}

/* A seat named by the user; -1 with e listing the seats. */
static int seat_arg(const Game *g, const char *name, Error *e)
{
    int seat = game_seat_by_name(g, name);
    if (seat >= 0)
        return seat;
    StrBuf b = STRBUF_INIT;
    seat_names(g, &b);
    err_set(e, "no seat '%s'; the seats are: %s", name, sb_str(&b));
    sb_free(&b);
    return -1;
}

/* Seat given as an optional argument, else the seat to act (or the first
 * seat once the game is over). */
static int seat_or_default(const Game *g, const char *arg, Error *e)
{
    if (arg[0])
        return seat_arg(g, arg, e);
    int s = game_to_act(g);
    return s >= 0 ? s : 0;
}

/* The messages from index `from` on, with who may read each. */
static void answer_messages(Batch *b, int from)
{
    const Game *g = b->g;
    sb_puts(&b->json, ",\"messages\":[");
    for (int i = from; i < game_message_count(g); i++) {
        StrBuf to = STRBUF_INIT, names = STRBUF_INIT;
        const char *text = NULL;
        for (int s = 0; s < game_nseats(g); s++) {
            const char *m = game_message(g, i, s);
            if (!m)
                continue;
            text = m;
            if (to.len)
                sb_putc(&to, ',');
            sb_json_str(&to, game_seat_name(g, s));
            sb_printf(&names, "%s%s", names.len ? ", " : "", game_seat_name(g, s));
        }
        if (text) {
            if (b->json.s[b->json.len - 1] != '[')
                sb_putc(&b->json, ',');
            sb_printf(&b->json, "{\"to\":[%s],\"text\":", sb_str(&to));
            sb_json_str(&b->json, text);
            sb_putc(&b->json, '}');
            sb_printf(&b->text, "message to %s: %s\n", sb_str(&names), text);
        }
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

static int act(Batch *b, int seat, const char *text, Error *e)
{
    int msgs = game_message_count(b->g);
    if (game_play(b->g, seat, text, e))
        return -1;
    const HistoryEntry *h = game_history(b->g, game_history_len(b->g) - 1);
    json_seat(b, "seat", h->action.seat);
    sb_puts(&b->json, ",\"action\":");
    sb_json_str(&b->json, h->text);
    sb_puts(&b->json, ",\"machine\":");
    sb_json_str(&b->json, h->machine);
    answer_status(b);
    sb_printf(&b->text, "%s: %s", game_seat_name(b->g, h->action.seat), h->text);
    if (strcmp(h->text, h->machine) != 0)
        sb_printf(&b->text, " (%s)", h->machine);
    sb_putc(&b->text, '\n');
    answer_messages(b, msgs);
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "%s\n", sb_str(&st));
    sb_free(&st);
    return 0;
}

static int cmd_as(Batch *b, const char *arg, Error *e)
{
    char name[64];
    size_t n = strcspn(arg, " \t");
    if (!arg[0] || !arg[n])
        return err_set(e, "usage: as SEAT ACTION (e.g. as black resign)");
    if (n >= sizeof name)
        return err_set(e, "no seat '%.*s'", (int)n, arg);
    memcpy(name, arg, n);
    name[n] = '\0';
    int seat = seat_arg(b->g, name, e);
    if (seat < 0)
        return -1;
    return act(b, seat, arg + n + strspn(arg + n, " \t"), e);
}

static int cmd_legal(Batch *b, const char *arg, Error *e)
{
    int seat = seat_or_default(b->g, arg, e);
    if (seat < 0)
        return -1;
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT, machine = STRBUF_INIT, record = STRBUF_INIT,
           meta = STRBUF_INIT, plain = STRBUF_INIT, meta_plain = STRBUF_INIT;
    int nplay = 0;
    game_legal(b->g, seat, &l);
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
        }
    }
    json_seat(b, "seat", seat);
    sb_printf(&b->json, ",\"actions\":[%s],\"record\":[%s],\"meta\":[%s]",
              sb_str(&machine), sb_str(&record), sb_str(&meta));
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
    al_free(&l);
    return 0;
}

static int cmd_view(Batch *b, const char *arg, Error *e)
{
    int seat = seat_or_default(b->g, arg, e);
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
    game_view(b->g, seat, v);
    for (int i = 0; i < n; i++) {
        const char *m = game_message(b->g, i, seat);
        if (m)
            msgs[k++] = m;
    }
    RenderNames names;
    RenderOpts ro = {b->o->ascii, 0};
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
    (void)e;
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
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "%s", sb_str(&st));
    if (offer >= 0)
        sb_printf(&b->text, "; %s offers a draw", game_seat_name(b->g, offer));
    sb_printf(&b->text, " (%d actions played)\n", game_history_len(b->g));
    sb_free(&st);
    return 0;
}

static int cmd_position(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    (void)e;
    StrBuf p = STRBUF_INIT;
    game_position(b->g, &p);
    sb_puts(&b->json, ",\"position\":");
    sb_json_str(&b->json, sb_str(&p));
    sb_printf(&b->text, "%s\n", sb_str(&p));
    sb_free(&p);
    return 0;
}

static int cmd_history(Batch *b, const char *arg, Error *e)
{
    (void)arg;
    (void)e;
    int n = game_history_len(b->g);
    sb_puts(&b->json, ",\"history\":[");
    for (int i = 0; i < n; i++) {
        const HistoryEntry *h = game_history(b->g, i);
        sb_puts(&b->json, i ? ",{\"seat\":" : "{\"seat\":");
        sb_json_str(&b->json, game_seat_name(b->g, h->action.seat));
        sb_printf(&b->json, ",\"kind\":\"%s\",\"text\":", action_kind_name(h->action.kind));
        sb_json_str(&b->json, h->text);
        sb_puts(&b->json, ",\"machine\":");
        sb_json_str(&b->json, h->machine);
        sb_putc(&b->json, '}');
        sb_printf(&b->text, "%s%s", i ? " " : "", h->text);
    }
    sb_putc(&b->json, ']');
    sb_puts(&b->text, n ? "\n" : "(no actions yet)\n");
    return 0;
}

static int cmd_undo(Batch *b, const char *arg, Error *e)
{
    int n = 1;
    if (arg[0]) {
        char *end;
        long x = strtol(arg, &end, 10);
        if (*end || x < 0 || x > 1000000)
            return err_set(e, "undo %s: give how many actions to take back (a whole "
                              "number, 1 when left out)", arg);
        n = (int)x;
    }
    if (game_undo(b->g, n, e))
        return -1;
    sb_printf(&b->json, ",\"undone\":%d", n);
    answer_status(b);
    StrBuf st = STRBUF_INIT;
    cli_status_line(b->g, &st);
    sb_printf(&b->text, "undone %d; %s\n", n, sb_str(&st));
    sb_free(&st);
    return 0;
}

static int cmd_save(Batch *b, const char *arg, Error *e)
{
    if (!arg[0])
        return err_set(e, "usage: save FILE");
    if (record_save_file(b->g, arg, e))
        return -1;
    sb_puts(&b->json, ",\"file\":");
    sb_json_str(&b->json, arg);
    sb_printf(&b->text, "saved to %s\n", arg);
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
    {"as", "as SEAT ACTION", "play ACTION as SEAT (as black resign, as black accept)", cmd_as},
    {"legal", "legal [SEAT]", "the legal actions of SEAT (default: the seat to act)", cmd_legal},
    {"view", "view [SEAT]", "what SEAT may see: board, last move, question, status, messages",
     cmd_view},
    {"status", "status", "whose turn, check, result", cmd_status},
    {"position", "position", "the full position string (shows everything, hidden facts "
                             "included: for tools and tests)", cmd_position},
    {"history", "history", "the actions played so far", cmd_history},
    {"undo", "undo [N]", "take back the last N actions (default 1)", cmd_undo},
    {"save", "save FILE", "write the game record to FILE", cmd_save},
    {"params", "params", "the game's parameters and piece values", cmd_params},
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
    int seat = game_to_act(b->g);
    if (seat < 0)
        seat = 0; /* game_play explains that the game is over */
    return act(b, seat, line, e);
}

/* ---- The loop ----------------------------------------------------------- */

/* Answers echo what was typed; JSON strings must stay valid UTF-8. */
static int utf8_valid(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2
              : (*p & 0xF8) == 0xF0 ? 3 : -1;
        if (n < 0 || (n == 1 && *p < 0xC2))
            return 0;
        p++;
        for (int k = 0; k < n; k++, p++)
            if ((*p & 0xC0) != 0x80)
                return 0;
    }
    return 1;
}

/* Run one command line; write its answer; 0 or -1. */
static int run_line(Batch *b, char *line)
{
    size_t n = strcspn(line, " \t");
    char *arg = line + n + strspn(line + n, " \t");
    const BatchCommand *c = NULL;
    for (size_t i = 0; i < ARRAY_LEN(COMMANDS) && !c; i++)
        if (strlen(COMMANDS[i].name) == n && strncmp(COMMANDS[i].name, line, n) == 0)
            c = &COMMANDS[i];
    const char *name = c ? c->name : "play";
    Error e;
    e.msg[0] = '\0';
    sb_reset(&b->json);
    sb_reset(&b->text);
    int rc;
    if (!utf8_valid(line)) {
        name = "none";
        rc = err_set(&e, "the line is not valid UTF-8 text");
    } else {
        rc = c ? c->fn(b, arg, &e) : cmd_act(b, line, &e);
    }
    StrBuf out = STRBUF_INIT;
    if (rc == 0 && b->o->json) {
        sb_printf(&out, "{\"ok\":true,\"cmd\":\"%s\"%s}\n", name, sb_str(&b->json));
    } else if (b->o->json) {
        sb_printf(&out, "{\"ok\":false,\"cmd\":\"%s\",\"error\":", name);
        sb_json_str(&out, e.msg[0] ? e.msg : "failed");
        sb_puts(&out, "}\n");
    } else if (rc == 0) {
        sb_puts(&out, sb_str(&b->text));
    } else {
        sb_printf(&out, "error: %s\n", e.msg[0] ? e.msg : "failed");
    }
    fputs(sb_str(&out), stdout);
    fflush(stdout);
    sb_free(&out);
    return rc;
}

int cli_run(const CliOptions *o)
{
    int status;
    Error e;
    e.msg[0] = '\0';
    Batch b;
    memset(&b, 0, sizeof b);
    b.o = o;
    b.g = cli_start_game(o, 0, &e, &status);
    if (!b.g) {
        fprintf(stderr, "chessvar run: %s\n", e.msg);
        return status;
    }
    char *line = NULL;
    size_t cap = 0;
    int failed = 0, total = 0;
    while (!b.quit && getline(&line, &cap, stdin) >= 0) {
        str_trim(line);
        if (!line[0] || line[0] == '#')
            continue;
        total++;
        if (run_line(&b, line))
            failed++;
    }
    free(line);
    sb_free(&b.json);
    sb_free(&b.text);
    game_free(b.g);
    if (failed) {
        fprintf(stderr, "chessvar run: %d of %d command%s failed\n", failed, total,
                total == 1 ? "" : "s");
        return CLI_EXIT_FAIL;
    }
    return CLI_EXIT_OK;
}
