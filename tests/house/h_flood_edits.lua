-- issue 20 points 2 and 3: every edit writes a message for each seat into
-- the game's message list, outside the memory cap: a reaction flooding it.
rule { name = "Flood", react = function(game, action)
  for i = 1, 500000 do
    game:remove("a1")
    game:add("a1", "white", "R")
  end
end }
