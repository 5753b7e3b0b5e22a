/*
 * house.c -- house rules: Lua 5.4 scripts loaded into a sandbox of their
 * own, giving the core parameters, a value table and the setup, veto and
 * react hooks (core/lua/house.h, docs/HOUSE-RULES.md, notes: the contract).
 *
 * One lua_State per House, made with an allocator that refuses past the
 * House's memory cap.  Every entry from C runs inside one lua_pcall, so no
 * Lua error (a memory error included) can escape to a panic.  A count hook
 * on every thread charges each call's instruction budget and reads its
 * deadline (so do the allocator and C work charged by size); once a
 * budget is exceeded the hook fails at every further instruction of that
 * call, so pcall, xpcall handlers and __close handlers cannot swallow it
 * (a __gc metamethod, which Lua runs with hooks off, is refused at
 * setmetatable).  Each script has its own environment
 * and its own copies of the library tables; the shared string metatable is
 * unreachable (getmetatable("") gives a locked stand-in).
 *
 * Invariant: a script sees the game read-only (only game:finish in react
 * changes it), and nothing it prints leaves the House's log.
 */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "house.h"

#define HOUSE_DEFAULT_INSTRUCTIONS 10000000L
#define HOUSE_DEFAULT_MEMORY ((size_t)64 << 20)
#define HOUSE_GRAIN 1000          /* instructions between two hook calls */
#define HOUSE_PATTERN_MAX 128     /* bytes of a pattern */
#define HOUSE_SUBJECT_MAX 100000  /* bytes of a pattern's subject */
#define HOUSE_PATTERN_COST 2.0e7  /* worst-case steps of one pattern call */
#define HOUSE_LOG_MAX 65536       /* bytes of the log */
/* Issue 20 point 2: the budget counts VM instructions, not the C work
 * behind one, so every call also has a wall-clock deadline, checked by the
 * count hook, by the allocator and before any C work charged by size; and
 * no string is long enough for one instruction on it (==, upper, ..) to
 * run for long. */
#define HOUSE_DEFAULT_MS 1000L     /* wall milliseconds per hook call */
/* ... and a game's calls together (the game, its copies and every bot's
 * look-ahead in it share its House): 300 s, far above what any rule that
 * plays pays in a game (a search bot's 1,000-ply game with atomic
 * captures spends a few seconds), so only a script slow at every call
 * meets it, and a game ends in minutes whatever its scripts do. */
#define HOUSE_DEFAULT_GAME_MS 300000L
#define HOUSE_STRING_MAX ((size_t)1 << 20) /* bytes of one string */
#define HOUSE_BIG_ALLOC 65536      /* an allocation this large checks the clock */
/* Issue 20 point 1: Lua 5.4.4 runs the __close handlers of a coroutine
 * being closed on the C stack without counting them against its C stack
 * limit (fixed in 5.4.5), so closes nested through pending <close>
 * variables overflow the C stack.  The sandbox keeps <close> (a script
 * cannot be scanned for it reliably, and __close can be added to a
 * metatable after setmetatable) and bounds how deep closes may nest
 * instead: each level may still recurse up to Lua's own C limit, and a
 * few levels of that fit any C stack. */
#define HOUSE_CLOSE_DEPTH 8
/* Issue 20 point 3: what a reaction's edits may add to a game (each edit
 * writes a message for every seat into the game's message list). */
#define HOUSE_EDITS_MAX 1000       /* edits per reaction call */
#define HOUSE_GAME_MESSAGES 100000 /* messages a game may hold when a script edits */
#define HOUSE_REASON_MAX 200       /* bytes of a game:finish reason */
/* Issue 20 point 4: the upvalues a script's hooks may reach (each is
 * compared after every call; a rule uses tens). */
#define HOUSE_UPVALUES_MAX 4096

enum { HOOK_LOAD, HOOK_SETUP, HOOK_VETO, HOOK_REACT, HOOK_CLOSE, HOOK_START, HOOK_TURN };
static const char *const HOOK_NAMES[] = {"load",  "setup", "veto", "react",
                                         "close", "start", "turn"};
/* Issue 25: the most moves one turn of a schedule may have (TURN-1). */
#define HOUSE_TURN_MAX 64

/* Keys no script can make (light userdata), in the metatables of the
 * sandbox's read-only views: HOUSE_RO gives the store behind one (or
 * true), HOUSE_FROZEN marks a table frozen after loading and gives the
 * metatable it had (or false). */
static const char house_ro_key, house_frozen_key;
#define HOUSE_RO ((const void *)&house_ro_key)
#define HOUSE_FROZEN ((const void *)&house_frozen_key)
/* What every refused write of state says (issue 20 point 4). */
#define NO_STATE "a house rule keeps no state between calls (keep it in the game " \
                 "with game:set, or derive it from game:history())"

typedef struct Script {
    char *name;
    char *title, *desc;
    char *setup_text;           /* a setup given as a string */
    int setup_ref, veto_ref, react_ref, start_ref;
    int turn_ref;               /* rule{turn=}: the schedule (issue 25) */
    int game_ref, action_ref;   /* this script's game object and action table */
    int ruled;                  /* rule{} was called */
    char **assigns;             /* "NAME=VALUE" in the order met */
    int nassigns;
    /* Issue 20 point 4: the upvalues its hooks reach, as they were once it
     * loaded (closure, index, value triples), checked after every call. */
    int ups_ref, nups;
    int *upn;                   /* each one's index in its closure */
    HouseChange *changes;       /* rule{changes=}: what it changes, by area */
    int nchanges;
    /* Issue 24: its arguments.  given: the text after the name's colon
     * ("checks=5,x=y", NULL: none given); args: what arguments{} declared,
     * by name (nargs, -1 before it is called); args_ref: the values. */
    char *given;
    HouseArg *args;
    int nargs, args_ref;
} Script;

struct House {
    int refs;                   /* the owner's and each game's (hooks.retain) */
    int strs_ref;               /* the strings a hook call pushes often (STR_*) */
    int pieces_ref;             /* the read-only piece tables given so far */
    GameScript *srcs;           /* copies of the scripts' names and texts */
    int nsrcs;
    lua_State *L;
    const VariantOps *v;
    int nsides;
    long budget;
    size_t cap, used;
    long spent;
    int exceeded, mem_hit;
    const char *limit;          /* the limit exceeded: what the call fails with */
    char where[128];            /* "file:line: " where it was met, if known */
    long call_ms;               /* wall milliseconds per call */
    long game_ms;               /* wall milliseconds of a game's calls together */
    long long game_ns;          /* spent by this game's calls so far */
    int game_deadline;          /* the call's deadline is the game's */
    long long game_left;        /* of the game's total when the call began */
    struct timespec started;    /* the call's first check (0: none) */
    char game_limit[96];        /* the game's budget exceeded, in words */
    struct timespec deadline;   /* of the call in progress */
    int deadline_due;           /* ... to be set at its first check */
    unsigned ticks;             /* allocations since the clock was read */
    int close_depth;            /* coroutine closes in progress */
    int edits;                  /* edits of this call */
    int messages;               /* a game's messages past which no edit is made */
    int log_full;
    StrBuf tmp;                 /* texts on their way to Lua */
    Script *s;
    int n;
    Params scratch;             /* where rule{} checks its params */
    char err[512];
    int has_err;
    /* The last error the call raised on purpose (error(), an edit the
     * variant refused): a reaction failing with it refuses the action;
     * failing with anything else (a slip, a limit) is a broken script. */
    char refusal[400];
    int has_refusal, refused;
    StrBuf log;
    /* Issue 20 point 4: each call's number (a coroutine may be resumed
     * only in the call that made it), the registry's table of where each
     * coroutine was made, the names tostring gives tables, functions and
     * threads in the call ids_serial (a count, never an address), and the
     * frozen tables' stores (a store -> its table). */
    unsigned serial, ids_serial, mts_serial;
    int born_ref, ids_ref, frozen_ref;
    int mts_ref;                /* the metatables setmetatable gave in call mts_serial */
    long ids_next;
    /* The call in progress. */
    int hook, cur;
    Game *mg;                   /* setup, react: the game, writable */
    const Game *g;              /* the game, read */
    const void *st;             /* the state judged (veto: maybe not g's) */
    const Action *act;          /* veto: the candidate */
    int ply;                    /* veto: actions from g's state to st (perft) */
    int vetoer;                 /* the script whose veto forbade last, -1 */
    Rng *rng;                   /* math.random's generator, NULL outside */
    Rng vrng;
    int vrng_ready;
    View *view, *oview;         /* scratch for game:pieces() */
    /* h->view holds the truth of this state of this game (the blob and
     * history length it was built for): the candidates of one position
     * share it, so a veto that looks at the board builds it once. */
    unsigned char *truth_blob;
    const Game *truth_g;
    int truth_hist, truth_ok;
    Params truth_params;
    /* Issue 24: the rule-set text a script's rule{ruleset=} gives (one
     * script of a game may), and which script gave it (-1: none). */
    char *ruleset;
    int ruleset_script;
    /* Issue 25: the script whose `turn` plans the turns (the last one
     * with one), -1: the variant alternates as it says. */
    int turn_script;
    StrBuf rs_text;             /* the text on its way (a Lua error may cut it short) */
    /* Issue 24, what a script can ask: the state the call judges (h->st
     * is it, or the position a game:after object holds while one of its
     * methods runs), how many actions past the call's that one is, and
     * scratch for legal lists and a position handed to another side. */
    const void *call_st;
    int after_plies;
    ActionList al;
    unsigned char *turned;
};

/* ---- Memory, time and the instruction budget ------------------------- */

static long house_default_ms = HOUSE_DEFAULT_MS;
static long house_default_game_ms = HOUSE_DEFAULT_GAME_MS;

void house_set_default_ms(long ms)
{
    house_default_ms = ms > 0 ? ms : HOUSE_DEFAULT_MS;
}

void house_set_default_game_ms(long ms)
{
    house_default_game_ms = ms > 0 ? ms : HOUSE_DEFAULT_GAME_MS;
}

void house_new_game(House *h)
{
    h->game_ns = 0;
}

static const char LIMIT_INSTRUCTIONS[] = "instruction budget exceeded";
static const char LIMIT_TIME[] = "time budget exceeded";

/* Fail the call in progress with limit: from now on its every instruction
 * fails (house_hook), so pcall cannot swallow it. */
static void house_exceed(House *h, const char *limit)
{
    if (!h->exceeded)
        h->limit = limit;
    h->exceeded = 1;
}

static void house_hook(lua_State *L, lua_Debug *ar);

/* The clock of the deadlines: a coarse one where there is one (a few ms
 * of resolution against a budget of a second, for a tenth of the cost of
 * the precise clock: a search calls hooks a million times a minute). */
#ifdef CLOCK_MONOTONIC_COARSE
#define HOUSE_CLOCK CLOCK_MONOTONIC_COARSE
#else
#define HOUSE_CLOCK CLOCK_MONOTONIC
#endif

/* Past the call's deadline?  (Then the call fails with the time budget.) */
static int house_late(House *h)
{
    struct timespec ts;
    h->ticks = 0;
    if (h->deadline_due) {
        /* The call's first check: the deadline runs from here.  What ran
         * before is at most HOUSE_GRAIN instructions and no C work charged
         * by size (that checks first), so a call still ends within its
         * budget and a little; and a call too short to be checked at all
         * (most are) never reads the clock (issue 20 point 7). */
        h->deadline_due = 0;
        h->started.tv_sec = 0;
        if (clock_gettime(HOUSE_CLOCK, &h->deadline)) {
            h->deadline.tv_sec = 0;
        } else {
            /* its own budget, or what is left of the game's (issue 20
             * point 2): a game already past it fails at once */
            h->started = h->deadline;
            long long allow = (long long)h->call_ms * 1000000LL;
            if (h->game_left < allow) {
                h->game_deadline = 1;
                if (h->game_left <= 0) {
                    house_exceed(h, h->game_limit);
                    if (h->L)
                        lua_sethook(h->L, house_hook, LUA_MASKCOUNT, 1);
                    return 1;
                }
                allow = h->game_left;
            }
            h->deadline.tv_sec += (time_t)(allow / 1000000000LL);
            h->deadline.tv_nsec += (long)(allow % 1000000000LL);
            if (h->deadline.tv_nsec >= 1000000000L) {
                h->deadline.tv_sec++;
                h->deadline.tv_nsec -= 1000000000L;
            }
        }
        return 0;
    }
    if (!h->deadline.tv_sec || clock_gettime(HOUSE_CLOCK, &ts))
        return 0;
    if (ts.tv_sec < h->deadline.tv_sec ||
        (ts.tv_sec == h->deadline.tv_sec && ts.tv_nsec < h->deadline.tv_nsec))
        return 0;
    house_exceed(h, h->game_deadline ? h->game_limit : LIMIT_TIME);
    /* Met in the allocator or in C, the count hook of the main thread
     * fails the call at its next instruction, not 1000 later (a
     * coroutine's does within its grain). */
    if (h->L)
        lua_sethook(h->L, house_hook, LUA_MASKCOUNT, 1);
    return 1;
}

static void *house_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    House *h = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        h->used -= old;
        return NULL;
    }
    if (nsize > old) {
        /* At the cap every allocation may run a full collection first, and
         * a large one is C work: both read the clock. */
        int full = nsize - old > h->cap - h->used;
        if (full || nsize >= HOUSE_BIG_ALLOC || ++h->ticks >= 256)
            house_late(h); /* the count hook fails the call, with its line */
        if (full) {
            h->mem_hit = 1;
            return NULL;
        }
        if (!ptr && osize == LUA_TSTRING && nsize > HOUSE_STRING_MAX + 64) {
            house_exceed(h, "string longer than 1 MiB refused");
            return NULL;
        }
    }
    void *p = cv_realloc(ptr, nsize);
    if (p)
        h->used = h->used - old + nsize;
    return p;
}

static House *lua_house(lua_State *L)
{
    void *ud = NULL;
    lua_getallocf(L, &ud);
    return ud;
}

static void house_hook(lua_State *L, lua_Debug *ar)
{
    House *h = lua_house(L);
    int grain = lua_gethookcount(L);
    h->spent += grain;
    if (h->spent > h->budget)
        house_exceed(h, LIMIT_INSTRUCTIONS);
    if (!h->exceeded && grain != 1)
        house_late(h);
    if (!h->exceeded) {
        if (grain != HOUSE_GRAIN)
            lua_sethook(L, house_hook, LUA_MASKCOUNT, HOUSE_GRAIN);
        return;
    }
    if (grain != 1) /* from now on, every instruction of this call fails */
        lua_sethook(L, house_hook, LUA_MASKCOUNT, 1);
    lua_getinfo(L, "Sl", ar);
    lua_pushfstring(L, "%s:%d: %s", ar->short_src, ar->currentline, h->limit);
    lua_error(L);
}

/* Charge n steps done in C (table.move, sort, concat ...) to the budget,
 * before they are done; a large charge reads the clock too. */
static void house_charge(lua_State *L, double n)
{
    House *h = lua_house(L);
    if (n > (double)(h->budget - h->spent))
        house_exceed(h, LIMIT_INSTRUCTIONS);
    else if (n >= 1000)
        house_late(h);
    if (h->exceeded)
        luaL_error(L, "%s", h->limit);
    h->spent += (long)n;
}

/* ---- Errors ---------------------------------------------------------- */

static void house_fail(House *h, int script, const char *msg)
{
    const char *flag = h->exceeded ? h->limit
                       : h->mem_hit && strstr(msg, "not enough memory")
                           ? "memory cap exceeded" : NULL;
    const char *name = script >= 0 && script < h->n ? h->s[script].name : "house rules";
    /* A script's error() text is its own: shown, never obeyed (issue 20
     * point 5) -- control characters and bytes that are not UTF-8 appear
     * as escapes, so no clear-screen, title or fake line gets through. */
    char safe[sizeof h->err];
    if (flag && !strstr(msg, flag) && h->exceeded && h->where[0]) {
        /* where the limit was met, and which: the error raised there may
         * have been caught, and the call failed further on */
        snprintf(h->err, sizeof h->err, "house rule %s, %s: %s%s", name,
                 HOOK_NAMES[h->hook], h->where, flag);
    } else {
        int k = snprintf(h->err, sizeof h->err, "house rule %s, %s: %s", name,
                         HOOK_NAMES[h->hook], str_safe(safe, sizeof safe, msg));
        if (flag && !strstr(msg, flag) && k > 0 && (size_t)k < sizeof h->err)
            snprintf(h->err + k, sizeof h->err - (size_t)k, " (%s)", flag);
    }
    utf8_scrub(h->err);
    h->has_err = 1;
}

static int ups_restore(House *h, int script, int report);

/* Has a metatable given in this call a __mode field now? */
static int mts_weak(House *h)
{
    lua_State *L = h->L;
    int weak = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->mts_ref);
    lua_pushnil(L);
    while (!weak && lua_next(L, -2)) {
        lua_pop(L, 1);
        lua_pushliteral(L, "__mode");
        weak = lua_type(L, -2) == LUA_TTABLE && lua_rawget(L, -2) != LUA_TNIL;
        lua_pop(L, 1);
    }
    lua_settop(L, lua_gettop(L) - (weak ? 2 : 1));
    return weak;
}
static void where_defined(lua_State *L, int idx, char *buf, size_t n);

/* Run fn(L) with arg as its one argument, in protected mode, against a
 * fresh budget.  0, or -1 with the House's error set. */
static int house_call(House *h, int hook, int script, int nargs);

static int house_run(House *h, int hook, int script, lua_CFunction fn, void *arg)
{
    lua_pushcfunction(h->L, fn);
    lua_pushlightuserdata(h->L, arg);
    return house_call(h, hook, script, 1);
}

/* house_run for the function and its nargs arguments already pushed. */
static int house_call(House *h, int hook, int script, int nargs)
{
    lua_State *L = h->L;
    h->hook = hook;
    h->cur = script;
    h->spent = 0;
    h->exceeded = h->mem_hit = 0;
    h->limit = LIMIT_INSTRUCTIONS;
    h->where[0] = 0;
    h->close_depth = h->edits = 0;
    h->has_refusal = h->refused = 0;
    h->serial++;
    /* issue 20 point 2: what is left of the game's total, for the
     * deadline set at the call's first check (house_late) */
    h->game_left = hook != HOOK_LOAD ? (long long)h->game_ms * 1000000LL - h->game_ns
                                     : LLONG_MAX;
    h->game_deadline = 0;
    h->deadline.tv_sec = 0;
    h->deadline_due = 1;
    if (lua_gethookcount(L) != HOUSE_GRAIN || lua_gethook(L) != house_hook)
        lua_sethook(L, house_hook, LUA_MASKCOUNT, HOUSE_GRAIN);
    int rc = lua_pcall(L, nargs, 0, 0);
    /* issue 20 point 4: no weak table, and what the script made while
     * loading is as it was (a changed upvalue gets its value back) */
    int ok = rc == LUA_OK && !h->exceeded, broke = 0;
    if (ok && h->mts_ref != LUA_NOREF && h->mts_serial == h->serial && mts_weak(h)) {
        house_fail(h, script, "a metatable got a __mode field after setmetatable: weak "
                              "tables are not allowed in house rules (what a weak table "
                              "loses depends on when the collector runs, which differs "
                              "from run to run)");
        broke = 1;
    }
    if (hook != HOOK_LOAD && script >= 0 && h->s[script].nups &&
        ups_restore(h, script, ok && !broke))
        broke = 1;
    /* the game's total counts each call long enough to have been checked,
     * from its first check (a shorter one reads no clock: its time is that
     * of fewer than HOUSE_GRAIN instructions) */
    struct timespec t1;
    if (hook != HOOK_LOAD && !h->deadline_due && h->started.tv_sec &&
        clock_gettime(HOUSE_CLOCK, &t1) == 0)
        h->game_ns += (long long)(t1.tv_sec - h->started.tv_sec) * 1000000000LL +
                      (t1.tv_nsec - h->started.tv_nsec);
    if (broke)
        return -1;
    if (rc == LUA_OK && !h->exceeded)
        return 0;
    char msg[sizeof h->refusal] = "the script broke a limit";
    if (rc != LUA_OK) {
        if (lua_type(L, -1) == LUA_TSTRING) {
            str_clip(msg, sizeof msg, lua_tostring(L, -1));
            h->refused = !h->exceeded && !h->mem_hit && h->has_refusal &&
                         strcmp(msg, h->refusal) == 0;
        } else
            snprintf(msg, sizeof msg, "error object is a %s value",
                     luaL_typename(L, -1));
        lua_pop(L, 1);
    }
    house_fail(h, script, msg);
    return -1;
}

/* ---- The sandbox: wrapped library functions -------------------------- */

/* ---- Pattern costs ---------------------------------------------------
 * Lua's matcher runs in C, out of the budget's reach, and backtracks: on a
 * subject of n bytes a quantified item may be retried at n places for
 * every way of reaching it.  The estimate charges a factor n for every
 * quantifier whose bytes overlap what may follow it (each of its lengths
 * may then go on matching), one more factor n for scanning at all, and n
 * starts for an unanchored search.  A call whose estimate passes
 * HOUSE_PATTERN_COST is refused; the others are charged to the budget. */
typedef struct PatItem {
    uint8_t set[32];  /* the bytes one step of the item may match */
    char quant;       /* '*', '+', '-', '?' or 0 */
    char special;     /* 'b' (balance), 'r' (back reference) or 0 */
} PatItem;

static int class_match(int cl, int c)
{
    int r;
    switch (cl | 0x20) {
    case 'a': r = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); break;
    case 'c': r = c < 32 || c == 127; break;
    case 'd': r = c >= '0' && c <= '9'; break;
    case 'g': r = c > 32 && c < 127; break;
    case 'l': r = c >= 'a' && c <= 'z'; break;
    case 'p': r = c > 32 && c < 127 && !((c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')); break;
    case 's': r = c == ' ' || (c >= 9 && c <= 13); break;
    case 'u': r = c >= 'A' && c <= 'Z'; break;
    case 'w': r = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9'); break;
    case 'x': r = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); break;
    default: return c == cl;
    }
    return (cl >= 'A' && cl <= 'Z') ? !r : r;
}

static void set_add(uint8_t *set, int c) { set[c >> 3] |= (uint8_t)(1u << (c & 7)); }

static void set_class(uint8_t *set, int cl)
{
    for (int c = 0; c < 256; c++)
        if (class_match(cl, c))
            set_add(set, c);
}

/* Read a [set] starting at p[i] == '['; returns the index after ']'. */
static size_t pat_set(const char *p, size_t lp, size_t i, uint8_t *set)
{
    uint8_t s[32] = {0};
    int neg = 0;
    i++;
    if (i < lp && p[i] == '^') {
        neg = 1;
        i++;
    }
    int first = 1;
    while (i < lp && (p[i] != ']' || first)) {
        first = 0;
        unsigned char c = (unsigned char)p[i];
        if (c == '%' && i + 1 < lp) {
            set_class(s, (unsigned char)p[i + 1]);
            i += 2;
        } else if (i + 2 < lp && p[i + 1] == '-' && p[i + 2] != ']') {
            for (int k = c; k <= (unsigned char)p[i + 2]; k++)
                set_add(s, k);
            i += 3;
        } else {
            set_add(s, c);
            i++;
        }
    }
    for (int k = 0; k < 32; k++)
        set[k] = neg ? (uint8_t)~s[k] : s[k];
    return i + 1;
}

/* Split p into items; returns how many (at most max). */
static int pat_items(const char *p, size_t lp, PatItem *it, int max)
{
    int n = 0;
    size_t i = 0;
    while (i < lp && n < max) {
        PatItem *x = &it[n];
        memset(x, 0, sizeof *x);
        char c = p[i];
        if (c == '(' || c == ')' || (c == '$' && i + 1 == lp)) {
            i++;
            continue;
        }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'f') {
            uint8_t tmp[32];
            i = i + 2 < lp && p[i + 2] == '[' ? pat_set(p, lp, i + 2, tmp) : lp;
            continue; /* a frontier matches no byte */
        }
        if (c == '%' && i + 1 < lp && p[i + 1] == 'b') {
            x->special = 'b';
            i += 4;
        } else if (c == '%' && i + 1 < lp && p[i + 1] >= '0' && p[i + 1] <= '9') {
            x->special = 'r';
            i += 2;
        } else if (c == '%' && i + 1 < lp) {
            set_class(x->set, (unsigned char)p[i + 1]);
            i += 2;
        } else if (c == '[') {
            i = pat_set(p, lp, i, x->set);
        } else if (c == '.') {
            memset(x->set, 0xff, sizeof x->set);
            i++;
        } else {
            set_add(x->set, (unsigned char)c);
            i++;
        }
        if (!x->special && i < lp && strchr("*+-?", p[i]))
            x->quant = p[i++];
        n++;
    }
    return n;
}

/* May item i be followed by a byte it could also have taken? */
static int pat_overlaps(const PatItem *it, int n, int i)
{
    for (int j = i + 1; j < n; j++) {
        if (it[j].special)
            return 1;
        for (int k = 0; k < 32; k++)
            if (it[i].set[k] & it[j].set[k])
                return 1;
        if (it[j].quant != '*' && it[j].quant != '-' && it[j].quant != '?')
            return 0;
    }
    return 0;
}

static double pattern_cost(const char *p, size_t lp, size_t n, int anchor_ok)
{
    PatItem it[HOUSE_PATTERN_MAX];
    int anchored = anchor_ok && lp > 0 && p[0] == '^';
    int ni = pat_items(p + anchored, lp - (size_t)anchored, it, HOUSE_PATTERN_MAX);
    int scans = 0, mult = 0;
    for (int i = 0; i < ni; i++) {
        if (it[i].special)
            scans = 1, mult++;
        else if (it[i].quant) {
            scans = 1;
            mult += pat_overlaps(it, ni, i);
        }
    }
    double cost = (double)lp + 1, base = (double)n + 1;
    int exp = mult + scans + !anchored;
    for (int k = 0; k < exp && cost <= HOUSE_PATTERN_COST; k++)
        cost *= base;
    return cost;
}

/* string.find/match/gmatch/gsub: the original (upvalue 1) after checks. */
static int sb_pattern(lua_State *L)
{
    size_t ls, lp;
    luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int gmatch = lua_toboolean(L, lua_upvalueindex(2));
    int plain = !gmatch && lua_gettop(L) >= 4 && lua_toboolean(L, 4) &&
                lua_toboolean(L, lua_upvalueindex(3));
    if (lp > HOUSE_PATTERN_MAX)
        return luaL_error(L, "pattern of %d bytes refused (at most %d)", (int)lp,
                          HOUSE_PATTERN_MAX);
    if (ls > HOUSE_SUBJECT_MAX)
        return luaL_error(L, "subject of %d bytes refused for a pattern (at most %d)",
                          (int)ls, HOUSE_SUBJECT_MAX);
    double cost = plain ? (double)ls * (double)(lp + 1) : pattern_cost(p, lp, ls, !gmatch);
    if (cost > HOUSE_PATTERN_COST)
        return luaL_error(L, "pattern '%s' is too costly on a subject of %d bytes "
                          "(repetitions that may retry each other: the worst case "
                          "would stall the engine)", p, (int)ls);
    house_charge(L, cost / 16);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* string.rep: refuse what the memory cap cannot hold, and "" repeated. */
static int sb_rep(lua_State *L)
{
    size_t l, lsep = 0;
    luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    luaL_optlstring(L, 3, "", &lsep);
    if (n > 0) {
        double total = (double)n * (double)l + (double)(n - 1) * (double)lsep;
        if (total == 0) {
            lua_pushliteral(L, "");
            return 1;
        }
        if (total > (double)lua_house(L)->cap)
            return luaL_error(L, "string.rep: a result of %f bytes is over the memory cap",
                              total);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* table.move: its loop runs in C, so it is charged to the budget. */
static int sb_tmove(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
    if (e >= f)
        house_charge(L, (double)e - (double)f + 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* table.sort, concat, insert, remove, unpack: their loops run in C, so
 * each call is charged by the elements it may touch (sort: n log n
 * comparisons; insert and remove: those after the position) before it
 * runs. */
static int sb_tsized(lua_State *L)
{
    const char *fn = lua_tostring(L, lua_upvalueindex(2));
    double n = 0;
    if (fn[0] == 'u' || fn[0] == 'c') { /* unpack(t, i, j), concat(t, sep, i, j) */
        int at = fn[0] == 'u' ? 2 : 3, table = lua_type(L, 1) == LUA_TTABLE;
        if (table || !lua_isnoneornil(L, at + 1)) { /* else Lua's own error */
            lua_Integer i = luaL_optinteger(L, at, 1);
            lua_Integer j = lua_isnoneornil(L, at + 1) ? luaL_len(L, 1)
                                                       : luaL_checkinteger(L, at + 1);
            n = j >= i ? (double)j - (double)i + 1 : 0;
        }
    } else if (fn[0] == 's') { /* sort(t [, comp]) */
        n = lua_type(L, 1) == LUA_TTABLE ? (double)luaL_len(L, 1) : 0;
        if (n > 1)
            n *= 1 + log2(n);
    } else if (lua_type(L, 1) == LUA_TTABLE && lua_gettop(L) >= (fn[0] == 'i' ? 3 : 2)) {
        /* insert(t, pos, v), remove(t, pos): the elements after pos move
         * (appending and popping move none) */
        lua_Integer len = luaL_len(L, 1), pos = luaL_checkinteger(L, 2);
        n = len >= pos ? (double)len - (double)pos + 1 : 0;
    }
    house_charge(L, n);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static void lib_sized(lua_State *L, const char *name)
{
    lua_getfield(L, -1, name);
    lua_pushstring(L, name);
    lua_pushcclosure(L, sb_tsized, 2);
    lua_setfield(L, -2, name);
}

static int frozen_mt(lua_State *L, int idx);
static int raw_target(lua_State *L, int idx);

/* Note the metatable at idx as given in this call: a __mode added to it
 * later in the call fails the call (mts_weak). */
static void mts_note(lua_State *L, int idx)
{
    House *h = lua_house(L);
    if (h->mts_ref == LUA_NOREF || h->mts_serial != h->serial) {
        luaL_unref(L, LUA_REGISTRYINDEX, h->mts_ref);
        h->mts_ref = LUA_NOREF;
        lua_newtable(L);
        h->mts_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        h->mts_serial = h->serial;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->mts_ref);
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

static void co_born(lua_State *L, int idx);
static void co_check(lua_State *L, int idx, const char *fn);
static int sb_cowrapped(lua_State *L);

/* setmetatable: a __gc metamethod runs with hooks off (no budget could
 * stop it), so a metatable holding one is refused; so is __mode (issue
 * 20 point 4: when a weak table loses an entry depends on when the
 * collector runs, which no game decides).  A table frozen after loading
 * keeps its metatable; a frozen table given as a metatable gives its
 * contents (its store: Lua reads metamethods raw). */
static int sb_setmetatable(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    if (frozen_mt(L, 1))
        return luaL_error(L, "setmetatable: the table was made while the script loaded, "
                          "and " NO_STATE);
    if (lua_type(L, 2) == LUA_TTABLE) {
        if (frozen_mt(L, 2)) {
            lua_pop(L, 1);
            if (raw_target(L, 2))
                lua_replace(L, 2);
        }
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __gc metamethods are not allowed "
                              "in house rules (a finalizer cannot be interrupted)");
        lua_pop(L, 1);
        lua_pushliteral(L, "__mode");
        if (lua_rawget(L, 2) != LUA_TNIL)
            return luaL_error(L, "setmetatable: __mode (weak tables) is not allowed in "
                              "house rules (what a weak table loses depends on when the "
                              "collector runs, which differs from run to run)");
        lua_pop(L, 1);
        mts_note(L, 2);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* xpcall's message handler: Lua calls it before unwinding, so for an
 * error raised by the count hook it would run with hooks off, where no
 * budget reaches it.  Once the budget is spent the handler is skipped. */
static int sb_msgh(lua_State *L)
{
    if (lua_house(L)->exceeded)
        return 1;
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

static int sb_xpcall(lua_State *L)
{
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_msgh, 1);
    lua_replace(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* Remember the error object at idx as one raised on purpose. */
static void refusal_note(lua_State *L, int idx)
{
    House *h = lua_house(L);
    if (lua_type(L, idx) != LUA_TSTRING)
        return;
    str_clip(h->refusal, sizeof h->refusal, lua_tostring(L, idx));
    h->has_refusal = 1;
}

/* error(): Lua's, and the message is remembered (refusal_note). */
static int sb_error(lua_State *L)
{
    int level = (int)luaL_optinteger(L, 2, 1);
    lua_settop(L, 1);
    if (lua_type(L, 1) == LUA_TSTRING && level > 0) {
        luaL_where(L, level);
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
    }
    refusal_note(L, -1);
    return lua_error(L);
}

/* Close co (run its pending __close handlers) from L, at most
 * HOUSE_CLOSE_DEPTH closes deep (issue 20 point 1: Lua 5.4.4 does not
 * count these against its C stack limit; the close that coroutine.wrap
 * does after an error resumes from the caller's count, so Lua's own limit
 * stops that one).  Past the limit the whole call
 * fails, as it does past a budget. */
static int close_guarded(lua_State *L, lua_State *co)
{
    House *h = lua_house(L);
    if (h->close_depth >= HOUSE_CLOSE_DEPTH) {
        house_exceed(h, "coroutine.close nested deeper than 8 (closes inside "
                        "__close handlers)");
        luaL_where(L, 1);
        str_copy(h->where, sizeof h->where, lua_tostring(L, -1));
        return luaL_error(L, "%s", h->limit);
    }
    h->close_depth++;
    int st = lua_resetthread(co);
    h->close_depth--;
    return st;
}

/* coroutine.close: Lua's checks (upvalue 1), then close_guarded. */
static int sb_coclose(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    lua_Debug ar;
    if (co == L || (lua_status(co) == LUA_OK && lua_getstack(co, 0, &ar))) {
        /* running or normal (not suspended, not dead): Lua's own error */
        lua_pushvalue(L, lua_upvalueindex(1));
        lua_insert(L, 1);
        lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
        return lua_gettop(L);
    }
    co_check(L, 1, "coroutine.close");
    if (close_guarded(L, co) == LUA_OK) {
        lua_pushboolean(L, 1);
        return 1;
    }
    lua_pushboolean(L, 0);
    lua_xmove(co, L, 1); /* the error object */
    return 2;
}

/* coroutine.create / wrap: the new thread gets the count hook (threads
 * inherit it anyway; this keeps it true if that ever changes) and is
 * noted as this call's (issue 20 point 4: it may be resumed in this call
 * only); wrap's function checks that at each call. */
static int sb_cocreate(lua_State *L)
{
    int wrap = lua_toboolean(L, lua_upvalueindex(2));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    lua_State *co = NULL;
    if (!wrap)
        co = lua_tothread(L, -1);
    else if (lua_getupvalue(L, -1, 1)) {
        co = lua_tothread(L, -1);
        if (co) {
            co_born(L, -1);
            lua_pushcclosure(L, sb_cowrapped, 2);
        }
    }
    if (!co)
        return luaL_error(L, "coroutine: no thread was made");
    if (!wrap)
        co_born(L, -1);
    lua_sethook(co, house_hook, LUA_MASKCOUNT, HOUSE_GRAIN);
    return 1;
}

static Rng *house_rng(lua_State *L)
{
    House *h = lua_house(L);
    if (h->hook == HOOK_VETO && !h->vrng_ready) {
        /* A veto judges a const game: its draws come from the game's seed,
         * the position judged and the candidate, so the same question
         * always gets the same answer (legal list, perft, play). */
        const VariantOps *v = h->v;
        uint64_t k = game_config(h->g)->seed ^ mix64(v->hash(h->g, h->call_st));
        k = mix64(k ^ ((uint64_t)h->act->kind << 56) ^ ((uint64_t)h->act->seat << 48) ^
                  ((uint64_t)h->act->figure << 40) ^ (uint64_t)h->act->code);
        k = mix64(k ^ (uint64_t)(uint32_t)h->act->from.x ^
                  ((uint64_t)(uint32_t)h->act->from.y << 32));
        k = mix64(k ^ (uint64_t)(uint32_t)h->act->to.x ^
                  ((uint64_t)(uint32_t)h->act->to.y << 32));
        rng_seed(&h->vrng, k);
        h->vrng_ready = 1;
    }
    if (!h->rng)
        luaL_error(L, "math.random is the game's generator: only inside setup, "
                   "veto and react");
    return h->rng;
}

/* An integer in [0, n] from r. */
static lua_Unsigned rng_upto(Rng *r, lua_Unsigned n)
{
    if (n < UINT32_MAX)
        return rng_below(r, (uint32_t)(n + 1));
    lua_Unsigned lim = n;
    for (int s = 1; s < 64; s <<= 1)
        lim |= lim >> s;
    lua_Unsigned x;
    do
        x = rng_next(r) & lim;
    while (x > n);
    return x;
}

static int sb_random(lua_State *L)
{
    Rng *r = house_rng(L);
    lua_Integer lo, hi;
    switch (lua_gettop(L)) {
    case 0:
        lua_pushnumber(L, (lua_Number)(rng_next(r) >> 11) * 0x1.0p-53);
        return 1;
    case 1:
        lo = 1;
        hi = luaL_checkinteger(L, 1);
        break;
    case 2:
        lo = luaL_checkinteger(L, 1);
        hi = luaL_checkinteger(L, 2);
        break;
    default:
        return luaL_error(L, "math.random: wrong number of arguments");
    }
    luaL_argcheck(L, lo <= hi, lua_gettop(L), "interval is empty");
    lua_Unsigned span = (lua_Unsigned)hi - (lua_Unsigned)lo;
    lua_pushinteger(L, (lua_Integer)((lua_Unsigned)lo + rng_upto(r, span)));
    return 1;
}

static int sb_randomseed(lua_State *L)
{
    return luaL_error(L, "math.randomseed is not available: math.random is the "
                      "game's seeded generator");
}

static void push_name(lua_State *L, int idx);

/* print: into the log; once the log is full, at once (issue 20 point 2:
 * it used to search the whole log for its mark at every argument). */
static int sb_print(lua_State *L)
{
    House *h = lua_house(L);
    int n = lua_gettop(L);
    if (h->log_full)
        return 0;
    house_charge(L, n);
    for (int i = 1; i <= n; i++) {
        size_t len;
        push_name(L, i);
        const char *s = lua_tolstring(L, -1, &len);
        if (h->log.len + len + 2 > HOUSE_LOG_MAX) {
            sb_puts(&h->log, "[log full]\n");
            h->log_full = 1;
            return 0;
        }
        if (i > 1)
            sb_putc(&h->log, '\t');
        sb_putn(&h->log, s, len);
        lua_pop(L, 1);
    }
    sb_putc(&h->log, '\n');
    return 0;
}

static int sb_locked(lua_State *L)
{
    return luaL_error(L, "the string metatable is locked");
}

/* ---- The sandbox: a defined iteration order (issue 20 point 4) -------
 * Lua seeds its string hash at random in every state, so next and pairs
 * over string keys walk a table in an order that changes with every
 * process, and a saved game whose script depends on it does not replay.
 * The sandbox's next and pairs walk a table in a defined order instead:
 * numbers ascending, then strings bytewise, then false, true; a table
 * with two keys of another type (tables, functions ...: their order
 * would be their addresses') is refused.  The keys are sorted at every
 * pairs and every next, charged to the budget by their number. */
typedef struct KeyRef {
    int type;
    int isint;
    lua_Integer i;
    double d;
    const char *s;
    size_t len;
    int pos;          /* index in the table of keys */
} KeyRef;

static int key_rank(int type)
{
    switch (type) {
    case LUA_TNUMBER: return 0;
    case LUA_TSTRING: return 1;
    case LUA_TBOOLEAN: return 2;
    default: return 3 + type;
    }
}

static int key_cmp(const void *pa, const void *pb)
{
    const KeyRef *a = pa, *b = pb;
    int ra = key_rank(a->type), rb = key_rank(b->type);
    if (ra != rb)
        return ra < rb ? -1 : 1;
    switch (a->type) {
    case LUA_TNUMBER:
        if (a->isint && b->isint)
            return a->i < b->i ? -1 : a->i > b->i;
        if (a->d != b->d)
            return a->d < b->d ? -1 : 1;
        return b->isint - a->isint;
    case LUA_TSTRING: {
        int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
        if (c)
            return c < 0 ? -1 : 1;
        return a->len < b->len ? -1 : a->len > b->len;
    }
    case LUA_TBOOLEAN:
        return (int)a->i - (int)b->i;
    default:
        return 0;
    }
}

static void table_contents(lua_State *L, int idx);

/* Push the keys of the table at idx (absolute), sorted, as a list; n gets
 * how many. */
static void sorted_keys(lua_State *L, int idx, lua_Integer *nout)
{
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        lua_pop(L, 1);
        n++;
    }
    house_charge(L, (double)n * (2.0 + log2((double)n + 1)));
    KeyRef *r = lua_newuserdatauv(L, sizeof *r * (size_t)(n ? n : 1), 0);
    lua_createtable(L, (int)n, 0);
    int keys = lua_gettop(L);
    int k = 0;
    lua_pushnil(L);
    while (lua_next(L, idx) && k < n) {
        lua_pop(L, 1);
        KeyRef *x = &r[k];
        memset(x, 0, sizeof *x);
        x->type = lua_type(L, -1);
        x->pos = k + 1;
        if (x->type == LUA_TNUMBER) {
            x->isint = lua_isinteger(L, -1);
            x->i = lua_tointeger(L, -1);
            x->d = lua_tonumber(L, -1);
        } else if (x->type == LUA_TBOOLEAN) {
            x->i = lua_toboolean(L, -1);
        }
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, k + 1);
        if (x->type == LUA_TSTRING) /* anchored in the list of keys */
            x->s = lua_tolstring(L, -1, &x->len);
        k++;
    }
    if (k < n)
        n = k;
    else
        lua_settop(L, keys);
    qsort(r, (size_t)n, sizeof *r, key_cmp);
    for (lua_Integer j = 1; j < n; j++)
        if (key_rank(r[j].type) > 2 && r[j].type == r[j - 1].type)
            luaL_error(L, "pairs/next: the table has several keys of type %s, which have "
                       "no defined order (use numbers, strings or booleans as keys)",
                       lua_typename(L, r[j].type));
    lua_createtable(L, (int)n, 0);
    for (lua_Integer j = 0; j < n; j++) {
        lua_rawgeti(L, keys, r[j].pos);
        lua_rawseti(L, -2, j + 1);
    }
    lua_replace(L, keys - 1);
    lua_settop(L, keys - 1);
    *nout = n;
}

/* next(t [, k]) in the defined order (raw, as Lua's). */
static int sb_next(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 2);
    table_contents(L, 1); /* a view's store (issue 20 point 4) */
    lua_replace(L, 1);
    lua_Integer n;
    sorted_keys(L, 1, &n);
    lua_Integer at = 0;
    if (!lua_isnil(L, 2)) {
        for (at = 1; at <= n; at++) {
            lua_rawgeti(L, 3, at);
            int eq = lua_rawequal(L, -1, 2);
            lua_pop(L, 1);
            if (eq)
                break;
        }
        if (at > n)
            return luaL_error(L, "invalid key to 'next'");
    }
    for (at++; at <= n; at++) {
        lua_rawgeti(L, 3, at);
        lua_pushvalue(L, -1);
        if (lua_rawget(L, 1) != LUA_TNIL)
            return 2;
        lua_pop(L, 2);
    }
    lua_pushnil(L);
    return 1;
}

/* pairs' iterator: upvalues the sorted keys, the place reached and the
 * table's contents (a view's store); a key whose value was cleared
 * during the walk is passed over. */
static int sb_pairs_step(lua_State *L)
{
    lua_Integer at = lua_tointeger(L, lua_upvalueindex(2));
    for (;;) {
        at++;
        if (lua_rawgeti(L, lua_upvalueindex(1), at) == LUA_TNIL)
            break;
        lua_pushvalue(L, -1);
        if (lua_rawget(L, lua_upvalueindex(3)) != LUA_TNIL) {
            lua_pushinteger(L, at);
            lua_replace(L, lua_upvalueindex(2));
            return 2;
        }
        lua_pop(L, 2);
    }
    lua_pushinteger(L, at);
    lua_replace(L, lua_upvalueindex(2));
    lua_pushnil(L);
    return 1;
}

static int sb_pairs(lua_State *L)
{
    luaL_checkany(L, 1);
    if (luaL_getmetafield(L, 1, "__pairs") != LUA_TNIL) {
        lua_pushvalue(L, 1);
        lua_call(L, 1, 3);
        return 3;
    }
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    table_contents(L, 1);
    lua_Integer n;
    sorted_keys(L, 2, &n);
    lua_pushinteger(L, 0);
    lua_pushvalue(L, 2);
    lua_pushcclosure(L, sb_pairs_step, 3);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
}

/* ---- The sandbox: no state kept between calls (issue 20 point 4) -----
 * A House's state serves many calls, games and game copies (a bot's
 * search, an experiment's games, a game taken back and replayed), so what
 * a hook writes where a later call could read it would make the same
 * game play differently.  A script's globals are a read-only view of its
 * environment once it has loaded: assigning a global in a hook, or
 * rawset on the globals or on the action table, is an error naming the
 * global.  (Upvalues and the tables a script made while loading stay
 * writable: see docs/HOUSE-RULES.md, "Open points".) */

static int sb_envset(lua_State *L)
{
    House *h = lua_touserdata(L, lua_upvalueindex(2));
    if (h->hook != HOOK_LOAD) {
        if (lua_type(L, 2) == LUA_TSTRING)
            return luaL_error(L, "the global '%s' cannot be set in a hook: a house rule "
                              "keeps no state between calls (keep it in the game "
                              "with game:set, or derive it from game:history())",
                              lua_tostring(L, 2));
        return luaL_error(L, "a global cannot be set in a hook: a house rule keeps no "
                          "state between calls (keep it in the game with game:set, "
                          "or derive it from game:history())");
    }
    lua_settop(L, 3);
    lua_rawset(L, lua_upvalueindex(1));
    return 0;
}

static int sb_envpairs(lua_State *L)
{
    lua_pushcfunction(L, sb_pairs);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_call(L, 1, 3);
    return 3;
}

/* The table rawget and rawset act on for the table at idx: the store
 * behind the globals, or nil for the read-only action table. */
static int raw_target(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx))
        return 0;
    int ty = lua_rawgetp(L, -1, HOUSE_RO);
    lua_remove(L, -2);
    if (ty == LUA_TNIL) {
        lua_pop(L, 1);
        return 0;
    }
    return 1;
}

static int sb_rawget(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    lua_settop(L, 2);
    if (raw_target(L, 1) && lua_type(L, -1) == LUA_TTABLE)
        lua_replace(L, 1);
    lua_settop(L, 2);
    lua_rawget(L, 1);
    return 1;
}

static const char *key_words(lua_State *L, int idx, char *buf, size_t n);

static int sb_rawset(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    if (frozen_mt(L, 1)) {
        char key[80];
        return luaL_error(L, "rawset: the table's field %s cannot be set in a hook: the "
                          "table %s, and " NO_STATE, key_words(L, 2, key, sizeof key),
                          lua_type(L, -1) == LUA_TSTRING ? "is a piece the game gives"
                                                         : "was made while the script "
                                                           "loaded");
    }
    if (raw_target(L, 1)) {
        if (lua_type(L, -1) != LUA_TTABLE || lua_house(L)->hook != HOOK_LOAD)
            return luaL_error(L, "rawset: %s cannot be written in a hook: a house rule "
                              "keeps no state between calls (keep it in the game "
                              "with game:set, or derive it from game:history())",
                              lua_type(L, -1) == LUA_TTABLE ? "the globals" : "the action");
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 3);
        lua_rawset(L, 4);
    } else {
        lua_rawset(L, 1);
    }
    lua_settop(L, 1);
    return 1;
}

/* Replace the environment at the top with its read-only view. */
static void env_guard(lua_State *L, House *h)
{
    int store = lua_gettop(L);
    lua_newtable(L);
    lua_createtable(L, 0, 5);
    lua_pushvalue(L, store);
    lua_setfield(L, -2, "__index");
    lua_pushvalue(L, store);
    lua_pushlightuserdata(L, h);
    lua_pushcclosure(L, sb_envset, 2);
    lua_setfield(L, -2, "__newindex");
    lua_pushvalue(L, store);
    lua_pushcclosure(L, sb_envpairs, 1);
    lua_setfield(L, -2, "__pairs");
    lua_pushvalue(L, store);
    lua_rawsetp(L, -2, HOUSE_RO);
    lua_pushliteral(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, store, "_G");
    lua_remove(L, store);
}

/* ---- The sandbox: what a script made while loading is frozen ---------
 * (issue 20 point 4.)  A hook may read what its script built while it
 * loaded -- tables of squares, helper functions, counters' start values --
 * but writing it would carry state from one call to the next, past the
 * game it belongs to (an experiment's next game, an action taken back, a
 * bot's look-ahead, a record replayed).  So once every script has loaded,
 * each table its hooks can reach (through globals, upvalues, other
 * tables, metatables) becomes a read-only view of a hidden store that
 * holds its contents: reads, #, pairs, next, ipairs, rawget and the
 * table library see the contents, a write is refused.  A table keeps its
 * identity (a key stays a key), so the script cannot tell, except that
 * writing fails.  Each upvalue the hooks reach is remembered with its
 * value and checked after every call: one that changed fails the call and
 * gets its value back.  A coroutine made while loading cannot be resumed
 * or closed in a hook (coroutine.resume, wrap, close below).  Tables,
 * functions and coroutines made within a call are the script's own. */

/* The name of key idx for a message: 'name', [3], or its type. */
static const char *key_words(lua_State *L, int idx, char *buf, size_t n)
{
    if (lua_type(L, idx) == LUA_TSTRING)
        snprintf(buf, n, "'%s'", lua_tostring(L, idx));
    else if (lua_type(L, idx) == LUA_TNUMBER && lua_isinteger(L, idx))
        snprintf(buf, n, "[%lld]", (long long)lua_tointeger(L, idx));
    else
        snprintf(buf, n, "a key of type %s", luaL_typename(L, idx));
    return buf;
}

static int sb_frozen_newindex(lua_State *L)
{
    char key[80];
    return luaL_error(L, "the table's field %s cannot be set in a hook: the table was "
                      "made while the script loaded, and %s",
                      key_words(L, 2, key, sizeof key), NO_STATE);
}

/* #t of a frozen table: its store's (upvalue 1). */
static int sb_frozen_len(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, lua_upvalueindex(1)));
    return 1;
}

/* A frozen table's store's __index, where the table had a function:
 * the function (upvalue 1) called with the table (upvalue 2), never with
 * the store. */
static int sb_frozen_index(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    return 1;
}

/* The frozen table at idx's metatable's HOUSE_FROZEN field (its original
 * metatable, or false) pushed, or 0 (nothing pushed) if it is not frozen. */
static int frozen_mt(lua_State *L, int idx)
{
    if (!lua_getmetatable(L, idx))
        return 0;
    if (lua_rawgetp(L, -1, HOUSE_FROZEN) == LUA_TNIL) {
        lua_pop(L, 2);
        return 0;
    }
    lua_remove(L, -2);
    return 1;
}

/* The contents of table idx, as a table pushed: its store if it is a
 * view (frozen, or the globals), else itself. */
static void table_contents(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (raw_target(L, idx)) {
        if (lua_type(L, -1) == LUA_TTABLE)
            return;
        lua_pop(L, 1);
    }
    lua_pushvalue(L, idx);
}

/* Queue value idx for the walk (queue at q, *qn entries). */
static void walk_push(lua_State *L, int q, lua_Integer *qn, int idx)
{
    int ty = lua_type(L, idx);
    if (ty != LUA_TTABLE && ty != LUA_TFUNCTION)
        return;
    lua_pushvalue(L, idx);
    lua_rawseti(L, q, ++*qn);
}

/* Freeze table t (absolute index; its metatable is none of the sandbox's
 * own views), queueing what it holds. */
static void freeze_table(lua_State *L, House *h, int t, int q, lua_Integer *qn)
{
    int base = lua_gettop(L);
    int m = 0;
    if (lua_getmetatable(L, t)) {
        m = lua_gettop(L);
        walk_push(L, q, qn, m);
        table_contents(L, m);
    } else {
        lua_pushnil(L);
    }
    int mc = lua_gettop(L); /* the metatable's contents, or nil */
    lua_newtable(L);
    int st = lua_gettop(L);
    lua_Integer n = 0;
    lua_pushnil(L);
    while (lua_next(L, t)) {
        walk_push(L, q, qn, -2);
        walk_push(L, q, qn, -1);
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, st);
        n++;
    }
    house_charge(L, 2.0 * (double)n);
    lua_pushnil(L);
    while (lua_next(L, st)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, t);
    }
    lua_newtable(L);
    int fm = lua_gettop(L);
    if (m) { /* its metamethods, but no finalizer, weakness or protection */
        lua_pushnil(L);
        while (lua_next(L, mc)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
            if (!strcmp(k, "__gc") || !strcmp(k, "__mode") || !strcmp(k, "__metatable")) {
                lua_pop(L, 1);
                continue;
            }
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, fm);
        }
    }
    int ity = lua_getfield(L, fm, "__index");
    if (ity != LUA_TNIL) { /* what the store lacks, the old __index gives */
        lua_createtable(L, 0, 1);
        if (ity == LUA_TFUNCTION) {
            lua_pushvalue(L, -2);
            lua_pushvalue(L, t);
            lua_pushcclosure(L, sb_frozen_index, 2);
        } else {
            lua_pushvalue(L, -2);
        }
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, st);
    }
    lua_pop(L, 1);
    lua_pushvalue(L, st);
    lua_setfield(L, fm, "__index");
    lua_pushcfunction(L, sb_frozen_newindex);
    lua_setfield(L, fm, "__newindex");
    if (lua_getfield(L, fm, "__len") == LUA_TNIL) {
        lua_pushvalue(L, st);
        lua_pushcclosure(L, sb_frozen_len, 1);
        lua_setfield(L, fm, "__len");
    }
    lua_pop(L, 1);
    lua_pushvalue(L, st);
    lua_rawsetp(L, fm, HOUSE_RO);
    if (m)
        lua_pushvalue(L, m);
    else
        lua_pushboolean(L, 0);
    lua_rawsetp(L, fm, HOUSE_FROZEN);
    lua_pushliteral(L, "frozen"); /* Lua's setmetatable refuses to replace it */
    lua_setfield(L, fm, "__metatable");
    lua_setmetatable(L, t);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->frozen_ref); /* store -> table */
    lua_pushvalue(L, st);
    lua_pushvalue(L, t);
    lua_rawset(L, -3);
    lua_settop(L, base);
}

/* Freeze the table at idx, which holds only strings (game.sides,
 * game.seats). */
static void freeze_one(lua_State *L, House *h, int idx)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L);
    lua_Integer qn = 0;
    freeze_table(L, h, idx, lua_gettop(L), &qn);
    lua_pop(L, 1);
}

/* Remember upvalue n of the Lua function at f (once per upvalue: closures
 * share them) in ups, with its value. */
static void ups_note(lua_State *L, Script *sc, int f, int n, int ups, int seen)
{
    lua_pushlightuserdata(L, lua_upvalueid(L, f, n));
    if (lua_rawget(L, seen) != LUA_TNIL) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);
    lua_pushlightuserdata(L, lua_upvalueid(L, f, n));
    lua_pushboolean(L, 1);
    lua_rawset(L, seen);
    if (sc->nups >= HOUSE_UPVALUES_MAX)
        luaL_error(L, "the hooks reach more than %d local variables of the script "
                   "(upvalues), and each is checked after every call: keep fewer",
                   HOUSE_UPVALUES_MAX);
    int *upn = cv_realloc(sc->upn, sizeof *upn * (size_t)(sc->nups + 1));
    if (!upn)
        luaL_error(L, "out of memory");
    sc->upn = upn;
    upn[sc->nups] = n;
    lua_pushvalue(L, f);
    lua_rawseti(L, ups, 2 * sc->nups + 1);
    lua_getupvalue(L, f, n);
    lua_rawseti(L, ups, 2 * sc->nups + 2);
    sc->nups++;
}

/* ---- Which upvalues a function writes --------------------------------
 * Comparing every upvalue after every call costs tens of nanoseconds
 * each, on a path a search runs 10^5 to 10^6 times a second; most of a
 * script's upvalues (its tables, helper functions, constants) are never
 * assigned.  Only SETUPVAL assigns one (scripts have no debug library),
 * so the functions its hooks reach are read as Lua dumps them (stripped)
 * and only the upvalues some instruction of theirs, or of a function
 * nested in them, assigns are checked.  The reading knows Lua 5.4's dump
 * format; anything it does not expect makes every upvalue checked. */
#define DUMP_SETUPVAL 10 /* OP_SETUPVAL in Lua 5.4: UpValue[B] := R[A] */
#define DUMP_DEPTH 64    /* nested functions followed; deeper: all checked */

typedef struct Dump {
    const unsigned char *p;
    size_t n, at;
    int bad;
} Dump;

static int dump_write(lua_State *L, const void *p, size_t sz, void *ud)
{
    (void)L;
    StrBuf *b = ud;
    sb_putn(b, p, sz);
    return sb_failed(b);
}

static unsigned d_byte(Dump *d)
{
    if (d->at >= d->n) {
        d->bad = 1;
        return 0;
    }
    return d->p[d->at++];
}

static size_t d_size(Dump *d)
{
    size_t x = 0;
    unsigned b;
    int k = 0;
    do {
        b = d_byte(d);
        if (++k > 9)
            d->bad = 1;
        x = (x << 7) | (b & 0x7f);
    } while (!(b & 0x80) && !d->bad);
    return x;
}

static void d_skip(Dump *d, size_t n)
{
    if (n > d->n - d->at) {
        d->bad = 1;
        d->at = d->n;
    } else {
        d->at += n;
    }
}

static void d_string(Dump *d)
{
    size_t n = d_size(d);
    if (n)
        d_skip(d, n - 1);
}

/* One function of the dump: w[i] set for each of its upvalues i that it,
 * or a function nested in it, assigns; *nup gets how many it has, inst
 * and idx where each comes from (in the enclosing function's stack or
 * its upvalue idx). */
static void d_function(Dump *d, unsigned char *w, unsigned char *inst, unsigned char *idx,
                       int *nup, int depth)
{
    if (depth > DUMP_DEPTH) {
        d->bad = 1;
        return;
    }
    d_string(d);              /* source */
    d_size(d);                /* linedefined */
    d_size(d);                /* lastlinedefined */
    d_skip(d, 3);             /* numparams, is_vararg, maxstacksize */
    size_t ncode = d_size(d);
    if (d->bad || ncode > (d->n - d->at) / 4) {
        d->bad = 1;
        return;
    }
    unsigned char set[256] = {0};
    for (size_t i = 0; i < ncode; i++) {
        uint32_t ins;
        memcpy(&ins, d->p + d->at + 4 * i, 4);
        if ((ins & 0x7f) == DUMP_SETUPVAL)
            set[(ins >> 16) & 0xff] = 1;
    }
    d->at += 4 * ncode;
    size_t nk = d_size(d);
    for (size_t i = 0; i < nk && !d->bad; i++) {
        unsigned t = d_byte(d);
        if (t == 0x03 || t == 0x13)      /* an integer, a float */
            d_skip(d, 8);
        else if (t == 0x04 || t == 0x14) /* a string */
            d_string(d);
    }
    size_t nu = d_size(d);
    if (nu > 255) {
        d->bad = 1;
        return;
    }
    for (size_t i = 0; i < nu && !d->bad; i++) {
        inst[i] = (unsigned char)d_byte(d);
        idx[i] = (unsigned char)d_byte(d);
        d_byte(d); /* kind */
    }
    *nup = (int)nu;
    for (size_t i = 0; i < 256; i++)
        if (set[i] && i >= nu)
            d->bad = 1;
        else if (set[i])
            w[i] = 1;
    size_t np = d_size(d);
    for (size_t i = 0; i < np && !d->bad; i++) {
        unsigned char pw[256] = {0}, pinst[256], pidx[256];
        int pn = 0;
        d_function(d, pw, pinst, pidx, &pn, depth + 1);
        for (int j = 0; j < pn && !d->bad; j++)
            if (pw[j] && !pinst[j]) { /* the nested one assigns our upvalue */
                if (pidx[j] >= nu)
                    d->bad = 1;
                else
                    w[pidx[j]] = 1;
            }
    }
    size_t nl = d_size(d); /* the debug part (empty once stripped) */
    d_skip(d, nl);
    size_t na = d_size(d);
    for (size_t i = 0; i < na && !d->bad; i++) {
        d_size(d);
        d_size(d);
    }
    size_t nv = d_size(d);
    for (size_t i = 0; i < nv && !d->bad; i++) {
        d_string(d);
        d_size(d);
        d_size(d);
    }
    size_t nn = d_size(d);
    for (size_t i = 0; i < nn && !d->bad; i++)
        d_string(d);
}

/* w[i] for each upvalue i (of n) of the Lua function at the top that it
 * or a function nested in it may assign: all of them when its dump is
 * not what this reading expects. */
static void fn_writes(lua_State *L, unsigned char *w, int n)
{
    static const unsigned char head[] = {0x1b, 'L', 'u', 'a', 0x54, 0x00, 0x19, 0x93,
                                         '\r', '\n', 0x1a, '\n', 4};
    StrBuf b = STRBUF_INIT;
    memset(w, 0, 256);
    int ok = lua_dump(L, dump_write, &b, 1) == 0 && !sb_failed(&b) &&
             b.len > sizeof head + 20 && memcmp(b.s, head, sizeof head) == 0;
    if (ok) {
        Dump d = {(const unsigned char *)b.s, b.len, sizeof head + 2 + 16, 0};
        unsigned char inst[256], idx[256];
        int nup = 0;
        unsigned main_nup = d_byte(&d);
        d_function(&d, w, inst, idx, &nup, 0);
        ok = !d.bad && d.at == d.n && nup == n && (int)main_nup == n;
    }
    sb_free(&b);
    if (!ok)
        memset(w, 1, 256);
}

/* Freeze what script h->cur's hooks reach (run by house_run after every
 * script has loaded), and note the upvalues they may assign. */
static int freeze_script(lua_State *L)
{
    House *h = lua_touserdata(L, 1);
    Script *sc = &h->s[h->cur];
    lua_settop(L, 0);
    lua_newtable(L); /* 1: seen */
    lua_newtable(L); /* 2: the queue */
    lua_newtable(L); /* 3: upvalues: closure, value, ... */
    lua_newtable(L); /* 4: upvalue ids noted */
    lua_newtable(L); /* 5: upvalue ids some function may assign */
    lua_Integer qn = 0;
    int refs[] = {sc->setup_ref, sc->veto_ref, sc->react_ref, sc->start_ref, sc->turn_ref};
    for (size_t i = 0; i < ARRAY_LEN(refs); i++)
        if (refs[i] != LUA_NOREF) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, refs[i]);
            lua_rawseti(L, 2, ++qn);
        }
    for (lua_Integer qi = 1; qi <= qn; qi++) {
        lua_settop(L, 5);
        lua_rawgeti(L, 2, qi);
        lua_pushnil(L);
        lua_rawseti(L, 2, qi);
        lua_pushvalue(L, 6);
        if (lua_rawget(L, 1) != LUA_TNIL)
            continue;
        lua_pushvalue(L, 6);
        lua_pushboolean(L, 1);
        lua_rawset(L, 1);
        if (lua_type(L, 6) == LUA_TFUNCTION) {
            if (lua_iscfunction(L, 6))
                continue; /* the sandbox's: a script cannot change its upvalues */
            house_charge(L, 100);
            unsigned char w[256];
            lua_Debug ar;
            lua_pushvalue(L, 6);
            lua_getinfo(L, ">u", &ar);
            lua_pushvalue(L, 6);
            fn_writes(L, w, ar.nups);
            lua_pop(L, 1);
            for (int n = 1; lua_getupvalue(L, 6, n); n++) {
                if (w[(n - 1) & 0xff]) {
                    lua_pushlightuserdata(L, lua_upvalueid(L, 6, n));
                    lua_pushboolean(L, 1);
                    lua_rawset(L, 5);
                }
                ups_note(L, sc, 6, n, 3, 4);
                walk_push(L, 2, &qn, -1);
                lua_pop(L, 1);
            }
        } else if (raw_target(L, 6)) {
            /* a view the sandbox made (the globals, an action): its
             * store is read-only already; what it holds is walked */
            if (lua_type(L, -1) == LUA_TTABLE) {
                int st = lua_gettop(L);
                lua_pushnil(L);
                while (lua_next(L, st)) {
                    walk_push(L, 2, &qn, -2);
                    walk_push(L, 2, &qn, -1);
                    lua_pop(L, 1);
                }
            }
        } else {
            freeze_table(L, h, 6, 2, &qn);
        }
    }
    /* keep only the upvalues some function may assign */
    lua_settop(L, 5);
    int k = 0;
    for (int i = 0; i < sc->nups; i++) {
        lua_rawgeti(L, 3, 2 * i + 1);
        lua_pushlightuserdata(L, lua_upvalueid(L, -1, sc->upn[i]));
        int assigned = lua_rawget(L, 5) != LUA_TNIL;
        lua_pop(L, 1);
        if (assigned) {
            lua_rawseti(L, 3, 2 * k + 1);
            lua_rawgeti(L, 3, 2 * i + 2);
            lua_rawseti(L, 3, 2 * k + 2);
            sc->upn[k++] = sc->upn[i];
        } else {
            lua_pop(L, 1);
        }
    }
    for (int i = k; i < sc->nups; i++) {
        lua_pushnil(L);
        lua_rawseti(L, 3, 2 * i + 1);
        lua_pushnil(L);
        lua_rawseti(L, 3, 2 * i + 2);
    }
    sc->nups = k;
    lua_settop(L, 3);
    sc->ups_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

/* Where upvalue n of the closure at f is, for a message: the hook that
 * was called, if it holds it, else the closure. */
static void ups_where(lua_State *L, Script *sc, int hook, int f, int n, char *buf,
                      size_t len)
{
    int ref = hook == HOOK_SETUP ? sc->setup_ref : hook == HOOK_VETO ? sc->veto_ref
              : hook == HOOK_REACT ? sc->react_ref : hook == HOOK_START ? sc->start_ref
              : hook == HOOK_TURN ? sc->turn_ref : LUA_NOREF;
    void *id = lua_upvalueid(L, f, n);
    int at = f;
    if (ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
        for (int k = 1; lua_getupvalue(L, -1, k); k++) {
            lua_pop(L, 1);
            if (lua_upvalueid(L, -1, k) == id) {
                at = lua_gettop(L);
                break;
            }
        }
    }
    where_defined(L, at, buf, len);
    if (ref != LUA_NOREF)
        lua_pop(L, 1);
}

/* After a call of script `script`: each upvalue its hooks reach gets back
 * the value it had once the script loaded; 1 if one had changed and
 * report is set (the call then fails, with h's error saying which). */
static int ups_restore(House *h, int script, int report)
{
    lua_State *L = h->L;
    Script *sc = &h->s[script];
    int changed = 0;
    lua_rawgeti(L, LUA_REGISTRYINDEX, sc->ups_ref);
    int t = lua_gettop(L);
    for (int i = 0; i < sc->nups; i++) {
        lua_rawgeti(L, t, 2 * i + 1);
        const char *name = lua_getupvalue(L, -1, sc->upn[i]);
        lua_rawgeti(L, t, 2 * i + 2);
        if (lua_rawequal(L, -1, -2)) {
            lua_pop(L, 3);
            continue;
        }
        if (report && !changed) {
            char at[128], msg[sizeof h->refusal];
            ups_where(L, sc, h->hook, lua_gettop(L) - 2, sc->upn[i], at, sizeof at);
            snprintf(msg, sizeof msg, "the local '%s' (an upvalue of the function at %s) "
                     "cannot be changed in a hook (it is set back): it was made while the "
                     "script loaded, and " NO_STATE, name && *name ? name : "?", at);
            house_fail(h, script, msg);
        }
        changed = 1;
        lua_setupvalue(L, -3, sc->upn[i]);
        lua_pop(L, 2);
    }
    lua_settop(L, t - 1);
    return changed && report;
}

/* getmetatable: a frozen table's is the one it had (or its
 * __metatable field); an object whose metatable is a frozen table's
 * store has that table. */
static int sb_getmetatable(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    if (frozen_mt(L, 1)) {
        if (lua_type(L, -1) == LUA_TTABLE && lua_getfield(L, -1, "__metatable") != LUA_TNIL)
            return 1;
        lua_settop(L, 2);
        if (!lua_toboolean(L, 2))
            lua_pushnil(L);
        return 1;
    }
    if (lua_getmetatable(L, 1)) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, lua_house(L)->frozen_ref);
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) == LUA_TTABLE) {
            if (lua_getfield(L, -1, "__metatable") != LUA_TNIL)
                return 1;
            lua_pop(L, 1);
            return 1;
        }
        lua_settop(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

/* rawlen: a view's store's. */
static int sb_rawlen(lua_State *L)
{
    int ty = lua_type(L, 1);
    luaL_argexpected(L, ty == LUA_TTABLE || ty == LUA_TSTRING, 1, "table or string");
    lua_settop(L, 1);
    if (ty == LUA_TTABLE && raw_target(L, 1) && lua_type(L, -1) == LUA_TTABLE)
        lua_replace(L, 1);
    lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
    return 1;
}

/* ---- The sandbox: coroutines live within one call (issue 20 point 4) -- */

/* Note co (at idx) as made in the call in progress. */
static void co_born(lua_State *L, int idx)
{
    House *h = lua_house(L);
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->born_ref);
    lua_pushvalue(L, idx);
    lua_pushinteger(L, (lua_Integer)h->serial);
    lua_rawset(L, -3);
    lua_pop(L, 1);
}

/* Fail unless the coroutine at idx was made in this call. */
static void co_check(lua_State *L, int idx, const char *fn)
{
    House *h = lua_house(L);
    idx = lua_absindex(L, idx);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->born_ref);
    lua_pushvalue(L, idx);
    lua_rawget(L, -2);
    int ok = lua_isinteger(L, -1) && (unsigned)lua_tointeger(L, -1) == h->serial;
    lua_pop(L, 2);
    if (!ok)
        luaL_error(L, "%s: the coroutine was made in an earlier call (while the script "
                   "loaded): a coroutine lives within one call, as %s", fn, NO_STATE);
}

static int sb_coresume(lua_State *L)
{
    lua_State *co = lua_tothread(L, 1);
    luaL_argexpected(L, co, 1, "coroutine");
    co_check(L, 1, "coroutine.resume");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* A function coroutine.wrap made: Lua's (upvalue 1), on its thread
 * (upvalue 2). */
static int sb_cowrapped(lua_State *L)
{
    lua_pushvalue(L, lua_upvalueindex(2));
    co_check(L, -1, "coroutine.wrap");
    lua_pop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* ---- The sandbox: no addresses (issue 20 point 4) ---------------------
 * Lua names a table, function or coroutine by its address, which differs
 * from run to run: tostring, print and string.format's %s name it
 * "table: 1", "function: 2" ... instead, numbered in the order the call
 * first names them (so the same call names them the same); %p is
 * refused. */
static void push_name(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    int ty = lua_type(L, idx);
    int plain = ty == LUA_TTABLE || ty == LUA_TFUNCTION || ty == LUA_TTHREAD ||
                ty == LUA_TUSERDATA || ty == LUA_TLIGHTUSERDATA;
    if (plain && luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
        lua_pop(L, 1);
        plain = 0;
    }
    if (!plain) {
        luaL_tolstring(L, idx, NULL);
        return;
    }
    House *h = lua_house(L);
    if (h->ids_ref == LUA_NOREF || h->ids_serial != h->serial) {
        luaL_unref(L, LUA_REGISTRYINDEX, h->ids_ref);
        h->ids_ref = LUA_NOREF;
        lua_newtable(L);
        h->ids_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        h->ids_serial = h->serial;
        h->ids_next = 0;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->ids_ref);
    lua_pushvalue(L, idx);
    lua_Integer id;
    if (lua_rawget(L, -2) == LUA_TNUMBER) {
        id = lua_tointeger(L, -1);
    } else {
        id = ++h->ids_next;
        lua_pushvalue(L, idx);
        lua_pushinteger(L, id);
        lua_rawset(L, -4);
    }
    lua_pop(L, 2);
    int named = luaL_getmetafield(L, idx, "__name");
    if (named != LUA_TNIL && named != LUA_TSTRING)
        lua_pop(L, 1);
    lua_pushfstring(L, "%s: %I", named == LUA_TSTRING ? lua_tostring(L, -1)
                                                      : luaL_typename(L, idx),
                    (LUAI_UACINT)id);
    if (named == LUA_TSTRING)
        lua_remove(L, -2);
}

static int sb_tostring(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_settop(L, 1);
    push_name(L, 1);
    return 1;
}

/* string.format: %p refused, %s of a table, function or coroutine by
 * its name (push_name). */
static int sb_format(lua_State *L)
{
    size_t lf;
    const char *f = luaL_checklstring(L, 1, &lf);
    int arg = 1, top = lua_gettop(L);
    for (size_t i = 0; i < lf; i++) {
        if (f[i] != '%')
            continue;
        if (++i < lf && f[i] == '%')
            continue;
        while (i < lf && strchr("-+ #0123456789.", f[i]))
            i++;
        if (i >= lf)
            break; /* Lua's own error */
        arg++;
        if (f[i] == 'p')
            return luaL_error(L, "string.format: '%%p' is not allowed in house rules (an "
                              "address differs from run to run)");
        if (f[i] == 's' && arg <= top && lua_type(L, arg) != LUA_TSTRING &&
            lua_type(L, arg) != LUA_TNUMBER) {
            push_name(L, arg);
            lua_replace(L, arg);
        }
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
}

/* ---- The sandbox: building it ---------------------------------------- */

/* Push a copy of the library table `name` (from package.loaded), leaving
 * out `skip`. */
static void lib_copy(lua_State *L, const char *name, const char *skip)
{
    lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_getfield(L, -1, name);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        if (skip && lua_type(L, -2) == LUA_TSTRING && !strcmp(lua_tostring(L, -2), skip)) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_remove(L, -2);
    lua_remove(L, -2);
}

/* t[name] = closure(fn, t[name], extra...) with t at the top. */
static void lib_wrap(lua_State *L, const char *name, lua_CFunction fn, int a, int b)
{
    lua_getfield(L, -1, name);
    lua_pushboolean(L, a);
    lua_pushboolean(L, b);
    lua_pushcclosure(L, fn, 3);
    lua_setfield(L, -2, name);
}

/* Push the sandboxed string library (a fresh copy). */
static void lib_string(lua_State *L)
{
    lib_copy(L, LUA_STRLIBNAME, "dump");
    lib_wrap(L, "find", sb_pattern, 0, 1);
    lib_wrap(L, "match", sb_pattern, 0, 0);
    lib_wrap(L, "gmatch", sb_pattern, 1, 0);
    lib_wrap(L, "gsub", sb_pattern, 0, 0);
    lib_wrap(L, "rep", sb_rep, 0, 0);
    lib_wrap(L, "format", sb_format, 0, 0);
}

/* The shared string metatable: its methods are a sandboxed copy that no
 * script can reach, and getmetatable("") gives a locked stand-in. */
static void sandbox_strings(lua_State *L)
{
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lib_string(L);
    lua_setfield(L, -2, "__index");
    lua_newuserdatauv(L, 0, 0);
    lua_newtable(L);
    lua_pushcfunction(L, sb_locked);
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_locked);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);
}

static int house_rule(lua_State *L);
static int house_arguments(lua_State *L);
static void lib_board(lua_State *L);

/* Push a new environment for script i. */
static void sandbox_env(lua_State *L, House *h)
{
    static const char *const base[] = {
        "assert", "ipairs", "pcall",
        "select", "tonumber", "type", "rawequal"};
    lua_newtable(L);
    lua_pushglobaltable(L);
    for (size_t i = 0; i < ARRAY_LEN(base); i++) {
        lua_getfield(L, -1, base[i]);
        lua_setfield(L, -3, base[i]);
    }
    lua_getfield(L, -1, "setmetatable");
    lua_pushcclosure(L, sb_setmetatable, 1);
    lua_setfield(L, -3, "setmetatable");
    lua_getfield(L, -1, "xpcall");
    lua_pushcclosure(L, sb_xpcall, 1);
    lua_setfield(L, -3, "xpcall");
    lua_getfield(L, -1, "getmetatable");
    lua_pushcclosure(L, sb_getmetatable, 1);
    lua_setfield(L, -3, "getmetatable");
    lua_pop(L, 1);
    lua_pushcfunction(L, sb_tostring);
    lua_setfield(L, -2, "tostring");
    lua_pushcfunction(L, sb_rawlen);
    lua_setfield(L, -2, "rawlen");
    lua_pushcfunction(L, sb_print);
    lua_setfield(L, -2, "print");
    lua_pushcfunction(L, sb_next);
    lua_setfield(L, -2, "next");
    lua_pushcfunction(L, sb_pairs);
    lua_setfield(L, -2, "pairs");
    lua_pushcfunction(L, sb_rawget);
    lua_setfield(L, -2, "rawget");
    lua_pushcfunction(L, sb_rawset);
    lua_setfield(L, -2, "rawset");
    lua_pushcfunction(L, sb_error);
    lua_setfield(L, -2, "error");
    lua_pushlightuserdata(L, h);
    lua_pushcclosure(L, house_rule, 1);
    lua_setfield(L, -2, "rule");
    lua_pushlightuserdata(L, h);
    lua_pushcclosure(L, house_arguments, 1);
    lua_setfield(L, -2, "arguments");
    lib_string(L);
    lua_setfield(L, -2, "string");
    lib_copy(L, LUA_TABLIBNAME, NULL);
    lib_wrap(L, "move", sb_tmove, 0, 0);
    lib_sized(L, "sort");
    lib_sized(L, "concat");
    lib_sized(L, "insert");
    lib_sized(L, "remove");
    lib_sized(L, "unpack");
    lua_setfield(L, -2, "table");
    lib_copy(L, LUA_MATHLIBNAME, NULL);
    lua_pushcfunction(L, sb_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, sb_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_setfield(L, -2, "math");
    lib_copy(L, LUA_UTF8LIBNAME, NULL);
    lua_setfield(L, -2, "utf8");
    lib_board(L);
    lua_setfield(L, -2, "board");
    lib_copy(L, LUA_COLIBNAME, NULL);
    lib_wrap(L, "create", sb_cocreate, 0, 0);
    lib_wrap(L, "wrap", sb_cocreate, 1, 0);
    lib_wrap(L, "close", sb_coclose, 0, 0);
    lib_wrap(L, "resume", sb_coresume, 0, 0);
    lua_setfield(L, -2, "coroutine");
    env_guard(L, h);
}

/* ---- The standard library: board squares (issue 24) ----------------------
 * Squares of boards up to 16x16 as the variants write them, files a..p and
 * ranks 1..16 ("e4", "p16"): what every script of a board game built for
 * itself (scripts/atomic.lua's squares around a square). */
#define BOARD_MAX 16

/* The square at idx: file and rank from 1, or an error naming fn. */
static void board_square_arg(lua_State *L, int idx, const char *fn, int *f, int *r)
{
    size_t n;
    const char *s = luaL_checklstring(L, idx, &n);
    int ok = n >= 2 && n <= 3 && s[0] >= 'a' && s[0] < 'a' + BOARD_MAX && s[1] >= '1' &&
             s[1] <= '9' && (n == 2 || (s[2] >= '0' && s[2] <= '9'));
    *f = s[0] - 'a' + 1;
    *r = ok ? (n == 2 ? s[1] - '0' : (s[1] - '0') * 10 + s[2] - '0') : 0;
    if (!ok || *r > BOARD_MAX)
        luaL_error(L, "board.%s: '%s' is not a square (a1 .. p16)", fn, s);
}

static void board_push(lua_State *L, int f, int r)
{
    char buf[4] = {(char)('a' + f - 1), (char)('0' + (r >= 10 ? r / 10 : r)),
                   (char)(r >= 10 ? '0' + r % 10 : 0), 0};
    lua_pushstring(L, buf);
}

static int board_size_arg(lua_State *L, int idx, const char *fn, const char *what)
{
    lua_Integer n = luaL_checkinteger(L, idx);
    if (n < 1 || n > BOARD_MAX)
        luaL_error(L, "board.%s: the %s is 1 to %d squares, not %d", fn, what, BOARD_MAX,
                   (int)n);
    return (int)n;
}

/* board.file("e4") = 5, board.rank("e4") = 4. */
static int lib_file(lua_State *L)
{
    int f, r;
    board_square_arg(L, 1, "file", &f, &r);
    lua_pushinteger(L, f);
    return 1;
}

static int lib_rank(lua_State *L)
{
    int f, r;
    board_square_arg(L, 1, "rank", &f, &r);
    lua_pushinteger(L, r);
    return 1;
}

/* board.square(5, 4) = "e4"; nil off a 16x16 board. */
static int lib_square(lua_State *L)
{
    lua_Integer f = luaL_checkinteger(L, 1), r = luaL_checkinteger(L, 2);
    if (f < 1 || f > BOARD_MAX || r < 1 || r > BOARD_MAX) {
        lua_pushnil(L);
        return 1;
    }
    board_push(L, (int)f, (int)r);
    return 1;
}

/* board.around(square, width, height): the up to 8 squares next to it on
 * a board of that size, file by file from the left, each file upwards. */
static int lib_around(lua_State *L)
{
    int f, r;
    board_square_arg(L, 1, "around", &f, &r);
    int w = board_size_arg(L, 2, "around", "width");
    int ht = board_size_arg(L, 3, "around", "height");
    house_charge(L, 160.0);
    lua_createtable(L, 8, 0);
    int n = 0;
    for (int df = -1; df <= 1; df++)
        for (int dr = -1; dr <= 1; dr++) {
            int g = f + df, q = r + dr;
            if ((df || dr) && g >= 1 && g <= w && q >= 1 && q <= ht) {
                board_push(L, g, q);
                lua_rawseti(L, -2, ++n);
            }
        }
    return 1;
}

/* board.squares(width, height): every square, rank by rank from a1. */
static int lib_squares(lua_State *L)
{
    int w = board_size_arg(L, 1, "squares", "width");
    int ht = board_size_arg(L, 2, "squares", "height");
    house_charge(L, 20.0 * w * ht); /* a string and a slot each */
    lua_createtable(L, w * ht, 0);
    for (int r = 1; r <= ht; r++)
        for (int f = 1; f <= w; f++) {
            board_push(L, f, r);
            lua_rawseti(L, -2, (r - 1) * w + f);
        }
    return 1;
}

static void lib_board(lua_State *L)
{
    static const luaL_Reg fns[] = {{"file", lib_file},     {"rank", lib_rank},
                                   {"square", lib_square}, {"around", lib_around},
                                   {"squares", lib_squares}, {NULL, NULL}};
    luaL_newlib(L, fns);
}

/* ---- The game seen from a hook ------------------------------------------ */

static void need_game(lua_State *L, House *h, int state)
{
    if (!h->g)
        luaL_error(L, "the game is only there inside setup, veto and react");
    if (state && h->hook == HOOK_SETUP)
        luaL_error(L, "setup: there is no position yet (only game.variant, "
                   "game.sides, game.seats and game:param)");
}

/* A position game:after made (issue 24): a userdata of AFTER_HEAD bytes
 * then the variant's state blob, answering with the game's methods. */
typedef struct After {
    unsigned serial;  /* the call that made it: it lives no longer */
    int plies;        /* actions past the call's position */
} After;
#define AFTER_HEAD 16
static unsigned char *after_blob(After *a) { return (unsigned char *)a + AFTER_HEAD; }

static House *game_self(lua_State *L, int state)
{
    House *h = lua_touserdata(L, lua_upvalueindex(1));
    need_game(L, h, state);
    h->st = h->call_st;
    h->after_plies = 0;
    if (lua_type(L, 1) == LUA_TUSERDATA && lua_rawlen(L, 1) > 0) {
        After *a = lua_touserdata(L, 1);
        if (a->serial != h->serial)
            luaL_error(L, "a position game:after gave lives only in the call that made it");
        h->st = after_blob(a);
        h->after_plies = a->plies;
    }
    return h;
}

/* A method that reads or changes the game itself, not a position. */
static void not_after(lua_State *L, House *h, const char *fn)
{
    if (h->after_plies)
        luaL_error(L, "game:%s: a position game:after gave answers about its board only "
                      "(no history, kept values or edits)", fn);
}

static int is_current(const House *h) { return h->st == game_state(h->g); }

static Geometry house_geo(const House *h)
{
    if (h->v->geometry)
        return h->v->geometry(h->g, h->st);
    Geometry geo = {1, 8, 8};
    return geo;
}

static void house_status(const House *h, Status *s)
{
    if (is_current(h)) {
        game_status(h->g, s);
    } else {
        memset(s, 0, sizeof *s);
        h->v->status(h->g, h->st, s);
    }
}

static int side_arg(lua_State *L, House *h, int idx)
{
    const char *name = luaL_checkstring(L, idx);
    for (int i = 0; i < game_nsides(h->g); i++)
        if (str_ieq(name, game_side_name(h->g, i)))
            return i;
    return luaL_error(L, "no side is called '%s'", name);
}

/* A square as the variant writes it; a board square ("e4") without a
 * printf, as a veto pushes two per candidate action. */
static void push_square(lua_State *L, const Geometry *geo, Coord c)
{
    char buf[GEO_SQ_MAX];
    if (geo->bounded && c.x >= 0 && c.x < 26 && c.y >= 0 && c.y < 99) {
        int n = 0;
        buf[n++] = (char)('a' + c.x);
        if (c.y + 1 >= 10)
            buf[n++] = (char)('0' + (c.y + 1) / 10);
        buf[n++] = (char)('0' + (c.y + 1) % 10);
        lua_pushlstring(L, buf, (size_t)n);
        return;
    }
    lua_pushstring(L, geo_format_square(geo, c, buf));
}

/* The variant's view of seat for the state judged. */
static void house_view(House *h, int seat, View *out)
{
    memset(out, 0, sizeof *out);
    out->seat = seat;
    out->nsides = game_nsides(h->g);
    Status s;
    house_status(h, &s);
    out->status = s;
    out->side_to_move = h->v->side_to_move(h->g, h->st);
    out->seat_to_act = s.over ? -1 : h->v->to_act(h->g, h->st);
    out->draw_offer_seat = -1;
    out->geo = house_geo(h);
    h->v->view(h->g, h->st, seat, out);
}

/* The full truth of the pieces, into h->view: every seat's view merged
 * (view -1 first, then each seat's: a piece one seat sees and another
 * does not is still on the board, and the owner of a masked piece knows
 * its figure).  Without hidden information view -1 is the truth. */
static void house_truth(House *h)
{
    View *all = h->view, *w = h->oview;
    const size_t size = h->v->state_size;
    if (h->truth_ok && h->truth_g == h->g && h->truth_hist == game_history_len(h->g) &&
        !memcmp(h->truth_blob, h->st, size) &&
        !memcmp(&h->truth_params, game_params(h->g), sizeof h->truth_params))
        return;
    h->truth_ok = 0;
    if (!h->truth_blob)
        h->truth_blob = cv_realloc(NULL, size);
    if (h->v->version < 2 || !h->v->hidden_info) {
        /* The pieces are all the truth needs, and without hidden
         * information a brief view -1 has them all: no status, no texts
         * (a reaction asks at every node of a search: issue 20 point 7). */
        memset(all, 0, offsetof(View, position));
        all->position[0] = all->question[0] = all->info[0] = '\0';
        all->brief = 1;
        all->seat = -1;
        all->nsides = game_nsides(h->g);
        all->seat_to_act = all->draw_offer_seat = -1;
        all->geo = house_geo(h);
        h->v->view(h->g, h->st, -1, all);
    } else {
        house_view(h, -1, all);
    }
    if (h->truth_blob) {
        memcpy(h->truth_blob, h->st, size);
        h->truth_g = h->g;
        h->truth_hist = game_history_len(h->g);
        h->truth_params = *game_params(h->g);
        h->truth_ok = 1;
    }
    if (h->v->version < 2 || !h->v->hidden_info)
        return;
    for (int seat = 0; seat < game_nseats(h->g); seat++) {
        house_view(h, seat, w);
        for (int i = 0; i < w->npieces; i++) {
            const ViewPiece *p = &w->pieces[i];
            int k = 0;
            while (k < all->npieces && !coord_eq(all->pieces[k].at, p->at))
                k++;
            if (k == all->npieces) {
                if (all->npieces < MAX_VIEW_PIECES)
                    all->pieces[all->npieces++] = *p;
            } else if (all->pieces[k].figure == FIG_HIDDEN) {
                all->pieces[k].figure = p->figure;
                all->pieces[k].flags |= p->flags;
                if (all->pieces[k].side < 0)
                    all->pieces[k].side = p->side;
            }
        }
    }
}

/* ---- Strings a call pushes often -------------------------------------
 * Made once per House, in one table of the registry, so a piece or an
 * action field costs no string building or interning at every call (a
 * reaction in a search runs a million times a minute: issue 20 point 7).
 * Indices: */
enum {
    STR_SQUARE = 1, STR_X, STR_Y, STR_SIDE, STR_FIGURE, STR_MASKED, STR_MERGED,
    STR_FIG = 16,                   /* + figure: its letter */
    STR_KIND = STR_FIG + FIG__COUNT, /* + action kind: its name */
    STR_CELL = 64,                  /* + y * 16 + x: a square of a board up to 16x16 */
    STR__COUNT = STR_CELL + 256
};

/* Push h's string table (made at the first call: a Lua error if memory
 * runs out, inside the call's protection). */
static void push_strs(lua_State *L, House *h)
{
    if (h->strs_ref != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->strs_ref);
        return;
    }
    static const char *const keys[] = {"square", "x", "y", "side", "figure", "masked",
                                       "merged"};
    lua_createtable(L, STR__COUNT, 0);
    for (int i = 0; i < (int)ARRAY_LEN(keys); i++) {
        lua_pushstring(L, keys[i]);
        lua_rawseti(L, -2, STR_SQUARE + i);
    }
    for (int f = 0; f < FIG__COUNT; f++) {
        char fig[2] = {figure_letter(f), 0};
        lua_pushstring(L, fig);
        lua_rawseti(L, -2, STR_FIG + f);
    }
    for (int k = 0; k < ACT__COUNT && STR_KIND + k < STR_CELL; k++) {
        lua_pushstring(L, action_kind_name(k));
        lua_rawseti(L, -2, STR_KIND + k);
    }
    const Geometry board = {.bounded = 1, .width = 16, .height = 16};
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            push_square(L, &board, (Coord){x, y});
            lua_rawseti(L, -2, STR_CELL + y * 16 + x);
        }
    lua_pushvalue(L, -1);
    h->strs_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

/* push_square through the string table at index strs. */
static void push_square_cached(lua_State *L, int strs, const Geometry *geo, Coord c)
{
    if (geo->bounded && c.x >= 0 && c.x < 16 && c.y >= 0 && c.y < 16)
        lua_rawgeti(L, strs, STR_CELL + c.y * 16 + c.x);
    else
        push_square(L, geo, c);
}

/* t[strs[key]] = the value on top (t, strs: absolute indices). */
static void set_str_key(lua_State *L, int t, int strs, int key)
{
    lua_rawgeti(L, strs, key);
    lua_insert(L, -2);
    lua_rawset(L, t);
}

static int piece_newindex(lua_State *L)
{
    return luaL_error(L, "a piece the game gives is read-only: a house rule keeps no "
                      "state between calls (keep it in the game with game:set, or "
                      "derive it from game:history())");
}

/* A piece as a table (square, x, y, side, figure, masked, merged).  On a
 * board up to 16x16 the table is made once per House and given again
 * whenever the same piece stands on the same square: frozen, so no
 * call can see what another wrote (a veto that looks at the eight squares
 * around a capture at every node of a search allocates nothing: issue 20
 * point 7). */
static void push_piece(lua_State *L, House *h, const Geometry *geo, const ViewPiece *p)
{
    lua_Integer key = 0;
    if (geo->bounded && p->at.x >= 0 && p->at.x < 16 && p->at.y >= 0 && p->at.y < 16 &&
        p->side >= -1 && p->side < MAX_SIDES && p->figure < FIG_MAX)
        key = 1 + ((((lua_Integer)(p->at.y * 16 + p->at.x) * (MAX_SIDES + 1) + p->side + 1) *
                    FIG_MAX + p->figure) * 4 +
                   ((p->flags & VP_MASKED) ? 1 : 0) + ((p->flags & VP_MERGED) ? 2 : 0));
    if (key) {
        if (h->pieces_ref == LUA_NOREF) {
            lua_newtable(L);
            h->pieces_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        }
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->pieces_ref);
        if (lua_rawgeti(L, -1, key) != LUA_TNIL) {
            lua_remove(L, -2);
            return;
        }
        lua_pop(L, 1);
    }
    push_strs(L, h);
    int strs = lua_gettop(L);
    lua_createtable(L, 0, 7);
    int t = lua_gettop(L);
    push_square_cached(L, strs, geo, p->at);
    set_str_key(L, t, strs, STR_SQUARE);
    lua_pushinteger(L, p->at.x);
    set_str_key(L, t, strs, STR_X);
    lua_pushinteger(L, p->at.y);
    set_str_key(L, t, strs, STR_Y);
    if (p->side >= 0) {
        lua_pushstring(L, game_side_name(h->g, p->side));
        set_str_key(L, t, strs, STR_SIDE);
    }
    if (p->figure < FIG__COUNT) {
        lua_rawgeti(L, strs, STR_FIG + p->figure);
    } else if (figure_is_lettered(p->figure)) { /* a rule set's own piece (issue 24) */
        char fig[2] = {figure_letter(p->figure), 0};
        lua_pushstring(L, fig);
    } else {
        lua_pushliteral(L, "");
    }
    set_str_key(L, t, strs, STR_FIGURE);
    if (p->flags & VP_MASKED) {
        lua_pushboolean(L, 1);
        set_str_key(L, t, strs, STR_MASKED);
    }
    if (p->flags & VP_MERGED) {
        lua_pushboolean(L, 1);
        set_str_key(L, t, strs, STR_MERGED);
    }
    lua_remove(L, strs);
    if (key) { /* the cache is below the table */
        /* Read-only as a frozen table is (issue 20 point 4): its fields
         * in a store, so no call can change one that a later call reads
         * (a metatable's __newindex alone guards only missing keys). */
        freeze_one(L, h, -1);
        lua_getmetatable(L, -1);
        lua_pushcfunction(L, piece_newindex);
        lua_setfield(L, -2, "__newindex");
        lua_pushliteral(L, "locked");
        lua_rawsetp(L, -2, HOUSE_FROZEN);
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, -3, key);
        lua_remove(L, -2);
    }
}

/* Call fn for every piece, full truth. */
static int gm_pieces(lua_State *L)
{
    House *h = game_self(L, 1);
    house_truth(h);
    Geometry geo = h->view->geo;
    lua_createtable(L, h->view->npieces, 0);
    for (int i = 0; i < h->view->npieces; i++) {
        push_piece(L, h, &geo, &h->view->pieces[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int gm_piece_at(lua_State *L)
{
    House *h = game_self(L, 1);
    const char *sq = luaL_checkstring(L, 2);
    house_truth(h);
    Geometry geo = h->view->geo;
    Error e;
    Coord c;
    const char *p = sq;
    if (geo_parse_square(&geo, &p, &c, &e) || *p)
        return luaL_error(L, "piece_at: '%s' is not a square", sq);
    for (int i = 0; i < h->view->npieces; i++)
        if (coord_eq(h->view->pieces[i].at, c)) {
            push_piece(L, h, &geo, &h->view->pieces[i]);
            return 1;
        }
    lua_pushnil(L);
    return 1;
}

static int gm_material(lua_State *L)
{
    House *h = game_self(L, 1);
    int side = side_arg(L, h, 2);
    house_truth(h);
    const Params *p = game_params(h->g);
    lua_Integer sum = 0;
    for (int i = 0; i < h->view->npieces; i++) {
        const ViewPiece *t = &h->view->pieces[i];
        if (t->side == side && t->figure < FIG_MAX && t->figure != FIG_HIDDEN)
            sum += p->values[t->figure];
    }
    lua_pushinteger(L, sum);
    return 1;
}

static int gm_side_to_move(lua_State *L)
{
    House *h = game_self(L, 1);
    int s = is_current(h) ? game_side_to_move(h->g) : h->v->side_to_move(h->g, h->st);
    if (s < 0)
        lua_pushnil(L);
    else
        lua_pushstring(L, game_side_name(h->g, s));
    return 1;
}

static int gm_seat_to_act(lua_State *L)
{
    House *h = game_self(L, 1);
    Status s;
    house_status(h, &s);
    int seat = s.over ? -1 : is_current(h) ? game_to_act(h->g) : h->v->to_act(h->g, h->st);
    if (seat < 0)
        lua_pushnil(L);
    else
        lua_pushstring(L, game_seat_name(h->g, seat));
    return 1;
}

static int gm_move_number(lua_State *L)
{
    House *h = game_self(L, 1);
    lua_pushinteger(L, game_history_len(h->g) + 1 + (h->hook == HOOK_VETO ? h->ply : 0) +
                           h->after_plies);
    return 1;
}

static void push_history_entry(lua_State *L, House *h, int i)
{
    const HistoryEntry *e = game_history(h->g, i);
    lua_createtable(L, 0, 4);
    lua_pushstring(L, e->text);
    lua_setfield(L, -2, "text");
    lua_pushstring(L, e->machine);
    lua_setfield(L, -2, "machine");
    lua_pushstring(L, game_seat_name(h->g, e->action.seat));
    lua_setfield(L, -2, "seat");
    lua_pushstring(L, action_kind_name(e->action.kind));
    lua_setfield(L, -2, "kind");
}

/* game:history(): every entry (its cost grows with the game);
 * game:history(i): entry i alone, -1 the last (issue 20 point 2: what a
 * rule reads at every ply costs O(1)), nil beyond the history. */
static int gm_history(lua_State *L)
{
    House *h = game_self(L, 1);
    not_after(L, h, "history");
    int n = game_history_len(h->g);
    if (!lua_isnoneornil(L, 2)) {
        lua_Integer i = luaL_checkinteger(L, 2);
        if (i < 0)
            i += (lua_Integer)n + 1;
        if (i < 1 || i > n)
            lua_pushnil(L);
        else
            push_history_entry(L, h, (int)i - 1);
        return 1;
    }
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        push_history_entry(L, h, i);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

static int gm_in_check(lua_State *L)
{
    House *h = game_self(L, 1);
    int side = side_arg(L, h, 2);
    Status s;
    house_status(h, &s);
    lua_pushboolean(L, (s.in_check >> side) & 1u);
    return 1;
}

static int gm_over(lua_State *L)
{
    House *h = game_self(L, 1);
    Status s;
    house_status(h, &s);
    lua_pushboolean(L, s.over);
    return 1;
}

static int gm_phase(lua_State *L)
{
    House *h = game_self(L, 1);
    Status s;
    house_status(h, &s);
    const VariantOps *v = h->v;
    lua_pushstring(L, s.over ? "over"
                   : v->version >= 4 && v->phase ? v->phase(h->g, h->st) : "play");
    return 1;
}

static int gm_position(lua_State *L)
{
    House *h = game_self(L, 1);
    sb_reset(&h->tmp);
    h->v->write_position(h->g, h->st, &h->tmp);
    if (sb_failed(&h->tmp))
        return luaL_error(L, "out of memory");
    lua_pushstring(L, sb_str(&h->tmp));
    return 1;
}

static int gm_param(lua_State *L)
{
    House *h = game_self(L, 0);
    const char *name = luaL_checkstring(L, 2);
    int i = params_index(h->v, name);
    if (i < 0)
        return luaL_error(L, "game:param: %s has no parameter '%s'", h->v->name, name);
    const ParamDef *d = &h->v->params[i];
    int val = game_param(h->g, i);
    if (d->type == PARAM_BOOL)
        lua_pushboolean(L, val);
    else if (d->type == PARAM_INT)
        lua_pushinteger(L, val);
    else
        lua_pushstring(L, d->choices[val]);
    return 1;
}

static int gm_finish(lua_State *L)
{
    House *h = game_self(L, 1);
    not_after(L, h, "finish");
    if (h->hook != HOOK_REACT && h->hook != HOOK_START)
        return luaL_error(L, "game:finish is only allowed in react and start");
    unsigned mask = 0;
    if (lua_type(L, 2) == LUA_TSTRING) {
        mask = 1u << side_arg(L, h, 2);
    } else if (lua_type(L, 2) == LUA_TTABLE) {
        lua_Integer n = luaL_len(L, 2);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_geti(L, 2, i);
            mask |= 1u << side_arg(L, h, lua_gettop(L));
            lua_pop(L, 1);
        }
    } else if (!lua_isnoneornil(L, 2)) {
        return luaL_error(L, "game:finish: winners must be a side name, a list of "
                          "side names, or {} / nil for a draw");
    }
    size_t len;
    const char *reason = luaL_checklstring(L, 3, &len);
    if (len > HOUSE_REASON_MAX)
        return luaL_error(L, "game:finish: a reason of %d bytes (at most %d)", (int)len,
                          HOUSE_REASON_MAX);
    char why[80];
    if (text_check(reason, len, 0, why, sizeof why))
        return luaL_error(L, "game:finish: the reason has %s (a reason is one line of "
                          "UTF-8 text)", why);
    /* The first end stands (game_end): one a script declared, not one the
     * position shows now (a mate the reaction may still undo by an edit:
     * issue 20 point 8). */
    game_end(h->mg, mask, reason);
    return 0;
}

/* ---- Values kept in the game (issue 20 points 2 and 4) -------------------- */

static const char *var_key(lua_State *L)
{
    size_t len;
    const char *key = luaL_checklstring(L, 2, &len);
    if (strlen(key) != len)
        luaL_error(L, "game:get/set: a key with a zero byte (a key is letters, digits "
                   "or '_')");
    return key;
}

/* game:get(key): this script's value of key in the game, or nil. */
static int gm_get(lua_State *L)
{
    House *h = game_self(L, 1);
    not_after(L, h, "get");
    const char *key = var_key(L);
    const GameVar *v = h->g ? game_var(h->g, h->cur, key) : NULL;
    if (!v)
        lua_pushnil(L);
    else if (v->type == GAME_VAR_INT)
        lua_pushinteger(L, (lua_Integer)v->num);
    else if (v->type == GAME_VAR_BOOL)
        lua_pushboolean(L, (int)v->num);
    else
        lua_pushlstring(L, v->str, v->len);
    return 1;
}

/* game:set(key, value): keep value (an integer, a boolean, a short string;
 * nil clears the key) in the game, as part of it: undone, copied and
 * replayed with its actions.  react and start only: a veto is asked as
 * often as anyone asks, and a setup is not replayed. */
static int gm_set(lua_State *L)
{
    House *h = game_self(L, 1);
    not_after(L, h, "set");
    const char *key = var_key(L);
    if ((h->hook != HOOK_REACT && h->hook != HOOK_START) || !h->mg)
        return luaL_error(L, "game:set is only allowed in react and start (not in %s: "
                          "a veto is asked as often as anyone asks, a setup is not "
                          "replayed)", HOOK_NAMES[h->hook]);
    GameVar v;
    memset(&v, 0, sizeof v);
    switch (lua_type(L, 3)) {
    case LUA_TNIL: case LUA_TNONE: break;
    case LUA_TBOOLEAN: v.type = GAME_VAR_BOOL; v.num = lua_toboolean(L, 3); break;
    case LUA_TNUMBER:
        if (!lua_isinteger(L, 3))
            return luaL_error(L, "game:set: '%s': %s is not an integer (a value is an "
                              "integer, a boolean or a string)", key, lua_tostring(L, 3));
        v.type = GAME_VAR_INT;
        v.num = (long long)lua_tointeger(L, 3);
        break;
    case LUA_TSTRING: {
        const char *s = lua_tolstring(L, 3, &v.len);
        if (v.len > GAME_VAR_STR_MAX)
            return luaL_error(L, "game:set: '%s': a string of %d bytes (at most %d)", key,
                              (int)(v.len > 99999 ? 99999 : v.len), GAME_VAR_STR_MAX);
        v.type = GAME_VAR_STR;
        memcpy(v.str, s, v.len);
        break;
    }
    default:
        return luaL_error(L, "game:set: '%s': a %s (a value is an integer, a boolean, a "
                          "string or nil)", key, luaL_typename(L, 3));
    }
    Error e;
    if (game_var_set(h->mg, h->cur, key, v.type ? &v : NULL, &e))
        return luaL_error(L, "game:set: %s", e.msg);
    return 0;
}

/* ---- The checked edit API (react only) ------------------------------------ */

static Coord square_arg(lua_State *L, House *h, int idx, const char *fn)
{
    const char *sq = luaL_checkstring(L, idx);
    Geometry geo = house_geo(h);
    Error e;
    Coord c;
    const char *p = sq;
    if (geo_parse_square(&geo, &p, &c, &e) || *p)
        luaL_error(L, "game:%s: '%s' is not a square", fn, sq);
    return c;
}

static int figure_arg(lua_State *L, int idx, const char *fn)
{
    House *h = lua_house(L);
    const char *f = luaL_checkstring(L, idx);
    /* a variant from parts (issue 24) names its own pieces by letter */
    int parts = h->v->version >= 9 && h->v->prepare;
    int fig = strlen(f) != 1 ? FIG_NONE : parts ? figure_from_any_letter(f[0])
                                                 : figure_from_letter(f[0]);
    if (fig == FIG_NONE || fig == FIG_HIDDEN)
        luaL_error(L, "game:%s: '%s' is not a figure (P N B R Q K%s)", fn, f,
                   parts ? ", or a rule set's letter" : "");
    return fig;
}

/* Hand the edit to the core, which asks the variant to keep its
 * invariants; a refusal is this call's error (the reaction, unless it
 * catches it, then refuses the action: it is undone). */
static int edit_run(lua_State *L, House *h, const Edit *ed, const char *fn)
{
    Error e;
    /* Issue 20 point 3: each edit writes a message per seat into the
     * game, outside the memory cap: bounded per call and per game. */
    if (++h->edits > HOUSE_EDITS_MAX) {
        house_exceed(h, "more than 1000 edits in one reaction");
        return luaL_error(L, "game:%s: %s", fn, h->limit);
    }
    if (game_message_count(h->mg) >= h->messages) {
        house_exceed(h, "the game's message list is full: no more edits");
        return luaL_error(L, "game:%s: %s", fn, h->limit);
    }
    house_charge(L, 1000); /* the variant's work and the messages */
    if (game_edit(h->mg, ed, &e)) {
        luaL_where(L, 1);
        lua_pushfstring(L, "game:%s: %s", fn, e.msg);
        lua_concat(L, 2);
        refusal_note(L, -1);
        return lua_error(L);
    }
    h->st = h->call_st = game_state(h->mg); /* the core swapped its blobs */
    lua_pushboolean(L, 1);
    return 1;
}

static House *edit_self(lua_State *L, const char *fn)
{
    House *h = game_self(L, 1);
    not_after(L, h, fn);
    if (h->hook != HOOK_REACT || !h->mg)
        luaL_error(L, "game:%s is only allowed in react", fn);
    return h;
}

static int gm_remove(lua_State *L)
{
    House *h = edit_self(L, "remove");
    Edit ed = {.kind = EDIT_REMOVE, .side = -1};
    ed.at = square_arg(L, h, 2, "remove");
    return edit_run(L, h, &ed, "remove");
}

/* game:add(square, side, figure [, {masked = true}]) */
static int gm_add(lua_State *L)
{
    House *h = edit_self(L, "add");
    Edit ed = {.kind = EDIT_ADD};
    ed.at = square_arg(L, h, 2, "add");
    ed.side = side_arg(L, h, 3);
    ed.figure = figure_arg(L, 4, "add");
    if (lua_istable(L, 5)) {
        lua_getfield(L, 5, "masked");
        ed.masked = lua_toboolean(L, -1);
        lua_pop(L, 1);
    } else if (!lua_isnoneornil(L, 5)) {
        return luaL_error(L, "game:add: the fifth argument is a table of options "
                          "({masked = true})");
    }
    return edit_run(L, h, &ed, "add");
}

static int gm_change(lua_State *L)
{
    House *h = edit_self(L, "change");
    Edit ed = {.kind = EDIT_CHANGE, .side = -1};
    ed.at = square_arg(L, h, 2, "change");
    ed.figure = figure_arg(L, 3, "change");
    return edit_run(L, h, &ed, "change");
}

/* The game object's methods (house_game_method names them for the lab's
 * reference, issue 23). */
/* ---- What a script can ask (issue 24) ------------------------------------ */

/* The variant's play actions of the seat to act in the position judged,
 * into h->al (no house rule's veto is asked: a veto asking would ask
 * itself).  The seat, or -1 when nobody acts (the game is over there). */
static int house_actions(lua_State *L, House *h, const void *st)
{
    al_clear(&h->al);
    Status s;
    memset(&s, 0, sizeof s);
    if (st == h->call_st && is_current(h))
        game_status(h->g, &s);
    else
        h->v->status(h->g, st, &s);
    int seat = s.over ? -1 : h->v->to_act(h->g, st);
    if (seat >= 0)
        h->v->legal(h->g, st, seat, &h->al);
    if (h->al.failed)
        luaL_error(L, "out of memory");
    house_charge(L, 1000.0 + 100.0 * h->al.n); /* the variant's generation */
    return seat;
}

/* The position judged with `side` to move, for a side that is not: the
 * position string's side field turned (a position written as FEN: side
 * `w` or `b` second, en passant fourth, cleared) and read again into
 * h->turned.  A variant that writes no such string, or refuses the turned
 * position (chess: the side not to move may not be in check), cannot. */
static const void *house_turned(lua_State *L, House *h, int side, const char *fn)
{
    if (h->v->side_to_move(h->g, h->st) == side)
        return h->st;
    sb_reset(&h->tmp);
    h->v->write_position(h->g, h->st, &h->tmp);
    if (sb_failed(&h->tmp))
        luaL_error(L, "out of memory");
    char *t = h->tmp.s, *f2 = t ? strchr(t, ' ') : NULL;
    if (game_nsides(h->g) != 2 || !f2 || (f2[1] != 'w' && f2[1] != 'b') || f2[2] != ' ')
        luaL_error(L, "game:%s: %s is not to move, and a %s position cannot be handed to "
                      "another side (only one written as FEN can)", fn,
                   game_side_name(h->g, side), h->v->name);
    f2[1] = f2[1] == 'w' ? 'b' : 'w';
    char *f3 = strchr(f2 + 3, ' '), *f4 = f3 ? f3 + 1 : NULL;
    if (f4 && *f4 && *f4 != '-') { /* en passant: '-' in place of the square */
        size_t n = strcspn(f4, " ");
        f4[0] = '-';
        memmove(f4 + 1, f4 + n, strlen(f4 + n) + 1);
    }
    if (!h->turned && !(h->turned = cv_calloc(h->v->state_size)))
        luaL_error(L, "out of memory");
    house_charge(L, 1000.0);
    Error e = {""};
    if (h->v->init((Game *)h->g, h->turned, t, &e))
        luaL_error(L, "game:%s: the position with %s to move is not one %s accepts (%s)",
                   fn, game_side_name(h->g, side), h->v->name, e.msg);
    return h->turned;
}

/* game:legal([side]): the variant's play actions of the side (default:
 * the one to act) in the position, each {kind=, from=, to=, figure=,
 * text=} (text the machine form). */
static int gm_legal(lua_State *L)
{
    House *h = game_self(L, 1);
    const void *st = h->st;
    if (!lua_isnoneornil(L, 2))
        st = house_turned(L, h, side_arg(L, h, 2), "legal");
    house_actions(L, h, st);
    Geometry geo = h->v->geometry ? h->v->geometry(h->g, st) : (Geometry){1, 8, 8};
    push_strs(L, h);
    int strs = lua_gettop(L);
    lua_createtable(L, h->al.n, 0);
    for (int i = 0; i < h->al.n; i++) {
        const Action *a = &h->al.v[i];
        lua_createtable(L, 0, 5);
        if (STR_KIND + (int)a->kind < STR_CELL)
            lua_rawgeti(L, strs, STR_KIND + (int)a->kind);
        else
            lua_pushstring(L, action_kind_name(a->kind));
        lua_setfield(L, -2, "kind");
        if (a->kind == ACT_MOVE) {
            push_square_cached(L, strs, &geo, a->from);
            lua_setfield(L, -2, "from");
        }
        if (a->kind == ACT_MOVE || a->kind == ACT_PLACE) {
            push_square_cached(L, strs, &geo, a->to);
            lua_setfield(L, -2, "to");
        }
        if (a->figure != FIG_NONE && a->figure != FIG_HIDDEN && figure_letter(a->figure)) {
            char fig[2] = {figure_letter(a->figure), 0};
            lua_pushstring(L, fig);
            lua_setfield(L, -2, "figure");
        }
        sb_reset(&h->tmp);
        h->v->format(h->g, st, a, FMT_MACHINE, &h->tmp);
        if (sb_failed(&h->tmp))
            return luaL_error(L, "out of memory");
        lua_pushstring(L, sb_str(&h->tmp));
        lua_setfield(L, -2, "text");
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

/* game:attackers(square, side): the squares of side's pieces that have a
 * play action onto square in the position (with side to move: turned, if
 * it is not), in the variant's order. */
static int gm_attackers(lua_State *L)
{
    House *h = game_self(L, 1);
    Coord c = square_arg(L, h, 2, "attackers");
    const void *st = house_turned(L, h, side_arg(L, h, 3), "attackers");
    house_actions(L, h, st);
    Geometry geo = h->v->geometry ? h->v->geometry(h->g, st) : (Geometry){1, 8, 8};
    push_strs(L, h);
    int strs = lua_gettop(L);
    lua_newtable(L);
    int n = 0;
    for (int i = 0; i < h->al.n; i++) {
        const Action *a = &h->al.v[i];
        if (a->kind != ACT_MOVE || !coord_eq(a->to, c))
            continue;
        int seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = h->al.v[k].kind == ACT_MOVE && coord_eq(h->al.v[k].to, c) &&
                   coord_eq(h->al.v[k].from, a->from);
        if (seen)
            continue;
        push_square_cached(L, strs, &geo, a->from);
        lua_rawseti(L, -2, ++n);
    }
    return 1;
}

/* game:after(action): the position after the action (a text the variant
 * reads, or an action table's text), as a read-only game of its own. */
static int gm_after(lua_State *L)
{
    House *h = game_self(L, 1);
    const char *text = NULL;
    if (lua_type(L, 2) == LUA_TSTRING) {
        text = lua_tostring(L, 2);
    } else if (lua_type(L, 2) == LUA_TTABLE) {
        lua_getfield(L, 2, "text");
        text = lua_tostring(L, -1);
    }
    if (!text)
        return luaL_error(L, "game:after: expected an action (its text, \"e2e4\", or an "
                          "action table), got a %s", luaL_typename(L, 2));
    if (house_actions(L, h, h->st) < 0)
        return luaL_error(L, "game:after: nobody acts in this position (the game is over)");
    Action a;
    Error e = {""};
    if (h->v->parse(h->g, h->st, &h->al, text, &a, &e))
        return luaL_error(L, "game:after: %s", e.msg);
    size_t size = h->v->state_size;
    After *o = lua_newuserdatauv(L, AFTER_HEAD + size, 0);
    o->serial = h->serial;
    o->plies = h->after_plies + 1;
    memcpy(after_blob(o), h->st, size);
    house_charge(L, 1000.0);
    if (h->v->apply(h->g, after_blob(o), &a, NULL))
        return luaL_error(L, "game:after: %s refused the action %s", h->v->name, text);
    lua_getmetatable(L, 1);
    lua_setmetatable(L, -2);
    return 1;
}

/* game:size(): the board's width and height (nil on an open plane). */
static int gm_size(lua_State *L)
{
    House *h = game_self(L, 1);
    Geometry geo = house_geo(h);
    if (!geo.bounded)
        return 0;
    lua_pushinteger(L, geo.width);
    lua_pushinteger(L, geo.height);
    return 2;
}

/* game:turn() (issue 25): the turn under way, {side, number, made, moves,
 * left, duck}, or nil in a game without a schedule (or over). */
static int gm_turn(lua_State *L)
{
    House *h = game_self(L, 1);
    not_after(L, h, "turn");
    const GameTurn *t = game_turn(h->g);
    Status s;
    house_status(h, &s);
    if (t->moves == 0 || s.over) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, 0, 6);
    lua_pushstring(L, game_side_name(h->g, t->side));
    lua_setfield(L, -2, "side");
    lua_pushinteger(L, t->number);
    lua_setfield(L, -2, "number");
    lua_pushinteger(L, t->made);
    lua_setfield(L, -2, "made");
    lua_pushinteger(L, t->moves);
    lua_setfield(L, -2, "moves");
    lua_pushinteger(L, t->moves - t->made);
    lua_setfield(L, -2, "left");
    lua_pushboolean(L, t->duck);
    lua_setfield(L, -2, "duck");
    return 1;
}

static const luaL_Reg GAME_METHODS[] = {
    {"side_to_move", gm_side_to_move}, {"seat_to_act", gm_seat_to_act},
    {"move_number", gm_move_number},   {"history", gm_history},
    {"pieces", gm_pieces},             {"piece_at", gm_piece_at},
    {"in_check", gm_in_check},         {"over", gm_over},
    {"material", gm_material},         {"position", gm_position},
    {"param", gm_param},               {"finish", gm_finish},
    {"remove", gm_remove},             {"add", gm_add},
    {"change", gm_change},             {"phase", gm_phase},
    {"get", gm_get},                   {"set", gm_set},
    {"legal", gm_legal},               {"attackers", gm_attackers},
    {"after", gm_after},               {"size", gm_size},
    {"turn", gm_turn},                 {NULL, NULL}};

const char *house_game_method(int i)
{
    return i >= 0 && i < (int)ARRAY_LEN(GAME_METHODS) ? GAME_METHODS[i].name : NULL;
}

/* A fresh game object for one script: a userdata whose fields and
 * methods come from a table no script can reach or change. */
static void push_game_object(lua_State *L, House *h, int nsides, int nseats,
                             const char *const *sides, const char *const *seats)
{
    lua_newuserdatauv(L, 0, 0);
    lua_newtable(L);                 /* metatable */
    lua_newtable(L);                 /* __index */
    lua_pushlightuserdata(L, h);
    luaL_setfuncs(L, GAME_METHODS, 1);
    lua_pushstring(L, h->v->name);
    lua_setfield(L, -2, "variant");
    lua_createtable(L, nsides, 0);
    for (int i = 0; i < nsides; i++) {
        lua_pushstring(L, sides[i]);
        lua_rawseti(L, -2, i + 1);
    }
    freeze_one(L, h, -1);
    lua_setfield(L, -2, "sides");
    lua_createtable(L, nseats, 0);
    for (int i = 0; i < nseats; i++) {
        lua_pushstring(L, seats[i]);
        lua_rawseti(L, -2, i + 1);
    }
    freeze_one(L, h, -1);
    lua_setfield(L, -2, "seats");
    lua_setfield(L, -2, "__index");
    lua_pushcfunction(L, sb_locked);
    lua_setfield(L, -2, "__newindex");
    lua_pushliteral(L, "the game is read-only");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

/* The names of the sides and seats are known only once a game exists;
 * the game objects are filled at the first hook call with a game. */
static void fill_game_objects(lua_State *L, House *h, const Game *g)
{
    const char *sides[MAX_SIDES], *seats[MAX_SEATS];
    int ns = game_nsides(g), nt = game_nseats(g);
    for (int i = 0; i < ns && i < MAX_SIDES; i++)
        sides[i] = game_side_name(g, i);
    for (int i = 0; i < nt && i < MAX_SEATS; i++)
        seats[i] = game_seat_name(g, i);
    for (int i = 0; i < h->n; i++) {
        push_game_object(L, h, ns, nt, sides, seats);
        h->s[i].game_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
}

/* ---- rule{...} -------------------------------------------------------- */

static char *lua_strdup_or_error(lua_State *L, const char *s)
{
    char *d = cv_strdup(s);
    if (!d)
        luaL_error(L, "out of memory");
    return d;
}

static void add_assign(lua_State *L, House *h, Script *sc, const char *text)
{
    Error e;
    if (params_set(h->v, &h->scratch, text, &e))
        luaL_error(L, "rule: %s", e.msg);
    char **a = cv_realloc(sc->assigns, sizeof *a * (size_t)(sc->nassigns + 1));
    if (!a)
        luaL_error(L, "out of memory");
    sc->assigns = a;
    a[sc->nassigns] = lua_strdup_or_error(L, text);
    sc->nassigns++;
}

static const char *param_expect(const ParamDef *d, char *buf, size_t n)
{
    if (d->type == PARAM_BOOL)
        return "a boolean (true or false)";
    if (d->type == PARAM_INT) {
        snprintf(buf, n, "an integer from %d to %d", d->min, d->max);
        return buf;
    }
    size_t k = (size_t)snprintf(buf, n, "a string, one of:");
    for (int i = 0; d->choices[i] && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, " %s", d->choices[i]);
    return buf;
}

/* params = {NAME = value}: checked by params_set on the scratch table. */
static void rule_params(lua_State *L, House *h, Script *sc, int t)
{
    luaL_checktype(L, t, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "rule: params: keys must be parameter names (strings)");
        const char *name = lua_tostring(L, -2);
        char text[160], buf[200];
        int i = params_index(h->v, name);
        if (i < 0 || strchr(name, '=')) {
            snprintf(text, sizeof text, "%s=0", name);
            add_assign(L, h, sc, text); /* params_set names the valid ones */
            luaL_error(L, "rule: params: unknown parameter '%s'", name);
        }
        const ParamDef *d = &h->v->params[i];
        int ty = lua_type(L, -1);
        if (d->type == PARAM_BOOL && ty == LUA_TBOOLEAN)
            snprintf(text, sizeof text, "%s=%s", name, lua_toboolean(L, -1) ? "on" : "off");
        else if (d->type != PARAM_BOOL && lua_isinteger(L, -1))
            snprintf(text, sizeof text, "%s=%lld", name, (long long)lua_tointeger(L, -1));
        else if (d->type != PARAM_BOOL && ty == LUA_TSTRING && lua_rawlen(L, -1) < 100)
            snprintf(text, sizeof text, "%s=%s", name, lua_tostring(L, -1));
        else
            luaL_error(L, "rule: params.%s: expected %s, got a %s", name,
                       param_expect(d, buf, sizeof buf), luaL_typename(L, -1));
        add_assign(L, h, sc, text);
        lua_pop(L, 1);
    }
}

static void rule_values(lua_State *L, House *h, Script *sc, int t)
{
    luaL_checktype(L, t, LUA_TTABLE);
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        if (strlen(k) != 1 || figure_from_any_letter(k[0]) == FIG_NONE ||
            figure_from_any_letter(k[0]) == FIG_HIDDEN)
            luaL_error(L, "rule: values: keys must be figure letters (P N B R Q, or the "
                          "letter of a rule set's own piece, A)");
        if (!lua_isinteger(L, -1))
            luaL_error(L, "rule: values.%s: expected an integer, got a %s", k,
                       luaL_typename(L, -1));
        char text[64];
        snprintf(text, sizeof text, "value.%s=%lld", k, (long long)lua_tointeger(L, -1));
        add_assign(L, h, sc, text);
        lua_pop(L, 1);
    }
}

static void rule_variants(lua_State *L, House *h, int t)
{
    int ok = 0;
    char names[160] = "";
    if (lua_type(L, t) == LUA_TSTRING) {
        ok = str_ieq(lua_tostring(L, t), h->v->name);
        str_copy(names, sizeof names, lua_tostring(L, t));
    } else if (lua_type(L, t) == LUA_TTABLE) {
        lua_Integer n = (lua_Integer)lua_rawlen(L, t);
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, t, i) != LUA_TSTRING)
                luaL_error(L, "rule: variants: expected variant names (strings)");
            ok |= str_ieq(lua_tostring(L, -1), h->v->name);
            size_t len = strlen(names);
            snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "",
                     lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    } else {
        luaL_error(L, "rule: variants: expected a string or a list of strings, got a %s",
                   luaL_typename(L, t));
    }
    if (!ok)
        luaL_error(L, "rule: this script is not for %s: its variants field names %s",
                   h->v->name, names[0] ? names : "none");
}

static void rule_text(lua_State *L, int idx, const char *field);

/* rule{changes = {{area = "captures", what = "...", rules = "ORTH-2"}, ...}}:
 * what the script changes, by area (issue 22, docs/HOUSE-RULES.md, "What
 * a script changes"); `chessvar diff` builds its card from them. */
static void rule_changes(lua_State *L, Script *sc, int t)
{
    if (lua_type(L, t) != LUA_TTABLE)
        luaL_error(L, "rule: changes: expected a list of {area = ..., what = ...}, got a %s",
                   luaL_typename(L, t));
    lua_Integer n = (lua_Integer)lua_rawlen(L, t);
    if (n < 1 || n > HOUSE_MAX_CHANGES)
        luaL_error(L, "rule: changes: give 1 to %d entries, {area = ..., what = ...}",
                   HOUSE_MAX_CHANGES);
    sc->changes = cv_realloc(NULL, sizeof *sc->changes * (size_t)n);
    if (!sc->changes)
        luaL_error(L, "out of memory");
    for (lua_Integer i = 1; i <= n; i++) {
        if (lua_rawgeti(L, t, i) != LUA_TTABLE)
            luaL_error(L, "rule: changes[%d]: expected a table {area = ..., what = ...}, "
                          "got a %s", (int)i, luaL_typename(L, -1));
        int e = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, e)) {
            const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
            if (strcmp(k, "area") && strcmp(k, "what") && strcmp(k, "rules"))
                luaL_error(L, "rule: changes[%d]: unknown field '%s' (the fields are area, "
                              "what, rules)", (int)i, k);
            lua_pop(L, 1);
        }
        HouseChange *c = &sc->changes[sc->nchanges];
        memset(c, 0, sizeof *c);
        if (lua_getfield(L, e, "area") != LUA_TSTRING ||
            (c->area = rule_area_find(lua_tostring(L, -1))) < 0) {
            StrBuf b = STRBUF_INIT;
            for (int a = 0; a < AREA__COUNT; a++)
                sb_printf(&b, "%s%s", a ? ", " : "", rule_area_word(a));
            lua_pushstring(L, sb_str(&b));
            sb_free(&b);
            luaL_error(L, "rule: changes[%d].area: expected one of %s", (int)i,
                       lua_tostring(L, -1));
        }
        sc->nchanges++; /* its strings are freed with the script from here */
        if (lua_getfield(L, e, "what") != LUA_TSTRING)
            luaL_error(L, "rule: changes[%d].what: expected a string (one line: what "
                          "changes), got a %s", (int)i, luaL_typename(L, -1));
        rule_text(L, -1, "what");
        c->what = lua_strdup_or_error(L, lua_tostring(L, -1));
        if (lua_getfield(L, e, "rules") != LUA_TNIL) {
            if (lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "rule: changes[%d].rules: expected a string of rule ids "
                              "(\"ORTH-2 ORTH-6\"), got a %s", (int)i, luaL_typename(L, -1));
            rule_text(L, -1, "rules");
            c->rules = lua_strdup_or_error(L, lua_tostring(L, -1));
        }
        lua_settop(L, e - 1);
    }
}

/* ---- A script's arguments (issue 24) --------------------------------------
 * `--rules three_check.lua:checks=5`: the text after the name's last colon
 * is name=value pairs, comma-separated.  The script declares what it takes
 * with arguments{name = {default, "doc" [, min=, max=] [, choices={...}]}},
 * which returns the values (the defaults, the given ones over them) while
 * it loads; the default's type is the argument's: a boolean, an integer,
 * a number or a string. */

const char *house_script_args(const char *name)
{
    const char *c = name ? strrchr(name, ':') : NULL;
    if (!c || c == name || !strchr(c + 1, '=') || strchr(c + 1, '/'))
        return NULL;
    return c + 1;
}

static int arg_cmp(const void *a, const void *b)
{
    return strcmp(((const HouseArg *)a)->name, ((const HouseArg *)b)->name);
}

/* The declaration at the top of the stack, for argument `name` (into a). */
static void arg_declare(lua_State *L, const char *name, HouseArg *a)
{
    int d = lua_gettop(L);
    if (lua_type(L, d) != LUA_TTABLE)
        luaL_error(L, "arguments: %s: expected {default, \"what it is\"}, got a %s", name,
                   luaL_typename(L, d));
    lua_pushnil(L);
    while (lua_next(L, d)) {
        int ok = lua_isinteger(L, -2) && lua_tointeger(L, -2) >= 1 &&
                 lua_tointeger(L, -2) <= 2;
        if (lua_type(L, -2) == LUA_TSTRING) {
            const char *k = lua_tostring(L, -2);
            ok = !strcmp(k, "min") || !strcmp(k, "max") || !strcmp(k, "choices");
        }
        if (!ok)
            luaL_error(L, "arguments: %s: unknown field '%s' (the fields are the default, "
                          "the doc line, min, max, choices)", name,
                       lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
        lua_pop(L, 1);
    }
    int ty = lua_rawgeti(L, d, 1);
    if (ty == LUA_TBOOLEAN)
        a->type = HOUSE_ARG_BOOL;
    else if (ty == LUA_TNUMBER)
        a->type = lua_isinteger(L, -1) ? HOUSE_ARG_INT : HOUSE_ARG_NUMBER;
    else if (ty == LUA_TSTRING)
        a->type = HOUSE_ARG_STRING;
    else
        luaL_error(L, "arguments: %s: the default (first) is a boolean, a number or a "
                      "string, not a %s", name, luaL_typename(L, -1));
    lua_pop(L, 1);
    if (lua_rawgeti(L, d, 2) != LUA_TSTRING)
        luaL_error(L, "arguments: %s: the second is the doc line (a string saying what it "
                      "is), not a %s", name, luaL_typename(L, -1));
    size_t len;
    const char *doc = lua_tolstring(L, -1, &len);
    char why[80];
    if (text_check(doc, len, 0, why, sizeof why))
        luaL_error(L, "arguments: %s: its doc line has %s", name, why);
    a->doc = lua_strdup_or_error(L, doc);
    lua_pop(L, 1);
    StrBuf *b = &lua_house(L)->tmp;
    sb_reset(b);
    int mt = lua_getfield(L, d, "min"), xt = lua_getfield(L, d, "max");
    if ((mt != LUA_TNIL || xt != LUA_TNIL) && a->type != HOUSE_ARG_INT &&
        a->type != HOUSE_ARG_NUMBER)
        luaL_error(L, "arguments: %s: min and max are for numbers", name);
    if ((mt != LUA_TNIL && mt != LUA_TNUMBER) || (xt != LUA_TNIL && xt != LUA_TNUMBER))
        luaL_error(L, "arguments: %s: min and max are numbers", name);
    a->has_min = mt != LUA_TNIL;
    a->has_max = xt != LUA_TNIL;
    a->min = a->has_min ? lua_tonumber(L, -2) : 0;
    a->max = a->has_max ? lua_tonumber(L, -1) : 0;
    lua_pop(L, 2);
    sb_puts(b, a->type == HOUSE_ARG_BOOL ? "yes or no" : a->type == HOUSE_ARG_INT
               ? "an integer" : a->type == HOUSE_ARG_NUMBER ? "a number" : "a text");
    if (a->has_min && a->has_max)
        sb_printf(b, " from %.15g to %.15g", a->min, a->max);
    else if (a->has_min)
        sb_printf(b, " from %.15g", a->min);
    else if (a->has_max)
        sb_printf(b, " up to %.15g", a->max);
    if (lua_getfield(L, d, "choices") != LUA_TNIL) {
        lua_Integer n = lua_type(L, -1) == LUA_TTABLE ? (lua_Integer)lua_rawlen(L, -1) : 0;
        if (a->type != HOUSE_ARG_STRING || n < 1 || n > 32)
            luaL_error(L, "arguments: %s: choices is a list of 1 to 32 texts, for a text "
                          "argument", name);
        sb_puts(b, ", one of:");
        for (lua_Integer i = 1; i <= n; i++) {
            if (lua_rawgeti(L, -1, i) != LUA_TSTRING || strpbrk(lua_tostring(L, -1), ",: "))
                luaL_error(L, "arguments: %s: choices[%d] is not a word", name, (int)i);
            sb_printf(b, " %s", lua_tostring(L, -1));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    a->expect = lua_strdup_or_error(L, sb_str(b));
    }

/* Is the value at the top of the stack one argument a accepts?  NULL, or
 * why not. */
static const char *arg_fits(lua_State *L, int d, const HouseArg *a)
{
    if (a->type == HOUSE_ARG_INT || a->type == HOUSE_ARG_NUMBER) {
        double x = lua_tonumber(L, -1);
        if ((a->has_min && x < a->min) || (a->has_max && x > a->max))
            return "out of range";
    }
    if (a->type == HOUSE_ARG_STRING && lua_getfield(L, d, "choices") != LUA_TNIL) {
        int found = 0;
        for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
            lua_rawgeti(L, -1, i);
            found |= lua_rawequal(L, -1, -3);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (!found)
            return "not one of the choices";
    } else if (a->type == HOUSE_ARG_STRING) {
        lua_pop(L, 1);
    }
    return NULL;
}

/* Read text as argument a's type and push it; 0, or -1 when it is no such
 * value. */
static int arg_read(lua_State *L, const HouseArg *a, const char *text)
{
    char *end;
    if (a->type == HOUSE_ARG_BOOL) {
        static const char *const YES[] = {"yes", "true", "on"}, *const NO[] = {"no", "false",
                                                                            "off"};
        for (int i = 0; i < 3; i++) {
            if (str_ieq(text, YES[i]) || str_ieq(text, NO[i])) {
                lua_pushboolean(L, str_ieq(text, YES[i]));
                return 0;
            }
        }
        return -1;
    }
    if (a->type == HOUSE_ARG_INT) {
        errno = 0;
        long long x = strtoll(text, &end, 10);
        if (!*text || *end || errno || isspace((unsigned char)*text))
            return -1;
        lua_pushinteger(L, (lua_Integer)x);
        return 0;
    }
    if (a->type == HOUSE_ARG_NUMBER) {
        double x = strtod(text, &end);
        if (!*text || *end || !isfinite(x) || isspace((unsigned char)*text))
            return -1;
        lua_pushnumber(L, x);
        return 0;
    }
    char why[80];
    if (!*text || text_check(text, strlen(text), 0, why, sizeof why))
        return -1;
    lua_pushstring(L, text);
    return 0;
}

/* The names a script accepts, for an error: "checks, mode". */
static const char *arg_names(lua_State *L, const Script *sc)
{
    StrBuf *b = &lua_house(L)->tmp;
    sb_reset(b);
    for (int i = 0; i < sc->nargs; i++)
        sb_printf(b, "%s%s", i ? ", " : "", sc->args[i].name);
    if (!sc->nargs)
        sb_puts(b, "none");
    return sb_str(b);
}

static int house_arguments(lua_State *L)
{
    House *h = lua_touserdata(L, lua_upvalueindex(1));
    if (h->hook != HOOK_LOAD)
        return luaL_error(L, "arguments{} may only be called while the script loads");
    Script *sc = &h->s[h->cur];
    if (sc->nargs >= 0)
        return luaL_error(L, "arguments{} is called a second time (a script calls it once)");
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        size_t len = strlen(k);
        if (!len || len > 32 || strspn(k, "abcdefghijklmnopqrstuvwxyz"
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != len ||
            isdigit((unsigned char)k[0]))
            return luaL_error(L, "arguments: the names are words of letters, digits and _ "
                              "(checks, max_plies), not %s", lua_type(L, -2) == LUA_TSTRING
                              ? k : luaL_typename(L, -2));
        if (++n > 32)
            return luaL_error(L, "arguments: at most 32");
        lua_pop(L, 1);
    }
    sc->args = cv_calloc(sizeof *sc->args * (size_t)(n ? n : 1));
    if (!sc->args)
        return luaL_error(L, "out of memory");
    sc->nargs = 0;
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        HouseArg *a = &sc->args[sc->nargs++];
        a->name = lua_strdup_or_error(L, lua_tostring(L, -2));
        arg_declare(L, a->name, a);
        lua_pop(L, 1);
    }
    qsort(sc->args, (size_t)sc->nargs, sizeof *sc->args, arg_cmp);
    lua_createtable(L, 0, sc->nargs); /* 2: the values */
    for (int i = 0; i < sc->nargs; i++) {
        HouseArg *a = &sc->args[i];
        lua_getfield(L, 1, a->name);
        int d = lua_gettop(L);
        lua_rawgeti(L, d, 1);
        const char *why = arg_fits(L, d, a);
        if (why)
            return luaL_error(L, "arguments: %s: the default is %s (%s)", a->name, why,
                              a->expect);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, a->name);
        a->def = lua_strdup_or_error(L, luaL_tolstring(L, -1, NULL));
        a->value = lua_strdup_or_error(L, a->def);
        lua_settop(L, 2);
    }
    /* the given values, over the defaults */
    for (const char *p = sc->given; p && *p;) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        char val[200];
        if (!eq || eq == p)
            return luaL_error(L, "arguments: they are given as name=value pairs "
                              "separated by commas, not \"%s\" (its arguments: %s)",
                              lua_pushlstring(L, p, len), arg_names(L, sc));
        int i = 0;
        while (i < sc->nargs && (strlen(sc->args[i].name) != (size_t)(eq - p) ||
                                 strncmp(sc->args[i].name, p, (size_t)(eq - p))))
            i++;
        if (i == sc->nargs)
            return luaL_error(L, "arguments: %s: no such argument (its arguments: %s)",
                              lua_pushlstring(L, p, len), arg_names(L, sc));
        HouseArg *a = &sc->args[i];
        if (a->given)
            return luaL_error(L, "arguments: %s is given twice", a->name);
        a->given = 1;
        size_t vl = len - (size_t)(eq + 1 - p);
        if (vl >= sizeof val)
            return luaL_error(L, "arguments: the value of %s is too long", a->name);
        snprintf(val, sizeof val, "%.*s", (int)vl, eq + 1);
        lua_getfield(L, 1, a->name);
        int d = lua_gettop(L);
        if (arg_read(L, a, val))
            return luaL_error(L, "arguments: %s=%s: expected %s", a->name, val, a->expect);
        const char *why = arg_fits(L, d, a);
        if (why)
            return luaL_error(L, "arguments: %s=%s: %s (expected %s)", a->name, val, why,
                              a->expect);
        lua_pushvalue(L, -1);
        lua_setfield(L, 2, a->name);
        free(a->value);
        a->value = NULL;
        a->value = lua_strdup_or_error(L, luaL_tolstring(L, -1, NULL));
        lua_settop(L, 2);
        p += len;
        p += *p == ',';
    }
    lua_pushvalue(L, 2);
    sc->args_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 1;
}

/* The script's argument values (a table: empty when it declares none). */
static void push_args(lua_State *L, const Script *sc)
{
    if (sc->args_ref == LUA_NOREF)
        lua_newtable(L);
    else
        lua_rawgeti(L, LUA_REGISTRYINDEX, sc->args_ref);
}

int house_nargs(const House *h, int i) { return h->s[i].nargs < 0 ? 0 : h->s[i].nargs; }
const HouseArg *house_arg(const House *h, int i, int k) { return &h->s[i].args[k]; }

/* ---- rule{ruleset = ...}: a rule set from parts (issue 24) -------------- */

/* The keys of the rule-set text (docs/FAIRY.md), in the order the text is
 * written: the same script gives the same text.  `pieces` is the list of
 * `piece` lines. */
static const char *const RULESET_KEYS[] = {
    "name", "board", "start", "pieces", "nopiece", "royal", "check", "castling",
    "double_step", "en_passant", "promotion", "promotion_ranks", "promotion_limit",
    "hands", "pawn_drop_ranks", "captures", "explode_immune", "forced_capture",
    "give_check", "checks", "goal", "goal_reply", "stalemate", "no_pieces",
    "bare_royal", "draws", NULL};

/* A value of the text: one line, none of the text's own marks (a line end
 * would start another setting, `#` a comment). */
static void ruleset_word(lua_State *L, int idx, const char *key)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    char why[80];
    if (text_check(s, len, 0, why, sizeof why))
        luaL_error(L, "rule: ruleset.%s: %s (a value is one line of text)", key, why);
    if (memchr(s, '#', len))
        luaL_error(L, "rule: ruleset.%s: '#' starts a comment in a rule set: a value "
                      "cannot hold it", key);
    if (!len || strspn(s, " \t") == len)
        luaL_error(L, "rule: ruleset.%s: the value is empty", key);
}

/* One `piece` line, "L name betza [value]"; a value goes to the value
 * table (value.L), so material and the bots count the piece. */
static void ruleset_piece(lua_State *L, House *h, Script *sc, int idx, int i, StrBuf *out)
{
    char key[32], letter = 0;
    snprintf(key, sizeof key, "pieces[%d]", i);
    long value = -1;
    if (lua_type(L, idx) == LUA_TSTRING) {
        ruleset_word(L, idx, key);
        const char *s = lua_tostring(L, idx), *t[5];
        size_t n[5];
        int k = 0;
        for (const char *p = s; *p && k < 5;) {
            p += strspn(p, " \t");
            if (!*p)
                break;
            t[k] = p;
            n[k] = strcspn(p, " \t");
            p += n[k++];
        }
        if (k < 3 || k > 4)
            luaL_error(L, "rule: ruleset.%s: expected \"LETTER name betza [value]\" "
                          "(\"A archbishop BN 8\"), got \"%s\"", key, s);
        if (n[0] != 1 || t[0][0] < 'A' || t[0][0] > 'Z')
            luaL_error(L, "rule: ruleset.%s: a piece's letter is one upper-case letter "
                          "A..Z, not \"%s\"", key, lua_pushlstring(L, t[0], n[0]));
        letter = t[0][0];
        if (k == 4) {
            char num[16];
            char *end;
            snprintf(num, sizeof num, "%.*s", (int)(n[3] < 15 ? n[3] : 15), t[3]);
            value = strtol(num, &end, 10);
            if (n[3] > 4 || *end || end == num || value < 0 || value > 1000)
                luaL_error(L, "rule: ruleset.%s: the value \"%s\" is not a whole "
                              "number from 0 to 1000", key, lua_pushlstring(L, t[3], n[3]));
        }
        sb_printf(out, "piece = %s\n", s);
    } else if (lua_type(L, idx) == LUA_TTABLE) {
        static const char *const F[] = {"letter", "name", "betza", "value"};
        const char *v[3];
        lua_pushnil(L);
        while (lua_next(L, idx)) {
            int known = 0;
            for (int f = 0; f < 4; f++)
                known |= lua_type(L, -2) == LUA_TSTRING && !strcmp(lua_tostring(L, -2), F[f]);
            if (!known)
                luaL_error(L, "rule: ruleset.%s: unknown field '%s' (the fields are letter, "
                              "name, betza, value)", key,
                           lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
            lua_pop(L, 1);
        }
        for (int f = 0; f < 3; f++) {
            char fk[48];
            snprintf(fk, sizeof fk, "%s.%s", key, F[f]);
            if (lua_getfield(L, idx, F[f]) != LUA_TSTRING)
                luaL_error(L, "rule: ruleset.%s: expected a string (%s), got a %s", fk,
                           f == 0 ? "one upper-case letter, \"A\"" : f == 1
                           ? "one word, \"archbishop\"" : "Betza notation, \"BN\"",
                           luaL_typename(L, -1));
            ruleset_word(L, -1, fk);
            v[f] = lua_tostring(L, -1);
            if (strpbrk(v[f], " \t"))
                luaL_error(L, "rule: ruleset.%s: one word without spaces, not \"%s\"", fk,
                           v[f]);
        }
        if (strlen(v[0]) != 1 || v[0][0] < 'A' || v[0][0] > 'Z')
            luaL_error(L, "rule: ruleset.%s.letter: a piece's letter is one upper-case "
                          "letter A..Z, not \"%s\"", key, v[0]);
        letter = v[0][0];
        if (lua_getfield(L, idx, "value") != LUA_TNIL) {
            if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0 ||
                lua_tointeger(L, -1) > 1000)
                luaL_error(L, "rule: ruleset.%s.value: expected a whole number from 0 to "
                              "1000, got %s", key, lua_isinteger(L, -1) ? "one out of range"
                              : luaL_typename(L, -1));
            value = (long)lua_tointeger(L, -1);
        }
        sb_printf(out, "piece = %s %s %s", v[0], v[1], v[2]);
        if (value >= 0)
            sb_printf(out, " %ld", value);
        sb_putc(out, '\n');
        lua_pop(L, 4);
    } else {
        luaL_error(L, "rule: ruleset.%s: expected a string \"LETTER name betza [value]\" "
                      "or a table {letter=, name=, betza=, value=}, got a %s", key,
                   luaL_typename(L, idx));
    }
    if (value >= 0 && letter != 'K') { /* a King has no value (value.K is refused) */
        char text[32];
        snprintf(text, sizeof text, "value.%c=%ld", letter, value);
        add_assign(L, h, sc, text);
    }
}

/* The text of ruleset table t, in RULESET_KEYS' order, into out. */
static void ruleset_text(lua_State *L, House *h, Script *sc, int t, StrBuf *out)
{
    lua_pushnil(L);
    while (lua_next(L, t)) {
        int known = 0;
        for (int i = 0; lua_type(L, -2) == LUA_TSTRING && RULESET_KEYS[i]; i++)
            known |= !strcmp(lua_tostring(L, -2), RULESET_KEYS[i]);
        if (!known) {
            StrBuf b = STRBUF_INIT;
            for (int i = 0; RULESET_KEYS[i]; i++)
                sb_printf(&b, "%s%s", i ? ", " : "", RULESET_KEYS[i]);
            lua_pushstring(L, sb_str(&b));
            sb_free(&b);
            luaL_error(L, "rule: ruleset: unknown key '%s' (the keys are %s)",
                       lua_type(L, -3) == LUA_TSTRING ? lua_tostring(L, -3) : "?",
                       lua_tostring(L, -1));
        }
        lua_pop(L, 1);
    }
    for (int i = 0; RULESET_KEYS[i]; i++) {
        const char *key = RULESET_KEYS[i];
        int ty = lua_getfield(L, t, key);
        if (ty == LUA_TNIL) {
        } else if (!strcmp(key, "pieces")) {
            if (ty != LUA_TTABLE)
                luaL_error(L, "rule: ruleset.pieces: expected a list of pieces (\"A "
                              "archbishop BN 8\" or {letter=, name=, betza=, value=}), got "
                              "a %s", luaL_typename(L, -1));
            int p = lua_gettop(L);
            lua_Integer n = (lua_Integer)lua_rawlen(L, p);
            if (n > 64)
                luaL_error(L, "rule: ruleset.pieces: %d pieces, at most 64", (int)n);
            for (lua_Integer k = 1; k <= n; k++) {
                lua_rawgeti(L, p, k);
                ruleset_piece(L, h, sc, lua_gettop(L), (int)k, out);
                lua_settop(L, p);
            }
        } else if (ty == LUA_TBOOLEAN) {
            sb_printf(out, "%s = %s\n", key, lua_toboolean(L, -1) ? "yes" : "no");
        } else if (ty == LUA_TNUMBER && lua_isinteger(L, -1)) {
            sb_printf(out, "%s = %lld\n", key, (long long)lua_tointeger(L, -1));
        } else if (ty == LUA_TSTRING) {
            ruleset_word(L, -1, key);
            sb_printf(out, "%s = %s\n", key, lua_tostring(L, -1));
        } else {
            luaL_error(L, "rule: ruleset.%s: expected a string, an integer or a boolean "
                          "(yes/no), got a %s", key, ty == LUA_TNUMBER ? "number with a "
                          "fraction" : luaL_typename(L, -1));
        }
        lua_settop(L, t);
    }
}

/* rule{ruleset = {...}}: the rule set from parts this script describes
 * (or a function of its arguments returning one), turned into the text
 * the variant's prepare reads (GameHooks.ruleset).  One script of a game
 * may give it; a variant without prepare takes none; the variant's own
 * reading of the text is tried now, so its error names the script. */
static void rule_ruleset(lua_State *L, House *h, Script *sc, int t)
{
    if (h->ruleset_script >= 0)
        luaL_error(L, "rule: ruleset: %s gives the rule set already (one script of a game "
                      "may give it: %s and %s both do)", h->s[h->ruleset_script].name,
                   h->s[h->ruleset_script].name, sc->name);
    if (h->v->version < 9 || !h->v->prepare)
        luaL_error(L, "rule: ruleset: %s takes no rule set (board, pieces, hands): only a "
                      "variant from parts does (fairy)", h->v->name);
    if (lua_type(L, t) == LUA_TFUNCTION) {
        lua_pushvalue(L, t);
        push_args(L, sc);
        lua_call(L, 1, 1);
        if (lua_type(L, -1) != LUA_TTABLE)
            luaL_error(L, "rule: ruleset: the function returned a %s, not a table",
                       luaL_typename(L, -1));
        t = lua_gettop(L);
    } else if (lua_type(L, t) != LUA_TTABLE) {
        luaL_error(L, "rule: ruleset: expected a table of the rule set's keys (or a "
                      "function of the script's arguments returning one), got a %s",
                   luaL_typename(L, t));
    }
    StrBuf *text = &h->rs_text;
    sb_reset(text);
    ruleset_text(L, h, sc, t, text);
    if (text->failed)
        luaL_error(L, "out of memory");
    Error e = {""};
    void *data = h->v->prepare(sb_str(text), &e);
    if (!data)
        luaL_error(L, "rule: ruleset: %s", e.msg);
    if (h->v->unprepare)
        h->v->unprepare(data);
    h->ruleset = cv_strdup(sb_str(text));
    sb_free(text);
    if (!h->ruleset)
        luaL_error(L, "out of memory");
    h->ruleset_script = (int)(sc - h->s);
}

static void rule_type(lua_State *L, int idx, const char *field, int want)
{
    if (lua_type(L, idx) != want)
        luaL_error(L, "rule: %s: expected a %s, got a %s", field, lua_typename(L, want),
                   luaL_typename(L, idx));
}

/* rule{} field `field` (a string at idx) is shown on screens and in
 * files (a setup position is quoted by the position's messages): refused
 * unless it is UTF-8 text without control characters (issue 20 point 5;
 * a description is one paragraph, wrapped where shown). */
static void rule_text(lua_State *L, int idx, const char *field)
{
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    char why[80];
    if (text_check(s, len, 0, why, sizeof why))
        luaL_error(L, "rule: %s: %s (a %s is one line of UTF-8 text)", field, why, field);
}

/* The fields of rule{...} (house_rule_field names them, issue 23). */
static const char *const RULE_KEYS[] = {"name",   "description", "variants", "params",
                                        "values", "setup",       "veto",     "react",
                                        "start",  "changes",     "ruleset",  "turn",
                                        NULL};

const char *house_rule_field(int i)
{
    return i >= 0 && i < (int)ARRAY_LEN(RULE_KEYS) ? RULE_KEYS[i] : NULL;
}

static int house_rule(lua_State *L)
{
    House *h = lua_touserdata(L, lua_upvalueindex(1));
    if (h->hook != HOOK_LOAD)
        return luaL_error(L, "rule{} may only be called while the script loads");
    Script *sc = &h->s[h->cur];
    if (sc->ruled)
        return luaL_error(L, "rule{} is called a second time (a script calls it once)");
    sc->ruled = 1;
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        int known = 0;
        if (lua_type(L, -2) == LUA_TSTRING)
            for (int i = 0; RULE_KEYS[i]; i++)
                known |= !strcmp(lua_tostring(L, -2), RULE_KEYS[i]);
        if (!known)
            return luaL_error(L, "rule: unknown field '%s' (the fields are name, "
                              "description, variants, params, values, setup, veto, react, "
                              "start, changes, ruleset, turn)",
                              lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
        lua_pop(L, 1);
    }
    if (lua_getfield(L, 1, "name") != LUA_TSTRING)
        return luaL_error(L, "rule: name: expected a string (a short title), got a %s",
                          luaL_typename(L, -1));
    rule_text(L, -1, "name");
    sc->title = lua_strdup_or_error(L, lua_tostring(L, -1));
    if (lua_getfield(L, 1, "description") != LUA_TNIL) {
        rule_type(L, -1, "description", LUA_TSTRING);
        rule_text(L, -1, "description");
        sc->desc = lua_strdup_or_error(L, lua_tostring(L, -1));
    }
    if (lua_getfield(L, 1, "variants") != LUA_TNIL)
        rule_variants(L, h, lua_gettop(L));
    if (lua_getfield(L, 1, "params") != LUA_TNIL)
        rule_params(L, h, sc, lua_gettop(L));
    if (lua_getfield(L, 1, "ruleset") != LUA_TNIL)
        rule_ruleset(L, h, sc, lua_gettop(L));
    if (lua_getfield(L, 1, "values") != LUA_TNIL)
        rule_values(L, h, sc, lua_gettop(L));
    int ty = lua_getfield(L, 1, "setup");
    if (ty == LUA_TSTRING) {
        rule_text(L, -1, "setup");
        sc->setup_text = lua_strdup_or_error(L, lua_tostring(L, -1));
    } else if (ty == LUA_TFUNCTION) {
        sc->setup_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pushnil(L);
    } else if (ty != LUA_TNIL) {
        return luaL_error(L, "rule: setup: expected a position string or a function, "
                          "got a %s", luaL_typename(L, -1));
    }
    if (lua_getfield(L, 1, "veto") != LUA_TNIL) {
        rule_type(L, -1, "veto", LUA_TFUNCTION);
        sc->veto_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pushnil(L);
    }
    if (lua_getfield(L, 1, "react") != LUA_TNIL) {
        rule_type(L, -1, "react", LUA_TFUNCTION);
        sc->react_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pushnil(L);
    }
    if (lua_getfield(L, 1, "start") != LUA_TNIL) {
        rule_type(L, -1, "start", LUA_TFUNCTION);
        sc->start_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pushnil(L);
    }
    if (lua_getfield(L, 1, "turn") != LUA_TNIL) {
        rule_type(L, -1, "turn", LUA_TFUNCTION);
        sc->turn_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        lua_pushnil(L);
        h->turn_script = h->cur; /* the last script with a turn stands */
    }
    if (lua_getfield(L, 1, "changes") != LUA_TNIL)
        rule_changes(L, sc, lua_gettop(L));
    return 0;
}

/* ---- Loading ------------------------------------------------------------ */

static int load_libs(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table},   {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},   {LUA_COLIBNAME, luaopen_coroutine},
        {NULL, NULL}};
    for (const luaL_Reg *l = libs; l->name; l++) {
        luaL_requiref(L, l->name, l->func, 0);
        lua_pop(L, 1);
    }
    sandbox_strings(L);
    House *h = lua_house(L);
    lua_newtable(L); /* where each coroutine was made: weak keys, unseen by scripts */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    h->born_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_newtable(L);
    h->frozen_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

typedef struct LoadArg {
    House *h;
    const HouseSource *src;
} LoadArg;

static int load_script(lua_State *L)
{
    LoadArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    Script *sc = &h->s[h->cur];
    sandbox_env(L, h);
    lua_pushfstring(L, "=%s", sc->name);
    if (luaL_loadbufferx(L, a->src->text, a->src->len, lua_tostring(L, -1), "t"))
        return lua_error(L);
    lua_pushvalue(L, -3);
    if (!lua_setupvalue(L, -2, 1))
        lua_pop(L, 1);
    lua_call(L, 0, 0);
    if (!sc->ruled)
        return luaL_error(L, "%s: the script never calls rule{...}", sc->name);
    if (sc->given && sc->nargs < 0)
        return luaL_error(L, "the script takes no arguments (it declares none with "
                          "arguments{...}), but is given %s", sc->given);
    return 0;
}

static int load_one(House *h, const HouseSource *src, int i)
{
    Script *sc = &h->s[i];
    sc->setup_ref = sc->veto_ref = sc->react_ref = sc->start_ref = LUA_NOREF;
    sc->turn_ref = LUA_NOREF;
    sc->game_ref = sc->action_ref = sc->ups_ref = sc->args_ref = LUA_NOREF;
    sc->nargs = -1;
    const char *nm = src->name ? src->name : "(script)";
    const char *given = house_script_args(nm);
    sc->name = cv_strdup(nm);
    if (sc->name && given) {
        sc->name[given - 1 - nm] = '\0'; /* the file's name; the arguments apart */
        if (!(sc->given = cv_strdup(given))) {
            free(sc->name);
            sc->name = NULL;
        }
    }
    if (!sc->name) {
        str_copy(h->err, sizeof h->err, "out of memory");
        return -1;
    }
    h->n = i + 1;
    LoadArg a = {h, src};
    return house_run(h, HOOK_LOAD, i, load_script, &a);
}

/* Keep copies of the sources: a game's record carries them. */
static int sources_copy(House *h, const HouseSource *src, int n)
{
    if (n <= 0)
        return 0;
    if (!(h->srcs = cv_calloc(sizeof *h->srcs * (size_t)n)))
        return -1;
    for (; h->nsrcs < n; h->nsrcs++) {
        GameScript *d = &h->srcs[h->nsrcs];
        char *t = cv_calloc(src[h->nsrcs].len + 1);
        d->text = t;
        d->len = src[h->nsrcs].len;
        d->name = cv_strdup(src[h->nsrcs].name);
        if (!t || !d->name) {
            h->nsrcs++;
            return -1;
        }
        memcpy(t, src[h->nsrcs].text, d->len);
    }
    return 0;
}

House *house_load(const VariantOps *v, int nsides, const HouseSource *src, int n,
                  const HouseLimits *lim, Error *e)
{
    House *h = cv_calloc(sizeof *h);
    Script *s = n > 0 ? cv_calloc(sizeof *s * (size_t)n) : NULL;
    View *views = cv_calloc(sizeof *views * 2);
    if (!h || (n > 0 && !s) || !views) {
        free(h);
        free(s);
        free(views);
        err_set(e, "out of memory");
        return NULL;
    }
    h->refs = 1;
    h->vetoer = -1;
    h->ruleset_script = -1;
    h->turn_script = -1;
    h->v = v;
    h->nsides = nsides ? nsides : v->default_sides;
    h->s = s;
    if (sources_copy(h, src, n)) {
        err_set(e, "out of memory");
        house_free(h);
        return NULL;
    }
    h->view = views;
    h->oview = views + 1;
    for (int i = 0; i < n; i++) { /* a name is shown in every message */
        char why[80];
        const char *nm = src[i].name ? src[i].name : "";
        if (text_check(nm, strlen(nm), 0, why, sizeof why)) {
            err_set(e, "house rule %d: its name (the file's) has %s", i + 1, why);
            house_free(h);
            return NULL;
        }
    }
    h->budget = lim && lim->instructions > 0 ? lim->instructions : HOUSE_DEFAULT_INSTRUCTIONS;
    h->cap = lim && lim->memory > 0 ? lim->memory : HOUSE_DEFAULT_MEMORY;
    h->call_ms = lim && lim->ms > 0 ? lim->ms : house_default_ms;
    h->game_ms = lim && lim->game_ms > 0 ? lim->game_ms : house_default_game_ms;
    snprintf(h->game_limit, sizeof h->game_limit, "the game's total time budget for "
             "house-rule hooks (%ld %s) is exceeded", h->game_ms % 1000 ? h->game_ms
             : h->game_ms / 1000, h->game_ms % 1000 ? "ms" : "s");
    h->ids_ref = h->born_ref = h->frozen_ref = h->mts_ref = LUA_NOREF;
    h->messages = lim && lim->messages > 0 ? lim->messages : HOUSE_GAME_MESSAGES;
    params_defaults(v, &h->scratch);
    sb_init(&h->log);
    sb_init(&h->tmp);
    sb_init(&h->rs_text);
    h->strs_ref = h->pieces_ref = LUA_NOREF;
    h->L = lua_newstate(house_alloc, h);
    if (!h->L) {
        err_set(e, "out of memory (the memory cap is too small for Lua)");
        house_free(h);
        return NULL;
    }
    if (house_run(h, HOOK_LOAD, -1, load_libs, NULL)) {
        err_set(e, "%s", h->err);
        house_free(h);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (load_one(h, &src[i], i)) {
            err_set(e, "%s", h->err);
            house_free(h);
            return NULL;
        }
    }
    for (int i = 0; i < n; i++) { /* issue 20 point 4: what they made is frozen */
        if (house_run(h, HOOK_LOAD, i, freeze_script, h)) {
            err_set(e, "%s", h->err);
            house_free(h);
            return NULL;
        }
    }
    h->has_err = 0;
    return h;
}

void house_free(House *h)
{
    if (!h || --h->refs > 0)
        return;
    for (int i = 0; i < h->nsrcs; i++) {
        free((char *)h->srcs[i].name);
        free((char *)h->srcs[i].text);
    }
    free(h->srcs);
    if (h->L) {
        h->hook = HOOK_CLOSE;
        h->spent = 0;
        h->exceeded = 0;
        h->deadline.tv_sec = 0;
        h->deadline_due = 0;
        lua_close(h->L);
    }
    for (int i = 0; i < h->n; i++) {
        Script *sc = &h->s[i];
        free(sc->name);
        free(sc->title);
        free(sc->desc);
        free(sc->setup_text);
        for (int k = 0; k < sc->nassigns; k++)
            free(sc->assigns[k]);
        free(sc->assigns);
        free(sc->upn);
        for (int k = 0; k < sc->nchanges; k++) {
            free(sc->changes[k].what);
            free(sc->changes[k].rules);
        }
        free(sc->changes);
        free(sc->given);
        for (int k = 0; k < sc->nargs; k++) {
            free(sc->args[k].name);
            free(sc->args[k].doc);
            free(sc->args[k].expect);
            free(sc->args[k].def);
            free(sc->args[k].value);
        }
        free(sc->args);
    }
    free(h->s);
    free(h->ruleset);
    sb_free(&h->rs_text);
    al_free(&h->al);
    free(h->turned);
    free(h->view);
    free(h->truth_blob);
    sb_free(&h->log);
    sb_free(&h->tmp);
    free(h);
}

int house_params(House *h, Params *p, Error *e)
{
    Params q = *p;
    for (int i = 0; i < h->n; i++)
        for (int k = 0; k < h->s[i].nassigns; k++)
            if (params_set(h->v, &q, h->s[i].assigns[k], e)) {
                err_prefix(e, "house rule %s", h->s[i].name);
                return -1;
            }
    *p = q;
    return 0;
}

/* ---- The hooks ---------------------------------------------------------- */

/* What turn(game, t) is asked (issue 25, TURN-1): t's fields. */
typedef struct TurnAsk {
    int side, number, made, capture, check;
} TurnAsk;

typedef struct HookArg {
    House *h;
    int script;
    const Action *a;
    StrBuf *out;       /* setup */
    int forbid;        /* veto */
    char *why;
    size_t n;
    const TurnAsk *ask; /* turn: the question, and the answer */
    int moves, duck;
} HookArg;

/* Push this script's game object (made at the first call with a game). */
static void push_game(lua_State *L, House *h, int script)
{
    if (h->s[script].game_ref == LUA_NOREF)
        fill_game_objects(L, h, h->g);
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[script].game_ref);
}

/* action.NAME, computed when read from the action of the call in
 * progress (issue 20 point 7: a call that reads no field pays for none).
 * Fields: kind, seat, from, to, figure, text; nil outside a call. */
static int action_index(lua_State *L)
{
    House *h = lua_touserdata(L, lua_upvalueindex(1));
    h->st = h->call_st; /* the action's position, not one game:after made */
    h->after_plies = 0;
    size_t len;
    const char *key = lua_tolstring(L, 2, &len);
    if (!key || !h->act || !h->g)
        return 0;
    const Action *a = h->act;
    int from = 0, to = 0;
    switch (a->kind) {
    case ACT_MOVE: case ACT_CHOOSE: from = to = 1; break;
    case ACT_PLACE: case ACT_ANNOUNCE: to = 1; break;
    case ACT_REVEAL: from = 1; to = !coord_eq(a->from, a->to); break;
    default: break;
    }
    if (strcmp(key, "kind") == 0) {
        if (STR_KIND + a->kind < STR_CELL) {
            push_strs(L, h);
            lua_rawgeti(L, -1, STR_KIND + a->kind);
        } else {
            lua_pushstring(L, action_kind_name(a->kind));
        }
    } else if (strcmp(key, "seat") == 0) {
        lua_pushstring(L, game_seat_name(h->g, a->seat));
    } else if (strcmp(key, "from") == 0 || strcmp(key, "to") == 0) {
        Geometry geo = house_geo(h);
        push_strs(L, h);
        if (key[0] == 'f' ? from : to)
            push_square_cached(L, lua_gettop(L), &geo, key[0] == 'f' ? a->from : a->to);
        else
            lua_pushnil(L);
    } else if (strcmp(key, "figure") == 0) {
        if (a->figure != FIG_NONE && a->figure != FIG_HIDDEN && figure_letter(a->figure)) {
            char fig[2] = {figure_letter(a->figure), 0};
            lua_pushstring(L, fig);
        } else {
            lua_pushnil(L);
        }
    } else if (strcmp(key, "text") == 0) {
        sb_reset(&h->tmp);
        if (!action_is_meta(a->kind))
            h->v->format(h->g, h->st, a, FMT_MACHINE, &h->tmp);
        else
            sb_puts(&h->tmp, action_kind_name(a->kind));
        if (sb_failed(&h->tmp))
            return luaL_error(L, "out of memory");
        lua_pushstring(L, sb_str(&h->tmp));
    } else {
        return 0;
    }
    return 1;
}

static int action_newindex(lua_State *L)
{
    return luaL_error(L, "the action is read-only: a house rule keeps no state between "
                      "calls (keep it in the game with game:set, or derive it from "
                      "game:history())");
}

/* The action of the call: one empty table per script whose fields
 * action_index computes from h->act. */
static void push_action(lua_State *L, House *h, int script, const Action *a)
{
    (void)a; /* h->act: the caller sets it */
    Script *sc = &h->s[script];
    if (sc->action_ref == LUA_NOREF) {
        lua_createtable(L, 0, 0);
        lua_createtable(L, 0, 1);
        lua_pushlightuserdata(L, h);
        lua_pushcclosure(L, action_index, 1);
        lua_setfield(L, -2, "__index");
        lua_pushlightuserdata(L, h);
        lua_pushcclosure(L, action_newindex, 1);
        lua_setfield(L, -2, "__newindex");
        lua_pushboolean(L, 1);
        lua_rawsetp(L, -2, HOUSE_RO);
        lua_pushliteral(L, "locked");
        lua_setfield(L, -2, "__metatable");
        lua_setmetatable(L, -2);
        sc->action_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, sc->action_ref);
}

/* The position of a function for messages: "name:line". */
static void where_defined(lua_State *L, int idx, char *buf, size_t n)
{
    lua_Debug ar;
    lua_pushvalue(L, idx);
    lua_getinfo(L, ">S", &ar);
    snprintf(buf, n, "%s:%d", ar.short_src, ar.linedefined);
}

static int call_setup(lua_State *L)
{
    HookArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].setup_ref);
    char at[128];
    where_defined(L, -1, at, sizeof at);
    push_game(L, h, a->script);
    lua_call(L, 1, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
        return luaL_error(L, "%s: setup returned a %s (expected a position string)", at,
                          luaL_typename(L, -1));
    size_t len;
    const char *pos = lua_tolstring(L, -1, &len);
    char why[80];
    if (text_check(pos, len, 0, why, sizeof why))
        return luaL_error(L, "%s: the position setup returned has %s (a position is one "
                          "line of UTF-8 text)", at, why);
    sb_puts(a->out, pos);
    return 0;
}

static void house_enter(House *h, Game *mg, const Game *g, const void *st, Rng *rng)
{
    h->mg = mg;
    h->g = g;
    h->st = h->call_st = st;
    h->after_plies = 0;
    h->rng = rng;
    h->vrng_ready = 0;
}

static void house_leave(House *h)
{
    h->mg = NULL;
    h->g = NULL;
    h->st = h->call_st = NULL;
    h->act = NULL;
    h->rng = NULL;
}

int house_setup_script(const House *h)
{
    int last = -1;
    for (int i = 0; i < h->n; i++)
        if (h->s[i].setup_text || h->s[i].setup_ref != LUA_NOREF)
            last = i;
    return last;
}

/* The position a setup gave, read as the game will read it: a refused one
 * is the script's error, named (issue 20 point 8). */
static int setup_check(House *h, Game *g, int script, const StrBuf *out, Error *e)
{
    if (sb_failed(out))
        return 0; /* the core says: out of memory */
    void *st = cv_calloc(h->v->state_size);
    if (!st)
        return err_set(e, "out of memory");
    Error pe = {""};
    int rc = h->v->init(g, st, sb_str(out), &pe);
    free(st);
    if (rc)
        err_set(e, "house rule %s, setup: the position it gives is refused: %s",
                h->s[script].name, pe.msg);
    return rc ? -1 : 0;
}

static int hook_setup(void *ud, Game *g, StrBuf *out, Error *e)
{
    House *h = ud;
    int last = house_setup_script(h);
    if (last < 0)
        return err_set(e, "no house rule sets up the game");
    if (h->s[last].setup_text) {
        sb_puts(out, h->s[last].setup_text);
        return setup_check(h, g, last, out, e);
    }
    house_enter(h, g, g, game_state(g), game_rng(g));
    HookArg a = {.h = h, .script = last, .out = out};
    int rc = house_run(h, HOOK_SETUP, last, call_setup, &a);
    house_leave(h);
    if (rc)
        return err_set(e, "%s", h->err);
    return setup_check(h, g, last, out, e);
}

static int call_veto(lua_State *L)
{
    HookArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].veto_ref);
    push_game(L, h, a->script);
    push_action(L, h, a->script, a->a);
    lua_call(L, 2, 1);
    int ty = lua_type(L, -1);
    if (ty == LUA_TNIL || (ty == LUA_TBOOLEAN && !lua_toboolean(L, -1)))
        return 0;
    if (ty != LUA_TSTRING) {
        char at[128];
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].veto_ref);
        where_defined(L, -1, at, sizeof at);
        return luaL_error(L, "%s: veto returned a %s (expected nil, false or a reason "
                          "string)", at, luaL_typename(L, -2));
    }
    size_t len;
    const char *reason = lua_tolstring(L, -1, &len);
    char why[80];
    if (text_check(reason, len, 0, why, sizeof why)) {
        char at[128];
        lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].veto_ref);
        where_defined(L, -1, at, sizeof at);
        return luaL_error(L, "%s: the veto reason has %s (a reason is one line of UTF-8 "
                          "text)", at, why);
    }
    a->forbid = 1;
    str_copy(a->why, a->n, reason);
    return 0;
}

static int hook_veto(void *ud, const Game *g, const void *st, int ply, const Action *act,
                     char *why, size_t n)
{
    House *h = ud;
    for (int i = 0; i < h->n; i++) {
        if (h->s[i].veto_ref == LUA_NOREF)
            continue;
        house_enter(h, NULL, g, st, &h->vrng);
        h->act = act;
        h->ply = ply;
        HookArg a = {.h = h, .script = i, .a = act, .why = why, .n = n};
        int rc = house_run(h, HOOK_VETO, i, call_veto, &a);
        house_leave(h);
        if (rc) { /* a failing veto is an error, never a verdict */
            str_copy(why, n, h->err);
            return -1;
        }
        if (a.forbid) {
            h->vetoer = i;
            return 1;
        }
    }
    return 0;
}

/* GameHooks.veto_script (issue 22, `why`). */
static const char *hook_veto_script(void *ud)
{
    House *h = ud;
    return h->vetoer >= 0 && h->vetoer < h->n ? h->s[h->vetoer].name : NULL;
}

/* ---- Schedules (issue 25, docs/HOUSE-RULES.md "8. Turns") ---------------
 * The script with `turn` (the last one) plans each turn; after every
 * action the house layer sees whether a move ended (the variant's side to
 * move is no longer the turn's side), counts it, asks turn() again and
 * gives the turn back to its side (EDIT_TURN) while moves remain, asks for
 * the duck, or begins the next turn.  What it keeps is the game's
 * (game_turn_set), so copies, refusals, undo and perft follow it. */

/* What turn() returned, at the top of the stack: an integer 1..64, or
 * {moves = n, duck = bool}.  Anything else is the script's error, naming
 * where the function is and what it returned. */
static int turn_answer(lua_State *L, HookArg *a)
{
    House *h = a->h;
    int ok = 0, ret = lua_gettop(L);
    lua_Integer n = 0;
    a->duck = 0;
    if (lua_type(L, ret) == LUA_TNUMBER) {
        ok = lua_isinteger(L, ret);
        n = lua_tointeger(L, ret);
    } else if (lua_type(L, ret) == LUA_TTABLE) {
        int ty = lua_getfield(L, ret, "moves");
        ok = ty == LUA_TNUMBER && lua_isinteger(L, -1);
        n = lua_tointeger(L, -1);
        ty = lua_getfield(L, ret, "duck");
        if (ty == LUA_TBOOLEAN)
            a->duck = lua_toboolean(L, -1);
        else if (ty != LUA_TNIL)
            ok = 0;
        lua_settop(L, ret);
    }
    if (ok && n >= 1 && n <= HOUSE_TURN_MAX) {
        a->moves = (int)n;
        return 0;
    }
    char at[128], what[96];
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].turn_ref);
    where_defined(L, -1, at, sizeof at);
    lua_pop(L, 1);
    if (lua_type(L, ret) == LUA_TNUMBER)
        snprintf(what, sizeof what, "%s", lua_tostring(L, ret));
    else if (lua_type(L, ret) == LUA_TTABLE)
        snprintf(what, sizeof what, "a table without moves = 1..%d (and duck a boolean "
                 "or nil)", HOUSE_TURN_MAX);
    else
        snprintf(what, sizeof what, "a %s", luaL_typename(L, ret));
    return luaL_error(L, "%s: turn returned %s (expected a number of moves from 1 to %d, "
                      "or {moves = n, duck = true})", at, what, HOUSE_TURN_MAX);
}

static int call_turn(lua_State *L)
{
    HookArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    const TurnAsk *q = a->ask;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].turn_ref);
    push_game(L, h, a->script);
    lua_createtable(L, 0, 5);
    lua_pushstring(L, game_side_name(h->g, q->side));
    lua_setfield(L, -2, "side");
    lua_pushinteger(L, q->number);
    lua_setfield(L, -2, "number");
    lua_pushinteger(L, q->made);
    lua_setfield(L, -2, "made");
    lua_pushboolean(L, q->capture);
    lua_setfield(L, -2, "capture");
    lua_pushboolean(L, q->check);
    lua_setfield(L, -2, "check");
    lua_call(L, 2, 1);
    return turn_answer(L, a);
}

/* Ask turn(game, t): 0 with *moves (1..64) and *duck, or -1 with e (the
 * script's error, named: a failure of the hook, never a refusal). */
static int turn_ask(House *h, Game *g, const TurnAsk *q, int *moves, int *duck, Error *e)
{
    house_enter(h, g, g, game_state(g), game_rng(g));
    HookArg a = {.h = h, .script = h->turn_script, .ask = q};
    int rc = house_run(h, HOOK_TURN, h->turn_script, call_turn, &a);
    house_leave(h);
    if (rc)
        return err_set(e, "%s", h->err);
    *moves = a.moves;
    *duck = a.duck;
    return 0;
}

/* The pieces on the board now (a move that lowers it took a piece). */
static int turn_pieces(House *h, Game *g)
{
    house_enter(h, g, g, game_state(g), game_rng(g));
    house_truth(h);
    int n = h->view->npieces;
    house_leave(h);
    return n;
}

/* The count of pieces when the move under way began, kept in the game as
 * the house layer's own value (script -1: no script reads it). */
#define TURN_PIECES_KEY "turn_pieces"
static int turn_keep_pieces(Game *g, int n, Error *e)
{
    GameVar v;
    memset(&v, 0, sizeof v);
    v.type = GAME_VAR_INT;
    v.num = n;
    return game_var_set(g, -1, TURN_PIECES_KEY, &v, e);
}

/* Give the variant's turn to side (figure FIG_DUCK: the duck first).
 * 0; 1 when the variant refuses (its invariants: TURN-2); -1 with e for
 * anything else (memory). */
static int turn_give(Game *g, int side, int figure, Error *e)
{
    Edit ed;
    memset(&ed, 0, sizeof ed);
    ed.kind = EDIT_TURN;
    ed.side = side;
    ed.figure = figure;
    ed.at.x = ed.at.y = -1;
    if (game_edit(g, &ed, e) == 0)
        return 0;
    return strstr(e->msg, "out of memory") ? -1 : 1;
}

/* Begin turn number `number` for the variant's side to move (TURN-5),
 * planned by turn() with made = 0. */
static int turn_begin(House *h, Game *g, int number, int capture, Error *e)
{
    Status s;
    game_status(g, &s);
    GameTurn t = {game_side_to_move(g), number, 0, 0, 0};
    if (t.side < 0)
        return 0; /* nobody's turn: the variant says the game is over */
    TurnAsk q = {t.side, number, 0, capture, (int)((s.in_check >> t.side) & 1u)};
    int duck;
    if (turn_ask(h, g, &q, &t.moves, &duck, e))
        return -1;
    if (game_turn_set(g, &t, e))
        return -1;
    return 0;
}

/* TURN-1..TURN-5 after action act (the scripts' reactions done): 0, or -1
 * with e (the hook's failure). */
static int turn_after(House *h, Game *g, const Action *act, Error *e)
{
    GameTurn t = *game_turn(g);
    Status s;
    game_status(g, &s);
    if (s.over || action_is_meta(act->kind))
        return 0;
    int side = game_side_to_move(g), capture = 0;
    if (t.moves == 0) {
        /* nobody's turn on the start position (a setup phase): turn 1
         * begins once the variant names a side to move */
        if (side < 0)
            return 0;
        if (turn_keep_pieces(g, turn_pieces(h, g), e))
            return -1;
        return turn_begin(h, g, 1, 0, e);
    }
    int duck_placed = act->kind == ACT_PLACE && act->figure == FIG_DUCK;
    if (t.duck) {
        if (!duck_placed)
            return 0;
        /* TURN-4: the duck is down; the move it followed was counted */
        t.duck = 0;
        if (turn_keep_pieces(g, turn_pieces(h, g), e))
            return -1;
    } else {
        if (side == t.side || duck_placed)
            return 0; /* the move goes on (a naming waits for its choice) */
        const GameVar *was = game_var(g, -1, TURN_PIECES_KEY);
        int now = turn_pieces(h, g);
        capture = was && now < was->num;
        if (turn_keep_pieces(g, now, e))
            return -1;
        t.made++;
        TurnAsk q = {t.side, t.number, t.made, capture,
                     side >= 0 && ((s.in_check >> side) & 1u)};
        int duck;
        if (turn_ask(h, g, &q, &t.moves, &duck, e))
            return -1;
        if (t.moves < t.made)
            t.moves = t.made; /* an answer of made or less ends the turn */
        if (duck) {
            /* TURN-4: the mover places the duck before anything else */
            int r = turn_give(g, t.side, FIG_DUCK, e);
            if (r) {
                if (r > 0)
                    err_prefix(e, "house rule %s, turn: the duck", h->s[h->turn_script].name);
                return -1;
            }
            t.duck = 1;
            return game_turn_set(g, &t, e);
        }
    }
    if (t.made < t.moves) {
        /* TURN-2: the same side moves again, unless the variant refuses */
        int r = side == t.side ? 0 : turn_give(g, t.side, FIG_NONE, e);
        if (r < 0)
            return -1;
        if (r == 0)
            return game_turn_set(g, &t, e);
        t.moves = t.made;
    }
    /* TURN-5: the turn is over */
    if (side == t.side) {
        /* the variant left the turn with its side (after the duck): the
         * next side is given it */
        int r = turn_give(g, (t.side + 1) % game_nsides(g), FIG_NONE, e);
        if (r > 0)
            err_prefix(e, "house rule %s, turn: the next turn", h->s[h->turn_script].name);
        if (r)
            return -1;
    }
    return turn_begin(h, g, t.number + 1, capture, e);
}

static int call_react(lua_State *L)
{
    HookArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].react_ref);
    push_game(L, h, a->script);
    push_action(L, h, a->script, a->a);
    lua_call(L, 2, 0);
    return 0;
}

static int hook_react(void *ud, Game *g, const Action *act, Error *e)
{
    House *h = ud;
    for (int i = 0; i < h->n; i++) {
        if (h->s[i].react_ref == LUA_NOREF)
            continue;
        /* The action text is formatted in the new position (the history
         * keeps the old one's). */
        house_enter(h, g, g, game_state(g), game_rng(g));
        h->act = act;
        int rc;
        if (h->s[i].game_ref != LUA_NOREF && h->s[i].action_ref != LUA_NOREF) {
            /* the objects exist (nothing left to fail outside the call):
             * the script's function is called directly (issue 20 point 7) */
            lua_State *L = h->L;
            lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[i].react_ref);
            lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[i].game_ref);
            lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[i].action_ref);
            rc = house_call(h, HOOK_REACT, i, 2);
        } else {
            HookArg a = {.h = h, .script = i, .a = act};
            rc = house_run(h, HOOK_REACT, i, call_react, &a);
        }
        house_leave(h);
        if (rc) { /* refused on purpose, or broken */
            err_set(e, "%s", h->err);
            return h->refused ? -1 : -2;
        }
    }
    /* issue 25: the schedule follows the reactions (a failure of turn()
     * or of the turn's edits is the hook's) */
    if (h->turn_script >= 0 && turn_after(h, g, act, e))
        return -2;
    return 0;
}

static int call_start(lua_State *L)
{
    HookArg *a = lua_touserdata(L, 1);
    House *h = a->h;
    lua_rawgeti(L, LUA_REGISTRYINDEX, h->s[a->script].start_ref);
    push_game(L, h, a->script);
    lua_call(L, 1, 0);
    return 0;
}

/* Each script's start, in order, on the start position (issue 20 point 8:
 * a rule that would end the game there ends it). */
static int hook_start(void *ud, Game *g, Error *e)
{
    House *h = ud;
    for (int i = 0; i < h->n; i++) {
        if (h->s[i].start_ref == LUA_NOREF)
            continue;
        house_enter(h, g, g, game_state(g), game_rng(g));
        HookArg a = {.h = h, .script = i};
        int rc = house_run(h, HOOK_START, i, call_start, &a);
        house_leave(h);
        if (rc)
            return err_set(e, "%s", h->err);
    }
    /* issue 25: turn 1 is planned on the start position (TURN-1) */
    Status s;
    game_status(g, &s);
    if (h->turn_script >= 0 && !s.over) {
        Error ke;
        if (turn_keep_pieces(g, turn_pieces(h, g), &ke))
            return err_set(e, "house rule %s, turn: %s", h->s[h->turn_script].name,
                           ke.msg);
        if (turn_begin(h, g, 1, 0, e))
            return -1;
    }
    return 0;
}

static void hook_retain(void *ud)
{
    House *h = ud;
    h->refs++;
}

static void hook_release(void *ud) { house_free(ud); }

const GameScript *house_scripts(const House *h) { return h->srcs; }

House *house_of(const Game *g)
{
    GameHooks k = game_hooks(g);
    return k.release == hook_release ? k.ud : NULL;
}

GameHooks house_hooks(House *h)
{
    GameHooks k;
    memset(&k, 0, sizeof k);
    house_new_game(h);
    k.ud = h;
    int veto = 0, react = 0, setup = 0, start = h->turn_script >= 0;
    for (int i = 0; i < h->n; i++) {
        start |= h->s[i].start_ref != LUA_NOREF;
        veto |= h->s[i].veto_ref != LUA_NOREF;
        react |= h->s[i].react_ref != LUA_NOREF || h->s[i].turn_ref != LUA_NOREF;
        setup |= h->s[i].setup_text || h->s[i].setup_ref != LUA_NOREF;
    }
    if (setup)
        k.setup = hook_setup;
    if (veto) {
        k.veto = hook_veto;
        k.veto_script = hook_veto_script;
    }
    if (react)
        k.react = hook_react;
    if (start)
        k.start = hook_start;
    k.retain = hook_retain;
    k.release = hook_release;
    k.ruleset = h->ruleset;
    return k;
}

/* ---- Trying the hooks ------------------------------------------------- */

/* Where game c stands, for an error: the start, or the actions since. */
static void try_where(const Game *c, int from, uint64_t seed, StrBuf *out)
{
    if (game_history_len(c) == from) {
        sb_puts(out, "on the start position");
        return;
    }
    sb_printf(out, "in a random game, seed %llu, after", (unsigned long long)seed);
    for (int i = from; i < game_history_len(c); i++)
        sb_printf(out, " %s", game_history(c, i)->text);
}

/* Every seat's legal list of c (0, or -1: a hook failed); the seat to
 * act's play actions in *play. */
static int try_lists(const Game *c, ActionList *play)
{
    int to_act = game_to_act(c);
    for (int s = 0; s < game_nseats(c); s++) {
        ActionList l = ACTIONLIST_INIT;
        int rc = game_legal(c, s, &l);
        for (int i = 0; !rc && s == to_act && i < l.n; i++)
            if (!action_is_meta(l.v[i].kind))
                al_push(play, &l.v[i]);
        al_free(&l);
        if (rc)
            return -1;
    }
    return 0;
}

int house_try(const Game *g, int plies, uint64_t seed, Error *e)
{
    Game *c = game_clone(g);
    if (!c)
        return err_set(e, "out of memory");
    Rng rng;
    rng_seed(&rng, seed);
    int from = game_history_len(c), rc = 0;
    for (int ply = 0; ply <= plies && rc == 0; ply++) {
        ActionList play = ACTIONLIST_INIT;
        const char *fail = NULL;
        if (try_lists(c, &play))
            fail = game_hook_error(c);
        while (!fail && ply < plies && play.n > 0) { /* one action that applies */
            int k = (int)rng_below(&rng, (uint32_t)play.n);
            Error ae;
            if (game_apply(c, &play.v[k], &ae) == 0)
                break;
            if ((fail = game_hook_error(c)) != NULL)
                break;
            play.v[k] = play.v[--play.n]; /* refused: another one */
        }
        if (fail) {
            StrBuf where = STRBUF_INIT;
            try_where(c, from, seed, &where);
            rc = err_set(e, "%s (%s)", fail, sb_str(&where));
            sb_free(&where);
        } else if (play.failed) {
            rc = err_set(e, "out of memory");
        } else if (play.n == 0 || game_history_len(c) == from + ply) {
            ply = plies; /* the game is over, or nothing could be played */
        }
        al_free(&play);
    }
    game_free(c);
    return rc;
}

/* ---- Read access -------------------------------------------------------- */

int house_count(const House *h) { return h->n; }
const char *house_name(const House *h, int i) { return h->s[i].name; }
const char *house_title(const House *h, int i)
{
    return h->s[i].title ? h->s[i].title : "";
}
const char *house_description(const House *h, int i)
{
    return h->s[i].desc ? h->s[i].desc : "";
}
int house_nchanges(const House *h, int i) { return h->s[i].nchanges; }
const HouseChange *house_change(const House *h, int i, int k) { return &h->s[i].changes[k]; }

unsigned house_parts(const House *h, int i)
{
    const Script *sc = &h->s[i];
    unsigned m = 0;
    m |= sc->nassigns ? HOUSE_PART_PARAMS : 0;
    m |= sc->setup_text || sc->setup_ref != LUA_NOREF ? HOUSE_PART_SETUP : 0;
    m |= sc->veto_ref != LUA_NOREF ? HOUSE_PART_VETO : 0;
    m |= sc->react_ref != LUA_NOREF ? HOUSE_PART_REACT : 0;
    m |= sc->start_ref != LUA_NOREF ? HOUSE_PART_START : 0;
    m |= sc->turn_ref != LUA_NOREF ? HOUSE_PART_TURN : 0;
    return m;
}

int house_param_set(const House *h, int i, const char *name)
{
    size_t n = strlen(name);
    for (int k = 0; k < h->s[i].nassigns; k++)
        if (strncmp(h->s[i].assigns[k], name, n) == 0 && h->s[i].assigns[k][n] == '=')
            return 1;
    return 0;
}

const char *house_error(const House *h) { return h->has_err ? h->err : NULL; }
void house_clear_error(House *h) { h->has_err = 0; }
const char *house_log(const House *h) { return sb_str(&h->log); }
const char *house_ruleset(const House *h) { return h->ruleset; }
