import { NAVIGATE_TO_REGION_EVENT } from '@pixel-atlas/contracts/regions';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client.ts';
import { AtlasMap } from './AtlasMap.tsx';
import { revealMapTile } from './map-reveal.ts';
import { engines, lastEngine } from '../../test/engine-recorder.ts';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { creatorCoast as region, landLayout } from '../../test/map-fixtures.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';

vi.mock('../engine/engine.ts', () => import('../../test/engine-recorder.ts').then((recorder) => recorder.recordingEngineModule));

const layout = landLayout({ zoneValue: region.value, zoneName: region.name, regions: [region] });

function renderMap(ui: ReactNode) {
  const queryClient = createQueryClient();
  return render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
}

function setViewportWidth(width: number, coarse = false) {
  Object.defineProperty(window, 'innerWidth', { value: width, configurable: true });
  const matches = (query: string) => {
    const minWidth = /min-width:\s*(\d+)px/.exec(query);
    return minWidth ? width >= Number(minWidth[1]) : coarse && query.includes('coarse');
  };
  window.matchMedia = ((query: string) => ({
    matches: matches(query),
    media: query,
    addEventListener() {},
    removeEventListener() {},
  })) as unknown as typeof window.matchMedia;
}

describe('AtlasMap', () => {
  beforeEach(() => {
    setViewportWidth(1280);
  });

  it('creates the engine once and feeds it layout and plots through setters', () => {
    const plots = [{ id: 'p1', x: 1, y: 1, tier: 'basic' as const, display_name: 'Ada', avatar_url: '' }];
    const { rerender } = renderMap(<AtlasMap layout={layout} plots={plots} />);
    expect(engines).toHaveLength(1);
    const { engine } = lastEngine();
    expect(engine.setLayout).toHaveBeenLastCalledWith(layout);
    expect(engine.setPlots).toHaveBeenLastCalledWith(plots);
    rerender(
      <QueryClientProvider client={createQueryClient()}>
        <AtlasMap layout={layout} plots={[]} />
      </QueryClientProvider>,
    );
    expect(engines).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Find Plots (0)' })).toBeTruthy();
  });

  it("fetches the layout and shows 'Map not available' when there is none", async () => {
    const gateway = fakeGateway({
      'GET /api/map-layout': [() => jsonResponse({ error: { code: 'MAP_NOT_AVAILABLE', message: 'No map' } }, { status: 404 })],
      [PLOT_LIST_ROUTE]: [() => plotListResponse([])],
    });
    renderMap(<AtlasMap />);
    expect(screen.getByText('Loading the atlas…')).toBeTruthy();
    expect(await screen.findByText('Map not available')).toBeTruthy();
    expect(gateway.countOf('GET /api/map-layout')).toBe(1);
    expect(screen.queryByRole('button', { name: 'Zoom in' })).toBeNull();
  });

  it('flies to a region when navigateToRegion is raised', () => {
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    act(() => {
      window.dispatchEvent(new CustomEvent(NAVIGATE_TO_REGION_EVENT, { detail: { x: 60, y: 24, zoom: 1.2, regionName: 'Creator Coast' } }));
    });
    expect(lastEngine().engine.flyTo).toHaveBeenCalledWith(60, 24, 1.2, { size: 1 });
    // Find Plots sends its plot's footprint along, so the whole plot lands clear of the panels.
    act(() => {
      window.dispatchEvent(
        new CustomEvent(NAVIGATE_TO_REGION_EVENT, { detail: { x: 31.5, y: 41.5, zoom: 1.5, regionName: 'Ada', size: 4 } }),
      );
    });
    expect(lastEngine().engine.flyTo).toHaveBeenLastCalledWith(31.5, 41.5, 1.5, { size: 4 });
  });

  it('keeps a tile a dialog asks for clear of that dialog and of its own panels', async () => {
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    const { engine } = lastEngine();
    const dialog = document.createElement('div');
    document.body.append(dialog);
    act(() => revealMapTile({ x: 12, y: 14, size: 2, besides: dialog }));
    await waitFor(() => expect(engine.revealTile).toHaveBeenCalledWith(12, 14, 2));
    // The occluded rects were measured just before, the dialog among the elements measured.
    expect(engine.setOccludedRects).toHaveBeenCalled();
    dialog.remove();
  });

  it('does nothing for water, selects empty land with the pin, and hands plots to onPlotClick', () => {
    const onLandTileClick = vi.fn();
    const onPlotClick = vi.fn();
    renderMap(<AtlasMap layout={layout} plots={[]} onLandTileClick={onLandTileClick} onPlotClick={onPlotClick} selectedTier="prime" />);
    const { options, engine } = lastEngine();
    act(() => options.onTileClick!({ x: 2, y: 3, isLand: false, plot: null }));
    expect(onLandTileClick).not.toHaveBeenCalled();
    expect(engine.setSelectedTile).not.toHaveBeenCalledWith({ x: 2, y: 3 }, expect.anything());
    act(() => options.onTileClick!({ x: 5, y: 6, isLand: true, plot: null }));
    expect(onLandTileClick).toHaveBeenCalledWith({ x: 5, y: 6 });
    expect(engine.setSelectedTile).toHaveBeenCalledWith({ x: 5, y: 6 }, 'prime');
    const plot = { id: 'p', x: 7, y: 7, tier: 'basic' as const, display_name: 'Ada', avatar_url: '' };
    act(() => options.onTileClick!({ x: 7, y: 7, isLand: true, plot }));
    expect(onPlotClick).toHaveBeenCalledWith(plot);
  });

  it('shows the region card on label hover and closes it with Escape', () => {
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    const { options } = lastEngine();
    act(() => options.onRegionLabelHover!(region, { x: 200, y: 100 }));
    expect(screen.getByRole('heading', { name: 'Creator Coast' })).toBeTruthy();
    expect(screen.getByText('YouTubers and podcasters.')).toBeTruthy();
    expect(screen.getByText('Algorithm Reef')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByRole('heading', { name: 'Creator Coast' })).toBeNull();
  });

  it('controls drive the engine', () => {
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    const { engine } = lastEngine();
    fireEvent.click(screen.getByRole('button', { name: 'Zoom in' }));
    fireEvent.click(screen.getByRole('button', { name: 'Zoom out' }));
    fireEvent.click(screen.getByRole('button', { name: 'Reset view' }));
    expect(engine.zoomIn).toHaveBeenCalled();
    expect(engine.zoomOut).toHaveBeenCalled();
    expect(engine.resetView).toHaveBeenCalled();
  });

  it('shows the desktop hint on desktop', () => {
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(screen.getByText('Click and drag to explore • Scroll to zoom')).toBeTruthy();
    expect(screen.queryByText('Touch Controls')).toBeNull();
    expect(lastEngine().options.isTouch).toBe(false);
  });

  it('opens the regions menu on a desktop and keeps it collapsed on a phone', () => {
    const { unmount } = renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(screen.getByRole('button', { name: /ATLAS REGIONS/ }).getAttribute('aria-expanded')).toBe('true');
    unmount();
    setViewportWidth(390, true);
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(screen.getByRole('button', { name: /ATLAS REGIONS/ }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('button', { name: 'Creator Coast' })).toBeNull();
  });

  it('retires the touch guide at the first gesture on the map, for the rest of the session', () => {
    setViewportWidth(390, true);
    const { unmount } = renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(screen.getByText('Touch Controls')).toBeTruthy();
    act(() => lastEngine().options.onInteraction!());
    expect(screen.queryByText('Touch Controls')).toBeNull();
    expect(screen.getByRole('button', { name: /More content below/ })).toBeTruthy();
    unmount();
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(screen.queryByText('Touch Controls')).toBeNull();
  });

  it('shows the dismissible touch guide and the more-content button on touch devices', () => {
    setViewportWidth(390, true);
    renderMap(<AtlasMap layout={layout} plots={[]} />);
    expect(lastEngine().options.isTouch).toBe(true);
    expect(screen.getByText('Touch Controls')).toBeTruthy();
    expect(screen.getByText('Pinch to zoom')).toBeTruthy();
    expect(screen.getByText('Tap tiles to claim or view')).toBeTruthy();
    expect(screen.getByRole('button', { name: /More content below/ })).toBeTruthy();
    expect(screen.queryByText('Click and drag to explore • Scroll to zoom')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss touch controls' }));
    expect(screen.queryByText('Touch Controls')).toBeNull();
  });

  it('destroys the engine on unmount', () => {
    const { unmount } = renderMap(<AtlasMap layout={layout} plots={[]} />);
    unmount();
    expect(lastEngine().engine.destroy).toHaveBeenCalled();
  });
});
