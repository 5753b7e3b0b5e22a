rule { name = "loop in veto", veto = function(game, action) while true do end end }
