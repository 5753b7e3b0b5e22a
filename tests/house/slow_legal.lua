-- Issue 20 point 2: a veto that is slow but legal (a long loop at every
-- call, well inside the per-call budget): a game's calls together meet a
-- small total time budget (--hook-game-ms), never the default.
rule {
    name = "Slow but legal",
    veto = function(game, action)
        local x = 0
        for i = 1, 400000 do x = x + i end
        if x < 0 then return "never" end
    end,
}
