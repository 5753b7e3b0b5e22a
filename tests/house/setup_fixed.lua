-- Capability 3: a fixed start position.
rule {
  name = "Kings and pawns",
  setup = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
}
