-- Issue 20 point 4: the global counter of global_counter.lua as a
-- file-level local (an upvalue of the hooks): after 40 plies, no moves to
-- the a file.  The count would outlive the game (an experiment's next
-- game, an action taken back, a bot's look-ahead): the change is refused.
local plies = 0
rule {
    name = "Upvalue counter",
    veto = function(game, action)
        if plies >= 40 and action.to and action.to:sub(1, 1) == "a" then
            return "no more moves to the a file"
        end
    end,
    react = function(game, action)
        plies = plies + 1
    end,
}
