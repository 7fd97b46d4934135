import { INTERNAL_HEADERS } from '@pixel-atlas/contracts/admin';
import { OWNER_COOKIE, isObviousBot } from '@pixel-atlas/contracts/stats';
import type { FastifyRequest } from 'fastify';
import type { UpstreamPool } from '../upstreams.ts';

/**
 * Counts a server-rendered `/plot/:id` as one view: the same beacon the app sends for views it renders itself,
 * with the visitor's user agent (plots drops obvious bots). Fire and forget: a page never waits for a count, and
 * a lost count is only a count. The app does not count a page it takes over from this one (it would count twice).
 * The owner cookie goes along (and no other cookie): plots does not count the owner's views of their own plot.
 */
export function reportPlotView(options: {
  pool: UpstreamPool | undefined;
  internalToken: string;
  request: FastifyRequest;
  plotId: string;
}): void {
  const { pool, request } = options;
  const userAgent = request.headers['user-agent'];
  if (!pool || request.method !== 'GET' || isObviousBot(userAgent)) return;
  const ownerCookie = request.cookies[OWNER_COOKIE];
  fetch(`${pool.pick()}/api/plot-stats`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': userAgent!,
      [INTERNAL_HEADERS.token]: options.internalToken,
      [INTERNAL_HEADERS.requestId]: request.id,
      [INTERNAL_HEADERS.clientIp]: request.clientIp,
      ...(ownerCookie && { cookie: `${OWNER_COOKIE}=${encodeURIComponent(ownerCookie)}` }),
    },
    body: JSON.stringify({ plotId: options.plotId, kind: 'view' }),
    signal: AbortSignal.timeout(2000),
  })
    .then((response) => response.body?.cancel())
    .catch((error) => request.log.debug({ err: error }, 'a server-rendered view was not counted'));
}
