-- Chancellor chess (Ben R. Foster, 1887): 9x9 with one more piece a side,
-- the chancellor (C, rook + knight), beside the King.  Castling as in
-- orthodox chess, the King to c or g, the Rook beside it on the inside.
-- Pawns step two from their first rank and promote on the 9th, also to a
-- chancellor.  As Fairy-Stockfish's "chancellor" (src/variant.cpp).
rule {
  name = "Chancellor chess",
  description = "9x9 chess with the chancellor (C, rook + knight).",
  variants = {"fairy"},
  ruleset = {
    name = "Chancellor chess",
    board = "9x9",
    pieces = {"C chancellor RN 9"},
    castling = "c g",
    promotion = "QRBNC",
    start = "rnbqkcnbr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBQKCNBR w KQkq - 0 1",
  },
}
