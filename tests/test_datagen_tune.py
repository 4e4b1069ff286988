#!/usr/bin/env python3
"""`hexe datagen`, `hexe tune` and `hexe nettrain` as a user runs them: the
data format, the per-game sample limit, the random plies that make games from
one opening differ, positions read from a PGN, the tuners' output and
validation reports, and bad arguments."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

HEXE = os.environ.get("HEXE", "./hexe")
OPENINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "openings", "balanced-100.epd")
C = Checks("test_datagen_tune")
TMP = temp_dir("hexe-dg-")
LINE = re.compile(r"^(\S+ [wb] \S+ \S+ \d+ \d+) \| (1\.0|0\.5|0\.0)$")


def run(*args, timeout=120):
    return subprocess.run([HEXE, *args], capture_output=True, text=True, timeout=timeout)


def datagen(out, *extra):
    return run("datagen", "--nodes", "800", "--openings", OPENINGS, "--out", out, *extra)


def lines_of(path):
    with open(path) as f:
        return f.read().splitlines()


def data_format(c):
    out = os.path.join(TMP, "a.txt")
    r = datagen(out, "--games", "4", "--seed", "5", "--per-game", "3")
    c.check(r.returncode == 0, "datagen exits 0 (%d): %s" % (r.returncode, r.stderr[-200:]))
    c.check("game 4/4" in r.stderr and "positions" in r.stderr, "datagen shows its progress")
    lines = lines_of(out)
    c.check(0 < len(lines) <= 4 * 3, "at most 3 positions from each of 4 games (%d lines)" % len(lines))
    c.check(all(LINE.match(l) for l in lines), "every line is '<FEN> | <result>'")
    r = datagen(os.path.join(TMP, "b.txt"), "--games", "4", "--seed", "5")
    c.check(r.returncode == 0 and len(lines_of(os.path.join(TMP, "b.txt"))) > len(lines),
            "without --per-game the same games give all their quiet positions")


def random_plies(c):
    one = os.path.join(TMP, "one.epd")
    with open(OPENINGS) as f:
        first = next(l for l in f if l.strip())
    with open(one, "w") as f:
        f.write(first)
    runs = {}
    for name, plies, seed in (("p0s1", "0", "1"), ("p0s2", "0", "2"), ("p4s1", "4", "1"), ("p4s2", "4", "2")):
        out = os.path.join(TMP, name + ".txt")
        r = run("datagen", "--nodes", "600", "--games", "1", "--seed", seed, "--random-plies", plies,
                "--openings", one, "--out", out)
        c.check(r.returncode == 0, "datagen %s exits 0" % name)
        runs[name] = sorted(lines_of(out)) if os.path.exists(out) else []  # order is shuffled
    c.check(runs["p0s1"] and runs["p0s1"] == runs["p0s2"],
            "without random plies one opening gives the same game whatever the seed")
    c.check(runs["p4s1"] != runs["p4s2"], "with random plies the seed changes the game")

PGN = """[Event "a"]
[White "x"]
[Black "y"]
[Result "1-0"]

1.e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O {a comment
over two lines, with 9. Qh5 in it} Nf6 $1 (4... d6 (4... Qe7) 5. c3) ; the rest of the line: 5. Qh5
5. d3 d6 1-0

[Event "b"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4r3/R3K3 w Q - 0 1"]
[Result "0-1"]

1. Kxe2 Kd7 2. Ra7+ Kc6 0-1

[Event "unfinished"]
[Result "*"]

1. d4 d5 2. c4 *

[Event "broken"]
[Result "1/2-1/2"]

1. e4 Qh5 1/2-1/2
"""


def pgn_positions(c):
    pgn = os.path.join(TMP, "games.pgn")
    with open(pgn, "w") as f:
        f.write(PGN)

    def positions(*extra, path=pgn):
        out = os.path.join(TMP, "pgn-%d.txt" % len(os.listdir(TMP)))
        r = run("datagen", "--pgn", path, "--out", out, *extra)
        return r, lines_of(out) if os.path.exists(out) else []

    r, lines = positions("--skip-plies", "0")
    c.check(r.returncode == 0, "datagen --pgn exits 0 (%d): %s" % (r.returncode, r.stderr[-200:]))
    c.check("4 games, 2 left out (unfinished or unreadable), 12 positions" in r.stderr,
            "datagen --pgn counts games, games left out and positions: %s" % r.stderr[-200:])
    c.check("game 4" in r.stderr and "cannot read 'Qh5' at ply 2" in r.stderr,
            "a move that cannot be played is reported with its game and ply")
    c.check(len(lines) == 12 and all(LINE.match(l) for l in lines),
            "10 quiet positions of the first game and 2 of the second, as '<FEN> | <result>': %s" % lines)
    want = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 1.0",  # the start, no FEN tag
        "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4 | 1.0",  # before castling
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQ1RK1 b kq - 0 5 | 1.0",  # the variations skipped
        "4k3/8/8/8/8/8/4K3/R7 b - - 0 1 | 0.0",  # after the capture, from the FEN tag
        "8/3k4/8/8/8/8/4K3/R7 w - - 1 2 | 0.0",
    }
    c.check(want <= set(lines), "the expected positions are written: missing %s" % (want - set(lines)))
    c.check(not any(l.startswith("4k3/8/8/8/8/8/4r3/R3K3 w") or l.startswith("8/R2k4/") for l in lines),
            "positions in check are left out")
    r, lines = positions("--skip-plies", "4")
    c.check(len(lines) == 6, "--skip-plies 4 leaves 6 positions of the first game and none of the second: %d" % len(lines))
    r, lines = positions("--skip-plies", "0", "--per-game", "3")
    c.check(len(lines) == 5, "--per-game 3 keeps 3 of the first game and the second's 2: %d" % len(lines))
    r, lines = positions(path=os.path.join(TMP, "missing.pgn"))
    c.check(r.returncode != 0 and "cannot read" in r.stderr, "datagen: a missing PGN reported")
    unbalanced = os.path.join(TMP, "unbalanced.pgn")
    with open(unbalanced, "w") as f:
        f.write('[Result "1-0"]\n\n1. e4 (1. d4 d5 1-0\n\n[Result "0-1"]\n\n1. d4 d5 0-1\n')
    r, got = positions("--skip-plies", "0", path=unbalanced)
    c.check(r.returncode == 0 and "2 games" in r.stderr and len(got) == 3 and
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 0.0" in got,
            "a variation left open ends with its game, the next is read: %s %s" % (r.stderr[-100:], got))
    r, lines = positions("--skip-plies", "-1")
    c.check(r.returncode != 0 and "usage" in r.stderr, "datagen: a negative --skip-plies shows usage")


def tune(c):
    data = os.path.join(TMP, "a.txt")
    hold = os.path.join(TMP, "b.txt")
    out = os.path.join(TMP, "w.txt")
    inc = os.path.join(TMP, "w.inc")
    r = run("tune", "--data", data, "--validate", hold, "--rounds", "1", "--epochs", "2", "--min-count", "1",
            "--out", out, "--inc", inc, timeout=300)
    c.check(r.returncode == 0, "tune exits 0 (%d): %s" % (r.returncode, r.stderr[-300:]))
    c.check(re.search(r"K = [0-9.]+, starting error 0\.\d+", r.stderr) is not None, "tune reports K and the error")
    c.check(re.search(r"validation: \d+ positions, starting error 0\.\d+", r.stderr) is not None,
            "tune reports the validation error at the start")
    start = re.search(r"validation: \d+ positions, starting error (0\.\d+)", r.stderr)
    kept = re.search(r"round 1: validation error 0\.\d+, keeping the best weights so far \((0\.\d+)\)", r.stderr)
    c.check(kept is not None, "tune reports the validation error after the round")
    c.check(start and kept and float(kept.group(1)) <= float(start.group(1)),
            "early stopping never keeps weights worse on the validation data than the start")
    c.check("positions/s" in r.stderr, "tune shows positions per second")
    w = lines_of(out) if os.path.exists(out) else []
    c.check(len(w) > 1000 and all(re.match(r"^.+ = -?\d+$", l) for l in w), "weights written as 'name = value'")
    c.check(os.path.exists(inc) and os.path.getsize(inc) > 1000, "initializer written")


def nettrain(c):
    data = os.path.join(TMP, "b.txt")
    hold = os.path.join(TMP, "a.txt")
    inc = os.path.join(TMP, "net.inc")
    r = run("nettrain", "--data", data, "--validate", hold, "--hidden", "8", "--epochs", "3", "--out", inc)
    c.check(r.returncode == 0, "nettrain exits 0 (%d): %s" % (r.returncode, r.stderr[-300:]))
    epochs = re.findall(r"^epoch (\d+): train (0\.\d+) validate (0\.\d+)", r.stdout, re.M)
    c.check([e[0] for e in epochs] == ["0", "1", "2", "3"], "nettrain reports every epoch: %s" % r.stdout[-300:])
    text = open(inc).read() if os.path.exists(inc) else ""
    kept = re.search(r"held-out error (0\.\d+)", text)
    c.check("#define NET_HIDDEN 8" in text and text.count("},\n") == 768,
            "the initializer has 8 hidden units and 768 input rows")
    c.check(kept and epochs and abs(float(kept.group(1)) - min(float(e[2]) for e in epochs)) < 1e-6,
            "the weights written are those of the lowest held-out error, the start included")
    r = run("nettrain", "--check", hold)
    m = re.search(r"(\d+) positions, K [0-9.]+: error without the correction (0\.\d+), with it (0\.\d+)", r.stdout)
    c.check(r.returncode == 0 and m and int(m.group(1)) > 0, "nettrain --check reports both errors: %s" % r.stdout)
    r = run("nettrain", "--data", os.path.join(TMP, "missing.txt"), "--validate", hold)
    c.check(r.returncode != 0 and "cannot read the positions" in r.stderr, "nettrain: missing data reported")
    r = run("nettrain", "--data", data, "--validate", hold, "--hidden", "0")
    c.check(r.returncode != 0 and "usage" in r.stderr, "nettrain: a bad --hidden shows usage")
    r = run("nettrain", "--bogus", "1")
    c.check(r.returncode != 0 and "usage" in r.stderr, "nettrain: unknown option shows usage")


def bad_arguments(c):
    r = run("datagen", "--games", "1", "--openings", os.path.join(TMP, "missing.epd"),
            "--out", os.path.join(TMP, "x.txt"))
    c.check(r.returncode != 0 and "cannot read openings" in r.stderr, "datagen: missing openings reported")
    r = run("datagen", "--bogus", "1")
    c.check(r.returncode != 0 and "usage" in r.stderr, "datagen: unknown option shows usage")
    r = run("tune", "--data", os.path.join(TMP, "missing.txt"))
    c.check(r.returncode != 0 and "no positions" in r.stderr, "tune: missing data reported")
    r = run("tune", "--data", os.path.join(TMP, "a.txt"), "--validate", os.path.join(TMP, "missing.txt"))
    c.check(r.returncode != 0 and "no positions" in r.stderr, "tune: missing validation data reported")


C.run(data_format)
C.run(random_plies)
C.run(pgn_positions)
C.run(tune)
C.run(nettrain)
C.run(bad_arguments)
sys.exit(C.report())
