-- Racing Kings (lichess's rules): the first King to reach the eighth rank
-- wins; nobody may give check.  Written as a rule set from parts for the
-- fairy variant (issue 24, docs/FAIRY.md); it agrees with lichess's rules
-- library (chessops) on perft (tests/test_fairy_oracle.c).
--
-- The rules, each the rule-set key that says it:
--   * Both sides start on the first two ranks, side by side, without
--     pawns (start, PART-1); no castling (castling = none).
--   * A move that gives check is illegal, for either side (give_check = no,
--     PART-8); a move into check is illegal too, as in orthodox chess.
--   * A King that reaches the eighth rank wins (goal = K rank 8, PART-9).
--   * Except that when White's King gets there first, Black moves once
--     more: if Black's King can reach the eighth rank on that move too,
--     the game is drawn (goal_reply = yes).  If it cannot, White has won
--     at once.
--   * A side without a move is stalemated: a draw (the default).
rule {
  name = "Racing Kings",
  description = "Race your King to the eighth rank; giving check is not allowed.",
  variants = {"fairy"},
  changes = {
    {area = "board", what = "both sides start on the first two ranks, no pawns", rules = "PART-1"},
    {area = "check", what = "a move may not give check", rules = "PART-8"},
    {area = "end", what = "a King on the eighth rank wins; Black may answer White's to draw",
     rules = "PART-9"},
  },
  ruleset = {
    name = "Racing Kings",
    castling = "none",
    give_check = false,
    goal = "K rank 8",
    goal_reply = true,
    start = "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
  },
}
