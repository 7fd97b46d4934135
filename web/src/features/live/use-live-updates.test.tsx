import { QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { StrictMode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client.ts';
import { useLiveUpdates } from './use-live-updates.ts';

/** Just enough of EventSource: named events delivered by the test, and close(). */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly listeners = new Map<string, Set<(event: MessageEvent<string>) => void>>();
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }
  removeEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.get(type)?.delete(listener);
  }
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown = {}) {
    const event = new MessageEvent(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
const open = () => FakeEventSource.instances.filter((source) => !source.closed);

function Live() {
  useLiveUpdates();
  return null;
}

const PLOT_ID = '11111111-1111-4111-8111-111111111111';
const KEYS = {
  plots: ['/api/plots'],
  plot: [`/api/plots/${PLOT_ID}`],
  otherPlot: ['/api/plots/22222222-2222-4222-8222-222222222222'],
  user: ['/api/users/Ada/plots'],
  layout: ['/api/map-layout'],
  flagged: ['/api/admin/flagged-plots'],
};

function setup() {
  const queryClient = createQueryClient();
  for (const key of Object.values(KEYS)) queryClient.setQueryData(key, []);
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Live />
      </QueryClientProvider>
    </StrictMode>,
  );
  const invalidated = () =>
    Object.entries(KEYS)
      .filter(([, key]) => queryClient.getQueryState(key)?.isInvalidated)
      .map(([name]) => name);
  return { ...view, queryClient, invalidated };
}

describe('useLiveUpdates', () => {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });

  it('keeps exactly one stream open to /api/live, even under StrictMode, and closes it on unmount', () => {
    const { unmount } = setup();
    expect(open()).toHaveLength(1);
    expect(open()[0].url).toBe('/api/live');
    unmount();
    expect(open()).toHaveLength(0);
  });

  it('plots-changed refreshes the plot list, that plot and the user pages', () => {
    const { invalidated } = setup();
    act(() => open()[0].emit('plots-changed', { reason: 'claimed', plotId: PLOT_ID }));
    expect(invalidated()).toEqual(['plots', 'plot', 'user']);
  });

  it('map-changed refreshes the layout only', () => {
    const { invalidated } = setup();
    act(() => open()[0].emit('map-changed', { reason: 'generated' }));
    expect(invalidated()).toEqual(['layout']);
  });

  it('after a reconnection (a second ready) refreshes everything it may have missed', () => {
    const { invalidated } = setup();
    act(() => open()[0].emit('ready'));
    expect(invalidated()).toEqual([]);
    act(() => open()[0].emit('ready'));
    expect(invalidated()).toEqual(['plots', 'plot', 'otherPlot', 'user', 'layout']);
  });

  it('an event without a readable plot id refreshes every plot page', () => {
    const { invalidated } = setup();
    act(() => {
      const event = new MessageEvent('plots-changed', { data: 'not json' });
      for (const listener of open()[0].listeners.get('plots-changed') ?? []) listener(event);
    });
    expect(invalidated()).toEqual(['plots', 'plot', 'otherPlot', 'user']);
  });
});
