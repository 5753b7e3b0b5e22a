-- Issue 20 point 4: the same rule as upvalue_counter.lua with its count
-- kept in the game (game:set): undone, copied and replayed with it.  A
-- table of squares built while loading is read, never written.
local FILES = {a = true}
rule {
    name = "Kept count",
    veto = function(game, action)
        if (game:get("plies") or 0) >= 40 and action.to and FILES[action.to:sub(1, 1)] then
            return "no more moves to the a file"
        end
    end,
    react = function(game, action)
        local n = (game:get("plies") or 0) + 1
        game:set("plies", n)
        if n >= 60 then game:finish({}, "sixty plies") end
    end,
}
