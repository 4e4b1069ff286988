#!/usr/bin/env python3
"""Perft over the reference EPD suites, through the engine's own `go perft` command.

Every `;D<depth> <count>` entry is checked whose count is at most --max-nodes
(0 means all of them: `make perft-full`). Chess960 positions (marked c960) are
run with UCI_Chess960 true. Ends with the line `N passed, N failed`.
"""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data", "perft")


def load(path):
    cases = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(";")]
            fen, depths, c960, ident = parts[0], {}, False, ""
            for p in parts[1:]:
                if p.startswith("D") and " " in p:
                    d, n = p.split()
                    depths[int(d[1:])] = int(n)
                elif p == "c960":
                    c960 = True
                elif p.startswith("id "):
                    ident = p[3:]
            cases.append((fen, depths, c960, ident))
    return cases


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def perft(self, fen, depth, c960):
        self.send("setoption name UCI_Chess960 value %s" % ("true" if c960 else "false"))
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            if line.startswith("Nodes searched:"):
                return int(line.split(":")[1])
            if line.startswith("info string"):
                print("  engine says:", line.strip())

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine", default=os.environ.get("HEXE", "./hexe"))
    ap.add_argument("--max-nodes", type=int, default=int(os.environ.get("PERFT_MAX_NODES", "20000000")))
    ap.add_argument("files", nargs="*")
    a = ap.parse_args()
    files = a.files or [os.path.join(DATA, "standard.epd"), os.path.join(DATA, "random.epd")]
    eng = Engine(a.engine)
    passed = failed = 0
    t0 = time.time()
    for path in files:
        for fen, depths, c960, ident in load(path):
            for d in sorted(depths):
                if a.max_nodes and depths[d] > a.max_nodes:
                    continue
                got = eng.perft(fen, d, c960)
                if got == depths[d]:
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s %s depth %d: expected %d, got %d" % (ident, fen, d, depths[d], got))
    eng.close()
    print("perft: %.1f s" % (time.time() - t0))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
