import type { Tier } from '@pixel-atlas/contracts/tiers';
import { act, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useLiveUpdates } from '../../features/live/use-live-updates.ts';
import { openStream, stubEventSource } from '../../test/fake-event-source.ts';
import { fakeGateway } from '../../test/fake-gateway.ts';
import { landLayout } from '../../test/map-fixtures.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../../test/render-app.tsx';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { AtlasStrip } from './atlas-strip.tsx';
import { countTilesLeft, lowestPrice, recentPlots } from './atlas-stats.ts';

/** Land on the 10×10 top-left corner, water elsewhere. */
const layout = landLayout({ side: 10, zoneName: 'Nexus' });
const plot = (id: string, name: string, tier: Tier, x: number, y: number, created_at: string) => ({
  id,
  display_name: name,
  tier,
  x,
  y,
  created_at,
  zone: 'nexus',
  message: '',
  link: null,
  avatar_url: '',
  flagged: false,
  reviewed: false,
});
const ada = plot('11111111-1111-4111-8111-111111111111', 'Ada', 'premium', 0, 0, '2026-01-01T10:00:00.000Z');
const bob = plot('22222222-2222-4222-8222-222222222222', 'Bob', 'basic', 5, 5, '2026-01-02T10:00:00.000Z');
const cy = plot('33333333-3333-4333-8333-333333333333', 'Cy', 'featured', 8, 8, '2026-01-03T10:00:00.000Z');

function StripWithLiveStream() {
  useLiveUpdates();
  return <AtlasStrip />;
}

const renderStrip = () => renderWithProviders(<StripWithLiveStream />);

describe('atlas stats', () => {
  it('counts land tiles no footprint covers, whatever the tier size', () => {
    // premium 4×4 = 16, basic 1, featured 2×2 = 4 of the 100 land tiles.
    expect(countTilesLeft(layout.tiles, [ada, bob, cy])).toBe(100 - 16 - 1 - 4);
    // Water under a footprint is not land to begin with.
    const water = layout.tiles.map((tile) => ({ ...tile, is_land: tile.x !== 0 }));
    expect(countTilesLeft(water, [ada])).toBe(90 - 12);
  });

  it('orders claims newest first and finds the lowest price', () => {
    expect(recentPlots([ada, cy, bob], 2).map((p) => p.display_name)).toEqual(['Cy', 'Bob']);
    expect(lowestPrice({ basic: 1900, featured: 5000, prime: 1200, premium: 9000 })).toBe(1200);
    expect(lowestPrice(null)).toBeNull();
  });
});

describe('AtlasStrip', () => {
  beforeEach(() => {
    stubEventSource();
  });

  it('is the page h1 and shows placeholders, then the counters and the lowest served price', async () => {
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => plotListResponse([ada, bob])],
      'GET /api/map-layout': [() => jsonResponse(layout)],
      'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 1900, featured: 5000, prime: 7500, premium: 10000 } })],
    });
    renderStrip();

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Own a plot on the pixel map of the internet');
    expect(screen.getByTestId('strip-plots').textContent).toBe('');
    expect(await screen.findByText('$19')).toBeTruthy();
    expect(await screen.findByText('83')).toBeTruthy(); // 100 - 16 - 1
    expect(screen.getByTestId('strip-plots').textContent).toBe('2');
    const ticker = screen.getByTestId('strip-ticker');
    expect(
      within(ticker)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Bob', `/plot/${bob.id}`],
      ['Ada', `/plot/${ada.id}`],
    ]);
  });

  it('puts a plot claimed elsewhere at the front of the ticker when the live stream says so', async () => {
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => plotListResponse([ada, bob]), () => plotListResponse([ada, bob, cy])],
      'GET /api/map-layout': [() => jsonResponse(layout)],
      'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 10000 } })],
    });
    renderStrip();
    const ticker = screen.getByTestId('strip-ticker');
    expect(await within(ticker).findByText('Bob')).toBeTruthy();
    expect(within(ticker).queryByText('Cy')).toBeNull();

    act(() => openStream().emit('plots-changed', { reason: 'claimed', plotId: cy.id }));

    expect(await within(ticker).findByText('Cy')).toBeTruthy();
    expect(within(ticker).getAllByRole('link')[0]?.textContent).toBe('Cy');
    expect(screen.getByTestId('strip-plots').textContent).toBe('3');
    expect(screen.getByTestId('strip-tiles-left').textContent).toBe('79');
  });

  it.each([
    { reduce: false, animations: 1 },
    { reduce: true, animations: 0 },
  ])('slides a new claim in only when motion is welcome (prefers-reduced-motion: $reduce)', async ({ reduce, animations }) => {
    window.matchMedia = ((query: string) => ({
      matches: reduce && query.includes('reduce'),
      media: query,
      addEventListener() {},
      removeEventListener() {},
    })) as unknown as typeof window.matchMedia;
    const animate = vi.fn();
    Element.prototype.animate = animate;
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => plotListResponse([ada]), () => plotListResponse([ada, bob])],
      'GET /api/map-layout': [() => jsonResponse(layout)],
      'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 10000 } })],
    });
    renderStrip();
    const ticker = screen.getByTestId('strip-ticker');
    expect(await within(ticker).findByText('Ada')).toBeTruthy();
    expect(animate).not.toHaveBeenCalled();
    act(() => openStream().emit('plots-changed', { reason: 'claimed', plotId: bob.id }));
    expect(await within(ticker).findByText('Bob')).toBeTruthy();
    expect(animate).toHaveBeenCalledTimes(animations);
    delete (Element.prototype as { animate?: unknown }).animate;
  });

  it('says so when nobody has claimed yet', async () => {
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => plotListResponse([])],
      'GET /api/map-layout': [() => jsonResponse(layout)],
      'GET /api/prices': [() => jsonResponse({ currency: 'usd', cents: { basic: 2500, featured: 5000, prime: 7500, premium: 10000 } })],
    });
    renderStrip();
    expect(await screen.findByText('be the first!')).toBeTruthy();
    expect(await screen.findByText('100')).toBeTruthy();
  });
});
