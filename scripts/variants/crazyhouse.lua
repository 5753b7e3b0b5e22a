-- Crazyhouse (lichess's rules): a captured piece changes sides and may be
-- dropped back onto the board.  Written as a rule set from parts for the
-- fairy variant (issue 24, docs/FAIRY.md); it agrees with lichess's rules
-- library (chessops) on perft (tests/test_fairy_oracle.c).
--
-- The rules, each the rule-set key that says it:
--   * A captured piece goes to the capturer's hand, in the capturer's
--     colour; a promoted piece goes back as a pawn (hands = yes, PART-6).
--     The position string shows the hands after the board, [QNqn], and a
--     promoted piece with ~ (Q~).
--   * Instead of moving, a side may drop a piece from its hand on any empty
--     square, as an action of its own (N@f3); a drop may give check and
--     even mate, and a drop may block a check.
--   * Pawns may not be dropped on the first or last rank
--     (pawn_drop_ranks = 2..7, the default, PART-6).
--   * Everything else (check, mate, castling, en passant, promotion) as in
--     orthodox chess.
rule {
  name = "Crazyhouse",
  description = "Captured pieces change sides and may be dropped back on the board as a move.",
  variants = {"fairy"},
  changes = {
    {area = "captures", what = "a captured piece goes to the capturer's hand (a promoted one as a pawn)",
     rules = "PART-6"},
    {area = "moves", what = "a piece in hand may be dropped on an empty square, pawns not on the first or last rank",
     rules = "PART-6"},
  },
  ruleset = {
    name = "Crazyhouse",
    hands = true,
    pawn_drop_ranks = "2 3 4 5 6 7",
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
  },
}
