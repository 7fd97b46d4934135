import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorStatus } from '../../api/errors.ts';
import { plotsQuery } from '../../api/queries.ts';
import { bootedMapData } from '../../boot/booted-map.ts';
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

/**
 * The layout and plots the map shows: the ones given, else fetched (each query runs only when its prop is absent).
 * Until a query has its answer, what the map the home page booted already shows (src/boot/): the same answers, from
 * the same requests, which the queries get a moment later.
 */
export function useAtlasData(layoutProp: MapLayoutInput | null | undefined, plotsProp: readonly AtlasPlot[] | undefined): AtlasData {
  const layoutQuery = useMapLayout({ enabled: layoutProp === undefined });
  const plotList = useQuery({ ...plotsQuery(), enabled: plotsProp === undefined });
  const [booted] = useState(bootedMapData);
  const fetchedLayout = layoutQuery.data !== undefined ? layoutQuery.data : booted?.layout;
  const layout: MapLayoutInput | null | undefined = layoutProp !== undefined ? layoutProp : fetchedLayout;
  const plots = plotsProp ?? plotList.data ?? booted?.plots ?? EMPTY_PLOTS;
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
