import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  PLOT_NEIGHBOURS_QUERY_KEY,
  PLOT_PAGES_QUERY_KEY,
  PLOTS_QUERY_KEY,
  REGION_PAGES_QUERY_KEY,
  USER_PLOTS_QUERY_KEY,
  mapLayoutQuery,
  plotQuery,
  regionsQuery,
  reservedFootprintsQuery,
} from '../../api/queries.ts';

/** The gateway's Server-Sent Events stream (same origin). */
export const LIVE_UPDATES_URL = '/api/live';

/**
 * One EventSource for the whole app: when plots or the layout change anywhere, the affected queries
 * refetch, so every open map shows new plots without a reload. EventSource reconnects by itself, sending the
 * last event id it had; the gateway (any replica) greets every (re)connection with `ready`: `resumed: true` when
 * it is about to send exactly what was missed, else the app refetches everything it shows.
 */
export function useLiveUpdates(url: string = LIVE_UPDATES_URL): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(url);
    let connectedBefore = false;

    const onPlotsChanged = (event: MessageEvent<string>) => invalidatePlots(queryClient, changedPlotId(event.data));
    const onMapChanged = () => void queryClient.invalidateQueries({ queryKey: mapLayoutQuery().queryKey });
    const onReady = (event: MessageEvent<string>) => {
      if (connectedBefore && !wasResumed(event.data)) {
        invalidatePlots(queryClient);
        onMapChanged();
      }
      connectedBefore = true;
    };

    source.addEventListener('plots-changed', onPlotsChanged);
    source.addEventListener('map-changed', onMapChanged);
    source.addEventListener('ready', onReady);
    return () => {
      source.removeEventListener('plots-changed', onPlotsChanged);
      source.removeEventListener('map-changed', onMapChanged);
      source.removeEventListener('ready', onReady);
      source.close();
    };
  }, [queryClient, url]);
}

function invalidatePlots(queryClient: QueryClient, plotId?: string): void {
  void queryClient.invalidateQueries({ queryKey: PLOTS_QUERY_KEY, exact: true });
  // A hold became a plot, or a review was decided: the reserved land changed too.
  void queryClient.invalidateQueries({ queryKey: reservedFootprintsQuery().queryKey, exact: true });
  void queryClient.invalidateQueries({ queryKey: plotId ? plotQuery(plotId).queryKey : PLOT_PAGES_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: USER_PLOTS_QUERY_KEY });
  // The directory: any plot that comes, goes or changes may move a count, a page or someone's neighbours.
  void queryClient.invalidateQueries({ queryKey: regionsQuery().queryKey, exact: true });
  void queryClient.invalidateQueries({ queryKey: REGION_PAGES_QUERY_KEY });
  void queryClient.invalidateQueries({ queryKey: PLOT_NEIGHBOURS_QUERY_KEY });
}

/** Whether a `ready` says the missed events follow (older gateways sent `{}`: refetch). */
function wasResumed(data: string): boolean {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && 'resumed' in value && value.resumed === true;
  } catch {
    return false;
  }
}

/** The plot a `plots-changed` message names; without one, every plot page refetches. */
function changedPlotId(data: string): string | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && 'plotId' in value && typeof value.plotId === 'string' ? value.plotId : undefined;
  } catch {
    return undefined;
  }
}
