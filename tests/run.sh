#!/bin/sh
# Run each test binary given as an argument; print every failure in full and
# one closing line "tests: N passed, N failed" (cmocka's own counts summed).
passed=0; failed=0; broken=""
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n1)
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
    if [ $rc -ne 0 ] || [ -z "$p" ]; then
        printf '%s\n' "$out"
        broken="$broken $(basename "$t")"
        [ -z "$f" ] && failed=$((failed + 1))
    else
        echo "$(basename "$t"): ${p} passed"
    fi
done
echo "tests: $passed passed, $failed failed"
[ -z "$broken" ] || { echo "failing:$broken"; exit 1; }
