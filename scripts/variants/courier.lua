-- Courier chess (Germany, 12th century to the 19th): shatranj widened to
-- 12x8.  Besides King, Rooks, Bishops and Knights: the elephant (E, the
-- alfil: leaps two squares diagonally), the fers (F: one square
-- diagonally), the man (M: moves as a King, not royal) and the wazir
-- (W: one square orthogonally); no Queen.  Pawns step one square only (no
-- double step, so no en passant) and promote to a fers on the last rank.
-- No castling.  A side left with its King alone loses, and so does a side
-- stalemated.  (Fairy-Stockfish lets a bare King that can take the other
-- side's last piece at once do so for a draw; a rule set cannot say that,
-- so here a bare King loses at once.  Perft from the start is not touched
-- by it.)  The start has the a, g and l pawns and the g-file fers already
-- advanced, as the traditional opening moves and Fairy-Stockfish's
-- "courier" (src/variant.cpp) have it.
rule {
  name = "Courier chess",
  description = "Medieval 12x8 chess: elephants (E), fers (F), a man (M) and a "
             .. "wazir (W) instead of the Queen; pawns step one square.",
  variants = {"fairy"},
  ruleset = {
    name = "Courier chess",
    board = "12x8",
    pieces = {"E elephant A 2", "F fers F 2", "M man K 3", "W wazir W 2"},
    nopiece = "Q",
    castling = "none",
    double_step = "none",
    promotion = "F",
    stalemate = "loss",
    bare_royal = "loss",
    start = "rnebmk1wbenr/1ppppp1pppp1/6f5/p5p4p/P5P4P/6F5/1PPPPP1PPPP1/RNEBMK1WBENR w - - 0 1",
  },
}
