import { OWNER_COOKIE } from '@pixel-atlas/contracts/stats';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Enough for anyone's plots on one browser, and a cookie far below the 4 KB a browser keeps (37 bytes a plot). */
export const OWNED_PLOTS_MAX = 20;
const MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const PLOT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The plots this browser proved it owns, newest first, read only from a cookie we signed (the visitor cookie's secret):
 * an absent, forged or malformed cookie owns nothing, so a script cannot name plots to keep its beacons uncounted.
 */
export function ownedPlots(request: FastifyRequest): string[] {
  return ownedPlotsIn(request, request.cookies[OWNER_COOKIE]);
}

/**
 * The plots an owner cookie's value names, when we signed it: the value the gateway read from a browser's request and
 * passes on with a view it counts (`POST /internal/plot-views`). `request` only lends the signing secret.
 */
export function ownedPlotsIn(request: FastifyRequest, presented: string | undefined): string[] {
  if (!presented) return [];
  const unsigned = request.unsignCookie(presented);
  if (!unsigned.valid || !unsigned.value) return [];
  return unsigned.value
    .split('.')
    .filter((id) => PLOT_ID.test(id))
    .slice(0, OWNED_PLOTS_MAX);
}

/**
 * Adds `plotId` to this browser's owner cookie (first, without repeats, the oldest dropped past OWNED_PLOTS_MAX).
 * Called where a browser shows the owner's secret: the claim that returns the manage token, the owner page.
 */
export function rememberOwnedPlot(request: FastifyRequest, reply: FastifyReply, options: { plotId: string; secure: boolean }): void {
  const id = options.plotId.toLowerCase();
  const owned = [id, ...ownedPlots(request).filter((known) => known !== id)].slice(0, OWNED_PLOTS_MAX);
  reply.setCookie(OWNER_COOKIE, owned.join('.'), {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: options.secure,
    maxAge: MAX_AGE_SECONDS,
    signed: true,
  });
}
