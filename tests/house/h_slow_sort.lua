-- issue 20 point 2: table.sort runs in C, out of the instruction budget's
-- reach: a veto that sorts a large table (its own) forever.
rule { name = "Slow sort", veto = function(game, action)
  local t = {}
  for i = 1, 200000 do t[i] = (i * 7919) % 200000 end
  while true do table.sort(t); t[1], t[#t] = t[#t], t[1] end
end }
