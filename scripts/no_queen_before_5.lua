-- No queen moves before move 5: neither side may move its Queen in its
-- first four moves (the first eight plies).
rule {
  name = "No queen moves before move 5",
  description = "Neither Queen may move before each side's fifth move.",
  variants = {"orthodox"},
  changes = {
    {area = "moves", what = "no Queen moves in the first four moves of each side", rules = "ORTH-2"},
  },
  veto = function(game, action)
    if action.kind ~= "move" or game:move_number() > 8 then return nil end
    local p = game:piece_at(action.from)
    if p and p.figure == "Q" then return "no queen moves before move 5" end
  end,
}
