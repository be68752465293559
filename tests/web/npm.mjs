// The npm package (scripts/pack-web.sh): the tarball is installed offline
// into a temporary project, which recognizes gestures through it in node
// (by the package's exports, module loaded without help), type-checks a
// TypeScript consumer against its declarations (where tsc is installed;
// a wrongly typed call must fail), and in headless Chromium with real touch
// input (the page imports the installed package through an import map).
// usage: node npm.mjs TARBALL VERSION
// Exit 0 on success, 1 on a failure, 77 when npm or the tarball is missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { check, finish } from './harness.mjs';
import { launch, serve } from './cdp.mjs';

const [tarball, version] = process.argv.slice(2);
const has = (cmd) => { try { execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }); return true; } catch (_) { return false; } };
if (!has('npm')) { console.log('SKIP: npm is not installed'); process.exit(77); }
if (!fs.existsSync(tarball)) { console.log(`SKIP: ${tarball} was not built`); process.exit(77); }

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'utouch-npm-test-'));
const write = (name, text) => fs.writeFileSync(path.join(dir, name), text);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let page = null, server = null;
try {
  write('package.json', JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', '--cache', path.join(dir, '.npm-cache'),
    path.resolve(tarball)]);
  const pkgDir = path.join(dir, 'node_modules', 'utouch-web');
  const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
  check('the installed package has meson\'s version', pkg.version === version, pkg.version);
  check('it is an ES module package with exports and types',
    pkg.type === 'module' && pkg.exports['.'].types === './utouch.d.ts' && pkg.exports['./recognizer'].default === './recognizer.js');
  for (const f of ['utouch.js', 'utouch.d.ts', 'recognizer.js', 'recognizer.d.ts', 'README.md',
    'build/utouch-wasm.mjs', 'build/utouch-wasm.wasm']) {
    check(`the tarball holds ${f}`, fs.existsSync(path.join(pkgDir, f)));
  }

  // node: a two-finger pinch through the package's own entry points
  write('pinch.mjs', `
import { loadModule, Recognizer, Gesture, Op } from 'utouch-web/recognizer';
import { loadUtouch, maskString } from 'utouch-web';
const r = new Recognizer(await loadModule(), { direct: true, windowResolution: 3780 }, 1000);
r.subscribe({ mask: Gesture.PINCH, touches: 2 });
r.frame(1000, [{ op: Op.BEGIN, id: 1, x: 150, y: 150 }, { op: Op.BEGIN, id: 2, x: 250, y: 150 }]);
for (let k = 1; k <= 10; k++) r.frame(1000 + 10 * k, [{ op: Op.UPDATE, id: 1, x: 150 - 5 * k, y: 150 }, { op: Op.UPDATE, id: 2, x: 250 + 5 * k, y: 150 }]);
let last = null;
for (let s; (s = r.nextSlice());) last = s;
const u = await loadUtouch();
console.log(JSON.stringify({ scale: last.scale, rec: maskString(last.recognized), attach: typeof u.attach }));
`);
  let out = {};
  try { out = JSON.parse(run('node', ['pinch.mjs'])); } catch (e) { console.log(e.stderr || e.message); }
  check('node: a pinch recognized through the package, scale 2', out.rec === 'pinch' && Math.abs(out.scale - 2) < 1e-4, JSON.stringify(out));
  check('node: loadUtouch() works without options', out.attach === 'function');

  // TypeScript: the declarations cover what a consumer calls; a wrong call fails
  if (has('tsc')) {
    write('use.ts', `
import { loadModule, Recognizer, Gesture, Edge, Op, Slice } from 'utouch-web/recognizer';
import { loadUtouch, GestureArea, GestureEvent, CSS_PX_PER_METRE } from 'utouch-web';
export async function use(el: Element): Promise<number> {
  const r = new Recognizer(await loadModule(), { direct: true, x: [0, 800, 3780], y: [0, 600, 3780] });
  const i: number = r.subscribe({ mask: Gesture.TAP | Gesture.HOLD | Gesture.EDGE_SWIPE, touches: 1,
    timeouts: { hold: 400, multiTap: 300 }, thresholds: { multiTap: 0.01 }, multiTapMaximum: 2,
    edges: Edge.LEFT, edgeMargin: 0.01, edgeVelocity: 0.02, velocityWindow: 80 });
  r.frame(1000, [{ op: Op.BEGIN, id: 1, x: 1, y: 2 }]);
  const s: Slice | null = r.nextSlice();
  const d = r.nextDecision();
  const u = await loadUtouch();
  const area: GestureArea = u.attach(el, { mouse: true, unclaimed: 'page' });
  area.subscribe({ mask: Gesture.PINCH }, { begin(g: GestureEvent) { g.accept(); } });
  area.addEventListener('gesturebegin', () => area.destroy());
  return i + (s ? s.tapCount + s.edge + s.velocity.x : 0) + (d && d.accepted ? 1 : 0) + CSS_PX_PER_METRE;
}
`);
    write('bad.ts', `
import { Recognizer, Gesture } from 'utouch-web/recognizer';
export function bad(r: Recognizer): number { return r.subscribe({ mask: Gesture.DRAG, edges: 'left' }); }
`);
    // one run for both files (tsc's start is most of its time): use.ts must
    // have no error, bad.ts exactly its wrong option
    let errors = '';
    try {
      run('tsc', ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext',
        '--target', 'es2022', '--lib', 'es2022,dom', 'use.ts', 'bad.ts']);
    } catch (e) { errors = e.stdout || e.message; }
    const lines = errors.split('\n').filter((l) => /error TS/.test(l));
    const useErrors = lines.filter((l) => l.startsWith('use.ts'));
    check('TypeScript: a consumer type-checks against the declarations', useErrors.length === 0, useErrors.join('\n'));
    check('TypeScript: a wrongly typed option is an error', lines.length === 1 && /^bad\.ts\(3,.*TS2322: Type 'string' is not assignable to type 'number'/.test(lines[0]), errors);
  } else {
    console.log('note: tsc is not installed (Debian node-typescript); the declarations were not type-checked');
  }

  // headless Chromium: a page that imports the installed package
  const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
  if (!chromium) {
    console.log('note: chromium is not installed; the browser part was skipped');
  } else {
    write('index.html', `<!doctype html><html><head><meta charset="utf-8">
<script type="importmap">{ "imports": { "utouch-web": "/node_modules/utouch-web/utouch.js" } }</script>
<style>body { margin: 0 } #area { position: absolute; left: 0; top: 0; width: 600px; height: 400px }</style></head>
<body><div id="area"></div><script type="module">
import { loadUtouch, Gesture } from 'utouch-web';
const utouch = await loadUtouch();
const area = utouch.attach(document.getElementById('area'));
window.seen = [];
// a generous timeout: on a loaded machine the moves may come slowly
area.subscribe({ mask: Gesture.PINCH, touches: 2, timeouts: { pinch: 5000 } }, {
  begin(g) { g.accept(); window.seen.push(['begin']); },
  end(g) { window.seen.push(['end', g.mask, g.scale]); },
});
area.addEventListener('unclaimed', (e) => window.seen.push(['unclaimed', e.detail.pointerId]));
window.pageReady = true;
</script></body></html>`);
    const served = await serve({ '/': dir });
    server = served.server;
    page = await launch(chromium);
    await page.send('Page.navigate', { url: `${served.base}/index.html` });
    await page.waitFor('window.pageReady === true');
    await page.frames();
    const pts = (k) => [{ id: 1, x: 250 - 5 * k, y: 200 }, { id: 2, x: 350 + 5 * k, y: 200 }];
    await page.touch('touchStart', pts(0));
    for (let k = 1; k <= 10; k++) await page.touch('touchMove', pts(k));
    await page.touch('touchEnd', []);
    const seen = await page.eval('window.seen');
    check('Chromium: a real two-finger pinch recognized through the installed package',
      seen.length === 2 && seen[0][0] === 'begin' && seen[1][0] === 'end' && seen[1][1] === 'pinch' &&
      Math.abs(seen[1][2] - 2) < 0.05, JSON.stringify(seen) + '\n' + page.logs.join('\n'));
  }
} catch (e) {
  check('the package test ran', false, e.stack + (e.stderr ? '\n' + e.stderr : ''));
} finally {
  if (page) await page.close();
  if (server) server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
finish();
