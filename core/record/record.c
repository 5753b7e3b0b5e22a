/*
 * record.c -- write a game as a text record and rebuild a game from one.
 *
 * Saving writes the tags that rebuild the GameConfig, the result, then
 * each history entry as "N. SEAT: TEXT".  Loading reads the tags, starts
 * the game, and replays every action line with game_play, exactly as a
 * person typing them would; the Result tag is then checked against the
 * replay, which catches truncated files.
 *
 * Invariant: record_load either returns a game that is the saved game, or
 * NULL with "source:line: problem" and nothing leaked; it never reads past
 * the text it was given, whatever the bytes are.
 */
/* realpath (a link is followed to the record it names) is XSI. */
#define _XOPEN_SOURCE 700
#include "record.h"
#include "../lua/house.h"
#include "../sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Tags that rebuild the game or check it.  New ones (a future "Rules" tag
 * for house-rule scripts) are added here; see docs/RECORDS.md. */
enum {
    TAG_VARIANT,
    TAG_SEED,
    TAG_SIDES,
    TAG_SEATS,
    TAG_PARAMS,
    TAG_POSITION,
    TAG_RESULT,
    TAG_TERMINATION,
    TAG_SHOWN,
    TAG_SETUP_POSITION,
    TAG__COUNT
};

static const char *const tag_names[TAG__COUNT] = {
    "Variant", "Seed", "Sides", "Seats", "Params", "Position", "Result",
    "Termination", "Shown", "SetupPosition"};

/* The house-rule scripts: each one a Rule tag (its name), a RuleSha256
 * tag (the digest of its text) and RuleText tags (its text, one line of
 * the script per tag, in order), repeated per script in the order they
 * were applied. */
static const char *const rule_tags[] = {"Rule", "RuleSha256", "RuleText"};
#define RECORD_MAX_RULES 16
#define RECORD_RULE_MAX_BYTES (1u << 20)

/* Tags for people (PGN habits) that do not change the game: accepted and
 * ignored.  Any other tag is an error, because a tag this build does not
 * understand may change the game, and replaying without it would silently
 * give a different game. */
static const char *const info_tags[] = {"Event", "Site",      "Date",
                                        "Round", "Annotator", "Comment"};

/* Longest file record_load_file accepts: far more than any game. */
#define RECORD_MAX_BYTES (16u << 20)

/* A value quoted in a message: its head, never cut inside a character. */
typedef struct Quote {
    char s[48];
} Quote;

static const char *quote(Quote *q, const char *value)
{
    return str_clip(q->s, sizeof q->s, value);
}

/* ---- Saving ------------------------------------------------------------ */

/* A value that must fit on one line of the record. */
static int one_line(const char *s)
{
    return strpbrk(s, "\r\n") == NULL;
}

static int put_tag(StrBuf *out, const char *name, const char *value)
{
    if (!one_line(value))
        return -1;
    sb_printf(out, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_putc(out, '\\');
        sb_putc(out, *p);
    }
    sb_puts(out, "\"]\n");
    return 0;
}

/* A script's text as RuleText tags, one per line of the script (its line
 * end included): \n, \r, \t, \", \\ and \xHH for the other control
 * bytes, the bytes of a C1 control and every byte that is not UTF-8, so
 * every byte comes back exactly and the record is UTF-8 text without
 * control characters (issue 20 point 5). */
static void put_rule_text(StrBuf *out, const GameScript *sc)
{
    size_t i = 0;
    while (i < sc->len) {
        sb_puts(out, "[RuleText \"");
        for (; i < sc->len; i++) {
            unsigned char c = (unsigned char)sc->text[i];
            if (c == '\n')
                sb_puts(out, "\\n");
            else if (c == '\r')
                sb_puts(out, "\\r");
            else if (c == '\t')
                sb_puts(out, "\\t");
            else if (c == '"' || c == '\\')
                sb_printf(out, "\\%c", c);
            else if (c < 0x20 || c == 0x7f)
                sb_printf(out, "\\x%02x", c);
            else if (c >= 0x80) {
                const unsigned char *p = (const unsigned char *)sc->text + i;
                size_t k = utf8_seq_len(p, sc->len - i);
                if (!k || (c == 0xC2 && p[1] < 0xA0)) { /* not UTF-8, or C1 */
                    for (size_t j = 0; j < (k ? k : 1); j++)
                        sb_printf(out, "\\x%02x", p[j]);
                } else
                    sb_putn(out, (const char *)p, k);
                i += (k ? k : 1) - 1;
            } else
                sb_putc(out, (char)c);
            if (c == '\n') {
                i++;
                break;
            }
        }
        sb_puts(out, "\"]\n");
    }
}

/* The name a record gives a script: the base name of the file it came
 * from, never the directories on the player's disk (issue 20 point 6);
 * the digest and the text identify it.  A record written before keeps
 * its path in the Rule tag: the loaded game drops it too. */
static const char *rule_name(const char *name)
{
    const char *slash = strrchr(name, '/');
    return slash && slash[1] ? slash + 1 : name;
}

static int put_rules(StrBuf *out, const GameConfig *cfg)
{
    int rc = 0;
    for (int i = 0; i < cfg->nscripts; i++) {
        const GameScript *sc = &cfg->scripts[i];
        char hex[65];
        sha256_hex(sc->text, sc->len, hex);
        rc |= put_tag(out, "Rule", rule_name(sc->name));
        rc |= put_tag(out, "RuleSha256", hex);
        put_rule_text(out, sc);
    }
    return rc;
}

/* The seat as the record names it: its name, or its number when the name
 * could not be read back from an action line. */
static void put_seat(StrBuf *out, const Game *g, int seat)
{
    const char *name = game_seat_name(g, seat);
    if (name && *name && !strpbrk(name, ":\r\n") &&
        game_seat_by_name(g, name) == seat)
        sb_puts(out, name);
    else
        sb_printf(out, "%d", seat);
}

int record_save(const Game *g, StrBuf *out)
{
    unsigned long failures = cv_alloc_failures();
    const GameConfig *cfg = game_config(g);
    StrBuf tmp = STRBUF_INIT;
    char buf[64];
    int rc = 0;

    unsigned kept = game_secret_seats(g);
    if (game_hidden_info(g) && game_to_act(g) >= 0) {
        sb_puts(out, "# A game in progress with hidden facts: this record holds every\n"
                     "# seat's secrets (it is needed to resume). Do not read it while\n"
                     "# the game is on; chessvar play --load FILE resumes it.\n");
    } else if (kept) { /* over: what the seats that did not show kept hidden */
        sb_puts(out, "# A finished game with hidden facts: this record holds what");
        for (int s = 0, k = 0; s < game_nseats(g); s++)
            if (kept & (1u << s))
                sb_printf(out, "%s%s", k++ ? " and " : " ", game_seat_name(g, s));
        sb_puts(out, "\n# kept hidden after the end: whoever reads it learns them.\n");
    }
    rc |= put_tag(out, "Variant", game_variant(g)->name);
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)cfg->seed);
    rc |= put_tag(out, "Seed", buf);
    snprintf(buf, sizeof buf, "%d", game_nsides(g));
    rc |= put_tag(out, "Sides", buf);
    if (game_nseats(g) != game_nsides(g)) {
        snprintf(buf, sizeof buf, "%d", game_nseats(g));
        rc |= put_tag(out, "Seats", buf);
    }
    params_diff(game_variant(g), game_params(g), &tmp);
    if (tmp.len > 0)
        rc |= put_tag(out, "Params", sb_str(&tmp));
    sb_free(&tmp);
    if (cfg->position)
        rc |= put_tag(out, game_setup_made(g) && cfg->nscripts ? "SetupPosition"
                                                                : "Position",
                      cfg->position);
    rc |= put_tag(out, "Result", game_result_text(g, buf, sizeof buf));
    Status st;
    game_status(g, &st);
    if (st.over && st.reason[0])
        rc |= put_tag(out, "Termination", st.reason);
    if (game_shown(g)) {
        sb_reset(&tmp);
        for (int s = 0; s < game_nseats(g); s++)
            if (game_shown(g) & (1u << s))
                sb_printf(&tmp, "%s%s", tmp.len ? " " : "", game_seat_name(g, s));
        rc |= put_tag(out, "Shown", sb_str(&tmp));
        sb_free(&tmp);
    }
    rc |= put_rules(out, cfg);

    int n = game_history_len(g);
    if (n > 0)
        sb_putc(out, '\n');
    for (int i = 0; i < n; i++) {
        const HistoryEntry *h = game_history(g, i);
        /* An action that cannot be read back makes the record useless. */
        if (!h->text[0] || !one_line(h->text))
            rc = -1;
        sb_printf(out, "%d. ", i + 1);
        put_seat(out, g, h->action.seat);
        sb_printf(out, ": %s\n", h->text);
    }
    return rc || sb_failed(out) || cv_alloc_failures() != failures ? -1 : 0;
}

/* What a path that exists but is no regular file is, for messages. */
static const char *file_kind(mode_t m)
{
    return S_ISDIR(m) ? "is a directory" : S_ISFIFO(m) ? "is not a regular file (a FIFO)"
         : S_ISSOCK(m) ? "is not a regular file (a socket)"
         : "is not a regular file (a device)";
}

/* Create a new file beside target for its replacement: target's name
 * with ".PID.N.tmp" added, so it is in the same directory (rename is then
 * atomic).  The descriptor, or -1 with errno. */
static int temp_beside(const char *target, StrBuf *name)
{
    for (int n = 0; n < 100; n++) {
        sb_reset(name);
        sb_printf(name, "%s.%ld.%d.tmp", target, (long)getpid(), n);
        int fd = open(sb_str(name), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Write all of text to fd and sync it; 0 or an errno value. */
static int write_synced(int fd, const char *text, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, text, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : EIO;
        text += w;
        len -= (size_t)w;
    }
    return fsync(fd) == 0 ? 0 : errno;
}

/* Sync the directory holding path, so the rename itself is durable; a
 * failure here loses nothing that was there before, so it is ignored. */
static void sync_dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path))
                      : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_CLOEXEC) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

int record_save_file(const Game *g, const char *path, Error *e)
{
    char clip[100]; /* the path as messages show it: a long one is clipped,
                     * so the reason after it is never cut off */
    const char *named = str_clip(clip, sizeof clip, path);
    StrBuf text = STRBUF_INIT, tmp = STRBUF_INIT;
    unsigned long failures = cv_alloc_failures();
    if (record_save(g, &text) < 0) {
        int oom = cv_alloc_failures() != failures;
        sb_free(&text);
        if (oom)
            return err_set(e, "%s: out of memory", named);
        return err_set(e, "%s: this game cannot be written as a record "
                          "(an action has no one-line text)", named);
    }
    /* Replace the file a symbolic link points to, not the link. */
    char *real = realpath(path, NULL);
    const char *target = real ? real : path;
    struct stat st;
    int have_old = stat(target, &st) == 0, err = 0, fd = -1;
    if (have_old && !S_ISREG(st.st_mode)) {
        err_set(e, "%s %s: a record is written to a file", named, file_kind(st.st_mode));
        goto out;
    }
    fd = temp_beside(target, &tmp);
    if (fd < 0) {
        err = errno;
        goto out;
    }
    if (have_old)
        fchmod(fd, st.st_mode & 07777); /* keep the old record's permissions */
    err = write_synced(fd, sb_str(&text), text.len);
    if (close(fd) != 0 && !err)
        err = errno;
    if (!err && rename(sb_str(&tmp), target) != 0)
        err = errno;
    if (err)
        unlink(sb_str(&tmp));
    else
        sync_dir_of(target);
out:
    if (err)
        err_set(e, "%s: cannot write: %s (%s)", named, strerror(err),
                have_old ? "the old record is unchanged" : "nothing was written");
    int failed = err || (have_old && !S_ISREG(st.st_mode));
    free(real);
    sb_free(&text);
    sb_free(&tmp);
    return failed ? -1 : 0;
}

/* ---- Seats ------------------------------------------------------------- */


/* ---- Loading ------------------------------------------------------------ */

/* One script as the record gives it. */
typedef struct RuleSrc {
    StrBuf name, text;
    char sha[65];
    int line, sha_line;          /* of its Rule and RuleSha256 tags */
} RuleSrc;

typedef struct Loader {
    RuleSrc rules[RECORD_MAX_RULES];
    int nrules;
    const char *src;             /* name for messages */
    Error *e;
    StrBuf tag[TAG__COUNT];      /* values of the tags seen */
    int tag_line[TAG__COUNT];    /* line of each tag, 0 if absent */
    const VariantOps *const *variants; /* where Variant names are found */
    RecordConsent consent;       /* asked before the scripts run; NULL: not */
    void *consent_ctx;
    const HouseLimits *lim;      /* the scripts' limits; NULL: the defaults */
    Game *g;                     /* started at the first action line */
} Loader;

/* Fill e with "src:line: message"; always -1. */
static int load_fail(Loader *L, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int load_fail(Loader *L, int line, const char *fmt, ...)
{
    char msg[sizeof(L->e->msg)];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_set(L->e, "%s:%d: %s", L->src, line, msg);
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_alpha(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Make b->s a writable string even when nothing was written to b. */
static void rec_cstr(StrBuf *b)
{
    sb_putc(b, '\0');
    if (!sb_failed(b))
        b->len--;
}

/* Decimal digits only, no sign, no overflow. */
static int parse_u64(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    if (!is_digit(*s))
        return -1;
    for (; *s; s++) {
        if (!is_digit(*s))
            return -1;
        unsigned d = (unsigned)(*s - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

static int hex_digit(char c)
{
    return is_digit(c) ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* After a backslash at *s: the byte of \n \r \t \xHH (*s left on the
 * escape's last character), or -1 for another escape. */
static int rich_escape(const char **s)
{
    const char *p = *s;
    if (*p == 'n' || *p == 'r' || *p == 't')
        return *p == 'n' ? '\n' : *p == 'r' ? '\r' : '\t';
    if (*p == 'x' && hex_digit(p[1]) >= 0 && hex_digit(p[2]) >= 0) {
        *s = p + 2;
        return hex_digit(p[1]) * 16 + hex_digit(p[2]);
    }
    return -1;
}

/* "[Name "value"]", value with \" and \\ escapes, into name and value. */
static int parse_tag_line(Loader *L, int line, const char *s, StrBuf *name,
                          StrBuf *value)
{
    static const char form[] = "expected a tag like [Name \"value\"]";
    Quote q;
    s++; /* '[' */
    while (is_space(*s))
        s++;
    if (!is_alpha(*s))
        return load_fail(L, line, "bad tag: %s", form);
    while (is_alpha(*s) || is_digit(*s) || *s == '_')
        sb_putc(name, *s++);
    if (!is_space(*s) && *s != '"')
        return load_fail(L, line, "bad tag name: %s", form);
    while (is_space(*s))
        s++;
    if (*s != '"')
        return load_fail(L, line, "bad tag %s: the value must be in "
                         "double quotes (%s)", quote(&q, sb_str(name)), form);
    /* A script's text (RuleText) also has \n \r \t \xHH. */
    int rich = strcmp(sb_str(name), "RuleText") == 0;
    for (s++; *s != '"'; s++) {
        if (!*s)
            return load_fail(L, line, "bad tag %s: no closing quote",
                             quote(&q, sb_str(name)));
        if (*s == '\\') {
            s++;
            int c = rich ? rich_escape(&s) : -1;
            if (c >= 0) {
                sb_putc(value, (char)c);
                continue;
            }
            if (*s != '"' && *s != '\\')
                return load_fail(L, line, "bad tag %s: unknown escape "
                                 "in the value (only \\\" and \\\\ are "
                                 "allowed%s)", quote(&q, sb_str(name)),
                                 rich ? ", and \\n \\r \\t \\xHH" : "");
        }
        sb_putc(value, *s);
    }
    s++;
    while (is_space(*s))
        s++;
    if (*s != ']')
        return load_fail(L, line, "bad tag %s: expected ']' after the "
                         "value", quote(&q, sb_str(name)));
    s++;
    while (is_space(*s))
        s++;
    if (*s)
        return load_fail(L, line, "bad tag %s: text after ']'",
                         quote(&q, sb_str(name)));
    rec_cstr(value);
    return 0;
}

/* Rule, RuleSha256, RuleText (kind 0, 1, 2): the scripts, in order. */
static int read_rule_tag(Loader *L, int line, int kind, StrBuf *value)
{
    RuleSrc *r = L->nrules ? &L->rules[L->nrules - 1] : NULL;
    Quote q;
    if (kind == 0) {
        if (L->nrules == RECORD_MAX_RULES)
            return load_fail(L, line, "more than %d Rule tags", RECORD_MAX_RULES);
        if (!value->len)
            return load_fail(L, line, "Rule: the script's name is empty");
        r = &L->rules[L->nrules++];
        r->name = *value; /* the loader owns the value now */
        sb_init(value);
        rec_cstr(&r->text);
        r->line = line;
        return 0;
    }
    if (!r)
        return load_fail(L, line, "%s before any Rule tag (a script's tags follow "
                         "its Rule tag)", rule_tags[kind]);
    if (kind == 1) {
        if (r->sha_line)
            return load_fail(L, line, "second RuleSha256 tag for the rule \"%s\" (the first "
                             "is on line %d)", quote(&q, sb_str(&r->name)), r->sha_line);
        size_t n = 0;
        while (n < value->len && hex_digit(value->s[n]) >= 0 &&
               !(value->s[n] >= 'A' && value->s[n] <= 'F'))
            n++;
        if (value->len != 64 || n != 64)
            return load_fail(L, line, "RuleSha256 must be 64 lower-case hex digits, "
                             "not \"%s\"", quote(&q, sb_str(value)));
        memcpy(r->sha, value->s, 65);
        r->sha_line = line;
        return 0;
    }
    if (r->text.len + value->len > RECORD_RULE_MAX_BYTES)
        return load_fail(L, line, "the text of the rule \"%s\" is over %u bytes",
                         quote(&q, sb_str(&r->name)), RECORD_RULE_MAX_BYTES);
    sb_putn(&r->text, value->s, value->len);
    rec_cstr(&r->text);
    return 0;
}

static int read_tag(Loader *L, int line, const char *s)
{
    StrBuf name = STRBUF_INIT, value = STRBUF_INIT;
    int rc = parse_tag_line(L, line, s, &name, &value);
    for (int k = 0; rc == 0 && k < (int)ARRAY_LEN(rule_tags); k++)
        if (!strcmp(sb_str(&name), rule_tags[k])) {
            rc = read_rule_tag(L, line, k, &value);
            sb_free(&name);
            sb_free(&value);
            return rc;
        }
    int i = 0;
    while (rc == 0 && i < TAG__COUNT && strcmp(tag_names[i], sb_str(&name)))
        i++;
    if (rc == 0 && i < TAG__COUNT) {
        if (L->tag_line[i])
            rc = load_fail(L, line, "second %s tag (the first is on line "
                           "%d)", tag_names[i], L->tag_line[i]);
        else {
            L->tag[i] = value; /* the loader owns the value now */
            sb_init(&value);
            L->tag_line[i] = line;
        }
    } else if (rc == 0) {
        size_t k = 0;
        while (k < ARRAY_LEN(info_tags) && strcmp(info_tags[k], sb_str(&name)))
            k++;
        if (k == ARRAY_LEN(info_tags)) {
            StrBuf known = STRBUF_INIT;
            for (int t = 0; t < TAG__COUNT; t++)
                sb_printf(&known, "%s%s", t ? ", " : "", tag_names[t]);
            for (k = 0; k < ARRAY_LEN(rule_tags); k++)
                sb_printf(&known, ", %s", rule_tags[k]);
            for (k = 0; k < ARRAY_LEN(info_tags); k++)
                sb_printf(&known, ", %s", info_tags[k]);
            Quote q;
            rc = load_fail(L, line, "unknown tag %s (known tags: %s)",
                           quote(&q, sb_str(&name)), sb_str(&known));
            sb_free(&known);
        }
    }
    sb_free(&name);
    sb_free(&value);
    return rc;
}

static int missing_tag(Loader *L, int line, int tag, const char *example)
{
    return load_fail(L, line, "the record has no %s tag before its actions "
                     "(every record carries one, e.g. [%s \"%s\"])",
                     tag_names[tag], tag_names[tag], example);
}

static int config_variant(Loader *L, int line, GameConfig *cfg)
{
    if (!L->tag_line[TAG_VARIANT])
        return missing_tag(L, line, TAG_VARIANT, "orthodox");
    const char *name = sb_str(&L->tag[TAG_VARIANT]);
    for (int i = 0; L->variants[i]; i++)
        if (str_ieq(name, L->variants[i]->name)) {
            cfg->variant = L->variants[i];
            return 0;
        }
    StrBuf valid = STRBUF_INIT;
    for (int i = 0; L->variants[i]; i++)
        sb_printf(&valid, "%s%s", i ? ", " : "", L->variants[i]->name);
    Quote q;
    load_fail(L, L->tag_line[TAG_VARIANT], "unknown variant \"%s\" "
              "(valid variants: %s)", quote(&q, name), sb_str(&valid));
    sb_free(&valid);
    return -1;
}

/* The parameters: the defaults, then the scripts', then the Params tag
 * (the game's own, written by params_diff, so it has the last word). */
static int config_params(Loader *L, GameConfig *cfg, House *h)
{
    params_defaults(cfg->variant, &cfg->params);
    cfg->params_set = 1;
    Error he;
    if (h && house_params(h, &cfg->params, &he))
        return load_fail(L, L->rules[0].line, "%s", he.msg);
    if (!L->tag_line[TAG_PARAMS])
        return 0;
    /* NAME=VALUE words separated by white space; edited in place. */
    char *p = L->tag[TAG_PARAMS].s;
    while (p && *p) {
        while (is_space(*p))
            p++;
        if (!*p)
            break;
        char *word = p;
        while (*p && !is_space(*p))
            p++;
        char saved = *p;
        *p = '\0';
        Error pe;
        pe.msg[0] = '\0';
        int rc = params_set(cfg->variant, &cfg->params, word, &pe);
        *p = saved;
        if (rc < 0)
            return load_fail(L, L->tag_line[TAG_PARAMS], "Params: %s",
                             pe.msg);
    }
    return 0;
}

/* A small count tag (Sides, Seats) within [lo, hi]. */
static int config_count(Loader *L, int tag, int lo, int hi, int *out)
{
    uint64_t v;
    Quote q;
    if (parse_u64(sb_str(&L->tag[tag]), &v) < 0 || v < (uint64_t)lo ||
        v > (uint64_t)hi)
        return load_fail(L, L->tag_line[tag], "%s must be a number from %d "
                         "to %d here, not \"%s\"", tag_names[tag], lo, hi,
                         quote(&q, sb_str(&L->tag[tag])));
    *out = (int)v;
    return 0;
}

/* Rebuild the GameConfig from the tags and start the game; line is where
 * the tags ended (for missing ones). */
/* The scripts of the Rule tags, each checked against its digest, loaded
 * into a House for nsides sides.  0 with *out NULL when there are none. */
static int load_rules(Loader *L, const VariantOps *v, int nsides, House **out)
{
    HouseSource src[RECORD_MAX_RULES];
    Quote q;
    *out = NULL;
    for (int i = 0; i < L->nrules; i++) {
        RuleSrc *r = &L->rules[i];
        char hex[65];
        if (!r->sha_line)
            return load_fail(L, r->line, "the rule \"%s\" has no RuleSha256 tag",
                             quote(&q, sb_str(&r->name)));
        sha256_hex(r->text.s ? r->text.s : "", r->text.len, hex);
        if (strcmp(hex, r->sha))
            return load_fail(L, r->sha_line, "the text of the rule \"%s\" does not match "
                             "its RuleSha256: the record was edited or damaged (the "
                             "game can only be replayed with the script it was played "
                             "with)", quote(&q, sb_str(&r->name)));
        src[i].name = rule_name(sb_str(&r->name)); /* an old record's path: dropped */
        src[i].text = r->text.s ? r->text.s : "";
        src[i].len = r->text.len;
    }
    if (L->nrules == 0)
        return 0;
    Error he;
    if (L->consent) { /* issue 20 point 6: nothing of theirs has run yet */
        RecordScript rs[RECORD_MAX_RULES];
        for (int i = 0; i < L->nrules; i++) {
            rs[i].name = src[i].name;
            rs[i].sha256 = L->rules[i].sha;
            rs[i].len = L->rules[i].text.len;
        }
        he.msg[0] = '\0';
        if (L->consent(L->consent_ctx, v, rs, L->nrules, &he))
            return err_set(L->e, "%s", he.msg);
    }
    *out = house_load(v, nsides, src, L->nrules, L->lim, &he);
    if (!*out)
        return load_fail(L, L->rules[0].line, "%s", he.msg);
    return 0;
}

/* SetupPosition: the rules' setup builds the start again from the seed;
 * it must build the position the record says. */
static int check_setup(Loader *L)
{
    const char *want = sb_str(&L->tag[TAG_SETUP_POSITION]);
    const char *got = game_config(L->g)->position;
    Quote q, r;
    if (!game_setup_made(L->g))
        return load_fail(L, L->tag_line[TAG_SETUP_POSITION], "SetupPosition, but no "
                         "Rule builds a start position (a setup)");
    if (!got || strcmp(got, want))
        return load_fail(L, L->tag_line[TAG_SETUP_POSITION], "SetupPosition says "
                         "\"%s\" but the rules' setup builds \"%s\" from this seed",
                         quote(&q, want), quote(&r, got ? got : ""));
    return 0;
}

static int start_game(Loader *L, int line)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    if (config_variant(L, line, &cfg) < 0)
        return -1;
    const VariantOps *v = cfg.variant;
    Quote q;
    if (!L->tag_line[TAG_SEED])
        return missing_tag(L, line, TAG_SEED, "1");
    if (parse_u64(sb_str(&L->tag[TAG_SEED]), &cfg.seed) < 0)
        return load_fail(L, L->tag_line[TAG_SEED], "Seed must be a whole "
                         "number from 0 to %llu, not \"%s\"",
                         (unsigned long long)UINT64_MAX,
                         quote(&q, sb_str(&L->tag[TAG_SEED])));
    if (!L->tag_line[TAG_SIDES])
        return missing_tag(L, line, TAG_SIDES, "2");
    if (config_count(L, TAG_SIDES, v->min_sides, v->max_sides,
                     &cfg.nsides) < 0)
        return -1;
    cfg.nseats = cfg.nsides;
    if (L->tag_line[TAG_SEATS] &&
        config_count(L, TAG_SEATS, 1, MAX_SEATS, &cfg.nseats) < 0)
        return -1;
    if (!L->tag_line[TAG_RESULT])
        return missing_tag(L, line, TAG_RESULT, "*");
    if (L->tag_line[TAG_POSITION] && L->tag_line[TAG_SETUP_POSITION])
        return load_fail(L, L->tag_line[TAG_SETUP_POSITION], "both Position and "
                         "SetupPosition: a start is given or built, not both");
    if (L->tag_line[TAG_POSITION])
        cfg.position = sb_str(&L->tag[TAG_POSITION]);
    House *h;
    if (load_rules(L, v, cfg.nsides, &h) < 0)
        return -1;
    if (config_params(L, &cfg, h) < 0) {
        house_free(h);
        return -1;
    }
    GameHooks hooks;
    memset(&hooks, 0, sizeof hooks);
    if (h) {
        hooks = house_hooks(h);
        cfg.scripts = house_scripts(h);
        cfg.nscripts = house_count(h);
    }

    Error ge;
    ge.msg[0] = '\0';
    L->g = game_new_hooked(&cfg, &hooks, &ge);
    house_free(h); /* the game holds it now */
    if (L->g)
        return L->tag_line[TAG_SETUP_POSITION] ? check_setup(L) : 0;
    if (L->tag_line[TAG_POSITION])
        return load_fail(L, L->tag_line[TAG_POSITION], "Position: %s",
                         ge.msg);
    return load_fail(L, L->tag_line[TAG_VARIANT], "cannot start the game: "
                     "%s", ge.msg);
}

/* "N. SEAT: TEXT" -> replayed on L->g. */
static int read_action(Loader *L, int line, char *s)
{
    static const char form[] = "expected an action line like "
                                "\"12. white: Nf3\"";
    uint64_t num = 0;
    int digits = 0;
    while (is_digit(*s)) {
        if (++digits > 9)
            return load_fail(L, line, "action number too large");
        num = num * 10 + (uint64_t)(*s++ - '0');
    }
    if (!digits || *s != '.')
        return load_fail(L, line, "%s", form);
    s++;
    char *colon = strchr(s, ':');
    if (!colon)
        return load_fail(L, line, "%s (no ':' after the seat)", form);
    *colon = '\0';
    char *seat_name = str_trim(s);
    char *text = str_trim(colon + 1);
    int expect = game_history_len(L->g) + 1;
    if (num != (uint64_t)expect)
        return load_fail(L, line, "action number %llu is out of sequence "
                         "(expected %d)", (unsigned long long)num, expect);
    int seat = game_seat_by_name(L->g, seat_name);
    Quote q;
    if (seat < 0) {
        StrBuf seats = STRBUF_INIT;
        for (int i = 0; i < game_nseats(L->g); i++)
            sb_printf(&seats, "%s%s (%d)", i ? ", " : "", game_seat_name(L->g, i), i);
        load_fail(L, line, "unknown seat \"%s\" (the seats are: %s)",
                  quote(&q, seat_name), sb_str(&seats));
        sb_free(&seats);
        return -1;
    }
    if (!*text)
        return load_fail(L, line, "no action after \"%s:\"", quote(&q, seat_name));
    /* Issue 8, item 5: a longer text would reach the game cut short. */
    if (strlen(text) > ACTION_TEXT_MAX)
        return load_fail(L, line, "the action \"%s\" is too long (%zu bytes; an "
                         "action text has at most %d)", quote(&q, text), strlen(text),
                         ACTION_TEXT_MAX);
    Error pe;
    pe.msg[0] = '\0';
    if (game_play(L->g, seat, text, &pe) < 0)
        return load_fail(L, line, "%s cannot play \"%s\": %s",
                         game_seat_name(L->g, seat), quote(&q, text), pe.msg);
    return 0;
}

/* After the last line: the replay must end as the tags say. */
static int check_result(Loader *L)
{
    char got[64];
    game_result_text(L->g, got, sizeof got);
    const char *want = sb_str(&L->tag[TAG_RESULT]);
    Quote q;
    if (strcmp(got, want))
        return load_fail(L, L->tag_line[TAG_RESULT], "Result says \"%s\" "
                         "but replaying the actions gives \"%s\" (is the "
                         "record truncated or edited?)", quote(&q, want), got);
    if (!L->tag_line[TAG_TERMINATION])
        return 0;
    Status st;
    game_status(L->g, &st);
    const char *term = sb_str(&L->tag[TAG_TERMINATION]);
    if (!st.over)
        return load_fail(L, L->tag_line[TAG_TERMINATION], "Termination "
                         "\"%s\" but the game is not over after the "
                         "actions", quote(&q, term));
    if (strcmp(st.reason, term))
        return load_fail(L, L->tag_line[TAG_TERMINATION], "Termination "
                         "says \"%s\" but the game ended by \"%s\"", quote(&q, term),
                         st.reason);
    return 0;
}

/* Shown "white black": the seats that showed their pieces after the end. */
static int apply_shown(Loader *L)
{
    if (!L->tag_line[TAG_SHOWN])
        return 0;
    char *p = L->tag[TAG_SHOWN].s;
    while (*p) {
        size_t n = strcspn(p, " ");
        char name[32];
        if (n == 0 || n >= sizeof name)
            return load_fail(L, L->tag_line[TAG_SHOWN], "Shown: give seat names "
                             "separated by one space");
        memcpy(name, p, n);
        name[n] = '\0';
        int seat = game_seat_by_name(L->g, name);
        Error e;
        Quote q;
        if (seat < 0)
            return load_fail(L, L->tag_line[TAG_SHOWN], "Shown: no seat \"%s\"",
                             quote(&q, name));
        if (game_show(L->g, seat, &e))
            return load_fail(L, L->tag_line[TAG_SHOWN], "Shown: %s", e.msg);
        p += n + (p[n] == ' ');
    }
    return 0;
}

/* One line, without its end, into buf; returns the start of the next line
 * or NULL at the end of the text. */
static const char *next_line(const char *p, StrBuf *buf)
{
    const char *end = strchr(p, '\n');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    sb_reset(buf);
    sb_putn(buf, p, n);
    rec_cstr(buf);
    return end ? end + 1 : NULL;
}

static int load_lines(Loader *L, const char *text)
{
    StrBuf buf = STRBUF_INIT;
    int line = 0, rc = 0;
    const char *p = text;
    if (!strncmp(p, "\xEF\xBB\xBF", 3))
        p += 3; /* a UTF-8 byte order mark some editors add */
    while (rc == 0 && p && *p) {
        p = next_line(p, &buf);
        line++;
        if (sb_failed(&buf) || !buf.s) {
            rc = load_fail(L, line, "out of memory");
            break;
        }
        char *s = str_trim(buf.s), why[80];
        /* Tags reach screens, messages and JSON: a record is UTF-8 text
         * without control characters (tabs aside), its scripts' bytes
         * escaped (issue 20 point 5). */
        if (text_check(s, strlen(s), TEXT_TAB, why, sizeof why)) {
            rc = load_fail(L, line, "%s (a record is UTF-8 text without control "
                           "characters)", why);
            break;
        }
        if (!*s || *s == '#')
            continue;
        if (*s == '[') {
            if (L->g)
                rc = load_fail(L, line, "tag after the first action (all "
                               "tags come before the actions)");
            else
                rc = read_tag(L, line, s);
            continue;
        }
        if (!L->g && start_game(L, line) < 0)
            rc = -1;
        else
            rc = read_action(L, line, s);
    }
    if (rc == 0 && !L->g)
        rc = start_game(L, line > 0 ? line : 1);
    if (rc == 0)
        rc = check_result(L);
    if (rc == 0)
        rc = apply_shown(L);
    sb_free(&buf);
    return rc;
}

Game *record_load(const char *text, const char *source_name, Error *e)
{
    return record_load_from(text, source_name, variant_registry, e);
}

static Game *load_text(const char *text, const char *source_name,
                       const VariantOps *const *variants, RecordConsent consent,
                       void *ctx, const HouseLimits *lim, Error *e);

Game *record_load_from(const char *text, const char *source_name,
                       const VariantOps *const *variants, Error *e)
{
    return load_text(text, source_name, variants, NULL, NULL, NULL, e);
}

static Game *load_text(const char *text, const char *source_name,
                       const VariantOps *const *variants, RecordConsent consent,
                       void *ctx, const HouseLimits *lim, Error *e)
{
    Loader L;
    memset(&L, 0, sizeof L);
    L.src = source_name ? source_name : "record";
    L.variants = variants;
    L.consent = consent;
    L.consent_ctx = ctx;
    L.lim = lim;
    Error local;
    L.e = e ? e : &local;
    for (int i = 0; i < TAG__COUNT; i++)
        sb_init(&L.tag[i]);
    unsigned long failures = cv_alloc_failures();
    int rc = text ? load_lines(&L, text)
                  : err_set(L.e, "%s: no record text", L.src);
    /* memory that ran out anywhere (a line or a tag cut short) voids the
     * load: what was read is not the record */
    if (cv_alloc_failures() != failures)
        rc = err_set(L.e, "%s: out of memory", L.src);
    for (int i = 0; i < TAG__COUNT; i++)
        sb_free(&L.tag[i]);
    for (int i = 0; i < L.nrules; i++) {
        sb_free(&L.rules[i].name);
        sb_free(&L.rules[i].text);
    }
    if (rc < 0) {
        game_free(L.g);
        return NULL;
    }
    return L.g;
}

/* Open path for reading if it is a regular file: opened without waiting
 * (a FIFO without a writer would block), checked, then made blocking.
 * NULL with e otherwise. */
static FILE *open_regular(const char *path, const char *what, Error *e)
{
    char clip[100]; /* the path as messages show it: a long one is clipped,
                     * so the reason after it is never cut off */
    const char *named = str_clip(clip, sizeof clip, path);
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        err_set(e, "%s: cannot read: %s", named, strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (!S_ISREG(st.st_mode)) {
        err_set(e, "%s %s: a %s is a file", named, file_kind(st.st_mode), what);
        close(fd);
        return NULL;
    }
    int flags = fcntl(fd, F_GETFL);
    FILE *f = flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0
                  ? fdopen(fd, "rb") : NULL;
    if (!f) {
        err_set(e, "%s: cannot read: %s", named, strerror(errno));
        close(fd);
    }
    return f;
}

int record_read_file(const char *path, const char *what, size_t max, StrBuf *out,
                     Error *e)
{
    char clip[100]; /* the path as messages show it: a long one is clipped,
                     * so the reason after it is never cut off */
    const char *named = str_clip(clip, sizeof clip, path);
    FILE *f = open_regular(path, what, e);
    if (!f)
        return -1;
    char chunk[8192];
    size_t n;
    int too_big = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        if (out->len + n > max) {
            too_big = 1;
            break;
        }
        sb_putn(out, chunk, n);
    }
    int bad = ferror(f) ? (errno ? errno : EIO) : 0;
    fclose(f);
    if (bad)
        return err_set(e, "%s: cannot read: %s", named, strerror(bad));
    if (too_big)
        return err_set(e, "%s: too large for a %s (over %zu bytes)", named, what, max);
    if (sb_failed(out))
        return err_set(e, "%s: out of memory", named);
    return 0;
}

Game *record_load_file(const char *path, Error *e)
{
    return record_load_file_asking(path, NULL, NULL, NULL, e);
}

Game *record_load_file_asking(const char *path, RecordConsent consent, void *ctx,
                              const HouseLimits *lim, Error *e)
{
    char clip[100];
    const char *named = str_clip(clip, sizeof clip, path);
    StrBuf text = STRBUF_INIT;
    Game *g = NULL;
    if (record_read_file(path, "record", RECORD_MAX_BYTES, &text, e) == 0) {
        if (text.len > 0 && memchr(text.s, '\0', text.len)) {
            /* A NUL would silently end the text early: name its line. */
            const char *nul = memchr(text.s, '\0', text.len);
            int line = 1;
            for (const char *q = text.s; q < nul; q++)
                line += *q == '\n';
            err_set(e, "%s:%d: a NUL byte (this is not a text record)", named, line);
        } else {
            g = load_text(sb_str(&text), named, variant_registry, consent, ctx, lim, e);
        }
    }
    sb_free(&text);
    return g;
}
