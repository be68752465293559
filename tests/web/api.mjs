// web/recognizer.js under node: errors are reported, bad operations are
// refused without changing anything, touch decisions and timeouts work.
// usage: node api.mjs WASM-DIR     (exit 77 when the module is missing)
import { Recognizer, Gesture, Edge, Op, State } from '../../web/recognizer.js';
import { loadBuiltModule, check, finish } from './harness.mjs';

const module = await loadBuiltModule(process.argv[2]);
const throws = (fn, re) => { try { fn(); return false; } catch (e) { return re.test(e.message); } };
const slices = (r) => { const out = []; for (let s; (s = r.nextSlice());) out.push(s); return out; };

const r = new Recognizer(module, { direct: true }, 1000);
check('a mask of 0 is refused', throws(() => r.subscribe({ mask: 0 }), /non-zero mask/));
check('6 touches are refused by grail', throws(() => r.subscribe({ mask: Gesture.DRAG, touches: 6 }), /invalid subscription/));
check('an unknown primitive is refused', throws(() => r.subscribe({ mask: Gesture.DRAG, timeouts: { swipe: 3 } }), /unknown primitive/));
check('a negative threshold is refused', throws(() => r.subscribe({ mask: Gesture.DRAG, thresholds: { drag: -1 } }), /invalid threshold/));
const sub = r.subscribe({ mask: Gesture.DRAG, touches: 1, timeouts: { drag: 300 } });
check('a valid subscription gets index 0 after the refused ones', sub === 0, String(sub));
check('an update of an unknown touch is refused', r.frame(1000, [{ op: Op.UPDATE, id: 9, x: 1, y: 1 }]) === 1);
check('a begin is accepted', r.frame(1010, [{ op: Op.BEGIN, id: 1, x: 100, y: 100 }]) === 0);
check('a second begin of a live id is refused', r.frame(1020, [{ op: Op.BEGIN, id: 1, x: 5, y: 5 }]) === 1);
check('nothing is recognized while the touch holds still', slices(r).length === 0);
const next = r.nextTimeout();
check("grail asks for its drag timeout (300 ms after the touch's begin)", next === 1310, String(next));
// run the timeouts up to 1399 ms as a client's timer would
// (the steps utouch-replay takes: a timeout asked for again moves on by 1 ms)
for (let t = next; t && t < 1400;) {
  r.updateTime(t);
  const n = r.nextTimeout();
  t = n && n <= t ? t + 1 : n;
}
const d = r.nextDecision();
check('the timeout rejects the touch', d && d.id === 1 && d.accepted === false, JSON.stringify(d));
check('no other decision', r.nextDecision() === null);
r.frame(1400, [{ op: Op.END, id: 1, x: 100, y: 100 }]);
check('no slices for the rejected touch', slices(r).length === 0);

// a drag: begin with the values of the C API, accepted, the touch is claimed
r.frame(2000, [{ op: Op.BEGIN, id: 2, x: 100, y: 100 }]);
for (let k = 1; k <= 10; k++) r.frame(2000 + 10 * k, [{ op: Op.UPDATE, id: 2, x: 100 + 10 * k, y: 100 }]);
const got = slices(r);
const first = got[0];
check('the drag begins', first && first.state === State.BEGIN && first.touches.join() === '2', JSON.stringify(first));
const last = got.at(-1);
check('the centre follows the touch', last && last.center.x === 200 && last.center.y === 100, JSON.stringify(last?.center));
check('velocity is 1 px/ms', last && Math.abs(last.velocity.x - 1) < 1e-5 && last.velocity.y === 0, JSON.stringify(last?.velocity));
check('accepting it succeeds', r.accept(first.id) === 0);
const claimed = r.nextDecision();
check('the touch is accepted', claimed && claimed.id === 2 && claimed.accepted, JSON.stringify(claimed));
check('accepting an unknown gesture fails', r.reject(12345) !== 0);
r.destroy();
r.destroy();
check('destroy twice is harmless', true);

// the utouch extensions, as the native recognizer has them
// edges are the ends of the device's axes: 0..1000 px at 3780 px/m
const x = new Recognizer(module, { direct: true, windowResolution: 3780, x: [0, 1000, 3780], y: [0, 800, 3780] }, 1000);
check('an unknown primitive in timeouts is refused', throws(() => x.subscribe({ mask: Gesture.HOLD, timeouts: { flick: 3 } }), /unknown primitive 'flick' in timeouts/));
check('a velocity window of 0 is refused', throws(() => x.subscribe({ mask: Gesture.DRAG, velocityWindow: 0 }), /invalid velocityWindow=0/));
check('a multi-tap maximum of 0 is refused', throws(() => x.subscribe({ mask: Gesture.TAP, multiTapMaximum: 0 }), /invalid multiTapMaximum=0/));
const hold = x.subscribe({ mask: Gesture.HOLD, touches: 1, timeouts: { hold: 200 } });
const taps = x.subscribe({ mask: Gesture.TAP, touches: 1, multiTapMaximum: 3, timeouts: { multiTap: 300 } });
const edge = x.subscribe({ mask: Gesture.EDGE_SWIPE, touches: 1, edges: Edge.LEFT | Edge.TOP });
const vel = x.subscribe({ mask: Gesture.DRAG, touches: 2, velocityWindow: 40 });
check('extension subscriptions get indices 0..3', [hold, taps, edge, vel].join() === '0,1,2,3');
// a touch held still for 200 ms: a hold, by the timeout alone
x.frame(1000, [{ op: Op.BEGIN, id: 1, x: 300, y: 300 }]);
check('no hold before its timeout', slices(x).filter((s) => s.subscription === hold).length === 0);
x.updateTime(1200);
const held = slices(x).filter((s) => s.subscription === hold && (s.recognized & Gesture.HOLD));
check('a hold recognized at 1200 ms', held.length > 0 && held[0].time === 1200, JSON.stringify(held[0]));
x.frame(1300, [{ op: Op.END, id: 1, x: 300, y: 300 }]);
slices(x);
// two quick taps at one place: tap counts 1 and 2
for (const [k, t0] of [[2, 2000], [3, 2150]]) {
  x.frame(t0, [{ op: Op.BEGIN, id: k, x: 400, y: 300 }]);
  x.frame(t0 + 50, [{ op: Op.END, id: k, x: 400, y: 300 }]);
}
x.updateTime(3000);
const counts = [...new Set(slices(x).filter((s) => s.subscription === taps && s.tapCount).map((s) => s.tapCount))];
check('a double tap counts 1 then 2', counts.join() === '1,2', counts.join());
// a fast swipe from the left edge (x = 0) inward
x.frame(4000, [{ op: Op.BEGIN, id: 4, x: 0.5, y: 300 }]);
for (let k = 1; k <= 8; k++) x.frame(4000 + 8 * k, [{ op: Op.UPDATE, id: 4, x: 0.5 + 20 * k, y: 300 }]);
const sw = slices(x).filter((s) => s.subscription === edge);
check('an edge swipe from the left', sw.length > 0 && sw.at(-1).edge === Edge.LEFT && (sw.at(-1).recognized & Gesture.EDGE_SWIPE) !== 0, JSON.stringify(sw.at(-1)));
x.frame(4100, [{ op: Op.END, id: 4, x: 160.5, y: 300 }]);
slices(x);
// two touches that speed up: the 40 ms window sees the last speed only
x.frame(5000, [{ op: Op.BEGIN, id: 5, x: 100, y: 100 }, { op: Op.BEGIN, id: 6, x: 200, y: 100 }]);
for (let k = 1; k <= 20; k++) {
  const px = k <= 10 ? k : 10 + 4 * (k - 10); // 1 px/ms, then 4 px/ms
  x.frame(5000 + 10 * k, [{ op: Op.UPDATE, id: 5, x: 100 + 10 * px, y: 100 }, { op: Op.UPDATE, id: 6, x: 200 + 10 * px, y: 100 }]);
}
const v = slices(x).filter((s) => s.subscription === vel).at(-1);
check('the windowed velocity is the last 4 px/ms', v && Math.abs(v.velocity.x - 4) < 1e-3, JSON.stringify(v?.velocity));
x.destroy();
finish();
