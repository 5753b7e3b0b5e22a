/*
 * util.h -- small shared helpers of the core: error objects, growing
 * strings, the per-game random generator and board geometry.
 *
 * Invariant: nothing here holds global state; every object is owned by its
 * caller, so many games can live side by side in one process.
 */
#ifndef CHESSVAR_UTIL_H
#define CHESSVAR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Errors -------------------------------------------------------------
 * Every function that can fail on outside input returns a negative code and
 * fills an Error with a message a person can act on.  The Error pointer may
 * be NULL when the caller does not care. */
typedef struct Error {
    char msg[512];
} Error;

/* Format a message into e (if not NULL).  Always returns -1 so callers can
 * write `return err_set(e, "...")`. */
int err_set(Error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Put "prefix: " in front of the message already in e. */
void err_prefix(Error *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- Memory ------------------------------------------------------------------ */
/* Every allocation of the library goes through these: NULL when memory
 * runs out (never an abort: a long-running process must survive one bad
 * request).  cv_realloc(p, 0) frees p and returns NULL. */
void *cv_realloc(void *p, size_t n);
void *cv_calloc(size_t n);            /* zeroed */
char *cv_strdup(const char *s);
/* Fault injection for tests (SQLite's OOM tests): the n-th allocation from
 * now fails (1: the next one), and with `persist` every one after it too;
 * n = 0 turns it off.  This and cv_alloc_count are the one process-wide
 * setting of the library, off unless a test sets it. */
void cv_alloc_fail(long n, int persist);
/* Allocations made since the last cv_alloc_fail call. */
long cv_alloc_count(void);
/* Allocations that have failed so far in this process (real or injected):
 * an API function compares it before and after, so that a failure deep in
 * a variant ("refused", an incomplete list) is reported as what it is. */
unsigned long cv_alloc_failures(void);

/* ---- Growing strings ------------------------------------------------------ */
/* When memory runs out a StrBuf keeps what it has, ignores what is
 * appended after, and remembers: sb_failed() is what callers check at the
 * API boundary before they use the text. */
typedef struct StrBuf {
    char *s;    /* always NUL-terminated once anything was written */
    size_t len;
    size_t cap;
    int failed; /* an append was lost for want of memory */
} StrBuf;

#define STRBUF_INIT {NULL, 0, 0, 0}
int sb_failed(const StrBuf *b);
void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_reset(StrBuf *b);        /* len = 0, keeps the memory */
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_putn(StrBuf *b, const char *s, size_t n);
void sb_printf(StrBuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void sb_vprintf(StrBuf *b, const char *fmt, va_list ap);
const char *sb_str(const StrBuf *b); /* "" when empty */
/* Append s as a JSON string literal, quotes included.  The literal is
 * always valid UTF-8 (RFC 8259): a byte of s that is not is written as
 * \ufffd, and control characters (C0, DEL, C1) as \u escapes. */
void sb_json_str(StrBuf *b, const char *s);

/* ---- Random numbers --------------------------------------------------------
 * xoshiro256** seeded through splitmix64.  One generator per game, part of
 * the game's copyable state, so replays are exact. */
typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform in [0, n), n > 0, without modulo bias. */
uint32_t rng_below(Rng *r, uint32_t n);
/* splitmix64 step: a pure mixing function, usable for hash keys. */
uint64_t mix64(uint64_t x);

/* ---- Geometry -------------------------------------------------------------
 * A square is an integer pair.  Bounded boards use x = file (0 = 'a') and
 * y = rank (0 = '1'); the unbounded plane uses any int32 pair and writes a
 * square as "x,y". */
typedef struct Coord {
    int32_t x, y;
} Coord;

typedef struct Geometry {
    int bounded;       /* 1: width x height board; 0: unbounded plane */
    int width, height; /* bounded only; at most 26 x 99 */
} Geometry;

static inline int coord_eq(Coord a, Coord b) { return a.x == b.x && a.y == b.y; }
static inline Coord coord_make(int32_t x, int32_t y) { Coord c = {x, y}; return c; }
int geo_contains(const Geometry *g, Coord c);
/* Parse a square at *s ("e4" or "-3,2"); on success store it, advance *s past
 * it and return 0; otherwise return -1 and leave *s alone.  A bounded board
 * rejects squares off the board ("e9 is off the board" into e). */
int geo_parse_square(const Geometry *g, const char **s, Coord *out, Error *e);
/* Write a square; buf must hold at least GEO_SQ_MAX bytes. */
#define GEO_SQ_MAX 28
const char *geo_format_square(const Geometry *g, Coord c, char *buf);

/* ---- Misc ------------------------------------------------------------------ */
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
/* Copy with truncation, always terminates (n > 0); a cut never falls
 * inside a UTF-8 character.  For input that must not be cut (a file name,
 * an action), check the length first and refuse: a cut is silent. */
void str_copy(char *dst, size_t n, const char *src);
/* Copy src into dst (n > 3) for quoting in a message: whole when it fits,
 * else its head cut at a character boundary and followed by "...".
 * Returns dst, so it can be an argument of a format. */
const char *str_clip(char *dst, size_t n, const char *src);

/* ---- UTF-8 ---------------------------------------------------------------
 * The one strict validator (RFC 3629): shortest forms only, no surrogates
 * (U+D800..DFFF), nothing above U+10FFFF, no lead bytes C0 C1 F5..FF.
 * A NUL byte is valid here; callers that read lines refuse it apart. */
int utf8_valid(const char *s, size_t n);
/* Length of the valid UTF-8 sequence at s (1 to 4; n bytes available),
 * 0 if the bytes there are not one. */
size_t utf8_seq_len(const unsigned char *s, size_t n);
/* Drop, in place, every byte that is not part of a valid sequence of the
 * NUL-terminated s (a character cut by a "%.40s" in a message). */
void utf8_scrub(char *s);
/* Texts from outside -- a house-rule script, a record, a merged part --
 * that reach a screen or a file (issue 20 point 5).  text_check: 0 when
 * s[0..n) is valid UTF-8 without control characters (C0, DEL, the C1
 * range U+0080..U+009F; with TEXT_TAB a tab is allowed), else -1 with
 * why, a phrase such as "a control character (0x1b) at byte 5".  A
 * control character can clear a screen, set a window title, write the
 * clipboard or start a fake line; a byte that is not UTF-8 breaks JSON
 * and XML. */
#define TEXT_TAB 1
int text_check(const char *s, size_t n, int flags, char *why, size_t wn);
/* Copy src into dst (n > 0) made safe to show: each control character
 * and each byte that is not UTF-8 is written as its visible escape
 * (\n, \t, \xHH; a C1 character as \u0085...), a backslash stays one;
 * cut at n - 1 bytes, never inside an escape or a character.  Returns dst. */
const char *str_safe(char *dst, size_t n, const char *src);
/* Case-insensitive equality of ASCII strings. */
int str_ieq(const char *a, const char *b);
/* Columns a UTF-8 string takes on a terminal (one per code point: enough
 * for the accented Latin of variant names). */
int str_width(const char *s);
/* Strip leading and trailing white space in place; returns s. */
char *str_trim(char *s);

#endif
