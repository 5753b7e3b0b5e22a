#!/bin/sh
# run.sh -- sampled mutation testing of the rule code (variants/*/*.c but
# rules.c, and core/game.c): for each file, N one-line mutants (operator
# swaps, 0/1 swaps, a negated or dropped if) chosen by a seed; each is
# built on a copy of the tree and the file's fast tests run against it.
#
#   tests/mutation/run.sh [-n N] [-s SEED] [-j JOBS] [-t SECONDS] [-o DIR] [-S] [-l] [FILE...]
#
#   -n N        mutants tried per file (default 10; 0: every site)
#   -s SEED     the sample (default 1); same seed, same files: same mutants
#   -j JOBS     parallel workers, each with its own copy (default: nproc)
#   -t SECONDS  time limit of one test binary (default 30)
#   -o DIR      where results go (default: a new temp dir); DIR/summary.txt
#               holds the table and DIR/survivors.diff the survivors
#   -S          build with SANITIZE=address,undefined (slower; also kills
#               mutants whose only effect is undefined behaviour)
#   -l          only list the chosen mutants, build nothing
#   FILE...     files relative to the tree (default: all the rule code)
#   MUT_TESTS   environment: test binaries to run instead of the defaults
#               (names like "test_masques test_gaps")
#
# A mutant is "killed" when a test binary fails, "timeout" when one runs
# over the limit (and none failed), "survived" when all pass; mutants that
# do not compile (-Werror included) are counted apart and not judged.
#
# Invariant: the worktree is only read.  Every build happens in copies
# under a temp dir (removed at the end); the unmutated copy must pass its
# tests first, or the run stops.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
per_file=10; seed=1; jobs=$(nproc 2>/dev/null || echo 2); limit=30; out=""; list_only=0; san=""
while getopts n:s:j:t:o:Slh opt; do
    case $opt in
    n) per_file=$OPTARG ;;
    s) seed=$OPTARG ;;
    j) jobs=$OPTARG ;;
    t) limit=$OPTARG ;;
    o) out=$OPTARG ;;
    S) san=address,undefined ;;
    l) list_only=1 ;;
    *) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
cd "$root"
if [ $# -eq 0 ]; then
    set -- $(ls variants/*/*.c | grep -v '/rules\.c$') core/game.c
fi
for f in "$@"; do
    [ -f "$f" ] || { echo "run.sh: no file $f in $root" >&2; exit 2; }
done
if [ -n "$san" ]; then bdir=build-san; prog=build-san/chessvar; else bdir=build; prog=chessvar; fi

# The fast tests that judge a file (test binaries under build/tests/).
tests_for() {
    if [ -n "${MUT_TESTS:-}" ]; then echo "$MUT_TESTS"; return; fi
    gaps=$(cd "$tmp/w1/tests" && ls test_*gaps*.c 2>/dev/null | sed 's/\.c$//' | tr '\n' ' ')
    case $1 in
    variants/orthodox/*) t="test_orthodox test_fen test_notation test_perft test_ambigus" ;;
    variants/masques/*)  t="test_masques test_masques_golden test_masques_players test_masques_perft" ;;
    variants/ambigus/*)  t="test_ambigus test_ambigus_perft" ;;
    *)                   t="test_core test_orthodox test_masques test_ambigus" ;;
    esac
    echo "$t test_record test_rules_text test_cli $gaps"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/chessvar-mut.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# The plan: one file per mutant, "FILE<TAB>LINE<TAB>OP" then the new line.
mkdir -p "$tmp/plan"
id=0
for f in "$@"; do
    awk -v seed="$seed" -v n="$per_file" -f "$here/sites.awk" "$f" > "$tmp/sites"
    while IFS= read -r site; do
        id=$((id + 1))
        line=$(printf '%s\n' "$site" | cut -f1)
        op=$(printf '%s\n' "$site" | cut -f2)
        printf '%s\t%s\t%s\n' "$f" "$line" "$op" > "$tmp/plan/$id"
        printf '%s\n' "$site" | cut -f3- >> "$tmp/plan/$id"
    done < "$tmp/sites"
done
total=$id
if [ $list_only -eq 1 ]; then
    i=1
    while [ $i -le "$total" ]; do
        head -n1 "$tmp/plan/$i" | tr '\t' ' '; sed -n 2p "$tmp/plan/$i"; i=$((i + 1))
    done
    exit 0
fi
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/chessvar-mut-out.XXXXXX")
mkdir -p "$out"
echo "run.sh: $total mutants over $# files, seed $seed, $jobs workers, tests time out at ${limit}s${san:+, sanitizers $san}"

# One copy of the tree, built and checked unmutated, then one per worker.
mkdir -p "$tmp/w1"
tar -C "$root" --exclude=./.git --exclude=./build --exclude=./build-san \
    --exclude=./chessvar -cf - . | tar -C "$tmp/w1" -xf -
all_tests=$(for f in "$@"; do tests_for "$f"; done | tr ' ' '\n' | sort -u | grep . | tr '\n' ' ')
targets() { for t in $1; do printf '%s/tests/%s ' "$bdir" "$t"; done; echo "$prog"; }
(cd "$tmp/w1" && make -s SANITIZE="$san" $(targets "$all_tests") > "$tmp/base.log" 2>&1) ||
    { cat "$tmp/base.log"; echo "run.sh: the unmutated tree does not build" >&2; exit 1; }

# run_tests DIR "TESTS": 0 all pass, 1 one failed (name in DIR/.killer), 2 timeout.
run_tests() {
    rc=0
    for t in $2; do
        ( cd "$1" && CHESSVAR="$1/$prog" timeout "$limit" "$bdir/tests/$t" ) \
            > "$1/.testlog" 2>&1 && continue
        code=$?
        echo "$t" > "$1/.killer"
        [ $code -eq 124 ] && rc=2 || rc=1
        [ $rc -eq 1 ] && return 1
    done
    return $rc
}
run_tests "$tmp/w1" "$all_tests" ||
    { cat "$tmp/w1/.testlog"; echo "run.sh: the unmutated tree fails $(cat "$tmp/w1/.killer")" >&2; exit 1; }
k=2
while [ $k -le "$jobs" ]; do cp -a "$tmp/w1" "$tmp/w$k"; k=$((k + 1)); done

# worker K: mutants K, K+JOBS, ... ; one result line each in $tmp/res.K
worker() {
    w="$tmp/w$1"; i=$1
    : > "$tmp/res.$1"
    while [ $i -le "$total" ]; do
        IFS='	' read -r f line op < "$tmp/plan/$i"
        sed -n 2p "$tmp/plan/$i" > "$w/.newline"
        awk -v ln="$line" -v nf="$w/.newline" \
            'NR == ln { getline repl < nf; print repl; next } { print }' \
            "$root/$f" > "$w/$f"
        tests=$(tests_for "$f")
        rm -f "$w/.killer"
        if ! (cd "$w" && make -s SANITIZE="$san" $(targets "$tests") > "$w/.buildlog" 2>&1); then
            result=nocompile
        elif run_tests "$w" "$tests"; then
            result=survived
        elif [ $? -eq 2 ]; then
            result=timeout
        else
            result=killed
        fi
        killer=$(cat "$w/.killer" 2>/dev/null || echo -)
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$f" "$line" "$op" "$result" "$killer" >> "$tmp/res.$1"
        cp "$root/$f" "$w/$f"
        i=$((i + jobs))
    done
}
k=1
# (a test binary that crashes is reported by the shell: that goes to a log)
while [ $k -le "$jobs" ]; do worker $k 2>> "$tmp/workers.log" & k=$((k + 1)); done
wait

cat "$tmp"/res.* | sort -n > "$out/results.tsv"
{
    printf '%-28s %5s %5s %6s %7s %8s %6s\n' file tried build killed timeout survived score
    for f in "$@"; do
        awk -F'\t' -v f="$f" '$2 == f { n++; c[$5]++ }
            END { j = c["killed"] + c["timeout"] + c["survived"]
                  printf "%-28s %5d %5d %6d %7d %8d %5s%%\n", f, n, j, c["killed"],
                         c["timeout"], c["survived"], j ? int(100 * (c["killed"] + c["timeout"]) / j + 0.5) : "-" }' \
            "$out/results.tsv"
    done
    awk -F'\t' '{ n++; c[$5]++ }
        END { j = c["killed"] + c["timeout"] + c["survived"]
              printf "%-28s %5d %5d %6d %7d %8d %5s%%\n", "total", n, j, c["killed"],
                     c["timeout"], c["survived"], j ? int(100 * (c["killed"] + c["timeout"]) / j + 0.5) : "-" }' \
        "$out/results.tsv"
    echo "(tried: mutants made; build: those that compiled; score: (killed+timeout)/build)"
} > "$out/summary.txt"

# The survivors as unified one-line diffs.
: > "$out/survivors.diff"
awk -F'\t' '$5 == "survived" { print $1 }' "$out/results.tsv" | while read -r i; do
    IFS='	' read -r f line op < "$tmp/plan/$i"
    {
        echo "# mutant $i ($op)"
        echo "--- a/$f"
        echo "+++ b/$f"
        echo "@@ -$line +$line @@"
        sed -n "${line}p" "$root/$f" | sed 's/^/-/'
        sed -n 2p "$tmp/plan/$i" | sed 's/^/+/'
    } >> "$out/survivors.diff"
done
cat "$out/summary.txt"
echo
cat "$out/survivors.diff"
echo "run.sh: results in $out"
