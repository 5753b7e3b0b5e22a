/*
 * cli_play.c -- the game in the terminal: the variant menu and the
 * hot-seat loop (`chessvar`, `chessvar menu`, `chessvar play`).
 *
 * Invariant: what is drawn for a seat comes from that seat's View only,
 * and when the seats' views differ (hidden information) the screen is
 * cleared and handed over before the next seat's board appears.  A line
 * that is not understood is answered with a message, never a crash; the
 * game changes only through game_play / game_apply / game_undo.
 *
 * Input: libedit (line editing, history) when standard input is a
 * terminal; plain lines otherwise, echoed after the prompt so that a piped
 * session reads like a typed one.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"
#include "record.h"

typedef struct Play {
    Game *g;
    RenderOpts ro;
    int tty_in;              /* stdin is a terminal: libedit, hand-over pauses */
    unsigned char *seen;     /* per message: seats that have read it */
    int nseen;
    int shown_seat;          /* seat whose board is on the screen, -1 none */
} Play;

/* ---- Input ------------------------------------------------------------ */

/* A line typed after prompt, without its newline (malloc'd), or NULL at
 * the end of input. */
static char *read_line(const Play *p, const char *prompt)
{
    if (p->tty_in) {
        fflush(stdout);
        char *l = readline(prompt);
        if (l && l[0])
            add_history(l);
        return l;
    }
    fputs(prompt, stdout);
    fflush(stdout);
    char *line = NULL;
    size_t cap = 0;
    if (getline(&line, &cap, stdin) < 0) {
        free(line);
        fputc('\n', stdout);
        return NULL;
    }
    line[strcspn(line, "\r\n")] = '\0';
    printf("%s\n", line);
    return line;
}

/* ---- The menu --------------------------------------------------------- */

static const VariantOps *choose_variant(const Play *p)
{
    int n = 0;
    fputs("chessvar: choose a variant\n\n", stdout);
    for (; variant_registry[n]; n++)
        printf("  %d  %-12s %s: %s\n", n + 1, variant_registry[n]->name,
               variant_registry[n]->title, variant_registry[n]->summary);
    fputs("\nType its number or name (q to quit).\n", stdout);
    for (;;) {
        char *line = read_line(p, "variant> ");
        if (!line)
            return NULL;
        str_trim(line);
        const VariantOps *v = NULL;
        char *end;
        long k = strtol(line, &end, 10);
        if (line[0] && !*end && k >= 1 && k <= n)
            v = variant_registry[k - 1];
        else if (line[0])
            v = variant_find(line);
        int quit = str_ieq(line, "q") || str_ieq(line, "quit");
        if (!v && !quit && line[0])
            printf("no variant '%s': type a number from 1 to %d, or a name\n", line, n);
        free(line);
        if (v || quit)
            return v;
    }
}

/* ---- Showing the game ------------------------------------------------- */

/* Do two seats' views differ in what is on the board or in the info?  Then
 * one may not see the other's screen. */
static int views_differ(const View *a, const View *b)
{
    if (a->npieces != b->npieces || a->ncaptured != b->ncaptured ||
        strcmp(a->info, b->info) || strcmp(a->position, b->position) ||
        strcmp(a->last_text, b->last_text))
        return 1;
    for (int i = 0; i < a->npieces && i < MAX_VIEW_PIECES; i++) {
        const ViewPiece *x = &a->pieces[i], *y = &b->pieces[i];
        if (!coord_eq(x->at, y->at) || x->side != y->side ||
            x->figure != y->figure || x->flags != y->flags || x->side2 != y->side2)
            return 1;
    }
    for (int i = 0; i < a->ncaptured && i < MAX_VIEW_PIECES; i++)
        if (a->captured[i].side != b->captured[i].side ||
            a->captured[i].figure != b->captured[i].figure)
            return 1;
    return 0;
}

/* Before a seat sees its board: if the previous seat's screen shows what
 * this one may not know, clear it and wait for the hand-over. */
static void hand_over(Play *p, int seat)
{
    if (!p->tty_in || p->shown_seat < 0 || p->shown_seat == seat)
        return;
    View *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (a && b) {
        game_view(p->g, p->shown_seat, a);
        game_view(p->g, seat, b);
        if (views_differ(a, b)) {
            fputs("\x1b[2J\x1b[H", stdout);
            printf("Pass the terminal to %s.\n", game_seat_name(p->g, seat));
            char *l = read_line(p, "press Enter> ");
            free(l);
            fputs("\x1b[2J\x1b[H", stdout);
        }
    }
    free(a);
    free(b);
}

/* Grow the seen marks to the current messages; new ones unread. */
static void seen_sync(Play *p)
{
    int n = game_message_count(p->g);
    if (n > p->nseen) {
        unsigned char *m = realloc(p->seen, (size_t)n);
        if (!m)
            return;
        memset(m + p->nseen, 0, (size_t)(n - p->nseen));
        p->seen = m;
    }
    p->nseen = n;
}

/* Everything said so far counts as read (a loaded or replayed game). */
static void seen_all(Play *p)
{
    seen_sync(p);
    if (p->nseen)
        memset(p->seen, 0xFF, (size_t)p->nseen);
}

/* Does every seat see the same board as `seat`?  Then they share the
 * screen, and a message read by one is read by all who may read it. */
static int screens_shared(const Play *p, int seat)
{
    View *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int shared = a && b;
    if (shared)
        game_view(p->g, seat, a);
    for (int s = 0; shared && s < game_nseats(p->g); s++) {
        if (s == seat)
            continue;
        game_view(p->g, s, b);
        shared = !views_differ(a, b);
    }
    free(a);
    free(b);
    return shared;
}

static void show_messages(Play *p, int seat)
{
    seen_sync(p);
    int shared = screens_shared(p, seat);
    for (int i = 0; i < p->nseen; i++) {
        const char *m = game_message(p->g, i, seat);
        if (!m || (p->seen[i] & (1u << seat)))
            continue;
        printf("* %s\n", m);
        p->seen[i] |= (unsigned char)(shared ? 0xFFu : 1u << seat);
    }
}

/* The board from the point of view of the seat to act (or, once the game
 * is over, of the seat that saw it last). */
static void show(Play *p)
{
    int seat = game_to_act(p->g);
    if (seat < 0)
        seat = p->shown_seat >= 0 ? p->shown_seat : 0;
    hand_over(p, seat);
    View *v = malloc(sizeof *v);
    if (!v)
        return;
    game_view(p->g, seat, v);
    RenderNames n;
    cli_names(p->g, &n);
    StrBuf out = STRBUF_INIT;
    fputc('\n', stdout);
    show_messages(p, seat);
    render_view_text(v, &n, &p->ro, &out);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    free(v);
    p->shown_seat = seat;
}

/* ---- Commands at the prompt ------------------------------------------- */

static void print_help(const Play *p)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf ex = STRBUF_INIT;
    game_legal_play(p->g, &l);
    if (l.n > 0) {
        StrBuf machine = STRBUF_INIT;
        game_format(p->g, &l.v[0], FMT_RECORD, &ex);
        game_format(p->g, &l.v[0], FMT_MACHINE, &machine);
        if (strcmp(sb_str(&ex), sb_str(&machine)) != 0)
            sb_printf(&ex, " or %s", sb_str(&machine));
        sb_free(&machine);
    }
    printf("Type a move as %s reads it%s%s%s, or one of:\n"
           "  legal        the legal moves of the seat to act\n"
           "  board        show the board again\n"
           "  undo [N]     take back the last N actions (default 1)\n"
           "  resign       give up the game\n"
           "  draw         offer a draw (the opponent answers accept or decline)\n"
           "  accept       accept the draw offer\n"
           "  decline      decline the draw offer\n"
           "  claim        claim a draw (threefold repetition, fifty moves, ...)\n"
           "  save FILE    write the game record to FILE (play --load FILE resumes)\n"
           "  position     the full position string, when the variant shows it\n"
           "  params       the game's parameters\n"
           "  help         this list\n"
           "  quit         leave the game\n",
           game_variant(p->g)->title, ex.len ? " (for example " : "", sb_str(&ex),
           ex.len ? ")" : "");
    sb_free(&ex);
    al_free(&l);
}

static void print_legal(const Play *p)
{
    int seat = game_to_act(p->g);
    ActionList l = ACTIONLIST_INIT;
    StrBuf out = STRBUF_INIT, meta = STRBUF_INIT;
    int count = 0, col = 0;
    game_legal(p->g, seat, &l);
    for (int i = 0; i < l.n; i++) {
        StrBuf t = STRBUF_INIT;
        game_format(p->g, &l.v[i], FMT_RECORD, &t);
        if (action_is_meta(l.v[i].kind)) {
            sb_printf(&meta, " %s", sb_str(&t));
        } else {
            if (col + (int)t.len + 1 > 72) {
                sb_puts(&out, "\n ");
                col = 0;
            }
            sb_printf(&out, " %s", sb_str(&t));
            col += (int)t.len + 1;
            count++;
        }
        sb_free(&t);
    }
    printf("%s: %d move%s\n %s\n", game_seat_name(p->g, seat), count,
           count == 1 ? "" : "s", sb_str(&out));
    if (meta.len)
        printf("also:%s\n", sb_str(&meta));
    sb_free(&out);
    sb_free(&meta);
    al_free(&l);
}

/* The seat a meta word is for: the seat to act if it may, else the first
 * other seat that may (hot-seat: "accept" answers the opponent's offer). */
static int meta_seat(const Game *g, int kind)
{
    int first = game_to_act(g);
    for (int k = 0; k < game_nseats(g); k++) {
        int seat = (first + k) % game_nseats(g);
        ActionList l = ACTIONLIST_INIT;
        int found = 0;
        game_legal(g, seat, &l);
        for (int i = 0; i < l.n && !found; i++)
            found = l.v[i].kind == kind;
        al_free(&l);
        if (found)
            return seat;
    }
    return first;
}

static void print_position(const Play *p)
{
    View *v = malloc(sizeof *v);
    if (!v)
        return;
    game_view(p->g, p->shown_seat >= 0 ? p->shown_seat : 0, v);
    if (v->position[0])
        printf("%s\n", v->position);
    else
        puts("The full position is hidden from the players in this variant.");
    free(v);
}

static void save_game(const Play *p, const char *path)
{
    Error e;
    if (!path[0]) {
        puts("save needs a file name: save FILE");
        return;
    }
    if (record_save_file(p->g, path, &e))
        printf("error: %s\n", e.msg);
    else
        printf("saved to %s\n", path);
}

static void do_undo(Play *p, const char *arg)
{
    Error e;
    char *end;
    long n = arg[0] ? strtol(arg, &end, 10) : 1;
    if (arg[0] && (*end || n < 1 || n > 100000)) {
        puts("undo takes how many actions to take back, e.g. undo 2");
        return;
    }
    if (game_undo(p->g, (int)n, &e)) {
        printf("error: %s\n", e.msg);
        return;
    }
    seen_all(p); /* the replay said it all again */
    printf("took back %ld action%s\n", n, n == 1 ? "" : "s");
    show(p);
}

/* A move or a meta word for the seat to act (meta_seat for answers). */
static void do_action(Play *p, const char *text)
{
    Error e;
    static const struct { const char *word; int kind; } ANSWERS[] = {
        {"accept", ACT_DRAW_ACCEPT}, {"decline", ACT_DRAW_DECLINE}};
    int seat = game_to_act(p->g);
    for (size_t i = 0; i < ARRAY_LEN(ANSWERS); i++)
        if (str_ieq(text, ANSWERS[i].word))
            seat = meta_seat(p->g, ANSWERS[i].kind);
    if (game_play(p->g, seat, text, &e)) {
        printf("error: %s\n", e.msg);
        puts("(type 'legal' for the legal moves, 'help' for the commands)");
        return;
    }
    show(p);
}

/* One line at the prompt; 1 when the player leaves. */
static int command(Play *p, char *line)
{
    str_trim(line);
    size_t n = strcspn(line, " \t");
    char *arg = line + n + strspn(line + n, " \t");
    char word[16] = "";
    if (n < sizeof word) {
        memcpy(word, line, n);
        word[n] = '\0';
    }
    if (!line[0])
        return 0;
    if (str_ieq(word, "quit") || str_ieq(word, "exit"))
        return 1;
    if (str_ieq(word, "help") || str_ieq(word, "?"))
        print_help(p);
    else if (str_ieq(word, "legal"))
        print_legal(p);
    else if (str_ieq(word, "board"))
        show(p);
    else if (str_ieq(word, "undo"))
        do_undo(p, arg);
    else if (str_ieq(word, "save"))
        save_game(p, arg);
    else if (str_ieq(word, "position"))
        print_position(p);
    else if (str_ieq(word, "params")) {
        StrBuf out = STRBUF_INIT;
        params_describe(game_variant(p->g), game_params(p->g), &out);
        fputs(out.len ? sb_str(&out) : "(no parameters)\n", stdout);
        sb_free(&out);
    } else {
        do_action(p, line);
    }
    return 0;
}

/* The result is on the board's status line already; offer the record. */
static void game_over(Play *p)
{
    static const char *const NO[] = {"", "n", "no", "q", "quit", "exit"};
    char *line = read_line(p, "\nSave the game? File name, or Enter to skip: ");
    if (!line)
        return;
    str_trim(line);
    int skip = 0;
    for (size_t i = 0; i < ARRAY_LEN(NO); i++)
        skip |= str_ieq(line, NO[i]);
    if (!skip)
        save_game(p, line);
    free(line);
}

static int play_loop(Play *p)
{
    printf("%s. Type 'help' for the commands.\n", game_variant(p->g)->title);
    show(p);
    for (;;) {
        int seat = game_to_act(p->g);
        if (seat < 0) {
            game_over(p);
            return CLI_EXIT_OK;
        }
        char prompt[80];
        snprintf(prompt, sizeof prompt, "%s> ", game_seat_name(p->g, seat));
        char *line = read_line(p, prompt);
        if (!line)
            return CLI_EXIT_OK;
        int quit = command(p, line);
        free(line);
        if (quit)
            return CLI_EXIT_OK;
    }
}

static int start_and_play(const CliOptions *o)
{
    Play p;
    Error e;
    int status;
    memset(&p, 0, sizeof p);
    p.shown_seat = -1;
    p.tty_in = isatty(STDIN_FILENO);
    p.ro.ascii = o->ascii;
    p.ro.color = cli_use_color();
    e.msg[0] = '\0';
    p.g = cli_start_game(o, cli_fresh_seed(), &e, &status);
    if (!p.g) {
        fprintf(stderr, "chessvar %s: %s\n", o->command, e.msg);
        return status;
    }
    seen_all(&p); /* messages of a loaded game are history */
    if (o->load)
        printf("loaded %s: %d action%s played\n", o->load, game_history_len(p.g),
               game_history_len(p.g) == 1 ? "" : "s");
    int rc = play_loop(&p);
    game_free(p.g);
    free(p.seen);
    return rc;
}

int cli_play(const CliOptions *o)
{
    return start_and_play(o);
}

int cli_menu(const CliOptions *o)
{
    Play p;
    memset(&p, 0, sizeof p);
    p.tty_in = isatty(STDIN_FILENO);
    const VariantOps *v = choose_variant(&p);
    if (!v)
        return CLI_EXIT_OK;
    CliOptions mine = *o;
    mine.variant = v;
    mine.command = "play";
    return start_and_play(&mine);
}
