-- King of the Hill (lichess's rules): bring your King to the centre and
-- win.  Written as a rule set from parts for the fairy variant (issue 24,
-- docs/FAIRY.md); it agrees with lichess's rules library (chessops) on
-- perft (tests/test_fairy_oracle.c).  (scripts/king_of_the_hill.lua is the
-- same game as a house rule on orthodox chess.)
--
-- The rules, each the rule-set key that says it:
--   * A King that reaches d4, e4, d5 or e5 wins at once (goal, PART-9);
--     the move must be legal (the King may not step into check there).
--   * Everything else (check, mate, castling, en passant, promotion) as in
--     orthodox chess.
rule {
  name = "King of the Hill",
  description = "Bring your King to one of the four centre squares and win.",
  variants = {"fairy"},
  changes = {
    {area = "end", what = "a King on d4, e4, d5 or e5 wins", rules = "PART-9"},
  },
  ruleset = {
    name = "King of the Hill",
    goal = "K d4 e4 d5 e5",
  },
}
