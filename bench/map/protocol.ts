/** What the Node driver (render.ts) and the benchmark page (page/main.ts) exchange. Types only. */
import type { MapTile } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';
import type { Tier } from '@pixel-atlas/contracts/tiers';

export interface BenchPlot {
  id: string;
  x: number;
  y: number;
  tier: Tier;
  display_name: string;
}

export interface SetupInput {
  layout: { tiles: MapTile[]; regions: Region[] };
  plots: BenchPlot[];
}

export interface SetupResult {
  viewport: { width: number; height: number; dpr: number };
  /** Distinct avatar data: URLs handed out round-robin, and the byte length of one. */
  avatars: number;
  avatarBytes: number;
  /** Smallest step seen in performance.now() (5 µs when the page is cross-origin isolated, else 100 µs). */
  timerResolutionUs: number;
}

export interface PhaseInput {
  /** 'engine': the map engine draws; 'lowerBound': one drawImage of the pre-rendered full view. */
  kind: 'engine' | 'lowerBound';
  /** Camera zoom the script starts from and returns to (it zooms out to zoom * 2^-zoomOctaves). */
  zoom: number;
  /** Amplitude of the figure-eight pan around the map centre, in tiles. */
  panTiles: number;
  zoomOctaves: number;
  warmupMs: number;
  durationMs: number;
}

export interface PhaseResult {
  /** Per drawn frame: onFrameDrawn (JS time of the engine's draw call; canvas commands are only recorded). */
  drawMs: number[];
  /** Per drawn frame: time to make the canvas raster those commands (forced with a 1-pixel getImageData). */
  rasterMs: number[];
  /** Time between consecutive requestAnimationFrame callbacks. */
  intervals: number[];
  rafCallbacks: number;
  /** Frames with a scripted camera change where the engine did not draw (should be 0). */
  missedDraws: number;
  levelsOfDetail: string[];
  zoomRange: [number, number];
}
