rule {
  name = "broken",
  veto = function(game, action)
    return if
  end,
}
