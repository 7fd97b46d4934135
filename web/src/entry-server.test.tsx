// @vitest-environment node
// Node, as in the gateway: no window, no document. A screen that reads either while rendering fails here.
import type { RegionPage } from '@pixel-atlas/contracts/directory';
import { describe, expect, it } from 'vitest';
import { pageQueries, renderPage, serverQueryKeys, type ServerPageData } from './entry-server.tsx';
import { OUTBOUND_LINK_REL } from './features/plots/outbound-link.tsx';
import { ADA_PLOT_ID, adaPlot, plotWith } from './test/plot-fixture.ts';

const ORIGIN = 'https://atlas.example';
const neighbour = plotWith({ id: '22222222-2222-4222-8222-222222222222', display_name: 'Grace <Hopper>', x: 14, y: 34 });

/** What the gateway hands over: each query's answer, in pageQueries' order. */
function answers(pathname: string, search: string, bodies: unknown[]): ServerPageData {
  const queries = pageQueries(pathname, search) ?? [];
  return { queries: queries.map((query, index) => ({ queryKey: query.queryKey, data: bodies[index] })) };
}

/** The HTML as a reader sees it: React separates adjacent text parts with empty comments. */
function text(html: string): string {
  return html.replaceAll('<!-- -->', '');
}

function structuredData(html: string): Record<string, unknown> {
  const json = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(json, 'a JSON-LD script').toBeDefined();
  return JSON.parse(json!) as Record<string, unknown>;
}

describe('pageQueries', () => {
  it('names the API answers of each server-rendered page under the keys its screen reads, and null for others', () => {
    expect(pageQueries(`/plot/${ADA_PLOT_ID}`, '')).toEqual([
      { queryKey: ['/api/plots/{id}', ADA_PLOT_ID], path: `/api/plots/${ADA_PLOT_ID}` },
      { queryKey: ['/api/plots/{id}/neighbours', ADA_PLOT_ID], path: `/api/plots/${ADA_PLOT_ID}/neighbours` },
    ]);
    // Decoded like the router decodes it; encoded again for the API.
    expect(pageQueries('/user/Ada%20Pixel', '')).toEqual([
      { queryKey: ['/api/users/{username}/plots', 'Ada Pixel'], path: '/api/users/Ada%20Pixel/plots' },
    ]);
    expect(pageQueries('/regions', '')).toEqual([{ queryKey: ['/api/regions'], path: '/api/regions' }]);
    expect(pageQueries('/regions/pixel-plains/', '?page=3')).toEqual([
      { queryKey: ['/api/regions/{slug}', 'pixel-plains', 3], path: '/api/regions/pixel-plains?page=3' },
    ]);
    expect(pageQueries('/regions/pixel-plains', '')?.[0]?.queryKey).toEqual(['/api/regions/{slug}', 'pixel-plains', 1]);
    expect(pageQueries('/regions/pixel-plains', '?page=zero')).toEqual([]);
    for (const path of ['/', '/faq', '/plot', '/regions/a/b', '/manage/token']) expect(pageQueries(path, '')).toBeNull();
    expect(serverQueryKeys('/regions', '')).toEqual([['/api/regions']]);
  });
});

describe('renderPage', () => {
  it("renders a plot page with the app's components: name, the buyer's link with the operator's rel, region, neighbours, JSON-LD", async () => {
    const pathname = `/plot/${ADA_PLOT_ID}`;
    const page = await renderPage(`${ORIGIN}${pathname}`, answers(pathname, '', [adaPlot, { plots: [neighbour] }]), {
      outboundLinkRel: 'sponsored noopener',
    });

    expect(page.status).toBe(200);
    expect(page.title).toBe("Ada Pixel's Plot - Pixel Atlas");
    expect(page.description).toBe('Pixel art every day');
    expect(text(page.html)).toContain('Ada Pixel&#x27;s Plot</h1>');
    // The layout is there too: header, main, footer with the directory.
    expect(page.html).toMatch(/^<div class="flex min-h-dvh flex-col">/);
    expect(page.html).toContain('<footer');
    expect(page.html).toContain('href="/regions/vibe-coding-vale"');
    expect(page.html).toMatch(/<a href="https:\/\/ada\.example\/" target="_blank" rel="sponsored noopener"[^>]*>Visit Website<\/a>/);
    expect(page.html).toMatch(/<a [^>]*href="\/regions\/creator-coast"[^>]*>Creator Coast<\/a>/);
    expect(page.html).toContain('Neighbours</h2>');
    expect(page.html).toMatch(/<a [^>]*href="\/plot\/22222222-2222-4222-8222-222222222222"[^>]*>Grace &lt;Hopper&gt;<\/a>/);
    // The map preview is a lazy chunk the browser fills: its reserved box, not a loading screen.
    expect(page.html).not.toContain('aria-busy="true"');

    expect(structuredData(page.html)).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'CreativeWork',
      url: `${ORIGIN}/plot/${ADA_PLOT_ID}`,
      author: { '@type': 'Person', name: 'Ada Pixel', url: `${ORIGIN}/user/Ada%20Pixel`, sameAs: ['https://ada.example/'] },
      sameAs: 'https://ada.example/',
    });
  });

  it('carries the cache in a state the browser can read back, with no "<" anywhere in it', async () => {
    const pathname = `/plot/${ADA_PLOT_ID}`;
    const evil = { ...adaPlot, display_name: '</script><script>alert(1)</script>', message: '<!-- \u2028' };
    const page = await renderPage(`${ORIGIN}${pathname}`, answers(pathname, '', [evil, { plots: [] }]));
    expect(page.state).not.toContain('<');
    expect(page.html).not.toContain('<script>alert(1)');
    const state = JSON.parse(page.state) as { queries: Array<{ queryKey: unknown[]; state: { data: unknown } }> };
    expect(state.queries.find((query) => query.queryKey[0] === '/api/plots/{id}')?.state.data).toEqual(evil);
    expect(state.queries.find((query) => query.queryKey[0] === 'page-settings')?.state.data).toEqual({ origin: ORIGIN });
    // Without an operator setting, the app's own rel.
    expect(page.html).toContain(`rel="${OUTBOUND_LINK_REL}"`);
  });

  it("answers 404 with the app's not-found screen for a plot the API does not know, 503 when the API failed", async () => {
    const pathname = `/plot/${ADA_PLOT_ID}`;
    const [plot] = pageQueries(pathname, '')!;
    const missing = await renderPage(`${ORIGIN}${pathname}`, {
      queries: [{ queryKey: plot!.queryKey, error: { status: 404, body: '{"error":{"code":"NOT_FOUND","message":"Plot not found"}}' } }],
    });
    expect(missing.status).toBe(404);
    expect(text(missing.html)).toContain('Plot Not Found</h1>');
    const failed = await renderPage(`${ORIGIN}${pathname}`, { queries: [{ queryKey: plot!.queryKey, error: { status: 502 } }] });
    expect(failed.status).toBe(503);
    expect(failed.html).toContain('This plot could not be loaded right now.');
  });

  it('renders a region page: its plots linking their pages, every page of the region as a plain link, a CollectionPage', async () => {
    const data: RegionPage = {
      region: { slug: 'creator-coast', name: 'Creator Coast', plotCount: 100, lastModified: '2026-11-22T10:00:00.000Z' },
      page: 1,
      pageCount: 3,
      plots: [adaPlot],
    };
    const page = await renderPage(`${ORIGIN}/regions/creator-coast`, answers('/regions/creator-coast', '', [data]));
    expect(page.status).toBe(200);
    expect(page.title).toBe('Creator Coast, Page 1 - Regions of the Atlas - Pixel Atlas');
    expect(page.html).toMatch(new RegExp(`<a [^>]*href="/plot/${ADA_PLOT_ID}"[^>]*>Ada Pixel</a>`));
    for (const href of ['/regions/creator-coast', '/regions/creator-coast?page=2', '/regions/creator-coast?page=3']) {
      expect(page.html).toContain(`href="${href}"`);
    }
    expect(structuredData(page.html)).toMatchObject({
      '@type': 'CollectionPage',
      mainEntity: { '@type': 'ItemList', numberOfItems: 100, itemListElement: [{ position: 1, url: `${ORIGIN}/plot/${ADA_PLOT_ID}` }] },
    });

    const unknown = await renderPage(`${ORIGIN}/regions/atlantis`, {
      queries: [{ queryKey: pageQueries('/regions/atlantis', '')![0]!.queryKey, error: { status: 404 } }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('404 Page Not Found');
    const badPage = await renderPage(`${ORIGIN}/regions/creator-coast?page=0`, { queries: [] });
    expect(badPage.status).toBe(404);
  });

  it('renders /regions and a user page (a ProfilePage of a Person)', async () => {
    const regions = {
      regions: [{ slug: 'knowledge-knolls', name: 'Knowledge Knolls', plotCount: 2, lastModified: null }],
    };
    const list = await renderPage(`${ORIGIN}/regions`, answers('/regions', '', [regions]));
    expect(list.status).toBe(200);
    expect(list.title).toBe('Regions of the Atlas - Pixel Atlas');
    expect(list.html).toContain('Regions of the Atlas</h1>');
    expect(list.html).toMatch(/<a [^>]*href="\/regions\/knowledge-knolls"[^>]*>Knowledge Knolls<\/a>/);

    const user = await renderPage(
      `${ORIGIN}/user/Ada%20Pixel`,
      answers('/user/Ada%20Pixel', '', [{ username: 'Ada Pixel', plots: [adaPlot] }]),
    );
    expect(user.status).toBe(200);
    expect(text(user.html)).toContain('Ada Pixel&#x27;s Atlas</h1>');
    expect(user.html).toContain('Nov 22, 2026');
    expect(structuredData(user.html)).toMatchObject({
      '@type': 'ProfilePage',
      mainEntity: { '@type': 'Person', name: 'Ada Pixel', sameAs: ['https://ada.example/'] },
    });
    // Nobody by that name has claimed yet: a page, not a 404.
    const nobody = await renderPage(`${ORIGIN}/user/nobody`, {
      queries: [{ queryKey: pageQueries('/user/nobody', '')![0]!.queryKey, error: { status: 404 } }],
    });
    expect(nobody.status).toBe(200);
    expect(text(nobody.html)).toContain('hasn&#x27;t claimed any plots yet');
  });
});
