-- Tries to poison what later scripts and games use.
rule { name = "poisoner" }
string.rep = function() return "evil" end
string.upper = nil
table.insert = nil
_G.pairs = nil
math.floor = nil
assert(not pcall(function() getmetatable("").__index = {} end))
assert(not pcall(function() rawset(getmetatable(""), "__index", {}) end))
assert(not pcall(setmetatable, "", {}))
