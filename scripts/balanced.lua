-- Balanced alternation: the moves go W B B W W B B W W ..., one move for
-- White's first turn and two a turn after it, so neither side is ever more
-- than one move ahead.  No rule on checks beyond the engine's (TURN-2: a
-- move that gives check in orthodox chess ends the turn), so in orthodox
-- chess it plays as Marseillais chess; it is here to show the schedule
-- alone.
rule {
  name = "Balanced alternation",
  description = "Moves in the order W B B W W B B ...: one move for White's first "
    .. "turn, then two a turn.",
  variants = {"orthodox"},
  changes = {
    {area = "turns", what = "the moves go W B B W W B B ... (turn 1 one move, then two)"},
  },
  turn = function(game, t)
    return t.number == 1 and 1 or 2
  end,
}
