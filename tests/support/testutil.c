/*
 * testutil.c -- helpers shared by the test files (see testutil.h).
 *
 * Invariant: every check here fails the running cmocka test with a message
 * that names the text, seat or FEN involved, so a failure inside a helper
 * still says which step of which test went wrong.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"

/* ---- Starting games ------------------------------------------------------ */

const VariantOps *tu_variant(const char *name)
{
    const VariantOps *v = variant_find(name);
    if (!v)
        fail_msg("the registry has no \"%s\" variant", name);
    return v;
}

/* Fill cfg from spec; params are applied one NAME=VALUE word at a time. */
static void config_of(const TuGame *spec, GameConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = spec->variant ? spec->variant : tu_variant("orthodox");
    cfg->seed = spec->seed;
    cfg->nsides = spec->nsides;
    cfg->nseats = spec->nseats;
    cfg->position = spec->position;
    if (!spec->params)
        return; /* the core fills the defaults */
    params_defaults(cfg->variant, &cfg->params);
    cfg->params_set = 1;
    char buf[256], *save = NULL;
    if (strlen(spec->params) >= sizeof buf)
        fail_msg("parameters too long for a test: %s", spec->params);
    str_copy(buf, sizeof buf, spec->params);
    for (char *p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
        Error e = {""};
        if (params_set(cfg->variant, &cfg->params, p, &e))
            fail_msg("parameter %s: %s", p, e.msg);
    }
}

Game *tu_game(const TuGame *spec)
{
    GameConfig cfg;
    Error e = {""};
    config_of(spec, &cfg);
    Game *g = game_new_hooked(&cfg, spec->hooks, &e);
    if (!g)
        fail_msg("cannot start %s from %s: %s", cfg.variant->name,
                 cfg.position ? cfg.position : "its start", e.msg);
    return g;
}

Game *tu_orthodox(const char *fen)
{
    return tu_game(&(TuGame){.position = fen});
}

Game *tu_orthodox_with(const char *fen, const char *params)
{
    return tu_game(&(TuGame){.position = fen, .params = params});
}

void tu_game_refused(const TuGame *spec, const char *want)
{
    GameConfig cfg;
    Error e = {""};
    config_of(spec, &cfg);
    Game *g = game_new_hooked(&cfg, spec->hooks, &e);
    if (g) {
        game_free(g);
        fail_msg("%s from %s started; expected \"%s\"", cfg.variant->name,
                 cfg.position ? cfg.position : "its start", want);
    }
    if (!strstr(e.msg, want))
        fail_msg("message \"%s\" lacks \"%s\"", e.msg, want);
}

/* ---- Playing ------------------------------------------------------------- */

void tu_play(Game *g, int seat, const char *text)
{
    Error e = {""};
    if (game_play(g, seat, text, &e) != 0)
        fail_msg("%s playing \"%s\": %s", game_seat_name(g, seat), text,
                 e.msg);
}

void tu_play_all(Game *g, const char *const *texts)
{
    for (; *texts; texts++)
        tu_play(g, game_to_act(g), *texts);
}

void tu_play_line(Game *g, const char *texts)
{
    char buf[512], *save = NULL;
    if (strlen(texts) >= sizeof buf)
        fail_msg("too many moves for one line: %s", texts);
    str_copy(buf, sizeof buf, texts);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
        tu_play(g, game_to_act(g), t);
}

/* ---- Refusals ------------------------------------------------------------ */

void tu_snap_take(Game *g, TuSnap *s)
{
    s->position = tu_position(g);
    s->nhist = game_history_len(g);
    s->nmsgs = game_message_count(g);
    s->to_act = game_to_act(g);
    s->offer = game_draw_offer(g);
    s->rng = *game_rng(g);
}

void tu_snap_check(Game *g, TuSnap *s)
{
    tu_assert_position(g, s->position);
    assert_int_equal(game_history_len(g), s->nhist);
    assert_int_equal(game_message_count(g), s->nmsgs);
    assert_int_equal(game_to_act(g), s->to_act);
    assert_int_equal(game_draw_offer(g), s->offer);
    assert_memory_equal(game_rng(g), &s->rng, sizeof s->rng);
    free(s->position);
}

static void refused(Game *g, int seat, const char *text, const char *want,
                    int exact)
{
    TuSnap s;
    Error e = {""};
    tu_snap_take(g, &s);
    int rc = game_play(g, seat, text, &e);
    if (rc != -1)
        fail_msg("\"%s\" by seat %d gave %d, not -1 (refused)", text, seat, rc);
    if (!e.msg[0])
        fail_msg("\"%s\" by seat %d was refused without a message", text, seat);
    if (want && (exact ? strcmp(e.msg, want) != 0 : !strstr(e.msg, want)))
        fail_msg("\"%s\": got message\n  \"%s\"\n%s\n  \"%s\"", text, e.msg,
                 exact ? "expected" : "which lacks", want);
    tu_snap_check(g, &s);
}

void tu_assert_refused_by(Game *g, int seat, const char *text,
                          const char *want)
{
    refused(g, seat, text, want, 0);
}

void tu_assert_refused(Game *g, const char *text, const char *want)
{
    refused(g, game_to_act(g), text, want, 0);
}

void tu_assert_refused_exactly(Game *g, const char *text, const char *want)
{
    refused(g, game_to_act(g), text, want, 1);
}

/* ---- Reading the game ---------------------------------------------------- */

char *tu_position(const Game *g)
{
    StrBuf b = STRBUF_INIT;
    game_position(g, &b);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    assert_non_null(s);
    return s;
}

void tu_assert_position(const Game *g, const char *want)
{
    char *got = tu_position(g);
    if (strcmp(got, want) != 0) {
        print_error("position \"%s\"\nexpected \"%s\"\n", got, want);
        free(got);
        fail();
    }
    free(got);
}

int tu_first_diff(const char *a, const char *b, const char **line_a, const char **line_b)
{
    int line = 1;
    *line_a = a;
    *line_b = b;
    while (*a && *a == *b) {
        if (*a == '\n') {
            line++;
            *line_a = a + 1;
            *line_b = b + 1;
        }
        a++;
        b++;
    }
    return line;
}

int tu_count_kind(const ActionList *l, int kind)
{
    int n = 0;
    for (int i = 0; i < l->n; i++)
        n += l->v[i].kind == kind;
    return n;
}

int tu_legal_count(const Game *g, int seat, int kind)
{
    ActionList l = ACTIONLIST_INIT;
    game_legal(g, seat, &l);
    int n = kind < 0 ? l.n : tu_count_kind(&l, kind);
    al_free(&l);
    return n;
}

int tu_is_legal(const Game *g, const char *machine)
{
    ActionList l = ACTIONLIST_INIT;
    StrBuf b = STRBUF_INIT;
    int found = 0;
    game_legal_play(g, &l);
    for (int i = 0; i < l.n && !found; i++) {
        sb_reset(&b);
        game_format(g, &l.v[i], FMT_MACHINE, &b);
        found = strcmp(sb_str(&b), machine) == 0;
    }
    sb_free(&b);
    al_free(&l);
    return found;
}

/* ---- Game state ---------------------------------------------------------- */

void tu_assert_going_on(const Game *g)
{
    Status s;
    game_status(g, &s);
    if (s.over)
        fail_msg("the game ended (%s)", s.reason);
    assert_true(game_to_act(g) >= 0);
}

void tu_assert_over(const Game *g, const char *result, const char *reason)
{
    Status s;
    char r[64];
    game_status(g, &s);
    if (!s.over)
        fail_msg("the game goes on; expected %s (%s)", result, reason);
    assert_string_equal(game_result_text(g, r, sizeof r), result);
    assert_string_equal(s.reason, reason);
    assert_int_equal(game_to_act(g), -1);
}

/* ---- Data files ---------------------------------------------------------- */

/* Read the ";D<depth> <count>" fields after the position: every ';' opens
 * one. */
static void epd_depths(const char *path, char *fields, TuEpd *e)
{
    e->ndepths = 0;
    for (char *d = fields; d;) {
        int depth;
        unsigned long long count;
        if (sscanf(d, " D%d %llu", &depth, &count) != 2)
            fail_msg("%s line %d: bad depth field \"%s\"", path, e->lineno, d);
        if (e->ndepths == TU_EPD_MAX_DEPTHS)
            fail_msg("%s line %d: more than %d depths", path, e->lineno,
                     TU_EPD_MAX_DEPTHS);
        e->depth[e->ndepths] = depth;
        e->count[e->ndepths++] = count;
        d = strchr(d, ';');
        if (d)
            d++;
    }
}

int tu_epd_each(const char *path, void (*fn)(const TuEpd *line, void *ud), void *ud)
{
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s (tests run from the repository root)", path);
    char line[512];
    int lineno = 0, lines = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        TuEpd e = {.pos = line, .lineno = lineno};
        epd_depths(path, semi + 1, &e);
        fn(&e, ud);
        lines++;
    }
    fclose(f);
    return lines;
}

/* ---- The orthodox engine's Position -------------------------------------- */

void tu_chess_load(Position *p, const char *fen)
{
    Error e = {""};
    if (chess_from_fen(p, fen, &e) != 0)
        fail_msg("cannot read FEN %s: %s", fen, e.msg);
}

Move tu_chess_move(const Position *p, const char *uci)
{
    Move moves[CH_MAX_MOVES];
    char buf[6];
    int n = chess_legal_moves(p, moves);
    for (int i = 0; i < n; i++)
        if (strcmp(chess_move_uci(moves[i], buf), uci) == 0)
            return moves[i];
    fail_msg("%s is not legal", uci);
    return 0;
}

char *tu_read_stream(FILE *f)
{
    StrBuf b = STRBUF_INIT;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sb_putn(&b, chunk, n);
    char *s = strdup(sb_str(&b));
    sb_free(&b);
    assert_non_null(s);
    return s;
}

char *tu_read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *s = tu_read_stream(f);
    fclose(f);
    return s;
}

void tu_assert_help_fits(const VariantHelp *h)
{
    int wide = 0;
    for (int i = 0; h[i].usage; i++)
        wide = str_width(h[i].usage) > wide ? str_width(h[i].usage) : wide;
    for (int i = 0; h[i].usage; i++) {
        assert_non_null(h[i].doc);
        assert_non_null(h[i].example);
        int len = 2 + wide + 2 + str_width(h[i].doc) + (int)strlen(" (e.g. )") +
                  str_width(h[i].example);
        if (len > 80)
            fail_msg("help line \"%s\" is %d columns wide", h[i].usage, len);
    }
}

const char *tu_program(void)
{
    const char *p = getenv("CHESSVAR");
    return p && p[0] ? p : "./chessvar";
}

void tu_arrange_text(const int *fig, int side, char *out, size_t n)
{
    int back = side ? 7 : 0, front = side ? 6 : 1, k = 0;
    k += snprintf(out, n, "arrange ");
    for (int f = 0; f < 8; f++)
        out[k++] = figure_letter(fig[back * 8 + f]);
    out[k++] = '/';
    for (int f = 0; f < 8; f++)
        out[k++] = figure_letter(fig[front * 8 + f]);
    out[k] = '\0';
}

/* ---- Running the program ------------------------------------------------ */

static void run_temp(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/chessvar_test_%s_XXXXXX", tag);
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
}

void tu_run_n(TuRun *r, const char *args, const char *input, size_t n)
{
    char in[64], err[64];
    run_temp(in, sizeof in, "in");
    run_temp(err, sizeof err, "err");
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    if (n)
        assert_int_equal(fwrite(input, 1, n, f), n);
    fclose(f);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "NO_COLOR= '%s' %s < '%s' 2> '%s'", tu_program(), args,
             in, err);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    r->out = tu_read_stream(p);
    int st = pclose(p);
    r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    f = fopen(err, "r");
    assert_non_null(f);
    r->err = tu_read_stream(f);
    fclose(f);
    unlink(in);
    unlink(err);
}

void tu_run(TuRun *r, const char *args, const char *input)
{
    tu_run_n(r, args, input, input ? strlen(input) : 0);
}

void tu_run_free(TuRun *r)
{
    free(r->out);
    free(r->err);
}

/* ---- Benchmarks ---------------------------------------------------------- */

double tu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double tu_timed_command(const char *cmd, char *buf, size_t n)
{
    double t = tu_seconds();
    FILE *p = popen(cmd, "r");
    if (!p)
        return -1;
    size_t k = fread(buf, 1, n - 1, p);
    buf[k] = 0;
    while (fgetc(p) != EOF)
        ;
    if (pclose(p) != 0)
        return -1;
    return tu_seconds() - t;
}
