import type { StatKind } from '@pixel-atlas/contracts/stats';

export const STAT_BEACON_URL = '/api/plot-stats';

/**
 * Counts one view, profile open or outbound click of a plot (counts only: nothing about the visitor is sent).
 * `navigator.sendBeacon` survives the page being left (a click on an outbound link), never delays it, and sends a
 * string as text/plain; without it, a keepalive fetch does the same. A count that is lost is only a count.
 */
export function sendStatBeacon(plotId: string, kind: StatKind): void {
  const body = JSON.stringify({ plotId, kind });
  try {
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(STAT_BEACON_URL, body)) return;
  } catch {
    // A browser that refuses the beacon (quota, policy): the fetch below.
  }
  void fetch(STAT_BEACON_URL, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'text/plain;charset=UTF-8' } }).catch(
    () => undefined,
  );
}
