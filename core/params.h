/*
 * params.h -- named, typed, documented variant parameters.
 *
 * Each variant declares a const table of ParamDef (the rules briefs mark
 * them *Parameter*).  A game carries a Params: one int per definition, in
 * table order (bool 0/1, an integer, or an enum's choice index), plus the
 * piece value table.  Plain data: copied with the game.
 */
#ifndef CHESSVAR_PARAMS_H
#define CHESSVAR_PARAMS_H

#include "action.h"
#include "util.h"

#define MAX_PARAMS 32

typedef enum ParamType { PARAM_BOOL, PARAM_INT, PARAM_ENUM } ParamType;

typedef struct ParamDef {
    const char *name;            /* "fivefold" */
    ParamType type;
    int def;                     /* default value (enum: choice index) */
    int min, max;                /* PARAM_INT range, inclusive */
    const char *const *choices;  /* PARAM_ENUM: NULL-terminated names */
    const char *rule;            /* rule it belongs to: "ORTH-9" */
    const char *doc;             /* one line for people */
    const char *position_field;  /* a field of the position string that says
                                    the same (Tile's "first:"), or NULL: a
                                    start position decides it, so the
                                    parameter is refused with --fen */
} ParamDef;

typedef struct Params {
    int n;                     /* number of definitions */
    int v[MAX_PARAMS];         /* values, in definition order */
    int values[FIG_MAX];       /* piece values (the value table), lettered
                                  figures too (0 unless a rule set gives one) */
} Params;

struct VariantOps;

/* Defaults of every parameter of the variant and the default value table
 * (P 1, N 3, B 3, R 5, Q 10, K 0 meaning "infinite"). */
void params_defaults(const struct VariantOps *v, Params *p);
/* Apply one "NAME=VALUE".  Bool accepts on/off, true/false, yes/no, 1/0;
 * enum accepts a choice name; int a decimal in range.  Also accepts
 * "value.X=N" for the value table (X a figure letter).  On error returns -1
 * with a message that lists the valid names or values; p is unchanged. */
int params_set(const struct VariantOps *v, Params *p, const char *assign,
               Error *e);
/* Index of the named parameter, or -1. */
int params_index(const struct VariantOps *v, const char *name);
/* Write the value of parameter i as text ("on", "75", "win"). */
void params_format_value(const struct VariantOps *v, const Params *p, int i,
                         StrBuf *out);
/* One line per parameter: name, type, default, current value, rule, doc. */
void params_describe(const struct VariantOps *v, const Params *p, StrBuf *out);
/* Space-separated NAME=VALUE for every value differing from the default
 * (what a record stores); "" when all are defaults. */
void params_diff(const struct VariantOps *v, const Params *p, StrBuf *out);

#endif
