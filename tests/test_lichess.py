#!/usr/bin/env python3
"""lichess-bot integration: the `engine:` block of docs/lichess-bot.md against
the real engine, and lichess-bot's command sequence (python-chess's
chess.engine.UciProtocol, as lib/engine_wrapper.py drives it) replayed line
by line. Python 3 standard library only; HEXE names the binary.
Ends with `N passed, N failed`."""
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import lichess_doc  # noqa: E402
from uci_harness import Checks, Engine  # noqa: E402

SLOW = 4 if os.environ.get("HEXE_SANITIZED") else 1
C = Checks("test_lichess")


def uci_options(e):
    """{name: {type, default, min, max, vars, line}} from the `uci` reply."""
    e.send("uci")
    opts = {}
    for line in e.expect("uciok", 5 * SLOW):
        if not line.startswith("option name "):
            continue
        name, _, spec = line[len("option name "):].partition(" type ")
        typ, _, rest = spec.partition(" ")
        o = {"type": typ, "default": None, "min": None, "max": None, "vars": [], "line": line}
        if rest == "default" or rest.startswith("default "):
            rest = rest[len("default "):]
            if typ == "combo":
                o["default"], *o["vars"] = rest.split(" var ")
            elif typ == "spin":
                t = rest.split()
                o["default"] = t[0] if t else ""
                for k in ("min", "max"):
                    if k in t:
                        o[k] = int(t[t.index(k) + 1])
            else:
                o["default"] = rest
        opts[name] = o
    return opts


def value_fits(o, value):
    if isinstance(value, bool):
        return o["type"] == "check"
    if isinstance(value, int):
        return o["type"] == "spin" and o["min"] <= value <= o["max"]
    if o["type"] == "combo":
        return value in o["vars"]
    return o["type"] == "string"


def complaints(lines):
    return [l for l in lines if lichess_doc.is_complaint(l) and not l.startswith("info string book move ")]


# ---- the guide's block ----

def doc_block(c):
    eng = lichess_doc.engine_section()
    opts = lichess_doc.uci_options()
    c.check(eng.get("protocol") == "uci", "engine.protocol is uci")
    c.check(eng.get("ponder") is True, "engine.ponder is true")
    c.check(eng.get("name") == "hexe", "engine.name is hexe")
    c.check(len(opts) >= 5, "uci_options lists the options (%d)" % len(opts))
    for name in ("Hash", "Threads", "Move Overhead", "SyzygyPath", "OwnBook"):
        c.check(name in opts, "uci_options sets %s" % name)
    for name in opts:
        c.check(name.lower() not in lichess_doc.MANAGED, "%s is not an option python-chess manages" % name)


def options_declared(c):
    e = Engine()
    declared = uci_options(e)
    c.check(len(declared) >= 10, "uci lists options (%d)" % len(declared))
    for name, value in lichess_doc.uci_options().items():
        o = declared.get(name)
        if not c.check(o is not None, "option %s of the guide is declared" % name):
            continue
        c.check(value_fits(o, value), "guide's %s: %r fits %s" % (name, value, o["line"]))
    # lichess-bot's template sets both; Hexe declares them because it implements them.
    for name in ("UCI_ShowWDL", "SyzygyPath"):
        c.check(name in declared, "%s is declared (the template of config.yml sets it)" % name)
    for name, o in declared.items():
        if o["type"] == "check":
            c.check(o["default"] in ("true", "false"), "check default in lowercase: " + o["line"])
        if o["type"] == "combo":
            c.check(o["default"] in o["vars"], "combo default among its vars: " + o["line"])
    c.check(e.close() == 0, "quit exits 0")


def setoptions_quiet(c):
    """Each option exactly as python-chess sends it; only informational replies."""
    e = Engine()
    uci_options(e)
    for name, value in lichess_doc.uci_options().items():
        e.send(lichess_doc.setoption_line(name, value))
        e.send("isready")
        lines = e.expect("readyok", 10 * SLOW)[:-1]
        c.check(not complaints(lines), "setoption %s %r: no complaint (%r)" % (name, value, lines))
        if name == "SyzygyPath":
            c.check(any("tablebase files" in l for l in lines), "SyzygyPath %r loads tables: %r" % (value, lines))
    # The template's values that the guide warns about really are refused.
    for bad in ("setoption name UCI_NoSuchOption value true", "setoption name SyzygyPath value ./syzygy/"):
        e.send(bad)
        e.send("isready")
        lines = e.expect("readyok", 10 * SLOW)[:-1]
        c.check(complaints(lines), "%s is refused with an info string (%r)" % (bad, lines))
    c.check(e.close() == 0, "quit exits 0")


# ---- lichess-bot's sequence ----

class Referee:
    """A second engine process that lists legal moves (go perft 1)."""

    def __init__(self, chess960=False):
        self.e = Engine()
        self.e.handshake()
        if chess960:
            self.e.send("setoption name UCI_Chess960 value true")

    def legal(self, position_cmd):
        return self.e.legal_moves(position_cmd)

    def close(self):
        self.e.close()


def position_cmd(start, moves):
    return start + (" moves " + " ".join(moves) if moves else "")


def bestmove(lines):
    bm = [l for l in lines if l.startswith("bestmove")]
    return bm


def check_answer(c, ref, start, moves, lines, what):
    bm = bestmove(lines)
    if not c.check(len(bm) == 1, "%s: one bestmove (%r)" % (what, bm)):
        return None, None
    t = bm[0].split()
    move, ponder = t[1], (t[3] if len(t) >= 4 and t[2] == "ponder" else None)
    cmd = position_cmd(start, moves)
    c.check(move in ref.legal(cmd), "%s: bestmove %s legal after %s" % (what, move, cmd))
    if ponder:
        c.check(ponder in ref.legal(position_cmd(start, moves + [move])), "%s: ponder %s legal" % (what, ponder))
    c.check(any(l.startswith("info") and " score " in l for l in lines), "%s: an info line with a score" % what)
    if lichess_doc.uci_options().get("UCI_ShowWDL") is True:  # searched lines carry wdl (book lines are depth 0)
        scored = [l for l in lines if l.startswith("info depth ") and " score " in l and " depth 0 " not in l]
        c.check(all(" wdl " in l for l in scored), "%s: UCI_ShowWDL: wdl in every score (%r)"
                % (what, [l for l in scored if " wdl " not in l][:1]))
    c.check(not complaints(lines), "%s: no complaint (%r)" % (what, complaints(lines)))
    return move, ponder


def lichess_game(c):
    """One bot game as python-chess runs it: configure, ucinewgame + isready, first
    move with movetime, then clocks with pondering (ponderhit and ponder misses),
    ping and quit at the end."""
    rng = random.Random(20240601)
    ref = Referee()
    e = Engine()
    uci_options(e)
    for name, value in lichess_doc.uci_options().items():  # configure(): no isready after it
        e.send(lichess_doc.setoption_line(name, value))
    start, moves = "position startpos", []
    # First move: lichess-bot's Limit(time=10) (shortened here), ponder=False.
    e.send("ucinewgame")
    e.send("isready")
    lines = e.expect("readyok", 10 * SLOW)
    c.check(not complaints(lines), "configure + ucinewgame: no complaint (%r)" % complaints(lines))
    e.send(position_cmd(start, moves))
    t0 = time.monotonic()
    e.send("go movetime 1000")
    lines = e.expect("bestmove", 5 * SLOW)
    c.check(time.monotonic() - t0 < 1.5 * SLOW, "first move within its movetime")
    move, ponder = check_answer(c, ref, start, moves, lines, "first move")
    if not move:
        return
    moves.append(move)
    clock = {"w": 8000, "b": 8000}
    inc = 100
    ponder_sent = False
    ponder_lines = []
    hits = misses = 0
    for n in range(40):
        # The opponent answers: alternately the expected move (ponderhit) or another one.
        legal = sorted(ref.legal(position_cmd(start, moves)))
        if not legal:
            break  # the bot mated or stalemated the opponent
        others = [m for m in legal if m != ponder] or legal
        reply = ponder if (ponder_sent and n % 2 == 0 and ponder in legal) else rng.choice(others)
        moves.append(reply)
        if not ref.legal(position_cmd(start, moves)):
            break  # the opponent mated or stalemated the bot
        t0 = time.monotonic()
        # The lines of a ponder search count from its `go ponder` (a book move
        # is announced at once, before ponderhit or stop).
        if ponder_sent and reply == ponder:
            e.send("ponderhit")
            hits += 1
            what = "move %d after ponderhit" % (n + 2)
        else:
            if ponder_sent:  # ponder miss: stop; python-chess throws that answer away
                e.send("stop")
                old = ponder_lines + e.expect("bestmove", 2 * SLOW)
                check_answer(c, ref, start, moves[:-1] + [ponder], old, "stopped ponder search %d" % (n + 2))
                misses += 1
            if n == 0:
                e.send("setoption name Ponder value true")  # python-chess: play(..., ponder=True)
            e.send(position_cmd(start, moves))
            e.send("go wtime %d btime %d winc %d binc %d" % (clock["w"], clock["b"], inc, inc))
            what = "move %d" % (n + 2)
        lines = (ponder_lines if ponder_sent and reply == ponder else []) + e.expect("bestmove", 10 * SLOW)
        used = int((time.monotonic() - t0) * 1000)
        c.check(used < clock["w"], "%s: within the clock (%d ms of %d)" % (what, used, clock["w"]))
        clock["w"] = max(1, clock["w"] - used) + inc
        move, ponder = check_answer(c, ref, start, moves, lines, what)
        if not move:
            break
        moves.append(move)
        ponder_sent = False
        if ponder:  # python-chess ponders on <move> <ponder> with the clocks it expects
            e.send(position_cmd(start, moves + [ponder]))
            e.send("go ponder wtime %d btime %d winc %d binc %d" % (clock["w"], clock["b"] + inc, inc, inc))
            ponder_sent = True
            ponder_lines = e.drain(0.15)
            early = [l for l in ponder_lines if l.startswith("bestmove")]
            c.check(not early, "%s: no bestmove while pondering (%r)" % (what, early))
        if hits >= 2 and misses >= 2:
            break
    c.check(hits >= 1, "at least one ponderhit happened (%d)" % hits)
    c.check(misses >= 1, "at least one ponder miss happened (%d)" % misses)
    # Game over: lichess-bot pings (python-chess stops a running ponder first), then quits.
    if ponder_sent:
        e.send("stop")
        c.check(len(bestmove(e.expect("bestmove", 2 * SLOW))) == 1, "end: one bestmove after stop")
    e.send("isready")
    c.check(e.expect("readyok", 2 * SLOW)[-1] == "readyok", "end: readyok")
    t0 = time.monotonic()
    rc = e.close()
    c.check(rc == 0, "end: quit exits 0 (%r)" % rc)
    c.check(time.monotonic() - t0 < 1.0 * SLOW, "end: quit within 1 s")
    ref.close()


def lichess_960(c):
    """A Chess960 game as python-chess sends it: UCI_Chess960 true before the
    position, Shredder-FEN castling letters, king-takes-rook castling."""
    ref = Referee(chess960=True)
    e = Engine()
    uci_options(e)
    for name, value in lichess_doc.uci_options().items():
        e.send(lichess_doc.setoption_line(name, value))
    e.send("ucinewgame")
    e.send("isready")
    e.expect("readyok", 10 * SLOW)
    e.send("setoption name UCI_Chess960 value true")
    # The only legal move is castling: king g1 takes rook h1.
    start = "position fen 1k3r2/8/8/8/8/7p/r6P/6KR w H - 0 1"
    e.send(start)
    e.send("go wtime 5000 btime 5000 winc 0 binc 0")
    lines = e.expect("bestmove", 5 * SLOW)
    move, _ = check_answer(c, ref, start, [], lines, "960 forced castling")
    c.check(move == "g1h1", "960 castling written king-takes-rook (%s)" % move)
    # A 960 start position (#0 BBQNNRKR): a few moves with clocks.
    start, moves = "position fen bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", []
    for n in range(4):
        e.send(position_cmd(start, moves))
        e.send("go wtime 3000 btime 3000 winc 50 binc 50")
        lines = e.expect("bestmove", 5 * SLOW)
        move, _ = check_answer(c, ref, start, moves, lines, "960 move %d" % (n + 1))
        if not move:
            break
        moves.append(move)
    e.send("isready")
    e.expect("readyok", 2 * SLOW)
    c.check(e.close() == 0, "960: quit exits 0")
    ref.close()


def book_ponder(c):
    """lichess-bot ponders in the opening too: a book move found by `go ponder`
    waits for ponderhit or stop like any ponder search."""
    if lichess_doc.uci_options().get("OwnBook") is not True:
        c.skip(1, "book ponder: the documented lichess-bot settings turn OwnBook off")
        return
    ref = Referee()
    e = Engine()
    uci_options(e)
    for name, value in lichess_doc.uci_options().items():
        e.send(lichess_doc.setoption_line(name, value))
    e.send("ucinewgame")
    e.send("isready")
    e.expect("readyok", 10 * SLOW)  # Hash takes a moment
    pos = "position startpos moves e2e4"
    for end in ("ponderhit", "stop"):
        e.send(pos)
        e.send("go ponder wtime 60000 btime 60000 winc 1000 binc 1000")
        lines = e.drain(0.3 * SLOW)
        c.check(not bestmove(lines), "book ponder: no bestmove before %s (%r)" % (end, lines))
        c.check(not any(l.startswith("info") for l in lines), "book ponder: the book move's lines wait too (%r)" % lines)
        e.send(end)
        lines += e.expect("bestmove", 2 * SLOW)
        move, _ = check_answer(c, ref, "position startpos", ["e2e4"], lines, "book move after " + end)
        c.check(any(l == "info string book move %s" % move for l in lines), "book ponder: the book move is played")
    c.check(e.close() == 0, "book ponder: quit exits 0")
    ref.close()


for scenario in (doc_block, options_declared, setoptions_quiet, lichess_game, book_ponder, lichess_960):
    C.run(scenario)
sys.exit(C.report())
