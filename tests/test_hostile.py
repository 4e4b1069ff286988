#!/usr/bin/env python3
"""Input from a hostile GUI, a careless user or a damaged disk: the engine
never crashes, hangs or stalls, says what it refused, and keeps answering."""
import os
import struct
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine  # noqa: E402

C = Checks("test_hostile")
SAN = bool(os.environ.get("HEXE_SANITIZED"))
SLOW = 4 if SAN else 1
STARTPOS_KEY = 0x463B96181691FC9C  # the Polyglot key of the start position
E2E4 = 4 | 3 << 3 | 4 << 6 | 1 << 9


def alive(e, c, what):
    e.send("isready")
    try:
        e.expect("readyok", 10)
        c.check(True, what)
        return True
    except (TimeoutError, EOFError) as x:
        c.check(False, "%s: %s" % (what, x))
        return False


def searchmoves_with_book(c):
    """Repeated searchmoves filter a book position holding many entries."""
    with tempfile.TemporaryDirectory() as d:
        book = os.path.join(d, "many.bin")
        with open(book, "wb") as f:
            for w in range(256):  # 256 entries of one position: a full BookEntry[256]
                f.write(struct.pack(">QHHI", STARTPOS_KEY, E2E4, 1 + w, 0))
        e = Engine()
        e.handshake()
        e.send("setoption name BookFile value " + book)
        e.send("setoption name OwnBook value true")
        for reps in (2, 86, 300):
            e.send("position startpos")
            e.send("go wtime 10000 btime 10000 searchmoves " + " ".join(["e2e4"] * reps))
            try:
                lines = e.expect("bestmove", 10)
                c.check(lines[-1].split()[1] == "e2e4", "book move e2e4 among %d repeated searchmoves" % reps)
            except (TimeoutError, EOFError) as x:
                c.check(False, "searchmoves e2e4 x%d: %s" % (reps, x))
                break
        alive(e, c, "alive after repeated searchmoves")
        c.check(e.close() == 0, "clean exit after repeated searchmoves")


SCENARIOS = [searchmoves_with_book]

if __name__ == "__main__":
    only = sys.argv[1:]
    for fn in SCENARIOS:
        if not only or fn.__name__ in only:
            C.run(fn)
    sys.exit(C.report())
