-- L'Echiquete: the takeover only from move 20 (ECHQ-9's parameter).
rule {
  name = "Takeover from move 20",
  description = "The merged pieces may be taken over only from full move 20 on.",
  variants = {"echiquete"},
  params = { takeover_from = 20 },
}
