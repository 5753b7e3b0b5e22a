rule { name = "loop in __gc" }
setmetatable({}, { __gc = function() while true do end end })
