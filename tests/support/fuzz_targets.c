/*
 * fuzz_targets.c -- the fuzz targets and their invariant checks
 * (fuzz_targets.h, docs/FUZZING.md).
 *
 * Invariant: every check that fails goes through fuzz_fail, which names
 * the target, the line and the broken invariant, then aborts; nothing
 * here keeps state between calls (no mutable globals), so libFuzzer may
 * call a target millions of times in one process.
 */
#include <stdarg.h>
#include <stdio.h>
#include <ctype.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_targets.h"
#include "../../core/lab/bot.h"
#include "../../core/cli/cli.h"
#include "../../core/game.h"
#include "../../core/lua/house.h"
#include "../../core/record/record.h"
#include "../../core/sha256.h"


/* The wall time of one hook call under the fuzz targets (the default is
 * 1 s): a fuzzed script's endless loop costs milliseconds, not seconds. */
#define FUZZ_HOOK_MS 20

/* ---- Failing loudly ------------------------------------------------------- */

/* s[0..n) as a C string literal's contents, in b. */
static const char *escaped(const char *s, size_t n, StrBuf *b)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\\' || c == '"')
            sb_printf(b, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F)
            sb_putc(b, (char)c);
        else
            sb_printf(b, "\\x%02x", c);
    }
    return sb_str(b);
}

/* Print "fuzz: <what>" and, when given, the text it is about (escaped as a
 * C string), then abort: libFuzzer and the replay test both see it. */
__attribute__((noreturn, format(printf, 3, 4)))
static void fuzz_fail(const char *about, size_t about_len, const char *fmt, ...)
{
    va_list ap;
    fputs("fuzz: invariant broken: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (about) {
        fputs("\nfuzz: on \"", stderr);
        StrBuf b = STRBUF_INIT;
        fputs(escaped(about, about_len, &b), stderr);
        sb_free(&b);
        fputc('"', stderr);
    }
    fputc('\n', stderr);
    abort();
}

/* ---- UTF-8 ----------------------------------------------------------------- */

/* Length of the well-formed character at p (RFC 3629, table 3-7 of the
 * Unicode standard), or 0. */
static size_t utf8_char(const unsigned char *p, size_t left)
{
    unsigned c = p[0];
    if (c >= 0x01 && c < 0x80)
        return 1;
    size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0 || left < n)
        return 0;
    unsigned lo = 0x80, hi = 0xBF;  /* the range of the second byte */
    if (c == 0xE0)
        lo = 0xA0;       /* overlong */
    else if (c == 0xED)
        hi = 0x9F;       /* surrogates */
    else if (c == 0xF0)
        lo = 0x90;       /* overlong */
    else if (c == 0xF4)
        hi = 0x8F;       /* above U+10FFFF */
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if ((p[k] & 0xC0) != 0x80)
            return 0;
    return n;
}

int fuzz_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_char(p + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

/* ---- JSON (RFC 8259) --------------------------------------------------------- */

typedef struct Json {
    const char *s;
    size_t n, i;
    int depth;
} Json;

static int json_value(Json *j);

static void json_ws(Json *j)
{
    while (j->i < j->n && strchr(" \t\r\n", j->s[j->i]) && j->s[j->i])
        j->i++;
}

static int json_lit(Json *j, const char *w)
{
    size_t k = strlen(w);
    if (j->n - j->i < k || memcmp(j->s + j->i, w, k) != 0)
        return 0;
    j->i += k;
    return 1;
}

static int json_digits(Json *j)
{
    size_t from = j->i;
    while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
        j->i++;
    return j->i > from;
}

static int json_number(Json *j)
{
    if (j->i < j->n && j->s[j->i] == '-')
        j->i++;
    if (j->i < j->n && j->s[j->i] == '0')
        j->i++;
    else if (!json_digits(j))
        return 0;
    if (j->i < j->n && j->s[j->i] == '.') {
        j->i++;
        if (!json_digits(j))
            return 0;
    }
    if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
        j->i++;
        if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-'))
            j->i++;
        if (!json_digits(j))
            return 0;
    }
    return 1;
}

/* Four hex digits after "\u"; -1 if not. */
static long json_hex4(Json *j)
{
    if (j->n - j->i < 4)
        return -1;
    long v = 0;
    for (int k = 0; k < 4; k++) {
        char c = j->s[j->i++];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

static int json_escape(Json *j)
{
    if (j->i >= j->n)
        return 0;
    char c = j->s[j->i++];
    if (strchr("\"\\/bfnrt", c) && c)
        return 1;
    if (c != 'u')
        return 0;
    long u = json_hex4(j);
    if (u < 0 || (u >= 0xDC00 && u <= 0xDFFF))
        return 0;
    if (u >= 0xD800 && u <= 0xDBFF) {   /* a high surrogate needs its low one */
        if (!json_lit(j, "\\u"))
            return 0;
        long lo = json_hex4(j);
        return lo >= 0xDC00 && lo <= 0xDFFF;
    }
    return 1;
}

/* Strings are checked for structure here, for UTF-8 by the caller. */
static int json_string(Json *j)
{
    if (!json_lit(j, "\""))
        return 0;
    while (j->i < j->n) {
        unsigned char c = (unsigned char)j->s[j->i++];
        if (c == '"')
            return 1;
        if (c < 0x20)
            return 0;
        if (c == '\\' && !json_escape(j))
            return 0;
    }
    return 0;
}

/* The members of an object (members = 1) or the elements of an array,
 * after the opening bracket. */
static int json_items(Json *j, int members, char close)
{
    json_ws(j);
    if (j->i < j->n && j->s[j->i] == close) {
        j->i++;
        return 1;
    }
    for (;;) {
        json_ws(j);
        if (members) {
            if (!json_string(j))
                return 0;
            json_ws(j);
            if (!json_lit(j, ":"))
                return 0;
        }
        if (!json_value(j))
            return 0;
        json_ws(j);
        if (j->i >= j->n)
            return 0;
        char c = j->s[j->i++];
        if (c == close)
            return 1;
        if (c != ',')
            return 0;
    }
}

static int json_value(Json *j)
{
    json_ws(j);
    if (j->i >= j->n || j->depth > 64)
        return 0;
    char c = j->s[j->i];
    if (c == '{' || c == '[') {
        j->i++;
        j->depth++;
        int ok = json_items(j, c == '{', c == '{' ? '}' : ']');
        j->depth--;
        return ok;
    }
    if (c == '"')
        return json_string(j);
    if (c == '-' || (c >= '0' && c <= '9'))
        return json_number(j);
    return json_lit(j, "true") || json_lit(j, "false") || json_lit(j, "null");
}

int fuzz_json_object_valid(const char *s, size_t n)
{
    Json j = {s, n, 0, 0};
    json_ws(&j);
    if (j.i >= n || s[j.i] != '{' || !json_value(&j))
        return 0;
    json_ws(&j);
    return j.i == n;
}

/* ---- What a game answers ---------------------------------------------------- */

/* Everything a game tells its seats, as one text: each seat's legal list
 * (machine forms), the messages each seat may read, status, seat to act,
 * draw offer, repetitions and the position string.  Two games that give
 * the same digest answer every question alike. */
static void game_digest(const Game *g, StrBuf *out)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf t = STRBUF_INIT;
    for (int seat = 0; seat < game_nseats(g); seat++) {
        al_clear(&l);
        game_legal(g, seat, &l);
        sb_printf(out, "legal %d:", seat);
        for (int i = 0; i < l.n; i++) {
            sb_reset(&t);
            game_format(g, &l.v[i], FMT_MACHINE, &t);
            sb_printf(out, " %s", sb_str(&t));
        }
        sb_putc(out, '\n');
    }
    for (int i = 0; i < game_message_count(g); i++)
        for (int seat = 0; seat < game_nseats(g); seat++) {
            const char *m = game_message(g, i, seat);
            sb_printf(out, "message %d to %d: %s\n", i, seat, m ? m : "(hidden)");
        }
    Status st;
    game_status(g, &st);
    sb_printf(out, "status over=%d winners=%u reason=%s check=%u\n", st.over,
              st.winners, st.reason, st.in_check);
    sb_printf(out, "to act %d, draw offer %d, repetitions %d, history %d\n",
              game_to_act(g), game_draw_offer(g), game_repetitions(g),
              game_history_len(g));
    sb_puts(out, "position ");
    game_position(g, out);
    sb_putc(out, '\n');
    sb_free(&t);
    al_free(&l);
}

/* Fail with the first line where the digests of a and b part. */
static void digest_compare(const Game *a, const Game *b, const char *what,
                           const char *about)
{
    StrBuf x = STRBUF_INIT, y = STRBUF_INIT;
    game_digest(a, &x);
    game_digest(b, &y);
    if (strcmp(sb_str(&x), sb_str(&y)) == 0) {
        sb_free(&x);
        sb_free(&y);
        return;
    }
    const char *p = sb_str(&x), *q = sb_str(&y);
    while (*p && *p == *q) {
        const char *nl = strchr(p, '\n');
        if (!nl || strncmp(p, q, (size_t)(nl - p + 1)) != 0)
            break;
        q += nl - p + 1;
        p = nl + 1;
    }
    fuzz_fail(about, about ? strlen(about) : 0, "%s: the games answer differently:\n"
              "  before: %.*s\n  after:  %.*s", what, (int)strcspn(p, "\n"), p,
              (int)strcspn(q, "\n"), q);
}

/* The legal play actions of the seat to act, machine forms. */
static void play_list(const Game *g, StrBuf *out)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal_play(g, &l);
    for (int i = 0; i < l.n; i++) {
        sb_putc(out, ' ');
        game_format(g, &l.v[i], FMT_MACHINE, out);
    }
    al_free(&l);
}

/* Does any action of g's history carry a note (the clock proposal)? */
static int history_has_note(const Game *g)
{
    for (int i = 0; i < game_history_len(g); i++)
        if (game_history(g, i)->action.note)
            return 1;
    return 0;
}

/* ---- Invariants on a game --------------------------------------------------- */

/* save, load, compare; save again: the same text. */
static void check_save_load(const Game *g, const char *about)
{
    StrBuf s1 = STRBUF_INIT, s2 = STRBUF_INIT;
    if (record_save(g, &s1)) {      /* an action text a record cannot hold */
        sb_free(&s1);
        return;
    }
    Error e;
    e.msg[0] = '\0';
    Game *h = record_load(sb_str(&s1), "saved", &e);
    if (!h)
        fuzz_fail(sb_str(&s1), s1.len, "a saved game does not load: %s", e.msg);
    digest_compare(g, h, "save then load", about);
    if (!game_same(g, h))
        fuzz_fail(sb_str(&s1), s1.len, "save then load: game_same says the loaded "
                  "game differs (digests agree)");
    if (record_save(h, &s2) || strcmp(sb_str(&s1), sb_str(&s2)) != 0)
        fuzz_fail(sb_str(&s2), s2.len, "save, load, save: the second record differs "
                  "from the first");
    game_free(h);
    sb_free(&s1);
    sb_free(&s2);
}

/* The position string, read back into a new game of the same config, is
 * written the same; a game in play offers the same play actions. */
static void check_position(const Game *g, const char *about)
{
    StrBuf p1 = STRBUF_INIT, p2 = STRBUF_INIT, l1 = STRBUF_INIT, l2 = STRBUF_INIT;
    game_position(g, &p1);
    if (p1.len == 0) {
        /* No position string: Masqués' setup phase (MASQ-1), the armies
         * still in hand. */
        sb_free(&p1);
        return;
    }
    GameConfig cfg = *game_config(g);
    cfg.position = sb_str(&p1);
    Error e;
    e.msg[0] = '\0';
    Game *h = game_new(&cfg, &e);
    if (!h)
        fuzz_fail(sb_str(&p1), p1.len, "the game's own position string is refused: %s",
                  e.msg);
    game_position(h, &p2);
    if (strcmp(sb_str(&p1), sb_str(&p2)) != 0)
        fuzz_fail(sb_str(&p2), p2.len, "position read and written again differs from "
                  "\"%s\"", sb_str(&p1));
    if (game_to_act(g) >= 0 && !history_has_note(g)) {
        play_list(g, &l1);
        play_list(h, &l2);
        if (strcmp(sb_str(&l1), sb_str(&l2)) != 0)
            fuzz_fail(about, about ? strlen(about) : 0, "the game read from its position "
                      "string \"%s\" offers other play actions:\n  game:%s\n  read:%s",
                      sb_str(&p1), sb_str(&l1), sb_str(&l2));
    }
    game_free(h);
    sb_free(&p1);
    sb_free(&p2);
    sb_free(&l1);
    sb_free(&l2);
}

/* Fast perft equals generic perft (depth 2, or 1 when depth 1 has more
 * than `wide` leaves: the tree is too wide to search at every check). */
static void check_perft(const Game *g, const char *about, uint64_t wide)
{
    if (game_to_act(g) < 0)
        return;
    uint64_t n1 = game_perft(g, 1), m1 = game_perft_generic(g, 1);
    if (n1 != m1)
        fuzz_fail(about, about ? strlen(about) : 0, "perft 1: fast %llu, generic %llu",
                  (unsigned long long)n1, (unsigned long long)m1);
    if (n1 > wide)
        return;
    uint64_t n2 = game_perft(g, 2), m2 = game_perft_generic(g, 2);
    if (n2 != m2) {
        StrBuf p = STRBUF_INIT;
        game_position(g, &p);
        fuzz_fail(sb_str(&p), p.len, "perft 2: fast %llu, generic %llu",
                  (unsigned long long)n2, (unsigned long long)m2);
    }
}

/* ---- Batch mode ----------------------------------------------------------------- */

#define BATCH_MAX_LINES 64
#define BATCH_RING 4

/* Byte 0 of a batch or position input picks VARIANTS[byte % NVARIANTS]:
 * a new variant changes what every header byte means, so the committed
 * corpora's header bytes are written again then (docs/FUZZING.md). */
static const char *const VARIANTS[] = {"orthodox", "masques", "ambigus", "echiquete",
                                       "tile"};
#define NVARIANTS 5
#define V_ECHIQUETE 3
#define V_TILE 4

/* Parameters byte 1 may switch on, bit by bit, per variant. */
static const char *const PARAMS[NVARIANTS][8] = {
    {"castling=off", "fivefold=off", "seventy_five_move=off", "threefold=off",
     "insufficient_material=off", "fifty_move=off", "value.Q=12", NULL},
    {"reveal_alone=on", "mask_mate=truth", "giveup_revealed=off", "allin=4",
     "masked_king_check=on", "show_at_end=on", "fivefold=off", "allin=9"},
    {"clock=on", "mate=on", "stalemate=draw", "threefold=off", "fivefold=off",
     "stalemate=loss", "fifty_move=off", NULL},
    {"phase2=off", "noundo=off", "takeover_from=3", "merged_mate=out", "pass_round_draw=off",
     "duo_empty_loses=off", "fivefold=off", "threefold=off"},
    /* Tile: TILE-5, TILE-6, TILE-1 pawns (a later bit wins), TILE-2 first
     * (blue and red refused with too few sides: batch_open says no) */
    {"orthogonal_pawns=on", "lenient_trapped=on", "pawns=0", "first=black", "pawns=2",
     "first=blue", "first=red", "pawns=8"},
};

typedef struct BatchRun {
    Batch *b;
    int json;
    int period;                 /* costly checks every `period` lines */
    uint64_t wide;              /* depth-2 perft only up to this many moves */
    Game *ring[BATCH_RING];     /* earlier states, oldest first */
    int nring;
} BatchRun;

/* Is a's history the start of b's (same actions, notes and texts)? */
static int history_prefix(const Game *a, const Game *b)
{
    if (game_history_len(a) > game_history_len(b))
        return 0;
    for (int i = 0; i < game_history_len(a); i++) {
        const HistoryEntry *x = game_history(a, i), *y = game_history(b, i);
        if (!action_eq(&x->action, &y->action) || x->action.note != y->action.note ||
            strcmp(x->text, y->text) != 0)
            return 0;
    }
    return 1;
}

/* Keep g's state when its history grew; forget the kept states that are
 * not earlier states of g any more (an undo took them back). */
static void ring_update(BatchRun *r, const Game *g)
{
    int k = 0;
    for (int i = 0; i < r->nring; i++) {
        if (history_prefix(r->ring[i], g))
            r->ring[k++] = r->ring[i];
        else
            game_free(r->ring[i]);
    }
    r->nring = k;
    if (k && game_history_len(r->ring[k - 1]) >= game_history_len(g))
        return;
    if (r->nring == BATCH_RING) {
        game_free(r->ring[0]);
        memmove(r->ring, r->ring + 1, sizeof r->ring[0] * (BATCH_RING - 1));
        r->nring--;
    }
    r->ring[r->nring++] = game_clone(g);
}

/* `undo N` on a copy gives exactly the state kept N actions ago. */
static void check_undo(const BatchRun *r, const Game *g, const char *about)
{
    for (int i = 0; i < r->nring; i += r->nring > 2 ? r->nring - 2 : 1) {
        int n = game_history_len(g) - game_history_len(r->ring[i]);
        if (n <= 0)
            continue;
        Game *c = game_clone(g);
        Error e;
        e.msg[0] = '\0';
        if (game_undo(c, n, &e))
            fuzz_fail(about, strlen(about), "undo %d refused: %s", n, e.msg);
        digest_compare(r->ring[i], c, "undo", about);
        if (!game_same(r->ring[i], c))
            fuzz_fail(about, strlen(about), "undo %d: game_same says the state differs "
                      "from the one kept %d actions ago (digests agree)", n, n);
        game_free(c);
    }
}

/* One answer: a single line ending in '\n'; with --json one valid object
 * whose "ok" says what batch_line returned; valid UTF-8 throughout. */
static void check_answer(const BatchRun *r, const char *line, int rc, const StrBuf *out)
{
    const char *s = sb_str(out);
    size_t n = out->len;
    StrBuf esc = STRBUF_INIT;   /* freed by the abort, if ever used */
    if (n == 0 || s[n - 1] != '\n')
        fuzz_fail(line, strlen(line), "the answer does not end with a line break");
    if (!fuzz_utf8_valid(s, n))
        fuzz_fail(line, strlen(line), "the answer is not valid UTF-8: %s",
                  escaped(s, n, &esc));
    if (!r->json)
        return;
    if (memchr(s, '\n', n - 1))
        fuzz_fail(s, n, "a JSON answer spans several lines");
    if (!fuzz_json_object_valid(s, n - 1))
        fuzz_fail(s, n, "the answer is not one valid JSON object");
    const char *want = rc == 0 ? "{\"ok\":true," : "{\"ok\":false,";
    if (strncmp(s, want, strlen(want)) != 0)
        fuzz_fail(s, n, "batch_line returned %d but the answer does not start with %s",
                  rc, want);
}

/* Lines that would touch files (save) are not run: a fuzzer must not
 * write where its input says. */
static int line_skipped(const char *line)
{
    const char *p = line + strspn(line, " \t");
    return !*p || *p == '#' || strstr(line, "save") != NULL;
}

/* The costly checks: each replays the game or searches its tree. */
static void check_game(const BatchRun *r, const Game *g, const char *line)
{
    check_undo(r, g, line);
    check_save_load(g, line);
    check_position(g, line);
    check_perft(g, line, r->wide);
}

/* A search bot's budget, capped: every "search" in the line (any case)
 * gets ":200" as its budget in place of any it had, so an input cannot ask
 * for hours of look-ahead ("search:3600000ms"); the budget's syntax is
 * tested in tests/test_bot.c.  Writes into out (at least 2 * strlen(line)
 * + 16 bytes). */
static const char *cap_search(const char *line, char *out)
{
    char *o = out;
    for (const char *c = line; *c;) {
        if (strncasecmp(c, "search", 6) == 0) {
            memcpy(o, c, 6);
            o += 6;
            c += 6;
            memcpy(o, ":200", 4);
            o += 4;
            if (*c == ':')
                for (c++; isalnum((unsigned char)*c); c++)
                    ;
        } else {
            *o++ = *c++;
        }
    }
    *o = '\0';
    return out;
}

static void batch_step(BatchRun *r, const char *raw, int lineno, int last)
{
    char *capped = malloc(2 * strlen(raw) + 16);
    if (!capped)
        abort();
    const char *line = cap_search(raw, capped);
    Game *g = batch_game(r->b);
    Game *before = game_clone(g);
    StrBuf out = STRBUF_INIT;
    int rc = batch_line(r->b, line, &out);
    check_answer(r, line, rc, &out);
    g = batch_game(r->b);
    if (rc != 0 && !game_same(before, g)) {
        digest_compare(before, g, "a refused command changed the game", line);
        fuzz_fail(line, strlen(line), "a refused command changed the game (game_same; "
                  "answer %s)", sb_str(&out));
    }
    game_free(before);
    sb_free(&out);
    if (rc == 0) {
        ring_update(r, g);
        if (lineno % r->period == 0 || last)
            check_game(r, g, line);
    }
    free(capped);
}

static void batch_options(const uint8_t *d, CliOptions *o)
{
    memset(o, 0, sizeof *o);
    int v = d[0] % NVARIANTS;
    o->command = "run";
    /* L'Échiqueté: two or three players (a bit of byte 2) */
    if (v == V_ECHIQUETE)
        o->seats = 2 + (d[2] >> 7);
    /* Tile: 2 to 6 sides (the top three bits of byte 2, TILE-1) */
    if (v == V_TILE)
        o->sides = 2 + (d[2] >> 5) % 5;
    o->variant = variant_find(VARIANTS[v]);
    o->json = (d[0] / NVARIANTS) % 4 != 0;    /* JSON three times in four */
    o->ascii = (d[0] / (NVARIANTS * 4)) % 2;
    o->depth = -1;
    o->have_seed = 1;
    o->seed = d[2];
    for (int k = 0; k < 8; k++)
        if ((d[1] >> k & 1) && PARAMS[v][k])
            o->params[o->nparams++] = PARAMS[v][k];
}

int fuzz_batch(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    CliOptions o;
    batch_options(data, &o);
    Error e;
    e.msg[0] = '\0';
    int status;
    static const int PERIODS[4] = {1, 3, 8, 16}, TILE_PERIODS[4] = {4, 8, 16, 32};
    BatchRun r = {.period = PERIODS[data[3] % 4], .wide = 64};
    if (data[0] % NVARIANTS == V_TILE) {
        /* Tile costs some 30 times a chess game per check under the
         * sanitizers (a 64-line game checked at every line: 11 s): its
         * record replays every placement, its moves need the trapped
         * pieces, and 50 moves give 2 500 leaves at depth 2.  So its
         * checks run every 4, 8, 16 or 32 lines (and after the last), at
         * depth 2 when at most 16 moves are legal (the position harness
         * keeps 64). */
        r.period = TILE_PERIODS[data[3] % 4];
        r.wide = 16;
    }
    r.json = o.json;
    r.b = batch_open(&o, &e, &status);
    if (!r.b)   /* two parameters that clash (stalemate=draw with mate off ...) */
        return 0;
    ring_update(&r, batch_game(r.b));
    size_t i = 4;
    char *line = malloc(size);
    for (int lineno = 1; i < size && lineno <= BATCH_MAX_LINES && !batch_done(r.b);) {
        size_t len = 0;
        while (i < size && data[i] != '\n')
            line[len++] = (char)data[i++];
        line[len] = '\0';   /* a NUL byte ends the line as in `chessvar run` */
        i++;
        if (line_skipped(line))
            continue;
        batch_step(&r, line, lineno, i >= size || lineno == BATCH_MAX_LINES);
        lineno++;
    }
    free(line);
    for (int k = 0; k < r.nring; k++)
        game_free(r.ring[k]);
    batch_close(r.b);
    return 0;
}

/* ---- Records ----------------------------------------------------------------------- */

/* The value of a tag line "[Name "value"]" named name (a RuleText's
 * escapes \" \\ \n \r \t \xHH undone, as record.c reads them), appended
 * to out; 0 when the line is not such a tag. */
static int rule_tag_value(const char *line, size_t n, const char *name, StrBuf *out)
{
    size_t k = strlen(name);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\r'))
        n--;
    if (n < k + 5 || line[0] != '[' || strncmp(line + 1, name, k) != 0 ||
        line[k + 1] != ' ' || line[k + 2] != '"' || line[n - 1] != ']' || line[n - 2] != '"')
        return 0;
    for (size_t i = k + 3; i < n - 2; i++) {
        char c = line[i];
        if (c == '\\' && i + 1 < n - 2) {
            c = line[++i];
            c = c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
            if (line[i] == 'x' && i + 2 < n - 2 && isxdigit((unsigned char)line[i + 1]) &&
                isxdigit((unsigned char)line[i + 2])) {
                char hex[3] = {line[i + 1], line[i + 2], 0};
                c = (char)strtol(hex, NULL, 16);
                i += 2;
            }
        }
        sb_putc(out, c);
    }
    return 1;
}

/* The record text with every RuleSha256 tag made the digest of its
 * rule's RuleText lines: a mutated script then loads and runs instead of
 * being refused for its digest alone.  NULL when the text has no rule. */
static char *rules_redigested(const char *text)
{
    enum { MAXR = 16 };
    StrBuf body[MAXR];
    char hex[MAXR][65];
    int nr = 0;
    for (int i = 0; i < MAXR; i++)
        sb_init(&body[i]);
    StrBuf tmp = STRBUF_INIT;
    for (const char *l = text; *l;) {
        size_t n = strcspn(l, "\n");
        sb_reset(&tmp);
        if (rule_tag_value(l, n, "Rule", &tmp))
            nr++;
        else if (nr && nr <= MAXR && rule_tag_value(l, n, "RuleText", &tmp))
            sb_putn(&body[nr - 1], tmp.s ? tmp.s : "", tmp.len);
        l += n + (l[n] == '\n');
    }
    char *fixed = NULL;
    if (nr) {
        StrBuf out = STRBUF_INIT;
        int r = 0;
        for (int i = 0; i < nr && i < MAXR; i++)
            sha256_hex(body[i].s ? body[i].s : "", body[i].len, hex[i]);
        for (const char *l = text; *l;) {
            size_t n = strcspn(l, "\n");
            sb_reset(&tmp);
            if (rule_tag_value(l, n, "Rule", &tmp))
                r++;
            sb_reset(&tmp);
            if (r && r <= MAXR && rule_tag_value(l, n, "RuleSha256", &tmp))
                sb_printf(&out, "[RuleSha256 \"%s\"]", hex[r - 1]);
            else
                sb_putn(&out, l, n);
            if (l[n] == '\n')
                sb_putc(&out, '\n');
            l += n + (l[n] == '\n');
        }
        fixed = strdup(sb_str(&out));
        sb_free(&out);
    }
    for (int i = 0; i < MAXR; i++)
        sb_free(&body[i]);
    sb_free(&tmp);
    return fixed;
}

/* One record text through record_load and its invariants. */
static void record_one(const char *text)
{
    Error e;
    e.msg[0] = '\0';
    Game *g = record_load(text, "fuzz.rec", &e);
    if (!g) {
        size_t n = strlen(e.msg);
        if (n == 0)
            fuzz_fail(text, strlen(text), "record_load refused without a message");
        if (fuzz_utf8_valid(text, strlen(text)) && !fuzz_utf8_valid(e.msg, n))
            fuzz_fail(e.msg, n, "record_load's message is not valid UTF-8");
        return;
    }
    check_save_load(g, text);
    game_free(g);
}

int fuzz_record(const uint8_t *data, size_t size)
{
    /* A record's scripts run (record_load asks no one) with a short wall
     * time per hook call, so a fuzzed script costs milliseconds, not a
     * second per call (issue 20). */
    house_set_default_ms(FUZZ_HOOK_MS);
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    record_one(text);
    /* The same record with its scripts' digests made to match (issue 20):
     * what a mutated script does when it runs. */
    char *fixed = rules_redigested(text);
    if (fixed && strcmp(fixed, text) != 0)
        record_one(fixed);
    free(fixed);
    free(text);
    return 0;
}

/* ---- House rules: the game: API ------------------------------------------------------- */

#define HOUSE_SCRIPT "fuzz.lua"
#define HOUSE_MAX_PLIES 12

/* With FUZZ_VERBOSE set, one line per input on standard error: what
 * became of the script (to see that the seeds reach the hooks). */
__attribute__((format(printf, 1, 2)))
static void house_note(const char *fmt, ...)
{
    if (!getenv("FUZZ_VERBOSE"))
        return;
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz_house: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* A text a script caused (an error, a reason) as it reaches a seat or a
 * log: not empty, valid UTF-8, no control character (C0, DEL, C1), and,
 * when named, naming the script (issue 20 points 5 and 1). */
static void check_script_text(const char *t, int named, const char *what,
                              const char *script)
{
    if (!t || !*t)
        fuzz_fail(script, strlen(script), "%s: no text", what);
    size_t n = strlen(t);
    if (!fuzz_utf8_valid(t, n))
        fuzz_fail(t, n, "%s: not valid UTF-8", what);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && (unsigned char)t[i + 1] >= 0x80 &&
                                      (unsigned char)t[i + 1] <= 0x9F))
            fuzz_fail(t, n, "%s: a control character at byte %zu", what, i);
    }
    if (named && !strstr(t, HOUSE_SCRIPT))
        fuzz_fail(t, n, "%s: the text does not name the script " HOUSE_SCRIPT, what);
}

/* A hook's failure as the core reports it: named (house_error and
 * game_hook_error say which script and hook). */
static void check_hook_error(const Game *g, const char *what, const char *script)
{
    const char *he = game_hook_error(g);
    if (he)
        check_script_text(he, 1, what, script);
}

/* After perft failed: the hook's error, named; 1 when it is a wall-time
 * budget (which a second try may not meet: not reproducible). */
static int perft_failed(const Game *g, const char *what, const char *script)
{
    const char *he = game_hook_error(g);
    if (!he)
        fuzz_fail(script, strlen(script), "%s: failed without a hook error", what);
    check_script_text(he, 1, what, script);
    return strstr(he, "time budget exceeded") != NULL;
}

/* Status is consistent: over exactly when no seat is to act, then with a
 * reason a seat may read and no play action left. */
static void check_status(const Game *g, const char *script)
{
    Status st;
    game_status(g, &st);
    if (!!st.over != (game_to_act(g) < 0))
        fuzz_fail(script, strlen(script), "status says over=%d but the seat to act is %d",
                  st.over, game_to_act(g));
    if (!st.over)
        return;
    check_script_text(st.reason, 0, "the end's reason", script);
    ActionList l = ACTIONLIST_INIT;
    if (game_legal_play(g, &l) == 0 && l.n)
        fuzz_fail(script, strlen(script), "a finished game (%s) offers %d play actions",
                  st.reason, l.n);
    al_free(&l);
}

/* Perft through the hooks: fast equals generic, or both failed with a
 * named error; the game unchanged. */
static void check_house_perft(const Game *g, const char *script)
{
    if (game_to_act(g) < 0)
        return;
    Game *before = game_clone(g);
    for (int depth = 1; depth <= 2; depth++) {
        int timed = 0; /* a wall-time budget met: not reproducible */
        uint64_t n = game_perft(g, depth);
        if (n == GAME_PERFT_FAILED)
            timed |= perft_failed(g, "perft", script);
        uint64_t m = game_perft_generic(g, depth);
        if (m == GAME_PERFT_FAILED)
            timed |= perft_failed(g, "generic perft", script);
        if (n != m && n != GAME_PERFT_NOMEM && m != GAME_PERFT_NOMEM && !timed)
            fuzz_fail(script, strlen(script), "perft %d through the hooks: fast %llu, "
                      "generic %llu (last hook error: %s)", depth, (unsigned long long)n,
                      (unsigned long long)m,
                      game_hook_error(g) ? game_hook_error(g) : "none");
        if (n == GAME_PERFT_FAILED || n > 24)
            break;
    }
    if (!game_same(before, g))
        fuzz_fail(script, strlen(script), "perft changed the game");
    game_free(before);
}

/* One ply: the seat to act's play list (through the vetoes), then an
 * action drawn from it, or the bot's choice (random or greedy).  A stale
 * action (from the ply before) is tried first: refused, it must leave the
 * game as it was.  0 to go on, -1 to stop. */
static int house_ply(Game *g, Rng *rng, int bot, const Action *stale, Action *played,
                     const char *script)
{
    int seat = game_to_act(g);
    if (seat < 0)
        return -1;
    Error e;
    Game *before = game_clone(g);
    if (stale) {
        e.msg[0] = '\0';
        Action a = *stale;
        if (game_apply(g, &a, &e) != 0) {
            if (!game_same(before, g))
                fuzz_fail(script, strlen(script), "a refused action (%s) changed the game",
                          e.msg);
            check_script_text(e.msg, 0, "a refused action's message", script);
            check_hook_error(g, "a refused action's hook error", script);
        } else { /* it was legal again: a ply played */
            game_free(before);
            check_status(g, script);
            *played = a;
            return game_to_act(g) < 0 ? -1 : 0;
        }
    }
    int rc;
    e.msg[0] = '\0';
    if (bot) {
        rc = bot_play(g, seat, bot == 1 ? BOT_RANDOM : BOT_GREEDY, rng, played, &e);
    } else {
        /* mostly the play actions (a resignation ends the input), one
         * time in 16 the whole list, meta actions included */
        ActionList l = ACTIONLIST_INIT;
        rc = rng_below(rng, 16) ? game_legal_play(g, &l) : game_legal(g, seat, &l);
        if (rc == 0 && l.n == 0)
            rc = game_legal(g, seat, &l);
        if (rc == 0 && l.n == 0)
            rc = 1; /* nothing to do: stop */
        if (rc == 0) {
            *played = l.v[rng_below(rng, (uint32_t)l.n)];
            rc = game_apply(g, played, &e);
        }
        al_free(&l);
    }
    if (rc != 0) {
        if (!game_same(before, g))
            fuzz_fail(script, strlen(script), "a refused ply (%s) changed the game", e.msg);
        if (rc < 0 && !e.msg[0] && !game_hook_error(g))
            fuzz_fail(script, strlen(script), "a ply failed without a message");
        if (e.msg[0]) /* a reaction's error() refuses it: the script's text */
            check_script_text(e.msg, 0, "a refused ply's message", script);
        check_hook_error(g, "a refused ply's hook error", script);
    }
    game_free(before);
    check_status(g, script);
    return rc == 0 ? 0 : -1;
}

/* Issue 20 point 4: every script's hooks also call game:get and game:set
 * with hostile keys and values.  A prologue wraps rule{}: before each
 * veto, react and start of the script it picks, by the history's length,
 * a key (empty, with a zero byte, too long, not a word, of another type,
 * or bytes of the input itself) and a value (out of range, not an
 * integer, too long, of every type, or the input's bytes) and calls
 * game:set (caught; uncaught every fifth ply for one input in seven: the
 * error must then name the script) and game:get, and counts its calls in a key of its own.
 * What is accepted is part of the game: the harness undoes and replays
 * each ply, and saves and loads the game, and must get it back. */
static char *vars_prologue(const char *script, size_t len, unsigned pick, size_t *outlen)
{
    StrBuf b = STRBUF_INIT;
    sb_puts(&b, "local FZ = \"");
    for (size_t i = 0; i < len && i < 8 + pick % 32; i++)
        sb_printf(&b, "\\%03u", (unsigned char)script[(i * 7 + pick) % len]);
    sb_printf(&b, "\"\nlocal LOUD = %s\n", pick % 7 == 0 ? "true" : "false");
    sb_puts(&b,
        "local HK = {'', 'a\\0b', string.rep('k', 25), 'k\\195\\169', 'x y', '__index', "
        "'n', 1, true, FZ}\n"
        "local HV = {0, -1, math.maxinteger, math.mininteger, 1.5, 0/0, '', "
        "string.rep('v', 65), '\\0\\1\\255', true, false, {}, print, FZ, 'word'}\n"
        "local rule0 = rule\n"
        "local function poke(game, set)\n"
        "  local n = #game:history()\n"
        "  local k, v = HK[n % #HK + 1], HV[n // #HK % #HV + 1]\n"
        "  if set then\n"
        "    if LOUD and n % 5 == 4 then game:set(k, v) else pcall(game.set, game, k, v) end\n"
        "    local c = game:get('fz_calls')\n"
        "    game:set('fz_calls', (math.type(c) == 'integer' and c < 1000000 and c or 0) + 1)\n"
        "  end\n"
        "  pcall(game.get, game, k)\n"
        "  return game:get('fz_calls')\n"
        "end\n"
        "rule = function(t)\n"
        "  if type(t) == 'table' then\n"
        "    local v, r, s = t.veto, t.react, t.start\n"
        "    if type(v) == 'function' then\n"
        "      t.veto = function(game, action) poke(game, false) return v(game, action) end\n"
        "    end\n"
        "    t.react = function(game, action) poke(game, true)\n"
        "      if type(r) == 'function' then return r(game, action) end end\n"
        "    t.start = function(game) poke(game, true)\n"
        "      if type(s) == 'function' then return s(game) end end\n"
        "  end\n"
        "  return rule0(t)\n"
        "end\n");
    sb_putn(&b, script, len);
    char *out = malloc(b.len + 1);
    memcpy(out, sb_str(&b), b.len + 1);
    *outlen = b.len;
    sb_free(&b);
    return out;
}

/* Undo the last ply and play it again: the same game (its values kept in
 * the game included), when both are allowed. */
static void check_undo_replay(const Game *g, const char *script)
{
    int n = game_history_len(g);
    if (n == 0 || game_hook_error(g))
        return;
    Game *c = game_clone(g);
    Error e;
    Action a = game_history(g, n - 1)->action;
    if (!c || game_undo(c, 1, &e) != 0) {
        game_free(c);
        return;
    }
    if (game_apply(c, &a, &e) != 0) {
        if (!game_hook_error(c))
            fuzz_fail(script, strlen(script), "a ply undone cannot be played again: %s",
                      e.msg);
    } else if (!game_same(g, c)) {
        fuzz_fail(script, strlen(script), "undo then replay of the last ply gives another "
                  "game");
    }
    game_free(c);
}

int fuzz_house(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int v = data[0] % NVARIANTS;
    size_t slen;
    char *script = vars_prologue((const char *)data + 3, size - 3,
                                 (unsigned)data[1] * 31u + data[2], &slen);
    house_set_default_ms(FUZZ_HOOK_MS);
    HouseLimits lim;
    memset(&lim, 0, sizeof lim);
    lim.instructions = 200000;
    lim.memory = (size_t)16 << 20;
    lim.ms = FUZZ_HOOK_MS;
    lim.messages = 4000;
    HouseSource src;
    memset(&src, 0, sizeof src);
    src.name = HOUSE_SCRIPT;
    src.text = script;
    src.len = slen;
    const VariantOps *ops = variant_find(VARIANTS[v]);
    int nsides = v == V_TILE ? 2 + data[0] / NVARIANTS % 5 : 0;
    Error e;
    e.msg[0] = '\0';
    House *h = house_load(ops, nsides, &src, 1, &lim, &e);
    if (!h) {
        check_script_text(e.msg, 1, "house_load's error", script);
        house_note("refused: %s", e.msg);
        free(script);
        return 0;
    }
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = ops;
    cfg.nsides = nsides;
    cfg.seed = data[1];
    params_defaults(ops, &cfg.params);
    cfg.params_set = 1;
    Game *g = NULL;
    if (house_params(h, &cfg.params, &e) == 0) {
        GameHooks hooks = house_hooks(h);
        cfg.scripts = house_scripts(h);
        cfg.nscripts = house_count(h);
        g = game_new_hooked(&cfg, &hooks, &e);
        if (!g) {
            check_script_text(e.msg, 0, "game_new's error", script);
            house_note("game refused: %s", e.msg);
        }
    } else {
        check_script_text(e.msg, 1, "house_params's error", script);
        house_note("parameters refused: %s", e.msg);
    }
    if (g) {
        check_status(g, script);
        Rng rng;
        rng_seed(&rng, data[1] * 7919u + 1);
        Action last;
        int have_last = 0;
        int plies = data[2] % 16 > HOUSE_MAX_PLIES ? HOUSE_MAX_PLIES : data[2] % 16;
        for (int i = 0; i < plies; i++) {
            Action a;
            int bot = data[2] / 16 % 4; /* 0, 3: drawn here; 1 random, 2 greedy */
            if (house_ply(g, &rng, bot == 3 ? 0 : bot, have_last && i % 3 == 2 ? &last : NULL,
                          &a, script))
                break;
            last = a;
            have_last = 1;
            check_undo_replay(g, script);
        }
        check_house_perft(g, script);
        if (!game_hook_error(g)) /* every call ran: a replay runs them again */
            check_save_load(g, script);
        Status st;
        game_status(g, &st);
        house_note("%s: %d plies, %s%s%s", VARIANTS[v], game_history_len(g),
                   st.over ? st.reason : "in play", game_hook_error(g) ? "; " : "",
                   game_hook_error(g) ? game_hook_error(g) : "");
        game_free(g);
    }
    house_free(h);
    free(script);
    return 0;
}

/* ---- Position strings ------------------------------------------------------------------- */

int fuzz_position(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int v = data[0] % NVARIANTS;
    char *text = malloc(size);
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0';
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = variant_find(VARIANTS[v]);
    cfg.position = text;
    params_defaults(cfg.variant, &cfg.params);
    /* Parameters that change what a position allows: Ambigus' mate rule,
     * Masqués' all-in and masked King, Tile's army (TILE-1: eight pawns
     * whatever the number of sides). */
    static const char *const POSITION_PARAM[NVARIANTS] = {
        "castling=off", "masked_king_check=on", "mate=on", "phase2=off", "pawns=8"};
    if (data[0] / NVARIANTS % 2)
        params_set(cfg.variant, &cfg.params, POSITION_PARAM[v], NULL);
    if (v == V_ECHIQUETE) /* L'Échiqueté: its position may name a third seat */
        cfg.nseats = 2 + (data[0] / NVARIANTS / 2 % 2);
    if (v == V_TILE)      /* Tile: 2 to 6 sides, colours w b r u g y */
        cfg.nsides = 2 + (data[0] / NVARIANTS / 2 % 5);
    cfg.params_set = 1;
    Error e;
    e.msg[0] = '\0';
    Game *g = game_new(&cfg, &e);
    if (!g) {
        if (!e.msg[0])
            fuzz_fail(text, strlen(text), "a position was refused without a message");
        free(text);
        return 0;
    }
    check_position(g, text);
    StrBuf p = STRBUF_INIT;
    game_position(g, &p);
    cfg.position = sb_str(&p);
    Game *h = game_new(&cfg, &e);
    if (!h)
        fuzz_fail(text, strlen(text), "the position written is refused: %s", e.msg);
    digest_compare(g, h, "a position read, written and read again", text);
    check_perft(g, text, 64);
    game_free(h);
    game_free(g);
    sb_free(&p);
    free(text);
    return 0;
}

const FuzzTarget fuzz_targets[] = {
    {"batch", fuzz_batch},
    {"record", fuzz_record},
    {"position", fuzz_position},
    {"house", fuzz_house},
    {NULL, NULL},
};
