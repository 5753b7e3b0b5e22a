-- Values kept in the game (issue 20 points 2 and 4): a count of plies, a
-- flag and the last kind, set in start and react; a move to h3 is
-- refused after the reaction has set them.
rule {
  name = "Kept values",
  start = function(game)
    game:set("plies", 0)
    game:set("flag", true)
    game:set("word", "start")
  end,
  react = function(game, action)
    game:set("plies", game:get("plies") + 1)
    game:set("word", action.kind)
    game:set("flag", nil)
    if action.to == "h3" then error("no h3", 0) end
  end,
}
