-- Tile Chess with six pawns per side that step only orthogonally
-- (TILE-1 and TILE-5's parameters).
rule {
  name = "Six orthogonal pawns",
  description = "Each side has six pawns, and a pawn steps straight (it " ..
                "still captures diagonally).",
  variants = {"tile"},
  changes = {
    {area = "board", what = "six pawns a side", rules = "TILE-1"},
    {area = "moves", what = "pawns step straight, still capture diagonally", rules = "TILE-5"},
  },
  params = { pawns = "6", orthogonal_pawns = true },
}
