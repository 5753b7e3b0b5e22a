/*
 * test_hostile_text.c -- issue 20 point 5: nothing a house-rule script,
 * a record or a merged part writes reaches a screen or a file raw.
 * Hostile texts -- clear-screen (ESC[2J), window title (OSC 0), clipboard
 * (OSC 52), a line break followed by a fake line, bytes that are not
 * UTF-8 -- in a rule's name and description, a veto reason, a finish
 * reason and an error() text, through `check`, `rules`, `run`,
 * `run --json`, `play` (piped), `experiment --json --svg`, `run --load`
 * and `merge`: every output and file is UTF-8 without control characters
 * (line ends aside), shows no fake line, and every chart is well-formed
 * XML.
 *
 * Invariant: the checks here (UTF-8, control bytes, XML) are written
 * apart from the program's own: utf8_valid is the one validator of the
 * core, the rest is below.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../core/json.h"
#include "../core/util.h"
#include "support/testutil.h"

#define FAKE "white: resign accepted"

/* The hostile payloads, as Lua string literals. */
static const char *const PAYLOAD[] = {
    "\"clear\\27[2Jscreen\"",
    "\"title\\27]0;pwned\\7\"",
    "\"clip\\27]52;c;aGVsbG8=\\7\"",
    "\"fine\\n" FAKE "\"",
    "\"bad\\255\\254bytes\"",
    "\"c1\\194\\155[2J\"", /* U+009B, the one-byte CSI of 8-bit terminals */
};

static void assert_has(const char *hay, const char *needle)
{
    if (!strstr(hay, needle))
        fail_msg("\"%s\" is not in:\n%s", needle, hay);
}

/* text (n bytes) is valid UTF-8 with no control character but line ends
 * (C0, DEL, C1), and no line of it is the fake one. */
static void assert_clean_n(const char *what, const char *text, size_t n)
{
    if (!utf8_valid(text, n))
        fail_msg("%s: not valid UTF-8:\n%s", what, text);
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < n; i++) {
        int c1 = p[i] == 0xC2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] < 0xA0;
        if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f || c1)
            fail_msg("%s: a control character 0x%02x at byte %zu:\n%s", what,
                     c1 ? p[i + 1] : p[i], i, text);
        if ((i == 0 || p[i - 1] == '\n') && !strncmp(text + i, FAKE, strlen(FAKE)))
            fail_msg("%s: a fake line at byte %zu:\n%s", what, i, text);
    }
}

static void assert_clean(const char *what, const char *text)
{
    assert_clean_n(what, text, strlen(text));
}

static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    StrBuf b = STRBUF_INIT;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&b, buf, k);
    fclose(f);
    *n = b.len;
    if (!b.s)
        return calloc(1, 1);
    return b.s;
}

/* ---- A small XML well-formedness check (XML 1.0, what a chart uses) ---- */

static int xml_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == ':' || c == '.';
}

/* An entity or character reference at p ('&'): its length, 0 if none. */
static size_t xml_ref(const char *p)
{
    static const char *const ent[] = {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"};
    for (size_t i = 0; i < ARRAY_LEN(ent); i++)
        if (!strncmp(p, ent[i], strlen(ent[i])))
            return strlen(ent[i]);
    if (p[1] == '#') {
        size_t k = 2;
        while (p[k] && ((p[k] >= '0' && p[k] <= '9') || p[k] == 'x' ||
                        (p[k] >= 'a' && p[k] <= 'f')))
            k++;
        return p[k] == ';' && k > 2 ? k + 1 : 0;
    }
    return 0;
}

/* NULL when doc is well-formed: UTF-8, no forbidden control character,
 * one root element, every tag closed in order, attributes quoted, '&'
 * only in references, '<' only in markup.  Else what is wrong. */
static const char *xml_problem(const char *doc, size_t n)
{
    if (!utf8_valid(doc, n) || strlen(doc) != n)
        return "not UTF-8 text";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)doc[i];
        if (c < 0x20 && c != '\t' && c != '\n' && c != '\r')
            return "a control character";
    }
    char stack[64][32];
    int depth = 0, roots = 0;
    const char *p = doc;
    if (!strncmp(p, "<?xml", 5)) {
        p = strstr(p, "?>");
        if (!p)
            return "an unclosed declaration";
        p += 2;
    }
    while (*p) {
        if (*p == '&') {
            size_t k = xml_ref(p);
            if (!k)
                return "a bare '&'";
            p += k;
            continue;
        }
        if (*p != '<') {
            if (*p == '>' && p > doc && p[-1] == ']')
                return "']>' in text";
            if (!depth && !strchr(" \t\r\n", *p))
                return "text outside the root element";
            p++;
            continue;
        }
        if (!strncmp(p, "<!--", 4)) {
            const char *e = strstr(p + 4, "-->");
            if (!e)
                return "an unclosed comment";
            p = e + 3;
            continue;
        }
        int closing = p[1] == '/';
        p += 1 + closing;
        char name[32];
        size_t k = 0;
        while (xml_name_char(*p) && k < sizeof name - 1)
            name[k++] = *p++;
        name[k] = 0;
        if (!k)
            return "a tag without a name";
        if (closing) {
            while (*p == ' ' || *p == '\n')
                p++;
            if (*p != '>' || !depth || strcmp(stack[depth - 1], name))
                return "a closing tag that does not match";
            depth--;
            p++;
            continue;
        }
        for (;;) { /* attributes */
            while (*p == ' ' || *p == '\n' || *p == '\t')
                p++;
            if (*p == '>' || (*p == '/' && p[1] == '>'))
                break;
            if (!xml_name_char(*p))
                return "a bad attribute";
            while (xml_name_char(*p))
                p++;
            if (*p++ != '=' || (*p != '"' && *p != '\''))
                return "an attribute without a quoted value";
            char q = *p++;
            while (*p && *p != q) {
                if (*p == '<')
                    return "'<' in an attribute";
                if (*p == '&' && !xml_ref(p))
                    return "a bare '&' in an attribute";
                p++;
            }
            if (!*p)
                return "an unclosed attribute";
            p++;
        }
        if (!depth && roots++)
            return "a second root element";
        if (*p == '/') {
            p += 2;
            continue;
        }
        if (depth == 64)
            return "too deep";
        strcpy(stack[depth++], name);
        p++;
    }
    return depth ? "an element is not closed" : roots != 1 ? "no root element" : NULL;
}

static void assert_xml(const char *what, const char *path)
{
    size_t n;
    char *doc = slurp(path, &n);
    if (!doc)
        fail_msg("%s: no file %s", what, path);
    const char *bad = xml_problem(doc, n);
    if (bad)
        fail_msg("%s: %s is not well-formed XML (%s):\n%s", what, path, bad, doc);
    free(doc);
}

/* The checker itself tells a broken chart from a sound one. */
static void test_point5_xml_checker(void **state)
{
    (void)state;
    static const char *const good[] = {
        "<svg a=\"1\"><text>x &amp; y &lt;</text><rect/></svg>\n",
        "<?xml version=\"1.0\"?><svg><!-- c --><g></g></svg>",
    };
    static const char *const bad[] = {
        "<svg><text>a < b</text></svg>", "<svg><text>a & b</text></svg>",
        "<svg><text>\x1b[2J</text></svg>", "<svg><text>\xff</text></svg>",
        "<svg><g></svg>", "<svg></svg><svg></svg>", "<svg a=1></svg>",
    };
    for (size_t i = 0; i < ARRAY_LEN(good); i++)
        assert_null(xml_problem(good[i], strlen(good[i])));
    for (size_t i = 0; i < ARRAY_LEN(bad); i++)
        assert_non_null(xml_problem(bad[i], strlen(bad[i])));
}

/* ---- Scripts through the program -------------------------------------- */

static char dir[] = "/tmp/cv_hostile_XXXXXX";

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup_dir(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A refusal: exit 1 (a command failed) or 2 (it could not start). */
static void assert_refused(const TuRun *r)
{
    if (r->status != 1 && r->status != 2)
        fail_msg("exit %d, not a refusal:\n%s\n%s", r->status, r->out, r->err);
}

/* One run of the program: stdout and stderr clean; the output returned
 * for more checks (free with tu_run_free). */
static void run_clean(TuRun *r, const char *what, const char *args, const char *input)
{
    tu_run(r, args, input);
    char label[512];
    snprintf(label, sizeof label, "%s: chessvar %s (stdout)", what, args);
    assert_clean(label, r->out);
    snprintf(label, sizeof label, "%s: chessvar %s (stderr)", what, args);
    assert_clean(label, r->err);
    assert_null(strstr(r->err, "Sanitizer"));
}

/* The fields a script writes, each as a script with %s for the payload. */
typedef struct Field {
    const char *name, *script;
    int refused_at_load; /* check fails without playing */
} Field;

static const Field FIELDS[] = {
    {"name", "rule{ name = %s }\n", 1},
    {"description", "rule{ name = \"d\", description = %s }\n", 1},
    {"veto reason", "rule{ name = \"v\", veto = function(game, a) return %s end }\n", 0},
    {"finish reason", "rule{ name = \"f\", react = function(game, a)\n"
                      "  game:finish(\"white\", %s) end }\n", 0},
    {"error text", "rule{ name = \"e\", react = function(game, a) error(%s) end }\n", 0},
    {"error text in a veto", "rule{ name = \"e\", veto = function(game, a) error(%s) end }\n",
     0},
    {"setup position", "rule{ name = \"s\", setup = \"8/8/8/8/8/8/8/K1k5 w - \" .. %s }\n", 1},
    {"setup function", "rule{ name = \"s\", setup = function(game)\n"
                       "  return \"8/8/8/8/8/8/8/K1k5 w - \" .. %s end }\n", 1},
};

/* Issue 20 point 5: every field with every payload, through every
 * command; each is refused (exit 1) with a message naming the script and
 * the hook, and shown clean. */
static void test_point5_hostile_scripts_everywhere(void **state)
{
    (void)state;
    char path[256], text[512], args[1024], what[128], svg[300];
    for (size_t f = 0; f < ARRAY_LEN(FIELDS); f++) {
        for (size_t k = 0; k < ARRAY_LEN(PAYLOAD); k++) {
            const Field *fd = &FIELDS[f];
            snprintf(path, sizeof path, "%s/f%zu_%zu.lua", dir, f, k);
            snprintf(text, sizeof text, fd->script, PAYLOAD[k]);
            write_text(path, text);
            snprintf(what, sizeof what, "%s, payload %zu", fd->name, k + 1);
            TuRun r;
            snprintf(args, sizeof args, "check %s", path);
            run_clean(&r, what, args, NULL);
            if (fd->refused_at_load) {
                assert_has(r.out, "house rule ");
                assert_has(r.out, path);
                assert_refused(&r);
            }
            tu_run_free(&r);

            snprintf(args, sizeof args, "rules orthodox --rules %s", path);
            run_clean(&r, what, args, NULL);
            tu_run_free(&r);

            snprintf(args, sizeof args, "run orthodox --rules %s", path);
            run_clean(&r, what, args, "e4\nd4\nstatus\nlegal\n");
            assert_refused(&r);
            tu_run_free(&r);

            snprintf(args, sizeof args, "run orthodox --json --rules %s", path);
            run_clean(&r, what, args, "e4\nd4\nstatus\n");
            assert_refused(&r);
            if (!fd->refused_at_load)
                assert_has(r.out, "{\"ok\":false,");
            tu_run_free(&r);

            snprintf(args, sizeof args, "play orthodox --ascii --rules %s", path);
            run_clean(&r, what, args, "e4\nd4\nlegal\nquit\ny\nn\n");
            tu_run_free(&r);

            snprintf(svg, sizeof svg, "%s/chart_%zu_%zu.svg", dir, f, k);
            snprintf(args, sizeof args, "experiment orthodox --games 2 --seed 3 "
                     "--bot white=random --bot black=random --json --svg %s --rules %s",
                     svg, path);
            run_clean(&r, what, args, NULL);
            assert_refused(&r);
            if (access(svg, F_OK) == 0)
                assert_xml(what, svg);
            tu_run_free(&r);
        }
    }
}

/* Issue 20 point 5: where each field is refused, the message says which
 * field and what is in it (not a mangled copy of it). */
static void test_point5_messages_name_the_field(void **state)
{
    (void)state;
    static const struct {
        const char *script, *input, *want;
    } cases[] = {
        {"rule{ name = \"n\\27[2J\" }\n", NULL,
         "load: %s:1: rule: name: a control character (0x1b) at byte 2"},
        {"rule{ name = \"d\", description = \"x\\n" FAKE "\" }\n", NULL,
         "load: %s:1: rule: description: a control character (0x0a) at byte 2"},
        {"rule{ name = \"v\", veto = function(g, a) return \"no\\255\" end }\n", "e4\n",
         "veto: %s:1: the veto reason has a byte that is not UTF-8 (0xff) at byte 3"},
        {"rule{ name = \"f\",\n react = function(g, a) g:finish(nil, \"\\27]0;t\\7\") end }\n",
         "e4\n", "react: %s:2: game:finish: the reason has a control character (0x1b) at "
                 "byte 1"},
        {"rule{ name = \"e\", react = function(g, a) error(\"x\\27[2J\\n" FAKE "\\255\") end }"
         "\n", "e4\n", "react: %s:1: x\\x1b[2J\\n" FAKE "\\xff"},
        {"rule{ name = \"s\", setup = \"8/8/8/8/8/8/8/K1k5 w - \\27[2J 0 1\" }\n", NULL,
         "load: %s:1: rule: setup: a control character (0x1b) at byte 24"},
        {"rule{ name = \"s\", setup = function(g)\n return \"8/8/8/8/8/8/8/K1k5 w - \\255\" "
         "end }\n", NULL, "setup: %s:1: the position setup returned has a byte that is not "
                           "UTF-8 (0xff) at byte 24"},
    };
    char path[256], args[512], want[512];
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        snprintf(path, sizeof path, "%s/msg%zu.lua", dir, i);
        write_text(path, cases[i].script);
        TuRun r;
        snprintf(args, sizeof args, "run orthodox --rules %s", path);
        run_clean(&r, "message", args, cases[i].input ? cases[i].input : "status\n");
        snprintf(want, sizeof want, cases[i].want, path);
        assert_has(cases[i].input ? r.out : r.err, want);
        assert_refused(&r);
        tu_run_free(&r);
    }
}

/* ---- Records and merged parts ----------------------------------------- */

/* Issue 20 point 5: a record is UTF-8 text without control characters:
 * one with an escape sequence or a byte that is not UTF-8 in a tag, or a
 * script name that is not text, is refused naming the line; a script
 * whose bytes are not all UTF-8 text is saved escaped and loads back. */
static void test_point5_records(void **state)
{
    (void)state;
    static const char *const bad[] = { /* each on line 2 of a record */
        "[Event \"x\x1b]0;pwned\x07\"]\n",
        "[Event \"caf\xe9\"]\n",
        "# a comment \x1b[2J\n",
        "[Termination \"won\x1b]52;c;aGk=\x07\"]\n",
        "[Event \"a\xc2\x9b" "2J\"]\n",
        "[Rule \"n\x1b[2J.lua\"]\n[RuleText \"rule{ name = \\\"x\\\" }\"]\n",
    };
    char path[256], args[512];
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        snprintf(path, sizeof path, "%s/bad%zu.rec", dir, i);
        char text[256];
        snprintf(text, sizeof text, "[Variant \"orthodox\"]\n%s[Seed \"0\"]\n[Sides \"2\"]\n"
                 "[Result \"*\"]\n", bad[i]);
        write_text(path, text);
        TuRun r;
        snprintf(args, sizeof args, "run --load %s", path);
        run_clean(&r, "record", args, "status\n");
        assert_has(r.err, path);
        assert_has(r.err, ":2: ");
        assert_has(r.err, "(a record is UTF-8 text without control characters)");
        assert_int_equal(r.status, 1);
        tu_run_free(&r);
        snprintf(args, sizeof args, "run --json --load %s", path);
        run_clean(&r, "record", args, "status\n");
        assert_int_equal(r.status, 1);
        tu_run_free(&r);
    }
    /* a script with a Latin-1 byte, a C1 character and an escape in a
     * comment: saved escaped, loaded back whole (its SHA-256 agrees) */
    char script[256], rec[256];
    snprintf(script, sizeof script, "%s/raw.lua", dir);
    snprintf(rec, sizeof rec, "%s/raw.rec", dir);
    write_text(script, "-- caf\xe9 \xc2\x85 \x1b[2J\nrule{ name = \"raw\", react = "
                       "function(g, a) end }\n");
    TuRun r;
    snprintf(args, sizeof args, "run orthodox --rules %s", script);
    char input[300];
    snprintf(input, sizeof input, "e4\nsave %s\n", rec);
    run_clean(&r, "save", args, input);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    size_t n;
    char *text = slurp(rec, &n);
    assert_non_null(text);
    assert_clean_n("saved record", text, n);
    assert_has(text, "-- caf\\xe9 \\xc2\\x85 \\x1b[2J\\n");
    free(text);
    snprintf(args, sizeof args, "run --trust-rules --load %s", rec);
    run_clean(&r, "load", args, "status\n");
    assert_has(r.out, "black to move (1 actions played)");
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
}

/* A part of an experiment with `from` replaced by `to` (raw bytes). */
static void write_part(const char *src, const char *path, const char *from, const char *to)
{
    size_t n;
    char *s = slurp(src, &n);
    assert_non_null(s);
    char *at = strstr(s, from);
    assert_non_null(at);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(s, 1, (size_t)(at - s), f);
    fputs(to, f);
    fputs(at + strlen(from), f);
    fclose(f);
    free(s);
}

/* Issue 20 point 5: `merge` refuses a part with a byte that is not UTF-8
 * or a control character in a text, naming the file and the field, and
 * writes neither report nor chart; the good part merges into JSON that
 * is UTF-8 and a chart that is well-formed. */
static void test_point5_merge(void **state)
{
    (void)state;
    char part[256], args[1024], bad[256], svg[256];
    snprintf(part, sizeof part, "%s/part.json", dir);
    TuRun r;
    snprintf(args, sizeof args, "experiment orthodox --games 2 --seed 1 --bot white=random "
             "--bot black=random --max-plies 10 --json --rules scripts/king_of_the_hill.lua "
             "> %s", part);
    tu_run(&r, args, NULL);
    assert_int_equal(r.status, 0);
    tu_run_free(&r);
    static const struct {
        const char *from, *to, *want;
    } cases[] = {
        {"\"King of the Hill\"", "\"King \xff of the Hill\"",
         "a byte that is not UTF-8 inside a string"},
        {"\"King of the Hill\"", "\"K\\u001b]0;pwned\\u0007\"",
         "info: rule set A, script 1: \"name\" has a control character (0x1b)"},
        {"\"title\":\"Orthodox chess\"", "\"title\":\"Ortho\\n" FAKE "\"",
         "info: \"title\" has a control character (0x0a)"},
        {"\"title\":\"Orthodox chess\"", "\"title\":\"O\\u009b2J\"",
         "info: \"title\" has a control character (0x9b)"},
        {"\"reason\":\"ply limit\"", "\"reason\":\"\\u001b[2J\"",
         "game 1 of the list: \"reason\" has a control character (0x1b)"},
        {"\"variant\":\"orthodox\"", "\"variant\":\"ortho\xc3\"",
         "a byte that is not UTF-8 inside a string"},
    };
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        snprintf(bad, sizeof bad, "%s/bad%zu.json", dir, i);
        snprintf(svg, sizeof svg, "%s/merge%zu.svg", dir, i);
        write_part(part, bad, cases[i].from, cases[i].to);
        for (int json = 0; json < 2; json++) {
            snprintf(args, sizeof args, "merge %s%s --svg %s", json ? "--json " : "", bad,
                     svg);
            run_clean(&r, "merge", args, NULL);
            assert_has(r.err, bad);
            assert_has(r.err, cases[i].want);
            assert_string_equal(r.out, "");
            assert_int_equal(r.status, 1);
            assert_int_not_equal(access(svg, F_OK), 0);
            tu_run_free(&r);
        }
    }
    snprintf(svg, sizeof svg, "%s/merge_ok.svg", dir);
    snprintf(args, sizeof args, "merge --json %s --svg %s", part, svg);
    run_clean(&r, "merge", args, NULL);
    assert_int_equal(r.status, 0);
    assert_has(r.out, "King of the Hill");
    assert_xml("merge", svg);
    tu_run_free(&r);
}

/* ---- The JSON writer and reader --------------------------------------- */

/* Issue 20 point 5: the JSON writer never emits invalid UTF-8 nor a raw
 * control character, whatever it is given; the reader refuses a string
 * whose bytes are not UTF-8. */
static void test_point5_json_writer_and_reader(void **state)
{
    (void)state;
    StrBuf b = STRBUF_INIT;
    sb_json_str(&b, "a\xff\xc3(\x1b[2J\x7f\xc2\x9b\xe2\x82\xac\xed\xa0\x80\n\"\\");
    assert_string_equal(sb_str(&b), "\"a\\ufffd\\ufffd(\\u001b[2J\\u007f\\u009b\xe2\x82\xac"
                                    "\\ufffd\\ufffd\\ufffd\\n\\\"\\\\\"");
    assert_true(utf8_valid(b.s, b.len));
    Error e;
    Json *j = json_parse(b.s, b.len, &e); /* what we write, we read */
    assert_non_null(j);
    assert_string_equal(j->str, "a\xef\xbf\xbd\xef\xbf\xbd(\x1b[2J\x7f\xc2\x9b\xe2\x82\xac"
                                "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\n\"\\");
    json_free(j);
    sb_free(&b);
    static const char *const bad[] = {"\"\xff\"", "[\"ok\", \"\xc3\"]", "{\"\xed\xa0\x80\":1}",
                                      "\"\xc0\xaf\""};
    for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
        assert_null(json_parse(bad[i], strlen(bad[i]), &e));
        assert_has(e.msg, "a byte that is not UTF-8 inside a string");
    }
    j = json_parse("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", 12, &e);
    assert_non_null(j);
    assert_string_equal(j->str, "caf\xc3\xa9 \xf0\x9f\x98\x80");
    json_free(j);
}

/* Issue 20 point 5: the helpers behind the boundaries. */
static void test_point5_text_check_and_safe(void **state)
{
    (void)state;
    char why[80], out[64];
    assert_int_equal(text_check("King of the Hill \xc3\xa9", 19, 0, why, sizeof why), 0);
    assert_int_equal(text_check("a\tb", 3, TEXT_TAB, why, sizeof why), 0);
    assert_int_equal(text_check("a\tb", 3, 0, why, sizeof why), -1);
    assert_string_equal(why, "a control character (0x09) at byte 2");
    assert_int_equal(text_check("ab\xc2\x85", 4, TEXT_TAB, why, sizeof why), -1);
    assert_string_equal(why, "a control character (0x85) at byte 3");
    assert_int_equal(text_check("x\x7f", 2, 0, why, sizeof why), -1);
    assert_int_equal(text_check("x\xe9y", 3, 0, why, sizeof why), -1);
    assert_string_equal(why, "a byte that is not UTF-8 (0xe9) at byte 2");
    assert_string_equal(str_safe(out, sizeof out, "a\x1b[2J\n\xff\xc2\x9b\xc3\xa9\t"),
                        "a\\x1b[2J\\n\\xff\\u009b\xc3\xa9\\t");
    /* cut before an escape that does not fit, never inside it */
    assert_string_equal(str_safe(out, 6, "ab\x1b[2J"), "ab");
    assert_string_equal(str_safe(out, 4, "ab\xc3\xa9"), "ab");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_point5_xml_checker),
        cmocka_unit_test(test_point5_text_check_and_safe),
        cmocka_unit_test(test_point5_json_writer_and_reader),
        cmocka_unit_test(test_point5_messages_name_the_field),
        cmocka_unit_test(test_point5_records),
        cmocka_unit_test(test_point5_merge),
        cmocka_unit_test(test_point5_hostile_scripts_everywhere),
    };
    return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
