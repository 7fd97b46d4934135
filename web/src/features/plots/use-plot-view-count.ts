import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { takeServerRenderedPage } from '../../lib/server-rendered-page.ts';
import { sendStatBeacon } from './stat-beacon.ts';

/** History entries already counted (a re-render, or React's development double effects, count nothing more). */
const counted = new Set<string>();

/** Counts one view of /plot/:id per visit of a history entry, except the page the gateway rendered (counted there). */
export function usePlotViewCount(plotId: string): void {
  const location = useLocation();
  useEffect(() => {
    const visit = `${location.key}:${plotId}`;
    if (counted.has(visit)) return;
    counted.add(visit);
    if (takeServerRenderedPage(location.pathname)) return;
    sendStatBeacon(plotId, 'view');
  }, [location.key, location.pathname, plotId]);
}
