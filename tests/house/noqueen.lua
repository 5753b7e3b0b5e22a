-- Capability 4: a veto with a reason a person can read.
rule {
  name = "No queen moves before move 5",
  variants = "orthodox",
  veto = function(game, action)
    if action.kind ~= "move" or game:move_number() >= 5 then return nil end
    local p = game:piece_at(action.from)
    if p and p.figure == "Q" then return "no queen moves before move 5" end
  end,
}
