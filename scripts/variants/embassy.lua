-- Embassy chess (Kevin Hill, 2005): Capablanca's pieces on 10x8 in another
-- order, the King on e between the Queen and the chancellor.  Castling: the
-- King goes three squares toward the Rook, to b or h, the Rook to the
-- square beside it on the inside (c or g).  As Fairy-Stockfish's "embassy"
-- (src/variant.cpp: capablanca with castling files b and h and this start).
rule {
  name = "Embassy chess",
  description = "10x8 chess with the archbishop (A) and the chancellor (C); "
             .. "the King castles three squares, to b or h.",
  variants = {"fairy"},
  ruleset = {
    name = "Embassy chess",
    board = "10x8",
    pieces = {"A archbishop BN 8", "C chancellor RN 9"},
    castling = "b h",
    promotion = "QRBNAC",
    start = "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
  },
}
