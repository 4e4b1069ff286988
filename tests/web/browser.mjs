// browser.mjs - drives the page of `make wasm` in Debian's chromium
// (headless, through puppeteer-core from web/node_modules) and writes what
// it saw as JSON; tests/test_web.py runs it and checks the results against
// the native build.
//
//   node tests/web/browser.mjs --url URL --out DIR [--chromium PATH] [--bench [--bench-depth N]]
//   node tests/web/browser.mjs --url URL --speed N [--native EXE] [--scalar]
//
// It plays a whole game as White against Hexe at UCI_Elo 1000 by clicking
// the board, loads a FEN and reads the analysis lines, loads a bad FEN and
// bad and good PGNs, reads the heat map, saves DIR/web-analysis.png,
// stops a search, searches with two threads, and runs `bench` in the SIMD
// and the scalar build. Every check is a line `ok - ...` or `FAIL - ...`.
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(path.join(root, 'web/package.json'));
const puppeteer = require('puppeteer-core');
// chessops is published as ES modules (its CommonJS files do not load in node).
const chessops = (m) => import(pathToFileURL(path.join(root, 'web/node_modules/chessops/dist/esm', m + '.js')));
const { Chess, normalizeMove } = await chessops('chess');
const { makeFen, parseFen } = await chessops('fen');
const { parsePgn, startingPosition } = await chessops('pgn');
const { parseSan } = await chessops('san');
const { parseUci } = await chessops('util');

const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : def;
};
const url = arg('--url'), out = arg('--out', 'tests/out'), chromium = arg('--chromium', '/usr/bin/chromium');
mkdirSync(out, { recursive: true });

const results = { checks: [] };
function check(name, ok, detail = '') {
  results.checks.push({ name, ok: !!ok, detail });
  console.log(`${ok ? 'ok' : 'FAIL'} - ${name}${detail ? ': ' + detail : ''}`);
  return ok;
}

// A fixed pseudo-random sequence: the same game every run for the same engine.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

const VALUE = { pawn: 1, knight: 3, bishop: 3, rook: 5, queen: 9, king: 0 };

function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    for (const to of dests) {
      const piece = pos.board.get(from);
      const promo = piece.role === 'pawn' && (to >> 3 === 7 || to >> 3 === 0) ? 'queen' : undefined;
      moves.push({ from, to, promotion: promo });
    }
  }
  return moves;
}

// The test's player: mates when it can, else takes the most valuable piece
// it can, else moves at random.
function pickMove(pos) {
  const moves = legalMoves(pos);
  for (const m of moves) {
    const p = pos.clone();
    p.play(m);
    if (p.isCheckmate()) return m;
  }
  let best = [], bestValue = 0;
  for (const m of moves) {
    const target = pos.board.get(m.to);
    const v = target && target.color !== pos.turn ? VALUE[target.role] : 0;
    if (v > bestValue) { best = [m]; bestValue = v; } else if (v === bestValue && v > 0) best.push(m);
  }
  const pool = best.length ? best : moves;
  return pool[Math.floor(random() * pool.length)];
}

function replay(fen, ucis) {
  const setup = parseFen(fen);
  const pos = Chess.fromSetup(setup.unwrap()).unwrap();
  for (const u of ucis) {
    const m = normalizeMove(pos, parseUci(u));
    if (!pos.isLegal(m)) return null;
    pos.play(m);
  }
  return pos;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(page, fn, arg, timeout = 30000) {
  return page.waitForFunction(fn, { timeout, polling: 50 }, arg);
}

async function clickSquare(page, sq, orientation) {
  const box = await (await page.$('#board')).boundingBox();
  const file = sq & 7, rank = sq >> 3, size = box.width / 8;
  const col = orientation === 'white' ? file : 7 - file, row = orientation === 'white' ? 7 - rank : rank;
  await page.mouse.click(box.x + (col + 0.5) * size, box.y + (row + 0.5) * size);
}

const state = (page) => page.evaluate(() => window.hexe.state());

async function openPage(browser, query) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => results.pageErrors.push(e.message));
  await page.setViewport({ width: 1200, height: 760 });
  await page.goto(url + query, { waitUntil: 'load' });
  await page.waitForSelector('body[data-engine=ready]', { timeout: 90000 });
  return page;
}

async function playGame(page) {
  await page.select('#side', 'white');
  await page.select('#elo', '1000');
  await page.select('#movetime', '300');
  await page.click('#new-game');
  await waitFor(page, () => window.hexe.state().moves.length === 0 && !window.hexe.state().busy);
  const mine = [];
  for (let ply = 0; ply < 600; ply++) {
    await waitFor(page, () => { const s = window.hexe.state(); return s.result !== '*' || (s.turn === 'white' && !s.busy); },
      null, 60000);
    const s = await state(page);
    if (s.result !== '*') break;
    const pos = replay(s.fen, []);
    const move = pickMove(pos);
    const before = s.moves.length;
    await clickSquare(page, move.from, 'white');
    await clickSquare(page, move.to, 'white');
    await waitFor(page, (n) => window.hexe.state().moves.length > n, before, 10000);
    mine.push(before);
  }
  const s = await state(page);
  results.game = s;
  check('the game ended by the rules', s.result !== '*', `${s.result} by ${s.reason} after ${s.moves.length} plies`);
  // Every engine move, as the engine printed it, legal where it was played.
  const lines = await page.evaluate(() => window.hexe.engine.lines.filter((l) => l.startsWith('bestmove')));
  const pos = replay('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', []);
  let illegal = 0, engineMoves = 0;
  const best = lines.map((l) => l.split(' ')[1]).slice(-Math.floor(s.moves.length / 2));
  s.moves.forEach((u, i) => {
    const m = normalizeMove(pos, parseUci(u));
    if (!pos.isLegal(m)) illegal++;
    if (i % 2 === 1) {
      engineMoves++;
      if (best[engineMoves - 1] !== u) illegal++;
    }
    pos.play(m);
  });
  // However short the game (Hexe at 1000 can mate this greedy mover in 8
  // moves), every engine move of it is checked.
  check('every engine move was legal and the one it answered', illegal === 0 && engineMoves > 0,
    `${engineMoves} engine moves, ${illegal} wrong`);
  check('the page saw the same end', makeFen(pos.toSetup()) === s.fen && (pos.isEnd() || s.reason.includes('rule') ||
    s.reason.includes('repetition')), s.reason);
  // The PGN replays to the same position.
  const pgn = await page.$eval('#pgn', (e) => e.value);
  const games = parsePgn(pgn);
  const g = games[0];
  const p = startingPosition(g.headers).unwrap();
  let ok = true;
  for (const node of g.moves.mainline()) {
    const m = parseSan(p, node.san);
    if (!m) { ok = false; break; }
    p.play(m);
  }
  check('the PGN replays to the final position', ok && makeFen(p.toSetup()) === s.fen && g.headers.get('Result') === s.result,
    g.headers.get('Result'));
  writeFileSync(path.join(out, 'web-game.pgn'), pgn);
}

async function takeback(page) {
  await page.select('#movetime', '300');
  await page.click('#new-game');
  await waitFor(page, () => window.hexe.state().moves.length === 0 && !window.hexe.state().busy);
  await clickSquare(page, 12, 'white'); // e2
  await clickSquare(page, 28, 'white'); // e4
  await waitFor(page, () => window.hexe.state().moves.length === 2 && !window.hexe.state().busy, null, 20000);
  await page.click('#takeback');
  await waitFor(page, () => window.hexe.state().moves.length === 0, null, 5000).catch(() => {});
  const s = await state(page);
  check('takeback takes back the engine\'s move and yours', s.moves.length === 0, `${s.moves.length} moves left`);
}

async function loadInput(page, text) {
  await page.$eval('#input', (e, t) => { e.value = t; }, text);
  await page.click('#load');
  await sleep(300);
  return { state: await state(page), message: await page.$eval('#message', (e) => e.textContent) };
}

const FEN = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4';

async function analyse(page) {
  await page.click('nav button[data-mode=analyse]');
  await page.select('#multipv', '3');
  const r = await loadInput(page, FEN);
  check('a FEN loads', r.state.fen === FEN, r.message);
  await waitFor(page, () => {
    const li = document.querySelectorAll('#lines li');
    return li.length === 3 && [...li].every((l) => Number(l.dataset.depth) >= 10);
  }, null, 60000);
  const lines = await page.$$eval('#lines li', (ls) => ls.map((l) => ({ depth: Number(l.dataset.depth), pv: l.dataset.pv.split(' '), text: l.textContent })));
  results.lines = lines;
  const legal = lines.every((l) => replay(FEN, l.pv) !== null && l.pv.length >= 2);
  const firsts = new Set(lines.map((l) => l.pv[0]));
  check('three analysis lines, legal, distinct first moves, depth >= 10', legal && firsts.size === 3,
    lines.map((l) => `d${l.depth} ${l.text}`).join(' | '));
  const sanOk = lines.every((l) => /^[+#-]?[\d.]+\s+4\. /.test(l.text) || /^#-?\d+\s+4\. /.test(l.text));
  check('the lines are shown in SAN with move numbers', sanOk, lines[0].text);
  const bar = await page.$eval('#evalbar', (e) => e.dataset.score);
  check('the evaluation bar shows a score', /^[+-]?\d+\.\d\d$|^#-?\d+$/.test(bar), bar);

  await page.click('#heat-toggle');
  await waitFor(page, () => document.querySelectorAll('#heat .heat-cell[data-value]').length > 0, null, 20000);
  results.heat = await page.$$eval('#heat .heat-cell[data-value]', (cs) => Object.fromEntries(cs.map((c) => [c.dataset.square, c.dataset.value])));
  results.heatFen = FEN;
  await waitFor(page, () => document.querySelectorAll('#lines li').length === 3, null, 20000);
  await sleep(1500);
  await page.screenshot({ path: path.join(out, 'web-analysis.png') });
  check('the screenshot was saved', true, path.join(out, 'web-analysis.png'));

  // Stop: the running analysis answers bestmove at once.
  const t0 = Date.now();
  const stopped = await page.evaluate(async () => {
    const e = window.hexe.engine;
    if (!e.searching) return 'no search was running';
    document.getElementById('analyse-toggle').click();
    await e.searching;
    return 'stopped';
  });
  check('stop ends the analysis with bestmove', stopped === 'stopped' && Date.now() - t0 < 3000, `${stopped} in ${Date.now() - t0} ms`);

  // Bad input: clear messages, the position stays.
  let b = await loadInput(page, 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1');
  check('an illegal FEN is refused with a message', b.state.fen === FEN && /illegal|FEN/i.test(b.message), b.message);
  b = await loadInput(page, '[Event "x"]\n\n1. e4 e5 2. Ke3 Nc6 *');
  check('an illegal PGN move is refused with a message', b.state.fen === FEN && /Ke3/.test(b.message), b.message);
  b = await loadInput(page, '[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *');
  check('a PGN loads', b.state.fen === 'r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4' &&
    b.state.sans.join(' ') === 'e4 e5 Nf3 Nc6 Bb5 a6', b.message);

  // Two threads, where the page is isolated.
  const threads = await page.$$eval('#threads option', (o) => o.length);
  if (threads >= 2) {
    await page.select('#threads', '2');
    await waitFor(page, () => {
      const li = document.querySelectorAll('#lines li');
      return li.length === 3 && Number(li[0].dataset.depth) >= 8;
    }, null, 60000);
    const log = await page.evaluate(() => window.hexe.engine.lines.filter((l) => /thread/i.test(l) && l.startsWith('info string')));
    check('analysis runs with Threads 2', log.length === 0, log.join(' | ') || 'no thread complaint');
    await page.select('#threads', '1');
  } else {
    check('analysis runs with Threads 2', true, 'skipped: the browser reports one core');
  }
  await page.evaluate(async () => { await window.hexe.idle(); await window.hexe.engine.stop(); });
}

// --bench-depth N: the bench at depth N (its default depth without it).
const benchAt = process.argv.indexOf('--bench-depth');
const benchCommand = benchAt > 0 ? `bench ${Number(process.argv[benchAt + 1])}` : 'bench';

async function bench(page, name) {
  await page.evaluate(async () => { await window.hexe.idle(); await window.hexe.engine.stop(); });
  const lines = await page.evaluate((cmd) =>
    window.hexe.engine.request(cmd, (l) => /^\d+ nodes \d+ nps$/.test(l)), benchCommand);
  const last = lines[lines.length - 1].split(' ');
  results.bench[name] = { nodes: Number(last[0]), nps: Number(last[2]) };
  console.log(`bench ${name}: ${last.join(' ')}`);
}

const browser = await puppeteer.launch({
  executablePath: chromium,
  headless: true,
  protocolTimeout: 600000,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', `--user-data-dir=${path.join(out, 'chromium-profile')}`],
});
results.pageErrors = [];
results.bench = {};
const speedRuns = Number(arg('--speed', 0));
if (speedRuns > 0) {
  // --speed N --native EXE: N alternating pairs of the native bench and the
  // SIMD build's bench in the page (and --scalar: the scalar build's too),
  // each ratio the median of the pairs'.
  const { spawnSync } = await import('node:child_process');
  const native = arg('--native', path.join(root, 'hexe'));
  const builds = process.argv.includes('--scalar') ? [['simd', ''], ['scalar', '?build=scalar']] : [['simd', '']];
  const pages = {};
  for (const [name, query] of builds) pages[name] = await openPage(browser, query);
  const ratios = {};
  for (let i = 0; i < speedRuns; i++) {
    for (const [name] of builds) {
      const r = spawnSync(native, ['bench'], { encoding: 'utf8' });
      const n = Number(/(\d+) nodes (\d+) nps\s*$/.exec(r.stdout)[2]);
      await bench(pages[name], name);
      const ratio = results.bench[name].nps / n;
      (ratios[name] ||= []).push(ratio);
      console.log(`pair ${i + 1} ${name}: native ${n} nps, wasm ${results.bench[name].nps} nps, ratio ${ratio.toFixed(3)}`);
    }
  }
  for (const [name, rs] of Object.entries(ratios)) {
    rs.sort((a, b) => a - b);
    console.log(`${name}: median ratio ${rs[Math.floor(rs.length / 2)].toFixed(2)} (${rs.map((r) => r.toFixed(2)).join(', ')})`);
  }
  await browser.close();
  process.exit(0);
}
try {
  const page = await openPage(browser, '');
  const status = await page.$eval('#engine-status', (e) => e.textContent);
  check('the engine starts in a worker (SIMD build)', /Hexe .*SIMD/.test(status), status);
  check('the page is cross-origin isolated', await page.evaluate(() => crossOriginIsolated));
  const log = await page.evaluate(() => window.hexe.engine.lines);
  check('the engine found its book and tables', !log.some((l) => /no book or tablebases/.test(l)) &&
    log.some((l) => /option name OwnBook type check default true/.test(l)), log.filter((l) => /book|table/i.test(l)).slice(0, 3).join(' | '));
  const tb = await page.evaluate(async () => {
    const e = window.hexe.engine;
    await window.hexe.idle();
    e.send('position fen 8/8/8/4k3/8/8/1r6/3QK3 w - - 0 1');
    const got = await e.request('go depth 6', (l) => l.startsWith('bestmove'));
    return got.filter((l) => / tbhits [1-9]/.test(l)).length;
  });
  check('the engine probes the fetched tables (KQvKR)', tb > 0, `${tb} info lines with tbhits`);
  await playGame(page);
  await takeback(page);
  await analyse(page);
  if (process.argv.includes('--bench')) {
    await bench(page, 'simd');
    await page.close();
    const scalar = await openPage(browser, '?build=scalar');
    const st = await scalar.$eval('#engine-status', (e) => e.textContent);
    check('the scalar build starts', /Hexe/.test(st) && !/SIMD/.test(st), st);
    await bench(scalar, 'scalar');
  }
} catch (e) {
  check('the browser session ran to its end', false, e.stack || String(e));
} finally {
  check('no error in the page', results.pageErrors.length === 0, results.pageErrors.join(' | '));
  writeFileSync(path.join(out, 'web-results.json'), JSON.stringify(results, null, 1));
  await browser.close();
}
