import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import { StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PLOTS_QUERY_KEY, mapLayoutQuery } from '../../api/queries.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { FLIGHT_DURATION_MS } from '../engine/fly-to.ts';
import { MapPreview, PREVIEW_NEIGHBOUR_TILES } from './MapPreview.tsx';
import { engines, lastEngine, liveEngines } from '../../test/engine-recorder.ts';
import { advanceTimers } from '../../test/advance-timers.ts';
import { landLayout } from '../../test/map-fixtures.ts';

vi.mock('../engine/engine.ts', () => import('../../test/engine-recorder.ts').then((recorder) => recorder.recordingEngineModule));

const layout = landLayout({ zoneName: 'Nexus' });
const neighbours = [{ id: 'n1', x: 10, y: 11, tier: 'basic', display_name: 'Next Door', avatar_url: '' }];

function withData(queryClient: QueryClient, ui: ReactNode) {
  return <QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>;
}

function seededClient() {
  const queryClient = createQueryClient();
  queryClient.setQueryData(mapLayoutQuery().queryKey, layout);
  queryClient.setQueryData(PLOTS_QUERY_KEY, neighbours);
  return queryClient;
}

describe('MapPreview', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('mounts one engine, feeds it the shared layout and plots, and centres the footprint with the pin on its tile', () => {
    const queryClient = seededClient();
    const { rerender } = render(withData(queryClient, <MapPreview x={12} y={20} tier="featured" label="Ada's plot on the map" />));
    expect(engines).toHaveLength(1);
    const { engine, options, canvas } = lastEngine();
    expect(engine.setLayout).toHaveBeenLastCalledWith(layout);
    expect(engine.setPlots).toHaveBeenLastCalledWith(neighbours);
    // A 2×2 footprint's centre is half a tile right and down from its top-left tile.
    const [cx, cy, zoom] = engine.flyTo.mock.lastCall!;
    expect([cx, cy]).toEqual([12.5, 20.5]);
    // Footprint plus three neighbour tiles each side fill the box's shorter side (176 px stands in under jsdom).
    expect(zoom).toBeCloseTo(176 / ((2 + 2 * PREVIEW_NEIGHBOUR_TILES) * 48), 5);
    expect(engine.setSelectedTile).toHaveBeenLastCalledWith({ x: 12, y: 20 }, 'featured');
    // A still preview: it jumps to the spot (no flight), takes no focus and lets the page scroll over it.
    expect(options.prefersReducedMotion?.()).toBe(true);
    expect(canvas.tabIndex).toBe(-1);
    expect(canvas.className).toContain('pointer-events-none');
    expect(screen.getByRole('img', { name: "Ada's plot on the map" })).toBeTruthy();

    rerender(withData(queryClient, <MapPreview x={40} y={41} tier="basic" label="Another plot" />));
    expect(engines).toHaveLength(1);
    expect(engine.flyTo.mock.lastCall!.slice(0, 2)).toEqual([40, 41]);
    expect(engine.setSelectedTile).toHaveBeenLastCalledWith({ x: 40, y: 41 }, 'basic');
  });

  it('keeps exactly one live engine under StrictMode and destroys it on unmount', () => {
    const { unmount } = render(<StrictMode>{withData(seededClient(), <MapPreview x={1} y={2} tier="basic" label="Plot" />)}</StrictMode>);
    const [live, ...others] = liveEngines();
    expect(others).toHaveLength(0);
    expect(live?.engine.flyTo).toHaveBeenCalled();
    unmount();
    expect(liveEngines()).toHaveLength(0);
  });

  it('waits for the layout before moving the camera', async () => {
    const queryClient = createQueryClient();
    queryClient.setQueryData(PLOTS_QUERY_KEY, neighbours);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    render(withData(queryClient, <MapPreview x={5} y={5} tier="basic" label="Plot" />));
    const { engine } = lastEngine();
    expect(engine.flyTo).not.toHaveBeenCalled();
    act(() => {
      queryClient.setQueryData(mapLayoutQuery().queryKey, layout);
    });
    await waitFor(() => expect(engine.flyTo).toHaveBeenCalledTimes(1));
    vi.unstubAllGlobals();
  });

  it('on arrival flies there, then drops the pin when the camera lands (its bounce)', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    window.matchMedia = ((query: string) => ({
      matches: false,
      media: query,
      addEventListener() {},
      removeEventListener() {},
    })) as unknown as typeof window.matchMedia;
    render(withData(seededClient(), <MapPreview x={30} y={31} tier="premium" label="Your new plot" arrive />));
    const { engine, options } = lastEngine();
    expect(options.prefersReducedMotion?.()).toBe(false);
    expect(engine.flyTo.mock.lastCall!.slice(0, 2)).toEqual([31.5, 32.5]);
    expect(engine.setSelectedTile).toHaveBeenLastCalledWith(null);
    advanceTimers(FLIGHT_DURATION_MS);
    expect(engine.setSelectedTile).toHaveBeenLastCalledWith({ x: 30, y: 31 }, 'premium');
  });
});
