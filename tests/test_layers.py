#!/usr/bin/env python3
"""The architecture holds: scripts/check-includes finds no include circle, no
lower layer including a higher one and no module without a layer in src/,
also counting the calls the build's objects show (two files calling each
other through one header are a circle), and it does find each of those in
small trees made to have them. Every file of src/ stays within MAX_LINES
lines (one concern per file)."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CHECK = os.path.join(ROOT, "scripts", "check-includes")
MAX_LINES = 720
C = Checks("test_layers")


# The objects of the build under test (tests/run.sh sets TEST_BIN=<build>/tests).
OBJECTS = os.path.dirname(os.path.abspath(os.environ["TEST_BIN"])) if os.environ.get("TEST_BIN") else None


def run_check(src=None, objects=None):
    args = [sys.executable, CHECK] + (["--src", src] if src else []) + (["--objects", objects] if objects else [])
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


def the_repository_calls(c):
    if not OBJECTS or not os.path.isdir(OBJECTS):
        c.skip(1, "the calls between modules: no build objects (run through tests/run.sh)")
        return
    rc, out = run_check(objects=OBJECTS)
    c.check(rc == 0 and "0 include circles" in out, "src/ keeps its layers, calls counted:\n" + out)


def finds_a_circle_of_calls(c):
    """probe.c and setup.c share setup.h and call each other: no include shows it."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        c.skip(2, "a circle of calls: no C compiler")
        return
    d = tree({"syzygy/setup.h": "void set_up(void);\nint probe(void);\n",
              "syzygy/setup.c": '#include "setup.h"\nvoid set_up(void) { (void)probe(); }\n',
              "syzygy/probe.c": '#include "setup.h"\nint probe(void) { set_up(); return 0; }\n'})
    rc, out = run_check(d)
    c.check(rc == 0, "the includes alone show no circle: " + out)
    obj = os.path.join(d, "build")
    os.makedirs(os.path.join(obj, "syzygy"))
    for f in ("setup", "probe"):
        subprocess.run([cc, "-c", "-o", os.path.join(obj, "syzygy", f + ".o"), os.path.join(d, "syzygy", f + ".c")],
                       check=True)
    rc, out = run_check(d, obj)
    c.check(rc == 1 and "include circle: syzygy/probe / syzygy/setup" in out, "the objects show the circle of calls: "
            + out)


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


for fn in (the_repository, the_repository_calls, finds_a_circle_of_calls, finds_a_circle, finds_an_upward_include, finds_a_module_without_layer, files_stay_small):
    C.run(fn)
C.report()
sys.exit(1 if C.failed else 0)
