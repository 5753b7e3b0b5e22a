-- A test rule set (tests/test_fairy_fs.c): orthodox chess whose Queen is
-- Fairy-Stockfish's maharajah piece "QNAD" (variants.ini, maharajah2): a
-- Queen that also leaps as a Knight, an alfil (two squares diagonally) and
-- a dabbaba (two squares straight).  The alfil and dabbaba leaps reach
-- squares the Queen's own lines reach too: a move to such a square is one
-- move, not two.  Its counts were made by ffish with this variant:
--   [qnad:chess]
--   queen = -
--   customPiece1 = m:QNAD
--   promotionPieceTypes = mrbn
--   startFen = rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1
rule {
  name = "QNAD chess",
  variants = {"fairy"},
  ruleset = {
    pieces = {"M maharajah QNAD 14"},
    nopiece = "Q",
    promotion = "MRBN",
    start = "rnbmkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1",
  },
}
