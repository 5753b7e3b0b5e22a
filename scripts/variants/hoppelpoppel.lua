-- Hoppel-Poppel (Germany): orthodox chess whose Knights capture as Bishops
-- and Bishops as Knights.  The Knight moves as a Knight but captures
-- along a bishop's line (Betza mNcB); the Bishop moves as a Bishop but
-- captures with a knight's leap (mBcN).  As Fairy-Stockfish's
-- "hoppelpoppel" (src/variant.cpp).
rule {
  name = "Hoppel-Poppel",
  description = "Knights capture as Bishops, Bishops as Knights.",
  variants = {"fairy"},
  ruleset = {
    name = "Hoppel-Poppel",
    pieces = {"N knibis mNcB 3", "B biskni mBcN 3"},
  },
}
