/*
 * mq.h -- private to variants/masques/: the state blob of Les Échecs
 * Masqués and the functions its files share (board edits, attacks and
 * threats, generation, battles, texts).  The rules are MASQ-1 .. MASQ-16
 * (docs/RULES.md); the contract is docs/MASQUES.md.
 *
 * Invariant: an MqState is plain data (no pointers) and always
 * consistent: `at`, the bitboards and the pieces' squares agree, every
 * piece is on the board or off it (in hand during setup, removed later),
 * and the phase fields name pieces that exist.  Only the edit functions of
 * board.c change where pieces are, so the three views of the board never
 * drift apart.
 */
#ifndef CHESSVAR_MQ_H
#define CHESSVAR_MQ_H

#include <stdint.h>

#include "../../core/game.h"
#include "../orthodox/bitboard.h"

enum { MQ_WHITE = 0, MQ_BLACK = 1, MQ_NOSIDE = 2 };
#define MQ_NPIECES 32       /* ids 0..15 white, 16..31 black */
#define MQ_SEAT(side) (1u << (side))
#define MQ_MAX_MOVES 768

/* Parameter indices, in table order (masques.c). */
enum {
    MP_REVEAL_ALONE,
    MP_MASK_MATE,
    MP_GIVEUP_REVEALED,
    MP_ALLIN,
    MP_MASKED_KING_CHECK,
    MP_THREEFOLD,
    MP_FIFTY,
    MP_FIVEFOLD,
    MP_SEVENTY_FIVE,
    MP_SHOW_AT_END,
    MP__COUNT
};
enum { MASK_MATE_PUBLIC = 0, MASK_MATE_TRUTH = 1 };

typedef enum MqPhase {
    PH_SETUP,
    PH_PLAY,
    PH_ANNOUNCE,
    PH_ANSWER,
    PH_BATTLE,
    PH_BID,
    PH_GIVEUP,
    PH_OVER
} MqPhase;

enum MqPieceFlags {
    PF_ON = 1,      /* on the board */
    PF_MASKED = 2,  /* only its owner knows its figure */
    PF_UNMOVED = 4  /* has not moved since setup (two-step, castling) */
};

typedef struct MqPiece {
    int8_t sq;      /* 0..63 while on the board, else -1 */
    uint8_t fig;    /* true figure, FIG_PAWN .. FIG_KING */
    uint8_t side;
    uint8_t flags;  /* MqPieceFlags */
} MqPiece;

/* A capture right (MASQ-6/12), indexed by the side holding it. */
typedef struct MqRight {
    int8_t target;      /* piece id, -1: no right */
    uint32_t attackers; /* piece ids that threatened it when announced */
} MqRight;

/* A piece off the board, as its owner knows it; `hidden`: removed
 * without reveal, so the enemy never learns its figure (MASQ-12). */
typedef struct MqLost {
    uint8_t side, fig, hidden;
} MqLost;

/* Action.flags of an ACT_MOVE (set in the legal list, so public to the
 * mover only; they follow from public facts): the move touches a masked
 * enemy piece (a battle, or a capture by right), or it castles (which
 * reveals King and Rook).  Such a move is an undo barrier. */
enum { MQ_AF_MASKED_TARGET = 1, MQ_AF_CASTLE = 2 };
/* Action.note of a placement that is part of an `arrange` text: its owner
 * reads one line for the whole arrangement, not one per piece.  Untrusted
 * (a note is typed input): it changes only the owner's own message. */
enum { MQ_NOTE_ARRANGE = 1 };

/* Action amounts of ACT_PLACE. */
enum { SETUP_PLACE = 0, SETUP_STANDARD = 1, SETUP_RANDOM = 2 };
/* Action amounts of ACT_ANNOUNCE. */
enum { ANN_CHECK = 0, ANN_MATE = 1 };

typedef struct MqState {
    MqPiece pc[MQ_NPIECES];
    int8_t at[64];              /* piece id on each square, -1 empty */
    Bitboard bb[2][7];          /* [side][0]: masked; [side][fig]: revealed */
    Bitboard occ;
    uint8_t phase;              /* MqPhase */
    uint8_t side;               /* see docs/MASQUES.md "Position string" */
    uint8_t castling;           /* CASTLE_* bits */
    int8_t ep;                  /* square passed by the last two-step, -1 */
    int8_t ep_victim;           /* the piece that made it, -1 */
    uint8_t nokings;            /* bit per side: King removed without reveal */
    uint16_t halfmove, fullmove;
    MqRight right[2];
    /* battle, bidding, giving up (the side field is the attacker) */
    int8_t att, def;            /* battling pieces */
    int8_t land;                /* where a winning attacker lands */
    uint8_t promo;              /* promotion of a revealed pawn attacker */
    uint8_t att_revealed;       /* the attack was a reveal-move (MASQ-5) */
    int16_t bid;                /* bid on the table, 0: none yet */
    uint8_t bidder;             /* side that made it, MQ_NOSIDE: none */
    uint8_t loser;              /* giveup: the side that gives up */
    /* announcement and answer */
    uint8_t ann_mate;
    int8_t ann_target;
    uint32_t ann_att;           /* pieces threatening the target when announced */
    uint32_t threats;           /* announce: targets newly threatened (ids) */
    uint32_t before[MQ_NPIECES];/* mover's threats before its action, by target */
    /* an end decided by an event (all-in, mask mate on the King ...) */
    uint8_t winners;
    uint8_t end;                /* its EndCode (variant.h); view.c gives its text */
    /* pieces off the board, in the order they left */
    uint8_t nlost;
    MqLost lost[MQ_NPIECES];
    /* the last action as each seat may read it */
    char last_text[2][48];
    int8_t last_from[2], last_to[2];
    Rng rng;                    /* draws of `random` (seeded at init) */
} MqState;

/* A move of the play phase, before it becomes an Action. */
enum MqMoveFlags {
    MV_REVEAL = 1,   /* reveal the piece first (MASQ-5) */
    MV_CASTLE = 2,
    MV_EP = 4,       /* en passant: the victim is beside the landing square */
    MV_BATTLE = 8,   /* onto a masked piece (MASQ-8) */
    MV_RIGHT = 16,   /* capture by right: no battle, no reveal (MASQ-6/12) */
    MV_CAPTURE = 32, /* onto a revealed piece */
    MV_DOUBLE = 64   /* two-square step */
};
typedef struct MqMove {
    int8_t from, to;   /* to == from: reveal alone, or reveal to promote */
    uint8_t promo;     /* FIG_KNIGHT .. FIG_QUEEN, or 0 */
    uint8_t flags;     /* MqMoveFlags */
} MqMove;

/* Generation modes: the true moves of the side, or what the enemy can
 * judge from public facts (masked pieces as pawns, no reveal-moves,
 * castling only with K and R revealed, check only on a revealed King).
 * GEN_PSEUDO (with either) skips the test of the King (MASQ-14): for
 * explaining refusals only. */
enum { GEN_FULL = 0, GEN_PUBLIC = 1, GEN_PSEUDO = 2 };

/* Bitboards after a move, battles assumed won by the mover. */
typedef struct MqSim {
    Bitboard bb[2][7];
    Bitboard occ;
    int8_t taken;     /* square of the piece removed, -1 */
    int8_t mover_to;  /* where the moving piece (the King when castling) ends */
} MqSim;

/* ---- board.c: squares, pieces, attacks, threats, hash ------------------ */
static inline int mq_rank(int sq) { return sq >> 3; }
static inline int mq_file(int sq) { return sq & 7; }
/* Squares as the core's Coord (x file, y rank) and back. */
static inline Coord mq_coord(int sq) { return coord_make(mq_file(sq), mq_rank(sq)); }
static inline int mq_sq_of(Coord c) { return c.y * 8 + c.x; }
static inline int mq_last_rank(int side) { return side == MQ_WHITE ? 7 : 0; }
static inline int mq_fwd(int side) { return side == MQ_WHITE ? 8 : -8; }
static inline int mq_home_rank(int side, int rank)
{
    return side == MQ_WHITE ? rank <= 1 : rank >= 6;
}
static inline int mq_masked(const MqPiece *p) { return (p->flags & PF_MASKED) != 0; }
/* The square of the i-th arrangement slot of side (MASQ-1): back rank
 * a..h, then the front rank a..h. */
static inline int mq_slot_square(int side, int i)
{
    int rank = side == MQ_WHITE ? (i < 8 ? 0 : 1) : (i < 8 ? 7 : 6);
    return rank * 8 + (i & 7);
}
/* The way a piece moves now: 0 (like a pawn, masked) or its figure. */
static inline int mq_cat(const MqPiece *p) { return mq_masked(p) ? 0 : p->fig; }

extern const char *const MQ_SIDE_NAMES[2];
extern const char *const MQ_FIG_NAMES[7];   /* "Pawn" ... "King" */
extern const int MQ_ARMY[7];                /* a full army, by figure (MASQ-1) */
/* The four castlings (MASQ-15), in CASTLE_* bit order: the letter in a
 * position string, the right, the side, where King and Rook stand, the
 * square the King passes and the one it lands on, the squares between King
 * and Rook that must be empty. */
typedef struct MqCastle {
    char letter;
    int bit, side, king, rook, pass, land;
    Bitboard empty;
} MqCastle;
extern const MqCastle MQ_CASTLES[4];

void mq_clear(MqState *s);
void mq_put(MqState *s, int id, int sq);
void mq_lift(MqState *s, int id);
void mq_reveal(MqState *s, int id);
void mq_set_figure(MqState *s, int id, int fig);
/* Move a piece on the board (it loses its unmoved flag). */
void mq_move_piece(MqState *s, int id, int to);
/* Note a piece leaving the board in the lost list and lift it. */
void mq_remove(MqState *s, int id, int hidden);
/* Is the piece on sq a `fig` of `side` that has not moved since setup? */
int mq_unmoved_at(const MqState *s, int sq, int side, int fig);
/* Drop castling rights whose K or R left or moved; drop rights whose
 * target is gone or revealed, and attackers that are gone. */
void mq_tidy(MqState *s);

/* How many of side's pieces are in hand (setup) or off the board. */
int mq_in_hand(const MqState *s, int side);
/* The id of a piece of figure fig (0: any) that side holds in hand, or -1. */
int mq_hand_piece(const MqState *s, int side, int fig);
int mq_king(const MqState *s, int side);           /* id on board, or -1 */
Bitboard mq_side_occ(const Bitboard bb[2][7], int side);
Bitboard mq_attacks(int cat, int side, int sq, Bitboard occ);
int mq_attacked(const Bitboard bb[2][7], Bitboard occ, int sq, int by);
/* Is side's King "in check" (MASQ-14): on the board, attacked, and revealed
 * (or masked with masked_king_check, unless public)? */
int mq_in_check(const Game *g, const MqState *s, int side, int mode);
/* For each masked enemy piece (by id): the pieces of `side` threatening it. */
void mq_threats(const MqState *s, int side, uint32_t out[MQ_NPIECES]);
uint32_t mq_threateners(const MqState *s, int target);
uint64_t mq_hash(const MqState *s);
int mq_strength(int fig);
int mq_value(const Game *g, int fig);
int mq_threshold(const Game *g);
int mq_material(const Game *g, const MqState *s, int side); /* non-king */
const char *mq_sq(int sq, char *buf);   /* buf >= 3 */
/* The square named by the two characters at t ("e4"; what follows is the
 * caller's): 0 and *sq, or -1. */
int mq_parse_sq(const char *t, int *sq);
/* How `seat` names piece id, into buf (n >= 48 holds every name): its own
 * piece with the figure, the enemy's by figure only when revealed, else
 * "the masked piece on SQ".  Returns buf. */
const char *mq_piece_desc(const MqState *s, int id, int seat, char *buf, size_t n);
/* Has side every remaining piece revealed (full reveal, MASQ-16)? */
int mq_all_revealed(const MqState *s, int side);

/* ---- movegen.c: moves, legality, announcements, give-up sets --------- */
void mq_sim_move(const MqState *s, const MqMove *m, MqSim *out);
int mq_gen_moves(const Game *g, const MqState *s, int side, int mode,
                 MqMove *out);
/* The seat that must decide in s, ignoring whether it can (-1: over). */
int mq_decider(const MqState *s);
int mq_has_move(const Game *g, const MqState *s);
/* MASQ-7: may the announcer (s->side, announce phase) announce a mask
 * mate on the piece `target`? */
int mq_mask_mate(const Game *g, const MqState *s, int target);
/* Give-up sets of the loser (MASQ-10): every minimal set, appended to out
 * as ACT_GIVEUP of `seat` when out is not NULL; returns their number and
 * the first in *first. */
int mq_giveup_sets(const Game *g, const MqState *s, int seat,
                   ActionList *out, uint64_t *first);
void mq_legal(const Game *g, const void *st, int seat, ActionList *out);
Action mq_move_action(int seat, const MqMove *m);
/* The move of the play phase that action a stands for: 0, or -1. */
int mq_find_move(const Game *g, const MqState *s, const Action *a, MqMove *out);
/* ---- why.c: the rule behind an action (issue 22) ------------------------ */
int mq_why(const Game *g, const void *st, int seat, const Action *a,
           const char *refusal, WhyRule *out);

/* ---- apply.c: actions and their consequences ------------------------- */
/* Apply a legal action (not checked): the perft and the op's core. */
void mq_apply_trusted(const Game *g, MqState *s, const Action *a,
                      const MqMove *m, Events *ev);
int mq_apply(const Game *g, void *st, const Action *a, Events *ev);
void mq_start_play(MqState *s);

/* ---- position.c: position strings ------------------------------------ */
int mq_init(Game *g, void *st, const char *position, Error *e);
void mq_write_position(const Game *g, const void *st, StrBuf *out);
/* Does the reader accept text (as mq_init would, the generator untouched)?
 * 0, or -1 with its message. */
int mq_check_position(const Game *g, const char *text, Error *e);
/* The position as `seat` knows it (VariantOps.known): the position string
 * with the enemy's masked figures written '?', the enemy's castling rights
 * it cannot rule out, no enemy nokings, and `unknown=` listing the enemy's
 * figures that are masked or were removed without reveal (a full army less
 * what was revealed: the public facts), e.g. `unknown=kqrrbbnnpppppppp`,
 * `unknown=-` when none; `removed=N`, how many of the enemy's pieces
 * were removed without reveal. */
void mq_write_known(const Game *g, const void *st, int seat, StrBuf *out);
/* VariantOps.sample: the '?' figures and the `removed=` pieces drawn
 * from `unknown=` at random (nokings when the King is among the removed),
 * castling rights kept where the sample put King and Rook. */
int mq_sample(const char *known, Rng *rng, StrBuf *out, Error *e);

/* ---- edit.c: house-rule edits (HOUSE-5) ------------------------------ */
int mq_edit(const Game *g, void *st, const Edit *ed, Events *ev, Error *e);

/* ---- text.c: parsing and writing actions ----------------------------- */
int mq_parse(const Game *g, const void *st, const ActionList *legal,
             const char *text, Action *out, Error *e);
void mq_format(const Game *g, const void *st, const Action *a, int style,
               StrBuf *out);
int mq_parse_seq(const Game *g, const void *st, int seat, const char *text,
                 ActionList *out, Error *e);
void mq_history_text(const Game *g, const Action *a, const char *text,
                     int seat, StrBuf *out);

/* ---- view.c: what each seat sees, and the result --------------------- */
void mq_view(const Game *g, const void *st, int seat, View *v);
unsigned mq_shown_sides(const Game *g);
void mq_status(const Game *g, const void *st, Status *out);

#endif
