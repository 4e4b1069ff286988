#!/usr/bin/env python3
"""A soak test of the UCI front end: a long random (but seeded) sequence of
the commands hosts send, in every state: searches of every kind with
1-4 threads, stop, ponderhit, isready, setoption and position while
searching, option changes, Chess960 on and off, bad input. After every step
the invariants that GUIs and match runners rely on are checked:

- exactly one `bestmove` per `go`, never one without a `go` or before
  `stop`/`ponderhit` ends an infinite or ponder search;
- the best move (and the ponder move after it) is legal in the position
  the search was started on, and one of `searchmoves` when they were given;
- `isready` is answered at once, also during a search;
- only `info`, `bestmove`, `readyok` lines come back, and every number in
  an `info` line is a plain integer;
- the engine never dies, and `quit` ends it with exit code 0.

Legality comes from a second Hexe's `go perft 1` (perft is checked against
the reference counts in tests/perft.py). STRESS_SEED and STRESS_STEPS
change the run (e.g. STRESS_STEPS=5000 for a longer soak).
Ends with `N passed, N failed`."""
import os
import random
import re
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from uci_harness import Checks, Engine  # noqa: E402

SLOW = 4 if os.environ.get("HEXE_SANITIZED") else 1
SEED = int(os.environ.get("STRESS_SEED", "20261125"))
STEPS = int(os.environ.get("STRESS_STEPS", "600"))
PERFT_EPD = os.path.join(HERE, "data", "perft", "random.epd")
C = Checks("test_stress")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
# Integers after these words in an info line; `score` is followed by cp/mate and a number.
NUMERIC = {"depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits", "time", "currmovenumber", "cp", "mate"}
BAD_POSITIONS = ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "position fen rnbqkbnr/ppp w", "position banana",
                 "position startpos moves e2e5", "position fen " + START.replace(" w ", " x "))
BAD_OPTIONS = ("setoption name Hash value -3", "setoption name Threads value 100000", "setoption name MultiPV value x",
               "setoption name Nope value 1", "setoption name UCI_Elo value 99999999999")


def fens(chess960):
    """Positions of tests/data/perft/random.epd (the Chess960 ones only in 960 mode)."""
    out = []
    try:
        with open(PERFT_EPD) as f:
            for line in f:
                if line.startswith("#") or ";" not in line:
                    continue
                fen, rest = line.split(";", 1)
                if ("c960" in rest) == chess960:
                    out.append(fen.strip())
    except OSError:
        pass
    return out or [START]


class Soak:
    def __init__(self, c, rng):
        self.c, self.rng = c, rng
        self.e = Engine()
        self.ref = Engine()  # legality oracle, kept in the same Chess960 mode
        self.e.handshake()
        self.ref.handshake()
        self.e.send("setoption name OwnBook value false")
        self.chess960 = False
        self.fens = {False: fens(False), True: fens(True)}
        self.pos = "position startpos"
        self.gos = 0
        self.bestmoves = 0
        self.since_go = []  # lines read since the last go

    # -- reading: every line goes through check() once --
    def check(self, lines, what):
        for l in lines:
            if l.startswith("info ") and not l.startswith("info string"):
                toks = l.split()
                for k in range(len(toks) - 1):
                    if toks[k] in NUMERIC and not re.fullmatch(r"-?\d+", toks[k + 1]):
                        self.c.check(False, "%s: %s %r is not an integer in %r" % (what, toks[k], toks[k + 1], l))
                    if toks[k] == "pv":
                        break
            elif l.startswith("bestmove "):
                self.bestmoves += 1
            elif not l.startswith("info string") and l != "readyok":
                self.c.check(False, "%s: unexpected line %r" % (what, l))
        self.since_go += lines
        return lines

    def read_until(self, pred, timeout, what):
        return self.check(self.e.read_until(pred, timeout), what)

    def wait_bestmove(self, what):
        """The lines of the search started by the last go, up to its bestmove."""
        if not any(l.startswith("bestmove") for l in self.since_go):
            self.read_until(lambda l: l.startswith("bestmove"), 20 * SLOW, what)
        return self.since_go

    def legal(self, pos):
        return self.ref.legal_moves(pos)

    def check_best(self, lines, pos, what, searchmoves=None):
        best = [l for l in lines if l.startswith("bestmove")]
        if not self.c.check(len(best) == 1, "%s: one bestmove (%r)" % (what, best)):
            return
        toks = best[0].split()
        legal = self.legal(pos)
        if not legal:
            self.c.check(toks[1] in ("(none)", "0000"), "%s: no legal move, got %r" % (what, best[0]))
            return
        self.c.check(toks[1] in legal, "%s: bestmove %s legal in %s" % (what, toks[1], pos))
        if searchmoves:
            self.c.check(toks[1] in searchmoves, "%s: bestmove %s among searchmoves %s" % (what, toks[1], searchmoves))
        if toks[1] in legal:
            # Counted whether or not a ponder move came (that depends on
            # timing), so that the number of checks is the same every run.
            ponder = toks[3] if len(toks) >= 4 and toks[2] == "ponder" else None
            after = pos + (" " if " moves " in pos else " moves ") + toks[1]
            self.c.check(ponder is None or ponder in self.legal(after),
                         "%s: ponder %s legal after %s" % (what, ponder, toks[1]))

    def ping(self, what):
        t0 = time.monotonic()
        self.e.send("isready")
        lines = self.read_until(lambda l: l == "readyok", 2 * SLOW, what)
        self.c.check(time.monotonic() - t0 < 1.0 * SLOW, "%s: readyok late" % what)
        return lines

    # -- actions --
    def new_position(self):
        r = self.rng.random()
        if r < 0.45:
            pos = "position startpos"
            for ply in range(self.rng.randrange(0, 40)):
                legal = sorted(self.legal(pos))
                if not legal:
                    break
                pos += (" " if ply else " moves ") + self.rng.choice(legal)
        elif r < 0.9:
            pos = "position fen " + self.rng.choice(self.fens[self.chess960])
        else:
            bad = self.rng.choice(BAD_POSITIONS)
            self.e.send(bad)
            lines = self.ping(bad)  # the complaint comes before readyok
            self.c.check(any(l.startswith("info string") for l in lines), "complaint about " + bad)
            return
        self.pos = pos
        self.e.send(pos)

    def set_option(self, searching):
        r = self.rng
        choices = [
            "Threads value %d" % r.choice((1, 1, 2, 3, 4)), "Hash value %d" % r.choice((1, 8, 16, 33)),
            "MultiPV value %d" % r.choice((1, 1, 2, 4)), "Skill Level value %d" % r.randrange(0, 21),
            "UCI_LimitStrength value %s" % r.choice(("true", "false")), "UCI_Elo value %d" % r.randrange(1000, 3001),
            "UCI_ShowWDL value %s" % r.choice(("true", "false")), "Ponder value %s" % r.choice(("true", "false")),
            "Move Overhead value %d" % r.choice((0, 10, 50)), "Clear Hash",
            "UCI_AnalyseMode value %s" % r.choice(("true", "false"))]
        if not searching:  # during a search the engine may or may not be done: the mode must stay known
            choices.append("UCI_Chess960 value %s" % r.choice(("true", "false")))
        opt = "setoption name " + r.choice(choices)
        if r.random() < 0.1:
            opt = r.choice(BAD_OPTIONS)
        self.e.send(opt)
        if not searching and opt.startswith("setoption name UCI_Chess960 value"):
            self.chess960 = opt.endswith("true")
            self.ref.send(opt)
            self.ref.send("isready")
            self.ref.expect("readyok")
            self.e.send("position startpos")
            self.pos = "position startpos"

    def bounded_go(self):
        r = self.rng
        searchmoves = None
        kind = r.randrange(8)
        legal = sorted(self.legal(self.pos)) if kind == 5 else []
        if kind == 0:
            go = "go depth %d" % r.randrange(1, 7)
        elif kind == 1:
            go = "go nodes %d" % r.choice((1, 100, 5000, 20000))
        elif kind == 2:
            go = "go movetime %d" % r.randrange(5, 120)
        elif kind == 3:
            go = "go wtime %d btime %d winc %d binc %d" % (r.randrange(-50, 3000), r.randrange(-50, 3000),
                                                          r.choice((0, 10, 30)), r.choice((0, 10, 30)))
        elif kind == 4:
            go = "go wtime %d btime %d movestogo %d" % (r.randrange(0, 2000), r.randrange(0, 2000), r.choice((1, 2, 30)))
        elif kind == 5 and legal:
            searchmoves = r.sample(legal, r.randrange(1, min(4, len(legal)) + 1))
            go = "go depth %d searchmoves %s" % (r.randrange(1, 6), " ".join(searchmoves))
        elif kind == 6:
            go = "go mate 2 movetime 200"
        else:
            go = "go depth 3 movetime 50"
        pos = self.start(go)
        if r.random() < 0.4:
            self.ping(go + " (isready while searching)")
        if r.random() < 0.2:
            self.set_option(searching=True)  # refused, or applied if the search is over: never a crash
        if r.random() < 0.15:
            self.new_position()  # for the next go; this search keeps its own position
        self.check_best(self.wait_bestmove(go), pos, go, searchmoves)

    def unbounded_go(self):
        r = self.rng
        ponder = r.random() < 0.5
        go = "go ponder wtime %d btime %d winc 20 binc 20" % (r.randrange(50, 2000), r.randrange(50, 2000)) if ponder \
            else "go infinite"
        pos = self.start(go)
        time.sleep(r.random() * 0.1)
        self.ping(go)
        self.c.check(not any(l.startswith("bestmove") for l in self.since_go),
                     "%s: no bestmove before stop (%r)" % (go, self.since_go[-2:]))
        if r.random() < 0.15:
            # A new go while searching: the old search answers first, then the new one.
            self.gos += 1
            self.e.send("go depth 2")
            while sum(l.startswith("bestmove") for l in self.since_go) < 2:
                self.read_until(lambda l: l.startswith("bestmove"), 20 * SLOW, go + ", then go depth 2")
            first = next(i for i, l in enumerate(self.since_go) if l.startswith("bestmove"))
            self.check_best(self.since_go[:first + 1], pos, go + " (ended by the next go)")
            self.check_best(self.since_go[first + 1:], pos, "go depth 2 after " + go)
            return
        if ponder and r.random() < 0.6:
            self.e.send("ponderhit")
        else:
            self.e.send("stop")
            if r.random() < 0.3:
                self.e.send("stop")  # a second stop finds the search over: no second bestmove
        self.check_best(self.wait_bestmove(go), pos, go)

    def start(self, go):
        """Sends go; returns the position it searches."""
        self.gos += 1
        self.since_go = []
        self.e.send(go)
        return self.pos

    def idle_noise(self):
        cmd = self.rng.choice(("stop", "ponderhit", "ucinewgame", "banana split", "", "   \t ", "debug on"))
        self.e.send(cmd)
        self.ping("after %r while idle" % cmd)

    def step(self):
        r = self.rng.random()
        if r < 0.15:
            self.new_position()
        elif r < 0.25:
            self.set_option(searching=False)
        elif r < 0.6:
            self.bounded_go()
        elif r < 0.8:
            self.unbounded_go()
        else:
            self.idle_noise()

    def finish(self):
        self.ping("the end")
        self.check(self.e.drain(0.2), "the end")  # nothing more, above all no stray bestmove
        self.c.check(self.bestmoves == self.gos, "one bestmove per go: %d go, %d bestmove" % (self.gos, self.bestmoves))
        t0 = time.monotonic()
        rc = self.e.close(timeout=5)
        self.c.check(rc == 0, "quit: exit code %s" % rc)
        self.c.check(time.monotonic() - t0 < 1.0 * SLOW, "quit took %.2f s" % (time.monotonic() - t0))
        self.ref.close()


def soak(c):
    s = Soak(c, random.Random(SEED))
    for i in range(STEPS):
        try:
            s.step()
        except (TimeoutError, EOFError) as ex:
            c.check(False, "step %d (seed %d): %s: %s" % (i, SEED, type(ex).__name__, ex))
            s.e.p.kill()
            return
    s.finish()


C.run(soak)
sys.exit(C.report())
