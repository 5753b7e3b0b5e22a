-- Capablanca chess (José Raúl Capablanca, 1920s): orthodox chess on 10x8
-- with two more pieces a side, the archbishop (bishop + knight) and the
-- chancellor (rook + knight).  Castling: the King goes three squares, to c
-- or i, the Rook to the square beside it on the inside (d or h).  Pawns
-- step two from their first rank and promote on the last to any piece but
-- the King.  As Fairy-Stockfish's "capablanca" (src/variant.cpp), so its
-- published perft counts hold (tests/data/fairy_perft.txt).
rule {
  name = "Capablanca chess",
  description = "10x8 chess with the archbishop (A, bishop + knight) and the "
             .. "chancellor (C, rook + knight).",
  variants = {"fairy"},
  ruleset = {
    name = "Capablanca chess",
    board = "10x8",
    pieces = {"A archbishop BN 8", "C chancellor RN 9"},
    castling = "c i",
    promotion = "QRBNAC",
    start = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
  },
}
