/*
 * rules.c -- the rules of Échecs ambigus as chessvar plays them,
 * for players: the text `chessvar rules ambigus` (and `rules` in a game)
 * prints.
 *
 * Format (the contract of VariantOps.rules, core/variant.h): plain UTF-8,
 * every line at most 78 columns, no tab, no trailing space, ending with a
 * newline; a title line, a short intro, then the rules in the order and
 * numbering of docs/RULES.md, each starting on its own line
 * with its id ("AMBI-1  ..."), its text indented below.  `{NAME}` stands
 * for the game's current value of parameter NAME: the core expands it and
 * marks a value that differs from the default.  Every parameter tied to
 * a rule appears at least once.  The program's choices where a brief is
 * open come from docs/ (RULES.md, MASQUES.md, AMBIGUS.md).  Checked by
 * tests/test_rules_text.c.
 */

const char ambigus_rules[] =
    "Échecs ambigus: the rules as chessvar plays them\n"
    "\n"
    "You choose where; your opponent chooses who. Orthodox chess (see\n"
    "chessvar rules orthodox) on the usual board from the usual start, White\n"
    "first, except as below. A rule's parameter reads NAME=VALUE with this\n"
    "game's value (marked if changed); set it with --param NAME=VALUE.\n"
    "\n"
    "AMBI-1  Naming a square.\n"
    "    On your turn, instead of a move, you name a destination square, empty\n"
    "    or occupied, that at least one of your pieces can reach by a move\n"
    "    (moves as in AMBI-4). Type the square: f3. The info line lists which\n"
    "    squares are ambiguous and which are not.\n"
    "\n"
    "AMBI-2  The opponent chooses the piece.\n"
    "    If only one of your pieces can reach the square (unambiguous), it\n"
    "    goes at once. If several can (ambiguous), your opponent chooses which\n"
    "    one goes, and the move is played: choose g1 (or Ng1, or g1f3).\n"
    "\n"
    "AMBI-3  Promotion.\n"
    "    When a pawn reaches the last rank, its owner's opponent chooses the\n"
    "    new figure: choose b7q (or Pb7=Q). So a square that a single pawn\n"
    "    reaches by promoting is ambiguous too: there are four figures.\n"
    "\n"
    "AMBI-4  No castling, no check: take the King.\n"
    "    There is no castling. A move ignores its own King's safety: a piece\n"
    "    may leave its King attacked, the King may step into an attack. Pawn\n"
    "    double steps and en passant stay. Naming the enemy King's square\n"
    "    wins at once, whichever piece would have gone: nothing is chosen.\n"
    "\n"
    "AMBI-5  No square to name.\n"
    "    A side to move with no square at all to name loses. This is judged\n"
    "    first, with the mate rule on or off.\n"
    "\n"
    "AMBI-6  The mate rule.\n"
    "    mate={mate}: off, a side loses only by losing its King\n"
    "    (AMBI-4) or by AMBI-5. On, a side is doomed if, for every square it\n"
    "    could name, some choice of the opponent (piece, and promotion\n"
    "    figure) leaves its King attacked, so that the opponent could name\n"
    "    the King's square next; a square that takes the enemy King is\n"
    "    always safe. A doomed side whose King is attacked now is mated: it\n"
    "    loses. This gives three ways out of a check: take the single\n"
    "    checking piece, unless another piece of yours that reaches it too\n"
    "    would leave the King exposed; move the King to a safe square that\n"
    "    no other piece of yours reaches; interpose, but not next to the\n"
    "    King, nor where a pinned piece of yours also reaches.\n"
    "    A doomed side whose King is not attacked is stalemated.\n"
    "    stalemate={stalemate}: what a stalemate is for the side that\n"
    "    delivered it: win (the original rule), draw, or loss (the\n"
    "    stalemated side wins).\n"
    "\n"
    "AMBI-7  The clock procedure.\n"
    "    clock={clock}: on, the mover may also type a whole move (Nf3,\n"
    "      g1f3, e7e8q). It names the square and proposes that piece; the\n"
    "      opponent answers keep, or chooses another piece as usual (for a\n"
    "      promotion, another figure too). Same game, same record.\n"
    "\n"
    "Draws and resignation are as in orthodox chess (ORTH-8, ORTH-9): resign,\n"
    "draw, accept, decline; the side about to name a square may claim:\n"
    "  threefold={threefold}: the position has occurred three times;\n"
    "  fifty_move={fifty_move}: 50 moves without a capture or pawn move.\n"
    "The game is drawn at once by:\n"
    "  fivefold={fivefold}: the position has occurred five times;\n"
    "  seventy_five_move={seventy_five_move}: 75 moves without either.\n"
    "A square named and the piece chosen make one move. There is no\n"
    "insufficient-material draw: a lone King can still lose.\n";
