rule { name = "table growth" }
local t, i = {}, 0
while true do i = i + 1; t[i] = { i, ("x"):rep(1000) .. i } end
