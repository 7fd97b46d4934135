import { useQuery } from '@tanstack/react-query';
import { errorStatus } from '../../api/errors.ts';
import { plotsQuery } from '../../api/queries.ts';
import type { MapLayoutInput } from '../engine/engine.ts';
import { useMapLayout } from '../use-map-layout.ts';
import type { AtlasPlot } from './atlas-plot.ts';
import type { MapStatus } from './MapStatusOverlay.tsx';

export interface AtlasData {
  /** Undefined while loading; null when no map exists. */
  layout: MapLayoutInput | null | undefined;
  plots: readonly AtlasPlot[];
  status: MapStatus;
  retry: () => void;
}

/** The layout and plots the map shows: the ones given, else fetched (each query runs only when its prop is absent). */
export function useAtlasData(layoutProp: MapLayoutInput | null | undefined, plotsProp: readonly AtlasPlot[] | undefined): AtlasData {
  const layoutQuery = useMapLayout({ enabled: layoutProp === undefined });
  const plotList = useQuery({ ...plotsQuery(), enabled: plotsProp === undefined });
  const layout: MapLayoutInput | null | undefined = layoutProp !== undefined ? layoutProp : layoutQuery.data;
  const plots = plotsProp ?? plotList.data ?? EMPTY_PLOTS;
  const mapMissing = layout === null || (layout !== undefined && layout.tiles.length === 0) || errorStatus(layoutQuery.error) === 404;
  const loadFailed = !mapMissing && layoutProp === undefined && layoutQuery.isError;
  const loading = layout === undefined && !mapMissing && !loadFailed;
  return {
    layout,
    plots,
    status: loading ? 'loading' : mapMissing ? 'missing' : loadFailed ? 'failed' : 'ready',
    retry: () => void layoutQuery.refetch(),
  };
}

const EMPTY_PLOTS: readonly AtlasPlot[] = [];
