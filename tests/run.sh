#!/bin/sh
# Runs every test: the unit-test binaries (tests/test_*.c), perft over the
# reference suites, and the UCI integration tests (tests/test_*.py) against
# the engine in $HEXE. Ends with the total "N passed, N failed, N skipped".
#
# The data every test needs is in tests/data/ and tablebases/. Larger
# optional data (5-piece Syzygy tables, the large book) is read from
# $HEXE_TEST_DATA, a folder holding syzygy/ and books/; it defaults to
# ../shared beside the checkout when that exists. Without it those checks are
# skipped and counted as skipped (HEXE_TEST_DATA= forces that).
set -u
cd "$(dirname "$0")/.."
HEXE=${HEXE:-./hexe}
BIN=${TEST_BIN:-build/tests}
if [ -z "${HEXE_TEST_DATA+set}" ] && [ -d ../shared ]; then
    HEXE_TEST_DATA=$(cd ../shared && pwd)
fi
HEXE_TEST_DATA=${HEXE_TEST_DATA-}
export HEXE_TEST_DATA
if [ -n "$HEXE_TEST_DATA" ]; then
    echo "optional test data: $HEXE_TEST_DATA"
else
    echo "optional test data: none (set HEXE_TEST_DATA); the checks that need it are skipped"
fi
total_pass=0
total_fail=0
total_skip=0
failed_suites=""

tally() { # name, output file, exit code, start time (date +%s)
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$2" | tail -1)
    p=$(printf '%s' "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed.*/\2/')
    f=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    s=0
    case $line in *" skipped"*) s=$(printf '%s' "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/') ;; esac
    [ -n "$line" ] || { p=0; f=1; }
    [ "$3" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    total_pass=$((total_pass + p))
    total_fail=$((total_fail + f))
    total_skip=$((total_skip + s))
    [ "$f" -ne 0 ] && failed_suites="$failed_suites $1"
    printf '%-28s %-44s %4d s\n' "$1" "${line:-no result (exit $3)}" $(($(date +%s) - $4))
}

mkdir -p tests/out
for t in "$BIN"/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    t0=$(date +%s)
    "$t" >"tests/out/$name.log" 2>&1
    rc=$?
    grep FAIL "tests/out/$name.log" | head -20
    tally "$name" "tests/out/$name.log" $rc "$t0"
done
t0=$(date +%s)
python3 tests/perft.py --engine "$HEXE" >tests/out/perft.log 2>&1
rc=$?
grep FAIL tests/out/perft.log | head -20
tally perft tests/out/perft.log $rc "$t0"
# Suites that test scripts and builds, not the engine binary: the release
# pass runs them; under the sanitizers each counts as one skip.
NOT_SANITIZED="test_build test_cross test_layers test_match_script test_spsa test_sprt_pool"
for t in tests/test_*.py; do
    [ -f "$t" ] || continue
    name=$(basename "$t" .py)
    t0=$(date +%s)
    case " $NOT_SANITIZED " in *" $name "*)
        if [ -n "${HEXE_SANITIZED:-}" ]; then
            echo "$name: 0 passed, 0 failed, 1 skipped (scripts and builds: the release pass runs it)" >"tests/out/$name.log"
            tally "$name" "tests/out/$name.log" 0 "$t0"
            continue
        fi ;;
    esac
    HEXE="$HEXE" python3 "$t" >"tests/out/$name.log" 2>&1
    rc=$?
    grep -E "FAIL|Traceback|Error" "tests/out/$name.log" | head -20
    tally "$name" "tests/out/$name.log" $rc "$t0"
done
[ -n "$failed_suites" ] && echo "failing suites:$failed_suites (logs in tests/out/)"
echo "$total_pass passed, $total_fail failed, $total_skip skipped"
[ "$total_fail" -eq 0 ]
