import { REGION_DEFINITIONS } from '@pixel-atlas/contracts/regions';
import { describe, expect, it } from 'vitest';
import { REGION_CONTENT } from './region-content.ts';

describe('region content', () => {
  it('describes all 13 regions with distinct texts and four distinct notable locations each', () => {
    const entries = REGION_DEFINITIONS.map(({ name }) => REGION_CONTENT[name]);
    expect(entries).toHaveLength(13);
    for (const entry of entries) {
      expect(entry.audience.length).toBeGreaterThan(20);
      expect(entry.description.length).toBeGreaterThan(60);
      expect(new Set(entry.notableLocations).size).toBe(4);
    }
    expect(new Set(entries.map((entry) => entry.audience)).size).toBe(13);
    expect(new Set(entries.map((entry) => entry.description)).size).toBe(13);
    expect(new Set(entries.flatMap((entry) => entry.notableLocations)).size).toBe(52);
  });
});
