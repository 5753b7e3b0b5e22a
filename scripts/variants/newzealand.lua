-- New Zealand chess: orthodox chess whose Knights capture as Rooks and
-- Rooks as Knights.  The Knight moves as a Knight but captures along a
-- rook's line (Betza mNcR); the Rook moves as a Rook but captures with a
-- knight's leap (mRcN), and still castles.  As Fairy-Stockfish's
-- "newzealand" (src/variant.cpp).
rule {
  name = "New Zealand chess",
  description = "Knights capture as Rooks, Rooks as Knights.",
  variants = {"fairy"},
  ruleset = {
    name = "New Zealand chess",
    pieces = {"N kniroo mNcR 4", "R rookni mRcN 4"},
  },
}
