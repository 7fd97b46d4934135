import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MapControls } from './MapControls.tsx';
import { advanceTimers } from '../../test/advance-timers.ts';

function renderControls() {
  const handlers = { onZoomIn: vi.fn(), onZoomOut: vi.fn(), onResetView: vi.fn() };
  render(<MapControls {...handlers} />);
  return handlers;
}

describe('MapControls', () => {
  const vibrate = vi.fn();
  beforeEach(() => {
    vibrate.mockReset();
    Object.defineProperty(navigator, 'vibrate', { value: vibrate, configurable: true });
  });
  afterEach(() => {
    vi.useRealTimers();
    Reflect.deleteProperty(navigator, 'vibrate');
  });

  it('has four labelled buttons of at least 44 px', () => {
    renderControls();
    for (const name of ['Zoom in', 'Zoom out', 'Reset view', 'Fit all']) {
      expect(screen.getByRole('button', { name }).className).toMatch(/size-12/);
    }
  });

  it('zoom in, zoom out and reset call the map and vibrate 50 ms', () => {
    const handlers = renderControls();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset view' }));
    expect(handlers.onZoomIn).toHaveBeenCalledTimes(1);
    expect(handlers.onZoomOut).toHaveBeenCalledTimes(1);
    expect(handlers.onResetView).toHaveBeenCalledTimes(1);
    expect(vibrate).toHaveBeenCalledTimes(3);
    expect(vibrate).toHaveBeenCalledWith(50);
  });

  it('still works where the device cannot vibrate', () => {
    Reflect.deleteProperty(navigator, 'vibrate');
    const handlers = renderControls();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(handlers.onZoomIn).toHaveBeenCalled();
  });

  it('fit all resets, then zooms out after 100 ms and again 50 ms later', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handlers = renderControls();
    fireEvent.click(screen.getByRole('button', { name: 'Fit all' }));
    expect(handlers.onResetView).toHaveBeenCalledTimes(1);
    expect(handlers.onZoomOut).not.toHaveBeenCalled();
    advanceTimers(99);
    expect(handlers.onZoomOut).not.toHaveBeenCalled();
    advanceTimers(1);
    expect(handlers.onZoomOut).toHaveBeenCalledTimes(1);
    advanceTimers(49);
    expect(handlers.onZoomOut).toHaveBeenCalledTimes(1);
    advanceTimers(1);
    expect(handlers.onZoomOut).toHaveBeenCalledTimes(2);
    expect(vibrate).not.toHaveBeenCalled();
  });

  it('cancels a pending fit-all when unmounted', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const handlers = { onZoomIn: vi.fn(), onZoomOut: vi.fn(), onResetView: vi.fn() };
    const { unmount } = render(<MapControls {...handlers} />);
    fireEvent.click(screen.getByRole('button', { name: 'Fit all' }));
    unmount();
    vi.advanceTimersByTime(500);
    expect(handlers.onZoomOut).not.toHaveBeenCalled();
  });
});
