import type { PositionAvailable, ReservedFootprint } from '@pixel-atlas/contracts/plots';
import { GRID_SIZE } from '@pixel-atlas/contracts/grid';
import { TIER_SIZE, normalizeTier, type Tier } from '@pixel-atlas/contracts/tier-catalog';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { mapLayoutQuery, plotsQuery, reservedFootprintsQuery } from '../../api/queries.ts';
import { overlapMessage, ownPendingHold } from './reserved-land.ts';

interface Square {
  x: number;
  y: number;
  size: number;
}

const overlaps = (a: Square, b: Square) => a.x < b.x + b.size && b.x < a.x + a.size && a.y < b.y + b.size && b.y < a.y + a.size;

/**
 * What the map already knows about a footprint, in the server's words (GET /api/position-available):
 * the visible plot it would overlap, reserved land under it, the grid edge, water. Computed from the
 * lists the map holds, so the popup can say it at once, without asking the server; the server's check
 * at PAY & CLAIM and the hold at checkout still decide.
 */
export function footprintConflict(options: {
  tile: { x: number; y: number };
  tier: Tier;
  plots: ReadonlyArray<{ id: string; x: number; y: number; tier: string; display_name: string }>;
  reserved: readonly ReservedFootprint[];
  isLand?: (x: number, y: number) => boolean;
}): PositionAvailable {
  const square = { x: options.tile.x, y: options.tile.y, size: TIER_SIZE[options.tier] };
  if (square.x + square.size > GRID_SIZE || square.y + square.size > GRID_SIZE) return { available: false, reason: 'out_of_grid' };
  const neighbour = options.plots.find((plot) => overlaps(square, { x: plot.x, y: plot.y, size: TIER_SIZE[normalizeTier(plot.tier)] }));
  if (neighbour) return { available: false, reason: 'taken', overlaps: { id: neighbour.id, display_name: neighbour.display_name } };
  const reserved = options.reserved.find((footprint) => overlaps(square, footprint));
  if (reserved) return { available: false, reason: reserved.reason };
  if (options.isLand) {
    for (let y = square.y; y < square.y + square.size; y++) {
      for (let x = square.x; x < square.x + square.size; x++) if (!options.isLand(x, y)) return { available: false, reason: 'water' };
    }
  }
  return { available: true };
}

/**
 * What stands in the way of the chosen tier's footprint at this tile, in one sentence, or null when
 * nothing does (or the reason is not about this footprint, like a missing map).
 */
export function footprintProblem(result: PositionAvailable, tier: Tier): string | null {
  if (result.available) return null;
  const size = TIER_SIZE[tier];
  switch (result.reason) {
    case 'taken':
      return result.overlaps
        ? `${overlapMessage(tier, result.overlaps.display_name)} Choose a smaller plot or another tile.`
        : 'This tile is already claimed. Please choose another.';
    case 'held':
      return 'This spot is reserved while someone pays. Try again in a few minutes or choose another tile.';
    case 'review':
      return 'A plot under review stands here. Choose a smaller plot or another tile.';
    case 'water':
      return size > 1 ? `A ${size}×${size} plot here would reach into water. Choose a smaller plot or another tile.` : null;
    case 'out_of_grid':
      return `A ${size}×${size} plot here would not fit inside the map. Choose a smaller plot or another tile.`;
    default:
      return null;
  }
}

const NONE: readonly never[] = [];

/**
 * In the claim popup, under the tier list: the moment the popup opens or the tier changes, says what
 * the chosen footprint would run into ('A 2×2 plot here would overlap Ada's plot'), from the plots,
 * reserved land and layout the map has already loaded (this asks the server nothing).
 */
export function FootprintConflictNote({ tile, tier }: { tile: { x: number; y: number }; tier: Tier }) {
  const plots = useQuery({ ...plotsQuery(), enabled: false }).data ?? NONE;
  const reserved = useQuery({ ...reservedFootprintsQuery(), enabled: false }).data ?? NONE;
  const layout = useQuery({ ...mapLayoutQuery(), enabled: false }).data;
  const land = useMemo(() => {
    if (!layout?.tiles.length) return undefined;
    const mask = new Uint8Array(GRID_SIZE * GRID_SIZE);
    for (const t of layout.tiles) if (t.is_land) mask[t.y * GRID_SIZE + t.x] = 1;
    return (x: number, y: number) => mask[y * GRID_SIZE + x] === 1;
  }, [layout]);
  // This browser's own unpaid checkout is no obstacle: a new checkout ends it.
  const others = reserved.filter((footprint) => !ownPendingHold(footprint));
  const problem = footprintProblem(footprintConflict({ tile, tier, plots, reserved: others, isLand: land }), tier);
  if (!problem) return null;
  return (
    <p role="status" className="border-2 border-danger-edge bg-panel-raised px-3 py-2 text-sm text-ink" data-testid="footprint-conflict">
      {problem}
    </p>
  );
}
