/*
 * test_layers.c -- each folder of core/ is a layer that uses the layers
 * below it and never those above (docs/ARCHITECTURE.md, "Layers"): the
 * engine (core/) knows no face; the Lua house rules (core/lua/) know only
 * the engine; records (core/record/) the engine and the Lua layer; bots
 * and experiments (core/lab/) the engine; the command (core/cli/) all of
 * those; the server (core/web/, issue 21) all of those and the command's
 * batch protocol; the diagrams (core/draw/, issue 22) the engine, and the
 * command and the server may use them.
 * Checked on every #include "..." of every file of those folders, and on
 * a broken line, so a check that stopped checking fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/util.h"
#include "support/testutil.h"

/* The layers, and which each may include ("e" engine, "v" variants). */
static const struct {
    const char *dir, *layer, *may;
} LAYERS[] = {
    {"core", "e", "ev"},
    {"core/lua", "l", "evl"},
    {"core/record", "r", "evlr"},
    {"core/lab", "b", "evb"},
    {"core/draw", "d", "evd"},
    {"core/cli", "c", "evlrbdc"},
    {"core/web", "w", "evlrbdcw"},
};

/* The layer of a normalized path, or 0 (the C library, tests). */
static char layer_of(const char *path)
{
    if (strncmp(path, "variants/", 9) == 0)
        return 'v';
    char dir[256];
    const char *slash = strrchr(path, '/');
    if (!slash || (size_t)(slash - path) >= sizeof dir)
        return 0;
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    for (size_t i = 0; i < ARRAY_LEN(LAYERS); i++)
        if (strcmp(dir, LAYERS[i].dir) == 0)
            return LAYERS[i].layer[0];
    return 0;
}

/* dir/inc with "." and ".." resolved, into out. */
static void resolve(const char *dir, const char *inc, char *out, size_t n)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", dir, inc);
    char *parts[64];
    int np = 0;
    for (char *t = strtok(buf, "/"); t && np < 64; t = strtok(NULL, "/")) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0 && np > 0)
            np--;
        else
            parts[np++] = t;
    }
    out[0] = '\0';
    for (int i = 0; i < np; i++) {
        strncat(out, parts[i], n - strlen(out) - 1);
        if (i + 1 < np)
            strncat(out, "/", n - strlen(out) - 1);
    }
}

/* The findings of one file's text (in folder dir, of layer `may`): the
 * count, each printed. */
static int check_text(const char *file, const char *dir, const char *may, const char *text)
{
    int bad = 0;
    for (const char *p = strstr(text, "#include \""); p; p = strstr(p + 1, "#include \"")) {
        const char *s = p + strlen("#include \""), *e = strchr(s, '"');
        if (!e || e - s >= 256)
            continue;
        char inc[256], target[512];
        memcpy(inc, s, (size_t)(e - s));
        inc[e - s] = '\0';
        resolve(dir, inc, target, sizeof target);
        char l = layer_of(target);
        if (l && !strchr(may, l)) {
            printf("%s includes %s: a layer above its own\n", file, target);
            bad++;
        }
    }
    return bad;
}

static void test_layers_use_only_the_layers_below(void **state)
{
    (void)state;
    int bad = 0, files = 0;
    for (size_t i = 0; i < ARRAY_LEN(LAYERS); i++) {
        DIR *d = opendir(LAYERS[i].dir);
        assert_non_null(d);
        struct dirent *de;
        while ((de = readdir(d))) {
            size_t n = strlen(de->d_name);
            if (n < 3 || (strcmp(de->d_name + n - 2, ".c") && strcmp(de->d_name + n - 2, ".h")))
                continue;
            char path[512];
            snprintf(path, sizeof path, "%s/%s", LAYERS[i].dir, de->d_name);
            char *text = tu_read_file(path);
            assert_non_null(text);
            bad += check_text(path, LAYERS[i].dir, LAYERS[i].may, text);
            files++;
            free(text);
        }
        closedir(d);
    }
    assert_true(files >= 30);
    assert_int_equal(bad, 0);
}

/* The check itself, on texts broken on purpose: the engine including a
 * face, the Lua layer including the command, and lawful lines. */
static void test_layers_check_finds_a_broken_include(void **state)
{
    (void)state;
    assert_int_equal(check_text("core/game.c", "core", "ev", "#include \"lua/house.h\"\n"), 1);
    assert_int_equal(check_text("core/lua/house.c", "core/lua", "evl",
                                "#include \"../cli/cli.h\"\n#include \"../game.h\"\n"), 1);
    assert_int_equal(check_text("core/cli/cli.c", "core/cli", "evlrbc",
                                "#include \"../lab/bot.h\"\n#include \"../lua/house.h\"\n"), 0);
    assert_int_equal(check_text("core/game.c", "core", "ev",
                                "#include \"../variants/orthodox/orthodox.h\"\n"), 0);
    assert_int_equal(check_text("core/cli/cli.c", "core/cli", "evlrbdc",
                                "#include \"../web/web.h\"\n"), 1);
    /* issue 22: the engine never draws; the drawing never plays a command */
    assert_int_equal(check_text("core/game.c", "core", "ev", "#include \"draw/draw.h\"\n"), 1);
    assert_int_equal(check_text("core/draw/draw.c", "core/draw", "evd",
                                "#include \"../cli/render.h\"\n"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_use_only_the_layers_below),
        cmocka_unit_test(test_layers_check_finds_a_broken_include),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
