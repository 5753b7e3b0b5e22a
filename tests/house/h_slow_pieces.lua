-- issue 20 point 2: game:pieces() is C work per call.
rule { name = "Pieces", veto = function(game, action)
  while true do game:pieces() end
end }
