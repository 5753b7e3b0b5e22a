-- issue 20 point 2: a heap filled to the memory cap, so that allocations
-- keep running full collections.
-- (The heap is the call's own: a table made while loading is read-only.)
rule { name = "Full heap", veto = function(game, action)
  local keep = {}
  while true do
    pcall(function() for i = 1, 1e9 do keep[#keep + 1] = {i} end end)
    for j = 1, 100 do keep[#keep] = nil end
    pcall(function() for k = 1, 1e9 do local t = {k} end end)
  end
end }
