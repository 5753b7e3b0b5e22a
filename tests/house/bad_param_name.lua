rule {
  name = "typo",
  params = { castle = false },
}
