/*
 * rulearea.c -- the areas rules belong to (core/variant.h RuleArea): their
 * words for cards of differences and their one-word keys for scripts and
 * JSON (issue 22, docs/TEACHING.md).
 */
#include <string.h>

#include "variant.h"

static const char *const AREA_NAME[AREA__COUNT] = {
    "board and setup", "who moves and when", "how pieces move", "captures",
    "check and the King", "hidden information", "how the game ends", "draws"};
static const char *const AREA_WORD[AREA__COUNT] = {
    "board", "turns", "moves", "captures", "check", "hidden", "end", "draws"};

const char *rule_area_name(int area)
{
    return area >= 0 && area < AREA__COUNT ? AREA_NAME[area] : NULL;
}

const char *rule_area_word(int area)
{
    return area >= 0 && area < AREA__COUNT ? AREA_WORD[area] : NULL;
}

int rule_area_find(const char *s)
{
    for (int i = 0; s && i < AREA__COUNT; i++)
        if (strcmp(s, AREA_WORD[i]) == 0 || strcmp(s, AREA_NAME[i]) == 0)
            return i;
    return -1;
}
