-- Issue 20 point 4: a rule that ends the game at the fourth reaction it
-- counts in a file-level local.  Live, the count outlived an undo and
-- the game ended at once; the saved record replayed to a game in play.
local n = 0
rule {
    name = "Upvalue finish",
    react = function(game, action)
        n = n + 1
        if n >= 4 then game:finish({}, "fourth reaction") end
    end,
}
