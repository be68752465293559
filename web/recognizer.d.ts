/**
 * Types of utouch-web/recognizer (web/recognizer.js): grail compiled to
 * WebAssembly, driven with frames of touch operations.  No DOM: runs in
 * browsers, workers and node.
 */

/** Gesture primitive bits (grail's UGGestureType*). */
export declare const Gesture: Readonly<{
  DRAG: 0x1; PINCH: 0x2; ROTATE: 0x4; TAP: 0x8; TOUCH: 0x10;
  /** grail 3.1's five: drag, pinch, rotate, tap, touch */
  ALL: 0x1f;
  /** utouch extension: touches held still for the hold timeout */
  HOLD: 0x20;
  /** utouch extension: a swipe inward from an edge of the device's axes */
  EDGE_SWIPE: 0x40;
}>;

/** Screen edges (grail's UGEdge bits): Subscription.edges and Slice.edge. */
export declare const Edge: Readonly<{ LEFT: 0x1; RIGHT: 0x2; TOP: 0x4; BOTTOM: 0x8; ALL: 0xf }>;

/** Touch operation kinds of {@link Recognizer.frame}. */
export declare const Op: Readonly<{ BEGIN: 0; UPDATE: 1; END: 2; OWN: 3; PENDING_END: 4 }>;

/** Slice states. */
export declare const State: Readonly<{ BEGIN: 0; UPDATE: 1; END: 2 }>;

/** Names of the bits of a gesture mask joined by '+' ("none" for 0). */
export declare function maskString(mask: number): string;

/** The name of an Edge bit ('left', 'right', 'top', 'bottom'), else 'none'. */
export declare function edgeString(edge: number): string;

/** The emscripten module (opaque; pass it to Recognizer). */
export interface UtouchModule {
  readonly HEAPF64: Float64Array;
  [name: string]: unknown;
}

/**
 * Load the WebAssembly module.  Under node the .wasm beside moduleUrl is
 * read when options.wasmBinary is not given.
 * @param options emscripten module options (e.g. `wasmBinary`)
 * @param moduleUrl URL of utouch-wasm.mjs (default: build/ beside recognizer.js)
 */
export declare function loadModule(options?: { wasmBinary?: ArrayBuffer | Uint8Array; [option: string]: unknown },
  moduleUrl?: string): Promise<UtouchModule>;

/** A point. */
export interface Point { x: number; y: number }

/** One gesture slice, with the values of grail's C API. */
export interface Slice {
  /** gesture id */
  id: number;
  /** State.BEGIN, UPDATE or END */
  state: number;
  /** index of the subscription (as returned by subscribe) */
  subscription: number;
  /** Gesture bits recognized so far (they only grow) */
  recognized: number;
  /** touch ids of the gesture */
  touches: number[];
  constructionFinished: boolean;
  /** an End of a gesture grail dropped after the client saw it */
  canceled: boolean;
  /** ms */
  time: number;
  /** centroid when the touch count last changed */
  originalCenter: Point;
  /** current centroid */
  center: Point;
  /** mean distance from the centroid when the touch count last changed */
  originalRadius: number;
  radius: number;
  /** cumulative transform, rows 0 and 1: [a, b, tx, c, d, ty] */
  transform: number[];
  /** transform since the previous slice */
  delta: number[];
  centerOfRotation: Point;
  /** cumulative scale */
  scale: number;
  /** cumulative rotation in radians (clockwise on a screen with y down) */
  rotation: number;
  /** centroid velocity in px/ms: grail's slope over the subscription's velocityWindow */
  velocity: Point;
  /** 1, 2, 3... for single, double, triple taps; 0 when no tap is recognized */
  tapCount: number;
  /** the Edge an edge swipe began at, 0 otherwise */
  edge: number;
}

/** Per-primitive values (timeouts in ms; thresholds: metres, pinch a ratio, rotate radians). */
export interface PrimitiveValues {
  drag?: number; pinch?: number; rotate?: number; tap?: number; hold?: number;
  /** the most time / distance between a tap and the next of a multi-tap */
  multiTap?: number;
}

/** A subscription: which gestures are wanted.  Omitted values are grail's defaults. */
export interface Subscription {
  /** Gesture bits */
  mask: number;
  /** touches to start with (default 2) */
  start?: number;
  min?: number;
  max?: number;
  /** sets start, min and max at once */
  touches?: number;
  atomic?: boolean;
  timeouts?: PrimitiveValues;
  thresholds?: PrimitiveValues;
  /** highest tap count (1 turns multi-tap off) */
  multiTapMaximum?: number;
  /** Edge bits an edge swipe may begin at */
  edges?: number;
  /** metres from the edge within which every touch of an edge swipe begins */
  edgeMargin?: number;
  /** minimum inward velocity (m/s) of an edge swipe */
  edgeVelocity?: number;
  /** ms of positions Slice.velocity is estimated over */
  velocityWindow?: number;
}

/** The device a Recognizer stands for. */
export interface Device {
  /** a touchscreen (default true) */
  direct?: boolean;
  /** px per metre of grail's thresholds (0: grail's default) */
  windowResolution?: number;
  /** [min, max, resolution per metre] of the X axis (its ends are the edges) */
  x?: [number, number, number];
  y?: [number, number, number];
  /** touches are owned from their begin (default true) */
  ownAtBegin?: boolean;
}

/** One touch operation of a frame. */
export interface TouchOp {
  /** Op.* */
  op: number;
  id: number;
  /** window position */
  x?: number;
  y?: number;
  /** device values (default x, y) */
  dx?: number;
  dy?: number;
}

/** grail's decision about one touch. */
export interface TouchDecision {
  id: number;
  /** true: an accepted gesture holds it; false: no gesture wants it any more */
  accepted: boolean;
}

/** grail for one device and one window. */
export declare class Recognizer {
  constructor(module: UtouchModule, device?: Device, time?: number);
  /** the subscriptions added so far, in index order */
  readonly subscriptions: Subscription[];
  /** Add and activate a subscription; throws with grail's reason when refused. */
  subscribe(sub: Subscription): number;
  /** Send one frame of operations at @p time (ms); returns the number refused. */
  frame(time: number, ops: TouchOp[]): number;
  /** The next slice grail produced, or null. */
  nextSlice(): Slice | null;
  /** Accept a gesture; returns grail's status (0: success). */
  accept(id: number): number;
  /** Reject a gesture; returns grail's status (0: success). */
  reject(id: number): number;
  /** The oldest touch decision, or null. */
  nextDecision(): TouchDecision | null;
  /** ms of grail's next timeout, 0 when none. */
  nextTimeout(): number;
  /** Tell grail the time (ms); it runs the timeouts that are due. */
  updateTime(time: number): void;
  /** Free the recognizer (again: harmless). */
  destroy(): void;
}
