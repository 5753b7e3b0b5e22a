-- Progressive chess: turn k has k moves (White 1, Black 2, White 3 ...; at
-- most 64, the most a turn may have).  A move that gives check ends the
-- turn (and in orthodox chess the engine ends it anyway, TURN-2), so a
-- side in check answers it with the first move of its turn (TURN-3).
rule {
  name = "Progressive chess",
  description = "Turn k has k moves: White 1, Black 2, White 3 ...; a check ends "
    .. "the turn.",
  variants = {"orthodox"},
  changes = {
    {area = "turns", what = "turn k has k moves (1, 2, 3 ...); a check ends the turn"},
  },
  turn = function(game, t)
    if t.made > 0 and t.check then return t.made end
    return math.min(t.number, 64)
  end,
}
