-- Janus chess (Werner Schöndorf, 1978): 10x8 with two janus pieces a side
-- (bishop + knight, the archbishop of Capablanca chess, written J), beside
-- the Rooks.  Castling: the King goes from e to b (three squares) or to i
-- (four squares), the Rook to the square beside it on the inside (c or h).  Promotion to the janus too.  As Fairy-Stockfish's "janus"
-- (src/variant.cpp).
rule {
  name = "Janus chess",
  description = "10x8 chess with two janus pieces a side (J, bishop + knight); "
             .. "the King castles to b or i.",
  variants = {"fairy"},
  ruleset = {
    name = "Janus chess",
    board = "10x8",
    pieces = {"J janus BN 8"},
    castling = "b i",
    promotion = "QRBNJ",
    start = "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w KQkq - 0 1",
  },
}
