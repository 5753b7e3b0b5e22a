rule { name = "setup fails", setup = function(game) error("no position today") end }
