-- Double-move chess: every turn has two moves, White's first turn too.  A
-- move that gives check ends the turn (TURN-2: the check is answered).
rule {
  name = "Double-move chess",
  description = "Each side makes two moves a turn, from White's first turn on.",
  variants = {"orthodox"},
  changes = {
    {area = "turns", what = "two moves every turn, White's first turn too"},
  },
  turn = function(game, t)
    return 2
  end,
}
