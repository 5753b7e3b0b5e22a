-- The shipped three_check.lua before issue 20 point 2: it counts the checks
-- over the whole history at every ply (quadratic), kept to compare with.
-- Three-check: a side that gives check for the third time wins.  The
-- count comes from the game's history (record texts end in + or #), so
-- undo and replays stay exact: the script keeps no state of its own.
rule {
  name = "Three-check",
  description = "Give check three times and win.",
  variants = {"orthodox"},
  react = function(game, action)
    local checks = {white = 0, black = 0}
    for i, h in ipairs(game:history()) do
      if h.text:find("[+#]$") then
        checks[h.seat] = checks[h.seat] + 1
      end
    end
    for side, n in pairs(checks) do
      if n >= 3 then
        game:finish(side, side .. " gave check three times")
        return
      end
    end
  end,
}
