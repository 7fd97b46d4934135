import type { Plot } from '@pixel-atlas/contracts/plots';
import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../lib/query-client.ts';
import { fakeGateway } from '../test/fake-gateway.ts';
import { jsonResponse, PLOT_LIST_ROUTE, plotListResponse } from '../test/render-app.tsx';
import { keepBootFetch } from './boot-data.ts';
import { PLOT_LIST_PATH } from './map-data.ts';
import { plotQuery, plotsQuery } from './queries.ts';

const plot = (n: number): Plot => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  zone: 'creator',
  tier: 'featured',
  x: n,
  y: n + 1,
  display_name: `Creator ${n}`,
  message: 'Hello atlas',
  link: n % 2 ? null : `https://creator-${n}.example.com`,
  avatar_url: `/api/plots/00000000-0000-4000-8000-${String(n).padStart(12, '0')}/avatar${n === 2 ? '?v=2' : ''}`,
  created_at: `2026-11-2${n}T10:00:00.000Z`,
  flagged: n === 3,
  reviewed: false,
  region_name: n === 1 ? null : 'Creator Coast',
  updated_at: n === 2 ? '2026-11-25T09:00:00.000Z' : null,
});

afterEach(() => vi.unstubAllGlobals());

describe('the plot list query', () => {
  it('asks for the compact list and gives the screens the spec’s plots', async () => {
    const plots = [plot(3), plot(1), plot(2)];
    const gateway = fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse(plots)] });
    await expect(createQueryClient().fetchQuery(plotsQuery())).resolves.toEqual(plots);
    expect(gateway.countOf(PLOT_LIST_ROUTE)).toBe(1);
  });

  it('takes the spec’s list as it is from a replica that predates the compact form', async () => {
    fakeGateway({ [PLOT_LIST_ROUTE]: [() => jsonResponse([plot(1)])] });
    await expect(createQueryClient().fetchQuery(plotsQuery())).resolves.toEqual([plot(1)]);
  });

  it('fails on a compact version it does not know, and one plot is still fetched by its own URL', async () => {
    const id = plot(1).id;
    fakeGateway({
      [PLOT_LIST_ROUTE]: [() => jsonResponse({ version: 99, id: [] })],
      [`GET /api/plots/${id}`]: [() => jsonResponse(plot(1))],
    });
    const client = createQueryClient();
    await expect(client.fetchQuery(plotsQuery())).rejects.toThrow('unknown version 99');
    await expect(client.fetchQuery(plotQuery(id))).resolves.toEqual(plot(1));
  });
});

describe('the plot list the home page’s boot fetched before the app loaded', () => {
  it('is waited on, not fetched again, while it is under way; the next fetch goes to the network', async () => {
    const plots = [plot(1), plot(2)];
    const gateway = fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse(plots), () => plotListResponse([plot(3)])] });
    let answer = (_plots: Plot[]) => {};
    void keepBootFetch(PLOT_LIST_PATH, new Promise<Plot[]>((resolve) => (answer = resolve)));
    const client = createQueryClient();
    const first = client.fetchQuery(plotsQuery());
    answer(plots);
    await expect(first).resolves.toBe(plots);
    expect(gateway.countOf(PLOT_LIST_ROUTE)).toBe(0);
    await expect(client.fetchQuery({ ...plotsQuery(), staleTime: 0 })).resolves.toEqual(plots);
    expect(gateway.countOf(PLOT_LIST_ROUTE)).toBe(1);
  });

  it('is taken when it is already answered, and the cache stays empty until the query runs (the page hydrates as prerendered)', async () => {
    const plots = [plot(2)];
    const gateway = fakeGateway({ [PLOT_LIST_ROUTE]: [() => plotListResponse([plot(3)])] });
    await keepBootFetch(PLOT_LIST_PATH, Promise.resolve(plots));
    const client = createQueryClient();
    expect(new QueryObserver(client, plotsQuery()).getCurrentResult().data).toBeUndefined();
    await expect(client.fetchQuery(plotsQuery())).resolves.toBe(plots);
    expect(gateway.countOf(PLOT_LIST_ROUTE)).toBe(0);
  });
});
