import { TILE_SIZE_PX } from '@pixel-atlas/contracts/grid';

/**
 * far:  the whole world is a few hundred pixels — one pre-composited bitmap (terrain + plot markers).
 * mid:  terrain chunks, plots as tier frames with their avatars (initials until they load).
 * near: full detail — glow, avatars (loaded lazily), label plates.
 * Replaces the spec's 'every Nth tile' rule: far zoom stays one drawImage, near zoom shows everything.
 */
export type LevelOfDetail = 'far' | 'mid' | 'near';

/** Below this many CSS pixels per tile the overview bitmap is used. */
export const FAR_TILE_PX = 10;
/** From this many CSS pixels per tile, plots get their full treatment. */
export const NEAR_TILE_PX = 36;
/**
 * A plot's avatar is fetched and drawn once the plot covers at least this many CSS pixels: as soon as
 * there is room for initials, so every tier shows its face at the default zoom (a basic 1×1 plot is
 * 21.6 px at the desktop's 0.45), not only the big ones. Initials stand in while it loads or if it fails.
 */
export const AVATAR_MIN_PLOT_PX = 18;
/** Initials are written once a plot covers at least this many CSS pixels. */
export const INITIALS_MIN_PLOT_PX = 18;
/** Region labels would only be clutter below this tile size. */
export const LABEL_MIN_TILE_PX = 3;

export function tileScreenSize(zoom: number): number {
  return TILE_SIZE_PX * zoom;
}

export function chooseLevelOfDetail(zoom: number): LevelOfDetail {
  const tilePx = tileScreenSize(zoom);
  if (tilePx < FAR_TILE_PX) return 'far';
  if (tilePx < NEAR_TILE_PX) return 'mid';
  return 'near';
}

export function shouldShowAvatar(zoom: number, plotSize: number): boolean {
  return chooseLevelOfDetail(zoom) !== 'far' && tileScreenSize(zoom) * plotSize >= AVATAR_MIN_PLOT_PX;
}

export function shouldShowInitials(zoom: number, plotSize: number): boolean {
  return chooseLevelOfDetail(zoom) !== 'far' && tileScreenSize(zoom) * plotSize >= INITIALS_MIN_PLOT_PX;
}
