import { afterEach, describe, expect, it, vi, type Mock } from 'vitest';
import {
  attachMapInput,
  DOUBLE_CLICK_MS,
  handleMapKey,
  KEY_PAN_PX,
  pageZoomShortcut,
  wheelZoomFactor,
  type MapInputTarget,
} from './input.ts';
import { placedCanvas } from './test-doubles.ts';

type MockTarget = { [K in keyof MapInputTarget]: Mock<MapInputTarget[K]> };

function mockTarget(): MockTarget {
  const names: Array<keyof MapInputTarget> = [
    'panBy',
    'zoomAt',
    'pinch',
    'zoomStep',
    'resetView',
    'tap',
    'hover',
    'leave',
    'activateCenter',
    'interactionStarted',
    'setKeyboardFocus',
  ];
  return Object.fromEntries(names.map((name) => [name, vi.fn()])) as unknown as MockTarget;
}

function setup() {
  const canvas = placedCanvas(10, 20);
  canvas.tabIndex = 0;
  const target = mockTarget();
  const detach = attachMapInput(canvas, target);
  cleanups.push(() => {
    detach();
    canvas.remove();
  });
  /** Presses at client (x, y) and lets go there, or at `releaseAt` when the press slips a little. */
  const click = (x: number, y: number, { releaseAt = [x, y], ...init }: PointerEventInit & { releaseAt?: [number, number] } = {}) => {
    canvas.dispatchEvent(pointer('pointerdown', { ...init, clientX: x, clientY: y }));
    canvas.dispatchEvent(pointer('pointerup', { ...init, clientX: releaseAt[0], clientY: releaseAt[1] }));
  };
  return { canvas, target, click };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.useRealTimers();
});

const pointer = (type: string, init: PointerEventInit) =>
  new PointerEvent(type, { bubbles: true, cancelable: true, pointerType: 'mouse', button: 0, pointerId: 1, ...init });

describe('map input', () => {
  it('drags to pan, in canvas coordinates, without treating the drag as a click', () => {
    const { canvas, target } = setup();
    canvas.dispatchEvent(pointer('pointerdown', { clientX: 110, clientY: 120 }));
    canvas.dispatchEvent(pointer('pointermove', { clientX: 112, clientY: 120 }));
    expect(target.panBy).not.toHaveBeenCalled();
    canvas.dispatchEvent(pointer('pointermove', { clientX: 150, clientY: 100 }));
    canvas.dispatchEvent(pointer('pointerup', { clientX: 150, clientY: 100 }));
    expect(target.panBy).toHaveBeenCalledWith(40, -20);
    expect(target.tap).not.toHaveBeenCalled();
  });

  it('turns a press without movement into a tap at that point, once no second click follows', () => {
    vi.useFakeTimers();
    const { target, click } = setup();
    click(110, 120, { releaseAt: [111, 121] });
    vi.advanceTimersByTime(DOUBLE_CLICK_MS - 1);
    expect(target.tap).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(target.tap).toHaveBeenCalledWith(101, 101);
    expect(target.zoomStep).not.toHaveBeenCalled();
  });

  it.each(['mouse', 'touch'])('a %s double-click zooms in at the pointer and never taps (land and plots too)', (pointerType) => {
    vi.useFakeTimers();
    const { canvas, target, click } = setup();
    for (let i = 0; i < 2; i++) {
      click(110, 120, { pointerType, releaseAt: [112, 121] });
      vi.advanceTimersByTime(120);
    }
    // The browser's own dblclick after the second click adds nothing.
    const dblclick = new MouseEvent('dblclick', { clientX: 112, clientY: 121, bubbles: true, cancelable: true });
    canvas.dispatchEvent(dblclick);
    expect(dblclick.defaultPrevented).toBe(true);
    vi.advanceTimersByTime(DOUBLE_CLICK_MS * 2);
    expect(target.tap).not.toHaveBeenCalled();
    expect(target.zoomStep).toHaveBeenCalledTimes(1);
    expect(target.zoomStep).toHaveBeenCalledWith(1, { x: 102, y: 101 });
  });

  it('two slow clicks are two taps, and two quick clicks far apart are two taps', () => {
    vi.useFakeTimers();
    const { target, click } = setup();
    click(110, 120);
    vi.advanceTimersByTime(DOUBLE_CLICK_MS + 10);
    click(110, 120);
    vi.advanceTimersByTime(DOUBLE_CLICK_MS + 10);
    expect(target.tap).toHaveBeenCalledTimes(2);
    click(110, 120);
    vi.advanceTimersByTime(50);
    click(400, 320);
    // The first tap acts at once when another begins elsewhere; the second waits for its own double.
    expect(target.tap).toHaveBeenLastCalledWith(100, 100);
    vi.advanceTimersByTime(DOUBLE_CLICK_MS);
    expect(target.tap).toHaveBeenLastCalledWith(390, 300);
    expect(target.tap).toHaveBeenCalledTimes(4);
    expect(target.zoomStep).not.toHaveBeenCalled();
  });

  it('forgets a waiting tap when detached', () => {
    vi.useFakeTimers();
    const { target, click } = setup();
    click(110, 120);
    cleanups.pop()!();
    vi.advanceTimersByTime(DOUBLE_CLICK_MS * 2);
    expect(target.tap).not.toHaveBeenCalled();
  });
});

describe('map input gestures and keys', () => {
  it('pinches with two fingers and never taps', () => {
    const { canvas, target } = setup();
    canvas.dispatchEvent(pointer('pointerdown', { pointerType: 'touch', pointerId: 1, clientX: 110, clientY: 120 }));
    canvas.dispatchEvent(pointer('pointerdown', { pointerType: 'touch', pointerId: 2, clientX: 210, clientY: 120 }));
    canvas.dispatchEvent(pointer('pointermove', { pointerType: 'touch', pointerId: 2, clientX: 310, clientY: 120 }));
    expect(target.pinch).toHaveBeenCalledWith(
      { midpoint: { x: 150, y: 100 }, distance: 100 },
      { midpoint: { x: 200, y: 100 }, distance: 200 },
    );
    canvas.dispatchEvent(pointer('pointerup', { pointerType: 'touch', pointerId: 2, clientX: 310, clientY: 120 }));
    canvas.dispatchEvent(pointer('pointerup', { pointerType: 'touch', pointerId: 1, clientX: 110, clientY: 120 }));
    expect(target.tap).not.toHaveBeenCalled();
  });

  it('zooms with the wheel about the cursor and keeps the page from scrolling or zooming', () => {
    const { canvas, target } = setup();
    const wheel = new WheelEvent('wheel', { deltaY: -100, clientX: 410, clientY: 320, bubbles: true, cancelable: true });
    canvas.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(true);
    const [factor, x, y] = target.zoomAt.mock.calls[0] ?? [];
    expect(factor).toBeGreaterThan(1);
    expect([x, y]).toEqual([400, 300]);
    const ctrlWheel = new WheelEvent('wheel', { deltaY: 10, ctrlKey: true, bubbles: true, cancelable: true });
    canvas.dispatchEvent(ctrlWheel);
    expect(ctrlWheel.defaultPrevented).toBe(true);
  });

  it('takes over ctrl +/-/0 while the pointer is over the map, and only then', () => {
    const { canvas, target } = setup();
    const outside = new KeyboardEvent('keydown', { key: '+', ctrlKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(outside);
    expect(outside.defaultPrevented).toBe(false);
    canvas.dispatchEvent(new PointerEvent('pointerenter', { pointerType: 'mouse' }));
    for (const key of ['+', '-', '0']) {
      const event = new KeyboardEvent('keydown', { key, ctrlKey: true, bubbles: true, cancelable: true });
      window.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(true);
    }
    expect(target.zoomStep).toHaveBeenCalledWith(1);
    expect(target.zoomStep).toHaveBeenCalledWith(-1);
    expect(target.resetView).toHaveBeenCalled();
  });

  it('blocks multi-touch page zoom over the map', () => {
    const { canvas } = setup();
    const touchMove = new Event('touchmove', { bubbles: true, cancelable: true });
    Object.defineProperty(touchMove, 'touches', { value: [{}, {}] });
    canvas.dispatchEvent(touchMove);
    expect(touchMove.defaultPrevented).toBe(true);
  });

  it('gives keyboard users pan, zoom, reset and activate', () => {
    const { canvas, target } = setup();
    const press = (key: string) => {
      const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true });
      canvas.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(press('ArrowLeft')).toBe(true);
    expect(target.panBy).toHaveBeenCalledWith(KEY_PAN_PX, 0);
    press('ArrowDown');
    expect(target.panBy).toHaveBeenCalledWith(0, -KEY_PAN_PX);
    press('+');
    press('-');
    press('0');
    press('Enter');
    expect(target.zoomStep).toHaveBeenCalledWith(1);
    expect(target.zoomStep).toHaveBeenCalledWith(-1);
    expect(target.resetView).toHaveBeenCalled();
    expect(target.activateCenter).toHaveBeenCalled();
    expect(press('a')).toBe(false);
  });

  it('stops a running animation before a key starts its own (reset must not be cancelled by itself)', () => {
    const { canvas, target } = setup();
    const order: string[] = [];
    target.interactionStarted.mockImplementation(() => void order.push('interactionStarted'));
    target.resetView.mockImplementation(() => void order.push('resetView'));
    canvas.dispatchEvent(new KeyboardEvent('keydown', { key: '0', bubbles: true, cancelable: true }));
    expect(order).toEqual(['interactionStarted', 'resetView']);
  });

  it('stops listening when detached', () => {
    const { canvas, target } = setup();
    cleanups.pop()!();
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -100, bubbles: true, cancelable: true }));
    expect(target.zoomAt).not.toHaveBeenCalled();
  });
});

describe('input helpers', () => {
  it('normalises wheel deltas in lines and pages', () => {
    expect(wheelZoomFactor({ deltaY: -3, deltaMode: 1, ctrlKey: false }, 800)).toBeCloseTo(
      wheelZoomFactor({ deltaY: -48, deltaMode: 0, ctrlKey: false }, 800),
    );
    expect(wheelZoomFactor({ deltaY: 100, deltaMode: 0, ctrlKey: false }, 800)).toBeLessThan(1);
  });

  it('recognises the browser zoom shortcuts', () => {
    expect(pageZoomShortcut({ key: '=', ctrlKey: true, metaKey: false })).toBe('in');
    expect(pageZoomShortcut({ key: '-', ctrlKey: false, metaKey: true })).toBe('out');
    expect(pageZoomShortcut({ key: '0', ctrlKey: true, metaKey: false })).toBe('reset');
    expect(pageZoomShortcut({ key: '+', ctrlKey: false, metaKey: false })).toBeNull();
  });

  it('ignores keys the map does not use', () => {
    expect(handleMapKey('Tab', {} as MapInputTarget)).toBe(false);
  });
});
