#!/usr/bin/env python3
"""The architecture holds: scripts/check-includes finds no include circle, no
lower layer including a higher one and no module without a layer in src/,
and it does find each of those in small trees made to have them. Every file
of src/ stays within MAX_LINES lines (one concern per file)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CHECK = os.path.join(ROOT, "scripts", "check-includes")
MAX_LINES = 720
C = Checks("test_layers")


def run_check(src=None):
    args = [sys.executable, CHECK] + (["--src", src] if src else [])
    r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


def tree(files):
    d = temp_dir("hexe-layers-")
    for name, text in files.items():
        path = os.path.join(d, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    return d


def the_repository(c):
    rc, out = run_check()
    c.check(rc == 0, "src/ keeps its layers:\n" + out)
    c.check("0 include circles, 0 includes of a higher layer, 0 modules without a layer" in out, out)


def finds_a_circle(c):
    d = tree({"uci.h": "", "uci.c": '#include "bench.h"\n', "bench.h": "", "bench.c": '#include "uci.h"\n'})
    rc, out = run_check(d)
    c.check(rc == 1 and "include circle: bench / uci" in out, "a circle is found: " + out)


def finds_an_upward_include(c):
    d = tree({"position.h": "", "position.c": '#include "search.h"\n', "search.h": "", "search.c": ""})
    rc, out = run_check(d)
    c.check(rc == 1 and "layer broken: position (board) includes search (search)" in out,
            "a board module including the search is found: " + out)
    d = tree({"eval/x.h": "", "eval/x.c": '#include "../engine.h"\n', "engine.h": "", "engine.c": ""})
    rc, out = run_check(d)
    c.check(rc == 1 and "layer broken: eval/x (eval) includes engine (search)" in out,
            "an evaluator including the engine is found: " + out)


def finds_a_module_without_layer(c):
    d = tree({"newthing.c": '#include "types.h"\n', "types.h": ""})
    rc, out = run_check(d)
    c.check(rc == 1 and "no layer for module newthing" in out, "an unplaced module is found: " + out)


def files_stay_small(c):
    src = os.path.join(ROOT, "src")
    for base, _, files in os.walk(src):
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                path = os.path.join(base, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    n = sum(1 for _ in fh)
                c.check(n <= MAX_LINES, "%s has %d lines (at most %d: split it by concern)"
                        % (os.path.relpath(path, ROOT), n, MAX_LINES))


for fn in (the_repository, finds_a_circle, finds_an_upward_include, finds_a_module_without_layer, files_stay_small):
    C.run(fn)
C.report()
sys.exit(1 if C.failed else 0)
