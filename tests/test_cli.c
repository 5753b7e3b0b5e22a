/*
 * test_cli.c -- end-to-end tests of the `chessvar` program: the built
 * binary (env CHESSVAR, default ./chessvar) runs through the shell with
 * standard input fed from a file; the tests assert on its output and exit
 * status.  A few tests call the renderers directly on hand-made Views
 * (unbounded plane, hidden, masked and merged pieces) that no built-in
 * variant produces yet.
 *
 * Invariant: every test checks behaviour that could fail (counts, results,
 * unchanged positions, exit codes), citing the rule (ORTH-n) it exercises.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/cli/cli.h"
#include "../core/game.h"
#include "../core/cli/render.h"
#include "support/testutil.h"
#include "support/toy_variant.h"

#define CASTLES_FEN "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
#define SCHOLAR "e4\ne5\nBc4\nNc6\nQh5\nNf6\nQxf7#\n"

/* ---- Running the program ------------------------------------------------ */

typedef TuRun Run; /* tests/support/testutil.h */

static void temp_path(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/chessvar_test_%s_XXXXXX", tag);
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
}

static int count_lines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static int count_str(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* Line i (0-based) of s, copied into buf. */
static const char *line_at(const char *s, int i, char *buf, size_t n)
{
    while (i-- > 0 && s) {
        s = strchr(s, '\n');
        if (s)
            s++;
    }
    buf[0] = '\0';
    if (!s)
        return buf;
    size_t len = strcspn(s, "\n");
    if (len >= n)
        len = n - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return buf;
}

#define assert_contains(hay, needle)                                          \
    do {                                                                      \
        if (!strstr((hay), (needle)))                                         \
            fail_msg("expected \"%s\" in:\n%s", (needle), (hay));             \
    } while (0)

/* One run of the program and what it must show.  Zero fields are not
 * checked, except status: 0 means the run must succeed. */
typedef struct Expect {
    const char *args, *input; /* as for run() */
    int status;               /* the exit status */
    const char *out[8];       /* each must be in stdout */
    const char *err[3];       /* each must be in stderr */
    const char *not_out[3];   /* none may be in stdout */
    const char *out_is;       /* stdout is exactly this */
    const char *err_is;       /* stderr is exactly this */
    int lines;                /* > 0: stdout has exactly this many lines */
} Expect;

static void expect(const Expect *x)
{
    Run r;
    tu_run(&r, x->args, x->input);
    if (r.status != x->status)
        fail_msg("chessvar %s: exit status %d, expected %d\nstdout:\n%s"
                 "stderr:\n%s", x->args, r.status, x->status, r.out, r.err);
    for (int i = 0; i < 8 && x->out[i]; i++)
        assert_contains(r.out, x->out[i]);
    for (int i = 0; i < 3 && x->err[i]; i++)
        assert_contains(r.err, x->err[i]);
    for (int i = 0; i < 3 && x->not_out[i]; i++)
        if (strstr(r.out, x->not_out[i]))
            fail_msg("chessvar %s: \"%s\" in:\n%s", x->args, x->not_out[i],
                     r.out);
    if (x->out_is)
        assert_string_equal(r.out, x->out_is);
    if (x->err_is)
        assert_string_equal(r.err, x->err_is);
    if (x->lines > 0)
        assert_int_equal(count_lines(r.out), x->lines);
    tu_run_free(&r);
}

static void expect_all(const Expect *cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        expect(&cases[i]);
}

/* ---- A small JSON validator ---------------------------------------------- */

typedef struct Json {
    const char *p;
    int depth;
} Json;

static int json_value(Json *j);

static void json_ws(Json *j)
{
    while (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')
        j->p++;
}

static int json_string(Json *j)
{
    if (*j->p != '"')
        return -1;
    for (j->p++; *j->p != '"'; j->p++) {
        unsigned char c = (unsigned char)*j->p;
        if (c < 0x20)
            return -1;
        if (c == '\\') {
            j->p++;
            if (*j->p == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!strchr("0123456789abcdefABCDEF", j->p[k]) || !j->p[k])
                        return -1;
                j->p += 4;
            } else if (!*j->p || !strchr("\"\\/bfnrt", *j->p)) {
                return -1;
            }
        }
    }
    j->p++;
    return 0;
}

static int json_number(Json *j)
{
    const char *s = j->p;
    if (*j->p == '-')
        j->p++;
    if (*j->p < '0' || *j->p > '9')
        return -1;
    while ((*j->p >= '0' && *j->p <= '9') || strchr(".eE+-", *j->p))
        j->p++;
    return j->p > s ? 0 : -1;
}

static int json_list(Json *j, char close, int members)
{
    j->p++;
    json_ws(j);
    if (*j->p == close) {
        j->p++;
        return 0;
    }
    for (;;) {
        json_ws(j);
        if (members) {
            if (json_string(j))
                return -1;
            json_ws(j);
            if (*j->p++ != ':')
                return -1;
        }
        if (json_value(j))
            return -1;
        json_ws(j);
        if (*j->p == ',') {
            j->p++;
            continue;
        }
        if (*j->p++ != close)
            return -1;
        return 0;
    }
}

static int json_value(Json *j)
{
    json_ws(j);
    if (++j->depth > 64)
        return -1;
    int rc;
    switch (*j->p) {
    case '{': rc = json_list(j, '}', 1); break;
    case '[': rc = json_list(j, ']', 0); break;
    case '"': rc = json_string(j); break;
    case 't': rc = strncmp(j->p, "true", 4) ? -1 : (j->p += 4, 0); break;
    case 'f': rc = strncmp(j->p, "false", 5) ? -1 : (j->p += 5, 0); break;
    case 'n': rc = strncmp(j->p, "null", 4) ? -1 : (j->p += 4, 0); break;
    default: rc = json_number(j); break;
    }
    j->depth--;
    return rc;
}

/* 1 if line is exactly one JSON object. */
static int json_object_line(const char *line)
{
    Json j = {line, 0};
    json_ws(&j);
    if (*j.p != '{' || json_value(&j))
        return 0;
    json_ws(&j);
    return *j.p == '\0';
}

static void test_json_validator_itself(void **state)
{
    (void)state;
    assert_true(json_object_line("{\"a\":[1,-2.5e3,true,null,{\"b\":\"x\\n\"}]}"));
    assert_false(json_object_line("{\"a\":1,}"));
    assert_false(json_object_line("{\"a\":\"unterminated}"));
    assert_false(json_object_line("{\"a\":1}{\"b\":2}"));
    assert_false(json_object_line("[1,2]"));
}

/* Every line of out is one JSON object; returns the number of lines. */
static int assert_json_lines(const char *out)
{
    int n = 0;
    const char *s = out;
    while (*s) {
        size_t len = strcspn(s, "\n");
        char *line = malloc(len + 1);
        assert_non_null(line);
        memcpy(line, s, len);
        line[len] = '\0';
        if (!json_object_line(line))
            fail_msg("not one JSON object: %s", line);
        free(line);
        n++;
        s += len + (s[len] == '\n');
    }
    return n;
}

/* Strict UTF-8 (RFC 3629), written apart from core/util.c's validator
 * from the table of well-formed byte sequences (Unicode 15, table 3-7). */
static int utf8_ok(const char *s, size_t n)
{
    static const struct { unsigned char lead_lo, lead_hi, lo, hi; int len; } T[] = {
        {0x00, 0x7F, 0, 0, 1},       {0xC2, 0xDF, 0x80, 0xBF, 2},
        {0xE0, 0xE0, 0xA0, 0xBF, 3}, {0xE1, 0xEC, 0x80, 0xBF, 3},
        {0xED, 0xED, 0x80, 0x9F, 3}, {0xEE, 0xEF, 0x80, 0xBF, 3},
        {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4},
        {0xF4, 0xF4, 0x80, 0x8F, 4}};
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = 0;
        while (k < sizeof T / sizeof T[0] && (p[i] < T[k].lead_lo || p[i] > T[k].lead_hi))
            k++;
        if (k == sizeof T / sizeof T[0] || i + (size_t)T[k].len > n)
            return 0;
        if (T[k].len > 1 && (p[i + 1] < T[k].lo || p[i + 1] > T[k].hi))
            return 0;
        for (int j = 2; j < T[k].len; j++)
            if ((p[i + (size_t)j] & 0xC0) != 0x80)
                return 0;
        i += (size_t)T[k].len;
    }
    return 1;
}

/* Issue 8, item 3: core/util.c's validator agrees with the table above on
 * every one- and two-byte string, on every lead byte followed by each
 * boundary of the continuation ranges, and on every three-byte string
 * whose lead is E0, ED, EF, F0 or F4 with a valid third byte. */
static void test_utf8_validator_is_strict(void **state)
{
    (void)state;
    unsigned char b[4];
    for (int x = 0; x < 256; x++) {
        b[0] = (unsigned char)x;
        assert_int_equal(utf8_valid((char *)b, 1), utf8_ok((char *)b, 1));
        for (int y = 0; y < 256; y++) {
            b[1] = (unsigned char)y;
            if (utf8_valid((char *)b, 2) != utf8_ok((char *)b, 2))
                fail_msg("%02x %02x", x, y);
            b[2] = 0x80;
            b[3] = 0xBF;
            for (int n = 3; n <= 4; n++)
                if (utf8_valid((char *)b, (size_t)n) != utf8_ok((char *)b, (size_t)n))
                    fail_msg("%02x %02x .. (%d bytes)", x, y, n);
        }
    }
    /* The cases of the issue: a surrogate, overlong forms, above U+10FFFF,
     * lead bytes F5..F7; and valid text at the edges. */
    assert_false(utf8_valid("\xed\xa0\x80", 3));
    assert_false(utf8_valid("\xc0\xaf", 2));
    assert_false(utf8_valid("\xe0\x80\xaf", 3));
    assert_false(utf8_valid("\xf0\x80\x80\xaf", 4));
    assert_false(utf8_valid("\xf4\x90\x80\x80", 4));
    assert_false(utf8_valid("\xf5\x80\x80\x80", 4));
    assert_false(utf8_valid("\xf7\xbf\xbf\xbf", 4));
    assert_true(utf8_valid("\xf4\x8f\xbf\xbf", 4));
    assert_true(utf8_valid("\xef\xbf\xbf\xf0\x90\x80\x80", 7));
    assert_false(utf8_valid("\xc3", 1)); /* cut */
}

/* Issue 8, item 2: a message that quotes what was typed never cuts a
 * character: with each variant, lines of accented letters of many
 * lengths (a '%.40s' cut them; long ones fill the message) give one JSON
 * object each, all valid UTF-8, and so do the text answers. */
static void test_run_never_cuts_a_character(void **state)
{
    (void)state;
    static const char *const variants[] = {"orthodox", "masques", "ambigus"};
    StrBuf in = STRBUF_INIT;
    static const char *const heads[] = {"e", "ee", "Q", "as white e", "choose "};
    static const int counts[] = {20, 39, 40, 41, 150, 300};
    for (size_t h = 0; h < ARRAY_LEN(heads); h++)
        for (size_t c = 0; c < ARRAY_LEN(counts); c++) {
            sb_puts(&in, heads[h]);
            for (int i = 0; i < counts[c]; i++)
                sb_puts(&in, "\xC3\xA9");
            sb_putc(&in, '\n');
        }
    for (size_t v = 0; v < ARRAY_LEN(variants); v++) {
        for (int json = 0; json <= 1; json++) {
            char args[64];
            snprintf(args, sizeof args, "run %s%s", variants[v], json ? " --json" : "");
            Run r;
            tu_run(&r, args, in.s);
            assert_int_equal(r.status, 1);
            if (!utf8_ok(r.out, strlen(r.out)))
                fail_msg("chessvar %s: output not valid UTF-8:\n%s", args, r.out);
            if (json)
                assert_int_equal(assert_json_lines(r.out),
                                 (int)(ARRAY_LEN(heads) * ARRAY_LEN(counts)));
            tu_run_free(&r);
        }
    }
    sb_free(&in);
}

/* Issue 8, item 3: a line that is not strict UTF-8 is refused as a whole
 * with "cmd":"none" (PROTOCOL.md), and nothing of it is echoed. */
static void test_run_refuses_invalid_utf8(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "e4\xed\xa0\x80",         /* a surrogate */
        "e4\xc0\xaf",              /* overlong '/' */
        "e4\xe0\x80\xaf",         /* overlong, three bytes */
        "e4\xf0\x80\x80\xaf",     /* overlong, four bytes */
        "e4\xf4\x90\x80\x80",     /* above U+10FFFF */
        "e4\xf5\x80\x80\x80",     /* lead byte F5 */
        "e4\xf7\xbf\xbf\xbf",     /* lead byte F7 */
        "as white e4\xc3",         /* a cut character */
    };
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        char in[64];
        snprintf(in, sizeof in, "%s\nstatus\n", bad[i]);
        Run r;
        tu_run(&r, "run orthodox --json", in);
        assert_int_equal(r.status, 1);
        char first[256];
        line_at(r.out, 0, first, sizeof first);
        if (strcmp(first, "{\"ok\":false,\"cmd\":\"none\",\"error\":\"the line is not "
                          "valid UTF-8 text\"}") != 0)
            fail_msg("line %zu: %s", i, first);
        assert_contains(r.out, "\"ply\":0"); /* nothing was played */
        tu_run_free(&r);
    }
    /* Valid four-byte text is text: the variant reads and refuses it. */
    expect(&(Expect){.args = "run orthodox --json", .input = "e4\xf0\x9f\x98\x80\n",
                     .status = 1, .out = {"\"cmd\":\"play\""}});
}

/* Issue 8, item 4: when standard output cannot be written (a full disk:
 * /dev/full) every command says so on standard error and exits 1
 * (PROTOCOL.md, "Exit status"). */
static void test_write_errors_exit_1(void **state)
{
    (void)state;
    static const struct { const char *args, *input; } cases[] = {
        {"run orthodox", "e4\n"},
        {"run orthodox --json", "e4\nlegal\n"},
        {"play orthodox --ascii", "e4\nquit\n"},
        {"perft orthodox --depth 2", NULL},
        {"perft orthodox --depth 2 --divide", NULL},
        {"legal orthodox", NULL},
        {"list", NULL},
        {"params orthodox", NULL},
        {"rules orthodox", NULL},
        {"help", NULL},
        {"help run", NULL},
        {"run --help", NULL},
        {"--help", NULL},
        {"--version", NULL},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        char args[128];
        snprintf(args, sizeof args, "%s > /dev/full", cases[i].args);
        Run r;
        tu_run(&r, args, cases[i].input);
        if (r.status != 1 || !strstr(r.err, "cannot write"))
            fail_msg("chessvar %s: exit %d, stderr: %s", args, r.status, r.err);
        tu_run_free(&r);
    }
}

/* Issue 8, item 5: no silent truncation.  An over-long field, a NUL byte
 * or a padded number is refused with a message, never cut into a
 * different input that is then accepted. */
static void test_no_silent_truncation(void **state)
{
    (void)state;
    /* A move, 300 spaces, then "zzz": refused like "e4 zzz". */
    char in[1024];
    snprintf(in, sizeof in, "e4%300szzz\nas white e4%300szzz\nstatus\n", "", "");
    expect(&(Expect){.args = "run orthodox --json", .input = in, .status = 1,
                     .out = {"too long", "\"ply\":0"}, .not_out = {"\"ok\":true,\"cmd\":\"play\""}});
    /* A NUL byte: the line is refused, e4 is not played. */
    static const char nul[] = "e4\0junk\nstatus\n";
    Run r;
    tu_run_n(&r, "run orthodox --json", nul, sizeof nul - 1);
    assert_int_equal(r.status, 1);
    assert_contains(r.out, "{\"ok\":false,\"cmd\":\"none\",\"error\":\"the line holds a "
                           "NUL byte\"}");
    assert_contains(r.out, "\"ply\":0");
    tu_run_free(&r);
    /* Numbers with a blank or sign in front are not numbers. */
    expect(&(Expect){.args = "run orthodox --seed ' -1'", .status = 2,
                     .err = {"--seed  -1: give a whole number"}});
    expect(&(Expect){.args = "run orthodox --seed ' 5'", .status = 2, .err = {"--seed"}});
    expect(&(Expect){.args = "run orthodox --sides ' 2'", .status = 2, .err = {"--sides"}});
    expect(&(Expect){.args = "perft orthodox --depth ' 1'", .status = 2, .err = {"--depth"}});
    expect(&(Expect){.args = "run orthodox", .input = "undo +1\nundo \t1\n", .status = 1,
                     .out = {"error: undo +1"}});
    /* `as white save PATH` with a path over 1,100 bytes writes that file,
     * not the one a 1,024-byte copy of the line named. */
    char dir[] = "/tmp/chessvar-long-XXXXXX";
    assert_non_null(mkdtemp(dir));
    StrBuf path = STRBUF_INIT, cmd = STRBUF_INIT;
    sb_printf(&path, "%s/", dir);
    for (int i = 0; i < 480; i++)
        sb_puts(&path, "./");
    for (int i = 0; i < 150; i++)
        sb_putc(&path, 'a' + i % 26);
    assert_true(path.len > 1100);
    sb_printf(&cmd, "e4\nas white save %s\n", path.s);
    tu_run(&r, "run orthodox", cmd.s);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    char *back = tu_read_file(path.s);
    assert_non_null(back); /* the whole path was written ... */
    assert_contains(back, "1. white: e4");
    free(back);
    sb_reset(&cmd);
    sb_printf(&cmd, "ls -A '%s'", dir);
    FILE *p = popen(cmd.s, "r");
    char *names = tu_read_stream(p);
    pclose(p);
    assert_int_equal(count_lines(names), 1); /* ... and nothing else */
    free(names);
    unlink(path.s);
    rmdir(dir);
    sb_free(&path);
    sb_free(&cmd);
}

/* Output of a shell command line (stderr too), with its exit status as a
 * last line "exit N"; `timeout` keeps a regression from hanging. */
static char *shell(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *shell(const char *fmt, ...)
{
    StrBuf cmd = STRBUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&cmd, fmt, ap);
    va_end(ap);
    sb_puts(&cmd, " 2>&1; echo \"exit $?\"");
    FILE *p = popen(cmd.s, "r");
    assert_non_null(p);
    char *out = tu_read_stream(p);
    pclose(p);
    sb_free(&cmd);
    return out;
}

/* Issue 8, item 7: seats and files behave as documented.  'as' is not
 * nested whatever blank follows it; a seat may be given by its number
 * (game.h, RECORDS.md); a directory or FIFO is no record (refused at
 * once, with what it is). */
static void test_run_seats_and_files(void **state)
{
    (void)state;
    expect(&(Expect){.args = "run orthodox", .input = "as white as\tblack e4\nas white as black e4\nstatus\n",
                     .status = 1, .out = {"error: 'as' cannot be nested\nerror: 'as' cannot be nested\n",
                     "(0 actions played)"}});
    expect(&(Expect){.args = "run orthodox --json",
                     .input = "as 0 e4\nas 1 e5\nlegal 0\nas 1 view 1\nas 2 e4\n",
                     .status = 1,
                     .out = {"\"seat\":\"white\",\"action\":\"e4\"",
                             "\"seat\":\"black\",\"action\":\"e5\"",
                             "{\"ok\":true,\"cmd\":\"legal\",\"seat\":\"white\"",
                             "{\"ok\":true,\"cmd\":\"as\",\"view\":",
                             "no seat '2'; the seats are: white (0), black (1)"}});
    char dir[] = "/tmp/chessvar-files-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *out = shell("timeout 20 '%s' run --load '%s'", tu_program(), dir);
    assert_contains(out, "is a directory");
    assert_contains(out, "exit 1");
    assert_true(strstr(out, "Input/output") == NULL);
    free(out);
    char fifo[96];
    snprintf(fifo, sizeof fifo, "%s/pipe.rec", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    out = shell("timeout 20 '%s' run --load '%s'", tu_program(), fifo);
    assert_contains(out, "is not a regular file (a FIFO)");
    assert_contains(out, "exit 1\n");
    free(out);
    out = shell("printf 'e4\\nsave %s\\nsave %s\\n' | timeout 20 '%s' run orthodox", fifo, dir,
                tu_program());
    assert_contains(out, "error: ");
    assert_contains(out, "is not a regular file (a FIFO)");
    assert_contains(out, "is a directory");
    assert_contains(out, "exit 1\n");
    free(out);
    unlink(fifo);
    rmdir(dir);
}

/* ---- Commands ----------------------------------------------------------- */

static void test_help_and_list(void **state)
{
    (void)state;
    static const Expect helps[] = {
        {.args = "--help", .out = {"perft", "run"}},
        {.args = "help", .out = {"legal"}},
    };
    expect_all(helps, ARRAY_LEN(helps));

    static const char *const cmds[] = {"play", "perft", "legal", "run", "params",
                                       "list", "menu"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        expect(&(Expect){.args = args, .out = {"usage: chessvar"}});
    }

    expect(&(Expect){.args = "list", .out = {"orthodox", "Orthodox chess"}});
}

/* issue 19 point 6: the command list of --help is one column (the summaries
 * start where the longest name, experiment, leaves room), and --json of
 * experiment and merge says what it does there: the report as JSON, not
 * batch mode's answers to commands. */
static void test_help_columns_and_json_lines(void **state)
{
    (void)state;
    TuRun r;
    tu_run(&r, "--help", NULL);
    assert_int_equal(r.status, 0);
    const char *list = strstr(r.out, "commands:\n");
    assert_non_null(list);
    int col = -1, rows = 0;
    for (const char *l = strchr(list, '\n') + 1; l[0] == ' ' && l[1] == ' ';
         l = strchr(l, '\n') + 1) {
        int name = (int)strcspn(l + 2, " \n"), at = 2 + name;
        at += (int)strspn(l + at, " ");
        if (col >= 0 && at != col)
            fail_msg("the summary of '%.*s' starts at column %d, the others at %d:\n%s",
                     name, l + 2, at, col, r.out);
        col = at;
        rows++;
    }
    assert_true(rows >= 13);
    tu_run_free(&r);
    static const char *const cmds[] = {"experiment", "merge"};
    for (size_t i = 0; i < ARRAY_LEN(cmds); i++) {
        char args[64];
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        tu_run(&r, args, NULL);
        const char *json = strstr(r.out, "\n  --json ");
        assert_non_null(json);
        if (strstr(json, "answer every command") > json &&
            strstr(json, "answer every command") < strchr(json + 1, '\n'))
            fail_msg("%s: --json is described as batch mode's:\n%s", args, r.out);
        assert_non_null(strstr(json, "report as JSON"));
        tu_run_free(&r);
    }
}

static void test_unknown_command_option_variant(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "frobnicate", .status = 2, .out_is = "",
         .err = {"unknown command 'frobnicate'", "perft"}},
        {.args = "run nosuchchess", .status = 2,
         .err = {"unknown variant 'nosuchchess'", "orthodox"}},
        {.args = "legal orthodox --colour red", .status = 2,
         .err = {"unknown option '--colour'", "--fen"}},
        {.args = "perft orthodox", .status = 2, .err = {"--depth"}}, /* no --depth */
        {.args = "perft orthodox --depth x", .status = 2},
        {.args = "play", .status = 2, .err = {"orthodox"}}, /* no variant */
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* ORTH-2..6 through the program: the published start-position counts. */
static void test_perft_and_divide(void **state)
{
    (void)state;
    expect(&(Expect){.args = "perft orthodox --depth 3",
                     .out_is = "Nodes searched: 8902\n"});

    Run r;
    tu_run(&r, "perft orthodox --depth 3 --divide", NULL);
    assert_int_equal(r.status, 0);
    int lines = count_lines(r.out);
    assert_int_equal(lines, 20 + 2); /* 20 root moves, a blank line, the total */
    unsigned long long sum = 0;
    char buf[128];
    for (int i = 0; i < 20; i++) {
        char move[16];
        unsigned long long n;
        line_at(r.out, i, buf, sizeof buf);
        if (sscanf(buf, "%15[a-h1-8qrbn]: %llu", move, &n) != 2)
            fail_msg("not a 'move: count' line: %s", buf);
        assert_true(strlen(move) == 4);
        sum += n;
    }
    assert_int_equal(sum, 8902);
    assert_contains(r.out, "e2e4: 600\n");
    assert_string_equal(line_at(r.out, 20, buf, sizeof buf), "");
    assert_string_equal(line_at(r.out, 21, buf, sizeof buf), "Nodes searched: 8902");
    tu_run_free(&r);

    /* Kiwipete, depth 2: 2039 (chessprogramming wiki), castling and ep. */
    expect(&(Expect){.args = "perft orthodox --depth 2 --fen '" TU_FEN_KIWIPETE "'",
                     .out_is = "Nodes searched: 2039\n"});
}

/* Issue 25: --moves plays actions first, through the game and its house
 * rules (so perft may start inside a schedule's turn); an action refused,
 * or one after the end, stops the command and is named. */
static void test_perft_moves(void **state)
{
    (void)state;
    static const Expect cases[] = {
        /* the same count as from the position the moves reach */
        {.args = "perft orthodox --depth 2 --moves 'e2e4 e7e5 g1f3'",
         .out_is = "Nodes searched: 779\n"},
        {.args = "perft orthodox --depth 2 --fen "
                 "'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'",
         .out_is = "Nodes searched: 779\n"},
        /* from --fen, typed as at the prompt */
        {.args = "perft orthodox --depth 1 --fen '" TU_FEN_KIWIPETE "' --moves 'O-O h3g2'",
         .out_is = "Nodes searched: 48\n"},
        {.args = "perft orthodox --depth 1 --moves '  e4   e5\tNf3 '",
         .out_is = "Nodes searched: 29\n"},
        {.args = "perft orthodox --depth 1 --moves 'e2e4 e2e4'", .status = 2,
         .err_is = "chessvar perft: --moves: action 2 'e2e4' is refused: e2e4: there is no "
                   "piece on e2\n"},
        /* a house rule's veto refuses it as at the prompt */
        {.args = "perft orthodox --depth 1 --rules scripts/no_queen_before_5.lua "
                 "--moves 'e2e4 e7e5 d1h5'", .status = 2,
         .err = {"action 3 'd1h5' is refused", "no queen moves before move 5"}},
        {.args = "legal orthodox --moves 'f2f3 e7e5 g2g4 d8h4 e1f2'", .status = 2,
         .err_is = "chessvar legal: --moves: action 5 'e1f2': the game is over (0-1)\n"},
        {.args = "legal orthodox --moves 'e2e4 e7e5 g1f3'", .lines = 29, .out = {"b8c6\n"}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

static void test_legal_list(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "legal orthodox", .lines = 20, .out = {"g1f3\n", "e2e4\n"},
         .not_out = {"resign"}},
        /* ORTH-4: four promotions per pawn move, in UCI. */
        {.args = "legal orthodox --fen '8/P7/8/8/8/8/8/k6K w - - 0 1'",
         .out = {"a7a8q\n", "a7a8n\n"}, .lines = 4 + 3},
        {.args = "legal orthodox --fen "
                 "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1'",
         .status = 2, .err = {"--fen"}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* Parameters: listed with their rule ids; bad ones refused with the valid
 * choices, before any game starts (ORTH-5, ORTH-9). */
static void test_params(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "params orthodox", .out = {"fivefold", "ORTH-9", "castling"}},
        {.args = "run orthodox --param nosuch=1", .input = "e4\n", .status = 2,
         .err = {"nosuch", "fivefold"}, /* the valid names */
         .out_is = ""},
        {.args = "run orthodox --param fivefold=maybe", .input = "e4\n",
         .status = 2, .err = {"on or off"}},
        {.args = "params orthodox --param castling=sometimes", .status = 2,
         .err = {"castling"}},
        /* ORTH-5 off: no castling from a position where it would be legal. */
        {.args = "legal orthodox --fen '" CASTLES_FEN "'", .out = {"e1g1\n"}},
        {.args = "legal orthodox --param castling=off --fen '" CASTLES_FEN "'",
         .not_out = {"e1g1", "e1c1"}},
        {.args = "run orthodox --json --param fivefold=off", .input = "params\n",
         .out = {"{\"name\":\"fivefold\",\"type\":\"bool\",\"value\":\"off\","
                 "\"default\":\"on\""}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* ---- Batch mode ------------------------------------------------------------ */

/* ORTH-7: Scholar's mate ends the game 1-0 by checkmate. */
static void test_run_scholars_mate_orth7(void **state)
{
    (void)state;
    expect(&(Expect){.args = "run orthodox", .input = SCHOLAR "status\n",
                     .out = {"white: Qxf7# (h5f7)",
                             "game over: 1-0, white wins (checkmate)"}});

    Run r;
    tu_run(&r, "run orthodox --json", SCHOLAR "status\nlegal\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(assert_json_lines(r.out), 9);
    char buf[1024];
    line_at(r.out, 6, buf, sizeof buf);
    assert_contains(buf, "\"action\":\"Qxf7#\"");
    assert_contains(buf, "\"over\":true,\"result\":\"1-0\",\"winners\":[\"white\"],"
                         "\"reason\":\"checkmate\"");
    assert_contains(buf, "\"to_act\":null");
    line_at(r.out, 8, buf, sizeof buf);
    assert_contains(buf, "\"actions\":[]");
    tu_run_free(&r);

    /* After the mate nothing more may be played: an error, exit 1. */
    expect(&(Expect){.args = "run orthodox", .input = SCHOLAR "Ke7\n",
                     .status = 1, .out = {"error: the game is over"},
                     .err = {"1 of 8 commands failed"}});
}

/* An illegal move is refused and leaves the position exactly as it was. */
static void test_run_illegal_move_changes_nothing(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "run orthodox", "e4\nposition\ne4\nKe3\nposition\nhistory\n");
    assert_int_equal(r.status, 1);
    char before[256], after[256];
    /* e4 answers 3 lines; then position; then two errors; position */
    const char *p = strstr(r.out, "rnbqkbnr/");
    assert_non_null(p);
    line_at(p, 0, before, sizeof before);
    const char *q = strstr(p + 1, "rnbqkbnr/");
    assert_non_null(q);
    line_at(q, 0, after, sizeof after);
    assert_string_equal(before, after);
    assert_string_equal(before,
                        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    assert_int_equal(count_str(r.out, "error: "), 2);
    assert_contains(r.out, "\ne4\n"); /* history: one action */
    tu_run_free(&r);

    tu_run(&r, "run orthodox --json", "e2e5\nposition\n");
    assert_int_equal(r.status, 1);
    assert_int_equal(assert_json_lines(r.out), 2);
    assert_contains(r.out, "{\"ok\":false,\"cmd\":\"play\",\"error\":\"");
    assert_contains(r.out, "\"position\":\"" TU_FEN_START "\"");
    tu_run_free(&r);
}

static void test_run_json_one_object_per_command(void **state)
{
    (void)state;
    Run r;
    const char *in = "# a comment, then a blank line\n\n"
                     "help\nlegal\nlegal black\nview\nview black\nstatus\n"
                     "e4\n  e5  \nNf3\nposition\nhistory\nparams\nundo\nundo 99\n"
                     "as nobody e5\nas black\nsave\nxyzzy \"quoted\"\\\n\xff\xfe\n"
                     "quit\nlegal\n";
    tu_run(&r, "run orthodox --json", in);
    /* failing: undo 99, as nobody, as black, save, xyzzy, the bad bytes */
    assert_int_equal(r.status, 1);
    assert_int_equal(assert_json_lines(r.out), 20); /* stops at quit */
    assert_int_equal(count_str(r.out, "{\"ok\":false"), 6);
    assert_contains(r.out, "not valid UTF-8");
    assert_contains(r.out, "{\"ok\":true,\"cmd\":\"quit\"}");
    assert_contains(r.out, "no seat 'nobody'; the seats are: white (0), black (1)");
    assert_contains(r.out, "\"view\":{\"seat\":\"black\"");
    assert_int_equal(count_str(r.out, "\"square\":"), 2 * 32);
    assert_contains(r.out, "\"history\":[{\"seat\":\"white\",\"kind\":\"move\","
                           "\"text\":\"e4\",\"machine\":\"e2e4\"}");
    assert_contains(r.out, "\"undone\":1");
    tu_run_free(&r);
}

static void test_run_undo(void **state)
{
    (void)state;
    expect(&(Expect){.args = "run orthodox", .input = "e4\ne5\nundo 2\nposition\n",
                     .out = {TU_FEN_START "\n"}});
}

/* ORTH-8: resignation by the seat not to move, via "as". */
static void test_run_resign_orth8(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "run orthodox --json", "e4\nas black resign\nstatus\n");
    assert_int_equal(r.status, 0);
    assert_int_equal(assert_json_lines(r.out), 3);
    assert_contains(r.out, "\"result\":\"1-0\",\"winners\":[\"white\"],"
                           "\"reason\":\"black resigned\"");
    tu_run_free(&r);

    expect(&(Expect){.args = "run orthodox", .input = "as white resign\n",
                     .out = {"game over: 0-1, black wins (white resigned)"}});
}

/* Batch answers speak to one asking seat: `as SEAT COMMAND` asks on its
 * behalf (history, legal, view), and nesting is refused. */
static void test_run_as_seat_asks_commands(void **state)
{
    (void)state;
    Expect cases[] = {
        {.args = "run orthodox --json", .input = "e4\nas white legal\n",
         .out = {"\"cmd\":\"as\",\"seat\":\"white\",\"actions\":[]"}},
        {.args = "run orthodox --json", .input = "e4\nas black history\n",
         .out = {"\"cmd\":\"as\",\"asker\":\"black\",\"history\":[{\"seat\":\"white\","
                 "\"kind\":\"move\",\"text\":\"e4\",\"machine\":\"e2e4\"}]"}},
        {.args = "run orthodox --ascii", .input = "e4\nas white view\n",
         .out = {"1  R  N  B  Q  K  B  N  R  1"}},
        {.args = "run orthodox", .input = "as white as black resign\n", .status = 1,
         .out = {"error: 'as' cannot be nested"}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* MASQ-1, MASQ-12: batch answers never show a seat the enemy's hidden
 * arrangement: the history reads "white arranges a piece", the full
 * position is refused, the enemy's private messages are not listed. */
static void test_run_masques_answers_hide_setup(void **state)
{
    (void)state;
    static char buf[1 << 16];
    Run r;
    tu_run(&r, "run masques --json",
        "arrange QNBRKBNR/PPPPPPPP\nas black history\nposition\n"
        "as black view\nstandard\n");
    assert_int_equal(r.status, 1); /* position was refused */
    assert_int_equal(assert_json_lines(r.out), 5);
    const char *own = line_at(r.out, 0, buf, sizeof buf);
    assert_contains(own, "arrange Q a1"); /* white reads its own setup */
    const char *hist = line_at(r.out, 1, buf, sizeof buf);
    assert_contains(hist, "\"asker\":\"black\"");
    assert_contains(hist, "white arranges a piece");
    assert_null(strstr(hist, "place "));
    const char *pos = line_at(r.out, 2, buf, sizeof buf);
    assert_contains(pos, "\"ok\":false");
    assert_contains(pos, "hidden from black");
    const char *view = line_at(r.out, 3, buf, sizeof buf);
    assert_null(strstr(view, "\"figure\":\"queen\""));
    assert_null(strstr(view, "you arrange"));
    const char *blk = line_at(r.out, 4, buf, sizeof buf);
    assert_contains(blk, "you arrange your pieces in the standard order");
    assert_null(strstr(blk, "white: you")); /* white's own lines stay white's */
    tu_run_free(&r);
}

#define MASQ_START "r~n~b~q~k~b~n~r~/p~p~p~p~p~p~p~p~/8/8/8/8/P~P~P~P~P~P~P~P~/" \
                   "R~N~B~Q~K~B~N~R~ w KQkq - 0 1"

/* Line i of out must be a refusal (ok:false) holding `want`. */
static void assert_refusal(const char *out, int i, const char *want)
{
    static char buf[1 << 16];
    const char *l = line_at(out, i, buf, sizeof buf);
    assert_contains(l, "\"ok\":false");
    assert_contains(l, want);
}

/* MASQ-12 at the command layer: no seat gets another seat's view or legal
 * list while a Masqués game is on, asked bare (the asker is the seat to
 * act) or with `as`; the refusal names no hidden fact.  Its own are
 * answered.  Once the game is over (MASQ-16, issue 19 point 2), another
 * seat's view still needs that seat's `show`. */
static void test_run_masq12_private_answers_refused(void **state)
{
    (void)state;
    static char buf[1 << 16];
    Run r;
    tu_run(&r, "run masques --json --fen '" MASQ_START "'",
        "e2e4\nview white\nlegal white\nas white view black\nas white legal black\n"
        "as black view\nas black view black\nas black legal black\nas white view\n"
        "as black resign\nas white view black\nas black show\nas white view black\n");
    assert_int_equal(r.status, 1);
    assert_int_equal(assert_json_lines(r.out), 13);
    assert_refusal(r.out, 1, "white's view is private to white while the game is on");
    assert_refusal(r.out, 2, "white's legal is private to white");
    assert_refusal(r.out, 3, "black's view is private to black");
    assert_refusal(r.out, 4, "black's legal is private to black");
    for (int i = 5; i <= 8; i++)
        assert_contains(line_at(r.out, i, buf, sizeof buf), "{\"ok\":true");
    /* Black's own view names its own figures, never White's masked ones. */
    const char *own = line_at(r.out, 5, buf, sizeof buf);
    assert_contains(own, "\"side\":\"black\",\"figure\":\"king\"");
    assert_null(strstr(own, "\"side\":\"white\",\"figure\":\"king\""));
    /* After the end, another seat's view is open once that seat showed. */
    assert_refusal(r.out, 10, "the game is over but black has not shown its pieces");
    assert_contains(line_at(r.out, 12, buf, sizeof buf), "{\"ok\":true,\"cmd\":\"as\"");
    assert_contains(line_at(r.out, 12, buf, sizeof buf), "\"side\":\"black\",\"figure\":\"king\"");
    tu_run_free(&r);
}

/* MASQ-12, docs/RECORDS.md: the record of a Masqués game in progress holds
 * every seat's secrets, so it is written only once every seat has asked
 * for the same file since the last action; an action in between cancels
 * the agreement.  The file says what it holds. */
static void test_run_masq12_save_needs_every_seat(void **state)
{
    (void)state;
    static char buf[1 << 16];
    char dir[64] = "/tmp/chessvar_test_consent_XXXXXX", in[1024], path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(in, sizeof in,
             "e2e4\nas black save %s/a.rec\nas white save %s/b.rec\n"
             "as white save %s/a.rec\nas black save %s/c.rec\ne7e5\n"
             "as white save %s/c.rec\n",
             dir, dir, dir, dir, dir);
    Run r;
    tu_run(&r, "run masques --json --fen '" MASQ_START "'", in);
    assert_int_equal(r.status, 0);
    const char *first = line_at(r.out, 1, buf, sizeof buf);
    assert_contains(first, "\"saved\":false,\"agreed\":[\"black\"],\"waiting\":[\"white\"]");
    snprintf(path, sizeof path, "%s/a.rec", dir);
    /* another file starts a new agreement: b.rec waits for black */
    assert_contains(line_at(r.out, 2, buf, sizeof buf), "\"saved\":false");
    assert_contains(line_at(r.out, 3, buf, sizeof buf), "\"saved\":false");
    tu_run_free(&r);
    assert_int_not_equal(access(path, F_OK), 0);

    snprintf(in, sizeof in,
             "e2e4\nas black save %s/a.rec\nas white save %s/a.rec\n"
             "as black save %s/c.rec\ne7e5\nas white save %s/c.rec\n",
             dir, dir, dir, dir);
    tu_run(&r, "run masques --fen '" MASQ_START "'", in);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "black agrees to save to");
    assert_contains(r.out, "waiting for white");
    assert_contains(r.out, "(it holds every seat's hidden facts: keep it closed");
    tu_run_free(&r);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char head[128] = "";
    assert_non_null(fgets(head, sizeof head, f));
    fclose(f);
    assert_contains(head, "# A game in progress with hidden facts");
    /* c.rec: black agreed, then black played: white's save alone waits */
    snprintf(path, sizeof path, "%s/c.rec", dir);
    assert_int_not_equal(access(path, F_OK), 0);
    /* the agreed record resumes the game */
    char args[160];
    snprintf(args, sizeof args, "run --load %s/a.rec", dir);
    expect(&(Expect){.args = args, .input = "as black history\n", .out = {"e2e4"}});
    snprintf(path, sizeof path, "%s/a.rec", dir);
    unlink(path);
    rmdir(dir);
}

/* MASQ-12, docs/MASQUES.md "Taking back": in batch mode undo is the asking
 * seat's: its own latest actions only. */
static void test_run_masq12_undo_own_actions_only(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "run masques --json --fen '" MASQ_START "'",
        "e2e4\ne7e5\nas white undo\nundo\nas black undo\nhistory\n");
    assert_int_equal(r.status, 1);
    assert_refusal(r.out, 2, "white may take back only its own actions, and black acted "
                             "after them");
    /* bare undo: the asker is the seat to act, white, again refused */
    assert_refusal(r.out, 3, "white may take back only its own actions");
    static char buf[1 << 16];
    assert_contains(line_at(r.out, 4, buf, sizeof buf), "\"undone\":1");
    assert_contains(line_at(r.out, 5, buf, sizeof buf), "\"history\":[{\"seat\":\"white\"");
    assert_null(strstr(line_at(r.out, 5, buf, sizeof buf), "e7e5"));
    tu_run_free(&r);
}

/* MASQ-16, MASQ-12: after the end masked pieces stay masked unless their
 * owner shows them; `show` is refused while the game is on, twice, or
 * where nothing is hidden; a saved record keeps who showed. */
static void test_run_masq16_show_after_the_end(void **state)
{
    (void)state;
    static char buf[1 << 16];
    char path[64], in[512];
    temp_path(path, sizeof path, "show");
    snprintf(in, sizeof in, "e2e4\nas white show\nas black resign\nas black view\n"
                            "as white show\nas white show\nas black view\nsave %s\n"
                            "as black save %s\n", path, path);
    Run r;
    tu_run(&r, "run masques --json --fen '" MASQ_START "'", in);
    assert_int_equal(r.status, 1);
    assert_refusal(r.out, 1, "the game is not over");
    const char *before = line_at(r.out, 3, buf, sizeof buf);
    assert_contains(before, "\"side\":\"white\",\"figure\":\"hidden\"");
    assert_null(strstr(before, "\"side\":\"white\",\"figure\":\"king\""));
    assert_contains(before, "unless their owner shows them");
    assert_contains(line_at(r.out, 4, buf, sizeof buf), "white shows its pieces");
    assert_refusal(r.out, 5, "white has shown its pieces already");
    const char *after = line_at(r.out, 6, buf, sizeof buf);
    assert_contains(after, "\"square\":\"e1\",\"x\":4,\"y\":0,\"side\":\"white\","
                           "\"figure\":\"king\",\"letter\":\"K\",\"flags\":[\"masked\"]");
    assert_contains(after, "white has shown its pieces; black's masked pieces stay masked");
    /* issue 19 point 2: the record holds Black's unshown figures, so the
     * bare save (White's) waits for Black's */
    assert_contains(line_at(r.out, 7, buf, sizeof buf),
                    "\"saved\":false,\"agreed\":[\"white\"],\"waiting\":[\"black\"]");
    assert_contains(line_at(r.out, 8, buf, sizeof buf), "\"saved\":true");
    tu_run_free(&r);
    /* the record keeps it: loaded, black still sees White's figures, and
     * White still does not see Black's */
    char args[128];
    snprintf(args, sizeof args, "run --load %s --json", path);
    tu_run(&r, args, "as black view\nas white view\n");
    assert_int_equal(r.status, 0);
    assert_contains(line_at(r.out, 0, buf, sizeof buf),
                    "\"side\":\"white\",\"figure\":\"king\"");
    assert_null(strstr(line_at(r.out, 1, buf, sizeof buf),
                       "\"side\":\"black\",\"figure\":\"king\""));
    tu_run_free(&r);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char *text = tu_read_stream(f);
    fclose(f);
    assert_contains(text, "[Shown \"white\"]");
    assert_contains(text, "# A finished game with hidden facts: this record holds what "
                          "black\n# kept hidden after the end");
    free(text);
    unlink(path);
    expect(&(Expect){.args = "run orthodox", .input = "resign\nshow\n", .status = 1,
                     .out = {"error: nothing is hidden in orthodox"}});
}

/* MASQ-12, MASQ-16 in the terminal: the end of a Masqués game is shown as
 * every seat may know it (no seat's own figures), and each owner is asked
 * whether it shows its pieces. */
static void test_play_masq16_end_is_public(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "play masques --ascii --fen '" MASQ_START "'",
        "e2e4\nresign\nyes\nshow\nno\nyes\nquit\n");
    assert_non_null(strstr(r.out, "game over: 1-0, white wins (black resigned)"));
    const char *end = strstr(r.out, "black: resign the game? (yes/no)> yes");
    assert_non_null(end);
    const char *asked = strstr(end, "white: show your masked pieces to everyone? (yes/no)> no");
    assert_non_null(asked);
    /* between the end and the question: masked pieces of both sides as X/x */
    char *board = strndup(end, (size_t)(asked - end));
    assert_null(strstr(board, "p~"));
    assert_null(strstr(board, "P~"));
    assert_contains(board, "8  x  x  x  x  x  x  x  x  8");
    free(board);
    assert_contains(asked, "black: show your masked pieces to everyone? (yes/no)> yes");
    assert_contains(asked, "black has shown its pieces");
    assert_contains(asked, "r~  n~  b~  q~  k~");
    tu_run_free(&r);
}

/* Issue 8, item 5: a path too long to be a file name is refused with the
 * system's reason, which a long path must not push out of the message. */
static void test_run_save_long_name_says_why(void **state)
{
    (void)state;
    char in[1300] = "as white save /tmp/";
    size_t n = strlen(in);
    memset(in + n, 'a', 1100);
    strcpy(in + n + 1100, "\n");
    expect(&(Expect){.args = "run orthodox", .input = in, .status = 1,
                     .out = {"...: cannot write: File name too long (nothing was written)"}});
}

/* ORTH-8: draw by agreement; a declined offer lets the game go on. */
static void test_run_draw_offer_orth8(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "run orthodox",
         .input = "draw\nstatus\nas white accept\nas black accept\nstatus\n",
         .status = 1, /* white cannot accept its own offer */
         .out = {"white offers a draw",
                 "game over: 1/2-1/2, draw (draw by agreement)"}},
        {.args = "run orthodox", .input = "draw\nas black decline\nstatus\ne4\n",
         .out = {"black declines the draw", "white: e4 (e2e4)"}},
        {.args = "run orthodox", .input = "accept\n", .status = 1,
         .out = {"error: there is no draw offer to accept"}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* ORTH-9: threefold repetition is claimed by the player to move. */
static void test_run_claim_threefold_orth9(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "run orthodox", .input = "Nf3\nNf6\nNg1\nNg8\nclaim\n",
         .status = 1}, /* only twice so far */
        {.args = "run orthodox",
         .input = "Nf3\nNf6\nNg1\nNg8\nNf3\nNf6\nNg1\nNg8\nclaim\n",
         .out = {"game over: 1/2-1/2, draw (threefold repetition"}},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

static void test_run_view_text_orientation(void **state)
{
    (void)state;
    Run r;
    char buf[256];
    tu_run(&r, "run orthodox --ascii", "view white\n");
    assert_int_equal(r.status, 0);
    assert_string_equal(line_at(r.out, 0, buf, sizeof buf), "   a  b  c  d  e  f  g  h");
    assert_string_equal(line_at(r.out, 1, buf, sizeof buf),
                        "8  r  n  b  q  k  b  n  r  8");
    assert_string_equal(line_at(r.out, 8, buf, sizeof buf),
                        "1  R  N  B  Q  K  B  N  R  1");
    tu_run_free(&r);

    /* Black sees the board turned: rank 1 on top, h on the left; the last
     * move (e2e4) bracketed. */
    tu_run(&r, "run orthodox --ascii", "e4\nview black\n");
    assert_int_equal(r.status, 0);
    const char *v = strstr(r.out, "   h  g");
    assert_non_null(v);
    assert_string_equal(line_at(v, 1, buf, sizeof buf), "1  R  N  B  K  Q  B  N  R  1");
    assert_string_equal(line_at(v, 2, buf, sizeof buf), "2  P  P  P [.] P  P  P  P  2");
    assert_string_equal(line_at(v, 4, buf, sizeof buf), "4  .  .  . [P] .  .  .  .  4");
    assert_contains(v, "last move: e4\nblack to move\n");
    tu_run_free(&r);

    tu_run(&r, "run orthodox", "view\n");
    assert_contains(r.out, "\u265C");  /* Unicode by default */
    assert_true(strchr(r.out, '\x1b') == NULL); /* no colours into a pipe */
    tu_run_free(&r);
}

/* A saved record loads back to the same game: position and history. */
static void test_save_and_load(void **state)
{
    (void)state;
    char path[64], in[512];
    temp_path(path, sizeof path, "rec");
    Run r, l;
    snprintf(in, sizeof in, "e4\nc5\nNf3\nd6\nd4\ncxd4\nsave %s\nposition\nhistory\n", path);
    tu_run(&r, "run orthodox --param fivefold=off --seed 7", in);
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "saved to");

    char args[256];
    snprintf(args, sizeof args, "run orthodox --load %s", path);
    tu_run(&l, args, "position\nhistory\nparams\n");
    assert_int_equal(l.status, 0);
    const char *fen = "rnbqkbnr/pp2pppp/3p4/8/3pP3/5N2/PPP2PPP/RNBQKB1R w KQkq - 0 4";
    assert_contains(r.out, fen);
    assert_contains(l.out, fen);
    assert_contains(l.out, "e4 c5 Nf3 d6 d4 cxd4\n");
    assert_contains(l.out, "now off"); /* the parameter came back too */
    tu_run_free(&l);

    /* The record names its variant and takes no new start options. */
    snprintf(args, sizeof args, "run orthodox --load %s --fen '%s'", path, TU_FEN_START);
    expect(&(Expect){.args = args, .input = "position\n", .status = 2,
                     .err = {"--load"}});

    /* play --load resumes the game in the terminal. */
    snprintf(args, sizeof args, "play --load %s --ascii", path);
    expect(&(Expect){.args = args, .input = "Nxd4\nquit\n",
                     .out = {"loaded", "white plays Nxd4"}});

    tu_run(&l, "run orthodox --load /nonexistent/chessvar.rec", "");
    assert_int_not_equal(l.status, 0);
    assert_contains(l.err, "/nonexistent/chessvar.rec");
    tu_run_free(&l);
    tu_run_free(&r);
    unlink(path);
}

/* ---- The terminal game, driven through a pipe --------------------------- */

/* ORTH-7 in the hot-seat game: moves typed at the prompt, mate, result. */
static void test_play_piped_to_mate_orth7(void **state)
{
    (void)state;
    expect(&(Expect){
        .args = "play orthodox --ascii",
        .input = "e4\nhelp\nlegal\nnonsense\ne5\nBc4\nNc6\nQh5\nNf6\nQxf7#\n\n",
        .out = {"white> e4\n",
                "black> ",
                "resign",                 /* help lists the commands */
                "black: 20 moves",        /* legal */
                "error: 'nonsense'",      /* a typo: a message ... */
                "'help' for the commands",
                "game over: 1-0, white wins (checkmate)",
                "The game is over. Type save FILE"},
        .not_out = {"\x1b"},
        .err_is = ""});
}

static void test_play_commands(void **state)
{
    (void)state;
    char path[64], in[512];
    temp_path(path, sizeof path, "play");
    snprintf(in, sizeof in, "e4\nundo\nd4\nposition\nparams\ndraw\nNf6\naccept\n"
                            "save %s\nquit\n", path);
    expect(&(Expect){
        .args = "play orthodox --ascii", .input = in,
        .out = {"took back 1 action",
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 1",
                "fivefold", "game over: 1/2-1/2, draw (draw by agreement)",
                "saved to"}});

    char args[128];
    snprintf(args, sizeof args, "run orthodox --load %s", path);
    expect(&(Expect){.args = args, .input = "status\nhistory\n",
                     .out = {"draw by agreement", "d4 draw Nf6 accept"}});
    unlink(path);

    /* End of input leaves the game quietly. */
    expect(&(Expect){.args = "play orthodox", .input = "e4\n"});
}

/* The end of a game is a prompt of its own: nothing typed there is taken
 * for a file name (a move, `resign`, `undo` once saved files of that
 * name), only `save FILE` saves. */
static void test_play_after_the_end_never_a_file_name(void **state)
{
    (void)state;
    char dir[64] = "/tmp/chessvar_test_end_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char args[160], in[256], path[128];
    snprintf(args, sizeof args, "play orthodox --ascii");
    snprintf(in, sizeof in, "f3\ne5\ng4\nQh4#\ne4\nresign\nundo 2\nQh4\n"
                            "save %s/mate.rec\nquit\n", dir);
    expect(&(Expect){.args = args, .input = in,
                     .out = {"game over: 0-1, black wins (checkmate)",
                             "The game is over. Type save FILE",
                             "took back 2 actions", "saved to"}});
    /* undo 2 after the end (orthodox has no hidden facts) took the game
     * back into play; Qh4 mated again, and only mate.rec was written. */
    snprintf(path, sizeof path, "%s/mate.rec", dir);
    assert_int_equal(access(path, F_OK), 0);
    static const char *const NOT_FILES[] = {"e4", "resign", "undo", "undo 2", "Qh4"};
    for (size_t i = 0; i < ARRAY_LEN(NOT_FILES); i++) {
        snprintf(path, sizeof path, "%s/%s", dir, NOT_FILES[i]);
        assert_int_not_equal(access(path, F_OK), 0);
        assert_int_not_equal(access(NOT_FILES[i], F_OK), 0);
    }
    snprintf(path, sizeof path, "%s/mate.rec", dir);
    unlink(path);
    rmdir(dir);
}

/* ORTH-8 in the hot-seat game: resign and quit ask first; quit offers to
 * save; a draw offer is answered by the other seat only, at its turn. */
static void test_play_resign_quit_draw_orth8(void **state)
{
    (void)state;
    expect(&(Expect){.args = "play orthodox --ascii", .input = "e4\nresign\nno\nresign\nyes\n",
                     .out = {"white> e4", "black: resign the game? (yes/no)> no",
                             "not resigned: the game goes on",
                             "game over: 1-0, white wins (black resigned)"}});
    expect(&(Expect){.args = "play orthodox --ascii",
                     .input = "e4\ndraw\naccept\ne5\nquit\nno\naccept\n",
                     .out = {"you offered the draw: the other side answers it at its turn",
                             "black offers a draw: type accept or decline",
                             "The game is not over. Leave it? (yes/no)> no",
                             "the game goes on", "white accepts the draw",
                             "game over: 1/2-1/2, draw (draw by agreement)"},
                     .not_out = {"black accepts"}});
    char path[64], in[256];
    temp_path(path, sizeof path, "quit");
    snprintf(in, sizeof in, "e4\nquit\nyes\n%s\n", path);
    expect(&(Expect){.args = "play orthodox --ascii", .input = in,
                     .out = {"File name to save it to (Enter: leave without saving)> ",
                             "saved to"}});
    char args[128];
    snprintf(args, sizeof args, "run --load %s", path);
    expect(&(Expect){.args = args, .input = "history\n", .out = {"e4\n"}});
    unlink(path);
    /* quit, yes, Enter: leaves without a file */
    expect(&(Expect){.args = "play orthodox --ascii", .input = "e4\nquit\nyes\n\n",
                     .not_out = {"saved to"}});
}

/* issue 19 point 6: against a bot, undo takes back to the person's last
 * move (the bot's reply with it), so the person is to act at the position
 * before that move; taking back the reply alone, the bot played it again at
 * once.  undo N: the person's last N moves.  Nothing of the person's to
 * take back, or bots on every seat: a message, and nothing changes. */
static void test_play_undo_against_a_bot(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "play orthodox --ascii --seed 1 --bot black=greedy",
           "undo\ne4\nundo\nposition\nd4\nNf3\nundo 2\nposition\nundo 2\nposition\n"
           "quit\nyes\n\n");
    assert_int_equal(r.status, 0);
    assert_contains(r.out, "white> undo\nerror: nothing to take back: no move of yours "
                           "has been played yet\n");
    /* e4, the bot's reply, undo: White to move at the start */
    const char *u = strstr(r.out, "white> undo\ntook back 2 actions\n");
    assert_non_null(u);
    assert_non_null(strstr(u, "white> position\n" TU_FEN_START "\n"));
    /* the bot played once after e4, not again after the undo */
    const char *p2 = strstr(u, "white> position");
    for (const char *b = u; (b = strstr(b, "(greedy bot)")) && b < p2; b++)
        fail_msg("the bot moved again after the undo:\n%s", r.out);
    /* d4, reply, Nf3, reply, undo 2: the start again */
    u = strstr(p2 + 1, "white> undo 2\ntook back 4 actions\n");
    assert_non_null(u);
    assert_non_null(strstr(u, "white> position\n" TU_FEN_START "\n"));
    assert_contains(u, "white> undo 2\nerror: nothing to take back");
    tu_run_free(&r);
    /* bots on every seat: the game is played out; undo at the end says why not */
    expect(&(Expect){.args = "play orthodox --ascii --seed 1 --bot white=random --bot "
                             "black=random --fen '6k1/8/8/8/8/8/5PPP/3r2K1 w - - 0 1'",
                     .input = "undo\nquit\n",
                     .out = {"game over> undo\nerror: bots play every seat: there is no "
                             "move of a person to take back"}});
}

/* issue 19 point 6: the example in Tile's placement question is a
 * placement the game accepts: typed as it stands, first (0,0) and next. */
static void test_play_tile_question_example_accepted(void **state)
{
    (void)state;
    char in[64] = "";
    for (int step = 0; step < 3; step++) {
        Run r;
        tu_run(&r, "play tile --ascii --seed 1", in);
        /* the last question asked, and its example */
        const char *q = NULL;
        for (const char *h = r.out; (h = strstr(h, "question: ")); h++)
            q = h;
        assert_non_null(q);
        const char *open = strstr(q, "place a piece ("), *close = open ? strchr(open, ')') : NULL;
        if (!open || !close)
            fail_msg("no example in the question:\n%s", r.out);
        open += strlen("place a piece (");
        if (step == 0)
            assert_int_equal(strncmp(open, "Q@0,0)", 6), 0);
        assert_null(strstr(r.out, "error:"));
        size_t len = strlen(in);
        snprintf(in + len, sizeof in - len, "%.*s\n", (int)(close - open), open);
        tu_run_free(&r);
    }
    /* a line that is no action names the same accepted example */
    expect(&(Expect){.args = "play tile --ascii --seed 1", .input = "hello\n",
                     .out = {"error: hello: not an action here; place a piece: figure @ "
                             "square (Q@0,0)"}});
}

/* A finished game loaded with play --load is stepped through; a game
 * ended in the terminal can be reviewed, played again, or left for the
 * menu. */
static void test_play_review_again_menu(void **state)
{
    (void)state;
    char path[64], in[256], args[128];
    temp_path(path, sizeof path, "review");
    snprintf(in, sizeof in, "f3\ne5\ng4\nQh4#\nsave %s\nquit\n", path);
    expect(&(Expect){.args = "play orthodox --ascii", .input = in, .out = {"saved to"}});
    snprintf(args, sizeof args, "play --load %s --ascii", path);
    expect(&(Expect){.args = args, .input = "back\nback\ngo 1\nstart\nnext\ngo 9\ndone\nquit\n",
                     .out = {"loaded", "a finished game of 4 actions",
                             "after 4 of 4 actions (4. black: Qh4#)",
                             "after 2 of 4 actions (2. black: e5)",
                             "after 1 of 4 actions (1. white: f3)",
                             "after 0 of 4 actions",
                             "go takes an action number from 0 to 4",
                             "The game is over."}});
    /* The board at a ply: after 1. f3 the f-pawn stands on f3. */
    Run r;
    tu_run(&r, args, "start\nnext\ndone\nquit\n");
    assert_contains(r.out, "3  .  .  .  .  .  P  .  .  3");
    tu_run_free(&r);
    /* again: a new game of the same variant; menu: back to the variants */
    expect(&(Expect){.args = "play orthodox --ascii",
                     .input = "f3\ne5\ng4\nQh4#\nagain\ne4\nresign\nyes\nmenu\nq\n",
                     .out = {"white> e4", "game over: 1-0, white wins (black resigned)",
                             "chessvar: choose a variant"}});
    expect(&(Expect){.args = "", .input = "1\n\n\nf3\ne5\ng4\nQh4#\nmenu\n2\n\n\nquit\n",
                     .out = {"game over: 0-1", "variant> 2", "Les"}});
    unlink(path);
}

/* --bottom keeps one side at the bottom whoever is to act; `bottom` in the
 * game changes it; auto returns to the seat's own side. */
static void test_play_bottom_side(void **state)
{
    (void)state;
    Run r;
    tu_run(&r, "play orthodox --ascii --bottom white", "e4\nbottom black\nbottom auto\n"
                                                    "bottom red\n");
    /* Black to act, White kept at the bottom: rank 8 on top. */
    const char *black_turn = strstr(r.out, "black> bottom black");
    assert_non_null(black_turn);
    const char *before = strstr(r.out, "white> e4");
    assert_non_null(before);
    char first_row[64];
    const char *board = strstr(before, "\n   a  b");
    assert_non_null(board);
    assert_true(board < black_turn);
    line_at(board + 1, 1, first_row, sizeof first_row);
    assert_string_equal(first_row, "8  r  n  b  q  k  b  n  r  8");
    /* bottom black then auto: both show Black's side at the bottom */
    assert_int_equal(count_str(black_turn, "   h  g  f  e  d  c  b  a"), 4);
    assert_contains(r.out, "no side 'red'; the sides are: white, black (or auto)");
    tu_run_free(&r);
    expect(&(Expect){.args = "play orthodox --bottom red", .status = 2,
                     .err = {"no side 'red'"}});
}

/* `chessvar --version`, and `chessvar rules` with parameter values. */
static void test_version_and_rules(void **state)
{
    (void)state;
    expect(&(Expect){.args = "--version", .out_is = "chessvar " CHESSVAR_VERSION "\n"});
    expect(&(Expect){.args = "rules nosuch", .status = 2, .err = {"unknown variant"}});
    expect(&(Expect){.args = "rules orthodox --param nosuch=1", .status = 2,
                     .err = {"nosuch"}});
}

static void test_menu_piped(void **state)
{
    (void)state;
    static const Expect cases[] = {
        {.args = "", .input = "9\nnosuch\n1\n\n\ne4\nquit\n",
         .out = {"choose a variant", "1  orthodox", "no variant '9'",
                 "no variant 'nosuch'", "white plays e4"}},
        {.args = "menu --ascii", .input = "orthodox\n\n\nquit\n",
         .out = {"R  N  B  Q  K  B  N  R"}},
        {.args = "", .input = "q\n"},
    };
    expect_all(cases, ARRAY_LEN(cases));
}

/* ---- Renderers on hand-made views ------------------------------------------ */

/* Names for count (at most 3) sides, one seat each: white, black, red. */
static RenderNames names_of(int count)
{
    static const char *const colours[] = {"white", "black", "red"};
    RenderNames n;
    memset(&n, 0, sizeof n);
    n.nsides = n.nseats = count;
    for (int i = 0; i < count; i++)
        n.side[i] = n.seat[i] = colours[i];
    return n;
}

/* An empty View (free it) of seat, whose turn it is, with nsides sides on
 * a width x height board, or on the unbounded plane when width is 0. */
static View *hand_view(int seat, int nsides, int width, int height)
{
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    v->seat = seat;
    v->nsides = nsides;
    v->geo.bounded = width > 0;
    v->geo.width = width;
    v->geo.height = height;
    v->side_to_move = seat;
    v->seat_to_act = seat;
    return v;
}

static void add_piece(View *v, int x, int y, int side, int fig, int flags)
{
    ViewPiece *p = &v->pieces[v->npieces++];
    p->at = coord_make(x, y);
    p->side = (int8_t)side;
    p->figure = (uint8_t)fig;
    p->flags = (uint8_t)flags;
}

/* The unbounded plane: bounding box plus a margin of one, x,y labels,
 * y upwards, side numbers with three sides, '?' for a hidden figure. */
static void test_render_unbounded_three_sides(void **state)
{
    (void)state;
    View *v = hand_view(2, 3, 0, 0);
    add_piece(v, 0, 0, 0, FIG_KING, 0);
    add_piece(v, 1, 1, 1, FIG_HIDDEN, VP_MASKED);
    add_piece(v, -1, 0, 2, FIG_QUEEN, VP_TRAPPED);
    v->has_last = 1;
    v->last_from = coord_make(1, 0);
    v->last_to = coord_make(1, 1);
    RenderNames n = names_of(3);
    RenderOpts o = {.ascii = 1};
    StrBuf b = STRBUF_INIT;
    render_board(v, &o, &b);
    const char *expect =
        "    -2   -1   0    1    2\n"
        " 2  .    .    .    .    .    2\n"
        " 1  .    .    .   [?2]  .    1\n"
        " 0  .    Q3#  K1  [.]   .    0\n"
        "-1  .    .    .    .    .    -1\n"
        "    -2   -1   0    1    2\n";
    assert_string_equal(sb_str(&b), expect);
    sb_reset(&b);
    render_view_json(v, &n, NULL, 0, &b);
    assert_true(json_object_line(sb_str(&b)));
    assert_contains(sb_str(&b), "\"geometry\":{\"bounded\":false}");
    assert_contains(sb_str(&b), "{\"square\":\"1,1\",\"x\":1,\"y\":1,\"side\":\"black\","
                                "\"figure\":\"hidden\",\"letter\":\"?\",\"flags\":[\"masked\"]}");
    assert_contains(sb_str(&b), "\"flags\":[\"trapped\"]");
    assert_contains(sb_str(&b), "\"last_move\":{\"text\":null,\"from\":\"1,0\",\"to\":\"1,1\"}");
    assert_contains(sb_str(&b), "\"position\":null");
    sb_reset(&b);
    render_status_line(v, &n, &b);
    assert_string_equal(sb_str(&b), "red to move");
    sb_free(&b);
    free(v);
}

/* Two sides: Unicode figures, ○/● for hidden figures, ~ for a still-masked
 * piece its owner knows, * for a merged piece; status in check. */
static void test_render_two_sides_marks(void **state)
{
    (void)state;
    View *v = hand_view(0, 2, 3, 2);
    v->status.in_check = 1;
    add_piece(v, 0, 0, 0, FIG_KING, 0);
    add_piece(v, 1, 0, 0, FIG_QUEEN, VP_MASKED);
    add_piece(v, 2, 1, 1, FIG_HIDDEN, VP_MASKED);
    add_piece(v, 0, 1, -1, FIG_ROOK, VP_MERGED);
    v->pieces[3].side2 = 1;
    RenderNames n = names_of(2);
    RenderOpts o = {.ascii = 0};
    StrBuf b = STRBUF_INIT;
    render_view_text(v, &n, &o, &b);
    const char *expect =
        "   a   b   c\n"
        "2  R*  \u00B7   \u25CF   2\n"
        "1  \u2654   \u2655~  \u00B7   1\n"
        "   a   b   c\n"
        "white to move, white is in check\n";
    assert_string_equal(sb_str(&b), expect);
    sb_reset(&b);
    o.ascii = 1;
    render_board(v, &o, &b);
    assert_contains(sb_str(&b), "2  R*  .   x   2\n");
    assert_contains(sb_str(&b), "1  K   Q~  .   1\n");
    sb_reset(&b);
    render_view_json(v, &n, NULL, 0, &b);
    assert_true(json_object_line(sb_str(&b)));
    assert_contains(sb_str(&b), "\"side\":null,\"side2\":\"black\",\"figure\":\"rook\"");
    sb_reset(&b);
    /* Seat 1 sees a bounded board turned around. */
    v->seat = 1;
    o.ascii = 1;
    render_board(v, &o, &b);
    assert_contains(sb_str(&b), "   c   b   a\n1  .   Q~  K   1\n");
    sb_reset(&b);
    v->status.over = 1;
    v->status.winners = 0;
    str_copy(v->status.reason, sizeof v->status.reason, "stalemate");
    render_status_line(v, &n, &b);
    assert_string_equal(sb_str(&b), "game over: 1/2-1/2, draw (stalemate)");
    sb_free(&b);
    free(v);
}

/* The renderers on real engine views: the test-only toy variant (three
 * sides on the plane, TOY-3 secrets).  Each seat's text and JSON show its
 * own secret and no other: what is not in a View cannot be drawn. */
static void test_render_toy_views_hide_secrets(void **state)
{
    (void)state;
    Game *g = tu_game(&(TuGame){.variant = &toy_variant, .seed = 5});
    RenderNames n;
    cli_names(g, &n);
    View *v = calloc(1, sizeof *v);
    assert_non_null(v);
    for (int seat = 0; seat < n.nseats; seat++) {
        StrBuf b = STRBUF_INIT;
        RenderOpts o = {.ascii = 1};
        game_view(g, seat, v);
        render_view_text(v, &n, &o, &b);
        render_view_json(v, &n, NULL, 0, &b);
        for (int side = 0; side < n.nsides; side++) {
            char secret[16];
            snprintf(secret, sizeof secret, "%d", (int)toy_secret(g, side));
            if (side == seat)
                assert_contains(sb_str(&b), secret);
            else if (strstr(sb_str(&b), secret))
                fail_msg("seat %d sees side %d's secret %s", seat, side, secret);
        }
        /* red 1,0  green -1,1  blue 0,-1, plus a margin: x and y -2 .. 2 */
        assert_contains(sb_str(&b), "    -2  -1  0   1   2\n");
        assert_contains(sb_str(&b), " 1  .   K2  .   .   .   1\n");
        assert_contains(sb_str(&b), " 0  .   .   .   K1  .   0\n");
        assert_contains(sb_str(&b), "-1  .   .   K3  .   .   -1\n");
        assert_contains(sb_str(&b), "\"geometry\":{\"bounded\":false}");
        assert_contains(sb_str(&b), "\"position\":null");
        sb_free(&b);
    }
    free(v);
    game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_validator_itself),
        cmocka_unit_test(test_utf8_validator_is_strict),
        cmocka_unit_test(test_run_never_cuts_a_character),
        cmocka_unit_test(test_run_refuses_invalid_utf8),
        cmocka_unit_test(test_write_errors_exit_1),
        cmocka_unit_test(test_no_silent_truncation),
        cmocka_unit_test(test_run_seats_and_files),
        cmocka_unit_test(test_help_and_list),
        cmocka_unit_test(test_help_columns_and_json_lines),
        cmocka_unit_test(test_unknown_command_option_variant),
        cmocka_unit_test(test_perft_and_divide),
        cmocka_unit_test(test_perft_moves),
        cmocka_unit_test(test_legal_list),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_run_scholars_mate_orth7),
        cmocka_unit_test(test_run_illegal_move_changes_nothing),
        cmocka_unit_test(test_run_json_one_object_per_command),
        cmocka_unit_test(test_run_undo),
        cmocka_unit_test(test_run_resign_orth8),
        cmocka_unit_test(test_run_as_seat_asks_commands),
        cmocka_unit_test(test_run_masques_answers_hide_setup),
        cmocka_unit_test(test_run_masq12_private_answers_refused),
        cmocka_unit_test(test_run_masq12_save_needs_every_seat),
        cmocka_unit_test(test_run_masq12_undo_own_actions_only),
        cmocka_unit_test(test_run_masq16_show_after_the_end),
        cmocka_unit_test(test_play_masq16_end_is_public),
        cmocka_unit_test(test_run_save_long_name_says_why),
        cmocka_unit_test(test_run_draw_offer_orth8),
        cmocka_unit_test(test_run_claim_threefold_orth9),
        cmocka_unit_test(test_run_view_text_orientation),
        cmocka_unit_test(test_save_and_load),
        cmocka_unit_test(test_play_piped_to_mate_orth7),
        cmocka_unit_test(test_play_commands),
        cmocka_unit_test(test_menu_piped),
        cmocka_unit_test(test_play_after_the_end_never_a_file_name),
        cmocka_unit_test(test_play_resign_quit_draw_orth8),
        cmocka_unit_test(test_play_review_again_menu),
        cmocka_unit_test(test_play_bottom_side),
        cmocka_unit_test(test_play_undo_against_a_bot),
        cmocka_unit_test(test_play_tile_question_example_accepted),
        cmocka_unit_test(test_version_and_rules),
        cmocka_unit_test(test_render_unbounded_three_sides),
        cmocka_unit_test(test_render_two_sides_marks),
        cmocka_unit_test(test_render_toy_views_hide_secrets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
