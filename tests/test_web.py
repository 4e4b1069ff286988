#!/usr/bin/env python3
"""The WebAssembly build and its page in a real browser (docs/web.md).

Builds `make wasm wasm-scalar`, serves web/ with scripts/serve-web and
drives Debian's chromium headless through tests/web/browser.mjs
(puppeteer-core from web/node_modules): a whole game at UCI_Elo 1000 with
every engine move checked legal, a FEN's analysis lines, bad and good FEN
and PGN input, stop, two threads, the heat map (compared here with the
native build's `eval` trace) and the bench of both builds (node counts
equal to the native one; the nps ratio is printed). The screenshot is
tests/out/web-analysis.png.

Needs emscripten (emcc), chromium and node; without them every check is
counted as skipped (scripts/setup does not install them; CI runs the test
where its machine has them), and under `make sanitize` too.
"""
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
HEXE = os.path.abspath(os.environ.get("HEXE", os.path.join(ROOT, "hexe")))
OUT = os.path.join(ROOT, "tests", "out")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
C = Checks("test_web")
# The checks of a full run: those browser.mjs prints, and the five made here.
BROWSER_CHECKS = 21
NATIVE_CHECKS = 5


def native_trace(fen):
    r = subprocess.run([HEXE], input="position fen %s\neval\nquit\n" % fen, capture_output=True, text=True, timeout=60)
    rows = [l for l in r.stdout.splitlines() if l.startswith("|")]
    squares = {}
    for rank in range(8):
        pieces = [s.strip() for s in rows[2 * rank].split("|")[1:9]]
        values = [s.strip() for s in rows[2 * rank + 1].split("|")[1:9]]
        for f in range(8):
            if pieces[f] and values[f]:
                squares["abcdefgh"[f] + str(8 - rank)] = values[f]
    return squares


# The bench depth of the node-count checks (the default depth's ratio is
# measured by browser.mjs --speed, docs/web.md).
BENCH_DEPTH = 9


def native_bench():
    r = subprocess.run([HEXE, "bench", str(BENCH_DEPTH)], capture_output=True, text=True, timeout=900)
    m = re.search(r"^(\d+) nodes (\d+) nps$", r.stdout, re.M)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def main():
    missing = [what for what, ok in (("emcc (apt-get install emscripten)", shutil.which("emcc")),
                                     ("chromium (apt-get install chromium)", CHROMIUM),
                                     ("node", shutil.which("node"))) if not ok]
    if missing:
        C.skip(BROWSER_CHECKS + NATIVE_CHECKS, "the browser test needs " + ", ".join(missing))
        return C.report()
    if os.environ.get("HEXE_SANITIZED"):
        C.skip(BROWSER_CHECKS + NATIVE_CHECKS, "the browser test runs with the release build's tests, not the sanitizer's")
        return C.report()
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "web-build.log"), "w") as log:
        # One build after the other (they share the Fathom source and the
        # network file), each with every core.
        jobs = "-j%d" % (os.cpu_count() or 1)
        built = all(subprocess.run(["make", "--no-print-directory", jobs, target], cwd=ROOT, stdout=log,
                                   stderr=subprocess.STDOUT).returncode == 0 for target in ("wasm", "wasm-scalar"))
    if not C.check(built, "make wasm wasm-scalar builds (log: tests/out/web-build.log)"):
        return C.report()
    server = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts", "serve-web"), "--port", "0", "--quiet"],
                              stdout=subprocess.PIPE, text=True)
    try:
        m = re.search(r"http://localhost:(\d+)/", server.stdout.readline())
        if not C.check(m, "scripts/serve-web starts"):
            return C.report()
        url = "http://127.0.0.1:%s/" % m.group(1)
        with open(os.path.join(OUT, "web-browser.log"), "w") as log:
            rc = subprocess.run(["node", os.path.join(ROOT, "tests", "web", "browser.mjs"), "--url", url, "--out", OUT,
                                 "--chromium", CHROMIUM, "--bench", "--bench-depth", str(BENCH_DEPTH)], stdout=log, stderr=subprocess.STDOUT,
                                timeout=1500).returncode
    finally:
        server.terminate()
        server.wait()
    try:
        with open(os.path.join(OUT, "web-results.json")) as f:
            res = json.load(f)
    except (OSError, ValueError) as e:
        C.check(False, "browser.mjs wrote its results (exit %d; log tests/out/web-browser.log): %s" % (rc, e))
        return C.report()
    for c in res["checks"]:
        C.check(c["ok"], "%s: %s" % (c["name"], c["detail"]))
        if c["ok"]:
            print("ok - %s" % c["name"])
    if len(res["checks"]) < BROWSER_CHECKS:
        C.check(False, "browser.mjs ran %d of its %d checks (log tests/out/web-browser.log)" %
                (len(res["checks"]), BROWSER_CHECKS))

    heat = res.get("heat") or {}
    want = native_trace(res.get("heatFen", ""))
    diff = sorted(sq for sq in set(heat) | set(want) if heat.get(sq) != want.get(sq))
    C.check(want and not diff, "the heat map equals the native eval trace on %d pieces (differ: %s)" %
            (len(want), ", ".join("%s page %s native %s" % (sq, heat.get(sq), want.get(sq)) for sq in diff) or "none"))

    nodes, nps = native_bench()
    bench = res.get("bench", {})
    for name in ("simd", "scalar"):
        b = bench.get(name)
        ok = C.check(b and b["nodes"] == nodes, "bench of the %s build: %s nodes, native %s" %
                     (name, b and b["nodes"], nodes))
        if ok and nps:
            print("bench %s: %d nodes, %d nps in the browser; native %d nps: ratio %.2f" %
                  (name, b["nodes"], b["nps"], nps, b["nps"] / nps))
    return C.report()


if __name__ == "__main__":
    sys.exit(main())
