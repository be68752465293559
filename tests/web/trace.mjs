// The WebAssembly recognizer against the native one: every recording given
// is replayed by utouch-replay with a matrix of subscriptions and policies;
// the frame operations it prints (--frames) are fed through web/recognizer.js
// (frame producer API -> grail, compiled to WASM), which prints the trace in
// the same format; both traces must match within float noise.
//
// usage: node trace.mjs [--straddling] [--crowd] UTOUCH-REPLAY WASM-DIR RECORDING...
//
// --crowd: for a recording of many fingers (storm-10, a trace of hundreds
// of thousands of lines per replay), each subscription set runs twice
// only: with one policy (in turn over the sets) in the default framing and
// with the X11 framing, instead of the full matrix of runsFor().
//
// --straddling: for recordings with a row of three or more fingers, one on
// the centroid.  That finger's angle is atan2 of rounding noise, and the
// noise differs between glibc's libm (native) and musl's (emscripten), so
// the 2x2 part of T and the rotate bit of rec= are not compared; centres,
// radii, touch sets, the other primitives, timing and counts still are
// (the same rule as difftest.py's trace-straddling, doc/web.md).
// Exit 0 on success, 1 on a difference, 77 when the module is missing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadModule, Recognizer, maskString, edgeString } from '../../web/recognizer.js';
import { axes, framesOf } from './frames.mjs';

const argv = process.argv.slice(2);
const straddling = argv[0] === '--straddling';
if (straddling) argv.shift();
const crowd = argv[0] === '--crowd';
if (crowd) argv.shift();
const [replay, wasmDir, ...recs] = argv;
const wasmFile = path.join(wasmDir, 'utouch-wasm.wasm');
if (!fs.existsSync(wasmFile)) {
  console.log(`SKIP: ${wasmFile} was not built (emscripten missing)`);
  process.exit(77);
}
const module = await loadModule({ wasmBinary: fs.readFileSync(wasmFile) },
  pathToFileURL(path.join(wasmDir, 'utouch-wasm.mjs')).href);

// the subscription sets of tests/replay/difftest.py, as utouch-replay options
// and as web subscriptions
const SUBSETS = [
  'mask=drag', 'mask=pinch', 'mask=rotate', 'mask=tap', 'mask=touch',
  'mask=drag,start=1,min=1', 'mask=tap,start=1,min=1', 'mask=drag+pinch+rotate,touches=2',
  'mask=all,start=1,max=5', 'mask=drag,touches=3;mask=drag,touches=4',
  'mask=drag,touches=1;mask=drag,touches=2',
  'mask=drag,start=3,min=3,max=5,drag-threshold=0',
  'mask=drag,touches=2,drag-threshold=0.0265,drag-timeout=500',
  'mask=pinch,touches=2;mask=rotate,touches=2',
  // one per class with the same touches (candidates that share their geometry)
  'mask=drag,touches=4;mask=pinch,touches=4;mask=rotate,touches=4;mask=tap,touches=4',
  'mask=touch,touches=2,atomic=1;mask=touch,touches=3,atomic=1;mask=touch,touches=4,atomic=1',
  'mask=drag,touches=3,atomic=1;mask=touch,touches=3,atomic=1;mask=pinch,touches=3,atomic=1',
  'mask=tap,touches=2,atomic=1', 'mask=drag+tap,start=1,max=5,atomic=1',
  // atomic gestures that grow (an accepted one takes a new touch)
  'mask=touch,start=2,max=5,atomic=1',
  // the utouch extensions: hold, multi-tap, edge swipes, the velocity window
  'mask=hold+drag,start=1,max=3,hold-timeout=400,hold-threshold=0.004',
  'mask=tap,start=1,min=1,multitap-max=2,multitap-timeout=500,multitap-threshold=0.02',
  'mask=edge+drag,start=1,max=3,edges=left+top,edge-margin=0.01,edge-velocity=0.02',
  'mask=drag,start=1,max=5,velocity-window=60;mask=hold,touches=2',
];
const POLICIES = ['accept', 'accept-cf', 'reject', 'none'];
const BITS = { drag: 1, pinch: 2, rotate: 4, tap: 8, touch: 16, all: 31, hold: 32, edge: 64 };
const EDGES = { left: 1, right: 2, top: 4, bottom: 8, all: 15 };
// utouch-replay's keys of the extensions -> Subscription options
const EXT = { 'multitap-max': 'multiTapMaximum', 'edge-margin': 'edgeMargin',
  'edge-velocity': 'edgeVelocity', 'velocity-window': 'velocityWindow' };
const PRIM = { multitap: 'multiTap' };

function parseSub(spec) {
  const s = { mask: 0, timeouts: {}, thresholds: {} };
  for (const item of spec.split(',')) {
    const [k, v] = item.split('=');
    if (k === 'mask') s.mask = v.split('+').reduce((m, n) => m | BITS[n], 0);
    else if (k === 'atomic') s.atomic = v === '1';
    else if (k === 'edges') s.edges = v.split('+').reduce((m, n) => m | EDGES[n], 0);
    else if (EXT[k]) s[EXT[k]] = Number(v);
    else if (k.endsWith('-timeout')) s.timeouts[PRIM[k.split('-')[0]] || k.split('-')[0]] = Number(v);
    else if (k.endsWith('-threshold')) s.thresholds[PRIM[k.split('-')[0]] || k.split('-')[0]] = Number(v);
    else s[k] = Number(v);
  }
  return s;
}

const BASE = 1000; // like UT_SCRIPT_TIME_BASE_MS: times never start at 0
// printf's "%.Nf": negative zero keeps its sign ("-0.000"), which toFixed
// drops; matching it keeps most lines byte-equal, so that close() below
// rarely has to compare number by number
const fixed = (v, n) => (Object.is(v, -0) ? '-' : '') + v.toFixed(n);
const f3 = (v) => fixed(v, 3), f4 = (v) => fixed(v, 4), f5 = (v) => fixed(v, 5);

// The trace of the WASM recognizer, each line given to @emit as it is made
// (a crowd's trace has hundreds of thousands of lines: kept, they would
// make the garbage collector the test's largest cost).
function webTrace(device, ax, subs, policy, frames, lastTime, emit) {
  const r = new Recognizer(module, { ...device, x: ax.x, y: ax.y }, BASE);
  const specs = subs.map(parseSub);
  specs.forEach((s) => r.subscribe(s));
  const decided = new Set();
  let events = 0, failures = 0;
  const drain = () => {
    for (let s; (s = r.nextSlice());) {
      events++;
      const C = s.transform;
      const st = ['begin', 'update', 'end'][s.state];
      emit(`t=${s.time - BASE} g=${s.id} sub=${s.subscription} ${st} n=${s.touches.length} ` +
        `touches=${s.touches.join(',') || '-'} rec=${maskString(s.recognized)} ` +
        `cf=${s.constructionFinished ? 1 : 0} oc=${f3(s.originalCenter.x)},${f3(s.originalCenter.y)} ` +
        `c=${f3(s.center.x)},${f3(s.center.y)} r0=${f3(s.originalRadius)} r=${f3(s.radius)} ` +
        `T=[${f5(C[0])} ${f5(C[1])} ${f3(C[2])}; ${f5(C[3])} ${f5(C[4])} ${f3(C[5])}]` +
        ` v=${f4(s.velocity.x)},${f4(s.velocity.y)}` +
        (s.tapCount ? ` taps=${s.tapCount}` : '') + (s.edge ? ` edge=${edgeString(s.edge)}` : '') +
        (s.canceled ? ' canceled=1' : ''));
      const atomic = s.subscription >= 0 && specs[s.subscription].atomic;
      if (!atomic && !decided.has(s.id) && policy !== 'none' && !s.canceled) {
        let status = 0;
        if (policy === 'accept') { status = r.accept(s.id); decided.add(s.id); }
        else if (policy === 'reject') { status = r.reject(s.id); decided.add(s.id); }
        else if (s.constructionFinished) { status = r.accept(s.id); decided.add(s.id); }
        if (status) failures++;
      }
    }
  };
  // timeouts up to time t, in the steps utouch-replay takes
  const advance = (t) => {
    let next = r.nextTimeout(), at = next;
    while (next && at <= t) {
      r.updateTime(at);
      drain();
      next = r.nextTimeout();
      if (!next) break;
      at = next <= at ? at + 1 : next;
    }
  };
  for (const f of frames) {
    advance(f.t + BASE);
    r.frame(f.t + BASE, f.ops);
    drain();
  }
  advance(lastTime + BASE + 10000);
  drain();
  r.destroy();
  emit(`# events=${events} accept/reject failures=${failures}`);
}

// Whether two trace lines are equal but for float noise: the same text
// between numbers (-?\d+ or -?\d+\.\d+), the same count of numbers, and
// numbers within 2e-3 (plus 1e-5 relative).  Walks both lines in place; only
// numbers that differ are parsed.
const isDigit = (c) => c >= 48 && c <= 57;
const numberAt = (s, i) => isDigit(s.charCodeAt(i)) ||
  (s.charCodeAt(i) === 45 && isDigit(s.charCodeAt(i + 1)));
function numberEnd(s, i) {
  if (s.charCodeAt(i) === 45) i++;
  while (isDigit(s.charCodeAt(i))) i++;
  if (s.charCodeAt(i) === 46 && isDigit(s.charCodeAt(i + 1))) {
    i++;
    while (isDigit(s.charCodeAt(i))) i++;
  }
  return i;
}
function close(a, b) {
  if (a === b) return true;
  let i = 0, j = 0;
  while (i < a.length || j < b.length) {
    const na = numberAt(a, i), nb = numberAt(b, j);
    if (na !== nb) return false;
    if (!na) { // text up to the next number: the same in both
      if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
      i++; j++;
      continue;
    }
    const ea = numberEnd(a, i), eb = numberEnd(b, j);
    let same = ea - i === eb - j;
    for (let k = 0; same && k < ea - i; k++) same = a.charCodeAt(i + k) === b.charCodeAt(j + k);
    if (!same) {
      const p = Number(a.slice(i, ea)), q = Number(b.slice(j, eb));
      if (!(Math.abs(p - q) <= 2e-3 + 1e-5 * Math.max(Math.abs(p), Math.abs(q)))) return false;
    }
    i = ea; j = eb;
  }
  return true;
}

const TRANSFORM = /T=\[(\S+) (\S+) (\S+); (\S+) (\S+) (\S+)\]/;
function withoutRotation(line) {
  return line.replace(TRANSFORM, (_, a, b, tx, c, d, ty) => `T=[* * ${tx}; * * ${ty}]`)
    .replace(/rec=(\S+)/, (_, m) => 'rec=' + (m.split('+').filter((p) => p !== 'rotate').join('+') || 'none'));
}

// The replays per recording: every subscription set with two of the four
// policies in the default framing (one frame per report, ownership in a
// frame of its own), in turn over the sets, so that each policy meets half
// of them there; and with the other framings of utouch-replay, each with a
// policy that rotates over the sets: --x11 (split, slots in reverse, as the
// X server delivers touches), --split alone, --own begin (touches owned
// from their begin), --begin-first --reverse, and a window resolution
// (thresholds in metres for direct devices).
function runsFor(k) {
  if (crowd) return [[POLICIES[k % 4], []], [POLICIES[(k + 1) % 4], ['--x11']]];
  const runs = [[POLICIES[k % 4], []], [POLICIES[(k + 2) % 4], []]];
  runs.push([POLICIES[k % 4], ['--x11']]);
  runs.push([POLICIES[(k + 1) % 4], ['--split']]);
  if (k % 2 === 0) runs.push([POLICIES[(k + 2) % 4], ['--own', 'begin']]);
  if (k % 2 === 1) runs.push([POLICIES[(k + 3) % 4], ['--begin-first', '--reverse']]);
  if (k % 3 === 0) runs.push([POLICIES[(k / 3) % 4], ['--window-res', '3780']]);
  return runs;
}

// The replays of one subscription set run from one utouch-replay --batch:
// each forks from it instead of starting anew, and node spawns one process
// per set instead of one per replay (a fork of a large process).  Each
// replay's output ends with "# batch line=N status=S".
const BATCH_END = /^# batch line=(\d+) status=(\d+)$/;
const quote = (a) => `'${a.replace(/'/g, `'"'"'`)}'`;
function replayAll(argsList) {
  const input = argsList.map((args) => args.map(quote).join(' ') + '\n').join('');
  let out;
  try {
    out = execFileSync(replay, ['--batch', '-'], { input, encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (e) {
    out = e.stdout ?? ''; // a replay failed: its status says which
  }
  const runs = [];
  let lines = [];
  for (const line of out.split('\n')) {
    const m = BATCH_END.exec(line);
    if (m) {
      runs.push({ status: Number(m[2]), lines });
      lines = [];
    } else if (line) {
      lines.push(line);
    }
  }
  return runs;
}

let ok = 0, n = 0;
for (const rec of recs) {
  const ax = axes(rec);
  SUBSETS.forEach((set, k) => {
    const subs = set.split(';');
    const runs = runsFor(k).map(([policy, framing]) => ({ policy, framing,
      args: ['--frames', '--extended', '--policy', policy, ...framing, ...subs.flatMap((s) => ['-s', s]), rec] }));
    const outputs = replayAll(runs.map((r) => r.args));
    runs.forEach(({ policy, framing, args }, i) => {
      const { status, lines } = outputs[i] ?? { status: -1, lines: [] };
      n++;
      if (status !== 0) {
        console.log(`DIFFERENCE: utouch-replay ${args.join(' ')}: exit status ${status}`);
        return;
      }
      const header = lines[0];
      const direct = / direct=1 /.test(header);
      const ownAtBegin = / own=begin$/.test(header);
      const wres = framing[0] === '--window-res' ? Number(framing[1]) : 0;
      const frames = framesOf(lines);
      const want = Number((/ frames=(\d+) /.exec(header) || [])[1]);
      if (frames.length !== want) {
        console.log(`DIFFERENCE: utouch-replay ${args.join(' ')}: ${frames.length} frames recovered, the header says ${want}`);
        return;
      }
      const lastTime = frames.length ? frames.at(-1).t : 0;
      const native = lines.filter((l) => !l.startsWith('# file=') && !l.startsWith('# frame '));
      const same = straddling ? (x, y) => close(withoutRotation(x), withoutRotation(y)) : close;
      // the WASM trace, compared line by line as it is made; the first six
      // lines that differ are kept to be shown
      const diffs = [];
      let nweb = 0;
      webTrace({ direct, ownAtBegin, windowResolution: wres }, ax, subs, policy, frames, lastTime,
        (line) => {
          const j = nweb++;
          if (diffs.length < 6 && (j >= native.length || !same(native[j], line)))
            diffs.push([native[j], line]);
        });
      for (let j = nweb; j < native.length && diffs.length < 6; j++) diffs.push([native[j], undefined]);
      if (diffs.length === 0) { ok++; return; }
      console.log(`DIFFERENCE: utouch-replay ${args.join(' ')}`);
      for (const [x, y] of diffs)
        console.log(`  native: ${x ?? '(none)'}\n  wasm:   ${y ?? '(none)'}`);
    });
  });
}
console.log(`web trace: ${ok} of ${n} comparisons equal`);
process.exit(ok === n && n > 0 ? 0 : 1);
