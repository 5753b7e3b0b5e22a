/*
 * test_fairy_oracle.c -- issue 24: the seven lichess variants written as
 * rule sets from parts (scripts/variants/NAME.lua, variant "fairy") agree
 * with lichess's own rules library, chessops, on perft.
 *
 * The oracle runs here, in the test's setup, not as a checked-in answer:
 * `node tests/oracle/perft.cjs plan` (chessops from build/oracle, installed
 * by `make test`'s deps-oracle) prints the positions with chessops' counts
 * at depths 1 to 4 -- the variant perft positions chessops publishes in
 * its tests (tests/data/chessops_perft.epd: the plan fails when chessops
 * itself disagrees with one), positions where a variant's rule shows (its
 * end, a forced or exploding capture ...), each variant's start, and
 * middlegame positions of seeded random games (20 plies;
 * tests/oracle/oracle.cjs).  Orthodox chess the same way, by the orthodox
 * engine (the harness's own check) and by the fairy variant without a rule
 * set.  Fairy-Stockfish's variants the issue names (Capablanca, Embassy,
 * Janus, Grand chess: scripts/variants/NAME.lua, the Betza helper's) are
 * counted against ffish, Fairy-Stockfish in WebAssembly, to depth 3.
 * Each position is read by the fairy variant under its script (house_load,
 * then game_new_hooked as any game with --rules) and counted with
 * game_perft; every count is compared, and a count that differs prints the
 * root moves whose subtrees differ (the oracle's divide beside ours), so a
 * failure says where the rules part.
 *
 * Without node or the packages the tests are skipped, saying so -- except
 * under `make test` (CHESSVAR_ORACLE=required), which installs them: there
 * a missing oracle fails, as a missing puppeteer fails the browser tests.
 * Depths and positions shrink under the sanitizers (TU_SANITIZED).
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
#include <sys/wait.h>

#include "../core/game.h"
#include "../core/lua/house.h"
#include "support/testutil.h"

#define ORACLE_DIR_DEFAULT "build/oracle/node_modules"
#define MAX_LINES 256
#define MAX_DEPTH 4

/* One line of the plan: a position, the oracle's counts by depth, the
 * result there ("*" going on, "?" not compared) and the root moves after
 * which the game is over ("e1d2=1-0,..." or "-"). */
typedef struct Line {
    const char *variant, *label, *fen;
    int ndepths;
    uint64_t count[MAX_DEPTH];
    const char *outcome, *ends;
} Line;

static struct {
    char *text;          /* the plan's output, cut into the lines below */
    Line line[MAX_LINES];
    int n;
    const char *missing; /* why there is no oracle, or NULL */
    char why[1024];
} plan;

static const char *oracle_dir(void)
{
    const char *d = getenv("ORACLE_DIR");
    return d && *d ? d : ORACLE_DIR_DEFAULT;
}

static int oracle_required(void)
{
    const char *r = getenv("CHESSVAR_ORACLE");
    return r && !strcmp(r, "required");
}

/* NULL when node, chessops and ffish are there, else what is missing. */
static const char *find_oracle(char *why, size_t n)
{
    if (system("command -v node >/dev/null 2>&1") != 0) {
        snprintf(why, n, "node is not installed (Debian's nodejs; npm installs the oracle)");
        return why;
    }
    static const char *const PKGS[] = {"chessops", "ffish"};
    for (size_t i = 0; i < sizeof PKGS / sizeof PKGS[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s/package.json", oracle_dir(), PKGS[i]);
        FILE *f = fopen(path, "r");
        if (!f) {
            snprintf(why, n, "%s is not installed in %s (make deps-oracle installs it)",
                     PKGS[i], oracle_dir());
            return why;
        }
        fclose(f);
    }
    return NULL;
}

/* Run cmd (stderr joined to stdout): its output (malloc'd) and, in *status,
 * its exit status (-1 when it did not exit normally). */
static char *run_command(const char *cmd, int *status)
{
    char full[4096];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) {
        *status = -1;
        return NULL;
    }
    char *out = tu_read_stream(p);
    int st = pclose(p);
    *status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return out;
}

/* A position string is passed to the shell in single quotes: it may hold
 * only these characters. */
static int shell_safe(const char *s)
{
    return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/~+[]- ") ==
           strlen(s);
}

/* Cut the plan's output into lines: 0, or -1 with why. */
static int parse_plan(char *text)
{
    char *save = NULL;
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (plan.n == MAX_LINES) {
            snprintf(plan.why, sizeof plan.why, "the plan has more than %d lines", MAX_LINES);
            return -1;
        }
        Line *x = &plan.line[plan.n];
        char *f[6];
        int nf = 0;
        for (char *s = l; nf < 6; nf++) {
            f[nf] = s;
            char *tab = strchr(s, '\t');
            if (!tab) {
                nf++;
                break;
            }
            *tab = '\0';
            s = tab + 1;
        }
        if (nf != 6) {
            snprintf(plan.why, sizeof plan.why,
                     "plan line %d is not VARIANT LABEL FEN COUNTS OUTCOME ENDS: %.200s",
                     plan.n + 1, l);
            return -1;
        }
        x->variant = f[0];
        x->label = f[1];
        x->fen = f[2];
        x->outcome = f[4];
        x->ends = f[5];
        char *c = f[3], *end;
        for (x->ndepths = 0; *c && x->ndepths < MAX_DEPTH; x->ndepths++, c = end) {
            x->count[x->ndepths] = strtoull(c, &end, 10);
            if (end == c)
                break;
        }
        if (x->ndepths == 0 || !shell_safe(x->fen)) {
            snprintf(plan.why, sizeof plan.why, "plan line %d: bad counts or position: %.200s",
                     plan.n + 1, x->fen);
            return -1;
        }
        plan.n++;
    }
    return plan.n ? 0 : -1;
}

/* The plan, once for all the tests: the oracle's counts now. */
static int setup(void **state)
{
    (void)state;
    plan.missing = find_oracle(plan.why, sizeof plan.why);
    if (plan.missing)
        return 0;
    char cmd[256];
    /* sanitized: one random position a variant, depth 3 at most */
    snprintf(cmd, sizeof cmd, "node tests/oracle/perft.cjs plan %s",
             TU_SANITIZED ? "--random 1 --deep 0 --max-depth 3" : "--random 3 --deep 1");
    int status;
    plan.text = run_command(cmd, &status);
    if (status != 0 || !plan.text) {
        snprintf(plan.why, sizeof plan.why, "%s failed (status %d): %.400s", cmd, status,
                 plan.text ? plan.text : "(no output)");
        plan.missing = plan.why;
        return 0;
    }
    if (parse_plan(plan.text))
        plan.missing = plan.why;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(plan.text);
    return 0;
}

/* Skip (alone) or fail (under make test) when there is no oracle. */
static void need_oracle(void)
{
    if (!plan.missing)
        return;
    if (oracle_required())
        fail_msg("the oracle is missing: %s", plan.missing);
    print_message("SKIPPED: no oracle: %s\n", plan.missing);
    skip();
}

/* ---- Our side ------------------------------------------------------------ */

typedef struct Ours {
    const VariantOps *v;
    House *h;          /* NULL: the variant's own rules, no script */
    char *text;
} Ours;

/* The variant named engine, under scripts/variants/<script>.lua when
 * script is not NULL. */
static void ours_load(Ours *o, const char *engine, const char *script)
{
    memset(o, 0, sizeof *o);
    o->v = variant_find(engine);
    if (!o->v)
        fail_msg("issue 24: the variant \"%s\" is not registered (the engine of rule sets "
                 "from parts)", engine);
    if (!script)
        return;
    char path[256];
    snprintf(path, sizeof path, "scripts/variants/%s.lua", script);
    o->text = tu_read_file(path);
    if (!o->text)
        fail_msg("%s cannot be read", path);
    HouseSource src = {path, o->text, strlen(o->text)};
    Error e;
    o->h = house_load(o->v, 0, &src, 1, NULL, &e);
    if (!o->h)
        fail_msg("%s does not load against the %s variant: %s", path, engine, e.msg);
}

static void ours_free(Ours *o)
{
    if (o->h)
        house_free(o->h);
    free(o->text);
}

/* A game of the variant (under the script) from fen; NULL with e. */
static Game *ours_game(Ours *o, const char *fen, Error *e)
{
    GameConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.variant = o->v;
    cfg.position = fen;
    params_defaults(o->v, &cfg.params);
    if (o->h && house_params(o->h, &cfg.params, e))
        return NULL;
    cfg.params_set = 1;
    if (!o->h)
        return game_new(&cfg, e);
    GameHooks k = house_hooks(o->h);
    return game_new_hooked(&cfg, &k, e);
}

/* ---- Where two counts part ---------------------------------------------- */

typedef struct Split {
    char move[24];
    uint64_t n;
} Split;

typedef struct Splits {
    Split v[512];
    int n;
} Splits;

static void collect(void *ud, const char *move, uint64_t n)
{
    Splits *s = ud;
    if (s->n < (int)(sizeof s->v / sizeof s->v[0])) {
        snprintf(s->v[s->n].move, sizeof s->v[s->n].move, "%s", move);
        s->v[s->n++].n = n;
    }
}

static const Split *split_find(const Splits *s, const char *move)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].move, move))
            return &s->v[i];
    return NULL;
}

/* The library that counted the variant's positions. */
static const char *oracle_of(const char *variant)
{
    return strncmp(variant, "ffish:", 6) ? "chessops" : "ffish";
}

/* Print the root moves whose subtrees differ at depth (at most 12). */
static void print_divide(const Game *g, const Line *x, int depth)
{
    const char *who = oracle_of(x->variant);
    static Splits ours, theirs;
    ours.n = theirs.n = 0;
    game_perft_divide(g, depth, collect, &ours);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "node tests/oracle/perft.cjs divide %s %d '%s'", x->variant, depth,
             x->fen);
    int status;
    char *out = run_command(cmd, &status);
    if (status != 0 || !out) {
        print_message("    (the oracle's divide failed: %s)\n", out ? out : "no output");
        free(out);
        return;
    }
    char *save = NULL;
    for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char move[24];
        uint64_t n;
        if (sscanf(l, "%23[^:]: %" SCNu64, move, &n) == 2 && strcmp(move, "total"))
            collect(&theirs, move, n);
    }
    free(out);
    int shown = 0;
    for (int i = 0; i < theirs.n && shown < 12; i++) {
        const Split *o = split_find(&ours, theirs.v[i].move);
        if (!o)
            print_message("    %-8s %s %" PRIu64 ", not a move here\n", theirs.v[i].move, who,
                          theirs.v[i].n), shown++;
        else if (o->n != theirs.v[i].n)
            print_message("    %-8s %s %" PRIu64 ", here %" PRIu64 "\n", theirs.v[i].move, who,
                          theirs.v[i].n, o->n), shown++;
    }
    for (int i = 0; i < ours.n && shown < 12; i++)
        if (!split_find(&theirs, ours.v[i].move))
            print_message("    %-8s here %" PRIu64 ", not a move for %s\n", ours.v[i].move,
                          ours.v[i].n, who), shown++;
}

/* ---- Where the game ends ------------------------------------------------ */

/* The result the oracle gives after move in x's ends list, or "*". */
static const char *end_after(const Line *x, const char *move, char *buf, size_t n)
{
    size_t len = strlen(move);
    for (const char *p = x->ends; *p;) {
        size_t k = strcspn(p, ",");
        if (k > len && !strncmp(p, move, len) && p[len] == '=') {
            snprintf(buf, n, "%.*s", (int)(k - len - 1), p + len + 1);
            return buf;
        }
        p += k + (p[k] == ',');
    }
    return "*";
}

/* Compare where the game stands in g, and after each of its root moves,
 * with the oracle (issue 24: no move after a variant's end, and the same
 * winner): the comparisons made into *asked, those that agree into *agree. */
static void check_ends(const Game *g, const Line *x, int *asked, int *agree)
{
    char ours[64], want[64];
    if (strcmp(x->outcome, "?")) {
        (*asked)++;
        game_result_text(g, ours, sizeof ours);
        if (!strcmp(ours, x->outcome))
            (*agree)++;
        else
            print_message("%s %s: the game stands at %s here, %s for %s\n  %s\n", x->variant,
                          x->label, ours, x->outcome, oracle_of(x->variant), x->fen);
    }
    if (!strcmp(x->outcome, "?") && !strcmp(x->ends, "-"))
        return; /* ffish's lines: no ends given */
    ActionList l = ACTIONLIST_INIT;
    if (game_to_act(g) >= 0 && game_legal_play(g, &l) == 0) {
        for (int i = 0; i < l.n; i++) {
            StrBuf t = STRBUF_INIT;
            game_format(g, &l.v[i], FMT_MACHINE, &t);
            const char *expect = end_after(x, sb_str(&t), want, sizeof want);
            if (strcmp(expect, "?")) {
                Game *c = game_clone(g);
                Error e;
                (*asked)++;
                if (!c || game_apply(c, &l.v[i], &e)) {
                    print_message("%s %s: %s is refused after it was listed\n", x->variant,
                                  x->label, sb_str(&t));
                } else {
                    game_result_text(c, ours, sizeof ours);
                    if (!strcmp(ours, expect))
                        (*agree)++;
                    else
                        print_message("%s %s: after %s the game stands at %s here, %s for "
                                      "%s\n  %s\n", x->variant, x->label, sb_str(&t), ours,
                                      expect, oracle_of(x->variant), x->fen);
                }
                if (c)
                    game_free(c);
            }
            sb_free(&t);
        }
    }
    al_free(&l);
}

/* ---- The tests ------------------------------------------------------------ */

/* Every position of the plan for variant (the oracle's name): each count
 * of the variant engine (under scripts/variants/<script>.lua, or none)
 * against the oracle's. */
static void check_with(const char *variant, const char *engine, const char *script)
{
    need_oracle();
    const char *who = oracle_of(variant);
    Ours o;
    ours_load(&o, engine, script);
    int counts = 0, agree = 0, positions = 0, ends = 0, ends_agree = 0;
    for (int i = 0; i < plan.n; i++) {
        const Line *x = &plan.line[i];
        if (strcmp(x->variant, variant))
            continue;
        positions++;
        Error e;
        Game *g = ours_game(&o, x->fen, &e);
        if (!g) {
            counts += x->ndepths;
            print_message("%s %s: the position is refused: %s\n  %s\n", variant, x->label, e.msg,
                          x->fen);
            continue;
        }
        check_ends(g, x, &ends, &ends_agree);
        for (int d = 1; d <= x->ndepths; d++) {
            counts++;
            uint64_t n = game_perft(g, d);
            if (n == x->count[d - 1]) {
                agree++;
                continue;
            }
            if (n == GAME_PERFT_NOMEM || n == GAME_PERFT_FAILED)
                print_message("%s %s depth %d: perft failed (%s)\n  %s\n", variant, x->label, d,
                              n == GAME_PERFT_NOMEM ? "out of memory" : "a hook failed", x->fen);
            else
                print_message("%s %s depth %d: %s %" PRIu64 ", here %" PRIu64 "\n  %s\n",
                              variant, x->label, d, who, x->count[d - 1], n, x->fen);
            if (n != GAME_PERFT_NOMEM && n != GAME_PERFT_FAILED)
                print_divide(g, x, d);
            counts += x->ndepths - d; /* deeper counts part too: not asked */
            break;
        }
        game_free(g);
    }
    ours_free(&o);
    print_message("%s (%s%s%s%s): %d of %d counts agree with %s on %d positions, "
                  "%d of %d game ends\n",
                  variant, engine, script ? " --rules scripts/variants/" : "",
                  script ? script : "", script ? ".lua" : "", agree, counts, who, positions,
                  ends_agree, ends);
    if (positions == 0)
        fail_msg("the oracle's plan has no %s position", variant);
    if (agree != counts || ends_agree != ends)
        fail_msg("issue 24: %s differs from %s in %d of %d counts and %d of %d game ends",
                 variant, who, counts - agree, counts, ends - ends_agree, ends);
}

/* A lichess variant: the fairy variant under its script. */
static void check_variant(const char *variant)
{
    check_with(variant, "fairy", variant);
}

/* The harness itself: the orthodox engine (ORTH-1..9) agrees with chessops'
 * orthodox chess on the plan's orthodox positions (start, random games). */
static void test_oracle_orthodox_engine(void **state)
{
    (void)state;
    check_with("orthodox", "orthodox", NULL);
}

/* Issue 24: the fairy variant without a rule set is orthodox chess. */
static void test_oracle_fairy_without_rules(void **state)
{
    (void)state;
    check_with("orthodox", "fairy", NULL);
}

static void test_oracle_antichess(void **state)
{
    (void)state;
    check_variant("antichess");
}

static void test_oracle_atomic(void **state)
{
    (void)state;
    check_variant("atomic");
}

static void test_oracle_crazyhouse(void **state)
{
    (void)state;
    check_variant("crazyhouse");
}

static void test_oracle_horde(void **state)
{
    (void)state;
    check_variant("horde");
}

static void test_oracle_king_of_the_hill(void **state)
{
    (void)state;
    check_variant("king_of_the_hill");
}

static void test_oracle_racing_kings(void **state)
{
    (void)state;
    check_variant("racing_kings");
}

static void test_oracle_three_check(void **state)
{
    (void)state;
    check_variant("three_check");
}

/* Fairy-Stockfish's variants the issue names, written as rule sets
 * (scripts/variants/NAME.lua): the fairy variant against ffish on the
 * start and on middlegame positions of random games, to depth 3. */
static void test_oracle_ffish_capablanca(void **state)
{
    (void)state;
    check_with("ffish:capablanca", "fairy", "capablanca");
}

static void test_oracle_ffish_embassy(void **state)
{
    (void)state;
    check_with("ffish:embassy", "fairy", "embassy");
}

static void test_oracle_ffish_janus(void **state)
{
    (void)state;
    check_with("ffish:janus", "fairy", "janus");
}

static void test_oracle_ffish_grand(void **state)
{
    (void)state;
    check_with("ffish:grand", "fairy", "grand");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_orthodox_engine),
        cmocka_unit_test(test_oracle_fairy_without_rules),
        cmocka_unit_test(test_oracle_antichess),
        cmocka_unit_test(test_oracle_atomic),
        cmocka_unit_test(test_oracle_crazyhouse),
        cmocka_unit_test(test_oracle_horde),
        cmocka_unit_test(test_oracle_king_of_the_hill),
        cmocka_unit_test(test_oracle_racing_kings),
        cmocka_unit_test(test_oracle_three_check),
        cmocka_unit_test(test_oracle_ffish_capablanca),
        cmocka_unit_test(test_oracle_ffish_embassy),
        cmocka_unit_test(test_oracle_ffish_janus),
        cmocka_unit_test(test_oracle_ffish_grand),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
