-- Nightrider chess: orthodox chess with the Knights replaced by
-- nightriders (N, Betza NN): a knight's leap repeated in one direction
-- over empty squares, as far as the board goes.  Promotion to the
-- nightrider instead of the Knight.  As Fairy-Stockfish's "nightrider"
-- (src/variant.cpp).
rule {
  name = "Nightrider chess",
  description = "Orthodox chess whose Knights ride: a knight's leap repeated "
             .. "in one line (Betza NN).",
  variants = {"fairy"},
  ruleset = {
    name = "Nightrider chess",
    pieces = {"N nightrider NN 5"},
    promotion = "QRBN",
  },
}
