-- Capability 3: Chess960, drawn from the game's seeded generator.
local function free(row)
  local t = {}
  for i = 1, 8 do if not row[i] then t[#t + 1] = i end end
  return t
end
rule {
  name = "Chess960",
  description = "The back rank is shuffled: bishops on opposite colours, the King between the Rooks.",
  variants = "orthodox",
  params = { castling = false },
  setup = function(game)
    local row = {}
    row[2 * math.random(1, 4) - 1] = "b"   -- a dark square (a, c, e, g)
    row[2 * math.random(1, 4)] = "b"       -- a light one (b, d, f, h)
    local f = free(row); row[f[math.random(#f)]] = "q"
    f = free(row); row[f[math.random(#f)]] = "n"
    f = free(row); row[f[math.random(#f)]] = "n"
    f = free(row); row[f[1]] = "r"; row[f[2]] = "k"; row[f[3]] = "r"
    local black = table.concat(row)
    return black .. "/pppppppp/8/8/8/8/PPPPPPPP/" .. black:upper() .. " w - - 0 1"
  end,
}
