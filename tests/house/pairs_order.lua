-- Issue 20 point 4: a rule whose verdicts depend on the order pairs walks
-- a table with string keys.  The first key next gives picks the file no
-- piece may move to, and the keys in pairs' order end the game.
local files = {}
for _, f in ipairs({"a", "b", "c", "d", "e", "f", "g", "h"}) do
    files["file_" .. f] = f
end
rule {
    name = "Pairs order",
    veto = function(game, action)
        local first = next(files)
        if action.to and action.to:sub(1, 1) == files[first] then
            return "nothing moves to the " .. files[first] .. " file"
        end
    end,
    react = function(game, action)
        if #game:history() == 4 then
            local order = ""
            for k in pairs(files) do order = order .. files[k] end
            game:finish({}, "order " .. order)
        end
    end,
}
