/*
 * json.c -- the strict JSON reader (core/json.h): recursive descent over
 * the input with a byte budget and a depth limit; nodes and strings are
 * allocated from a list of blocks freed together.
 *
 * Invariant: every read checks the end of the input first (p < end);
 * every error names where it happened and the tree is freed.
 */
#include "json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct Block {
    struct Block *next;
    size_t used, cap;
    /* then cap bytes */
} Block;

typedef struct Parser {
    const char *start, *p, *end;
    Block *blocks;
    Error *e;
    int failed;
} Parser;

/* The root node is the first allocation, so json_free finds the blocks
 * through a header placed before it. */
typedef struct Root {
    Block *blocks;
    Json node;
} Root;

static void *pool_alloc(Parser *ps, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    Block *b = ps->blocks;
    if (!b || b->cap - b->used < n) {
        size_t cap = n > 65536 ? n : 65536;
        b = cv_calloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->cap = cap;
        b->next = ps->blocks;
        ps->blocks = b;
    }
    void *r = (char *)(b + 1) + b->used;
    b->used += n;
    return r;
}

static void free_blocks(Block *b)
{
    while (b) {
        Block *n = b->next;
        free(b);
        b = n;
    }
}

static int fail(Parser *ps, const char *what)
{
    if (ps->failed)
        return -1;
    ps->failed = 1;
    int line = 1, col = 1;
    for (const char *q = ps->start; q < ps->p && q < ps->end; q++) {
        if (*q == '\n')
            line++, col = 1;
        else
            col++;
    }
    return err_set(ps->e, "line %d, column %d: %s", line, col, what);
}

static void skip_blanks(Parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int literal(Parser *ps, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0)
        return fail(ps, "expected a value (a string, number, object, array, true, "
                        "false or null)");
    ps->p += n;
    return 0;
}

static int hex4(Parser *ps, unsigned *out)
{
    if (ps->end - ps->p < 4)
        return fail(ps, "a \\u escape needs four hex digits");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = ps->p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return fail(ps, "a \\u escape needs four hex digits");
        v = v * 16 + (unsigned)d;
    }
    ps->p += 4;
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string at ps->p (on the opening quote) into *out. */
static int string(Parser *ps, const char **out)
{
    ps->p++;
    const char *q = ps->p;
    while (q < ps->end && *q != '"') /* an upper bound of the decoded size */
        q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
    if (q >= ps->end)
        return fail(ps, "a string is not closed");
    char *o = pool_alloc(ps, (size_t)(q - ps->p) + 1);
    if (!o)
        return fail(ps, "out of memory");
    *out = o;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20)
            return fail(ps, "a control character inside a string (write it as \\uXXXX)");
        if (c >= 0x80) { /* RFC 8259: the text is UTF-8 */
            size_t k = utf8_seq_len((const unsigned char *)ps->p, (size_t)(q - ps->p));
            if (!k)
                return fail(ps, "a byte that is not UTF-8 inside a string");
            memcpy(o, ps->p, k);
            o += k;
            ps->p += k;
            continue;
        }
        if (c != '\\') {
            *o++ = (char)c;
            ps->p++;
            continue;
        }
        ps->p++;
        char x = *ps->p++;
        switch (x) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            unsigned cp;
            if (hex4(ps, &cp))
                return -1;
            if (cp >= 0xD800 && cp < 0xDC00) {
                unsigned lo;
                if (ps->end - ps->p < 2 || ps->p[0] != '\\' || ps->p[1] != 'u')
                    return fail(ps, "a lone surrogate in a \\u escape");
                ps->p += 2;
                if (hex4(ps, &lo))
                    return -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return fail(ps, "a lone surrogate in a \\u escape");
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp < 0xE000) {
                return fail(ps, "a lone surrogate in a \\u escape");
            }
            if (cp == 0)
                return fail(ps, "\\u0000 inside a string");
            o += put_utf8(o, cp);
            break;
        }
        default:
            ps->p--;
            return fail(ps, "an unknown escape in a string");
        }
    }
    *o = 0;
    ps->p++;
    return 0;
}

static int number(Parser *ps, double *out)
{
    const char *q = ps->p;
    if (q < ps->end && *q == '-')
        q++;
    if (q >= ps->end || *q < '0' || *q > '9')
        return fail(ps, "expected a value (a string, number, object, array, true, "
                        "false or null)");
    if (*q == '0')
        q++;
    else
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    if (q < ps->end && *q == '.') {
        q++;
        if (q >= ps->end || *q < '0' || *q > '9')
            return fail(ps, "a number needs digits after its '.'");
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= ps->end || *q < '0' || *q > '9')
            return fail(ps, "a number needs digits in its exponent");
        while (q < ps->end && *q >= '0' && *q <= '9')
            q++;
    }
    char buf[64];
    size_t n = (size_t)(q - ps->p);
    if (n >= sizeof buf)
        return fail(ps, "a number is too long");
    memcpy(buf, ps->p, n);
    buf[n] = 0;
    *out = strtod(buf, NULL);
    if (!isfinite(*out))
        return fail(ps, "a number is out of range");
    ps->p = q;
    return 0;
}

static int value(Parser *ps, Json *j, int depth);

/* The elements of an array or the members of an object. */
static int items(Parser *ps, Json *j, int depth, int object)
{
    char close = object ? '}' : ']';
    ps->p++;
    skip_blanks(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return 0;
    }
    Json **tail = &j->child;
    for (;;) {
        Json *c = pool_alloc(ps, sizeof *c);
        if (!c)
            return fail(ps, "out of memory");
        memset(c, 0, sizeof *c);
        skip_blanks(ps);
        if (object) {
            if (ps->p >= ps->end || *ps->p != '"')
                return fail(ps, "expected a member name in double quotes");
            if (string(ps, &c->key))
                return -1;
            skip_blanks(ps);
            if (ps->p >= ps->end || *ps->p != ':')
                return fail(ps, "expected ':' after a member name");
            ps->p++;
        }
        if (value(ps, c, depth + 1))
            return -1;
        *tail = c;
        tail = &c->next;
        j->count++;
        skip_blanks(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return 0;
        }
        return fail(ps, object ? "expected ',' or '}' in an object"
                               : "expected ',' or ']' in an array");
    }
}

static int value(Parser *ps, Json *j, int depth)
{
    if (depth > JSON_MAX_DEPTH)
        return fail(ps, "nested too deeply");
    skip_blanks(ps);
    if (ps->p >= ps->end)
        return fail(ps, "the text ends where a value should be");
    j->text = ps->p;
    int rc;
    switch (*ps->p) {
    case '{': j->type = JSON_OBJECT; rc = items(ps, j, depth, 1); break;
    case '[': j->type = JSON_ARRAY; rc = items(ps, j, depth, 0); break;
    case '"': j->type = JSON_STRING; rc = string(ps, &j->str); break;
    case 't': j->type = JSON_TRUE; rc = literal(ps, "true"); break;
    case 'f': j->type = JSON_FALSE; rc = literal(ps, "false"); break;
    case 'n': j->type = JSON_NULL; rc = literal(ps, "null"); break;
    default: j->type = JSON_NUMBER; rc = number(ps, &j->num); break;
    }
    j->len = (size_t)(ps->p - j->text);
    return rc;
}

Json *json_parse(const char *s, size_t n, Error *e)
{
    Parser ps = {s, s, s + n, NULL, e, 0};
    Root *r = pool_alloc(&ps, sizeof *r);
    if (!r) {
        err_set(e, "out of memory");
        return NULL;
    }
    memset(r, 0, sizeof *r);
    if (value(&ps, &r->node, 0) == 0) {
        skip_blanks(&ps);
        if (ps.p < ps.end)
            fail(&ps, "more text after the value");
    }
    if (ps.failed) {
        free_blocks(ps.blocks);
        return NULL;
    }
    r->blocks = ps.blocks;
    return &r->node;
}

void json_free(Json *root)
{
    if (!root)
        return;
    Root *r = (Root *)((char *)root - offsetof(Root, node));
    free_blocks(r->blocks);
}

const Json *json_get(const Json *o, const char *key)
{
    if (!o || o->type != JSON_OBJECT)
        return NULL;
    for (const Json *c = o->child; c; c = c->next)
        if (strcmp(c->key, key) == 0)
            return c;
    return NULL;
}

const Json *json_at(const Json *a, int i)
{
    if (!a || a->type != JSON_ARRAY || i < 0)
        return NULL;
    const Json *c = a->child;
    while (c && i--)
        c = c->next;
    return c;
}
