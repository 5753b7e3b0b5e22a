-- Three-check: a side that gives check for the third time wins.  Each
-- side's count is kept in the game (game:set), so undo, a refused action
-- and a replayed record keep it exact; each ply asks only whether the move
-- left the side to move in check (mate included): O(1) a ply, cheap enough
-- for a search.  `--rules three_check.lua:checks=5` makes it five-check.
local args = arguments {
  checks = {3, "the checks that win", min = 1, max = 99},
}
local TIMES = {"once", "twice", "three times"}

rule {
  name = "Three-check",
  description = "Give check three times and win.",
  variants = {"orthodox"},
  changes = {
    {area = "end", what = "the third check wins", rules = "ORTH-7"},
  },
  react = function(game, action)
    if action.kind ~= "move" then return end
    local checked = game:side_to_move()
    if checked and checked ~= action.seat and game:in_check(checked) then
      local n = (game:get(action.seat) or 0) + 1
      game:set(action.seat, n)
      if n >= args.checks then
        game:finish(action.seat, action.seat .. " gave check "
          .. (TIMES[args.checks] or args.checks .. " times"))
      end
    end
  end,
}
