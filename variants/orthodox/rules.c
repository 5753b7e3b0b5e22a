/*
 * rules.c -- the rules of orthodox chess as chessvar plays them,
 * for players: the text `chessvar rules orthodox` (and `rules` in a game)
 * prints.
 *
 * Format (the contract of VariantOps.rules, core/variant.h): plain UTF-8,
 * every line at most 78 columns, no tab, no trailing space, ending with a
 * newline; a title line, a short intro, then the rules in the order and
 * numbering of docs/RULES.md, each starting on its own line
 * with its id ("ORTH-1  ..."), its text indented below.  `{NAME}` stands
 * for the game's current value of parameter NAME: the core expands it and
 * marks a value that differs from the default.  Every parameter tied to
 * a rule appears at least once.  The program's choices where a brief is
 * open come from docs/ (RULES.md, MASQUES.md, AMBIGUS.md).  Checked by
 * tests/test_rules_text.c.
 */

const char orthodox_rules[] =
    "Orthodox chess: the rules as chessvar plays them\n"
    "\n"
    "The standard game, the base every other variant changes. Two players,\n"
    "White and Black, one board. Where a rule has a parameter it reads\n"
    "NAME=VALUE with this game's value (a value changed from the default is\n"
    "marked); choose values when the game starts: --param NAME=VALUE.\n"
    "\n"
    "ORTH-1  Board and setup.\n"
    "    An 8x8 board: files a to h, ranks 1 to 8, a1 a dark square. The\n"
    "    usual start position; White moves first. chessvar play orthodox\n"
    "    --fen POS starts from any possible position written as FEN (the two\n"
    "    move counters may be left out); an impossible one is refused.\n"
    "\n"
    "ORTH-2  Moves.\n"
    "    Rook, bishop and queen slide along their lines until blocked; the\n"
    "    knight jumps; the king steps one square. A pawn moves one square\n"
    "    forward, or two from its start rank through an empty square, and\n"
    "    captures one square diagonally forward.\n"
    "    Type a move in SAN (Nf3, exd5, O-O, e8=Q) or UCI (g1f3, e7e8q);\n"
    "    `legal` lists the moves. An ambiguous move (Nd2 with two knights\n"
    "    able to go) is never guessed: the error lists the candidates.\n"
    "\n"
    "ORTH-3  En passant.\n"
    "    A pawn that has just advanced two squares may be taken by an enemy\n"
    "    pawn as if it had advanced one (exd6 or e5d6), on the very next\n"
    "    move only.\n"
    "\n"
    "ORTH-4  Promotion.\n"
    "    A pawn that reaches the last rank becomes a queen, rook, bishop or\n"
    "    knight, as its player chooses: e8=Q or e7e8q (e8=N, e7e8n ...).\n"
    "\n"
    "ORTH-5  Castling.\n"
    "    King and rook have never moved, the squares between them are empty,\n"
    "    the king is not in check and does not pass through or land on an\n"
    "    attacked square. Type O-O or O-O-O, or the king's move (e1g1); the\n"
    "    king taking its own rook (e1h1) is read as castling too.\n"
    "    castling={castling}: off drops every castling right at the start.\n"
    "\n"
    "ORTH-6  Check.\n"
    "    No move may leave your own king attacked.\n"
    "\n"
    "ORTH-7  Checkmate and stalemate.\n"
    "    A player in check with no legal move is checkmated and loses. A\n"
    "    player not in check with no legal move is stalemated: a draw.\n"
    "\n"
    "ORTH-8  Resignation and draws by agreement.\n"
    "    resign: you lose (a player may resign at any time).\n"
    "    draw: you offer a draw. It stands until the opponent types accept\n"
    "    or decline, or makes a move (which declines it); your own move\n"
    "    keeps it standing.\n"
    "\n"
    "ORTH-9  Repetition, fifty moves, dead positions.\n"
    "    The same position means the same pieces on the same squares, the\n"
    "    same player to move, the same castling rights and the same chance\n"
    "    to take en passant. A \"move\" below is one move of each player.\n"
    "    Draws the player to move may claim by typing `claim`:\n"
    "      threefold={threefold}: the position on the board now has\n"
    "        occurred three times. The move that would repeat is not a\n"
    "        claim: play it; then the opponent may claim, or you may on\n"
    "        your next turn if the position still stands.\n"
    "      fifty_move={fifty_move}: 50 moves without a capture or a\n"
    "        pawn move.\n"
    "    Draws that end the game at once:\n"
    "      fivefold={fivefold}: the position has occurred five times.\n"
    "      seventy_five_move={seventy_five_move}: 75 moves without a\n"
    "        capture or a pawn move (a mate on the last one stands).\n"
    "      insufficient_material={insufficient_material}: no mate is\n"
    "        possible: K v K, K+N v K, K+B v K, or K+B v K+B with both\n"
    "        bishops on squares of one colour. Anything else plays on\n"
    "        (K+N v K+N, for example).\n";
