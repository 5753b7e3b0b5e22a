-- A reaction that fails: the action is undone.
rule {
  name = "Fails on e4",
  react = function(game, action)
    if action.to == "e4" then error("no e4 today") end
  end,
}
