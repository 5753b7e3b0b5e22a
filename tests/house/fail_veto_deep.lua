-- A veto that works on the game's own position and fails on any position
-- after it: only a search or perft below the game meets the failure
-- (issue 19, point 4).
rule {
  name = "Fails below the game",
  veto = function(game, action)
    if game:move_number() > 1 then error("no veto past move 1") end
  end,
}
