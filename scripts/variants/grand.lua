-- Grand chess (Christian Freeling, 1984): 10x10, the Rooks alone on the
-- first rank, the other pieces on the second with an archbishop (A, bishop
-- + knight, called cardinal) and a chancellor (C, rook + knight, called
-- marshal); pawns on the third rank step two from there.  No castling.  A
-- pawn may promote on the 8th or 9th rank and must on the 10th, and only to
-- a piece its side has lost: at most one Queen, archbishop and chancellor,
-- two Rooks, Bishops and Knights on the board (a pawn that has nothing to
-- become cannot step onto the 10th rank).  As Fairy-Stockfish's "grand"
-- (src/variant.cpp).
rule {
  name = "Grand chess",
  description = "10x10 chess with the archbishop (A) and the chancellor (C); "
             .. "pawns promote on ranks 8 to 10, only to a piece their side has lost.",
  variants = {"fairy"},
  ruleset = {
    name = "Grand chess",
    board = "10x10",
    pieces = {"A archbishop BN 8", "C chancellor RN 9"},
    castling = "none",
    double_step = "3",
    promotion = "QRBNAC",
    promotion_ranks = "8 9 10",
    promotion_limit = "Q1 A1 C1 R2 B2 N2",
    start = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1",
  },
}
