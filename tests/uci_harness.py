"""A small UCI driver for the integration tests (Python 3 standard library only)."""
import atexit
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

ENGINE = os.environ.get("HEXE", "./hexe")


def temp_dir(prefix):
    """A fresh temporary folder, removed when the test process exits."""
    d = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, d, ignore_errors=True)
    return d


class Engine:
    def __init__(self, cmd=None, args=()):
        self.p = subprocess.Popen([cmd or ENGINE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, bufsize=1)
        self.q = queue.Queue()
        self.lines = []
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.p.stdout:
            self.q.put((time.monotonic(), line.rstrip("\n")))
        self.q.put((time.monotonic(), None))

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def read(self, timeout=10.0):
        """Next line, or None at end of output; raises TimeoutError."""
        try:
            t, line = self.q.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError("no output for %.1f s" % timeout)
        if line is not None:
            self.lines.append(line)
        return line

    def read_until(self, pred, timeout=10.0):
        """Lines up to and including the first that satisfies pred."""
        end = time.monotonic() + timeout
        out = []
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out waiting; got: %r" % out[-5:])
            line = self.read(left)
            if line is None:
                raise EOFError("engine exited; got: %r" % out[-5:])
            out.append(line)
            if pred(line):
                return out

    def expect(self, prefix, timeout=10.0):
        return self.read_until(lambda l: l.startswith(prefix), timeout)

    def drain(self, wait=0.2):
        out = []
        end = time.monotonic() + wait
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return out
            try:
                line = self.read(left)
            except TimeoutError:
                return out
            if line is None:
                return out
            out.append(line)

    def handshake(self):
        self.send("uci")
        self.expect("uciok")
        self.send("isready")
        self.expect("readyok")

    def legal_moves(self, position_cmd):
        self.send(position_cmd)
        self.send("go perft 1")
        lines = self.expect("Nodes searched")
        return {l.split(":")[0] for l in lines if ":" in l and not l.startswith(("Nodes", "info"))}

    def close(self, timeout=5):
        try:
            self.send("quit")
        except (BrokenPipeError, OSError):
            pass
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise


MATE_CP = 3000  # search_results() clamps mate scores to this many centipawns


def search_results(fens, engine=None, nodes=30000, jobs=2):
    """{fen: (score, best move)}: Hexe's score there, side to move's view, in
    centipawns, and its move (UCI): one --nodes search per FEN with a cleared
    hash, no book and 1 thread, so a result does not depend on the order or
    on how many engines (jobs) run."""
    results, lock = {}, threading.Lock()

    def worker(part):
        e = Engine(engine)
        e.handshake()
        for opt in ("OwnBook value false", "Hash value 8", "Threads value 1"):
            e.send("setoption name " + opt)
        for fen in part:
            e.send("ucinewgame")
            e.send("position fen " + fen)
            e.send("go nodes %d" % nodes)
            lines = e.expect("bestmove", 60)
            e.lines.clear()
            info = [l.split() for l in lines if " score " in l and not l.startswith("info string")][-1]
            kind, val = info[info.index("score") + 1], int(info[info.index("score") + 2])
            cp = (MATE_CP if val > 0 else -MATE_CP) if kind == "mate" else max(-MATE_CP, min(MATE_CP, val))
            with lock:
                results[fen] = (cp, lines[-1].split()[1])
        e.close()

    todo = sorted(set(fens))
    threads = [threading.Thread(target=worker, args=(todo[j::jobs],)) for j in range(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if len(results) != len(todo):
        raise RuntimeError("search_results: %d of %d positions searched" % (len(results), len(todo)))
    return results


def search_scores(fens, engine=None, nodes=30000, jobs=2):
    """{fen: score} of search_results()."""
    return {f: r[0] for f, r in search_results(fens, engine, nodes, jobs).items()}


class Checks:
    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0
        self.skipped = 0

    def check(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL %s: %s" % (self.name, what), flush=True)
        return cond

    def skip(self, n, why):
        """n checks not run because optional test data is missing."""
        self.skipped += n
        print("SKIP %d: %s" % (n, why), flush=True)

    def run(self, fn):
        """Runs one scenario; an exception counts as one failure."""
        try:
            fn(self)
        except Exception as e:  # noqa: BLE001 - report and go on
            self.failed += 1
            print("FAIL %s: %s raised %s: %s" % (self.name, fn.__name__, type(e).__name__, e), flush=True)

    def run_named(self, scenarios, names):
        """Runs the scenarios whose names are in names (all when it is empty) and reports."""
        for fn in scenarios:
            if not names or fn.__name__ in names:
                self.run(fn)
        return self.report()

    def report(self):
        skipped = ", %d skipped" % self.skipped if self.skipped else ""
        print("%d passed, %d failed%s" % (self.passed, self.failed, skipped))
        return 1 if self.failed else 0
