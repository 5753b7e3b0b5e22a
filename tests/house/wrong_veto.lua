rule { name = "bad veto", veto = function(game, action) return 42 end }
