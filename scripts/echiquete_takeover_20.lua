-- L'Echiquete: the takeover only from move 20 (ECHQ-9's parameter).
rule {
  name = "Takeover from move 20",
  description = "The merged pieces may be taken over only from full move 20 on.",
  variants = {"echiquete"},
  changes = {
    {area = "turns", what = "the merged pieces may be taken over only from move 20", rules = "ECHQ-9"},
  },
  params = { takeover_from = 20 },
}
