-- Echecs ambigus with the mate rule (AMBI-6's parameter).
rule {
  name = "Ambigus with the mate rule",
  description = "A side whose King is attacked and cannot escape loses " ..
                "at once (AMBI-6).",
  variants = {"ambigus"},
  changes = {
    {area = "end", what = "a side whose King is attacked and cannot escape loses at once", rules = "AMBI-6"},
  },
  params = { mate = true },
}
