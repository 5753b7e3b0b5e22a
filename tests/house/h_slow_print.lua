-- issue 20 point 2: print once the log is full.
rule { name = "Print", veto = function(game, action)
  local t = {}
  for i = 1, 100000 do t[i] = "x" end
  while true do print(table.unpack(t)) end
end }
