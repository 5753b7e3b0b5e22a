-- Capability 6: what a rule script sees, printed to the House's log.
local function s(v) return tostring(v) end
rule {
  name = "Inspector",
  description = "Prints what a rule script can see after each action.",
  react = function(game, action)
    print("variant", game.variant, #game.sides, #game.seats)
    print("action", action.kind, action.seat, s(action.from), s(action.to), s(action.figure), action.text)
    print("turn", s(game:side_to_move()), s(game:seat_to_act()), game:move_number())
    local h = game:history()
    print("history", #h, h[#h].text, h[#h].machine, h[#h].seat, h[#h].kind)
    print("pieces", #game:pieces())
    print("material", game:material(game.sides[1]))
    print("check", s(game:in_check(game.sides[1])), s(game:over()))
    print("position", game:position())
    if action.to then
      local p = game:piece_at(action.to)
      print("at", action.to, s(p and p.side), s(p and p.figure), s(p and p.masked))
    end
    for _, p in ipairs(game:pieces()) do
      if p.masked then print("masked", p.square, p.side, p.figure) end
    end
  end,
}
