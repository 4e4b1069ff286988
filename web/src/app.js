// app.js - the page: play against Hexe or analyse a position, on a
// chessground board, with chessops for the rules. The engine is the
// WebAssembly build of ./hexe in a Web Worker (engine.js).
import { Chessground } from 'chessground';
import { Chess, normalizeMove } from 'chessops/chess';
import { chessgroundDests } from 'chessops/compat';
import { INITIAL_FEN, makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { makeSanAndPlay, parseSan } from 'chessops/san';
import { makeSquare, parseSquare, parseUci } from 'chessops/util';
import { Engine, parseInfo, simdSupported } from './engine.js';
import { drawHeat, parseTrace } from './heatmap.js';

const $ = (id) => document.getElementById(id);

// ---- The game: a start position and the moves played from it ----

const game = { startFen: INITIAL_FEN, positions: [Chess.default()], moves: [], result: '*', reason: '' };
const current = () => game.positions[game.positions.length - 1];

function newGame(fen) {
  const pos = fromFen(fen);
  game.startFen = makeFen(pos.toSetup());
  game.positions = [pos];
  game.moves = [];
  game.result = '*';
  game.reason = '';
}

// What chessops's errors mean, in words.
const WHY = {
  ERR_FEN: 'not a FEN', ERR_BOARD: 'the board is not 8 ranks of 8 squares with pieces PNBRQK/pnbrqk',
  ERR_TURN: 'the side to move is not w or b', ERR_CASTLING: 'the castling rights are not KQkq, a subset or -',
  ERR_EP_SQUARE: 'the en passant square is wrong', ERR_HALFMOVES: 'the halfmove clock is not a number',
  ERR_FULLMOVES: 'the move number is not a number', ERR_EMPTY: 'the board is empty',
  ERR_KINGS: 'each side needs exactly one king', ERR_PAWNS_ON_BACKRANK: 'a pawn stands on the first or last rank',
  ERR_OPPOSITE_CHECK: 'the side not to move is in check', ERR_IMPOSSIBLE_CHECK: 'the check cannot have arisen in a game',
};
const why = (e) => WHY[e.message] || e.message;

// A position from a FEN, or an Error that says what is wrong with it.
function fromFen(fen) {
  const setup = parseFen(fen.trim());
  if (setup.isErr) throw new Error(`illegal FEN: ${why(setup.error)}`);
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) throw new Error(`illegal position: ${why(pos.error)}`);
  return pos.value;
}

// The move as UCI names it: castling as the king's two-square step.
function uciOf(pos, move) {
  const piece = pos.board.get(move.from);
  const target = pos.board.get(move.to);
  let to = move.to;
  if (piece && piece.role === 'king' && target && target.role === 'rook' && target.color === piece.color)
    to = (move.to > move.from ? 6 : 2) + (move.from & ~7);
  return makeSquare(move.from) + makeSquare(to) + (move.promotion ? move.promotion[0] === 'k' ? 'n' : move.promotion[0] : '');
}

// Plays a move given in UCI; false when it is not legal here.
function play(uci) {
  const pos = current();
  const parsed = parseUci(uci);
  if (!parsed || !('from' in parsed)) return false;
  const move = normalizeMove(pos, parsed);
  if (!pos.isLegal(move)) return false;
  const next = pos.clone();
  const name = uciOf(pos, move);
  const san = makeSanAndPlay(next, move);
  game.positions.push(next);
  game.moves.push({ uci: name, san });
  checkEnd();
  return true;
}

function repetitionKey(pos) {
  return makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');
}

function checkEnd() {
  const pos = current();
  game.result = '*';
  game.reason = '';
  const outcome = pos.outcome();
  if (outcome) {
    game.result = outcome.winner === 'white' ? '1-0' : outcome.winner === 'black' ? '0-1' : '1/2-1/2';
    game.reason = pos.isCheckmate() ? 'checkmate' : pos.isStalemate() ? 'stalemate' : 'insufficient material';
    return;
  }
  if (pos.halfmoves >= 100) {
    game.result = '1/2-1/2';
    game.reason = 'fifty-move rule';
    return;
  }
  const key = repetitionKey(pos);
  if (game.positions.filter((p) => repetitionKey(p) === key).length >= 3) {
    game.result = '1/2-1/2';
    game.reason = 'threefold repetition';
  }
}

function positionCommand() {
  const moves = game.moves.map((m) => m.uci).join(' ');
  return `position fen ${game.startFen}${moves ? ' moves ' + moves : ''}`;
}

// Moves in SAN with their numbers, from a position.
function sanLine(pos, sans) {
  let n = pos.fullmoves, white = pos.turn === 'white', out = [];
  sans.forEach((san, i) => {
    if (white) out.push(`${n}. ${san}`);
    else out.push(i === 0 ? `${n}... ${san}` : san);
    if (!white) n++;
    white = !white;
  });
  return out.join(' ');
}

function pgnText() {
  const tags = [['Event', settings.mode === 'play' ? 'Game against Hexe' : 'Analysis'], ['Site', 'Hexe in the browser'],
    ['Date', new Date().toISOString().slice(0, 10).replace(/-/g, '.')]];
  const hexe = `Hexe (${settings.elo ? 'UCI_Elo ' + settings.elo : 'full strength'})`;
  if (settings.mode === 'play') {
    tags.push(['White', settings.side === 'white' ? 'You' : hexe], ['Black', settings.side === 'black' ? 'You' : hexe]);
  } else tags.push(['White', '?'], ['Black', '?']);
  tags.push(['Result', game.result]);
  if (game.startFen !== INITIAL_FEN) tags.push(['SetUp', '1'], ['FEN', game.startFen]);
  const body = sanLine(game.positions[0], game.moves.map((m) => m.san)) + ' ' + game.result;
  const lines = [];
  let line = '';
  for (const word of body.trim().split(' ')) {
    if (line && line.length + word.length + 1 > 79) { lines.push(line); line = ''; }
    line += (line ? ' ' : '') + word;
  }
  lines.push(line);
  return tags.map(([k, v]) => `[${k} "${v.replace(/"/g, "'")}"]`).join('\n') + '\n\n' + lines.join('\n') + '\n';
}

// ---- Loading a FEN or a PGN (analysis) ----

function loadText(text) {
  text = text.trim();
  if (!text) throw new Error('paste a FEN or a PGN first');
  if (!/[[\]]/.test(text) && !/^\s*1\./.test(text) && text.split(/\s+/).length <= 6 && text.includes('/')) {
    newGame(text);
    return 'FEN loaded';
  }
  const games = parsePgn(text);
  if (!games.length) throw new Error('no game found in the PGN');
  const g = games[0];
  const start = startingPosition(g.headers);
  if (start.isErr) throw new Error(`the PGN's FEN is not legal: ${why(start.error)}`);
  const pos = start.value;
  const fen = makeFen(pos.toSetup());
  const sans = [];
  for (const node of g.moves.mainline()) sans.push(node.san);
  if (!sans.length && !g.headers.has('FEN')) throw new Error('neither a FEN nor a PGN with moves');
  // Check every move before anything changes.
  const check = pos.clone();
  sans.forEach((san, i) => {
    const move = parseSan(check, san);
    if (!move) throw new Error(`illegal move in the PGN: ${sanLine(pos, sans.slice(0, i + 1)).split(' ').slice(-2).join(' ')}`);
    check.play(move);
  });
  newGame(fen);
  for (const san of sans) {
    const p = current();
    play(uciOf(p, parseSan(p, san)));
  }
  return `PGN loaded: ${sans.length} moves`;
}

// ---- Settings ----

const params = new URLSearchParams(location.search);
const settings = { mode: 'play', side: 'white', elo: 1500, movetime: 1000, multipv: 3, threads: 1, heat: false };

// ---- The engine ----

const build = params.get('build') === 'scalar' || !simdSupported() ? 'hexe-scalar.js' : 'hexe.js';
let engine = null;
let token = 0; // changes whenever a running search's result must be dropped
let tasks = Promise.resolve(); // engine work, one piece after another
const serial = (fn) => (tasks = tasks.then(fn).catch((e) => message(e.message, true)));

function message(text, error) {
  $('message').textContent = text;
  $('message').className = error ? 'error' : '';
}

function onEngineLine(line) {
  const log = $('log');
  log.textContent += line + '\n';
  if (log.textContent.length > 20000) log.textContent = log.textContent.slice(-15000);
  if (/^info string (invalid FEN|illegal move|position needs)/.test(line)) message(line.slice(12), true);
}

async function applyStrength() {
  await engine.setoption('UCI_LimitStrength', settings.mode === 'play' && settings.elo ? 'true' : 'false');
  if (settings.elo) await engine.setoption('UCI_Elo', settings.elo);
  await engine.setoption('UCI_AnalyseMode', settings.mode === 'analyse' ? 'true' : 'false');
  await engine.setoption('MultiPV', settings.mode === 'analyse' ? settings.multipv : 1);
  await engine.setoption('Threads', settings.threads);
}

// ---- Analysis lines and the evaluation bar ----

const lines = new Map(); // multipv -> {depth, score, san}

function whiteScore(score, pos) {
  const sign = pos.turn === 'white' ? 1 : -1;
  return score.mate !== undefined ? { mate: sign * score.mate } : { cp: sign * score.cp };
}

const TB_WIN_BOUND = 18872; // src/syzygy/probe.h: scores past it are tablebase wins

function scoreText(s) {
  if (s.mate !== undefined) return s.mate > 0 ? `#${s.mate}` : `#-${-s.mate}`;
  if (Math.abs(s.cp) >= TB_WIN_BOUND) return s.cp > 0 ? '+TB' : '-TB';
  return (s.cp > 0 ? '+' : '') + (s.cp / 100).toFixed(2);
}

function setBar(s) {
  let white;
  if (!s) white = 0.5;
  else if (s.mate !== undefined) white = s.mate > 0 ? 1 : 0;
  else white = 1 / (1 + Math.exp(-s.cp / 250));
  $('evalbar-white').style.height = `${(white * 100).toFixed(1)}%`;
  $('evalbar-text').textContent = s ? scoreText(s) : '';
  $('evalbar').dataset.score = s ? scoreText(s) : '';
}

function onInfo(line, pos) {
  const info = parseInfo(line);
  if (!info || !info.pv || !info.score || info.bound) return;
  const p = pos.clone(), sans = [];
  for (const uci of info.pv) {
    const parsed = parseUci(uci);
    const move = parsed && normalizeMove(p, parsed);
    if (!move || !p.isLegal(move)) break;
    sans.push(makeSanAndPlay(p, move));
  }
  const score = whiteScore(info.score, pos);
  lines.set(info.multipv, { depth: info.depth, score, san: sanLine(pos, sans), pv: info.pv, nodes: info.nodes, nps: info.nps });
  if (info.multipv === 1) {
    setBar(score);
    $('depth').textContent = `depth ${info.depth}, ${(info.nodes / 1000).toFixed(0)}k nodes, ${(info.nps / 1000).toFixed(0)}k nodes/s`;
  }
  showLines();
}

function showLines() {
  const ol = $('lines');
  ol.textContent = '';
  if (settings.mode !== 'analyse') return;
  for (const k of [...lines.keys()].sort((a, b) => a - b)) {
    if (k > settings.multipv) continue;
    const l = lines.get(k);
    const li = document.createElement('li');
    li.dataset.multipv = k;
    li.dataset.depth = l.depth;
    li.dataset.pv = l.pv.join(' ');
    const score = document.createElement('b');
    score.textContent = scoreText(l.score);
    li.append(score, ' ', l.san);
    ol.appendChild(li);
  }
}

// Starts the analysis of the current position; resolves once it runs (the
// next piece of engine work then stops it first).
async function analyse() {
  if (settings.mode !== 'analyse' || !engine || current().isEnd() || game.result !== '*') return;
  await engine.stop();
  const pos = current();
  lines.clear();
  showLines();
  $('analyse-toggle').textContent = 'Stop';
  engine.go(positionCommand(), 'go infinite', (l) => onInfo(l, pos));
}

// ---- Hexe's view ----

async function refreshHeat() {
  if (!settings.heat) { drawHeat($('heat'), null); $('heat-note').textContent = ''; return; }
  const restart = settings.mode === 'analyse' && engine.searching;
  if (settings.mode === 'analyse') await engine.stop();
  else if (engine.searching) await engine.searching;
  engine.send(positionCommand());
  engine.send('eval');
  const out = await engine.request('isready', (l) => l === 'readyok');
  const squares = parseTrace(out);
  drawHeat($('heat'), squares, cg.state.orientation);
  $('heat-note').textContent = squares ? 'Each piece: how much its side\'s score (pawns) falls if it is taken off.'
    : 'No heat map here: the network does not judge this position (a bare king: the hand-made evaluation does).';
  if (restart) await analyse();
}

// ---- The board ----

const cg = Chessground($('board'), {
  fen: INITIAL_FEN,
  movable: { free: false, showDests: true, events: { after: (orig, dest) => userMove(orig, dest) } },
  premovable: { enabled: false },
  draggable: { showGhost: true },
  animation: { duration: 150 },
});

function humanTurn() {
  if (game.result !== '*') return false;
  return settings.mode === 'analyse' || current().turn === settings.side;
}

function redraw() {
  const pos = current();
  const last = game.moves.length ? game.moves[game.moves.length - 1].uci : null;
  cg.set({
    fen: makeFen(pos.toSetup()),
    turnColor: pos.turn,
    check: pos.isCheck() ? pos.turn : false,
    lastMove: last ? [last.slice(0, 2), last.slice(2, 4)] : undefined,
    movable: { color: humanTurn() ? (settings.mode === 'analyse' ? pos.turn : settings.side) : undefined,
      dests: humanTurn() ? chessgroundDests(pos) : new Map() },
  });
  const moves = $('moves');
  moves.textContent = '';
  const start = game.positions[0];
  let n = start.fullmoves, white = start.turn === 'white';
  game.moves.forEach((m, i) => {
    if (white || i === 0) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = white ? `${n}.` : `${n}...`;
      moves.append(num);
    }
    const s = document.createElement('span');
    s.className = 'san';
    s.textContent = m.san;
    s.dataset.uci = m.uci;
    moves.append(s, ' ');
    if (!white) n++;
    white = !white;
  });
  moves.scrollTop = moves.scrollHeight;
  $('pgn').value = pgnText();
  const status = game.result !== '*' ? `Game over: ${game.result} (${game.reason})`
    : settings.mode === 'play' ? (humanTurn() ? 'Your move' : 'Hexe is thinking…') : `${pos.turn === 'white' ? 'White' : 'Black'} to move`;
  $('game-status').textContent = status;
  document.body.dataset.result = game.result;
}

function userMove(orig, dest) {
  const pos = current();
  const from = parseSquare(orig), to = parseSquare(dest);
  const piece = pos.board.get(from);
  const promotion = piece && piece.role === 'pawn' && (dest[1] === '8' || dest[1] === '1') ? $('promotion').value : undefined;
  const move = normalizeMove(pos, { from, to, promotion });
  if (!pos.isLegal(move) || !play(uciOf(pos, move))) {
    message(`illegal move ${orig}${dest}`, true);
    redraw();
    return;
  }
  message('');
  afterMove();
}

function afterMove() {
  redraw();
  if (settings.heat) serial(refreshHeat);
  if (settings.mode === 'analyse') serial(analyse);
  else if (!humanTurn() && game.result === '*') serial(engineMove);
}

async function engineMove() {
  if (settings.mode !== 'play' || humanTurn() || game.result !== '*') return;
  const mine = token;
  const pos = current();
  const best = await engine.go(positionCommand(), `go movetime ${settings.movetime}`, (l) => {
    const info = parseInfo(l);
    if (info && info.score && info.multipv === 1) setBar(whiteScore(info.score, pos));
  });
  if (mine !== token || settings.mode !== 'play') return;
  if (!best || best === '(none)' || !play(best)) {
    message(`Hexe answered an illegal move: ${best}`, true);
    return;
  }
  redraw();
  if (settings.heat) await refreshHeat();
}

// ---- Controls ----

async function restart(fen) {
  token++;
  if (engine) await engine.stop();
  newGame(fen || INITIAL_FEN);
  lines.clear();
  setBar(null);
  cg.set({ orientation: settings.mode === 'play' ? settings.side : cg.state.orientation });
  redraw();
  serial(async () => {
    engine.send('ucinewgame');
    await applyStrength();
  });
  afterMove();
}

function setMode(mode) {
  settings.mode = mode;
  if (engine) engine.stop(); // a move Hexe is thinking about is dropped (token)
  document.body.dataset.mode = mode;
  for (const b of document.querySelectorAll('nav button')) b.classList.toggle('active', b.dataset.mode === mode);
  token++;
  serial(async () => {
    await engine.stop();
    await applyStrength();
  });
  if (mode === 'play') cg.set({ orientation: settings.side });
  lines.clear();
  showLines();
  afterMove();
}

function bind() {
  for (const b of document.querySelectorAll('nav button')) b.onclick = () => setMode(b.dataset.mode);
  $('side').onchange = () => { settings.side = $('side').value; restart(); };
  $('elo').onchange = () => { settings.elo = Number($('elo').value); serial(applyStrength); };
  $('movetime').onchange = () => { settings.movetime = Number($('movetime').value); };
  $('new-game').onclick = () => restart(settings.mode === 'play' ? INITIAL_FEN : game.startFen);
  $('takeback').onclick = async () => {
    token++;
    await engine.stop();
    let n = settings.mode === 'play' && humanTurn() ? 2 : 1;
    if (settings.mode === 'play' && game.result !== '*' && current().turn === settings.side) n = 2;
    if (settings.mode === 'play' && game.result !== '*' && current().turn !== settings.side) n = 1;
    while (n-- > 0 && game.moves.length) { game.moves.pop(); game.positions.pop(); }
    checkEnd();
    afterMove();
  };
  $('flip').onclick = () => { cg.toggleOrientation(); if (settings.heat) serial(refreshHeat); };
  $('load').onclick = async () => {
    const saved = { startFen: game.startFen, positions: [...game.positions], moves: [...game.moves], result: game.result,
      reason: game.reason };
    try {
      message(loadText($('input').value));
    } catch (e) {
      Object.assign(game, saved);
      message(`${e.message}; the position stays as it was`, true);
      return;
    }
    token++;
    await engine.stop();
    lines.clear();
    setBar(null);
    afterMove();
  };
  $('multipv').onchange = () => {
    settings.multipv = Number($('multipv').value);
    serial(async () => { await applyStrength(); await analyse(); });
  };
  $('analyse-toggle').onclick = async () => {
    if (engine.searching) { await engine.stop(); $('analyse-toggle').textContent = 'Go'; }
    else serial(analyse);
  };
  $('heat-toggle').onchange = () => { settings.heat = $('heat-toggle').checked; serial(refreshHeat); };
  $('threads').onchange = () => { settings.threads = Number($('threads').value); serial(async () => { await applyStrength(); await analyse(); }); };
  $('copy-pgn').onclick = async () => {
    try { await navigator.clipboard.writeText(pgnText()); message('PGN copied'); }
    catch { $('pgn').select(); message('select the PGN and copy it (the browser refused the clipboard)'); }
  };
  $('download-pgn').onclick = () => {
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([pgnText()], { type: 'application/x-chess-pgn' }));
    a.download = `hexe-${new Date().toISOString().slice(0, 10)}.pgn`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
}

async function start() {
  bind();
  const cores = Math.min(32, navigator.hardwareConcurrency || 1);
  for (let i = 1; i <= cores; i++) $('threads').append(new Option(String(i), String(i)));
  if (!crossOriginIsolated) {
    message('This page needs cross-origin isolation for the engine\'s threads (SharedArrayBuffer): serve it with scripts/serve-web.', true);
    $('engine-status').textContent = 'engine not started';
    return;
  }
  setMode('play');
  $('engine-status').textContent = 'engine loading…';
  engine = new Engine(build);
  engine.onLine(onEngineLine);
  window.hexe.engine = engine;
  try {
    await engine.ready;
  } catch (e) {
    $('engine-status').textContent = 'engine failed';
    message(`the engine did not start: ${e.message}`, true);
    return;
  }
  const id = await engine.request('uci', (l) => l === 'uciok');
  const name = id.find((l) => l.startsWith('id name ')) || 'id name Hexe';
  $('engine-status').textContent = `${name.slice(8)} · ${build === 'hexe.js' ? 'WebAssembly SIMD' : 'WebAssembly'}`;
  await applyStrength();
  document.body.dataset.engine = 'ready';
  afterMove();
}

// For the tests and the curious: the engine and the game's state.
window.hexe = {
  engine: null,
  state: () => ({ fen: makeFen(current().toSetup()), moves: game.moves.map((m) => m.uci), sans: game.moves.map((m) => m.san),
    turn: current().turn, result: game.result, reason: game.reason, mode: settings.mode, busy: !!(engine && engine.searching) }),
  idle: () => tasks,
};

start();
