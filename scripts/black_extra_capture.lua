-- Black gets an extra move after each capture: the docs' "write your own
-- schedule" example (docs/HOUSE-RULES.md, "8. Turns").
rule {
  name = "Black's extra move after a capture",
  description = "When Black takes a piece, Black moves again at once.",
  changes = {{area = "turns", what = "Black moves again after a capture"}},
  turn = function(game, t)
    if t.side == "black" and t.capture then return t.made + 1 end
    return 1
  end,
}
