-- Monster chess: White, with only its King and four pawns, makes two moves
-- a turn against Black's whole army, which makes one.  Each move is a legal
-- orthodox move on its own (TURN-3: White may not step into check on its
-- first move to leave it on its second), and a move that gives check ends
-- White's turn: the check must be answered (TURN-2, ORTH-6).
rule {
  name = "Monster chess",
  description = "White has King and four pawns and moves twice a turn; Black has "
    .. "the whole army and moves once.",
  variants = {"orthodox"},
  setup = "rnbqkbnr/pppppppp/8/8/8/8/2PPPP2/4K3 w kq - 0 1",
  changes = {
    {area = "board", what = "White starts with its King and the pawns c2 to f2 only",
     rules = "ORTH-1"},
    {area = "turns", what = "White makes two moves a turn, Black one; a check ends "
     .. "White's turn"},
  },
  turn = function(game, t)
    if t.side == "white" then return 2 end
    return 1
  end,
}
