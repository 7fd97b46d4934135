import type { ScreenPoint } from './camera.ts';
import type { MapInputTarget, PinchState } from './input.ts';

const DRAG_THRESHOLD_PX = { mouse: 4, touch: 8 };
/**
 * A click or tap waits this long for a second one: two within it zoom in (anywhere, land and plots
 * included), one alone acts when it runs out. Waiting costs a single click a fraction of a second but
 * never opens a popup that the second click of a double-click would have to close again.
 */
export const DOUBLE_CLICK_MS = 300;
/** How far apart (CSS px) the two clicks of a double-click may land. */
const DOUBLE_CLICK_PX = 24;

/** The pointers down on the map and what they add up to: a drag, a pinch, a tap or a double tap. */
export interface PointerGestures {
  down(event: PointerEvent): void;
  move(event: PointerEvent): void;
  /** A pointer lifted (or was cancelled by the browser, which never makes a tap). */
  end(event: PointerEvent, cancelled: boolean): void;
  isDown(pointerId: number): boolean;
  anyDown(): boolean;
  /** Forgets a tap still waiting for its double (the map is going away). */
  dropPendingTap(): void;
}

/** `local` turns an event's client coordinates into CSS px relative to the canvas. */
export function trackPointerGestures(
  canvas: HTMLElement,
  target: MapInputTarget,
  win: Window,
  local: (event: { clientX: number; clientY: number }) => ScreenPoint,
): PointerGestures {
  const pointers = new Map<number, ScreenPoint>();
  let dragOrigin: ScreenPoint | null = null;
  let lastPoint: ScreenPoint | null = null;
  let dragging = false;
  let gestureHadPinch = false;
  let pinchState: PinchState | null = null;
  const taps = trackTaps(target, win);

  const currentPinch = (): PinchState => {
    // Only asked while two or more pointers are down.
    const [a, b] = [...pointers.values()] as [ScreenPoint, ScreenPoint, ...ScreenPoint[]];
    return { midpoint: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  };

  return {
    down(event) {
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
    },

    move(event) {
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
    },

    end(event, cancelled) {
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
      if (isTap) taps.tapped(point);
    },

    isDown: (pointerId) => pointers.has(pointerId),
    anyDown: () => pointers.size > 0,
    dropPendingTap: () => taps.drop(),
  };
}

/** Tells a double tap (zoom in there) from a single one (act on the tile once no second tap came). */
function trackTaps(target: MapInputTarget, win: Window) {
  let pending: { timer: number; point: ScreenPoint } | null = null;

  const firePending = () => {
    if (!pending) return;
    const { point, timer } = pending;
    win.clearTimeout(timer);
    pending = null;
    target.tap(point.x, point.y);
  };

  return {
    tapped(point: ScreenPoint): void {
      if (pending && Math.hypot(point.x - pending.point.x, point.y - pending.point.y) < DOUBLE_CLICK_PX) {
        win.clearTimeout(pending.timer);
        pending = null;
        target.zoomStep(1, point);
        return;
      }
      // A tap somewhere else while one waits: the first stands on its own.
      if (pending) firePending();
      pending = { point, timer: win.setTimeout(firePending, DOUBLE_CLICK_MS) };
    },
    drop(): void {
      if (pending) win.clearTimeout(pending.timer);
      pending = null;
    },
  };
}
