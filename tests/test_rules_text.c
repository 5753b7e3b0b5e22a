/*
 * test_rules_text.c -- the rules: docs/RULES.md, the project's own
 * statement of every rule, and the texts that `chessvar rules VARIANT`
 * prints (variants/<v>/rules.c, the contract of VariantOps.rules in
 * core/variant.h).
 *
 * docs/RULES.md states each rule once, as a list item that opens with its
 * bold id ("- **MASQ-7 Mask mate.** ..."), in order, numbered from 1 to
 * the range the variant's summary gives (`chessvar list`: ORTH-1..9,
 * MASQ-1..16, AMBI-1..7, ECHQ-1..13, TILE-1..12), each with a statement;
 * every rule id that README.md or docs/ cites is one of them (issue 19
 * point 1: the rules a test or a reader refers to are in the repository).
 *
 * The rules texts keep their format: every rule of docs/RULES.md heads
 * its own section, in order; every `{NAME}` is a parameter of the variant
 * and every parameter tied to a rule is shown, in that rule's section when
 * the rule is the variant's own; lines are valid UTF-8 of at most 78
 * columns (and still fit in 80 once the core has put in a value and its
 * mark), with no tab and no trailing space; the text ends with a newline.
 *
 * Invariant: each check is a function that returns 0 or -1 with a reason,
 * run on the real texts (must pass) and on copies broken on purpose (must
 * fail), so a check that stopped checking would fail the suite.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/params.h"
#include "../core/util.h"
#include "../core/variant.h"
#include "support/testutil.h"

extern const char orthodox_rules[];
extern const char masques_rules[];
extern const char ambigus_rules[];
extern const char echiquete_rules[];
extern const char tile_rules[];

#define RULES_COLS 78        /* the contract: columns of a line as written */
#define SCREEN_COLS 80       /* the issue: readable in 80 columns */
/* Columns left for the core's mark of a changed value after it (its form
 * is the core's: " (default public)" takes 17). */
#define MARK_ROOM 18
#define MAX_IDS 64
#define MSG 256
#define RULES_DOC "docs/RULES.md"
/* A rule's item opens with its bold id: "- **MASQ-7 Mask mate.** ...". */
#define ITEM_OPEN "- **"
/* The fewest characters a rule's statement may have (title and text). */
#define MIN_STATEMENT 40

typedef struct RulesCase {
    const char *variant;   /* registry name */
    const char *prefix;    /* rule ids: "MASQ" in MASQ-7 */
    const char *text;
} RulesCase;

static const RulesCase CASES[] = {
    {"orthodox", "ORTH", orthodox_rules},
    {"masques", "MASQ", masques_rules},
    {"ambigus", "AMBI", ambigus_rules},
    {"echiquete", "ECHQ", echiquete_rules},
    {"tile", "TILE", tile_rules},
};

static const char *const PREFIXES[] = {"ORTH", "MASQ", "AMBI", "ECHQ", "TILE"};

static char *read_file(const char *path)
{
    char *s = tu_read_file(path);
    if (!s)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    return s;
}

/* Does p start an id PREFIX-N (N digits, not followed by another digit)?
 * Its number, else 0. */
static int id_at(const char *p, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(p, prefix, n) != 0 || p[n] != '-' || !isdigit((unsigned char)p[n + 1]))
        return 0;
    return atoi(p + n + 1);
}

static int fail_with(char *msg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int fail_with(char *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, MSG, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- docs/RULES.md ---------------------------------------------------------------- */

/* The last rule of the variant with this prefix, from its summary
 * ("... (MASQ-1..16)"), or 0. */
static int summary_last(const VariantOps *v, const char *prefix)
{
    char range[32];
    snprintf(range, sizeof range, "(%s-1..", prefix);
    const char *at = strstr(v->summary, range);
    return at ? atoi(at + strlen(range)) : 0;
}

/* Characters of a rule item's statement: from its id to the end of the
 * item (a blank line, the next item, a heading or the end). */
static size_t item_len(const char *id)
{
    const char *p = id;
    for (;;) {
        const char *nl = strchr(p, '\n');
        if (!nl || nl[1] == '\n' || nl[1] == '-' || nl[1] == '#' || nl[1] == '\0')
            return (size_t)((nl ? nl : p + strlen(p)) - id);
        p = nl + 1;
    }
}

/* The rules of doc with this prefix, in the order stated: each a line
 * that opens ITEM_OPEN PREFIX-N, numbered 1, 2 ... (up to last, all of
 * them; last < 0: as many as there are), each with a statement of
 * MIN_STATEMENT characters or more. Their count, or -1 with a reason in
 * msg. */
static int doc_rule_ids(const char *doc, const char *prefix, int last, int *ids, char *msg)
{
    int n = 0, lineno = 1;
    for (const char *p = doc; *p; lineno++) {
        int id = strncmp(p, ITEM_OPEN, strlen(ITEM_OPEN)) == 0
                     ? id_at(p + strlen(ITEM_OPEN), prefix)
                     : 0;
        if (id) {
            if (id != n + 1 || n == last || n == MAX_IDS)
                return fail_with(msg, "line %d states %s-%d where %s%s-%d was due", lineno,
                                 prefix, id, n == last ? "no rule after " : "", prefix,
                                 n == last ? last : n + 1);
            if (item_len(p + strlen(ITEM_OPEN)) < MIN_STATEMENT)
                return fail_with(msg, "line %d: %s-%d has no statement", lineno, prefix, id);
            ids[n++] = id;
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (n < last)
        return fail_with(msg, "%s-%d is not stated (a line \"%s%s-%d ...\")", prefix, n + 1,
                         ITEM_OPEN, prefix, n + 1);
    return n;
}

/* Every id PREFIX-N that text cites is one of the rules of doc; -1 with
 * the first that is not (and its line) in msg. */
static int check_cited(const char *doc, const char *text, char *msg)
{
    int stated[ARRAY_LEN(PREFIXES)];
    for (size_t k = 0; k < ARRAY_LEN(PREFIXES); k++) {
        int ids[MAX_IDS];
        stated[k] = doc_rule_ids(doc, PREFIXES[k], -1, ids, msg);
        if (stated[k] < 0)
            return -1;
    }
    int lineno = 1;
    for (const char *p = text; *p; p++) {
        if (*p == '\n')
            lineno++;
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
            continue;
        for (size_t k = 0; k < ARRAY_LEN(PREFIXES); k++) {
            int id = id_at(p, PREFIXES[k]);
            if (id > stated[k])
                return fail_with(msg, "line %d cites %s-%d, which %s does not state", lineno,
                                 PREFIXES[k], id, RULES_DOC);
        }
    }
    return 0;
}

/* The ids the rules text of c must have: those of docs/RULES.md. */
static int rules_doc_ids(const RulesCase *c, int *ids)
{
    char *doc = read_file(RULES_DOC);
    char msg[MSG];
    int n = doc_rule_ids(doc, c->prefix, summary_last(tu_variant(c->variant), c->prefix), ids,
                         msg);
    free(doc);
    if (n <= 0)
        fail_msg("%s: %s", RULES_DOC, n < 0 ? msg : "no rules");
    return n;
}

/* ---- Lines ---------------------------------------------------------------------- */

/* Length in bytes of a valid UTF-8 sequence at p (no overlong forms, no
 * surrogates, at most U+10FFFF), or 0. */
static int utf8_len(const unsigned char *p)
{
    if (p[0] < 0x80)
        return 1;
    int n = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (n == 0 || p[0] > 0xF4)
        return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((p[0] == 0xE0 && p[1] < 0xA0) || (p[0] == 0xED && p[1] >= 0xA0) ||
        (p[0] == 0xF0 && p[1] < 0x90) || (p[0] == 0xF4 && p[1] >= 0x90))
        return 0;
    return n;
}

/* Columns of the line text[0..len), with str_width (core/util.h). */
static int line_width(const char *line, size_t len)
{
    char *copy = strndup(line, len);
    int w = str_width(copy);
    free(copy);
    return w;
}

/* One line, without its newline. */
static int check_line(const char *line, size_t len, int lineno, char *msg)
{
    for (size_t i = 0; i < len;) {
        unsigned char ch = (unsigned char)line[i];
        if (ch == '\t')
            return fail_with(msg, "line %d: a tab", lineno);
        if (ch < 0x20 || ch == 0x7F)
            return fail_with(msg, "line %d: control character 0x%02X", lineno, ch);
        int n = utf8_len((const unsigned char *)line + i);
        if (n == 0 || i + (size_t)n > len)
            return fail_with(msg, "line %d: not valid UTF-8 at byte %zu", lineno, i);
        i += (size_t)n;
    }
    if (len && line[len - 1] == ' ')
        return fail_with(msg, "line %d: trailing space", lineno);
    int w = line_width(line, len);
    if (w > RULES_COLS)
        return fail_with(msg, "line %d: %d columns (at most %d): %.*s", lineno, w,
                         RULES_COLS, (int)len, line);
    return 0;
}

/* (c) Valid UTF-8, no tab, no trailing space, lines of at most 78
 * columns, a title on the first line, a newline at the end. */
static int check_layout(const char *text, char *msg)
{
    if (!*text || text[0] == '\n' || text[0] == ' ')
        return fail_with(msg, "no title on the first line");
    if (text[strlen(text) - 1] != '\n')
        return fail_with(msg, "the text does not end with a newline");
    int lineno = 1;
    for (const char *p = text; *p; lineno++) {
        const char *nl = strchr(p, '\n');
        if (check_line(p, (size_t)(nl - p), lineno, msg))
            return -1;
        p = nl + 1;
    }
    return 0;
}

/* ---- Rule headings --------------------------------------------------------------- */

/* The rule id heading the line at p (after optional spaces), or 0. */
static int line_id(const char *p, const char *prefix)
{
    while (*p == ' ')
        p++;
    return id_at(p, prefix);
}

/* (a) The lines that start with an id of the variant, in order, are
 * exactly the rules of docs/RULES.md, each once, in increasing order. */
static int check_ids(const char *text, const char *prefix, const int *ids, int nids,
                     char *msg)
{
    int k = 0, lineno = 1;
    for (const char *p = text; *p; lineno++) {
        int id = line_id(p, prefix);
        if (id) {
            if (k == nids || id != ids[k])
                return fail_with(msg, "line %d starts with %s-%d where %s-%d was due",
                                 lineno, prefix, id, k == nids ? "no rule" : prefix,
                                 k == nids ? 0 : ids[k]);
            k++;
        }
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    if (k < nids)
        return fail_with(msg, "rule %s-%d has no line of its own", prefix, ids[k]);
    return 0;
}

/* Where the section of rule `id` begins and ends in text (to the next
 * heading line), or 0. */
static int rule_section(const char *text, const char *prefix, int id,
                        const char **begin, const char **end)
{
    *begin = NULL;
    for (const char *p = text; *p;) {
        int here = line_id(p, prefix);
        if (*begin && here) {
            *end = p;
            return 1;
        }
        if (here == id)
            *begin = p;
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    *end = text + strlen(text);
    return *begin != NULL;
}

/* ---- Parameters ------------------------------------------------------------------- */

static int is_name_char(char ch)
{
    return islower((unsigned char)ch) || isdigit((unsigned char)ch) || ch == '_';
}

/* The placeholder starting at p ("{name}"): its length, the name in name;
 * 0 if p does not start a well-formed one. */
static size_t placeholder_at(const char *p, char *name, size_t n)
{
    if (*p != '{')
        return 0;
    size_t i = 1;
    while (is_name_char(p[i]))
        i++;
    if (i == 1 || p[i] != '}' || i - 1 >= n)
        return 0;
    memcpy(name, p + 1, i - 1);
    name[i - 1] = '\0';
    return i + 1;
}

/* (b) Every brace opens a placeholder {NAME} of a parameter of v; no other
 * brace is left for the core to misread. */
static int check_placeholders(const char *text, const VariantOps *v, char *msg)
{
    int lineno = 1;
    for (const char *p = text; *p; p++) {
        char name[64];
        size_t len = placeholder_at(p, name, sizeof name);
        if (*p == '\n')
            lineno++;
        else if (*p == '}')
            return fail_with(msg, "line %d: a '}' that closes no {NAME}", lineno);
        else if (*p == '{' && !len)
            return fail_with(msg, "line %d: a '{' that opens no {NAME}", lineno);
        else if (len && params_index(v, name) < 0)
            return fail_with(msg, "line %d: {%s} is not a parameter of %s", lineno, name,
                             v->name);
        if (len)
            p += len - 1;
    }
    return 0;
}

/* (b) Every parameter tied to a rule appears as {NAME}; when its rule is
 * one of the variant's own (prefix), inside that rule's section. */
static int check_params_shown(const char *text, const VariantOps *v, const char *prefix,
                              char *msg)
{
    for (int i = 0; i < v->nparams; i++) {
        const ParamDef *d = &v->params[i];
        if (!d->rule)
            continue;
        char ph[80];
        snprintf(ph, sizeof ph, "{%s}", d->name);
        const char *begin = text, *end = text + strlen(text);
        int own = id_at(d->rule, prefix);
        if (own && !rule_section(text, prefix, own, &begin, &end))
            return fail_with(msg, "%s belongs to %s, which has no section", ph, d->rule);
        const char *at = strstr(begin, ph);
        if (!at || at >= end)
            return fail_with(msg, "%s (%s) is not shown%s%s", ph, d->rule,
                             own ? " in the section of " : "", own ? d->rule : "");
    }
    return 0;
}

/* The widest value parameter d may print. */
static int value_width(const ParamDef *d)
{
    char buf[32];
    int w = 3; /* "off" */
    if (d->type == PARAM_INT) {
        int a = snprintf(buf, sizeof buf, "%d", d->min);
        int b = snprintf(buf, sizeof buf, "%d", d->max);
        w = a > b ? a : b;
    } else if (d->type == PARAM_ENUM) {
        w = 0;
        for (int i = 0; d->choices[i]; i++)
            if ((int)strlen(d->choices[i]) > w)
                w = (int)strlen(d->choices[i]);
    }
    return w;
}

/* Every line still fits in 80 columns once each {NAME} is its widest value
 * followed by a mark of MARK_ROOM columns. */
static int check_expanded_width(const char *text, const VariantOps *v, char *msg)
{
    int lineno = 1, width = 0;
    for (const char *p = text; *p; p++) {
        char name[64];
        size_t len = placeholder_at(p, name, sizeof name);
        if (*p == '\n') {
            width = 0;
            lineno++;
            continue;
        }
        if (len) {
            int i = params_index(v, name);
            width += (i < 0 ? 0 : value_width(&v->params[i])) + MARK_ROOM;
            p += len - 1;
        } else {
            width += ((unsigned char)*p & 0xC0) != 0x80;
        }
        if (width > SCREEN_COLS)
            return fail_with(msg, "line %d: over %d columns once its values are shown",
                             lineno, SCREEN_COLS);
    }
    return 0;
}

/* ---- All checks ------------------------------------------------------------------- */

static int check_all(const RulesCase *c, const char *text, char *msg)
{
    const VariantOps *v = tu_variant(c->variant);
    int ids[MAX_IDS];
    int nids = rules_doc_ids(c, ids);
    if (check_layout(text, msg) || check_ids(text, c->prefix, ids, nids, msg) ||
        check_placeholders(text, v, msg) || check_params_shown(text, v, c->prefix, msg) ||
        check_expanded_width(text, v, msg))
        return -1;
    return 0;
}

/* A copy of text with the first `old` replaced by `new`; the test fails if
 * old is not there (the breakage would test nothing). */
static char *replaced(const char *text, const char *old, const char *new)
{
    const char *at = strstr(text, old);
    if (!at)
        fail_msg("\"%s\" is not in the text: nothing to break", old);
    size_t head = (size_t)(at - text), lo = strlen(old), ln = strlen(new);
    char *s = malloc(strlen(text) - lo + ln + 1);
    assert_non_null(s);
    memcpy(s, text, head);
    memcpy(s + head, new, ln);
    strcpy(s + head + ln, at + lo);
    return s;
}

/* The check of case c refuses text, with a reason containing `want`. */
static void assert_refused(const RulesCase *c, char *text, const char *want)
{
    char msg[MSG] = "";
    if (check_all(c, text, msg) == 0)
        fail_msg("%s: a text broken for \"%s\" passed the checks", c->variant, want);
    if (!strstr(msg, want))
        fail_msg("%s: refused for \"%s\", expected a reason with \"%s\"", c->variant, msg,
                 want);
    free(text);
}

static void check_case(const RulesCase *c)
{
    char msg[MSG] = "";
    if (check_all(c, c->text, msg))
        fail_msg("%s rules text: %s", c->variant, msg);
}

/* ---- The real texts ---------------------------------------------------------------- */

/* ORTH-1..9: the orthodox text (castling in ORTH-5, the draws in ORTH-9). */
static void test_orth_rules_text(void **state)
{
    (void)state;
    check_case(&CASES[0]);
}

/* MASQ-1..16: the Masqués text, every parameter in its rule. */
static void test_masq_rules_text(void **state)
{
    (void)state;
    check_case(&CASES[1]);
}

/* AMBI-1..7: the ambigus text, the mate rule's parameters in AMBI-6. */
static void test_ambi_rules_text(void **state)
{
    (void)state;
    check_case(&CASES[2]);
}

/* ECHQ-1..13: the Échiqueté text, each house-rule parameter in its rule. */
static void test_echq_rules_text(void **state)
{
    (void)state;
    check_case(&CASES[3]);
}

/* TILE-1..12: the Tile Chess text, pawns in TILE-1, first in TILE-2,
 * orthogonal_pawns in TILE-5, lenient_trapped in TILE-6. */
static void test_tile_rules_text(void **state)
{
    (void)state;
    check_case(&CASES[4]);
}

/* Every parameter of each variant that is tied to a rule is there
 * (a second look at (b), from the parameter tables' side). */
static void test_rules_text_every_rule_parameter(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(CASES); k++) {
        const VariantOps *v = tu_variant(CASES[k].variant);
        int shown = 0;
        for (int i = 0; i < v->nparams; i++) {
            char ph[80];
            snprintf(ph, sizeof ph, "{%s}", v->params[i].name);
            if (v->params[i].rule && !strstr(CASES[k].text, ph))
                fail_msg("%s: %s is missing", v->name, ph);
            shown += v->params[i].rule != NULL;
        }
        assert_true(shown > 0); /* every variant has the ORTH-9 draws */
    }
}

/* ---- docs/RULES.md ------------------------------------------------------------------ */

/* Issue 19 point 1: docs/RULES.md states every rule of every variant, ids
 * 1 .. N as the variant's summary gives them, each with a statement. */
static void test_rules_doc_states_every_rule(void **state)
{
    (void)state;
    for (size_t k = 0; k < ARRAY_LEN(CASES); k++) {
        int ids[MAX_IDS];
        int last = summary_last(tu_variant(CASES[k].variant), CASES[k].prefix);
        assert_true(last > 0); /* the summary gives the range */
        assert_int_equal(rules_doc_ids(&CASES[k], ids), last);
    }
}

/* Issue 19 point 1: every rule id that README.md or a page of docs/
 * cites is stated in docs/RULES.md. */
static void test_docs_cite_only_stated_rules(void **state)
{
    (void)state;
    char *doc = read_file(RULES_DOC);
    char msg[MSG];
    char *text = read_file("README.md");
    if (check_cited(doc, text, msg))
        fail_msg("README.md: %s", msg);
    free(text);
    DIR *d = opendir("docs");
    assert_non_null(d);
    int pages = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n < 4 || strcmp(de->d_name + n - 3, ".md") != 0)
            continue;
        char path[512];
        snprintf(path, sizeof path, "docs/%s", de->d_name);
        text = read_file(path);
        if (check_cited(doc, text, msg))
            fail_msg("%s: %s", path, msg);
        free(text);
        pages++;
    }
    closedir(d);
    free(doc);
    assert_true(pages > 5);
}

/* The checks of docs/RULES.md refuse a rule missing, stated twice, out of
 * order, beyond the summary's range or without a statement, and a doc
 * citing a rule that is not stated. */
static void test_rules_doc_checks_fail(void **state)
{
    (void)state;
    char *doc = read_file(RULES_DOC);
    int ids[MAX_IDS];
    char msg[MSG] = "";
    const struct {
        const char *old, *new, *prefix;
        int last;
        const char *want;
    } broken[] = {
        {"- **MASQ-7 ", "- **MASQ-8 ", "MASQ", 16, "MASQ-7 was due"},
        {"- **MASQ-16 ", "- **MASQ-17 ", "MASQ", 16, "MASQ-16 was due"},
        {"- **MASQ-16 ", "- MASQ-16 ", "MASQ", 16, "MASQ-16 is not stated"},
        {"- **TILE-12 ", "- **TILE-11 ", "TILE", 12, "TILE-12 was due"},
        {"- **ORTH-9 ", "- **ORTH-9 x.**\n\n- ", "ORTH", 9, "ORTH-9 has no statement"},
        {"\n\n## L'Échiqueté", "\n- **MASQ-17 Seventeen.** A rule the variant's summary "
                               "does not have.\n\n## L'Échiqueté",
         "MASQ", 16, "no rule after MASQ-16"},
    };
    assert_int_equal(doc_rule_ids(doc, "MASQ", 16, ids, msg), 16);
    for (size_t i = 0; i < ARRAY_LEN(broken); i++) {
        char *bad = replaced(doc, broken[i].old, broken[i].new);
        msg[0] = '\0';
        if (doc_rule_ids(bad, broken[i].prefix, broken[i].last, ids, msg) >= 0)
            fail_msg("a RULES.md broken for \"%s\" passed", broken[i].want);
        if (!strstr(msg, broken[i].want))
            fail_msg("refused for \"%s\", expected \"%s\"", msg, broken[i].want);
        free(bad);
    }
    assert_int_equal(check_cited(doc, "ORTH-9, MASQ-1..16, TILE-12 and AMBI-7", msg), 0);
    assert_int_equal(check_cited(doc, "see\nECHQ-14", msg), -1);
    assert_non_null(strstr(msg, "line 2 cites ECHQ-14"));
    free(doc);
}

/* ---- The checks catch broken texts -------------------------------------------------- */

/* (c) Columns are characters: 77 x and an é make 78 columns (79 bytes) and
 * pass; one x more fails. Tabs, trailing spaces, bad UTF-8, a missing
 * final newline fail. */
static void test_rules_text_layout_checks_fail(void **state)
{
    (void)state;
    const RulesCase *c = &CASES[2];
    char msg[MSG];
    char line[160];
    memset(line, 'x', 77);
    strcpy(line + 77, "\xC3\xA9\n");
    char buf[200];
    snprintf(buf, sizeof buf, "\n%sAMBI-2 ", line);
    char *fine = replaced(c->text, "\nAMBI-2 ", buf);
    if (check_all(c, fine, msg))
        fail_msg("a line of 78 columns (79 bytes) was refused: %s", msg);
    free(fine);
    snprintf(buf, sizeof buf, "\nx%sAMBI-2 ", line);
    assert_refused(c, replaced(c->text, "\nAMBI-2 ", buf), "79 columns");
    assert_refused(c, replaced(c->text, "    If only", "\tIf only"), "a tab");
    assert_refused(c, replaced(c->text, "(unambiguous),", "(unambiguous), \n"),
                   "trailing space");
    assert_refused(c, replaced(c->text, "Type the square", "Type \xC3( square"),
                   "not valid UTF-8");
    assert_refused(c, replaced(c->text, "Type the square", "Type \xC0\xAF square"),
                   "not valid UTF-8");
    char *cut = strdup(c->text);
    cut[strlen(cut) - 1] = '\0';
    assert_refused(c, cut, "newline");
}

/* (a) A rule missing, out of order, twice, or a stray heading fails. */
static void test_rules_text_id_checks_fail(void **state)
{
    (void)state;
    const RulesCase *c = &CASES[1];
    assert_refused(c, replaced(c->text, "MASQ-16 End", "MASQ-17 End"), "MASQ-16 was due");
    assert_refused(c, replaced(c->text, "MASQ-16 End", "        End"), "MASQ-16 has no line");
    assert_refused(c, replaced(c->text, "MASQ-7  Mask mate", "MASQ-8  Mask mate"),
                   "MASQ-7 was due");
    assert_refused(c, replaced(c->text, "MASQ-4  Taking", "MASQ-3  Taking"),
                   "MASQ-4 was due");
    assert_refused(c, replaced(c->text, "    attacker's whole move", "    MASQ-2 whole move"),
                   "was due");
    const RulesCase *o = &CASES[0];
    assert_refused(o, replaced(o->text, "ORTH-1  Board", "  ORTH-2  Board"), "ORTH-1 was due");
}

/* (b) An unknown {NAME}, a stray brace, a parameter not shown or shown
 * outside its rule's section, a line too wide once expanded: all fail. */
static void test_rules_text_param_checks_fail(void **state)
{
    (void)state;
    const RulesCase *c = &CASES[1];
    assert_refused(c, replaced(c->text, "{allin}", "{all_in}"), "not a parameter");
    assert_refused(c, replaced(c->text, "{allin}", "{allin"), "opens no");
    assert_refused(c, replaced(c->text, "{allin}", "allin}"), "closes no");
    assert_refused(c, replaced(c->text, "{allin}", "{}"), "opens no");
    assert_refused(c, replaced(c->text, "{mask_mate}", "mask_mate"), "{mask_mate}");
    /* the all-in threshold shown only under MASQ-7: not in MASQ-11 */
    char *moved = replaced(c->text, "{allin}", "allin");
    assert_refused(c, replaced(moved, "{mask_mate}", "{mask_mate} {allin}"),
                   "in the section of MASQ-11");
    free(moved);
    const RulesCase *o = &CASES[0];
    assert_refused(o, replaced(o->text, "{castling}", "castling"), "{castling}");
    assert_refused(o, replaced(o->text, "{fivefold}", "fivefold"), "{fivefold}");
    /* 71 columns and three values: too wide once they are shown */
    assert_refused(o,
                   replaced(o->text, "castling={castling}: off drops every castling right at "
                                     "the start.",
                            "castling={castling}, {castling}, {castling}: off drops every "
                            "right."),
                   "once its values are shown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orth_rules_text),
        cmocka_unit_test(test_masq_rules_text),
        cmocka_unit_test(test_ambi_rules_text),
        cmocka_unit_test(test_echq_rules_text),
        cmocka_unit_test(test_tile_rules_text),
        cmocka_unit_test(test_rules_text_every_rule_parameter),
        cmocka_unit_test(test_rules_doc_states_every_rule),
        cmocka_unit_test(test_docs_cite_only_stated_rules),
        cmocka_unit_test(test_rules_doc_checks_fail),
        cmocka_unit_test(test_rules_text_layout_checks_fail),
        cmocka_unit_test(test_rules_text_id_checks_fail),
        cmocka_unit_test(test_rules_text_param_checks_fail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
