rule { name = "loop in a coroutine" }
local co = coroutine.create(function() while true do end end)
print(coroutine.resume(co))
local w = coroutine.wrap(function() while true do end end)
pcall(w)
