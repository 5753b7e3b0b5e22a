rule { name = "empty rep" }
local s = string.rep("", 1 << 62)
while true do table.move({}, 1, 1 << 40, 1, {}) end
