/*
 * test_fairy_fs.c -- the Fairy-Stockfish variants written as rule sets
 * (scripts/variants/: Capablanca, Embassy, Janus, Grand, Modern,
 * Chancellor and Courier chess, and the Betza pieces of Nightrider,
 * Grasshopper, Hoppel-Poppel, New Zealand and Amazon chess; issue 24)
 * count exactly Fairy-Stockfish's
 * perft: its published numbers (tests/perft.sh) and counts computed with
 * ffish, all in tests/data/fairy_perft.txt.  Each script is loaded as a
 * user loads it (house_load, the text of the file), its rule set played by
 * the fairy variant, and game_perft compared line by line.
 *
 * Invariant: every line of the data file is checked (a sanitized build
 * leaves out the counts above SANITIZED_MAX, saying how many), and a
 * mismatch names the script, the position, the depth and both counts;
 * all mismatches are listed (on stderr) before the test fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define DATA "tests/data/fairy_perft.txt"
#define SANITIZED_MAX 100000

/* One line of the data file. */
typedef struct FsLine {
    int lineno;
    char script[64];
    char position[256];   /* "start" or a position string */
    int depth;
    uint64_t count;
} FsLine;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Read "script | position | depth | count"; fails the test on a bad line. */
static void parse_line(char *text, int lineno, FsLine *out)
{
    char *f[4];
    int n = 0;
    for (char *p = text; n < 4; n++) {
        f[n] = p;
        char *bar = strchr(p, '|');
        if (!bar) {
            n++;
            break;
        }
        *bar = '\0';
        p = bar + 1;
    }
    if (n != 4)
        fail_msg("%s:%d: expected \"script | position | depth | count\"", DATA, lineno);
    out->lineno = lineno;
    snprintf(out->script, sizeof out->script, "%s", trim(f[0]));
    snprintf(out->position, sizeof out->position, "%s", trim(f[1]));
    char *end;
    out->depth = (int)strtol(trim(f[2]), &end, 10);
    if (*end || out->depth < 1 || out->depth > 8)
        fail_msg("%s:%d: depth \"%s\" is not 1..8", DATA, lineno, f[2]);
    out->count = strtoull(trim(f[3]), &end, 10);
    if (*end || !*trim(f[3]))
        fail_msg("%s:%d: count \"%s\" is not a number", DATA, lineno, f[3]);
}

/* The game of the line's script at its position; NULL with e. */
static Game *script_game(const FsLine *l, House **hp, Error *e)
{
    const VariantOps *v = variant_find("fairy");
    if (!v) {
        err_set(e, "no variant \"fairy\" (issue 24's engine is not built in)");
        return NULL;
    }
    char path[128];
    if (strchr(l->script, '/'))
        snprintf(path, sizeof path, "%s", l->script);     /* a test's own rule set */
    else
        snprintf(path, sizeof path, "scripts/variants/%s", l->script);
    char *text = tu_read_file(path);
    if (!text) {
        err_set(e, "cannot read %s", path);
        return NULL;
    }
    HouseSource src = {path, text, strlen(text)};
    HouseLimits lim = {0};
    House *h = house_load(v, 0, &src, 1, &lim, e);
    free(text);
    if (!h)
        return NULL;
    GameHooks k = house_hooks(h);
    if (!k.ruleset) {
        house_free(h);
        err_set(e, "%s gives no rule set: its game would be orthodox chess", path);
        return NULL;
    }
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = v;
    cfg.seed = 1;
    cfg.position = strcmp(l->position, "start") == 0 ? NULL : l->position;
    params_defaults(v, &cfg.params);
    if (house_params(h, &cfg.params, e)) {
        house_free(h);
        return NULL;
    }
    cfg.params_set = 1;
    Game *g = game_new_hooked(&cfg, &k, e);
    if (!g) {
        house_free(h);
        return NULL;
    }
    *hp = h;
    return g;
}

/* issue 24: every count of tests/data/fairy_perft.txt, by its script. */
static void test_issue24_fairy_stockfish_perft(void **state)
{
    (void)state;
    char *data = tu_read_file(DATA);
    assert_non_null(data);
    int lineno = 0, checked = 0, skipped = 0, wrong = 0;
    for (char *line = data, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        FsLine l;
        parse_line(t, lineno, &l);
        if (TU_SANITIZED && l.count > SANITIZED_MAX) {
            skipped++;
            continue;
        }
        Error e = {""};
        House *h = NULL;
        Game *g = script_game(&l, &h, &e);
        if (!g) {
            fprintf(stderr, "%s:%d %s: %s\n", DATA, l.lineno, l.script, e.msg);
            wrong++;
            continue;
        }
        uint64_t n = game_perft(g, l.depth);
        if (n != l.count) {
            fprintf(stderr, "%s:%d %s, %s, depth %d: %" PRIu64 ", Fairy-Stockfish %" PRIu64
                    "\n", DATA, l.lineno, l.script, l.position, l.depth, n, l.count);
            wrong++;
        }
        checked++;
        game_free(g);
        house_free(h);
    }
    free(data);
    fprintf(stderr, "fairy perft: %d counts checked, %d wrong", checked, wrong);
    if (skipped)
        fprintf(stderr, ", %d over %d leaves left out (sanitized build)", skipped,
                SANITIZED_MAX);
    fprintf(stderr, "\n");
    if (wrong)
        fail_msg("%d of the counts differ or could not be run (listed above)", wrong);
    assert_true(checked > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_issue24_fairy_stockfish_perft),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
