// heatmap.js - "Hexe's view": the nnue evaluator's `eval` trace drawn on
// the board. For each piece but the kings the trace gives the change in
// White's score, in pawns, if that piece were taken off the board.

const FILES = 'abcdefgh';

// The trace's board: a map from square name (e4) to {piece, value}, value
// in White's view as the engine printed it ("+3.46"); null when the trace
// has no board (the hand-made evaluator's trace, as for a bare king).
export function parseTrace(lines) {
  const rows = lines.filter((l) => l.startsWith('|'));
  if (rows.length !== 16) return null;
  const squares = new Map();
  for (let r = 0; r < 8; r++) {
    const pieces = rows[2 * r].split('|').slice(1, 9).map((s) => s.trim());
    const values = rows[2 * r + 1].split('|').slice(1, 9).map((s) => s.trim());
    if (pieces.length !== 8 || values.length !== 8) return null;
    for (let f = 0; f < 8; f++) {
      if (!pieces[f]) continue;
      squares.set(FILES[f] + (8 - r), { piece: pieces[f], value: values[f] });
    }
  }
  return squares;
}

// Draws the squares over the board (an 8 x 8 grid laid over chessground's).
// Each piece is shaded by what it is worth to its own side: green when
// taking it off would lower its side's score, red when it would raise it.
export function drawHeat(el, squares, orientation) {
  el.textContent = '';
  if (!squares) return;
  let max = 0;
  for (const { value } of squares.values()) if (value) max = Math.max(max, Math.abs(parseFloat(value)));
  for (let i = 0; i < 64; i++) {
    const row = Math.floor(i / 8), col = i % 8;
    const file = orientation === 'white' ? col : 7 - col, rank = orientation === 'white' ? 8 - row : row + 1;
    const name = FILES[file] + rank;
    const cell = document.createElement('div');
    cell.className = 'heat-cell';
    cell.dataset.square = name;
    const sq = squares.get(name);
    if (sq && sq.value) {
      const white = sq.piece === sq.piece.toUpperCase();
      const own = (white ? 1 : -1) * parseFloat(sq.value);
      const a = max > 0 ? 0.15 + 0.55 * Math.min(1, Math.abs(own) / max) : 0;
      cell.style.background = own >= 0 ? `rgba(40, 170, 60, ${a})` : `rgba(210, 40, 40, ${a})`;
      cell.dataset.value = sq.value;
      cell.dataset.piece = sq.piece;
      const label = document.createElement('span');
      label.textContent = (own >= 0 ? '+' : '') + own.toFixed(2);
      cell.appendChild(label);
    }
    el.appendChild(cell);
  }
}
