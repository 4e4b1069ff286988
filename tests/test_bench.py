#!/usr/bin/env python3
"""The bench signature and reproducibility: `hexe bench` prints the node count
that the newest commit carrying a `Bench:` line names (every change to search
or evaluation must carry its new count), bench gives the same count twice,
and a search to a node limit gives the same best move and node count each
time it is repeated from a fresh state."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine  # noqa: E402

HEXE = os.environ.get("HEXE", "./hexe")
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
C = Checks("test_bench")


SANITIZED = bool(os.environ.get("HEXE_SANITIZED"))


def bench_nodes():
    # The sanitizer build is many times slower: a shallower bench shows the same determinism.
    r = subprocess.run([HEXE, "bench", *(["6"] if SANITIZED else [])], capture_output=True, text=True, timeout=600)
    m = re.search(r"^(\d+) nodes \d+ nps$", r.stdout, re.M)
    return int(m.group(1)) if m else None


def signature(c):
    first, second = bench_nodes(), bench_nodes()
    c.check(first is not None and first == second, "bench gives the same node count twice: %s %s" % (first, second))
    if SANITIZED:
        # The sanitizer build's bench is the same search; its signature is checked on the release build.
        c.skip(2, "the Bench: line: checked on the release build, not the sanitizer build")
        return
    log = subprocess.run(["git", "-C", ROOT, "log", "--format=%H%n%B%n--end--"], capture_output=True, text=True)
    if log.returncode != 0:
        c.skip(2, "the Bench: line: no git history here")
        return
    want = None
    for body in log.stdout.split("--end--"):
        m = re.search(r"^Bench: (\d+)\s*$", body, re.M)
        if m:
            want = int(m.group(1)), body.strip().splitlines()[0][:12]
            break
    c.check(want is not None, "some commit carries a Bench: line")
    if want:
        c.check(first == want[0], "bench %s equals the Bench: %d of commit %s (a search or evaluation change must "
                "carry its new count)" % (first, want[0], want[1]))


def reproducible(c):
    fens = ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"]
    runs = []
    for _ in range(2):
        e = Engine()
        e.handshake()
        e.send("setoption name OwnBook value false")
        got = []
        for fen in fens:
            e.send("ucinewgame")
            e.send("position fen " + fen)
            e.send("go nodes 150000")
            lines = e.expect("bestmove", timeout=60)
            nodes = [int(m.group(1)) for l in lines for m in [re.search(r" nodes (\d+)", l)] if m]
            got.append((lines[-1].split()[1], nodes[-1] if nodes else None))
        e.close()
        runs.append(got)
    c.check(runs[0] == runs[1], "go nodes 150000 gives the same move and node count twice: %s %s" % tuple(runs))


C.run(signature)
C.run(reproducible)
sys.exit(C.report())
