-- Antichess (lichess's rules; also called giveaway or losing chess): lose
-- all your pieces, or be left without a move, and you win.  Written as a
-- rule set from parts for the fairy variant (issue 24, docs/FAIRY.md); it
-- agrees with lichess's rules library (chessops) on perft
-- (tests/test_fairy_oracle.c).
--
-- The rules, each the rule-set key that says it:
--   * The King is an ordinary piece: it may be captured and left attacked,
--     and there is no check or mate (royal = none, PART-5).
--   * No castling (castling = none, PART-4).
--   * A side that can capture must capture; it chooses which capture,
--     en passant included (forced_capture, PART-8).
--   * A pawn may promote to a King too (promotion = QRBNK, PART-3).
--   * A side with no piece left, or with no legal move, wins
--     (no_pieces = win, stalemate = win, PART-9).
--   * Pawns step, double-step from their first rank and take en passant as
--     in orthodox chess (the defaults).
rule {
  name = "Antichess",
  description = "Capturing is compulsory; lose all your pieces or be stalemated to win.",
  variants = {"fairy"},
  changes = {
    {area = "check", what = "the King is an ordinary piece: no check, no mate, it may be taken",
     rules = "PART-5"},
    {area = "captures", what = "a side that can capture must", rules = "PART-8"},
    {area = "moves", what = "no castling; a pawn may promote to a King", rules = "PART-3 PART-4"},
    {area = "end", what = "losing every piece, or having no move, wins", rules = "PART-9"},
  },
  ruleset = {
    name = "Antichess",
    royal = "none",
    castling = "none",
    forced_capture = true,
    promotion = "QRBNK",
    stalemate = "win",
    no_pieces = "win",
    start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
  },
}
