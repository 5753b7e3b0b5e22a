#!/bin/sh
# Check every count of tests/data/perftsuite.epd with the program's own
# perft: `sh tests/data/check_perftsuite.sh [PROGRAM]` (default ./chessvar)
# runs `PROGRAM perft orthodox --fen POS --depth N` for each position and
# depth (4.8 billion leaves: a few minutes), prints each count that differs
# and a last line "perftsuite: N counts checked, N wrong"; exit status 1 if
# any is wrong.  The tests check the counts under their cap at every run.
prog=${1:-./chessvar}
suite=$(dirname "$0")/perftsuite.epd
checked=0; wrong=0
while IFS= read -r line; do
    case $line in *';'*) ;; *) continue ;; esac
    pos=${line%%;*}; pos=${pos% }
    fields=$(printf '%s\n' "${line#*;}" | tr ';' '\n')
    while read -r depth want; do
        got=$("$prog" perft orthodox --fen "$pos" --depth "${depth#D}" | tail -n 1)
        checked=$((checked + 1))
        if [ "$got" != "Nodes searched: $want" ]; then
            echo "$pos $depth: expected $want, got: $got"
            wrong=$((wrong + 1))
        fi
    done <<FIELDS
$fields
FIELDS
done < "$suite"
echo "perftsuite: $checked counts checked, $wrong wrong"
[ "$wrong" -eq 0 ]
