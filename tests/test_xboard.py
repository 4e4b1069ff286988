#!/usr/bin/env python3
"""xboard (CECP) GUIs through Debian's PolyGlot adapter: the `hexe.ini` of
docs/gui.md, driven with xboard protocol commands the way xboard sends them.
Needs `polyglot` (Debian package; /usr/games/polyglot, or POLYGLOT=path).
Python 3 standard library only; HEXE names the binary.
Ends with `N passed, N failed`."""
import os
import random
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from uci_harness import ENGINE, Checks, Engine  # noqa: E402

SLOW = 4 if os.environ.get("HEXE_SANITIZED") else 1
GUI_DOC = os.path.join(HERE, "..", "docs", "gui.md")
C = Checks("test_xboard")
# PolyGlot relays Hexe's `info string` lines as thinking output; these words
# there (or from PolyGlot itself) mean something went wrong.
TROUBLE = re.compile(r"illegal|invalid|error|no option|unknown|refused|not used|resign", re.I)
THINKING = re.compile(r"^\s*\d+\s+[-+]?\d+\s+\d+\s+\d+\s+\S")


def find_polyglot():
    for p in (os.environ.get("POLYGLOT"), shutil.which("polyglot"), "/usr/games/polyglot"):
        if p and os.access(p, os.X_OK):
            return p
    return None


def doc_ini():
    """The ```ini block of docs/gui.md."""
    text = open(GUI_DOC, encoding="utf-8").read()
    m = re.search(r"^```ini\n(.*?)^```", text, re.S | re.M)
    if not m:
        raise ValueError("no ```ini block in docs/gui.md")
    return m.group(1)


def ini_sections(text):
    out, sec = {}, None
    for line in text.splitlines():
        line = re.split(r"(?<!\\)[;#]", line)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            sec = line.strip("[]")
            out[sec] = {}
        else:
            k, _, v = line.partition("=")
            out[sec][k.strip()] = v.strip()
    return out


def write_ini(tmp, log=True):
    """The guide's ini with this checkout's binary, and a log file."""
    exe = os.path.abspath(ENGINE)
    lines = []
    for line in doc_ini().splitlines():
        key = line.split("=")[0].strip()
        if key == "EngineDir":
            line = "EngineDir = " + os.path.dirname(exe)
        elif key == "EngineCommand":
            line = "EngineCommand = ./" + os.path.basename(exe)
        elif key == "Log" and log:
            line = "Log = true\nLogFile = " + os.path.join(tmp, "polyglot.log")
        lines.append(line)
    path = os.path.join(tmp, "hexe.ini")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def uci_defaults():
    """{option name: default as written} from Hexe's `uci` reply."""
    e = Engine()
    e.send("uci")
    out = {}
    for l in e.expect("uciok", 5 * SLOW):
        if l.startswith("option name "):
            name, _, spec = l[len("option name "):].partition(" type ")
            d = spec.split(" default ", 1)[1] if " default " in spec else ""
            out[name] = d.split(" min ")[0].split(" var ")[0]
    e.close()
    return out


class Xboard:
    """PolyGlot driven as xboard drives it."""

    def __init__(self, polyglot, ini):
        # In the ini's folder: with `Log = true` PolyGlot opens ./polyglot.log
        # before it reads LogFile.
        here = os.getcwd()
        os.chdir(os.path.dirname(ini))
        try:
            self.e = Engine(polyglot, [ini])
        finally:
            os.chdir(here)
        self.out = []

    def send(self, s):
        self.e.send(s)

    def until(self, pred, timeout):
        lines = self.e.read_until(pred, timeout * SLOW)
        self.out += lines
        return lines

    def move(self, timeout=10):
        """Lines up to the engine's `move X`; returns (X, lines)."""
        lines = self.until(lambda l: l.startswith("move "), timeout)
        return lines[-1].split()[1], lines

    def drain(self, wait):
        lines = self.e.drain(wait)
        self.out += lines
        return lines

    def handshake(self):
        self.send("xboard")
        self.send("protover 2")
        return self.until(lambda l: l.strip() == "feature done=1", 10)


def features(c, px, uci_names, ini):
    lines = px.handshake()
    text = "\n".join(lines)
    name = ini["PolyGlot"].get("EngineName", "Hexe")
    c.check('feature myname="%s"' % name in text, "myname is %s" % name)
    c.check(re.search(r'feature variants="[^"]*fischerandom', text) is not None, "variants include fischerandom")
    for f in ("usermove=1", "setboard=1", "ping=1", "analyze=1", "memory=1", "smp=1"):
        c.check("feature " + f in text, "feature " + f)
    for opt in ("Move Overhead -spin", "OwnBook -check", "Evaluation -combo", "Skill Level -spin"):
        c.check('feature option="%s' % opt in text, "Hexe's option offered to xboard: " + opt)
    # The guide's [Engine] lines name real options.
    for k in ini.get("Engine", {}):
        c.check(k in uci_names, "[Engine] %s in docs/gui.md is a Hexe option" % k)
    px.send("ping 1")
    c.check(px.until(lambda l: l.startswith("pong"), 5)[-1].strip() == "pong 1", "ping 1 -> pong 1")


def game(c, px, ref):
    """Hexe as White against random replies, clocks as xboard sends them."""
    rng = random.Random(7)
    px.send("memory 32")
    px.send("cores 1")
    px.send("new")
    px.send("hard")
    px.send("post")
    px.send("level 0 1 0")
    moves = []
    mine, theirs = 3000, 3000  # centiseconds
    for n in range(8):
        px.send("time %d" % mine)
        px.send("otim %d" % theirs)
        t0 = time.monotonic()
        px.send("go" if n == 0 else "usermove " + moves[-1])
        mv, lines = px.move(10)
        used = int((time.monotonic() - t0) * 100)
        c.check(used < mine, "move %d within the clock (%d of %d cs)" % (n + 1, used, mine))
        mine -= used
        cmd = "position startpos" + (" moves " + " ".join(moves) if moves else "")
        legal = ref.legal_moves(cmd)
        if not c.check(mv in legal, "move %d: %s is legal after %s" % (n + 1, mv, cmd)):
            return
        moves.append(mv)
        cmd = "position startpos moves " + " ".join(moves)
        replies = sorted(ref.legal_moves(cmd))
        if not replies:
            break  # the game is over: the thinking output is still checked
        moves.append(rng.choice(replies))
        if not ref.legal_moves("position startpos moves " + " ".join(moves)):
            break
    c.check(any(THINKING.match(l) for l in px.out), "thinking output after post")
    px.send("force")
    px.send("ping 2")
    px.until(lambda l: l.startswith("pong 2"), 5)


def mate(c, px):
    px.send("new")
    px.send("force")
    px.send("setboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
    px.send("time 3000")
    px.send("otim 3000")
    px.send("go")
    mv, _ = px.move(10)
    c.check(mv == "d1d8", "mate in one found (%s)" % mv)
    lines = px.until(lambda l: l.startswith(("1-0", "0-1", "1/2-1/2")), 5)
    c.check(lines[-1].startswith("1-0 {White mates}"), "PolyGlot announces the mate (%s)" % lines[-1])


def chess960(c, px):
    # The only legal move is castling (king g1 takes rook h1).
    px.send("new")
    px.send("variant fischerandom")
    px.send("force")
    px.send("setboard 1k3r2/8/8/8/8/7p/r6P/6KR w H - 0 1")
    px.send("time 3000")
    px.send("otim 3000")
    px.send("go")
    mv, _ = px.move(10)
    c.check(mv == "O-O", "960: Hexe's castling relayed as O-O (%s)" % mv)
    # The GUI castles: PolyGlot sends it to Hexe as king-takes-rook.
    px.send("new")
    px.send("variant fischerandom")
    px.send("force")
    px.send("setboard 6kr/7p/7R/8/8/8/8/1K6 b h - 0 1")
    px.send("usermove O-O")
    px.send("time 3000")
    px.send("otim 3000")
    px.send("go")
    mv, lines = px.move(10)
    c.check(re.fullmatch(r"[a-h][1-8][a-h][1-8]", mv) is not None and mv[:2] in ("h6", "b1"),
            "960: a White move after the GUI's O-O (%s)" % mv)
    c.check(not [l for l in lines if "Illegal" in l], "960: usermove O-O accepted")
    px.send("force")


def analyze(c, px):
    px.send("new")
    px.send("force")
    px.send("setboard r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    px.send("post")
    px.send("analyze")
    lines = px.drain(1.0 * SLOW)
    c.check(any(THINKING.match(l) for l in lines), "analyze: thinking output (%r)" % lines[-2:])
    px.send("exit")
    px.send("ping 3")
    lines = px.until(lambda l: l.startswith("pong 3"), 5)
    c.check(not [l for l in lines + px.drain(0.2) if l.startswith("move ")], "analyze: no move played")


def run(c):
    polyglot = find_polyglot()
    if not c.check(polyglot is not None, "polyglot found (apt-get install polyglot, or POLYGLOT=path)"):
        return
    ini = ini_sections(doc_ini())
    uci_names = uci_defaults()
    c.check(ini["PolyGlot"].get("EngineCommand") == "./hexe", "docs/gui.md's ini runs ./hexe")
    with tempfile.TemporaryDirectory() as tmp:
        px = Xboard(polyglot, write_ini(tmp))
        ref = Engine()
        ref.handshake()
        for step in (features, game, mate, chess960, analyze):
            try:
                if step is features:
                    step(c, px, uci_names, ini)
                elif step is game:
                    step(c, px, ref)
                else:
                    step(c, px)
            except (TimeoutError, EOFError) as err:
                c.check(False, "%s: %s" % (step.__name__, err))
        px.send("quit")
        t0 = time.monotonic()
        try:
            rc = px.e.p.wait(timeout=5 * SLOW)
        except Exception:  # noqa: BLE001
            px.e.p.kill()
            rc = None
        c.check(rc == 0, "quit: PolyGlot exits 0 (%r)" % rc)
        c.check(time.monotonic() - t0 < 2 * SLOW, "quit within 2 s")
        ref.close()
        trouble = [l for l in px.out if TROUBLE.search(l) and not l.startswith("feature ")]
        c.check(not trouble, "no complaint relayed (%r)" % trouble[:3])
        log = open(os.path.join(tmp, "polyglot.log"), errors="replace").read()
        sent = [l.split("Adapter->Engine: ", 1)[1] for l in log.splitlines() if "Adapter->Engine: " in l]
        for k, v in ini.get("Engine", {}).items():
            c.check(("setoption name %s value %s" % (k, v)) in sent or uci_names.get(k) == v,
                    "[Engine] %s = %s sent (or it is Hexe's default)" % (k, v))
        c.check("setoption name Hash value 32" in sent, "memory 32 -> setoption name Hash value 32")
        c.check("setoption name Ponder value true" in sent, "hard -> setoption name Ponder value true")
        c.check(any(l.startswith("go ") and " ponder" in l for l in sent), "hard: PolyGlot ponders (go ... ponder)")
        c.check("setoption name UCI_Chess960 value true" in sent, "fischerandom -> UCI_Chess960 true")
        c.check(any(l.endswith("moves g8h8") for l in sent), "the GUI's O-O sent to Hexe as g8h8")
        got = [l.split("Engine->Adapter: ", 1)[1] for l in log.splitlines() if "Engine->Adapter: info string" in l]
        bad = [l for l in got if TROUBLE.search(l)]
        c.check(not bad, "no info string complaint from Hexe (%r)" % bad[:3])


def option_table(c):
    """docs/gui.md's table of UCI options matches what `uci` declares."""
    e = Engine()
    e.send("uci")
    declared = {}
    for l in e.expect("uciok", 5 * SLOW):
        if l.startswith("option name "):
            name, _, spec = l[len("option name "):].partition(" type ")
            declared[name] = spec
    e.close()
    rows = {}
    for line in open(GUI_DOC, encoding="utf-8"):
        cells = [x.strip() for x in line.split("|")]
        if len(cells) >= 6 and re.fullmatch(r"`[^`]+`", cells[1]):
            rows[cells[1].strip("`")] = cells[2:5]
    for name, spec in declared.items():
        row = rows.get(name)
        if not c.check(row is not None, "docs/gui.md's option table has a row for %s (declared: %s)" % (name, spec)):
            continue
        typ, default, rng = row
        t = spec.split()
        c.check(typ == t[0], "%s: type %s in the table, %s declared" % (name, typ, t[0]))
        if t[0] == "spin":
            c.check(rng == "%s–%s" % (t[t.index("min") + 1], t[t.index("max") + 1]),
                    "%s: range %r in the table, declared %s" % (name, rng, spec))
        if t[0] in ("spin", "check", "combo") and name != "OwnBook":
            c.check(default == t[t.index("default") + 1], "%s: default %r in the table, declared %s"
                    % (name, default, spec))
        if t[0] == "combo":
            c.check([v.strip() for v in rng.split(",")] == spec.split(" var ")[1:],
                    "%s: values %r in the table, declared %s" % (name, rng, spec))
    for name in rows:
        c.check(name in declared, "docs/gui.md's option table: %s is declared by Hexe" % name)


C.run(option_table)
C.run(run)
sys.exit(C.report())
