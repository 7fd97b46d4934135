import type { ScreenPoint } from './camera.ts';
import { layoutBox } from './layout-box.ts';
import { trackPointerGestures } from './pointer-gestures.ts';

export { DOUBLE_CLICK_MS } from './pointer-gestures.ts';

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
  let pointerInside = false;

  const local = (event: { clientX: number; clientY: number }): ScreenPoint => {
    const box = layoutBox(canvas);
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const gestures = trackPointerGestures(canvas, target, win, local);

  const onPointerEnter = () => {
    pointerInside = true;
  };
  const onPointerLeave = (event: PointerEvent) => {
    pointerInside = false;
    if (!gestures.isDown(event.pointerId)) target.leave();
  };

  const onWheel = (event: WheelEvent) => {
    // Always ours over the map: plain wheel zooms the map, ctrl+wheel must not zoom the page.
    event.preventDefault();
    target.interactionStarted();
    const point = local(event);
    target.zoomAt(wheelZoomFactor(event, win.innerHeight), point.x, point.y);
  };

  // The zoom of a double-click comes from its two pointerups (pointer-gestures.ts): only the browser's own
  // reaction (selecting text) is stopped here.
  const onDoubleClick = (event: MouseEvent) => event.preventDefault();

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
  const onContextMenu = (event: Event) => {
    if (gestures.anyDown()) event.preventDefault();
  };

  const listeners: Array<[EventTarget, string, EventListener, AddEventListenerOptions?]> = [
    [canvas, 'pointerdown', ((event: PointerEvent) => gestures.down(event)) as EventListener],
    [canvas, 'pointermove', ((event: PointerEvent) => gestures.move(event)) as EventListener],
    [canvas, 'pointerup', ((event: PointerEvent) => gestures.end(event, false)) as EventListener],
    [canvas, 'pointercancel', ((event: PointerEvent) => gestures.end(event, true)) as EventListener],
    [canvas, 'pointerenter', onPointerEnter],
    [canvas, 'pointerleave', onPointerLeave as EventListener],
    [canvas, 'wheel', onWheel as EventListener, { passive: false }],
    [canvas, 'dblclick', onDoubleClick as EventListener],
    [canvas, 'keydown', ((event: KeyboardEvent) => onMapKeyDown(event, target)) as EventListener],
    [canvas, 'focus', () => target.setKeyboardFocus(focusVisible(canvas))],
    [canvas, 'blur', () => target.setKeyboardFocus(false)],
    [canvas, 'contextmenu', onContextMenu],
    [canvas, 'touchstart', preventMultiTouch as EventListener, { passive: false }],
    [canvas, 'touchmove', preventMultiTouch as EventListener, { passive: false }],
    [canvas, 'gesturestart', preventGesture, { passive: false }],
    [canvas, 'gesturechange', preventGesture, { passive: false }],
    [win, 'keydown', onWindowKeyDown as EventListener, { capture: true }],
  ];
  for (const [element, type, listener, options] of listeners) element.addEventListener(type, listener, options);
  return () => {
    gestures.dropPendingTap();
    for (const [element, type, listener, options] of listeners) element.removeEventListener(type, listener, options);
  };
}

function onMapKeyDown(event: KeyboardEvent, target: MapInputTarget): void {
  const shortcut = pageZoomShortcut(event);
  if (shortcut) return; // handled by the window listener, which also covers hover without focus
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (!isMapKey(event.key)) return;
  event.preventDefault();
  // Stop any running animation first: zoom and reset start flights of their own.
  target.interactionStarted();
  handleMapKey(event.key, target);
}

function focusVisible(canvas: HTMLElement): boolean {
  try {
    return canvas.matches(':focus-visible');
  } catch {
    // Older engines without :focus-visible: show the keyboard reticle whenever focused.
    return true;
  }
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
