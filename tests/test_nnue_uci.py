#!/usr/bin/env python3
"""The nnue evaluator as a user drives it: the EvalFile and Evaluation
options, every kind of bad network file answered with an info string while
the engine keeps its network and keeps answering, and the whole pipeline in
small: datagen's records, `hexe train` (the loss falls, the quantised network
matches the float one), the network loaded through EvalFile and searched
with; the same for a network of mirrored inputs (file version 3), which
scores a position and its a-h mirror alike."""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, Engine, temp_dir  # noqa: E402

HEXE = os.environ.get("HEXE", "./hexe")
C = Checks("test_nnue_uci")
TMP = temp_dir("hexe-nnue-")
OPENINGS = os.path.join(TMP, "openings.epd")
with open(OPENINGS, "w") as f:
    f.write("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
            "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
            "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq -\n")
NET = os.path.join(TMP, "small.nnue")


def network_name(e):
    e.send("eval")
    lines = e.expect("Final evaluation")
    head = [l for l in lines if l.startswith("NNUE network")]
    return head[0].split(":")[0][len("NNUE network "):] if head else None


def scale_of(path):
    """The scale field of a network file (docs/nnue.md: bytes 16-19)."""
    with open(path, "rb") as f:
        return int.from_bytes(f.read(20)[16:20], "little")


def train_small(data, out, *extra):
    """One epoch of `hexe train` on data: its exit status and output."""
    args = [HEXE, "train", "--data", data, "--out", out, "--epochs", "1", "--batch", "256", "--val", "0.1", *extra]
    if "--hidden" not in extra:
        args += ["--hidden", "32"]
    return subprocess.run(args, capture_output=True, text=True, timeout=300)


def init_keeps_scale(c, data):
    """A network trained on with --init keeps its scale unless --scale says
    otherwise: its outputs are in those units, whatever K the data fits."""
    def train(out, *extra):
        r = train_small(data, out, *extra)
        k = re.search(r"K = (\d+)", r.stdout)
        return r.returncode, int(k.group(1)) if k else None
    first = os.path.join(TMP, "k97.nnue")
    c.check(train(first, "--scale", "97") == (0, 97) and scale_of(first) == 97, "--scale 97 is used and written")
    again = os.path.join(TMP, "k97-again.nnue")
    c.check(train(again, "--init", first) == (0, 97) and scale_of(again) == 97,
            "--init keeps the starting network's scale (97), not one fitted to the data")
    other = os.path.join(TMP, "k120.nnue")
    c.check(train(other, "--init", first, "--scale", "120") == (0, 120) and scale_of(other) == 120,
            "--scale overrides the starting network's scale")
    init_grows(c, data, first)


def init_grows(c, data, first):
    """--init with fewer hidden units than --hidden grows the network: the new
    units have no output weight yet, so before the first step it computes
    what the file does, to the held-out loss."""
    def start_loss(r):
        m = re.search(r"^epoch 0: validation ([0-9.]+)$", r.stdout, re.M)
        return m.group(1) if m else None
    same = train_small(data, os.path.join(TMP, "same.nnue"), "--init", first)
    grown_path = os.path.join(TMP, "grown.nnue")
    grown = train_small(data, grown_path, "--init", first, "--hidden", "64")
    c.check(grown.returncode == 0 and start_loss(grown) is not None and start_loss(grown) == start_loss(same),
            "a 32-unit network grown to 64 starts at its held-out loss (%s, %s): %s" %
            (start_loss(same), start_loss(grown), grown.stderr[-200:]))
    with open(grown_path, "rb") as f:
        hidden = int.from_bytes(f.read(16)[12:16], "little")
    c.check(hidden == 64, "the grown network has 64 hidden units (%d)" % hidden)
    r = train_small(data, os.path.join(TMP, "shrunk.nnue"), "--init", grown_path)
    c.check(r.returncode != 0 and "more than --hidden 32" in r.stderr,
            "a network cannot be shrunk: %s" % r.stderr[-200:])
    # One output layer given to each of 8 buckets: the same function again.
    bucketed_path = os.path.join(TMP, "bucketed.nnue")
    bucketed = train_small(data, bucketed_path, "--init", first, "--buckets", "8")
    c.check(bucketed.returncode == 0 and start_loss(bucketed) == start_loss(same)
            and "8 output buckets" in bucketed.stdout,
            "a 1-bucket network spread over 8 buckets starts at its held-out loss (%s, %s)" %
            (start_loss(same), start_loss(bucketed)))
    with open(bucketed_path, "rb") as f:
        head = f.read(32)
    c.check(int.from_bytes(head[8:12], "little") == 2 and int.from_bytes(head[28:32], "little") == 8,
            "a network of 8 buckets is written as version 2 with its bucket count")
    kept_path = os.path.join(TMP, "kept.nnue")
    kept = train_small(data, kept_path, "--init", bucketed_path)
    head = b""
    if os.path.exists(kept_path):
        with open(kept_path, "rb") as f:
            head = f.read(32)
    c.check(kept.returncode == 0 and "8 output buckets" in kept.stdout
            and int.from_bytes(head[28:32], "little") == 8,
            "without --buckets a network of 8 buckets is trained on with 8: %s" % kept.stderr[-200:])
    r = train_small(data, os.path.join(TMP, "b0.nnue"), "--buckets", "0")
    c.check(r.returncode != 0 and "usage" in r.stderr, "--buckets 0 shows usage")
    r = train_small(data, os.path.join(TMP, "b4.nnue"), "--init", bucketed_path, "--buckets", "4")
    c.check(r.returncode != 0 and "8 output buckets" in r.stderr,
            "8 buckets cannot become 4: %s" % r.stderr[-200:])
    r = train_small(data, os.path.join(TMP, "b9.nnue"), "--buckets", "9")
    c.check(r.returncode != 0 and "usage" in r.stderr, "--buckets 9 shows usage")


def final_eval(e, fen):
    """The Final evaluation line's cp (White's view) of `eval` on fen."""
    e.send("position fen " + fen)
    e.send("eval")
    m = re.search(r"Final evaluation: (-?\d+) cp", e.expect("Final evaluation")[-1])
    return int(m.group(1)) if m else None


def mirrored_inputs(c, data):
    """`hexe train --mirrored-inputs 1`: a version-3 network whose float and
    quantised outputs agree, loaded through EvalFile; --init from an
    unmirrored network is allowed, the other way round is refused."""
    path = os.path.join(TMP, "mirrored.nnue")
    r = train_small(data, path, "--mirrored-inputs", "1", "--epochs", "3", "--lr", "0.003")
    c.check(r.returncode == 0 and "mirrored inputs" in r.stdout and re.search(
        r"quantised .*mean \|diff\| [0-9.]+ cp, mean diff [+-][0-9.]+ cp, largest \d+ cp: ok", r.stdout),
        "a mirrored network is trained and its quantised file matches the float one: %s %s" %
        (r.stdout[-300:], r.stderr[-200:]))
    head = open(path, "rb").read(36) if os.path.exists(path) else b""
    c.check(len(head) == 36 and int.from_bytes(head[8:12], "little") == 3 and
            int.from_bytes(head[32:36], "little") == 1, "it is written as version 3 with flag bit 0")
    e = Engine()
    e.handshake()
    e.send("setoption name EvalFile value " + path)
    got = e.expect("info string")
    c.check("mirrored inputs" in got[-1], "EvalFile loads it and says so: %s" % got[-1])
    e.send("setoption name Evaluation value nnue")
    one = final_eval(e, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w - - 0 8")
    two = final_eval(e, "1kr1qb1r/pppb2pp/2np1n2/4p3/4PP2/2NP1N2/PPP3PP/R1BKQ2R w - - 0 8")
    c.check(one is not None and one == two, "a position and its a-h mirror: %s and %s cp" % (one, two))
    e.send("position startpos moves e2e4 e7e5")
    e.send("go depth 6")
    best = e.expect("bestmove")[-1].split()[1]
    c.check(best in e.legal_moves("position startpos moves e2e4 e7e5"), "a search with it plays a legal move")
    e.close()
    grown = os.path.join(TMP, "mirrored-from-plain.nnue")
    r = train_small(data, grown, "--init", NET, "--mirrored-inputs", "1")
    c.check(r.returncode == 0 and "from an --init without them" in r.stdout and
            open(grown, "rb").read(9)[8] == 3, "--init from an unmirrored network trains a mirrored one: %s" %
            r.stderr[-200:])
    again = os.path.join(TMP, "mirrored-again.nnue")
    r = train_small(data, again, "--init", path)
    c.check(r.returncode == 0 and "mirrored inputs" in r.stdout and open(again, "rb").read(9)[8] == 3,
            "without --mirrored-inputs, --init's mirrored inputs are kept: %s" % r.stderr[-200:])
    r = train_small(data, os.path.join(TMP, "unmirrored.nnue"), "--init", path, "--mirrored-inputs", "0")
    c.check(r.returncode != 0 and "cannot start from it" in r.stderr,
            "a network without mirrored inputs cannot start from one with them: %s" % r.stderr[-200:])


def pipeline(c):
    data = os.path.join(TMP, "d.bin")
    r = subprocess.run([HEXE, "datagen", "--nodes", "400", "--games", "24", "--threads", "2", "--openings",
                        OPENINGS, "--out", data], capture_output=True, text=True, timeout=300)
    c.check(r.returncode == 0 and os.path.getsize(data) >= 32 * 300,
            "datagen wrote training records (%s bytes)" % (os.path.getsize(data) if os.path.exists(data) else 0))
    log = os.path.join(TMP, "loss.csv")
    r = subprocess.run([HEXE, "train", "--data", data, "--out", NET, "--hidden", "32", "--epochs", "6",
                        "--batch", "256", "--lr", "0.003", "--val", "0.1", "--log", log],
                       capture_output=True, text=True, timeout=300)
    c.check(r.returncode == 0, "train exits 0 (%d): %s %s" % (r.returncode, r.stdout[-300:], r.stderr[-300:]))
    epochs = re.findall(r"^epoch (\d+)/6: train ([0-9.]+) validation ([0-9.]+) lr [0-9.]+ \d+ positions/s$",
                        r.stdout, re.M)
    c.check(len(epochs) == 6, "one line per epoch with both losses and positions/s: %s" % r.stdout[-400:])
    if len(epochs) == 6:
        c.check(float(epochs[-1][1]) < float(epochs[0][1]), "the training loss falls: %s" % epochs)
    c.check(re.search(r"K = \d+", r.stdout) is not None, "the fitted scale K is reported")
    c.check(re.search(r"quantised .*mean \|diff\| [0-9.]+ cp, mean diff [+-][0-9.]+ cp, largest \d+ cp: ok",
                      r.stdout) is not None,
            "the quantised network read back matches the float one: %s" % r.stdout[-200:])
    rows = open(log).read().splitlines() if os.path.exists(log) else []
    c.check(len(rows) == 7 and rows[0] == "epoch,train,validation,lr,positions_per_s", "the CSV log has 6 epochs")
    png = os.path.join(TMP, "loss.png")
    r = subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "plot-loss"),
                        log, png], capture_output=True, text=True, timeout=120)
    c.check((r.returncode == 0 and os.path.getsize(png) > 1000) or "matplotlib is missing" in r.stderr,
            "plot-loss draws the curves or says what it lacks: %s" % r.stderr[-200:])
    init_keeps_scale(c, data)
    mirrored_inputs(c, data)
    r = subprocess.run([HEXE, "train", "--data", os.path.join(TMP, "none.bin")], capture_output=True, text=True)
    c.check(r.returncode != 0 and "cannot read" in r.stderr, "train: missing data reported")
    r = subprocess.run([HEXE, "train", "--data", data, "--hidden", "48"], capture_output=True, text=True)
    c.check(r.returncode != 0 and "usage" in r.stderr, "train: a hidden size that is no multiple of 32 shows usage")

    e = Engine()
    e.handshake()
    e.send("setoption name EvalFile value " + NET)
    got = e.expect("info string")
    c.check("32 hidden units" in got[-1], "EvalFile loads the trained network: %s" % got[-1])
    e.send("setoption name Evaluation value nnue")
    e.send("position startpos moves e2e4 e7e5")
    c.check(network_name(e) == NET, "eval names the network in use")
    e.send("go depth 6")
    best = e.expect("bestmove")[-1].split()[1]
    c.check(best in e.legal_moves("position startpos moves e2e4 e7e5"), "a search with it plays a legal move")
    e.close()


def bad_files(c):
    e = Engine()
    e.send("uci")
    lines = e.expect("uciok")
    c.check("option name EvalFile type string default <internal>" in lines, "EvalFile is offered, default <internal>")
    ev = [l for l in lines if l.startswith("option name Evaluation ")]
    c.check(ev and "var nnue" in ev[0], "nnue is one of the evaluators")
    e.send("setoption name Evaluation value nnue")
    good = open(NET, "rb").read() if os.path.exists(NET) else b""
    cases = {
        "missing": None,
        "truncated": good[:-40],
        "garbage": os.urandom(len(good)),
        "wrong-magic": b"XEXENNUE" + good[8:],
        "empty": b"",
    }
    fifo = os.path.join(TMP, "fifo.nnue")
    os.mkfifo(fifo)
    paths = [os.path.join(TMP, name + ".nnue") for name in cases] + [TMP, fifo]
    for name, body in cases.items():
        if body is not None:
            with open(os.path.join(TMP, name + ".nnue"), "wb") as f:
                f.write(body)
    for path in paths:
        t0 = time.monotonic()
        e.send("setoption name EvalFile value " + path)
        e.send("isready")
        got = e.expect("readyok", timeout=5)
        info = [l for l in got if l.startswith("info string")]
        c.check(info and "EvalFile not loaded" in info[0] and "the network stays <internal>" in info[0],
                "%s: refused with a reason: %s" % (os.path.basename(path), info))
        c.check(time.monotonic() - t0 < 2, "%s: answered at once" % os.path.basename(path))
    c.check(network_name(e) == "<internal>", "the embedded network is still in use")
    e.send("go depth 4")
    c.check(e.expect("bestmove")[-1].startswith("bestmove "), "the engine still searches")
    e.close()


C.run(pipeline)
C.run(bad_files)
sys.exit(C.report())
