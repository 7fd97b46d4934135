import { regionSlug, UNCHARTED_REGION } from '@pixel-atlas/contracts/directory';
import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { describe, expect, it } from 'vitest';
import { plotRegion, REGION_NAMES, REGION_PAGE_LINKS, regionPagePath, slugOfRegion, UNCHARTED } from './region-directory.ts';

describe("the first chunk's copy of the regions", () => {
  it('is the contracts’ list, in its order, with its slugs', () => {
    expect([...REGION_NAMES]).toEqual(REGION_DEFINITIONS.map((region) => region.name));
    expect(UNCHARTED).toEqual(UNCHARTED_REGION);
    for (const name of [...REGION_NAMES, 'Ça Va Région!', '  --Odd  Name-- ', 'Édu 2']) expect(slugOfRegion(name)).toBe(regionSlug(name));
    expect(REGION_PAGE_LINKS.map((link) => link.to)).toContain('/regions/tech-creator-core');
  });

  it('addresses page 1 without ?page, a plot without a region on the Uncharted Lands', () => {
    expect(regionPagePath('pixel-plains')).toBe('/regions/pixel-plains');
    expect(regionPagePath('pixel-plains', 3)).toBe('/regions/pixel-plains?page=3');
    expect(plotRegion(null)).toEqual({ name: 'Uncharted Lands', to: '/regions/uncharted' });
    expect(plotRegion('Forum Fields')).toEqual({ name: 'Forum Fields', to: '/regions/forum-fields' });
  });
});
