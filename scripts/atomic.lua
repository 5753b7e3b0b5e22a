-- Atomic captures: every capture explodes.  The capturing piece and every
-- piece that is not a pawn on the eight squares around the capture square
-- leave the board (the captured piece is gone already).  A King is never
-- removed: when the enemy King stands in the blast the mover wins at once,
-- and a capture that would blow up the mover's own King is forbidden (so a
-- King never captures).
--
-- This is atomic captures on top of orthodox legality, not full atomic
-- chess: moves are generated and checked by orthodox rules (ORTH-6: no
-- move may leave the own King attacked; check, mate, castling through
-- check as in orthodox chess), and the position after the explosion must
-- still be an orthodox one (checked by the edit API): an explosion that
-- would leave the mover's own King attacked, or the opponent in check from
-- three pieces at once, is refused as a whole and the capture with it.
-- Adjacent Kings do not protect each other, and "exploding the enemy King"
-- is a win declared by this rule, not a capture of the King.
-- The (up to) eight squares around each square, made once at load (a
-- veto and a reaction run at every node of a search: they look them up;
-- board is the sandbox's library of squares).
local AROUND = {}
for _, square in ipairs(board.squares(8, 8)) do
  AROUND[square] = board.around(square, 8, 8)
end

local function around(square)
  return AROUND[square]
end

-- Is this candidate (in the position before it) a capture?  A piece of the
-- other side on the target, or a pawn that moves to another file (en
-- passant lands on an empty square).
local function is_capture(game, action)
  local mover = game:piece_at(action.from)
  if not mover then return false end
  local target = game:piece_at(action.to)
  if target then return target.side ~= mover.side end
  return mover.figure == "P" and action.from:sub(1, 1) ~= action.to:sub(1, 1)
end

-- Remove the squares listed, in an order that never passes through a
-- position the variant refuses when the final one is fine: whatever can go
-- goes, and the rest is tried again (a blocker whose removal would expose
-- the King to a piece that is itself in the blast waits for that piece).
local function explode(game, squares)
  local left = squares
  while #left > 0 do
    local again, last_error = {}, nil
    for _, sq in ipairs(left) do
      local ok, err = pcall(game.remove, game, sq)
      if not ok then again[#again + 1] = sq; last_error = err end
    end
    if #again == #left then error(last_error, 0) end
    left = again
  end
end

rule {
  name = "Atomic captures",
  description = "A capture explodes: the capturing piece and every non-pawn "
    .. "piece around the capture square leave the board; an enemy King in the "
    .. "blast loses, a capture that would blow up your own King is forbidden. "
    .. "On top of orthodox legality (check and mate as usual), not full "
    .. "atomic chess.",
  variants = "orthodox",
  changes = {
    {area = "captures", what = "every capture explodes: the capturer and the non-pawn pieces around leave the board", rules = "ORTH-2"},
    {area = "end", what = "an enemy King in the blast wins at once", rules = "ORTH-7"},
    {area = "check", what = "a capture beside your own King is forbidden", rules = "ORTH-6"},
  },
  veto = function(game, action)
    if action.kind ~= "move" or not is_capture(game, action) then return nil end
    local mover = game:piece_at(action.from)
    if mover.figure == "K" then
      return "a King may not capture: the explosion would blow it up"
    end
    for _, sq in ipairs(around(action.to)) do
      local p = game:piece_at(sq)
      if p and p.figure == "K" and p.side == mover.side then
        return "a capture on " .. action.to .. " would blow up your own King on " .. sq
      end
    end
    return nil
  end,
  react = function(game, action)
    if action.kind ~= "move" then return end
    local last = game:history(-1) -- this move's entry alone: O(1) a ply
    if not last or not last.text:find("x", 1, true) then return end
    local mover = game:piece_at(action.to).side
    local blast, king = { action.to }, nil
    for _, sq in ipairs(around(action.to)) do
      local p = game:piece_at(sq)
      if p and p.figure == "K" and p.side ~= mover then
        king = sq
      elseif p and p.figure ~= "P" then
        blast[#blast + 1] = sq
      end
    end
    if king then
      -- The game ends first (what is left may be a draw by material, or
      -- an explosion the variant refuses): the pieces then go as far as
      -- the variant allows.
      game:finish(mover, "the " .. (mover == "white" and "black" or "white")
        .. " King on " .. king .. " was caught in the explosion on " .. action.to)
      pcall(explode, game, blast)
      return
    end
    explode(game, blast)
  end,
}
