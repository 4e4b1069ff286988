#!/usr/bin/env python3
"""The book tools on small hand-made books.

scripts/vet-book (a wide --margin, so that only blunders go): a move that
loses a piece is dropped, its sound alternative kept, a position whose only
book move loses the queen is left to the search, entries not reachable from
the start position are copied, and the result does not depend on --jobs.

scripts/book-coverage --against: without --eval-nodes a line ends where the
opponent's book does; with it the opponent plays on with searched moves and
Hexe's book is followed back in, up to Hexe's first search.

scripts/trim-book: keeps the moves with at least --keep times the top weight
of their position, and refuses a share outside 0..1."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "data", "book"))
import ref_reader  # noqa: E402
from uci_harness import ENGINE, Checks, Engine  # noqa: E402

VET = os.path.join(HERE, "..", "scripts", "vet-book")
COVERAGE = os.path.join(HERE, "..", "scripts", "book-coverage")
TRIM = os.path.join(HERE, "..", "scripts", "trim-book")
C = Checks("test_vet_book")


def encode(uci):
    """A UCI move in Polyglot's 16-bit form (no promotions needed here)."""
    ff, fr, tf, tr = ord(uci[0]) - 97, int(uci[1]) - 1, ord(uci[2]) - 97, int(uci[3]) - 1
    return tf | tr << 3 | ff << 6 | fr << 9


def key(moves):
    """The Polyglot key of the position after moves from the start."""
    return ref_reader.polyglot_key(ref_reader.play_line(ref_reader.START, moves))


# (moves from the start, book move, weight)
ENTRIES = [
    ([], "e2e4", 5),
    (["e2e4"], "e7e5", 5),
    (["e2e4", "e7e5"], "g1f3", 3),
    (["e2e4", "e7e5"], "f1a6", 3),           # the bishop is lost to b7xa6
    (["e2e4", "e7e5", "g1f3"], "d8g5", 2),   # the queen is lost to Nf3xg5
]
# Reachable only through a move that is not in the book: copied unchanged.
ASIDE = (["d2d4", "d7d5"], "c2c4", 7)


def write_book(path, entries):
    ref_reader.write_book(path, [(key(moves), encode(mv), w, 0) for moves, mv, w in entries])


def vet(src, dst, jobs):
    return subprocess.run([sys.executable, VET, "--book", src, "--out", dst, "--nodes", "20000", "--margin", "100",
                           "--jobs", str(jobs), "--engine", ENGINE],
                          capture_output=True, text=True, timeout=120)


def pruning(c):
    with tempfile.TemporaryDirectory() as d:
        src, one, two = (os.path.join(d, n) for n in ("in.bin", "one.bin", "two.bin"))
        write_book(src, ENTRIES + [ASIDE])
        r = vet(src, one, 1)
        if not c.check(r.returncode == 0, "vet-book ran: %s" % r.stderr[-300:]):
            return
        out = {(k, ref_reader.move_string(m)): w for k, m, w, _ in ref_reader.read_book(one)}
        c.check((key(["e2e4", "e7e5"]), "g1f3") in out, "the sound move 2.Nf3 is kept")
        c.check((key(["e2e4", "e7e5"]), "f1a6") not in out, "2.Ba6, losing the bishop, is dropped")
        c.check((key(["e2e4", "e7e5", "g1f3"]), "d8g5") not in out,
                "2...Qg5, losing the queen, is dropped though it was the only book move")
        c.check(out.get((key([]), "e2e4")) == 5 and out.get((key(["e2e4"]), "e7e5")) == 5,
                "kept moves keep their weights")
        c.check(out.get((key(ASIDE[0]), "c2c4")) == 7, "an entry off the start position's tree is copied")
        c.check(len(out) == 4, "4 entries written, %d found" % len(out))
        keys = [k for k, _, _, _ in ref_reader.read_book(one)]
        c.check(keys == sorted(keys), "the output is sorted by key")
        r = vet(src, two, 2)
        c.check(r.returncode == 0 and open(one, "rb").read() == open(two, "rb").read(),
                "the same book with --jobs 1 and --jobs 2")


def coverage(ours, theirs, *extra):
    r = subprocess.run([sys.executable, COVERAGE, "--book", ours, "--against", theirs, "--lines", "4",
                        "--max-plies", "40", "--engine", ENGINE, "--jobs", "1", *extra],
                       capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def coverage_against(c):
    e = Engine(ENGINE)
    e.handshake()
    replies = sorted(e.legal_moves("position startpos moves e2e4"))
    e.close()
    # Ours: 1.e4, then 2.Nf3 against every reply; theirs: nothing on this road.
    ours_entries = [([], "e2e4", 1)] + [(["e2e4", r], "g1f3", 1) for r in replies]
    with tempfile.TemporaryDirectory() as d:
        ours, theirs = os.path.join(d, "ours.bin"), os.path.join(d, "theirs.bin")
        write_book(ours, ours_entries)
        write_book(theirs, [ASIDE])
        rc, out = coverage(ours, theirs)
        c.check(rc == 0 and "as White: 1.00 book moves a game" in out and
                "as Black: 0.00 book moves a game" in out and out.count("the opponent's book ended first in 2") == 2,
                "without --eval-nodes the opponent's empty book ends each line:\n" + out)
        rc, out = coverage(ours, theirs, "--eval-nodes", "3000")
        c.check(rc == 0 and "as White: 2.00 book moves a game" in out,
                "with --eval-nodes the opponent's searched reply leads back into the book (1.e4, 2.Nf3):\n" + out)
        c.check("no book move at its first turn in 2 of 2" in out and
                out.count("at its first search out of its book, 3000 nodes") == 2,
                "as Black the line ends at Hexe's first search, which is scored:\n" + out)


def trimming(c):
    entries = [([], "e2e4", 10), ([], "d2d4", 6), ([], "c2c4", 4), ([], "g1f3", 0),
               (["e2e4"], "c7c5", 1), (["d2d4"], "g8f6", 9), (["d2d4"], "d7d5", 5)]
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "in.bin"), os.path.join(d, "out.bin")
        write_book(src, entries)
        r = subprocess.run([sys.executable, TRIM, "--keep", "0.5", src, dst], capture_output=True, text=True, timeout=60)
        if not c.check(r.returncode == 0, "trim-book ran: %s" % r.stderr[-300:]):
            return
        rows = ref_reader.read_book(dst)
        out = {(k, ref_reader.move_string(m)): w for k, m, w, _ in rows}
        want = {(key([]), "e2e4"): 10, (key([]), "d2d4"): 6, (key(["e2e4"]), "c7c5"): 1,
                (key(["d2d4"]), "g8f6"): 9, (key(["d2d4"]), "d7d5"): 5}
        c.check(out == want, "moves under half their position's top weight (and zero weights) go: %r" % out)
        c.check([k for k, _, _, _ in rows] == sorted(k for k, _, _, _ in rows), "the output is sorted by key")
        r = subprocess.run([sys.executable, TRIM, "--keep", "2", src, dst], capture_output=True, text=True, timeout=60)
        c.check(r.returncode == 2 and "--keep" in r.stderr, "--keep 2 is refused: %r" % r.stderr[-200:])


if __name__ == "__main__":
    if not os.path.exists(ref_reader.FORMAT_HTML):  # the Random64 table comes from Debian's polyglot
        C.skip(16, "%s missing (Debian package polyglot)" % ref_reader.FORMAT_HTML)
        sys.exit(C.report())
    ref_reader.RANDOM64 = ref_reader.load_random64()
    sys.exit(C.run_named([pruning, coverage_against, trimming], sys.argv[1:]))
