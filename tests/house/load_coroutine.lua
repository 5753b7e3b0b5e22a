-- Issue 20 point 4: a coroutine made while the script loads counts the
-- plies each time a reaction resumes it: after 40, no moves to the a
-- file.  It cannot be resumed in a hook.
local count = coroutine.create(function()
    local n = 0
    while true do n = n + 1; coroutine.yield(n) end
end)
rule {
    name = "Load-time coroutine",
    react = function(game, action)
        local ok, n = coroutine.resume(count)
        if n >= 40 then game:finish({}, "forty plies") end
    end,
}
