#!/usr/bin/env python3
"""Recomputes every `;D<depth> <count>` of the EPD files given (default: the
two beside this script) with another engine's `go perft` (Stockfish by
default, found through $STOCKFISH or PATH) and prints any disagreement.
Chess960 positions (marked c960) run with UCI_Chess960 true. Ends with the
line `N passed, N failed`."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def engine_path():
    for cand in (os.environ.get("STOCKFISH"), shutil.which("stockfish"), "/usr/games/stockfish"):
        if cand and os.path.exists(cand):
            return cand
    sys.exit("check_counts.py: Stockfish not found (set STOCKFISH or install the stockfish package)")


def main():
    files = sys.argv[1:] or [os.path.join(HERE, "standard.epd"), os.path.join(HERE, "random.epd")]
    p = subprocess.Popen([engine_path()], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    passed = failed = 0
    for path in files:
        with open(path) as f:
            for line in f:
                if line.startswith("#") or ";" not in line:
                    continue
                parts = [x.strip() for x in line.split(";")]
                fen, c960 = parts[0], "c960" in parts[1:]
                send("setoption name UCI_Chess960 value %s" % ("true" if c960 else "false"))
                send("position fen " + fen)
                for part in parts[1:]:
                    if not (part.startswith("D") and " " in part):
                        continue
                    depth, want = part[1:].split()
                    send("go perft " + depth)
                    while True:
                        out = p.stdout.readline()
                        if not out:
                            sys.exit("check_counts.py: the engine died")
                        if out.startswith("Nodes searched:"):
                            got = int(out.split(":")[1])
                            break
                    if got == int(want):
                        passed += 1
                    else:
                        failed += 1
                        print("FAIL %s depth %s: file %s, engine %d" % (fen, depth, want, got))
    send("quit")
    p.wait(timeout=10)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
