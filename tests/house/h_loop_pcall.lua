rule { name = "loop in pcall" }
while true do pcall(function() while true do end end) end
