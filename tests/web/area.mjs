// web/utouch.js (GestureArea, the Pointer Events layer) under node, with a
// stand-in element and hand-made pointer events: the touch-action it sets,
// mouse emulation on and off, and every sample of getCoalescedEvents()
// reaching the recognizer.  The browser test (browser.mjs) checks the same
// points in Chromium with real input; here the samples are exact.  The
// element's box is the device's axes: a swipe in from its left edge is an
// edge swipe, a swipe starting inside it is not.
// usage: node area.mjs WASM-DIR     (exit 77 when the module is missing)
import { Gesture, Edge, State } from '../../web/recognizer.js';
import { GestureArea } from '../../web/utouch.js';
import { loadBuiltModule, check, finish } from './harness.mjs';

const module = await loadBuiltModule(process.argv[2]);

// An element at (10, 20) of the viewport: what GestureArea uses of one.
class FakeElement extends EventTarget {
  constructor() { super(); this.style = {}; this.captured = new Set(); }
  getBoundingClientRect() { return { left: 10, top: 20, width: 400, height: 300 }; }
  setPointerCapture(id) { this.captured.add(id); }
  contains(el) { return el === this; }
}

// A pointer event as a browser makes one: an Event with the PointerEvent
// fields GestureArea reads; @p coalesced, when given, are its
// getCoalescedEvents() samples.
function pointer(type, pointerType, pointerId, x, y, timeStamp, coalesced) {
  const e = new Event(type, { cancelable: true });
  const s = { pointerType, pointerId, clientX: x, clientY: y };
  Object.defineProperty(e, 'timeStamp', { value: timeStamp });
  Object.assign(e, s);
  if (coalesced) {
    e.getCoalescedEvents = () => coalesced.map(([cx, cy, ct]) =>
      ({ type, ...s, clientX: cx, clientY: cy, timeStamp: ct }));
  }
  return e;
}

// An area with a one-finger drag that accepts at its begin; records every
// frame the recognizer gets and every slice.
function area(options) {
  const el = new FakeElement();
  const a = new GestureArea(module, el, options);
  const frames = [], slices = [];
  const frame = a.recognizer.frame.bind(a.recognizer);
  a.recognizer.frame = (time, ops) => { frames.push({ time, ops: ops.map((o) => ({ ...o })) }); return frame(time, ops); };
  a.subscribe({ mask: Gesture.DRAG, touches: 1 }, {
    begin(g) { slices.push(g); g.accept(); },
    update(g) { slices.push(g); },
    end(g) { slices.push(g); },
  });
  return { el, a, frames, slices };
}

// --- touch-action
{
  const { el, a } = area();
  check("touch-action: 'none' by default", el.style.touchAction === 'none', el.style.touchAction);
  a.destroy();
  const b = area({ touchAction: 'pan-y' });
  check("touch-action: the option's value", b.el.style.touchAction === 'pan-y', b.el.style.touchAction);
  b.a.destroy();
}

// --- mouse emulation: a mouse drag from (110, 120) to (170, 160)
function mouseDrag(el) {
  el.dispatchEvent(pointer('pointerdown', 'mouse', 1, 110, 120, 100));
  for (let k = 1; k <= 6; k++) el.dispatchEvent(pointer('pointermove', 'mouse', 1, 110 + 10 * k, 120 + 40 * k / 6, 100 + 16 * k));
  el.dispatchEvent(pointer('pointerup', 'mouse', 1, 170, 160, 220));
}
{
  const off = area();
  mouseDrag(off.el);
  check('mouse off: a mouse drag gives the recognizer nothing', off.frames.length === 0 && off.slices.length === 0,
    `${off.frames.length} frames, ${off.slices.length} slices`);
  check('mouse off: the mouse is not captured', off.el.captured.size === 0);
  off.a.destroy();

  const on = area({ mouse: true });
  mouseDrag(on.el);
  const kinds = on.frames.map((f) => f.ops.map((o) => o.op).join()).join(' ');
  check('mouse on: one touch per button press (begin, 6 updates, end)', kinds === '0 1 1 1 1 1 1 2', kinds);
  check('mouse on: element coordinates', on.frames[0].ops[0].x === 100 && on.frames[0].ops[0].y === 100,
    JSON.stringify(on.frames[0].ops[0]));
  const states = on.slices.map((s) => s.state);
  const last = on.slices.at(-1);
  check('mouse on: the drag is a gesture that begins, updates and ends',
    states[0] === State.BEGIN && states.includes(State.UPDATE) && last?.state === State.END, states.join());
  check('mouse on: it moved the centre by (60, 40)', last && Math.abs(last.center.x - 160) < 1e-3 &&
    Math.abs(last.center.y - 140) < 1e-3 && last.pointerIds.join() === '1',
    last && `${last.center.x},${last.center.y} ${last.pointerIds}`);
  on.a.destroy();
}

// --- getCoalescedEvents(): one pointermove carrying four samples
function coalescedDrag(options) {
  const t = area(options);
  t.el.dispatchEvent(pointer('pointerdown', 'touch', 7, 60, 70, 500));
  t.el.dispatchEvent(pointer('pointermove', 'touch', 7, 100, 70, 532,
    [[70, 70, 505], [80, 70, 513], [90, 70, 521], [100, 70, 532]]));
  t.el.dispatchEvent(pointer('pointerup', 'touch', 7, 100, 70, 540));
  return t;
}
{
  const c = coalescedDrag();
  const moves = c.frames.filter((f) => f.ops[0].op === 1);
  check('coalesced: every sample is a frame of its own',
    moves.map((f) => `${f.ops[0].x}@${f.time - 1000}`).join() === '60@505,70@513,80@521,90@532',
    moves.map((f) => `${f.ops[0].x}@${f.time - 1000}`).join());
  // the update slices' centres, repeats dropped (the construction-finished
  // copy and the lift repeat a position): one position per sample
  const xs = c.slices.filter((s) => s.state === State.UPDATE).map((s) => s.center.x)
    .filter((x, i, all) => i === 0 || x !== all[i - 1]);
  check('coalesced: grail sees every sample (its slices pass through each)',
    xs.join() === '60,70,80,90', xs.join());
  c.a.destroy();

  const one = coalescedDrag({ coalesced: false });
  const m1 = one.frames.filter((f) => f.ops[0].op === 1);
  check('coalesced: false takes the event only', m1.length === 1 && m1[0].ops[0].x === 90 && m1[0].time === 1532,
    JSON.stringify(m1));
  one.a.destroy();
}

// --- edge swipes start at the element's edges (its box when attached)
function swipeFrom(x0) {
  const el = new FakeElement();
  const a = new GestureArea(module, el);
  const edges = [];
  a.subscribe({ mask: Gesture.EDGE_SWIPE, touches: 1 }, {
    update(g) { if (g.edge) edges.push(g.edge); },
    end(g) { if (g.edge) edges.push(g.edge); },
  });
  // element x = x0 - 10 (the box starts at 10), fast to the right
  el.dispatchEvent(pointer('pointerdown', 'touch', 3, x0, 150, 1000));
  for (let k = 1; k <= 8; k++) el.dispatchEvent(pointer('pointermove', 'touch', 3, x0 + 20 * k, 150, 1000 + 8 * k));
  el.dispatchEvent(pointer('pointerup', 'touch', 3, x0 + 160, 150, 1080));
  a.destroy();
  return edges;
}
{
  const left = swipeFrom(10.5);
  check("edge: a fast swipe in from the element's left edge is an edge swipe from the left",
    left.length > 0 && left.every((e) => e === Edge.LEFT), left.join());
  const inside = swipeFrom(110);
  check('edge: the same swipe 100 px inside the element is none', inside.length === 0, inside.join());
}

finish();
