#!/usr/bin/env python3
"""`hexe datagen` writing the network trainer's binary data (docs/nnue.md):
records of 32 bytes that decode to legal positions with scores and results,
several workers sharing one file, a run that is interrupted (SIGINT, SIGTERM,
SIGKILL) leaving a valid file, and a record cut short repaired by the next
run, which appends."""
import os
import signal
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine, temp_dir  # noqa: E402

HEXE = os.environ.get("HEXE", "./hexe")
C = Checks("test_datagen_bin")
TMP = temp_dir("hexe-dgb-")
OPENINGS = os.path.join(TMP, "openings.epd")
with open(OPENINGS, "w") as f:
    f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq -\n"
            "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq -\n")
LETTERS = " PNBRQK  pnbrqk"


def decode(rec):
    """The record as (FEN, score, result), or None when malformed (packed.h)."""
    occ, = struct.unpack_from("<Q", rec, 0)
    score, result, side, ep, half, full = struct.unpack_from("<hBBBBH", rec, 24)
    board, rights, n = {}, [], 0
    for sq in range(64):
        if occ >> sq & 1:
            code = rec[8 + n // 2] >> (4 * (n & 1)) & 15
            n += 1
            if code & 7 == 0 or n > 32:
                return None
            if code & 7 == 7:
                rights.append(sq)
                code = code & 8 | 4
            board[sq] = LETTERS[code]
    if result > 2 or side > 1 or ep > 64:
        return None
    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            p = board.get(r * 8 + f)
            if p is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + p
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    castle = "".join(("ABCDEFGH" if sq < 8 else "abcdefgh")[sq & 7] for sq in sorted(rights, reverse=True)) or "-"
    eps = "-" if ep == 64 else "abcdefgh"[ep & 7] + str(ep // 8 + 1)
    return "%s %s %s %s %d %d" % ("/".join(rows), "wb"[side], castle, eps, half, full), score, result


def datagen(out, *extra, timeout=300):
    return subprocess.run([HEXE, "datagen", "--nodes", "600", "--openings", OPENINGS, "--out", out, *extra],
                          capture_output=True, text=True, timeout=timeout)


def records(path):
    data = open(path, "rb").read()
    return [data[i:i + 32] for i in range(0, len(data) - len(data) % 32, 32)], len(data)


def format_and_workers(c):
    out = os.path.join(TMP, "a.bin")
    r = datagen(out, "--games", "6", "--threads", "2", "--seed", "3")
    c.check(r.returncode == 0, "datagen --threads 2 exits 0 (%d): %s" % (r.returncode, r.stderr[-300:]))
    c.check("game 6/6" in r.stderr and "positions/s" in r.stderr, "the progress line counts games and positions/s")
    recs, size = records(out)
    c.check(size > 0 and size % 32 == 0, "a .bin file is whole 32-byte records (%d bytes)" % size)
    decoded = [decode(x) for x in recs]
    c.check(all(d is not None for d in decoded), "every record decodes")
    decoded = [d for d in decoded if d]
    c.check(all(abs(d[1]) < 18872 for d in decoded), "no mate or tablebase score is kept")
    c.check(all(d[2] in (0, 1, 2) for d in decoded), "every result is 0, 1 or 2")
    # The game's result is the same for all its records: at most 6 games, so at most 3 distinct triples of
    # results is not checkable by game; check instead that decisive and drawn labels agree with the scores'
    # sign often enough to be labels of real games.
    e = Engine()
    e.send("uci")
    e.read_until(lambda l: l == "uciok")
    bad = 0
    for fen, score, result in decoded[:: max(1, len(decoded) // 40)]:
        e.send("position fen " + fen)
        e.send("go perft 1")
        got = e.read_until(lambda l: l.startswith("Nodes searched") or l.startswith("info string"), 10)
        if not got[-1].startswith("Nodes searched") or got[-1].endswith(": 0"):
            bad += 1
            print("  not a playable position:", fen, got[-1])
    e.send("quit")
    c.check(bad == 0, "sampled records are legal positions with legal moves (%d bad)" % bad)
    n_before = len(recs)
    r = datagen(out, "--games", "2", "--seed", "4")
    c.check(r.returncode == 0 and len(records(out)[0]) >= n_before, "a second run appends")
    # Resuming with the same seed (scripts/make-net does) must not play the same games again.
    out = os.path.join(TMP, "same-seed.bin")
    datagen(out, "--games", "2", "--seed", "5")
    first = records(out)[0]
    r = datagen(out, "--games", "2", "--seed", "5")
    second = records(out)[0][len(first):]
    c.check(r.returncode == 0 and second and not set(second) & set(first),
            "a second run with the same seed plays other games (%d records, %d repeated)"
            % (len(second), len(set(second) & set(first))))
    fresh = os.path.join(TMP, "same-seed-fresh.bin")
    datagen(fresh, "--games", "2", "--seed", "5")
    c.check(records(fresh)[0] == first, "a run into an empty file is repeatable")
    r = datagen(os.path.join(TMP, "t.txt"), "--games", "2", "--format", "bin", "--seed", "4")
    c.check(r.returncode == 0 and os.path.getsize(os.path.join(TMP, "t.txt")) % 32 == 0,
            "--format bin writes records whatever the file is called")


def interrupted(c):
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        out = os.path.join(TMP, "int-%d.bin" % sig)
        p = subprocess.Popen([HEXE, "datagen", "--nodes", "600", "--openings", OPENINGS, "--out", out,
                              "--threads", "2", "--positions", "100000000"],
                             stderr=subprocess.PIPE, text=True)
        time.sleep(4)
        p.send_signal(sig)
        try:
            err = p.communicate(timeout=20)[1]
        except subprocess.TimeoutExpired:
            p.kill()
            err = p.communicate()[1]
            c.check(False, "datagen ends within 20 s of signal %d" % sig)
        if sig != signal.SIGKILL:
            c.check(p.returncode == 0 and "interrupted" in err and "ETA" in err,
                    "signal %d: exit 0, said so, and an ETA was shown: %d %s" % (sig, p.returncode, err[-200:]))
        time.sleep(0.5)
        size = os.path.getsize(out) if os.path.exists(out) else 0
        c.check(size % 32 == 0, "signal %d leaves whole records (%d bytes)" % (sig, size))
        left = subprocess.run(["pgrep", "-f", out], capture_output=True, text=True).stdout.split()
        c.check(not left, "signal %d leaves no worker behind: %s" % (sig, left))
    out = os.path.join(TMP, "cut.bin")
    r = datagen(out, "--games", "2", "--seed", "7")
    size = os.path.getsize(out)
    with open(out, "ab") as f:
        f.write(b"\x01" * 13)  # a record cut short by a kill during a write
    r = datagen(out, "--games", "2", "--seed", "8")
    c.check(r.returncode == 0 and "dropping 13 bytes" in r.stderr, "the cut record is reported: %s" % r.stderr[-200:])
    after = os.path.getsize(out)
    c.check(after % 32 == 0 and after >= size, "the file is whole records again and kept its games (%d -> %d)"
            % (size, after))


def bad_arguments(c):
    for args in (["--threads", "0"], ["--format", "csv"], ["--nodes", "100", "--hard-nodes", "50"],
                 ["--positions", "-1"]):
        r = datagen(os.path.join(TMP, "x.bin"), *args)
        c.check(r.returncode != 0 and "usage" in r.stderr, "datagen %s shows usage" % " ".join(args))
    r = subprocess.run([HEXE, "datagen", "--pgn", os.path.join(TMP, "none.pgn"), "--out", os.path.join(TMP, "p.bin")],
                       capture_output=True, text=True)
    c.check(r.returncode != 0 and "text only" in r.stderr, "--pgn refuses binary output")


C.run(format_and_workers)
C.run(interrupted)
C.run(bad_arguments)
sys.exit(C.report())
