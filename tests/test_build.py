#!/usr/bin/env python3
"""The Makefile embeds the network it is told to: NNUE_FILE= or OpenBench's
EVALFILE= names it, and switching to another file, or another network under
the same name, rebuilds the embedding even when that file is older than the
last build (the stamp holds the path and a checksum, not only the file's
time), while a second identical make rebuilds nothing. Builds a separate
unoptimised copy in a temporary folder."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
C = Checks("test_build")


def make(tmp, *extra):
    args = ["make", "-s", "-j2", "-C", ROOT, "BUILD=" + os.path.join(tmp, "b"),
            "EXE=" + os.path.join(tmp, "hexe"), "OPT=-O0", "ARCH="] + list(extra)
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr


def mtime(path):
    return os.stat(path).st_mtime_ns


def eval_line(exe):
    r = subprocess.run([exe], input="setoption name Evaluation value nnue\nposition startpos\neval\nquit\n",
                       capture_output=True, text=True, timeout=30)
    return [l for l in r.stdout.splitlines() if l.startswith("NNUE network <internal>")]


def main():
    if not shutil.which("make"):
        C.skip(9, "make not found")
        return C.report()
    tmp = tempfile.mkdtemp(prefix="hexe-build-")
    try:
        obj = os.path.join(tmp, "b", "eval", "nnue.o")
        stamp = os.path.join(tmp, "b", "nnue-file")
        rc, out = make(tmp)
        C.check(rc == 0, "a build in a separate folder:\n" + out)
        if rc != 0:
            return C.report()
        C.check(open(stamp).read().split("\n")[0] == "nets/hexe.nnue", "the stamp names the default network")
        first = mtime(obj)
        rc, out = make(tmp)
        C.check(rc == 0 and mtime(obj) == first, "a second make leaves nnue.o alone")

        old = os.path.join(tmp, "old.nnue")
        shutil.copyfile(os.path.join(ROOT, "nets", "hexe.nnue"), old)
        os.utime(old, (1577836800, 1577836800))  # 2020: older than the build
        rc, out = make(tmp, "EVALFILE=" + old)
        C.check(rc == 0 and mtime(obj) != first, "EVALFILE= naming an older file rebuilds nnue.o:\n" + out)
        C.check(open(stamp).read().split("\n")[0] == old, "the stamp names the EVALFILE")
        second = mtime(obj)
        rc, out = make(tmp, "NNUE_FILE=" + old)
        C.check(rc == 0 and mtime(obj) == second, "NNUE_FILE= the same file rebuilds nothing")
        lines = eval_line(os.path.join(tmp, "hexe"))
        C.check(len(lines) > 0, "the built engine evaluates with its embedded network: %r" % lines)

        # Another network moved in under the same name with an older time
        # (git mv nets/candidate.nnue nets/hexe.nnue keeps the file's time).
        data = bytearray(open(old, "rb").read())
        data[-1] ^= 0xff
        open(old, "wb").write(data)
        os.utime(old, (1577836800, 1577836800))
        rc, out = make(tmp, "NNUE_FILE=" + old)
        C.check(rc == 0 and mtime(obj) != second, "other contents under the same name, older, rebuild nnue.o:\n" + out)

        rc, out = make(tmp, "EVALFILE=" + os.path.join(tmp, "missing.nnue"))
        C.check(rc != 0, "a missing EVALFILE stops the build")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return C.report()


if __name__ == "__main__":
    sys.exit(main())
