import type { Plot as PlotDto } from '@pixel-atlas/contracts/plots';
import type { Tier } from '@pixel-atlas/contracts/tiers';
import type { Plot } from './generated/prisma/client.ts';

/** The columns a public plot needs: never the avatar bytes (they live in another table). */
export const PLOT_PUBLIC_SELECT = {
  id: true,
  zone: true,
  tier: true,
  x: true,
  y: true,
  size: true,
  displayName: true,
  message: true,
  link: true,
  createdAt: true,
  flagged: true,
  reviewed: true,
  regionName: true,
  avatarVersion: true,
  contentUpdatedAt: true,
} as const;

export type PublicPlotRow = Pick<Plot, keyof typeof PLOT_PUBLIC_SELECT>;

/** Version 0 is the avatar given at claim; a replaced one gets `?v=N`, so a cached old picture is never reused. */
export function avatarUrl(plotId: string, version = 0): string {
  return version > 0 ? `/api/plots/${plotId}/avatar?v=${version}` : `/api/plots/${plotId}/avatar`;
}

/** A plot as events describe it (`plotSnapshot` in the event contracts). */
export function plotEventSnapshot(row: PublicPlotRow) {
  return {
    plotId: row.id,
    displayName: row.displayName,
    zone: row.zone,
    tier: row.tier as Tier,
    x: row.x,
    y: row.y,
    size: row.size,
    message: row.message,
    link: row.link,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The API's plot shape (spec section 3 names); avatar_url points at the avatar route. */
export function toPlotDto(row: PublicPlotRow): PlotDto {
  return {
    id: row.id,
    zone: row.zone,
    tier: row.tier as Tier,
    x: row.x,
    y: row.y,
    display_name: row.displayName,
    message: row.message,
    link: row.link,
    avatar_url: avatarUrl(row.id, row.avatarVersion),
    created_at: row.createdAt.toISOString(),
    flagged: row.flagged,
    reviewed: row.reviewed,
    region_name: row.regionName ?? null,
    updated_at: row.contentUpdatedAt?.toISOString() ?? null,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** What every public read shows: visible (not waiting for review) and not removed by moderation. */
export const PUBLIC_PLOT_WHERE = { visible: true, removedAt: null } as const;
