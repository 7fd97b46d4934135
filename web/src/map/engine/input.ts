import type { ScreenPoint } from './camera.ts';
import { layoutBox } from './layout-box.ts';

/** What the input layer asks of the map. Points are CSS pixels relative to the canvas. */
export interface MapInputTarget {
  panBy(dx: number, dy: number): void;
  zoomAt(factor: number, x: number, y: number): void;
  pinch(previous: PinchState, next: PinchState): void;
  zoomStep(direction: 1 | -1, at?: ScreenPoint): void;
  resetView(): void;
  tap(x: number, y: number): void;
  hover(x: number, y: number): void;
  leave(): void;
  /** Enter/Space: act on the tile at the centre of the view (the keyboard path for clicking a tile). */
  activateCenter(): void;
  /** The user took over: a running flight must stop. */
  interactionStarted(): void;
  setKeyboardFocus(visible: boolean): void;
}

export interface PinchState {
  midpoint: ScreenPoint;
  distance: number;
}

export const KEY_PAN_PX = 80;
const WHEEL_SENSITIVITY = 0.0015;
/** Trackpad pinches arrive as ctrl+wheel with small deltas: they need a stronger response. */
const PINCH_WHEEL_SENSITIVITY = 0.01;
const DRAG_THRESHOLD_PX = { mouse: 4, touch: 8 };
/**
 * A click or tap waits this long for a second one: two within it zoom in (anywhere, land and plots
 * included), one alone acts when it runs out. Waiting costs a single click a fraction of a second but
 * never opens a popup that the second click of a double-click would have to close again.
 */
export const DOUBLE_CLICK_MS = 300;
/** How far apart (CSS px) the two clicks of a double-click may land. */
const DOUBLE_CLICK_PX = 24;

export function wheelZoomFactor(event: Pick<WheelEvent, 'deltaY' | 'deltaMode' | 'ctrlKey'>, pageHeight: number): number {
  const unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? pageHeight : 1;
  const delta = Math.max(-300, Math.min(300, event.deltaY * unit));
  return Math.exp(-delta * (event.ctrlKey ? PINCH_WHEEL_SENSITIVITY : WHEEL_SENSITIVITY));
}

/** Browser page-zoom shortcuts (ctrl/cmd with +, -, 0) that the map takes over while it has the pointer or focus. */
export function pageZoomShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey'>): 'in' | 'out' | 'reset' | null {
  if (!event.ctrlKey && !event.metaKey) return null;
  if (event.key === '+' || event.key === '=') return 'in';
  if (event.key === '-' || event.key === '_') return 'out';
  if (event.key === '0') return 'reset';
  return null;
}

/**
 * Wires pointer, wheel, touch and keyboard events on the canvas to the map. Returns a detach
 * function. Listeners that must cancel browser behaviour are registered with passive: false.
 */
export function attachMapInput(canvas: HTMLElement, target: MapInputTarget, win: Window = window): () => void {
  const pointers = new Map<number, ScreenPoint>();
  let dragOrigin: ScreenPoint | null = null;
  let lastPoint: ScreenPoint | null = null;
  let dragging = false;
  let gestureHadPinch = false;
  let pinchState: PinchState | null = null;
  let pendingTap: { timer: number; point: ScreenPoint } | null = null;
  let pointerInside = false;

  const local = (event: { clientX: number; clientY: number }): ScreenPoint => {
    const box = layoutBox(canvas);
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };

  const currentPinch = (): PinchState => {
    // Only asked while two or more pointers are down.
    const [a, b] = [...pointers.values()] as [ScreenPoint, ScreenPoint, ...ScreenPoint[]];
    return { midpoint: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    canvas.setPointerCapture?.(event.pointerId);
    const point = local(event);
    pointers.set(event.pointerId, point);
    target.interactionStarted();
    if (pointers.size === 1) {
      dragOrigin = point;
      lastPoint = point;
      dragging = false;
      gestureHadPinch = false;
    } else if (pointers.size === 2) {
      gestureHadPinch = true;
      pinchState = currentPinch();
    }
  };

  const onPointerMove = (event: PointerEvent) => {
    const point = local(event);
    if (!pointers.has(event.pointerId)) {
      if (event.pointerType === 'mouse') target.hover(point.x, point.y);
      return;
    }
    pointers.set(event.pointerId, point);
    if (pointers.size >= 2) {
      const next = currentPinch();
      if (pinchState) target.pinch(pinchState, next);
      pinchState = next;
      return;
    }
    if (!dragOrigin || !lastPoint) return;
    if (!dragging) {
      const threshold = event.pointerType === 'mouse' ? DRAG_THRESHOLD_PX.mouse : DRAG_THRESHOLD_PX.touch;
      if (Math.hypot(point.x - dragOrigin.x, point.y - dragOrigin.y) < threshold) return;
      dragging = true;
    }
    target.panBy(point.x - lastPoint.x, point.y - lastPoint.y);
    lastPoint = point;
  };

  const endPointer = (event: PointerEvent, cancelled: boolean) => {
    if (!pointers.has(event.pointerId)) return;
    const wasSingle = pointers.size === 1;
    pointers.delete(event.pointerId);
    canvas.releasePointerCapture?.(event.pointerId);
    const [remaining] = pointers.values();
    if (remaining && pointers.size === 1) {
      // One finger lifted from a pinch: keep dragging from where the other finger is, without a jump.
      dragOrigin = remaining;
      lastPoint = remaining;
      dragging = true;
      pinchState = null;
      return;
    }
    if (pointers.size > 1) {
      pinchState = currentPinch();
      return;
    }
    pinchState = null;
    const point = local(event);
    const isTap = wasSingle && !dragging && !gestureHadPinch && !cancelled;
    dragOrigin = null;
    lastPoint = null;
    dragging = false;
    if (!isTap) return;
    if (pendingTap && Math.hypot(point.x - pendingTap.point.x, point.y - pendingTap.point.y) < DOUBLE_CLICK_PX) {
      win.clearTimeout(pendingTap.timer);
      pendingTap = null;
      target.zoomStep(1, point);
      return;
    }
    // A tap somewhere else while one waits: the first stands on its own.
    if (pendingTap) firePendingTap();
    pendingTap = { point, timer: win.setTimeout(firePendingTap, DOUBLE_CLICK_MS) };
  };

  const firePendingTap = () => {
    if (!pendingTap) return;
    const { point, timer } = pendingTap;
    win.clearTimeout(timer);
    pendingTap = null;
    target.tap(point.x, point.y);
  };

  const onPointerUp = (event: PointerEvent) => endPointer(event, false);
  const onPointerCancel = (event: PointerEvent) => endPointer(event, true);
  const onPointerEnter = () => {
    pointerInside = true;
  };
  const onPointerLeave = (event: PointerEvent) => {
    pointerInside = false;
    if (!pointers.has(event.pointerId)) target.leave();
  };

  const onWheel = (event: WheelEvent) => {
    // Always ours over the map: plain wheel zooms the map, ctrl+wheel must not zoom the page.
    event.preventDefault();
    target.interactionStarted();
    const point = local(event);
    target.zoomAt(wheelZoomFactor(event, win.innerHeight), point.x, point.y);
  };

  // The zoom of a double-click comes from its two pointerups (endPointer): only the browser's own
  // reaction (selecting text) is stopped here.
  const onDoubleClick = (event: MouseEvent) => event.preventDefault();

  const onKeyDown = (event: KeyboardEvent) => {
    const shortcut = pageZoomShortcut(event);
    if (shortcut) return; // handled by the window listener, which also covers hover without focus
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (!isMapKey(event.key)) return;
    event.preventDefault();
    // Stop any running animation first: zoom and reset start flights of their own.
    target.interactionStarted();
    handleMapKey(event.key, target);
  };

  const onWindowKeyDown = (event: KeyboardEvent) => {
    const shortcut = pageZoomShortcut(event);
    if (!shortcut) return;
    if (!pointerInside && win.document.activeElement !== canvas) return;
    event.preventDefault();
    if (shortcut === 'reset') target.resetView();
    else target.zoomStep(shortcut === 'in' ? 1 : -1);
  };

  const preventMultiTouch = (event: TouchEvent) => {
    if (event.touches.length > 1) event.preventDefault();
  };
  const preventGesture = (event: Event) => event.preventDefault();

  const onFocus = () => {
    let visible = true;
    try {
      visible = canvas.matches(':focus-visible');
    } catch {
      // Older engines without :focus-visible: show the keyboard reticle whenever focused.
    }
    target.setKeyboardFocus(visible);
  };
  const onBlur = () => target.setKeyboardFocus(false);
  const onContextMenu = (event: Event) => {
    if (pointers.size > 0) event.preventDefault();
  };

  const listeners: Array<[EventTarget, string, EventListener, AddEventListenerOptions?]> = [
    [canvas, 'pointerdown', onPointerDown as EventListener],
    [canvas, 'pointermove', onPointerMove as EventListener],
    [canvas, 'pointerup', onPointerUp as EventListener],
    [canvas, 'pointercancel', onPointerCancel as EventListener],
    [canvas, 'pointerenter', onPointerEnter],
    [canvas, 'pointerleave', onPointerLeave as EventListener],
    [canvas, 'wheel', onWheel as EventListener, { passive: false }],
    [canvas, 'dblclick', onDoubleClick as EventListener],
    [canvas, 'keydown', onKeyDown as EventListener],
    [canvas, 'focus', onFocus],
    [canvas, 'blur', onBlur],
    [canvas, 'contextmenu', onContextMenu],
    [canvas, 'touchstart', preventMultiTouch as EventListener, { passive: false }],
    [canvas, 'touchmove', preventMultiTouch as EventListener, { passive: false }],
    [canvas, 'gesturestart', preventGesture, { passive: false }],
    [canvas, 'gesturechange', preventGesture, { passive: false }],
    [win, 'keydown', onWindowKeyDown as EventListener, { capture: true }],
  ];
  for (const [element, type, listener, options] of listeners) element.addEventListener(type, listener, options);
  return () => {
    if (pendingTap) win.clearTimeout(pendingTap.timer);
    pendingTap = null;
    for (const [element, type, listener, options] of listeners) element.removeEventListener(type, listener, options);
  };
}

const MAP_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', '+', '=', '-', '_', '0', 'Enter', ' ']);

export function isMapKey(key: string): boolean {
  return MAP_KEYS.has(key);
}

/** Arrows pan, + and - zoom about the centre, 0 resets, Enter/Space act on the centre tile. */
export function handleMapKey(key: string, target: MapInputTarget): boolean {
  switch (key) {
    case 'ArrowLeft':
      target.panBy(KEY_PAN_PX, 0);
      return true;
    case 'ArrowRight':
      target.panBy(-KEY_PAN_PX, 0);
      return true;
    case 'ArrowUp':
      target.panBy(0, KEY_PAN_PX);
      return true;
    case 'ArrowDown':
      target.panBy(0, -KEY_PAN_PX);
      return true;
    case '+':
    case '=':
      target.zoomStep(1);
      return true;
    case '-':
    case '_':
      target.zoomStep(-1);
      return true;
    case '0':
      target.resetView();
      return true;
    case 'Enter':
    case ' ':
      target.activateCenter();
      return true;
    default:
      return false;
  }
}
