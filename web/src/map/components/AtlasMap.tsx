import type { Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useCallback, useRef } from 'react';
import { MAP_CANVAS_LABEL } from '../../boot/booted-map.ts';
import type { MapEngine, MapLayoutInput, ReservedFootprint, TileClick } from '../engine/engine.ts';
import type { AtlasPlot } from './atlas-plot.ts';
import { DesktopHint, MoreContentButton, TouchGuide } from './MapHints.tsx';
import { MapControls } from './MapControls.tsx';
import { MapStatusOverlay } from './MapStatusOverlay.tsx';
import { PlotHoverCard } from './PlotHoverCard.tsx';
import { ReservedHoverCard } from './ReservedHoverCard.tsx';
import { RegionInfoCard } from './RegionInfoCard.tsx';
import { RegionsMenu } from './RegionsMenu.tsx';
import { useAtlasData } from './use-atlas-data.ts';
import { useMapCards } from './use-map-cards.ts';
import { useMapEngine } from './use-map-engine.ts';
import { useMapNavigation } from './use-map-navigation.ts';
import { useMapOccluders } from './use-map-occluders.ts';
import { useSyncEngine } from './use-sync-engine.ts';
import { useTouchDevice } from './use-touch-device.ts';
import { useTouchGuide } from './use-touch-guide.ts';

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
  const { regionCard, setRegionCard, plotCard, setPlotCard, reservedCard, setReservedCard } = useMapCards();
  // What the engine's pin shows, to repaint it in a new tier's colour. Not state: nothing renders it.
  const selectedTileRef = useRef<{ x: number; y: number } | null>(null);
  const selectTile = useCallback((tile: { x: number; y: number } | null, tier?: Tier) => {
    selectedTileRef.current = tile;
    engineRef.current?.setSelectedTile(tile, tier);
  }, []);
  const touchGuide = useTouchGuide();
  const occluders = useMapOccluders(containerRef, canvasRef, (rects) => engineRef.current?.setOccludedRects(rects));
  const { layout, plots, status, retry } = useAtlasData(layoutProp, plotsProp);

  // The engine calls the latest of these props (useMapEngine).
  const onTileClick = (click: TileClick) => {
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
  };
  useMapEngine({
    canvasRef,
    overlayRef,
    engineRef,
    isTouch,
    onTileClick,
    onPlotHover: (plot, anchor) => setPlotCard(plot ? { item: plot, anchor } : null),
    onReservedHover: (footprint, anchor) => setReservedCard(footprint ? { item: footprint, anchor } : null),
    onRegionLabelHover: (region, anchor) => setRegionCard(region ? { item: region, anchor } : null),
    // The guide has done its job once someone pans, pinches or taps.
    onInteraction: touchGuide.dismiss,
  });
  useSyncEngine({
    engineRef,
    layout,
    plots,
    reservedFootprints,
    selectedTier,
    selectedTile: selectedTileProp,
    pinnedTileRef: selectedTileRef,
    selectTile,
  });
  useMapNavigation(engineRef, occluders, () => setRegionCard(null));

  const chromeShown = status !== 'missing' && status !== 'failed';
  const regions = layout?.regions ?? [];
  return (
    <div ref={containerRef} className="relative h-full w-full overflow-hidden bg-night">
      <canvas
        ref={canvasRef}
        role="application"
        aria-roledescription="map"
        aria-label={MAP_CANVAS_LABEL}
        className="block h-full w-full touch-none select-none focus-visible:outline-none"
        style={{ touchAction: 'none' }}
      />
      {/* Pin, hovered label and keyboard reticle: repainted without repainting the map under them. */}
      <canvas ref={overlayRef} aria-hidden="true" className="pointer-events-none absolute inset-0 block h-full w-full" />
      <MapStatusOverlay state={status} onRetry={retry} />
      {chromeShown ? (
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
              {touchGuide.open ? <TouchGuide onDismiss={touchGuide.dismiss} /> : null}
              <MoreContentButton />
            </>
          ) : (
            <DesktopHint />
          )}
        </>
      ) : null}
      {regionCard ? <RegionInfoCard region={regionCard.item} anchor={regionCard.anchor} onClose={() => setRegionCard(null)} /> : null}
      {plotCard && !isTouch ? <PlotHoverCard plot={plotCard.item} anchor={plotCard.anchor} /> : null}
      {reservedCard && !plotCard && !isTouch ? <ReservedHoverCard footprint={reservedCard.item} anchor={reservedCard.anchor} /> : null}
    </div>
  );
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
