#!/usr/bin/env python3
"""Mate distances along a forced mate: Hexe plays KR v K and KQ v K out
against itself (tablebases off and on, a fixed node count per move, so
each run is the same) and every mate each side reports in its last line
before bestmove is checked: the distance in plies never grows by more than
the plies played since that side's last report, the PV runs to the mate,
the mate never passes the 50-move rule, and the game ends in mate."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine  # noqa: E402

C = Checks("test_mate_distance")
NODES = int(os.environ.get("MATE_NODES", "50000"))


def plies_of(mate):
    return 2 * mate - 1 if mate > 0 else -2 * mate


def play_out(c, fen, tables):
    e = Engine()
    e.handshake()
    e.send("setoption name OwnBook value false")
    e.send("setoption name SyzygyProbeLimit value %d" % (7 if tables else 0))
    e.send("ucinewgame")
    moves, reports, short_pvs, end = [], [], [], None
    for ply in range(100):
        e.send("position fen %s moves %s" % (fen, " ".join(moves)))
        e.send("go nodes %d" % NODES)
        lines = e.expect("bestmove", 60)
        best = lines[-1].split()[1]
        if best == "(none)":
            end = lines
            break
        # The last line before bestmove is the verdict: an exact score
        # (a bound there would be a cut-short iteration's, no verdict).
        final = [l for l in lines if " pv " in l][-1]
        m = re.search(r" score (mate|cp) (-?\d+)( lowerbound| upperbound)?", final)
        pv = final.split(" pv ")[1].split()
        if m and m.group(1) == "mate" and not m.group(3):
            reports.append((ply, int(m.group(2))))
            if len(pv) != plies_of(int(m.group(2))):
                short_pvs.append((ply, m.group(2), pv))
        moves.append(best)
    e.close()
    what = "%s, tables %s" % (fen.split()[0], "on" if tables else "off")
    c.check(end is not None and any("mate 0" in l for l in end), "%s: the game ends in mate (%d plies)"
            % (what, len(moves)))
    c.check(len(reports) >= 4, "%s: mates reported on the way (%s)" % (what, reports))
    c.check(not short_pvs, "%s: each exact mate's PV runs to the mate (%s)" % (what, short_pvs))
    for ply, mate in reports:
        c.check(plies_of(mate) <= 100 - ply, "%s: mate %d at ply %d passes the 50-move rule" % (what, mate, ply))
    for side in (0, 1):  # each side's own reports, one after another
        mine = [r for r in reports if r[0] % 2 == side]
        for (p, m), (q, n) in zip(mine, mine[1:]):
            c.check(plies_of(n) - plies_of(m) <= q - p, "%s: mate %d at ply %d, then mate %d at ply %d: %d plies"
                    " longer after %d played" % (what, m, p, n, q, plies_of(n) - plies_of(m), q - p))


def krk_off(c):
    play_out(c, "8/8/8/4k3/8/8/8/KR6 w - - 0 1", False)


def krk_on(c):
    play_out(c, "8/8/8/4k3/8/8/8/KR6 w - - 0 1", True)


def kqk_off(c):
    play_out(c, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", False)


def kqk_on(c):
    play_out(c, "8/8/8/4k3/8/8/8/KQ6 w - - 0 1", True)


def krk_black_off(c):
    play_out(c, "1r6/8/8/8/3K4/8/8/7k b - - 0 1", False)


SCENARIOS = [krk_off, krk_on, kqk_off, kqk_on, krk_black_off]

if __name__ == "__main__":
    sys.exit(C.run_named(SCENARIOS, sys.argv[1:]))
