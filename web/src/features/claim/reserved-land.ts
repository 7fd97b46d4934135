import type { PositionAvailable, ReservedFootprint, ReservedReason } from '@pixel-atlas/contracts/plots';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { reservedFootprintsQuery } from '../../api/queries.ts';
import { bootedMapData } from '../../boot/booted-map.ts';
import { toast, type ToastOptions } from '../../hooks/use-toast.ts';
import { readPendingClaim } from './pending-claim.ts';

/**
 * Holds (someone is paying) change without any live event, so the list is also polled; the live
 * stream's plot changes (a hold becoming a plot, a review decided) refetch it at once.
 */
export const RESERVED_FOOTPRINTS_POLL_MS = 30_000;

const NO_FOOTPRINTS: readonly ReservedFootprint[] = [];

/**
 * Land held while someone pays or under review, as the map draws it: empty until (or unless) the server answers, or,
 * until then, what the map the home page booted already shows (the same answer, which the query gets a moment later).
 */
export function useReservedFootprints(): readonly ReservedFootprint[] {
  const [booted] = useState(() => bootedMapData()?.reserved);
  const query = useQuery({
    ...reservedFootprintsQuery(),
    refetchInterval: RESERVED_FOOTPRINTS_POLL_MS,
    refetchIntervalInBackground: false,
    // A buyer coming back to the tab sees holds taken meanwhile (the app's default is never stale).
    staleTime: 10_000,
    refetchOnWindowFocus: true,
  });
  return query.data ?? booted ?? NO_FOOTPRINTS;
}

/** What a buyer is told when the spot they chose is reserved: the true reason, and what to do. */
export const RESERVED_TOASTS: Record<ReservedReason, ToastOptions> = {
  held: {
    title: 'Tile Reserved',
    description: 'This tile is reserved while someone pays. Try again in a few minutes or choose another tile.',
    variant: 'destructive',
  },
  review: {
    title: 'Tile Under Review',
    description: 'A plot here is under review, so this tile is not for sale. Please choose another tile.',
    variant: 'destructive',
  },
};

/** 'A 2×2 plot here would overlap Ada's plot.' */
export function overlapMessage(tier: Tier, neighbourName: string): string {
  const size = TIER_SIZE[tier];
  return `A ${size}×${size} plot here would overlap ${neighbourName}'s plot.`;
}

/**
 * The toast for a position the server says is not available because of something standing there, or
 * null for the other reasons (water, outside the grid, no map), which keep their own messages.
 */
export function occupiedPositionToast(result: PositionAvailable, tier: Tier): ToastOptions | null {
  if (result.reason === 'held' || result.reason === 'review') return RESERVED_TOASTS[result.reason];
  if (result.reason === 'taken' && result.overlaps) {
    return {
      title: 'Tile Unavailable',
      description: `${overlapMessage(tier, result.overlaps.display_name)} Please choose another tile or a smaller plot.`,
      variant: 'destructive',
    };
  }
  return null;
}

/**
 * A click on reserved land: refused with its reason instead of opening the claim popup, so nobody fills
 * the whole form for a spot they cannot buy. (The server stays the arbiter at checkout.)
 */
export function refuseReservedTile(footprint: Pick<ReservedFootprint, 'reason'>): void {
  toast(RESERVED_TOASTS[footprint.reason]);
}

/**
 * This browser's own unpaid checkout holds the footprint (it went to the checkout, then came back with
 * Back instead of Cancel): the pending claim saved before the checkout sits exactly there. Starting a new
 * checkout ends the client's earlier unpaid one, so the buyer may go on; everyone else is refused.
 */
export function ownPendingHold(footprint: ReservedFootprint): { tile: { x: number; y: number }; tier: Tier } | null {
  if (footprint.reason !== 'held') return null;
  const pending = readPendingClaim();
  if (!pending || pending.x !== footprint.x || pending.y !== footprint.y) return null;
  const tier = normalizeTier(pending.tier);
  return TIER_SIZE[tier] === footprint.size ? { tile: { x: pending.x, y: pending.y }, tier } : null;
}

/** The map's click on reserved land: the buyer's own hold reopens their claim there; any other is refused with its reason. */
export function handleReservedTileClick(
  footprint: ReservedFootprint,
  openOwnClaim: (tile: { x: number; y: number }, tier: Tier) => void,
): void {
  const own = ownPendingHold(footprint);
  if (own) openOwnClaim(own.tile, own.tier);
  else refuseReservedTile(footprint);
}
