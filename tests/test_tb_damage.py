#!/usr/bin/env python3
"""Damaged Syzygy files (right magic number and size, damaged content), and
things that are not files, in SyzygyPath: the engine survives, names each
bad file in an info string, and plays on with the good tables."""
import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine  # noqa: E402

C = Checks("test_tb_damage")
HERE = os.path.dirname(os.path.abspath(__file__))
SHIPPED = os.path.join(HERE, "..", "tablebases")
KQVK = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
KQVKR = "8/8/8/4k3/8/2r5/8/KQ6 w - - 0 1"


def shipped_copy(d):
    for f in os.listdir(SHIPPED):
        if f.endswith((".rtbw", ".rtbz")):
            shutil.copy(os.path.join(SHIPPED, f), d)


def damage(path, how, rng):
    data = bytearray(open(path, "rb").read())
    if how == "random":  # magic kept, everything after it random
        data[4:] = bytes(rng.getrandbits(8) for _ in range(len(data) - 4))
    elif how == "header":  # magic kept, the header after it random
        for i in range(4, 64):
            data[i] = rng.getrandbits(8)
    elif how == "truncated":  # cut to a size that passes the size check (16 mod 64)
        keep = max(80, (len(data) // 2) // 64 * 64 + 16)
        data = data[:keep]
    elif how == "bitflips":
        for _ in range(64):
            i = rng.randrange(64, len(data))
            data[i] ^= 1 << rng.randrange(8)
    open(path, "wb").write(bytes(data))


def set_path(e, path, timeout=60):
    e.send("setoption name SyzygyPath value " + path)
    e.send("isready")
    lines = e.expect("readyok", timeout)
    return [l for l in lines if l.startswith("info string")]


def plays(e, c, fen, what):
    e.send("position fen " + fen)
    e.send("go depth 6")
    try:
        lines = e.expect("bestmove", 30)
        ok = lines[-1].split()[1] != "(none)"
        c.check(ok, "%s: a move (%s)" % (what, lines[-1]))
        return lines
    except (TimeoutError, EOFError) as x:
        c.check(False, "%s: %s" % (what, x))
        return []


def damaged_listed(c):
    """Damaged copies of shipped tables, in every way, named in the message."""
    rng = random.Random(34)
    bad = {"KQvKR.rtbw": "random", "KRvKB.rtbw": "header", "KBNvK.rtbw": "truncated",
           "KRvKN.rtbw": "bitflips", "KQvKR.rtbz": "bitflips", "KPvKP.rtbz": "random"}
    with tempfile.TemporaryDirectory() as d:
        shipped_copy(d)
        for name, how in bad.items():
            damage(os.path.join(d, name), how, rng)
        e = Engine()
        e.handshake()
        msgs = set_path(e, d)
        text = " ".join(msgs)
        for name in bad:
            c.check(name in text, "damaged %s (%s) named: %s" % (name, bad[name], text[:300]))
        c.check("64 tablebase files" in text, "the 64 good files used: %s" % text[:200])
        # The good tables still work: KQvK is a tablebase win (or a mate).
        lines = plays(e, c, KQVK, "KQvK with good tables")
        info = [l for l in lines if " score " in l]
        c.check(info and ("mate" in info[-1] or "cp 19" in info[-1] or "tbhits 0" not in info[-1]),
                "KQvK scored from the tables: %s" % (info[-1] if info else None))
        # A damaged material is searched without its table, and nothing dies.
        plays(e, c, KQVKR, "KQvKR without its damaged tables")
        plays(e, c, "8/8/8/4k3/8/2b5/8/KR6 w - - 0 1", "KRvKB without its damaged table")
        plays(e, c, "8/8/8/4k3/8/8/8/KBN5 w - - 0 1", "KBNvK without its truncated table")
        e.send("isready")
        c.check(bool(e.expect("readyok", 10)), "alive after the damaged tables")
        c.check(e.close() == 0, "clean exit after the damaged tables")


def damaged_unlisted(c):
    """A damaged table under a name with no published checksum (a 6-piece
    name) is probed in a child process first: the engine survives."""
    rng = random.Random(35)
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(os.path.join(SHIPPED, "KQvK.rtbw"), d)
        for name, how in (("KQRvKQR.rtbw", "random"), ("KRRvKRR.rtbw", "header"), ("KQQvKQQ.rtbw", "truncated")):
            shutil.copy(os.path.join(SHIPPED, "KQvKR.rtbw"), os.path.join(d, name))
            damage(os.path.join(d, name), how, rng)
        e = Engine()
        e.handshake()
        msgs = set_path(e, d)
        text = " ".join(msgs)
        for name in ("KQRvKQR.rtbw", "KRRvKRR.rtbw", "KQQvKQQ.rtbw"):
            c.check(name in text and "test probe" in text, "%s refused after a test probe: %s" % (name, text[:300]))
        plays(e, c, KQVK, "KQvK beside damaged unlisted tables")
        plays(e, c, "8/8/8/3qk3/8/2r5/8/KQR5 w - - 0 1", "a 6-piece position")
        e.send("isready")
        c.check(bool(e.expect("readyok", 10)), "alive after damaged unlisted tables")
        c.check(e.close() == 0, "clean exit after damaged unlisted tables")


def not_files(c):
    """A FIFO or a directory named like a table is refused, never opened."""
    with tempfile.TemporaryDirectory() as d:
        shipped_copy(d)
        os.remove(os.path.join(d, "KRvK.rtbw"))
        os.mkfifo(os.path.join(d, "KRvK.rtbw"))
        os.remove(os.path.join(d, "KQvK.rtbz"))
        os.mkdir(os.path.join(d, "KQvK.rtbz"))
        e = Engine()
        e.handshake()
        try:
            msgs = set_path(e, d, 20)
        except (TimeoutError, EOFError) as x:
            c.check(False, "a FIFO in SyzygyPath: %s" % x)
            e.p.kill()
            return
        text = " ".join(msgs)
        c.check("KRvK.rtbw" in text and "FIFO" in text, "FIFO refused with a reason: %s" % text[:300])
        c.check("KQvK.rtbz" in text and "directory" in text, "directory refused: %s" % text[:300])
        plays(e, c, KQVK, "KQvK next to a FIFO")
        plays(e, c, "8/8/8/4k3/8/8/8/KR6 w - - 0 1", "KRvK without its table")
        c.check(e.close() == 0, "clean exit after a FIFO table")


SCENARIOS = [damaged_listed, damaged_unlisted, not_files]

if __name__ == "__main__":
    sys.exit(C.run_named(SCENARIOS, sys.argv[1:]))
