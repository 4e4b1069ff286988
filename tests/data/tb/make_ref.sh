#!/bin/sh
# Regenerates reference.txt (the expected values for tests/test_tb.c) from
# positions.txt with Fathom's command-line prober, /usr/games/fathom (Debian
# package "fathom"). Run once after changing positions.txt; the output is
# kept in git as test data.
#   tests/data/tb/make_ref.sh            tables from $HEXE_TEST_DATA/syzygy
#   HEXE_SYZYGY=DIR FATHOM=PROG tests/data/tb/make_ref.sh
# The tables must hold every position (3-5 pieces; the repository's
# tablebases/ has only the 3-4-piece ones).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
FATHOM=${FATHOM:-/usr/games/fathom}
TB=${HEXE_SYZYGY:-${HEXE_TEST_DATA:-$root/../shared}/syzygy}
out=$here/reference.txt
tmp=$out.tmp

command -v "$FATHOM" >/dev/null 2>&1 || { echo "make_ref.sh: $FATHOM not found (apt-get install fathom)" >&2; exit 1; }
[ -d "$TB" ] || { echo "make_ref.sh: no tablebase directory $TB" >&2; exit 1; }
version=$(dpkg-query -W -f='${Version}' fathom 2>/dev/null || echo unknown)

{
    echo "# Reference values for tests/test_tb.c, written by make_ref.sh with"
    echo "# $FATHOM (fathom $version) on the 3-5-piece Syzygy tables."
    echo "# FEN | WDL | DTZ | winning moves | drawing moves | losing moves | DTZ-probe ranks"
    echo "# WDL and DTZ: Fathom's root probe of the position (halfmove clock counted);"
    echo "# moves in Fathom's SAN; drawing moves include cursed wins and blessed losses;"
    echo "# ranks: tb_probe_root_dtz's tbRank per move (50-move rule on, no repetition)."
    grep -v '^[[:space:]]*#' "$here/positions.txt" | grep -v '^[[:space:]]*$' | while IFS= read -r fen; do
        res=$("$FATHOM" --path="$TB" "$fen") || { echo "make_ref.sh: fathom failed on $fen" >&2; exit 1; }
        tag() { printf '%s\n' "$res" | sed -n "s/^\[$1 \"\(.*\)\"\]\$/\1/p" | sed 's/, / /g'; }
        ranks=$(printf '%s\n' "$res" | awk '/moves returned from DTZ probe/ { on = 1; next }
                                           /moves returned from WDL probe/ { on = 0 }
                                           on && $2 == "rank" { printf "%s%s:%s", sep, $1, $4; sep = " " }')
        printf '%s|%s|%s|%s|%s|%s|%s\n' "$fen" "$(tag WDL)" "$(tag DTZ)" "$(tag WinningMoves)" \
            "$(tag DrawingMoves)" "$(tag LosingMoves)" "$ranks"
    done
} >"$tmp"
mv "$tmp" "$out"
echo "wrote $(grep -vc '^#' "$out") positions to $out"
