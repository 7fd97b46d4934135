import { NAVIGATE_TO_REGION_EVENT, REGION_FOCUS_ZOOM, type Region } from '@pixel-atlas/contracts/regions';
import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useEffectEvent, useRef, useState } from 'react';
import { errorStatus } from '../../api/errors.ts';
import { plotsQuery } from '../../api/queries.ts';
import { TOUCH_GUIDE_DISMISSED_KEY } from '../../lib/storage-keys.ts';
import { useMapLayout } from '../use-map-layout.ts';
import { createMapEngine, type MapEngine, type MapLayoutInput, type ReservedFootprint, type TileClick } from '../engine/engine.ts';
import type { AtlasPlot } from './atlas-plot.ts';
import { DesktopHint, MoreContentButton, TouchGuide } from './MapHints.tsx';
import { MapControls } from './MapControls.tsx';
import { MapStatusOverlay } from './MapStatusOverlay.tsx';
import { PlotHoverCard } from './PlotHoverCard.tsx';
import { ReservedHoverCard } from './ReservedHoverCard.tsx';
import { isRevealMapTileDetail, REVEAL_MAP_TILE_EVENT } from './map-reveal.ts';
import { flightFootprintSize, isNavigateToRegionDetail } from './region-navigation.ts';
import { RegionInfoCard } from './RegionInfoCard.tsx';
import { RegionsMenu } from './RegionsMenu.tsx';
import { useMapOccluders } from './use-map-occluders.ts';
import { useTouchDevice } from './use-touch-device.ts';
import { publishCameraOn } from './publish-camera.ts';

/** Raised by the 'Find Plots' button; the Find Plots dialog (claim issue) listens for it. */
export const OPEN_FIND_PLOTS_EVENT = 'openFindPlots';

export interface AtlasMapProps {
  /** Skip fetching and show this layout (null = no map). */
  layout?: MapLayoutInput | null;
  /** Skip fetching and show these plots. */
  plots?: readonly AtlasPlot[];
  /** An empty land tile was chosen (the claim popup opens here in the claim issue). */
  onLandTileClick?: (tile: { x: number; y: number }) => void;
  /** A claimed plot was chosen (the profile popup opens here). */
  onPlotClick?: (plot: AtlasPlot) => void;
  /** Land held while someone pays or under review: hatched, with a hover text. */
  reservedFootprints?: readonly ReservedFootprint[];
  /** Reserved land was chosen: refused with its reason (the claim popup does not open). */
  onReservedTileClick?: (footprint: ReservedFootprint) => void;
  onFindPlotsClick?: () => void;
  /** Colour of the map pin on the selected tile. */
  selectedTier?: Tier;
  /** Moves the pin to this tile (e.g. an auto-assigned spot); clicks on the map still move it too. */
  selectedTile?: { x: number; y: number } | null;
}

type Anchored<T> = { item: T; anchor: { x: number; y: number } } | null;

/**
 * The full-screen map: mounts the canvas and its engine once, feeds layout and plots through the
 * engine's setters, and layers the React chrome (regions menu, controls, hints, cards) over it.
 */
export function AtlasMap({
  layout: layoutProp,
  plots: plotsProp,
  onLandTileClick,
  onPlotClick,
  onFindPlotsClick,
  selectedTier = 'basic',
  selectedTile: selectedTileProp,
  reservedFootprints = EMPTY_RESERVED,
  onReservedTileClick,
}: AtlasMapProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const engineRef = useRef<MapEngine | null>(null);
  const isTouch = useTouchDevice();
  const [regionCard, setRegionCard] = useState<Anchored<Region>>(null);
  const [plotCard, setPlotCard] = useState<Anchored<AtlasPlot>>(null);
  const [reservedCard, setReservedCard] = useState<Anchored<ReservedFootprint>>(null);
  // What the engine's pin shows, to repaint it in a new tier's colour. Not state: nothing renders it.
  const selectedTileRef = useRef<{ x: number; y: number } | null>(null);
  const selectTile = useCallback((tile: { x: number; y: number } | null, tier?: Tier) => {
    selectedTileRef.current = tile;
    engineRef.current?.setSelectedTile(tile, tier);
  }, []);
  const [touchGuideOpen, setTouchGuideOpen] = useState(() => !touchGuideDismissed());
  const dismissTouchGuide = useCallback(() => {
    setTouchGuideOpen(false);
    try {
      sessionStorage.setItem(TOUCH_GUIDE_DISMISSED_KEY, 'true');
    } catch {
      // Storage refused (private mode): it stays away for this page at least.
    }
  }, []);
  const occluders = useMapOccluders(containerRef, canvasRef, (rects) => engineRef.current?.setOccludedRects(rects));

  const layoutQuery = useMapLayout({ enabled: layoutProp === undefined });
  const plotList = useQuery({ ...plotsQuery(), enabled: plotsProp === undefined });
  const layout: MapLayoutInput | null | undefined = layoutProp !== undefined ? layoutProp : layoutQuery.data;
  const plots = plotsProp ?? plotList.data ?? EMPTY_PLOTS;
  const mapMissing = layout === null || (layout !== undefined && layout.tiles.length === 0) || errorStatus(layoutQuery.error) === 404;
  const loadFailed = !mapMissing && layoutProp === undefined && layoutQuery.isError;
  const loading = layout === undefined && !mapMissing && !loadFailed;

  // An effect event: the engine, created once, always calls the latest props.
  const handleTileClick = useEffectEvent((click: TileClick) => {
    setRegionCard(null);
    if (!click.isLand) return; // spec: clicking water does nothing
    if (click.plot) {
      onPlotClick?.(click.plot);
      return;
    }
    if (click.reserved) {
      onReservedTileClick?.(click.reserved);
      return;
    }
    const tile = { x: click.x, y: click.y };
    selectTile(tile, selectedTier);
    onLandTileClick?.(tile);
  });

  // The engine lives as long as the component: made once, with the props of that moment (its zoom limits follow the
  // device it was created on).
  const createEngine = useEffectEvent((canvas: HTMLCanvasElement) =>
    createMapEngine(canvas, {
      isTouch,
      overlay: overlayRef.current,
      onTileClick: handleTileClick,
      onPlotHover: (plot, anchor) => setPlotCard(plot ? { item: plot, anchor } : null),
      onReservedHover: (footprint, anchor) => setReservedCard(footprint ? { item: footprint, anchor } : null),
      onRegionLabelHover: (region, anchor) => setRegionCard(region ? { item: region, anchor } : null),
      fonts: typeof document !== 'undefined' ? document.fonts : null,
      // The guide has done its job once someone pans, pinches or taps.
      onInteraction: dismissTouchGuide,
      onViewChange: publishCameraOn(canvas),
    }),
  );

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const engine = createEngine(canvas);
    engineRef.current = engine;
    engine.resize();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => engine.resize()) : null;
    observer?.observe(canvas);
    const onWindowResize = () => engine.resize();
    window.addEventListener('resize', onWindowResize);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', onWindowResize);
      engine.destroy();
      engineRef.current = null;
    };
  }, []);

  // The engine takes new data in a render of its own, after the one that shows it in the page's text: a query's
  // answer re-renders synchronously, and the engine's work on a layout (classifying 8,100 tiles) in that same task
  // made it one of the longest of the first load on a phone.
  const engineLayout = useDeferredValue(layout);
  const enginePlots = useDeferredValue(plots);

  useEffect(() => {
    engineRef.current?.setLayout(engineLayout ?? null);
    // A cleared map takes its selection with it.
    if (!engineLayout) selectTile(null);
  }, [engineLayout, selectTile]);

  useEffect(() => {
    engineRef.current?.setPlots(enginePlots);
  }, [enginePlots]);

  useEffect(() => {
    engineRef.current?.setReservedFootprints(reservedFootprints);
  }, [reservedFootprints]);

  useEffect(() => {
    engineRef.current?.setSelectedTile(selectedTileRef.current, selectedTier);
  }, [selectedTier]);

  const pinControlled = selectedTileProp !== undefined;
  const pinX = selectedTileProp?.x;
  const pinY = selectedTileProp?.y;
  // The pin's colour is the tier of the moment; the pin moves only when the coordinates do, not the object's identity.
  const pinTier = useEffectEvent(() => selectedTier);
  useEffect(() => {
    if (!pinControlled) return;
    selectTile(pinX === undefined || pinY === undefined ? null : { x: pinX, y: pinY }, pinTier());
  }, [pinControlled, pinX, pinY, selectTile]);

  useEffect(() => {
    const onNavigate = (event: Event) => {
      const detail = (event as CustomEvent).detail;
      if (!isNavigateToRegionDetail(detail)) return;
      setRegionCard(null);
      // Lands clear of the panels as they are now (a menu that just closed, a card that just went).
      occluders.measure();
      engineRef.current?.flyTo(detail.x, detail.y, detail.zoom ?? REGION_FOCUS_ZOOM, { size: flightFootprintSize(detail) });
    };
    window.addEventListener(NAVIGATE_TO_REGION_EVENT, onNavigate);
    return () => window.removeEventListener(NAVIGATE_TO_REGION_EVENT, onNavigate);
  }, [occluders]);

  useEffect(() => {
    const onReveal = (event: Event) => {
      const detail = (event as CustomEvent).detail;
      if (!isRevealMapTileDetail(detail)) return;
      const besides = detail.besides ?? null;
      if (besides) occluders.keepClearOf(besides);
      // A dialog still sliding or fading in is measured where it comes to rest.
      void settled(besides).then(() => {
        occluders.measure();
        engineRef.current?.revealTile(detail.x, detail.y, detail.size ?? 1);
      });
    };
    window.addEventListener(REVEAL_MAP_TILE_EVENT, onReveal);
    return () => window.removeEventListener(REVEAL_MAP_TILE_EVENT, onReveal);
  }, [occluders]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setRegionCard(null);
      setPlotCard(null);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const regions = layout?.regions ?? [];
  return (
    <div ref={containerRef} className="relative h-full w-full overflow-hidden bg-night">
      <canvas
        ref={canvasRef}
        role="application"
        aria-roledescription="map"
        aria-label="Interactive pixel map of the atlas. Drag or use the arrow keys to explore, plus and minus to zoom, 0 to reset, Enter to choose the tile under the cross."
        className="block h-full w-full touch-none select-none focus-visible:outline-none"
        style={{ touchAction: 'none' }}
      />
      {/* Pin, hovered label and keyboard reticle: repainted without repainting the map under them. */}
      <canvas ref={overlayRef} aria-hidden="true" className="pointer-events-none absolute inset-0 block h-full w-full" />
      <MapStatusOverlay
        state={loading ? 'loading' : mapMissing ? 'missing' : loadFailed ? 'failed' : 'ready'}
        onRetry={() => void layoutQuery.refetch()}
      />
      {mapMissing || loadFailed ? null : (
        <>
          <RegionsMenu regions={regions} />
          <FindPlotsButton count={plots.length} onClick={onFindPlotsClick} />
          <MapControls
            onZoomIn={() => engineRef.current?.zoomIn()}
            onZoomOut={() => engineRef.current?.zoomOut()}
            onResetView={() => engineRef.current?.resetView()}
          />
          {isTouch ? (
            <>
              {touchGuideOpen ? <TouchGuide onDismiss={dismissTouchGuide} /> : null}
              <MoreContentButton />
            </>
          ) : (
            <DesktopHint />
          )}
        </>
      )}
      {regionCard ? <RegionInfoCard region={regionCard.item} anchor={regionCard.anchor} onClose={() => setRegionCard(null)} /> : null}
      {plotCard && !isTouch ? <PlotHoverCard plot={plotCard.item} anchor={plotCard.anchor} /> : null}
      {reservedCard && !plotCard && !isTouch ? <ReservedHoverCard footprint={reservedCard.item} anchor={reservedCard.anchor} /> : null}
    </div>
  );
}

const EMPTY_PLOTS: readonly AtlasPlot[] = [];

function touchGuideDismissed(): boolean {
  try {
    return sessionStorage.getItem(TOUCH_GUIDE_DISMISSED_KEY) !== null;
  } catch {
    return false;
  }
}

/** Resolves once the element's running animations (a dialog's entrance) have finished. */
async function settled(element: Element | null): Promise<void> {
  const animations = element?.getAnimations?.({ subtree: true }) ?? [];
  await Promise.all(animations.map((animation) => animation.finished.catch(() => undefined)));
}
const EMPTY_RESERVED: readonly ReservedFootprint[] = [];

function FindPlotsButton({ count, onClick }: { count: number; onClick?: () => void }) {
  return (
    <button
      type="button"
      data-map-occluder=""
      onClick={() => (onClick ? onClick() : window.dispatchEvent(new CustomEvent(OPEN_FIND_PLOTS_EVENT)))}
      className="pointer-events-auto absolute top-3 right-3 z-20 min-h-11 max-w-[calc(10ch+1.5rem)] border-2 border-black bg-gold px-2.5 py-1 text-[0.5rem] leading-3 text-ink-dark shadow-pixel-sm hover:bg-[#f7d27a] md:max-w-none md:px-3 md:py-2 md:text-[0.65rem] md:leading-normal"
    >
      Find Plots ({count})
    </button>
  );
}
