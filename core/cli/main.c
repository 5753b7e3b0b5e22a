/*
 * main.c -- the entry point of `chessvar`; everything else is in cli.c.
 *
 * Invariant: main only sets up the process (locale for line editing) and
 * returns cli_main's exit status.
 */
#include <locale.h>

#include "cli.h"

int main(int argc, char **argv)
{
    /* Character classes only: libedit then edits UTF-8 input correctly,
     * while numbers keep reading and printing the C way. */
    setlocale(LC_CTYPE, "");
    return cli_main(argc, argv);
}
