rule {
  name = "wrong type",
  params = { castling = 3 },
}
