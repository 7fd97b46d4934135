import type { Plot } from '@pixel-atlas/contracts/plots';
import { describe, expect, it } from 'vitest';
import { injectPageMeta, plotPageMeta, regionPageMeta, scriptSafeJson } from './render-share-page.ts';

const plot: Plot = {
  id: '5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716',
  zone: 'creator',
  tier: 'featured',
  x: 12,
  y: 34,
  display_name: 'Ada <Pixel>',
  message: 'Pixel art every day',
  link: 'https://ada.example/',
  avatar_url: '/api/plots/5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716/avatar',
  created_at: '2026-11-22T10:00:00.000Z',
  flagged: false,
  reviewed: true,
  region_name: 'Creator Coast',
};
const options = { origin: 'https://atlas.example', siteName: 'Pixel Atlas' };

describe('the SPA shell around a server-rendered page', () => {
  const indexHtml =
    '<!doctype html><html><head><title>Pixel Atlas</title><script type="module" src="/assets/index-abc.js"></script></head><body>\n' +
    '    <div id="root"></div>\n' +
    '    <div id="app-shell" data-path="/"><main><h1>Own a plot</h1></main></div>\n  </body>\n</html>\n';

  it("leaves out the home screen's prerendered shell and puts the app's render and its state in #root's place", () => {
    const html = injectPageMeta(indexHtml, plotPageMeta(plot, options), 'Pixel Atlas', {
      html: '<main><h1>Ada &lt;Pixel&gt;</h1></main>',
      state: '{"queries":[]}',
    });
    expect(html).not.toContain('app-shell');
    expect(html).not.toContain('Own a plot');
    expect(html).toContain(
      '<div id="root"><main><h1>Ada &lt;Pixel&gt;</h1></main></div><script id="pa-state" type="application/json">{"queries":[]}</script>',
    );
    expect(html).toContain('<title>Ada &lt;Pixel&gt;&#39;s Plot - Pixel Atlas</title>');
    expect(html).toContain('<link rel="canonical" href="https://atlas.example/plot/5f1d2c3b-4a59-4e8f-8d7c-6b5a49382716">');
    expect(html.trimEnd().endsWith('</body>\n</html>')).toBe(true);
  });

  it('keeps user text in the state as data: no "<" survives, so "</script>" cannot close the element', () => {
    const state = JSON.stringify({ name: '</script><script>alert(1)</script><!--', other: "$& $` $'" });
    const safe = scriptSafeJson(state);
    expect(safe).not.toContain('<');
    expect(JSON.parse(safe)).toEqual(JSON.parse(state));
    const html = injectPageMeta(indexHtml, plotPageMeta(plot, options), 'Pixel Atlas', { html: '', state });
    expect(html.match(/<\/script>/g)).toHaveLength(2); // the app's module script and pa-state's own end
  });

  it('titles region pages past the first apart and gives them their own canonical address', () => {
    const region = { slug: 'creator-coast', name: 'Creator Coast', plotCount: 100, lastModified: null };
    const first = regionPageMeta({ region, page: 1, pageCount: 3, plots: [] }, options);
    expect(first.title).toBe('Creator Coast - Pixel Atlas');
    expect(first.description).toBe('100 plots claimed in Creator Coast on Pixel Atlas.');
    expect(first.canonicalUrl).toBe('https://atlas.example/regions/creator-coast');
    const second = regionPageMeta({ region, page: 2, pageCount: 3, plots: [] }, options);
    expect(second.title).toBe('Creator Coast (Page 2 of 3) - Pixel Atlas');
    expect(second.canonicalUrl).toBe('https://atlas.example/regions/creator-coast?page=2');
  });
});
