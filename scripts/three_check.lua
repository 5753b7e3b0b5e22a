-- Three-check: a side that gives check for the third time wins.  Each
-- side's count is kept in the game (game:set), so undo, a refused action
-- and a replayed record keep it exact; each ply reads only its own entry
-- of the history (record texts end in + or #): O(1) a ply.
rule {
  name = "Three-check",
  description = "Give check three times and win.",
  variants = {"orthodox"},
  react = function(game, action)
    local h = game:history(-1)
    if h and h.text:find("[+#]$") then
      local n = (game:get(h.seat) or 0) + 1
      game:set(h.seat, n)
      if n >= 3 then
        game:finish(h.seat, h.seat .. " gave check three times")
      end
    end
  end,
}
