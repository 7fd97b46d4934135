import { act } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { flaggedPlotsQuery } from '../../api/admin-queries.ts';
import { PLOTS_QUERY_KEY, mapLayoutQuery, plotQuery, reservedFootprintsQuery, userPlotsQuery } from '../../api/queries.ts';
import { createQueryClient } from '../../lib/query-client.ts';
import { FakeEventSource, openStream, stubEventSource } from '../../test/fake-event-source.ts';
import { renderWithProviders } from '../../test/render-with-providers.tsx';
import { useLiveUpdates } from './use-live-updates.ts';

function Live() {
  useLiveUpdates();
  return null;
}

const PLOT_ID = '11111111-1111-4111-8111-111111111111';
const KEYS: Record<string, readonly unknown[]> = {
  plots: PLOTS_QUERY_KEY,
  reserved: reservedFootprintsQuery().queryKey,
  plot: plotQuery(PLOT_ID).queryKey,
  otherPlot: plotQuery('22222222-2222-4222-8222-222222222222').queryKey,
  user: userPlotsQuery('Ada').queryKey,
  layout: mapLayoutQuery().queryKey,
  flagged: flaggedPlotsQuery().queryKey,
};

function setup() {
  const queryClient = createQueryClient();
  for (const key of Object.values(KEYS)) queryClient.setQueryData(key, []);
  const view = renderWithProviders(<Live />, { queryClient });
  const invalidated = () =>
    Object.entries(KEYS)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
  return { ...view, queryClient, invalidated };
}

describe('useLiveUpdates', () => {
  let open: () => FakeEventSource[];
  beforeEach(() => {
    open = stubEventSource();
  });

  it('keeps exactly one stream open to /api/live, even under StrictMode, and closes it on unmount', () => {
    const { unmount } = setup();
    expect(open()).toHaveLength(1);
    expect(openStream().url).toBe('/api/live');
    unmount();
    expect(open()).toHaveLength(0);
  });

  it('plots-changed refreshes the plot list, the reserved land, that plot and the user pages', () => {
    const { invalidated } = setup();
    act(() => openStream().emit('plots-changed', { reason: 'claimed', plotId: PLOT_ID }));
    expect(invalidated()).toEqual(['plots', 'reserved', 'plot', 'user']);
  });

  it('map-changed refreshes the layout only', () => {
    const { invalidated } = setup();
    act(() => openStream().emit('map-changed', { reason: 'generated' }));
    expect(invalidated()).toEqual(['layout']);
  });

  it('after a reconnection the gateway could not resume (a second ready, not resumed) refreshes everything it may have missed', () => {
    const { invalidated } = setup();
    act(() => openStream().emit('ready', { resumed: false }));
    expect(invalidated()).toEqual([]);
    act(() => openStream().emit('ready', { resumed: false }));
    expect(invalidated()).toEqual(['plots', 'reserved', 'plot', 'otherPlot', 'user', 'layout']);
  });

  it('after a resumed reconnection refetches nothing itself: the missed events follow and say what changed', () => {
    const { invalidated } = setup();
    act(() => openStream().emit('ready', { resumed: false }));
    act(() => openStream().emit('ready', { resumed: true }));
    expect(invalidated()).toEqual([]);
    act(() => openStream().emit('plots-changed', { reason: 'claimed', plotId: PLOT_ID }));
    expect(invalidated()).toEqual(['plots', 'reserved', 'plot', 'user']);
  });

  it('an event without a readable plot id refreshes every plot page', () => {
    const { invalidated } = setup();
    act(() => openStream().emit('plots-changed', undefined, 'not json'));
    expect(invalidated()).toEqual(['plots', 'reserved', 'plot', 'otherPlot', 'user']);
  });
});
