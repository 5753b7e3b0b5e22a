/*
 * test_chart.c -- the chart of an experiment (issue 23 point 5): what
 * `chessvar experiment --svg` writes (and the page shows, through the
 * same exp_svg) is read back as XML and checked against the text report
 * of the same run.
 *
 * For A/B and single runs, of 2, 3 and 4 seats, with long and wide rule
 * names and reasons, and players that won everything: the chart is
 * well-formed XML with a title and a description; the mark of a clear
 * change is on exactly the rows the report stars, beside the report's
 * B - A text; P1's Elo is written as the report writes it, its interval
 * drawn asymmetric as it is, and a bound the report calls infinite is an
 * arrow; the table of endings gives the report's games per reason, which
 * add up to the games, and the stacked bars fill their width; no two
 * texts overlap and none leaves the picture; a clipped text carries the
 * whole in a title.
 *
 * Text boxes are estimated from the font size: 0.6 em a character (0.66
 * bold), 1 em for characters of three UTF-8 bytes or more, from 0.8 em
 * above the baseline to 0.2 em below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "support/testutil.h"

#define CONTAINS(hay, needle)                                                         \
    do {                                                                              \
        if (!strstr((hay), (needle)))                                                 \
            fail_msg("expected to find \"%s\" in:\n%s", (needle), (hay));             \
    } while (0)

/* ---- A small XML reader ----------------------------------------------------- */

#define MAX_EL 4000

typedef struct El {
    char name[16];
    char attrs[400]; /* the raw attributes */
    char text[600];  /* character data directly inside, entities decoded */
    int parent;
} El;

typedef struct Doc {
    El *el;
    int n;
} Doc;

static int entity(const char *p, char *c)
{
    static const struct {
        const char *s;
        char c;
    } e[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}};
    for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
        if (strncmp(p, e[i].s, strlen(e[i].s)) == 0) {
            *c = e[i].c;
            return (int)strlen(e[i].s);
        }
    return 0;
}

static const char NAMECH[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-:0123456789";

/* Parse s into d: well-formed (one root; tags nested and closed;
 * attributes name="value"; '<' and '&' only as markup or one of the four
 * entities; no control character but line ends and tabs), or a failure
 * naming what is wrong. */
static void xml_parse(const char *what, const char *s, Doc *d)
{
    d->el = calloc(MAX_EL, sizeof *d->el);
    assert_non_null(d->el);
    d->n = 0;
    int stack[64], depth = 0, roots = 0;
    const char *p = s;
    while (*p) {
        if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t' && *p != '\r')
            fail_msg("%s: a control character (0x%02x) at %.30s", what, *p, p);
        if (*p != '<') {
            char c = *p;
            int k = 1;
            if (*p == '&' && !(k = entity(p, &c)))
                fail_msg("%s: a bare '&' at %.30s", what, p);
            if (!depth) {
                if (*p != '\n' && *p != ' ')
                    fail_msg("%s: text outside the root: %.30s", what, p);
            } else {
                El *e = &d->el[stack[depth - 1]];
                size_t l = strlen(e->text);
                if (l + 1 < sizeof e->text)
                    e->text[l] = c, e->text[l + 1] = '\0';
            }
            p += k;
            continue;
        }
        if (p[1] == '/') {
            const char *e = strchr(p, '>');
            if (!e || !depth)
                fail_msg("%s: a stray closing tag at %.30s", what, p);
            const char *open = d->el[stack[depth - 1]].name;
            if ((size_t)(e - p - 2) != strlen(open) || strncmp(p + 2, open, strlen(open)))
                fail_msg("%s: %.20s closes <%s>", what, p, open);
            depth--;
            p = e + 1;
            continue;
        }
        size_t len = strspn(p + 1, NAMECH);
        if (!len || len >= sizeof d->el[0].name)
            fail_msg("%s: a bad tag at %.30s", what, p);
        if (d->n == MAX_EL || depth == 64)
            fail_msg("%s: more than %d elements or 64 levels", what, MAX_EL);
        El *el = &d->el[d->n];
        memcpy(el->name, p + 1, len);
        el->parent = depth ? stack[depth - 1] : -1;
        const char *q = p + 1 + len, *a0 = q;
        for (;;) {
            q += strspn(q, " \n");
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            size_t an = strspn(q, NAMECH);
            if (!an || q[an] != '=' || q[an + 1] != '"')
                fail_msg("%s: a bad attribute in <%s> at %.30s", what, el->name, q);
            for (q += an + 2; *q && *q != '"'; q++) {
                char c;
                if (*q == '<' || (*q == '&' && !entity(q, &c)))
                    fail_msg("%s: '<' or a bare '&' in an attribute of <%s>", what, el->name);
            }
            if (!*q)
                fail_msg("%s: an attribute of <%s> is not closed", what, el->name);
            q++;
        }
        size_t al = (size_t)(q - a0);
        assert_true(al < sizeof el->attrs);
        memcpy(el->attrs, a0, al);
        if (!depth)
            roots++;
        d->n++;
        if (*q == '/') {
            p = q + 2;
        } else {
            stack[depth++] = d->n - 1;
            p = q + 1;
        }
    }
    if (depth || roots != 1)
        fail_msg("%s: %d elements left open, %d roots", what, depth, roots);
}

/* The value of attribute key of e ("" when it has none). */
static const char *attr(const El *e, const char *key, char *buf, size_t n)
{
    char pat[40];
    snprintf(pat, sizeof pat, " %s=\"", key);
    const char *p = strstr(e->attrs, pat);
    buf[0] = '\0';
    if (p) {
        p += strlen(pat);
        const char *q = strchr(p, '"');
        size_t l = (size_t)(q - p) < n - 1 ? (size_t)(q - p) : n - 1;
        memcpy(buf, p, l);
        buf[l] = '\0';
    }
    return buf;
}

static double num_attr(const El *e, const char *key)
{
    char b[40];
    return atof(attr(e, key, b, sizeof b));
}

static int has_class(const El *e, const char *cls)
{
    char b[80], pat[84];
    snprintf(pat, sizeof pat, " %s ", cls);
    char padded[90];
    snprintf(padded, sizeof padded, " %s ", attr(e, "class", b, sizeof b));
    return strstr(padded, pat) != NULL;
}

/* The i-th child of element p named name with class cls (NULL: any), or -1. */
static int child(const Doc *d, int p, const char *name, const char *cls, int i)
{
    for (int c = p + 1; c < d->n; c++)
        if (d->el[c].parent == p && strcmp(d->el[c].name, name) == 0 &&
            (!cls || has_class(&d->el[c], cls)) && i-- == 0)
            return c;
    return -1;
}

/* Is e inside p (at any depth)? */
static int within(const Doc *d, int e, int p)
{
    for (int q = d->el[e].parent; q >= 0; q = d->el[q].parent)
        if (q == p)
            return 1;
    return 0;
}

/* The first element inside p (at any depth) named name with class cls. */
static int find_in(const Doc *d, int p, const char *name, const char *cls)
{
    for (int c = p + 1; c < d->n; c++)
        if (within(d, c, p) && strcmp(d->el[c].name, name) == 0 && (!cls || has_class(&d->el[c], cls)))
            return c;
    return -1;
}

/* ---- Runs ------------------------------------------------------------------- */

typedef struct Run {
    char *report, *svg;
    Doc doc;
} Run;

static void run_chart(const char *args, Run *r)
{
    char path[] = "/tmp/chessvar_chart_XXXXXX", cmd[2048];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof cmd, "experiment %s --svg %s", args, path);
    TuRun t;
    tu_run(&t, cmd, NULL);
    if (t.status != 0)
        fail_msg("chessvar %s: status %d, %s", cmd, t.status, t.err);
    free(t.err);
    r->report = t.out;
    r->svg = tu_read_file(path);
    assert_non_null(r->svg);
    unlink(path);
    xml_parse(args, r->svg, &r->doc);
}


/* A house rule with a long name in wide characters and markup, and an
 * ending with a long reason. */
static const char LONG_RULE[] =
    "rule {\n"
    "  name = \"A house rule whose name is far longer than the chart has room for, "
    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e <&> \\\"quoted\\\"\",\n"
    "  description = \"A King on the fourth rank wins.\",\n"
    "  variants = {\"orthodox\"},\n"
    "  changes = {{area = \"end\", what = \"a King on the fourth rank wins\", rules = \"ORTH-7\"}},\n"
    "  react = function(game, action)\n"
    "    if action.kind ~= \"move\" then return end\n"
    "    local p = game:piece_at(action.to)\n"
    "    if p and p.figure == \"K\" and action.to:sub(2, 2) == (p.side == \"white\" and \"4\" or \"5\") then\n"
    "      game:finish(p.side, p.side .. \"'s King walked all the way to the middle of the board, "
    "a reason longer than the table has room for\")\n"
    "    end\n"
    "  end,\n"
    "}\n";

static char long_rule_path[64];

static const char *const RUNS[] = {
    /* the docs' chart: 2 seats, A/B, four clear changes */
    "orthodox --games 200 --bot white=greedy --bot black=greedy --seed 1 --compare --rules "
    "scripts/king_of_the_hill.lua",
    /* P1 wins every game of A: an Elo with no bound; a long wide name, a long
     * reason */
    "orthodox --games 10 --bot white=greedy --bot black=random --seed 4 --max-plies 200 "
    "--compare --rules %s --rules scripts/three_check.lua",
    /* 3 seats, mixed players, games stopped at the ply limit, a clear change */
    "tile --sides 3 --games 36 --seed 4 --max-plies 200 --bot 2=greedy --compare --param "
    "lenient_trapped=1",
    /* single rule sets: 4 seats; 2 seats with an unbounded Elo */
    "tile --sides 4 --games 12 --seed 2 --bot 1=greedy --max-plies 300",
    "orthodox --games 20 --bot white=greedy --bot black=random --seed 1 --max-plies 200",
    /* an Elo interval far from symmetric: +301 (+154 .. +838) */
    "orthodox --games 10 --bot white=greedy --bot black=random --seed 3 --max-plies 200",
};
#define NRUNS (sizeof RUNS / sizeof RUNS[0])

static void runs_setup(void)
{
    if (long_rule_path[0])
        return;
    snprintf(long_rule_path, sizeof long_rule_path, "/tmp/chessvar_chart_rule_XXXXXX");
    int fd = mkstemp(long_rule_path);
    assert_true(fd >= 0);
    assert_true(write(fd, LONG_RULE, sizeof LONG_RULE - 1) == (ssize_t)(sizeof LONG_RULE - 1));
    close(fd);
}

/* Run i, made once for all the tests. */
static Run runs[NRUNS];

static void run_nth(size_t i, Run *r)
{
    if (!runs[i].svg) {
        char args[1024];
        runs_setup();
        snprintf(args, sizeof args, RUNS[i], long_rule_path);
        run_chart(args, &runs[i]);
    }
    *r = runs[i];
}

/* ---- The report, as the text says it ---------------------------------------- */

/* The report's comparison table: each row's label, its B - A text and its
 * star; the number of rows. */
typedef struct ReportRow {
    char label[80], diff[80];
    int star;
} ReportRow;

static int report_rows(const char *report, ReportRow *rows, int max)
{
    const char *p = strstr(report, "B - A (95% interval)");
    if (!p)
        return 0;
    p = strchr(p, '\n') + 1;
    int n = 0;
    while (strncmp(p, "  (", 3) != 0) { /* the notes under the table */
        const char *e = strchr(p, '\n');
        assert_non_null(e);
        assert_true(n < max);
        char line[256];
        size_t l = (size_t)(e - p);
        assert_true(l < sizeof line && l > 25);
        memcpy(line, p, l);
        line[l] = '\0';
        ReportRow *r = &rows[n++];
        r->star = l > 3 && strcmp(line + l - 3, "  *") == 0;
        if (r->star)
            line[l -= 3] = '\0';
        snprintf(r->label, sizeof r->label, "%.22s", line + 2);
        for (size_t k = strlen(r->label); k && r->label[k - 1] == ' ';)
            r->label[--k] = '\0';
        /* the difference (issue 23's table: A, B, B - A (lo .. hi), p):
         * the field before the first '(' past the label, to its ')'; a
         * row without an interval ends with it */
        char *open = strchr(line + 25, '(');
        char *start = open ? open - 1 : line + l;
        while (start > line && start[-1] != ' ')
            start--;
        if (open)
            *(strchr(open, ')') + 1) = '\0';
        snprintf(r->diff, sizeof r->diff, "%.79s", start);
        p = e + 1;
    }
    return n;
}

/* The report's "Elo ..." texts, in order (A then B). */
static int report_elos(const char *report, char elo[][80], int max)
{
    int n = 0;
    for (const char *p = report; (p = strstr(p, ", Elo ")); p++) {
        const char *e = strchr(p, '\n');
        assert_true(n < max);
        snprintf(elo[n++], 80, "%.*s", (int)(e - p - 6), p + 6);
    }
    return n;
}

/* The report's "How the games ended" tables, in order (A then B): each
 * reason with its games. */
typedef struct Ends {
    int n;
    char reason[40][100];
    long games[40];
} Ends;

static int report_ends(const char *report, Ends *ends, int max)
{
    int k = 0;
    for (const char *p = report; (p = strstr(p, "How the games ended\n")); k++) {
        assert_true(k < max);
        Ends *e = &ends[k];
        e->n = 0;
        p = strchr(p, '\n') + 1;
        while (strncmp(p, "  ", 2) == 0) {
            const char *eol = strchr(p, '\n');
            char line[256];
            snprintf(line, sizeof line, "%.*s", (int)(eol - p), p);
            /* "  reason   count  share%" */
            char *pct = strrchr(line, ' ');
            *pct = '\0';
            while (pct > line && pct[-1] == ' ')
                *--pct = '\0';
            char *cnt = strrchr(line, ' ');
            e->games[e->n] = atol(cnt + 1);
            while (cnt > line && *cnt == ' ')
                *cnt-- = '\0';
            snprintf(e->reason[e->n], sizeof e->reason[0], "%.99s", line + 2);
            e->n++;
            p = eol + 1;
        }
    }
    return k;
}

static long report_games(const char *report)
{
    const char *p = strstr(report, " games");
    assert_non_null(p);
    while (p[-1] >= '0' && p[-1] <= '9')
        p--;
    return atol(p);
}

/* ---- Tests ------------------------------------------------------------------ */

/* issue 23 point 5: the mark of a clear change is on exactly the rows the
 * report stars, beside the report's own B - A text; a single rule set has
 * neither mark nor difference. */
static void test_chart_marks_exactly_the_clear_rows(void **state)
{
    (void)state;
    int marked_runs = 0;
    for (size_t i = 0; i < NRUNS; i++) {
        Run r;
        run_nth(i, &r);
        const Doc *d = &r.doc;
        ReportRow rows[32];
        int n = report_rows(r.report, rows, 32), stars = 0;
        int marks = 0, diffs = 0;
        for (int e = 0; e < d->n; e++) {
            marks += has_class(&d->el[e], "mark");
            diffs += has_class(&d->el[e], "diff");
        }
        for (int k = 0; k < n; k++) {
            int row = -1;
            for (int e = 0; e < d->n && row < 0; e++) {
                if (strcmp(d->el[e].name, "g") || !has_class(&d->el[e], "row"))
                    continue;
                int t = child(d, e, "title", NULL, 0);
                size_t l = strlen(rows[k].label);
                if (t >= 0 && strncmp(d->el[t].text, rows[k].label, l) == 0 &&
                    d->el[t].text[l] == ':')
                    row = e;
            }
            if (row < 0)
                fail_msg("%s: the report's row \"%s\" is not in the chart", RUNS[i],
                         rows[k].label);
            int mark = child(d, row, "text", "mark", 0);
            if ((mark >= 0) != rows[k].star || has_class(&d->el[row], "clear") != rows[k].star)
                fail_msg("%s: row \"%s\": the report %s it, the chart %s", RUNS[i],
                         rows[k].label, rows[k].star ? "stars" : "does not star",
                         mark >= 0 ? "marks it" : "does not");
            if (mark >= 0)
                assert_string_equal(d->el[mark].text, "*");
            int dt = find_in(d, row, "text", "diff");
            assert_true(dt >= 0);
            if (strcmp(d->el[dt].text, rows[k].diff) != 0)
                fail_msg("%s: row \"%s\": the chart says %s, the report %s", RUNS[i],
                         rows[k].label, d->el[dt].text, rows[k].diff);
            stars += rows[k].star;
        }
        assert_int_equal(marks, stars);
        assert_int_equal(diffs, n);
        if (n) { /* the legend says what the mark means */
            int legend = -1;
            for (int e = 0; e < d->n; e++)
                if (has_class(&d->el[e], "legend"))
                    legend = e;
            assert_true(legend >= 0);
            CONTAINS(d->el[legend].text, "* and bold: a clear change (p < 0.05 after Holm's "
                                         "correction over the rows judged)");
        }
        marked_runs += stars > 0;
    }
    assert_true(marked_runs >= 2); /* the check saw marks, not only their absence */
}

/* issue 23 point 5: P1's Elo and its interval as the report writes them;
 * the interval drawn where its bounds are, asymmetric as they are, and a
 * bound the report calls infinite drawn as an arrow at the axis's end. */
static void test_chart_elo_as_the_report(void **state)
{
    (void)state;
    int open_seen = 0, finite_seen = 0;
    for (size_t i = 0; i < NRUNS; i++) {
        Run r;
        run_nth(i, &r);
        const Doc *d = &r.doc;
        char want[4][80];
        int n = report_elos(r.report, want, 4), k = 0;
        for (int e = 0; e < d->n; e++) {
            if (strcmp(d->el[e].name, "g") || !has_class(&d->el[e], "elo"))
                continue;
            assert_true(k < n);
            int t = child(d, e, "text", "elo-text", 0);
            assert_true(t >= 0);
            assert_string_equal(d->el[t].text, want[k]);
            double v, lo, hi;
            char sv[16], slo[16], shi[16];
            assert_int_equal(sscanf(want[k], "%15s (%15s .. %15[^)])", sv, slo, shi), 3);
            int opens = 0;
            for (int c = e + 1; c < d->n; c++)
                opens += within(d, c, e) && has_class(&d->el[c], "open");
            assert_int_equal(opens, !!strstr(slo, "inf") + !!strstr(shi, "inf"));
            open_seen += opens;
            int dot = child(d, e, "circle", NULL, 0);
            assert_int_equal(dot >= 0, !strstr(sv, "inf"));
            if (!opens) { /* the dot divides the whisker as the value its interval */
                v = atof(sv), lo = atof(slo), hi = atof(shi);
                int w = child(d, e, "path", NULL, 0);
                char path[200];
                double a, b;
                int y;
                attr(&d->el[w], "d", path, sizeof path);
                assert_int_equal(sscanf(path, "M%lf %dH%lf", &a, &y, &b), 3);
                double drawn = (num_attr(&d->el[dot], "cx") - a) / (b - a);
                double told = (v - lo) / (hi - lo);
                if (fabs(drawn - told) > 0.03)
                    fail_msg("%s: Elo %s drawn at %.3f of its whisker, not %.3f", RUNS[i],
                             want[k], drawn, told);
                finite_seen++;
            }
            k++;
        }
        assert_int_equal(k, n);
    }
    assert_true(open_seen > 0);
    assert_true(finite_seen > 0);
}

/* issue 23 point 5: how the games ended, per rule set: the report's games
 * for each reason, adding up to the games; each stacked bar fills the
 * plot's width. */
static void test_chart_endings_add_up(void **state)
{
    (void)state;
    for (size_t i = 0; i < NRUNS; i++) {
        Run r;
        run_nth(i, &r);
        const Doc *d = &r.doc;
        Ends want[2];
        int sets = report_ends(r.report, want, 2);
        long games = report_games(r.report), sum[2] = {0, 0};
        int rows = 0;
        for (int e = 0; e < d->n; e++) {
            if (strcmp(d->el[e].name, "g") || !has_class(&d->el[e], "end"))
                continue;
            rows++;
            const char *reason = d->el[child(d, e, "title", NULL, 0)].text;
            for (int s = 0; s < sets; s++) {
                int c = child(d, e, "text", "count", s);
                assert_true(c >= 0);
                long got = atol(d->el[c].text);
                sum[s] += got;
                long told = 0;
                size_t rl = strlen(reason); /* the report pads its column: no end spaces */
                while (rl && reason[rl - 1] == ' ')
                    rl--;
                for (int k = 0; k < want[s].n; k++)
                    if (strlen(want[s].reason[k]) == rl && strncmp(want[s].reason[k], reason, rl) == 0)
                        told = want[s].games[k];
                if (!strstr(reason, " other ways") && got != told)
                    fail_msg("%s: \"%s\" in set %d: the chart says %ld, the report %ld",
                             RUNS[i], reason, s + 1, got, told);
            }
        }
        assert_true(rows > 0);
        for (int s = 0; s < sets; s++) {
            if (sum[s] != games)
                fail_msg("%s: set %d's endings add up to %ld of %ld games", RUNS[i], s + 1,
                         sum[s], games);
            /* the stacked bar */
            int bar = -1;
            for (int e = 0, k = 0; e < d->n && bar < 0; e++)
                if (!strcmp(d->el[e].name, "g") && has_class(&d->el[e], "ends-bar") && k++ == s)
                    bar = e;
            assert_true(bar >= 0);
            double w = 0;
            for (int c = 0; child(d, bar, "rect", NULL, c) >= 0; c++)
                w += num_attr(&d->el[child(d, bar, "rect", NULL, c)], "width");
            if (fabs(w - 300) > 0.5)
                fail_msg("%s: set %d's stacked bar is %.1f wide, not 300", RUNS[i], s + 1, w);
        }
    }
}

typedef struct Box {
    double x0, y0, x1, y1;
    const char *text;
} Box;

static double est_width(const char *s, double fs, int bold)
{
    double w = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int k = *p < 0x80 ? 1 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
        w += fs * (k >= 3 ? 1.0 : bold ? 0.66 : 0.6);
        p += k;
    }
    return w;
}

/* issue 23 point 5: the chart reads: a title and a description first, no
 * text over another or out of the picture, and a text cut to fit gives
 * the whole of it in a title. */
static void test_chart_readable(void **state)
{
    (void)state;
    int clipped = 0;
    for (size_t i = 0; i < NRUNS; i++) {
        Run r;
        run_nth(i, &r);
        const Doc *d = &r.doc;
        assert_string_equal(d->el[0].name, "svg");
        CONTAINS(d->el[0].attrs, "xmlns=\"http://www.w3.org/2000/svg\"");
        CONTAINS(d->el[0].attrs, "role=\"img\"");
        assert_string_equal(d->el[1].name, "title");
        assert_string_equal(d->el[2].name, "desc");
        assert_true(strlen(d->el[1].text) > 10 && strlen(d->el[2].text) > 10);
        double W = num_attr(&d->el[0], "width"), H = num_attr(&d->el[0], "height");
        Box *b = calloc((size_t)d->n, sizeof *b);
        assert_non_null(b);
        int nb = 0;
        for (int e = 0; e < d->n; e++) {
            const El *t = &d->el[e];
            if (strcmp(t->name, "text"))
                continue;
            char a[40], wt[40];
            double fs = num_attr(t, "font-size"), x = num_attr(t, "x"), y = num_attr(t, "y");
            double w = est_width(t->text, fs, strcmp(attr(t, "font-weight", wt, sizeof wt), "bold") == 0);
            attr(t, "text-anchor", a, sizeof a);
            double x0 = !strcmp(a, "end") ? x - w : !strcmp(a, "middle") ? x - w / 2 : x;
            b[nb] = (Box){x0, y - 0.8 * fs, x0 + w, y + 0.2 * fs, t->text};
            if (b[nb].x0 < 0 || b[nb].x1 > W || b[nb].y0 < 0 || b[nb].y1 > H)
                fail_msg("%s: \"%s\" leaves the %gx%g picture", RUNS[i], t->text, W, H);
            nb++;
            size_t l = strlen(t->text);
            if (l > 3 && strcmp(t->text + l - 3, "\xe2\x80\xa6") == 0) { /* cut: "…" */
                int g = t->parent, ti = child(d, g, "title", NULL, 0);
                assert_true(ti >= 0);
                if (strncmp(d->el[ti].text, t->text, l - 3) != 0)
                    fail_msg("%s: \"%s\" is cut but its title is \"%s\"", RUNS[i], t->text,
                             d->el[ti].text);
                clipped++;
            }
        }
        for (int p = 0; p < nb; p++)
            for (int q = p + 1; q < nb; q++) {
                double ox = fmin(b[p].x1, b[q].x1) - fmax(b[p].x0, b[q].x0);
                double oy = fmin(b[p].y1, b[q].y1) - fmax(b[p].y0, b[q].y0);
                if (ox > 0.5 && oy > 0.5)
                    fail_msg("%s: \"%s\" and \"%s\" overlap", RUNS[i], b[p].text, b[q].text);
            }
        free(b);
    }
    assert_true(clipped >= 2); /* the long name and the long reason */
}

static int teardown(void **state)
{
    (void)state;
    if (long_rule_path[0])
        unlink(long_rule_path);
    for (size_t i = 0; i < NRUNS; i++)
        free(runs[i].report), free(runs[i].svg), free(runs[i].doc.el);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chart_marks_exactly_the_clear_rows),
        cmocka_unit_test(test_chart_elo_as_the_report),
        cmocka_unit_test(test_chart_endings_add_up),
        cmocka_unit_test(test_chart_readable),
    };
    return cmocka_run_group_tests(tests, NULL, teardown);
}
