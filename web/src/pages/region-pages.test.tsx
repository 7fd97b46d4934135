import type { RegionList, RegionPage } from '@pixel-atlas/contracts/directory';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeGateway } from '../test/fake-gateway.ts';
import { plotWith } from '../test/plot-fixture.ts';
import { jsonResponse, renderApp } from '../test/render-app.tsx';

const regionList: RegionList = {
  regions: [
    { slug: 'knowledge-knolls', name: 'Knowledge Knolls', plotCount: 1, lastModified: '2026-11-20T10:00:00.000Z' },
    { slug: 'tech-creator-core', name: 'Tech Creator Core', plotCount: 97, lastModified: '2026-11-21T10:00:00.000Z' },
    { slug: 'pixel-plains', name: 'Pixel Plains', plotCount: 0, lastModified: null },
  ],
};

const core = regionList.regions[1]!;
const corePlots = [
  plotWith({
    id: '33333333-3333-4333-8333-333333333331',
    display_name: 'Grace',
    message: 'Compilers and coffee',
    x: 4,
    y: 9,
    tier: 'prime',
  }),
  plotWith({ id: '33333333-3333-4333-8333-333333333332', display_name: 'Linus', message: '', x: 7, y: 9, tier: 'basic' }),
];

function regionPage(page: number, overrides: Partial<RegionPage> = {}): RegionPage {
  return { region: core, page, pageCount: 3, plots: corePlots, ...overrides };
}

describe('/regions', () => {
  it('lists every region with its plot count, each linking its own page', async () => {
    fakeGateway({ 'GET /api/regions': [() => jsonResponse(regionList)] });
    renderApp('/regions');

    expect(await screen.findByRole('heading', { level: 1, name: 'Regions of the Atlas' })).toBeTruthy();
    expect(document.title).toBe('Regions of the Atlas - Pixel Atlas');
    expect(await screen.findByText(/98 plots in all/)).toBeTruthy();
    const main = screen.getByRole('main');
    const cards = within(main).getAllByRole('article');
    expect(cards).toHaveLength(3);
    const link = within(cards[1]!).getByRole('link', { name: 'Tech Creator Core' });
    expect(link.getAttribute('href')).toBe('/regions/tech-creator-core');
    expect(within(cards[1]!).getByText('97 plots standing')).toBeTruthy();
    expect(within(cards[0]!).getByText('1 plot standing')).toBeTruthy();
    expect(within(cards[2]!).getByText('No plots yet')).toBeTruthy();

    const json = JSON.parse(main.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}') as Record<string, unknown>;
    expect(json).toMatchObject({ '@type': 'CollectionPage', mainEntity: { '@type': 'ItemList', numberOfItems: 3 } });
  });

  it('offers a retry when the regions cannot be loaded', async () => {
    fakeGateway({ 'GET /api/regions': [() => new Response('', { status: 503 }), () => jsonResponse(regionList)] });
    renderApp('/regions');
    const alert = await screen.findByRole('alert');
    within(alert).getByRole('button', { name: 'Try again' }).click();
    expect(await screen.findByRole('link', { name: 'Pixel Plains' })).toBeTruthy();
  });
});

describe('/regions/:slug', () => {
  it("shows a page of the region's plots (avatar, name, message, tier, position, each linking its page) and links every page", async () => {
    fakeGateway({ 'GET /api/regions/tech-creator-core?page=2': [() => jsonResponse(regionPage(2))] });
    renderApp('/regions/tech-creator-core?page=2');

    expect(await screen.findByRole('heading', { level: 1, name: 'Tech Creator Core' })).toBeTruthy();
    expect(document.title).toBe('Tech Creator Core, Page 2 - Regions of the Atlas - Pixel Atlas');
    expect(screen.getByText(/97 plots standing in this region · page 2 of 3/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /All Regions/ }).getAttribute('href')).toBe('/regions');

    const main = screen.getByRole('main');
    const [grace, linus] = within(main).getAllByRole('article');
    expect(within(grace!).getByRole('link', { name: 'Grace' }).getAttribute('href')).toBe(`/plot/${corePlots[0]!.id}`);
    expect(within(grace!).getByText('Compilers and coffee')).toBeTruthy();
    expect(within(grace!).getByText('Prime Plot')).toBeTruthy();
    expect(within(grace!).getByText('Position (4, 9)')).toBeTruthy();
    expect(grace!.querySelector('img')?.getAttribute('src')).toBe(corePlots[0]!.avatar_url);
    expect(within(linus!).getByText('Basic Plot')).toBeTruthy();

    const pages = screen.getByRole('navigation', { name: 'Pages of this region' });
    const numbered = within(pages).getAllByRole('link', { name: /^Page \d+$/ });
    expect(numbered.map((link) => link.getAttribute('href'))).toEqual([
      '/regions/tech-creator-core',
      '/regions/tech-creator-core?page=2',
      '/regions/tech-creator-core?page=3',
    ]);
    expect(within(pages).getByRole('link', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page');
    expect(
      within(pages)
        .getByRole('link', { name: /Previous/ })
        .getAttribute('href'),
    ).toBe('/regions/tech-creator-core');
    expect(within(pages).getByRole('link', { name: /Next/ }).getAttribute('href')).toBe('/regions/tech-creator-core?page=3');

    const json = JSON.parse(main.querySelector('script[type="application/ld+json"]')?.textContent ?? '{}') as {
      mainEntity: { itemListElement: Array<{ position: number; url: string }> };
    };
    expect(json).toMatchObject({ '@type': 'CollectionPage', name: 'Tech Creator Core', mainEntity: { numberOfItems: 97 } });
    // Positions count across pages: page 2 starts after the first page's 48.
    expect(json.mainEntity.itemListElement.map((item) => item.position)).toEqual([49, 50]);
    expect(json.mainEntity.itemListElement[0]!.url).toBe(`${window.location.origin}/plot/${corePlots[0]!.id}`);
  });

  it('page 1 of an empty region says so and offers a claim, without page links', async () => {
    const empty = { region: regionList.regions[2]!, page: 1, pageCount: 1, plots: [] };
    fakeGateway({ 'GET /api/regions/pixel-plains?page=1': [() => jsonResponse(empty)] });
    renderApp('/regions/pixel-plains');
    expect(await screen.findByText('Nobody has claimed a plot in Pixel Plains yet.')).toBeTruthy();
    expect(within(screen.getByRole('main')).getByRole('link', { name: 'Claim Your Tile' }).getAttribute('href')).toBe('/#claim-tile');
    expect(screen.queryByRole('navigation', { name: 'Pages of this region' })).toBeNull();
  });

  it.each([
    ['an unknown region', '/regions/atlantis', 'GET /api/regions/atlantis?page=1', 404],
    ['a page past the last', '/regions/tech-creator-core?page=9', 'GET /api/regions/tech-creator-core?page=9', 404],
    ['a page the API refuses', '/regions/tech-creator-core?page=99999', 'GET /api/regions/tech-creator-core?page=99999', 400],
  ])('shows the 404 screen for %s', async (_what, path, route, status) => {
    fakeGateway({ [route]: [() => jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, { status })] });
    renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
  });

  it.each(['?page=0', '?page=abc', '?page=02', '?page=-1'])('shows the 404 screen for %s without asking the API', (search) => {
    const gateway = fakeGateway({});
    renderApp(`/regions/tech-creator-core${search}`);
    expect(screen.getByRole('heading', { level: 1, name: '404 Page Not Found' })).toBeTruthy();
    expect(gateway.calls.filter((call) => call.route.includes('/api/regions'))).toEqual([]);
  });
});

describe('the footer', () => {
  it('links the directory and each of the 13 regions on every page', async () => {
    renderApp('/terms');
    const footer = screen.getByRole('contentinfo');
    const regions = within(footer).getByRole('navigation', { name: 'Regions of the Atlas' });
    const links = within(regions).getAllByRole('link');
    expect(links[0]!.getAttribute('href')).toBe('/regions');
    expect(links).toHaveLength(14);
    expect(links.map((link) => link.getAttribute('href'))).toContain('/regions/vibe-coding-vale');
  });
});
