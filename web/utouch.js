/**
 * @file utouch for web pages: grail's gesture recognition (several
 * simultaneous gestures, subscriptions, accept/reject, construction
 * finished, timeouts) on Pointer Events.  See doc/web.md.
 *
 * @example
 * import { loadUtouch, Gesture } from './utouch.js';
 * const utouch = await loadUtouch();
 * const area = utouch.attach(canvas, { mouse: true });
 * area.subscribe({ mask: Gesture.PINCH, touches: 2 }, {
 *   begin(g) { ... }, update(g) { ... }, end(g) { ... },
 * });
 * @module utouch
 */
import { loadModule, Recognizer, Gesture, Edge, State, maskString, edgeString } from './recognizer.js';

export { Gesture, Edge, State, maskString, edgeString };

/** CSS pixels per metre (a CSS pixel is 1/96 inch). */
export const CSS_PX_PER_METRE = 96 / 0.0254;
const TIME_BASE = 1000; // grail times start here (0 means "no timeout")

/**
 * Load the WebAssembly module.
 * @param {object} [options] emscripten module options (e.g. `wasmBinary`)
 * @param {string} [moduleUrl] URL of utouch-wasm.mjs (default: ./build/)
 * @returns {Promise<{attach: function(Element, AreaOptions=): GestureArea, module: object}>}
 */
export async function loadUtouch(options, moduleUrl) {
  const module = await loadModule(options, moduleUrl);
  return { module, attach: (el, opts) => new GestureArea(module, el, opts) };
}

/**
 * @typedef {object} AreaOptions
 * @property {boolean} [mouse=false] a mouse button acts as one touch (desktop testing)
 * @property {string} [touchAction='none'] the CSS touch-action set on the element;
 *   'none' keeps the browser from panning or zooming while grail decides
 * @property {'redispatch'|'page'} [unclaimed='redispatch'] what happens to touches no
 *   gesture wants (grail rejected them): 'redispatch' replays their pointer events,
 *   then passes the live ones, to the element below the area at the touch's position;
 *   'page' only reports them with the 'unclaimed' event and leaves them to the page
 * @property {number} [windowResolution] px per metre for grail's thresholds
 *   (default CSS_PX_PER_METRE)
 * @property {boolean} [coalesced=true] feed every sample of getCoalescedEvents()
 */

/**
 * The object handed to begin/update/end handlers: a {@link module:utouch/recognizer~Slice}
 * plus `accept()` / `reject()` for its gesture.  Coordinates are CSS pixels
 * relative to the element's top-left corner; time is the event's timeStamp (ms).
 * @typedef {object} GestureEvent
 */

/**
 * Gesture recognition on one element.  Also an EventTarget: 'gesturebegin',
 * 'gestureupdate', 'gestureend' (detail: GestureEvent), 'unclaimed' (detail:
 * { pointerId }) and 'claimed' (detail: { pointerId }).
 */
export class GestureArea extends EventTarget {
  /**
   * @param {object} module from loadModule()
   * @param {Element} element
   * @param {AreaOptions} [options]
   */
  constructor(module, element, options = {}) {
    super();
    this.options = { mouse: false, touchAction: 'none', unclaimed: 'redispatch',
      windowResolution: CSS_PX_PER_METRE, coalesced: true, ...options };
    this.element = element;
    // the device's axes are the element's box when attached, so that edge
    // swipes start at its edges (none while it has no size)
    const box = element.getBoundingClientRect();
    const res = this.options.windowResolution;
    this.recognizer = new Recognizer(module, { direct: true, ownAtBegin: true,
      windowResolution: res, x: [0, Math.max(0, box.width), res],
      y: [0, Math.max(0, box.height), res] }, TIME_BASE);
    this.handlers = [];
    this.touches = new Map();   // pointerId -> touch record
    this.byTouch = new Map();   // grail touch id -> touch record
    this.nextId = 1;
    this.now = TIME_BASE;
    this.timer = null;
    this.decided = new Set();   // gesture ids accepted or rejected
    element.style.touchAction = this.options.touchAction;
    this.listener = (e) => this.onPointer(e);
    for (const t of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
      element.addEventListener(t, this.listener);
    }
  }

  /**
   * Declare a subscription.
   * @param {module:utouch/recognizer~Subscription} sub
   * @param {{begin?:function(GestureEvent), update?:function(GestureEvent), end?:function(GestureEvent)}} [handlers]
   * @returns {number} the subscription index (GestureEvent.subscription)
   */
  subscribe(sub, handlers = {}) {
    const i = this.recognizer.subscribe(sub);
    this.handlers[i] = handlers;
    return i;
  }

  /** Accept gesture @p id: its touches are the area's; other gestures on them end. */
  accept(id) {
    this.decided.add(id);
    const st = this.recognizer.accept(id);
    this.settle();
    return st;
  }

  /** Reject gesture @p id: touches no other gesture wants go below / to the page. */
  reject(id) {
    this.decided.add(id);
    const st = this.recognizer.reject(id);
    this.settle();
    return st;
  }

  /** Stop listening and free the recognizer. */
  destroy() {
    for (const t of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel']) {
      this.element.removeEventListener(t, this.listener);
    }
    clearTimeout(this.timer);
    this.recognizer.destroy();
  }

  time(e) {
    // grail needs non-decreasing whole ms
    this.now = Math.max(this.now, TIME_BASE + Math.floor(e.timeStamp));
    return this.now;
  }

  onPointer(e) {
    if (e.isTrusted === false && e.utouchRedispatched) return;
    if (e.pointerType !== 'touch' && !(this.options.mouse && e.pointerType === 'mouse')) return;
    let t = this.touches.get(e.pointerId);
    if (e.type === 'pointerdown') {
      if (t) return;
      t = { pointerId: e.pointerId, id: this.nextId++, state: 'held', events: [], target: null };
      this.touches.set(e.pointerId, t);
      this.byTouch.set(t.id, t);
      try { this.element.setPointerCapture(e.pointerId); } catch (_) { /* synthetic ids */ }
    }
    if (!t) return;
    if (t.state === 'passed') { this.forward(t, e); this.finish(t, e); return; }
    if (t.state === 'held') t.events.push(e);
    e.preventDefault();
    const rect = this.element.getBoundingClientRect();
    const samples = e.type === 'pointermove' && this.options.coalesced && e.getCoalescedEvents
      ? e.getCoalescedEvents() : [];
    const list = samples.length ? samples : [e];
    const op = e.type === 'pointerdown' ? 0 : e.type === 'pointermove' ? 1 : 2;
    for (const s of list) {
      const time = this.time(s);
      this.advance(time);
      this.recognizer.frame(time, [{ op, id: t.id, x: s.clientX - rect.left, y: s.clientY - rect.top }]);
      this.settle();
    }
    this.finish(t, e);
  }

  finish(t, e) {
    if (e.type === 'pointerup' || e.type === 'pointercancel') {
      t.ended = true;
      if (t.state !== 'held') this.forget(t);
    }
  }

  forget(t) {
    this.touches.delete(t.pointerId);
    this.byTouch.delete(t.id);
  }

  // run grail's timeouts up to @p time
  advance(time) {
    for (let next = this.recognizer.nextTimeout(); next && next <= time;) {
      this.recognizer.updateTime(next);
      this.settle(true);
      const n = this.recognizer.nextTimeout();
      next = n && n <= next ? next + 1 : n;
    }
  }

  // deliver slices and touch decisions, then re-arm the timer
  settle(noTimer) {
    for (let s; (s = this.recognizer.nextSlice());) this.deliver(s);
    for (let d; (d = this.recognizer.nextDecision());) this.decide(d);
    if (!noTimer) this.arm();
  }

  arm() {
    clearTimeout(this.timer);
    const next = this.recognizer.nextTimeout();
    if (!next) return;
    const delay = Math.max(0, next - (TIME_BASE + performance.now()));
    this.timer = setTimeout(() => {
      this.now = Math.max(this.now, TIME_BASE + Math.floor(performance.now()), next);
      this.advance(this.now);
      this.settle();
    }, delay);
  }

  deliver(s) {
    const g = Object.assign(s, {
      time: s.time - TIME_BASE, mask: maskString(s.recognized),
      pointerIds: s.touches.map((id) => this.byTouch.get(id)?.pointerId),
      accept: () => this.accept(s.id), reject: () => this.reject(s.id),
    });
    const h = this.handlers[s.subscription] || {};
    const name = ['begin', 'update', 'end'][s.state];
    if (h[name]) h[name](g);
    this.dispatchEvent(new CustomEvent('gesture' + name, { detail: g }));
    if (s.state === State.END) {
      // a gesture nobody decided by its end is not wanted: rejecting it
      // lets grail give its touches back (to the elements below)
      if (!this.decided.has(s.id) && !s.canceled) this.recognizer.reject(s.id);
      this.decided.delete(s.id);
    }
  }

  decide(d) {
    const t = this.byTouch.get(d.id);
    if (!t || t.state !== 'held') return;
    const events = t.events;
    t.events = [];
    if (d.accepted) {
      t.state = 'claimed';
      this.dispatchEvent(new CustomEvent('claimed', { detail: { pointerId: t.pointerId } }));
    } else {
      t.state = 'passed';
      this.dispatchEvent(new CustomEvent('unclaimed', { detail: { pointerId: t.pointerId } }));
      if (this.options.unclaimed === 'redispatch') for (const e of events) this.forward(t, e);
    }
    if (t.ended) this.forget(t);
  }

  // re-dispatch a pointer event to the element below the area
  forward(t, e) {
    if (this.options.unclaimed !== 'redispatch') return;
    if (!t.target || !t.target.isConnected) {
      // the topmost element under the touch that is neither the area, inside
      // it, nor one of its ancestors; else the area's parent (the event
      // bubbles up from there as from any element)
      t.target = document.elementsFromPoint(e.clientX, e.clientY)
        .find((el) => !this.element.contains(el) && !el.contains(this.element)) ||
        this.element.parentElement;
    }
    if (!t.target) return;
    const copy = new PointerEvent(e.type, e);
    copy.utouchRedispatched = true;
    t.target.dispatchEvent(copy);
  }
}
