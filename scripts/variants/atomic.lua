-- Atomic chess (lichess's rules): every capture is an explosion.  Written
-- as a rule set from parts for the fairy variant (issue 24,
-- docs/FAIRY.md); it agrees with lichess's rules library (chessops) on
-- perft (tests/test_fairy_oracle.c).  (scripts/atomic.lua is the older
-- house rule on orthodox chess: atomic captures on top of orthodox
-- legality, which cannot be the whole game.)
--
-- The rules, each the rule-set key that says it:
--   * A capture removes the captured piece, the capturing piece and every
--     piece other than a pawn on the eight squares around the capture
--     square (captures = explode, explode_immune = P, PART-7).  En passant
--     explodes around the square the capturing pawn lands on.
--   * A King may not capture (it would blow itself up).
--   * A move is illegal if its blast removes the mover's own King, or if
--     after it the mover's King is attacked while the enemy King is still
--     on the board: blowing up the enemy King answers any check.
--   * Kings standing next to each other do not attack each other (a King
--     beside the enemy King is never in check), so they may touch.
--   * The side whose King is blown up loses at once; checkmate and
--     stalemate as in orthodox chess (royal = K, check = yes, the defaults).
--   * Castling, pawns and promotion as in orthodox chess.
rule {
  name = "Atomic chess",
  description = "Every capture explodes: the capturer and every piece but pawns around the square go; blow up the enemy King to win.",
  variants = {"fairy"},
  changes = {
    {area = "captures", what = "a capture explodes the capturer and every non-pawn piece around it",
     rules = "PART-7"},
    {area = "check", what = "Kings may touch; blowing up the enemy King answers a check",
     rules = "PART-7"},
    {area = "end", what = "the side whose King is blown up loses", rules = "PART-7"},
  },
  ruleset = {
    name = "Atomic chess",
    captures = "explode",
    explode_immune = "P",
  },
}
