/*
 * test_masques_cli_leak.c -- the leak test of Les Échecs Masqués through the
 * command layer (MASQ-1, MASQ-12, docs/PROTOCOL.md "Every answer speaks to
 * one seat"): nothing the program `chessvar run masques --json` answers to a
 * seat, and no file it writes at that seat's request, depends on the
 * enemy's masked figures.
 *
 * Twin pairs: two copies of the real program (env CHESSVAR) run the same
 * seeded game, except that in the twin the figures of some of one side's
 * pieces (the hidden side) are permuted among themselves in its
 * `arrange` (or in the start position: twins mated at once).  Some pairs
 * answer in JSON, some in text; each game is played to its end (or ended
 * by a resignation or an agreed draw) and questioned past it, before and
 * after the observer shows its own pieces; records are saved by both
 * seats mid-game and after the end and the programs go on from them
 * (`run --load`), questioned again (issue 19 point 2, MASQ-16).  The actions are chosen in-process (the library: game_legal,
 * game_play on clones) so that both games stay comparable: every piece
 * whose figure differs stays masked on the same square, or left the board
 * without reveal.  After each action both programs are asked the same
 * battery of questions AS THE OTHER SEAT (the observer): view, legal,
 * history, status, position, the hidden seat's view and legal list, save
 * (then the file itself), moves and reveals from the hidden pieces'
 * squares, undo, garbage, and `why` of each probe (issue 22); every
 * answer must be one line of JSON and the
 * observer's answers byte-identical between the twins.  Answers to the
 * hidden side's own actions are compared on what the observer may read of
 * them (status, seat to act, messages addressed to the observer).
 *
 * Besides the twin comparison, the behaviour of the command layer for a
 * game with hidden information is asserted directly: another seat's view
 * or legal list is refused, a lone `save` mid-game writes nothing
 * (every seat must agree), a seat cannot undo the other seat's action;
 * after the end the same holds until the other seat shows its pieces, and
 * the terminal game asks for consent at `game over>` and reviews a loaded
 * game without the unshown seats' views.
 *
 * Invariant: every finding names the command (with S = observer, H = hidden
 * seat), the seed, the ply and both answers; a pair stops being compared
 * (never excused) as soon as the rules would publish a permuted figure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/game.h"
#include "support/testutil.h"

#if TU_SANITIZED
enum { PAIRS = 8, PLIES = 24 };
#else
enum { PAIRS = 20, PLIES = 40 };
#endif

/* Parameters the pairs cycle through (as in test_masques_leak.c). */
static const char *const PARAMS[] = {
    NULL, "allin=6", "giveup_revealed=off", "reveal_alone=on",
};

static const char *const SEAT_NAME[2] = {"white", "black"};

/* ---- The program, driven line by line through pipes ------------------- */

typedef struct Prog {
    pid_t pid;
    FILE *in;        /* its standard input */
    FILE *out;       /* its standard output */
    char dir[64];    /* its working directory (saved files land here) */
    int text;        /* text answers (no --json): several lines each */
} Prog;

/* The program under test as an absolute path (it runs in a temp dir). */
static void program_path(char *buf, size_t n)
{
    const char *p = tu_program();
    if (p[0] == '/') {
        snprintf(buf, n, "%s", p);
        return;
    }
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(buf, n, "%s/%s", cwd, p);
}

/* Start `chessvar run ARGS... [--json]` (args: NULL-terminated) in a fresh
 * temp directory; with record, that text is first written there as
 * in.rec (ARGS then say --load in.rec). */
static void prog_launch(Prog *p, int text, const char *record, const char *const *args)
{
    char exe[1024];
    const char *argv[24];
    int n = 0, to_child[2], from_child[2];
    program_path(exe, sizeof exe);
    argv[n++] = exe;
    argv[n++] = "run";
    for (int i = 0; args[i]; i++) {
        assert_true(n < (int)ARRAY_LEN(argv) - 2);
        argv[n++] = args[i];
    }
    if (!text)
        argv[n++] = "--json";
    argv[n] = NULL;
    p->text = text;
    snprintf(p->dir, sizeof p->dir, "/tmp/chessvar_cli_leak_XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    if (record) {
        char path[160];
        snprintf(path, sizeof path, "%s/in.rec", p->dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(record, f);
        assert_int_equal(fclose(f), 0);
    }
    assert_int_equal(pipe(to_child), 0);
    assert_int_equal(pipe(from_child), 0);
    p->pid = fork();
    assert_true(p->pid >= 0);
    if (p->pid == 0) {
        dup2(to_child[0], 0);
        dup2(from_child[1], 1);
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        close(to_child[0]);
        close(to_child[1]);
        close(from_child[0]);
        close(from_child[1]);
        if (chdir(p->dir) != 0)
            _exit(126);
        execv(exe, (char *const *)argv);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    /* the next program started must not inherit these ends, or this one
     * never sees the end of its input */
    fcntl(to_child[1], F_SETFD, FD_CLOEXEC);
    fcntl(from_child[0], F_SETFD, FD_CLOEXEC);
    p->in = fdopen(to_child[1], "w");
    p->out = fdopen(from_child[0], "r");
    assert_non_null(p->in);
    assert_non_null(p->out);
}

/* Start `chessvar run VARIANT --json --seed SEED [--param PARAMS]`. */
static void prog_start(Prog *p, const char *variant, uint64_t seed, const char *params)
{
    char seedtxt[32];
    snprintf(seedtxt, sizeof seedtxt, "%llu", (unsigned long long)seed);
    const char *args[] = {variant, "--seed", seedtxt, params ? "--param" : NULL, params, NULL};
    prog_launch(p, 0, NULL, args);
}

/* In text mode an answer has no fixed number of lines: each command is
 * followed by this one, whose answer (an error naming no hidden fact,
 * the same in every game) ends the answer before it. */
#define TEXT_MARK "as ~ status"
#define TEXT_MARK_ANSWER "error: no seat '~'; the seats are: white (0), black (1)"

/* Send one command line; its answer (malloc'd: one line of JSON, or the
 * text lines joined by newlines, without the last one), or NULL if the
 * program said nothing (it died). */
static char *prog_ask(Prog *p, const char *line)
{
    fprintf(p->in, "%s\n", line);
    if (p->text)
        fprintf(p->in, "%s\n", TEXT_MARK);
    fflush(p->in);
    StrBuf all = STRBUF_INIT;
    char *ans = NULL;
    size_t cap = 0;
    ssize_t n;
    int done = 0;
    while (!done && (n = getline(&ans, &cap, p->out)) > 0) {
        if (ans[n - 1] == '\n')
            ans[--n] = '\0';
        if (p->text && !strcmp(ans, TEXT_MARK_ANSWER)) {
            done = 1;
        } else {
            if (all.len)
                sb_putc(&all, '\n');
            sb_puts(&all, ans);
            done = !p->text;
        }
    }
    free(ans);
    if (!done) {
        sb_free(&all);
        return NULL;
    }
    char *out = strdup(sb_str(&all));
    sb_free(&all);
    return out;
}

/* The bytes of file name in the program's directory (malloc'd), or NULL if
 * there is no such file. */
static char *prog_file(const Prog *p, const char *name)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", p->dir, name);
    return tu_read_file(path);
}

/* Stop the program and remove its directory. */
static void prog_stop(Prog *p)
{
    fclose(p->in);
    char buf[4096];
    while (fread(buf, 1, sizeof buf, p->out) > 0)
        ;
    fclose(p->out);
    int st;
    waitpid(p->pid, &st, 0);
    DIR *d = opendir(p->dir);
    if (d) {
        struct dirent *e;
        char path[400];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(path, sizeof path, "%s/%s", p->dir, e->d_name);
            unlink(path);
        }
        closedir(d);
    }
    rmdir(p->dir);
    p->pid = 0;
}

/* An answer is one line of JSON: {"ok":true|false, ... }; in text mode
 * some text. */
static int answer_well_formed_in(int text, const char *a)
{
    size_t n = a ? strlen(a) : 0;
    if (text)
        return n > 0;
    return n > 8 && (!strncmp(a, "{\"ok\":true,", 11) || !strncmp(a, "{\"ok\":false,", 12))
           && a[n - 1] == '}' && !strchr(a, '\n');
}

static int answer_ok_in(int text, const char *a)
{
    return a && (text ? strncmp(a, "error: ", 7) != 0 : !strncmp(a, "{\"ok\":true", 10));
}

static int answer_well_formed(const char *a)
{
    return answer_well_formed_in(0, a);
}

static int answer_ok(const char *a)
{
    return answer_ok_in(0, a);
}

/* ---- Findings: every kind of failure, counted, with its first example -- */

typedef struct Finding {
    char label[80];
    int count;
    StrBuf first;
} Finding;

typedef struct Report {
    Finding f[96];
    int n;
    long pairs, plies, answers, files, probes, leaks, ended, loads;
    long ends[4];  /* how the games ended: resigned, agreed, mated, otherwise */
} Report;

static void report_add(Report *r, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void report_add(Report *r, const char *label, const char *fmt, ...)
{
    Finding *f = NULL;
    for (int i = 0; i < r->n && !f; i++)
        if (!strcmp(r->f[i].label, label))
            f = &r->f[i];
    if (!f) {
        assert_true(r->n < (int)ARRAY_LEN(r->f));
        f = &r->f[r->n++];
        snprintf(f->label, sizeof f->label, "%s", label);
        sb_init(&f->first);
    }
    if (f->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        sb_vprintf(&f->first, fmt, ap);
        va_end(ap);
    }
}

/* Fail the running test with every finding, or free the report. */
static void report_finish(Report *r)
{
    StrBuf labels = STRBUF_INIT;
    for (int i = 0; i < r->n; i++) {  /* in full: cmocka cuts long messages */
        printf("[%d time%s] %s\n  first: %s\n", r->f[i].count, r->f[i].count == 1 ? "" : "s",
               r->f[i].label, sb_str(&r->f[i].first));
        sb_printf(&labels, "\n  %s", r->f[i].label);
        sb_free(&r->f[i].first);
    }
    fflush(stdout);
    int n = r->n;
    r->n = 0;
    char list[800];
    snprintf(list, sizeof list, "%s", sb_str(&labels));
    sb_free(&labels);
    if (n)
        fail_msg("%d kind%s of failure through the command layer (each shown above):%s", n,
                 n == 1 ? "" : "s", list);
}

/* At most max bytes of s on one line (newlines written \n). */
static void put_line(StrBuf *out, const char *s, size_t max)
{
    for (size_t i = 0; s[i] && i < max; i++)
        sb_puts(out, s[i] == '\n' ? "\\n" : (char[]){s[i], '\0'});
}

/* Where two answers (or files) part, both shown around that place. */
static void show_difference(const char *a, const char *b, StrBuf *out)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    size_t from = i > 120 ? i - 120 : 0;
    sb_printf(out, "they part at byte %zu:\n    game: ...", i);
    put_line(out, a + from, 300);
    sb_puts(out, "\n    twin: ...");
    put_line(out, b + from, 300);
}

/* ---- Boards read from position strings (docs/MASQUES.md) ---------------- */

typedef struct Sq {
    char fig;    /* letter as written (upper case White), 0 empty */
    char masked;
    char moved;
} Sq;

/* The board of pos into b; returns where the fields after it start. */
static const char *board_read(const char *pos, Sq *b)
{
    int rank = 7, file = 0;
    Sq *last = NULL;
    memset(b, 0, sizeof *b * 64);
    const char *s = pos;
    for (; *s && *s != ' '; s++) {
        if (*s == '/') {
            rank--;
            file = 0;
        } else if (*s >= '1' && *s <= '8') {
            file += *s - '0';
        } else if (*s == '~' && last) {
            last->masked = 1;
        } else if (*s == '^' && last) {
            last->moved = 1;
        } else if (rank >= 0 && file < 8) {
            last = &b[rank * 8 + file++];
            last->fig = *s;
        }
    }
    return s;
}

static int sq_side(const Sq *q)
{
    return isupper((unsigned char)q->fig) ? 0 : 1;
}

static void square_name(int s, char *out)
{
    out[0] = (char)('a' + s % 8);
    out[1] = (char)('1' + s / 8);
    out[2] = '\0';
}

/* The fields after the board with the castling letters of side hidden
 * dropped (they depend on its arrangement, which the enemy may not know). */
static void fields_public(const char *rest, int hidden, StrBuf *out)
{
    int field = 0;
    for (const char *s = rest; *s; s++) {
        if (*s == ' ')
            field++;
        if (field == 2 && *s != ' ' && strchr(hidden ? "kq" : "KQ", *s))
            continue;
        sb_putc(out, *s);
    }
}

/* Are a and b (the game and its twin) still alike but for the figures of
 * masked pieces of side hidden?  The number of such squares in *nd (their
 * squares set in d), or -1 when something else differs. */
static int twins_alike(const Game *a, const Game *b, int hidden, int *d)
{
    StrBuf pa = STRBUF_INIT, pb = STRBUF_INIT, fa = STRBUF_INIT, fb = STRBUF_INIT;
    Sq ba[64], bb[64];
    game_position(a, &pa);
    game_position(b, &pb);
    const char *ra = board_read(sb_str(&pa), ba);
    const char *rb = board_read(sb_str(&pb), bb);
    int nd = 0;
    for (int s = 0; s < 64 && nd >= 0; s++) {
        d[s] = 0;
        if (!memcmp(&ba[s], &bb[s], sizeof ba[s]))
            continue;
        if (ba[s].fig && bb[s].fig && ba[s].masked && bb[s].masked
            && sq_side(&ba[s]) == hidden && sq_side(&bb[s]) == hidden
            && ba[s].moved == bb[s].moved) {
            d[s] = 1;
            nd++;
        } else {
            nd = -1;
        }
    }
    fields_public(ra, hidden, &fa);
    fields_public(rb, hidden, &fb);
    Status sa, sb;
    game_status(a, &sa);
    game_status(b, &sb);
    if (strcmp(sb_str(&fa), sb_str(&fb)) || game_to_act(a) != game_to_act(b)
        || sa.over != sb.over || sa.winners != sb.winners || strcmp(sa.reason, sb.reason))
        nd = -1;
    sb_free(&pa);
    sb_free(&pb);
    sb_free(&fa);
    sb_free(&fb);
    return nd;
}

/* ---- A twin pair ----------------------------------------------------------- */

typedef struct Pair {
    uint64_t seed;
    const char *params;
    int text;                /* the programs answer in text, not JSON */
    const char *fen[2];      /* the game's and the twin's start (NULL: setups) */
    const char *script;      /* a first action of the pair (fen pairs) */
    int end_how;             /* how a game still on is ended (pair_end) */
    int load_at;             /* ply after which both seats save and the
                                programs load the file (0: never) */
    int loaded;              /* the programs run a loaded record */
    char reason[128];        /* how the game ended */
    int hidden, observer;    /* sides = seats */
    Game *a, *b;             /* the game and the twin, in-process */
    Prog pa, pb;             /* the same, through the program */
    Rng rng;
    int ply, probe;
    int alive;               /* 0: stop comparing */
    int setup[64];           /* figures as arranged in the game, by square */
    int twin_setup[64];      /* the same in the twin */
    Report *rep;
} Pair;

enum { CMP_WHOLE, CMP_PUBLIC };

/* What the observer may read of an answer to the hidden seat's action:
 * the status and seat to act, and the messages addressed to it. */
static void answer_public(const char *ans, const char *observer, StrBuf *out)
{
    const char *st = strstr(ans, ",\"status\":");
    const char *ms = strstr(ans, ",\"messages\":[");
    if (!st || !ms || ms < st) {
        sb_puts(out, ans);
        return;
    }
    sb_putn(out, st, (size_t)(ms - st));
    char quoted[32];
    snprintf(quoted, sizeof quoted, "\"%s\"", observer);
    for (const char *m = strstr(ms, "{\"to\":["); m; m = strstr(m + 1, "{\"to\":[")) {
        const char *to_end = strchr(m, ']');
        const char *text = to_end ? strstr(to_end, "\"text\":\"") : NULL;
        if (!text)
            break;
        text += 8;
        const char *e = text;
        while (*e && *e != '"')
            e += *e == '\\' && e[1] ? 2 : 1;
        const char *hit = strstr(m, quoted);
        if (hit && hit < to_end) {
            sb_puts(out, " | ");
            sb_putn(out, text, (size_t)(e - text));
        }
    }
}

/* The same in text mode: the messages addressed to the observer
 * ("message to white, black: ...") and the status line (the last). */
static void answer_public_text(const char *ans, const char *observer, StrBuf *out)
{
    const char *last = strrchr(ans, '\n');
    for (const char *l = ans; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        const char *colon = strstr(l, ": ");
        if (!strncmp(l, "message to ", 11) && colon && colon < l + n) {
            char to[64];
            snprintf(to, sizeof to, "%.*s", (int)(colon - l - 11), l + 11);
            if (strstr(to, observer)) {
                sb_putn(out, l, n);
                sb_putc(out, '\n');
            }
        }
        l = e ? e + 1 : NULL;
    }
    sb_puts(out, last ? last + 1 : ans);
}

static const char *pair_params(const Pair *P)
{
    return P->params ? P->params : "defaults";
}

/* What a pair is, for findings: seed, parameters, mode, loaded. */
static const char *pair_kind(const Pair *P, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s", pair_params(P), P->text ? ", text" : ", json",
             P->fen[0] ? ", from a position" : "", P->loaded ? ", loaded" : "");
    return buf;
}

/* Ask line_a of the game and line_b of the twin (as the observer, or the
 * hidden seat's action with how = CMP_PUBLIC); check both answers' form and
 * compare them.  Returns 1 if both answered ok:true, 0 if both ok:false,
 * -1 otherwise (also when the program died: the pair stops).  The answers
 * go to *ans_a (may be NULL), malloc'd. */
static int pair_ask2(Pair *P, const char *line_a, const char *line_b, int how, const char *label,
                     char **ans_a)
{
    char *x = prog_ask(&P->pa, line_a), *y = prog_ask(&P->pb, line_b);
    int rc = -1;
    P->rep->answers += 2;
    if (!x || !y) {
        report_add(P->rep, "the program died", "seed %llu (%s), ply %d, after `%s`",
                   (unsigned long long)P->seed, pair_params(P), P->ply, line_a);
        P->alive = 0;
    } else if (!answer_well_formed_in(P->text, x) || !answer_well_formed_in(P->text, y)) {
        report_add(P->rep, "an answer that is not one line {\"ok\":...}",
                   "`%s`: %.300s / %.300s", line_a, x, y);
    } else {
        StrBuf cx = STRBUF_INIT, cy = STRBUF_INIT;
        if (how == CMP_PUBLIC && P->text) {
            answer_public_text(x, SEAT_NAME[P->observer], &cx);
            answer_public_text(y, SEAT_NAME[P->observer], &cy);
        } else if (how == CMP_PUBLIC) {
            answer_public(x, SEAT_NAME[P->observer], &cx);
            answer_public(y, SEAT_NAME[P->observer], &cy);
        } else {
            sb_puts(&cx, x);
            sb_puts(&cy, y);
        }
        if (strcmp(sb_str(&cx), sb_str(&cy))) {
            StrBuf why = STRBUF_INIT;
            show_difference(sb_str(&cx), sb_str(&cy), &why);
            char lab[80], kind[96];
            snprintf(lab, sizeof lab, "LEAK through %s", label);
            report_add(P->rep, lab,
                       "seed %llu (%s), %s's figures permuted, ply %d, `%s`: %s",
                       (unsigned long long)P->seed, pair_kind(P, kind, sizeof kind),
                       SEAT_NAME[P->hidden], P->ply, line_a, sb_str(&why));
            P->rep->leaks++;
            sb_free(&why);
        }
        sb_free(&cx);
        sb_free(&cy);
        int okx = answer_ok_in(P->text, x), oky = answer_ok_in(P->text, y);
        rc = okx && oky ? 1 : !okx && !oky ? 0 : -1;
    }
    if (ans_a)
        *ans_a = x;
    else
        free(x);
    free(y);
    return rc;
}

static int pair_ask(Pair *P, const char *line, const char *label, char **ans_a)
{
    return pair_ask2(P, line, line, CMP_WHOLE, label, ans_a);
}

/* `line` must be refused (MASQ-12: hidden information stays hidden); the
 * refusal must also name no figure. */
static void expect_refused(Pair *P, const char *line, const char *label)
{
    char *ans = NULL;
    int rc = pair_ask(P, line, label, &ans);
    if (rc != 0) {
        char lab[80];
        snprintf(lab, sizeof lab, "%s answered (must be refused)", label);
        report_add(P->rep, lab, "seed %llu (%s), %s to act, ply %d, `%s` answered: %.400s",
                   (unsigned long long)P->seed, pair_params(P),
                   game_to_act(P->a) >= 0 ? SEAT_NAME[game_to_act(P->a)] : "nobody", P->ply,
                   line, ans ? ans : "(nothing)");
    }
    free(ans);
}

/* Probe `as S TEXT` unless TEXT is an action the observer may really take
 * now (a probe must not change the game). */
static void probe_action(Pair *P, const char *text, const char *label)
{
    char line[160], why[96];
    /* Issue 22: `why TEXT` plays nothing, legal or not: the observer's
     * answer must be the same in both twins. */
    snprintf(line, sizeof line, "as %s why %s", SEAT_NAME[P->observer], text);
    snprintf(why, sizeof why, "%s (why)", label);
    pair_ask(P, line, why, NULL);
    Game *c = game_clone(P->a);
    Error e = {""};
    int legal = game_play(c, P->observer, text, &e) == 0;
    game_free(c);
    if (legal)
        return;
    snprintf(line, sizeof line, "as %s %s", SEAT_NAME[P->observer], text);
    P->rep->probes++;
    if (pair_ask(P, line, label, NULL) != 0)
        report_add(P->rep, "a probe the game refuses was accepted by the program",
                   "seed %llu, ply %d: `%s`", (unsigned long long)P->seed, P->ply, line);
}

/* `save FILE` as the observer alone (line is "as S save F" or "save F"):
 * nothing may be written while the game is on, nor after the end while
 * the hidden seat has not shown its pieces (issue 19 point 2); the answer
 * is "saved":false (text: "waiting for H") and names the seat that must
 * still agree; and whatever is written must not depend on the hidden
 * figures. */
static void probe_save(Pair *P, const char *line, const char *file, const char *label)
{
    char *ans = NULL;
    int rc = pair_ask(P, line, label, &ans);
    char *fa = prog_file(&P->pa, file), *fb = prog_file(&P->pb, file);
    P->rep->files++;
    if ((fa == NULL) != (fb == NULL) || (fa && strcmp(fa, fb))) {
        StrBuf why = STRBUF_INIT;
        if (fa && fb)
            show_difference(fa, fb, &why);
        else
            sb_printf(&why, "written for the %s only", fa ? "game" : "twin");
        char lab[80], kind[96];
        snprintf(lab, sizeof lab, "LEAK through the file of %s", label);
        report_add(P->rep, lab, "seed %llu (%s), %s's figures permuted, ply %d, `%s`: %s",
                   (unsigned long long)P->seed, pair_kind(P, kind, sizeof kind),
                   SEAT_NAME[P->hidden], P->ply, line, sb_str(&why));
        sb_free(&why);
        P->rep->leaks++;
    }
    if (fa || fb) {
        char lab[80];
        snprintf(lab, sizeof lab, "%s wrote the file without the other seat", label);
        StrBuf head = STRBUF_INIT;
        put_line(&head, fa ? fa : fb, 200);
        report_add(P->rep, lab, "seed %llu, ply %d: `%s` answered %.200s; the file begins: %s",
                   (unsigned long long)P->seed, P->ply, line, ans ? ans : "(nothing)",
                   sb_str(&head));
        sb_free(&head);
    }
    const char *other = SEAT_NAME[P->hidden];
    char waiting[48];
    snprintf(waiting, sizeof waiting, "waiting for %s", other);
    if (rc == 1 && ans && (P->text ? !strstr(ans, waiting)
                                   : !strstr(ans, "\"saved\":false") || !strstr(ans, other))) {
        char lab[80];
        snprintf(lab, sizeof lab, "%s: no \"saved\":false naming the other seat", label);
        report_add(P->rep, lab, "seed %llu, ply %d: `%s` answered %.300s",
                   (unsigned long long)P->seed, P->ply, line, ans);
    }
    if (rc != 1 && ans) {
        char lab[80];
        snprintf(lab, sizeof lab, "%s refused (must ask for consent)", label);
        report_add(P->rep, lab, "seed %llu, ply %d: `%s` answered %.300s",
                   (unsigned long long)P->seed, P->ply, line, ans);
    }
    free(ans);
    free(fa);
    free(fb);
}

/* Squares of the hidden side's masked pieces, those with permuted figures
 * first; returns how many (at most max). */
static int hidden_squares(const Pair *P, int *out, int max)
{
    StrBuf pos = STRBUF_INIT;
    Sq b[64];
    int d[64], n = 0;
    game_position(P->a, &pos);
    board_read(sb_str(&pos), b);
    if (twins_alike(P->a, P->b, P->hidden, d) < 0)
        memset(d, 0, sizeof d);
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < 64 && n < max; s++)
            if (b[s].fig && b[s].masked && sq_side(&b[s]) == P->hidden && d[s] == !pass)
                out[n++] = s;
    sb_free(&pos);
    return n;
}

/* Moves, reveals and answers typed by the observer about a square holding
 * a hidden enemy piece: each is refused, with the same words in both. */
static void probe_hidden_square(Pair *P, int s)
{
    char sq[3], to[3], text[64];
    int dir = P->hidden ? -1 : 1, f = s % 8, r = s / 8;
    square_name(s, sq);
    const int steps[][2] = {{0, 1}, {0, 2}, {1, 1}, {-1, 1}, {1, 2}};
    for (size_t i = 0; i < ARRAY_LEN(steps); i++) {
        int tf = f + steps[i][0], tr = r + dir * steps[i][1];
        if (tf < 0 || tf > 7 || tr < 0 || tr > 7)
            continue;
        square_name(tr * 8 + tf, to);
        snprintf(text, sizeof text, "%s%s", sq, to);
        probe_action(P, text, "as S <move from H's masked piece>");
        if (i == 4) {
            snprintf(text, sizeof text, "reveal %s%s", sq, to);
            probe_action(P, text, "as S reveal <H's masked piece + move>");
        }
    }
    snprintf(text, sizeof text, "reveal %s", sq);
    probe_action(P, text, "as S reveal <H's masked piece>");
    snprintf(text, sizeof text, "reveal %s=Q", sq);
    probe_action(P, text, "as S reveal <H's square>=Q");
    snprintf(text, sizeof text, "give %s", sq);
    probe_action(P, text, "as S give <H's square>");
    snprintf(text, sizeof text, "announce check %s", sq);
    probe_action(P, text, "as S announce check <H's square>");
}

/* The number of actions the program has played ("ply" of its status). */
static int prog_ply(Prog *p)
{
    char *a = prog_ask(p, "status");
    const char *k = !a ? NULL : p->text ? strrchr(a, '(') : strstr(a, "\"ply\":");
    int n = k ? atoi(k + (p->text ? 1 : 6)) : -1;
    free(a);
    return n;
}

/* After the program took back actions it should not have (a wrong undo),
 * replay them from the in-process histories so the pair goes on; an
 * action the engine applied by itself comes back with the one before. */
static void pair_resync(Pair *P)
{
    Prog *pr[2] = {&P->pa, &P->pb};
    Game *g[2] = {P->a, P->b};
    for (int t = 0; t < 2 && P->alive; t++) {
        int n = prog_ply(pr[t]), guard = 0;
        while (n >= 0 && n < game_history_len(g[t]) && guard++ < 64) {
            const HistoryEntry *h = game_history(g[t], n);
            char line[160];
            snprintf(line, sizeof line, "as %s %s", SEAT_NAME[h->action.seat], h->machine);
            free(prog_ask(pr[t], line));
            n = prog_ply(pr[t]);
        }
        if (n != game_history_len(g[t])) {
            report_add(P->rep, "the pair could not be put back in step (it stops)",
                       "seed %llu, ply %d", (unsigned long long)P->seed, P->ply);
            P->alive = 0;
        }
    }
}

/* The battery of questions asked as the observer after each action. */
static void battery(Pair *P)
{
    const char *S = SEAT_NAME[P->observer], *H = SEAT_NAME[P->hidden];
    char line[160], file[32];
    int to_act = game_to_act(P->a);
    snprintf(line, sizeof line, "as %s view", S);
    pair_ask(P, line, "as S view", NULL);
    snprintf(line, sizeof line, "as %s legal", S);
    pair_ask(P, line, "as S legal", NULL);
    snprintf(line, sizeof line, "as %s view %s", S, S);
    pair_ask(P, line, "as S view S", NULL);
    snprintf(line, sizeof line, "as %s history", S);
    pair_ask(P, line, "as S history", NULL);
    snprintf(line, sizeof line, "as %s status", S);
    pair_ask(P, line, "as S status", NULL);
    snprintf(line, sizeof line, "as %s params", S);
    pair_ask(P, line, "as S params", NULL);
    snprintf(line, sizeof line, "as %s position", S);
    expect_refused(P, line, "as S position");
    /* MASQ-12: another seat's view or legal list is refused */
    snprintf(line, sizeof line, "as %s view %s", S, H);
    expect_refused(P, line, "as S view H");
    snprintf(line, sizeof line, "as %s legal %s", S, H);
    expect_refused(P, line, "as S legal H");
    snprintf(line, sizeof line, "as %s history %s", S, H);
    expect_refused(P, line, "as S history H");
    snprintf(line, sizeof line, "as %s history %s", S, S);
    pair_ask(P, line, "as S history S", NULL);
    snprintf(file, sizeof file, "f%d.rec", ++P->probe);
    snprintf(line, sizeof line, "as %s save %s", S, file);
    probe_save(P, line, file, "as S save FILE");
    if (to_act == P->observer) {  /* the bare commands speak to the seat to act */
        snprintf(line, sizeof line, "view %s", H);
        expect_refused(P, line, "view H (S to act)");
        snprintf(line, sizeof line, "legal %s", H);
        expect_refused(P, line, "legal H (S to act)");
        pair_ask(P, "history", "history (S to act)", NULL);
        snprintf(file, sizeof file, "f%d.rec", ++P->probe);
        snprintf(line, sizeof line, "save %s", file);
        probe_save(P, line, file, "save FILE (S to act)");
    }
    int sq[2], n = hidden_squares(P, sq, 1 + (int)rng_below(&P->rng, 2));
    for (int i = 0; i < n; i++)
        probe_hidden_square(P, sq[i]);
    static const char *const GARBAGE[] = {
        "xyzzy", "e9e4", "reveal", "bid 1", "bid 999", "call", "fold", "concede",
        "keep", "pass", "place K e1", "standard", "random", "arrange RNBQKBNR/PPPPPPPP",
        "accept", "decline", "claim",
    };
    for (int k = 0; k < 3; k++) {
        const char *g = GARBAGE[rng_below(&P->rng, (uint32_t)ARRAY_LEN(GARBAGE))];
        probe_action(P, g, "as S <garbage or an action not open to S>");
    }
    snprintf(line, sizeof line, "as %s view nobody", S);
    pair_ask(P, line, "as S view <no such seat>", NULL);
    snprintf(line, sizeof line, "as %s save", S);
    pair_ask(P, line, "as S save <no file>", NULL);
    /* game_undo_by: a seat may take back only its own latest actions; the
     * hidden seat acted last, so the observer's undo is refused.  Last in
     * the battery: a wrongly accepted undo desynchronises the pair. */
    int nh = game_history_len(P->a);
    if (nh > 0 && game_history(P->a, nh - 1)->action.seat == P->hidden) {
        snprintf(line, sizeof line, "as %s undo", S);
        expect_refused(P, line, "as S undo (H acted last)");
        if (P->alive && to_act == P->observer)
            expect_refused(P, "undo", "undo (S to act, H acted last)");
        snprintf(line, sizeof line, "as %s status", S);
        char *ans = NULL;
        pair_ask(P, line, "as S status", &ans);
        char want[48];
        snprintf(want, sizeof want, P->text ? "(%d actions played)" : "\"ply\":%d,", nh);
        if (ans && !strstr(ans, want)) {
            report_add(P->rep, "undo took back the other seat's action",
                       "seed %llu, ply %d: after `as %s undo` the status is %.300s",
                       (unsigned long long)P->seed, P->ply, S, ans);
            pair_resync(P);
        }
        free(ans);
    }
}

/* ---- Setups and the choice of actions ---------------------------------------- */

/* The game (twin 0) or its twin (1), in-process. */
static Game *pair_game(const Pair *P, int twin)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = P->seed,
                             .params = P->params, .position = P->fen[twin]});
}

/* The program of the game (twin 0) or its twin, from the start. */
static void pair_start(Pair *P, int twin)
{
    char seedtxt[32];
    snprintf(seedtxt, sizeof seedtxt, "%llu", (unsigned long long)P->seed);
    const char *args[12] = {"masques", "--seed", seedtxt};
    int n = 3;
    if (P->fen[twin]) {
        args[n++] = "--fen";
        args[n++] = P->fen[twin];
    }
    if (P->params) {
        args[n++] = "--param";
        args[n++] = P->params;
    }
    prog_launch(twin ? &P->pb : &P->pa, P->text, NULL, args);
}

/* Random setups (the engine's `random` in a scratch game); the twin's
 * hidden side swaps the figures of one to four pairs of its pieces. */
static void pair_setups(Pair *P)
{
    Game *scratch = pair_game(P, 0);
    tu_play(scratch, 0, "random");
    tu_play(scratch, 1, "random");
    StrBuf pos = STRBUF_INIT;
    Sq b[64];
    game_position(scratch, &pos);
    board_read(sb_str(&pos), b);
    for (int s = 0; s < 64; s++)
        P->setup[s] = b[s].fig ? figure_from_letter(b[s].fig) : 0;
    sb_free(&pos);
    game_free(scratch);
    memcpy(P->twin_setup, P->setup, sizeof P->setup);
    int base = P->hidden ? 48 : 0, swaps = 1 + (int)rng_below(&P->rng, 4), done = 0;
    for (int tries = 0; done < swaps && tries < 200; tries++) {
        int x = base + (int)rng_below(&P->rng, 16), y = base + (int)rng_below(&P->rng, 16);
        if (P->twin_setup[x] == P->twin_setup[y])
            continue;
        int t = P->twin_setup[x];
        P->twin_setup[x] = P->twin_setup[y];
        P->twin_setup[y] = t;
        done++;
    }
    assert_true(done > 0);
}

/* The bid phase's squares (phase=bid:FROM:TO:...) in g, or 0. */
static int bid_squares(const Game *g, int *from, int *to)
{
    StrBuf pos = STRBUF_INIT;
    game_position(g, &pos);
    const char *p = strstr(sb_str(&pos), "phase=bid:");
    int found = p && strlen(p) >= 15;
    if (found) {
        *from = (p[11] - '1') * 8 + (p[10] - 'a');
        *to = (p[14] - '1') * 8 + (p[13] - 'a');
    }
    sb_free(&pos);
    return found;
}

/* A piece that leaves the board this way shows nobody its figure. */
static int unrevealed_removal(const Pair *P, const char *text)
{
    return !strcmp(text, "concede") || !strcmp(text, "fold")
           || (!strncmp(text, "give", 4) && P->params
               && !strcmp(P->params, "giveup_revealed=off"));
}

/* Play text as seat in clones of both games: 1 (and the clones replace
 * the games) if they stay comparable (twins_alike, no permuted piece
 * shown by a call or a revealing removal). */
static int try_action(Pair *P, int seat, const char *text)
{
    int d0[64], d1[64], from, to;
    int n0 = twins_alike(P->a, P->b, P->hidden, d0);
    if (!strcmp(text, "call") && bid_squares(P->a, &from, &to) && (d0[from] || d0[to]))
        return 0;  /* the call names both battling figures (MASQ-10) */
    Game *ca = game_clone(P->a), *cb = game_clone(P->b);
    Error e = {""};
    if (game_play(ca, seat, text, &e))
        fail_msg("seed %llu: the game refuses its own legal action %s: %s",
                 (unsigned long long)P->seed, text, e.msg);
    int ok = game_to_act(cb) == seat && game_play(cb, seat, text, &e) == 0;
    int n1 = ok ? twins_alike(ca, cb, P->hidden, d1) : -1;
    ok = n1 > 0 && (n1 >= n0 || unrevealed_removal(P, text));
    if (ok) {
        game_free(P->a);
        game_free(P->b);
        P->a = ca;
        P->b = cb;
    } else {
        game_free(ca);
        game_free(cb);
    }
    return ok;
}

/* Choose the next action of the seat to act (as test_masques_leak.c
 * leans: three times in four something that reveals nothing, a call half
 * of the time it is open) among those that keep the twins comparable;
 * write its machine text.  0 if none does. */
static int choose_action(Pair *P, int seat, char *text, size_t n)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT;
    game_legal(P->a, seat, &l);
    int idx[512], k = 0, chosen = 0;
    for (int i = 0; i < l.n && k < (int)ARRAY_LEN(idx); i++)
        if (!action_is_meta(l.v[i].kind))
            idx[k++] = i;
    for (int i = k - 1; i > 0; i--) {
        int j = (int)rng_below(&P->rng, (uint32_t)i + 1), x = idx[i];
        idx[i] = idx[j];
        idx[j] = x;
    }
    int quiet_first = rng_below(&P->rng, 4) != 0, call_first = rng_below(&P->rng, 2) != 0;
    /* stable order: calls (if leaning), quiet actions (if leaning), the rest */
    int order[512], m = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < k; i++) {
            const Action *a = &l.v[idx[i]];
            int is_call = a->kind == ACT_CALL, quiet = a->kind != ACT_REVEAL;
            int cls = call_first && is_call ? 0 : quiet_first && quiet ? 1 : 2;
            if (cls == pass)
                order[m++] = idx[i];
        }
    for (int i = 0; i < m && i < 24 && !chosen; i++) {
        sb_reset(&t);
        game_format(P->a, &l.v[order[i]], FMT_MACHINE, &t);
        if (try_action(P, seat, sb_str(&t))) {
            snprintf(text, n, "%s", sb_str(&t));
            chosen = 1;
        }
    }
    sb_free(&t);
    al_free(&l);
    return chosen;
}

/* Send the action to both programs (as its seat) and compare what the
 * observer may read of the answers. */
static void pair_send_action(Pair *P, int seat, const char *text_a, const char *text_b)
{
    char la[160], lb[160];
    snprintf(la, sizeof la, "as %s %s", SEAT_NAME[seat], text_a);
    snprintf(lb, sizeof lb, "as %s %s", SEAT_NAME[seat], text_b);
    int rc = pair_ask2(P, la, lb, seat == P->observer ? CMP_WHOLE : CMP_PUBLIC,
                       seat == P->observer ? "as S ACTION" : "as H ACTION (what S may read)",
                       NULL);
    if (rc != 1) {
        report_add(P->rep, "the program refused an action the game accepts (the pair stops)",
                   "seed %llu (%s), ply %d: `%s`", (unsigned long long)P->seed, pair_params(P),
                   P->ply, la);
        P->alive = 0;
    }
}

/* One twin pair: the setups, then up to PLIES actions with the battery
 * after each, while the twins stay comparable. */
/* Answers of both programs that may differ (the hidden seat's own, or
 * anything once it has shown its pieces): only their success is checked,
 * it must be want (1 ok, 0 refused) in both. */
static void pair_ask_apart(Pair *P, const char *line, int want, const char *label)
{
    char *x = prog_ask(&P->pa, line), *y = prog_ask(&P->pb, line);
    P->rep->answers += 2;
    if (!x || !y) {
        report_add(P->rep, "the program died", "seed %llu (%s), ply %d, after `%s`",
                   (unsigned long long)P->seed, pair_params(P), P->ply, line);
        P->alive = 0;
    } else if (answer_ok_in(P->text, x) != want || answer_ok_in(P->text, y) != want) {
        char lab[80], kind[96];
        snprintf(lab, sizeof lab, "%s %s", label, want ? "refused (must be answered)"
                                                       : "answered (must be refused)");
        report_add(P->rep, lab, "seed %llu (%s), ply %d, `%s` answered: %.300s / %.300s",
                   (unsigned long long)P->seed, pair_kind(P, kind, sizeof kind), P->ply, line,
                   x, y);
    }
    free(x);
    free(y);
}

/* Both programs stop and start again from the records fa and fb (the
 * game's and the twin's, each saved by its own program): `run --load`. */
static void pair_reload(Pair *P, const char *fa, const char *fb)
{
    const char *args[] = {"--load", "in.rec", NULL};
    prog_stop(&P->pa);
    prog_stop(&P->pb);
    prog_launch(&P->pa, P->text, fa, args);
    prog_launch(&P->pb, P->text, fb, args);
    P->loaded = 1;
    P->rep->loads++;
}

/* Both seats agree to save to file (the observer asks first: it waits for
 * the hidden seat, which then completes the agreement); 1 with the
 * records of both programs (malloc'd) in *fa, *fb, else 0. */
static int pair_consented_save(Pair *P, const char *file, char **fa, char **fb)
{
    char line[160];
    snprintf(line, sizeof line, "as %s save %s", SEAT_NAME[P->observer], file);
    char label[80];
    snprintf(label, sizeof label, "as S save FILE (first%s%s)",
             game_to_act(P->a) < 0 ? ", over" : "", P->loaded ? ", loaded" : "");
    probe_save(P, line, file, label);
    snprintf(line, sizeof line, "as %s save %s", SEAT_NAME[P->hidden], file);
    pair_ask_apart(P, line, 1, "as H save FILE (second)");
    *fa = prog_file(&P->pa, file);
    *fb = prog_file(&P->pb, file);
    if (P->alive && *fa && *fb)
        return 1;
    report_add(P->rep, "both seats asked to save, but no record was written",
               "seed %llu, ply %d: `%s`", (unsigned long long)P->seed, P->ply, line);
    free(*fa);
    free(*fb);
    return 0;
}

/* A game in progress saved by both seats, then loaded by both programs:
 * the game goes on from the records (issue 19 point 2, on loading). */
static void pair_reload_mid(Pair *P)
{
    char file[32], *fa, *fb;
    snprintf(file, sizeof file, "mid%d.rec", ++P->probe);
    if (!pair_consented_save(P, file, &fa, &fb))
        return;
    pair_reload(P, fa, fb);
    free(fa);
    free(fb);
    battery(P);
}

/* The battery once the game is over (issue 19 point 2, MASQ-16): the
 * observer's own answers are compared; the hidden seat's view, legal list
 * and history are refused while it has not shown its pieces, asked with
 * `as` or bare (the first seat's once the game is over), and a save by
 * the observer alone writes nothing. */
static void battery_end(Pair *P)
{
    const char *S = SEAT_NAME[P->observer], *H = SEAT_NAME[P->hidden];
    static const char *const OWN[] = {"view", "legal", "history", "status", "params",
                                      "undo", "bot random", "resign", "draw"};
    char line[160], label[80], file[32];
    const char *tag = P->loaded ? " (over, loaded)" : " (over)";
    for (size_t i = 0; i < ARRAY_LEN(OWN) && P->alive; i++) {
        snprintf(line, sizeof line, "as %s %s", S, OWN[i]);
        snprintf(label, sizeof label, "as S %s%s", OWN[i], tag);
        pair_ask(P, line, label, NULL);
    }
    static const char *const PRIVATE[] = {"view", "legal", "history"};
    for (size_t i = 0; i < ARRAY_LEN(PRIVATE) && P->alive; i++) {
        snprintf(line, sizeof line, "as %s %s %s", S, PRIVATE[i], S);
        snprintf(label, sizeof label, "as S %s S%s", PRIVATE[i], tag);
        pair_ask(P, line, label, NULL);
        snprintf(line, sizeof line, "as %s %s %s", S, PRIVATE[i], H);
        snprintf(label, sizeof label, "as S %s H%s", PRIVATE[i], tag);
        expect_refused(P, line, label);
        if (P->observer == 0) {  /* bare commands speak for the first seat now */
            snprintf(line, sizeof line, "%s %s", PRIVATE[i], H);
            snprintf(label, sizeof label, "%s H%s", PRIVATE[i], tag);
            expect_refused(P, line, label);
            snprintf(label, sizeof label, "%s%s", PRIVATE[i], tag);
            pair_ask(P, PRIVATE[i], label, NULL);
        }
    }
    snprintf(line, sizeof line, "as %s position", S);
    snprintf(label, sizeof label, "as S position%s", tag);
    expect_refused(P, line, label);
    snprintf(file, sizeof file, "f%d.rec", ++P->probe);
    snprintf(line, sizeof line, "as %s save %s", S, file);
    snprintf(label, sizeof label, "as S save FILE%s", tag);
    probe_save(P, line, file, label);
    if (P->observer == 0 && P->alive) {
        snprintf(file, sizeof file, "f%d.rec", ++P->probe);
        snprintf(line, sizeof line, "save %s", file);
        snprintf(label, sizeof label, "save FILE%s", tag);
        probe_save(P, line, file, label);
    }
    int sq[1];
    if (P->alive && hidden_squares(P, sq, 1) == 1)
        probe_hidden_square(P, sq[0]);
}

/* A game still on ends (issue 19 point 2: the twins go past the end):
 * a resignation of either seat, or a draw offered by one and accepted by
 * the other; a way the game refuses falls back to the next. */
static void pair_end(Pair *P)
{
    int S = P->observer, H = P->hidden;
    const int ways[4][2] = {{S, -1}, {H, -1}, {S, H}, {H, S}};
    for (int k = 0; k < 4 && P->alive && game_to_act(P->a) >= 0; k++) {
        const int *w = ways[(P->end_how + k) % 4];
        const char *texts[2] = {w[1] < 0 ? "resign" : "draw", "accept"};
        Game *ca = game_clone(P->a), *cb = game_clone(P->b);
        Error e = {""};
        int ok = 1;
        for (int j = 0; j < 2 && ok && w[j] >= 0; j++)
            ok = game_play(ca, w[j], texts[j], &e) == 0 && game_play(cb, w[j], texts[j], &e) == 0;
        ok = ok && game_to_act(ca) < 0;
        game_free(ca);
        game_free(cb);
        for (int j = 0; j < 2 && ok && w[j] >= 0 && P->alive; j++) {
            tu_play(P->a, w[j], texts[j]);
            tu_play(P->b, w[j], texts[j]);
            P->ply++;
            pair_send_action(P, w[j], texts[j], texts[j]);
        }
    }
}

/* Past the end: the battery; the observer shows its own pieces (the same
 * in both twins) and the battery again; both seats save, the programs
 * load the records and the battery runs on the loaded games; at last the
 * hidden seat shows, and its view is open to the observer. */
static void pair_after_end(Pair *P)
{
    char line[160], file[32], *fa, *fb;
    battery_end(P);
    snprintf(line, sizeof line, "as %s show", SEAT_NAME[P->observer]);
    if (P->alive && pair_ask(P, line, "as S show (over)", NULL) != 1)
        report_add(P->rep, "the observer's show was refused", "seed %llu, ply %d",
                   (unsigned long long)P->seed, P->ply);
    if (P->alive)
        battery_end(P);
    snprintf(file, sizeof file, "end%d.rec", ++P->probe);
    if (!P->alive || !pair_consented_save(P, file, &fa, &fb))
        return;
    pair_reload(P, fa, fb);
    free(fa);
    free(fb);
    battery_end(P);
    snprintf(line, sizeof line, "as %s show", SEAT_NAME[P->hidden]);
    pair_ask_apart(P, line, 1, "as H show (over, loaded)");
    snprintf(line, sizeof line, "as %s view %s", SEAT_NAME[P->observer], SEAT_NAME[P->hidden]);
    pair_ask_apart(P, line, 1, "as S view H once H has shown");
}

/* One twin pair: the setups (or the twins' positions), then up to PLIES
 * actions with the battery after each, while the twins stay comparable;
 * a record saved and loaded on the way (load_at); then the end, reached
 * or made (pair_end), and past it (pair_after_end). */
static void pair_run(Report *rep, Pair *P)
{
    P->observer = !P->hidden;
    P->rep = rep;
    P->alive = 1;
    rng_seed(&P->rng, P->seed * 7919u + (uint64_t)P->hidden);
    if (!P->fen[0])
        pair_setups(P);
    P->a = pair_game(P, 0);
    P->b = pair_game(P, 1);
    pair_start(P, 0);
    pair_start(P, 1);
    rep->pairs++;
    battery(P);
    for (int side = 0; side < 2 && P->alive && !P->fen[0]; side++) {
        char ta[64], tb[64];
        tu_arrange_text(P->setup, side, ta, sizeof ta);
        tu_arrange_text(side == P->hidden ? P->twin_setup : P->setup, side, tb, sizeof tb);
        tu_play(P->a, side, ta);
        tu_play(P->b, side, tb);
        P->ply++;
        pair_send_action(P, side, ta, tb);
        if (P->alive)
            battery(P);
    }
    int d[64];
    if (P->alive && twins_alike(P->a, P->b, P->hidden, d) <= 0) {
        char *x = tu_position(P->a), *y = tu_position(P->b);
        fail_msg("seed %llu: the twins' starts are not alike but for %s's figures:\n  %s\n  %s",
                 (unsigned long long)P->seed, SEAT_NAME[P->hidden], x, y);
    }
    while (P->alive && P->ply < PLIES + 2 && game_to_act(P->a) >= 0) {
        char text[96];
        int seat = game_to_act(P->a);
        if (P->script && P->ply == 0) {
            if (!try_action(P, seat, P->script))
                fail_msg("seed %llu: the pair's first action %s is refused or tells a "
                         "permuted figure", (unsigned long long)P->seed, P->script);
            snprintf(text, sizeof text, "%s", P->script);
        } else if (!choose_action(P, seat, text, sizeof text)) {
            break;  /* every action would show a permuted figure */
        }
        P->ply++;
        rep->plies++;
        pair_send_action(P, seat, text, text);
        Status st;
        game_status(P->a, &st);
        if (P->alive && !st.over)
            battery(P);
        if (P->alive && !st.over && P->ply == P->load_at)
            pair_reload_mid(P);
    }
    if (P->alive)
        pair_end(P);
    if (P->alive && game_to_act(P->a) < 0) {
        Status st;
        game_status(P->a, &st);
        snprintf(P->reason, sizeof P->reason, "%s", st.reason);
        rep->ended++;
        rep->ends[strstr(st.reason, "resigned") ? 0 : strstr(st.reason, "agreement") ? 1
                  : strstr(st.reason, "checkmate") ? 2 : 3]++;
        pair_after_end(P);
    }
    prog_stop(&P->pa);
    prog_stop(&P->pb);
    game_free(P->a);
    game_free(P->b);
}

/* Twins from a position: Black (or White) to be mated at once, its two
 * masked pieces (a Knight and a Bishop, far from the mate) swapped in the
 * twin.  MASQ-16: checkmate ends the game with the figures still masked. */
static const struct {
    const char *fen[2];
    const char *mate;
    int hidden;
} MATES[] = {
    {{"7k/8/5K2/8/8/n~7/2b~5/6Q1 w - - 0 1", "7k/8/5K2/8/8/b~7/2n~5/6Q1 w - - 0 1"},
     "g1g7", 1},
    {{"6q1/2B~5/N~7/8/8/5k2/8/7K b - - 0 1", "6q1/2N~5/B~7/8/8/5k2/8/7K b - - 0 1"},
     "g8g2", 0},
};

/* MASQ-1, MASQ-12, MASQ-16, issue 19 point 2: seeded twin pairs through
 * the program, in JSON and in text, to the end of each game and past it,
 * and across records saved and loaded; the observer's answers and files
 * are the same whatever the hidden figures are. */
static void test_masq12_cli_twins_answer_the_same(void **state)
{
    (void)state;
    Report rep;
    memset(&rep, 0, sizeof rep);
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < PAIRS; i++) {
        Pair P;
        memset(&P, 0, sizeof P);
        P.seed = (uint64_t)(i / 2 + 1);
        P.params = PARAMS[(i / 2) % ARRAY_LEN(PARAMS)];
        P.hidden = i % 2;
        P.text = (i / 2) % 3 == 1;
        P.end_how = (i + i / 4) % 4;
        P.load_at = i % 3 == 0 ? 3 + (i % 5) * 4 : i % 3 == 1 ? PLIES / 2 : 0;
        pair_run(&rep, &P);
    }
    for (size_t i = 0; i < ARRAY_LEN(MATES); i++) {
        Pair P;
        memset(&P, 0, sizeof P);
        P.seed = 100 + i;
        P.fen[0] = MATES[i].fen[0];
        P.fen[1] = MATES[i].fen[1];
        P.script = MATES[i].mate;
        P.hidden = MATES[i].hidden;
        P.text = (int)i;
        pair_run(&rep, &P);
        if (!strstr(P.reason, "checkmate"))
            fail_msg("the twins from %s did not end in checkmate but \"%s\"", P.fen[0],
                     P.reason);
    }
    print_message("%ld twin pairs (%ld ended and played past the end: %ld resigned, %ld "
                  "agreed, %ld mated, %ld otherwise), %ld plies after the setups, %ld loads, "
                  "%ld answers compared, %ld probes, %ld saved files checked, %ld "
                  "differences (MASQ-12, MASQ-16)\n",
                  rep.pairs, rep.ended, rep.ends[0], rep.ends[1], rep.ends[2], rep.ends[3],
                  rep.plies, rep.loads, rep.answers, rep.probes, rep.files, rep.leaks);
    report_finish(&rep);
    /* the test must have compared a lot, or it proves nothing */
    assert_true(rep.plies >= PAIRS * PLIES / 4);
    assert_int_equal(rep.ended, PAIRS + (long)ARRAY_LEN(MATES));
    assert_true(rep.ends[0] > 0 && rep.ends[1] > 0 && rep.ends[2] > 0);
}

/* ---- Direct checks of the command layer ------------------------------------ */

/* One program, lines asked one by one; the answer (its first n-1 bytes)
 * into out, so a failing check leaves nothing allocated. */
static const char *ask(Prog *p, const char *line, char *out, size_t n)
{
    char *a = prog_ask(p, line);
    int well = answer_well_formed(a);
    snprintf(out, n, "%s", a ? a : "");
    free(a);
    if (!well)
        fail_msg("`%s`: no answer, or not one line of JSON: %.600s", line, out);
    return out;
}

static void ask_ok(Prog *p, const char *line)
{
    char a[8192];
    if (!answer_ok(ask(p, line, a, sizeof a)))
        fail_msg("`%s` refused: %.600s", line, a);
}

/* line is refused with an error that names no figure (MASQ-12). */
static void ask_refused(Prog *p, const char *line)
{
    static const char *const FIGS[] = {"King", "Queen", "Rook", "Bishop", "Knight", "Pawn",
                                       "king", "queen", "rook", "bishop", "knight", "pawn"};
    char a[8192];
    ask(p, line, a, sizeof a);
    if (answer_ok(a) || !strstr(a, "\"error\":"))
        fail_msg("`%s` must be refused in a game with hidden information, answered: %.600s",
                 line, a);
    for (size_t i = 0; i < ARRAY_LEN(FIGS); i++)
        if (strstr(a, FIGS[i]))
            fail_msg("`%s`: the refusal names a figure (%s): %s", line, FIGS[i], a);
}

static int file_exists(const Prog *p, const char *name)
{
    char *f = prog_file(p, name);
    free(f);
    return f != NULL;
}

static void start_masques(Prog *p)
{
    prog_start(p, "masques", 5, NULL);
    ask_ok(p, "as white arrange NRBQKBRN/PPPPPPPP");
    ask_ok(p, "as black arrange RNBKQBNR/PPPPPPPP");
}

/* MASQ-12: another seat's view and legal list, named by `as` or asked
 * bare by the seat to act, are refused; one's own are answered. */
static void test_masq12_cli_other_seat_view_refused(void **state)
{
    Prog *p = *state;
    prog_start(p, "masques", 5, NULL);
    ask_ok(p, "as white arrange NRBQKBRN/PPPPPPPP");
    ask_refused(p, "as black view white");   /* during the setup already */
    ask_refused(p, "as black legal white");
    ask_ok(p, "as black arrange RNBKQBNR/PPPPPPPP");
    ask_ok(p, "as white e2e4");
    ask_refused(p, "as white view black");
    ask_refused(p, "as white legal black");
    ask_refused(p, "view white");            /* black is to act */
    ask_refused(p, "legal white");
    ask_ok(p, "view black");
    ask_ok(p, "legal black");
    ask_ok(p, "as white view white");
    ask_ok(p, "as white legal");
    ask_refused(p, "as white position");
    prog_stop(p);
    /* control: orthodox chess has no hidden information, so any seat's
     * view is open to anyone */
    prog_start(p, "orthodox", 0, NULL);
    ask_ok(p, "e4");
    ask_ok(p, "as white view black");
    ask_ok(p, "as white legal black");
    prog_stop(p);
}

/* MASQ-1, MASQ-12: a record holds the whole arrangement, so mid-game it
 * is written only when every seat asked for the same file; an action in
 * between cancels the agreement. */
static void test_masq12_cli_save_needs_every_seat(void **state)
{
    Prog *p = *state;
    start_masques(p);
    ask_ok(p, "as white e2e4");
    char a[8192];
    ask(p, "as white save a.rec", a, sizeof a);
    if (!answer_ok(a) || !strstr(a, "\"saved\":false") || !strstr(a, "black"))
        fail_msg("a lone save must answer ok with \"saved\":false naming black: %s", a);
    if (file_exists(p, "a.rec"))
        fail_msg("white alone saved the record (Black's arrangement) mid-game");
    ask_ok(p, "as black save a.rec");
    if (!file_exists(p, "a.rec"))
        fail_msg("both seats asked to save a.rec: it must be written");
    /* an action in between cancels the agreement */
    ask_ok(p, "as black save b.rec");
    ask_ok(p, "as black e7e5");
    ask_ok(p, "as white save b.rec");
    if (file_exists(p, "b.rec"))
        fail_msg("b.rec written although black's agreement was cancelled by a move");
    /* agreeing on different files writes neither */
    ask_ok(p, "as black save c.rec");
    ask_ok(p, "as white save d.rec");
    if (file_exists(p, "c.rec") || file_exists(p, "d.rec"))
        fail_msg("a record written although the seats named different files");
    /* the bare form speaks for the seat to act (white) */
    ask_ok(p, "save e.rec");
    if (file_exists(p, "e.rec"))
        fail_msg("the seat to act alone saved the record mid-game");
    prog_stop(p);
}

/* game_undo_by: a seat may not take back the other seat's action (it
 * would learn from the replay, and undo the enemy's choice). */
static void test_masq12_cli_undo_only_own(void **state)
{
    Prog *p = *state;
    start_masques(p);
    ask_ok(p, "as white e2e4");
    ask_refused(p, "as black undo");
    ask_refused(p, "undo");                  /* black is to act */
    char a[8192];
    ask(p, "as black status", a, sizeof a);
    if (!strstr(a, "\"ply\":33,"))
        fail_msg("a refused undo changed the game: %s", a);
    prog_stop(p);
}

/* The answer to line (ok or not) must hold want / must not hold unwanted. */
static void ask_holds(Prog *p, const char *line, const char *want, const char *unwanted)
{
    char a[1 << 15];
    ask(p, line, a, sizeof a);
    if (want && !strstr(a, want))
        fail_msg("`%s` must answer with %s, answered: %.800s", line, want, a);
    if (unwanted && strstr(a, unwanted))
        fail_msg("`%s` must not answer with %s, answered: %.800s", line, unwanted, a);
}

static void file_holds(const Prog *p, const char *name, const char *want, const char *unwanted)
{
    char *f = prog_file(p, name);
    if (!f)
        fail_msg("%s was not written", name);
    int bad_want = want && !strstr(f, want), bad_unwanted = unwanted && strstr(f, unwanted);
    free(f);
    if (bad_want || bad_unwanted)
        fail_msg("%s must %s \"%s\"", name, bad_want ? "hold" : "not hold",
                 bad_want ? want : unwanted);
}

/* Issue 19 point 2, MASQ-16 (the reproducer): once the game is
 * over, White's view, legal list and history are still refused to Black,
 * asked with `as` or bare (the first seat's), and Black's save writes
 * nothing, until White agrees to the save or shows its pieces; with
 * show_at_end=on both armies are public at the end and nothing waits. */
#define WHITE_QUEEN_A1 "\"square\":\"a1\",\"x\":0,\"y\":0,\"side\":\"white\",\"figure\":\"queen\""
static void test_masq16_cli_secrets_kept_after_the_end(void **state)
{
    Prog *p = *state;
    prog_start(p, "masques", 0, NULL);
    ask_ok(p, "as white arrange QNBRKBNR/PPPPPPPP");
    ask_ok(p, "as black standard");
    ask_ok(p, "as white resign");
    ask_refused(p, "as black view white");
    ask_refused(p, "as black legal white");
    ask_refused(p, "as black history white");
    ask_refused(p, "view black");            /* bare: white's, once the game is over */
    ask_holds(p, "as black view", "\"ok\":true", WHITE_QUEEN_A1);
    ask_holds(p, "as black save x.rec",
              "\"saved\":false,\"agreed\":[\"black\"],\"waiting\":[\"white\"]", NULL);
    if (file_exists(p, "x.rec"))
        fail_msg("black alone saved White's unshown arrangement after the end");
    ask_holds(p, "as white save x.rec", "\"saved\":true", NULL);
    file_holds(p, "x.rec", "# A finished game with hidden facts: this record holds what "
                           "white and black\n# kept hidden after the end", NULL);
    /* White shows: its view and history are open to Black; Black's own
     * save now needs nobody else */
    ask_ok(p, "as white show");
    ask_holds(p, "as black view white", WHITE_QUEEN_A1, NULL);
    ask_ok(p, "as black history white");
    ask_refused(p, "as white view black");
    ask_holds(p, "as black save y.rec", "\"saved\":true", NULL);
    file_holds(p, "y.rec", "this record holds what black\n", "what white");
    prog_stop(p);
    /* show_at_end=on: the players agreed before the game */
    prog_start(p, "masques", 0, "show_at_end=on");
    ask_ok(p, "as white arrange QNBRKBNR/PPPPPPPP");
    ask_ok(p, "as black standard");
    ask_refused(p, "as black view white");   /* not while the game is on */
    ask_ok(p, "as white resign");
    ask_holds(p, "as black view white", WHITE_QUEEN_A1, NULL);
    ask_holds(p, "as black save z.rec", "\"saved\":true", NULL);
    file_holds(p, "z.rec", "[Variant", "# A finished game");
    prog_stop(p);
}

/* Issue 19 point 2 in the terminal game: a save at `game over>` asks each
 * seat that has not shown its pieces (one "no" and nothing is written);
 * the review of the finished game, played or loaded from the record, shows
 * a seat's own past views only once that seat has shown its pieces. */
static void test_masq16_play_end_save_and_review(void **state)
{
    (void)state;
    char dir[] = "/tmp/chessvar_play_end_XXXXXX", in[1024], args[256], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.rec", dir);
    snprintf(in, sizeof in, "arrange QNBRKBNR/PPPPPPPP\nstandard\nresign\nyes\n"
                            "save %s\nyes\nno\nreview\nseat white\ndone\n"
                            "save %s\nyes\nyes\nquit\n", path, path);
    TuRun r;
    tu_run(&r, "play masques --seed 3 --ascii", in);
    const char *end = strstr(r.out, "game over> ");
    assert_non_null(end);
    assert_non_null(strstr(end, "black, do you agree? (yes/no)> no\n"
                                "not saved: black did not agree"));
    assert_non_null(strstr(end, "what white saw holds what it kept hidden"));
    assert_null(strstr(end, "Q~"));          /* White's masked Queen, in the review */
    assert_non_null(strstr(end, "(it holds what white and black did not show)"));
    tu_run_free(&r);
    snprintf(args, sizeof args, "play --load %s --ascii", path);
    tu_run(&r, args, "seat white\nseat black\ndone\nquit\n");
    assert_non_null(strstr(r.out, "loaded "));
    assert_non_null(strstr(r.out, "what white saw holds what it kept hidden"));
    assert_non_null(strstr(r.out, "what black saw holds what it kept hidden"));
    if (strstr(r.out, "Q~") || strstr(r.out, "r~"))
        fail_msg("the review of a loaded game shows a seat's masked figures:\n%s", r.out);
    tu_run_free(&r);
    unlink(path);
    rmdir(dir);
}

/* Each direct test drives one program; the teardown stops it even when
 * the test failed half-way (no stray process or temp directory). */
static int prog_setup(void **state)
{
    signal(SIGPIPE, SIG_IGN);
    *state = calloc(1, sizeof(Prog));
    return *state ? 0 : -1;
}

static int prog_teardown(void **state)
{
    Prog *p = *state;
    if (p->pid > 0)
        prog_stop(p);
    free(p);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_masq12_cli_other_seat_view_refused, prog_setup,
                                        prog_teardown),
        cmocka_unit_test_setup_teardown(test_masq12_cli_save_needs_every_seat, prog_setup,
                                        prog_teardown),
        cmocka_unit_test_setup_teardown(test_masq12_cli_undo_only_own, prog_setup,
                                        prog_teardown),
        cmocka_unit_test_setup_teardown(test_masq16_cli_secrets_kept_after_the_end,
                                        prog_setup, prog_teardown),
        cmocka_unit_test(test_masq16_play_end_save_and_review),
        cmocka_unit_test(test_masq12_cli_twins_answer_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
