rule { name = "string.rep bomb" }
local s = string.rep("x", 1e9)
