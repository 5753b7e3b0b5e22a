-- Marseillais chess: each side makes two moves a turn, except White's first
-- turn, which has one (so White's head start is one move, as in chess).  A
-- move that gives check ends the turn: the check is answered at once.  In
-- orthodox chess the engine ends it by itself (TURN-2: the turn cannot go
-- back to a side whose opponent is in check, ORTH-6); the script says it
-- too, so that it holds in any variant that has check.  With Échecs
-- ambigus (no check, AMBI-4) every turn has its two moves.
rule {
  name = "Marseillais chess",
  description = "Two moves a turn (White's first turn one); a check ends the turn.",
  variants = {"orthodox", "ambigus"},
  changes = {
    {area = "turns", what = "two moves a turn, White's first turn one; a check ends "
     .. "the turn"},
  },
  turn = function(game, t)
    if t.number == 1 then return 1 end
    if t.made > 0 and t.check then return t.made end
    return 2
  end,
}
