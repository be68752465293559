/**
 * Types of utouch-web (web/utouch.js): grail's gesture recognition on
 * Pointer Events.
 */
import { Recognizer, Slice, Subscription, UtouchModule } from './recognizer.js';

export { Gesture, Edge, State, maskString, edgeString } from './recognizer.js';
export type { Slice, Subscription, Point, UtouchModule } from './recognizer.js';

/** CSS pixels per metre (a CSS pixel is 1/96 inch). */
export declare const CSS_PX_PER_METRE: number;

/** Options of {@link GestureArea}. */
export interface AreaOptions {
  /** a mouse button acts as one touch (default false) */
  mouse?: boolean;
  /** the CSS touch-action set on the element (default 'none') */
  touchAction?: string;
  /**
   * touches no gesture wants: 'redispatch' (default) replays their pointer
   * events to the element below; 'page' only reports them ('unclaimed')
   */
  unclaimed?: 'redispatch' | 'page';
  /** px per metre of grail's thresholds (default CSS_PX_PER_METRE) */
  windowResolution?: number;
  /** feed every sample of getCoalescedEvents() (default true) */
  coalesced?: boolean;
}

/** What gesture handlers and the gesture* events get. */
export interface GestureEvent extends Slice {
  /** the recognized bits as text */
  mask: string;
  /** the pointerId of each touch */
  pointerIds: (number | undefined)[];
  /** Accept the gesture; returns grail's status (0: success). */
  accept(): number;
  /** Reject the gesture; returns grail's status (0: success). */
  reject(): number;
}

/** Handlers of one subscription. */
export interface GestureHandlers {
  begin?(g: GestureEvent): void;
  update?(g: GestureEvent): void;
  end?(g: GestureEvent): void;
}

/**
 * Gesture recognition on one element.  Events: 'gesturebegin',
 * 'gestureupdate', 'gestureend' (CustomEvent, detail: GestureEvent),
 * 'claimed' and 'unclaimed' (detail: { pointerId }).
 */
export declare class GestureArea extends EventTarget {
  constructor(module: UtouchModule, element: Element, options?: AreaOptions);
  readonly element: Element;
  readonly options: Required<AreaOptions>;
  readonly recognizer: Recognizer;
  /** Declare a subscription; returns its index (GestureEvent.subscription). */
  subscribe(sub: Subscription, handlers?: GestureHandlers): number;
  /** Accept gesture @p id; returns grail's status. */
  accept(id: number): number;
  /** Reject gesture @p id; returns grail's status. */
  reject(id: number): number;
  /** Stop listening and free the recognizer. */
  destroy(): void;
}

/** Load the module; attach() makes a GestureArea on an element. */
export declare function loadUtouch(options?: { wasmBinary?: ArrayBuffer | Uint8Array; [option: string]: unknown },
  moduleUrl?: string): Promise<{
  module: UtouchModule;
  attach(element: Element, options?: AreaOptions): GestureArea;
}>;
