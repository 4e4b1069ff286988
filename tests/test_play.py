#!/usr/bin/env python3
"""Console play tests: drive `hexe play` through a pseudo-terminal as a person
would (board, legal moves, bad input, SAN and coordinate moves, undo, mate and
draw announcements, the new-game prompt, resign, quit, Ctrl-C) and read the
PGN it writes. Python 3 standard library only. Ends with `N passed, N failed`."""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

HEXE = os.path.abspath(os.environ.get("HEXE", "./hexe"))
SLOW = 4 if os.environ.get("HEXE_SANITIZED") else 1
C = Checks("test_play")
TMP = temp_dir("hexe-play-")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
WHITE_PIECES, BLACK_PIECES = "\u2654\u2655\u2656\u2657\u2658\u2659", "\u265a\u265b\u265c\u265d\u265e\u265f"
PROMPT = "Your move: "
AGAIN = "Press 1 then Enter for a new game"


def plain(text):
    return ANSI.sub("", text)


class Play:
    """`hexe play ARGS` on a pseudo-terminal, with the temp dir as its cwd."""

    def __init__(self, *args, env=None):
        environment = dict(os.environ)
        environment.pop("NO_COLOR", None)
        environment.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: becomes hexe
            try:
                os.chdir(TMP)
                os.execve(HEXE, [HEXE, "play", *args], environment)
            finally:
                os._exit(127)
        self.raw = b""
        self.seen = 0  # text before this index has been matched already
        self.status = None

    @property
    def text(self):
        return self.raw.decode("utf-8", "replace").replace("\r\n", "\n")

    def _read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child has gone
            data = b""
        if not data:
            return False
        self.raw += data
        return True

    def expect(self, what, timeout=10):
        """Output since the last match up to and including `what` (a string or
        a compiled pattern); raises if it does not come in time."""
        end = time.monotonic() + timeout * SLOW
        while True:
            text = self.text
            if isinstance(what, str):
                i = text.find(what, self.seen)
                j = i + len(what) if i >= 0 else -1
            else:
                m = what.search(text, self.seen)
                j = m.end() if m else -1
            if j >= 0:
                out = text[self.seen:j]
                self.seen = j
                return out
            left = end - time.monotonic()
            if left <= 0 or not self._read(min(left, 0.5)):
                raise TimeoutError("waited for %r; last output: %r" % (what, text[-300:]))

    def send(self, line):
        os.write(self.fd, (line + "\n").encode())

    def wait(self, timeout=5):
        """Exit code (reading the rest of the output meanwhile); kills the child
        and returns None if it does not end in time."""
        end = time.monotonic() + timeout * SLOW
        while time.monotonic() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                while self._read(0.05) and select.select([self.fd], [], [], 0)[0]:
                    pass
                os.close(self.fd)
                self.status = os.waitstatus_to_exitcode(status)
                return self.status
            self._read(0.05)
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return None

    def rest(self):
        return self.text[self.seen:]


def clean_exit(c, p, what, timeout=5):
    rc = p.wait(timeout)
    c.check(rc == 0, "%s: exit code %r" % (what, rc))
    out = p.text
    for bad in ("Traceback", "AddressSanitizer", "runtime error", "LeakSanitizer", "Segmentation"):
        c.check(bad not in out, "%s: %s in the output" % (what, bad))
    c.check("Goodbye" in p.rest() or "Goodbye" in out[-200:], "%s: says goodbye" % what)
    return out


def pgn_games(name):
    path = os.path.join(TMP, name)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [g for g in re.split(r"\n\n(?=\[Event )", text.strip()) if g]


def tag(game, name):
    m = re.search(r'^\[%s "([^"]*)"\]$' % name, game, re.M)
    return m.group(1) if m else None


# ---------------------------------------------------------------- scenarios


def options(c):
    r = subprocess.run([HEXE, "play", "--help"], capture_output=True, text=True, timeout=10)
    c.check(r.returncode == 0 and "usage: hexe play" in r.stdout and "--level" in r.stdout, "--help: %r" % r.stdout)
    for bad in (["--level", "21"], ["--level", "x"], ["--time", "0"], ["--time"], ["--bogus"], ["--fen", "junk"]):
        r = subprocess.run([HEXE, "play", *bad], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
        c.check(r.returncode == 2 and r.stderr, "%s: exit code %d, stderr %r" % (bad, r.returncode, r.stderr))


def game_as_white(c):
    p = Play("--level", "3", "--time", "0.1", "--pgn", "white.pgn")
    out = p.expect(PROMPT)
    text = plain(out)
    c.check(all(g in text for g in WHITE_PIECES + BLACK_PIECES), "all twelve Unicode pieces shown")
    c.check("a  b  c  d  e  f  g  h" in text, "file letters shown")
    c.check(re.search(r"^\s*8 .*\u265c.* 8$", text, re.M) and re.search(r"^\s*1 .*\u2656.* 1$", text, re.M),
            "rank numbers on both sides, White at the bottom: %r" % text)
    c.check("\x1b[48;5;" in out, "a terminal gets coloured squares")
    c.check("Legal moves (20):" in text and " Nf3" in text and " e4" in text, "legal moves listed in SAN")

    p.send("e2e5")
    c.check("illegal move: e2e5" in p.expect(PROMPT), "illegal coordinate move refused with a reason")
    p.send("Ke2")
    c.check("illegal move: Ke2" in p.expect(PROMPT), "illegal SAN move refused with a reason")
    p.send("hello")
    c.check("not a move or a command: hello" in p.expect(PROMPT), "nonsense refused with a reason")

    p.send("Nf3")
    out = p.expect(PROMPT)
    c.check("You play 1. Nf3" in out, "SAN move accepted: %r" % plain(out)[-400:])
    m = re.search(r"Hexe plays 1\.\.\. (\S+)\s+\(score [-+]?[\w .]+", out)
    c.check(m is not None, "Hexe replies in SAN with a score")
    c.check("48;5;186m" in out or "48;5;143m" in out, "the last move's squares are highlighted")
    c.check("Legal moves (" in out, "legal moves listed again")

    p.send("d2d4")
    out = p.expect(PROMPT)
    c.check("You play 2. d4" in out and "Hexe plays 2..." in out, "coordinate move accepted")
    p.send("undo")
    out = p.expect(PROMPT)
    c.check("Took back 2. d4 and 2..." in out, "undo takes back a full move")
    p.send("help")
    c.check("resign" in p.expect(PROMPT), "help lists the commands")
    p.send("moves")
    c.check("Legal moves (" in p.expect(PROMPT), "moves lists the legal moves")
    p.send("quit")
    clean_exit(c, p, "quit")
    games = pgn_games("white.pgn")
    c.check(len(games) == 1, "quit saves the game (%d games)" % len(games))
    if games:
        g = games[0]
        for t in ("Event", "Site", "Date", "Round", "White", "Black", "Result"):
            c.check(tag(g, t) is not None, "Seven Tag Roster: %s" % t)
        c.check(tag(g, "Result") == "*" and g.rstrip().endswith("*"), "unfinished game saved as *")
        c.check(tag(g, "Level") == "3" and tag(g, "Black") == "Hexe (level 3)", "Level tag and engine name")
        c.check(re.search(r"^1\. Nf3 \S+ \{.*\} \*$", g, re.M), "movetext: %r" % g)


def mate_and_new_game(c):
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    p = Play("--fen", fen, "--level", "0", "--time", "0.1", "--pgn", "mate.pgn", env={"NO_COLOR": "1"})
    out = p.expect(PROMPT)
    c.check("\x1b[" not in out, "NO_COLOR: no escape sequences")
    c.check("\u2656" in out and "\u265a" in out, "NO_COLOR: still Unicode pieces")
    p.send("Ra8")
    out = p.expect(AGAIN)
    c.check("Checkmate!" in out and "White wins" in out and "You win" in out, "mate announced, winner named: %r"
            % out[-300:])
    c.check(re.search(r"^\s*8 \[\u2656\]", out, re.M) and re.search(r"^\s*1 \[ \]", out, re.M),
            "NO_COLOR: last move marked with brackets")
    c.check("Game saved to mate.pgn" in out, "finished game saved")
    p.send("1")
    out = p.expect(PROMPT)
    c.check("New game 2" in out and "Legal moves" in out, "1 starts a new game")
    p.send("a1a8")
    c.check("Checkmate!" in p.expect(AGAIN), "second game: coordinate mate announced")
    p.send("no")
    clean_exit(c, p, "leave after the game")
    games = pgn_games("mate.pgn")
    c.check(len(games) == 2, "two games in the PGN (%d)" % len(games))
    for i, g in enumerate(games):
        c.check(tag(g, "Result") == "1-0" and g.rstrip().endswith("1-0"), "game %d: result 1-0" % (i + 1))
        c.check(tag(g, "Level") == "0" and tag(g, "Round") == str(i + 1), "game %d: Level and Round" % (i + 1))
        c.check(tag(g, "FEN") == fen and tag(g, "SetUp") == "1", "game %d: FEN tag" % (i + 1))
        c.check("1. Ra8# {White wins by checkmate} 1-0" in g, "game %d: movetext %r" % (i + 1, g))


def draws(c):
    cases = [
        ("k7/8/8/2Q5/8/8/8/7K w - - 0 1", ["Qb6"], "Draw by stalemate"),
        ("7k/8/8/8/8/8/8/Kr5N w - - 0 1", ["Kxb1"], "Draw by insufficient material"),
        ("7k/8/8/8/8/8/8/KR6 w - - 99 80", ["Rb2"], "Draw by the fifty-move rule"),
        ("7k/7p/7P/8/8/8/8/K4R2 w - - 0 1", ["Rf2", "Rf1", "Rf2", "Rf1"], "Draw by threefold repetition"),
    ]
    for fen, moves, want in cases:
        p = Play("--fen", fen, "--level", "0", "--time", "0.05", "--pgn", "draws.pgn")
        p.expect(PROMPT)
        for mv in moves[:-1]:
            p.send(mv)
            p.expect(PROMPT)
        p.send(moves[-1])
        out = plain(p.expect(AGAIN))
        c.check(want in out and "drawn (1/2-1/2)" in out, "%s announced: %r" % (want, out[-300:]))
        p.send("")
        clean_exit(c, p, want)
    games = pgn_games("draws.pgn")
    c.check(len(games) == len(cases) and all(tag(g, "Result") == "1/2-1/2" for g in games),
            "draws saved as 1/2-1/2")


def check_announced(c):
    p = Play("--fen", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1", "--level", "0", "--time", "0.05", "--pgn", "check.pgn")
    p.expect(PROMPT)
    p.send("Qb2")
    out = p.expect(PROMPT)
    c.check("You play 1. Qb2+" in out and "Check!" in out, "check announced: %r" % out[:200])
    p.send("quit")
    clean_exit(c, p, "quit after check")


def play_black_and_resign(c):
    p = Play("--black", "--level", "0", "--time", "0.05", "--pgn", "black.pgn")
    out = plain(p.expect(PROMPT))
    c.check("Hexe plays 1. " in out, "Hexe moves first when the person plays Black")
    c.check("h  g  f  e  d  c  b  a" in out and re.search(r"^\s*1 .*\u2656.* 1$", out, re.M)
            and out.find(" 1 ") < out.find(" 8 "), "the board is turned for Black")
    p.send("undo")
    c.check("Nothing to take back" in p.expect(PROMPT), "undo with nothing of the person's to take back")
    p.send("resign")
    out = p.expect(AGAIN)
    c.check("You resign" in out and "1-0" in out, "resign is a loss")
    p.send("2")
    clean_exit(c, p, "leave after resigning")
    games = pgn_games("black.pgn")
    c.check(len(games) == 1 and tag(games[0], "Result") == "1-0" and tag(games[0], "White") == "Hexe (level 0)"
            and "{Black resigns} 1-0" in games[0], "resigned game saved: %r" % games)


def ambiguous_and_ctrl_c(c):
    fen = "rnbqkb1r/ppp1pppp/5n2/3p4/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3"
    p = Play("--fen", fen, "--time", "30", "--pgn", "ctrlc.pgn")
    p.expect(PROMPT)
    p.send("Nd2")
    c.check("ambiguous: Nd2 could be Nbd2 or Nfd2" in p.expect(PROMPT), "ambiguous SAN refused with the choices")
    p.send("Nbd2")
    p.expect("Hexe is thinking")
    time.sleep(0.3)
    t0 = time.monotonic()
    os.write(p.fd, b"\x03")  # Ctrl-C while Hexe thinks (30 s a move)
    out = clean_exit(c, p, "Ctrl-C while thinking", timeout=5)
    c.check(time.monotonic() - t0 < 3 * SLOW, "Ctrl-C stops the search at once")
    c.check("Game saved to ctrlc.pgn" in out, "interrupted game saved")
    games = pgn_games("ctrlc.pgn")
    c.check(len(games) == 1 and tag(games[0], "Result") == "*" and "3. Nbd2 {Game interrupted} *" in games[0],
            "interrupted game saved as *: %r" % games)

    # Ctrl-C at the prompt.
    p = Play("--level", "0", "--time", "0.05", "--pgn", "ctrlc.pgn")
    p.expect(PROMPT)
    p.send("e4")
    p.expect(PROMPT)
    os.write(p.fd, b"\x03")
    clean_exit(c, p, "Ctrl-C at the prompt")
    games = pgn_games("ctrlc.pgn")
    c.check(len(games) == 2 and tag(games[1], "Result") == "*", "second interrupted game saved")

    # End of input counts as quitting.
    r = subprocess.run([HEXE, "play", "--level", "0", "--time", "0.05", "--pgn", os.path.join(TMP, "eof.pgn")],
                       input="e4\n", capture_output=True, text=True, timeout=20 * SLOW)
    c.check(r.returncode == 0 and "Goodbye" in r.stdout and "\x1b[" not in r.stdout and "[" in r.stdout,
            "piped input: plain board, exits at end of input")
    c.check(len(pgn_games("eof.pgn")) == 1, "game saved at end of input")


for scenario in (options, game_as_white, mate_and_new_game, draws, check_announced, play_black_and_resign,
                 ambiguous_and_ctrl_c):
    C.run(scenario)
sys.exit(C.report())
