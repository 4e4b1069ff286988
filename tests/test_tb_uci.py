#!/usr/bin/env python3
"""Syzygy tablebases through UCI: the root verdict and score, tbhits, the
50-move rule, bad paths, and games against Stockfish (without tablebases)
from won and drawn endgames. Reference verdicts come from Debian's `fathom`
prober (tests/data/tb/reference.txt). Tables: $HEXE_SYZYGY, else
$HEXE_TEST_DATA/syzygy (with 5-piece tables), else the repository's 3-4-piece
tablebases/; what needs more pieces than the tables hold is skipped and
counted."""
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from uci_harness import Checks, Engine  # noqa: E402



def syzygy_dir():
    if os.environ.get("HEXE_SYZYGY"):
        return os.environ["HEXE_SYZYGY"]
    data = os.environ.get("HEXE_TEST_DATA")
    if data and os.path.isdir(os.path.join(data, "syzygy")):
        return os.path.join(data, "syzygy")
    return os.path.join(HERE, "..", "tablebases")


SYZYGY = os.path.abspath(syzygy_dir())
TABLES = [f for f in os.listdir(SYZYGY) if f.endswith((".rtbw", ".rtbz"))] if os.path.isdir(SYZYGY) else []
MAX_PIECES = max((len(f) - 5 - 1 for f in TABLES), default=0)  # "KRPvKR.rtbw": 5 pieces
STOCKFISH = os.environ.get("STOCKFISH", "/usr/games/stockfish")
HEXE_MS = 200 if os.environ.get("HEXE_SANITIZED") else 50  # a move in the endgame games; a sanitized Hexe is slower
SF_MS = 50  # Stockfish is never sanitized
TB_WIN_BOUND = 18872
C = Checks("test_tb_uci")


def info_value(line, key):
    t = line.split()
    return t[t.index(key) + 1] if key in t else None


def score_of(line):
    t = line.split()
    i = t.index("score")
    return (t[i + 1], int(t[i + 2]))


def load_reference():
    rows = []
    with open(os.path.join(HERE, "data", "tb", "reference.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            p = line.rstrip("\n").split("|")
            rows.append({"fen": p[0], "wdl": p[1], "win": p[3].split(), "draw": p[4].split()})
    return rows


def pieces(fen):
    return sum(ch.isalpha() for ch in fen.split()[0])


def dest(san):
    s = san.rstrip("+#").split("=")[0]
    return s[-2:]


def root_verdicts(c):
    e = Engine()
    e.handshake()
    e.send("setoption name SyzygyPath value " + SYZYGY)
    line = e.expect("info string", 10)[-1]
    c.check(len(TABLES) >= 70 and ("%d tablebase files" % len(TABLES)) in line and ("%d pieces" % MAX_PIECES) in line,
            "tables found and counted (%d files, %d pieces): %s" % (len(TABLES), MAX_PIECES, line))
    e.send("setoption name OwnBook value false")
    for row in load_reference():
        if pieces(row["fen"]) > MAX_PIECES:
            c.skip(2 if row["wdl"] == "Loss" else 3, "%s: no %d-piece tables" % (row["fen"], pieces(row["fen"])))
            continue
        e.send("ucinewgame")
        e.send("position fen " + row["fen"])
        e.send("go depth 8")
        lines = e.expect("bestmove", 30)
        info = [l for l in lines if l.startswith("info depth") and " score " in l][-1]
        kind, val = score_of(info)
        best = lines[-1].split()[1]
        c.check(int(info_value(info, "tbhits")) > 0, "tbhits counted: " + row["fen"])
        if row["wdl"] == "Win":
            c.check((kind == "cp" and val >= TB_WIN_BOUND) or (kind == "mate" and val > 0),
                    "win shown as a tablebase win or mate: %s %s" % (row["fen"], info))
            c.check(best[2:4] in {dest(m) for m in row["win"]}, "a winning move: %s %s" % (row["fen"], best))
        elif row["wdl"] == "Loss":
            c.check((kind == "cp" and val <= -TB_WIN_BOUND) or (kind == "mate" and val < 0),
                    "loss shown as a tablebase loss or mate: %s %s" % (row["fen"], info))
        else:  # Draw, cursed win, blessed loss: drawn under the 50-move rule
            c.check(kind == "cp" and val == 0, "draw shown as 0: %s %s" % (row["fen"], info))
            c.check(best[2:4] in {dest(m) for m in row["draw"] + row["win"]},
                    "a move keeping the draw: %s %s" % (row["fen"], best))
    e.close()


def cursed_win(c):
    cursed = [r for r in load_reference() if r["wdl"] in ("Cursed win", "CursedWin", "Cursed")]
    big = [r for r in cursed if pieces(r["fen"]) > MAX_PIECES]
    if big:
        c.skip(2 * len(big), "%d cursed wins with more than %d pieces" % (len(big), MAX_PIECES))
    cursed = [r for r in cursed if r not in big]
    e = Engine()
    e.handshake()
    e.send("setoption name SyzygyPath value " + SYZYGY)
    e.send("setoption name OwnBook value false")
    c.check(len(cursed) > 0, "reference data holds a cursed win")
    for row in cursed:
        for rule50, want in (("true", "draw"), ("false", "win")):
            e.send("setoption name Syzygy50MoveRule value " + rule50)
            e.send("ucinewgame")
            e.send("position fen " + row["fen"])
            e.send("go depth 6")
            lines = e.expect("bestmove", 30)
            info = [l for l in lines if l.startswith("info depth") and " score " in l][-1]
            kind, val = score_of(info)
            ok = (kind == "cp" and val == 0) if want == "draw" else (val > 0)
            c.check(ok, "cursed win with Syzygy50MoveRule %s is a %s: %s" % (rule50, want, info))
    e.close()


def bad_paths(c):
    e = Engine()
    e.handshake()
    for path in ("/nonexistent/dir", "/tmp", "/etc/passwd", SYZYGY + "::" + "/nonexistent"):
        e.send("setoption name SyzygyPath value " + path)
        line = e.expect("info string", 10)[-1]
        c.check(len(line) > 12, "reported: %s -> %s" % (path, line))
        e.send("position fen 8/8/8/4k3/8/8/8/KR6 w - - 0 1")
        e.send("go depth 4")
        lines = e.expect("bestmove", 10)
        c.check(lines[-1].split()[1] != "(none)", "still plays after SyzygyPath " + path)
    e.close()


class Game:
    """Hexe (with tables) against Stockfish (without) from a FEN."""

    def __init__(self, fen, hexe_white):
        self.fen = fen
        self.moves = []
        self.hexe_white = hexe_white

    def run(self, hexe, sf, hexe_ms, sf_ms):
        seen = {}
        for _ in range(300):
            pos = "position fen %s%s" % (self.fen, " moves " + " ".join(self.moves) if self.moves else "")
            hexe.send(pos)
            hexe.send("d")
            fen = [l for l in hexe.expect("Key:", 5) if l.startswith("Fen:")][0].split(None, 1)[1]
            fields = fen.split()
            white_to_move = fields[1] == "w"
            key = " ".join(fields[:4])
            seen[key] = seen.get(key, 0) + 1
            if seen[key] >= 3:
                return "draw"
            if int(fields[4]) >= 100:
                return "draw (50 moves)"
            if len([ch for ch in fields[0] if ch.isalpha()]) == 2:
                return "draw"
            hexe_to_move = white_to_move == self.hexe_white
            eng = hexe if hexe_to_move else sf
            eng.send(pos)
            eng.send("go movetime %d" % (hexe_ms if hexe_to_move else sf_ms))
            lines = eng.expect("bestmove", 30)
            move = lines[-1].split()[1]
            if move in ("(none)", "0000"):
                # checkmate or stalemate: Hexe knows which
                hexe.send(pos)
                hexe.send("go depth 1")
                out = hexe.expect("bestmove", 5)
                mated = any("score mate 0" in l for l in out)
                if not mated:
                    return "draw"
                return "hexe lost" if hexe_to_move else "hexe won"
            self.moves.append(move)
        return "unfinished"


def games(c):
    if not os.path.exists(STOCKFISH):
        c.check(False, "Stockfish is needed for the endgame games (scripts/setup installs it)")
        return
    hexe = Engine()
    hexe.handshake()
    hexe.send("setoption name SyzygyPath value " + SYZYGY)
    hexe.send("setoption name OwnBook value false")
    sf = Engine(STOCKFISH)
    sf.handshake()
    won = ["8/8/8/4k3/8/8/8/KQ6 w - - 0 1",       # KQvK
           "8/8/8/4k3/8/8/8/KR6 w - - 0 1",       # KRvK
           "K7/8/3k3B/7N/8/8/8/8 w - - 0 1",      # KBNvK, 50 plies to mate
           "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"]  # KRPvKR (Lucena)
    drawn = ["8/8/4k3/8/2R5/4K3/8/3r4 w - - 0 1",  # KRvKR
             "5B2/3K4/8/7k/8/8/8/1rR5 b - - 0 1",  # KRBvKR, Hexe defends
             "8/8/3k4/7R/8/8/K3B3/3r4 b - - 0 1"]
    if MAX_PIECES < 5:
        c.skip(1, "the KRPvKR game (no 5-piece tables)")
        c.skip(4, "the KRBvKR games (no 5-piece tables)")
        won = [f for f in won if pieces(f) <= MAX_PIECES]
        drawn = [f for f in drawn if pieces(f) <= MAX_PIECES]
    if os.environ.get("HEXE_SANITIZED"):
        # Four times slower: one won and one drawn game here; the release pass plays them all.
        c.skip(len(won) - 1 + 2 * len(drawn) - 1, "the other endgame games: played by the release build")
        won, drawn = won[:1], drawn[:1]
    for fen in won:
        for e in (hexe, sf):
            e.send("ucinewgame")
        t0 = time.monotonic()
        g = Game(fen, True)
        r = g.run(hexe, sf, HEXE_MS, SF_MS)
        c.check(r == "hexe won", "won %s: %s in %d plies (%.0f s)" % (fen, r, len(g.moves), time.monotonic() - t0))
    for fen in drawn:
        for hexe_white in (True, False) if len(drawn) > 1 or not os.environ.get("HEXE_SANITIZED") else (True,):
            for e in (hexe, sf):
                e.send("ucinewgame")
            g = Game(fen, hexe_white)
            r = g.run(hexe, sf, HEXE_MS, SF_MS)
            c.check(r != "hexe lost" and r != "unfinished",
                    "drawn %s, Hexe %s: %s after %d plies" % (fen, "White" if hexe_white else "Black", r, len(g.moves)))
    hexe.close()
    sf.close()


for scenario in (root_verdicts, cursed_win, bad_paths, games):
    C.run(scenario)
sys.exit(C.report())
