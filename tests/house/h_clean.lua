-- Runs after h_poison.lua: everything must be as the sandbox made it.
rule { name = "victim" }
assert(("x"):rep(3) == "xxx", "string methods poisoned")
assert(string.rep("y", 2) == "yy", "string table poisoned")
assert(string.upper("a") == "A")
assert(type(pairs) == "function" and type(table.insert) == "function")
assert(math.floor(2.5) == 2)
assert(getmetatable("") ~= nil)
