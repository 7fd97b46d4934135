import { describe, expect, it } from 'vitest';
import { plotRegion, REGION_PAGE_LINKS, regionPagePath } from './region-directory.ts';

describe("the directory's addresses", () => {
  it("links every region's page, in the map's order", () => {
    expect(REGION_PAGE_LINKS).toHaveLength(13);
    expect(REGION_PAGE_LINKS[0]).toEqual({ name: 'Knowledge Knolls', to: '/regions/knowledge-knolls' });
    expect(REGION_PAGE_LINKS.map((link) => link.to)).toContain('/regions/tech-creator-core');
  });

  it('addresses page 1 without ?page, a plot without a region on the Uncharted Lands', () => {
    expect(regionPagePath('pixel-plains')).toBe('/regions/pixel-plains');
    expect(regionPagePath('pixel-plains', 3)).toBe('/regions/pixel-plains?page=3');
    expect(plotRegion(null)).toEqual({ name: 'Uncharted Lands', to: '/regions/uncharted' });
    expect(plotRegion('Forum Fields')).toEqual({ name: 'Forum Fields', to: '/regions/forum-fields' });
  });
});
