-- Issue 20 point 4: a table built while the script loads, appended to by
-- a reaction: after 40 plies, no moves to the a file.  The table is
-- read-only in a hook.
local seen = {}
rule {
    name = "Loaded table",
    veto = function(game, action)
        if #seen >= 40 and action.to and action.to:sub(1, 1) == "a" then
            return "no more moves to the a file"
        end
    end,
    react = function(game, action)
        seen[#seen + 1] = action.to
    end,
}
