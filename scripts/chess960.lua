-- Chess960 (Fischer random chess): the back ranks shuffled from the game's
-- seeded generator under Fischer's two conditions: the bishops on squares
-- of both colours, the King between the Rooks.  The 960 arrangements are
-- equally likely.  Castling follows the start squares only in orthodox
-- chess (the engine's castling rules stay orthodox: with this script the
-- castling rights are dropped unless King and Rooks stand where orthodox
-- castling needs them).
rule {
  name = "Chess960",
  description = "The back ranks are shuffled at random (the bishops on both " ..
                "colours, the King between the Rooks): 960 starts, the same " ..
                "for both sides.",
  variants = {"orthodox"},
  changes = {
    {area = "board", what = "the back ranks are shuffled from the seed (960 starts)", rules = "ORTH-1"},
    {area = "moves", what = "no castling", rules = "ORTH-5"},
  },
  setup = function(game)
    local rank = {}
    local function free()
      local t = {}
      for i = 1, 8 do if not rank[i] then t[#t + 1] = i end end
      return t
    end
    local dark = {1, 3, 5, 7}
    local light = {2, 4, 6, 8}
    rank[dark[math.random(4)]] = "B"
    rank[light[math.random(4)]] = "B"
    local f = free(); rank[f[math.random(#f)]] = "Q"
    f = free(); rank[f[math.random(#f)]] = "N"
    f = free(); rank[f[math.random(#f)]] = "N"
    f = free() -- three squares left: Rook, King, Rook in that order
    rank[f[1]], rank[f[2]], rank[f[3]] = "R", "K", "R"
    local white = table.concat(rank)
    local castle = ""
    if white == "RNBQKBNR" then castle = "KQkq" end
    if castle == "" then castle = "-" end
    return string.lower(white) .. "/pppppppp/8/8/8/8/PPPPPPPP/" .. white ..
           " w " .. castle .. " - 0 1"
  end,
}
