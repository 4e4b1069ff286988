#!/usr/bin/env python3
"""scripts/sprt-pool gives, for pooled pentanomial counts, the figures that
fastchess (1.8.2-alpha, 74deac23) printed for the same counts in this
project's SPRTs; it sums runs given as counts, as fastchess logs or as
PGNs (counted in complete pairs), reaches both verdicts, and refuses input
it cannot read with exit 2. With --watch it reads a growing PGN again until
a verdict, then interrupts the match, and stops when the match has ended."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
POOL = os.path.join(ROOT, "scripts", "sprt-pool")
C = Checks("test_sprt_pool")

# Ptnml(0-2) -> (Elo, +/-, LLR) as fastchess printed them, SPRT [0, 10], alpha = beta = 0.05
# (the last one as the project's notes recorded it, to one decimal).
FASTCHESS = {
    (46, 154, 241, 184, 65): ("17.13", "13.78", "2.03"),
    (7, 43, 85, 60, 5): ("11.30", "20.91", "0.44"),
    (7, 39, 81, 58, 5): ("13.72", "21.55", "0.54"),
    (42, 81, 95, 71, 21): ("-29.2", "22.0", "-2.12"),
}


def same(got, want):
    """got, the script's figures, printed to the digits of want, fastchess's."""
    return got is not None and all("%.*f" % (len(w.split(".")[1]), g) == w for g, w in zip(got, want))


def pool(*args):
    r = subprocess.run([POOL, *args], capture_output=True, text=True, timeout=60)
    m = re.search(r"Elo: (-?[\d.]+) \+/- ([\d.]+),.*\nLLR: (-?[\d.]+) .*: (.*)", r.stdout)
    return r, (tuple(float(x) for x in m.groups()[:3]), m.group(4)) if m else (None, None)


def write_pairs(path, counts):
    """A PGN of pairs for "new" scoring 0, 0.5, 1, 1.5 and 2 points, counts[i] of each."""
    pair = {0: ("0-1", "1-0"), 1: ("0-1", "1/2-1/2"), 2: ("1/2-1/2", "1/2-1/2"),
            3: ("1-0", "1/2-1/2"), 4: ("1-0", "0-1")}  # (new as White, new as Black)
    rnd = 0
    with open(path + ".part", "w") as f:
        for score, n in enumerate(counts):
            for _ in range(n):
                rnd += 1
                for white, black, result in (("new", "old", pair[score][0]), ("old", "new", pair[score][1])):
                    f.write('[Event "Fastchess Tournament"]\n[Round "%d"]\n[White "%s"]\n[Black "%s"]\n'
                            '[Result "%s"]\n\n%s\n\n' % (rnd, white, black, result, result))
    os.replace(path + ".part", path)


def watching(c, tmp):
    """--watch: a run still being played is read again until the pooled verdict, and the
    match is then interrupted; a match that ends first ends the watch."""
    pgn = os.path.join(tmp, "growing.pgn")
    # The match stands in for fastchess, which handles SIGINT itself (a plain sleep would
    # inherit SIGINT ignored when the tests run in the background of a shell script).
    match = subprocess.Popen([sys.executable, "-c", "import signal, sys, time\n"
                              "signal.signal(signal.SIGINT, lambda *a: sys.exit(130))\ntime.sleep(60)"])
    prior = "3,20,50,25,5"
    r, (_, verdict) = pool(prior)
    c.check(verdict == "continue", "the prior alone is undecided: %s" % verdict)
    w = subprocess.Popen([POOL, "--watch", str(match.pid), "--every", "0.2", prior, pgn],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    c.check(w.poll() is None and match.poll() is None, "no verdict yet: the watch and the match go on")
    write_pairs(pgn, [2, 10, 40, 50, 25])
    try:
        out, err = w.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        w.kill()
        out, err = w.communicate()
    try:
        code = match.wait(timeout=10)
    except subprocess.TimeoutExpired:
        match.kill()
        code = None
    c.check(w.returncode == 0 and "Ptnml(0-2): [5, 30, 90, 75, 30]" in out and "H1 accepted" in out
            and "SIGINT sent to %d" % match.pid in out,
            "the grown PGN pooled gives H1: %s%s" % (out[-300:], err[-200:]))
    c.check(code == 130, "the match was interrupted with SIGINT: exit %s" % code)

    match = subprocess.Popen(["sleep", "1"])
    w = subprocess.run([POOL, "--watch", str(match.pid), "--every", "0.2", prior], capture_output=True,
                       text=True, timeout=30)
    match.wait()
    c.check(w.returncode == 0 and "ended without a verdict" in w.stdout and "continue" in w.stdout,
            "a match that ends undecided ends the watch: %s%s" % (w.stdout[-200:], w.stderr[-200:]))
    r = subprocess.run([POOL, "--watch", str(match.pid), prior], capture_output=True, text=True, timeout=30)
    c.check(r.returncode == 2 and "--watch" in r.stderr, "a process that has ended cannot be watched: %d %s"
            % (r.returncode, r.stderr[-120:]))
    match = subprocess.Popen(["sleep", "30"])
    r = subprocess.run([POOL, "--watch", str(match.pid), "1,2,3", pgn], capture_output=True, text=True, timeout=30)
    match.kill()
    match.wait()
    c.check(r.returncode == 2 and "sprt-pool" in r.stderr, "bad counts are refused before watching: %d %s"
            % (r.returncode, r.stderr[-120:]))


def main(c):
    for counts, want in FASTCHESS.items():
        r, (got, _) = pool(",".join(map(str, counts)))
        c.check(r.returncode == 0 and same(got, want), "%s: fastchess printed %s, got %s %s"
                % (list(counts), want, got, r.stderr[-200:]))

    # Runs are summed: two parts give the figures of their sum, in either form.
    r, (got, _) = pool("7,39,81,58,5", "[39, 115, 160, 126, 60]")
    c.check(same(got, FASTCHESS[(46, 154, 241, 184, 65)]), "two runs pool to their sum: %s" % (got,))

    tmp = temp_dir("hexe-sprt-pool-")
    log = os.path.join(tmp, "match.log")
    with open(log, "w") as f:
        f.write("Results of new vs old (10+0.1, 1t, 16MB, balanced-2000.epd):\n"
                "Ptnml(0-2): [1, 2, 3, 4, 5], WL/DD Ratio: 0.50\n"
                "Results of new vs old (10+0.1, 1t, 16MB, balanced-2000.epd):\n"
                "Ptnml(0-2): [7, 39, 81, 58, 5], WL/DD Ratio: 0.42\n")
    r, (got, _) = pool(log)
    c.check(same(got, FASTCHESS[(7, 39, 81, 58, 5)]), "a fastchess log gives its last Ptnml line: %s" % (got,))

    # A PGN counts complete pairs (games sharing a Round tag) for --engine: rounds 1-5 are
    # 1.5, 0, 1.5, 1 and 2 points for "new"; round 6 lacks its second game and round 7
    # is unfinished, so both are left out; another match's games are ignored.
    games = [(1, "new", "old", "1-0"), (1, "old", "new", "1/2-1/2"),
             (2, "old", "new", "1-0"), (2, "new", "old", "0-1"),
             (3, "new", "old", "1/2-1/2"), (3, "old", "new", "0-1"),
             (4, "old", "new", "1/2-1/2"), (4, "new", "old", "1/2-1/2"),
             (5, "new", "old", "1-0"), (5, "old", "new", "0-1"),
             (6, "new", "old", "1-0"), (7, "new", "old", "1-0"), (7, "old", "new", "*"),
             (8, "hexe", "other", "1-0"), (8, "other", "hexe", "1-0")]
    pgn = os.path.join(tmp, "match.pgn")
    with open(pgn, "w") as f:
        for rnd, white, black, result in games:
            f.write('[Event "Fastchess Tournament"]\n[Round "%d"]\n[White "%s"]\n[Black "%s"]\n'
                    '[Result "%s"]\n\n1. e4 e5 %s\n\n' % (rnd, white, black, result, result))
    for engine, want in (("new", [1, 0, 1, 2, 1]), ("old", [1, 2, 1, 0, 1])):
        r = subprocess.run([POOL, "--engine", engine, pgn], capture_output=True, text=True, timeout=60)
        c.check(r.returncode == 0 and "Ptnml(0-2): %s" % want in r.stdout,
                "a PGN gives the complete pairs of %s, %s: %s%s" % (engine, want, r.stdout, r.stderr[-200:]))
    r, (got, _) = pool(pgn, "6,39,80,56,4")
    c.check(same(got, FASTCHESS[(7, 39, 81, 58, 5)]), "a PGN pools with counts: %s" % (got,))

    r, (_, verdict) = pool("10,60,200,150,60")
    c.check(verdict == "H1 accepted", "a clear gain accepts H1: %s" % verdict)
    r, (_, verdict) = pool("60,150,200,60,10")
    c.check(verdict == "H0 accepted", "a clear loss accepts H0: %s" % verdict)
    r, (_, verdict) = pool("--elo0", "-10", "--elo1", "0", "60,150,200,60,10")
    c.check(verdict == "H0 accepted", "other bounds are taken: %s" % verdict)

    watching(c, tmp)

    cut = os.path.join(tmp, "cut.log")
    with open(cut, "w") as f:
        f.write("Ptnml(0-2): \n")
    for bad in (["1,2,3"], ["a,b,c,d,e"], [os.path.join(tmp, "missing.log")], [cut], ["0,0,0,0,0"],
                ["--elo0", "10", "--elo1", "0", "1,2,3,4,5"], ["--engine", "nobody", pgn], []):
        r, _ = pool(*bad)
        c.check(r.returncode == 2 and "sprt-pool" in r.stderr, "refused with exit 2: %s -> %d %s"
                % (bad, r.returncode, r.stderr[-120:]))


if __name__ == "__main__":
    C.run(main)
    sys.exit(C.report())
