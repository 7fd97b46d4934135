/**
 * Asks the map to keep a chosen tile visible beside something that covers part of it (the claim popup):
 * the map pans, at its current zoom, until the footprint and its pin are clear of the map's own panels and
 * of `besides`. A browser event, like 'navigateToRegion', so the dialogs need nothing from the map's code.
 */
export const REVEAL_MAP_TILE_EVENT = 'revealMapTile';

export interface RevealMapTileDetail {
  /** Top-left tile of the footprint. */
  x: number;
  y: number;
  /** Footprint edge in tiles (a tier's size); 1 when omitted. */
  size?: number;
  /** The element that covers the map (a dialog's content), kept clear of while it is on the page. */
  besides?: Element | null;
}

export function revealMapTile(detail: RevealMapTileDetail): void {
  window.dispatchEvent(new CustomEvent<RevealMapTileDetail>(REVEAL_MAP_TILE_EVENT, { detail }));
}

export function isRevealMapTileDetail(value: unknown): value is RevealMapTileDetail {
  const detail = value as Partial<RevealMapTileDetail> | null;
  return typeof detail?.x === 'number' && typeof detail.y === 'number' && Number.isFinite(detail.x) && Number.isFinite(detail.y);
}
