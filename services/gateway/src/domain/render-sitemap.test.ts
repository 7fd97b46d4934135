import type { Plot } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import { renderSitemap } from './render-share-page.ts';

const plot = (id: string, created_at: string, updated_at: string | null): Plot => ({
  id,
  zone: 'creator',
  tier: 'basic',
  x: 1,
  y: 2,
  display_name: 'Ada',
  message: '',
  link: null,
  avatar_url: `/api/plots/${id}/avatar`,
  created_at,
  flagged: false,
  reviewed: false,
  updated_at,
});

describe('sitemap.xml', () => {
  it("dates a plot page by the owner's last change, else by its claim", () => {
    const xml = renderSitemap('https://atlas.example.com', [
      plot('00000000-0000-4000-8000-000000000001', '2026-11-01T10:00:00.000Z', '2026-11-24T09:00:00.000Z'),
      plot('00000000-0000-4000-8000-000000000002', '2026-11-02T10:00:00.000Z', null),
    ]);
    expect(xml).toContain('<loc>https://atlas.example.com/plot/00000000-0000-4000-8000-000000000001</loc><lastmod>2026-11-24</lastmod>');
    expect(xml).toContain('<loc>https://atlas.example.com/plot/00000000-0000-4000-8000-000000000002</loc><lastmod>2026-11-02</lastmod>');
  });
});
