/*
 * registry.c -- the built-in variants, in menu order.  Adding a variant is
 * one line here and one directory in variants/ (Lua's linit.c habit).
 */
#include <string.h>

#include "variant.h"
#include "../variants/orthodox/orthodox.h"
#include "../variants/masques/masques.h"
#include "../variants/ambigus/ambigus.h"
#include "../variants/echiquete/echiquete.h"
#include "../variants/tile/tilevar.h"
#include "../variants/fairy/fairy.h"

const VariantOps *const variant_registry[] = {
    &orthodox_variant,
    &masques_variant,
    &ambigus_variant,
    &echiquete_variant,
    &tile_variant,
    &fairy_variant,
    NULL,
};

const VariantOps *variant_find(const char *name)
{
    for (int i = 0; variant_registry[i]; i++)
        if (str_ieq(name, variant_registry[i]->name))
            return variant_registry[i];
    return NULL;
}
