import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { plotsQuery } from '../../api/queries.ts';
import { createMapEngine, type MapEngine } from '../engine/engine.ts';
import { FLIGHT_DURATION_MS } from '../engine/fly-to.ts';
import { layoutBox } from '../engine/layout-box.ts';
import { useMapLayout } from '../use-map-layout.ts';
import { MAP_PREVIEW_BOX_CLASS } from './map-preview-box.ts';
import { publishCameraOn } from './publish-camera.ts';

export interface MapPreviewProps {
  /** The footprint's top-left tile (where the pin stands) and its tier (its size). */
  x: number;
  y: number;
  tier: Tier | string;
  /** What a screen reader hears instead of the picture. */
  label: string;
  /** Fly in from the whole map, then bounce the pin on arrival (the celebration); otherwise it opens on the spot. */
  arrive?: boolean;
  className?: string;
}

/** Tiles of neighbourhood shown on each side of the footprint. */
export const PREVIEW_NEIGHBOUR_TILES = 3;
const PREVIEW_ZOOM_RANGE = { min: 0.3, max: 2 } as const;
/** jsdom and a not yet laid out box measure 0: the box's phone height stands in. */
const FALLBACK_SPAN_PX = 176;

/**
 * A small, still map centred on one footprint with its neighbours and the pin on the spot: the same canvas
 * engine as the home map, mounted once, fed the shared layout and plot queries. Not interactive (pointer events
 * pass through, so a phone scrolls the page over it, and it takes no focus): it shows where, the home map explores.
 */
export function MapPreview({ x, y, tier, label, arrive = false, className = '' }: MapPreviewProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const overlayRef = useRef<HTMLCanvasElement>(null);
  const engineRef = useRef<MapEngine | null>(null);
  // The engine, made once, and the camera, moved when the spot changes, read `arrive` as it is then.
  const stillPreview = useEffectEvent(() => !arrive || userPrefersReducedMotion());
  const [engineReady, setEngineReady] = useState(false);
  const layoutQuery = useMapLayout();
  const plotList = useQuery(plotsQuery());
  const layout = layoutQuery.data;
  const plots = plotList.data;

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const engine = createMapEngine(canvas, {
      // Desktop limits whatever the device: the preview never takes a gesture, and may zoom in closer.
      isTouch: false,
      overlay: overlayRef.current,
      fonts: typeof document !== 'undefined' ? document.fonts : null,
      // A still preview jumps to its spot; only the celebration's arrival flies and bounces (and not for people
      // who ask for reduced motion).
      prefersReducedMotion: () => stillPreview(),
      onViewChange: publishCameraOn(canvas),
    });
    engineRef.current = engine;
    engine.resize();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(() => engine.resize()) : null;
    observer?.observe(canvas);
    setEngineReady(true);
    return () => {
      observer?.disconnect();
      engine.destroy();
      engineRef.current = null;
      setEngineReady(false);
    };
  }, []);

  useEffect(() => {
    engineRef.current?.setLayout(layout ?? null);
  }, [layout, engineReady]);

  useEffect(() => {
    if (plots) engineRef.current?.setPlots(plots);
  }, [plots, engineReady]);

  const hasLayout = Boolean(layout);
  useEffect(() => {
    const engine = engineRef.current;
    const canvas = canvasRef.current;
    if (!engine || !canvas || !hasLayout) return;
    const size = TIER_SIZE[normalizeTier(tier)];
    const offset = (size - 1) / 2;
    engine.flyTo(x + offset, y + offset, previewZoom(canvas, size));
    const pinTier = normalizeTier(tier);
    if (stillPreview()) {
      engine.setSelectedTile({ x, y }, pinTier);
      return;
    }
    // The pin lands when the camera does: its bounce is the arrival.
    engine.setSelectedTile(null);
    const land = window.setTimeout(() => engineRef.current?.setSelectedTile({ x, y }, pinTier), FLIGHT_DURATION_MS);
    return () => window.clearTimeout(land);
  }, [engineReady, hasLayout, x, y, tier]);

  const mapMissing = layout === null || layoutQuery.isError;
  return (
    <div role="img" aria-label={label} data-testid="map-preview" data-pin={`${x},${y}`} className={`${MAP_PREVIEW_BOX_CLASS} ${className}`}>
      <canvas ref={canvasRef} tabIndex={-1} aria-hidden="true" className="pointer-events-none block h-full w-full" />
      <canvas ref={overlayRef} aria-hidden="true" className="pointer-events-none absolute inset-0 block h-full w-full" />
      {mapMissing ? (
        <p aria-hidden="true" className="absolute inset-0 grid place-items-center p-4 text-center text-xs text-ink-muted">
          The map preview is not available right now.
        </p>
      ) : null}
    </div>
  );
}

/** The zoom at which the footprint and its neighbours fill the shorter side of the box. */
export function previewZoom(canvas: HTMLCanvasElement, footprintSize: number): number {
  const box = layoutBox(canvas);
  const span = Math.min(box.width || FALLBACK_SPAN_PX, box.height || FALLBACK_SPAN_PX);
  const zoom = span / ((footprintSize + 2 * PREVIEW_NEIGHBOUR_TILES) * TILE_SIZE_PX);
  return Math.min(PREVIEW_ZOOM_RANGE.max, Math.max(PREVIEW_ZOOM_RANGE.min, zoom));
}

function userPrefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
