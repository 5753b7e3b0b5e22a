-- Horde (lichess's rules): White has 36 pawns and no King against Black's
-- usual army.  Written as a rule set from parts for the fairy variant
-- (issue 24, docs/FAIRY.md); it agrees with lichess's rules library
-- (chessops) on perft (tests/test_fairy_oracle.c).
--
-- The rules, each the rule-set key that says it:
--   * White starts with pawns only and has no King: the King stays royal
--     (royal = K, check = yes, the defaults), so Black's King can be
--     checked and mated as in orthodox chess, and White, without a royal
--     piece, can never be in check (PART-5).
--   * Black wins by taking every White piece: a side left with no piece
--     loses (no_pieces = loss, PART-9).  White wins by mating Black.
--   * White's pawns on the first rank may step two squares, as those on
--     the second (double_step = 1 2, PART-3).  A pawn that steps two from
--     the second rank may be taken en passant; lichess lets no pawn take
--     one that stepped two from the first rank (chessops sets no en passant
--     square for it): only double steps from rank 2 give en passant
--     (en_passant = 2, PART-3; horde-en-passant, depth 2, holds it).
--   * Black castles as usual; promotion as in orthodox chess.
rule {
  name = "Horde",
  description = "White's 36 pawns and no King against Black's army: Black takes them all, White mates.",
  variants = {"fairy"},
  changes = {
    {area = "board", what = "White starts with 36 pawns and no King", rules = "PART-1 PART-5"},
    {area = "moves", what = "a pawn on the first rank may step two squares, never taken en passant", rules = "PART-3"},
    {area = "end", what = "a side left with no piece loses", rules = "PART-9"},
  },
  ruleset = {
    name = "Horde",
    double_step = "1 2",
    en_passant = "2",
    no_pieces = "loss",
    start = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
  },
}
