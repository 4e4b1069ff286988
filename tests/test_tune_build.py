#!/usr/bin/env python3
"""The tuning build (make TUNE=1) offers every parameter of src/tunables.h
as a UCI spin option with its default and bounds, searches the very tree of
the release build at its defaults, recomputes the LMR table when LMR_BASE
changes (and back), and refuses a value out of bounds; the release build
offers none of them. The tuning binary is HEXE_TUNE when given (make ci
builds one), else one built here at -O1 in a temporary folder."""
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine, temp_dir  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HEXE = os.path.abspath(os.environ.get("HEXE", os.path.join(ROOT, "hexe")))
SLOW = 4 if os.environ.get("HEXE_SANITIZED") else 1
C = Checks("test_tune_build")
ROW = re.compile(r"^\s*X\((\w+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*([0-9.]+)\)")
ROWS = [ROW.match(line).groups()[:4] for line in open(os.path.join(ROOT, "src", "tunables.h")) if ROW.match(line)]
FENS = ["startpos", "fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 9"]


def build():
    """A tuning binary: HEXE_TUNE, or a fresh -O1 build; (path, error)."""
    given = os.environ.get("HEXE_TUNE")
    if given:
        exe = os.path.abspath(given)
        ok = C.check(os.access(exe, os.X_OK), "HEXE_TUNE=%s is a program" % given)
        return (exe if ok else None), None
    if not shutil.which("make"):
        return None, "make not found"
    tmp = temp_dir("hexe-tune-build-")
    exe = os.path.join(tmp, "hexe-tune")
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "CFLAGS", "LDFLAGS")}
    r = subprocess.run(["make", "-s", "-j2", "-C", ROOT, "TUNE=1", "OPT=-O1", "ARCH=", "BUILD=" + os.path.join(tmp, "b"),
                        "EXE=" + exe], env=env, capture_output=True, text=True, timeout=900)
    C.check(r.returncode == 0, "make TUNE=1 builds:\n" + (r.stdout + r.stderr)[-2000:])
    return (exe if r.returncode == 0 else None), None


def options(exe):
    r = subprocess.run([exe], input="uci\nquit\n", capture_output=True, text=True, timeout=30 * SLOW)
    return [line for line in r.stdout.splitlines() if line.startswith("option name ")]


def nodes(e, setopts=()):
    """Nodes of a depth-9 search of each position from a cleared state, after the given options."""
    out = []
    for o in setopts:
        e.send("setoption name %s value %s" % o)
    for fen in FENS:
        e.send("ucinewgame")
        e.send("position " + fen)
        e.send("go depth 9")
        lines = e.expect("bestmove", 120 * SLOW)
        last = [line for line in lines if line.startswith("info depth 9 ")][-1].split()
        out.append(int(last[last.index("nodes") + 1]))
    return out


def main():
    exe, why = build()
    if exe is None:
        if why:
            C.skip(8, why)
        return C.report()
    opts = options(exe)
    want = ["option name %s type spin default %s min %s max %s" % r for r in ROWS]
    missing = [w for w in want if w not in opts]
    C.check(len(ROWS) >= 20 and not missing, "the tuning build offers every parameter, as in src/tunables.h: %s"
            % missing[:3])
    release = options(HEXE)
    C.check(release and not any(line.split()[2] in {r[0] for r in ROWS} for line in release),
            "the release build offers none of them")

    tuned, plain = Engine(exe), Engine(HEXE)
    for e in (tuned, plain):
        e.handshake()
        e.send("setoption name OwnBook value false")
        e.send("setoption name Threads value 1")
    base = nodes(plain)
    C.check(nodes(tuned) == base, "at its defaults the tuning build searches the release build's tree: %s" % base)
    changed = nodes(tuned, [("LMR_BASE", "150")])
    C.check(changed != base, "LMR_BASE 150 remakes the LMR table: the tree changes: %s" % changed)
    lmr_base = next(r[1] for r in ROWS if r[0] == "LMR_BASE")  # its default in src/tunables.h
    C.check(nodes(tuned, [("LMR_BASE", lmr_base)]) == base, "LMR_BASE back at %s: the same tree again" % lmr_base)
    tuned.send("setoption name RFP_MARGIN value 100000")
    said = tuned.drain(0.5 * SLOW)
    C.check(any("must be between" in line for line in said) and nodes(tuned) == base,
            "a value out of bounds is refused with an info string and changes nothing: %s" % said)
    plain.send("setoption name RFP_MARGIN value 80")
    said = plain.drain(0.5 * SLOW)
    C.check(any("no option named" in line for line in said), "the release build has no RFP_MARGIN: %s" % said)
    for e in (tuned, plain):
        e.close()
    return C.report()


if __name__ == "__main__":
    sys.exit(main())
