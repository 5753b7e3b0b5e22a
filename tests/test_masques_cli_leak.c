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
 * `arrange`.  The actions are chosen in-process (the library: game_legal,
 * game_play on clones) so that both games stay comparable: every piece
 * whose figure differs stays masked on the same square, or left the board
 * without reveal.  After each action both programs are asked the same
 * battery of questions AS THE OTHER SEAT (the observer): view, legal,
 * history, status, position, the hidden seat's view and legal list, save
 * (then the file itself), moves and reveals from the hidden pieces'
 * squares, undo, garbage; every answer must be one line of JSON and the
 * observer's answers byte-identical between the twins.  Answers to the
 * hidden side's own actions are compared on what the observer may read of
 * them (status, seat to act, messages addressed to the observer).
 *
 * Besides the twin comparison, the behaviour of the command layer for a
 * game with hidden information is asserted directly: another seat's view
 * or legal list is refused, a lone `save` mid-game writes nothing
 * (every seat must agree), and a seat cannot undo the other seat's action.
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

/* Start `chessvar run VARIANT --json --seed SEED [--param PARAMS]` in a
 * fresh temp directory. */
static void prog_start(Prog *p, const char *variant, uint64_t seed, const char *params)
{
    char exe[1024], seedtxt[32];
    int to_child[2], from_child[2];
    program_path(exe, sizeof exe);
    snprintf(seedtxt, sizeof seedtxt, "%llu", (unsigned long long)seed);
    snprintf(p->dir, sizeof p->dir, "/tmp/chessvar_cli_leak_XXXXXX");
    assert_non_null(mkdtemp(p->dir));
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
        if (params)
            execl(exe, exe, "run", variant, "--json", "--seed", seedtxt, "--param", params,
                  (char *)NULL);
        else
            execl(exe, exe, "run", variant, "--json", "--seed", seedtxt, (char *)NULL);
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

/* Send one command line; its one-line answer (malloc'd, no newline), or
 * NULL if the program said nothing (it died). */
static char *prog_ask(Prog *p, const char *line)
{
    fprintf(p->in, "%s\n", line);
    fflush(p->in);
    char *ans = NULL;
    size_t cap = 0;
    ssize_t n = getline(&ans, &cap, p->out);
    if (n <= 0) {
        free(ans);
        return NULL;
    }
    if (ans[n - 1] == '\n')
        ans[n - 1] = '\0';
    return ans;
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

/* An answer is one line of JSON: {"ok":true|false, ... }. */
static int answer_well_formed(const char *a)
{
    size_t n = a ? strlen(a) : 0;
    return n > 8 && (!strncmp(a, "{\"ok\":true,", 11) || !strncmp(a, "{\"ok\":false,", 12))
           && a[n - 1] == '}' && !strchr(a, '\n');
}

static int answer_ok(const char *a)
{
    return a && !strncmp(a, "{\"ok\":true", 10);
}

/* ---- Findings: every kind of failure, counted, with its first example -- */

typedef struct Finding {
    char label[80];
    int count;
    StrBuf first;
} Finding;

typedef struct Report {
    Finding f[48];
    int n;
    long pairs, plies, answers, files, probes;
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

static const char *pair_params(const Pair *P)
{
    return P->params ? P->params : "defaults";
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
    } else if (!answer_well_formed(x) || !answer_well_formed(y)) {
        report_add(P->rep, "an answer that is not one line {\"ok\":...}",
                   "`%s`: %.300s / %.300s", line_a, x, y);
    } else {
        StrBuf cx = STRBUF_INIT, cy = STRBUF_INIT;
        if (how == CMP_PUBLIC) {
            answer_public(x, SEAT_NAME[P->observer], &cx);
            answer_public(y, SEAT_NAME[P->observer], &cy);
        } else {
            sb_puts(&cx, x);
            sb_puts(&cy, y);
        }
        if (strcmp(sb_str(&cx), sb_str(&cy))) {
            StrBuf why = STRBUF_INIT;
            show_difference(sb_str(&cx), sb_str(&cy), &why);
            char lab[80];
            snprintf(lab, sizeof lab, "LEAK through %s", label);
            report_add(P->rep, lab,
                       "seed %llu (%s), %s's figures permuted, ply %d, `%s`: %s",
                       (unsigned long long)P->seed, pair_params(P), SEAT_NAME[P->hidden],
                       P->ply, line_a, sb_str(&why));
            sb_free(&why);
        }
        sb_free(&cx);
        sb_free(&cy);
        int okx = answer_ok(x), oky = answer_ok(y);
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
    Game *c = game_clone(P->a);
    Error e = {""};
    int legal = game_play(c, P->observer, text, &e) == 0;
    game_free(c);
    if (legal)
        return;
    char line[160];
    snprintf(line, sizeof line, "as %s %s", SEAT_NAME[P->observer], text);
    P->rep->probes++;
    if (pair_ask(P, line, label, NULL) != 0)
        report_add(P->rep, "a probe the game refuses was accepted by the program",
                   "seed %llu, ply %d: `%s`", (unsigned long long)P->seed, P->ply, line);
}

/* `save FILE` as the observer alone (line is "as S save F" or "save F"):
 * nothing may be written while the game is on, the answer is
 * "saved":false and names the seat that must still agree; and whatever
 * is written must not depend on the hidden figures. */
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
        char lab[80];
        snprintf(lab, sizeof lab, "LEAK through the file of %s", label);
        report_add(P->rep, lab, "seed %llu (%s), %s's figures permuted, ply %d, `%s`: %s",
                   (unsigned long long)P->seed, pair_params(P), SEAT_NAME[P->hidden], P->ply,
                   line, sb_str(&why));
        sb_free(&why);
    }
    if (fa || fb) {
        char lab[80];
        snprintf(lab, sizeof lab, "%s wrote the file mid-game without the other seat", label);
        StrBuf head = STRBUF_INIT;
        put_line(&head, fa ? fa : fb, 200);
        report_add(P->rep, lab, "seed %llu, ply %d: `%s` answered %.200s; the file begins: %s",
                   (unsigned long long)P->seed, P->ply, line, ans ? ans : "(nothing)",
                   sb_str(&head));
        sb_free(&head);
    }
    const char *other = SEAT_NAME[P->hidden];
    if (rc == 1 && ans && (!strstr(ans, "\"saved\":false") || !strstr(ans, other))) {
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
    const char *k = a ? strstr(a, "\"ply\":") : NULL;
    int n = k ? atoi(k + 6) : -1;
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
        char want[32];
        snprintf(want, sizeof want, "\"ply\":%d,", nh);
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

static Game *pair_game(const Pair *P)
{
    return tu_game(&(TuGame){.variant = tu_variant("masques"), .seed = P->seed,
                             .params = P->params});
}

/* Random setups (the engine's `random` in a scratch game); the twin's
 * hidden side swaps the figures of one to four pairs of its pieces. */
static void pair_setups(Pair *P)
{
    Game *scratch = pair_game(P);
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
static void pair_run(Report *rep, uint64_t seed, const char *params, int hidden)
{
    Pair P;
    memset(&P, 0, sizeof P);
    P.seed = seed;
    P.params = params;
    P.hidden = hidden;
    P.observer = !hidden;
    P.rep = rep;
    P.alive = 1;
    rng_seed(&P.rng, seed * 7919u + (uint64_t)hidden);
    pair_setups(&P);
    P.a = pair_game(&P);
    P.b = pair_game(&P);
    prog_start(&P.pa, "masques", seed, params);
    prog_start(&P.pb, "masques", seed, params);
    rep->pairs++;
    battery(&P);
    for (int side = 0; side < 2 && P.alive; side++) {
        char ta[64], tb[64];
        tu_arrange_text(P.setup, side, ta, sizeof ta);
        tu_arrange_text(side == hidden ? P.twin_setup : P.setup, side, tb, sizeof tb);
        tu_play(P.a, side, ta);
        tu_play(P.b, side, tb);
        P.ply++;
        pair_send_action(&P, side, ta, tb);
        if (P.alive)
            battery(&P);
    }
    int d[64];
    if (P.alive && twins_alike(P.a, P.b, hidden, d) <= 0) {
        char *x = tu_position(P.a), *y = tu_position(P.b);
        fail_msg("seed %llu: the twins' setups are not alike but for %s's figures:\n  %s\n  %s",
                 (unsigned long long)seed, SEAT_NAME[hidden], x, y);
    }
    while (P.alive && P.ply < PLIES + 2 && game_to_act(P.a) >= 0) {
        char text[96];
        int seat = game_to_act(P.a);
        if (!choose_action(&P, seat, text, sizeof text))
            break;  /* every action would show a permuted figure */
        P.ply++;
        rep->plies++;
        pair_send_action(&P, seat, text, text);
        Status st;
        game_status(P.a, &st);
        if (P.alive && !st.over)
            battery(&P);
    }
    prog_stop(&P.pa);
    prog_stop(&P.pb);
    game_free(P.a);
    game_free(P.b);
}

/* MASQ-1, MASQ-12: seeded twin pairs through the program; the observer's
 * answers and files are the same whatever the hidden figures are. */
static void test_masq12_cli_twins_answer_the_same(void **state)
{
    (void)state;
    Report rep;
    memset(&rep, 0, sizeof rep);
    signal(SIGPIPE, SIG_IGN);
    for (int i = 0; i < PAIRS; i++)
        pair_run(&rep, (uint64_t)(i / 2 + 1), PARAMS[(i / 2) % ARRAY_LEN(PARAMS)], i % 2);
    print_message("%ld twin pairs, %ld plies after the setups, %ld answers compared, %ld "
                  "probes, %ld saved files checked (MASQ-12)\n",
                  rep.pairs, rep.plies, rep.answers, rep.probes, rep.files);
    report_finish(&rep);
    /* the test must have compared a lot, or it proves nothing */
    assert_true(rep.plies >= PAIRS * PLIES / 4);
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
        cmocka_unit_test(test_masq12_cli_twins_answer_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
