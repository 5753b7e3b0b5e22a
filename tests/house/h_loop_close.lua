rule { name = "loop in __close" }
local ok = pcall(function()
  local x <close> = setmetatable({}, { __close = function() while true do end end })
end)
