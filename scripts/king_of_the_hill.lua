-- King of the Hill: a King that reaches one of the four centre squares
-- wins at once (on top of orthodox chess: checkmate still wins too).
rule {
  name = "King of the Hill",
  description = "Bring your King to d4, d5, e4 or e5 and win at once.",
  variants = {"orthodox"},
  react = function(game, action)
    if action.kind ~= "move" then return end
    local p = game:piece_at(action.to)
    if p and p.figure == "K" and (action.to == "d4" or action.to == "d5" or
                                  action.to == "e4" or action.to == "e5") then
      game:finish(p.side, p.side .. "'s King reached the hill")
    end
  end,
}
