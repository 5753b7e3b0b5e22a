-- Modern chess (Gabriel Vicente Maura, 1968): 9x9 with one more piece a
-- side, the minister (M, bishop + knight), beside the King: white's on d,
-- black's on f, so the two Queens do not face each other.  Castling as in
-- orthodox chess, the King to c or g, the Rook beside it on the inside.
-- Pawns step two from their first rank and promote on the 9th, also to a
-- minister.  As Fairy-Stockfish's "modern" (src/variant.cpp).
rule {
  name = "Modern chess",
  description = "9x9 chess with the minister (M, bishop + knight).",
  variants = {"fairy"},
  ruleset = {
    name = "Modern chess",
    board = "9x9",
    pieces = {"M minister BN 8"},
    castling = "c g",
    promotion = "QRBNM",
    start = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1",
  },
}
