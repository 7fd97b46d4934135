import type { MapLayout } from '@pixel-atlas/contracts/map';
import type { Region } from '@pixel-atlas/contracts/regions';

/** One region as the layout carries it, for the map's cards and menus. */
export const creatorCoast: Region = {
  value: 3,
  name: 'Creator Coast',
  focus: { x: 60, y: 24 },
  audience: 'YouTubers and podcasters.',
  description: 'A bustling shoreline.',
  notableLocations: ['Thumbnail Harbour', 'The Upload Lighthouse', 'Podcast Pier', 'Algorithm Reef'],
};

/** A layout whose top-left side×side corner is land of one zone; the tiles left out are water (they never count). */
export function landLayout({
  side = 1,
  zoneValue = 1,
  zoneName = 'Pixel Plains',
  regions = [],
}: { side?: number; zoneValue?: number; zoneName?: string; regions?: Region[] } = {}): MapLayout {
  return {
    tiles: Array.from({ length: side * side }, (_, index) => ({
      x: index % side,
      y: Math.floor(index / side),
      zone_value: zoneValue,
      zone_name: zoneName,
      is_land: true,
    })),
    regions,
    seed: 's',
    generatedAt: '2026-01-01T00:00:00.000Z',
  };
}
