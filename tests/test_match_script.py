#!/usr/bin/env python3
"""scripts/match hands fastchess what it was told, from wherever it is run:
paths relative to the caller (engines, a network, the openings, fastchess
itself) reach fastchess as absolute paths, though fastchess runs in
MATCH_DIR; a missing file or a network the engine refuses stops it with a
message and exit 2 before any game. fastchess is replaced by a script that
writes down its arguments, so no game is played."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HEXE = os.path.abspath(os.environ.get("HEXE", os.path.join(ROOT, "hexe")))
C = Checks("test_match_script")


def main(c):
    tmp = tempfile.mkdtemp(prefix="hexe-match-test-")
    try:
        caller = os.path.join(tmp, "caller")
        os.makedirs(os.path.join(caller, "bin"))
        args_file = os.path.join(tmp, "args")
        fake = os.path.join(caller, "bin", "fastchess")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\nprintf '%%s\\n' \"$@\" > %s\n" % args_file)
        os.chmod(fake, 0o755)
        shutil.copy(HEXE, os.path.join(caller, "bin", "hexe-old"))
        shutil.copy(os.path.join(ROOT, "nets", "hexe.nnue"), os.path.join(caller, "new.nnue"))
        with open(os.path.join(caller, "open.epd"), "w") as f:
            f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
        with open(os.path.join(caller, "bad.nnue"), "wb") as f:
            f.write(b"not a network")
        env = dict(os.environ, FASTCHESS="bin/fastchess", OPENINGS="open.epd", HEXE=HEXE,
                   MATCH_DIR=os.path.join(tmp, "match"))

        def run(*a):
            if os.path.exists(args_file):
                os.remove(args_file)
            r = subprocess.run([os.path.join(ROOT, "scripts", "match"), *a], cwd=caller, env=env,
                               capture_output=True, text=True, timeout=60)
            got = open(args_file).read().split("\n") if os.path.exists(args_file) else []
            return r, got

        r, got = run("sprt", "bin/hexe-old", "bin/hexe-old", "5+0.05")
        old = os.path.join(caller, "bin", "hexe-old")
        c.check(r.returncode == 0 and got.count("cmd=" + old) == 2,
                "sprt: relative engine paths reach fastchess absolute: %s %s" % (r.stderr[-200:], got[:4]))
        c.check("file=" + os.path.join(caller, "open.epd") in got, "sprt: the relative openings file too")
        c.check("tc=5+0.05" in got, "sprt: a time control when one is given: %s" % got)
        r, got = run("net", "new.nnue", "nodes=25000")
        c.check(r.returncode == 0 and "option.EvalFile=" + os.path.join(caller, "new.nnue") in got,
                "net: the network file reaches fastchess absolute: %s" % r.stderr[-200:])
        c.check("tc=inf" in got and "nodes=25000" in got and got.count("cmd=" + HEXE) == 2,
                "net: nodes=N is a node limit, both sides are the same binary: %s" % got[:12])
        r, got = run("net", "new.nnue")
        c.check("tc=inf" in got and "nodes=10000" in got and "elo0=0" in got and "elo1=5" in got and
                "model=normalized" in got, "net: default nodes=10000, normalised [0, 5]: %s" % got)
        r, got = run("sprt", "bin/hexe-old", "bin/hexe-old")
        c.check(r.returncode == 0 and "tc=inf" in got and "nodes=10000" in got and "elo1=5" in got and
                "model=normalized" in got, "sprt: default nodes=10000, normalised [0, 5]: %s" % got)
        r, got = run("sprt", "bin/hexe-old", "bin/hexe-old", "nodes=25000", "-10", "0")
        c.check("nodes=25000" in got and "elo0=-10" in got and "elo1=0" in got,
                "sprt: a non-regression test at 25,000 nodes: %s" % got)
        r, got = run("net", "bad.nnue")
        c.check(r.returncode == 2 and not got and "not loaded" in r.stderr,
                "net: a network the engine refuses stops before any game: %d %s" % (r.returncode, r.stderr[-200:]))
        r, got = run("sprt", "bin/nothing-here", "bin/hexe-old")
        c.check(r.returncode == 2 and not got and "no file bin/nothing-here" in r.stderr,
                "sprt: a missing engine stops with its name: %d %s" % (r.returncode, r.stderr[-200:]))
        r, got = run("vs", "bin/hexe-old", "other", "1+0.01", "4")
        c.check(r.returncode == 0 and "cmd=" + old in got and "-rounds" in got and got[got.index("-rounds") + 1] == "2",
                "vs: a relative engine path and the round count: %s" % got[:8])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


C.run(main)
sys.exit(C.report())
