#!/usr/bin/env python3
"""The opening book through UCI: book moves answered at once, never under
`go infinite` or analysis, ponder still waits, bad book files reported."""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine, temp_dir  # noqa: E402

# The shipped default book: bad copies of it are made from its first entries.
BOOK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "books", "book.bin")
C = Checks("test_book_uci")


def default_book(c):
    e = Engine()
    e.send("uci")
    lines = e.expect("uciok")
    c.check("option name OwnBook type check default true" in lines, "OwnBook defaults to true with books/book.bin")
    bf = [l for l in lines if l.startswith("option name BookFile")]
    c.check(bf and bf[0].endswith("books/book.bin"), "BookFile defaults to the book beside the executable")
    e.send("isready")
    e.expect("readyok")
    times = []
    for _ in range(5):
        e.send("position startpos")
        t0 = time.monotonic()
        e.send("go wtime 60000 btime 60000")
        lines = e.expect("bestmove", 5)
        times.append(time.monotonic() - t0)
        c.check(any(l.startswith("info string book move") for l in lines), "book move announced")
        c.check(any(l.startswith("info depth 0") and " pv " in l for l in lines), "info depth 0 ... pv line")
        mv = lines[-1].split()[1]
        c.check(mv in e.legal_moves("position startpos"), "book move legal")
    # Round trip through a pipe and Python threads: the engine's own part is far below this.
    c.check(min(times) < 0.005 * (4 if os.environ.get("HEXE_SANITIZED") else 1) + 0.02,
            "book answer in %.1f ms" % (min(times) * 1000))
    # out of book: a normal search
    e.send("position fen 8/8/4k3/8/8/3K4/4P3/8 w - - 0 1")
    e.send("go depth 5")
    lines = e.expect("bestmove", 10)
    c.check(not any("book move" in l for l in lines) and any(l.startswith("info depth 5") for l in lines),
            "out of book: searches")
    # go infinite never uses the book
    e.send("position startpos")
    e.send("go infinite")
    time.sleep(0.3)
    e.send("stop")
    lines = e.expect("bestmove", 5)
    c.check(not any("book move" in l for l in lines), "no book under go infinite")
    # analysis mode never uses the book
    e.send("setoption name UCI_AnalyseMode value true")
    e.send("position startpos")
    e.send("go depth 3")
    lines = e.expect("bestmove", 5)
    c.check(not any("book move" in l for l in lines), "no book in analysis mode")
    e.send("setoption name UCI_AnalyseMode value false")
    # ponder: a book move still waits for ponderhit
    e.send("position startpos")
    e.send("go ponder wtime 60000 btime 60000")
    time.sleep(0.5)
    early = e.drain(0.1)
    c.check(not [l for l in early if l.startswith("bestmove")], "book move waits during ponder")
    e.send("ponderhit")
    lines = early + e.expect("bestmove", 5)
    c.check(any("book move" in l for l in lines), "book move after ponderhit")
    # BookDepth: no book after that many moves
    e.send("setoption name BookDepth value 1")
    e.send("position startpos moves e2e4 e7e5")
    e.send("go depth 3")
    lines = e.expect("bestmove", 5)
    c.check(not any("book move" in l for l in lines), "BookDepth 1 stops the book at move 2")
    e.close()


def bad_books(c):
    tmp = temp_dir("hexe-book-")
    trunc = os.path.join(tmp, "trunc.bin")
    with open(BOOK, "rb") as f:
        data = f.read(1600)
    c.check(len(data) == 1600, "books/book.bin holds at least 100 entries to spoil")
    with open(trunc, "wb") as f:
        f.write(data[:1605 - 16 * 50 + 3])  # not a multiple of 16
    unsorted = os.path.join(tmp, "unsorted.bin")
    with open(unsorted, "wb") as f:
        f.write(data[800:1600] + data[:800])
    empty = os.path.join(tmp, "empty.bin")
    open(empty, "wb").close()
    e = Engine()
    e.handshake()
    for path, word in ((os.path.join(tmp, "missing.bin"), ""), (trunc, "16"), (unsorted, "sorted"),
                       (empty, "empty"), (tmp, "")):
        e.send("setoption name BookFile value " + path)
        lines = e.expect("info string", 5)
        c.check(word in lines[-1], "bad book %s reported: %s" % (os.path.basename(path), lines[-1]))
        e.send("position startpos")
        e.send("go depth 3")
        lines = e.expect("bestmove", 5)
        c.check(not any("book move" in l for l in lines) and any(l.startswith("info depth 3") for l in lines),
                "searches normally after a bad book")
    e.send("setoption name BookFile value " + os.path.abspath(BOOK))
    lines = e.expect("info string", 5)
    c.check("opened" in lines[-1], "a good book opens again")
    e.close()


C.run(default_book)
C.run(bad_books)
sys.exit(C.report())
