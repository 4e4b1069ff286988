#!/usr/bin/env python3
"""ref_reader.py - an independent reference reader for Polyglot books.

Python 3 standard library only; it shares no code with Hexe. It computes the
Polyglot key of a FEN itself, with the Random64 table parsed from Debian
polyglot's book_format.html, scans the book linearly (no binary search, no
assumption that the book is sorted), and lists the entries of each position
as "<move> <weight> <learn>", the move in Polyglot's own notation (castling
king-takes-rook, e.g. e1h1; promotion letter appended).

Usage:
  ref_reader.py --book BOOK.bin POSITIONS.txt > REF.txt
  ref_reader.py --book BOOK.bin --fen FEN          (one position, to stdout)
  ref_reader.py --book BOOK.bin --stats            (entry count, promotions, castles)

POSITIONS.txt: one position a line, "FEN | moves from the start position",
the moves part optional (kept as metadata for the C test, which replays
them with Hexe's own move making and checks it reaches the same key). A FEN
of "startpos" means: derive the FEN by playing the moves here (a simple
move applier that trusts the moves to be legal).
Output, per position:
  fen <FEN>
  moves <uci moves...>      (possibly empty)
  key <16 hex digits>
  entry <move> <weight> <learn>   (book order; zero or more)
  end
"""
import argparse
import re
import struct
import sys

FORMAT_HTML = "/usr/share/doc/polyglot/book_format.html"


def load_random64(path=FORMAT_HTML):
    with open(path, encoding="latin-1") as f:
        text = f.read()
    start = text.index("Random64[781]")
    end = text.index("};", start)
    nums = [int(h, 16) for h in re.findall(r"U64\(0x([0-9A-Fa-f]{16})\)", text[start:end])]
    if len(nums) != 781:
        sys.exit("ref_reader: expected 781 random numbers in %s, found %d" % (path, len(nums)))
    return nums


RANDOM64 = None
KIND = "pPnNbBrRqQkK"  # black pawn = 0, white pawn = 1, ..., white king = 11


def polyglot_key(fen):
    """The Polyglot key of a FEN, computed from the specification's rules."""
    fields = fen.split()
    placement, side, castling, ep = fields[0], fields[1], fields[2], fields[3]
    board = {}  # (file, row) -> piece letter
    rows = placement.split("/")
    assert len(rows) == 8, fen
    for i, row_text in enumerate(rows):
        row = 7 - i
        file = 0
        for ch in row_text:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, row)] = ch
                file += 1
        assert file == 8, fen
    key = 0
    for (file, row), ch in board.items():
        key ^= RANDOM64[64 * KIND.index(ch) + 8 * row + file]
    for i, ch in enumerate("KQkq"):
        if ch in castling:
            key ^= RANDOM64[768 + i]
    if ep != "-":
        file = ord(ep[0]) - ord("a")
        # The pushed pawn stands on row 3 (White pushed, Black to move) or row 4.
        if side == "w":
            row, mine = 4, "P"
        else:
            row, mine = 3, "p"
        if any(board.get((f, row)) == mine for f in (file - 1, file + 1) if 0 <= f < 8):
            key ^= RANDOM64[772 + file]
    if side == "w":
        key ^= RANDOM64[780]
    return key


def parse_fen(fen):
    fields = fen.split()
    board = {}
    for i, row_text in enumerate(fields[0].split("/")):
        file = 0
        for ch in row_text:
            if ch.isdigit():
                file += int(ch)
            else:
                board[(file, 7 - i)] = ch
                file += 1
    return board, fields


def board_fen(board, side, castling, ep, halfmove, fullmove):
    rows = []
    for row in range(7, -1, -1):
        text, empty = "", 0
        for file in range(8):
            piece = board.get((file, row))
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
            empty = 0
            text += piece
        rows.append(text + (str(empty) if empty else ""))
    return "%s %s %s %s %d %d" % ("/".join(rows), side, castling or "-", ep, halfmove, fullmove)


def play(fen, uci):
    """FEN after a UCI move (castling as e1g1 or e1h1); trusts the move to be legal."""
    board, f = parse_fen(fen)
    side, castling, halfmove, fullmove = f[1], f[2].replace("-", ""), int(f[4]), int(f[5])
    ff, fr, tf, tr = ord(uci[0]) - 97, int(uci[1]) - 1, ord(uci[2]) - 97, int(uci[3]) - 1
    piece = board.pop((ff, fr))
    target = board.get((tf, tr))
    ep = "-"
    halfmove += 1
    if piece in "Kk" and (target == ("R" if piece == "K" else "r") or abs(tf - ff) == 2):
        rook_file = tf if target else (7 if tf > ff else 0)
        rook = board.pop((rook_file, fr))
        kingside = rook_file > ff
        board[(6 if kingside else 2, fr)] = piece
        board[(5 if kingside else 3, fr)] = rook
    else:
        if piece in "Pp":
            halfmove = 0
            if ff != tf and target is None:
                del board[(tf, fr)]  # en passant
            if abs(tr - fr) == 2:
                ep = "%s%d" % ("abcdefgh"[ff], (fr + tr) // 2 + 1)
            if len(uci) == 5:
                piece = uci[4].upper() if side == "w" else uci[4]
        if target is not None:
            halfmove = 0
        board[(tf, tr)] = piece
    for square, rights in (((4, 0), "KQ"), ((7, 0), "K"), ((0, 0), "Q"),
                           ((4, 7), "kq"), ((7, 7), "k"), ((0, 7), "q")):
        if (ff, fr) == square or (tf, tr) == square:
            for ch in rights:
                castling = castling.replace(ch, "")
    if side == "b":
        fullmove += 1
    return board_fen(board, "b" if side == "w" else "w", castling, ep, halfmove, fullmove)


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def move_string(move):
    to_file, to_row = move & 7, (move >> 3) & 7
    from_file, from_row = (move >> 6) & 7, (move >> 9) & 7
    promo = (move >> 12) & 7
    s = "%s%d%s%d" % ("abcdefgh"[from_file], from_row + 1, "abcdefgh"[to_file], to_row + 1)
    if promo:
        s += " nbrq"[promo]
    return s


def read_book(path):
    with open(path, "rb") as f:
        data = f.read()
    return [struct.unpack(">QHHI", data[i:i + 16]) for i in range(0, len(data) - len(data) % 16, 16)]


def write_book(path, entries):
    """Writes (key, move, weight, learn) entries as a Polyglot book, sorted by
    key (a stable sort: each position's entries keep their order)."""
    with open(path, "wb") as f:
        for e in sorted(entries, key=lambda e: e[0]):
            f.write(struct.pack(">QHHI", *e))


def moves_by_key(book):
    """{key: [(move, weight), ...]} of read_book's entries, zero weights left out."""
    moves = {}
    for k, m, w, _ in book:
        if w > 0:
            moves.setdefault(k, []).append((move_string(m), w))
    return moves


def play_line(fen, moves):
    """FEN after the UCI moves (a list) played from fen."""
    for m in moves:
        fen = play(fen, m)
    return fen


def entries_for(book, key):
    return [(move_string(m), w, l) for k, m, w, l in book if k == key]


def main():
    global RANDOM64
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", required=True)
    ap.add_argument("--fen")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("positions", nargs="?")
    args = ap.parse_args()
    RANDOM64 = load_random64()
    book = read_book(args.book)
    if args.stats:
        print("entries", len(book))
        print("sorted", all(book[i][0] <= book[i + 1][0] for i in range(len(book) - 1)))
        print("promotions", sum(1 for e in book if (e[1] >> 12) & 7))
        castles = {}
        for e in book:
            s = move_string(e[1])
            if s in ("e1h1", "e1a1", "e8h8", "e8a8", "e1g1", "e1c1", "e8g8", "e8c8"):
                castles[s] = castles.get(s, 0) + 1
        print("king moves e1/e8 two squares or onto a corner:", castles)
        print("zero weights", sum(1 for e in book if e[2] == 0))
        return
    jobs = []
    if args.fen:
        jobs.append((args.fen, ""))
    if args.positions:
        with open(args.positions) as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                fen, _, moves = line.partition("|")
                fen, moves = fen.strip(), moves.strip()
                if fen == "startpos":  # derive the FEN by playing the moves
                    fen = play_line(START, moves.split())
                jobs.append((fen, moves))
    for fen, moves in jobs:
        key = polyglot_key(fen)
        print("fen", fen)
        print("moves", moves)
        print("key %016x" % key)
        for move, weight, learn in entries_for(book, key):
            print("entry", move, weight, learn)
        print("end")


if __name__ == "__main__":
    main()
