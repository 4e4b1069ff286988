// pre.js - put before hexe.js's own code by `make wasm`: the engine's side
// of the page. hexe.js runs as a dedicated Web Worker; the page posts it
// UCI lines (strings) and gets back every line the engine prints, as
// {line} messages, plus {ready} once the engine has started and {error}
// when it cannot. The search threads are further workers (hexe.worker.js),
// which load this file too but take no part in it.
//
// Before main() runs, the worker fetches the opening book and the 3-4-piece
// Syzygy tables listed in data/files.json into the engine's file system,
// where the engine finds them as beside a native executable (/hexe).
if (typeof importScripts === 'function' && !Module['ENVIRONMENT_IS_PTHREAD']) {
  (function () {
    var pending = [], started = false;
    function send(line) {
      var go_on = Module['ccall']('hexe_command', 'number', ['string'], [line]);
      if (!go_on) postMessage({ quit: true });
    }
    Module['print'] = function (line) { postMessage({ line: line }); };
    Module['printErr'] = function (line) { postMessage({ line: 'info string stderr: ' + line }); };
    Module['onAbort'] = function (what) { postMessage({ error: String(what) }); };
    Module['preRun'] = [function () {
      addRunDependency('hexe-data');
      var base = new URL('data/', self.location.href);
      try { FS.mkdirTree('/proc/self'); } catch (e) {}
      FS.writeFile('/hexe', ''); // the executable the engine looks beside
      FS.symlink('/hexe', '/proc/self/exe');
      fetch(new URL('files.json', base))
        .then(function (r) { if (!r.ok) throw new Error('data/files.json: HTTP ' + r.status); return r.json(); })
        .then(function (files) {
          return Promise.all(files.map(function (name) {
            return fetch(new URL(name, base)).then(function (r) {
              if (!r.ok) throw new Error(name + ': HTTP ' + r.status);
              return r.arrayBuffer();
            }).then(function (buf) {
              var dir = '/' + name.split('/').slice(0, -1).join('/');
              try { FS.mkdirTree(dir); } catch (e) {}
              FS.writeFile('/' + name, new Uint8Array(buf));
            });
          }));
        })
        .catch(function (e) { postMessage({ line: 'info string no book or tablebases: ' + e.message }); })
        .then(function () { removeRunDependency('hexe-data'); });
    }];
    Module['postRun'] = [function () {
      started = true;
      postMessage({ ready: true });
      while (pending.length) send(pending.shift());
    }];
    self.onmessage = function (e) {
      if (typeof e.data !== 'string') return;
      if (started) send(e.data);
      else pending.push(e.data);
    };
  })();
}
