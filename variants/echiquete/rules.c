/*
 * rules.c -- L'Échiqueté's rules as this program plays them, for players
 * (`chessvar rules echiquete`), numbered as ../shared/rules/echiquete.md.
 *
 * Invariant: lines of at most 78 columns; {NAME} is a parameter's value.
 */
#include "echiquete.h"

const char echiquete_rules[] =
    "L'Échiqueté (Patrick Bernier & Olive Martin)\n"
    "Orthodox pieces, start and moves, except:\n"
    "\n"
    "Phase 1\n"
    "ECHQ-1  A capture fuses capturer and captured into one merged piece (*) on\n"
    "        the square, with the capturer's or the captured's figure, at the\n"
    "        mover's choice (Bxf6=N*, UCI g5f6n).  A pawn capturing onto its last\n"
    "        rank becomes Q, R, B or N (never a pawn).\n"
    "ECHQ-2  Merged pieces belong to the side to move (pawns go its way).\n"
    "ECHQ-3  A merged piece that captures merges again.\n"
    "ECHQ-4  Merged pieces cannot be captured.\n"
    "ECHQ-5  A King's capture removes the captured piece.\n"
    "ECHQ-6  A move ending with a merged piece may not be reversed on the very\n"
    "        next move (noundo={noundo}).\n"
    "ECHQ-7  A pawn captured on its start rank keeps its double step (*P+).\n"
    "        A merged pawn takes a one-coloured pawn en passant.\n"
    "ECHQ-8  No move may leave your King attacked by an enemy or a merged piece;\n"
    "        mate and stalemate end phase 1 at once.\n"
    "\n"
    "Phase 2 (phase2={phase2}, from full move {takeover_from})\n"
    "ECHQ-9  Between moves, a seat not to act may take over the merged pieces\n"
    "        (takeover).  They move next; then white, black after a black move,\n"
    "        black, white after a white move.\n"
    "ECHQ-10 Captures remove the captured piece; a merged capturer may take the\n"
    "        captured figure.\n"
    "ECHQ-11 Merged pawns move and capture both ways, promote on ranks 1 and 8.\n"
    "ECHQ-12 With two seats, the seat that takes over leaves the other seat both\n"
    "        colours.\n"
    "ECHQ-13 Kings are never captured.  Three seats: a mate with a merged\n"
    "        attacker: merged_mate={merged_mate}; a mate by colours alone:\n"
    "        colour_mate={colour_mate} (out: inert obstacles); merged is out with\n"
    "        no piece; the last side standing wins; no legal move and no check:\n"
    "        pass (a full round of passes draws: {pass_round_draw}).  Two seats:\n"
    "        duo_mate={duo_mate}, duo_empty_loses={duo_empty_loses}.\n";
