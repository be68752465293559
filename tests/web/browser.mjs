// The JavaScript API and the demo in headless Chromium, with real touch
// input (CDP Input.dispatchTouchEvent).
// usage: node browser.mjs WASM-DIR OUTPUT-DIR
// Exit 0 on success, 1 on a failure, 77 when chromium or the module is missing.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { launch, serve } from './cdp.mjs';

const [wasmDir, outDir] = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => fs.existsSync(p));
if (!chromium) { console.log('SKIP: chromium is not installed'); process.exit(77); }
if (!fs.existsSync(path.join(wasmDir, 'utouch-wasm.wasm'))) {
  console.log(`SKIP: ${wasmDir}/utouch-wasm.wasm was not built (emscripten missing)`);
  process.exit(77);
}
fs.mkdirSync(outDir, { recursive: true });

let failures = 0;
function check(what, ok, detail = '') {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}${detail ? ' — ' + detail : ''}`);
  if (!ok) failures++;
}
const near = (a, b, tol) => Math.abs(a - b) <= tol;

// photo matrix "matrix(a, b, c, d, e, f)" -> numbers
const matrix = (s) => s.match(/-?[\d.e+-]+/g).map(Number);

// Move fingers from @p from to @p to in @p steps (one touchMove per step, all fingers).
async function gesture(page, from, to, steps = 12, firstId = 1) {
  const pts = (k) => from.map((p, i) => ({ id: i + firstId, x: p[0] + (to[i][0] - p[0]) * k / steps,
    y: p[1] + (to[i][1] - p[1]) * k / steps }));
  await page.touch('touchStart', pts(0));
  for (let k = 1; k <= steps; k++) {
    await page.touch('touchMove', pts(k));
  }
  await page.touch('touchEnd', []);
}

// Press the left button at @p from, move to @p to in @p steps, release.
async function mouseDrag(page, from, to, steps = 8) {
  const at = (k) => ({ x: from[0] + (to[0] - from[0]) * k / steps, y: from[1] + (to[1] - from[1]) * k / steps });
  await page.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at(0), button: 'left', buttons: 1, clickCount: 1 });
  await page.frames();
  for (let k = 1; k <= steps; k++) {
    await page.send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at(k), button: 'left', buttons: 1 });
    await page.frames();
  }
  await page.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at(steps), button: 'left', buttons: 0, clickCount: 1 });
  await page.frames();
}

// The pixels of a PNG (8-bit RGB or RGBA, not interlaced) as {w, h, px(x, y)}.
function decodePng(buf) {
  let off = 8, w = 0, h = 0, ch = 0;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0); h = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0 || ![2, 6].includes(data[9])) throw new Error('unsupported PNG');
      ch = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * ch;
  const out = Buffer.alloc(h * stride);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= ch ? out[y * stride + i - ch] : 0, b = y ? out[(y - 1) * stride + i] : 0;
      const c = i >= ch && y ? out[(y - 1) * stride + i - ch] : 0;
      let v = line[i];
      if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
      else if (f === 4) { const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
      out[y * stride + i] = v & 255;
    }
  }
  return { w, h, px: (x, y) => Array.from(out.subarray(y * stride + x * ch, y * stride + x * ch + 3)) };
}

const { server, base } = await serve({ '/web/build/': path.resolve(wasmDir), '/': root });
const page = await launch(chromium);
try {

  // --- touches passed below: a rejected gesture, and a touch the timeout decides
  await page.send('Page.navigate', { url: `${base}/tests/web/below.html` });
  await page.waitFor('window.pageReady === true');
  await page.frames();
  await gesture(page, [[100, 100], [200, 100]], [[100, 160], [200, 160]], 6, 31);
  let below = await page.eval('window.below');
  const slices = await page.eval('window.slices');
  check('a rejected two-finger drag began', slices.some((e) => e[0] === 'begin2'), JSON.stringify(slices));
  const downs = below.filter((e) => e[0] === 'down').length;
  check("the rejected gesture's touches reach the listener below (down, moves, up)",
    downs === 2 && below.filter((e) => e[0] === 'up').length === 2 && below.some((e) => e[0] === 'move'),
    JSON.stringify(below));
  await page.eval('window.below.length = 0, window.slices.length = 0');
  await page.touch('touchStart', [{ id: 21, x: 300, y: 300 }]);
  below = await page.eval('window.below');
  check('a held touch is not passed on at once', below.length === 0, JSON.stringify(below));
  await page.waitFor('window.below.length > 0', 3000).catch(() => {});
  below = await page.eval('window.below');
  check('the drag timeout decides the held touch: it reaches the listener below',
    below.length === 1 && below[0][0] === 'down', JSON.stringify(below));
  await page.touch('touchEnd', []);
  below = await page.eval('window.below');
  check('its up follows', below.some((e) => e[0] === 'up'), JSON.stringify(below));
  // --- touch-action, mouse emulation off, coalesced samples
  check("touch-action: the area's computed style is 'none'",
    (await page.eval("getComputedStyle(document.getElementById('area')).touchAction")) === 'none');
  await page.eval('window.seen.length = 0, window.ops.length = 0, window.slices.length = 0');
  await mouseDrag(page, [100, 100], [160, 140]);
  const seen = await page.eval('window.seen');
  check('mouse off: the area sees the mouse drag', seen.length >= 3 && seen.every((e) => e[1] === 'mouse'),
    JSON.stringify(seen));
  check('mouse off: the recognizer gets nothing, no gesture', (await page.eval('window.ops.length')) === 0 &&
    (await page.eval('window.slices.length')) === 0, await page.eval('JSON.stringify([window.ops, window.slices])'));
  // touch moves sent faster than the page draws: Chromium delivers them
  // as fewer pointermoves with getCoalescedEvents(); each sample must reach
  // the recognizer
  await page.eval('window.seen.length = 0, window.ops.length = 0');
  await page.touch('touchStart', [{ id: 41, x: 100, y: 200 }]);
  await Promise.all(Array.from({ length: 20 }, (_, k) =>
    page.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ id: 41, x: 105 + 5 * k, y: 200 }] })));
  await page.frames();
  await page.touch('touchEnd', []);
  const moves = (await page.eval('window.seen')).filter((e) => e[0] === 'pointermove');
  const samples = moves.reduce((n, e) => n + e[2], 0);
  check('coalesced: Chromium coalesced the touch moves', moves.length < 20 && moves.some((e) => e[2] > 1) &&
    samples === 20, JSON.stringify(moves));
  const opsSeen = await page.eval('window.ops');
  const xs = opsSeen.filter((o) => o[0] === 1).map((o) => o[1]);
  check('coalesced: the recognizer gets every sample, in order',
    xs.join() === Array.from({ length: 20 }, (_, k) => 105 + 5 * k).join(), xs.join());

  // --- the demo: photo on the stage at x 620..1020
  await page.openPage();
  await page.send('Page.navigate', { url: `${base}/web/demo.html` });
  await page.waitFor('window.demoReady === true');
  const sx = 620;
  let m0 = matrix(await page.eval('window.photoState()'));
  // two-finger drag by (+60, +40)
  await gesture(page, [[sx + 150, 150], [sx + 230, 150]], [[sx + 210, 190], [sx + 290, 190]]);
  let m = matrix(await page.eval('window.photoState()'));
  check('two-finger drag moves the photo by (60, 40)', near(m[4] - m0[4], 60, 3) && near(m[5] - m0[5], 40, 3) &&
    near(m[0], 1, 0.02), `matrix ${m.map((v) => v.toFixed(3)).join(' ')}`);
  // mouse emulation on (the stage has mouse: true): a mouse drag is a one-finger drag
  for (const id of ['game', 'stage']) {
    check(`touch-action: the demo's #${id} computes to 'none'`,
      (await page.eval(`getComputedStyle(document.getElementById('${id}')).touchAction`)) === 'none');
  }
  m0 = m;
  await mouseDrag(page, [sx + 200, 300], [sx + 260, 340]);
  m = matrix(await page.eval('window.photoState()'));
  check('mouse on: a mouse drag moves the photo by (60, 40)', near(m[4] - m0[4], 60, 3) && near(m[5] - m0[5], 40, 3) &&
    near(m[0], m0[0], 0.02), `matrix ${m.map((v) => v.toFixed(3)).join(' ')}`);
  // pinch: fingers 100 px apart spread to 200 px around the same centre
  m0 = m;
  await gesture(page, [[sx + 150, 200], [sx + 250, 200]], [[sx + 100, 200], [sx + 300, 200]]);
  m = matrix(await page.eval('window.photoState()'));
  const s = Math.hypot(m[0], m[1]) / Math.hypot(m0[0], m0[1]);
  check('pinch scales the photo by 2', near(s, 2, 0.08), `scale ${s.toFixed(3)}`);
  // rotate: fingers 120 px apart turn 90 degrees clockwise on the screen
  m0 = m;
  const c = [sx + 200, 200], r = 60;
  const at = (deg, k) => [c[0] + k * r * Math.cos(deg * Math.PI / 180), c[1] + k * r * Math.sin(deg * Math.PI / 180)];
  await page.touch('touchStart', [{ id: 1, x: at(0, 1)[0], y: at(0, 1)[1] }, { id: 2, x: at(0, -1)[0], y: at(0, -1)[1] }]);
  for (let k = 1; k <= 18; k++) {
    const a = k * 5;
    await page.touch('touchMove', [{ id: 1, x: at(a, 1)[0], y: at(a, 1)[1] }, { id: 2, x: at(a, -1)[0], y: at(a, -1)[1] }]);
  }
  await page.touch('touchEnd', []);
  m = matrix(await page.eval('window.photoState()'));
  const turn = (Math.atan2(m[1], m[0]) - Math.atan2(m0[1], m0[0])) * 180 / Math.PI;
  check('rotate turns the photo by 90 degrees clockwise', near(((turn + 540) % 360) - 180, 90, 4), `turn ${turn.toFixed(1)}°`);

  // --- the bug game: four fingers A, B, C, D land together, A and B on
  // bug 0, C and D on bug 1, and each hand pinches in.  grail recognizes
  // four pinches, AB, CD and the pairs across the hands AD and BC (AC and BD
  // keep their distance); when their construction is finished the game
  // accepts AB and CD, which ends AD and BC (canceled by grail).
  const logStart = await page.eval('window.gameLog.length');
  const X = { A: 70, B: 170, C: 370, D: 470 };
  const fingers = (d) => [{ id: 11, x: X.A + d, y: 120 }, { id: 12, x: X.B - d, y: 120 },
    { id: 13, x: X.C + d, y: 120 }, { id: 14, x: X.D - d, y: 120 }];
  await page.touch('touchStart', fingers(0));
  // quickly at first (grail recognizes a pinch only within its 300 ms
  // timeout, and AD's distance changes by the smallest ratio) ...
  for (let k = 1; k <= 4; k++) await page.touch('touchMove', fingers(k * 7.5));
  // ... then slowly, until the game has decided
  let d = 30;
  const decidedBy = Date.now() + 3000;
  while ((await page.eval('window.gameLog.filter(e => e.type === "accept").length')) < 2 && Date.now() < decidedBy) {
    if (d < 40) await page.touch('touchMove', fingers(++d)); else await page.frames();
  }
  for (let k = 0; k < 3; k++) await page.touch('touchMove', fingers(++d));
  await page.touch('touchEnd', []);
  await page.frames();
  const log = (await page.eval('window.gameLog')).slice(logStart);
  // name a gesture's touches by where they went down: "AB", "AD", ...
  const name = (e) => e.downs.map((p) => Object.keys(X).find((k) => p && Math.abs(p.x - X[k]) < 2) || '?')
    .sort().join('');
  const of = (type) => log.filter((e) => e.type === type);
  const byName = (type) => of(type).map(name).sort().join(' ');
  check('the bug game: four fingers give the four pinches AB, CD, AD, BC', byName('begin') === 'AB AD BC CD',
    byName('begin'));
  check('the game accepts AB on bug 0 and CD on bug 1', byName('accept') === 'AB CD' &&
    of('accept').map((e) => `${name(e)}:${e.bug}`).sort().join() === 'AB:0,CD:1', JSON.stringify(of('accept')));
  const ends = Object.fromEntries(of('end').map((e) => [name(e), e]));
  check('accepting AB and CD ends AD and BC (canceled)', ends.AD?.canceled === true && ends.BC?.canceled === true &&
    of('end').length === 4, JSON.stringify(of('end')));
  check('AB and CD end normally, pinched below 0.6', ['AB', 'CD'].every((k) => ends[k] && !ends[k].canceled &&
    ends[k].scale < 0.6), JSON.stringify([ends.AB, ends.CD]));
  // AD and BC end when the game accepts (after the accepts, while the
  // fingers are still down), AB and CD when the fingers lift
  const firstAccept = log.findIndex((e) => e.type === 'accept');
  check('AD and BC end after the accepts, before AB and CD', firstAccept >= 0 &&
    ['AD', 'BC'].every((k) => ends[k] && log.indexOf(ends[k]) > firstAccept &&
      log.indexOf(ends[k]) < Math.min(log.indexOf(ends.AB), log.indexOf(ends.CD))),
    log.map((e) => e.type + name(e)).join(' '));
  const squashed = await page.eval('window.bugs.map(b => b.squashed).join()');
  check('bugs 0 and 1 are squashed, 2 and 3 are not', squashed === 'true,true,false,false', squashed);

  // screenshot of the demo: the squashed bugs are drawn red and flat, the
  // others green; the photo shows its gradient on the dark stage
  const shot = await page.send('Page.captureScreenshot', { format: 'png' });
  const png = Buffer.from(shot.data, 'base64');
  fs.writeFileSync(path.join(outDir, 'demo.png'), png);
  const img = decodePng(png);
  const isRed = (p) => p[0] > 130 && p[1] < 90 && p[2] < 90;
  const isGreen = (p) => p[1] > 120 && p[0] < 90 && p[2] < 140;
  check('screenshot: bugs 0 and 1 are squashed (red)', isRed(img.px(120, 120)) && isRed(img.px(420, 120)),
    `${img.px(120, 120)} ${img.px(420, 120)}`);
  check('screenshot: bugs 2 and 3 are alive (green)', isGreen(img.px(120, 290)) && isGreen(img.px(420, 290)),
    `${img.px(120, 290)} ${img.px(420, 290)}`);
  check('screenshot: above a squashed bug is white', img.px(120, 85).every((v) => v > 240), `${img.px(120, 85)}`);

} catch (e) {
  console.log(`FAIL: ${e.stack}\n${page.logs.join('\n')}`);
  failures++;
} finally {
  await page.close();
  server.close();
}
console.log(failures ? `${failures} checks failed` : 'all checks passed');
process.exit(failures ? 1 : 0);
