import type { Plot } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import {
  SITEMAP_CHUNK_SIZE,
  renderPagesSitemap,
  renderPlotsSitemap,
  renderSitemapIndex,
  renderUsersSitemap,
  sitemapSource,
} from './render-sitemap.ts';

const ORIGIN = 'https://atlas.example.com';
const plot = (n: number, created_at: string, updated_at: string | null, display_name = 'Ada'): Plot => {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    zone: 'creator',
    tier: 'basic',
    x: 1,
    y: 2,
    display_name,
    message: '',
    link: null,
    avatar_url: `/api/plots/${id}/avatar`,
    created_at,
    flagged: false,
    reviewed: false,
    updated_at,
  };
};
const region = { slug: 'creator-coast', name: 'Creator Coast', plotCount: 100, lastModified: '2026-11-20T08:00:00.000Z' };

describe('the sitemaps', () => {
  it("date a plot page by the owner's last change, else by its claim", () => {
    const source = sitemapSource(
      [plot(1, '2026-11-01T10:00:00.000Z', '2026-11-24T09:00:00.000Z'), plot(2, '2026-11-02T10:00:00.000Z', null)],
      [],
    );
    const xml = renderPlotsSitemap(ORIGIN, source, 1)!;
    expect(xml).toContain('<loc>https://atlas.example.com/plot/00000000-0000-4000-8000-000000000001</loc><lastmod>2026-11-24</lastmod>');
    expect(xml).toContain('<loc>https://atlas.example.com/plot/00000000-0000-4000-8000-000000000002</loc><lastmod>2026-11-02</lastmod>');
    expect(renderPlotsSitemap(ORIGIN, source, 2)).toBeNull();
  });

  it('split the plots into chunks of 10,000 named by an index, each dated by its latest change', () => {
    const many = Array.from({ length: SITEMAP_CHUNK_SIZE + 5 }, (_, i) =>
      plot(i + 1, new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(), null, `Owner ${i % 3} <&>`),
    );
    const source = sitemapSource(many.reverse(), [region]);
    const index = renderSitemapIndex(ORIGIN, source);
    expect(index).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    expect(index).toContain('<sitemap><loc>https://atlas.example.com/sitemaps/pages.xml</loc><lastmod>2026-11-20</lastmod></sitemap>');
    expect(index).toContain('<loc>https://atlas.example.com/sitemaps/plots-1.xml</loc><lastmod>2026-01-07</lastmod>');
    expect(index).toContain('<loc>https://atlas.example.com/sitemaps/plots-2.xml</loc><lastmod>2026-01-07</lastmod>');
    expect(index).toContain('<loc>https://atlas.example.com/sitemaps/users-1.xml</loc>');
    expect(index).not.toContain('plots-3.xml');
    const first = renderPlotsSitemap(ORIGIN, source, 1)!;
    expect(first.match(/<url>/g)).toHaveLength(SITEMAP_CHUNK_SIZE);
    // Oldest first: the first claim opens chunk 1 whatever order the list came in.
    expect(first).toContain('/plot/00000000-0000-4000-8000-000000000001<');
    expect(renderPlotsSitemap(ORIGIN, source, 2)!.match(/<url>/g)).toHaveLength(5);
    const users = renderUsersSitemap(ORIGIN, source, 1)!;
    expect(users.match(/<url>/g)).toHaveLength(3);
    expect(users).toContain('<loc>https://atlas.example.com/user/Owner%200%20%3C%26%3E</loc>');
  });

  it('list the static pages, the region list and every page of every region', () => {
    const empty = { slug: 'empty-isles', name: 'Empty Isles', plotCount: 0, lastModified: null };
    const xml = renderPagesSitemap(ORIGIN, sitemapSource([], [region, empty]));
    for (const loc of ['/', '/about', '/regions', '/regions/creator-coast', '/regions/creator-coast?page=3', '/regions/empty-isles']) {
      expect(xml).toContain(`<loc>${new URL(loc, ORIGIN).href}</loc>`);
    }
    expect(xml).not.toContain('creator-coast?page=4'); // 100 plots at 48 a page: 3 pages
    expect(xml).not.toContain('empty-isles?page=');
  });
});
