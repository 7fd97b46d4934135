import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ZOOM_STEP, type MapEngineOptions } from './engine.ts';
import type { MapPlot } from './plot-index.ts';
import { fakeFrames, recordingContext } from './test-doubles.ts';
import { mountEngine } from './test-engine.ts';

/** 90x90 world: land in [10, 80)², region 1 west of x = 45 and region 2 east of it. */
const tiles: MapTile[] = Array.from({ length: 8100 }, (_, index) => {
  const x = index % 90;
  const y = Math.floor(index / 90);
  const land = x >= 10 && x < 80 && y >= 10 && y < 80;
  const zone = x < 45 ? 1 : 2;
  return { x, y, is_land: land, zone_value: land ? zone : 0, zone_name: land ? `Region ${zone}` : 'Water' };
});
const regions: Region[] = [
  { value: 1, name: 'West Realm', focus: { x: 30, y: 30 }, audience: 'a', description: 'd', notableLocations: ['1', '2', '3', '4'] },
  { value: 2, name: 'East Realm', focus: { x: 60, y: 60 }, audience: 'a', description: 'd', notableLocations: ['1', '2', '3', '4'] },
];
const plots: MapPlot[] = [{ id: 'premium-1', x: 44, y: 44, tier: 'premium', display_name: 'Monument', avatar_url: '/a.png' }];

function setup(options: Partial<MapEngineOptions> = {}) {
  const onFrameDrawn = vi.fn();
  const mounted = mountEngine({ onFrameDrawn, ...options });
  const settle = () => {
    for (let i = 0; i < 200 && mounted.frames.pending() > 0; i++) mounted.frames.step(16);
  };
  return { ...mounted, onFrameDrawn, settle };
}

describe('map engine', () => {
  it('starts centred at the desktop initial zoom', () => {
    const { engine } = setup();
    expect(engine.getView()).toMatchObject({ centerX: 45, centerY: 45, zoom: 0.45, lod: 'mid' });
    expect(engine.limits).toEqual({ initial: 0.45, min: 0.05, max: 8 });
  });

  it('draws once per change and never when nothing changed', () => {
    const { engine, frames, onFrameDrawn } = setup();
    const afterResize = onFrameDrawn.mock.calls.length;
    expect(frames.pending()).toBe(0);
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    expect(frames.pending()).toBe(1);
    frames.step();
    expect(onFrameDrawn).toHaveBeenCalledTimes(afterResize + 1);
    frames.step();
    frames.step();
    expect(onFrameDrawn).toHaveBeenCalledTimes(afterResize + 1);
    expect(frames.pending()).toBe(0);
  });

  it('takes the layout and plots it already shows as no change (an engine taken over keeps its picture)', () => {
    const { engine, frames, onFrameDrawn, surfaces } = setup();
    const layout = { tiles, regions };
    engine.setLayout(layout);
    engine.setPlots(plots);
    for (let i = 0; i < 30; i++) frames.step(16);
    const drawn = onFrameDrawn.mock.calls.length;
    const surfacesMade = surfaces.created.length;
    engine.setLayout(layout);
    engine.setPlots(plots);
    expect(frames.pending()).toBe(0);
    frames.step(16);
    expect(onFrameDrawn).toHaveBeenCalledTimes(drawn);
    expect(surfaces.created.length).toBe(surfacesMade);
  });

  it('pre-renders terrain into offscreen chunks once, then only copies them', () => {
    const { engine, frames, surfaces, ctx } = setup();
    const terrainChunks = () => surfaces.created.filter((surface) => surface.context.calls.some((call) => call.name === 'putImageData'));
    engine.setLayout({ tiles, regions });
    frames.step();
    const chunkCount = terrainChunks().length;
    expect(chunkCount).toBeGreaterThan(0);
    const copiesBefore = ctx.calls.filter((call) => call.name === 'drawImage').length;
    engine.zoomIn();
    for (let i = 0; i < 30; i++) frames.step();
    expect(terrainChunks().length).toBe(chunkCount);
    expect(terrainChunks().every((surface) => surface.context.calls.filter((call) => call.name === 'putImageData').length === 1)).toBe(
      true,
    );
    expect(ctx.calls.filter((call) => call.name === 'drawImage').length).toBeGreaterThan(copiesBefore);
    expect(ctx.imageSmoothingEnabled).toBe(false);
  });

  it('hit-tests tiles and plot footprints', () => {
    const { engine } = setup();
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    expect(engine.tileAt(400, 300)).toEqual({ x: 45, y: 45 });
    expect(engine.plotAt(47, 47)?.id).toBe('premium-1');
    expect(engine.plotAt(48, 47)).toBeNull();
  });

  it('reports clicks with land, water and plot information', () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const onTileClick = vi.fn();
    const { engine, click } = setup({ onTileClick, prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    click(400, 300);
    expect(onTileClick).toHaveBeenLastCalledWith({ x: 45, y: 45, isLand: true, plot: plots[0] });
    engine.flyTo(20, 20, 1);
    click(400, 300);
    expect(onTileClick).toHaveBeenLastCalledWith({ x: 20, y: 20, isLand: true, plot: null });
    engine.flyTo(5, 5, 1);
    click(400, 300);
    expect(onTileClick).toHaveBeenLastCalledWith({ x: 5, y: 5, isLand: false, plot: null });
  });

  it('flies to a tile over several frames and stops asking for frames once there', () => {
    const { engine, frames, onFrameDrawn } = setup();
    engine.setLayout({ tiles, regions });
    frames.step();
    const before = onFrameDrawn.mock.calls.length;
    engine.flyTo(60, 60, 1.2);
    frames.step(100);
    const midway = engine.getView();
    expect(midway.centerX).toBeGreaterThan(45);
    expect(midway.centerX).toBeLessThan(60.5);
    for (let i = 0; i < 60; i++) frames.step(16);
    expect(engine.getView()).toMatchObject({ centerX: 60.5, centerY: 60.5, zoom: 1.2 });
    expect(onFrameDrawn.mock.calls.length - before).toBeGreaterThan(5);
    expect(frames.pending()).toBe(0);
  });

  it('steps zoom by a fixed factor, composes steps, and resets to the initial view', () => {
    const { engine, settle } = setup();
    engine.zoomIn();
    engine.zoomIn();
    settle();
    expect(engine.getView().zoom).toBeCloseTo(0.45 * ZOOM_STEP * ZOOM_STEP);
    engine.resetView();
    engine.zoomOut();
    settle();
    expect(engine.getView().zoom).toBeCloseTo(0.45 / ZOOM_STEP);
    expect(engine.getView().centerX).toBeCloseTo(45);
  });
});

describe('map engine far view, hover and lifecycle', () => {
  it('draws the far view from one composited bitmap of terrain and plot markers', () => {
    const { engine, ctx, surfaces, settle } = setup({ prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    engine.flyTo(45, 45, 0.1);
    settle();
    expect(engine.getView().lod).toBe('far');
    const composite = surfaces.created.find((surface) => surface.context.calls.some((call) => call.name === 'rect'));
    expect(composite).toBeDefined();
    // The composite is cut into the cached layer tiles, and the frame copies those.
    const tilesOfComposite = surfaces.created.filter((surface) =>
      surface.context.calls.some((call) => call.name === 'drawImage' && call.args[0] === (composite as unknown)),
    );
    expect(tilesOfComposite.length).toBeGreaterThan(0);
    expect(ctx.calls.some((call) => call.name === 'drawImage' && tilesOfComposite.includes(call.args[0] as never))).toBe(true);
    expect(ctx.calls.some((call) => call.name === 'rect')).toBe(false);
  });

  it('reports hovering a region label and a plot', () => {
    const onRegionLabelHover = vi.fn();
    const onPlotHover = vi.fn();
    const { engine, canvas, settle } = setup({ onRegionLabelHover, onPlotHover, prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    engine.flyTo(30, 30, 1);
    settle();
    canvas.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', clientX: 400, clientY: 300, bubbles: true }));
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(regions[0], expect.objectContaining({ x: 400 }));
    canvas.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', clientX: 10, clientY: 10, bubbles: true }));
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(null, expect.anything());
    engine.flyTo(45, 45, 1);
    settle();
    canvas.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', clientX: 400, clientY: 300, bubbles: true }));
    expect(onPlotHover).toHaveBeenLastCalledWith(plots[0], { x: 400, y: 300 });
  });

  it('gives a tap on land under a region label to the tile, and a tap on a label over water to the label', () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    const onTileClick = vi.fn();
    const onRegionLabelHover = vi.fn();
    const waterRegions: Region[] = [...regions, { ...regions[1]!, value: 3, name: 'Sea Realm', focus: { x: 4, y: 4 } }];
    const { engine, click, settle } = setup({ onTileClick, onRegionLabelHover, prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions: waterRegions });
    engine.flyTo(30, 30, 1);
    settle();
    click(400, 300);
    expect(onTileClick).toHaveBeenLastCalledWith(expect.objectContaining({ x: 30, y: 30, isLand: true }));
    expect(onRegionLabelHover).not.toHaveBeenCalledWith(regions[0], expect.anything());
    engine.flyTo(4, 4, 1);
    settle();
    onTileClick.mockClear();
    click(400, 300);
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(waterRegions[2], expect.anything());
    expect(onTileClick).not.toHaveBeenCalled();
  });

  it('keeps animating only while the selected-tile pin bounces', () => {
    const { engine, frames } = setup();
    engine.setLayout({ tiles, regions });
    frames.step();
    engine.setSelectedTile({ x: 45, y: 45 }, 'prime');
    frames.step(16);
    expect(frames.pending()).toBe(1);
    for (let i = 0; i < 200 && frames.pending() > 0; i++) frames.step(16);
    expect(frames.pending()).toBe(0);
  });

  it('stops drawing and listening after destroy', () => {
    const onTileClick = vi.fn();
    const { engine, frames, click } = setup({ onTileClick });
    engine.setLayout({ tiles, regions });
    engine.destroy();
    frames.step();
    click(400, 300);
    expect(onTileClick).not.toHaveBeenCalled();
    expect(frames.pending()).toBe(0);
  });
});

/** The map canvas, an overlay canvas, everything recorded; settled on plots at zoom 1, label 'West Realm' centred. */
function setupLayers(options: Partial<MapEngineOptions> = {}) {
  const overlay = document.createElement('canvas');
  const overlayCtx = recordingContext();
  overlay.getContext = (() => overlayCtx) as unknown as HTMLCanvasElement['getContext'];
  const onRegionLabelHover = vi.fn();
  const harness = setup({ overlay, onRegionLabelHover, prefersReducedMotion: () => true, ...options });
  harness.engine.setLayout({ tiles, regions });
  harness.engine.setPlots(plots);
  harness.engine.flyTo(30, 30, 1);
  harness.settle();
  /** Everything painted into offscreen layers so far (terrain chunks, world tiles, label sprites). */
  const layerCalls = () => harness.surfaces.created.reduce((sum, surface) => sum + surface.context.calls.length, 0);
  const plotPaints = () =>
    harness.surfaces.created.reduce((sum, surface) => sum + surface.context.calls.filter((call) => call.name === 'rect').length, 0);
  const move = (x: number, y: number) => harness.pointer('pointermove', x, y);
  return { ...harness, overlayCtx, onRegionLabelHover, layerCalls, plotPaints, move };
}

describe('map engine layers', () => {
  it('repaints only the overlay when the hovered label changes', () => {
    const { ctx, overlayCtx, frames, onRegionLabelHover, layerCalls, move } = setupLayers();
    expect(frames.pending()).toBe(0);
    const mapCalls = ctx.calls.length;
    const cached = layerCalls();
    move(400, 300);
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(regions[0], expect.anything());
    frames.step();
    expect(overlayCtx.calls.some((call) => call.name === 'fillText' && call.args[0] === 'West Realm')).toBe(true);
    move(10, 10);
    frames.step();
    expect(overlayCtx.calls.some((call) => call.name === 'clearRect')).toBe(true);
    expect(ctx.calls.length).toBe(mapCalls);
    expect(layerCalls()).toBe(cached);
    expect(frames.pending()).toBe(0);
  });

  it('pans by re-blitting the cached layers, without painting a plot again', () => {
    const { engine, ctx, frames, surfaces, layerCalls, pointer } = setupLayers({ isTouch: false });
    engine.flyTo(45, 45, 1);
    for (let i = 0; i < 30; i++) frames.step(16);
    const created = surfaces.created.length;
    const cached = layerCalls();
    const blits = ctx.calls.filter((call) => call.name === 'drawImage').length;
    const mapCalls = ctx.calls.length;
    pointer('pointerdown', 400, 300);
    pointer('pointermove', 412, 306);
    frames.step();
    pointer('pointermove', 424, 312);
    frames.step();
    pointer('pointerup', 424, 312);
    expect(engine.getView().centerX).toBeLessThan(45.5);
    expect(ctx.calls.filter((call) => call.name === 'drawImage').length).toBeGreaterThan(blits);
    expect(surfaces.created.length).toBe(created);
    expect(layerCalls()).toBe(cached);
    // No stand-in terrain either: every tile in view was cached.
    expect(ctx.calls.slice(mapCalls).some((call) => call.name === 'rect' || call.name === 'clip')).toBe(false);
  });

  it("slices a layout's first paint over frames on a slow device: a few terrain chunks per frame, then the tiles", () => {
    // Every clock read costs 4 ms: a frame's 5 ms slice holds about one piece of work.
    const slow = fakeFrames();
    let elapsed = 0;
    const { engine, surfaces } = setup({ frames: { ...slow.deps, now: () => (elapsed += 4) } });
    const chunksBuilt = () =>
      surfaces.created.filter((surface) => surface.context.calls.some((call) => call.name === 'putImageData')).length;
    const tilesBuilt = () => surfaces.created.filter((surface) => surface.width === 512 || surface.height === 512).length;
    engine.setLayout({ tiles, regions });
    engine.setPlots(plots);
    const perFrame: Array<{ chunks: number; tiles: number }> = [];
    for (let i = 0; i < 100 && slow.pending() > 0; i++) {
      const before = { chunks: chunksBuilt(), tiles: tilesBuilt() };
      slow.step(16);
      perFrame.push({ chunks: chunksBuilt() - before.chunks, tiles: tilesBuilt() - before.tiles });
    }
    expect(slow.pending()).toBe(0);
    expect(perFrame.length).toBeGreaterThan(3);
    // No frame does more than a slice's worth (one unit, and the one that ran the slice over).
    for (const frame of perFrame) expect(frame.chunks + frame.tiles).toBeLessThanOrEqual(2);
    // The terrain first, then the tiles built from it, and the whole view in the end.
    const firstTileFrame = perFrame.findIndex((frame) => frame.tiles > 0);
    expect(perFrame.slice(0, firstTileFrame).every((frame) => frame.chunks > 0)).toBe(true);
    expect(tilesBuilt()).toBeGreaterThan(1);
  });

  it('builds one tile per frame when a pan outruns the cache, with terrain standing in for the rest', () => {
    const { engine, ctx, frames, surfaces, pointer } = setupLayers();
    engine.flyTo(45, 45, 1);
    for (let i = 0; i < 30; i++) frames.step(16);
    expect(frames.pending()).toBe(0);
    // Layer tiles, not terrain chunks (a chunk is uploaded with putImageData the moment it is made).
    const layerTiles = () =>
      surfaces.created.filter((surface) => !surface.context.calls.some((call) => call.name === 'putImageData')).length;
    const created = layerTiles();
    pointer('pointerdown', 700, 300);
    pointer('pointermove', 690, 300);
    pointer('pointermove', 0, 300);
    pointer('pointerup', 0, 300);
    frames.step();
    expect(layerTiles()).toBe(created + 1);
    expect(ctx.calls.some((call) => call.name === 'clip')).toBe(true);
    expect(frames.pending()).toBe(1);
    for (let i = 0; i < 20 && frames.pending() > 0; i++) frames.step();
    expect(layerTiles()).toBeGreaterThan(created + 1);
    expect(frames.pending()).toBe(0);
  });

  it('rebuilds the layer tiles when the plots change', () => {
    const { engine, frames, plotPaints } = setupLayers();
    const before = plotPaints();
    engine.setPlots([...plots, { id: 'basic-1', x: 31, y: 31, tier: 'basic', display_name: 'New', avatar_url: '' }]);
    frames.step();
    expect(plotPaints()).toBeGreaterThan(before);
  });
});

describe('map engine layers while zooming, for data and the pin', () => {
  it('shows a moving zoom by scaling the last frame up on the compositor: 1:1 copies, or nothing, on the main thread', () => {
    const { engine, canvas, ctx, frames } = setupLayers();
    expect(canvas.style.transform).toBe('');
    const copies = () => ctx.calls.filter((call) => call.name === 'drawImage' && call.args.length === 9);
    const scaledCopies = () => copies().filter(({ args }) => args[3] !== args[7] || args[4] !== args[8]);
    const scaledBefore = scaledCopies().length;
    // A zoom in about the centre: the camera's zoom moves every frame, the frame it shows is drawn at most once.
    engine.flyTo(30, 30, 1.3);
    frames.step(16);
    const drawnAfterZoom = ctx.calls.length;
    expect(canvas.style.transform).toMatch(/^scale\(1\.[0-9]+\)$/);
    engine.flyTo(30, 30, 1.4);
    frames.step(16);
    expect(ctx.calls.length).toBe(drawnAfterZoom);
    const scale = Number(/scale\(([0-9.]+)\)/.exec(canvas.style.transform)?.[1]);
    expect(scale).toBeCloseTo(1.4);
    // Zooming out below the frame's zoom redraws at the bucket below (never a frame that would leave edges bare).
    engine.flyTo(30, 30, 0.9);
    frames.step(16);
    expect(Number(/scale\(([0-9.]+)\)/.exec(canvas.style.transform)?.[1])).toBeGreaterThanOrEqual(1);
    expect(scaledCopies().length).toBe(scaledBefore);
    // At rest the frame is drawn at the exact zoom and the canvas is no longer scaled.
    for (let i = 0; i < 30 && frames.pending() > 0; i++) frames.step(16);
    expect(canvas.style.transform).toBe('');
    expect(engine.getView().zoom).toBeCloseTo(0.9);
  });

  it('rebuilds the layer tiles when the zoom leaves its bucket, and re-renders them exactly once it rests', () => {
    const { engine, frames, surfaces } = setupLayers();
    const created = surfaces.created.length;
    engine.zoomIn();
    frames.step(16);
    const duringZoom = surfaces.created.length;
    expect(duringZoom).toBeGreaterThan(created);
    // Still asking for frames: the tiles are the bucket's, not the exact zoom's yet.
    expect(frames.pending()).toBe(1);
    for (let i = 0; i < 30 && frames.pending() > 0; i++) frames.step(16);
    expect(surfaces.created.length).toBeGreaterThan(duringZoom);
    expect(frames.pending()).toBe(0);
  });

  it('repaints the world, not the overlay, for a data change while nothing is on the overlay', () => {
    const { engine, ctx, overlayCtx, frames } = setupLayers();
    const overlayCalls = overlayCtx.calls.length;
    const mapCalls = ctx.calls.length;
    engine.setPlots([]);
    frames.step();
    expect(ctx.calls.length).toBeGreaterThan(mapCalls);
    expect(overlayCtx.calls.length).toBe(overlayCalls);
  });

  it('draws the pin on the overlay and keeps the map canvas still while it bounces', () => {
    const { engine, ctx, overlayCtx, frames } = setupLayers({ prefersReducedMotion: () => false });
    const mapCalls = ctx.calls.length;
    engine.setSelectedTile({ x: 30, y: 30 }, 'prime');
    for (let i = 0; i < 200 && frames.pending() > 0; i++) frames.step(16);
    expect(overlayCtx.calls.filter((call) => call.name === 'arc').length).toBeGreaterThan(10);
    expect(ctx.calls.length).toBe(mapCalls);
    expect(frames.pending()).toBe(0);
  });
});

describe('map engine beside the page chrome', () => {
  /** Screen position (canvas px, 800×600) of tile (x, y)'s centre in the current view. */
  function screenOfTile(engine: { getView(): { centerX: number; centerY: number; zoom: number } }, x: number, y: number) {
    const view = engine.getView();
    return { x: 400 + (x + 0.5 - view.centerX) * 48 * view.zoom, y: 300 + (y + 0.5 - view.centerY) * 48 * view.zoom };
  }

  it('leaves out region labels under an occluded rect, and brings them back when it goes', () => {
    const onRegionLabelHover = vi.fn();
    const { engine, canvas, settle } = setup({ onRegionLabelHover, prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.flyTo(30, 30, 1);
    settle();
    const hoverCentre = () =>
      canvas.dispatchEvent(new PointerEvent('pointermove', { pointerType: 'mouse', clientX: 400, clientY: 300, bubbles: true }));
    hoverCentre();
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(regions[0], expect.anything());

    engine.setOccludedRects([{ x: 380, y: 200, width: 300, height: 80 }]);
    settle();
    hoverCentre();
    // The label's plate (centred on 400, 300, about 20 px high) clears a panel that ends above it...
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(regions[0], expect.anything());
    // ...and is neither drawn nor hoverable under one that reaches over it.
    engine.setOccludedRects([{ x: 380, y: 250, width: 300, height: 80 }]);
    settle();
    hoverCentre();
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(null, expect.anything());

    engine.setOccludedRects([]);
    settle();
    hoverCentre();
    expect(onRegionLabelHover).toHaveBeenLastCalledWith(regions[0], expect.anything());
  });

  it('flies a plot to the centre when nothing covers it there, else into the clear part of the map', () => {
    const { engine, settle } = setup({ prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.setOccludedRects([{ x: 0, y: 0, width: 120, height: 60 }]);
    engine.flyTo(60, 60, 1.5);
    settle();
    expect(engine.getView()).toMatchObject({ centerX: 60.5, centerY: 60.5, zoom: 1.5 });

    // An open side panel over the left half: a 2×2 plot lands in the right half, whole.
    engine.setOccludedRects([{ x: 0, y: 0, width: 420, height: 600 }]);
    engine.flyTo(30.5, 30.5, 1.5, { size: 2 });
    settle();
    const topLeft = screenOfTile(engine, 30, 30);
    expect(engine.getView().zoom).toBe(1.5);
    expect(topLeft.x - 36).toBeGreaterThanOrEqual(420);
    expect(topLeft.x + 72 + 36).toBeLessThanOrEqual(800);
  });

  it('reveals a chosen tile hidden by a dialog, keeping the zoom, and leaves a visible one alone', () => {
    const { engine, settle } = setup({ prefersReducedMotion: () => true });
    engine.setLayout({ tiles, regions });
    engine.flyTo(45, 45, 1);
    settle();
    engine.setOccludedRects([{ x: 500, y: 0, width: 300, height: 600 }]);
    engine.revealTile(45, 45);
    settle();
    expect(engine.getView()).toMatchObject({ centerX: 45.5, centerY: 45.5, zoom: 1 });

    // A dialog docked over the right 60 %: the tile moves into the strip left of it.
    engine.setOccludedRects([{ x: 320, y: 0, width: 480, height: 600 }]);
    engine.revealTile(45, 45);
    settle();
    const tile = screenOfTile(engine, 45, 45);
    expect(engine.getView().zoom).toBe(1);
    expect(tile.x + 24 + 12).toBeLessThanOrEqual(320);
    expect(tile.x).toBeCloseTo(160);
  });

  it('tells when the user starts something on the map', () => {
    const onInteraction = vi.fn();
    const { canvas } = setup({ onInteraction });
    canvas.dispatchEvent(new PointerEvent('pointerdown', { pointerType: 'touch', pointerId: 3, clientX: 50, clientY: 50, bubbles: true }));
    expect(onInteraction).toHaveBeenCalledTimes(1);
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -10, bubbles: true, cancelable: true }));
    expect(onInteraction).toHaveBeenCalledTimes(2);
  });
});
