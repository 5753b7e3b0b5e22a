-- issue 20 point 2: == on two equal long strings compares every byte in C.
rule { name = "Slow ==", veto = function(game, action)
  local a, b = string.rep("x", 1000000), string.rep("x", 999999) .. "x"
  local n = 0
  while a == b do n = n + 1 end
end }
