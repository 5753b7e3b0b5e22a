/*
 * ruleset.c -- the rule-set text of the fairy variant read into FvRules
 * (issue 24, docs/FAIRY.md "The rule-set text", PART-1 .. PART-10): one
 * `key = value` a line, `#` comments, the last of a key given twice wins
 * except `piece`.  Every error names the line, the key and what is
 * allowed; nothing is half-read (the rules are built in a fresh block).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "fv.h"

#define ORTHODOX_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* The keys whose value is kept as text until the board's size is known
 * (ranks and squares depend on it). */
enum {
    K_NAME, K_BOARD, K_START, K_PIECE, K_NOPIECE, K_ROYAL, K_CHECK, K_CASTLING,
    K_DOUBLE_STEP, K_EN_PASSANT, K_PROMOTION, K_PROMOTION_RANKS, K_PROMOTION_LIMIT,
    K_HANDS, K_PAWN_DROP_RANKS, K_CAPTURES, K_EXPLODE_IMMUNE, K_FORCED_CAPTURE,
    K_GIVE_CHECK, K_CHECKS, K_GOAL, K_GOAL_REPLY, K_STALEMATE, K_NO_PIECES,
    K_BARE_ROYAL, K_DRAWS, K__COUNT
};

static const char *const KEYS[K__COUNT] = {
    "name", "board", "start", "piece", "nopiece", "royal", "check", "castling",
    "double_step", "en_passant", "promotion", "promotion_ranks", "promotion_limit",
    "hands", "pawn_drop_ranks", "captures", "explode_immune", "forced_capture",
    "give_check", "checks", "goal", "goal_reply", "stalemate", "no_pieces",
    "bare_royal", "draws",
};

typedef struct Setting {
    int line;      /* 0: not given */
    char *value;   /* points into the copy of the text */
} Setting;

static int is_royal_t(const FvRules *r, int t) { return (r->royal >> t) & 1; }
int fv_is_royal(const FvRules *r, int t) { return t >= 0 && t < FV_TYPES && is_royal_t(r, t); }

static int key_err(Error *e, int line, const char *key, const char *value, const char *allowed)
{
    char v[64];
    return err_set(e, "line %d: %s = %s: %s", line, key, str_clip(v, sizeof v, value),
                   allowed);
}

/* yes/no into *out. */
static int read_bool(const Setting *s, int k, int *out, Error *e)
{
    if (!s->line)
        return 0;
    if (!strcmp(s->value, "yes"))
        *out = 1;
    else if (!strcmp(s->value, "no"))
        *out = 0;
    else
        return key_err(e, s->line, KEYS[k], s->value, "yes or no");
    return 0;
}

/* One of the words into *out (their values in vals). */
static int read_word(const Setting *s, int k, const char *const *words, const int *vals,
                     int n, int *out, Error *e)
{
    if (!s->line)
        return 0;
    for (int i = 0; i < n; i++)
        if (!strcmp(s->value, words[i])) {
            *out = vals[i];
            return 0;
        }
    char allowed[128] = "one of";
    for (int i = 0; i < n; i++) {
        size_t l = strlen(allowed);
        snprintf(allowed + l, sizeof allowed - l, "%s %s", i ? (i == n - 1 ? " or" : ",") : "",
                 words[i]);
    }
    return key_err(e, s->line, KEYS[k], s->value, allowed);
}

/* Letters of pieces of the table (or, allow_none, `none`) into a mask. */
static int read_letters(const FvRules *r, const Setting *s, int k, int allow_none,
                        uint32_t *out, Error *e)
{
    if (!s->line)
        return 0;
    if (allow_none && !strcmp(s->value, "none")) {
        *out = 0;
        return 0;
    }
    uint32_t m = 0;
    for (const char *p = s->value; *p; p++) {
        if (*p == ' ' || *p == ',')
            continue;
        if (*p < 'A' || *p > 'Z')
            return key_err(e, s->line, KEYS[k], s->value,
                           allow_none ? "piece letters in upper case (A..Z), or none"
                                      : "piece letters in upper case (A..Z)");
        if (!((r->defined >> FV_T(*p)) & 1)) {
            char why[96];
            snprintf(why, sizeof why, "no piece %c in the table (add it with a piece line)", *p);
            return key_err(e, s->line, KEYS[k], s->value, why);
        }
        m |= 1u << FV_T(*p);
    }
    if (!m && !allow_none)
        return key_err(e, s->line, KEYS[k], s->value, "at least one piece letter");
    *out = m;
    return 0;
}

/* White's ranks, numbers from 1 (or ranges a..b, or none) into a mask. */
static int read_ranks(const FvRules *r, const Setting *s, int k, int allow_none,
                      uint32_t *out, Error *e)
{
    if (!s->line)
        return 0;
    char allowed[96];
    snprintf(allowed, sizeof allowed, "rank numbers 1..%d separated by spaces (a range: 2..7)%s",
             r->h, allow_none ? ", or none" : "");
    if (allow_none && !strcmp(s->value, "none")) {
        *out = 0;
        return 0;
    }
    uint32_t m = 0;
    const char *p = s->value;
    while (*p) {
        if (*p == ' ' || *p == ',') {
            p++;
            continue;
        }
        char *end;
        if (!isdigit((unsigned char)*p))
            return key_err(e, s->line, KEYS[k], s->value, allowed);
        long a = strtol(p, &end, 10), b = a;
        p = end;
        if (p[0] == '.' && p[1] == '.') {
            if (!isdigit((unsigned char)p[2]))
                return key_err(e, s->line, KEYS[k], s->value, allowed);
            b = strtol(p + 2, &end, 10);
            p = end;
        }
        if (*p && *p != ' ' && *p != ',')
            return key_err(e, s->line, KEYS[k], s->value, allowed);
        if (a < 1 || b > r->h || a > b)
            return key_err(e, s->line, KEYS[k], s->value, allowed);
        for (long i = a; i <= b; i++)
            m |= 1u << (i - 1);
    }
    if (!m && !allow_none)
        return key_err(e, s->line, KEYS[k], s->value, allowed);
    *out = m;
    return 0;
}

/* White's ranks mirrored for black. */
static uint32_t mirror_ranks(const FvRules *r, uint32_t m)
{
    uint32_t b = 0;
    for (int y = 0; y < r->h; y++)
        if ((m >> y) & 1)
            b |= 1u << (r->h - 1 - y);
    return b;
}

static int read_int(const char *s, long lo, long hi, long *out)
{
    char *end;
    if (!isdigit((unsigned char)*s) && *s != '-')
        return -1;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static void set_piece(FvRules *r, char letter, const char *name, const char *betza, int value)
{
    FvPiece *p = &r->piece[FV_T(letter)];
    p->defined = 1;
    str_copy(p->name, sizeof p->name, name);
    str_copy(p->betza, sizeof p->betza, betza);
    p->value = value;
    r->defined |= 1u << FV_T(letter);
}

/* `piece = L name betza [value]`. */
static int read_piece(FvRules *r, int line, char *v, Error *e)
{
    char *f[5], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(v, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n < 5)
            f[n++] = t;
        else
            n++;
    const char *allowed = "a letter A..Z, a name, the moves in Betza notation and "
                          "a value (optional): A archbishop BN 8";
    if (n < 3 || n > 4 || strlen(f[0]) != 1 || f[0][0] < 'A' || f[0][0] > 'Z')
        return err_set(e, "line %d: piece: %s", line, allowed);
    for (const char *c = f[1]; *c; c++)
        if (!isalnum((unsigned char)*c) && *c != '_' && *c != '-')
            return err_set(e, "line %d: piece %c: the name '%.31s' has '%c': a name is one "
                           "word of letters, digits, - and _", line, f[0][0], f[1], *c);
    if (strlen(f[1]) >= sizeof r->piece[0].name || strlen(f[2]) >= sizeof r->piece[0].betza)
        return err_set(e, "line %d: piece %c: the name is at most 31 and the moves at "
                       "most 63 characters", line, f[0][0]);
    long value = 3;
    if (n == 4 && read_int(f[3], 0, 1000, &value))
        return err_set(e, "line %d: piece %c: the value '%.20s' is not a whole number "
                       "0..1000", line, f[0][0], f[3]);
    if (f[0][0] != 'P') { /* the pawn moves by the pawn keys (PART-3) */
        BetzaMoves bm;
        Error be;
        if (betza_parse(f[2], &bm, &be))
            return err_set(e, "line %d: piece %c: %s", line, f[0][0], be.msg);
        if (bm.n == 0)
            return err_set(e, "line %d: piece %c: '%s' gives the piece no move", line,
                           f[0][0], f[2]);
    }
    set_piece(r, f[0][0], f[1], f[2], (int)value);
    return 0;
}

/* The goal: `L sq sq ...` or `L rank R`. */
static int read_goal(FvRules *r, const Setting *s, Error *e)
{
    const char *allowed = "a piece letter and squares (K d4 e4 d5 e5), or a letter, "
                          "rank and a rank number (K rank 8)";
    if (!s->line)
        return 0;
    const char *p = s->value;
    if (*p < 'A' || *p > 'Z' || (p[1] != ' ' && p[1] != '\t'))
        return key_err(e, s->line, "goal", s->value, allowed);
    int t = FV_T(*p);
    if (!((r->defined >> t) & 1))
        return key_err(e, s->line, "goal", s->value, "a letter of the piece table");
    p += 2;
    while (*p == ' ')
        p++;
    memset(r->goal, 0, sizeof r->goal);
    if (!strncmp(p, "rank", 4) && (p[4] == ' ' || p[4] == '\t')) {
        long rank;
        if (read_int(str_trim((char *)p + 4), 1, r->h, &rank))
            return key_err(e, s->line, "goal", s->value, allowed);
        for (int x = 0; x < r->w; x++)
            r->goal[FV_SQ(x, rank - 1)] = 1;
    } else {
        int n = 0;
        while (*p) {
            if (*p == ' ' || *p == '\t') {
                p++;
                continue;
            }
            int sq = fv_parse_square(r, &p);
            if (sq < 0 || (*p && *p != ' ' && *p != '\t'))
                return key_err(e, s->line, "goal", s->value, allowed);
            r->goal[sq] = 1;
            n++;
        }
        if (!n)
            return key_err(e, s->line, "goal", s->value, allowed);
    }
    r->goal_type = t;
    r->ngoal = 0;
    for (int sq = 0; sq < 256; sq++)
        if (r->goal[sq])
            r->goal_list[r->ngoal++] = (uint8_t)sq;
    return 0;
}

/* `promotion_limit = Q1 R2`. */
static int read_limits(FvRules *r, const Setting *s, Error *e)
{
    const char *allowed = "pairs of a piece letter and a count, Q1 R2";
    if (!s->line)
        return 0;
    const char *p = s->value;
    while (*p) {
        if (*p == ' ' || *p == ',') {
            p++;
            continue;
        }
        if (*p < 'A' || *p > 'Z' || !((r->defined >> FV_T(*p)) & 1) ||
            !isdigit((unsigned char)p[1]))
            return key_err(e, s->line, "promotion_limit", s->value, allowed);
        char *end;
        long n = strtol(p + 1, &end, 10);
        if (n < 1 || n > 255 || (*end && *end != ' ' && *end != ','))
            return key_err(e, s->line, "promotion_limit", s->value, allowed);
        r->promo_limit[FV_T(*p)] = (uint8_t)n;
        p = end;
    }
    return 0;
}

/* Add atom a of types to the attack table of colour c, merged with an
 * equal one. */
static int add_attack(FvRules *r, int c, const BetzaAtom *a, int t)
{
    for (int i = 0; i < r->nattack[c]; i++)
        if (!memcmp(&r->attack[c][i].a, a, sizeof *a)) {
            r->attack[c][i].types |= 1u << t;
            return 0;
        }
    if (r->nattack[c] >= (int)ARRAY_LEN(r->attack[c]))
        return -1;
    FvAttack *x = &r->attack[c][r->nattack[c]++];
    x->a = *a;
    x->types = 1u << t;
    return 0;
}

/* Atoms of every piece for both colours, and the attack tables. */
static int compile(FvRules *r, Error *e)
{
    r->nattack[0] = r->nattack[1] = 0;
    for (int t = 0; t < FV_TYPES; t++) {
        FvPiece *p = &r->piece[t];
        if (!p->defined)
            continue;
        BetzaMoves bm;
        memset(&bm, 0, sizeof bm);
        if (t == FV_T('P')) { /* pawn captures, for the attack tables */
            bm.n = 2;
            bm.a[0].dx = 1;
            bm.a[1].dx = -1;
            for (int i = 0; i < 2; i++) {
                bm.a[i].dy = 1;
                bm.a[i].range = 1;
                bm.a[i].flags = BZ_CAPTURE;
            }
        } else if (betza_parse(p->betza, &bm, e)) {
            err_prefix(e, "piece %c", 'A' + t);
            return -1;
        }
        p->natoms = bm.n;
        p->overlap = 0;
        for (int i = 0; i < bm.n && !p->overlap; i++)
            for (int j = i + 1; j < bm.n && !p->overlap; j++) {
                const BetzaAtom *a = &bm.a[i], *b = &bm.a[j];
                int ra = a->range ? a->range : 15, rb = b->range ? b->range : 15;
                for (int x = 1; x <= ra && !p->overlap; x++)
                    for (int y = 1; y <= rb && !p->overlap; y++)
                        p->overlap = x * a->dx == y * b->dx && x * a->dy == y * b->dy;
            }
        for (int i = 0; i < bm.n; i++) {
            BetzaAtom w = bm.a[i], b = w;
            b.dy = (int8_t)-b.dy;
            for (int l = 0; l < b.nlegs && l < 2; l++)
                b.leg[l][1] = (int8_t)-b.leg[l][1];
            p->atoms[0][i] = w;
            p->atoms[1][i] = b;
            /* atomic: a royal piece never captures, so never attacks (PART-7) */
            if (!(w.flags & BZ_CAPTURE) || (r->explode && is_royal_t(r, t)))
                continue;
            BetzaAtom wa = w, ba = b;
            wa.flags = ba.flags = (uint8_t)(w.flags & (BZ_HOP | BZ_GRASSHOP | BZ_INITIAL));
            if (add_attack(r, 0, &wa, t) || add_attack(r, 1, &ba, t))
                return err_set(e, "the pieces have more than %d different ways to attack",
                               (int)ARRAY_LEN(r->attack[0]));
        }
    }
    return 0;
}

static void set_defaults(FvRules *r)
{
    memset(r, 0, sizeof *r);
    str_copy(r->name, sizeof r->name, "Chess from parts");
    r->w = r->h = 8;
    set_piece(r, 'P', "pawn", "fmWfcF", 1);
    set_piece(r, 'N', "knight", "N", 3);
    set_piece(r, 'B', "bishop", "B", 3);
    set_piece(r, 'R', "rook", "R", 5);
    set_piece(r, 'Q', "queen", "Q", 10);
    set_piece(r, 'K', "king", "K", 0);
    r->royal = 1u << FV_T('K');
    r->check = 1;
    r->castling = 1;
    r->promo = (1u << FV_T('Q')) | (1u << FV_T('R')) | (1u << FV_T('B')) | (1u << FV_T('N'));
    r->immune = 1u << FV_T('P');
    r->give_check = 1;
    r->goal_type = -1;
    r->stalemate = FV_DRAW;
    r->no_pieces = FV_LOSS;
    r->bare_royal = FV_NO;
    r->draws = 1;
}

/* Is the table the orthodox one (insufficient material applies, PART-10)? */
static int orthodox_material(const FvRules *r)
{
    static const char *const ORTH[] = {"N", "B", "R", "Q", "K"};
    static const char LET[] = "NBRQK";
    if (r->defined != ((1u << FV_T('P')) | (1u << FV_T('N')) | (1u << FV_T('B')) |
                       (1u << FV_T('R')) | (1u << FV_T('Q')) | (1u << FV_T('K'))))
        return 0;
    for (int i = 0; i < 5; i++)
        if (strcmp(r->piece[FV_T(LET[i])].betza, ORTH[i]))
            return 0;
    return r->royal == 1u << FV_T('K') && r->check && !r->explode && !r->hands &&
           !r->checks && r->goal_type < 0 && r->give_check && !r->forced_capture;
}

/* Split the text into settings (and piece lines, applied in order). */
static int read_lines(FvRules *r, char *text, Setting *set, Error *e)
{
    int line = 0;
    char *p = text;
    while (p && *p) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        line++;
        char *hash = strchr(p, '#');
        if (hash)
            *hash = '\0';
        char *l = str_trim(p);
        p = nl ? nl + 1 : NULL;
        if (!*l)
            continue;
        char *eq = strchr(l, '=');
        if (!eq) {
            char c[48];
            return err_set(e, "line %d: '%s' is not key = value", line,
                           str_clip(c, sizeof c, l));
        }
        *eq = '\0';
        char *key = str_trim(l), *value = str_trim(eq + 1);
        int k = 0;
        while (k < K__COUNT && strcmp(KEYS[k], key))
            k++;
        if (k == K__COUNT) {
            char c[48];
            return err_set(e, "line %d: no key '%s' in a rule set (the keys: name, board, "
                           "start, piece, nopiece, royal, check, castling, double_step, "
                           "en_passant, promotion, promotion_ranks, promotion_limit, hands, "
                           "pawn_drop_ranks, captures, explode_immune, forced_capture, "
                           "give_check, checks, goal, goal_reply, stalemate, no_pieces, "
                           "bare_royal, draws)", line, str_clip(c, sizeof c, key));
        }
        if (!*value)
            return err_set(e, "line %d: %s: the value is missing", line, KEYS[k]);
        if (k == K_PIECE) {
            if (read_piece(r, line, value, e))
                return -1;
            continue;
        }
        set[k].line = line;
        set[k].value = value;
    }
    return 0;
}

static int build(FvRules *r, char *text, Error *e)
{
    Setting set[K__COUNT];
    memset(set, 0, sizeof set);
    set_defaults(r);
    if (text && read_lines(r, text, set, e))
        return -1;
    if (set[K_NAME].line) {
        char why[64];
        if (text_check(set[K_NAME].value, strlen(set[K_NAME].value), 0, why, sizeof why))
            return key_err(e, set[K_NAME].line, "name", "...", why);
        str_copy(r->name, sizeof r->name, set[K_NAME].value);
    }
    if (set[K_BOARD].line) {
        int w, h;
        char tail;
        if (sscanf(set[K_BOARD].value, "%dx%d%c", &w, &h, &tail) != 2 || w < 2 || w > 16 ||
            h < 2 || h > 16)
            return key_err(e, set[K_BOARD].line, "board", set[K_BOARD].value,
                           "files x ranks, 2 to 16 each (10x8)");
        r->w = w;
        r->h = h;
    }
    if (set[K_NOPIECE].line) {
        uint32_t m = 0;
        if (read_letters(r, &set[K_NOPIECE], K_NOPIECE, 0, &m, e))
            return -1;
        r->defined &= ~m;
        for (int t = 0; t < FV_TYPES; t++)
            if ((m >> t) & 1)
                memset(&r->piece[t], 0, sizeof r->piece[t]);
    }
    /* the defaults that name pieces hold only for pieces still there */
    r->royal &= r->defined;
    r->promo &= r->defined;
    r->immune &= r->defined;
    if (read_letters(r, &set[K_ROYAL], K_ROYAL, 1, &r->royal, e) ||
        read_bool(&set[K_CHECK], K_CHECK, &r->check, e) ||
        read_letters(r, &set[K_PROMOTION], K_PROMOTION, 0, &r->promo, e) ||
        read_bool(&set[K_HANDS], K_HANDS, &r->hands, e) ||
        read_letters(r, &set[K_EXPLODE_IMMUNE], K_EXPLODE_IMMUNE, 1, &r->immune, e) ||
        read_bool(&set[K_FORCED_CAPTURE], K_FORCED_CAPTURE, &r->forced_capture, e) ||
        read_bool(&set[K_GIVE_CHECK], K_GIVE_CHECK, &r->give_check, e) ||
        read_bool(&set[K_GOAL_REPLY], K_GOAL_REPLY, &r->goal_reply, e))
        return -1;
    {
        static const char *const W[] = {"normal", "explode"};
        static const int V[] = {0, 1};
        static const char *const SW[] = {"draw", "win", "loss"};
        static const int SV[] = {FV_DRAW, FV_WIN, FV_LOSS};
        static const char *const NW[] = {"win", "loss"};
        static const int NV[] = {FV_WIN, FV_LOSS};
        static const char *const BW[] = {"loss", "draw", "no"};
        static const int BV[] = {FV_LOSS, FV_DRAW, FV_NO};
        static const char *const DW[] = {"orthodox", "none"};
        static const int DV[] = {1, 0};
        if (read_word(&set[K_CAPTURES], K_CAPTURES, W, V, 2, &r->explode, e) ||
            read_word(&set[K_STALEMATE], K_STALEMATE, SW, SV, 3, &r->stalemate, e) ||
            read_word(&set[K_NO_PIECES], K_NO_PIECES, NW, NV, 2, &r->no_pieces, e) ||
            read_word(&set[K_BARE_ROYAL], K_BARE_ROYAL, BW, BV, 3, &r->bare_royal, e) ||
            read_word(&set[K_DRAWS], K_DRAWS, DW, DV, 2, &r->draws, e))
            return -1;
    }
    /* castling: the king's files after each wing's castling (PART-4) */
    r->castle_file[0] = 2;
    r->castle_file[1] = r->w - 2;
    if (set[K_CASTLING].line) {
        const char *v = set[K_CASTLING].value;
        char a, b, tail;
        if (!strcmp(v, "none"))
            r->castling = 0;
        else if (sscanf(v, "%c %c%c", &a, &b, &tail) == 2 && a >= 'a' && a < 'a' + r->w &&
                 b >= 'a' && b < 'a' + r->w && a < b) {
            r->castle_file[0] = a - 'a';
            r->castle_file[1] = b - 'a';
        } else {
            char allowed[96];
            snprintf(allowed, sizeof allowed, "two files a..%c, the king's after queen-side "
                     "then king-side castling (c g), or none", 'a' + r->w - 1);
            return key_err(e, set[K_CASTLING].line, "castling", v, allowed);
        }
    } else if (r->w != 8 && r->w < 5) {
        r->castling = 0;
    }
    if (!((r->defined >> FV_T('K')) & 1) || !((r->defined >> FV_T('R')) & 1))
        r->castling = 0;
    uint32_t ds = 1u << 1;
    if (read_ranks(r, &set[K_DOUBLE_STEP], K_DOUBLE_STEP, 1, &ds, e))
        return -1;
    r->dstep[0] = ds;
    r->dstep[1] = mirror_ranks(r, ds);
    /* en passant: yes, no, or the ranks whose double steps give it
     * (PART-3; horde: 2, not a step from the first rank) */
    uint32_t ep = ~0u;
    if (set[K_EN_PASSANT].line) {
        const Setting *st = &set[K_EN_PASSANT];
        if (!strcmp(st->value, "yes"))
            ep = ~0u;
        else if (!strcmp(st->value, "no"))
            ep = 0;
        else if (read_ranks(r, st, K_EN_PASSANT, 0, &ep, e)) {
            char allowed[160];
            snprintf(allowed, sizeof allowed, "yes, no, or white's ranks (1..%d) whose double "
                     "steps may be taken en passant (2)", r->h);
            return key_err(e, st->line, "en_passant", st->value, allowed);
        }
    }
    r->ep_ranks[0] = ep;
    r->ep_ranks[1] = ep == ~0u ? ep : mirror_ranks(r, ep);
    uint32_t pr = 1u << (r->h - 1);
    if (read_ranks(r, &set[K_PROMOTION_RANKS], K_PROMOTION_RANKS, 0, &pr, e))
        return -1;
    pr |= 1u << (r->h - 1);
    r->promo_ranks[0] = pr;
    r->promo_ranks[1] = mirror_ranks(r, pr);
    r->last_rank[0] = r->h - 1;
    r->last_rank[1] = 0;
    if (read_limits(r, &set[K_PROMOTION_LIMIT], e))
        return -1;
    uint32_t dr = ((1u << r->h) - 1) & ~1u & ~(1u << (r->h - 1));
    if (read_ranks(r, &set[K_PAWN_DROP_RANKS], K_PAWN_DROP_RANKS, 0, &dr, e))
        return -1;
    r->drop_ranks[0] = dr;
    r->drop_ranks[1] = mirror_ranks(r, dr);
    if (set[K_CHECKS].line) {
        long n;
        if (read_int(set[K_CHECKS].value, 0, 99, &n))
            return key_err(e, set[K_CHECKS].line, "checks", set[K_CHECKS].value,
                           "a whole number 0..99 (0: checks are not counted)");
        r->checks = (int)n;
    }
    if (read_goal(r, &set[K_GOAL], e))
        return -1;
    if (compile(r, e))
        return -1;
    r->orthodox_material = orthodox_material(r);
    /* the squares from which a moving piece may uncover an attack */
    r->pins_ok = 1;
    memset(r->shield, 0, sizeof r->shield);
    for (int by = 0; by < 2; by++)
        for (int i = 0; i < r->nattack[by]; i++) {
            const BetzaAtom *a = &r->attack[by][i].a;
            uint8_t *sh = r->shield[by ^ 1];
            if (a->flags & (BZ_HOP | BZ_GRASSHOP))
                r->pins_ok = 0;
            else if (a->range != 1)
                for (int k = 1; k <= 15; k++) {
                    int dx = -k * a->dx, dy = -k * a->dy;
                    if (dx < -15 || dx > 15 || dy < -15 || dy > 15)
                        break;
                    sh[(dx + 15) * 31 + dy + 15] = 1;
                }
            else
                for (int l = 0; l < a->nlegs && l < 2; l++) {
                    int dx = -a->dx + a->leg[l][0], dy = -a->dy + a->leg[l][1];
                    sh[(dx + 15) * 31 + dy + 15] = 1;
                }
        }
    /* the start position last: it needs every rule */
    if (set[K_START].line) {
        if (strlen(set[K_START].value) >= sizeof r->start)
            return err_set(e, "line %d: start: a position string of at most %d characters",
                           set[K_START].line, (int)sizeof r->start - 1);
        str_copy(r->start, sizeof r->start, set[K_START].value);
    } else {
        uint32_t need = (1u << FV_T('P')) | (1u << FV_T('N')) | (1u << FV_T('B')) |
                        (1u << FV_T('R')) | (1u << FV_T('Q')) | (1u << FV_T('K'));
        if (r->w != 8 || r->h != 8 || (r->defined & need) != need)
            return 0; /* no start: a game needs a position (fv_read says so) */
        str_copy(r->start, sizeof r->start, ORTHODOX_START);
    }
    FvState s;
    Error pe;
    if (fv_read(r, &s, r->start, &pe)) {
        if (set[K_START].line)
            return err_set(e, "line %d: start: %s", set[K_START].line, pe.msg);
        return err_set(e, "start: the orthodox start does not fit these rules: %s", pe.msg);
    }
    return 0;
}

FvRules *fv_rules_new(const char *text, Error *e)
{
    FvRules *r = cv_calloc(sizeof *r);
    char *copy = text ? cv_strdup(text) : NULL;
    if (!r || (text && !copy)) {
        free(r);
        free(copy);
        err_set(e, "out of memory");
        return NULL;
    }
    int rc = build(r, copy, e);
    free(copy);
    if (rc) {
        free(r);
        return NULL;
    }
    return r;
}
