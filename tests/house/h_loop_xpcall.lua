rule { name = "loop in an error handler" }
xpcall(function() error("x") end, function(m) while true do end end)
