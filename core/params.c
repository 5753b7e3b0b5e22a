/*
 * params.c -- reading, checking and describing variant parameters.
 *
 * Invariant: a Params holds a valid value for every definition of its
 * variant; params_set checks a new value fully before it stores it.
 */
#include "params.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

static const int DEFAULT_VALUES[FIG__COUNT] = {0, 1, 3, 3, 5, 10, 0, 0};

void params_defaults(const VariantOps *v, Params *p)
{
    memset(p, 0, sizeof *p);
    p->n = v->nparams;
    for (int i = 0; i < v->nparams && i < MAX_PARAMS; i++)
        p->v[i] = v->params[i].def;
    /* the variants' tables cover the orthodox set; lettered figures stay 0
     * until a rule set gives their values */
    memcpy(p->values, v->version >= 3 && v->values ? v->values : DEFAULT_VALUES,
           sizeof DEFAULT_VALUES);
}

int params_index(const VariantOps *v, const char *name)
{
    for (int i = 0; i < v->nparams; i++)
        if (strcmp(v->params[i].name, name) == 0)
            return i;
    return -1;
}

static void list_names(const VariantOps *v, StrBuf *b)
{
    for (int i = 0; i < v->nparams; i++)
        sb_printf(b, "%s%s", i ? ", " : "", v->params[i].name);
    sb_printf(b, "%svalue.P .. value.Q", v->nparams ? ", " : "");
}

static void list_choices(const ParamDef *d, StrBuf *b)
{
    switch (d->type) {
    case PARAM_BOOL: sb_puts(b, "on or off"); break;
    case PARAM_INT: sb_printf(b, "a whole number from %d to %d", d->min, d->max); break;
    case PARAM_ENUM:
        for (int k = 0; d->choices[k]; k++)
            sb_printf(b, "%s%s", k ? ", " : "one of ", d->choices[k]);
        break;
    }
}

static int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (errno || end == s || *end)
        return -1;
    *out = x;
    return 0;
}

static int parse_bool(const char *s)
{
    static const char *const yes[] = {"on", "true", "yes", "1"};
    static const char *const no[] = {"off", "false", "no", "0"};
    for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
        if (str_ieq(s, yes[i]))
            return 1;
        if (str_ieq(s, no[i]))
            return 0;
    }
    return -1;
}

/* "value.Q=12": one entry of the value table. */
static int set_value(Params *p, const char *name, const char *val, Error *e)
{
    int fig = strlen(name) == 7 ? figure_from_any_letter(name[6]) : FIG_NONE;
    long x;
    if (fig == FIG_NONE || fig == FIG_KING)
        return err_set(e, "unknown piece value '%s': use value.P, value.N, "
                          "value.B, value.R or value.Q (or the letter of a "
                          "rule set's own piece, value.A)", name);
    if (parse_long(val, &x) || x < 0 || x > 1000)
        return err_set(e, "%s=%s: the value must be a whole number from 0 to 1000",
                       name, val);
    p->values[fig] = (int)x;
    return 0;
}

int params_set(const VariantOps *v, Params *p, const char *assign, Error *e)
{
    const char *eq = strchr(assign, '=');
    char name[64];
    if (!eq || eq == assign || (size_t)(eq - assign) >= sizeof name)
        return err_set(e, "'%s': write a parameter as NAME=VALUE", assign);
    memcpy(name, assign, (size_t)(eq - assign));
    name[eq - assign] = '\0';
    const char *val = eq + 1;
    if (strncmp(name, "value.", 6) == 0)
        return set_value(p, name, val, e);

    int i = params_index(v, name);
    if (i < 0) {
        StrBuf b = STRBUF_INIT;
        list_names(v, &b);
        err_set(e, "%s has no parameter '%s'; its parameters are: %s", v->name,
                name, sb_str(&b));
        sb_free(&b);
        return -1;
    }
    const ParamDef *d = &v->params[i];
    long x = -1;
    int ok = 0;
    switch (d->type) {
    case PARAM_BOOL:
        x = parse_bool(val);
        ok = x >= 0;
        break;
    case PARAM_INT:
        ok = parse_long(val, &x) == 0 && x >= d->min && x <= d->max;
        break;
    case PARAM_ENUM:
        for (int k = 0; d->choices[k]; k++)
            if (str_ieq(val, d->choices[k]))
                x = k, ok = 1;
        break;
    }
    if (!ok) {
        StrBuf b = STRBUF_INIT;
        list_choices(d, &b);
        err_set(e, "%s=%s: bad value; %s takes %s", d->name, val, d->name,
                sb_str(&b));
        sb_free(&b);
        return -1;
    }
    p->v[i] = (int)x;
    return 0;
}

void params_format_value(const VariantOps *v, const Params *p, int i, StrBuf *out)
{
    const ParamDef *d = &v->params[i];
    switch (d->type) {
    case PARAM_BOOL: sb_puts(out, p->v[i] ? "on" : "off"); break;
    case PARAM_INT: sb_printf(out, "%d", p->v[i]); break;
    case PARAM_ENUM: sb_puts(out, d->choices[p->v[i]]); break;
    }
}

static const char *type_name(const ParamDef *d)
{
    return d->type == PARAM_BOOL ? "bool" : d->type == PARAM_INT ? "int" : "choice";
}

void params_describe(const VariantOps *v, const Params *p, StrBuf *out)
{
    Params def;
    params_defaults(v, &def);
    int w = 20; /* the names' column: as wide as the longest name */
    for (int i = 0; i < v->nparams; i++)
        w = (int)strlen(v->params[i].name) > w ? (int)strlen(v->params[i].name) : w;
    for (int i = 0; i < v->nparams; i++) {
        const ParamDef *d = &v->params[i];
        sb_printf(out, "%-*s %-6s default ", w, d->name, type_name(d));
        params_format_value(v, &def, i, out);
        if (p && p->v[i] != def.v[i]) {
            sb_puts(out, ", now ");
            params_format_value(v, p, i, out);
        }
        sb_printf(out, "  [%s] %s (", d->rule ? d->rule : "-", d->doc);
        list_choices(d, out);
        sb_puts(out, ")\n");
    }
    sb_printf(out, "%-*s int    piece values:", w, "value.X");
    for (int f = FIG_PAWN; f <= FIG_QUEEN; f++)
        sb_printf(out, " %c=%d", figure_letter(f), p ? p->values[f] : def.values[f]);
    /* a rule set's lettered pieces (issue 24), those it gives a value */
    for (int f = FIG_LETTERED_FIRST; p && f < FIG_MAX; f++)
        if (p->values[f])
            sb_printf(out, " %c=%d", figure_letter(f), p->values[f]);
    sb_puts(out, "  (value.Q=12 sets the queen's value)\n");
}

void params_diff(const VariantOps *v, const Params *p, StrBuf *out)
{
    Params def;
    params_defaults(v, &def);
    int first = 1;
    for (int i = 0; i < v->nparams; i++) {
        if (p->v[i] == def.v[i])
            continue;
        sb_printf(out, "%s%s=", first ? "" : " ", v->params[i].name);
        params_format_value(v, p, i, out);
        first = 0;
    }
    for (int f = FIG_PAWN; f < FIG_MAX; f++) {
        if (f == FIG_KING || f == FIG_HIDDEN || p->values[f] == def.values[f])
            continue;
        sb_printf(out, "%svalue.%c=%d", first ? "" : " ", figure_letter(f),
                  p->values[f]);
        first = 0;
    }
}
