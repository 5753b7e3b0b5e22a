/*
 * util.c -- errors, growing strings, the per-game random generator and
 * square names.  No global state: every object belongs to its caller.
 */
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int err_set(Error *e, const char *fmt, ...)
{
    if (e) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->msg, sizeof e->msg, fmt, ap);
        va_end(ap);
        /* A long message is cut at its end, and an argument may have
         * been cut by a precision (%.40s): either may split a character.
         * Messages reach JSON answers, which must stay valid UTF-8. */
        utf8_scrub(e->msg);
    }
    return -1;
}

void err_prefix(Error *e, const char *fmt, ...)
{
    if (!e)
        return;
    char pre[256], old[sizeof e->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, e->msg, sizeof old);
    /* Truncation is fine: the head of a message says the most. */
    size_t n = strlen(pre);
    if (n > sizeof e->msg - 3)
        n = sizeof e->msg - 3;
    memcpy(e->msg, pre, n);
    memcpy(e->msg + n, ": ", 2);
    str_copy(e->msg + n + 2, sizeof e->msg - n - 2, old);
    utf8_scrub(e->msg);
}

/* ---- StrBuf ------------------------------------------------------------ */

/* ---- Memory ------------------------------------------------------------------ */

static long alloc_countdown; /* > 0: allocations until one fails */
static int alloc_persist;    /* after the first failure, fail them all */
static long alloc_made;
static unsigned long alloc_failed;

void cv_alloc_fail(long n, int persist)
{
    alloc_countdown = n > 0 ? n : 0;
    alloc_persist = persist;
    alloc_made = 0;
}

long cv_alloc_count(void) { return alloc_made; }
unsigned long cv_alloc_failures(void) { return alloc_failed; }

void *cv_realloc(void *p, size_t n)
{
    if (n == 0) {
        free(p);
        return NULL;
    }
    alloc_made++;
    if (alloc_countdown > 0 && --alloc_countdown == 0) {
        if (alloc_persist)
            alloc_countdown = 1;
        alloc_failed++;
        return NULL;
    }
    void *q = realloc(p, n);
    alloc_failed += q == NULL;
    return q;
}

void *cv_calloc(size_t n)
{
    void *p = cv_realloc(NULL, n ? n : 1);
    if (p)
        memset(p, 0, n ? n : 1);
    return p;
}

char *cv_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = cv_realloc(NULL, n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* ---- Growing strings ------------------------------------------------------ */

void sb_init(StrBuf *b) { b->s = NULL; b->len = b->cap = 0; b->failed = 0; }

int sb_failed(const StrBuf *b) { return b->failed; }

void sb_free(StrBuf *b)
{
    free(b->s);
    sb_init(b);
}

void sb_reset(StrBuf *b)
{
    b->len = 0;
    b->failed = 0;
    if (b->s)
        b->s[0] = '\0';
}

/* Make room for n more bytes plus the terminator; -1 (and the buffer marks
 * itself failed) when memory runs out or once it has. */
static int sb_grow(StrBuf *b, size_t n)
{
    if (b->failed)
        return -1;
    if (b->len + n + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *s = cv_realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return -1;
    }
    b->s = s;
    b->cap = cap;
    return 0;
}

void sb_putn(StrBuf *b, const char *s, size_t n)
{
    if (sb_grow(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

void sb_putc(StrBuf *b, char c) { sb_putn(b, &c, 1); }
void sb_puts(StrBuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

void sb_vprintf(StrBuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || sb_grow(b, (size_t)n))
        return;
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *sb_str(const StrBuf *b) { return b->s ? b->s : ""; }

/* A control character at p (k bytes of a valid sequence): its code. */
static int control_at(const unsigned char *p, size_t k, unsigned *code)
{
    if (k == 1 && (p[0] < 0x20 || p[0] == 0x7f)) {
        *code = p[0];
        return 1;
    }
    if (k == 2 && p[0] == 0xC2 && p[1] < 0xA0) {
        *code = p[1];
        return 1;
    }
    return 0;
}

void sb_json_str(StrBuf *b, const char *s)
{
    sb_putc(b, '"');
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        unsigned c = p[i], code;
        if (!k) { /* never invalid UTF-8 in what we write */
            sb_puts(b, "\\ufffd");
            i++;
            continue;
        }
        if (control_at(p + i, k, &code)) { /* C0, DEL, C1 */
            const char *named = code == '\n' ? "\\n" : code == '\r' ? "\\r"
                              : code == '\t' ? "\\t" : NULL;
            if (named)
                sb_puts(b, named);
            else
                sb_printf(b, "\\u%04x", code);
        } else if (c == '"')
            sb_puts(b, "\\\"");
        else if (c == '\\')
            sb_puts(b, "\\\\");
        else
            sb_putn(b, (const char *)p + i, k);
        i += k;
    }
    sb_putc(b, '"');
}

/* ---- Random numbers ------------------------------------------------------ */

uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

void rng_seed(Rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) {
        seed = mix64(seed);
        r->s[i] = seed;
    }
    if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
        r->s[0] = 1; /* the all-zero state is a fixed point */
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return out;
}

uint32_t rng_below(Rng *r, uint32_t n)
{
    /* Rejection sampling: draw again from the biased top slice. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do
        x = rng_next(r);
    while (x >= limit);
    return (uint32_t)(x % n);
}

/* ---- Geometry ------------------------------------------------------------ */

int geo_contains(const Geometry *g, Coord c)
{
    if (!g->bounded)
        return 1;
    return c.x >= 0 && c.y >= 0 && c.x < g->width && c.y < g->height;
}

/* Read an optionally signed decimal that fits comfortably in int32. */
static int parse_int(const char **s, int32_t *out)
{
    const char *p = *s;
    int neg = 0;
    if (*p == '-' || *p == '+')
        neg = *p++ == '-';
    if (!isdigit((unsigned char)*p))
        return -1;
    long v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (*p++ - '0');
        if (v > 1000000000L)
            return -1;
    }
    *out = (int32_t)(neg ? -v : v);
    *s = p;
    return 0;
}

int geo_parse_square(const Geometry *g, const char **s, Coord *out, Error *e)
{
    const char *p = *s;
    Coord c;
    if (!g->bounded) {
        if (parse_int(&p, &c.x) || *p++ != ',' || parse_int(&p, &c.y))
            return err_set(e, "'%s' is not a square: write x,y as in 0,0 or -3,2",
                           *s);
    } else {
        char f = (char)tolower((unsigned char)*p);
        if (f < 'a' || f > 'z' || !isdigit((unsigned char)p[1]))
            return err_set(e, "'%s' is not a square: write a file letter and a "
                              "rank number, as in e4", *s);
        p++;
        int32_t r;
        if (parse_int(&p, &r))
            return err_set(e, "'%s' is not a square", *s);
        c.x = f - 'a';
        c.y = r - 1;
        if (!geo_contains(g, c))
            return err_set(e, "%c%d is off the board", f, (int)r);
    }
    *out = c;
    *s = p;
    return 0;
}

const char *geo_format_square(const Geometry *g, Coord c, char *buf)
{
    if (g->bounded && c.x >= 0 && c.x < 26)
        snprintf(buf, GEO_SQ_MAX, "%c%d", 'a' + c.x, (int)c.y + 1);
    else
        snprintf(buf, GEO_SQ_MAX, "%d,%d", (int)c.x, (int)c.y);
    return buf;
}

/* ---- Misc ---------------------------------------------------------------- */

/* The longest prefix of s[0..len) that does not end inside a character:
 * back over continuation bytes to the start of the cut character. */
static size_t utf8_cut(const char *s, size_t len, size_t full)
{
    if (len >= full)
        return full;
    while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
        len--;
    return len;
}

void str_copy(char *dst, size_t n, const char *src)
{
    size_t full = strlen(src), l = utf8_cut(src, full < n ? full : n - 1, full);
    memmove(dst, src, l);
    dst[l] = '\0';
}

const char *str_clip(char *dst, size_t n, const char *src)
{
    size_t full = strlen(src);
    if (full < n) {
        memmove(dst, src, full + 1);
        return dst;
    }
    size_t l = utf8_cut(src, n - 4, full);
    memmove(dst, src, l);
    memcpy(dst + l, "...", 4);
    return dst;
}

size_t utf8_seq_len(const unsigned char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned c = s[0];
    if (c < 0x80)
        return 1;
    /* Lead byte: length and the range of the first continuation byte,
     * which excludes overlong forms, surrogates and values over 10FFFF. */
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return len;
}

int utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

void utf8_scrub(char *s)
{
    unsigned char *p = (unsigned char *)s;
    size_t n = strlen(s), r = 0, w = 0;
    while (r < n) {
        size_t k = utf8_seq_len(p + r, n - r);
        if (!k) {
            r++;
            continue;
        }
        memmove(p + w, p + r, k);
        w += k;
        r += k;
    }
    p[w] = '\0';
}

int text_check(const char *s, size_t n, int flags, char *why, size_t wn)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq_len(p + i, n - i);
        unsigned code;
        if (!k) {
            snprintf(why, wn, "a byte that is not UTF-8 (0x%02x) at byte %zu", p[i], i + 1);
            return -1;
        }
        if (control_at(p + i, k, &code) && !(code == '\t' && (flags & TEXT_TAB))) {
            snprintf(why, wn, "a control character (0x%02x) at byte %zu", code, i + 1);
            return -1;
        }
        i += k;
    }
    return 0;
}

const char *str_safe(char *dst, size_t n, const char *src)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t len = strlen(src), w = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_seq_len(p + i, len - i);
        unsigned code;
        char esc[16];
        const char *put = (const char *)p + i;
        size_t m = k;
        if (!k) {
            snprintf(esc, sizeof esc, "\\x%02x", p[i]);
            put = esc, m = 4, k = 1;
        } else if (control_at(p + i, k, &code)) {
            if (code == '\n' || code == '\t' || code == '\r')
                snprintf(esc, sizeof esc, "\\%c", code == '\n' ? 'n' : code == '\t' ? 't' : 'r');
            else
                snprintf(esc, sizeof esc, code < 0x80 ? "\\x%02x" : "\\u%04x", code);
            put = esc, m = strlen(esc);
        }
        if (w + m >= n)
            break;
        memcpy(dst + w, put, m);
        w += m;
        i += k;
    }
    dst[w] = '\0';
    return dst;
}

int str_ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

int str_width(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80; /* not a continuation byte */
    return n;
}

char *str_trim(char *s)
{
    char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    size_t n = strlen(p);
    while (n && isspace((unsigned char)p[n - 1]))
        n--;
    memmove(s, p, n);
    s[n] = '\0';
    return s;
}
