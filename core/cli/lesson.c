/*
 * lesson.c -- lesson files and lessons played answer by answer (issue 22
 * point 3; the format: docs/LESSONS.md).
 *
 * Invariant: a lesson's game changes only by a right answer, tried first
 * on a copy with the replies that follow it; every refusal comes with the
 * lesson's explanation.  The parser reads a whole file or nothing, and
 * each error names the file, the line and the fault.
 */
#include "lesson.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "../lua/house.h"
#include "../record/record.h"

/* ---- Small helpers ------------------------------------------------------- */

static void free_step(LessonStep *s)
{
    for (int i = 0; i < s->nalts; i++)
        free(s->alt[i]);
    for (int i = 0; i < s->ntargets; i++)
        free(s->target[i]);
    for (int i = 0; i < s->nwrong; i++)
        free(s->wrong[i]);
}

static void free_lesson(Lesson *l)
{
    free(l->title);
    free(l->goal);
    free(l->explain);
    free(l->success);
    free(l->result);
    free(l->position);
    free(l->ruleset);
    for (int i = 0; i < l->nparams; i++)
        free(l->param[i]);
    for (int i = 0; i < l->nhouse; i++)
        free(l->house[i]);
    for (int i = 0; i < l->nhints; i++)
        free(l->hint[i]);
    for (int i = 0; i < l->nsteps; i++)
        free_step(&l->step[i]);
}

void lesson_file_free(LessonFile *f)
{
    if (!f)
        return;
    for (int i = 0; i < f->n; i++)
        free_lesson(&f->v[i]);
    free(f->v);
    free(f->path);
    memset(f, 0, sizeof *f);
}

/* A rule id at p ("ORTH-3"): its length, 0 if there is none. */
static size_t rule_id_len(const char *p)
{
    size_t n = 0;
    while (p[n] >= 'A' && p[n] <= 'Z')
        n++;
    if (n == 0 || p[n] != '-' || !isdigit((unsigned char)p[n + 1]))
        return 0;
    n++;
    while (isdigit((unsigned char)p[n]))
        n++;
    return n;
}

int lesson_rule_ids(const VariantOps *v, char ids[][LESSON_ID_MAX + 1], int max)
{
    int n = 0;
    if (v->version < 2 || !v->rules)
        return 0;
    /* each rule heads its own section: "ORTH-3  En passant." at a line's start */
    for (const char *p = v->rules; *p && n < max; p = strchr(p, '\n') ? strchr(p, '\n') + 1
                                                                      : p + strlen(p)) {
        size_t k = rule_id_len(p);
        if (k && k <= LESSON_ID_MAX && p[k] == ' ') {
            memcpy(ids[n], p, k);
            ids[n][k] = '\0';
            n++;
        }
    }
    return n;
}

/* ---- Parsing --------------------------------------------------------------- */

typedef struct Parser {
    const char *path;
    LessonFile *f;
    Lesson *cur;           /* the lesson being read, NULL before the first */
    char **cont;           /* the text a continuation line extends */
    int line;
    Error *e;
} Parser;

static int perr(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int perr(Parser *p, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char clip[100];
    err_set(p->e, "%s:%d: %s", str_clip(clip, sizeof clip, p->path), p->line, msg);
    return -1;
}

/* A text key given once per lesson. */
static int set_text(Parser *p, char **slot, const char *key, const char *val)
{
    if (*slot)
        return perr(p, "%s: given twice in lesson %s", key, p->cur->id);
    *slot = cv_strdup(val);
    if (!*slot)
        return perr(p, "out of memory");
    p->cont = slot;
    return 0;
}

/* Append to a list of texts (at most max). */
static int add_text(Parser *p, char **list, int *n, int max, const char *key, const char *val)
{
    if (*n == max)
        return perr(p, "too many %s: entries in this lesson or step (at most %d)", key, max);
    list[*n] = cv_strdup(val);
    if (!list[*n])
        return perr(p, "out of memory");
    p->cont = &list[*n];
    (*n)++;
    return 0;
}

static int parse_count(Parser *p, const char *key, const char *val, int lo, int hi, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(val, &end, 10);
    if (!isdigit((unsigned char)val[0]) || *end || errno || x < lo || x > hi)
        return perr(p, "%s: '%s' is not a number from %d to %d", key, val, lo, hi);
    *out = (int)x;
    return 0;
}

/* The rule ids of teaches: separated by spaces or commas, each one of the
 * variant's. */
static int parse_teaches(Parser *p, const char *val)
{
    Lesson *l = p->cur;
    char ids[64][LESSON_ID_MAX + 1];
    int nids = lesson_rule_ids(p->f->variant, ids, 64);
    for (const char *s = val; *s;) {
        s += strspn(s, " ,");
        size_t k = strcspn(s, " ,");
        if (!k)
            break;
        if (k > LESSON_ID_MAX)
            return perr(p, "teaches: '%.*s' is not a rule id", (int)(k > 40 ? 40 : k), s);
        char id[LESSON_ID_MAX + 1];
        memcpy(id, s, k);
        id[k] = '\0';
        int found = k > 4 && strcmp(id + k - 4, ".lua") == 0; /* a house: script's,
                                                                  checked at the end */
        for (int i = 0; i < nids; i++)
            found |= strcmp(ids[i], id) == 0;
        if (!found)
            return perr(p, "teaches: %s is not a rule of %s (its rules: %s .. %s, "
                           "chessvar rules %s; or a house: script's name, x.lua)", id,
                        p->f->variant->name,
                        nids ? ids[0] : "none", nids ? ids[nids - 1] : "none",
                        p->f->variant->name);
        if (l->nrules == LESSON_MAX_IDS)
            return perr(p, "teaches: more than %d rule ids", LESSON_MAX_IDS);
        memcpy(l->rule[l->nrules++], id, k + 1);
        s += k;
    }
    if (!l->nrules)
        return perr(p, "teaches: name the rule ids the lesson teaches (e.g. %s-1)",
                    nids ? ids[0] : "ORTH-1");
    return 0;
}

/* play: the texts separated by '|', each trimmed. */
static int parse_play(Parser *p, const char *val, int reply)
{
    Lesson *l = p->cur;
    if (l->nsteps == LESSON_MAX_STEPS)
        return perr(p, "more than %d play: and reply: lines in one lesson", LESSON_MAX_STEPS);
    LessonStep *st = &l->step[l->nsteps];
    memset(st, 0, sizeof *st);
    st->reply = reply;
    st->line = p->line;
    l->nsteps++;
    if (reply) {
        if (strchr(val, '|'))
            return perr(p, "reply: one action (the opponent's scripted answer), no '|'");
        return add_text(p, st->alt, &st->nalts, 1, "reply", val);
    }
    for (const char *s = val; *s;) {
        size_t k = strcspn(s, "|");
        char buf[ACTION_TEXT_MAX + 1];
        if (k > ACTION_TEXT_MAX)
            return perr(p, "play: an action of more than %d bytes", ACTION_TEXT_MAX);
        memcpy(buf, s, k);
        buf[k] = '\0';
        str_trim(buf);
        if (!buf[0])
            return perr(p, "play: an empty answer between '|'");
        if (add_text(p, st->alt, &st->nalts, LESSON_MAX_ALTS, "play", buf))
            return -1;
        s += k + (s[k] == '|');
    }
    p->cont = NULL; /* a play: line is one line */
    return 0;
}

/* The learner's step that a target: or wrong: line belongs to: the last
 * play: above it. */
static LessonStep *last_play(Parser *p, const char *key)
{
    Lesson *l = p->cur;
    if (l->nsteps && !l->step[l->nsteps - 1].reply)
        return &l->step[l->nsteps - 1];
    perr(p, "%s: must follow the play: line of the step it belongs to", key);
    return NULL;
}

/* Is the lesson complete?  Checked at the next lesson: and at the end. */
static int lesson_complete(Parser *p)
{
    Lesson *l = p->cur;
    if (!l)
        return 0;
    int save = p->line;
    p->line = l->line;
    const char *missing = !l->title ? "title" : !l->nrules ? "teaches" : !l->goal ? "goal"
                          : !l->seat[0] ? "seat" : !l->explain ? "explain" : NULL;
    int plays = 0, wrongs = 0;
    for (int i = 0; i < l->nsteps; i++) {
        plays += !l->step[i].reply;
        wrongs += l->step[i].nwrong;
    }
    const char *script = NULL; /* a .lua that teaches names and no house: has */
    for (int i = 0; i < l->nrules && !script; i++) {
        size_t k = strlen(l->rule[i]);
        if (k <= 4 || strcmp(l->rule[i] + k - 4, ".lua"))
            continue;
        script = l->rule[i];
        for (int j = 0; j < l->nhouse && script; j++) {
            const char *slash = strrchr(l->house[j], '/');
            if (strcmp(slash ? slash + 1 : l->house[j], l->rule[i]) == 0)
                script = NULL;
        }
    }
    int rc = 0;
    if (script)
        rc = perr(p, "lesson %s: teaches: %s is not the file name of one of its house: "
                     "scripts", l->id, script);
    else if (missing)
        rc = perr(p, "lesson %s has no %s: line", l->id, missing);
    else if (!plays)
        rc = perr(p, "lesson %s has no play: line (the learner's answer)", l->id);
    else if (!wrongs)
        rc = perr(p, "lesson %s has no wrong: line (an answer a player of orthodox chess "
                     "might try, which the lesson must refuse)", l->id);
    p->line = save;
    return rc;
}

static int new_lesson(Parser *p, const char *val)
{
    if (lesson_complete(p))
        return -1;
    size_t n = strlen(val);
    if (!n || n > LESSON_ID_MAX || strspn(val, "abcdefghijklmnopqrstuvwxyz0123456789-") != n)
        return perr(p, "lesson: '%s' is not a lesson id (lower-case letters, digits and "
                       "'-', at most %d)", val, LESSON_ID_MAX);
    for (int i = 0; i < p->f->n; i++)
        if (strcmp(p->f->v[i].id, val) == 0)
            return perr(p, "lesson %s is given twice (line %d)", val, p->f->v[i].line);
    if (p->f->n == LESSON_MAX)
        return perr(p, "more than %d lessons in one file", LESSON_MAX);
    Lesson *v = cv_realloc(p->f->v, (size_t)(p->f->n + 1) * sizeof *v);
    if (!v)
        return perr(p, "out of memory");
    p->f->v = v;
    p->cur = &v[p->f->n++];
    memset(p->cur, 0, sizeof *p->cur);
    p->cur->line = p->line;
    p->cur->seed = 1;
    memcpy(p->cur->id, val, n + 1);
    p->cont = NULL;
    return 0;
}

static const char *const KEYS =
    "lesson, title, teaches, goal, param, house, ruleset, sides, seats, seed, position, seat, "
    "views, "
    "play, "
    "target, wrong, reply, result, hint, explain, success";

static int lesson_key(Parser *p, const char *key, const char *val)
{
    Lesson *l = p->cur;
    p->cont = NULL;
    if (!strcmp(key, "title")) return set_text(p, &l->title, key, val);
    if (!strcmp(key, "goal")) return set_text(p, &l->goal, key, val);
    if (!strcmp(key, "explain")) return set_text(p, &l->explain, key, val);
    if (!strcmp(key, "success")) return set_text(p, &l->success, key, val);
    if (!strcmp(key, "result")) return set_text(p, &l->result, key, val);
    if (!strcmp(key, "position")) {
        l->position_line = p->line;
        return set_text(p, &l->position, key, val);
    }
    if (!strcmp(key, "hint"))
        return add_text(p, l->hint, &l->nhints, LESSON_MAX_HINTS, key, val);
    if (!strcmp(key, "teaches")) {
        if (l->nrules)
            return perr(p, "teaches: given twice in lesson %s", l->id);
        return parse_teaches(p, val);
    }
    if (!strcmp(key, "param")) {
        Params prm;
        Error pe;
        params_defaults(p->f->variant, &prm);
        if (params_set(p->f->variant, &prm, val, &pe) < 0)
            return perr(p, "param: %s", pe.msg);
        if (add_text(p, l->param, &l->nparams, LESSON_MAX_PARAMS, key, val))
            return -1;
        p->cont = NULL;
        return 0;
    }
    if (!strcmp(key, "house")) { /* opened beside the lesson file */
        if (l->nhouse == LESSON_MAX_HOUSE)
            return perr(p, "too many house: scripts (at most %d)", LESSON_MAX_HOUSE);
        const char *slash = strrchr(p->path, '/');
        int dir = val[0] != '/' && slash ? (int)(slash - p->path) : 0;
        StrBuf b = STRBUF_INIT;
        sb_printf(&b, "%.*s%s%s", dir, p->path, dir ? "/" : "", val);
        if (sb_failed(&b)) {
            sb_free(&b);
            return perr(p, "out of memory");
        }
        l->house_line[l->nhouse] = p->line;
        l->house[l->nhouse++] = b.s;
        return 0;
    }
    if (!strcmp(key, "ruleset")) { /* one line of a rule set each (issue 24) */
        StrBuf b = STRBUF_INIT;
        sb_printf(&b, "%s%s\n", l->ruleset ? l->ruleset : "", val);
        if (sb_failed(&b)) {
            sb_free(&b);
            return perr(p, "out of memory");
        }
        free(l->ruleset);
        l->ruleset = b.s;
        if (!l->ruleset_line)
            l->ruleset_line = p->line;
        return 0;
    }
    if (!strcmp(key, "sides")) {
        l->sides_line = p->line;
        return parse_count(p, key, val, 1, MAX_SIDES, &l->sides);
    }
    if (!strcmp(key, "seats")) {
        l->seats_line = p->line;
        return parse_count(p, key, val, 1, MAX_SEATS, &l->seats);
    }
    if (!strcmp(key, "seed")) {
        char *end;
        errno = 0;
        unsigned long long x = strtoull(val, &end, 10);
        if (!isdigit((unsigned char)val[0]) || *end || errno)
            return perr(p, "seed: '%s' is not a whole number", val);
        l->seed = (uint64_t)x;
        return 0;
    }
    if (!strcmp(key, "seat")) {
        if (l->seat[0])
            return perr(p, "seat: given twice in lesson %s", l->id);
        if (strlen(val) > LESSON_ID_MAX || strchr(val, ' '))
            return perr(p, "seat: '%s' is not a seat name (white, black ...)", val);
        str_copy(l->seat, sizeof l->seat, val);
        l->seat_line = p->line;
        return 0;
    }
    if (!strcmp(key, "views")) {
        if (strcmp(val, "both") && strcmp(val, "own"))
            return perr(p, "views: '%s': write both (every seat's board, side by side) or "
                           "own (the learner's)", val);
        l->both_views = strcmp(val, "both") == 0;
        return 0;
    }
    if (!strcmp(key, "play")) return parse_play(p, val, 0);
    if (!strcmp(key, "reply")) return parse_play(p, val, 1);
    if (!strcmp(key, "target")) {
        LessonStep *st = last_play(p, key);
        if (!st)
            return -1;
        for (const char *s = val; *s;) {
            s += strspn(s, " ");
            size_t k = strcspn(s, " ");
            if (!k)
                break;
            char sq[GEO_SQ_MAX];
            if (k >= sizeof sq)
                return perr(p, "target: '%.*s' is not a square", (int)(k > 40 ? 40 : k), s);
            memcpy(sq, s, k);
            sq[k] = '\0';
            if (add_text(p, st->target, &st->ntargets, LESSON_MAX_TARGETS, key, sq))
                return -1;
            s += k;
        }
        p->cont = NULL;
        return 0;
    }
    if (!strcmp(key, "wrong")) {
        LessonStep *st = last_play(p, key);
        if (!st)
            return -1;
        if (st->nwrong < LESSON_MAX_WRONG)
            st->wrong_line[st->nwrong] = p->line;
        if (add_text(p, st->wrong, &st->nwrong, LESSON_MAX_WRONG, key, val))
            return -1;
        p->cont = NULL;
        return 0;
    }
    return perr(p, "unknown key '%s' (the keys: %s)", key, KEYS);
}

/* One line, its newline gone. */
static int parse_line(Parser *p, char *s)
{
    if (s[0] == '#')
        return 0;
    if (s[0] == ' ' || s[0] == '\t') { /* a continuation, or a blank line */
        str_trim(s);
        if (!s[0])
            return 0;
        if (!p->cont)
            return perr(p, "an indented line continues the text of a title:, goal:, "
                           "hint:, explain: or success: line, and none is above it");
        size_t a = strlen(*p->cont), b = strlen(s);
        char *t = cv_realloc(*p->cont, a + b + 2);
        if (!t)
            return perr(p, "out of memory");
        t[a] = ' ';
        memcpy(t + a + 1, s, b + 1);
        *p->cont = t;
        return 0;
    }
    str_trim(s);
    if (!s[0]) {
        p->cont = NULL;
        return 0;
    }
    char *colon = strchr(s, ':');
    if (!colon)
        return perr(p, "expected KEY: VALUE (the keys: %s)", KEYS);
    *colon = '\0';
    char *key = str_trim(s), *val = str_trim(colon + 1);
    if (!val[0])
        return perr(p, "%s: has no value", key);
    if (!strcmp(key, "variant")) {
        if (p->f->variant)
            return perr(p, "variant: given twice (one variant a file)");
        p->f->variant = variant_find(val);
        if (!p->f->variant)
            return perr(p, "variant: '%s' is not a variant (chessvar list)", val);
        return 0;
    }
    if (!p->f->variant)
        return perr(p, "the file must begin with variant: NAME (orthodox, masques, ...)");
    if (!strcmp(key, "lesson"))
        return new_lesson(p, val);
    if (!p->cur)
        return perr(p, "%s: comes before the first lesson: line", key);
    return lesson_key(p, key, val);
}

/* Where text stops being plain UTF-8 text (tabs and line ends allowed, CR
 * LF too): the offset of the first control character (C0, DEL, C1) or
 * byte that is not UTF-8, or len.  A control character could clear a
 * screen when the lesson is shown. */
static size_t first_bad(const char *text, size_t len)
{
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n' || c == '\t' || c == '\r' || (c >= 0x20 && c < 0x7f)) {
            i++;
            continue;
        }
        size_t n = c >= 0x80 ? utf8_seq_len((const unsigned char *)text + i, len - i) : 0;
        if (!n || (c == 0xc2 && (unsigned char)text[i + 1] < 0xa0))
            return i;
        i += n;
    }
    return len;
}

int lesson_file_parse(const char *path, const char *text, size_t len, LessonFile *out,
                      Error *e)
{
    memset(out, 0, sizeof *out);
    Parser p = {path, out, NULL, NULL, 0, e};
    out->path = cv_strdup(path);
    if (!out->path)
        return err_set(e, "out of memory");
    size_t bad = first_bad(text, len);
    if (bad < len) { /* named with its line */
        p.line = 1;
        for (size_t i = 0; i < bad; i++)
            p.line += text[i] == '\n';
        unsigned char c = (unsigned char)text[bad];
        if (c < 0x80 || (c == 0xc2 && utf8_seq_len((const unsigned char *)text + bad,
                                                   len - bad) == 2))
            perr(&p, "a control character (%s%02x): a lesson file is plain text",
                 c == 0xc2 ? "U+00" : "0x", c == 0xc2 ? (unsigned char)text[bad + 1] : c);
        else
            perr(&p, "bytes that are not UTF-8 text (0x%02x)", c);
        lesson_file_free(out);
        return -1;
    }
    const char *s = text, *end = text + len;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);
        p.line++;
        char *line = malloc(n + 1);
        if (!line) {
            perr(&p, "out of memory");
            lesson_file_free(out);
            return -1;
        }
        memcpy(line, s, n);
        line[n] = '\0';
        if (n && line[n - 1] == '\r')
            line[n - 1] = '\0';
        int rc = parse_line(&p, line);
        free(line);
        if (rc) {
            lesson_file_free(out);
            return -1;
        }
        s += n + (nl != NULL);
    }
    p.line++;
    if (!out->variant) {
        p.line = 1;
        perr(&p, "the file must begin with variant: NAME (orthodox, masques, ...)");
    } else if (!out->n) {
        perr(&p, "no lesson in the file (a lesson begins with lesson: ID)");
    } else if (!lesson_complete(&p)) {
        return 0;
    }
    lesson_file_free(out);
    return -1;
}

int lesson_file_read(const char *path, LessonFile *out, Error *e)
{
    StrBuf text = STRBUF_INIT;
    memset(out, 0, sizeof *out);
    int rc = record_read_file(path, "lesson file", LESSON_FILE_MAX, &text, e);
    if (rc == 0)
        rc = lesson_file_parse(path, text.s ? text.s : "", text.len, out, e);
    sb_free(&text);
    return rc;
}

const Lesson *lesson_find(const LessonFile *f, const char *key, Error *e)
{
    char *end;
    long k = strtol(key, &end, 10);
    for (int i = 0; i < f->n; i++)
        if (strcmp(f->v[i].id, key) == 0 || (isdigit((unsigned char)key[0]) && !*end &&
                                            k == i + 1))
            return &f->v[i];
    StrBuf b = STRBUF_INIT;
    for (int i = 0; i < f->n && b.len < 300; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", f->v[i].id);
    char clip[60];
    err_set(e, "no lesson '%s' in %s: give its number (1 to %d) or its name: %s",
            str_clip(clip, sizeof clip, key), f->path, f->n, sb_str(&b));
    sb_free(&b);
    return NULL;
}

/* ---- Playing a lesson --------------------------------------------------------- */

struct LessonRun {
    const Lesson *l;
    Game *g;
    int seat;
    int step;      /* the next step */
    int hints;     /* hints shown */
    int news;      /* messages already given to the learner */
};

const Lesson *lesson_of(const LessonRun *r) { return r->l; }
const Game *lesson_game(const LessonRun *r) { return r->g; }
int lesson_seat(const LessonRun *r) { return r->seat; }
int lesson_done(const LessonRun *r) { return r->step >= r->l->nsteps; }
const LessonStep *lesson_step(const LessonRun *r)
{
    return lesson_done(r) ? NULL : &r->l->step[r->step];
}

void lesson_why(const Lesson *l, StrBuf *out)
{
    sb_puts(out, "Why (");
    for (int i = 0; i < l->nrules; i++)
        sb_printf(out, "%s%s", i ? ", " : "", l->rule[i]);
    sb_printf(out, "): %s\n", l->explain);
}

/* The messages to the learner's seat since the last call. */
static void give_news(LessonRun *r, StrBuf *out)
{
    int n = game_message_count(r->g);
    for (; r->news < n; r->news++) {
        const char *m = game_message(r->g, r->news, r->seat);
        if (m)
            sb_printf(out, "%s\n", m);
    }
}

/* The seat and text of a reply: "black: accept" names the seat, "e5"
 * is the seat to act's (never the learner's). */
static int reply_seat(const Game *g, int learner, const char *text, const char **act)
{
    const char *colon = strchr(text, ':');
    *act = text;
    if (colon && colon - text < 16) {
        char name[16];
        memcpy(name, text, (size_t)(colon - text));
        name[colon - text] = '\0';
        int s = strspn(name, "0123456789") == strlen(name) ? -1 : game_seat_by_name(g, name);
        if (s >= 0) {
            *act = colon + 1 + strspn(colon + 1, " ");
            return s;
        }
    }
    int s = game_to_act(g);
    return s == learner ? -1 : s;
}

/* Play the replies from step k on g until a learner's step or the end:
 * the index of the next step, or -1 with e. */
static int play_replies(const Lesson *l, Game *g, int seat, int k, Error *e)
{
    for (; k < l->nsteps && l->step[k].reply; k++) {
        const char *act;
        int who = reply_seat(g, seat, l->step[k].alt[0], &act);
        if (who < 0 || who == seat)
            return err_set(e, "line %d: reply %s: %s", l->step[k].line, l->step[k].alt[0],
                           game_to_act(g) < 0 ? "the game is over" : "it is the learner's "
                           "turn (a reply is another seat's action: SEAT: ACTION names it)");
        if (game_play(g, who, act, e)) {
            err_prefix(e, "line %d: reply %s", l->step[k].line, l->step[k].alt[0]);
            return -1;
        }
    }
    return k;
}

LessonRun *lesson_start(const VariantOps *v, const Lesson *l, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.nsides = l->sides;
    cfg.nseats = l->seats;
    cfg.seed = l->seed;
    cfg.position = l->position;
    cfg.ruleset = l->ruleset;
    params_defaults(v, &cfg.params);
    for (int i = 0; i < l->nparams; i++)
        if (params_set(v, &cfg.params, l->param[i], e) < 0)
            return NULL;
    cfg.params_set = 1;
    if (l->seats && !(v->version >= 2 && v->max_seats)) {
        err_set(e, "line %d: seats: %s is played by one seat per side", l->seats_line,
                v->name);
        return NULL;
    }
    if (l->sides && (l->sides < v->min_sides || l->sides > v->max_sides)) {
        if (v->min_sides == v->max_sides)
            err_set(e, "line %d: sides: %s is played by %d sides", l->sides_line, v->name,
                    v->min_sides);
        else
            err_set(e, "line %d: sides: %s is played by %d to %d sides", l->sides_line,
                    v->name, v->min_sides, v->max_sides);
        return NULL;
    }
    GameHooks hooks;
    memset(&hooks, 0, sizeof hooks);
    House *h = NULL;
    if (l->nhouse) { /* the scripts first, on top of the lesson's parameters */
        h = cli_load_house(v, l->sides, (const char *const *)l->house, l->nhouse, e);
        if (!h || house_params(h, &cfg.params, e)) {
            err_prefix(e, "line %d: house", l->house_line[0]);
            house_free(h);
            return NULL;
        }
        hooks = house_hooks(h);
        cfg.scripts = house_scripts(h);
        cfg.nscripts = house_count(h);
    }
    LessonRun *r = cv_calloc(sizeof *r);
    if (!r) {
        house_free(h);
        err_set(e, "out of memory");
        return NULL;
    }
    r->l = l;
    r->g = game_new_hooked(&cfg, &hooks, e);
    house_free(h); /* the game holds it */
    if (!r->g) {
        if (e && l->ruleset_line && !strncmp(e->msg, "rule set", 8))
            err_prefix(e, "line %d: ruleset", l->ruleset_line);
        else if (l->position_line)
            err_prefix(e, "line %d: position", l->position_line);
        else if (l->sides_line || l->seats_line)
            err_prefix(e, "line %d: %s", l->sides_line ? l->sides_line : l->seats_line,
                       l->sides_line ? "sides" : "seats");
        free(r);
        return NULL;
    }
    r->seat = game_seat_by_name(r->g, l->seat);
    if (r->seat < 0 || strspn(l->seat, "0123456789") == strlen(l->seat)) {
        StrBuf b = STRBUF_INIT;
        for (int s = 0; s < game_nseats(r->g); s++)
            sb_printf(&b, "%s%s", s ? ", " : "", game_seat_name(r->g, s));
        err_set(e, "line %d: seat: no seat '%s' (the seats: %s)", l->seat_line, l->seat,
                sb_str(&b));
        sb_free(&b);
        lesson_run_free(r);
        return NULL;
    }
    r->step = play_replies(l, r->g, r->seat, 0, e);
    if (r->step >= 0 && game_to_act(r->g) < 0) { /* nothing left to answer */
        char buf[64];
        Status st;
        game_status(r->g, &st);
        err_set(e, "line %d: %s: the game is over before the first answer (%s, %s)",
                r->step > 0 ? l->step[r->step - 1].line
                : l->position_line ? l->position_line : l->line,
                r->step > 0 ? "reply" : "position", game_result_text(r->g, buf, sizeof buf),
                st.reason);
        r->step = -1;
    }
    if (r->step < 0) {
        lesson_run_free(r);
        return NULL;
    }
    return r;
}

void lesson_run_free(LessonRun *r)
{
    if (!r)
        return;
    game_free(r->g);
    free(r);
}

/* Do the actions that g's history holds from `from` on equal those of h? */
static int same_actions(const Game *g, const Game *h, int from)
{
    int n = game_history_len(g);
    if (n != game_history_len(h))
        return 0;
    for (int i = from; i < n; i++)
        if (!action_eq(&game_history(g, i)->action, &game_history(h, i)->action))
            return 0;
    return 1;
}

/* Does the last action of g land on one of the step's target squares? */
static int on_target(const Game *g, const LessonStep *st, int from)
{
    if (!st->ntargets || game_history_len(g) <= from)
        return 0;
    const Action *a = &game_history(g, game_history_len(g) - 1)->action;
    if (action_is_meta(a->kind) || a->kind == ACT_TAKEOVER || a->kind == ACT_PASS)
        return 0;
    const VariantOps *v = game_variant(g);
    Geometry geo = {1, 8, 8}; /* the core's default: the orthodox board */
    if (v->geometry)
        geo = v->geometry(g, game_state(g));
    char sq[GEO_SQ_MAX];
    geo_format_square(&geo, a->to, sq);
    for (int i = 0; i < st->ntargets; i++)
        if (str_ieq(sq, st->target[i]))
            return 1;
    return 0;
}

/* Is step k the learner's last? */
static int last_play_step(const Lesson *l, int k)
{
    for (int i = k + 1; i < l->nsteps; i++)
        if (!l->step[i].reply)
            return 0;
    return 1;
}

/* Has g ended with the lesson's result? */
static int has_result(const Game *g, const Lesson *l)
{
    char buf[64];
    return game_to_act(g) < 0 && strcmp(game_result_text(g, buf, sizeof buf), l->result) == 0;
}

int lesson_answer(LessonRun *r, const char *text, StrBuf *out)
{
    const Lesson *l = r->l;
    if (lesson_done(r)) {
        sb_puts(out, "The lesson is done.\n");
        return LESSON_DONE;
    }
    const LessonStep *st = &l->step[r->step];
    int from = game_history_len(r->g);
    Error e = {""};
    Game *c = game_clone(r->g);
    if (!c) {
        sb_puts(out, "out of memory\n");
        return LESSON_REFUSED;
    }
    if (game_play(c, r->seat, text, &e)) {
        game_free(c);
        sb_printf(out, "Not that: %s\n", e.msg);
        lesson_why(l, out);
        return LESSON_REFUSED;
    }
    int right = on_target(c, st, from);
    for (int i = 0; !right && i < st->nalts; i++) {
        Game *a = game_clone(r->g);
        right = a && game_play(a, r->seat, st->alt[i], NULL) == 0 && same_actions(c, a, from);
        game_free(a);
    }
    int next = play_replies(l, c, r->seat, r->step + 1, &e);
    int last = last_play_step(l, r->step);
    if (!right && last && l->result && next >= 0 && has_result(c, l))
        right = 1; /* any answer that ends the game as the goal asks */
    if (right && next >= 0 && last && l->result && !has_result(c, l)) {
        game_free(c);
        sb_printf(out, "Not that: %s does not end the game as the goal asks (%s).\n", text,
                  l->result);
        lesson_why(l, out);
        return LESSON_REFUSED;
    }
    if (!right || next < 0) {
        game_free(c);
        if (!right)
            sb_printf(out, "Not that: %s is legal here, but it does not reach the goal.\n",
                      text);
        else
            sb_printf(out, "Not that: this lesson cannot go on after it (%s)\n", e.msg);
        lesson_why(l, out);
        return LESSON_REFUSED;
    }
    game_free(r->g);
    r->g = c;
    r->step = next;
    r->hints = 0;
    give_news(r, out);
    if (!lesson_done(r))
        return LESSON_NEXT;
    sb_printf(out, "%s\n", l->success ? l->success : "Well done: the lesson is done.");
    return LESSON_DONE;
}

void lesson_news(LessonRun *r, StrBuf *out)
{
    give_news(r, out);
}

void lesson_hint(LessonRun *r, StrBuf *out)
{
    const Lesson *l = r->l;
    if (lesson_done(r)) {
        sb_puts(out, "The lesson is done.\n");
    } else if (r->hints < l->nhints) {
        sb_printf(out, "Hint: %s\n", l->hint[r->hints++]);
    } else {
        sb_printf(out, "No more hints. The answer: %s\n", l->step[r->step].alt[0]);
    }
}

/* ---- Checking a lesson ------------------------------------------------------------ */

static int verr(const LessonFile *f, const Lesson *l, int line, Error *e, const char *fmt,
                ...) __attribute__((format(printf, 5, 6)));

static int verr(const LessonFile *f, const Lesson *l, int line, Error *e, const char *fmt,
                ...)
{
    char msg[400], clip[100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(e, "%s:%d: lesson %s: %s", str_clip(clip, sizeof clip, f->path), line,
                   l->id, msg);
}

void lesson_where(const LessonFile *f, const Lesson *l, Error *e)
{
    int line = l->line, n = 0;
    const char *rest = e->msg;
    if (sscanf(e->msg, "line %d: %n", &line, &n) == 1 && n > 0)
        rest = e->msg + n;
    Error out;
    char clip[100];
    err_set(&out, "%s:%d: lesson %s: %s", str_clip(clip, sizeof clip, f->path), line, l->id,
            rest);
    *e = out;
}

int lesson_verify(const LessonFile *f, const Lesson *l, Error *e)
{
    LessonRun *r = lesson_start(f->variant, l, e);
    if (!r) {
        lesson_where(f, l, e);
        return -1;
    }
    Error se = {""};
    StrBuf out = STRBUF_INIT, why = STRBUF_INIT;
    lesson_why(l, &why);
    int rc = 0;
    while (!rc && !lesson_done(r)) {
        const LessonStep *st = &l->step[r->step];
        for (int i = 0; !rc && i < st->nalts; i++) {
            Game *a = game_clone(r->g);
            if (!a || game_play(a, r->seat, st->alt[i], &se))
                rc = verr(f, l, st->line, e, "the answer %s is refused: %s", st->alt[i],
                          a ? se.msg : "out of memory");
            game_free(a);
        }
        for (int i = 0; !rc && i < st->nwrong; i++) {
            Game *before = game_clone(r->g);
            sb_reset(&out);
            int got = lesson_answer(r, st->wrong[i], &out);
            if (got != LESSON_REFUSED)
                rc = verr(f, l, st->wrong_line[i], e, "the wrong answer %s is taken as right",
                          st->wrong[i]);
            else if (!before || !game_same(before, r->g))
                rc = verr(f, l, st->wrong_line[i], e, "the wrong answer %s changed the game",
                          st->wrong[i]);
            else if (!strstr(sb_str(&out), sb_str(&why)))
                rc = verr(f, l, st->wrong_line[i], e, "the refusal of %s lacks the "
                          "explanation", st->wrong[i]);
            game_free(before);
        }
        if (rc)
            break;
        sb_reset(&out);
        int line = st->line;
        if (lesson_answer(r, st->alt[0], &out) == LESSON_REFUSED) {
            char *nl = strchr(out.s, '\n');
            if (nl)
                *nl = '\0';
            rc = verr(f, l, line, e, "the solution %s is refused: %s", st->alt[0],
                      sb_str(&out));
        }
    }
    sb_free(&out);
    sb_free(&why);
    lesson_run_free(r);
    return rc;
}
