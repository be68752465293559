// Benchmark: the WASM recognizer under node against the native build on the
// same frames.  Prints the module size (raw and gzip) and, per recording,
// ns per frame event for both and their ratio.  Not a test (no timing
// assertions); doc/performance.md has the numbers.
// usage: node bench.mjs [--browser] [--rounds N] UTOUCH-REPLAY WASM-DIR ITERATIONS RECORDING...
// --browser also runs the WASM replay inside headless Chromium.
// --rounds N (default 3): each recording is measured N times in turn
// (native, node, Chromium, then again), and the least of each is printed:
// on a shared machine the least disturbed run is the closest to the cost.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { loadModule, Recognizer, Gesture } from '../../web/recognizer.js';
import { axes, framesOf } from './frames.mjs';
import { launch, serve } from './cdp.mjs';

const argv = process.argv.slice(2);
const inBrowser = argv[0] === '--browser';
if (inBrowser) argv.shift();
let rounds = 3;
if (argv[0] === '--rounds') { rounds = Number(argv[1]); argv.splice(0, 2); }
if (!(rounds >= 1)) { console.error('bench: --rounds needs a positive number'); process.exit(2); }
const [replay, wasmDir, iterArg, ...recs] = argv;
const iterations = Number(iterArg);
const wasm = fs.readFileSync(path.join(wasmDir, 'utouch-wasm.wasm'));
const glue = fs.readFileSync(path.join(wasmDir, 'utouch-wasm.mjs'));
console.log(`size wasm=${wasm.length} wasm.gz=${zlib.gzipSync(wasm, { level: 9 }).length} ` +
  `mjs=${glue.length} mjs.gz=${zlib.gzipSync(glue, { level: 9 }).length}`);
const module = await loadModule({ wasmBinary: wasm }, pathToFileURL(path.join(wasmDir, 'utouch-wasm.mjs')).href);

// the work of utouch-replay --bench with its default subscription (mask=drag)
// and policy (accept): create, subscribe, replay every frame with timeouts,
// fetch and decide every slice, delete
function once(direct, ax, frames) {
  const r = new Recognizer(module, { direct, x: ax.x, y: ax.y, ownAtBegin: false }, 1000);
  r.subscribe({ mask: Gesture.DRAG });
  const decided = new Set();
  const drain = () => {
    for (let s; (s = r.nextSlice());) if (!decided.has(s.id)) { decided.add(s.id); r.accept(s.id); }
  };
  const advance = (t) => {
    let next = r.nextTimeout(), at = next;
    while (next && at <= t) {
      r.updateTime(at); drain();
      next = r.nextTimeout();
      if (!next) break;
      at = next <= at ? at + 1 : next;
    }
  };
  for (const f of frames) { advance(f.t + 1000); r.frame(f.t + 1000, f.ops); drain(); }
  advance(frames.at(-1).t + 11000); drain();
  r.destroy();
}

let page = null, server = null;
if (inBrowser) {
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
  const served = await serve({ '/web/build/': path.resolve(wasmDir), '/': root });
  server = served.server;
  page = await launch(['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p)));
  await page.send('Page.navigate', { url: `${served.base}/web/demo.html` });
  await page.waitFor('window.demoReady === true');
}

// the same replay loop inside the page (once() is sent as source)
async function browserNs(direct, ax, frames) {
  return page.eval(`(async () => {
    const { loadModule, Recognizer, Gesture } = await import('/web/recognizer.js');
    const module = await loadModule();
    const frames = ${JSON.stringify(frames)};
    ${once.toString()}
    for (let i = 0; i < Math.min(${iterations}, 500); i++) once(${direct}, ${JSON.stringify(ax)}, frames);
    const t0 = performance.now();
    for (let i = 0; i < ${iterations}; i++) once(${direct}, ${JSON.stringify(ax)}, frames);
    return (performance.now() - t0) * 1e6 / (${iterations} * frames.length);
  })()`);
}

function nodeNs(direct, ax, frames) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) once(direct, ax, frames);
  return Number(process.hrtime.bigint() - t0) / (iterations * frames.length);
}

for (const rec of recs) {
  const lines = execFileSync(replay, ['--frames', rec], { encoding: 'utf8' }).split('\n');
  const direct = / direct=1 /.test(lines[0]);
  const frames = framesOf(lines);
  const ax = axes(rec);
  for (let i = 0; i < Math.min(iterations, 500); i++) once(direct, ax, frames); // warm-up (WASM tier-up, JIT)
  let nativeNs = Infinity, ns = Infinity, b = Infinity;
  for (let k = 0; k < rounds; k++) {
    const native = execFileSync(replay, ['--bench', String(iterations), rec], { encoding: 'utf8' });
    nativeNs = Math.min(nativeNs, Number(/ns_per_frame=(\S+)/.exec(native)[1]));
    ns = Math.min(ns, nodeNs(direct, ax, frames));
    if (page) b = Math.min(b, await browserNs(direct, ax, frames));
  }
  let line = `bench file=${path.basename(rec)} frames=${frames.length} native_ns_per_frame=${nativeNs.toFixed(1)} ` +
    `wasm_node_ns_per_frame=${ns.toFixed(1)} ratio=${(ns / nativeNs).toFixed(2)}`;
  if (page) line += ` wasm_chromium_ns_per_frame=${b.toFixed(1)} chromium_ratio=${(b / nativeNs).toFixed(2)}`;
  console.log(line);
}
if (page) { await page.close(); server.close(); }
