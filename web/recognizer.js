/**
 * @file utouch recognizer core for JavaScript: grail compiled to
 * WebAssembly, driven with touch frames.  No DOM here, so it also runs
 * under node (the trace tests) and in workers; web/utouch.js builds the
 * Pointer Events layer on top of it.
 * @module utouch/recognizer
 */

/**
 * Gesture primitive bits (grail's UGGestureType*).  ALL is grail 3.1's
 * five; HOLD and EDGE_SWIPE are utouch extensions, selected by name only.
 */
export const Gesture = Object.freeze({
  DRAG: 0x1, PINCH: 0x2, ROTATE: 0x4, TAP: 0x8, TOUCH: 0x10, ALL: 0x1f,
  HOLD: 0x20, EDGE_SWIPE: 0x40,
});

/** Screen edges (grail's UGEdge bits): Subscription.edges and Slice.edge. */
export const Edge = Object.freeze({ LEFT: 0x1, RIGHT: 0x2, TOP: 0x4, BOTTOM: 0x8, ALL: 0xf });

/** Touch operation kinds of {@link Recognizer#frame}. */
export const Op = Object.freeze({ BEGIN: 0, UPDATE: 1, END: 2, OWN: 3, PENDING_END: 4 });

/** Slice states. */
export const State = Object.freeze({ BEGIN: 0, UPDATE: 1, END: 2 });

// keys of ut_web_sub_set() (web/utouch-web.c): timeouts and thresholds by
// primitive, then the other values by option name
const TIMEOUT_KEYS = { drag: 0, pinch: 1, rotate: 2, tap: 3, hold: 8, multiTap: 10 };
const THRESHOLD_KEYS = { drag: 4, pinch: 5, rotate: 6, tap: 7, hold: 9, multiTap: 11 };
const VALUE_KEYS = { multiTapMaximum: 12, edges: 13, edgeMargin: 14, edgeVelocity: 15,
  velocityWindow: 16 };
// slice buffer layout of web/utouch-web.c
const S = { ID: 0, STATE: 1, SUB: 2, REC: 3, N: 4, CF: 5, CANCELED: 6, TIME: 7, OCX: 8,
  OCY: 9, R0: 10, CORX: 11, CORY: 12, C: 13, D: 19, VX: 25, VY: 26, TAPS: 27, EDGE: 28,
  TOUCHES: 29, SIZE: 61 };

const MASK_NAMES = ['drag', 'pinch', 'rotate', 'tap', 'touch', 'hold', 'edge'];
const EDGE_NAMES = { 1: 'left', 2: 'right', 4: 'top', 8: 'bottom' };

/**
 * Names of the bits of a gesture mask, joined by '+' ("none" for 0), as
 * utouch-replay prints them (drag, pinch, rotate, tap, touch, hold, edge).
 */
export function maskString(mask) {
  const names = MASK_NAMES.filter((_, i) => mask & (1 << i));
  return names.length ? names.join('+') : 'none';
}

/** The name of an Edge bit ('left', 'right', 'top', 'bottom'), 'none' otherwise. */
export function edgeString(edge) {
  return EDGE_NAMES[edge] || 'none';
}

/**
 * Load the WebAssembly module.
 * @param {object} [options] passed to the emscripten module factory.  Under
 *   node the bytes of utouch-wasm.wasm (beside @p moduleUrl) are read for you
 *   when `wasmBinary` is not given (the glue would otherwise try `fetch()`
 *   on a file path).
 * @param {string} [moduleUrl] URL of utouch-wasm.mjs (default: build/ next to this file)
 * @returns {Promise<object>} the module, for {@link Recognizer}
 */
export async function loadModule(options = {}, moduleUrl = new URL('./build/utouch-wasm.mjs', import.meta.url).href) {
  const opts = { ...options };
  if (!opts.wasmBinary && typeof process === 'object' && process.versions?.node &&
      moduleUrl.startsWith('file:')) {
    const { readFile } = await import('node:fs/promises');
    opts.wasmBinary = await readFile(new URL(moduleUrl.replace(/\.mjs$/, '.wasm')));
  }
  const factory = (await import(moduleUrl)).default;
  return factory(opts);
}

/**
 * One gesture slice, with the values of grail's C API.
 * @typedef {object} Slice
 * @property {number} id gesture id
 * @property {number} state State.BEGIN / UPDATE / END
 * @property {number} subscription index of the subscription
 * @property {number} recognized gesture mask recognized so far
 * @property {number[]} touches touch ids
 * @property {boolean} constructionFinished grail's construction finished
 * @property {boolean} canceled an End of a gesture grail dropped
 * @property {number} time ms
 * @property {{x:number,y:number}} originalCenter centroid at the begin
 * @property {{x:number,y:number}} center current centroid
 * @property {number} originalRadius mean distance from the centroid at the begin
 * @property {number} radius current radius
 * @property {number[]} transform cumulative transform, rows 0 and 1 [a b tx c d ty]
 * @property {number[]} delta transform since the previous slice
 * @property {{x:number,y:number}} centerOfRotation
 * @property {number} scale cumulative scale
 * @property {number} rotation cumulative rotation in radians (counter-clockwise in
 *   device coordinates, so clockwise on a screen with y down)
 * @property {{x:number,y:number}} velocity centroid velocity in px/ms (device
 *   units per ms on indirect devices): grail's least-squares slope over the
 *   subscription's velocityWindow; the End slice carries the release velocity
 * @property {number} tapCount 1, 2, 3... for single, double, triple taps on the
 *   slices of a recognized tap, else 0
 * @property {number} edge the Edge an edge swipe began at, 0 otherwise
 */

/**
 * A subscription: which gestures are wanted.
 * @typedef {object} Subscription
 * @property {number} mask Gesture bits
 * @property {number} [start=2] touches to start with (grail's TouchesStart)
 * @property {number} [min] minimum touches
 * @property {number} [max] maximum touches
 * @property {number} [touches] sets start, min and max at once
 * @property {boolean} [atomic=false] atomic gestures
 * @property {object} [timeouts] ms per primitive: {drag, pinch, rotate, tap, hold,
 *   multiTap} (multiTap: the most time between a tap and the next of a multi-tap)
 * @property {object} [thresholds] per primitive: drag, tap, hold and multiTap in
 *   metres, pinch a ratio, rotate radians
 * @property {number} [multiTapMaximum] highest tap count (1 turns multi-tap off)
 * @property {number} [edges] Edge bits an edge swipe may begin at (default all)
 * @property {number} [edgeMargin] metres from the edge every touch of an edge
 *   swipe begins within
 * @property {number} [edgeVelocity] minimum inward velocity (m/s) of an edge swipe
 * @property {number} [velocityWindow] ms of positions Slice.velocity is estimated over
 * Omitted values are grail's defaults.
 */

/**
 * grail for one device and one window, fed with frames of touch operations.
 */
export class Recognizer {
  /**
   * @param {object} module from {@link loadModule}
   * @param {object} [device]
   * @param {boolean} [device.direct=true] a touchscreen (coordinates are window pixels)
   * @param {number} [device.windowResolution=0] px per metre (0: grail's default)
   * @param {number[]} [device.x] [min, max, resolution per metre] of the X axis
   * @param {number[]} [device.y] the same for Y
   * @param {boolean} [device.ownAtBegin=true] touches are owned from their begin
   * @param {number} [time=0] ms
   */
  constructor(module, device = {}, time = 0) {
    const d = { direct: true, windowResolution: 0, x: [0, 0, 0], y: [0, 0, 0], ownAtBegin: true, ...device };
    this.m = module;
    this.ptr = module._ut_web_new(d.direct ? 1 : 0, d.x[0], d.x[1], d.x[2], d.y[0], d.y[1], d.y[2],
      d.windowResolution, d.ownAtBegin ? 1 : 0, time);
    if (!this.ptr) throw new Error('utouch: cannot create the recognizer (out of memory)');
    this.subscriptions = [];
    this.inFrame = false;
  }

  /**
   * Add and activate a subscription.
   * @param {Subscription} sub
   * @returns {number} its index (Slice.subscription)
   */
  subscribe(sub) {
    const s = { start: 2, min: 0, max: 0, atomic: false, ...sub };
    if (s.touches) { s.start = s.min = s.max = s.touches; }
    if (!s.mask) throw new Error('utouch: a subscription needs a non-zero mask');
    const idx = this.m._ut_web_subscribe(this.ptr, s.mask, s.start, s.min, s.max, s.atomic ? 1 : 0);
    if (idx < 0) throw new Error(`utouch: invalid subscription (grail status ${-idx})`);
    const values = [];
    for (const [what, table, keys] of [['timeout', s.timeouts, TIMEOUT_KEYS],
      ['threshold', s.thresholds, THRESHOLD_KEYS]]) {
      for (const [name, v] of Object.entries(table || {})) {
        if (!(name in keys)) {
          this.m._ut_web_sub_drop(this.ptr, idx);
          throw new Error(`utouch: unknown primitive '${name}' in ${what}s ` +
            `(known: ${Object.keys(keys).join(', ')})`);
        }
        values.push([`${what} ${name}`, keys[name], v]);
      }
    }
    for (const [name, key] of Object.entries(VALUE_KEYS)) {
      if (s[name] !== undefined) values.push([name, key, s[name]]);
    }
    for (const [name, key, v] of values) {
      const st = this.m._ut_web_sub_set(this.ptr, idx, key, Number(v));
      if (st) {
        this.m._ut_web_sub_drop(this.ptr, idx);
        throw new Error(`utouch: invalid ${name}=${v} (grail status ${st})`);
      }
    }
    const st = this.m._ut_web_sub_activate(this.ptr, idx);
    if (st) this.m._ut_web_sub_drop(this.ptr, idx);
    if (st) throw new Error(`utouch: cannot activate the subscription (grail status ${st})`);
    this.subscriptions.push(s);
    return idx;
  }

  /**
   * Send one frame: every touch that changed at @p time.
   * @param {number} time ms
   * @param {Array<{op:number,id:number,x:number,y:number,dx:number,dy:number}>} ops
   *   touch operations (Op.*) with window position x, y and device values dx, dy
   *   (default: x, y; grail uses them for indirect devices)
   * @returns {number} operations refused (unknown id, repeated begin)
   */
  frame(time, ops) {
    const m = this.m;
    if (m._ut_web_frame_begin(this.ptr)) throw new Error('utouch: out of memory');
    let refused = 0;
    for (const o of ops) refused += m._ut_web_touch(this.ptr, o.op, o.id, o.x || 0, o.y || 0,
      o.dx ?? (o.x || 0), o.dy ?? (o.y || 0), time) ? 1 : 0;
    if (m._ut_web_frame_end(this.ptr, time)) throw new Error('utouch: out of memory');
    return refused;
  }

  /** @returns {Slice|null} the next slice grail produced, or null */
  nextSlice() {
    if (!this.m._ut_web_next_slice(this.ptr)) return null;
    const b = this.m.HEAPF64.subarray(this.m._ut_web_slice_buffer(this.ptr) / 8,
      this.m._ut_web_slice_buffer(this.ptr) / 8 + S.SIZE);
    const C = Array.from(b.subarray(S.C, S.C + 6));
    const n = b[S.N];
    const s = {
      id: b[S.ID], state: b[S.STATE], subscription: b[S.SUB], recognized: b[S.REC],
      touches: Array.from(b.subarray(S.TOUCHES, S.TOUCHES + n)),
      constructionFinished: b[S.CF] !== 0, canceled: b[S.CANCELED] !== 0, time: b[S.TIME],
      originalCenter: { x: b[S.OCX], y: b[S.OCY] }, originalRadius: b[S.R0],
      centerOfRotation: { x: b[S.CORX], y: b[S.CORY] },
      transform: C, delta: Array.from(b.subarray(S.D, S.D + 6)),
    };
    s.center = { x: s.originalCenter.x + C[2], y: s.originalCenter.y + C[5] };
    s.scale = Math.hypot(C[0], C[1]);
    s.radius = s.originalRadius * s.scale;
    s.rotation = Math.atan2(C[3], C[0]);
    s.velocity = { x: b[S.VX], y: b[S.VY] };
    s.tapCount = b[S.TAPS];
    s.edge = b[S.EDGE];
    return s;
  }

  /** Accept gesture @p id. @returns {number} grail status (0: success) */
  accept(id) { return this.m._ut_web_accept(this.ptr, id); }

  /** Reject gesture @p id. @returns {number} grail status (0: success) */
  reject(id) { return this.m._ut_web_reject(this.ptr, id); }

  /**
   * Take the oldest touch decision of grail: `{ id, accepted }` (accepted:
   * a gesture the client accepted holds the touch; otherwise no gesture
   * wants it any more), or null.
   */
  nextDecision() {
    const d = this.m._ut_web_next_decision(this.ptr);
    return d ? { id: Math.abs(d), accepted: d > 0 } : null;
  }

  /** @returns {number} ms of grail's next timeout, 0 when none */
  nextTimeout() { return this.m._ut_web_next_timeout(this.ptr); }

  /** Tell grail the time (ms); it runs the timeouts that are due. */
  updateTime(time) { this.m._ut_web_update_time(this.ptr, time); }

  /** Free the recognizer. */
  destroy() {
    if (this.ptr) this.m._ut_web_delete(this.ptr);
    this.ptr = 0;
  }
}
