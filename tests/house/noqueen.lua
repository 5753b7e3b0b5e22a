-- Capability 4: a veto with a reason a person can read.  move_number()
-- counts plies (the history's length + 1): >= 5 is the fifth ply on.
rule {
  name = "No queen moves in the first four plies",
  variants = "orthodox",
  veto = function(game, action)
    if action.kind ~= "move" or game:move_number() >= 5 then return nil end
    local p = game:piece_at(action.from)
    if p and p.figure == "Q" then return "no queen moves in the first four plies" end
  end,
}
