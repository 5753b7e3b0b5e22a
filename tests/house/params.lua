-- Capability 1 and 2: parameters by name, the value table by letter.
rule {
  name = "No castling, cheap queens",
  description = "Castling is off and a Queen is worth 9.",
  variants = {"orthodox", "ambigus"},
  params = { castling = false, fivefold = false },
  values = { Q = 9, N = 4 },
}
