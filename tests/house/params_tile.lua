-- Capability 1: an enum parameter by string, another by integer (Tile).
rule {
  name = "Tile with 6 pawns, orthogonal",
  variants = "tile",
  params = { pawns = 6, orthogonal_pawns = true },
}
