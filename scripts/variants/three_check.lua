-- Three-check (lichess's rules): give check three times and win.  Written
-- as a rule set from parts for the fairy variant (issue 24,
-- docs/FAIRY.md); it agrees with lichess's rules library (chessops) on
-- perft (tests/test_fairy_oracle.c).  (scripts/three_check.lua is the
-- same game as a house rule on orthodox chess.)
-- `--rules scripts/variants/three_check.lua:checks=5` makes it five-check.
--
-- The rules, each the rule-set key that says it:
--   * The side that gives check for the third time wins at once
--     (checks = 3, PART-9); a checkmate still wins before that.
--   * The position string carries the checks each side still needs, White
--     first, as lichess writes it: "3+3" between the en passant square and
--     the half-move clock (lichess's "+0+0", the checks given, is read too).
--   * Everything else as in orthodox chess.
local args = arguments {
  checks = {3, "the checks that win", min = 1, max = 99},
}

rule {
  name = "Three-check",
  description = "Give check three times and win.",
  variants = {"fairy"},
  changes = {
    {area = "end", what = "the third check wins", rules = "PART-9"},
  },
  ruleset = function(a)
    return {
      name = a.checks == 3 and "Three-check" or a.checks .. "-check",
      checks = a.checks,
    }
  end,
}
