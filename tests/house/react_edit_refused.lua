-- A reaction that refuses e4 on purpose, by an edit the variant refuses
-- (a King may not be removed: ORTH-1), caught and raised again as atomic
-- explosions are: a refusal of the action, not a failure of the script.
rule {
  name = "No e4 (by a refused edit)",
  react = function(game, action)
    if action.to ~= "e4" then return end
    local ok, err = pcall(game.remove, game, "e1")
    if not ok then error(err, 0) end
  end,
}
