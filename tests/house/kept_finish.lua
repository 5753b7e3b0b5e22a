-- Issue 20 point 4: upvalue_finish.lua's rule with its count kept in the
-- game (game:set): an undo takes the count back with the actions, and a
-- saved record replays to the same end.
rule {
    name = "Kept finish",
    react = function(game, action)
        local n = (game:get("n") or 0) + 1
        game:set("n", n)
        if n >= 4 then game:finish({}, "fourth reaction") end
    end,
}
