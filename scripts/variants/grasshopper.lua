-- Grasshopper chess (Joseph Boyer, 1950s): orthodox chess with a row of
-- grasshoppers (G, Betza gQ) in front of the pawns' usual rank, the pawns
-- one rank further up and without a double step.  A grasshopper moves
-- along a queen's line, jumps the first piece it meets (of either side)
-- and lands on the square right behind it, capturing what stands there.
-- Promotion to the grasshopper too.  As Fairy-Stockfish's "grasshopper"
-- (src/variant.cpp).
rule {
  name = "Grasshopper chess",
  description = "Orthodox chess with a row of grasshoppers (G: over the first "
             .. "piece on a queen's line, to the square behind it).",
  variants = {"fairy"},
  ruleset = {
    name = "Grasshopper chess",
    pieces = {"G grasshopper gQ 2"},
    double_step = "none",
    promotion = "QRBNG",
    start = "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1",
  },
}
