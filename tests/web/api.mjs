// web/recognizer.js under node: errors are reported, bad operations are
// refused without changing anything, touch decisions and timeouts work.
// usage: node api.mjs WASM-DIR     (exit 77 when the module is missing)
import { Recognizer, Gesture, Op, State } from '../../web/recognizer.js';
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
check('velocity is 1 px/ms', last && Math.abs(last.velocity.x - 1) < 1e-9 && last.velocity.y === 0, JSON.stringify(last?.velocity));
check('accepting it succeeds', r.accept(first.id) === 0);
const claimed = r.nextDecision();
check('the touch is accepted', claimed && claimed.id === 2 && claimed.accepted, JSON.stringify(claimed));
check('accepting an unknown gesture fails', r.reject(12345) !== 0);
r.destroy();
r.destroy();
check('destroy twice is harmless', true);
finish();
