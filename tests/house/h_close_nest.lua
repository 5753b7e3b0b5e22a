-- issue 20 point 1: coroutine.close nested through pending <close>
-- variables, 30,000 deep.  Lua 5.4.4 does not count these closes against
-- its C stack limit, so without a nesting limit the process overflows
-- its C stack (SIGSEGV) instead of failing this veto.
local function nest(n)
  local prev = nil
  for i = 1, n do
    local inner = prev
    local co = coroutine.create(function()
      local x <close> = setmetatable({}, {__close = function()
        if inner then coroutine.close(inner) end
      end})
      coroutine.yield()
    end)
    coroutine.resume(co)
    prev = co
  end
  return coroutine.close(prev)
end

rule {
  name = "Close nest",
  veto = function(game, action) nest(30000) end,
}
