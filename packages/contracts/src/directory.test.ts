import { describe, expect, it } from 'vitest';
import { REGION_DEFINITIONS } from './regions.ts';
import { DIRECTORY_MAX_PAGE, regionPageQuerySchema, regionSlug, UNCHARTED_REGION } from './directory.ts';

describe('regionSlug', () => {
  it('lower-cases and joins words with one hyphen', () => {
    expect(regionSlug('Tech Creator Core')).toBe('tech-creator-core');
    expect(regionSlug('  Édu  Archipelago!! ')).toBe('edu-archipelago');
  });

  it('gives every region its own slug, none of them the uncharted one', () => {
    const slugs = REGION_DEFINITIONS.map((r) => regionSlug(r.name));
    expect(new Set(slugs).size).toBe(REGION_DEFINITIONS.length);
    expect(slugs).not.toContain(UNCHARTED_REGION.slug);
    for (const slug of slugs) expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});

describe('regionPageQuerySchema', () => {
  it('defaults to page 1 and coerces the query string', () => {
    expect(regionPageQuerySchema.parse({})).toEqual({ page: 1 });
    expect(regionPageQuerySchema.parse({ page: '3' })).toEqual({ page: 3 });
  });

  it('refuses pages that are not whole numbers from 1 to the maximum', () => {
    for (const page of ['0', '-1', '1.5', 'abc', String(DIRECTORY_MAX_PAGE + 1)]) {
      expect(regionPageQuerySchema.safeParse({ page }).success).toBe(false);
    }
  });
});
