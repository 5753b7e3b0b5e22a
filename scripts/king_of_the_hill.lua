-- King of the Hill: a King that reaches one of the four centre squares
-- wins at once (on top of orthodox chess: checkmate still wins too).  A
-- start position with a King already on the hill is won from the start
-- (White's first, should both stand there).
local hill = { d4 = true, d5 = true, e4 = true, e5 = true }

rule {
  name = "King of the Hill",
  description = "Bring your King to d4, d5, e4 or e5 and win at once.",
  variants = {"orthodox"},
  changes = {
    {area = "end", what = "a King on d4, d5, e4 or e5 wins at once", rules = "ORTH-7"},
  },
  react = function(game, action)
    -- the square first: most moves end off the hill, and a reaction runs
    -- at every node of a search
    if action.kind ~= "move" or not hill[action.to] then return end
    local p = game:piece_at(action.to)
    if p and p.figure == "K" then
      game:finish(p.side, p.side .. "'s King reached the hill")
    end
  end,
  start = function(game)
    for _, side in ipairs(game.sides) do
      for _, p in ipairs(game:pieces()) do
        if p.side == side and p.figure == "K" and hill[p.square] then
          game:finish(side, side .. "'s King stands on the hill")
          return
        end
      end
    end
  end,
}
