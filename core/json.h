/*
 * json.h -- a strict JSON reader (RFC 8259) for the files chessvar writes
 * and reads back: the parts of an experiment that `chessvar merge`
 * combines.  Values become a tree of Json nodes allocated as one block.
 *
 * Invariant: json_parse either returns a complete tree or NULL with an
 * error naming the line and column of the first problem; it never reads
 * past the n bytes given and nests at most JSON_MAX_DEPTH deep.
 */
#ifndef CHESSVAR_JSON_H
#define CHESSVAR_JSON_H

#include <stddef.h>

#include "util.h"

#define JSON_MAX_DEPTH 64

typedef enum JsonType {
    JSON_NULL, JSON_FALSE, JSON_TRUE, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT
} JsonType;

typedef struct Json Json;
struct Json {
    JsonType type;
    double num;         /* JSON_NUMBER */
    const char *str;    /* JSON_STRING (NUL-terminated; a \u0000 is refused) */
    const char *key;    /* the member's name inside an object, else NULL */
    Json *child;        /* arrays and objects: first element / member */
    Json *next;         /* the next element / member */
    int count;          /* arrays and objects: how many */
    const char *text;   /* where the value starts in the input (for copies) */
    size_t len;         /* and its length there */
};

/* Parse the n bytes at s as one JSON value (blanks around it allowed):
 * the root, or NULL with e ("line 3, column 14: ..."). Free with
 * json_free. */
Json *json_parse(const char *s, size_t n, Error *e);
void json_free(Json *root);

/* Member `key` of an object (NULL if absent or o is not an object). */
const Json *json_get(const Json *o, const char *key);
/* Element i of an array, or NULL. */
const Json *json_at(const Json *a, int i);

#endif
