-- Les Echecs Masques with the all-in bid at 31 (MASQ-11's parameter).
rule {
  name = "All-in at 31",
  description = "In a battle's bidding, the all-in bid is 31.",
  variants = {"masques"},
  changes = {
    {area = "end", what = "the all-in bid is 31", rules = "MASQ-11"},
  },
  params = { allin = 31 },
}
