/*
 * cli_play.c -- the game in the terminal: the variant menu, the hot-seat
 * loop, the end of a game (save, review, again, menu) and the review of a
 * finished game (`chessvar`, `chessvar menu`, `chessvar play`).
 *
 * Invariant: what is drawn for a seat comes from that seat's View only.
 * When the seats' views differ (hidden information) and the input is a
 * terminal, the screen *and its scrollback* are wiped, and the line
 * history of the editor cleared, before the next seat's board appears:
 * nothing a seat saw or typed survives the hand-over.  A line that is not
 * understood is answered with a message, never a crash; the game changes
 * only through game_play / game_undo_by; a line is never taken for a file
 * name unless the prompt asked for one.
 *
 * Input: libedit (line editing, history) when standard input is a
 * terminal; plain lines otherwise, echoed after the prompt so that a piped
 * session reads like a typed one.  Hand-overs and the setup confirmation
 * happen only on a terminal (a piped session is one transcript).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <editline/readline.h>

#include "cli.h"
#include "../lab/bot.h"
#include "../lua/house.h"
#include "../record/record.h"

typedef struct Play {
    Game *g;
    RenderOpts ro;
    int tty_in;              /* stdin is a terminal: hand-overs */
    int edit;                /* stdin and stdout are terminals: libedit */
    unsigned char *seen;     /* per message: seats that have read it */
    int nseen;
    int shown_seat;          /* seat whose board is on the screen, -1 none,
                                SHOWN_PUBLIC: what every seat may know,
                                SHOWN_LOADED: none, but who loaded the game
                                is not known */
    int bot[MAX_SEATS];      /* per seat: 0 a person, 1 a bot ... */
    BotSpec spec[MAX_SEATS]; /* ... this one */
    Rng bot_rng;             /* the bots' draws */
    int delay_ms;            /* pause after a bot's move */
} Play;

/* Is seat played by a bot? */
static int is_bot(const Play *p, int seat)
{
    return seat >= 0 && seat < MAX_SEATS && p->bot[seat];
}

/* The first seat a person plays, or -1 when bots play every seat. */
static int person_seat(const Play *p)
{
    for (int s = 0; s < game_nseats(p->g); s++)
        if (!is_bot(p, s))
            return s;
    return -1;
}

/* How many seats people play: hand-overs are for two or more at one
 * terminal (a lone person against bots never passes it on). */
static int people(const Play *p)
{
    int n = 0;
    for (int s = 0; s < game_nseats(p->g); s++)
        n += !is_bot(p, s);
    return n;
}

#define SHOWN_PUBLIC (-2)
#define SHOWN_LOADED (-3)

/* How a game (or the games of one variant) ended for the player. */
enum { PLAY_QUIT, PLAY_AGAIN, PLAY_MENU, PLAY_ON };

/* ---- Input ------------------------------------------------------------ */

/* Ctrl-C: the prompt it interrupts answers as at the end of input, and the
 * game is left as `quit` leaves it (asking first, offering to save). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* Catch Ctrl-C for the terminal game: no SA_RESTART, so that a read in
 * progress returns at once.  libedit leaves the signals to us. */
static void catch_sigint(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    rl_catch_signals = 0;
}

/* Was Ctrl-C pressed since the last call? */
static int take_interrupt(void)
{
    int was = interrupted;
    interrupted = 0;
    return was;
}

/* How the terminal's end of a prompt reads: stdin a terminal, stdout too
 * (libedit draws its prompt only on a terminal; a piped stdout gets the
 * prompt from us, and the terminal echoes what is typed). */
static void input_mode(int *tty_in, int *edit)
{
    *tty_in = isatty(STDIN_FILENO);
    *edit = *tty_in && isatty(STDOUT_FILENO);
}

/* A line typed after prompt, without its newline and trimmed (malloc'd),
 * or NULL at the end of input.  A line holding a NUL byte, invalid UTF-8
 * or more than ACTION_TEXT_MAX bytes is refused with a message and reads
 * as an empty line: it is never cut into something else. */
static char *read_line(const Play *p, const char *prompt)
{
    char *line = NULL;
    size_t len;
    if (interrupted) /* Ctrl-C while no prompt was up: this prompt answers it */
        return NULL;
    if (p->edit) {
        fflush(stdout);
        line = readline(prompt);
        if (line && line[0])
            add_history(line);
        len = line ? strlen(line) : 0;
    } else {
        size_t cap = 0;
        fputs(prompt, stdout);
        fflush(stdout);
        ssize_t n = getline(&line, &cap, stdin);
        if (n < 0) {
            free(line);
            clearerr(stdin); /* a terminal may be read again after Ctrl-D */
            fputc('\n', stdout);
            return NULL;
        }
        len = (size_t)n;
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (p->tty_in)
            ; /* the terminal has echoed it */
        else if (utf8_valid(line, len))
            printf("%s\n", line);
        else
            fputs("(a line that is not UTF-8 text)\n", stdout);
    }
    if (!line)
        return NULL;
    const char *bad = strlen(line) != len ? "the line holds a NUL byte"
                      : !utf8_valid(line, len) ? "the line is not valid UTF-8 text"
                      : len > ACTION_TEXT_MAX ? "the line is too long" : NULL;
    if (bad) {
        printf("error: %s; nothing was done\n", bad);
        line[0] = '\0';
    }
    str_trim(line);
    return line;
}

/* Ask a yes/no question: 1 for "y" or "yes", 0 for anything else, -1 at
 * the end of input. */
static int ask_yes(const Play *p, const char *prompt)
{
    char *l = read_line(p, prompt);
    int yes = !l ? -1 : str_ieq(l, "y") || str_ieq(l, "yes");
    free(l);
    return yes;
}

/* ask_yes for cli_start_game_asking: a record's scripts (issue 20 point 6). */
static int ask_trust(void *ctx, const char *question)
{
    return ask_yes(ctx, question);
}

/* Split "word rest" in place: returns rest (may be ""), word in word[]. */
static char *split_word(char *line, char *word, size_t n)
{
    size_t k = strcspn(line, " \t");
    word[0] = '\0';
    if (k < n) {
        memcpy(word, line, k);
        word[k] = '\0';
    }
    return line + k + strspn(line + k, " \t");
}

/* ---- The menu --------------------------------------------------------- */


int cli_menu_asks_sides(const VariantOps *v)
{
    return v->min_sides < v->max_sides;
}

int cli_menu_count(const char *line, int lo, int hi, int def, int *n, Error *e)
{
    char *end;
    if (!line[0]) {
        *n = def;
        return 0;
    }
    long k = strtol(line, &end, 10);
    if (end == line || *end || k < lo || k > hi)
        return err_set(e, "'%s': type a number from %d to %d, or just Enter for %d",
                       line, lo, hi, def);
    *n = (int)k;
    return 0;
}

/* Ask "what (lo to hi, Enter: def)> " until the answer is right: 0 with
 * *n, or -1 at the end of input. */
static int ask_count(const Play *p, const char *what, int lo, int hi, int def, int *n)
{
    char q[96];
    snprintf(q, sizeof q, "%s (%d to %d, Enter: %d)> ", what, lo, hi, def);
    for (;;) {
        Error e;
        char *l = read_line(p, q);
        if (!l)
            return -1;
        int rc = cli_menu_count(l, lo, hi, def, n, &e);
        free(l);
        if (rc == 0)
            return 0;
        printf("%s\n", e.msg);
    }
}

/* ---- House rules offered by the menu ------------------------------------ */

#define MENU_MAX_SCRIPTS 32

/* The house-rule scripts the menu offers for one variant. */
typedef struct MenuScripts {
    int n;
    char path[MENU_MAX_SCRIPTS][512];
    char title[MENU_MAX_SCRIPTS][80];
} MenuScripts;

/* Where the ready-made scripts are: $CHESSVAR_SCRIPTS, else scripts/
 * beside the program, else scripts/ here. */
static void scripts_dir(char *buf, size_t n)
{
    const char *env = getenv("CHESSVAR_SCRIPTS");
    if (env && env[0]) {
        snprintf(buf, n, "%s", env);
        return;
    }
    char exe[400];
    ssize_t k = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = k > 0 ? (exe[k] = '\0', strrchr(exe, '/')) : NULL;
    struct stat st;
    if (slash) {
        *slash = '\0';
        int w = snprintf(buf, n, "%s/scripts", exe);
        if (w > 0 && (size_t)w < n && stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
            return;
    }
    snprintf(buf, n, "scripts");
}

static int by_path(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The *.lua files of dir that load for v with nsides sides, by name. */
static void find_scripts(const char *dir, const VariantOps *v, int nsides, MenuScripts *m)
{
    memset(m, 0, sizeof *m);
    DIR *d = opendir(dir);
    if (!d)
        return;
    char found[MENU_MAX_SCRIPTS][512];
    int nfound = 0;
    for (struct dirent *de; nfound < MENU_MAX_SCRIPTS && (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || strcmp(de->d_name + len - 4, ".lua"))
            continue;
        int w = snprintf(found[nfound], sizeof found[0], "%s/%s", dir, de->d_name);
        if (w > 0 && (size_t)w < sizeof found[0])
            nfound++;
    }
    closedir(d);
    qsort(found, (size_t)nfound, sizeof found[0], by_path);
    for (int i = 0; i < nfound; i++) {
        Error e;
        const char *path = found[i];
        House *h = cli_load_house(v, nsides, &path, 1, &e);
        if (!h)
            continue; /* another variant's, or broken: `chessvar check` says why */
        memcpy(m->path[m->n], found[i], sizeof found[i]);
        snprintf(m->title[m->n], sizeof m->title[0], "%s", house_title(h, 0));
        m->n++;
        house_free(h);
    }
}

/* "1 3" -> the scripts' paths in that order in o->rules.  0, or -1 with e. */
int cli_menu_rules(const char *line, int n, int *picked, int *npicked, Error *e)
{
    *npicked = 0;
    for (const char *p = line; *p;) {
        p += strspn(p, " \t,");
        if (!*p)
            break;
        char *end;
        long k = strtol(p, &end, 10);
        if (end == p || k < 1 || k > n || (*end && !strchr(" \t,", *end)))
            return err_set(e, "'%s': type numbers from 1 to %d separated by spaces, or "
                           "just Enter for none", line, n);
        for (int i = 0; i < *npicked; i++)
            if (picked[i] == (int)k - 1)
                return err_set(e, "'%s': %ld is there twice", line, k);
        if (*npicked == CLI_MAX_RULES)
            return err_set(e, "'%s': at most %d house rules", line, CLI_MAX_RULES);
        picked[(*npicked)++] = (int)k - 1;
        p = end;
    }
    return 0;
}

/* Offer the scripts of scripts/ that fit o's variant; the chosen ones are
 * loaded into o->house (paths in m, which must outlive o).  0, or -1 at
 * the end of input. */
static int choose_rules(const Play *p, CliOptions *o, MenuScripts *m)
{
    char dir[400];
    scripts_dir(dir, sizeof dir);
    find_scripts(dir, o->variant, o->sides, m);
    if (m->n == 0)
        return 0;
    printf("House rules for %s (%s):\n", o->variant->title, dir);
    for (int i = 0; i < m->n; i++) {
        const char *base = strrchr(m->path[i], '/');
        printf("  %d  %-34s %s\n", i + 1, m->title[i], base ? base + 1 : m->path[i]);
    }
    for (;;) {
        char *l = read_line(p, "House rules (numbers, Enter: none)> ");
        if (!l)
            return -1;
        int picked[CLI_MAX_RULES], n = 0;
        Error e;
        int rc = cli_menu_rules(l, m->n, picked, &n, &e);
        free(l);
        if (rc == 0 && n == 0)
            return 0;
        for (int i = 0; rc == 0 && i < n; i++)
            o->rules[i] = m->path[picked[i]];
        o->nrules = n;
        if (rc == 0 && !(o->house = cli_load_house(o->variant, o->sides, o->rules, n, &e)))
            rc = -1;
        if (rc == 0)
            return 0;
        o->nrules = 0;
        printf("%s\n", e.msg);
    }
}

/* Which seats bots play: "black=greedy" words (as --bot), Enter for
 * none; asked again until every word names a seat and a level.  The words
 * are kept in buf (o->bots points into it).  0, or -1 at the end of input. */
static int choose_bots(const Play *p, CliOptions *o, char *buf, size_t n)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = o->variant;
    cfg.nsides = o->sides;
    cfg.nseats = o->seats;
    Error e;
    Game *g = game_new(&cfg, &e); /* for the seats' names only */
    if (!g)
        return 0;
    StrBuf names = STRBUF_INIT;
    for (int s = 0; s < game_nseats(g); s++)
        sb_printf(&names, "%s%s", s ? ", " : "", game_seat_name(g, s));
    printf("Bots (random, greedy, search) may play seats: %s.\n", sb_str(&names));
    int rc = -1;
    for (;;) {
        char *l = read_line(p, "Bots, e.g. black=greedy (Enter: none)> ");
        if (!l)
            break;
        snprintf(buf, n, "%s", l);
        free(l);
        o->nbots = 0;
        const char *bad = NULL;
        for (char *w = strtok(buf, " \t,"); w && !bad; w = strtok(NULL, " \t,")) {
            char *eq = strchr(w, '=');
            BotSpec spec;
            if (!eq || o->nbots == CLI_MAX_SEATS_BOTS) {
                bad = w;
                break;
            }
            *eq = '\0';
            if (game_seat_by_name(g, w) < 0 || bot_spec_parse(eq + 1, &spec, &e))
                bad = w;
            *eq = '=';
            o->bots[o->nbots++] = w;
        }
        if (!bad) {
            rc = 0;
            break;
        }
        printf("'%s': write SEAT=LEVEL with a seat among %s and a level random, "
               "greedy or search (search:N for N nodes a move)\n", bad, sb_str(&names));
    }
    sb_free(&names);
    game_free(g);
    return rc;
}

static const VariantOps *choose_variant(const Play *p)
{
    int n = 0;
    fputs("chessvar: choose a variant\n\n", stdout);
    for (; variant_registry[n]; n++) {
        printf("  %d  %-12s %s\n", n + 1, variant_registry[n]->name,
               variant_registry[n]->title);
        /* the summary under it, wrapped to 78 columns */
        const char *w = variant_registry[n]->summary;
        int col = 0;
        while (*w) {
            size_t len = strcspn(w, " ");
            if (col && col + 1 + (int)len > 78 - 7) {
                fputc('\n', stdout);
                col = 0;
            }
            printf("%s%.*s", col ? " " : "       ", (int)len, w);
            col += (col ? 1 : 0) + (int)len;
            w += len + strspn(w + len, " ");
        }
        fputc('\n', stdout);
    }
    fputs("\nType its number or name (q to quit).\n", stdout);
    for (;;) {
        char *line = read_line(p, "variant> ");
        if (!line)
            return NULL;
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
    if (a->npieces != b->npieces || a->ncaptured != b->ncaptured || a->nhand != b->nhand ||
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
    for (int i = 0; i < a->nhand && i < MAX_VIEW_HAND; i++) /* issue 24 */
        if (a->hand[i].side != b->hand[i].side || a->hand[i].figure != b->hand[i].figure ||
            a->hand[i].count != b->hand[i].count)
            return 1;
    return 0;
}

/* May seats a and b share the screen now (their views are the same)? */
/* Do the seats in mask (bit per seat) all see what seat a sees?  (Each
 * view is built once; out of memory counts as "no": never share then.) */
static int seats_share_all(const Game *g, int a, unsigned mask)
{
    View *va = malloc(sizeof *va), *vb = malloc(sizeof *vb);
    int same = va && vb && game_view(g, a, va) == 0;
    for (int s = 0; same && s < game_nseats(g); s++)
        if (s != a && (mask & (1u << s)))
            same = game_view(g, s, vb) == 0 && !views_differ(va, vb);
    free(va);
    free(vb);
    return same;
}

static int seats_share(const Game *g, int a, int b)
{
    return a == b || seats_share_all(g, a, 1u << b);
}

/* Home, erase the screen, erase the scrollback (ED3: xterm, tmux, VTE),
 * and forget the typed lines, so the arrow keys cannot bring them back. */
static void wipe(void)
{
    fputs("\x1b[H\x1b[2J\x1b[3J", stdout);
    fflush(stdout);
    clear_history();
}

/* Before `seat` sees its board: if the screen shows what this seat may not
 * know, or whoever loaded the game may not be that seat, wipe it and wait
 * until the terminal has changed hands. */
static void hand_over(Play *p, int seat)
{
    if (!p->tty_in || people(p) < 2 ||
        (p->shown_seat < 0 && p->shown_seat != SHOWN_LOADED) ||
        (p->shown_seat >= 0 && seats_share(p->g, p->shown_seat, seat)))
        return;
    const char *who = game_seat_name(p->g, seat);
    wipe();
    printf("Pass the terminal to %s.\n", who);
    char prompt[96];
    snprintf(prompt, sizeof prompt, "%s, press Enter when only you can see the screen> ",
             who);
    free(read_line(p, prompt));
    wipe();
    p->shown_seat = -1;
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
    return seats_share_all(p->g, seat, ~0u);
}

/* The seat's unread messages; how many lines they took. */
static int show_messages(Play *p, int seat)
{
    seen_sync(p);
    int shared = screens_shared(p, seat), lines = 0;
    for (int i = 0; i < p->nseen; i++) {
        const char *m = game_message(p->g, i, seat);
        if (!m || (p->seen[i] & (1u << seat)))
            continue;
        printf("* %s\n", m);
        lines++;
        p->seen[i] |= (unsigned char)(shared ? 0xFFu : 1u << seat);
    }
    return lines;
}

/* The terminal's size: columns from the terminal on standard output, else
 * $COLUMNS, else 80; lines likewise from $LINES, else 0 (unknown: a piped
 * transcript scrolls, it needs no window). */
static void term_size(int *cols, int *lines)
{
    struct winsize ws;
    const char *c = getenv("COLUMNS"), *l = getenv("LINES");
    *cols = c && atoi(c) > 0 ? atoi(c) : 80;
    *lines = l && atoi(l) > 0 ? atoi(l) : 0;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
        *cols = ws.ws_col;
        *lines = ws.ws_row;
    }
}

/* The drawing options now: the player's, and the room on the screen for
 * the board (what follows it, status to prompt, takes about six lines;
 * draw_view measures it); *lines: the terminal's, 0 unknown. */
static RenderOpts draw_opts(const Play *p, int *lines)
{
    RenderOpts ro = p->ro;
    term_size(&ro.width, lines);
    ro.height = *lines > 0 ? (*lines - 6 > 8 ? *lines - 6 : 8) : 0;
    return ro;
}

/* The rows text takes on a terminal cols wide: its lines, each as many
 * rows as it wraps to (characters counted, colour escapes not). */
static int screen_rows(const char *text, int cols)
{
    int rows = 0, col = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c == '\x1b') { /* ESC [ ... letter */
            while (c[1] && !((c[1] >= 'a' && c[1] <= 'z') || (c[1] >= 'A' && c[1] <= 'Z')))
                c++;
            c += c[1] != 0;
        } else if (*c == '\n') {
            rows += 1 + (col > 0 ? (col - 1) / cols : 0);
            col = 0;
        } else if ((*c & 0xC0) != 0x80) {
            col++;
        }
    }
    return rows + (col > 0 ? 1 + (col - 1) / cols : 0);
}

/* Draw g as `seat` sees it (no messages, no hand-over), `above` lines
 * under what the terminal shows already.  On a terminal of known height
 * the window of an unbounded table shrinks until the board's top, the
 * lines under it and the prompt fit (Tile with six sides: legend, marks,
 * threats and scores). */
static void draw_view(const Play *p, const Game *g, int seat, int above)
{
    View *v = malloc(sizeof *v);
    if (!v)
        return;
    game_view(g, seat, v);
    RenderNames n;
    cli_names(g, &n);
    StrBuf out = STRBUF_INIT;
    int lines;
    RenderOpts ro = draw_opts(p, &lines);
    render_view_text(v, &n, &ro, &out);
    int over = lines > 0 ? screen_rows(sb_str(&out), ro.width) + above + 2 - lines : 0;
    if (over > 0 && ro.height > 8) { /* + 2: the blank line above, the prompt */
        ro.height = ro.height - over > 8 ? ro.height - over : 8;
        sb_reset(&out);
        render_view_text(v, &n, &ro, &out);
    }
    fputs(sb_str(&out), stdout);
    sb_free(&out);
    free(v);
}

/* The seat at the keyboard: the seat to act, or once the game is over the
 * seat that saw the board last. */
static int prompt_seat(const Play *p)
{
    int seat = game_to_act(p->g);
    if (is_bot(p, seat) && person_seat(p) >= 0)
        seat = person_seat(p); /* a bot's turn: the person's board stays */
    if (seat < 0)
        seat = p->shown_seat >= 0 ? p->shown_seat : 0;
    return seat;
}

/* Each seat that has not shown its hidden pieces is asked whether it
 * will (MASQ-16: nobody is forced to). */
static void ask_show(Play *p)
{
    if (!game_hidden_info(p->g)) {
        puts("nothing is hidden in this game");
        return;
    }
    for (int s = 0; s < game_nseats(p->g); s++) {
        if (game_shown(p->g) & (1u << s))
            continue;
        char q[96];
        Error e;
        snprintf(q, sizeof q, "%s: show your masked pieces to everyone? (yes/no)> ",
                 game_seat_name(p->g, s));
        if (ask_yes(p, q) == 1 && game_show(p->g, s, &e))
            printf("error: %s\n", e.msg);
    }
}

/* The end of a game whose seats know different things: every player may
 * look now, so the screen (and scrollback) of the last seat is wiped and
 * the board shows what every seat may know: View of seat -1, the public
 * messages, and whatever the owners chose to show (game_show). */
static void show_public(Play *p)
{
    if (p->tty_in && people(p) >= 2 && p->shown_seat != SHOWN_PUBLIC &&
        game_to_act(p->g) < 0) {
        wipe();
        puts("The game is over: both players may look at the screen now.");
    }
    fputc('\n', stdout);
    seen_sync(p);
    for (int i = 0; i < p->nseen; i++) {
        int all = 1, unread = 0;
        for (int s = 0; s < game_nseats(p->g); s++) {
            all &= game_message(p->g, i, s) != NULL;
            unread |= !(p->seen[i] & (1u << s));
        }
        if (all && unread)
            printf("* %s\n", game_message(p->g, i, 0));
        p->seen[i] = 0xFF;
    }
    draw_view(p, p->g, -1, 0);
    p->shown_seat = SHOWN_PUBLIC;
}

/* Seats other than the one at the prompt that may take a side over now
 * (L'Échiqueté, ECHQ-9, ECHQ-12): they are told how, between moves. */
static void takeover_hint(const Play *p)
{
    int to_act = game_to_act(p->g);
    StrBuf who = STRBUF_INIT, how = STRBUF_INIT;
    for (int s = 0; s < game_nseats(p->g); s++) {
        ActionList l = ACTIONLIST_INIT;
        if (s != to_act)
            game_legal(p->g, s, &l);
        int can = 0;
        for (int i = 0; i < l.n; i++)
            can |= l.v[i].kind == ACT_TAKEOVER;
        if (can) {
            sb_printf(&who, "%s%s", who.len ? " or " : "", game_seat_name(p->g, s));
            sb_printf(&how, "%s'takeover %s'", how.len ? " or " : "", game_seat_name(p->g, s));
        }
        al_free(&l);
    }
    if (who.len)
        printf("%s may take over now: type %s\n", sb_str(&who), sb_str(&how));
    sb_free(&who);
    sb_free(&how);
}

/* The board of the seat at the keyboard, after a hand-over if needed. */
static void show(Play *p)
{
    int seat = prompt_seat(p);
    if ((game_to_act(p->g) < 0 || person_seat(p) < 0) && game_hidden_info(p->g)) {
        show_public(p); /* the end, or bots on every seat: what all may know */
        return;
    }
    hand_over(p, seat);
    fputc('\n', stdout);
    draw_view(p, p->g, seat, show_messages(p, seat));
    p->shown_seat = seat;
    takeover_hint(p);
}

/* ---- Commands at the prompt ------------------------------------------- */

static const struct {
    const char *usage, *doc;
} GAME_COMMANDS[] = {
    {"legal", "the legal moves of the seat to act"},
    {"why ACTION", "is ACTION legal for you now, and by which rule (why Nf3, why O-O)"},
    {"board", "show the board again"},
    {"undo [N]", "take back the last N actions (default 1); against a bot, your "
                 "last N moves and its replies"},
    {"resign", "give up the game (asks first)"},
    {"draw", "offer a draw; the opponent answers at its turn"},
    {"accept", "accept the opponent's draw offer"},
    {"decline", "decline the opponent's draw offer"},
    {"claim", "claim a draw (threefold repetition, fifty moves)"},
    {"save FILE", "write the game record (play --load FILE resumes it)"},
    {"position", "the full position string, when the variant shows it"},
    {"params", "the game's parameters"},
    {"rules", "the rules of this variant, as played here"},
    {"bottom SIDE", "keep SIDE at the bottom of the board (auto: the seat to act)"},
    {"pan DIR [N]", "a table too big for the screen: move its window N squares "
                    "(DIR: left, right, up, down)"},
    {"pan X,Y", "centre that window on square X,Y; pan alone: follow the play"},
    {"takeover SEAT", "SEAT takes a side over between moves, where the variant allows"},
    {"help", "this list"},
    {"quit", "leave the game (asks first, offers to save)"},
};

static void print_help(const Play *p)
{
    const VariantOps *v = game_variant(p->g);
    const VariantHelp *h = v->version >= 2 ? v->help : NULL;
    int w = 18;
    for (const VariantHelp *k = h; k && k->usage; k++)
        w = (int)strlen(k->usage) > w ? (int)strlen(k->usage) : w;
    if (h && h->usage) {
        printf("%s: what you may type\n", v->title);
        for (; h->usage; h++) {
            printf("  %-*s %s", w, h->usage, h->doc);
            if (h->example && h->example[0] && strcmp(h->example, h->usage) != 0)
                printf(" (e.g. %s)", h->example);
            fputc('\n', stdout);
        }
    } else {
        ActionList l = ACTIONLIST_INIT;
        StrBuf ex = STRBUF_INIT;
        game_legal_play(p->g, &l);
        if (l.n > 0)
            game_format(p->g, &l.v[0], FMT_RECORD, &ex);
        printf("Type a move as %s reads it%s%s%s.\n", v->title,
               ex.len ? " (for example " : "", sb_str(&ex), ex.len ? ")" : "");
        sb_free(&ex);
        al_free(&l);
    }
    puts("Commands of every game:");
    for (size_t i = 0; i < ARRAY_LEN(GAME_COMMANDS); i++)
        printf("  %-*s %s\n", w, GAME_COMMANDS[i].usage, GAME_COMMANDS[i].doc);
}

static void print_legal(const Play *p)
{
    int seat = game_to_act(p->g);
    ActionList l = ACTIONLIST_INIT;
    StrBuf out = STRBUF_INIT, meta = STRBUF_INIT;
    int count = 0, col = 0;
    if (game_legal(p->g, seat, &l)) { /* a house rule's hook failed */
        printf("error: %s\n", game_hook_error(p->g));
        al_free(&l);
        return;
    }
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

static void print_position(const Play *p)
{
    View *v = malloc(sizeof *v);
    if (!v)
        return;
    game_view(p->g, prompt_seat(p), v);
    if (v->position[0])
        printf("%s\n", v->position);
    else
        puts("The full position is hidden from the players in this variant.");
    free(v);
}

static void print_rules(const Play *p)
{
    StrBuf out = STRBUF_INIT;
    cli_rules_text(game_variant(p->g), game_params(p->g), &out);
    fputs(sb_str(&out), stdout);
    sb_free(&out);
}

/* A game that hides facts is saved only if every seat whose secrets the
 * record holds agrees (docs/RECORDS.md, game_secret_seats): while the game
 * is on the other seats (seat asks), after the end every seat that has not
 * shown its pieces (nobody in particular asks: seat -1). */
static int others_agree(const Play *p, int seat, const char *path)
{
    const Game *g = p->g;
    unsigned need = game_secret_seats(g);
    for (int s = 0; s < game_nseats(g); s++) {
        if (s == seat || !(need & (1u << s)))
            continue;
        const char *who = game_seat_name(g, s);
        if (seat < 0)
            printf("The record in %s holds what %s has not shown: whoever reads "
                   "the file learns it.\n", path, who);
        else
            printf("%s asks to save the game to %s. The record of a game in progress "
                   "holds every\nseat's hidden facts (it is needed to resume): whoever "
                   "reads the file learns them.\n", game_seat_name(g, seat), path);
        char prompt[96];
        snprintf(prompt, sizeof prompt, "%s, do you agree? (yes/no)> ", who);
        if (ask_yes(p, prompt) != 1) {
            printf("not saved: %s did not agree\n", who);
            return 0;
        }
    }
    return 1;
}

static void save_game(const Play *p, int seat, const char *path)
{
    Error e;
    if (!path[0]) {
        puts("save needs a file name: save FILE");
        return;
    }
    if (game_to_act(p->g) < 0)
        seat = -1; /* after the end nobody in particular is at the keyboard */
    if (!others_agree(p, seat, path))
        return;
    int secrets = game_hidden_info(p->g) && game_to_act(p->g) >= 0;
    unsigned kept = game_secret_seats(p->g);
    if (record_save_file(p->g, path, &e)) {
        printf("error: %s\n", e.msg);
        return;
    }
    printf("saved to %s%s", path,
           secrets ? " (it holds both seats' hidden facts: keep it closed until "
                     "you resume)" : kept ? " (it holds what" : "");
    for (int s = 0, k = 0; !secrets && s < game_nseats(p->g); s++)
        if (kept & (1u << s))
            printf("%s%s", k++ ? " and " : " ", game_seat_name(p->g, s));
    puts(!secrets && kept ? " did not show)" : "");
}

/* How many of the last actions `undo N` takes back: N when people play
 * every seat; with a bot at the table, everything back to before the N-th
 * last action of a person, so that a person is to act again (taking back
 * the bot's reply alone, it would play it again at once).  0 with *plies,
 * or -1 with e. */
static int undo_plies(const Play *p, long n, int *plies, Error *e)
{
    int bots = 0, h = game_history_len(p->g), k = h;
    for (int s = 0; s < game_nseats(p->g); s++)
        bots += is_bot(p, s);
    if (!bots) {
        *plies = (int)n;
        return 0;
    }
    if (person_seat(p) < 0)
        return err_set(e, "bots play every seat: there is no move of a person to take "
                          "back (again starts a new game)");
    for (long left = n; left > 0; left--) {
        do
            k--;
        while (k >= 0 && is_bot(p, game_history(p->g, k)->action.seat));
        if (k < 0 && left == n)
            return err_set(e, "nothing to take back: no move of yours has been played yet");
        if (k < 0)
            return err_set(e, "only %ld move%s of yours to take back", n - left,
                           n - left == 1 ? "" : "s");
    }
    *plies = h - k;
    return 0;
}

static void do_undo(Play *p, const char *arg)
{
    Error e;
    char *end;
    long n = arg[0] ? strtol(arg, &end, 10) : 1;
    int plies = 0;
    if (arg[0] && (*end || n < 1 || n > 100000)) {
        puts("undo takes how many actions to take back, e.g. undo 2");
        return;
    }
    if (undo_plies(p, n, &plies, &e) || game_undo_by(p->g, prompt_seat(p), plies, &e)) {
        printf("error: %s\n", e.msg);
        return;
    }
    seen_all(p); /* the replay said it all again */
    printf("took back %d action%s\n", plies, plies == 1 ? "" : "s");
    show(p);
}

/* `takeover SEAT`: a seat not at the prompt takes a side over between
 * moves (hot-seat: the person says so at the keyboard). */
static void take_over(Play *p, const char *name)
{
    Error e;
    int seat = game_seat_by_name(p->g, name);
    if (seat < 0) {
        printf("error: no seat '%s'\n", name);
        return;
    }
    if (game_play(p->g, seat, "takeover", &e)) {
        printf("error: %s\n", e.msg);
        return;
    }
    show(p);
}

/* The square `pan` puts the window's centre on, from the window w now:
 * "left 3", "up" (half a window), "-4,2".  0 with *c, or -1 with e. */
static int pan_target(const View *v, const RenderWindow *w, const char *arg, Coord *c,
                      Error *e)
{
    static const struct { const char *word; int dx, dy; } DIRS[] = {
        {"left", -1, 0}, {"right", 1, 0}, {"up", 0, 1}, {"down", 0, -1}};
    char word[16];
    char buf[ACTION_TEXT_MAX + 1];
    str_copy(buf, sizeof buf, arg);
    const char *rest = split_word(buf, word, sizeof word);
    for (size_t i = 0; i < ARRAY_LEN(DIRS); i++) {
        if (!str_ieq(word, DIRS[i].word))
            continue;
        int half = (DIRS[i].dx ? w->cols : w->rows) / 2;
        char *end;
        long n = rest[0] ? strtol(rest, &end, 10) : (half > 0 ? half : 1);
        if (rest[0] && (*end || n < 1 || n > 1000000))
            return err_set(e, "pan %s takes how many squares, e.g. pan %s 3", word, word);
        *c = coord_make((int32_t)(w->centre.x + DIRS[i].dx * n),
                        (int32_t)(w->centre.y + DIRS[i].dy * n));
        return 0;
    }
    const char *s = arg;
    Error pe;
    if (geo_parse_square(&v->geo, &s, c, &pe) == 0 && !*s)
        return 0;
    return err_set(e, "pan %s: type pan left, right, up or down [N], pan X,Y (a square), "
                      "or pan alone to follow the play", arg);
}

/* `pan ...`: moves the window through which a table wider (or taller)
 * than the screen is drawn.  Display only: it changes nothing in the game,
 * and a batch user gets every piece in the view (docs/PROTOCOL.md). */
static void do_pan(Play *p, const char *arg)
{
    View *v = malloc(sizeof *v);
    if (!v)
        return;
    game_view(p->g, prompt_seat(p), v);
    int lines;
    RenderOpts ro = draw_opts(p, &lines);
    RenderWindow w;
    Error e;
    Coord c;
    render_window(v, &ro, &w);
    if (v->geo.bounded) {
        puts("the board is always drawn whole: pan moves the window on the unbounded table");
    } else if (!arg[0]) {
        p->ro.pan = 0;
        puts("the window follows the play again");
        show(p);
    } else if (!w.cut) {
        puts("the whole table fits on the screen: there is nothing to pan");
    } else if (pan_target(v, &w, arg, &c, &e)) {
        printf("error: %s\n", e.msg);
    } else {
        ro.pan = 1;
        ro.pan_at = c;
        RenderWindow moved;
        render_window(v, &ro, &moved); /* kept inside the table */
        p->ro.pan = 1;
        p->ro.pan_at = moved.centre;
        if (coord_eq(moved.centre, w.centre))
            puts("the window does not move: it is already there, at the table's edge");
        else
            show(p);
    }
    free(v);
}

static void set_bottom(Play *p, const char *arg)
{
    Error e;
    int side = -1;
    if (!str_ieq(arg, "auto") && cli_side_arg(p->g, arg, &side, &e)) {
        printf("error: %s\n", e.msg);
        return;
    }
    p->ro.bottom = side + 1;
    show(p);
}

/* How many of the last actions are placements by seat. */
static int trailing_placements(const Game *g, int seat)
{
    int n = 0;
    for (int i = game_history_len(g) - 1; i >= 0; i--, n++) {
        const HistoryEntry *h = game_history(g, i);
        if (h->action.seat != seat || h->action.kind != ACT_PLACE)
            break;
    }
    return n;
}

/* A seat that has just placed its last piece behind a hand-over sees its
 * arrangement once more and keeps it or places again (on a terminal, two
 * or more people at it). */
static void confirm_setup(Play *p, int seat)
{
    Game *g = p->g;
    while (p->tty_in && people(p) >= 2 && game_hidden_info(g)) {
        int n = trailing_placements(g, seat), next = game_to_act(g);
        if (n == 0 || next < 0 || next == seat || seats_share(g, seat, next))
            return;
        fputc('\n', stdout);
        draw_view(p, g, seat, show_messages(p, seat));
        puts("This is your arrangement.");
        char *l = read_line(p, "Enter: keep it and pass the terminal on; "
                               "change: place again> ");
        int change = l && str_ieq(l, "change");
        if (l && l[0] && !change)
            puts("type change to place your pieces again, or just Enter to keep them");
        int again = l && l[0] && !change;
        free(l);
        if (again)
            continue;
        if (!change)
            return;
        Error e;
        if (game_undo_by(g, seat, n, &e)) {
            printf("error: %s\n", e.msg);
            return;
        }
        seen_all(p);
        puts("your pieces are back in hand");
        return;
    }
}

/* A move, or a meta word, typed by the seat at the keyboard. */
static void do_action(Play *p, const char *text)
{
    Error e;
    int seat = prompt_seat(p);
    int offer = game_draw_offer(p->g);
    if ((str_ieq(text, "accept") || str_ieq(text, "decline")) && offer == seat) {
        puts("you offered the draw: the other side answers it at its turn");
        return;
    }
    if (game_play(p->g, seat, text, &e)) {
        printf("error: %s\n", e.msg);
        puts("(type 'legal' for the legal moves, 'help' for the commands)");
        return;
    }
    confirm_setup(p, seat);
    show(p);
}

/* `quit` during a game: 1 when the player really leaves. */
static int leave_game(Play *p)
{
    if (game_to_act(p->g) < 0)
        return 1;
    int yes = ask_yes(p, "The game is not over. Leave it? (yes/no)> ");
    if (yes < 0)
        return 1; /* nothing more will be typed */
    if (!yes) {
        puts("the game goes on");
        return 0;
    }
    if (game_history_len(p->g) == 0)
        return 1;
    char *path = read_line(p, "File name to save it to (Enter: leave without saving)> ");
    if (path && path[0])
        save_game(p, prompt_seat(p), path);
    free(path);
    return 1;
}

/* `why ACTION` (issue 22): the rule that makes ACTION legal or not for the
 * seat at the prompt, from what that seat may know. */
static void explain(Play *p, const char *arg)
{
    WhyAnswer w;
    Error e;
    if (game_why(p->g, prompt_seat(p), arg, &w, &e))
        printf("error: %s\n", e.msg);
    else
        printf("%s\n", w.text);
}

/* One line at the prompt of a game in progress; PLAY_QUIT when the player
 * leaves, else PLAY_ON. */
static int command(Play *p, char *line)
{
    char word[16];
    char *arg = split_word(line, word, sizeof word);
    if (!line[0])
        return PLAY_ON;
    if (str_ieq(word, "quit") || str_ieq(word, "exit"))
        return leave_game(p) ? PLAY_QUIT : PLAY_ON;
    if (str_ieq(word, "help") || str_ieq(word, "?"))
        print_help(p);
    else if (str_ieq(word, "legal"))
        print_legal(p);
    else if (str_ieq(word, "why"))
        explain(p, arg);
    else if (str_ieq(word, "board"))
        show(p);
    else if (str_ieq(word, "undo"))
        do_undo(p, arg);
    else if (str_ieq(word, "save"))
        save_game(p, prompt_seat(p), arg);
    else if (str_ieq(word, "position"))
        print_position(p);
    else if (str_ieq(word, "rules"))
        print_rules(p);
    else if (str_ieq(word, "bottom"))
        set_bottom(p, arg);
    else if (str_ieq(word, "pan"))
        do_pan(p, arg);
    else if (str_ieq(word, "takeover") && arg[0])
        take_over(p, arg);
    else if (str_ieq(word, "params")) {
        StrBuf out = STRBUF_INIT;
        params_describe(game_variant(p->g), game_params(p->g), &out);
        fputs(out.len ? sb_str(&out) : "(no parameters)\n", stdout);
        sb_free(&out);
    } else if (str_ieq(line, "resign")) {
        char q[96];
        snprintf(q, sizeof q, "%s: resign the game? (yes/no)> ",
                 game_seat_name(p->g, prompt_seat(p)));
        if (ask_yes(p, q) == 1)
            do_action(p, "resign");
        else
            puts("not resigned: the game goes on");
    } else {
        do_action(p, line);
    }
    return PLAY_ON;
}

/* ---- Reviewing a finished game ------------------------------------------ */

/* The position after the first k actions, as `seat` saw it. */
static void show_ply(const Play *p, int k, int seat)
{
    int n = game_history_len(p->g);
    Game *c = game_clone(p->g); /* at the end: with what was shown */
    Error e;
    if (k < n && game_undo(c, n - k, &e)) {
        printf("error: %s\n", e.msg);
        game_free(c);
        return;
    }
    printf("\nafter %d of %d actions", k, n);
    if (k > 0) {
        StrBuf t = STRBUF_INIT;
        game_history_text(p->g, k - 1, seat, &t);
        printf(" (%d. %s: %s)", k, game_seat_name(p->g, game_history(p->g, k - 1)->action.seat),
               sb_str(&t));
        sb_free(&t);
    }
    printf(", seen by %s\n", seat < 0 ? "everyone" : game_seat_name(p->g, seat));
    draw_view(p, c, seat, 0);
    game_free(c);
}

/* May the review show what `seat` saw?  Always without hidden facts;
 * else only once that seat has shown its pieces (MASQ-12, MASQ-16), in a
 * game loaded from its file too: the file holds the secrets because its
 * seats agreed to save them, not to show them (game_may_read). */
static int may_review_as(const Play *p, int seat)
{
    return game_may_read(p->g, -1, seat);
}

/* Step through a finished game: forward, back, to any action. */
static void review(Play *p)
{
    int n = game_history_len(p->g), k = n;
    int seat = game_hidden_info(p->g) ? -1 : prompt_seat(p);
    puts("Review: next (or Enter), back, go N, start, end, seat NAME (or everyone), done.");
    for (;;) {
        show_ply(p, k, seat);
        char *l = read_line(p, "review> ");
        if (!l)
            return;
        char word[16];
        char *arg = split_word(l, word, sizeof word);
        int done = str_ieq(word, "done") || str_ieq(word, "quit") || str_ieq(word, "q");
        if (!l[0] || str_ieq(word, "next") || str_ieq(word, "n"))
            k = k < n ? k + 1 : n;
        else if (str_ieq(word, "back") || str_ieq(word, "b"))
            k = k > 0 ? k - 1 : 0;
        else if (str_ieq(word, "start"))
            k = 0;
        else if (str_ieq(word, "end"))
            k = n;
        else if (str_ieq(word, "go")) {
            char *end;
            long x = strtol(arg, &end, 10);
            if (!arg[0] || *end || x < 0 || x > n)
                printf("go takes an action number from 0 to %d\n", n);
            else
                k = (int)x;
        } else if (str_ieq(word, "seat")) {
            int s = game_seat_by_name(p->g, arg);
            if (str_ieq(arg, "everyone"))
                seat = -1;
            else if (s < 0)
                printf("no seat '%s'\n", arg);
            else if (!may_review_as(p, s))
                printf("what %s saw holds what it kept hidden: %s may show it first "
                       "(show, after the review)\n", arg, arg);
            else
                seat = s;
        } else if (!done) {
            puts("review commands: next (or Enter), back, go N, start, end, seat NAME, done");
        }
        free(l);
        if (done)
            return;
    }
}

/* ---- The end of a game ----------------------------------------------------- */

/* After the result: save, review, a new game, the menu or quit.  PLAY_ON
 * when an undo took the game back into play. */
static int after_game(Play *p)
{
    static const char HINT[] = "The game is over. Type save FILE to keep the record, "
                               "review to step through\nit, again for a new game, menu "
                               "for another variant, or quit.";
    puts(HINT);
    if (game_hidden_info(p->g))
        puts("Masked pieces stay masked unless their owners type show.");
    for (;;) {
        char *l = read_line(p, "game over> ");
        if (!l)
            return PLAY_QUIT;
        char word[16];
        char *arg = split_word(l, word, sizeof word);
        int rc = -1;
        if (str_ieq(word, "quit") || str_ieq(word, "exit") || str_ieq(word, "q"))
            rc = PLAY_QUIT;
        else if (str_ieq(word, "again"))
            rc = PLAY_AGAIN;
        else if (str_ieq(word, "menu"))
            rc = PLAY_MENU;
        else if (str_ieq(word, "save"))
            save_game(p, prompt_seat(p), arg);
        else if (str_ieq(word, "review"))
            review(p);
        else if (str_ieq(word, "show")) {
            ask_show(p);
            show(p);
        }
        else if (str_ieq(word, "board"))
            show(p);
        else if (str_ieq(word, "pan"))
            do_pan(p, arg);
        else if (str_ieq(word, "rules"))
            print_rules(p);
        else if (str_ieq(word, "undo")) {
            do_undo(p, arg);
            if (game_to_act(p->g) >= 0)
                rc = PLAY_ON;
        } else if (l[0])
            puts(HINT);
        free(l);
        if (rc >= 0)
            return rc;
    }
}

/* Action i as the person at the keyboard may read it (reader -1: the
 * seats' common text, for bots on every seat). */
static void bot_action_text(const Play *p, int i, int reader, StrBuf *t)
{
    sb_reset(t);
    if (reader >= 0)
        game_history_text(p->g, i, reader, t);
    else
        sb_puts(t, game_history(p->g, i)->text);
}

/* Print seat's actions from `from` on as the person at the keyboard may
 * read them; a run of the same text (a bot's hidden setup placements, "black
 * arranges a piece") is one line with its count. */
static void print_bot_actions(const Play *p, int seat, int from)
{
    int reader = person_seat(p) >= 0 && game_hidden_info(p->g) ? person_seat(p) : -1;
    int n = game_history_len(p->g);
    StrBuf t = STRBUF_INIT, next = STRBUF_INIT;
    for (int i = from; i < n;) {
        bot_action_text(p, i, reader, &t);
        int run = 1;
        for (; i + run < n; run++) {
            bot_action_text(p, i + run, reader, &next);
            if (strcmp(sb_str(&next), sb_str(&t)) != 0)
                break;
        }
        printf("%s (%s bot): %s", game_seat_name(p->g, seat),
               bot_level_name(p->spec[seat].level), sb_str(&t));
        if (run > 1)
            printf(" (%d times)", run);
        fputc('\n', stdout);
        i += run;
    }
    sb_free(&t);
    sb_free(&next);
}

/* A bot plays for seat, as long as that seat is to act (a hidden setup is
 * many placements in a row); its actions are printed, then the board once.
 * -1 if the bot could not act. */
static int bot_turn(Play *p, int seat)
{
    int before = game_history_len(p->g);
    const BotSpec *spec = &p->spec[seat];
    int level = spec->level;
    Error e;
    do {
        if (bot_play_spec(p->g, seat, spec, &p->bot_rng, NULL, &e)) {
            print_bot_actions(p, seat, before);
            printf("error: the %s bot of %s: %s\n", bot_level_name(level),
                   game_seat_name(p->g, seat), e.msg);
            return -1;
        }
    } while (game_to_act(p->g) == seat && !interrupted);
    print_bot_actions(p, seat, before);
    fflush(stdout);
    if (p->delay_ms > 0) {
        struct timespec ts = {p->delay_ms / 1000, (long)(p->delay_ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    show(p);
    return 0;
}

/* Which seats bots play (--bot SEAT=LEVEL): 0, or -1 with e. */
static int read_bots(Play *p, const CliOptions *o, Error *e)
{
    for (int i = 0; i < o->nbots; i++) {
        const char *eq = strchr(o->bots[i], '=');
        char name[32];
        snprintf(name, sizeof name, "%.*s", (int)(eq - o->bots[i]), o->bots[i]);
        int seat = game_seat_by_name(p->g, name);
        if (seat < 0 || seat >= MAX_SEATS) {
            StrBuf b = STRBUF_INIT;
            for (int s = 0; s < game_nseats(p->g); s++)
                sb_printf(&b, "%s%s", s ? ", " : "", game_seat_name(p->g, s));
            err_set(e, "--bot %s: no seat '%s' (the seats: %s)", o->bots[i], name, sb_str(&b));
            sb_free(&b);
            return -1;
        }
        if (bot_spec_parse(eq + 1, &p->spec[seat], e)) {
            err_prefix(e, "--bot %s", o->bots[i]);
            return -1;
        }
        p->bot[seat] = 1;
    }
    return 0;
}

/* Play g to its end, or until the player leaves: what play_games returns. */
static int play_loop(Play *p)
{
    printf("%s", game_variant(p->g)->title);
    const House *h = house_of(p->g);
    for (int i = 0; h && i < house_count(h); i++)
        printf("%s%s", i ? ", " : ", with house rules: ", house_title(h, i));
    printf(". Type 'help' for the commands.\n");
    show(p);
    for (;;) {
        int seat = game_to_act(p->g);
        if (seat < 0) {
            int rc = after_game(p);
            if (rc != PLAY_ON)
                return rc;
            continue;
        }
        if (interrupted) { /* Ctrl-C during a bot's turn */
            take_interrupt();
            if (!p->tty_in)
                return PLAY_QUIT; /* nobody at a terminal to ask */
            puts("\n(Ctrl-C) quit");
            if (leave_game(p))
                return PLAY_QUIT;
            continue;
        }
        if (is_bot(p, seat)) {
            if (bot_turn(p, seat)) /* its error was printed: the exit says so */
                return -1 - CLI_EXIT_FAIL;
            continue;
        }
        char prompt[80];
        snprintf(prompt, sizeof prompt, "%s> ", game_seat_name(p->g, seat));
        char *line = read_line(p, prompt);
        if (!line && !p->tty_in)
            return PLAY_QUIT; /* piped input has ended: nobody is left to ask */
        if (!line) { /* Ctrl-D or Ctrl-C at the prompt: as `quit` */
            printf("%s quit\n", take_interrupt() ? "(Ctrl-C)" : "(Ctrl-D)");
            if (leave_game(p))
                return PLAY_QUIT;
            continue;
        }
        int rc = command(p, line);
        free(line);
        if (rc != PLAY_ON)
            return rc;
    }
}

/* A new game like g (variant, sides, parameters, start, house rules) with
 * a fresh seed; a start the rules' setup built is built again. */
static Game *game_again(const Game *g, Error *e)
{
    GameConfig c = *game_config(g);
    GameHooks k = game_hooks(g);
    if (house_of(g)) /* a new game: its hooks' total time budget is whole */
        house_new_game(house_of(g));
    c.seed = cli_fresh_seed();
    if (game_setup_made(g))
        c.position = NULL;
    return game_new_hooked(&c, &k, e);
}

/* The games of one variant, from the options, until the player quits or
 * asks for the menu: PLAY_QUIT or PLAY_MENU, or -1 - exit status when the
 * first game could not start or a bot could not act. */
static int play_games(const CliOptions *o, uint64_t seed)
{
    Play p;
    Error e;
    int status;
    memset(&p, 0, sizeof p);
    input_mode(&p.tty_in, &p.edit);
    catch_sigint();
    p.ro.ascii = o->ascii;
    p.ro.color = cli_use_color();
    e.msg[0] = '\0';
    p.g = cli_start_game_asking(o, seed, ask_trust, &p, &e, &status);
    if (!p.g) {
        fprintf(stderr, "chessvar %s: %s\n", o->command, e.msg);
        return -1 - status;
    }
    int side = -1;
    if (o->bottom && cli_side_arg(p.g, o->bottom, &side, &e)) {
        fprintf(stderr, "chessvar %s: --bottom %s\n", o->command, e.msg);
        game_free(p.g);
        return -1 - CLI_EXIT_USAGE;
    }
    p.ro.bottom = side + 1;
    p.delay_ms = o->delay_ms;
    rng_seed(&p.bot_rng, game_config(p.g)->seed ^ 0x626f7473ULL); /* --seed repeats */
    if (read_bots(&p, o, &e)) {
        fprintf(stderr, "chessvar %s: %s\n", o->command, e.msg);
        game_free(p.g);
        return -1 - CLI_EXIT_USAGE;
    }
    int rc = PLAY_QUIT;
    for (;;) {
        p.shown_seat = -1;
        seen_all(&p); /* messages of a loaded game are history */
        if (o && o->load && game_history_len(p.g) > 0 && game_to_act(p.g) < 0) {
            printf("loaded %s: a finished game of %d actions\n", o->load,
                   game_history_len(p.g));
            review(&p);
        } else if (o && o->load) {
            printf("loaded %s: %d action%s played\n", o->load, game_history_len(p.g),
                   game_history_len(p.g) == 1 ? "" : "s");
            if (game_hidden_info(p.g)) /* issue 19 point 2: a hand-over first */
                p.shown_seat = SHOWN_LOADED;
        }
        o = NULL; /* a second game is a new one, not the file again */
        rc = play_loop(&p);
        if (rc != PLAY_AGAIN)
            break;
        Game *next = game_again(p.g, &e);
        if (!next) {
            printf("error: %s\n", e.msg);
            break;
        }
        game_free(p.g);
        p.g = next;
        free(p.seen);
        p.seen = NULL;
        p.nseen = 0;
    }
    game_free(p.g);
    free(p.seen);
    return rc;
}

int cli_menu(const CliOptions *o)
{
    Play p;
    memset(&p, 0, sizeof p);
    input_mode(&p.tty_in, &p.edit);
    catch_sigint();
    for (;;) {
        const VariantOps *v = choose_variant(&p);
        if (!v)
            return CLI_EXIT_OK;
        CliOptions mine = *o;
        mine.variant = v;
        mine.command = "play";
        /* how many sides and people play, where the variant allows a choice */
        if (cli_menu_asks_sides(v) &&
            ask_count(&p, "How many sides", v->min_sides, v->max_sides,
                      v->default_sides, &mine.sides) < 0)
            return CLI_EXIT_OK;
        if (v->version >= 2 && v->max_seats > v->min_seats &&
            ask_count(&p, "How many players", v->min_seats, v->max_seats,
                      v->default_seats, &mine.seats) < 0)
            return CLI_EXIT_OK;
        MenuScripts *scripts = malloc(sizeof *scripts);
        if (!scripts || choose_rules(&p, &mine, scripts) < 0) {
            free(scripts);
            return CLI_EXIT_OK;
        }
        char bots[256];
        if (choose_bots(&p, &mine, bots, sizeof bots) < 0) {
            house_free(mine.house);
            free(scripts);
            return CLI_EXIT_OK;
        }
        int rc = play_games(&mine, cli_fresh_seed());
        house_free(mine.house); /* each game holds its own */
        free(scripts);
        if (rc < 0)
            return -1 - rc;
        if (rc != PLAY_MENU)
            return CLI_EXIT_OK;
    }
}

int cli_play(const CliOptions *o)
{
    int rc = play_games(o, cli_fresh_seed());
    if (rc < 0)
        return -1 - rc;
    if (rc != PLAY_MENU)
        return CLI_EXIT_OK;
    CliOptions menu = *o;
    menu.load = NULL;
    menu.fen = NULL;
    menu.nparams = 0;
    return cli_menu(&menu);
}
