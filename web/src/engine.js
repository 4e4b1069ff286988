// engine.js - Hexe's WebAssembly build in a Web Worker (hexe.js, made by
// `make wasm`), spoken to in UCI. One search at a time: go() first stops
// the running one and waits for its bestmove.

export function simdSupported() {
  // The smallest module that uses a v128 value (i32.const 0; i8x16.splat; drop).
  const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 10, 9, 1, 7, 0,
    65, 0, 253, 15, 26, 11]);
  return WebAssembly.validate(bytes);
}

export class Engine {
  constructor(url) {
    this.url = url;
    this.listeners = new Set();
    this.lines = []; // every line, for the page's log and the tests
    this.searching = null; // the running search's promise of its bestmove
    this.worker = new Worker(url);
    this.ready = new Promise((resolve, reject) => {
      this.worker.onmessage = (e) => {
        const m = e.data;
        if (m.ready) resolve();
        else if (m.error) { this.emit('info string engine error: ' + m.error); reject(new Error(m.error)); }
        else if (typeof m.line === 'string') this.emit(m.line);
      };
      this.worker.onerror = (e) => reject(new Error(e.message || 'the engine worker failed to load'));
    });
  }

  emit(line) {
    this.lines.push(line);
    if (this.lines.length > 5000) this.lines.splice(0, 1000);
    for (const fn of [...this.listeners]) fn(line);
  }

  onLine(fn) {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  send(cmd) {
    this.worker.postMessage(cmd);
  }

  // Sends cmd and collects the lines up to the first one that done() accepts.
  request(cmd, done) {
    return new Promise((resolve) => {
      const got = [];
      const off = this.onLine((line) => {
        got.push(line);
        if (done(line)) { off(); resolve(got); }
      });
      this.send(cmd);
    });
  }

  async isready() {
    await this.request('isready', (l) => l === 'readyok');
  }

  async stop() {
    if (!this.searching) return;
    const s = this.searching;
    this.send('stop');
    await s;
  }

  // position: a `position ...` command; go: a `go ...` command; onInfo gets
  // each info line. Resolves to the bestmove in UCI notation.
  async go(position, go, onInfo) {
    while (this.searching) await this.stop();
    this.send(position);
    let off;
    const search = new Promise((resolve) => {
      off = this.onLine((line) => {
        if (line.startsWith('info ') && onInfo) onInfo(line);
        else if (line.startsWith('bestmove')) { off(); resolve(line.split(/\s+/)[1]); }
      });
    });
    this.searching = search.then((m) => { this.searching = null; return m; });
    this.send(go);
    return this.searching;
  }

  async setoption(name, value) {
    await this.stop();
    this.send(`setoption name ${name} value ${value}`);
    await this.isready();
  }
}

// An info line's fields: depth, seldepth, multipv, score {cp|mate}, nodes, nps, pv [uci...].
export function parseInfo(line) {
  const t = line.trim().split(/\s+/);
  const info = { multipv: 1 };
  for (let i = 1; i < t.length; i++) {
    const k = t[i];
    if (k === 'depth' || k === 'seldepth' || k === 'multipv' || k === 'nodes' || k === 'nps' || k === 'time' ||
        k === 'hashfull' || k === 'tbhits') info[k] = Number(t[++i]);
    else if (k === 'score') {
      const kind = t[++i], v = Number(t[++i]);
      info.score = kind === 'mate' ? { mate: v } : { cp: v };
      if (t[i + 1] === 'lowerbound' || t[i + 1] === 'upperbound') info.bound = t[++i];
    } else if (k === 'wdl') i += 3;
    else if (k === 'pv') { info.pv = t.slice(i + 1); break; }
    else if (k === 'string' || k === 'currmove') return null;
  }
  return info;
}
