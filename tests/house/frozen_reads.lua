-- Issue 20 point 4: what a script builds while it loads is read in its
-- hooks as before it was frozen -- a class with methods, a table with an
-- __index function, a list read by #, ipairs, pairs, next, rawget, rawlen
-- and the table library -- and every way of writing it is refused.
-- tostring, print and string.format name tables and functions by a count
-- within the call, never by an address.
local LIST = {3, 1, 2}
local SQUARES = {a1 = true, h8 = true}
local Pos = {}
Pos.__index = Pos
function Pos.new(x) return setmetatable({x = x}, Pos) end
function Pos:get() return self.x end
local echo = setmetatable({}, {__index = function(t, k) return k .. "!" end})
local function refused(f)
  local ok, err = pcall(f)
  assert(not ok and err:find("made while the script loaded"), tostring(err))
end
rule { name = "Frozen reads", react = function(game, action)
  local p = Pos.new(3)
  assert(p:get() == 3 and getmetatable(p) == Pos and getmetatable(Pos) == nil)
  assert(echo.e4 == "e4!")
  assert(#LIST == 3 and rawlen(LIST) == 3 and rawget(LIST, 1) == 3 and LIST[2] == 1)
  assert(table.concat(LIST, ",") == "3,1,2" and select("#", table.unpack(LIST)) == 3)
  local sum = 0
  for _, v in ipairs(LIST) do sum = sum + v end
  local keys = {}
  for k in pairs(SQUARES) do keys[#keys + 1] = k end
  assert(sum == 6 and table.concat(keys, " ") == "a1 h8" and next(SQUARES) == "a1")
  refused(function() LIST[1] = 0 end)
  refused(function() LIST[4] = 0 end)
  refused(function() rawset(LIST, 1, 0) end)
  refused(function() table.insert(LIST, 4) end)
  refused(function() table.remove(LIST) end)
  refused(function() table.sort(LIST) end)
  refused(function() setmetatable(LIST, nil) end)
  refused(function() Pos.count = 1 end)
  refused(function() string.mine = 1 end)
  assert(LIST[1] == 3 and #LIST == 3 and Pos.count == nil)
  print({}, print, string.format("%s", {}), tostring(Pos))
end }
