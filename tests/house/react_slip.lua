-- A reaction with a slip: there is no piece on e5 at the start, so p is
-- nil and indexing it fails after every action (issue 19, point 4).
rule {
  name = "Reaction with a slip",
  react = function(game, action)
    local p = game:piece_at("e5")
    return p.figure
  end,
}
