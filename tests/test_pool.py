#!/usr/bin/env python3
"""The pool of games (docs/nnue.md): `hexe datagen` without --out appends
whole games to n<nodes>-<network>-s<seed>.hxg in $HEXE_DATA (else
$XDG_DATA_HOME/hexe/pool, else ~/.local/share/hexe/pool) with the command
that re-creates them; `hexe pool` sums it up; the command it prints plays
the same games again; the trainer reads game files (or the pool's folder)
and gets from them the very positions of datagen's 32-byte records of the
same games (the same network, byte for byte); files cut short or damaged
are reported at their first bad game, and every game before it is kept."""
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from uci_harness import Checks, temp_dir  # noqa: E402

HEXE = os.path.abspath(os.environ.get("HEXE", "./hexe"))
OPENINGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "openings", "balanced-100.epd")
C = Checks("test_pool")
TMP = temp_dir("hexe-pool-")
NAME = re.compile(r"^n400-([0-9a-f]{12})-s(\d+)\.hxg$")


def env(**kw):
    """The environment with the pool's variables set as given (None: unset)."""
    e = {k: v for k, v in os.environ.items() if k not in ("HEXE_DATA", "XDG_DATA_HOME")}
    for k, v in kw.items():
        if v is None:
            e.pop(k, None)
        else:
            e[k] = v
    return e


def run(args, pool, timeout=300, **kw):
    return subprocess.run([HEXE, *args], capture_output=True, text=True, timeout=timeout,
                          env=env(HEXE_DATA=pool, **kw))


def datagen(pool, *extra):
    # No random plies: a random ply can leave a start the first search scores
    # beyond 3 pawns, and such games are dropped; how many depends on the search.
    return run(["datagen", "--nodes", "400", "--openings", OPENINGS, "--random-plies", "0", *extra], pool)


def pool_files(pool, ext=".hxg"):
    return sorted(f for f in os.listdir(pool) if f.endswith(ext)) if os.path.isdir(pool) else []


def written(stderr):
    """The training positions datagen's last progress line counts."""
    m = re.findall(r"(\d+) positions  ", stderr)
    return int(m[-1]) if m else -1


def summary(out):
    """`hexe pool`'s total: (files, games, positions, bytes)."""
    m = re.search(r"^total: (\d+) files?, (\d+) games, (\d+) positions, (\d+) bytes", out, re.M)
    return tuple(int(x) for x in m.groups()) if m else None


def where(c):
    missing = os.path.join(TMP, "missing")
    r = run(["pool"], missing)
    c.check(r.returncode == 0 and "pool: %s (from $HEXE_DATA): no such folder" % missing in r.stdout
            and summary(r.stdout) == (0, 0, 0, 0), "a missing pool: 0 positions, and where it looked: %s" % r.stdout)
    empty = os.path.join(TMP, "empty")
    os.makedirs(empty)
    r = run(["pool"], empty)
    c.check(r.returncode == 0 and "no game files" in r.stdout and " 0 positions" in r.stdout,
            "an empty pool: 0 positions: %s" % r.stdout)
    xdg = os.path.join(TMP, "xdg")
    r = run(["pool"], None, XDG_DATA_HOME=xdg)
    c.check("pool: %s/hexe/pool (from $XDG_DATA_HOME)" % xdg in r.stdout, "without HEXE_DATA: $XDG_DATA_HOME/hexe/pool")
    home = os.path.join(TMP, "home")
    for x in (None, "relative/dir"):  # a relative XDG_DATA_HOME is ignored, as the XDG rules say
        r = run(["pool"], None, XDG_DATA_HOME=x, HOME=home)
        c.check("pool: %s/.local/share/hexe/pool (from $HOME)" % home in r.stdout,
                "XDG_DATA_HOME %s: ~/.local/share/hexe/pool: %s" % (x, r.stdout[:120]))
    r = run(["pool"], None, HOME=None)
    c.check(r.returncode != 0 and "0 positions" in r.stdout, "no HEXE_DATA, XDG_DATA_HOME or HOME: said so")
    r = run(["datagen", "--games", "1", "--nodes", "50"], None, HOME=None)
    c.check(r.returncode != 0 and "HEXE_DATA" in r.stderr, "datagen with no pool to write to says so: %s"
            % r.stderr[-200:])


def pool_and_commands(c):
    pool = os.path.join(TMP, "p1")
    r = datagen(pool, "--games", "4", "--seed", "11")
    files = pool_files(pool)
    c.check(r.returncode == 0 and len(files) == 1 and NAME.match(files[0]) and NAME.match(files[0]).group(2) == "11",
            "datagen without --out writes n<nodes>-<network>-s<seed>.hxg in the pool: %s %s" % (files, r.stderr[-200:]))
    if not files:
        return
    tag = NAME.match(files[0]).group(1) if NAME.match(files[0]) else "?"
    cmd_file = os.path.join(pool, files[0][:-4] + ".cmd")
    lines = open(cmd_file).read().splitlines() if os.path.exists(cmd_file) else []
    c.check(len(lines) == 1 and lines[0].startswith("hexe datagen --nodes 400 --seed 11 ")
            and " --games 4  # wrote " in lines[0] and "network %s <internal>" % tag in lines[0],
            "the .cmd beside it holds the run's command and network: %s" % lines)
    first = written(r.stderr)
    out = run(["pool"], pool).stdout
    s = summary(out)
    c.check(s is not None and s[0] == 1 and 0 < s[1] <= 4 and s[2] == first and s[3] == os.path.getsize(
        os.path.join(pool, files[0])), "`hexe pool` counts the files, games, positions and bytes: %s" % out)
    c.check(re.search(r"^network %s \(this build's\): 1 file, \d+ games, %d positions" % (tag, first), out, re.M)
            and "  %s: " % files[0] in out and lines and "    " + lines[0] in out,
            "`hexe pool` names the network, the file and the command: %s" % out)
    # The command printed re-creates the file, byte for byte, in another pool.
    again = os.path.join(TMP, "p1-again")
    argv = shlex.split(lines[0].split("  #")[0]) if lines else ["false"]
    r = run([*argv[1:]], again)
    c.check(r.returncode == 0 and pool_files(again) == files
            and open(os.path.join(again, files[0]), "rb").read() == open(os.path.join(pool, files[0]), "rb").read(),
            "the recorded command re-creates the same file: %s" % r.stderr[-200:])
    # A second run appends to the same file and adds its command.
    r = datagen(pool, "--games", "2", "--seed", "11")
    lines = open(cmd_file).read().splitlines()
    s2 = summary(run(["pool"], pool).stdout)
    c.check(r.returncode == 0 and pool_files(pool) == files and len(lines) == 2 and s2 and s
            and s2[2] == s[2] + written(r.stderr), "a second run appends its games and its command: %s" % (s2,))
    # Another seed, another file; --eval and --evalfile pick one network's files.
    datagen(pool, "--games", "1", "--seed", "12")
    out = run(["pool", "--eval", "nnue"], pool).stdout
    c.check(summary(out) and summary(out)[0] == 2 and "s12.hxg" in out, "--eval nnue: this build's files: %s" % out)
    r = run(["pool", "--eval", "material"], pool)
    c.check(r.returncode == 0 and "network material: no files" in r.stdout and summary(r.stdout) == (0, 0, 0, 0),
            "another evaluator's games: none: %s" % r.stdout)
    r = run(["pool", "--evalfile", os.path.join(TMP, "none.nnue")], pool)
    c.check(r.returncode != 0 and "usage" in r.stderr, "a missing --evalfile shows usage")
    # Training from the pool's folder.
    r = run(["train", "--data", pool, "--out", os.path.join(TMP, "pool.nnue"), "--hidden", "32", "--epochs", "1",
             "--batch", "256", "--val", "0.1", "--threads", "1"], pool)
    total = summary(run(["pool"], pool).stdout)
    m = re.search(r"^train: (\d+) positions, (\d+) held out", r.stdout, re.M)
    c.check(r.returncode == 0 and m and total and int(m.group(1)) + int(m.group(2)) == total[2],
            "train --data POOL reads every game file of it: %s %s" % (r.stdout[-200:], r.stderr[-300:]))
    r = run(["train", "--data", os.path.join(TMP, "empty"), "--out", os.path.join(TMP, "x.nnue")], pool)
    c.check(r.returncode != 0 and "no game file" in r.stderr, "train: a folder without games is reported")


def same_positions(c):
    """A game file and datagen's 32-byte records of the same games: the same network."""
    nets = []
    for ext in ("bin", "hxg"):
        data = os.path.join(TMP, "same." + ext)
        r = datagen(None, "--games", "8", "--seed", "21", "--out", data)
        c.check(r.returncode == 0, "datagen --out same.%s exits 0: %s" % (ext, r.stderr[-200:]))
        net = os.path.join(TMP, "same-%s.nnue" % ext)
        r = run(["train", "--data", data, "--out", net, "--hidden", "32", "--epochs", "2", "--batch", "128",
                 "--val", "0.1", "--threads", "1", "--skip-plies", "8"], None)
        m = re.search(r"^train: (\d+) positions, (\d+) held out", r.stdout, re.M)
        nets.append((open(net, "rb").read() if os.path.exists(net) else b"", m.groups() if m else None))
    c.check(nets[0][1] and nets[0][1] == nets[1][1], "the same training and held-out counts: %s" % ([n[1] for n in nets],))
    c.check(nets[0][0] and nets[0][0] == nets[1][0], "the network trained on either is the same, byte for byte")
    b = os.path.getsize(os.path.join(TMP, "same.bin"))
    h = os.path.getsize(os.path.join(TMP, "same.hxg"))
    c.check(0 < h < b / 3, "the game file is a third of the 32-byte one or less (%d / %d bytes)" % (h, b))
    r = run(["train", "--data", os.path.join(TMP, "same.hxg"), "--skip-plies", "0", "--epochs", "1", "--hidden", "32",
             "--out", os.path.join(TMP, "skip0.nnue")], None)
    m = re.search(r"^train: (\d+) positions, (\d+) held out", r.stdout, re.M)
    c.check(m and nets[1][1] and sum(map(int, m.groups())) > sum(map(int, nets[1][1])),
            "--skip-plies 0 keeps the opening plies too: %s" % ((m.groups() if m else r.stderr[-200:]),))
    for args, why in ((["--skip-plies", "4"], "filters them"), (["--per-game", "3"], "filters them"),
                      (["--pgn", "x.pgn", "--format", "games"], "text only"), (["--format", "csv"], "games, bin or text")):
        r = datagen(os.path.join(TMP, "unused"), *args)
        c.check(r.returncode == 2 and why in r.stderr and "usage" in r.stderr,
                "datagen %s: refused: %s" % (" ".join(args), r.stderr[:200]))


def damaged(c):
    pool = os.path.join(TMP, "p2")
    datagen(pool, "--games", "6", "--seed", "31")
    name = (pool_files(pool) or ["none.hxg"])[0]
    path = os.path.join(pool, name)
    if not os.path.exists(path):
        c.check(False, "datagen wrote a pool file")
        return
    good = open(path, "rb").read()
    games = summary(run(["pool"], pool).stdout)[1]
    # A game cut short, as a kill during a write leaves it: reported, then cut by the next run.
    with open(path, "ab") as f:
        f.write(good[12:40])
    out = run(["pool"], pool).stdout
    c.check(re.search(r"damaged: file .*%s: game %d at byte %d: cut short \(28 bytes\); the %d games before it are kept"
                      % (name, games + 1, len(good), games), out) and summary(out)[1] == games,
            "a game cut short is reported, the games before it counted: %s" % out)
    r = datagen(pool, "--games", "1", "--seed", "31")
    c.check(r.returncode == 0 and "dropping 28 bytes of a game cut short" in r.stderr
            and open(path, "rb").read()[:len(good)] == good, "the next run cuts it off and appends: %s" % r.stderr[-200:])
    # Damage inside a game: reported at that game; the trainer keeps the games before it; datagen does not append.
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x40
    with open(path, "wb") as f:
        f.write(data)
    r = run(["pool"], pool)
    m = re.search(r"damaged: file .*: game (\d+) at byte (\d+): checksum mismatch: the game is damaged; "
                  r"the (\d+) games before it are kept", r.stdout)
    c.check(r.returncode == 0 and m and int(m.group(3)) == int(m.group(1)) - 1 and int(m.group(2)) <= len(data) // 2
            and summary(r.stdout)[1] == int(m.group(3)), "damage is reported at its game: %s" % r.stdout)
    r = run(["train", "--data", path, "--out", os.path.join(TMP, "dmg.nnue"), "--hidden", "32", "--epochs", "1",
             "--val", "0.2", "--scale", "131"], pool)
    c.check(r.returncode == 0 and m and "game %s at byte" % m.group(1) in r.stderr
            and "games before it are kept" in r.stderr, "train reports it and trains on the games before it: %s"
            % r.stderr[-300:])
    before = open(path, "rb").read()
    r = datagen(pool, "--games", "1", "--seed", "31")
    c.check(r.returncode != 0 and "move the file aside" in r.stderr and open(path, "rb").read() == before,
            "datagen does not append after a damaged game: %s" % r.stderr[-200:])
    with open(path, "wb") as f:
        f.write(b"\x00" * 64)
    r = run(["train", "--data", path, "--out", os.path.join(TMP, "x.nnue")], pool)
    c.check(r.returncode != 0, "a file of zeros is no training data")
    r = datagen(pool, "--games", "1", "--seed", "31")
    c.check(r.returncode != 0 and "not a game file" in r.stderr, "datagen does not append to a file of another kind")


def interrupted(c):
    pool = os.path.join(TMP, "p3")
    cmd = [HEXE, "datagen", "--nodes", "400", "--openings", OPENINGS, "--threads", "2", "--positions", "100000000",
           "--seed", "41"]
    for sig in (signal.SIGINT, signal.SIGKILL):
        files = pool_files(pool)
        size = os.path.getsize(os.path.join(pool, files[0])) if files else 12
        p = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env=env(HEXE_DATA=pool))
        for _ in range(600):  # until a game is written (a sanitizer build is slow)
            files = pool_files(pool)
            if files and os.path.getsize(os.path.join(pool, files[0])) > size:
                break
            time.sleep(0.1)
        if sig == signal.SIGINT:
            r = subprocess.run(cmd, capture_output=True, text=True, env=env(HEXE_DATA=pool), timeout=30)
            c.check(r.returncode != 0 and "another run is writing" in r.stderr,
                    "a second run on the same file is refused: %s" % r.stderr[-200:])
        p.send_signal(sig)
        try:
            p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            c.check(False, "datagen ends within 20 s of signal %d" % sig)
        time.sleep(0.5)
    out = run(["pool"], pool).stdout
    lines = out.splitlines()
    cmds = [l for l in lines if l.startswith("    hexe datagen ")]
    c.check(len(cmds) == 1 and re.search(r"--games \d+  # wrote \d+ games", cmds[0]) and "--positions" not in cmds[0],
            "an interrupted run records the games it played as --games: %s" % cmds)
    c.check(re.search(r"\(\d+ games not in these commands: a run was killed", out) and "damaged" not in out,
            "games of a killed run are counted and said to lack a command: %s" % out)


C.run(where)
C.run(pool_and_commands)
C.run(same_positions)
C.run(damaged)
C.run(interrupted)
shutil.rmtree(TMP, ignore_errors=True)
sys.exit(C.report())
