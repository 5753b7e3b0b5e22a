/*
 * fv.h -- the fairy variant's engine, inside variants/fairy/ ("Chess from
 * parts", issue 24, docs/FAIRY.md): the compiled rule set (FvRules, made
 * once per game from the rule-set text and never changed after), the
 * position (FvState, the game's blob) and the moves.
 *
 * Invariant: FvState is plain data without pointers (the core copies it
 * with memcpy); squares are rank * 16 + file on boards up to 16x16; every
 * derived field (counts, royal squares) agrees with the board once
 * fv_derive has run, and fv_make keeps them so.
 */
#ifndef CHESSVAR_FV_H
#define CHESSVAR_FV_H

#include <stdint.h>
#include "betza.h"
#include "../../core/util.h"
#include "../../core/action.h"

#define FV_TYPES 26          /* a piece type per letter A..Z */
#define FV_MAX_ROYALS 8      /* royal pieces per side */
#define FV_MAX_MOVES 8192    /* pseudo-legal moves of one position, drops included */
#define FV_SQ(x, y) ((y) * 16 + (x))
#define FV_X(sq) ((sq) & 15)
#define FV_Y(sq) ((sq) >> 4)
#define FV_NO_SQ 0xFF

/* A board cell: 0 empty, else the type + 1 (bits 0-4), the colour (bit 5)
 * and, in crazyhouse, whether it was promoted (bit 6: it returns to a hand
 * as a pawn). */
#define FV_CELL(color, t) ((uint8_t)(((t) + 1) | ((color) << 5)))
#define FV_TYPE(c) (((c) & 31) - 1)
#define FV_COLOR(c) (((c) >> 5) & 1)
#define FV_PROMOTED 64
#define FV_T(letter) ((letter) - 'A')
/* The duck (issue 25, TURN-4, docs/FAIRY.md "The duck"): a cell of no
 * piece type and no side.  It blocks every piece (riders stop before it,
 * leapers and pawns cannot go onto it, castling cannot pass it), is never
 * captured nor blown up, attacks nothing and is counted in no side's
 * material; FV_TYPE of it (30) is beyond FV_TYPES, so code that indexes
 * by type must test for it first. */
#define FV_DUCK 31

enum { FV_DRAW = 0, FV_WIN, FV_LOSS, FV_NO };

typedef struct FvPiece {
    int defined;
    char name[32];
    char betza[64];
    int value;
    int natoms;
    BetzaAtom atoms[2][BETZA_MAX_ATOMS]; /* [colour]: black's mirrored */
    int overlap;   /* two atoms may reach one square (QNAD, NNN): moves once */
} FvPiece;

/* One way a piece attacks a square, shared by every type that has it:
 * the attack tests walk back from the square along it. */
typedef struct FvAttack {
    BetzaAtom a;
    uint32_t types;   /* mask of piece types that attack so */
} FvAttack;

typedef struct FvRules {
    char name[64];
    int w, h;
    FvPiece piece[FV_TYPES];
    uint32_t defined;          /* mask of the types in the table */
    uint32_t royal;            /* mask of royal types */
    int check;                 /* PART-5 */
    int castling;              /* PART-4: 0 none */
    int castle_file[2];        /* the king's file after [0] queen-side, [1] king-side */
    uint32_t dstep[2];         /* [colour]: ranks (bit per absolute rank) of double steps */
    uint32_t ep_ranks[2];      /* [colour]: ranks whose double steps may be taken en
                                  passant (PART-3); 0: no en passant */
    uint32_t promo;            /* mask of the types a pawn may become */
    uint32_t promo_ranks[2];   /* [colour]: ranks where promotion is allowed */
    int last_rank[2];          /* [colour]: where it is forced */
    uint8_t promo_limit[FV_TYPES]; /* 0: none */
    int hands;                 /* PART-6 */
    uint32_t drop_ranks[2];    /* [colour]: where a pawn may be dropped */
    int explode;               /* PART-7 */
    uint32_t immune;
    int forced_capture, give_check; /* PART-8 */
    int checks;                /* PART-9: 0 none */
    int goal_type;             /* -1 none */
    uint8_t goal[256];         /* 1 on the goal squares */
    int ngoal;
    uint8_t goal_list[256];
    int goal_reply;
    int stalemate;             /* FV_DRAW, FV_WIN, FV_LOSS for the side without a move */
    int no_pieces;             /* FV_WIN or FV_LOSS */
    int bare_royal;            /* FV_NO, FV_LOSS or FV_DRAW */
    int draws;                 /* 1: orthodox draws (PART-10) */
    int orthodox_material;     /* insufficient material applies */
    char start[2048];          /* the start position string */
    /* [colour of the king]: 1 where a piece whose move is displaced so from
     * a royal piece may shield it (on a rider's line, a lame leap's leg);
     * index (dx + 15) * 31 + dy + 15.  Only when no attack hops (pins_ok). */
    int pins_ok;
    uint8_t shield[2][31 * 31];
    int nattack[2];
    FvAttack attack[2][256]; /* [attacker colour], merged */
} FvRules;

typedef struct FvState {
    uint8_t board[256];
    uint8_t hand[2][FV_TYPES];
    uint8_t count[2][FV_TYPES];   /* pieces on the board per type */
    uint8_t royal_sq[2][FV_MAX_ROYALS];
    uint8_t nroyal[2];
    uint8_t had_royal[2];         /* the side had a royal piece at the start */
    uint8_t side;
    uint8_t castle_rook[2][2];    /* [colour][wing 0 queen, 1 king]: rook square or FV_NO_SQ */
    uint8_t castle_king[2];       /* the castling king's square, FV_NO_SQ */
    uint8_t ep;                   /* square passed over by a double step, FV_NO_SQ */
    uint8_t ep_victim;            /* the pawn that made it */
    uint8_t checks[2];            /* checks given (PART-9) */
    uint8_t has_last;
    uint16_t halfmove, fullmove;
    uint32_t last;                /* the last move, for views */
    uint8_t duck;                 /* the duck's square (FV_DUCK there), FV_NO_SQ */
    uint8_t duck_due;             /* 1: `side` places the duck (TURN-4), then the
                                     other side moves */
} FvState;

/* A move: from (8 bits), to (8), kind (3), type + 1 of the promotion or
 * the drop (5). */
enum { FV_NORMAL = 0, FV_DOUBLE, FV_EP, FV_CASTLE, FV_DROP, FV_DUCK_PLACE };
#define FV_MOVE(from, to, kind, t1) \
    ((uint32_t)(from) | ((uint32_t)(to) << 8) | ((uint32_t)(kind) << 16) | ((uint32_t)(t1) << 19))
#define FV_FROM(m) ((int)((m) & 0xFF))
#define FV_TO(m) ((int)(((m) >> 8) & 0xFF))
#define FV_KIND(m) ((int)(((m) >> 16) & 7))
#define FV_PT(m) ((int)(((m) >> 19) & 31)) /* type + 1, 0 none */

/* ---- ruleset.c ---- */
FvRules *fv_rules_new(const char *text, Error *e);
int fv_is_royal(const FvRules *r, int t);

/* ---- position.c ---- */
/* Read a position string into s (NULL: the rule set's start). */
int fv_read(const FvRules *r, FvState *s, const char *text, Error *e);
void fv_write(const FvRules *r, const FvState *s, StrBuf *out);
/* Recompute counts, royal squares and the duck's square from the board:
 * 0, or -1 with e (two ducks, too many royal pieces). */
int fv_derive(const FvRules *r, FvState *s, Error *e);
void fv_square_name(int sq, char *buf); /* buf of 4 */
/* A square ("a10") at *p on r's board: its index, p advanced; -1 else. */
int fv_parse_square(const FvRules *r, const char **p);

/* ---- movegen.c ---- */
/* Is sq attacked by side `by` (the board as it stands)? */
int fv_attacked(const FvRules *r, const FvState *s, int sq, int by);
/* Is a royal of side c in check (atomic: a royal next to the enemy's is
 * not)? */
int fv_in_check(const FvRules *r, const FvState *s, int c);
/* The side whose move comes next: the side to move, or while it must
 * place the duck first, the other one (TURN-4). */
static inline int fv_mover(const FvState *s) { return s->duck_due ? s->side ^ 1 : s->side; }
/* The legal moves of the side to move into out (at least FV_MAX_MOVES):
 * their number. */
int fv_legal(const FvRules *r, const FvState *s, uint32_t *out);
int fv_has_legal(const FvRules *r, const FvState *s);
void fv_make(const FvRules *r, FvState *s, uint32_t m);
int fv_is_capture(const FvRules *r, const FvState *s, uint32_t m);
/* A rule of the rule set has ended the game (royal lost, checks, goal,
 * no pieces, bare royal): 1 with winners (side mask, 0 a draw), the code
 * and the reason; 0 while it goes on. */
int fv_variant_end(const FvRules *r, const FvState *s, unsigned *winners, int *code,
                   char *reason, size_t n);
uint64_t fv_perft(const FvRules *r, const FvState *s, int depth);
uint64_t fv_hash(const FvRules *r, const FvState *s);

/* ---- notation.c ---- */
/* UCI of move m of position s (castling: the king's move, or the king onto
 * its rook where that would read as a plain step; s NULL: the king's move). */
void fv_uci(const FvRules *r, const FvState *s, uint32_t m, StrBuf *out);
/* SAN of a legal move of s (+ and # included). */
void fv_san(const FvRules *r, const FvState *s, uint32_t m, StrBuf *out);
/* Read a typed move among the legal ones: 0 with *out, else -1 with e. */
int fv_parse_move(const FvRules *r, const FvState *s, const uint32_t *moves, int n,
                  const char *text, uint32_t *out, Error *e);

#endif
