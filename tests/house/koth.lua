-- Capability 5: a reaction that ends the game (King of the Hill).
local hill = { d4 = true, d5 = true, e4 = true, e5 = true }
rule {
  name = "King of the Hill",
  description = "Bring your King to d4, d5, e4 or e5 and win.",
  variants = {"orthodox"},
  react = function(game, action)
    local p = action.to and game:piece_at(action.to)
    if p and p.figure == "K" and hill[p.square] then
      game:finish(p.side, p.side .. " King reached the hill")
    end
  end,
}
