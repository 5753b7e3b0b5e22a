rule { name = "pattern bomb" }
local s = string.rep("a", 30000)
print(s:find("a*a*a*a*a*a*b"))
