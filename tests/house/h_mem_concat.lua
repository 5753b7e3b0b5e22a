rule { name = "concatenation bomb" }
local s = "x"
while true do s = s .. s end
