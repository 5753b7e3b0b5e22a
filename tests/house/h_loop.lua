rule { name = "loop" }
while true do end
