rule { name = "loop in react", react = function(game, action) while true do end end }
