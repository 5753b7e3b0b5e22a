-- issue 20 point 2: string functions on long strings run in C.
rule { name = "Upper", veto = function(game, action)
  local s = string.rep("x", 500000)
  while true do local u = s:upper() .. s:lower() end
end }
