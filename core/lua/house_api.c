/*
 * house_api.c -- the API a house rule sees, as docs/HOUSE-RULES.md
 * documents it, for the reference panel of the house-rule lab (issue 23:
 * `chessvar serve` sends it as GET /api/lab/api).
 *
 * Invariant: the entries say what the docs say, in their words: the "game"
 * rows of the inspection table are that table's rows cell for cell, every
 * other call is written in the docs as it is here, every method the
 * sandbox registers on the game object and every field rule{} reads has
 * its entry, and none is left that the sandbox does not have
 * (tests/test_web_lab.c reads the docs and house.c's lists to hold that).
 */
#include <stddef.h>

#include "house.h"

static const HouseApi API[] = {
    /* rule{...}: docs/HOUSE-RULES.md, "A script" */
    {"rule", "`name`", "required: a short title (one line of text)"},
    {"rule", "`description`", "optional: one paragraph saying what the rule does"},
    {"rule", "`variants`", "optional: where it may be used, a name or a list of names "
                           "(`{\"orthodox\"}`)"},
    {"rule", "`params`", "optional: parameters by name (`{castling = false}`), as "
                         "`chessvar params VARIANT` lists them"},
    {"rule", "`values`", "optional: the value table by figure letter (`{Q = 9}`)"},
    {"rule", "`setup`", "optional: a position in the variant's notation, or a function "
                        "`function(game)` returning one"},
    {"rule", "`veto`", "optional: `function(game, action)`: nil or false allows the "
                       "action, a reason (a string) forbids it"},
    {"rule", "`react`", "optional: `function(game, action)` after each action: may end "
                        "the game or edit the position"},
    {"rule", "`start`", "optional: `function(game)` once on the start position: may end "
                        "the game"},
    {"rule", "`changes`", "optional: what it changes, by area: "
                          "`{{area = \"end\", what = \"...\", rules = \"ORTH-7\"}}`"},
    {"rule", "`ruleset`", "optional: a rule set from parts for the fairy variant: a table of "
                          "the rule set's keys (`{board = \"10x8\", pieces = {\"A archbishop "
                          "BN 8\"}}`), or a function of the script's arguments returning one"},
    {"rule", "`turn`", "optional: `function(game, t)`: the moves of the turn under way, "
                       "`n` (1 to 64) or `{moves = n, duck = true}` (see \"8. Turns\")"},
    /* the game object: the inspection table of "6. Inspection", row by row */
    {"game", "`game.variant`, `game.sides`, `game.seats`", "name; lists of names"},
    {"game", "`game:side_to_move()`, `game:seat_to_act()`", "a name or nil"},
    {"game", "`game:move_number()`",
     "the number of the ply about to be played, from 1: the history's length + 1 (plies, "
     "not chess moves: White's fifth move is ply 9); in a veto below the game in a search, "
     "the ply of the position judged"},
    {"game", "`game:phase()`",
     "where the game stands: `over` once it ended; else orthodox `play`; Échecs ambigus "
     "`name` (a square is to be named) or `choose` (the opponent chooses the piece); "
     "Masqués `setup`, `play`, `announce`, `answer`, `battle`, `bid`, `giveup`; "
     "L'Échiqueté `phase1`, `phase2`; Tile `placement`, `play`"},
    {"game", "`game:history()`",
     "list of `{text=, machine=, seat=, kind=}` (built whole at each call: its cost grows "
     "with the game)"},
    {"game", "`game:history(i)`",
     "entry `i` alone (`-1` the last, `-2` the one before ...), or nil: O(1), for what a "
     "rule reads at every ply"},
    {"game", "`game:get(key)`",
     "this script's value of `key` kept in the game, or nil (see \"Values kept in the "
     "game\")"},
    {"game", "`game:set(key, value)`",
     "keeps `value` in the game (react and start only); nil clears the key"},
    {"game", "`game:pieces()`",
     "list of `{square=, x=, y=, side=, figure=}`, plus `masked=true` (Masqués) and "
     "`merged=true` (Échiqueté, `side` nil while no side commands it)"},
    {"game", "`game:piece_at(square)`",
     "one such table or nil (the tables are read-only, and the same piece on the same "
     "square may be given as the same table)"},
    {"game", "`game:in_check(side)`, `game:over()`", "booleans"},
    {"game", "`game:material(side)`", "sum of the value table over that side's pieces"},
    {"game", "`game:position()`", "the full-truth position string"},
    {"game", "`game:param(name)`", "boolean, integer or choice name"},
    {"game", "`game:legal([side])`",
     "list of the variant's play actions of `side` (default: the one to act) in the position, each `{kind=, from=, to=, figure=, text=}`, before any house rule's veto (see \"Asking about positions\")"},
    {"game", "`game:attackers(square, side)`",
     "list of the squares of `side`'s pieces that have a play action onto `square` (a move or a capture there), with `side` to move"},
    {"game", "`game:after(action)`",
     "the position after the action (its text, `\"e2e4\"`, or an action table) as a read-only game of its own, asked with the same calls (not history, kept values or edits), in this call only"},
    {"game", "`game:size()`",
     "the board's width and height (nothing on an open plane, Tile's)"},
    {"game", "`game:turn()`",
     "the turn under way, `{side=, number=, made=, moves=, left=, duck=}`, or nil without a "
     "schedule (see \"8. Turns\")"},
    /* what a reaction (and start) may do: "5. Reactions", "Editing the position" */
    {"react", "`game:finish(winners, reason)`",
     "ends the game: winners a side name, a list of side names, or `{}`/`nil` for a draw; "
     "the first end declared stands"},
    {"react", "`game:remove(square)`", "in react only: removes the piece there"},
    {"react", "`game:add(square, side, figure [, {masked = true}])`",
     "in react only: adds a piece (figure `\"P\"`..`\"K\"`)"},
    {"react", "`game:change(square, figure)`", "in react only: the piece there becomes "
                                               "another figure, its owner kept"},
    /* the action a veto or reaction is given */
    {"action", "`action`",
     "`{kind=, seat=, from=, to=, figure=, text=}`: kind as `move`, `place`, `reveal`, "
     "`choose`, `pass` ...; text the machine form (`e2e4`); read-only"},
    /* "The sandbox" */
    {"sandbox", "`math.random`", "the game's own seeded generator (`randomseed` is an error)"},
    {"sandbox", "`print`", "writes to the House's log, never to a seat (`chessvar check` "
                           "shows it, and so does the lab)"},
    {"sandbox", "`arguments{...}`", "while loading: declares the script's arguments, "
                                    "`{checks = {3, \"the checks that win\"}}`, and returns "
                                    "their values (`--rules FILE:checks=5`)"},
    {"sandbox", "`board.file(square)`, `board.rank(square)`, `board.square(file, rank)`",
     "a square's file and rank from 1 (`e4`: 5, 4), and back (nil off a 16x16 board)"},
    {"sandbox", "`board.around(square, width, height)`, `board.squares(width, height)`",
     "the up to 8 squares next to a square on a board of that size; every square, rank "
     "by rank from a1"},
    {NULL, NULL, NULL}};

const HouseApi *house_api(int i)
{
    return i >= 0 && i < (int)(sizeof API / sizeof API[0]) && API[i].call ? &API[i] : NULL;
}
