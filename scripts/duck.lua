-- Duck chess (chess.com's rules, as Fairy-Stockfish plays them): after each
-- move the mover places the duck on an empty square (TURN-4; the first time
-- anywhere, then anywhere but where it stands).  The duck blocks every
-- piece, belongs to nobody and is never taken.  There is no check: a King
-- may be left attacked, and taking the King wins (check = no, PART-5).  A
-- side with no move wins (stalemate = win, PART-9), as in chess.com's duck
-- chess.
rule {
  name = "Duck chess",
  description = "After each move the mover puts the duck on an empty square; "
    .. "no check: take the King to win.",
  variants = {"fairy"},
  changes = {
    {area = "turns", what = "after each move the mover places the duck, which blocks "
     .. "every piece and is never taken"},
    {area = "check", what = "no check: the King may be left attacked and taken",
     rules = "PART-5"},
    {area = "end", what = "taking the King wins; a side with no move wins",
     rules = "PART-9"},
  },
  ruleset = {
    name = "Duck chess",
    check = false,
    stalemate = "win",
  },
  turn = function(game, t)
    return {moves = 1, duck = true}
  end,
}
