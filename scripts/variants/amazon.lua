-- Amazon chess: orthodox chess with the Queen replaced by the amazon
-- (A, Betza QN: a Queen that also leaps as a Knight).  Promotion to the
-- amazon, a Rook, a Bishop or a Knight.  As Fairy-Stockfish's "amazon"
-- (src/variant.cpp).
rule {
  name = "Amazon chess",
  description = "The Queen is an amazon (A): Queen and Knight in one.",
  variants = {"fairy"},
  ruleset = {
    name = "Amazon chess",
    pieces = {"A amazon QN 13"},
    nopiece = "Q",
    promotion = "ARBN",
    start = "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1",
  },
}
