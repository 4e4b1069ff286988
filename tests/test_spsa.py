#!/usr/bin/env python3
"""scripts/spsa against a fake fastchess and a fake tuning engine, so no
game is played: the fake engine offers the options of src/tunables.h; the
fake fastchess writes a PGN where the side with the larger RFP_MARGIN wins
every game (a draw when equal), and can stop part-way through an iteration.
Checked: the first step is Spall's (R c a game won), the parameter the games
favour climbs, the options reach fastchess within their bounds, the state
file and the CSV after each iteration, an interrupted tune resumes to the
very values of an uninterrupted one, other settings on a resume are refused,
a binary that is no tuning build (the release build) or an out-of-date one
is refused, the rows printed ready to paste, `report`, and the plot (skipped,
counted, without matplotlib)."""
import csv
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SPSA = os.path.join(ROOT, "scripts", "spsa")
HEXE = os.path.abspath(os.environ.get("HEXE", os.path.join(ROOT, "hexe")))
C = Checks("test_spsa")

ROW = re.compile(r"^\s*X\((\w+),\s*(-?\d+),\s*(-?\d+),\s*(-?\d+),\s*([0-9.]+)\)")
ROWS = {}
for line in open(os.path.join(ROOT, "src", "tunables.h")):
    m = ROW.match(line)
    if m:
        ROWS[m.group(1)] = dict(zip(("default", "min", "max", "c"), map(float, m.groups()[1:])), line=line.rstrip("\n"))

FAKE_ENGINE = r'''#!%(py)s
import os, sys
rows = %(rows)r
skew = os.environ.get("FAKE_SKEW")
for line in sys.stdin:
    if line.strip() == "uci":
        print("id name fake")
        for name, (d, lo, hi) in rows.items():
            print("option name %%s type spin default %%d min %%d max %%d" %% (name, d + (name == skew), lo, hi))
        print("uciok", flush=True)
    elif line.strip() == "quit":
        break
'''

FAKE_FASTCHESS = r'''#!%(py)s
import json, os, sys
a = sys.argv[1:]
log = os.environ["FAKE_LOG"]
calls = sum(1 for _ in open(log)) if os.path.exists(log) else 0
with open(log, "a") as f:
    f.write(json.dumps({"cwd": os.getcwd(), "args": a}) + "\n")
engines, cur = {}, None
for i, x in enumerate(a):
    if x.startswith("-"):
        if cur is not None and "name" in cur:
            engines[cur["name"]] = cur
        cur = {} if x == "-engine" else None
    elif cur is not None and "=" in x:
        k, v = x.split("=", 1)
        cur[k] = v
rounds = int(a[a.index("-rounds") + 1])
pgn = [x for x in a[a.index("-pgnout") + 1:] if x.startswith("file=")][0][5:]
p, m = (int(engines[e].get("option.RFP_MARGIN", 0)) for e in ("plus", "minus"))
stop = int(os.environ.get("FAKE_STOP_AT", "0")) == calls + 1
with open(pgn, "w") as f:
    for g in range(2 * rounds):
        if stop and g == 1:
            sys.exit(1)
        white, black = ("plus", "minus") if g %% 2 == 0 else ("minus", "plus")
        wv = p if white == "plus" else m
        bv = m if white == "plus" else p
        res = "1-0" if wv > bv else "0-1" if wv < bv else "1/2-1/2"
        f.write('[Event "Fastchess Tournament"]\n[White "%%s"]\n[Black "%%s"]\n[Result "%%s"]\n\n1. e4 %%s\n\n'
                %% (white, black, res, res))
'''


def setup(tmp):
    fake_engine = os.path.join(tmp, "hexe-tune")
    rows = {n: (int(r["default"]), int(r["min"]), int(r["max"])) for n, r in ROWS.items()}
    with open(fake_engine, "w") as f:
        f.write(FAKE_ENGINE % {"py": sys.executable, "rows": rows})
    fake_fc = os.path.join(tmp, "fastchess")
    with open(fake_fc, "w") as f:
        f.write(FAKE_FASTCHESS % {"py": sys.executable})
    os.chmod(fake_engine, 0o755)
    os.chmod(fake_fc, 0o755)
    epd = os.path.join(tmp, "open.epd")
    with open(epd, "w") as f:
        f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n")
    return dict(os.environ, HEXE_TUNE=fake_engine, FASTCHESS=fake_fc, OPENINGS=epd, SYZYGY="",
                FAKE_LOG=os.path.join(tmp, "calls.jsonl"))


def spsa(env, *args, **extra):
    e = dict(env, **extra)
    r = subprocess.run([sys.executable, SPSA, *args], env=e, capture_output=True, text=True, timeout=120)
    if os.environ.get("SPSA_TEST_DEBUG"):
        print(r.stdout, r.stderr)
    return r.returncode, r.stdout, r.stderr


def calls(env):
    if not os.path.exists(env["FAKE_LOG"]):
        return []
    return [json.loads(line) for line in open(env["FAKE_LOG"])]


def options_of(args, name):
    """The option.X=V of the engine called name in a fastchess command line."""
    out, cur = {}, None
    for x in args:
        if x.startswith("-"):
            if cur is not None and cur.get("name") == name:
                return out
            cur, out = ({}, {}) if x == "-engine" else (None, out)
        elif cur is not None and "=" in x:
            k, v = x.split("=", 1)
            cur[k] = v
            if k.startswith("option."):
                out[k[7:]] = v
    return out


def matplotlib_somewhere():
    for py in (sys.executable, "/usr/bin/python3"):
        if os.path.exists(py) and subprocess.run([py, "-c", "import matplotlib"], capture_output=True).returncode == 0:
            return True
    return False


def main():
    tmp = temp_dir("hexe-spsa-test-")
    env = setup(tmp)
    R, PAIRS, ITS = 0.05, 2, 3
    base = ["--iterations", str(ITS), "--pairs", str(PAIRS), "--limit", "nodes=5000", "--r", str(R)]

    # 1. A fresh tune of three iterations.
    a = os.path.join(tmp, "a")
    rc, out, err = spsa(env, *base, "--dir", a)
    C.check(rc == 0, "a tune of %d iterations runs: %d %s" % (ITS, rc, err[-400:]))
    st = json.load(open(os.path.join(a, "state.json")))
    names = st["settings"]["params"]
    C.check(st["k"] == ITS and len(st["path"]) == ITS, "the state file holds %d iterations: k %s" % (ITS, st["k"]))
    C.check("RFP_MARGIN" in names and not any(n.startswith("TM_") for n in names) and
            len(names) == sum(1 for n in ROWS if not n.startswith("TM_")),
            "at fixed nodes every parameter but the TM_ ones is tuned: %s" % names)
    first = st["path"][0][4][names.index("RFP_MARGIN")]
    want = ROWS["RFP_MARGIN"]["default"] + R * ROWS["RFP_MARGIN"]["c"] * 2 * PAIRS
    C.check(abs(first - want) < 1e-3, "the first step is R c (W - L): RFP_MARGIN %.4f, want %.4f" % (first, want))
    path = [row[4][names.index("RFP_MARGIN")] for row in st["path"]]
    C.check(all(y > x for x, y in zip([ROWS["RFP_MARGIN"]["default"]] + path, path)),
            "the parameter the games favour climbs every iteration: %s" % path)
    cl = calls(env)
    C.check(len(cl) == ITS, "fastchess ran once an iteration: %d" % len(cl))
    ok_bounds, ok_gap, ok_args = True, True, True
    for call in cl:
        plus, minus = options_of(call["args"], "plus"), options_of(call["args"], "minus")
        ok_args &= set(plus) >= set(names) and set(minus) >= set(names) and call["cwd"] == a
        ok_args &= "tc=inf" in call["args"] and "nodes=5000" in call["args"] and "-repeat" in call["args"]
        ok_args &= call["args"][call["args"].index("-rounds") + 1] == str(PAIRS)
        for n in names:
            for v in (int(plus[n]), int(minus[n])):
                ok_bounds &= ROWS[n]["min"] <= v <= ROWS[n]["max"]
    first_call = cl[0]["args"]
    gap = int(options_of(first_call, "plus")["RFP_MARGIN"]) - int(options_of(first_call, "minus")["RFP_MARGIN"])
    ok_gap = abs(gap) == 2 * ROWS["RFP_MARGIN"]["c"]
    C.check(ok_args, "fastchess gets every tuned option, the node limit and the pairs, in the work folder")
    C.check(ok_bounds, "every value sent stays within its bounds")
    C.check(ok_gap, "the first iteration's plus and minus are 2 c apart: %d" % gap)
    rows = list(csv.reader(open(os.path.join(a, "spsa.csv"))))
    C.check(rows[0][:4] == ["iteration", "wins", "losses", "draws"] and rows[0][4:] == names and len(rows) == ITS + 2,
            "spsa.csv: a header, the start and a row an iteration: %d rows" % len(rows))
    C.check(abs(float(rows[-1][4 + names.index("RFP_MARGIN")]) - st["theta"]["RFP_MARGIN"]) < 0.01 and
            rows[1][4 + names.index("RFP_MARGIN")] == str(int(ROWS["RFP_MARGIN"]["default"])),
            "spsa.csv's path starts at the default and ends at the state's value")
    final = int(st["theta"]["RFP_MARGIN"] + 0.5)
    new_line = re.sub(r"(X\(RFP_MARGIN,\s*)\d+", lambda m: m.group(1) + str(final), ROWS["RFP_MARGIN"]["line"])
    printed = [line for line in out.split("\n") if ROW.match(line)]
    C.check(final != ROWS["RFP_MARGIN"]["default"] and new_line in printed and len(printed) == len(ROWS) and
            ROWS["TM_MOVES"]["line"] in printed,
            "the rows of src/tunables.h come out with the new values, ready to paste: %s" % printed[:2])
    if matplotlib_somewhere():
        png = os.path.join(a, "spsa.png")
        C.check(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "spsa.png is drawn")
        C.check("no plot" not in err, "with matplotlib no warning of a missing plot: %s" % err[-200:])
    else:
        C.check("matplotlib is missing" in err, "without matplotlib the tune says there is no plot: %s" % err[-200:])
        C.skip(1, "matplotlib is missing (python3-matplotlib): the plot is not checked")

    # 2. The same tune interrupted in its second iteration, then resumed.
    b = os.path.join(tmp, "b")
    n0 = len(calls(env))
    rc, out, err = spsa(env, *base, "--dir", b, FAKE_STOP_AT=str(n0 + 2))
    st_b = json.load(open(os.path.join(b, "state.json")))
    C.check(rc == 1 and "run the same command again" in err and st_b["k"] == 1,
            "a fastchess that stops part-way ends the run, the state keeps the iterations done: %d k=%s %s"
            % (rc, st_b["k"], err[-300:]))
    rc, out, err = spsa(env, *base, "--dir", b)
    st_b = json.load(open(os.path.join(b, "state.json")))
    C.check(rc == 0 and "resuming" in out and st_b["k"] == ITS, "the same command resumes it: %d %s" % (rc, err[-300:]))
    C.check(st_b["theta"] == st["theta"] and st_b["path"] == st["path"],
            "the resumed tune reaches the very values of the uninterrupted one")
    C.check(options_of(calls(env)[-2]["args"], "plus") == options_of(cl[1]["args"], "plus"),
            "the interrupted iteration is played again with the same perturbation")
    rc, out, err = spsa(env, "--pairs", "3", "--dir", b)
    C.check(rc == 2 and "other settings" in err, "a resume with other settings is refused: %d %s" % (rc, err[-200:]))
    rc, out, err = spsa(env, "report", "--dir", b)
    C.check(rc == 0 and "after %d of %d iterations" % (ITS, ITS) in out and new_line in out, "report prints the values reached: %s" % out[:200])

    # 3. Wrong binaries, a time control, missing tools.
    rc, out, err = spsa(env, *base, "--dir", os.path.join(tmp, "c"), FAKE_SKEW="LMR_DIV")
    C.check(rc == 2 and "LMR_DIV" in err and "rebuild" in err,
            "a tuning build of another src/tunables.h is refused: %d %s" % (rc, err[-200:]))
    rc, out, err = spsa(env, *base, "--dir", os.path.join(tmp, "d"), HEXE_TUNE=HEXE)
    C.check(rc == 2 and "make TUNE=1" in err, "the release build is no tuning build: %d %s" % (rc, err[-200:]))
    e = os.path.join(tmp, "e")
    rc, out, err = spsa(env, "--iterations", "1", "--pairs", "1", "--limit", "2+0.02", "--params",
                        "TM_MOVES,ASP_DELTA", "--dir", e)
    st_e = json.load(open(os.path.join(e, "state.json")))
    C.check(rc == 0 and st_e["settings"]["params"] == ["TM_MOVES", "ASP_DELTA"] and
            "tc=2+0.02" in calls(env)[-1]["args"], "a time control and --params: %d %s" % (rc, err[-200:]))
    rc, out, err = spsa(env, "--params", "NO_SUCH", "--dir", os.path.join(tmp, "f"))
    C.check(rc == 2 and "NO_SUCH" in err, "an unknown parameter is refused: %s" % err[-200:])
    rc, out, err = spsa(env, *base, "--dir", os.path.join(tmp, "g"), FASTCHESS=os.path.join(tmp, "nothing"))
    C.check(rc == 2 and "fastchess not found" in err, "a missing fastchess is said: %s" % err[-200:])
    return C.report()


if __name__ == "__main__":
    sys.exit(main())
