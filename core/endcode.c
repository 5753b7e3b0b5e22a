/*
 * endcode.c -- the words of the end codes (variant.h, EndCode): the
 * `reason_code` of `chessvar run --json` (docs/PROTOCOL.md).
 *
 * Invariant: one word per code, lower case with underscores, never
 * changed once published (programs compare them); a new code appends a
 * word here and a line in docs/PROTOCOL.md.
 */
#include "variant.h"

static const char *const END_CODE_NAMES[END__COUNT] = {
    [END_NONE] = NULL,
    [END_RESIGNATION] = "resignation",
    [END_AGREEMENT] = "agreement",
    [END_THREEFOLD] = "threefold_repetition",
    [END_FIFTY_MOVES] = "fifty_moves",
    [END_HOUSE_RULE] = "house_rule",
    [END_CHECKMATE] = "checkmate",
    [END_STALEMATE] = "stalemate",
    [END_FIVEFOLD] = "fivefold_repetition",
    [END_SEVENTY_FIVE_MOVES] = "seventy_five_moves",
    [END_INSUFFICIENT_MATERIAL] = "insufficient_material",
    [END_KING_CAPTURED] = "king_captured",
    [END_MATE] = "mate",
    [END_NO_SQUARE] = "no_square",
    [END_CHECK_AFTER_REVEAL] = "check_after_reveal",
    [END_ALL_IN] = "all_in",
    [END_MASK_MATE] = "mask_mate",
    [END_FULL_REVEAL] = "full_reveal",
    [END_FULL_REVEAL_BOTH] = "full_reveal_both",
    [END_LAST_SIDE_STANDING] = "last_side_standing",
    [END_MERGED_SIDE_EMPTY] = "merged_side_empty",
    [END_MERGED_MATE] = "merged_mate",
    [END_DUO_MATE] = "duo_mate",
    [END_DUO_MATE_DRAWN] = "duo_mate_drawn",
    [END_PASS_ROUND] = "pass_round",
    [END_LAST_KING] = "last_king",
    [END_CHECKS_GIVEN] = "checks_given",
    [END_GOAL_REACHED] = "goal_reached",
    [END_NO_PIECES] = "no_pieces",
    [END_BARE_ROYAL] = "bare_royal",
};

const char *end_code_name(int code)
{
    return code > END_NONE && code < END__COUNT ? END_CODE_NAMES[code] : NULL;
}
