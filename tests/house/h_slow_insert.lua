-- issue 20 point 2: table.insert at the front shifts every element in C.
rule { name = "Insert", veto = function(game, action)
  local t = {}
  while true do table.insert(t, 1, #t) end
end }
