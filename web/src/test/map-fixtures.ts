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
